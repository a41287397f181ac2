//! The server's state and rules of engagement: players, rooms, the quick-match queue, live
//! games, spectators and their proposals. No I/O: everything comes in through one door,
//! [`Core::handle`], as an [`Input`] (connections, message bytes, the time, the answers of
//! lookups and password work, cluster events), and everything it calls for comes out as
//! [`Effect`]s (messages to send, changes to store, lookups to make), which the loop in
//! `lib.rs` carries out in one place.
//!
//! Nothing a client sends can make it panic: every message is decoded with errors, every
//! request is checked (seat, turn, ply, legality with `ludus_rules`), and a refused request
//! changes nothing and gets an [`ServerMessage::Error`].
//!
//! The time ([`Input::Time`]) and the random source (the seed given to [`Core::new`]) are
//! injected, so tests drive the core without sockets, sleeps or chance.
//!
//! - [`mod@self`]: the state, connections, sign-in, sending.
//! - `dispatch`: one message from a connection, decoded, checked and handed on.
//! - `door`: [`Input`], [`Effect`] and [`Core::handle`].
//! - `limits`: [`Limits`], the per-connection message budget, clock and move bounds.
//! - `rooms`: rooms and their codes, rematches, leaving.
//! - `matchmaking`: the quick-match queue.
//! - `game`: the live game: starting, moves, draw offers, the clock (one function), the end.
//! - `spectators`: watching, proposals and their tally.
//! - `chat`: in-game chat: channels, checks, storage and delivery, mutes.
//! - `accounts`: claimed nicknames (passwords hashed off the loop), signing in as a claimed
//!   player, the Glicko-2 update of rated games.
//! - `profiles`: the leaderboard, profiles, recent games and archives.

mod accounts;
mod answers;
mod chat;
mod connections;
mod dispatch;
mod door;
mod game;
mod limits;
mod lobby;
mod matchmaking;
mod nodes;
mod profiles;
mod rated;
pub mod records;
mod rooms;
mod spectators;
#[cfg(test)]
mod tests;

pub use accounts::{
    PasswordAnswer, PasswordJob, hash_password, rating_period, rating_view, run_job, verify_password,
};
pub use door::{Effect, Input};
pub use limits::Limits;
pub use nodes::{Published, SEAT_CHECK_WINDOW};
pub use rated::{RATED_GAMES_PER_PAIR, RATED_MOVES_EACH, RATED_PAIR_WINDOW, address_hash};

use crate::credential::{Grant, credential_hash};
use game::LiveGame;
use limits::Bucket;
use ludus_protocol::{
    ClientMessage, ErrorCode, GameId, Hello, MAX_CLIENT_MESSAGE_BYTES, PROTOCOL_VERSION, PlayerId,
    ServerMessage, SessionToken, decode_client, encode, hello_version, incompatible_message,
};
use ludus_rules::Side;
use matchmaking::QueueKey;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use records::{Loaded, Op, PlayerLookup, StoredPlayer};
use renet2::Bytes;
use rooms::Room;
use std::collections::{HashMap, VecDeque};
use std::time::Instant;

/// A connection: renet2's client id.
pub type ConnId = u64;

/// A refused request: the code and the explanation sent back in [`ServerMessage::Error`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct Refusal {
    /// What kind of refusal.
    pub code: ErrorCode,
    /// For the person reading it.
    pub message: String,
}

impl Refusal {
    /// A refusal of kind `code`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into() }
    }
}

fn refuse<T>(code: ErrorCode, message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal::new(code, message))
}

fn side_of(index: usize) -> Side {
    if index == 0 { Side::First } else { Side::Second }
}

struct Conn {
    player: Option<PlayerId>,
    opened: Instant,
    bucket: Bucket,
    closing: bool,
    /// A `Hello` waiting for its token to be looked up in the database, and the messages that
    /// arrived meanwhile (replayed once it is answered).
    pending: Option<(Hello, Option<String>, Vec<Vec<u8>>)>,
    /// What the connect token says: the credential, and whether it may become a new player.
    grant: Grant,
    /// The address it comes from (IPv4 address, IPv6 /64), for per-address limits.
    origin: Option<std::net::IpAddr>,
    /// A password job of this connection is on the password thread (one at a time).
    password_busy: bool,
    /// The bytes of large answers it may still draw ([`answers`]).
    answers: limits::AnswerBudget,
}

/// Wrong room codes from one address.
struct CodeStrikes {
    count: u32,
    since: Instant,
    until: Option<Instant>,
}

/// Messages kept while a sign-in waits for its lookup (more are refused).
const MAX_PENDING_MESSAGES: usize = 16;

