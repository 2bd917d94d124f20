//! Expansion (with the leaves' quick exact solves) and the value of a leaf: its proof, the
//! learned evaluation (or a shallow alpha-beta search by it) and playouts.

use super::config::MctsConfig;
use super::priors::prior;
use super::select::proof_score;
use super::tree::{Node, PASS, ProofState, Tree, probability_byte};
use crate::bitboard::{CORNERS, flips};
use crate::clock::Instant;
use crate::eval;
use crate::playout::random_playout;
use crate::search::alphabeta::FixedDepth;
use crate::search::endgame::{Solver, final_margin};
use crate::search::{CancelHandle, win_probability};
use crate::{FastRng, Position, Side, Square, Variant};

/// Nodes a leaf's win/draw/loss solve may search: a few hundred microseconds at most.
const LEAF_SOLVE_NODES: u64 = 20_000;

/// The leaves' alpha-beta table: 1 MiB (a few plies below each leaf need little).
const LEAF_TABLE_BYTES: usize = 1 << 20;
/// The deepest leaf search: it has no clock of its own (it must stay a small fraction of an
/// iteration's budget), and from this few empty squares it would be an exact solve.
const MAX_LEAF_DEPTH: u32 = 6;

/// Creates the children of node `n` (side `side` to move there), or proves it if the game is
/// over or a quick exact solve settles it. Returns whether a leaf solve ran (slow: the clock
/// should be checked).
pub(super) fn expand(
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

/// The leaf's value for Black, 0..1: its proof when it has one, else the learned evaluation
/// (or an alpha-beta search by it, [`MctsConfig::leaf_depth`]) blended with a playout by
/// `eval_weight` (the evaluation alone at 1, the playout alone at 0 and in a free opening).
#[inline]
pub(super) fn leaf_value(
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
                crate::search::alphabeta::DEFAULT_PROBCUT,
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
        let margin = corner_playout(tree.variant, leaf.player, leaf.opponent, rng);
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
fn corner_playout(rules: Variant, mut p: u64, mut o: u64, rng: &mut FastRng) -> i32 {
    let mut swapped = false;
    while let Some((moves, passed)) = rules.next_moves(&mut p, &mut o) {
        swapped ^= passed;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::endgame::tests::{minimax, random_endgame};

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
            let m = corner_playout(Variant::Othello, pos.player().0, pos.opponent().0, &mut rng);
            assert_eq!(m, exact, "seed {seed} {pos:?}");
        }
    }
}
