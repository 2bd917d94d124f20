//! Property tests: random reachable positions (random legal games of random length, from the
//! standard start, the free-opening start and under every variant) checked against the plain
//! array reference (`common/naive.rs`), undo/redo, and the round trips of every notation.
//!
//! proptest prints the smallest failing list of choices; the seeded games at the end print
//! their seed.

use montello_engine::notation::{board_string, ggf, transcript};
use montello_engine::{FastRng, Game, Move, Position, Square, Variant};
use proptest::prelude::*;

#[path = "common/naive.rs"]
mod naive;

/// Plays a game of `variant` from its start, move `i` chosen by `choices[i]` among the
/// moves available, until the choices or the game run out.
fn game_from_choices(variant: Variant, choices: &[u8]) -> Game {
    let mut game = Game::new(variant);
    for &choice in choices {
        let moves = game.moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[usize::from(choice) % moves.len()];
        if let Err(e) = game.play(mv) {
            panic!("a move from Game::moves was refused: {e}");
        }
    }
    game
}

/// A whole random game from a seed.
fn seeded_game(variant: Variant, seed: u64) -> Game {
    let mut rng = FastRng::new(seed);
    let mut game = Game::new(variant);
    loop {
        let moves = game.moves();
        if moves.is_empty() {
            return game;
        }
        let mv = moves[rng.below(moves.len() as u32) as usize];
        if let Err(e) = game.play(mv) {
            panic!("seed {seed}: a move from Game::moves was refused: {e}");
        }
    }
}

fn squares(indices: &[usize]) -> Vec<Square> {
    indices
        .iter()
        .filter_map(|&i| u8::try_from(i).ok().and_then(Square::from_index))
        .collect()
}

/// The bitboard code and the naive reference agree on everything about `pos`.
fn check_against_naive(pos: &Position) -> Result<(), TestCaseError> {
    let cells = naive::cells(pos.player(), pos.opponent());
    let naive_moves = naive::legal_moves(&cells);
    let fast_moves: Vec<Square> = pos.flip_moves().squares().collect();
    prop_assert_eq!(
        &fast_moves,
        &squares(&naive_moves),
        "legal moves of {:?}",
        pos
    );
    for sq in Square::ALL {
        let naive_flips = naive::flips(&cells, usize::from(sq.index()));
        let mut expected = squares(&naive_flips);
        expected.sort();
        let fast: Vec<Square> = pos.flips(sq).squares().collect();
        prop_assert_eq!(&fast, &expected, "flips of {} in {:?}", sq, pos);
    }
    for &m in &naive_moves {
        let Some(sq) = squares(&[m]).first().copied() else {
            continue;
        };
        let next = pos.play_unchecked(sq);
        prop_assert_eq!(
            naive::cells(next.player(), next.opponent()),
            naive::play(&cells, m),
            "{} played in {:?}",
            sq,
            pos
        );
    }
    let opponent_moves = naive::legal_moves(&naive::swap(&cells));
    prop_assert_eq!(
        pos.only_opponent_can_move(),
        naive_moves.is_empty() && !opponent_moves.is_empty(),
        "must pass in {:?}",
        pos
    );
    prop_assert_eq!(
        pos.both_stuck(),
        naive_moves.is_empty() && opponent_moves.is_empty(),
        "game over in {:?}",
        pos
    );
    Ok(())
}

/// Undo walks back through the exact positions, redo replays them, and replaying the redo
/// move by hand keeps the redo line.
fn check_undo_redo(game: &Game) -> Result<(), TestCaseError> {
    let positions = game.positions().to_vec();
    let history = game.history().to_vec();
    let mut g = game.clone();
    for i in (0..history.len()).rev() {
        prop_assert_eq!(g.undo(), Some(history[i]));
        prop_assert_eq!(g.position(), positions[i]);
        prop_assert_eq!(g.ply(), i);
    }
    prop_assert_eq!(g.undo(), None);
    prop_assert_eq!(g.redo_moves(), &history[..]);
    for (i, &mv) in history.iter().enumerate() {
        prop_assert_eq!(g.redo(), Some(mv));
        prop_assert_eq!(g.position(), positions[i + 1]);
    }
    prop_assert_eq!(g.redo(), None);
    prop_assert_eq!(&g, game);
    if let Some(&first) = history.first() {
        let mut g = game.clone();
        prop_assert!(g.go_to(0));
        prop_assert!(g.play(first).is_ok());
        prop_assert_eq!(g.redo_moves(), &history[1..]);
    }
    Ok(())
}

