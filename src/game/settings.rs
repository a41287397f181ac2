//! The player's settings: language, text size, animation speed, board theme, sound. Loaded at
//! start and saved whenever they change; with none saved yet, the language comes from the system
//! and the first start asks for it.

use crate::game::Notices;
use crate::game::session::Level;
use crate::i18n::{Id, Lang, id};
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

    /// The message id of its name.
    pub fn key(self) -> Id {
        match self {
            AnimSpeed::Off => id!("settings-anim-off"),
            AnimSpeed::Fast => id!("settings-anim-fast"),
            AnimSpeed::Normal => id!("settings-anim-normal"),
            AnimSpeed::Slow => id!("settings-anim-slow"),
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

    /// The message id of its name.
    pub fn key(self) -> Id {
        match self {
            Theme::Wood => id!("settings-theme-wood"),
            Theme::Stone => id!("settings-theme-stone"),
            Theme::Contrast => id!("settings-theme-contrast"),
        }
    }
}

/// How large the interface's text is (every screen is scaled by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum TextSize {
    /// 100 %.
    #[default]
    Normal,
    /// 125 %.
    Large,
    /// 150 %.
    Larger,
    /// 200 %.
    Largest,
}

impl TextSize {
    /// Every size, smallest first.
    pub const ALL: [TextSize; 4] = [TextSize::Normal, TextSize::Large, TextSize::Larger, TextSize::Largest];

    /// The factor every screen is scaled by.
    pub fn factor(self) -> f32 {
        match self {
            TextSize::Normal => 1.0,
            TextSize::Large => 1.25,
            TextSize::Larger => 1.5,
            TextSize::Largest => 2.0,
        }
    }

    /// Its name: the percentage.
    pub fn label(self) -> String {
        format!("{} %", (self.factor() * 100.0).round())
    }
}

/// Everything the player chose, kept between runs.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Interface language.
    pub lang: Lang,
    /// Text size.
    pub text_size: TextSize,
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
            text_size: TextSize::Normal,
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
const DOCUMENT: Document = Document { name: "settings.json", corrupt: crate::i18n::id!("settings-corrupt") };

/// Whether this is the first start: no settings were ever saved, so the game asks for the
/// language before the title screen.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FirstStart(pub bool);

impl Settings {
    /// Reads the saved settings; unreadable settings are set aside and defaults used, with a
    /// message for the player (in `lang`: the settings' own language is unknown then).
    pub fn load(lang: Lang) -> (Settings, Option<String>) {
        let (settings, notice) = DOCUMENT.load_json(lang);
        (settings.unwrap_or_default(), notice)
    }

    /// The settings to start with: the saved ones, else defaults in the `system` language. The
    /// language given at launch (`--lang`, `?lang=`) wins over both. The first start (nothing
    /// saved, not even an unreadable file, and no language given) asks for the language.
    pub fn start(launch: Option<Lang>, system: Lang) -> (Settings, FirstStart, Option<String>) {
        let (saved, notice) = DOCUMENT.load_json::<Settings>(launch.unwrap_or(system));
        let first = saved.is_none() && notice.is_none() && launch.is_none();
        let mut settings = saved.unwrap_or_else(|| Settings { lang: system, ..Settings::default() });
        if let Some(lang) = launch {
            settings.lang = lang;
        }
        (settings, FirstStart(first), notice)
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
    app.init_resource::<Notices>().init_resource::<FirstStart>();
    if !app.world().contains_resource::<Settings>() {
        let (settings, notice) = Settings::load(Lang::default());
        app.insert_resource(settings);
        app.world_mut().resource_mut::<Notices>().0.extend(notice);
    }
    app.add_systems(Last, save_on_change);
}
