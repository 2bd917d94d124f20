//! The wire's tests: every message reads back as written, real replies, bad lines.

use super::*;
use crate::notation::transcript;
use crate::search::CancelHandle;
use crate::search::review::LINE_PLIES;
use std::time::Duration;

fn position_after(moves: &str) -> Position {
    transcript::parse(moves, Variant::Othello)
        .expect("a legal transcript")
        .position()
}

#[test]
fn requests_read_back_as_written() {
    let requests = [
        Request::Search {
            job: 7,
            slot: 3,
            fresh: true,
            spec: SearcherSpec::Level {
                level: Level::Master,
                seed: u64::MAX,
            },
            position: position_after("f5d6c3"),
            variant: Variant::FreeOpening,
            limits: SearchLimits::time(Duration::from_micros(1_234_567)),
        },
        Request::Search {
            job: 0,
            slot: 0,
            fresh: false,
            spec: SearcherSpec::Plain { seed: 42 },
            position: Position::start(),
            variant: Variant::Othello,
            limits: SearchLimits::iterations(500),
        },
        Request::Analyse {
            job: 9,
            variant: Variant::NoMoveEndsGame,
            seed: 3,
            iterations: 300,
            positions: vec![(0, Position::start()), (3, position_after("f5d6c3"))],
        },
        Request::Review {
            job: 11,
            variant: Variant::Othello,
            config: ReviewConfig::default(),
            start: position_after("f5"),
            moves: ["d6", "c3", "PA", "d3"]
                .iter()
                .map(|m| m.parse().expect("a move"))
                .collect(),
        },
        Request::Estimate {
            job: 12,
            variant: Variant::NoMoveEndsGame,
            config: EstimateConfig {
                depth: 3,
                exact_empties: 9,
                table_bytes: 1 << 20,
            },
            position: position_after("f5d6"),
        },
        Request::Values {
            job: 13,
            variant: Variant::Othello,
            config: ValuesConfig {
                exact_empties: 18,
                depth: 6,
                table_bytes: 2 << 20,
            },
            position: position_after("f5d6c3"),
        },
    ];
    // Every request is watched: a search for twice its cap, the most a game clock gives a move
    // (its safety net without one), the others
    // for their generous limits.
    let watched: Vec<Duration> = requests.iter().map(Request::watch_after).collect();
    assert_eq!(
        watched,
        [
            Duration::from_micros(2 * 1_234_567),
            SearchLimits::SAFETY_NET,
            request::SLOW_WATCH,
            request::REVIEW_WATCH,
            request::QUICK_WATCH,
            request::SLOW_WATCH,
        ]
    );
    for request in requests {
        let line = request.to_string();
        assert_eq!(Request::parse(&line), Ok(request), "{line}");
    }
}

#[test]
fn a_real_result_reads_back_exactly() {
    let mut slots = Vec::new();
    let request = Request::Search {
        job: 1,
        slot: 2,
        fresh: false,
        spec: SearcherSpec::Plain { seed: 5 },
        position: position_after("f5d6"),
        variant: Variant::Othello,
        limits: SearchLimits::iterations(400),
    };
    let reply = request.run(&mut slots, &CancelHandle::new());
    let Reply::Searched { result, .. } = &reply else {
        panic!("a search answers with its result: {reply:?}");
    };
    assert!(
        result.best.is_some() && result.moves.len() > 1,
        "{result:?}"
    );
    assert!(slots[2].is_some() && slots[0].is_none(), "kept in its slot");
    let line = reply.to_string();
    assert_eq!(Reply::parse(&line), Ok(reply.clone()), "{line}");
    // Which search answered goes with it (Master's hand-over to alpha-beta).
    assert_eq!(result.answered_by, crate::search::Strategy::Default);
    let Reply::Searched { job, result } = reply else {
        unreachable!()
    };
    let handed = Reply::Searched {
        job,
        result: SearchResult {
            answered_by: crate::search::Strategy::AlphaBeta,
            ..result
        },
    };
    assert_eq!(Reply::parse(&handed.to_string()), Ok(handed));
    let analysed = Reply::Analysed {
        job: 4,
        estimates: vec![(0, 0.5), (12, 0.123_456_79)],
    };
    assert_eq!(Reply::parse(&analysed.to_string()), Ok(analysed));
    // What web/worker.js writes when the engine could not run a request.
    let failed = Reply::parse("failed 7 RuntimeError: unreachable executed").expect("reads");
    assert_eq!(
        failed,
        Reply::Failed {
            job: 7,
            why: "RuntimeError: unreachable executed".into()
        }
    );
    assert_eq!(
        failed.to_string(),
        "failed 7 RuntimeError: unreachable executed"
    );
}

