//! The board's materials, made by code the first time a theme is shown: wood grain (Wood),
//! marble and granite (Stone), as small textures that shade the theme's own colours. No image
//! file ships, so the browser bundle does not grow; High contrast stays flat.
//!
//! Every square shows its own part of its texture, yet all the light squares stay one mesh with
//! one material (and so one draw call), as do the dark ones and the frame: [`tiles_mesh`] puts
//! each square's quad, with its own texture coordinates, into a single mesh.

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// A surface a part of the board is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Grain {
    /// Long fibres and growth rings, running along the texture's width.
    Wood,
    /// A pale stone with soft clouds and thin dark veins.
    Marble,
    /// A fine-grained speckled stone.
    Granite,
}

impl Grain {
    /// Every surface.
    pub const ALL: [Grain; 3] = [Grain::Wood, Grain::Marble, Grain::Granite];
}

/// What each part of a board is made of, for a theme that has surfaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Surfaces {
    /// The frame around the squares (Latrunculi) or the rim of the plate (Alquerque).
    pub frame: Grain,
    /// The light squares, and Alquerque's plate.
    pub light: Grain,
    /// The dark squares.
    pub dark: Grain,
    /// Whether the dark squares' grain runs across the light squares' (a parquet).
    pub dark_turned: bool,
}

/// The side of every texture, in pixels.
pub const TEXTURE_SIZE: u32 = 256;

/// How much of the texture's side one square shows.
const TILE: f32 = 0.3;

/// The texture of a surface: `size` x `size` RGBA pixels in sRGB, each a shade (at most white)
/// that multiplies the material's colour. The same surface and size give the same pixels.
pub fn texture_pixels(grain: Grain, size: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity((size * size * 4) as usize);
    let scale = 1.0 / size as f32;
    for y in 0..size {
        for x in 0..size {
            let (u, v) = ((x as f32 + 0.5) * scale, (y as f32 + 0.5) * scale);
            let [r, g, b] = match grain {
                Grain::Wood => wood(u, v),
                Grain::Marble => marble(u, v),
                Grain::Granite => granite(u, v, x, y),
            };
            out.extend([r, g, b, 1.0].map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8));
        }
    }
    out
}

/// The texture of a surface as an image asset.
pub fn texture(grain: Grain) -> Image {
    let size = Extent3d { width: TEXTURE_SIZE, height: TEXTURE_SIZE, depth_or_array_layers: 1 };
    Image::new(
        size,
        TextureDimension::D2,
        texture_pixels(grain, TEXTURE_SIZE),
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    )
}

/// Growth rings that run almost straight along the width, bent a little by slow noise, with
/// thin dark latewood lines, straight fibres along them and a little blotching. The rings are
/// shaded browner than they are darker, as wood is.
fn wood(u: f32, v: f32) -> [f32; 3] {
    let bend = fbm(u * 1.3, v * 2.0, 3, 11);
    let rings = v * 15.0 + bend * 2.2 + 0.4 * fbm(u * 0.6, v * 9.0, 2, 13);
    let latewood = (0.5 + 0.5 * (rings * std::f32::consts::TAU).sin()).powi(6);
    let fibres = 0.6 * noise(u * 3.0, v * 230.0, 23) + 0.4 * noise(u * 9.0, v * 95.0, 29);
    let blotch = fbm(u * 2.0, v * 2.0, 2, 37);
    let f = 1.0 - 0.14 * latewood - 0.08 * fibres - 0.05 * blotch;
    [f, f.powf(1.15), f.powf(1.4)]
}

/// Soft clouds and a few long veins that wander across the slab in one direction, the veins a
/// cool grey, a faint second set crossing them.
fn marble(u: f32, v: f32) -> [f32; 3] {
    let warp = fbm(u * 2.0, v * 2.0, 5, 41);
    let t = u * 1.1 + v * 0.7 + warp * 1.5;
    let vein = (1.0 - (t * std::f32::consts::PI * 3.0).sin().abs()).powi(6);
    let faint = (1.0 - ((v * 1.3 - u * 0.4 + warp) * std::f32::consts::PI * 5.0).sin().abs()).powi(12);
    let clouds = fbm(u * 4.0, v * 4.0, 4, 53);
    let f = 1.0 - 0.16 * vein - 0.06 * faint - 0.07 * clouds;
    [f.powf(1.08), f.powf(1.04), f]
}

/// Fine grains of several shades and a few dark crystals.
fn granite(u: f32, v: f32, x: u32, y: u32) -> [f32; 3] {
    let grains = fbm(u * 40.0, v * 40.0, 2, 61);
    let crystal = if hash(x as i32, y as i32, 67) > 0.94 { 0.10 } else { 0.0 };
    let f = 1.0 - 0.10 * grains - crystal - 0.03 * fbm(u * 3.0, v * 3.0, 2, 71);
    [f, f, f.powf(0.97)]
}

