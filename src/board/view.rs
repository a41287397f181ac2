//! The board view: the board and its pieces as 2D meshes, scaled to the space the panels leave,
//! highlights, and animated moves (eased slides, Alquerque hops that arc over the jumped piece,
//! captured pieces that shrink away).

use crate::app::Screen;
use crate::board::materials::{self, Grain, Tile};
use crate::board::palette::Colors;
use crate::game::selection::{self, Selected};
use crate::game::session::Session;
use crate::game::settings::Settings;
use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use bevy::sprite_render::AlphaMode2d;
use bevy::window::{PrimaryWindow, RequestRedraw};
use ludus_rules::{AnyMove, AnyPosition, Piece, Reason, Side, Square, Variant, alquerque};

/// The part of the window (logical pixels, origin top left) the board may use; set by the
/// interface after it lays out its panels.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct BoardArea(pub Rect);

impl Default for BoardArea {
    fn default() -> Self {
        BoardArea(Rect::new(0.0, 0.0, 1280.0, 800.0))
    }
}

/// Where the board is on screen: used to draw it, to read taps and to place labels.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct BoardLayout {
    /// The board's centre in logical pixels (origin top left).
    pub center: Vec2,
    /// One square (or the distance between two points) in logical pixels.
    pub cell: f32,
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// Whether the board is turned (the second side at the bottom).
    pub flipped: bool,
    /// Whether this is the Alquerque board of points.
    pub points: bool,
}

impl Default for BoardLayout {
    fn default() -> Self {
        BoardLayout {
            center: Vec2::new(640.0, 400.0),
            cell: 60.0,
            width: 12,
            height: 8,
            flipped: false,
            points: false,
        }
    }
}

impl BoardLayout {
    /// The layout that fits a board of `width` x `height` into `area`.
    pub fn fit(area: Rect, width: u8, height: u8, points: bool, flipped: bool) -> BoardLayout {
        // Latrunculi squares span `width` cells; Alquerque points span `width - 1` gaps. Keep a
        // margin for the frame and the coordinates.
        let (span_w, span_h) = if points {
            (f32::from(width - 1) + 1.7, f32::from(height - 1) + 1.7)
        } else {
            (f32::from(width) + 1.2, f32::from(height) + 1.2)
        };
        let cell = (area.width() / span_w).min(area.height() / span_h).max(4.0);
        BoardLayout { center: area.center(), cell, width, height, flipped, points }
    }

    /// The same board fitted into `area`.
    pub fn refit(&self, area: Rect) -> BoardLayout {
        BoardLayout::fit(area, self.width, self.height, self.points, self.flipped)
    }

    /// Whether this layout is the one [`BoardLayout::fit`] gives for `area`: false when the
    /// interface has given the board another place since the layout was made.
    pub fn fits(&self, area: Rect) -> bool {
        *self == self.refit(area)
    }

    /// A square's centre in board units (y up, the board's centre at 0).
    pub fn local(&self, sq: Square) -> Vec2 {
        let f = f32::from(sq.file(self.width)) - f32::from(self.width - 1) / 2.0;
        let r = f32::from(sq.rank(self.width)) - f32::from(self.height - 1) / 2.0;
        if self.flipped { Vec2::new(-f, -r) } else { Vec2::new(f, r) }
    }

    /// A point in board units to logical window pixels.
    pub fn local_to_screen(&self, p: Vec2) -> Vec2 {
        Vec2::new(self.center.x + p.x * self.cell, self.center.y - p.y * self.cell)
    }

    /// A square's centre in logical window pixels.
    pub fn to_screen(&self, sq: Square) -> Vec2 {
        self.local_to_screen(self.local(sq))
    }

    /// Logical window pixels to board units.
    pub fn screen_to_local(&self, screen: Vec2) -> Vec2 {
        Vec2::new((screen.x - self.center.x) / self.cell, -(screen.y - self.center.y) / self.cell)
    }

    /// The square (or point) under a screen position, if any.
    pub fn square_at(&self, screen: Vec2) -> Option<Square> {
        let p = self.screen_to_local(screen);
        let (p_f, p_r) = if self.flipped { (-p.x, -p.y) } else { (p.x, p.y) };
        let f = (p_f + f32::from(self.width - 1) / 2.0).round();
        let r = (p_r + f32::from(self.height - 1) / 2.0).round();
        if f < 0.0 || r < 0.0 || f >= f32::from(self.width) || r >= f32::from(self.height) {
            return None;
        }
        let sq = Square::new(f as u8, r as u8, self.width);
        // Alquerque: a point answers within a generous radius, not in the corners between.
        if self.points && (self.local(sq) - p).length() > 0.48 {
            return None;
        }
        Some(sq)
    }
}

/// What the highlights were drawn for: shown moves, selection, hint, settled, ghosts, played.
type OverlayKey = (
    usize,
    Option<selection::Selection>,
    Option<AnyMove>,
    bool,
    Vec<(AnyMove, u32)>,
    Option<AnyMove>,
    Option<Square>,
);

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
    overlay_key: Option<OverlayKey>,
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

