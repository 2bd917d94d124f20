//! `montello-engine train ...`: the evaluation's training pipeline on the command line (the
//! work is in `montello_engine::eval::train`; this file reads flags and files and prints).

use clap::{Args, Subcommand};
use montello_engine::eval::{self, PHASES, Weights};
use montello_engine::train::{self, Fit, SelfPlay};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

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

/// `wthor`'s arguments.
#[derive(Args, Debug)]
pub struct WthorArgs {
    /// Output directory (chunk files of GAMES games each, numbered in the files' order; those
    /// numbered 19 mod 20 are held out of a fit and measure it).
    #[arg(long)]
    out: PathBuf,
    /// Games per chunk.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Also every position of the game with this many empty squares or fewer, solved
    /// exactly (0: none).
    #[arg(long, default_value_t = 0)]
    exact: u32,
    /// Chunks made at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// WTHOR game files (`WTH_YYYY.wtb`) of 2016 or earlier.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// `heldout`'s arguments.
#[derive(Args, Debug)]
pub struct HeldoutArgs {
    /// Weights: a file, `builtin` or `heuristic`.
    #[arg(long, default_value = "builtin")]
    weights: String,
    /// The search's depth, in plies.
    #[arg(long, default_value_t = 10)]
    depth: u32,
    /// Searches at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// WTHOR game files (`WTH_YYYY.wtb`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// `selfplay`'s arguments.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Weights that play: a file, `builtin` or `heuristic` (generation 0).
    #[arg(long, default_value = "heuristic")]
    weights: String,
    /// Output directory.
    #[arg(long)]
    out: PathBuf,
    /// Chunks to play.
    #[arg(long, default_value_t = 100)]
    chunks: u64,
    /// Games per chunk.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Seed (each chunk's games depend on it and the chunk number only).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Alpha-beta depth of the middle-game moves.
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// Solve exactly from this many empty squares.
    #[arg(long, default_value_t = 14)]
    exact: u32,
    /// Random opening plies, at least.
    #[arg(long, default_value_t = 2)]
    opening_min: u32,
    /// Random opening plies, at most.
    #[arg(long, default_value_t = 24)]
    opening_max: u32,
    /// Leave the player's search values out of the samples (generation 1).
    #[arg(long)]
    no_search_values: bool,
    /// Multi-ProbCut's selectivity in the player's search, in tenths (0: off).
    #[arg(long, default_value_t = 0)]
    probcut: u32,
    /// No samples from the positions before the last random opening move (their
    /// outcome hangs on the random moves).
    #[arg(long)]
    skip_opening: bool,
}

/// `fit`'s arguments.
#[derive(Args, Debug)]
pub struct FitArgs {
    /// Data directories.
    #[arg(long, num_args = 1.., required_unless_present = "sets")]
    data: Vec<PathBuf>,
    /// Exact sets (the format of `train testset`, e.g. positions from played games made by
    /// tools/testset-from-games.py): every position is fitted, none held out.
    #[arg(long, num_args = 1..)]
    sets: Vec<PathBuf>,
    /// Starting weights: a file, `zeros`, `builtin` or `heuristic`.
    #[arg(long, default_value = "zeros")]
    init: String,
    /// Output weights file.
    #[arg(long)]
    out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = Fit::default().epochs)]
    epochs: u32,
    /// First epoch's step size.
    #[arg(long, default_value_t = Fit::default().rate)]
    rate: f32,
    /// Step size decay per epoch.
    #[arg(long, default_value_t = Fit::default().decay)]
    decay: f32,
    /// Seed of the sample order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (the result does not depend on it).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// An exact test set (from `train testset`) to report the error on as well.
    #[arg(long)]
    test: Option<PathBuf>,
    /// How much of a non-exact position's target is its search value rather than the
    /// game's outcome (0..=1).
    #[arg(long, default_value_t = 0.0)]
    search_weight: f32,
    /// A phase also learns from positions up to this many empty squares outside its range.
    #[arg(long, default_value_t = Fit::default().overlap)]
    overlap: u32,
    /// NEAR:FAR: the search value's share grows from none at NEAR empties or fewer (the
    /// outcome alone) to SEARCH_WEIGHT at FAR empties or more.
    #[arg(long, value_parser = parse_ramp)]
    search_ramp: Option<(u32, u32)>,
    /// ITERATIONS:RIDGE: least squares by conjugate gradients instead of stochastic
    /// gradient descent (the epochs, rate, decay and seed are then unused).
    #[arg(long, value_parser = parse_cg)]
    cg: Option<(u32, f32)>,
    /// Write tables interpolated between the phases' middles, all phases fitted together
    /// (needs --cg; --overlap is then unused).
    #[arg(long, requires = "cg")]
    interpolate: bool,
    /// The ridge pulls every weight towards INIT's rather than towards 0, and INIT's bias per
    /// count of empty squares is kept: refines INIT's tables with a few better-labelled
    /// positions (needs --cg; not with --interpolate).
    #[arg(long, requires = "cg", conflicts_with = "interpolate")]
    toward_init: bool,
    /// Fit to the positions with an exact value only (the data's held-out error is still
    /// reported on all of its positions).
    #[arg(long)]
    exact_only: bool,
}

