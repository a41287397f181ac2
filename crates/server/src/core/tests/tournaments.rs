//! Tournaments driven through the core with its injected clock: arenas pairing at once, Swiss
//! rounds advancing with byes and withdrawals, a restart from what was stored, and bad input.

use super::*;
use crate::core::records::StoredTournament;
use ludus_protocol::{
    TournamentEntry, TournamentFormat, TournamentId, TournamentPace, TournamentRef, TournamentScore,
    TournamentSettings, TournamentStage, TournamentView,
};
use std::collections::BTreeMap;

/// Limits roomy enough for many messages in one test.
fn roomy() -> Limits {
    Limits { burst: 100_000.0, rate: 100_000.0, ..Limits::default() }
}

const MINUTE: Duration = Duration::from_secs(60);

fn arena(minutes: u32) -> TournamentSettings {
    TournamentSettings {
        name: "Evening arena".into(),
        variant: Variant::Alquerque,
        format: TournamentFormat::Arena { minutes, berserk: true },
        pace: TournamentPace::RealTime(ClockSpec::BLITZ),
        starts_in_minutes: 1,
        public: true,
        rated: false,
        max_players: 64,
    }
}

fn swiss(rounds: u32) -> TournamentSettings {
    TournamentSettings { format: TournamentFormat::Swiss { rounds }, ..arena(30) }
}

/// (tournament, round, game, side) of each `TournamentPaired` among `all`, by connection.
fn pairings(all: &[(ConnId, ServerMessage)]) -> Vec<(ConnId, u32, GameId, Side)> {
    all.iter()
        .filter_map(|(c, m)| match m {
            ServerMessage::TournamentPaired { round, game, side, .. } => Some((*c, *round, *game, *side)),
            _ => None,
        })
        .collect()
}

fn last_view(all: &[(ConnId, ServerMessage)], conn: ConnId) -> Option<TournamentView> {
    all.iter().rev().find_map(|(c, m)| match m {
        ServerMessage::Tournament(v) if *c == conn => Some((**v).clone()),
        _ => None,
    })
}

fn tournament_ops(ops: &[Op]) -> usize {
    ops.iter().filter(|op| matches!(op, Op::Tournament { .. } | Op::TournamentResult { .. })).count()
}

impl Harness {
    /// Ann (conn 1) signs in and claims her nickname.
    fn claimed_creator(&mut self) {
        self.sign_in(1, "Ann");
        self.claim(1, "correct horse");
    }

    /// `conn` creates a tournament; its number.
    fn create(&mut self, conn: ConnId, settings: TournamentSettings) -> TournamentId {
        self.send(conn, &ClientMessage::CreateTournament(settings));
        self.inbox(conn)
            .iter()
            .find_map(|m| match m {
                ServerMessage::TournamentCreated { tournament, .. } => Some(*tournament),
                _ => None,
            })
            .expect("the tournament is created")
    }

    /// Players `conns` sign in (as P<conn>) and join tournament `t`.
    fn entrants(&mut self, conns: impl IntoIterator<Item = ConnId>, t: TournamentId) {
        for c in conns {
            self.sign_in(c, &format!("P{c}"));
            self.send(c, &ClientMessage::JoinTournament(TournamentRef::Id(t)));
            let view = last_view(&self.all(), c).expect("the joiner gets the page");
            assert_eq!(view.you, Some(TournamentEntry::Playing));
        }
    }

    /// The conn whose player plays `side` of `game` among `paired`.
    fn resign_as(&mut self, paired: &[(ConnId, u32, GameId, Side)], game: GameId, side: Side) {
        let conn = paired.iter().find(|p| p.2 == game && p.3 == side).expect("a player").0;
        self.send(conn, &ClientMessage::Resign { game });
    }

    fn tourney_json(&self, t: TournamentId) -> String {
        serde_json::to_string(&self.core.tournaments.by_id[&t.0]).unwrap()
    }
}

