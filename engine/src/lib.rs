//! # montello-engine
//!
//! The rules of Othello, its notations, and the Monte-Carlo Tree Search opponent of the
//! Montello game. No graphics and no I/O, so it builds and tests in seconds and runs the same
//! on phones, desktops and in the browser's worker. The tooling around it (matches, the NBoard
//! protocol, the book builder, the trainer and the `montello-engine` command line) is the
//! `montello-lab` crate in `lab/`, which uses this library as any caller does.
//!
//! From fast to safe:
//! - [`Bitboard`]: one `u64` per side, and [`movegen`], the move generator and flips the
//!   search runs on;
//! - [`Position`]: discs and the side to move, and the unchecked primitives the searches run
//!   on ([`Position::flip_moves`], [`Position::play_unchecked`], [`Position::pass`]), which
//!   know no variant;
//! - [`Variant`] and [`Game`]: the rules, in one home. [`Variant::try_play`],
//!   [`Variant::moves`], [`Variant::must_pass`] and [`Variant::is_game_over`] are the only
//!   checked way to play, pass or end a game; [`Game`] keeps the history with passes, undo
//!   and redo.
//!
//! Every type has one path. The types of the rules live at the root ([`Square`], [`Move`],
//! [`Bitboard`], [`Position`], [`Game`], their errors, [`FastRng`]); the public modules group
//! functions and the types that only make sense beside them:
//! - [`notation`]: transcripts, GGF records and board strings (their [`ParseError`] is at
//!   the root);
//! - [`search`]: the computer opponent ([`search::Searcher`], its limits, levels and results);
//! - [`eval`]: the learned pattern evaluation;
//! - [`movegen`] and [`perft`]: the raw generator and its classic check;
//! - [`wire`]: the lines a search elsewhere is asked and answers in (the browser's worker,
//!   and the app's background work on every platform).
//!
//! # Layers
//!
//! The modules point one way: each names only modules of the layers below its own
//! (tests/layers.rs reads every `crate::` and `super::` path, unit tests included, and fails
//! on a name that points up or sideways, and on any loop between files inside a folder):
//!
//! | layer | modules | holds |
//! |---|---|---|
//! | 8 | `wire` | the lines a search elsewhere is asked and answers in (the browser's worker) |
//! | 7 | `search` | the searches, the exact solver, levels, the review and the win bar's estimate |
//! | 6 | `perft`, `named_openings` | move-generator counts, the speed measurement; the names of the standard openings, found under the board's symmetries |
//! | 5 | `notation`, `eval` | transcripts, GGF, board strings, OBF; the learned evaluation |
//! | 4 | `playout` | random playouts and the fast random generator |
//! | 3 | `game` | the rules ([`Variant`]) and the game with its history ([`Game`]) |
//! | 2 | `movegen`, `position` | the generator's public face; discs, side to move, primitives |
//! | 1 | `bitboard` | sets of squares, the raw move generator (portable and AVX2) |
//! | 0 | `square`, `clock`, `cpu` | squares and moves; the searches' clock; the CPU's features and the fast copies built for them |
//!
//! The lab (`lab/`: matches, NBoard, the book builder, the trainer, the command line) sits on
//! top in a crate of its own. A test that needs a higher layer (the plain reference generator, whole games) lives in
//! `tests/`.
//!
//! Random numbers speak the [`rand_core`] traits: [`FastRng`] implements
//! [`rand_core::Rng`] and [`rand_core::SeedableRng`], and [`random_playout`] takes any
//! generator that implements `Rng`.
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

// Every public item is documented (the workspace's lint table is shared with the app, and Cargo
// cannot add a lint beside `workspace = true`, so the engine asks for this one here).
#![warn(missing_docs)]

// The types live in private modules and are re-exported here, one path each; the public
// modules group functions (and the few types that only make sense beside them).
mod bitboard;
pub mod clock;
mod cpu;
mod game;
mod playout;
mod position;
mod square;

pub mod eval;
pub mod movegen;
pub mod named_openings;
pub mod notation;
pub mod perft;
pub mod search;
pub mod wire;

pub use bitboard::{Bitboard, Squares};
pub use game::{Game, GameResult, IllegalMove, IllegalReason, Turn, Variant};
pub use notation::error::ParseError;
pub use playout::{
    FastRng, PlayoutResult, random_endgame, random_playout, random_positions, random_square,
};
pub use position::{Position, PositionError, Score, Side};
/// The random generator traits [`FastRng`] implements and [`random_playout`] takes, for
/// callers without a `rand` dependency of their own.
pub use rand_core;
pub use square::{Move, Square, SquareParseError};
