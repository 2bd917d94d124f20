//! `montello-engine train ...`: the evaluation's training pipeline on the command line (the
//! work is in `montello_lab::train`; these files read flags and files and print): the
//! subcommands and the helpers they share here, beside them one file a concern: real games,
//! self-play, fitting, matches and Multi-ProbCut.

use clap::{Args, Subcommand};
use montello_engine::eval::{self, PHASES, Weights};
use montello_lab::train::{self, Fit, SelfPlay};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

mod fit;
mod matches;
mod probcut;
mod real_games;
mod selfplay;

use fit::*;
use matches::*;
use probcut::*;
use real_games::*;
use selfplay::*;

#[derive(Subcommand, Debug)]
pub enum TrainCommand {
    /// Play self-play games with WEIGHTS into DIR (chunk files; chunks already there are
    /// kept, so an interrupted run resumes).
    Selfplay(SelfplayArgs),
    /// Fit the tables to every chunk in DATA (chunks numbered 19 mod 20 held out), starting
    /// from INIT, and write OUT; prints the error per phase.
    Fit(FitArgs),
    /// Add to WEIGHTS' tables the bias per count of empty squares that fits the chunks in
    /// DATA (chunks numbered 19 mod 20 held out) and the exact sets in SETS best, and write
    /// OUT; prints the error per phase before and after, and the bias.
    Bias(BiasArgs),
    /// Play A's weights against B's with a fixed-depth alpha-beta player from the arena's
    /// balanced openings, colours swapped, perfect play from EXACT empties.
    Match(MatchArgs),
    /// Add WEIGHTS' DEPTH-ply search value to every non-exact sample of FROM, into TO.
    Relabel(RelabelArgs),
    /// Make a test set: N positions with EMPTIES empty squares from self-play games with
    /// WEIGHTS, each solved exactly.
    Testset(TestsetArgs),
    /// Fit Multi-ProbCut's statistics: N positions from varied games, each searched at every
    /// depth up to MAX_DEPTH, a line from the shallow search's value to the deep one per
    /// phase and depth; writes the Rust table OUT (engine/src/search/alphabeta/probcut_table.rs).
    Probcut(ProbcutArgs),
    /// Write WEIGHTS with every weight rounded to 1/SCALE disc (a divisor of 64): a smaller
    /// file, and much smaller compressed (the browser's engine carries the shipped one).
    Rescale(RescaleArgs),
    /// Print the error of WEIGHTS on held-out real games: every WTHOR file's positions at
    /// the file's perfect-play depth (24 empty squares), against the file's perfect-play
    /// score, by the static evaluation and by a DEPTH-ply search (#69: the 2017 and 2018
    /// files are never trained on).
    Heldout(HeldoutArgs),
    /// Print the error of WEIGHTS per phase on data directories and/or a test set.
    Report(ReportArgs),
    /// Write training chunks into OUT from real games: every position of every game in the
    /// WTHOR files down to the file's perfect-play depth (24 empty squares), labelled with
    /// the game's perfect-play score there, and those with EXACT empty squares or fewer solved
    /// (#69). Files of 2017 and later are refused: they are the test sets.
    Wthor(WthorArgs),
}

/// The positions to fit and those held out: the data directories' (chunks numbered 19 mod 20
/// held out; with `exact_only` only the positions with an exact value fitted), then every
/// position of the exact sets.
fn fit_data(
    data: &[PathBuf],
    sets: &[PathBuf],
    exact_only: bool,
) -> Result<(Vec<train::Sample>, Vec<train::Sample>), String> {
    let (mut fit_set, held) = if data.is_empty() {
        (Vec::new(), Vec::new())
    } else {
        train::load_dirs(data).map_err(|e| format!("reading the data: {e}"))?
    };
    if exact_only {
        fit_set.retain(|s| s.exact);
    }
    fit_set.extend(read_exact_sets(sets)?);
    Ok((fit_set, held))
}

/// The positions of exact sets (`train testset`, tools/testset-from-games.py); a set with a
/// position that has no exact value is refused, named.
fn read_exact_sets(sets: &[PathBuf]) -> Result<Vec<train::Sample>, String> {
    let mut all = Vec::new();
    for set in sets {
        let samples = train::read_samples(set).map_err(|e| format!("{}: {e}", set.display()))?;
        if let Some(s) = samples.iter().find(|s| !s.exact) {
            return Err(format!(
                "{}: position at {} empties has no exact value (not a set from `train testset` or tools/testset-from-games.py)",
                set.display(),
                s.empties()
            ));
        }
        all.extend(samples);
    }
    Ok(all)
}

