//! The one seam for CPU features: whether the fast path (x86-64-v3: AVX2 and the scalar
//! extensions of the same level, hardware popcount, bit scans, `pdep`) runs on this machine.
//!
//! The fast code itself is compiled in copies that carry
//! `#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]` (the move generator in
//! `bitboard::avx2`, the searches' recursions, perft, the evaluation). One way to choose:
//! a caller asks [`fast`] once (a search, a perft, an evaluation) and calls the fast copy
//! through `unsafe`, or the portable one; a build that enables the features for the whole
//! crate ([`COMPILED_FAST`], `-C target-cpu=native` or `x86-64-v3`) runs the fast generator
//! inline everywhere and [`fast`] is then a constant `true`. Everything else (ARM64 phones,
//! the browser) compiles the portable code alone, and [`fast`] is a constant `false`.

/// Whether the whole build is compiled with the fast path's features, so that every CPU it
/// runs on has them: the bitboards' generator, the playouts' select then use them inline.
pub(crate) const COMPILED_FAST: bool = cfg!(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "bmi1",
    target_feature = "bmi2",
    target_feature = "lzcnt",
    target_feature = "popcnt"
));

/// Whether this CPU runs the fast path's copies: detected once, then a load.
#[inline]
pub(crate) fn fast() -> bool {
    if COMPILED_FAST {
        return true;
    }
    #[cfg(target_arch = "x86_64")]
    {
        static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *FAST.get_or_init(|| {
            std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("lzcnt")
                && std::is_x86_feature_detected!("popcnt")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_with_the_features_runs_the_fast_path() {
        // COMPILED_FAST implies fast(); fast() itself is asked once and then stays put.
        assert!(!COMPILED_FAST || fast());
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            fast(),
            std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("lzcnt")
                && std::is_x86_feature_detected!("popcnt")
        );
        #[cfg(not(target_arch = "x86_64"))]
        assert!(!fast());
    }
}
