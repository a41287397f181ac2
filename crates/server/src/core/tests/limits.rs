//! Budgets of large answers per connection and per address, the rules of rated play (moves
//! each, games per pair, nicknames claimed from one address), and private games' privacy.

use super::{Harness, first_legal, full_weight, refusal_code};
use crate::core::records::StoredRating;
use crate::core::records::{Loaded, Op};
use crate::core::{
    ConnId, Core, Effect, Limits, RATED_GAMES_PER_PAIR, RATED_MOVES_EACH, RATED_PAIR_WINDOW, address_hash,
    hash_password, rating_view,
};
use ludus_protocol::{ClientMessage, ErrorCode, GameId, GameView, PlayerId, ServerMessage, decode_server};
use ludus_rules::{Side, Variant};
use std::time::{Duration, Instant};

/// The bytes and the game views queued for `conn` since the last call, and its refusals.
fn drawn(h: &mut Harness, conn: ConnId) -> (usize, usize, Vec<ErrorCode>) {
    let (mut bytes, mut views, mut refusals) = (0, 0, Vec::new());
    for o in h.take_out() {
        if let Effect::Send(c, b) = o
            && c == conn
        {
            bytes += b.len();
            match decode_server(&b).expect("decodes") {
                ServerMessage::Game(_) => views += 1,
                ServerMessage::Error { code, .. } => refusals.push(code),
                _ => {}
            }
        }
    }
    (bytes, views, refusals)
}

/// Two live public games (Ann and Bob's, Cy and Di's); their numbers.
fn two_games(h: &mut Harness) -> [GameId; 2] {
    let (_, _, a) = h.quick_game(None);
    h.sign_in(3, "Cy");
    h.sign_in(4, "Di");
    for conn in [3, 4] {
        h.send(conn, &ClientMessage::FindMatch { variant: Variant::Latrunculi, clock: None, rated: false });
    }
    let b = h
        .all()
        .into_iter()
        .find_map(|(_, m)| match m {
            ServerMessage::Game(v) => Some(v.game),
            _ => None,
        })
        .expect("the second game starts");
    [a.game, b]
}

/// Alternating between two games dodges any limit per game; the connection's budget of answer
/// bytes holds: over an instant at most the burst (and one view past it), then the rate.
#[test]
fn alternating_watches_between_two_games_draw_at_most_the_connections_budget() {
    let limits = Limits { answer_burst: 4000.0, answer_rate: 100.0, burst: 1000.0, ..Limits::default() };
    let (burst, rate) = (limits.answer_burst as usize, limits.answer_rate as usize);
    let mut h = Harness::new(limits);
    let games = two_games(&mut h);
    h.sign_in(10, "Sam");
    // 200 requests at one instant, then 200 more ten seconds later.
    let mut rounds = Vec::new();
    for round in 0..2 {
        let (mut bytes, mut views, mut largest, mut refused) = (0, 0, 0, 0);
        for i in 0..200 {
            h.send(10, &ClientMessage::Watch { game: games[i % 2] });
            let (b, v, refusals) = drawn(&mut h, 10);
            if v > 0 {
                (bytes, views, largest) = (bytes + b, views + v, largest.max(b));
            } else {
                assert_eq!(refusals, [ErrorCode::RateLimited], "round {round}, request {i}");
                refused += 1;
            }
        }
        rounds.push((bytes, views, largest, refused));
        h.advance(Duration::from_secs(10));
    }
    let (bytes, views, largest, refused) = rounds[0];
    assert!(views >= 4, "the burst itself is served: {views} views");
    assert!(bytes <= burst + largest, "{bytes} bytes in {views} views in an instant");
    assert!(refused >= 150, "the rest is refused: {refused}");
    let (bytes, views, largest, _) = rounds[1];
    assert!(views >= 1, "the budget refills");
    assert!(bytes <= rate * 10 + largest, "{bytes} bytes in {views} views after 10 s");
}

