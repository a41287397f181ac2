//! `ludus-cli bots --tournament arena:MIN|swiss:ROUNDS --players N`: a tournament played by bots
//! against a real server. A director bot claims its nickname and creates the tournament (public,
//! casual, starting a minute later); N bots join it, play random legal moves in whatever game
//! the server pairs them into, and stop at its end. Prints the pairing times (an arena: from a
//! bot's game ending to its next pairing; a Swiss: from a round's last game ending to the next
//! round's pairing) and the final table as the server sent it.

use crate::error::CliError;
use ludus_protocol::client::{Client, ClientConfig, Transport};
use ludus_protocol::{
    ClientMessage, ClockSpec, GameId, Password, Role, ServerMessage, TournamentFormat, TournamentId,
    TournamentPace, TournamentRef, TournamentScore, TournamentSettings, TournamentView,
};
use ludus_rules::{AnyGame, Side, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// What to run.
pub struct TournamentRun {
    pub server: SocketAddr,
    pub transport: Transport,
    pub api: Option<String>,
    pub format: TournamentFormat,
    pub players: usize,
    pub variant: Variant,
    pub clock: ClockSpec,
    pub think: (u64, u64),
    pub max_plies: usize,
    pub seed: u64,
}

/// Reads `arena:MINUTES` or `swiss:ROUNDS`.
pub fn parse_format(s: &str) -> Result<TournamentFormat, CliError> {
    let bad = || CliError::Usage(format!("expected arena:MINUTES or swiss:ROUNDS, not '{s}'"));
    let (kind, n) = s.split_once(':').ok_or_else(bad)?;
    let n: u32 = n.parse().map_err(|_| bad())?;
    match kind {
        "arena" => Ok(TournamentFormat::Arena { minutes: n, berserk: false }),
        "swiss" => Ok(TournamentFormat::Swiss { rounds: n }),
        _ => Err(bad()),
    }
}

/// Reads a clock `SECONDS+INCREMENT` (seconds).
pub fn parse_clock(s: &str) -> Result<ClockSpec, CliError> {
    let bad = || CliError::Usage(format!("expected SECONDS+INCREMENT, not '{s}'"));
    let (a, b) = s.split_once('+').unwrap_or((s, "0"));
    let (a, b): (u32, u32) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    Ok(ClockSpec { initial_ms: a * 1000, increment_ms: b * 1000 })
}

struct Player {
    client: Client,
    joined: bool,
    game: Option<GameId>,
    local: Option<AnyGame>,
    side: Option<Side>,
    think_until: Option<Instant>,
    pending: bool,
    ended_at: Option<Instant>,
    retry_at: Option<Instant>,
    done: bool,
}

/// The pace at which the players connect.
const CONNECT_EVERY: Duration = Duration::from_millis(100);

fn config(run: &TournamentRun, nickname: String) -> ClientConfig {
    let mut c = ClientConfig::new(run.server, run.transport).nickname(nickname);
    if let Some(api) = &run.api {
        c = c.api(api.clone());
    }
    c
}

fn percentiles(mut ms: Vec<f64>) -> String {
    if ms.is_empty() {
        return "-".into();
    }
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    format!("n {}, p50 {:.1} ms, p90 {:.1} ms, max {:.1} ms", ms.len(), at(0.5), at(0.9), at(1.0))
}

pub fn run(run: TournamentRun) -> Result<(), CliError> {
    let mut rng = SmallRng::seed_from_u64(run.seed);
    let tag = std::process::id() % 100_000;
    // The director: claims its nickname, creates the tournament, views it to the end.
    let mut director = Client::connect(config(&run, format!("td{tag}")))
        .map_err(|e| CliError::Usage(format!("cannot connect: {e}")))?;
    let settings = TournamentSettings {
        name: format!("Bots {tag}"),
        variant: run.variant,
        format: run.format,
        pace: TournamentPace::RealTime(run.clock),
        starts_in_minutes: 1,
        public: true,
        rated: false,
        max_players: run.players as u32,
    };
    let start = Instant::now();
    let mut tournament: Option<TournamentId> = None;
    let mut last_view: Option<TournamentView> = None;
    let mut podium_seen = false;
    let mut players: Vec<Player> = Vec::new();
    let limit = match run.format {
        TournamentFormat::Arena { minutes, .. } => Duration::from_secs(u64::from(minutes) * 60 + 600),
        TournamentFormat::Swiss { rounds } => Duration::from_millis(
            u64::from(rounds) * (2 * u64::from(run.clock.initial_ms) + 120_000) + 600_000,
        ),
        TournamentFormat::RoundRobin => Duration::from_secs(3600),
    };
    let mut pairing_ms: Vec<f64> = Vec::new();
    let mut round_gap_ms: Vec<f64> = Vec::new();
    let mut last_game_over: Option<Instant> = None;
    let mut round_seen = 0u32;
    let (mut games, mut moves, mut errors, mut reconnects) = (0u64, 0u64, 0u64, 0u64);
    let mut next_connect = start;
    let mut director_retry: Option<Instant> = None;
    println!("tournament bots: {} players, {:?}, clock {}", run.players, run.format, run.clock.label());
    loop {
        let now = Instant::now();
        if now.duration_since(start) > limit {
            println!("gave up after {:.0} s", now.duration_since(start).as_secs_f64());
            break;
        }
        // The director comes back after a lost connection too (a server restart), and views the
        // tournament again.
        if director.is_disconnected() {
            match director_retry {
                None => director_retry = Some(now + Duration::from_secs(1)),
                Some(at) if now >= at => {
                    director_retry = None;
                    reconnects += 1;
                    let _ = director.reconnect();
                }
                Some(_) => {}
            }
        }
        for m in director.poll() {
            match m {
                ServerMessage::Welcome { .. } => match tournament {
                    None => director
                        .send(&ClientMessage::ClaimNickname { password: Password("bots-director-1".into()) }),
                    Some(t) => director.send(&ClientMessage::ViewTournament { tournament: t }),
                },
                ServerMessage::NicknameClaimed { .. } => {
                    director.send(&ClientMessage::CreateTournament(settings.clone()))
                }
                ServerMessage::TournamentCreated { tournament: t, .. } => {
                    tournament = Some(t);
                    println!("  tournament {} created at {:.1} s", t.0, start.elapsed().as_secs_f64());
                }
                ServerMessage::Tournament(v) => last_view = Some(*v),
                ServerMessage::TournamentEnded { podium, .. } => {
                    podium_seen = true;
                    println!("  over at {:.1} s; podium:", start.elapsed().as_secs_f64());
                    for s in podium {
                        println!("    {} {} {:?}", s.rank, s.nickname, s.score);
                    }
                }
                ServerMessage::Error { code, message } => {
                    return Err(CliError::Usage(format!("the server refused: {code:?}: {message}")));
                }
                _ => {}
            }
        }
        director.flush();
        // The players connect at a pace the server's handshake limits of one address allow.
        if tournament.is_some() && players.len() < run.players && next_connect <= now {
            next_connect = now + CONNECT_EVERY;
            match Client::connect(config(&run, format!("tb{tag}-{}", players.len()))) {
                Ok(client) => players.push(Player {
                    client,
                    joined: false,
                    game: None,
                    local: None,
                    side: None,
                    think_until: None,
                    pending: false,
                    ended_at: None,
                    retry_at: None,
                    done: false,
                }),
                Err(e) => return Err(CliError::Usage(format!("cannot connect: {e}"))),
            }
        }
        for p in players.iter_mut().filter(|p| !p.done) {
            // A lost or refused connection is tried again a second later (the same player).
            if p.client.is_disconnected() {
                match p.retry_at {
                    None => p.retry_at = Some(now + Duration::from_secs(1)),
                    Some(at) if now >= at => {
                        p.retry_at = None;
                        reconnects += 1;
                        if p.client.reconnect().is_err() {
                            p.done = true;
                        }
                    }
                    Some(_) => {}
                }
                continue;
            }
            for m in p.client.poll() {
                match m {
                    // Also after a reconnection: an arena player paused meanwhile comes back.
                    ServerMessage::Welcome { .. } => {
                        if let Some(t) = tournament {
                            p.client.send(&ClientMessage::JoinTournament(TournamentRef::Id(t)));
                            p.joined = true;
                        }
                    }
                    ServerMessage::TournamentPaired { round, .. } => {
                        if let Some(at) = p.ended_at.take()
                            && matches!(run.format, TournamentFormat::Arena { .. })
                        {
                            pairing_ms.push(now.duration_since(at).as_secs_f64() * 1000.0);
                        }
                        if round > round_seen {
                            round_seen = round;
                            if let Some(at) = last_game_over {
                                round_gap_ms.push(now.duration_since(at).as_secs_f64() * 1000.0);
                            }
                        }
                    }
                    ServerMessage::Game(view) => {
                        if let (Role::Player(side), Ok(local)) = (view.role, view.replay()) {
                            p.game = Some(view.game);
                            p.side = Some(side);
                            p.pending = false;
                            if !local.is_over() && local.side_to_move() == side {
                                p.think_until = Some(
                                    now + Duration::from_millis(rng.random_range(run.think.0..=run.think.1)),
                                );
                            }
                            p.local = Some(local);
                        }
                    }
                    ServerMessage::MovePlayed { game, mv, .. } if Some(game) == p.game => {
                        if let Some(local) = p.local.as_mut() {
                            if local.play_str(&mv).is_err() {
                                errors += 1;
                            }
                            p.pending = false;
                            if !local.is_over() && Some(local.side_to_move()) == p.side {
                                p.think_until = Some(
                                    now + Duration::from_millis(rng.random_range(run.think.0..=run.think.1)),
                                );
                            }
                        }
                    }
                    ServerMessage::GameOver { game, .. } if Some(game) == p.game => {
                        p.game = None;
                        p.local = None;
                        p.side = None;
                        p.ended_at = Some(now);
                        last_game_over = Some(now);
                        games += 1;
                    }
                    ServerMessage::TournamentEnded { .. } => p.done = true,
                    ServerMessage::Error { code: ludus_protocol::ErrorCode::AlreadyJoined, .. } => {}
                    ServerMessage::Error { .. } => errors += 1,
                    _ => {}
                }
            }
            let my_turn = p.local.as_ref().is_some_and(|g| !g.is_over() && Some(g.side_to_move()) == p.side);
            if my_turn && !p.pending && p.think_until.is_some_and(|t| now >= t) {
                p.think_until = None;
                let (Some(game), Some(local)) = (p.game, p.local.as_ref()) else { continue };
                if local.ply() >= run.max_plies {
                    p.client.send(&ClientMessage::Resign { game });
                } else {
                    let legal = local.legal_moves();
                    let mv = legal[rng.random_range(0..legal.len())];
                    let text = local.position().move_to_string(&mv).unwrap_or_default();
                    p.client.send(&ClientMessage::Move { game, ply: local.ply() as u32, mv: text });
                    moves += 1;
                }
                p.pending = true;
            }
            p.client.flush();
        }
        if podium_seen && players.iter().all(|p| p.done) {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    // The last table the server sent.
    if let Some(v) = &last_view {
        println!("final table ({} players):", v.standings.len());
        for s in v.standings.iter().take(10) {
            let points = match s.score {
                TournamentScore::Arena { points, .. } => format!("{points}"),
                TournamentScore::Table { score_q, buchholz_cut1_q, sonneborn_berger_q, .. } => format!(
                    "{} (Bc1 {}, SB {})",
                    f64::from(score_q) / 4.0,
                    f64::from(buchholz_cut1_q) / 4.0,
                    f64::from(sonneborn_berger_q) / 4.0
                ),
            };
            println!("  {:>3} {:<12} {points} in {} games", s.rank, s.nickname, s.games);
        }
    }
    println!(
        "games: {games} (each seen by both players), moves: {moves}, refusals: {errors}, reconnects: {reconnects}"
    );
    match run.format {
        TournamentFormat::Arena { .. } => {
            println!("arena: a game's end to the next pairing of its player: {}", percentiles(pairing_ms))
        }
        _ => {
            println!("Swiss: a round's last game to the next round's pairing: {}", percentiles(round_gap_ms))
        }
    }
    println!("elapsed: {:.1} s", start.elapsed().as_secs_f64());
    for p in &mut players {
        p.client.disconnect();
    }
    director.disconnect();
    if !podium_seen {
        return Err(CliError::Usage("the tournament did not end in time".into()));
    }
    Ok(())
}
