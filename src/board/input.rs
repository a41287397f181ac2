//! Mouse, touch and keyboard on the game screen: tap a piece then a destination, drag and drop,
//! tap each landing point of an Alquerque chain; keyboard shortcuts, and play without a mouse:
//! the arrow keys move a cursor over the board, Enter or Space taps where it is (a piece, then
//! its destination, or a chain's landings one by one), Escape lets go.

use crate::app::Screen;
use crate::board::layout::BoardLayout;
use crate::board::view::{BoardView, Cursor, Drag};
use crate::game::selection::{self, Selected, Tap};
use crate::game::session::{GameCommand, Session};
use bevy::input::touch::Touches;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;
use ludus_rules::{AnyMove, Square};

/// What the board made of the presses it saw, for the page's published state: the number of
/// presses, the last one's position, and how many fell on the interface instead of the board.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct PressLog {
    pub presses: u32,
    pub over_ui: u32,
    pub last: Option<Vec2>,
}

/// The pointer this frame: position, and whether it was pressed or released.
#[derive(Clone, Copy, Debug, Default)]
struct PointerFrame {
    position: Option<Vec2>,
    pressed: bool,
    released: bool,
    held: bool,
}

fn read_pointer(mouse: &ButtonInput<MouseButton>, touches: &Touches, window: &Window) -> PointerFrame {
    // Touch first: a tablet has no cursor.
    if let Some(t) = touches.iter_just_pressed().next() {
        return PointerFrame { position: Some(t.position()), pressed: true, released: false, held: true };
    }
    if let Some(t) = touches.iter_just_released().next() {
        return PointerFrame { position: Some(t.position()), pressed: false, released: true, held: false };
    }
    if let Some(t) = touches.iter().next() {
        return PointerFrame { position: Some(t.position()), pressed: false, released: false, held: true };
    }
    PointerFrame {
        position: window.cursor_position(),
        pressed: mouse.just_pressed(MouseButton::Left),
        released: mouse.just_released(MouseButton::Left),
        held: mouse.pressed(MouseButton::Left),
    }
}

/// Applies a tap's result: play, select or clear.
fn apply_tap(tap: Tap, selected: &mut Selected, out: &mut MessageWriter<GameCommand>, view: &mut BoardView) {
    match tap {
        Tap::Play(mv) => {
            selected.0 = None;
            view.hint = None;
            out.write(GameCommand::Play(mv));
        }
        Tap::Select(sel) => selected.0 = Some(sel),
        Tap::Cancel => selected.0 = None,
    }
}

fn pointer(
    mouse: Res<ButtonInput<MouseButton>>,
    touches: Res<Touches>,
    window: Query<&Window, With<PrimaryWindow>>,
    egui: Option<Res<EguiWantsInput>>,
    layout: Res<BoardLayout>,
    session: Option<Res<Session>>,
    mut view: ResMut<BoardView>,
    mut selected: ResMut<Selected>,
    mut drag: ResMut<Drag>,
    mut out: MessageWriter<GameCommand>,
    mut log: ResMut<PressLog>,
    mut cursor: ResMut<Cursor>,
) {
    let Some(session) = session else { return };
    let Ok(window) = window.single() else { return };
    let p = read_pointer(&mouse, &touches, window);
    if p.pressed {
        log.presses += 1;
        log.last = p.position;
        if cursor.shown {
            cursor.shown = false;
        }
    }
    let can_play = session.can_touch() && view.settled(&session);
    if !can_play {
        drag.start = None;
        if drag.dragging.take().is_some() {
            view.refresh();
        }
        if selected.0.is_some() && !session.can_touch() {
            selected.0 = None;
        }
        return;
    }
    let over_ui = egui.as_ref().is_some_and(|e| e.wants_pointer_input() || e.is_pointer_over_area());
    if p.pressed && over_ui {
        log.over_ui += 1;
    }
    let legal: Vec<AnyMove> = session.game.legal_moves();
    let Some(pos) = p.position else { return };
    if p.pressed && !over_ui {
        match layout.square_at(pos) {
            Some(sq) => {
                let tap = selection::tap(&legal, selected.0.as_ref(), sq);
                let picks_piece = matches!(&tap, Tap::Select(s) if s.from == sq && s.partial.is_empty());
                apply_tap(tap, &mut selected, &mut out, &mut view);
                drag.start = picks_piece.then_some((pos, sq));
            }
            None => selected.0 = None,
        }
        return;
    }
    if p.held
        && let Some((start, sq)) = drag.start
        && (pos - start).length() > layout.cell * 0.25
    {
        drag.dragging = Some((sq, layout.screen_to_local(pos)));
        return;
    }
    if p.released {
        drag.start = None;
        if let Some((from, _)) = drag.dragging.take() {
            view.refresh();
            if let Some(sq) = layout.square_at(pos)
                && sq != from
            {
                let tap = selection::tap(&legal, selected.0.as_ref(), sq);
                if !matches!(tap, Tap::Cancel) {
                    apply_tap(tap, &mut selected, &mut out, &mut view);
                }
            }
        }
    }
}

