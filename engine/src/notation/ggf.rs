//! GGF game records (Generic Game Format, as written by GGS and NBoard).
//!
//! A record looks like
//! `(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[Alice]PW[Bob]RE[+2.000]TI[5:00]TY[8]
//! BO[8 ---------------------------O*------*O--------------------------- *]B[F5//1.2]W[F6/-0.5/2.0]...;)`:
//! properties `KEY[value]` between `(;` and `;)`.
//!
//! What is read:
//! - `GM` must be `Othello` (any case) when present;
//! - `PC` (place), `DT` (date), `PB`/`PW` (players), `TI` (time control) are kept as text;
//! - `RE[+2.000]`, `RE[-64.00:r]`: black's margin and an optional flag (`r` resigned,
//!   `t` time out, `s` mutual score); `RE[?]` (NBoard's "not finished") means no result;
//! - `TY`: the game type, kept as text; only 8x8 games (`8`, `8r`, `s8r20`, `8k`, ...) are
//!   accepted, any other board size is refused;
//! - `BO[8 <64 squares> <side>]`: the start position, squares `*` black, `O` white, `-` empty
//!   (any alphabet [`board_string::parse`] reads), the standard
//!   start when absent;
//! - `B[move/eval/time]`, `W[...]`: a square (`F5`, `f5`) or a pass (`PA`, any case), then an
//!   optional evaluation and an optional time in seconds, all checked against the rules. A
//!   move by the colour not to move is accepted only where the side to move has to pass: the
//!   pass left out is put back, as in transcripts;
//! - every other property (`RB`, `RW`, `TB`, `TW`, `KM`, `KB`, `KW`, ...) is skipped.
//!
//! In values, `\` escapes the next character, so `]` can be written `\]` (as in SGF); the
//! exporter escapes `]` and `\` in text it writes.
//!
//! Variants: GGF has no property for the rules, so [`Variant`] is carried by the start
//! position. An empty board is read as [`Variant::FreeOpening`] (the only rules under which an
//! empty board is playable); every other start is read as [`Variant::Othello`]. So an Othello
//! game and a free-opening game from its empty start both come back with their variant; a
//! [`Variant::NoMoveEndsGame`] game is written as Othello (its moves are all legal Othello
//! moves, but where it ended, an Othello game would go on with a pass) and comes back as
//! Othello.

use super::{ParseError, board_string};
use crate::{Game, Move, Position, Side, Variant};
use std::fmt;

const FORMAT: &str = "GGF";

/// A game read from (or to be written to) a GGF record.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfRecord {
    /// The game, its moves checked against the rules.
    pub game: Game,
    /// One entry per move of `game.history()`, in order, passes included (a pass the record
    /// left out is here too, without evaluation or time). [`to_ggf`] takes evaluations and
    /// times from here where the move matches the game's.
    pub moves: Vec<GgfMove>,
    /// `PC`: where the game was played (a server, a program).
    pub place: Option<String>,
    /// `DT`: when, as the record wrote it.
    pub date: Option<String>,
    /// `PB`: the black player.
    pub black: Option<String>,
    /// `PW`: the white player.
    pub white: Option<String>,
    /// `RE`: the result as the record states it.
    pub result: Option<GgfResult>,
    /// `TI`: the time control, as the record wrote it (`5:00`, `01:00/00:00/02:00`).
    pub time: Option<String>,
    /// `TY`: the game type (`8`, `8r`, ...), always for an 8x8 board.
    pub game_type: Option<String>,
}

/// A move of a GGF record with its optional annotations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfMove {
    /// The move (a square or a pass).
    pub mv: Move,
    /// The evaluation the player gave, if any (finite).
    pub eval: Option<f64>,
    /// The time the move took, in seconds, if given (finite).
    pub time: Option<f64>,
}

/// A game's result as a GGF record states it (`RE[+2.000]`, `RE[-10:r]`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfResult {
    /// Black's margin: positive when black won (finite).
    pub margin: f64,
    /// How the game ended, when not by playing it out.
    pub flag: Option<ResultFlag>,
}

/// How a game ended, when the result carries a flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultFlag {
    /// `r`: a player resigned.
    Resigned,
    /// `t`: a player ran out of time.
    Timeout,
    /// `s`: the players agreed on the score.
    MutualScore,
}

