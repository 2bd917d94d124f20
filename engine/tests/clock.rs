//! The engine's library reads the time through `clock::Instant` only: `std::time::Instant`
//! panics in a browser (`wasm32-unknown-unknown` has no clock), where the worker and the page
//! run the same searches, so one `std::time::Instant::now()` in a search stops the AI there
//! (it did: the game clock's first version, caught by CI's Chromium test). The tools that never
//! run in a browser (the command line, the trainer, the arena, NBoard, the book's builder) may
//! use std's.

use std::path::{Path, PathBuf};

/// Files of src/ that only the command-line tools use.
const TOOLS: &[&str] = &[
    "bin/",
    "train/",
    "arena.rs",
    "nboard.rs",
    "book_builder.rs",
    "clock.rs",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ reads") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The places in `text` that name std's `Instant` (`std::time::Instant`, or `Instant` imported
/// from `std::time`), by line number.
fn std_instants(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let code = line.split("//").next().unwrap_or_default();
            code.contains("std::time::Instant")
                || (code.contains("use std::time::") && code.contains("Instant"))
        })
        .map(|(i, _)| i + 1)
        .collect()
}

#[test]
fn the_library_reads_the_time_through_its_clock() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = Vec::new();
    for file in files {
        let name = file
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        if TOOLS.iter().any(|t| name.starts_with(t)) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file reads");
        found.extend(
            std_instants(&text)
                .into_iter()
                .map(|line| format!("src/{name}:{line}")),
        );
    }
    assert!(
        found.is_empty(),
        "std::time::Instant panics in a browser; use crate::clock::Instant: {found:?}"
    );
}

#[test]
fn the_search_finds_std_instants_and_not_comments_or_durations() {
    let text = "use std::time::Duration;\n// std::time::Instant in a comment\nlet t = std::time::Instant::now();\nuse std::time::{Duration, Instant};\n";
    assert_eq!(std_instants(text), [3, 4]);
}
