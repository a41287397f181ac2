//! Arenas simulated second by second from a seeded generator (the same every run): players join
//! late, pause and come back, games last random times, some players berserk. Each pairing is
//! checked against "near" restated here, the scores against a shadow count of streaks, and
//! the table against the one rebuilt from the results alone.

use ludus_tournament::{
    Arena, ArenaConfig, ArenaStatus, Entrant, FreePlayer, GameId, GameResult, PlayerId, PlayerResult,
    TournamentError, arena_standings,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet};

const MINUTE: u64 = 60_000;
/// Pools of free players up to this size are checked against every possible pairing.
const BRUTE_FORCE_MAX: usize = 12;

/// Near, as the crate documents it: points within 4, and 2 more for every 10 s the
/// longer-waiting of the two has waited.
fn near(a: &FreePlayer, b: &FreePlayer, now: u64) -> bool {
    let waited = now - a.free_since.min(b.free_since);
    let span = 4 + 2 * (waited / 10_000);
    u64::from(a.points.abs_diff(b.points)) <= span
}

fn rematch(a: &FreePlayer, b: &FreePlayer) -> bool {
    a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id)
}

/// The most games among `pool` along `edge`, by trying every way.
fn most_games(pool: &[FreePlayer], edge: &dyn Fn(&FreePlayer, &FreePlayer) -> bool) -> usize {
    fn go(
        left: &mut Vec<usize>,
        pool: &[FreePlayer],
        edge: &dyn Fn(&FreePlayer, &FreePlayer) -> bool,
    ) -> usize {
        let Some(p) = left.pop() else { return 0 };
        let mut best = go(left, pool, edge);
        for i in 0..left.len() {
            let q = left[i];
            if edge(&pool[p], &pool[q]) {
                left.remove(i);
                best = best.max(1 + go(left, pool, edge));
                left.insert(i, q);
            }
        }
        left.push(p);
        best
    }
    let mut left: Vec<usize> = (0..pool.len()).collect();
    go(&mut left, pool, edge)
}

/// The points of one game by the rules, from the player's earlier results.
fn expected_points(history: &[PlayerResult], result: PlayerResult, berserk: bool) -> u32 {
    let on_fire = history.len() >= 2 && history[history.len() - 2..].iter().all(|r| *r == PlayerResult::Win);
    let base = match result {
        PlayerResult::Win => 2,
        PlayerResult::Draw => 1,
        PlayerResult::Loss => 0,
    };
    base * if on_fire { 2 } else { 1 } + u32::from(berserk && result == PlayerResult::Win)
}

#[derive(Default, Debug)]
struct Counts {
    arenas: usize,
    pairings: usize,
    games: usize,
    rematches: usize,
    brute_forced: usize,
    widened: usize,
    pauses: usize,
    late_joins: usize,
    fire_games: usize,
    berserk_wins: usize,
}

/// Checks one pairing call: `pool` as it was, the pairs made.
fn check_pairing(pool: &[FreePlayer], pairs: &[(PlayerId, PlayerId)], now: u64, counts: &mut Counts) {
    let find = |id: PlayerId| pool.iter().find(|p| p.id == id).expect("paired players were free");
    let mut used = HashSet::new();
    for &(a, b) in pairs {
        assert!(used.insert(a) && used.insert(b), "a player in two games");
        let (pa, pb) = (find(a), find(b));
        assert!(near(pa, pb, now), "{a} and {b} paired though not near");
        if pa.points.abs_diff(pb.points) > 4 {
            counts.widened += 1;
        }
    }
    let left: Vec<&FreePlayer> = pool.iter().filter(|p| !used.contains(&p.id)).collect();
    for (i, x) in left.iter().enumerate() {
        for y in &left[i + 1..] {
            assert!(!near(x, y, now), "{} and {} both wait though near", x.id, y.id);
        }
    }
    let rematches: Vec<&(PlayerId, PlayerId)> =
        pairs.iter().filter(|(a, b)| rematch(find(*a), find(*b))).collect();
    counts.rematches += rematches.len();
    let fresh_partner = |p: &FreePlayer, x: &FreePlayer| near(p, x, now) && !rematch(p, x);
    for (a, b) in rematches.iter().map(|p| (find(p.0), find(p.1))) {
        for x in &left {
            assert!(
                !fresh_partner(a, x) && !fresh_partner(b, x),
                "{} and {} play again while {} is free for one of them",
                a.id,
                b.id,
                x.id
            );
        }
    }
    if pool.len() <= BRUTE_FORCE_MAX {
        counts.brute_forced += 1;
        let fresh = pairs.len() - rematches.len();
        assert_eq!(
            fresh,
            most_games(pool, &|a, b| near(a, b, now) && !rematch(a, b)),
            "fewer fresh games than possible"
        );
        assert_eq!(
            pairs.len(),
            fresh + most_games(&left_after(pool, pairs, &rematches), &|a, b| near(a, b, now))
        );
    }
}

