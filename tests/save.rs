//! Never lose a game: headless apps on a temporary data directory. Play, drop the app, build a
//! new one on the same directory, and find the same game, undo/redo state and settings; bad
//! files give the documented outcome with the backup intact.

use bevy::prelude::*;
use bevy::window::AppLifecycle;
use montello::game::ai::AiState;
use montello::game::flow::{CurrentGame, GameCommand, GameSetup, Notice};

use montello::game::player::{AiLevel, Player};
use montello::game::players::Players;
use montello::persist::save::{ResetStats, Restored, StatsFile};
use montello::persist::save_format::{SavedGame, SavedSettings};
use montello::persist::storage::{self, SaveFormat};
use montello::platform::lifecycle::WorkPaused;
use montello::prefs::choices::Lang;
use montello::prefs::choices::{AnimationSpeed, TextSize, ThemeName};
use montello::prefs::i18n::Language;
use montello::prefs::settings::Settings;
use montello_engine::search::Level;
use montello_engine::{Game, Variant};
use std::path::{Path, PathBuf};

fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir("save", name)
}

mod common;
use common::{run_until, send, tap, two_humans};

fn app_on(dir: &Path) -> App {
    common::logic_app(Some(dir))
}

fn game(app: &App) -> &Game {
    app.world().resource::<CurrentGame>().game()
}

/// The notice as the HUD shows it: in the app's language.
fn notice_text(app: &App) -> String {
    let lang = app.world().resource::<montello::prefs::i18n::Language>().0;
    app.world().resource::<Notice>().text(lang)
}

#[test]
fn a_game_survives_dropping_the_app_with_its_undo_redo_state_and_settings() {
    let dir = temp_dir("resume");
    {
        let mut app = app_on(&dir);
        two_humans(&mut app, Variant::Othello);
        for sq in ["f5", "d6", "c3", "d3", "c4"] {
            tap(&mut app, sq);
        }
        send(&mut app, GameCommand::Undo);
        app.world_mut().resource_mut::<Settings>().coordinates = false;
        app.update();
        assert_eq!(game(&app).ply(), 4);
    } // the app is dropped without any goodbye, like a killed process
    let app = app_on(&dir);
    assert!(app.world().resource::<Restored>().0);
    let g = game(&app);
    assert_eq!(g.ply(), 4);
    assert_eq!(
        g.redo_moves().len(),
        1,
        "the undone move can still be redone"
    );
    assert_eq!(
        montello_engine::notation::transcript::to_transcript(g.history()),
        "f5d6c3d3"
    );
    let players = app.world().resource::<Players>();
    assert_eq!(
        (players.black, players.white),
        (Player::Human, Player::Human)
    );
    assert!(!app.world().resource::<Settings>().coordinates);
}

#[test]
fn variants_and_ai_players_are_restored() {
    let dir = temp_dir("variant");
    {
        let mut app = app_on(&dir);
        send(
            &mut app,
            GameCommand::NewGame(GameSetup {
                players: Players {
                    black: Player::Human,
                    white: Player::Ai(AiLevel::Level(Level::Intermediate)),
                },
                variant: Variant::FreeOpening,
            }),
        );
        tap(&mut app, "d4");
    }
    let app = app_on(&dir);
    assert_eq!(game(&app).variant(), Variant::FreeOpening);
    assert_eq!(game(&app).ply(), 1);
    assert_eq!(
        app.world().resource::<Players>().white,
        Player::Ai(AiLevel::Level(Level::Intermediate))
    );
}

/// An app saving to a fresh directory `name`, in a new game whose AI (black, level 4, a
/// multi-second cap) is thinking.
fn ai_thinking_on(name: &str) -> (PathBuf, App) {
    let dir = temp_dir(name);
    let mut app = app_on(&dir);
    send(
        &mut app,
        GameCommand::NewGame(GameSetup {
            players: Players {
                black: Player::Ai(AiLevel::Level(Level::Strong)),
                white: Player::Human,
            },
            variant: Variant::Othello,
        }),
    );
    for _ in 0..5 {
        app.update();
    }
    assert!(
        app.world().resource::<AiState>().is_busy(),
        "the AI should be thinking"
    );
    (dir, app)
}

#[test]
fn suspending_saves_and_cancels_the_search() {
    let (dir, mut app) = ai_thinking_on("suspend");
    std::fs::remove_file(dir.join(SavedGame::FILE)).expect("the autosave wrote the new game");
    send(&mut app, AppLifecycle::WillSuspend);
    app.update();
    assert!(
        !app.world().resource::<AiState>().is_busy(),
        "no search while suspended"
    );
    assert!(
        dir.join(SavedGame::FILE).exists(),
        "suspending wrote the game"
    );
}

