//! The public result of a search: from the tree's root, or from an exact root solve.

use super::select::proof_score;
use super::tree::{Node, ProofState, Tree};
use crate::Move;
use crate::clock::Instant;
use crate::search::{MoveStats, Proof, SearchResult};

/// The public result from the tree's root.
pub(super) fn finish(
    tree: &Tree,
    iterations: u64,
    start: Instant,
    cancelled: bool,
) -> SearchResult {
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
