//! The last few empty squares: one to four by dedicated code, five and six by a plain
//! search in quadrant-parity order, without move generation or a table.

use super::order::{NEIGHBOURS, neighbours};
use super::stability::{COL_A, DIAGONALS_7, DIAGONALS_9};
use super::{Solver, final_margin};
use crate::bitboard::QUADRANTS;
use crate::bitboard::{flips_in, legal_moves_in};

impl Solver<'_> {
    /// The final margin with one empty square `e` left: the mover plays it, or the opponent
    /// does (Othello passes), or the game ends.
    #[inline]
    pub(super) fn last1(&self, p: u64, o: u64, e: u64) -> i32 {
        let i = e.trailing_zeros() as usize;
        // 63 discs: the difference is odd, never a draw (one count: o has the rest).
        let diff = 2 * p.count_ones() as i32 - 63;
        let n = last_flip_count(p, i);
        if n > 0 {
            return diff + 2 * n + 1;
        }
        if self.passes {
            let n = last_flip_count(o, i);
            if n > 0 {
                return diff - 2 * n - 1;
            }
        }
        final_margin(p, o)
    }

    /// The final margin with two empty squares left: each side's moves on them straight, no
    /// parity (both squares are tried either way), no move generation, and a square with no
    /// opponent disc next to it is skipped without computing flips.
    #[inline]
    pub(super) fn last2<const FAST: bool>(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let e = !(p | o);
        let x = e.trailing_zeros() as usize;
        let y = (e & (e - 1)).trailing_zeros() as usize;
        let mover = self.best_of_two::<FAST>(p, o, x, y, beta);
        if mover != i32::MIN {
            return mover;
        }
        if self.passes {
            let opponent = self.best_of_two::<FAST>(o, p, x, y, -alpha);
            if opponent != i32::MIN {
                return -opponent;
            }
        }
        final_margin(p, o)
    }

    /// The best of `p`'s moves on squares `x` and `y` (the last two empty ones), each
    /// answered by the last move, stopping at `beta`; `i32::MIN` when `p` has neither.
    #[inline]
    fn best_of_two<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        x: usize,
        y: usize,
        beta: i32,
    ) -> i32 {
        let mut best = i32::MIN;
        for (a, b) in [(x, y), (y, x)] {
            if NEIGHBOURS[a] & o == 0 {
                continue;
            }
            let f = flips_in::<FAST>(p, o, a);
            if f == 0 {
                continue;
            }
            self.nodes += 1;
            let v = -self.last1(o & !f, p | f | (1u64 << a), 1u64 << b);
            if v > best {
                best = v;
                if v >= beta {
                    return best;
                }
            }
        }
        best
    }

    /// The final margin with three empty squares left: a square alone in its quadrant first
    /// (parity), each move answered by [`Solver::last2`], no move generation.
    #[inline(always)]
    pub(super) fn last3_body<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let squares: [usize; 3] = first_squares(!(p | o));
        self.last3_of::<FAST>(
            p,
            o,
            alpha,
            beta,
            parity_order(squares, odd_quadrants(&squares)),
        )
    }

    /// [`Solver::last3`] on the three empty `squares`, tried in their order.
    #[inline(always)]
    fn last3_of<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        squares: [usize; 3],
    ) -> i32 {
        if !self.count() {
            return 0;
        }
        let mover = self.best_of_three::<FAST>(p, o, &squares, alpha, beta);
        if mover != i32::MIN {
            return mover;
        }
        if self.passes {
            let opponent = self.best_of_three::<FAST>(o, p, &squares, -beta, -alpha);
            if opponent != i32::MIN {
                return -opponent;
            }
        }
        final_margin(p, o)
    }

    /// The final margin with four empty squares left: the squares in quadrant-parity order,
    /// found once (no move generation, no neighbour masks), each move answered by the last
    /// three in the parity order they leave, straight to [`Solver::best_of_three`].
    #[inline(always)]
    pub(super) fn last4_body<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if !self.count() {
            return 0;
        }
        let squares: [usize; 4] = first_squares(!(p | o));
        let odd = odd_quadrants(&squares);
        let squares = parity_order(squares, odd);
        let mover = self.best_of_four::<FAST>(p, o, &squares, odd, alpha, beta);
        if mover != i32::MIN {
            return mover;
        }
        if self.passes {
            let opponent = self.best_of_four::<FAST>(o, p, &squares, odd, -beta, -alpha);
            if opponent != i32::MIN {
                return -opponent;
            }
        }
        final_margin(p, o)
    }

    /// The best of `p`'s moves on `squares` (the last four empty ones, `odd` their
    /// [`odd_quadrants`]) in their order, fail-soft in `alpha..beta`; `i32::MIN` when `p` has
    /// none of them.
    #[inline(always)]
    fn best_of_four<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        squares: &[usize; 4],
        odd: u8,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = i32::MIN;
        for k in 0..4 {
            let a = squares[k];
            if NEIGHBOURS[a] & o == 0 {
                continue;
            }
            let f = flips_in::<FAST>(p, o, a);
            if f == 0 {
                continue;
            }
            let mut left = [0usize; 3];
            for (j, s) in left.iter_mut().enumerate() {
                *s = squares[j + usize::from(j >= k)];
            }
            let v = -self.last3_of::<FAST>(
                o & !f,
                p | f | (1u64 << a),
                -beta,
                -alpha,
                // The move leaves its quadrant's parity flipped.
                parity_order(left, odd ^ QUADRANT_BIT[a]),
            );
            if raise(&mut best, &mut alpha, v, beta) {
                return best;
            }
        }
        best
    }

    /// The best of `p`'s moves on `squares` (the last three empty ones) in their order,
    /// fail-soft in `alpha..beta`; `i32::MIN` when `p` has none of them.
    #[inline]
    fn best_of_three<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        squares: &[usize; 3],
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = i32::MIN;
        for &a in squares {
            if NEIGHBOURS[a] & o == 0 {
                continue;
            }
            let f = flips_in::<FAST>(p, o, a);
            if f == 0 {
                continue;
            }
            let v = -self.last2::<FAST>(o & !f, p | f | (1u64 << a), -beta, -alpha);
            if raise(&mut best, &mut alpha, v, beta) {
                return best;
            }
        }
        best
    }

    /// A few empty squares: moves in quadrant-parity order (odd quadrants first), straight
    /// from the empty squares next to an opponent disc, no move generation.
    #[inline(always)]
    pub(super) fn shallow_body<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empties: u32,
    ) -> i32 {
        if !self.count() {
            return 0;
        }
        let e = !(p | o);
        let mut odd = 0;
        for q in QUADRANTS {
            if (e & q).count_ones() & 1 == 1 {
                odd |= q;
            }
        }
        let cand = e & neighbours(o);
        let mut best = i32::MIN;
        for mut set in [cand & odd, cand & !odd] {
            while set != 0 {
                let i = set.trailing_zeros() as usize;
                set &= set - 1;
                let f = flips_in::<FAST>(p, o, i);
                if f == 0 {
                    continue;
                }
                let (np, no) = (o & !f, p | f | (1u64 << i));
                let v = if empties == 5 {
                    -self.last4::<FAST>(np, no, -beta, -alpha)
                } else {
                    -self.shallow::<FAST>(np, no, -beta, -alpha, empties - 1)
                };
                if raise(&mut best, &mut alpha, v, beta) {
                    return best;
                }
            }
        }
        if best == i32::MIN {
            // No move: pass if the opponent can play, else the game is over.
            if !self.passes || legal_moves_in::<FAST>(o, p) == 0 {
                return final_margin(p, o);
            }
            return -self.shallow::<FAST>(o, p, -beta, -alpha, empties);
        }
        best
    }
}