/// A press on the board that may become a drag.
/// The keyboard's cursor on the board. It is drawn only after a key has moved it, and hidden
/// again when the mouse or a finger presses.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct Cursor {
    /// Where it is (kept while hidden, so that the next key goes on from there).
    pub square: Option<Square>,
    /// Whether it is drawn.
    pub shown: bool,
}

#[derive(Resource, Default, Debug)]
pub struct Drag {
    /// Where the press started (logical pixels) and the square pressed.
    pub start: Option<(Vec2, Square)>,
    /// The piece being dragged and where it is (board units), once the pointer has moved.
    pub dragging: Option<(Square, Vec2)>,
}

/// An animated move.
pub struct MoveAnim {
    piece: Entity,
    /// The start and every landing point, in board units.
    waypoints: Vec<Vec2>,
    /// Whether the segments are hops (Alquerque jumps) rather than slides.
    hops: bool,
    segment: f32,
    elapsed: f32,
    /// Captured piece entities and when their removal starts.
    captured: Vec<(Entity, f32)>,
    /// The bursts where pieces are taken.
    bursts: Vec<Burst>,
    total: f32,
}

/// A short burst where a piece is taken: a ring that widens and sparks that fly out, in step
/// with the piece's removal (and the animation speed: none when animations are off).
struct Burst {
    at: Vec2,
    start: f32,
    duration: f32,
    ring: Entity,
    sparks: Vec<(Entity, Vec2)>,
}

/// How many sparks a burst throws.
const SPARKS: usize = 8;

impl MoveAnim {
    /// The jumps of an Alquerque chain landed so far (board units), numbered from 1: empty for
    /// any other move.
    pub fn chain_landings(&self) -> Vec<(Vec2, usize)> {
        let n = self.waypoints.len() - 1;
        if !self.hops || n < 2 {
            return Vec::new();
        }
        (1..=n).filter(|&i| self.elapsed >= self.segment * i as f32).map(|i| (self.waypoints[i], i)).collect()
    }
}

#[derive(Component)]
struct BoardRoot;
#[derive(Component)]
struct BoardStatic;
#[derive(Component)]
struct PieceEntity(Square);
#[derive(Component)]
struct Overlay;
#[derive(Component)]
struct Glow;

/// Meshes and materials of the board view.
#[derive(Resource)]
struct BoardShapes {
    circle: Handle<Mesh>,
    ring: Handle<Mesh>,
    thin_ring: Handle<Mesh>,
    square: Handle<Mesh>,
    eagle: Handle<Mesh>,
    glow: Handle<ColorMaterial>,
    /// The soft shadow under every piece, on every theme (one material, so that the shadows
    /// batch into one draw).
    shadow: Handle<ColorMaterial>,
    /// The capture bursts' one material.
    burst: Handle<ColorMaterial>,
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    commands.spawn((Camera2d, msaa()));
    commands.insert_resource(BoardShapes {
        circle: meshes.add(Circle::new(0.5)),
        ring: meshes.add(Annulus::new(0.40, 0.5)),
        thin_ring: meshes.add(Annulus::new(0.44, 0.5)),
        square: meshes.add(Rectangle::new(1.0, 1.0)),
        eagle: meshes.add(eagle_mesh()),
        glow: materials.add(ColorMaterial {
            color: Color::WHITE,
            alpha_mode: AlphaMode2d::Blend,
            ..default()
        }),
        shadow: materials.add(ColorMaterial {
            color: Color::srgba(0.0, 0.0, 0.0, 0.32),
            alpha_mode: AlphaMode2d::Blend,
            ..default()
        }),
        burst: materials.add(ColorMaterial {
            color: Color::srgba(1.0, 0.78, 0.25, 0.9),
            alpha_mode: AlphaMode2d::Blend,
            ..default()
        }),
    });
}

/// `color` moved `amount` of the way to `to` (opaque: the layers of a piece are opaque, so
/// that they stack by depth and share the materials of their colour).
fn tint(color: Color, to: Color, amount: f32) -> Color {
    // Mixed in sRGB, as the eye sees it (linear light would turn a black face grey).
    Color::Srgba(color.to_srgba().mix(&to.to_srgba(), amount))
}

/// The legion's eagle: wings spread, head up, as triangles in a unit box.
/// Smooth edges (4x multisampling), except in a browser whose WebGL draws on the CPU (the page
/// sets `window.ludusSoftwareGl`): there every sample costs, and frames would come too slowly.
fn msaa() -> Msaa {
    if crate::platform::background::software_renderer() { Msaa::Off } else { Msaa::Sample4 }
}

