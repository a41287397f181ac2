//! Swiss tournaments played out with random results, late entries and withdrawals from a seeded
//! generator (the same every run), checked round by round against rules restated here, apart
//! from the crate: on small rounds, by trying every possible pairing.

use ludus_tournament::{
    Colour, Entrant, GameResult, PlayerId, Points, RoundResult, Swiss, SwissPlayer, TournamentError,
    swiss_standings,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

/// Rounds with at most this many players are checked against every possible pairing.
const BRUTE_FORCE_MAX: usize = 12;

/// Whether taking `colour` after `history` keeps the colour limits: first and second moves
/// within two of each other, and no third same colour in a row.
fn fits(history: &[Colour], colour: Colour) -> bool {
    difference_after(history, colour).abs() <= 2 && !third_in_a_row(history, colour)
}

/// Whether taking `colour` after `history` keeps first and second moves within one (a
/// preference, ranked below the score groups).
fn balanced(history: &[Colour], colour: Colour) -> bool {
    difference_after(history, colour).abs() <= 1 && !third_in_a_row(history, colour)
}

fn difference_after(history: &[Colour], colour: Colour) -> i32 {
    let firsts =
        history.iter().filter(|c| **c == Colour::First).count() as i32 + i32::from(colour == Colour::First);
    let seconds = (history.len() as i32 + 1) - firsts;
    firsts - seconds
}

fn third_in_a_row(history: &[Colour], colour: Colour) -> bool {
    let n = history.len();
    n >= 2 && history[n - 1] == colour && history[n - 2] == colour
}

fn colour_pair_fits(a: &SwissPlayer, b: &SwissPlayer) -> bool {
    (fits(&a.colours, Colour::First) && fits(&b.colours, Colour::Second))
        || (fits(&a.colours, Colour::Second) && fits(&b.colours, Colour::First))
}

fn met(a: &SwissPlayer, b: &SwissPlayer) -> bool {
    a.opponents.contains(&b.entrant.id)
}

/// Whether `players` can all be paired along `edge`, by trying every way.
fn perfect_exists(players: &[&SwissPlayer], edge: &dyn Fn(&SwissPlayer, &SwissPlayer) -> bool) -> bool {
    fn go(
        left: &mut Vec<usize>,
        players: &[&SwissPlayer],
        edge: &dyn Fn(&SwissPlayer, &SwissPlayer) -> bool,
    ) -> bool {
        let Some(p) = left.pop() else { return true };
        for i in 0..left.len() {
            let q = left[i];
            if edge(players[p], players[q]) {
                left.remove(i);
                let ok = go(left, players, edge);
                left.insert(i, q);
                if ok {
                    left.push(p);
                    return true;
                }
            }
        }
        left.push(p);
        false
    }
    let mut left: Vec<usize> = (0..players.len()).collect();
    go(&mut left, players, edge)
}

/// The active players in rank order (score, rating, id), as this test ranks them.
fn ranked(players: &[SwissPlayer]) -> Vec<&SwissPlayer> {
    let mut r: Vec<&SwissPlayer> = players.iter().filter(|p| !p.withdrawn).collect();
    r.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(b.entrant.rating.cmp(&a.entrant.rating))
            .then(a.entrant.id.cmp(&b.entrant.id))
    });
    r
}

/// Who may take the bye: the fewest byes so far, lowest-ranked first.
fn bye_order<'a>(ranked: &[&'a SwissPlayer]) -> Vec<&'a SwissPlayer> {
    let fewest = ranked.iter().map(|p| p.byes).min().unwrap_or(0);
    ranked.iter().rev().filter(|p| p.byes == fewest).copied().collect()
}

#[derive(Default, Debug)]
struct Counts {
    tournaments: usize,
    rounds: usize,
    brute_forced: usize,
    repeats: usize,
    colour_breaks: usize,
    unbalanced: usize,
    late_entries: usize,
    withdrawals: usize,
    second_byes: usize,
}

