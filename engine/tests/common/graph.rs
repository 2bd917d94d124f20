//! What both layer checks need (the engine's engine/tests/layers.rs and the app's
//! tests/layers.rs, which includes this file by path): one reader of the `crate::` and
//! `super::` paths a source file names (use trees, inline modules, comments and literals
//! skipped), the module graph of a source tree built from it, and its loops.

// Each checker uses its own share of this file.
#![allow(
    dead_code,
    reason = "each layer check uses part of the shared graph code"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The strongly connected components of more than one node (Tarjan).
pub fn strongly_connected(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct Walk<'a> {
        edges: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        found: Vec<Vec<usize>>,
    }
    fn visit(w: &mut Walk, v: usize) {
        w.index[v] = Some(w.next);
        w.low[v] = w.next;
        w.next += 1;
        w.stack.push(v);
        w.on_stack[v] = true;
        for &u in w.edges[v].iter() {
            match w.index[u] {
                None => {
                    visit(w, u);
                    w.low[v] = w.low[v].min(w.low[u]);
                }
                Some(i) if w.on_stack[u] => w.low[v] = w.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(w.low[v]) == w.index[v] {
            let mut component = Vec::new();
            while let Some(u) = w.stack.pop() {
                w.on_stack[u] = false;
                component.push(u);
                if u == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort_unstable();
                w.found.push(component);
            }
        }
    }
    let n = edges.len();
    let mut walk = Walk {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on_stack: vec![false; n],
        next: 0,
        found: Vec::new(),
    };
    for v in 0..n {
        if walk.index[v].is_none() {
            visit(&mut walk, v);
        }
    }
    walk.found
}

/// `code` with comments, string and character literals blanked (lengths kept), so that
/// neither a doc link nor a `{` in a format string is read as code.
pub fn code_only(code: &str) -> String {
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

/// A byte that may be part of a name: ASCII letters, digits and `_`, and any byte of a
/// non-ASCII character (so that a name never ends inside one).
fn in_name(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

/// The paths of a use tree starting at `text` (`a::b`, `a::{b, c::{d, e}}`, `a::b(…)`), and
/// the bytes of `text` it took.
pub fn use_tree(text: &str) -> (Vec<Vec<String>>, usize) {
    let b = text.as_bytes();
    let mut prefix = Vec::new();
    let mut i = 0;
    loop {
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        if b.get(i) == Some(&b'{') {
            i += 1;
            let mut paths = Vec::new();
            loop {
                let (inner, used) = use_tree(&text[i..]);
                paths.extend(inner.into_iter().map(|p| [prefix.clone(), p].concat()));
                i += used;
                while b
                    .get(i)
                    .is_some_and(|c| c.is_ascii_whitespace() || *c == b',')
                {
                    i += 1;
                }
                match b.get(i) {
                    Some(b'}') => return (paths, i + 1),
                    None => return (paths, i),
                    // Something that is no path: step over it (a whole character).
                    _ if used == 0 => i += text[i..].chars().next().map_or(1, char::len_utf8),
                    _ => {}
                }
            }
        }
        let len = b[i..].iter().take_while(|&&c| in_name(c)).count();
        if len == 0 {
            return (vec![prefix], i);
        }
        prefix.push(text[i..i + len].to_string());
        i += len;
        let mut j = i;
        while b.get(j).is_some_and(u8::is_ascii_whitespace) {
            j += 1;
        }
        if b[j..].starts_with(b"::") {
            i = j + 2;
        } else {
            return (vec![prefix], i);
        }
    }
}

/// Every `crate::` and `super::` path in `code` (already [`code_only`]), each with the
/// inline modules (`mod tests { … }`) it sits in, for `super` to climb from.
pub fn named_paths(code: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let mut found = Vec::new();
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let boundary = i == 0 || !in_name(b[i - 1]);
        let rest = &b[i..];
        if c == b'{' {
            depth += 1;
        } else if c == b'}' {
            depth = depth.saturating_sub(1);
            if inline.last().is_some_and(|(_, d)| *d == depth) {
                inline.pop();
            }
        } else if boundary && rest.starts_with(b"mod ") {
            let len = rest[4..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
            let after = &rest[4 + len..];
            let space = after.iter().take_while(|c| c.is_ascii_whitespace()).count();
            if after.get(space) == Some(&b'{') {
                inline.push((code[i + 4..i + 4 + len].to_string(), depth));
            }
        } else if boundary
            && (rest.starts_with(b"crate::") || rest.starts_with(b"super::"))
            && (i == 0 || b[i - 1] != b'$')
        {
            let (paths, used) = use_tree(&code[i..]);
            let within: Vec<String> = inline.iter().map(|(n, _)| n.clone()).collect();
            found.extend(paths.into_iter().map(|p| (within.clone(), p)));
            i += used.max(1);
            continue;
        }
        i += 1;
    }
    found
}

/// The module a source file is, from its path under src/ (`search/mcts.rs` -> `search/mcts`,
/// `search/mod.rs` -> `search`, `lib.rs` -> ``).
pub fn module_of(relative: &str) -> String {
    let name = relative.strip_suffix(".rs").unwrap_or(relative);
    let name = name.strip_suffix("/mod").unwrap_or(name);
    if name == "lib" {
        String::new()
    } else {
        name.to_string()
    }
}

/// What the crate root re-exports: `Position` -> `position`, `ParseError` ->
/// `notation/error`, read from lib.rs's `pub use`s.
pub fn root_reexports(lib: &str) -> BTreeMap<String, String> {
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
pub fn resolve(
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

/// The module graph of a source tree: each file's module, its path under src/, and the
/// modules it names.
pub struct Graph {
    pub modules: Vec<String>,
    pub files: Vec<String>,
    pub edges: Vec<BTreeSet<usize>>,
}

/// Which names count: every one (the engine's rule: a unit test that names a higher layer
/// makes the loop the day the test is built), or those outside `mod tests { … }` only.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UnitTests {
    Count,
    Skip,
}

/// The module graph of the `.rs` files under `src`, leaving out the paths under src/ that
/// start with one of `skip` (another crate's root: `bin`, `main.rs`).
pub fn module_graph(src: &Path, skip: &[&str], tests: UnitTests) -> Graph {
    let mut paths = Vec::new();
    rust_files(src, &mut paths);
    let mut sources: Vec<(String, String)> = paths
        .iter()
        .map(|f| {
            let relative = f.strip_prefix(src).expect("under src");
            (
                relative.to_string_lossy().replace('\\', "/"),
                std::fs::read_to_string(f).expect("read a source file"),
            )
        })
        .filter(|(relative, _)| !skip.iter().any(|s| relative.starts_with(s)))
        .collect();
    sources.sort();
    graph_of(&sources, tests)
}

/// The module graph of `sources` (path under src/, text): each file's module and the modules
/// it names, resolved through the crate root's re-exports (lib.rs, when there is one).
pub fn graph_of(sources: &[(String, String)], tests: UnitTests) -> Graph {
    let files: Vec<String> = sources.iter().map(|(f, _)| f.clone()).collect();
    let modules: Vec<String> = files.iter().map(|f| module_of(f)).collect();
    let known: BTreeSet<String> = modules.iter().filter(|m| !m.is_empty()).cloned().collect();
    let reexports = sources
        .iter()
        .find(|(f, _)| f == "lib.rs")
        .map(|(_, lib)| root_reexports(lib))
        .unwrap_or_default();
    let mut edges = vec![BTreeSet::new(); modules.len()];
    for (i, (_, text)) in sources.iter().enumerate() {
        if modules[i].is_empty() {
            // lib.rs declares and re-exports every module: it sits above them all.
            continue;
        }
        let code = code_only(text);
        for (within, path) in named_paths(&code) {
            if tests == UnitTests::Skip && within.first().is_some_and(|m| m == "tests") {
                continue;
            }
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
    Graph {
        modules,
        files,
        edges,
    }
}

/// The loops of a graph, each named by the edges inside it (`src/FILE -> MODULE`).
pub fn loops(files: &[String], modules: &[String], edges: &[BTreeSet<usize>]) -> Vec<String> {
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
