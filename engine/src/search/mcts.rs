//! The default strategy: UCT on a flat node pool, with tree reuse between moves, move priors
//! from Othello's corner and X-/C-square knowledge, the MCTS-Solver (proven wins and losses
//! propagate up the tree), exact win/draw/loss solves near the leaves and an exact
//! final-margin solve of the root with few empty squares left. A root with a single legal
//! move (or a pass) is answered at once, and a search can stop before its caps once its move
//! can no longer change ([`MctsConfig::early_stop`]). The node pool is reserved by a
//! searcher's first search and kept by the later ones.
//!
//! Each addition is a [`MctsConfig`] knob so the arena can measure it against `classic`.

use super::alphabeta::FixedDepth;
use super::solver::{Solver, final_margin, solve_root};
use super::tree::{Node, PASS, ProofState, Tree, probability_byte};
use super::{
    CHECK_EVERY, CancelHandle, MoveStats, Proof, SearchLimits, SearchResult, win_probability,
};
use crate::bitboard::{CORNERS, flips, legal_moves};
use crate::clock::Instant;
use crate::eval;
use crate::playout::random_playout;
use crate::{FastRng, Move, Position, Side, Square, Variant};
use std::time::Duration;

/// The knobs of the default strategy ([`super::Strategy::Default`]): UCT on a flat node pool,
/// with tree reuse between moves, move priors (Othello's corner and X-/C-square knowledge, or
/// the learned evaluation), the MCTS-Solver (proven wins and losses propagate up the tree),
/// exact win/draw/loss solves near the leaves and an exact final-margin solve of the root
/// with few empty squares left.
///
/// [`MctsConfig::default`] is what players face; the arena sets the others
/// (`default:c=0.7,prior=0`) to measure what each one is worth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// The UCB exploration constant `c` in `q + c * sqrt(ln N / n)`.
    pub exploration: f32,
    /// How many virtual playouts the move prior is worth (0 turns priors off).
    pub prior_weight: f32,
    /// Solve the root exactly (final disc margin) at or below this many empty squares.
    pub solve_empties: u32,
    /// Prove leaves exactly (win/draw/loss) at or below this many empty squares.
    pub leaf_solve_empties: u32,
    /// Expand a leaf once it has been visited this many times.
    pub expand_at: u32,
    /// Keep the subtree of the actual position between moves.
    pub reuse: bool,
    /// When the pool is full, drop the subtrees of the least visited nodes (half the pool,
    /// see `Tree::prune`) and keep expanding, instead of iterating on the tree it holds
    /// (Master's; off by default).
    pub prune: bool,
    /// Playouts that take an available corner and avoid X-squares next to an empty corner
    /// (uniformly random otherwise) instead of uniformly random ones.
    pub corner_playouts: bool,
    /// How much of a leaf's value comes from the learned evaluation ([`crate::eval`]) rather
    /// than a playout: 0 plays out every leaf, 1 never does.
    pub eval_weight: f32,
    /// Priors from each child's learned evaluation instead of the corner heuristic; a leaf
    /// that was just expanded is then valued by its best child (one ply of minimax).
    pub eval_priors: bool,
    /// The disc margin that counts as one logistic unit when the evaluation becomes a win
    /// probability: `p = 1 / (1 + exp(-margin / eval_scale))`.
    pub eval_scale: f32,
    /// Implicit minimax backups (Lanctot et al. 2014): a node's prior follows the minimax of
    /// the evaluations below it.
    pub minimax: bool,
    /// With implicit minimax backups, how much of a child's value in selection is the
    /// minimax of the evaluations below it, mixed in directly as Lanctot et al. do
    /// (`(1 - a) q + a v`), beside its weight as a prior; 0 (the default): only as a prior.
    /// Master's 0.45 scored +58 Elo [+33, +85] over 600 games against 0 at its 100 ms pace
    /// (docs/ai.md).
    pub minimax_alpha: f32,
    /// Stop before the caps once the move to play can no longer change: when its lead in
    /// visits over the runner-up (the most visited other move not proven lost) is larger
    /// than the iterations the search could still run (its rate so far times the time left,
    /// at most the iteration cap's remainder) times 1.25, or when every other move is proven
    /// lost. Checked with the clock, every few dozen iterations; the time left counts only
    /// once the rate has been measured over a tenth of the time (at least 5 ms), and at no
    /// less than the fastest rate this searcher has run at. A [`super::Searcher`] with
    /// randomness above 0 turns it off: it draws its move in proportion to the visits.
    /// Not before half the cap (a smaller tree for the next move to reuse), and never at or
    /// below `leaf_solve_empties` + 15 empties (a proof can still change the choice). On by
    /// default: at Master's 1 s, +5 Elo [-34, +45] over 200 games against the full search,
    /// 414 ms a move instead of 664 (docs/ai.md; stopping at a quarter of the cap, without
    /// the proof horizon, had cost -51 Elo [-93, -10]).
    pub early_stop: bool,
    /// With evaluated priors, a freshly expanded leaf is valued by an alpha-beta search this
    /// many plies deep (the alpha-beta core with Multi-ProbCut and a small table of its own;
    /// at most 6) instead of by one ply of minimax over its children's priors (1). Off by
    /// default: 2 plies cost Master -92 Elo at 100 ms a move (docs/ai.md).
    pub leaf_depth: u32,
    /// At or below this many empty squares the move is the alpha-beta search's (the `ab`
    /// player: Multi-ProbCut, then its exact endgame, with a table of a quarter of the memory
    /// cap) instead of the tree's; 0: never. Master's is 30 (docs/ai.md).
    pub ab_empties: u32,
    /// ... but only when the move's time cap is at least this long (a search without a time
    /// cap always hands over). Master's is 500 ms: at 1 s a move handing over from 30 empties
    /// scored +70 Elo [+25, +118], at 100 ms -31 [-78, +14] (the tree's endgame proofs beat
    /// `ab`'s shallow solve on a short clock).
    pub ab_min_time: Duration,
    /// Under a time cap shorter than `ab_min_time`, the move is still the alpha-beta search's
    /// above this many empty squares (up to `ab_empties`), so that the tree keeps only the
    /// endgame it proves on a short clock; 0 (the default and Master's): no hand-over under
    /// the shorter cap. Master with 18 at 100 ms a move: -17 Elo [-62, +26] (docs/ai.md).
    pub ab_short_floor: u32,
    /// Play from the searcher's opening book ([`super::Searcher::with_book`]) while the
    /// position is in it: one of the book's moves within this many discs of its best, drawn
    /// with the searcher's seeded generator. `None` (the default, and every level's: the
    /// arena found the project's book weaker than Master's own search, docs/ai.md) searches
    /// every move.
    pub book_margin: Option<u8>,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 0.25,
            prior_weight: 8.0,
            solve_empties: 16,
            leaf_solve_empties: 9,
            expand_at: 1,
            reuse: true,
            prune: false,
            corner_playouts: true,
            eval_weight: 1.0,
            eval_priors: true,
            eval_scale: 6.0,
            minimax: false,
            minimax_alpha: 0.0,
            // On: at Master's 1 s, +5 Elo [-34, +45] over 200 games against the full search,
            // with 38% less time per move (docs/ai.md).
            early_stop: true,
            leaf_depth: 1,
            ab_empties: 0,
            ab_min_time: Duration::ZERO,
            ab_short_floor: 0,
            book_margin: None,
        }
    }
}

/// With [`MctsConfig::prune`], the pool is pruned before an iteration when fewer nodes than
/// this are free: more than one expansion adds (a position has at most 33 moves).
const PRUNE_HEADROOM: usize = 64;

/// Nodes a leaf's win/draw/loss solve may search: a few hundred microseconds at most.
const LEAF_SOLVE_NODES: u64 = 20_000;

/// How much of the time cap the root's exact solve may take before MCTS takes over.
const ROOT_SOLVE_SHARE: f64 = 0.5;

/// Root solver nodes allowed per iteration of an iteration-limited search (keeps it
/// deterministic: a node budget instead of a deadline).
const ROOT_SOLVE_NODES_PER_ITERATION: u64 = 50;

/// The early stop's safety factor on the iterations a search could still run: the rate
/// so far may rise (a reused tree's deep nodes are slower to reach than fresh ones), so the
/// best move's lead must beat a quarter more than the estimate.
const EARLY_STOP_MARGIN: f64 = 1.25;

/// The early stop waits until the search has used at least this share of its time cap (or
/// of its iteration cap): a search stopped sooner plays the same move, but leaves a smaller
/// subtree for the next move to reuse (stopping at a quarter of the cap cost Master about
/// 50 Elo at 1 s, docs/ai.md).
const EARLY_STOP_MIN_SHARE: f64 = 0.5;

/// Plies below the root at which the tree may reach positions the leaf solver proves: the
/// early stop is off for roots with at most `leaf_solve_empties` plus this many empties,
/// where a proof (a runner-up proven won, the leader proven lost) can still change the
/// choice that the visit count alone calls settled.
const EARLY_STOP_PROOF_HORIZON: u32 = 15;

/// The early stop measures the iteration rate over at least this share of the loop's time
/// (a tenth) ...
const EARLY_STOP_MEASURE: u32 = 10;

/// ... and at least this long, before it turns the time left into iterations.
const EARLY_STOP_MIN_MEASURE: Duration = Duration::from_millis(5);

/// For each square: the corner it sits next to (X-squares diagonally, C-squares along the
/// edge), or 64 for none; and whether it is an X-square.
const NEXT_TO_CORNER: [(u8, bool); 64] = {
    let mut t = [(64u8, false); 64];
    let corners = [
        (0u8, 1u8, 8u8, 9u8),
        (7, 6, 15, 14),
        (56, 57, 48, 49),
        (63, 62, 55, 54),
    ];
    let mut k = 0;
    while k < 4 {
        let (corner, c1, c2, x) = corners[k];
        t[c1 as usize] = (corner, false);
        t[c2 as usize] = (corner, false);
        t[x as usize] = (corner, true);
        k += 1;
    }
    t
};

