//! The engine's modules point one way. Each top-level module of src/ (a file, or a folder with
//! its mod.rs) is in a layer; a file may name (`crate::…`, `super::…`, or a type the crate
//! root re-exports) only modules of lower layers. The table is the one written in
//! src/lib.rs's docs. A new upward or sideways name fails here with the file and the edge; and
//! no two modules (files) may name each other, directly or round a loop, inside a folder
//! either. Unit tests count: a test module that names a higher layer makes the loop the day
//! the test is built, so it belongs in tests/ instead.
//!
//! The command-line tool (src/bin) is its own crate on top of everything and names the
//! library by `montello_engine::`, so it is not in the graph.

#[path = "common/graph.rs"]
mod graph;

use graph::{rust_files, strongly_connected};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first: a module may name only modules of the layers before its own.
const LAYERS: [&[&str]; 10] = [
    &["square", "clock"],     // squares and moves; the searches' clock
    &["bitboard"],            // sets of squares, the raw move generator
    &["movegen", "position"], // the generator's public face; discs, side to move, primitives
    &["game"],                // the rules: variants, legal moves, passes, the end; history
    &["playout"],             // random playouts and the fast random generator
    &["notation", "eval"],    // the formats; the learned evaluation
    &["perft"],               // move-generator counts and the speed measurement
    &["search"],              // the searches, the exact solver, levels, the review
    // the worker's wire; the tools: matches, the NBoard protocol, the opening book's builder
    &["wire", "arena", "nboard", "book_builder"],
    &["train"], // fitting the evaluation (plays matches, solves positions)
];

/// `code` with comments, string and character literals blanked (lengths kept), so that
/// neither a doc link nor a `{` in a format string is read as code.
fn code_only(code: &str) -> String {
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    let blank = |out: &mut String, cs: &[char]| {
        for &c in cs {
            out.push(if c == '\n' { '\n' } else { ' ' });
        }
    };
    while i < chars.len() {
        let rest = &chars[i..];
        let starts = |s: &str| s.chars().zip(rest).filter(|(a, b)| a == *b).count() == s.len();
        let end = if starts("//") {
            rest.iter().position(|&c| c == '\n').unwrap_or(rest.len())
        } else if starts("/*") {
            rest.windows(2)
                .position(|w| w == ['*', '/'])
                .map_or(rest.len(), |e| e + 2)
        } else if starts("r\"") || starts("r#") {
            let hashes = rest[1..].iter().take_while(|&&c| c == '#').count();
            if rest.get(1 + hashes) == Some(&'"') {
                let close: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let body = 2 + hashes;
                let text: String = rest[body..].iter().collect();
                text.find(&close).map_or(rest.len(), |e| {
                    body + text[..e].chars().count() + close.len()
                })
            } else {
                0
            }
        } else if rest[0] == '"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != '"' {
                j += if rest[j] == '\\' { 2 } else { 1 };
            }
            j + 1
        } else if rest[0] == '\'' {
            // A character literal ('x', '\n', '\u{..}'), not a lifetime ('a).
            if rest.get(1) == Some(&'\\') {
                rest[3..]
                    .iter()
                    .position(|&c| c == '\'')
                    .map_or(1, |e| e + 4)
            } else if rest.get(2) == Some(&'\'') {
                3
            } else {
                0
            }
        } else {
            0
        };
        if end == 0 {
            out.push(rest[0]);
            i += 1;
        } else {
            let end = end.min(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        }
    }
    out
}

