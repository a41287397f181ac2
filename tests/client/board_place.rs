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

#[test]
fn a_long_board_turns_upright_in_a_tall_area_and_taps_still_find_their_squares() {
    // A phone held upright (390x844), and the part of it a panel under the board leaves.
    for tall in [Rect::new(0.0, 0.0, 390.0, 844.0), Rect::new(0.0, 0.0, 390.0, 560.0)] {
        let wide_area = Rect::new(0.0, 0.0, tall.height(), tall.width());
        for flipped in [false, true] {
            let upright = BoardLayout::fit(tall, 12, 8, false, flipped);
            let lying = BoardLayout::fit(wide_area, 12, 8, false, flipped);
            assert!(upright.quarter_turn && !lying.quarter_turn, "turned in the tall area only");
            // What the squares would be lying in the tall area.
            let across = (tall.width() / 13.2).min(tall.height() / 9.2);
            assert!(upright.cell > across * 1.15, "larger squares upright: {} > {across}", upright.cell);
            assert_eq!(upright.extent(), Vec2::new(8.0, 12.0), "8 wide, 12 tall");
            let mut seen = std::collections::HashSet::new();
            for rank in 0..8 {
                for file in 0..12 {
                    let sq = Square::new(file, rank, 12);
                    let at = upright.to_screen(sq);
                    assert!(tall.contains(at), "{sq:?} at {at} inside the area");
                    assert_eq!(upright.square_at(at), Some(sq), "flipped {flipped}: {sq:?} at {at}");
                    assert!(seen.insert(((at.x * 10.0) as i32, (at.y * 10.0) as i32)), "one square a place");
                }
            }
            // The first rank on the left (the second side's view: on the right), file a at the
            // top (at the bottom), and a step right on the screen is a step up the ranks.
            let (a1, l1, a8) = (Square::new(0, 0, 12), Square::new(11, 0, 12), Square::new(0, 7, 12));
            let (a1, l1, a8) = (upright.to_screen(a1), upright.to_screen(l1), upright.to_screen(a8));
            assert!((a1.x < a8.x) != flipped && (a1.x - l1.x).abs() < 0.01, "ranks run across");
            assert!((a1.y < l1.y) != flipped && (a1.y - a8.y).abs() < 0.01, "files run down");
            assert_eq!(upright.board_step(1, 0), if flipped { (0, -1) } else { (0, 1) });
            assert_eq!(upright.board_step(0, 1), if flipped { (1, 0) } else { (-1, 0) });
            // Each coordinate is written once, beside its row or column, outside the squares.
            let labels = upright.coordinates();
            assert_eq!(labels.len(), 12 + 8);
            for (at, text) in &labels {
                assert_eq!(upright.square_at(*at), None, "{text} at {at} is off the squares");
            }
            let a = labels.iter().find(|(_, t)| t == "a").expect("a").0;
            let one = labels.iter().find(|(_, t)| t == "1").expect("1").0;
            assert!((a.y - upright.to_screen(Square::new(0, 0, 12)).y).abs() < 0.01, "a beside file a");
            assert!((one.x - upright.to_screen(Square::new(0, 0, 12)).x).abs() < 0.01, "1 under rank 1");
        }
    }
    // A square board never turns; a long board in a wide area stays as it is.
    assert!(!BoardLayout::fit(Rect::new(0.0, 0.0, 390.0, 844.0), 5, 5, true, false).quarter_turn);
    assert!(!BoardLayout::fit(Rect::new(0.0, 0.0, 1280.0, 800.0), 12, 8, false, false).quarter_turn);
}