/// The pool without the players of the fresh (non-rematch) games: where rematches are made.
fn left_after(
    pool: &[FreePlayer],
    pairs: &[(PlayerId, PlayerId)],
    rematches: &[&(PlayerId, PlayerId)],
) -> Vec<FreePlayer> {
    let fresh: HashSet<PlayerId> =
        pairs.iter().filter(|p| !rematches.contains(p)).flat_map(|&(a, b)| [a, b]).collect();
    pool.iter().filter(|p| !fresh.contains(&p.id)).copied().collect()
}

struct Sim {
    arena: Arena,
    rng: StdRng,
    history: HashMap<PlayerId, Vec<PlayerResult>>,
    points: HashMap<PlayerId, u32>,
    ends: Vec<(u64, GameId)>,
    next_id: u64,
}

impl Sim {
    fn join(&mut self, now: u64) {
        self.next_id += 1;
        let e = Entrant { id: PlayerId(self.next_id), rating: self.rng.random_range(1000..2200) };
        self.arena.join(e, now).unwrap();
        assert_eq!(self.arena.join(e, now), Err(TournamentError::AlreadyJoined(e.id)));
    }

    fn finish(&mut self, game: GameId, now: u64, counts: &mut Counts) {
        let g = *self.arena.game(game).unwrap();
        let result =
            [GameResult::FirstWins, GameResult::SecondWins, GameResult::Draw][self.rng.random_range(0..3)];
        let expected: Vec<u32> = [
            (g.pairing.first, ludus_tournament::Colour::First, g.berserk_first),
            (g.pairing.second, ludus_tournament::Colour::Second, g.berserk_second),
        ]
        .iter()
        .map(|&(id, c, berserk)| {
            let mine = result.for_colour(c);
            let h = self.history.entry(id).or_default();
            let pts = expected_points(h, mine, berserk);
            if h.len() >= 2 && h[h.len() - 2..].iter().all(|r| *r == PlayerResult::Win) {
                counts.fire_games += 1;
            }
            if berserk && mine == PlayerResult::Win {
                counts.berserk_wins += 1;
            }
            h.push(mine);
            *self.points.entry(id).or_default() += pts;
            pts
        })
        .collect();
        let got = self.arena.record(game, result, now).unwrap();
        assert_eq!((got.first, got.second), (expected[0], expected[1]), "points of {game}");
        assert_eq!(self.arena.record(game, result, now), Err(TournamentError::AlreadyRecorded));
        counts.games += 1;
    }
}

