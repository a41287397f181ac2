//! What the board says over its pieces: the last move (its origin and destination, and its
//! path), the selection and where it can go, pieces that must capture (Alquerque), the hint, the
//! move played (the analysis), spectators' proposals, kings in danger, the keyboard's cursor,
//! the fading traces of captured pieces, and that the computer (or the hint) is thinking.

use crate::board::layout::BoardLayout;
use crate::board::meshes::{BoardRoot, BoardShapes, MaterialsByColor, SharedMaterials};
use crate::board::palette::Colors;
use crate::board::view::{BoardView, Cursor};
use crate::game::selection::{self, Selected};
use crate::game::session::{HintRequest, Session};
use crate::game::settings::{AnimSpeed, Settings};
use bevy::prelude::*;
use bevy::sprite_render::AlphaMode2d;
use bevy::window::RequestRedraw;
use ludus_rules::{AnyMove, AnyPosition, Piece, Reason, Side, Square};

/// A highlight under the board's root, redrawn with the overlay.
#[derive(Component)]
pub(crate) struct Overlay;
/// A piece's pulsing ring when capture is compulsory.
#[derive(Component)]
pub(crate) struct Glow;

/// What a mark on the board tells (the tests and the page's state find the marks by it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Where the last move started.
    LastFrom(Square),
    /// Where the last move ended.
    LastTo(Square),
    /// Where a piece was just captured: it fades away.
    Trace(Square),
    /// The computer (or the hint) is thinking.
    Thinking,
}

/// How long a captured piece's trace stays (seconds): it fades in its last part, and goes at
/// once with the next move.
pub const TRACE_SECONDS: f32 = 3.0;

/// Spawns highlight marks under the board root.
struct Marks<'a, 'w, 's> {
    commands: &'a mut Commands<'w, 's>,
    root: Entity,
}

impl Marks<'_, '_, '_> {
    fn mark(
        &mut self,
        mesh: &Handle<Mesh>,
        material: &MeshMaterial2d<ColorMaterial>,
        p: Vec2,
        z: f32,
        scale: f32,
    ) -> Entity {
        self.commands
            .spawn((
                Overlay,
                Mesh2d(mesh.clone()),
                material.clone(),
                Transform::from_xyz(p.x, p.y, z).with_scale(Vec3::new(scale, scale, 1.0)),
                ChildOf(self.root),
            ))
            .id()
    }

    /// Dots along a path of points, `spacing` apart or closer.
    fn dotted(
        &mut self,
        kit: &BoardShapes,
        material: &MeshMaterial2d<ColorMaterial>,
        points: &[Vec2],
        z: f32,
        size: f32,
        spacing: f32,
    ) {
        for w in points.windows(2) {
            let dots = ((w[1] - w[0]).length() / spacing).ceil().max(1.0) as usize;
            for k in 0..=dots {
                self.mark(&kit.circle, material, w[0].lerp(w[1], k as f32 / dots as f32), z, size);
            }
        }
    }
}

/// A move's start and landing points in board units.
fn move_points(layout: &BoardLayout, mv: &AnyMove) -> Vec<Vec2> {
    std::iter::once(mv.from()).chain(mv.path()).map(|s| layout.local(s)).collect()
}

/// What the highlights were drawn for: the root, shown moves, selection, hint, settled, ghosts,
/// played, cursor.
pub(crate) type OverlayKey = (
    Entity,
    usize,
    Option<selection::Selection>,
    Option<AnyMove>,
    bool,
    Vec<(AnyMove, u32)>,
    Option<AnyMove>,
    Option<Square>,
);

