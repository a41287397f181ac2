//! Where the board sits: its layout in the area the panel gives it, and taps read back.

use bevy::prelude::*;
use ludus::board::view::BoardLayout;
use ludus_rules::Square;

#[test]
fn a_layout_fits_its_own_area_only_and_refits_another_keeping_the_board() {
    let wide = Rect::new(0.0, 0.0, 1280.0, 800.0);
    let half = Rect::new(0.0, 0.0, 452.0, 400.0);
    for (width, height, points) in [(5u8, 5u8, true), (12, 8, false), (8, 8, false)] {
        for flipped in [false, true] {
            let layout = BoardLayout::fit(wide, width, height, points, flipped);
            assert!(layout.fits(wide), "{width}x{height}: fits the area it was made for");
            assert!(!layout.fits(half), "{width}x{height}: not another one");
            let moved = layout.refit(half);
            assert_eq!(moved, BoardLayout::fit(half, width, height, points, flipped));
            assert!(moved.fits(half) && !moved.fits(wide));
            assert!(moved.cell < layout.cell, "a smaller area, smaller cells");
            // Every square's centre, on screen inside the area, reads back as that square.
            for rank in 0..height {
                for file in 0..width {
                    let sq = Square::new(file, rank, width);
                    let at = moved.to_screen(sq);
                    assert!(half.contains(at), "{width}x{height} {sq:?} at {at} inside the area");
                    assert_eq!(moved.square_at(at), Some(sq), "{width}x{height} flipped {flipped}");
                }
            }
        }
    }
}