/// Several connections of one address share the address's budget.
#[test]
fn connections_of_one_address_share_its_budget() {
    let limits =
        Limits { address_answer_burst: 6000.0, address_answer_rate: 0.0, burst: 1000.0, ..Limits::default() };
    let burst = limits.address_answer_burst as usize;
    let mut h = Harness::new(limits);
    let games = two_games(&mut h);
    let address: std::net::IpAddr = "10.0.0.7".parse().unwrap();
    let conns = [10, 11, 12, 13, 14];
    for (conn, name) in conns.iter().zip(["Sam", "Sue", "Sal", "Sid", "Sol"]) {
        h.sign_in(*conn, name);
        h.set_origin(*conn, address);
    }
    let (mut bytes, mut views, mut largest) = (0, 0, 0);
    for i in 0..100 {
        for conn in conns {
            h.send(conn, &ClientMessage::Watch { game: games[i % 2] });
            let (b, v, refusals) = drawn(&mut h, conn);
            if v > 0 {
                bytes += b;
                views += v;
                largest = largest.max(b);
            }
            assert!(v > 0 || refusals == [ErrorCode::RateLimited], "{refusals:?}");
        }
    }
    assert!(views >= 2, "{views}");
    assert!(bytes <= burst + largest, "{bytes} bytes in {views} views from one address");
    // Another address is not held back.
    h.sign_in(20, "Zed");
    h.set_origin(20, "10.0.0.8".parse().unwrap());
    h.send(20, &ClientMessage::Watch { game: games[0] });
    assert_eq!(drawn(&mut h, 20).1, 1);
}

/// The lobby, leaderboards, profiles and archives are paid from the same budget as views.
#[test]
fn lobby_leaderboard_profile_and_archive_requests_share_the_budget() {
    let limits = Limits { answer_burst: 300.0, answer_rate: 0.0, ..Limits::default() };
    let mut h = Harness::new(limits);
    two_games(&mut h);
    h.sign_in(10, "Sam");
    let mut served = 0;
    for _ in 0..20 {
        h.send(10, &ClientMessage::Lobby);
        let messages = h.inbox(10);
        if messages.iter().any(|m| matches!(m, ServerMessage::Lobby(_))) {
            served += 1;
        } else {
            assert_eq!(refusal_code(&messages), Some(ErrorCode::RateLimited));
        }
    }
    assert!((1..20).contains(&served), "{served} lobbies");
    for message in [
        ClientMessage::Leaderboard { variant: Variant::Latrunculi },
        ClientMessage::Profile { nickname: "Ann".into() },
        ClientMessage::Archive { game: GameId(99) },
    ] {
        h.send(10, &message);
        assert_eq!(refusal_code(&h.inbox(10)), Some(ErrorCode::RateLimited), "{message:?}");
    }
    assert!(h.take_games_lookups().is_empty() && h.take_archive_lookups().is_empty());
}

/// Many connections of one address asking for profiles and archives wait for at most four
/// reads of the database at once: the others are refused until an answer comes back, and
/// another address is served meanwhile.
#[test]
fn one_address_has_at_most_four_profile_or_archive_reads_waiting() {
    let mut h = Harness::new(Limits::default());
    h.sign_in(1, "Ann");
    for conn in 10..20 {
        h.sign_in(conn, &format!("Flood{conn}"));
        h.set_origin(conn, key("203.0.113.7"));
    }
    h.sign_in(30, "Other");
    h.set_origin(30, key("198.51.100.1"));
    let mut refused = Vec::new();
    for conn in 10..20 {
        let message = if conn % 2 == 0 {
            ClientMessage::Profile { nickname: "Ann".into() }
        } else {
            ClientMessage::Archive { game: GameId(99) }
        };
        h.send(conn, &message);
        if refusal_code(&h.inbox(conn)) == Some(ErrorCode::RateLimited) {
            refused.push(conn);
        }
    }
    let profiles = h.take_games_lookups();
    let archives = h.take_archive_lookups();
    assert_eq!(profiles.len() + archives.len(), 4, "four reads asked of the database");
    assert_eq!(refused, (14..20).collect::<Vec<_>>());
    h.send(30, &ClientMessage::Profile { nickname: "Ann".into() });
    assert_eq!(h.take_games_lookups().len(), 1, "another address is served");
    // An answer frees a read for the address; a connection that closes frees its own.
    let (conn, player, nickname, _) = profiles[0].clone();
    h.games_found(conn, player, nickname, Vec::new());
    h.disconnected(archives[0].0);
    for conn in [14, 15] {
        let message = if conn % 2 == 0 {
            ClientMessage::Profile { nickname: "Ann".into() }
        } else {
            ClientMessage::Archive { game: GameId(99) }
        };
        h.send(conn, &message);
    }
    assert_eq!(h.take_games_lookups().len() + h.take_archive_lookups().len(), 2);
    h.send(16, &ClientMessage::Profile { nickname: "Ann".into() });
    assert_eq!(refusal_code(&h.inbox(16)), Some(ErrorCode::RateLimited));
}