fn run_arena(seed: u64, counts: &mut Counts) {
    let end = 30 * MINUTE;
    let mut sim = Sim {
        arena: Arena::new(ArenaConfig { starts_at: MINUTE, ends_at: end, berserk: true }).unwrap(),
        rng: StdRng::seed_from_u64(seed),
        history: HashMap::new(),
        points: HashMap::new(),
        ends: Vec::new(),
        next_id: 0,
    };
    let first_wave = sim.rng.random_range(2..=40);
    for _ in 0..first_wave {
        sim.join(0);
    }
    assert!(sim.arena.pair(0).is_empty(), "paired before the start");
    let mut now = MINUTE;
    while now < end {
        if sim.rng.random_bool(0.05) {
            sim.join(now);
            counts.late_joins += 1;
        }
        // Some leave for a while, some come back.
        let ids: Vec<PlayerId> = sim.arena.players().iter().map(|p| p.entrant.id).collect();
        for id in ids {
            if sim.rng.random_bool(0.004) {
                let p = sim.arena.player(id).unwrap();
                let away = p.status == ArenaStatus::Paused || p.leaving;
                if away {
                    sim.arena.resume(id, now).unwrap();
                } else {
                    sim.arena.pause(id).unwrap();
                    assert_eq!(sim.arena.pause(id), Err(TournamentError::Paused(id)));
                    counts.pauses += 1;
                }
            }
        }
        // Games that end now, in a random order.
        let mut due: Vec<GameId> = sim.ends.iter().filter(|(t, _)| *t <= now).map(|(_, g)| *g).collect();
        sim.ends.retain(|(t, _)| *t > now);
        while !due.is_empty() {
            let g = due.swap_remove(sim.rng.random_range(0..due.len()));
            sim.finish(g, now, counts);
        }
        let pool = sim.arena.free_players();
        let games = sim.arena.pair(now);
        let pairs: Vec<(PlayerId, PlayerId)> =
            games.iter().map(|g| (g.pairing.first, g.pairing.second)).collect();
        check_pairing(&pool, &pairs, now, counts);
        counts.pairings += 1;
        for g in games {
            for id in [g.pairing.first, g.pairing.second] {
                if sim.rng.random_bool(0.2) {
                    sim.arena.berserk(g.id, id).unwrap();
                }
            }
            let length = sim.rng.random_range(20_000..180_000);
            sim.ends.push((now + length, g.id));
        }
        if sim.rng.random_bool(0.02) {
            let text = serde_json::to_string(&sim.arena).unwrap();
            let back: Arena = serde_json::from_str(&text).unwrap();
            assert_eq!(back, sim.arena);
            sim.arena = back;
        }
        now += sim.rng.random_range(500..3_000);
    }
    // Over: no more pairing, but the games under way count.
    assert!(sim.arena.pair(now).is_empty());
    assert!(matches!(
        sim.arena.join(Entrant { id: PlayerId(u64::MAX), rating: 1 }, now),
        Err(TournamentError::Finished)
    ));
    for (_, g) in std::mem::take(&mut sim.ends) {
        sim.finish(g, now, counts);
    }
    let table = sim.arena.standings();
    assert_eq!(table, arena_standings(&sim.arena.entrants(), sim.arena.results()));
    for row in &table {
        assert_eq!(
            row.score.points,
            sim.points.get(&row.player).copied().unwrap_or(0),
            "points of {}",
            row.player
        );
    }
    for w in table.windows(2) {
        assert!(w[0].score.points >= w[1].score.points);
        assert_eq!(w[0].rank == w[1].rank, w[0].score.points == w[1].score.points);
    }
    counts.arenas += 1;
}

#[test]
fn random_arenas_pair_near_players_and_score_streaks_exactly() {
    let mut counts = Counts::default();
    for seed in 0..100 {
        run_arena(0xA7E4A + seed, &mut counts);
    }
    println!("{counts:?}");
    assert!(
        counts.brute_forced > 1000 && counts.rematches > 0 && counts.widened > 0 && counts.fire_games > 100
    );
    assert!(counts.pauses > 20 && counts.late_joins > 20 && counts.berserk_wins > 100);
}

