//! The patterns the evaluation reads, and how a position becomes one table index per pattern
//! instance.
//!
//! Each pattern is written once, in a canonical place on the board (the a1 corner, the first
//! rows, the a1-h8 diagonal), with a gather that packs its squares into a small bit number.
//! Its other instances are the same gather applied to the board seen through one of the
//! eight symmetries of the square (flip the rows, mirror the columns, transpose), so one set
//! of weights serves every instance and the value is symmetric by construction.
//!
//! A square's state is 0 (empty), 1 (side to move) or 2 (opponent); a pattern's index is
//! `sum state(k) * 3^k` over its squares in gather order.

/// A pattern: its name, its squares in the canonical place (a mask), how many squares it has,
/// and the symmetries (see [`transform`]) that give its distinct instances.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// A short name for logs and docs.
    pub name: &'static str,
    /// The squares of the canonical instance.
    pub mask: u64,
    /// Number of squares (the table has `3^len` entries).
    pub len: u32,
    /// The symmetries whose images of the board give the distinct instances.
    pub transforms: &'static [u8],
}

const fn diag_mask(offset: u32) -> u64 {
    // Squares (column c, row c - offset) for c = offset..=7.
    let mut m = 0u64;
    let mut c = offset;
    while c < 8 {
        m |= 1u64 << ((c - offset) * 8 + c);
        c += 1;
    }
    m
}

/// The pattern set, in the Logistello / Edax tradition: corner blocks, the edge with its two
/// X-squares, the second to fourth rows, and the diagonals of length 4 to 8; then (from
/// weights file version 2) the corner's triangle of ten squares.
pub const PATTERNS: [Pattern; 12] = [
    Pattern {
        name: "corner 3x3",
        mask: 0x0000_0000_0007_0707,
        len: 9,
        transforms: &[0, 1, 2, 3],
    },
    Pattern {
        name: "corner 2x5",
        mask: 0x0000_0000_0000_1f1f,
        len: 10,
        transforms: &[0, 1, 2, 3, 4, 5, 6, 7],
    },
    Pattern {
        name: "edge + 2X",
        mask: 0x0000_0000_0000_42ff,
        len: 10,
        transforms: &[0, 1, 4, 5],
    },
    Pattern {
        name: "row 2",
        mask: 0x0000_0000_0000_ff00,
        len: 8,
        transforms: &[0, 1, 4, 5],
    },
    Pattern {
        name: "row 3",
        mask: 0x0000_0000_00ff_0000,
        len: 8,
        transforms: &[0, 1, 4, 5],
    },
    Pattern {
        name: "row 4",
        mask: 0x0000_0000_ff00_0000,
        len: 8,
        transforms: &[0, 1, 4, 5],
    },
    Pattern {
        name: "diagonal 8",
        mask: diag_mask(0),
        len: 8,
        transforms: &[0, 1],
    },
    Pattern {
        name: "diagonal 7",
        mask: diag_mask(1),
        len: 7,
        transforms: &[0, 1, 2, 4],
    },
    Pattern {
        name: "diagonal 6",
        mask: diag_mask(2),
        len: 6,
        transforms: &[0, 1, 2, 4],
    },
    Pattern {
        name: "diagonal 5",
        mask: diag_mask(3),
        len: 5,
        transforms: &[0, 1, 2, 4],
    },
    Pattern {
        name: "diagonal 4",
        mask: diag_mask(4),
        len: 4,
        transforms: &[0, 1, 2, 4],
    },
    Pattern {
        name: "triangle",
        mask: 0x0000_0000_0103_070f,
        len: 10,
        transforms: &[0, 1, 2, 3],
    },
];

/// How many of [`PATTERNS`] the weights files of version 1 hold (the first ones).
pub const PATTERNS_V1: usize = 11;

/// Number of pattern instances summed in one evaluation.
pub const INSTANCES: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < PATTERNS.len() {
        n += PATTERNS[i].transforms.len();
        i += 1;
    }
    n
};

/// `3^n`.
pub const fn pow3(n: u32) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < n {
        r *= 3;
        i += 1;
    }
    r
}

