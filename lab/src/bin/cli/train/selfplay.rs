//! `montello-engine train`: Self-play games, their search values and exact test sets.

use super::*;

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

/// `train selfplay`: plays chunks of self-play games into a directory.
pub(super) fn selfplay(
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

/// `train relabel`: adds the search values to the samples of a directory.
pub(super) fn relabel(
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

/// `train testset`: writes a set of positions solved exactly.
pub(super) fn testset(
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