// Rated play.

/// Ann (1) and Bob (2) claimed from two addresses, in a rated room of Ann's; the first view.
fn rated_pair(h: &mut Harness, addresses: [&str; 2]) -> GameView {
    for (conn, (name, address)) in [(1, ("Ann", addresses[0])), (2, ("Bob", addresses[1]))] {
        h.sign_in(conn, name);
        h.set_origin(conn, key(address));
        h.claim(conn, "a good password");
    }
    h.send(
        1,
        &ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: true, rated: true },
    );
    let code = match h.inbox(1).as_slice() {
        [ServerMessage::RoomOpened { code, .. }] => code.clone(),
        other => panic!("expected a room, got {other:?}"),
    };
    h.send(2, &ClientMessage::JoinRoom { code });
    view_of(h)
}

/// An address's key, as the server hands it to the core (IPv6: its /64).
fn key(address: &str) -> std::net::IpAddr {
    crate::addresses::address_key(&std::net::SocketAddr::new(address.parse().unwrap(), 0))
}

fn view_of(h: &mut Harness) -> GameView {
    h.all()
        .into_iter()
        .find_map(|(_, m)| match m {
            ServerMessage::Game(v) => Some(v),
            _ => None,
        })
        .expect("a game starts")
}

/// The connection of the player of `side` in `view` (Ann is 1, Bob 2).
fn conn_of(view: &GameView, side: Side) -> ConnId {
    view.players[side.index()].id.0
}

/// Plays `plies` first legal moves, then First resigns; the archive.
fn play_and_resign(h: &mut Harness, view: &GameView, plies: usize) -> ludus_protocol::ArchivedGame {
    let mut view = view.clone();
    for ply in 0..plies {
        let mv = first_legal(&view, ply);
        let side = if ply % 2 == 0 { Side::First } else { Side::Second };
        h.send(
            conn_of(&view, side),
            &ClientMessage::Move { game: view.game, ply: ply as u32, mv: mv.clone() },
        );
        view.moves.push(mv);
    }
    h.send(conn_of(&view, Side::First), &ClientMessage::Resign { game: view.game });
    h.all()
        .into_iter()
        .find_map(|(_, m)| match m {
            ServerMessage::GameOver { archive, .. } => Some(archive),
            _ => None,
        })
        .expect("the game is over")
}

/// Both rematch `game`; the new view.
fn rematch(h: &mut Harness, game: GameId) -> GameView {
    for conn in [1, 2] {
        h.send(conn, &ClientMessage::Rematch { game });
    }
    view_of(h)
}

fn rating(h: &Harness, pid: u64) -> StoredRating {
    h.core.claimed_rating(PlayerId(pid), Variant::Alquerque).expect("claimed")
}

