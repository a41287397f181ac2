//! `ludus-cli bots`: a load test of a `ludus-server`. Pairs of bot clients open a room, join it
//! by code and play random legal moves (with a think time), then rematch until the duration is
//! over. Prints completed games, errors, lost moves and the move round trip (from sending a move
//! to receiving the server's broadcast of it, which the server sends only once the move is on
//! disk) as percentiles.

use crate::args::parse_variant;
use crate::error::CliError;
use ludus_protocol::client::{Client, ClientConfig, Transport};
use ludus_protocol::{ClientMessage, GameId, Role, ServerMessage};
use ludus_rules::{AnyGame, Side, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct BotsArgs {
    /// The server's address, e.g. 127.0.0.1:5000
    #[arg(long, value_name = "ADDR")]
    server: SocketAddr,
    /// Pairs of bots (games at once), 1 to 100000
    #[arg(long, value_name = "N", default_value_t = 10)]
    games: usize,
    /// Connect over WebSocket instead of UDP
    #[arg(long)]
    ws: bool,
    /// The server's HTTP(S) address, where connect tokens come from [default: http:// and the
    /// --server address (the server serves HTTP on the TCP port of its UDP port); give it with --ws]
    #[arg(long, value_name = "URL")]
    api: Option<String>,
    /// latrunculi, latrunculi-quick, alquerque or all
    #[arg(long, value_name = "GAME|all", default_value = "all")]
    variant: String,
    /// Think time before each move, MIN-MAX milliseconds (or one number)
    #[arg(long, value_name = "MIN-MAX", default_value = "500-1500", value_parser = parse_think)]
    think_ms: (u64, u64),
    /// Plies after which a game is left
    #[arg(long, value_name = "P", default_value_t = 80)]
    max_plies: usize,
    /// Rematch until this many seconds have passed (0: one game each)
    #[arg(long, value_name = "SECS", default_value_t = 0)]
    duration: u64,
    /// Clients connecting per second
    #[arg(long, value_name = "PER_SEC", default_value_t = 400.0)]
    ramp: f64,
    /// Threads running the bots
    #[arg(long, value_name = "T", default_value_t = 1)]
    threads: usize,
    /// The seed of the bots' moves
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Play a tournament instead: arena:MINUTES or swiss:ROUNDS, created by a director bot
    /// (claimed), starting a minute later (the server needs --new-players-per-minute 0 and
    /// --max-clients-per-address 0 for many bots from one address)
    #[arg(long, value_name = "KIND:N", value_parser = crate::tournament_bots::parse_format)]
    tournament: Option<ludus_protocol::TournamentFormat>,
    /// With --tournament: the bots that join it
    #[arg(long, value_name = "N", default_value_t = 64)]
    players: usize,
    /// With --tournament: the clock, SECONDS+INCREMENT
    #[arg(long, value_name = "S+I", default_value = "60+0", value_parser = crate::tournament_bots::parse_clock)]
    clock: ludus_protocol::ClockSpec,
}

fn parse_think(s: &str) -> Result<(u64, u64), CliError> {
    let (a, b) = s.split_once('-').unwrap_or((s, s));
    match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(a), Ok(b)) if a <= b && b <= 600_000 => Ok((a, b)),
        _ => Err(CliError::Usage(format!("expected MIN-MAX milliseconds, not '{s}'"))),
    }
}

struct Settings {
    server: SocketAddr,
    transport: Transport,
    api: Option<String>,
    games: usize,
    variants: Vec<Variant>,
    think: (u64, u64),
    max_plies: usize,
    duration: Duration,
    ramp: f64,
    threads: usize,
    seed: u64,
}

#[derive(Default)]
struct Shared {
    signed_in: AtomicU64,
    in_game: AtomicU64,
    moves: AtomicU64,
    completed: AtomicU64,
    lost: AtomicU64,
    reconnects: AtomicU64,
    latencies_us: Mutex<Vec<u32>>,
    errors: Mutex<HashMap<String, u64>>,
    stop: AtomicBool,
}

