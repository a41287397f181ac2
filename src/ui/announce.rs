//! What a screen reader is told as the game goes on (the newest [`Announcement`], read by a live
//! region: egui's AccessKit tree on the desktop, see `screens::access`, and the page's document
//! in the browser): each move with its captures, whose turn it is, a king in danger, the end of
//! the game; a piece picked and where it can go, a chain's next landings; a hint; a second press
//! asked for; the square under the keyboard's cursor; and the answers to the reading keys of
//! the game screen, after lichess's blind mode: P the whole position, L the last move, M and O
//! the pieces of each side (the player's first), C the captures the player can play (each
//! move named as it is typed), T the status.
//!
//! Everything said in one frame is said together, in the order it happened, once the frame's
//! changes are all made (after `AppSet::View`).

use crate::app::{AppSet, Screen};
use crate::board::view::{BoardView, Cursor};
use crate::game::describe;
use crate::game::intent::{Confirm, Confirming};
use crate::game::selection::Selected;
use crate::game::session::Session;
use crate::game::settings::Settings;
use crate::i18n::Lang;
use crate::ui::widgets::status_text;
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;
use ludus_rules::{AnyGame, AnyMove, Square};

/// The newest thing to tell the player; `serial` counts them, so that the same words said again
/// (the position read twice) are a new announcement.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Announcement {
    pub text: String,
    pub serial: u64,
    /// What this frame has to say so far.
    pending: Vec<String>,
}

impl Announcement {
    /// Tells `text` with whatever else this frame says (nothing when it is empty).
    pub fn say(&mut self, text: String) {
        if !text.trim().is_empty() {
            self.pending.push(text);
        }
    }

    /// The frame's words become the newest announcement.
    fn publish(&mut self) {
        if !self.pending.is_empty() {
            self.text = sentences(&std::mem::take(&mut self.pending));
            self.serial += 1;
        }
    }
}

/// Lines said one after another, each ending as a sentence ("Your move (White)" gets its full
/// stop), so that a reader pauses between them.
pub fn sentences(lines: &[String]) -> String {
    lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .map(|l| if l.ends_with(['.', '!', '?', '…', ':']) { l.to_string() } else { format!("{l}.") })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The game as it was last told: which game (its start), how many moves, whether it was over.
#[derive(Default)]
struct Told {
    game: Option<(String, usize, bool)>,
}

/// What happened since the last frame, in words: the moves just played (or how many were taken
/// back, or a new game), then the status (whose turn, a forced capture, a king in danger, or the
/// end).
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
        Some(before) if ply < before => {
            parts.push(lang.fmt("a11y-taken-back", [("count", (before - ply).into())]));
        }
        _ => {}
    }
    parts.extend(status.iter().cloned());
    sentences(&parts)
}

/// Tells each move (the player's, the computer's, the opponent's online), then the status; a
/// game that ends without a move (resigned, on time, agreed) is told too, and a new game is
/// said as such.
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
    if told.game.as_ref() == Some(&now) && !session.is_added() {
        return;
    }
    let lang = settings.lang;
    let before = if session.is_added() {
        None
    } else {
        told.game.as_ref().filter(|(start, ..)| *start == now.0).map(|(_, ply, _)| *ply)
    };
    let selected = selected.map(|s| s.clone()).unwrap_or_default();
    let status = status_text(lang, &session, false, &selected);
    if before.is_none() && told.game.is_some() {
        out.say(lang.t("a11y-new-game").to_string());
    }
    out.say(play_news(lang, game, before, &status));
    told.game = Some(now);
}

/// A draw offered or declined, by either side (online, the opponent's offer comes this way).
fn announce_draw(
    session: Option<Res<Session>>,
    settings: Res<Settings>,
    mut told: Local<Option<(Option<ludus_rules::Side>, Option<ludus_rules::Side>)>>,
    mut out: ResMut<Announcement>,
) {
    let Some(session) = session else {
        *told = None;
        return;
    };
    let now = (session.draw.open, session.draw.declined_by);
    let before = told.replace(now);
    // Only a change within the same game is news (a game opened with an offer is told by its
    // status).
    let Some((open, declined)) = before.filter(|_| !session.is_added()) else { return };
    let (lang, variant) = (settings.lang, session.game.variant());
    let side = |s| describe::side_word(lang, variant, s);
    if let Some(by) = now.0
        && open != Some(by)
    {
        out.say(lang.fmt("draw-offered", [("side", side(by).into())]));
    } else if let Some(by) = now.1
        && declined != Some(by)
    {
        out.say(lang.fmt("draw-declined", [("side", side(by).into())]));
    }
}