#[test]
fn an_arena_pairs_at_the_start_and_again_at_once_when_a_game_ends() {
    let mut h = Harness::new(roomy());
    h.claimed_creator();
    let t = h.create(1, arena(30));
    h.entrants([11, 12, 13, 14, 15], t);
    h.all();
    // Nobody is paired before the start.
    h.advance(Duration::from_secs(30));
    assert!(pairings(&h.all()).is_empty());
    h.advance(Duration::from_secs(31));
    let all = h.all();
    let paired = pairings(&all);
    assert_eq!(paired.len(), 4, "two games for five players: {paired:?}");
    assert!(paired.iter().all(|p| p.1 == 0));
    let games: BTreeMap<GameId, Vec<ConnId>> = paired.iter().fold(BTreeMap::new(), |mut m, p| {
        m.entry(p.2).or_insert_with(Vec::new).push(p.0);
        m
    });
    assert_eq!(games.len(), 2);
    let waiting: Vec<ConnId> =
        [11, 12, 13, 14, 15].into_iter().filter(|c| !paired.iter().any(|p| p.0 == *c)).collect();
    assert_eq!(waiting.len(), 1);
    // Each paired player has the game's view, as any game.
    for p in &paired {
        assert!(of(&all, p.0).iter().any(|m| matches!(m, ServerMessage::Game(v) if v.game == p.2)));
    }

    // Berserk: First halves their clock before moving; twice is refused.
    let (&game, _) = games.iter().next().unwrap();
    let first = paired.iter().find(|p| p.2 == game && p.3 == Side::First).unwrap().0;
    h.send(first, &ClientMessage::Berserk { game });
    let view = of(&h.all(), first)
        .into_iter()
        .find_map(|m| if let ServerMessage::Game(v) = m { Some(v) } else { None })
        .expect("the view again");
    assert_eq!(
        view.clocks.unwrap().remaining_ms,
        [ClockSpec::BLITZ.initial_ms / 2, ClockSpec::BLITZ.initial_ms]
    );
    h.send(first, &ClientMessage::Berserk { game });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::BadTournament));

    // The berserker's opponent resigns: both are free at once and the waiting player is paired
    // with one of them in the same tick.
    h.resign_as(&paired, game, Side::Second);
    let all = h.all();
    let again = pairings(&all);
    assert_eq!(again.len(), 2, "one new game at once: {again:?}");
    assert!(again.iter().any(|p| p.0 == waiting[0]), "the waiting player plays now");
    let view = last_view(&all, 1).expect("the creator views it: the page comes again");
    let top = &view.standings[0];
    assert_eq!(top.player, view.standings[0].player);
    assert_eq!(
        top.score,
        TournamentScore::Arena { points: 3, streak: 1, berserk_wins: 1 },
        "a berserk win: 2 + 1"
    );
    assert_eq!(view.boards.len(), 2, "two games under way");
    assert!(view.boards.iter().all(|b| b.game.is_some() && b.result.is_none()));

    // A free player who went offline is paused at the next pairing, not paired.
    let free: Vec<ConnId> = [11, 12, 13, 14, 15]
        .into_iter()
        .filter(|&c| {
            let pid = h.core.conns[&c].player.unwrap();
            !h.core.games.values().any(|g| g.players.contains(&pid))
        })
        .collect();
    assert_eq!(free.len(), 1);
    h.disconnected(free[0]);
    h.advance(Duration::from_secs(2));
    let view = last_view(&h.all(), 1).expect("the page again");
    assert!(view.standings.iter().any(|s| s.away), "paused: {:?}", view.standings);

    // Flags fall and the players are paired again until the end; no pairing after it, and it
    // is over once the last game has ended.
    h.advance(29 * MINUTE);
    assert!(!pairings(&h.all()).is_empty(), "paired again after games lost on time");
    h.advance(2 * MINUTE);
    let running: Vec<GameId> = h.core.tournaments.by_game.keys().copied().collect();
    assert!(!running.is_empty(), "games under way at the end still count");
    assert_eq!(h.core.tournaments.by_id[&t.0].stage, TournamentStage::Running { round: 0 });
    for gid in running {
        let pid = h.core.games[&gid].players[0];
        let conn = h.core.players[&pid].conn.expect("online");
        h.send(conn, &ClientMessage::Resign { game: gid });
    }
    let all = h.all();
    assert!(pairings(&all).is_empty(), "no pairing after the end");
    assert!(all.iter().any(|(_, m)| matches!(m, ServerMessage::TournamentEnded { .. })));
    assert_eq!(h.core.tournaments.by_id[&t.0].stage, TournamentStage::Finished);
}