/// A number in [0, 1) for a lattice point.
fn hash(x: i32, y: i32, seed: u32) -> f32 {
    let mut h = (x as u32).wrapping_mul(0x8DA6_B343)
        ^ (y as u32).wrapping_mul(0xD816_3841)
        ^ seed.wrapping_mul(0xCB1A_B31F);
    h ^= h >> 13;
    h = h.wrapping_mul(0x5bd1_e995);
    h ^= h >> 15;
    (h >> 8) as f32 / (1u32 << 24) as f32
}

/// Value noise in [0, 1): the lattice's numbers, smoothly blended.
fn noise(x: f32, y: f32, seed: u32) -> f32 {
    let (xf, yf) = (x.floor(), y.floor());
    let (xi, yi) = (xf as i32, yf as i32);
    let smooth = |t: f32| t * t * (3.0 - 2.0 * t);
    let (sx, sy) = (smooth(x - xf), smooth(y - yf));
    let top = hash(xi, yi, seed) * (1.0 - sx) + hash(xi + 1, yi, seed) * sx;
    let bottom = hash(xi, yi + 1, seed) * (1.0 - sx) + hash(xi + 1, yi + 1, seed) * sx;
    top * (1.0 - sy) + bottom * sy
}

/// Noise at `octaves` scales, each twice as fine and half as strong, in [0, 1).
fn fbm(x: f32, y: f32, octaves: u32, seed: u32) -> f32 {
    let (mut sum, mut amplitude, mut total, mut scale) = (0.0, 1.0, 0.0, 1.0);
    for o in 0..octaves {
        sum += amplitude * noise(x * scale, y * scale, seed + o);
        total += amplitude;
        amplitude *= 0.5;
        scale *= 2.0;
    }
    sum / total
}

/// One quad of a board mesh: where it lies (board units) and the part of the texture it shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tile {
    /// Its centre.
    pub center: Vec2,
    /// Its width and height.
    pub size: Vec2,
    /// The part of the texture it shows, in texture coordinates (0 to 1).
    pub uv: Rect,
    /// Whether the texture runs across the quad (its width along the quad's height).
    pub turned: bool,
}

impl Tile {
    /// A unit square at `center` showing a part of the texture chosen by `key` (each square its
    /// own part, the same every time).
    pub fn square(center: Vec2, key: u32, turned: bool) -> Tile {
        let room = 1.0 - TILE;
        let u = hash(key as i32, 1, 97) * room;
        let v = hash(key as i32, 2, 97) * room;
        Tile { center, size: Vec2::ONE, uv: Rect::new(u, v, u + TILE, v + TILE), turned }
    }

    /// A strip of the frame, `size` in board units, its grain along its length: it shows a part
    /// of the texture as long as the strip is, in proportion.
    pub fn strip(center: Vec2, size: Vec2, key: u32) -> Tile {
        let turned = size.y > size.x;
        let (long, short) = if turned { (size.y, size.x) } else { (size.x, size.y) };
        let across = (TILE * short / long.max(f32::EPSILON)).min(1.0);
        let v = hash(key as i32, 3, 97) * (1.0 - across);
        Tile { center, size, uv: Rect::new(0.0, v, 1.0, v + across), turned }
    }
}

/// One mesh of quads, each with its own texture coordinates: the parts of a board that share a
/// material are drawn together.
pub fn tiles_mesh(tiles: &[Tile]) -> Mesh {
    let mut positions = Vec::with_capacity(tiles.len() * 4);
    let mut uvs = Vec::with_capacity(tiles.len() * 4);
    let mut indices = Vec::with_capacity(tiles.len() * 6);
    for tile in tiles {
        let half = tile.size / 2.0;
        let base = positions.len() as u32;
        // Corners counter-clockwise from the lower left; the texture's v grows downwards.
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
        let (min, max) = (tile.uv.min, tile.uv.max);
        for (sx, sy) in corners {
            positions.push([tile.center.x + sx * half.x, tile.center.y + sy * half.y, 0.0]);
            // 0 or 1 along the quad's width (a) and height (b).
            let (a, b) = ((sx + 1.0) / 2.0, (1.0 - sy) / 2.0);
            let (s, t) = if tile.turned { (b, 1.0 - a) } else { (a, b) };
            uvs.push([min.x + s * (max.x - min.x), min.y + t * (max.y - min.y)]);
        }
        indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    let n = positions.len();
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 0.0, 1.0]; n])
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
        .with_inserted_indices(Indices::U32(indices))
}
