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