/// The paths of a use tree starting at `text` (`a::b`, `a::{b, c::{d, e}}`, `a::b(…)`).
fn use_tree(text: &str) -> (Vec<Vec<String>>, usize) {
    let chars: Vec<char> = text.chars().collect();
    let mut prefix = Vec::new();
    let mut i = 0;
    loop {
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        if chars.get(i) == Some(&'{') {
            i += 1;
            let mut paths = Vec::new();
            loop {
                let rest: String = chars[i..].iter().collect();
                let (inner, used) = use_tree(&rest);
                paths.extend(inner.into_iter().map(|p| [prefix.clone(), p].concat()));
                i += used;
                while chars.get(i).is_some_and(|c| c.is_whitespace() || *c == ',') {
                    i += 1;
                }
                match chars.get(i) {
                    Some('}') => return (paths, i + 1),
                    None => return (paths, i),
                    _ if used == 0 => i += 1,
                    _ => {}
                }
            }
        }
        let name: String = chars[i..]
            .iter()
            .take_while(|c| c.is_alphanumeric() || **c == '_')
            .collect();
        if name.is_empty() {
            return (vec![prefix], i);
        }
        i += name.chars().count();
        prefix.push(name);
        let rest: String = chars[i..].iter().collect();
        let trimmed = rest.trim_start();
        if let Some(after) = trimmed.strip_prefix("::") {
            i += rest.len() - after.len();
        } else {
            return (vec![prefix], i);
        }
    }
}

/// Every `crate::` and `super::` path in `code` (already [`code_only`]), each with the
/// inline modules (`mod tests { … }`) it sits in, for `super` to climb from.
fn named_paths(code: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let mut found = Vec::new();
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let boundary = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        let rest: String = chars[i..chars.len().min(i + 200)].iter().collect();
        if c == '{' {
            depth += 1;
        } else if c == '}' {
            depth = depth.saturating_sub(1);
            if inline.last().is_some_and(|(_, d)| *d == depth) {
                inline.pop();
            }
        } else if boundary && rest.starts_with("mod ") {
            let name: String = rest[4..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if rest[4 + name.len()..].trim_start().starts_with('{') {
                inline.push((name, depth));
            }
        } else if boundary
            && (rest.starts_with("crate::") || rest.starts_with("super::"))
            && (i == 0 || chars[i - 1] != '$')
        {
            let text: String = chars[i..].iter().collect();
            let (paths, used) = use_tree(&text);
            let within: Vec<String> = inline.iter().map(|(n, _)| n.clone()).collect();
            found.extend(paths.into_iter().map(|p| (within.clone(), p)));
            i += used.max(1);
            continue;
        }
        i += 1;
    }
    found
}

/// The module a source file is: `search/mcts`, `search` for search/mod.rs, `` for lib.rs.
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file
        .strip_prefix(src)
        .expect("under src")
        .with_extension("");
    let name = relative.to_string_lossy().replace('\\', "/");
    let name = name.strip_suffix("/mod").unwrap_or(&name);
    if name == "lib" {
        String::new()
    } else {
        name.to_string()
    }
}

/// What the crate root re-exports: `Position` -> `position`, `ParseError` ->
/// `notation/error`, read from lib.rs's `pub use`s.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    let code = code_only(lib);
    let mut rest = code.as_str();
    while let Some(at) = rest.find("pub use ") {
        rest = &rest[at + "pub use ".len()..];
        let (paths, _) = use_tree(rest);
        for path in paths {
            if let Some((last, home)) = path.split_last()
                && !home.is_empty()
            {
                map.insert(last.clone(), home.join("/"));
            }
        }
    }
    map
}

/// The module `path` (named in `module`, inside its inline modules `within`) refers to: the
/// longest known module it names, or a re-exported item's home. `None` for external crates.
fn resolve(
    module: &str,
    within: &[String],
    path: &[String],
    known: &BTreeSet<String>,
    reexports: &BTreeMap<String, String>,
) -> Option<String> {
    let mut base: Vec<String> = if module.is_empty() {
        Vec::new()
    } else {
        module.split('/').map(String::from).collect()
    };
    base.extend(within.iter().cloned());
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    let full: Vec<String> = base.iter().chain(rest).cloned().collect();
    for len in (1..=full.len()).rev() {
        let target = full[..len].join("/");
        if known.contains(&target) {
            return Some(target);
        }
    }
    // An item of the crate root: the longest module of the path lib.rs re-exports it from
    // (`crate::Position`).
    let home = full.first().and_then(|name| reexports.get(name))?;
    let home: Vec<&str> = home.split('/').collect();
    (1..=home.len())
        .rev()
        .map(|len| home[..len].join("/"))
        .find(|m| known.contains(m))
}

