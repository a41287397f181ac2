//! Moves, clocks, rooms, held seats, look-ups off the loop, proposals, floods and shutdown.

use super::{Harness, first_legal, refusal_code};
use crate::core::records::{Loaded, Op, StoredPlayer};
use crate::core::{Core, Effect, Limits};
use crate::credential::{Grant, credential_hash};
use ludus_protocol::{
    ClientMessage, ClockSpec, ErrorCode, GameId, Hello, PROTOCOL_VERSION, PlayerId, ROOM_CODE_LEN,
    ServerMessage, decode_server,
};
use ludus_rules::{AnyGame, GameRecord, Outcome, Reason, Side, Variant};
use std::time::{Duration, Instant};

#[test]
fn a_legal_move_is_accepted_stored_and_broadcast() {
    let mut h = Harness::new(Limits::default());
    let (first, second, view) = h.quick_game(None);
    let mv = first_legal(&view, 0);
    h.send(first, &ClientMessage::Move { game: view.game, ply: 0, mv: mv.clone() });
    let ops = h.take_ops();
    assert!(
        ops.iter().any(|op| matches!(op, Op::Move { ply: 0, mv: m, .. } if *m == mv)),
        "the move is stored"
    );
    let all = h.all();
    for conn in [first, second] {
        assert!(
            all.iter().any(|(c, m)| *c == conn && matches!(m, ServerMessage::MovePlayed { ply: 0, .. })),
            "conn {conn} sees the move"
        );
    }
    assert_eq!(h.core.stats.moves, 1);
    assert_eq!(h.take_played(), vec![(view.game, 0)]);
}

#[test]
fn moves_out_of_turn_stale_or_illegal_are_refused_and_change_nothing() {
    let mut h = Harness::new(Limits::default());
    let (first, second, view) = h.quick_game(None);
    h.take_ops();
    let mv = first_legal(&view, 0);
    h.send(second, &ClientMessage::Move { game: view.game, ply: 0, mv: mv.clone() });
    assert_eq!(refusal_code(&h.inbox(second)), Some(ErrorCode::NotYourTurn));
    h.send(first, &ClientMessage::Move { game: view.game, ply: 3, mv: mv.clone() });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::WrongPly));
    h.send(first, &ClientMessage::Move { game: view.game, ply: 0, mv: "z9-z10".into() });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::IllegalMove));
    h.send(first, &ClientMessage::Move { game: GameId(999), ply: 0, mv });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::UnknownGame));
    assert!(h.take_ops().is_empty(), "nothing stored");
    assert_eq!(h.core.stats.moves, 0);
    assert_eq!(h.core.stats.refusals.get("not_your_turn"), Some(&1));
    assert_eq!(h.core.stats.refusals.get("illegal_move"), Some(&1));
}

#[test]
fn the_clock_runs_out_on_the_side_to_move() {
    let mut h = Harness::new(Limits { min_clock_ms: 1000, ..Limits::default() });
    let clock = ClockSpec { initial_ms: 5000, increment_ms: 1000 };
    let (first, second, view) = h.quick_game(Some(clock));
    // First moves after 2 s: 3 s left plus the 1 s increment.
    h.advance(Duration::from_secs(2));
    let mv = first_legal(&view, 0);
    h.send(first, &ClientMessage::Move { game: view.game, ply: 0, mv });
    let played = h.inbox(second);
    let clocks = played.iter().find_map(|m| match m {
        ServerMessage::MovePlayed { clocks, .. } => *clocks,
        _ => None,
    });
    let clocks = clocks.expect("the move carries the clocks");
    assert_eq!(clocks.remaining_ms, [4000, 5000]);
    assert_eq!(clocks.running, Some(Side::Second));
    // Second's 5 s run out: not at 4.999 s, at 5 s.
    h.advance(Duration::from_millis(4999));
    assert!(h.inbox(first).iter().all(|m| !matches!(m, ServerMessage::GameOver { .. })));
    h.advance(Duration::from_millis(1));
    let over = h.inbox(first);
    let outcome = over.iter().find_map(|m| match m {
        ServerMessage::GameOver { outcome, .. } => Some(*outcome),
        _ => None,
    });
    assert_eq!(outcome, Some(Outcome::win(Side::First, Reason::Timeout)));
    assert_eq!(h.core.live_games(), 0);
}

