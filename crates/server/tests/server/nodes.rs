//! Several `ludus-server` nodes (the binary, as child processes) on one PostgreSQL database
//! started by the test: the lobby of every node, a room code created on one node and joined
//! from another, a spectator on a third, a quick match between players on two nodes, and
//! `kill -9` of the node that owns a game mid-game: the game finishes on another node with
//! every move. Skipped (with a message) without PostgreSQL's binaries.

use crate::common::*;
use crate::persistence::play_moves;
use ludus_protocol::client::Transport;
use ludus_protocol::{ClientMessage, GameView, Role, ServerMessage, SessionToken};
use ludus_rules::{AnyGame, Variant};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Longest wait for a failover: the lease (2 s), the takeover, the clients' retries.
const FAILOVER_WAIT: Duration = Duration::from_secs(30);
/// The lease of the nodes whose games must move when a node dies or loses its database.
const FAILOVER_LEASE_MS: &str = "2000";
/// The lease of the nodes of the other tests: no stall of a loaded machine makes it lapse.
const LONG_LEASE_MS: &str = "60000";

/// A node: the binary as a child process (killed when dropped).
struct Node {
    child: Child,
    udp: SocketAddr,
    ws: SocketAddr,
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The netcode key all the nodes share (connect tokens of any node open any node).
fn key_file(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("shared.key");
    std::fs::write(&path, "5a".repeat(32)).unwrap();
    path
}

fn node(dir: &Path, url: &str, name: &str, key: &Path) -> Node {
    node_with(dir, url, name, key, LONG_LEASE_MS)
}

fn node_with(dir: &Path, url: &str, name: &str, key: &Path, lease_ms: &str) -> Node {
    let data = dir.join(name);
    std::fs::create_dir_all(&data).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus-server"))
        .args(["--udp", "127.0.0.1:0", "--ws", "127.0.0.1:0", "--new-players-per-minute", "0"])
        .args(["--database", url, "--node-name", name, "--lease-ms", lease_ms])
        .arg("--data")
        .arg(&data)
        .arg("--key-file")
        .arg(key)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("ludus-server starts");
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).expect("first line");
    std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
    let field = |f: &str| -> SocketAddr {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(&format!("{f}=")))
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no {f} in {line:?}"))
    };
    register_ws(field("ws"), field("http"));
    Node { udp: field("udp"), ws: field("ws"), child }
}

/// Waits up to `limit` for a message for which `pick` returns something; a client following a
/// redirect may be disconnected meanwhile (it goes back to the node that sent it).
fn wait_for<T>(
    c: &mut TestClient,
    what: &str,
    limit: Duration,
    mut pick: impl FnMut(&ServerMessage) -> Option<T>,
) -> T {
    let deadline = Instant::now() + limit;
    loop {
        while let Some(m) = c.inbox.pop_front() {
            if let Some(t) = pick(&m) {
                return t;
            }
        }
        assert!(Instant::now() < deadline, "{}: no {what} within {limit:?}; log: {:?}", c.name, c.log);
        assert!(
            !c.client.is_disconnected() || c.client.is_redirecting(),
            "{}: disconnected ({:?}) while waiting for {what}",
            c.name,
            c.client.state()
        );
        std::thread::sleep(Duration::from_millis(2));
        c.pump();
    }
}

fn game_view(c: &mut TestClient, limit: Duration) -> GameView {
    wait_for(c, "game view", limit, |m| match m {
        ServerMessage::Game(v) => Some(v.clone()),
        _ => None,
    })
}

fn redirected(c: &mut TestClient) -> String {
    wait_for(c, "redirect", WAIT, |m| match m {
        ServerMessage::Redirect(r) => Some(r.node.clone()),
        _ => None,
    })
}

/// Asks `c`'s node for the lobby until `found` picks something from it (the other nodes'
/// lobbies reach it within a few hundred milliseconds).
fn lobby_until<T>(c: &mut TestClient, mut found: impl FnMut(&ludus_protocol::LobbyView) -> Option<T>) -> T {
    let deadline = Instant::now() + WAIT;
    loop {
        c.send(ClientMessage::Lobby);
        let lobby = c.expect("lobby", |m| match m {
            ServerMessage::Lobby(l) => Some(l.clone()),
            _ => None,
        });
        if let Some(t) = found(&lobby) {
            return t;
        }
        assert!(Instant::now() < deadline, "{}: the lobby never showed it: {lobby:?}", c.name);
        c.idle(Duration::from_millis(20));
    }
}

