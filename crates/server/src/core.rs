//! The server's state and rules of engagement: players, rooms, the quick-match queue, live
//! games, spectators and their proposals. No I/O: the loop in `lib.rs` feeds it connections and
//! message bytes, and takes from it the changes to store and the messages to send.
//!
//! Nothing a client sends can make it panic: every message is decoded with errors, every
//! request is checked (seat, turn, ply, legality with `ludus_rules`), and a refused request
//! changes nothing and gets an [`ServerMessage::Error`].

use crate::store::{Loaded, Op};
use ludus_protocol::{
    ArchivedGame, ClientMessage, ClockSpec, ClockView, CrowdVerdict, ErrorCode, GameId, GameSummary,
    GameView, Hello, LobbyView, MAX_CLIENT_MESSAGE_BYTES, PROTOCOL_VERSION, PlayerId, PlayerInfo,
    PlyProposals, Proposal, ROOM_CODE_ALPHABET, ROOM_CODE_LEN, Role, RoomSummary, ServerMessage,
    SessionToken, decode_client, encode, hello_version, incompatible_message, normalize_room_code,
    validate_nickname,
};
use ludus_rules::{AnyGame, AnyMove, GameRecord, Outcome, Reason, Side, Variant};
use renet2::Bytes;
use std::collections::{HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// A connection: renet2's client id.
pub type ConnId = u64;

/// Tunables of the game logic.
#[derive(Clone, Debug)]
pub struct Limits {
    /// How long a disconnected player's seat is held before the game is lost (`Abandoned`).
    pub seat_hold: Duration,
    /// A connection must say [`Hello`] within this time.
    pub hello_timeout: Duration,
    /// Messages a connection may send in a burst.
    pub burst: f64,
    /// Messages a connection may send per second, sustained.
    pub rate: f64,
    /// Refused (rate-limited or malformed) messages after which a connection is dropped.
    pub max_strikes: u32,
    /// Shortest interval between two proposal updates sent to a game's spectators.
    pub proposal_interval: Duration,
    /// Shortest initial time of a clock, in milliseconds (tests lower it).
    pub min_clock_ms: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            seat_hold: Duration::from_secs(120),
            hello_timeout: Duration::from_secs(10),
            burst: 40.0,
            rate: 20.0,
            max_strikes: 100,
            proposal_interval: Duration::from_millis(250),
            min_clock_ms: ClockSpec::MIN_INITIAL_MS,
        }
    }
}

/// What a tick produced for a connection, in order.
#[derive(Debug)]
pub enum Outgoing {
    /// An encoded message.
    Message(ConnId, Bytes),
    /// Close the connection (after the messages before this one).
    Close(ConnId),
}

struct Conn {
    player: Option<PlayerId>,
    opened: Instant,
    tokens: f64,
    refill: Instant,
    strikes: u32,
    last_rate_error: Option<Instant>,
    closing: bool,
}

struct Player {
    token: String,
    nickname: String,
    conn: Option<ConnId>,
    /// The room the player sits in (waiting, playing or just finished).
    room: Option<String>,
    queued: Option<QueueKey>,
    watching: Option<GameId>,
}

type QueueKey = (Variant, Option<ClockSpec>);

struct Room {
    code: String,
    variant: Variant,
    clock: Option<ClockSpec>,
    public: bool,
    /// Quick-match rooms are never listed as open.
    quick: bool,
    members: Vec<PlayerId>,
    /// The current game, or the last one.
    game: Option<GameId>,
    /// `[First, Second]` of the last game (rematches swap them).
    last_players: Option<[PlayerId; 2]>,
    rematch: [bool; 2],
    created: u64,
}

struct LiveGame {
    id: GameId,
    room: String,
    game: AnyGame,
    players: [PlayerId; 2],
    public: bool,
    clock: Option<ClockSpec>,
    remaining_ms: [u64; 2],
    turn_started: Instant,
    spectators: HashSet<PlayerId>,
    proposals: HashMap<PlayerId, String>,
    proposals_dirty: bool,
    proposals_sent: Option<Instant>,
    history: Vec<PlyProposals>,
    disconnected: [Option<Instant>; 2],
    created_ms: u64,
}

type Refusal = (ErrorCode, String);

/// `text` as a legal move at ply `ply` of `game` (the ply guards against stale or repeated
/// requests), with its notation as the server writes it.
fn move_at(game: &AnyGame, ply: u32, text: &str) -> Result<(AnyMove, String), Refusal> {
    if ply as usize != game.ply() {
        return refuse(ErrorCode::WrongPly, format!("the game is at ply {}, not {ply}", game.ply()));
    }
    if text.chars().count() > MAX_MOVE_CHARS {
        return refuse(ErrorCode::IllegalMove, "move too long");
    }
    let position = game.position();
    let mv = position.parse_move(text).map_err(|e| (ErrorCode::IllegalMove, format!("{text}: {e}")))?;
    let notation = position.move_to_string(&mv).unwrap_or_else(|| text.to_string());
    Ok((mv, notation))
}

fn refuse<T>(code: ErrorCode, message: impl Into<String>) -> Result<T, Refusal> {
    Err((code, message.into()))
}

fn unix_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

fn random_u64() -> u64 {
    u64::from_le_bytes(renet2_netcode::generate_random_bytes::<8>())
}

fn new_token() -> String {
    renet2_netcode::generate_random_bytes::<16>().iter().map(|b| format!("{b:02x}")).collect()
}

/// Longest move text accepted (an Alquerque path of 16 jumps is 47 characters).
const MAX_MOVE_CHARS: usize = 64;

/// Most distinct proposals sent or archived for one ply (the most proposed).
const MAX_LISTED_PROPOSALS: usize = 16;

