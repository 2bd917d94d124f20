//! The move generators against each other and against the plain array reference: the portable
//! one bit for bit against the reference (`common/naive.rs`), AVX2 (where the CPU has it) bit
//! for bit against the portable one, on every position of seeded random games and on
//! arbitrary disjoint boards, and the public wrappers against the position's primitives.
//!
//! Integration tests rather than unit tests of bitboard.rs: the reference, the positions and
//! the random generator sit above the generator, and the modules point one way
//! (tests/layers.rs).

use montello_engine::movegen::{flips, flips_portable, legal_moves, legal_moves_portable};
use montello_engine::{Bitboard, FastRng, Position, random_square};

#[cfg(target_arch = "x86_64")]
use montello_engine::movegen::avx2;

#[path = "common/naive.rs"]
mod naive;

/// Reachable boards `(player, opponent)`: every position of 200 seeded random games.
fn game_positions() -> Vec<(Bitboard, Bitboard)> {
    let mut rng = FastRng::new(13);
    let mut out = Vec::new();
    for _ in 0..200 {
        let start = Position::start();
        let (mut p, mut o) = (start.player(), start.opponent());
        let mut passes = 0;
        while passes < 2 {
            out.push((p, o));
            let moves = legal_moves_portable(p, o);
            if moves.is_empty() {
                passes += 1;
            } else {
                passes = 0;
                let squares: Vec<_> = moves.squares().collect();
                let sq = squares[rng.below(squares.len() as u32) as usize];
                let f = flips_portable(p, o, sq);
                (p, o) = (p | f | sq.bit(), o & !f);
            }
            (p, o) = (o, p);
        }
    }
    out
}

#[test]
fn portable_matches_the_naive_reference() {
    for (p, o) in game_positions().into_iter().step_by(7) {
        let cells = naive::cells(p, o);
        let expected: u64 = naive::legal_moves(&cells).iter().map(|&i| 1u64 << i).sum();
        assert_eq!(legal_moves_portable(p, o), Bitboard(expected));
        for sq in (!(p | o)).squares() {
            let index = usize::from(sq.index());
            let expected: u64 = naive::flips(&cells, index).iter().map(|&i| 1u64 << i).sum();
            assert_eq!(flips_portable(p, o, sq), Bitboard(expected), "{sq}");
        }
    }
}

/// The fast path against the portable one, bit for bit, on one board: the legal moves, and
/// the flips of every empty square (legal or not).
#[cfg(target_arch = "x86_64")]
fn check_avx2(p: Bitboard, o: Bitboard) {
    if !avx2::available() {
        return;
    }
    // SAFETY (both calls): the CPU has the features, checked just above.
    let fast = unsafe { avx2::legal_moves(p, o) };
    assert_eq!(fast, legal_moves_portable(p, o), "moves of {p:?} {o:?}");
    for sq in (!(p | o)).squares() {
        let fast = unsafe { avx2::flips(p, o, sq) };
        assert_eq!(
            fast,
            flips_portable(p, o, sq),
            "flips at {sq} of {p:?} {o:?}"
        );
    }
}

#[test]
#[cfg(target_arch = "x86_64")]
fn avx2_matches_portable_on_game_positions() {
    for (p, o) in game_positions() {
        check_avx2(p, o);
        check_avx2(o, p);
    }
}

#[cfg(target_arch = "x86_64")]
proptest::proptest! {
    /// Any two disjoint disc sets, reachable or not: dense, sparse and edge-heavy boards.
    #[test]
    fn avx2_matches_portable_on_any_board(a: u64, b: u64, keep: u64) {
        check_avx2(Bitboard(a), Bitboard(b & !a));
        check_avx2(Bitboard(a & keep), Bitboard(b & !a & !keep));
        check_avx2(Bitboard(a | keep), Bitboard(b & !(a | keep)));
    }
}

/// The public wrappers are the raw generator and the position's primitives, on every position
/// of a few seeded games.
#[test]
fn the_generator_functions_agree_with_each_other_and_the_position() {
    let mut rng = FastRng::new(21);
    for _ in 0..20 {
        let mut pos = Position::start();
        while !pos.both_stuck() {
            let (p, o) = (pos.player(), pos.opponent());
            let moves = legal_moves(p, o);
            assert_eq!(moves, pos.flip_moves());
            assert_eq!(moves, legal_moves_portable(p, o));
            for sq in pos.empties() {
                let f = flips(p, o, sq);
                assert_eq!(f, flips_portable(p, o, sq), "{sq} in {pos:?}");
                assert_eq!(f, pos.flips(sq), "{sq} in {pos:?}");
                assert_eq!(f.is_empty(), !moves.contains(sq), "{sq} in {pos:?}");
                #[cfg(target_arch = "x86_64")]
                if avx2::available() {
                    // SAFETY: the CPU has the features, checked just above.
                    assert_eq!(unsafe { avx2::flips(p, o, sq) }, f);
                }
            }
            #[cfg(target_arch = "x86_64")]
            if avx2::available() {
                // SAFETY: the CPU has the features, checked just above.
                assert_eq!(unsafe { avx2::legal_moves(p, o) }, moves);
            }
            pos = if moves.is_empty() {
                pos.pass()
            } else {
                pos.play_unchecked(random_square(moves, &mut rng))
            };
        }
    }
}
