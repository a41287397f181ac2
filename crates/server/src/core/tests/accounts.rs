//! Claimed nicknames, passwords, ratings, matchmaking by rating, archives and the leaderboard.

use super::{Harness, first_legal, full_weight, rate, refusal_code, started, watched_chat_game};
use crate::core::records;
use crate::core::records::{Loaded, Op, StoredPlayer};
use crate::core::{ConnId, Core, Limits, hash_password, rating_period, rating_view, verify_password};
use crate::credential::{Grant, credential_hash};
use ludus_protocol::{
    ChatText, ClientMessage, ErrorCode, GameId, Hello, PROTOCOL_VERSION, PlayerId, QuickPhrase,
    ServerMessage, encode,
};
use ludus_rules::Variant;
use std::time::{Duration, Instant};

#[test]
fn a_claimed_name_is_kept_from_look_alikes_and_signs_in_on_another_device() {
    let mut h = Harness::new(Limits::default());
    h.sign_in(1, "Ann");
    h.send(1, &ClientMessage::ClaimNickname { password: ludus_protocol::Password("short".into()) });
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::BadPassword));
    assert!(h.take_password_jobs().is_empty(), "nothing hashed");
    h.claim(1, "correct horse");
    let claimed = h.take_ops().into_iter().find_map(|op| match op {
        Op::Claim { id, skeleton, password_hash } => Some((id, skeleton, password_hash)),
        _ => None,
    });
    let (id, skeleton, password_hash) = claimed.expect("the claim is stored");
    assert_eq!((id, skeleton.as_str()), (1, "ann"));
    assert!(password_hash.starts_with("$argon2id$"), "a PHC string: {password_hash}");
    assert!(!password_hash.contains("correct horse"));
    h.send(1, &ClientMessage::SetNickname { nickname: "Annie".into() });
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::BadNickname), "a claimed name stays");
    // Gone, Ann's name and its look-alikes stay hers.
    h.disconnected(1);
    h.sign_in(2, "Bob");
    for name in ["ann", "\u{410}nn"] {
        h.send(2, &ClientMessage::SetNickname { nickname: name.into() });
        assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::BadNickname), "{name}");
    }
    // A wrong password and an unknown name look the same.
    for (name, password) in [("Ann", "wrong password"), ("Nobody", "correct horse")] {
        let answer = h.sign_in_claimed(2, name, password);
        assert_eq!(refusal_code(&answer), Some(ErrorCode::BadCredentials), "{name}");
    }
    // The right one, in another spelling of the name, on Bob's connection: Ann's id.
    let answer = h.sign_in_claimed(2, "ANN", "correct horse");
    match answer.as_slice() {
        [ServerMessage::Welcome { player, nickname, resumed: true, .. }] => {
            assert_eq!((*player, nickname.as_str()), (PlayerId(1), "Ann"));
        }
        other => panic!("expected a welcome, got {other:?}"),
    }
    let credential =
        h.take_ops().into_iter().any(|op| matches!(op, Op::Credential { id: 1, prev: None, .. }));
    assert!(credential, "a fresh credential for Ann is stored");
}

#[test]
fn wrong_passwords_earn_a_cool_down_per_address_and_per_name() {
    let mut h = Harness::new(Limits::default());
    h.sign_in(1, "Ann");
    h.claim(1, "correct horse");
    h.sign_in(2, "Bob");
    h.set_origin(2, "10.0.0.2".parse().unwrap());
    for _ in 0..5 {
        assert_eq!(
            refusal_code(&h.sign_in_claimed(2, "Ann", "guess guess")),
            Some(ErrorCode::BadCredentials)
        );
    }
    assert_eq!(
        refusal_code(&h.sign_in_claimed(2, "Ann", "correct horse")),
        Some(ErrorCode::TooManyAttempts),
        "even the right password waits"
    );
    assert!(h.take_password_jobs().is_empty(), "nothing is checked meanwhile");
    // Another address is refused too: the name itself is cooling down.
    h.sign_in(3, "Cy");
    h.set_origin(3, "10.0.0.3".parse().unwrap());
    assert_eq!(refusal_code(&h.sign_in_claimed(3, "Ann", "correct horse")), Some(ErrorCode::TooManyAttempts));
    h.advance(Duration::from_secs(301));
    let answer = h.sign_in_claimed(3, "Ann", "correct horse");
    assert!(matches!(answer.as_slice(), [ServerMessage::Welcome { player: PlayerId(1), .. }]), "{answer:?}");
}

