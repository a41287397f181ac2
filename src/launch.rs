//! Command-line options: `ludus --game GAME [--position POS] [--lang en|vi] [--size WxH]
//! [--screenshot PATH] [--online lobby|quick|room|watch|join:CODE [--server ADDR] [--nick NAME]]`, and
//! the same in the browser's address:
//! `?game=GAME&position=POS&lang=en|vi&level=easy|medium|hard|none&side=first|second` and
//! `?online=quick&game=alquerque&server=ws://host:5001&nick=Ann`.

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
    /// Go online at once (then `game` only names the game to ask for).
    pub online: Option<OnlineLaunch>,
}

/// Going online from the command line or the address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnlineLaunch {
    /// The server (else the remembered or default one).
    pub server: Option<String>,
    /// The nickname (else the remembered one).
    pub nickname: Option<String>,
    /// What to do once connected.
    pub action: OnlineAction,
}

/// What to do once connected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnlineAction {
    /// Show the lobby.
    Lobby,
    /// Quick match for the game given with `--game` (Alquerque by default).
    Quick,
    /// Open a private room and show its code.
    Room,
    /// Join a room by its code.
    Join(String),
    /// Watch the newest live game in the lobby.
    Watch,
}

impl OnlineAction {
    fn parse(s: &str) -> Result<OnlineAction, String> {
        match s {
            "lobby" | "" => Ok(OnlineAction::Lobby),
            "quick" => Ok(OnlineAction::Quick),
            "room" => Ok(OnlineAction::Room),
            "watch" => Ok(OnlineAction::Watch),
            _ => match s.strip_prefix("join:") {
                Some(code) if !code.is_empty() => Ok(OnlineAction::Join(code.to_string())),
                _ => Err(format!("unknown online action '{s}': lobby, quick, room, watch or join:CODE")),
            },
        }
    }
}

/// The usage line.
pub const USAGE: &str = "usage: ludus [--game latrunculi|latrunculi-quick|alquerque] [--position POS] [--lang en|vi] [--size WxH] [--screenshot PATH] [--online lobby|quick|room|watch|join:CODE] [--server ADDR] [--nick NAME]";

impl Launch {
    /// Reads the options; an error says what is wrong.
    pub fn parse(args: &[String]) -> Result<Launch, String> {
        let mut launch = Launch::default();
        let mut variant = None;
        let mut position = None;
        let (mut online, mut server, mut nickname) = (None, None, None);
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
                "--online" => online = Some(OnlineAction::parse(&value("--online")?)?),
                "--server" => server = Some(value("--server")?),
                "--nick" => nickname = Some(value("--nick")?),
                "--help" | "-h" => return Err(USAGE.to_string()),
                other => return Err(format!("unknown option '{other}'\n{USAGE}")),
            }
        }
        match online {
            Some(action) => {
                if position.is_some() || launch.screenshot.is_some() {
                    return Err("--online does not go with --position or --screenshot".to_string());
                }
                launch.online = Some(OnlineLaunch { server, nickname, action });
            }
            None if server.is_some() || nickname.is_some() => {
                return Err("--server and --nick need --online".to_string());
            }
            None => {}
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
                "game" | "position" | "lang" | "online" | "server" => {
                    args.extend([format!("--{key}"), value])
                }
                "nick" => args.extend(["--nick".to_string(), value]),
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
    fn online_options() {
        let l =
            Launch::from_query("?online=quick&game=alquerque&server=ws%3A%2F%2F127.0.0.1%3A5001&nick=Tab")
                .unwrap();
        let o = l.online.unwrap();
        assert_eq!(o.action, OnlineAction::Quick);
        assert_eq!(o.server.as_deref(), Some("ws://127.0.0.1:5001"));
        assert_eq!(o.nickname.as_deref(), Some("Tab"));
        assert_eq!(l.game.map(|g| g.variant()), Some(Variant::Alquerque));
        let args: Vec<String> = ["--online", "join:ABC123"].iter().map(|s| s.to_string()).collect();
        assert_eq!(Launch::parse(&args).unwrap().online.unwrap().action, OnlineAction::Join("ABC123".into()));
        for bad in [&["--online", "dance"][..], &["--server", "x"], &["--online", "join:"]] {
            let args: Vec<String> = bad.iter().map(|s| s.to_string()).collect();
            assert!(Launch::parse(&args).is_err(), "{bad:?}");
        }
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
