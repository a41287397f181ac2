//! The game's outer edge: the browser page's view of the game (wasm), screenshots from the
//! command line, sound effects.

pub mod screenshot;
pub mod sound;
#[cfg(target_arch = "wasm32")]
pub mod web;

use bevy::prelude::*;

/// Screenshots, sound and, in the browser, the page's view of the game.
pub fn plugin(app: &mut App) {
    app.add_plugins((screenshot::plugin, sound::plugin));
    app.add_systems(Last, window_title);
    #[cfg(target_arch = "wasm32")]
    app.add_plugins(web::plugin);
}

/// The window's title counts the turn-based games waiting for the player's move: "(2) Ludus —
/// Your turn in 2 games online", seen from the taskbar. (In the browser the window's title is
/// only the canvas's `alt`: the page sets its own title from the count the game publishes.)
fn window_title(
    turns: Option<Res<crate::net::views::TurnGames>>,
    settings: Res<crate::game::settings::Settings>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
    mut last: Local<Option<(u32, crate::i18n::Lang)>>,
) {
    let count = turns.map_or(0, |t| t.your_turn());
    let now = (count, settings.lang);
    if *last == Some(now) {
        return;
    }
    let Ok(mut window) = windows.single_mut() else { return };
    *last = Some(now);
    window.title = title_text(settings.lang, count);
}

/// The window's title with `count` games waiting.
pub fn title_text(lang: crate::i18n::Lang, count: u32) -> String {
    match count {
        0 => "Ludus — Latrunculi & Alquerque".to_string(),
        n => format!("({n}) Ludus — {}", lang.fmt("title-your-turn", [("count", n.into())])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn the_title_counts_the_games_waiting() {
        assert_eq!(title_text(Lang::En, 0), "Ludus — Latrunculi & Alquerque");
        assert_eq!(title_text(Lang::En, 1), "(1) Ludus — Your turn in 1 game online");
        assert_eq!(title_text(Lang::Vi, 3), "(3) Ludus — Đến lượt bạn trong 3 ván trực tuyến");
    }
}
