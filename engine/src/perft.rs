//! Perft: counting the leaves of the game tree to a fixed depth, the classic check that a move
//! generator is right (and a measure of its speed).
//!
//! Convention: a pass counts as a ply. A finished game (neither side can move) reached before
//! the last ply counts as **one leaf** and is not expanded further. This gives the widely
//! published counts 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800,
//! ... (the other published table, which counts only positions at exactly the full depth,
//! drops finished games; the two first differ at depth 10).

use crate::bitboard::{flips_in, legal_moves_in};
use crate::clock::Instant;
use crate::cpu::{self, fast_copy};
use crate::{FastRng, Position, Variant, random_playout, random_square};
use std::time::Duration;

/// The number of leaves `depth` plies below `pos` under the standard rules.
///
/// Runs the AVX2 generator where the CPU has it (checked once here), the portable one
/// elsewhere; both give the same counts (see the tests).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_raw(pos.player().0, pos.opponent().0, depth, false)
}

/// [`perft`] on the portable generator whatever the CPU: the reference for the fast paths.
pub fn perft_portable(pos: &Position, depth: u32) -> u64 {
    perft_in::<false>(pos.player().0, pos.opponent().0, depth, false)
}

/// The move generator [`perft`] runs on this CPU: `"avx2"` or `"portable"`.
pub fn generator() -> &'static str {
    if cpu::fast() {
        return "avx2";
    }
    "portable"
}

/// Dispatches once per call to the best generator this CPU runs.
fn perft_raw(p: u64, o: u64, depth: u32, passed: bool) -> u64 {
    if cpu::fast() {
        perft_in::<true>(p, o, depth, passed)
    } else {
        perft_in::<false>(p, o, depth, passed)
    }
}

fast_copy!(fn perft_in(p: u64, o: u64, depth: u32, passed: bool) -> u64 = perft_body, perft_fast_copy, perft_portable_copy);

/// The recursive perft in the copy `FAST` names ([`crate::cpu::fast_copy!`]): the AVX2
/// generator inlined into the fast copy, the portable one into the other.
///
/// The last two plies are counted in bulk: one ply above the leaves, each move's leaves are
/// the popcount of the child's legal moves (or one if the child has none: it passes, or the
/// game ended there), so the leaves themselves are never made.
#[inline(always)]
fn perft_body<const FAST: bool>(p: u64, o: u64, depth: u32, passed: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves_in::<FAST>(p, o);
    if moves == 0 {
        if passed || depth == 1 {
            // Neither side can move: the game ended here; it is one leaf. Or the pass is the
            // last ply, whose one leaf is the position after it.
            return 1;
        }
        return perft_in::<FAST>(o, p, depth - 1, true);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    let mut m = moves;
    if depth == 2 {
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips_in::<FAST>(p, o, sq);
            let next = legal_moves_in::<FAST>(o & !f, p | f | (1u64 << sq));
            total += if next == 0 {
                1
            } else {
                u64::from(next.count_ones())
            };
        }
        return total;
    }
    while m != 0 {
        let sq = m.trailing_zeros() as usize;
        m &= m - 1;
        let f = flips_in::<FAST>(p, o, sq);
        total += perft_in::<FAST>(o & !f, p | f | (1u64 << sq), depth - 1, false);
    }
    total
}

/// Perft split by first move (`--divide`): each legal first move (or the pass) and its count.
pub fn divide(pos: &Position, depth: u32) -> Vec<(crate::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.flip_moves();
    if moves.is_empty() {
        if pos.both_stuck() {
            return Vec::new();
        }
        return vec![(
            crate::Move::Pass,
            perft_raw(pos.opponent().0, pos.player().0, depth - 1, true),
        )];
    }
    moves
        .squares()
        .map(|sq| {
            let next = pos.play_unchecked(sq);
            (
                crate::Move::Play(sq),
                perft_raw(next.player().0, next.opponent().0, depth - 1, false),
            )
        })
        .collect()
}

/// How fast the engine's inner loops run here ([`measure_speed`]): the CLI's `bench` and the
/// browser's worker print the same figures.
#[derive(Clone, Debug)]
pub struct Speed {
    /// Leaves of the perft from the start.
    pub perft_leaves: u64,
    /// Its time.
    pub perft_time: Duration,
    /// Random playouts from the start.
    pub playouts: u64,
    /// Their time.
    pub playout_time: Duration,
    /// Pattern evaluations of positions from seeded random games.
    pub evaluations: u64,
    /// Their time.
    pub eval_time: Duration,
}

/// Runs a perft of `perft_depth` from the start, then random playouts and evaluations for
/// `seconds` each, on this thread.
pub fn measure_speed(seconds: f64, perft_depth: u32) -> Speed {
    let start = Instant::now();
    let perft_leaves = perft(&Position::start(), perft_depth);
    let perft_time = start.elapsed();

    let mut rng = FastRng::new(0x5eed);
    let pos = Position::start();
    let budget = Duration::from_secs_f64(seconds.max(0.01));
    let mut playouts = 0u64;
    let mut checksum = 0i64;
    let start = Instant::now();
    while start.elapsed() < budget {
        for _ in 0..1000 {
            checksum += i64::from(random_playout(&pos, Variant::Othello, &mut rng).margin);
        }
        playouts += 1000;
    }
    let playout_time = start.elapsed();
    std::hint::black_box(checksum);

    // Full evaluations of positions from seeded random games at every stage.
    let weights = crate::eval::builtin();
    let mut sample = Vec::with_capacity(4096);
    while sample.len() < 4096 {
        let mut pos = Position::start();
        while !pos.both_stuck() {
            let moves = pos.flip_moves();
            pos = if moves.is_empty() {
                pos.pass()
            } else {
                pos.play_unchecked(random_square(moves, &mut rng))
            };
            sample.push((pos.player(), pos.opponent()));
        }
    }
    let mut evaluations = 0u64;
    let start = Instant::now();
    while start.elapsed() < budget {
        for &(p, o) in &sample {
            checksum += i64::from(weights.evaluate(p, o));
        }
        evaluations += sample.len() as u64;
    }
    let eval_time = start.elapsed();
    std::hint::black_box(checksum);
    Speed {
        perft_leaves,
        perft_time,
        playouts,
        playout_time,
        evaluations,
        eval_time,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_counts_to_depth_8() {
        let expected = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216];
        for (depth, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&Position::start(), depth as u32), n, "depth {depth}");
        }
    }

    /// The dispatched perft (AVX2 where the CPU has it) against the portable one, from the
    /// start and from positions along a seeded game.
    #[test]
    fn fast_perft_matches_portable_perft() {
        assert_eq!(perft(&Position::start(), 9), 3_005_288);
        assert_eq!(perft_portable(&Position::start(), 9), 3_005_288);
        let mut rng = crate::FastRng::new(7);
        let mut pos = Position::start();
        for ply in 0..60 {
            let depth = if ply < 20 { 4 } else { 6 };
            assert_eq!(perft(&pos, depth), perft_portable(&pos, depth), "ply {ply}");
            let moves: Vec<_> = pos.flip_moves().squares().collect();
            if moves.is_empty() {
                if pos.both_stuck() {
                    break;
                }
                pos = pos.pass();
            } else {
                pos = pos.play_unchecked(moves[rng.below(moves.len() as u32) as usize]);
            }
        }
    }

    #[test]
    fn divide_sums_to_perft() {
        let d = divide(&Position::start(), 5);
        assert_eq!(d.len(), 4);
        assert_eq!(
            d.iter().map(|(_, n)| n).sum::<u64>(),
            perft(&Position::start(), 5)
        );
    }
}
