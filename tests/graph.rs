//! The evaluation graph's data, headlessly: estimates from the searches of a game, the
//! post-game analysis that completes them, and what happens on undo, redo and suspend.

use bevy::prelude::*;
use bevy::window::AppLifecycle;
use montello::game::eval::{Estimate, EvalHistory};
use montello::game::flow::{CurrentGame, GameCommand, GameSetup};
use montello::game::player::Player;
use montello::game::players::Players;
use montello::platform::lifecycle::WorkPaused;
use montello_engine::Variant;

mod common;
use common::{QUICK_AI, run_until, send, tap, two_humans};

fn app() -> App {
    common::logic_app(None)
}

fn eval(app: &App) -> &EvalHistory {
    app.world().resource::<EvalHistory>()
}

fn finished_ai_game() -> App {
    let mut app = app();
    send(
        &mut app,
        GameCommand::NewGame(GameSetup {
            players: Players {
                black: QUICK_AI,
                white: QUICK_AI,
            },
            variant: Variant::Othello,
        }),
    );
    run_until(&mut app, "the end of the game", |app| {
        app.world().resource::<CurrentGame>().game().is_over()
    });
    app
}

#[test]
fn a_finished_game_gets_an_estimate_for_every_position() {
    let mut app = finished_ai_game();
    let plies = app.world().resource::<CurrentGame>().game().ply();
    let searched = eval(&app)
        .estimates()
        .iter()
        .filter(|e| matches!(e, Some(Estimate::Search(_))))
        .count();
    assert!(
        searched * 2 > plies,
        "most positions were rated by the AI's own searches ({searched} of {plies})"
    );
    run_until(&mut app, "the post-game analysis", |app| {
        eval(app).complete()
    });
    let estimates = eval(&app).estimates();
    assert_eq!(estimates.len(), plies + 1, "one per position");
    assert!(
        estimates
            .iter()
            .flatten()
            .all(|e| (0.0..=1.0).contains(&e.black_win()))
    );
    let result = app
        .world()
        .resource::<CurrentGame>()
        .game()
        .result()
        .expect("over");
    let exact = match result.winner() {
        Some(montello_engine::Side::Black) => 1.0,
        Some(montello_engine::Side::White) => 0.0,
        None => 0.5,
    };
    assert_eq!(estimates.last(), Some(&Some(Estimate::Final(exact))));
    assert!(!eval(&app).analysing());
}

#[test]
fn undo_drops_the_estimates_past_the_new_end_and_redo_needs_no_new_analysis() {
    let mut app = finished_ai_game();
    run_until(&mut app, "the post-game analysis", |app| {
        eval(app).complete()
    });
    let before = eval(&app).estimates().to_vec();
    let plies = before.len() - 1;
    // Two humans now, so undo steps one move and no AI plays on.
    app.world_mut().resource_mut::<Players>().black = Player::Human;
    app.world_mut().resource_mut::<Players>().white = Player::Human;
    send(&mut app, GameCommand::Undo);
    let after_undo = eval(&app).estimates().to_vec();
    assert_eq!(after_undo.len(), plies, "the final position is gone");
    assert_eq!(after_undo[..], before[..plies], "the rest is kept");
    send(&mut app, GameCommand::Redo);
    assert!(eval(&app).complete(), "{:?}", eval(&app));
    assert!(!eval(&app).analysing(), "nothing left to analyse");
    assert_eq!(eval(&app).estimates(), &before[..]);
}

#[test]
fn no_analysis_runs_while_the_app_is_suspended() {
    let mut app = app();
    send(&mut app, AppLifecycle::WillSuspend);
    app.update();
    assert!(app.world().resource::<WorkPaused>().0);
    // Two humans finish a game while the app is in the background: black a1, white b1, and
    // black's c1 ends it.
    two_humans(&mut app, Variant::Othello);
    send(
        &mut app,
        GameCommand::Import(
            "XO-------------------------------------------------------------- X".to_string(),
        ),
    );
    tap(&mut app, "c1");
    assert!(app.world().resource::<CurrentGame>().game().is_over());
    for _ in 0..50 {
        app.update();
        assert!(!eval(&app).analysing(), "no CPU in the background");
    }
    assert_eq!(
        eval(&app).estimates(),
        &[None, Some(Estimate::Final(1.0))],
        "only the exact end is known"
    );
    send(&mut app, AppLifecycle::WillResume);
    run_until(&mut app, "the analysis after resuming", |app| {
        eval(app).complete()
    });
    assert_eq!(eval(&app).estimates()[0], Some(Estimate::Analysis(1.0)));
}
