//! Turn-based play: games over simulated days, many at once, challenges and their refusals.

use super::*;
use ludus_protocol::{ChallengeEnd, ChallengeView, DAY_MS, MyGamesView};
use ludus_rules::Reason;

const DAY: Duration = Duration::from_millis(DAY_MS);

/// Limits roomy enough for many messages in one test.
fn roomy() -> Limits {
    Limits { burst: 100_000.0, rate: 100_000.0, challenges_per_window: 1000, ..Limits::default() }
}

fn challenge(opponent: Option<&str>, side: Option<Side>, days: u8) -> ClientMessage {
    ClientMessage::Challenge {
        opponent: opponent.map(str::to_string),
        variant: Variant::Latrunculi,
        side,
        days,
        listed: opponent.is_none(),
        rated: false,
    }
}

fn made(messages: &[ServerMessage]) -> Option<ChallengeView> {
    messages.iter().find_map(|m| match m {
        ServerMessage::ChallengeMade(c) => Some(c.clone()),
        _ => None,
    })
}

fn view_of(messages: &[ServerMessage]) -> Option<GameView> {
    messages.iter().find_map(|m| match m {
        ServerMessage::Game(v) => Some(v.clone()),
        _ => None,
    })
}

fn my_games(messages: &[ServerMessage]) -> Option<MyGamesView> {
    messages.iter().find_map(|m| match m {
        ServerMessage::MyGames(v) => Some(v.clone()),
        _ => None,
    })
}

fn played(messages: &[ServerMessage]) -> Vec<(GameId, u32)> {
    messages
        .iter()
        .filter_map(|m| match m {
            ServerMessage::MovePlayed { game, ply, .. } => Some((*game, *ply)),
            _ => None,
        })
        .collect()
}

impl Harness {
    /// `from` challenges `to` (by nickname) to a game of `days` a move, playing First; `to`
    /// accepts. Returns the game's view (as First sees it).
    fn turn_game(&mut self, from: ConnId, to: ConnId, to_name: &str, days: u8) -> GameView {
        self.send(from, &challenge(Some(to_name), Some(Side::First), days));
        let all = self.all();
        let code = made(&of(&all, from)).expect("the challenge is made").code;
        let received = of(&all, to);
        assert!(
            received.iter().any(|m| matches!(m, ServerMessage::ChallengeReceived(c) if c.code == code)),
            "{received:?}"
        );
        self.send(to, &ClientMessage::AcceptChallenge { code: code.to_lowercase() });
        let all = self.all();
        let view = view_of(&of(&all, from)).expect("the challenger gets the game");
        assert!(view_of(&of(&all, to)).is_some(), "so does the player who accepted");
        assert!(of(&all, from).iter().any(|m| matches!(
            m,
            ServerMessage::ChallengeEnded { end: ChallengeEnd::Accepted(g), .. } if *g == view.game
        )));
        assert_eq!(view.role, Role::Player(Side::First));
        assert_eq!(view.clock, None, "no real-time clock");
        view
    }

    fn play_move(&mut self, conn: ConnId, game: GameId, view: &GameView, ply: usize) -> String {
        let mv = first_legal(view, ply);
        self.send(conn, &ClientMessage::Move { game, ply: ply as u32, mv: mv.clone() });
        mv
    }

    /// `conn` comes back with `token`; returns what it got.
    fn come_back(&mut self, conn: ConnId, token: &SessionToken) -> Vec<ServerMessage> {
        self.connected_with(conn, Grant { credential: Some(token.0.clone()), may_create: false });
        self.send(
            conn,
            &ClientMessage::Hello(Hello { version: PROTOCOL_VERSION, token: None, nickname: None }),
        );
        self.inbox(conn)
    }
}

/// A view with `moves` played.
fn with_moves(view: &GameView, moves: &[String]) -> GameView {
    GameView { moves: moves.to_vec(), ..view.clone() }
}