/// Every time control the game offers: the side to move loses on time when its own time is
/// spent (not a millisecond before), the mover's clock gaining the increment.
#[test]
fn a_loss_on_time_at_each_control_the_game_offers() {
    for clock in ClockSpec::CONTROLS {
        let mut h = Harness::new(Limits::default());
        let (first, second, view) = h.quick_game(Some(clock));
        h.advance(Duration::from_secs(1));
        let mv = first_legal(&view, 0);
        h.send(first, &ClientMessage::Move { game: view.game, ply: 0, mv });
        let clocks = h.inbox(second).iter().find_map(|m| match m {
            ServerMessage::MovePlayed { clocks, .. } => *clocks,
            _ => None,
        });
        let label = clock.label();
        let first_left = clock.initial_ms - 1000 + clock.increment_ms;
        assert_eq!(clocks.map(|c| c.remaining_ms), Some([first_left, clock.initial_ms]), "{label}");
        h.advance(Duration::from_millis(u64::from(clock.initial_ms) - 1));
        assert!(
            h.inbox(first).iter().all(|m| !matches!(m, ServerMessage::GameOver { .. })),
            "{label}: early"
        );
        h.advance(Duration::from_millis(1));
        let outcome = h.inbox(first).iter().find_map(|m| match m {
            ServerMessage::GameOver { outcome, .. } => Some(*outcome),
            _ => None,
        });
        assert_eq!(outcome, Some(Outcome::win(Side::First, Reason::Timeout)), "{label}");
    }
}

#[test]
fn a_move_after_the_flag_fell_does_not_count() {
    let mut h = Harness::new(Limits { min_clock_ms: 1000, ..Limits::default() });
    let clock = ClockSpec { initial_ms: 2000, increment_ms: 0 };
    let (first, _, view) = h.quick_game(Some(clock));
    // Time passes without a timer tick; the move arrives late.
    h.now += Duration::from_millis(2500);
    h.set_now(h.now, h.unix_ms + 2500);
    let mv = first_legal(&view, 0);
    h.send(first, &ClientMessage::Move { game: view.game, ply: 0, mv });
    let inbox = h.inbox(first);
    assert_eq!(refusal_code(&inbox), Some(ErrorCode::GameOver));
    assert!(inbox.iter().any(|m| matches!(m, ServerMessage::GameOver { .. })));
    assert!(!h.take_ops().iter().any(|op| matches!(op, Op::Move { .. })), "the late move is not stored");
}

#[test]
fn a_room_code_is_joined_and_starts_the_game() {
    let mut h = Harness::new(Limits::default());
    h.sign_in(1, "Ann");
    h.sign_in(2, "Bob");
    h.send(
        1,
        &ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: false, rated: false },
    );
    let code = match h.inbox(1).as_slice() {
        [ServerMessage::RoomOpened { code, .. }] => code.clone(),
        other => panic!("expected a room, got {other:?}"),
    };
    assert_eq!(code.len(), ROOM_CODE_LEN);
    // Codes are typed by people: lower case and spaces are accepted.
    h.send(2, &ClientMessage::JoinRoom { code: format!(" {} ", code.to_lowercase()) });
    let all = h.all();
    for conn in [1, 2] {
        assert!(all.iter().any(|(c, m)| *c == conn && matches!(m, ServerMessage::Game(v) if v.room == code)));
    }
    // A third player finds the room full; an unknown code is refused.
    h.sign_in(3, "Cid");
    h.send(3, &ClientMessage::JoinRoom { code: code.clone() });
    assert_eq!(refusal_code(&h.inbox(3)), Some(ErrorCode::RoomFull));
    h.send(3, &ClientMessage::JoinRoom { code: "ZZZZZZZZ".into() });
    assert_eq!(refusal_code(&h.inbox(3)), Some(ErrorCode::UnknownRoom));
}

#[test]
fn room_codes_come_from_the_injected_random_source() {
    let codes = |seed| {
        let mut core = Core::new(Limits::default(), Loaded::default(), Instant::now(), 0, seed);
        (0..3).map(|_| core.new_code()).collect::<Vec<_>>()
    };
    assert_eq!(codes([1; 32]), codes([1; 32]));
    assert_ne!(codes([1; 32]), codes([2; 32]));
}