impl fmt::Display for GgfResult {
    /// As GGF writes it: `+2.000`, `-64.000:r`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&number(self.margin, 3, true))?;
        match self.flag {
            None => Ok(()),
            Some(ResultFlag::Resigned) => f.write_str(":r"),
            Some(ResultFlag::Timeout) => f.write_str(":t"),
            Some(ResultFlag::MutualScore) => f.write_str(":s"),
        }
    }
}

impl GgfRecord {
    /// A record of `game` with no player names or annotations: `TY[8]`, the result filled in
    /// (World Othello Federation count) if the game is over, and one plain entry per move.
    pub fn from_game(game: Game) -> GgfRecord {
        let moves = game
            .history()
            .iter()
            .map(|&mv| GgfMove {
                mv,
                eval: None,
                time: None,
            })
            .collect();
        let result = game.result().map(|r| {
            let wof = r.wof();
            GgfResult {
                margin: f64::from(i16::from(wof.black) - i16::from(wof.white)),
                flag: None,
            }
        });
        GgfRecord {
            game,
            moves,
            place: None,
            date: None,
            black: None,
            white: None,
            result,
            time: None,
            game_type: Some("8".to_string()),
        }
    }
}

/// `x` with `decimals` decimals if that reads back exactly, else in the shortest form that
/// does, so that export and import agree to the bit.
fn number(x: f64, decimals: usize, signed: bool) -> String {
    let fixed = if signed {
        format!("{x:+.decimals$}")
    } else {
        format!("{x:.decimals$}")
    };
    if fixed.parse::<f64>().ok() == Some(x) {
        fixed
    } else if signed {
        format!("{x:+}")
    } else {
        format!("{x}")
    }
}

/// Writes `text` into a property value, escaping what would end it early.
fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        if matches!(c, ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
}

/// The GGF record of `record`: one line, `(;GM[Othello]...;)`. Only the moves on the board
/// (`game.history()`) are written, not those that could be redone. [`parse`] reads it back
/// to an equal record (but see the module docs on variants).
pub fn to_ggf(record: &GgfRecord) -> String {
    let mut out = String::from("(;GM[Othello]");
    let text_props = [
        ("PC", &record.place),
        ("DT", &record.date),
        ("PB", &record.black),
        ("PW", &record.white),
    ];
    for (key, value) in text_props {
        if let Some(value) = value {
            out.push_str(key);
            out.push('[');
            push_escaped(&mut out, value);
            out.push(']');
        }
    }
    if let Some(result) = &record.result {
        out.push_str(&format!("RE[{result}]"));
    }
    for (key, value) in [("TI", &record.time), ("TY", &record.game_type)] {
        if let Some(value) = value {
            out.push_str(key);
            out.push('[');
            push_escaped(&mut out, value);
            out.push(']');
        }
    }
    let start = record.game.start_position();
    out.push_str("BO[8 ");
    for c in board_string::to_board_string(&start).chars().take(64) {
        out.push(if c == 'X' { '*' } else { c });
    }
    out.push_str(match start.side_to_move() {
        Side::Black => " *]",
        Side::White => " O]",
    });
    let positions = record.game.positions();
    for (i, (&mv, pos)) in record.game.history().iter().zip(positions).enumerate() {
        out.push(match pos.side_to_move() {
            Side::Black => 'B',
            Side::White => 'W',
        });
        out.push('[');
        match mv {
            Move::Play(sq) => out.push_str(&sq.to_string().to_ascii_uppercase()),
            Move::Pass => out.push_str("PA"),
        }
        let annotation = record.moves.get(i).filter(|m| m.mv == mv);
        let eval = annotation.and_then(|m| m.eval);
        let time = annotation.and_then(|m| m.time);
        if eval.is_some() || time.is_some() {
            out.push('/');
            if let Some(eval) = eval {
                out.push_str(&number(eval, 2, false));
            }
            if let Some(time) = time {
                out.push('/');
                out.push_str(&number(time, 2, false));
            }
        }
        out.push(']');
    }
    out.push_str(";)");
    out
}