/// Where each pattern's table starts in one phase's weights, and the end of the last.
pub const OFFSETS: [usize; PATTERNS.len() + 1] = {
    let mut o = [0usize; PATTERNS.len() + 1];
    let mut i = 0;
    while i < PATTERNS.len() {
        o[i + 1] = o[i] + pow3(PATTERNS[i].len);
        i += 1;
    }
    o
};

/// Mobility is clamped to this many moves per side for its table.
pub const MOBILITY_CAP: u32 = 24;
/// Entries of the mobility table: one per (own moves, opponent's moves) pair.
pub const MOBILITY_SIZE: usize = ((MOBILITY_CAP + 1) * (MOBILITY_CAP + 1)) as usize;
/// Where the mobility table starts in one phase's weights.
pub const MOBILITY_OFFSET: usize = OFFSETS[PATTERNS.len()];
/// The bias (one weight per phase).
pub const BIAS_OFFSET: usize = MOBILITY_OFFSET + MOBILITY_SIZE;
/// Weights in one phase.
pub const PHASE_SIZE: usize = BIAS_OFFSET + 1;
/// Features per position: every pattern instance, the mobility pair and the bias.
pub const FEATURES: usize = INSTANCES + 2;

/// Flips the rows (a1 <-> a8).
#[inline(always)]
pub const fn flip_vertical(b: u64) -> u64 {
    // WebAssembly has no byte-swap instruction; LLVM's expansion of one is about twice as
    // long as these two swaps and a rotation.
    if cfg!(target_family = "wasm") {
        flip_vertical_by_shifts(b)
    } else {
        b.swap_bytes()
    }
}

/// Mirrors the columns (a1 <-> h1).
#[inline(always)]
pub const fn mirror_horizontal(b: u64) -> u64 {
    // WebAssembly has no bit-reverse instruction (nor a byte swap): three swaps within the
    // bytes instead of reversing all 64 bits and swapping the bytes back.
    if cfg!(target_family = "wasm") {
        mirror_horizontal_by_shifts(b)
    } else {
        b.reverse_bits().swap_bytes()
    }
}

/// [`flip_vertical`] in shifts and masks: neighbouring rows swapped, then pairs of rows,
/// then the halves by a rotation.
#[inline(always)]
pub const fn flip_vertical_by_shifts(b: u64) -> u64 {
    const ROWS: u64 = 0x00ff_00ff_00ff_00ff;
    const PAIRS: u64 = 0x0000_ffff_0000_ffff;
    let b = ((b >> 8) & ROWS) | ((b & ROWS) << 8);
    let b = ((b >> 16) & PAIRS) | ((b & PAIRS) << 16);
    b.rotate_left(32)
}

/// [`mirror_horizontal`] in shifts and masks: neighbouring columns swapped, then pairs, then
/// the halves of each row.
#[inline(always)]
pub const fn mirror_horizontal_by_shifts(b: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let b = ((b >> 1) & K1) | ((b & K1) << 1);
    let b = ((b >> 2) & K2) | ((b & K2) << 2);
    ((b >> 4) & K4) | ((b & K4) << 4)
}

/// Transposes along the a1-h8 diagonal (b1 <-> a2).
#[inline(always)]
pub const fn transpose(b: u64) -> u64 {
    let mut b = b;
    let t = (b ^ (b >> 7)) & 0x00aa_00aa_00aa_00aa;
    b ^= t ^ (t << 7);
    let t = (b ^ (b >> 14)) & 0x0000_cccc_0000_cccc;
    b ^= t ^ (t << 14);
    let t = (b ^ (b >> 28)) & 0x0000_0000_f0f0_f0f0;
    b ^= t ^ (t << 28);
    b
}

/// The smallest image of `(p, o)` among its eight symmetries, and the symmetry that gives it:
/// one key for a position and its mirror images (the opening book's, the openings' names).
pub fn canonical(p: u64, o: u64) -> (u64, u64, u8) {
    (0..8u8)
        .map(|t| (transform(t, p), transform(t, o), t))
        .min()
        .unwrap_or((p, o, 0))
}

