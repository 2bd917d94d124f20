//! `montello-engine train`: Real tournament games (the WTHOR files): training chunks from those up to 2016, and the
//! error on the held-out ones of 2017-2018 (#69).

use super::*;
use montello_engine::notation::wthor::WthorFile;

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

/// A WTHOR file read, or why not (its name first).
fn read_wthor(file: &Path) -> Result<WthorFile, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    montello_engine::notation::wthor::parse(&bytes).map_err(|e| format!("{}: {e}", file.display()))
}

/// A WTHOR file that may be trained on (games of 2016 or earlier: #69 keeps the later years
/// as test sets), or why not.
fn read_training_file(file: &Path) -> Result<WthorFile, String> {
    let parsed = read_wthor(file)?;
    if parsed.year >= train::FIRST_TEST_YEAR {
        return Err(format!(
            "{}: games of {}, a test year: only games up to {} are trained on (#69)",
            file.display(),
            parsed.year,
            train::FIRST_TEST_YEAR - 1
        ));
    }
    Ok(parsed)
}

/// Every readable game of WTHOR `files` that may be trained on ([`read_training_file`]).
pub(super) fn training_games(files: &[PathBuf]) -> Result<Vec<montello_engine::Game>, String> {
    let mut games = Vec::new();
    for file in files {
        games.extend(
            read_training_file(file)?
                .games
                .into_iter()
                .filter_map(|g| g.ok().map(|g| g.game)),
        );
    }
    Ok(games)
}

/// `train wthor`: training chunks from the real games of WTHOR files up to 2016.
pub(super) fn wthor(
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
        let parsed = read_training_file(file)?;
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

/// `train heldout`: the error on the WTHOR files' positions at their perfect-play depth.
pub(super) fn heldout(
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
        let parsed = read_wthor(file)?;
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
