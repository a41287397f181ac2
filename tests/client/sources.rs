//! Reading Rust sources for the layout tests ([`super::layout`], [`super::imports`]): every `.rs`
//! file of a folder with its module path, and every path its code writes from the crate's root
//! (`crate::`, `$crate::`), from its parent (`super::`) or from itself (`self::`), in `use` lines
//! (groups expanded) and inline alike. Comments, strings and characters are left out.

use std::collections::BTreeMap;
use std::path::Path;

/// Where a path starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// `crate::` (or `$crate::` in a macro).
    Crate,
    /// `super::`, this many times.
    Super(usize),
    /// `self::`.
    SelfModule,
}

/// A path written in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodePath {
    /// The inline modules (`mod tests { ... }`) the path is written in, outermost first.
    pub inline: Vec<String>,
    /// Where the path starts.
    pub anchor: Anchor,
    /// The segments after the anchor (`game`, `session`, `Session` for
    /// `crate::game::session::Session`; none for `use super::*`).
    pub segments: Vec<String>,
    /// Whether the path is re-exported (`pub use`, `pub(crate) use`).
    pub reexport: bool,
}

/// Every `.rs` file under `dir`, with its module path (`game::session`, `game` for its
/// `mod.rs`, `lib` and `main` for the crate's roots) and its text.
pub fn modules(dir: &Path, prefix: &str, out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{} is readable: {e}", dir.display())) {
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

/// A token of code: a word (identifier, keyword, number) or one punctuation character, `::`
/// being one token.
fn tokens(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let word = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' || (c == 'r' && matches!(next, Some('"' | '#')) && raw_string_at(&chars, i)) {
            i = skip_string(&chars, i);
            out.push("\"\"".to_string());
        } else if c == 'b' && next == Some('"') {
            i = skip_string(&chars, i + 1);
            out.push("\"\"".to_string());
        } else if c == '\'' {
            // A character ('x', '\n', '\u{..}') or a lifetime ('a).
            if next == Some('\\') {
                // Past the quote, the backslash and the escaped character ('\'', '\u{..}').
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
            out.push("'".to_string());
        } else if word(c) {
            let start = i;
            while i < chars.len() && word(chars[i]) {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else if c == ':' && next == Some(':') {
            out.push("::".to_string());
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
            i += 1;
        }
    }
    out
}

/// Whether a raw string (`r"`, `r#"`) starts at `i` (and not an identifier ending in `r`).
fn raw_string_at(chars: &[char], i: usize) -> bool {
    let before_is_word = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
    let mut j = i + 1;
    while chars.get(j) == Some(&'#') {
        j += 1;
    }
    !before_is_word && chars.get(j) == Some(&'"')
}

/// The index after the string literal starting at `i` (`"..."`, `r"..."`, `r#"..."#`).
fn skip_string(chars: &[char], mut i: usize) -> usize {
    if chars[i] == 'r' {
        i += 1;
        let mut hashes = 0;
        while chars.get(i) == Some(&'#') {
            hashes += 1;
            i += 1;
        }
        i += 1;
        while i < chars.len() {
            if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                return i + 1 + hashes;
            }
            i += 1;
        }
        return i;
    }
    i += 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// Reads a path's tail at `tokens[*i..]` (after its anchor and `::`): segments joined by `::`,
/// a `{...}` group of such tails, or `*`. Adds every full path to `out`.
fn tail(tokens: &[String], i: &mut usize, head: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut path = head;
    loop {
        match tokens.get(*i).map(String::as_str) {
            Some("{") => {
                *i += 1;
                while *i < tokens.len() && tokens[*i] != "}" {
                    if tokens[*i] == "," {
                        *i += 1;
                        continue;
                    }
                    tail(tokens, i, path.clone(), out);
                }
                *i += 1;
                return;
            }
            Some("*") => {
                *i += 1;
                out.push(path);
                return;
            }
            Some(t) if t.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') => {
                // `self` inside a group names the group's own path.
                if t != "self" {
                    path.push(t.to_string());
                }
                *i += 1;
                if tokens.get(*i).map(String::as_str) == Some("::") {
                    *i += 1;
                    continue;
                }
                if tokens.get(*i).map(String::as_str) == Some("as") {
                    *i += 2;
                }
                out.push(path);
                return;
            }
            _ => {
                out.push(path);
                return;
            }
        }
    }
}

/// Every path in `text` that starts at `crate::`, `$crate::`, `super::` or `self::`, with the
/// inline modules it is written in.
pub fn code_paths(text: &str) -> Vec<CodePath> {
    let tokens = tokens(text);
    let mut out = Vec::new();
    // The inline modules open, with the brace depth inside each.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i].as_str();
        match t {
            "{" => {
                depth += 1;
                i += 1;
                continue;
            }
            "}" => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth -= 1;
                i += 1;
                continue;
            }
            "mod" if tokens.get(i + 2).map(String::as_str) == Some("{") => {
                inline.push((tokens[i + 1].clone(), depth + 1));
                i += 2;
                continue;
            }
            _ => {}
        }
        let after_path = i > 0 && tokens[i - 1] == "::";
        let anchor = match t {
            "crate" => Some(Anchor::Crate),
            "super" => Some(Anchor::Super(1)),
            "self" => Some(Anchor::SelfModule),
            _ => None,
        };
        let (Some(mut anchor), false, Some("::")) =
            (anchor, after_path, tokens.get(i + 1).map(String::as_str))
        else {
            i += 1;
            continue;
        };
        let reexport = i >= 2 && tokens[i - 1] == "use" && {
            // `pub use`, or `pub(...) use`.
            let mut j = i - 2;
            if tokens[j] == ")" {
                while j > 0 && tokens[j] != "(" {
                    j -= 1;
                }
                j = j.saturating_sub(1);
            }
            tokens[j] == "pub"
        };
        i += 2;
        while let (Anchor::Super(n), Some("super"), Some("::")) =
            (anchor, tokens.get(i).map(String::as_str), tokens.get(i + 1).map(String::as_str))
        {
            anchor = Anchor::Super(n + 1);
            i += 2;
        }
        let mut paths = Vec::new();
        tail(&tokens, &mut i, Vec::new(), &mut paths);
        let modules: Vec<String> = inline.iter().map(|(m, _)| m.clone()).collect();
        out.extend(paths.into_iter().map(|segments| CodePath {
            inline: modules.clone(),
            anchor,
            segments,
            reexport,
        }));
    }
    out
}

