use ludus::i18n::{Lang, keys};
use std::collections::BTreeSet;

#[test]
fn english_and_vietnamese_have_the_same_keys() {
    let en: Vec<_> = keys(Lang::En);
    let vi: Vec<_> = keys(Lang::Vi);
    let en_set: BTreeSet<_> = en.iter().collect();
    let vi_set: BTreeSet<_> = vi.iter().collect();
    assert_eq!(en.len(), en_set.len(), "English has a duplicate key");
    assert_eq!(vi.len(), vi_set.len(), "Vietnamese has a duplicate key");
    let missing: Vec<_> = en_set.difference(&vi_set).collect();
    let extra: Vec<_> = vi_set.difference(&en_set).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing in vi: {missing:?}; extra in vi: {extra:?}");
}

#[test]
fn placeholders_match_between_languages() {
    for key in keys(Lang::En) {
        let count = |s: &str| s.matches("{}").count();
        assert_eq!(count(Lang::En.t(key)), count(Lang::Vi.t(key)), "placeholders of {key}");
    }
}

#[test]
fn vietnamese_is_really_translated() {
    let same: Vec<_> = keys(Lang::En)
        .into_iter()
        .filter(|k| Lang::En.t(k) == Lang::Vi.t(k) && !k.starts_with("game.") && *k != "app.title")
        .filter(|k| !k.ends_with(".title") || k.starts_with("settings") || k.starts_with("over"))
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
    let drift: Vec<String> =
        keys(Lang::En).into_iter().flat_map(|key| drift(key, Lang::En.t(key), Lang::Vi.t(key))).collect();
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
