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

#[test]
fn hard_varies_its_moves_with_the_seed_within_its_margin() {
    let game = AnyGame::new(Variant::LatrunculiQuick);
    let fixed = |seed| {
        let mut s =
            AnySearch::with_params(&game, Level::Hard, Limits::depth(4), Level::Hard.params_fixed(), seed);
        s.run_to_end();
        s.info().score
    };
    let best = match fixed(0) {
        ludus_ai::Score::Eval(cp) => cp,
        other => panic!("{other:?}"),
    };
    let mut moves = std::collections::HashSet::new();
    for seed in 0..8 {
        let mut s = AnySearch::new(&game, Level::Hard, Limits::depth(4), seed);
        let mv = s.run_to_end().unwrap();
        let ludus_ai::Score::Eval(cp) = s.info().score else { panic!("{:?}", s.info().score) };
        assert!(best - cp <= ludus_ai::level::HARD_VARIETY, "seed {seed}: {cp} against the best {best}");
        // The same seed gives the same move.
        assert_eq!(AnySearch::new(&game, Level::Hard, Limits::depth(4), seed).run_to_end(), Some(mv));
        moves.insert(mv);
    }
    assert!(moves.len() >= 2, "{} different first moves over 8 seeds", moves.len());
}

/// The pieces on the board of a suite position.
fn pieces(pos: &AnyPosition) -> u32 {
    let AnyPosition::Latrunculi(l) = pos else { panic!("{pos}") };
    l.occupied().count_ones()
}

#[test]
#[ignore = "a survey for choosing the cases below: cargo test --release -p ludus-ai --test technique -- --ignored --nocapture"]
fn survey_of_the_smallest_suite_endings() {
    let nodes: u64 = std::env::var("SURVEY_NODES").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000);
    let positions = suite();
    let least = positions.iter().map(pieces).min().unwrap();
    for p in positions.iter().filter(|p| pieces(p) == least) {
        let variant = if let AnyPosition::Latrunculi(l) = p
            && l.width() == 8
        {
            Variant::LatrunculiQuick
        } else {
            Variant::Latrunculi
        };
        let (outcome, plies) = play_out(&p.to_string(), variant, nodes);
        println!("{p}: {} after {plies} plies", outcome.map_or("not over".to_string(), |o| o.to_string()));
    }
}
