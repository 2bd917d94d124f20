//! Uniformly random playouts: the simulation step of Monte-Carlo Tree Search, and its hot loop.
//!
//! No allocation, no branches on the variant inside the loop: the one loop is specialised
//! for its pass rule ([`Variant::turn`]) once per playout.

use crate::bitboard::flips;
use crate::{Bitboard, Move, Position, Side, Square, Variant};
use core::convert::Infallible;
use rand_core::{Rng, SeedableRng, TryRng};

/// A small, fast, seedable random number generator (wyrand). Good enough statistically for
/// playouts and far cheaper than a cryptographic one; the same seed replays the same game.
///
/// It speaks the ecosystem's traits: [`rand_core::Rng`] (through [`rand_core::TryRng`] with
/// an infallible error) and [`rand_core::SeedableRng`], so it drives `rand`'s distributions and
/// sequence functions, and any other `rand_core` generator can stand in for it in
/// [`random_playout`].
///
/// ```
/// use montello_engine::FastRng;
/// use rand_core::{Rng, SeedableRng};
///
/// let mut a = FastRng::seed_from_u64(7);
/// let mut b = FastRng::new(7);
/// assert_eq!(Rng::next_u64(&mut a), b.next_u64());
/// ```
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

    /// Shuffles `items` in place (Fisher-Yates, from the back): the one shuffle of the
    /// arena's openings and the trainer's samples, so a seed replays either.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// A uniform float in `[0, 1)`.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// The generator never fails, so [`rand_core::Rng`] comes with this.
impl TryRng for FastRng {
    type Error = Infallible;

    /// The high half of the next 64 bits (wyrand's better-mixed half).
    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.next_u64() >> 32) as u32)
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.next_u64())
    }

    /// Whole 64-bit words, little-endian; the last one may be cut short.
    #[inline]
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        rand_core::utils::fill_bytes_via_next_word(dst, || self.try_next_u64())
    }
}

/// The seed is the generator's 64-bit state, little-endian; [`SeedableRng::seed_from_u64`]
/// is [`FastRng::new`], so a search seeded either way replays the same.
impl SeedableRng for FastRng {
    type Seed = [u8; 8];

    fn from_seed(seed: [u8; 8]) -> FastRng {
        FastRng(u64::from_le_bytes(seed))
    }

    fn seed_from_u64(state: u64) -> FastRng {
        FastRng::new(state)
    }
}

/// The `n`-th set bit of `mask` (0-based, lowest first); `n` < `mask.count_ones()`.
#[inline]
pub(crate) fn nth_set_bit(mut mask: u64, n: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::COMPILED_FAST {
        // SAFETY: the build enables the fast path's features, bmi2 among them.
        return unsafe { core::arch::x86_64::_pdep_u64(1u64 << n, mask) }.trailing_zeros();
    }
    nth_set_bit_portable(&mut mask, n)
}

/// The portable select: clear the lowest set bit `n` times.
#[inline]
pub(crate) fn nth_set_bit_portable(mask: &mut u64, n: u32) -> u32 {
    for _ in 0..n {
        *mask &= *mask - 1;
    }
    mask.trailing_zeros()
}

/// A uniformly random square of `moves`, drawn from `rng`: a [`FastRng`] or any other
/// [`rand_core::Rng`].
///
/// # Panics
///
/// If `moves` is empty (the caller checks: the side to move passes or the game is over).
///
/// ```
/// use montello_engine::{FastRng, Position, random_square};
///
/// let start = Position::start();
/// let sq = random_square(start.flip_moves(), &mut FastRng::new(1));
/// assert!(start.flip_moves().contains(sq));
/// ```
#[inline]
pub fn random_square<R: Rng + ?Sized>(moves: Bitboard, rng: &mut R) -> Square {
    random_square_raw(moves.0, rng)
}

