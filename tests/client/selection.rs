use crate::sq;
use ludus::game::selection::{Selection, Tap, destinations, tap};
use ludus_rules::{AnyPosition, Variant};

#[test]
fn selecting_offers_exactly_the_legal_destinations() {
    for variant in Variant::ALL {
        let pos = variant.start();
        let legal = pos.legal_moves();
        for (square, piece) in pos.pieces() {
            let movable = legal.iter().any(|m| m.from() == square);
            let result = tap(&legal, None, square);
            if piece.side != pos.side_to_move() || !movable {
                assert_eq!(result, Tap::Cancel, "{variant}: {square:?} should not be selectable");
                continue;
            }
            let Tap::Select(sel) = result else { panic!("{variant}: {square:?} should be selected") };
            let mut expected: Vec<_> =
                legal.iter().filter(|m| m.from() == square).map(|m| m.path()[0]).collect();
            expected.sort();
            expected.dedup();
            assert_eq!(destinations(&legal, &sel), expected, "{variant}: destinations of {square:?}");
        }
    }
}

#[test]
fn compulsory_capture_limits_selection_to_capturing_pieces() {
    // White c2 can jump d3? No: set up b2 able to capture c3 -> d4, while other pieces could step.
    let pos = AnyPosition::parse(Variant::Alquerque, "5/5/2B2/1W3/W4 w").unwrap();
    let legal = pos.legal_moves();
    assert!(legal.iter().all(|m| m.is_capture()));
    assert_eq!(tap(&legal, None, sq("a1", 5, 5)), Tap::Cancel, "a1 cannot capture, so it cannot move");
    assert!(matches!(tap(&legal, None, sq("b2", 5, 5)), Tap::Select(_)));
}

#[test]
fn tapped_multi_jump_chain_plays_the_right_move() {
    // White a1 jumps b2 to c3, then either c4 (to c5) or d3 (to e3).
    let pos = AnyPosition::parse(Variant::Alquerque, "5/2B2/3B1/1B3/W4 w").unwrap();
    let legal = pos.legal_moves();
    let names: Vec<String> = legal.iter().map(|m| pos.move_to_string(m).unwrap()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let s = |n| sq(n, 5, 5);
    // Tap each landing point in turn.
    let Tap::Select(sel) = tap(&legal, None, s("a1")) else { panic!() };
    assert_eq!(destinations(&legal, &sel), vec![s("c3")]);
    let Tap::Select(sel) = tap(&legal, Some(&sel), s("c3")) else { panic!("c3 continues two paths") };
    assert_eq!(sel.partial, vec![s("c3")]);
    let mut next = destinations(&legal, &sel);
    next.sort();
    assert_eq!(next, vec![s("e3"), s("c5")]);
    let Tap::Play(mv) = tap(&legal, Some(&sel), s("e3")) else { panic!("e3 ends a path") };
    assert_eq!(pos.move_to_string(&mv).unwrap(), "a1xc3xe3");
    // Or tap the final point directly, when only one path leads there.
    let start = Selection { from: s("a1"), partial: vec![] };
    let Tap::Play(mv) = tap(&legal, Some(&start), s("c5")) else { panic!("c5 ends exactly one path") };
    assert_eq!(pos.move_to_string(&mv).unwrap(), "a1xc3xc5");
    // A tap elsewhere cancels.
    assert_eq!(tap(&legal, Some(&sel), s("a5")), Tap::Cancel);
}
