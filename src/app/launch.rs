//! Launch options: `ludus --game GAME [--position POS] [--lang en|vi] [--size WxH]
//! [--play MOVES] [--screenshot PATH [--screenshot-after MS]] [--screen NAME] [--lesson ID]
//! [--analyse FILE] [--game-over FILE]
//! [--online lobby|quick|room|watch|join:CODE|challenge:CODE [--server ADDR] [--nick NAME]]`
//! (clap on the desktop: `--help`, exit code 2 for a usage error), and the same in the browser's
//! address: `?game=GAME&position=POS&lang=en|vi&level=easy|medium|hard|none&side=first|second`,
//! `?online=quick&game=alquerque&server=ws://host:5001&nick=Ann` and a challenge's link,
//! `?challenge=CODE`.

use crate::app::Screen;
use crate::i18n::Lang;
use bevy::prelude::*;
use ludus_ai::Level;
use ludus_rules::{AnyGame, AnyMove, AnyPosition, Side, Variant};
use std::path::PathBuf;

/// Why the options cannot start the game, in English: the command line's language and the
/// log's (a page whose address is wrong opens on the title and says so in the player's words).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    /// clap's own message, with the usage.
    #[error("{0}")]
    Usage(String),
    /// Options that do not go together, or one missing its partner.
    #[error("{0}")]
    Combination(&'static str),
    /// A value the option does not know: what it names, the value, what it can be.
    #[error("unknown {what} '{value}': {expected}")]
    Unknown { what: &'static str, value: String, expected: &'static str },
    /// `--size` out of shape or range.
    #[error("expects WxH with each from 200 to 8192, not '{0}'")]
    Size(String),
    /// The position given does not read.
    #[error("bad position: {0}")]
    Position(String),
    /// A move of `--play` (1-based) that does not read or cannot be played.
    #[error("--play: move {index} '{text}': {problem}")]
    Move { index: usize, text: String, problem: String },
    /// A value of the page's address that is not UTF-8 once decoded.
    #[error("'{0}' is not UTF-8")]
    NotUtf8(String),
}

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
    /// Milliseconds from the first settled frame to the screenshot (to catch an effect, such as
    /// the end-of-game moment, part of the way; at least 12 frames are drawn in any case).
    pub screenshot_after_ms: u64,
    /// Who the person plays against in the game started with `game` (the browser's `level`);
    /// `None` keeps the player's usual choice.
    pub opponent: Option<Opponent>,
    /// Go online at once (then `game` only names the game to ask for).
    pub online: Option<OnlineLaunch>,
    /// Start on this screen.
    pub screen: Option<Screen>,
    /// Start this lesson (its id, as in the lessons' files).
    pub lesson: Option<String>,
    /// Moves to play on the board once it has settled, one after another, as if tapped (checked
    /// against `game` at launch): a screenshot of a capture or of the end of a game.
    pub play: Vec<AnyMove>,
    /// Start on the analysis of the game in this file (a record as the records screen keeps
    /// them, or a game in notation).
    pub analyse: Option<PathBuf>,
    /// Start on the finished game in this file, its game-over card shown.
    pub game_over: Option<PathBuf>,
}

/// Who the person plays against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The computer at `level`, the person playing `person`.
    Computer {
        /// The computer's level.
        level: Level,
        /// The person's side.
        person: Side,
    },
    /// Someone at the same device.
    Friend,
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
    /// Accept a turn-based challenge by its code (a challenge's link).
    Challenge(String),
}

impl OnlineAction {
    fn parse(s: &str) -> Result<OnlineAction, LaunchError> {
        match s {
            "lobby" | "" => Ok(OnlineAction::Lobby),
            "quick" => Ok(OnlineAction::Quick),
            "room" => Ok(OnlineAction::Room),
            "watch" => Ok(OnlineAction::Watch),
            _ => {
                // A code is letters and digits (a room's 8, a challenge's 20): anything else is
                // a mistyped link.
                let code = |c: &str| {
                    (!c.is_empty() && c.len() <= 32 && c.chars().all(|ch| ch.is_ascii_alphanumeric()))
                        .then(|| c.to_string())
                };
                if let Some(c) = s.strip_prefix("join:").and_then(code) {
                    Ok(OnlineAction::Join(c))
                } else if let Some(c) = s.strip_prefix("challenge:").and_then(code) {
                    Ok(OnlineAction::Challenge(c))
                } else {
                    Err(LaunchError::Unknown {
                        what: "online action",
                        value: s.to_string(),
                        expected: "lobby, quick, room, watch, join:CODE or challenge:CODE",
                    })
                }
            }
        }
    }
}

