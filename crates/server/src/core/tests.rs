//! The core driven without sockets: injected time and seed, messages in, messages out.

use super::*;
use crate::tokens::Grant;
use ludus_protocol::{
    ClockSpec, GameSummary, GameView, ROOM_CODE_LEN, RecentGame, RoomSummary, decode_server,
};
use ludus_rules::{AnyGame, GameRecord};
use ludus_rules::{Outcome, Reason, Variant};
use records::{ArchiveFound, ClusterEvent, GamesFound, IdKind, PlayerFound, Seat, StoredPlayer};
use std::time::Duration;

/// Budgets of large answers and the rules of rated play.
mod limits;

/// A core with nothing stored, its own clock and a fixed seed, driven through
/// [`Core::handle`] alone; the effects it returns wait here until a test takes them by kind.
struct Harness {
    core: Core,
    now: Instant,
    unix_ms: u64,
    effects: Vec<Effect>,
}

impl Harness {
    fn new(limits: Limits) -> Harness {
        let now = Instant::now();
        Harness::of(Core::new(limits, Loaded::default(), now, 1_000_000, [7; 32]), now, 1_000_000)
    }

    /// A harness around a core made by the test.
    fn of(core: Core, now: Instant, unix_ms: u64) -> Harness {
        Harness { core, now, unix_ms, effects: Vec::new() }
    }

    /// Gives `input` to the core and keeps what it calls for.
    fn feed(&mut self, input: Input<'_>) {
        let effects = self.core.handle(input);
        self.effects.extend(effects);
    }

    /// Takes the kept effects that `pick` chooses, in order, and leaves the others.
    fn take<T>(
        &mut self,
        mut pick: impl FnMut(&Effect) -> bool,
        map: impl Fn(Effect) -> Option<T>,
    ) -> Vec<T> {
        let (picked, rest): (Vec<Effect>, Vec<Effect>) =
            std::mem::take(&mut self.effects).into_iter().partition(|e| pick(e));
        self.effects = rest;
        picked.into_iter().filter_map(map).collect()
    }

    fn advance(&mut self, by: Duration) {
        self.now += by;
        self.unix_ms += by.as_millis() as u64;
        self.set_now(self.now, self.unix_ms);
        self.feed(Input::Timers);
    }

    fn set_now(&mut self, now: Instant, unix_ms: u64) {
        self.feed(Input::Time { now, unix_ms });
    }

    fn send(&mut self, conn: ConnId, message: &ClientMessage) {
        let bytes = encode(message).expect("encodes");
        self.message(conn, &bytes);
    }

    fn message(&mut self, conn: ConnId, bytes: &[u8]) {
        self.feed(Input::Message(conn, bytes));
    }

    /// A connection opened by a new player's token.
    fn connected(&mut self, conn: ConnId) {
        self.connected_with(conn, Grant { credential: None, may_create: true });
    }

    fn connected_with(&mut self, conn: ConnId, grant: Grant) {
        self.feed(Input::Opened { conn, grant });
    }

    fn set_origin(&mut self, conn: ConnId, origin: std::net::IpAddr) {
        self.feed(Input::Origin { conn, origin });
    }

    fn disconnected(&mut self, conn: ConnId) {
        self.feed(Input::Closed(conn));
    }

    fn looked_up(&mut self, conn: ConnId, hash: &str, found: Option<StoredPlayer>) {
        self.feed(Input::LookedUp(PlayerFound { conn, hash: hash.to_string(), player: found, claim: None }));
    }

    fn password_done(&mut self, answer: PasswordAnswer) {
        self.feed(Input::Password(answer));
    }

    fn games_found(&mut self, conn: ConnId, player: u64, nickname: String, games: Vec<RecentGame>) {
        self.feed(Input::GamesFound(GamesFound { conn, player, nickname, games }));
    }

    fn archive_found(&mut self, conn: ConnId, game: u64, found: Option<records::StoredArchive>) {
        self.feed(Input::ArchiveFound(ArchiveFound { conn, game, found }));
    }

    fn set_remote(&mut self, nodes: Vec<RemoteNode>) {
        self.feed(Input::Cluster(ClusterEvent::Nodes(nodes)));
    }

    fn game_owner_found(&mut self, player: u64, game: u64, node: Option<String>) {
        self.feed(Input::Cluster(ClusterEvent::GameOwner { player, game, node }));
    }

    fn seats_found(&mut self, found: Vec<(u64, u64, String)>) {
        let found = found.into_iter().map(|(player, game, node)| Seat { player, game, node }).collect();
        self.feed(Input::Cluster(ClusterEvent::Seats(found)));
    }

    fn adopt(&mut self, games: Vec<records::StoredGame>, players: Vec<StoredPlayer>) {
        self.feed(Input::Cluster(ClusterEvent::Adopted { games, players, claims: Vec::new() }));
    }

    fn add_ids(&mut self, kind: IdKind, first: u64, end: u64) {
        self.feed(Input::Cluster(ClusterEvent::Ids { kind, first, end }));
    }

    fn shutting_down(&mut self) {
        self.feed(Input::ShuttingDown);
    }

    /// The messages and closes called for.
    fn take_out(&mut self) -> Vec<Effect> {
        self.take(|e| matches!(e, Effect::Send(..) | Effect::Close(_)), Some)
    }

    fn take_ops(&mut self) -> Vec<Op> {
        self.take(
            |e| matches!(e, Effect::Store(_)),
            |e| if let Effect::Store(op) = e { Some(op) } else { None },
        )
    }

