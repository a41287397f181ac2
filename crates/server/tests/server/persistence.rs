//! Dropped connections, held seats, and a server killed mid-game: no move is ever lost.

use crate::common::*;
use crate::play::{play_out_from, start_game};
use ludus_protocol::client::{ClientConfig, Transport};
use ludus_protocol::{ClientMessage, ClockSpec, ErrorCode, GameId, Role, ServerMessage, SessionToken};
use ludus_rules::{AnyGame, Outcome, Reason, Side, Variant};
use ludus_server::core::Limits;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub fn rejoin(addr: SocketAddr, transport: Transport, token: SessionToken, name: &str) -> TestClient {
    rejoin_with(config(addr, transport).token(Some(token)), name)
}

/// [`rejoin`] with a chosen configuration (its credential set).
fn rejoin_with(config: ClientConfig, name: &str) -> TestClient {
    let mut c = TestClient::connect_with(config, name);
    let resumed = c.expect("welcome", |m| match m {
        ServerMessage::Welcome { resumed, .. } => Some(*resumed),
        _ => None,
    });
    assert!(resumed, "{name} was not recognised");
    c
}

fn expect_connection(c: &mut TestClient, side: Side, connected: bool) {
    c.expect(&format!("{side:?} connected={connected}"), |m| match m {
        ServerMessage::PlayerConnection { side: s, connected: k, .. } if *s == side && *k == connected => {
            Some(())
        }
        _ => None,
    });
}

/// Plays `n` moves of a local replica (index 0 = First).
pub fn play_moves(players: &mut [TestClient; 2], game: GameId, local: &mut AnyGame, n: usize) {
    for _ in 0..n {
        let ply = local.ply() as u32;
        let mv = local.legal_moves()[ply as usize % local.legal_moves().len()];
        let text = local.position().move_to_string(&mv).unwrap();
        let side = local.side_to_move().index();
        players[side].send(ClientMessage::Move { game, ply, mv: text });
        local.play(&mv).unwrap();
        for p in players.iter_mut() {
            p.expect_move(game, ply);
        }
    }
}

#[test]
fn a_dropped_client_takes_back_its_seat() {
    dropped_client_takes_back_its_seat(server(&data_dir("reconnect")));
}

#[test]
fn a_dropped_client_takes_back_its_seat_postgres() {
    if let Some((_pg, url)) = postgres("a_dropped_client_takes_back_its_seat_postgres") {
        dropped_client_takes_back_its_seat(server_on(
            &data_dir("reconnect-pg"),
            Limits::default(),
            Some(url),
        ));
    }
}

fn dropped_client_takes_back_its_seat(server: ludus_server::ServerHandle) {
    let (udp, ws) = (server.udp_addr().unwrap(), server.ws_addr().unwrap());
    let mut a = TestClient::signed_in(udp, Transport::Udp, "Ann");
    let mut b = TestClient::signed_in(udp, Transport::Udp, "Ben");
    let (view, first) = start_game(&mut a, &mut b, Variant::LatrunculiQuick, None);
    let game = view.game;
    let mut players = if first == 0 { [a, b] } else { [b, a] };
    let mut local = AnyGame::new(Variant::LatrunculiQuick);
    play_moves(&mut players, game, &mut local, 3);

    // First disconnects cleanly and comes back over WebSocket.
    let [p0, mut p1] = players;
    let token = p0.token();
    let name = p0.name.clone();
    drop(p0);
    expect_connection(&mut p1, Side::First, false);
    let mut p0 = rejoin(ws, Transport::WebSocket, token, &name);
    let v = p0.expect_game();
    assert_eq!(v.role, Role::Player(Side::First));
    assert_eq!(v.moves, local.move_strings());
    assert!(v.players[0].connected && v.players[1].connected);
    expect_connection(&mut p1, Side::First, true);
    let mut players = [p0, p1];
    play_moves(&mut players, game, &mut local, 2);

    // Signing in again elsewhere closes the older connection and moves the seat. The new
    // connection has a short netcode timeout: it is the one that vanishes next.
    let [mut p0, p1] = players;
    let token = p1.token();
    let name = p1.name.clone();
    let short = config(udp, Transport::Udp).token(Some(token.clone())).timeout(Duration::from_secs(2));
    let mut p1b = rejoin_with(short, &name);
    let mut p1 = p1;
    p1.expect_error(ErrorCode::SignedInElsewhere);
    assert_eq!(p1b.expect_game().role, Role::Player(Side::Second));
    drop(p1);

    // Second vanishes without a word (a crash): the server notices by the timeout.
    p1b.client.vanish();
    expect_connection(&mut p0, Side::Second, false);
    let mut p1 = rejoin(ws, Transport::WebSocket, token, &name);
    assert_eq!(p1.expect_game().moves, local.move_strings());
    expect_connection(&mut p0, Side::Second, true);
    let mut players = [p0, p1];
    play_moves(&mut players, game, &mut local, 2);
}

