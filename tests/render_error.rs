//! A wgpu error (device lost, out of memory, validation) goes to the app's render error
//! handler, which writes the game before anything else and asks the app to exit (on Android
//! it then ends the process, where an exit request would leave it alive).

use bevy::prelude::*;
use bevy::render::error_handler::{ErrorType, RenderError, RenderErrorPolicy};
use montello::game::flow::CurrentGame;
use montello_engine::Variant;

mod common;
use common::{tap, two_humans};

#[test]
fn a_render_error_saves_the_game_and_asks_to_exit() {
    let dir = std::env::temp_dir().join(format!("montello-render-error-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut app = common::logic_app(Some(&dir));
    two_humans(&mut app, Variant::Othello);
    for square in ["f5", "d6", "c3"] {
        tap(&mut app, square);
    }
    assert_eq!(app.world().resource::<CurrentGame>().game().ply(), 3);
    // Whatever the autosave wrote goes away: only the handler can write the file now.
    let game_file = dir.join("game.ron");
    std::fs::remove_file(&game_file).expect("the autosave wrote game.ron");
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