fn tally(proposals: &HashMap<PlayerId, String>) -> Vec<Proposal> {
    let mut counts: HashMap<&str, u32> = HashMap::new();
    for mv in proposals.values() {
        *counts.entry(mv.as_str()).or_default() += 1;
    }
    let mut list: Vec<Proposal> =
        counts.into_iter().map(|(mv, count)| Proposal { mv: mv.to_string(), count }).collect();
    list.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.mv.cmp(&b.mv)));
    list.truncate(MAX_LISTED_PROPOSALS);
    list
}

fn side_index(side: Side) -> usize {
    side.index()
}

fn side_of(index: usize) -> Side {
    if index == 0 { Side::First } else { Side::Second }
}

/// The server's state. See the module documentation.
pub struct Core {
    limits: Limits,
    now: Instant,
    conns: HashMap<ConnId, Conn>,
    players: HashMap<PlayerId, Player>,
    tokens: HashMap<String, PlayerId>,
    rooms: HashMap<String, Room>,
    games: HashMap<GameId, LiveGame>,
    queue: HashMap<QueueKey, VecDeque<PlayerId>>,
    next_player: u64,
    next_game: u64,
    room_serial: u64,
    ops: Vec<Op>,
    out: Vec<Outgoing>,
    /// Looks up a stored player by token (the database), for players not in memory.
    lookup: Box<dyn FnMut(&str) -> Option<(u64, String)> + Send>,
    /// Counters for the operator.
    pub stats: Stats,
}

/// Counters.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub moves: u64,
    pub refused: u64,
    pub malformed: u64,
    pub games_started: u64,
    pub games_finished: u64,
}

impl Core {
    /// A new state from what was stored: every live game is back, its players offline with
    /// their seats held for [`Limits::seat_hold`] from now, and its clocks as after the last move.
    pub fn new(
        limits: Limits,
        loaded: Loaded,
        lookup: Box<dyn FnMut(&str) -> Option<(u64, String)> + Send>,
        now: Instant,
    ) -> Core {
        let mut core = Core {
            limits,
            now,
            conns: HashMap::new(),
            players: HashMap::new(),
            tokens: HashMap::new(),
            rooms: HashMap::new(),
            games: HashMap::new(),
            queue: HashMap::new(),
            next_player: loaded.next_player.max(1),
            next_game: loaded.next_game.max(1),
            room_serial: 0,
            ops: Vec::new(),
            out: Vec::new(),
            lookup,
            stats: Stats::default(),
        };
        for p in loaded.players {
            core.tokens.insert(p.token.clone(), PlayerId(p.id));
            core.players.insert(
                PlayerId(p.id),
                Player {
                    token: p.token,
                    nickname: p.nickname,
                    conn: None,
                    room: None,
                    queued: None,
                    watching: None,
                },
            );
        }
        for g in loaded.games {
            let record = GameRecord {
                variant: g.variant,
                start: g.start.clone(),
                moves: g.moves.clone(),
                ending: None,
            };
            let game = match AnyGame::from_record(&record) {
                Ok(game) => game,
                Err(e) => {
                    eprintln!("ludus-server: cannot reload game {}: {e}", g.id);
                    continue;
                }
            };
            let players = [PlayerId(g.players[0]), PlayerId(g.players[1])];
            if !players.iter().all(|p| core.players.contains_key(p)) {
                eprintln!("ludus-server: cannot reload game {}: unknown player", g.id);
                continue;
            }
            let initial = g.clock.map_or(0, |c| u64::from(c.initial_ms));
            let id = GameId(g.id);
            core.room_serial += 1;
            core.rooms.insert(
                g.room.clone(),
                Room {
                    code: g.room.clone(),
                    variant: g.variant,
                    clock: g.clock,
                    public: g.public,
                    quick: true,
                    members: players.to_vec(),
                    game: Some(id),
                    last_players: Some(players),
                    rematch: [false; 2],
                    created: core.room_serial,
                },
            );
            for p in players {
                if let Some(player) = core.players.get_mut(&p) {
                    player.room = Some(g.room.clone());
                }
            }
            core.games.insert(
                id,
                LiveGame {
                    id,
                    room: g.room,
                    game,
                    players,
                    public: g.public,
                    clock: g.clock,
                    remaining_ms: g.clocks.unwrap_or([initial, initial]),
                    turn_started: now,
                    spectators: HashSet::new(),
                    proposals: HashMap::new(),
                    proposals_dirty: false,
                    proposals_sent: None,
                    history: g.proposals,
                    disconnected: [Some(now), Some(now)],
                    created_ms: g.created_ms,
                },
            );
        }
        core
    }

    /// Live games.
    pub fn live_games(&self) -> usize {
        self.games.len()
    }

    /// Open connections.
    pub fn connections(&self) -> usize {
        self.conns.len()
    }

    /// Takes the changes to store.
    pub fn take_ops(&mut self) -> Vec<Op> {
        std::mem::take(&mut self.ops)
    }

    /// Takes the messages and closes to perform (after the changes are stored).
    pub fn take_out(&mut self) -> Vec<Outgoing> {
        std::mem::take(&mut self.out)
    }

    /// Sets the time of the current tick.
    pub fn set_now(&mut self, now: Instant) {
        self.now = now;
    }

    // ----- sending -----

    fn send_conn(&mut self, conn: ConnId, message: &ServerMessage) {
        if let Ok(bytes) = encode(message) {
            self.out.push(Outgoing::Message(conn, Bytes::from(bytes)));
        }
    }

    fn send_player(&mut self, player: PlayerId, message: &ServerMessage) {
        if let Some(conn) = self.players.get(&player).and_then(|p| p.conn) {
            self.send_conn(conn, message);
        }
    }

    fn send_players(&mut self, players: impl IntoIterator<Item = PlayerId>, message: &ServerMessage) {
        let Ok(bytes) = encode(message) else {
            return;
        };
        let bytes = Bytes::from(bytes);
        for p in players {
            if let Some(conn) = self.players.get(&p).and_then(|p| p.conn) {
                self.out.push(Outgoing::Message(conn, bytes.clone()));
            }
        }
    }

