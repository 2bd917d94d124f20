//! The alpha-beta search's transposition table takes only the memory its entries fill: the
//! default table is 128 MiB (the memory cap Master's endgame search runs under), reserved on
//! the first store but written only where entries land, so a short search leaves the
//! process's resident memory far below the table's size. (The table used to be filled entry by
//! entry on its first store: the whole 128 MiB resident at once, on a phone too.)
//!
//! An integration test of its own: one test in its own process, so no other test's memory is
//! counted. Linux's /proc says what is resident.

#![cfg(target_os = "linux")]

use montello_engine::search::{CancelHandle, SearchLimits, Searcher, Strategy};
use montello_engine::{Position, Variant, random_endgame};

/// The process's resident memory, from /proc/self/statm (pages; 4 KiB where this runs).
fn resident_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: usize = statm
        .split_whitespace()
        .nth(1)
        .and_then(|w| w.parse().ok())
        .expect("the resident field of /proc/self/statm");
    pages * 4096
}

#[test]
fn a_short_search_takes_only_the_table_memory_it_fills() {
    let pos: Position = random_endgame(7, 30);
    let mut searcher = Searcher::new(Strategy::AlphaBeta, 1);
    let before = resident_bytes();
    // About 2,000 nodes: at most that many stores, each on at most one fresh page.
    let r = searcher.search(
        &pos,
        Variant::Othello,
        &SearchLimits::iterations(2_000),
        &CancelHandle::new(),
    );
    let grown = resident_bytes().saturating_sub(before);
    assert!(r.best.is_some());
    assert!(r.nodes > 0, "the search stored entries");
    assert!(
        r.memory >= 64 << 20,
        "the default table: {} bytes",
        r.memory
    );
    assert!(
        grown < 32 << 20,
        "a search of {} stored entries made {} MiB resident (its table {} MiB)",
        r.nodes,
        grown >> 20,
        r.memory >> 20
    );
}
