//! Never lose a game: the game in progress is saved after every change and when the app is
//! suspended or closed, and restored at start; settings and statistics are kept the same way.
//! How files are written safely is [`crate::persist::storage`]'s business; what they hold is
//! [`crate::persist::save_format`]'s.
//!
//! Saving is on only when a [`DataDir`] resource exists: the app inserts one (from
//! `--data-dir` or the platform's data directory); headless tests insert a temporary one or
//! none.

use crate::game::flow::{BoardReset, CurrentGame, Notice};
use crate::game::players::AiLevel;
use crate::game::players::{Player, Players};
use crate::persist::save_format::{SavedGame, SavedPlayer, SavedSettings, Stats};
use crate::persist::storage::{self, Loaded, Problem, SaveFormat};
use crate::platform::lifecycle::{LifecycleSystems, Steps};
use crate::prefs::i18n::{Lang, Said, SystemLanguage};
use crate::prefs::settings::{AnimationSpeed, TextSize, ThemeName};
use crate::prefs::settings::{Settings, clean_name};
use bevy::prelude::*;
use bevy::window::{AppLifecycle, WindowCloseRequested};
use montello_engine::Side;
use montello_engine::notation::transcript;
use std::path::{Path, PathBuf};

pub(crate) fn plugin(app: &mut App) {
    // Registered by the window plugin in the app; headless tests have no window plugin.
    app.add_message::<AppLifecycle>()
        .add_message::<WindowCloseRequested>()
        .init_resource::<Restored>()
        .init_resource::<SettingsFile>()
        .init_resource::<StatsFile>()
        .add_message::<ResetStats>()
        .add_systems(
            PreStartup,
            restore
                .run_if(resource_exists::<DataDir>)
                .before(crate::prefs::settings::PrefsSystems::Apply),
        )
        .add_systems(
            PostUpdate,
            (
                reset_stats,
                (autosave, save_settings, record_stats, write_reset_stats)
                    .run_if(resource_exists::<DataDir>),
                follow_lifecycle.after(LifecycleSystems),
            )
                .chain(),
        );
}

/// Where the saves live. Without this resource nothing is read or written.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct DataDir(pub PathBuf);

/// Whether a game in progress was restored at start (the app then skips the new-game screen).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Restored(pub bool);

/// The settings as last read or written, including the ones the app does not edit yet, so a
/// save never drops a preference.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct SettingsFile(pub SavedSettings);

/// The statistics per AI level.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct StatsFile(pub Stats);

/// Erase the statistics of every level (the statistics screen sends it after the player
/// confirmed).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ResetStats;

/// The platform's directory for the app's own files: the activity's internal data path on
/// Android, Application Support on iOS, the user's data directory on desktop, localStorage in
/// a browser. Never the directory of the binary.
pub fn platform_data_dir() -> Option<PathBuf> {
    #[cfg(target_os = "android")]
    {
        bevy::android::ANDROID_APP
            .get()
            .and_then(|app| app.internal_data_path())
    }
    #[cfg(target_os = "ios")]
    {
        std::env::var_os("HOME")
            .map(|home| PathBuf::from(home).join("Library/Application Support/Montello"))
    }
    // In a browser: the prefix of the page's localStorage keys (storage::backend).
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    {
        Some(PathBuf::from("montello"))
    }
    #[cfg(not(any(target_os = "android", target_os = "ios", target_family = "wasm")))]
    {
        directories::ProjectDirs::from("org", "Montello", "Montello")
            .map(|d| d.data_dir().to_path_buf())
    }
}

/// How a player is written in files: `"human"` or `"ai:<level number, 1 = weakest>"`.
pub fn player_to_saved(player: Player) -> SavedPlayer {
    match player {
        Player::Human => "human".into(),
        Player::Ai(AiLevel::Level(level)) => format!("ai:{}", level.number()),
        Player::Ai(AiLevel::Iterations(n)) => format!("playouts:{n}"),
    }
}

/// Reads a player written by [`player_to_saved`].
pub fn player_from_saved(text: &str) -> Option<Player> {
    if text == "human" {
        return Some(Player::Human);
    }
    if let Some(n) = text.strip_prefix("playouts:") {
        return n.parse().ok().map(|n| Player::Ai(AiLevel::Iterations(n)));
    }
    text.strip_prefix("ai:")
        .and_then(AiLevel::parse)
        .map(Player::Ai)
}

