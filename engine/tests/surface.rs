//! The public surface as a caller sees it: every type at its one path (the root for the
//! rules' types, a public module for the functions that group there), bitboards as
//! [`Bitboard`] rather than raw `u64`, and the `rand_core` traits on the random generator.
//! Written the way the app uses the engine, so a change that breaks the app breaks here.

use montello_engine::notation::{parse_any, transcript};
use montello_engine::rand_core::{Rng, SeedableRng};
use montello_engine::search::{
    AlphaBetaConfig, CancelHandle, Level, SearchLimits, Searcher, Strategy,
};
use montello_engine::{
    Bitboard, FastRng, Game, IllegalReason, Move, ParseError, Position, PositionError, Side,
    Square, Variant, movegen, random_endgame, random_square,
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

/// Master as a caller sees it, not its knobs: from 30 empties on, given a node budget or a
/// clock of half a second or more, its move is the alpha-beta search's (the `ab` player's
/// move, values and node count, with a table of a quarter of the memory); on a shorter clock
/// the tree plays, as it does at every level below and in the middle game.
#[test]
fn master_hands_the_endgame_to_alpha_beta_and_the_levels_below_keep_the_tree() {
    let budget = SearchLimits::iterations(2_000);
    let run = |mut searcher: Searcher, pos: &Position, limits: &SearchLimits| {
        let r = searcher.search(pos, Variant::Othello, limits, &CancelHandle::new());
        let best = r.best.and_then(Move::square);
        let legal = Variant::Othello.legal_moves(pos);
        assert!(best.is_some_and(|s| legal.contains(s)), "{best:?}");
        (r.best, r.moves, r.iterations)
    };
    let ab = |pos: &Position| {
        let quarter = SearchLimits {
            memory: budget.memory / 4,
            ..budget
        };
        run(Searcher::new(Strategy::AlphaBeta, 1), pos, &quarter)
    };
    let late = random_endgame(8, 24);
    assert_eq!(
        run(Level::Master.searcher(1), &late, &budget),
        ab(&late),
        "Master at 24 empties: the alpha-beta search's move"
    );
    for level in Level::ALL.into_iter().filter(|&l| l != Level::Master) {
        assert_ne!(
            run(level.searcher(1), &late, &budget),
            ab(&late),
            "{level} keeps the tree"
        );
    }
    let short = SearchLimits {
        time: Some(std::time::Duration::from_millis(100)),
        ..budget
    };
    assert_ne!(
        run(Level::Master.searcher(1), &late, &short),
        ab(&late),
        "on a short clock Master keeps the tree"
    );
    let middle = random_endgame(8, 40);
    assert_ne!(
        run(Level::Master.searcher(1), &middle, &budget),
        ab(&middle),
        "40 empties: the tree's move"
    );
}

/// A hint's list: every legal move once, the move to play first, the runners-up by visits.
#[test]
fn a_search_ranks_every_move_and_the_runners_up_by_visits() {
    let pos = random_endgame(3, 44);
    let legal = Variant::Othello.legal_moves(&pos);
    for level in [Level::Strong, Level::Master] {
        let r = level.searcher(2).search(
            &pos,
            Variant::Othello,
            &SearchLimits::iterations(1_500),
            &CancelHandle::new(),
        );
        let squares: Vec<Square> = r.moves.iter().filter_map(|m| m.mv.square()).collect();
        assert_eq!(
            squares.len(),
            legal.count() as usize,
            "{level}: {squares:?}"
        );
        assert_eq!(squares.iter().copied().collect::<Bitboard>(), legal);
        assert_eq!(r.moves.first().map(|m| m.mv), r.best, "{level}");
        assert!(
            r.moves[1..].windows(2).all(|w| w[0].visits >= w[1].visits),
            "{level}: the runners-up by visits"
        );
        assert!(
            r.moves.iter().map(|m| m.visits).sum::<u64>() > 0,
            "{level}: the moves were searched"
        );
        assert!(r.moves.iter().all(|m| (0.0..=1.0).contains(&m.win_rate)));
    }
}

/// Master at a small fixed budget still outplays the weakest level: every move legal (the
/// game's own rules check each), and more than half of a few seeded games won.
#[test]
fn master_on_a_small_budget_beats_the_beginner() {
    let mut master_wins = 0;
    let games = 3;
    for seed in 0..games {
        let master_is_black = seed % 2 == 0;
        let mut master = Level::Master.searcher(seed);
        let mut beginner = Level::Beginner.searcher(seed);
        let mut game = Game::new(Variant::Othello);
        while !game.is_over() {
            let black_to_move = game.position().side_to_move() == Side::Black;
            let (searcher, limits) = if black_to_move == master_is_black {
                (&mut master, SearchLimits::iterations(300))
            } else {
                (&mut beginner, SearchLimits::iterations(200))
            };
            let r = searcher.search(
                &game.position(),
                Variant::Othello,
                &limits,
                &CancelHandle::new(),
            );
            let mv = r.best.unwrap_or_else(|| panic!("game {seed}: no move"));
            game.play(mv)
                .unwrap_or_else(|e| panic!("game {seed}: {mv} refused: {e}"));
        }
        let result = game.result().unwrap_or_else(|| panic!("game {seed} over"));
        let master_side = if master_is_black {
            Side::Black
        } else {
            Side::White
        };
        if result.winner() == Some(master_side) {
            master_wins += 1;
        }
    }
    assert!(
        master_wins * 2 > games,
        "Master won {master_wins} of {games}"
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