    fn take_lookups(&mut self) -> Vec<(ConnId, String, u64)> {
        self.take(
            |e| matches!(e, Effect::LookUp(_)),
            |e| if let Effect::LookUp(l) = e { Some((l.conn, l.hash, l.cutoff_ms)) } else { None },
        )
    }

    fn take_played(&mut self) -> Vec<(GameId, u32)> {
        self.take(
            |e| matches!(e, Effect::Played { .. }),
            |e| if let Effect::Played { game, ply } = e { Some((game, ply)) } else { None },
        )
    }

    fn take_password_jobs(&mut self) -> Vec<PasswordJob> {
        self.take(
            |e| matches!(e, Effect::HashPassword(_)),
            |e| if let Effect::HashPassword(job) = e { Some(job) } else { None },
        )
    }

    /// (connection, player, nickname, private games too).
    fn take_games_lookups(&mut self) -> Vec<(ConnId, u64, String, bool)> {
        self.take(
            |e| matches!(e, Effect::FindGames(_)),
            |e| {
                if let Effect::FindGames(r) = e {
                    Some((r.conn, r.player, r.nickname, r.private))
                } else {
                    None
                }
            },
        )
    }

    /// (connection, game).
    fn take_archive_lookups(&mut self) -> Vec<(ConnId, u64)> {
        self.take(
            |e| matches!(e, Effect::ReadArchive(_)),
            |e| if let Effect::ReadArchive(r) = e { Some((r.conn, r.game)) } else { None },
        )
    }

    fn take_owner_lookups(&mut self) -> Vec<(u64, u64)> {
        self.take(
            |e| matches!(e, Effect::FindOwner { .. }),
            |e| if let Effect::FindOwner { player, game } = e { Some((player, game)) } else { None },
        )
    }

    fn take_id_requests(&mut self) -> Vec<IdKind> {
        self.take(
            |e| matches!(e, Effect::AskIds(_)),
            |e| if let Effect::AskIds(k) = e { Some(k) } else { None },
        )
    }

    /// The cluster tick's seat checks.
    fn take_seat_checks(&mut self) -> Vec<u64> {
        self.feed(Input::ClusterTick { accepting: true });
        self.take(
            |e| matches!(e, Effect::CheckSeats(_) | Effect::Publish(_)),
            |e| if let Effect::CheckSeats(p) = e { Some(p) } else { None },
        )
        .concat()
    }

    /// The messages for `conn` since the last call (others' are dropped), and whether it was
    /// closed.
    fn inbox(&mut self, conn: ConnId) -> Vec<ServerMessage> {
        self.take_out()
            .into_iter()
            .filter_map(|o| match o {
                Effect::Send(c, bytes) if c == conn => Some(decode_server(&bytes).expect("decodes")),
                _ => None,
            })
            .collect()
    }

    /// Every message of this tick, by connection.
    fn all(&mut self) -> Vec<(ConnId, ServerMessage)> {
        self.take_out()
            .into_iter()
            .filter_map(|o| match o {
                Effect::Send(c, bytes) => Some((c, decode_server(&bytes).expect("decodes"))),
                _ => None,
            })
            .collect()
    }

    /// Connects `conn` and signs in as a new player called `name`; returns the session token.
    fn sign_in(&mut self, conn: ConnId, name: &str) -> SessionToken {
        self.connected(conn);
        let hello = Hello { version: PROTOCOL_VERSION, token: None, nickname: Some(name.to_string()) };
        self.send(conn, &ClientMessage::Hello(hello));
        match self.inbox(conn).as_slice() {
            [ServerMessage::Welcome { token, resumed: false, .. }] => token.clone(),
            other => panic!("expected a welcome, got {other:?}"),
        }
    }

    /// Two players matched in a quick game; returns (First's conn, Second's conn, the view).
    fn quick_game(&mut self, clock: Option<ClockSpec>) -> (ConnId, ConnId, GameView) {
        self.sign_in(1, "Ann");
        self.sign_in(2, "Bob");
        self.send(1, &ClientMessage::QuickMatch { variant: Variant::Latrunculi, clock });
        assert!(matches!(self.inbox(1).as_slice(), [ServerMessage::Queued { .. }]));
        self.send(2, &ClientMessage::QuickMatch { variant: Variant::Latrunculi, clock });
        let mut views: Vec<(ConnId, GameView)> = self
            .all()
            .into_iter()
            .filter_map(|(c, m)| match m {
                ServerMessage::Game(v) => Some((c, v)),
                _ => None,
            })
            .collect();
        assert_eq!(views.len(), 2, "both players get the game");
        views.sort_by_key(|(_, v)| v.role != Role::Player(Side::First));
        let (first, view) = views.remove(0);
        let second = views[0].0;
        (first, second, view)
    }
}

use ludus_protocol::Role;

/// The first legal move of a game in notation.
fn first_legal(view: &GameView, ply: usize) -> String {
    let record = GameRecord {
        variant: view.variant,
        start: view.start.clone(),
        moves: view.moves.clone(),
        ending: None,
    };
    let game = AnyGame::from_record(&record).expect("valid game");
    assert_eq!(game.ply(), ply);
    let position = game.position();
    let mv = position.legal_moves().into_iter().next().expect("a legal move");
    position.move_to_string(&mv).expect("notation")
}