fn loaded<T: SaveFormat>(dir: &Path, lang: Lang, notice: &mut Notice) -> Option<T> {
    let sentence = |key, problem: &Problem| {
        let said = Said::new(key)
            .key_arg("what", T::WHAT)
            .arg("error", &problem.why);
        match &problem.kept_as {
            Some(file) => said.then(Said::new("notice.kept_as").arg("file", file)),
            None => said,
        }
    };
    match storage::load::<T>(dir) {
        Loaded::Nothing => None,
        Loaded::Latest(value) => Some(value),
        Loaded::Backup { value, problem } => {
            let said = sentence("notice.restored_backup", &problem);
            warn!("{}", said.in_lang(lang));
            notice.info(said);
            Some(value)
        }
        Loaded::Unreadable { problem } => {
            let said = sentence("notice.started_afresh", &problem);
            warn!("{}", said.in_lang(lang));
            notice.error(said);
            None
        }
    }
}

pub(crate) fn restore(
    dir: Res<DataDir>,
    mut current: ResMut<CurrentGame>,
    mut players: ResMut<Players>,
    mut settings: ResMut<Settings>,
    mut settings_file: ResMut<SettingsFile>,
    mut stats: ResMut<StatsFile>,
    mut notice: ResMut<Notice>,
    mut restored: ResMut<Restored>,
    mut reset: MessageWriter<BoardReset>,
    system: Res<SystemLanguage>,
) {
    if let Some(saved) = loaded::<SavedSettings>(&dir.0, system.0, &mut notice) {
        settings.legal_moves = saved.legal_moves;
        settings.coordinates = saved.coordinates;
        settings.animations =
            AnimationSpeed::from_name(&saved.animation_speed).unwrap_or(if saved.animations {
                AnimationSpeed::Normal
            } else {
                AnimationSpeed::Off
            });
        settings.win_bar = saved.win_bar;
        settings.hints = saved.hints;
        settings.theme = ThemeName::from_name(&saved.theme).unwrap_or_default();
        settings.language = Lang::from_code(&saved.language);
        settings.text_size = TextSize::from_name(&saved.text_size).unwrap_or_default();
        settings.sound = saved.sound;
        settings.auto_pass = saved.auto_pass;
        settings.ai_stats = saved.ai_stats;
        settings.table_mode = saved.table_mode;
        settings.names = saved.names.clone().map(|n| clean_name(&n));
        settings_file.0 = saved;
    }
    let lang = settings.language.unwrap_or(system.0);
    if let Some(saved) = loaded::<Stats>(&dir.0, lang, &mut notice) {
        stats.0 = saved;
    }
    let Some(saved) = loaded::<SavedGame>(&dir.0, lang, &mut notice) else {
        return;
    };
    // `decode` already replayed the moves, so this cannot fail; stay safe anyway.
    match saved.to_game() {
        Ok(game) => {
            players.black = player_from_saved(&saved.black).unwrap_or(Player::Human);
            players.white =
                player_from_saved(&saved.white).unwrap_or(Player::Ai(AiLevel::default()));
            current.game = game;
            current.review = None;
            current.generation += 1;
            restored.0 = true;
            reset.write(BoardReset);
            info!(
                "restored the game in progress ({} moves) from {}",
                saved.ply,
                dir.0.display()
            );
        }
        Err(e) => notice.error(Said::new("notice.replay_failed").arg("error", e)),
    }
}

fn write<T: SaveFormat>(dir: &Path, value: &T, notice: &mut Notice) -> bool {
    match storage::save(dir, value) {
        Ok(()) => true,
        Err(e) => {
            warn!("{e}");
            notice.error(Said::new("notice.save_failed").arg("error", &e.source));
            false
        }
    }
}

/// Writes the game now, from outside the schedule (the render error handler, just before the
/// process ends). Returns whether it was written; there is nothing to write without a data
/// directory.
pub fn save_now(world: &World) -> bool {
    let (Some(dir), Some(current), Some(players)) = (
        world.get_resource::<DataDir>(),
        world.get_resource::<CurrentGame>(),
        world.get_resource::<Players>(),
    ) else {
        return false;
    };
    match storage::save(&dir.0, &snapshot(current, players)) {
        Ok(()) => true,
        Err(e) => {
            warn!("{e}");
            false
        }
    }
}

/// The game as it would be saved now.
fn snapshot(current: &CurrentGame, players: &Players) -> SavedGame {
    SavedGame::new(
        &current.game,
        player_to_saved(players.black),
        player_to_saved(players.white),
    )
}

