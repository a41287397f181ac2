//! Names the server gives that the player reads: a player without a nickname is called
//! `Guest-1234` by the server (a name that stays the same in every language, for the other
//! players and the logs); the interface shows it in the player's language.

use super::Lang;
use std::borrow::Cow;

/// The name to show for a player's `name` as the server gives it: a guest's `Guest-NNNN` in
/// `lang` ("Khách 1234", "Guest 1234"), any other name as it is.
pub fn player_name(lang: Lang, name: &str) -> Cow<'_, str> {
    match guest_number(name) {
        Some(number) => Cow::Owned(lang.fmt("guest-name", [("number", number.into())])),
        None => Cow::Borrowed(name),
    }
}

/// The number of a server-given guest name (`Guest-` and 1 to 9 digits), if `name` is one.
pub fn guest_number(name: &str) -> Option<&str> {
    let digits = name.strip_prefix("Guest-")?;
    (!digits.is_empty() && digits.len() <= 9 && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guests_are_named_in_the_players_language() {
        assert_eq!(player_name(Lang::Vi, "Guest-0042"), "Khách 0042");
        assert_eq!(player_name(Lang::En, "Guest-0042"), "Guest 0042");
        assert_eq!(player_name(Lang::Vi, "Guest-123456"), "Khách 123456");
        // Nicknames stay as they are, even ones that look almost like a guest's.
        for name in ["Ann", "Guest", "Guest-", "Guest-12a", "guest-12", "Guest 12", "Guest-1234567890"] {
            assert_eq!(player_name(Lang::Vi, name), name);
        }
    }
}