fn refusal_code(messages: &[ServerMessage]) -> Option<ErrorCode> {
    messages.iter().find_map(|m| match m {
        ServerMessage::Error { code, .. } => Some(*code),
        _ => None,
    })
}

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
    h.send(1, &ClientMessage::CreateRoom { variant: Variant::Alquerque, clock: None, public: false });
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
    h.send(1, &ClientMessage::QuickMatch { variant: Variant::Latrunculi, clock: None });
    h.send(2, &ClientMessage::QuickMatch { variant: Variant::Latrunculi, clock: None });
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
    h.send(1, &ClientMessage::QuickMatch { variant: Variant::Latrunculi, clock: None });
    h.send(2, &ClientMessage::QuickMatch { variant: Variant::Latrunculi, clock: None });
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
    h.send(1, &ClientMessage::CreateRoom { variant: Variant::Alquerque, clock: None, public: false });
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

// Draw offers.

/// The messages of this tick for `conn`, from [`Harness::all`]'s list.
fn of(all: &[(ConnId, ServerMessage)], conn: ConnId) -> Vec<ServerMessage> {
    all.iter().filter(|(c, _)| *c == conn).map(|(_, m)| m.clone()).collect()
}

fn game_over_of(messages: &[ServerMessage]) -> Option<Outcome> {
    messages.iter().find_map(|m| match m {
        ServerMessage::GameOver { outcome, archive, .. } => {
            assert_eq!(archive.outcome, *outcome);
            Some(*outcome)
        }
        _ => None,
    })
}

#[test]
fn an_accepted_draw_offer_ends_the_game_drawn_by_agreement_stored_and_told() {
    let mut h = Harness::new(Limits::default());
    let (first, second, view) = h.quick_game(None);
    let game = view.game;
    h.sign_in(10, "Sam");
    h.send(10, &ClientMessage::Watch { game });
    let mv = first_legal(&view, 0);
    h.send(first, &ClientMessage::Move { game, ply: 0, mv: mv.clone() });
    h.all();
    h.take_ops();
    // First offers on Second's turn: everyone in the game is told, nothing is stored.
    h.send(first, &ClientMessage::OfferDraw { game });
    let all = h.all();
    for conn in [first, second, 10] {
        assert_eq!(
            of(&all, conn),
            vec![ServerMessage::DrawOffered { game, by: Side::First }],
            "conn {conn} is told of the offer"
        );
    }
    assert!(h.take_ops().is_empty(), "an offer is not stored");
    h.send(second, &ClientMessage::AnswerDraw { game, accept: true });
    let all = h.all();
    let agreed = Outcome::draw(Reason::Agreement);
    for conn in [first, second, 10] {
        assert_eq!(game_over_of(&of(&all, conn)), Some(agreed), "conn {conn} sees the agreed draw");
    }
    assert_eq!(h.core.live_games(), 0);
    assert_eq!(h.core.stats.games_finished, 1);
    let ops = h.take_ops();
    let archive = ops
        .iter()
        .find_map(|op| match op {
            Op::Finish { game: g, outcome, archive, .. } if *g == game.0 => {
                assert_eq!(outcome, "1/2-1/2 Agreement");
                Some(archive.clone())
            }
            _ => None,
        })
        .expect("the game is archived");
    let archive: ludus_protocol::ArchivedGame = serde_json::from_str(&archive).expect("an archive");
    assert_eq!(archive.outcome, agreed);
    assert_eq!(archive.record.ending, Some(agreed));
    assert_eq!(archive.record.moves, vec![mv]);
    assert_eq!(AnyGame::from_record(&archive.record).expect("replays").outcome(), Some(agreed));
    // Over: nothing more to offer or answer.
    h.send(first, &ClientMessage::OfferDraw { game });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::GameOver));
    h.send(second, &ClientMessage::AnswerDraw { game, accept: true });
    assert_eq!(refusal_code(&h.inbox(second)), Some(ErrorCode::GameOver));
    assert!(h.take_ops().is_empty());
}