struct Player {
    /// SHA-256 (hex) of the current session credential; the credential itself is never kept.
    hash: String,
    /// The hash of the credential the player signed in with last, still valid until the new
    /// one is used (the `Welcome` carrying the new one may have been lost).
    prev: Option<String>,
    /// When the player last signed in (Unix milliseconds): credentials expire unused.
    last_seen_ms: u64,
    nickname: String,
    /// The nickname's confusable skeleton ([`crate::names::skeleton`]).
    skeleton: String,
    conn: Option<ConnId>,
    /// The room the player sits in (waiting, playing or just finished).
    room: Option<String>,
    queued: Option<QueueKey>,
    /// When the player joined the quick-match queue (rated play widens its rating window with
    /// the wait).
    queued_at: Option<Instant>,
    watching: Option<GameId>,
    /// The game the player watched when it ended (chat in it is then `GameOver`).
    watched_over: Option<GameId>,
    /// The game last sent to the player on their `Watch`, since when and how many times (a view
    /// with its chat history is large: see [`spectators::REWATCHES`]).
    last_watch: Option<(GameId, Instant, u8)>,
    /// The chat budget.
    chat_rate: limits::ChatRate,
}

impl Player {
    fn new(hash: String, prev: Option<String>, last_seen_ms: u64, nickname: String) -> Player {
        let skeleton = crate::names::skeleton(&nickname);
        Player {
            hash,
            prev,
            last_seen_ms,
            nickname,
            skeleton,
            conn: None,
            room: None,
            queued: None,
            queued_at: None,
            watching: None,
            watched_over: None,
            last_watch: None,
            chat_rate: limits::ChatRate::default(),
        }
    }

    fn rename(&mut self, nickname: String) {
        self.skeleton = crate::names::skeleton(&nickname);
        self.nickname = nickname;
    }
}

/// The server's state. See the module documentation.
pub struct Core {
    limits: Limits,
    now: Instant,
    unix_ms: u64,
    rng: StdRng,
    conns: HashMap<ConnId, Conn>,
    players: HashMap<PlayerId, Player>,
    tokens: HashMap<String, PlayerId>,
    rooms: HashMap<String, Room>,
    games: HashMap<GameId, LiveGame>,
    queue: HashMap<QueueKey, VecDeque<PlayerId>>,
    /// The player and game numbers ([`nodes::Ids`]).
    ids: nodes::Ids,
    /// The other nodes, when this is one of several.
    nodes: Option<nodes::Nodes>,
    room_serial: u64,
    /// What the input being handled calls for ([`Core::handle`] returns it).
    effects: Vec<Effect>,
    code_strikes: HashMap<std::net::IpAddr, CodeStrikes>,
    /// Claimed nicknames and the password work's budgets ([`accounts::Accounts`]).
    accounts: accounts::Accounts,
    /// Large answers: the budgets of addresses and the lookups waiting ([`answers::Answers`]).
    answers: answers::Answers,
    /// Rated play: when the games that changed the ratings of each pair ended ([`rated`]).
    rated_pairs: HashMap<[PlayerId; 2], VecDeque<Instant>>,
    /// The key of the hash of claiming addresses ([`Core::set_address_secret`]).
    address_secret: [u8; 32],
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
    /// Refusals by kind (the [`ErrorCode`]'s name), malformed messages included.
    pub refusals: HashMap<&'static str, u64>,
}

/// The name of an error code, for counters.
pub fn code_name(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::Malformed => "malformed",
        ErrorCode::RateLimited => "rate_limited",
        ErrorCode::NotSignedIn => "not_signed_in",
        ErrorCode::AlreadySignedIn => "already_signed_in",
        ErrorCode::SignedInElsewhere => "signed_in_elsewhere",
        ErrorCode::BadNickname => "bad_nickname",
        ErrorCode::BadClock => "bad_clock",
        ErrorCode::Busy => "busy",
        ErrorCode::UnknownRoom => "unknown_room",
        ErrorCode::OwnRoom => "own_room",
        ErrorCode::RoomFull => "room_full",
        ErrorCode::UnknownGame => "unknown_game",
        ErrorCode::NotAPlayer => "not_a_player",
        ErrorCode::NotYourTurn => "not_your_turn",
        ErrorCode::WrongPly => "wrong_ply",
        ErrorCode::IllegalMove => "illegal_move",
        ErrorCode::GameOver => "game_over",
        ErrorCode::NotWatching => "not_watching",
        ErrorCode::PlayerCannotPropose => "player_cannot_propose",
        ErrorCode::NoRematch => "no_rematch",
        ErrorCode::ServerFull => "server_full",
        ErrorCode::Internal => "internal",
        ErrorCode::SessionExpired => "session_expired",
        ErrorCode::TooManyAttempts => "too_many_attempts",
        ErrorCode::NoDrawOffer => "no_draw_offer",
        ErrorCode::DrawAlreadyOffered => "draw_already_offered",
        ErrorCode::ChatTooLong => "chat_too_long",
        ErrorCode::ChatBadText => "chat_bad_text",
        ErrorCode::NotInGame => "not_in_game",
        ErrorCode::ChatFull => "chat_full",
        ErrorCode::CannotMuteSelf => "cannot_mute_self",
        ErrorCode::BadPassword => "bad_password",
        ErrorCode::BadCredentials => "bad_credentials",
        ErrorCode::NotClaimed => "not_claimed",
        ErrorCode::UnknownPlayer => "unknown_player",
    }
}