/// Transcripts with and without passes, GGF records and board strings read back.
fn check_round_trips(game: &Game) -> Result<(), TestCaseError> {
    let variant = game.variant();
    let history = game.history();

    let explicit = transcript::to_transcript_with_passes(history);
    let back = transcript::parse(&explicit, variant);
    prop_assert_eq!(
        back.as_ref().map(|g| g.history()),
        Ok(history),
        "{}",
        explicit
    );

    // Players leave passes out; a pass at the very end cannot be told from the text, so it
    // is the history without its trailing passes that comes back.
    let implicit = transcript::to_transcript(history);
    let mut expected = history;
    while let [rest @ .., Move::Pass] = expected {
        expected = rest;
    }
    let back = transcript::parse(&implicit, variant);
    prop_assert_eq!(
        back.as_ref().map(|g| g.history()),
        Ok(expected),
        "{}",
        implicit
    );

    let text = ggf::game_to_ggf(game);
    let back = ggf::parse(&text);
    prop_assert_eq!(
        back.as_ref().map(|r| r.game.history()),
        Ok(history),
        "{}",
        text
    );
    // GGF carries Othello and the free opening (by its empty start), not NoMoveEndsGame.
    let expected_variant = match variant {
        Variant::NoMoveEndsGame => Variant::Othello,
        v => v,
    };
    prop_assert_eq!(back.map(|r| r.game.variant()), Ok(expected_variant));

    for pos in game.positions() {
        let s = board_string::to_board_string(pos);
        prop_assert_eq!(board_string::parse(&s), Ok(*pos), "{}", s);
        let star = s.replace('X', "*").replace('-', ".");
        prop_assert_eq!(board_string::parse(&star), Ok(*pos), "{}", star);
    }
    Ok(())
}

fn check_game(game: &Game) -> Result<(), TestCaseError> {
    for pos in game.positions() {
        check_against_naive(pos)?;
    }
    check_undo_redo(game)?;
    check_round_trips(game)
}

fn variants() -> impl Strategy<Value = Variant> {
    prop_oneof![
        3 => Just(Variant::Othello),
        2 => Just(Variant::FreeOpening),
        1 => Just(Variant::NoMoveEndsGame),
    ]
}

/// A finite number for GGF evaluations and times.
fn annotation() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        Just(None),
        (-100i32..100).prop_map(|n| Some(f64::from(n) / 4.0)),
        (-1e6f64..1e6).prop_map(Some),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_games_agree_with_the_reference_and_round_trip(
        variant in variants(),
        choices in prop::collection::vec(any::<u8>(), 0..70),
    ) {
        check_game(&game_from_choices(variant, &choices))?;
    }

    #[test]
    fn ggf_annotations_and_metadata_round_trip(
        variant in prop_oneof![Just(Variant::Othello), Just(Variant::FreeOpening)],
        choices in prop::collection::vec(any::<u8>(), 0..70),
        notes in prop::collection::vec((annotation(), annotation()), 70),
        black in proptest::option::of("[ -~]{0,12}"),
        white in proptest::option::of("\\PC{0,12}"),
        margin in proptest::option::of(-64i32..=64),
    ) {
        let game = game_from_choices(variant, &choices);
        let mut record = ggf::GgfRecord::from_game(game);
        for (m, (eval, time)) in record.moves.iter_mut().zip(notes) {
            m.eval = eval;
            m.time = time;
        }
        record.black = black;
        record.white = white;
        record.result = margin.map(|m| ggf::GgfResult {
            margin: f64::from(m),
            flag: Some(ggf::ResultFlag::Resigned),
        });
        let text = ggf::to_ggf(&record);
        prop_assert_eq!(ggf::parse(&text), Ok(record), "{}", text);
    }
}

/// Many whole games from seeds, so that passes (rare before the end) are certainly covered:
/// the test counts them and fails if the generator produced none.
#[test]
fn whole_games_with_passes() {
    let mut games_with_passes = 0;
    let mut passes = 0;
    for seed in 0..300u64 {
        let variant = Variant::ALL[(seed % 3) as usize];
        let game = seeded_game(variant, seed);
        let n = game.history().iter().filter(|&&m| m == Move::Pass).count();
        if n > 0 {
            games_with_passes += 1;
            passes += n;
        }
        if let Err(e) = check_game(&game) {
            panic!("seed {seed}, {variant}: {e}");
        }
        // A pass in the middle of the game, then cut there: the round trips still hold.
        if let Some(at) = game.history().iter().position(|&m| m == Move::Pass) {
            let cut = Game::new(variant).replay(&game.history()[..=at]);
            if let Err(e) = check_game(&cut) {
                panic!(
                    "seed {seed}, {variant}, cut after the pass at ply {}: {e}",
                    at + 1
                );
            }
        }
    }
    // NoMoveEndsGame never passes; about three Othello or free-opening games in ten do.
    assert!(
        games_with_passes >= 30,
        "only {games_with_passes} of 300 games had a pass ({passes} passes)"
    );
}

trait Replay {
    fn replay(self, moves: &[Move]) -> Game;
}

impl Replay for Game {
    fn replay(mut self, moves: &[Move]) -> Game {
        for &mv in moves {
            if let Err(e) = self.play(mv) {
                panic!("replaying {mv}: {e}");
            }
        }
        self
    }
}
