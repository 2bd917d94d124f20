//! Multi-ProbCut's statistics, fitted by the project's own searches: positions from varied
//! games, each searched by the alpha-beta core (without ProbCut) at every depth up to a
//! maximum, then per game phase and deep depth a least-squares line from the shallow
//! search's value (the depth the alpha-beta search's `probcut` pairs with it) to the deep one and the
//! spread of what the line misses. The result is written as Rust (the committed
//! `engine/src/search/alphabeta/probcut_table.rs`); `montello-engine train probcut` runs it all.

use super::parallel_map;
use crate::bitboard::flips;
use crate::eval::{PHASES, SCALE, Weights, phase};
use crate::playout::random_square_raw;
use crate::search::{FixedDepth, probcut_shallow_depth};
use crate::{FastRng, Square, Variant};
use std::fmt::Write as _;

/// The deep depths the fit covers (what `probcut_table.rs` holds).
pub const MIN_DEPTH: u32 = 3;

/// One sampled position's values: `values[d]` is the `d`-ply search's (`values[0]` the
/// evaluation), in evaluation units for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthValues {
    /// The position's empty squares.
    pub empties: u32,
    /// The value at each depth from 0 (the evaluation).
    pub values: Vec<i32>,
}

/// Position number `k` of the sample set `seed`: a game of random moves for 2 to 16 plies,
/// then moves chosen by the evaluation after the move with about two discs of noise, up to
/// a drawn number of empty squares (12 to 58): the fit sees every phase about equally.
/// `None` when that game ended first.
fn sample_position(w: &Weights, seed: u64, k: u64) -> Option<(u64, u64)> {
    let mut rng = FastRng::new(seed ^ (k + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let target = 12 + rng.below(47);
    let opening = 2 + rng.below(15);
    let start = crate::Position::start();
    let (mut p, mut o) = (start.player().0, start.opponent().0);
    let mut ply = 0;
    loop {
        let (moves, _) = Variant::Othello.next_moves(&mut p, &mut o)?;
        if (!(p | o)).count_ones() <= target {
            return Some((p, o));
        }
        let sq = if ply < opening {
            random_square_raw(moves, &mut rng)
        } else {
            let mut best = (i32::MIN, Square::ALL[moves.trailing_zeros() as usize]);
            let mut m = moves;
            while m != 0 {
                let sq = Square::ALL[m.trailing_zeros() as usize];
                m &= m - 1;
                let f = flips(p, o, sq);
                let v = -w.evaluate(crate::Bitboard(o & !f), crate::Bitboard(p | f | sq.mask()))
                    + rng.below(4 * SCALE as u32 + 1) as i32
                    - 2 * SCALE;
                if v > best.0 {
                    best = (v, sq);
                }
            }
            best.1
        };
        let f = flips(p, o, sq);
        (p, o) = (o & !f, p | f | sq.mask());
        ply += 1;
    }
}

/// Positions `0..n` of sample set `seed`, each searched at every depth up to `max_depth`
/// (and fewer than its empty squares) with `w` at the leaves, `threads` at a time (the
/// result does not depend on `threads`: each position has its own table).
pub fn depth_values(
    w: &Weights,
    seed: u64,
    n: usize,
    max_depth: u32,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<DepthValues> {
    parallel_map(n, threads, |k| {
        let (p, o) = sample_position(w, seed, k as u64)?;
        let empties = (!(p | o)).count_ones();
        let mut search = FixedDepth::new(w, Variant::Othello, 8 << 20, 0);
        let mut values = vec![w.evaluate(crate::Bitboard(p), crate::Bitboard(o))];
        for d in 1..=max_depth.min(empties - 1) {
            values.push(search.value(p, o, d));
        }
        progress(k);
        Some(DepthValues { empties, values })
    })
    .into_iter()
    .flatten()
    .collect()
}

/// One fitted row: `deep ≈ a · shallow + b`, residual standard deviation `sigma`, from `n`
/// positions (`sigma` 0 when too few to fit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    /// The slope.
    pub a: f32,
    /// The intercept, in evaluation units.
    pub b: f32,
    /// The residual's standard deviation, in evaluation units.
    pub sigma: f32,
    /// Positions behind the row.
    pub n: usize,
}

/// Fewer positions than this in a phase and depth: no row (no cut there).
const MIN_POSITIONS: usize = 30;

/// The least-squares rows per phase and deep depth `MIN_DEPTH..=max_depth`.
pub fn fit(samples: &[DepthValues], max_depth: u32) -> Vec<Vec<Row>> {
    (0..PHASES)
        .map(|ph| {
            (MIN_DEPTH..=max_depth)
                .map(|d| {
                    let s = probcut_shallow_depth(d) as usize;
                    let pairs: Vec<(f64, f64)> = samples
                        .iter()
                        .filter(|x| phase(x.empties) == ph && x.values.len() > d as usize)
                        .map(|x| (f64::from(x.values[s]), f64::from(x.values[d as usize])))
                        .collect();
                    line(&pairs)
                })
                .collect()
        })
        .collect()
}

/// The least-squares line through `pairs` and its residual spread.
fn line(pairs: &[(f64, f64)]) -> Row {
    let n = pairs.len();
    let none = Row {
        a: 1.0,
        b: 0.0,
        sigma: 0.0,
        n,
    };
    if n < MIN_POSITIONS {
        return none;
    }
    let nf = n as f64;
    let (mx, my) = pairs
        .iter()
        .fold((0.0, 0.0), |(x, y), &(a, b)| (x + a / nf, y + b / nf));
    let sxx: f64 = pairs.iter().map(|&(x, _)| (x - mx) * (x - mx)).sum();
    let sxy: f64 = pairs.iter().map(|&(x, y)| (x - mx) * (y - my)).sum();
    if sxx <= 0.0 {
        return none;
    }
    let a = sxy / sxx;
    let b = my - a * mx;
    let rss: f64 = pairs
        .iter()
        .map(|&(x, y)| (y - a * x - b) * (y - a * x - b))
        .sum();
    Row {
        a: a as f32,
        b: b as f32,
        sigma: (rss / (nf - 2.0)).sqrt() as f32,
        n,
    }
}

/// The rows as the Rust source of `probcut_table.rs`, with `provenance` (the command that
/// made it) in its header.
pub fn to_rust(rows: &[Vec<Row>], max_depth: u32, provenance: &str) -> String {
    let depths = (max_depth - MIN_DEPTH + 1) as usize;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "//! Multi-ProbCut's statistics (see `probcut.rs`), written by\n//! `{provenance}`;\n//! do not edit: run it again (docs/ai.md).\n//!\n//! Per game phase (`eval::phase`), per deep depth from `FIT_MIN_DEPTH`: `[a, b, sigma]`,\n//! `deep ≈ a · shallow + b` in evaluation units, residual standard deviation `sigma`\n//! (0: too few positions, no cut). The comment after each row: positions per depth.\n"
    );
    let _ = writeln!(s, "pub(crate) const FIT_MIN_DEPTH: u32 = {MIN_DEPTH};");
    let _ = writeln!(s, "pub(crate) const FIT_MAX_DEPTH: u32 = {max_depth};\n");
    let _ = writeln!(
        s,
        "#[rustfmt::skip]\npub(super) const TABLE: [[[f32; 3]; {depths}]; {PHASES}] = ["
    );
    for (ph, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .map(|r| format!("[{:.4}, {:.1}, {:.1}]", r.a, r.b, r.sigma))
            .collect();
        let counts: Vec<String> = row.iter().map(|r| r.n.to_string()).collect();
        let _ = writeln!(
            s,
            "    // phase {ph} ({}-{} empties): {}\n    [{}],",
            ph * 5 + 1,
            ph * 5 + 5,
            counts.join(" "),
            cells.join(", ")
        );
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_recovers_a_known_relation() {
        // deep = 0.9 * shallow + 20, with a residual of +-50: sigma 50.
        let pairs: Vec<(f64, f64)> = (0..200)
            .map(|i| {
                let x = f64::from(i * 7 % 300 - 150);
                let e = if i % 2 == 0 { 50.0 } else { -50.0 };
                (x, 0.9 * x + 20.0 + e)
            })
            .collect();
        let r = line(&pairs);
        assert!((r.a - 0.9).abs() < 0.02, "{r:?}");
        assert!((r.b - 20.0).abs() < 3.0, "{r:?}");
        assert!((r.sigma - 50.0).abs() < 2.0, "{r:?}");
        assert_eq!(line(&pairs[..10]).sigma, 0.0, "too few positions: no row");
    }

    #[test]
    fn sampled_values_are_seeded_and_cover_the_depths() {
        let w = crate::eval::builtin();
        let a = depth_values(w, 5, 6, 4, 2, &|_| {});
        let b = depth_values(w, 5, 6, 4, 1, &|_| {});
        assert_eq!(a, b, "the thread count changes nothing");
        assert!(!a.is_empty());
        for x in &a {
            assert_eq!(x.values.len() as u32, 5.min(x.empties), "{x:?}");
            assert!((12..=58).contains(&x.empties), "{x:?}");
        }
    }

    #[test]
    fn the_table_source_has_every_row() {
        let rows = vec![
            vec![
                Row {
                    a: 1.0,
                    b: 0.0,
                    sigma: 60.0,
                    n: 40
                };
                2
            ];
            PHASES
        ];
        let src = to_rust(&rows, MIN_DEPTH + 1, "test");
        assert_eq!(src.matches("[1.0000, 0.0, 60.0]").count(), 2 * PHASES);
        assert!(src.contains("FIT_MAX_DEPTH: u32 = 4;"));
    }
}
