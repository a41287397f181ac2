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

/// The messages that may read the same in both languages: names (of the games, of the project),
/// notation and words Vietnamese takes as they are ("Menu", "OK"). Every other message of one
/// language differs from the other's.
const SAME_IN_BOTH: &[&str] = &[
    // The games' and the project's names.
    "game-latrunculi",
    "game-alquerque",
    "rules-latrunculi-title",
    "rules-alquerque-title",
    "title-card-latrunculi",
    "title-card-latrunculi-quick",
    "title-card-alquerque",
    // A word Vietnamese games use as it is.
    "hud-menu",
    // Punctuation around names: "d4, red soldier", "Red: king g2".
    "a11y-square",
    "a11y-side",
];

#[test]
fn no_message_reads_the_same_in_both_languages() {
    let same: Vec<_> =
        ids(Lang::En).into_iter().filter(|id| text(Lang::En, id) == text(Lang::Vi, id)).collect();
    let unexpected: Vec<_> = same.iter().filter(|id| !SAME_IN_BOTH.contains(id)).collect();
    assert!(unexpected.is_empty(), "the same text in both languages (untranslated?): {unexpected:?}");
    // The allow-list names only messages that exist.
    for id in SAME_IN_BOTH {
        assert!(variables(Lang::En, id).is_some(), "{id} in SAME_IN_BOTH is no message");
    }
}

/// Whether `text` holds a run of three or more words of plain ASCII letters with an English
/// function word among them: an English sentence (a system's or a library's message) inside the
/// text. Numbers and punctuation neither count nor break a run.
pub fn english_sentence(text: &str) -> Option<String> {
    const ENGLISH: &[&str] = &[
        "the",
        "is",
        "not",
        "to",
        "of",
        "a",
        "an",
        "no",
        "could",
        "be",
        "was",
        "denied",
        "refused",
        "error",
        "unknown",
        "found",
        "available",
        "expected",
        "invalid",
        "such",
        "file",
        "or",
    ];
    let mut run: Vec<&str> = Vec::new();
    let mut worst = None;
    let words = text.split(|c: char| c.is_whitespace() || "()[]{}:;,.“”\"/-".contains(c));
    for word in words.filter(|w| !w.is_empty()) {
        if word.chars().all(|c| c.is_ascii_digit() || c.is_ascii_punctuation()) {
            continue;
        }
        if word.chars().all(|c| c.is_ascii_alphabetic() || c == '\'') {
            run.push(word);
            let english = run.iter().any(|w| ENGLISH.contains(&w.to_lowercase().as_str()));
            if run.len() >= 3 && english {
                worst = Some(run.join(" "));
            }
        } else {
            run.clear();
        }
    }
    worst
}

#[test]
fn no_vietnamese_message_holds_an_english_sentence() {
    let english: Vec<_> = ids(Lang::Vi)
        .into_iter()
        .filter_map(|id| english_sentence(&text(Lang::Vi, id)).map(|s| format!("{id}: {s}")))
        .collect();
    assert!(english.is_empty(), "English inside Vietnamese messages:\n{}", english.join("\n"));
}

/// One concept of the glossary (`assets/i18n/GLOSSARY.md`).
struct Term {
    english: Vec<String>,
    vietnamese: Vec<String>,
    forbidden: Vec<String>,
}

/// A Vietnamese word kept for one thing: a text that uses it says one of `english`.
struct Kept {
    vietnamese: String,
    english: Vec<String>,
}

/// The rows of the glossary's tables (`assets/i18n/GLOSSARY.md`), cells split on the bars that
/// are not escaped, each a list of forms (`\|` between them, `-` for none).
fn glossary_tables() -> Vec<Vec<Vec<Vec<String>>>> {
    let split = |s: &str| -> Vec<String> {
        let s = s.trim();
        if s == "-" { Vec::new() } else { s.split("\\|").map(|w| w.trim().to_lowercase()).collect() }
    };
    let mut tables: Vec<Vec<Vec<Vec<String>>>> = Vec::new();
    let mut in_table = false;
    for l in include_str!("../../assets/i18n/GLOSSARY.md").lines() {
        if !l.starts_with('|') {
            in_table = false;
            continue;
        }
        if !in_table {
            // The header row starts a table.
            in_table = true;
            tables.push(Vec::new());
            continue;
        }
        if l.starts_with("|---") {
            continue;
        }
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
        tables.last_mut().expect("a table").push(cols.iter().map(|c| split(c)).collect());
    }
    tables
}