/// `bias`'s arguments.
#[derive(Args, Debug)]
pub struct BiasArgs {
    /// Weights: a file or `builtin`.
    #[arg(long)]
    weights: String,
    /// Data directories.
    #[arg(long, num_args = 1.., required_unless_present = "sets")]
    data: Vec<PathBuf>,
    /// Exact sets (the format of `train testset`, e.g. positions from played games made by
    /// tools/testset-from-games.py): every position is fitted, none held out.
    #[arg(long, num_args = 1..)]
    sets: Vec<PathBuf>,
    /// Output weights file.
    #[arg(long)]
    out: PathBuf,
    /// How much of a non-exact position's target is its search value rather than the
    /// game's outcome (0..=1).
    #[arg(long, default_value_t = 0.0)]
    search_weight: f32,
    /// An exact test set (from `train testset`) to report the error on as well.
    #[arg(long)]
    test: Option<PathBuf>,
    /// Fit to the positions with an exact value only (the bias then changes only at the
    /// counts of empty squares that the data solved exactly).
    #[arg(long)]
    exact_only: bool,
}

/// `match`'s arguments.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Player A's weights.
    #[arg(long)]
    a: String,
    /// Player B's weights.
    #[arg(long)]
    b: String,
    /// Search depth.
    #[arg(long, default_value_t = 3)]
    depth: u32,
    /// Exact play from this many empties.
    #[arg(long, default_value_t = 14)]
    exact: u32,
    /// Games.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the opening order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// `relabel`'s arguments.