/// Checks one paired round against the players as they were before it.
fn check_round(before: &[SwissPlayer], swiss: &Swiss, number: u32, counts: &mut Counts) {
    let round = swiss.round(number).expect("the round is paired");
    let active: Vec<&SwissPlayer> = ranked(before);
    let by_id = |id: PlayerId| before.iter().find(|p| p.entrant.id == id).expect("a known player");
    // Everyone active is in exactly once; nobody withdrawn is.
    let mut seen = HashSet::new();
    for b in &round.boards {
        for id in [b.pairing.first, b.pairing.second] {
            assert!(!by_id(id).withdrawn, "round {number}: withdrawn {id} paired");
            assert!(seen.insert(id), "round {number}: {id} twice");
        }
    }
    if let Some(id) = round.bye {
        assert!(!by_id(id).withdrawn, "round {number}: withdrawn {id} given the bye");
        assert!(seen.insert(id), "round {number}: {id} paired and given the bye");
        let p = by_id(id);
        if p.byes > 0 {
            assert!(
                active.iter().all(|q| q.byes > 0),
                "round {number}: a second bye for {id} while someone had none"
            );
        }
    }
    assert_eq!(seen.len(), active.len(), "round {number}: not everyone active is in");
    assert_eq!(round.bye.is_some(), active.len() % 2 == 1);

    let repeats =
        round.boards.iter().filter(|b| met(by_id(b.pairing.first), by_id(b.pairing.second))).count();
    let breaks = round
        .boards
        .iter()
        .flat_map(|b| [(b.pairing.first, Colour::First), (b.pairing.second, Colour::Second)])
        .filter(|&(id, c)| !fits(&by_id(id).colours, c))
        .count();
    counts.repeats += repeats;
    counts.colour_breaks += breaks;
    counts.unbalanced += round
        .boards
        .iter()
        .flat_map(|b| [(b.pairing.first, Colour::First), (b.pairing.second, Colour::Second)])
        .filter(|&(id, c)| !balanced(&by_id(id).colours, c))
        .count();

    // The first round of an even field: top half against bottom half, colours alternating.
    if number == 1 && round.bye.is_none() && active.iter().all(|p| p.colours.is_empty()) {
        let half = active.len() / 2;
        for (i, b) in round.boards.iter().enumerate() {
            let (top, bottom) = (active[i].entrant.id, active[i + half].entrant.id);
            assert!(b.pairing.between(top, bottom), "round 1 board {i}: not top half against bottom half");
            let top_first = b.pairing.first == top;
            assert_eq!(top_first, i % 2 == 0, "round 1 board {i}: colours do not alternate");
        }
    }

    if active.len() > BRUTE_FORCE_MAX {
        return;
    }
    counts.brute_forced += 1;
    let without = |bye: Option<PlayerId>| -> Vec<&SwissPlayer> {
        active.iter().copied().filter(|p| Some(p.entrant.id) != bye).collect()
    };
    let byes: Vec<Option<PlayerId>> = if active.len() % 2 == 1 {
        bye_order(&active).iter().map(|p| Some(p.entrant.id)).collect()
    } else {
        vec![None]
    };
    let no_repeat = |a: &SwissPlayer, b: &SwissPlayer| !met(a, b);
    let feasible: Vec<Option<PlayerId>> =
        byes.iter().copied().filter(|&bye| perfect_exists(&without(bye), &no_repeat)).collect();
    if repeats > 0 {
        assert!(feasible.is_empty(), "round {number}: a repeat although a repeat-free round existed");
    } else if active.len() % 2 == 1 {
        assert_eq!(
            round.bye, feasible[0],
            "round {number}: the bye is not the lowest-ranked who could have it"
        );
    }
    if breaks > 0 {
        let strict = |a: &SwissPlayer, b: &SwissPlayer| colour_pair_fits(a, b) && (repeats > 0 || !met(a, b));
        assert!(
            !perfect_exists(&without(round.bye), &strict),
            "round {number}: a colour broke the limits although a round keeping them existed"
        );
    }
}

fn random_result(rng: &mut StdRng) -> GameResult {
    match rng.random_range(0..10) {
        0..=3 => GameResult::FirstWins,
        4..=7 => GameResult::SecondWins,
        _ => GameResult::Draw,
    }
}

