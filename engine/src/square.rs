//! Squares `a1`..`h8` and moves (a square or a pass), with parsing and printing.

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares. Written `a1`..`h8`: the column letter a-h from left to right, then
/// the row number 1-8 from top to bottom, so `a1` is the top-left corner. Its index
/// (`row * 8 + column`) is also its bit in a [`Bitboard`](crate::Bitboard).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Every square in index order, a1, b1, ..., h8.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with this index (0 = a1, 7 = h1, 63 = h8), if it is on the board.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `column` (0 = a) and `row` (0 = row 1, the top row), if both are in 0..8.
    pub const fn from_coords(column: u8, row: u8) -> Option<Square> {
        if column < 8 && row < 8 {
            Some(Square(row * 8 + column))
        } else {
            None
        }
    }

    /// The bit index, 0..64.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The column, 0 (a) to 7 (h).
    pub const fn column(self) -> u8 {
        self.0 % 8
    }

    /// The row, 0 (row 1, top) to 7 (row 8, bottom).
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// [`Square::bit`] as a raw `u64`, for the generator's hot paths.
    #[inline]
    pub(crate) const fn mask(self) -> u64 {
        1u64 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column()) as char, self.row() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a square or a move could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareParseError {
    /// The text was empty.
    Empty,
    /// The text was not a column letter a-h followed by a row digit 1-8.
    Invalid(String),
}

impl fmt::Display for SquareParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareParseError::Empty => write!(f, "expected a square like f5, found nothing"),
            SquareParseError::Invalid(s) => write!(
                f,
                "expected a square like f5 (column a-h, row 1-8) or a pass (PA), found {s:?}"
            ),
        }
    }
}

impl std::error::Error for SquareParseError {}

impl Square {
    /// Reads a square from the first two bytes of `bytes` (`f5`, `F5`), if they are one.
    pub(crate) fn from_ascii_pair(column: u8, row: u8) -> Option<Square> {
        let column = column.to_ascii_lowercase();
        if (b'a'..=b'h').contains(&column) && (b'1'..=b'8').contains(&row) {
            Square::from_coords(column - b'a', row - b'1')
        } else {
            None
        }
    }
}

impl FromStr for Square {
    type Err = SquareParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        match t.as_bytes() {
            [] => Err(SquareParseError::Empty),
            [c, r] => Square::from_ascii_pair(*c, *r)
                .ok_or_else(|| SquareParseError::Invalid(t.to_string())),
            _ => Err(SquareParseError::Invalid(t.to_string())),
        }
    }
}

/// A move: a disc placed on a square, or a pass by a player who has no legal move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Place a disc on this square.
    Play(Square),
    /// Pass: allowed, and required, only when the side to move has no legal move.
    Pass,
}

impl Move {
    /// The square played, or `None` for a pass.
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Play(sq) => Some(sq),
            Move::Pass => None,
        }
    }
}

impl From<Square> for Move {
    fn from(sq: Square) -> Self {
        Move::Play(sq)
    }
}

impl fmt::Display for Move {
    /// Squares print as `f5`; a pass prints as `PA`, as in GGF and NBoard.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => fmt::Display::fmt(sq, f),
            Move::Pass => f.write_str("PA"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Move {
    type Err = SquareParseError;

    /// Accepts a square (`f5`, `F5`) or a pass (`PA`, `pass`, `--`, `ps`), case-insensitively.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("pa")
            || t.eq_ignore_ascii_case("pass")
            || t == "--"
            || t.eq_ignore_ascii_case("ps")
        {
            return Ok(Move::Pass);
        }
        t.parse().map(Move::Play)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_print_and_parse_both_ways() {
        for sq in Square::ALL {
            let text = sq.to_string();
            assert_eq!(text.parse::<Square>(), Ok(sq));
            assert_eq!(text.to_uppercase().parse::<Square>(), Ok(sq));
        }
        assert_eq!(
            Square::from_coords(0, 0).map(|s| s.to_string()),
            Some("a1".into())
        );
        assert_eq!(
            Square::from_coords(7, 7).map(|s| s.to_string()),
            Some("h8".into())
        );
        assert_eq!(
            "f5".parse::<Square>().map(|s| (s.column(), s.row())),
            Ok((5, 4))
        );
    }

    #[test]
    fn bad_squares_are_refused_with_the_text() {
        for bad in ["", "i1", "a9", "a0", "f55", "5f", "ä1", "  "] {
            let err = bad.parse::<Square>().unwrap_err();
            assert!(!err.to_string().is_empty());
        }
    }

    #[test]
    fn moves_parse_passes_in_any_case() {
        for pass in ["PA", "pa", "pass", "Pass", "--", "PS"] {
            assert_eq!(pass.parse::<Move>(), Ok(Move::Pass), "{pass}");
        }
        assert_eq!(Move::Pass.to_string(), "PA");
        assert_eq!("D3".parse::<Move>().map(|m| m.to_string()), Ok("d3".into()));
    }
}