impl Core {
    /// A new state from what was stored: every live game is back, its players offline with
    /// their seats held for [`Limits::seat_hold`] from now, and its clocks as after the last move.
    /// `seed` seeds the random source (room codes, session tokens, colours, guest names): give
    /// it 32 bytes from the operating system.
    pub fn new(limits: Limits, loaded: Loaded, now: Instant, unix_ms: u64, seed: [u8; 32]) -> Core {
        let mut core = Core {
            limits,
            now,
            unix_ms,
            rng: StdRng::from_seed(seed),
            conns: HashMap::new(),
            players: HashMap::new(),
            tokens: HashMap::new(),
            rooms: HashMap::new(),
            games: HashMap::new(),
            queue: HashMap::new(),
            ids: nodes::Ids::new(&loaded),
            nodes: None,
            room_serial: 0,
            effects: Vec::new(),
            code_strikes: HashMap::new(),
            accounts: accounts::Accounts::default(),
            answers: answers::Answers::default(),
            rated_pairs: HashMap::new(),
            address_secret: [0; 32],
            stats: Stats::default(),
        };
        for p in loaded.players {
            core.remember(p);
        }
        for c in loaded.claims {
            let id = PlayerId(c.id);
            // Claims are loaded by player number: of two look-alikes claimed before their keys
            // were equal, the older player keeps the name.
            core.accounts.claimed.entry(crate::names::skeleton(&c.nickname)).or_insert(id);
            let ratings = c.ratings.into_iter().collect();
            core.accounts.claims.insert(
                id,
                accounts::Claim {
                    nickname: c.nickname,
                    password_hash: c.password_hash,
                    ratings,
                    origin: c.origin,
                },
            );
        }
        for g in loaded.games {
            core.reload_game(g);
        }
        core.reload_rated(loaded.rated_games);
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

    /// Keeps a stored player in memory, found by both of its credential hashes.
    fn remember(&mut self, p: StoredPlayer) {
        let id = PlayerId(p.id);
        self.tokens.insert(p.hash.clone(), id);
        if let Some(prev) = &p.prev {
            self.tokens.insert(prev.clone(), id);
        }
        self.players.insert(id, Player::new(p.hash, p.prev, p.last_seen_ms, p.nickname));
    }

    /// Replaces a known player's credentials with the stored ones (signed in on another node).
    fn refresh(&mut self, p: StoredPlayer) {
        let id = PlayerId(p.id);
        let Some(player) = self.players.get_mut(&id) else {
            return;
        };
        for old in [Some(player.hash.clone()), player.prev.clone()].into_iter().flatten() {
            if self.tokens.get(&old) == Some(&id) {
                self.tokens.remove(&old);
            }
        }
        player.hash = p.hash.clone();
        player.prev = p.prev.clone();
        player.last_seen_ms = p.last_seen_ms;
        self.tokens.insert(p.hash, id);
        if let Some(prev) = p.prev {
            self.tokens.insert(prev, id);
        }
    }

    /// Whether `name` looks like (same confusable skeleton as) the name of another player who is
    /// signed in now, or a nickname someone else claimed.
    fn name_taken(&self, name: &str, me: Option<PlayerId>) -> bool {
        let skeleton = crate::names::skeleton(name);
        self.claimed_by_other(&skeleton, me)
            || self
                .players
                .iter()
                .any(|(id, p)| Some(*id) != me && p.conn.is_some() && p.skeleton == skeleton)
    }

    /// The oldest last sign-in whose credential is still valid (Unix milliseconds).
    fn credential_cutoff(&self) -> u64 {
        self.unix_ms.saturating_sub(self.limits.credential_lifetime.as_millis() as u64)
    }

    /// A random number from the injected source.
    fn random_u64(&mut self) -> u64 {
        self.rng.random()
    }

    /// A new session credential: 128 random bits in hex.
    fn new_token(&mut self) -> String {
        let bytes: [u8; 16] = self.rng.random();
        let credential: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        self.effects.push(Effect::Issued(credential_hash(&credential)));
        credential
    }

    // Sending.

    fn send_conn(&mut self, conn: ConnId, message: &ServerMessage) {
        if let Ok(bytes) = encode(message) {
            self.effects.push(Effect::Send(conn, Bytes::from(bytes)));
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
                self.effects.push(Effect::Send(conn, bytes.clone()));
            }
        }
    }

