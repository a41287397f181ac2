//! Bots playing many turn-based games at once over real sockets, with random delays and
//! restarts of the server in between: every move the server confirmed is kept, and every game
//! ends. Each bot is one connection holding all its games (up to the limit of 50). The small run
//! is part of the suite; the large one (over a thousand games) runs with `--ignored` and prints
//! its figures.

use crate::common::*;
use crate::persistence::rejoin;
use ludus_protocol::client::Transport;
use ludus_protocol::{ClientMessage, ErrorCode, GameId, GameView, Role, ServerMessage, SessionToken};
use ludus_rules::{AnyGame, Side, Variant};
use ludus_server::core::Limits;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// One bot's games: the local replica, its side, and when it moves next (its turn).
struct Bot {
    /// Its place among the bots (the same after a restart).
    index: usize,
    client: TestClient,
    games: HashMap<GameId, (AnyGame, Side, Option<Instant>)>,
    /// When each move on its way was sent (for the round trip).
    sent: HashMap<(GameId, u32), Instant>,
}

/// What the run saw.
#[derive(Default)]
struct Tally {
    /// The moves each bot saw confirmed in each of its games, in order (one connection's
    /// messages come in order: a view sent after a move includes it).
    confirmed: HashMap<(usize, GameId), Vec<String>>,
    ended: HashSet<GameId>,
    started: HashSet<GameId>,
    moves: u64,
    /// Confirmed moves missing from a game's view after a restart.
    lost: u64,
    refusals: HashMap<ErrorCode, u64>,
    round_trips_us: Vec<u64>,
    last_message: Option<Instant>,
}

struct Run {
    players: usize,
    /// Games between each pair of players.
    per_pair: usize,
    /// A game is resigned by the side to move at this ply.
    max_plies: usize,
    restarts: usize,
    /// The longest think time before a move.
    max_delay: Duration,
    seed: u64,
}

impl Bot {
    fn take_view(&mut self, v: &GameView, t: &mut Tally, rng: &mut SmallRng) {
        let Role::Player(side) = v.role else { return };
        t.started.insert(v.game);
        if v.outcome.is_some() {
            return;
        }
        let confirmed = t.confirmed.entry((self.index, v.game)).or_default();
        if !v.moves.starts_with(confirmed) {
            t.lost += confirmed.len().saturating_sub(v.moves.len()).max(1) as u64;
        }
        *confirmed = v.moves.clone();
        let game = v.replay().expect("a view replays");
        let due = (game.side_to_move() == side).then(|| Instant::now() + delay(rng, Duration::ZERO));
        self.games.insert(v.game, (game, side, due));
    }

    fn handle(&mut self, m: ServerMessage, run: &Run, t: &mut Tally, rng: &mut SmallRng) {
        match m {
            ServerMessage::ChallengeReceived(c) => {
                self.client.send(ClientMessage::AcceptChallenge { code: c.code });
            }
            ServerMessage::Game(v) => self.take_view(&v, t, rng),
            ServerMessage::MyGames(list) => {
                for g in list.games {
                    self.client.send(ClientMessage::OpenGame { game: g.game });
                }
            }
            ServerMessage::MovePlayed { game, ply, mv, .. } => {
                if let Some(sent) = self.sent.remove(&(game, ply)) {
                    t.round_trips_us.push(sent.elapsed().as_micros() as u64);
                    t.moves += 1;
                }
                let confirmed = t.confirmed.entry((self.index, game)).or_default();
                if confirmed.len() == ply as usize {
                    confirmed.push(mv.clone());
                }
                if let Some((local, side, due)) = self.games.get_mut(&game)
                    && local.ply() == ply as usize
                {
                    let parsed = local.position().parse_move(&mv).expect("the server's move parses");
                    local.play(&parsed).expect("the server's move is legal");
                    if !local.is_over() && local.side_to_move() == *side {
                        *due = Some(Instant::now() + delay(rng, run.max_delay));
                    }
                }
            }
            ServerMessage::GameOver { game, .. } => {
                self.games.remove(&game);
                t.ended.insert(game);
            }
            ServerMessage::Error { code, .. } => *t.refusals.entry(code).or_default() += 1,
            _ => {}
        }
    }