/// The board seen through symmetry `t` (0..8): bit 2 transposes first, then bit 0 flips the
/// rows and bit 1 mirrors the columns.
#[inline(always)]
pub const fn transform(t: u8, b: u64) -> u64 {
    let b = if t & 4 != 0 { transpose(b) } else { b };
    let b = if t & 1 != 0 { flip_vertical(b) } else { b };
    if t & 2 != 0 { mirror_horizontal(b) } else { b }
}

/// The eight images of a board, indexed by symmetry number.
// The SIMD build makes both sides' images at once (`images_of_both`).
#[cfg_attr(
    all(target_family = "wasm", target_feature = "simd128"),
    allow(dead_code)
)]
#[inline(always)]
pub fn images(b: u64) -> [u64; 8] {
    // Symmetry t is bit 2 (transpose) first, then bit 0 (rows), then bit 1 (columns): each
    // image is one step from another. Where the CPU reverses bits in one instruction the
    // mirrors below fold into it.
    let m = mirror_horizontal(b);
    let t = transpose(b);
    let mt = mirror_horizontal(t);
    [
        b,
        flip_vertical(b),
        m,
        flip_vertical(m),
        t,
        flip_vertical(t),
        mt,
        flip_vertical(mt),
    ]
}

/// [`images`] of both sides' discs.
#[inline(always)]
pub(crate) fn images_of_both(p: u64, o: u64) -> ([u64; 8], [u64; 8]) {
    #[cfg(all(target_family = "wasm", target_feature = "simd128"))]
    {
        super::simd128::images_of_both(p, o)
    }
    #[cfg(not(all(target_family = "wasm", target_feature = "simd128")))]
    {
        (images(p), images(o))
    }
}

/// Packs the squares of pattern `k`'s canonical instance from board `b` into its low bits.
#[inline(always)]
pub const fn gather(k: usize, b: u64) -> u32 {
    const COLUMNS: u64 = 0x0101_0101_0101_0101;
    let r = match k {
        0 => (b & 7) | ((b >> 5) & 0x38) | ((b >> 10) & 0x1c0),
        1 => (b & 0x1f) | ((b >> 3) & 0x3e0),
        2 => (b & 0xff) | ((b >> 1) & 0x100) | ((b >> 5) & 0x200),
        3 => (b >> 8) & 0xff,
        4 => (b >> 16) & 0xff,
        5 => (b >> 24) & 0xff,
        // A diagonal has one square per column: a multiply stacks the columns in the top byte.
        6 => (b & diag_mask(0)).wrapping_mul(COLUMNS) >> 56,
        7 => (b & diag_mask(1)).wrapping_mul(COLUMNS) >> 57,
        8 => (b & diag_mask(2)).wrapping_mul(COLUMNS) >> 58,
        9 => (b & diag_mask(3)).wrapping_mul(COLUMNS) >> 59,
        10 => (b & diag_mask(4)).wrapping_mul(COLUMNS) >> 60,
        // a1-d1, a2-c2, a3-b3, a4.
        _ => (b & 0xf) | ((b >> 4) & 0x70) | ((b >> 9) & 0x180) | ((b >> 15) & 0x200),
    };
    r as u32
}

/// Base 2 to base 3: a pattern's bits as a ternary number with digits 0/1.
static TERNARY: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut i = 0;
    while i < 1024 {
        let mut v = 0u32;
        let mut bit = 9i32;
        while bit >= 0 {
            v = v * 3 + ((i >> bit) & 1) as u32;
            bit -= 1;
        }
        t[i] = v as u16;
        i += 1;
    }
    t
};

/// The ternary index of a pattern whose squares hold the mover's bits `pb` and the
/// opponent's bits `ob` (gather order).
#[inline(always)]
pub fn ternary(pb: u32, ob: u32) -> usize {
    TERNARY[pb as usize] as usize + 2 * TERNARY[ob as usize] as usize
}

