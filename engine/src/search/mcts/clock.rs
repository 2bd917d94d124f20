//! The time a search has left and when it may stop before its caps: the early stop's
//! rate estimate, its share of the caps, and whether the root's choice can still change.

use super::tree::{ProofState, Tree};
use std::time::Duration;

/// The early stop's safety factor on the iterations a search could still run: the rate
/// so far may rise (a reused tree's deep nodes are slower to reach than fresh ones), so the
/// best move's lead must beat a quarter more than the estimate.
pub(super) const EARLY_STOP_MARGIN: f64 = 1.25;

/// The early stop waits until the search has used at least this share of its time cap (or
/// of its iteration cap): a search stopped sooner plays the same move, but leaves a smaller
/// subtree for the next move to reuse (stopping at a quarter of the cap cost Master about
/// 50 Elo at 1 s, docs/ai.md).
pub(super) const EARLY_STOP_MIN_SHARE: f64 = 0.5;

/// Plies below the root at which the tree may reach positions the leaf solver proves: the
/// early stop is off for roots with at most `leaf_solve_empties` plus this many empties,
/// where a proof (a runner-up proven won, the leader proven lost) can still change the
/// choice that the visit count alone calls settled.
pub(super) const EARLY_STOP_PROOF_HORIZON: u32 = 15;

/// The early stop measures the iteration rate over at least this share of the loop's time
/// (a tenth) ...
pub(super) const EARLY_STOP_MEASURE: u32 = 10;

/// ... and at least this long, before it turns the time left into iterations.
pub(super) const EARLY_STOP_MIN_MEASURE: Duration = Duration::from_millis(5);

/// The iteration rate the early stop expects for the rest of a search that has run `done`
/// iterations in `elapsed`: unknown (infinite, so only the iteration cap can stop it) until
/// `elapsed` reaches `min_measure`, and never below the searcher's `peak` rate.
pub(super) fn expected_rate(done: u64, elapsed: Duration, min_measure: Duration, peak: f64) -> f64 {
    if elapsed.is_zero() || elapsed < min_measure {
        return f64::INFINITY;
    }
    (done as f64 / elapsed.as_secs_f64()).max(peak)
}

/// How much of its caps a search has used: the larger of its share of the time cap and its
/// share of the iteration cap (0 for a cap it does not have).
pub(super) fn spent_share(elapsed: Duration, clock: Option<Duration>, done: u64, cap: u64) -> f64 {
    let by_time = match clock {
        None => 0.0,
        Some(clock) if clock.is_zero() => 1.0,
        Some(clock) => elapsed.as_secs_f64() / clock.as_secs_f64(),
    };
    let by_count = if cap == u64::MAX {
        0.0
    } else {
        done as f64 / cap.max(1) as f64
    };
    by_time.max(by_count)
}

/// The iterations a search can still run at `rate` in `time_left`, at most `cap_left`, the
/// iteration cap's remainder (all of it at an infinite rate, with time left).
pub(super) fn iterations_left(rate: f64, time_left: Duration, cap_left: u64) -> f64 {
    let by_time = if time_left.is_zero() {
        0.0
    } else {
        rate * time_left.as_secs_f64()
    };
    by_time.min(cap_left as f64)
}

/// Whether the move [`super::result::finish`] would play (the most visited root move not
/// proven lost) can no longer change in `left` more iterations: its lead in visits over the
/// most visited other move not proven lost is larger, or it is the only move not proven lost.
pub(super) fn choice_settled(tree: &Tree, left: f64) -> bool {
    let (mut first, mut second, mut candidates) = (0u32, 0u32, 0usize);
    for c in &tree.nodes[tree.nodes[0].children()] {
        if c.proof == ProofState::Loss {
            continue;
        }
        candidates += 1;
        if c.visits > first {
            second = first;
            first = c.visits;
        } else {
            second = second.max(c.visits);
        }
    }
    match candidates {
        0 => false,
        1 => true,
        _ => f64::from(first - second) > left,
    }
}

