//! The alpha-beta sparring partner: a PVS (NegaScout) search with the learned evaluation at
//! its leaves, iterative deepening, aspiration windows, a transposition table under the
//! memory cap, and an exact endgame solve with few empty squares left.
//!
//! Players face it late in every game against Master: from 30 empty squares on (with at
//! least half a second a move) Master's default strategy plays this search's move instead of
//! the UCT search's of [`super::mcts`] ([`crate::search::MctsConfig::ab_empties`], set in
//! `levels.rs`); the other levels never hand it the move. It is also the yardstick the
//! arena measures the evaluation and the default strategy against (`ab:time=1s`,
//! `ab:depth=6`, `ab:solve=20`).
//!
//! Scores are in evaluation units ([`crate::eval::SCALE`] per disc) for the side to move; a
//! finished game scores its disc margin (empty squares to the winner) times `SCALE`; exact
//! nodes (depth reaching the end) are the exact solver's ([`super::endgame`]), which shares
//! this search's transposition table. Depth counts discs placed: a pass does not use up
//! depth, so a search `depth >= empties` deep is exact.
//!
//! This file is the iterative deepening and the types its parts share; beside it: [`config`]
//! (the knobs), [`pvs`] (the recursion, with Multi-ProbCut and the hand-over to the exact
//! solver), [`order`] (move ordering), [`root`] (the root's aspiration windows, its moves'
//! statistics and the principal variation) and [`fixed_depth`] (the clockless search of the
//! trainer and the MCTS's leaves).

mod config;
mod fixed_depth;
mod order;
pub(crate) mod probcut;
mod pvs;
mod root;
#[cfg(test)]
mod tests;

pub use config::AlphaBetaConfig;
pub use fixed_depth::FixedDepth;
pub use root::margin_of_win_rate;
pub(crate) use root::win_rate;

use self::root::{aspiration, principal_variation, root_search, stats};
use super::endgame::Solver;
use super::endgame::table::Table;
use super::{CancelHandle, MoveStats, SearchLimits, SearchResult, put_first};
use crate::bitboard::{CORNERS, X_SQUARES, legal_moves};
use crate::clock::Instant;
use crate::eval::{SCALE, Weights};
use crate::{Move, Position, Variant};

/// Multi-ProbCut's default selectivity, in tenths of a standard deviation.
pub const DEFAULT_PROBCUT: u32 = 7;
/// Multi-ProbCut's default selectivity near the end (`probcut::END_EMPTIES`), in tenths.
pub(crate) const DEFAULT_PROBCUT_END: u32 = 10;
/// Larger than any score.
const INF: i32 = 65 * SCALE;
/// The largest final margin, in evaluation units: windows beyond it cannot be cut.
const MAX_SCORE: i32 = 64 * SCALE;
/// Checks the clock and the cancel flag every this many nodes.
const CHECK_NODES: u64 = 4096;
/// Nodes at least this deep use the transposition table.
const TT_MIN_DEPTH: u32 = 2;
/// Nodes at least this deep sort their moves by the evaluation after the move; shallower
/// ones by the opponent's mobility (fastest first).
const EVAL_ORDER_DEPTH: u32 = 3;
/// Do not start another iteration after this percentage of the time cap: it would most
/// likely not finish, and an unfinished iteration is (mostly) wasted.
const STOP_PERCENT: u32 = 50;
/// Discs of margin that make a win rate of 1 / (1 + e^-1) (73%) in the root statistics.
const WIN_RATE_DISCS: f32 = 6.0;
/// Enough room for every legal move (at most 33 in any reachable position).
const MAX_MOVES: usize = 48;

/// What the searcher keeps between moves: the transposition table (its entries stay valid,
/// and help the next search).
#[derive(Debug, Default)]
pub(crate) struct State {
    table: Option<Table>,
    /// The depth of the last search's last completed iteration (for measurements).
    depth: u32,
}

/// A root move's value after the latest iteration that searched it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct RootMove {
    mv: Move,
    player: u64,
    opponent: u64,
    score: i32,
    bound: Bound,
    /// Whether that search went to the end of the game.
    solved: bool,
    nodes: u64,
}

/// The search in progress.
struct Search<'a> {
    /// The exact endgame search, which owns the table this search shares.
    solver: Solver<'a>,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    cancel: &'a CancelHandle,
    aborted: bool,
    /// A side with no move passes (not under no-move-ends-game).
    passes: bool,
    /// The free opening: discs are placed on the centre first.
    free: bool,
    /// The evaluation at the leaves.
    weights: &'a Weights,
    /// Multi-ProbCut's selectivity (standard deviations; 0: off).
    probcut: probcut::Confidence,
    /// Whether the recursion runs its AVX2 copy ([`crate::cpu::fast_copy!`]).
    fast: bool,
}