impl Shared {
    fn error(&self, what: String) {
        if let Ok(mut e) = self.errors.lock() {
            *e.entry(what).or_default() += 1;
        }
    }
}

struct Pending {
    ply: u32,
    mv: String,
    sent: Instant,
}

/// The wait before a bot connects again after losing its connection or being refused, as the
/// game waits: 1 s, doubling to at most [`Backoff::MAX`], each wait drawn between its half and
/// its whole (jitter, so that bots refused together do not come back together); a sign-in
/// starts it over.
#[derive(Debug, Default)]
struct Backoff {
    failures: u32,
}

impl Backoff {
    const FIRST: Duration = Duration::from_secs(1);
    const MAX: Duration = Duration::from_secs(8);

    /// The wait after one more failure; `jitter` in `[0, 1)` picks it within its range.
    fn next(&mut self, jitter: f64) -> Duration {
        let full = Self::FIRST.saturating_mul(1 << self.failures.min(8)).min(Self::MAX);
        self.failures = self.failures.saturating_add(1);
        full.mul_f64(0.5 + 0.5 * jitter.clamp(0.0, 1.0))
    }

    fn reset(&mut self) {
        self.failures = 0;
    }
}

struct Bot {
    client: Client,
    /// Reconnection: the schedule, and when the next attempt is due.
    backoff: Backoff,
    retry_at: Option<Instant>,
    pair: usize,
    host: bool,
    variant: Variant,
    game: Option<GameId>,
    local: Option<AnyGame>,
    side: Option<Side>,
    pending: Option<Pending>,
    think_until: Option<Instant>,
    next_poll: Instant,
    joined: bool,
    done: bool,
    signed_in: bool,
}

