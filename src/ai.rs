//! The computer opponent and the hint: one search at a time on `AsyncComputeTaskPool`,
//! holding a snapshot of the position, polled every frame and never waited on. Every search is
//! tagged with the game's generation; when the game moves on (undo, new game, review) the
//! search is cancelled through its [`CancelHandle`] and its result is dropped.

use crate::AppSystems;
use crate::eval::SearchEstimate;
use crate::game_flow::{CurrentGame, MoveRequested, MoveSource, Notice, Player, Players, ViewBusy};
use crate::i18n::{Lang, Language};
use crate::settings::Settings;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use montello_engine::search::{
    CancelHandle, Level, MoveStats, SearchLimits, SearchResult, Searcher, Strategy,
};
use montello_engine::{Move, Side};
use std::time::Duration;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AiState>()
        .add_message::<HintRequested>()
        .add_systems(
            Update,
            (
                (drop_stale, poll_search, deliver_move)
                    .chain()
                    .in_set(AppSystems::Input),
                (drop_stale, start_hint, start_ai_move)
                    .chain()
                    .in_set(AppSystems::Ai),
            ),
        );
}

/// How strong the computer plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AiLevel {
    /// One of the engine's named levels ([`Level::ALL`]), by index (0 = weakest).
    Level(u8),
    /// A fixed number of playouts: deterministic for a given seed (tests, replays).
    Iterations(u64),
}

impl Default for AiLevel {
    fn default() -> Self {
        AiLevel::Level(2)
    }
}

impl AiLevel {
    /// The levels shown on the new-game screen, weakest first: the engine's levels.
    pub const ALL: [AiLevel; Level::ALL.len()] = {
        let mut all = [AiLevel::Level(0); Level::ALL.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = AiLevel::Level(i as u8);
            i += 1;
        }
        all
    };

    /// The engine level behind this one (the strongest for an out-of-range index).
    fn level(index: u8) -> Level {
        Level::ALL[usize::from(index).min(Level::ALL.len() - 1)]
    }

    /// The level's name for menus.
    pub fn name(self) -> String {
        match self {
            AiLevel::Level(i) => Self::level(i).name().to_string(),
            AiLevel::Iterations(n) => format!("{n} playouts"),
        }
    }

    /// The level's name for menus, in `lang`.
    pub fn label(self, lang: Lang) -> String {
        const KEYS: [&str; 6] = [
            "level.1", "level.2", "level.3", "level.4", "level.5", "level.6",
        ];
        match self {
            AiLevel::Level(i) => match KEYS.get(usize::from(i)) {
                Some(key) => lang.t(key).to_string(),
                None => self.name(),
            },
            AiLevel::Iterations(n) => lang.f("level.playouts", &[("n", &n)]),
        }
    }

    /// Finds a level by its name or number (1 = weakest), as the command line gives it.
    pub fn parse(text: &str) -> Option<AiLevel> {
        let text = text.trim();
        let level = match text.parse::<u8>() {
            Ok(n) => Level::from_number(n),
            Err(_) => Level::from_name(text),
        }?;
        Level::ALL
            .iter()
            .position(|&l| l == level)
            .map(|i| AiLevel::Level(i as u8))
    }

    /// What one move's search may spend.
    pub fn limits(self) -> SearchLimits {
        match self {
            AiLevel::Level(i) => Self::level(i).limits(),
            AiLevel::Iterations(n) => SearchLimits::iterations(n),
        }
    }

    /// A searcher for this level: the engine's default strategy with the level's knobs.
    pub fn searcher(self, seed: u64) -> Searcher {
        match self {
            AiLevel::Level(i) => Self::level(i).searcher(seed),
            AiLevel::Iterations(_) => Searcher::new(Strategy::Default, seed),
        }
    }
}

/// Asks for the engine's top moves for the side to move.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct HintRequested;

/// What a search is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Purpose {
    /// The AI's own move.
    Move,
    /// A hint for the human.
    Hint,
}

struct Running {
    task: Task<SearchResult>,
    generation: u64,
    cancel: CancelHandle,
    started: Instant,
    cap: Duration,
    side: Side,
    purpose: Purpose,
    /// The moves played before the searched position.
    ply: usize,
}

/// The engine's top moves for a position, for the board's hint labels.
#[derive(Clone, Debug)]
pub struct Hint {
    /// The game generation it was computed for; the view hides it once the game moves on.
    pub generation: u64,
    /// The best moves, best first, with their win rates for the side to move.
    pub moves: Vec<MoveStats>,
}

/// The search in flight, a finished AI move waiting for the board to settle, and what the
/// last searches learned.
#[derive(Resource, Default)]
pub struct AiState {
    running: Option<Running>,
    ready: Option<(u64, Move)>,
    /// The last hint.
    pub hint: Option<Hint>,
    /// Black's chance to win (0..=1) according to the last search, for the win bar.
    pub black_win: Option<f32>,
    /// Set while the app is suspended: no search runs.
    pub paused: bool,
    /// How long a hint may think.
    pub hint_limits: Option<SearchLimits>,
    /// Searches started so far (for tests and the debug overlay).
    pub searches_started: u64,
    /// Results dropped because the game had moved on.
    pub stale_dropped: u64,
}

impl std::fmt::Debug for AiState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AiState")
            .field("thinking", &self.thinking())
            .field("ready", &self.ready)
            .finish_non_exhaustive()
    }
}