#[test]
fn a_swiss_pairs_each_round_when_the_last_one_ended_with_a_bye_and_a_withdrawal() {
    let mut h = Harness::new(roomy());
    h.claimed_creator();
    let t = h.create(1, swiss(3));
    h.entrants([11, 12, 13, 14, 15], t);
    h.all();
    h.advance(Duration::from_secs(61));
    let all = h.all();
    let round1 = pairings(&all);
    assert_eq!(round1.len(), 4);
    assert!(round1.iter().all(|p| p.1 == 1));
    let view = last_view(&all, 1).expect("the creator's page");
    assert_eq!(view.summary.stage, TournamentStage::Running { round: 1 });
    assert!(view.bye.is_some(), "five players: a bye");
    assert_eq!(view.boards.len(), 2);
    let bye = view.bye.unwrap().0;

    // One game ends: no new round until the other has.
    let games: Vec<GameId> = view.boards.iter().map(|b| b.game.unwrap()).collect();
    h.resign_as(&round1, games[0], Side::Second);
    assert!(pairings(&h.all()).is_empty(), "round 2 waits for every game of round 1");
    h.resign_as(&round1, games[1], Side::First);
    let all = h.all();
    let round2 = pairings(&all);
    assert_eq!(round2.len(), 4, "round 2 at once: {round2:?}");
    assert!(round2.iter().all(|p| p.1 == 2));
    let view = last_view(&all, 1).unwrap();
    assert_ne!(view.bye.as_ref().map(|b| b.0), Some(bye), "no second bye while others had none");

    // A player withdraws during round 2: their game is lost, their move refused, and they are
    // never paired again.
    let (quitter, _, qgame, qside) = round2[0];
    let qpid = h.core.games[&qgame].players[if qside == Side::First { 0 } else { 1 }];
    h.send(quitter, &ClientMessage::WithdrawTournament { tournament: t });
    let all = h.all();
    assert!(
        of(&all, quitter).iter().any(|m| matches!(m, ServerMessage::GameOver { game, .. } if *game == qgame))
    );
    let view = last_view(&all, quitter).unwrap();
    assert_eq!(view.you, Some(TournamentEntry::Withdrawn));
    h.send(quitter, &ClientMessage::Move { game: qgame, ply: 0, mv: "a1-b2".into() });
    let code = refusal_code(&h.inbox(quitter));
    assert!(matches!(code, Some(ErrorCode::GameOver | ErrorCode::UnknownGame)), "{code:?}");
    h.send(quitter, &ClientMessage::WithdrawTournament { tournament: t });
    assert_eq!(refusal_code(&h.inbox(quitter)), Some(ErrorCode::NotInTournament));

    // The other game of round 2 ends: round 3 pairs the four left, the quitter not among them.
    let other = round2.iter().find(|p| p.2 != qgame).unwrap().2;
    h.resign_as(&round2, other, Side::First);
    let all = h.all();
    let round3 = pairings(&all);
    assert_eq!(round3.len(), 4, "four players left, no bye: {round3:?}");
    assert!(round3.iter().all(|p| p.0 != quitter));
    for gid in round3.iter().map(|p| p.2).collect::<std::collections::BTreeSet<_>>() {
        h.resign_as(&round3, gid, Side::Second);
    }
    let all = h.all();
    let podium = all
        .iter()
        .find_map(|(c, m)| match m {
            ServerMessage::TournamentEnded { podium, .. } if *c == 1 => Some(podium.clone()),
            _ => None,
        })
        .expect("the end and its podium");
    assert!(podium.len() >= 3 && podium[0].rank == 1);
    let tourney = &h.core.tournaments.by_id[&t.0];
    assert_eq!(tourney.stage, TournamentStage::Finished);
    let table = tourney.standings();
    assert!(table.iter().any(|s| s.player == qpid && s.away && s.games == 2), "withdrawn after two games");
    assert_eq!(
        table.iter().map(|s| s.games).sum::<u32>(),
        2 * 2 + 2 * 2 + 2 * 2,
        "six games, each counted twice"
    );
    assert!(pairings(&all).is_empty());
}

/// The tournaments as the store would give them back: the last state of each and its results.
fn stored_from(ops: &[Op]) -> Vec<StoredTournament> {
    let mut by_id: BTreeMap<u64, StoredTournament> = BTreeMap::new();
    for op in ops {
        match op {
            Op::Tournament { id, state, .. } => {
                by_id
                    .entry(*id)
                    .or_insert_with(|| StoredTournament {
                        id: *id,
                        state: String::new(),
                        results: Vec::new(),
                    })
                    .state = state.clone();
            }
            Op::TournamentResult { tournament, seq, result } => {
                let t = by_id.get_mut(tournament).expect("stored after its tournament");
                assert_eq!(t.results.len() as u32, *seq, "results in order");
                t.results.push(result.clone());
            }
            _ => {}
        }
    }
    by_id.into_values().collect()
}

