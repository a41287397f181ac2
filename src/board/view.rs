//! The board view: keeps the board's meshes in step with the session (a new move animated,
//! anything else redrawn), places them where the layout says, and the view's state that the
//! input, the computer and the screens read (what is shown, the hint, the turned board).

use crate::board::animation::MoveAnim;
use crate::board::meshes::{
    BoardPainter, BoardRoot, BoardShapes, MaterialsByColor, PieceEntity, SharedMaterials,
};
use crate::board::palette::Colors;
use crate::game::session::Session;
use crate::game::settings::{Settings, Theme};
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, RequestRedraw};
use ludus_rules::{AnyMove, AnyPosition, Side, Square, Variant};

/// The board's place and geometry, kept here too for the callers that name them from the view.
pub use crate::board::layout::{BoardArea, BoardLayout};

/// The board view's state: what is shown and what is animating.
#[derive(Resource, Default)]
pub struct BoardView {
    /// Moves whose result is on the board.
    pub shown_moves: Vec<AnyMove>,
    /// The variant on the board.
    pub variant: Option<Variant>,
    /// The animation in progress.
    pub anim: Option<MoveAnim>,
    /// The board is turned by the player (two players on one device).
    pub turned: bool,
    /// A suggested move to draw (the hint).
    pub hint: Option<AnyMove>,
    /// Spectators' proposals to draw as ghost moves, with how many proposed each.
    pub ghosts: Vec<(AnyMove, u32)>,
    /// The move played from the position shown (the analysis), drawn next to the hint.
    pub played: Option<AnyMove>,
    needs_rebuild: bool,
}

impl BoardView {
    /// Whether the board shows the game's current position with nothing moving.
    pub fn settled(&self, session: &Session) -> bool {
        self.anim.is_none() && self.shown_moves.len() == session.game.ply() && !self.needs_rebuild
    }

    /// Asks for the whole board to be drawn again.
    pub fn refresh(&mut self) {
        self.needs_rebuild = true;
    }
}

/// The keyboard's cursor on the board. It is drawn only after a key has moved it, and hidden
/// again when the mouse or a finger presses.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct Cursor {
    /// Where it is (kept while hidden, so that the next key goes on from there).
    pub square: Option<Square>,
    /// Whether it is drawn.
    pub shown: bool,
}

/// A press on the board that may become a drag.
#[derive(Resource, Default, Debug)]
pub struct Drag {
    /// Where the press started (logical pixels) and the square pressed.
    pub start: Option<(Vec2, Square)>,
    /// The piece being dragged and where it is (board units), once the pointer has moved.
    pub dragging: Option<(Square, Vec2)>,
}

/// Which side sits at the bottom.
fn bottom_side(session: &Session, view: &BoardView) -> Side {
    let base = session.seats.human_side().unwrap_or(Side::First);
    if view.turned { !base } else { base }
}

/// Fits the layout to the board's area and places the board's root there.
pub(crate) fn update_layout(
    area: Res<BoardArea>,
    session: Option<Res<Session>>,
    view: Res<BoardView>,
    mut layout: ResMut<BoardLayout>,
    mut root: Query<&mut Transform, With<BoardRoot>>,
    window: Query<&Window, With<PrimaryWindow>>,
) {
    let Some(session) = session else { return };
    let pos = session.game.position();
    let flipped = bottom_side(&session, &view) == Side::Second;
    let points = matches!(pos, AnyPosition::Alquerque(_));
    let new = BoardLayout::fit(area.0, pos.width(), pos.height(), points, flipped);
    if *layout != new {
        *layout = new;
    }
    let Ok(window) = window.single() else { return };
    let half = Vec2::new(window.width(), window.height()) / 2.0;
    for mut t in &mut root {
        let target = Transform::from_xyz(layout.center.x - half.x, half.y - layout.center.y, 0.0)
            .with_scale(Vec3::new(layout.cell, layout.cell, 1.0));
        if *t != target {
            *t = target;
        }
    }
}

/// What the board's meshes were made for: its shape and the theme.
pub(crate) type Drawn = ((u8, u8, bool, bool, bool), Theme);

