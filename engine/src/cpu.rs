//! The one seam for CPU features: whether the fast path (x86-64-v3: AVX2 and the scalar
//! extensions of the same level, hardware popcount, bit scans, `pdep`) runs on this machine,
//! and the one way to compile a function in a fast copy beside its portable one.
//!
//! A fast copy is built by [`fast_copy!`]: its body is written once, generic over
//! `const FAST: bool`, and asks the move generator through the bitboards'
//! `legal_moves_in::<FAST>` / `flips_in::<FAST>` (the AVX2 generator in the fast copy, the
//! portable one in the other). The macro compiles it twice: a fast copy that carries
//! `#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]`, so that the generator, the
//! popcounts and the bit scans inline into it as x86-64-v3 instructions, and a portable copy;
//! and a dispatcher `name::<FAST>` that calls one of them. A caller outside the copies asks
//! [`fast`] once (a search, a perft, an evaluation) and calls `name::<true>` only when it
//! said yes; inside a copy, a recursion passes its `FAST` on and stays in its copy. The
//! searches' recursions (the exact solver's, alpha-beta's), perft and the evaluation are all
//! built so; the tests compare the copies node for node and count for count.
//!
//! A build that enables the features for the whole crate ([`COMPILED_FAST`],
//! `-C target-cpu=native` or `x86-64-v3`) runs the fast generator inline everywhere (the
//! bitboards' `legal_moves` and `flips`, the playouts' select) and [`fast`] is then a
//! constant `true`. Everything else (ARM64 phones, the browser) compiles the portable copies
//! alone, and [`fast`] is a constant `false`.
//!
//! Measured on FFO #20-#39 (`montello-engine solve`, one core): 30% less CPU time with the
//! solver's fast copy than with its portable one, the same nodes (docs/benchmarks.md).

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
        *FAST.get_or_init(detected)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU has every feature of the fast path (asked of the CPU each call; [`fast`]
/// keeps the answer).
#[cfg(target_arch = "x86_64")]
fn detected() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
}

/// Compiles a body generic over `const FAST: bool` as two copies and a dispatcher (see the
/// module's docs): `fast_copy!(fn name(&mut self, a: A, ...) -> R = body, fast, portable);`
/// (or `&self`, or a free function without a receiver) defines `name::<FAST>`, which calls
/// `fast` (on x86-64, compiled with the x86-64-v3 features, running `body::<true>`) when
/// `FAST` is true and `portable` (`body::<false>`) otherwise. `FAST` must be true only where
/// [`fast`] said yes: the dispatcher calls the fast copy through `unsafe` on that promise.
/// The body should be `#[inline(always)]`, so that each copy is the body compiled for its
/// CPU rather than a call into a shared one.
macro_rules! fast_copy {
    ($(#[$attr:meta])* $vis:vis fn $name:ident(&mut self $(, $arg:ident: $ty:ty)* $(,)?) -> $ret:ty
        = $body:ident, $fast:ident, $portable:ident $(;)?) => {
        $crate::cpu::fast_copy!(@copies [$(#[$attr])*] $vis $name $body $fast $portable
            [&mut self,] [self.] ($($arg: $ty),*) $ret);
    };
    ($(#[$attr:meta])* $vis:vis fn $name:ident(&self $(, $arg:ident: $ty:ty)* $(,)?) -> $ret:ty
        = $body:ident, $fast:ident, $portable:ident $(;)?) => {
        $crate::cpu::fast_copy!(@copies [$(#[$attr])*] $vis $name $body $fast $portable
            [&self,] [self.] ($($arg: $ty),*) $ret);
    };
    ($(#[$attr:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty
        = $body:ident, $fast:ident, $portable:ident $(;)?) => {
        $crate::cpu::fast_copy!(@copies [$(#[$attr])*] $vis $name $body $fast $portable
            [] [] ($($arg: $ty),*) $ret);
    };
    (@copies [$($attr:tt)*] $vis:vis $name:ident $body:ident $fast:ident $portable:ident
        [$($receiver:tt)*] [$($on:tt)*] ($($arg:ident: $ty:ty),*) $ret:ty) => {
        $($attr)*
        #[inline(always)]
        $vis fn $name<const FAST: bool>($($receiver)* $($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            if FAST {
                // SAFETY: FAST is true only where `crate::cpu::fast` said that this CPU has
                // every feature the fast copy is compiled with (the macro's contract).
                return unsafe { $($on)* $fast($($arg),*) };
            }
            $($on)* $portable($($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        fn $fast($($receiver)* $($arg: $ty),*) -> $ret {
            $($on)* $body::<true>($($arg),*)
        }

        fn $portable($($receiver)* $($arg: $ty),*) -> $ret {
            $($on)* $body::<false>($($arg),*)
        }
    };
}

pub(crate) use fast_copy;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_with_the_features_runs_the_fast_path() {
        // COMPILED_FAST implies fast(); fast() itself is asked once and then stays put.
        assert!(!COMPILED_FAST || fast());
        #[cfg(target_arch = "x86_64")]
        assert_eq!(fast(), COMPILED_FAST || detected());
        #[cfg(not(target_arch = "x86_64"))]
        assert!(!fast());
    }
}