/// The landings a selection can go on to next, by name.
fn next_landings(legal: &[AnyMove], from: Square, partial: &[Square], width: u8) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for mv in legal.iter().filter(|m| m.from() == from) {
        let path = mv.path();
        if path.len() > partial.len() && path[..partial.len()] == *partial {
            let name = path[partial.len()].name(width);
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// Tells a piece picked and where it can go, a chain's next landings, and a pick let go.
fn announce_selection(
    selected: Option<Res<Selected>>,
    session: Option<Res<Session>>,
    settings: Res<Settings>,
    mut last: Local<Option<(Square, usize, usize)>>,
    mut out: ResMut<Announcement>,
) {
    let (Some(selected), Some(session)) = (selected, session) else { return };
    let game = &session.game;
    let now = selected.0.as_ref().map(|s| (s.from, s.partial.len(), game.ply()));
    if now == *last {
        return;
    }
    let lang = settings.lang;
    match &selected.0 {
        Some(s) => {
            let width = game.position().width();
            let names = next_landings(&game.legal_moves(), s.from, &s.partial, width);
            let list = describe::list(lang, &names);
            if s.partial.is_empty() {
                out.say(
                    lang.fmt(
                        "a11y-picked",
                        [("square", s.from.name(width).into()), ("squares", list.into())],
                    ),
                );
            } else {
                let at = s.partial.last().map(|sq| sq.name(width)).unwrap_or_default();
                out.say(lang.fmt("a11y-landed", [("square", at.into()), ("squares", list.into())]));
            }
        }
        // Let go without a move (the move itself is told by `announce_play`).
        None if last.is_some_and(|(_, _, ply)| ply == game.ply()) => {
            out.say(lang.t("a11y-dropped").to_string())
        }
        None => {}
    }
    *last = now;
}

/// Tells the hint the player asked for.
fn announce_hint(
    view: Option<Res<BoardView>>,
    session: Option<Res<Session>>,
    settings: Res<Settings>,
    mut last: Local<Option<AnyMove>>,
    mut out: ResMut<Announcement>,
) {
    let (Some(view), Some(session)) = (view, session) else { return };
    if view.hint == *last {
        return;
    }
    *last = view.hint;
    if let Some(mv) = view.hint {
        let text = describe::move_text(settings.lang, &session.game.position(), &mv);
        out.say(settings.lang.fmt("a11y-hint", [("move", text.into())]));
    }
}

/// Tells that an act waits for its second press (a new game, resigning).
fn announce_confirm(
    confirming: Option<Res<Confirming>>,
    settings: Res<Settings>,
    mut last: Local<Option<(Confirm, u64)>>,
    mut out: ResMut<Announcement>,
) {
    let Some(confirming) = confirming else { return };
    // Each first press is told once (its deadline names it).
    let now = confirming.0.map(|(what, until)| (what, until.to_bits()));
    if now == *last {
        return;
    }
    *last = now;
    match now.map(|(what, _)| what) {
        Some(Confirm::NewGame) | Some(Confirm::Replace) => {
            out.say(settings.lang.t("hud-new-game-confirm").to_string())
        }
        Some(Confirm::Resign) => out.say(settings.lang.t("hud-resign-confirm").to_string()),
        None => {}
    }
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
    /// P: whose turn (or how the game ended) and every piece.
    Position,
    /// L: the last move.
    LastMove,
    /// M: the player's pieces (the side to move's, between two players).
    Mine,
    /// O: the other side's pieces.
    Theirs,
    /// C: the moves that capture.
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
        Reading::Position if game.is_over() => format!(
            "{} {} {}",
            sentences(status),
            describe::side_text(lang, &pos, ludus_rules::Side::First),
            describe::side_text(lang, &pos, ludus_rules::Side::Second)
        ),
        Reading::Position => describe::position_text(lang, &pos),
        Reading::LastMove => match game.moves().last() {
            Some(mv) => describe::move_text(lang, &game.position_at(game.ply() - 1), mv),
            None => lang.t("a11y-no-move-yet").to_string(),
        },
        Reading::Mine => describe::side_text(lang, &pos, mine),
        Reading::Theirs => describe::side_text(lang, &pos, !mine),
        Reading::Captures => describe::captures_text(lang, &pos),
        Reading::Status => sentences(status),
    }
}

/// The reading keys, on the game screen, when no text field has the keyboard.
fn answer_keys(
    keys: Res<ButtonInput<KeyCode>>,
    session: Option<Res<Session>>,
    settings: Res<Settings>,
    selected: Option<Res<Selected>>,
    egui: Option<Res<EguiWantsInput>>,
    (online, time): (Option<Res<crate::net::sync::OnlineGame>>, Res<Time<Real>>),
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
    let mut status = status_text(settings.lang, &session, false, &selected);
    // Online with a time control, T also reads both clocks.
    let online = online.filter(|_| session.seats.is_online());
    if reading == Reading::Status
        && let Some(clocks) =
            online.and_then(|o| clocks_text(settings.lang, &session, &o, time.elapsed_secs_f64()))
    {
        status.push(clocks);
    }
    out.say(reading_text(settings.lang, &session, reading, &status));
}

/// Both clocks of an online game, now: "Clocks: Red 4:32, Black 3:10."
pub fn clocks_text(
    lang: Lang,
    session: &Session,
    online: &crate::net::sync::OnlineGame,
    now: f64,
) -> Option<String> {
    let variant = session.game.variant();
    let [first, second] = [ludus_rules::Side::First, ludus_rules::Side::Second].map(|side| {
        online.remaining_ms(side, now).map(|ms| {
            format!("{} {}", describe::side_word(lang, variant, side), crate::ui::widgets::clock_text(ms))
        })
    });
    Some(lang.fmt("a11y-clocks", [("first", first?.into()), ("second", second?.into())]))
}

fn publish(mut out: ResMut<Announcement>) {
    out.publish();
}

/// The announcer: its resource and systems, on the game screen, after the frame's changes.
pub fn plugin(app: &mut App) {
    app.init_resource::<Announcement>().add_systems(
        Update,
        (
            announce_play,
            announce_draw,
            announce_selection,
            announce_hint,
            announce_confirm,
            announce_cursor,
            answer_keys,
            publish,
        )
            .chain()
            .after(AppSet::View)
            .run_if(in_state(Screen::Playing)),
    );
}
