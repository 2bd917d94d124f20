//! The evaluation's own training pipeline: self-play games labelled with exact endgame
//! solves, and a least-squares fit of the pattern tables (see `docs/eval.md`).
//!
//! One generation is: play games with the previous generation's weights (random openings of
//! varied length, then a shallow alpha-beta search with those weights, then perfect play from
//! `exact_empties` empty squares found by the exact solver); label every position of a game
//! with the exact final margin of the game from the first solved position (positions inside
//! the solved endgame get their own exact value); fit new tables to every sample so far.
//! Everything is seeded: a chunk of games depends only on the seed and its number, so a
//! generation is the same with any number of threads, and a killed run resumes from the
//! chunks already written.
//!
//! The parts, one concern a file: the games and their labels (`selfplay.rs`), the chunk files
//! and directories (`data.rs`), the fit by stochastic gradient descent and what measures it
//! (`fit.rs`), the least squares by conjugate gradients (`cg.rs`), matches between weights
//! (`matches.rs`), Multi-ProbCut's statistics (`probcut.rs`) and the error on held-out real
//! games (`heldout.rs`). This file holds the types
//! they share (a sample, how games are played, how the tables are fitted) and their pool.

mod cg;
mod data;
mod fit;
mod heldout;
mod matches;
pub mod probcut;
mod selfplay;
#[cfg(test)]
mod tests;

/// The discs a move on `sq` flips, on raw bits: the engine's generator
/// ([`montello_engine::movegen::flips`]), for the walks of self-play and Multi-ProbCut's sampler.
#[inline]
fn flips(p: u64, o: u64, sq: montello_engine::Square) -> u64 {
    montello_engine::movegen::flips(Bitboard(p), Bitboard(o), sq).0
}

/// The legal moves at `(p, o)` on raw bits ([`montello_engine::movegen::legal_moves`]).
#[inline]
fn legal_moves(p: u64, o: u64) -> u64 {
    montello_engine::movegen::legal_moves(Bitboard(p), Bitboard(o)).0
}

/// One of `moves` (raw bits) at random ([`montello_engine::random_square`]).
#[inline]
fn random_square_raw<R: montello_engine::rand_core::Rng + ?Sized>(
    moves: u64,
    rng: &mut R,
) -> montello_engine::Square {
    montello_engine::random_square(Bitboard(moves), rng)
}

pub use self::data::{
    chunk_path, is_holdout, load_dirs, read_samples, real_games_to_dir, relabel_dir,
    self_play_to_dir, write_samples,
};
pub use self::fit::{
    EMPTIES_BIAS_MIN_SAMPLES, PhaseError, errors, fit_all, fit_empties_bias, fit_phase,
};
pub use self::heldout::{
    Errors, FIRST_TEST_YEAR, HeldOutPosition, game_samples, held_out_errors, held_out_position,
    solve_exactly,
};
pub use self::matches::match_weights;
pub use self::selfplay::{exact_test_set, play_chunk, play_game, relabel};

use crate::arena::in_pool;
use montello_engine::Bitboard;
use montello_engine::eval::SCALE;
use rayon::prelude::*;

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The side to move's discs.
    pub p: Bitboard,
    /// The opponent's discs.
    pub o: Bitboard,
    /// The final disc margin for the side to move: exact when `exact`, else the exact value
    /// of the game's first solved position (the outcome of the game played on from here).
    pub label: i8,
    /// Whether `label` is this position's own exact value.
    pub exact: bool,
    /// The position's value by the self-play player's search (in `1 / SCALE` disc), when
    /// the data has it.
    pub search: Option<i16>,
}

impl Sample {
    /// Empty squares.
    pub fn empties(&self) -> u32 {
        (!(self.p | self.o)).count()
    }
}