/// The highlights, drawn again whenever what they show changes (see [`OverlayKey`]).
pub(crate) fn sync_overlay(
    mut commands: Commands,
    session: Option<Res<Session>>,
    settings: Res<Settings>,
    layout: Res<BoardLayout>,
    kit: Res<BoardShapes>,
    view: Res<BoardView>,
    selected: Res<Selected>,
    cursor: Res<Cursor>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut palette: ResMut<SharedMaterials>,
    roots: Query<Entity, With<BoardRoot>>,
    overlays: Query<Entity, With<Overlay>>,
    mut drawn: Local<Option<OverlayKey>>,
) {
    let Some(session) = session else { return };
    let Some(root) = roots.iter().next() else { return };
    let settled = view.settled(&session);
    let focus = cursor.square.filter(|_| cursor.shown);
    let key = (
        root,
        view.shown_moves.len(),
        selected.0.clone(),
        view.hint,
        settled,
        view.ghosts.clone(),
        view.played,
        focus,
    );
    if drawn.as_ref() == Some(&key) {
        return;
    }
    *drawn = Some(key);
    for e in &overlays {
        commands.entity(e).despawn();
    }
    let colors = Colors::of(settings.theme);
    let mut d = Draw {
        marks: Marks { commands: &mut commands, root },
        paints: MaterialsByColor { materials: &mut materials, palette: &mut palette },
        kit: &kit,
        layout: &layout,
        colors: &colors,
    };
    if let Some(last) = view.shown_moves.last() {
        d.last_move(last);
    }
    if let Some(sq) = focus {
        d.cursor(sq);
    }
    if !settled {
        return;
    }
    let legal = if session.can_touch() { session.game.legal_moves() } else { Vec::new() };
    let pos = session.game.position();
    if matches!(pos, AnyPosition::Alquerque(_)) && legal.first().is_some_and(|m| m.is_capture()) {
        d.must_capture(&legal);
    }
    if let Some(sel) = &selected.0 {
        d.selection(&legal, sel);
    }
    d.ghosts(&view.ghosts);
    if let Some(played) = view.played.filter(|p| Some(*p) != view.hint) {
        d.played(&played);
    }
    if let Some(hint) = view.hint {
        d.hint(&hint);
    }
    if let AnyPosition::Latrunculi(p) = pos {
        for side in [Side::First, Side::Second] {
            let lost = session
                .game
                .outcome()
                .is_some_and(|o| o.reason == Reason::KingImmobilised && o.winner == Some(!side));
            if lost || (p.king_liberties(side) <= 1 && !session.game.is_over()) {
                d.king_in_danger(p.king(side), lost);
            }
        }
    }
}

/// Draws the overlay's marks.
struct Draw<'a, 'w, 's> {
    marks: Marks<'a, 'w, 's>,
    paints: MaterialsByColor<'a>,
    kit: &'a BoardShapes,
    layout: &'a BoardLayout,
    colors: &'a Colors,
}