    fn error(&mut self, conn: ConnId, refusal: Refusal) {
        self.stats.refused += 1;
        *self.stats.refusals.entry(code_name(refusal.code)).or_default() += 1;
        self.send_conn(conn, &ServerMessage::Error { code: refusal.code, message: refusal.message });
    }

    fn close(&mut self, conn: ConnId) {
        if let Some(c) = self.conns.get_mut(&conn)
            && !c.closing
        {
            c.closing = true;
            self.effects.push(Effect::Close(conn));
        }
    }

    /// Tells every connection that the server is going away (it restarts: they reconnect by
    /// themselves) and closes them.
    fn shutting_down(&mut self) {
        let mut conns: Vec<ConnId> = self.conns.keys().copied().collect();
        conns.sort_unstable();
        for conn in conns {
            self.send_conn(conn, &ServerMessage::Restarting);
            self.close(conn);
        }
    }

    /// Joins a room by code, counting wrong codes per address: beyond
    /// [`Limits::code_guesses`] in [`Limits::code_window`], every code is refused for
    /// [`Limits::code_cooldown`] (guessing private codes is cut off).
    fn join_by_code(&mut self, conn: ConnId, pid: PlayerId, code: &str) -> Result<(), Refusal> {
        let origin = self.conns.get(&conn).and_then(|c| c.origin);
        let now = self.now;
        if let Some(s) = origin.and_then(|o| self.code_strikes.get(&o))
            && s.until.is_some_and(|until| now < until)
        {
            return refuse(
                ErrorCode::TooManyAttempts,
                "too many wrong room codes: try again in a few minutes",
            );
        }
        let result = self.join_room(pid, code);
        if let (Err(refusal), Some(origin)) = (&result, origin)
            && refusal.code == ErrorCode::UnknownRoom
        {
            let limits = (self.limits.code_guesses, self.limits.code_window, self.limits.code_cooldown);
            let strikes =
                self.code_strikes.entry(origin).or_insert(CodeStrikes { count: 0, since: now, until: None });
            if now.saturating_duration_since(strikes.since) > limits.1
                || strikes.until.is_some_and(|u| now >= u)
            {
                *strikes = CodeStrikes { count: 0, since: now, until: None };
            }
            strikes.count += 1;
            if strikes.count >= limits.0 {
                strikes.until = Some(now + limits.2);
            }
        }
        result
    }

    /// Time-driven events: flags falling, held seats expiring, silent connections, proposal
    /// updates. Call it every few milliseconds.
    fn timers(&mut self) {
        if self.code_strikes.len() > 10_000 {
            let (now, window) = (self.now, self.limits.code_window.max(self.limits.code_cooldown));
            self.code_strikes.retain(|_, s| now.saturating_duration_since(s.since) <= window);
        }
        if self.accounts.claims_made.len() > 10_000 {
            let (now, window) = (self.now, self.limits.claim_window);
            self.accounts
                .claims_made
                .retain(|_, v| v.back().is_some_and(|&t| now.saturating_duration_since(t) < window));
        }
        if self.accounts.password_spend.len() > 10_000 {
            let now = self.now;
            self.accounts.password_spend.retain(|_, v| {
                v.back().is_some_and(|&t| now.saturating_duration_since(t) < accounts::PASSWORD_WINDOW)
            });
        }
        if self.accounts.login_strikes.len() + self.accounts.claim_strikes.len() > 10_000 {
            let now = self.now;
            let stale = |s: &CodeStrikes| {
                now.saturating_duration_since(s.since) > std::time::Duration::from_secs(900)
                    && s.until.is_none_or(|u| now >= u)
            };
            self.accounts.login_strikes.retain(|_, s| !stale(s));
            self.accounts.claim_strikes.retain(|_, s| !stale(s));
        }
        self.prune_answer_budgets();
        self.game_timers();
        self.rated_match_timers();
        self.proposal_timers();
        let now = self.now;
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
