//! What the app was asked to do at start: the desktop command line fills [`LaunchOptions`];
//! phones use the defaults (the new-game screen).

use crate::game::flow::{GameCommand, GameSetup};
use crate::game::player::AiLevel;
use crate::game::player::Player;
use crate::game::players::Players;
use crate::platform::SafeArea;
use crate::prefs::choices::Lang;
use crate::prefs::choices::ThemeName;
use crate::prefs::settings::Settings;
use crate::ui::screens::Overlay;
use bevy::prelude::*;
use montello_engine::Variant;
use std::path::PathBuf;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Startup,
        (
            apply_launch_options,
            open_first_screen,
            say_when_games_are_not_kept,
        ),
    )
    .add_systems(
        Update,
        (
            try_again_at_start.run_if(|launch: Res<LaunchOptions>| launch.try_again),
            puzzle_at_start.run_if(|launch: Res<LaunchOptions>| launch.puzzle.is_some()),
            step_into_the_line.run_if(|launch: Res<LaunchOptions>| launch.line_step.is_some()),
        )
            .in_set(crate::AppSystems::Input),
    )
    // After the frame's autosave (`persist::save`, in PostUpdate).
    .add_systems(
        Last,
        crash_when_asked.run_if(|launch: Res<LaunchOptions>| launch.crash_after_moves.is_some()),
    );
}

/// `--crash-after-moves N`: the panic a test asked for, once N moves of this launch were played
/// and saved.
pub fn crash_when_asked(
    launch: Res<LaunchOptions>,
    mut played: MessageReader<crate::game::flow::MovePlayed>,
    mut count: Local<u32>,
) {
    *count += played.read().count() as u32;
    if let Some(n) = launch.crash_after_moves
        && *count >= n
    {
        panic!("--crash-after-moves {n}: the crash this launch asked for");
    }
}

/// `--line-step N`: once the best line from the reviewed position is found, the board after
/// its first N moves (once).
fn step_into_the_line(
    launch: Res<LaunchOptions>,
    current: Res<crate::game::flow::CurrentGame>,
    asked: Res<crate::game::values::ValuesAsked>,
    hint: Res<crate::game::ai::LastHint>,
    practice: Res<crate::game::practice::Practice>,
    values: Res<crate::game::values::SquareValues>,
    mut commands: MessageWriter<GameCommand>,
    mut done: Local<bool>,
) {
    let (false, Some(step)) = (*done, launch.line_step) else {
        return;
    };
    if let Some(line) =
        crate::ui::screens::best_line::offered(&current, &asked, &hint, &practice, &values)
    {
        *done = true;
        let shown = step.clamp(1, line.moves.len());
        commands.write(GameCommand::ShowLine(Some(crate::game::flow::ShownLine {
            shown,
            ..line
        })));
    }
}

/// `--try-again`: once the game is reviewed, the practice at the player's first marked move,
/// then `--try-move`'s square tapped as the try (each once).
fn try_again_at_start(
    launch: Res<LaunchOptions>,
    current: Res<crate::game::flow::CurrentGame>,
    review: Res<crate::game::review::GameReview>,
    practice: Res<crate::game::practice::Practice>,
    mut practise: MessageWriter<crate::game::practice::PracticeCommand>,
    mut taps: MessageWriter<crate::game::flow::SquareTapped>,
    mut done: Local<(bool, bool)>,
) {
    use crate::game::practice::{PracticeCommand, TryState};
    if !review.covers(current.game()) {
        return;
    }
    if !done.0 {
        done.0 = true;
        practise.write(PracticeCommand::First);
        return;
    }
    if let (false, Some(square), Some(TryState::Asking)) =
        (done.1, launch.try_move, practice.0.map(|a| a.state))
    {
        done.1 = true;
        taps.write(crate::game::flow::SquareTapped(square));
    }
}

