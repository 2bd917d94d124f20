//! `montello-engine arena` and `openings`: matches between two AI players from balanced
//! openings, and the writing of those openings.

use clap::Args;
use montello_engine::notation::transcript;
use std::time::Instant;

/// `arena`'s arguments.
#[derive(Args, Debug)]
pub struct ArenaArgs {
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
}

/// `openings`'s arguments.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
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
}

/// `openings`: the arena's balanced openings on stdout, the count kept on stderr.
pub fn openings(
    OpeningsArgs {
        plies,
        depth,
        max_margin,
        threads,
    }: OpeningsArgs,
) -> Result<(), String> {
    if !(1..=10).contains(&plies) {
        return Err(format!("--plies {plies}: expected 1 to 10"));
    }
    let start = Instant::now();
    let lines = montello_lab::arena::generate_openings(plies, depth, max_margin, threads);
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
        montello_lab::arena::opening_lines(plies).len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `arena`: installs the weights and loads the book, then plays the match.
pub fn run(
    ArenaArgs {
        black,
        white,
        games,
        openings,
        threads,
        seed,
        verbose,
        weights,
        book,
    }: ArenaArgs,
) -> Result<(), String> {
    super::install_weights(weights.as_deref())?;
    let book = book.as_deref().map(super::book_cmd::load).transpose()?;
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
    use montello_lab::arena;
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