#[test]
fn a_three_day_game_is_played_over_simulated_days_and_lost_on_time() {
    let mut h = Harness::new(roomy());
    h.sign_in(1, "Ann");
    let bob = h.sign_in(2, "Bob");
    let view = h.turn_game(1, 2, "Bob", 3);
    let gid = view.game;
    let ops = h.take_ops();
    assert!(ops.iter().any(|op| matches!(op, Op::NewGame { id, .. } if *id == gid.0)));
    assert!(ops.iter().any(|op| matches!(
        op,
        Op::TurnDeadline { game, days: 3, deadline_ms } if *game == gid.0 && *deadline_ms == 1_000_000 + 3 * DAY_MS
    )));
    let mut moves = Vec::new();
    // Six moves, each two and a half days after the last; Bob closes the game in between.
    for ply in 0..6 {
        h.advance(DAY * 5 / 2);
        let conn = if ply % 2 == 0 { 1 } else { 2 };
        if ply == 2 {
            h.disconnected(2);
            h.advance(Duration::from_secs(600));
        }
        if ply == 3 {
            // Bob comes back: the game is still there, his turn.
            let back = h.come_back(2, &bob);
            let list = my_games(&back).expect("the list after the welcome");
            assert_eq!(list.your_turn, 1);
            assert_eq!(list.games[0].game, gid);
            assert_eq!(list.games[0].opponent, "Ann");
            assert_eq!(list.games[0].ply, 3);
        }
        let mv = h.play_move(conn, gid, &with_moves(&view, &moves), ply);
        let all = h.all();
        assert_eq!(played(&of(&all, 1)), vec![(gid, ply as u32)], "Ann gets ply {ply}");
        if ply != 2 {
            assert_eq!(played(&of(&all, 2)), vec![(gid, ply as u32)], "Bob gets ply {ply}");
        }
        let clocks = of(&all, 1).iter().find_map(|m| match m {
            ServerMessage::MovePlayed { clocks, .. } => *clocks,
            _ => None,
        });
        let clocks = clocks.expect("a turn-based move carries the time left");
        assert_eq!(clocks.remaining_ms, [3 * DAY_MS as u32, 3 * DAY_MS as u32], "a whole limit each");
        moves.push(mv);
        assert!(
            h.take_ops().iter().any(|op| matches!(op, Op::TurnDeadline { game, .. } if *game == gid.0)),
            "the new deadline is stored with the move"
        );
    }
    // Ann (to move) lets three days pass: lost on time, though she is connected.
    h.advance(DAY * 3 - Duration::from_millis(1));
    assert!(game_over_of(&h.inbox(1)).is_none(), "not a millisecond early");
    h.advance(Duration::from_millis(1));
    let all = h.all();
    let outcome = game_over_of(&of(&all, 1)).expect("the game ends");
    assert_eq!(outcome, Outcome::win(Side::Second, Reason::Timeout));
    assert_eq!(game_over_of(&of(&all, 2)), Some(outcome));
    assert!(h.take_ops().iter().any(|op| matches!(op, Op::Finish { game, .. } if *game == gid.0)));
    assert_eq!(h.core.turn_games_of(PlayerId(1)), 0);
}

#[test]
fn leaving_or_disconnecting_never_resigns_a_turn_based_game() {
    let mut h = Harness::new(roomy());
    h.sign_in(1, "Ann");
    h.sign_in(2, "Bob");
    let view = h.turn_game(1, 2, "Bob", 1);
    h.send(1, &ClientMessage::Leave);
    h.disconnected(2);
    h.advance(Duration::from_secs(3600));
    let all = h.all();
    assert!(game_over_of(&of(&all, 1)).is_none());
    assert!(h.core.games.contains_key(&view.game), "still in progress");
    // Ann moves while Bob is away; a real-time game beside it keeps today's rules.
    h.play_move(1, view.game, &view, 0);
    assert_eq!(played(&h.inbox(1)), vec![(view.game, 0)]);
}

