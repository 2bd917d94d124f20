//! The alpha-beta sparring partner: a PVS (NegaScout) search with the learned evaluation at
//! its leaves, iterative deepening, aspiration windows, a transposition table under the
//! memory cap, and an exact endgame solve with few empty squares left.
//!
//! It is not what players face (that stays the UCT search of [`super::mcts`]); it is the
//! yardstick the arena measures the evaluation and the default strategy against
//! (`ab:time=1s`, `ab:depth=6`, `ab:solve=20`).
//!
//! Scores are in evaluation units ([`crate::eval::SCALE`] per disc) for the side to move; a
//! finished game scores its disc margin (empty squares to the winner) times `SCALE`; exact
//! nodes (depth reaching the end) are the exact solver's ([`super::solver`]), which shares
//! this search's transposition table. Depth counts discs placed: a pass does not use up
//! depth, so a search `depth >= empties` deep is exact.

use super::dispatch::{dispatched, fast_generator_available, flips_on, moves_of};
use super::probcut;
use super::solver::{Solver, final_margin};
use super::table::{NO_MOVE, Table};
use super::{CancelHandle, MoveStats, Proof, SearchLimits, SearchResult};
use crate::bitboard::{CORNERS, X_SQUARES, legal_moves};
use crate::clock::Instant;
use crate::eval::{SCALE, Weights};
use crate::game::CENTRE;
use crate::{Move, Position, Square, Variant};

/// The knobs of the alpha-beta sparring partner ([`super::Strategy::AlphaBeta`]): a PVS
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
    /// see [`super::probcut`]); 0 turns it off. 7 by default (docs/ai.md: at 100 ms a move
    /// 7 scored +60 Elo against 15, 10 +37 and +40, 20 -113, and 5 -47 against 7; at 1 s 7
    /// against 15 was within the noise, +14 for `ab` and +9 in Master).
    pub probcut: u32,
    /// Under a time cap, no new iteration starts after this percentage of the cap has gone
    /// (an iteration still running at the cap is stopped, and its moves already proved
    /// better count). 50 by default; 75 in Master at 1 s a move: +0 Elo [-46, +46]
    /// (docs/ai.md).
    pub stop_percent: u32,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            depth: None,
            solve_empties: 20,
            aspiration: 3,
            probcut: DEFAULT_PROBCUT,
            stop_percent: STOP_PERCENT,
        }
    }
}

/// Multi-ProbCut's default selectivity, in tenths of a standard deviation.
pub(crate) const DEFAULT_PROBCUT: u32 = 7;
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
    probcut: f32,
    /// Whether the recursion runs its AVX2 copy ([`super::dispatch`]).
    fast: bool,
}

