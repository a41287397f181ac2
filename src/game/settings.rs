//! The player's settings: language, animation speed, board theme, sound. Loaded at start and
//! saved whenever they change.

use crate::game::Notices;
use crate::game::session::Level;
use crate::i18n::Lang;
use crate::platform::storage::Document;
use bevy::prelude::*;
use ludus_rules::{Side, Variant};
use serde::{Deserialize, Serialize};

/// How fast moves are animated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum AnimSpeed {
    /// No animation: moves appear at once.
    Off,
    /// Half the normal time.
    Fast,
    /// The normal pace.
    #[default]
    Normal,
    /// Twice the normal time.
    Slow,
}

impl AnimSpeed {
    /// Every speed.
    pub const ALL: [AnimSpeed; 4] = [AnimSpeed::Off, AnimSpeed::Fast, AnimSpeed::Normal, AnimSpeed::Slow];

    /// The factor applied to animation durations; `None` when off.
    pub fn factor(self) -> Option<f32> {
        match self {
            AnimSpeed::Off => None,
            AnimSpeed::Fast => Some(0.5),
            AnimSpeed::Normal => Some(1.0),
            AnimSpeed::Slow => Some(2.0),
        }
    }

    /// The text key of its name.
    pub fn key(self) -> &'static str {
        match self {
            AnimSpeed::Off => "settings.anim.off",
            AnimSpeed::Fast => "settings.anim.fast",
            AnimSpeed::Normal => "settings.anim.normal",
            AnimSpeed::Slow => "settings.anim.slow",
        }
    }
}

/// The board's look.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Theme {
    /// Warm wood.
    #[default]
    Wood,
    /// Grey stone.
    Stone,
    /// Black, white and yellow.
    Contrast,
}

impl Theme {
    /// Every theme.
    pub const ALL: [Theme; 3] = [Theme::Wood, Theme::Stone, Theme::Contrast];

    /// The text key of its name.
    pub fn key(self) -> &'static str {
        match self {
            Theme::Wood => "settings.theme.wood",
            Theme::Stone => "settings.theme.stone",
            Theme::Contrast => "settings.theme.contrast",
        }
    }
}

/// Everything the player chose, kept between runs.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Interface language.
    pub lang: Lang,
    /// Animation speed.
    pub anim: AnimSpeed,
    /// Board theme.
    pub theme: Theme,
    /// Sound effects on.
    pub sound: bool,
    /// Coordinates around the board.
    pub coordinates: bool,
    /// The last game chosen in the menu.
    pub variant: Variant,
    /// The last opponent chosen: the computer (true) or a friend.
    pub vs_computer: bool,
    /// The side last played against the computer.
    pub human_side: Side,
    /// The last level chosen.
    pub level: Level,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            lang: Lang::En,
            anim: AnimSpeed::Normal,
            theme: Theme::Wood,
            sound: true,
            coordinates: true,
            variant: Variant::Latrunculi,
            vs_computer: true,
            human_side: Side::First,
            level: Level::Medium,
        }
    }
}

/// The settings' document.
const DOCUMENT: Document = Document { name: "settings.json", corrupt_key: "settings.corrupt" };

impl Settings {
    /// Reads the saved settings; unreadable settings are set aside and defaults used, with a
    /// message for the player (in `lang`: the settings' own language is unknown then).
    pub fn load(lang: Lang) -> (Settings, Option<String>) {
        let (settings, notice) = DOCUMENT.load_json(lang);
        (settings.unwrap_or_default(), notice)
    }

    /// Writes the settings.
    pub fn save(&self) {
        if let Err(e) = DOCUMENT.save_json(self) {
            warn!("settings could not be saved: {e}");
        }
    }
}

fn save_on_change(settings: Res<Settings>) {
    if settings.is_changed() && !settings.is_added() {
        settings.save();
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Notices>();
    if !app.world().contains_resource::<Settings>() {
        let (settings, notice) = Settings::load(Lang::default());
        app.insert_resource(settings);
        app.world_mut().resource_mut::<Notices>().0.extend(notice);
    }
    app.add_systems(Last, save_on_change);
}
