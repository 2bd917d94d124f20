//! The replies: written and read.

use super::words::{Words, cap, err, flag, opt, read_move};
use super::{Reply, WireError};
use crate::Move;
use crate::search::review::{Estimate, MoveValue, Review, Valuation};
use crate::search::{MoveStats, Proof, SearchResult};
use std::fmt::{self, Write};
use std::time::Duration;

pub(super) fn write_result(out: &mut impl Write, r: &SearchResult) -> fmt::Result {
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
        "{} {} {} {} {} {} {} {} {} {} {} {pv}",
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
        r.answered_by.name(),
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

pub(super) fn read_result(mut w: Words<'_>) -> Result<SearchResult, WireError> {
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
    let name = w.next("the search that answered")?;
    let Some(answered_by) = crate::search::Strategy::from_name(name) else {
        return w.fail(format!(
            "the search that answered {name:?} is none of classic, default, ab"
        ));
    };
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
    // Every field from the line, so a literal rather than `SearchResult::new`: a field added
    // to the result fails to compile here until the wire carries it.
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
        answered_by,
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
            Reply::Valued { job, valuation } => {
                write!(f, "valued {job}")?;
                for v in &valuation.moves {
                    let kind = if v.exact { 'e' } else { 's' };
                    write!(f, " {}:{}:{kind}", v.mv, v.value)?;
                }
                if !valuation.line.is_empty() {
                    write!(f, " line")?;
                    for mv in &valuation.line {
                        write!(f, " {mv}")?;
                    }
                }
                Ok(())
            }
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
            "valued" => {
                let job = w.number("job")?;
                let mut values = Vec::new();
                // The best line after the word `line`, if any.
                let mut line = Vec::new();
                let mut line_at = None;
                for (at, word) in w.rest() {
                    if line_at.is_some() {
                        line.push(read_move(at, word)?);
                        continue;
                    }
                    if word == "line" {
                        line_at = Some(at);
                        continue;
                    }
                    let bad = || err(at, format!("{word:?} is not MOVE:VALUE:KIND"));
                    let [mv, value, kind] = word.split(':').collect::<Vec<_>>()[..] else {
                        return bad();
                    };
                    let mv = read_move(at, mv)?;
                    let value: f32 = match value.parse() {
                        Ok(v) if f32::is_finite(v) && f32::abs(v) <= 64.0 => v,
                        _ => {
                            return err(
                                at,
                                format!("value {value:?} is not a disc count within 64"),
                            );
                        }
                    };
                    let exact = match kind {
                        "e" => true,
                        "s" => false,
                        _ => return bad(),
                    };
                    values.push(MoveValue { mv, value, exact });
                }
                if let (Some(at), true) = (line_at, line.is_empty()) {
                    return err(at, "the best line has no move");
                }
                Ok(Reply::Valued {
                    job,
                    valuation: Valuation {
                        moves: values,
                        line,
                    },
                })
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
