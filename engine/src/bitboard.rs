//! A set of squares as one `u64` ([`Bitboard`]), and the bit-parallel move generator the
//! search runs on, on raw `u64`s (the public face is [`crate::movegen`], on bitboards).
//!
//! Bit `row * 8 + column` is the square; `a1` is bit 0 and `h8` bit 63.
//!
//! Two implementations of the move generator, compared bit for bit by the tests:
//! - the portable one ([`legal_moves_portable`], [`flips_portable`]): shifts, masks,
//!   `leading_zeros`/`trailing_zeros` and `count_ones`, which compile to single instructions
//!   on ARM64 phones;
//! - on x86-64, [`avx2`]: four directions per 256-bit register. [`legal_moves`] and [`flips`]
//!   use it when the build enables AVX2 (`-C target-cpu=native` or `x86-64-v3`:
//!   [`crate::cpu::COMPILED_FAST`]); the fast copies of the hot loops (built by
//!   [`crate::cpu::fast_copy!`]) call it through [`legal_moves_in`] and [`flips_in`].
//!
//! [`crate::cpu`] is the engine's one seam for CPU features: everything that picks a fast
//! path asks it.

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;

use crate::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

// Here rather than in square.rs, so that squares sit below bitboards and not beside them.
impl Square {
    /// The set holding only this square.
    pub const fn bit(self) -> Bitboard {
        Bitboard(self.mask())
    }
}

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);

    /// How many squares are in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.mask() != 0
    }

    /// The lowest-index square in the set.
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::from_index(self.0.trailing_zeros() as u8)
        }
    }

    /// The squares in index order (a1, b1, ..., h8).
    pub fn squares(self) -> Squares {
        Squares(self.0)
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Self {
        Bitboard(sq.mask())
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        Bitboard(iter.into_iter().fold(0, |acc, sq| acc | sq.mask()))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    fn into_iter(self) -> Squares {
        self.squares()
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest index first.
#[derive(Clone, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Square::from_index(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

macro_rules! bit_ops {
    ($($trait:ident $fn:ident $atrait:ident $afn:ident $op:tt),*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $atrait for Bitboard {
            #[inline]
            fn $afn(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}
bit_ops!(BitAnd bitand BitAndAssign bitand_assign &, BitOr bitor BitOrAssign bitor_assign |,
    BitXor bitxor BitXorAssign bitxor_assign ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

/// The four corners: a1, h1, a8, h8.
pub(crate) const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The X-squares, diagonally next to a corner: b2, g2, b7, g7.
pub(crate) const X_SQUARES: u64 = 0x0042_0000_0000_4200;
/// The board's four 4x4 quadrants (for parity ordering near the end of the game).
pub(crate) const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// Columns b-g: a run of discs to flip in a horizontal or diagonal line never touches a or h.
const INNER: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// Moves that flank runs of `o` discs in one direction pair (`+shift` and `-shift`), for
/// every `p` disc at once: a Kogge-Stone style fill, six discs deep at most.
#[inline(always)]
fn flank_moves(p: u64, mask: u64, shift: u32) -> u64 {
    let pairs = mask & (mask << shift);
    let mut f = mask & (p << shift);
    f |= mask & (f << shift);
    f |= pairs & (f << (2 * shift));
    f |= pairs & (f << (2 * shift));
    let mut moves = f << shift;

    let pairs = mask & (mask >> shift);
    let mut f = mask & (p >> shift);
    f |= mask & (f >> shift);
    f |= pairs & (f >> (2 * shift));
    f |= pairs & (f >> (2 * shift));
    moves |= f >> shift;
    moves
}

/// The legal moves of the player with discs `p` against the opponent's discs `o`: every empty
/// square from which a straight line of one or more `o` discs ends in a `p` disc.
#[inline]
pub(crate) fn legal_moves(p: u64, o: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::COMPILED_FAST {
        // SAFETY: the features avx2::legal_moves needs are enabled for the whole build, so
        // every CPU this binary runs on has them.
        return unsafe { avx2::legal_moves(p, o) };
    }
    legal_moves_portable(p, o)
}

/// [`legal_moves`] in portable Rust: the reference for the fast paths, and the generator on
/// every target without them (ARM64 phones among them).
#[inline]
pub(crate) fn legal_moves_portable(p: u64, o: u64) -> u64 {
    let empty = !(p | o);
    let inner = o & INNER;
    (flank_moves(p, inner, 1)
        | flank_moves(p, o, 8)
        | flank_moves(p, inner, 7)
        | flank_moves(p, inner, 9))
        & empty
}

/// The legal moves in the copy of a [`crate::cpu::fast_copy!`] body that `FAST` names: the
/// AVX2 generator in the fast copy, the portable one in the portable copy.
#[inline(always)]
pub(crate) fn legal_moves_in<const FAST: bool>(p: u64, o: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: FAST is true only in a fast copy, which runs only where `cpu::fast` said
        // that the CPU has the features (the contract of `cpu::fast_copy!`).
        return unsafe { avx2::legal_moves(p, o) };
    }
    legal_moves_portable(p, o)
}

/// The discs that a move on square index `i` flips, in the copy of a
/// [`crate::cpu::fast_copy!`] body that `FAST` names (as [`legal_moves_in`]).
#[inline(always)]
pub(crate) fn flips_in<const FAST: bool>(p: u64, o: u64, i: usize) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: as in `legal_moves_in`.
        return unsafe { avx2::flips(p, o, i) };
    }
    flips_portable(p, o, i)
}

/// For each square and each of the eight directions, the squares after it along that ray,
/// nearest first by bit order: the four "positive" directions (E, SW, S, SE; increasing index)
/// then the four "negative" ones (W, NE, N, NW; decreasing index).
static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    // (column step, row step): positive directions first, then their opposites.
    const DIRS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
        (-1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
    ];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRS[d];
            let mut c = (sq % 8) as i32 + dc;
            let mut r = (sq / 8) as i32 + dr;
            let mut ray = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                ray |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// The `o` discs that playing at `sq` flips for the player with discs `p` (empty if none:
/// the move is then illegal). `sq` must be empty.
///
/// Along each ray, the nearest square that is not an `o` disc ends the run; the run flips
/// when that square holds a `p` disc. The nearest such square is the lowest set bit on
/// increasing rays and the highest on decreasing ones, so each direction costs a handful of
/// branch-free instructions.
#[inline]
pub(crate) fn flips(p: u64, o: u64, sq: Square) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::COMPILED_FAST {
        // SAFETY: as in `legal_moves`, the features are enabled for the whole build.
        return unsafe { avx2::flips(p, o, usize::from(sq.index())) };
    }
    flips_portable(p, o, usize::from(sq.index()))
}

/// [`flips`] in portable Rust, by square index (`sq` < 64; a larger index panics).
#[inline]
pub(crate) fn flips_portable(p: u64, o: u64, sq: usize) -> u64 {
    let rays = &RAYS[sq];
    let not_o = !o;
    let mut flipped = 0;
    let mut d = 0;
    while d < 4 {
        let ray = rays[d];
        let stop = ray & not_o;
        let first = stop & stop.wrapping_neg();
        let take = 0u64.wrapping_sub(((first & p) != 0) as u64);
        flipped |= ray & first.wrapping_sub(1) & take;
        d += 1;
    }
    while d < 8 {
        let ray = rays[d];
        // The sentinel bit 0 keeps leading_zeros below 64; it only counts if it is on the ray.
        let stop = (ray & not_o) | 1;
        let first = (1u64 << 63) >> stop.leading_zeros();
        let take = 0u64.wrapping_sub(((first & p & ray) != 0) as u64);
        flipped |= ray & !(first.wrapping_shl(1).wrapping_sub(1)) & take;
        d += 1;
    }
    flipped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_the_four_classic_moves() {
        // Black: d5 and e4; white: d4 and e5.
        let sq = |s: &str| s.parse::<Square>().unwrap_or_else(|e| panic!("{e}"));
        let black = sq("d5").mask() | sq("e4").mask();
        let white = sq("d4").mask() | sq("e5").mask();
        let moves: Vec<String> = Bitboard(legal_moves(black, white))
            .squares()
            .map(|s| s.to_string())
            .collect();
        let mut expected = vec!["d3", "c4", "f5", "e6"];
        expected.sort_by_key(|s| s.parse::<Square>().map(|q| q.index()).unwrap_or(0));
        assert_eq!(moves, expected);
        assert_eq!(flips(black, white, sq("f5")), sq("e5").mask());
        assert_eq!(flips(black, white, sq("a1")), 0);
    }

    #[test]
    fn rays_stop_at_the_edge() {
        assert_eq!(RAYS[7][0], 0, "nothing east of h1");
        assert_eq!(RAYS[0][4], 0, "nothing west of a1");
        assert_eq!(RAYS[0][3].count_ones(), 7, "a1-h8 diagonal");
    }
}