/// Plays one random tournament and checks it throughout.
fn play(rng: &mut StdRng, players: usize, rounds: u32, counts: &mut Counts) {
    let mut swiss = Swiss::new(rounds).unwrap();
    let mut next_id = 1u64;
    let mut entrant = |rng: &mut StdRng| {
        next_id += 1;
        Entrant { id: PlayerId(next_id), rating: rng.random_range(1000..2000) }
    };
    for _ in 0..players {
        let e = entrant(rng);
        swiss.join(e).unwrap();
    }
    let first = swiss.players()[0].entrant;
    assert_eq!(swiss.join(first), Err(TournamentError::AlreadyJoined(first.id)));
    for number in 1..=rounds {
        // Late entries and withdrawals between rounds.
        if number > 1 && rng.random_bool(0.3) {
            for _ in 0..rng.random_range(1..=3) {
                let e = entrant(rng);
                swiss.join(e).unwrap();
                counts.late_entries += 1;
                let p = swiss.players().last().unwrap();
                assert_eq!(p.score, Points::ZERO);
            }
        }
        if rng.random_bool(0.2) {
            let active: Vec<PlayerId> =
                swiss.players().iter().filter(|p| !p.withdrawn).map(|p| p.entrant.id).collect();
            if active.len() > 3 {
                let id = active[rng.random_range(0..active.len())];
                assert_eq!(swiss.withdraw(id), Ok(None));
                assert_eq!(swiss.withdraw(id), Err(TournamentError::Withdrawn(id)));
                counts.withdrawals += 1;
            }
        }
        let before = swiss.players().to_vec();
        swiss.pair_round(number).unwrap();
        assert_eq!(swiss.pair_round(number).err(), Some(TournamentError::RoundAlreadyPaired(number)));
        check_round(&before, &swiss, number, counts);
        counts.rounds += 1;
        if number < rounds {
            assert_eq!(swiss.pair_round(number + 1).err(), Some(TournamentError::RoundUnfinished(number)));
        }

        // A withdrawal during the round forfeits the game under way.
        let boards = swiss.round(number).unwrap().boards.clone();
        let mut withdrawn_now = None;
        if rng.random_bool(0.15) && !boards.is_empty() {
            let b = boards[rng.random_range(0..boards.len())];
            let forfeit = swiss.withdraw(b.pairing.first).unwrap().expect("a game under way");
            assert_eq!(forfeit.result, GameResult::SecondWins);
            counts.withdrawals += 1;
            withdrawn_now = Some(b.pairing);
        }
        for b in boards {
            let result = random_result(rng);
            if Some(b.pairing) == withdrawn_now {
                assert_eq!(
                    swiss.record(number, b.pairing.first, b.pairing.second, result),
                    Err(TournamentError::Withdrawn(b.pairing.first))
                );
                continue;
            }
            assert_eq!(
                swiss.record(number, b.pairing.second, b.pairing.first, result),
                Err(TournamentError::NoSuchPairing {
                    round: number,
                    first: b.pairing.second,
                    second: b.pairing.first
                })
            );
            swiss.record(number, b.pairing.first, b.pairing.second, result).unwrap();
            assert_eq!(
                swiss.record(number, b.pairing.first, b.pairing.second, result),
                Err(TournamentError::AlreadyRecorded)
            );
        }
        // Stored and taken back mid-way, it is the same tournament.
        if rng.random_bool(0.3) {
            let text = serde_json::to_string(&swiss).unwrap();
            let back: Swiss = serde_json::from_str(&text).unwrap();
            assert_eq!(back, swiss);
            swiss = back;
        }
        assert_eq!(swiss.standings(), swiss_standings(&swiss.entrants(), &swiss.results()));
    }
    assert!(swiss.is_finished());
    assert_eq!(swiss.pair_round(rounds + 1).err(), Some(TournamentError::AllRoundsPaired(rounds)));
    assert_eq!(swiss.join(entrant(rng)), Err(TournamentError::Finished));

    // A second bye came only when everyone active then had one (checked round by round).
    counts.second_byes += swiss.players().iter().filter(|p| p.byes > 1).count();
    let table = swiss.standings();
    check_table(&swiss, &table);
    assert_eq!(table, swiss_standings(&swiss.entrants(), &swiss.results()));
    counts.tournaments += 1;
}

/// The table against its definition: scores, Buchholz, Sonneborn-Berger, order and ranks.
fn check_table(swiss: &Swiss, table: &[ludus_tournament::Standing]) {
    let results = swiss.results();
    let score = |id: PlayerId| -> u32 {
        results
            .iter()
            .map(|r| match *r {
                RoundResult::Game { pairing, result, .. } => match pairing.opponent_of(id) {
                    Some((_, c)) => match (result, c) {
                        (GameResult::Draw, _) => 2,
                        (GameResult::FirstWins, Colour::First) | (GameResult::SecondWins, Colour::Second) => {
                            4
                        }
                        _ => 0,
                    },
                    None => 0,
                },
                RoundResult::Bye { player, .. } => 4 * u32::from(player == id),
            })
            .sum()
    };
    for row in table {
        assert_eq!(row.score.0, score(row.player));
        let opponents: Vec<(PlayerId, u32)> = results
            .iter()
            .filter_map(|r| match *r {
                RoundResult::Game { pairing, result, .. } => pairing.opponent_of(row.player).map(|(o, c)| {
                    let mine = match (result, c) {
                        (GameResult::Draw, _) => 1,
                        (GameResult::FirstWins, Colour::First) | (GameResult::SecondWins, Colour::Second) => {
                            2
                        }
                        _ => 0,
                    };
                    (o, mine)
                }),
                RoundResult::Bye { .. } => None,
            })
            .collect();
        let buchholz: u32 = opponents.iter().map(|&(o, _)| score(o)).sum();
        assert_eq!(row.buchholz.0, buchholz);
        let sb: u32 = opponents.iter().map(|&(o, mine)| score(o) * mine / 2).sum();
        assert_eq!(row.sonneborn_berger.0, sb);
    }
    for w in table.windows(2) {
        let key = |s: &ludus_tournament::Standing| {
            (s.score, s.buchholz_cut1, s.buchholz, s.sonneborn_berger, s.wins)
        };
        assert!(key(&w[0]) >= key(&w[1]), "the table is out of order");
        assert_eq!(w[1].rank == w[0].rank, key(&w[0]) == key(&w[1]));
    }
    assert_eq!(table.first().map(|s| s.rank), Some(1));
}