impl Search<'_> {
    /// Counts a node; true when the search must stop.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.max_nodes {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(CHECK_NODES) {
            self.cancel.set_iterations(self.nodes);
            if self.cancel.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Principal variation search of (p, o) `depth` plies deep, fail-soft, in the copy of
    /// the recursion that `FAST` names ([`super::dispatch`]).
    #[inline(always)]
    fn pvs_body<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let empty = !(p | o);
        if self.free && empty & CENTRE != 0 {
            return self.free_opening::<FAST>(p, o, depth, alpha, beta);
        }
        let empties = empty.count_ones();
        if depth >= empties {
            return self.solve(p, o, alpha, beta);
        }
        if depth == 0 {
            // A wiped-out side is the one game end the evaluation could miss cheaply.
            if p == 0 {
                return -(o.count_ones() as i32) * SCALE;
            }
            return self.weights.evaluate_raw(p, o);
        }
        let moves = moves_of::<FAST>(p, o);
        if moves == 0 {
            if !self.passes || moves_of::<FAST>(o, p) == 0 {
                return final_margin(p, o) * SCALE;
            }
            return -self.pvs::<FAST>(o, p, depth, -beta, -alpha);
        }
        let stored_depth = depth.min(60) as u8;
        let mut tt_move = NO_MOVE;
        if depth >= TT_MIN_DEPTH
            && let Some(e) = self.solver.table().probe(p, o)
        {
            tt_move = e.best;
            if e.depth >= stored_depth {
                let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
            }
        }
        if self.probcut > 0.0
            && let Some(v) = self.probcut::<FAST>(p, o, depth, empties, alpha, beta)
        {
            return v;
        }
        let mut list = [(0i32, 0u8, 0u64); MAX_MOVES];
        let n = order_moves::<FAST>(self.weights, p, o, moves, tt_move, depth, &mut list);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        // One ply above the leaves, each child's evaluation starts from the instances read
        // once here (when the first child needs it).
        let mut base = None;
        for (k, &(_, i, f)) in list[..n].iter().enumerate() {
            let (np, no) = (o & !f, p | f | (1u64 << i));
            let mut child = |search: &mut Self, alpha: i32, beta: i32| {
                if depth == 1 {
                    let base = base.get_or_insert_with(|| crate::eval::base_for_moves(p, o));
                    search.leaf_after(base, i, f, np, no, alpha, beta)
                } else {
                    search.pvs::<FAST>(np, no, depth - 1, alpha, beta)
                }
            };
            let v = if k == 0 {
                -child(self, -beta, -alpha)
            } else {
                let v = -child(self, -alpha - 1, -alpha);
                if v > alpha && v < beta && !self.aborted {
                    -child(self, -beta, -alpha)
                } else {
                    v
                }
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = i;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if depth >= TT_MIN_DEPTH {
            let lower = if best > alpha0 { best } else { -INF };
            let upper = if best < beta { best } else { INF };
            self.solver
                .table()
                .store(p, o, stored_depth, lower, upper, best_move);
        }
        best
    }

    dispatched!(pvs, pvs_body, pvs_fast, pvs_portable, (p: u64, o: u64, depth: u32, alpha: i32, beta: i32));

    /// [`Search::pvs`] at depth 0 of the position after the parent's side to move played
    /// `sq` flipping `flips` (`np` to move against `no`), with `base` the parent's
    /// [`crate::eval::base_for_moves`]: the same node count, checks and value, the evaluation
    /// computed from the squares the move changed. (Never in the free opening: a parent
    /// outside it has no child inside it.)
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn leaf_after(
        &mut self,
        base: &[u32; crate::eval::BASE_LEN],
        sq: u8,
        flips: u64,
        np: u64,
        no: u64,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        if np | no == !0 {
            return self.solve(np, no, alpha, beta);
        }
        if np == 0 {
            return -(no.count_ones() as i32) * SCALE;
        }
        self.weights
            .evaluate_after(base, u32::from(sq), flips, np, no)
    }

    /// [`Search::pvs`] in the copy this search runs (see [`Search::fast`]).
    fn search(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        if self.fast {
            self.pvs::<true>(p, o, depth, alpha, beta)
        } else {
            self.pvs::<false>(p, o, depth, alpha, beta)
        }
    }

    /// Multi-ProbCut: `beta` when a shallow search predicts that the `depth`-deep value
    /// reaches `beta` with confidence, `alpha` when it predicts it stays at or below `alpha`,
    /// `None` when the node must be searched (see [`probcut`]).
    #[inline(always)]
    fn probcut<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        empties: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let cut = probcut::cut(depth, empties)?;
        let margin = self.probcut * cut.sigma;
        if beta < MAX_SCORE {
            let bound = ((beta as f32 + margin - cut.b) / cut.a).ceil() as i32;
            if bound < MAX_SCORE {
                let v = self.pvs::<FAST>(p, o, cut.shallow, bound - 1, bound);
                if self.aborted {
                    return Some(0);
                }
                if v >= bound {
                    return Some(beta);
                }
            }
        }
        if alpha > -MAX_SCORE {
            let bound = ((alpha as f32 - margin - cut.b) / cut.a).floor() as i32;
            if bound > -MAX_SCORE {
                let v = self.pvs::<FAST>(p, o, cut.shallow, bound, bound + 1);
                if self.aborted {
                    return Some(0);
                }
                if v <= bound {
                    return Some(alpha);
                }
            }
        }
        None
    }

    /// The free opening's placements: plain negamax over the empty centre squares.
    fn free_opening<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth == 0 {
            return self.weights.evaluate_raw(p, o);
        }
        let mut centre = !(p | o) & CENTRE;
        let mut best = -INF;
        while centre != 0 {
            let bit = centre & centre.wrapping_neg();
            centre &= centre - 1;
            let v = -self.pvs::<FAST>(o, p | bit, depth - 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The exact final margin (evaluation units) by the solver, fail-soft in `alpha..beta`;
    /// its nodes count against this search's budget.
    fn solve(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let a = alpha.div_euclid(SCALE);
        let b = -((-beta).div_euclid(SCALE));
        self.solver
            .set_nodes_left(self.max_nodes.saturating_sub(self.nodes));
        let before = self.solver.nodes;
        let v = self.solver.solve_bits(p, o, a, b);
        self.nodes += self.solver.nodes - before;
        match v {
            Some(v) => v * SCALE,
            None => {
                self.aborted = true;
                0
            }
        }
    }
}

/// Fills `list` with the moves in `moves`, best first, and returns how many: the table's
/// move, then by the evaluation after the move (deep nodes) or by the opponent's replies,
/// corners first and X-squares last (shallow nodes).
#[inline(always)]
fn order_moves<const FAST: bool>(
    weights: &Weights,
    p: u64,
    o: u64,
    mut moves: u64,
    tt_move: u8,
    depth: u32,
    list: &mut [(i32, u8, u64); MAX_MOVES],
) -> usize {
    let by_eval = depth >= EVAL_ORDER_DEPTH;
    // Each move's evaluation starts from the instances read once here.
    let base = by_eval.then(|| crate::eval::base_for_moves(p, o));
    let mut n = 0;
    while moves != 0 && n < MAX_MOVES {
        let i = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let bit = 1u64 << i;
        let f = flips_on::<FAST>(p, o, usize::from(i));
        let key = if i == tt_move {
            i32::MAX
        } else {
            let (np, no) = (o & !f, p | f | bit);
            if let Some(base) = &base {
                -weights.evaluate_after(base, u32::from(i), f, np, no)
            } else {
                let mut key = -(moves_of::<FAST>(np, no).count_ones() as i32) * 4;
                if bit & CORNERS != 0 {
                    key += 6;
                } else if bit & X_SQUARES != 0 {
                    key -= 3;
                }
                key
            }
        };
        list[n] = (key, i, f);
        n += 1;
    }
    // Insertion sort: short lists, mostly small.
    for k in 1..n {
        let item = list[k];
        let mut j = k;
        while j > 0 && list[j - 1].0 < item.0 {
            list[j] = list[j - 1];
            j -= 1;
        }
        list[j] = item;
    }
    n
}

/// A fixed-depth alpha-beta without a clock, for the trainer (its self-play player and its
/// labels) and the ProbCut fit: the same search as the `ab` player, with the weights it is
/// given at the leaves and the exact solver where the depth reaches the end, keeping its
/// transposition table between calls. Deterministic: the same calls in the same order give
/// the same values.
#[derive(Debug)]
pub(crate) struct FixedDepth<'w> {
    table: Option<Table>,
    weights: &'w Weights,
    probcut: f32,
    variant: Variant,
    /// Whether the recursion runs its AVX2 copy ([`super::dispatch`]).
    fast: bool,
    /// Nodes searched so far.
    pub nodes: u64,
}

