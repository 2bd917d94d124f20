//! The coach after a game (#67), in headless apps: the values on the squares are the engine's
//! valuation of the position shown, each the figure the review gives that move; a try at a
//! better move than a mistake is judged by exact values, found within the threshold and
//! refused beyond it; Next goes through the player's marked moves in order; leaving goes back
//! to the game; the best line at a reviewed move is the engine's and steps on the board.

use bevy::app::App;
use montello::board::labels::shown_values;
use montello::game::ai::LastHint;
use montello::game::flow::{CurrentGame, GameCommand, Refusal, ShownLine, TapRefused};
use montello::game::practice::{Practice, PracticeCommand, TryState, judge};
use montello::game::review::{GameReview, ReviewSettings, board_ply};
use montello::game::values::{SquareValues, Valued, ValuesAsked, ValuesSettings};
use montello::ui::screens::best_line::offered;
use montello_engine::search::review::{Class, ValuesConfig, move_values, review};
use montello_engine::{Game, Variant};

mod common;
use common::{GAME_A as GAME, QUICK_REVIEW as QUICK, run_until, send, tap, two_humans};

/// The values as shallow as the review, so a value and the review's figure for a move agree.
const QUICK_VALUES: ValuesConfig = ValuesConfig {
    exact_empties: 12,
    depth: 4,
    table_bytes: 1 << 20,
};

/// Two people played GAME to the end and it is reviewed.
fn reviewed_app() -> App {
    let mut app = common::logic_app(None);
    app.insert_resource(ReviewSettings(QUICK))
        .insert_resource(ValuesSettings(QUICK_VALUES));
    app.world_mut()
        .resource_mut::<montello::prefs::settings::Settings>()
        .human_pass_notice = std::time::Duration::ZERO;
    two_humans(&mut app, Variant::Othello);
    for i in (0..GAME.len()).step_by(2) {
        tap(&mut app, &GAME[i..i + 2]);
        app.update();
    }
    run_until(&mut app, "the review", |app| {
        let current = app.world().resource::<CurrentGame>();
        current.game().is_over() && app.world().resource::<GameReview>().covers(current.game())
    });
    app
}

fn current(app: &App) -> &CurrentGame {
    app.world().resource::<CurrentGame>()
}

fn practice(app: &App) -> Option<montello::game::practice::Attempt> {
    app.world().resource::<Practice>().0
}

/// Stepping back in the review, every legal move of the position before the move shown is
/// valued (the choices its player had), and each value is the review's own figure for that
/// move played there (a separate search of it); the move played and the best one among them
/// are the review's.
#[test]
fn the_values_on_the_squares_are_a_separate_search_of_each_move() {
    let mut app = reviewed_app();
    let ply = 20;
    send(&mut app, GameCommand::Review(Some(ply)));
    let game = current(&app).game().clone();
    let position = game.positions()[ply - 1];
    let valued = Valued {
        variant: Variant::Othello,
        position,
    };
    run_until(&mut app, "the values of the position shown", |app| {
        app.world().resource::<SquareValues>().of(&valued).is_some()
    });
    let values = app
        .world()
        .resource::<SquareValues>()
        .of(&valued)
        .expect("found")
        .to_vec();
    assert_eq!(values.len(), Variant::Othello.moves(&position).len());
    for v in &values {
        let mut tried = Game::from_position(position, Variant::Othello);
        tried.play(v.mv).expect("legal");
        let alone = review(&tried, &QUICK, None, |_, _| {}).expect("done");
        assert_eq!(alone.moves[0].played_value, v.value, "{}", v.mv);
    }
    let reviewed = app
        .world()
        .resource::<GameReview>()
        .of_ply(&game, ply)
        .expect("move 20 reviewed");
    assert_eq!(values[0].value, reviewed.best_value);
    let played = values
        .iter()
        .find(|v| v.mv == reviewed.played)
        .expect("legal");
    assert_eq!(played.value, reviewed.played_value);
    // Back to the game: nothing more is valued for the squares.
    send(&mut app, GameCommand::Review(None));
    assert!(!app.world().resource::<SquareValues>().is_running());
}

