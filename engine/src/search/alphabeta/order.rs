//! Move ordering for the recursion.

use super::{EVAL_ORDER_DEPTH, MAX_MOVES};
use crate::bitboard::{CORNERS, X_SQUARES};
use crate::bitboard::{flips_in, legal_moves_in};
use crate::eval::Weights;

/// Fills `list` with the moves in `moves`, best first, and returns how many: the table's
/// move, then by the evaluation after the move (deep nodes) or by the opponent's replies,
/// corners first and X-squares last (shallow nodes).
#[inline(always)]
pub(super) fn order_moves<const FAST: bool>(
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
        let f = flips_in::<FAST>(p, o, usize::from(i));
        let key = if i == tt_move {
            i32::MAX
        } else {
            let (np, no) = (o & !f, p | f | bit);
            if let Some(base) = &base {
                -weights.evaluate_after(base, u32::from(i), f, np, no)
            } else {
                let mut key = -(legal_moves_in::<FAST>(np, no).count_ones() as i32) * 4;
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