#[test]
fn rated_play_needs_claimed_names_and_changes_both_ratings() {
    let mut h = Harness::new(full_weight());
    h.sign_in(1, "Ann");
    h.sign_in(2, "Bob");
    let find = |rated| ClientMessage::FindMatch { variant: Variant::Alquerque, clock: None, rated };
    h.send(1, &find(true));
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::NotClaimed));
    h.claim(1, "password one");
    h.send(
        1,
        &ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: false, rated: true },
    );
    let code = match h.inbox(1).as_slice() {
        [ServerMessage::RoomOpened { code, .. }] => code.clone(),
        other => panic!("expected a room, got {other:?}"),
    };
    h.send(2, &ClientMessage::JoinRoom { code: code.clone() });
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::NotClaimed), "an anonymous guest is refused");
    h.claim(2, "password two");
    h.take_ops();
    h.send(2, &ClientMessage::JoinRoom { code });
    let view = h.all().into_iter().find_map(|(_, m)| match m {
        ServerMessage::Game(v) => Some(v),
        _ => None,
    });
    let view = view.expect("the game starts");
    assert!(h.take_ops().iter().any(|op| matches!(op, Op::NewGame { rated: true, .. })));
    let first = if view.players[0].id == PlayerId(1) { 1 } else { 2 };
    // Enough moves each (a shorter game changes no rating), then First resigns.
    let mut moves = view.clone();
    for ply in 0..2 * crate::core::RATED_MOVES_EACH {
        let mv = first_legal(&moves, ply);
        let mover = if ply % 2 == 0 { first } else { 3 - first };
        h.send(mover, &ClientMessage::Move { game: view.game, ply: ply as u32, mv: mv.clone() });
        moves.moves.push(mv);
    }
    h.take_ops();
    h.send(first, &ClientMessage::Resign { game: view.game });
    let ops = h.take_ops();
    let archive: ludus_protocol::ArchivedGame = ops
        .iter()
        .find_map(|op| match op {
            Op::Finish { archive, .. } => serde_json::from_str(archive).ok(),
            _ => None,
        })
        .expect("archived");
    assert!(archive.rated);
    let d = records::StoredRating::default();
    let expect = [rating_period(&d, &[(d, 0.0)]), rating_period(&d, &[(d, 1.0)])];
    let changes = archive.ratings.expect("rating changes archived");
    assert_eq!(changes.map(|c| c.after), expect.map(|r| rating_view(&r)));
    assert_eq!(changes[0].before, rating_view(&d));
    let stored: Vec<(u64, f64)> = ops
        .iter()
        .filter_map(|op| match op {
            Op::Rating { player, variant: Variant::Alquerque, rating } => Some((*player, rating.rating)),
            _ => None,
        })
        .collect();
    let loser = view.players[0].id.0;
    assert_eq!(stored.len(), 2, "both ratings are stored in the same batch as the archive");
    assert!(stored.contains(&(loser, expect[0].rating)));
    assert!(expect[0].rating < 1500.0 && expect[1].rating > 1500.0);
}

/// Glickman's worked example ("Example of the Glicko-2 system"): 1500/200/0.06 against
/// 1400/30, 1550/100 and 1700/300, scoring 1, 0, 0, through the function the server rates with.
#[test]
fn glicko2_matches_glickmans_worked_example() {
    let r = |rating, deviation| records::StoredRating {
        rating,
        deviation,
        volatility: 0.06,
        ..records::StoredRating::default()
    };
    let after = rating_period(
        &r(1500.0, 200.0),
        &[(r(1400.0, 30.0), 1.0), (r(1550.0, 100.0), 0.0), (r(1700.0, 300.0), 0.0)],
    );
    assert!((after.rating - 1464.06).abs() < 0.01, "{}", after.rating);
    assert!((after.deviation - 151.52).abs() < 0.01, "{}", after.deviation);
    assert!((after.volatility - 0.05999).abs() < 0.00001, "{}", after.volatility);
    assert_eq!((after.games, after.wins, after.losses, after.draws), (3, 1, 2, 0));
}

