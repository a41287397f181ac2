//! Text that shows what it says: the check that chat lines and nicknames pass before anything
//! else looks at their letters.
//!
//! Refused, in this order:
//! - **blank** text: nothing but white space, invisible characters (below) and combining marks,
//!   so nothing a reader can see (fifty braille blanks U+2800, an object replacement U+FFFC
//!   alone, Hangul fillers, a lone format character);
//! - any **invisible** character ([`is_invisible`]): every character of General_Category
//!   control (Cc), format (Cf: zero-width characters, bidirectional controls, the Arabic
//!   number signs U+0600.. that prefix the digits after them, the shorthand and Egyptian
//!   hieroglyph format controls U+1BCA0.. and U+13430.., tags U+E0000..), private use (Co),
//!   unassigned (Cn) or surrogate (Cs), every default-ignorable code point (Hangul fillers
//!   U+115F, U+1160, U+3164, U+FFA0, variation selectors, the combining grapheme joiner), the
//!   characters `ludus_protocol::is_invisible` lists, and the symbols that draw nothing or a
//!   placeholder though Unicode calls them graphic ([`BLANK_SYMBOLS`]: the braille blank
//!   U+2800, the object replacement character U+FFFC, the musical null notehead U+1D159, the
//!   Khitan filler U+16FE4), and the line and paragraph separators U+2028 and U+2029;
//! - more than [`MAX_MARKS`] **combining marks** in a row (non-spacing or enclosing marks,
//!   General_Category Mn and Me), counted once the text is NFC-normalised: the marks that
//!   compose with their letter do not count, so Vietnamese, whose letters carry up to two
//!   diacritics ("ệ" is e, U+0323, U+0302), passes composed or decomposed, while a letter
//!   under 199 stacked marks (text that spills over the lines around it) does not. Thai, Lao,
//!   Hebrew with points, Arabic with harakat and the Indic scripts need at most three on one
//!   letter.
//!
//! Spacing marks (Mc) take room of their own, so they do not count. The Unicode tables are
//! those of the `unicode-properties` (General_Category), `unicode-security` (identifier type)
//! and `unicode-normalization` crates.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};
use unicode_security::GeneralSecurityProfile;
use unicode_security::general_security_profile::IdentifierType;

/// Most non-spacing or enclosing marks in a row on one letter (after NFC).
pub const MAX_MARKS: usize = 3;

/// Graphic characters (by their General_Category) that draw nothing, or a placeholder box, in
/// common fonts.
pub const BLANK_SYMBOLS: &[char] = &['\u{2800}', '\u{FFFC}', '\u{1D159}', '\u{16FE4}'];

/// Why text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unseen {
    /// Nothing a reader can see.
    #[error("the text is blank: it shows nothing")]
    Blank,
    /// A character that shows nothing or changes how the text around it shows.
    #[error("the text contains the invisible or formatting character U+{code:04X}", code = u32::from(*.0))]
    Invisible(char),
    /// Too many combining marks on one letter.
    #[error("a letter can carry at most {MAX_MARKS} combining marks")]
    Marks,
}

/// Whether `c` shows nothing or formats the text around it (see the module documentation).
pub fn is_invisible(c: char) -> bool {
    use GeneralCategory::{
        Control, Format, LineSeparator, ParagraphSeparator, PrivateUse, Surrogate, Unassigned,
    };
    matches!(
        c.general_category(),
        Control | Format | PrivateUse | Unassigned | Surrogate | LineSeparator | ParagraphSeparator
    ) || c.identifier_type() == Some(IdentifierType::Default_Ignorable)
        || ludus_protocol::is_invisible(c)
        || BLANK_SYMBOLS.contains(&c)
}

/// Whether `c` is a combining mark drawn over, under or around the letter before it.
fn is_stacking_mark(c: char) -> bool {
    matches!(c.general_category(), GeneralCategory::NonspacingMark | GeneralCategory::EnclosingMark)
}

/// Whether `c` adds nothing visible on its own.
fn shows_nothing(c: char) -> bool {
    c.is_whitespace() || is_invisible(c) || c.general_category_group() == GeneralCategoryGroup::Mark
}