/// The GGF record of `game` alone (see [`GgfRecord::from_game`]).
pub fn game_to_ggf(game: &Game) -> String {
    to_ggf(&GgfRecord::from_game(game.clone()))
}

/// A property value: its characters (escapes removed) with their offsets in the text.
type Value = Vec<(usize, char)>;

fn text_of(value: &Value) -> String {
    value.iter().map(|&(_, c)| c).collect()
}

/// One `KEY[value]` of a record.
struct Property {
    key: String,
    /// Offset of the key's first character.
    offset: usize,
    value: Value,
    /// Offset of the first character after `[`.
    value_offset: usize,
}

impl Property {
    fn error(&self, at: usize, reason: impl fmt::Display) -> ParseError {
        ParseError::new(FORMAT, at, format!("{}[...]: {reason}", self.key))
    }

    /// The offset of the value's `i`-th character (or just past the value).
    fn offset_in_value(&self, i: usize) -> usize {
        match self.value.get(i) {
            Some(&(offset, _)) => offset,
            None => self.value.last().map_or(self.value_offset, |&(o, _)| o + 1),
        }
    }
}

/// Reads the properties of the record that opens at `start` (just after skipping white
/// space), and returns them with the offset just past its `;)`.
fn read_properties(chars: &[char], start: usize) -> Result<(Vec<Property>, usize), ParseError> {
    let mut i = start;
    if chars.get(i) != Some(&'(') || chars.get(i + 1) != Some(&';') {
        let found: String = chars[i.min(chars.len())..chars.len().min(i + 8)]
            .iter()
            .collect();
        return Err(ParseError::new(
            FORMAT,
            i,
            format!("a GGF record starts with \"(;\", found {found:?}"),
        ));
    }
    i += 2;
    let mut properties = Vec::new();
    loop {
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        let Some(&c) = chars.get(i) else {
            return Err(ParseError::new(
                FORMAT,
                start,
                "this record is not closed: \";)\" is missing at its end",
            ));
        };
        if c == ';' && chars.get(i + 1) == Some(&')') {
            return Ok((properties, i + 2));
        }
        let key_start = i;
        while chars.get(i).is_some_and(|c| c.is_ascii_alphanumeric()) {
            i += 1;
        }
        if i == key_start {
            return Err(ParseError::new(
                FORMAT,
                i,
                format!(
                    "expected a property like PB[name], or \";)\" to end the game, found {c:?}"
                ),
            ));
        }
        let key: String = chars[key_start..i].iter().collect();
        if chars.get(i) != Some(&'[') {
            return Err(ParseError::new(
                FORMAT,
                i,
                format!("expected \"[\" after the property name {key}"),
            ));
        }
        let open = i;
        i += 1;
        let value_offset = i;
        let mut value = Value::new();
        loop {
            match chars.get(i) {
                None => {
                    return Err(ParseError::new(
                        FORMAT,
                        open,
                        format!("the value of {key} is not closed by \"]\""),
                    ));
                }
                Some(']') => break,
                Some('\\') => {
                    if let Some(&escaped) = chars.get(i + 1) {
                        value.push((i + 1, escaped));
                    }
                    i += 2;
                }
                Some(&c) => {
                    value.push((i, c));
                    i += 1;
                }
            }
        }
        i += 1;
        properties.push(Property {
            key: key.to_ascii_uppercase(),
            offset: key_start,
            value,
            value_offset,
        });
    }
}

/// A finite number, or what is wrong with `text`.
fn finite(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("expected a number, found {text:?}")),
    }
}

/// Splits a value at `/`, keeping each part's index in the value.
fn split_slashes(value: &Value) -> Vec<(usize, String)> {
    let mut parts = vec![(0, String::new())];
    for (i, &(_, c)) in value.iter().enumerate() {
        if c == '/' {
            parts.push((i + 1, String::new()));
        } else if let Some((_, part)) = parts.last_mut() {
            part.push(c);
        }
    }
    parts
}