#[test]
fn a_game_is_resumed_from_a_second_connection_of_the_same_player() {
    let mut h = Harness::new(roomy());
    let ann = h.sign_in(1, "Ann");
    h.sign_in(2, "Bob");
    let view = h.turn_game(1, 2, "Bob", 7);
    let mv = h.play_move(1, view.game, &view, 0);
    h.all();
    // Ann signs in on a second device: the first is closed, the second has everything.
    let back = h.come_back(3, &ann);
    assert!(matches!(back.first(), Some(ServerMessage::Welcome { resumed: true, .. })));
    let list = my_games(&back).expect("her games come with the welcome");
    assert_eq!((list.games.len(), list.your_turn), (1, 0));
    assert!(!list.games[0].your_turn);
    h.send(3, &ClientMessage::OpenGame { game: view.game });
    let again = view_of(&h.inbox(3)).expect("the whole game");
    assert_eq!(again.moves, vec![mv.clone()]);
    assert_eq!(again.role, Role::Player(Side::First));
    // Bob's reply reaches the new connection.
    h.play_move(2, view.game, &with_moves(&view, &[mv]), 1);
    let all = h.all();
    assert_eq!(played(&of(&all, 3)), vec![(view.game, 1)]);
    assert!(played(&of(&all, 1)).is_empty(), "the old connection is gone");
}

#[test]
fn fifty_games_each_get_every_move_and_a_fifty_first_is_refused() {
    let mut h = Harness::new(roomy());
    h.sign_in(1, "Ann");
    let mut games = Vec::new();
    for i in 0..50u64 {
        let conn = 100 + i;
        h.sign_in(conn, &format!("Bot{i}"));
        // Half of them challenge Ann, half are challenged by her.
        let view = if i % 2 == 0 {
            h.turn_game(conn, 1, "Ann", 3)
        } else {
            let v = h.turn_game(1, conn, &format!("Bot{i}"), 3);
            // Ann plays first in these: make it the opponent's turn.
            h.play_move(1, v.game, &v, 0);
            h.all();
            v
        };
        games.push((conn, i % 2 == 0, view));
    }
    assert_eq!(h.core.turn_games_of(PlayerId(1)), 50);
    // Every opponent moves: Ann gets every move.
    for (conn, first, view) in &games {
        let ply = if *first { 0 } else { 1 };
        let moves = if *first { Vec::new() } else { vec![first_legal(view, 0)] };
        h.play_move(*conn, view.game, &with_moves(view, &moves), ply);
    }
    let got = played(&h.inbox(1));
    assert_eq!(got.len(), 50, "every opponent's move reaches Ann");
    let mut ids: Vec<GameId> = got.iter().map(|(g, _)| *g).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 50);
    h.send(1, &ClientMessage::MyGames);
    let list = my_games(&h.inbox(1)).expect("the list");
    assert_eq!((list.games.len(), list.your_turn), (50, 50));
    // A 51st: refused both ways, nothing stored.
    h.sign_in(500, "Zed");
    h.take_ops();
    h.send(1, &challenge(Some("Zed"), None, 3));
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::TooManyGames));
    h.send(500, &challenge(Some("Ann"), None, 3));
    let code = made(&h.inbox(500)).expect("Zed may challenge").code;
    h.take_ops();
    h.send(1, &ClientMessage::AcceptChallenge { code: code.clone() });
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::TooManyGames));
    assert!(h.take_ops().is_empty(), "nothing stored for a refusal");
    h.send(500, &ClientMessage::CancelChallenge { code });
    assert!(
        h.inbox(500)
            .iter()
            .any(|m| matches!(m, ServerMessage::ChallengeEnded { end: ChallengeEnd::Cancelled, .. }))
    );
}