/// How self-play games are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfPlay {
    /// Random moves at the start: drawn uniformly from this range (inclusive).
    pub opening_plies: (u32, u32),
    /// Alpha-beta depth of the move choice before the endgame.
    pub depth: u32,
    /// Solve exactly (and play perfectly) from this many empty squares.
    pub exact_empties: u32,
    /// Random noise added to each root move's score, in `1 / SCALE` disc (varies the games).
    pub noise: i32,
    /// Whether samples keep the player's search value (generation 1's hand-written player's
    /// are not worth learning from).
    pub record_search: bool,
    /// Multi-ProbCut's selectivity in the player's search, in tenths (0: off; see
    /// [`montello_engine::search::AlphaBetaConfig::probcut`]).
    pub probcut: u32,
    /// Leave out the positions before the last random opening move: the game's result says
    /// little about them, since random moves decide part of it.
    pub skip_opening: bool,
}

impl Default for SelfPlay {
    fn default() -> Self {
        SelfPlay {
            opening_plies: (2, 24),
            depth: 2,
            exact_empties: 14,
            noise: SCALE,
            record_search: true,
            probcut: 0,
            skip_opening: false,
        }
    }
}

/// How the tables are fitted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Passes over the data.
    pub epochs: u32,
    /// Step size of the first epoch (in the scaled target's units, a margin of 64 being 1).
    pub rate: f32,
    /// The step size shrinks by this factor every epoch.
    pub decay: f32,
    /// Seed of the sample order.
    pub seed: u64,
    /// How much of a non-exact sample's target is its search value (when it has one) rather
    /// than the game's outcome.
    pub search_weight: f32,
    /// A phase also learns from the positions up to this many empty squares outside its own
    /// range (0: only its own), so that each of its weights sees more positions.
    pub overlap: u32,
    /// `Some((near, far))`: the search value's share grows with the empty squares, from none
    /// at `near` empties or fewer (the outcome alone, which a game solved exactly soon after
    /// makes nearly exact) to `search_weight` at `far` or more, linearly between.
    pub search_ramp: Option<(u32, u32)>,
    /// `Some((iterations, ridge))`: solve each phase's least squares with that many
    /// conjugate-gradient iterations on the normal equations, every weight pulled towards 0
    /// by `ridge` (a weight seen `ridge` times moves half as far as unpulled), instead of
    /// stochastic gradient descent (`epochs`, `rate`, `decay` and `seed` then unused).
    pub cg: Option<(u32, f32)>,
    /// Fit tables to be interpolated between the phases' middles ([`montello_engine::eval::Weights::interpolated`]):
    /// each position counts towards the two phases it lies between, in proportion, and all
    /// phases are solved together (with `cg` only; `overlap` is then unused).
    pub interpolate: bool,
    /// With `cg`: pull every weight towards the starting weights' instead of towards 0, and
    /// keep their bias per count of empty squares, so that a small set of better-labelled
    /// positions refines tables fitted before on many more (a weight the new positions touch
    /// `ridge` times moves half as far as the least squares would move it).
    pub toward_init: bool,
}

impl Default for Fit {
    fn default() -> Self {
        Fit {
            epochs: 8,
            rate: 0.006,
            decay: 0.75,
            seed: 1,
            search_weight: 0.0,
            overlap: 0,
            search_ramp: None,
            cg: None,
            interpolate: false,
            toward_init: false,
        }
    }
}

impl Fit {
    /// The value (discs) a sample is fitted to.
    pub fn target(&self, s: &Sample) -> f32 {
        match s.search {
            Some(v) if !s.exact => {
                let l = self.search_weight_at(s.empties());
                l * f32::from(v) / SCALE as f32 + (1.0 - l) * f32::from(s.label)
            }
            _ => f32::from(s.label),
        }
    }

    /// The search value's share of a non-exact target at `empties` empty squares.
    pub fn search_weight_at(&self, empties: u32) -> f32 {
        match self.search_ramp {
            Some((near, _)) if empties <= near => 0.0,
            Some((near, far)) if empties < far => {
                self.search_weight * (empties - near) as f32 / (far - near) as f32
            }
            _ => self.search_weight,
        }
    }
}

/// `f(0) .. f(n - 1)` on `threads` threads (each takes the next index when it is done),
/// in index order. The result never depends on `threads`.
fn parallel_map<T: Send>(n: usize, threads: usize, f: impl Fn(usize) -> T + Sync + Send) -> Vec<T> {
    in_pool(threads.clamp(1, n.max(1)), || {
        (0..n).into_par_iter().with_max_len(1).map(f).collect()
    })
}
