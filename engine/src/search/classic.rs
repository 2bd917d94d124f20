//! The classic UCT baseline, exactly as UCThello describes it:
//!
//! - Selection: from the root, while the node has no unexamined move left and has children,
//!   descend to the child maximising `wins/visits + c * sqrt(ln(parent visits) / visits)`,
//!   `c = sqrt(2)`.
//! - Expansion: add exactly one child, chosen uniformly at random among the unexamined moves
//!   (a forced pass is a move). Terminal nodes are not expanded.
//! - Simulation: one uniformly random playout to the end of the game.
//! - Backpropagation: 1 for a win, 0.5 for a draw, 0 for a loss, from the point of view of
//!   the player who made the move into each node.
//! - The move played is the root's most visited child.
//!
//! Every improvement in the default strategy is measured against this one.

use super::{
    CHECK_EVERY, CancelHandle, MoveStats, RootRank, SearchLimits, SearchResult, rank_root_moves,
};
use crate::clock::Instant;
use crate::playout::{nth_set_bit, random_playout};
use crate::{FastRng, Move, Position, Side, Square, Variant};

const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Node {
    pos: Position,
    mv: Move,
    parent: u32,
    first_child: u32,
    next_sibling: u32,
    /// Squares not yet expanded.
    untried: u64,
    /// A forced pass not yet expanded.
    untried_pass: bool,
    visits: u32,
    /// Sum of scores for the side that made `mv` (the side not to move at `pos`).
    wins: f32,
}

impl Node {
    fn new(pos: Position, mv: Move, parent: u32, variant: Variant) -> Node {
        let untried = variant.legal_moves(&pos).0;
        let untried_pass = untried == 0 && variant.must_pass(&pos);
        Node {
            pos,
            mv,
            parent,
            first_child: NONE,
            next_sibling: NONE,
            untried,
            untried_pass,
            visits: 0,
            wins: 0.0,
        }
    }

    fn has_untried(&self) -> bool {
        self.untried != 0 || self.untried_pass
    }
}

/// The UCB1 value of a child with `wins` over `visits`, under a parent with `ln(visits)`.
pub(crate) fn ucb1(wins: f64, visits: f64, ln_parent: f64) -> f64 {
    wins / visits + std::f64::consts::SQRT_2 * (ln_parent / visits).sqrt()
}

/// Runs the classic search; see the module docs.
pub(crate) fn search(
    root_pos: &Position,
    variant: Variant,
    limits: &SearchLimits,
    cancel: &CancelHandle,
    rng: &mut FastRng,
) -> SearchResult {
    let start = Instant::now();
    let max_nodes = (limits.memory / std::mem::size_of::<Node>()).max(1);
    let mut nodes: Vec<Node> = Vec::with_capacity(max_nodes.min(1 << 16));
    nodes.push(Node::new(*root_pos, Move::Pass, NONE, variant));
    let mut iterations = 0u64;
    let mut cancelled = false;
    let max_iterations = limits.iterations.unwrap_or(u64::MAX);

    if !variant.is_game_over(root_pos) {
        while iterations < max_iterations {
            if iterations.is_multiple_of(CHECK_EVERY) {
                if cancel.is_cancelled() {
                    cancelled = true;
                    break;
                }
                if start.elapsed() >= limits.clock() {
                    break;
                }
            }
            iterate(&mut nodes, variant, max_nodes, rng);
            iterations += 1;
        }
    }

    let mut children = Vec::new();
    let mut c = nodes[0].first_child;
    while c != NONE {
        children.push(c);
        c = nodes[c as usize].next_sibling;
    }
    // Most visited first; ties broken by the mean, then by the move for determinism.
    rank_root_moves(&mut children, |&c| {
        let n = &nodes[c as usize];
        RootRank {
            class: 0,
            visits: n.visits,
            wins: n.wins,
            mv: n.mv,
        }
    });
    let moves: Vec<MoveStats> = children
        .iter()
        .map(|&c| {
            let n = &nodes[c as usize];
            MoveStats {
                mv: n.mv,
                visits: u64::from(n.visits),
                win_rate: if n.visits > 0 {
                    f64::from(n.wins) / f64::from(n.visits)
                } else {
                    0.5
                },
                proof: None,
                exact_margin: None,
            }
        })
        .collect();
    let mut best = moves.first().map(|m| m.mv);
    if best.is_none() && !variant.is_game_over(root_pos) {
        // Not a single iteration ran (cancelled or zero time): any legal move.
        best = variant.moves(root_pos).first().copied();
    }
    let mut pv = Vec::new();
    let mut n = children.first().copied().unwrap_or(NONE);
    while n != NONE {
        pv.push(nodes[n as usize].mv);
        let mut c = nodes[n as usize].first_child;
        let mut top = NONE;
        while c != NONE {
            if top == NONE || nodes[c as usize].visits > nodes[top as usize].visits {
                top = c;
            }
            c = nodes[c as usize].next_sibling;
        }
        n = top;
    }
    SearchResult {
        iterations,
        nodes: nodes.len(),
        memory: nodes.len() * std::mem::size_of::<Node>(),
        cancelled,
        answered_by: super::Strategy::Classic,
        ..SearchResult::new(best, moves, pv, start.elapsed())
    }
}

