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
//! Each concern is one file: the types of its state and the handlers of its messages and timers
//! together. [`Core`] holds every concern's state, and each field names its file.
//!
//! - [`mod@self`]: [`Core`] and its construction, [`Refusal`], the counters, sending, the timers.
//! - `door`: [`Input`], [`Effect`] and [`Core::handle`].
//! - `dispatch`: one message from a connection, decoded, checked against the connection's budget
//!   and handed to the concern that answers it.
//! - `limits`: [`Limits`], the per-connection message budget, the chat and answer budgets, the
//!   strikes of an address, the checks of clocks and moves.
//! - `records`: what the core stores, loads and looks up, and what the cluster tells it (the
//!   vocabulary the store and the cluster thread speak).
//! - `connections`: connections and the players in memory: `Hello`, sign-in (with the
//!   database's lookup), taking over an older connection, nickname changes.
//! - `passwords`: the password work the core asks of the password thread (Argon2id).
//! - `accounts`: claimed nicknames, signing in as a claimed player, the Glicko-2 update of rated
//!   games.
//! - `rated`: the rules against rating farming (moves and time, the opponent's history, games
//!   per pair, claims from one address).
//! - `rooms`: rooms and their codes (wrong-code strikes), rematches, leaving.
//! - `matchmaking`: the quick-match queues and rated pairing.
//! - `game`: the live game: starting, moves, draw offers, the clock (one function), held seats,
//!   the end, a stored game back in memory.
//! - `spectators`: watching, proposals and their tally.
//! - `chat`: in-game chat: channels, checks, storage and delivery, mutes.
//! - `turns`: turn-based games: many per player, kept while their players are away, lost on
//!   time by the server's clock; the index of each player's games.
//! - `challenges`: challenges to turn-based games (by nickname or open, by code), their expiry
//!   and limits, and the player's list of games and challenges.
//! - `daily`: the daily cap on games started per account and per address.
//! - `lobby`: the lobby as a player sees it.
//! - `leaderboard`: the leaderboard of each variant, kept sorted as ratings change.
//! - `profiles`: the leaderboard, profiles, recent games and archives.
//! - `answers`: the byte budget of large answers (profiles, archives).
//! - `nodes`: several nodes as the core sees them: published lobbies, redirects, adoption, id
//!   blocks.
//! - `tournaments`: arenas, Swiss events and round robins: creation (by players and the
//!   schedule), joining, pairing through `ludus_tournament`, their games, storage and reload.
//! - `tests` (tests only): the core driven through its door, one file a subject.
//!
//! Files import one another in one direction only (checked by the server's layout test): this
//! file holds [`Core`] and so names them all; `door` and `records`, `limits` and `passwords` are
//! below the concerns; `game` is below `chat`, `lobby`, `rated` and `turns`, and above `rooms`
//! and `spectators`; `turns` is below `challenges`.

mod accounts;
mod answers;
mod challenges;
mod chat;
mod connections;
mod daily;
mod dispatch;
mod door;
mod game;
mod leaderboard;
mod limits;
mod lobby;
mod matchmaking;
mod nodes;
mod passwords;
mod profiles;
mod rated;
pub mod records;
mod rooms;
mod spectators;
#[cfg(test)]
mod tests;
mod tournaments;
mod turns;

pub use accounts::{rating_period, rating_view};
pub use connections::PREVIOUS_CREDENTIAL_GRACE;
pub use daily::GAMES_DAY;
pub use door::{Effect, Input};
pub use limits::{Limits, SPECTATOR_COUNT_INTERVAL};
pub use nodes::{Published, SEAT_CHECK_WINDOW};
pub use passwords::{PasswordAnswer, PasswordJob, hash_password, run_job, verify_password};
pub use rated::{RATED_GAMES_PER_PAIR, RATED_MOVES_EACH, RATED_PAIR_WINDOW, address_hash};
pub use tournaments::{ScheduleEntry, parse_schedule};

use connections::{Conn, Player};
use game::LiveGame;
use limits::CodeStrikes;
use ludus_protocol::{ErrorCode, GameId, PlayerId, ServerMessage, encode};
use ludus_rules::Side;
use matchmaking::QueueKey;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use records::Loaded;
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

