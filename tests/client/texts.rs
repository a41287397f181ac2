//! The interface's words: the two Fluent files (`assets/i18n/*.ftl`) parse, have the same
//! messages with the same variables, and hold exactly the ids the code uses; the Vietnamese is
//! translated and follows the glossary.

use ludus::i18n::{Lang, errors, ids, template, variables};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A message's text with its variables written `{}`.
fn text(lang: Lang, id: &str) -> String {
    template(lang, id).unwrap_or_else(|| panic!("{lang:?} has no message {id}"))
}

#[test]
fn the_fluent_files_parse_without_errors() {
    for lang in Lang::ALL {
        assert!(errors(lang).is_empty(), "{}.ftl: {:#?}", lang.code(), errors(lang));
        assert!(ids(lang).len() > 250, "{}.ftl has {} messages", lang.code(), ids(lang).len());
    }
}

#[test]
fn english_and_vietnamese_have_the_same_messages() {
    let en: Vec<_> = ids(Lang::En);
    let vi: Vec<_> = ids(Lang::Vi);
    let en_set: BTreeSet<_> = en.iter().collect();
    let vi_set: BTreeSet<_> = vi.iter().collect();
    assert_eq!(en.len(), en_set.len(), "English has a duplicate id");
    assert_eq!(vi.len(), vi_set.len(), "Vietnamese has a duplicate id");
    let missing: Vec<_> = en_set.difference(&vi_set).collect();
    let extra: Vec<_> = vi_set.difference(&en_set).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing in vi: {missing:?}; extra in vi: {extra:?}");
}

#[test]
fn variables_match_between_languages() {
    let differ: Vec<_> = ids(Lang::En)
        .into_iter()
        .filter(|id| variables(Lang::En, id) != variables(Lang::Vi, id))
        .map(|id| format!("{id}: en {:?}, vi {:?}", variables(Lang::En, id), variables(Lang::Vi, id)))
        .collect();
    assert!(differ.is_empty(), "the languages' variables differ:\n{}", differ.join("\n"));
}

/// How the code names a message: `.t("id")` (a plain message), `.fmt("id", [("name", ..)])` (a
/// message with variables), `id!("id")` (a message chosen at run time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    Plain,
    Format,
    Chosen,
}

/// One place where the code names a message.
struct Site {
    place: String,
    id: String,
    how: Use,
    /// The variables a `.fmt` call passes.
    args: BTreeSet<String>,
}

/// The string literal at the start of `s` (after spaces), if there is one.
fn literal(s: &str) -> Option<&str> {
    let s = s.trim_start().strip_prefix('"')?;
    s.find('"').map(|end| &s[..end])
}

/// The text of the call whose arguments start at `s` (just after its `(`), up to its `)`.
fn call_text(s: &str) -> &str {
    let (mut depth, mut quoted, mut escaped) = (1, false, false);
    for (i, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '(' | '[' | '{' if !quoted => depth += 1,
            ')' | ']' | '}' if !quoted => {
                depth -= 1;
                if depth == 0 {
                    return &s[..i];
                }
            }
            _ => {}
        }
    }
    s
}

/// The names of the `("name", value)` pairs in a `.fmt` call's array of arguments (its own,
/// not those of calls nested in the values).
fn argument_names(call: &str) -> BTreeSet<String> {
    let Some(open) = call.find('[') else { return BTreeSet::new() };
    let array = call_text(&call[open + 1..]);
    let (mut depth, mut quoted, mut escaped, mut names) = (0, false, false, BTreeSet::new());
    for (i, c) in array.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '(' | '[' | '{' if !quoted => {
                depth += 1;
                if c == '(' && depth == 1 {
                    names.extend(literal(&array[i + 1..]).map(str::to_string));
                }
            }
            ')' | ']' | '}' if !quoted => depth -= 1,
            _ => {}
        }
    }
    names
}