/// The cost of one Argon2id hash with the default parameters (what the password thread
/// spends per claim or sign-in), printed for the operator.
#[test]
fn argon2_cost_is_measured() {
    let started = Instant::now();
    let hash = hash_password("correct horse").expect("hashes");
    let hashed = started.elapsed();
    let started = Instant::now();
    assert!(verify_password(&hash, "correct horse"));
    let verified = started.elapsed();
    assert!(!verify_password(&hash, "wrong horse"));
    assert!(!verify_password("not a phc string", "correct horse"));
    println!("argon2id default parameters: hash {hashed:?}, verify {verified:?}");
}

#[test]
fn the_leaderboard_orders_by_rating_then_games_then_id_and_lists_only_rated_claims() {
    use records::{StoredClaim, StoredRating};
    let rated = |rating, games| StoredRating { rating, games, wins: games, ..StoredRating::default() };
    let claim = |id, name: &str, ratings: Vec<(Variant, StoredRating)>| StoredClaim {
        id,
        nickname: name.into(),
        password_hash: String::new(),
        ratings,
        turn_ratings: Vec::new(),
        origin: None,
    };
    let mut claims = vec![
        claim(1, "Ann", vec![(Variant::Alquerque, rated(1600.0, 3))]),
        claim(2, "Ben", vec![(Variant::Alquerque, rated(1700.0, 1))]),
        claim(3, "Cy", vec![(Variant::Alquerque, rated(1600.0, 5))]),
        claim(4, "Di", vec![(Variant::Alquerque, rated(1600.0, 3)), (Variant::Latrunculi, rated(1400.0, 1))]),
        claim(5, "Ed", vec![]),
    ];
    claims.extend(
        (10..70).map(|id| claim(id, &format!("P{id}"), vec![(Variant::Alquerque, rated(1000.0, 1))])),
    );
    let loaded = Loaded { claims, next_player: 100, ..Loaded::default() };
    let now = Instant::now();
    let mut h = Harness::of(Core::new(Limits::default(), loaded, now, 1_000_000, [7; 32]), now, 1_000_000);
    h.sign_in(1, "Zed");
    h.send(1, &ClientMessage::Leaderboard { variant: Variant::Alquerque });
    let (top, yours) = match h.inbox(1).as_slice() {
        [ServerMessage::Leaderboard { variant: Variant::Alquerque, top, yours }] => {
            (top.clone(), yours.clone())
        }
        other => panic!("expected a leaderboard, got {other:?}"),
    };
    let names: Vec<&str> = top.iter().take(4).map(|e| e.nickname.as_str()).collect();
    assert_eq!(names, ["Ben", "Cy", "Ann", "Di"], "by rating, then more games, then the lower id");
    assert_eq!(top.len(), ludus_protocol::LEADERBOARD_TOP);
    assert!(top.iter().all(|e| e.nickname != "Ed"), "no rated game: not listed");
    assert_eq!(yours, None, "an anonymous player has no place");
    h.send(1, &ClientMessage::Leaderboard { variant: Variant::LatrunculiQuick });
    assert!(
        matches!(h.inbox(1).as_slice(), [ServerMessage::Leaderboard { top, yours: None, .. }] if top.is_empty())
    );
    // A profile: ratings from memory, recent games from the database (answered here by hand).
    h.send(1, &ClientMessage::Profile { nickname: "di".into() });
    assert!(h.inbox(1).is_empty(), "waits for the database");
    let lookups = h.take_games_lookups();
    assert_eq!(lookups, [(1, 4, "Di".to_string(), false)], "private games only in your own profile");
    h.send(1, &ClientMessage::Profile { nickname: "Ann".into() });
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::RateLimited), "one profile at a time");
    h.games_found(1, 4, "Di".into(), Vec::new());
    let profile = match h.inbox(1).as_slice() {
        [ServerMessage::Profile(p)] => p.clone(),
        other => panic!("expected a profile, got {other:?}"),
    };
    assert!(profile.claimed);
    assert_eq!(profile.player, PlayerId(4));
    assert_eq!(profile.ratings.len(), 3);
    let latrunculi = profile.ratings.iter().find(|r| r.variant == Variant::Latrunculi).unwrap();
    assert_eq!((latrunculi.rating.rating, latrunculi.games, latrunculi.wins), (1400, 1, 1));
    h.send(1, &ClientMessage::Profile { nickname: "Nobody".into() });
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::UnknownPlayer));
    assert!(h.take_games_lookups().is_empty(), "nothing asked of the database");
    // A leaderboard of a variant that does not exist does not even decode.
    let mut bytes = encode(&ClientMessage::Leaderboard { variant: Variant::Alquerque }).unwrap();
    *bytes.last_mut().unwrap() = 9;
    h.message(1, &bytes);
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::Malformed));
}