fn autosave(
    dir: Res<DataDir>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    mut notice: ResMut<Notice>,
    mut last: Local<Option<SavedGame>>,
) {
    if !current.is_changed() && !players.is_changed() {
        return;
    }
    let saved = snapshot(&current, &players);
    if last.as_ref() == Some(&saved) {
        return;
    }
    if write(&dir.0, &saved, &mut notice) {
        *last = Some(saved);
    }
}

fn save_settings(
    dir: Res<DataDir>,
    settings: Res<Settings>,
    players: Res<Players>,
    current: Res<CurrentGame>,
    mut file: ResMut<SettingsFile>,
    mut notice: ResMut<Notice>,
) {
    if !settings.is_changed() && !players.is_changed() {
        return;
    }
    let next = SavedSettings {
        black: player_to_saved(players.black),
        white: player_to_saved(players.white),
        variant: current.game.variant().name().to_string(),
        legal_moves: settings.legal_moves,
        coordinates: settings.coordinates,
        animations: settings.animations != AnimationSpeed::Off,
        animation_speed: settings.animations.name().to_string(),
        win_bar: settings.win_bar,
        hints: settings.hints,
        theme: settings.theme.name().to_string(),
        language: settings.language.map_or("", Lang::code).to_string(),
        text_size: settings.text_size.name().to_string(),
        sound: settings.sound,
        auto_pass: settings.auto_pass,
        ai_stats: settings.ai_stats,
        table_mode: settings.table_mode,
        names: settings.names.clone(),
        ..file.0.clone()
    };
    if next != file.0 || !storage::exists(&dir.0.join(SavedSettings::FILE)) {
        write(&dir.0, &next, &mut notice);
        file.0 = next;
    }
}

/// Counts a finished human-vs-AI game once: the transcript of the last game counted is kept in
/// the statistics file, so neither a restart nor an undo-and-replay of the last move counts
/// the same game twice.
fn record_stats(
    dir: Res<DataDir>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    mut stats: ResMut<StatsFile>,
    mut notice: ResMut<Notice>,
) {
    if !current.is_changed() {
        return;
    }
    let Some(result) = current.game.result() else {
        return;
    };
    let (human, level) = match (players.black, players.white) {
        (Player::Human, ai @ Player::Ai(_)) => (Side::Black, player_to_saved(ai)),
        (ai @ Player::Ai(_), Player::Human) => (Side::White, player_to_saved(ai)),
        _ => return,
    };
    let moves = transcript::to_transcript_with_passes(current.game.history());
    if stats.0.last_game == moves {
        return;
    }
    let margin = i32::from(result.discs.margin());
    stats.0.record(
        &level,
        if human == Side::Black {
            margin
        } else {
            -margin
        },
    );
    stats.0.last_game = moves;
    write(&dir.0, &stats.0, &mut notice);
}

/// Clears every level's record. The last game counted stays remembered, so a finished game on
/// the board is not counted again after the reset.
fn reset_stats(mut resets: MessageReader<ResetStats>, mut stats: ResMut<StatsFile>) {
    if resets.read().count() > 0 {
        stats.0.levels.clear();
    }
}

fn write_reset_stats(
    mut resets: MessageReader<ResetStats>,
    dir: Res<DataDir>,
    stats: Res<StatsFile>,
    mut notice: ResMut<Notice>,
) {
    if resets.read().count() > 0 {
        write(&dir.0, &stats.0, &mut notice);
    }
}

/// The OS may kill a suspended app without warning, and a closed window ends the process:
/// write the game once more, whatever the autosave thinks it already wrote. (Stopping the
/// AI's search meanwhile is the game layer's business, following
/// `platform::lifecycle::WorkPaused`.) What to do when is `platform::lifecycle`'s state
/// machine's call.
fn follow_lifecycle(
    dir: Option<Res<DataDir>>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    mut steps: MessageReader<Steps>,
    mut closing: MessageReader<WindowCloseRequested>,
    mut exit: MessageReader<AppExit>,
    mut notice: ResMut<Notice>,
) {
    let mut flush = closing.read().count() > 0 || exit.read().count() > 0;
    for step in steps.read() {
        flush |= step.save;
    }
    if let (true, Some(dir)) = (flush, dir) {
        write(&dir.0, &snapshot(&current, &players), &mut notice);
    }
}