#[test]
fn draw_offers_are_one_per_player_and_ply_lapse_with_the_offerers_move_and_answer_the_opponent_only() {
    let mut h = Harness::new(Limits::default());
    let (first, second, view) = h.quick_game(None);
    let game = view.game;
    h.sign_in(10, "Sam");
    h.send(10, &ClientMessage::Watch { game });
    h.sign_in(11, "Xen");
    h.all();
    h.take_ops();
    // Nobody offered: nothing to answer.
    h.send(second, &ClientMessage::AnswerDraw { game, accept: true });
    assert_eq!(refusal_code(&h.inbox(second)), Some(ErrorCode::NoDrawOffer));
    // Spectators and strangers cannot offer or answer; a wrong id is unknown.
    for conn in [10, 11] {
        h.send(conn, &ClientMessage::OfferDraw { game });
        assert_eq!(refusal_code(&h.inbox(conn)), Some(ErrorCode::NotAPlayer));
        h.send(conn, &ClientMessage::AnswerDraw { game, accept: true });
        assert_eq!(refusal_code(&h.inbox(conn)), Some(ErrorCode::NotAPlayer));
    }
    h.send(first, &ClientMessage::OfferDraw { game: GameId(999) });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::UnknownGame));
    // First offers on its own turn; a second offer at this ply is refused.
    h.send(first, &ClientMessage::OfferDraw { game });
    assert_eq!(of(&h.all(), second), vec![ServerMessage::DrawOffered { game, by: Side::First }]);
    h.send(first, &ClientMessage::OfferDraw { game });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::DrawAlreadyOffered));
    // The offerer cannot answer its own offer; a spectator cannot either.
    h.send(first, &ClientMessage::AnswerDraw { game, accept: true });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::NoDrawOffer));
    h.send(10, &ClientMessage::AnswerDraw { game, accept: true });
    assert_eq!(refusal_code(&h.inbox(10)), Some(ErrorCode::NotAPlayer));
    // Declined: everyone is told, the game goes on, and the offer still counted for this ply.
    h.send(second, &ClientMessage::AnswerDraw { game, accept: false });
    let all = h.all();
    for conn in [first, second, 10] {
        assert_eq!(of(&all, conn), vec![ServerMessage::DrawDeclined { game, by: Side::Second }]);
    }
    assert_eq!(h.core.live_games(), 1);
    h.send(second, &ClientMessage::AnswerDraw { game, accept: true });
    assert_eq!(refusal_code(&h.inbox(second)), Some(ErrorCode::NoDrawOffer));
    h.send(first, &ClientMessage::OfferDraw { game });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::DrawAlreadyOffered));
    assert!(h.take_ops().is_empty(), "nothing stored");

    // A move opens the next ply: First may offer again (on Second's turn); Second's move does
    // not lapse it, First's next move does.
    let mut moves = Vec::new();
    let play = |h: &mut Harness, conn: ConnId, moves: &mut Vec<String>| {
        let record = GameRecord {
            variant: view.variant,
            start: view.start.clone(),
            moves: moves.clone(),
            ending: None,
        };
        let local = AnyGame::from_record(&record).expect("replays");
        let mv = local.position().move_to_string(&local.legal_moves()[0]).expect("notation");
        h.send(conn, &ClientMessage::Move { game, ply: moves.len() as u32, mv: mv.clone() });
        moves.push(mv);
        h.all()
    };
    let all = play(&mut h, first, &mut moves);
    assert!(
        !all.iter().any(|(_, m)| matches!(m, ServerMessage::DrawOfferLapsed { .. })),
        "no offer was open"
    );
    h.send(first, &ClientMessage::OfferDraw { game });
    assert_eq!(of(&h.all(), second), vec![ServerMessage::DrawOffered { game, by: Side::First }]);
    let all = play(&mut h, second, &mut moves);
    assert!(matches!(of(&all, first).as_slice(), [ServerMessage::MovePlayed { ply: 1, .. }]), "still open");
    // Still open at the next ply: no new offer over it.
    h.send(first, &ClientMessage::OfferDraw { game });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::DrawAlreadyOffered));
    let all = play(&mut h, first, &mut moves);
    for conn in [first, second, 10] {
        let messages = of(&all, conn);
        assert!(
            matches!(
                messages.as_slice(),
                [
                    ServerMessage::MovePlayed { ply: 2, .. },
                    ServerMessage::DrawOfferLapsed { by: Side::First, .. }
                ]
            ),
            "conn {conn}: {messages:?}"
        );
    }
    h.send(second, &ClientMessage::AnswerDraw { game, accept: true });
    assert_eq!(refusal_code(&h.inbox(second)), Some(ErrorCode::NoDrawOffer));
    assert_eq!(h.core.live_games(), 1);
    assert_eq!(h.core.stats.refusals.get("draw_already_offered"), Some(&3));
}

#[test]
fn offering_a_draw_while_the_opponent_offers_one_agrees_it() {
    let mut h = Harness::new(Limits::default());
    let (first, second, view) = h.quick_game(None);
    let game = view.game;
    h.send(second, &ClientMessage::OfferDraw { game });
    h.all();
    h.send(first, &ClientMessage::OfferDraw { game });
    let all = h.all();
    for conn in [first, second] {
        assert_eq!(game_over_of(&of(&all, conn)), Some(Outcome::draw(Reason::Agreement)));
    }
    assert_eq!(h.core.live_games(), 0);
}

#[test]
fn a_draw_cannot_save_a_game_lost_on_time() {
    let mut h = Harness::new(Limits { min_clock_ms: 1000, ..Limits::default() });
    let clock = ClockSpec { initial_ms: 2000, increment_ms: 0 };
    let (first, second, view) = h.quick_game(Some(clock));
    let game = view.game;
    // First, to move, offers; the clocks keep running while the offer is open.
    h.advance(Duration::from_millis(500));
    h.send(first, &ClientMessage::OfferDraw { game });
    h.all();
    h.advance(Duration::from_millis(1000));
    assert_eq!(h.core.live_games(), 1);
    // First's flag falls before the timers notice; Second's acceptance comes too late.
    h.now += Duration::from_millis(600);
    h.set_now(h.now, h.unix_ms + 600);
    h.send(second, &ClientMessage::AnswerDraw { game, accept: true });
    let all = h.all();
    assert_eq!(refusal_code(&of(&all, second)), Some(ErrorCode::GameOver));
    assert_eq!(game_over_of(&of(&all, first)), Some(Outcome::win(Side::Second, Reason::Timeout)));
}

