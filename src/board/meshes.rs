//! The board's meshes: the board (squares, or Alquerque's lines and points) and the pieces as 2D
//! meshes under one root, made of the theme's surfaces, with one shared material per colour.

use crate::board::layout::BoardLayout;
use crate::board::materials::{self, Grain, Tile};
use crate::board::palette::Colors;
use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use bevy::sprite_render::AlphaMode2d;
use ludus_rules::{Piece, Square, alquerque};

/// The root of the board's meshes; its transform places and scales the board (board units).
#[derive(Component)]
pub(crate) struct BoardRoot;
/// A piece's entity, on its square.
#[derive(Component)]
pub(crate) struct PieceEntity(pub Square);

/// Meshes and materials of the board view.
#[derive(Resource)]
pub(crate) struct BoardShapes {
    pub circle: Handle<Mesh>,
    pub ring: Handle<Mesh>,
    pub thin_ring: Handle<Mesh>,
    pub square: Handle<Mesh>,
    pub eagle: Handle<Mesh>,
    /// The pulsing glow of pieces that must capture (its colour changes every frame).
    pub glow: Handle<ColorMaterial>,
    /// The soft shadow under every piece, on every theme (one material, so that the shadows
    /// batch into one draw).
    pub shadow: Handle<ColorMaterial>,
    /// The capture bursts' one material.
    pub burst: Handle<ColorMaterial>,
}

/// The camera and the shapes every board shares.
pub(crate) fn setup(
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
pub(crate) fn tint(color: Color, to: Color, amount: f32) -> Color {
    // Mixed in sRGB, as the eye sees it (linear light would turn a black face grey).
    Color::Srgba(color.to_srgba().mix(&to.to_srgba(), amount))
}

/// Smooth edges (4x multisampling), except in a browser whose WebGL draws on the CPU (the page
/// sets `window.ludusSoftwareGl`): there every sample costs, and frames would come too slowly.
fn msaa() -> Msaa {
    if crate::platform::background::software_renderer() { Msaa::Off } else { Msaa::Sample4 }
}

/// The legion's eagle: wings spread, head up, as triangles in a unit box.
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

/// One material per colour, shared by every mesh of that colour: meshes that share a mesh and a
/// material are drawn together (one instanced draw call for all the dark squares, all the pieces'
/// rims...), where a material each would cost a draw call each. That matters most where the
/// browser draws on the CPU (SwiftShader): the Latrunculi board's 180 draw calls a frame became
/// 17, counted in headless Chromium.
#[derive(Resource, Default)]
pub(crate) struct SharedMaterials {
    /// One material per colour.
    by_color: std::collections::HashMap<[u32; 4], Handle<ColorMaterial>>,
    /// The surfaces' textures, made the first time a theme needs them.
    textures: std::collections::HashMap<Grain, Handle<Image>>,
    /// One material per surface and colour.
    by_surface: std::collections::HashMap<(Grain, [u32; 4]), Handle<ColorMaterial>>,
}

/// The materials of the board view: the assets and the shared one per colour.
pub(crate) struct MaterialsByColor<'a> {
    pub materials: &'a mut Assets<ColorMaterial>,
    pub palette: &'a mut SharedMaterials,
}

/// A colour as a map key.
fn color_key(color: Color) -> [u32; 4] {
    color.to_srgba().to_f32_array().map(f32::to_bits)
}