/// Fail-soft: `v` raises `best`, and `alpha` when above it; true when it reaches `beta` (a
/// cutoff).
#[inline(always)]
fn raise(best: &mut i32, alpha: &mut i32, v: i32, beta: i32) -> bool {
    if v > *best {
        *best = v;
        if v > *alpha {
            *alpha = v;
            return v >= beta;
        }
    }
    false
}

/// Each square's quadrant (a1-d4, e1-h4, a5-d8, e5-h8) as one of four bits.
static QUADRANT_BIT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = 1 << (((i >> 5) << 1) | ((i & 7) >> 2));
        i += 1;
    }
    t
};

/// The first `N` squares of `set` in board order (`set` holds at least `N`).
#[inline(always)]
fn first_squares<const N: usize>(mut set: u64) -> [usize; N] {
    std::array::from_fn(|_| {
        let i = set.trailing_zeros() as usize;
        set &= set.wrapping_sub(1);
        i
    })
}

/// The quadrants that hold an odd number of `squares`, as [`QUADRANT_BIT`]s.
#[inline(always)]
fn odd_quadrants(squares: &[usize]) -> u8 {
    squares.iter().fold(0, |p, &s| p ^ QUADRANT_BIT[s])
}

/// `squares` (distinct empty squares) with those in the `odd` quadrants first (parity: the
/// side that moves into a region with an odd number of empty squares may get its last move),
/// the order kept within each group.
#[inline(always)]
fn parity_order<const N: usize>(squares: [usize; N], odd: u8) -> [usize; N] {
    let mut out = squares;
    let mut n = 0;
    for want in [true, false] {
        for &s in &squares {
            if (QUADRANT_BIT[s] & odd != 0) == want {
                out[n] = s;
                n += 1;
            }
        }
    }
    out
}

