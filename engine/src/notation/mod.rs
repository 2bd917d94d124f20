//! The Othello world's own formats: transcripts, GGF game records, board strings, and the
//! WTHOR database's game files, binary and as PGN.
//!
//! Every parser returns a [`ParseError`] that says where (character, and move number for
//! moves) and why; none panics on any input (each has a `cargo fuzz` target).

pub mod board_string;
pub(crate) mod error;
pub mod ggf;
pub mod obf;
pub mod pgn;
pub mod transcript;
pub mod wthor;

use error::ParseError;

/// Reads a game from any of the formats a player might paste: a GGF record, a board string
/// (64 squares and the side to move), or a transcript. The format is recognised from the
/// text itself. Error offsets count from the start of `text`, white space included.
///
/// A GGF record brings its own variant (see [`ggf`]); `variant` is used for the others.
pub fn parse_any(text: &str, variant: crate::Variant) -> Result<crate::Game, ParseError> {
    let t = text.trim();
    if t.starts_with("(;") {
        return ggf::parse(text).map(|record| record.game);
    }
    if board_string::looks_like_board(t) {
        let pos = board_string::parse(text)?;
        return Ok(crate::Game::from_position(pos, variant));
    }
    transcript::parse(text, variant)
}

/// The error of a parse that a test expects to fail (a panic naming the value otherwise).
#[cfg(test)]
pub(crate) fn expect_err<T: std::fmt::Debug>(result: Result<T, ParseError>) -> ParseError {
    match result {
        Ok(value) => panic!("expected a parse error, got {value:?}"),
        Err(e) => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn parse_any_recognises_each_format_and_counts_offsets_from_the_start() {
        let g = parse_any("  (;GM[Othello]B[f5];)", Variant::Othello);
        assert_eq!(g.map(|g| g.ply()), Ok(1));
        let e = parse_any("  (;GM[Othello]B[a1];)", Variant::Othello).err();
        assert_eq!(e.map(|e| (e.offset, e.ply)), Some((15, Some(1))));
        let e = parse_any("  f5 a1", Variant::Othello).err();
        assert_eq!(e.map(|e| (e.offset, e.ply)), Some((5, Some(2))));
        let board = "---------------------------OX------XO--------------------------- O";
        let g = parse_any(board, Variant::Othello);
        assert_eq!(g.map(|g| g.side_to_move()), Ok(crate::Side::White));
    }
}