fn eagle_mesh() -> Mesh {
    let tris: &[[(f32, f32); 3]] = &[
        // body
        [(0.0, 0.30), (-0.09, 0.02), (0.09, 0.02)],
        [(-0.09, 0.02), (0.0, -0.22), (0.09, 0.02)],
        // head and beak
        [(-0.07, 0.30), (0.07, 0.30), (0.0, 0.44)],
        [(0.0, 0.40), (0.12, 0.36), (0.04, 0.31)],
        // tail
        [(0.0, -0.12), (-0.14, -0.40), (0.14, -0.40)],
        // left wing, three feathers
        [(-0.06, 0.20), (-0.46, 0.38), (-0.40, 0.22)],
        [(-0.07, 0.12), (-0.42, 0.20), (-0.38, 0.06)],
        [(-0.08, 0.04), (-0.36, 0.04), (-0.30, -0.10)],
        // right wing
        [(0.06, 0.20), (0.40, 0.22), (0.46, 0.38)],
        [(0.07, 0.12), (0.38, 0.06), (0.42, 0.20)],
        [(0.08, 0.04), (0.30, -0.10), (0.36, 0.04)],
    ];
    let mut positions = Vec::new();
    for t in tris {
        // Counter-clockwise winding for every triangle.
        let [a, b, c] = *t;
        let cross = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
        let ordered = if cross >= 0.0 { [a, b, c] } else { [a, c, b] };
        positions.extend(ordered.iter().map(|(x, y)| [*x, *y, 0.0]));
    }
    let n = positions.len();
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 0.0, 1.0]; n])
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, vec![[0.0, 0.0]; n])
        .with_inserted_indices(Indices::U32((0..n as u32).collect()))
}

/// Which side sits at the bottom.
fn bottom_side(session: &Session, view: &BoardView) -> Side {
    let base = session.seats.human_side().unwrap_or(Side::First);
    if view.turned { !base } else { base }
}

fn update_layout(
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

/// One material per colour, shared by every mesh of that colour: meshes that share a mesh and a
/// material are drawn together (one instanced draw call for all the dark squares, all the pieces'
/// rims...), where a material each would cost a draw call each. That matters most where the
/// browser draws on the CPU (SwiftShader): the Latrunculi board's 180 draw calls a frame became
/// 17, counted in headless Chromium.
#[derive(Resource, Default)]
pub(crate) struct SharedMaterials {
    by_color: std::collections::HashMap<[u32; 4], Handle<ColorMaterial>>,
    /// The surfaces' textures, made the first time a theme needs them.
    textures: std::collections::HashMap<Grain, Handle<Image>>,
    /// One material per surface and colour.
    by_surface: std::collections::HashMap<(Grain, [u32; 4]), Handle<ColorMaterial>>,
}

/// The materials of the board view: the assets and the shared one per colour.
struct MaterialsByColor<'a> {
    materials: &'a mut Assets<ColorMaterial>,
    palette: &'a mut SharedMaterials,
}

/// A colour as a map key.
fn color_key(color: Color) -> [u32; 4] {
    color.to_srgba().to_f32_array().map(f32::to_bits)
}

impl MaterialsByColor<'_> {
    /// The shared material of `color` (blended when it is translucent).
    fn of(&mut self, color: Color) -> MeshMaterial2d<ColorMaterial> {
        let key = color_key(color);
        let materials = &mut *self.materials;
        let handle = self.palette.by_color.entry(key).or_insert_with(|| {
            let alpha_mode = if color.alpha() < 1.0 { AlphaMode2d::Blend } else { AlphaMode2d::Opaque };
            materials.add(ColorMaterial { color, alpha_mode, ..default() })
        });
        MeshMaterial2d(handle.clone())
    }

    /// The shared material of `color` made of `grain` (its texture, made into `images` the
    /// first time, shades the colour), or the plain colour's without a surface.
    fn surface(
        &mut self,
        color: Color,
        grain: Option<Grain>,
        images: &mut Assets<Image>,
    ) -> MeshMaterial2d<ColorMaterial> {
        let Some(grain) = grain else { return self.of(color) };
        let key = (grain, color_key(color));
        let texture = self
            .palette
            .textures
            .entry(grain)
            .or_insert_with(|| images.add(materials::texture(grain)))
            .clone();
        let materials = &mut *self.materials;
        let handle =
            self.palette.by_surface.entry(key).or_insert_with(|| {
                materials.add(ColorMaterial { color, texture: Some(texture), ..default() })
            });
        MeshMaterial2d(handle.clone())
    }
}

/// The four strips of a frame `outer` wide and high around a hole `inner` wide and high.
fn frame_strips(outer: Vec2, inner: Vec2) -> [Tile; 4] {
    let band = (outer - inner) / 2.0;
    let (x, y) = ((inner.x + band.x) / 2.0, (inner.y + band.y) / 2.0);
    [
        Tile::strip(Vec2::new(0.0, y), Vec2::new(outer.x, band.y), 0),
        Tile::strip(Vec2::new(0.0, -y), Vec2::new(outer.x, band.y), 1),
        Tile::strip(Vec2::new(-x, 0.0), Vec2::new(band.x, inner.y), 2),
        Tile::strip(Vec2::new(x, 0.0), Vec2::new(band.x, inner.y), 3),
    ]
}

