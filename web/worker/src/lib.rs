//! Montello's engine in a Web Worker (web/worker.js loads it): the browser build's AI moves,
//! hints and post-game analysis run here, so the page never blocks a frame for a search. The
//! page sends [`wire::Request`] lines and gets [`wire::Reply`] lines back; the searchers are
//! kept here between moves in the slots the page names, as the native app keeps them.
//!
//! A search cannot be interrupted by a message (the worker runs it to its cap): the page
//! cancels by terminating the worker and starting a new one, which starts with empty slots.
//!
//! One searcher at a time: a WebAssembly memory never shrinks, so two searchers' trees side by
//! side (the AI's and a hint's, or both sides' in a game between two AIs) would hold their sum
//! for the page's life. Before a search in one slot the others are emptied ([`keep_only`]):
//! their trees go back to the allocator, which the next tree reuses. The review and the moves'
//! values, which make a table of their own (16 MiB, a phone's 8), empty every slot first, so
//! that table too takes the place of a tree instead of adding to it ([`kept_slots`]). What it
//! costs: the other slots' tree reuse for their next search (docs/web.md, "Memory").

use montello_engine::search::{CancelHandle, Searcher};
use montello_engine::wire::{Reply, Request};
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;

thread_local! {
    static SLOTS: RefCell<Vec<Option<Searcher>>> = const { RefCell::new(Vec::new()) };
    static JOB: Cell<u32> = const { Cell::new(0) };
}

#[wasm_bindgen]
extern "C" {
    /// web/worker.js's `montelloProgress(job, iterations)`: posts a progress line to the
    /// page, at most every 100 ms.
    #[wasm_bindgen(js_name = montelloProgress)]
    fn post_progress(job: u32, iterations: f64);
}

fn report(iterations: u64) {
    #[cfg(target_family = "wasm")]
    post_progress(JOB.get(), iterations as f64);
    #[cfg(not(target_family = "wasm"))]
    let _ = iterations;
}

/// Runs one request line and returns the reply line.
///
/// # Errors
/// A line that is not a request, with the word that is wrong and why.
#[wasm_bindgen]
pub fn handle(line: &str) -> Result<String, String> {
    let request = Request::parse(line).map_err(|e| format!("not a request ({e}): {line}"))?;
    JOB.set(request.job());
    let cancel = CancelHandle::observed(report);
    let reply: Reply = SLOTS.with_borrow_mut(|slots| {
        match kept_slots(&request) {
            Kept::All => {}
            Kept::Only(slot) => keep_only(slots, Some(slot)),
            Kept::None => keep_only(slots, None),
        }
        request.run(slots, &cancel)
    });
    Ok(reply.to_string())
}

/// Which searchers a request leaves in their slots.
enum Kept {
    /// All of them: the analysis and the estimate, whose memory is small.
    All,
    /// That slot's only: a search keeps its own.
    Only(usize),
    /// None: the review and the values, each with a table of its own (16 MiB, a phone's 8).
    None,
}

fn kept_slots(request: &Request) -> Kept {
    match request {
        Request::Search { slot, .. } => Kept::Only(usize::from(*slot)),
        Request::Review { .. } | Request::Values { .. } => Kept::None,
        Request::Analyse { .. } | Request::Estimate { .. } => Kept::All,
    }
}

/// Empties every slot but `slot` (every one for `None`): one searcher's tree in memory at a
/// time (see the module's docs).
fn keep_only(slots: &mut [Option<Searcher>], slot: Option<usize>) {
    for (i, kept) in slots.iter_mut().enumerate() {
        if Some(i) != slot {
            *kept = None;
        }
    }
}