#[test]
fn an_abandoned_seat_loses_the_game() {
    abandoned_seat_loses(&data_dir("abandon"), None);
}

#[test]
fn an_abandoned_seat_loses_the_game_postgres() {
    if let Some((_pg, url)) = postgres("an_abandoned_seat_loses_the_game_postgres") {
        abandoned_seat_loses(&data_dir("abandon-pg"), Some(url));
    }
}

fn abandoned_seat_loses(dir: &Path, database: Option<String>) {
    let limits = Limits { seat_hold: Duration::from_millis(500), ..Limits::default() };
    let server = server_on(dir, limits, database);
    let udp = server.udp_addr().unwrap();
    let mut a = TestClient::signed_in(udp, Transport::Udp, "Ann");
    let mut b = TestClient::signed_in(udp, Transport::Udp, "Ben");
    let (view, first) = start_game(&mut a, &mut b, Variant::Alquerque, None);
    // First stays, Second leaves.
    let (stay, leave) = if first == 0 { (&mut a, b) } else { (&mut b, a) };
    let leaver_side = Side::Second;
    drop(leave);
    let (game, outcome) = stay.expect("game over", |m| match m {
        ServerMessage::GameOver { game, outcome, .. } => Some((*game, *outcome)),
        _ => None,
    });
    assert_eq!(game, view.game);
    assert_eq!(outcome, Outcome::win(leaver_side.opponent(), Reason::Abandoned));
}

/// The `ludus-server` binary running as a child process (killed when dropped).
pub struct Spawned {
    pub child: Child,
    pub udp: SocketAddr,
    pub ws: SocketAddr,
}

/// Runs the binary with its data in `dir`, and its database in PostgreSQL when given.
pub fn spawn_binary(dir: &Path, database: Option<&str>) -> Spawned {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ludus-server"));
    command.args(["--udp", "127.0.0.1:0", "--ws", "127.0.0.1:0", "--data"]).arg(dir);
    if let Some(url) = database {
        command.args(["--database", url]);
    }
    let mut child =
        command.stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().expect("ludus-server starts");
    let stdout = child.stdout.take().unwrap();
    let mut reader = BufReader::new(stdout);
    let mut line = String::new();
    reader.read_line(&mut line).expect("first line");
    // Keep reading so that the server never writes to a closed pipe.
    std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
    let field = |name: &str| -> SocketAddr {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(&format!("{name}=")))
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in {line:?}"))
    };
    register_ws(field("ws"), field("http"));
    Spawned { udp: field("udp"), ws: field("ws"), child }
}

impl Drop for Spawned {
    /// A failed test leaves no server running.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn killed_server_restarts_with_every_move() {
    killed_server_restarts(&data_dir("restart"), None);
}

#[test]
fn killed_server_restarts_with_every_move_postgres() {
    if let Some((_pg, url)) = postgres("killed_server_restarts_with_every_move_postgres") {
        killed_server_restarts(&data_dir("restart-pg"), Some(&url));
    }
}