/// Spawns the board (squares or lines and points) under a fresh root. The squares, the frame
/// and Alquerque's plate are made of the theme's surfaces, each kind one mesh of quads with one
/// material; the Alquerque lines are inlaid: a dark strip in a pale groove.
fn spawn_board(
    commands: &mut Commands,
    kit: &BoardShapes,
    meshes: &mut Assets<Mesh>,
    images: &mut Assets<Image>,
    paints: &mut MaterialsByColor,
    colors: &Colors,
    layout: &BoardLayout,
) -> Entity {
    let root = commands.spawn((BoardRoot, BoardStatic, Transform::default(), Visibility::default())).id();
    let (w, h) = (f32::from(layout.width), f32::from(layout.height));
    let surfaces = colors.surfaces;
    let mut tiles =
        |commands: &mut Commands, paints: &mut MaterialsByColor, tiles: &[Tile], color, grain, z| {
            commands.spawn((
                Mesh2d(meshes.add(materials::tiles_mesh(tiles))),
                paints.surface(color, grain, images),
                Transform::from_xyz(0.0, 0.0, z),
                ChildOf(root),
            ));
        };
    let put = |commands: &mut Commands,
               paints: &mut MaterialsByColor,
               mesh: &Handle<Mesh>,
               color: Color,
               pos: Vec2,
               z: f32,
               scale: Vec2,
               rot: f32| {
        commands.spawn((
            Mesh2d(mesh.clone()),
            paints.of(color),
            Transform::from_xyz(pos.x, pos.y, z)
                .with_rotation(Quat::from_rotation_z(rot))
                .with_scale(scale.extend(1.0)),
            ChildOf(root),
        ));
    };
    if layout.points {
        let extent = Vec2::new(w - 1.0 + 1.1, h - 1.0 + 1.1);
        let frame = frame_strips(extent + 0.14, extent);
        tiles(commands, paints, &frame, colors.frame, surfaces.map(|s| s.frame), 0.0);
        let plate =
            Tile { center: Vec2::ZERO, size: extent, uv: Rect::new(0.0, 0.0, 1.0, 1.0), turned: false };
        tiles(commands, paints, &[plate], colors.light_square, surfaces.map(|s| s.light), 0.1);
        // Each line as (centre, length, angle): the ranks and files, then the diagonals, one
        // unit segment from every point with diagonals, north-east and north-west (each drawn
        // once, from its lower end).
        let mut lines = Vec::new();
        for i in 0..layout.width {
            let x = f32::from(i) - (w - 1.0) / 2.0;
            lines.push((Vec2::new(x, 0.0), h - 1.0, std::f32::consts::FRAC_PI_2));
        }
        for i in 0..layout.height {
            let y = f32::from(i) - (h - 1.0) / 2.0;
            lines.push((Vec2::new(0.0, y), w - 1.0, 0.0));
        }
        for i in 0..(layout.width * layout.height) {
            let p = Square(i);
            if !alquerque::has_diagonals(p) {
                continue;
            }
            for d in [1usize, 7] {
                if let Some(q) = alquerque::neighbour(p, d) {
                    let (a, b) = (layout.local(p), layout.local(q));
                    let v = b - a;
                    lines.push(((a + b) / 2.0, v.length(), v.y.atan2(v.x)));
                }
            }
        }
        // The groove (where there is an inlay colour), then the strip in it.
        let line = 0.045;
        let layers = colors.inlay.map(|groove| (groove, line * 1.9, 0.15)).into_iter().chain([(
            colors.line,
            line,
            0.2,
        )]);
        for (color, width, z) in layers {
            for &(mid, length, angle) in &lines {
                put(commands, paints, &kit.square, color, mid, z, Vec2::new(length + width, width), angle);
            }
        }
        for i in 0..(layout.width * layout.height) {
            let at = layout.local(Square(i));
            if let Some(groove) = colors.inlay {
                put(commands, paints, &kit.circle, groove, at, 0.25, Vec2::splat(0.16 + line * 0.9), 0.0);
            }
            put(commands, paints, &kit.circle, colors.point, at, 0.3, Vec2::splat(0.16), 0.0);
        }
    } else {
        let frame = frame_strips(Vec2::new(w + 0.3, h + 0.3), Vec2::new(w, h));
        tiles(commands, paints, &frame, colors.frame, surfaces.map(|s| s.frame), 0.0);
        let (mut light, mut dark) = (Vec::new(), Vec::new());
        let turned = surfaces.is_some_and(|s| s.dark_turned);
        for i in 0..(layout.width * layout.height) {
            let sq = Square(i);
            if (sq.file(layout.width) + sq.rank(layout.width)).is_multiple_of(2) {
                dark.push(Tile::square(layout.local(sq), u32::from(i), turned));
            } else {
                light.push(Tile::square(layout.local(sq), u32::from(i), false));
            }
        }
        tiles(commands, paints, &light, colors.light_square, surfaces.map(|s| s.light), 0.1);
        tiles(commands, paints, &dark, colors.dark_square, surfaces.map(|s| s.dark), 0.1);
    }
    root
}