impl Draw<'_, '_, '_> {
    /// The last move: its origin and destination filled in the last move's colour (a square on
    /// Latrunculi's board, a disc round the point on Alquerque's), and its path dotted.
    fn last_move(&mut self, last: &AnyMove) {
        let m = self.paints.of(self.colors.last_move);
        let points = move_points(self.layout, last);
        self.marks.dotted(self.kit, &m, &points, 4.0, 0.07, 0.22);
        let (mesh, size) = if self.layout.points { (&self.kit.circle, 0.9) } else { (&self.kit.square, 1.0) };
        for (sq, mark) in [(last.from(), Mark::LastFrom(last.from())), (last.to(), Mark::LastTo(last.to()))] {
            let e = self.marks.mark(mesh, &m, self.layout.local(sq), 0.5, size);
            self.marks.commands.entity(e).insert(mark);
        }
    }

    /// The keyboard's cursor: a double ring in the focus colour, over everything else.
    fn cursor(&mut self, sq: Square) {
        let m = self.paints.of(self.colors.focus);
        self.marks.mark(&self.kit.ring, &m, self.layout.local(sq), 8.0, 1.12);
        self.marks.mark(&self.kit.thin_ring, &m, self.layout.local(sq), 8.0, 1.3);
    }

    /// Pieces that can capture glow when capture is compulsory (Alquerque).
    fn must_capture(&mut self, legal: &[AnyMove]) {
        let mut froms: Vec<Square> = legal.iter().map(|m| m.from()).collect();
        froms.dedup();
        let glow = MeshMaterial2d(self.kit.glow.clone());
        for sq in froms {
            let e = self.marks.mark(&self.kit.ring, &glow, self.layout.local(sq), 6.0, 0.98);
            self.marks.commands.entity(e).insert(Glow);
        }
    }

    /// The selected piece, the chain's landings tapped so far, and where it can go next (a ring
    /// where it captures, a dot where it only moves).
    fn selection(&mut self, legal: &[AnyMove], sel: &selection::Selection) {
        let m = self.paints.of(self.colors.selected);
        let mut points = vec![self.layout.local(sel.from)];
        points.extend(sel.partial.iter().map(|&p| self.layout.local(p)));
        self.marks.mark(&self.kit.ring, &m, points[0], 7.0, 0.98);
        self.marks.dotted(self.kit, &m, &points, 7.0, 0.12, 0.17);
        for &p in &points[1..] {
            self.marks.mark(&self.kit.ring, &m, p, 7.0, 0.6);
        }
        let dest = self.paints.of(self.colors.destination);
        let capture = self.paints.of(self.colors.capture_destination);
        let depth = sel.partial.len();
        for sq in selection::destinations(legal, sel) {
            let captures = selection::candidates(legal, sel).any(|m| m.path()[depth] == sq && m.is_capture());
            if captures {
                self.marks.mark(&self.kit.ring, &capture, self.layout.local(sq), 7.0, 0.7);
            } else {
                self.marks.mark(&self.kit.circle, &dest, self.layout.local(sq), 7.0, 0.3);
            }
        }
    }

    /// Spectators' proposals: pale paths, thicker for the most proposed.
    fn ghosts(&mut self, ghosts: &[(AnyMove, u32)]) {
        let Some(top) = ghosts.iter().map(|(_, n)| *n).max() else { return };
        let m = self.paints.of(self.colors.proposal);
        for (mv, n) in ghosts {
            let points = move_points(self.layout, mv);
            let weight = 0.6 + 0.4 * (*n as f32 / top.max(1) as f32);
            self.marks.dotted(self.kit, &m, &points, 7.2, 0.13 * weight, 0.18);
            self.marks.mark(&self.kit.ring, &m, points[points.len() - 1], 7.2, 0.75 * weight);
        }
    }

    /// The move played from here (the analysis): under the engine's move.
    fn played(&mut self, played: &AnyMove) {
        let m = self.paints.of(self.colors.played);
        let points = move_points(self.layout, played);
        self.marks.mark(&self.kit.ring, &m, points[0], 7.4, 0.9);
        self.marks.dotted(self.kit, &m, &points, 7.4, 0.12, 0.16);
        self.marks.mark(&self.kit.ring, &m, points[points.len() - 1], 7.4, 0.7);
    }

    /// The hint (or the engine's move in the analysis).
    fn hint(&mut self, hint: &AnyMove) {
        let m = self.paints.of(self.colors.hint);
        let points = move_points(self.layout, hint);
        self.marks.mark(&self.kit.ring, &m, points[0], 7.5, 1.0);
        self.marks.dotted(self.kit, &m, &points, 7.5, 0.16, 0.14);
        self.marks.mark(&self.kit.ring, &m, points[points.len() - 1], 7.5, 0.8);
    }

    /// A king with one free side left, or immobilised at the end (a second ring).
    fn king_in_danger(&mut self, king: Square, lost: bool) {
        let danger = self.paints.of(self.colors.danger);
        let k = self.layout.local(king);
        self.marks.mark(&self.kit.ring, &danger, k, 6.5, if lost { 1.1 } else { 1.0 });
        if lost {
            self.marks.mark(&self.kit.thin_ring, &danger, k, 6.5, 1.35);
        }
    }
}

/// The glow of pieces that must capture pulses (frames only while animations are on).
pub(crate) fn pulse_glow(
    time: Res<Time>,
    kit: Res<BoardShapes>,
    settings: Res<Settings>,
    glows: Query<(), With<Glow>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if glows.is_empty() {
        return;
    }
    let base = Colors::of(settings.theme).glow;
    let a = 0.45 + 0.45 * (time.elapsed_secs() * 4.0).sin().abs();
    if let Some(mut m) = materials.get_mut(&kit.glow) {
        m.color = base.with_alpha(a);
    }
    if settings.anim != AnimSpeed::Off {
        redraw.write(RequestRedraw);
    }
}