#[test]
fn suspend_resume_and_destroy_follow_the_lifecycle_machine() {
    use montello::platform::lifecycle::{Phase, SharedLifecycle, Signal};
    let (dir, mut app) = ai_thinking_on("lifecycle");
    let machine = app.world().resource::<SharedLifecycle>().clone();
    let phase = |m: &SharedLifecycle| m.0.lock().expect("not poisoned").phase();
    let saved = dir.join(SavedGame::FILE);
    std::fs::remove_file(&saved).expect("the autosave wrote the new game");
    // winit's order on Android and iOS: WillSuspend (one last frame), then Suspended.
    send(&mut app, AppLifecycle::WillSuspend);
    assert!(saved.exists(), "suspending wrote the game");
    assert_eq!(phase(&machine), Phase::Suspended);
    std::fs::remove_file(&saved).expect("written once");
    send(&mut app, AppLifecycle::Suspended);
    assert!(
        !saved.exists(),
        "Suspended after WillSuspend writes nothing more"
    );
    assert!(app.world().resource::<WorkPaused>().0);
    // A destroyed activity while suspended: the process may exit, the game is on disk.
    assert!(machine.on(Signal::ActivityDestroyed).exit_process);
    // Back to the front: the AI, paused meanwhile, thinks again by itself.
    send(&mut app, AppLifecycle::WillResume);
    send(&mut app, AppLifecycle::Running);
    assert_eq!(phase(&machine), Phase::Running);
    assert!(!app.world().resource::<WorkPaused>().0);
    run_until(&mut app, "the AI to think again", |app| {
        app.world().resource::<AiState>().is_busy()
    });
    assert!(
        !machine.on(Signal::ActivityDestroyed).exit_process,
        "a running app never exits on its own"
    );
}

#[test]
fn a_corrupt_save_falls_back_to_the_backup_and_is_kept_aside() {
    let dir = temp_dir("corrupt");
    {
        let mut app = app_on(&dir);
        two_humans(&mut app, Variant::Othello);
        tap(&mut app, "f5");
        tap(&mut app, "d6");
    }
    std::fs::write(
        dir.join(SavedGame::FILE),
        "(version: 1, variant: \"othello\", sta",
    )
    .expect("corrupt");
    let app = app_on(&dir);
    // The backup is the save before the last one: one move fewer.
    assert_eq!(game(&app).ply(), 1);
    assert!(
        notice_text(&app).contains("previous one was restored"),
        "{}",
        notice_text(&app)
    );
    let aside = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(Result::ok)
        .any(|e| e.file_name().to_string_lossy().starts_with("game.ron.bad-"));
    assert!(aside, "the bad file is kept aside, not deleted");
}

#[test]
fn hand_edited_illegal_moves_and_future_versions_are_never_loaded() {
    for (name, text, expect) in [
        (
            "illegal",
            "(version: 1, variant: \"othello\", start: \"---------------------------OX------XO--------------------------- X\", moves: \"f5a1\", ply: 2, black: \"human\", white: \"human\")",
            "a1",
        ),
        ("future", "(version: 9, whatever: 1)", "newer Montello"),
        ("truncated", "(version: 1, varia", "damaged"),
        ("binary", "\u{0}\u{1}garbage", "damaged"),
    ] {
        let dir = temp_dir(name);
        std::fs::write(dir.join(SavedGame::FILE), text).expect("plant");
        let app = app_on(&dir);
        assert!(!app.world().resource::<Restored>().0, "{name}");
        assert_eq!(game(&app).ply(), 0, "{name}: a new game starts");
        let notice = notice_text(&app);
        assert!(
            notice.contains("started afresh") && notice.contains(expect),
            "{name}: {notice}"
        );
        let kept = std::fs::read_dir(&dir)
            .expect("dir")
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with("game.ron.bad-"))
            .count();
        assert_eq!(kept, 1, "{name}: the bad file is kept aside");
    }
}

