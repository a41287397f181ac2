//! The computer's answer to a draw offer: it takes the draw when its search says the game is
//! drawn or it is behind, and plays on when it is ahead (at a fixed node count: nothing depends
//! on the machine's speed).

use ludus_ai::{accepts_draw, tablebase};
use ludus_rules::{AnyGame, AnyPosition, Side, Variant};
use std::sync::Arc;

fn game(variant: Variant, position: &str) -> AnyGame {
    AnyGame::from_position(AnyPosition::parse(variant, position).expect("position"))
}

#[test]
fn the_side_ahead_plays_on_and_the_side_behind_takes_the_draw() {
    // Latrunculi 8x8: Red has its king and eight soldiers against Black's king and three.
    let g = game(Variant::LatrunculiQuick, "B1bbb3/8/8/8/8/8/4R3/rrrrrrrr r");
    // What the game's 8,000 nodes cost (a benchmark, printed).
    let started = std::time::Instant::now();
    accepts_draw(&g, Side::First, 8_000, None, 1);
    println!("8,000 nodes to answer a draw offer: {:.1} ms", started.elapsed().as_secs_f64() * 1000.0);
    assert!(!accepts_draw(&g, Side::First, 20_000, None, 1), "Red is five soldiers up");
    assert!(accepts_draw(&g, Side::Second, 20_000, None, 1), "Black is five soldiers down");
    // The same with Black to move: whose turn it is does not change who is ahead.
    let g = game(Variant::LatrunculiQuick, "B1bbb3/8/8/8/8/8/4R3/rrrrrrrr b");
    assert!(!accepts_draw(&g, Side::First, 20_000, None, 1));
    assert!(accepts_draw(&g, Side::Second, 20_000, None, 1));
    // Alquerque: White's five pieces against Black's two.
    let g = game(Variant::Alquerque, "5/5/B3B/5/WWWWW w");
    assert!(!accepts_draw(&g, Side::First, 20_000, None, 1));
    assert!(accepts_draw(&g, Side::Second, 20_000, None, 1));
}

#[test]
fn the_endgame_tables_decide_where_they_cover_the_position() {
    // One piece each, far apart: the tables call it a draw; both sides take it, although a
    // short search sees nothing either way.
    let tb = Arc::new(tablebase::generate(2, None, |_| {}).expect("tables"));
    let g = game(Variant::Alquerque, "B4/5/5/5/4W w");
    let AnyPosition::Alquerque(p) = g.position() else { unreachable!() };
    let probe = tb.probe(&p);
    assert_eq!(probe.map(|p| p.wdl), Some(ludus_ai::Wdl::Draw), "{probe:?}");
    assert!(accepts_draw(&g, Side::First, 5_000, Some(tb.clone()), 1));
    assert!(accepts_draw(&g, Side::Second, 5_000, Some(tb), 1));
}

#[test]
fn a_finished_game_takes_no_draw() {
    let mut g = game(Variant::Alquerque, "5/5/2B2/1W3/5 w");
    let mv = g.position().parse_move("b2xd4").expect("move");
    g.play(&mv).expect("legal");
    assert!(g.is_over());
    assert!(!accepts_draw(&g, Side::Second, 1_000, None, 1));
}