/// Every `crate::` path in `text`, as its first two segments: `game::session` from
/// `use crate::game::session::{...}`, both `app::Screen` and `game::session` from
/// `use crate::{app::Screen, game::session}` (the same two written one after the other once).
pub fn crate_paths(text: &str) -> Vec<(String, Option<String>)> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for path in code_paths(text).into_iter().filter(|p| p.anchor == Anchor::Crate) {
        let mut segs = path.segments.into_iter();
        let Some(first) = segs.next() else { continue };
        let item = (first, segs.next());
        if out.last() != Some(&item) {
            out.push(item);
        }
    }
    out
}

#[test]
fn paths_are_read_from_nested_groups_inline_modules_and_macros() {
    let text = r#"
use super::super::a::{b::{self, C}, d as e};
const S: &str = "crate::not::a_path {";
mod tests {
    use super::*;
    fn f() { let c = '{'; let q = '\''; self::g(); }
}
macro_rules! m { () => { $crate::h::I } }
pub(crate) use crate::j::K;
"#;
    let read: Vec<String> = code_paths(text)
        .into_iter()
        .map(|p| {
            let kind = if p.reexport { "pub " } else { "" };
            format!("{kind}{}|{:?}|{}", p.inline.join("::"), p.anchor, p.segments.join("::"))
        })
        .collect();
    assert_eq!(
        read,
        [
            "|Super(2)|a::b",
            "|Super(2)|a::b::C",
            "|Super(2)|a::d",
            "tests|Super(1)|",
            "tests|SelfModule|g",
            "|Crate|h::I",
            "pub |Crate|j::K",
        ]
    );
}
