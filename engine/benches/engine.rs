//! Criterion benchmarks of the engine's hot paths: move generation and flips (portable, and
//! AVX2 where the CPU has it), one random playout, and perft (on the best generator for this
//! CPU and on the portable one), and a fixed-iteration search of each Monte-Carlo strategy
//! (the random generator's users). Run with `cargo bench -p montello-engine`; figures go in
//! docs/benchmarks.md.

use criterion::{Criterion, criterion_group, criterion_main};
use montello_engine::movegen::{flips, legal_moves};
use montello_engine::perft::{perft, perft_portable};
use montello_engine::search::{CancelHandle, SearchLimits, Searcher, Strategy};
use montello_engine::{Bitboard, FastRng, Position, Square, Variant, random_playout};
use std::hint::black_box;

/// Positions from random games at every stage, so the measurements are not of the opening only.
fn sample_positions() -> Vec<Position> {
    let mut rng = FastRng::new(42);
    let mut positions = Vec::new();
    for _ in 0..64 {
        let mut pos = Position::start();
        loop {
            positions.push(pos);
            let moves = pos.flip_moves();
            if moves.is_empty() {
                if pos.both_stuck() {
                    break;
                }
                pos = pos.pass();
                continue;
            }
            let squares: Vec<_> = moves.squares().collect();
            pos = pos.play_unchecked(squares[rng.below(squares.len() as u32) as usize]);
        }
    }
    positions
}

fn benches(c: &mut Criterion) {
    let positions = sample_positions();
    let raw: Vec<(Bitboard, Bitboard)> = positions
        .iter()
        .map(|p| (p.player(), p.opponent()))
        .collect();
    c.bench_function("legal_moves (per position)", |b| {
        let mut i = 0;
        b.iter(|| {
            let (p, o) = raw[i % raw.len()];
            i += 1;
            black_box(legal_moves(black_box(p), black_box(o)))
        })
    });
    let plays: Vec<(Bitboard, Bitboard, Square)> = positions
        .iter()
        .flat_map(|p| {
            p.flip_moves()
                .squares()
                .map(move |sq| (p.player(), p.opponent(), sq))
        })
        .collect();
    c.bench_function("flips (per legal move)", |b| {
        let mut i = 0;
        b.iter(|| {
            let (p, o, sq) = plays[i % plays.len()];
            i += 1;
            black_box(flips(black_box(p), black_box(o), sq))
        })
    });
    #[cfg(target_arch = "x86_64")]
    if montello_engine::movegen::avx2::available() {
        use montello_engine::movegen::avx2;
        c.bench_function("legal_moves avx2 (per position)", |b| {
            let mut i = 0;
            b.iter(|| {
                let (p, o) = raw[i % raw.len()];
                i += 1;
                // SAFETY: the CPU has the features (checked above).
                black_box(unsafe { avx2::legal_moves(black_box(p), black_box(o)) })
            })
        });
        c.bench_function("flips avx2 (per legal move)", |b| {
            let mut i = 0;
            b.iter(|| {
                let (p, o, sq) = plays[i % plays.len()];
                i += 1;
                // SAFETY: the CPU has the features (checked above).
                black_box(unsafe { avx2::flips(black_box(p), black_box(o), sq) })
            })
        });
    }
    c.bench_function("random playout from the start", |b| {
        let mut rng = FastRng::new(1);
        let start = Position::start();
        b.iter(|| black_box(random_playout(&start, Variant::Othello, &mut rng)))
    });
    for strategy in [Strategy::Classic, Strategy::Default] {
        let name = format!("search 2000 iterations from the start, {}", strategy.name());
        c.bench_function(&name, |b| {
            let limits = SearchLimits::iterations(2_000);
            b.iter(|| {
                let mut searcher = Searcher::new(strategy, 1);
                let r = searcher.search(
                    &Position::start(),
                    Variant::Othello,
                    &limits,
                    &CancelHandle::new(),
                );
                black_box(r.best)
            })
        });
    }
    c.bench_function("perft(8) from the start", |b| {
        b.iter(|| black_box(perft(&Position::start(), black_box(8))))
    });
    c.bench_function("perft(8) from the start, portable generator", |b| {
        b.iter(|| black_box(perft_portable(&Position::start(), black_box(8))))
    });
}

criterion_group!(engine, benches);
criterion_main!(engine);