#[test]
fn theme_language_and_animation_speed_survive_a_restart_and_take_effect() {
    let dir = temp_dir("look");
    {
        let mut app = app_on(&dir);
        let mut settings = app.world_mut().resource_mut::<Settings>();
        settings.theme = ThemeName::Contrast;
        settings.language = Some(Lang::Ja);
        settings.animations = AnimationSpeed::Fast;
        settings.hints = false;
        settings.text_size = TextSize::Largest;
        settings.sound = false;
        settings.auto_pass = false;
        settings.ai_stats = true;
        settings.table_mode = true;
        app.update();
        app.update();
        assert_eq!(app.world().resource::<Language>().0, Lang::Ja);
    }
    let app = app_on(&dir);
    let settings = app.world().resource::<Settings>();
    assert_eq!(settings.theme, ThemeName::Contrast);
    assert_eq!(settings.language, Some(Lang::Ja));
    assert_eq!(settings.animations, AnimationSpeed::Fast);
    assert!(!settings.hints);
    assert_eq!(settings.text_size, TextSize::Largest);
    assert!(!settings.sound, "muting survives a restart");
    assert!(
        !settings.auto_pass,
        "turning the automatic pass off survives a restart"
    );
    assert!(
        settings.ai_stats,
        "the AI statistics stay on after a restart"
    );
    assert!(settings.table_mode, "table mode stays on after a restart");
    assert_eq!(
        app.world().resource::<Language>().0,
        Lang::Ja,
        "the saved language is spoken from the first frame"
    );
}

#[test]
fn a_bad_settings_file_is_reported_in_the_saved_language_of_the_game() {
    let dir = temp_dir("french");
    {
        let mut app = app_on(&dir);
        two_humans(&mut app, Variant::Othello);
        app.world_mut().resource_mut::<Settings>().language = Some(Lang::Fr);
        tap(&mut app, "f5");
        tap(&mut app, "d6");
    }
    // The game file is damaged; the settings (French) are fine.
    std::fs::write(dir.join(SavedGame::FILE), "version: 1, garbage").expect("corrupt");
    let app = app_on(&dir);
    let notice = notice_text(&app);
    assert!(
        notice.contains("Impossible de lire la partie enregistrée"),
        "{notice}"
    );
    assert!(
        notice.contains(".bad-"),
        "names the file kept aside: {notice}"
    );
}

#[test]
fn a_format_1_settings_file_is_read_and_written_back_as_format_2() {
    let dir = temp_dir("settings");
    // As the last build before typed settings wrote it (strings, and fields never read).
    let old = r#"(version: 1, black: "human", white: "ai:3", variant: "othello",
        legal_moves: true, coordinates: true, animations: true, win_bar: true, hints: false,
        think_on_my_time: false, animation_speed: "normal", theme: "wood", language: "de",
        text_size: "large", sound: true, auto_pass: true, ai_stats: false, table_mode: false,
        names: ("Ann", ""))"#;
    std::fs::write(dir.join(SavedSettings::FILE), old).expect("write");
    let mut app = app_on(&dir);
    {
        let settings = app.world().resource::<Settings>();
        assert_eq!(
            (settings.theme, settings.language, settings.text_size),
            (ThemeName::Wood, Some(Lang::De), TextSize::Large)
        );
        assert!(!settings.hints);
        assert_eq!(settings.names[0], "Ann");
    }
    app.world_mut().resource_mut::<Settings>().animations = AnimationSpeed::Off;
    app.update();
    let back = match storage::load::<SavedSettings>(&dir) {
        storage::Loaded::Latest(s) => s,
        other => panic!("settings not saved: {other:?}"),
    };
    assert_eq!(back.version, 2);
    assert_eq!(back.prefs.animations, AnimationSpeed::Off);
    assert_eq!(
        back.prefs,
        app.world().resource::<Settings>().prefs,
        "every other choice is written as it was read"
    );
    let text = std::fs::read_to_string(dir.join(SavedSettings::FILE)).expect("read");
    assert!(
        text.contains("theme: Wood") && text.contains("Some(De)"),
        "{text}"
    );
}

#[test]
fn a_finished_game_imported_is_not_a_game_played() {
    let dir = temp_dir("stats-import");
    let mut app = app_on(&dir);
    let moves = "f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6\
                 c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8";
    send(&mut app, GameCommand::Import(moves.to_string()));
    app.update();
    assert!(game(&app).is_over(), "the imported game is finished");
    assert!(
        app.world().resource::<StatsFile>().0.levels.is_empty(),
        "an import counts no game"
    );
}