/// The module graph of the source tree: each file's module, its path under src/, and the
/// modules it names.
struct Graph {
    modules: Vec<String>,
    files: Vec<String>,
    edges: Vec<BTreeSet<usize>>,
}

/// Every file's module and the modules it names, from the source tree under `src`.
fn module_graph(src: &Path) -> Graph {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.retain(|f| !f.strip_prefix(src).is_ok_and(|r| r.starts_with("bin")));
    files.sort();
    let modules: Vec<String> = files.iter().map(|f| module_of(src, f)).collect();
    let known: BTreeSet<String> = modules.iter().filter(|m| !m.is_empty()).cloned().collect();
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("read lib.rs");
    let reexports = root_reexports(&lib);
    let mut edges = vec![BTreeSet::new(); modules.len()];
    for (i, file) in files.iter().enumerate() {
        if modules[i].is_empty() {
            // lib.rs declares and re-exports every module: it sits above them all.
            continue;
        }
        let code = code_only(&std::fs::read_to_string(file).expect("read a source file"));
        for (within, path) in named_paths(&code) {
            let Some(target) = resolve(&modules[i], &within, &path, &known, &reexports) else {
                continue;
            };
            let own = &modules[i];
            // A module's own ancestors (its folder's mod.rs, its parent file) are not an edge
            // back: a child always sits inside its parent.
            if target == *own || own.starts_with(&format!("{target}/")) {
                continue;
            }
            let j = modules.iter().position(|m| *m == target).expect("known");
            edges[i].insert(j);
        }
    }
    let files = files
        .iter()
        .map(|f| {
            let relative = f.strip_prefix(src).expect("under src");
            relative.to_string_lossy().replace('\\', "/")
        })
        .collect();
    Graph {
        modules,
        files,
        edges,
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The loops of a graph, each named by the edges inside it (`src/FILE -> MODULE`).
fn loops(files: &[String], modules: &[String], edges: &[BTreeSet<usize>]) -> Vec<String> {
    strongly_connected(edges)
        .iter()
        .map(|component| {
            let inside: Vec<String> = component
                .iter()
                .flat_map(|&a| {
                    edges[a]
                        .iter()
                        .filter(|b| component.contains(b))
                        .map(move |&b| format!("src/{} -> {}", files[a], modules[b]))
                })
                .collect();
            inside.join(", ")
        })
        .collect()
}

#[test]
fn no_modules_name_each_other_round_a_loop() {
    let g = module_graph(&src());
    assert!(
        g.modules.len() > 30,
        "only {} files: did src/ move?",
        g.files.len()
    );
    let found = loops(&g.files, &g.modules, &g.edges);
    assert!(
        found.is_empty(),
        "modules that name each other:\n{}",
        found.join("\n")
    );
}

/// The layer of a top-level module.
fn rank(top: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&top))
}