fn parse_move(prop: &Property) -> Result<GgfMove, ParseError> {
    let parts = split_slashes(&prop.value);
    if parts.len() > 3 {
        let (i, _) = parts[3];
        return Err(prop.error(
            prop.offset_in_value(i - 1),
            "a move is written move/evaluation/time: too many \"/\"",
        ));
    }
    let (_, move_text) = &parts[0];
    let mv = move_text.trim().parse::<Move>().map_err(|_| {
        prop.error(
            prop.value_offset,
            format!(
                "expected a square like F5 (column A-H, row 1-8) or a pass (PA), found {:?}",
                move_text
            ),
        )
    })?;
    let annotation = |n: usize| -> Result<Option<f64>, ParseError> {
        match parts.get(n) {
            Some((i, text)) if !text.trim().is_empty() => finite(text.trim())
                .map(Some)
                .map_err(|reason| prop.error(prop.offset_in_value(*i), reason)),
            _ => Ok(None),
        }
    };
    Ok(GgfMove {
        mv,
        eval: annotation(1)?,
        time: annotation(2)?,
    })
}

fn parse_result(prop: &Property) -> Result<GgfResult, ParseError> {
    let text = text_of(&prop.value);
    let (number_text, flag_text) = match text.split_once(':') {
        Some((n, f)) => (n, Some(f)),
        None => (text.as_str(), None),
    };
    let margin = finite(number_text.trim()).map_err(|reason| {
        prop.error(
            prop.value_offset,
            format!("{reason}: a result is black's margin, like +2.000 or -10:r"),
        )
    })?;
    let flag = match flag_text.map(str::trim) {
        None => None,
        Some(f) if f.eq_ignore_ascii_case("r") => Some(ResultFlag::Resigned),
        Some(f) if f.eq_ignore_ascii_case("t") => Some(ResultFlag::Timeout),
        Some(f) if f.eq_ignore_ascii_case("s") => Some(ResultFlag::MutualScore),
        Some(f) => {
            let at = prop.offset_in_value(number_text.chars().count() + 1);
            return Err(prop.error(
                at,
                format!("unknown result flag {f:?}: expected r (resigned), t (time out) or s (mutual score)"),
            ));
        }
    };
    Ok(GgfResult { margin, flag })
}

/// Checks that a game type (`8`, `8r`, `s8r20`, `10`) is for an 8x8 board.
fn check_type(prop: &Property) -> Result<(), ParseError> {
    let text = text_of(&prop.value);
    let letters = text.chars().take_while(|c| c.is_ascii_alphabetic()).count();
    let digits: String = text
        .chars()
        .skip(letters)
        .take_while(|c| c.is_ascii_digit())
        .collect();
    if digits.is_empty() {
        return Err(prop.error(
            prop.value_offset,
            format!(
                "expected a game type with the board size, like TY[8] or TY[8r], found {text:?}"
            ),
        ));
    }
    if digits != "8" {
        return Err(prop.error(
            prop.offset_in_value(letters),
            format!(
                "a game on a {digits}x{digits} board (type {text:?}): only 8x8 Othello can be read"
            ),
        ));
    }
    Ok(())
}

fn parse_board(prop: &Property) -> Result<Position, ParseError> {
    let skip = prop
        .value
        .iter()
        .take_while(|(_, c)| c.is_whitespace())
        .count();
    let size_len = prop.value[skip..]
        .iter()
        .take_while(|(_, c)| !c.is_whitespace())
        .count();
    let size: String = prop.value[skip..skip + size_len]
        .iter()
        .map(|&(_, c)| c)
        .collect();
    if size != "8" {
        return Err(prop.error(
            prop.offset_in_value(skip),
            format!(
                "expected the board size 8, then 64 squares and the side to move, found {size:?}: only 8x8 Othello can be read"
            ),
        ));
    }
    let rest_start = skip + size_len;
    let rest: String = prop.value[rest_start..].iter().map(|&(_, c)| c).collect();
    board_string::parse(&rest).map_err(|e| {
        prop.error(
            prop.offset_in_value(rest_start + e.offset),
            format!("the start position: {}", e.reason),
        )
    })
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Black => "black (B)",
        Side::White => "white (W)",
    }
}

