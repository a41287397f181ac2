//! The core driven without sockets: injected time and seed, messages in, messages out.

use crate::core::records;
use crate::core::records::{ArchiveFound, ClusterEvent, GamesFound, IdKind, PlayerFound, Seat, StoredPlayer};
use crate::core::records::{Loaded, Op};
use crate::core::records::{NodeAddrs, RemoteNode};
use crate::core::{ConnId, Core, Effect, Input, Limits, PasswordAnswer, PasswordJob, Published, run_job};
use crate::credential::Grant;
use ludus_protocol::Role;
use ludus_protocol::{ChatLine, ChatText};
use ludus_protocol::{
    ClientMessage, ErrorCode, GameId, Hello, PROTOCOL_VERSION, PlayerId, ServerMessage, SessionToken, encode,
};
use ludus_protocol::{ClockSpec, GameView, RecentGame, decode_server};
use ludus_rules::Side;
use ludus_rules::{AnyGame, GameRecord};
use ludus_rules::{Outcome, Variant};
use std::time::Duration;
use std::time::Instant;

mod accounts;
mod chat;
/// Session credentials: rotation, a lost welcome, replays.
mod credentials;
mod draws;
/// Budgets of large answers and the rules of rated play.
mod limits;
mod nodes;
mod play;
/// The spectator count under floods of watch switches.
mod spectators;
/// Chat lines and nicknames that show nothing or deceive, look-alikes of claimed names.
mod text;
/// Arenas, Swiss events, round robins: pairing, restarts, bad input, the schedule.
mod tournaments;
/// Turn-based games, challenges, many games at once.
mod turns;

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
        self.send(1, &ClientMessage::FindMatch { variant: Variant::Latrunculi, clock, rated: false });
        assert!(matches!(self.inbox(1).as_slice(), [ServerMessage::Queued { .. }]));
        self.send(2, &ClientMessage::FindMatch { variant: Variant::Latrunculi, clock, rated: false });
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

/// Limits under which every rated game that is long enough in moves changes both ratings in
/// full: no minimum time, and a result against a new player counts like any other (for tests
/// of other rules of rated play).
fn full_weight() -> Limits {
    Limits { rated_min_play: Duration::ZERO, rated_opponents_full: 0, ..Limits::default() }
}

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
