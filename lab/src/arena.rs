//! The arena: matches between strategies and levels, to measure every change to the AI.
//!
//! Players are written as specs, `strategy[:key=value,...]`:
//! `classic:time=800ms`, `default:level=3`, `default:time=1s,c=0.6,prior=0`. Keys: `time`
//! (`250ms`, `1s`, `1.5s`), `iterations`, `memory` (MiB), `level` (1-6 or a name; sets time,
//! iterations and randomness, and later keys override them), `random` (move-choice
//! randomness), and the default strategy's knobs `c`, `prior`, `solve`, `leaf`, `expand`,
//! `reuse`, `prune` (0 or 1), `playout`, `early`, `leafdepth`, `abempties`, `abmintime` (a duration) and `book`
//! (play from the command line's `--book` file within this many discs of its best, or `off`)
//! (see [`MctsConfig`]). The alpha-beta player `ab` reads
//! `depth` (a fixed depth), `solve` (exact from this many empties), `aspiration` (discs) and
//! `probcut` (Multi-ProbCut's selectivity in standard deviations, 0 off), `pcend` (the same
//! at 30 empty squares or fewer; Master's hand-over reads both) (see [`AlphaBetaConfig`]): `ab:time=1s`, `ab:depth=6`, `ab:solve=20`.
//!
//! Games start from a set of balanced openings, each played twice with the colours swapped,
//! and run in parallel on `threads` threads (a rayon pool of that size, one game a task);
//! each game's searches stay on one thread.

use montello_engine::notation::transcript;
use montello_engine::search::{
    AlphaBetaConfig, CancelHandle, Level, MctsConfig, SearchLimits, Searcher, Strategy,
};
use montello_engine::{Move, Position, Side, Variant};
use rayon::prelude::*;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The arena's built-in openings: balanced lines of a few plies, one transcript a line with
/// its value as a comment (written by `montello-engine openings`, [`generate_openings`]: each
/// valued within two discs of even by a deep alpha-beta search).
pub const OPENINGS: &str = include_str!("../../engine/data/openings.txt");

/// One player of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    /// The spec as written.
    pub label: String,
    /// The algorithm.
    pub strategy: Strategy,
    /// What each move may spend.
    pub limits: SearchLimits,
    /// The default strategy's knobs.
    pub config: MctsConfig,
    /// Move-choice randomness (see [`Searcher::with_randomness`]).
    pub randomness: f32,
    /// The alpha-beta strategy's knobs.
    pub ab: AlphaBetaConfig,
    /// The opening book it plays from with `book=N` (the command line's `--book`).
    pub book: Option<std::sync::Arc<montello_engine::search::Book>>,
}

impl PlayerSpec {
    /// A searcher for one game, seeded.
    pub fn searcher(&self, seed: u64) -> Searcher {
        let s = Searcher::new(self.strategy, seed)
            .with_config(self.config)
            .with_randomness(self.randomness)
            .with_ab_config(self.ab);
        match &self.book {
            Some(book) => s.with_book(book.clone()),
            None => s,
        }
    }
}

/// A spec that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