impl AiState {
    /// While a search runs: whose, what for, and how far towards its time cap (0..=1).
    pub fn thinking(&self) -> Option<(Side, Purpose, f32)> {
        self.running.as_ref().map(|r| {
            let progress = r.started.elapsed().as_secs_f32() / r.cap.as_secs_f32().max(1e-3);
            (r.side, r.purpose, progress.min(1.0))
        })
    }

    /// Whether a search runs or an AI move waits to be shown.
    pub fn is_busy(&self) -> bool {
        self.running.is_some() || self.ready.is_some()
    }

    /// Stops the running search at once; its result will be dropped.
    pub fn cancel(&mut self) {
        if let Some(running) = self.running.take() {
            running.cancel.cancel();
            // Dropping the task detaches nothing: the search sees the flag within
            // milliseconds and its thread is free again.
            drop(running.task);
        }
        self.ready = None;
    }
}

fn drop_stale(mut ai: ResMut<AiState>, current: Res<CurrentGame>) {
    let stale = ai
        .running
        .as_ref()
        .is_some_and(|r| r.generation != current.generation)
        || ai.ready.is_some_and(|(g, _)| g != current.generation)
        || (ai.paused && ai.running.is_some());
    if stale {
        ai.stale_dropped += 1;
        ai.cancel();
    }
}

fn poll_search(mut ai: ResMut<AiState>, mut estimates: MessageWriter<SearchEstimate>) {
    // Look before touching: a mutable borrow would mark the state changed every frame.
    if ai.running.is_none() {
        return;
    }
    let Some(running) = ai.running.as_mut() else {
        return;
    };
    let Some(result) = check_ready(&mut running.task) else {
        return;
    };
    let Some(running) = ai.running.take() else {
        return;
    };
    if let Some(rate) = result.win_rate() {
        let rate = rate as f32;
        let black_win = match running.side {
            Side::Black => rate,
            Side::White => 1.0 - rate,
        };
        ai.black_win = Some(black_win);
        estimates.write(SearchEstimate {
            ply: running.ply,
            black_win,
        });
    }
    match running.purpose {
        Purpose::Move => {
            ai.ready = result.best.map(|mv| (running.generation, mv));
        }
        Purpose::Hint => {
            ai.hint = Some(Hint {
                generation: running.generation,
                moves: result.moves.into_iter().take(3).collect(),
            });
        }
    }
}

fn deliver_move(
    mut ai: ResMut<AiState>,
    busy: Res<ViewBusy>,
    mut requests: MessageWriter<MoveRequested>,
) {
    if busy.0 || ai.ready.is_none() {
        return;
    }
    if let Some((generation, mv)) = ai.ready.take() {
        requests.write(MoveRequested {
            mv,
            source: MoveSource::Ai { generation },
        });
    }
}

fn spawn(
    ai: &mut AiState,
    current: &CurrentGame,
    searcher: Searcher,
    limits: SearchLimits,
    purpose: Purpose,
) {
    let pos = current.game.position();
    let variant = current.game.variant();
    let cancel = CancelHandle::new();
    let task_cancel = cancel.clone();
    let cap = limits.time;
    let mut searcher = searcher;
    let task = AsyncComputeTaskPool::get()
        .spawn(async move { searcher.search(&pos, variant, &limits, &task_cancel) });
    ai.searches_started += 1;
    ai.running = Some(Running {
        task,
        generation: current.generation,
        cancel,
        started: Instant::now(),
        cap: limits_cap(cap).unwrap_or(cap),
        side: pos.side_to_move(),
        purpose,
        ply: current.game.ply(),
    });
}

/// An iteration-capped search has only a one-minute safety cap; show its progress as if it
/// took a second.
fn limits_cap(cap: Duration) -> Option<Duration> {
    (cap >= Duration::from_secs(60)).then_some(Duration::from_secs(1))
}

fn start_ai_move(
    mut ai: ResMut<AiState>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    settings: Res<Settings>,
) {
    if ai.running.is_some() || ai.ready.is_some() || ai.paused || current.review.is_some() {
        return;
    }
    let game = &current.game;
    let Player::Ai(level) = players.get(game.side_to_move()) else {
        return;
    };
    if game.is_over() || game.legal_moves().is_empty() {
        return;
    }
    let seed = settings.ai_seed.wrapping_add(game.ply() as u64);
    spawn(
        &mut ai,
        &current,
        level.searcher(seed),
        level.limits(),
        Purpose::Move,
    );
}

fn start_hint(
    mut requests: MessageReader<HintRequested>,
    mut ai: ResMut<AiState>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    settings: Res<Settings>,
    mut notice: ResMut<Notice>,
    language: Res<Language>,
) {
    if requests.read().count() == 0 {
        return;
    }
    if !settings.hints {
        notice.info(language.t("notice.hints_off"));
        return;
    }
    let game = &current.game;
    if ai.running.is_some()
        || ai.paused
        || current.review.is_some()
        || !players.is_human(game.side_to_move())
        || game.legal_moves().is_empty()
    {
        return;
    }
    let limits = ai
        .hint_limits
        .clone()
        .unwrap_or_else(|| SearchLimits::time(Duration::from_millis(1000)));
    let seed = settings
        .ai_seed
        .wrapping_add(0x4849_4e54 + game.ply() as u64);
    spawn(
        &mut ai,
        &current,
        Searcher::new(Strategy::default(), seed),
        limits,
        Purpose::Hint,
    );
}
