//! The game's one typeface has a glyph for every character it can show: every text in both
//! languages, and every character outside ASCII written in the game's sources and data files
//! (diagram symbols, lesson texts). A missing glyph would show as an empty box.

use bevy_egui::egui;
use ludus::i18n::{Lang, ids, template};
use skrifa::MetadataProvider;
use std::collections::BTreeSet;
use std::path::Path;

/// Every character outside ASCII in the files under `dir` with one of `extensions`.
fn characters_in(dir: &Path, extensions: &[&str], out: &mut BTreeSet<char>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            characters_in(&path, extensions, out);
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| extensions.contains(&e)) {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            out.extend(text.chars().filter(|c| !c.is_ascii()));
        }
    }
}

/// Characters that are written in the sources but never drawn with the game's typeface.
fn never_drawn(c: char) -> bool {
    // Box-drawing in comments and the byte-order mark.
    ('\u{2500}'..='\u{257F}').contains(&c) || c == '\u{FEFF}'
}

#[test]
fn the_typeface_has_every_character_the_game_shows() {
    let mut wanted = BTreeSet::new();
    for lang in Lang::ALL {
        for id in ids(lang) {
            wanted.extend(template(lang, id).unwrap_or_default().chars().filter(|c| !c.is_ascii()));
        }
        wanted.extend(lang.native_name().chars().filter(|c| !c.is_ascii()));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    characters_in(&root.join("src"), &["rs", "tsv"], &mut wanted);
    characters_in(&root.join("assets"), &["txt", "ron", "toml", "json", "tsv", "ftl"], &mut wanted);
    // Every Vietnamese letter, whether or not a text uses it today.
    wanted.extend("ăâđêôơưĂÂĐÊÔƠƯàảãáạằẳẵắặầẩẫấậèẻẽéẹềểễếệìỉĩíịòỏõóọồổỗốộờởỡớợùủũúụừửữứựỳỷỹýỵ".chars());
    wanted.extend("ÀẢÃÁẠẰẲẴẮẶẦẨẪẤẬÈẺẼÉẸỀỂỄẾỆÌỈĨÍỊÒỎÕÓỌỒỔỖỐỘỜỞỠỚỢÙỦŨÚỤỪỬỮỨỰỲỶỸÝỴ".chars());
    wanted.retain(|c| !never_drawn(*c));
    assert!(wanted.len() > 100, "the scan found too few characters: {}", wanted.len());

    // egui's own `has_glyph` cannot answer for a family of one face (that face is also its
    // replacement), so each face's character map is read directly.
    let fonts = ludus::ui::font_definitions();
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        let faces: Vec<skrifa::FontRef> = fonts.families[&family]
            .iter()
            .map(|name| skrifa::FontRef::new(&fonts.font_data[name].font).expect("a readable font"))
            .collect();
        assert!(!faces.is_empty(), "no face in {family:?}");
        let missing: String =
            wanted.iter().copied().filter(|c| !faces.iter().any(|f| f.charmap().map(*c).is_some())).collect();
        assert!(missing.is_empty(), "no glyph in {family:?} for: {missing}");
    }
}

/// The display face of titles (EB Garamond) has every letter a title can have on its own, in
/// both languages: a Vietnamese heading must not mix two faces in one word.
#[test]
fn the_display_face_writes_every_title_in_both_languages() {
    let fonts = ludus::ui::font_definitions();
    let family = &fonts.families[&ludus::ui::display_family()];
    assert_eq!(family.first().map(String::as_str), Some("garamond"), "the display face comes first");
    assert!(family.iter().any(|f| f == "dejavu"), "the body face backs it up");
    let face = skrifa::FontRef::new(&fonts.font_data["garamond"].font).expect("a readable font");
    let mut wanted: BTreeSet<char> = ('A'..='Z').chain('a'..='z').chain('0'..='9').collect();
    wanted.extend("ăâđêôơưĂÂĐÊÔƠƯàảãáạằẳẵắặầẩẫấậèẻẽéẹềểễếệìỉĩíịòỏõóọồổỗốộờởỡớợùủũúụừửữứựỳỷỹýỵ".chars());
    wanted.extend("ÀẢÃÁẠẰẲẴẮẶẦẨẪẤẬÈẺẼÉẸỀỂỄẾỆÌỈĨÍỊÒỎÕÓỌỒỔỖỐỘỜỞỠỚỢÙỦŨÚỤỪỬỮỨỰỲỶỸÝỴ".chars());
    // Every title and heading text of both languages.
    for lang in Lang::ALL {
        for id in ids(lang).into_iter().filter(|id| id.ends_with("-title") || id.starts_with("over-moment")) {
            wanted.extend(template(lang, id).unwrap_or_default().chars().filter(|c| c.is_alphanumeric()));
        }
    }
    let missing: String = wanted.iter().copied().filter(|c| face.charmap().map(*c).is_none()).collect();
    assert!(missing.is_empty(), "no glyph in the display face for: {missing}");
}
