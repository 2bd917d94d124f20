//! The messages between the app and a search running elsewhere: in a browser the engine runs
//! in a Web Worker (web/worker), so the page never blocks a frame for it, and the two sides
//! speak in these lines of text (`postMessage` strings, easy to read in the browser's console).
//!
//! One line is one message; its words are separated by single spaces:
//!
//! | message | words |
//! |---|---|
//! | [`Request::Search`] | `search JOB SLOT FRESH SPEC POSITION VARIANT LIMITS` |
//! | [`Request::Analyse`] | `analyse JOB VARIANT SEED ITERATIONS PLY:POSITION…` |
//! | [`Request::Review`] | `review JOB VARIANT EXACT_EMPTIES DEPTH TABLE_BYTES START MOVE…` |
//! | [`Request::Estimate`] | `estimate JOB VARIANT DEPTH EXACT_EMPTIES TABLE_BYTES POSITION` |
//! | [`Reply::Progress`] | `progress JOB ITERATIONS` |
//! | [`Reply::Searched`] | `searched JOB BEST ITERATIONS NODES MEMORY ENDGAME PROVEN NANOS CANCELLED REUSED EARLY PV MOVE…` |
//! | [`Reply::Analysed`] | `analysed JOB PLY:BLACK_WIN…` |
//! | [`Reply::Reviewed`] | `reviewed JOB MOVE_REVIEW…` ([`Review::to_text`]'s words) |
//! | [`Reply::Estimated`] | `estimated JOB BLACK_MARGIN EXACT` (`-` and `0` for no estimate) |
//! | [`Reply::Failed`] | `failed JOB WHY…` (the worker could not run the request: its module did not load, or the engine threw) |
//!
//! A position is `BLACK:WHITE:SIDE` (the discs as hexadecimal bitboards, `b` or `w` to move),
//! a searcher's spec `level:N:SEED` or `plain:SEED` ([`SearcherSpec`]), limits
//! `MICROS:ITERATIONS:BYTES` with `-` for no cap, a root move `MOVE:VISITS:WIN_RATE:PROOF:MARGIN`
//! (`w`/`d`/`l`/`-` and a margin or `-`). Numbers are written so that they read back exactly.
//! [`Request::parse`] and [`Reply::parse`] say which word is wrong and why.

use crate::search::review::{Estimate, EstimateConfig, Review, ReviewConfig};
use crate::search::{
    CancelHandle, Level, MctsConfig, MoveStats, Proof, SearchLimits, SearchResult, Searcher,
    Strategy,
};
use crate::{Bitboard, Game, Move, Position, Side, Variant};
use std::fmt::{self, Write};
use std::time::Duration;

/// How to make a searcher: the one place the app's levels and its hints are turned into
/// searchers, wherever they run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearcherSpec {
    /// A level's searcher ([`Level::searcher`]).
    Level {
        /// The level.
        level: Level,
        /// The seed of its random generator.
        seed: u64,
    },
    /// The default strategy with its default knobs and no early stop: the hint (it ranks the
    /// runners-up too) and the fixed-playouts opponent (exactly its playouts).
    Plain {
        /// The seed of its random generator.
        seed: u64,
    },
}

impl SearcherSpec {
    /// The searcher.
    pub fn build(self) -> Searcher {
        match self {
            SearcherSpec::Level { level, seed } => level.searcher(seed),
            SearcherSpec::Plain { seed } => {
                Searcher::new(Strategy::Default, seed).with_config(self.config())
            }
        }
    }

    /// The default strategy's knobs the searcher will have.
    pub fn config(self) -> MctsConfig {
        match self {
            SearcherSpec::Level { level, .. } => level.config(),
            SearcherSpec::Plain { .. } => MctsConfig {
                early_stop: false,
                ..MctsConfig::default()
            },
        }
    }
}

