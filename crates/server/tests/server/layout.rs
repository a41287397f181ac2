//! The server library's modules import one another in one direction only: no two top-level
//! modules (`core`, `store`, `transport`, `tokens`, ...) use each other, directly or round a
//! circle. Read from the code of every file under `src/` (comments left out), where a module's
//! own submodules count as the module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level modules named after `crate::` in `code`: `crate::store::Store` names `store`,
/// `crate::{core, tokens::Grant}` names `core` and `tokens`.
fn named_modules(code: &str) -> BTreeSet<String> {
    let ident =
        |s: &str| -> String { s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect() };
    let mut found = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let after = &code[i + "crate::".len()..];
        match after.strip_prefix('{') {
            Some(group) => {
                // Only the group's own items, not the nested groups inside them.
                let mut depth = 0;
                let mut item_start = true;
                for (j, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => item_start = true,
                        c if c.is_whitespace() => {}
                        _ if item_start && depth == 0 => {
                            item_start = false;
                            found.insert(ident(&group[j..]));
                        }
                        _ => {}
                    }
                }
            }
            None => {
                found.insert(ident(after));
            }
        }
    }
    found.retain(|m| !m.is_empty());
    found
}

/// A file's code without its comments (line comments and doc comments).
fn code_of(text: &str) -> String {
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Every `.rs` file under `dir`, read whole.
fn sources(dir: &Path, out: &mut Vec<(std::path::PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("a source file");
            out.push((path, text));
        }
    }
}

/// The circles of `graph`, each as "a -> b -> a".
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut found = Vec::new();
    // Every simple path from each node, kept short by the graph's size (a dozen modules).
    fn walk(graph: &BTreeMap<String, BTreeSet<String>>, path: &mut Vec<String>, found: &mut Vec<String>) {
        let last = path.last().cloned().unwrap_or_default();
        for next in graph.get(&last).into_iter().flatten() {
            if next == &path[0] {
                found.push(format!("{} -> {next}", path.join(" -> ")));
            } else if !path.contains(next) && next > &path[0] {
                path.push(next.clone());
                walk(graph, path, found);
                path.pop();
            }
        }
    }
    for start in graph.keys() {
        walk(graph, &mut vec![start.clone()], &mut found);
    }
    found
}

#[test]
fn the_server_modules_form_no_import_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in &files {
        let relative = path.strip_prefix(&src).expect("under src/");
        let first = relative.components().next().and_then(|c| c.as_os_str().to_str()).unwrap_or_default();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let uses = graph.entry(module.clone()).or_default();
        uses.extend(named_modules(&code_of(text)).into_iter().filter(|m| *m != module));
    }
    assert!(graph.len() >= 12 && graph.contains_key("core") && graph.contains_key("store"), "{graph:?}");
    let found = circles(&graph);
    assert!(found.is_empty(), "import circles between the server's modules:\n{}", found.join("\n"));
}

#[test]
fn a_circle_and_every_form_of_crate_path_are_found() {
    let code = "use crate::core::records::Op;\nuse crate::{store, tokens::{Grant, credential_hash}};\nlet x = crate::web::f();";
    let named: Vec<String> = named_modules(code).into_iter().collect();
    assert_eq!(named, ["core", "store", "tokens", "web"]);
    assert_eq!(named_modules(&code_of("/// [`crate::core`]\nfn f() {} // crate::store")).len(), 0);
    let graph: BTreeMap<String, BTreeSet<String>> =
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec!["a"])]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.into_iter().map(str::to_string).collect()))
            .collect();
    assert_eq!(circles(&graph), ["a -> b -> c -> a"]);
}
