//! The computer opponent and the hint: one search at a time, a background job
//! (`game::background`: the compute pool natively, the engine's worker in a browser) holding a
//! snapshot of the position, polled every frame and never waited on. Every search is tagged
//! with the game's generation; when the game moves on (undo, new game, review) the search is
//! stopped and its result is dropped.
//!
//! Each AI side keeps one `Searcher` for the game, as the arena measures it: the engine keeps
//! it in the side's slot between searches, and the next move's search goes on from the tree it
//! grew (the engine finds the position actually reached below its old root). It is made anew
//! when the level changes, or when the game is no longer a continuation of the line it
//! searched (a new or loaded game, an undo to before its last search); its node pool is
//! reserved once. Hints keep a searcher per side the same way, apart from the AI's, so a hint
//! never changes what the AI's tree holds.

use super::background::{Background, Searchers};
use crate::AppSystems;
use crate::game::flow::{CurrentGame, MoveRequested, MoveSource, Notice, ViewBusy};
use crate::game::player::{AiLevel, Player};
use crate::game::players::Players;
use crate::platform::lifecycle::{LifecycleSystems, WorkPaused, working};
use crate::platform::memory::EngineMemory;
use crate::prefs::choices::Lang;
use crate::prefs::i18n::{Said, signed_discs};
use crate::prefs::settings::Settings;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use montello_engine::search::{MoveStats, SearchLimits, SearchResult};
use montello_engine::wire::{Reply, Request, SearcherSpec};
use montello_engine::{Game, Move, Position, Side, Variant};
use std::time::Duration;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<AiState>()
        .init_resource::<EngineMemory>()
        .init_resource::<AiControl>()
        .init_resource::<LastHint>()
        .init_resource::<WinEstimate>()
        .init_resource::<AiStats>()
        .add_systems(
            PostUpdate,
            stop_when_suspended
                .after(LifecycleSystems)
                .run_if(resource_changed::<WorkPaused>),
        )
        .add_message::<HintRequested>()
        .add_message::<SearchEstimate>()
        .add_systems(
            Update,
            (
                (drop_stale, poll_search, deliver_move)
                    .chain()
                    .in_set(AppSystems::Input),
                (drop_stale, start_hint, start_ai_move)
                    .chain()
                    .run_if(working)
                    .in_set(AppSystems::Ai),
            ),
        );
}

/// A search finished (written here, read by the evaluation graph): black's chance to win in the position after `ply` moves.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct SearchEstimate {
    /// The position searched: the one after this many moves of the game.
    pub ply: usize,
    /// Black's chance to win, 0..=1.
    pub black_win: f32,
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

/// What one search did, for the statistics line ([`SearchStats::line`]) and the move list.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchStats {
    /// Iterations: positions examined (levels that judge by the evaluation alone) or
    /// playouts.
    pub iterations: u64,
    /// Whether an iteration is a position examined rather than a playout.
    pub positions: bool,
    /// Time spent.
    pub elapsed: Duration,
    /// The side that searched (the side to move in the searched position).
    pub side: Side,
    /// The chosen move's expected score for the side that searched (0..=1), once finished.
    pub win_rate: Option<f64>,
    /// The chosen move's exact final disc margin for that side, when the search proved it.
    pub solved: Option<i8>,
    /// The moves played before the searched position.
    pub ply: usize,
    /// The chosen move, once finished.
    pub mv: Option<Move>,
    /// What the search was for.
    pub purpose: Purpose,
    /// Which searcher ran it (numbered as they are made, from 1): the same number on two moves
    /// means the second went on from the first one's tree.
    pub searcher: u64,
    /// Tree nodes kept from the searcher's earlier searches when this one started.
    pub reused_nodes: usize,
}

impl SearchStats {
    fn of(result: &SearchResult, running: &Running) -> SearchStats {
        let chosen = result
            .best
            .and_then(|best| result.moves.iter().find(|m| m.mv == best))
            .or(result.moves.first());
        SearchStats {
            iterations: result.iterations,
            positions: running.positions,
            elapsed: result.elapsed,
            side: running.side,
            win_rate: chosen.map(|m| m.win_rate),
            solved: chosen.and_then(|m| m.exact_margin),
            ply: running.ply,
            mv: result.best,
            purpose: running.purpose,
            searcher: running.line.id,
            reused_nodes: result.reused_nodes,
        }
    }

