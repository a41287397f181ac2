//! The interface's words: the two Fluent files (`assets/i18n/*.ftl`) parse and have the same
//! messages with the same variables; the Vietnamese is translated and follows the glossary.

use ludus::i18n::{Lang, errors, ids, template, variables};
use std::collections::BTreeSet;

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

/// One concept of the glossary (`src/i18n/glossary.tsv`).
struct Term {
    english: Vec<String>,
    vietnamese: Vec<String>,
    forbidden: Vec<String>,
}

fn glossary() -> Vec<Term> {
    let split = |s: &str| -> Vec<String> {
        if s == "-" { Vec::new() } else { s.split('|').map(|w| w.to_lowercase()).collect() }
    };
    include_str!("../../src/i18n/glossary.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<_> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "glossary line needs three tab-separated columns: {l}");
            Term { english: split(cols[0]), vietnamese: split(cols[1]), forbidden: split(cols[2]) }
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
