//! Multi-ProbCut's statistics, fitted by the project's own searches: positions from varied
//! games, each searched by the alpha-beta core (without ProbCut) at every depth up to a
//! maximum, then per game phase and deep depth a least-squares line from the shallow
//! search's value (the depth the alpha-beta search's `probcut` pairs with it) to the deep one and the
//! spread of what the line misses. The result is written as Rust (the committed
//! `engine/src/search/alphabeta/probcut_table.rs`); `montello-engine train probcut` runs it all.

use super::parallel_map;
use super::{flips, random_square_raw};
use montello_engine::eval::{PHASES, SCALE, Weights, phase};
use montello_engine::search::{
    FixedDepth, probcut_beyond_the_fit as beyond_the_fit, probcut_shallow_depth,
};
use montello_engine::{FastRng, Game, Square, Variant};
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
    let start = montello_engine::Position::start();
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
                let v = -w.evaluate(
                    montello_engine::Bitboard(o & !f),
                    montello_engine::Bitboard(p | f | sq.bit().0),
                ) + rng.below(4 * SCALE as u32 + 1) as i32
                    - 2 * SCALE;
                if v > best.0 {
                    best = (v, sq);
                }
            }
            best.1
        };
        let f = flips(p, o, sq);
        (p, o) = (o & !f, p | f | sq.bit().0);
        ply += 1;
    }
}

