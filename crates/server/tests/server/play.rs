//! Whole games, spectators and their proposals, refused requests, lobby, quick match, rematch.

use crate::common::*;
use ludus_protocol::client::{ClientConfig, ConnectionState, Transport};
use ludus_protocol::{
    ClientMessage, ClockSpec, ErrorCode, GameId, GameView, PROTOCOL_VERSION, Role, ServerMessage, encode,
};
use ludus_rules::{AnyGame, Outcome, Reason, Side, Variant};
use ludus_server::core::Limits;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// Sets up a game between `a` (creates a public room) and `b` (joins by code); returns the
/// view each got, ordered `[First, Second]` as indices into `[a, b]`.
pub fn start_game(
    a: &mut TestClient,
    b: &mut TestClient,
    variant: Variant,
    clock: Option<ClockSpec>,
) -> (GameView, usize) {
    a.send(ClientMessage::OpenRoom { variant, clock, public: true, rated: false });
    let code = a.expect("room", |m| match m {
        ServerMessage::RoomOpened { code, .. } => Some(code.clone()),
        _ => None,
    });
    b.send(ClientMessage::JoinRoom { code: code.to_lowercase() });
    let va = a.expect_game();
    let vb = b.expect_game();
    assert_eq!(va.game, vb.game);
    assert_eq!(va.room, code);
    assert!(va.moves.is_empty());
    let first = match (va.role, vb.role) {
        (Role::Player(Side::First), Role::Player(Side::Second)) => 0,
        (Role::Player(Side::Second), Role::Player(Side::First)) => 1,
        roles => panic!("bad roles {roles:?}"),
    };
    (va, first)
}

/// Plays random legal moves until the game ends; every client must see every move.
/// `players` is `[First, Second]`. Returns the local replica.
pub fn play_out(
    players: [&mut TestClient; 2],
    spectators: &mut [&mut TestClient],
    game: GameId,
    variant: Variant,
    seed: u64,
    max_plies: usize,
) -> AnyGame {
    play_out_from(AnyGame::new(variant), players, spectators, game, seed, max_plies)
}

