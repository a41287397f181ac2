//! The core's records: what it stores ([`Op`]), what it gets back after a restart
//! ([`Loaded`]) and from lookups ([`PlayerFound`], [`GamesFound`], [`ArchiveFound`]), what it asks
//! to be read ([`PlayerLookup`], [`GamesLookup`], [`ArchiveLookup`]), and what the cluster of nodes
//! tells it ([`ClusterEvent`]). The store and the cluster thread speak this vocabulary; the core
//! never imports either of them.

use ludus_protocol::{ArchivedGame, ChatLine, ClockSpec, PlyProposals, Proposal, RecentGame};
use ludus_rules::Variant;

/// One change to store.
#[derive(Clone, Debug)]
pub enum Op {
    /// A new player, with the hash of its session credential.
    NewPlayer { id: u64, hash: String, nickname: String, created_ms: u64 },
    /// A player signed in: its new credential's hash, the one it used, and when.
    Credential { id: u64, hash: String, prev: Option<String>, last_seen_ms: u64 },
    /// A player's new nickname.
    Nickname { id: u64, nickname: String },
    /// A game starts.
    NewGame {
        id: u64,
        room: String,
        variant: Variant,
        start: String,
        players: [u64; 2],
        public: bool,
        clock: Option<ClockSpec>,
        created_ms: u64,
        /// A rated game (protocol 5).
        rated: bool,
    },
    /// A move was accepted; `clocks` are the remaining times after it.
    Move { game: u64, ply: u32, mv: String, at_ms: u64, clocks: Option<[u64; 2]> },
    /// The spectators' proposals for a ply that was just played.
    Proposals { game: u64, ply: u32, proposals: Vec<Proposal> },
    /// A chat line accepted in a live game: the `seq`-th of the game (from 0).
    Chat { game: u64, seq: u32, line: ChatLine },
    /// The game is over: its archive (an `ArchivedGame` in JSON).
    Finish { game: u64, outcome: String, ended_ms: u64, archive: String },
    /// A player claimed their nickname: its look-alike skeleton and the password's Argon2id
    /// hash (a PHC string; never the password).
    Claim { id: u64, skeleton: String, password_hash: String },
    /// A player's rating for a variant after a rated game (pushed in the same batch as the
    /// game's [`Op::Finish`]: one transaction).
    Rating { player: u64, variant: Variant, rating: StoredRating },
    /// Where a claim came from (pushed after its [`Op::Claim`]): the keyed hash of the
    /// claiming address (never the address) and when.
    ClaimOrigin { id: u64, address: String, claimed_ms: u64 },
    /// A game that started rated ended too soon to change a rating: stored as unrated.
    Unrated { game: u64 },
    /// `player` met `opponent` in a game that changed their ratings (kept for a few opponents
    /// each: see [`crate::core::Limits::rated_opponents_full`]).
    RatedOpponent { player: u64, opponent: u64 },
    /// A player's turn-based rating for a variant after a rated turn-based game (a pool of its
    /// own, apart from [`Op::Rating`]; pushed in the same batch as the game's [`Op::Finish`]).
    TurnRating { player: u64, variant: Variant, rating: StoredRating },
    /// A turn-based game's move limit (days) and the deadline of the side to move (Unix
    /// milliseconds): pushed with its [`Op::NewGame`] and with each [`Op::Move`] (one batch).
    TurnDeadline { game: u64, days: u8, deadline_ms: u64 },
    /// A challenge to a turn-based game is made.
    NewChallenge(StoredChallenge),
    /// A challenge is accepted, declined, withdrawn or expired: it is deleted.
    EndChallenge { code: String },
    /// A tournament's whole state (JSON), after any change: inserted or replaced.
    Tournament { id: u64, finished: bool, created_ms: u64, state: String },
    /// A tournament's `seq`-th result (JSON, from 0), pushed with its [`Op::Tournament`].
    TournamentResult { tournament: u64, seq: u32, result: String },
}

/// A tournament as stored: its state and its results in order (JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTournament {
    pub id: u64,
    pub state: String,
    pub results: Vec<String>,
}