    fn error(&mut self, conn: ConnId, (code, message): Refusal) {
        self.stats.refused += 1;
        self.send_conn(conn, &ServerMessage::Error { code, message });
    }

    fn close(&mut self, conn: ConnId) {
        if let Some(c) = self.conns.get_mut(&conn)
            && !c.closing
        {
            c.closing = true;
            self.out.push(Outgoing::Close(conn));
        }
    }

    // ----- connections -----

    /// A connection opened.
    pub fn connected(&mut self, conn: ConnId) {
        self.conns.insert(
            conn,
            Conn {
                player: None,
                opened: self.now,
                tokens: self.limits.burst,
                refill: self.now,
                strikes: 0,
                last_rate_error: None,
                closing: false,
            },
        );
    }

    /// A connection closed (by either side, or timed out).
    pub fn disconnected(&mut self, conn: ConnId) {
        let Some(c) = self.conns.remove(&conn) else {
            return;
        };
        let Some(pid) = c.player else {
            return;
        };
        if self.players.get(&pid).and_then(|p| p.conn) != Some(conn) {
            return; // Signed in elsewhere since.
        }
        if let Some(p) = self.players.get_mut(&pid) {
            p.conn = None;
        }
        self.detach(pid);
    }

    /// A player went offline: leave queue, spectating and waiting rooms; hold a live seat.
    fn detach(&mut self, pid: PlayerId) {
        self.unqueue(pid);
        self.unwatch(pid);
        let room_code = self.players.get(&pid).and_then(|p| p.room.clone());
        if let Some(code) = room_code {
            match self.live_game_of_room(&code) {
                Some(gid) => {
                    let hold_ms = self.limits.seat_hold.as_millis().min(u128::from(u32::MAX)) as u32;
                    let now = self.now;
                    let Some(g) = self.games.get_mut(&gid) else {
                        return;
                    };
                    let Some(i) = g.players.iter().position(|&p| p == pid) else {
                        return;
                    };
                    g.disconnected[i] = Some(now);
                    let audience = self.audience(gid);
                    self.send_players(
                        audience,
                        &ServerMessage::PlayerConnection {
                            game: gid,
                            side: side_of(i),
                            connected: false,
                            hold_ms: Some(hold_ms),
                        },
                    );
                    return;
                }
                None => self.close_room(&code),
            }
        }
        self.forget_if_idle(pid);
    }

    /// Drops an offline player with no seat from memory (they stay in the database).
    fn forget_if_idle(&mut self, pid: PlayerId) {
        let idle = self.players.get(&pid).is_some_and(|p| p.conn.is_none() && p.room.is_none());
        if idle && let Some(p) = self.players.remove(&pid) {
            self.tokens.remove(&p.token);
        }
    }

    /// Handles one message from a connection.
    pub fn message(&mut self, conn: ConnId, bytes: &[u8]) {
        let now = self.now;
        let limits = self.limits.clone();
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        if c.closing {
            return;
        }
        // Token bucket.
        let elapsed = now.saturating_duration_since(c.refill).as_secs_f64();
        c.refill = now;
        c.tokens = (c.tokens + elapsed * limits.rate).min(limits.burst);
        if c.tokens < 1.0 {
            c.strikes += 1;
            let strikes = c.strikes;
            let tell =
                c.last_rate_error.is_none_or(|t| now.saturating_duration_since(t) >= Duration::from_secs(1));
            if tell {
                c.last_rate_error = Some(now);
            }
            if strikes > limits.max_strikes {
                self.close(conn);
            } else if tell {
                self.error(conn, (ErrorCode::RateLimited, "too many messages: slow down".into()));
            }
            return;
        }
        c.tokens -= 1.0;
        let signed_in = c.player;
        if bytes.len() > MAX_CLIENT_MESSAGE_BYTES {
            self.strike(
                conn,
                format!("message of {} bytes (at most {MAX_CLIENT_MESSAGE_BYTES})", bytes.len()),
            );
            return;
        }
        let message = match decode_client(bytes) {
            Ok(m) => m,
            Err(e) => {
                if signed_in.is_none()
                    && let Some(version) = hello_version(bytes).filter(|&v| v != PROTOCOL_VERSION)
                {
                    self.incompatible(conn, version);
                    return;
                }
                self.strike(conn, e.to_string());
                return;
            }
        };
        let result = match (signed_in, message) {
            (None, ClientMessage::Hello(hello)) => self.hello(conn, hello),
            (None, _) => refuse(ErrorCode::NotSignedIn, "say Hello first"),
            (Some(_), ClientMessage::Hello(_)) => refuse(ErrorCode::AlreadySignedIn, "already signed in"),
            (Some(pid), message) => self.request(conn, pid, message),
        };
        if let Err(refusal) = result {
            self.error(conn, refusal);
        }
    }

    fn strike(&mut self, conn: ConnId, message: String) {
        self.stats.malformed += 1;
        let max = self.limits.max_strikes;
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        c.strikes += 1;
        if c.strikes > max {
            self.close(conn);
        } else {
            self.error(conn, (ErrorCode::Malformed, message));
        }
    }

    fn incompatible(&mut self, conn: ConnId, version: u16) {
        self.send_conn(
            conn,
            &ServerMessage::Incompatible {
                server_version: PROTOCOL_VERSION,
                message: incompatible_message(version),
            },
        );
        self.close(conn);
    }

