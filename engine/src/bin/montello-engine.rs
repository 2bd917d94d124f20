//! `montello-engine`: the engine's command-line tool (perft, bench, show, and the AI's arena
//! and NBoard protocol).

use clap::{Parser, Subcommand};
use montello_engine::notation::{board_string, parse_any, transcript};
use montello_engine::perft::{divide, perft};
use montello_engine::{Position, Variant};
use std::process::ExitCode;

#[path = "cli/book.rs"]
mod book_cmd;
#[path = "cli/review.rs"]
mod review_cmd;
#[path = "cli/solve.rs"]
mod solve_cmd;
#[path = "cli/train.rs"]
mod train_cmd;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(
    name = "montello-engine",
    version,
    about = "Montello's Othello engine: perft, benchmarks, positions, AI matches"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the game tree to DEPTH plies (a pass counts as a ply; a finished
    /// game counts once as a leaf) and print the count and the speed.
    Perft {
        /// Plies to search.
        depth: u32,
        /// Start from this board string (64 squares X/O/- then the side to move) instead of the
        /// standard start.
        #[arg(long)]
        position: Option<String>,
        /// Print the count below each first move.
        #[arg(long)]
        divide: bool,
        /// Run the portable move generator even where the CPU has a faster one.
        #[arg(long, conflicts_with = "divide")]
        portable: bool,
    },
    /// Measure, on one core: perft leaves per second and random playouts per second from the
    /// start position, full evaluations per second, and Master's tree search in iterations
    /// per second.
    Bench {
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Seconds to spend on each measurement after the perft (playouts, evaluations, the tree).
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Perft depth for the move-generator measurement.
        #[arg(long, default_value_t = 11)]
        perft_depth: u32,
    },
    /// Show a position: a diagram, the side to move, the legal moves and the score. Accepts a
    /// transcript (f5d6c3...), a GGF record or a board string.
    Show {
        /// The transcript, GGF record or board string.
        game: String,
        /// Rules: othello, no-move-ends-game or free-opening.
        #[arg(long, default_value = "othello")]
        variant: String,
    },
    /// Play a match between two AI players (specs like `classic:time=800ms`,
    /// `default:level=3`, `default:time=100ms,c=0.6`) from balanced openings, colours
    /// alternating, and print wins/draws/losses, score, Elo with its 95% interval and time
    /// per move.
    Arena {
        /// Player A's spec (black in the first game of each pair).
        #[arg(long)]
        black: String,
        /// Player B's spec.
        #[arg(long)]
        white: String,
        /// Games to play (each opening twice, colours swapped).
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// A file of openings, one transcript a line (default: the built-in balanced set).
        #[arg(long)]
        openings: Option<std::path::PathBuf>,
        /// Games played at once (each search stays on one thread).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed for the opening order and the players' searches.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print every game's moves and result.
        #[arg(long)]
        verbose: bool,
        /// Evaluation weights for both players instead of the shipped ones (a trainer's file).
        #[arg(long)]
        weights: Option<std::path::PathBuf>,
        /// An opening book (`montello-engine book build`) for the players whose spec sets
        /// `book=N`.
        #[arg(long)]
        book: Option<std::path::PathBuf>,
    },
    /// Write the arena's balanced openings: every distinct line of PLIES moves from f5 that
    /// the alpha-beta search, DEPTH plies deep (Multi-ProbCut as shipped; deterministic),
    /// values within MAX_MARGIN discs of even, one transcript a line with its value as a
    /// comment (engine/data/openings.txt is this command's output).
    Openings {
        /// Moves in each line, f5 first.
        #[arg(long, default_value_t = 6)]
        plies: usize,
        /// The alpha-beta search's depth.
        #[arg(long, default_value_t = 24)]
        depth: u32,
        /// Keep the lines valued within this many discs of even.
        #[arg(long, default_value_t = 2.0)]
        max_margin: f64,
        /// Lines judged at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Evaluate a position with the learned pattern evaluation: the expected final disc
    /// margin for the side to move. Accepts a transcript, a GGF record or a board string.
    Eval {
        /// The transcript, GGF record or board string.
        game: String,
        /// Rules: othello, no-move-ends-game or free-opening.
        #[arg(long, default_value = "othello")]
        variant: String,
        /// A weights file instead of the shipped weights.
        #[arg(long)]
        weights: Option<std::path::PathBuf>,
        /// Also print each feature group's share.
        #[arg(long)]
        explain: bool,
    },
    /// Solve each position of an OBF file exactly (the FFO endgame suites are in
    /// engine/tests/data) on one core: the best move, the final margin, nodes, time and
    /// nodes/s, then the totals. Fails if a score disagrees with the file's.
    Solve {
        /// The OBF file: a board string and the side to move a line, then `move:score;`.
        file: std::path::PathBuf,
        /// Number the positions from N (the suite's numbering, e.g. 40 for FFO #40-#59)
        /// instead of by line.
        #[arg(long)]
        first: Option<usize>,
        /// Transposition-table size in MiB.
        #[arg(long, default_value_t = 64)]
        table_mib: usize,
        /// Give up on a position after this many seconds (reported, and left out of the
        /// totals).
        #[arg(long)]
        max_seconds: Option<f64>,
    },
    /// Review a game: one line a move played (passes left out), `PLY b|w MOVE best MOVE loss
    /// DISCS exact|search`, the loss in discs for the side that moved (an integer when exact),
    /// then one line a player with the average loss and the count per class (docs/ai.md).
    /// Exact from EXACT_EMPTIES empty squares to the end, a DEPTH-ply search before that.
    Review {
        /// The game: a transcript (f5d6c3..., passes implied) or a GGF record.
        game: String,
        /// Rules: othello, no-move-ends-game or free-opening.
        #[arg(long, default_value = "othello")]
        variant: String,
        /// Seconds the review may take: a solve still running then gives up, and that move and
        /// every earlier one are valued by the search.
        #[arg(long)]
        time: Option<f64>,
        /// The search's depth, plies, before the solver's reach.
        #[arg(long, default_value_t = 12)]
        depth: u32,
        /// Solve exactly from this many empty squares to the end.
        #[arg(long, default_value_t = 20)]
        exact_empties: u32,
    },
    /// Build the opening book, or show its moves in a position.
    #[command(subcommand)]
    Book(book_cmd::BookCommand),
    /// Train the pattern evaluation (docs/eval.md gives the command for each generation).
    #[command(subcommand)]
    Train(train_cmd::TrainCommand),
    /// Speak the NBoard protocol (version 2) on stdin/stdout, for the NBoard GUI and match
    /// harnesses. `set depth N` picks a level; `set time <seconds>` caps each move.
    Nboard {
        /// The level until the GUI sends `set depth` (1-6 or a name).
        #[arg(long, default_value = "Strong")]
        level: String,
        /// Seed for the search's randomness.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Evaluation weights instead of the shipped ones (a trainer's file), to match two
        /// generations against each other with one binary.
        #[arg(long)]
        weights: Option<std::path::PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("montello-engine: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Perft {
            depth,
            position,
            divide: split,
            portable,
        } => {
            let pos = match position {
                Some(text) => board_string::parse(&text).map_err(|e| e.to_string())?,
                None => Position::start(),
            };
            let start = Instant::now();
            let total = if split {
                let mut total = 0;
                for (mv, n) in divide(&pos, depth) {
                    println!("{mv} {n}");
                    total += n;
                }
                total
            } else if portable {
                montello_engine::perft::perft_portable(&pos, depth)
            } else {
                perft(&pos, depth)
            };
            let secs = start.elapsed().as_secs_f64();
            let generator = if portable {
                "portable"
            } else {
                montello_engine::perft::generator()
            };
            println!("perft({depth}) = {total} ({generator} move generator)");
            println!(
                "time {secs:.3} s, {:.1} million leaves/s",
                total as f64 / secs.max(1e-9) / 1e6
            );
            Ok(())
        }
        Command::Bench {
            json,
            seconds,
            perft_depth,
        } => {
            let b = bench(seconds, perft_depth);
            if json {
                let report = BenchJson::new(&b, perft_depth);
                let text = serde_json::to_string(&report)
                    .map_err(|e| format!("writing the bench's JSON: {e}"))?;
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
        Command::Show { game, variant } => {
            let game = parse_game(&game, &variant)?;
            let pos = game.position();
            print!("{}", board_string::diagram(&pos, game.variant()));
            println!("board: {}", board_string::to_board_string(&pos));
            if !game.history().is_empty() {
                println!(
                    "moves: {} ({} plies)",
                    transcript::to_transcript(game.history()),
                    game.ply()
                );
            }
            if let Some(result) = game.result() {
                println!("game over: {result} (WOF score {})", result.wof());
            } else if game.must_pass() {
                println!("legal moves: none, {} must pass", pos.side_to_move());
            } else {
                let moves: Vec<String> = game
                    .legal_moves()
                    .squares()
                    .map(|s| s.to_string())
                    .collect();
                println!("legal moves: {}", moves.join(" "));
            }
            Ok(())
        }
        Command::Openings {
            plies,
            depth,
            max_margin,
            threads,
        } => {
            if !(1..=10).contains(&plies) {
                return Err(format!("--plies {plies}: expected 1 to 10"));
            }
            let start = Instant::now();
            let lines =
                montello_engine::arena::generate_openings(plies, depth, max_margin, threads);
            println!(
                "# Balanced openings for the arena: every distinct {plies}-ply line from f5 that the\n\
                 # alpha-beta search {depth} plies deep values within {max_margin} discs of even\n\
                 # (its value for the side to move after the line follows each). Written by\n\
                 # montello-engine openings --plies {plies} --depth {depth} --max-margin {max_margin}"
            );
            for (line, value) in &lines {
                println!("{}  # {value:+.2}", transcript::to_transcript(line));
            }
            eprintln!(
                "{} of {} lines kept ({:.0} s)",
                lines.len(),
                montello_engine::arena::opening_lines(plies).len(),
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Command::Arena {
            black,
            white,
            games,
            openings,
            threads,
            seed,
            verbose,
            weights,
            book,
        } => {
            install_weights(weights.as_deref())?;
            let book = book.as_deref().map(book_cmd::load).transpose()?;
            arena(
                &black,
                &white,
                games,
                openings,
                threads,
                seed,
                verbose,
                book.map(std::sync::Arc::new),
            )
        }
        Command::Eval {
            game,
            variant,
            weights,
            explain,
        } => {
            let game = parse_game(&game, &variant)?;
            let pos = game.position();
            let w = match &weights {
                Some(path) => train_cmd::load_weights(path)?,
                None => montello_engine::eval::builtin().clone(),
            };
            let scale = montello_engine::eval::SCALE as f64;
            let e = w.evaluate(pos.player(), pos.opponent());
            print!("{}", board_string::diagram(&pos, game.variant()));
            println!(
                "evaluation: {:+.2} discs for {} (to move)",
                f64::from(e) / scale,
                pos.side_to_move()
            );
            // The win bar's figure, as the app makes it, and what it cost.
            let config = montello_engine::search::review::EstimateConfig::default();
            let started = std::time::Instant::now();
            let estimate = montello_engine::search::review::estimate(&pos, game.variant(), &config);
            let ms = started.elapsed().as_secs_f64() * 1e3;
            match estimate {
                Some(e) => println!(
                    "estimate: {:+.1} discs for black at the end ({}, {} plies, exact from {} empties), {ms:.1} ms",
                    e.black_margin,
                    if e.exact { "exact" } else { "searched" },
                    config.depth,
                    config.exact_empties
                ),
                None => println!("estimate: none (a free opening's discs are being placed)"),
            }
            if explain {
                for (name, v) in w.explain(pos.player(), pos.opponent()) {
                    println!("  {name:<12} {:+7.2}", f64::from(v) / scale);
                }
            }
            Ok(())
        }
        Command::Solve {
            file,
            first,
            table_mib,
            max_seconds,
        } => solve_cmd::run(&file, first, table_mib, max_seconds),
        Command::Review {
            game,
            variant,
            time,
            depth,
            exact_empties,
        } => review_cmd::run(&parse_game(&game, &variant)?, time, depth, exact_empties),
        Command::Train(cmd) => train_cmd::run(cmd),
        Command::Book(cmd) => book_cmd::run(cmd),
        Command::Nboard {
            level,
            seed,
            weights,
        } => {
            install_weights(weights.as_deref())?;
            let level = montello_engine::search::Level::from_name(&level)
                .ok_or_else(|| format!("unknown level {level:?}: use 1-6 or a name"))?;
            let stdin = std::io::BufReader::new(std::io::stdin());
            montello_engine::nboard::run(stdin, &mut std::io::stdout().lock(), level, seed)
                .map_err(|e| format!("nboard: {e}"))
        }
    }
}

/// Makes the weights in `path`, when there is one, the evaluation of every search in this
/// process (before any search has used the shipped ones).
fn install_weights(path: Option<&std::path::Path>) -> Result<(), String> {
    if let Some(path) = path {
        let w = train_cmd::load_weights(path)?;
        montello_engine::eval::install(w)
            .map_err(|_| "the evaluation was already in use".to_string())?;
    }
    Ok(())
}

/// A transcript, GGF record or board string under the named rules.
fn parse_game(text: &str, variant: &str) -> Result<montello_engine::Game, String> {
    let variant = Variant::from_name(variant).ok_or_else(|| {
        format!("unknown variant {variant:?}: use othello, no-move-ends-game or free-opening")
    })?;
    parse_any(text, variant).map_err(|e| e.to_string())
}

#[allow(clippy::too_many_arguments)]
fn arena(
    black: &str,
    white: &str,
    games: usize,
    openings: Option<std::path::PathBuf>,
    threads: usize,
    seed: u64,
    verbose: bool,
    book: Option<std::sync::Arc<montello_engine::search::Book>>,
) -> Result<(), String> {
    use montello_engine::arena;
    let mut a: arena::PlayerSpec = black.parse().map_err(|e: arena::SpecError| e.to_string())?;
    let mut b: arena::PlayerSpec = white.parse().map_err(|e: arena::SpecError| e.to_string())?;
    for spec in [&mut a, &mut b] {
        if spec.config.book_margin.is_some() {
            spec.book = Some(book.clone().ok_or_else(|| {
                format!(
                    "{}: book=N needs an opening book file (--book FILE)",
                    spec.label
                )
            })?);
        }
    }
    let text = match &openings {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?,
        None => arena::OPENINGS.to_string(),
    };
    let lines = arena::shuffled(
        arena::parse_openings(&text).map_err(|e| e.to_string())?,
        seed,
    );
    println!(
        "arena: A = {} vs B = {}, {games} games, {threads} threads, {} openings, seed {seed}",
        a.label,
        b.label,
        lines.len()
    );
    let m = arena::Match {
        a,
        b,
        games,
        openings: lines,
        threads,
        seed,
    };
    let done = std::sync::atomic::AtomicUsize::new(0);
    let report = arena::play(&m, &|g| {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if verbose {
            eprintln!(
                "game {} ({n}/{games}): A {} score {} margin {:+} {}",
                g.index,
                if g.a_is_black { "black" } else { "white" },
                g.a_score,
                g.margin,
                transcript::to_transcript_with_passes(&g.moves)
            );
        } else {
            eprint!("\r{n}/{games} games");
        }
    });
    eprintln!();
    print!("{report}");
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
