//! The game's layout: `src/` is cut into wings (folders), each importing only the wings below
//! it, and no two modules import each other, directly or round a circle. Read from the
//! `crate::` paths of every file in `src/` (`use crate::...` lines and paths written inline).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The wings, bottom first: a wing may use only the wings before it.
const WINGS: [&str; 10] =
    ["i18n", "platform", "app", "game", "board", "net", "players", "ui", "screens", "shell"];

/// Every `crate::` path in `text` (comments left out), as its first two segments: `game::session`
/// from `use crate::game::session::{...}`, both `app::Screen` and `game::session` from
/// `use crate::{app::Screen, game::session}`.
fn crate_paths(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let after = &rest[i + "crate::".len()..];
            if let Some(group) = after.strip_prefix('{') {
                let inner = group.split('}').next().unwrap_or("");
                for item in inner.split(',') {
                    let mut segs = item.trim().split("::").map(str::trim);
                    if let Some(first) = segs.next().filter(|s| !s.is_empty()) {
                        out.push((first.to_string(), segs.next().map(str::to_string)));
                    }
                }
            } else {
                let ident =
                    |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
                let first = ident(after);
                let second = after[first.len()..].strip_prefix("::").map(ident).filter(|s| !s.is_empty());
                if !first.is_empty() {
                    out.push((first, second));
                }
            }
            rest = after;
        }
    }
    out
}

/// Every `.rs` file under `dir`, with its module path (`game::session`, `game` for its `mod.rs`).
fn modules(dir: &Path, prefix: &str, out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        let module = if prefix.is_empty() { name.clone() } else { format!("{prefix}::{name}") };
        if path.is_dir() {
            modules(&path, &module, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let module = if name == "mod" { prefix.to_string() } else { module };
            out.insert(module, std::fs::read_to_string(&path).expect("a source file"));
        }
    }
}

#[test]
fn wings_import_only_wings_below_them_and_modules_form_no_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = BTreeMap::new();
    modules(&src, "", &mut files);
    // The library's root, and the binaries (`main.rs`, `bin/`): they use the library from
    // outside, as `ludus::`.
    files.remove("lib");
    files.remove("main");
    files.retain(|module, _| !module.starts_with("bin::"));
    let rank = |wing: &str| WINGS.iter().position(|w| *w == wing);
    let mut problems = Vec::new();
    // Module graph: `a::b` uses `c::d` (or `c` when `c` has no such module).
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, text) in &files {
        let wing = module.split("::").next().unwrap_or_default();
        let Some(own) = rank(wing) else {
            problems
                .push(format!("src/{} is in no wing (a folder listed in WINGS)", module.replace("::", "/")));
            continue;
        };
        for (first, second) in crate_paths(text) {
            let Some(theirs) = rank(&first) else {
                problems.push(format!("{module} uses crate::{first}, which is no wing"));
                continue;
            };
            if theirs > own {
                problems.push(format!(
                    "upward import: {module} ({wing}) uses crate::{first} ({first} is above {wing})"
                ));
            }
            let target =
                second.map(|s| format!("{first}::{s}")).filter(|t| files.contains_key(t)).unwrap_or(first);
            if target != *module && !module.starts_with(&format!("{target}::")) {
                graph.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    // A circle: depth-first search with the path on the stack.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        circles: &mut Vec<String>,
    ) {
        if let Some(i) = path.iter().position(|p| p == node) {
            let mut circle = path[i..].to_vec();
            circle.push(node.to_string());
            circles.push(circle.join(" -> "));
            return;
        }
        if !done.insert(node.to_string()) {
            return;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, path, done, circles);
        }
        path.pop();
    }
    let (mut done, mut circles) = (BTreeSet::new(), Vec::new());
    for node in graph.keys() {
        visit(node, &graph, &mut Vec::new(), &mut done, &mut circles);
    }
    problems.extend(circles.into_iter().map(|c| format!("import circle: {c}")));
    assert!(problems.is_empty(), "the layout is broken:\n{}", problems.join("\n"));
    assert!(files.len() > 30, "the wings' files were found ({} modules)", files.len());
}

#[test]
fn paths_are_read_from_every_form_of_use() {
    let text = "use crate::game::session::{A, B};\nuse crate::{app::Screen, board};\n// crate::shell::x\nlet x = crate::net::sync::f();";
    let paths = crate_paths(text);
    let names: Vec<String> =
        paths.iter().map(|(a, b)| format!("{a}:{}", b.as_deref().unwrap_or(""))).collect();
    assert_eq!(names, ["game:session", "app:Screen", "board:", "net:sync"]);
}
