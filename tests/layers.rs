//! The app's layers point one way. Each top-level folder of src/ is a layer; a file may name
//! (`crate::<folder>`) only folders in lower layers than its own. The table is the one
//! written in src/lib.rs's docs. A new upward or sideways import fails here with the file
//! and the edge; and no two modules (files) may name each other, directly or round a loop,
//! inside a folder either.

// The engine's check shares these (the file lives with the engine's tests).
#[path = "../engine/tests/common/graph.rs"]
mod graph;

use graph::{rust_files, strongly_connected};
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

/// `code` without its unit-test module and comments' tails.
fn without_tests(code: &str) -> String {
    let code = code
        .find("#[cfg(test)]\nmod tests")
        .map_or(code, |i| &code[..i]);
    code.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `crate::a::b::c` paths `code` names (plain ones, not the items of a `{...}` group).
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let path: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        paths.push(
            path.split("::")
                .filter(|p| !p.is_empty())
                .map(String::from)
                .collect(),
        );
    }
    paths
}

/// The module a source file is (`ui/screens/hud`, `ui/screens` for its mod.rs).
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file
        .strip_prefix(src)
        .expect("under src")
        .with_extension("");
    let name = relative.to_string_lossy().replace('\\', "/");
    name.strip_suffix("/mod").unwrap_or(&name).to_string()
}

/// No loop of modules naming each other: Tarjan's strongly connected components over the
/// `crate::` paths (each resolved to the longest module it names).
#[test]
fn no_modules_name_each_other_round_a_loop() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: Vec<String> = files.iter().map(|f| module_of(&src, f)).collect();
    let known: BTreeSet<&str> = modules.iter().map(String::as_str).collect();
    let mut edges: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); modules.len()];
    for (i, file) in files.iter().enumerate() {
        let code = without_tests(&std::fs::read_to_string(file).expect("read a source file"));
        for path in crate_paths(&code) {
            for len in (1..=path.len()).rev() {
                let target = path[..len].join("/");
                if known.contains(target.as_str()) {
                    // A module's own parent (its mod.rs) is not an edge back.
                    if target != modules[i] && !modules[i].starts_with(&format!("{target}/")) {
                        let j = modules.iter().position(|m| *m == target).expect("known");
                        edges[i].insert(j);
                    }
                    break;
                }
            }
        }
    }
    let loops = strongly_connected(&edges);
    let named: Vec<Vec<&str>> = loops
        .iter()
        .map(|c| c.iter().map(|&i| modules[i].as_str()).collect())
        .collect();
    assert!(named.is_empty(), "modules that name each other: {named:?}");
    // The check sees a loop when there is one.
    assert_eq!(
        strongly_connected(&[BTreeSet::from([1]), BTreeSet::from([0]), BTreeSet::new()]).len(),
        1
    );
}

/// The folders `code` names through `crate::`, outside comments and unit-test modules.
fn named_folders(code: &str) -> BTreeSet<String> {
    let code = code
        .find("#[cfg(test)]\nmod tests")
        .map_or(code, |i| &code[..i]);
    let mut named = BTreeSet::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or("");
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            named.insert(name);
        }
    }
    // `use crate::{a::X, b::Y}`: the names opening each item of the group.
    let mut rest = code;
    while let Some(at) = rest.find("crate::{") {
        rest = &rest[at + "crate::{".len()..];
        let group = &rest[..rest.find(';').unwrap_or(rest.len())];
        let mut depth = 0;
        let mut item = String::new();
        for c in group.chars() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    named.insert(first_name(&item));
                    item.clear();
                    continue;
                }
                _ => {}
            }
            if depth == 0 {
                item.push(c);
            }
        }
        named.insert(first_name(&item));
    }
    named.remove("");
    named
}

fn first_name(item: &str) -> String {
    item.trim()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
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