#[test]
fn a_seat_is_held_then_lost() {
    let hold = Duration::from_secs(30);
    let mut h = Harness::new(Limits { seat_hold: hold, ..Limits::default() });
    let (first, second, view) = h.quick_game(None);
    h.disconnected(second);
    let held = h.inbox(first);
    assert!(held.iter().any(|m| matches!(
        m,
        ServerMessage::PlayerConnection { connected: false, hold_ms: Some(30_000), side: Side::Second, .. }
    )));
    h.advance(hold - Duration::from_millis(1));
    assert_eq!(h.core.live_games(), 1, "still held");
    h.advance(Duration::from_millis(1));
    let over = h.inbox(first);
    let outcome = over.iter().find_map(|m| match m {
        ServerMessage::GameOver { game, outcome, .. } if *game == view.game => Some(*outcome),
        _ => None,
    });
    assert_eq!(outcome, Some(Outcome::win(Side::First, Reason::Abandoned)));
}

#[test]
fn a_held_seat_is_taken_back_with_the_token() {
    let mut h = Harness::new(Limits::default());
    h.sign_in(1, "Ann");
    let token = h.sign_in(2, "Bob");
    h.send(1, &ClientMessage::FindMatch { variant: Variant::Latrunculi, clock: None, rated: false });
    h.send(2, &ClientMessage::FindMatch { variant: Variant::Latrunculi, clock: None, rated: false });
    h.all();
    h.disconnected(2);
    h.all();
    h.connected_with(5, Grant { credential: Some(token.0.clone()), may_create: false });
    let hello = Hello { version: PROTOCOL_VERSION, token: None, nickname: None };
    h.send(5, &ClientMessage::Hello(hello));
    assert!(h.take_lookups().is_empty(), "a player in memory needs no lookup");
    let inbox = h.inbox(5);
    assert!(matches!(inbox.first(), Some(ServerMessage::Welcome { resumed: true, .. })));
    assert!(inbox.iter().any(|m| matches!(m, ServerMessage::Game(_))), "the game comes back");
    let Some(ServerMessage::Welcome { token: rotated, .. }) = inbox.first() else { unreachable!() };
    assert_ne!(rotated, &token, "the credential rotates at each sign-in");
    // The old credential still works once (the Welcome might have been lost), the new one too.
    h.disconnected(5);
    h.connected_with(6, Grant { credential: Some(rotated.0.clone()), may_create: false });
    h.send(6, &ClientMessage::Hello(Hello { version: PROTOCOL_VERSION, token: None, nickname: None }));
    assert!(matches!(h.inbox(6).first(), Some(ServerMessage::Welcome { resumed: true, .. })));
    // A token claimed in the Hello alone signs nobody in: only the connect token counts.
    h.connected_with(7, Grant { credential: None, may_create: false });
    h.send(
        7,
        &ClientMessage::Hello(Hello {
            version: PROTOCOL_VERSION,
            token: Some(rotated.clone()),
            nickname: None,
        }),
    );
    assert!(matches!(h.inbox(7).first(), Some(ServerMessage::Error { code: ErrorCode::SessionExpired, .. })));
}

#[test]
fn a_stored_player_is_looked_up_off_the_loop_and_waiting_messages_follow() {
    let mut h = Harness::new(Limits::default());
    let token = "0123456789abcdef0123456789abcdef".to_string();
    h.connected_with(1, Grant { credential: Some(token.clone()), may_create: false });
    let hello = Hello { version: PROTOCOL_VERSION, token: None, nickname: None };
    h.send(1, &ClientMessage::Hello(hello));
    h.send(1, &ClientMessage::Ping { nonce: 9 });
    let hash = credential_hash(&token);
    let lookups = h.take_lookups();
    assert_eq!(lookups.len(), 1);
    assert_eq!((lookups[0].0, &lookups[0].1), (1, &hash), "looked up by the hash, never the credential");
    assert!(h.inbox(1).is_empty(), "nothing until the answer");
    let stored = StoredPlayer {
        id: 42,
        hash: hash.clone(),
        prev: None,
        last_seen_ms: u64::MAX / 2,
        nickname: "Old".into(),
    };
    h.looked_up(1, &hash, Some(stored));
    let inbox = h.inbox(1);
    assert!(matches!(
        inbox.as_slice(),
        [
            ServerMessage::Welcome { player: PlayerId(42), resumed: true, .. },
            ServerMessage::Pong { nonce: 9 }
        ]
    ));
    // An unknown credential makes a new player when its token passed the new-player limit...
    let other = "ffffffffffffffffffffffffffffffff".to_string();
    let other_hash = credential_hash(&other);
    h.connected_with(2, Grant { credential: Some(other.clone()), may_create: true });
    let hello = Hello { version: PROTOCOL_VERSION, token: None, nickname: None };
    h.send(2, &ClientMessage::Hello(hello.clone()));
    h.looked_up(2, &other_hash, None);
    assert!(matches!(h.inbox(2).as_slice(), [ServerMessage::Welcome { resumed: false, .. }]));
    // ... and is refused otherwise (the client asks again as a new player).
    h.connected_with(3, Grant { credential: Some(other), may_create: false });
    h.send(3, &ClientMessage::Hello(hello));
    h.looked_up(3, &other_hash, None);
    assert!(matches!(h.inbox(3).as_slice(), [ServerMessage::Error { code: ErrorCode::SessionExpired, .. }]));
}

