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