/// The terms: the glossary's first table, `| English | Vietnamese | Never |`.
fn glossary() -> Vec<Term> {
    let tables = glossary_tables();
    tables[0]
        .iter()
        .map(|cols| {
            assert_eq!(cols.len(), 3, "a glossary row needs three columns: {cols:?}");
            Term { english: cols[0].clone(), vietnamese: cols[1].clone(), forbidden: cols[2].clone() }
        })
        .collect()
}

/// The words kept for one thing: the glossary's second table, `| Vietnamese | Only for |`.
fn kept_words() -> Vec<Kept> {
    let tables = glossary_tables();
    assert!(tables.len() >= 2, "the glossary has no table of words kept for one thing");
    tables[1]
        .iter()
        .map(|cols| {
            assert_eq!(cols.len(), 2, "a row of kept words needs two columns: {cols:?}");
            Kept { vietnamese: cols[0][0].clone(), english: cols[1].clone() }
        })
        .collect()
}

/// Whether `text` contains `word` (one word or several) as whole words: the characters around
/// it are no letters, digits or apostrophes, so "ô" is not found in "không" nor "king" in
/// "kingdom". Case is ignored.
fn has_word(text: &str, word: &str) -> bool {
    let text = text.to_lowercase();
    let word = word.to_lowercase();
    let is_letter = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '\'' || c == '’');
    text.match_indices(word.as_str()).any(|(i, _)| {
        !is_letter(text[..i].chars().next_back()) && !is_letter(text[i + word.len()..].chars().next())
    })
}

/// Where the Vietnamese `vi` drifts from the glossary for the English `en` (`what` names them).
pub fn drift(what: &str, en: &str, vi: &str) -> Vec<String> {
    let mut drift = Vec::new();
    for term in glossary() {
        if term.english.iter().any(|w| has_word(en, w)) && !term.vietnamese.iter().any(|w| has_word(vi, w)) {
            drift.push(format!(
                "{what}: '{}' should say '{}'",
                term.english[0],
                term.vietnamese.join("' or '")
            ));
        }
        for bad in &term.forbidden {
            if has_word(vi, bad) {
                drift.push(format!("{what}: '{bad}' is not the word for '{}'", term.english[0]));
            }
        }
    }
    for kept in kept_words() {
        if has_word(vi, &kept.vietnamese) && !kept.english.iter().any(|w| has_word(en, w)) {
            drift.push(format!(
                "{what}: '{}' stands only for '{}'",
                kept.vietnamese,
                kept.english.join("' or '")
            ));
        }
    }
    drift
}

#[test]
fn the_vietnamese_words_follow_the_glossary() {
    assert!(glossary().len() >= 40, "the glossary has {} terms", glossary().len());
    let drift: Vec<String> = ids(Lang::En)
        .into_iter()
        .flat_map(|id| drift(id, &text(Lang::En, id), &text(Lang::Vi, id)))
        .collect();
    assert!(drift.is_empty(), "the texts drift from the glossary:\n{}", drift.join("\n"));
}

#[test]
fn the_glossary_check_matches_whole_words() {
    assert!(has_word("The king is lost", "king"));
    assert!(!has_word("Kingdom", "king"));
    assert!(has_word("the king's side", "king's"));
    assert!(!has_word("the king's side", "king"));
    // Vietnamese words are whole syllables: "ô" is not in "không", "ăn" not in "văn".
    assert!(!has_word("Không có gì", "ô"));
    assert!(has_word("ô trống d4", "ô"));
    assert!(!has_word("văn bản", "ăn"));
    assert!(has_word("Ăn quân đen", "ăn"));
    // Several words match together, and only whole.
    assert!(has_word("một chuỗi ăn liên tiếp", "ăn liên tiếp"));
    assert!(!has_word("giăn liên tiếp", "ăn liên tiếp"));
    // The drift the glossary exists to catch.
    assert!(!drift("t", "the opponent's king", "vua của đối phương").is_empty());
    assert!(drift("t", "the opponent's king", "vua của đối thủ").is_empty());
    assert!(!drift("t", "along a rank or a file", "theo hàng hoặc hàng dọc").is_empty());
    assert!(!drift("t", "a chain of captures", "một chuỗi nhảy").is_empty());
    assert!(!drift("t", "Your rating: 1500", "Điểm của bạn: 1500").is_empty());
    assert!(!drift("t", "Back to the menu", "Về trình đơn").is_empty());
    assert!(drift("t", "Back to the menu", "Về menu").is_empty());
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
            for field in ["title", "text", "task", "hint"] {
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
