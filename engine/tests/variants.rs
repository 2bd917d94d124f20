//! Every public way to play takes its rules from the variant it is given, and only from it.
//!
//! Three positions where the variants part ways, each driven through every public entry point
//! that takes a variant (the game layer, the notation's parsers and diagram, the playouts, the
//! searches, the exact solver, the post-game analysis and the worker's wire):
//! - the empty board: a free start's placement phase (the four centre squares, no pass), and
//!   a finished game (nobody can move) under the other two variants;
//! - a side stuck while its opponent can move, centre taken: a pass in Othello and in a free
//!   start after its placement, the end under "ends when stuck", where the stuck side is
//!   ahead on discs but loses once it has passed;
//! - the same situation with the centre empty: a free start is still placing, so the stuck
//!   side may place a disc and may not pass.
//!
//! If any path applied another variant's rules (the standard ones for all, say), one of the
//! per-variant answers below would be another variant's.

use montello_engine::notation::{board_string, parse_any, transcript};
use montello_engine::search::{
    CancelHandle, Level, SearchLimits, Searcher, Strategy, analyse, solve,
};
use montello_engine::wire::{Reply, Request, SearcherSpec};
use montello_engine::{
    Bitboard, FastRng, Game, IllegalReason, Move, Position, Score, Side, Square, Variant,
    random_playout,
};

fn sq(name: &str) -> Square {
    name.parse()
        .unwrap_or_else(|e| panic!("{name} is a square: {e}"))
}

fn squares(names: &[&str]) -> Bitboard {
    names.iter().fold(Bitboard::EMPTY, |b, n| b | sq(n).bit())
}

fn plays(names: &[&str]) -> Vec<Move> {
    names.iter().map(|n| Move::Play(sq(n))).collect()
}

/// Black to move and stuck (no disc flips anything), white can move; four empty squares.
/// Black leads 34-26 now, but loses by 18 with best play once it has passed.
fn black_stuck() -> Position {
    board_string::parse("XXXX-O--OXXXXXX-OOOXXXXXOOOXXXXXOOXXXOXXOOOOOOXXOOOXXXXXOOOOXXOO X")
        .unwrap_or_else(|e| panic!("{e}"))
}

/// White to move and stuck: black a1 and the whole centre, white b1. Black's only move is c1,
/// which wipes white out: 7-0 if white passes, 5-1 if being stuck ends the game.
fn white_stuck() -> Position {
    let black = squares(&["a1", "d4", "e4", "d5", "e5"]);
    Position::from_discs(black, sq("b1").bit(), Side::White).unwrap_or_else(|e| panic!("{e}"))
}

/// [`white_stuck`] without the centre discs: in a free start, still the placement phase.
fn white_stuck_before_placement() -> Position {
    Position::from_discs(sq("a1").bit(), sq("b1").bit(), Side::White)
        .unwrap_or_else(|e| panic!("{e}"))
}

const CENTRE: [&str; 4] = ["d4", "e4", "d5", "e5"];

fn refusal(variant: Variant, pos: &Position, mv: Move) -> Option<IllegalReason> {
    variant.try_play(pos, mv).err().map(|e| e.reason)
}