/// Position number `k` of the real games' sample set `seed` (#69): a game drawn from
/// `games`, and in it the first position with at most a drawn number of empty squares (12
/// to 58) where the side to move has a move. `None` when that game has none.
fn real_position(games: &[Game], seed: u64, k: u64) -> Option<(u64, u64)> {
    let mut rng = FastRng::new(seed ^ (k + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let game = &games[rng.below(games.len() as u32) as usize];
    let target = 12 + rng.below(47);
    let pos = game.positions().iter().find(|p| {
        p.empties().count() <= target
            && !Variant::Othello.must_pass(p)
            && !Variant::Othello.is_game_over(p)
    })?;
    Some((pos.player().0, pos.opponent().0))
}

/// Where the fit's positions come from.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// Games of the evaluation's own moves after a random opening ([`sample_position`]).
    SelfPlay(&'a Weights),
    /// Positions of real games ([`real_position`]; #69 fits to the WTHOR games up to 2016).
    Games(&'a [Game]),
}

/// How deep [`depth_values`] searches a position: every depth up to `max_depth`, and fewer
/// than its empty squares (a search that reaches the end is the solver's, not ProbCut's);
/// positions with more than `deep_empties` empty squares only up to `MID_DEPTH`, where a
/// search without ProbCut costs too much to repeat thousands of times. Searches deeper than
/// `full_width` cut with ProbCut themselves, at the confidence `selectivity` (tenths of a
/// standard deviation) and the statistics the engine was built with, so that the 14- to 21-ply
/// searches Master runs at 19-30 empty squares can be repeated thousands of times here.
/// Their values are the deep side of a row only: the shallow side (11 plies at most, up to
/// depth 23) is a full-width search when `full_width` is at least 11.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Depths {
    /// The deepest search fitted.
    pub max_depth: u32,
    /// The most empty squares a position searched deeper than [`MID_DEPTH`] has.
    pub deep_empties: u32,
    /// The deepest search without ProbCut.
    pub full_width: u32,
    /// ProbCut's confidence in the searches deeper than `full_width`, in tenths.
    pub selectivity: u32,
}

/// The depth every position is searched to (at most): the deepest of the first fits.
pub const MID_DEPTH: u32 = 10;

impl Depths {
    /// The deepest search of a position with `empties` empty squares.
    pub fn for_empties(self, empties: u32) -> u32 {
        let cap = if empties <= self.deep_empties {
            self.max_depth
        } else {
            self.max_depth.min(MID_DEPTH)
        };
        cap.min(empties.saturating_sub(1))
    }
}

/// Positions `0..n` of sample set `seed` from `source`, each searched at every depth that
/// `depths` gives it with `w` at the leaves, `threads` at a time (the result does not depend
/// on `threads`: each position has its own tables).
pub fn depth_values(
    w: &Weights,
    source: Source<'_>,
    seed: u64,
    n: usize,
    depths: Depths,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<DepthValues> {
    parallel_map(n, threads, |k| {
        let (p, o) = match source {
            Source::SelfPlay(player) => sample_position(player, seed, k as u64)?,
            Source::Games(games) => real_position(games, seed, k as u64)?,
        };
        let empties = (!(p | o)).count_ones();
        let mut search = FixedDepth::new(w, Variant::Othello, 8 << 20, 0);
        // Its own table: a selective search's bounds are not a full-width one's.
        let mut selective = None;
        let mut values =
            vec![w.evaluate(montello_engine::Bitboard(p), montello_engine::Bitboard(o))];
        for d in 1..=depths.for_empties(empties) {
            values.push(if d <= depths.full_width {
                search.value(p, o, d)
            } else {
                selective
                    .get_or_insert_with(|| {
                        FixedDepth::new(w, Variant::Othello, 16 << 20, depths.selectivity)
                    })
                    .value(p, o, d)
            });
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

/// The least-squares rows per phase and deep depth `MIN_DEPTH..=max_depth`. A row deeper
/// than [`MID_DEPTH`] with too few positions (a phase whose positions were not searched that
/// deep: [`Depths`]) is the search's own guess beyond a fit, the deepest fitted row of its
/// parity with the spread grown (`probcut::beyond_the_fit`), so that the table cuts there as
/// it did before it was that deep.
pub fn fit(samples: &[DepthValues], max_depth: u32) -> Vec<Vec<Row>> {
    (0..PHASES)
        .map(|ph| {
            let mut rows: Vec<Row> = (MIN_DEPTH..=max_depth)
                .map(|d| {
                    let s = probcut_shallow_depth(d) as usize;
                    let pairs: Vec<(f64, f64)> = samples
                        .iter()
                        .filter(|x| phase(x.empties) == ph && x.values.len() > d as usize)
                        .map(|x| (f64::from(x.values[s]), f64::from(x.values[d as usize])))
                        .collect();
                    line(&pairs)
                })
                .collect();
            for d in MID_DEPTH + 1..=max_depth {
                let k = (d - MIN_DEPTH) as usize;
                if rows[k].n >= MIN_POSITIONS {
                    continue;
                }
                // The deepest fitted depth of this parity, and the one two below it.
                let top = (MIN_DEPTH..d)
                    .rev()
                    .skip(1)
                    .step_by(2)
                    .find(|&t| rows[(t - MIN_DEPTH) as usize].n >= MIN_POSITIONS);
                let Some(top) = top.filter(|&t| t >= MIN_DEPTH + 2) else {
                    continue;
                };
                let (r, below) = (
                    rows[(top - MIN_DEPTH) as usize],
                    rows[(top - 2 - MIN_DEPTH) as usize],
                );
                rows[k] = Row {
                    sigma: beyond_the_fit(r.sigma, below.sigma, d - top),
                    n: 0,
                    ..r
                };
            }
            rows
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
    use montello_engine::Position;

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
        let w = montello_engine::eval::builtin();
        let depths = Depths {
            max_depth: 4,
            deep_empties: 60,
            full_width: 60,
            selectivity: 0,
        };
        let a = depth_values(w, Source::SelfPlay(w), 5, 6, depths, 2, &|_| {});
        let b = depth_values(w, Source::SelfPlay(w), 5, 6, depths, 1, &|_| {});
        assert_eq!(a, b, "the thread count changes nothing");
        assert!(!a.is_empty());
        for x in &a {
            assert_eq!(x.values.len() as u32, 5.min(x.empties), "{x:?}");
            assert!((12..=58).contains(&x.empties), "{x:?}");
        }
    }

    #[test]
    fn deeper_than_full_width_the_values_are_a_selective_search_s() {
        let w = montello_engine::eval::builtin();
        let depths = Depths {
            max_depth: 7,
            deep_empties: 60,
            full_width: 4,
            // A tenth of a standard deviation: it cuts often, so the values must differ.
            selectivity: 1,
        };
        let values = depth_values(w, Source::SelfPlay(w), 11, 12, depths, 2, &|_| {});
        let mut differ = 0;
        let mut k = 0;
        for x in &values {
            // The position behind `x` (a game that ended first gave none).
            let (p, o) = loop {
                let found = sample_position(w, 11, k);
                k += 1;
                if let Some(found) = found {
                    break found;
                }
            };
            assert_eq!((!(p | o)).count_ones(), x.empties);
            let mut full = FixedDepth::new(w, Variant::Othello, 8 << 20, 0);
            let mut selective = FixedDepth::new(w, Variant::Othello, 16 << 20, 1);
            for d in 1..=7u32.min(x.empties - 1) {
                let wide = full.value(p, o, d);
                if d <= 4 {
                    assert_eq!(x.values[d as usize], wide, "depth {d}: full width");
                } else {
                    let cut = selective.value(p, o, d);
                    assert_eq!(x.values[d as usize], cut, "depth {d}: selective");
                    differ += usize::from(cut != wide);
                }
            }
        }
        assert!(
            differ > 0,
            "the selective searches cut nothing in {values:?}"
        );
    }

    #[test]
    fn real_positions_come_from_the_games_and_deep_searches_only_late() {
        let w = montello_engine::eval::builtin();
        // Two games of random moves to their end.
        let games: Vec<Game> = (0..2)
            .map(|seed| {
                let mut rng = FastRng::new(seed);
                let mut game = Game::new(Variant::Othello);
                while !game.is_over() {
                    let moves = game.moves();
                    let m = moves[rng.below(moves.len() as u32) as usize];
                    game.play(m).unwrap();
                }
                game
            })
            .collect();
        let depths = Depths {
            max_depth: 12,
            deep_empties: 14,
            full_width: 12,
            selectivity: 0,
        };
        let values = depth_values(w, Source::Games(&games), 3, 8, depths, 2, &|_| {});
        assert_eq!(values.len(), 8, "every drawn position exists");
        let all: Vec<Position> = games.iter().flat_map(|g| g.positions().to_vec()).collect();
        for x in &values {
            assert!((12..=58).contains(&x.empties), "{x:?}");
            let deepest = if x.empties <= 14 { 12 } else { MID_DEPTH };
            assert_eq!(
                x.values.len() as u32,
                deepest.min(x.empties - 1) + 1,
                "{x:?}"
            );
            assert!(
                all.iter().any(|p| p.empties().count() == x.empties
                    && x.values[0] == w.evaluate(p.player(), p.opponent())),
                "a position of the games: {x:?}"
            );
        }
        let again = depth_values(w, Source::Games(&games), 3, 8, depths, 1, &|_| {});
        assert_eq!(values, again, "seeded");
    }

    #[test]
    fn deep_rows_without_positions_are_the_search_s_own_guess_beyond_the_fit() {
        // Phase 2's positions (11-15 empties) searched to 12 plies, phase 9's (46-50) only
        // to MID_DEPTH: phase 9's rows 11 and 12 are extrapolated from 9 and 10 (and 7, 8).
        let mut samples = Vec::new();
        for i in 0..60i32 {
            let v = |d: i32| i * 10 + d * (i % 7) - 30;
            samples.push(DepthValues {
                empties: 13,
                values: (0..=12).map(v).collect(),
            });
            samples.push(DepthValues {
                empties: 48,
                values: (0..=MID_DEPTH as i32).map(|d| v(d) + (i % 5) * d).collect(),
            });
        }
        let rows = fit(&samples, 12);
        let at = |ph: usize, d: u32| rows[ph][(d - MIN_DEPTH) as usize];
        assert!(at(2, 12).n >= MIN_POSITIONS && at(2, 11).n >= MIN_POSITIONS);
        for d in [11, 12] {
            let (r, top, below) = (at(9, d), at(9, d - 2), at(9, d - 4));
            assert_eq!(r.n, 0, "depth {d}: extrapolated");
            assert_eq!((r.a, r.b), (top.a, top.b), "depth {d}");
            assert_eq!(
                r.sigma,
                beyond_the_fit(top.sigma, below.sigma, 2),
                "depth {d}"
            );
            assert!(r.sigma >= top.sigma && r.sigma > 0.0, "depth {d}: {r:?}");
        }
        assert_eq!(
            at(0, 12).sigma,
            0.0,
            "a phase without positions stays without a cut"
        );
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