    /// Iterations per second.
    pub fn per_second(&self) -> u64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            (self.iterations as f64 / s).round() as u64
        } else {
            0
        }
    }

    fn count(&self, lang: Lang) -> String {
        if self.positions {
            lang.count(
                "search.positions_one",
                "search.positions_other",
                self.iterations,
            )
        } else {
            lang.count(
                "search.playouts_one",
                "search.playouts_other",
                self.iterations,
            )
        }
    }

    /// The chosen move's win rate and proven margin as `viewer` sees them (the search's own
    /// are for the side that searched).
    fn seen_by(&self, viewer: Side) -> (Option<f64>, Option<i8>) {
        if viewer == self.side {
            (self.win_rate, self.solved)
        } else {
            (self.win_rate.map(|p| 1.0 - p), self.solved.map(|m| -m))
        }
    }

    /// The result in words, for `viewer`: "Black: solved: win by 4 discs", else "Black: win
    /// 62%" (None while thinking).
    fn outcome(&self, lang: Lang, viewer: Side) -> Option<String> {
        let what = self.result_words(lang, viewer)?;
        Some(lang.f(
            "search.for_side",
            &[("side", &lang.side(viewer)), ("what", &what)],
        ))
    }

    fn result_words(&self, lang: Lang, viewer: Side) -> Option<String> {
        let (win_rate, solved) = self.seen_by(viewer);
        if let Some(margin) = solved {
            let discs = lang.count(
                "search.discs_one",
                "search.discs_other",
                u64::from(margin.unsigned_abs()),
            );
            return Some(match margin.signum() {
                1 => lang.f("search.solved_win", &[("discs", &discs)]),
                -1 => lang.f("search.solved_loss", &[("discs", &discs)]),
                _ => lang.t("search.solved_draw").to_string(),
            });
        }
        win_rate.map(|p| lang.f("search.win", &[("pct", &(p * 100.0).round())]))
    }

    /// The quiet line of the HUD: "12,345 positions · 45,678/s · win 62%", the numbers
    /// written the language's way, the result as `viewer` sees it
    /// ([`crate::game::players::Players::viewer`]: every search the same way round, the AI's
    /// and the hints alike).
    pub fn line(&self, lang: Lang, viewer: Side) -> String {
        self.joined(lang, self.outcome(lang, viewer))
    }

    /// The line's count and rate, then `outcome` if there is one.
    fn joined(&self, lang: Lang, outcome: Option<String>) -> String {
        let mut parts = vec![
            self.count(lang),
            lang.f("search.rate", &[("n", &lang.number(self.per_second()))]),
        ];
        parts.extend(outcome);
        parts.join(" · ")
    }

    /// [`SearchStats::line`] in the app's one unit: the final margin `discs` the engine
    /// expects for `viewer` first, the search's chance after it ("White: +4, win 62%"); a
    /// proven result as before; without a margin, as [`SearchStats::line`].
    pub fn line_in_discs(&self, lang: Lang, viewer: Side, discs: Option<f32>) -> String {
        let (win_rate, solved) = self.seen_by(viewer);
        let (Some(discs), None) = (discs, solved) else {
            return self.line(lang, viewer);
        };
        let margin = signed_discs(discs);
        let what = match win_rate {
            Some(p) => lang.f(
                "search.margin_win",
                &[("discs", &margin), ("pct", &(p * 100.0).round())],
            ),
            None => margin,
        };
        self.joined(
            lang,
            Some(lang.f(
                "search.for_side",
                &[("side", &lang.side(viewer)), ("what", &what)],
            )),
        )
    }

    /// [`SearchStats::short`] in the app's one unit: a proven margin as before; else the
    /// move's value `discs` for `viewer` (from the game's review) first and the chance after
    /// it ("+4 · 62% · 12,345"); with neither, the count alone (a chance is never the only
    /// figure).
    pub fn short_in_discs(&self, lang: Lang, viewer: Side, discs: Option<f32>) -> String {
        match (self.seen_by(viewer), discs) {
            ((_, Some(_)), _) => self.short(lang, viewer),
            ((chance, None), Some(d)) => {
                let d = signed_discs(d);
                let chance = chance
                    .map(|p| {
                        format!(
                            " · {}",
                            lang.f("search.pct", &[("pct", &(p * 100.0).round())])
                        )
                    })
                    .unwrap_or_default();
                format!("{d}{chance} · {}", lang.number(self.iterations))
            }
            (_, None) => lang.number(self.iterations),
        }
    }

    /// The short form beside an AI move in the move list: "62% · 12,345" or "+4 · 12,345",
    /// for `viewer`.
    pub fn short(&self, lang: Lang, viewer: Side) -> String {
        let outcome = match self.seen_by(viewer) {
            (_, Some(margin)) => format!("{margin:+}"),
            (Some(p), None) => lang.f("search.pct", &[("pct", &(p * 100.0).round())]),
            (None, None) => String::new(),
        };
        format!("{outcome} · {}", lang.number(self.iterations))
    }
}