/// Every message the game's sources name (outside `src/i18n`, which defines the API), and every
/// call of the API whose id is not a literal.
fn sites() -> (Vec<Site>, Vec<String>) {
    fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a readable directory").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, files);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root.join("src"), &mut files);
    // The files that define the API (their examples are no uses of it).
    files.retain(|f| *f != root.join("src/i18n/mod.rs") && *f != root.join("src/i18n/fluent.rs"));
    files.sort();
    assert!(files.len() > 30, "the scan found {} files", files.len());
    let (mut sites, mut bad) = (Vec::new(), Vec::new());
    for file in files {
        let source = std::fs::read_to_string(&file).expect("a readable source");
        // Comments may show the API without being a use of it.
        let code: String = source
            .lines()
            .map(|l| if l.trim_start().starts_with("//") { "" } else { l })
            .collect::<Vec<_>>()
            .join("\n");
        let name = file.strip_prefix(root).unwrap_or(&file).display().to_string();
        for (pattern, how) in [(".t(", Use::Plain), (".fmt(", Use::Format), ("id!(", Use::Chosen)] {
            for (at, _) in code.match_indices(pattern) {
                let line = code[..at].lines().count().max(1);
                let place = format!("{name}:{line}");
                let after = &code[at + pattern.len()..];
                match literal(after) {
                    Some(id) => {
                        let args = if how == Use::Format {
                            argument_names(call_text(after))
                        } else {
                            BTreeSet::new()
                        };
                        sites.push(Site { place, id: id.to_string(), how, args });
                    }
                    None => bad.push(format!("{place}: `{pattern}` needs a literal id (or an `id!`)")),
                }
            }
        }
        for (at, _) in code.match_indices("Id::literal(") {
            bad.push(format!("{name}:{}: an `Id` is made with `id!`", code[..at].lines().count()));
        }
    }
    (sites, bad)
}

#[test]
fn the_code_and_the_fluent_files_have_the_same_ids() {
    let (sites, bad) = sites();
    assert!(bad.is_empty(), "ids the scan cannot read:\n{}", bad.join("\n"));
    assert!(sites.len() > 250, "the scan found only {} uses", sites.len());
    let mut problems = Vec::new();
    for site in &sites {
        for lang in Lang::ALL {
            let Some(vars) = variables(lang, &site.id) else {
                problems.push(format!("{}: {} is not in {}.ftl", site.place, site.id, lang.code()));
                continue;
            };
            let vars: BTreeSet<String> = vars.into_iter().map(str::to_string).collect();
            match site.how {
                Use::Plain if !vars.is_empty() => {
                    problems.push(format!("{}: {} has variables {vars:?}: use .fmt", site.place, site.id))
                }
                Use::Format if site.args != vars => problems.push(format!(
                    "{}: {} is given {:?} but {}.ftl uses {vars:?}",
                    site.place,
                    site.id,
                    site.args,
                    lang.code()
                )),
                _ => {}
            }
        }
    }
    let used: BTreeSet<&str> = sites.iter().map(|s| s.id.as_str()).collect();
    for lang in Lang::ALL {
        for id in ids(lang).into_iter().filter(|id| !used.contains(id)) {
            problems.push(format!("{}.ftl: {id} is used nowhere in the code", lang.code()));
        }
    }
    problems.dedup();
    assert!(problems.is_empty(), "the code and the Fluent files disagree:\n{}", problems.join("\n"));
}

#[test]
fn the_scan_reads_the_calls_it_checks() {
    let call = r#"lang.fmt("net-proposal", [("move", p.mv.as_str().into()), ("count", f(("x", 1)).into())])"#;
    let args = &call["lang.fmt(".len()..];
    assert_eq!(literal(args), Some("net-proposal"));
    let names: Vec<_> = argument_names(call_text(args)).into_iter().collect();
    assert_eq!(names, ["count", "move"]);
    assert_eq!(literal(" variant_key(v))"), None);
    let by_id: BTreeMap<_, _> = sites().0.into_iter().map(|s| (s.id.clone(), s)).collect();
    assert_eq!(by_id["game-alquerque"].how, Use::Chosen, "variant names are chosen at run time");
}

#[test]
fn vietnamese_is_really_translated() {
    let same: Vec<_> = ids(Lang::En)
        .into_iter()
        .filter(|id| {
            text(Lang::En, id) == text(Lang::Vi, id) && !id.starts_with("game-") && *id != "app-title"
        })
        .filter(|id| !id.ends_with("-title") || id.starts_with("settings") || id.starts_with("over"))
        .collect();
    assert!(same.is_empty(), "untranslated: {same:?}");
}