#[test]
fn every_name_points_to_a_lower_layer() {
    let Graph {
        modules,
        files,
        edges,
    } = module_graph(&src());
    let top = |m: &str| m.split('/').next().unwrap_or("").to_string();
    let mut wrong = Vec::new();
    for (i, module) in modules.iter().enumerate() {
        if module.is_empty() {
            continue;
        }
        let own = top(module);
        let own_rank = rank(&own).unwrap_or_else(|| {
            panic!("src/{own} is in no layer: add it to LAYERS and to src/lib.rs's docs")
        });
        for &j in &edges[i] {
            let other = top(&modules[j]);
            if other == own {
                continue;
            }
            let other_rank = rank(&other).expect("every module has a layer (checked above)");
            if other_rank >= own_rank {
                wrong.push(format!(
                    "src/{}: {own} -> {other} (layer {own_rank} names layer {other_rank})",
                    files[i]
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "names against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_layers_are_the_ones_lib_rs_documents() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("read lib.rs");
    for (n, layer) in LAYERS.iter().enumerate() {
        let row = lib
            .lines()
            .find(|l| l.starts_with(&format!("//! | {n} |")))
            .unwrap_or_else(|| panic!("src/lib.rs's layer table has no row {n}"));
        for module in *layer {
            assert!(
                row.contains(&format!("`{module}`")),
                "layer {n} of src/lib.rs's table does not name `{module}`: {row}"
            );
        }
    }
}

#[test]
fn the_check_sees_every_kind_of_name() {
    let code = code_only(
        "use crate::{Position, eval::{self, weights::W}, search::endgame::Solver};\n\
         // crate::arena in a comment\nfn f() { let s = \"crate::nboard {\"; crate::perft::perft(); }\n\
         /// [`crate::train`] in a doc\nuse super::table;\nlet c = '{';\n\
         #[cfg(test)]\nmod tests { use super::*; use crate::playout::FastRng; }\n\
         fn g<'a>(x: &'a str) -> &'a str { x }\n",
    );
    let found: Vec<(Vec<String>, String)> = named_paths(&code)
        .into_iter()
        .map(|(within, path)| (within, path.join("::")))
        .collect();
    let plain = |p: &str| (Vec::new(), p.to_string());
    let in_tests = |p: &str| (vec!["tests".to_string()], p.to_string());
    assert_eq!(
        found,
        vec![
            plain("crate::Position"),
            plain("crate::eval::self"),
            plain("crate::eval::weights::W"),
            plain("crate::search::endgame::Solver"),
            plain("crate::perft::perft"),
            plain("super::table"),
            in_tests("super"),
            in_tests("crate::playout::FastRng"),
        ]
    );
    // Resolving: root re-exports, `super` from a file and from its inline test module.
    let known: BTreeSet<String> = [
        "position",
        "search",
        "search/mcts",
        "search/endgame",
        "notation",
        "notation/error",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let reexports = root_reexports(
        "pub use position::{Position, Side};\npub use notation::error::ParseError;\n\
         pub use rand_core;",
    );
    let path = |p: &str| p.split("::").map(String::from).collect::<Vec<_>>();
    let at = |module: &str, within: &[String], p: &str| {
        resolve(module, within, &path(p), &known, &reexports)
    };
    assert_eq!(
        at("search/mcts", &[], "crate::Side"),
        Some("position".into())
    );
    assert_eq!(
        at("search/mcts", &[], "crate::ParseError"),
        Some("notation/error".into())
    );
    assert_eq!(
        at("search/mcts", &[], "super::endgame::X"),
        Some("search/endgame".into())
    );
    assert_eq!(
        at("search/mcts", &[], "super::Proof"),
        Some("search".into())
    );
    let tests = ["tests".to_string()];
    assert_eq!(
        at("search/mcts", &tests, "super::x"),
        Some("search/mcts".into())
    );
    assert_eq!(at("search/mcts", &[], "crate::rand_core::Rng"), None);
    // The loop finder sees a loop when there is one, and names its edges.
    let modules = ["a".to_string(), "b".to_string(), "c".to_string()];
    let files = [
        "a.rs".to_string(),
        "b/mod.rs".to_string(),
        "c.rs".to_string(),
    ];
    let edges = [
        BTreeSet::from([1]),
        BTreeSet::from([0]),
        BTreeSet::from([0]),
    ];
    assert_eq!(
        loops(&files, &modules, &edges),
        vec!["src/a.rs -> b, src/b/mod.rs -> a"]
    );
}