/// The leaderboard is kept sorted: with fifty thousand rated players a request costs the loop
/// next to nothing (sorting them all at each request took tens of milliseconds of the loop), and
/// a rating that changes moves its player at once.
#[test]
fn a_leaderboard_of_fifty_thousand_rated_players_costs_the_loop_next_to_nothing() {
    use records::{StoredClaim, StoredRating};
    let claims: Vec<StoredClaim> = (1..=50_000u64)
        .map(|id| StoredClaim {
            id,
            nickname: format!("P{id}"),
            password_hash: String::new(),
            ratings: vec![(
                Variant::Alquerque,
                StoredRating {
                    rating: 1000.0 + (id * 7919 % 50_000) as f64 / 50.0,
                    games: 3,
                    ..Default::default()
                },
            )],
            turn_ratings: Vec::new(),
            origin: None,
        })
        .collect();
    let loaded = Loaded { claims, next_player: 60_000, ..Loaded::default() };
    let limits = Limits { answer_burst: 1e12, address_answer_burst: 1e12, burst: 1e6, ..Limits::default() };
    let now = Instant::now();
    let mut h = Harness::of(Core::new(limits, loaded, now, 1_000_000, [7; 32]), now, 1_000_000);
    h.sign_in(1, "Zed");
    let started = Instant::now();
    let mut answered = 0;
    for _ in 0..200 {
        h.send(1, &ClientMessage::Leaderboard { variant: Variant::Alquerque });
        answered += h.inbox(1).iter().filter(|m| matches!(m, ServerMessage::Leaderboard { .. })).count();
    }
    let spent = started.elapsed();
    println!("200 leaderboard requests among 50,000 rated players: {spent:?} of the loop");
    assert_eq!(answered, 200);
    assert!(spent < Duration::from_secs(1), "200 requests took {spent:?} of the loop");
    h.send(1, &ClientMessage::Leaderboard { variant: Variant::Alquerque });
    let top = match h.inbox(1).as_slice() {
        [ServerMessage::Leaderboard { top, .. }] => top.clone(),
        other => panic!("expected a leaderboard, got {other:?}"),
    };
    let ratings: Vec<i32> = top.iter().map(|e| e.rating.rating).collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "sorted: {ratings:?}");
    assert_eq!(top.len(), ludus_protocol::LEADERBOARD_TOP);
}

/// A player who already had (a look-alike of) a name when someone else claimed it keeps it
/// when they come back, but cannot claim it; nobody is renamed.
#[test]
fn an_earlier_holder_of_a_claimed_name_keeps_it_but_cannot_claim_it() {
    let mut h = Harness::new(Limits::default());
    h.sign_in(1, "Bob");
    h.claim(1, "bob's secret");
    // Player 42 was "BOB" in the database before the claim; they come back with their token.
    let token = "0123456789abcdef0123456789abcdef".to_string();
    let hash = credential_hash(&token);
    h.connected_with(2, Grant { credential: Some(token), may_create: false });
    let hello = Hello { version: PROTOCOL_VERSION, token: None, nickname: Some("BOB".into()) };
    h.send(2, &ClientMessage::Hello(hello));
    h.take_lookups();
    let stored = StoredPlayer {
        id: 42,
        hash: hash.clone(),
        prev: None,
        last_seen_ms: u64::MAX / 2,
        nickname: "BOB".into(),
    };
    h.looked_up(2, &hash, Some(stored));
    assert!(matches!(
        h.inbox(2).as_slice(),
        [ServerMessage::Welcome { player: PlayerId(42), nickname, resumed: true, .. }] if nickname == "BOB"
    ));
    h.send(2, &ClientMessage::ClaimNickname { password: ludus_protocol::Password("bob2's secret".into()) });
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::BadNickname));
    assert!(h.take_password_jobs().is_empty());
    // Renaming away works; taking it back does not.
    h.send(2, &ClientMessage::SetNickname { nickname: "Rob".into() });
    assert!(matches!(h.inbox(2).as_slice(), [ServerMessage::NicknameSet { .. }]));
    h.send(2, &ClientMessage::SetNickname { nickname: "BOB".into() });
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::BadNickname));
}