/// `--puzzle`: the puzzle of that day at start, then `--puzzle-moves`' squares tapped in turn,
/// each once the puzzle waits for the player's move (after a miss too: the next square is the
/// next try); then with `--puzzle-solve` the best move (by the values the puzzle judges with)
/// each time, to the end.
fn puzzle_at_start(
    launch: Res<LaunchOptions>,
    current: Res<crate::game::flow::CurrentGame>,
    busy: Res<crate::game::flow::ViewBusy>,
    puzzling: Res<crate::game::puzzle::Puzzling>,
    values: Res<crate::game::values::SquareValues>,
    mut puzzles: MessageWriter<crate::game::puzzle::PuzzleCommand>,
    mut taps: MessageWriter<crate::game::flow::SquareTapped>,
    mut done: Local<(bool, usize, Option<(u64, u32)>)>,
) {
    use crate::game::puzzle::{PuzzleCommand, PuzzleState, square_of};
    let Some(day) = launch.puzzle else {
        return;
    };
    if !done.0 {
        done.0 = true;
        puzzles.write(PuzzleCommand::Start(day));
        return;
    }
    let Some(session) = puzzling.0.as_ref() else {
        return;
    };
    // Each try once: the board (its generation) or the misses must have moved on since the
    // last.
    let now = (current.generation(), session.misses);
    let game = current.game();
    if session.state != PuzzleState::Playing
        || busy.0
        || game.side_to_move() != session.side()
        || game.is_over()
        || done.2 == Some(now)
    {
        return;
    }
    let square = match launch.puzzle_moves.get(done.1) {
        Some(&square) => square,
        None if launch.puzzle_solve => {
            let best = session
                .valued(&current)
                .and_then(|valued| values.of(&valued))
                .and_then(|all| all.first())
                .and_then(|v| square_of(v.mv));
            let Some(best) = best else {
                return;
            };
            best
        }
        None => return,
    };
    done.1 += 1;
    done.2 = Some(now);
    taps.write(crate::game::flow::SquareTapped(square));
}

/// A launch that should keep the player's games but has nowhere to write them (the platform
/// gave no data directory) says so once, when it starts: the game plays on, and the player
/// knows it will be gone when the app is.
pub fn say_when_games_are_not_kept(
    launch: Res<LaunchOptions>,
    dir: Option<Res<crate::persist::save::DataDir>>,
    mut notice: ResMut<crate::game::flow::Notice>,
) {
    if launch.keeps_games() && dir.is_none() {
        warn!("no data directory: games will not be kept on this device");
        notice.error(crate::prefs::i18n::Said::new("notice.no_data_dir"));
    }
}

/// The first screen: the panel `--open` names, else the board: the game in progress where the
/// player left it, or on a first launch a game ready to play as Black against the default
/// level, its status saying how ("Tap a dot to play"); New game is one tap away.
fn open_first_screen(launch: Res<LaunchOptions>, mut next: ResMut<NextState<Overlay>>) {
    if let Some(overlay) = launch.open {
        next.set(overlay);
    }
}

/// Start-up choices (from the desktop command line).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct LaunchOptions {
    /// AI vs AI at this level.
    pub autoplay: Option<AiLevel>,
    /// A new game: the player (Black) against this level.
    pub opponent: Option<AiLevel>,
    /// With `autoplay`: play this many games in a row, then exit.
    pub games: Option<u32>,
    /// Start from this transcript, GGF record or board string.
    pub position: Option<String>,
    /// Save a screenshot here once the board is drawn, then exit.
    pub screenshot: Option<PathBuf>,
    /// With `screenshot`: wait until this many moves have been played (by the autoplay AI).
    pub after_moves: usize,
    /// Window size in logical pixels.
    pub window: Option<(u32, u32)>,
    /// Where saves and settings go (reserved for the save plugin).
    pub data_dir: Option<PathBuf>,
    /// Redraw continuously instead of only on input and motion (for measuring).
    pub continuous: bool,
    /// Measure frame times for this many seconds (after a warm-up), print them and exit.
    pub frame_stats: Option<f32>,
    /// Force the discs' shadows on or off (for measuring; default: per platform).
    pub shadows: Option<bool>,
    /// Use this theme (for screenshots; saved like a choice in the settings).
    pub theme: Option<ThemeName>,
    /// Speak this language (for screenshots; saved like a choice in the settings).
    pub lang: Option<Lang>,
    /// Pretend the system keeps these margins (a phone's notch and bars) on desktop.
    pub safe_area: Option<SafeArea>,
    /// Render into an image instead of a window, with no window system (for `--frame-stats`
    /// on a GPU machine without a display).
    pub offscreen: bool,
    /// Show the AI's search statistics (saved like a choice in the settings).
    pub show_ai_stats: bool,
    /// Panic once this many moves were played (and saved) in this launch: for the tests of
    /// what a crash leaves (the browser's panic screen, the game resumed after it).
    pub crash_after_moves: Option<u32>,
    /// Ask for a hint at start (for screenshots: the screenshot waits for it).
    pub hint: bool,
    /// Review the game's moves at start (for screenshots: the screenshot waits for it).
    pub review: bool,
    /// Show the board after this many moves of the game (as the move list does).
    pub show_move: Option<usize>,
    /// With `show_move`: show this many moves of the best line from the position before that
    /// move, once it is found (as a tap on its move in the move list does).
    pub line_step: Option<usize>,
    /// Try again at the player's first marked move once the game is reviewed (for
    /// screenshots of the practice).
    pub try_again: bool,
    /// With `try_again`: tap this square as the try.
    pub try_move: Option<montello_engine::Square>,
    /// Play the daily puzzle of this day (days since 1970-01-01) at start.
    pub puzzle: Option<i64>,
    /// With `puzzle`: the player's tries, each tapped when the puzzle asks for a move.
    pub puzzle_moves: Vec<montello_engine::Square>,
    /// With `puzzle`: after `puzzle_moves`, the best move each time, to the end.
    pub puzzle_solve: bool,
    /// Two players face to face: table mode on (saved like the setting) and a new game
    /// between two humans.
    pub face_to_face: bool,
    /// Open this screen at start (for screenshots of the overlays).
    pub open: Option<Overlay>,
}