/// Reads a duration like `250ms`, `1s`, `1.5s` or a bare number of seconds.
pub fn parse_duration(text: &str) -> Option<Duration> {
    let t = text.trim();
    let (number, scale) = if let Some(ms) = t.strip_suffix("ms") {
        (ms, 1e-3)
    } else if let Some(s) = t.strip_suffix('s') {
        (s, 1.0)
    } else {
        (t, 1.0)
    };
    let v: f64 = number.trim().parse().ok()?;
    (v.is_finite() && (0.0..1e6).contains(&v)).then(|| Duration::from_secs_f64(v * scale))
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let err = |m: String| SpecError(format!("player spec {spec:?}: {m}"));
        let (name, rest) = spec.split_once(':').unwrap_or((spec, ""));
        let strategy = Strategy::from_name(name).ok_or_else(|| {
            err(format!(
                "unknown strategy {name:?} (classic, default or ab)"
            ))
        })?;
        let mut p = PlayerSpec {
            label: spec.to_string(),
            strategy,
            limits: SearchLimits::time(Duration::from_secs(1)),
            config: MctsConfig::default(),
            randomness: 0.0,
            ab: AlphaBetaConfig::default(),
            book: None,
        };
        // An iteration cap without a time cap is the only cap: a seeded search then replays
        // exactly however slowly it runs (docs/ai.md). Left at the default second, a slow
        // machine (the arm64 tests under qemu, beside other builds) cut some searches short
        // by the clock, and the same match played differently.
        let (mut timed, mut counted) = (false, false);
        for item in rest.split(',').filter(|s| !s.trim().is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| err(format!("expected key=value, found {item:?}")))?;
            let value = value.trim();
            let number = || -> Result<f64, SpecError> {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| err(format!("{key}: expected a number, found {value:?}")))
            };
            match key.trim() {
                "time" => {
                    p.limits.time = Some(parse_duration(value).ok_or_else(|| {
                        err(format!("time: expected 250ms or 1s, found {value:?}"))
                    })?);
                    timed = true;
                }
                "iterations" | "iters" => {
                    p.limits.iterations = Some(number()? as u64);
                    counted = true;
                }
                "memory" => p.limits.memory = (number()? * 1_048_576.0) as usize,
                "level" => {
                    let level = Level::from_name(value)
                        .ok_or_else(|| err(format!("level: 1-6 or a name, found {value:?}")))?;
                    p.limits = level.limits();
                    p.randomness = level.randomness();
                    p.config = level.config();
                }
                "random" => p.randomness = number()? as f32,
                "c" => p.config.exploration = number()? as f32,
                "prior" => p.config.prior_weight = number()? as f32,
                "solve" => {
                    p.config.solve_empties = number()? as u32;
                    p.ab.solve_empties = p.config.solve_empties;
                }
                "depth" => p.ab.depth = Some((number()? as u32).max(1)),
                "aspiration" => p.ab.aspiration = number()? as u32,
                "probcut" => p.ab.probcut = (number()? * 10.0).round() as u32,
                "pcend" => p.ab.probcut_end = (number()? * 10.0).round() as u32,
                "stop" => p.ab.stop_percent = (number()? * 100.0).round().clamp(1.0, 100.0) as u32,
                "leaf" => p.config.leaf_solve_empties = number()? as u32,
                "expand" => p.config.expand_at = number()? as u32,
                "prune" => p.config.prune = number()? != 0.0,
                "reuse" => p.config.reuse = number()? != 0.0,
                "early" => p.config.early_stop = number()? != 0.0,
                "leafdepth" => p.config.leaf_depth = (number()? as u32).max(1),
                "abempties" => p.config.ab_empties = number()? as u32,
                "abfloor" => p.config.ab_short_floor = number()? as u32,
                "abmintime" => {
                    p.config.ab_min_time = parse_duration(value).ok_or_else(|| {
                        err(format!("abmintime: expected 500ms or 1s, found {value:?}"))
                    })?;
                }
                "playout" => p.config.corner_playouts = number()? != 0.0,
                "eval" => p.config.eval_weight = (number()? as f32).min(1.0),
                "evalprior" => p.config.eval_priors = number()? != 0.0,
                "scale" => p.config.eval_scale = number()? as f32,
                "mm" => p.config.minimax = number()? != 0.0,
                "book" => {
                    p.config.book_margin = if value.eq_ignore_ascii_case("off") {
                        None
                    } else {
                        Some(number()?.min(64.0) as u8)
                    };
                }
                "mmalpha" => p.config.minimax_alpha = (number()? as f32).clamp(0.0, 1.0),
                "share" => p.config.time_share = (number()? as f32).max(0.0),
                other => return Err(err(format!("unknown key {other:?}"))),
            }
        }
        if counted && !timed {
            p.limits.time = None;
        }
        Ok(p)
    }
}

/// Reads openings: one transcript a line, `#` comments and blank lines ignored.
pub fn parse_openings(text: &str) -> Result<Vec<Vec<Move>>, SpecError> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
        .map(|(i, l)| {
            transcript::parse(l, Variant::Othello)
                .map(|g| g.history().to_vec())
                .map_err(|e| SpecError(format!("openings line {}: {e}", i + 1)))
        })
        .collect()
}