/// Reads a weights file, saying which file and why when it is refused.
pub fn load_weights(path: &Path) -> Result<Weights, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Weights::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `w` to `out` atomically (a temporary file renamed over it) and says so.
fn write_weights(w: &Weights, out: &Path) -> Result<(), String> {
    write_weights_file(&w.encode(), out)
}

/// Writes a weights file's bytes to `out` atomically and says so.
fn write_weights_file(bytes: &[u8], out: &Path) -> Result<(), String> {
    let tmp = out.with_extension("tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, out))
        .map_err(|e| format!("writing {}: {e}", out.display()))?;
    println!("wrote {} ({} bytes)", out.display(), bytes.len());
    Ok(())
}

fn weights_named(name: &str) -> Result<Weights, String> {
    match name {
        "zeros" => Ok(Weights::zeros()),
        "builtin" => Ok(eval::builtin().clone()),
        "heuristic" => Ok(eval::heuristic()),
        path => load_weights(Path::new(path)),
    }
}

/// `A:B`, two numbers (`form` names them for the error, with an example).
fn parse_pair<A, B>(s: &str, form: &str) -> Result<(A, B), String>
where
    A: std::str::FromStr<Err: std::fmt::Display>,
    B: std::str::FromStr<Err: std::fmt::Display>,
{
    let (a, b) = s
        .split_once(':')
        .ok_or_else(|| format!("{s:?}: expected {form}"))?;
    let a = a
        .trim()
        .parse::<A>()
        .map_err(|e| format!("{a:?} in {s:?}: {e}"))?;
    let b = b
        .trim()
        .parse::<B>()
        .map_err(|e| format!("{b:?} in {s:?}: {e}"))?;
    Ok((a, b))
}

/// `ITERATIONS:RIDGE`, the ridge a finite number at least 0.
fn parse_cg(s: &str) -> Result<(u32, f32), String> {
    let (iterations, ridge) = parse_pair::<u32, f32>(s, "ITERATIONS:RIDGE, e.g. 60:3")?;
    if !(ridge >= 0.0 && ridge.is_finite()) {
        return Err(format!("{s:?}: RIDGE must be a number at least 0"));
    }
    Ok((iterations, ridge))
}

/// `NEAR:FAR`, two empty-square counts with NEAR below FAR.
fn parse_ramp(s: &str) -> Result<(u32, u32), String> {
    let (near, far) = parse_pair::<u32, u32>(s, "NEAR:FAR, e.g. 18:30")?;
    if near >= far || far > 60 {
        return Err(format!("{s:?}: NEAR must be below FAR, FAR at most 60"));
    }
    Ok((near, far))
}

fn label(s: &train::Sample) -> f32 {
    f32::from(s.label)
}

/// Prints the error of `w` on a test set made by `train testset`.
fn print_test_set(w: &Weights, path: &Path) -> Result<(), String> {
    let t = train::read_samples(path).map_err(|e| format!("{}: {e}", path.display()))?;
    print_errors("exact test set", &train::errors(w, &t, &label));
    Ok(())
}

fn print_errors(label: &str, errors: &[train::PhaseError; PHASES]) {
    let total: usize = errors.iter().map(|e| e.n).sum();
    let mae: f64 = errors.iter().map(|e| e.mae * e.n as f64).sum::<f64>() / total.max(1) as f64;
    let mean: f64 = errors.iter().map(|e| e.mean * e.n as f64).sum::<f64>() / total.max(1) as f64;
    println!(
        "{label}: {total} positions, mean absolute error {mae:.2} discs, mean error {mean:+.2}"
    );
    for (ph, e) in errors.iter().enumerate() {
        if e.n > 0 {
            let lo = ph * 5 + 1;
            println!(
                "  phase {ph:>2} ({lo:>2}-{:>2} empties): {:>9} positions, MAE {:5.2}, mean {:+5.2}",
                lo + 4,
                e.n,
                e.mae,
                e.mean
            );
        }
    }
}

pub fn run(cmd: TrainCommand) -> Result<(), String> {
    match cmd {
        TrainCommand::Probcut(args) => probcut(args),
        TrainCommand::Selfplay(args) => selfplay(args),
        TrainCommand::Fit(args) => fit(args),
        TrainCommand::Bias(args) => bias(args),
        TrainCommand::Testset(args) => testset(args),
        TrainCommand::Rescale(args) => rescale(args),
        TrainCommand::Report(args) => report(args),
        TrainCommand::Heldout(args) => heldout(args),
        TrainCommand::Wthor(args) => wthor(args),
        TrainCommand::Match(args) => match_weights(args),
        TrainCommand::Relabel(args) => relabel(args),
    }
}