    /// Plays the moves that are due (a random legal one; a resignation at the ply limit).
    fn act(&mut self, run: &Run, rng: &mut SmallRng) {
        let now = Instant::now();
        for (gid, (local, _, due)) in &mut self.games {
            if due.is_none_or(|d| d > now) {
                continue;
            }
            *due = None;
            if local.ply() >= run.max_plies {
                self.client.send(ClientMessage::Resign { game: *gid });
                continue;
            }
            let moves = local.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            let text = local.position().move_to_string(&mv).expect("notation");
            let ply = local.ply() as u32;
            self.sent.insert((*gid, ply), now);
            self.client.send(ClientMessage::Move { game: *gid, ply, mv: text });
        }
    }
}

fn delay(rng: &mut SmallRng, max: Duration) -> Duration {
    Duration::from_micros(rng.random_range(0..=max.as_micros() as u64))
}

fn limits() -> Limits {
    // One connection carries dozens of games: a budget for them all.
    Limits {
        burst: 2000.0,
        rate: 1000.0,
        pending_challenges: 100,
        challenges_per_window: 100,
        answer_burst: 4.0 * 1024.0 * 1024.0,
        answer_rate: 1024.0 * 1024.0,
        address_answer_burst: 64.0 * 1024.0 * 1024.0,
        address_answer_rate: 16.0 * 1024.0 * 1024.0,
        ..Limits::default()
    }
}

