//! The public surface as a caller sees it: every type at its one path (the root for the
//! rules' types, a public module for the functions that group there), bitboards as
//! [`Bitboard`] rather than raw `u64`, and the `rand_core` traits on the random generator.
//! Written the way the app uses the engine, so a change that breaks the app breaks here.

use montello_engine::notation::{parse_any, transcript};
use montello_engine::rand_core::{Rng, SeedableRng};
use montello_engine::search::{
    AlphaBetaConfig, CancelHandle, Level, MctsConfig, SearchLimits, Searcher, Strategy,
};
use montello_engine::{
    Bitboard, FastRng, Game, IllegalReason, Move, ParseError, Position, PositionError, Side,
    Square, Variant, movegen, random_square,
};

fn sq(name: &str) -> Square {
    name.parse()
        .unwrap_or_else(|e| panic!("{name} is a square: {e}"))
}

#[test]
fn bitboards_flow_from_squares_through_positions() {
    // The app's sound test builds a position from single squares.
    let black = sq("e5").bit() | sq("c5").bit();
    let white = sq("e4").bit() | sq("d4").bit();
    assert_eq!(black.count(), 2);
    let before = Position::from_player_opponent(black, white, Side::Black);
    let e3 = sq("e3");
    let flipped = before.flips(e3);
    assert_eq!(flipped, sq("e4").bit() | sq("d4").bit());
    assert_eq!(
        movegen::flips(before.player(), before.opponent(), e3),
        flipped
    );
    let after = before.play_flips(e3, flipped);
    assert_eq!(after, before.play_unchecked(e3));
    assert_eq!(after.black().count(), 5);
    assert_eq!(after.white(), Bitboard::EMPTY);
    assert!(movegen::legal_moves(before.player(), before.opponent()).contains(e3));
}

#[test]
fn errors_live_at_the_root() {
    let mut game = Game::new(Variant::Othello);
    let refused = game.play(Move::Play(sq("a1"))).err().map(|e| e.reason);
    assert_eq!(refused, Some(IllegalReason::NoFlips));
    let overlap = Position::from_discs(sq("a1").bit(), sq("a1").bit(), Side::Black).err();
    assert_eq!(overlap, Some(PositionError::Overlap(sq("a1").bit())));
    let bad: Option<ParseError> = parse_any("f5 z9", Variant::Othello).err();
    assert_eq!(bad.map(|e| e.offset), Some(3));
    let game = transcript::parse("f5d6", Variant::Othello).ok();
    assert_eq!(game.map(|g| g.ply()), Some(2));
}

#[test]
fn the_search_types_are_in_search() {
    let master = MctsConfig {
        solve_empties: 18,
        ab_empties: 30,
        ab_min_time: std::time::Duration::from_millis(500),
        exploration: 0.35,
        prior_weight: 4.0,
        minimax: true,
        minimax_alpha: 0.45,
        prune: true,
        leaf_solve_empties: 11,
        ..MctsConfig::default()
    };
    assert_eq!(Level::Master.config(), master);
    let searcher = Searcher::new(Strategy::AlphaBeta, 1).with_ab_config(AlphaBetaConfig {
        depth: Some(2),
        ..AlphaBetaConfig::default()
    });
    assert_eq!(searcher.ab_config().depth, Some(2));
    // Multi-ProbCut's measured selectivity (0.7 standard deviations; docs/ai.md), in the
    // `ab` player and in the search Master hands its last 30 empties to.
    assert_eq!(searcher.ab_config().probcut, 7);
    assert_eq!(Level::Master.searcher(1).ab_config().probcut, 7);
    let mut searcher = Level::Novice.searcher(3);
    let r = searcher.search(
        &Position::start(),
        Variant::Othello,
        &SearchLimits::iterations(200),
        &CancelHandle::new(),
    );
    let legal = Variant::Othello.legal_moves(&Position::start());
    assert!(
        r.best
            .and_then(Move::square)
            .is_some_and(|s| legal.contains(s))
    );
}

#[test]
fn the_generator_speaks_rand_core() {
    let mut ours = FastRng::seed_from_u64(4);
    let mut again = FastRng::new(4);
    assert_eq!(Rng::next_u64(&mut ours), again.next_u64());
    let start = Position::start();
    let pick = random_square(start.flip_moves(), &mut ours);
    assert!(start.flip_moves().contains(pick));
}
