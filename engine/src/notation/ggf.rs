//! GGF game records (Generic Game Format, as used by GGS and NBoard). Being written.

use super::ParseError;
use crate::Game;

/// A game read from a GGF record.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfRecord {
    /// The game, its moves checked against the rules.
    pub game: Game,
}

/// Reads a GGF record.
pub fn parse(text: &str) -> Result<GgfRecord, ParseError> {
    Err(ParseError::new(
        "GGF",
        0,
        format!(
            "GGF import is not available yet ({} characters)",
            text.len()
        ),
    ))
}