#[test]
fn proposals_are_counted_and_sent_to_spectators() {
    let mut h = Harness::new(Limits::default());
    let (first, _, view) = h.quick_game(None);
    let legal = {
        let record =
            GameRecord { variant: view.variant, start: view.start.clone(), moves: vec![], ending: None };
        let game = AnyGame::from_record(&record).expect("game");
        let position = game.position();
        position.legal_moves().iter().filter_map(|m| position.move_to_string(m)).collect::<Vec<_>>()
    };
    assert!(legal.len() >= 2);
    for (conn, name, mv) in [(10, "Sp1", &legal[0]), (11, "Sp2", &legal[0]), (12, "Sp3", &legal[1])] {
        h.sign_in(conn, name);
        h.send(conn, &ClientMessage::Watch { game: view.game });
        h.send(conn, &ClientMessage::Propose { game: view.game, ply: 0, mv: mv.clone() });
    }
    // A player cannot propose in their own game.
    h.send(first, &ClientMessage::Propose { game: view.game, ply: 0, mv: legal[0].clone() });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::PlayerCannotPropose));
    h.advance(Duration::from_millis(300));
    let proposals = h.inbox(10).into_iter().find_map(|m| match m {
        ServerMessage::Proposals { proposals, .. } => Some(proposals),
        _ => None,
    });
    let proposals = proposals.expect("the spectators get the tally");
    assert_eq!(proposals[0].mv, legal[0]);
    assert_eq!(proposals[0].count, 2);
    assert_eq!(proposals[1].mv, legal[1]);
    assert_eq!(proposals[1].count, 1);
    // The move played closes the ply: spectators get the crowd's verdict.
    h.send(first, &ClientMessage::Move { game: view.game, ply: 0, mv: legal[0].clone() });
    let verdict = h.inbox(11).into_iter().find_map(|m| match m {
        ServerMessage::MovePlayed { crowd, .. } => crowd,
        _ => None,
    });
    let verdict = verdict.expect("a verdict");
    assert_eq!(verdict.backers, 2);
    assert!(verdict.guessed);
}

#[test]
fn a_flood_of_messages_is_rate_limited_then_closed() {
    let mut h = Harness::new(Limits { max_strikes: 5, ..Limits::default() });
    h.sign_in(1, "Ann");
    for nonce in 0..60 {
        h.send(1, &ClientMessage::Ping { nonce });
    }
    let out = h.take_out();
    let pongs = out.iter().filter(|o| matches!(o, Effect::Send(1, _))).count();
    assert!(pongs < 60, "some pings were dropped");
    assert!(out.iter().any(|o| matches!(o, Effect::Close(1))), "the flooder is closed");
}

#[test]
fn shutting_down_tells_every_connection_then_closes_it() {
    let mut h = Harness::new(Limits::default());
    h.sign_in(1, "Ann");
    h.connected(2);
    h.shutting_down();
    let out = h.take_out();
    for conn in [1, 2] {
        let told = out.iter().position(|o| match o {
            Effect::Send(c, bytes) => {
                *c == conn && decode_server(bytes).ok() == Some(ServerMessage::Restarting)
            }
            _ => false,
        });
        let closed = out.iter().position(|o| matches!(o, Effect::Close(c) if *c == conn));
        assert!(told.is_some() && closed.is_some() && told < closed, "conn {conn}: told, then closed");
    }
}

