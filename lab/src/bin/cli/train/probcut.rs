//! `montello-engine train`: Multi-ProbCut's statistics, fitted and written as the search's Rust table.

use super::*;

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
    /// Positions with more empty squares are searched only to depth 10, the rest to
    /// MAX_DEPTH (a search without ProbCut costs too much to repeat that deep in the middle
    /// game); the deeper rows of their phases are extrapolated as the search would.
    #[arg(long, default_value_t = 60)]
    deep_empties: u32,
    /// Searches deeper than this cut with ProbCut themselves, at the confidence SELECTIVITY
    /// and the statistics the engine was built with (the deep rows are then bootstrapped
    /// from the table before them).
    #[arg(long, default_value_t = 60)]
    full_width: u32,
    /// ProbCut's confidence in the searches deeper than FULL_WIDTH, in tenths of a standard
    /// deviation.
    #[arg(long, default_value_t = 20)]
    selectivity: u32,
    /// Positions from the real games of these WTHOR files (2016 and earlier, #69) instead of
    /// self-play games of WEIGHTS.
    #[arg(long, num_args = 1..)]
    wthor: Vec<PathBuf>,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (the result does not depend on it).
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

/// `train probcut`: fits the ProbCut lines and writes them as a Rust table.
pub(super) fn probcut(
    ProbcutArgs {
        weights,
        out,
        positions,
        max_depth,
        deep_empties,
        full_width,
        selectivity,
        wthor,
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
    let games = training_games(&wthor)?;
    if !wthor.is_empty() && games.is_empty() {
        return Err("--wthor: no readable game in these files".into());
    }
    let source = if wthor.is_empty() {
        train::probcut::Source::SelfPlay(&w)
    } else {
        train::probcut::Source::Games(&games)
    };
    let depths = train::probcut::Depths {
        max_depth,
        deep_empties,
        full_width,
        selectivity,
    };
    let start = Instant::now();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let values =
        train::probcut::depth_values(&w, source, seed, positions, depths, threads, &|_| {
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
    let mut provenance = format!(
        "montello-engine train probcut --weights {weights} --positions {positions} --max-depth {max_depth} --seed {seed}"
    );
    if deep_empties < 60 {
        provenance += &format!(" --deep-empties {deep_empties}");
    }
    if full_width < max_depth {
        provenance += &format!(" --full-width {full_width} --selectivity {selectivity}");
    }
    if !wthor.is_empty() {
        let names: Vec<String> = wthor
            .iter()
            .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect();
        provenance += &format!(" --wthor {}", names.join(" "));
    }
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
