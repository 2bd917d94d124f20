//! The bit-parallel move generator on [`Bitboard`]s: every legal move of a side at once, and
//! the discs one move flips. [`Position::flip_moves`](crate::Position::flip_moves) and
//! [`Position::flips`](crate::Position::flips) are the same generator behind the position's
//! own checks; these functions are for callers that keep their own pair of disc sets.
//!
//! Two implementations, compared bit for bit by the tests:
//! - the portable one ([`legal_moves_portable`], [`flips_portable`]): shifts, masks,
//!   `leading_zeros`/`trailing_zeros` and `count_ones`, which compile to single instructions
//!   on ARM64 phones;
//! - on x86-64, `avx2`: four directions per 256-bit register. [`legal_moves`] and [`flips`]
//!   use it when the build enables AVX2 (`-C target-cpu=native` or `x86-64-v3`); a hot loop
//!   that wants it in a portable build checks `avx2::available` once and calls it directly
//!   (inside the crate, [`crate::perft`], the evaluation and the searches are compiled in a
//!   fast copy for it).
//!
//! ```
//! use montello_engine::{Position, Square, movegen};
//!
//! let start = Position::start();
//! let moves = movegen::legal_moves(start.player(), start.opponent());
//! assert_eq!(moves, start.flip_moves());
//! let f5: Square = "f5".parse()?;
//! assert_eq!(movegen::flips(start.player(), start.opponent(), f5).count(), 1);
//! # Ok::<(), montello_engine::SquareParseError>(())
//! ```

use crate::bitboard;
use crate::{Bitboard, Square};

/// The legal moves of the player with discs `player` against the `opponent`'s discs: every
/// empty square from which a straight line of one or more opponent discs ends in a player
/// disc: the standard rules' squares, whatever a [`Variant`](crate::Variant) adds.
///
/// # Correctness
///
/// The two sets must not overlap (nothing is checked); if they do, the result means nothing.
#[inline]
pub fn legal_moves(player: Bitboard, opponent: Bitboard) -> Bitboard {
    Bitboard(bitboard::legal_moves(player.0, opponent.0))
}

/// [`legal_moves`] in portable Rust, whatever the build enables: the reference for the fast
/// paths, and the generator on every target without them (ARM64 phones among them).
#[inline]
pub fn legal_moves_portable(player: Bitboard, opponent: Bitboard) -> Bitboard {
    Bitboard(bitboard::legal_moves_portable(player.0, opponent.0))
}

/// The `opponent` discs that a `player` disc on `sq` flips (empty if none: the move is then
/// illegal).
///
/// # Correctness
///
/// `sq` must be empty and the sets must not overlap (nothing is checked); otherwise the
/// result means nothing.
#[inline]
pub fn flips(player: Bitboard, opponent: Bitboard, sq: Square) -> Bitboard {
    Bitboard(bitboard::flips(player.0, opponent.0, sq))
}

/// [`flips`] in portable Rust, whatever the build enables.
#[inline]
pub fn flips_portable(player: Bitboard, opponent: Bitboard, sq: Square) -> Bitboard {
    Bitboard(bitboard::flips_portable(
        player.0,
        opponent.0,
        usize::from(sq.index()),
    ))
}

#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    //! The AVX2 generator (x86-64 only): the four line directions of
    //! [`legal_moves`](super::legal_moves) in the four 64-bit lanes of one 256-bit register,
    //! and [`flips`](super::flips) as all eight rays at once.
    //!
    //! Its two generator functions carry
    //! `#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]` (the x86-64-v3 level, see
    //! [`FEATURES`]): a caller compiled with those features calls them safely and inline; any
    //! other caller checks [`available`] once and calls through `unsafe`. (They are the
    //! generator itself for callers outside the crate, not a portable body compiled twice, so
    //! the crate's one way to build a fast copy, `cpu::fast_copy!`, has nothing to do here.)
    //!
    //! ```
    //! use montello_engine::{Position, movegen};
    //!
    //! let start = Position::start();
    //! if movegen::avx2::available() {
    //!     // SAFETY: the CPU has the features, checked just above.
    //!     let fast = unsafe { movegen::avx2::legal_moves(start.player(), start.opponent()) };
    //!     assert_eq!(fast, start.flip_moves());
    //! }
    //! ```

    use crate::bitboard::avx2 as raw;
    use crate::{Bitboard, Square};

    pub use raw::{FEATURES, available};

    /// [`super::legal_moves`] on AVX2.
    ///
    /// # Safety
    ///
    /// The CPU must have [`FEATURES`] ([`available`]); callers compiled with them call it
    /// safely.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    pub fn legal_moves(player: Bitboard, opponent: Bitboard) -> Bitboard {
        Bitboard(raw::legal_moves(player.0, opponent.0))
    }

    /// [`super::flips`] on AVX2.
    ///
    /// # Safety
    ///
    /// The CPU must have [`FEATURES`] ([`available`]); callers compiled with them call it
    /// safely.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    pub fn flips(player: Bitboard, opponent: Bitboard, sq: Square) -> Bitboard {
        Bitboard(raw::flips(player.0, opponent.0, usize::from(sq.index())))
    }
}