/// [`play_out`] from a game already under way (`local` mirrors the server's).
pub fn play_out_from(
    mut local: AnyGame,
    players: [&mut TestClient; 2],
    spectators: &mut [&mut TestClient],
    game: GameId,
    seed: u64,
    max_plies: usize,
) -> AnyGame {
    let mut players = players;
    let mut rng = SmallRng::seed_from_u64(seed);
    while !local.is_over() && local.ply() < max_plies {
        let ply = local.ply() as u32;
        let moves = local.legal_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        let text = local.position().move_to_string(&mv).expect("same game");
        let side = local.side_to_move().index();
        let mover = &mut *players[side];
        mover.send(ClientMessage::Move { game, ply, mv: text.clone() });
        // The server takes at most 20 messages a second from a connection (bursts of 40) and
        // says so at most once a second: a test that plays faster has a move refused (nothing
        // changes), and sends it again when its move does not come back.
        let deadline = Instant::now() + WAIT;
        let mut sent = Instant::now();
        loop {
            mover.pump();
            let seen = mover.inbox.iter().any(
                |m| matches!(m, ServerMessage::MovePlayed { game: g, ply: p, .. } if *g == game && *p == ply),
            );
            if seen {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{}: move {ply} never accepted; log: {:?}",
                mover.name,
                mover.log
            );
            if sent.elapsed() >= Duration::from_millis(1500) {
                mover.send(ClientMessage::Move { game, ply, mv: text.clone() });
                sent = Instant::now();
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        local.play(&mv).expect("legal");
        for c in players.iter_mut().map(|p| &mut **p).chain(spectators.iter_mut().map(|s| &mut **s)) {
            match c.expect_move(game, ply) {
                ServerMessage::MovePlayed { mv, outcome, .. } => {
                    assert_eq!(mv, text, "{} saw another move", c.name);
                    assert_eq!(outcome, local.outcome(), "{} saw another outcome", c.name);
                }
                _ => unreachable!(),
            }
        }
    }
    local
}

#[test]
fn full_game_udp_websocket_and_spectator() {
    let dir = data_dir("full-game");
    let server = server(&dir);
    let (udp, ws) = (server.udp_addr().unwrap(), server.ws_addr().unwrap());
    let mut a = TestClient::signed_in(udp, Transport::Udp, "Ann");
    let mut b = TestClient::signed_in(ws, Transport::WebSocket, "Bảo");
    let mut s = TestClient::signed_in(udp, Transport::Udp, "Watcher");
    let (view, first) = start_game(&mut a, &mut b, Variant::Alquerque, None);
    assert_eq!(view.players[0].nickname, if first == 0 { "Ann" } else { "Bảo" });

    // The spectator finds the game in the lobby and watches it.
    s.send(ClientMessage::Lobby);
    let lobby = s.expect("lobby", |m| match m {
        ServerMessage::Lobby(l) => Some(l.clone()),
        _ => None,
    });
    let listed = lobby.games.iter().find(|g| g.game == view.game).expect("game listed");
    assert_eq!(listed.variant, Variant::Alquerque);
    s.send(ClientMessage::Watch { game: view.game });
    let sv = s.expect_game();
    assert_eq!(sv.role, Role::Spectator);
    assert_eq!(sv.spectators, 1);
    a.expect("spectator count", |m| matches!(m, ServerMessage::Spectators { count: 1, .. }).then_some(()));

    let (first_client, second_client) = if first == 0 { (&mut a, &mut b) } else { (&mut b, &mut a) };
    let local =
        play_out([first_client, second_client], &mut [&mut s], view.game, Variant::Alquerque, 7, 2000);
    let outcome = local.outcome().expect("the game ends");
    for c in [&mut a, &mut b, &mut s] {
        let archive = c.expect("game over", |m| match m {
            ServerMessage::GameOver { archive, .. } => Some(archive.clone()),
            _ => None,
        });
        assert_eq!(archive.outcome, outcome);
        assert_eq!(archive.record, local.record());
    }
    // Archived in the database with the full record.
    drop(server);
    let db = rusqlite::Connection::open(dir.join("ludus.sqlite3")).unwrap();
    let (live, archive): (i64, String) = db
        .query_row("SELECT live, archive FROM games WHERE id = ?1", [view.game.0 as i64], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(live, 0);
    let archive: ludus_protocol::ArchivedGame = serde_json::from_str(&archive).unwrap();
    assert_eq!(archive.record.moves, local.move_strings());
    let moves: i64 = db
        .query_row("SELECT COUNT(*) FROM moves WHERE game = ?1", [view.game.0 as i64], |r| r.get(0))
        .unwrap();
    assert_eq!(moves as usize, local.ply());
}

#[test]
fn proposals_reach_spectators_not_players() {
    let dir = data_dir("proposals");
    let server = server(&dir);
    let udp = server.udp_addr().unwrap();
    let ws = server.ws_addr().unwrap();
    let mut a = TestClient::signed_in(udp, Transport::Udp, "Ann");
    let mut b = TestClient::signed_in(udp, Transport::Udp, "Ben");
    let mut s1 = TestClient::signed_in(udp, Transport::Udp, "Sam");
    let mut s2 = TestClient::signed_in(ws, Transport::WebSocket, "Sue");
    let mut stranger = TestClient::signed_in(udp, Transport::Udp, "Stranger");
    let (view, first) = start_game(&mut a, &mut b, Variant::LatrunculiQuick, None);
    let game = view.game;
    for s in [&mut s1, &mut s2] {
        s.send(ClientMessage::Watch { game });
        s.expect_game();
    }
    let (mover, waiter) = if first == 0 { (&mut a, &mut b) } else { (&mut b, &mut a) };

    // Refused proposals.
    mover.send(ClientMessage::Propose { game, ply: 0, mv: "a1-a2".into() });
    mover.expect_error(ErrorCode::PlayerCannotPropose);
    stranger.send(ClientMessage::Propose { game, ply: 0, mv: "a1-a2".into() });
    stranger.expect_error(ErrorCode::NotWatching);
    s1.send(ClientMessage::Propose { game, ply: 0, mv: "a1-a9".into() });
    s1.expect_error(ErrorCode::IllegalMove);
    s1.send(ClientMessage::Propose { game, ply: 3, mv: "a1-a2".into() });
    s1.expect_error(ErrorCode::WrongPly);

    // Two spectators back e2-e4 (the red king), one changes its mind from a1-a2.
    s1.send(ClientMessage::Propose { game, ply: 0, mv: "a1-a2".into() });
    s1.send(ClientMessage::Propose { game, ply: 0, mv: "e2-e4".into() });
    s2.send(ClientMessage::Propose { game, ply: 0, mv: "e2-e4".into() });
    for s in [&mut s1, &mut s2] {
        s.expect("tally of 2", |m| match m {
            ServerMessage::Proposals { ply: 0, proposals, .. }
                if proposals.len() == 1 && proposals[0].mv == "e2-e4" && proposals[0].count == 2 =>
            {
                Some(())
            }
            _ => None,
        });
    }
    // A late watcher sees the current proposals in its view.
    stranger.send(ClientMessage::Watch { game });
    let sv = stranger.expect_game();
    assert_eq!(sv.proposals.len(), 1);
    assert_eq!(sv.proposals[0].count, 2);

    mover.send(ClientMessage::Move { game, ply: 0, mv: "e2-e4".into() });
    for s in [&mut s1, &mut s2] {
        match s.expect_move(game, 0) {
            ServerMessage::MovePlayed { crowd: Some(crowd), .. } => {
                assert!(crowd.guessed);
                assert_eq!(crowd.backers, 2);
            }
            other => panic!("spectator got no verdict: {other:?}"),
        }
    }
    for p in [&mut *mover, &mut *waiter] {
        assert!(matches!(p.expect_move(game, 0), ServerMessage::MovePlayed { crowd: None, .. }));
    }
    // The crowd misses the next one.
    s1.send(ClientMessage::Propose { game, ply: 1, mv: "a8-a7".into() });
    s1.sync();
    waiter.send(ClientMessage::Move { game, ply: 1, mv: "b8-b7".into() });
    match s1.expect_move(game, 1) {
        ServerMessage::MovePlayed { crowd: Some(crowd), .. } => {
            assert!(!crowd.guessed);
            assert_eq!(crowd.backers, 0);
        }
        other => panic!("no verdict: {other:?}"),
    }
    // After the game, the record shows the proposals to everyone, players included.
    mover.send(ClientMessage::Resign { game });
    for c in [&mut a, &mut b, &mut s1] {
        let archive = c.expect("game over", |m| match m {
            ServerMessage::GameOver { archive, .. } => Some(archive.clone()),
            _ => None,
        });
        assert_eq!(archive.proposals.len(), 2);
        assert_eq!(archive.proposals[0].played, "e2-e4");
        assert_eq!(archive.proposals[0].proposals[0].count, 2);
        assert_eq!(archive.proposals[1].proposals[0].mv, "a8-a7");
        assert_eq!(archive.outcome.reason, Reason::Resignation);
    }
    // Players never saw a proposal during the game.
    for p in [&a, &b] {
        for m in &p.log {
            assert!(!matches!(m, ServerMessage::Proposals { .. }), "{} saw proposals", p.name);
            if let ServerMessage::Game(v) = m {
                assert!(v.proposals.is_empty() && v.your_proposal.is_none());
            }
        }
    }
}

#[test]
fn illegal_out_of_turn_spectator_and_forged_moves_are_refused() {
    let dir = data_dir("refused");
    let server = server(&dir);
    let udp = server.udp_addr().unwrap();
    let mut a = TestClient::signed_in(udp, Transport::Udp, "Ann");
    let mut b = TestClient::signed_in(udp, Transport::Udp, "Ben");
    let mut s = TestClient::signed_in(udp, Transport::Udp, "Sam");
    let mut x = TestClient::signed_in(udp, Transport::Udp, "Xena");
    let (view, first) = start_game(&mut a, &mut b, Variant::Alquerque, None);
    let game = view.game;
    s.send(ClientMessage::Watch { game });
    s.expect_game();
    let (mover, waiter) = if first == 0 { (&mut a, &mut b) } else { (&mut b, &mut a) };

    waiter.send(ClientMessage::Move { game, ply: 0, mv: "b4-c3".into() });
    waiter.expect_error(ErrorCode::NotYourTurn);
    s.send(ClientMessage::Move { game, ply: 0, mv: "b2-c3".into() });
    s.expect_error(ErrorCode::NotAPlayer);
    x.send(ClientMessage::Move { game, ply: 0, mv: "b2-c3".into() });
    x.expect_error(ErrorCode::NotAPlayer);
    x.send(ClientMessage::Move { game: GameId(9999), ply: 0, mv: "b2-c3".into() });
    x.expect_error(ErrorCode::UnknownGame);
    x.send(ClientMessage::Resign { game });
    x.expect_error(ErrorCode::NotAPlayer);
    mover.send(ClientMessage::Move { game, ply: 1, mv: "b2-c3".into() });
    mover.expect_error(ErrorCode::WrongPly);
    mover.send(ClientMessage::Move { game, ply: 0, mv: "a1-a2".into() });
    mover.expect_error(ErrorCode::IllegalMove);
    mover.send(ClientMessage::Move { game, ply: 0, mv: "zz".into() });
    mover.expect_error(ErrorCode::IllegalMove);
    mover.send(ClientMessage::Move { game, ply: 0, mv: "é".repeat(200) });
    mover.expect_error(ErrorCode::IllegalMove);
    // Nothing changed: the game is still at ply 0 for everyone.
    x.send(ClientMessage::Watch { game });
    assert!(x.expect_game().moves.is_empty());
    // The right move by the right player at the right ply works; a repeat is stale.
    mover.send(ClientMessage::Move { game, ply: 0, mv: "b2-c3".into() });
    mover.expect_move(game, 0);
    mover.send(ClientMessage::Move { game, ply: 0, mv: "b2-c3".into() });
    mover.expect_error(ErrorCode::NotYourTurn);
    waiter.expect_move(game, 0);
    s.expect_move(game, 0);
    // Requests before signing in are refused.
    let mut anon = TestClient::connect_with(ClientConfig::new(udp, Transport::Udp), "anon");
    anon.expect("welcome", |m| matches!(m, ServerMessage::Welcome { .. }).then_some(()));
    anon.send(ClientMessage::Hello(ludus_protocol::Hello {
        version: PROTOCOL_VERSION,
        token: None,
        nickname: None,
    }));
    anon.expect_error(ErrorCode::AlreadySignedIn);
}

#[test]
fn version_mismatch_is_explained() {
    let dir = data_dir("version");
    let server = server(&dir);
    let udp = server.udp_addr().unwrap();
    let mut config = ClientConfig::new(udp, Transport::Udp);
    config.protocol_version = 0;
    // The token endpoint already refuses another version, with the same explanation, which
    // the client reports as the server's `Incompatible`.
    let mut old = TestClient::connect_with(config, "old");
    let text = old.expect("incompatible", |m| match m {
        ServerMessage::Incompatible { message, server_version } => {
            assert_eq!(*server_version, PROTOCOL_VERSION);
            Some(message.clone())
        }
        _ => None,
    });
    assert!(text.contains("older than the server: please update"), "{text}");
    assert!(
        matches!(old.client.state(), ConnectionState::Disconnected(m) if m.contains("older than the server: please update")),
        "{:?}",
        old.client.state()
    );
    // A future client whose Hello has a layout this server cannot read gets the same answer.
    let mut config = crate::common::config(server.ws_addr().unwrap(), Transport::WebSocket);
    config.protocol_version = PROTOCOL_VERSION;
    let mut future = TestClient::connect_with(config, "future");
    future.expect("welcome", |m| matches!(m, ServerMessage::Welcome { .. }).then_some(()));
    let mut raw = TestClient::connect_with(ClientConfig::new(udp, Transport::Udp), "raw");
    // Replace the automatic Hello's effect: a second connection speaking a newer layout.
    raw.client.send_raw(encode(&(0u32, PROTOCOL_VERSION + 1, "new field", 42u64)).unwrap());
    raw.expect("welcome first", |m| matches!(m, ServerMessage::Welcome { .. }).then_some(()));
    raw.expect_error(ErrorCode::Malformed);
}

#[test]
fn lobby_quick_match_rematch_leave_and_nicknames() {
    let dir = data_dir("lobby");
    let server = server(&dir);
    let udp = server.udp_addr().unwrap();
    let mut a = TestClient::signed_in(udp, Transport::Udp, "Ann");
    let mut b = TestClient::signed_in(udp, Transport::Udp, "Ben");
    let mut c = TestClient::signed_in(udp, Transport::Udp, "Cat");
    let mut d = TestClient::signed_in(udp, Transport::Udp, "Dan");

    // Nicknames.
    a.send(ClientMessage::SetNickname { nickname: "x".into() });
    a.expect_error(ErrorCode::BadNickname);
    a.send(ClientMessage::SetNickname { nickname: " Anna Lý ".into() });
    a.expect("nickname", |m| {
        matches!(m, ServerMessage::NicknameSet { nickname } if nickname == "Anna Lý").then_some(())
    });
    let mut bad = TestClient::connect(udp, Transport::Udp, "<bad>");
    bad.expect_error(ErrorCode::BadNickname);

    // A private room is not listed but can be joined by code.
    c.send(ClientMessage::OpenRoom {
        variant: Variant::Latrunculi,
        clock: None,
        public: false,
        rated: false,
    });
    let private = c.expect("room", |m| match m {
        ServerMessage::RoomOpened { code, public: false, .. } => Some(code.clone()),
        _ => None,
    });
    d.send(ClientMessage::OpenRoom {
        variant: Variant::Alquerque,
        clock: Some(ClockSpec::BLITZ),
        public: true,
        rated: false,
    });
    let open = d.expect("room", |m| match m {
        ServerMessage::RoomOpened { code, .. } => Some(code.clone()),
        _ => None,
    });
    a.send(ClientMessage::Lobby);
    let lobby = a.expect("lobby", |m| match m {
        ServerMessage::Lobby(l) => Some(l.clone()),
        _ => None,
    });
    assert!(
        lobby.rooms.iter().any(|r| r.code == open && r.host == "Dan" && r.clock == Some(ClockSpec::BLITZ))
    );
    assert!(!lobby.rooms.iter().any(|r| r.code == private));
    d.send(ClientMessage::JoinRoom { code: open.clone() });
    d.expect_error(ErrorCode::OwnRoom);
    a.send(ClientMessage::JoinRoom { code: "ZZZZZZZZ".into() });
    a.expect_error(ErrorCode::UnknownRoom);
    a.send(ClientMessage::OpenRoom {
        variant: Variant::Alquerque,
        clock: Some(ClockSpec { initial_ms: 5, increment_ms: 0 }),
        public: true,
        rated: false,
    });
    a.expect_error(ErrorCode::BadClock);
    // d leaves its room: it disappears.
    d.send(ClientMessage::Leave);
    d.expect("left", |m| matches!(m, ServerMessage::Left).then_some(()));
    d.send(ClientMessage::JoinRoom { code: private.clone() });
    let dv = d.expect_game();
    let cv = c.expect_game();
    assert_eq!(dv.game, cv.game);
    assert!(!dv.public);
    // The private game is not listed and cannot be watched.
    a.send(ClientMessage::Lobby);
    let lobby = a.expect("lobby", |m| match m {
        ServerMessage::Lobby(l) => Some(l.clone()),
        _ => None,
    });
    assert!(!lobby.games.iter().any(|g| g.game == dv.game));
    assert!(!lobby.rooms.iter().any(|r| r.code == open));
    a.send(ClientMessage::Watch { game: dv.game });
    a.expect_error(ErrorCode::UnknownGame);
    // A player in a game in progress cannot start another; leaving resigns it.
    c.send(ClientMessage::FindMatch { variant: Variant::Alquerque, clock: None, rated: false });
    c.expect_error(ErrorCode::Busy);
    c.send(ClientMessage::Leave);
    let over = d.expect("game over", |m| match m {
        ServerMessage::GameOver { outcome, .. } => Some(*outcome),
        _ => None,
    });
    assert_eq!(over.reason, Reason::Resignation);
    assert_eq!(Role::Player(over.winner.unwrap()), dv.role);
    d.expect("room closed", |m| matches!(m, ServerMessage::Left).then_some(()));
    d.send(ClientMessage::Rematch { game: dv.game });
    d.expect_error(ErrorCode::NoRematch);

    // Quick match pairs equal requests only.
    a.send(ClientMessage::FindMatch { variant: Variant::Alquerque, clock: None, rated: false });
    a.expect("queued", |m| matches!(m, ServerMessage::Queued { .. }).then_some(()));
    c.send(ClientMessage::FindMatch { variant: Variant::Latrunculi, clock: None, rated: false });
    c.expect("queued", |m| matches!(m, ServerMessage::Queued { .. }).then_some(()));
    b.send(ClientMessage::FindMatch { variant: Variant::Alquerque, clock: None, rated: false });
    let av = a.expect_game();
    let bv = b.expect_game();
    assert_eq!(av.game, bv.game);
    assert_eq!(av.variant, Variant::Alquerque);
    // Resign, then rematch with colours swapped.
    let game = av.game;
    a.send(ClientMessage::Resign { game });
    for p in [&mut a, &mut b] {
        p.expect("game over", |m| matches!(m, ServerMessage::GameOver { .. }).then_some(()));
    }
    a.send(ClientMessage::Rematch { game });
    b.expect("offer", |m| matches!(m, ServerMessage::RematchOffered { .. }).then_some(()));
    b.send(ClientMessage::Rematch { game });
    let av2 = a.expect_game();
    let bv2 = b.expect_game();
    assert_ne!(av2.game, game);
    assert_eq!(av2.game, bv2.game);
    let swap = |r: Role| match r {
        Role::Player(s) => Role::Player(s.opponent()),
        r => r,
    };
    assert_eq!(av2.role, swap(av.role));
    assert_eq!(bv2.role, swap(bv.role));
    // Pings answer, and the lobby counts the players online.
    c.sync();
    c.send(ClientMessage::Lobby);
    let lobby = c.expect("lobby", |m| match m {
        ServerMessage::Lobby(l) => Some(l.clone()),
        _ => None,
    });
    assert!(lobby.online >= 4);
    assert!(lobby.games.iter().any(|g| g.game == av2.game && g.ply == 0));
}

#[test]
fn clocks_are_enforced() {
    let dir = data_dir("clocks");
    let limits = Limits { min_clock_ms: 500, ..Limits::default() };
    let server = server_with(&dir, limits);
    let udp = server.udp_addr().unwrap();
    let mut a = TestClient::signed_in(udp, Transport::Udp, "Ann");
    let mut b = TestClient::signed_in(udp, Transport::Udp, "Ben");
    let clock = ClockSpec { initial_ms: 3000, increment_ms: 1000 };
    // The server's clock starts within this test's measure of the time until the first move.
    let started = Instant::now();
    let (view, first) = start_game(&mut a, &mut b, Variant::Alquerque, Some(clock));
    let game = view.game;
    let clocks = view.clocks.expect("clocks");
    assert_eq!(clocks.running, Some(Side::First));
    assert!(clocks.remaining_ms[0] <= clock.initial_ms && clocks.remaining_ms[1] == clock.initial_ms);
    let (mover, waiter) = if first == 0 { (&mut a, &mut b) } else { (&mut b, &mut a) };
    mover.send(ClientMessage::Move { game, ply: 0, mv: "b2-c3".into() });
    match mover.expect_move(game, 0) {
        ServerMessage::MovePlayed { clocks: Some(c), .. } => {
            // The increment was added: at most the initial time plus the increment, and no
            // more spent than elapsed here (the exact arithmetic is the core's tests').
            let spent = started.elapsed().as_millis() as u32 + 1;
            assert_eq!(c.running, Some(Side::Second));
            let full = clock.initial_ms + clock.increment_ms;
            assert!(c.remaining_ms[0] <= full && c.remaining_ms[0] + spent >= full, "{c:?} after {spent} ms");
        }
        other => panic!("{other:?}"),
    }
    // Second does not move: its flag falls.
    let outcome = waiter.expect("timeout", |m| match m {
        ServerMessage::GameOver { outcome, .. } => Some(*outcome),
        _ => None,
    });
    assert_eq!(outcome, Outcome::win(Side::First, Reason::Timeout));
    waiter.send(ClientMessage::Move { game, ply: 1, mv: "b4-b3".into() });
    waiter.expect_error(ErrorCode::GameOver);
    mover.idle(Duration::from_millis(10));
}