#[derive(Args, Debug)]
pub struct RelabelArgs {
    /// Weights that search: a file, `builtin` or `heuristic`.
    #[arg(long)]
    weights: String,
    /// Data directory to read.
    #[arg(long)]
    from: PathBuf,
    /// Data directory to write (chunks already there are kept).
    #[arg(long)]
    to: PathBuf,
    /// Search depth.
    #[arg(long, default_value_t = 3)]
    depth: u32,
    /// Multi-ProbCut's cut threshold in tenths of a standard deviation (0: off).
    #[arg(long, default_value_t = 0)]
    probcut: u32,
    /// Only the first N chunks of FROM (in name order).
    #[arg(long)]
    chunks: Option<usize>,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

/// `testset`'s arguments.
#[derive(Args, Debug)]
pub struct TestsetArgs {
    /// Weights that play the games.
    #[arg(long, default_value = "builtin")]
    weights: String,
    /// Output file.
    #[arg(long)]
    out: PathBuf,
    /// Positions.
    #[arg(long, default_value_t = 200)]
    positions: usize,
    /// Empty squares.
    #[arg(long, default_value_t = 20)]
    empties: u32,
    /// Seed.
    #[arg(long, default_value_t = 20)]
    seed: u64,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Alpha-beta depth of the games' middle-game moves.
    #[arg(long, default_value_t = SelfPlay::default().depth)]
    depth: u32,
    /// Multi-ProbCut's selectivity in that search, in tenths (0: off).
    #[arg(long, default_value_t = 0)]
    probcut: u32,
}

/// `probcut`'s arguments.
#[derive(Args, Debug)]
pub struct ProbcutArgs {
    /// Weights that play the games and search: a file, `builtin` or `heuristic`.
    #[arg(long, default_value = "builtin")]
    weights: String,
    /// Output Rust file.
    #[arg(long)]
    out: PathBuf,
    /// Positions.
    #[arg(long, default_value_t = 2000)]
    positions: usize,
    /// The deepest search fitted.
    #[arg(long, default_value_t = 10)]
    max_depth: u32,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (the result does not depend on it).
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

/// `rescale`'s arguments.
#[derive(Args, Debug)]
pub struct RescaleArgs {
    /// The weights file to read.
    #[arg(long)]
    weights: PathBuf,
    /// The new unit, 1/SCALE disc: 32, 16, 8, 4, 2 or 1.
    #[arg(long)]
    scale: u32,
    /// Where to write it.
    #[arg(long)]
    out: PathBuf,
}

/// `report`'s arguments.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Weights: a file, `builtin` or `heuristic`.
    #[arg(long, default_value = "builtin")]
    weights: String,
    /// Data directories (their held-out chunks are reported).
    #[arg(long, num_args = 0..)]
    data: Vec<PathBuf>,
    /// A test set from `train testset`.
    #[arg(long)]
    test: Option<PathBuf>,
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

/// `train heldout`: the error on the WTHOR files' positions at their perfect-play depth.
fn heldout(
    HeldoutArgs {
        weights,
        depth,
        threads,
        files,
    }: HeldoutArgs,
) -> Result<(), String> {
    let w = weights_named(&weights)?;
    let start = Instant::now();
    let mut positions = Vec::new();
    let (mut games, mut unread) = (0, 0);
    for file in &files {
        let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let parsed = montello_engine::notation::wthor::parse(&bytes)
            .map_err(|e| format!("{}: {e}", file.display()))?;
        for game in parsed.games {
            games += 1;
            match game {
                Ok(game) => positions.extend(train::held_out_position(&game, parsed.depth)),
                Err(_) => unread += 1,
            }
        }
    }
    let (stat, searched) = train::held_out_errors(&w, &positions, depth, threads);
    println!(
        "{} positions from {games} games ({unread} unreadable), weights {weights}:",
        positions.len()
    );
    for (what, e) in [
        ("static evaluation", stat),
        (&*format!("{depth}-ply search"), searched),
    ] {
        println!(
            "  {what}: mean |error| {:.2} discs, rms {:.2}, bias {:+.2}",
            e.mean_abs, e.rms, e.bias
        );
    }
    eprintln!("in {:.0} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// `train wthor`: training chunks from the real games of WTHOR files up to 2016.
fn wthor(
    WthorArgs {
        out,
        games,
        exact,
        threads,
        files,
    }: WthorArgs,
) -> Result<(), String> {
    let start = Instant::now();
    let mut read = Vec::new();
    let (mut unread, mut unlabelled) = (0usize, 0usize);
    for file in &files {
        let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let parsed = montello_engine::notation::wthor::parse(&bytes)
            .map_err(|e| format!("{}: {e}", file.display()))?;
        if parsed.year >= train::FIRST_TEST_YEAR {
            return Err(format!(
                "{}: games of {}, a test year: only games up to {} are trained on (#69)",
                file.display(),
                parsed.year,
                train::FIRST_TEST_YEAR - 1
            ));
        }
        for game in parsed.games {
            match game {
                Ok(game) if train::held_out_position(&game, parsed.depth).is_some() => {
                    read.push((game, parsed.depth));
                }
                Ok(_) => unlabelled += 1,
                Err(_) => unread += 1,
            }
        }
    }
    let positions = train::real_games_to_dir(&read, &out, games, exact, threads)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "{positions} positions written from {} games ({unread} unreadable, {unlabelled} without a position at the perfect-play depth) into {} in {:.0} s",
        read.len(),
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `train probcut`: fits the ProbCut lines and writes them as a Rust table.
fn probcut(
    ProbcutArgs {
        weights,
        out,
        positions,
        max_depth,
        seed,
        threads,
    }: ProbcutArgs,
) -> Result<(), String> {
    if max_depth < train::probcut::MIN_DEPTH {
        return Err(format!(
            "--max-depth must be at least {}",
            train::probcut::MIN_DEPTH
        ));
    }
    let w = weights_named(&weights)?;
    let start = Instant::now();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let values = train::probcut::depth_values(&w, seed, positions, max_depth, threads, &|_| {
        let k = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if k.is_multiple_of(100) {
            eprintln!(
                "probcut: {k} of {positions} positions ({:.0} s)",
                start.elapsed().as_secs_f64()
            );
        }
    });
    let rows = train::probcut::fit(&values, max_depth);
    for (ph, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .map(|r| {
                format!(
                    "{:.2}/{:+.1}/{:.2}",
                    r.a,
                    r.b / eval::SCALE as f32,
                    r.sigma / eval::SCALE as f32
                )
            })
            .collect();
        println!("phase {ph:>2}: {}", cells.join("  "));
    }
    let provenance = format!(
        "montello-engine train probcut --weights {weights} --positions {positions} --max-depth {max_depth} --seed {seed}"
    );
    std::fs::write(&out, train::probcut::to_rust(&rows, max_depth, &provenance))
        .map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "probcut: {} positions searched to depth {max_depth} in {:.0} s; wrote {}",
        values.len(),
        start.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(())
}

/// `train selfplay`: plays chunks of self-play games into a directory.
fn selfplay(
    SelfplayArgs {
        weights,
        out,
        chunks,
        games,
        seed,
        threads,
        depth,
        exact,
        opening_min,
        opening_max,
        no_search_values,
        probcut,
        skip_opening,
    }: SelfplayArgs,
) -> Result<(), String> {
    let w = weights_named(&weights)?;
    let cfg = SelfPlay {
        opening_plies: (opening_min, opening_max.max(opening_min)),
        depth,
        exact_empties: exact,
        record_search: !no_search_values,
        probcut,
        skip_opening,
        ..SelfPlay::default()
    };
    let start = Instant::now();
    println!("selfplay: weights {weights}, {chunks} chunks x {games} games, seed {seed}, {cfg:?}");
    train::self_play_to_dir(&w, &cfg, seed, &out, chunks, games, threads, &|c, n| {
        println!(
            "chunk {c}: {n} positions ({:.0} s)",
            start.elapsed().as_secs_f64()
        );
        let _ = std::io::stdout().flush();
    })
    .map_err(|e| format!("selfplay into {}: {e}", out.display()))?;
    println!("selfplay done in {:.0} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// `train fit`: fits the tables to the data and writes the weights.
fn fit(
    FitArgs {
        data,
        init,
        out,
        epochs,
        rate,
        decay,
        seed,
        threads,
        test,
        search_weight,
        overlap,
        search_ramp,
        cg,
        interpolate,
        toward_init,
        sets,
        exact_only,
    }: FitArgs,
) -> Result<(), String> {
    let start = Instant::now();
    let (fit_set, held) = fit_data(&data, &sets, exact_only)?;
    let method = match cg {
        Some((iterations, ridge)) => {
            format!("conjugate gradients, {iterations} iterations, ridge {ridge}")
        }
        None => format!("epochs {epochs}, rate {rate}, decay {decay}, seed {seed}"),
    };
    let method = if interpolate {
        format!("{method}, interpolated between the phases")
    } else if toward_init {
        format!("{method}, towards the init")
    } else {
        method
    };
    println!(
        "fit: {} positions to fit, {} held out, init {init}, {method}, overlap {overlap}, search weight {search_weight}, ramp {search_ramp:?}",
        fit_set.len(),
        held.len()
    );
    let w0 = weights_named(&init)?;
    let fit = Fit {
        epochs,
        rate,
        decay,
        seed,
        search_weight,
        overlap,
        search_ramp,
        cg,
        interpolate,
        toward_init,
    };
    let w = train::fit_all(&fit_set, &w0, &fit, threads);
    println!("fitted in {:.0} s", start.elapsed().as_secs_f64());
    let target = |s: &train::Sample| fit.target(s);
    print_errors(
        "fit set, against the targets",
        &train::errors(&w, &fit_set, &target),
    );
    print_errors(
        "held out, against the targets",
        &train::errors(&w, &held, &target),
    );
    print_errors(
        "held out, against the outcomes",
        &train::errors(&w, &held, &label),
    );
    if let Some(test) = test {
        print_test_set(&w, &test)?;
    }
    write_weights(&w, &out)
}

/// `train bias`: fits the bias per count of empty squares and writes the weights.
fn bias(
    BiasArgs {
        weights,
        data,
        sets,
        out,
        search_weight,
        test,
        exact_only,
    }: BiasArgs,
) -> Result<(), String> {
    let start = Instant::now();
    let (fit_set, held) = fit_data(&data, &sets, exact_only)?;
    println!(
        "bias: {} positions to fit{}, {} held out, weights {weights}, search weight {search_weight}",
        fit_set.len(),
        if exact_only {
            " (exact values only)"
        } else {
            ""
        },
        held.len()
    );
    let w0 = weights_named(&weights)?;
    let fit = Fit {
        search_weight,
        ..Fit::default()
    };
    let target = |s: &train::Sample| fit.target(s);
    let bias = train::fit_empties_bias(&w0, &fit_set, &target);
    let w = w0.clone().with_empties_bias(bias);
    println!("fitted in {:.0} s", start.elapsed().as_secs_f64());
    let exact_held: Vec<train::Sample> = held.iter().filter(|s| s.exact).copied().collect();
    for (name, w) in [("before", &w0), ("after", &w)] {
        if !held.is_empty() {
            print_errors(
                &format!("held out, against the targets, {name}"),
                &train::errors(w, &held, &target),
            );
            print_errors(
                &format!("held out, exact values only, {name}"),
                &train::errors(w, &exact_held, &label),
            );
        }
        if let Some(test) = &test {
            print_test_set(w, test)?;
        }
    }
    println!("bias per empty squares (discs; the change in brackets):");
    for (e, (&b, &b0)) in bias.iter().zip(w0.empties_bias()).enumerate() {
        if b != 0 || b0 != 0 {
            let disc = |x: i16| f64::from(x) / f64::from(eval::SCALE);
            println!("  {e:>2}: {:+6.2} ({:+.2})", disc(b), disc(b) - disc(b0));
        }
    }
    write_weights(&w, &out)
}

/// `train testset`: writes a set of positions solved exactly.
fn testset(
    TestsetArgs {
        weights,
        out,
        positions,
        empties,
        seed,
        threads,
        depth,
        probcut,
    }: TestsetArgs,
) -> Result<(), String> {
    let w = weights_named(&weights)?;
    let start = Instant::now();
    let player = SelfPlay {
        depth,
        probcut,
        ..SelfPlay::default()
    };
    let set = train::exact_test_set(&w, &player, seed, positions, empties, threads);
    train::write_samples(&out, &set).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "{} positions at {empties} empties solved in {:.0} s -> {}",
        set.len(),
        start.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(())
}

/// `train rescale`: writes the weights at a coarser scale.
fn rescale(
    RescaleArgs {
        weights,
        scale,
        out,
    }: RescaleArgs,
) -> Result<(), String> {
    let w = load_weights(&weights)?;
    let bytes = w.encode_at_scale(scale).map_err(|e| e.to_string())?;
    write_weights_file(&bytes, &out)
}

/// `train report`: prints the error of the weights per phase.
fn report(
    ReportArgs {
        weights,
        data,
        test,
    }: ReportArgs,
) -> Result<(), String> {
    let w = weights_named(&weights)?;
    if !data.is_empty() {
        let (_, held) = train::load_dirs(&data).map_err(|e| format!("reading the data: {e}"))?;
        print_errors(
            "held out, against the outcomes",
            &train::errors(&w, &held, &label),
        );
    }
    if let Some(test) = test {
        print_test_set(&w, &test)?;
    }
    Ok(())
}

/// `train match`: plays two sets of weights against each other.
fn match_weights(
    MatchArgs {
        a,
        b,
        depth,
        exact,
        games,
        threads,
        seed,
    }: MatchArgs,
) -> Result<(), String> {
    let (wa, wb) = (weights_named(&a)?, weights_named(&b)?);
    let openings = montello_engine::arena::shuffled(
        montello_engine::arena::parse_openings(montello_engine::arena::OPENINGS)
            .map_err(|e| e.to_string())?,
        seed,
    );
    let start = Instant::now();
    let r = train::match_weights(&wa, &wb, depth, exact, &openings, games, threads);
    let (elo, lo, hi) = r.elo();
    println!(
        "match: A = {a} vs B = {b}, depth {depth}, exact from {exact}, seed {seed}: {} games, A wins {} draws {} losses {}, score {:.1}%, Elo A-B {elo:+.0} [{lo:+.0}, {hi:+.0}] ({:.0} s)",
        r.games_played(),
        r.wins,
        r.draws,
        r.losses,
        100.0 * r.score(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `train relabel`: adds the search values to the samples of a directory.
fn relabel(
    RelabelArgs {
        weights,
        from,
        to,
        depth,
        probcut,
        chunks,
        threads,
    }: RelabelArgs,
) -> Result<(), String> {
    let w = weights_named(&weights)?;
    let start = Instant::now();
    let cfg = SelfPlay {
        depth,
        probcut,
        ..SelfPlay::default()
    };
    train::relabel_dir(&w, &from, &to, &cfg, chunks, threads, &|p| {
        println!("{} ({:.0} s)", p.display(), start.elapsed().as_secs_f64());
    })
    .map_err(|e| format!("relabel {} -> {}: {e}", from.display(), to.display()))?;
    println!("relabelled in {:.0} s", start.elapsed().as_secs_f64());
    Ok(())
}
