//! The NBoard protocol (version 2), so Montello plugs into the NBoard GUI and into match
//! harnesses that speak it. Generic over the reader and the writer, so a test can script a
//! whole session.
//!
//! Commands understood: `nboard 2`, `set depth N` (mapped to a [`Level`] by
//! [`level_for_depth`]), `set game <GGF>`, `set time <seconds>` (an extension: a per-move
//! time cap instead of the level's), `set contempt N` (ignored), `move <sq>[/eval/time]`
//! (`PA` for a pass), `go` (answered `=== <move>/<eval>/<time>`), `hint N` (answered with
//! `search` lines, best first, then `status`), `ping N` (stops any thinking, answers
//! `pong N`), `learn` (answers `learned`), `analyze` (answers `analysis <ply> <eval>` from
//! the last position back to the first), and `quit`. Anything else is ignored. While it
//! thinks the engine sends `status` and `nodestats` lines; every line is flushed.
//!
//! Evaluations are in discs for the side to move: the exact margin when an endgame solve
//! found it, otherwise the win rate `p` mapped back to the margin it stands for,
//! `eval_scale · ln(p / (1 - p))` (the search's win rates are `1 / (1 + e^(-margin /
//! eval_scale))`, see [`montello_engine::search::MctsConfig::eval_scale`]), clamped to ±64.

use montello_engine::notation::ggf;
use montello_engine::search::{CancelHandle, Level, SearchLimits, SearchResult, Searcher};
use montello_engine::{Game, Move, Variant};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The name the engine gives the GUI.
pub const NAME: &str = "Montello";

/// How often `nodestats` lines go out while thinking.
const NODESTATS_EVERY: Duration = Duration::from_millis(500);

/// How often the thinking loop looks for a `ping` or `quit` that should stop it.
const POLL: Duration = Duration::from_millis(2);

/// The level an NBoard midgame depth asks for: 1-2 Beginner, 3-4 Novice, 5-6 Casual,
/// 7-10 Intermediate, 11-16 Strong, 17 and deeper Master.
pub fn level_for_depth(depth: u32) -> Level {
    match depth {
        0..=2 => Level::Beginner,
        3..=4 => Level::Novice,
        5..=6 => Level::Casual,
        7..=10 => Level::Intermediate,
        11..=16 => Level::Strong,
        _ => Level::Master,
    }
}

/// An evaluation in discs for the side to move, from a search result whose win rates come
/// from disc margins on the logistic scale `eval_scale` (the searcher's
/// [`montello_engine::search::MctsConfig::eval_scale`]): the exact margin when the search found it,
/// else `eval_scale · ln(p / (1 - p))` of the best move's win rate `p`, clamped to ±64.
pub fn eval_of(result: &SearchResult, eval_scale: f32) -> f64 {
    match result.moves.first() {
        Some(m) => match m.exact_margin {
            Some(margin) => f64::from(margin),
            None => {
                let p = m.win_rate.clamp(1e-9, 1.0 - 1e-9);
                (f64::from(eval_scale) * (p / (1.0 - p)).ln()).clamp(-64.0, 64.0)
            }
        },
        None => 0.0,
    }
}

/// One NBoard session's state: the game, the level, the searcher and its kept tree.
#[derive(Debug)]
pub struct Session {
    game: Game,
    level: Level,
    time: Option<Duration>,
    searcher: Searcher,
    seed: u64,
}

impl Session {
    /// A session at `level`, its search randomness drawn from `seed`.
    pub fn new(level: Level, seed: u64) -> Session {
        Session {
            game: Game::new(Variant::Othello),
            level,
            time: None,
            searcher: level.searcher(seed),
            seed,
        }
    }

    /// The game as the GUI has set it up.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The level in use.
    pub fn level(&self) -> Level {
        self.level
    }

    /// What one search may spend: the level's limits, or `set time`'s cap.
    pub fn limits(&self) -> SearchLimits {
        let mut limits = self.level.limits();
        if let Some(t) = self.time {
            limits.time = Some(t);
            limits.iterations = None;
        }
        limits
    }

    /// Handles one command line, writing any answer to `out`. `stop` says whether a `ping`
    /// or `quit` is waiting, which ends any thinking early. Returns false on `quit`.
    pub fn handle<W: Write>(
        &mut self,
        line: &str,
        out: &mut W,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> io::Result<bool> {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "nboard" => send(out, &format!("set myname {NAME}"))?,
            "quit" => return Ok(false),
            "ping" => send(out, &format!("pong {rest}"))?,
            "learn" => send(out, "learned")?,
            "set" => self.set(rest, out)?,
            "move" => {
                let text = rest.split('/').next().unwrap_or("");
                match text.parse::<Move>() {
                    Ok(mv) => {
                        if let Err(e) = self.game.play(mv) {
                            send(out, &format!("status illegal move {text}: {e}"))?;
                        }
                    }
                    Err(e) => send(out, &format!("status cannot read move {text:?}: {e}"))?,
                }
            }
            "go" => self.go(out, stop)?,
            "hint" => {
                let n = rest.parse::<usize>().unwrap_or(1).max(1);
                self.hint(n, out, stop)?;
            }
            "analyze" => self.analyze(out, stop)?,
            _ => {}
        }
        Ok(true)
    }