/// One concept of the glossary (`assets/i18n/GLOSSARY.md`).
struct Term {
    english: Vec<String>,
    vietnamese: Vec<String>,
    forbidden: Vec<String>,
}

/// The rows of the glossary's table (`assets/i18n/GLOSSARY.md`): `| English | Vietnamese |
/// Never |`, forms separated by `\|`, `-` for none.
fn glossary() -> Vec<Term> {
    let split = |s: &str| -> Vec<String> {
        let s = s.trim();
        if s == "-" { Vec::new() } else { s.split("\\|").map(|w| w.trim().to_lowercase()).collect() }
    };
    include_str!("../../assets/i18n/GLOSSARY.md")
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---") && !l.starts_with("| English"))
        .map(|l| {
            // The columns: split on the bars that are not escaped.
            let mut cols = Vec::new();
            let mut cell = String::new();
            let mut chars = l.trim().trim_matches('|').chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' if chars.peek() == Some(&'|') => {
                        cell.push_str("\\|");
                        chars.next();
                    }
                    '|' => cols.push(std::mem::take(&mut cell)),
                    c => cell.push(c),
                }
            }
            cols.push(cell);
            assert_eq!(cols.len(), 3, "a glossary row needs three columns: {l}");
            Term { english: split(&cols[0]), vietnamese: split(&cols[1]), forbidden: split(&cols[2]) }
        })
        .collect()
}

/// Whether `text` contains `word` as a whole word (ASCII letters around it end a word).
fn has_word(text: &str, word: &str) -> bool {
    let text = text.to_lowercase();
    let is_letter = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '\'');
    text.match_indices(word).any(|(i, _)| {
        !is_letter(text[..i].chars().next_back()) && !is_letter(text[i + word.len()..].chars().next())
    })
}

/// Where the Vietnamese `vi` drifts from the glossary for the English `en` (`what` names them).
pub fn drift(what: &str, en: &str, vi: &str) -> Vec<String> {
    let vi = vi.to_lowercase();
    let mut drift = Vec::new();
    for term in glossary() {
        if term.english.iter().any(|w| has_word(en, w))
            && !term.vietnamese.iter().any(|w| vi.contains(w.as_str()))
        {
            drift.push(format!(
                "{what}: '{}' should say '{}'",
                term.english[0],
                term.vietnamese.join("' or '")
            ));
        }
        for bad in &term.forbidden {
            if vi.contains(bad.as_str()) {
                drift.push(format!("{what}: '{bad}' is not the word for '{}'", term.english[0]));
            }
        }
    }
    drift
}

#[test]
fn the_vietnamese_words_follow_the_glossary() {
    assert!(glossary().len() >= 10, "the glossary has {} terms", glossary().len());
    let drift: Vec<String> = ids(Lang::En)
        .into_iter()
        .flat_map(|id| drift(id, &text(Lang::En, id), &text(Lang::Vi, id)))
        .collect();
    assert!(drift.is_empty(), "the texts drift from the glossary:\n{}", drift.join("\n"));
}

#[test]
fn the_glossary_check_catches_drift() {
    assert!(has_word("The king is lost", "king"));
    assert!(!has_word("Kingdom", "king"));
    assert!(has_word("the king's side", "king's"));
}

#[test]
fn the_colour_names_match_what_every_theme_draws() {
    use ludus::board::palette::Colors;
    use ludus::game::settings::Theme;
    use ludus_rules::Side;
    for theme in Theme::ALL {
        let colors = Colors::of(theme);
        let body = |alquerque, side| colors.piece(alquerque, side, false)[1].to_srgba();
        // Latrunculi: "Red" is red, "Black" is dark; Alquerque: "White" is light.
        let red = body(false, Side::First);
        assert!(red.red > red.green + 0.4 && red.red > red.blue + 0.4, "{theme:?}: Red is drawn {red:?}");
        for (alquerque, side) in [(false, Side::Second), (true, Side::Second)] {
            let black = body(alquerque, side);
            assert!(black.red.max(black.green).max(black.blue) < 0.25, "{theme:?}: Black is drawn {black:?}");
        }
        let white = body(true, Side::First);
        assert!(white.red.min(white.green).min(white.blue) > 0.85, "{theme:?}: White is drawn {white:?}");
    }
}

