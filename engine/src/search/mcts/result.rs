//! The public result of a search: from the tree's root, or from an exact root solve.

use super::select::proof_score;
use super::tree::{ProofState, Tree};
use crate::Move;
use crate::clock::Instant;
use crate::search::{MoveStats, Proof, RootRank, SearchResult, rank_root_moves};

/// The public result from the tree's root.
pub(super) fn finish(
    tree: &Tree,
    iterations: u64,
    start: Instant,
    cancelled: bool,
) -> SearchResult {
    let root = &tree.nodes[0];
    let mut children: Vec<usize> = root.children().collect();
    // The move to play: a proven win, else the most visited move not proven lost.
    rank_root_moves(&mut children, |&c| {
        let n = &tree.nodes[c];
        RootRank {
            class: match n.proof {
                ProofState::Win => 3,
                ProofState::Draw | ProofState::Unknown => 1,
                ProofState::Loss => 0,
            },
            visits: n.visits,
            wins: n.wins,
            mv: n.mv,
        }
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
        iterations,
        nodes: tree.nodes.len(),
        memory: tree.memory(),
        cancelled,
        ..SearchResult::new(best, moves, pv, start.elapsed())
    }
}

/// The result of an exact root solve.
pub(super) fn solved_result(
    solved: Vec<(Move, i32, bool)>,
    nodes: u64,
    start: Instant,
) -> SearchResult {
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
        endgame_nodes: nodes,
        // Every move is proven, even when there is none to play.
        proven: true,
        ..SearchResult::new(best, moves, best.into_iter().collect(), start.elapsed())
    }
}
