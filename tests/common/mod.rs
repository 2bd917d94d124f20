//! What the headless test files share: an app with the game's logic plugins and no window,
//! sending a message and running a frame, waiting for the AI.
#![allow(dead_code, reason = "each test file uses its own part of these")]

use bevy::prelude::*;
use montello::game::flow::{GameCommand, GameSetup, SquareTapped};
use montello::game::player::AiLevel;
use montello::game::player::Player;
use montello::game::players::Players;
use montello::persist::save::DataDir;
use montello::prefs::settings::Settings;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A finished game of 58 moves and a pass (lab/tests/cli.rs's game A).
pub const GAME_A: &str = "f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6\
                          c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8";

/// A review shallow enough for a test build: a 4-ply search, the last 12 empties exact.
pub const QUICK_REVIEW: montello_engine::search::review::ReviewConfig =
    montello_engine::search::review::ReviewConfig {
        exact_empties: 12,
        depth: 4,
        table_bytes: 1 << 20,
        time: None,
    };

/// A tiny deterministic AI: a few hundred playouts a move.
pub const QUICK_AI: Player = Player::Ai(AiLevel::Iterations(200));

/// An app with `MinimalPlugins` and the game's logic (saving to `data`, if given), passes
/// played at once, after its first frame.
pub fn logic_app(data: Option<&Path>) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    if let Some(dir) = data {
        app.insert_resource(DataDir(dir.to_path_buf()));
    }
    app.add_plugins(montello::LogicPlugins);
    app.world_mut().resource_mut::<Settings>().pass_notice = Duration::ZERO;
    app.update();
    app
}

/// Sends `message` and runs one frame.
pub fn send<M: Message>(app: &mut App, message: M) {
    app.world_mut().write_message(message);
    app.update();
}

/// Starts a game between two people under `variant`'s rules.
pub fn two_humans(app: &mut App, variant: montello_engine::Variant) {
    send(
        app,
        GameCommand::NewGame(GameSetup {
            players: Players {
                black: Player::Human,
                white: Player::Human,
            },
            variant,
        }),
    );
}

/// Taps `square` (written `a1`..`h8`) and runs one frame.
pub fn tap(app: &mut App, square: &str) {
    send(app, SquareTapped(square.parse().expect("square")));
}

/// Runs frames until `done` holds, sleeping a little so the AI's thread gets the CPU.
pub fn run_until(app: &mut App, what: &str, done: impl Fn(&App) -> bool) {
    for _ in 0..20_000 {
        if done(app) {
            return;
        }
        app.update();
        std::thread::sleep(Duration::from_micros(200));
    }
    panic!("timed out waiting for {what}");
}

/// A fresh directory under the system's temporary one, `montello-KIND-NAME-PID-NANOS`, for a
/// test's data.
pub fn temp_dir(kind: &str, name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!(
        "montello-{kind}-{name}-{}-{nanos}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