#[test]
fn an_open_draw_offer_follows_the_view_of_a_returning_player_and_a_new_spectator() {
    let mut h = Harness::new(Limits::default());
    h.sign_in(1, "Ann");
    let token = h.sign_in(2, "Bob");
    h.send(1, &ClientMessage::QuickMatch { variant: Variant::Latrunculi, clock: None });
    h.send(2, &ClientMessage::QuickMatch { variant: Variant::Latrunculi, clock: None });
    let game = h
        .all()
        .into_iter()
        .find_map(|(_, m)| match m {
            ServerMessage::Game(v) => Some(v.game),
            _ => None,
        })
        .expect("a game");
    h.send(1, &ClientMessage::OfferDraw { game });
    h.all();
    let by = match h.core.games.get(&game).and_then(|g| g.draw_offer) {
        Some(by) => by,
        None => panic!("the offer is open"),
    };
    // Bob drops and comes back: the view, then the offer.
    h.disconnected(2);
    h.all();
    h.connected_with(5, Grant { credential: Some(token.0.clone()), may_create: false });
    h.send(5, &ClientMessage::Hello(Hello { version: PROTOCOL_VERSION, token: None, nickname: None }));
    let inbox = h.inbox(5);
    let view = inbox.iter().position(|m| matches!(m, ServerMessage::Game(_))).expect("the view");
    assert_eq!(inbox.get(view + 1), Some(&ServerMessage::DrawOffered { game, by }));
    // So does a spectator's.
    h.sign_in(10, "Sam");
    h.send(10, &ClientMessage::Watch { game });
    let inbox = h.inbox(10);
    let view = inbox.iter().position(|m| matches!(m, ServerMessage::Game(_))).expect("the view");
    assert_eq!(inbox.get(view + 1), Some(&ServerMessage::DrawOffered { game, by }));
    // Bob, back, declines it.
    h.send(5, &ClientMessage::AnswerDraw { game, accept: false });
    assert_eq!(h.inbox(5), vec![ServerMessage::DrawDeclined { game, by: !by }]);
}

// Chat.

use ludus_protocol::{ChatChannel, ChatLine, ChatText, QuickPhrase};

/// Chat lines and nicknames that show nothing or deceive, look-alikes of claimed names.
mod text;

fn free(text: &str) -> ChatText {
    ChatText::Free(text.to_string())
}

/// The chat lines among `messages`.
fn lines_of(messages: &[ServerMessage]) -> Vec<ChatLine> {
    messages
        .iter()
        .filter_map(|m| match m {
            ServerMessage::Chat(line) => Some(line.clone()),
            _ => None,
        })
        .collect()
}

fn chat_ops(ops: &[Op]) -> Vec<(u32, ChatLine)> {
    ops.iter()
        .filter_map(|op| match op {
            Op::Chat { seq, line, .. } => Some((*seq, line.clone())),
            _ => None,
        })
        .collect()
}

/// A quick game watched by Sam (10) and Sue (11), with Xen (12) signed in but elsewhere.
fn watched_chat_game(h: &mut Harness) -> (ConnId, ConnId, GameId) {
    let (first, second, view) = h.quick_game(None);
    for (conn, name) in [(10, "Sam"), (11, "Sue"), (12, "Xen")] {
        h.sign_in(conn, name);
    }
    for conn in [10, 11] {
        h.send(conn, &ClientMessage::Watch { game: view.game });
    }
    h.all();
    h.take_ops();
    (first, second, view.game)
}

#[test]
fn players_and_spectators_chat_on_their_own_channels_stored_first_and_archived_together() {
    let mut h = Harness::new(Limits::default());
    let (first, second, game) = watched_chat_game(&mut h);
    let mv = first_legal(&h.core.view(game, PlayerId(1)).expect("view"), 0);
    h.send(first, &ClientMessage::Move { game, ply: 0, mv });
    h.all();
    h.take_ops();

    h.send(first, &ClientMessage::Chat { game, text: free("  good   luck ") });
    let stored = chat_ops(&h.take_ops());
    assert_eq!(stored.len(), 1, "the line is stored");
    let (seq, line) = &stored[0];
    assert_eq!(*seq, 0);
    assert_eq!(line.channel, ChatChannel::Players);
    assert_eq!(line.text, free("good luck"), "cleaned");
    assert_eq!((line.nickname.as_str(), line.ply, line.game), ("Ann", 1, game));
    assert_eq!(line.at_ms, h.unix_ms);
    let all = h.all();
    for conn in [first, second] {
        assert_eq!(lines_of(&of(&all, conn)), vec![line.clone()], "conn {conn} hears the player");
    }
    for conn in [10, 11, 12] {
        assert!(of(&all, conn).is_empty(), "conn {conn} does not");
    }

    h.send(10, &ClientMessage::Chat { game, text: ChatText::Phrase(QuickPhrase::GoodGame) });
    let stored = chat_ops(&h.take_ops());
    assert_eq!(stored.len(), 1);
    let (seq, spectator_line) = &stored[0];
    assert_eq!((*seq, spectator_line.channel), (1, ChatChannel::Spectators));
    let all = h.all();
    for conn in [10, 11] {
        assert_eq!(lines_of(&of(&all, conn)), vec![spectator_line.clone()], "conn {conn} hears Sam");
    }
    for conn in [first, second, 12] {
        assert!(of(&all, conn).is_empty(), "conn {conn} does not hear Sam during the game");
    }

    // A stranger and a wrong game are refused, nothing stored.
    h.send(12, &ClientMessage::Chat { game, text: free("hi") });
    assert_eq!(refusal_code(&h.inbox(12)), Some(ErrorCode::NotInGame));
    h.send(first, &ClientMessage::Chat { game: GameId(999), text: free("hi") });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::UnknownGame));
    assert!(chat_ops(&h.take_ops()).is_empty());

    // The end: everyone's archive has both channels in order, and so has the stored one.
    h.send(second, &ClientMessage::Resign { game });
    let all = h.all();
    for conn in [first, second, 10, 11] {
        let archive = of(&all, conn)
            .into_iter()
            .find_map(|m| match m {
                ServerMessage::GameOver { archive, .. } => Some(archive),
                _ => None,
            })
            .expect("game over");
        assert_eq!(archive.chat, vec![line.clone(), spectator_line.clone()], "conn {conn}");
    }
    let stored: ludus_protocol::ArchivedGame = h
        .take_ops()
        .iter()
        .find_map(|op| match op {
            Op::Finish { archive, .. } => serde_json::from_str(archive).ok(),
            _ => None,
        })
        .expect("archived");
    assert_eq!(stored.chat, vec![line.clone(), spectator_line.clone()]);
    // An archive stored before protocol 4 has no `chat` and still reads, with none.
    let mut old = serde_json::to_value(&stored).expect("json");
    old.as_object_mut().expect("an object").remove("chat");
    let old: ludus_protocol::ArchivedGame = serde_json::from_value(old).expect("an old archive reads");
    assert!(old.chat.is_empty());

    // Over: chat is refused to the players and the spectators alike.
    for conn in [first, second, 10] {
        h.send(conn, &ClientMessage::Chat { game, text: free("gg") });
        assert_eq!(refusal_code(&h.inbox(conn)), Some(ErrorCode::GameOver), "conn {conn}");
    }
    assert!(chat_ops(&h.take_ops()).is_empty());
}

