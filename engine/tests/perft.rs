//! Perft from the start position against the published counts in `tests/data/perft.txt`,
//! and against the plain array reference (`common/naive.rs`).
//!
//! The quick depths run always; `cargo test -p montello-engine --release -- --ignored` runs
//! every depth up to `MONTELLO_PERFT_MAX` (default 12; 13 takes about a minute).

use montello_engine::Position;
use montello_engine::perft::perft;

#[path = "common/naive.rs"]
mod naive;

fn published() -> Vec<(u32, u64)> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split_whitespace();
            let depth = parts.next().and_then(|d| d.parse().ok());
            let count = parts.next().and_then(|c| c.parse().ok());
            match (depth, count) {
                (Some(d), Some(c)) => (d, c),
                _ => panic!("bad line in perft.txt: {l:?}"),
            }
        })
        .collect()
}

#[test]
fn perft_data_file_is_complete() {
    let data = published();
    assert_eq!(data.len(), 14);
    assert!(
        data.iter()
            .enumerate()
            .all(|(i, &(d, _))| d == i as u32 + 1)
    );
}

#[test]
fn perft_matches_published_counts_to_depth_9() {
    for (depth, count) in published().into_iter().filter(|&(d, _)| d <= 9) {
        assert_eq!(perft(&Position::start(), depth), count, "perft({depth})");
    }
}

#[test]
#[ignore = "deep perft: minutes in a debug build; run with --release -- --ignored"]
fn perft_matches_published_counts_deep() {
    let max: u32 = std::env::var("MONTELLO_PERFT_MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    for (depth, count) in published().into_iter().filter(|&(d, _)| d > 9 && d <= max) {
        assert_eq!(perft(&Position::start(), depth), count, "perft({depth})");
    }
}

#[test]
fn fast_perft_matches_the_naive_reference() {
    let start = Position::start();
    let cells = naive::cells(start.player(), start.opponent());
    for depth in 0..=6 {
        assert_eq!(
            perft(&start, depth),
            naive::perft(&cells, depth, false),
            "depth {depth}"
        );
    }
}