fn keyboard(
    keys: Res<ButtonInput<KeyCode>>,
    mut out: MessageWriter<GameCommand>,
    mut selected: ResMut<Selected>,
    mut view: ResMut<BoardView>,
    mut hint: MessageWriter<crate::game::session::HintRequest>,
    mut intents: MessageWriter<crate::game::intent::GameIntent>,
    egui: Option<Res<EguiWantsInput>>,
) {
    if egui.as_ref().is_some_and(|e| e.wants_keyboard_input()) {
        return;
    }
    let ctrl = keys.any_pressed([
        KeyCode::ControlLeft,
        KeyCode::ControlRight,
        KeyCode::SuperLeft,
        KeyCode::SuperRight,
    ]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if (ctrl && !shift && keys.just_pressed(KeyCode::KeyZ))
        || keys.just_pressed(KeyCode::KeyU)
        || keys.just_pressed(KeyCode::Backspace)
    {
        selected.0 = None;
        out.write(GameCommand::Undo);
    }
    if (ctrl && (keys.just_pressed(KeyCode::KeyY) || (shift && keys.just_pressed(KeyCode::KeyZ))))
        || keys.just_pressed(KeyCode::KeyR)
    {
        selected.0 = None;
        out.write(GameCommand::Redo);
    }
    // A new game asks for a second press, as its button does (the game in progress is not
    // thrown away by one key).
    if keys.just_pressed(KeyCode::KeyN) {
        selected.0 = None;
        intents.write(crate::game::intent::GameIntent::NewGame);
    }
    if keys.just_pressed(KeyCode::KeyF) {
        view.turned = !view.turned;
    }
    if keys.just_pressed(KeyCode::KeyH) {
        hint.write(crate::game::session::HintRequest);
    }
    if keys.just_pressed(KeyCode::Escape) {
        selected.0 = None;
    }
}

/// Where the cursor starts: the selected piece, else a piece that can move, else the middle.
fn cursor_start(legal: &[AnyMove], selected: &Selected, layout: &BoardLayout) -> Square {
    selected.0.as_ref().map(|s| s.partial.last().copied().unwrap_or(s.from)).unwrap_or_else(|| {
        legal.first().map(AnyMove::from).unwrap_or(Square::new(
            layout.width / 2,
            layout.height / 2,
            layout.width,
        ))
    })
}

/// The cursor one step from `sq` in a direction on the screen (`dx` right, `dy` up), staying on
/// the board; a turned board turns the steps with it.
pub fn cursor_step(layout: &BoardLayout, sq: Square, dx: i8, dy: i8) -> Square {
    let (dx, dy) = layout.board_step(dx, dy);
    let w = layout.width;
    let file = (sq.file(w) as i8 + dx).clamp(0, w as i8 - 1) as u8;
    let rank = (sq.rank(w) as i8 + dy).clamp(0, layout.height as i8 - 1) as u8;
    Square::new(file, rank, w)
}

/// Arrow keys move the cursor; Enter or Space taps its square as a click would.
fn cursor_keys(
    keys: Res<ButtonInput<KeyCode>>,
    egui: Option<Res<EguiWantsInput>>,
    layout: Res<BoardLayout>,
    session: Option<Res<Session>>,
    mut view: ResMut<BoardView>,
    mut selected: ResMut<Selected>,
    mut out: MessageWriter<GameCommand>,
    mut cursor: ResMut<Cursor>,
) {
    let Some(session) = session else { return };
    // The analysis steps through the game with the arrows; a text field keeps its keys.
    if session.is_review() || egui.as_ref().is_some_and(|e| e.wants_any_keyboard_input()) {
        return;
    }
    let step = [
        (KeyCode::ArrowLeft, -1, 0),
        (KeyCode::ArrowRight, 1, 0),
        (KeyCode::ArrowUp, 0, 1),
        (KeyCode::ArrowDown, 0, -1),
    ]
    .into_iter()
    .find(|(k, _, _)| keys.just_pressed(*k));
    let tap = keys.any_just_pressed([KeyCode::Enter, KeyCode::NumpadEnter, KeyCode::Space]);
    if step.is_none() && !tap {
        return;
    }
    let legal: Vec<AnyMove> = if session.can_touch() { session.game.legal_moves() } else { Vec::new() };
    let here = match cursor.square {
        Some(sq) if usize::from(sq.0) < usize::from(layout.width) * usize::from(layout.height) => sq,
        _ => cursor_start(&legal, &selected, &layout),
    };
    if let Some((_, dx, dy)) = step {
        // The first key shows the cursor where it is; the next ones move it.
        let to = if cursor.shown { cursor_step(&layout, here, dx, dy) } else { here };
        *cursor = Cursor { square: Some(to), shown: true };
        return;
    }
    *cursor = Cursor { square: Some(here), shown: true };
    if session.can_touch() && view.settled(&session) {
        let t = selection::tap(&legal, selected.0.as_ref(), here);
        apply_tap(t, &mut selected, &mut out, &mut view);
    }
}

fn clear_on_change(session: Option<Res<Session>>, mut selected: ResMut<Selected>, mut last: Local<u64>) {
    if let Some(session) = session
        && session.revision != *last
    {
        *last = session.revision;
        selected.0 = None;
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Drag>().init_resource::<PressLog>().init_resource::<Cursor>().add_systems(
        Update,
        (clear_on_change, pointer, keyboard, cursor_keys)
            .chain()
            .in_set(crate::app::AppSet::Input)
            .run_if(in_state(Screen::Playing)),
    );
}

#[cfg(test)]
mod tests {
    use super::cursor_step;
    use crate::board::layout::BoardLayout;
    use bevy::prelude::*;
    use ludus_rules::Square;

    #[test]
    fn the_cursor_steps_on_the_screen_stays_on_the_board_and_turns_with_it() {
        let area = Rect::new(0.0, 0.0, 800.0, 600.0);
        let name = |sq: Square| sq.name(8);
        let layout = BoardLayout::fit(area, 8, 8, false, false);
        let d4 = Square::new(3, 3, 8);
        assert_eq!(name(cursor_step(&layout, d4, 0, 1)), "d5");
        assert_eq!(name(cursor_step(&layout, d4, 1, 0)), "e4");
        assert_eq!(name(cursor_step(&layout, d4, -1, 0)), "c4");
        assert_eq!(name(cursor_step(&layout, d4, 0, -1)), "d3");
        // At the edge it stays.
        let a1 = Square::new(0, 0, 8);
        assert_eq!(name(cursor_step(&layout, a1, -1, 0)), "a1");
        assert_eq!(name(cursor_step(&layout, a1, 0, -1)), "a1");
        let h8 = Square::new(7, 7, 8);
        assert_eq!(name(cursor_step(&layout, h8, 1, 1)), "h8");
        // The board turned: up on the screen is down the ranks.
        let turned = BoardLayout::fit(area, 8, 8, false, true);
        assert_eq!(name(cursor_step(&turned, d4, 0, 1)), "d3");
        assert_eq!(name(cursor_step(&turned, d4, 1, 0)), "c4");
        // Alquerque's points: the 5x5 grid.
        let points = BoardLayout::fit(area, 5, 5, true, false);
        assert_eq!(cursor_step(&points, Square::new(4, 4, 5), 1, 1), Square::new(4, 4, 5));
    }
}