#[test]
fn rated_quick_match_pairs_the_closest_rating_and_widens_with_the_wait() {
    let mut h = Harness::new(Limits::default());
    for (conn, name, rating) in
        [(1, "Ann", 1500.0), (2, "Bob", 2000.0), (3, "Cid", 1560.0), (4, "Dee", 1480.0)]
    {
        h.sign_in(conn, name);
        h.claim(conn, "a good password");
        rate(&mut h, conn, rating);
    }
    h.take_ops();
    let find = ClientMessage::FindMatch { variant: Variant::Alquerque, clock: None, rated: true };
    // Ann (1500) and Bob (2000) are too far apart to be paired at once.
    h.send(1, &find);
    h.send(2, &find);
    assert_eq!(started(&mut h), None);
    // Cid (1560) is paired with Ann, the closer, although Bob waits too.
    h.send(3, &find);
    assert_eq!(started(&mut h), Some([PlayerId(1), PlayerId(3)]), "a game");
    // Dee (1480) and Bob (2000): 520 apart. Bob's window has widened by 10 points a second of
    // his wait: 150 + 10 x 36.9 = 519 is not enough, at 37 s it is.
    h.send(4, &find);
    assert_eq!(started(&mut h), None);
    h.advance(Duration::from_millis(36_900));
    assert_eq!(started(&mut h), None, "Bob's window does not reach Dee's rating yet");
    h.advance(Duration::from_millis(100));
    assert_eq!(started(&mut h), Some([PlayerId(2), PlayerId(4)]), "the widened window pairs them");
    assert!(h.core.queue.is_empty(), "nobody waits any more");
}

#[test]
fn casual_quick_match_stays_first_come_first_served() {
    let mut h = Harness::new(Limits::default());
    for (conn, name) in [(1, "Ann"), (2, "Bob"), (3, "Cid")] {
        h.sign_in(conn, name);
    }
    let find = ClientMessage::FindMatch { variant: Variant::Alquerque, clock: None, rated: false };
    h.send(1, &find);
    assert_eq!(started(&mut h), None);
    h.send(2, &find);
    assert_eq!(started(&mut h), Some([PlayerId(1), PlayerId(2)]), "a game");
    h.send(3, &find);
    assert_eq!(started(&mut h), None);
}

#[test]
fn the_spectators_fill_half_of_the_chat_at_most_and_the_players_keep_the_rest() {
    let limits =
        Limits { chat_interval: Duration::ZERO, chat_lines: 100, chat_max_lines: 10, ..Limits::default() };
    let mut h = Harness::new(limits);
    let (first, _, game) = watched_chat_game(&mut h);
    let say = |h: &mut Harness, conn: ConnId| {
        h.send(conn, &ClientMessage::Chat { game, text: ChatText::Phrase(QuickPhrase::Hello) });
        refusal_code(&h.inbox(conn))
    };
    for n in 0..5 {
        assert_eq!(say(&mut h, 10 + n % 2), None, "spectators' line {n}");
    }
    assert_eq!(say(&mut h, 10), Some(ErrorCode::ChatFull), "the spectators' half is full");
    for n in 0..5 {
        assert_eq!(say(&mut h, first), None, "players' line {n}");
    }
    assert_eq!(say(&mut h, first), Some(ErrorCode::ChatFull), "the whole chat is full");
}

