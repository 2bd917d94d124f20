//! Criterion benchmarks of the exact endgame and the alpha-beta player, on a handful of
//! seeded random endgames (the positions the solver's and alpha-beta's unit tests draw): the
//! public exact solve and the default search's root solve (the threshold `solve_empties` is
//! tuned from these) by number of empties, and alpha-beta to a fixed depth from the start and
//! from the middle game, and solving exactly. Short on purpose (ten samples, a few positions
//! each). Run with `cargo bench -p montello-engine --bench search`; figures go in
//! docs/benchmarks.md.

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};

use montello_engine::search::{
    AlphaBetaConfig, CancelHandle, MctsConfig, SearchLimits, Searcher, Strategy, solve,
};
use montello_engine::{Position, Variant, random_endgame};
use std::hint::black_box;
use std::time::Duration;

/// Four endgames of `empties` empties (seeds 1000..1004, as the timing runs had).
fn endgames(empties: u32) -> Vec<Position> {
    (1000..1004)
        .map(|seed| random_endgame(seed, empties))
        .collect()
}

/// A searcher whose first search has run, so that its table or pool is not what is timed.
fn warmed(searcher: Searcher) -> Searcher {
    let mut searcher = searcher;
    let _ = searcher.search(
        &Position::start(),
        Variant::Othello,
        &SearchLimits::iterations(1),
        &CancelHandle::new(),
    );
    searcher
}

/// The exact solver by empties: `search::solve` (the full window from the root), and the
/// default search's root solve (every move's win/draw/loss, then the best margins), four
/// positions per iteration.
fn solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact solve, 4 positions");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for empties in [12, 14, 16, 18] {
        let positions = endgames(empties);
        group.bench_with_input(
            BenchmarkId::new("search::solve", empties),
            &positions,
            |b, positions| {
                b.iter(|| {
                    for pos in positions {
                        black_box(solve(pos, Variant::Othello, 4 << 20, None, None));
                    }
                })
            },
        );
        let config = MctsConfig {
            solve_empties: 20,
            ..MctsConfig::default()
        };
        let limits = SearchLimits::time(Duration::from_secs(60));
        group.bench_with_input(
            BenchmarkId::new("default search's root solve", empties),
            &positions,
            |b, positions| {
                b.iter_batched(
                    // A fresh searcher each time: a kept tree would answer from memory.
                    || Searcher::new(Strategy::Default, 1).with_config(config),
                    |mut searcher| {
                        for pos in positions {
                            let r = searcher.search(
                                pos,
                                Variant::Othello,
                                &limits,
                                &CancelHandle::new(),
                            );
                            black_box(r.best);
                        }
                    },
                    BatchSize::PerIteration,
                )
            },
        );
    }
    group.finish();
}

/// Alpha-beta to a fixed depth from the start and from the middle game, and its exact solve
/// of whole endgames. A fresh searcher (table allocated beforehand) each time: a kept table
/// would answer from memory.
fn alphabeta(c: &mut Criterion) {
    let mut group = c.benchmark_group("alpha-beta");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    let mut positions = vec![("start".to_string(), Position::start())];
    for (seed, empties) in [(11, 50), (12, 44), (13, 36), (14, 28)] {
        positions.push((format!("{empties} empties"), random_endgame(seed, empties)));
    }
    let depth = AlphaBetaConfig {
        depth: Some(6),
        ..AlphaBetaConfig::default()
    };
    let limits = SearchLimits::time(Duration::from_secs(60));
    for (name, pos) in &positions {
        group.bench_with_input(BenchmarkId::new("depth 6", name), pos, |b, pos| {
            b.iter_batched(
                || warmed(Searcher::new(Strategy::AlphaBeta, 1).with_ab_config(depth)),
                |mut s| black_box(s.search(pos, Variant::Othello, &limits, &CancelHandle::new())),
                BatchSize::PerIteration,
            )
        });
    }
    let exact = AlphaBetaConfig {
        solve_empties: 64,
        ..AlphaBetaConfig::default()
    };
    for empties in [14, 16] {
        let positions = endgames(empties);
        group.bench_with_input(
            BenchmarkId::new("exact solve, 4 positions", empties),
            &positions,
            |b, positions| {
                b.iter_batched(
                    || warmed(Searcher::new(Strategy::AlphaBeta, 1).with_ab_config(exact)),
                    |mut s| {
                        for pos in positions {
                            let r = s.search(pos, Variant::Othello, &limits, &CancelHandle::new());
                            black_box(r.best);
                        }
                    },
                    BatchSize::PerIteration,
                )
            },
        );
    }
    group.finish();
}

criterion_group!(search, solver, alphabeta);
criterion_main!(search);