struct Running {
    search: Background<(Engine, SearchResult)>,
    /// The searcher's identity and the line it searched, to keep it with when it comes back.
    line: Line,
    generation: u64,
    started: Instant,
    cap: Duration,
    side: Side,
    purpose: Purpose,
    /// The moves played before the searched position.
    ply: usize,
    /// Whether its iterations are positions examined rather than playouts.
    positions: bool,
}

/// The engine's top moves for a position, for the board's hint labels.
#[derive(Clone, Debug)]
pub struct Hint {
    /// The game generation it was computed for; the view hides it once the game moves on.
    pub generation: u64,
    /// The best moves, best first, with their search statistics for the side to move (the
    /// board rings them until the values on the squares come: `game::values`).
    pub moves: Vec<MoveStats>,
}

/// A kept searcher, as the game sees it: the engine keeps the searchers themselves (in a slot
/// for each purpose and side: `game::background`); the game keeps how to make one and
/// whether it must be made anew.
#[derive(Clone, Copy, Debug)]
struct Engine {
    spec: SearcherSpec,
    fresh: bool,
}

/// A new searcher made from `spec`.
fn new_engine(spec: SearcherSpec) -> Engine {
    Engine { spec, fresh: true }
}

/// What a kept searcher was made for and the line of play it last searched.
#[derive(Clone, Debug)]
struct Line {
    /// Its number, from 1, in the order searchers are made.
    id: u64,
    /// The AI's level, or `None` for a hint searcher.
    level: Option<AiLevel>,
    variant: Variant,
    start: Position,
    /// The moves up to the position it searched last.
    moves: Vec<Move>,
}

impl Line {
    fn of(id: u64, level: Option<AiLevel>, game: &Game) -> Line {
        Line {
            id,
            level,
            variant: game.variant(),
            start: game.start_position(),
            moves: game.history().to_vec(),
        }
    }

    /// Whether `game` goes on from this line (same rules and start, the same moves, then more)
    /// for a searcher of `level`: only then can its tree hold the position now on the board.
    fn continues_in(&self, game: &Game, level: Option<AiLevel>) -> bool {
        self.level == level
            && self.variant == game.variant()
            && self.start == game.start_position()
            && game.history().len() > self.moves.len()
            && game.history().starts_with(&self.moves)
    }
}

/// The searchers kept between searches: one for each AI side and one for each side's hints
/// (the engine keeps them in `searchers`, the game what they were made for).
#[derive(Default)]
struct Kept {
    ai: [Option<(Engine, Line)>; 2],
    hint: [Option<(Engine, Line)>; 2],
    made: u64,
    searchers: Searchers,
}

impl Kept {
    fn slot(&mut self, purpose: Purpose, side: Side) -> &mut Option<(Engine, Line)> {
        let i = usize::from(side == Side::White);
        match purpose {
            Purpose::Move => &mut self.ai[i],
            Purpose::Hint => &mut self.hint[i],
        }
    }