/// Runs the alpha-beta search; see the module docs. `limits.iterations` caps the nodes.
pub(crate) fn search(
    state: &mut State,
    pos: &Position,
    variant: Variant,
    limits: &SearchLimits,
    cancel: &CancelHandle,
    config: &AlphaBetaConfig,
) -> SearchResult {
    let start = Instant::now();
    let mut table = match state.table.take() {
        Some(t) if t.slots() == Table::capacity(limits.memory) => t,
        _ => Table::new(limits.memory),
    };
    table.new_search();
    let (result, depth) = run(&mut table, pos, variant, limits, cancel, config, start);
    state.depth = depth;
    state.table = Some(table);
    result
}

fn run(
    table: &mut Table,
    pos: &Position,
    variant: Variant,
    limits: &SearchLimits,
    cancel: &CancelHandle,
    config: &AlphaBetaConfig,
    start: Instant,
) -> (SearchResult, u32) {
    let mut result = SearchResult {
        memory: table.bytes(),
        answered_by: super::Strategy::AlphaBeta,
        ..SearchResult::new(None, Vec::new(), Vec::new(), start.elapsed())
    };
    let legal = variant.moves(pos);
    if legal.is_empty() {
        return (result, 0);
    }
    if legal == [Move::Pass] {
        result.best = Some(Move::Pass);
        result.pv = vec![Move::Pass];
        result.moves = vec![MoveStats {
            mv: Move::Pass,
            visits: 0,
            win_rate: 0.5,
            proof: None,
            exact_margin: None,
        }];
        return (result, 0);
    }
    let mut root: Vec<RootMove> = legal
        .iter()
        .map(|&mv| {
            let child = variant.play_unchecked(pos, mv);
            RootMove {
                mv,
                player: child.player().0,
                opponent: child.opponent().0,
                score: -INF,
                bound: Bound::Upper,
                solved: false,
                nodes: 0,
            }
        })
        .collect();
    // A first order before any search: fewest replies, corners first.
    root.sort_by_key(|m| {
        let replies = legal_moves(m.player, m.opponent).count_ones() as i32 * 4;
        match m.mv {
            Move::Play(sq) if sq.mask() & CORNERS != 0 => replies - 6,
            Move::Play(sq) if sq.mask() & X_SQUARES != 0 => replies + 3,
            _ => replies,
        }
    });

    let deadline = start + limits.clock();
    let solver = Solver::new(variant, Some(deadline), Some(cancel))
        .with_table(std::mem::replace(table, Table::with_slots(0)));
    let mut s = Search {
        solver,
        nodes: 0,
        max_nodes: limits.iterations.unwrap_or(u64::MAX),
        deadline: Some(deadline),
        cancel,
        aborted: false,
        passes: variant.passes(),
        free: variant == Variant::FreeOpening,
        weights: crate::eval::builtin(),
        probcut: probcut::Confidence::from_tenths(config.probcut, config.probcut_end),
        fast: crate::cpu::fast(),
    };
    let empties = pos.empties().count();
    // Under a time cap, solve only as deep as the clock allows; with a node limit (tests,
    // deterministic runs), as deep as configured.
    let solve_empties = if limits.iterations.is_some() {
        config.solve_empties
    } else {
        config
            .solve_empties
            .min(solve_empties_within(limits.clock()))
    };
    let solve = empties <= solve_empties && !variant.in_free_opening(pos);
    let max_depth = config.depth.unwrap_or(60).clamp(1, 60);
    let reaches_end =
        empties > 1 && !variant.in_free_opening(pos) && (solve || max_depth >= empties);
    let end_in_reach = limits.iterations.is_some() || empties <= end_empties_within(limits.clock());
    let plan = depth_plan(empties, solve, max_depth, reaches_end, end_in_reach);
    let mut done: Option<Vec<RootMove>> = None;
    let mut done_depth = 0;
    let mut endgame_nodes = 0;
    let mut last_score: i32 = 0;
    for (k, &(depth, wdl)) in plan.iter().enumerate() {
        let stop = limits.clock().as_secs_f64() * f64::from(config.stop_percent) / 100.0;
        if k > 0 && start.elapsed().as_secs_f64() > stop {
            break;
        }
        let nodes_before = s.nodes;
        let exact = depth >= empties;
        let ok = if wdl {
            root_search(&mut s, &mut root, depth, -SCALE, SCALE, exact)
        } else if config.aspiration > 0 && k >= 3 && done.is_some() {
            let w = config.aspiration as i32 * SCALE;
            // An exact margin is a whole number of discs.
            let guess = if exact {
                last_score.div_euclid(SCALE) * SCALE
            } else {
                last_score
            };
            aspiration(&mut s, &mut root, depth, guess, w, exact)
        } else {
            root_search(&mut s, &mut root, depth, -INF, INF, exact)
        };
        if exact {
            endgame_nodes += s.nodes - nodes_before;
        }
        if !ok {
            break;
        }
        if !wdl {
            last_score = root[0].score;
        }
        done_depth = depth;
        let mut this = root.clone();
        // When every move loses, the win/draw/loss pass ranks them by bounds that say
        // nothing: the midgame's choice stays first (proven lost now, like the rest).
        if wdl
            && this[0].score <= -SCALE
            && let Some(i) = done
                .as_ref()
                .and_then(|d| this.iter().position(|m| m.mv == d[0].mv))
        {
            put_first(&mut this, i);
        }
        done = Some(this);
        if legal.len() == 1 && config.depth.is_none() {
            break;
        }
        if exact && !wdl {
            break;
        }
    }
    let cancelled = cancel.is_cancelled();
    // The last completed iteration; if an unfinished one already proved another move better,
    // that one (its first move was searched in full, so the comparison is sound).
    let mut chosen = done.unwrap_or_else(|| root.clone());
    if s.aborted && root[0].mv != chosen[0].mv && root[0].bound == Bound::Exact {
        // `root_search` puts a move first only after a full re-search confirmed it; its
        // value (exact within that pass's window) replaces the older one.
        let mv = root[0].mv;
        if let Some(i) = chosen.iter().position(|m| m.mv == mv) {
            chosen[i] = root[0];
            put_first(&mut chosen, i);
        }
    }
    for m in &mut chosen {
        m.nodes = root
            .iter()
            .find(|r| r.mv == m.mv)
            .map_or(m.nodes, |r| r.nodes);
    }
    let nodes = s.nodes;
    *table = s.solver.into_table();
    result.pv = principal_variation(table, pos, variant, chosen[0].mv);
    result.moves = chosen.iter().map(stats).collect();
    result.best = Some(chosen[0].mv);
    result.proven = result.moves[0].proof.is_some();
    result.iterations = nodes;
    result.nodes = table.used();
    result.endgame_nodes = endgame_nodes;
    result.cancelled = cancelled;
    result.elapsed = start.elapsed();
    cancel.set_iterations(nodes);
    (result, done_depth)
}

