//! The perft tables of `tests/data/*.perft`: every count is checked against the library and
//! against the naive reference, so a wrong hand count and a wrong library both show up.

mod common;

use common::naive::{self, Board, Kind};
use common::read_perft;
use ludus_rules::{AnyPosition, Variant, latrunculi};

fn check_table(file: &str, variant: Variant, kind: Kind) {
    let entries = read_perft(file);
    let mut failures = Vec::new();
    for e in &entries {
        let pos = AnyPosition::parse(variant, &e.position)
            .unwrap_or_else(|err| panic!("{file}:{} {}: cannot parse: {err}", e.line, e.name));
        // The table's positions are written canonically: the library writes them back as is.
        assert_eq!(pos.to_string(), e.position, "{file}:{} {}", e.line, e.name);
        let board = Board::parse(kind, &e.position);
        for (i, &expected) in e.counts.iter().enumerate() {
            let depth = i as u32 + 1;
            let lib = pos.perft(depth);
            if lib != expected {
                failures.push(format!(
                    "{file}:{} '{}' perft({depth}): library {lib}, table {expected}",
                    e.line, e.name
                ));
            }
            let reference = naive::perft(&board, depth);
            if reference != expected {
                failures.push(format!(
                    "{file}:{} '{}' perft({depth}): reference {reference}, table {expected}",
                    e.line, e.name
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn latrunculi_table() {
    let entries = read_perft("latrunculi.perft");
    assert!(entries.len() >= 12, "the table has too few positions");
    check_table("latrunculi.perft", Variant::Latrunculi, Kind::Latrunculi);
}

#[test]
fn alquerque_table() {
    let entries = read_perft("alquerque.perft");
    assert!(entries.len() >= 11, "the table has too few positions");
    check_table("alquerque.perft", Variant::Alquerque, Kind::Alquerque);
}

/// The anchors of `crates/rules/RULES.md`, independent of the data files.
#[test]
fn rules_anchors() {
    assert_eq!(Variant::Latrunculi.start().perft(1), 81);
    assert_eq!(Variant::LatrunculiQuick.start().perft(1), 53);
    let alq = Variant::Alquerque.start();
    assert_eq!((1..=4).map(|d| alq.perft(d)).collect::<Vec<_>>(), [4, 5, 6, 12]);
    assert_eq!(Variant::Latrunculi.start().to_string(), "bbbbbbbbbbbb/5B6/12/12/12/12/6R5/rrrrrrrrrrrr r");
    assert_eq!(Variant::LatrunculiQuick.start().to_string(), "bbbbbbbb/3B4/8/8/8/8/4R3/rrrrrrrr r");
    assert_eq!(Variant::Alquerque.start().to_string(), "BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w");
    for v in Variant::ALL {
        assert_eq!(v.start().perft(0), 1);
    }
}

/// `Position::start` on other sizes lays the board out as the reference does, and the
/// library's perft agrees with the reference there.
#[test]
fn starts_of_other_sizes() {
    for (w, h, depth) in [(12, 8, 2), (8, 8, 2), (5, 7, 3), (16, 8, 2), (3, 4, 3), (7, 5, 3)] {
        let lib = latrunculi::Position::start(w, h).unwrap();
        let reference = common::latrunculi_start(usize::from(w), usize::from(h));
        assert_eq!(lib.to_string(), reference.notation(), "{w}x{h}");
        assert_eq!(
            ludus_rules::perft(&lib, depth),
            naive::perft(&reference, depth),
            "{w}x{h} perft({depth})"
        );
    }
    assert!(latrunculi::Position::start(5, 3).is_err());
    assert!(latrunculi::Position::start(17, 8).is_err());
}

/// `perft_divide` splits `perft` move by move.
#[test]
fn divide_sums_to_perft() {
    for (variant, file) in
        [(Variant::Latrunculi, "latrunculi.perft"), (Variant::Alquerque, "alquerque.perft")]
    {
        for e in read_perft(file) {
            let pos = AnyPosition::parse(variant, &e.position).unwrap();
            let depth = e.counts.len().min(2) as u32;
            let divide = pos.perft_divide(depth);
            let sum: u64 = divide.iter().map(|(_, n)| n).sum();
            assert_eq!(sum, pos.perft(depth), "{file}:{} {}", e.line, e.name);
            if pos.perft(1) > 0 {
                assert_eq!(divide.len() as u64, pos.perft(1), "{file}:{}", e.line);
            }
        }
    }
}
