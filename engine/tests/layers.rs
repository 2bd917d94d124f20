//! The engine's modules point one way. Each top-level module of src/ (a file, or a folder with
//! its mod.rs) is in a layer; a file may name (`crate::…`, `super::…`, or a type the crate
//! root re-exports) only modules of lower layers. The table is the one written in
//! src/lib.rs's docs. A new upward or sideways name fails here with the file and the edge; and
//! no two modules (files) may name each other, directly or round a loop, inside a folder
//! either. Unit tests count: a test module that names a higher layer makes the loop the day
//! the test is built, so it belongs in tests/ instead.
//!
//! The lab (lab/: matches, NBoard, the book builder, the trainer, the command line) is a crate
//! of its own on top of everything and names the library by `montello_engine::`, so it is not
//! in the graph.

#[path = "common/graph.rs"]
mod graph;

use graph::{
    Graph, UnitTests, code_only, graph_of, loops, module_graph, named_paths, resolve,
    root_reexports,
};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers, lowest first: a module may name only modules of the layers before its own.
const LAYERS: [&[&str]; 9] = [
    &["square", "clock", "cpu"], // squares and moves; the searches' clock; CPU features
    &["bitboard"],               // sets of squares, the raw move generator
    &["movegen", "position"],    // the generator's public face; discs, side to move, primitives
    &["game"],                   // the rules: variants, legal moves, passes, the end; history
    &["playout"],                // random playouts and the fast random generator
    &["notation", "eval"],       // the formats; the learned evaluation
    &["perft", "named_openings"], // move-generator counts and the speed; the openings' names
    &["search"],                 // the searches, the exact solver, levels, the review
    &["wire"],                   // the lines a search elsewhere is asked and answers in
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The engine's graph: every file, unit tests counted.
fn engine_graph() -> Graph {
    module_graph(&src(), &[], UnitTests::Count)
}

#[test]
fn no_modules_name_each_other_round_a_loop() {
    let g = engine_graph();
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
    } = engine_graph();
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

/// The whole check on a made-up tree: two files of a folder that name each other (one
/// through `super::`, one through an item the crate root re-exports) make a loop, named by
/// its edges; a unit test's name counts here, and is left out where tests are skipped.
#[test]
fn the_check_finds_a_loop_in_a_source_tree() {
    let tree = |b: &str| -> Vec<(String, String)> {
        [
            ("lib.rs", "mod search;\npub use search::a::Thing;\n"),
            ("search/mod.rs", "mod a;\nmod b;\n"),
            (
                "search/a.rs",
                "pub struct Thing;\nfn f() { super::b::g(); }\n",
            ),
            ("search/b.rs", b),
        ]
        .into_iter()
        .map(|(f, code)| (f.to_string(), code.to_string()))
        .collect()
    };
    let found = |b: &str, tests| {
        let g = graph_of(&tree(b), tests);
        loops(&g.files, &g.modules, &g.edges)
    };
    let named = vec!["src/search/a.rs -> search/b, src/search/b.rs -> search/a".to_string()];
    assert_eq!(
        found("pub fn g() { let _ = crate::Thing; }", UnitTests::Count),
        named
    );
    assert_eq!(
        found("pub fn g() {}", UnitTests::Count),
        Vec::<String>::new()
    );
    let in_test = "pub fn g() {}\n#[cfg(test)]\nmod tests { use crate::Thing; }\n";
    assert_eq!(found(in_test, UnitTests::Count), named);
    assert_eq!(found(in_test, UnitTests::Skip), Vec::<String>::new());
}