/// The server's state. See the module documentation.
pub struct Core {
    limits: Limits,
    now: Instant,
    unix_ms: u64,
    rng: StdRng,
    /// What the input being handled calls for ([`Core::handle`] returns it; `door`).
    effects: Vec<Effect>,
    /// Open connections (`connections`).
    conns: HashMap<ConnId, Conn>,
    /// Players in memory (`connections`).
    players: HashMap<PlayerId, Player>,
    /// The players in memory by the hashes of their credentials (`connections`).
    tokens: HashMap<String, PlayerId>,
    /// Open rooms by code (`rooms`).
    rooms: HashMap<String, Room>,
    /// The serial number of the last room opened, to sort the lobby (`rooms`).
    room_serial: u64,
    /// Wrong room codes by address (`rooms`).
    code_strikes: HashMap<std::net::IpAddr, CodeStrikes>,
    /// The quick-match queues (`matchmaking`).
    queue: HashMap<QueueKey, VecDeque<PlayerId>>,
    /// Live games (`game`; their spectators and chat live in them), turn-based ones too.
    games: HashMap<GameId, LiveGame>,
    /// Each player's turn-based games in progress (`turns`).
    turns: turns::Turns,
    /// Pending challenges and the challengers' budgets (`challenges`).
    challenges: challenges::Challenges,
    /// Claimed nicknames and the password work's budgets (`accounts`).
    accounts: accounts::Accounts,
    /// Games started today per account and per address (`daily`).
    daily: daily::DailyGames,
    /// The leaderboards, kept sorted (`leaderboard`; changed by `accounts` and `nodes`).
    board: leaderboard::Board,
    /// Rated play: when the games that changed the ratings of each pair ended (`rated`).
    rated_pairs: HashMap<[PlayerId; 2], VecDeque<Instant>>,
    /// The key of the hash of claiming addresses ([`Core::set_address_secret`]; `rated`).
    address_secret: [u8; 32],
    /// Large answers: the budgets of addresses and the lookups waiting (`answers`).
    answers: answers::Answers,
    /// The player and game numbers (`nodes`).
    ids: nodes::Ids,
    /// The other nodes, when this is one of several (`nodes`).
    nodes: Option<nodes::Nodes>,
    /// Tournaments (`tournaments`).
    tournaments: tournaments::Tournaments,
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
    /// Superseded session credentials used again (refused).
    pub credential_replays: u64,
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
        ErrorCode::TooManyGames => "too_many_games",
        ErrorCode::TooManyChallenges => "too_many_challenges",
        ErrorCode::UnknownChallenge => "unknown_challenge",
        ErrorCode::OwnChallenge => "own_challenge",
        ErrorCode::UnknownTournament => "unknown_tournament",
        ErrorCode::AlreadyJoined => "already_joined",
        ErrorCode::TournamentFull => "tournament_full",
        ErrorCode::TournamentClosed => "tournament_closed",
        ErrorCode::TooManyTournaments => "too_many_tournaments",
        ErrorCode::NotInTournament => "not_in_tournament",
        ErrorCode::BadTournament => "bad_tournament",
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
            turns: turns::Turns::default(),
            challenges: challenges::Challenges::default(),
            queue: HashMap::new(),
            ids: nodes::Ids::new(&loaded),
            nodes: None,
            tournaments: tournaments::Tournaments::default(),
            room_serial: 0,
            effects: Vec::new(),
            code_strikes: HashMap::new(),
            accounts: accounts::Accounts::default(),
            board: leaderboard::Board::default(),
            daily: daily::DailyGames::default(),
            answers: answers::Answers::default(),
            rated_pairs: HashMap::new(),
            address_secret: [0; 32],
            stats: Stats::default(),
        };
        for p in loaded.players {
            core.remember(p);
        }
        for c in loaded.claims {
            core.remember_claim(c);
        }
        for g in loaded.games {
            core.reload_game(g);
        }
        core.reload_rated(loaded.rated_games);
        core.reload_opponents(loaded.rated_opponents);
        core.reload_daily_games(loaded.games_today);
        for c in loaded.challenges {
            core.reload_challenge(c);
        }
        core.reload_tournaments(loaded.tournaments, loaded.next_tournament);
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

    /// A random number from the injected source.
    fn random_u64(&mut self) -> u64 {
        self.rng.random()
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

    /// Time-driven events: flags falling, held seats expiring, silent connections, proposal
    /// updates, spectator counts held back. Call it every few milliseconds.
    fn timers(&mut self) {
        self.prune_code_strikes();
        self.prune_account_budgets();
        self.prune_answer_budgets();
        self.game_timers();
        self.challenge_timers();
        self.tournament_timers();
        self.rated_match_timers();
        self.proposal_timers();
        self.spectator_count_timers();
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