/// The iterations of a search with `empties` empty squares, each a depth and whether it is a
/// win/draw/loss pass: the midgame depths up to `max_depth` (a third of the empties when
/// the search `solve`s); then, if the search `reaches_end` (a finished game is searched
/// exactly), the depth that reaches it, win/draw/loss first and then for the margin. The
/// first pass is far cheaper, and it is what decides the game: where no margin search
/// finishes within the cap, it may still prove the position won or find the move that saves
/// it. Without the end `in_reach` (the clock too short for the pass) the last midgame depth
/// is the answer, and the rest of the clock is spared.
fn depth_plan(
    empties: u32,
    solve: bool,
    max_depth: u32,
    reaches_end: bool,
    in_reach: bool,
) -> Vec<(u32, bool)> {
    let mid_top = if solve {
        (empties / 3).clamp(1, max_depth)
    } else {
        max_depth
    };
    let mid_last = if reaches_end {
        mid_top.min(empties - 1)
    } else {
        mid_top.min(empties.max(1))
    };
    let mut plan: Vec<(u32, bool)> = (1..=mid_last).map(|d| (d, false)).collect();
    if reaches_end && in_reach {
        plan.push((empties, true));
        plan.push((empties, false));
    }
    plan
}

/// The most empties at which a search that has reached the last midgame depth starts the
/// win/draw/loss pass to the end within `time` on one core. Measured in Master's games at
/// 1 s a move, where the passes start after the midgame depths have taken a few
/// milliseconds to half a second: at 23 empties 17 of 19 finished, at 24 15 of 20, at 25 3 of
/// 15, at 26 2 of 16, at 27 and 28 none of 40 (docs/ai.md). The shorter caps scale it by the
/// solver's growth, about three times the time an empty square.
fn end_empties_within(time: std::time::Duration) -> u32 {
    match time.as_millis() {
        0..40 => 20,
        40..120 => 22,
        120..350 => 24,
        350..3000 => 26,
        _ => 60,
    }
}

/// The most empties an exact solve usually finishes within `time` on one core (measured
/// root solves, win/draw/loss then the margin, with the first solver: about 10 ms at 14
/// empties, 50 ms at 16, 0.3 s at 18, 3 s at 20; docs/ai.md). The solver is faster now (20
/// empties in 0.23 s on average), but solving from 20 at a second a move gained nothing over
/// 18: +2 Elo [-45, +49] in 200 games (docs/ai.md).
fn solve_empties_within(time: std::time::Duration) -> u32 {
    match time.as_millis() {
        0..30 => 12,
        30..150 => 14,
        150..800 => 16,
        800..6000 => 18,
        _ => 20,
    }
}
