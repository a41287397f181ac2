//! What a screen reader is told as the game goes on (the newest [`Announcement`], read by a live
//! region: egui's AccessKit tree on the desktop, see `screens::access`): each move with its
//! captures, whose turn it is, a king in danger, the end of the game; the square under the
//! keyboard's cursor; and the answers to the reading keys of the game screen, after lichess's
//! blind mode: P the whole position, L the last move, M and O the pieces of each side (the
//! player's first), C the pieces that can capture, T whose turn and the clocks.

use crate::app::Screen;
use crate::board::view::Cursor;
use crate::game::describe;
use crate::game::selection::Selected;
use crate::game::session::Session;
use crate::game::settings::Settings;
use crate::i18n::Lang;
use crate::ui::widgets::status_text;
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;
use ludus_rules::{AnyGame, Square};

/// The newest thing to tell the player; `serial` counts them, so that saying the same words
/// again (reading the position twice) is a new announcement.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Announcement {
    pub text: String,
    pub serial: u64,
}

impl Announcement {
    /// Tells `text` (nothing when it is empty).
    pub fn say(&mut self, text: String) {
        if !text.is_empty() {
            self.text = text;
            self.serial += 1;
        }
    }
}

/// The game as it was last told: which game (its start), how many moves, whether it was over.
#[derive(Default)]
struct Told {
    game: Option<(String, usize, bool)>,
}

/// What happened since the last frame, in words: the move just played (or taken back), then the
/// status (whose turn, a forced capture, a king in danger, or the end).
pub fn play_news(lang: Lang, game: &AnyGame, before_ply: Option<usize>, status: &[String]) -> String {
    let ply = game.ply();
    let mut parts = Vec::new();
    match before_ply {
        Some(before) if ply > before => {
            for k in before..ply {
                if let Some(mv) = game.moves().get(k) {
                    parts.push(describe::move_text(lang, &game.position_at(k), mv));
                }
            }
        }
        // Back to the start is a new game (or every move taken back): the status says enough.
        Some(before) if ply < before && ply > 0 => parts.push(lang.t("a11y-taken-back").to_string()),
        _ => {}
    }
    parts.extend(status.iter().cloned());
    parts.join(" ")
}

/// Tells each move (the player's, the computer's, the opponent's online), then the status; a
/// game that ends without a move (resigned, on time, agreed) is told too.
fn announce_play(
    session: Option<Res<Session>>,
    settings: Res<Settings>,
    selected: Option<Res<Selected>>,
    mut told: Local<Told>,
    mut out: ResMut<Announcement>,
) {
    let Some(session) = session else {
        told.game = None;
        return;
    };
    let game = &session.game;
    let now = (game.start().to_string(), game.ply(), game.is_over());
    if told.game.as_ref() == Some(&now) {
        return;
    }
    let before = told.game.as_ref().filter(|(start, ..)| *start == now.0).map(|(_, ply, _)| *ply);
    let selected = selected.map(|s| s.clone()).unwrap_or_default();
    let status = status_text(settings.lang, &session, false, &selected);
    out.say(play_news(settings.lang, game, before, &status));
    told.game = Some(now);
}

/// Tells the square under the keyboard's cursor as it moves.
fn announce_cursor(
    cursor: Option<Res<Cursor>>,
    session: Option<Res<Session>>,
    settings: Res<Settings>,
    mut last: Local<Option<Square>>,
    mut out: ResMut<Announcement>,
) {
    let (Some(cursor), Some(session)) = (cursor, session) else { return };
    let at = cursor.square.filter(|_| cursor.shown);
    if at != *last {
        *last = at;
        if let Some(sq) = at {
            out.say(describe::square_text(settings.lang, &session.game.position(), sq));
        }
    }
}

/// A reading key of the game screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// P: whose turn and every piece.
    Position,
    /// L: the last move.
    LastMove,
    /// M: the player's pieces (the side to move's, between two players).
    Mine,
    /// O: the other side's pieces.
    Theirs,
    /// C: the pieces that can capture.
    Captures,
    /// T: whose turn, a king in danger, the end.
    Status,
}

/// The answer to a reading key.
pub fn reading_text(lang: Lang, session: &Session, reading: Reading, status: &[String]) -> String {
    let game = &session.game;
    let pos = game.position();
    let mine = session.seats.human_side().unwrap_or(pos.side_to_move());
    match reading {
        Reading::Position => describe::position_text(lang, &pos),
        Reading::LastMove => match game.moves().last() {
            Some(mv) => describe::move_text(lang, &game.position_at(game.ply() - 1), mv),
            None => lang.t("a11y-no-move-yet").to_string(),
        },
        Reading::Mine => describe::side_text(lang, &pos, mine),
        Reading::Theirs => describe::side_text(lang, &pos, !mine),
        Reading::Captures => describe::captures_text(lang, &pos),
        Reading::Status => status.join(" "),
    }
}

/// The reading keys, on the game screen, when no text field has the keyboard.
fn answer_keys(
    keys: Res<ButtonInput<KeyCode>>,
    session: Option<Res<Session>>,
    settings: Res<Settings>,
    selected: Option<Res<Selected>>,
    egui: Option<Res<EguiWantsInput>>,
    mut out: ResMut<Announcement>,
) {
    let Some(session) = session else { return };
    if egui.as_ref().is_some_and(|e| e.wants_keyboard_input()) {
        return;
    }
    let reading = [
        (KeyCode::KeyP, Reading::Position),
        (KeyCode::KeyL, Reading::LastMove),
        (KeyCode::KeyM, Reading::Mine),
        (KeyCode::KeyO, Reading::Theirs),
        (KeyCode::KeyC, Reading::Captures),
        (KeyCode::KeyT, Reading::Status),
    ]
    .into_iter()
    .find(|(key, _)| keys.just_pressed(*key));
    let Some((_, reading)) = reading else { return };
    let selected = selected.map(|s| s.clone()).unwrap_or_default();
    let status = status_text(settings.lang, &session, false, &selected);
    out.say(reading_text(settings.lang, &session, reading, &status));
}

/// The announcer: its resource and systems (the reading keys only on the game screen).
pub fn plugin(app: &mut App) {
    app.init_resource::<Announcement>().add_systems(
        Update,
        (announce_play, announce_cursor, answer_keys)
            .run_if(in_state(Screen::Playing))
            .in_set(crate::app::AppSet::Apply),
    );
}