/// What the app asks of a search elsewhere.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Search a position with the searcher kept in `slot` (made from `spec` if `fresh` or if
    /// the slot is empty) and answer [`Reply::Searched`].
    Search {
        /// The job's number, repeated in every reply.
        job: u32,
        /// Which kept searcher: the app keeps one per AI side and one per side's hints.
        slot: u8,
        /// Make a new searcher even if the slot holds one (a new game, another level).
        fresh: bool,
        /// How to make it.
        spec: SearcherSpec,
        /// The position.
        position: Position,
        /// The rules.
        variant: Variant,
        /// The caps.
        limits: SearchLimits,
    },
    /// Rate positions after the game ([`crate::search::analyse`]) and answer [`Reply::Analysed`].
    Analyse {
        /// The job's number.
        job: u32,
        /// The rules.
        variant: Variant,
        /// The analysis's seed.
        seed: u64,
        /// Playouts per position.
        iterations: u64,
        /// The positions, each with its ply.
        positions: Vec<(usize, Position)>,
    },
    /// Review a game's moves ([`crate::search::review::review`]) and answer [`Reply::Reviewed`];
    /// progress goes out as [`Reply::Progress`] with the moves reviewed so far.
    Review {
        /// The job's number.
        job: u32,
        /// The rules.
        variant: Variant,
        /// How deep and how far exact (no time limit: the same game gives the same review).
        config: ReviewConfig,
        /// The game's start position.
        start: Position,
        /// The moves played from it, passes included.
        moves: Vec<Move>,
    },
    /// Estimate how a position ends ([`crate::search::review::estimate`], for the win bar) and answer
    /// [`Reply::Estimated`].
    Estimate {
        /// The job's number.
        job: u32,
        /// The rules.
        variant: Variant,
        /// How deep and how far exact.
        config: EstimateConfig,
        /// The position.
        position: Position,
    },
}

/// What a search elsewhere answers.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Iterations done so far by the running search (sent every so often).
    Progress {
        /// The job.
        job: u32,
        /// Iterations so far.
        iterations: u64,
    },
    /// The search's result.
    Searched {
        /// The job.
        job: u32,
        /// What it found.
        result: SearchResult,
    },
    /// The analysis's estimates: black's chance to win after each ply.
    Analysed {
        /// The job.
        job: u32,
        /// `(ply, black's chance)`.
        estimates: Vec<(usize, f32)>,
    },
    /// The game's review.
    Reviewed {
        /// The job.
        job: u32,
        /// Every move played, reviewed.
        review: Review,
    },
    /// The position's estimate (none while a free opening's discs are placed).
    Estimated {
        /// The job.
        job: u32,
        /// How the position ends, from Black's side.
        estimate: Option<Estimate>,
    },
    /// The request could not be run (web/worker.js: the engine's module did not load, or the
    /// engine threw or trapped): the page runs it itself.
    Failed {
        /// The job (0 when the request's could not be read).
        job: u32,
        /// Why, in the worker's words.
        why: String,
    },
}

impl Reply {
    /// The job this reply belongs to.
    pub fn job(&self) -> u32 {
        match self {
            Reply::Progress { job, .. }
            | Reply::Searched { job, .. }
            | Reply::Analysed { job, .. }
            | Reply::Reviewed { job, .. }
            | Reply::Estimated { job, .. }
            | Reply::Failed { job, .. } => *job,
        }
    }
}

/// A message that could not be read: which word and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError {
    /// The word's position in the line, from 1.
    pub word: usize,
    /// What was wrong with it.
    pub why: String,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "word {}: {}", self.word, self.why)
    }
}

impl std::error::Error for WireError {}

/// The words of a line, read one by one with the position of each for errors.
struct Words<'a> {
    words: std::str::SplitAsciiWhitespace<'a>,
    at: usize,
}

impl<'a> Words<'a> {
    fn new(line: &'a str) -> Words<'a> {
        Words {
            words: line.split_ascii_whitespace(),
            at: 0,
        }
    }

    fn fail<T>(&self, why: impl Into<String>) -> Result<T, WireError> {
        Err(WireError {
            word: self.at,
            why: why.into(),
        })
    }

    fn next(&mut self, what: &str) -> Result<&'a str, WireError> {
        self.at += 1;
        match self.words.next() {
            Some(w) => Ok(w),
            None => self.fail(format!("missing {what}")),
        }
    }

    fn number<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, WireError> {
        let w = self.next(what)?;
        w.parse()
            .or_else(|_| self.fail(format!("{what} {w:?} is not a number")))
    }

    fn rest(self) -> impl Iterator<Item = (usize, &'a str)> {
        let at = self.at;
        self.words.enumerate().map(move |(i, w)| (at + 1 + i, w))
    }

    fn end(mut self) -> Result<(), WireError> {
        self.at += 1;
        match self.words.next() {
            None => Ok(()),
            Some(w) => self.fail(format!("unexpected {w:?} after the message")),
        }
    }
}

