//! Nicknames: what the server accepts, and when two names look the same.
//!
//! A nickname is trimmed and NFKC-normalised (so full-width `Ａｎｎ` is `Ann`), then must pass
//! [`ludus_protocol::validate_nickname`] (2 to 20 letters, digits, single spaces, `_ - .`) and:
//! - every letter and digit is allowed in identifiers by Unicode's General Security Profile
//!   (UTS #39): no invisible or default-ignorable characters such as the Hangul filler U+3164,
//!   no obsolete or excluded scripts, no compatibility look-alikes;
//! - the name is at most "moderately restrictive" (UTS #39 restriction level): one script, or
//!   Latin with Han/Hiragana/Katakana/Hangul or one other script that is neither Cyrillic nor
//!   Greek. `Аnn` with a Cyrillic `А` is refused;
//! - it is not a reserved word (`admin`, `server`, `moderator`, `ludus`, ...), in any spelling
//!   that looks the same, with or without separators and trailing digits.
//!
//! Two names clash when their confusable skeletons (UTS #39, of the lower-cased name) are
//! equal: `Ann`, `ann`, `Аnn` (Cyrillic) and `Αnn` (Greek) all clash. The skeleton is computed
//! for every accepted name; refusing a name that clashes with another signed-in player's is not
//! enforced yet (it must run once the player is resolved, so that a reconnecting player does not
//! clash with their own old connection).
//!
//! The Unicode tables are those of the `unicode-normalization` and `unicode-security` crates.

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

/// The confusable skeleton of a name (UTS #39, of its NFKC lower case).
pub fn skeleton(name: &str) -> String {
    let folded: String = name.nfkc().flat_map(char::to_lowercase).collect();
    unicode_security::skeleton(&folded).flat_map(char::to_lowercase).collect()
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
    /// A reserved word, in any spelling that looks the same.
    #[error("'{0}' is reserved")]
    Reserved(String),
}

/// Checks a requested nickname. See the module documentation.
pub fn check(requested: &str) -> Result<Nickname, NameError> {
    let normalised: String = requested.trim().nfkc().collect();
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
    use super::*;

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
}