#[test]
fn twelve_resignations_at_ply_zero_leave_both_ratings_at_the_start() {
    let mut h = Harness::new(Limits::default());
    let mut view = rated_pair(&mut h, ["10.0.0.1", "10.0.0.2"]);
    h.take_ops();
    for n in 0..12 {
        assert!(view.rated, "game {n} starts rated");
        let archive = play_and_resign(&mut h, &view, 0);
        assert!(!archive.rated && archive.ratings.is_none(), "game {n}: {archive:?}");
        let ops = h.take_ops();
        assert!(ops.iter().any(|op| matches!(op, Op::Unrated { game } if *game == view.game.0)));
        assert!(!ops.iter().any(|op| matches!(op, Op::Rating { .. })), "no rating stored");
        view = rematch(&mut h, view.game);
    }
    for pid in [1, 2] {
        assert_eq!(rating(&h, pid), StoredRating::default(), "player {pid}");
    }
}

/// A rated game changes the ratings only once each side has moved [`RATED_MOVES_EACH`] times
/// and it has lasted [`Limits::rated_min_play`]: fewer moves, or the same moves in less time,
/// leave the ratings as they were.
#[test]
fn enough_moves_each_and_time_change_the_ratings_and_less_does_not() {
    let limits = Limits { rated_opponents_full: 0, ..Limits::default() };
    let min_play = limits.rated_min_play;
    let mut h = Harness::new(limits);
    let view = rated_pair(&mut h, ["10.0.0.1", "10.0.0.2"]);
    h.advance(min_play);
    let short = play_and_resign(&mut h, &view, 2 * RATED_MOVES_EACH - 1);
    assert!(!short.rated, "one move short");
    let view = rematch(&mut h, view.game);
    h.advance(min_play - Duration::from_secs(1));
    let quick = play_and_resign(&mut h, &view, 2 * RATED_MOVES_EACH);
    assert!(!quick.rated, "a second too quick");
    assert_eq!(rating(&h, 1).rating, 1500.0);
    let view = rematch(&mut h, view.game);
    h.advance(min_play);
    let archive = play_and_resign(&mut h, &view, 2 * RATED_MOVES_EACH);
    assert!(archive.rated);
    let changes = archive.ratings.expect("rated");
    let loser = view.players[0].id.0;
    assert!(rating(&h, loser).rating < 1500.0 && rating(&h, view.players[1].id.0).rating > 1500.0);
    assert_eq!(changes[0].after, rating_view(&rating(&h, loser)));
    assert_eq!(rating(&h, loser).games, 1);
}

#[test]
fn the_fourth_rated_game_of_a_day_between_the_same_two_is_unrated() {
    let mut h = Harness::new(full_weight());
    let mut view = rated_pair(&mut h, ["10.0.0.1", "10.0.0.2"]);
    for n in 0..RATED_GAMES_PER_PAIR {
        assert!(view.rated, "game {n}");
        assert!(play_and_resign(&mut h, &view, 2 * RATED_MOVES_EACH).rated);
        view = rematch(&mut h, view.game);
    }
    h.take_ops();
    assert!(!view.rated, "the view says the fourth game is unrated");
    assert_eq!(RATED_GAMES_PER_PAIR, 3);
    let games = rating(&h, 1).games;
    let archive = play_and_resign(&mut h, &view, 4);
    assert!(!archive.rated && archive.ratings.is_none());
    assert_eq!(rating(&h, 1).games, games, "no rating changed");
    // A day after the first, one more counts.
    h.advance(RATED_PAIR_WINDOW);
    let view = rematch(&mut h, view.game);
    assert!(view.rated);
    assert!(h.take_ops().iter().any(|op| matches!(op, Op::NewGame { rated: true, .. })));
}