fn err<T>(word: usize, why: impl Into<String>) -> Result<T, WireError> {
    Err(WireError {
        word,
        why: why.into(),
    })
}

fn write_position(out: &mut impl Write, pos: &Position) -> fmt::Result {
    let side = match pos.side_to_move() {
        Side::Black => 'b',
        Side::White => 'w',
    };
    write!(out, "{:x}:{:x}:{side}", pos.black().0, pos.white().0)
}

fn read_position(word: usize, text: &str) -> Result<Position, WireError> {
    let mut parts = text.split(':');
    let (Some(black), Some(white), Some(side), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return err(word, format!("{text:?} is not BLACK:WHITE:SIDE"));
    };
    let bits = |t: &str| {
        u64::from_str_radix(t, 16)
            .or_else(|_| err(word, format!("{t:?} is not a hexadecimal bitboard")))
    };
    let (black, white) = (bits(black)?, bits(white)?);
    if black & white != 0 {
        return err(word, "a square holds both colours");
    }
    let (player, opponent, side) = match side {
        "b" => (black, white, Side::Black),
        "w" => (white, black, Side::White),
        _ => return err(word, format!("side {side:?} is neither b nor w")),
    };
    Ok(Position::from_player_opponent(
        Bitboard(player),
        Bitboard(opponent),
        side,
    ))
}

fn read_variant(word: usize, text: &str) -> Result<Variant, WireError> {
    Variant::from_name(text).map_or_else(|| err(word, format!("no variant {text:?}")), Ok)
}

fn cap<T: std::str::FromStr>(word: usize, text: &str) -> Result<Option<T>, WireError> {
    if text == "-" {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .or_else(|_| err(word, format!("{text:?} is not a number or -")))
}

fn opt<T: fmt::Display>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_string(), |v| v.to_string())
}

fn read_move(word: usize, text: &str) -> Result<Move, WireError> {
    text.parse()
        .or_else(|_| err(word, format!("{text:?} is not a move")))
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Request::Search {
                job,
                slot,
                fresh,
                spec,
                position,
                variant,
                limits,
            } => {
                write!(f, "search {job} {slot} {} ", u8::from(*fresh))?;
                match spec {
                    SearcherSpec::Level { level, seed } => {
                        write!(f, "level:{}:{seed} ", level.number())?;
                    }
                    SearcherSpec::Plain { seed } => write!(f, "plain:{seed} ")?,
                }
                write_position(f, position)?;
                write!(
                    f,
                    " {} {}:{}:{}",
                    variant.name(),
                    opt(limits.time.map(|t| t.as_micros())),
                    opt(limits.iterations),
                    limits.memory
                )
            }
            Request::Analyse {
                job,
                variant,
                seed,
                iterations,
                positions,
            } => {
                write!(f, "analyse {job} {} {seed} {iterations}", variant.name())?;
                for (ply, pos) in positions {
                    write!(f, " {ply}:")?;
                    write_position(f, pos)?;
                }
                Ok(())
            }
            Request::Review {
                job,
                variant,
                config,
                start,
                moves,
            } => {
                write!(
                    f,
                    "review {job} {} {} {} {} ",
                    variant.name(),
                    config.exact_empties,
                    config.depth,
                    config.table_bytes
                )?;
                write_position(f, start)?;
                for mv in moves {
                    write!(f, " {mv}")?;
                }
                Ok(())
            }
            Request::Estimate {
                job,
                variant,
                config,
                position,
            } => {
                write!(
                    f,
                    "estimate {job} {} {} {} {} ",
                    variant.name(),
                    config.depth,
                    config.exact_empties,
                    config.table_bytes
                )?;
                write_position(f, position)
            }
        }
    }
}

impl Request {
    /// The request's time cap, if it has one: a search's (an analysis is capped by playouts
    /// only, a review and an estimate by their depth). The page's watchdog waits this long and
    /// 2 seconds more for the reply.
    pub fn time_cap(&self) -> Option<Duration> {
        match self {
            Request::Search { limits, .. } => limits.time,
            Request::Analyse { .. } | Request::Review { .. } | Request::Estimate { .. } => None,
        }
    }

    /// The job's number, repeated in every reply.
    pub fn job(&self) -> u32 {
        match self {
            Request::Search { job, .. }
            | Request::Analyse { job, .. }
            | Request::Review { job, .. }
            | Request::Estimate { job, .. } => *job,
        }
    }