/// The piece's size in board units.
fn piece_radius(layout: &BoardLayout) -> f32 {
    if layout.points { 0.36 } else { 0.42 }
}

fn spawn_piece(
    commands: &mut Commands,
    kit: &BoardShapes,
    paints: &mut MaterialsByColor,
    colors: &Colors,
    layout: &BoardLayout,
    root: Entity,
    sq: Square,
    piece: Piece,
) -> Entity {
    let r = piece_radius(layout);
    let pos = layout.local(sq);
    let e = commands
        .spawn((
            PieceEntity(sq),
            Transform::from_xyz(pos.x, pos.y, 5.0).with_scale(Vec3::new(2.0 * r, 2.0 * r, 1.0)),
            Visibility::default(),
            ChildOf(root),
        ))
        .id();
    let [rim, body, mark] = colors.piece(layout.points, piece.side, piece.king);
    // Depth, in the piece's unit box, lit from the upper left: a soft shadow below and to the
    // right, the rim's lower edge darker, a sheen on the upper left of the face.
    let layer = |color: Color, paints: &mut MaterialsByColor, x: f32, y: f32, z: f32, scale: f32| {
        (
            Mesh2d(kit.circle.clone()),
            paints.of(color),
            Transform::from_xyz(x, y, z).with_scale(Vec3::splat(scale)),
            ChildOf(e),
        )
    };
    commands.spawn((
        Mesh2d(kit.circle.clone()),
        MeshMaterial2d(kit.shadow.clone()),
        Transform::from_xyz(0.05, -0.08, -0.05).with_scale(Vec3::splat(1.06)),
        ChildOf(e),
    ));
    commands.spawn(layer(rim, paints, 0.0, 0.0, 0.0, 1.0));
    commands.spawn(layer(tint(rim, Color::BLACK, 0.45), paints, 0.0, -0.045, 0.004, 0.89));
    commands.spawn(layer(body, paints, 0.0, 0.0, 0.01, 0.86));
    commands.spawn(layer(tint(body, Color::WHITE, 0.10), paints, -0.07, 0.08, 0.012, 0.62));
    commands.spawn((
        Mesh2d(kit.thin_ring.clone()),
        paints.of(mark),
        Transform::from_xyz(0.0, 0.0, 0.02).with_scale(Vec3::splat(0.62)),
        ChildOf(e),
    ));
    if piece.king {
        commands.spawn((
            Mesh2d(kit.eagle.clone()),
            paints.of(colors.emblem),
            Transform::from_xyz(0.0, 0.0, 0.03).with_scale(Vec3::splat(0.95)),
            ChildOf(e),
        ));
    }
    e
}

fn ease(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    if t < 0.5 { 4.0 * t * t * t } else { 1.0 - (-2.0 * t + 2.0).powi(3) / 2.0 }
}

