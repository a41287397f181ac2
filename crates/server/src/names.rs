//! Nicknames: what the server accepts, and when two names look the same.
//!
//! A nickname is trimmed and NFKC-normalised (so full-width `Ａｎｎ` is `Ann`), then must show
//! what it says ([`visible::check`]: not blank, no invisible or formatting character, no pile
//! of combining marks), pass [`ludus_protocol::validate_nickname`] (2 to 20 letters, digits,
//! single spaces, `_ - .`) and:
//! - every letter and digit is allowed in identifiers by Unicode's General Security Profile
//!   (UTS #39): no invisible or default-ignorable characters such as the Hangul filler U+3164,
//!   no obsolete or excluded scripts, no compatibility look-alikes;
//! - the name is at most "moderately restrictive" (UTS #39 restriction level): one script, or
//!   Latin with Han/Hiragana/Katakana/Hangul or one other script that is neither Cyrillic nor
//!   Greek. `Аnn` with a Cyrillic `А` is refused;
//! - it is not a reserved word (`admin`, `server`, `moderator`, `ludus`, ...), in any spelling
//!   that looks the same, with or without separators and trailing digits.
//!
//! Two names clash when their look-alike keys ([`skeleton`]) are equal. The key is the UTS #39
//! confusable skeleton of the name as typed, before any case folding (capital `I` and the
//! digit `1` are `l` there, `m` is `rn`, `0` is `O`, Cyrillic `А` is `A`), then folded to lower
//! case, and again skeleton and lower case until nothing changes (a lower-case letter may be
//! confusable in turn: `M`, `m`, `rn`). Then two extra rules the UTS #39 data does not have
//! ([`EXTRA`]): `i` is `l` (so that `I`, `l`, `1` and `i` are one, and a name in capitals clashes
//! with the same name in small letters: `ALICE` is `ALlCE` in the data, `alice` stays `alice`)
//! and `vv` is `w`. Every round also drops the combining diacritics of Latin, Greek, Cyrillic
//! and Armenian letters ([`is_diacritic`]): a dot below or an acute accent is easily missed,
//! and the data maps letters with a stroke (`ł`, `đ`, `ħ`) to the letter and a combining
//! stroke, so that `Alịce`, `Ałice` and `Álice` clash with `Alice`, and `Nguyen` with `Nguyễn`.
//! `Alice`, `ALICE`, `AIice` (capital i), `AIIce`, `A1ice` all clash, as do `Ivan`, `Iván` and
//! `lvan`, `Will`, `WiII` and `VVill`, `Ann`, `Аnn` (Cyrillic), `Αnn` (Greek) and `Aռռ`
//! (Armenian, which may be mixed with Latin); `Alice` and `Alicia`, `Minh` and `Minn` do not. A small letter whose capital looks like another letter
//! than the small one does (Greek `η` looks like `n`, `Η` like `H`) is compared as its capital,
//! so that any spelling in either case clashes with the others.
//!
//! The key is computed from the nickname whenever it is needed: claimed names are keyed at
//! every start from their stored nicknames, so the claims of a database written with an older
//! key still block their look-alikes. (The database's `claim_skeleton` column only guards two
//! nodes claiming look-alikes at the same moment.) Refusing a name that clashes with another
//! signed-in player's is done by the core once the player is resolved, so that a reconnecting
//! player does not clash with their own old connection.
//!
//! The Unicode tables are those of the `unicode-normalization`, `unicode-security` and
//! `unicode-properties` crates.

pub mod visible;

use ludus_protocol::validate_nickname;
use unicode_normalization::UnicodeNormalization;
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

/// Words no player may take as a name (compared by skeleton).
pub const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "moderator",
    "mod",
    "server",
    "ludus",
    "system",
    "root",
    "staff",
    "support",
    "official",
    "operator",
    "sysop",
];

/// A nickname the server accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nickname {
    /// The name as shown (trimmed, NFKC).
    pub name: String,
    /// Its confusable skeleton: equal skeletons look alike.
    pub skeleton: String,
}

/// Look-alikes the UTS #39 data does not unify, replaced in the folded skeleton (see the module
/// documentation).
pub const EXTRA: &[(&str, &str)] = &[("i", "l"), ("vv", "w")];

/// Most rounds of skeleton and lower case (two are enough for every letter of Unicode 18).
const ROUNDS: usize = 4;