fn pg(test: &str) -> Option<(ludus_pg_harness::TestPostgres, String)> {
    postgres(test)
}

/// A public room opened on node a is listed by node b and joined from there (the client is
/// redirected to a with its credential); a spectator on node c finds the game in c's lobby,
/// is redirected to a, sees every move and proposes; the proposal is in the archive.
#[test]
fn room_joined_from_another_node_and_watched_from_a_third() {
    let Some((_pg, url)) = pg("nodes_room") else { return };
    let dir = data_dir("nodes-room");
    let key = key_file(&dir);
    let [a, b, c] = ["a", "b", "c"].map(|n| node(&dir, &url, n, &key));
    let mut ann = TestClient::signed_in(a.udp, Transport::Udp, "Ann");
    let mut ben = TestClient::signed_in(b.ws, Transport::WebSocket, "Ben");
    let mut sam = TestClient::signed_in(c.udp, Transport::Udp, "Sam");
    let ben_id = ben.client.player().unwrap();
    ann.send(ClientMessage::OpenRoom {
        variant: Variant::Alquerque,
        clock: None,
        public: true,
        rated: false,
    });
    let code = ann.expect("room", |m| match m {
        ServerMessage::RoomOpened { code, .. } => Some(code.clone()),
        _ => None,
    });
    // Node b lists node a's room.
    lobby_until(&mut ben, |l| l.rooms.iter().any(|r| r.code == code && r.host == "Ann").then_some(()));
    ben.send(ClientMessage::JoinRoom { code: code.clone() });
    assert_eq!(redirected(&mut ben), "a");
    let vb = game_view(&mut ben, WAIT);
    let va = ann.expect_game();
    assert_eq!(va.game, vb.game);
    assert_eq!(ben.client.player(), Some(ben_id), "Ben kept his player on node a");
    assert_eq!(ben.client.config().server.port(), a.ws.port(), "Ben is on node a now");
    let game = va.game;
    // Sue on node b asks for the game by number at once: listed there already or not, node b
    // finds its node (in the database if need be) and sends her there.
    let mut sue = TestClient::signed_in(b.udp, Transport::Udp, "Sue");
    sue.send(ClientMessage::Watch { game });
    assert_eq!(redirected(&mut sue), "a");
    assert_eq!(game_view(&mut sue, WAIT).game, game);
    // Node c lists the game; Sam watches it from there.
    lobby_until(&mut sam, |l| l.games.iter().any(|g| g.game == game).then_some(()));
    sam.send(ClientMessage::Watch { game });
    assert_eq!(redirected(&mut sam), "a");
    let vs = game_view(&mut sam, WAIT);
    assert_eq!((vs.game, vs.role), (game, Role::Spectator));
    let mut local = AnyGame::new(Variant::Alquerque);
    let first = if va.role == Role::Player(ludus_rules::Side::First) { 0 } else { 1 };
    let mut players = if first == 0 { [ann, ben] } else { [ben, ann] };
    play_moves(&mut players, game, &mut local, 3);
    for ply in 0..3 {
        sam.expect_move(game, ply);
    }
    let ply = local.ply() as u32;
    let proposed = local.position().move_to_string(&local.legal_moves()[0]).unwrap();
    sam.send(ClientMessage::Propose { game, ply, mv: proposed.clone() });
    sam.sync();
    play_moves(&mut players, game, &mut local, 1);
    sam.expect_move(game, ply);
    players[0].send(ClientMessage::Resign { game });
    let archive = sam.expect("game over", |m| match m {
        ServerMessage::GameOver { archive, .. } => Some(archive.clone()),
        _ => None,
    });
    assert_eq!(archive.record.moves, local.move_strings());
    assert_eq!(archive.proposals.len(), 1);
    assert_eq!((archive.proposals[0].ply, archive.proposals[0].proposals[0].mv.clone()), (ply, proposed));
}