/// Keeps the board and pieces in step with the session: animates a new move, redraws after
/// anything else (undo, new game, theme).
fn sync_board(
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
    mut last_layout: Local<Option<(u8, u8, bool, bool)>>,
    mut last_theme: Local<Option<crate::game::settings::Theme>>,
) {
    let Some(session) = session else { return };
    let colors = Colors::of(settings.theme);
    let shape = (layout.width, layout.height, layout.flipped, layout.points);
    let variant = session.game.variant();
    let structural =
        *last_layout != Some(shape) || *last_theme != Some(settings.theme) || view.variant != Some(variant);
    let moves = session.game.moves();
    let in_step =
        moves.len() >= view.shown_moves.len() && moves[..view.shown_moves.len()] == view.shown_moves[..];
    if !structural && !view.needs_rebuild && in_step && view.anim.is_some() {
        return; // an animation is running; it ends itself
    }
    if !structural && !view.needs_rebuild && in_step && moves.len() == view.shown_moves.len() {
        return;
    }
    if !structural
        && !view.needs_rebuild
        && in_step
        && moves.len() == view.shown_moves.len() + 1
        && let Some(factor) = settings.anim.factor()
        && !roots.is_empty()
    {
        // Animate the next move from what is shown.
        let mv = moves[view.shown_moves.len()];
        let before = session.game.position_at(view.shown_moves.len());
        let by_square = |sq: Square| pieces.iter().find(|(_, p)| p.0 == sq).map(|(e, _)| e);
        if let Some(piece) = by_square(mv.from()) {
            let mut waypoints = vec![layout.local(mv.from())];
            waypoints.extend(mv.path().iter().map(|&s| layout.local(s)));
            let hops = matches!(before, AnyPosition::Alquerque(_)) && mv.is_capture();
            let distance = (waypoints[1] - waypoints[0]).length();
            let segment = factor * if hops { 0.32 } else { 0.18 + 0.035 * distance };
            let n = (waypoints.len() - 1) as f32;
            let captured: Vec<(Entity, f32)> = mv
                .captured()
                .iter()
                .enumerate()
                .filter_map(|(i, &sq)| {
                    let start = if hops { segment * (i as f32 + 0.5) } else { segment * n };
                    by_square(sq).map(|e| (e, start))
                })
                .collect();
            let capture_time = if captured.is_empty() { 0.0 } else { 0.3 * factor };
            let mut bursts = Vec::new();
            if let Some(root) = roots.iter().next() {
                for (i, &sq) in mv.captured().iter().enumerate() {
                    let start = if hops { segment * (i as f32 + 0.5) } else { segment * n };
                    let at = layout.local(sq);
                    let hidden = |z: f32| {
                        (
                            Mesh2d(kit.circle.clone()),
                            MeshMaterial2d(kit.burst.clone()),
                            Transform::from_xyz(at.x, at.y, z).with_scale(Vec3::ZERO),
                            ChildOf(root),
                        )
                    };
                    let ring = commands.spawn(hidden(9.0)).insert(Mesh2d(kit.ring.clone())).id();
                    let sparks = (0..SPARKS)
                        .map(|k| {
                            let angle =
                                std::f32::consts::TAU * (k as f32 + 0.5 * (i % 2) as f32) / SPARKS as f32;
                            (commands.spawn(hidden(9.1)).id(), Vec2::from_angle(angle))
                        })
                        .collect();
                    bursts.push(Burst { at, start, duration: 0.3 * factor, ring, sparks });
                }
            }
            let total = segment * n + capture_time;
            commands.entity(piece).insert(
                Transform::from_xyz(waypoints[0].x, waypoints[0].y, 8.0).with_scale(Vec3::new(
                    2.0 * piece_radius(&layout),
                    2.0 * piece_radius(&layout),
                    1.0,
                )),
            );
            view.anim =
                Some(MoveAnim { piece, waypoints, hops, segment, elapsed: 0.0, captured, bursts, total });
            view.shown_moves.push(mv);
            view.overlay_key = None;
            return;
        }
    }
    // Redraw everything at the current position.
    for r in &roots {
        commands.entity(r).despawn();
    }
    let mut paints = MaterialsByColor { materials: &mut materials, palette: &mut palette };
    let root = spawn_board(&mut commands, &kit, &mut meshes, &mut images, &mut paints, &colors, &layout);
    for (sq, piece) in session.game.position().pieces() {
        spawn_piece(&mut commands, &kit, &mut paints, &colors, &layout, root, sq, piece);
    }
    view.shown_moves = moves;
    view.variant = Some(variant);
    view.anim = None;
    view.needs_rebuild = false;
    view.overlay_key = None;
    *last_layout = Some(shape);
    *last_theme = Some(settings.theme);
}

fn animate(
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
    anim.elapsed += time.delta_secs().min(0.1);
    let n = anim.waypoints.len() - 1;
    let moving = anim.elapsed.min(anim.segment * n as f32);
    let i = ((moving / anim.segment) as usize).min(n - 1);
    let u = ((moving - anim.segment * i as f32) / anim.segment).clamp(0.0, 1.0);
    let (a, b) = (anim.waypoints[i], anim.waypoints[i + 1]);
    let base = 2.0 * piece_radius(&layout);
    if let Ok(mut t) = transforms.get_mut(anim.piece) {
        if anim.hops {
            let p = a.lerp(b, ease(u));
            let lift = (std::f32::consts::PI * u).sin();
            t.translation = Vec3::new(p.x, p.y + 0.35 * lift, 8.0);
            t.scale = Vec3::new(base * (1.0 + 0.25 * lift), base * (1.0 + 0.25 * lift), 1.0);
        } else {
            let p = a.lerp(b, ease(u));
            t.translation = Vec3::new(p.x, p.y, 8.0);
        }
    }
    for &(e, start) in &anim.captured {
        if anim.elapsed >= start
            && let Ok(mut t) = transforms.get_mut(e)
        {
            let k = ((anim.elapsed - start) / 0.3).clamp(0.0, 1.0);
            let s = base * (1.0 - ease(k)) * (1.0 + 0.3 * (k * std::f32::consts::PI).sin());
            t.scale = Vec3::new(s.max(0.0), s.max(0.0), 1.0);
            t.rotation = Quat::from_rotation_z(k * 1.5);
        }
    }
    for burst in &anim.bursts {
        let k = (anim.elapsed - burst.start) / burst.duration;
        let on = (0.0..1.0).contains(&k);
        let out = 1.0 - (1.0 - k.clamp(0.0, 1.0)).powi(2);
        if let Ok(mut t) = transforms.get_mut(burst.ring) {
            let s = if on { base * (0.7 + 0.8 * out) } else { 0.0 };
            t.scale = Vec3::new(s, s, 1.0);
        }
        for &(e, dir) in &burst.sparks {
            if let Ok(mut t) = transforms.get_mut(e) {
                let p = burst.at + dir * base * (0.4 + 0.7 * out);
                let s = if on { base * 0.24 * (1.0 - k) } else { 0.0 };
                t.translation = Vec3::new(p.x, p.y, t.translation.z);
                t.scale = Vec3::new(s, s, 1.0);
            }
        }
    }
    if anim.elapsed >= anim.total {
        view.anim = None;
        view.needs_rebuild = true;
    }
}

