//! What the move ordering reads: the learned evaluation after one ply, the squares next to
//! discs, and the root moves likely best first.

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