impl LaunchOptions {
    /// Whether this launch keeps the player's games: all but the development runs (autoplay,
    /// screenshots, frame statistics) that must not overwrite the player's game, unless they
    /// are given a `--data-dir` of their own.
    pub fn keeps_games(&self) -> bool {
        self.data_dir.is_some()
            || (self.autoplay.is_none() && self.screenshot.is_none() && self.frame_stats.is_none())
    }

    /// Where saves go: `--data-dir`, else the platform's data directory (`None` if it has
    /// none), for a launch that [keeps games](Self::keeps_games).
    pub fn save_dir(&self) -> Option<PathBuf> {
        if !self.keeps_games() {
            return None;
        }
        self.data_dir
            .clone()
            .or_else(crate::persist::save::platform_data_dir)
    }

    /// The options on a phone, whatever the command line says: iOS and Xcode hand the
    /// executable arguments of their own (`-AppleLanguages (de)`, `-AppleLocale de_DE`,
    /// `-NSDocumentRevisionsDebugMode YES`, ...) that the desktop parser would refuse, and a
    /// phone has no flags to give. They are ignored (and named on stderr, the Xcode console).
    pub fn for_phone(args: impl IntoIterator<Item = String>) -> LaunchOptions {
        let args: Vec<String> = args.into_iter().collect();
        if !args.is_empty() {
            eprintln!("montello: ignoring the system's launch arguments {args:?}");
        }
        LaunchOptions::default()
    }
}

fn apply_launch_options(
    launch: Res<LaunchOptions>,
    mut commands: MessageWriter<GameCommand>,
    mut hints: MessageWriter<crate::game::ai::HintRequested>,
    mut review: ResMut<crate::game::review::GameReview>,
    mut settings: ResMut<Settings>,
) {
    if let Some(theme) = launch.theme {
        settings.theme = theme;
    }
    if launch.lang.is_some() {
        settings.language = launch.lang;
    }
    if launch.show_ai_stats {
        settings.ai_stats = true;
    }
    if launch.face_to_face {
        settings.table_mode = true;
        commands.write(GameCommand::NewGame(GameSetup {
            players: Players {
                black: Player::Human,
                white: Player::Human,
            },
            variant: Variant::Othello,
        }));
    }
    if let Some(level) = launch.opponent {
        commands.write(GameCommand::NewGame(GameSetup {
            players: Players {
                black: Player::Human,
                white: Player::Ai(level),
            },
            variant: Variant::Othello,
        }));
    }
    if let Some(level) = launch.autoplay {
        commands.write(GameCommand::NewGame(GameSetup {
            players: Players {
                black: Player::Ai(level),
                white: Player::Ai(level),
            },
            variant: Variant::Othello,
        }));
    }
    if let Some(text) = &launch.position {
        commands.write(GameCommand::Import(text.clone()));
    }
    if launch.hint {
        hints.write(crate::game::ai::HintRequested);
    }
    if launch.review {
        review.request();
    }
    if let Some(ply) = launch.show_move {
        commands.write(GameCommand::Review(Some(ply)));
    }
}
