//! The computer opponent: Monte-Carlo Tree Search with UCB1 applied to trees (UCT), on one
//! thread, under a time cap (the battery promise), an optional iteration cap, and a memory cap.
//!
//! [`Searcher`] is the entry point: it owns the search's random generator (seeded, so a search
//! with an iteration limit replays exactly) and whatever the strategy keeps between moves.
//! It runs one of three [`Strategy`]s (the default one tuned by [`MctsConfig`], the alpha-beta
//! sparring partner by [`AlphaBetaConfig`]) within [`SearchLimits`], and [`Level`] bundles
//! the app's playing strengths. Every type of the search is here; its strategies' modules are
//! private.

mod alphabeta;
pub(crate) mod book;
mod classic;
pub(crate) mod endgame;
mod game_clock;
mod levels;
mod mcts;
pub mod puzzle;
pub mod review;

pub use alphabeta::AlphaBetaConfig;
pub use book::{Book, BookEntry, BookError, BookMove};
pub use endgame::{Solution, SolveTable, Solver, solve, solve_in};
// What the lab (lab/: the arena, the book builder, the trainer) measures and fits the searches
// with; the app has no use for them.
pub use alphabeta::probcut::{
    beyond_the_fit as probcut_beyond_the_fit, shallow_depth as probcut_shallow_depth,
};
pub use alphabeta::{DEFAULT_PROBCUT, FixedDepth, margin_of_win_rate};
pub use levels::{Level, TREE_ITERATIONS, tree_speed};
pub use mcts::MctsConfig;

use crate::{FastRng, Move, Position, Variant};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// What a search may spend.
///
/// A search stops at whichever cap it reaches first. Whether it has a time cap of its own is
/// explicit in [`SearchLimits::time`]: a search capped by iterations alone (the deterministic
/// runs) has `time: None`, and callers that show progress against the clock can tell it
/// apart without guessing from a duration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Wall-clock cap; the move comes back within this plus a few milliseconds. `None` for a
    /// search bounded by its iteration cap alone, which still stops after
    /// [`SearchLimits::SAFETY_NET`] (see [`SearchLimits::clock`]).
    pub time: Option<Duration>,
    /// Stop after this many iterations (playouts), if set. Makes a search deterministic.
    pub iterations: Option<u64>,
    /// Memory cap for the tree, in bytes. When the tree is full the search keeps running on
    /// the tree it has; it never aborts and never grows past the cap.
    pub memory: usize,
}

/// The default memory cap for the tree: 128 MiB, room for about one second of the evaluated
/// search (every iteration adds a block of children). The pool is reserved, not touched:
/// a search only uses the pages its nodes fill. A [`Searcher`] reserves it once, on its first
/// search, and keeps it (and the pages it touched) for the next ones.
pub const DEFAULT_MEMORY: usize = 128 << 20;

impl SearchLimits {
    /// How long a search without a time cap may run at most: a safety net against an
    /// iteration cap too large for the machine, never reached by the usual ones.
    pub const SAFETY_NET: Duration = Duration::from_secs(60);

    /// A time cap with no iteration cap and the default memory cap.
    pub const fn time(time: Duration) -> SearchLimits {
        SearchLimits {
            time: Some(time),
            iterations: None,
            memory: DEFAULT_MEMORY,
        }
    }

    /// An iteration cap and no time cap (only the [`SearchLimits::SAFETY_NET`]), with the
    /// default memory cap.
    pub const fn iterations(iterations: u64) -> SearchLimits {
        SearchLimits {
            time: None,
            iterations: Some(iterations),
            memory: DEFAULT_MEMORY,
        }
    }

    /// The wall-clock time the search may take: its time cap, or the
    /// [`SearchLimits::SAFETY_NET`] when it has none.
    pub const fn clock(&self) -> Duration {
        match self.time {
            Some(time) => time,
            None => SearchLimits::SAFETY_NET,
        }
    }