    /// Reads a line written by `Display`.
    ///
    /// # Errors
    /// Which word is wrong and why.
    pub fn parse(line: &str) -> Result<Request, WireError> {
        let mut w = Words::new(line);
        match w.next("the message's kind")? {
            "search" => {
                let job = w.number("job")?;
                let slot = w.number("slot")?;
                let fresh = flag(&mut w, "fresh")?;
                let spec_text = w.next("searcher")?;
                let spec = match spec_text.split(':').collect::<Vec<_>>()[..] {
                    ["level", n, seed] => {
                        let level = n.parse().ok().and_then(Level::from_number);
                        match (level, seed.parse()) {
                            (Some(level), Ok(seed)) => SearcherSpec::Level { level, seed },
                            _ => return w.fail(format!("{spec_text:?} is not level:N:SEED")),
                        }
                    }
                    ["plain", seed] => match seed.parse() {
                        Ok(seed) => SearcherSpec::Plain { seed },
                        Err(_) => return w.fail(format!("{spec_text:?} is not plain:SEED")),
                    },
                    _ => return w.fail(format!("{spec_text:?} is no searcher")),
                };
                let position = read_position(w.at + 1, w.next("position")?)?;
                let variant = read_variant(w.at + 1, w.next("variant")?)?;
                let limits_text = w.next("limits")?;
                let at = w.at;
                let [time, iterations, memory] = limits_text.split(':').collect::<Vec<_>>()[..]
                else {
                    return w.fail(format!("{limits_text:?} is not MICROS:ITERATIONS:BYTES"));
                };
                let limits = SearchLimits {
                    time: cap::<u64>(at, time)?.map(Duration::from_micros),
                    iterations: cap(at, iterations)?,
                    memory: memory
                        .parse()
                        .or_else(|_| err(at, format!("memory {memory:?} is not a number")))?,
                };
                w.end()?;
                Ok(Request::Search {
                    job,
                    slot,
                    fresh,
                    spec,
                    position,
                    variant,
                    limits,
                })
            }
            "analyse" => {
                let job = w.number("job")?;
                let variant = read_variant(w.at + 1, w.next("variant")?)?;
                let seed = w.number("seed")?;
                let iterations = w.number("iterations")?;
                let mut positions = Vec::new();
                for (at, word) in w.rest() {
                    let Some((ply, pos)) = word.split_once(':') else {
                        return err(at, format!("{word:?} is not PLY:POSITION"));
                    };
                    let ply = ply
                        .parse()
                        .or_else(|_| err(at, format!("ply {ply:?} is not a number")))?;
                    positions.push((ply, read_position(at, pos)?));
                }
                Ok(Request::Analyse {
                    job,
                    variant,
                    seed,
                    iterations,
                    positions,
                })
            }
            "review" => {
                let job = w.number("job")?;
                let variant = read_variant(w.at + 1, w.next("variant")?)?;
                let config = ReviewConfig {
                    exact_empties: w.number("exact empties")?,
                    depth: w.number("depth")?,
                    table_bytes: w.number("table bytes")?,
                    time: None,
                };
                let start = read_position(w.at + 1, w.next("start position")?)?;
                let mut moves = Vec::new();
                for (at, word) in w.rest() {
                    moves.push(read_move(at, word)?);
                }
                Ok(Request::Review {
                    job,
                    variant,
                    config,
                    start,
                    moves,
                })
            }
            "estimate" => {
                let job = w.number("job")?;
                let variant = read_variant(w.at + 1, w.next("variant")?)?;
                let config = EstimateConfig {
                    depth: w.number("depth")?,
                    exact_empties: w.number("exact empties")?,
                    table_bytes: w.number("table bytes")?,
                };
                let position = read_position(w.at + 1, w.next("position")?)?;
                w.end()?;
                Ok(Request::Estimate {
                    job,
                    variant,
                    config,
                    position,
                })
            }
            other => w.fail(format!("{other:?} is no request")),
        }
    }

