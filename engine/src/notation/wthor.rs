//! The WTHOR database's binary game files (`WTH_YYYY.wtb`), the French Othello Federation's
//! record of tournament games: a 16-byte header (the file's date, the number of games, the
//! games' year, the board's size, and the depth of the perfect-play score), then 68 bytes a
//! game: the tournament's and the players' numbers (three little-endian `u16`), Black's discs
//! at the end as played, Black's discs with perfect play from the position `depth` squares
//! from the end, and 60 moves as `10 * row + column` (1-based; 0 once the game has ended).
//!
//! [`parse`] reads a whole file; a game whose moves are not legal is returned as its error
//! (the byte where, and why), and the others are still read.

use super::error::ParseError;
use crate::{Game, Move, Square, Variant};

const FORMAT: &str = "WTHOR";
const HEADER: usize = 16;
const RECORD: usize = 68;

/// One game of a WTHOR file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    /// Black's discs at the end as the game was played.
    pub black_discs: u8,
    /// Black's discs with perfect play from the position `depth` empty squares from the end
    /// ([`WthorFile::depth`]).
    pub perfect_black_discs: u8,
    /// The moves, from the standard start, passes included.
    pub game: Game,
}

/// A WTHOR file.
#[derive(Clone, Debug)]
pub struct WthorFile {
    /// The year the games were played.
    pub year: u16,
    /// How many empty squares the perfect-play scores are counted from (22 or 24).
    pub depth: u8,
    /// Every game, read or the error that stopped it.
    pub games: Vec<Result<WthorGame, ParseError>>,
}

/// Reads a WTHOR game file.
pub fn parse(bytes: &[u8]) -> Result<WthorFile, ParseError> {
    if bytes.len() < HEADER {
        return Err(ParseError::new(
            FORMAT,
            0,
            "shorter than the 16-byte header",
        ));
    }
    let count = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
    let year = u16::from_le_bytes([bytes[10], bytes[11]]);
    if bytes[12] != 8 && bytes[12] != 0 {
        return Err(ParseError::new(
            FORMAT,
            12,
            format!("a board of {} squares a side, not 8", bytes[12]),
        ));
    }
    let depth = bytes[14];
    let body = &bytes[HEADER..];
    if body.len() != count * RECORD {
        return Err(ParseError::new(
            FORMAT,
            4,
            format!(
                "the header says {count} games, the file holds {} bytes of them ({} expected)",
                body.len(),
                count * RECORD
            ),
        ));
    }
    let games = body
        .chunks_exact(RECORD)
        .enumerate()
        .map(|(i, record)| game(record, HEADER + i * RECORD))
        .collect();
    Ok(WthorFile { year, depth, games })
}

/// One 68-byte record at byte `at` of the file.
fn game(record: &[u8], at: usize) -> Result<WthorGame, ParseError> {
    let mut game = Game::new(Variant::Othello);
    for (i, &code) in record[8..].iter().enumerate() {
        if code == 0 {
            break;
        }
        let (row, column) = (code / 10, code % 10);
        let square = (1..=8)
            .contains(&row)
            .then(|| Square::from_coords(column.wrapping_sub(1), row - 1))
            .flatten()
            .ok_or_else(|| {
                ParseError::new(FORMAT, at + 8 + i, format!("{code} is not a square"))
                    .at_ply(game.ply() + 1)
            })?;
        // A player with no move passes before the next move is played.
        if game.must_pass() {
            game.play(Move::Pass).map_err(|e| {
                ParseError::new(FORMAT, at + 8 + i, e.to_string()).at_ply(game.ply() + 1)
            })?;
        }
        game.play(Move::Play(square)).map_err(|e| {
            ParseError::new(FORMAT, at + 8 + i, e.to_string()).at_ply(game.ply() + 1)
        })?;
    }
    Ok(WthorGame {
        black_discs: record[6],
        perfect_black_discs: record[7],
        game,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::transcript;

    /// A file of `games`, each a transcript and the two scores.
    fn file(games: &[(&str, u8, u8)]) -> Vec<u8> {
        let mut bytes = vec![20, 18, 8, 8];
        bytes.extend((games.len() as u32).to_le_bytes());
        bytes.extend([0, 0]);
        bytes.extend(2017u16.to_le_bytes());
        bytes.extend([8, 0, 24, 0]);
        for (moves, played, perfect) in games {
            bytes.extend([1, 0, 2, 0, 3, 0, *played, *perfect]);
            let game = transcript::parse(moves, Variant::Othello).expect("legal");
            let mut codes: Vec<u8> = game
                .history()
                .iter()
                .filter_map(|m| m.square())
                .map(|s| 10 * (s.row() + 1) + s.column() + 1)
                .collect();
            codes.resize(60, 0);
            bytes.extend(codes);
        }
        bytes
    }

    #[test]
    fn reads_the_header_and_each_game() {
        let bytes = file(&[("f5d6c3d3c4", 40, 34), ("f5f6e6f4", 10, 12)]);
        let f = parse(&bytes).expect("reads");
        assert_eq!((f.year, f.depth, f.games.len()), (2017, 24, 2));
        let first = f.games[0].as_ref().expect("legal");
        assert_eq!((first.black_discs, first.perfect_black_discs), (40, 34));
        assert_eq!(
            transcript::to_transcript(first.game.history()),
            "f5d6c3d3c4"
        );
        let second = f.games[1].as_ref().expect("legal");
        assert_eq!(transcript::to_transcript(second.game.history()), "f5f6e6f4");
    }

    #[test]
    fn a_bad_game_says_where_and_the_others_still_read() {
        let mut bytes = file(&[("f5d6c3d3c4", 40, 34), ("f5f6e6f4", 10, 12)]);
        // The first game's third move made a1 (code 11), which is not legal there.
        bytes[HEADER + 8 + 2] = 11;
        let f = parse(&bytes).expect("the file reads");
        let e = f.games[0].clone().expect_err("a1 is illegal");
        assert_eq!((e.offset, e.ply), (HEADER + 10, Some(3)));
        assert!(f.games[1].is_ok());
        // 99 is not a square.
        bytes[HEADER + 8 + 2] = 99;
        let e = parse(&bytes).expect("reads").games[0]
            .clone()
            .expect_err("99");
        assert!(e.reason.contains("99 is not a square"), "{e}");
    }

    #[test]
    fn a_truncated_or_foreign_file_is_refused() {
        let bytes = file(&[("f5d6", 40, 34)]);
        assert!(parse(&bytes[..10]).unwrap_err().reason.contains("header"));
        let e = parse(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(e.reason.contains("the header says 1 games"), "{e}");
        let mut ten = bytes.clone();
        ten[12] = 10;
        assert!(parse(&ten).unwrap_err().reason.contains("10 squares"));
    }
}
