//! Othello games in PGN, as the French federation's WTHOR database is published converted
//! (one file a year: tag pairs, then the moves as numbered pairs, then the score):
//!
//! ```text
//! [Event "Antwerpen Open - 2017"]
//! [Date "2017"]
//! [Black "Schotte Tom"]
//! [White "Reunes Nick"]
//! [Result "40-24"]
//! 1. F5 D6
//! 2. C3 D3
//! …
//! 40-24
//! ```
//!
//! [`games`] reads every game of a file; a game whose moves are not legal is returned as its
//! error (where and why), and the others are still read.

use super::error::ParseError;
use super::transcript;
use crate::{Game, Variant};

const FORMAT: &str = "PGN";

/// One game of a PGN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs, in the file's order (`Event`, `Date`, `Black`, `White`, `Result`).
    pub tags: Vec<(String, String)>,
    /// The moves, from the standard start.
    pub game: Game,
}

impl PgnGame {
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The year the game was played (the `Date` tag's first four digits).
    pub fn year(&self) -> Option<u32> {
        self.tag("Date")?.get(..4)?.parse().ok()
    }
}

/// Every game of `text`, in order: each read, or the error that stopped it.
pub fn games(text: &str) -> Vec<Result<PgnGame, ParseError>> {
    let mut out = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut moves = String::new();
    // Where the game being read starts (a character index) and where each move is.
    let mut start = 0;
    let mut at: Vec<usize> = Vec::new();
    let mut offset = 0;
    let mut finish = |tags: &mut Vec<(String, String)>,
                      moves: &mut String,
                      at: &mut Vec<usize>,
                      start: usize| {
        if tags.is_empty() && moves.is_empty() {
            return;
        }
        let game = transcript::parse(moves, Variant::Othello).map_err(|e| {
            let ply = e.ply.unwrap_or(1);
            let where_ = at.get(ply.saturating_sub(1)).copied().unwrap_or(start);
            ParseError::new(FORMAT, where_, e.reason).at_ply(ply)
        });
        out.push(game.map(|game| PgnGame {
            tags: std::mem::take(tags),
            game,
        }));
        tags.clear();
        moves.clear();
        at.clear();
    };
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if let Some(tag) = trimmed.strip_prefix('[') {
            // A tag after moves starts the next game.
            if !moves.is_empty() {
                finish(&mut tags, &mut moves, &mut at, start);
            }
            if tags.is_empty() {
                start = offset;
            }
            let tag = tag.trim_end_matches(']');
            if let Some((name, value)) = tag.split_once(' ') {
                tags.push((name.to_string(), value.trim().trim_matches('"').to_string()));
            }
        } else {
            // Squares are two characters, a letter and a digit; move numbers and the score
            // are passed over.
            let chars: Vec<char> = line.chars().collect();
            let mut i = 0;
            while i + 1 < chars.len() {
                let (c, d) = (chars[i].to_ascii_lowercase(), chars[i + 1]);
                let before = i == 0 || !chars[i - 1].is_ascii_alphanumeric();
                if before && ('a'..='h').contains(&c) && ('1'..='8').contains(&d) {
                    at.push(offset + i);
                    moves.push(c);
                    moves.push(d);
                    i += 2;
                } else {
                    i += 1;
                }
            }
        }
        offset += line.chars().count();
    }
    finish(&mut tags, &mut moves, &mut at, start);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "[Event \"Antwerpen Open - 2017\"]\n[Date \"2017\"]\n[Black \"A\"]\n[White \"B\"]\n[Result \"3-61\"]\n1. F5 D6\n2. C3 D3\n3. C4 F4\n3-61\n[Event \"Next\"]\n[Date \"2018\"]\n1. f5 f6\n2. e6 f4\n";

    #[test]
    fn reads_each_game_with_its_tags_and_moves() {
        let all = games(TWO);
        assert_eq!(all.len(), 2);
        let first = all[0].as_ref().expect("the first reads");
        assert_eq!(first.tag("Black"), Some("A"));
        assert_eq!(first.year(), Some(2017));
        assert_eq!(
            transcript::to_transcript(first.game.history()),
            "f5d6c3d3c4f4"
        );
        let second = all[1].as_ref().expect("the second reads");
        assert_eq!(second.year(), Some(2018));
        assert_eq!(transcript::to_transcript(second.game.history()), "f5f6e6f4");
    }

    #[test]
    fn an_illegal_move_is_that_game_s_error_and_the_next_still_reads() {
        let text = TWO.replace("2. C3 D3", "2. C3 A1");
        let all = games(&text);
        let e = all[0].clone().expect_err("a1 is not legal");
        assert_eq!(e.ply, Some(4));
        // The error points at the a1 in the text.
        let a1 = text.find("A1").expect("there");
        assert_eq!(e.offset, a1);
        assert!(all[1].is_ok());
    }

    #[test]
    fn nothing_in_nothing_out() {
        assert!(games("").is_empty());
        assert!(games("\n\n").is_empty());
    }
}