#[test]
fn a_challenge_expires_after_seven_days() {
    let mut h = Harness::new(roomy());
    h.sign_in(1, "Ann");
    h.sign_in(2, "Bob");
    h.send(1, &challenge(Some("Bob"), None, 1));
    let c = made(&h.inbox(1)).expect("made");
    assert_eq!(c.expires_ms, 1_000_000 + 7 * DAY_MS);
    assert!(h.take_ops().iter().any(|op| matches!(op, Op::NewChallenge(s) if s.code == c.code)));
    h.advance(DAY * 7 - Duration::from_secs(2));
    assert!(h.all().is_empty(), "still pending");
    h.advance(Duration::from_secs(2));
    let all = h.all();
    for conn in [1, 2] {
        assert!(
            of(&all, conn).iter().any(|m| matches!(
                m,
                ServerMessage::ChallengeEnded { end: ChallengeEnd::Expired, code } if *code == c.code
            )),
            "{conn} is told"
        );
    }
    assert!(h.take_ops().iter().any(|op| matches!(op, Op::EndChallenge { code } if *code == c.code)));
    h.send(2, &ClientMessage::AcceptChallenge { code: c.code });
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::UnknownChallenge));
}

#[test]
fn open_challenges_are_listed_and_anyone_may_accept() {
    let mut h = Harness::new(roomy());
    h.sign_in(1, "Ann");
    h.sign_in(2, "Bob");
    h.sign_in(3, "Cat");
    h.send(1, &challenge(None, Some(Side::Second), 14));
    let c = made(&h.inbox(1)).expect("made");
    assert!(c.listed && c.to.is_none());
    assert_eq!(c.code.len(), 20);
    h.send(2, &ClientMessage::MyGames);
    let list = my_games(&h.inbox(2)).expect("list");
    assert_eq!(list.open.iter().map(|c| c.code.clone()).collect::<Vec<_>>(), vec![c.code.clone()]);
    h.send(1, &ClientMessage::MyGames);
    let mine = my_games(&h.inbox(1)).expect("list");
    assert!(mine.open.is_empty(), "one's own are not offered back");
    assert_eq!(mine.outgoing.len(), 1);
    h.send(3, &ClientMessage::AcceptChallenge { code: c.code.clone() });
    let view = view_of(&h.inbox(3)).expect("the game");
    assert_eq!(view.role, Role::Player(Side::First), "Ann chose to play second");
    h.send(2, &ClientMessage::AcceptChallenge { code: c.code });
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::UnknownChallenge), "taken");
}

