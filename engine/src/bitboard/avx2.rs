//! The AVX2 move generator: the four line directions of [`super::legal_moves`] in the four
//! 64-bit lanes of one 256-bit register, and [`super::flips`] as all eight rays at once in two
//! registers.
//!
//! Every function here is `#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]` (the
//! x86-64-v3 level, see [`FEATURES`]): callers either are compiled with those features too
//! (then the calls are safe and inline: the fast copies of [`crate::cpu::fast_copy!`], which
//! reach them through [`super::legal_moves_in`] and [`super::flips_in`]) or ask
//! [`crate::cpu::fast`] once and call through `unsafe`.
//! The portable functions in [`super`] stay the reference; the tests compare the two bit for
//! bit over many random positions.

use core::arch::x86_64::*;

/// The instruction-set extensions this module is compiled for: AVX2 plus the scalar
/// extensions of the same x86-64-v3 level (hardware `popcnt`, `lzcnt`, `tzcnt`, `pdep`).
pub const FEATURES: &str = "avx2,bmi1,bmi2,lzcnt,popcnt";

/// Whether this CPU runs the functions of this module (the engine's one CPU-feature check,
/// `cpu::fast`: detected once, then a load).
#[inline]
pub fn available() -> bool {
    crate::cpu::fast()
}

/// Per lane: the opponent discs that may sit inside a flanked run (not on the edge the line
/// leaves the board by), for the directions 1 (row), 8 (column), 9 and 7 (diagonals).
const LINE_MASKS: [u64; 4] = [
    0x7e7e_7e7e_7e7e_7e7e,
    0x00ff_ffff_ffff_ff00,
    0x007e_7e7e_7e7e_7e00,
    0x007e_7e7e_7e7e_7e00,
];

/// OR of the four lanes.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn or_lanes(v: __m256i) -> u64 {
    let x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
    _mm_cvtsi128_si64(x) as u64
}

/// [`super::legal_moves`]: the same Kogge-Stone fill, one direction pair per lane.
///
/// # Safety
///
/// The CPU must have [`FEATURES`] ([`available`]); callers compiled with them call it safely.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
pub fn legal_moves(p: u64, o: u64) -> u64 {
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    // Lane order: directions 1, 8, 9, 7 (lane 0 first; `set` lists the lanes high to low).
    let step = _mm256_set_epi64x(7, 9, 8, 1);
    let step2 = _mm256_add_epi64(step, step);
    let mask = _mm256_and_si256(
        oo,
        _mm256_set_epi64x(
            LINE_MASKS[3] as i64,
            LINE_MASKS[2] as i64,
            LINE_MASKS[1] as i64,
            LINE_MASKS[0] as i64,
        ),
    );

    // Runs of masked opponent discs next to a player disc, grown 1, then 2, then 2 more.
    let mut up = _mm256_and_si256(mask, _mm256_sllv_epi64(pp, step));
    let mut down = _mm256_and_si256(mask, _mm256_srlv_epi64(pp, step));
    up = _mm256_or_si256(up, _mm256_and_si256(mask, _mm256_sllv_epi64(up, step)));
    down = _mm256_or_si256(down, _mm256_and_si256(mask, _mm256_srlv_epi64(down, step)));
    // Pairs of adjacent masked discs, for the doubled steps.
    let pairs_up = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, step));
    let pairs_down = _mm256_srlv_epi64(pairs_up, step);
    up = _mm256_or_si256(up, _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, step2)));
    down = _mm256_or_si256(
        down,
        _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, step2)),
    );
    up = _mm256_or_si256(up, _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, step2)));
    down = _mm256_or_si256(
        down,
        _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, step2)),
    );
    let moves = _mm256_or_si256(_mm256_sllv_epi64(up, step), _mm256_srlv_epi64(down, step));
    or_lanes(moves) & !(p | o)
}

/// The eight rays of [`super::RAYS`] for one square, laid out as two registers' worth:
/// the four increasing directions then the four decreasing ones.
#[repr(C, align(32))]
struct Rays([u64; 8]);

static RAYS: [Rays; 64] = {
    let mut out = [const { Rays([0; 8]) }; 64];
    let mut sq = 0;
    while sq < 64 {
        out[sq] = Rays(super::RAYS[sq]);
        sq += 1;
    }
    out
};

/// [`super::flips`] by square index (`sq` < 64), all eight rays at once.
///
/// Increasing rays: the lowest square that is not an opponent disc ends the run; mask up to
/// and including it (`x ^ (x - 1)`) and keep the run if that square is a player disc.
/// Decreasing rays: every ray square above the highest player disc on the ray is the
/// candidate run; it flips when that player disc is nearer than the nearest empty square,
/// which is one signed compare (no ray square is bit 63, so both are non-negative).
///
/// # Safety
///
/// The CPU must have [`FEATURES`] ([`available`]); callers compiled with them call it safely.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
    let r = &RAYS[sq].0;
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);

    let up = _mm256_set_epi64x(r[3] as i64, r[2] as i64, r[1] as i64, r[0] as i64);
    let stops = _mm256_andnot_si256(oo, up);
    let through = _mm256_and_si256(
        _mm256_xor_si256(stops, _mm256_add_epi64(stops, _mm256_set1_epi64x(-1))),
        up,
    );
    let run = _mm256_andnot_si256(pp, through);
    // `run == through`: the stop square is not the player's (or there is none): no flip.
    let flipped_up = _mm256_andnot_si256(_mm256_cmpeq_epi64(run, through), run);

    let down = _mm256_set_epi64x(r[7] as i64, r[6] as i64, r[5] as i64, r[4] as i64);
    // Lane order of the decreasing rays: steps 1, 7, 8, 9 (W, NE, N, NW).
    let own = _mm256_and_si256(pp, down);
    let mut below = _mm256_or_si256(own, _mm256_srlv_epi64(own, _mm256_set_epi64x(9, 8, 7, 1)));
    below = _mm256_or_si256(
        below,
        _mm256_srlv_epi64(below, _mm256_set_epi64x(18, 16, 14, 2)),
    );
    below = _mm256_or_si256(
        below,
        _mm256_srlv_epi64(below, _mm256_set_epi64x(36, 32, 28, 4)),
    );
    let empty = _mm256_xor_si256(_mm256_andnot_si256(oo, down), own);
    let flipped_down = _mm256_and_si256(
        _mm256_andnot_si256(below, down),
        _mm256_cmpgt_epi64(own, empty),
    );
    or_lanes(_mm256_or_si256(flipped_up, flipped_down))
}
