//! Technique: the suite of won Latrunculi endings (`data/latrunculi-endgames.txt`, played in
//! full by `ludus-cli endgames latrunculi`), its fastest cases played out here at a fixed node
//! count (nothing depends on the machine's speed), and variety.

use ludus_ai::{AnySearch, Level, Limits};
use ludus_rules::{AnyGame, AnyPosition, Reason, Side, Variant};

const SUITE: &str = include_str!("../data/latrunculi-endgames.txt");

fn suite() -> Vec<AnyPosition> {
    SUITE
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let quick =
                l.split('/').next().unwrap().chars().map(|c| c.to_digit(10).unwrap_or(1)).sum::<u32>() == 8;
            let v = if quick { Variant::LatrunculiQuick } else { Variant::Latrunculi };
            AnyPosition::parse(v, l).unwrap_or_else(|e| panic!("{l}: {e}"))
        })
        .collect()
}

#[test]
fn the_suite_is_thirty_won_endings_on_both_boards() {
    let positions = suite();
    assert!(positions.len() >= 30);
    let mut sizes = [0; 2];
    for p in &positions {
        let AnyPosition::Latrunculi(l) = p else { panic!("{p}") };
        let m = l.material();
        assert!(m[0].abs_diff(m[1]) >= 4, "{p}: edge {m:?}");
        assert!(!AnyGame::from_position(*p).is_over(), "{p}");
        sizes[usize::from(l.width() == 12)] += 1;
    }
    assert!(sizes[0] >= 10 && sizes[1] >= 10, "{sizes:?}");
}

/// Plays Hard against Hard from `pos` at `nodes` a move; the outcome and the plies.
fn play_out(pos: &str, variant: Variant, nodes: u64) -> (Option<ludus_rules::Outcome>, usize) {
    let mut game = AnyGame::from_position(AnyPosition::parse(variant, pos).unwrap());
    let mut tables = [None, None];
    let mut seed = 1;
    while !game.is_over() && game.ply() < 100 {
        let slot = game.side_to_move().index();
        let mut s = match tables[slot].take() {
            Some(tt) => AnySearch::with_table(&game, Level::Hard, Limits::nodes(nodes), seed, tt),
            None => AnySearch::new(&game, Level::Hard, Limits::nodes(nodes), seed),
        };
        let mv = s.run_to_end().expect("a move");
        tables[slot] = s.into_table();
        game.play(&mv).unwrap();
        seed += 1;
    }
    (game.outcome(), game.ply())
}

#[test]
fn hard_wins_the_fastest_suite_endings_by_technique() {
    for (pos, variant, winner) in [
        ("r7/2R2r1B/b7/5r1r/8/2r2r2/8/6r1 r", Variant::LatrunculiQuick, Side::First),
        ("12/12/3r8/r11/6b5/12/5r4r1/1B1R2r5 r", Variant::Latrunculi, Side::First),
    ] {
        assert!(SUITE.contains(pos), "{pos} is in the suite");
        let (outcome, plies) = play_out(pos, variant, 20_000);
        let o = outcome.unwrap_or_else(|| panic!("{pos}: not over after {plies} plies"));
        assert_eq!(o.winner, Some(winner), "{pos}: {o}");
        assert!(matches!(o.reason, Reason::KingImmobilised | Reason::OnlyKingLeft), "{pos}: {o}");
    }
}

/// Hard's scores at depth 4 for 8 seeds in `game`: each within `margin` of its best without
/// variety, the same for the same seed; the number of different moves.
fn moves_within(game: &AnyGame, margin: i32) -> usize {
    let fixed = |seed| {
        let mut s =
            AnySearch::with_params(game, Level::Hard, Limits::depth(4), Level::Hard.params_fixed(), seed);
        s.run_to_end();
        s.info().score
    };
    let best = match fixed(0) {
        ludus_ai::Score::Eval(cp) => cp,
        other => panic!("{other:?}"),
    };
    let mut moves = std::collections::HashSet::new();
    for seed in 0..8 {
        let mut s = AnySearch::new(game, Level::Hard, Limits::depth(4), seed);
        let mv = s.run_to_end().unwrap();
        let ludus_ai::Score::Eval(cp) = s.info().score else { panic!("{:?}", s.info().score) };
        assert!(best - cp <= margin, "seed {seed}: {cp} against the best {best} (margin {margin})");
        // The same seed gives the same move.
        assert_eq!(AnySearch::new(game, Level::Hard, Limits::depth(4), seed).run_to_end(), Some(mv));
        moves.insert(mv);
    }
    moves.len()
}

