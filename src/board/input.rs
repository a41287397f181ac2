//! Mouse, touch and keyboard on the game screen: tap a piece then a destination, drag and drop,
//! tap each landing point of an Alquerque chain; keyboard shortcuts.

use crate::app::Screen;
use crate::board::view::{BoardLayout, BoardView, Drag};
use crate::game::selection::{self, Selected, Tap};
use crate::game::session::{GameCommand, Session};
use bevy::input::touch::Touches;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;
use ludus_rules::AnyMove;

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
) {
    let Some(session) = session else { return };
    let Ok(window) = window.single() else { return };
    let p = read_pointer(&mouse, &touches, window);
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
    if keys.just_pressed(KeyCode::KeyN) {
        selected.0 = None;
        out.write(GameCommand::NewGame);
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

fn clear_on_change(session: Option<Res<Session>>, mut selected: ResMut<Selected>, mut last: Local<u64>) {
    if let Some(session) = session
        && session.revision != *last
    {
        *last = session.revision;
        selected.0 = None;
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Drag>().add_systems(
        Update,
        (clear_on_change, pointer, keyboard)
            .chain()
            .in_set(crate::app::AppSet::Input)
            .run_if(in_state(Screen::Playing)),
    );
}