/// Edge squares (not corners).
const EDGES: u64 = 0xff81_8181_8181_81ff & !CORNERS;

/// The prior of playing `sq` from (p, o) that leaves the opponent `(np, no)`: 0..=255 with
/// 128 neutral. Corners are good, X- and C-squares next to an empty corner bad, and moves
/// that leave the opponent few replies good.
#[inline]
fn prior(p: u64, o: u64, sq: u8, np: u64, no: u64) -> u8 {
    let bit = 1u64 << sq;
    let empty = !(p | o);
    let mut s: i32 = 128;
    if bit & CORNERS != 0 {
        s += 90;
    } else {
        let (corner, is_x) = NEXT_TO_CORNER[sq as usize];
        if corner < 64 && empty & (1u64 << corner) != 0 {
            s -= if is_x { 80 } else { 40 };
        } else if bit & EDGES != 0 {
            s += 10;
        }
    }
    let replies = legal_moves(np, no).count_ones() as i32;
    s += 30 - 5 * replies.min(12);
    s.clamp(0, 255) as u8
}

/// Scratch space an iteration reuses: the path from the root, and the leaves' alpha-beta
/// search when they have one ([`MctsConfig::leaf_depth`]; made on first use).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    path: Vec<u32>,
    leaf_search: Option<FixedDepth<'static>>,
}

/// The leaves' alpha-beta table: 1 MiB (a few plies below each leaf need little).
const LEAF_TABLE_BYTES: usize = 1 << 20;
/// The deepest leaf search: it has no clock of its own (it must stay a small fraction of an
/// iteration's budget), and from this few empty squares it would be an exact solve.
const MAX_LEAF_DEPTH: u32 = 6;

/// What the searcher keeps between moves for the default strategy: the tree, whose node
/// pool is reserved by the first search and kept (reset, not reserved again) by every later
/// one with the same memory cap.
#[derive(Debug, Default)]
pub(crate) struct State {
    tree: Option<Tree>,
    scratch: Scratch,
    /// The fastest iteration rate (per second) a whole search of this searcher has run at:
    /// the early stop never expects fewer iterations than this rate allows, since a search
    /// whose first iterations run slowly (a reused tree's deep paths, a cold cache) would
    /// otherwise stop on a rate far below the one it will reach.
    peak_rate: f64,
}

impl State {
    /// Forgets the kept tree (a new game) but keeps its pool for the next search.
    pub(crate) fn forget(&mut self) {
        if let Some(tree) = &mut self.tree {
            tree.forget();
        }
    }

    /// Takes the kept tree out, for tests that look at it.
    #[cfg(test)]
    pub(crate) fn take_tree(&mut self) -> Option<Tree> {
        self.tree.take()
    }
}

/// Runs the default search; see the module docs.
pub(crate) fn search(
    state: &mut State,
    root_pos: &Position,
    variant: Variant,
    limits: &SearchLimits,
    cancel: &CancelHandle,
    rng: &mut FastRng,
    config: &MctsConfig,
) -> SearchResult {
    let start = Instant::now();
    let deadline = start + limits.clock();
    // The kept tree (and its pool) stays for the next search on every early return.
    if variant.is_game_over(root_pos) {
        return finish(&Tree::new(root_pos, variant, 64), 0, start, false);
    }
    // One legal move, or a pass: nothing to search.
    if let [only] = variant.moves(root_pos)[..] {
        return forced(state, root_pos, variant, only, start, config);
    }

    // The exact endgame: every move's win/draw/loss and the best move's final margin.
    let empties = root_pos.empties().count();
    if empties <= config.solve_empties && !variant.in_free_opening(root_pos) {
        let budget = limits.iterations.map_or(u64::MAX, |n| {
            n.saturating_mul(ROOT_SOLVE_NODES_PER_ITERATION)
        });
        let solve_deadline = start + limits.clock().mul_f64(ROOT_SOLVE_SHARE);
        if let Some(solved) = solve_root(
            root_pos,
            variant,
            Some(solve_deadline),
            Some(cancel),
            budget,
        ) {
            return solved_result(solved.moves, solved.nodes, start);
        }
    }

    // Reuse the subtree of this position if the last search saw it coming; otherwise start
    // from a fresh root in the same pool. A pool is reserved only by a searcher's first
    // search, or when the memory cap changes.
    let cap = Tree::cap_for(limits.memory);
    let mut reused_nodes = 0;
    let mut tree = match state.tree.take() {
        Some(mut t) if t.cap == cap => {
            if config.reuse && t.advance_to(root_pos, variant, 3) {
                reused_nodes = t.nodes.len();
            } else {
                t.reset(root_pos, variant);
            }
            t
        }
        _ => Tree::new(root_pos, variant, limits.memory),
    };
    let root_side = tree.root_side;
    // A reused root may have been proven as a leaf (by a leaf solve, without children): the
    // root needs its children to choose a move, so it is expanded like any other.
    if !tree.nodes[0].is_expanded() {
        tree.nodes[0].proof = ProofState::Unknown;
    }
    expand(&mut tree, 0, root_side, config, None);

    let max_iterations = limits.iterations.unwrap_or(u64::MAX);
    let mut iterations = 0u64;
    let mut cancelled = false;
    let mut stopped_early = false;
    let mut check_now = true;
    let loop_start = Instant::now();
    // The time left is turned into iterations only once the rate has been measured over a
    // tenth of the time the loop has (at least a few milliseconds).
    let min_measure = ((deadline - loop_start) / EARLY_STOP_MEASURE).max(EARLY_STOP_MIN_MEASURE);
    let may_stop_early =
        config.early_stop && empties > config.leaf_solve_empties + EARLY_STOP_PROOF_HORIZON;
    let mut may_prune = config.prune;
    while iterations < max_iterations {
        if may_prune && !tree.reserve(PRUNE_HEADROOM) {
            // Between iterations no node index is held, so the pool may be renumbered. A
            // prune that cannot free a quarter of the pool is not tried again in this search.
            let room = tree.room();
            may_prune = tree.prune(room / 2) >= room / 4;
        }
        if check_now || iterations.is_multiple_of(CHECK_EVERY) {
            cancel.set_iterations(iterations);
            if cancel.is_cancelled() {
                cancelled = true;
                break;
            }
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            if may_stop_early
                && iterations > 0
                && spent_share(now - start, limits.time, iterations, max_iterations)
                    >= EARLY_STOP_MIN_SHARE
                && !root_decided(&tree)
            {
                // Without a time cap (only the safety net's clock) the rule counts iterations
                // alone, so a seeded search replays exactly however slowly it runs.
                let rate = match limits.time {
                    Some(_) => {
                        expected_rate(iterations, now - loop_start, min_measure, state.peak_rate)
                    }
                    None => f64::INFINITY,
                };
                let left = iterations_left(rate, deadline - now, max_iterations - iterations);
                if choice_settled(&tree, left * EARLY_STOP_MARGIN) {
                    stopped_early = true;
                    break;
                }
            }
        }
        if root_decided(&tree) {
            break;
        }
        check_now = iterate(&mut tree, &mut state.scratch, config, rng, deadline, cancel);
        iterations += 1;
    }
    cancel.set_iterations(iterations);
    let loop_time = loop_start.elapsed();
    if loop_time >= EARLY_STOP_MIN_MEASURE {
        state.peak_rate = state
            .peak_rate
            .max(iterations as f64 / loop_time.as_secs_f64());
    }
    let mut result = finish(&tree, iterations, start, cancelled);
    result.reused_nodes = reused_nodes;
    result.stopped_early = stopped_early;
    // The pool is kept even without reuse: the next search resets it.
    state.tree = Some(tree);
    result
}

/// The result for a root with a single legal move `mv` (or a pass), without any iteration.
/// The move's value comes from the kept tree when it has one for it (the tree is then
/// advanced to this root, so the next search, two plies on, still finds its subtree), else
/// from the learned evaluation of the position after it (exact when that ends the game).
fn forced(
    state: &mut State,
    root_pos: &Position,
    variant: Variant,
    mv: Move,
    start: Instant,
    config: &MctsConfig,
) -> SearchResult {
    let mut kept = 0;
    let mut memory = 0;
    if let Some(tree) = state.tree.as_mut()
        && config.reuse
        && tree.advance_to(root_pos, variant, 3)
    {
        kept = tree.nodes.len();
        memory = tree.memory();
        let valued = tree.nodes[tree.nodes[0].children()]
            .iter()
            .any(|c| c.the_move() == mv && (c.visits > 0 || c.proof.is_known()));
        if valued {
            let mut result = finish(tree, 0, start, false);
            result.reused_nodes = kept;
            return result;
        }
    }
    let after = variant.play_unchecked(root_pos, mv);
    let (win_rate, proof, exact_margin) = if variant.is_game_over(&after) {
        // Empty squares to the winner, as the solver scores a finished game.
        let black = i32::from(after.score().wof().margin());
        let margin = if root_pos.side_to_move() == Side::Black {
            black
        } else {
            -black
        };
        let proof = ProofState::of_margin(margin);
        (
            f64::from(proof_score(proof)),
            proof.proven(),
            Some(margin.clamp(-64, 64) as i8),
        )
    } else {
        // The mover's chance, from the evaluation of the side to move after the move.
        let (p, o) = (after.player().0, after.opponent().0);
        let margin = -(eval::evaluate_raw(p, o) as f32) / eval::SCALE as f32;
        (
            f64::from(win_probability(margin, config.eval_scale)),
            None,
            None,
        )
    };
    SearchResult {
        best: Some(mv),
        moves: vec![MoveStats {
            mv,
            visits: 0,
            win_rate,
            proof,
            exact_margin,
        }],
        pv: vec![mv],
        iterations: 0,
        nodes: kept,
        memory,
        endgame_nodes: 0,
        proven: proof.is_some(),
        elapsed: start.elapsed(),
        cancelled: false,
        reused_nodes: kept,
        stopped_early: false,
    }
}

