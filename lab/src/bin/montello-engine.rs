//! `montello-engine`: the engine's command-line tool (perft, bench, show, and the AI's arena
//! and NBoard protocol).

use clap::{Args, Parser, Subcommand};
use montello_engine::notation::{board_string, parse_any, transcript};
use montello_engine::perft::{divide, perft};
use montello_engine::{Position, Variant};
use std::process::ExitCode;

#[path = "cli/arena.rs"]
mod arena_cmd;
#[path = "cli/bench.rs"]
mod bench_cmd;
#[path = "cli/book.rs"]
mod book_cmd;
#[path = "cli/puzzles.rs"]
mod puzzles_cmd;
#[path = "cli/review.rs"]
mod review_cmd;
#[path = "cli/solve.rs"]
mod solve_cmd;
#[path = "cli/train/mod.rs"]
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
    Perft(PerftArgs),
    /// Measure, on one core: perft leaves per second and random playouts per second from the
    /// start position, full evaluations per second, and Master's tree search in iterations
    /// per second.
    Bench(bench_cmd::BenchArgs),
    /// Show a position: a diagram, the side to move, the legal moves and the score. Accepts a
    /// transcript (f5d6c3...), a GGF record or a board string.
    Show(ShowArgs),
    /// Play a match between two AI players (specs like `classic:time=800ms`,
    /// `default:level=3`, `default:time=100ms,c=0.6`) from balanced openings, colours
    /// alternating, and print wins/draws/losses, score, Elo with its 95% interval and time
    /// per move.
    Arena(arena_cmd::ArenaArgs),
    /// Write the arena's balanced openings: every distinct line of PLIES moves from f5 that
    /// the alpha-beta search, DEPTH plies deep (Multi-ProbCut as shipped; deterministic),
    /// values within MAX_MARGIN discs of even, one transcript a line with its value as a
    /// comment (engine/data/openings.txt is this command's output).
    Openings(arena_cmd::OpeningsArgs),
    /// Make the daily puzzles from games: positions 10 to 16 squares from the end where one or
    /// two moves reach the best exact result and the evaluation's first look does not (the
    /// set on stdout: engine/data/puzzles.txt is this command's output).
    Puzzles(puzzles_cmd::PuzzlesArgs),
    /// Evaluate a position with the learned pattern evaluation: the expected final disc
    /// margin for the side to move. Accepts a transcript, a GGF record or a board string.
    Eval(EvalArgs),
    /// Solve each position of an OBF file exactly (the FFO endgame suites are in
    /// engine/tests/data) on one core: the best move, the final margin, nodes, time and
    /// nodes/s, then the totals. Fails if a score disagrees with the file's.
    Solve(SolveArgs),
    /// Review a game: one line a move played (passes left out), `PLY b|w MOVE best MOVE loss
    /// DISCS exact|search`, the loss in discs for the side that moved (an integer when exact),
    /// then one line a player with the average loss and the count per class (docs/ai.md).
    /// Exact from EXACT_EMPTIES empty squares to the end, a DEPTH-ply search before that.
    Review(ReviewArgs),
    /// Build the opening book, or show its moves in a position.
    #[command(subcommand)]
    Book(book_cmd::BookCommand),
    /// Train the pattern evaluation (docs/eval.md gives the command for each generation).
    #[command(subcommand)]
    Train(train_cmd::TrainCommand),
    /// Speak the NBoard protocol (version 2) on stdin/stdout, for the NBoard GUI and match
    /// harnesses. `set depth N` picks a level; `set time <seconds>` caps each move.
    Nboard(NboardArgs),
}

/// `perft`'s arguments.
#[derive(Args, Debug)]
struct PerftArgs {
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
}

/// `show`'s arguments.
#[derive(Args, Debug)]
struct ShowArgs {
    /// The transcript, GGF record or board string.
    game: String,
    /// Rules: othello, no-move-ends-game or free-opening.
    #[arg(long, default_value = "othello")]
    variant: String,
}

/// `eval`'s arguments.
#[derive(Args, Debug)]
struct EvalArgs {
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
}