#[test]
fn random_swiss_tournaments_keep_the_pairing_rules() {
    let mut rng = StdRng::seed_from_u64(0x5_1155);
    let mut counts = Counts::default();
    for t in 0..600 {
        // Half of them small enough to check against every pairing.
        let players = if t % 2 == 0 { rng.random_range(5..=11) } else { rng.random_range(12..=64) };
        let rounds = rng.random_range(3..=9);
        play(&mut rng, players, rounds, &mut counts);
    }
    println!("{counts:?}");
    assert!(counts.brute_forced > 1000, "too few rounds checked by brute force: {counts:?}");
    assert!(counts.late_entries > 100 && counts.withdrawals > 100);
}

#[test]
fn bad_swiss_input_is_refused_and_changes_nothing() {
    assert_eq!(Swiss::new(0).err(), Some(TournamentError::BadRounds(0)));
    assert_eq!(Swiss::new(31).err(), Some(TournamentError::BadRounds(31)));
    let mut swiss = Swiss::new(3).unwrap();
    assert_eq!(swiss.pair_round(2).err(), Some(TournamentError::NotNextRound { asked: 2, next: 1 }));
    swiss.join(Entrant { id: PlayerId(1), rating: 1500 }).unwrap();
    assert_eq!(swiss.pair_round(1).err(), Some(TournamentError::TooFewPlayers { have: 1, need: 2 }));
    swiss.join(Entrant { id: PlayerId(2), rating: 1400 }).unwrap();
    let before = swiss.clone();
    assert_eq!(
        swiss.join(Entrant { id: PlayerId(2), rating: 1 }),
        Err(TournamentError::AlreadyJoined(PlayerId(2)))
    );
    assert_eq!(swiss.withdraw(PlayerId(9)), Err(TournamentError::UnknownPlayer(PlayerId(9))));
    assert_eq!(
        swiss.record(1, PlayerId(1), PlayerId(2), GameResult::Draw),
        Err(TournamentError::NoSuchPairing { round: 1, first: PlayerId(1), second: PlayerId(2) })
    );
    assert_eq!(swiss, before);
    let board = swiss.pair_round(1).unwrap().boards[0].pairing;
    assert_eq!(board.first, PlayerId(1), "the higher-rated player opens board 1");
    swiss.record(1, board.first, board.second, GameResult::FirstWins).unwrap();
    let table = swiss.standings();
    assert_eq!((table[0].player, table[0].score, table[0].rank), (PlayerId(1), Points::ONE, 1));
    assert_eq!(table[1].rank, 2);
    // Round 2: they have met, but no other pairing exists; colours swap.
    let board = swiss.pair_round(2).unwrap().boards[0].pairing;
    assert_eq!(board.first, PlayerId(2));
}

/// A player of a hand-made round: score in points, colours so far.
fn player(id: u64, points: u32, colours: &[Colour]) -> SwissPlayer {
    let mut p = SwissPlayer::new(Entrant { id: PlayerId(id), rating: 2000 - id as u32 });
    p.score = Points(points * 4);
    p.colours = colours.to_vec();
    p
}

#[test]
fn score_groups_rank_above_colours_within_one() {
    use Colour::{First as F, Second as S};
    // The two leaders both want the second move (B must have it: two first moves running). A
    // may take the first move for a colour difference of two: they meet, rather than both
    // floating down to the group below, where partners wanting the first move wait.
    let players = vec![
        player(1, 3, &[F, S, F]),
        player(2, 3, &[S, F, F]),
        player(3, 2, &[S, F, S]),
        player(4, 2, &[S, F, S]),
        player(5, 1, &[F, S, F]),
        player(6, 1, &[S, F, S]),
    ];
    let round = ludus_tournament::dutch::pair_round(&players).unwrap();
    assert_eq!(round.strictness, ludus_tournament::Strictness::NoRepeatColours);
    let boards: Vec<(u64, u64)> = round.boards.iter().map(|b| (b.first.0, b.second.0)).collect();
    assert_eq!(boards[0], (1, 2), "the leaders meet, A with the first move: {boards:?}");
    assert!(round.boards[1].between(PlayerId(3), PlayerId(4)), "{boards:?}");
    assert_eq!(boards[2], (6, 5), "colours within one where the group allows it: {boards:?}");
    // The limits stay hard: a third same colour running is never given when avoidable.
    let b = round.boards[0];
    assert!(fits(&players[1].colours, if b.second == PlayerId(2) { S } else { F }));
}
