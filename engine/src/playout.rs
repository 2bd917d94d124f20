//! Uniformly random playouts: the simulation step of Monte-Carlo Tree Search, and its hot loop.
//!
//! No allocation, no branches on the variant inside the loop: the caller picks the loop for
//! its rules once per playout.

use crate::bitboard::{flips, legal_moves};
use crate::{Position, Side, Square, Variant};

/// A small, fast, seedable random number generator (wyrand). Good enough statistically for
/// playouts and far cheaper than a cryptographic one; the same seed replays the same game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FastRng(u64);

impl FastRng {
    /// A generator from a seed; every seed, 0 included, gives a good sequence.
    pub const fn new(seed: u64) -> FastRng {
        FastRng(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = u128::from(self.0) * u128::from(self.0 ^ 0xe703_7ed1_a0b4_28db);
        (t as u64) ^ ((t >> 64) as u64)
    }

    /// A uniformly distributed number in `0..n` (`n` > 0), by Lemire's multiply-shift; the
    /// bias for the small `n` used here (at most 64) is below 2^-58.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u32
    }

    /// A uniform float in `[0, 1)`.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// Where a random move is drawn from: anything that gives random 64-bit words.
pub trait PlayoutRng {
    /// The next 64 random bits.
    fn next_u64(&mut self) -> u64;
}

impl PlayoutRng for FastRng {
    #[inline]
    fn next_u64(&mut self) -> u64 {
        FastRng::next_u64(self)
    }
}

/// The `n`-th set bit of `mask` (0-based, lowest first); `n` < `mask.count_ones()`.
#[inline]
pub fn nth_set_bit(mut mask: u64, n: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the bmi2 target feature is enabled at compile time.
        let _ = &mut mask;
        return unsafe { core::arch::x86_64::_pdep_u64(1u64 << n, mask) }.trailing_zeros();
    }
    #[allow(
        unreachable_code,
        reason = "the portable path is dead code only with BMI2"
    )]
    {
        nth_set_bit_portable(&mut mask, n)
    }
}

/// The portable select: clear the lowest set bit `n` times.
#[inline]
pub fn nth_set_bit_portable(mask: &mut u64, n: u32) -> u32 {
    for _ in 0..n {
        *mask &= *mask - 1;
    }
    mask.trailing_zeros()
}

/// A random legal square of `moves` (non-empty).
#[inline]
pub fn random_square<R: PlayoutRng>(moves: u64, rng: &mut R) -> Square {
    let n = moves.count_ones();
    let r = ((u128::from(rng.next_u64()) * u128::from(n)) >> 64) as u32;
    Square::ALL[nth_set_bit(moves, r) as usize]
}

/// How a playout ended, from black's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PlayoutResult {
    /// Black's discs minus white's at the end (empty squares not counted).
    pub margin: i8,
}

impl PlayoutResult {
    /// The winner, or `None` for a draw.
    pub const fn winner(self) -> Option<Side> {
        if self.margin > 0 {
            Some(Side::Black)
        } else if self.margin < 0 {
            Some(Side::White)
        } else {
            None
        }
    }

    /// 1 for a win of `side`, 0.5 for a draw, 0 for a loss.
    pub fn score_for(self, side: Side) -> f32 {
        let m = match side {
            Side::Black => self.margin,
            Side::White => -self.margin,
        };
        if m > 0 {
            1.0
        } else if m == 0 {
            0.5
        } else {
            0.0
        }
    }
}

/// Plays uniformly random legal moves from `pos` to the end of the game under `variant`'s
/// rules and returns the result. A pass is forced (not chosen) under Othello rules.
#[inline]
pub fn random_playout<R: PlayoutRng>(
    pos: &Position,
    variant: Variant,
    rng: &mut R,
) -> PlayoutResult {
    let mut pos = *pos;
    if variant.in_free_opening(&pos) {
        while variant.in_free_opening(&pos) {
            let free = pos.empties().0 & crate::position::CENTRE;
            pos = pos.place(random_square(free, rng));
        }
    }
    let (p, o) = match variant {
        Variant::NoMoveEndsGame => playout_no_pass(pos.player().0, pos.opponent().0, rng),
        _ => playout_othello(pos.player().0, pos.opponent().0, rng),
    };
    // After the loop, `p` belongs to whoever was to move at `pos` if an even number of turns
    // passed; the loops return (original mover's discs, other's discs).
    let mover = p.count_ones() as i8 - o.count_ones() as i8;
    PlayoutResult {
        margin: match pos.side_to_move() {
            Side::Black => mover,
            Side::White => -mover,
        },
    }
}

/// The Othello loop. Returns (discs of the side that was to move at the start, the other's).
#[inline]
fn playout_othello<R: PlayoutRng>(mut p: u64, mut o: u64, rng: &mut R) -> (u64, u64) {
    let mut swapped = false;
    loop {
        let mut moves = legal_moves(p, o);
        if moves == 0 {
            moves = legal_moves(o, p);
            if moves == 0 {
                break;
            }
            std::mem::swap(&mut p, &mut o);
            swapped = !swapped;
        }
        let sq = random_square(moves, rng);
        let f = flips(p, o, sq);
        let np = o & !f;
        o = p | f | sq.bit();
        p = np;
        swapped = !swapped;
    }
    if swapped { (o, p) } else { (p, o) }
}

/// The no-move-ends-game loop.
#[inline]
fn playout_no_pass<R: PlayoutRng>(mut p: u64, mut o: u64, rng: &mut R) -> (u64, u64) {
    let mut swapped = false;
    loop {
        let moves = legal_moves(p, o);
        if moves == 0 {
            break;
        }
        let sq = random_square(moves, rng);
        let f = flips(p, o, sq);
        let np = o & !f;
        o = p | f | sq.bit();
        p = np;
        swapped = !swapped;
    }
    if swapped { (o, p) } else { (p, o) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_agrees_with_portable() {
        let mut rng = FastRng::new(7);
        for _ in 0..10_000 {
            let mask = rng.next_u64() & rng.next_u64();
            if mask == 0 {
                continue;
            }
            let n = rng.below(mask.count_ones());
            let mut m = mask;
            assert_eq!(nth_set_bit(mask, n), nth_set_bit_portable(&mut m, n));
        }
    }

    #[test]
    fn playouts_are_replayable_and_varied() {
        let a: Vec<i8> = (0..50)
            .scan(FastRng::new(1), |r, _| {
                Some(random_playout(&Position::start(), Variant::Othello, r).margin)
            })
            .collect();
        let b: Vec<i8> = (0..50)
            .scan(FastRng::new(1), |r, _| {
                Some(random_playout(&Position::start(), Variant::Othello, r).margin)
            })
            .collect();
        assert_eq!(a, b);
        let distinct: std::collections::HashSet<_> = a.iter().collect();
        assert!(distinct.len() > 10, "{a:?}");
    }

    #[test]
    fn random_square_is_roughly_uniform() {
        let mut rng = FastRng::new(3);
        let moves = 0b1011_0001u64;
        let mut counts = [0u32; 8];
        for _ in 0..40_000 {
            counts[random_square(moves, &mut rng).index() as usize] += 1;
        }
        for i in [0, 4, 5, 7] {
            assert!((9_000..11_000).contains(&counts[i]), "{counts:?}");
        }
        assert_eq!(counts[1] + counts[2] + counts[3] + counts[6], 0);
    }
}