/// The line the review offers at a move is the engine's best line from the position before
/// it, with the values; stepping into it shows its positions on the board (no values on the
/// squares then, they are the reviewed position's), the game untouched; another step of the
/// review leaves it.
#[test]
fn the_best_line_at_a_reviewed_move_is_the_engines_and_steps_on_the_board() {
    let mut app = reviewed_app();
    let ply = 20;
    send(&mut app, GameCommand::Review(Some(ply)));
    let game = current(&app).game().clone();
    let position = game.positions()[ply - 1];
    let offer = |app: &App| {
        let w = app.world();
        offered(
            w.resource::<CurrentGame>(),
            w.resource::<ValuesAsked>(),
            w.resource::<LastHint>(),
            w.resource::<Practice>(),
            w.resource::<SquareValues>(),
        )
    };
    run_until(&mut app, "the best line", |app| offer(app).is_some());
    let line = offer(&app).expect("offered");
    let engine = move_values(&position, Variant::Othello, &QUICK_VALUES, None).expect("done");
    assert_eq!(
        (line.from, &line.moves, line.shown),
        (ply - 1, &engine.line, 0),
        "the engine's line, nothing of it shown yet"
    );
    assert_eq!(line.moves[0], engine.moves[0].mv, "the best move first");
    // Three moves into it.
    send(
        &mut app,
        GameCommand::ShowLine(Some(ShownLine {
            shown: 3,
            ..line.clone()
        })),
    );
    let mut expected = position;
    for mv in &line.moves[..3] {
        expected = Variant::Othello.try_play(&expected, *mv).expect("legal");
    }
    assert_eq!(current(&app).shown_position(), expected);
    assert_eq!(current(&app).shown_last_move(), Some(line.moves[2]));
    assert_eq!(current(&app).game().history(), game.history());
    assert_eq!(
        offer(&app).map(|l| l.shown),
        Some(3),
        "the row marks the move shown"
    );
    let w = app.world();
    let values = shown_values(
        w.resource::<CurrentGame>(),
        w.resource::<ValuesAsked>(),
        w.resource::<LastHint>(),
        w.resource::<Practice>(),
        w.resource::<montello::game::puzzle::Puzzling>(),
        w.resource::<SquareValues>(),
    );
    assert!(
        values.is_empty(),
        "no values on a line's squares: {values:?}"
    );
    // An illegal line is refused; a step of the review leaves the line.
    let mut wrong = line.clone();
    wrong.moves.swap(0, 1);
    send(
        &mut app,
        GameCommand::ShowLine(Some(ShownLine { shown: 2, ..wrong })),
    );
    assert_eq!(current(&app).shown_position(), expected, "refused");
    send(&mut app, GameCommand::Review(Some(ply + 1)));
    assert!(current(&app).line().is_none());
    assert_eq!(current(&app).shown_position(), game.positions()[ply + 1]);
}

/// At a mistake solved exactly, a try within two discs of the best is found and a worse one
/// is refused with its value; a square that is no move is refused as a move would be; Next
/// visits the marked moves in order; Stop goes back to the game.
#[test]
fn try_again_judges_tries_by_exact_values_and_goes_through_the_mistakes() {
    let mut app = reviewed_app();
    let game = current(&app).game().clone();
    let whole = app
        .world()
        .resource::<GameReview>()
        .of_game(&game)
        .expect("reviewed");
    // A mistake in the exact part (12 empties or fewer before it).
    let mistake = whole
        .moves
        .iter()
        .find(|m| m.exact && m.class() >= Class::Mistake)
        .copied()
        .expect("an exact mistake in this game");
    let ply = board_ply(game.history(), mistake.ply).expect("on the board");
    send(&mut app, PracticeCommand::Start(ply));
    app.update();
    assert_eq!(
        current(&app).review(),
        Some(ply - 1),
        "the position before it"
    );
    let attempt = practice(&app).expect("a try under way");
    assert_eq!((attempt.ply, attempt.state), (ply, TryState::Asking));

    let position = game.positions()[ply - 1];
    let values = move_values(&position, Variant::Othello, &QUICK_VALUES, None)
        .expect("done")
        .moves;
    assert!(values.iter().all(|v| v.exact));
    // The mistake itself again: refused, with its value.
    tap(&mut app, &mistake.played.to_string());
    run_until(&mut app, "the try judged", |app| {
        matches!(practice(app).map(|a| a.state), Some(TryState::Judged(_)))
    });
    let Some(TryState::Judged(j)) = practice(&app).map(|a| a.state) else {
        unreachable!()
    };
    assert_eq!(Some(j), judge(&values, mistake.played));
    assert!(!j.found && j.exact);
    assert_eq!(j.loss(), mistake.loss(), "the review's exact loss");
    // A square that is no move there: refused as a move would be, the try unchanged.
    let occupied = montello_engine::Square::ALL
        .into_iter()
        .find(|sq| !position.empties().contains(*sq))
        .expect("a disc on the board");
    tap(&mut app, &occupied.to_string());
    let refused: Vec<TapRefused> = app
        .world_mut()
        .resource_mut::<bevy::ecs::message::Messages<TapRefused>>()
        .drain()
        .collect();
    assert!(
        refused
            .iter()
            .any(|r| r.square == occupied && matches!(r.why, Refusal::Illegal(_))),
        "{refused:?}"
    );
    // The best move: found, and the game is unchanged.
    tap(&mut app, &values[0].mv.to_string());
    run_until(
        &mut app,
        "the best move judged",
        |app| matches!(practice(app).map(|a| a.state), Some(TryState::Judged(j)) if j.found),
    );
    assert_eq!(current(&app).game().history(), game.history());

    // Next goes through the marked moves after it, in order, then leaves for the game.
    let marked = app
        .world()
        .resource::<GameReview>()
        .marked_plies(&game, None);
    let after: Vec<usize> = marked.iter().copied().filter(|&p| p > ply).collect();
    for expected in &after {
        send(&mut app, PracticeCommand::Next);
        app.update();
        assert_eq!(practice(&app).map(|a| a.ply), Some(*expected));
        assert_eq!(current(&app).review(), Some(expected - 1));
    }
    send(&mut app, PracticeCommand::Next);
    app.update();
    assert_eq!(practice(&app), None, "past the last marked move");
    assert_eq!(current(&app).review(), None, "back to the game");
    // Started again, then a move elsewhere in the review ends it.
    send(&mut app, PracticeCommand::First);
    app.update();
    assert_eq!(practice(&app).map(|a| a.ply), marked.first().copied());
    send(&mut app, GameCommand::Review(Some(3)));
    app.update();
    assert_eq!(practice(&app), None);
}