#[test]
fn a_restart_mid_tournament_loses_no_point() {
    let mut h = Harness::new(roomy());
    h.claimed_creator();
    let t = h.create(1, swiss(4));
    let a = h.create(1, arena(60));
    h.entrants([11, 12, 13, 14, 15, 16], t);
    h.entrants([21, 22, 23, 24], a);
    h.advance(Duration::from_secs(61));
    let all = h.all();
    let paired = pairings(&all);
    // Round 1 of the Swiss ends; round 2 starts. (Arena games go on.)
    let swiss_games: Vec<GameId> = paired
        .iter()
        .filter(|p| p.1 == 1)
        .map(|p| p.2)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(swiss_games.len(), 3);
    for (i, g) in swiss_games.iter().enumerate() {
        if i == 0 {
            let conn = paired.iter().find(|p| p.2 == *g).unwrap().0;
            h.send(conn, &ClientMessage::OfferDraw { game: *g });
            let other = paired.iter().find(|p| p.2 == *g && p.0 != conn).unwrap().0;
            h.send(other, &ClientMessage::AnswerDraw { game: *g, accept: true });
        } else {
            h.resign_as(&paired, *g, Side::First);
        }
    }
    let before_swiss = h.tourney_json(t);
    let before_arena = h.tourney_json(a);
    let standings_before = h.core.tournaments.by_id[&t.0].standings();
    assert!(standings_before.iter().any(|s| matches!(s.score, TournamentScore::Table { score_q: 2, .. })));
    let ops = h.take_ops();
    let stored = stored_from(&ops);
    assert_eq!(stored.len(), 2);

    // A new core from what was stored: the same tournaments, the same standings.
    let now = h.now;
    let loaded = Loaded { tournaments: stored.clone(), next_tournament: 1, ..Loaded::default() };
    let core = Core::new(roomy(), loaded, now, h.unix_ms, [7; 32]);
    assert_eq!(serde_json::to_string(&core.tournaments.by_id[&t.0]).unwrap(), before_swiss);
    assert_eq!(serde_json::to_string(&core.tournaments.by_id[&a.0]).unwrap(), before_arena);
    assert_eq!(core.tournaments.by_id[&t.0].standings(), standings_before);
    assert_eq!(core.tournaments.next_id, 3, "new tournaments take new numbers");
    assert_eq!(
        core.tournaments.by_game.len(),
        h.core.tournaments.by_game.len(),
        "the games under way are known as the tournaments'"
    );

    // A stored result lost: the standings recomputed from the results differ, and the
    // tournament is not taken back as if nothing happened.
    let mut broken = stored.clone();
    let swiss_stored = broken.iter_mut().find(|s| s.id == t.0).unwrap();
    assert!(super::super::tournaments::reloaded_tourney(swiss_stored).is_ok());
    let last = swiss_stored.results.pop().unwrap();
    assert!(super::super::tournaments::reloaded_tourney(swiss_stored).is_err());
    // A result changed (a win turned into a loss): refused too.
    let flipped = if last.contains("FirstWins") {
        last.replace("FirstWins", "SecondWins")
    } else {
        last.replace("SecondWins", "FirstWins").replace("Draw", "FirstWins")
    };
    swiss_stored.results.push(flipped);
    assert!(super::super::tournaments::reloaded_tourney(swiss_stored).is_err());
}