#[test]
fn the_game_layer_plays_each_variant_by_its_own_rules() {
    let empty = Position::empty();
    // A free start begins on the empty board and places on the centre; a pass is refused.
    let free = Game::new(Variant::FreeOpening);
    assert_eq!(free.position(), empty);
    assert_eq!(free.moves(), plays(&["d4", "e4", "d5", "e5"]));
    assert_eq!(free.legal_moves(), squares(&CENTRE));
    assert!(!free.must_pass() && !free.is_over() && free.result().is_none());
    let v = Variant::FreeOpening;
    assert_eq!(
        refusal(v, &empty, Move::Pass),
        Some(IllegalReason::PassNotAllowed)
    );
    assert_eq!(
        refusal(v, &empty, Move::Play(sq("c3"))),
        Some(IllegalReason::NotACentreSquare)
    );
    let placed = v.try_play(&empty, Move::Play(sq("e4")));
    assert_eq!(placed, Ok(empty.place(sq("e4"))));
    assert_eq!(
        v.play_unchecked(&empty, Move::Play(sq("e4"))),
        empty.place(sq("e4"))
    );
    // The same board under the other two variants: nobody can move, the game is over, drawn.
    for v in [Variant::Othello, Variant::NoMoveEndsGame] {
        let game = Game::from_position(empty, v);
        assert!(game.moves().is_empty(), "{v}");
        assert!(game.is_over() && !game.must_pass(), "{v}");
        assert_eq!(game.result().map(|r| r.winner()), Some(None), "{v}");
        assert_eq!(
            refusal(v, &empty, Move::Play(sq("d4"))),
            Some(IllegalReason::GameOver),
            "{v}"
        );
    }

    // A stuck side with the centre taken: Othello and a free start pass, the other ends.
    let pos = white_stuck();
    for v in [Variant::Othello, Variant::FreeOpening] {
        let mut game = Game::from_position(pos, v);
        assert_eq!(game.moves(), vec![Move::Pass], "{v}");
        assert!(
            game.must_pass() && !game.is_over() && game.result().is_none(),
            "{v}"
        );
        assert_eq!(
            game.play(Move::Play(sq("c1"))).map_err(|e| e.reason),
            Err(IllegalReason::MustPass),
            "{v}"
        );
        assert_eq!(game.play(Move::Pass), Ok(pos.pass()), "{v}");
        assert_eq!(game.moves(), plays(&["c1"]), "{v}");
        assert!(game.play(Move::Play(sq("c1"))).is_ok(), "{v}");
        assert!(game.is_over(), "{v}");
        let result = game.result().map(|r| r.discs);
        assert_eq!(result, Some(Score { black: 7, white: 0 }), "{v}");
    }
    let v = Variant::NoMoveEndsGame;
    let mut game = Game::from_position(pos, v);
    assert!(game.moves().is_empty());
    assert!(game.is_over() && !game.must_pass());
    assert_eq!(
        game.result().map(|r| r.discs),
        Some(Score { black: 5, white: 1 })
    );
    assert_eq!(
        game.play(Move::Pass).map_err(|e| e.reason),
        Err(IllegalReason::GameOver)
    );
    assert_eq!(game.position(), pos, "a refused move changes nothing");
    assert!(v.is_game_over(&pos) && !v.must_pass(&pos));

    // A stuck side before a free start's placement is done: it places, it does not pass.
    let pos = white_stuck_before_placement();
    let game = Game::from_position(pos, Variant::FreeOpening);
    assert_eq!(game.moves(), plays(&CENTRE));
    assert!(!game.must_pass() && !game.is_over());
    assert_eq!(
        refusal(Variant::FreeOpening, &pos, Move::Pass),
        Some(IllegalReason::PassNotAllowed)
    );
    assert_eq!(
        Game::from_position(pos, Variant::Othello).moves(),
        vec![Move::Pass]
    );
    assert!(Game::from_position(pos, Variant::NoMoveEndsGame).is_over());
}

#[test]
fn the_notation_reads_moves_under_the_variant_it_is_given() {
    // The four placements and a move after them: a free start only.
    let text = "d4e4d5e5f4";
    let game = transcript::parse(text, Variant::FreeOpening).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.ply(), 5);
    assert_eq!(game.variant(), Variant::FreeOpening);
    for v in [Variant::Othello, Variant::NoMoveEndsGame] {
        let err = transcript::parse(text, v).err();
        assert_eq!(err.and_then(|e| e.ply), Some(1), "{v}: d4 is taken");
    }
    // After a stuck side: the pass players leave out in Othello, the end when stuck ends.
    let pos = black_stuck();
    let othello = transcript::parse_from("e1", pos, Variant::Othello);
    assert_eq!(
        othello.map(|g| g.history().to_vec()),
        Ok(vec![Move::Pass, Move::Play(sq("e1"))])
    );
    let ended = transcript::parse_from("e1", pos, Variant::NoMoveEndsGame).err();
    assert!(
        ended.is_some_and(|e| e.reason.contains("after the end")),
        "the game ended when black was stuck"
    );
    // A board string read as a game keeps the variant it was read under.
    let text = board_string::to_board_string(&pos);
    for v in Variant::ALL {
        let game = parse_any(&text, v).unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(game.variant(), v);
        assert_eq!(game.must_pass(), v != Variant::NoMoveEndsGame, "{v}");
        assert_eq!(game.is_over(), v == Variant::NoMoveEndsGame, "{v}");
    }
    // The diagram marks the variant's squares: the centre in a free start, none otherwise.
    let free = board_string::diagram(&Position::empty(), Variant::FreeOpening);
    assert_eq!(free.matches('.').count(), 4, "{free}");
    let othello = board_string::diagram(&Position::empty(), Variant::Othello);
    assert_eq!(othello.matches('.').count(), 0, "{othello}");
}

