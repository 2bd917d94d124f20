//! `montello-engine book`: build the opening book, and show its moves in a position.

use clap::Subcommand;
use montello_engine::Variant;
use montello_engine::notation::{board_string, parse_any};
use montello_engine::search::Book;
use montello_lab::book_builder::{BuildConfig as BookBuildConfig, build as build_book};
use std::path::{Path, PathBuf};

#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Grow a book from the standard start and write it (docs/ai.md gives the shipped book's
    /// command). Deterministic: the same options give the same file, whatever the threads.
    Build {
        /// Store positions up to this many plies from the start.
        #[arg(long, default_value_t = 10)]
        plies: u32,
        /// Value each move by an alpha-beta search this many plies deep.
        #[arg(long, default_value_t = 12)]
        depth: u32,
        /// Keep a position when the moves to it lost at most this many discs together.
        #[arg(long, default_value_t = 4)]
        max_loss: i32,
        /// At most this many positions a ply, the least lost first.
        #[arg(long, default_value_t = 2000)]
        width: usize,
        /// Store the moves within this many discs of each position's best.
        #[arg(long, default_value_t = 6)]
        keep: i32,
        /// Positions searched at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Each position's transposition table, in MiB.
        #[arg(long, default_value_t = 16)]
        table_mib: usize,
        /// Start no ply that would end after this many seconds at the last ply's pace.
        #[arg(long)]
        max_seconds: Option<f64>,
        /// Where to write the book.
        #[arg(long)]
        out: PathBuf,
    },
    /// Print the book's moves and values in a position (a transcript, GGF record or board
    /// string).
    Show {
        /// The position.
        game: String,
        /// The book file.
        #[arg(long, default_value = "engine/book/book.mbk")]
        book: PathBuf,
    },
}

pub fn run(cmd: BookCommand) -> Result<(), String> {
    match cmd {
        BookCommand::Build {
            plies,
            depth,
            max_loss,
            width,
            keep,
            threads,
            table_mib,
            max_seconds,
            out,
        } => {
            let config = BookBuildConfig {
                plies,
                depth,
                max_loss,
                width,
                keep,
                threads,
                table_bytes: table_mib << 20,
                max_seconds,
            };
            let book = build_book(&config, |line| println!("{line}"));
            let bytes = book.encode();
            write_atomically(&out, &bytes)?;
            println!(
                "{} positions, {} bytes: {}",
                book.len(),
                bytes.len(),
                out.display()
            );
            Ok(())
        }
        BookCommand::Show { game, book } => {
            let book = load(&book)?;
            let game = parse_any(&game, Variant::Othello).map_err(|e| e.to_string())?;
            let pos = game.position();
            print!("{}", board_string::diagram(&pos, Variant::Othello));
            match book.moves(&pos) {
                Some(moves) => {
                    for m in moves {
                        println!("{} {:+}", m.square, m.value);
                    }
                }
                None => println!("not in the book ({} positions)", book.len()),
            }
            Ok(())
        }
    }
}

/// Reads and decodes a book file.
pub fn load(path: &Path) -> Result<Book, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    Book::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).map_err(|e| format!("writing {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("renaming to {}: {e}", path.display()))
}
