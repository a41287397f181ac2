//! The board's surfaces made by code: each texture is the same every time, shades its colour
//! without washing out the highlights drawn over it, and has a grain that shows (wood's runs along
//! the rows); the squares' quads each show their own part of it, in one mesh.

use bevy::math::{Rect, Vec2};
use bevy::mesh::{Indices, Mesh, VertexAttributeValues};
use ludus::board::materials::{Grain, TEXTURE_SIZE, Tile, texture_pixels, tiles_mesh};

/// The shade (0 to 1) of every pixel of a texture, from its red, green and blue.
fn shades(pixels: &[u8]) -> Vec<f32> {
    pixels.chunks(4).map(|p| (f32::from(p[0]) + f32::from(p[1]) + f32::from(p[2])) / (3.0 * 255.0)).collect()
}

fn mean_and_spread(values: &[f32]) -> (f32, f32) {
    let n = values.len() as f32;
    let mean = values.iter().sum::<f32>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / n;
    (mean, var.sqrt())
}

#[test]
fn every_surface_is_made_the_same_way_each_time_and_shades_gently() {
    for grain in Grain::ALL {
        let started = std::time::Instant::now();
        let pixels = texture_pixels(grain, TEXTURE_SIZE);
        let took = started.elapsed();
        println!("{grain:?}: {TEXTURE_SIZE}x{TEXTURE_SIZE} made in {:.1} ms", took.as_secs_f64() * 1000.0);
        assert_eq!(pixels.len(), (TEXTURE_SIZE * TEXTURE_SIZE * 4) as usize);
        assert_eq!(pixels, texture_pixels(grain, TEXTURE_SIZE), "{grain:?} differs between two makings");
        assert!(pixels.chunks(4).all(|p| p[3] == 255), "{grain:?}: every pixel opaque");
        let (mean, spread) = mean_and_spread(&shades(&pixels));
        // The theme's colours stay close to what they were chosen to be, and the grain shows
        // without drowning the last move's and the hint's marks.
        assert!((0.80..=0.97).contains(&mean), "{grain:?}: mean shade {mean}");
        assert!((0.012..=0.10).contains(&spread), "{grain:?}: spread {spread}");
        let darkest = shades(&pixels).into_iter().fold(1.0f32, f32::min);
        assert!(darkest > 0.55, "{grain:?}: a pixel as dark as {darkest}");
    }
}

#[test]
fn wood_grain_runs_along_the_rows() {
    let size = TEXTURE_SIZE as usize;
    let s = shades(&texture_pixels(Grain::Wood, TEXTURE_SIZE));
    // The mean change from a pixel to its neighbour along a row, and down a column.
    let along: f32 = (0..size)
        .flat_map(|y| (1..size).map(move |x| (y, x)))
        .map(|(y, x)| (s[y * size + x] - s[y * size + x - 1]).abs())
        .sum();
    let across: f32 = (1..size)
        .flat_map(|y| (0..size).map(move |x| (y, x)))
        .map(|(y, x)| (s[y * size + x] - s[(y - 1) * size + x]).abs())
        .sum();
    assert!(across > 2.0 * along, "along the grain {along}, across it {across}");
}

fn uvs(mesh: &Mesh) -> Vec<[f32; 2]> {
    match mesh.attribute(Mesh::ATTRIBUTE_UV_0) {
        Some(VertexAttributeValues::Float32x2(v)) => v.clone(),
        other => panic!("texture coordinates: {other:?}"),
    }
}

#[test]
fn a_board_of_squares_is_one_mesh_each_square_its_own_part_of_the_texture() {
    let tiles: Vec<Tile> = (0..96u32)
        .map(|i| Tile::square(Vec2::new((i % 12) as f32, (i / 12) as f32), i, i % 2 == 0))
        .collect();
    let mesh = tiles_mesh(&tiles);
    assert_eq!(mesh.count_vertices(), 96 * 4);
    let Some(Indices::U32(indices)) = mesh.indices() else { panic!("u32 indices") };
    assert_eq!(indices.len(), 96 * 6);
    let uv = uvs(&mesh);
    assert!(uv.iter().flatten().all(|c| (0.0..=1.0).contains(c)), "inside the texture");
    // Each square's own part: the corners of no two squares coincide.
    let mut firsts: Vec<[u32; 2]> = uv.chunks(4).map(|c| c[0].map(f32::to_bits)).collect();
    firsts.sort_unstable();
    firsts.dedup();
    assert_eq!(firsts.len(), 96, "two squares show the same part of the texture");
    // The same square gets the same part every time the board is drawn.
    assert_eq!(Tile::square(Vec2::ZERO, 7, false), Tile::square(Vec2::ZERO, 7, false));
}

#[test]
fn a_turned_tile_runs_its_texture_across() {
    let uv = Rect::new(0.0, 0.0, 1.0, 1.0);
    let plain = uvs(&tiles_mesh(&[Tile { center: Vec2::ZERO, size: Vec2::ONE, uv, turned: false }]));
    let turned = uvs(&tiles_mesh(&[Tile { center: Vec2::ZERO, size: Vec2::ONE, uv, turned: true }]));
    // Along the quad's bottom edge (corner 0 to corner 1) the plain texture's u changes, the
    // turned one's v.
    assert_eq!(plain[1][1] - plain[0][1], 0.0);
    assert!((plain[1][0] - plain[0][0]).abs() > 0.9);
    assert_eq!(turned[1][0] - turned[0][0], 0.0);
    assert!((turned[1][1] - turned[0][1]).abs() > 0.9);
    // A frame's long strip shows the texture's whole width along its length.
    let strip = Tile::strip(Vec2::ZERO, Vec2::new(12.3, 0.15), 0);
    assert!(!strip.turned && strip.uv.width() == 1.0 && strip.uv.height() < 0.01);
    let side = Tile::strip(Vec2::ZERO, Vec2::new(0.15, 8.0), 1);
    assert!(side.turned && side.uv.width() == 1.0);
}