#[test]
fn bad_input_is_refused_and_nothing_is_stored() {
    let mut h = Harness::new(roomy());
    h.sign_in(1, "Ann");
    h.sign_in(2, "Bob");
    h.sign_in(3, "Cat");
    let view = h.turn_game(1, 2, "Bob", 3);
    h.take_ops();
    let refused = |h: &mut Harness, conn: ConnId, message: ClientMessage, code: ErrorCode| {
        h.send(conn, &message);
        assert_eq!(refusal_code(&h.inbox(conn)), Some(code), "{message:?}");
        assert!(h.take_ops().is_empty(), "nothing stored for {message:?}");
    };
    let mv = first_legal(&view, 0);
    // A move for a game the player is not in; out of turn.
    refused(
        &mut h,
        3,
        ClientMessage::Move { game: view.game, ply: 0, mv: mv.clone() },
        ErrorCode::NotAPlayer,
    );
    refused(
        &mut h,
        2,
        ClientMessage::Move { game: view.game, ply: 0, mv: mv.clone() },
        ErrorCode::NotYourTurn,
    );
    refused(&mut h, 3, ClientMessage::OpenGame { game: view.game }, ErrorCode::NotAPlayer);
    refused(&mut h, 3, ClientMessage::OpenGame { game: GameId(999) }, ErrorCode::UnknownGame);
    // Challenges to oneself (by a look-alike too), to nobody known, with a bad limit.
    refused(&mut h, 1, challenge(Some("Ann"), None, 3), ErrorCode::OwnChallenge);
    refused(&mut h, 1, challenge(Some("ANN"), None, 3), ErrorCode::OwnChallenge);
    refused(&mut h, 1, challenge(Some("Nobody"), None, 3), ErrorCode::UnknownPlayer);
    refused(&mut h, 1, challenge(Some("Bob"), None, 2), ErrorCode::BadClock);
    // Forged codes, and answers by the wrong player.
    refused(
        &mut h,
        2,
        ClientMessage::AcceptChallenge { code: "AAAAAAAAAAAAAAAAAAAA".into() },
        ErrorCode::UnknownChallenge,
    );
    refused(
        &mut h,
        2,
        ClientMessage::AcceptChallenge { code: "x".repeat(5000 / 10) },
        ErrorCode::UnknownChallenge,
    );
    h.send(1, &challenge(Some("Bob"), None, 3));
    let c = made(&h.inbox(1)).expect("made");
    h.all();
    h.take_ops();
    refused(&mut h, 3, ClientMessage::AcceptChallenge { code: c.code.clone() }, ErrorCode::UnknownChallenge);
    refused(&mut h, 3, ClientMessage::DeclineChallenge { code: c.code.clone() }, ErrorCode::UnknownChallenge);
    refused(&mut h, 2, ClientMessage::CancelChallenge { code: c.code.clone() }, ErrorCode::UnknownChallenge);
    refused(&mut h, 1, ClientMessage::AcceptChallenge { code: c.code.clone() }, ErrorCode::OwnChallenge);
    // Bob declines it: both are told, it is deleted.
    h.send(2, &ClientMessage::DeclineChallenge { code: c.code.clone() });
    let all = h.all();
    for conn in [1, 2] {
        assert!(
            of(&all, conn)
                .iter()
                .any(|m| matches!(m, ServerMessage::ChallengeEnded { end: ChallengeEnd::Declined, .. }))
        );
    }
    assert!(h.take_ops().iter().any(|op| matches!(op, Op::EndChallenge { .. })));
    refused(&mut h, 2, ClientMessage::AcceptChallenge { code: c.code }, ErrorCode::UnknownChallenge);
}

#[test]
fn a_flood_of_challenges_is_cut_off() {
    let mut h = Harness::new(Limits { challenges_per_window: 10, ..roomy() });
    h.sign_in(1, "Ann");
    h.sign_in(2, "Bob");
    for _ in 0..10 {
        h.send(1, &challenge(None, None, 1));
        assert!(made(&h.inbox(1)).is_some());
    }
    h.take_ops();
    h.send(1, &challenge(Some("Bob"), None, 1));
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::RateLimited));
    assert!(h.take_ops().is_empty(), "nothing stored");
    assert!(h.inbox(2).is_empty(), "Bob hears nothing");
    // Later, more may be made, up to the cap of pending ones.
    h.advance(Duration::from_secs(601));
    for _ in 0..10 {
        h.send(1, &challenge(None, None, 1));
        assert!(made(&h.inbox(1)).is_some());
    }
    h.advance(Duration::from_secs(601));
    h.take_ops();
    h.send(1, &challenge(None, None, 1));
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::TooManyChallenges));
    assert!(h.take_ops().is_empty());
    // Wrong codes from one address are cut off like wrong room codes.
    let origin: std::net::IpAddr = "192.0.2.7".parse().unwrap();
    h.set_origin(2, origin);
    for i in 0..10 {
        h.send(2, &ClientMessage::AcceptChallenge { code: format!("WRONG{i}") });
        assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::UnknownChallenge));
    }
    h.send(2, &ClientMessage::AcceptChallenge { code: "WRONG".into() });
    assert_eq!(refusal_code(&h.inbox(2)), Some(ErrorCode::TooManyAttempts));
}