/// A pending challenge to a turn-based game, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredChallenge {
    /// Its code (unguessable).
    pub code: String,
    /// The challenger.
    pub from: u64,
    /// The player challenged (`None`: an open challenge).
    pub to: Option<u64>,
    pub variant: Variant,
    /// The challenger's side: 0 First, 1 Second, `None` drawn when accepted.
    pub side: Option<u8>,
    /// The move limit, in days.
    pub days: u8,
    /// An open challenge listed in the lobby.
    pub listed: bool,
    /// A rated game (both players claimed): the turn-based ratings change.
    pub rated: bool,
    pub created_ms: u64,
    pub expires_ms: u64,
}

/// Where and when a nickname was claimed: a keyed hash of the claiming address's key
/// (`core::address_hash`) and the time, Unix milliseconds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimOrigin {
    pub address: String,
    pub claimed_ms: u64,
}

/// A player's Glicko-2 rating for one variant, with their record in rated games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoredRating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Default for StoredRating {
    /// The rating of a player who has not played a rated game yet (skillratings' defaults:
    /// 1500, deviation 350, volatility 0.06).
    fn default() -> StoredRating {
        let r = skillratings::glicko2::Glicko2Rating::new();
        StoredRating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
        }
    }
}

/// A claimed nickname as stored: the player, the nickname, the password's PHC string, and
/// the player's ratings by variant.
#[derive(Clone, Debug)]
pub struct StoredClaim {
    pub id: u64,
    pub nickname: String,
    pub password_hash: String,
    pub ratings: Vec<(Variant, StoredRating)>,
    /// The player's turn-based ratings by variant (a pool of their own).
    pub turn_ratings: Vec<(Variant, StoredRating)>,
    /// Where and when it was claimed (claims stored before that was recorded: `None`).
    pub origin: Option<ClaimOrigin>,
}

/// A live game as stored.
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub id: u64,
    pub room: String,
    pub variant: Variant,
    pub start: String,
    pub players: [u64; 2],
    pub public: bool,
    pub clock: Option<ClockSpec>,
    pub created_ms: u64,
    /// A rated game.
    pub rated: bool,
    /// Every move in order.
    pub moves: Vec<String>,
    /// Remaining times after the last move (or `None`: the initial ones).
    pub clocks: Option<[u64; 2]>,
    pub proposals: Vec<PlyProposals>,
    /// The chat lines so far, in order.
    pub chat: Vec<ChatLine>,
    /// How many chat lines are stored, readable or not: the number of the next one (an
    /// unreadable stored line is skipped, its number is not reused).
    pub chat_stored: u32,
    /// A turn-based game: its move limit in days and the deadline of the side to move (Unix
    /// milliseconds).
    pub turn: Option<(u8, u64)>,
}

/// A player as stored.
#[derive(Clone, Debug)]
pub struct StoredPlayer {
    pub id: u64,
    /// SHA-256 (hex) of the current session credential.
    pub hash: String,
    /// The hash of the credential used at the last sign-in (valid until the new one is used).
    pub prev: Option<String>,
    /// The last sign-in, Unix milliseconds.
    pub last_seen_ms: u64,
    pub nickname: String,
}

/// What the server needs after a restart.
#[derive(Debug)]
pub struct Loaded {
    pub games: Vec<StoredGame>,
    pub players: Vec<StoredPlayer>,
    /// Every claimed nickname (kept in memory: they are checked at every name change).
    pub claims: Vec<StoredClaim>,
    pub next_player: u64,
    pub next_game: u64,
    /// The first player and game numbers past this node's block (`u64::MAX` with SQLite: one
    /// node); several nodes on PostgreSQL each get their own blocks.
    pub player_end: u64,
    pub game_end: u64,
    /// The rated games that ended within the last day: players, when it ended (Unix ms).
    pub rated_games: Vec<([u64; 2], u64)>,
    /// The pending challenges (their challengers are among `players`).
    pub challenges: Vec<StoredChallenge>,
    /// The tournaments not finished, and the last finished ones.
    pub tournaments: Vec<StoredTournament>,
    /// The next tournament number.
    pub next_tournament: u64,
    /// Whom claimed players met in games that changed ratings: (player, opponent).
    pub rated_opponents: Vec<(u64, u64)>,
    /// The players of the games started within the last day (for the daily cap).
    pub games_today: Vec<[u64; 2]>,
}