    fn hello(&mut self, conn: ConnId, hello: Hello) -> Result<(), Refusal> {
        if hello.version != PROTOCOL_VERSION {
            self.incompatible(conn, hello.version);
            return Ok(());
        }
        let nickname = match &hello.nickname {
            Some(n) => Some(validate_nickname(n).map_err(|e| (ErrorCode::BadNickname, e))?),
            None => None,
        };
        let known = hello.token.as_ref().and_then(|SessionToken(t)| self.find_player(t));
        let (pid, resumed) = match known {
            Some(pid) => (pid, true),
            None => {
                let id = PlayerId(self.next_player);
                self.next_player += 1;
                let token = new_token();
                let nickname =
                    nickname.clone().unwrap_or_else(|| format!("Guest-{:04}", random_u64() % 10_000));
                self.ops.push(Op::NewPlayer {
                    id: id.0,
                    token: token.clone(),
                    nickname: nickname.clone(),
                    created_ms: unix_ms(),
                });
                self.tokens.insert(token.clone(), id);
                self.players.insert(
                    id,
                    Player { token, nickname, conn: None, room: None, queued: None, watching: None },
                );
                (id, false)
            }
        };
        // One connection per player: the newest wins.
        if let Some(old) = self.players.get(&pid).and_then(|p| p.conn)
            && old != conn
        {
            self.send_conn(
                old,
                &ServerMessage::Error {
                    code: ErrorCode::SignedInElsewhere,
                    message: "signed in from another connection".into(),
                },
            );
            if let Some(c) = self.conns.get_mut(&old) {
                c.player = None;
            }
            self.close(old);
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            c.player = Some(pid);
        }
        let Some(player) = self.players.get_mut(&pid) else {
            return refuse(ErrorCode::Internal, "player vanished");
        };
        player.conn = Some(conn);
        if resumed
            && let Some(n) = nickname
            && n != player.nickname
        {
            player.nickname = n.clone();
            self.ops.push(Op::Nickname { id: pid.0, nickname: n });
        }
        let Some(player) = self.players.get(&pid) else {
            return refuse(ErrorCode::Internal, "player vanished");
        };
        let welcome = ServerMessage::Welcome {
            player: pid,
            nickname: player.nickname.clone(),
            token: SessionToken(player.token.clone()),
            resumed,
        };
        self.send_conn(conn, &welcome);
        self.reattach(pid);
        Ok(())
    }

    fn find_player(&mut self, token: &str) -> Option<PlayerId> {
        if token.len() != 32 {
            return None;
        }
        if let Some(&pid) = self.tokens.get(token) {
            return Some(pid);
        }
        let (id, nickname) = (self.lookup)(token)?;
        let pid = PlayerId(id);
        self.tokens.insert(token.to_string(), pid);
        self.players.insert(
            pid,
            Player {
                token: token.to_string(),
                nickname,
                conn: None,
                room: None,
                queued: None,
                watching: None,
            },
        );
        Some(pid)
    }

    /// A player came back: give them their live game.
    fn reattach(&mut self, pid: PlayerId) {
        let Some(code) = self.players.get(&pid).and_then(|p| p.room.clone()) else {
            return;
        };
        let Some(gid) = self.live_game_of_room(&code) else {
            return;
        };
        let Some(g) = self.games.get_mut(&gid) else {
            return;
        };
        let Some(i) = g.players.iter().position(|&p| p == pid) else {
            return;
        };
        g.disconnected[i] = None;
        if let Some(view) = self.view(gid, pid) {
            self.send_player(pid, &ServerMessage::Game(view));
        }
        let others: Vec<PlayerId> = self.audience(gid).into_iter().filter(|&p| p != pid).collect();
        self.send_players(
            others,
            &ServerMessage::PlayerConnection { game: gid, side: side_of(i), connected: true, hold_ms: None },
        );
    }

    // ----- requests -----

    fn request(&mut self, conn: ConnId, pid: PlayerId, message: ClientMessage) -> Result<(), Refusal> {
        match message {
            ClientMessage::Hello(_) => refuse(ErrorCode::AlreadySignedIn, "already signed in"),
            ClientMessage::SetNickname { nickname } => {
                let nickname = validate_nickname(&nickname).map_err(|e| (ErrorCode::BadNickname, e))?;
                if let Some(p) = self.players.get_mut(&pid) {
                    p.nickname = nickname.clone();
                }
                self.ops.push(Op::Nickname { id: pid.0, nickname: nickname.clone() });
                self.send_conn(conn, &ServerMessage::NicknameSet { nickname });
                Ok(())
            }
            ClientMessage::Lobby => {
                let lobby = self.lobby();
                self.send_conn(conn, &ServerMessage::Lobby(lobby));
                Ok(())
            }
            ClientMessage::CreateRoom { variant, clock, public } => {
                self.create_room(pid, variant, clock, public)
            }
            ClientMessage::JoinRoom { code } => self.join_room(pid, &code),
            ClientMessage::QuickMatch { variant, clock } => self.quick_match(pid, variant, clock),
            ClientMessage::Watch { game } => self.watch(pid, game),
            ClientMessage::Move { game, ply, mv } => self.play(pid, game, ply, &mv),
            ClientMessage::Propose { game, ply, mv } => self.propose(pid, game, ply, &mv),
            ClientMessage::Resign { game } => self.resign(pid, game),
            ClientMessage::Rematch { game } => self.rematch(pid, game),
            ClientMessage::Leave => {
                self.leave(pid);
                self.send_conn(conn, &ServerMessage::Left);
                Ok(())
            }
            ClientMessage::Ping { nonce } => {
                self.send_conn(conn, &ServerMessage::Pong { nonce });
                Ok(())
            }
        }
    }

    fn lobby(&self) -> LobbyView {
        let mut rooms: Vec<&Room> = self
            .rooms
            .values()
            .filter(|r| r.public && !r.quick && r.members.len() == 1 && r.game.is_none())
            .collect();
        rooms.sort_by_key(|r| std::cmp::Reverse(r.created));
        let mut games: Vec<&LiveGame> = self.games.values().filter(|g| g.public).collect();
        games.sort_by_key(|g| std::cmp::Reverse(g.id));
        let nick = |p: &PlayerId| self.players.get(p).map(|p| p.nickname.clone()).unwrap_or_default();
        LobbyView {
            total_rooms: rooms.len() as u32,
            total_games: games.len() as u32,
            rooms: rooms
                .iter()
                .take(LobbyView::MAX_LISTED)
                .map(|r| RoomSummary {
                    code: r.code.clone(),
                    variant: r.variant,
                    clock: r.clock,
                    host: r.members.first().map(nick).unwrap_or_default(),
                })
                .collect(),
            games: games
                .iter()
                .take(LobbyView::MAX_LISTED)
                .map(|g| GameSummary {
                    game: g.id,
                    variant: g.game.variant(),
                    players: [nick(&g.players[0]), nick(&g.players[1])],
                    spectators: g.spectators.len() as u32,
                    ply: g.game.ply() as u32,
                    clock: g.clock,
                })
                .collect(),
            online: self.conns.values().filter(|c| c.player.is_some()).count() as u32,
        }
    }

