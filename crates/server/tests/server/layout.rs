//! The server library's modules import one another in one direction only: no two top-level
//! modules (`core`, `store`, `transport`, `tokens`, ...) use each other, directly or round a
//! circle, and no two files of one folder (`core/game.rs` and `core/spectators.rs`, say) do
//! either. Read from the code of every file under `src/` (comments and inline test modules left
//! out): every `crate::`, `super::` and `self::` path is resolved to the module it names. A
//! module's own submodules count as the module; a folder's `mod.rs` (like `lib.rs` for the
//! top-level modules) is the folder's hub, which declares and gathers its files, and is no
//! part of the folder's graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The leading identifier of `s`.
fn ident(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

/// The paths that `rest` (what follows a path's start, `core::game::X` or `{a, b::{c, d}}`)
/// names, each as its identifiers; a group names each of its items.
fn path_tails(rest: &str) -> Vec<Vec<String>> {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        // The group's items, split at its own commas.
        let mut items = Vec::new();
        let (mut depth, mut start) = (0usize, 0usize);
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    items.push(&group[start..i]);
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(&group[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        return items.into_iter().flat_map(path_tails).collect();
    }
    let first = ident(rest);
    if first.is_empty() {
        return vec![Vec::new()];
    }
    match rest[first.len()..].strip_prefix("::") {
        Some(more) => path_tails(more)
            .into_iter()
            .map(|tail| std::iter::once(first.to_string()).chain(tail).collect())
            .collect(),
        None => vec![vec![first.to_string()]],
    }
}

/// The modules and items named in `code`, a file of module `module` (`["core", "game"]` for
/// `src/core/game.rs`, `["core"]` for `src/core/mod.rs`), as paths from the crate's root:
/// `crate::store::Store` names `["store", "Store"]`; `super::limits::move_at` in `core/game.rs`
/// names `["core", "limits", "move_at"]`; `crate::{core, tokens::Grant}` names `["core"]` and
/// `["tokens", "Grant"]`.
fn named_paths(code: &str, module: &[String]) -> BTreeSet<Vec<String>> {
    let mut found = BTreeSet::new();
    for (i, _) in code.match_indices("::") {
        let before = &code[..i];
        let start = before.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
        if start.ends_with("::") {
            continue; // Inside a path: its start is read from there.
        }
        let mut base: Vec<String> = match &before[start.len()..] {
            "crate" => Vec::new(),
            "self" => module.to_vec(),
            "super" => module[..module.len().saturating_sub(1)].to_vec(),
            _ => continue,
        };
        let mut rest = &code[i + 2..];
        while let Some(more) = rest.strip_prefix("super::") {
            base.pop();
            rest = more;
        }
        for tail in path_tails(rest) {
            let path: Vec<String> = base.iter().cloned().chain(tail).collect();
            if !path.is_empty() {
                found.insert(path);
            }
        }
    }
    found
}

/// The top-level modules named after `crate::` in `code`: `crate::store::Store` names `store`,
/// `crate::{core, tokens::Grant}` names `core` and `tokens`.
fn named_modules(code: &str) -> BTreeSet<String> {
    named_paths(code, &[]).into_iter().map(|path| path[0].clone()).collect()
}

/// A file's code without its comments (line comments and doc comments) and its inline test
/// module (`mod tests { ... }`, whose `super` is the file itself).
fn code_of(text: &str) -> String {
    let code = text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    match code.find("mod tests {") {
        Some(at) => code[..at].to_string(),
        None => code,
    }
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

/// The module of a file under `src/`: `core/game.rs` is `["core", "game"]`, `core/mod.rs` is
/// `["core"]`, `lib.rs` is `[]`.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> =
        relative.components().filter_map(|c| c.as_os_str().to_str()).map(str::to_string).collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" && stem != "lib" {
            parts.push(stem.to_string());
        }
    }
    parts
}

/// The import graph of every folder, by the folder's path (`""` for `src/` itself, `"core"`
/// for `src/core/`): for each module in it, the modules of the same folder it names. `files`
/// are each file's module and code.
fn graphs(files: &[(Vec<String>, String)]) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let mut graphs: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    // Every module of every folder first, so that a path is known to name one.
    for (module, _) in files {
        for depth in 0..module.len() {
            graphs.entry(module[..depth].join("/")).or_default().entry(module[depth].clone()).or_default();
        }
    }
    for (module, code) in files {
        let named = named_paths(code, module);
        for depth in 0..module.len() {
            let (folder, me) = (&module[..depth], &module[depth]);
            let graph = graphs.get_mut(&folder.join("/")).expect("registered above");
            let uses: BTreeSet<String> = named
                .iter()
                .filter(|path| path.len() > depth && path[..depth] == *folder)
                .map(|path| path[depth].clone())
                .filter(|other| other != me && graph.contains_key(other))
                .collect();
            graph.get_mut(me).expect("registered above").extend(uses);
        }
    }
    graphs
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
    let files: Vec<(Vec<String>, String)> = files
        .iter()
        // The binary is a crate of its own.
        .filter(|(path, _)| !path.ends_with("main.rs"))
        .map(|(path, text)| (module_of(path.strip_prefix(&src).expect("under src/")), code_of(text)))
        .collect();
    let graphs = graphs(&files);
    let top = &graphs[""];
    assert!(top.len() >= 12 && top.contains_key("core") && top.contains_key("store"), "{top:?}");
    let core = &graphs["core"];
    assert!(core.len() >= 15 && core.contains_key("game") && core.contains_key("door"), "{core:?}");
    let found: Vec<String> = graphs
        .iter()
        .flat_map(|(folder, graph)| circles(graph).into_iter().map(move |c| format!("in src/{folder}: {c}")))
        .collect();
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

#[test]
fn super_and_self_paths_name_modules_of_their_folder() {
    let module = |m: &str| m.split('/').map(str::to_string).collect::<Vec<_>>();
    let code = "use super::limits::move_at;\nuse super::{door::Effect, Core};\nlet r = crate::core::rooms::Room::new();\n\
                use super::super::store::Store;\npub(super) fn f() { self::inner::g() }";
    let named: Vec<String> =
        named_paths(code, &module("core/game")).into_iter().map(|p| p.join("::")).collect();
    assert_eq!(
        named,
        [
            "core::Core",
            "core::door::Effect",
            "core::game::inner::g",
            "core::limits::move_at",
            "core::rooms::Room::new",
            "store::Store"
        ]
    );
    // Two files of one folder naming each other are a circle; the folder's hub naming both is not,
    // nor is an inline test module.
    let files = [
        (module("core"), "use game::LiveGame; use spectators::tally;".to_string()),
        (module("core/game"), "use super::spectators::tally; use super::Core;".to_string()),
        (module("core/spectators"), code_of("use super::game::move_at;")),
        (module("core/chat"), code_of("fn f() {}\n#[cfg(test)]\nmod tests {\n    use super::game::X;\n}")),
        (module("store"), "use crate::core::records::Op;".to_string()),
    ];
    let graphs = graphs(&files);
    assert_eq!(circles(&graphs["core"]), ["game -> spectators -> game"]);
    assert!(graphs["core"]["chat"].is_empty(), "{graphs:?}");
    assert!(circles(&graphs[""]).is_empty(), "{graphs:?}");
    assert_eq!(graphs[""]["store"], BTreeSet::from(["core".to_string()]));
}