/// Whether the root's choice is settled: a proven win, or every move proven.
pub(super) fn root_decided(tree: &Tree) -> bool {
    let root = &tree.nodes[0];
    let children = &tree.nodes[root.children()];
    !children.is_empty()
        && (children.iter().any(|c| c.proof == ProofState::Win)
            || children.iter().all(|c| c.proof.is_known()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::config::MctsConfig;
    use crate::search::mcts::leaf::expand;
    use crate::search::mcts::tests::searcher;
    use crate::search::{CancelHandle, Level, SearchLimits};
    use crate::{Move, Position, Side, Square, Variant};

    #[test]
    fn the_spent_share_is_the_larger_of_time_and_count() {
        let second = Some(Duration::from_secs(1));
        let quarter = Duration::from_millis(250);
        assert_eq!(spent_share(quarter, second, 0, u64::MAX), 0.25);
        assert_eq!(spent_share(quarter, second, 600, 1_000), 0.6);
        assert_eq!(
            spent_share(2 * quarter, Some(Duration::from_secs(2)), 10, 1_000),
            0.25
        );
        assert_eq!(
            spent_share(Duration::ZERO, Some(Duration::ZERO), 0, u64::MAX),
            1.0
        );
        // Without a time cap only the count counts, however long the search has taken.
        assert_eq!(spent_share(Duration::from_secs(100), None, 10, 1_000), 0.01);
        assert_eq!(
            spent_share(Duration::from_secs(100), None, 10, u64::MAX),
            0.0
        );
    }

    #[test]
    fn the_iterations_left_are_the_rate_times_the_time_left_at_most_the_cap() {
        let second = Duration::from_secs(1);
        assert_eq!(iterations_left(1_000.0, 2 * second, u64::MAX), 2_000.0);
        assert_eq!(iterations_left(1_000.0, 2 * second, 500), 500.0);
        assert_eq!(iterations_left(f64::INFINITY, second, 70), 70.0);
        assert_eq!(iterations_left(f64::INFINITY, Duration::ZERO, 70), 0.0);
    }

    #[test]
    fn the_rate_is_trusted_only_after_a_tenth_of_the_time_and_never_below_the_peak() {
        let ms = Duration::from_millis;
        // One slow first iteration says nothing: the search goes on.
        assert_eq!(expected_rate(1, ms(2), ms(10), 0.0), f64::INFINITY);
        assert_eq!(
            expected_rate(0, Duration::ZERO, Duration::ZERO, 0.0),
            f64::INFINITY
        );
        // Measured long enough: the rate so far.
        assert_eq!(expected_rate(5_000, ms(10), ms(10), 0.0), 500_000.0);
        // A search running slower than this searcher has run before expects its peak rate.
        assert_eq!(expected_rate(5_000, ms(10), ms(10), 800_000.0), 800_000.0);
        assert_eq!(expected_rate(9_000, ms(10), ms(10), 800_000.0), 900_000.0);
    }

    #[test]
    fn the_choice_is_settled_by_the_lead_over_the_runner_up_not_proven_lost() {
        let mut tree = Tree::new(&Position::start(), Variant::Othello, 1 << 16);
        expand(&mut tree, 0, Side::Black, &MctsConfig::default(), None);
        let kids: Vec<usize> = tree.nodes[0].children().collect();
        for (&i, visits) in kids.iter().zip([100, 40, 10, 0]) {
            tree.nodes[i].visits = visits;
        }
        assert!(choice_settled(&tree, 59.0));
        assert!(!choice_settled(&tree, 60.0));
        // A runner-up proven lost does not count: the next one does.
        tree.nodes[kids[1]].proof = ProofState::Loss;
        assert!(choice_settled(&tree, 89.0));
        assert!(!choice_settled(&tree, 90.0));
        // Nor does a leader proven lost: the best candidate is the runner-up.
        tree.nodes[kids[1]].proof = ProofState::Unknown;
        tree.nodes[kids[0]].proof = ProofState::Loss;
        assert!(choice_settled(&tree, 29.0));
        assert!(!choice_settled(&tree, 30.0));
        // The only move not proven lost is settled whatever the visits.
        for &i in &kids[1..] {
            tree.nodes[i].proof = ProofState::Loss;
        }
        tree.nodes[kids[0]].proof = ProofState::Unknown;
        tree.nodes[kids[0]].visits = 0;
        assert!(choice_settled(&tree, f64::INFINITY));
        tree.nodes[kids[0]].proof = ProofState::Loss;
        assert!(!choice_settled(&tree, 0.0), "no move left to play");
    }

    /// A late-midgame position (30 empties, black to move) where taking the h1 corner is
    /// far ahead of every other move.
    fn a_corner_to_take() -> Position {
        crate::notation::board_string::parse(
            "-XOOOOO- -OOOXOXX ---XOXXX ---XXX-X --XXXXOX ---XX--X ----X--X ----X--- X",
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_settled_choice_stops_the_search_before_its_cap() {
        let pos = a_corner_to_take();
        let h1 = Some(Move::Play(Square::ALL[7]));
        // No time cap: the iterations left are the cap's remainder, so where the search
        // stops depends on the iteration count alone.
        let limits = SearchLimits::iterations(200_000);
        let on = MctsConfig {
            early_stop: true,
            ..MctsConfig::default()
        };
        let early = searcher(1, on).search(&pos, Variant::Othello, &limits, &CancelHandle::new());
        assert_eq!(early.best, h1);
        assert!(early.stopped_early);
        assert!(!early.proven && !early.cancelled);
        // Its lead passed 1.25 times the rest of the cap at the first clock check after
        // 111,111 iterations (the earliest it can with the cap alone bounding the rest).
        assert!(
            early.iterations < 112_000,
            "{} iterations",
            early.iterations
        );
        let lead = early.moves[0].visits - early.moves[1].visits;
        assert!(lead as f64 > 1.25 * (200_000 - early.iterations) as f64);
        // The full search plays the same move.
        let config = MctsConfig {
            early_stop: false,
            ..MctsConfig::default()
        };
        let full =
            searcher(1, config).search(&pos, Variant::Othello, &limits, &CancelHandle::new());
        assert_eq!(full.iterations, 200_000);
        assert!(!full.stopped_early);
        assert_eq!(full.best, h1);
    }

    #[test]
    fn no_early_stop_where_a_proof_could_still_change_the_choice() {
        // 20 empties, black to move: g8 leads the runner-up by far more than the rest of
        // the cap long before the cap.
        let game = crate::notation::transcript::parse(
            "f5f6c4g5g6e3e6c5f4d3d6f3c3b5h6g4h3d7e2g3c7f7c2d2c6h4h5b4d1b6f2g2b3a3e8f8c8d8a6e7",
            Variant::Othello,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let pos = game.position();
        assert_eq!(pos.empties().count(), 20);
        let limits = SearchLimits::iterations(200_000);
        // Leaves proven at 9 empties or fewer lie within the proof horizon (24 empties):
        // the search runs to its cap although its choice looked settled.
        let on = MctsConfig {
            early_stop: true,
            ..MctsConfig::default()
        };
        let full = searcher(1, on).search(&pos, Variant::Othello, &limits, &CancelHandle::new());
        assert!(!full.stopped_early);
        assert_eq!(full.iterations, 200_000);
        // Without leaf proofs the horizon is 15 empties, and the same search stops early, by
        // three quarters of the cap: the choice looked settled that soon, so only the proof
        // horizon kept the first search going.
        let no_leaf_proofs = MctsConfig {
            leaf_solve_empties: 0,
            ..on
        };
        let r = searcher(1, no_leaf_proofs).search(
            &pos,
            Variant::Othello,
            &limits,
            &CancelHandle::new(),
        );
        assert!(r.stopped_early);
        assert!(r.iterations <= 150_000, "{} iterations", r.iterations);
    }

    #[test]
    fn a_searcher_with_randomness_never_stops_early() {
        let pos = a_corner_to_take();
        let limits = SearchLimits::iterations(200_000);
        for randomness in [0.3, 1.0] {
            let r = searcher(1, MctsConfig::default())
                .with_randomness(randomness)
                .search(&pos, Variant::Othello, &limits, &CancelHandle::new());
            assert!(!r.stopped_early, "randomness {randomness}");
            assert_eq!(r.iterations, 200_000, "randomness {randomness}");
        }
        // The weak levels keep their iteration caps too.
        for level in [Level::Beginner, Level::Novice, Level::Casual] {
            let limits = SearchLimits {
                time: None,
                ..level.limits()
            };
            let r = level
                .searcher(2)
                .search(&pos, Variant::Othello, &limits, &CancelHandle::new());
            assert!(!r.stopped_early, "{level}");
            assert_eq!(Some(r.iterations), level.iterations(), "{level}");
        }
    }
}