#[test]
fn playouts_follow_the_variant() {
    let mut rng = FastRng::new(5);
    // Black's only move after white's pass wipes white out: +7; stuck ends it at 5-1: +4.
    let pos = white_stuck();
    assert_eq!(random_playout(&pos, Variant::Othello, &mut rng).margin, 7);
    assert_eq!(
        random_playout(&pos, Variant::FreeOpening, &mut rng).margin,
        7
    );
    assert_eq!(
        random_playout(&pos, Variant::NoMoveEndsGame, &mut rng).margin,
        4
    );
    // The empty board: over at once (0-0), or a free start played out to a full game.
    assert_eq!(
        random_playout(&Position::empty(), Variant::Othello, &mut rng).margin,
        0
    );
    let decided = (0..10)
        .filter(|_| random_playout(&Position::empty(), Variant::FreeOpening, &mut rng).margin != 0)
        .count();
    assert!(decided > 0, "a free start's playouts place and play on");
}

/// The move every strategy picks (a few hundred iterations, seeded).
fn best_moves(pos: &Position, variant: Variant) -> Vec<Option<Move>> {
    Strategy::ALL
        .into_iter()
        .map(|strategy| {
            Searcher::new(strategy, 3)
                .search(
                    pos,
                    variant,
                    &SearchLimits::iterations(300),
                    &CancelHandle::new(),
                )
                .best
        })
        .collect()
}

#[test]
fn every_search_chooses_among_the_variants_moves() {
    let all = Strategy::ALL.len();
    // The empty board: a centre square in a free start; no move where the game is over.
    for best in best_moves(&Position::empty(), Variant::FreeOpening) {
        let square = best.and_then(Move::square);
        assert!(
            square.is_some_and(|s| squares(&CENTRE).contains(s)),
            "{best:?}"
        );
    }
    for v in [Variant::Othello, Variant::NoMoveEndsGame] {
        assert_eq!(best_moves(&Position::empty(), v), vec![None; all], "{v}");
    }
    // A stuck side: the pass, or nothing when being stuck ends the game.
    let pos = black_stuck();
    for v in [Variant::Othello, Variant::FreeOpening] {
        assert_eq!(best_moves(&pos, v), vec![Some(Move::Pass); all], "{v}");
    }
    assert_eq!(best_moves(&pos, Variant::NoMoveEndsGame), vec![None; all]);
    // Before a free start's placement is done, a stuck side places.
    let before = white_stuck_before_placement();
    for best in best_moves(&before, Variant::FreeOpening) {
        let square = best.and_then(Move::square);
        assert!(
            square.is_some_and(|s| squares(&CENTRE).contains(s)),
            "{best:?}"
        );
    }
}

#[test]
fn the_exact_solver_and_the_analysis_score_by_the_variants_rules() {
    let pos = black_stuck();
    let mib = 1 << 20;
    for v in [Variant::Othello, Variant::FreeOpening] {
        let s = solve(&pos, v, mib, None, None).unwrap_or_else(|| panic!("{v}: solved"));
        assert_eq!((s.best, s.score), (Move::Pass, -18), "{v}");
    }
    assert_eq!(
        solve(&pos, Variant::NoMoveEndsGame, mib, None, None),
        None,
        "a finished game has nothing to solve"
    );
    // The solver knows no placements: it does not pretend to solve a free start's.
    assert_eq!(
        solve(&Position::empty(), Variant::FreeOpening, mib, None, None),
        None
    );
    assert_eq!(
        solve(
            &white_stuck_before_placement(),
            Variant::FreeOpening,
            mib,
            None,
            None
        ),
        None
    );
    // Black's chance: lost once it has passed, won when being stuck ends the game 34-26.
    let cancel = CancelHandle::new();
    let chance = |v| analyse(&[(0, pos)], v, 1, 200, &cancel);
    let othello = chance(Variant::Othello);
    assert!(othello.len() == 1 && othello[0].1 < 0.05, "{othello:?}");
    assert_eq!(chance(Variant::NoMoveEndsGame), vec![(0, 1.0)]);
}

#[test]
fn the_workers_wire_carries_the_variant_to_the_search() {
    let cancel = CancelHandle::new();
    let best = |position: Position, variant: Variant| {
        let request = Request::Search {
            job: 1,
            slot: 0,
            fresh: true,
            spec: SearcherSpec::Level {
                level: Level::ALL[0],
                seed: 9,
            },
            position,
            variant,
            limits: SearchLimits::iterations(200),
        };
        // Through the text line, as the browser's worker receives it.
        let line = request.to_string();
        let read = Request::parse(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
        match read.run(&mut Vec::new(), &cancel) {
            Reply::Searched { result, .. } => result.best,
            other => panic!("{other:?}"),
        }
    };
    let pos = black_stuck();
    assert_eq!(best(pos, Variant::Othello), Some(Move::Pass));
    assert_eq!(best(pos, Variant::NoMoveEndsGame), None);
    let placed = best(Position::empty(), Variant::FreeOpening).and_then(Move::square);
    assert!(placed.is_some_and(|s| squares(&CENTRE).contains(s)));
    assert_eq!(best(Position::empty(), Variant::Othello), None);
}