    /// The longest a search under these limits may take: twice its time cap, which a move
    /// under a game clock may reach ([`MctsConfig::time_share`]), or the
    /// [`SearchLimits::SAFETY_NET`] without a time cap. A watchdog waits this long.
    pub fn longest(&self) -> Duration {
        match self.time {
            Some(time) => time * game_clock::MOST,
            None => SearchLimits::SAFETY_NET,
        }
    }
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits::time(Duration::from_secs(1))
    }
}

/// A handle that stops a running search within a few milliseconds, from any thread (the
/// app cancels when the player undoes or starts a new game while the AI thinks). The
/// default strategy also reports its progress through it, for a "thinking" display.
#[derive(Clone, Debug, Default)]
pub struct CancelHandle(Arc<Shared>);

#[derive(Debug, Default)]
struct Shared {
    cancelled: AtomicBool,
    iterations: AtomicU64,
    /// Told the iterations each time they are counted (a Web Worker posts them to the page,
    /// which cannot read this handle across the worker's boundary).
    observer: Option<fn(u64)>,
}

impl CancelHandle {
    /// A handle that is not cancelled.
    pub fn new() -> CancelHandle {
        CancelHandle::default()
    }

    /// Asks the search to stop; it returns the best move it has so far.
    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether [`CancelHandle::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::Relaxed)
    }

    /// Iterations the running (or last) default-strategy search has done so far, updated
    /// every few hundred microseconds.
    pub fn iterations(&self) -> u64 {
        self.0.iterations.load(Ordering::Relaxed)
    }

    /// A handle that also calls `observer` with the iterations so far, every few hundred
    /// microseconds while a default-strategy search runs (it should be quick).
    pub fn observed(observer: fn(u64)) -> CancelHandle {
        CancelHandle(Arc::new(Shared {
            observer: Some(observer),
            ..Shared::default()
        }))
    }

    pub(crate) fn set_iterations(&self, n: u64) {
        self.0.iterations.store(n, Ordering::Relaxed);
        if let Some(observer) = self.0.observer {
            observer(n);
        }
    }
}

/// A proven game-theoretic value, from the point of view of the side that makes the move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Proof {
    /// The move wins with best play.
    Win,
    /// The move draws with best play.
    Draw,
    /// The move loses against best play.
    Loss,
}

/// What the search learned about one move at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats {
    /// The move.
    pub mv: Move,
    /// How many playouts went through it.
    pub visits: u64,
    /// Its mean score for the side to move (1 win, 0.5 draw, 0 loss), in 0..=1.
    pub win_rate: f64,
    /// Its exact value, if the search proved it.
    pub proof: Option<Proof>,
    /// The exact final disc margin for the side to move, if an endgame solve found it.
    pub exact_margin: Option<i8>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play, or `None` when the game is over.
    pub best: Option<Move>,
    /// Statistics for every root move, the move to play first, then by visits.
    pub moves: Vec<MoveStats>,
    /// The principal variation: the best move and the most visited replies below it.
    pub pv: Vec<Move>,
    /// Iterations (selection + expansion + playout + backpropagation) run.
    pub iterations: u64,
    /// Tree nodes in use at the end.
    pub nodes: usize,
    /// Bytes of tree memory in use at the end.
    pub memory: usize,
    /// Positions the exact endgame solver searched at the root (0 when it did not run).
    pub endgame_nodes: u64,
    /// Whether the best move's value was proven exactly.
    pub proven: bool,
    /// Wall-clock time spent.
    pub elapsed: Duration,
    /// Whether the search stopped because it was cancelled.
    pub cancelled: bool,
    /// Nodes of the tree kept from earlier moves that this search started from (the subtree
    /// of this position, found below the old root): 0 when it started from a fresh root, and
    /// always 0 for the strategies that keep no tree (classic and alpha-beta).
    pub reused_nodes: usize,
    /// Whether the search stopped before its caps because the move to play could no longer
    /// change: its lead in visits over every other move not proven lost was larger than the
    /// iterations left (see [`MctsConfig::early_stop`]). A proven win played at once, a
    /// forced move and a cancelled search do not count.
    pub stopped_early: bool,
    /// Which search answered: the tree ([`Strategy::Default`], a book move included),
    /// alpha-beta (its own strategy, or Master's late middle game handed to it) or the classic
    /// UCT. Tests assert on it rather than on figures that differ from run to run.
    pub answered_by: Strategy,
}

impl SearchResult {
    /// The one constructor the searches share: the move to play, the ranked root `moves`
    /// (the move to play first, [`rank_root_moves`]), the principal variation and the time
    /// spent; proven when the first move's value is; every count 0, neither cancelled nor
    /// stopped early. A search adds its own counts by struct update
    /// (`SearchResult { iterations, ..SearchResult::new(..) }`).
    pub(crate) fn new(
        best: Option<Move>,
        moves: Vec<MoveStats>,
        pv: Vec<Move>,
        elapsed: Duration,
    ) -> SearchResult {
        SearchResult {
            best,
            proven: moves.first().is_some_and(|m| m.proof.is_some()),
            moves,
            pv,
            iterations: 0,
            nodes: 0,
            memory: 0,
            endgame_nodes: 0,
            elapsed,
            answered_by: Strategy::Default,
            cancelled: false,
            reused_nodes: 0,
            stopped_early: false,
        }
    }

    /// The side to move's expected score (0..=1) after the best move, for a win-probability bar.
    pub fn win_rate(&self) -> Option<f64> {
        self.moves.first().map(|m| m.win_rate)
    }
}

/// What a tree search ranks one of its root's children by ([`rank_root_moves`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootRank<M> {
    /// Higher first: the default search puts proven wins above the rest and proven losses
    /// below them; the classic search has one class.
    pub class: u8,
    /// Visits: the most visited first within a class.
    pub visits: u32,
    /// The sum of the scores: the higher mean (`wins / visits`) first at equal visits.
    pub wins: f32,
    /// The move: the lower first when all else is equal, so that the order never depends on
    /// the order of the children.
    pub mv: M,
}

/// Sorts a tree search's root children into the result's order, the move to play first, by
/// their [`RootRank`]s: class, then visits, then the mean score, then the move.
pub(crate) fn rank_root_moves<T, M: Ord>(children: &mut [T], rank: impl Fn(&T) -> RootRank<M>) {
    let mean = |r: &RootRank<M>| r.wins / r.visits.max(1) as f32;
    children.sort_by(|a, b| {
        let (a, b) = (rank(a), rank(b));
        b.class
            .cmp(&a.class)
            .then(b.visits.cmp(&a.visits))
            .then(mean(&b).total_cmp(&mean(&a)))
            .then(a.mv.cmp(&b.mv))
    });
}

/// Puts `list[i]` first and keeps the others in their order: how a move chosen otherwise
/// than by the ranking (the book's, a weak level's draw, a move an unfinished iteration
/// proved better) goes to the front of a result's moves.
pub(crate) fn put_first<T>(list: &mut [T], i: usize) {
    list[..=i].rotate_right(1);
}

/// Which algorithm a [`Searcher`] runs.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Strategy {
    /// UCThello's plain UCT, kept exactly as the baseline every improvement is measured against.
    Classic,
    /// What players face: UCT with tree reuse, a capped node pool, priors, the MCTS-Solver and
    /// an exact endgame (see [`MctsConfig`]).
    #[default]
    Default,
    /// The sparring partner: PVS alpha-beta with the learned evaluation, iterative
    /// deepening, a transposition table and an exact endgame (see [`AlphaBetaConfig`]).
    AlphaBeta,
}

impl Strategy {
    /// The name used in arena specs (`classic`).
    pub const fn name(self) -> &'static str {
        match self {
            Strategy::Classic => "classic",
            Strategy::Default => "default",
            Strategy::AlphaBeta => "ab",
        }
    }

    /// Every strategy.
    pub const ALL: [Strategy; 3] = [Strategy::Classic, Strategy::Default, Strategy::AlphaBeta];

    /// The strategy named `name` (as printed by [`Strategy::name`]).
    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// A single-threaded searcher: the strategy, its seeded random generator, and what it keeps
/// between moves.
#[derive(Debug)]
pub struct Searcher {
    strategy: Strategy,
    rng: FastRng,
    randomness: f32,
    config: MctsConfig,
    state: mcts::State,
    ab_config: AlphaBetaConfig,
    ab_state: alphabeta::State,
    book: Option<Arc<Book>>,
    clock: game_clock::GameClock,
}

impl Searcher {
    /// A searcher for `strategy` whose randomness comes from `seed`.
    pub fn new(strategy: Strategy, seed: u64) -> Searcher {
        Searcher {
            strategy,
            rng: FastRng::new(seed),
            randomness: 0.0,
            config: MctsConfig::default(),
            state: mcts::State::default(),
            ab_config: AlphaBetaConfig::default(),
            ab_state: alphabeta::State::default(),
            book: None,
            clock: game_clock::GameClock::default(),
        }
    }

    /// Gives the default strategy an opening book to play from while the game is in it, when
    /// its config sets a [`MctsConfig::book_margin`] (no level does: see [`Book`]).
    pub fn with_book(mut self, book: Arc<Book>) -> Searcher {
        self.book = Some(book);
        self
    }

    /// Sets the alpha-beta search's knobs: the alpha-beta strategy's, and those of the default
    /// strategy's hand-over to it ([`MctsConfig::ab_empties`]).
    pub fn with_ab_config(mut self, config: AlphaBetaConfig) -> Searcher {
        self.ab_config = config;
        self
    }

    /// The alpha-beta strategy's knobs.
    pub fn ab_config(&self) -> &AlphaBetaConfig {
        &self.ab_config
    }

    /// Sets the default strategy's knobs (the arena measures them one by one).
    pub fn with_config(mut self, config: MctsConfig) -> Searcher {
        self.config = config;
        self
    }

    /// The default strategy's knobs.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Takes the default strategy's kept tree out, for tests that look at it.
    #[cfg(test)]
    pub(crate) fn tree_for_tests(&mut self) -> Option<mcts::tree::Tree> {
        self.state.take_tree()
    }

    /// Forgets the tree kept from earlier moves (a new game, or a position set from outside).
    /// The default strategy's node pool stays reserved for the next search.
    pub fn clear(&mut self) {
        self.state.forget();
        self.ab_state = alphabeta::State::default();
        self.clock = game_clock::GameClock::default();
    }

    /// Makes the searcher stray from its best move like a human beginner: with `randomness`
    /// above 0 the move is drawn among the root moves with weights `visits^(1/randomness)`
    /// (so 1 picks in proportion to visits, and values near 0 almost always pick the best).
    /// Proven results are never randomised. 0 (the default) always plays the best move.
    pub fn with_randomness(mut self, randomness: f32) -> Searcher {
        self.randomness = randomness.max(0.0);
        self
    }

    /// Changes how far the move choice strays from the best move (see
    /// [`Searcher::with_randomness`]), keeping the tree.
    pub fn set_randomness(&mut self, randomness: f32) {
        self.randomness = randomness.max(0.0);
    }

    /// How far this searcher's move choice strays from its best move (see
    /// [`Searcher::with_randomness`]).
    pub fn randomness(&self) -> f32 {
        self.randomness
    }

    /// The strategy this searcher runs.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// Whether the default strategy plays the alpha-beta search's move here instead of the
    /// tree's ([`MctsConfig::ab_empties`], [`MctsConfig::ab_min_time`],
    /// [`MctsConfig::ab_short_floor`]).
    fn hands_to_alpha_beta(&self, pos: &Position, variant: Variant, limits: &SearchLimits) -> bool {
        let c = &self.config;
        let empties = pos.empties().count();
        let short = limits.time.is_some_and(|t| t < c.ab_min_time);
        c.ab_empties > 0
            && empties <= c.ab_empties
            && (!short || (c.ab_short_floor > 0 && empties > c.ab_short_floor))
            && !variant.in_free_opening(pos)
    }

    /// Searches `pos` under `variant`'s rules within `limits`, stopping early if `cancel` is
    /// set, and returns the move to play with the root statistics.
    ///
    /// With randomness above 0 the default strategy never stops early
    /// ([`MctsConfig::early_stop`] is off for the call): the move is drawn in proportion to
    /// the visits, so every iteration counts, and the weak levels keep their character.
    pub fn search(
        &mut self,
        pos: &Position,
        variant: Variant,
        limits: &SearchLimits,
        cancel: &CancelHandle,
    ) -> SearchResult {
        if let (Strategy::Default, Some(margin), Some(book)) =
            (self.strategy, self.config.book_margin, &self.book)
            && let Some(result) = book_move(book, pos, variant, margin, &mut self.rng)
        {
            return result;
        }
        // The hand-over is decided on the nominal cap; the move then gets the game clock's.
        let hands_over = self.hands_to_alpha_beta(pos, variant, limits);
        let managed = self.managed_limits(pos, limits);
        let limits = managed.as_ref().unwrap_or(limits);
        let start = crate::clock::Instant::now();
        let mut result = match self.strategy {
            Strategy::Classic => classic::search(pos, variant, limits, cancel, &mut self.rng),
            Strategy::Default if hands_over => {
                // The tree's pool stays reserved for a position taken back, so the table gets
                // a quarter of the cap beside it (2^20 entries at Master's 128 MiB).
                let limits = SearchLimits {
                    memory: limits.memory / 4,
                    ..*limits
                };
                alphabeta::search(
                    &mut self.ab_state,
                    pos,
                    variant,
                    &limits,
                    cancel,
                    &self.ab_config,
                )
            }
            Strategy::Default => {
                let config = MctsConfig {
                    early_stop: self.config.early_stop && self.randomness <= 0.0,
                    ..self.config
                };
                mcts::search(
                    &mut self.state,
                    pos,
                    variant,
                    limits,
                    cancel,
                    &mut self.rng,
                    &config,
                )
            }
            Strategy::AlphaBeta => alphabeta::search(
                &mut self.ab_state,
                pos,
                variant,
                limits,
                cancel,
                &self.ab_config,
            ),
        };
        if managed.is_some() {
            self.clock.record(start.elapsed());
        }
        if self.randomness > 0.0 {
            randomise_choice(&mut result, self.randomness, &mut self.rng);
        }
        result
    }

    /// The limits of a move under the game clock ([`MctsConfig::time_share`]): the default
    /// strategy with a share, a time cap and no iteration cap, playing its best move; `None`
    /// for every other search, which keeps its caps.
    fn managed_limits(&mut self, pos: &Position, limits: &SearchLimits) -> Option<SearchLimits> {
        let nominal = limits.time?;
        let share = self.config.time_share;
        if self.strategy != Strategy::Default
            || share <= 0.0
            || limits.iterations.is_some()
            || self.randomness > 0.0
        {
            return None;
        }
        let empties = pos.empties().count();
        let cap = self.clock.cap(
            empties,
            nominal,
            f64::from(share),
            self.config.solve_empties,
        );
        Some(SearchLimits {
            time: Some(cap),
            ..*limits
        })
    }
}

/// The opening book's move in `pos` as a search result (no search: the book's values stand
/// for the win rates), or `None` when the position is not in the book.
fn book_move(
    book: &Book,
    pos: &Position,
    variant: Variant,
    margin: u8,
    rng: &mut FastRng,
) -> Option<SearchResult> {
    let start = crate::clock::Instant::now();
    let (best, moves) = book.choose(pos, variant, margin, rng)?;
    let mut moves: Vec<MoveStats> = moves
        .into_iter()
        .map(|m| MoveStats {
            mv: Move::Play(m.square),
            visits: 0,
            win_rate: alphabeta::win_rate(i32::from(m.value) * crate::eval::SCALE),
            proof: None,
            exact_margin: None,
        })
        .collect();
    if let Some(i) = moves.iter().position(|m| m.mv == best) {
        put_first(&mut moves, i);
    }
    Some(SearchResult::new(
        Some(best),
        moves,
        vec![best],
        start.elapsed(),
    ))
}

/// Draws the move to play among the root moves with weights `visits^(1/randomness)` and moves
/// it to the front of `result.moves`.
fn randomise_choice(result: &mut SearchResult, randomness: f32, rng: &mut FastRng) {
    if result.proven || result.moves.len() < 2 {
        return;
    }
    let exponent = 1.0 / f64::from(randomness.max(1e-3));
    let top = result
        .moves
        .iter()
        .map(|m| m.visits)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    // Relative to the most visited move, so large exponents do not overflow.
    let weights: Vec<f64> = result
        .moves
        .iter()
        .map(|m| (m.visits as f64 / top).powf(exponent))
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 || !total.is_finite() {
        return;
    }
    let mut r = rng.next_f64() * total;
    let mut pick = 0;
    for (i, w) in weights.iter().enumerate() {
        if r < *w {
            pick = i;
            break;
        }
        r -= w;
        pick = i;
    }
    if pick > 0 {
        put_first(&mut result.moves, pick);
        let chosen = result.moves[0].mv;
        result.best = Some(chosen);
        result.pv = vec![chosen];
    }
}

/// Black's chance to win in `pos` after a search of `iterations` playouts with a fresh
/// searcher seeded `seed`, if the search found a move to rate; exact at the end of the game.
fn estimate(
    pos: &Position,
    variant: Variant,
    iterations: u64,
    seed: u64,
    cancel: &CancelHandle,
) -> Option<f32> {
    if variant.is_game_over(pos) {
        return Some(pos.score().black_win());
    }
    let result = Searcher::new(Strategy::default(), seed).search(
        pos,
        variant,
        &SearchLimits::iterations(iterations),
        cancel,
    );
    let rate = result.win_rate()? as f32;
    Some(match pos.side_to_move() {
        crate::Side::Black => rate,
        crate::Side::White => 1.0 - rate,
    })
}

/// The post-game analysis (the app's evaluation graph): black's chance to win in each of the
/// given positions `(ply, position)`, in order, after `iterations` playouts each with its own
/// seed drawn from `seed`, so the same positions and seed give the same estimates. Stops early
/// when cancelled.
pub fn analyse(
    positions: &[(usize, Position)],
    variant: Variant,
    seed: u64,
    iterations: u64,
    cancel: &CancelHandle,
) -> Vec<(usize, f32)> {
    let mut out = Vec::with_capacity(positions.len());
    for &(ply, pos) in positions {
        if cancel.is_cancelled() {
            break;
        }
        let seed = seed ^ (ply as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        if let Some(p) = estimate(&pos, variant, iterations, seed, cancel) {
            out.push((ply, p));
        }
    }
    out
}

/// Checks the clock and the cancel flag every this many iterations: a few hundred
/// microseconds of work between checks, so the time cap is honoured to well under 20 ms.
pub(crate) const CHECK_EVERY: u64 = 64;

/// The win probability of a disc margin `margin` for the side it favours: a logistic with
/// `scale` discs (6 in every search: a 6-disc lead wins 73% of games). The one conversion from
/// margins to win rates, for the MCTS's leaves and priors and `ab`'s root statistics.
#[inline]
pub(crate) fn win_probability(margin: f32, scale: f32) -> f32 {
    1.0 / (1.0 + (-margin / scale.max(0.1)).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn master_thinks_on_its_game_clock_and_the_other_levels_on_their_caps() {
        let start = Position::start();
        let second = SearchLimits::time(Duration::from_secs(1));
        let mut master = Level::Master.searcher(1);
        let fresh = |searcher: &mut Searcher, pos: &Position| {
            searcher
                .managed_limits(pos, &second)
                .and_then(|l| l.time)
                .expect("Master's move is on its game clock")
        };
        // The whole game's budget, shared among the moves that think: more than the nominal
        // second for a move of the opening, never more than two.
        let cap = fresh(&mut master, &start);
        assert!(
            cap > Duration::from_secs(1) && cap <= Duration::from_secs(2),
            "{cap:?}"
        );
        // A move searched is time spent: the next move's share is what the game's 30 moves'
        // budget leaves after it, among the 20 moves left that think, less than the whole.
        let mut master = Level::Master.searcher(1);
        let quick = SearchLimits::time(Duration::from_millis(30));
        let result = master.search(&start, Variant::Othello, &quick, &CancelHandle::default());
        let after = Variant::Othello.play_unchecked(&start, result.best.expect("a move"));
        let reply = Variant::Othello.moves(&after)[0];
        let next = Variant::Othello.play_unchecked(&after, reply);
        let spent = fresh(&mut master, &next);
        let whole = Duration::from_secs_f64(0.75 * 30.0 / 20.0 * game_clock::OVERSHOOT);
        assert!(
            spent < whole && spent > Duration::from_secs(1),
            "{spent:?} after a move, {whole:?} before any"
        );
        // An iteration cap, a level without a share (or with randomness): the caps as given.
        assert!(
            master
                .managed_limits(&start, &SearchLimits::iterations(100))
                .is_none()
        );
        for level in Level::ALL.into_iter().filter(|&l| l != Level::Master) {
            assert!(
                level
                    .searcher(1)
                    .managed_limits(&start, &level.limits())
                    .is_none(),
                "{level:?}"
            );
        }
    }

    #[test]
    fn root_moves_rank_by_class_then_visits_then_mean_then_move() {
        // (class, visits, wins, move)
        let mut children = [
            (1, 10, 4.0, 5u8),
            (1, 10, 6.0, 9),
            (0, 50, 50.0, 1),
            (3, 1, 0.0, 7),
            (1, 10, 6.0, 2),
            (1, 12, 0.0, 3),
        ];
        rank_root_moves(&mut children, |&(class, visits, wins, mv)| RootRank {
            class,
            visits,
            wins,
            mv,
        });
        let order: Vec<u8> = children.iter().map(|c| c.3).collect();
        assert_eq!(order, [7, 3, 2, 9, 5, 1]);
    }

    #[test]
    fn a_chosen_move_goes_first_and_the_rest_keep_their_order() {
        let mut list = [1, 2, 3, 4, 5];
        put_first(&mut list, 3);
        assert_eq!(list, [4, 1, 2, 3, 5]);
        put_first(&mut list, 0);
        assert_eq!(list, [4, 1, 2, 3, 5]);
    }

    #[test]
    fn a_new_result_is_proven_when_its_first_move_is() {
        let stats = |proof| MoveStats {
            mv: Move::Pass,
            visits: 0,
            win_rate: 0.5,
            proof,
            exact_margin: None,
        };
        let of = |moves| SearchResult::new(Some(Move::Pass), moves, Vec::new(), Duration::ZERO);
        assert!(of(vec![stats(Some(Proof::Draw)), stats(None)]).proven);
        assert!(!of(vec![stats(None), stats(Some(Proof::Win))]).proven);
        assert!(!of(Vec::new()).proven);
        let r = of(vec![stats(None)]);
        assert_eq!((r.iterations, r.nodes, r.cancelled), (0, 0, false));
    }

    #[test]
    fn the_default_hands_the_endgame_to_alpha_beta_when_told() {
        let hybrid = MctsConfig {
            ab_empties: 20,
            ..MctsConfig::default()
        };
        let limits = SearchLimits::iterations(3_000);
        // The hybrid's table gets a quarter of the cap: so does the plain `ab` here.
        let quarter = SearchLimits {
            memory: limits.memory / 4,
            ..SearchLimits::iterations(3_000)
        };
        let run = |strategy, config: Option<MctsConfig>, pos: &Position| {
            let mut s = Searcher::new(strategy, 3);
            if let Some(c) = config {
                s = s.with_config(c);
            }
            let limits = if strategy == Strategy::AlphaBeta {
                &quarter
            } else {
                &limits
            };
            let r = s.search(pos, Variant::Othello, limits, &CancelHandle::new());
            (r.best, r.moves, r.iterations, r.memory, r.answered_by)
        };
        let endgame = crate::random_endgame(31, 18);
        assert_eq!(
            run(Strategy::Default, Some(hybrid), &endgame),
            run(Strategy::AlphaBeta, None, &endgame),
            "at 18 empties the move is alpha-beta's"
        );
        let midgame = crate::random_endgame(31, 40);
        assert_eq!(
            run(Strategy::Default, Some(hybrid), &midgame),
            run(Strategy::Default, None, &midgame),
            "at 40 empties the tree's"
        );
        // Without the hand-over the tree answers there: which search did, not figures that
        // differ between any two searches.
        assert_eq!(
            run(Strategy::Default, None, &endgame).4,
            Strategy::Default,
            "no hand-over: the tree's"
        );
        assert_eq!(
            run(Strategy::Default, Some(hybrid), &endgame).4,
            Strategy::AlphaBeta
        );
    }

    #[test]
    fn the_hand_over_waits_for_a_long_enough_clock() {
        let master = Level::Master.searcher(1);
        let late = crate::random_endgame(9, 24);
        let early = crate::random_endgame(9, 40);
        let at = |ms| SearchLimits::time(Duration::from_millis(ms));
        assert!(master.hands_to_alpha_beta(&late, Variant::Othello, &at(1000)));
        assert!(master.hands_to_alpha_beta(&late, Variant::Othello, &at(500)));
        assert!(!master.hands_to_alpha_beta(&late, Variant::Othello, &at(499)));
        assert!(!master.hands_to_alpha_beta(&late, Variant::Othello, &at(150)));
        assert!(!master.hands_to_alpha_beta(&early, Variant::Othello, &at(1000)));
        // An iteration cap alone (deterministic runs) hands over.
        let capped = SearchLimits::iterations(1_000);
        assert!(master.hands_to_alpha_beta(&late, Variant::Othello, &capped));
        let strong = Level::Strong.searcher(1);
        assert!(!strong.hands_to_alpha_beta(&late, Variant::Othello, &at(1000)));
        // With a floor, a short clock still hands over above it, and not at or below it.
        let banded = Level::Master.searcher(1).with_config(MctsConfig {
            ab_short_floor: 20,
            ..Level::Master.config()
        });
        let endgame = crate::random_endgame(9, 20);
        assert!(banded.hands_to_alpha_beta(&late, Variant::Othello, &at(150)));
        assert!(!banded.hands_to_alpha_beta(&endgame, Variant::Othello, &at(150)));
        assert!(!banded.hands_to_alpha_beta(&early, Variant::Othello, &at(150)));
        assert!(banded.hands_to_alpha_beta(&endgame, Variant::Othello, &at(1000)));
    }

    #[test]
    fn an_observed_handle_hears_the_iterations_as_they_are_counted() {
        static HEARD: AtomicU64 = AtomicU64::new(0);
        static CALLS: AtomicU64 = AtomicU64::new(0);
        fn observer(n: u64) {
            HEARD.fetch_max(n, Ordering::Relaxed);
            CALLS.fetch_add(1, Ordering::Relaxed);
        }
        let cancel = CancelHandle::observed(observer);
        let result = Searcher::new(Strategy::Default, 3).search(
            &Position::start(),
            Variant::Othello,
            &SearchLimits::iterations(3_000),
            &cancel,
        );
        assert!(CALLS.load(Ordering::Relaxed) > 1, "told more than once");
        assert!(HEARD.load(Ordering::Relaxed) > 0);
        assert!(HEARD.load(Ordering::Relaxed) <= result.iterations);
        assert_eq!(cancel.iterations(), HEARD.load(Ordering::Relaxed));
    }

    #[test]
    fn only_a_time_capped_search_has_a_time_cap() {
        let capped = SearchLimits::iterations(500);
        assert_eq!(capped.time, None);
        assert_eq!(capped.clock(), SearchLimits::SAFETY_NET);
        let timed = SearchLimits::time(Duration::from_millis(300));
        assert_eq!(timed.time, Some(Duration::from_millis(300)));
        assert_eq!(timed.clock(), Duration::from_millis(300));
        assert_eq!(timed.iterations, None);
        // Every level is timed, even those with an iteration cap too.
        for level in Level::ALL {
            assert_eq!(level.limits().time, Some(level.time()), "{level}");
        }
    }

    #[test]
    fn an_iteration_capped_search_runs_its_iterations() {
        for strategy in [Strategy::Classic, Strategy::Default] {
            let r = Searcher::new(strategy, 3).search(
                &Position::start(),
                Variant::Othello,
                &SearchLimits::iterations(300),
                &CancelHandle::new(),
            );
            assert_eq!(r.iterations, 300, "{strategy:?}");
        }
    }
}