/// `openings` in a seeded random order, so a short match still samples the whole set.
pub fn shuffled(mut openings: Vec<Vec<Move>>, seed: u64) -> Vec<Vec<Move>> {
    montello_engine::FastRng::new(seed).shuffle(&mut openings);
    openings
}

/// Every distinct position `plies` moves from the start (first move f5: the other three are
/// its mirror images), as the first transcript that reaches it, in transcript order.
pub fn opening_lines(plies: usize) -> Vec<Vec<Move>> {
    fn walk(
        pos: Position,
        line: &mut Vec<Move>,
        plies: usize,
        seen: &mut std::collections::HashSet<Position>,
        out: &mut Vec<Vec<Move>>,
    ) {
        if line.len() == plies {
            if seen.insert(pos) {
                out.push(line.clone());
            }
            return;
        }
        for mv in Variant::Othello.moves(&pos) {
            line.push(mv);
            walk(
                Variant::Othello.play_unchecked(&pos, mv),
                line,
                plies,
                seen,
                out,
            );
            line.pop();
        }
    }
    let f5 = Move::Play(montello_engine::Square::ALL[37]);
    let mut out = Vec::new();
    let mut line = vec![f5];
    walk(
        Variant::Othello.play_unchecked(&Position::start(), f5),
        &mut line,
        plies,
        &mut Default::default(),
        &mut out,
    );
    out
}

/// Openings for the arena: each distinct `plies`-move line from f5 with the value the
/// alpha-beta search gives it `depth` plies deep (Multi-ProbCut as shipped; a fixed depth and
/// a node cap, so the values replay on any machine), in discs for the side to move, kept when
/// within `max_margin` of even. Judged on `threads` threads, one line a task; the order is the
/// lines' order whatever the thread count.
pub fn generate_openings(
    plies: usize,
    depth: u32,
    max_margin: f64,
    threads: usize,
) -> Vec<(Vec<Move>, f64)> {
    let lines = opening_lines(plies);
    let judge = |line: &Vec<Move>| {
        let pos = line.iter().fold(Position::start(), |p, &m| {
            Variant::Othello.play_unchecked(&p, m)
        });
        opening_value(&pos, depth)
    };
    let values: Vec<f64> = in_pool(threads, || lines.par_iter().map(judge).collect());
    lines
        .into_iter()
        .zip(values)
        .filter(|(_, v)| v.abs() <= max_margin)
        .collect()
}

/// The alpha-beta search's value of `pos`, `depth` plies deep, in discs for the side to move
/// (the win rate it reports turned back into the margin it came from), rounded to a hundredth
/// of a disc: the value the openings file prints is the one compared with the bound, so a line
/// exactly at the bound stays in whatever the logistic's rounding.
pub fn opening_value(pos: &Position, depth: u32) -> f64 {
    let config = AlphaBetaConfig {
        depth: Some(depth),
        ..AlphaBetaConfig::default()
    };
    let limits = SearchLimits {
        memory: 16 << 20,
        ..SearchLimits::iterations(OPENING_NODE_CAP)
    };
    let r = Searcher::new(Strategy::AlphaBeta, 1)
        .with_ab_config(config)
        .search(pos, Variant::Othello, &limits, &CancelHandle::new());
    (montello_engine::search::margin_of_win_rate(r.win_rate().unwrap_or(0.5)) * 100.0).round()
        / 100.0
}

/// A node cap for [`opening_value`], far above what its depths need: there only so that
/// the search is deterministic (a search with a node cap never looks at the clock).
const OPENING_NODE_CAP: u64 = 1 << 40;

/// One player's move times and search figures over a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveTimes {
    /// Every move's wall-clock time, in the order played.
    pub times: Vec<Duration>,
    /// The empty squares of each move's position, beside `times`.
    pub empties: Vec<u32>,
    /// Games the player played.
    pub games: usize,
    /// Total iterations over all moves.
    pub iterations: u64,
    /// Time spent in searches that ran iterations (for iterations per second).
    pub search_time: Duration,
    /// The most tree nodes any search used.
    pub max_nodes: usize,
    /// The most tree memory any search held, in bytes.
    pub max_memory: usize,
}