fn parse_variant(s: &str) -> Result<Variant, LaunchError> {
    Variant::parse(s).map_err(|_| LaunchError::Unknown {
        what: "game",
        value: s.to_string(),
        expected: "latrunculi, latrunculi-quick or alquerque",
    })
}

fn parse_lang(s: &str) -> Result<Lang, LaunchError> {
    Lang::parse(s).ok_or_else(|| LaunchError::Unknown {
        what: "language",
        value: s.to_string(),
        expected: "en or vi",
    })
}

/// `--screen`'s value.
fn parse_screen(s: &str) -> Result<Screen, LaunchError> {
    Screen::parse(s).ok_or_else(|| LaunchError::Unknown {
        what: "screen",
        value: s.to_string(),
        expected: "title, language, lessons, puzzles, rules, settings or records",
    })
}

#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
fn parse_size(s: &str) -> Result<(u32, u32), LaunchError> {
    let (w, h) = s.split_once('x').ok_or_else(|| LaunchError::Size(s.to_string()))?;
    let parse = |s: &str| s.parse::<u32>().ok().filter(|n| (200..=8192).contains(n));
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(LaunchError::Size(s.to_string())),
    }
}

/// The options as given, each checked on its own (the command line through clap, or the page's
/// address); [`Options::launch`] checks them together.
#[derive(Clone, Debug, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(clap::Parser))]
#[cfg_attr(
    not(target_arch = "wasm32"),
    command(name = "ludus", version, about = "Latrunculi and Alquerque, two ancient capture games")
)]
pub struct Options {
    /// Start straight into a game: latrunculi, latrunculi-quick or alquerque.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_name = "GAME", value_parser = parse_variant))]
    pub game: Option<Variant>,
    /// The game's start position (with --game).
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_name = "POS"))]
    pub position: Option<String>,
    /// The interface language: en or vi.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_name = "LANG", value_parser = parse_lang))]
    pub lang: Option<Lang>,
    /// The window size in logical pixels, WxH (each from 200 to 8192).
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_name = "WxH", value_parser = parse_size))]
    pub size: Option<(u32, u32)>,
    /// Render the first settled frame of the game to this PNG and exit.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_name = "PATH"))]
    pub screenshot: Option<PathBuf>,
    /// With --screenshot: take it this many milliseconds after the frame settles (0 to 60000).
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_name = "MS", default_value_t = 0,
        value_parser = clap::value_parser!(u64).range(0..=60_000)))]
    pub screenshot_after: u64,
    /// Start on a screen: title, language, lessons, puzzles, rules, settings or records.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_name = "NAME", value_parser = parse_screen))]
    pub screen: Option<Screen>,
    /// Start a lesson, by its id (`latrunculi-1`, `alquerque-3`...).
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_name = "ID"))]
    pub lesson: Option<String>,
    /// Open the analysis of a game: a file of recent games as the game keeps them
    /// (`records.json`: the newest), one record's JSON, or the game in notation (the game's name,
    /// optionally a start position, then the moves).
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_name = "FILE"))]
    pub analyse: Option<PathBuf>,
    /// Show a finished game (a file as for --analyse) with its game-over card (with
    /// --screenshot, take it after --screenshot-after 3000: the end's moment comes first).
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_name = "FILE"))]
    pub game_over: Option<PathBuf>,
    /// With --game and --screenshot: play these moves (notation, separated by spaces) once the
    /// board has settled, animated, each after the last has settled; --screenshot-after then
    /// counts from the last one (a capture's burst, the end-of-game moment).
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_name = "MOVES"))]
    pub play: Option<String>,
    /// Go online at once: lobby, quick, room, watch, join:CODE or challenge:CODE.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_name = "ACTION", value_parser = OnlineAction::parse))]
    pub online: Option<OnlineAction>,
    /// The server to go online with (with --online).
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_name = "ADDR"))]
    pub server: Option<String>,
    /// The nickname to go online with (with --online).
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_name = "NAME"))]
    pub nick: Option<String>,
}

