//! Going from screen to screen: the screens ask with a [`NavIntent`], and the app moves there
//! (or quits) at the end of the frame, so that the next frame shows the new screen.

use crate::app::Screen;
use bevy::prelude::*;

/// Where the player asked to go.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum NavIntent {
    /// Show this screen.
    Go(Screen),
    /// Close the game (not in the browser, where the page stays).
    Quit,
}

/// Acts on the frame's [`NavIntent`]s: the last one asked wins; the screen showing already stays
/// as it is (nothing leaves it or enters it again).
pub fn navigate(
    mut intents: MessageReader<NavIntent>,
    state: Option<Res<State<Screen>>>,
    next: Option<ResMut<NextState<Screen>>>,
    mut exit: MessageWriter<AppExit>,
) {
    let mut go = None;
    for intent in intents.read() {
        match intent {
            NavIntent::Go(screen) => go = Some(*screen),
            NavIntent::Quit => {
                exit.write(AppExit::Success);
            }
        }
    }
    if let (Some(screen), Some(mut next)) = (go, next)
        && state.is_none_or(|s| *s.get() != screen)
    {
        next.set(screen);
    }
}

/// Navigation: the intents and their handler, after everything else of the frame.
pub fn plugin(app: &mut App) {
    app.add_message::<NavIntent>().add_systems(Last, navigate);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin));
        app.init_state::<Screen>().add_plugins(plugin);
        app.update();
        app
    }

    #[test]
    fn a_navigation_intent_shows_its_screen_at_the_next_frame() {
        let mut app = app();
        assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Title);
        app.world_mut().write_message(NavIntent::Go(Screen::Rules));
        app.update();
        app.update();
        assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Rules);
        // Two in one frame: the last one wins.
        app.world_mut().write_message(NavIntent::Go(Screen::Settings));
        app.world_mut().write_message(NavIntent::Go(Screen::Online));
        app.update();
        app.update();
        assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Online);
    }

    #[test]
    fn quitting_asks_the_app_to_exit() {
        let mut app = app();
        app.world_mut().write_message(NavIntent::Quit);
        app.update();
        let exits = app.world().resource::<Messages<AppExit>>();
        assert!(exits.iter_current_update_messages().any(|e| *e == AppExit::Success));
    }
}
