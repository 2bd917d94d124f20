//! The messages between the app and a search running elsewhere: in a browser the engine runs
//! in a Web Worker (web/worker), so the page never blocks a frame for it, and the two sides
//! speak in these lines of text (`postMessage` strings, easy to read in the browser's console).
//!
//! One line is one message; its words are separated by single spaces:
//!
//! | message | words |
//! |---|---|
//! | [`Request::Search`] | `search JOB SLOT FRESH SPEC POSITION VARIANT LIMITS` |
//! | [`Request::Analyse`] | `analyse JOB VARIANT SEED ITERATIONS PLY:POSITION…` |
//! | [`Request::Review`] | `review JOB VARIANT EXACT_EMPTIES DEPTH TABLE_BYTES START MOVE…` |
//! | [`Request::Estimate`] | `estimate JOB VARIANT DEPTH EXACT_EMPTIES TABLE_BYTES POSITION` |
//! | [`Request::Values`] | `values JOB VARIANT EXACT_EMPTIES DEPTH TABLE_BYTES POSITION` |
//! | [`Reply::Progress`] | `progress JOB ITERATIONS` |
//! | [`Reply::Searched`] | `searched JOB BEST ITERATIONS NODES MEMORY ENDGAME PROVEN NANOS CANCELLED REUSED EARLY PV MOVE…` |
//! | [`Reply::Analysed`] | `analysed JOB PLY:BLACK_WIN…` |
//! | [`Reply::Reviewed`] | `reviewed JOB MOVE_REVIEW…` ([`Review::to_text`]'s words) |
//! | [`Reply::Estimated`] | `estimated JOB BLACK_MARGIN EXACT` (`-` and `0` for no estimate) |
//! | [`Reply::Valued`] | `valued JOB MOVE:VALUE:KIND… [line MOVE…]` (best first; `e` exact, `s` searched; then the best line) |
//! | [`Reply::Failed`] | `failed JOB WHY…` (the worker could not run the request: its module did not load, or the engine threw) |
//!
//! A position is `BLACK:WHITE:SIDE` (the discs as hexadecimal bitboards, `b` or `w` to move),
//! a searcher's spec `level:N:SEED` or `plain:SEED` ([`SearcherSpec`]), limits
//! `MICROS:ITERATIONS:BYTES` with `-` for no cap, a root move `MOVE:VISITS:WIN_RATE:PROOF:MARGIN`
//! (`w`/`d`/`l`/`-` and a margin or `-`). Numbers are written so that they read back exactly.
//! [`Request::parse`] and [`Reply::parse`] say which word is wrong and why.

use crate::search::review::{
    Estimate, EstimateConfig, Review, ReviewConfig, Valuation, ValuesConfig,
};
use crate::search::{Level, MctsConfig, SearchLimits, SearchResult, Searcher, Strategy};
use crate::{Move, Position, Variant};
use std::fmt;

mod reply;
mod request;
#[cfg(test)]
mod tests;
mod words;

/// How to make a searcher: the one place the app's levels and its hints are turned into
/// searchers, wherever they run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearcherSpec {
    /// A level's searcher ([`Level::searcher`]).
    Level {
        /// The level.
        level: Level,
        /// The seed of its random generator.
        seed: u64,
    },
    /// The default strategy with its default knobs and no early stop: the hint (it ranks the
    /// runners-up too) and the fixed-playouts opponent (exactly its playouts).
    Plain {
        /// The seed of its random generator.
        seed: u64,
    },
}

impl SearcherSpec {
    /// The searcher.
    pub fn build(self) -> Searcher {
        match self {
            SearcherSpec::Level { level, seed } => level.searcher(seed),
            SearcherSpec::Plain { seed } => {
                Searcher::new(Strategy::Default, seed).with_config(self.config())
            }
        }
    }

    /// The default strategy's knobs the searcher will have.
    pub fn config(self) -> MctsConfig {
        match self {
            SearcherSpec::Level { level, .. } => level.config(),
            SearcherSpec::Plain { .. } => MctsConfig {
                early_stop: false,
                ..MctsConfig::default()
            },
        }
    }
}

