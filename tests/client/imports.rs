//! No import circle between files anywhere in the workspace: every `.rs` file under
//! `crates/*/src` and `src/` is read ([`super::sources`]), each path it writes from `crate::`,
//! `super::` or `self::` is resolved to the file that holds the module it names, and no file
//! may reach itself again through those imports. Also, the Alquerque solver's certificate
//! checker, meant to be independent of the search, must not reach the solver's search or its
//! solved-position table.

use super::sources::{Anchor, code_paths, modules};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The files the certificate checker must never reach, and the checker.
const CHECKER: &str = "crates/ai/src/solve/check.rs";
const SOLVER_ONLY: [&str; 4] = [
    "crates/ai/src/solve/table.rs",
    "crates/ai/src/solve/pn.rs",
    "crates/ai/src/solve/mod.rs",
    "crates/ai/src/search.rs",
];

/// One crate's source folder, relative to the workspace: its files by module path (the root
/// is the empty path) with their text.
struct Crate {
    dir: String,
    files: BTreeMap<String, String>,
}

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every crate of the workspace: `src/` and each `crates/*/src`. A crate's root is its `lib.rs`
/// (or `main.rs` for a binary without a library); the binaries beside a library (`main.rs`,
/// `bin/`) use it from outside, by its name, and their `crate::` is their own.
fn crates() -> Vec<Crate> {
    let root = workspace();
    let mut dirs = vec!["src".to_string()];
    let mut members: Vec<String> = std::fs::read_dir(root.join("crates"))
        .expect("crates/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.join("src").is_dir())
        .map(|p| format!("crates/{}/src", p.file_name().unwrap().to_string_lossy()))
        .collect();
    members.sort();
    dirs.extend(members);
    dirs.into_iter()
        .map(|dir| {
            let mut files = BTreeMap::new();
            modules(&root.join(&dir), "", &mut files);
            let lib = files.remove("lib");
            let main = files.remove("main");
            files.retain(|m, _| !m.starts_with("bin::") && m != "bin");
            if let Some(root) = lib.or(main) {
                files.insert(String::new(), root);
            }
            Crate { dir, files }
        })
        .collect()
}

/// The file of module `module` of `krate`, relative to the workspace.
fn file_of(krate: &Crate, module: &str) -> String {
    let root = workspace().join(&krate.dir);
    if module.is_empty() {
        let lib = if root.join("lib.rs").exists() { "lib.rs" } else { "main.rs" };
        return format!("{}/{lib}", krate.dir);
    }
    let rel = module.replace("::", "/");
    if Path::new(&root.join(format!("{rel}.rs"))).exists() {
        format!("{}/{rel}.rs", krate.dir)
    } else {
        format!("{}/{rel}/mod.rs", krate.dir)
    }
}

/// The import graph of the workspace, between files: `a` imports `b` when `a` writes a path
/// that names `b`'s module or something inside it. A module that re-exports (`pub use`) an item
/// of one of its own submodules does not use it: that is the shape of the module tree (the
/// crate's root showing what its files define), so it makes no edge.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for krate in crates() {
        for (module, text) in &krate.files {
            let own = file_of(&krate, module);
            graph.entry(own.clone()).or_default();
            let here: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
            for path in code_paths(text) {
                let mut at: Vec<String> = here.iter().map(|s| s.to_string()).collect();
                at.extend(path.inline.iter().cloned());
                let mut full = match path.anchor {
                    Anchor::Crate => Vec::new(),
                    Anchor::SelfModule => at,
                    Anchor::Super(n) => at[..at.len().saturating_sub(n)].to_vec(),
                };
                full.extend(path.segments.iter().cloned());
                // The longest start of the path that is a file's module.
                let target = (0..=full.len())
                    .rev()
                    .map(|k| full[..k].join("::"))
                    .find(|m| krate.files.contains_key(m))
                    .unwrap_or_default();
                let below = module.is_empty() || target.starts_with(&format!("{module}::"));
                if path.reexport && below {
                    continue;
                }
                let theirs = file_of(&krate, &target);
                if theirs != own {
                    graph.entry(own.clone()).or_default().insert(theirs);
                }
            }
        }
    }
    graph
}

/// Every circle, each once (found by a depth-first search with the way down on a stack).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        out: &mut Vec<Vec<String>>,
    ) {
        if let Some(i) = path.iter().position(|p| p == node) {
            let mut circle = path[i..].to_vec();
            circle.push(node.to_string());
            out.push(circle);
            return;
        }
        if !done.insert(node.to_string()) {
            return;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, path, done, out);
        }
        path.pop();
    }
    let (mut done, mut out) = (BTreeSet::new(), Vec::new());
    for node in graph.keys() {
        visit(node, graph, &mut Vec::new(), &mut done, &mut out);
    }
    out
}

/// The files `from` reaches through its imports.
fn reach(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![from.to_string()];
    while let Some(f) = todo.pop() {
        for next in graph.get(&f).into_iter().flatten() {
            if seen.insert(next.clone()) {
                todo.push(next.clone());
            }
        }
    }
    seen
}

#[test]
fn no_file_of_the_workspace_imports_itself_round_a_circle() {
    let graph = graph();
    assert!(graph.len() > 150, "the workspace's files were read ({} files)", graph.len());
    assert!(
        graph.get("crates/ai/src/level.rs").is_some_and(|to| to.contains("crates/ai/src/eval/mod.rs")),
        "paths are resolved to files"
    );
    let found: Vec<String> = circles(&graph).into_iter().map(|c| c.join(" -> ")).collect();
    assert!(found.is_empty(), "import circles between files:\n{}", found.join("\n"));
}

#[test]
fn the_certificate_checker_reaches_neither_the_search_nor_the_solved_table() {
    let graph = graph();
    assert!(graph.contains_key(CHECKER), "the checker is read");
    let reached = reach(&graph, CHECKER);
    let bad: Vec<&str> = SOLVER_ONLY.iter().copied().filter(|f| reached.contains(*f)).collect();
    assert!(bad.is_empty(), "{CHECKER} reaches {bad:?} (it reaches {reached:?})");
}

#[test]
fn a_circle_is_found_and_printed() {
    let edges = [("a.rs", "b.rs"), ("b.rs", "c.rs"), ("c.rs", "a.rs"), ("c.rs", "d.rs")];
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in edges {
        graph.entry(a.to_string()).or_default().insert(b.to_string());
    }
    let found: Vec<String> = circles(&graph).into_iter().map(|c| c.join(" -> ")).collect();
    assert_eq!(found, ["a.rs -> b.rs -> c.rs -> a.rs"]);
}