#[test]
fn streaks_double_until_a_game_is_not_won() {
    let mut arena = Arena::new(ArenaConfig { starts_at: 0, ends_at: 10 * MINUTE, berserk: true }).unwrap();
    let a = PlayerId(1);
    for id in 1..=5 {
        arena.join(Entrant { id: PlayerId(id), rating: 1500 }, 0).unwrap();
    }
    // `a`, ranked first, is paired every minute (the others draw among themselves): the
    // results, seen from `a`, with or without berserk, and the points `a` must get.
    let plan = [
        (PlayerResult::Win, false, 2),
        (PlayerResult::Win, false, 2),
        (PlayerResult::Win, true, 5),
        (PlayerResult::Draw, false, 2),
        (PlayerResult::Win, false, 2),
        (PlayerResult::Win, false, 2),
        (PlayerResult::Loss, false, 0),
        (PlayerResult::Win, true, 3),
    ];
    let mut now = 1;
    let mut total = 0;
    for (i, (result, berserk, points)) in plan.into_iter().enumerate() {
        let games = arena.pair(now);
        let g = games.iter().find(|g| g.pairing.has(a)).unwrap_or_else(|| panic!("step {i}: `a` not paired"));
        if berserk {
            arena.berserk(g.id, a).unwrap();
        }
        let colour = g.pairing.opponent_of(a).unwrap().1;
        let game_result = match result {
            PlayerResult::Win => GameResult::win_for(colour),
            PlayerResult::Loss => GameResult::win_for(colour.flip()),
            PlayerResult::Draw => GameResult::Draw,
        };
        let got = arena.record(g.id, game_result, now).unwrap();
        let mine = if colour == ludus_tournament::Colour::First { got.first } else { got.second };
        assert_eq!(mine, points, "step {i}");
        total += points;
        for other in games.iter().filter(|o| o.id != g.id) {
            arena.record(other.id, GameResult::Draw, now).unwrap();
        }
        now += MINUTE;
    }
    assert_eq!(arena.player(a).unwrap().score.points, total);
    assert_eq!(arena.player(a).unwrap().score.berserk_wins, 2);
}

#[test]
fn no_immediate_rematch_while_someone_else_is_free() {
    let mut arena = Arena::new(ArenaConfig { starts_at: 0, ends_at: 10 * MINUTE, berserk: false }).unwrap();
    for id in 1..=4 {
        arena.join(Entrant { id: PlayerId(id), rating: 1500 }, 0).unwrap();
    }
    let games = arena.pair(0);
    assert_eq!(games.len(), 2);
    for g in &games {
        arena.record(g.id, GameResult::Draw, 1000).unwrap();
    }
    let again = arena.pair(1000);
    assert_eq!(again.len(), 2);
    for g in &again {
        assert!(
            !games.iter().any(|old| old.pairing.between(g.pairing.first, g.pairing.second)),
            "an immediate rematch"
        );
    }
    // Two alone may play again.
    let mut two = Arena::new(ArenaConfig { starts_at: 0, ends_at: 10 * MINUTE, berserk: false }).unwrap();
    two.join(Entrant { id: PlayerId(1), rating: 1 }, 0).unwrap();
    two.join(Entrant { id: PlayerId(2), rating: 1 }, 0).unwrap();
    let g = two.pair(0)[0];
    two.record(g.id, GameResult::FirstWins, 5).unwrap();
    let h = two.pair(5)[0];
    assert!(h.pairing.between(PlayerId(1), PlayerId(2)));
    assert_eq!(h.pairing.first, g.pairing.second, "colours swap");
}