#[test]
fn a_finished_game_against_the_ai_is_counted_once() {
    let dir = temp_dir("stats");
    // A position where black (human) ends the game with one move: black a1, white b1, c1 free.
    let board = "XO-------------------------------------------------------------- X";
    {
        let mut app = app_on(&dir);
        send(
            &mut app,
            GameCommand::NewGame(GameSetup {
                players: Players {
                    black: Player::Human,
                    white: Player::Ai(AiLevel::Level(Level::Beginner)),
                },
                variant: Variant::Othello,
            }),
        );
        send(&mut app, GameCommand::Import(board.to_string()));
        app.world_mut().resource_mut::<Players>().white =
            Player::Ai(AiLevel::Level(Level::Beginner));
        app.update();
        tap(&mut app, "c1");
        assert!(game(&app).is_over(), "{:?}", game(&app));
        // Undo and replay the same last move: still one game.
        send(&mut app, GameCommand::Undo);
        tap(&mut app, "c1");
        let stats = &app.world().resource::<StatsFile>().0;
        assert_eq!(
            stats.levels.get(&AiLevel::Level(Level::Beginner)).map(|r| (
                r.games,
                r.wins,
                r.best_margin
            )),
            Some((1, 1, 3))
        );
    }
    // Restarting on the finished game does not count it again.
    let mut app = app_on(&dir);
    let stats = &app.world().resource::<StatsFile>().0;
    assert_eq!(
        stats
            .levels
            .get(&AiLevel::Level(Level::Beginner))
            .map(|r| r.games),
        Some(1)
    );

    // The reset (sent by the statistics screen once the player confirmed) erases every level,
    // on disk too, and the finished game on the board is not counted again afterwards.
    send(&mut app, ResetStats);
    assert!(app.world().resource::<StatsFile>().0.levels.is_empty());
    send(&mut app, GameCommand::Undo);
    tap(&mut app, "c1");
    assert!(app.world().resource::<StatsFile>().0.levels.is_empty());
    drop(app);
    let app = app_on(&dir);
    assert!(
        app.world().resource::<StatsFile>().0.levels.is_empty(),
        "the reset was written"
    );
}

/// A crash right after a move loses nothing: the move was saved in the frame it was played,
/// before the panic (`--crash-after-moves`, the panic the browser test's page shows).
#[test]
fn a_crash_right_after_a_move_keeps_the_move() {
    use montello::app::launch::{LaunchOptions, crash_when_asked};
    let dir = temp_dir("crash");
    {
        let mut app = app_on(&dir);
        app.insert_resource(LaunchOptions {
            crash_after_moves: Some(2),
            ..default()
        })
        .add_systems(Last, crash_when_asked);
        two_humans(&mut app, Variant::Othello);
        tap(&mut app, "f5");
        let crashed =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| tap(&mut app, "d6")));
        assert!(crashed.is_err(), "the second move panics");
    }
    let app = app_on(&dir);
    assert_eq!(
        montello_engine::notation::transcript::to_transcript(game(&app).history()),
        "f5d6"
    );
}

/// A launch with nowhere to save (the platform gave no data directory) tells the player, in
/// every language, that games will not be kept; a launch with a directory, and a development
/// run that keeps nothing on purpose, say nothing.
#[test]
fn a_launch_with_no_data_directory_says_games_will_not_be_kept() {
    use montello::app::launch::{LaunchOptions, say_when_games_are_not_kept};
    let launch_with = |launch: LaunchOptions, dir: Option<&Path>| {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .init_resource::<Notice>()
            .insert_resource(launch)
            .add_systems(Startup, say_when_games_are_not_kept);
        if let Some(dir) = dir {
            app.insert_resource(montello::persist::save::DataDir(dir.to_path_buf()));
        }
        app.update();
        app
    };
    let player = LaunchOptions::default();
    assert!(player.keeps_games());
    let app = launch_with(player.clone(), None);
    let notice = app.world().resource::<Notice>();
    assert!(notice.is_error, "{notice:?}");
    let texts: Vec<String> = [Lang::En, Lang::Ja, Lang::Fr, Lang::De]
        .into_iter()
        .map(|lang| notice.text(lang))
        .collect();
    assert!(texts[0].contains("will not be kept"), "{texts:?}");
    for text in &texts {
        assert!(
            !text.is_empty() && !text.contains("notice."),
            "untranslated: {texts:?}"
        );
    }
    assert!(texts.windows(2).all(|w| w[0] != w[1]), "{texts:?}");

    let dir = temp_dir("kept");
    assert!(
        launch_with(player, Some(&dir))
            .world()
            .resource::<Notice>()
            .is_empty()
    );
    let autoplay = LaunchOptions {
        autoplay: Some(AiLevel::Iterations(10)),
        ..LaunchOptions::default()
    };
    assert!(!autoplay.keeps_games() && autoplay.save_dir().is_none());
    assert!(
        launch_with(autoplay, None)
            .world()
            .resource::<Notice>()
            .is_empty()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