/// The iteration rate the early stop expects for the rest of a search that has run `done`
/// iterations in `elapsed`: unknown (infinite, so only the iteration cap can stop it) until
/// `elapsed` reaches `min_measure`, and never below the searcher's `peak` rate.
fn expected_rate(done: u64, elapsed: Duration, min_measure: Duration, peak: f64) -> f64 {
    if elapsed.is_zero() || elapsed < min_measure {
        return f64::INFINITY;
    }
    (done as f64 / elapsed.as_secs_f64()).max(peak)
}

/// How much of its caps a search has used: the larger of its share of the time cap and its
/// share of the iteration cap (0 for a cap it does not have).
fn spent_share(elapsed: Duration, clock: Option<Duration>, done: u64, cap: u64) -> f64 {
    let by_time = match clock {
        None => 0.0,
        Some(clock) if clock.is_zero() => 1.0,
        Some(clock) => elapsed.as_secs_f64() / clock.as_secs_f64(),
    };
    let by_count = if cap == u64::MAX {
        0.0
    } else {
        done as f64 / cap.max(1) as f64
    };
    by_time.max(by_count)
}

/// The iterations a search can still run at `rate` in `time_left`, at most `cap_left`, the
/// iteration cap's remainder (all of it at an infinite rate, with time left).
fn iterations_left(rate: f64, time_left: Duration, cap_left: u64) -> f64 {
    let by_time = if time_left.is_zero() {
        0.0
    } else {
        rate * time_left.as_secs_f64()
    };
    by_time.min(cap_left as f64)
}

/// Whether the move [`finish`] would play (the most visited root move not proven lost) can
/// no longer change in `left` more iterations: its lead in visits over the most visited
/// other move not proven lost is larger, or it is the only move not proven lost.
fn choice_settled(tree: &Tree, left: f64) -> bool {
    let (mut first, mut second, mut candidates) = (0u32, 0u32, 0usize);
    for c in &tree.nodes[tree.nodes[0].children()] {
        if c.proof == ProofState::Loss {
            continue;
        }
        candidates += 1;
        if c.visits > first {
            second = first;
            first = c.visits;
        } else {
            second = second.max(c.visits);
        }
    }
    match candidates {
        0 => false,
        1 => true,
        _ => f64::from(first - second) > left,
    }
}

/// Whether the root's choice is settled: a proven win, or every move proven.
fn root_decided(tree: &Tree) -> bool {
    let root = &tree.nodes[0];
    let children = &tree.nodes[root.children()];
    !children.is_empty()
        && (children.iter().any(|c| c.proof == ProofState::Win)
            || children.iter().all(|c| c.proof.is_known()))
}

/// Creates the children of node `n` (side `side` to move there), or proves it if the game is
/// over or a quick exact solve settles it. Returns whether a leaf solve ran (slow: the clock
/// should be checked).
fn expand(
    tree: &mut Tree,
    n: usize,
    side: Side,
    config: &MctsConfig,
    solve: Option<(Instant, &CancelHandle)>,
) -> bool {
    let node = tree.nodes[n];
    if node.is_expanded() || node.proof.is_known() {
        return false;
    }
    let (p, o) = (node.player, node.opponent);
    let pos = Position::from_raw(p, o, side);
    let variant = tree.variant;
    let mut moves = variant.legal_moves(&pos).0;
    let mut solved = false;
    if moves == 0 {
        if !variant.must_pass(&pos) {
            // Game over: the mover into this node scored the opposite of the side to move.
            let margin = final_margin(p, o);
            tree.nodes[n].proof = ProofState::of_margin(margin).flipped();
            tree.nodes[n].n_children = 0;
            return false;
        }
    } else if let Some((deadline, cancel)) = solve
        && (!(p | o)).count_ones() <= config.leaf_solve_empties
        && !variant.in_free_opening(&pos)
    {
        let mut solver =
            Solver::new(variant, Some(deadline), Some(cancel)).with_budget(LEAF_SOLVE_NODES);
        solved = true;
        if let Some(v) = solver.win_draw_loss(&pos) {
            tree.nodes[n].proof = ProofState::of_margin(v).flipped();
            return true;
        }
    }
    let count = if moves == 0 {
        1
    } else {
        moves.count_ones() as usize
    };
    if !tree.reserve(count) {
        return solved;
    }
    let first = tree.nodes.len() as u32;
    if config.eval_priors {
        tree.priors.prepare(config.eval_scale);
    }
    if moves == 0 {
        // The passing side's chance is what is left of the opponent's, to move after it.
        let pr = if config.eval_priors {
            tree.priors.after(eval::evaluate_raw(o, p))
        } else {
            128
        };
        tree.nodes.push(Node::new(o, p, PASS, pr));
    } else {
        let free = variant.in_free_opening(&pos);
        // Every child's evaluation starts from the instances read once here.
        let base = (config.eval_priors && !free).then(|| eval::base_for_moves(p, o));
        while moves != 0 {
            let i = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let bit = 1u64 << i;
            let f = if free {
                0
            } else {
                flips(p, o, Square::ALL[i as usize])
            };
            let (np, no) = (o & !f, p | f | bit);
            let pr = if free || config.prior_weight <= 0.0 && !config.eval_priors {
                128
            } else if config.eval_priors {
                // The mover's win chance after the move, from the evaluation of the reply side.
                if np | no == !0 {
                    let margin = -(np.count_ones() as f32 - no.count_ones() as f32);
                    probability_byte(margin, config.eval_scale)
                } else if let Some(base) = &base {
                    tree.priors
                        .after(eval::evaluate_after(base, u32::from(i), f, np, no))
                } else {
                    tree.priors.after(eval::evaluate_raw(np, no))
                }
            } else {
                prior(p, o, i, np, no)
            };
            tree.nodes.push(Node::new(np, no, i, pr));
        }
    }
    let node = &mut tree.nodes[n];
    node.first_child = first;
    node.n_children = count as u8;
    solved
}

/// Implicit minimax backups (Lanctot et al. 2014) kept in the prior byte: after node
/// `path.last()` was expanded, each node on the path, from the bottom up, takes as its prior
/// the mover's chance against the reply that is best by the children's priors (a proven
/// child counts as certain), as long as that changes anything. The prior is the evaluation
/// of the position for a fresh node and the minimax of the evaluations below it once it has
/// children.
fn back_up_priors(tree: &mut Tree, path: &[u32]) {
    for &i in path.iter().skip(1).rev() {
        let i = i as usize;
        let best_reply = tree.nodes[tree.nodes[i].children()]
            .iter()
            .map(|c| match c.proof {
                ProofState::Win => 255,
                ProofState::Loss => 0,
                ProofState::Draw => 128,
                ProofState::Unknown => c.prior,
            })
            .max();
        let Some(best_reply) = best_reply else { break };
        let value = 255 - best_reply;
        if tree.nodes[i].prior == value {
            break;
        }
        tree.nodes[i].prior = value;
    }
}

/// How many natural logarithms of visit counts [`ln_visits`] keeps at hand.
const LN_TABLE: usize = 4096;

/// `ln(k)` for `k` in `0..LN_TABLE` (the first entry unused), exactly as `f32::ln` gives it.
static LN: std::sync::LazyLock<Vec<f32>> =
    std::sync::LazyLock::new(|| (0..LN_TABLE).map(|k| (k as f32).ln()).collect());

/// `ln(n)` for the selection's exploration term: looked up for the visit counts of all but
/// the busiest nodes (the same value, without a call to the logarithm at each node of each
/// descent).
#[inline]
fn ln_visits(n: u32) -> f32 {
    match LN.get(n as usize) {
        Some(&l) => l,
        None => (n as f32).ln(),
    }
}

/// The score (1, 0.5, 0) of a proof for the side it belongs to.
#[inline]
fn proof_score(proof: ProofState) -> f32 {
    match proof {
        ProofState::Win => 1.0,
        ProofState::Draw => 0.5,
        ProofState::Loss | ProofState::Unknown => 0.0,
    }
}

/// Picks the child of `n` to descend into: the highest UCB value with the prior as virtual
/// playouts (and, with minimax backups, [`MctsConfig::minimax_alpha`] of the minimax value
/// mixed into the mean), never a child proven lost for the side to move.
#[inline]
fn select(tree: &Tree, n: usize, config: &MctsConfig) -> Option<usize> {
    let node = &tree.nodes[n];
    let ln_n = ln_visits(node.visits + 1);
    let c = config.exploration;
    let w = config.prior_weight;
    let alpha = if config.minimax {
        config.minimax_alpha
    } else {
        0.0
    };
    let mut best = None;
    let mut best_value = f32::NEG_INFINITY;
    for i in node.children() {
        let child = &tree.nodes[i];
        let value = match child.proof {
            ProofState::Loss => continue,
            ProofState::Win => f32::INFINITY,
            ProofState::Draw | ProofState::Unknown => {
                let prior = f32::from(child.prior) * (1.0 / 255.0);
                let v = child.visits as f32;
                let q = if child.proof == ProofState::Draw {
                    0.5
                } else if v + w > 0.0 {
                    let q = (child.wins + w * prior) / (v + w);
                    q + alpha * (prior - q)
                } else {
                    // No prior and no visit: try it before any visited sibling.
                    2.0 + prior
                };
                q + c * (ln_n / (v + 1.0)).sqrt()
            }
        };
        if value > best_value {
            best_value = value;
            best = Some(i);
        }
    }
    best
}

