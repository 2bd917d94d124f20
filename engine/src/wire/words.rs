//! The words of a line: reading them one by one with their places for errors, and the
//! positions, variants, caps and moves they hold.

use super::WireError;
use crate::{Bitboard, Move, Position, Side, Variant};
use std::fmt::{self, Write};

/// The words of a line, read one by one with the position of each for errors.
pub(super) struct Words<'a> {
    words: std::str::SplitAsciiWhitespace<'a>,
    pub(super) at: usize,
}

impl<'a> Words<'a> {
    pub(super) fn new(line: &'a str) -> Words<'a> {
        Words {
            words: line.split_ascii_whitespace(),
            at: 0,
        }
    }

    pub(super) fn fail<T>(&self, why: impl Into<String>) -> Result<T, WireError> {
        Err(WireError {
            word: self.at,
            why: why.into(),
        })
    }

    pub(super) fn next(&mut self, what: &str) -> Result<&'a str, WireError> {
        self.at += 1;
        match self.words.next() {
            Some(w) => Ok(w),
            None => self.fail(format!("missing {what}")),
        }
    }

    pub(super) fn number<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, WireError> {
        let w = self.next(what)?;
        w.parse()
            .or_else(|_| self.fail(format!("{what} {w:?} is not a number")))
    }

    pub(super) fn rest(self) -> impl Iterator<Item = (usize, &'a str)> {
        let at = self.at;
        self.words.enumerate().map(move |(i, w)| (at + 1 + i, w))
    }

    pub(super) fn end(mut self) -> Result<(), WireError> {
        self.at += 1;
        match self.words.next() {
            None => Ok(()),
            Some(w) => self.fail(format!("unexpected {w:?} after the message")),
        }
    }
}

pub(super) fn err<T>(word: usize, why: impl Into<String>) -> Result<T, WireError> {
    Err(WireError {
        word,
        why: why.into(),
    })
}

pub(super) fn write_position(out: &mut impl Write, pos: &Position) -> fmt::Result {
    let side = match pos.side_to_move() {
        Side::Black => 'b',
        Side::White => 'w',
    };
    write!(out, "{:x}:{:x}:{side}", pos.black().0, pos.white().0)
}

pub(super) fn read_position(word: usize, text: &str) -> Result<Position, WireError> {
    let mut parts = text.split(':');
    let (Some(black), Some(white), Some(side), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return err(word, format!("{text:?} is not BLACK:WHITE:SIDE"));
    };
    let bits = |t: &str| {
        u64::from_str_radix(t, 16)
            .or_else(|_| err(word, format!("{t:?} is not a hexadecimal bitboard")))
    };
    let (black, white) = (bits(black)?, bits(white)?);
    if black & white != 0 {
        return err(word, "a square holds both colours");
    }
    let (player, opponent, side) = match side {
        "b" => (black, white, Side::Black),
        "w" => (white, black, Side::White),
        _ => return err(word, format!("side {side:?} is neither b nor w")),
    };
    Ok(Position::from_player_opponent(
        Bitboard(player),
        Bitboard(opponent),
        side,
    ))
}

pub(super) fn read_variant(word: usize, text: &str) -> Result<Variant, WireError> {
    Variant::from_name(text).map_or_else(|| err(word, format!("no variant {text:?}")), Ok)
}

pub(super) fn cap<T: std::str::FromStr>(word: usize, text: &str) -> Result<Option<T>, WireError> {
    if text == "-" {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .or_else(|_| err(word, format!("{text:?} is not a number or -")))
}

pub(super) fn opt<T: fmt::Display>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_string(), |v| v.to_string())
}

pub(super) fn read_move(word: usize, text: &str) -> Result<Move, WireError> {
    text.parse()
        .or_else(|_| err(word, format!("{text:?} is not a move")))
}

pub(super) fn flag(w: &mut Words<'_>, what: &str) -> Result<bool, WireError> {
    match w.next(what)? {
        "0" => Ok(false),
        "1" => Ok(true),
        other => w.fail(format!("{what} {other:?} is neither 0 nor 1")),
    }
}
