//! The win bar's figure in the app (#54): headless apps between two people, where no search
//! runs. The figure is the engine's estimate of the position on the board, made after every
//! ply and for a position stepped back to; the last figure stands while the next is made; a
//! finished game's is its result's margin, exact; nothing runs while the bar is off.

use montello::game::flow::{CurrentGame, GameCommand};
use montello::game::margin::{EstimateSettings, MarginEstimate};
use montello::prefs::settings::Settings;
use montello_engine::search::review::{Estimate, EstimateConfig, estimate};
use montello_engine::{Position, Variant};

mod common;
use common::{run_until, send, tap, two_humans};

/// Shallow enough for a test build: 4 plies, the last 10 empties exact.
const QUICK: EstimateConfig = EstimateConfig {
    depth: 4,
    exact_empties: 10,
    table_bytes: 1 << 20,
};

/// `common::logic_app` with the quick estimate from its first frame on.
fn app() -> bevy::app::App {
    let mut app = bevy::app::App::new();
    app.add_plugins(bevy::MinimalPlugins)
        .insert_resource(EstimateSettings(QUICK))
        .add_plugins(montello::LogicPlugins);
    app.world_mut().resource_mut::<Settings>().pass_notice = std::time::Duration::ZERO;
    app.update();
    two_humans(&mut app, Variant::Othello);
    app
}

fn shown(app: &bevy::app::App) -> Position {
    app.world().resource::<CurrentGame>().shown_position()
}

fn figure(app: &bevy::app::App) -> Option<Estimate> {
    let world = app.world();
    world
        .resource::<MarginEstimate>()
        .figure(world.resource::<CurrentGame>())
}

fn made(app: &bevy::app::App) -> bool {
    let world = app.world();
    world
        .resource::<MarginEstimate>()
        .is_made_for(world.resource::<CurrentGame>())
}

/// After every ply the figure is the engine's estimate of the new position; until it is made,
/// the figure of the position before stands (the bar does not flash empty at every move).
#[test]
fn the_figure_follows_every_ply_and_the_last_one_stands_meanwhile() {
    let mut app = app();
    run_until(&mut app, "the start's figure", made);
    let start = figure(&app).expect("the start has a figure");
    assert_eq!(
        Some(start),
        estimate(&shown(&app), Variant::Othello, &QUICK)
    );
    let mut before = start;
    for square in ["f5", "d6", "c3", "d3", "c4"] {
        tap(&mut app, square);
        if !made(&app) {
            assert_eq!(
                figure(&app),
                Some(before),
                "after {square}: the last figure stands"
            );
        }
        run_until(&mut app, "the figure after a move", made);
        let now = figure(&app).expect("a figure");
        assert_eq!(Some(now), estimate(&shown(&app), Variant::Othello, &QUICK));
        before = now;
    }
}

/// Stepping back through the game shows the figure of the position on the board, not the
/// game's last one.
#[test]
fn a_step_back_in_the_game_shows_that_positions_figure() {
    let mut app = app();
    for square in ["f5", "d6", "c3", "d3", "c4", "f4"] {
        tap(&mut app, square);
    }
    run_until(&mut app, "the figure after six moves", made);
    send(&mut app, GameCommand::Review(Some(1)));
    run_until(&mut app, "the figure after one move", made);
    let after_one = montello_engine::notation::transcript::parse("f5", Variant::Othello)
        .expect("legal")
        .position();
    assert_eq!(shown(&app), after_one);
    assert_eq!(figure(&app), estimate(&after_one, Variant::Othello, &QUICK));
}

/// A finished game's figure is the margin its result gives (what the status line says), exact
/// at once, with nothing to run.
#[test]
fn a_finished_games_figure_is_its_results_margin() {
    let mut app = app();
    // Two black discs and no white one: over, Black wins 2-0 (64-0 with the 62 empties given
    // to the winner, which the bar does not show: the status says "by 2").
    send(
        &mut app,
        GameCommand::Import(format!("XX{} O", "-".repeat(62))),
    );
    let result = app.world().resource::<CurrentGame>().game().result();
    let result = result.expect("the game is over");
    app.update();
    let e = figure(&app).expect("a figure");
    assert_eq!((e.black_margin, e.exact), (2.0, true));
    assert_eq!(e.rounded(), i32::from(result.margin()));
    assert!(!app.world().resource::<MarginEstimate>().is_running());
}

/// With the bar off no estimate runs and none is made; turned on, the figure comes.
#[test]
fn nothing_runs_while_the_bar_is_off() {
    let mut app = app();
    app.world_mut().resource_mut::<Settings>().win_bar = false;
    // The start's estimate, begun before the bar went off, is let finish.
    run_until(&mut app, "no estimate running", |app| {
        !app.world().resource::<MarginEstimate>().is_running()
    });
    tap(&mut app, "f5");
    for _ in 0..20 {
        app.update();
        assert!(!app.world().resource::<MarginEstimate>().is_running());
    }
    assert!(!made(&app));
    app.world_mut().resource_mut::<Settings>().win_bar = true;
    run_until(&mut app, "the figure once the bar is on", made);
    assert!(figure(&app).is_some());
}