/// [`random_square`] of a raw `u64`, for the engine's own loops.
#[inline]
pub(crate) fn random_square_raw<R: Rng + ?Sized>(moves: u64, rng: &mut R) -> Square {
    let n = moves.count_ones();
    let r = ((u128::from(rng.next_u64()) * u128::from(n)) >> 64) as u32;
    Square::ALL[nth_set_bit(moves, r) as usize]
}

/// `n` positions reached by seeded random play from the start, at every stage of the game
/// (each game's positions in order, passes included, then the next game's): the tests' and
/// the trainer's sample of positions anyone can replay from the seed.
pub fn random_positions(seed: u64, n: usize) -> Vec<Position> {
    let mut rng = FastRng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut pos = Position::start();
        while !pos.both_stuck() && out.len() < n {
            let moves = pos.flip_moves().0;
            pos = if moves == 0 {
                pos.pass()
            } else {
                pos.play_unchecked(random_square_raw(moves, &mut rng))
            };
            out.push(pos);
        }
    }
    out
}

/// A position `empties` squares from the end (or one fewer after a pass), reached by random
/// play seeded `seed`, where the game is not over: the endgames the solver's tests and the
/// search benchmarks draw, the same ones for the same seed.
pub fn random_endgame(seed: u64, empties: u32) -> Position {
    let mut rng = FastRng::new(seed);
    loop {
        let mut pos = Position::start();
        loop {
            if pos.empties().count() <= empties {
                if !pos.both_stuck() {
                    return pos;
                }
                break;
            }
            let moves = pos.flip_moves().0;
            if moves == 0 {
                if pos.both_stuck() {
                    break;
                }
                pos = pos.pass();
                continue;
            }
            pos = pos.play_unchecked(random_square_raw(moves, &mut rng));
        }
    }
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
        Side::ahead_by(self.margin as i32)
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
///
/// The moves are drawn from `rng`: a [`FastRng`], or any other [`rand_core::Rng`] (a `rand`
/// generator, `&mut dyn Rng`).
#[inline]
pub fn random_playout<R: Rng + ?Sized>(
    pos: &Position,
    variant: Variant,
    rng: &mut R,
) -> PlayoutResult {
    let mut pos = *pos;
    while variant.in_free_opening(&pos) {
        // The placement squares: the variant's legal moves there.
        let sq = random_square_raw(variant.legal_moves(&pos).0, rng);
        pos = variant.play_unchecked(&pos, Move::Play(sq));
    }
    // One loop, its pass rule folded in per variant: no branch on the rules inside.
    let (p, o) = if variant.passes() {
        playout_raw(Variant::Othello, pos.player().0, pos.opponent().0, rng)
    } else {
        playout_raw(
            Variant::NoMoveEndsGame,
            pos.player().0,
            pos.opponent().0,
            rng,
        )
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

/// The loop on raw bits under `rules`' pass rule ([`Variant::turn`]). Returns (discs of the
/// side that was to move at the start, the other's).
#[inline(always)]
fn playout_raw<R: Rng + ?Sized>(rules: Variant, mut p: u64, mut o: u64, rng: &mut R) -> (u64, u64) {
    let mut swapped = false;
    while let Some((moves, passed)) = rules.next_moves(&mut p, &mut o) {
        swapped ^= passed;
        let sq = random_square_raw(moves, rng);
        let f = flips(p, o, sq);
        let np = o & !f;
        o = p | f | sq.mask();
        p = np;
        swapped = !swapped;
    }
    if swapped { (o, p) } else { (p, o) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seeded_shuffle_is_a_permutation_and_replays() {
        let mut a: Vec<u32> = (0..100).collect();
        let mut b = a.clone();
        FastRng::new(7).shuffle(&mut a);
        FastRng::new(7).shuffle(&mut b);
        assert_eq!(a, b, "the same seed, the same order");
        assert_ne!(a, (0..100).collect::<Vec<_>>(), "shuffled");
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            (0..100).collect::<Vec<_>>(),
            "nothing lost or doubled"
        );
        let mut c: Vec<u32> = (0..100).collect();
        FastRng::new(8).shuffle(&mut c);
        assert_ne!(a, c, "another seed, another order");
    }

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
    fn the_rand_core_traits_give_the_same_stream() {
        let mut a = FastRng::new(11);
        let mut b = FastRng::seed_from_u64(11);
        let mut c = FastRng::from_seed(11u64.to_le_bytes());
        let expected: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let via_trait: Vec<u64> = (0..8).map(|_| Rng::next_u64(&mut b)).collect();
        let via_seed: Vec<u64> = (0..8).map(|_| Rng::next_u64(&mut c)).collect();
        assert_eq!(via_trait, expected);
        assert_eq!(via_seed, expected);
        // Bytes are whole words, little-endian, the last one cut short.
        let mut d = FastRng::new(5);
        let mut bytes = [0u8; 12];
        d.fill_bytes(&mut bytes);
        let mut e = FastRng::new(5);
        let (w0, w1) = (e.next_u64().to_le_bytes(), e.next_u64().to_le_bytes());
        assert_eq!(bytes[..8], w0);
        assert_eq!(bytes[8..], w1[..4]);
        let mut f = FastRng::new(5);
        assert_eq!(
            Rng::next_u32(&mut f),
            (FastRng::new(5).next_u64() >> 32) as u32
        );
    }

    /// Ours plugs into `rand`: its distributions and slice functions run on a `FastRng`, and
    /// the same seed gives the same draws.
    #[test]
    fn fast_rng_drives_rand() {
        use rand::RngExt;
        use rand::seq::SliceRandom;
        let draw = |seed| {
            let mut rng = FastRng::new(seed);
            let mut v: Vec<u32> = (0..20).collect();
            v.shuffle(&mut rng);
            let dice: Vec<u8> = (0..20).map(|_| rng.random_range(1..=6)).collect();
            (v, dice)
        };
        let (v, dice) = draw(9);
        assert_eq!((v.clone(), dice.clone()), draw(9));
        assert_ne!(v, (0..20).collect::<Vec<_>>(), "shuffled");
        let mut sorted = v;
        sorted.sort_unstable();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>(), "a permutation");
        assert!(dice.iter().all(|d| (1..=6).contains(d)));
        assert!(dice.iter().collect::<std::collections::HashSet<_>>().len() > 3);
    }

    /// Theirs plugs into ours: a `rand` generator (and a trait object) plays whole games.
    #[test]
    fn any_rand_generator_drives_the_playouts() {
        use rand_xorshift::XorShiftRng;
        let play = |seed| {
            let mut rng = XorShiftRng::seed_from_u64(seed);
            (0..30)
                .map(|_| random_playout(&Position::start(), Variant::Othello, &mut rng).margin)
                .collect::<Vec<i8>>()
        };
        let a = play(1);
        assert_eq!(a, play(1), "replayable from the seed");
        assert_ne!(a, play(2));
        let mut boxed: Box<dyn Rng> = Box::new(XorShiftRng::seed_from_u64(1));
        let b: Vec<i8> = (0..30)
            .map(|_| random_playout(&Position::start(), Variant::Othello, &mut *boxed).margin)
            .collect();
        assert_eq!(a, b, "the same generator behind a trait object");
    }

    #[test]
    fn random_square_is_roughly_uniform() {
        let mut rng = FastRng::new(3);
        let moves = 0b1011_0001u64;
        let mut counts = [0u32; 8];
        for _ in 0..40_000 {
            counts[random_square(Bitboard(moves), &mut rng).index() as usize] += 1;
        }
        for i in [0, 4, 5, 7] {
            assert!((9_000..11_000).contains(&counts[i]), "{counts:?}");
        }
        assert_eq!(counts[1] + counts[2] + counts[3] + counts[6], 0);
    }
}
