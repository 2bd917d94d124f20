//! # montello-lab
//!
//! The engine's laboratory: what measures, trains and serves the engine (`montello-engine`,
//! the library the app and the browser's worker build) without being part of what a player
//! runs. It uses the engine as any caller does, through its public items.
//!
//! - [`arena`]: matches between strategies from balanced openings, colours swapped, with the
//!   Elo interval;
//! - [`nboard`]: the NBoard protocol, so that other programs (and `tools/nboard-match.py`)
//!   can play against Montello's levels;
//! - [`book_builder`]: the opening book's builder;
//! - [`train`]: the evaluation's trainer: self-play, exact labels, real games, the fit;
//! - `src/bin/montello-engine.rs`: the `montello-engine` command line over all of these and
//!   the engine's own tools (perft, bench, solve, review, puzzles).
//!
//! The modules point one way: `train` may use the other three, they use only the engine.

// Every public item is documented, as in the engine.
#![warn(missing_docs)]

pub mod arena;
pub mod book_builder;
pub mod nboard;
pub mod train;