#[test]
fn chat_is_rate_limited_per_player_by_the_core_clock() {
    let mut h = Harness::new(Limits::default());
    let (first, second, game) = watched_chat_game(&mut h);
    let say = |h: &mut Harness, conn: ConnId| {
        h.send(conn, &ClientMessage::Chat { game, text: ChatText::Phrase(QuickPhrase::Hello) });
        let accepted = !chat_ops(&h.take_ops()).is_empty();
        let refused = refusal_code(&h.inbox(conn));
        assert_eq!(accepted, refused.is_none());
        refused
    };
    assert_eq!(say(&mut h, first), None);
    // Too soon after the last line.
    assert_eq!(say(&mut h, first), Some(ErrorCode::RateLimited));
    h.advance(Duration::from_millis(499));
    assert_eq!(say(&mut h, first), Some(ErrorCode::RateLimited));
    // Another player has a budget of their own.
    assert_eq!(say(&mut h, second), None);
    h.advance(Duration::from_millis(1));
    // Lines at 0.5, 1.0, 1.5, 2.0 s: five in the window, then the sixth is refused.
    for _ in 0..4 {
        assert_eq!(say(&mut h, first), None);
        h.advance(Duration::from_millis(500));
    }
    assert_eq!(say(&mut h, first), Some(ErrorCode::RateLimited), "five lines in 10 s at most");
    // At 10 s the first line leaves the window.
    h.advance(Duration::from_millis(7499));
    assert_eq!(say(&mut h, first), Some(ErrorCode::RateLimited));
    h.advance(Duration::from_millis(1));
    assert_eq!(say(&mut h, first), None);
    assert_eq!(say(&mut h, 10), None, "a spectator too has a budget of their own");
}

#[test]
fn bad_chat_text_is_refused_nothing_stored_or_sent_and_the_game_chat_is_capped() {
    let limits =
        Limits { chat_interval: Duration::ZERO, chat_lines: 1000, chat_max_lines: 3, ..Limits::default() };
    let mut h = Harness::new(limits);
    let (first, second, game) = watched_chat_game(&mut h);
    let long = "x".repeat(ludus_protocol::CHAT_MAX_CHARS + 1);
    for (text, code) in [
        (long.as_str(), ErrorCode::ChatTooLong),
        ("", ErrorCode::ChatBadText),
        ("   ", ErrorCode::ChatBadText),
        ("two\nlines", ErrorCode::ChatBadText),
        ("a\u{7}bell", ErrorCode::ChatBadText),
        ("zero\u{200B}width", ErrorCode::ChatBadText),
        ("\u{202E}reversed", ErrorCode::ChatBadText),
        ("tag\u{E0041}", ErrorCode::ChatBadText),
    ] {
        h.send(first, &ClientMessage::Chat { game, text: free(text) });
        let all = h.all();
        assert_eq!(refusal_code(&of(&all, first)), Some(code), "{text:?}");
        assert!(lines_of(&all.iter().map(|(_, m)| m.clone()).collect::<Vec<_>>()).is_empty(), "{text:?}");
    }
    assert!(chat_ops(&h.take_ops()).is_empty(), "nothing stored");
    // Exactly the longest line passes; three lines fill this game's chat.
    let longest = "é".repeat(ludus_protocol::CHAT_MAX_CHARS);
    for (conn, text) in [(first, longest.as_str()), (second, "ok"), (10, "hi")] {
        h.send(conn, &ClientMessage::Chat { game, text: free(text) });
        assert_eq!(refusal_code(&h.inbox(conn)), None);
    }
    assert_eq!(chat_ops(&h.take_ops()).iter().map(|(seq, _)| *seq).collect::<Vec<_>>(), [0, 1, 2]);
    for conn in [first, 11] {
        h.send(conn, &ClientMessage::Chat { game, text: ChatText::Phrase(QuickPhrase::Thanks) });
        assert_eq!(refusal_code(&h.inbox(conn)), Some(ErrorCode::ChatFull));
    }
    assert!(chat_ops(&h.take_ops()).is_empty());
}