/// Two players asking for a quick match on two nodes are paired: the one on node b is handed
/// over to node a, where the other waits.
#[test]
fn quick_match_pairs_players_on_different_nodes() {
    let Some((_pg, url)) = pg("nodes_match") else { return };
    let dir = data_dir("nodes-match");
    let key = key_file(&dir);
    let [a, b] = ["a", "b"].map(|n| node(&dir, &url, n, &key));
    let mut ann = TestClient::signed_in(a.udp, Transport::Udp, "Ann");
    let mut ben = TestClient::signed_in(b.udp, Transport::Udp, "Ben");
    let find = ClientMessage::FindMatch { variant: Variant::Alquerque, clock: None, rated: false };
    ann.send(find.clone());
    ann.expect("queued", |m| matches!(m, ServerMessage::Queued { .. }).then_some(()));
    ben.send(find);
    assert_eq!(redirected(&mut ben), "a");
    let vb = game_view(&mut ben, WAIT);
    let va = ann.expect_game();
    assert_eq!(va.game, vb.game);
    assert_ne!(va.role, vb.role);
    assert_eq!(ben.client.config().server.port(), a.udp.port());
    drop(b);
}

/// `kill -9` of the node that owns a game mid-game: once its lease is over another node takes
/// the game over with every move; the players reconnect through the two other nodes (one is
/// sent to the new owner) into their seats, and the game finishes there with every move.
#[test]
fn killed_node_game_finishes_on_another_node_with_every_move() {
    let Some((_pg, url)) = pg("nodes_failover") else { return };
    let dir = data_dir("nodes-failover");
    let key = key_file(&dir);
    let [mut a, b, c] = ["a", "b", "c"].map(|n| node_with(&dir, &url, n, &key, FAILOVER_LEASE_MS));
    let mut ann = TestClient::signed_in(a.udp, Transport::Udp, "Ann");
    let mut ben = TestClient::signed_in(a.ws, Transport::WebSocket, "Ben");
    let (view, first) = crate::play::start_game(&mut ann, &mut ben, Variant::Alquerque, None);
    let game = view.game;
    let mut players = if first == 0 { [ann, ben] } else { [ben, ann] };
    let mut local = AnyGame::new(Variant::Alquerque);
    play_moves(&mut players, game, &mut local, 6);
    let tokens: Vec<SessionToken> = players.iter().map(|p| p.token()).collect();
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    drop(players);
    // First through node b, Second through node c: whichever node takes the game over, one of
    // them is sent there.
    let mut p0 =
        TestClient::connect_with(config(b.udp, Transport::Udp).token(Some(tokens[0].clone())), &names[0]);
    let mut p1 = TestClient::connect_with(
        config(c.ws, Transport::WebSocket).token(Some(tokens[1].clone())),
        &names[1],
    );
    for (p, side) in [(&mut p0, ludus_rules::Side::First), (&mut p1, ludus_rules::Side::Second)] {
        let v = game_view(p, FAILOVER_WAIT);
        assert_eq!((v.game, v.role), (game, Role::Player(side)));
        assert_eq!(v.moves, local.move_strings(), "every move survives the kill");
    }
    // Both on the node that owns the game now.
    let node_of_p0 = if p0.client.config().server == b.udp { "b" } else { "c" };
    let node_of_p1 = if p1.client.config().server == c.ws { "c" } else { "b" };
    assert_eq!(node_of_p0, node_of_p1, "the players are on the game's node");
    let mut players = [p0, p1];
    play_moves(&mut players, game, &mut local, 4);
    players[1].send(ClientMessage::Resign { game });
    let archive = players[0].expect("game over", |m| match m {
        ServerMessage::GameOver { archive, .. } => Some(archive.clone()),
        _ => None,
    });
    assert_eq!(archive.record.moves, local.move_strings(), "the game finished with every move");
    assert_eq!(archive.record.moves.len(), 10);
}