    fn check_clock(&self, clock: Option<ClockSpec>) -> Result<(), Refusal> {
        let min = self.limits.min_clock_ms;
        match clock {
            Some(c)
                if !(min..=ClockSpec::MAX_INITIAL_MS).contains(&c.initial_ms)
                    || c.increment_ms > ClockSpec::MAX_INCREMENT_MS =>
            {
                refuse(
                    ErrorCode::BadClock,
                    format!(
                        "time control: {}-{} s plus at most {} s a move",
                        min / 1000,
                        ClockSpec::MAX_INITIAL_MS / 1000,
                        ClockSpec::MAX_INCREMENT_MS / 1000
                    ),
                )
            }
            _ => Ok(()),
        }
    }

    /// The live game of a room, if one is being played.
    fn live_game_of_room(&self, code: &str) -> Option<GameId> {
        self.rooms.get(code).and_then(|r| r.game).filter(|g| self.games.contains_key(g))
    }

    /// Refuses if the player sits in a game in progress; otherwise leaves any room and queue.
    fn make_free(&mut self, pid: PlayerId) -> Result<(), Refusal> {
        if let Some(code) = self.players.get(&pid).and_then(|p| p.room.clone()) {
            if let Some(gid) = self.live_game_of_room(&code) {
                return refuse(
                    ErrorCode::Busy,
                    format!("you are playing game {}: finish or resign it first", gid.0),
                );
            }
            self.close_room(&code);
        }
        self.unqueue(pid);
        Ok(())
    }

    fn new_code(&mut self) -> String {
        loop {
            let bytes = renet2_netcode::generate_random_bytes::<ROOM_CODE_LEN>();
            let code: String = bytes
                .iter()
                .map(|b| ROOM_CODE_ALPHABET[usize::from(*b) % ROOM_CODE_ALPHABET.len()] as char)
                .collect();
            if !self.rooms.contains_key(&code) {
                return code;
            }
        }
    }

    fn create_room(
        &mut self,
        pid: PlayerId,
        variant: Variant,
        clock: Option<ClockSpec>,
        public: bool,
    ) -> Result<(), Refusal> {
        self.check_clock(clock)?;
        self.make_free(pid)?;
        let code = self.new_code();
        self.room_serial += 1;
        self.rooms.insert(
            code.clone(),
            Room {
                code: code.clone(),
                variant,
                clock,
                public,
                quick: false,
                members: vec![pid],
                game: None,
                last_players: None,
                rematch: [false; 2],
                created: self.room_serial,
            },
        );
        if let Some(p) = self.players.get_mut(&pid) {
            p.room = Some(code.clone());
        }
        self.send_player(pid, &ServerMessage::RoomOpened { code, variant, clock, public });
        Ok(())
    }

    fn join_room(&mut self, pid: PlayerId, code: &str) -> Result<(), Refusal> {
        let Some(code) = normalize_room_code(code) else {
            return refuse(ErrorCode::UnknownRoom, "a room code has 6 letters and digits");
        };
        let Some(room) = self.rooms.get(&code) else {
            return refuse(ErrorCode::UnknownRoom, format!("no room {code}"));
        };
        if room.members.contains(&pid) {
            return refuse(ErrorCode::OwnRoom, "this is your own room");
        }
        if room.members.len() >= 2 || room.game.is_some() {
            return refuse(ErrorCode::RoomFull, format!("room {code} is full"));
        }
        self.make_free(pid)?;
        let Some(room) = self.rooms.get_mut(&code) else {
            return refuse(ErrorCode::UnknownRoom, format!("no room {code}"));
        };
        room.members.push(pid);
        if let Some(p) = self.players.get_mut(&pid) {
            p.room = Some(code.clone());
        }
        let first_first = random_u64().is_multiple_of(2);
        self.start_game(&code, first_first)
    }

    fn quick_match(
        &mut self,
        pid: PlayerId,
        variant: Variant,
        clock: Option<ClockSpec>,
    ) -> Result<(), Refusal> {
        self.check_clock(clock)?;
        self.make_free(pid)?;
        let key = (variant, clock);
        let opponent = loop {
            let Some(queue) = self.queue.get_mut(&key) else {
                break None;
            };
            let Some(other) = queue.pop_front() else {
                break None;
            };
            let waiting = self.players.get(&other).is_some_and(|p| p.conn.is_some() && p.queued == Some(key));
            if waiting && other != pid {
                break Some(other);
            }
        };
        let Some(other) = opponent else {
            self.queue.entry(key).or_default().push_back(pid);
            if let Some(p) = self.players.get_mut(&pid) {
                p.queued = Some(key);
            }
            self.send_player(pid, &ServerMessage::Queued { variant, clock });
            return Ok(());
        };
        if let Some(p) = self.players.get_mut(&other) {
            p.queued = None;
        }
        let code = self.new_code();
        self.room_serial += 1;
        self.rooms.insert(
            code.clone(),
            Room {
                code: code.clone(),
                variant,
                clock,
                public: true,
                quick: true,
                members: vec![other, pid],
                game: None,
                last_players: None,
                rematch: [false; 2],
                created: self.room_serial,
            },
        );
        for p in [other, pid] {
            if let Some(p) = self.players.get_mut(&p) {
                p.room = Some(code.clone());
            }
        }
        self.start_game(&code, random_u64().is_multiple_of(2))
    }