#[test]
fn password_work_is_budgeted_per_address_and_a_rename_waits_for_the_check() {
    let mut h = Harness::new(Limits::default());
    let address: std::net::IpAddr = "192.0.2.7".parse().expect("an address");
    h.sign_in(1, "Ann");
    h.set_origin(1, address);
    // A rename while the hash is being made is refused (it would waste the hash).
    h.send(1, &ClientMessage::ClaimNickname { password: ludus_protocol::Password("a good password".into()) });
    h.send(1, &ClientMessage::SetNickname { nickname: "Ann2".into() });
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::RateLimited));
    h.run_password_jobs();
    assert!(matches!(h.inbox(1).as_slice(), [ServerMessage::NicknameClaimed { .. }]));
    // Right passwords cost Argon2 work too: the same address gets ten jobs in ten minutes.
    h.sign_in(2, "Bob");
    h.set_origin(2, address);
    for n in 1..10 {
        let answer = h.sign_in_claimed(2, "Ann", "a good password");
        assert!(answer.iter().any(|m| matches!(m, ServerMessage::Welcome { .. })), "sign-in {n}: {answer:?}");
    }
    let answer = h.sign_in_claimed(2, "Ann", "a good password");
    assert_eq!(refusal_code(&answer), Some(ErrorCode::RateLimited), "{answer:?}");
    assert!(h.take_password_jobs().is_empty(), "no work was queued");
    // Ten minutes later the address may again.
    h.advance(Duration::from_secs(600));
    let answer = h.sign_in_claimed(2, "Ann", "a good password");
    assert!(answer.iter().any(|m| matches!(m, ServerMessage::Welcome { .. })), "{answer:?}");
}

#[test]
fn the_same_game_is_sent_again_a_few_times_at_most_for_watch_requests() {
    let mut h = Harness::new(Limits::default());
    let (_, _, game) = watched_chat_game(&mut h);
    // Sam watched once already; three more views within ten seconds, then a refusal.
    for n in 0..3 {
        h.send(10, &ClientMessage::Watch { game });
        assert!(h.inbox(10).iter().any(|m| matches!(m, ServerMessage::Game(_))), "view {n}");
    }
    h.send(10, &ClientMessage::Watch { game });
    assert_eq!(refusal_code(&h.inbox(10)), Some(ErrorCode::RateLimited));
    h.advance(Duration::from_secs(10));
    h.send(10, &ClientMessage::Watch { game });
    assert!(h.inbox(10).iter().any(|m| matches!(m, ServerMessage::Game(_))), "again after the window");
}

/// An archive is read off the loop and handed out only to those who may read it: anyone for a
/// public game, only its players for a private one (others get the answer a missing game gets).
#[test]
fn archives_go_to_those_who_may_read_them() {
    let mut h = Harness::new(Limits::default());
    let (first, second, view) = h.quick_game(None);
    let game = view.game;
    let players = [view.players[0].id.0, view.players[1].id.0];
    h.sign_in(3, "Cy");
    h.send(3, &ClientMessage::Archive { game });
    assert_eq!(refusal_code(&h.inbox(3)), Some(ErrorCode::UnknownGame), "a live game is watched, not read");
    assert!(h.take_archive_lookups().is_empty());
    h.send(first, &ClientMessage::Resign { game });
    let archive = h
        .all()
        .into_iter()
        .find_map(|(c, m)| match m {
            ServerMessage::GameOver { archive, .. } if c == second => Some(archive),
            _ => None,
        })
        .expect("the game is over");
    let stored = |public| records::StoredArchive { public, players, archive: archive.clone() };

    h.send(3, &ClientMessage::Archive { game });
    assert!(h.inbox(3).is_empty(), "waits for the database");
    assert_eq!(h.take_archive_lookups(), [(3, game.0)]);
    h.send(3, &ClientMessage::Archive { game });
    assert_eq!(refusal_code(&h.inbox(3)), Some(ErrorCode::RateLimited), "one archive at a time");
    h.archive_found(3, game.0, Some(stored(false)));
    assert_eq!(refusal_code(&h.inbox(3)), Some(ErrorCode::UnknownGame), "a private game is its players' own");

    h.send(second, &ClientMessage::Archive { game });
    assert_eq!(h.take_archive_lookups(), [(second, game.0)]);
    h.archive_found(second, game.0, Some(stored(false)));
    match h.inbox(second).as_slice() {
        [ServerMessage::Archive(a)] => assert_eq!(**a, archive),
        other => panic!("expected the archive, got {other:?}"),
    }

    h.send(3, &ClientMessage::Archive { game });
    assert_eq!(h.take_archive_lookups().len(), 1);
    h.archive_found(3, game.0, Some(stored(true)));
    assert!(matches!(h.inbox(3).as_slice(), [ServerMessage::Archive(_)]), "a public game is anyone's");
    h.send(3, &ClientMessage::Archive { game: GameId(999) });
    assert_eq!(h.take_archive_lookups(), [(3, 999)]);
    h.archive_found(3, 999, None);
    assert_eq!(refusal_code(&h.inbox(3)), Some(ErrorCode::UnknownGame));

    // An answer for a connection that left goes nowhere, and the next one may ask again.
    h.send(3, &ClientMessage::Archive { game });
    assert_eq!(h.take_archive_lookups().len(), 1);
    h.disconnected(3);
    h.archive_found(3, game.0, Some(stored(true)));
    assert!(h.inbox(3).is_empty());
}

