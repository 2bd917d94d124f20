//! Criterion benchmarks of the pattern evaluation: one full evaluation (every pattern
//! instance, mobility, bias; with the phases' tables interpolated) and decoding the shipped weights. Run with
//! `cargo bench -p montello-engine --bench eval`; figures go in docs/eval.md.

use criterion::{Criterion, criterion_group, criterion_main};
use montello_engine::{Bitboard, FastRng, Position, eval};
use std::hint::black_box;

/// Positions from random games at every stage (seeded).
fn sample_positions() -> Vec<(Bitboard, Bitboard)> {
    let mut rng = FastRng::new(42);
    let mut positions = Vec::new();
    for _ in 0..64 {
        let mut pos = Position::start();
        while !pos.both_stuck() {
            let squares: Vec<_> = pos.flip_moves().squares().collect();
            pos = if squares.is_empty() {
                pos.pass()
            } else {
                pos.play_unchecked(squares[rng.below(squares.len() as u32) as usize])
            };
            positions.push((pos.player(), pos.opponent()));
        }
    }
    positions
}

fn benches(c: &mut Criterion) {
    let positions = sample_positions();
    let weights = eval::builtin();
    c.bench_function("evaluate (full, per position)", |b| {
        let mut i = 0;
        b.iter(|| {
            let (p, o) = positions[i % positions.len()];
            i += 1;
            black_box(weights.evaluate(black_box(p), black_box(o)))
        })
    });
    // The same tables read as points to interpolate between: most positions lie between
    // two phases' middles and sum two tables.
    let blended = eval::builtin().clone().with_interpolation(true);
    c.bench_function("evaluate (full, interpolated between phases)", |b| {
        let mut i = 0;
        b.iter(|| {
            let (p, o) = positions[i % positions.len()];
            i += 1;
            black_box(blended.evaluate(black_box(p), black_box(o)))
        })
    });
    c.bench_function("decode the shipped weights", |b| {
        b.iter(|| black_box(eval::decode_builtin()))
    });
}

criterion_group!(group, benches);
criterion_main!(group);