#[test]
fn bad_tournament_input_is_refused_and_nothing_is_stored() {
    let mut h = Harness::new(Limits { code_guesses: 3, ..roomy() });
    let ip: std::net::IpAddr = "203.0.113.7".parse().unwrap();
    h.claimed_creator();
    h.set_origin(1, ip);
    h.sign_in(2, "Guest");
    h.set_origin(2, ip);
    h.take_ops();

    // A guest cannot create.
    h.send(2, &ClientMessage::CreateTournament(arena(30)));
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::NotClaimed));
    // Settings out of range.
    for bad in [
        TournamentSettings { max_players: 1, ..arena(30) },
        TournamentSettings { format: TournamentFormat::Arena { minutes: 1, berserk: false }, ..arena(30) },
        TournamentSettings { format: TournamentFormat::Swiss { rounds: 0 }, ..arena(30) },
        TournamentSettings { pace: TournamentPace::TurnBased { days: 3 }, ..arena(30) },
        TournamentSettings { pace: TournamentPace::TurnBased { days: 2 }, ..swiss(3) },
        TournamentSettings { format: TournamentFormat::RoundRobin, max_players: 11, ..arena(30) },
        TournamentSettings { name: "x".repeat(41), ..arena(30) },
        TournamentSettings { name: "a\u{202e}b".into(), ..arena(30) },
        TournamentSettings { starts_in_minutes: 8 * 24 * 60, ..arena(30) },
        TournamentSettings { starts_in_minutes: 0, ..swiss(3) },
    ] {
        h.send(1, &ClientMessage::CreateTournament(bad.clone()));
        assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::BadTournament), "{bad:?}");
    }
    h.send(
        1,
        &ClientMessage::CreateTournament(TournamentSettings {
            pace: TournamentPace::RealTime(ClockSpec { initial_ms: 1000, increment_ms: 0 }),
            ..arena(30)
        }),
    );
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::BadClock));
    assert_eq!(tournament_ops(&h.take_ops()), 0, "nothing stored");

    // A flood from one account: five a day, then refused, nothing stored.
    let mut made = Vec::new();
    let later = TournamentSettings { starts_in_minutes: 7 * 24 * 60, ..arena(30) };
    for i in 0..5 {
        made.push(h.create(1, TournamentSettings { public: i != 0, ..later.clone() }));
    }
    h.take_ops();
    h.send(1, &ClientMessage::CreateTournament(arena(30)));
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::TooManyTournaments));
    assert_eq!(tournament_ops(&h.take_ops()), 0, "nothing stored");
    assert_eq!(h.core.tournaments.by_id.len(), 5);
    // A day later, again.
    h.advance(Duration::from_secs(24 * 3600 + 1));
    h.all();
    h.create(1, later.clone());
    h.take_ops();
    let private = made[0];
    let public = made[1];

    // Joining twice.
    h.send(2, &ClientMessage::JoinTournament(TournamentRef::Id(public)));
    assert!(refusal_code(&h.inbox(2)).is_none());
    h.take_ops();
    h.send(2, &ClientMessage::JoinTournament(TournamentRef::Id(public)));
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::AlreadyJoined));
    assert_eq!(tournament_ops(&h.take_ops()), 0, "nothing stored");
    // A private one is not joined, nor seen, by number.
    h.send(2, &ClientMessage::JoinTournament(TournamentRef::Id(private)));
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::UnknownTournament));
    h.send(2, &ClientMessage::ViewTournament { tournament: private });
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::UnknownTournament));
    h.send(2, &ClientMessage::Tournaments);
    let lists = h.inbox(2);
    let ServerMessage::Tournaments(list) = &lists[0] else { panic!("{lists:?}") };
    assert!(list.upcoming.iter().chain(&list.finished).all(|s| s.id != private));
    // Guessed codes: refused, then every code refused for a while, even the right one.
    for guess in ["AAAAAAAAAA", "BBBBBBBBBB", "CCCCCCCCCC"] {
        h.send(2, &ClientMessage::JoinTournament(TournamentRef::Code(guess.into())));
        assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::UnknownTournament));
    }
    let code = h.core.tournaments.by_id[&private.0].code.clone().unwrap();
    h.send(2, &ClientMessage::JoinTournament(TournamentRef::Code(code.to_lowercase())));
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::TooManyAttempts));
    assert_eq!(tournament_ops(&h.take_ops()), 0, "nothing stored");
    // After the cool-down, the right code (any case) joins.
    h.advance(h.core.limits.code_cooldown + Duration::from_secs(1));
    h.all();
    h.send(2, &ClientMessage::JoinTournament(TournamentRef::Code(code.to_lowercase())));
    let messages = h.inbox(2);
    assert!(refusal_code(&messages).is_none(), "{messages:?}");
    // Not in it: no withdrawal.
    h.send(2, &ClientMessage::WithdrawTournament { tournament: made[2] });
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::NotInTournament));
    // Berserk outside a tournament game.
    h.send(2, &ClientMessage::Berserk { game: GameId(999) });
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::UnknownGame));
}