#[test]
fn a_mute_stops_delivery_to_the_muter_only_and_is_refused_out_of_place() {
    let limits = Limits { chat_interval: Duration::ZERO, chat_lines: 1000, ..Limits::default() };
    let mut h = Harness::new(limits);
    let (first, second, game) = watched_chat_game(&mut h);
    let (ann, bob, sue, xen) = (PlayerId(1), PlayerId(2), PlayerId(4), PlayerId(5));
    assert_eq!(h.core.view(game, ann).map(|v| v.players[0].nickname.clone()), Some("Ann".into()));
    // Sam mutes Sue: the server confirms.
    h.send(10, &ClientMessage::Mute { game, player: sue, muted: true });
    assert_eq!(h.inbox(10), vec![ServerMessage::Muted { game, player: sue, muted: true }]);
    h.send(11, &ClientMessage::Chat { game, text: free("hello all") });
    let all = h.all();
    assert!(of(&all, 10).is_empty(), "Sam muted Sue");
    assert_eq!(lines_of(&of(&all, 11)).len(), 1, "Sue gets her echo");
    assert_eq!(chat_ops(&h.take_ops()).len(), 1, "a muted line is still stored");
    // Ann mutes Bob; Bob is not muted for himself.
    h.send(first, &ClientMessage::Mute { game, player: bob, muted: true });
    h.all();
    h.send(second, &ClientMessage::Chat { game, text: free("hey") });
    let all = h.all();
    assert!(of(&all, first).is_empty());
    assert_eq!(lines_of(&of(&all, second)).len(), 1);
    // Unmuted, the lines come again.
    h.send(10, &ClientMessage::Mute { game, player: sue, muted: false });
    assert_eq!(h.inbox(10), vec![ServerMessage::Muted { game, player: sue, muted: false }]);
    h.send(11, &ClientMessage::Chat { game, text: free("again") });
    assert_eq!(lines_of(&of(&h.all(), 10)).len(), 1);
    // Oneself, someone elsewhere, a stranger muting, a wrong game.
    h.send(first, &ClientMessage::Mute { game, player: ann, muted: true });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::CannotMuteSelf));
    h.send(first, &ClientMessage::Mute { game, player: xen, muted: true });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::NotInGame));
    h.send(12, &ClientMessage::Mute { game, player: ann, muted: true });
    assert_eq!(refusal_code(&h.inbox(12)), Some(ErrorCode::NotInGame));
    h.send(10, &ClientMessage::Mute { game: GameId(999), player: ann, muted: true });
    assert_eq!(refusal_code(&h.inbox(10)), Some(ErrorCode::UnknownGame));
    // A muted spectator's lines stay out of a returning view's history too.
    h.send(10, &ClientMessage::Mute { game, player: sue, muted: true });
    h.all();
    h.send(10, &ClientMessage::Watch { game });
    let history = lines_of(&h.inbox(10));
    assert!(history.iter().all(|l| l.from != sue), "{history:?}");
    // Every line is in the archive, muted or not.
    h.send(first, &ClientMessage::Resign { game });
    let archive = h
        .inbox(first)
        .into_iter()
        .find_map(|m| match m {
            ServerMessage::GameOver { archive, .. } => Some(archive),
            _ => None,
        })
        .expect("game over");
    assert_eq!(archive.chat.len(), 3);
}

#[test]
fn stored_chat_comes_back_with_its_game_after_a_restart_each_viewer_their_channel() {
    let creds = ["a".repeat(32), "b".repeat(32)];
    let line = |channel, from: u64, text: &str, ply| ChatLine {
        game: GameId(7),
        channel,
        from: PlayerId(from),
        nickname: if from == 1 { "Ann".into() } else { "Sam".into() },
        text: free(text),
        ply,
        at_ms: 500,
    };
    let said = vec![line(ChatChannel::Players, 1, "hi", 0), line(ChatChannel::Spectators, 3, "go Ann", 0)];
    let loaded = Loaded {
        games: vec![records::StoredGame {
            id: 7,
            room: "ROOMROOM".into(),
            variant: Variant::Alquerque,
            start: AnyGame::new(Variant::Alquerque).start().to_string(),
            players: [1, 2],
            public: true,
            clock: None,
            created_ms: 100,
            rated: false,
            moves: vec![],
            clocks: None,
            proposals: vec![],
            chat: said.clone(),
            // A third stored line could not be read back: the next line is number 3.
            chat_stored: 3,
        }],
        players: (1..=2)
            .map(|id| StoredPlayer {
                id,
                hash: credential_hash(&creds[id as usize - 1]),
                prev: None,
                last_seen_ms: 900_000,
                nickname: ["Ann", "Ben"][id as usize - 1].into(),
            })
            .collect(),
        claims: vec![],
        next_player: 4,
        next_game: 8,
        ..Loaded::default()
    };
    let now = Instant::now();
    let mut h = Harness::of(Core::new(Limits::default(), loaded, now, 1_000_000, [7; 32]), now, 1_000_000);
    h.connected_with(1, Grant { credential: Some(creds[0].clone()), may_create: false });
    let hello = Hello { version: PROTOCOL_VERSION, token: None, nickname: None };
    h.send(1, &ClientMessage::Hello(hello));
    let inbox = h.inbox(1);
    let view = inbox.iter().position(|m| matches!(m, ServerMessage::Game(_))).expect("the game is back");
    assert_eq!(lines_of(&inbox[view..]), vec![said[0].clone()], "Ann gets the players' line after the view");
    h.sign_in(20, "Sue");
    h.send(20, &ClientMessage::Watch { game: GameId(7) });
    assert_eq!(lines_of(&h.inbox(20)), vec![said[1].clone()], "a spectator gets the spectators' line");
    // New lines follow the stored ones (past the unreadable third, whose number is not
    // reused), and the archive has them all.
    h.send(1, &ClientMessage::Chat { game: GameId(7), text: free("back") });
    assert_eq!(chat_ops(&h.take_ops()).first().map(|(seq, _)| *seq), Some(3));
    h.send(1, &ClientMessage::Resign { game: GameId(7) });
    let archive = h
        .inbox(1)
        .into_iter()
        .find_map(|m| match m {
            ServerMessage::GameOver { archive, .. } => Some(archive),
            _ => None,
        })
        .expect("game over");
    assert_eq!(archive.chat.len(), 3);
    assert_eq!(archive.chat[..2], said[..]);
}

