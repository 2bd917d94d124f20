//! `montello-engine bench`: the speed of the move generator, the playouts, the evaluation
//! and the tree search on one core, as text or one JSON object.

use clap::Args;

/// `bench`'s arguments.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Seconds to spend on each measurement after the perft (playouts, evaluations, the tree).
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Perft depth for the move-generator measurement.
    #[arg(long, default_value_t = 11)]
    perft_depth: u32,
}

/// `bench`: the speed measurements, as text or one JSON object.
pub fn run(
    BenchArgs {
        json,
        seconds,
        perft_depth,
    }: BenchArgs,
) -> Result<(), String> {
    let b = bench(seconds, perft_depth);
    if json {
        let report = BenchJson::new(&b, perft_depth);
        let text =
            serde_json::to_string(&report).map_err(|e| format!("writing the bench's JSON: {e}"))?;
        println!("{text}");
    } else {
        println!("machine: {}", b.machine);
        println!("move generator: {}", montello_engine::perft::generator());
        println!(
            "perft({perft_depth}): {} leaves in {:.3} s = {:.1} million leaves/s (one core)",
            b.speed.perft_leaves,
            b.speed.perft_time.as_secs_f64(),
            b.speed.perft_leaves as f64 / b.speed.perft_time.as_secs_f64() / 1e6
        );
        println!(
            "random playouts from the start: {} in {:.3} s = {:.0} playouts/s (one core)",
            b.speed.playouts,
            b.speed.playout_time.as_secs_f64(),
            b.speed.playouts as f64 / b.speed.playout_time.as_secs_f64()
        );
        println!(
            "full evaluations: {} in {:.3} s = {:.2} million/s (one core)",
            b.speed.evaluations,
            b.speed.eval_time.as_secs_f64(),
            b.speed.evaluations as f64 / b.speed.eval_time.as_secs_f64() / 1e6
        );
        println!(
            "Master's tree search ({} iterations from each of 8 positions, no alpha-beta): {} in {:.3} s = {:.0} iterations/s (one core)",
            montello_engine::search::TREE_ITERATIONS,
            b.tree_iterations,
            b.tree_time.as_secs_f64(),
            b.tree_iterations as f64 / b.tree_time.as_secs_f64()
        );
    }
    Ok(())
}

/// `bench --json`: one object, rates rounded to whole units a second, times to 0.1 ms.
#[derive(serde::Serialize)]
struct BenchJson<'a> {
    machine: &'a str,
    generator: &'static str,
    perft_depth: u32,
    perft_leaves: u64,
    perft_seconds: f64,
    perft_leaves_per_second: u64,
    playouts: u64,
    playout_seconds: f64,
    playouts_per_second: u64,
    evaluations_per_second: u64,
    tree_iterations_per_second: u64,
}

impl<'a> BenchJson<'a> {
    fn new(b: &'a Bench, perft_depth: u32) -> BenchJson<'a> {
        let s = &b.speed;
        let seconds = |d: std::time::Duration| (d.as_secs_f64() * 1e4).round() / 1e4;
        // A rate of a time too short to measure is 0, not infinite (JSON has no infinity).
        let rate = |n: u64, d: std::time::Duration| {
            let secs = d.as_secs_f64();
            if secs > 0.0 {
                (n as f64 / secs).round() as u64
            } else {
                0
            }
        };
        BenchJson {
            machine: &b.machine,
            generator: montello_engine::perft::generator(),
            perft_depth,
            perft_leaves: s.perft_leaves,
            perft_seconds: seconds(s.perft_time),
            perft_leaves_per_second: rate(s.perft_leaves, s.perft_time),
            playouts: s.playouts,
            playout_seconds: seconds(s.playout_time),
            playouts_per_second: rate(s.playouts, s.playout_time),
            evaluations_per_second: rate(s.evaluations, s.eval_time),
            tree_iterations_per_second: rate(b.tree_iterations, b.tree_time),
        }
    }
}

/// The speed measurement and the machine it ran on.
struct Bench {
    machine: String,
    speed: montello_engine::perft::Speed,
    /// Iterations of Master's tree search and their time (`search::tree_speed`).
    tree_iterations: u64,
    tree_time: std::time::Duration,
}

fn bench(seconds: f64, perft_depth: u32) -> Bench {
    let (tree_iterations, tree_time) = montello_engine::search::tree_speed(seconds);
    Bench {
        machine: machine_name(),
        speed: montello_engine::perft::measure_speed(seconds, perft_depth),
        tree_iterations,
        tree_time,
    }
}

/// The processor's model name and the architecture, as far as the OS tells.
fn machine_name() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| {
                    l.starts_with("model name")
                        || l.starts_with("Hardware")
                        || l.starts_with("Model")
                })
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    format!(
        "{cpu} ({}, {})",
        std::env::consts::ARCH,
        std::env::consts::OS
    )
}
