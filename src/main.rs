//! The Ludus game: `cargo run --release`.

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy::winit::{UpdateMode, WinitSettings};
use ludus::app::Screen;
#[cfg(not(target_arch = "wasm32"))]
use ludus::app::launch::Options;
use ludus::app::launch::{Launch, LaunchError, Opponent};
use ludus::game::Notices;
use ludus::game::session::{Seats, Session};
use ludus::game::settings::Settings;
use std::time::Duration;

/// The options: the command line on the desktop (clap: `--help` and `--version` exit 0, a usage
/// error prints the usage and exits 2), the page's address in the browser
/// (`?game=alquerque&level=easy`).
#[cfg(not(target_arch = "wasm32"))]
fn options() -> Result<Launch, LaunchError> {
    use clap::{CommandFactory, FromArgMatches};
    // `--version` names the commit too (ludus::app::version).
    let version: &'static str = ludus::app::version::long_version().leak();
    let mut command = Options::command().version(version);
    let options = command
        .try_get_matches_from_mut(std::env::args_os())
        .and_then(|mut matches| Options::from_arg_matches_mut(&mut matches))
        .unwrap_or_else(|e| e.format(&mut command).exit());
    Ok(options.launch().unwrap_or_else(|e| command.error(clap::error::ErrorKind::ArgumentConflict, e).exit()))
}

#[cfg(target_arch = "wasm32")]
fn options() -> Result<Launch, LaunchError> {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    Launch::from_query(&search)
}

fn main() -> AppExit {
    // Runs the static constructors (Bevy's reflection lists its types with them) once, here.
    // Without a call to them, the linker makes every call from JavaScript into the game run
    // them all again: every frame, every event, every slice of the computer's search.
    #[cfg(target_arch = "wasm32")]
    bevy::reflect::TypeRegistry::empty().register_derived_types();
    let mut ignored = None;
    let launch = match options() {
        Ok(l) => l,
        // A page with a bad address still opens, on the title screen.
        Err(e) if cfg!(target_arch = "wasm32") => {
            ignored = Some(e);
            Launch::default()
        }
        Err(e) => {
            eprintln!("ludus: {e}");
            return AppExit::error();
        }
    };
    let (settings, first_start, notice) = Settings::start(launch.lang, ludus::platform::system_lang());
    let (w, h) = launch.size.or_else(ludus::platform::canvas_size).unwrap_or((1280, 800));
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: ludus::shell::title_text(settings.lang, 0),
                    resolution: WindowResolution::new(w, h),
                    // The page's `<canvas id="ludus">`, filling its parent.
                    canvas: cfg!(target_arch = "wasm32").then(|| "#ludus".to_string()),
                    fit_canvas_to_parent: true,
                    prevent_default_event_handling: true,
                    ..default()
                }),
                ..default()
            })
            .set(AssetPlugin { meta_check: bevy::asset::AssetMetaCheck::Never, ..default() }),
    );
    if let Some(e) = &ignored {
        warn!("ignored the address's options: {e}");
    }
    // Nothing moves, nothing runs: the game waits for input (animations ask for frames).
    app.insert_resource(if launch.screenshot.is_some() {
        WinitSettings::continuous()
    } else {
        WinitSettings {
            focused_mode: UpdateMode::reactive(Duration::from_secs(1)),
            unfocused_mode: UpdateMode::reactive_low_power(Duration::from_secs(5)),
        }
    });
    app.insert_resource(ClearColor(Color::srgb(0.16, 0.13, 0.11)));
    // The player's usual opponent, for a game started from the command line or the address.
    let usual = if settings.vs_computer {
        Seats::versus_computer(settings.human_side, settings.level)
    } else {
        Seats::two_players()
    };
    // A link that asked for something the game does not know: the player is told, in their words.
    let ignored = ignored.map(|_| settings.lang.t("launch-address-ignored").to_string());
    app.insert_resource(settings);
    let first = first_start.0;
    app.insert_resource(first_start);
    app.insert_resource(Notices(notice.into_iter().chain(ignored).collect()));
    app.add_plugins(ludus::game_plugin);
    if let Err(e) = first_screen(&mut app, &launch, usual, first) {
        eprintln!("ludus: {e}");
        return AppExit::error();
    }
    app.insert_resource(launch);
    app.run()
}

/// Why the game cannot start on the screen asked for.
#[derive(Debug, thiserror::Error)]
enum StartError {
    #[error("no lesson '{0}'")]
    NoLesson(String),
    #[error(transparent)]
    GameFile(#[from] ludus::players::analysis::GameFileError),
    #[error("{0}: the game is not over")]
    NotOver(String),
}

/// The first screen and what it shows: online, a lesson, a screen, a game's analysis or its
/// end, a game (two players for a screenshot, else the seats asked for, else the player's usual
/// opponent), or the language's choice on the very first start.
fn first_screen(app: &mut App, launch: &Launch, usual: Seats, first_start: bool) -> Result<(), StartError> {
    if launch.online.is_some() {
        app.insert_state(Screen::Online);
    } else if let Some(id) = &launch.lesson {
        let Some((session, run)) =
            ludus::game::lessons::find(id).and_then(|(c, i)| ludus::game::lessons::begin(c, i))
        else {
            return Err(StartError::NoLesson(id.clone()));
        };
        app.insert_resource(session);
        app.insert_resource(run);
        app.insert_state(Screen::Playing);
    } else if let Some(screen) = launch.screen {
        app.insert_state(screen);
    } else if let Some(path) = launch.analyse.as_ref().or(launch.game_over.as_ref()) {
        let (game, seats) = ludus::players::analysis::read_game_file(path)?;
        if launch.analyse.is_some() {
            let (analysis, session) = ludus::players::analysis::opened(game, seats);
            app.insert_resource(session);
            app.insert_resource(analysis);
            app.insert_state(Screen::Analysis);
        } else if game.is_over() {
            app.insert_resource(Session::from_game(game, seats));
            app.insert_state(Screen::Playing);
        } else {
            return Err(StartError::NotOver(path.display().to_string()));
        }
    } else if let Some(game) = launch.game.clone() {
        // Screenshots need a board that waits: two players. Otherwise the seats asked for (the
        // browser's `?level=`), else the player's usual choice.
        let seats = if launch.screenshot.is_some() {
            Seats::two_players()
        } else if let Some(opponent) = launch.opponent {
            match opponent {
                Opponent::Computer { level, person } => Seats::versus_computer(person, level),
                Opponent::Friend => Seats::two_players(),
            }
        } else {
            usual
        };
        app.insert_resource(Session::from_game(game, seats));
        app.insert_state(Screen::Playing);
    } else if first_start {
        app.insert_state(Screen::Language);
    }
    Ok(())
}