pub fn run(args: BotsArgs) -> Result<(), CliError> {
    let variants = match args.variant.as_str() {
        "all" => Variant::ALL.to_vec(),
        v => vec![parse_variant(v).map_err(|e| CliError::Usage(e.to_string()))?],
    };
    if let Some(format) = args.tournament {
        return crate::tournament_bots::run(crate::tournament_bots::TournamentRun {
            server: args.server,
            transport: if args.ws { Transport::WebSocket } else { Transport::Udp },
            api: args.api.clone(),
            format,
            players: args.players.clamp(2, 256),
            variant: variants[0],
            clock: args.clock,
            think: args.think_ms,
            max_plies: args.max_plies.max(1),
            seed: args.seed,
        });
    }
    let settings = Settings {
        server: args.server,
        transport: if args.ws { Transport::WebSocket } else { Transport::Udp },
        api: args.api.clone(),
        games: args.games.clamp(1, 100_000),
        variants,
        think: args.think_ms,
        max_plies: args.max_plies.max(1),
        duration: Duration::from_secs(args.duration),
        ramp: args.ramp.max(1.0),
        threads: args.threads.clamp(1, 64),
        seed: args.seed,
    };
    let settings = Arc::new(settings);
    let shared = Arc::new(Shared::default());
    let start = Instant::now();
    println!(
        "bots: {} games ({} clients) against {} over {}, think {}-{} ms, at most {} plies, {}",
        settings.games,
        settings.games * 2,
        settings.server,
        if settings.transport == Transport::Udp { "UDP" } else { "WebSocket" },
        settings.think.0,
        settings.think.1,
        settings.max_plies,
        if settings.duration.is_zero() {
            "one game each".to_string()
        } else {
            format!("rematches for {} s", settings.duration.as_secs())
        }
    );
    let handles: Vec<_> = (0..settings.threads)
        .map(|t| {
            let (settings, shared) = (settings.clone(), shared.clone());
            std::thread::spawn(move || worker(t, &settings, &shared, start))
        })
        .collect();
    // Progress every 5 seconds.
    let mut last = (Instant::now(), 0u64, 0usize);
    while !handles.iter().all(|h| h.is_finished()) {
        std::thread::sleep(Duration::from_millis(100));
        if last.0.elapsed() >= Duration::from_secs(5) {
            let moves = shared.moves.load(Ordering::Relaxed);
            let lat = shared.latencies_us.lock().map(|l| l[last.2..].to_vec()).unwrap_or_default();
            let n = last.2 + lat.len();
            println!(
                "  t={:>4.0}s signed in {:>5}, in game {:>5}, moves {:>8} ({:>5.0}/s), completed {:>6}, round trip {}",
                start.elapsed().as_secs_f64(),
                shared.signed_in.load(Ordering::Relaxed),
                shared.in_game.load(Ordering::Relaxed),
                moves,
                (moves - last.1) as f64 / last.0.elapsed().as_secs_f64(),
                shared.completed.load(Ordering::Relaxed),
                percentiles(lat)
            );
            last = (Instant::now(), moves, n);
        }
    }
    for h in handles {
        if h.join().is_err() {
            shared.error("bot thread panicked".into());
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    let latencies = shared.latencies_us.lock().map(|l| l.clone()).unwrap_or_default();
    let moves = shared.moves.load(Ordering::Relaxed);
    println!("completed games: {}", shared.completed.load(Ordering::Relaxed));
    println!("moves: {moves} in {elapsed:.1} s ({:.0}/s)", moves as f64 / elapsed);
    println!("lost moves: {}", shared.lost.load(Ordering::Relaxed));
    println!("reconnects: {}", shared.reconnects.load(Ordering::Relaxed));
    let errors = shared.errors.lock().map(|e| e.clone()).unwrap_or_default();
    let total: u64 = errors.values().sum();
    println!("errors: {total}");
    let mut errors: Vec<_> = errors.into_iter().collect();
    errors.sort();
    for (what, n) in errors {
        println!("  {n} x {what}");
    }
    println!("move round trip ({} samples): {}", latencies.len(), percentiles(latencies));
    Ok(())
}

fn percentiles(mut us: Vec<u32>) -> String {
    if us.is_empty() {
        return "-".to_string();
    }
    us.sort_unstable();
    let at = |q: f64| us[((us.len() - 1) as f64 * q).round() as usize] as f64 / 1000.0;
    format!("p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms", at(0.5), at(0.9), at(0.99), at(1.0))
}

/// Runs the pairs `p` with `p % threads == t`.
fn worker(t: usize, s: &Settings, shared: &Shared, start: Instant) {
    let mut rng = SmallRng::seed_from_u64(s.seed.wrapping_mul(1000).wrapping_add(t as u64));
    let pairs: Vec<usize> = (0..s.games).filter(|p| p % s.threads == t).collect();
    let mut codes: HashMap<usize, String> = HashMap::new();
    let mut bots: Vec<Bot> = Vec::with_capacity(pairs.len() * 2);
    let mut to_start = pairs.iter().flat_map(|&p| [(p, true), (p, false)]).collect::<Vec<_>>().into_iter();
    let mut started = 0usize;
    let stop_at = start + s.duration;
    let mut hard_deadline: Option<Instant> = None;
    loop {
        let now = Instant::now();
        // Ramp up: client k of the whole run starts at k / ramp seconds.
        while let Some(&(pair, host)) = to_start.as_slice().first() {
            let global = pair * 2 + usize::from(!host);
            if now < start + Duration::from_secs_f64(global as f64 / s.ramp) {
                break;
            }
            to_start.next();
            let name = format!("bot{}{}", pair, if host { 'a' } else { 'b' });
            let mut config = ClientConfig::new(s.server, s.transport).nickname(name);
            if let Some(api) = &s.api {
                config = config.api(api.clone());
            }
            match Client::connect(config) {
                Ok(client) => bots.push(Bot {
                    client,
                    pair,
                    host,
                    variant: s.variants[pair % s.variants.len()],
                    game: None,
                    local: None,
                    side: None,
                    pending: None,
                    think_until: None,
                    next_poll: now,
                    joined: false,
                    done: false,
                    signed_in: false,
                    backoff: Backoff::default(),
                    retry_at: None,
                }),
                Err(e) => shared.error(format!("cannot start a client: {e}")),
            }
            started += 1;
        }
        let stopping = s.duration.is_zero() || now >= stop_at;
        for bot in bots.iter_mut().filter(|b| !b.done && b.next_poll <= now) {
            step(bot, s, shared, &mut codes, &mut rng, stopping);
        }
        let all_started = started == pairs.len() * 2;
        if all_started && bots.iter().all(|b| b.done) {
            break;
        }
        // Games still running long after they could have ended: give up on them.
        if stopping && all_started {
            let deadline = *hard_deadline.get_or_insert(now + finish_allowance(s));
            if now >= deadline {
                for b in bots.iter().filter(|b| !b.done) {
                    shared.error(format!(
                        "bot {}{} unfinished at the deadline (game {:?}, ply {:?}, my turn {}, move pending {}, \
                         thinking {}, {:?})",
                        b.pair,
                        if b.host { 'a' } else { 'b' },
                        b.game.map(|g| g.0),
                        b.local.as_ref().map(|g| g.ply()),
                        my_turn(b),
                        b.pending.is_some(),
                        b.think_until.is_some(),
                        b.client.state(),
                    ));
                }
                break;
            }
        }
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    for b in &mut bots {
        b.client.disconnect();
    }
}

/// Time to sign in, open or join a room, and for the last messages, at the start and the end.
const SETUP_ALLOWANCE: Duration = Duration::from_secs(30);
/// Time for one move's round trip on top of the think time, generously (a loaded server or
/// machine, resends after a lost packet).
const MOVE_ALLOWANCE: Duration = Duration::from_secs(1);

/// How long the games still running once every bot has started (or, in a timed run, once the
/// time is up) may take before the bots give up on them: a whole game of `max_plies` moves,
/// each after the longest think time and a round trip; in a timed run each game resigns at its
/// next turn, so two moves at most.
fn finish_allowance(s: &Settings) -> Duration {
    let plies = if s.duration.is_zero() { s.max_plies } else { 2 };
    let per_move = Duration::from_millis(s.think.1) + MOVE_ALLOWANCE;
    let allowance =
        SETUP_ALLOWANCE.saturating_add(per_move.saturating_mul(u32::try_from(plies).unwrap_or(u32::MAX)));
    // `--max-plies` has no upper bound: keep the deadline representable.
    allowance.min(Duration::from_secs(7 * 86_400))
}

fn think(s: &Settings, rng: &mut SmallRng) -> Duration {
    Duration::from_millis(rng.random_range(s.think.0..=s.think.1))
}

fn my_turn(bot: &Bot) -> bool {
    match (&bot.local, bot.side) {
        (Some(g), Some(side)) => !g.is_over() && g.side_to_move() == side,
        _ => false,
    }
}

fn step(
    bot: &mut Bot,
    s: &Settings,
    shared: &Shared,
    codes: &mut HashMap<usize, String>,
    rng: &mut SmallRng,
    stopping: bool,
) {
    let now = Instant::now();
    for message in bot.client.poll() {
        handle(bot, message, s, shared, codes, rng, stopping, now);
    }
    if bot.client.is_disconnected() && !bot.done {
        match bot.retry_at {
            None => {
                shared.error(format!("disconnected: {:?}", bot.client.state()));
                if bot.signed_in {
                    shared.signed_in.fetch_sub(1, Ordering::Relaxed);
                    bot.signed_in = false;
                }
                let at = now + bot.backoff.next(rng.random::<f64>());
                bot.retry_at = Some(at);
                bot.next_poll = at;
            }
            Some(at) if now < at => bot.next_poll = at,
            Some(_) => {
                bot.retry_at = None;
                shared.reconnects.fetch_add(1, Ordering::Relaxed);
                if bot.client.reconnect().is_err() {
                    bot.done = true;
                }
            }
        }
        return;
    }
    // After the end, a bot between two games (its rematch offer unanswered) is done. It leaves
    // its room: if both rematch offers crossed and a new game has just started, leaving resigns
    // it, so that the opponent is not left waiting for a first move that never comes.
    if stopping && !s.duration.is_zero() && bot.local.is_none() && bot.game.is_some() {
        bot.client.send(&ClientMessage::Leave);
        bot.client.flush();
        bot.done = true;
        return;
    }
    // The guest joins once the host's room exists.
    if !bot.host
        && !bot.joined
        && bot.signed_in
        && let Some(code) = codes.get(&bot.pair)
    {
        bot.client.send(&ClientMessage::JoinRoom { code: code.clone() });
        bot.joined = true;
    }
    if my_turn(bot) && bot.pending.is_none() && bot.think_until.is_some_and(|t| now >= t) {
        bot.think_until = None;
        let (Some(game), Some(local)) = (bot.game, bot.local.as_ref()) else {
            return;
        };
        if local.ply() >= s.max_plies || (stopping && !s.duration.is_zero()) {
            bot.client.send(&ClientMessage::Resign { game });
        } else {
            let moves = local.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            let text = local.position().move_to_string(&mv).unwrap_or_default();
            let ply = local.ply() as u32;
            bot.client.send(&ClientMessage::Move { game, ply, mv: text.clone() });
            bot.pending = Some(Pending { ply, mv: text, sent: Instant::now() });
        }
        bot.client.flush();
    }
    // Poll often while a move is on its way, seldom otherwise.
    bot.next_poll = if bot.pending.is_some() {
        now
    } else {
        let idle = now + Duration::from_millis(20);
        match bot.think_until {
            Some(t) if t < idle => t,
            _ => idle,
        }
    };
}

fn handle(
    bot: &mut Bot,
    message: ServerMessage,
    s: &Settings,
    shared: &Shared,
    codes: &mut HashMap<usize, String>,
    rng: &mut SmallRng,
    stopping: bool,
    now: Instant,
) {
    match message {
        ServerMessage::Welcome { .. } => {
            bot.backoff.reset();
            if !bot.signed_in {
                bot.signed_in = true;
                shared.signed_in.fetch_add(1, Ordering::Relaxed);
            }
            if bot.host && bot.game.is_none() && !bot.joined {
                bot.client.send(&ClientMessage::OpenRoom {
                    variant: bot.variant,
                    clock: None,
                    public: true,
                    rated: false,
                });
                bot.joined = true;
            }
        }
        ServerMessage::RoomOpened { code, .. } => {
            codes.insert(bot.pair, code);
        }
        ServerMessage::Game(view) => {
            let local = match view.replay() {
                Ok(g) => g,
                Err(e) => {
                    shared.error(format!("unreadable game view: {e}"));
                    return;
                }
            };
            if bot.game != Some(view.game) {
                if bot.host {
                    shared.in_game.fetch_add(1, Ordering::Relaxed);
                }
            } else if let Some(p) = &bot.pending {
                // Back after a reconnection: the pending move either made it or not.
                if (p.ply as usize) < local.ply() {
                    bot.pending = None;
                } else {
                    shared.lost.fetch_add(1, Ordering::Relaxed);
                    bot.pending = None;
                }
            }
            bot.game = Some(view.game);
            bot.side = match view.role {
                Role::Player(side) => Some(side),
                Role::Spectator => None,
            };
            bot.local = Some(local);
            if my_turn(bot) {
                bot.think_until = Some(now + think(s, rng));
            }
        }
        ServerMessage::MovePlayed { game, ply, mv, .. } if Some(game) == bot.game => {
            let Some(local) = bot.local.as_mut() else {
                return;
            };
            if ply as usize != local.ply() {
                shared.lost.fetch_add(1, Ordering::Relaxed);
                shared.error(format!("move {ply} arrived at ply {}", local.ply()));
                return;
            }
            if let Err(e) = local.play_str(&mv) {
                shared.error(format!("server move {mv} does not replay: {e}"));
                return;
            }
            if let Some(p) = bot.pending.take() {
                if p.ply == ply && p.mv == mv {
                    let us = p.sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                    if let Ok(mut l) = shared.latencies_us.lock() {
                        l.push(us);
                    }
                    shared.moves.fetch_add(1, Ordering::Relaxed);
                } else {
                    shared.lost.fetch_add(1, Ordering::Relaxed);
                    shared.error("another move took the place of ours".into());
                }
            }
            if my_turn(bot) {
                bot.think_until = Some(now + think(s, rng));
            }
        }
        ServerMessage::GameOver { game, archive, .. } if Some(game) == bot.game => {
            if let Some(local) = &bot.local
                && archive.record.moves != local.move_strings()
            {
                shared.lost.fetch_add(1, Ordering::Relaxed);
                shared.error("archived record differs from the moves seen".into());
            }
            if bot.pending.take().is_some() {
                shared.lost.fetch_add(1, Ordering::Relaxed);
            }
            if bot.host {
                shared.completed.fetch_add(1, Ordering::Relaxed);
                shared.in_game.fetch_sub(1, Ordering::Relaxed);
            }
            bot.local = None;
            bot.think_until = None;
            if stopping {
                bot.done = true;
            } else {
                bot.client.send(&ClientMessage::Rematch { game });
            }
        }
        ServerMessage::Error { code, message } => shared.error(format!("server: {code:?}: {message}")),
        ServerMessage::Incompatible { message, .. } => {
            shared.error(format!("incompatible: {message}"));
            shared.stop.store(true, Ordering::Relaxed);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(think: (u64, u64), max_plies: usize, duration: u64) -> Settings {
        Settings {
            server: SocketAddr::from(([127, 0, 0, 1], 5000)),
            transport: Transport::Udp,
            api: None,
            games: 1000,
            variants: Variant::ALL.to_vec(),
            think,
            max_plies,
            duration: Duration::from_secs(duration),
            ramp: 400.0,
            threads: 1,
            seed: 1,
        }
    }

    #[test]
    fn the_deadline_leaves_room_for_the_longest_game() {
        // Defaults: 80 plies, each after at most 1.5 s of thought.
        let longest_game = Duration::from_millis(1500) * 80;
        assert!(finish_allowance(&settings((500, 1500), 80, 0)) > longest_game);
        assert!(finish_allowance(&settings((0, 60_000), 400, 0)) > Duration::from_secs(60 * 400));
        // A timed run: games resign at their next turn.
        assert!(finish_allowance(&settings((500, 1500), 80, 60)) < Duration::from_secs(60));
        // Huge bounds do not overflow.
        assert_eq!(finish_allowance(&settings((0, 600_000), usize::MAX, 0)), Duration::from_secs(7 * 86_400));
    }

    #[test]
    fn reconnections_back_off_exponentially_with_a_cap_and_jitter() {
        let mut b = Backoff::default();
        let (low, high): (Vec<Duration>, Vec<Duration>) = (0..6)
            .map(|_| {
                let mut copy = Backoff { failures: b.failures };
                (copy.next(0.0), b.next(0.999_999))
            })
            .unzip();
        let secs = |v: &[Duration]| v.iter().map(|d| d.as_secs_f64().round() as u64).collect::<Vec<_>>();
        assert_eq!(secs(&high), [1, 2, 4, 8, 8, 8], "doubling to the cap");
        assert_eq!(
            low.iter().map(Duration::as_millis).collect::<Vec<_>>(),
            [500, 1000, 2000, 4000, 4000, 4000]
        );
        b.reset();
        assert_eq!(b.next(0.0), Duration::from_millis(500), "a sign-in starts it over");
        // A server that refuses at once for 80 s (simulated time): a few attempts, not
        // thousands.
        let mut rng = SmallRng::seed_from_u64(7);
        let (mut b, mut now, mut attempts) = (Backoff::default(), Duration::ZERO, 0);
        while now < Duration::from_secs(80) {
            now += b.next(rng.random::<f64>());
            attempts += 1;
        }
        assert!((10..=25).contains(&attempts), "{attempts} attempts in 80 s");
    }
}