/// Reads one record from its properties.
fn build(properties: Vec<Property>) -> Result<GgfRecord, ParseError> {
    let mut record = GgfRecord {
        game: Game::new(Variant::Othello),
        moves: Vec::new(),
        place: None,
        date: None,
        black: None,
        white: None,
        result: None,
        time: None,
        game_type: None,
    };
    let mut board_seen = false;
    for prop in &properties {
        let colour = match prop.key.as_str() {
            "B" => Side::Black,
            "W" => Side::White,
            "GM" => {
                let game = text_of(&prop.value);
                if !game.trim().eq_ignore_ascii_case("othello") {
                    return Err(prop.error(
                        prop.value_offset,
                        format!("this is a record of {game:?}, not of Othello"),
                    ));
                }
                continue;
            }
            "PC" => {
                record.place = Some(text_of(&prop.value));
                continue;
            }
            "DT" => {
                record.date = Some(text_of(&prop.value));
                continue;
            }
            "PB" => {
                record.black = Some(text_of(&prop.value));
                continue;
            }
            "PW" => {
                record.white = Some(text_of(&prop.value));
                continue;
            }
            "TI" => {
                record.time = Some(text_of(&prop.value));
                continue;
            }
            // NBoard writes an unfinished game's result as `RE[?]` (or empty): no result yet.
            "RE" if matches!(text_of(&prop.value).trim(), "" | "?") => continue,
            "RE" => {
                record.result = Some(parse_result(prop)?);
                continue;
            }
            "TY" => {
                check_type(prop)?;
                record.game_type = Some(text_of(&prop.value));
                continue;
            }
            "BO" => {
                if board_seen {
                    return Err(prop.error(prop.offset, "the start position is given twice"));
                }
                if !record.moves.is_empty() {
                    return Err(
                        prop.error(prop.offset, "the start position comes after the first move")
                    );
                }
                board_seen = true;
                let start = parse_board(prop)?;
                let variant = if start.empties().count() == 64 {
                    Variant::FreeOpening
                } else {
                    Variant::Othello
                };
                record.game = Game::from_position(start, variant);
                continue;
            }
            // Ratings, per-player clocks, komi and anything newer: not needed to replay.
            _ => continue,
        };
        let ggf_move = parse_move(prop)?;
        let game = &mut record.game;
        if game.is_over() {
            return Err(ParseError::new(
                FORMAT,
                prop.offset,
                format!(
                    "{} comes after the end of the game ({} moves)",
                    ggf_move.mv,
                    game.ply()
                ),
            )
            .at_ply(game.ply() + 1));
        }
        if colour != game.side_to_move() {
            if !game.must_pass() {
                return Err(ParseError::new(
                    FORMAT,
                    prop.offset,
                    format!(
                        "it is {}'s turn, but the record has {} play {}",
                        side_name(game.side_to_move()),
                        side_name(colour),
                        ggf_move.mv
                    ),
                )
                .at_ply(game.ply() + 1));
            }
            // The pass the record left out.
            let ply = game.ply() + 1;
            game.play(Move::Pass)
                .map_err(|e| ParseError::new(FORMAT, prop.offset, e.to_string()).at_ply(ply))?;
            record.moves.push(GgfMove {
                mv: Move::Pass,
                eval: None,
                time: None,
            });
        }
        let ply = game.ply() + 1;
        game.play(ggf_move.mv)
            .map_err(|e| ParseError::new(FORMAT, prop.offset, e.to_string()).at_ply(ply))?;
        record.moves.push(ggf_move);
    }
    Ok(record)
}

fn skip_whitespace(chars: &[char], mut i: usize) -> usize {
    while chars.get(i).is_some_and(|c| c.is_whitespace()) {
        i += 1;
    }
    i
}

/// Reads one GGF record (white space around it is allowed; anything else after it is an
/// error: use [`parse_all`] for a file of many games). Every move is checked against the
/// rules; the first bad one is reported with its move number and character offset.
pub fn parse(text: &str) -> Result<GgfRecord, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let start = skip_whitespace(&chars, 0);
    if start == chars.len() {
        return Err(ParseError::new(
            FORMAT,
            start,
            "expected a GGF record, like (;GM[Othello]...;), found nothing",
        ));
    }
    let (properties, end) = read_properties(&chars, start)?;
    let record = build(properties)?;
    let after = skip_whitespace(&chars, end);
    if after < chars.len() {
        return Err(ParseError::new(
            FORMAT,
            after,
            "more text after the end of the game (\";)\"): read a file of many games with parse_all",
        ));
    }
    Ok(record)
}