    /// Runs the request here with the searchers kept in `slots` (grown as needed), reporting
    /// progress through `cancel`'s observer, and returns the reply.
    pub fn run(self, slots: &mut Vec<Option<Searcher>>, cancel: &CancelHandle) -> Reply {
        match self {
            Request::Search {
                job,
                slot,
                fresh,
                spec,
                position,
                variant,
                limits,
            } => {
                let i = usize::from(slot);
                if slots.len() <= i {
                    slots.resize_with(i + 1, || None);
                }
                let searcher = match &mut slots[i] {
                    Some(searcher) if !fresh => searcher,
                    kept => kept.insert(spec.build()),
                };
                let result = searcher.search(&position, variant, &limits, cancel);
                Reply::Searched { job, result }
            }
            Request::Analyse {
                job,
                variant,
                seed,
                iterations,
                positions,
            } => Reply::Analysed {
                job,
                estimates: crate::search::analyse(&positions, variant, seed, iterations, cancel),
            },
            Request::Review {
                job,
                variant,
                config,
                start,
                moves,
            } => {
                let mut game = Game::from_position(start, variant);
                for (i, &mv) in moves.iter().enumerate() {
                    if let Err(e) = game.play(mv) {
                        return Reply::Failed {
                            job,
                            why: format!("move {} ({mv}) is not legal there: {e}", i + 1),
                        };
                    }
                }
                // The review counts the moves done on `cancel`: the worker posts them.
                let review = crate::search::review::review(&game, &config, Some(cancel), |_, _| {});
                match review {
                    Some(review) => Reply::Reviewed { job, review },
                    None => Reply::Failed {
                        job,
                        why: "the review was cancelled".into(),
                    },
                }
            }
            Request::Estimate {
                job,
                variant,
                config,
                position,
            } => Reply::Estimated {
                job,
                estimate: crate::search::review::estimate(&position, variant, &config),
            },
        }
    }
}

fn write_result(out: &mut impl Write, r: &SearchResult) -> fmt::Result {
    let pv = if r.pv.is_empty() {
        "-".to_string()
    } else {
        r.pv.iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    write!(
        out,
        "{} {} {} {} {} {} {} {} {} {} {pv}",
        opt(r.best),
        r.iterations,
        r.nodes,
        r.memory,
        r.endgame_nodes,
        u8::from(r.proven),
        r.elapsed.as_nanos(),
        u8::from(r.cancelled),
        r.reused_nodes,
        u8::from(r.stopped_early),
    )?;
    for m in &r.moves {
        let proof = match m.proof {
            Some(Proof::Win) => "w",
            Some(Proof::Draw) => "d",
            Some(Proof::Loss) => "l",
            None => "-",
        };
        write!(
            out,
            " {}:{}:{}:{proof}:{}",
            m.mv,
            m.visits,
            m.win_rate,
            opt(m.exact_margin)
        )?;
    }
    Ok(())
}

fn flag(w: &mut Words<'_>, what: &str) -> Result<bool, WireError> {
    match w.next(what)? {
        "0" => Ok(false),
        "1" => Ok(true),
        other => w.fail(format!("{what} {other:?} is neither 0 nor 1")),
    }
}

fn read_result(mut w: Words<'_>) -> Result<SearchResult, WireError> {
    let best = match w.next("best move")? {
        "-" => None,
        text => Some(read_move(w.at, text)?),
    };
    let iterations = w.number("iterations")?;
    let nodes = w.number("nodes")?;
    let memory = w.number("memory")?;
    let endgame_nodes = w.number("endgame nodes")?;
    let proven = flag(&mut w, "proven")?;
    let elapsed = Duration::from_nanos(w.number("nanoseconds")?);
    let cancelled = flag(&mut w, "cancelled")?;
    let reused_nodes = w.number("reused nodes")?;
    let stopped_early = flag(&mut w, "stopped early")?;
    let pv = match w.next("principal variation")? {
        "-" => Vec::new(),
        text => text
            .split(',')
            .map(|m| read_move(w.at, m))
            .collect::<Result<_, _>>()?,
    };
    let mut moves = Vec::new();
    for (at, word) in w.rest() {
        let [mv, visits, win_rate, proof, margin] = word.split(':').collect::<Vec<_>>()[..] else {
            return err(
                at,
                format!("{word:?} is not MOVE:VISITS:WIN_RATE:PROOF:MARGIN"),
            );
        };
        let number = |what: &str, t: &str| -> Result<f64, WireError> {
            t.parse()
                .or_else(|_| err(at, format!("{what} {t:?} is not a number")))
        };
        moves.push(MoveStats {
            mv: read_move(at, mv)?,
            visits: number("visits", visits)? as u64,
            win_rate: number("win rate", win_rate)?,
            proof: match proof {
                "w" => Some(Proof::Win),
                "d" => Some(Proof::Draw),
                "l" => Some(Proof::Loss),
                "-" => None,
                _ => return err(at, format!("proof {proof:?} is none of w, d, l, -")),
            },
            exact_margin: cap(at, margin)?,
        });
    }
    Ok(SearchResult {
        best,
        moves,
        pv,
        iterations,
        nodes,
        memory,
        endgame_nodes,
        proven,
        elapsed,
        cancelled,
        reused_nodes,
        stopped_early,
    })
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Progress { job, iterations } => write!(f, "progress {job} {iterations}"),
            Reply::Searched { job, result } => {
                write!(f, "searched {job} ")?;
                write_result(f, result)
            }
            Reply::Analysed { job, estimates } => {
                write!(f, "analysed {job}")?;
                for (ply, p) in estimates {
                    write!(f, " {ply}:{p}")?;
                }
                Ok(())
            }
            Reply::Reviewed { job, review } => {
                write!(f, "reviewed {job}")?;
                if !review.moves.is_empty() {
                    write!(f, " {}", review.to_text())?;
                }
                Ok(())
            }
            Reply::Estimated { job, estimate } => match estimate {
                Some(e) => write!(
                    f,
                    "estimated {job} {} {}",
                    e.black_margin,
                    u8::from(e.exact)
                ),
                None => write!(f, "estimated {job} - 0"),
            },
            Reply::Failed { job, why } => write!(f, "failed {job} {why}"),
        }
    }
}