/// Keeps the board and pieces in step with the session: animates a new move, redraws after
/// anything else (undo, new game, theme).
pub(crate) fn sync_board(
    mut commands: Commands,
    session: Option<Res<Session>>,
    settings: Res<Settings>,
    layout: Res<BoardLayout>,
    kit: Res<BoardShapes>,
    mut view: ResMut<BoardView>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut palette: ResMut<SharedMaterials>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    roots: Query<Entity, With<BoardRoot>>,
    pieces: Query<(Entity, &PieceEntity)>,
    mut drawn: Local<Option<Drawn>>,
) {
    let Some(session) = session else { return };
    let now =
        ((layout.width, layout.height, layout.flipped, layout.points, layout.quarter_turn), settings.theme);
    let variant = session.game.variant();
    let moves = session.game.moves();
    let shown = view.shown_moves.len();
    let in_step = moves.len() >= shown && moves[..shown] == view.shown_moves[..];
    let unchanged = *drawn == Some(now) && view.variant == Some(variant) && !view.needs_rebuild && in_step;
    if unchanged && (view.anim.is_some() || moves.len() == shown) {
        return; // still, or an animation is running (it ends itself)
    }
    if unchanged
        && moves.len() == shown + 1
        && let Some(factor) = settings.anim.factor()
        && let Some(root) = roots.iter().next()
    {
        // Animate the next move from what is shown.
        let mv = moves[shown];
        let by_square = |sq: Square| pieces.iter().find(|(_, p)| p.0 == sq).map(|(e, _)| e);
        if let Some(piece) = by_square(mv.from()) {
            let hops =
                matches!(session.game.position_at(shown), AnyPosition::Alquerque(_)) && mv.is_capture();
            view.anim = Some(MoveAnim::start(
                &mut commands,
                &kit,
                &layout,
                root,
                (piece, &mv, hops),
                factor,
                by_square,
            ));
            view.shown_moves.push(mv);
            return;
        }
    }
    // Redraw everything at the current position.
    for r in &roots {
        commands.entity(r).despawn();
    }
    let colors = Colors::of(settings.theme);
    let mut painter = BoardPainter {
        commands: &mut commands,
        kit: &kit,
        meshes: &mut meshes,
        images: &mut images,
        paints: MaterialsByColor { materials: &mut materials, palette: &mut palette },
        colors: &colors,
        layout: &layout,
    };
    let root = painter.board();
    for (sq, piece) in session.game.position().pieces() {
        painter.piece(root, sq, piece);
    }
    view.shown_moves = moves;
    view.variant = Some(variant);
    view.anim = None;
    view.needs_rebuild = false;
    *drawn = Some(now);
}

/// Moves the animation on; once it is over the board is drawn again at the position.
pub(crate) fn animate(
    time: Res<Time>,
    mut view: ResMut<BoardView>,
    mut transforms: Query<&mut Transform>,
    layout: Res<BoardLayout>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(anim) = view.anim.as_mut() else {
        return;
    };
    redraw.write(RequestRedraw);
    if anim.advance(time.delta_secs().min(0.1), &mut transforms, 2.0 * layout.piece_radius()) {
        view.anim = None;
        view.needs_rebuild = true;
    }
}

/// Asks for frames until the board shows the session's position, still: the game otherwise
/// draws only when something asks, and a change made late in a frame would wait for the next
/// input or timer.
pub(crate) fn draw_until_settled(
    session: Option<Res<Session>>,
    view: Res<BoardView>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if session.is_some_and(|s| !view.settled(&s)) {
        redraw.write(RequestRedraw);
    }
}

/// A dragged piece follows the pointer.
pub(crate) fn drag_piece(drag: Res<Drag>, mut pieces: Query<(&PieceEntity, &mut Transform)>) {
    let Some((sq, p)) = drag.dragging else { return };
    for (piece, mut t) in &mut pieces {
        if piece.0 == sq {
            t.translation = Vec3::new(p.x, p.y, 9.0);
        }
    }
}

/// Leaving the board's screens: the board goes, and the view forgets it.
pub(crate) fn clear_board(
    mut commands: Commands,
    roots: Query<Entity, With<BoardRoot>>,
    mut view: ResMut<BoardView>,
) {
    for r in &roots {
        commands.entity(r).despawn();
    }
    *view = BoardView::default();
}

/// The window's background follows the theme.
pub(crate) fn background(settings: Res<Settings>, mut clear: ResMut<ClearColor>) {
    if settings.is_changed() {
        clear.0 = Colors::of(settings.theme).background;
    }
}
