//! Board strings: 64 squares (`X`/`O`/`-`, also `*`/`O`/`-` and `b`/`w`/`.`) then the side to
//! move, and a human-readable diagram.

use super::ParseError;
use crate::{Bitboard, Position, Side, Square, Variant};

const FORMAT: &str = "board string";

fn square_char(c: char) -> Option<Option<Side>> {
    match c {
        'X' | 'x' | '*' | 'B' | 'b' | '@' => Some(Some(Side::Black)),
        'O' | 'o' | 'W' | 'w' | '0' => Some(Some(Side::White)),
        '-' | '.' | '_' | 'e' | 'E' => Some(None),
        _ => None,
    }
}

/// Whether the text looks like a board string rather than a transcript: at least 64 square
/// characters before anything else.
pub fn looks_like_board(text: &str) -> bool {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .take(64)
        .filter(|&c| square_char(c).is_some())
        .count()
        == 64
}

/// Reads a board string: 64 square characters, row 1 first (white space anywhere is
/// ignored), then optionally the side to move (`X`, `*`, `B`, `black` / `O`, `W`, `white`;
/// black if absent).
pub fn parse(text: &str) -> Result<Position, ParseError> {
    let mut black = 0u64;
    let mut white = 0u64;
    let mut index = 0usize;
    let mut chars = text.char_indices_chars();
    while index < 64 {
        let Some((offset, c)) = chars.next() else {
            return Err(ParseError::new(
                FORMAT,
                text.chars().count(),
                format!("expected 64 squares, found only {index}"),
            ));
        };
        if c.is_whitespace() {
            continue;
        }
        match square_char(c) {
            Some(Some(Side::Black)) => black |= 1 << index,
            Some(Some(Side::White)) => white |= 1 << index,
            Some(None) => {}
            None => {
                let sq = Square::ALL[index];
                return Err(ParseError::new(
                    FORMAT,
                    offset,
                    format!(
                        "{c:?} is not a square (square {sq}): use X or * for black, O for white, - or . for empty"
                    ),
                ));
            }
        }
        index += 1;
    }
    let rest: String = chars.map(|(_, c)| c).collect();
    let rest_offset = text.chars().count() - rest.chars().count();
    let side_text = rest.trim();
    let side = match side_text.to_ascii_lowercase().as_str() {
        "" | "x" | "*" | "b" | "black" | "@" => Side::Black,
        "o" | "w" | "white" | "0" => Side::White,
        other => {
            let lead = rest.chars().take_while(|c| c.is_whitespace()).count();
            return Err(ParseError::new(
                FORMAT,
                rest_offset + lead,
                format!(
                    "after the 64 squares, expected the side to move (X or O), found {other:?}"
                ),
            ));
        }
    };
    Position::from_discs(Bitboard(black), Bitboard(white), side)
        .map_err(|e| ParseError::new(FORMAT, 0, e.to_string()))
}

/// Char iteration with char (not byte) offsets, so errors point at what a person counts.
trait CharIndices {
    fn char_indices_chars(&self) -> std::iter::Enumerate<std::str::Chars<'_>>;
}

impl CharIndices for str {
    fn char_indices_chars(&self) -> std::iter::Enumerate<std::str::Chars<'_>> {
        self.chars().enumerate()
    }
}

/// The 64-character board string (`X` black, `O` white, `-` empty), a space, and `X` or `O`
/// for the side to move.
pub fn to_board_string(pos: &Position) -> String {
    let mut s = String::with_capacity(66);
    // Writing to a String cannot fail.
    let _ = pos.write_board_string(&mut s);
    s
}

/// A diagram for people: coordinates, `X`/`O` discs, `.` for the squares the side to move may
/// play under `variant`, `-` for other empty squares, and who is to move with the disc counts.
pub fn diagram(pos: &Position, variant: Variant) -> String {
    let legal = variant.legal_moves(pos);
    let mut s = String::from("  a b c d e f g h\n");
    for row in 0..8u8 {
        s.push((b'1' + row) as char);
        for column in 0..8u8 {
            let Some(sq) = Square::from_coords(column, row) else {
                continue;
            };
            s.push(' ');
            s.push(match pos.disc_at(sq) {
                Some(Side::Black) => 'X',
                Some(Side::White) => 'O',
                None if legal.contains(sq) => '.',
                None => '-',
            });
        }
        s.push('\n');
    }
    let score = pos.score();
    s.push_str(&format!(
        "{} to move ({}); black (X) {} - white (O) {}\n",
        pos.side_to_move(),
        match pos.side_to_move() {
            Side::Black => 'X',
            Side::White => 'O',
        },
        score.black,
        score.white
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trips_in_every_alphabet() {
        let s = to_board_string(&Position::start());
        assert_eq!(
            s,
            "---------------------------OX------XO--------------------------- X"
        );
        assert_eq!(parse(&s), Ok(Position::start()));
        let star = s.replace('X', "*");
        assert_eq!(parse(&star), Ok(Position::start()));
        let bw = s.replace('X', "b").replace('O', "w").replace('-', ".");
        assert_eq!(parse(&bw), Ok(Position::start()));
    }

    #[test]
    fn errors_say_where() {
        let e = crate::notation::expect_err(parse("---x"));
        assert!(e.reason.contains("only 4"), "{e}");
        let mut bad = "-".repeat(64);
        bad.replace_range(10..11, "?");
        let e = crate::notation::expect_err(parse(&bad));
        assert_eq!(e.offset, 10);
        assert!(e.to_string().contains("c2"), "{e}");
        let e = crate::notation::expect_err(parse(&format!("{} Z", "-".repeat(64))));
        assert_eq!(e.offset, 65);
    }

    #[test]
    fn diagram_marks_legal_moves() {
        let d = diagram(&Position::start(), Variant::Othello);
        assert!(d.contains("3 - - - . - - - -"), "{d}");
        assert!(d.contains("Black to move"), "{d}");
        // A free start's placement marks the empty centre squares.
        let d = diagram(&Position::empty(), Variant::FreeOpening);
        assert!(d.contains("4 - - - . . - - -"), "{d}");
        assert_eq!(
            diagram(&Position::empty(), Variant::Othello)
                .matches('.')
                .count(),
            0
        );
    }
}