    /// The kept searcher for `purpose` and the side to move if the game goes on from what it
    /// searched, else a new one made from `spec` (the old one, if any, is dropped here).
    fn take(
        &mut self,
        purpose: Purpose,
        level: Option<AiLevel>,
        game: &Game,
        spec: SearcherSpec,
    ) -> (Engine, Line) {
        let slot = self.slot(purpose, game.side_to_move());
        match slot.take() {
            Some((searcher, line)) if line.continues_in(game, level) => {
                (searcher, Line::of(line.id, level, game))
            }
            _ => {
                self.made += 1;
                (new_engine(spec), Line::of(self.made, level, game))
            }
        }
    }
}

/// The search in flight and a finished AI move waiting for the board to settle. What the
/// searches found lives beside it: [`LastHint`], [`WinEstimate`], [`AiStats`]; what tools set,
/// in [`AiControl`].
#[derive(Resource, Default)]
pub struct AiState {
    running: Option<Running>,
    kept: Kept,
    ready: Option<(u64, Move)>,
}

/// What tools and tests set: no search at all, or a hint's own limits.
#[derive(Resource, Clone, Debug, Default)]
pub struct AiControl {
    /// Freeze the game where it is (the screenshot tool): no search starts. (While the app is
    /// suspended no search runs either: [`WorkPaused`], the platform's.)
    pub frozen: bool,
    /// How long a hint may think (default: a second).
    pub hint_limits: Option<SearchLimits>,
}

/// The last hint: shown on the board while the game is at the generation it was asked in.
#[derive(Resource, Clone, Debug, Default)]
pub struct LastHint(pub Option<Hint>);

/// Black's chance to win (0..=1) according to the last search, for the win bar.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct WinEstimate(pub Option<f32>);

/// What the searches measured, for the statistics line and the move list.
#[derive(Resource, Clone, Debug, Default)]
pub struct AiStats {
    /// The last finished search's statistics (a move or a hint).
    pub last: Option<SearchStats>,
    /// The statistics of the AI's moves in the current line of play, by ply.
    pub moves: Vec<SearchStats>,
    /// Results dropped because the game had moved on.
    pub stale_dropped: u64,
}

impl AiStats {
    /// The statistics of the AI move that led from ply `ply` to the next, if that is the move
    /// now in the game at that ply.
    pub fn of_move(&self, ply: usize, mv: Move) -> Option<&SearchStats> {
        self.moves.iter().find(|s| s.ply == ply && s.mv == Some(mv))
    }
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

    /// The running search's statistics so far (no result yet), read from its live counter.
    pub fn live_stats(&self) -> Option<SearchStats> {
        self.running.as_ref().map(|r| SearchStats {
            iterations: r.search.iterations(),
            positions: r.positions,
            elapsed: r.started.elapsed(),
            side: r.side,
            win_rate: None,
            solved: None,
            ply: r.ply,
            mv: None,
            purpose: r.purpose,
            searcher: r.line.id,
            reused_nodes: 0,
        })
    }

    /// Whether a search runs or an AI move waits to be shown.
    pub fn is_busy(&self) -> bool {
        self.running.is_some() || self.ready.is_some()
    }

    /// Stops the running search at once; its result will be dropped.
    pub fn cancel(&mut self) {
        if let Some(running) = self.running.take() {
            running.search.stop();
        }
        self.ready = None;
    }
}

/// The app went to the background: the running search stops (no CPU there); on resume the
/// AI's turn starts again by itself, as a search starts whenever it is the AI's move and none
/// is running.
fn stop_when_suspended(paused: Res<WorkPaused>, mut ai: ResMut<AiState>) {
    if paused.0 && ai.running.is_some() {
        ai.cancel();
    }
}

fn drop_stale(
    mut ai: ResMut<AiState>,
    current: Res<CurrentGame>,
    control: Res<AiControl>,
    mut stats: ResMut<AiStats>,
) {
    let stale = ai
        .running
        .as_ref()
        .is_some_and(|r| r.generation != current.generation())
        || ai.ready.is_some_and(|(g, _)| g != current.generation())
        || (control.frozen && ai.running.is_some());
    if stale {
        stats.stale_dropped += 1;
        ai.cancel();
    }
}