#[test]
fn the_lessons_follow_the_glossary() {
    let mut drift_found = Vec::new();
    let mut checked = 0;
    for (name, source) in [
        ("latrunculi", include_str!("../../assets/lessons/latrunculi.json")),
        ("alquerque", include_str!("../../assets/lessons/alquerque.json")),
    ] {
        let doc: serde_json::Value = serde_json::from_str(source).expect("a lessons file is JSON");
        let lessons = doc["lessons"].as_array().expect("a lessons file has lessons");
        for (i, lesson) in lessons.iter().enumerate() {
            for field in ["title", "text", "task"] {
                let (Some(en), Some(vi)) = (lesson[field]["en"].as_str(), lesson[field]["vi"].as_str())
                else {
                    continue;
                };
                checked += 1;
                drift_found.extend(drift(&format!("{name} lesson {} {field}", i + 1), en, vi));
            }
        }
    }
    assert!(checked >= 30, "only {checked} lesson texts were read");
    assert!(drift_found.is_empty(), "the lessons drift from the glossary:\n{}", drift_found.join("\n"));
}

#[test]
fn a_record_that_cannot_be_read_is_told_in_the_players_language() {
    use ludus::game::records::{PasteError, parse_pasted};
    let bad = [
        "",
        "{\"variant\": 3}",
        "chess e4",
        "alquerque WWWWW/WWWWW/WW1BB/BBBBB/BBBBB x",
        "alquerque WWWWW/WWWWW/WW1BB/BBBBB w",
        "alquerque WWWWW/WWWWW/WWXBB/BBBBB/BBBBB w",
        "alquerque WWWW/WWWWW/WW1BB/BBBBB/BBBBB w",
        "alquerque c2-c3 c4xc2 zz",
        "alquerque c2-c3 c4-c3",
        "alquerque a3-a4",
        "latrunculi-quick 8/8/8/8/8/8/8/K6k r",
        "latrunculi-quick rrrrrrrr/8/8/8/8/8/8/RRRRRRRR r",
        "latrunculi a1-a9",
        "latrunculi g2-h3",
    ];
    for text in bad {
        let error = parse_pasted(text).expect_err(text);
        let (en, vi) = (error.text(Lang::En), error.text(Lang::Vi));
        assert_ne!(en, vi, "{text:?}: the same words in both languages: {en}");
        // No sentence of the rules engine's own English reaches the Vietnamese text.
        let engine = match &error {
            PasteError::Game(e) => Some(e.message.clone()),
            PasteError::Record(ludus_rules::RecordError::Position(e)) => Some(e.message.clone()),
            PasteError::Record(ludus_rules::RecordError::Move { error, .. }) => Some(error.message.clone()),
            _ => None,
        };
        if let Some(engine) = engine {
            assert!(!vi.contains(&engine), "{text:?}: {vi}");
            for word in ["expected", "not legal", "is not", "there is", "has no", "board"] {
                assert!(!vi.contains(word), "{text:?}: '{word}' in {vi}");
            }
        }
        assert!(!vi.is_empty() && !vi.contains("parse-") && !vi.contains("record-"), "{text:?}: {vi}");
    }
}

#[test]
fn a_server_of_another_version_is_told_in_the_players_language() {
    use ludus::net::connection::{Link, LinkFailure, LinkState};
    let ours = ludus_protocol::PROTOCOL_VERSION;
    for (theirs, en_word, vi_word) in [(ours + 1, "older", "cũ hơn"), (ours - 1, "newer", "mới hơn")] {
        let mut net = Link::default();
        net.phase = LinkState::Failed(LinkFailure::Incompatible(theirs));
        let (_, en) = ludus::ui::widgets::link_text(Lang::En, &net);
        let (_, vi) = ludus::ui::widgets::link_text(Lang::Vi, &net);
        for text in [&en, &vi] {
            assert!(text.contains(&ours.to_string()) && text.contains(&theirs.to_string()), "{text}");
        }
        assert!(en.contains(en_word), "{en}");
        assert!(vi.contains(vi_word), "{vi}");
    }
}