#[test]
fn hard_varies_its_moves_with_the_seed_within_its_margin() {
    use ludus_ai::level::{HARD_OPENING_PLIES, HARD_OPENING_VARIETY, HARD_VARIETY};
    // Latrunculi from the start: the usual margin already parts the games.
    let n = moves_within(&AnyGame::new(Variant::LatrunculiQuick), HARD_VARIETY);
    assert!(n >= 2, "{n} different first moves over 8 seeds in Latrunculi");
    // Alquerque from the start: the opening's wider margin, at White's tenth move of a line
    // Hard played against itself (the first plies are nearly forced).
    let mut game = AnyGame::new(Variant::Alquerque);
    let line = "c2-c3 c4xc2 c1xc3 a3xc1 c3xa3 b4-b3 a3xc3 d4xb2 b1xb3 c1-b1 a1xc1 c5-d4 e3xc5 e4-e3 e2xe4 \
                e5xe3xc3xa3xa1 c5xe5 b5-c5";
    for mv in line.split_whitespace() {
        game.play_str(mv).unwrap();
    }
    let n = moves_within(&game, HARD_OPENING_VARIETY);
    assert!(n >= 2, "{n} different first moves over 8 seeds in Alquerque");
    // Past the opening, or in a position set up: the usual margin.
    while game.ply() < HARD_OPENING_PLIES as usize {
        let mv = ludus_ai::best_move(&game, Level::Random, Limits::default(), game.ply() as u64).unwrap();
        game.play(&mv).unwrap();
    }
    assert!(!game.is_over());
    moves_within(&game, HARD_VARIETY);
    moves_within(&AnyGame::from_position(game.position_at(2)), HARD_VARIETY);
}

/// The pieces on the board of a suite position.
fn pieces(pos: &AnyPosition) -> u32 {
    let AnyPosition::Latrunculi(l) = pos else { panic!("{pos}") };
    l.occupied().count_ones()
}

/// The smallest endings of the suite (the fewest pieces: five soldiers and a king against a
/// soldier and a king, nine on each board), each played out for up to 100 plies at 20,000 nodes
/// a move: the side ahead loses none of them (by repetition or otherwise), and wins these
/// fifteen by technique within 100 plies (twelve before the king-to-edge term; the other three
/// are still going after 100 plies at this budget, captures having reset the counter;
/// `ludus-cli endgames` plays the whole suite). With the tuned middlegame weights
/// the count is the same, two endings in and two out.
#[test]
fn hard_converts_the_smallest_suite_endings_and_loses_none() {
    const CONVERTED: [&str; 15] = [
        "1r4b1/8/8/8/8/3R4/2r1r1B1/4rr2 b",
        "8/2b4r/2b5/7R/8/3b2B1/2b5/6b1 b",
        "2b2r2/1b6/4b3/2b3B1/4b3/8/8/2R5 r",
        "r1b5/2r1r3/8/5R2/8/7r/6r1/5B2 b",
        "3r4/5b2/2b5/6B1/b7/b5R1/1b6/8 r",
        "b1B1R3/b6b/2b5/8/3r4/8/7b/8 b",
        "8/b7/b7/8/6b1/4B2b/8/rb5R r",
        "6bb/B7/2b3b1/8/7R/8/rb6/8 r",
        "9b1r/6b5/b11/9b1R/12/8B3/b11/12 b",
        "12/12/3r8/r11/6b5/12/5r4r1/1B1R2r5 r",
        "8b3/12/12/3B1r6/8R3/1b4b5/12/b7b3 b",
        "12/b3R7/2b3b5/3b8/6B5/12/7b4/3r8 b",
        "12/7rr3/12/8b3/1B1r8/2r9/11r/5R6 r",
        "11b/12/11r/12/12/5R2r2B/2r9/7r1r2 r",
        "2b9/3r8/4r5r1/5r6/12/6R5/8B3/5r6 b",
    ];
    let positions = suite();
    let least = positions.iter().map(pieces).min().unwrap();
    let smallest: Vec<&AnyPosition> = positions.iter().filter(|p| pieces(p) == least).collect();
    assert_eq!(smallest.len(), 18, "nine smallest endings on each board");
    for c in CONVERTED {
        assert!(smallest.iter().any(|p| p.to_string() == c), "{c} is one of the smallest");
    }
    for p in smallest {
        let AnyPosition::Latrunculi(l) = p else { panic!("{p}") };
        let variant = if l.width() == 8 { Variant::LatrunculiQuick } else { Variant::Latrunculi };
        let m = l.material();
        let leader = if m[0] > m[1] { Side::First } else { Side::Second };
        let text = p.to_string();
        let (outcome, plies) = play_out(&text, variant, 20_000);
        println!("{text}: {} after {plies} plies", outcome.map_or("not over".to_string(), |o| o.to_string()));
        if let Some(o) = outcome {
            assert_ne!(o.winner, Some(!leader), "{text}: the side ahead lost ({o}) after {plies} plies");
        }
        if CONVERTED.contains(&text.as_str()) {
            let o = outcome.unwrap_or_else(|| panic!("{text}: not over after {plies} plies"));
            assert_eq!(o.winner, Some(leader), "{text}: {o}");
            assert!(matches!(o.reason, Reason::KingImmobilised | Reason::OnlyKingLeft), "{text}: {o}");
        }
    }
}
