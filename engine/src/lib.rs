//! # montello-engine
//!
//! The rules of Othello, its notations, and the Monte-Carlo Tree Search opponent of the
//! Montello game. No graphics and no I/O (except the `montello-engine` command-line tool), so
//! it builds and tests in seconds and runs the same on phones and desktops.
//!
//! Layers, from fast to safe:
//! - [`bitboard`]: one `u64` per side, the move generator and flips the search runs on;
//! - [`Position`]: discs and the side to move, with checked [`Position::try_play`];
//! - [`Game`]: a [`Variant`]'s rules, the history with passes, undo and redo.
//!
//! ```
//! use montello_engine::{Game, Move, Variant, notation::transcript};
//!
//! let mut game = Game::new(Variant::Othello);
//! // Black's first legal moves are d3, c4, f5 and e6.
//! assert_eq!(game.legal_moves().count(), 4);
//! game.play("f5".parse::<Move>()?)?;
//! // An illegal move is refused and changes nothing.
//! let err = game.play("a1".parse()?).unwrap_err();
//! assert_eq!(err.position, game.position());
//!
//! let game = transcript::parse("f5d6c3d3c4", Variant::Othello)?;
//! assert_eq!(game.ply(), 5);
//! assert_eq!(transcript::to_transcript(game.history()), "f5d6c3d3c4");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "cli")]
pub mod arena;
pub mod bitboard;
pub mod eval;
pub mod game;
#[cfg(feature = "cli")]
pub mod nboard;
pub mod notation;
pub mod perft;
pub mod playout;
pub mod position;
pub mod search;
pub mod square;

pub use bitboard::Bitboard;
pub use game::{Game, GameResult, Variant};
pub use notation::ParseError;
pub use playout::{FastRng, PlayoutResult, random_playout};
pub use position::{IllegalMove, IllegalReason, Position, Score, Side};
pub use square::{Move, Square, SquareParseError};