    fn set<W: Write>(&mut self, rest: &str, out: &mut W) -> io::Result<()> {
        let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim();
        match what {
            "depth" => {
                if let Ok(depth) = value.parse::<u32>() {
                    self.level = level_for_depth(depth);
                    self.searcher = self.level.searcher(self.seed);
                    send(out, &format!("set myname {NAME}-{}", self.level))?;
                }
            }
            "time" => match value.parse::<f64>() {
                Ok(s) if s.is_finite() && s > 0.0 && s < 1e6 => {
                    self.time = Some(Duration::from_secs_f64(s));
                }
                _ => send(
                    out,
                    &format!("status set time: expected seconds, found {value:?}"),
                )?,
            },
            "game" => match ggf::parse(value) {
                Ok(record) => {
                    self.game = record.game;
                    self.searcher.clear();
                }
                Err(e) => send(out, &format!("status cannot read the game: {e}"))?,
            },
            _ => {}
        }
        Ok(())
    }

    /// Searches the current position, sending `status` and `nodestats` while it thinks.
    fn think<W: Write>(
        &mut self,
        limits: &SearchLimits,
        out: &mut W,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> io::Result<SearchResult> {
        send(out, &format!("status {NAME} is thinking"))?;
        let pos = self.game.position();
        let variant = self.game.variant();
        let cancel = CancelHandle::new();
        let start = Instant::now();
        let searcher = &mut self.searcher;
        // One search on a thread of its own while this one watches for a stop and writes the
        // progress lines: a watcher beside one task, not a pool of work (the arena's and the
        // trainer's pools are rayon's).
        let result = std::thread::scope(|s| -> io::Result<SearchResult> {
            let task = s.spawn(|| searcher.search(&pos, variant, limits, &cancel));
            let mut last = Instant::now();
            let mut written = Ok(());
            while !task.is_finished() {
                std::thread::sleep(POLL);
                if stop() {
                    cancel.cancel();
                }
                if written.is_ok() && last.elapsed() >= NODESTATS_EVERY {
                    last = Instant::now();
                    written = send(
                        out,
                        &format!(
                            "nodestats {} {:.2}",
                            cancel.iterations(),
                            start.elapsed().as_secs_f64()
                        ),
                    );
                    if written.is_err() {
                        cancel.cancel();
                    }
                }
            }
            let result = task
                .join()
                .map_err(|_| io::Error::other("the search panicked"))?;
            written.map(|()| result)
        })?;
        send(
            out,
            &format!(
                "nodestats {} {:.2}",
                result.iterations,
                result.elapsed.as_secs_f64()
            ),
        )?;
        Ok(result)
    }

    fn go<W: Write>(&mut self, out: &mut W, stop: &(dyn Fn() -> bool + Sync)) -> io::Result<()> {
        let moves = self.game.moves();
        if moves.is_empty() {
            return send(out, "status the game is over");
        }
        if moves == [Move::Pass] {
            return send(out, "=== PA");
        }
        let limits = self.limits();
        let result = self.think(&limits, out, stop)?;
        let mv = result
            .best
            .filter(|m| moves.contains(m))
            .unwrap_or(moves[0]);
        send(
            out,
            &format!(
                "=== {mv}/{:.2}/{:.3}",
                eval_of(&result, self.searcher.config().eval_scale),
                result.elapsed.as_secs_f64()
            ),
        )?;
        send(out, &format!("status {NAME} is waiting"))
    }

    fn hint<W: Write>(
        &mut self,
        n: usize,
        out: &mut W,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> io::Result<()> {
        if self.game.moves().is_empty() {
            return send(out, "status");
        }
        let limits = self.limits();
        // A hint shows the search's own ranking, never a weak level's random choice.
        let randomness = self.searcher.randomness();
        self.searcher.set_randomness(0.0);
        let result = self.think(&limits, out, stop);
        self.searcher.set_randomness(randomness);
        let result = result?;
        for m in result.moves.iter().take(n) {
            let single = SearchResult {
                moves: vec![m.clone()],
                ..result.clone()
            };
            let pv: String = if Some(m.mv) == result.best {
                result.pv.iter().map(ToString::to_string).collect()
            } else {
                m.mv.to_string()
            };
            send(
                out,
                &format!(
                    "search {pv} {:.2} 0 {} visits {} win {:.1}%",
                    eval_of(&single, self.searcher.config().eval_scale),
                    if m.proof.is_some() {
                        "100%".to_string()
                    } else {
                        result.pv.len().to_string()
                    },
                    m.visits,
                    100.0 * m.win_rate
                ),
            )?;
        }
        send(out, "status")
    }

    fn analyze<W: Write>(
        &mut self,
        out: &mut W,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> io::Result<()> {
        let end = self.game.ply();
        let mut limits = self.limits();
        limits.time = Some(limits.clock().min(Duration::from_millis(250)));
        for ply in (0..=end).rev() {
            if stop() {
                break;
            }
            let mut game = self.game.clone();
            game.go_to(ply);
            let pos = game.position();
            let variant = game.variant();
            let eval = if game.is_over() {
                let margin = f64::from(pos.score().margin());
                if pos.side_to_move() == montello_engine::Side::Black {
                    margin
                } else {
                    -margin
                }
            } else {
                let cancel = CancelHandle::new();
                let mut searcher =
                    Searcher::new(montello_engine::search::Strategy::Default, self.seed);
                let result = searcher.search(&pos, variant, &limits, &cancel);
                eval_of(&result, searcher.config().eval_scale)
            };
            send(out, &format!("analysis {ply} {eval:.2}"))?;
        }
        send(out, "status")
    }
}

/// Writes one line and flushes it.
fn send<W: Write>(out: &mut W, line: &str) -> io::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()
}

/// Runs an NBoard session: reads commands from `input` until `quit` or the end of input,
/// answers on `output`. A second thread reads ahead so that a `ping` or `quit` stops a
/// search that is thinking; the search itself stays on one thread.
pub fn run<R: BufRead + Send, W: Write>(
    input: R,
    output: &mut W,
    level: Level,
    seed: u64,
) -> io::Result<()> {
    let stops = AtomicU64::new(0);
    let (tx, rx) = mpsc::channel::<String>();
    // A reader thread beside the session, blocked on the input most of the time: not a pool
    // of work, and a rayon worker blocked on stdin would only take a computing thread away.
    std::thread::scope(|s| {
        let stops_seen = &stops;
        s.spawn(move || {
            for line in input.lines() {
                let Ok(line) = line else { break };
                let command = line.split_whitespace().next().unwrap_or("");
                let quit = command == "quit";
                if quit || command == "ping" {
                    stops_seen.fetch_add(1, Ordering::SeqCst);
                }
                if tx.send(line).is_err() || quit {
                    break;
                }
            }
        });
        let mut session = Session::new(level, seed);
        let mut handled = 0u64;
        for line in rx {
            let command = line.split_whitespace().next().unwrap_or("");
            if command == "quit" || command == "ping" {
                handled += 1;
            }
            let stop = || stops.load(Ordering::SeqCst) > handled;
            if !session.handle(&line, output, &stop)? {
                break;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use montello_engine::search::{MctsConfig, MoveStats, Proof};
    use std::time::Duration;

    fn result_with(win_rate: f64, exact_margin: Option<i8>) -> SearchResult {
        let mv = Move::Pass;
        SearchResult {
            best: Some(mv),
            moves: vec![MoveStats {
                mv,
                visits: 10,
                win_rate,
                proof: exact_margin.map(|_| Proof::Win),
                exact_margin,
            }],
            pv: vec![mv],
            iterations: 10,
            nodes: 1,
            memory: 32,
            endgame_nodes: 0,
            proven: exact_margin.is_some(),
            elapsed: Duration::ZERO,
            cancelled: false,
            reused_nodes: 0,
            stopped_early: false,
            answered_by: montello_engine::search::Strategy::Default,
        }
    }

    #[test]
    fn evaluations_are_the_margins_the_win_rates_stand_for() {
        let scale = MctsConfig::default().eval_scale;
        assert_eq!(scale, 6.0);
        // The search maps a margin m to 1 / (1 + e^(-m / scale)): 4 discs come back as 4.
        let p = 1.0 / (1.0 + (-4.0f64 / 6.0).exp());
        let e = eval_of(&result_with(p, None), scale);
        assert!((e - 4.0).abs() < 1e-6, "{e}");
        let e = eval_of(&result_with(1.0 - p, None), scale);
        assert!((e + 4.0).abs() < 1e-6, "{e}");
        assert!(eval_of(&result_with(0.5, None), scale).abs() < 1e-12);
        // Another scale, another margin for the same win rate.
        let e = eval_of(&result_with(p, None), 3.0);
        assert!((e - 2.0).abs() < 1e-6, "{e}");
        // Certain results are clamped to the board.
        assert_eq!(eval_of(&result_with(1.0, None), scale), 64.0);
        assert_eq!(eval_of(&result_with(0.0, None), scale), -64.0);
        // An exact margin is passed through, whatever the win rate says.
        assert_eq!(eval_of(&result_with(1.0, Some(12)), scale), 12.0);
        assert_eq!(eval_of(&result_with(0.0, Some(-3)), scale), -3.0);
        let empty = SearchResult {
            moves: Vec::new(),
            ..result_with(0.9, None)
        };
        assert_eq!(eval_of(&empty, scale), 0.0);
    }
}