/// What the app asks of a search elsewhere.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Search a position with the searcher kept in `slot` (made from `spec` if `fresh` or if
    /// the slot is empty) and answer [`Reply::Searched`].
    Search {
        /// The job's number, repeated in every reply.
        job: u32,
        /// Which kept searcher: the app keeps one per AI side and one per side's hints.
        slot: u8,
        /// Make a new searcher even if the slot holds one (a new game, another level).
        fresh: bool,
        /// How to make it.
        spec: SearcherSpec,
        /// The position.
        position: Position,
        /// The rules.
        variant: Variant,
        /// The caps.
        limits: SearchLimits,
    },
    /// Rate positions after the game ([`crate::search::analyse`]) and answer [`Reply::Analysed`].
    Analyse {
        /// The job's number.
        job: u32,
        /// The rules.
        variant: Variant,
        /// The analysis's seed.
        seed: u64,
        /// Playouts per position.
        iterations: u64,
        /// The positions, each with its ply.
        positions: Vec<(usize, Position)>,
    },
    /// Review a game's moves ([`crate::search::review::review`]) and answer [`Reply::Reviewed`];
    /// progress goes out as [`Reply::Progress`] with the moves reviewed so far.
    Review {
        /// The job's number.
        job: u32,
        /// The rules.
        variant: Variant,
        /// How deep and how far exact (no time limit: the same game gives the same review).
        config: ReviewConfig,
        /// The game's start position.
        start: Position,
        /// The moves played from it, passes included.
        moves: Vec<Move>,
    },
    /// Estimate how a position ends ([`crate::search::review::estimate`], for the win bar) and answer
    /// [`Reply::Estimated`].
    Estimate {
        /// The job's number.
        job: u32,
        /// The rules.
        variant: Variant,
        /// How deep and how far exact.
        config: EstimateConfig,
        /// The position.
        position: Position,
    },
    /// Value every legal move of a position ([`crate::search::review::move_values`]: the
    /// values on the squares, the judge of a try at a better move) and answer
    /// [`Reply::Valued`].
    Values {
        /// The job's number.
        job: u32,
        /// The rules.
        variant: Variant,
        /// How deep and how far exact.
        config: ValuesConfig,
        /// The position.
        position: Position,
    },
}

/// What a search elsewhere answers.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Iterations done so far by the running search (sent every so often).
    Progress {
        /// The job.
        job: u32,
        /// Iterations so far.
        iterations: u64,
    },
    /// The search's result.
    Searched {
        /// The job.
        job: u32,
        /// What it found.
        result: SearchResult,
    },
    /// The analysis's estimates: black's chance to win after each ply.
    Analysed {
        /// The job.
        job: u32,
        /// `(ply, black's chance)`.
        estimates: Vec<(usize, f32)>,
    },
    /// The game's review.
    Reviewed {
        /// The job.
        job: u32,
        /// Every move played, reviewed.
        review: Review,
    },
    /// The position's estimate (none while a free opening's discs are placed).
    Estimated {
        /// The job.
        job: u32,
        /// How the position ends, from Black's side.
        estimate: Option<Estimate>,
    },
    /// Every legal move's value, best first, and the best line.
    Valued {
        /// The job.
        job: u32,
        /// The moves and their values for the side to move, and the best line.
        valuation: Valuation,
    },
    /// The request could not be run (web/worker.js: the engine's module did not load, or the
    /// engine threw or trapped): the page runs it itself.
    Failed {
        /// The job (0 when the request's could not be read).
        job: u32,
        /// Why, in the worker's words.
        why: String,
    },
}

impl Reply {
    /// The job this reply belongs to.
    pub fn job(&self) -> u32 {
        match self {
            Reply::Progress { job, .. }
            | Reply::Searched { job, .. }
            | Reply::Analysed { job, .. }
            | Reply::Reviewed { job, .. }
            | Reply::Estimated { job, .. }
            | Reply::Valued { job, .. }
            | Reply::Failed { job, .. } => *job,
        }
    }
}

/// A message that could not be read: which word and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError {
    /// The word's position in the line, from 1.
    pub word: usize,
    /// What was wrong with it.
    pub why: String,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "word {}: {}", self.word, self.why)
    }
}

impl std::error::Error for WireError {}