/// A review request runs the engine's review of the game and reads back exactly; its
/// progress counts the moves reviewed; an illegal move is refused with its number.
#[test]
fn a_review_request_answers_with_the_engines_review() {
    static DONE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let moves: Vec<Move> = ["f5", "d6", "c3", "d3", "c4"]
        .iter()
        .map(|m| m.parse().expect("a move"))
        .collect();
    let config = ReviewConfig {
        depth: 4,
        ..ReviewConfig::default()
    };
    let request = Request::Review {
        job: 5,
        variant: Variant::Othello,
        config,
        start: Position::start(),
        moves: moves.clone(),
    };
    let cancel = CancelHandle::observed(|n| {
        DONE.fetch_max(n, std::sync::atomic::Ordering::Relaxed);
    });
    let reply = request.run(&mut Vec::new(), &cancel);
    let game = transcript::parse("f5d6c3d3c4", Variant::Othello).expect("legal");
    let expected = crate::search::review::review(&game, &config, None, |_, _| {}).expect("done");
    assert_eq!(
        reply,
        Reply::Reviewed {
            job: 5,
            review: expected
        }
    );
    assert_eq!(DONE.load(std::sync::atomic::Ordering::Relaxed), 5);
    let line = reply.to_string();
    assert!(line.starts_with("reviewed 5 b:f5:"), "{line}");
    assert_eq!(Reply::parse(&line), Ok(reply));
    let empty = Reply::Reviewed {
        job: 1,
        review: Review::default(),
    };
    assert_eq!(Reply::parse(&empty.to_string()), Ok(empty));
    let illegal = Request::Review {
        job: 6,
        variant: Variant::Othello,
        config,
        start: Position::start(),
        moves: vec![moves[0], moves[0]],
    };
    match illegal.run(&mut Vec::new(), &CancelHandle::new()) {
        Reply::Failed { job: 6, why } => assert!(why.contains("move 2"), "{why}"),
        other => panic!("{other:?}"),
    }
    let e = Reply::parse("reviewed 3 b:f5:f5:0:0").expect_err("cut short");
    assert_eq!(e.word, 3, "{e}");
}

/// An estimate request answers with the engine's estimate, which reads back exactly;
/// a free opening's answer is "no estimate", and reads back as such.
#[test]
fn an_estimate_request_answers_with_the_engines_estimate() {
    let config = EstimateConfig {
        depth: 4,
        ..EstimateConfig::default()
    };
    let position = position_after("f5d6c3d3c4");
    let request = Request::Estimate {
        job: 8,
        variant: Variant::Othello,
        config,
        position,
    };
    let reply = request.run(&mut Vec::new(), &CancelHandle::new());
    let expected = crate::search::review::estimate(&position, Variant::Othello, &config);
    assert!(expected.is_some());
    assert_eq!(
        reply,
        Reply::Estimated {
            job: 8,
            estimate: expected
        }
    );
    let line = reply.to_string();
    assert!(line.starts_with("estimated 8 "), "{line}");
    assert_eq!(Reply::parse(&line), Ok(reply));
    let free = Request::Estimate {
        job: 9,
        variant: Variant::FreeOpening,
        config,
        position: Position::empty(),
    }
    .run(&mut Vec::new(), &CancelHandle::new());
    assert_eq!(free.to_string(), "estimated 9 - 0");
    assert_eq!(
        Reply::parse("estimated 9 - 0"),
        Ok(Reply::Estimated {
            job: 9,
            estimate: None
        })
    );
}

