//! Several nodes: redirects to another node, handing waiters over, adopted games, id blocks.

use super::{Harness, redirect_of, refusal_code, remote};
use crate::core::records;
use crate::core::records::{IdKind, Loaded, Op, StoredPlayer};
use crate::core::{Core, Limits, Published};
use ludus_protocol::{
    ClientMessage, ErrorCode, GameId, GameSummary, Hello, PROTOCOL_VERSION, PlayerId, Role, RoomSummary,
    ServerMessage,
};
use ludus_rules::{AnyGame, Side, Variant};
use std::time::Instant;

/// A room code or a game of another node: the client is sent there (with the request to make
/// again), nothing changes here, nothing is stored; an unknown code is still refused; the
/// lobby lists the other node's public room and game after this node's.
#[test]
fn rooms_and_games_of_another_node_redirect_and_grant_nothing() {
    let mut h = Harness::new(Limits::default());
    h.core.enable_nodes("b".into());
    h.sign_in(1, "Ann");
    h.take_ops();
    let room = RoomSummary {
        code: "ABCD2345".into(),
        variant: Variant::Alquerque,
        clock: None,
        host: "Zoe".into(),
        rated: true,
        host_rating: None,
    };
    let game = GameSummary {
        game: GameId(900),
        variant: Variant::Alquerque,
        players: ["Yan".into(), "Xu".into()],
        spectators: 0,
        ply: 4,
        clock: None,
        rated: false,
    };
    let private = GameSummary { game: GameId(901), ..game.clone() };
    let lobby = Published {
        online: 3,
        rooms: vec![(room.clone(), true)],
        games: vec![(game.clone(), true), (private, false)],
        public_games: 1,
        waiting: vec![],
    };
    h.set_remote(vec![remote("a", &lobby)]);
    h.send(1, &ClientMessage::JoinRoom { code: "abcd2345".into() });
    let r = redirect_of(&h.inbox(1)).expect("redirected");
    assert_eq!((r.node.as_str(), r.udp.as_deref()), ("a", Some("a.example:5000")));
    assert_eq!(r.then, Some(ClientMessage::JoinRoom { code: "ABCD2345".into() }));
    h.send(1, &ClientMessage::Watch { game: GameId(900) });
    let r = redirect_of(&h.inbox(1)).expect("redirected");
    assert_eq!(r.then, Some(ClientMessage::Watch { game: GameId(900) }));
    // A game not listed is looked for in the database: there on node a, or not at all (a
    // private game is not watched from elsewhere, as here).
    h.send(1, &ClientMessage::Watch { game: GameId(901) });
    assert!(h.inbox(1).is_empty());
    let asked = h.take_owner_lookups();
    assert_eq!(asked.len(), 1);
    h.game_owner_found(asked[0].0, 901, None);
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::UnknownGame));
    h.send(1, &ClientMessage::Watch { game: GameId(902) });
    let asked = h.take_owner_lookups();
    assert_eq!(asked, vec![(asked[0].0, 902)]);
    h.game_owner_found(asked[0].0, 902, Some("a".into()));
    let r = redirect_of(&h.inbox(1)).expect("redirected");
    assert_eq!((r.node.as_str(), r.then), ("a", Some(ClientMessage::Watch { game: GameId(902) })));
    // An unknown code is refused.
    h.send(1, &ClientMessage::JoinRoom { code: "ZZZZ2345".into() });
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::UnknownRoom));
    assert!(h.take_ops().is_empty(), "a redirect stores nothing");
    assert_eq!(h.core.live_games(), 0);
    // Nobody is sent away from a game they play here.
    h.sign_in(2, "Ben");
    h.send(
        1,
        &ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: false, rated: false },
    );
    let Some(ServerMessage::RoomOpened { code, .. }) = h.inbox(1).pop() else { panic!("no room") };
    h.send(2, &ClientMessage::JoinRoom { code });
    h.take_out();
    h.take_ops();
    h.send(1, &ClientMessage::JoinRoom { code: "ABCD2345".into() });
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::Busy));
    h.send(2, &ClientMessage::Watch { game: GameId(900) });
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::Busy));
    h.send(1, &ClientMessage::Lobby);
    let Some(ServerMessage::Lobby(l)) = h.inbox(1).pop() else { panic!("no lobby") };
    // This node's game is private: only the other node's public one is listed.
    assert_eq!((l.rooms, l.games, l.online), (vec![room], vec![game], 5));
}