/// Reads every GGF record of a text (one after the other, white space between them), as in
/// the game files of GGS. An empty text gives no game. Stops at the first error.
pub fn parse_all(text: &str) -> Result<Vec<GgfRecord>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut records = Vec::new();
    let mut i = skip_whitespace(&chars, 0);
    while i < chars.len() {
        let (properties, end) = read_properties(&chars, i)?;
        records.push(build(properties)?);
        i = skip_whitespace(&chars, end);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{expect_err, transcript};

    const NBOARD: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[Alice]PW[Bob]RE[+2.000]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//1.2]W[F6/-0.5/2.0]B[E6]W[f4];)";

    fn ok<T>(r: Result<T, ParseError>) -> T {
        r.unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn an_unfinished_result_is_no_result() {
        for re in ["RE[?]", "RE[]"] {
            let r = ok(parse(&NBOARD.replace("RE[+2.000]", re)));
            assert_eq!(r.result, None, "{re}");
            assert_eq!(r.game.ply(), 4);
        }
    }

    #[test]
    fn reads_an_nboard_record() {
        let r = ok(parse(NBOARD));
        assert_eq!(r.place.as_deref(), Some("NBoard"));
        assert_eq!(r.date.as_deref(), Some("2014-02-21 20:52:27 GMT"));
        assert_eq!(r.black.as_deref(), Some("Alice"));
        assert_eq!(r.white.as_deref(), Some("Bob"));
        assert_eq!(r.time.as_deref(), Some("5:00"));
        assert_eq!(r.game_type.as_deref(), Some("8"));
        assert_eq!(
            r.result,
            Some(GgfResult {
                margin: 2.0,
                flag: None
            })
        );
        assert_eq!(r.game.variant(), Variant::Othello);
        assert_eq!(transcript::to_transcript(r.game.history()), "f5f6e6f4");
        assert_eq!(r.moves.len(), 4);
        assert_eq!(r.moves[0].eval, None);
        assert_eq!(r.moves[0].time, Some(1.2));
        assert_eq!(r.moves[1].eval, Some(-0.5));
        assert_eq!(r.moves[1].time, Some(2.0));
    }

    #[test]
    fn export_reads_back_identically() {
        let r = ok(parse(NBOARD));
        let text = to_ggf(&r);
        assert_eq!(ok(parse(&text)), r, "{text}");
        let mut odd = r.clone();
        odd.black = Some("a]b\\c".to_string());
        odd.moves[2].eval = Some(0.1 + 0.2);
        odd.result = Some(GgfResult {
            margin: -64.0,
            flag: Some(ResultFlag::Resigned),
        });
        let text = to_ggf(&odd);
        assert!(text.contains("RE[-64.000:r]"), "{text}");
        assert_eq!(ok(parse(&text)), odd, "{text}");
    }

    /// A random finished game that contains a pass (seeded, so always the same one).
    fn game_with_a_pass() -> Game {
        let mut rng = crate::FastRng::new(7);
        loop {
            let mut game = Game::new(Variant::Othello);
            while !game.is_over() {
                let moves = game.moves();
                let pick = moves[rng.below(moves.len() as u32) as usize];
                ok(game
                    .play(pick)
                    .map_err(|e| ParseError::new("t", 0, e.to_string())));
            }
            if game.history().contains(&Move::Pass) {
                return game;
            }
        }
    }

    #[test]
    fn passes_explicit_or_left_out() {
        let game = game_with_a_pass();
        let explicit = to_ggf(&GgfRecord::from_game(game.clone()));
        assert!(explicit.contains("[PA]"), "{explicit}");
        let back = ok(parse(&explicit));
        assert_eq!(back.game, game);
        // Leave the passes out: they are put back.
        let implicit = explicit.replace("B[PA]", "").replace("W[PA]", "");
        let back = ok(parse(&implicit));
        assert_eq!(back.game, game);
        assert_eq!(to_ggf(&back), explicit);
        // A pass written in lower case.
        let lower = explicit.replace("[PA]", "[pa]");
        assert_eq!(ok(parse(&lower)).game, game);
    }

    #[test]
    fn wrong_colour_is_refused_with_ply_and_offset() {
        let text = "(;GM[Othello]B[F5]B[F6];)";
        let e = expect_err(parse(text));
        assert_eq!(e.ply, Some(2));
        assert_eq!(e.offset, 18);
        assert!(e.reason.contains("white"), "{e}");
        let e = expect_err(parse("(;B[F5]W[A1];)"));
        assert_eq!((e.ply, e.offset), (Some(2), 7));
        assert!(e.reason.contains("flips no disc"), "{e}");
        let e = expect_err(parse("(;B[F5]W[Z9];)"));
        assert_eq!((e.ply, e.offset), (None, 9));
        let e = expect_err(parse("(;B[F5]W[F6/x];)"));
        assert_eq!(e.offset, 12);
    }

    #[test]
    fn only_8x8_othello() {
        let e = expect_err(parse("(;GM[Othello]TY[10];)"));
        assert!(e.reason.contains("10x10"), "{e}");
        assert_eq!(e.offset, 16);
        assert!(parse("(;GM[Othello]TY[8r];)").is_ok());
        assert!(parse("(;GM[Othello]TY[s8r20];)").is_ok());
        let e = expect_err(parse("(;GM[Amazons];)"));
        assert!(e.reason.contains("Amazons"), "{e}");
        let e = expect_err(parse("(;BO[10 ---];)"));
        assert!(e.reason.contains("8x8"), "{e}");
    }

    #[test]
    fn unknown_properties_are_skipped_and_bad_syntax_located() {
        let r = ok(parse("(;GM[Othello]RB[1800.5]KM[0]XX[what]B[f5];)"));
        assert_eq!(r.game.ply(), 1);
        let e = expect_err(parse("(;GM[Othello]B[f5]"));
        assert_eq!(e.offset, 0);
        let e = expect_err(parse("(;GM[Othello"));
        assert_eq!(e.offset, 4);
        let e = expect_err(parse("(;GM[Othello]?;)"));
        assert_eq!(e.offset, 13);
        let e = expect_err(parse("f5d6"));
        assert_eq!(e.offset, 0);
        let e = expect_err(parse("(;;) x"));
        assert_eq!(e.offset, 5);
    }

    #[test]
    fn free_opening_survives_and_random_starts_are_kept() {
        let mut game = Game::new(Variant::FreeOpening);
        for m in ["d4", "e5", "d5", "e4", "f3"] {
            ok(game
                .play(ok(m
                    .parse()
                    .map_err(|e| ParseError::new("t", 0, format!("{e}")))))
                .map_err(|e| ParseError::new("t", 0, e.to_string())));
        }
        let back = ok(parse(&game_to_ggf(&game)));
        assert_eq!(back.game, game);
        // A random start (8r): the position after f5, white to move.
        let after_f5 = Position::start().play_unchecked(crate::Square::ALL[37]);
        let board = board_string::to_board_string(&after_f5).replace('X', "*");
        let r = ok(parse(&format!("(;TY[8r]BO[8 {board}]W[F6];)")));
        assert_eq!(r.game.variant(), Variant::Othello);
        assert_eq!(r.game.start_position().side_to_move(), Side::White);
        assert_eq!(ok(parse(&to_ggf(&r))), r);
    }

    #[test]
    fn many_games() {
        let text = format!("{NBOARD}\n{NBOARD}\n");
        assert_eq!(ok(parse_all(&text)).len(), 2);
        assert!(parse(&text).is_err());
        assert_eq!(ok(parse_all("  ")).len(), 0);
    }

    #[test]
    fn moves_after_the_end_are_refused() {
        // The shortest game: black wins in 9 moves.
        let game = ok(transcript::parse("e6f4e3f6g5d6e7f5c5", Variant::Othello));
        assert!(game.is_over());
        let text = to_ggf(&GgfRecord::from_game(game)).replace(";)", "W[A1];)");
        let e = expect_err(parse(&text));
        assert_eq!(e.ply, Some(10));
        assert!(e.reason.contains("end of the game"), "{e}");
    }
}