/// The mobility table's index for `p` to move against `o`, with a given move generator (the
/// fast one where the CPU has it).
#[inline(always)]
pub(crate) fn mobility_index_with(p: u64, o: u64, legal_moves: impl Fn(u64, u64) -> u64) -> usize {
    let mp = legal_moves(p, o).count_ones().min(MOBILITY_CAP);
    let mo = legal_moves(o, p).count_ones().min(MOBILITY_CAP);
    (mp * (MOBILITY_CAP + 1) + mo) as usize
}

/// Every feature of `p` to move against `o`: the index, within one phase's weights, of each
/// pattern instance, then of the mobility pair, then the bias.
#[inline]
pub fn features(p: u64, o: u64) -> [u32; FEATURES] {
    features_with(p, o, crate::bitboard::legal_moves)
}

/// [`features`] with a given move generator; inlined into its caller so that a caller
/// compiled for a newer CPU gets that CPU's instructions throughout.
#[inline(always)]
pub(crate) fn features_with(
    p: u64,
    o: u64,
    legal_moves: impl Fn(u64, u64) -> u64,
) -> [u32; FEATURES] {
    let (ip, io) = images_of_both(p, o);
    let mut out = [0u32; FEATURES];
    let mut n = 0;
    // One call per pattern with the pattern as a constant, so that each gather is its own
    // few shifts (no dispatch on the pattern number) and the loop over instances unrolls.
    macro_rules! each_pattern {
        ($($k:literal)*) => { $(instances::<$k>(&ip, &io, &mut out, &mut n);)* };
    }
    each_pattern!(0 1 2 3 4 5 6 7 8 9 10 11);
    const _: () = assert!(PATTERNS.len() == 12, "one `instances` call per pattern");
    out[n] = (MOBILITY_OFFSET + mobility_index_with(p, o, legal_moves)) as u32;
    out[n + 1] = BIAS_OFFSET as u32;
    out
}

/// The most pattern instances that read one square.
const MAX_PER_SQUARE: usize = 16;

/// For each square, the pattern instances that read it: each one's place in [`features`] and
/// `3^k` for the square's digit `k` in that instance's index. What a move changes in the
/// indices, for [`features_after`].
pub(crate) struct SquareInstances {
    count: [u8; 64],
    slot: [[u8; MAX_PER_SQUARE]; 64],
    power: [[u16; MAX_PER_SQUARE]; 64],
}

pub(crate) static SQUARE_INSTANCES: SquareInstances = {
    let mut t = SquareInstances {
        count: [0; 64],
        slot: [[0; MAX_PER_SQUARE]; 64],
        power: [[0; MAX_PER_SQUARE]; 64],
    };
    let mut sq = 0;
    while sq < 64 {
        let mut slot = 0;
        let mut k = 0;
        while k < PATTERNS.len() {
            let mut i = 0;
            while i < PATTERNS[k].transforms.len() {
                let g = gather(k, transform(PATTERNS[k].transforms[i], 1u64 << sq));
                if g != 0 {
                    let c = t.count[sq] as usize;
                    assert!(c < MAX_PER_SQUARE, "too many instances on one square");
                    t.slot[sq][c] = slot as u8;
                    t.power[sq][c] = pow3(g.trailing_zeros()) as u16;
                    t.count[sq] += 1;
                }
                slot += 1;
                i += 1;
            }
            k += 1;
        }
        sq += 1;
    }
    t
};

/// The pattern indices of the position with `o` to move against `p` (the mobility and bias
/// entries left at 0): the base from which [`features_after`] gets the features of each
/// position after a move of `p`'s, reading each instance once for all of them.
#[inline(always)]
pub(crate) fn swapped_indices(p: u64, o: u64) -> [u32; FEATURES] {
    let mut f = features_with(o, p, |_, _| 0);
    f[INSTANCES] = 0;
    f[INSTANCES + 1] = 0;
    f
}

/// Adds `times` to square `s`'s digit in each instance index of `f` that reads it.
#[inline(always)]
fn add_square(f: &mut [u32; FEATURES], s: usize, times: u32) {
    let t = &SQUARE_INSTANCES;
    for j in 0..t.count[s] as usize {
        f[t.slot[s][j] as usize] += times * u32::from(t.power[s][j]);
    }
}

