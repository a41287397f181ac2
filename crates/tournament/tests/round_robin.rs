//! Round robins of every allowed size: everyone meets everyone once, colours end within one
//! of balanced, byes, results and withdrawals from a seeded generator, and the table rebuilt
//! from the results alone.

use ludus_tournament::{
    Colour, Entrant, GameResult, MAX_ROUND_ROBIN_PLAYERS, PlayerId, RoundRobin, TournamentError,
    round_robin_standings,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet};

fn entrants(n: usize) -> Vec<Entrant> {
    (0..n).map(|i| Entrant { id: PlayerId(100 + i as u64), rating: 2000 - 10 * i as u32 }).collect()
}

#[test]
fn everyone_meets_everyone_once_with_balanced_colours() {
    for n in 2..=MAX_ROUND_ROBIN_PLAYERS {
        let rr = RoundRobin::new(entrants(n)).unwrap();
        let expected_rounds = if n % 2 == 0 { n - 1 } else { n };
        assert_eq!(rr.rounds().len(), expected_rounds, "{n} players");
        let mut met = HashSet::new();
        let mut colours: HashMap<PlayerId, Vec<Colour>> = HashMap::new();
        let mut byes: HashMap<PlayerId, usize> = HashMap::new();
        for round in rr.rounds() {
            let mut seen = HashSet::new();
            for b in &round.boards {
                let (a, c) = (b.pairing.first, b.pairing.second);
                assert!(
                    seen.insert(a) && seen.insert(c),
                    "{n} players: someone twice in round {}",
                    round.number
                );
                assert!(met.insert((a.min(c), a.max(c))), "{n} players: {a} and {c} meet twice");
                colours.entry(a).or_default().push(Colour::First);
                colours.entry(c).or_default().push(Colour::Second);
            }
            if let Some(id) = round.bye {
                assert!(seen.insert(id));
                *byes.entry(id).or_default() += 1;
            }
            assert_eq!(seen.len(), n, "{n} players: someone missing in round {}", round.number);
        }
        assert_eq!(met.len(), n * (n - 1) / 2, "{n} players: not every pair met");
        for e in entrants(n) {
            let cs = &colours[&e.id];
            let d: i32 = cs.iter().map(|c| if *c == Colour::First { 1 } else { -1 }).sum();
            assert!(d.abs() <= 1, "{n} players: {} ends {d} from balanced", e.id);
            assert!(
                !cs.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                "{n} players: {} has three in a row",
                e.id
            );
            assert_eq!(byes.get(&e.id).copied().unwrap_or(0), n % 2, "{n} players: byes of {}", e.id);
        }
    }
}

#[test]
fn random_results_and_withdrawals_give_the_table_of_the_results() {
    let mut rng = StdRng::seed_from_u64(0xBE_46E6);
    for _ in 0..200 {
        let n = rng.random_range(2..=MAX_ROUND_ROBIN_PLAYERS);
        let mut rr = RoundRobin::new(entrants(n)).unwrap();
        for number in 1..=rr.rounds().len() as u32 {
            if rng.random_bool(0.1) {
                let id = entrants(n)[rng.random_range(0..n)].id;
                if !rr.is_withdrawn(id) {
                    let forfeits = rr.withdraw(id).unwrap();
                    assert!(forfeits.iter().all(|f| f.pairing.has(id) && f.round >= number));
                    assert_eq!(rr.withdraw(id), Err(TournamentError::Withdrawn(id)));
                }
            }
            for b in rr.round(number).unwrap().boards.clone() {
                let result =
                    [GameResult::FirstWins, GameResult::SecondWins, GameResult::Draw][rng.random_range(0..3)];
                let outcome = rr.record(number, b.pairing.first, b.pairing.second, result);
                if rr.is_withdrawn(b.pairing.first) || rr.is_withdrawn(b.pairing.second) {
                    let who =
                        if rr.is_withdrawn(b.pairing.first) { b.pairing.first } else { b.pairing.second };
                    assert_eq!(outcome, Err(TournamentError::Withdrawn(who)));
                } else if b.result.is_some() {
                    assert_eq!(outcome, Err(TournamentError::AlreadyRecorded));
                } else {
                    outcome.unwrap();
                    assert_eq!(
                        rr.record(number, b.pairing.first, b.pairing.second, result),
                        Err(TournamentError::AlreadyRecorded)
                    );
                }
            }
            let back: RoundRobin = serde_json::from_str(&serde_json::to_string(&rr).unwrap()).unwrap();
            assert_eq!(back, rr);
            assert_eq!(rr.standings(), round_robin_standings(rr.players(), &rr.results()));
        }
        assert!(rr.is_finished());
        let table = rr.standings();
        // Everyone played n - 1 games; the points of all games add up.
        assert!(table.iter().all(|s| s.games as usize == n - 1));
        let total: u32 = table.iter().map(|s| s.score.0).sum();
        assert_eq!(total as usize, 4 * n * (n - 1) / 2);
        for w in table.windows(2) {
            assert!(
                (w[0].score, w[0].sonneborn_berger, w[0].wins)
                    >= (w[1].score, w[1].sonneborn_berger, w[1].wins)
            );
        }
    }
}

#[test]
fn bad_round_robin_input_is_refused() {
    assert_eq!(RoundRobin::new(entrants(1)).err(), Some(TournamentError::TooFewPlayers { have: 1, need: 2 }));
    assert_eq!(
        RoundRobin::new(entrants(11)).err(),
        Some(TournamentError::TooManyPlayers { have: 11, max: 10 })
    );
    let mut twice = entrants(4);
    twice.push(twice[2]);
    assert_eq!(RoundRobin::new(twice).err(), Some(TournamentError::AlreadyJoined(PlayerId(102))));
    let mut rr = RoundRobin::new(entrants(3)).unwrap();
    let before = rr.clone();
    assert_eq!(
        rr.record(9, PlayerId(100), PlayerId(101), GameResult::Draw),
        Err(TournamentError::NoSuchPairing { round: 9, first: PlayerId(100), second: PlayerId(101) })
    );
    assert_eq!(rr.withdraw(PlayerId(7)), Err(TournamentError::UnknownPlayer(PlayerId(7))));
    assert_eq!(rr, before);
}