#[test]
fn a_restart_keeps_turn_based_games_and_their_deadlines() {
    // Ann and Bob's game, as stored, back in a new core: lost on time when its deadline
    // passes, though nobody reconnected.
    let deadline = 1_000_000 + 3 * DAY_MS;
    let players = vec![
        StoredPlayer { id: 1, hash: "a".into(), prev: None, last_seen_ms: 1_000_000, nickname: "Ann".into() },
        StoredPlayer { id: 2, hash: "b".into(), prev: None, last_seen_ms: 1_000_000, nickname: "Bob".into() },
    ];
    let game = records::StoredGame {
        id: 7,
        room: String::new(),
        variant: Variant::Latrunculi,
        start: AnyGame::new(Variant::Latrunculi).start().to_string(),
        players: [1, 2],
        public: true,
        clock: None,
        created_ms: 1_000_000,
        rated: false,
        moves: Vec::new(),
        clocks: None,
        proposals: Vec::new(),
        chat: Vec::new(),
        chat_stored: 0,
        turn: Some((3, deadline)),
    };
    let loaded = Loaded { games: vec![game], players, next_player: 3, next_game: 8, ..Loaded::default() };
    let now = Instant::now();
    let unix = 1_000_000 + 2 * DAY_MS;
    let mut h = Harness::of(Core::new(roomy(), loaded, now, unix, [7; 32]), now, unix);
    h.advance(Duration::from_secs(3600));
    assert!(h.core.games.contains_key(&GameId(7)), "no seat held: nobody abandons it");
    assert_eq!(h.core.turn_games_of(PlayerId(2)), 1);
    h.advance(DAY);
    let ops = h.take_ops();
    let finish = ops.iter().find_map(|op| match op {
        Op::Finish { game: 7, outcome, .. } => Some(outcome.clone()),
        _ => None,
    });
    assert_eq!(finish, Some(Outcome::win(Side::Second, Reason::Timeout).to_string()));
    assert!(!h.core.players.contains_key(&PlayerId(1)), "offline and done: forgotten");
}

#[test]
fn a_rated_turn_based_game_changes_the_turn_based_ratings_alone() {
    let mut h = Harness::new(Limits { rated_opponents_full: 0, ..roomy() });
    h.sign_in(1, "Ann");
    h.sign_in(2, "Bob");
    h.sign_in(3, "Gus");
    // A guest may neither make nor receive a rated challenge.
    let rated = |opponent: Option<&str>| ClientMessage::Challenge {
        opponent: opponent.map(str::to_string),
        variant: Variant::Latrunculi,
        side: Some(Side::First),
        days: 1,
        listed: false,
        rated: true,
    };
    h.send(3, &rated(None));
    assert_eq!(refusal_code(&h.inbox(3)), Some(ErrorCode::NotClaimed));
    h.claim(1, "a good password");
    h.claim(2, "another good password");
    h.send(1, &rated(Some("Gus")));
    assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::NotClaimed));
    h.send(1, &rated(None));
    let open = made(&h.inbox(1)).expect("made");
    assert!(open.rated);
    h.send(3, &ClientMessage::AcceptChallenge { code: open.code.clone() });
    assert_eq!(refusal_code(&h.inbox(3)), Some(ErrorCode::NotClaimed));
    h.take_ops();
    h.send(2, &ClientMessage::AcceptChallenge { code: open.code });
    let all = h.all();
    let view = view_of(&of(&all, 1)).expect("the game");
    assert!(view.rated);
    let mut moves = Vec::new();
    for ply in 0..2 * crate::core::RATED_MOVES_EACH {
        let conn = if ply % 2 == 0 { 1 } else { 2 };
        moves.push(h.play_move(conn, view.game, &with_moves(&view, &moves), ply));
        h.advance(DAY / 2);
    }
    h.all();
    h.take_ops();
    h.send(2, &ClientMessage::Resign { game: view.game });
    let all = h.all();
    let over = of(&all, 1)
        .into_iter()
        .find_map(|m| match m {
            ServerMessage::GameOver { archive, .. } => Some(archive),
            _ => None,
        })
        .expect("over");
    assert!(over.rated);
    let ops = h.take_ops();
    let turn_ratings = ops.iter().filter(|op| matches!(op, Op::TurnRating { .. })).count();
    assert_eq!(turn_ratings, 2, "both turn-based ratings change");
    assert!(!ops.iter().any(|op| matches!(op, Op::Rating { .. })), "the real-time ones do not");
    let ann = &h.core.accounts.claims[&PlayerId(1)];
    assert!(ann.ratings.is_empty());
    assert!(ann.turn_ratings[&Variant::Latrunculi].rating > 1500.0, "Ann won");
}