/// Checks that `text` shows what it says (see the module documentation).
pub fn check(text: &str) -> Result<(), Unseen> {
    if text.chars().all(shows_nothing) {
        return Err(Unseen::Blank);
    }
    if let Some(c) = text.chars().find(|&c| is_invisible(c)) {
        return Err(Unseen::Invisible(c));
    }
    let mut run = 0;
    for c in text.nfc() {
        run = if is_stacking_mark(c) { run + 1 } else { 0 };
        if run > MAX_MARKS {
            return Err(Unseen::Marks);
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::{MAX_MARKS, Unseen, check};
    use unicode_normalization::UnicodeNormalization;

    /// The cases text must never pass, each alone and inside ordinary words.
    pub(crate) fn deceptive() -> Vec<(String, &'static str)> {
        let mut cases = vec![
            ("\u{2800}".repeat(50), "braille blank"),
            ("\u{1BCA0}".into(), "shorthand format control"),
            ("\u{13430}".into(), "Egyptian hieroglyph format control"),
            ("\u{0600}".into(), "Arabic number sign"),
            ("\u{FFFC}".into(), "object replacement"),
            (format!("a{}", "\u{301}".repeat(199)), "199 combining marks"),
            // U+0336 composes with no letter: NFC leaves all of them.
            (format!("a{}", "\u{336}".repeat(MAX_MARKS + 1)), "one mark too many"),
            ("\u{200B}".into(), "zero-width space"),
            ("\u{200D}".into(), "zero-width joiner"),
            ("\u{2060}".into(), "word joiner"),
            ("\u{FEFF}".into(), "byte-order mark"),
            ("\u{202E}".into(), "right-to-left override"),
            ("\u{2067}".into(), "right-to-left isolate"),
            ("\u{200F}".into(), "right-to-left mark"),
            ("\u{3164}".into(), "Hangul filler"),
            ("\u{115F}\u{1160}".into(), "Hangul choseong and jungseong fillers"),
            ("\u{FFA0}".into(), "half-width Hangul filler"),
            ("\u{E0041}\u{E0042}".into(), "tag characters"),
            ("\u{E0001}".into(), "language tag"),
            ("\u{E000}".into(), "private use"),
            ("\u{F0000}".into(), "supplementary private use"),
            ("\u{0378}".into(), "unassigned"),
            ("\u{1B}".into(), "escape"),
            ("\u{0085}".into(), "next line (a control)"),
            ("\u{AD}".into(), "soft hyphen"),
            ("\u{034F}".into(), "combining grapheme joiner"),
            ("\u{FE0F}".into(), "variation selector"),
            ("\u{180E}".into(), "Mongolian vowel separator"),
            ("\u{2062}".into(), "invisible times"),
            ("\u{1D173}".into(), "musical begin beam"),
            ("\u{1D159}".into(), "musical null notehead (draws nothing)"),
            ("\u{1D159}".repeat(20), "twenty musical null noteheads"),
            ("\u{16FE4}".into(), "Khitan filler"),
            ("\u{2028}".into(), "line separator"),
            ("\u{2029}".into(), "paragraph separator"),
        ];
        let inside: Vec<(String, &str)> =
            cases.iter().map(|(text, why)| (format!("ok {text} ok"), *why)).collect();
        cases.extend(inside);
        cases.push((" \u{200B}\u{2800} \u{3164} ".into(), "spaces and invisible characters"));
        cases
    }

    #[test]
    fn text_that_shows_nothing_or_deceives_is_refused() {
        for (text, why) in deceptive() {
            assert!(check(&text).is_err(), "{why}: {text:?} passed");
        }
        for blank in [
            "",
            "   ",
            "\u{2800}",
            "\u{1D159}\u{1D159}",
            " \u{200B} \u{3164}\u{FFFC} ",
            "\u{301}\u{301}",
            "\u{0600}",
        ] {
            assert_eq!(check(blank), Err(Unseen::Blank), "{blank:?}");
        }
        assert_eq!(check("a\u{200B}b"), Err(Unseen::Invisible('\u{200B}')));
        assert_eq!(check(&format!("Zalgo{}", "\u{336}".repeat(199))), Err(Unseen::Marks));
    }

    #[test]
    fn ordinary_text_in_any_script_passes() {
        let vietnamese = "Chào bạn, ván này hay quá!";
        let decomposed: String = vietnamese.nfd().collect();
        assert_ne!(decomposed, vietnamese);
        // "ệ" decomposed is e with two marks: both count, and pass.
        for text in [
            vietnamese,
            decomposed.as_str(),
            "Nguyễn Thị Ánh",
            "Nguye\u{323}\u{302}t",
            "Ελένη, καλή παρτίδα",
            "Привет! Хорошая игра",
            "李小龍 ありがとう 고마워",
            "नमस्ते, क्षत्रिय",
            "ที่นี่ดีมาก",
            "שָׁלוֹם",
            "مَرْحَبًا",
            "བསྒྲུབས",
            "🎲 gg 👍🏽 🇻🇳",
            "a\u{301}\u{302}\u{303}",
            "x",
        ] {
            assert_eq!(check(text), Ok(()), "{text:?}");
        }
    }
}