/// Pumps every bot until `done` or `within` passes.
fn pump(
    bots: &mut [Bot],
    run: &Run,
    t: &mut Tally,
    rng: &mut SmallRng,
    within: Duration,
    done: impl Fn(&Tally, &[Bot]) -> bool,
) {
    let end = Instant::now() + within;
    let mut report = Instant::now();
    while !done(t, bots) && Instant::now() < end {
        if report.elapsed() > Duration::from_secs(5) {
            report = Instant::now();
            let waiting: usize = bots.iter().map(|b| b.games.len()).sum();
            let due: usize = bots.iter().map(|b| b.games.values().filter(|g| g.2.is_some()).count()).sum();
            eprintln!(
                "started {} ended {} games held {waiting} due {due} refusals {:?}",
                t.started.len(),
                t.ended.len(),
                t.refusals
            );
        }
        for b in bots.iter_mut() {
            let mut messages: Vec<ServerMessage> = b.client.inbox.drain(..).collect();
            messages.extend(b.client.client.poll());
            for m in messages {
                t.last_message = Some(Instant::now());
                b.handle(m, run, t, rng);
            }
            b.act(run, rng);
            b.client.client.flush();
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn bot_run(run: Run) {
    let dir = data_dir(&format!("turn-bots-{}", run.players));
    let mut server = server_with(&dir, limits());
    let mut rng = SmallRng::seed_from_u64(run.seed);
    let mut t = Tally::default();
    let names: Vec<String> = (0..run.players).map(|i| format!("Bot{i}")).collect();
    let mut bots: Vec<Bot> = names
        .iter()
        .enumerate()
        .map(|(index, n)| Bot {
            index,
            client: TestClient::signed_in(server.udp_addr().unwrap(), Transport::Udp, n),
            games: HashMap::new(),
            sent: HashMap::new(),
        })
        .collect();
    let total = run.players * (run.players - 1) / 2 * run.per_pair;
    let started = Instant::now();
    for _ in 0..run.per_pair {
        for i in 0..run.players {
            for name in &names[i + 1..] {
                bots[i].client.send(ClientMessage::Challenge {
                    opponent: Some(name.clone()),
                    variant: Variant::Latrunculi,
                    side: None,
                    days: 1,
                    listed: false,
                    rated: false,
                });
            }
        }
    }
    pump(&mut bots, &run, &mut t, &mut rng, Duration::from_secs(120), |t, _| t.started.len() == total);
    assert_eq!(t.started.len(), total, "every challenge became a game");
    // Play, with restarts at even intervals of the games' ends.
    for r in 0..run.restarts {
        let target = total * (r + 1) / (run.restarts + 1);
        pump(&mut bots, &run, &mut t, &mut rng, Duration::from_secs(600), |t, _| t.ended.len() >= target);
        let tokens: Vec<SessionToken> = bots.iter().map(|b| b.client.token()).collect();
        for b in &mut bots {
            b.games.clear();
            b.sent.clear();
        }
        let old: Vec<Bot> = std::mem::take(&mut bots);
        drop(old);
        server.stop();
        server = server_with(&dir, limits());
        let udp = server.udp_addr().unwrap();
        bots = names
            .iter()
            .zip(tokens)
            .enumerate()
            .map(|(index, (n, token))| Bot {
                index,
                client: rejoin(udp, Transport::Udp, token, n),
                games: HashMap::new(),
                sent: HashMap::new(),
            })
            .collect();
    }
    // Until every game ended, or nobody holds one any more and all is quiet.
    pump(&mut bots, &run, &mut t, &mut rng, Duration::from_secs(900), |t, bots| {
        t.ended.len() == total
            || (bots.iter().all(|b| b.games.is_empty())
                && t.last_message.is_some_and(|at| at.elapsed() > Duration::from_secs(2)))
    });
    // A game that ended as the server stopped had its end stored but maybe not delivered: its
    // archive says so.
    let mut ended_unseen = 0;
    let missing: Vec<GameId> = t.started.difference(&t.ended).copied().collect();
    for gid in missing {
        let asker = &mut bots[0].client;
        asker.send(ClientMessage::Archive { game: gid });
        let outcome = asker.expect("archive", |m| match m {
            ServerMessage::Archive(a) if a.game == gid => Some(Some(a.outcome)),
            ServerMessage::Error { .. } => Some(None),
            _ => None,
        });
        assert!(outcome.is_some(), "game {} neither live for its players nor archived", gid.0);
        t.ended.insert(gid);
        ended_unseen += 1;
    }
    let elapsed = started.elapsed();
    t.round_trips_us.sort_unstable();
    let pct = |p: f64| {
        t.round_trips_us.get(((t.round_trips_us.len() as f64 - 1.0) * p) as usize).copied().unwrap_or(0)
            as f64
            / 1000.0
    };
    println!(
        "turn-based bots: {} players, {} games ({} at once each at most), {} restarts: {} ended, {} \
         moves confirmed ({} timed), {} lost, {} ended unseen as the server stopped (their archives checked), {:.1} s; move round trip p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; \
         refusals {:?}",
        run.players,
        total,
        (run.players - 1) * run.per_pair,
        run.restarts,
        t.ended.len(),
        t.confirmed.values().map(Vec::len).sum::<usize>() / 2,
        t.moves,
        t.lost,
        ended_unseen,
        elapsed.as_secs_f64(),
        pct(0.5),
        pct(0.99),
        pct(1.0),
        t.refusals,
    );
    assert_eq!(t.lost, 0, "no confirmed move is lost");
    assert_eq!(t.ended.len(), total, "every game ends");
    for b in &bots {
        assert!(b.games.is_empty(), "{} still has games", b.client.name);
    }
    server.stop();
}

#[test]
fn bots_play_turn_based_games_across_restarts() {
    bot_run(Run {
        players: 6,
        per_pair: 2,
        max_plies: 16,
        restarts: 2,
        max_delay: Duration::from_millis(5),
        seed: 1,
    });
}

/// Over a thousand games at once (46 bots, 45 games each), four restarts.
#[test]
#[ignore = "a long run: cargo test -p ludus-server --test server -- --ignored --nocapture turn_bots"]
fn bots_play_a_thousand_turn_based_games_across_restarts() {
    bot_run(Run {
        players: 46,
        per_pair: 1,
        max_plies: 30,
        restarts: 4,
        max_delay: Duration::from_millis(50),
        seed: 7,
    });
}