#[test]
fn a_client_of_the_protocol_before_turn_based_play_is_told_to_update() {
    let mut h = Harness::new(roomy());
    h.connected(1);
    let hello = Hello { version: 7, token: None, nickname: Some("Old".into()) };
    h.send(1, &ClientMessage::Hello(hello));
    match h.inbox(1).as_slice() {
        [ServerMessage::Incompatible { server_version, message }] => {
            assert_eq!(*server_version, PROTOCOL_VERSION);
            assert!(message.contains("please update"), "{message}");
        }
        other => panic!("expected Incompatible, got {other:?}"),
    }
}

#[test]
fn a_challenger_offline_stays_known_until_the_challenge_ends() {
    let mut h = Harness::new(roomy());
    let ann = h.sign_in(1, "Ann");
    h.sign_in(2, "Bob");
    h.send(1, &challenge(Some("Bob"), None, 7));
    let c = made(&h.inbox(1)).expect("made");
    h.disconnected(1);
    h.advance(DAY);
    assert!(h.core.players.contains_key(&PlayerId(1)), "kept while the challenge waits");
    // Nobody else may take it.
    h.sign_in(3, "Cat");
    h.send(3, &ClientMessage::MyGames);
    assert!(my_games(&h.inbox(3)).expect("list").incoming.is_empty(), "not Cat's");
    h.send(3, &ClientMessage::AcceptChallenge { code: c.code.clone() });
    assert_eq!(refusal_code(&h.inbox(3)), Some(ErrorCode::UnknownChallenge));
    // Ann comes back: her challenge is listed; she withdraws it and, once offline, is forgotten.
    let back = h.come_back(5, &ann);
    let list = my_games(&back).expect("her list after the welcome");
    assert_eq!(list.outgoing.iter().map(|c| c.code.clone()).collect::<Vec<_>>(), vec![c.code.clone()]);
    h.send(5, &ClientMessage::CancelChallenge { code: c.code });
    h.all();
    h.disconnected(5);
    assert!(!h.core.players.contains_key(&PlayerId(1)), "nothing keeps her in memory");
}

#[test]
fn a_game_past_its_deadline_at_start_is_over_before_its_player_sees_it() {
    // The server was down across the deadline; Ann signs in before the timers' first sweep.
    let hash = crate::credential::credential_hash("ann-secret");
    let players = vec![
        StoredPlayer { id: 1, hash, prev: None, last_seen_ms: 1_000_000, nickname: "Ann".into() },
        StoredPlayer { id: 2, hash: "b".into(), prev: None, last_seen_ms: 1_000_000, nickname: "Bob".into() },
    ];
    let game = records::StoredGame {
        id: 7,
        room: String::new(),
        variant: Variant::Alquerque,
        start: AnyGame::new(Variant::Alquerque).start().to_string(),
        players: [1, 2],
        public: true,
        clock: None,
        created_ms: 1_000_000,
        rated: false,
        moves: Vec::new(),
        clocks: None,
        proposals: Vec::new(),
        chat: Vec::new(),
        chat_stored: 0,
        turn: Some((1, 1_000_000 + DAY_MS)),
    };
    let loaded = Loaded { games: vec![game], players, next_player: 3, next_game: 8, ..Loaded::default() };
    let now = Instant::now();
    let unix = 1_000_000 + 2 * DAY_MS;
    let mut h = Harness::of(Core::new(roomy(), loaded, now, unix, [7; 32]), now, unix);
    let back = h.come_back(1, &SessionToken("ann-secret".into()));
    assert_eq!(game_over_of(&back), Some(Outcome::win(Side::Second, Reason::Timeout)));
    let list = my_games(&back).expect("her list");
    assert!(list.games.is_empty(), "{list:?}");
}