impl Options {
    /// The options checked together; an error says what is wrong.
    pub fn launch(self) -> Result<Launch, LaunchError> {
        let mut launch = Launch {
            lang: self.lang,
            size: self.size,
            screenshot: self.screenshot,
            screenshot_after_ms: self.screenshot_after,
            screen: self.screen,
            lesson: self.lesson,
            analyse: self.analyse,
            game_over: self.game_over,
            ..Launch::default()
        };
        if [
            launch.screen.is_some(),
            launch.lesson.is_some(),
            self.game.is_some() || self.online.is_some(),
            launch.analyse.is_some(),
            launch.game_over.is_some(),
        ]
        .into_iter()
        .filter(|b| *b)
        .count()
            > 1
        {
            return Err(LaunchError::Combination(
                "--screen, --lesson, --analyse, --game-over and --game or --online each choose the first \
                 screen: give one",
            ));
        }
        if self.screenshot_after > 0 && launch.screenshot.is_none() {
            return Err(LaunchError::Combination("--screenshot-after needs --screenshot"));
        }
        match self.online {
            Some(action) => {
                if self.position.is_some() || launch.screenshot.is_some() {
                    return Err(LaunchError::Combination(
                        "--online does not go with --position or --screenshot",
                    ));
                }
                launch.online = Some(OnlineLaunch { server: self.server, nickname: self.nick, action });
            }
            None if self.server.is_some() || self.nick.is_some() => {
                return Err(LaunchError::Combination("--server and --nick need --online"));
            }
            None => {}
        }
        if let Some(p) = &self.position {
            let v = self.game.ok_or(LaunchError::Combination("--position needs --game"))?;
            let pos = AnyPosition::parse(v, p).map_err(|e| LaunchError::Position(e.to_string()))?;
            launch.game = Some(AnyGame::from_position(pos));
        } else if let Some(v) = self.game {
            launch.game = Some(AnyGame::new(v));
        }
        if let Some(moves) = &self.play {
            if launch.screenshot.is_none() {
                return Err(LaunchError::Combination("--play needs --screenshot"));
            }
            let mut game = launch.game.clone().ok_or(LaunchError::Combination("--play needs --game"))?;
            for (i, mv) in moves.split_whitespace().enumerate() {
                let bad = |problem: String| LaunchError::Move { index: i + 1, text: mv.to_string(), problem };
                if game.is_over() {
                    return Err(bad("it comes after the end of the game".to_string()));
                }
                let parsed = game.position().parse_move(mv).map_err(|e| bad(e.to_string()))?;
                game.play(&parsed).map_err(|e| bad(e.to_string()))?;
                launch.play.push(parsed);
            }
            if launch.play.is_empty() {
                return Err(LaunchError::Combination("--play needs at least one move"));
            }
        }
        if launch.screenshot.is_some()
            && launch.game.is_none()
            && launch.screen.is_none()
            && launch.lesson.is_none()
            && launch.analyse.is_none()
            && launch.game_over.is_none()
        {
            launch.game = Some(AnyGame::new(Variant::Latrunculi));
        }
        Ok(launch)
    }
}