/// The look-alike key of a name: equal keys look alike (see the module documentation).
pub fn skeleton(name: &str) -> String {
    let typed: String = name.nfkc().map(compared_as).collect();
    folded_skeleton(&typed)
}

/// The skeleton of `text` as typed, folded to lower case and stripped of diacritics until
/// stable, with [`EXTRA`].
fn folded_skeleton(text: &str) -> String {
    let round = |s: &str| -> String {
        let key: String = unicode_security::skeleton(s).flat_map(char::to_lowercase).collect();
        key.nfd().filter(|&c| !is_diacritic(c)).collect()
    };
    let mut key = round(text);
    for _ in 0..ROUNDS {
        let next = round(&key);
        if next == key {
            break;
        }
        key = next;
    }
    for (from, to) in EXTRA {
        key = key.replace(from, to);
    }
    key
}

/// Whether `c` is one of the combining diacritics that Latin, Greek, Cyrillic and Armenian
/// letters carry (the blocks of combining diacritical marks, their extension and supplement,
/// the marks for symbols, the half marks, the Cyrillic ones): a dot below, a stroke, an acute
/// accent. The key drops them, so that `Alịce` (dot below), `Ałice` (whose skeleton is `l`
/// with a stroke) and `Alíce` read as `Alice`. The marks of other scripts (Devanagari vowel
/// signs, Thai vowels, Hebrew points) are kept: there they make different letters, not
/// accents on the same one.
fn is_diacritic(c: char) -> bool {
    matches!(
        c,
        '\u{0300}'..='\u{036F}'
            | '\u{0483}'..='\u{0489}'
            | '\u{1AB0}'..='\u{1AFF}'
            | '\u{1DC0}'..='\u{1DFF}'
            | '\u{20D0}'..='\u{20FF}'
            | '\u{FE20}'..='\u{FE2F}'
    )
}

/// `c`, or its capital when the two look like different letters (Greek `η` and `Η`: `n` and
/// `H`), so that a name's key does not depend on its case. A letter of a script that names may
/// mix with Latin ([`mixes_with_latin`]) whose small form looks like a Latin letter while its
/// capital looks like nothing Latin (Armenian `ռ`, `n`, whose capital `Ռ` the data maps to an
/// Ethiopic letter) is compared as its small form, in either case, so that it still reads as
/// the Latin letter.
fn compared_as(c: char) -> char {
    if c.is_ascii() {
        return c; // No ASCII letter needs it (tested).
    }
    let small = one(c.to_lowercase()).unwrap_or(c);
    let capital = one(small.to_uppercase()).unwrap_or(small);
    if capital == small {
        return c;
    }
    let (big, little) =
        (folded_skeleton(capital.encode_utf8(&mut [0; 4])), folded_skeleton(small.encode_utf8(&mut [0; 4])));
    if big == little {
        c
    } else if little.is_ascii() && !big.is_ascii() && mixes_with_latin(small) {
        small
    } else {
        capital
    }
}

/// Whether a name may mix `c` with Latin letters (the restriction level of [`check`]: not
/// Cyrillic or Greek, whose names are in their own script alone).
fn mixes_with_latin(c: char) -> bool {
    let mut pair = String::from("a");
    pair.push(c);
    pair.as_str().check_restriction_level(RestrictionLevel::ModeratelyRestrictive)
}

