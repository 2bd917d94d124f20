//! `puzzles`: the daily puzzles' set made from real games (#71, docs/app.md "The daily puzzle").

use clap::Args;
use montello_engine::notation::{pgn, transcript};
use montello_engine::search::puzzle::{self, Puzzle};
use montello_engine::{FastRng, Variant, eval};
use std::collections::HashSet;
use std::time::Instant;

/// `puzzles`'s arguments.
#[derive(Args, Debug)]
pub struct PuzzlesArgs {
    /// Files of games: PGN (`.pgn`, the WTHOR database's yearly files), the arena's logs (a
    /// transcript last on each `game` line) or one transcript a line.
    #[arg(required = true)]
    games: Vec<std::path::PathBuf>,
    /// How many puzzles to keep.
    #[arg(long, default_value_t = 200)]
    count: usize,
    /// The tempting move must lose at least this many discs against the best.
    #[arg(long, default_value_t = 4)]
    min_cost: i32,
    /// The best result must be at least this many discs for the side to move (0: it can at
    /// least draw, so the puzzle is to win or to save the draw, not to lose by less).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    min_best: i32,
    /// The best result must be at most this many discs (a game already won by far makes a
    /// dull puzzle).
    #[arg(long, default_value_t = 16)]
    max_best: i32,
    /// From PGN files, only the games played in this year or before (the WTHOR games of 2017
    /// and 2018 are the evaluation's test set, #69).
    #[arg(long, default_value_t = 2016)]
    until_year: u32,
    /// Seeds the order the games' positions are tried in.
    #[arg(long, default_value_t = 71)]
    seed: u64,
    /// The first look's weights: `builtin` (the shipped ones) or a file of engine/weights/
    /// (the set's header names it, and its tests read it from there).
    #[arg(long, default_value = "builtin")]
    weights: String,
}

/// `puzzles`: the set on stdout (engine/data/puzzles.txt is its output), progress on stderr.
pub fn run(
    PuzzlesArgs {
        games,
        count,
        min_cost,
        min_best,
        max_best,
        until_year,
        seed,
        weights,
    }: PuzzlesArgs,
) -> Result<(), String> {
    let start = Instant::now();
    let (first_look, first_look_file) = if weights == "builtin" {
        (eval::builtin().clone(), eval::BUILTIN_FILE.to_string())
    } else {
        let path = std::path::Path::new(&weights);
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| format!("{weights}: not a file"))?;
        (crate::train_cmd::load_weights(path)?, file)
    };
    // Every position 10 to 16 squares from the end of every game, once each.
    let mut positions = Vec::new();
    let mut seen = HashSet::new();
    let mut read = 0;
    for file in &games {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let from_file: Vec<montello_engine::Game> = if file.extension().is_some_and(|e| e == "pgn")
        {
            pgn::games(&text)
                .into_iter()
                .filter_map(Result::ok)
                .filter(|g| g.year().is_some_and(|y| y <= until_year))
                .map(|g| g.game)
                .collect()
        } else {
            text.lines()
                .filter_map(|line| line.split_whitespace().last())
                .filter_map(|moves| transcript::parse(moves, Variant::Othello).ok())
                .collect()
        };
        for game in from_file {
            read += 1;
            for pos in game.positions() {
                if puzzle::EMPTIES.contains(&pos.empties().count())
                    && seen.insert((pos.player().0, pos.opponent().0))
                {
                    positions.push(*pos);
                }
            }
        }
    }
    // Tried in a seeded order, at most a fifth of the set from each count of empty squares,
    // so the set spans 10 to 16.
    let mut rng = FastRng::new(seed);
    for i in (1..positions.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        positions.swap(i, j);
    }
    let per_empties = count.div_ceil(5);
    let mut kept: Vec<Puzzle> = Vec::new();
    let mut tried = 0;
    for pos in &positions {
        if kept.len() == count {
            break;
        }
        let empties = pos.empties().count();
        if kept
            .iter()
            .filter(|p| p.position.empties().count() == empties)
            .count()
            >= per_empties
        {
            continue;
        }
        tried += 1;
        if let Some(p) = puzzle::find(&first_look, pos, min_cost)
            .filter(|p| (min_best..=max_best).contains(&p.best))
        {
            kept.push(p);
            eprintln!(
                "{} of {count} ({tried} tried, {:.0} s)",
                kept.len(),
                start.elapsed().as_secs_f64()
            );
        }
    }
    let files: Vec<String> = games
        .iter()
        .map(|f| {
            f.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let files = files.join(" ");
    println!(
        "# The daily puzzles (#71): positions 10 to 16 squares from the end of real games (the\n\
         # files below), each with one or two moves that reach the best exact\n\
         # result ({min_best:+} to {max_best:+} for the side to move) and a first look's move at least\n\
         # {min_cost} discs worse. Written by\n\
         # montello-engine puzzles --count {count} --min-cost {min_cost} --min-best {min_best} --max-best {max_best} --until-year {until_year} --seed {seed} {files}\n\
         # from {read} games; every line re-proved by engine/src/search/puzzle.rs's tests.\n\
         # first look: {first_look_file}"
    );
    for p in &kept {
        println!("{}", p.to_line());
    }
    eprintln!(
        "{} puzzles from {tried} positions tried ({} in {read} games) in {:.0} s",
        kept.len(),
        positions.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