impl MaterialsByColor<'_> {
    /// The shared material of `color` (blended when it is translucent).
    pub fn of(&mut self, color: Color) -> MeshMaterial2d<ColorMaterial> {
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
    pub fn surface(
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

/// What spawning the board's meshes needs: the assets, the theme's colours and the layout.
pub(crate) struct BoardPainter<'a, 'w, 's> {
    pub commands: &'a mut Commands<'w, 's>,
    pub kit: &'a BoardShapes,
    pub meshes: &'a mut Assets<Mesh>,
    pub images: &'a mut Assets<Image>,
    pub paints: MaterialsByColor<'a>,
    pub colors: &'a Colors,
    pub layout: &'a BoardLayout,
}

impl BoardPainter<'_, '_, '_> {
    /// Spawns the board (squares or lines and points) under a fresh root, and returns the root.
    /// The squares, the frame and Alquerque's plate are made of the theme's surfaces, each kind
    /// one mesh of quads with one material; the Alquerque lines are inlaid: a dark strip in a
    /// pale groove.
    pub fn board(&mut self) -> Entity {
        let root = self.commands.spawn((BoardRoot, Transform::default(), Visibility::default())).id();
        if self.layout.points {
            self.points_board(root);
        } else {
            self.squares_board(root);
        }
        root
    }

    /// One mesh of `tiles` in `color` on the surface `grain`, at depth `z`.
    fn tiles(&mut self, root: Entity, tiles: &[Tile], color: Color, grain: Option<Grain>, z: f32) {
        let material = self.paints.surface(color, grain, self.images);
        self.commands.spawn((
            Mesh2d(self.meshes.add(materials::tiles_mesh(tiles))),
            material,
            Transform::from_xyz(0.0, 0.0, z),
            ChildOf(root),
        ));
    }

    /// One `mesh` in `color` at `pos`, scaled and turned by `rot` radians.
    fn put(
        &mut self,
        root: Entity,
        mesh: &Handle<Mesh>,
        color: Color,
        pos: Vec2,
        z: f32,
        scale: Vec2,
        rot: f32,
    ) {
        self.commands.spawn((
            Mesh2d(mesh.clone()),
            self.paints.of(color),
            Transform::from_xyz(pos.x, pos.y, z)
                .with_rotation(Quat::from_rotation_z(rot))
                .with_scale(scale.extend(1.0)),
            ChildOf(root),
        ));
    }

    /// Latrunculi's board: the frame, then the light and the dark squares.
    fn squares_board(&mut self, root: Entity) {
        let (layout, colors) = (self.layout, self.colors);
        let surfaces = colors.surfaces;
        let extent = layout.extent();
        let frame = frame_strips(extent + 0.3, extent);
        self.tiles(root, &frame, colors.frame, surfaces.map(|s| s.frame), 0.0);
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
        self.tiles(root, &light, colors.light_square, surfaces.map(|s| s.light), 0.1);
        self.tiles(root, &dark, colors.dark_square, surfaces.map(|s| s.dark), 0.1);
    }

    /// Alquerque's board: the frame and the plate, the inlaid lines, the points.
    fn points_board(&mut self, root: Entity) {
        let (layout, colors) = (self.layout, self.colors);
        let surfaces = colors.surfaces;
        let extent = layout.extent() + 1.1;
        let frame = frame_strips(extent + 0.14, extent);
        self.tiles(root, &frame, colors.frame, surfaces.map(|s| s.frame), 0.0);
        let plate =
            Tile { center: Vec2::ZERO, size: extent, uv: Rect::new(0.0, 0.0, 1.0, 1.0), turned: false };
        self.tiles(root, &[plate], colors.light_square, surfaces.map(|s| s.light), 0.1);
        let lines = alquerque_lines(layout);
        // The groove (where there is an inlay colour), then the strip in it.
        let line = 0.045;
        let layers = colors.inlay.map(|groove| (groove, line * 1.9, 0.15)).into_iter().chain([(
            colors.line,
            line,
            0.2,
        )]);
        let (square, circle) = (self.kit.square.clone(), self.kit.circle.clone());
        for (color, width, z) in layers {
            for &(mid, length, angle) in &lines {
                self.put(root, &square, color, mid, z, Vec2::new(length + width, width), angle);
            }
        }
        for i in 0..(layout.width * layout.height) {
            let at = layout.local(Square(i));
            if let Some(groove) = colors.inlay {
                self.put(root, &circle, groove, at, 0.25, Vec2::splat(0.16 + line * 0.9), 0.0);
            }
            self.put(root, &circle, colors.point, at, 0.3, Vec2::splat(0.16), 0.0);
        }
    }

    /// Spawns `piece` on `sq` under `root` and returns its entity.
    pub fn piece(&mut self, root: Entity, sq: Square, piece: Piece) -> Entity {
        spawn_piece(self.commands, self.kit, &mut self.paints, self.colors, self.layout, root, sq, piece)
    }
}

/// Alquerque's lines as (centre, length, angle), in board units: the ranks and files, then the
/// diagonals, one unit segment from every point with diagonals, north-east and north-west (each
/// drawn once, from its lower end).
fn alquerque_lines(layout: &BoardLayout) -> Vec<(Vec2, f32, f32)> {
    let (w, h) = (f32::from(layout.width), f32::from(layout.height));
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
    lines
}

/// A piece: a soft shadow, the rim, the body, its mark and, for a king, the eagle.
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
    let r = layout.piece_radius();
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