/// Asks for frames until the board shows the session's position, still: the game otherwise
/// draws only when something asks, and a change made late in a frame would wait for the next
/// input or timer.
fn draw_until_settled(
    session: Option<Res<Session>>,
    view: Res<BoardView>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if session.is_some_and(|s| !view.settled(&s)) {
        redraw.write(RequestRedraw);
    }
}

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
    ) {
        self.commands.spawn((
            Overlay,
            Mesh2d(mesh.clone()),
            material.clone(),
            Transform::from_xyz(p.x, p.y, z).with_scale(Vec3::new(scale, scale, 1.0)),
            ChildOf(self.root),
        ));
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

/// Highlights: the last move's dotted path, the selection and its destinations, pieces that can
/// capture (Alquerque's compulsory capture), the hint, a king in danger or immobilised.
fn sync_overlay(
    mut commands: Commands,
    session: Option<Res<Session>>,
    settings: Res<Settings>,
    layout: Res<BoardLayout>,
    kit: Res<BoardShapes>,
    mut view: ResMut<BoardView>,
    selected: Res<Selected>,
    cursor: Res<Cursor>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut palette: ResMut<SharedMaterials>,
    roots: Query<Entity, With<BoardRoot>>,
    overlays: Query<Entity, With<Overlay>>,
) {
    let Some(session) = session else { return };
    let Some(root) = roots.iter().next() else { return };
    let settled = view.settled(&session);
    let focus = cursor.square.filter(|_| cursor.shown);
    let key = (
        view.shown_moves.len(),
        selected.0.clone(),
        view.hint,
        settled,
        view.ghosts.clone(),
        view.played,
        focus,
    );
    if view.overlay_key.as_ref() == Some(&key) && overlays.iter().next().is_some() {
        return;
    }
    view.overlay_key = Some(key);
    for e in &overlays {
        commands.entity(e).despawn();
    }
    let colors = Colors::of(settings.theme);
    let mut paints = MaterialsByColor { materials: &mut materials, palette: &mut palette };
    let mut marks = Marks { commands: &mut commands, root };
    if let Some(last) = view.shown_moves.last() {
        let m = paints.of(colors.last_move);
        let points = move_points(&layout, last);
        marks.dotted(&kit, &m, &points, 4.0, 0.09, 0.22);
        marks.mark(&kit.ring, &m, points[0], 4.0, 0.5);
    }
    // The keyboard's cursor: a double ring in the focus colour, over everything else.
    if let Some(sq) = focus {
        let m = paints.of(colors.focus);
        marks.mark(&kit.ring, &m, layout.local(sq), 8.0, 1.12);
        marks.mark(&kit.thin_ring, &m, layout.local(sq), 8.0, 1.3);
    }
    if !settled {
        return;
    }
    let pos = session.game.position();
    let legal = if session.can_touch() { session.game.legal_moves() } else { Vec::new() };
    // Pieces that can capture glow when capture is compulsory.
    if matches!(pos, AnyPosition::Alquerque(_)) && legal.first().is_some_and(|m| m.is_capture()) {
        let mut froms: Vec<Square> = legal.iter().map(|m| m.from()).collect();
        froms.dedup();
        let glow = MeshMaterial2d(kit.glow.clone());
        for sq in froms {
            marks.commands.spawn((
                Overlay,
                Glow,
                Mesh2d(kit.ring.clone()),
                glow.clone(),
                Transform::from_xyz(layout.local(sq).x, layout.local(sq).y, 6.0)
                    .with_scale(Vec3::new(0.98, 0.98, 1.0)),
                ChildOf(root),
            ));
        }
    }
    if let Some(sel) = &selected.0 {
        let m = paints.of(colors.selected);
        let mut points = vec![layout.local(sel.from)];
        points.extend(sel.partial.iter().map(|&p| layout.local(p)));
        marks.mark(&kit.ring, &m, points[0], 7.0, 0.98);
        marks.dotted(&kit, &m, &points, 7.0, 0.12, 0.17);
        for &p in &points[1..] {
            marks.mark(&kit.ring, &m, p, 7.0, 0.6);
        }
        let dest = paints.of(colors.destination);
        let capture = paints.of(colors.capture_destination);
        let depth = sel.partial.len();
        for sq in selection::destinations(&legal, sel) {
            let captures =
                selection::candidates(&legal, sel).any(|m| m.path()[depth] == sq && m.is_capture());
            if captures {
                marks.mark(&kit.ring, &capture, layout.local(sq), 7.0, 0.7);
            } else {
                marks.mark(&kit.circle, &dest, layout.local(sq), 7.0, 0.3);
            }
        }
    }
    // Spectators' proposals: pale paths, thicker for the most proposed.
    if let Some(top) = view.ghosts.iter().map(|(_, n)| *n).max() {
        let m = paints.of(Color::srgba(0.62, 0.80, 1.0, 0.6));
        for (mv, n) in &view.ghosts {
            let points = move_points(&layout, mv);
            let weight = 0.6 + 0.4 * (*n as f32 / top.max(1) as f32);
            marks.dotted(&kit, &m, &points, 7.2, 0.13 * weight, 0.18);
            marks.mark(&kit.ring, &m, points[points.len() - 1], 7.2, 0.75 * weight);
        }
    }
    // The move played from here (the analysis): pale blue, under the engine's move.
    if let Some(played) = view.played.filter(|p| Some(*p) != view.hint) {
        let m = paints.of(Color::srgba(0.55, 0.75, 1.0, 0.85));
        let points = move_points(&layout, &played);
        marks.mark(&kit.ring, &m, points[0], 7.4, 0.9);
        marks.dotted(&kit, &m, &points, 7.4, 0.12, 0.16);
        marks.mark(&kit.ring, &m, points[points.len() - 1], 7.4, 0.7);
    }
    if let Some(hint) = view.hint {
        let m = paints.of(colors.hint);
        let points = move_points(&layout, &hint);
        marks.mark(&kit.ring, &m, points[0], 7.5, 1.0);
        marks.dotted(&kit, &m, &points, 7.5, 0.16, 0.14);
        marks.mark(&kit.ring, &m, points[points.len() - 1], 7.5, 0.8);
    }
    // Kings: in danger (one free side left) or immobilised at the end.
    if let AnyPosition::Latrunculi(p) = pos {
        let danger = paints.of(colors.danger);
        for side in [Side::First, Side::Second] {
            let lost = session
                .game
                .outcome()
                .is_some_and(|o| o.reason == Reason::KingImmobilised && o.winner == Some(!side));
            if lost || (p.king_liberties(side) <= 1 && !session.game.is_over()) {
                let k = layout.local(p.king(side));
                marks.mark(&kit.ring, &danger, k, 6.5, if lost { 1.1 } else { 1.0 });
                if lost {
                    marks.mark(&kit.thin_ring, &danger, k, 6.5, 1.35);
                }
            }
        }
    }
}

fn pulse_glow(
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
    if settings.anim != crate::game::settings::AnimSpeed::Off {
        redraw.write(RequestRedraw);
    }
}

/// A dragged piece follows the pointer.
fn drag_piece(drag: Res<Drag>, mut pieces: Query<(&PieceEntity, &mut Transform)>) {
    let Some((sq, p)) = drag.dragging else { return };
    for (piece, mut t) in &mut pieces {
        if piece.0 == sq {
            t.translation = Vec3::new(p.x, p.y, 9.0);
        }
    }
}

fn clear_board(mut commands: Commands, roots: Query<Entity, With<BoardRoot>>, mut view: ResMut<BoardView>) {
    for r in &roots {
        commands.entity(r).despawn();
    }
    *view = BoardView::default();
}

fn background(settings: Res<Settings>, mut clear: ResMut<ClearColor>) {
    if settings.is_changed() {
        clear.0 = Colors::of(settings.theme).background;
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<BoardArea>()
        .init_resource::<Drag>()
        .init_resource::<BoardLayout>()
        .init_resource::<BoardView>()
        .init_resource::<Selected>()
        .init_resource::<SharedMaterials>()
        .add_systems(Startup, setup)
        .add_systems(Update, background)
        .add_systems(
            Update,
            (update_layout, sync_board, animate, sync_overlay, pulse_glow, drag_piece, draw_until_settled)
                .chain()
                .in_set(crate::app::AppSet::View)
                .run_if(in_state(Screen::Playing).or_else(in_state(Screen::Analysis))),
        )
        // The panel gives the board its place in the interface's pass (in `PostUpdate`): the
        // board takes it in the same frame, before transforms propagate, so that no frame
        // draws it where it was (the first frame of a game, a resized window).
        .add_systems(
            PostUpdate,
            update_layout
                .after(bevy_egui::EguiPostUpdateSet::EndPass)
                .before(TransformSystems::Propagate)
                .run_if(in_state(Screen::Playing).or_else(in_state(Screen::Analysis))),
        )
        .add_systems(OnExit(Screen::Playing), clear_board)
        .add_systems(OnExit(Screen::Analysis), clear_board);
}