impl Launch {
    /// Reads command-line options (without the program's name); an error says what is wrong
    /// (clap's message, with the usage, for an option it refuses).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn parse(args: &[String]) -> Result<Launch, LaunchError> {
        use clap::Parser;
        let options =
            Options::try_parse_from(std::iter::once("ludus".to_string()).chain(args.iter().cloned()))
                .map_err(|e| LaunchError::Usage(e.to_string()))?;
        options.launch()
    }

    /// Reads the options of a browser address's query string (`?game=alquerque&level=easy`):
    /// `game`, `position`, `lang`, `online`, `server` and `nick` as on the command line; `level`
    /// plays the computer at that level (`none`: two players), the person playing `side` (`first`
    /// unless given).
    pub fn from_query(query: &str) -> Result<Launch, LaunchError> {
        let mut options = Options::default();
        let mut level = None;
        let mut side = None;
        for pair in query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            // A `+` is a space in a query.
            let value = percent_encoding::percent_decode_str(&value.replace('+', " "))
                .decode_utf8()
                .map_err(|_| LaunchError::NotUtf8(value.to_string()))?
                .into_owned();
            match key {
                "game" => options.game = Some(parse_variant(&value)?),
                "position" => options.position = Some(value),
                "lang" => options.lang = Some(parse_lang(&value)?),
                "online" => options.online = Some(OnlineAction::parse(&value)?),
                // A challenge's link: `?challenge=CODE`.
                "challenge" => options.online = Some(OnlineAction::parse(&format!("challenge:{value}"))?),
                "server" => options.server = Some(value),
                "nick" => options.nick = Some(value),
                "screen" => options.screen = Some(parse_screen(&value)?),
                "lesson" => options.lesson = Some(value),
                "level" => {
                    level = Some(match value.as_str() {
                        "easy" => Some(Level::Easy),
                        "medium" => Some(Level::Medium),
                        "hard" => Some(Level::Hard),
                        "none" => None,
                        _ => {
                            return Err(LaunchError::Unknown {
                                what: "level",
                                value,
                                expected: "easy, medium, hard or none",
                            });
                        }
                    })
                }
                "side" => {
                    side = Some(match value.as_str() {
                        "first" => Side::First,
                        "second" => Side::Second,
                        _ => {
                            return Err(LaunchError::Unknown {
                                what: "side",
                                value,
                                expected: "first or second",
                            });
                        }
                    })
                }
                _ => {} // other parameters belong to the page
            }
        }
        let mut launch = options.launch()?;
        launch.opponent = match (level, side) {
            (Some(Some(level)), side) => {
                Some(Opponent::Computer { level, person: side.unwrap_or(Side::First) })
            }
            (Some(None), _) => Some(Opponent::Friend),
            (None, Some(_)) => return Err(LaunchError::Combination("side needs a level")),
            (None, None) => None,
        };
        Ok(launch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_ai::Level;

    #[test]
    fn query_starts_a_game_against_the_computer() {
        let l = Launch::from_query("?game=alquerque&level=easy").unwrap();
        assert_eq!(l.game.as_ref().map(AnyGame::variant), Some(Variant::Alquerque));
        assert_eq!(l.opponent, Some(Opponent::Computer { level: Level::Easy, person: Side::First }));
        let l = Launch::from_query("game=latrunculi-quick&level=hard&side=second&lang=vi").unwrap();
        assert_eq!(l.game.as_ref().map(AnyGame::variant), Some(Variant::LatrunculiQuick));
        assert_eq!(l.opponent, Some(Opponent::Computer { level: Level::Hard, person: Side::Second }));
        assert_eq!(l.lang, Some(Lang::Vi));
        let l = Launch::from_query("?game=alquerque&level=none").unwrap();
        assert_eq!(l.opponent, Some(Opponent::Friend));
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
        let args: Vec<String> =
            ["--online", "challenge:748W7TQZRPTH3V4NFU3E"].iter().map(|s| s.to_string()).collect();
        let action = Launch::parse(&args).unwrap().online.unwrap().action;
        assert_eq!(action, OnlineAction::Challenge("748W7TQZRPTH3V4NFU3E".into()));
        let l = Launch::from_query("?challenge=K7QX2M&server=ws%3A%2F%2F127.0.0.1%3A5001").unwrap();
        let o = l.online.unwrap();
        assert_eq!(o.action, OnlineAction::Challenge("K7QX2M".into()));
        assert_eq!(o.server.as_deref(), Some("ws://127.0.0.1:5001"));
        for bad in ["?challenge=", "?challenge=AB%20CD", "?challenge=<script>"] {
            assert!(Launch::from_query(bad).is_err(), "{bad}");
        }
        for bad in [
            &["--online", "dance"][..],
            &["--server", "x"],
            &["--online", "join:"],
            &["--online", "challenge:"],
            &["--online", "challenge:AB-CD"],
        ] {
            let args: Vec<String> = bad.iter().map(|s| s.to_string()).collect();
            assert!(Launch::parse(&args).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn screen_and_lesson_options() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let l = Launch::parse(&args(&["--screen", "lessons", "--screenshot", "x.png"])).unwrap();
        assert_eq!(l.screen, Some(Screen::Lessons));
        assert!(l.game.is_none(), "a screenshot of a screen starts no game");
        assert_eq!(
            Launch::parse(&args(&["--lesson", "alquerque-2"])).unwrap().lesson.as_deref(),
            Some("alquerque-2")
        );
        assert_eq!(Launch::from_query("?screen=language").unwrap().screen, Some(Screen::Language));
        for bad in [
            &["--screen", "dance"][..],
            &["--screen", "title", "--game", "alquerque"],
            &["--lesson", "x", "--screen", "title"],
            &["--lesson", "x", "--online", "quick"],
        ] {
            assert!(Launch::parse(&args(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn analyse_and_game_over_options_choose_the_first_screen() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let l = Launch::parse(&args(&["--analyse", "game.txt", "--screenshot", "x.png"])).unwrap();
        assert_eq!(l.analyse.as_deref(), Some(std::path::Path::new("game.txt")));
        assert!(l.game.is_none(), "the game comes from the file");
        let l = Launch::parse(&args(&["--game-over", "records.json"])).unwrap();
        assert_eq!(l.game_over.as_deref(), Some(std::path::Path::new("records.json")));
        for bad in [
            &["--analyse", "a", "--game", "alquerque"][..],
            &["--analyse", "a", "--game-over", "b"],
            &["--game-over", "a", "--screen", "title"],
        ] {
            assert!(Launch::parse(&args(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn query_without_options_is_the_title_screen() {
        for q in ["", "?", "?utm=x"] {
            let l = Launch::from_query(q).unwrap();
            assert!(l.game.is_none() && l.opponent.is_none() && l.lang.is_none(), "{q}");
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

    #[test]
    fn play_option_checks_the_moves_against_the_game() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let quick_end = "Bbbbbbbb/8/8/8/8/8/4R3/rrrrrrrr r";
        let l = Launch::parse(&args(&[
            "--game",
            "latrunculi-quick",
            "--position",
            quick_end,
            "--play",
            "a1-a7",
            "--screenshot",
            "x.png",
        ]))
        .unwrap();
        assert_eq!(l.play.len(), 1);
        let start = AnyPosition::parse(Variant::LatrunculiQuick, quick_end).unwrap();
        assert_eq!(l.game.unwrap().position(), start, "the moves are played on the board, not at launch");
        let two =
            Launch::parse(&args(&["--game", "alquerque", "--play", "b2-c3 d4xb2", "--screenshot", "x.png"]));
        assert_eq!(two.unwrap().play.len(), 2);
        for bad in [
            // Illegal, malformed, after the end, without a game, without a screenshot, empty.
            &["--game", "alquerque", "--play", "a1-a2", "--screenshot", "x.png"][..],
            &["--game", "alquerque", "--play", "zz", "--screenshot", "x.png"],
            &[
                "--game",
                "latrunculi-quick",
                "--position",
                quick_end,
                "--play",
                "a1-a7 a8-a7",
                "--screenshot",
                "x.png",
            ],
            &["--play", "b2-c3", "--screenshot", "x.png"],
            &["--game", "alquerque", "--play", "b2-c3"],
            &["--game", "alquerque", "--play", " ", "--screenshot", "x.png"],
        ] {
            let e = Launch::parse(&args(bad)).unwrap_err();
            assert!(e.to_string().contains("--play"), "{bad:?}: {e}");
        }
    }
}