/// `solve`'s arguments.
#[derive(Args, Debug)]
struct SolveArgs {
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
    /// Evaluation weights instead of the shipped ones (a trainer's file): the move ordering
    /// reads the evaluation, so this measures how much the solver's speed depends on it.
    #[arg(long)]
    weights: Option<std::path::PathBuf>,
}

/// `review`'s arguments.
#[derive(Args, Debug)]
struct ReviewArgs {
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
}

/// `nboard`'s arguments.
#[derive(Args, Debug)]
struct NboardArgs {
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
        Command::Perft(args) => perft_command(args),
        Command::Bench(args) => bench_cmd::run(args),
        Command::Show(args) => show(args),
        Command::Openings(args) => arena_cmd::openings(args),
        Command::Puzzles(args) => puzzles_cmd::run(args),
        Command::Arena(args) => arena_cmd::run(args),
        Command::Eval(args) => eval(args),
        Command::Solve(SolveArgs {
            file,
            first,
            table_mib,
            max_seconds,
            weights,
        }) => install_weights(weights.as_deref())
            .and_then(|()| solve_cmd::run(&file, first, table_mib, max_seconds)),
        Command::Review(ReviewArgs {
            game,
            variant,
            time,
            depth,
            exact_empties,
        }) => review_cmd::run(&parse_game(&game, &variant)?, time, depth, exact_empties),
        Command::Train(cmd) => train_cmd::run(cmd),
        Command::Book(cmd) => book_cmd::run(cmd),
        Command::Nboard(args) => nboard(args),
    }
}

/// `perft`: the leaf count to a depth, optionally per first move, and its speed.
fn perft_command(
    PerftArgs {
        depth,
        position,
        divide: split,
        portable,
    }: PerftArgs,
) -> Result<(), String> {
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

/// `show`: a position's diagram, board string, moves so far and legal moves or result.
fn show(ShowArgs { game, variant }: ShowArgs) -> Result<(), String> {
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

/// `eval`: the learned evaluation of a position, the win bar's estimate, and optionally each
/// feature group's share.
fn eval(
    EvalArgs {
        game,
        variant,
        weights,
        explain,
    }: EvalArgs,
) -> Result<(), String> {
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
    // The values on the squares, as the app shows them (hint mode, the review, a try), and
    // what they cost.
    let config = montello_engine::search::review::ValuesConfig::default();
    let started = std::time::Instant::now();
    let valued = montello_engine::search::review::move_values(&pos, game.variant(), &config, None)
        .unwrap_or_default();
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let values = &valued.moves;
    let words: Vec<String> = values
        .iter()
        .map(|v| format!("{}:{:+.1}{}", v.mv, v.value, if v.exact { "e" } else { "" }))
        .collect();
    println!(
        "values: {} ({} moves, {} plies, exact from {} empties), {ms:.1} ms",
        if words.is_empty() {
            "none".to_string()
        } else {
            words.join(" ")
        },
        values.len(),
        config.depth,
        config.exact_empties
    );
    let line: Vec<String> = valued.line.iter().map(ToString::to_string).collect();
    println!(
        "best line: {}",
        if line.is_empty() {
            "none".to_string()
        } else {
            line.join(" ")
        }
    );
    if explain {
        for (name, v) in w.explain(pos.player(), pos.opponent()) {
            println!("  {name:<12} {:+7.2}", f64::from(v) / scale);
        }
    }
    Ok(())
}

/// `nboard`: the NBoard protocol on stdin/stdout at a level.
fn nboard(
    NboardArgs {
        level,
        seed,
        weights,
    }: NboardArgs,
) -> Result<(), String> {
    install_weights(weights.as_deref())?;
    let level = montello_engine::search::Level::from_name(&level)
        .ok_or_else(|| format!("unknown level {level:?}: use 1-6 or a name"))?;
    let stdin = std::io::BufReader::new(std::io::stdin());
    montello_lab::nboard::run(stdin, &mut std::io::stdout().lock(), level, seed)
        .map_err(|e| format!("nboard: {e}"))
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