    fn unqueue(&mut self, pid: PlayerId) {
        let Some(key) = self.players.get_mut(&pid).and_then(|p| p.queued.take()) else {
            return;
        };
        if let Some(q) = self.queue.get_mut(&key) {
            q.retain(|&p| p != pid);
            if q.is_empty() {
                self.queue.remove(&key);
            }
        }
    }

    /// Starts a game in a room of two: `members[0]` plays First if `first_first`.
    fn start_game(&mut self, code: &str, first_first: bool) -> Result<(), Refusal> {
        let Some(room) = self.rooms.get_mut(code) else {
            return refuse(ErrorCode::UnknownRoom, "no such room");
        };
        let [a, b] = match room.members.as_slice() {
            [a, b] => [*a, *b],
            _ => return refuse(ErrorCode::Internal, "a game needs two players"),
        };
        let players = if first_first { [a, b] } else { [b, a] };
        let id = GameId(self.next_game);
        self.next_game += 1;
        room.game = Some(id);
        room.last_players = Some(players);
        room.rematch = [false; 2];
        let (variant, clock, public) = (room.variant, room.clock, room.public);
        let game = AnyGame::new(variant);
        let initial = clock.map_or(0, |c| u64::from(c.initial_ms));
        let created_ms = unix_ms();
        self.ops.push(Op::NewGame {
            id: id.0,
            room: code.to_string(),
            variant,
            start: game.start().to_string(),
            players: [players[0].0, players[1].0],
            public,
            clock,
            created_ms,
        });
        self.games.insert(
            id,
            LiveGame {
                id,
                room: code.to_string(),
                game,
                players,
                public,
                clock,
                remaining_ms: [initial, initial],
                turn_started: self.now,
                spectators: HashSet::new(),
                proposals: HashMap::new(),
                proposals_dirty: false,
                proposals_sent: None,
                history: Vec::new(),
                disconnected: [None, None],
                created_ms,
            },
        );
        self.stats.games_started += 1;
        for p in players {
            self.unwatch(p);
            if let Some(view) = self.view(id, p) {
                self.send_player(p, &ServerMessage::Game(view));
            }
        }
        Ok(())
    }

    fn clocks(&self, g: &LiveGame) -> Option<ClockView> {
        g.clock?;
        let mut remaining = g.remaining_ms;
        let running = (!g.game.is_over()).then(|| g.game.side_to_move());
        if let Some(side) = running {
            let elapsed = self.now.saturating_duration_since(g.turn_started).as_millis() as u64;
            remaining[side_index(side)] = remaining[side_index(side)].saturating_sub(elapsed);
        }
        Some(ClockView {
            remaining_ms: [
                remaining[0].min(u64::from(u32::MAX)) as u32,
                remaining[1].min(u64::from(u32::MAX)) as u32,
            ],
            running,
        })
    }

    fn player_info(&self, pid: PlayerId) -> PlayerInfo {
        match self.players.get(&pid) {
            Some(p) => PlayerInfo { id: pid, nickname: p.nickname.clone(), connected: p.conn.is_some() },
            None => PlayerInfo { id: pid, nickname: String::new(), connected: false },
        }
    }

    fn view(&self, gid: GameId, viewer: PlayerId) -> Option<GameView> {
        let g = self.games.get(&gid)?;
        let role = match g.players.iter().position(|&p| p == viewer) {
            Some(i) => Role::Player(side_of(i)),
            None => Role::Spectator,
        };
        let spectator = role == Role::Spectator;
        Some(GameView {
            game: gid,
            room: g.room.clone(),
            variant: g.game.variant(),
            start: g.game.start().to_string(),
            moves: g.game.move_strings(),
            players: [self.player_info(g.players[0]), self.player_info(g.players[1])],
            role,
            clock: g.clock,
            clocks: self.clocks(g),
            outcome: g.game.outcome(),
            spectators: g.spectators.len() as u32,
            public: g.public,
            proposals: if spectator { tally(&g.proposals) } else { Vec::new() },
            your_proposal: if spectator { g.proposals.get(&viewer).cloned() } else { None },
        })
    }

    /// Players and spectators of a game.
    fn audience(&self, gid: GameId) -> Vec<PlayerId> {
        match self.games.get(&gid) {
            Some(g) => g.players.iter().copied().chain(g.spectators.iter().copied()).collect(),
            None => Vec::new(),
        }
    }

    fn watch(&mut self, pid: PlayerId, gid: GameId) -> Result<(), Refusal> {
        let Some(g) = self.games.get(&gid) else {
            return refuse(ErrorCode::UnknownGame, format!("no live game {}", gid.0));
        };
        let is_player = g.players.contains(&pid);
        if !g.public && !is_player {
            return refuse(ErrorCode::UnknownGame, format!("no live game {}", gid.0));
        }
        if !is_player && self.players.get(&pid).and_then(|p| p.watching) != Some(gid) {
            self.unwatch(pid);
            if let Some(g) = self.games.get_mut(&gid) {
                g.spectators.insert(pid);
            }
            if let Some(p) = self.players.get_mut(&pid) {
                p.watching = Some(gid);
            }
            self.spectators_changed(gid);
        }
        if let Some(view) = self.view(gid, pid) {
            self.send_player(pid, &ServerMessage::Game(view));
        }
        Ok(())
    }

    fn spectators_changed(&mut self, gid: GameId) {
        let Some(g) = self.games.get(&gid) else {
            return;
        };
        let count = g.spectators.len() as u32;
        let audience = self.audience(gid);
        self.send_players(audience, &ServerMessage::Spectators { game: gid, count });
    }

    fn unwatch(&mut self, pid: PlayerId) {
        let Some(gid) = self.players.get_mut(&pid).and_then(|p| p.watching.take()) else {
            return;
        };
        if let Some(g) = self.games.get_mut(&gid) {
            g.spectators.remove(&pid);
            if g.proposals.remove(&pid).is_some() {
                g.proposals_dirty = true;
            }
        }
        self.spectators_changed(gid);
    }