/// After a restart, the rated games of the day (from the database) still count.
#[test]
fn the_pair_limit_survives_a_restart() {
    use crate::core::records::StoredClaim;
    let claim = |id, nickname: &str| StoredClaim {
        id,
        nickname: nickname.into(),
        password_hash: hash_password("a good password").unwrap(),
        ratings: Vec::new(),
        turn_ratings: Vec::new(),
        origin: None,
    };
    let unix_ms = 100 * 24 * 3600 * 1000;
    let hour = 3600 * 1000;
    let rated_games =
        vec![([1, 2], unix_ms - 3 * hour), ([2, 1], unix_ms - 2 * hour), ([1, 2], unix_ms - hour)];
    let loaded = Loaded {
        claims: vec![claim(1, "Ann"), claim(2, "Bob")],
        rated_games,
        next_player: 3,
        ..Loaded::default()
    };
    let now = Instant::now() + RATED_PAIR_WINDOW;
    let mut h = Harness::of(Core::new(Limits::default(), loaded, now, unix_ms, [7; 32]), now, unix_ms);
    for (conn, name) in [(5, "Guest"), (6, "Other")] {
        h.sign_in(conn, name);
    }
    for (conn, name) in [(5, "Ann"), (6, "Bob")] {
        assert!(
            h.sign_in_claimed(conn, name, "a good password")
                .iter()
                .any(|m| matches!(m, ServerMessage::Welcome { .. }))
        );
    }
    h.send(
        5,
        &ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: true, rated: true },
    );
    let code = match h.inbox(5).as_slice() {
        [ServerMessage::RoomOpened { code, .. }] => code.clone(),
        other => panic!("expected a room, got {other:?}"),
    };
    h.send(6, &ClientMessage::JoinRoom { code });
    assert!(!view_of(&mut h).rated, "three rated games within the day before the restart");
}

#[test]
fn nicknames_claimed_from_one_address_play_each_other_unrated() {
    let mut h = Harness::new(Limits::default());
    let view = rated_pair(&mut h, ["10.0.0.1", "10.0.0.1"]);
    assert!(!view.rated, "both claimed from one address within a day");
    let ops = h.take_ops();
    let origins: Vec<&String> = ops
        .iter()
        .filter_map(|op| match op {
            Op::ClaimOrigin { address, .. } => Some(address),
            _ => None,
        })
        .collect();
    assert_eq!(origins.len(), 2, "both claims' origins are stored");
    assert_eq!(origins[0], origins[1]);
    assert!(!origins[0].contains("10.0.0.1") && origins[0].len() == 32, "a hash, not the address");
    assert_eq!(origins[0], &address_hash(&[0; 32], "10.0.0.1".parse().unwrap()));
    assert_ne!(origins[0], &address_hash(&[1; 32], "10.0.0.1".parse().unwrap()), "keyed");
    let archive = play_and_resign(&mut h, &view, 6);
    assert!(!archive.rated);
    assert_eq!(rating(&h, 1), StoredRating::default());
    // The same from one IPv6 /64; a day apart, or from two addresses, rated.
    let mut h = Harness::new(Limits::default());
    assert!(!rated_pair(&mut h, ["2001:db8::1", "2001:db8::2"]).rated, "one /64");
    let mut h = Harness::new(Limits::default());
    assert!(rated_pair(&mut h, ["10.0.0.1", "10.0.0.2"]).rated);
    let mut h = Harness::new(Limits::default());
    h.sign_in(1, "Ann");
    h.set_origin(1, "10.0.0.1".parse().unwrap());
    h.claim(1, "a good password");
    h.disconnected(1);
    h.advance(Duration::from_secs(24 * 3600));
    let mut h2 = h;
    h2.sign_in(2, "Bob");
    h2.set_origin(2, "10.0.0.1".parse().unwrap());
    h2.claim(2, "a good password");
    h2.sign_in(3, "Guest");
    assert!(
        h2.sign_in_claimed(3, "Ann", "a good password")
            .iter()
            .any(|m| matches!(m, ServerMessage::Welcome { .. }))
    );
    h2.send(
        3,
        &ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: true, rated: true },
    );
    let code = match h2.inbox(3).as_slice() {
        [ServerMessage::RoomOpened { code, .. }] => code.clone(),
        other => panic!("expected a room, got {other:?}"),
    };
    h2.send(2, &ClientMessage::JoinRoom { code });
    assert!(view_of(&mut h2).rated, "claims a day apart");
}

// Private games.