#[test]
fn the_schedule_announces_its_tournaments_before_they_start() {
    let entries = crate::core::parse_schedule(
        r#"[{"name": "Hourly Alquerque arena", "variant": "Alquerque",
             "format": {"Arena": {"minutes": 30, "berserk": true}},
             "pace": {"RealTime": {"initial_ms": 180000, "increment_ms": 2000}},
             "every_minutes": 60, "announce_minutes": 30}]"#,
    )
    .expect("a valid schedule");
    assert!(crate::core::parse_schedule(r#"[{"name": "x"}]"#).is_err());
    assert!(
        crate::core::parse_schedule(
            r#"[{"name": "x", "variant": "Alquerque", "format": {"Arena": {"minutes": 30, "berserk": true}},
                 "pace": {"TurnBased": {"days": 3}}, "every_minutes": 60}]"#
        )
        .is_err(),
        "an arena is real-time"
    );
    let now = Instant::now();
    // 10:10 on some day: the 11:00 arena is announced at 10:30.
    let day = 1_800_000_000_000 / DAY_MS_TEST * DAY_MS_TEST;
    let unix = day + 10 * 3_600_000 + 10 * 60_000;
    let mut core = Core::new(roomy(), Loaded::default(), now, unix, [7; 32]);
    core.set_tournament_schedule(entries);
    let mut h = Harness::of(core, now, unix);
    h.sign_in(5, "Kim");
    h.advance(Duration::from_secs(60));
    assert!(h.core.tournaments.by_id.is_empty(), "not announced yet");
    h.advance(20 * MINUTE);
    let listed: Vec<_> = h.core.tournaments.by_id.values().map(|t| t.summary()).collect();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].starts_ms, day + 11 * 3_600_000);
    assert!(listed[0].scheduled && listed[0].public);
    h.send(5, &ClientMessage::Tournaments);
    let m = h.inbox(5);
    assert!(matches!(&m[0], ServerMessage::Tournaments(l) if l.upcoming.len() == 1));
    // Announced once, however often the timers run.
    h.advance(MINUTE);
    assert_eq!(h.core.tournaments.by_id.len(), 1);
    // It starts at 11:00 and ends at 11:30 (nobody came); the next one is announced at 11:30.
    h.advance(30 * MINUTE);
    let stages: Vec<TournamentStage> = h.core.tournaments.by_id.values().map(|t| t.stage).collect();
    assert_eq!(stages, [TournamentStage::Running { round: 0 }]);
    h.advance(30 * MINUTE);
    let stages: Vec<TournamentStage> = h.core.tournaments.by_id.values().map(|t| t.stage).collect();
    assert_eq!(stages, [TournamentStage::Finished, TournamentStage::Upcoming]);
}

const DAY_MS_TEST: u64 = 24 * 3_600_000;

#[test]
fn a_turn_based_round_robin_plays_every_round_and_ends() {
    let mut h = Harness::new(roomy());
    h.claimed_creator();
    let settings = TournamentSettings {
        format: TournamentFormat::RoundRobin,
        pace: TournamentPace::TurnBased { days: 1 },
        max_players: 3,
        ..arena(30)
    };
    let t = h.create(1, settings);
    h.entrants([11, 12, 13], t);
    // Full: a fourth is refused.
    h.sign_in(14, "P14");
    h.send(14, &ClientMessage::JoinTournament(TournamentRef::Id(t)));
    assert_eq!(refusal_code(&h.inbox(14)), Some(ErrorCode::TournamentFull));
    h.all();
    h.advance(Duration::from_secs(61));
    for round in 1..=3 {
        let all = h.all();
        let paired = pairings(&all);
        assert_eq!(paired.len(), 2, "round {round}: one game and a bye: {paired:?}");
        assert!(paired.iter().all(|p| p.1 == round));
        let game = paired[0].2;
        assert!(h.core.games[&game].turn.is_some(), "a turn-based game");
        let view = last_view(&all, 1).expect("the page");
        assert_eq!(view.rounds, 3);
        assert!(view.bye.is_some());
        // A player offline: the game waits; it ends by resignation here.
        h.resign_as(&paired, game, Side::Second);
    }
    let all = h.all();
    assert!(all.iter().any(|(c, m)| *c == 11 && matches!(m, ServerMessage::TournamentEnded { .. })));
    let tourney = &h.core.tournaments.by_id[&t.0];
    assert_eq!(tourney.stage, TournamentStage::Finished);
    let table = tourney.standings();
    assert!(table.iter().all(|s| s.games == 2), "everyone met everyone: {table:?}");
    assert!(table.iter().all(|s| matches!(s.score, TournamentScore::Table { byes: 1, .. })));
    // Joining a finished one is refused.
    h.send(14, &ClientMessage::JoinTournament(TournamentRef::Id(t)));
    assert_eq!(refusal_code(&h.inbox(14)), Some(ErrorCode::TournamentClosed));
}