fn poll_search(
    mut ai: ResMut<AiState>,
    mut hint: ResMut<LastHint>,
    mut estimate: ResMut<WinEstimate>,
    mut stats: ResMut<AiStats>,
    mut estimates: MessageWriter<SearchEstimate>,
    mut notice: ResMut<Notice>,
) {
    // Look before touching: a mutable borrow would mark the state changed every frame.
    if ai.running.is_none() {
        return;
    }
    let Some(running) = ai.running.as_mut() else {
        return;
    };
    let Some((searcher, result)) = running.search.poll() else {
        return;
    };
    let Some(running) = ai.running.take() else {
        return;
    };
    let side = running.side;
    *ai.kept.slot(running.purpose, side) = Some((searcher, running.line.clone()));
    if let Some(rate) = result.win_rate() {
        let rate = rate as f32;
        let black_win = match running.side {
            Side::Black => rate,
            Side::White => 1.0 - rate,
        };
        estimate.0 = Some(black_win);
        estimates.write(SearchEstimate {
            ply: running.ply,
            black_win,
        });
    }
    let found = SearchStats::of(&result, &running);
    if running.purpose == Purpose::Move {
        // A move at this ply replaces whatever line was played from here before (undone).
        stats.moves.retain(|s| s.ply < running.ply);
        stats.moves.push(found.clone());
    }
    stats.last = Some(found);
    match running.purpose {
        Purpose::Move => {
            ai.ready = result.best.map(|mv| (running.generation, mv));
        }
        Purpose::Hint => {
            let moves: Vec<_> = result.moves.into_iter().take(3).collect();
            // What the rings mean, said plainly.
            notice.info(match moves.len() {
                1 => Said::new("notice.hint_one"),
                n => Said::new("notice.hint_many").arg("n", n),
            });
            hint.0 = Some(Hint {
                generation: running.generation,
                moves,
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
    (engine, line): (Engine, Line),
    mut limits: SearchLimits,
    purpose: Purpose,
    memory: &EngineMemory,
) {
    // The device's budget (a phone's browser holds a quarter of Master's pool).
    limits.memory = memory.cap(limits.memory);
    let pos = current.game().position();
    let variant = current.game().variant();
    let cap = progress_cap(&limits, line.level);
    // The engine's slot for this purpose and side keeps the searcher.
    let slot = 2 * u8::from(purpose == Purpose::Hint) + u8::from(pos.side_to_move() == Side::White);
    let kept = Engine {
        fresh: false,
        ..engine
    };
    let search = Background::search(
        &ai.kept.searchers,
        |job| Request::Search {
            job,
            slot,
            fresh: engine.fresh,
            spec: engine.spec,
            position: pos,
            variant,
            limits,
        },
        move |reply| match reply {
            Reply::Searched { result, .. } => Some((kept, result)),
            _ => None,
        },
    );
    let positions = engine.spec.config().eval_weight >= 1.0;
    ai.running = Some(Running {
        search,
        line,
        generation: current.generation(),
        started: Instant::now(),
        cap,
        side: pos.side_to_move(),
        purpose,
        ply: current.game().ply(),
        positions,
    });
}

/// What a hint may spend: a second, in a pool of its own half the size of Master's (a hint
/// searcher is kept for each side beside the AI's).
const HINT_LIMITS: SearchLimits = SearchLimits {
    time: Some(Duration::from_millis(1000)),
    iterations: None,
    memory: 64 << 20,
};

/// A search capped by iterations alone has no time cap (`SearchLimits::time` is `None`): its
/// progress shows as if it took a second.
const UNTIMED_PROGRESS: Duration = Duration::from_secs(1);

/// The time a search's progress is shown against: its cap, or for a level with a game clock
/// (Master's: a hard move may think up to twice the cap, an easy one less) the longest it may
/// take, so the bar never waits full.
fn progress_cap(limits: &SearchLimits, level: Option<AiLevel>) -> Duration {
    match (limits.time, level) {
        (None, _) => UNTIMED_PROGRESS,
        (Some(_), Some(AiLevel::Level(level))) if level.config().time_share > 0.0 => {
            limits.longest()
        }
        (Some(time), _) => time,
    }
}

fn start_ai_move(
    mut ai: ResMut<AiState>,
    control: Res<AiControl>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    settings: Res<Settings>,
    memory: Res<EngineMemory>,
) {
    if ai.running.is_some() || ai.ready.is_some() || control.frozen || current.review().is_some() {
        return;
    }
    let game = current.game();
    let Player::Ai(level) = players.get(game.side_to_move()) else {
        return;
    };
    if game.is_over() || game.legal_moves().is_empty() {
        return;
    }
    let seed = settings.ai_seed.wrapping_add(game.ply() as u64);
    let searcher = ai
        .kept
        .take(Purpose::Move, Some(level), game, level.spec(seed));
    spawn(
        &mut ai,
        &current,
        searcher,
        level.limits(),
        Purpose::Move,
        &memory,
    );
}

fn start_hint(
    mut requests: MessageReader<HintRequested>,
    mut ai: ResMut<AiState>,
    control: Res<AiControl>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    settings: Res<Settings>,
    mut notice: ResMut<Notice>,
    memory: Res<EngineMemory>,
) {
    if requests.read().count() == 0 {
        return;
    }
    if !settings.hints {
        notice.info(Said::new("notice.hints_off"));
        return;
    }
    let game = current.game();
    if ai.running.is_some()
        || control.frozen
        || current.review().is_some()
        || !players.is_human(game.side_to_move())
        || game.legal_moves().is_empty()
    {
        return;
    }
    let limits = control.hint_limits.clone().unwrap_or(HINT_LIMITS);
    let seed = settings
        .ai_seed
        .wrapping_add(0x4849_4e54 + game.ply() as u64);
    // The hint rings the top moves (the values on every square come from `game::values`
    // once it has answered): it runs its time out (no early stop) so the runners-up are
    // ranked as well as the best move.
    let searcher = ai
        .kept
        .take(Purpose::Hint, None, game, SearcherSpec::Plain { seed });
    spawn(&mut ai, &current, searcher, limits, Purpose::Hint, &memory);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(
        iterations: u64,
        millis: u64,
        win_rate: Option<f64>,
        solved: Option<i8>,
    ) -> SearchStats {
        SearchStats {
            iterations,
            positions: true,
            elapsed: Duration::from_millis(millis),
            side: Side::White,
            win_rate,
            solved,
            ply: 0,
            mv: None,
            purpose: Purpose::Move,
            searcher: 1,
            reused_nodes: 0,
        }
    }

    #[test]
    fn the_statistics_line_speaks_each_language() {
        let s = stats(12_345, 500, Some(0.623), None);
        assert_eq!(s.per_second(), 24_690);
        assert_eq!(
            s.line(Lang::En, Side::White),
            "12,345 positions · 24,690/s · White: win 62%"
        );
        assert_eq!(
            s.line(Lang::Fr, Side::White),
            "12\u{a0}345 positions · 24\u{a0}690/s · Blanc\u{a0}: victoire 62\u{a0}%"
        );
        assert_eq!(
            s.line(Lang::De, Side::White),
            "12.345 Stellungen · 24.690/s · Weiß: Sieg 62\u{a0}%"
        );
        assert_eq!(
            s.line(Lang::Ja, Side::White),
            "12,345局面 · 毎秒24,690 · 白：勝率62%"
        );
        assert_eq!(s.short(Lang::De, Side::White), "62\u{a0}% · 12.345");
    }

    /// Beside an AI move: the review's value first, the chance after it; a proof as before;
    /// without a value the count alone, never a chance on its own.
    #[test]
    fn the_short_form_says_the_moves_value_in_discs() {
        let s = stats(12_345, 500, Some(0.623), None);
        assert_eq!(
            s.short_in_discs(Lang::En, Side::White, Some(3.6)),
            "+4 · 62% · 12,345"
        );
        assert_eq!(
            s.short_in_discs(Lang::En, Side::Black, Some(-0.2)),
            "0 · 38% · 12,345"
        );
        assert_eq!(s.short_in_discs(Lang::En, Side::White, None), "12,345");
        let won = stats(900, 100, Some(1.0), Some(4));
        assert_eq!(
            won.short_in_discs(Lang::En, Side::White, Some(1.0)),
            "+4 · 900"
        );
    }

    /// In the app's one unit the expected margin comes first and the chance second; a proof
    /// and a missing margin read as before.
    #[test]
    fn the_statistics_line_says_the_margin_in_discs_first() {
        let s = stats(12_345, 500, Some(0.623), None);
        assert_eq!(
            s.line_in_discs(Lang::En, Side::White, Some(3.6)),
            "12,345 positions · 24,690/s · White: +4, win 62%"
        );
        assert_eq!(
            s.line_in_discs(Lang::En, Side::Black, Some(-3.6)),
            "12,345 positions · 24,690/s · Black: -4, win 38%"
        );
        assert!(
            s.line_in_discs(Lang::Ja, Side::White, Some(0.2))
                .ends_with("白：0・勝率62%")
        );
        assert_eq!(
            s.line_in_discs(Lang::En, Side::White, None),
            s.line(Lang::En, Side::White)
        );
        let won = stats(900, 100, Some(1.0), Some(4));
        assert_eq!(
            won.line_in_discs(Lang::En, Side::White, Some(1.0)),
            won.line(Lang::En, Side::White),
            "a proof says its own margin"
        );
    }

    #[test]
    fn one_is_singular_and_proofs_are_said_in_discs() {
        let one = stats(1, 1000, None, None);
        assert_eq!(one.line(Lang::En, Side::White), "1 position · 1/s");
        assert_eq!(one.line(Lang::De, Side::White), "1 Stellung · 1/s");
        let playouts = SearchStats {
            positions: false,
            ..stats(0, 1000, None, None)
        };
        // French counts zero as singular, English does not.
        assert_eq!(playouts.line(Lang::Fr, Side::White), "0 simulation · 0/s");
        assert_eq!(playouts.line(Lang::En, Side::White), "0 playouts · 0/s");
        let won = stats(900, 100, Some(1.0), Some(4));
        assert_eq!(
            won.line(Lang::En, Side::White),
            "900 positions · 9,000/s · White: solved: win by 4 discs"
        );
        assert_eq!(won.short(Lang::En, Side::White), "+4 · 900");
        let lost = stats(900, 100, Some(0.0), Some(-1));
        assert!(
            lost.line(Lang::En, Side::White)
                .ends_with("solved: loss by 1 disc")
        );
        assert!(lost.line(Lang::Fr, Side::White).ends_with("perd de 1 pion"));
        assert!(
            stats(9, 1, Some(0.5), Some(0))
                .line(Lang::De, Side::White)
                .ends_with("gelöst: Remis")
        );
        assert!(
            stats(9, 1, Some(0.0), Some(-2))
                .line(Lang::Ja, Side::White)
                .ends_with("読み切り：2石負け")
        );
    }

    #[test]
    fn every_search_is_told_from_one_viewpoint() {
        // White searched; Black reads the same numbers the other way round, named as Black's.
        let s = stats(12_345, 500, Some(0.623), None);
        assert_eq!(
            s.line(Lang::En, Side::Black),
            "12,345 positions · 24,690/s · Black: win 38%"
        );
        assert_eq!(s.short(Lang::En, Side::Black), "38% · 12,345");
        let won = stats(900, 100, Some(1.0), Some(4));
        assert!(
            won.line(Lang::En, Side::Black)
                .ends_with("Black: solved: loss by 4 discs")
        );
        assert_eq!(won.short(Lang::En, Side::Black), "-4 · 900");
        // The viewer: the person against the AI, else Black.
        use crate::game::player::{AiLevel, Player};
        use crate::game::players::Players;
        let ai = Player::Ai(AiLevel::Iterations(100));
        let viewer = |black, white| Players { black, white }.viewer();
        assert_eq!(viewer(ai, Player::Human), Side::White);
        assert_eq!(viewer(Player::Human, ai), Side::Black);
        assert_eq!(viewer(Player::Human, Player::Human), Side::Black);
        assert_eq!(viewer(ai, ai), Side::Black);
    }
}
