//! The alpha-beta search's knobs.

use super::{DEFAULT_PROBCUT, DEFAULT_PROBCUT_END, STOP_PERCENT};

/// The knobs of the alpha-beta sparring partner ([`crate::search::Strategy::AlphaBeta`]): a PVS
/// search with the learned evaluation at its leaves, iterative deepening, aspiration windows,
/// a transposition table under the memory cap, and an exact endgame solve with few empty
/// squares left (arena keys `depth`, `solve`, `aspiration`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    /// Search at most this many plies deep (iterative deepening up to it). With a node limit
    /// or a depth and no time pressure the search is deterministic.
    pub depth: Option<u32>,
    /// Search to the end of the game (the exact final margin) at or below this many empty
    /// squares, if the clock allows (under a time cap the search lowers it to what usually
    /// fits: 16 at 150 ms, 18 at 0.8 s, 20 at 6 s); 0 turns it off.
    pub solve_empties: u32,
    /// Half-width of the aspiration window around the last iteration's score, in discs
    /// (0 searches every iteration with a full window).
    pub aspiration: u32,
    /// Multi-ProbCut's selectivity `t` in tenths (7: a node is cut when a shallow search
    /// predicts it outside the window by 0.7 standard deviations of the prediction's error;
    /// see `alphabeta/probcut.rs`); 0 turns it off. 7 by default (docs/ai.md: at 100 ms a move
    /// 7 scored +60 Elo against 15, 10 +37 and +40, 20 -113, and 5 -47 against 7; at 1 s 7
    /// against 15 was within the noise, +14 for `ab` and +9 in Master).
    pub probcut: u32,
    /// The same near the end, at nodes with 30 empty squares or fewer (where Master's
    /// alpha-beta plays): safer, as a move lost there is seldom won back. 1.0 (10) by default
    /// (docs/ai.md); 0 turns ProbCut off there.
    pub probcut_end: u32,
    /// Under a time cap, no new iteration starts after this percentage of the cap has gone
    /// (an iteration still running at the cap is stopped, and its moves already proved
    /// better count). 50 by default, and in Master's hand-over too: 75 there, at Master's 1 s
    /// a move, scored +0 Elo [-46, +46] against 50 (docs/ai.md).
    pub stop_percent: u32,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            depth: None,
            solve_empties: 20,
            aspiration: 3,
            probcut: DEFAULT_PROBCUT,
            probcut_end: DEFAULT_PROBCUT_END,
            stop_percent: STOP_PERCENT,
        }
    }
}