/// Claiming is free, so one address may claim only so many nicknames a day (name squatting);
/// other addresses are not held back, and the window ends.
#[test]
fn one_address_claims_only_so_many_nicknames() {
    let limits = Limits { claims_per_address: 2, ..Limits::default() };
    let mut h = Harness::new(limits);
    let squatter: std::net::IpAddr = "10.0.0.9".parse().unwrap();
    for (conn, name) in [(1, "Ann"), (2, "Bea"), (3, "Cy")] {
        h.sign_in(conn, name);
        h.set_origin(conn, squatter);
    }
    h.claim(1, "a good password");
    h.claim(2, "a good password");
    h.send(3, &ClientMessage::ClaimNickname { password: ludus_protocol::Password("a good password".into()) });
    assert_eq!(refusal_code(&h.inbox(3)), Some(ErrorCode::RateLimited), "the third claim of the day");
    assert!(h.take_password_jobs().is_empty(), "refused before any hashing");
    h.sign_in(4, "Di");
    h.set_origin(4, "10.0.0.10".parse().unwrap());
    h.claim(4, "a good password");
    h.advance(Duration::from_secs(24 * 3600));
    h.claim(3, "a good password");
}

/// No client message carries a rating: a server message sent as if it were a client's (a
/// game over with rating changes to 3000) is refused or read as something harmless, and
/// nobody's rating or record changes.
#[test]
fn a_forged_rating_change_changes_no_rating() {
    let mut h = Harness::new(Limits::default());
    let (first, second, view) = h.quick_game(None);
    h.run_password_jobs();
    for conn in [first, second] {
        h.claim(conn, "a good password");
    }
    h.send(first, &ClientMessage::Resign { game: view.game });
    let mut archive = h
        .all()
        .into_iter()
        .find_map(|(_, m)| match m {
            ServerMessage::GameOver { archive, .. } => Some(archive),
            _ => None,
        })
        .expect("the game is over");
    let ratings = |h: &Harness| {
        let mut all: Vec<(PlayerId, Vec<(Variant, f64, u32)>)> = h
            .core
            .accounts
            .claims
            .iter()
            .map(|(id, c)| {
                let mut r: Vec<_> = c.ratings.iter().map(|(v, r)| (*v, r.rating, r.games)).collect();
                r.sort_by_key(|(v, ..)| v.name());
                (*id, r)
            })
            .collect();
        all.sort_by_key(|(id, _)| *id);
        all
    };
    let before = ratings(&h);
    assert_eq!(before.len(), 2, "both claimed");
    let big = ludus_protocol::RatingView { rating: 3000, deviation: 40, provisional: false };
    let change = ludus_protocol::RatingChange { before: big, after: big };
    archive.rated = true;
    archive.ratings = Some([change, change]);
    let forged = [
        ServerMessage::GameOver { game: view.game, outcome: archive.outcome, archive: archive.clone() },
        ServerMessage::Archive(Box::new(archive)),
        ServerMessage::Leaderboard { variant: Variant::Latrunculi, top: Vec::new(), yours: None },
    ];
    for message in &forged {
        let bytes = encode(message).expect("encodes");
        h.message(first, &bytes);
        let _ = h.all();
        h.run_password_jobs();
    }
    assert_eq!(ratings(&h), before, "no rating or record changed");
}