/// A player waiting alone is handed over to the first node by name with someone waiting in
/// the same queue, never to a node that sorts after this one.
#[test]
fn a_lone_waiter_moves_to_the_first_node_with_a_waiter_only() {
    let mut h = Harness::new(Limits::default());
    h.core.enable_nodes("b".into());
    h.sign_in(1, "Ann");
    let find = ClientMessage::FindMatch { variant: Variant::Alquerque, clock: None, rated: false };
    h.send(1, &find);
    assert!(matches!(h.inbox(1).as_slice(), [ServerMessage::Queued { .. }]));
    let waiting = Published { waiting: vec![(Variant::Alquerque, None, false)], ..Published::default() };
    h.set_remote(vec![remote("c", &waiting)]);
    assert!(redirect_of(&h.inbox(1)).is_none(), "c sorts after b: its waiter comes here");
    h.set_remote(vec![remote("a", &waiting), remote("c", &waiting)]);
    let r = redirect_of(&h.inbox(1)).expect("handed over");
    assert_eq!((r.node.as_str(), r.then), ("a", Some(find.clone())));
    // A newcomer goes straight there too.
    h.sign_in(2, "Ben");
    h.send(2, &find);
    assert_eq!(redirect_of(&h.inbox(2)).map(|r| r.node), Some("a".into()));
}

/// A player signed in here whose seat is in a live game of another node is sent there (and
/// only while checked); a game taken over is back with every move and its connected player
/// gets their seat.
#[test]
fn seats_elsewhere_redirect_and_adopted_games_seat_their_players() {
    let mut h = Harness::new(Limits::default());
    h.core.enable_nodes("b".into());
    h.sign_in(1, "Ann");
    h.set_remote(vec![remote("a", &Published::default())]);
    let checks = h.take_seat_checks();
    assert_eq!(checks.len(), 1);
    h.seats_found(vec![(checks[0], 5, "a".into())]);
    let r = redirect_of(&h.inbox(1)).expect("sent to its seat");
    assert_eq!((r.node.as_str(), r.then), ("a", None));
    assert!(h.take_seat_checks().is_empty(), "checked once found");
    // The game is taken over here instead: Ann is seated.
    let ann = checks[0];
    let mut g = AnyGame::new(Variant::Alquerque);
    let mv = g.legal_moves()[0];
    let text = g.position().move_to_string(&mv).unwrap();
    g.play(&mv).unwrap();
    let stored = records::StoredGame {
        id: 5,
        room: "ROOMROOM".into(),
        variant: Variant::Alquerque,
        start: AnyGame::new(Variant::Alquerque).start().to_string(),
        players: [ann, 77],
        public: true,
        clock: None,
        created_ms: 1,
        rated: false,
        moves: vec![text.clone()],
        clocks: None,
        proposals: vec![],
        chat: vec![],
        chat_stored: 0,
        turn: None,
    };
    let other = StoredPlayer {
        id: 77,
        hash: "h77".into(),
        prev: None,
        last_seen_ms: 1_000_000,
        nickname: "Ola".into(),
    };
    h.adopt(vec![stored], vec![other]);
    let view = h.inbox(1).into_iter().find_map(|m| match m {
        ServerMessage::Game(v) => Some(v),
        _ => None,
    });
    let view = view.expect("Ann is seated at once");
    assert_eq!((view.game, view.moves, view.role), (GameId(5), vec![text], Role::Player(Side::First)));
    assert_eq!(h.core.live_games(), 1);
}

/// Blocks of numbers: half used, the next is asked for; used up without it, new players and
/// games are refused (busy), not numbered twice; with it, numbering goes on there.
#[test]
fn numbers_come_in_blocks_and_are_never_given_twice() {
    let loaded = Loaded { next_player: 10, player_end: 12, ..Loaded::default() };
    let mut core = Core::new(Limits::default(), loaded, Instant::now(), 1_000_000, [7; 32]);
    core.enable_nodes("a".into());
    let mut h = Harness::of(core, Instant::now(), 1_000_000);
    h.set_now(h.now, h.unix_ms);
    h.sign_in(1, "Ann");
    assert_eq!(h.take_id_requests(), vec![IdKind::Player]);
    h.sign_in(2, "Ben");
    h.connected(3);
    let hello = Hello { version: PROTOCOL_VERSION, token: None, nickname: Some("Cid".into()) };
    h.send(3, &ClientMessage::Hello(hello.clone()));
    assert_eq!(refusal_code(&h.inbox(3)), Some(ErrorCode::Busy));
    h.add_ids(IdKind::Player, 500, 600);
    h.connected(4);
    h.send(4, &ClientMessage::Hello(hello));
    match h.inbox(4).as_slice() {
        [ServerMessage::Welcome { player, .. }] => assert_eq!(*player, PlayerId(500)),
        other => panic!("{other:?}"),
    }
    let ids: Vec<u64> = h
        .take_ops()
        .iter()
        .filter_map(|o| match o {
            Op::NewPlayer { id, .. } => Some(*id),
            _ => None,
        })
        .collect();
    assert_eq!(ids, vec![10, 11, 500]);
}
