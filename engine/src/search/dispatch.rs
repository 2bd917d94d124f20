//! The searches' recursions in two compiled copies: a portable one, and on x86-64 one built
//! for AVX2 and the x86-64-v3 scalar extensions (hardware popcount, bit scans), chosen once
//! per search by [`crate::bitboard::cpu::fast`]. The portable build of the engine (the one every player
//! gets) then runs the fast move generator on a desktop CPU that has it, and stays the only
//! code on phones and in the browser. The tests compare the two copies node for node.
//!
//! Measured on FFO #20-#39 (`montello-engine solve`, one core): 30% less CPU time with the
//! solver's fast copy than with its portable one, the same nodes (docs/benchmarks.md).

use crate::Square;
#[cfg(target_arch = "x86_64")]
use crate::bitboard::avx2;
use crate::bitboard::{flips, legal_moves};

/// A recursive step (`$body`, generic over `FAST`) as two compiled copies and a dispatcher
/// `$name::<FAST>`: `$portable` for every CPU, and on x86-64 `$fast`, compiled
/// with [`avx2::FEATURES`] so that the whole recursion (move generation, flips, popcounts,
/// bit scans) runs on AVX2 and the x86-64-v3 scalar instructions. The search picks the copy
/// once ([`crate::bitboard::cpu::fast`]) and stays in it down the recursion.
macro_rules! dispatched {
    ($name:ident, $body:ident, $fast:ident, $portable:ident, ($($arg:ident: $ty:ty),*)) => {
        #[inline(always)]
        fn $name<const FAST: bool>(&mut self, $($arg: $ty),*) -> i32 {
            #[cfg(target_arch = "x86_64")]
            if FAST {
                // SAFETY: FAST is only true below a search whose `fast` flag is set, which
                // `crate::bitboard::cpu::fast` allows only on a CPU with the features.
                return unsafe { self.$fast($($arg),*) };
            }
            self.$portable($($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        fn $fast(&mut self, $($arg: $ty),*) -> i32 {
            self.$body::<true>($($arg),*)
        }

        fn $portable(&mut self, $($arg: $ty),*) -> i32 {
            self.$body::<false>($($arg),*)
        }
    };
}

pub(crate) use dispatched;

/// The legal moves, in the copy of the recursion that `FAST` names.
#[inline(always)]
pub(crate) fn moves_of<const FAST: bool>(p: u64, o: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: as in `dispatched`, FAST is only true on a CPU with the features.
        return unsafe { avx2::legal_moves(p, o) };
    }
    legal_moves(p, o)
}

/// The discs that a move on square index `i` flips, in the copy of the recursion that `FAST`
/// names.
#[inline(always)]
pub(crate) fn flips_on<const FAST: bool>(p: u64, o: u64, i: usize) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: as in `dispatched`, FAST is only true on a CPU with the features.
        return unsafe { avx2::flips(p, o, i) };
    }
    flips(p, o, Square::ALL[i])
}