impl Default for Loaded {
    fn default() -> Loaded {
        Loaded {
            games: Vec::new(),
            players: Vec::new(),
            claims: Vec::new(),
            next_player: 1,
            next_game: 1,
            player_end: u64::MAX,
            game_end: u64::MAX,
            rated_games: Vec::new(),
            challenges: Vec::new(),
            tournaments: Vec::new(),
            next_tournament: 1,
            rated_opponents: Vec::new(),
            games_today: Vec::new(),
        }
    }
}

/// Player and game numbers each node takes from the database at a time.
pub const ID_BLOCK: u64 = 1_000_000;

/// A finished game as stored, with what decides who may read it.
#[derive(Clone, Debug)]
pub struct StoredArchive {
    /// Listed in the lobby when it was played (else only its players may read it).
    pub public: bool,
    /// `[First, Second]`.
    pub players: [u64; 2],
    /// The archive.
    pub archive: ArchivedGame,
}

/// Look a player up by session credential hash (current or previous), valid if last seen at
/// `cutoff_ms` or later (Unix milliseconds), for a connection signing in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerLookup {
    pub conn: u64,
    pub hash: String,
    pub cutoff_ms: u64,
}

/// The answer to a [`PlayerLookup`]: the stored player (if any is still valid) and, with several
/// nodes, the player's claim as stored now (another node may have changed it).
#[derive(Clone, Debug)]
pub struct PlayerFound {
    pub conn: u64,
    pub hash: String,
    pub player: Option<StoredPlayer>,
    pub claim: Option<StoredClaim>,
}

/// Read a player's last finished games, newest first, for a profile of `nickname` opened by
/// connection `conn`; private games count when the profile's own player asks (`private`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamesLookup {
    pub conn: u64,
    pub player: u64,
    pub nickname: String,
    pub private: bool,
}

/// The answer to a [`GamesLookup`] (a failed read answers no games).
#[derive(Clone, Debug)]
pub struct GamesFound {
    pub conn: u64,
    pub player: u64,
    pub nickname: String,
    pub games: Vec<RecentGame>,
}

/// Read a finished game's archive for connection `conn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArchiveLookup {
    pub conn: u64,
    pub game: u64,
}

/// The answer to an [`ArchiveLookup`]: the game if it is stored, finished and readable.
#[derive(Clone, Debug)]
pub struct ArchiveFound {
    pub conn: u64,
    pub game: u64,
    pub found: Option<StoredArchive>,
}

/// A node's public addresses, as clients reach it (a redirect carries them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeAddrs {
    /// `host:port` of its UDP socket.
    pub udp: Option<String>,
    /// `ws://host:port` (or `wss://…`) of its WebSocket port.
    pub ws: Option<String>,
    /// `http://host:port` (or `https://…`) of its HTTP side (connect tokens).
    pub http: Option<String>,
}

/// Another live node.
#[derive(Clone, Debug)]
pub struct RemoteNode {
    pub name: String,
    pub addrs: NodeAddrs,
    /// Its published lobby (JSON of [`super::Published`]), if any yet.
    pub lobby: Option<String>,
}

/// Which block of numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdKind {
    Player,
    Game,
}

/// A checked player's live game on another live node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub player: u64,
    pub game: u64,
    /// The node that owns the game.
    pub node: String,
}

/// What the cluster of nodes on one database tells the core.
#[derive(Debug)]
pub enum ClusterEvent {
    /// The other live nodes and their lobbies.
    Nodes(Vec<RemoteNode>),
    /// Live games this node took over, with their players and their claims.
    Adopted { games: Vec<StoredGame>, players: Vec<StoredPlayer>, claims: Vec<StoredClaim> },
    /// The checked players whose live game is on another live node.
    Seats(Vec<Seat>),
    /// A new block of numbers: first, end.
    Ids { kind: IdKind, first: u64, end: u64 },
    /// The other live node that owns the public live game `game` that `player` asked to watch
    /// (`None`: no live node does).
    GameOwner { player: u64, game: u64, node: Option<String> },
}