fn killed_server_restarts(dir: &Path, database: Option<&str>) {
    let mut server = spawn_binary(dir, database);
    let mut a = TestClient::signed_in(server.udp, Transport::Udp, "Ann");
    let mut b = TestClient::signed_in(server.ws, Transport::WebSocket, "Ben");
    let mut s = TestClient::signed_in(server.udp, Transport::Udp, "Sam");
    let clock = ClockSpec { initial_ms: 600_000, increment_ms: 2000 };
    let (view, first) = start_game(&mut a, &mut b, Variant::LatrunculiQuick, Some(clock));
    let game = view.game;
    s.send(ClientMessage::Watch { game });
    s.expect_game();
    let mut players = if first == 0 { [a, b] } else { [b, a] };
    let mut local = AnyGame::new(Variant::LatrunculiQuick);
    play_moves(&mut players, game, &mut local, 6);
    // A proposal at ply 6, kept through the restart once the ply is played.
    let ply = local.ply() as u32;
    let proposed = local.position().move_to_string(&local.legal_moves()[0]).unwrap();
    s.send(ClientMessage::Propose { game, ply, mv: proposed.clone() });
    s.sync();
    play_moves(&mut players, game, &mut local, 1);
    s.expect_move(game, ply);
    let clocks_before = players[0].expect_game_or_clocks(game);

    // kill -9 in the middle of the game.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let tokens = [players[0].token(), players[1].token()];
    let names = [players[0].name.clone(), players[1].name.clone()];
    drop(players);
    drop(s);

    let mut server = spawn_binary(dir, database);
    let mut p0 = rejoin(server.udp, Transport::Udp, tokens[0].clone(), &names[0]);
    let mut p1 = rejoin(server.ws, Transport::WebSocket, tokens[1].clone(), &names[1]);
    for (p, side) in [(&mut p0, Side::First), (&mut p1, Side::Second)] {
        let v = p.expect_game();
        assert_eq!(v.game, game);
        assert_eq!(v.role, Role::Player(side));
        assert_eq!(v.moves, local.move_strings(), "every move survives the kill");
        let clocks = v.clocks.expect("clocks survive");
        // The clocks are as after the last move (the downtime is not charged): the running
        // clock lost at most the time until the kill, bounded here as [`WAIT`] times three.
        assert_eq!(clocks.remaining_ms[0], clocks_before[0]);
        let window = 3 * WAIT.as_millis() as u32;
        assert!(
            clocks.remaining_ms[1] <= clocks_before[1] && clocks.remaining_ms[1] + window > clocks_before[1],
            "{clocks:?} after {clocks_before:?}"
        );
    }
    let mut watcher = TestClient::signed_in(server.udp, Transport::Udp, "Sue");
    watcher.send(ClientMessage::Watch { game });
    assert_eq!(watcher.expect_game().moves.len(), local.ply());
    let local = play_out_from(local, [&mut p0, &mut p1], &mut [&mut watcher], game, 11, 400);
    // Finish it if the random game is still running.
    if !local.is_over() {
        p0.send(ClientMessage::Resign { game });
    }
    let archive = p1.expect("game over", |m| match m {
        ServerMessage::GameOver { archive, .. } => Some(archive.clone()),
        _ => None,
    });
    assert_eq!(archive.record.moves, local.move_strings());
    assert_eq!(archive.proposals.len(), 1);
    assert_eq!(archive.proposals[0].ply, ply);
    assert_eq!(archive.proposals[0].proposals[0].mv, proposed);
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}

trait ClocksOf {
    fn expect_game_or_clocks(&mut self, game: GameId) -> [u32; 2];
}

impl ClocksOf for TestClient {
    /// The clocks after the last move seen.
    fn expect_game_or_clocks(&mut self, game: GameId) -> [u32; 2] {
        let clocks = self.log.iter().rev().find_map(|m| match m {
            ServerMessage::MovePlayed { game: g, clocks: Some(c), .. } if *g == game => Some(*c),
            _ => None,
        });
        let c = clocks.expect("a move with clocks");
        // The running side's time as of that message, plus the stopped side's.
        c.remaining_ms
    }
}

