//! Command-line options: `ludus --game GAME [--position POS] [--lang en|vi] [--size WxH]
//! [--screenshot PATH]`.

use crate::i18n::Lang;
use bevy::prelude::*;
use ludus_rules::{AnyGame, AnyPosition, Variant};
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
}
