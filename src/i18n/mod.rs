//! The interface's words in English and Vietnamese, from the Project Fluent files
//! `assets/i18n/en.ftl` and `vi.ftl` (the same message ids in both).

use serde::{Deserialize, Serialize};

mod fluent;
pub mod names;
pub mod problems;
pub mod system;
pub mod time;
pub use fluent::{errors, ids, template, variables};
pub use names::player_name;
pub use time::local_date_time;

/// A language of the interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Tiếng Việt.
    Vi,
}

impl Lang {
    /// Every language.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Vi];

    /// The language's own name.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Vi => "Tiếng Việt",
        }
    }

    /// The language's code: `en` or `vi` (the Fluent files' names).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Vi => "vi",
        }
    }

    /// Reads `en` or `vi`.
    pub fn parse(s: &str) -> Option<Lang> {
        match s {
            "en" => Some(Lang::En),
            "vi" => Some(Lang::Vi),
            _ => None,
        }
    }

    /// The language for a list of preferred locales, most preferred first (`vi`, `vi-VN`,
    /// `vi_VN.UTF-8`, `en-US`...): Vietnamese when the first one's language is Vietnamese (any
    /// region, any case), else English (also for no locale, an empty one, `C` or `POSIX`).
    pub fn from_locales<S: AsRef<str>>(locales: impl IntoIterator<Item = S>) -> Lang {
        let first = locales.into_iter().map(|l| l.as_ref().trim().to_string()).find(|l| !l.is_empty());
        let language = first.as_deref().and_then(|l| l.split(['-', '_', '.', '@']).next()).unwrap_or("");
        if language.eq_ignore_ascii_case("vi") { Lang::Vi } else { Lang::En }
    }

    /// The text of the plain message `id` (one without variables); English if this language
    /// lacks it, the id itself if both do. `id` is a literal (the texts' test reads them from
    /// the sources); a message chosen at run time is an [`Id`], for [`Lang::text`].
    pub fn t(self, id: &'static str) -> &'static str {
        fluent::plain(self, id).unwrap_or(id)
    }

    /// The message `id` with its variables: `lang.fmt("over-wins", [("side", name.into())])`.
    /// English if this language lacks it, the id itself if both do.
    pub fn fmt<'a>(
        self,
        id: &'static str,
        args: impl IntoIterator<Item = (&'static str, Value<'a>)>,
    ) -> String {
        fluent::format(self, id, args).unwrap_or_else(|| id.to_string())
    }

    /// [`Lang::t`] for a message chosen at run time.
    pub fn text(self, id: Id) -> &'static str {
        self.t(id.0)
    }

    /// [`Lang::fmt`] for a message chosen at run time.
    pub fn text_with<'a>(self, id: Id, args: impl IntoIterator<Item = (&'static str, Value<'a>)>) -> String {
        self.fmt(id.0, args)
    }
}

/// A value for a message's variable: text or a number (`"Red".into()`, `5.into()`).
pub type Value<'a> = fluent_bundle::FluentValue<'a>;

/// The id of a message chosen at run time (a variant's name, a refusal's text...). Only
/// [`id!`] makes one, from a literal, so that the texts' test finds every id in the sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Id(&'static str);

impl Id {
    #[doc(hidden)]
    pub const fn literal(id: &'static str) -> Id {
        Id(id)
    }

    /// The message's id in the Fluent files.
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

/// The [`Id`] of a message: `id!("game-alquerque")`.
macro_rules! id {
    ($id:literal) => {
        $crate::i18n::Id::literal($id)
    };
}
pub(crate) use id;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_formatted_with_their_variables_and_no_isolation_marks() {
        assert_eq!(Lang::En.t("menu-play"), "Play");
        assert_eq!(Lang::Vi.t("menu-play"), "Chơi");
        let wins = |lang: Lang| lang.fmt("analysis-wins-in", [("side", "Red".into()), ("moves", 5.into())]);
        assert_eq!(wins(Lang::En), "Red wins in 5");
        assert_eq!(wins(Lang::Vi), "Red thắng sau 5 nước");
        let heading = id!("net-open-rooms");
        assert_eq!(Lang::En.text_with(heading, [("count", 12.into())]), "Open rooms (12)");
        assert_eq!(Lang::En.text(id!("game-alquerque")), "Alquerque");
        // An unknown id shows itself rather than nothing.
        assert_eq!(Lang::En.t("no-such-message"), "no-such-message");
    }
}