#[test]
fn bad_arena_input_is_refused_and_changes_nothing() {
    assert_eq!(
        Arena::new(ArenaConfig { starts_at: 5, ends_at: 5, berserk: false }).err(),
        Some(TournamentError::BadTimes)
    );
    let mut arena = Arena::new(ArenaConfig { starts_at: 0, ends_at: MINUTE, berserk: false }).unwrap();
    let e = Entrant { id: PlayerId(1), rating: 1500 };
    arena.join(e, 0).unwrap();
    arena.join(Entrant { id: PlayerId(2), rating: 1500 }, 0).unwrap();
    let before = arena.clone();
    assert_eq!(arena.join(e, 10), Err(TournamentError::AlreadyJoined(PlayerId(1))));
    assert_eq!(arena.resume(PlayerId(1), 10), Err(TournamentError::NotPaused(PlayerId(1))));
    assert_eq!(arena.pause(PlayerId(3)), Err(TournamentError::UnknownPlayer(PlayerId(3))));
    assert_eq!(arena.record(GameId(1), GameResult::Draw, 10), Err(TournamentError::NoSuchGame(GameId(1))));
    assert_eq!(arena, before);
    let g = arena.pair(10)[0];
    assert_eq!(arena.berserk(g.id, PlayerId(1)), Err(TournamentError::BerserkNotAllowed));
    arena.record(g.id, GameResult::Draw, 20).unwrap();
    assert_eq!(arena.record(g.id, GameResult::FirstWins, 20), Err(TournamentError::AlreadyRecorded));
    assert_eq!(arena.join(Entrant { id: PlayerId(9), rating: 1 }, MINUTE), Err(TournamentError::Finished));

    let mut berserk = Arena::new(ArenaConfig { starts_at: 0, ends_at: MINUTE, berserk: true }).unwrap();
    berserk.join(e, 0).unwrap();
    berserk.join(Entrant { id: PlayerId(2), rating: 1500 }, 0).unwrap();
    berserk.join(Entrant { id: PlayerId(3), rating: 1500 }, 0).unwrap();
    let g = berserk.pair(0)[0];
    let outsider = [PlayerId(1), PlayerId(2), PlayerId(3)].into_iter().find(|p| !g.pairing.has(*p)).unwrap();
    assert_eq!(
        berserk.berserk(g.id, outsider),
        Err(TournamentError::NotInGame { game: g.id, player: outsider })
    );
    assert_eq!(berserk.berserk(GameId(7), outsider), Err(TournamentError::NoSuchGame(GameId(7))));
}

#[test]
fn random_pools_of_free_players_are_paired_by_the_rules() {
    let mut rng = StdRng::seed_from_u64(0xF4EE);
    let mut counts = Counts::default();
    for round in 0..3000 {
        let n =
            if round % 4 == 0 { rng.random_range(13..=64) } else { rng.random_range(2..=BRUTE_FORCE_MAX) };
        let now = 1_000_000;
        let mut pool: Vec<FreePlayer> = (0..n)
            .map(|i| FreePlayer {
                id: PlayerId(i as u64 + 1),
                points: rng.random_range(0..30),
                rating: rng.random_range(1000..1100),
                free_since: now - rng.random_range(0..40_000),
                last_opponent: None,
            })
            .collect();
        // Last games between pairs of the pool (both just finished), or with someone gone.
        for i in 0..n {
            if rng.random_bool(0.5) {
                let j = rng.random_range(0..n);
                if j != i && pool[j].last_opponent.is_none() && pool[i].last_opponent.is_none() {
                    pool[i].last_opponent = Some(pool[j].id);
                    pool[j].last_opponent = Some(pool[i].id);
                }
            } else if rng.random_bool(0.3) {
                pool[i].last_opponent = Some(PlayerId(999));
            }
        }
        let pairs = ludus_tournament::pair_free(&pool, now);
        check_pairing(&pool, &pairs, now, &mut counts);
        for &(a, b) in &pairs {
            let (pa, pb) =
                (pool.iter().find(|p| p.id == a).unwrap(), pool.iter().find(|p| p.id == b).unwrap());
            assert_eq!(ludus_tournament::near(pa, pb, now), near(pa, pb, now));
        }
    }
    println!("{counts:?}");
    assert!(counts.brute_forced > 2000 && counts.rematches > 50 && counts.widened > 100);
}
