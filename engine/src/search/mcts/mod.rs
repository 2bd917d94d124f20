//! The default strategy: UCT on a flat node pool, with tree reuse between moves, move priors
//! from Othello's corner and X-/C-square knowledge, the MCTS-Solver (proven wins and losses
//! propagate up the tree), exact win/draw/loss solves near the leaves and an exact
//! final-margin solve of the root with few empty squares left. A root with a single legal
//! move (or a pass) is answered at once, and a search can stop before its caps once its move
//! can no longer change ([`MctsConfig::early_stop`]). The node pool is reserved by a
//! searcher's first search and kept by the later ones.
//!
//! Each addition is a [`MctsConfig`] knob so the arena can measure it against `classic`.
//!
//! This file is the search loop; its parts live beside it: [`config`] (the knobs), [`clock`]
//! (the time left and the early stop), [`priors`] (the corner heuristic), [`select`] (UCB
//! selection), [`leaf`] (expansion, leaf values and playouts), [`backup`] (backpropagation,
//! proofs and minimax priors), [`result`] (the public result) and [`tree`] (the node pool).

mod backup;
mod clock;
mod config;
mod leaf;
mod priors;
mod result;
mod select;
pub(super) mod tree;

pub use config::MctsConfig;

use self::backup::{back_up, back_up_priors, propagate_proof};
use self::clock::{
    EARLY_STOP_MARGIN, EARLY_STOP_MEASURE, EARLY_STOP_MIN_MEASURE, EARLY_STOP_MIN_SHARE,
    EARLY_STOP_PROOF_HORIZON, choice_settled, expected_rate, iterations_left, root_decided,
    spent_share,
};
use self::leaf::{expand, leaf_value};
use self::result::{finish, solved_result};
use self::select::{proof_score, select};
use self::tree::{ProofState, Tree};
use super::alphabeta::FixedDepth;
use super::endgame::solve_root;
use super::{CHECK_EVERY, CancelHandle, MoveStats, SearchLimits, SearchResult, win_probability};
use crate::clock::Instant;
use crate::eval;
use crate::{FastRng, Move, Position, Side, Variant};

/// With [`MctsConfig::prune`], the pool is pruned before an iteration when fewer nodes than
/// this are free: more than one expansion adds (a position has at most 33 moves).
const PRUNE_HEADROOM: usize = 64;

/// How much of the time cap the root's exact solve may take before MCTS takes over.
const ROOT_SOLVE_SHARE: f64 = 0.5;

/// Root solver nodes allowed per iteration of an iteration-limited search (keeps it
/// deterministic: a node budget instead of a deadline).
const ROOT_SOLVE_NODES_PER_ITERATION: u64 = 50;

/// Scratch space an iteration reuses: the path from the root, and the leaves' alpha-beta
/// search when they have one ([`MctsConfig::leaf_depth`]; made on first use).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    path: Vec<u32>,
    leaf_search: Option<FixedDepth<'static>>,
}

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
    let stats = MoveStats {
        mv,
        visits: 0,
        win_rate,
        proof,
        exact_margin,
    };
    SearchResult {
        nodes: kept,
        memory,
        reused_nodes: kept,
        ..SearchResult::new(Some(mv), vec![stats], vec![mv], start.elapsed())
    }
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

#[cfg(test)]
mod tests;