impl MoveTimes {
    fn merge(&mut self, other: &MoveTimes) {
        self.times.extend_from_slice(&other.times);
        self.empties.extend_from_slice(&other.empties);
        self.games += other.games;
        self.iterations += other.iterations;
        self.search_time += other.search_time;
        self.max_nodes = self.max_nodes.max(other.max_nodes);
        self.max_memory = self.max_memory.max(other.max_memory);
    }

    /// Mean time per move.
    pub fn mean(&self) -> Duration {
        let n = self.times.len().max(1) as u32;
        self.times.iter().sum::<Duration>() / n
    }

    /// Thinking time per game: every move's time over the games played (the searches run on
    /// one thread, so this is also their CPU time per game).
    pub fn per_game(&self) -> Duration {
        self.times.iter().sum::<Duration>() / self.games.max(1) as u32
    }

    /// The moves made with `lo..=hi` empty squares: how many, and their mean time.
    pub fn in_phase(&self, lo: u32, hi: u32) -> (usize, Duration) {
        let (n, total) = self
            .times
            .iter()
            .zip(&self.empties)
            .filter(|&(_, e)| (lo..=hi).contains(e))
            .fold((0usize, Duration::ZERO), |(n, total), (&t, _)| {
                (n + 1, total + t)
            });
        (n, total / n.max(1) as u32)
    }

    /// Longest move.
    pub fn max(&self) -> Duration {
        self.times.iter().copied().max().unwrap_or_default()
    }

    /// The 99th percentile of move times.
    pub fn p99(&self) -> Duration {
        let mut t = self.times.clone();
        t.sort_unstable();
        t.get((t.len() * 99).div_ceil(100).saturating_sub(1))
            .copied()
            .unwrap_or_default()
    }