/// The features of the position after the side to move of `base`'s position plays `sq`
/// flipping `flips`, seen by the side to move then, given that position's mobility index:
/// the same as [`features`] of it, by adding to each index the digits the move changes (the
/// new disc from empty to the mover's opponent, each flipped one from the new mover's to
/// its opponent's) instead of reading every instance again.
#[inline(always)]
pub(crate) fn features_after(
    base: &[u32; FEATURES],
    sq: u32,
    flips: u64,
    mobility: usize,
) -> [u32; FEATURES] {
    let mut f = *base;
    add_square(&mut f, sq as usize, 2);
    let mut rest = flips;
    while rest != 0 {
        add_square(&mut f, rest.trailing_zeros() as usize, 1);
        rest &= rest - 1;
    }
    f[INSTANCES] = (MOBILITY_OFFSET + mobility) as u32;
    f[INSTANCES + 1] = BIAS_OFFSET as u32;
    f
}

/// Writes the table index of each instance of pattern `K` into `out` from `n` on.
#[inline(always)]
fn instances<const K: usize>(
    ip: &[u64; 8],
    io: &[u64; 8],
    out: &mut [u32; FEATURES],
    n: &mut usize,
) {
    for &t in PATTERNS[K].transforms {
        let t = t as usize;
        out[*n] = (OFFSETS[K] + ternary(gather(K, ip[t]), gather(K, io[t]))) as u32;
        *n += 1;
    }
}