/// The worker values every move as the engine does here, and its line reads back exactly.
#[test]
fn a_values_request_answers_with_the_engines_values() {
    let config = ValuesConfig {
        depth: 4,
        ..ValuesConfig::default()
    };
    let position = position_after("f5d6c3d3c4");
    let reply = Request::Values {
        job: 14,
        variant: Variant::Othello,
        config,
        position,
    }
    .run(&mut Vec::new(), &CancelHandle::new());
    let expected = crate::search::review::move_values(&position, Variant::Othello, &config, None)
        .expect("not cancelled");
    assert_eq!(expected.moves.len(), 6, "the moves of the position");
    assert_eq!(expected.line.len(), LINE_PLIES, "the best line");
    assert_eq!(
        reply,
        Reply::Valued {
            job: 14,
            valuation: expected
        }
    );
    let line = reply.to_string();
    assert!(
        line.starts_with("valued 14 ") && line.contains(" line "),
        "{line}"
    );
    assert_eq!(Reply::parse(&line), Ok(reply));
    let cancelled = CancelHandle::new();
    cancelled.cancel();
    let stopped = Request::Values {
        job: 15,
        variant: Variant::Othello,
        config,
        position,
    }
    .run(&mut Vec::new(), &cancelled);
    assert!(
        matches!(stopped, Reply::Failed { job: 15, .. }),
        "{stopped:?}"
    );
}

#[test]
fn a_kept_searcher_goes_on_from_its_tree_and_fresh_starts_anew() {
    let mut slots = Vec::new();
    let search = |fresh, moves: &str| Request::Search {
        job: 1,
        slot: 0,
        fresh,
        spec: SearcherSpec::Level {
            level: Level::Casual,
            seed: 1,
        },
        position: position_after(moves),
        variant: Variant::Othello,
        limits: SearchLimits::iterations(2_000),
    };
    let reused = |reply: Reply| match reply {
        Reply::Searched { result, .. } => result.reused_nodes,
        other => panic!("{other:?}"),
    };
    let first = search(false, "f5").run(&mut slots, &CancelHandle::new());
    let Reply::Searched { result, .. } = &first else {
        panic!("{first:?}");
    };
    let best = result.best.expect("a move").to_string();
    let next = search(false, &format!("f5{best}")).run(&mut slots, &CancelHandle::new());
    assert!(
        reused(next) > 0,
        "the second search starts from the kept subtree"
    );
    let again = search(true, "f5").run(&mut slots, &CancelHandle::new());
    assert_eq!(reused(again), 0, "a fresh searcher has no tree");
}

#[test]
fn bad_lines_say_which_word_and_why() {
    let cases = [
        ("", 1, "missing"),
        ("search x", 2, "job"),
        ("search 1 0 2", 4, "fresh"),
        ("search 1 0 1 level:9:1", 5, "level:N:SEED"),
        ("search 1 0 1 plain:1 zz:0:b", 6, "hexadecimal"),
        ("search 1 0 1 plain:1 3:1:b", 6, "both colours"),
        ("search 1 0 1 plain:1 0:0:b chess", 7, "no variant"),
        ("search 1 0 1 plain:1 0:0:b othello 1:2", 8, "MICROS"),
        (
            "search 1 0 1 plain:1 0:0:b othello -:-:1 x",
            9,
            "unexpected",
        ),
        ("analyse 1 othello 1 1 5", 6, "PLY:POSITION"),
        ("progress 1", 3, "missing"),
        ("searched 1 z9", 3, "not a move"),
        (
            "searched 1 f5 1 1 1 0 0 0 0 0 0 chess -",
            13,
            "none of classic",
        ),
        ("analysed 1 3:x", 3, "PLY:CHANCE"),
        ("estimate 1 othello 10 16 1024 0:0:b 5", 8, "unexpected"),
        ("estimated 1 x 0", 3, "not a number"),
        ("estimated 1 65 1", 3, "within 64"),
        ("estimated 1 6 2", 4, "neither 0 nor 1"),
        ("values 1 othello 20 12 1024 0:0:b x", 8, "unexpected"),
        ("valued 1 f5:2:e d6:1", 4, "MOVE:VALUE:KIND"),
        ("valued 1 f5:70:e", 3, "within 64"),
        ("valued 1 f5:2:x", 3, "MOVE:VALUE:KIND"),
        ("valued 1 f5:2:e line", 4, "no move"),
        ("valued 1 f5:2:e line f5 z9", 6, "not a move"),
        ("hello", 1, "no re"),
    ];
    for (line, word, why) in cases {
        let e = Request::parse(line)
            .err()
            .into_iter()
            .chain(Reply::parse(line).err())
            .find(|e| e.word == word && e.why.contains(why));
        assert!(
            e.is_some(),
            "{line:?}: expected word {word} ({why}); got {:?} / {:?}",
            Request::parse(line),
            Reply::parse(line)
        );
    }
}