/// Sends SIGTERM to a child process.
#[cfg(unix)]
fn terminate(child: &Child) {
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill runs");
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn sigterm_mid_game_stops_cleanly_and_every_move_survives() {
    sigterm_mid_game(&data_dir("sigterm"), None);
}

#[cfg(unix)]
#[test]
fn sigterm_mid_game_stops_cleanly_and_every_move_survives_postgres() {
    if let Some((_pg, url)) = postgres("sigterm_mid_game_stops_cleanly_and_every_move_survives_postgres") {
        sigterm_mid_game(&data_dir("sigterm-pg"), Some(&url));
    }
}

#[cfg(unix)]
fn sigterm_mid_game(dir: &Path, database: Option<&str>) {
    let mut server = spawn_binary(dir, database);
    let a = TestClient::signed_in(server.udp, Transport::Udp, "Ann");
    let b = TestClient::signed_in(server.ws, Transport::WebSocket, "Ben");
    let (mut a, mut b) = (a, b);
    let (view, first) = start_game(&mut a, &mut b, Variant::Alquerque, None);
    let game = view.game;
    let mut players = if first == 0 { [a, b] } else { [b, a] };
    let mut local = AnyGame::new(Variant::Alquerque);
    play_moves(&mut players, game, &mut local, 6);
    // One more move sent, and SIGTERM right behind it: the move is either stored and seen by
    // both players, or neither.
    let ply = local.ply() as u32;
    let mv = local.legal_moves()[0];
    let text = local.position().move_to_string(&mv).unwrap();
    players[local.side_to_move().index()].send(ClientMessage::Move { game, ply, mv: text });
    terminate(&server.child);
    // Both players are told that the server restarts, then the connection drops.
    for p in &mut players {
        p.expect("restarting", |m| matches!(m, ServerMessage::Restarting).then_some(()));
    }
    let deadline = std::time::Instant::now() + WAIT;
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(std::time::Instant::now() < deadline, "the server did not stop within {WAIT:?}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "exit status {status:?}");
    let seen =
        players[0].log.iter().any(|m| matches!(m, ServerMessage::MovePlayed { ply: p, .. } if *p == ply));
    if seen {
        local.play(&mv).unwrap();
    }
    let tokens = [players[0].token(), players[1].token()];
    drop(players);

    let server = spawn_binary(dir, database);
    let mut p0 = rejoin(server.udp, Transport::Udp, tokens[0].clone(), "Ann");
    let v = p0.expect_game();
    assert_eq!(v.game, game);
    assert_eq!(v.moves, local.move_strings(), "every move seen before the stop is stored, and only those");
    let mut server = server;
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}

/// A database of the previous version (credentials in clear in `players.token`) is migrated at
/// start: the credentials are hashed, the players keep them, the live game is still there.
#[test]
fn old_database_is_migrated() {
    let dir = data_dir("migrate");
    let server = server(&dir);
    let udp = server.udp_addr().unwrap();
    let mut a = TestClient::signed_in(udp, Transport::Udp, "Ann");
    let mut b = TestClient::signed_in(udp, Transport::Udp, "Ben");
    let (view, _) = start_game(&mut a, &mut b, Variant::Alquerque, None);
    let tokens = [a.token(), b.token()];
    drop((a, b));
    server.stop();
    // Back to the old layout: plaintext credentials in `token`, no hash columns.
    {
        let db = rusqlite::Connection::open(dir.join("ludus.sqlite3")).unwrap();
        db.execute_batch(
            "DROP INDEX IF EXISTS players_prev;
             ALTER TABLE players DROP COLUMN prev_hash;
             ALTER TABLE players DROP COLUMN last_seen_ms;
             ALTER TABLE players RENAME COLUMN token_hash TO token;",
        )
        .unwrap();
        for (name, SessionToken(token)) in ["Ann", "Ben"].iter().zip(&tokens) {
            db.execute("UPDATE players SET token = ?1 WHERE nickname = ?2", [token.as_str(), name]).unwrap();
        }
    }
    let server = server_with(&dir, Limits::default());
    let udp = server.udp_addr().unwrap();
    for (name, token) in ["Ann", "Ben"].iter().zip(&tokens) {
        let mut p = rejoin(udp, Transport::Udp, token.clone(), name);
        assert_eq!(p.expect_game().game, view.game, "{name} is back in the game");
    }
    server.stop();
    let db = rusqlite::Connection::open(dir.join("ludus.sqlite3")).unwrap();
    let stored: Vec<String> = db
        .prepare("SELECT token_hash FROM players")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(stored.len(), 2);
    for SessionToken(token) in &tokens {
        assert!(!stored.contains(token), "a credential stored in clear");
    }
}

/// An unreachable database at start is a clear error and exit code 1 (the password not shown).
#[test]
fn unreachable_database_at_start_exits_with_code_1() {
    let (_held, port) = silent_port();
    let dir = data_dir("unreachable-db");
    let out = Command::new(env!("CARGO_BIN_EXE_ludus-server"))
        .args(["--udp", "127.0.0.1:0", "--ws", "none", "--data"])
        .arg(&dir)
        .args(["--database", &format!("postgres://ludus:hunter2@127.0.0.1:{port}/ludus")])
        .env("RUST_LOG", "error")
        .stdin(Stdio::null())
        .output()
        .expect("ludus-server runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("postgres://ludus:***@127.0.0.1:{port}/ludus")), "{err}");
    assert!(!err.contains("hunter2"), "{err}");
    assert!(out.stdout.is_empty(), "no listening line");
}