impl Reply {
    /// Reads a line written by `Display`.
    ///
    /// # Errors
    /// Which word is wrong and why.
    pub fn parse(line: &str) -> Result<Reply, WireError> {
        let mut w = Words::new(line);
        match w.next("the message's kind")? {
            "progress" => {
                let job = w.number("job")?;
                let iterations = w.number("iterations")?;
                w.end()?;
                Ok(Reply::Progress { job, iterations })
            }
            "searched" => {
                let job = w.number("job")?;
                Ok(Reply::Searched {
                    job,
                    result: read_result(w)?,
                })
            }
            "analysed" => {
                let job = w.number("job")?;
                let mut estimates = Vec::new();
                for (at, word) in w.rest() {
                    let parsed = word
                        .split_once(':')
                        .and_then(|(ply, p)| Some((ply.parse().ok()?, p.parse().ok()?)));
                    match parsed {
                        Some(e) => estimates.push(e),
                        None => return err(at, format!("{word:?} is not PLY:CHANCE")),
                    }
                }
                Ok(Reply::Analysed { job, estimates })
            }
            "reviewed" => {
                let job = w.number("job")?;
                let words: Vec<&str> = w.rest().map(|(_, word)| word).collect();
                let review = Review::parse(&words.join(" "))
                    .or_else(|e| err(3, format!("the review: {e}")))?;
                Ok(Reply::Reviewed { job, review })
            }
            "estimated" => {
                let job = w.number("job")?;
                let margin: Option<f32> = cap(w.at + 1, w.next("margin")?)?;
                let exact = flag(&mut w, "exact")?;
                w.end()?;
                let estimate = match margin {
                    Some(m) if m.is_finite() && m.abs() <= 64.0 => Some(Estimate {
                        black_margin: m,
                        exact,
                    }),
                    Some(m) => return err(3, format!("margin {m} is not a disc count within 64")),
                    None => None,
                };
                Ok(Reply::Estimated { job, estimate })
            }
            "failed" => {
                let job = w.number("job")?;
                let why: Vec<&str> = w.rest().map(|(_, word)| word).collect();
                Ok(Reply::Failed {
                    job,
                    why: why.join(" "),
                })
            }
            other => w.fail(format!("{other:?} is no reply")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::transcript;

    fn position_after(moves: &str) -> Position {
        transcript::parse(moves, Variant::Othello)
            .expect("a legal transcript")
            .position()
    }

    #[test]
    fn requests_read_back_as_written() {
        let requests = [
            Request::Search {
                job: 7,
                slot: 3,
                fresh: true,
                spec: SearcherSpec::Level {
                    level: Level::Master,
                    seed: u64::MAX,
                },
                position: position_after("f5d6c3"),
                variant: Variant::FreeOpening,
                limits: SearchLimits::time(Duration::from_micros(1_234_567)),
            },
            Request::Search {
                job: 0,
                slot: 0,
                fresh: false,
                spec: SearcherSpec::Plain { seed: 42 },
                position: Position::start(),
                variant: Variant::Othello,
                limits: SearchLimits::iterations(500),
            },
            Request::Analyse {
                job: 9,
                variant: Variant::NoMoveEndsGame,
                seed: 3,
                iterations: 300,
                positions: vec![(0, Position::start()), (3, position_after("f5d6c3"))],
            },
            Request::Review {
                job: 11,
                variant: Variant::Othello,
                config: ReviewConfig::default(),
                start: position_after("f5"),
                moves: ["d6", "c3", "PA", "d3"]
                    .iter()
                    .map(|m| m.parse().expect("a move"))
                    .collect(),
            },
            Request::Estimate {
                job: 12,
                variant: Variant::NoMoveEndsGame,
                config: EstimateConfig {
                    depth: 3,
                    exact_empties: 9,
                    table_bytes: 1 << 20,
                },
                position: position_after("f5d6"),
            },
        ];
        for request in requests {
            let line = request.to_string();
            assert_eq!(Request::parse(&line), Ok(request), "{line}");
        }
    }

    #[test]
    fn a_real_result_reads_back_exactly() {
        let mut slots = Vec::new();
        let request = Request::Search {
            job: 1,
            slot: 2,
            fresh: false,
            spec: SearcherSpec::Plain { seed: 5 },
            position: position_after("f5d6"),
            variant: Variant::Othello,
            limits: SearchLimits::iterations(400),
        };
        let reply = request.run(&mut slots, &CancelHandle::new());
        let Reply::Searched { result, .. } = &reply else {
            panic!("a search answers with its result: {reply:?}");
        };
        assert!(
            result.best.is_some() && result.moves.len() > 1,
            "{result:?}"
        );
        assert!(slots[2].is_some() && slots[0].is_none(), "kept in its slot");
        let line = reply.to_string();
        assert_eq!(Reply::parse(&line), Ok(reply), "{line}");
        let analysed = Reply::Analysed {
            job: 4,
            estimates: vec![(0, 0.5), (12, 0.123_456_79)],
        };
        assert_eq!(Reply::parse(&analysed.to_string()), Ok(analysed));
        // What web/worker.js writes when the engine could not run a request.
        let failed = Reply::parse("failed 7 RuntimeError: unreachable executed").expect("reads");
        assert_eq!(
            failed,
            Reply::Failed {
                job: 7,
                why: "RuntimeError: unreachable executed".into()
            }
        );
        assert_eq!(
            failed.to_string(),
            "failed 7 RuntimeError: unreachable executed"
        );
    }

    /// A review request runs the engine's review of the game and reads back exactly; its
    /// progress counts the moves reviewed; an illegal move is refused with its number.
    #[test]
    fn a_review_request_answers_with_the_engines_review() {
        static DONE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let moves: Vec<Move> = ["f5", "d6", "c3", "d3", "c4"]
            .iter()
            .map(|m| m.parse().expect("a move"))
            .collect();
        let config = ReviewConfig {
            depth: 4,
            ..ReviewConfig::default()
        };
        let request = Request::Review {
            job: 5,
            variant: Variant::Othello,
            config,
            start: Position::start(),
            moves: moves.clone(),
        };
        let cancel = CancelHandle::observed(|n| {
            DONE.fetch_max(n, std::sync::atomic::Ordering::Relaxed);
        });
        let reply = request.run(&mut Vec::new(), &cancel);
        let game = transcript::parse("f5d6c3d3c4", Variant::Othello).expect("legal");
        let expected =
            crate::search::review::review(&game, &config, None, |_, _| {}).expect("done");
        assert_eq!(
            reply,
            Reply::Reviewed {
                job: 5,
                review: expected
            }
        );
        assert_eq!(DONE.load(std::sync::atomic::Ordering::Relaxed), 5);
        let line = reply.to_string();
        assert!(line.starts_with("reviewed 5 b:f5:"), "{line}");
        assert_eq!(Reply::parse(&line), Ok(reply));
        let empty = Reply::Reviewed {
            job: 1,
            review: Review::default(),
        };
        assert_eq!(Reply::parse(&empty.to_string()), Ok(empty));
        let illegal = Request::Review {
            job: 6,
            variant: Variant::Othello,
            config,
            start: Position::start(),
            moves: vec![moves[0], moves[0]],
        };
        match illegal.run(&mut Vec::new(), &CancelHandle::new()) {
            Reply::Failed { job: 6, why } => assert!(why.contains("move 2"), "{why}"),
            other => panic!("{other:?}"),
        }
        let e = Reply::parse("reviewed 3 b:f5:f5:0:0").expect_err("cut short");
        assert_eq!(e.word, 3, "{e}");
    }

    /// An estimate request answers with the engine's estimate, which reads back exactly;
    /// a free opening's answer is "no estimate", and reads back as such.
    #[test]
    fn an_estimate_request_answers_with_the_engines_estimate() {
        let config = EstimateConfig {
            depth: 4,
            ..EstimateConfig::default()
        };
        let position = position_after("f5d6c3d3c4");
        let request = Request::Estimate {
            job: 8,
            variant: Variant::Othello,
            config,
            position,
        };
        let reply = request.run(&mut Vec::new(), &CancelHandle::new());
        let expected = crate::search::review::estimate(&position, Variant::Othello, &config);
        assert!(expected.is_some());
        assert_eq!(
            reply,
            Reply::Estimated {
                job: 8,
                estimate: expected
            }
        );
        let line = reply.to_string();
        assert!(line.starts_with("estimated 8 "), "{line}");
        assert_eq!(Reply::parse(&line), Ok(reply));
        let free = Request::Estimate {
            job: 9,
            variant: Variant::FreeOpening,
            config,
            position: Position::empty(),
        }
        .run(&mut Vec::new(), &CancelHandle::new());
        assert_eq!(free.to_string(), "estimated 9 - 0");
        assert_eq!(
            Reply::parse("estimated 9 - 0"),
            Ok(Reply::Estimated {
                job: 9,
                estimate: None
            })
        );
    }

    #[test]
    fn a_kept_searcher_goes_on_from_its_tree_and_fresh_starts_anew() {
        let mut slots = Vec::new();
        let search = |fresh, moves: &str| Request::Search {
            job: 1,
            slot: 0,
            fresh,
            spec: SearcherSpec::Level {
                level: Level::Casual,
                seed: 1,
            },
            position: position_after(moves),
            variant: Variant::Othello,
            limits: SearchLimits::iterations(2_000),
        };
        let reused = |reply: Reply| match reply {
            Reply::Searched { result, .. } => result.reused_nodes,
            other => panic!("{other:?}"),
        };
        let first = search(false, "f5").run(&mut slots, &CancelHandle::new());
        let Reply::Searched { result, .. } = &first else {
            panic!("{first:?}");
        };
        let best = result.best.expect("a move").to_string();
        let next = search(false, &format!("f5{best}")).run(&mut slots, &CancelHandle::new());
        assert!(
            reused(next) > 0,
            "the second search starts from the kept subtree"
        );
        let again = search(true, "f5").run(&mut slots, &CancelHandle::new());
        assert_eq!(reused(again), 0, "a fresh searcher has no tree");
    }

    #[test]
    fn bad_lines_say_which_word_and_why() {
        let cases = [
            ("", 1, "missing"),
            ("search x", 2, "job"),
            ("search 1 0 2", 4, "fresh"),
            ("search 1 0 1 level:9:1", 5, "level:N:SEED"),
            ("search 1 0 1 plain:1 zz:0:b", 6, "hexadecimal"),
            ("search 1 0 1 plain:1 3:1:b", 6, "both colours"),
            ("search 1 0 1 plain:1 0:0:b chess", 7, "no variant"),
            ("search 1 0 1 plain:1 0:0:b othello 1:2", 8, "MICROS"),
            (
                "search 1 0 1 plain:1 0:0:b othello -:-:1 x",
                9,
                "unexpected",
            ),
            ("analyse 1 othello 1 1 5", 6, "PLY:POSITION"),
            ("progress 1", 3, "missing"),
            ("searched 1 z9", 3, "not a move"),
            ("analysed 1 3:x", 3, "PLY:CHANCE"),
            ("estimate 1 othello 10 16 1024 0:0:b 5", 8, "unexpected"),
            ("estimated 1 x 0", 3, "not a number"),
            ("estimated 1 65 1", 3, "within 64"),
            ("estimated 1 6 2", 4, "neither 0 nor 1"),
            ("hello", 1, "no re"),
        ];
        for (line, word, why) in cases {
            let e = Request::parse(line)
                .err()
                .into_iter()
                .chain(Reply::parse(line).err())
                .find(|e| e.word == word && e.why.contains(why));
            assert!(
                e.is_some(),
                "{line:?}: expected word {word} ({why}); got {:?} / {:?}",
                Request::parse(line),
                Reply::parse(line)
            );
        }
    }
}
