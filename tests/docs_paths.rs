//! The docs name only files that exist (#70): every repository path that README.md or a
//! `docs/**/*.md` file writes in backticks or as a markdown link's target must be a file or
//! folder of the tree. A path that moved fails here with the doc and line that still name it.
//!
//! A backticked word is a path when it starts with one of the repository's top folders
//! (`engine/src/game.rs`, `.ci/run`), or when it is a Rust file: `search/mcts/tree.rs` may be
//! written relative to a crate's `src/`, and a bare `table.rs` must be some `.rs` file's name.
//! Link targets resolve from the doc's folder. Commands, patterns, URLs and build outputs
//! (`target/`, `web/dist`, `OUT/`) are not paths. Plain std: no Bevy, no montello.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The repository's top folders: a backticked word starting with one names a path from the root.
const TOP: &[&str] = &[
    "src/", "engine/", "lab/", "web/", "tests/", "tools/", "docs/", ".ci/", ".github/", "android/",
    "ios/", "assets/", "examples",
];
/// Build outputs and placeholders the docs name on purpose: never in the tree.
const OUTPUTS: &[&str] = &["target/", "web/dist", "OUT/", "node_modules"];
/// Where a Rust file written relative to a crate lives.
const CRATE_SRC: &[&str] = &["engine/src", "lab/src", "src"];

struct Repo {
    root: PathBuf,
    /// The name of every `.rs` file in the tree, for bare mentions like `solver.rs`.
    rust_files: HashSet<String>,
}

impl Repo {
    fn open() -> Repo {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let mut rust_files = HashSet::new();
        let mut dirs = vec![root.clone()];
        while let Some(dir) = dirs.pop() {
            for entry in fs::read_dir(dir).expect("a folder of the repository reads") {
                let entry = entry.expect("a folder entry reads");
                let path = entry.path();
                let name = entry.file_name().to_string_lossy().into_owned();
                if path.is_dir() && !matches!(name.as_str(), "target" | ".git" | "node_modules") {
                    dirs.push(path);
                } else if name.ends_with(".rs") {
                    rust_files.insert(name);
                }
            }
        }
        Repo { root, rust_files }
    }

    /// Whether `word` (backticked, or a link's target when `link`) written in a doc in the
    /// folder `doc_dir` names something in the tree; `None` when it is not a path at all.
    fn exists(&self, doc_dir: &Path, word: &str, link: bool) -> Option<bool> {
        let not_path = [" ", "*", "$", "<", "{", "...", "…", "://", "mailto:"];
        if word.is_empty() || not_path.iter().any(|s| word.contains(s)) {
            return None;
        }
        // An anchor or a line number is not part of the path.
        let path = word.split('#').next().unwrap_or_default();
        let path = match path.rsplit_once(':') {
            Some((file, line)) if line.chars().all(|c| c.is_ascii_digit()) => file,
            _ => path,
        };
        let path = path.trim_end_matches('/');
        if path.is_empty() || OUTPUTS.iter().any(|o| path.contains(o)) {
            return None;
        }
        let exists = |p: PathBuf| p.exists();
        if link {
            return Some(exists(self.root.join(doc_dir).join(path)));
        }
        if TOP.iter().any(|t| path.starts_with(t)) {
            return Some(exists(self.root.join(path)));
        }
        // Otherwise only Rust files: other words with a slash are commands, other tools' files
        // or the phone's paths.
        let plain = |c: char| c.is_ascii_alphanumeric() || "_-./".contains(c);
        if !path.ends_with(".rs") || !path.chars().all(plain) {
            return None;
        }
        if !path.contains('/') {
            return Some(self.rust_files.contains(path));
        }
        let under = |src: &&str| exists(self.root.join(src).join(path));
        Some(CRATE_SRC.iter().any(under))
    }

    /// `doc:line: word` for each path that `text` (the doc at `doc`, from the root) names and
    /// the tree lacks.
    fn missing(&self, doc: &str, text: &str) -> Vec<String> {
        let doc_dir = Path::new(doc).parent().unwrap_or(Path::new(""));
        let mut missing = Vec::new();
        let mut fenced = false;
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                continue;
            }
            if fenced {
                continue;
            }
            // Between backticks: the odd pieces of a split on them.
            let ticked = line.split('`').skip(1).step_by(2).map(|w| (w, false));
            let linked = line.split("](").skip(1).filter_map(|rest| {
                let target = rest.split(')').next()?;
                (!target.starts_with('#')).then_some((target, true))
            });
            for (word, link) in ticked.chain(linked) {
                if self.exists(doc_dir, word, link) == Some(false) {
                    missing.push(format!("{doc}:{}: {word}", number + 1));
                }
            }
        }
        missing
    }
}

/// README.md and every markdown file under docs/, from the root.
fn docs(root: &Path) -> Vec<String> {
    let mut docs = vec!["README.md".to_string()];
    let mut dirs = vec![PathBuf::from("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(root.join(&dir)).expect("docs/ reads") {
            let name = entry.expect("a docs/ entry reads").file_name();
            let path = dir.join(&name);
            if root.join(&path).is_dir() {
                dirs.push(path);
            } else if name.to_string_lossy().ends_with(".md") {
                docs.push(path.to_string_lossy().into_owned());
            }
        }
    }
    docs.sort();
    docs
}

#[test]
fn docs_name_only_files_that_exist() {
    let repo = Repo::open();
    let docs = docs(&repo.root);
    assert!(docs.len() > 5, "the docs were found: {docs:?}");
    let mut missing = Vec::new();
    for doc in &docs {
        let text = fs::read_to_string(repo.root.join(doc)).expect("a doc reads as UTF-8");
        missing.extend(repo.missing(doc, &text));
    }
    assert!(
        missing.is_empty(),
        "the docs name {} paths the repository lacks:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn a_missing_path_is_reported_and_the_rest_are_not() {
    let repo = Repo::open();
    let doc = "The rules are in `engine/src/game.rs`, not `engine/src/nope.rs`; the tree in \
               `search/mcts/tree.rs`, not `search/mcts.rs` or `solver.rs` (`table.rs` is).\n\
               ```\ncat `engine/src/fenced.rs`\n```\n\
               See [eval](eval.md), [gone](gone.md#top), [here](#anchor), `docs/*.md`, \
               `target/release/montello`, `web/dist/index.html`, `tools/soak.sh --minutes 5`.";
    assert_eq!(
        repo.missing("docs/example.md", doc),
        [
            "docs/example.md:1: engine/src/nope.rs",
            "docs/example.md:1: search/mcts.rs",
            "docs/example.md:1: solver.rs",
            "docs/example.md:5: gone.md#top",
        ]
    );
}