#[test]
fn an_unused_credential_expires() {
    let lifetime = Duration::from_secs(60);
    let mut h = Harness::new(Limits { credential_lifetime: lifetime, ..Limits::default() });
    h.sign_in(1, "Ann");
    let token = h.sign_in(2, "Bob");
    h.send(1, &ClientMessage::FindMatch { variant: Variant::Latrunculi, clock: None, rated: false });
    h.send(2, &ClientMessage::FindMatch { variant: Variant::Latrunculi, clock: None, rated: false });
    h.all();
    h.disconnected(2);
    h.advance(lifetime + Duration::from_secs(1));
    h.all();
    // Still seated (the seat is held 120 s), but the credential is too old: the database is
    // asked with the cutoff, and without a fresh row the connection is refused.
    h.connected_with(3, Grant { credential: Some(token.0.clone()), may_create: false });
    h.send(3, &ClientMessage::Hello(Hello { version: PROTOCOL_VERSION, token: None, nickname: None }));
    let lookups = h.take_lookups();
    assert_eq!(lookups.len(), 1);
    assert_eq!(lookups[0].2, h.unix_ms - lifetime.as_millis() as u64);
    h.looked_up(3, &lookups[0].1, None);
    assert!(matches!(h.inbox(3).as_slice(), [ServerMessage::Error { code: ErrorCode::SessionExpired, .. }]));
}

#[test]
fn look_alike_names_of_players_online_are_refused() {
    let mut h = Harness::new(Limits::default());
    h.sign_in(1, "Ann");
    // Cyrillic А (U+0410) for the Latin A: the same skeleton.
    h.connected(2);
    let hello = Hello { version: PROTOCOL_VERSION, token: None, nickname: Some("\u{410}nn".into()) };
    h.send(2, &ClientMessage::Hello(hello));
    assert!(matches!(h.inbox(2).as_slice(), [ServerMessage::Error { code: ErrorCode::BadNickname, .. }]));
    h.sign_in(3, "Bob");
    h.send(3, &ClientMessage::SetNickname { nickname: "ann".into() });
    assert!(matches!(h.inbox(3).as_slice(), [ServerMessage::Error { code: ErrorCode::BadNickname, .. }]));
    // Once Ann has left, the name is free.
    h.disconnected(1);
    h.send(3, &ClientMessage::SetNickname { nickname: "Ann".into() });
    assert!(matches!(h.inbox(3).as_slice(), [ServerMessage::NicknameSet { .. }]));
}

#[test]
fn a_game_whose_players_are_both_gone_ends_abandoned() {
    let hold = Duration::from_secs(5);
    let mut h = Harness::new(Limits { seat_hold: hold, ..Limits::default() });
    let (first, second, view) = h.quick_game(None);
    h.disconnected(first);
    h.disconnected(second);
    h.take_ops();
    h.advance(hold + Duration::from_secs(1));
    let finished = h.take_ops().into_iter().any(|op| {
        matches!(op, Op::Finish { game, ref outcome, .. } if game == view.game.0 && outcome.to_lowercase().contains("abandon"))
    });
    assert!(finished, "the game is archived as abandoned");
}

#[test]
fn wrong_room_codes_earn_a_cool_down_per_address() {
    let limits = Limits::default();
    let mut h = Harness::new(limits.clone());
    h.sign_in(1, "Ann");
    h.sign_in(2, "Bob");
    h.sign_in(3, "Cy");
    let guesser: std::net::IpAddr = [10, 0, 0, 1].into();
    h.set_origin(2, guesser);
    h.set_origin(3, [10, 0, 0, 2].into());
    h.send(
        1,
        &ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: false, rated: false },
    );
    let code = h
        .inbox(1)
        .iter()
        .find_map(|m| match m {
            ServerMessage::RoomOpened { code, .. } => Some(code.clone()),
            _ => None,
        })
        .expect("a room");
    let wrong = if code == "AAAAAA" { "BBBBBB" } else { "AAAAAA" };
    for _ in 0..limits.code_guesses {
        h.send(2, &ClientMessage::JoinRoom { code: wrong.into() });
        assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::UnknownRoom));
    }
    // Cut off, even with the right code.
    h.send(2, &ClientMessage::JoinRoom { code: code.clone() });
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::TooManyAttempts));
    // Another address is not.
    h.send(3, &ClientMessage::JoinRoom { code: wrong.into() });
    assert_eq!(refusal_code(&h.inbox(3)), Some(ErrorCode::UnknownRoom));
    // After the cool-down, the right code works.
    h.advance(limits.code_cooldown);
    h.send(2, &ClientMessage::JoinRoom { code });
    assert_eq!(refusal_code(&h.inbox(2)), None);
}
