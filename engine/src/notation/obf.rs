//! OBF, the format of the public endgame test suites (the FFO positions): one position a line,
//! a board string, `;`, then optionally `move:score` entries each closed by `;`, the score
//! the side to move's final disc margin with best play after that move:
//!
//! ```text
//! O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;
//! ```
//!
//! Blank lines and lines starting with `%` or `#` are skipped. A pass is written `PS` (or
//! `pass`).

use super::{ParseError, board_string};
use crate::{Move, Position, Variant};

const FORMAT: &str = "OBF";

/// One line of an OBF file: a position and the scores it states for some of its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfPosition {
    /// The 1-based line number in the file.
    pub line: usize,
    /// The position, side to move included.
    pub position: Position,
    /// Moves with their final margins for the side to move, as the file lists them (the
    /// first is usually a best move).
    pub scores: Vec<(Move, i32)>,
}

impl ObfPosition {
    /// The best score the file states (the position's value), if it states any.
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, s)| s).max()
    }

    /// Whether the file lists `mv` with the best score.
    pub fn is_best_move(&self, mv: Move) -> bool {
        let best = self.best_score();
        self.scores.iter().any(|&(m, s)| m == mv && Some(s) == best)
    }
}

/// Reads a whole OBF file. Errors say the line, the character in it, and why.
pub fn parse(text: &str) -> Result<Vec<ObfPosition>, (usize, ParseError)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('%') || t.starts_with('#') {
            continue;
        }
        out.push(parse_line(line, i + 1).map_err(|e| (i + 1, e))?);
    }
    Ok(out)
}

/// Reads one OBF line (`line_number` is only recorded).
pub fn parse_line(line: &str, line_number: usize) -> Result<ObfPosition, ParseError> {
    let mut fields = line.split(';');
    let board = fields.next().unwrap_or_default();
    let position =
        board_string::parse(board).map_err(|e| ParseError::new(FORMAT, e.offset, e.reason))?;
    let mut offset = board.chars().count() + 1;
    let mut scores = Vec::new();
    for field in fields {
        let lead = field.chars().take_while(|c| c.is_whitespace()).count();
        let entry = field.trim();
        if !entry.is_empty() {
            scores.push(parse_entry(entry, &position, offset + lead)?);
        }
        offset += field.chars().count() + 1;
    }
    Ok(ObfPosition {
        line: line_number,
        position,
        scores,
    })
}

fn parse_entry(entry: &str, position: &Position, offset: usize) -> Result<(Move, i32), ParseError> {
    let Some((mv_text, score_text)) = entry.split_once(':') else {
        return Err(ParseError::new(
            FORMAT,
            offset,
            format!("expected move:score (like A2:+38), found {entry:?}"),
        ));
    };
    let mv_text = mv_text.trim();
    let mv = mv_text
        .parse::<Move>()
        .map_err(|e| ParseError::new(FORMAT, offset, format!("{mv_text:?} is not a move: {e}")))?;
    if !Variant::Othello.moves(position).contains(&mv) {
        return Err(ParseError::new(
            FORMAT,
            offset,
            format!("{mv} is not a legal move in this position"),
        ));
    }
    let score_offset = offset + entry.find(':').map_or(0, |i| entry[..=i].chars().count());
    let score: i32 = score_text.trim().parse().map_err(|_| {
        ParseError::new(
            FORMAT,
            score_offset,
            format!(
                "{:?} is not a score (a disc margin like +6 or -2)",
                score_text.trim()
            ),
        )
    })?;
    if !(-64..=64).contains(&score) {
        return Err(ParseError::new(
            FORMAT,
            score_offset,
            format!("{score} is not a final disc margin (-64 to +64)"),
        ));
    }
    Ok((mv, score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    const LINE: &str =
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;";

    #[test]
    fn reads_a_suite_line() {
        let p = parse_line(LINE, 7).expect("valid line");
        assert_eq!(p.line, 7);
        assert_eq!(p.position.empties().count(), 20);
        assert_eq!(
            p.scores,
            vec![
                (Move::Play("a2".parse::<Square>().expect("square")), 38),
                (Move::Play("c7".parse::<Square>().expect("square")), 36)
            ]
        );
        assert_eq!(p.best_score(), Some(38));
        assert!(p.is_best_move(Move::Play("a2".parse::<Square>().expect("square"))));
        assert!(!p.is_best_move(Move::Play("c7".parse::<Square>().expect("square"))));
    }

    #[test]
    fn the_shipped_suites_parse_with_a_best_score_each() {
        for file in ["ffo-20-39.obf", "ffo-40-59.obf"] {
            let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("suite file");
            let positions = parse(&text).expect("the suite parses");
            assert_eq!(positions.len(), 20, "{file}");
            assert!(positions.iter().all(|p| p.best_score().is_some()), "{file}");
        }
    }

    #[test]
    fn errors_say_where_and_why() {
        let bad_move = LINE.replace("A2:+38", "A1:+38");
        let e = super::super::expect_err(parse_line(&bad_move, 1));
        assert!(e.reason.contains("not a legal move"), "{e}");
        assert_eq!(&bad_move[e.offset..e.offset + 2], "A1");

        let bad_score = LINE.replace("+38", "x38");
        let e = super::super::expect_err(parse_line(&bad_score, 1));
        assert!(e.reason.contains("not a score"), "{e}");
        assert_eq!(&bad_score[e.offset..e.offset + 3], "x38");

        let no_colon = LINE.replace("A2:+38", "A2 +38");
        let e = super::super::expect_err(parse_line(&no_colon, 1));
        assert!(e.reason.contains("move:score"), "{e}");

        let short = "XXO X; A1:+2;";
        let e = super::super::expect_err(parse_line(short, 1));
        assert_eq!(e.format, "OBF");

        let text = format!("% a comment\n\n{LINE}\n{bad_move}\n");
        match parse(&text) {
            Ok(_) => panic!("a bad line must fail the file"),
            Err((line, _)) => assert_eq!(line, 4),
        }
    }
}
