//! The symmetry images of both sides' discs with WebAssembly's 128-bit SIMD (the browser
//! worker's SIMD build, web/simd.js; `patterns::images_of_both` takes it there), the portable
//! code's twin as `bitboard/avx2.rs` is the move generator's on x86-64: both boards in one
//! 128-bit register, so each step serves both, and the byte swaps and the bit reversal within
//! bytes (which WebAssembly has no scalar instruction for) are one shuffle and two table
//! lookups.

use core::arch::wasm32::*;

/// The rows reversed in each lane.
#[inline(always)]
fn flip_vertical(v: v128) -> v128 {
    i8x16_shuffle::<7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8>(v, v)
}

/// The bits of every byte reversed, by their nibbles.
#[inline(always)]
fn mirror_horizontal(v: v128) -> v128 {
    let reversed = u8x16(0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15);
    let low = u8x16_swizzle(reversed, v128_and(v, u8x16_splat(0x0f)));
    let high = u8x16_swizzle(reversed, u8x16_shr(v, 4));
    v128_or(u8x16_shl(low, 4), high)
}

/// One delta swap of the transpose in each lane.
#[inline(always)]
fn swap(v: v128, shift: u32, mask: u64) -> v128 {
    let t = v128_and(v128_xor(v, u64x2_shr(v, shift)), u64x2_splat(mask));
    v128_xor(v, v128_xor(t, u64x2_shl(t, shift)))
}

#[inline(always)]
fn transpose(v: v128) -> v128 {
    let v = swap(v, 7, 0x00aa_00aa_00aa_00aa);
    let v = swap(v, 14, 0x0000_cccc_0000_cccc);
    swap(v, 28, 0x0000_0000_f0f0_f0f0)
}

#[inline(always)]
pub(super) fn images_of_both(p: u64, o: u64) -> ([u64; 8], [u64; 8]) {
    let b = u64x2(p, o);
    let m = mirror_horizontal(b);
    let t = transpose(b);
    let mt = mirror_horizontal(t);
    let all = [
        b,
        flip_vertical(b),
        m,
        flip_vertical(m),
        t,
        flip_vertical(t),
        mt,
        flip_vertical(mt),
    ];
    (
        all.map(|v| u64x2_extract_lane::<0>(v)),
        all.map(|v| u64x2_extract_lane::<1>(v)),
    )
}
