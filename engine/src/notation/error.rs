//! The one error type of every parser here, re-exported at the crate root.

use std::fmt;

/// Why a text could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What was being read: "transcript", "GGF", "board string".
    pub format: &'static str,
    /// The character index (0-based, in chars, not bytes) where the problem starts.
    pub offset: usize,
    /// For a move, its number in the game (1-based ply, passes counted).
    pub ply: Option<usize>,
    /// What is wrong, in words a player can act on.
    pub reason: String,
}

impl ParseError {
    pub(crate) fn new(
        format: &'static str,
        offset: usize,
        reason: impl Into<String>,
    ) -> ParseError {
        ParseError {
            format,
            offset,
            ply: None,
            reason: reason.into(),
        }
    }

    pub(crate) fn at_ply(mut self, ply: usize) -> ParseError {
        self.ply = Some(ply);
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.format)?;
        if let Some(ply) = self.ply {
            write!(f, "move {ply} (character {}): ", self.offset + 1)?;
        } else {
            write!(f, "character {}: ", self.offset + 1)?;
        }
        f.write_str(&self.reason)
    }
}

impl std::error::Error for ParseError {}