    /// The live game `gid` and the side `pid` plays in it.
    fn seat(&self, pid: PlayerId, gid: GameId) -> Result<Side, Refusal> {
        let Some(g) = self.games.get(&gid) else {
            let finished = self
                .players
                .get(&pid)
                .and_then(|p| p.room.as_ref())
                .and_then(|code| self.rooms.get(code))
                .is_some_and(|r| r.game == Some(gid));
            return if finished {
                refuse(ErrorCode::GameOver, format!("game {} is over", gid.0))
            } else {
                refuse(ErrorCode::UnknownGame, format!("no live game {}", gid.0))
            };
        };
        match g.players.iter().position(|&p| p == pid) {
            Some(i) => Ok(side_of(i)),
            None => refuse(ErrorCode::NotAPlayer, format!("you do not play game {}", gid.0)),
        }
    }

    fn play(&mut self, pid: PlayerId, gid: GameId, ply: u32, text: &str) -> Result<(), Refusal> {
        let side = self.seat(pid, gid)?;
        let now = self.now;
        let Some(g) = self.games.get_mut(&gid) else {
            return refuse(ErrorCode::UnknownGame, "no such game");
        };
        if g.game.is_over() {
            return refuse(ErrorCode::GameOver, "the game is over");
        }
        if g.game.side_to_move() != side {
            return refuse(ErrorCode::NotYourTurn, "it is your opponent's turn");
        }
        let (mv, notation) = move_at(&g.game, ply, text)?;
        // The clock first: a move after the flag fell does not count.
        let i = side_index(side);
        if let Some(spec) = g.clock {
            let elapsed = now.saturating_duration_since(g.turn_started).as_millis() as u64;
            if elapsed >= g.remaining_ms[i] {
                self.finish(gid, Outcome::win(side.opponent(), Reason::Timeout));
                return refuse(ErrorCode::GameOver, "your time ran out");
            }
            g.remaining_ms[i] = g.remaining_ms[i] - elapsed + u64::from(spec.increment_ms);
        }
        g.turn_started = now;
        let outcome = g.game.play(&mv).map_err(|e| (ErrorCode::IllegalMove, e.to_string()))?;
        self.stats.moves += 1;
        let clocks_after = g.clock.map(|_| g.remaining_ms);
        self.ops.push(Op::Move {
            game: gid.0,
            ply,
            mv: notation.clone(),
            at_ms: unix_ms(),
            clocks: clocks_after,
        });
        // The crowd's verdict, then a clean slate for the next ply.
        let proposals = tally(&g.proposals);
        g.proposals.clear();
        g.proposals_dirty = false;
        let crowd = (!proposals.is_empty()).then(|| {
            let backers = proposals.iter().find(|p| p.mv == notation).map_or(0, |p| p.count);
            let top = proposals.first().map_or(0, |p| p.count);
            CrowdVerdict { proposals: proposals.clone(), backers, guessed: backers > 0 && backers == top }
        });
        if !proposals.is_empty() {
            g.history.push(PlyProposals { ply, played: notation.clone(), proposals: proposals.clone() });
            self.ops.push(Op::Proposals { game: gid.0, ply, proposals });
        }
        let players = g.players;
        let spectators: Vec<PlayerId> = g.spectators.iter().copied().collect();
        let clocks = self.games.get(&gid).and_then(|g| self.clocks(g));
        let played = |crowd| ServerMessage::MovePlayed {
            game: gid,
            ply,
            mv: notation.clone(),
            clocks,
            outcome,
            crowd,
        };
        self.send_players(players, &played(None));
        self.send_players(spectators, &played(crowd.clone()));
        if let Some(outcome) = outcome {
            self.finish(gid, outcome);
        }
        Ok(())
    }

    fn propose(&mut self, pid: PlayerId, gid: GameId, ply: u32, text: &str) -> Result<(), Refusal> {
        let Some(g) = self.games.get_mut(&gid) else {
            return refuse(ErrorCode::UnknownGame, format!("no live game {}", gid.0));
        };
        if g.players.contains(&pid) {
            return refuse(ErrorCode::PlayerCannotPropose, "players cannot propose moves in their own game");
        }
        if !g.spectators.contains(&pid) {
            return refuse(ErrorCode::NotWatching, "watch the game to propose moves");
        }
        if g.game.is_over() {
            return refuse(ErrorCode::GameOver, "the game is over");
        }
        let (_, notation) = move_at(&g.game, ply, text)?;
        if g.proposals.get(&pid) != Some(&notation) {
            g.proposals.insert(pid, notation);
            g.proposals_dirty = true;
        }
        Ok(())
    }

    fn resign(&mut self, pid: PlayerId, gid: GameId) -> Result<(), Refusal> {
        let side = self.seat(pid, gid)?;
        if self.games.get(&gid).is_some_and(|g| g.game.is_over()) {
            return refuse(ErrorCode::GameOver, "the game is over");
        }
        self.finish(gid, Outcome::win(side.opponent(), Reason::Resignation));
        Ok(())
    }

    fn rematch(&mut self, pid: PlayerId, gid: GameId) -> Result<(), Refusal> {
        let code = self.players.get(&pid).and_then(|p| p.room.clone());
        let Some(code) = code else {
            return refuse(ErrorCode::NoRematch, "you are not in that game's room any more");
        };
        if self.games.contains_key(&gid) {
            return refuse(ErrorCode::NoRematch, "the game is not over");
        }
        let Some(room) = self.rooms.get_mut(&code) else {
            return refuse(ErrorCode::NoRematch, "the room is closed");
        };
        if room.game != Some(gid) {
            return refuse(ErrorCode::NoRematch, "that is not your last game");
        }
        let Some(last) = room.last_players else {
            return refuse(ErrorCode::NoRematch, "no game to replay");
        };
        if room.members.len() < 2 {
            return refuse(ErrorCode::NoRematch, "your opponent has left");
        }
        let Some(i) = last.iter().position(|&p| p == pid) else {
            return refuse(ErrorCode::NotAPlayer, "you did not play that game");
        };
        room.rematch[i] = true;
        if room.rematch == [true, true] {
            // Colours swap: the last game's Second plays First.
            let first_first = room.members[0] == last[1];
            return self.start_game(&code, first_first);
        }
        self.send_players(last, &ServerMessage::RematchOffered { game: gid, by: side_of(i) });
        Ok(())
    }