/// A live private game of others and a game that does not exist get the same archive answer,
/// by the same path (a database lookup), of the same size; so do watch requests.
#[test]
fn a_live_private_game_and_a_missing_one_answer_alike() {
    let mut h = Harness::new(Limits::default());
    h.sign_in(1, "Ann");
    h.sign_in(2, "Bob");
    h.send(
        1,
        &ClientMessage::OpenRoom { variant: Variant::Latrunculi, clock: None, public: false, rated: false },
    );
    let code = match h.inbox(1).as_slice() {
        [ServerMessage::RoomOpened { code, .. }] => code.clone(),
        other => panic!("expected a room, got {other:?}"),
    };
    h.send(2, &ClientMessage::JoinRoom { code });
    let private = view_of(&mut h).game;
    let missing = GameId(private.0 + 1);
    h.sign_in(3, "Cy");
    let mut answers = Vec::new();
    for game in [private, missing] {
        h.send(3, &ClientMessage::Archive { game });
        assert!(h.take_out().is_empty(), "no answer before the database's");
        assert_eq!(h.take_archive_lookups(), [(3, game.0)]);
        h.archive_found(3, game.0, None);
        let out = h.take_out();
        let [Effect::Send(3, bytes)] = out.as_slice() else { panic!("one answer: {out:?}") };
        let text = match decode_server(bytes).expect("decodes") {
            ServerMessage::Error { code: ErrorCode::UnknownGame, message } => message,
            other => panic!("{other:?}"),
        };
        answers.push((bytes.len(), text.replace(&game.0.to_string(), "#")));
    }
    assert_eq!(answers[0], answers[1]);
    let mut watched = Vec::new();
    for game in [private, missing] {
        h.send(3, &ClientMessage::Watch { game });
        let out = h.take_out();
        let [Effect::Send(3, bytes)] = out.as_slice() else { panic!("one answer: {out:?}") };
        let text = match decode_server(bytes).expect("decodes") {
            ServerMessage::Error { code: ErrorCode::UnknownGame, message } => message,
            other => panic!("{other:?}"),
        };
        watched.push((bytes.len(), text.replace(&game.0.to_string(), "#")));
    }
    assert_eq!(watched[0], watched[1]);
    // Its players are told it is live.
    h.send(1, &ClientMessage::Archive { game: private });
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::UnknownGame));
    assert!(h.take_archive_lookups().is_empty());
}

/// A private rated game counts in no public number: not in the lobby's games, and not in the
/// leaderboard's or the profile's game counts (the ratings change).
#[test]
fn private_games_count_in_no_public_number() {
    let mut h = Harness::new(full_weight());
    for (conn, name, address) in [(1, "Ann", "10.0.0.1"), (2, "Bob", "10.0.0.2")] {
        h.sign_in(conn, name);
        h.set_origin(conn, address.parse().unwrap());
        h.claim(conn, "a good password");
    }
    h.send(
        1,
        &ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: false, rated: true },
    );
    let code = match h.inbox(1).as_slice() {
        [ServerMessage::RoomOpened { code, .. }] => code.clone(),
        other => panic!("expected a room, got {other:?}"),
    };
    h.send(2, &ClientMessage::JoinRoom { code });
    let view = view_of(&mut h);
    assert!(view.rated);
    h.sign_in(3, "Cy");
    h.send(3, &ClientMessage::Lobby);
    match h.inbox(3).as_slice() {
        [ServerMessage::Lobby(l)] => assert_eq!((l.total_games, l.games.len(), l.total_rooms), (0, 0, 0)),
        other => panic!("{other:?}"),
    }
    let archive = play_and_resign(&mut h, &view, 2 * RATED_MOVES_EACH);
    assert!(archive.rated);
    assert_ne!(rating(&h, 1).rating, 1500.0, "the rating changed");
    for pid in [1, 2] {
        let r = rating(&h, pid);
        assert_eq!((r.games, r.wins, r.draws, r.losses), (0, 0, 0, 0), "no public record");
    }
    h.send(3, &ClientMessage::Leaderboard { variant: Variant::Alquerque });
    match h.inbox(3).as_slice() {
        [ServerMessage::Leaderboard { top, .. }] => assert!(top.is_empty(), "{top:?}"),
        other => panic!("{other:?}"),
    }
    h.send(3, &ClientMessage::Profile { nickname: "Ann".into() });
    let mut lookups = h.take_games_lookups();
    assert_eq!(lookups.len(), 1);
    let (conn, player, nickname, own) = lookups.remove(0);
    h.games_found(conn, player, nickname, Vec::new());
    assert!(!own);
    match h.inbox(3).as_slice() {
        [ServerMessage::Profile(p)] => {
            assert!(p.ratings.iter().all(|r| r.games == 0), "{:?}", p.ratings);
        }
        other => panic!("{other:?}"),
    }
}