/// One iteration: select and expand ([`descend`]), value the leaf ([`leaf_value`]), back the
/// value up the path ([`back_up`]) and let a proof climb ([`propagate_proof`]). Returns
/// whether it ran a slow exact solve.
fn iterate(
    tree: &mut Tree,
    scratch: &mut Scratch,
    config: &MctsConfig,
    rng: &mut FastRng,
    deadline: Instant,
    cancel: &CancelHandle,
) -> bool {
    let path = &mut scratch.path;
    let (leaf, side, slow) = descend(tree, path, config, deadline, cancel);
    let black_score = leaf_value(tree, leaf, side, config, rng, &mut scratch.leaf_search);
    back_up(tree, path, black_score);
    if tree.nodes[leaf].proof.is_known() {
        propagate_proof(tree, path);
    }
    slow
}

/// Selection and expansion: from the root down the tree by [`select`], expanding the node
/// where it stops (a node is expanded on its `expand_at`-th visit; the root at once) and
/// stopping at a proven node, a fresh expansion (valued where it stands) or a leaf. `path`
/// gets the nodes from the root to the leaf. Returns the leaf, the side to move there and
/// whether an expansion ran a slow exact solve.
#[inline]
fn descend(
    tree: &mut Tree,
    path: &mut Vec<u32>,
    config: &MctsConfig,
    deadline: Instant,
    cancel: &CancelHandle,
) -> (usize, Side, bool) {
    path.clear();
    path.push(0);
    let mut n = 0usize;
    let mut side = tree.root_side;
    let mut slow = false;
    loop {
        let node = &tree.nodes[n];
        if node.proof.is_known() {
            break;
        }
        if !node.is_expanded() {
            if node.visits + 1 < config.expand_at && n != 0 {
                break;
            }
            let fresh = node.visits == 0 && n != 0;
            slow |= expand(tree, n, side, config, Some((deadline, cancel)));
            if !tree.nodes[n].is_expanded() {
                break;
            }
            if config.minimax {
                back_up_priors(tree, path);
            }
            // A node expanded on its first visit is valued where it stands (with evaluated
            // priors: by one ply of minimax over its children) rather than descended into
            // again in the same iteration.
            if fresh {
                break;
            }
        }
        match select(tree, n, config) {
            Some(c) => {
                n = c;
                side = side.opposite();
                path.push(c as u32);
            }
            None => break,
        }
    }
    (n, side, slow)
}

/// The leaf's value for Black, 0..1: its proof when it has one, else the learned evaluation
/// (or an alpha-beta search by it, [`MctsConfig::leaf_depth`]) blended with a playout by
/// `eval_weight` (the evaluation alone at 1, the playout alone at 0 and in a free opening).
#[inline]
fn leaf_value(
    tree: &Tree,
    n: usize,
    side: Side,
    config: &MctsConfig,
    rng: &mut FastRng,
    leaf_search: &mut Option<FixedDepth<'static>>,
) -> f32 {
    let leaf = &tree.nodes[n];
    if leaf.proof.is_known() {
        // The proof is for the side that moved into the leaf.
        let s = proof_score(leaf.proof);
        return if side.opposite() == Side::Black {
            s
        } else {
            1.0 - s
        };
    }
    let pos = Position::from_raw(leaf.player, leaf.opponent, side);
    let free = tree.variant.in_free_opening(&pos);
    let lambda = if free { 0.0 } else { config.eval_weight };
    // The learned value for the side to move at the leaf: its best child's prior when it
    // was just expanded with evaluated priors, else its own evaluation.
    let learned = if lambda <= 0.0 {
        0.0
    } else if config.eval_priors && leaf.is_expanded() && config.leaf_depth > 1 {
        if leaf_search
            .as_ref()
            .is_some_and(|s| s.variant() != tree.variant)
        {
            *leaf_search = None;
        }
        let search = leaf_search.get_or_insert_with(|| {
            FixedDepth::new(
                eval::builtin(),
                tree.variant,
                LEAF_TABLE_BYTES,
                super::alphabeta::DEFAULT_PROBCUT,
            )
        });
        let depth = config.leaf_depth.min(MAX_LEAF_DEPTH);
        let v = search.value(leaf.player, leaf.opponent, depth);
        win_probability(v as f32 / eval::SCALE as f32, config.eval_scale)
    } else if config.eval_priors && leaf.is_expanded() && leaf.n_children > 0 {
        let best = tree.nodes[leaf.children()]
            .iter()
            .map(|c| c.prior)
            .max()
            .unwrap_or(128);
        f32::from(best) / 255.0
    } else {
        let e = eval::evaluate_raw(leaf.player, leaf.opponent) as f32 / eval::SCALE as f32;
        win_probability(e, config.eval_scale)
    };
    let learned_black = if side == Side::Black {
        learned
    } else {
        1.0 - learned
    };
    let played = if lambda >= 1.0 {
        0.0
    } else if config.corner_playouts && !free {
        let passes = tree.variant.passes();
        let margin = corner_playout(leaf.player, leaf.opponent, passes, rng);
        let black = if side == Side::Black { margin } else { -margin };
        match black.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        }
    } else {
        random_playout(&pos, tree.variant, rng).score_for(Side::Black)
    };
    lambda * learned_black + (1.0 - lambda) * played
}

/// Backpropagation: each node on `path` gets a visit and scores for the side that moved into
/// it; the side to move alternates with depth (a pass is a move).
#[inline]
fn back_up(tree: &mut Tree, path: &[u32], black_score: f32) {
    for (d, &i) in path.iter().enumerate() {
        let node = &mut tree.nodes[i as usize];
        node.visits += 1;
        node.wins += if mover_at(tree.root_side, d) == Side::Black {
            black_score
        } else {
            1.0 - black_score
        };
    }
}

/// MCTS-Solver: the proven leaf at the end of `path` settles its parent when one child is a
/// win for the parent's mover (the parent is lost for the side that moved into it) or all
/// children are proven; the proof climbs while it settles parents, short of the root.
#[inline]
fn propagate_proof(tree: &mut Tree, path: &[u32]) {
    let depth = path.len() - 1;
    for d in (0..depth).rev() {
        let parent = path[d] as usize;
        if tree.nodes[parent].proof.is_known() {
            break;
        }
        let children = &tree.nodes[tree.nodes[parent].children()];
        let proof = if children.iter().any(|c| c.proof == ProofState::Win) {
            ProofState::Loss
        } else if children.iter().all(|c| c.proof.is_known()) {
            if children.iter().any(|c| c.proof == ProofState::Draw) {
                ProofState::Draw
            } else {
                ProofState::Win
            }
        } else {
            break;
        };
        if parent == 0 {
            break;
        }
        tree.nodes[parent].proof = proof;
    }
}

/// The X-squares (b2, g2, b7, g7) next to an empty corner.
#[inline]
fn x_squares_near_empty_corners(empty: u64) -> u64 {
    let ec = empty & CORNERS;
    ((ec & 1) << 9) | ((ec & (1 << 7)) << 7) | ((ec & (1 << 56)) >> 7) | ((ec & (1 << 63)) >> 9)
}

/// A playout that takes a corner when it can and shuns X-squares next to an empty corner
/// when it has another move; otherwise uniformly random. Returns the final margin for the
/// side to move at the start.
#[inline]
fn corner_playout(mut p: u64, mut o: u64, passes: bool, rng: &mut FastRng) -> i32 {
    let mut swapped = false;
    loop {
        let mut moves = legal_moves(p, o);
        if moves == 0 {
            if !passes {
                break;
            }
            moves = legal_moves(o, p);
            if moves == 0 {
                break;
            }
            std::mem::swap(&mut p, &mut o);
            swapped = !swapped;
        }
        let corners = moves & CORNERS;
        let choice = if corners != 0 {
            corners
        } else {
            let good = moves & !x_squares_near_empty_corners(!(p | o));
            if good != 0 { good } else { moves }
        };
        let sq = crate::playout::random_square_raw(choice, rng);
        let f = flips(p, o, sq);
        let np = o & !f;
        o = p | f | sq.mask();
        p = np;
        swapped = !swapped;
    }
    let m = p.count_ones() as i32 - o.count_ones() as i32;
    if swapped { -m } else { m }
}

/// The side that made the move into a node at depth `d` below a root with `root_side` to move.
#[inline]
fn mover_at(root_side: Side, d: usize) -> Side {
    if d.is_multiple_of(2) {
        root_side.opposite()
    } else {
        root_side
    }
}