    /// Leaves queue, spectating and room; resigns a game in progress.
    fn leave(&mut self, pid: PlayerId) {
        self.unqueue(pid);
        self.unwatch(pid);
        let Some(code) = self.players.get(&pid).and_then(|p| p.room.clone()) else {
            return;
        };
        if let Some(gid) = self.live_game_of_room(&code)
            && let Some(g) = self.games.get(&gid)
            && let Some(i) = g.players.iter().position(|&p| p == pid)
            && !g.game.is_over()
        {
            self.finish(gid, Outcome::win(side_of(i).opponent(), Reason::Resignation));
        }
        self.close_room(&code);
    }

    /// Closes a room that has no game in progress; its other member is told.
    fn close_room(&mut self, code: &str) {
        if self.live_game_of_room(code).is_some() {
            return;
        }
        let Some(room) = self.rooms.remove(code) else {
            return;
        };
        for m in room.members {
            if let Some(p) = self.players.get_mut(&m)
                && p.room.as_deref() == Some(code)
            {
                p.room = None;
            }
            let online = self.players.get(&m).is_some_and(|p| p.conn.is_some());
            if online {
                self.send_player(m, &ServerMessage::Left);
            } else {
                self.forget_if_idle(m);
            }
        }
    }

    /// Ends a live game: archive, tell everyone, free the spectators.
    fn finish(&mut self, gid: GameId, outcome: Outcome) {
        let Some(mut g) = self.games.remove(&gid) else {
            return;
        };
        if g.game.outcome().is_none() {
            let _ = g.game.end(outcome);
        }
        let outcome = g.game.outcome().unwrap_or(outcome);
        let nick = |p: &PlayerId| self.players.get(p).map(|p| p.nickname.clone()).unwrap_or_default();
        let archive = ArchivedGame {
            game: gid,
            record: g.game.record(),
            outcome,
            players: [nick(&g.players[0]), nick(&g.players[1])],
            clock: g.clock,
            proposals: g.history.clone(),
            started_ms: g.created_ms,
            ended_ms: unix_ms(),
        };
        self.ops.push(Op::Finish {
            game: gid.0,
            outcome: outcome.to_string(),
            ended_ms: archive.ended_ms,
            archive: serde_json::to_string(&archive).unwrap_or_default(),
        });
        self.stats.games_finished += 1;
        let audience: Vec<PlayerId> = g.players.iter().copied().chain(g.spectators.iter().copied()).collect();
        self.send_players(audience, &ServerMessage::GameOver { game: gid, outcome, archive });
        for s in &g.spectators {
            if let Some(p) = self.players.get_mut(s)
                && p.watching == Some(gid)
            {
                p.watching = None;
            }
        }
        // Players who are gone leave the room; the room closes if nobody is left to rematch.
        let code = g.room.clone();
        for p in g.players {
            let gone = self.players.get(&p).is_none_or(|p| p.conn.is_none());
            if gone {
                if let Some(room) = self.rooms.get_mut(&code) {
                    room.members.retain(|&m| m != p);
                }
                if let Some(pl) = self.players.get_mut(&p) {
                    pl.room = None;
                }
                self.forget_if_idle(p);
            }
        }
        if self.rooms.get(&code).is_some_and(|r| r.members.len() < 2) {
            self.close_room(&code);
        }
    }

    /// Time-driven events: flags falling, held seats expiring, silent connections, proposal
    /// updates. Call it every few milliseconds.
    pub fn timers(&mut self) {
        let now = self.now;
        let hold = self.limits.seat_hold;
        let mut endings = Vec::new();
        for g in self.games.values() {
            if g.game.is_over() {
                continue;
            }
            let stm = side_index(g.game.side_to_move());
            if g.clock.is_some() {
                let elapsed = now.saturating_duration_since(g.turn_started).as_millis() as u64;
                if elapsed >= g.remaining_ms[stm] {
                    endings.push((g.id, Outcome::win(side_of(stm).opponent(), Reason::Timeout)));
                    continue;
                }
            }
            // The side whose hold ran out first loses.
            let expired = (0..2)
                .filter_map(|i| g.disconnected[i].map(|t| (t, i)))
                .filter(|(t, _)| now.saturating_duration_since(*t) >= hold)
                .min();
            if let Some((_, i)) = expired {
                endings.push((g.id, Outcome::win(side_of(i).opponent(), Reason::Abandoned)));
            }
        }
        for (gid, outcome) in endings {
            self.finish(gid, outcome);
        }
        let interval = self.limits.proposal_interval;
        let due: Vec<GameId> = self
            .games
            .values()
            .filter(|g| {
                g.proposals_dirty
                    && g.proposals_sent.is_none_or(|t| now.saturating_duration_since(t) >= interval)
            })
            .map(|g| g.id)
            .collect();
        for gid in due {
            let Some(g) = self.games.get_mut(&gid) else {
                continue;
            };
            g.proposals_dirty = false;
            g.proposals_sent = Some(now);
            let message = ServerMessage::Proposals {
                game: gid,
                ply: g.game.ply() as u32,
                proposals: tally(&g.proposals),
            };
            let spectators: Vec<PlayerId> = g.spectators.iter().copied().collect();
            self.send_players(spectators, &message);
        }
        let timeout = self.limits.hello_timeout;
        let silent: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| {
                c.player.is_none() && !c.closing && now.saturating_duration_since(c.opened) >= timeout
            })
            .map(|(&id, _)| id)
            .collect();
        for conn in silent {
            self.close(conn);
        }
    }
}