// The daily cap on games.

/// `a` and `b` (signed in) ask for a quick match; whether a game started, or `a`'s refusal.
fn quick(h: &mut Harness, a: ConnId, b: ConnId) -> Result<GameId, ErrorCode> {
    h.send(a, &ClientMessage::FindMatch { variant: Variant::Alquerque, clock: None, rated: false });
    if let Some(code) = refusal_code(&h.inbox(a)) {
        return Err(code);
    }
    h.send(b, &ClientMessage::FindMatch { variant: Variant::Alquerque, clock: None, rated: false });
    let game = h
        .all()
        .into_iter()
        .find_map(|(_, m)| match m {
            ServerMessage::Game(v) => Some(v.game),
            _ => None,
        })
        .expect("a game starts");
    h.send(a, &ClientMessage::Resign { game });
    h.all();
    Ok(game)
}

/// Each account starts so many games a day, and all the accounts of one address together so
/// many; past either, a new game is refused (`RateLimited`) until the day is over, and nothing
/// more is stored.
#[test]
fn games_a_day_are_capped_per_account_and_per_address() {
    let limits = Limits { games_per_player_day: 3, games_per_address_day: 5, ..Limits::default() };
    let mut h = Harness::new(limits);
    for (conn, name, address) in [
        (1, "Ann", "203.0.113.9"),
        (2, "Amy", "203.0.113.9"),
        (3, "Bob", "198.51.100.1"),
        (4, "Cy", "198.51.100.2"),
        (5, "Dan", "198.51.100.3"),
        (6, "Eve", "198.51.100.4"),
    ] {
        h.sign_in(conn, name);
        h.set_origin(conn, key(address));
    }
    for _ in 0..3 {
        assert!(quick(&mut h, 1, 3).is_ok());
    }
    h.take_ops();
    assert_eq!(quick(&mut h, 1, 3), Err(ErrorCode::RateLimited), "Ann's fourth game of the day");
    assert_eq!(quick(&mut h, 3, 1), Err(ErrorCode::RateLimited), "nor with her as the opponent");
    assert!(!h.take_ops().iter().any(|op| matches!(op, Op::NewGame { .. })), "nothing stored");
    // Amy shares Ann's address: two more games, then the address is at its cap.
    for _ in 0..2 {
        assert!(quick(&mut h, 2, 4).is_ok());
    }
    assert_eq!(quick(&mut h, 2, 4), Err(ErrorCode::RateLimited), "the address's sixth game");
    h.send(
        2,
        &ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: true, rated: false },
    );
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::RateLimited), "a room neither");
    // Another pair is not held back, and a day later Ann plays again.
    assert!(quick(&mut h, 5, 6).is_ok());
    h.advance(crate::core::GAMES_DAY);
    h.all();
    assert!(quick(&mut h, 1, 3).is_ok());
}

/// After a restart, each account's games of the last day (as stored) count again.
#[test]
fn the_games_of_the_day_count_again_after_a_restart() {
    let limits = Limits { games_per_player_day: 3, ..Limits::default() };
    let loaded = Loaded { games_today: vec![[1, 9]; 3], next_player: 1, ..Loaded::default() };
    let now = Instant::now();
    let mut h = Harness::of(Core::new(limits, loaded, now, 1_000_000, [7; 32]), now, 1_000_000);
    h.sign_in(1, "Ann");
    h.sign_in(2, "Bob");
    assert_eq!(quick(&mut h, 1, 2), Err(ErrorCode::RateLimited));
    h.send(2, &ClientMessage::FindMatch { variant: Variant::Alquerque, clock: None, rated: false });
    assert!(matches!(h.inbox(2).as_slice(), [ServerMessage::Queued { .. }]), "Bob's count is his own");
}

