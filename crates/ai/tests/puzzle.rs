//! Puzzles: the generator is deterministic, the verifier refuses what is wrong and accepts what
//! is right, and every shipped puzzle passes the quick verification.

use ludus_ai::puzzle::{self, Kind, Puzzle, Theme, generate, verify};
use ludus_ai::tablebase;
use ludus_rules::Variant;
use std::sync::Arc;

/// Black's king in the corner, its own soldier beside it: a1-a7 and h7-a7 both take its last
/// free side.
const TWO_WINS: &str = "Bb6/7r/8/8/8/8/8/r3R2b r";

fn win_in_one(line: &[&str], alts: &[&str]) -> Puzzle {
    Puzzle {
        id: "t-1".into(),
        game: Variant::LatrunculiQuick,
        fen: TWO_WINS.into(),
        side: "r".into(),
        line: line.iter().map(|s| s.to_string()).collect(),
        alts: if alts.is_empty() { Vec::new() } else { vec![alts.iter().map(|s| s.to_string()).collect()] },
        kind: Kind::WinKing,
        gain: 0,
        themes: vec![Theme::KingHunt, Theme::Endgame],
        rating: 800,
    }
}

fn both_configs(variant: Variant) -> [verify::Config; 2] {
    [verify::Config::fast(variant), verify::Config::deep(variant)]
}

#[test]
fn generator_is_deterministic() {
    let mut cfg = generate::Config::new(Variant::Alquerque, 3, 11);
    cfg.depth = 4;
    cfg.screen_depth = 3;
    cfg.nodes = 5_000;
    cfg.max_games = 20;
    cfg.rate = false;
    let run = || generate::generate(&cfg, &[], |_| true, |_, _| {}).0;
    let first = run();
    assert!(!first.is_empty(), "no puzzle in 20 games");
    assert_eq!(first, run());
    assert_eq!(puzzle::to_json(&first), puzzle::to_json(&run()));
}

#[test]
fn verifier_accepts_a_listed_alternative() {
    let p = win_in_one(&["a1-a7"], &["h7-a7"]);
    for cfg in both_configs(p.game) {
        assert_eq!(verify::verify(&p, &cfg), Vec::<String>::new());
    }
    assert!(p.accepts(0, "h7-a7") && p.accepts(0, "a1-a7") && !p.accepts(0, "e1-e2"));
}

#[test]
fn verifier_refuses_a_second_winning_first_move() {
    let p = win_in_one(&["a1-a7"], &[]);
    for cfg in both_configs(p.game) {
        let fails = verify::verify(&p, &cfg);
        assert!(fails.iter().any(|f| f.contains("h7-a7 also wins")), "{fails:?}");
    }
    // An alternative that does not win is refused too.
    let p = win_in_one(&["a1-a7"], &["h7-a7", "e1-e2"]);
    let fails = verify::verify(&p, &verify::Config::fast(p.game));
    assert!(fails.iter().any(|f| f.contains("e1-e2 does not win")), "{fails:?}");
}

#[test]
fn verifier_refuses_an_illegal_step() {
    let p = win_in_one(&["e1-e2", "b8-c8", "a1-b2"], &[]);
    let fails = verify::verify(&p, &verify::Config::fast(p.game));
    assert_eq!(fails.len(), 1, "{fails:?}");
    assert!(fails[0].contains("move 3 'a1-b2' is illegal"), "{fails:?}");
    // A line that goes on after the game has ended.
    let p = win_in_one(&["a1-a7", "b8-c8", "h7-h6"], &[]);
    let fails = verify::verify(&p, &verify::Config::fast(p.game));
    assert!(fails[0].contains("after the end of the game"), "{fails:?}");
}

#[test]
fn bad_files_and_positions_are_errors_not_panics() {
    assert!(puzzle::from_json("[{").is_err());
    assert!(puzzle::from_json("[{\"id\": 3}]").is_err());
    let mut p = win_in_one(&["a1-a7"], &["h7-a7"]);
    p.fen = "Bb6/7r/8/8/8/8/8/r3R2x r".into();
    let fails = verify::verify(&p, &verify::Config::fast(p.game));
    assert!(fails[0].contains("bad position"), "{fails:?}");
    let mut p = win_in_one(&["a1-a7"], &["h7-a7"]);
    p.game = Variant::Latrunculi;
    let fails = verify::verify(&p, &verify::Config::fast(p.game));
    assert!(fails[0].contains("8x8 board is not latrunculi's"), "{fails:?}");
    let mut p = win_in_one(&["a1-a7"], &["h7-a7"]);
    p.themes = vec![Theme::Chain];
    assert!(verify::verify(&p, &verify::Config::fast(p.game))[0].contains("themes"));
}

fn shipped(name: &str) -> Vec<Puzzle> {
    let path = format!("{}/../../assets/puzzles/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    puzzle::from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every shipped puzzle passes the quick verification: structure, legality, the result, the
/// themes, and the first move's uniqueness at a shallow depth (the deep check is
/// `ludus-cli puzzles verify FILE`, on docs/RESULTS.md).
/// Puzzles `half`, `half + halves`, ... only (the 12x8 set is checked in two tests that run
/// side by side, about five seconds each).
fn check_shipped(variant: Variant, half: usize, halves: usize) {
    let puzzles: Vec<Puzzle> = shipped(variant.name());
    assert!(puzzles.len() >= 300, "{}: {} puzzles", variant.name(), puzzles.len());
    let puzzles: Vec<Puzzle> = puzzles.into_iter().skip(half).step_by(halves).collect();
    let tb = (variant == Variant::Alquerque)
        .then(|| Arc::new(tablebase::generate(5, None, |_| {}).expect("tables")));
    let cfg = verify::Config::fast(variant).with_tablebase(tb);
    let fails = verify::verify_all(&puzzles, &cfg, |_, p, _| assert_eq!(p.game, variant));
    assert!(fails.is_empty(), "{} failures, first: {:?}", fails.len(), &fails[..fails.len().min(5)]);
}

#[test]
fn shipped_latrunculi_puzzles_pass_first_half() {
    check_shipped(Variant::Latrunculi, 0, 2);
}

#[test]
fn shipped_latrunculi_puzzles_pass_second_half() {
    check_shipped(Variant::Latrunculi, 1, 2);
}

#[test]
fn shipped_quick_latrunculi_puzzles_pass() {
    check_shipped(Variant::LatrunculiQuick, 0, 1);
}

#[test]
fn shipped_alquerque_puzzles_pass() {
    check_shipped(Variant::Alquerque, 0, 1);
}

#[test]
fn shipped_set_is_small() {
    let total: u64 = Variant::ALL
        .iter()
        .map(|v| {
            let path = format!("{}/../../assets/puzzles/{}.json", env!("CARGO_MANIFEST_DIR"), v.name());
            std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0)
        })
        .sum();
    assert!(total < 300 * 1024, "{total} bytes");
}