/// A TCP relay to PostgreSQL that the test can cut (every connection closed, new ones refused)
/// and restore: one node loses its database while the others keep it.
struct Relay {
    port: u16,
    cut: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Relay {
    fn start(target: SocketAddr) -> Relay {
        use std::sync::atomic::{AtomicBool, Ordering};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let cut = std::sync::Arc::new(AtomicBool::new(false));
        let thread_cut = cut.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(client) = stream else { continue };
                if thread_cut.load(Ordering::Acquire) {
                    continue; // Dropped at once: refused.
                }
                let Ok(server) = std::net::TcpStream::connect(target) else { continue };
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server.try_clone().unwrap(), client.try_clone().unwrap()),
                ] {
                    let cut = thread_cut.clone();
                    std::thread::spawn(move || {
                        use std::io::{Read, Write};
                        from.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
                        let mut buf = [0u8; 16 * 1024];
                        loop {
                            if cut.load(Ordering::Acquire) {
                                let _ = from.shutdown(std::net::Shutdown::Both);
                                let _ = to.shutdown(std::net::Shutdown::Both);
                                return;
                            }
                            match from.read(&mut buf) {
                                Ok(0) => {
                                    let _ = to.shutdown(std::net::Shutdown::Write);
                                    return;
                                }
                                Ok(n) => {
                                    if to.write_all(&buf[..n]).is_err() {
                                        return;
                                    }
                                }
                                Err(e)
                                    if matches!(
                                        e.kind(),
                                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                                    ) => {}
                                Err(_) => return,
                            }
                        }
                    });
                }
            }
        });
        Relay { port, cut }
    }

    fn set_cut(&self, cut: bool) {
        self.cut.store(cut, std::sync::atomic::Ordering::Release);
    }
}

/// A node whose database goes away while it runs (the relay to PostgreSQL cut): it takes no
/// new game and says so; its game moves to a node that still has the database and finishes
/// there with every move; once the database is back, the node finds its lease lost and stops
/// with exit code 1.
#[test]
fn a_node_that_loses_its_database_takes_no_games_and_its_games_move() {
    let Some((_pg, url)) = pg("nodes_db_lost") else { return };
    let dir = data_dir("nodes-db-lost");
    let key = key_file(&dir);
    let pg_port: u16 = url.rsplit(':').next().and_then(|r| r.split('/').next()).unwrap().parse().unwrap();
    let relay = Relay::start(SocketAddr::from(([127, 0, 0, 1], pg_port)));
    let relayed = url.replace(&format!(":{pg_port}/"), &format!(":{}/", relay.port));
    let mut a = node_with(&dir, &relayed, "a", &key, FAILOVER_LEASE_MS);
    let b = node_with(&dir, &url, "b", &key, FAILOVER_LEASE_MS);
    let mut ann = TestClient::signed_in(a.udp, Transport::Udp, "Ann");
    let mut ben = TestClient::signed_in(a.udp, Transport::Udp, "Ben");
    let mut cid = TestClient::signed_in(a.udp, Transport::Udp, "Cid");
    let (view, first) = crate::play::start_game(&mut ann, &mut ben, Variant::Alquerque, None);
    let game = view.game;
    let mut players = if first == 0 { [ann, ben] } else { [ben, ann] };
    let mut local = AnyGame::new(Variant::Alquerque);
    play_moves(&mut players, game, &mut local, 4);
    relay.set_cut(true);
    // Node a notices within its next rounds with the database, and refuses new rooms.
    let deadline = Instant::now() + WAIT;
    let refusal = loop {
        cid.send(ClientMessage::OpenRoom {
            variant: Variant::Alquerque,
            clock: None,
            public: true,
            rated: false,
        });
        let answer = cid.expect("room or refusal", |m| match m {
            ServerMessage::RoomOpened { .. } => Some(None),
            ServerMessage::Error { message, .. } => Some(Some(message.clone())),
            _ => None,
        });
        match answer {
            Some(message) => break message,
            None => {
                // Opened before the loss was seen (it is never stored, so nobody sees it): again.
                assert!(Instant::now() < deadline, "node a never refused a room");
                cid.send(ClientMessage::Leave);
                cid.sync();
                // Polled, not raced: within the message budget.
                cid.idle(Duration::from_millis(100));
                cid.inbox.clear();
            }
        }
    };
    assert!(refusal.contains("lost its database"), "{refusal}");
    let tokens: Vec<SessionToken> = players.iter().map(|p| p.token()).collect();
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    drop(players);
    let mut p: Vec<TestClient> = (0..2)
        .map(|i| {
            TestClient::connect_with(config(b.udp, Transport::Udp).token(Some(tokens[i].clone())), &names[i])
        })
        .collect();
    for (i, c) in p.iter_mut().enumerate() {
        let v = game_view(c, FAILOVER_WAIT);
        assert_eq!(v.game, game);
        assert_eq!(
            v.role,
            Role::Player(if i == 0 { ludus_rules::Side::First } else { ludus_rules::Side::Second })
        );
        assert_eq!(v.moves, local.move_strings(), "every move is on node b");
        assert_eq!(c.client.config().server, b.udp, "node b took the game over");
    }
    let mut players: [TestClient; 2] = p.try_into().ok().unwrap();
    play_moves(&mut players, game, &mut local, 2);
    players[0].send(ClientMessage::Resign { game });
    let archive = players[1].expect("game over", |m| match m {
        ServerMessage::GameOver { archive, .. } => Some(archive.clone()),
        _ => None,
    });
    assert_eq!(archive.record.moves, local.move_strings());
    // The database back: node a's lease is gone, it stops with exit code 1.
    relay.set_cut(false);
    let deadline = Instant::now() + FAILOVER_WAIT;
    let status = loop {
        if let Some(status) = a.child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "node a kept running without its lease");
        cid.pump();
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(1));
}

