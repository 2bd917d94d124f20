//! The game review in the app (#51): headless apps on a temporary data directory. A finished
//! game is reviewed on its own, with the engine's figures; the review is saved with the game
//! and read back, not computed again; any game action stops a review under way; the move
//! list's line says what the move on the board cost.

use montello::game::flow::{CurrentGame, GameCommand};
use montello::game::review::{GameReview, ReviewSettings};
use montello::persist::save_format::SavedGame;
use montello::persist::storage::{self, Loaded};
use montello_engine::search::review::review;
use montello_engine::{Game, Variant};
use std::path::{Path, PathBuf};

mod common;
use common::{GAME_A as GAME, QUICK_REVIEW as QUICK, run_until, send, tap, two_humans};

fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir("review", name)
}

fn app_on(dir: &Path) -> bevy::app::App {
    let mut app = common::logic_app(Some(dir));
    app.insert_resource(ReviewSettings(QUICK));
    // Two people play the game below: White's forced pass is played at once.
    app.world_mut()
        .resource_mut::<montello::prefs::settings::Settings>()
        .human_pass_notice = std::time::Duration::ZERO;
    app
}

fn game(app: &bevy::app::App) -> &Game {
    app.world().resource::<CurrentGame>().game()
}

fn kept(app: &bevy::app::App) -> &GameReview {
    app.world().resource::<GameReview>()
}

/// Taps each move of a transcript, a frame more after each for a forced pass to be played.
fn play(app: &mut bevy::app::App, moves: &str) {
    for i in (0..moves.len()).step_by(2) {
        tap(app, &moves[i..i + 2]);
        app.update();
    }
}

#[test]
fn a_finished_game_is_reviewed_saved_and_read_back_without_computing_it_again() {
    let dir = temp_dir("saved");
    let expected = {
        let game = montello_engine::notation::transcript::parse(GAME, Variant::Othello)
            .expect("a legal game");
        review(&game, &QUICK, None, |_, _| {}).expect("done")
    };
    assert_eq!(expected.moves.len(), 58);
    {
        let mut app = app_on(&dir);
        two_humans(&mut app, Variant::Othello);
        play(&mut app, GAME);
        assert!(game(&app).is_over(), "the whole game was played");
        run_until(&mut app, "the review of the finished game", |app| {
            kept(app).covers(game(app))
        });
        assert_eq!(kept(&app).of_game(game(&app)), Some(expected.clone()));
        assert_eq!(kept(&app).progress(), None);
        // The move on the board (the last) is described under the move list.
        let current = app.world().resource::<CurrentGame>();
        let line = montello::ui::screens::move_list_review_line(
            current,
            kept(&app),
            montello::prefs::choices::Lang::En,
        );
        let last = expected.moves[57];
        assert!(
            line.starts_with(&last.played.to_string()) && line.contains("(exact)"),
            "{line}"
        );
        // Written with the game.
        app.update();
        let Loaded::Latest(saved) = storage::load::<SavedGame>(&dir) else {
            panic!("the game was saved");
        };
        let (moves, read) = saved.review().expect("fits").expect("a review saved");
        assert_eq!(moves, game(&app).history());
        assert_eq!(read, expected);
    } // dropped like a killed app
    let mut app = app_on(&dir);
    // Read back with the game: there from the first frame, nothing running.
    assert!(kept(&app).covers(game(&app)), "{:?}", kept(&app));
    assert_eq!(kept(&app).progress(), None, "not computed again");
    app.update();
    assert_eq!(kept(&app).progress(), None, "not computed again");
    assert_eq!(kept(&app).of_game(game(&app)), Some(expected.clone()));
    // An undo keeps the review of the moves still on the board.
    send(&mut app, GameCommand::Undo);
    assert!(kept(&app).covers(game(&app)));
    assert_eq!(
        kept(&app).of_ply(game(&app), 3),
        Some(expected.moves[2]),
        "the third move's review"
    );
}

#[test]
fn a_game_action_stops_a_review_and_the_request_is_kept_for_the_moves_only() {
    let dir = temp_dir("cancel");
    let mut app = app_on(&dir);
    two_humans(&mut app, Variant::Othello);
    play(&mut app, "f5d6c3d3c4f4");
    // Nothing is reviewed during a game unless asked.
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(kept(&app).progress(), None);
    assert!(!kept(&app).covers(game(&app)));
    app.world_mut().resource_mut::<GameReview>().request();
    app.update();
    assert!(
        kept(&app).progress().is_some() || kept(&app).covers(game(&app)),
        "a review started"
    );
    if kept(&app).progress().is_some() {
        // A move now: the review of the old moves stops, and the request goes with it.
        tap(&mut app, "f6");
        assert_eq!(kept(&app).progress(), None, "stopped by the move");
        for _ in 0..5 {
            app.update();
        }
        assert_eq!(kept(&app).progress(), None, "not started again on its own");
    }
    // Asked again, it covers the moves on the board, with the engine's figures.
    app.world_mut().resource_mut::<GameReview>().request();
    run_until(&mut app, "the requested review", |app| {
        kept(app).covers(game(app))
    });
    let expected = review(game(&app), &QUICK, None, |_, _| {}).expect("done");
    assert_eq!(kept(&app).of_game(game(&app)), Some(expected));
}
