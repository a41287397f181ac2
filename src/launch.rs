//! Command-line options: `ludus --game GAME [--position POS] [--lang en|vi] [--size WxH]
//! [--screenshot PATH]`, and the same in the browser's address:
//! `?game=GAME&position=POS&lang=en|vi&level=easy|medium|hard|none&side=first|second`.

use crate::i18n::Lang;
use crate::session::{Level, Seats};
use bevy::prelude::*;
use ludus_rules::{AnyGame, AnyPosition, Side, Variant};
use std::path::PathBuf;

/// What the game was started with.
#[derive(Resource, Clone, Debug, Default)]
pub struct Launch {
    /// Start straight into this game (with `position`, if given).
    pub game: Option<AnyGame>,
    /// The interface language for this run.
    pub lang: Option<Lang>,
    /// The window size in logical pixels.
    pub size: Option<(u32, u32)>,
    /// Render the first settled frame to this PNG and exit.
    pub screenshot: Option<PathBuf>,
    /// Who plays the game started with `game`; `None` keeps the player's usual choice.
    pub seats: Option<Seats>,
}

/// The usage line.
pub const USAGE: &str = "usage: ludus [--game latrunculi|latrunculi-quick|alquerque] [--position POS] [--lang en|vi] [--size WxH] [--screenshot PATH]";

impl Launch {
    /// Reads the options; an error says what is wrong.
    pub fn parse(args: &[String]) -> Result<Launch, String> {
        let mut launch = Launch::default();
        let mut variant = None;
        let mut position = None;
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
            match a.as_str() {
                "--game" => variant = Some(Variant::parse(&value("--game")?).map_err(|e| e.to_string())?),
                "--position" => position = Some(value("--position")?),
                "--lang" => {
                    let v = value("--lang")?;
                    launch.lang =
                        Some(Lang::parse(&v).ok_or_else(|| format!("unknown language '{v}': en or vi"))?);
                }
                "--size" => {
                    let v = value("--size")?;
                    let (w, h) = v.split_once('x').ok_or_else(|| format!("--size expects WxH, not '{v}'"))?;
                    let parse = |s: &str| s.parse::<u32>().ok().filter(|n| (200..=8192).contains(n));
                    match (parse(w), parse(h)) {
                        (Some(w), Some(h)) => launch.size = Some((w, h)),
                        _ => {
                            return Err(format!("--size expects WxH with each from 200 to 8192, not '{v}'"));
                        }
                    }
                }
                "--screenshot" => launch.screenshot = Some(PathBuf::from(value("--screenshot")?)),
                "--help" | "-h" => return Err(USAGE.to_string()),
                other => return Err(format!("unknown option '{other}'\n{USAGE}")),
            }
        }
        if let Some(p) = &position {
            let v = variant.ok_or("--position needs --game")?;
            let pos = AnyPosition::parse(v, p).map_err(|e| format!("bad position: {e}"))?;
            launch.game = Some(AnyGame::from_position(pos));
        } else if let Some(v) = variant {
            launch.game = Some(AnyGame::new(v));
        }
        if launch.screenshot.is_some() && launch.game.is_none() {
            launch.game = Some(AnyGame::new(Variant::Latrunculi));
        }
        Ok(launch)
    }

    /// Reads the options of a browser address's query string (`?game=alquerque&level=easy`):
    /// `game`, `position` and `lang` as on the command line; `level` plays the computer at that
    /// level (`none`: two players), the person playing `side` (`first` unless given).
    pub fn from_query(query: &str) -> Result<Launch, String> {
        let mut args = Vec::new();
        let mut level = None;
        let mut side = None;
        for pair in query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = percent_decode(value)?;
            match key {
                "game" | "position" | "lang" => args.extend([format!("--{key}"), value]),
                "level" => {
                    level = Some(match value.as_str() {
                        "easy" => Some(Level::Easy),
                        "medium" => Some(Level::Medium),
                        "hard" => Some(Level::Hard),
                        "none" => None,
                        _ => return Err(format!("unknown level '{value}': easy, medium, hard or none")),
                    })
                }
                "side" => {
                    side = Some(match value.as_str() {
                        "first" => Side::First,
                        "second" => Side::Second,
                        _ => return Err(format!("unknown side '{value}': first or second")),
                    })
                }
                _ => {} // other parameters belong to the page
            }
        }
        let mut launch = Launch::parse(&args)?;
        launch.seats = match (level, side) {
            (Some(Some(level)), side) => Some(Seats::versus_computer(side.unwrap_or(Side::First), level)),
            (Some(None), _) => Some(Seats::two_players()),
            (None, Some(_)) => return Err("side needs a level".to_string()),
            (None, None) => None,
        };
        Ok(launch)
    }
}

/// Decodes `%XX` escapes and `+` (a space) of a query value.
fn percent_decode(s: &str) -> Result<String, String> {
    let mut bytes = Vec::with_capacity(s.len());
    let mut it = s.bytes();
    while let Some(b) = it.next() {
        match b {
            b'+' => bytes.push(b' '),
            b'%' => {
                let hex = [it.next(), it.next()];
                let digit = |c: Option<u8>| c.and_then(|c| (c as char).to_digit(16));
                match (digit(hex[0]), digit(hex[1])) {
                    (Some(h), Some(l)) => bytes.push((h * 16 + l) as u8),
                    _ => return Err(format!("bad escape in '{s}'")),
                }
            }
            _ => bytes.push(b),
        }
    }
    String::from_utf8(bytes).map_err(|_| format!("'{s}' is not UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_starts_a_game_against_the_computer() {
        let l = Launch::from_query("?game=alquerque&level=easy").unwrap();
        assert_eq!(l.game.as_ref().map(AnyGame::variant), Some(Variant::Alquerque));
        assert_eq!(l.seats, Some(Seats::versus_computer(Side::First, Level::Easy)));
        let l = Launch::from_query("game=latrunculi-quick&level=hard&side=second&lang=vi").unwrap();
        assert_eq!(l.game.as_ref().map(AnyGame::variant), Some(Variant::LatrunculiQuick));
        assert_eq!(l.seats, Some(Seats::versus_computer(Side::Second, Level::Hard)));
        assert_eq!(l.lang, Some(Lang::Vi));
        let l = Launch::from_query("?game=alquerque&level=none").unwrap();
        assert_eq!(l.seats, Some(Seats::two_players()));
    }

    #[test]
    fn query_without_options_is_the_title_screen() {
        for q in ["", "?", "?utm=x"] {
            let l = Launch::from_query(q).unwrap();
            assert!(l.game.is_none() && l.seats.is_none() && l.lang.is_none(), "{q}");
        }
    }

    #[test]
    fn query_position_is_decoded() {
        let l =
            Launch::from_query("?game=alquerque&position=BBBBB%2FBBBBB%2FBB1WW%2FWWWWW%2FWWWWW+w").unwrap();
        let game = l.game.unwrap();
        assert_eq!(game.position().to_string(), "BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w");
    }

    #[test]
    fn bad_queries_say_what_is_wrong() {
        for q in [
            "?game=chess",
            "?game=alquerque&level=expert",
            "?level=easy&side=red",
            "?side=first",
            "?position=x",
        ] {
            assert!(Launch::from_query(q).is_err(), "{q}");
        }
        assert!(Launch::from_query("?game=alquerque&position=%zz").is_err());
    }
}