/// The public result from the tree's root.
fn finish(tree: &Tree, iterations: u64, start: Instant, cancelled: bool) -> SearchResult {
    let root = &tree.nodes[0];
    let mut children: Vec<usize> = root.children().collect();
    let rank = |n: &Node| match n.proof {
        ProofState::Win => 3,
        ProofState::Draw | ProofState::Unknown => 1,
        ProofState::Loss => 0,
    };
    // The move to play: a proven win, else the most visited move not proven lost.
    children.sort_by(|&a, &b| {
        let (na, nb) = (&tree.nodes[a], &tree.nodes[b]);
        rank(nb)
            .cmp(&rank(na))
            .then(nb.visits.cmp(&na.visits))
            .then(
                (nb.wins / nb.visits.max(1) as f32).total_cmp(&(na.wins / na.visits.max(1) as f32)),
            )
            .then(na.mv.cmp(&nb.mv))
    });
    let moves: Vec<MoveStats> = children
        .iter()
        .map(|&c| {
            let n = &tree.nodes[c];
            let proof = n.proof.proven();
            MoveStats {
                mv: n.the_move(),
                visits: u64::from(n.visits),
                win_rate: match proof {
                    Some(_) => f64::from(proof_score(n.proof)),
                    None if n.visits > 0 => f64::from(n.wins) / f64::from(n.visits),
                    None => 0.5,
                },
                proof,
                exact_margin: None,
            }
        })
        .collect();
    let root_pos = tree.root_position();
    let mut best = moves.first().map(|m| m.mv);
    if best.is_none() && !tree.variant.is_game_over(&root_pos) {
        best = tree.variant.moves(&root_pos).first().copied();
    }
    let mut pv = Vec::new();
    let mut n = children.first().copied();
    while let Some(i) = n {
        pv.push(tree.nodes[i].the_move());
        n = tree.nodes[i]
            .children()
            .max_by_key(|&c| (tree.nodes[c].visits, std::cmp::Reverse(c)));
        if pv.len() > 60 {
            break;
        }
    }
    SearchResult {
        best,
        proven: moves.first().is_some_and(|m| m.proof.is_some()),
        moves,
        pv,
        iterations,
        nodes: tree.nodes.len(),
        memory: tree.memory(),
        endgame_nodes: 0,
        elapsed: start.elapsed(),
        cancelled,
        reused_nodes: 0,
        stopped_early: false,
    }
}

