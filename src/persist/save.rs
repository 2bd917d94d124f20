//! Never lose a game: the game in progress is saved after every change and when the app is
//! suspended or closed, and restored at start; settings and statistics are kept the same way.
//! How files are written safely is [`crate::persist::storage`]'s business; what they hold is
//! [`crate::persist::save_format`]'s.
//!
//! Saving is on only when a [`DataDir`] resource exists: the app inserts one (from
//! `--data-dir` or the platform's data directory); headless tests insert a temporary one or
//! none.

use crate::game::flow::{BoardReset, CurrentGame, MovePlayed, Notice};
use crate::game::players::Players;
use crate::game::puzzle::Puzzling;
use crate::game::review::GameReview;
use crate::persist::save_format::{SavedGame, SavedSettings, Stats};
use crate::persist::storage::{self, Loaded, Problem, SaveFormat};
use crate::platform::lifecycle::{LifecycleSystems, Steps};
use crate::prefs::choices::Lang;
use crate::prefs::choices::Preferences;
use crate::prefs::i18n::{Said, SystemLanguage};
use crate::prefs::settings::{Settings, clean_name};
use bevy::prelude::*;
use bevy::window::{AppLifecycle, WindowCloseRequested};
use montello_engine::Side;
use std::path::{Path, PathBuf};

pub(crate) fn plugin(app: &mut App) {
    // Registered by the window plugin in the app; headless tests have no window plugin.
    app.add_message::<AppLifecycle>()
        .add_message::<WindowCloseRequested>()
        .init_resource::<Restored>()
        .init_resource::<StatsFile>()
        // The puzzle's plugin owns it; headless tests of the saves may run without it.
        .init_resource::<Puzzling>()
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
                (
                    autosave,
                    save_settings,
                    record_stats,
                    record_puzzles,
                    write_reset_stats,
                )
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
    mut stats: ResMut<StatsFile>,
    mut notice: ResMut<Notice>,
    mut restored: ResMut<Restored>,
    mut reset: MessageWriter<BoardReset>,
    mut review: ResMut<GameReview>,
    system: Res<SystemLanguage>,
) {
    if let Some(saved) = loaded::<SavedSettings>(&dir.0, system.0, &mut notice) {
        settings.prefs = saved.prefs;
        // A hand-edited file may hold what the font cannot draw.
        settings.names = settings.names.clone().map(|n| clean_name(&n));
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
            players.black = saved.black;
            players.white = saved.white;
            current.replace(game);
            // The review saved with it, as computed; one that does not fit is set aside
            // (it is computed again when wanted) and the game loads all the same.
            match saved.review() {
                Ok(Some((moves, kept))) => review.restore(moves, kept),
                Ok(None) => {}
                Err(e) => warn!("the saved game review was set aside: {e}"),
            }
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
    let review = world.get_resource::<GameReview>();
    let Some(saved) = snapshot(current, players, review, world.get_resource::<Puzzling>()) else {
        // A puzzle on the board: the saved game is the player's, as it was.
        return true;
    };
    match storage::save(&dir.0, &saved) {
        Ok(()) => true,
        Err(e) => {
            warn!("{e}");
            false
        }
    }
}

/// The game as it would be saved now, with its review when one was computed; `None` while a
/// puzzle is on the board (`game::puzzle`): the player's game, kept aside, stays the saved
/// game as it was written, review and all.
fn snapshot(
    current: &CurrentGame,
    players: &Players,
    review: Option<&GameReview>,
    puzzling: Option<&Puzzling>,
) -> Option<SavedGame> {
    if puzzling.is_some_and(|p| p.0.is_some()) {
        return None;
    }
    let saved = SavedGame::new(current.game(), players.black, players.white);
    Some(match review.and_then(GameReview::saved) {
        Some((moves, review)) => saved.with_review(moves, review),
        None => saved,
    })
}

fn autosave(
    dir: Res<DataDir>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    review: Res<GameReview>,
    puzzling: Res<Puzzling>,
    mut notice: ResMut<Notice>,
    mut last: Local<Option<SavedGame>>,
) {
    if !current.is_changed() && !players.is_changed() && !review.is_changed() {
        return;
    }
    let Some(saved) = snapshot(&current, &players, Some(&review), Some(&puzzling)) else {
        return;
    };
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
    mut notice: ResMut<Notice>,
    mut written: Local<Option<Preferences>>,
) {
    if !settings.is_changed() || written.as_ref() == Some(&settings.prefs) {
        return;
    }
    // The first look writes only if there is no file yet (a fresh install keeps its
    // defaults on disk); later ones write each change.
    if written.is_some() || !storage::exists(&dir.0.join(SavedSettings::FILE)) {
        write(
            &dir.0,
            &SavedSettings::new(settings.prefs.clone()),
            &mut notice,
        );
    }
    *written = Some(settings.prefs.clone());
}

/// Counts a finished human-vs-AI game once, when a move ends it: the transcript of the last
/// game counted is kept in the statistics file, so neither a restart nor an undo-and-replay of
/// the last move counts the same game twice, and a finished game imported (pasted, opened from
/// the command line) is not a game played.
fn record_stats(
    dir: Res<DataDir>,
    puzzling: Res<Puzzling>,
    mut played: MessageReader<MovePlayed>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    mut stats: ResMut<StatsFile>,
    mut notice: ResMut<Notice>,
) {
    if played.read().count() == 0 {
        return;
    }
    let Some(result) = current.game().result() else {
        return;
    };
    let Some((human, level)) = players.human_against_ai() else {
        return;
    };
    // A puzzle played against Master is not a game against the level.
    if stats.0.counted(current.game()) || puzzling.0.is_some() {
        return;
    }
    let margin = i32::from(result.discs.margin());
    stats.0.record(
        level,
        if human == Side::Black {
            margin
        } else {
            -margin
        },
    );
    stats.0.last_game = Stats::key(current.game());
    write(&dir.0, &stats.0, &mut notice);
}

/// Keeps the day of a puzzle solved (its end reached with the goal met, the solution not
/// shown) with the statistics, once.
fn record_puzzles(
    dir: Res<DataDir>,
    puzzling: Res<Puzzling>,
    mut stats: ResMut<StatsFile>,
    mut notice: ResMut<Notice>,
) {
    if !puzzling.is_changed() {
        return;
    }
    let Some(session) = puzzling.0.as_ref().filter(|s| s.solved()) else {
        return;
    };
    if stats.0.puzzles.solved.insert(session.day) {
        write(&dir.0, &stats.0, &mut notice);
    }
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
    review: Res<GameReview>,
    puzzling: Res<Puzzling>,
    mut steps: MessageReader<Steps>,
    mut closing: MessageReader<WindowCloseRequested>,
    mut exit: MessageReader<AppExit>,
    mut notice: ResMut<Notice>,
) {
    let mut flush = closing.read().count() > 0 || exit.read().count() > 0;
    for step in steps.read() {
        flush |= step.save;
    }
    if let (true, Some(dir)) = (flush, dir)
        && let Some(saved) = snapshot(&current, &players, Some(&review), Some(&puzzling))
    {
        write(&dir.0, &saved, &mut notice);
    }
}
