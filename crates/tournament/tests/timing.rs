//! How long pairing takes for 64 players: every round of a 64-player 9-round Swiss, the worst
//! round of 30-round Swiss events of 21 and 65 players (where repeats and colour breaks become
//! unavoidable, the search's hardest case), and 64 free players of an arena. The figures are
//! printed (`--nocapture`); the test fails only far beyond the budget (two seconds for one
//! pairing).

use ludus_tournament::{Arena, ArenaConfig, Entrant, FreePlayer, GameResult, PlayerId, Swiss, pair_free};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

const BUDGET: Duration = Duration::from_secs(2);

#[test]
fn pairing_64_players_takes_well_under_the_budget() {
    let mut rng = StdRng::seed_from_u64(64);
    let mut swiss = Swiss::new(9).unwrap();
    for i in 0..64 {
        swiss.join(Entrant { id: PlayerId(i + 1), rating: rng.random_range(1000..2200) }).unwrap();
    }
    let mut times = Vec::new();
    for round in 1..=9 {
        let start = Instant::now();
        let boards = swiss.pair_round(round).unwrap().boards.clone();
        times.push(start.elapsed());
        for b in boards {
            let result =
                [GameResult::FirstWins, GameResult::SecondWins, GameResult::Draw][rng.random_range(0..3)];
            swiss.record(round, b.pairing.first, b.pairing.second, result).unwrap();
        }
    }
    let worst = times.iter().max().copied().unwrap_or_default();
    let ms: Vec<String> = times.iter().map(|t| format!("{:.2}", t.as_secs_f64() * 1e3)).collect();
    println!(
        "swiss, 64 players, rounds 1-9: {} ms (worst {:.2} ms)",
        ms.join(", "),
        worst.as_secs_f64() * 1e3
    );
    assert!(worst < BUDGET, "a Swiss round took {worst:?}");

    // The hardest cases for the search: every round of 30, where repeats and colour breaks
    // become unavoidable and every bye candidate is tried under each set of constraints.
    for players in [21, 65] {
        let worst = worst_swiss_round(&mut rng, players, 30);
        println!("swiss, {players} players, 30 rounds: worst round {:.2} ms", worst.as_secs_f64() * 1e3);
        assert!(worst < BUDGET, "a Swiss round of {players} took {worst:?}");
    }

    // Arena: 64 free players at once (the start), then 64 with scores spread over a long arena.
    let mut arena = Arena::new(ArenaConfig { starts_at: 0, ends_at: 3_600_000, berserk: false }).unwrap();
    for i in 0..64 {
        arena.join(Entrant { id: PlayerId(i + 1), rating: rng.random_range(1000..2200) }, 0).unwrap();
    }
    let start = Instant::now();
    let games = arena.pair(0);
    let at_start = start.elapsed();
    assert_eq!(games.len(), 32);
    let pool: Vec<FreePlayer> = (0..64)
        .map(|i| FreePlayer {
            id: PlayerId(i + 1),
            points: rng.random_range(0..60),
            rating: rng.random_range(1000..2200),
            free_since: 1_000_000 - rng.random_range(0..30_000),
            last_opponent: Some(PlayerId(((i + 1) ^ 1) + 1)),
        })
        .collect();
    let start = Instant::now();
    let pairs = pair_free(&pool, 1_000_000);
    let spread = start.elapsed();
    println!(
        "arena, 64 free players: {:.2} ms at the start (32 games), {:.2} ms with scores 0-59 ({} games)",
        at_start.as_secs_f64() * 1e3,
        spread.as_secs_f64() * 1e3,
        pairs.len()
    );
    assert!(at_start < BUDGET && spread < BUDGET, "an arena pairing took {at_start:?} / {spread:?}");
}

/// The longest pairing of a Swiss of `players` and `rounds` with random results.
fn worst_swiss_round(rng: &mut StdRng, players: u64, rounds: u32) -> Duration {
    let mut swiss = Swiss::new(rounds).unwrap();
    for i in 0..players {
        swiss.join(Entrant { id: PlayerId(i + 1), rating: rng.random_range(1000..2200) }).unwrap();
    }
    let mut worst = Duration::ZERO;
    for round in 1..=rounds {
        let start = Instant::now();
        let boards = swiss.pair_round(round).unwrap().boards.clone();
        worst = worst.max(start.elapsed());
        for b in boards {
            let result =
                [GameResult::FirstWins, GameResult::SecondWins, GameResult::Draw][rng.random_range(0..3)];
            swiss.record(round, b.pairing.first, b.pairing.second, result).unwrap();
        }
    }
    worst
}