/// For pattern `k`, the table index each index shares its weight with: the smallest of the
/// indices that the pattern's own symmetries (those mapping its squares onto themselves)
/// turn it into. Training fits one weight per class; the shipped tables hold every entry.
pub fn canonical_indices(k: usize) -> Vec<u32> {
    let pattern = PATTERNS[k];
    let size = pow3(pattern.len);
    // Each square of the canonical instance, in gather order.
    let squares: Vec<u64> = (0..pattern.len)
        .map(|bit| {
            (0..64)
                .map(|s| 1u64 << s)
                .find(|&sq| gather(k, sq) == 1 << bit)
                .unwrap_or(0)
        })
        .collect();
    // Self-symmetries as permutations of gather positions.
    let mut perms: Vec<Vec<usize>> = Vec::new();
    for t in 1..8u8 {
        if transform(t, pattern.mask) != pattern.mask {
            continue;
        }
        let perm: Vec<usize> = squares
            .iter()
            .map(|&sq| gather(k, transform(t, sq)).trailing_zeros() as usize)
            .collect();
        perms.push(perm);
    }
    let digits = |mut idx: usize| {
        let mut d = vec![0usize; pattern.len as usize];
        for x in &mut d {
            *x = idx % 3;
            idx /= 3;
        }
        d
    };
    (0..size)
        .map(|idx| {
            let d = digits(idx);
            let mut best = idx;
            for perm in &perms {
                let mut j = 0usize;
                for (pos, &digit) in d.iter().enumerate() {
                    j += digit * pow3(perm[pos] as u32);
                }
                best = best.min(j);
            }
            best as u32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transforms_are_the_eight_symmetries() {
        let b = 0x0123_4567_89ab_cdefu64;
        let imgs = images(b);
        for t in 0..8u8 {
            assert_eq!(imgs[t as usize], transform(t, b), "t={t}");
            // Each maps single squares to single squares.
            for s in 0..64 {
                assert_eq!(transform(t, 1 << s).count_ones(), 1);
            }
        }
        let mut all: Vec<u64> = imgs.to_vec();
        all.sort_unstable();
        all.dedup();
        assert_eq!(
            all.len(),
            8,
            "an asymmetric board has eight distinct images"
        );
        assert_eq!(transpose(transpose(b)), b);
        for r in 0..8 {
            for c in 0..8 {
                assert_eq!(transpose(1 << (r * 8 + c)), 1 << (c * 8 + r));
                assert_eq!(flip_vertical(1 << (r * 8 + c)), 1 << ((7 - r) * 8 + c));
                assert_eq!(mirror_horizontal(1 << (r * 8 + c)), 1 << (r * 8 + 7 - c));
            }
        }
        assert_eq!(transpose(1 << 1), 1 << 8, "b1 <-> a2");
        assert_eq!(mirror_horizontal(1), 1 << 7, "a1 <-> h1");
    }

    #[test]
    fn the_shift_forms_of_the_flips_match_the_instructions() {
        // The browser's forms (WebAssembly has no byte swap or bit reverse), checked here
        // against the instructions on seeded random boards and every single square.
        let mut rng = crate::FastRng::new(0xf11b);
        let boards = (0..64)
            .map(|s| 1u64 << s)
            .chain((0..2000).map(|_| rng.next_u64()));
        for b in boards {
            assert_eq!(flip_vertical_by_shifts(b), b.swap_bytes(), "{b:#x}");
            assert_eq!(
                mirror_horizontal_by_shifts(b),
                b.reverse_bits().swap_bytes(),
                "{b:#x}"
            );
        }
    }

    #[test]
    fn gathers_read_exactly_the_pattern_squares_in_order() {
        for (k, pattern) in PATTERNS.iter().enumerate() {
            assert_eq!(pattern.mask.count_ones(), pattern.len, "{}", pattern.name);
            assert_eq!(gather(k, pattern.mask), (1 << pattern.len) - 1);
            assert_eq!(gather(k, !pattern.mask), 0, "{}", pattern.name);
            let mut seen = 0u32;
            for s in 0..64 {
                let g = gather(k, 1 << s);
                if pattern.mask >> s & 1 == 1 {
                    assert_eq!(g.count_ones(), 1);
                    seen |= g;
                }
            }
            assert_eq!(seen, (1 << pattern.len) - 1);
        }
    }

    #[test]
    fn instances_are_distinct_and_complete() {
        let mut covered = 0u64;
        for pattern in &PATTERNS {
            // The square set each symmetry's gather reads on the original board.
            let instance = |t: u8| {
                (0..64).fold(0u64, |m, s| {
                    if transform(t, 1 << s) & pattern.mask != 0 {
                        m | 1 << s
                    } else {
                        m
                    }
                })
            };
            let mut chosen: Vec<u64> = pattern.transforms.iter().map(|&t| instance(t)).collect();
            let mut all: Vec<u64> = (0..8).map(instance).collect();
            chosen.sort_unstable();
            all.sort_unstable();
            all.dedup();
            let n = chosen.len();
            chosen.dedup();
            assert_eq!(
                chosen.len(),
                n,
                "{}: an instance counted twice",
                pattern.name
            );
            assert_eq!(chosen, all, "{}: an instance missing", pattern.name);
            covered |= chosen.iter().fold(0, |a, b| a | b);
        }
        assert_eq!(covered, !0, "every square is in some pattern");
        assert_eq!(INSTANCES, 50);
    }

    #[test]
    fn ternary_digits() {
        assert_eq!(ternary(0b1, 0), 1);
        assert_eq!(ternary(0, 0b1), 2);
        assert_eq!(ternary(0b10, 0b01), 3 + 2);
        assert_eq!(ternary(0x3ff, 0), (pow3(10) - 1) / 2);
    }

    #[test]
    fn canonical_classes_respect_self_symmetry() {
        // The 3x3 corner is symmetric about its diagonal: b1 and a2 swap.
        let canon = canonical_indices(0);
        let b1 = gather(0, 1 << 1).trailing_zeros();
        let a2 = gather(0, 1 << 8).trailing_zeros();
        let i = pow3(b1);
        let j = pow3(a2);
        assert_eq!(canon[i], canon[j]);
        assert_ne!(canon[i], canon[2 * i], "mover and opponent differ");
        // The 2x5 block has no self-symmetry.
        let canon = canonical_indices(1);
        assert!(canon.iter().enumerate().all(|(i, &c)| c as usize == i));
    }
}