#[test]
fn a_full_chat_still_fits_its_archive_in_one_server_message() {
    let limits = Limits { chat_interval: Duration::ZERO, chat_lines: 100_000, ..Limits::default() };
    let mut h = Harness::new(limits);
    let (first, second, game) = watched_chat_game(&mut h);
    h.sign_in(13, "Nguyễn Thị Ánh Tuyết");
    h.send(13, &ClientMessage::Watch { game });
    h.all();
    // The heaviest lines there are: 200 four-byte characters each, by the longest names.
    let heavy = free(&"🎲".repeat(ludus_protocol::CHAT_MAX_CHARS));
    let mut said = 0;
    let refusal = loop {
        let conn = [first, 13][said % 2];
        // Within the connection's own message budget.
        h.advance(Duration::from_millis(100));
        h.send(conn, &ClientMessage::Chat { game, text: heavy.clone() });
        if let Some(code) = refusal_code(&h.inbox(conn)) {
            break code;
        }
        said += 1;
        assert!(said <= ludus_protocol::CHAT_MAX_LINES, "the chat has a cap");
    };
    assert_eq!(refusal, ErrorCode::ChatFull);
    assert!(said < ludus_protocol::CHAT_MAX_LINES, "the byte cap comes first for heavy lines ({said})");
    // Light lines still fill it up to the line cap at most.
    h.send(second, &ClientMessage::Chat { game, text: ChatText::Phrase(QuickPhrase::Oops) });
    assert_eq!(refusal_code(&h.inbox(second)), None, "a quick phrase weighs little");
    h.send(second, &ClientMessage::Resign { game });
    let game_over = h
        .take_out()
        .into_iter()
        .find_map(|o| match o {
            Effect::Send(c, bytes) if c == first => {
                matches!(decode_server(&bytes), Ok(ServerMessage::GameOver { .. })).then_some(bytes)
            }
            _ => None,
        })
        .expect("game over");
    assert!(
        game_over.len() < ludus_protocol::MAX_SERVER_MESSAGE_BYTES / 2,
        "{} bytes: room left for the moves and the proposals",
        game_over.len()
    );
}

// Claimed nicknames and ratings (protocol 5).

impl Harness {
    /// Runs the queued password work in line (the server runs it on its password thread).
    fn run_password_jobs(&mut self) {
        for job in self.take_password_jobs() {
            self.password_done(run_job(job));
        }
    }

    /// `conn` (signed in) claims its nickname with `password`.
    fn claim(&mut self, conn: ConnId, password: &str) {
        self.send(
            conn,
            &ClientMessage::ClaimNickname { password: ludus_protocol::Password(password.into()) },
        );
        assert!(self.inbox(conn).is_empty(), "nothing before the hash is made");
        self.run_password_jobs();
        assert!(matches!(self.inbox(conn).as_slice(), [ServerMessage::NicknameClaimed { .. }]), "claimed");
    }

    fn sign_in_claimed(&mut self, conn: ConnId, nickname: &str, password: &str) -> Vec<ServerMessage> {
        self.send(
            conn,
            &ClientMessage::SignInClaimed {
                nickname: nickname.into(),
                password: ludus_protocol::Password(password.into()),
            },
        );
        let mut messages = self.inbox(conn);
        self.run_password_jobs();
        messages.extend(self.inbox(conn));
        messages
    }
}

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
    let mut h = Harness::new(Limits::default());
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
    // Two moves each (a shorter game changes no rating), then First resigns.
    let mut moves = view.clone();
    for ply in 0..4 {
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

/// Gives claimed player `pid` a rating in Alquerque.
fn rate(h: &mut Harness, pid: u64, rating: f64) {
    let claim = h.core.accounts.claims.get_mut(&PlayerId(pid)).expect("a claimed player");
    claim.ratings.insert(Variant::Alquerque, records::StoredRating { rating, ..Default::default() });
}

/// The players of the game started in this tick, if one started, lower id first.
fn started(h: &mut Harness) -> Option<[PlayerId; 2]> {
    h.all().into_iter().find_map(|(_, m)| match m {
        ServerMessage::Game(v) => {
            let mut pair = [v.players[0].id, v.players[1].id];
            pair.sort();
            Some(pair)
        }
        _ => None,
    })
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

// Several nodes.
use records::{NodeAddrs, RemoteNode};

/// A remote node `name` publishing `lobby`.
fn remote(name: &str, lobby: &Published) -> RemoteNode {
    RemoteNode {
        name: name.into(),
        addrs: NodeAddrs {
            udp: Some(format!("{name}.example:5000")),
            ws: Some(format!("ws://{name}.example:5001")),
            http: Some(format!("http://{name}.example:5000")),
        },
        lobby: Some(serde_json::to_string(lobby).unwrap()),
    }
}

fn redirect_of(messages: &[ServerMessage]) -> Option<ludus_protocol::Redirect> {
    messages.iter().find_map(|m| match m {
        ServerMessage::Redirect(r) => Some(r.clone()),
        _ => None,
    })
}

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
    h.send(1, &ClientMessage::CreateRoom { variant: Variant::Alquerque, clock: None, public: false });
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