/// The result of an exact root solve.
fn solved_result(solved: Vec<(Move, i32, bool)>, nodes: u64, start: Instant) -> SearchResult {
    let moves: Vec<MoveStats> = solved
        .iter()
        .map(|&(mv, margin, exact)| {
            let proof = match margin.signum() {
                1 => Proof::Win,
                0 => Proof::Draw,
                _ => Proof::Loss,
            };
            MoveStats {
                mv,
                visits: 0,
                win_rate: match proof {
                    Proof::Win => 1.0,
                    Proof::Draw => 0.5,
                    Proof::Loss => 0.0,
                },
                proof: Some(proof),
                exact_margin: exact.then(|| margin.clamp(-64, 64) as i8),
            }
        })
        .collect();
    let best = moves.first().map(|m| m.mv);
    SearchResult {
        best,
        pv: best.into_iter().collect(),
        moves,
        iterations: 0,
        nodes: 0,
        memory: 0,
        endgame_nodes: nodes,
        proven: true,
        elapsed: start.elapsed(),
        cancelled: false,
        reused_nodes: 0,
        stopped_early: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::solver::tests::{minimax, random_endgame};
    use crate::search::{Level, Searcher, Strategy};

    /// The looked-up logarithms are the computed ones, for each visit count (also past the
    /// table).
    #[test]
    fn looked_up_logarithms_equal_the_computed_ones() {
        for n in 1..3 * LN_TABLE as u32 {
            assert_eq!(ln_visits(n).to_bits(), (n as f32).ln().to_bits(), "{n}");
        }
    }

    /// A position from random play where the side to move has no move but the game goes on.
    fn a_pass_position() -> Position {
        (0..400)
            .flat_map(|seed| crate::eval::tests::random_positions(seed, 60))
            .find(|p| p.flip_moves().is_empty() && !p.both_stuck())
            .unwrap_or_else(|| panic!("no pass position in the sample"))
    }

    /// The mover's win probability after `mv` by the learned evaluation, as the forced
    /// move's result gives it.
    fn evaluated_after(pos: &Position, mv: Move, scale: f32) -> f64 {
        let after = Variant::Othello.play_unchecked(pos, mv);
        let (p, o) = (after.player().0, after.opponent().0);
        let margin = -(eval::evaluate_raw(p, o) as f32) / eval::SCALE as f32;
        f64::from(win_probability(margin, scale))
    }

    #[test]
    fn a_forced_pass_is_valued_by_the_evaluation() {
        // Black to move has no move (white has), so the root's one child is a pass, and its
        // prior is black's chance with white to move, not an even 128.
        let pos = a_pass_position();
        let config = MctsConfig::default();
        let mut tree = Tree::new(&pos, Variant::Othello, 1 << 16);
        expand(&mut tree, 0, pos.side_to_move(), &config, None);
        let children = &tree.nodes[tree.nodes[0].children()];
        assert_eq!(children.len(), 1);
        assert_eq!(children[0].mv, PASS);
        let (p, o) = (pos.player().0, pos.opponent().0);
        let margin = -(eval::evaluate_raw(o, p) as f32) / eval::SCALE as f32;
        assert_eq!(
            children[0].prior,
            probability_byte(margin, config.eval_scale)
        );
        // The search passes at once, with the same value unquantised.
        let r = searcher(1, config).search(
            &pos,
            Variant::Othello,
            &SearchLimits::iterations(5_000),
            &CancelHandle::new(),
        );
        assert_eq!(r.best, Some(Move::Pass));
        assert_eq!(r.iterations, 0);
        assert_eq!(r.pv, vec![Move::Pass]);
        assert_eq!(r.moves.len(), 1);
        assert_eq!(r.moves[0].mv, Move::Pass);
        assert_eq!(r.moves[0].visits, 0);
        let want = evaluated_after(&pos, Move::Pass, config.eval_scale);
        assert_eq!(r.moves[0].win_rate, want);
        assert!(want != 0.5 && (0.0..=1.0).contains(&want), "{want}");
    }

    #[test]
    fn a_single_legal_move_is_played_at_once() {
        // Positions with one legal move, some within the root solve's reach (which the forced
        // move comes before).
        let positions: Vec<Position> = (0..400)
            .flat_map(|seed| crate::eval::tests::random_positions(seed, 60))
            .filter(|p| p.flip_moves().count() == 1 && p.empties().count() > 10)
            .take(5)
            .collect();
        assert_eq!(positions.len(), 5);
        let config = MctsConfig::default();
        assert!(
            positions
                .iter()
                .any(|p| p.empties().count() <= config.solve_empties)
        );
        for pos in positions {
            let only = Variant::Othello.moves(&pos)[0];
            let r = searcher(2, config).search(
                &pos,
                Variant::Othello,
                &SearchLimits::iterations(5_000),
                &CancelHandle::new(),
            );
            assert_eq!(r.best, Some(only), "{pos:?}");
            assert_eq!(r.iterations, 0);
            assert_eq!(r.moves.len(), 1);
            assert_eq!(r.moves[0].mv, only);
            assert_eq!(r.moves[0].proof, None);
            assert_eq!(
                r.moves[0].win_rate,
                evaluated_after(&pos, only, config.eval_scale)
            );
            assert!(!r.stopped_early && !r.proven);
            assert_eq!(r.reused_nodes, 0, "a fresh searcher has no tree");
        }
    }

    #[test]
    fn a_forced_move_takes_its_value_from_the_kept_tree_and_keeps_it_for_the_next_search() {
        // Search midgame positions until the tree holds, two plies down, a position with a
        // single legal move whose move was visited; the searcher then reaches it.
        let limits = SearchLimits::iterations(20_000);
        let config = MctsConfig {
            early_stop: false,
            ..MctsConfig::default()
        };
        let mut checked = 0;
        for seed in 0..60 {
            let pos = random_endgame(700 + seed, 22);
            let mut s = searcher(seed, config);
            s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
            let Some(tree) = s.state.tree.as_ref() else {
                continue;
            };
            let grandchildren: Vec<usize> = tree.nodes[0]
                .children()
                .flat_map(|c| tree.nodes[c].children())
                .collect();
            let forced = grandchildren.into_iter().find_map(|g| {
                let node = &tree.nodes[g];
                let kids = node.children();
                (kids.len() == 1 && tree.nodes[kids.start].visits > 0)
                    .then(|| (g, tree.nodes[kids.start]))
            });
            let Some((g, child)) = forced else { continue };
            let node = tree.nodes[g];
            let root = Position::from_raw(node.player, node.opponent, pos.side_to_move());
            let r = s.search(&root, Variant::Othello, &limits, &CancelHandle::new());
            assert_eq!(r.iterations, 0);
            assert_eq!(r.best, Some(child.the_move()));
            assert_eq!(r.moves.len(), 1);
            assert_eq!(r.moves[0].visits, u64::from(child.visits));
            let tree_rate = match child.proof.proven() {
                Some(_) => f64::from(proof_score(child.proof)),
                None => f64::from(child.wins) / f64::from(child.visits),
            };
            assert_eq!(r.moves[0].win_rate, tree_rate);
            assert!(r.reused_nodes > 1, "{} nodes kept", r.reused_nodes);
            // The tree now stands at this root, so the next search finds its subtree.
            let kept = s.state.tree.as_ref().map(Tree::root_position);
            assert_eq!(kept, Some(root));
            let after = Variant::Othello.play_unchecked(&root, child.the_move());
            if let Some(&reply) = Variant::Othello.moves(&after).first() {
                let next = Variant::Othello.play_unchecked(&after, reply);
                let r = s.search(&next, Variant::Othello, &limits, &CancelHandle::new());
                assert!(r.reused_nodes > 0, "the reply's position was in the tree");
            }
            checked += 1;
            if checked == 2 {
                break;
            }
        }
        assert_eq!(checked, 2, "too few forced positions in the kept trees");
    }

    #[test]
    fn a_searcher_reserves_its_node_pool_once() {
        let limits = SearchLimits {
            time: None,
            iterations: Some(2_000),
            memory: 1 << 20,
        };
        let mut state = State::default();
        let mut rng = FastRng::new(4);
        let config = MctsConfig::default();
        let mut run = |state: &mut State, pos: &Position, config: &MctsConfig| {
            search(
                state,
                pos,
                Variant::Othello,
                &limits,
                &CancelHandle::new(),
                &mut rng,
                config,
            )
        };
        run(&mut state, &Position::start(), &config);
        let pool = state.tree.as_ref().map(Tree::pool);
        assert!(pool.is_some_and(|(_, cap)| cap >= (1 << 20) / 32));
        // Unrelated positions: a midgame (a fresh root), a root solve, a forced pass, a game
        // over, a midgame with reuse off, and one after the searcher forgot its tree.
        let midgame = random_endgame(31, 40);
        let solved = random_endgame(32, 8);
        let over = crate::eval::tests::random_positions(3, 200)
            .into_iter()
            .find(Position::both_stuck)
            .unwrap_or_else(|| panic!("no finished game"));
        let no_reuse = MctsConfig {
            reuse: false,
            ..config
        };
        for (pos, config) in [
            (midgame, config),
            (solved, config),
            (a_pass_position(), config),
            (over, config),
            (random_endgame(33, 30), no_reuse),
            (random_endgame(34, 35), config),
        ] {
            if pos == random_endgame(34, 35) {
                state.forget();
            }
            let r = run(&mut state, &pos, &config);
            assert_eq!(state.tree.as_ref().map(Tree::pool), pool, "{pos:?}");
            assert_eq!(r.reused_nodes, 0, "{pos:?}");
            if r.iterations > 0 {
                assert_eq!(state.tree.as_ref().map(Tree::root_position), Some(pos));
            }
        }
        // A different memory cap needs a pool of its own.
        let bigger = SearchLimits {
            memory: 2 << 20,
            ..limits
        };
        search(
            &mut state,
            &midgame,
            Variant::Othello,
            &bigger,
            &CancelHandle::new(),
            &mut FastRng::new(4),
            &config,
        );
        assert!(state.tree.as_ref().is_some_and(|t| t.cap == (2 << 20) / 32));
    }

    #[test]
    fn minimax_backups_keep_each_prior_at_the_best_reply() {
        let config = MctsConfig {
            minimax: true,
            expand_at: 1,
            ..MctsConfig::default()
        };
        let mut state = State::default();
        let pos =
            Variant::Othello.play_unchecked(&Position::start(), "f5".parse().expect("a move"));
        search(
            &mut state,
            &pos,
            Variant::Othello,
            &SearchLimits::iterations(5_000),
            &CancelHandle::new(),
            &mut FastRng::new(3),
            &config,
        );
        let tree = state
            .tree
            .as_ref()
            .unwrap_or_else(|| panic!("the tree is kept"));
        let mut checked = 0;
        for (i, node) in tree.nodes.iter().enumerate().skip(1) {
            let children = &tree.nodes[node.children()];
            if children.is_empty() || children.iter().any(|c| c.proof.is_known()) {
                continue;
            }
            let best = children.iter().map(|c| c.prior).max().unwrap_or(0);
            assert_eq!(node.prior, 255 - best, "node {i}");
            checked += 1;
        }
        assert!(checked > 100, "only {checked} expanded nodes");
    }

    #[test]
    fn the_evaluation_alone_finds_the_only_winning_move() {
        // Endgames where exactly one move wins: the search with every exact solve turned
        // off must find it from the evaluation (and one ply of minimax) most of the time (a
        // sign error would make it pick losing moves). Plain playouts in the same budget,
        // for the message: 25 of 30 with the generation-3 weights, as many as these.
        let config = MctsConfig {
            solve_empties: 0,
            leaf_solve_empties: 0,
            ..MctsConfig::default()
        };
        let playouts = MctsConfig {
            eval_weight: 0.0,
            eval_priors: false,
            ..config
        };
        // Leaves valued by a 3-ply alpha-beta search instead of one ply of priors.
        let leaf_search = MctsConfig {
            leaf_depth: 3,
            ..config
        };
        let mut found = 0;
        let mut found_by_playouts = 0;
        let mut found_by_leaf_search = 0;
        let mut cases = 0;
        for seed in 0..400 {
            let pos = random_endgame(5_000 + seed, 14);
            let Some(solved) = solve_root(&pos, Variant::Othello, None, None, u64::MAX) else {
                continue;
            };
            let winners: Vec<Move> = solved
                .moves
                .iter()
                .filter(|m| m.1 > 0)
                .map(|m| m.0)
                .collect();
            if winners.len() != 1 || solved.moves.len() < 3 {
                continue;
            }
            cases += 1;
            let limits = SearchLimits::iterations(2_000);
            let pick = |c: MctsConfig| {
                searcher(seed, c)
                    .search(&pos, Variant::Othello, &limits, &CancelHandle::new())
                    .best
            };
            found += usize::from(pick(config) == Some(winners[0]));
            found_by_playouts += usize::from(pick(playouts) == Some(winners[0]));
            found_by_leaf_search += usize::from(pick(leaf_search) == Some(winners[0]));
            if cases == 30 {
                break;
            }
        }
        assert_eq!(cases, 30);
        assert!(
            found >= 18,
            "found {found} of {cases} (playouts: {found_by_playouts})"
        );
        assert!(
            found >= found_by_playouts,
            "found {found}, playouts {found_by_playouts}"
        );
        assert!(
            found_by_leaf_search >= 18,
            "found {found_by_leaf_search} of {cases} with a leaf search"
        );
    }

    #[test]
    fn a_leaf_search_changes_the_values_and_stays_deterministic() {
        let limits = SearchLimits::iterations(2_000);
        let deep = MctsConfig {
            leaf_depth: 3,
            ..MctsConfig::default()
        };
        let pos = random_endgame(77, 40);
        let run = |c: MctsConfig| {
            searcher(1, c).search(&pos, Variant::Othello, &limits, &CancelHandle::new())
        };
        let (a, b, plain) = (run(deep), run(deep), run(MctsConfig::default()));
        assert_eq!(a.moves, b.moves);
        assert_ne!(
            a.moves, plain.moves,
            "the leaf search must change the leaves' values"
        );
    }

    fn searcher(seed: u64, config: MctsConfig) -> Searcher {
        Searcher::new(Strategy::Default, seed).with_config(config)
    }

    #[test]
    fn selection_prefers_better_and_less_explored_children_and_never_a_lost_one() {
        let config = MctsConfig {
            prior_weight: 0.0,
            ..MctsConfig::default()
        };
        let mut tree = Tree::new(&Position::start(), Variant::Othello, 1 << 20);
        expand(&mut tree, 0, Side::Black, &config, None);
        let kids: Vec<usize> = tree.nodes[0].children().collect();
        assert_eq!(kids.len(), 4);
        // Unvisited children come first.
        tree.nodes[0].visits = 40;
        for (k, &i) in kids.iter().enumerate() {
            tree.nodes[i].visits = if k == 3 { 0 } else { 10 };
            tree.nodes[i].wins = 5.0;
        }
        assert_eq!(select(&tree, 0, &config), Some(kids[3]));
        // At equal visits, the better mean wins.
        tree.nodes[kids[3]].visits = 10;
        tree.nodes[kids[1]].wins = 8.0;
        assert_eq!(select(&tree, 0, &config), Some(kids[1]));
        // Fewer visits at the same mean win through the exploration term.
        tree.nodes[kids[2]].visits = 2;
        tree.nodes[kids[2]].wins = 1.6;
        assert_eq!(select(&tree, 0, &config), Some(kids[2]));
        // A move proven lost is never chosen, whatever its statistics.
        tree.nodes[kids[2]].proof = ProofState::Loss;
        assert_eq!(select(&tree, 0, &config), Some(kids[1]));
        for &i in &kids {
            tree.nodes[i].proof = ProofState::Loss;
        }
        assert_eq!(select(&tree, 0, &config), None);
    }

    #[test]
    fn the_minimax_share_steers_selection_only_with_minimax_backups() {
        let base = MctsConfig {
            prior_weight: 4.0,
            exploration: 0.0,
            minimax: true,
            ..MctsConfig::default()
        };
        let mut tree = Tree::new(&Position::start(), Variant::Othello, 1 << 20);
        expand(&mut tree, 0, Side::Black, &base, None);
        let kids: Vec<usize> = tree.nodes[0].children().collect();
        tree.nodes[0].visits = 200;
        // Child 0: a good mean over many visits, a poor minimax value below it; child 1 the
        // other way round.
        for (k, &i) in kids.iter().enumerate() {
            tree.nodes[i].visits = 50;
            tree.nodes[i].wins = if k == 0 { 35.0 } else { 20.0 };
            tree.nodes[i].prior = if k == 1 { 230 } else { 60 };
        }
        // As a prior of 4 visits beside 50 the minimax value is outweighed...
        assert_eq!(select(&tree, 0, &base), Some(kids[0]));
        // ...mixed in at a half it decides...
        let mixed = MctsConfig {
            minimax_alpha: 0.5,
            ..base
        };
        assert_eq!(select(&tree, 0, &mixed), Some(kids[1]));
        // ...but only where the priors hold minimax values.
        let no_backups = MctsConfig {
            minimax: false,
            ..mixed
        };
        assert_eq!(select(&tree, 0, &no_backups), Some(kids[0]));
    }

    #[test]
    fn x_squares_are_found_next_to_empty_corners_only() {
        assert_eq!(
            x_squares_near_empty_corners(!0),
            (1 << 9) | (1 << 14) | (1 << 49) | (1 << 54)
        );
        assert_eq!(
            x_squares_near_empty_corners(!1),
            (1 << 14) | (1 << 49) | (1 << 54)
        );
        assert_eq!(x_squares_near_empty_corners(0), 0);
    }

    #[test]
    fn a_corner_playout_ends_with_the_games_true_margin() {
        // With one empty square the playout has no choice: its margin is the exact one.
        let mut rng = FastRng::new(1);
        for seed in 0..40 {
            let pos = random_endgame(seed, 1);
            let exact = minimax(pos.player().0, pos.opponent().0, true);
            let m = corner_playout(pos.player().0, pos.opponent().0, true, &mut rng);
            assert_eq!(m, exact, "seed {seed} {pos:?}");
        }
    }

    #[test]
    fn priors_favour_corners_and_shun_x_squares() {
        let empty_corner = 0u64;
        let x = prior(1 << 20, 1 << 21, 9, 0, 0);
        let corner = prior(1 << 20, 1 << 21, 0, 0, 0);
        let plain = prior(1 << 20, 1 << 21, 19, 0, 0);
        assert!(
            corner > plain && plain > x,
            "{corner} {plain} {x} {empty_corner}"
        );
    }

    #[test]
    fn mcts_solver_proves_small_endgames_like_alpha_beta() {
        for seed in 0..12 {
            let pos = random_endgame(seed, 7);
            let exact = minimax(pos.player().0, pos.opponent().0, true);
            // Pure MCTS-Solver: no exact solve at the root or at the leaves.
            let config = MctsConfig {
                solve_empties: 0,
                leaf_solve_empties: 0,
                // Playouts keep every sibling in play; a deterministic evaluation explores
                // clearly worse moves only logarithmically, so proving all of them (which a
                // loss or draw needs) is left to the exact solves that the default turns on.
                eval_priors: false,
                eval_weight: 0.0,
                expand_at: 2,
                exploration: 0.5,
                // Proving the last move not proven lost is the point here.
                early_stop: false,
                ..MctsConfig::default()
            };
            let r = searcher(seed, config).search(
                &pos,
                Variant::Othello,
                &SearchLimits::iterations(400_000),
                &CancelHandle::new(),
            );
            let want = match exact.signum() {
                1 => Proof::Win,
                0 => Proof::Draw,
                _ => Proof::Loss,
            };
            assert!(
                r.proven,
                "seed {seed}: not proven in {} iterations",
                r.iterations
            );
            assert_eq!(r.moves[0].proof, Some(want), "seed {seed} {pos:?}");
            // With the exact endgame on, the best move's margin is the exact one.
            let r = searcher(seed, MctsConfig::default()).search(
                &pos,
                Variant::Othello,
                &SearchLimits::iterations(1_000),
                &CancelHandle::new(),
            );
            assert!(r.proven);
            assert_eq!(r.moves[0].exact_margin, Some(exact as i8), "seed {seed}");
        }
    }

    #[test]
    fn a_proven_win_is_played_at_once() {
        // Three empties, won for the side to move: the root solve settles it at once, with
        // no iteration, well inside the cap.
        let (pos, exact) = (0..)
            .map(|seed| random_endgame(seed, 3))
            .map(|pos| (pos, minimax(pos.player().0, pos.opponent().0, true)))
            .find(|&(_, exact)| exact > 0)
            .expect("a won endgame");
        let r = searcher(1, MctsConfig::default()).search(
            &pos,
            Variant::Othello,
            &SearchLimits::time(Duration::from_secs(5)),
            &CancelHandle::new(),
        );
        assert!(r.proven);
        assert_eq!(r.iterations, 0);
        assert_eq!(r.moves[0].proof, Some(Proof::Win));
        assert_eq!(r.moves[0].exact_margin, Some(exact as i8));
        assert_eq!(r.best, Some(r.moves[0].mv));
        assert!(r.elapsed < Duration::from_secs(4), "{:?}", r.elapsed);
    }

    #[test]
    fn a_time_capped_search_runs_to_its_deadline_and_stops_there() {
        // Without the early stop the search spends its whole cap, then stops by itself (the
        // upper bound only guards against a search that never looks at the clock; how far
        // past the cap it runs is measured by the benchmarks). The weights are decoded first:
        // in a debug build their first use takes longer than the cap.
        crate::eval::builtin();
        let cap = Duration::from_millis(50);
        let config = MctsConfig {
            early_stop: false,
            ..MctsConfig::default()
        };
        let r = searcher(3, config).search(
            &Position::start(),
            Variant::Othello,
            &SearchLimits::time(cap),
            &CancelHandle::new(),
        );
        assert!(r.iterations > 0);
        assert!(!r.cancelled && !r.stopped_early && !r.proven, "{r:?}");
        assert!(r.elapsed >= cap, "{:?}", r.elapsed);
        assert!(r.elapsed < Duration::from_secs(2), "{:?}", r.elapsed);
    }

    #[test]
    fn cancel_stops_a_long_search() {
        let cancel = CancelHandle::new();
        let remote = cancel.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            remote.cancel();
        });
        let r = searcher(4, MctsConfig::default()).search(
            &Position::start(),
            Variant::Othello,
            &SearchLimits::time(Duration::from_secs(30)),
            &cancel,
        );
        let _ = t.join();
        assert!(r.cancelled);
        assert!(r.elapsed < Duration::from_secs(10), "{:?}", r.elapsed);
        let legal = Variant::Othello.moves(&Position::start());
        assert!(r.best.is_some_and(|m| legal.contains(&m)));
    }

    #[test]
    fn memory_cap_bounds_the_pool() {
        let nodes = 500;
        let limits = SearchLimits {
            time: Some(Duration::from_secs(30)),
            iterations: Some(20_000),
            memory: nodes * std::mem::size_of::<Node>(),
        };
        // With the pool pruned when full, too.
        for prune in [false, true] {
            let config = MctsConfig {
                early_stop: false,
                prune,
                ..MctsConfig::default()
            };
            let mut s = searcher(5, config);
            let r = s.search(
                &Position::start(),
                Variant::Othello,
                &limits,
                &CancelHandle::new(),
            );
            assert_eq!(
                r.iterations, 20_000,
                "the search keeps running when the pool is full"
            );
            assert!(r.nodes <= nodes, "{} nodes", r.nodes);
            assert!(r.memory <= limits.memory, "{} bytes", r.memory);
            assert!(r.best.is_some());
            // Reusing the tree keeps within the cap too.
            let next = Variant::Othello.play_unchecked(&Position::start(), r.best.expect("a move"));
            let r = s.search(&next, Variant::Othello, &limits, &CancelHandle::new());
            assert!(r.nodes <= nodes && r.memory <= limits.memory);
        }
    }

    #[test]
    fn same_seed_same_search_and_same_reuse() {
        let limits = SearchLimits::iterations(3_000);
        let play = |seed| {
            let mut s = searcher(seed, MctsConfig::default());
            let mut pos = Position::start();
            let mut out = Vec::new();
            for _ in 0..6 {
                let r = s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
                let mv = r.best.expect("a move");
                pos = Variant::Othello.play_unchecked(&pos, mv);
                out.push((r.best, r.moves, r.pv, r.iterations, r.nodes));
            }
            out
        };
        assert_eq!(play(11), play(11));
        // The learned evaluation is deterministic; playouts make the seed matter.
        let playouts = |seed| {
            let config = MctsConfig {
                eval_weight: 0.0,
                ..MctsConfig::default()
            };
            searcher(seed, config).search(
                &Position::start(),
                Variant::Othello,
                &limits,
                &CancelHandle::new(),
            )
        };
        assert_eq!(playouts(11).moves, playouts(11).moves);
        assert_ne!(playouts(11).moves, playouts(12).moves);
    }

    #[test]
    fn the_tree_is_reused_after_the_reply() {
        let limits = SearchLimits::iterations(5_000);
        // Every iteration runs, so the visits below add up to more than one search's.
        let config = MctsConfig {
            early_stop: false,
            ..MctsConfig::default()
        };
        let mut s = searcher(6, config);
        let pos = Position::start();
        let r = s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
        assert_eq!(
            r.reused_nodes, 0,
            "the first search starts from a fresh root"
        );
        let mine = Variant::Othello.play_unchecked(&pos, r.best.expect("a move"));
        let reply = r.pv.get(1).copied().expect("a reply in the PV");
        let theirs = Variant::Othello.play_unchecked(&mine, reply);
        let kept = {
            let mut t = s.state.tree.take().unwrap_or_else(|| panic!("tree kept"));
            assert!(t.advance_to(&theirs, Variant::Othello, 3));
            let visits = (t.nodes[0].visits, t.nodes.len());
            // The kept subtree is consistent: every child's position follows from its move.
            for i in 0..t.nodes.len() {
                for c in t.nodes[i].children() {
                    assert!(c > i && c < t.nodes.len());
                }
            }
            s.state.tree = Some(t);
            visits
        };
        assert!(kept.0 > 100, "the principal reply had {} visits", kept.0);
        let r2 = s.search(&theirs, Variant::Othello, &limits, &CancelHandle::new());
        assert_eq!(r2.iterations, 5_000);
        assert!(r2.moves.iter().map(|m| m.visits).sum::<u64>() > 5_000);
        assert_eq!(
            r2.reused_nodes, kept.1,
            "the search started from the kept subtree"
        );
        assert!(r2.nodes > r2.reused_nodes);
        // The same without the manual step: the searcher finds the reply's position itself
        // (two plies below its last root), early stop on.
        let mut s = searcher(6, MctsConfig::default());
        let r = s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
        let mine = Variant::Othello.play_unchecked(&pos, r.best.expect("a move"));
        let theirs = Variant::Othello
            .play_unchecked(&mine, r.pv.get(1).copied().expect("a reply in the PV"));
        let r2 = s.search(&theirs, Variant::Othello, &limits, &CancelHandle::new());
        assert!(r2.reused_nodes > 100, "{} nodes reused", r2.reused_nodes);
        // Without reuse the search starts afresh every time.
        let no_reuse = MctsConfig {
            reuse: false,
            ..MctsConfig::default()
        };
        let mut s = searcher(6, no_reuse);
        s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
        let r2 = s.search(&theirs, Variant::Othello, &limits, &CancelHandle::new());
        assert_eq!(r2.reused_nodes, 0);
    }

    /// A late-midgame position (30 empties, black to move) where taking the h1 corner is
    /// far ahead of every other move.
    fn a_corner_to_take() -> Position {
        crate::notation::board_string::parse(
            "-XOOOOO- -OOOXOXX ---XOXXX ---XXX-X --XXXXOX ---XX--X ----X--X ----X--- X",
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_settled_choice_stops_the_search_before_its_cap() {
        let pos = a_corner_to_take();
        let h1 = Some(Move::Play(Square::ALL[7]));
        // No time cap: the iterations left are the cap's remainder, so where the search
        // stops depends on the iteration count alone.
        let limits = SearchLimits::iterations(200_000);
        let on = MctsConfig {
            early_stop: true,
            ..MctsConfig::default()
        };
        let early = searcher(1, on).search(&pos, Variant::Othello, &limits, &CancelHandle::new());
        assert_eq!(early.best, h1);
        assert!(early.stopped_early);
        assert!(!early.proven && !early.cancelled);
        // Its lead passed 1.25 times the rest of the cap at the first clock check after
        // 111,111 iterations (the earliest it can with the cap alone bounding the rest).
        assert!(
            early.iterations < 112_000,
            "{} iterations",
            early.iterations
        );
        let lead = early.moves[0].visits - early.moves[1].visits;
        assert!(lead as f64 > 1.25 * (200_000 - early.iterations) as f64);
        // The full search plays the same move.
        let config = MctsConfig {
            early_stop: false,
            ..MctsConfig::default()
        };
        let full =
            searcher(1, config).search(&pos, Variant::Othello, &limits, &CancelHandle::new());
        assert_eq!(full.iterations, 200_000);
        assert!(!full.stopped_early);
        assert_eq!(full.best, h1);
    }

    #[test]
    fn no_early_stop_where_a_proof_could_still_change_the_choice() {
        // 20 empties, black to move: g8 leads the runner-up by far more than the rest of
        // the cap long before the cap.
        let game = crate::notation::transcript::parse(
            "f5f6c4g5g6e3e6c5f4d3d6f3c3b5h6g4h3d7e2g3c7f7c2d2c6h4h5b4d1b6f2g2b3a3e8f8c8d8a6e7",
            Variant::Othello,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let pos = game.position();
        assert_eq!(pos.empties().count(), 20);
        let limits = SearchLimits::iterations(200_000);
        // Leaves proven at 9 empties or fewer lie within the proof horizon (24 empties):
        // the search runs to its cap although its choice looked settled.
        let on = MctsConfig {
            early_stop: true,
            ..MctsConfig::default()
        };
        let full = searcher(1, on).search(&pos, Variant::Othello, &limits, &CancelHandle::new());
        assert!(!full.stopped_early);
        assert_eq!(full.iterations, 200_000);
        // Without leaf proofs the horizon is 15 empties, and the same search stops early, by
        // three quarters of the cap: the choice looked settled that soon, so only the proof
        // horizon kept the first search going.
        let no_leaf_proofs = MctsConfig {
            leaf_solve_empties: 0,
            ..on
        };
        let r = searcher(1, no_leaf_proofs).search(
            &pos,
            Variant::Othello,
            &limits,
            &CancelHandle::new(),
        );
        assert!(r.stopped_early);
        assert!(r.iterations <= 150_000, "{} iterations", r.iterations);
    }

    #[test]
    fn the_spent_share_is_the_larger_of_time_and_count() {
        let second = Some(Duration::from_secs(1));
        let quarter = Duration::from_millis(250);
        assert_eq!(spent_share(quarter, second, 0, u64::MAX), 0.25);
        assert_eq!(spent_share(quarter, second, 600, 1_000), 0.6);
        assert_eq!(
            spent_share(2 * quarter, Some(Duration::from_secs(2)), 10, 1_000),
            0.25
        );
        assert_eq!(
            spent_share(Duration::ZERO, Some(Duration::ZERO), 0, u64::MAX),
            1.0
        );
        // Without a time cap only the count counts, however long the search has taken.
        assert_eq!(spent_share(Duration::from_secs(100), None, 10, 1_000), 0.01);
        assert_eq!(
            spent_share(Duration::from_secs(100), None, 10, u64::MAX),
            0.0
        );
    }

    #[test]
    fn a_searcher_with_randomness_never_stops_early() {
        let pos = a_corner_to_take();
        let limits = SearchLimits::iterations(200_000);
        for randomness in [0.3, 1.0] {
            let r = searcher(1, MctsConfig::default())
                .with_randomness(randomness)
                .search(&pos, Variant::Othello, &limits, &CancelHandle::new());
            assert!(!r.stopped_early, "randomness {randomness}");
            assert_eq!(r.iterations, 200_000, "randomness {randomness}");
        }
        // The weak levels keep their iteration caps too.
        for level in [Level::Beginner, Level::Novice, Level::Casual] {
            let limits = SearchLimits {
                time: None,
                ..level.limits()
            };
            let r = level
                .searcher(2)
                .search(&pos, Variant::Othello, &limits, &CancelHandle::new());
            assert!(!r.stopped_early, "{level}");
            assert_eq!(Some(r.iterations), level.iterations(), "{level}");
        }
    }

    #[test]
    fn the_iterations_left_are_the_rate_times_the_time_left_at_most_the_cap() {
        let second = Duration::from_secs(1);
        assert_eq!(iterations_left(1_000.0, 2 * second, u64::MAX), 2_000.0);
        assert_eq!(iterations_left(1_000.0, 2 * second, 500), 500.0);
        assert_eq!(iterations_left(f64::INFINITY, second, 70), 70.0);
        assert_eq!(iterations_left(f64::INFINITY, Duration::ZERO, 70), 0.0);
    }

    #[test]
    fn the_rate_is_trusted_only_after_a_tenth_of_the_time_and_never_below_the_peak() {
        let ms = Duration::from_millis;
        // One slow first iteration says nothing: the search goes on.
        assert_eq!(expected_rate(1, ms(2), ms(10), 0.0), f64::INFINITY);
        assert_eq!(
            expected_rate(0, Duration::ZERO, Duration::ZERO, 0.0),
            f64::INFINITY
        );
        // Measured long enough: the rate so far.
        assert_eq!(expected_rate(5_000, ms(10), ms(10), 0.0), 500_000.0);
        // A search running slower than this searcher has run before expects its peak rate.
        assert_eq!(expected_rate(5_000, ms(10), ms(10), 800_000.0), 800_000.0);
        assert_eq!(expected_rate(9_000, ms(10), ms(10), 800_000.0), 900_000.0);
    }

    #[test]
    fn the_choice_is_settled_by_the_lead_over_the_runner_up_not_proven_lost() {
        let mut tree = Tree::new(&Position::start(), Variant::Othello, 1 << 16);
        expand(&mut tree, 0, Side::Black, &MctsConfig::default(), None);
        let kids: Vec<usize> = tree.nodes[0].children().collect();
        for (&i, visits) in kids.iter().zip([100, 40, 10, 0]) {
            tree.nodes[i].visits = visits;
        }
        assert!(choice_settled(&tree, 59.0));
        assert!(!choice_settled(&tree, 60.0));
        // A runner-up proven lost does not count: the next one does.
        tree.nodes[kids[1]].proof = ProofState::Loss;
        assert!(choice_settled(&tree, 89.0));
        assert!(!choice_settled(&tree, 90.0));
        // Nor does a leader proven lost: the best candidate is the runner-up.
        tree.nodes[kids[1]].proof = ProofState::Unknown;
        tree.nodes[kids[0]].proof = ProofState::Loss;
        assert!(choice_settled(&tree, 29.0));
        assert!(!choice_settled(&tree, 30.0));
        // The only move not proven lost is settled whatever the visits.
        for &i in &kids[1..] {
            tree.nodes[i].proof = ProofState::Loss;
        }
        tree.nodes[kids[0]].proof = ProofState::Unknown;
        tree.nodes[kids[0]].visits = 0;
        assert!(choice_settled(&tree, f64::INFINITY));
        tree.nodes[kids[0]].proof = ProofState::Loss;
        assert!(!choice_settled(&tree, 0.0), "no move left to play");
    }

    #[test]
    fn a_root_proven_as_a_leaf_still_gets_a_move() {
        // No root solve, leaf proofs at 10 empties: the reply position was proven as a leaf
        // in the first search and becomes the root of the second.
        let config = MctsConfig {
            solve_empties: 0,
            leaf_solve_empties: 10,
            ..MctsConfig::default()
        };
        let pos = random_endgame(21, 12);
        let mut s = searcher(2, config);
        let limits = SearchLimits::iterations(3_000);
        let mut pos = pos;
        for _ in 0..4 {
            if Variant::Othello.is_game_over(&pos) {
                break;
            }
            let r = s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
            let legal = Variant::Othello.moves(&pos);
            let mv = r.best.expect("a move");
            assert!(legal.contains(&mv));
            assert!(!r.moves.is_empty(), "the root was expanded");
            pos = Variant::Othello.play_unchecked(&pos, mv);
            let reply = Variant::Othello.moves(&pos).first().copied();
            if let Some(reply) = reply {
                pos = Variant::Othello.play_unchecked(&pos, reply);
            }
        }
    }

    #[test]
    fn no_move_ends_game_and_free_opening_search_legally() {
        for variant in [Variant::NoMoveEndsGame, Variant::FreeOpening] {
            let pos = variant.start_position();
            let r = searcher(8, MctsConfig::default()).search(
                &pos,
                variant,
                &SearchLimits::iterations(2_000),
                &CancelHandle::new(),
            );
            assert!(
                r.best.is_some_and(|m| variant.moves(&pos).contains(&m)),
                "{variant}"
            );
        }
    }
}
