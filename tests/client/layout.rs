//! The game's layout: `src/` is cut into wings (folders), each importing only the wings below
//! it, and no two modules import each other, directly or round a circle. Read from the
//! `crate::` paths of every file in `src/` (`use crate::...` lines and paths written inline), as
//! [`super::sources`] reads them.

use super::sources::{crate_paths, modules};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The wings, bottom first: a wing may use only the wings before it.
const WINGS: [&str; 10] =
    ["i18n", "platform", "app", "game", "board", "net", "players", "ui", "screens", "shell"];

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
