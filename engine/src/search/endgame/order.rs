//! What the move ordering reads: the learned evaluation after a shallow search (deeper the
//! further the end), the squares next to discs, and the root moves likely best first.

use super::final_margin;
use crate::bitboard::{flips, legal_moves};
use crate::eval::{self};
use crate::{Move, Position, Square, Variant};

/// The value of `(p, o)` for `p` to move after a one-ply search by the learned evaluation
/// (the evaluation itself when `p` has no move).
pub(super) fn reply_value(p: u64, o: u64) -> i32 {
    let mut moves = legal_moves(p, o);
    if moves == 0 {
        return eval::evaluate_raw(p, o);
    }
    let base = eval::base_for_moves(p, o);
    let mut best = i32::MIN;
    while moves != 0 {
        let i = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(p, o, Square::ALL[i]);
        best = best.max(-eval::evaluate_after(
            &base,
            i as u32,
            f,
            o & !f,
            p | f | (1u64 << i),
        ));
    }
    best
}

/// Larger than any value of [`sort_value`].
pub(super) const SORT_INF: i32 = 65 * eval::SCALE;

/// How deep [`sort_value`] searches each move of a solver's node with `empties` empty
/// squares (from `SEARCH_ORDER_EMPTIES`): one ply up to 20 empties, then a ply more every
/// three empties, and one more from 27, at most six.
pub(super) fn sort_depth(empties: u32) -> u32 {
    let d = empties.saturating_sub(15) / 3 + u32::from(empties >= 27);
    d.clamp(1, 6)
}

/// The value of `(p, o)` for `p` to move after a `depth`-ply alpha-beta search by the learned
/// evaluation (fail-soft in `alpha..beta`; a finished game scores its final margin): the
/// solver's move ordering far from the end, where a better order saves far more nodes than
/// the search costs. Moves are tried fastest first (fewest replies); `passes` is the
/// variant's pass rule. Adds the positions it visits to `nodes`.
pub(super) fn sort_value(
    p: u64,
    o: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    passes: bool,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if depth <= 1 {
        return if depth == 1 {
            reply_value(p, o)
        } else {
            eval::evaluate_raw(p, o)
        };
    }
    let mut moves = legal_moves(p, o);
    if moves == 0 {
        if !passes || legal_moves(o, p) == 0 {
            return final_margin(p, o) * eval::SCALE;
        }
        return -sort_value(o, p, depth, -beta, -alpha, passes, nodes);
    }
    let mut list = [(0u32, 0u64, 0u64); 32];
    let mut n = 0;
    while moves != 0 && n < list.len() {
        let i = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(p, o, Square::ALL[i]);
        let (np, no) = (o & !f, p | f | (1u64 << i));
        list[n] = (legal_moves(np, no).count_ones(), np, no);
        n += 1;
    }
    let list = &mut list[..n];
    list.sort_unstable_by_key(|m| m.0);
    let mut best = i32::MIN;
    for &(_, np, no) in list.iter() {
        let v = -sort_value(np, no, depth - 1, -beta, -alpha, passes, nodes);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The squares next to each square (its 8-neighbourhood).
pub(super) static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = neighbours(1u64 << i);
        i += 1;
    }
    t
};

/// The squares next to (8-neighbourhood of) the discs `b`.
#[inline]
pub(super) const fn neighbours(b: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// The legal moves of `pos`, likely best first: by the learned evaluation of each reply
/// position (the opponent's view, lowest first).
pub(super) fn root_moves(pos: &Position, variant: Variant) -> Vec<Move> {
    let mut moves = variant.moves(pos);
    moves.sort_by_cached_key(|&mv| {
        let child = variant.play_unchecked(pos, mv);
        eval::evaluate(child.player(), child.opponent())
    });
    moves
}
