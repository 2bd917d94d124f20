//! The app's layers point one way. Each top-level folder of src/ is a layer; a file may name
//! (`crate::<folder>`) only folders in lower layers than its own. The table is the one
//! written in src/lib.rs's docs. A new upward or sideways import fails here with the file
//! and the edge; and no two modules (files) may name each other, directly or round a loop,
//! inside a folder either.

// The engine's check shares these: one reader of `crate::`/`super::` paths, the module graph
// built from it and its loops (the file lives with the engine's tests).
#[path = "../engine/tests/common/graph.rs"]
mod graph;

use graph::{
    Graph, UnitTests, code_only, graph_of, loops, module_graph, named_paths, rust_files,
    strongly_connected,
};
use std::collections::BTreeSet;
use std::path::Path;

/// The layers, lowest first: each may use the ones before it.
const LAYERS: [&str; 7] = [
    "platform", // OS glue: lifecycle, safe areas, system font size, back key
    "prefs",    // settings and the language
    "game",     // the game, who plays, the AI, the evaluation graph's data
    "persist",  // save files and when they are written and read
    "ui",       // theme, widgets, layout, the HUD, toolbar and panels
    "board",    // the 3D board, its camera, labels and sounds
    "app",      // what wires it all: launch options, frame pacing, accessibility, dev tools
];

/// The app's module graph: every file under src/ but main.rs (the desktop binary, a crate of
/// its own), unit-test modules left out.
fn app_graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    module_graph(&src, &["main.rs"], UnitTests::Skip)
}

/// No loop of modules naming each other: Tarjan's strongly connected components over the
/// `crate::` and `super::` paths (each resolved to the longest module it names, or to the
/// home of an item lib.rs re-exports).
#[test]
fn no_modules_name_each_other_round_a_loop() {
    let g = app_graph();
    assert!(
        g.files.len() > 40,
        "only {} files: did src/ move?",
        g.files.len()
    );
    let found = loops(&g.files, &g.modules, &g.edges);
    assert!(
        found.is_empty(),
        "modules that name each other:\n{}",
        found.join("\n")
    );
    // The check sees a loop when there is one.
    assert_eq!(
        strongly_connected(&[BTreeSet::from([1]), BTreeSet::from([0]), BTreeSet::new()]).len(),
        1
    );
    // The same check, end to end, on a made-up tree: two files of a folder that name each
    // other (a grouped `crate::` import one way, `super::` the other) are a loop; a name in a
    // unit-test module is not an edge.
    let tree = |b: &str| -> Vec<(String, String)> {
        [
            ("lib.rs", "mod ui;\n"),
            ("ui/mod.rs", "mod a;\nmod b;\n"),
            ("ui/a.rs", "use crate::{prefs, ui::b::B};\npub struct A;\n"),
            ("ui/b.rs", b),
        ]
        .into_iter()
        .map(|(f, code)| (f.to_string(), code.to_string()))
        .collect()
    };
    let found = |b: &str| {
        let g = graph_of(&tree(b), UnitTests::Skip);
        loops(&g.files, &g.modules, &g.edges)
    };
    assert_eq!(
        found("use super::a::A;\npub struct B;\n"),
        vec!["src/ui/a.rs -> ui/b, src/ui/b.rs -> ui/a".to_string()]
    );
    assert!(found("pub struct B;\n").is_empty());
    assert!(
        found("pub struct B;\n#[cfg(test)]\nmod tests { use super::super::a::A; }\n").is_empty()
    );
}

/// The folders (and root items) `code` names through `crate::`, outside comments, literals
/// and unit-test modules: the first name of each path the shared reader finds.
fn named_folders(code: &str) -> BTreeSet<String> {
    named_paths(&code_only(code))
        .into_iter()
        .filter(|(within, _)| within.first().is_none_or(|m| m != "tests"))
        .filter(|(_, path)| path.first().is_some_and(|p| p == "crate"))
        .filter_map(|(_, path)| path.get(1).cloned())
        .collect()
}

#[test]
fn every_import_points_to_a_lower_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let rank = |name: &str| LAYERS.iter().position(|l| *l == name);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        let Some(folder) = relative.components().next() else {
            continue;
        };
        let folder = folder.as_os_str().to_string_lossy();
        if relative.components().count() == 1 {
            // lib.rs and main.rs sit above every layer.
            continue;
        }
        let own = rank(&folder).unwrap_or_else(|| {
            panic!("src/{folder}/ is in no layer: add it to LAYERS and to src/lib.rs's docs")
        });
        checked += 1;
        let code = std::fs::read_to_string(file).expect("read a source file");
        for name in named_folders(&code) {
            if let Some(other) = rank(&name)
                && other > own
            {
                wrong.push(format!(
                    "src/{}: {folder} -> {name} (layer {own} uses layer {other})",
                    relative.display()
                ));
            }
        }
    }
    assert!(checked > 40, "only {checked} files checked: did src/ move?");
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_check_sees_grouped_and_plain_imports() {
    let code = "use crate::ui::theme;\nuse crate::{AppSystems, game::flow::X, prefs::{i18n, settings}};\n\
                // crate::app::launch in a comment\nfn f() { crate::board::sound::play(); }\n\
                #[cfg(test)]\nmod tests { use crate::app::dev; }\n";
    let named = named_folders(code);
    let expected: BTreeSet<String> = ["ui", "AppSystems", "game", "prefs", "board"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(named, expected);
}