/// The engine's speed in this worker, as the CLI's `montello-engine bench` measures it
/// natively: `playouts/s evaluations/s perft-leaves/s tree-iterations/s` (Master's tree
/// search, the figure closest to the AI's own speed).
#[wasm_bindgen]
pub fn bench(seconds: f64) -> String {
    let s = montello_engine::perft::measure_speed(seconds, 8);
    let (tree_iterations, tree_time) = montello_engine::search::tree_speed(seconds);
    let rate = |n: u64, t: std::time::Duration| n as f64 / t.as_secs_f64().max(1e-9);
    format!(
        "{:.0} {:.0} {:.0} {:.0}",
        rate(s.playouts, s.playout_time),
        rate(s.evaluations, s.eval_time),
        rate(s.perft_leaves, s.perft_time),
        rate(tree_iterations, tree_time)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_line_gets_its_reply_line_and_a_bad_one_an_error() {
        let reply = handle("search 3 1 0 plain:7 810000000:1008000000:b othello -:-:300:67108864");
        assert!(reply.is_err(), "too many limit fields: {reply:?}");
        let line = "search 3 1 0 plain:7 810000000:1008000000:b othello -:300:67108864";
        let reply = handle(line).expect("a good request");
        match Reply::parse(&reply).expect("a reply line") {
            Reply::Searched { job, result } => {
                assert_eq!(job, 3);
                assert_eq!(result.iterations, 300);
                assert!(result.best.is_some());
            }
            other => panic!("{other:?}"),
        }
        let error = handle("search 3 1 0 plain:7").expect_err("cut short");
        assert!(error.contains("word 6"), "{error}");
    }

    /// A search in one slot empties the others, and the slot it used keeps its searcher for
    /// the next search; a slot emptied so searches again with a new searcher.
    #[test]
    fn one_slot_keeps_its_searcher_at_a_time() {
        let start = "810000000:1008000000:b";
        let search = |job: u32, slot: u8| {
            let line = format!("search {job} {slot} 0 plain:7 {start} othello -:300:67108864");
            let reply = handle(&line).expect("a good request");
            assert!(reply.starts_with(&format!("searched {job} ")), "{reply}");
        };
        let kept = || SLOTS.with_borrow(|s| s.iter().map(Option::is_some).collect::<Vec<_>>());
        search(1, 0);
        assert_eq!(kept(), [true]);
        search(2, 2);
        assert_eq!(kept(), [false, false, true]);
        search(3, 2);
        assert_eq!(kept(), [false, false, true]);
        search(4, 0);
        assert_eq!(kept(), [true, false, false]);
    }

    /// The review and the values empty every slot before their table; the estimate keeps them.
    #[test]
    fn the_review_and_the_values_take_the_place_of_the_trees() {
        use montello_engine::search::review::{EstimateConfig, ReviewConfig, ValuesConfig};
        use montello_engine::{Position, Variant};
        let search = |job: u32, slot: u8| {
            let line = format!(
                "search {job} {slot} 0 plain:7 810000000:1008000000:b othello -:300:67108864"
            );
            let reply = handle(&line).expect("a good request");
            assert!(reply.starts_with(&format!("searched {job} ")), "{reply}");
        };
        let run = |request: Request| {
            let reply = handle(&request.to_string()).expect("a good request");
            assert!(Reply::parse(&reply).is_ok(), "{reply}");
        };
        let kept = || SLOTS.with_borrow(|s| s.iter().filter(|kept| kept.is_some()).count());
        let small = (4, 2, 1 << 20);
        search(1, 1);
        assert_eq!(kept(), 1);
        run(Request::Estimate {
            job: 2,
            variant: Variant::Othello,
            config: EstimateConfig {
                exact_empties: small.0,
                depth: small.1,
                table_bytes: small.2,
            },
            position: Position::start(),
        });
        assert_eq!(kept(), 1, "the estimate keeps the AI's tree");
        run(Request::Values {
            job: 3,
            variant: Variant::Othello,
            config: ValuesConfig {
                exact_empties: small.0,
                depth: small.1,
                table_bytes: small.2,
            },
            position: Position::start(),
        });
        assert_eq!(kept(), 0, "the values empty every slot");
        search(4, 0);
        assert_eq!(kept(), 1);
        run(Request::Review {
            job: 5,
            variant: Variant::Othello,
            config: ReviewConfig {
                exact_empties: small.0,
                depth: small.1,
                table_bytes: small.2,
                time: None,
            },
            start: Position::start(),
            moves: vec!["f5".parse().expect("a move")],
        });
        assert_eq!(kept(), 0, "the review empties every slot");
    }
}