/// The only item of `chars`, if it has exactly one.
fn one(mut chars: impl Iterator<Item = char>) -> Option<char> {
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// Why a nickname was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// The shape the protocol allows (length, characters).
    #[error(transparent)]
    Shape(#[from] ludus_protocol::NicknameError),
    /// A character Unicode's security profile does not allow in names (invisible, obsolete...).
    #[error("a nickname cannot contain {0:?} (U+{code:04X})", code = u32::from(*.0))]
    Character(char),
    /// Letters of alphabets that look alike, mixed.
    #[error("a nickname cannot mix alphabets that look alike (Latin with Cyrillic or Greek)")]
    MixedScripts,
    /// Text that shows nothing or deceives.
    #[error(transparent)]
    Unseen(#[from] visible::Unseen),
    /// A reserved word, in any spelling that looks the same.
    #[error("'{0}' is reserved")]
    Reserved(String),
}

/// Checks a requested nickname. See the module documentation.
pub fn check(requested: &str) -> Result<Nickname, NameError> {
    let normalised: String = requested.trim().nfkc().collect();
    visible::check(&normalised)?;
    let name = validate_nickname(&normalised)?;
    if let Some(c) = name.chars().find(|&c| !" _-.".contains(c) && !c.identifier_allowed()) {
        return Err(NameError::Character(c));
    }
    let identifier: String = name.chars().filter(|c| !" _-.".contains(*c)).collect();
    if !identifier.as_str().check_restriction_level(RestrictionLevel::ModeratelyRestrictive) {
        return Err(NameError::MixedScripts);
    }
    if is_reserved(&name) {
        return Err(NameError::Reserved(name));
    }
    let skeleton = skeleton(&name);
    Ok(Nickname { name, skeleton })
}

/// Whether a name spells a reserved word, or looks like one (separators and trailing digits
/// aside).
fn is_reserved(name: &str) -> bool {
    let letters: String = name.chars().filter(|c| c.is_alphanumeric()).collect();
    let stem = skeleton(letters.trim_end_matches(char::is_numeric));
    RESERVED.iter().any(|word| skeleton(word) == stem)
}

#[cfg(test)]
mod tests {
    use super::{NameError, check, skeleton, visible};
    use unicode_normalization::UnicodeNormalization;

    #[test]
    fn normalised_and_trimmed() {
        assert_eq!(check("  Ann ").unwrap().name, "Ann");
        assert_eq!(check("Ａｎｎ").unwrap().name, "Ann");
        assert_eq!(check("Nguyễn Văn A").unwrap().name, "Nguyễn Văn A");
        // The same letters, decomposed, come out composed.
        assert_eq!(check("Nguye\u{302}\u{303}n").unwrap().name, "Nguyễn");
        assert!(check("李小龍").is_ok());
        assert!(check("Ann_99").is_ok());
    }

    #[test]
    fn invisible_and_empty_names_are_refused() {
        assert!(check("\u{3164}\u{3164}").is_err(), "Hangul filler");
        assert!(check("A\u{3164}\u{3164}").is_err());
        assert!(check("An\u{200b}n").is_err(), "zero-width space");
        assert!(check("An\u{ad}n").is_err(), "soft hyphen");
        assert!(check("\u{115f}\u{1160}").is_err(), "Hangul fillers");
        assert!(check("").is_err());
        assert!(check("   ").is_err());
        assert!(check("--").is_err());
        assert!(check("\u{2800}\u{2800}").is_err(), "braille blank");
        assert!(check("Ann\u{1D159}").is_err(), "musical null notehead");
        assert!(check("\u{1D159}\u{1D159}").is_err(), "musical null noteheads alone");
    }

    #[test]
    fn mixed_scripts_are_refused() {
        assert!(check("\u{410}nn").is_err(), "Cyrillic A with Latin nn");
        assert!(check("\u{391}nn").is_err(), "Greek Alpha with Latin nn");
        assert!(check("Анна").is_ok(), "all Cyrillic is fine");
        assert!(check("Ελένη").is_ok(), "all Greek is fine");
    }

    #[test]
    fn reserved_words_are_refused() {
        for name in [
            "admin",
            "Admin",
            "ADMIN",
            "Server",
            "ludus",
            "Moderator",
            "admin_1",
            "a.d.m.i.n",
            "Ludus 2",
            "adrnin",
        ] {
            assert!(check(name).is_err(), "{name} was accepted");
        }
        for name in ["Adminah", "Serverus", "Modesty", "Ludwig"] {
            assert!(check(name).is_ok(), "{name} was refused");
        }
    }

    #[test]
    fn look_alikes_have_the_same_skeleton() {
        let ann = skeleton("Ann");
        assert_eq!(skeleton("ann"), ann);
        assert_eq!(skeleton("\u{410}nn"), ann, "Cyrillic A");
        assert_eq!(skeleton("\u{391}nn"), ann, "Greek Alpha");
        assert_eq!(skeleton("Ａｎｎ"), ann, "full width");
        assert_eq!(skeleton("rn"), skeleton("m"));
        assert_eq!(skeleton("l0l"), skeleton("lOl"));
        assert_ne!(skeleton("Anne"), ann);
        assert_ne!(skeleton("Bob"), ann);
    }

    #[test]
    fn case_look_alikes_of_a_name_share_its_key() {
        for (name, look_alikes) in [
            ("Alice", &["AIice", "AIIce", "ALICE", "alice", "A1ice", "AlIce", "Aiice"][..]),
            ("Ivan", &["lvan", "IVAN", "1van", "ivan"]),
            ("Bill", &["BiII", "BILL", "Bi11", "bill"]),
            ("Olga", &["OIga", "0lga", "OLGA"]),
            ("Will", &["WiII", "VVill", "vvill", "WILL", "VViII"]),
            ("Emma", &["Ernrna", "EMMA", "Emrna"]),
            ("Ann", &["\u{410}nn", "\u{391}nn", "ANN", "Ａｎｎ"]),
        ] {
            for other in look_alikes {
                assert_eq!(skeleton(other), skeleton(name), "{other} and {name}");
            }
        }
        for (a, b) in [
            ("Alice", "Alicia"),
            ("Minh", "Minn"),
            ("Will", "Wall"),
            ("Olga", "Olea"),
            ("Ann", "Anne"),
            ("Bob", "Rob"),
            ("Nguyễn", "Nguyệt"),
        ] {
            assert_ne!(skeleton(a), skeleton(b), "{a} and {b}");
        }
    }

    #[test]
    fn diacritic_and_other_script_look_alikes_share_the_key() {
        for (name, look_alikes) in [
            (
                "Alice",
                &[
                    "Al\u{1ECB}ce", // ị, dot below
                    "A\u{142}ice",  // ł, stroke
                    "Al\u{ED}ce",   // í
                    "\u{C1}lice",   // Á
                    "Ali\u{107}e",  // ć
                    "Al\u{1E2D}ce", // ḭ, tilde below
                    "Ali\u{E7}e",   // ç, cedilla
                    "Alice\u{301}", // a combining acute, decomposed
                ][..],
            ),
            ("Ann", &["A\u{57C}\u{57C}", "A\u{578}\u{578}", "\u{C5}nn", "\u{100}nn", "A\u{F1}n"]),
            ("Hon", &["H\u{585}n", "H\u{585}\u{578}", "\u{126}on", "H\u{F8}n"]),
            ("Duc", &["\u{110}\u{1EE9}c", "\u{111}uc", "D\u{1EE5}c"]),
            ("Ivan", &["Iv\u{E1}n", "\u{CC}van"]),
            ("Nguyen", &["Nguy\u{1EC5}n", "NGUY\u{1EC4}N", "Nguy\u{1EC7}n"]),
            ("Sasha", &["\u{15A}a\u{161}ha", "\u{54F}asha"]),
        ] {
            for other in look_alikes {
                assert_eq!(skeleton(other), skeleton(name), "{other} and {name}");
            }
        }
        // The marks of other scripts make other letters: they stay.
        assert_ne!(skeleton("\u{915}\u{941}\u{92E}\u{93E}\u{930}"), skeleton("\u{915}\u{92E}\u{93E}\u{930}"));
        assert_ne!(skeleton("\u{E01}\u{E34}\u{E19}"), skeleton("\u{E01}\u{E19}"));
    }

    #[test]
    fn a_key_does_not_depend_on_case() {
        // Every letter of the alphabets nicknames allow, capital and small.
        let letters = ('\u{41}'..='\u{24F}').chain('\u{370}'..='\u{52F}').chain('\u{1E00}'..='\u{1EFF}');
        for c in letters.filter(|c| c.is_alphabetic()) {
            let (mut lower, mut upper) = (c.to_lowercase(), c.to_uppercase());
            if let ((Some(l), None), (Some(u), None)) =
                ((lower.next(), lower.next()), (upper.next(), upper.next()))
            {
                let (l, u) = (l.to_string(), u.to_string());
                assert_eq!(skeleton(&l), skeleton(&u), "{c:?}: {l:?} and {u:?}");
            }
        }
        assert_eq!(skeleton("ΗΛΙΑΣ"), skeleton("ηλιασ"));
        assert_eq!(skeleton("НИНА"), skeleton("нина"));
        assert_eq!(skeleton("NGUYỄN THỊ ÁNH"), skeleton("Nguyễn Thị Ánh"));
    }

    #[test]
    fn names_that_show_nothing_or_deceive_are_refused() {
        for (text, why) in visible::tests::deceptive() {
            assert!(check(&text).is_err(), "{why}: {text:?} was accepted");
        }
        assert!(matches!(check("\u{2800}\u{2800}\u{2800}"), Err(NameError::Unseen(visible::Unseen::Blank))));
        let vietnamese = "Nguyễn Thị Ánh";
        let decomposed: String = vietnamese.nfd().collect();
        assert_eq!(check(vietnamese).unwrap().name, vietnamese);
        assert_eq!(check(&decomposed).unwrap().name, vietnamese);
    }
}