impl<'w> FixedDepth<'w> {
    /// A search with `weights` at the leaves, a table of about `table_bytes` and ProbCut's
    /// selectivity `probcut` (tenths; 0: off), under `variant`'s pass rule.
    pub(crate) fn new(
        weights: &'w Weights,
        variant: Variant,
        table_bytes: usize,
        probcut: u32,
    ) -> FixedDepth<'w> {
        FixedDepth {
            table: Some(Table::new(table_bytes)),
            weights,
            probcut: probcut as f32 / 10.0,
            variant,
            fast: fast_generator_available(),
            nodes: 0,
        }
    }

    /// Runs the portable copy of the recursion even on a CPU with AVX2 (the tests compare the
    /// two copies).
    #[cfg(test)]
    fn portable(mut self) -> FixedDepth<'w> {
        self.fast = false;
        self
    }

    /// The rules it searches by.
    pub(crate) fn variant(&self) -> Variant {
        self.variant
    }

    /// The value of `(p, o)` for the side to move, `depth` plies deep (the exact final margin
    /// when `depth` reaches the end), in evaluation units.
    pub(crate) fn value(&mut self, p: u64, o: u64, depth: u32) -> i32 {
        let cancel = CancelHandle::new();
        let table = self
            .table
            .take()
            .unwrap_or_else(|| Table::with_slots(1 << 10));
        let mut s = Search {
            solver: Solver::new(self.variant, None, None)
                .with_table(table)
                .with_fast(self.fast),
            nodes: 0,
            max_nodes: u64::MAX,
            deadline: None,
            cancel: &cancel,
            aborted: false,
            passes: self.variant.passes(),
            free: false,
            weights: self.weights,
            probcut: self.probcut,
            fast: self.fast,
        };
        let v = s.search(p, o, depth, -INF, INF);
        self.nodes += s.nodes;
        self.table = Some(s.solver.into_table());
        v
    }
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
        best: None,
        moves: Vec::new(),
        pv: Vec::new(),
        iterations: 0,
        nodes: 0,
        memory: table.bytes(),
        endgame_nodes: 0,
        proven: false,
        elapsed: start.elapsed(),
        cancelled: false,
        reused_nodes: 0,
        stopped_early: false,
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
        probcut: config.probcut as f32 / 10.0,
        fast: fast_generator_available(),
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
    // Iterations: midgame depths, then (when solving) a win/draw/loss pass and the margin.
    let mut plan: Vec<(u32, bool)> = Vec::new();
    let mid_top = if solve {
        (empties / 3).clamp(1, max_depth)
    } else {
        max_depth
    };
    for d in 1..=mid_top.min(empties.max(1)) {
        plan.push((d, false));
    }
    if solve && mid_top < empties {
        plan.push((empties, true));
        plan.push((empties, false));
    }
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
        done = Some(root.clone());
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
        // `root_search` puts a move first only after a full re-search confirmed it.
        let mv = root[0].mv;
        if let Some(i) = chosen.iter().position(|m| m.mv == mv) {
            let m = chosen.remove(i);
            chosen.insert(0, m);
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

/// One iteration at the root with a window `guess - width..guess + width`, widened on the
/// side it fails on until the value is inside. Returns false if the search was stopped.
fn aspiration(
    s: &mut Search,
    root: &mut [RootMove],
    depth: u32,
    guess: i32,
    width: i32,
    exact: bool,
) -> bool {
    let (mut alpha, mut beta) = (guess - width, guess + width);
    loop {
        if !root_search(s, root, depth, alpha, beta, exact) {
            return false;
        }
        let v = root[0].score;
        // A selective search (ProbCut) can fail low, then high on the widened window: once
        // both sides have failed, the full window (where every value is inside) ends it.
        if v <= alpha && alpha > -INF {
            (alpha, beta) = (-INF, if beta < INF { v + 1 } else { INF });
        } else if v >= beta && beta < INF {
            (alpha, beta) = (if alpha > -INF { v - 1 } else { -INF }, INF);
        } else {
            return true;
        }
    }
}

/// One iteration at the root, window `alpha..beta`: every move PVS-searched `depth` plies
/// deep, the best moved to the front. Returns false if the search was stopped (the moves
/// searched before the stop keep their new values; the best is only moved to the front after
/// a full-window search confirmed it).
fn root_search(
    s: &mut Search,
    root: &mut [RootMove],
    depth: u32,
    alpha: i32,
    beta: i32,
    exact: bool,
) -> bool {
    let mut alpha = alpha;
    let mut best = -INF;
    let mut best_index = 0;
    let mut searched = 0;
    for (k, m) in root.iter_mut().enumerate() {
        let (p, o) = (m.player, m.opponent);
        let before = s.nodes;
        let d = depth - 1;
        let v = if k == 0 {
            -s.search(p, o, d, -beta, -alpha)
        } else {
            let v = -s.search(p, o, d, -alpha - 1, -alpha);
            if v > alpha && v < beta && !s.aborted {
                -s.search(p, o, d, -beta, -alpha)
            } else {
                v
            }
        };
        m.nodes += s.nodes - before;
        if s.aborted {
            break;
        }
        searched = k + 1;
        m.score = v;
        m.solved = exact;
        m.bound = if v <= alpha {
            Bound::Upper
        } else if v >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if v > best {
            best = v;
            best_index = k;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    // Best first; the rest by their latest scores (stable: ties keep the last order).
    if searched > 0 && (!s.aborted || root[best_index].bound == Bound::Exact) {
        let m = root[best_index];
        root.copy_within(0..best_index, 1);
        root[0] = m;
        if !s.aborted {
            root[1..searched.max(1)].sort_by_key(|m| std::cmp::Reverse(m.score));
        }
    }
    !s.aborted
}

/// The root statistics of one move.
fn stats(m: &RootMove) -> MoveStats {
    let proof = if m.solved {
        match m.bound {
            Bound::Exact => Some(match m.score.signum() {
                1 => Proof::Win,
                0 => Proof::Draw,
                _ => Proof::Loss,
            }),
            Bound::Lower if m.score >= SCALE => Some(Proof::Win),
            Bound::Upper if m.score <= -SCALE => Some(Proof::Loss),
            _ => None,
        }
    } else {
        None
    };
    MoveStats {
        mv: m.mv,
        visits: m.nodes,
        win_rate: match proof {
            Some(Proof::Win) => 1.0,
            Some(Proof::Draw) => 0.5,
            Some(Proof::Loss) => 0.0,
            None => win_rate(m.score),
        },
        proof,
        exact_margin: (m.solved && m.bound == Bound::Exact)
            .then(|| (m.score / SCALE).clamp(-64, 64) as i8),
    }
}

/// The side to move's expected score (0..=1) of an evaluation: a logistic of the margin.
pub(crate) fn win_rate(score: i32) -> f64 {
    let discs = score as f32 / SCALE as f32;
    f64::from(super::win_probability(discs, WIN_RATE_DISCS))
}

/// The margin in discs that [`win_rate`] turned into `rate`: its inverse, within the
/// rounding of the logistic (a hundredth of a disc near even).
#[cfg(feature = "cli")]
pub(crate) fn margin_of_win_rate(rate: f64) -> f64 {
    let p = rate.clamp(1e-9, 1.0 - 1e-9);
    f64::from(WIN_RATE_DISCS) * (p / (1.0 - p)).ln()
}

/// The best move and the table's best replies after it.
fn principal_variation(table: &Table, pos: &Position, variant: Variant, first: Move) -> Vec<Move> {
    let mut pv = vec![first];
    let mut pos = variant.play_unchecked(pos, first);
    while pv.len() < 64 && !variant.is_game_over(&pos) {
        let mv = if variant.must_pass(&pos) {
            Move::Pass
        } else {
            let Some(e) = table.probe(pos.player().0, pos.opponent().0) else {
                break;
            };
            let legal = variant.legal_moves(&pos).0;
            if e.best >= 64 || legal & (1u64 << e.best) == 0 {
                break;
            }
            Move::Play(Square::ALL[usize::from(e.best)])
        };
        pv.push(mv);
        pos = variant.play_unchecked(&pos, mv);
    }
    pv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::flips;
    use crate::search::solver::Solver;
    use crate::search::solver::tests::random_endgame;
    use crate::search::{Searcher, Strategy};
    use std::time::Duration;

    fn searcher(config: AlphaBetaConfig) -> Searcher {
        Searcher::new(Strategy::AlphaBeta, 1).with_ab_config(config)
    }

    /// A fixed depth without ProbCut: an exact alpha-beta value at that depth.
    fn depth(d: u32) -> AlphaBetaConfig {
        AlphaBetaConfig {
            depth: Some(d),
            solve_empties: 0,
            probcut: 0,
            ..AlphaBetaConfig::default()
        }
    }

    /// The exact final margin from the exact solver (itself tested against plain minimax).
    fn exact_margin(p: u64, o: u64, passes: bool) -> i32 {
        let variant = if passes {
            Variant::Othello
        } else {
            Variant::NoMoveEndsGame
        };
        let pos = Position::from_raw(p, o, crate::Side::Black);
        Solver::new(variant, None, None)
            .solve(&pos, -65, 65)
            .unwrap_or_else(|| panic!("no deadline: {pos:?}"))
    }

    /// Plain negamax of the same evaluation, no pruning and no table: the reference.
    fn negamax(p: u64, o: u64, depth: u32, passes: bool) -> i32 {
        let empties = (!(p | o)).count_ones();
        let moves = legal_moves(p, o);
        if depth >= empties && moves == 0 && (!passes || legal_moves(o, p) == 0) {
            return final_margin(p, o) * SCALE;
        }
        if depth >= empties {
            return exact_margin(p, o, passes) * SCALE;
        }
        if depth == 0 {
            return crate::eval::evaluate_raw(p, o);
        }
        if moves == 0 {
            if !passes || legal_moves(o, p) == 0 {
                return final_margin(p, o) * SCALE;
            }
            return -negamax(o, p, depth, passes);
        }
        let mut best = -INF;
        let mut m = moves;
        while m != 0 {
            let sq = Square::ALL[m.trailing_zeros() as usize];
            m &= m - 1;
            let f = flips(p, o, sq);
            best = best.max(-negamax(o & !f, p | f | sq.mask(), depth - 1, passes));
        }
        best
    }

    fn run(
        pos: &Position,
        variant: Variant,
        config: AlphaBetaConfig,
        limits: &SearchLimits,
    ) -> SearchResult {
        searcher(config).search(pos, variant, limits, &CancelHandle::new())
    }

    #[test]
    fn fixed_depth_matches_plain_negamax() {
        // Midgame positions: the PVS value at depth 1-3 equals unpruned negamax's.
        for seed in 0..12 {
            let pos = random_endgame(500 + seed, 40 - (seed as u32 % 10));
            for d in 1..=3 {
                let r = run(
                    &pos,
                    Variant::Othello,
                    depth(d),
                    &SearchLimits::iterations(u64::MAX),
                );
                let want = negamax(pos.player().0, pos.opponent().0, d, true);
                let best = &r.moves[0];
                let got = {
                    let child = Variant::Othello.play_unchecked(&pos, best.mv);
                    -negamax(child.player().0, child.opponent().0, d - 1, true)
                };
                assert_eq!(
                    got, want,
                    "seed {seed} depth {d}: {} is not a best move",
                    best.mv
                );
            }
        }
    }

    #[test]
    fn matches_the_exact_solver_on_small_endgames() {
        for seed in 0..60 {
            let empties = 6 + (seed % 7) as u32;
            let pos = random_endgame(seed, empties);
            for variant in [Variant::Othello, Variant::NoMoveEndsGame] {
                if variant.is_game_over(&pos) || variant.must_pass(&pos) {
                    continue;
                }
                let passes = variant == Variant::Othello;
                let exact = exact_margin(pos.player().0, pos.opponent().0, passes);
                // Exactly as deep as there are empties: the search must reach the end.
                let r = run(
                    &pos,
                    variant,
                    depth(empties),
                    &SearchLimits::iterations(u64::MAX),
                );
                assert!(r.proven, "seed {seed} {variant}");
                assert_eq!(
                    r.moves[0].exact_margin,
                    Some(exact as i8),
                    "seed {seed} {variant} {pos:?}"
                );
                // The same through the endgame solve of a time-limited search.
                let config = AlphaBetaConfig {
                    solve_empties: 20,
                    ..AlphaBetaConfig::default()
                };
                let r = run(
                    &pos,
                    variant,
                    config,
                    &SearchLimits::time(Duration::from_secs(30)),
                );
                assert_eq!(r.moves[0].exact_margin, Some(exact as i8), "seed {seed}");
                let child = variant.play_unchecked(&pos, r.moves[0].mv);
                let after = -exact_margin(child.player().0, child.opponent().0, passes);
                assert_eq!(after, exact, "seed {seed}: {} is not best", r.moves[0].mv);
            }
        }
    }

    #[test]
    fn finds_a_corner_that_wins_outright() {
        // White has b1 and b2 only; black has c1, c3 and rows 4-8. Black's a1 flips both
        // white discs (the game ends, 45-0); a3 flips b2 only and leaves white alive.
        let bit = |i: u32| 1u64 << i;
        let black = (!0u64 << 24) | bit(2) | bit(18);
        let white = bit(1) | bit(9);
        let pos = Position::from_raw(black, white, crate::Side::Black);
        let a1 = Move::Play(Square::ALL[0]);
        let legal = Variant::Othello.moves(&pos);
        assert!(legal.contains(&a1) && legal.len() >= 2, "{legal:?}");
        let a3 = Move::Play(Square::ALL[16]);
        for d in [1, 2, 3, 5] {
            let r = run(
                &pos,
                Variant::Othello,
                depth(d),
                &SearchLimits::iterations(u64::MAX),
            );
            // a1 ends the game at once; a3 leaves white one disc and no way back, which a
            // trained evaluation may well rate higher still. Either crushes.
            assert!(
                r.best == Some(a1) || r.best == Some(a3),
                "depth {d}: {:?}",
                r.best
            );
            assert!(r.moves[0].win_rate > 0.99, "depth {d}: {:?}", r.moves[0]);
        }
        // With 20 empties the default solves it: both win 64-0 (the empties a1 leaves go to
        // the winner), and the exact solve proves it.
        let r = run(
            &pos,
            Variant::Othello,
            AlphaBetaConfig::default(),
            &SearchLimits::time(Duration::from_secs(60)),
        );
        assert!(r.best == Some(a1) || r.best == Some(a3), "{:?}", r.moves);
        assert_eq!(r.moves[0].proof, Some(Proof::Win));
        assert_eq!(r.moves[0].exact_margin, Some(64));
        assert!(r.proven && r.moves[0].win_rate == 1.0);
    }

    #[test]
    fn a_forced_win_in_the_endgame_is_proven_and_played() {
        for seed in 200..230 {
            let pos = random_endgame(seed, 14);
            let exact = exact_margin(pos.player().0, pos.opponent().0, true);
            if exact <= 0 || Variant::Othello.must_pass(&pos) {
                continue;
            }
            let r = run(
                &pos,
                Variant::Othello,
                AlphaBetaConfig::default(),
                &SearchLimits::iterations(50_000_000),
            );
            assert_eq!(
                r.moves[0].proof,
                Some(Proof::Win),
                "seed {seed} {:?}",
                r.moves
            );
            let child = Variant::Othello.play_unchecked(&pos, r.best.expect("a move"));
            assert!(
                exact_margin(child.player().0, child.opponent().0, true) < 0,
                "seed {seed}"
            );
        }
    }

    #[test]
    fn the_trainers_fixed_depth_search_is_plain_negamax() {
        // The trainer's player and labels: the same values as unpruned negamax, with the
        // table kept from one call to the next.
        let w = crate::eval::builtin();
        let mut search = FixedDepth::new(w, Variant::Othello, 1 << 20, 0);
        for seed in 0..10 {
            let pos = random_endgame(700 + seed, 44 - (seed as u32 % 8) * 3);
            let (p, o) = (pos.player().0, pos.opponent().0);
            for d in 1..=3 {
                assert_eq!(
                    search.value(p, o, d),
                    negamax(p, o, d, true),
                    "seed {seed} depth {d}"
                );
            }
        }
        // Deep enough to reach the end: the exact margin.
        let pos = random_endgame(9, 9);
        let (p, o) = (pos.player().0, pos.opponent().0);
        assert_eq!(search.value(p, o, 9), exact_margin(p, o, true) * SCALE);
    }

    #[test]
    fn probcut_prunes_and_stays_close_to_the_full_search() {
        // At depth 7 from middle-game positions, ProbCut searches far fewer nodes; its value
        // stays within a few discs of the full search's on average.
        let w = crate::eval::builtin();
        let (mut full_nodes, mut cut_nodes, mut diff) = (0, 0, 0);
        let n = 12;
        for seed in 0..n {
            let pos = random_endgame(800 + seed, 46 - (seed as u32 % 6) * 3);
            let (p, o) = (pos.player().0, pos.opponent().0);
            let mut full = FixedDepth::new(w, Variant::Othello, 1 << 22, 0);
            let mut cut = FixedDepth::new(w, Variant::Othello, 1 << 22, DEFAULT_PROBCUT);
            let (a, b) = (full.value(p, o, 7), cut.value(p, o, 7));
            full_nodes += full.nodes;
            cut_nodes += cut.nodes;
            diff += (a - b).abs();
        }
        assert!(
            cut_nodes * 10 < full_nodes * 7,
            "ProbCut searched {cut_nodes} nodes, the full search {full_nodes}"
        );
        let mean = diff as f64 / n as f64 / f64::from(SCALE);
        assert!(mean < 3.0, "mean difference {mean:.2} discs");
    }

    #[test]
    fn fixed_depth_is_deterministic() {
        let pos = random_endgame(7, 44);
        let a = run(
            &pos,
            Variant::Othello,
            depth(5),
            &SearchLimits::iterations(u64::MAX),
        );
        let b = run(
            &pos,
            Variant::Othello,
            depth(5),
            &SearchLimits::iterations(u64::MAX),
        );
        assert_eq!(
            (a.best, &a.moves, &a.pv, a.iterations),
            (b.best, &b.moves, &b.pv, b.iterations)
        );
        // A node limit stops it at the same place every time.
        let a = run(
            &pos,
            Variant::Othello,
            AlphaBetaConfig::default(),
            &SearchLimits::iterations(30_000),
        );
        let b = run(
            &pos,
            Variant::Othello,
            AlphaBetaConfig::default(),
            &SearchLimits::iterations(30_000),
        );
        assert!((30_000..31_000).contains(&a.iterations), "{}", a.iterations);
        assert_eq!((a.best, &a.moves, &a.pv), (b.best, &b.moves, &b.pv));
    }

    /// The AVX2 copy of the recursion searches exactly as the portable one: the same values
    /// and nodes at every depth, with and without ProbCut, from the middle game into the
    /// solver (depth 14 at 14 empties is exact).
    #[test]
    fn the_avx2_copy_searches_exactly_as_the_portable_one() {
        if !fast_generator_available() {
            eprintln!("this CPU has no AVX2: only the portable copy runs here");
            return;
        }
        let w = crate::eval::builtin();
        for (seed, empties, depth) in [(3, 44, 6), (4, 30, 7), (5, 14, 14)] {
            let pos = random_endgame(seed, empties);
            let (p, o) = (pos.player().0, pos.opponent().0);
            for probcut in [0, DEFAULT_PROBCUT] {
                let mut fast = FixedDepth::new(w, Variant::Othello, 1 << 20, probcut);
                let mut portable =
                    FixedDepth::new(w, Variant::Othello, 1 << 20, probcut).portable();
                assert!(fast.fast && !portable.fast);
                for d in 1..=depth {
                    assert_eq!(
                        fast.value(p, o, d),
                        portable.value(p, o, d),
                        "seed {seed} depth {d} probcut {probcut}"
                    );
                    assert_eq!(fast.nodes, portable.nodes, "seed {seed} depth {d}");
                }
            }
        }
    }

    #[test]
    fn a_cancelled_search_returns_a_legal_move() {
        // Cancelled before it starts, and while it runs.
        for wait in [0, 20] {
            let cancel = CancelHandle::new();
            let remote = cancel.clone();
            let t = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(wait));
                remote.cancel();
            });
            if wait == 0 {
                while !cancel.is_cancelled() {
                    std::thread::yield_now();
                }
            }
            let pos = Position::start();
            let r = searcher(AlphaBetaConfig::default()).search(
                &pos,
                Variant::Othello,
                &SearchLimits::time(Duration::from_secs(60)),
                &cancel,
            );
            let _ = t.join();
            assert!(r.cancelled);
            assert!(r.elapsed < Duration::from_secs(10), "{:?}", r.elapsed);
            assert!(
                r.best
                    .is_some_and(|m| Variant::Othello.moves(&pos).contains(&m))
            );
        }
    }

    #[test]
    fn the_time_cap_stops_the_search() {
        let r = run(
            &random_endgame(9, 40),
            Variant::Othello,
            AlphaBetaConfig::default(),
            &SearchLimits::time(Duration::from_millis(50)),
        );
        assert!(r.best.is_some() && r.iterations > 0);
        assert!(r.elapsed < Duration::from_secs(2), "{:?}", r.elapsed);
    }

    #[test]
    fn passes_and_finished_games() {
        // Find positions where the side to move must pass, or where the opponent will.
        let mut passes = 0;
        for seed in 0..3000 {
            let pos = random_endgame(seed, 10);
            if !Variant::Othello.must_pass(&pos) {
                continue;
            }
            passes += 1;
            let r = run(
                &pos,
                Variant::Othello,
                AlphaBetaConfig::default(),
                &SearchLimits::iterations(100_000),
            );
            assert_eq!(r.best, Some(Move::Pass), "seed {seed}");
            // Under no-move-ends-game the same position is over.
            let r = run(
                &pos,
                Variant::NoMoveEndsGame,
                AlphaBetaConfig::default(),
                &SearchLimits::iterations(100_000),
            );
            assert_eq!(r.best, None, "seed {seed}");
            // After the pass, the opponent's search is exact and agrees with the solver.
            let next = pos.pass();
            if !next.both_stuck() {
                let r = run(
                    &next,
                    Variant::Othello,
                    depth(10),
                    &SearchLimits::iterations(u64::MAX),
                );
                let exact = exact_margin(next.player().0, next.opponent().0, true);
                assert_eq!(r.moves[0].exact_margin, Some(exact as i8), "seed {seed}");
            }
            if passes >= 5 {
                break;
            }
        }
        assert!(passes > 0);
        // A finished game has no move.
        let full = Position::from_raw(!0u64 << 8, 0xff, crate::Side::Black);
        let r = run(
            &full,
            Variant::Othello,
            AlphaBetaConfig::default(),
            &SearchLimits::iterations(1_000),
        );
        assert_eq!(r.best, None);
    }

    #[test]
    fn variants_search_legally() {
        for variant in Variant::ALL {
            let mut pos = variant.start_position();
            let mut s = searcher(depth(3));
            for _ in 0..12 {
                if variant.is_game_over(&pos) {
                    break;
                }
                let r = s.search(
                    &pos,
                    variant,
                    &SearchLimits::iterations(u64::MAX),
                    &CancelHandle::new(),
                );
                let mv = r.best.unwrap_or_else(|| panic!("{variant}: no move"));
                assert!(variant.moves(&pos).contains(&mv), "{variant}: {mv}");
                pos = variant.play_unchecked(&pos, mv);
            }
        }
    }

    #[test]
    fn the_table_never_exceeds_the_memory_cap() {
        for memory in [0, 100, 24 * 1000, 1 << 20] {
            let limits = SearchLimits {
                time: Some(Duration::from_secs(60)),
                iterations: Some(200_000),
                memory,
            };
            let mut s = searcher(AlphaBetaConfig::default());
            let mut pos = Position::start();
            for _ in 0..3 {
                let r = s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
                assert!(r.memory <= memory, "{} > {memory}", r.memory);
                assert!(r.nodes * 24 <= memory);
                pos = Variant::Othello.play_unchecked(&pos, r.best.expect("a move"));
            }
        }
    }

    #[test]
    fn the_pv_is_legal() {
        let pos = random_endgame(3, 30);
        let r = run(
            &pos,
            Variant::Othello,
            depth(6),
            &SearchLimits::iterations(u64::MAX),
        );
        assert!(r.pv.len() >= 2, "{:?}", r.pv);
        let mut p = pos;
        for &mv in &r.pv {
            p = Variant::Othello
                .try_play(&p, mv)
                .unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
