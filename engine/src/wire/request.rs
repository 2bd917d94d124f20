//! The requests: written, read and run.

use super::words::{
    Words, cap, err, flag, opt, read_move, read_position, read_variant, write_position,
};
use super::{Reply, Request, SearcherSpec, WireError};
use crate::Game;
use crate::search::review::{EstimateConfig, ReviewConfig, ValuesConfig};
use crate::search::{CancelHandle, Level, SearchLimits, Searcher};
use std::fmt;
use std::time::Duration;

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
            Request::Values {
                job,
                variant,
                config,
                position,
            } => {
                write!(
                    f,
                    "values {job} {} {} {} {} ",
                    variant.name(),
                    config.exact_empties,
                    config.depth,
                    config.table_bytes
                )?;
                write_position(f, position)
            }
        }
    }
}

/// How long a review may take before the watchdog takes the worker for hung
/// ([`Request::watch_after`]).
pub const REVIEW_WATCH: Duration = Duration::from_secs(120);
/// The same for an analysis and a position's values.
pub const SLOW_WATCH: Duration = Duration::from_secs(60);
/// The same for the win bar's estimate.
pub const QUICK_WATCH: Duration = Duration::from_secs(20);

impl Request {
    /// How long the engine may take over the request before the page's watchdog takes it
    /// for hung (the watchdog waits this long and 2 seconds more for the reply): the longest a
    /// search may take (twice its time cap, which Master's game clock may give a hard move;
    /// its safety net if it has only an iteration cap); for the others, limits far
    /// past what they take (docs/ai.md: a game's review about 2 s in the browser's worker, a
    /// position's values 0.3 s, its estimate a few milliseconds), which only a worker that
    /// died or hangs reaches.
    pub fn watch_after(&self) -> Duration {
        match self {
            Request::Search { limits, .. } => limits.longest(),
            Request::Review { .. } => REVIEW_WATCH,
            Request::Analyse { .. } | Request::Values { .. } => SLOW_WATCH,
            Request::Estimate { .. } => QUICK_WATCH,
        }
    }

    /// The job's number, repeated in every reply.
    pub fn job(&self) -> u32 {
        match self {
            Request::Search { job, .. }
            | Request::Analyse { job, .. }
            | Request::Review { job, .. }
            | Request::Estimate { job, .. }
            | Request::Values { job, .. } => *job,
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
            "values" => {
                let job = w.number("job")?;
                let variant = read_variant(w.at + 1, w.next("variant")?)?;
                let config = ValuesConfig {
                    exact_empties: w.number("exact empties")?,
                    depth: w.number("depth")?,
                    table_bytes: w.number("table bytes")?,
                };
                let position = read_position(w.at + 1, w.next("position")?)?;
                w.end()?;
                Ok(Request::Values {
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
            Request::Values {
                job,
                variant,
                config,
                position,
            } => {
                match crate::search::review::move_values(&position, variant, &config, Some(cancel))
                {
                    Some(valuation) => Reply::Valued { job, valuation },
                    None => Reply::Failed {
                        job,
                        why: "the valuation was cancelled".into(),
                    },
                }
            }
        }
    }
}