// Farming from a second address.

/// The attack that took a rating from 1500 to 2077: eight nicknames claimed from one other
/// address each resign three rated games to Tom, after enough moves and time. None of them
/// has met anyone but Tom in a rated game, so none of Tom's wins counts: his rating stays.
/// A win against a player who has met enough other opponents counts in full.
#[test]
fn wins_against_accounts_that_met_nobody_else_leave_the_rating_as_it_was() {
    let limits = Limits { burst: 1e6, rate: 1e6, ..Limits::default() };
    let (min_play, full) = (limits.rated_min_play, limits.rated_opponents_full as u64);
    let mut h = Harness::new(limits);
    h.sign_in(1, "Tom");
    h.set_origin(1, key("198.51.100.9"));
    h.claim(1, "a good password");
    let tom = PlayerId(1);
    let before = rating(&h, 1);
    // Tom opens a rated room, `sheep` joins, and loses after enough moves and time.
    let lose_to_tom = |h: &mut Harness, sheep: ConnId, games: usize| {
        h.send(
            1,
            &ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: true, rated: true },
        );
        let code = match h.inbox(1).as_slice() {
            [ServerMessage::RoomOpened { code, .. }] => code.clone(),
            other => panic!("expected a room, got {other:?}"),
        };
        h.send(sheep, &ClientMessage::JoinRoom { code });
        let mut view = view_of(h);
        for n in 0..games {
            h.advance(min_play);
            let mut moves = view.clone();
            for ply in 0..2 * RATED_MOVES_EACH {
                let mv = first_legal(&moves, ply);
                let side = if ply % 2 == 0 { Side::First } else { Side::Second };
                let conn = if moves.players[side.index()].id == tom { 1 } else { sheep };
                h.send(conn, &ClientMessage::Move { game: view.game, ply: ply as u32, mv: mv.clone() });
                moves.moves.push(mv);
            }
            h.send(sheep, &ClientMessage::Resign { game: view.game });
            let archive = h
                .all()
                .into_iter()
                .find_map(|(_, m)| match m {
                    ServerMessage::GameOver { archive, .. } => Some(archive),
                    _ => None,
                })
                .expect("over");
            assert!(archive.rated, "game {n} of {sheep} is rated");
            if n + 1 < games {
                for conn in [1, sheep] {
                    h.send(conn, &ClientMessage::Rematch { game: view.game });
                }
                view = view_of(h);
            }
        }
        for conn in [1, sheep] {
            h.send(conn, &ClientMessage::Leave);
        }
        h.all();
    };
    for sheep in 10..18 {
        h.sign_in(sheep, &format!("Sheep{sheep}"));
        h.set_origin(sheep, key("203.0.113.50"));
        h.claim(sheep, "a good password");
        lose_to_tom(&mut h, sheep, RATED_GAMES_PER_PAIR);
    }
    let after = rating(&h, 1);
    assert_eq!((after.rating, after.deviation), (before.rating, before.deviation), "nothing gained");
    assert_eq!((after.games, after.wins), (24, 24), "the games are on the record");
    // Ola has met `full` players other than Tom (stored ones are read back alike): a win
    // against her counts in full.
    h.sign_in(30, "Ola");
    h.set_origin(30, key("192.0.2.30"));
    h.claim(30, "a good password");
    let ola = h.core.conns[&30].player.expect("signed in");
    for other in 0..full {
        h.core.accounts.claims.get_mut(&ola).expect("claimed").opponents.insert(PlayerId(1000 + other));
    }
    let expected = crate::core::rating_period(&after, &[(rating(&h, ola.0), 1.0)]);
    lose_to_tom(&mut h, 30, 1);
    assert_eq!(rating(&h, tom.0).rating, expected.rating);
    assert!(rating(&h, tom.0).rating > before.rating);
}