/// The pieces the last move shown captured, where they stood, and how long ago (seconds).
#[derive(Resource, Default, Debug)]
pub(crate) struct Traces {
    /// How many moves were shown, and the last, when the traces were made (they go when that
    /// changes).
    shown: (usize, Option<AnyMove>),
    pieces: Vec<(Square, Piece)>,
    age: f32,
    /// The entities drawing them and their materials (faded together), and the root they
    /// hang from.
    drawn: Option<(Entity, Vec<Entity>, Vec<Handle<ColorMaterial>>)>,
}

/// How much of a trace shows `age` seconds after its capture: fully for the first half, then
/// fading out; none from [`TRACE_SECONDS`] on.
pub fn trace_opacity(age: f32) -> f32 {
    let fade = TRACE_SECONDS / 2.0;
    (1.0 - (age - fade).max(0.0) / fade).clamp(0.0, 1.0)
}

/// Captured pieces leave a trace where they stood: made when a capturing move is shown (as its
/// animation starts, or at once when animations are off), fading over [`TRACE_SECONDS`], gone
/// at once with the next move, an undo or a new game.
pub(crate) fn follow_captures(
    session: Option<Res<Session>>,
    view: Res<BoardView>,
    time: Res<Time>,
    mut traces: ResMut<Traces>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(session) = session else { return };
    let shown = (view.shown_moves.len(), view.shown_moves.last().copied());
    if shown != traces.shown {
        let one_more = shown.0 == traces.shown.0 + 1;
        traces.shown = shown;
        traces.age = 0.0;
        traces.pieces.clear();
        if one_more && let Some(last) = view.shown_moves.last() {
            let before = session.game.position_at(shown.0 - 1);
            traces.pieces =
                last.captured().into_iter().filter_map(|sq| before.piece_at(sq).map(|p| (sq, p))).collect();
        }
        return;
    }
    if traces.pieces.is_empty() {
        return;
    }
    traces.age += time.delta_secs().min(0.1);
    if traces.age >= TRACE_SECONDS {
        traces.pieces.clear();
    } else {
        redraw.write(RequestRedraw);
    }
}

/// Draws the traces: a ghost of each captured piece (its body and rim, see-through) under the
/// pieces, its opacity following [`trace_opacity`].
pub(crate) fn draw_traces(
    mut commands: Commands,
    settings: Res<Settings>,
    layout: Res<BoardLayout>,
    kit: Res<BoardShapes>,
    mut traces: ResMut<Traces>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    roots: Query<Entity, With<BoardRoot>>,
) {
    let root = roots.iter().next();
    let stale = traces.drawn.as_ref().is_some_and(|(r, ..)| Some(*r) != root) || traces.pieces.is_empty();
    if stale && let Some((_, entities, _)) = traces.drawn.take() {
        for e in entities {
            commands.entity(e).try_despawn();
        }
    }
    let (Some(root), false) = (root, traces.pieces.is_empty()) else { return };
    let colors = Colors::of(settings.theme);
    if traces.drawn.is_none() {
        let mut entities = Vec::new();
        let mut handles = Vec::new();
        for &(sq, piece) in &traces.pieces {
            let [rim, body, _] = colors.piece(layout.points, piece.side, piece.king);
            let at = layout.local(sq);
            let size = 2.0 * layout.piece_radius();
            for (mesh, color, scale, z) in [(&kit.circle, body, 0.86, 4.6), (&kit.thin_ring, rim, 1.0, 4.7)] {
                let material =
                    materials.add(ColorMaterial { color, alpha_mode: AlphaMode2d::Blend, ..default() });
                handles.push(material.clone());
                entities.push(
                    commands
                        .spawn((
                            Mark::Trace(sq),
                            Mesh2d(mesh.clone()),
                            MeshMaterial2d(material),
                            Transform::from_xyz(at.x, at.y, z).with_scale(Vec3::new(
                                size * scale,
                                size * scale,
                                1.0,
                            )),
                            ChildOf(root),
                        ))
                        .id(),
                );
            }
        }
        traces.drawn = Some((root, entities, handles));
    }
    let opacity = 0.55 * trace_opacity(traces.age);
    if let Some((_, _, handles)) = &traces.drawn {
        for h in handles {
            if let Some(mut m) = materials.get_mut(h) {
                m.color = m.color.with_alpha(opacity);
            }
        }
    }
}