    /// Iterations per second while searching.
    pub fn iterations_per_second(&self) -> f64 {
        let s = self.search_time.as_secs_f64();
        if s > 0.0 {
            self.iterations as f64 / s
        } else {
            0.0
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Which game of the match.
    pub index: usize,
    /// Whether player A (the `black` spec) had black.
    pub a_is_black: bool,
    /// The moves, opening included.
    pub moves: Vec<Move>,
    /// Black's discs minus white's at the end.
    pub margin: i32,
    /// Player A's score: 1, 0.5 or 0.
    pub a_score: f64,
}

/// A match's outcome from player A's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// A's wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// A's losses.
    pub losses: usize,
    /// A's move times.
    pub a_times: MoveTimes,
    /// B's move times.
    pub b_times: MoveTimes,
    /// Every game, in order.
    pub games: Vec<GameRecord>,
}

impl Report {
    /// Games played.
    pub fn games_played(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    /// A's score, 0..=1.
    pub fn score(&self) -> f64 {
        let n = self.games_played().max(1) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    /// The Elo difference A - B and its 95% interval (low, high), from the score's standard
    /// error over games. Infinite at a score of 0 or 1.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games_played().max(1) as f64;
        let s = self.score();
        let var = self
            .games
            .iter()
            .map(|g| (g.a_score - s).powi(2))
            .sum::<f64>()
            / n;
        let half = 1.96 * (var / n).sqrt();
        (elo_of(s), elo_of(s - half), elo_of(s + half))
    }
}

/// The Elo difference that gives an expected score `s`.
pub fn elo_of(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (elo, lo, hi) = self.elo();
        writeln!(
            f,
            "games {}: A wins {} draws {} losses {}, score {:.1}%",
            self.games_played(),
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.score()
        )?;
        writeln!(f, "Elo A-B {elo:+.0} (95% interval {lo:+.0} to {hi:+.0})")?;
        for (name, t) in [("A", &self.a_times), ("B", &self.b_times)] {
            writeln!(
                f,
                "{name}: {} moves, time per move mean {:.1} ms, p99 {:.1} ms, max {:.1} ms; {:.0} iterations/s; max {} nodes ({:.1} MiB)",
                t.times.len(),
                t.mean().as_secs_f64() * 1e3,
                t.p99().as_secs_f64() * 1e3,
                t.max().as_secs_f64() * 1e3,
                t.iterations_per_second(),
                t.max_nodes,
                t.max_memory as f64 / 1_048_576.0
            )?;
            write!(
                f,
                "{name}: thinking per game {:.1} s; mean by empty squares:",
                t.per_game().as_secs_f64()
            )?;
            for (k, &(lo, hi)) in PHASES.iter().enumerate() {
                let (n, mean) = t.in_phase(lo, hi);
                let sep = if k == 0 { "" } else { "," };
                write!(
                    f,
                    "{sep} {hi}-{lo} {:.1} ms ({n} moves)",
                    mean.as_secs_f64() * 1e3
                )?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// The report's phases, by empty squares (low, high): Master's tree search, its alpha-beta
/// search ([`montello_engine::search::MctsConfig::ab_empties`]) and its exact solve.
const PHASES: [(u32, u32); 3] = [(31, 60), (19, 30), (0, 18)];

/// A match to play.
#[derive(Clone, Debug)]
pub struct Match {
    /// Player A (black in even games).
    pub a: PlayerSpec,
    /// Player B.
    pub b: PlayerSpec,
    /// Games to play (each opening twice, colours swapped).
    pub games: usize,
    /// Openings to start from, used in order and cycled.
    pub openings: Vec<Vec<Move>>,
    /// Games played at once, each on its own thread.
    pub threads: usize,
    /// Seeds the players' searchers (game `i` uses `seed + i`).
    pub seed: u64,
}

/// Plays the match; `progress` sees each game as it finishes (from any worker thread). The
/// report is the same whatever `threads` is: each game depends only on the match and its
/// index, and the games are tallied in index order.
pub fn play(m: &Match, progress: &(dyn Fn(&GameRecord) + Sync)) -> Report {
    let played: Vec<(GameRecord, MoveTimes, MoveTimes)> =
        in_pool(m.threads.clamp(1, m.games.max(1)), || {
            (0..m.games)
                .into_par_iter()
                // One game a task: games take seconds and vary, so a worker that is done
                // takes the next game rather than a half of someone else's range.
                .with_max_len(1)
                .map(|i| {
                    let played = play_game(m, i);
                    progress(&played.0);
                    played
                })
                .collect()
        });
    let mut r = Report::default();
    for (record, a_t, b_t) in played {
        match record.a_score {
            s if s > 0.75 => r.wins += 1,
            s if s > 0.25 => r.draws += 1,
            _ => r.losses += 1,
        }
        r.a_times.merge(&a_t);
        r.b_times.merge(&b_t);
        r.games.push(record);
    }
    r
}

/// Runs `work` in a pool of `threads` workers made for this call (the tools' `--threads N`:
/// N, not rayon's global pool's size), or in the global pool if the OS refuses the threads.
pub(crate) fn in_pool<R: Send>(threads: usize, work: impl FnOnce() -> R + Send) -> R {
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
    {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}

/// Plays game `i` of the match.
fn play_game(m: &Match, i: usize) -> (GameRecord, MoveTimes, MoveTimes) {
    let variant = Variant::Othello;
    let a_is_black = i.is_multiple_of(2);
    let opening: &[Move] = if m.openings.is_empty() {
        &[]
    } else {
        &m.openings[(i / 2) % m.openings.len()]
    };
    let seed = m
        .seed
        .wrapping_add(i as u64)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut a = m.a.searcher(seed);
    let mut b = m.b.searcher(seed ^ 0x5555_5555);
    let (mut a_t, mut b_t) = (MoveTimes::default(), MoveTimes::default());
    let mut pos = variant.start_position();
    let mut moves = Vec::new();
    for &mv in opening {
        match variant.try_play(&pos, mv) {
            Ok(next) => {
                pos = next;
                moves.push(mv);
            }
            Err(_) => break,
        }
    }
    let cancel = CancelHandle::new();
    while !variant.is_game_over(&pos) {
        let a_moves = (pos.side_to_move() == Side::Black) == a_is_black;
        let (searcher, spec, times) = if a_moves {
            (&mut a, &m.a, &mut a_t)
        } else {
            (&mut b, &m.b, &mut b_t)
        };
        let legal = variant.moves(&pos);
        let mv = if legal.len() == 1 && legal[0] == Move::Pass {
            Move::Pass
        } else {
            let t0 = Instant::now();
            let r = searcher.search(&pos, variant, &spec.limits, &cancel);
            let took = t0.elapsed();
            times.times.push(took);
            times.empties.push(pos.empties().count());
            if r.iterations > 0 {
                times.iterations += r.iterations;
                times.search_time += took;
            }
            times.max_nodes = times.max_nodes.max(r.nodes);
            times.max_memory = times.max_memory.max(r.memory);
            r.best.filter(|m| legal.contains(m)).unwrap_or(legal[0])
        };
        pos = variant.play_unchecked(&pos, mv);
        moves.push(mv);
    }
    a_t.games = 1;
    b_t.games = 1;
    let margin = i32::from(pos.score().margin());
    let a_margin = if a_is_black { margin } else { -margin };
    let a_score = match a_margin.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    };
    (
        GameRecord {
            index: i,
            a_is_black,
            moves,
            margin,
            a_score,
        },
        a_t,
        b_t,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_strategies_levels_and_knobs() {
        let p: PlayerSpec = "classic:time=800ms"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.strategy, Strategy::Classic);
        assert_eq!(p.limits.time, Some(Duration::from_millis(800)));
        let p: PlayerSpec = "default:level=3".parse().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.limits, Level::Casual.limits());
        let p: PlayerSpec = "default:time=1.5s,c=0.5,prior=0,iterations=100"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.limits.time, Some(Duration::from_millis(1500)));
        assert_eq!(p.limits.iterations, Some(100));
        assert_eq!(p.config.exploration, 0.5);
        assert_eq!(p.config.prior_weight, 0.0);
        assert!(p.config.early_stop, "on by default");
        // An iteration cap alone is the only cap (no default second): deterministic however
        // slow the machine; with a level's limits too.
        for spec in ["default:iterations=200", "default:level=Master,iters=500"] {
            let p: PlayerSpec = spec.parse().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(p.limits.time, None, "{spec}");
            assert!(p.limits.iterations.is_some(), "{spec}");
        }
        let p: PlayerSpec = "default:level=Master,early=0"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!p.config.early_stop);
        assert_eq!(p.config.solve_empties, Level::Master.config().solve_empties);
        let p: PlayerSpec = "default:early=1,early=0"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!p.config.early_stop);
        let p: PlayerSpec = "default:level=Master,abempties=24,abmintime=0ms,stop=0.7"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.config.ab_empties, 24);
        assert_eq!(p.config.ab_min_time, Duration::ZERO);
        assert_eq!(p.ab.stop_percent, 70);
        assert_eq!(p.searcher(1).ab_config().stop_percent, 70);
        let p: PlayerSpec = "default:level=Master,mmalpha=0"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.config.minimax_alpha, 0.0);
        assert!(p.config.minimax, "the backups stay on");
        let p: PlayerSpec = "default:mm=1,mmalpha=2"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.config.minimax_alpha, 1.0, "a share is at most 1");
        let p: PlayerSpec = "default:level=Master,book=2"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.config.book_margin, Some(2));
        assert!(p.book.is_none(), "the file comes from the command line");
        let p: PlayerSpec = "default:book=1,book=off"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.config.book_margin, None);
        assert!("default:book=soon".parse::<PlayerSpec>().is_err());
        let p: PlayerSpec = "ab:depth=6,solve=12,aspiration=0,probcut=1.1"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.strategy, Strategy::AlphaBeta);
        assert_eq!(p.ab.depth, Some(6));
        assert_eq!(p.ab.solve_empties, 12);
        assert_eq!(p.ab.aspiration, 0);
        assert_eq!(p.ab.probcut, 11);
        let p: PlayerSpec = "default:level=Master,pcend=2"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (p.ab.probcut, p.ab.probcut_end),
            (7, 20),
            "Master's hand-over"
        );
        let p: PlayerSpec = "ab:time=1s".parse().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.limits.time, Some(Duration::from_secs(1)));
        assert_eq!(p.ab, AlphaBetaConfig::default());
        for bad in [
            "alphabeta",
            "ab:depth=deep",
            "default:time=fast",
            "default:level=9",
            "default:x=1",
            "default:c",
            "default:abmintime=soon",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn elo_is_zero_at_even_and_grows_with_the_score() {
        assert_eq!(elo_of(0.5), 0.0);
        assert!((elo_of(0.75) - 190.8).abs() < 0.1);
        assert!(elo_of(1.0).is_infinite());
    }

    #[test]
    fn built_in_openings_are_legal_and_distinct() {
        let o = parse_openings(OPENINGS).unwrap_or_else(|e| panic!("{e}"));
        assert!(o.len() >= 20, "{}", o.len());
        let ends: std::collections::HashSet<Position> = o
            .iter()
            .map(|l| {
                l.iter().fold(Position::start(), |p, &m| {
                    Variant::Othello.play_unchecked(&p, m)
                })
            })
            .collect();
        assert_eq!(ends.len(), o.len());
        assert_eq!(opening_lines(2).len(), 3, "f5 then d6, f6 or f4");
        // Each line carries the value the search gave it, within the bound the header names.
        let bound: f64 = OPENINGS
            .lines()
            .find_map(|l| l.split("--max-margin ").nth(1))
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
            .unwrap_or_else(|| panic!("no --max-margin in the header"));
        let values: Vec<f64> = OPENINGS
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                l.split_once('#')
                    .and_then(|(_, v)| v.trim().parse().ok())
                    .unwrap_or_else(|| panic!("no value: {l:?}"))
            })
            .collect();
        assert_eq!(values.len(), o.len());
        assert!(
            values.iter().all(|v: &f64| v.abs() <= bound),
            "bound {bound}"
        );
    }

    #[test]
    fn a_small_match_counts_every_game() {
        let m = Match {
            a: "default:iterations=200"
                .parse()
                .unwrap_or_else(|e| panic!("{e}")),
            b: "classic:iterations=200"
                .parse()
                .unwrap_or_else(|e| panic!("{e}")),
            games: 4,
            openings: opening_lines(3),
            threads: 2,
            seed: 1,
        };
        let r = play(&m, &|_| {});
        assert_eq!(r.games_played(), 4);
        assert_eq!(r.games.len(), 4);
        for g in &r.games {
            // Every game is played out to the end, with legal moves only.
            let mut pos = Position::start();
            for &mv in &g.moves {
                pos = Variant::Othello
                    .try_play(&pos, mv)
                    .unwrap_or_else(|e| panic!("game {}: {e}", g.index));
            }
            assert!(Variant::Othello.is_game_over(&pos), "game {}", g.index);
            assert_eq!(i32::from(pos.score().margin()), g.margin);
        }
        assert_eq!(r.games[0].a_is_black, !r.games[1].a_is_black);
        assert_eq!(r.games[0].moves[..3], r.games[1].moves[..3]);
        assert!(r.a_times.times.len() > 10 && r.b_times.times.len() > 10);
        // Every move's time is counted once, in its phase, and the games are both players'.
        for t in [&r.a_times, &r.b_times] {
            assert_eq!(t.games, 4);
            assert_eq!(t.empties.len(), t.times.len());
            let by_phase: usize = PHASES.iter().map(|&(lo, hi)| t.in_phase(lo, hi).0).sum();
            assert_eq!(by_phase, t.times.len());
            assert_eq!(t.per_game(), t.times.iter().sum::<Duration>() / 4);
        }
        assert!(r.to_string().contains("thinking per game"));
        // Seeded and iteration-limited: the same match replays exactly, on any number of
        // threads, and the progress hears every game once.
        let heard = std::sync::atomic::AtomicUsize::new(0);
        let one_thread = Match { threads: 1, ..m };
        let again = play(&one_thread, &|_| {
            heard.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
        assert_eq!(r.games, again.games);
        assert_eq!(
            (again.wins, again.draws, again.losses),
            (r.wins, r.draws, r.losses)
        );
        assert_eq!(heard.into_inner(), 4);
    }
}