/// A node stopped cleanly (SIGTERM, as for a deploy) gives its lease up: with leases of a
/// minute, another node still takes its game over within seconds, with every move.
#[cfg(unix)]
#[test]
fn a_drained_node_hands_its_games_over_at_once() {
    let Some((_pg, url)) = pg("nodes_drain") else { return };
    let dir = data_dir("nodes-drain");
    let key = key_file(&dir);
    let [mut a, b] = ["a", "b"].map(|n| node(&dir, &url, n, &key));
    let mut ann = TestClient::signed_in(a.udp, Transport::Udp, "Ann");
    let mut ben = TestClient::signed_in(a.udp, Transport::Udp, "Ben");
    let (view, first) = crate::play::start_game(&mut ann, &mut ben, Variant::Alquerque, None);
    let game = view.game;
    let mut players = if first == 0 { [ann, ben] } else { [ben, ann] };
    let mut local = AnyGame::new(Variant::Alquerque);
    play_moves(&mut players, game, &mut local, 3);
    let status = Command::new("kill").args(["-TERM", &a.child.id().to_string()]).status().unwrap();
    assert!(status.success());
    for p in players.iter_mut() {
        p.expect("restarting", |m| matches!(m, ServerMessage::Restarting).then_some(()));
    }
    assert_eq!(a.child.wait().unwrap().code(), Some(0));
    let tokens: Vec<SessionToken> = players.iter().map(|p| p.token()).collect();
    drop(players);
    let mut p0 = TestClient::connect_with(config(b.udp, Transport::Udp).token(Some(tokens[0].clone())), "p0");
    // Well within the minute of the lease.
    let v = game_view(&mut p0, WAIT);
    assert_eq!((v.game, v.moves.clone()), (game, local.move_strings()));
}

/// A nickname claimed on node b after node a started is known to node a when the player signs
/// in there (rated rooms are open to them), and a look-alike of it is refused there.
#[test]
fn a_claim_made_on_one_node_holds_on_another() {
    let Some((_pg, url)) = pg("nodes_claim") else { return };
    let dir = data_dir("nodes-claim");
    let key = key_file(&dir);
    let [a, b] = ["a", "b"].map(|n| node(&dir, &url, n, &key));
    let mut ann = TestClient::signed_in(b.udp, Transport::Udp, "Annika");
    crate::ratings::claim(&mut ann, "a long secret");
    let token = ann.token();
    drop(ann);
    let mut ann = TestClient::connect_with(config(a.udp, Transport::Udp).token(Some(token)), "Annika");
    ann.expect("welcome", |m| matches!(m, ServerMessage::Welcome { resumed: true, .. }).then_some(()));
    ann.send(ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: true, rated: true });
    ann.expect("rated room", |m| matches!(m, ServerMessage::RoomOpened { .. }).then_some(()));
    drop(ann);
    let mut other = TestClient::signed_in(a.udp, Transport::Udp, "Zed");
    other.send(ClientMessage::SetNickname { nickname: "Annika".into() });
    other.expect_error(ludus_protocol::ErrorCode::BadNickname);
}