/// How many discs a disc on square `i` flips when every other square is taken and `own` are
/// the mover's discs (the last move of a game): along each line through `i`, the line's
/// discs as eight bits, then a table. Much cheaper than [`flips`], and the solver's leaves
/// are mostly last moves.
#[inline]
fn last_flip_count(own: u64, i: usize) -> i32 {
    // Gathers one bit a column (one square a column on a row or a diagonal) into the top byte.
    const BY_COLUMN: u64 = 0x0101_0101_0101_0101;
    // Gathers column A's eight rows into the top byte, row 1 lowest.
    const BY_ROW: u64 = 0x0102_0408_1020_4080;
    let (row, col) = (i / 8, i % 8);
    let row_bits = (own >> (8 * row)) & 0xff;
    let col_bits = (((own >> col) & COL_A).wrapping_mul(BY_ROW)) >> 56;
    let up_right = ((own & DIAGONALS_9[col + 7 - row]).wrapping_mul(BY_COLUMN)) >> 56;
    let up_left = ((own & DIAGONALS_7[col + row]).wrapping_mul(BY_COLUMN)) >> 56;
    let t = &LAST_FLIPS;
    i32::from(t[col][row_bits as usize])
        + i32::from(t[row][col_bits as usize])
        + i32::from(t[col][up_right as usize])
        + i32::from(t[col][up_left as usize])
}

/// The table behind [`last_flip_count`]: `[k][bits]` is the discs flipped on a line of eight
/// by a disc at place `k`, when `bits` are the mover's places and every other place the
/// opponent's (places outside a short diagonal read as the opponent's and so never close a
/// run).
static LAST_FLIPS: [[u8; 256]; 8] = last_flip_table();

const fn last_flip_table() -> [[u8; 256]; 8] {
    let mut t = [[0; 256]; 8];
    let mut k = 0;
    while k < 8 {
        let mut bits = 0;
        while bits < 256 {
            let mut n = 0;
            // Towards higher places, then lower: a run of the opponent's closed by the mover's.
            let mut j = k + 1;
            while j < 8 && bits & (1 << j) == 0 {
                j += 1;
            }
            if j < 8 {
                n += j - k - 1;
            }
            let mut j = k as i32 - 1;
            while j >= 0 && bits & (1 << j) == 0 {
                j -= 1;
            }
            if j >= 0 {
                n += k - j as usize - 1;
            }
            t[k][bits] = n as u8;
            bits += 1;
        }
        k += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::flips;
    use crate::{FastRng, Square};

    #[test]
    fn last_flip_counts_match_the_move_generator() {
        let mut rng = FastRng::new(5);
        for _ in 0..20_000 {
            let i = (rng.next_u64() % 64) as usize;
            let own = rng.next_u64() & !(1u64 << i);
            let opp = !own & !(1u64 << i);
            let want = flips(own, opp, Square::ALL[i]).count_ones() as i32;
            assert_eq!(last_flip_count(own, i), want, "square {i} own {own:#x}");
        }
        // The corners' and edges' long runs.
        assert_eq!(last_flip_count(1 << 63, 0), 6);
        assert_eq!(last_flip_count((1 << 7) | (1 << 56) | (1 << 63), 0), 18);
    }

    #[test]
    fn parity_puts_the_squares_of_odd_quadrants_first() {
        for (i, &bit) in QUADRANT_BIT.iter().enumerate() {
            let q = bit.trailing_zeros() as usize;
            assert_eq!(bit.count_ones(), 1);
            assert_ne!(QUADRANTS[q] & (1u64 << i), 0, "square {i} in quadrant {q}");
        }
        // a1, b1 share the first quadrant, h1 is alone in the second, a8 alone in the third.
        let squares = [0, 1, 7, 56];
        let odd = odd_quadrants(&squares);
        assert_eq!(odd, 0b0110);
        assert_eq!(parity_order(squares, odd), [7, 56, 0, 1]);
        // After a move to h1 (its quadrant now even): a8 alone is odd.
        let left = [0, 1, 56];
        assert_eq!(odd_quadrants(&left), odd ^ QUADRANT_BIT[7]);
        assert_eq!(parity_order(left, odd ^ QUADRANT_BIT[7]), [56, 0, 1]);
        // Three in one quadrant: all odd, the order kept.
        let three = [9, 0, 18];
        assert_eq!(parity_order(three, odd_quadrants(&three)), three);
        assert_eq!(parity_order([9, 0], odd_quadrants(&[9, 0])), [9, 0]);
    }
}
