//! A wgpu error (device lost, out of memory, validation) goes to the app's render error
//! handler, which writes the game before anything else, then asks the app to exit (desktop;
//! on Android it then ends the process, where an exit request would leave it alive), or, where
//! the app cannot end itself (iOS, a browser), tells the player over the dead frame.

use bevy::prelude::*;
use bevy::render::error_handler::{ErrorType, RenderError, RenderErrorPolicy};
use montello::app::gpu::{Platform, RenderErrorResponse, RenderFailed, respond_to_render_error};
use montello::game::flow::CurrentGame;
use montello::prefs::choices::Lang;
use montello::prefs::i18n::Language;
use montello_engine::Variant;
use std::path::{Path, PathBuf};

mod common;
use common::{tap, two_humans};

#[test]
fn a_render_error_saves_the_game_and_asks_to_exit() {
    let (mut app, dir) = game_in_progress("render-error");
    assert_eq!(app.world().resource::<CurrentGame>().game().ply(), 3);
    // The autosave's file is gone (game_in_progress): only the handler can write it now.
    let game_file = dir.join("game.ron");
    let exits_before = app.world().resource::<Messages<AppExit>>().len();

    let error = RenderError {
        ty: ErrorType::DeviceLost,
        description: "the test lost the device".into(),
        source: None,
    };
    let mut render_world = World::new();
    let policy = montello::app::gpu::on_render_error(&error, app.world_mut(), &mut render_world);

    assert!(matches!(policy, RenderErrorPolicy::StopRendering));
    let saved = std::fs::read_to_string(&game_file).expect("the handler wrote the game");
    assert!(saved.contains("f5d6c3"), "{saved}");
    let exits = app.world().resource::<Messages<AppExit>>();
    assert_eq!(exits.len(), exits_before + 1, "an exit request");
    let mut cursor = exits.get_cursor();
    assert!(
        cursor.read(exits).any(|e| *e != AppExit::Success),
        "an error exit"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn game_in_progress(name: &str) -> (App, PathBuf) {
    let dir = std::env::temp_dir().join(format!("montello-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut app = common::logic_app(Some(&dir));
    two_humans(&mut app, Variant::Othello);
    for square in ["f5", "d6", "c3"] {
        tap(&mut app, square);
    }
    std::fs::remove_file(dir.join("game.ron")).expect("the autosave wrote game.ron");
    (app, dir)
}

fn device_lost() -> RenderError {
    RenderError {
        ty: ErrorType::DeviceLost,
        description: "the test lost the device".into(),
        source: None,
    }
}

fn exit_requests(app: &App) -> usize {
    app.world().resource::<Messages<AppExit>>().len()
}

fn saved_game(dir: &Path) -> Option<String> {
    std::fs::read_to_string(dir.join("game.ron")).ok()
}

/// iOS: winit ignores an exit request, so the app stays, its last frame frozen. The handler
/// writes the game and tells the player, in the app's language, to reopen the app; it asks
/// for no exit (which would only stop the app's updates).
#[test]
fn on_ios_a_render_error_saves_and_tells_the_player_instead_of_freezing() {
    let (mut app, dir) = game_in_progress("render-error-ios");
    let exits_before = exit_requests(&app);
    let policy = respond_to_render_error(&device_lost(), app.world_mut(), Platform::Ios);
    assert!(matches!(policy, RenderErrorPolicy::StopRendering));
    assert!(saved_game(&dir).is_some_and(|g| g.contains("f5d6c3")));
    assert_eq!(exit_requests(&app), exits_before, "no exit request on iOS");
    let failed = app.world().resource::<RenderFailed>().clone();
    assert!(failed.saved);
    assert!(
        failed.told.contains("saved") && failed.told.contains("open it again"),
        "{}",
        failed.told
    );

    // Bevy asks the handler again every frame while rendering is stopped: nothing more is
    // done (no second write, no second message).
    std::fs::remove_file(dir.join("game.ron")).expect("written once");
    let policy = respond_to_render_error(&device_lost(), app.world_mut(), Platform::Ios);
    assert!(matches!(policy, RenderErrorPolicy::StopRendering));
    assert!(saved_game(&dir).is_none(), "handled once only");
    assert_eq!(app.world().resource::<RenderFailed>(), &failed);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_message_is_in_the_players_language_and_says_when_the_game_was_not_saved() {
    let (mut app, dir) = game_in_progress("render-error-lang");
    app.insert_resource(Language(Lang::Ja));
    respond_to_render_error(&device_lost(), app.world_mut(), Platform::Web);
    let told = app.world().resource::<RenderFailed>().told.clone();
    assert!(told.contains("保存してあります"), "{told}");

    // Nowhere to write: the message does not promise a saved game.
    let mut app = common::logic_app(None);
    two_humans(&mut app, Variant::Othello);
    tap(&mut app, "f5");
    respond_to_render_error(&device_lost(), app.world_mut(), Platform::Ios);
    let failed = app.world().resource::<RenderFailed>();
    assert!(!failed.saved);
    assert!(
        failed.told.contains("could not be saved"),
        "{}",
        failed.told
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn each_platform_ends_or_tells() {
    let on = RenderErrorResponse::on;
    // The app ends where the platform lets it; Android ends its process too (winit 3325).
    assert!(on(Platform::Desktop).exit_request && !on(Platform::Desktop).end_process);
    assert!(on(Platform::Android).exit_request && on(Platform::Android).end_process);
    // Where it cannot end itself, the player is told and nothing asks for an exit.
    for platform in [Platform::Ios, Platform::Web] {
        let response = on(platform);
        assert!(response.tell_player && !response.exit_request && !response.end_process);
    }
    for platform in [Platform::Desktop, Platform::Android] {
        assert!(!on(platform).tell_player);
    }
    assert_eq!(
        Platform::HERE,
        Platform::Desktop,
        "these tests run on a desktop"
    );
}