/// Whether a search is under way for the board: the computer's move (the computer is to move),
/// or a hint asked for in this position and not yet shown.
pub(crate) fn searching(session: &Session, view: &BoardView, hint_asked: Option<u64>) -> bool {
    let computer = session.computer_to_move().is_some();
    let hint = hint_asked == Some(session.revision) && view.hint.is_none() && session.human_to_move();
    computer || hint
}

/// Where the thinking dots start (board units): right of the board, level with the end of the
/// home edge of `mover` (the edge rank nearer its pieces) that is right and highest on screen.
fn thinking_place(layout: &BoardLayout, pos: &AnyPosition, mover: Side) -> Vec2 {
    let ranks: Vec<f32> = pos
        .pieces()
        .iter()
        .filter(|(_, p)| p.side == mover)
        .map(|(sq, _)| f32::from(sq.rank(layout.width)))
        .collect();
    let middle = f32::from(layout.height - 1) / 2.0;
    let low = ranks.is_empty() || ranks.iter().sum::<f32>() / (ranks.len() as f32) < middle;
    let home = if low { 0 } else { layout.height - 1 };
    let squares = |rank: Option<u8>| {
        (0..layout.width * layout.height)
            .map(Square)
            .filter(move |sq| rank.is_none_or(|r| sq.rank(layout.width) == r))
            .map(|sq| layout.local(sq))
    };
    let right = squares(None).map(|p| p.x).fold(f32::MIN, f32::max);
    let corner = squares(Some(home))
        .fold(Vec2::splat(f32::MIN), |best, p| if (p.x, p.y) > (best.x, best.y) { p } else { best });
    Vec2::new(right + if layout.points { 0.78 } else { 0.86 }, corner.y)
}

/// While the computer (or the hint) searches, three dots beside the board, at the edge of the
/// side to move. They stand still: the game draws no frames while the computer thinks (see
/// `players::computer`), so that the search has the processor.
pub(crate) fn thinking(
    mut commands: Commands,
    session: Option<Res<Session>>,
    settings: Res<Settings>,
    layout: Res<BoardLayout>,
    view: Res<BoardView>,
    kit: Res<BoardShapes>,
    mut hints: MessageReader<HintRequest>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut palette: ResMut<SharedMaterials>,
    roots: Query<Entity, With<BoardRoot>>,
    shown: Query<(Entity, &ChildOf, &Mark)>,
    mut hint_asked: Local<Option<u64>>,
) {
    let Some(session) = session else { return };
    if hints.read().count() > 0 && session.human_to_move() {
        *hint_asked = Some(session.revision);
    }
    let root = roots.iter().next();
    let on = root.is_some() && searching(&session, &view, *hint_asked);
    let mut drawn = false;
    for (e, parent, mark) in &shown {
        if *mark != Mark::Thinking {
            continue;
        }
        if on && Some(parent.parent()) == root {
            drawn = true;
        } else {
            commands.entity(e).despawn();
        }
    }
    let (Some(root), true, false) = (root, on, drawn) else { return };
    // Beside the frame on the right, level with the end of the mover's home edge.
    let at = thinking_place(&layout, &session.game.position(), session.game.side_to_move());
    let inward = if at.y > 0.0 { -1.0 } else { 1.0 };
    let colors = Colors::of(settings.theme);
    let mut paints = MaterialsByColor { materials: &mut materials, palette: &mut palette };
    let parent = commands
        .spawn((Mark::Thinking, Transform::from_xyz(at.x, at.y, 7.8), Visibility::default(), ChildOf(root)))
        .id();
    for (i, alpha) in [1.0, 0.7, 0.4].into_iter().enumerate() {
        let m = paints.of(colors.thinking.with_alpha(alpha));
        commands.spawn((
            Mesh2d(kit.circle.clone()),
            m,
            Transform::from_xyz(0.0, inward * 0.26 * i as f32, 0.0).with_scale(Vec3::new(0.16, 0.16, 1.0)),
            ChildOf(parent),
        ));
    }
}