fn iterate(nodes: &mut Vec<Node>, variant: Variant, max_nodes: usize, rng: &mut FastRng) {
    // Selection.
    let mut n = 0usize;
    while !nodes[n].has_untried() && nodes[n].first_child != NONE {
        let ln_parent = f64::from(nodes[n].visits).ln();
        let mut best = NONE;
        let mut best_value = f64::NEG_INFINITY;
        let mut c = nodes[n].first_child;
        while c != NONE {
            let child = &nodes[c as usize];
            let value = ucb1(f64::from(child.wins), f64::from(child.visits), ln_parent);
            if value > best_value {
                best_value = value;
                best = c;
            }
            c = child.next_sibling;
        }
        n = best as usize;
    }
    // Expansion: one random unexamined move, while there is room in the tree.
    if nodes[n].has_untried() && nodes.len() < max_nodes {
        let node = &mut nodes[n];
        let mv = if node.untried != 0 {
            let k = rng.below(node.untried.count_ones());
            let sq = Square::ALL[nth_set_bit(node.untried, k) as usize];
            node.untried &= !sq.mask();
            Move::Play(sq)
        } else {
            node.untried_pass = false;
            Move::Pass
        };
        let pos = variant.play_unchecked(&node.pos, mv);
        let child = nodes.len() as u32;
        let mut new = Node::new(pos, mv, n as u32, variant);
        new.next_sibling = nodes[n].first_child;
        nodes[n].first_child = child;
        nodes.push(new);
        n = child as usize;
    }
    // Simulation.
    let result = random_playout(&nodes[n].pos, variant, rng);
    // Backpropagation: each node scores for the side that moved into it.
    let mut i = n as u32;
    while i != NONE {
        let node = &mut nodes[i as usize];
        let mover: Side = node.pos.side_to_move().opposite();
        node.visits += 1;
        node.wins += result.score_for(mover);
        i = node.parent;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Searcher, Strategy};
    use std::time::Duration;

    #[test]
    fn ucb1_prefers_unexplored_and_winning_children() {
        let ln = 100f64.ln();
        assert!(ucb1(5.0, 10.0, ln) > ucb1(4.0, 10.0, ln));
        assert!(
            ucb1(1.0, 2.0, ln) > ucb1(45.0, 90.0, ln),
            "exploration term favours few visits"
        );
        let expected = 0.5 + std::f64::consts::SQRT_2 * (ln / 10.0).sqrt();
        assert!((ucb1(5.0, 10.0, ln) - expected).abs() < 1e-12);
    }

    #[test]
    fn same_seed_same_search() {
        let limits = SearchLimits::iterations(2_000);
        let run = |seed| {
            Searcher::new(Strategy::Classic, seed).search(
                &Position::start(),
                Variant::Othello,
                &limits,
                &CancelHandle::new(),
            )
        };
        let (a, b) = (run(9), run(9));
        assert_eq!(a.best, b.best);
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.iterations, 2_000);
        assert_eq!(a.moves.iter().map(|m| m.visits).sum::<u64>(), 2_000);
    }

    #[test]
    fn memory_cap_bounds_the_tree() {
        let limits = SearchLimits {
            time: Some(Duration::from_secs(10)),
            iterations: Some(5_000),
            memory: 100 * std::mem::size_of::<Node>(),
        };
        let r = Searcher::new(Strategy::Classic, 1).search(
            &Position::start(),
            Variant::Othello,
            &limits,
            &CancelHandle::new(),
        );
        assert_eq!(r.nodes, 100);
        assert_eq!(r.iterations, 5_000);
        assert!(r.best.is_some());
    }

    #[test]
    fn cancelled_search_still_answers_a_legal_move() {
        let cancel = CancelHandle::new();
        cancel.cancel();
        let r = Searcher::new(Strategy::Classic, 1).search(
            &Position::start(),
            Variant::Othello,
            &SearchLimits::default(),
            &cancel,
        );
        assert!(r.cancelled);
        let legal = Variant::Othello.moves(&Position::start());
        assert!(r.best.is_some_and(|m| legal.contains(&m)));
    }
}
