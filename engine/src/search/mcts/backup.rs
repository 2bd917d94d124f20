//! Backpropagation: visits and scores up the path, proofs up the tree (the MCTS-Solver),
//! and implicit minimax backups in the prior byte.

use super::tree::{ProofState, Tree};
use crate::Side;

/// Implicit minimax backups (Lanctot et al. 2014) kept in the prior byte: after node
/// `path.last()` was expanded, each node on the path, from the bottom up, takes as its prior
/// the mover's chance against the reply that is best by the children's priors (a proven
/// child counts as certain), as long as that changes anything. The prior is the evaluation
/// of the position for a fresh node and the minimax of the evaluations below it once it has
/// children.
pub(super) fn back_up_priors(tree: &mut Tree, path: &[u32]) {
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

/// Backpropagation: each node on `path` gets a visit and scores for the side that moved into
/// it; the side to move alternates with depth (a pass is a move).
#[inline]
pub(super) fn back_up(tree: &mut Tree, path: &[u32], black_score: f32) {
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
pub(super) fn propagate_proof(tree: &mut Tree, path: &[u32]) {
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

/// The side that made the move into a node at depth `d` below a root with `root_side` to move.
#[inline]
fn mover_at(root_side: Side, d: usize) -> Side {
    if d.is_multiple_of(2) {
        root_side.opposite()
    } else {
        root_side
    }
}
