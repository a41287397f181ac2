//! Persistence: players, games, moves, proposals, chat lines, archives, in SQLite (the default: WAL,
//! `synchronous=FULL`, one file in the data directory) or PostgreSQL (`--database URL`), behind
//! one [`Backend`] trait with the same schema and migrations ([`MIGRATIONS`]).
//!
//! Writes go through one writer thread in batches: the server loop hands over everything a tick
//! changed ([`Store::submit`]), the writer commits it in one transaction (merging batches that
//! queued up meanwhile: group commit), and publishes the number of the last committed batch
//! ([`Store::committed`]). The server sends the messages produced by a tick only once its batch,
//! and every batch before it, is committed: a move is on disk before anyone sees it, without
//! the network loop ever waiting for the disk.

use ludus_protocol::{
    ArchivedGame, ChatChannel, ChatLine, ChatText, ClockSpec, GameId, GameResult, PlayerId, PlyProposals,
    Proposal, RecentGame,
};
use ludus_rules::Variant;
use std::path::{Path, PathBuf};

pub mod cluster;
#[cfg(feature = "postgres")]
mod pg;

/// What a node's cluster thread connects with: PostgreSQL's configuration and the node's
/// fence (none in a build without PostgreSQL).
#[cfg(feature = "postgres")]
type ClusterLink = (::postgres::Config, pg::Fence);
#[cfg(not(feature = "postgres"))]
type ClusterLink = std::convert::Infallible;

/// A database opened: the writer's, the reader's and the upkeep's (SQLite) connections, and
/// the cluster thread's link (PostgreSQL).
type Opened = (Box<dyn Backend>, Box<dyn Backend>, Option<Box<dyn Backend>>, Option<ClusterLink>);

/// Opens a PostgreSQL database as one node (`node`, or a node named "ludus").
#[cfg(feature = "postgres")]
fn open_postgres(
    url: &str,
    cutoff: u64,
    node: Option<&NodeConfig>,
    described: &str,
) -> Result<Opened, StoreError> {
    let what = || described.to_string();
    let config = pg::config(url).map_err(|source| StoreError::Url { what: what(), source })?;
    let default = NodeConfig { name: "ludus".into(), lease: Duration::from_secs(10) };
    let node = node.unwrap_or(&default);
    let [w, r] = pg::open(&config, cutoff, &node.name, node.lease)
        .map_err(|source| StoreError::Database { what: what(), source })?;
    let link = (config, w.fence.clone());
    Ok((Box::new(w), Box::new(r), None, Some(link)))
}

/// A build without the `postgres` feature opens no PostgreSQL database.
#[cfg(not(feature = "postgres"))]
fn open_postgres(
    _url: &str,
    _cutoff: u64,
    _node: Option<&NodeConfig>,
    described: &str,
) -> Result<Opened, StoreError> {
    Err(StoreError::NoPostgres { what: described.to_string() })
}
mod sqlite;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// An error of either backend.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// SQLite.
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL.
    #[cfg(feature = "postgres")]
    #[error(transparent)]
    Postgres(#[from] ::postgres::Error),
    /// Anything else (a second node on one PostgreSQL database).
    #[error(transparent)]
    Other(Box<dyn std::error::Error + Send + Sync>),
    /// This node's lease is gone: another node took its games over (or another process started
    /// under its name). Nothing more may be written for it.
    #[error("this node's lease on its games is lost: another node owns them now")]
    LeaseLost,
}

/// Why the database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The data directory could not be created.
    #[error("cannot create data directory {path}: {source}")]
    Directory { path: PathBuf, source: std::io::Error },
    /// The database refused to open, create or read (or is unreachable).
    #[error("database {what}: {source}")]
    Database { what: String, source: DbError },
    /// The database address is not a PostgreSQL URL.
    #[cfg(feature = "postgres")]
    #[error("database {what}: not a PostgreSQL URL (postgres://user@host/db): {source}")]
    Url { what: String, source: ::postgres::Error },
    /// A PostgreSQL database was asked of a build without the `postgres` feature.
    #[cfg(not(feature = "postgres"))]
    #[error("database {what}: this build has no PostgreSQL (the feature \"postgres\")")]
    NoPostgres { what: String },
    /// A database thread could not start.
    #[error("cannot start the database {what} thread: {source}")]
    Thread { what: &'static str, source: std::io::Error },
}

/// Where the data lives: SQLite in a directory (the default) or a PostgreSQL database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// `DIR/ludus.sqlite3`.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://user[:password]@host[:port]/db`).
    Postgres(String),
}

impl Database {
    /// How the database is named in messages: the file, or the URL without its password.
    pub fn describe(&self) -> String {
        match self {
            Database::Sqlite(dir) => dir.join("ludus.sqlite3").display().to_string(),
            Database::Postgres(url) => redact(url),
        }
    }
}

/// A URL with the password (between `user:` and `@`) replaced by `***`.
fn redact(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return url.to_string();
    };
    let rest = &url[scheme_end..];
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => match rest[..at].find(':') {
            Some(colon) => format!("{}{}:***{}", &url[..scheme_end], &rest[..colon], &rest[at..]),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

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
    /// Where and when it was claimed (claims stored before that was recorded: `None`).
    pub origin: Option<ClaimOrigin>,
}

/// A stored rating row: player, variant name, rating, deviation, volatility, games, wins,
/// draws, losses.
pub(crate) type RatingRow = (i64, String, f64, f64, f64, i64, i64, i64, i64);

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
        }
    }
}

/// How a node of several on one PostgreSQL database is known.
#[derive(Clone, Debug)]
pub struct NodeConfig {
    /// Its unique name (the same name after a restart takes its games back at once).
    pub name: String,
    /// How long its lease on its games lasts without renewal: after that, another node takes
    /// them over.
    pub lease: Duration,
}

/// Player and game numbers each node takes from the database at a time.
pub const ID_BLOCK: u64 = 1_000_000;

/// Commit timings, for the operator.
#[derive(Debug, Default)]
pub struct CommitStats {
    /// Transactions committed.
    pub commits: AtomicU64,
    /// Batches (server ticks) in them.
    pub batches: AtomicU64,
    /// Total time spent committing, in microseconds.
    pub total_us: AtomicU64,
    /// Longest commit, in microseconds.
    pub max_us: AtomicU64,
}

/// A player lookup by credential hash: (connection, hash, oldest valid last sign-in) in,
/// (connection, hash, the player if stored and not expired, their claim if claimed) out.
type LookupRequest = (u64, String, u64);
type LookupAnswer = (u64, String, Option<StoredPlayer>, Option<StoredClaim>);

/// A profile's recent games: (connection, player, nickname, whether private games count: the
/// profile's own player asks) in; (connection, player, nickname) with the player's last finished
/// games (newest first) out.
pub type GamesRequest = (u64, u64, String, bool);
/// See [`GamesRequest`].
pub type GamesAnswer = (u64, u64, String, Vec<RecentGame>);

/// A finished game's archive: (connection, game) in; (connection, game, the game if it is
/// stored, finished and readable) out.
pub type ArchiveRequest = (u64, u64);
/// See [`ArchiveRequest`].
pub type ArchiveAnswer = (u64, u64, Option<StoredArchive>);

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

/// What the reader thread is asked.
enum ReadRequest {
    Player(LookupRequest),
    Games(GamesRequest),
    Archive(ArchiveRequest),
}

/// A claim's row: player, nickname, password hash, claiming address hash, claim time (the
/// columns of [`sql::CLAIMS`]).
pub(crate) type ClaimRow = (i64, String, String, Option<String>, Option<i64>);
/// [`ClaimRow`] without the player.
pub(crate) type PlayerClaimRow = (String, String, Option<String>, Option<i64>);

/// A claim's origin from its stored columns.
fn claim_origin(address: Option<String>, claimed_ms: Option<i64>) -> Option<ClaimOrigin> {
    Some(ClaimOrigin { address: address?, claimed_ms: claimed_ms?.max(0) as u64 })
}

/// A finished game's row: public, first player, second player, archive (the columns of
/// [`sql::ARCHIVE`]).
pub(crate) type ArchiveRow = (i64, i64, i64, Option<String>);

/// A finished game row: id, variant, first player, ended, rated, archive (the columns of
/// [`sql::RECENT_GAMES`]).
pub(crate) type RecentRow = (i64, String, i64, Option<i64>, i64, Option<String>);

/// One connection to a database, whichever it is: the writer, the reader and (SQLite) the
/// checkpointer each own one. Everything above this trait is the same for both backends.
pub(crate) trait Backend: Send + 'static {
    /// Stores these batches in one transaction.
    fn commit(&mut self, batches: &[(u64, Vec<Op>)]) -> Result<(), DbError>;
    /// The player with credential hash `hash` (current or previous) last seen at `cutoff_ms` or
    /// later.
    fn find_player(&mut self, hash: &str, cutoff_ms: u64) -> Result<Option<StoredPlayer>, DbError>;
    /// The next free player and game numbers.
    fn next_ids(&mut self) -> Result<(u64, u64), DbError>;
    /// The ends of this node's blocks of player and game numbers (one node: none).
    fn id_ends(&self) -> (u64, u64) {
        (u64::MAX, u64::MAX)
    }
    /// The live games without their moves and proposals, with their variant's name.
    fn live_games(&mut self) -> Result<Vec<(StoredGame, String)>, DbError>;
    /// A game's moves in order, with the clocks after each.
    fn moves(&mut self, game: u64) -> Result<Vec<(String, Option<i64>, Option<i64>)>, DbError>;
    /// A game's proposals: (ply, move, count), by ply.
    fn proposals(&mut self, game: u64) -> Result<Vec<(u32, String, u32)>, DbError>;
    /// A game's chat lines in order (the columns of [`sql::CHAT_LINES`]).
    fn chat(&mut self, game: u64) -> Result<Vec<ChatRow>, DbError>;
    /// A player by number.
    fn player(&mut self, id: u64) -> Result<Option<StoredPlayer>, DbError>;
    /// Every claimed nickname (the columns of [`sql::CLAIMS`]).
    fn claims(&mut self) -> Result<Vec<ClaimRow>, DbError>;
    /// Every stored rating (the columns of [`sql::RATINGS`]).
    fn ratings(&mut self) -> Result<Vec<RatingRow>, DbError>;
    /// One player's claimed nickname, password hash and origin, if claimed (the columns of
    /// [`sql::PLAYER_CLAIM`]).
    fn player_claim(&mut self, id: u64) -> Result<Option<PlayerClaimRow>, DbError>;
    /// The rated games that ended at `since_ms` or later (the columns of [`sql::RATED_SINCE`]).
    fn rated_since(&mut self, since_ms: u64) -> Result<Vec<(i64, i64, i64)>, DbError>;
    /// One player's ratings.
    fn player_ratings(&mut self, id: u64) -> Result<Vec<RatingRow>, DbError>;
    /// The last `limit` finished games of `player`, newest first (public ones only unless
    /// `private`).
    fn recent_games(&mut self, player: u64, limit: u32, private: bool) -> Result<Vec<RecentRow>, DbError>;
    /// The finished game `game`, if it is stored and over.
    fn archive(&mut self, game: u64) -> Result<Option<ArchiveRow>, DbError>;
    /// Background upkeep (SQLite: a WAL checkpoint, the last one truncating).
    fn upkeep(&mut self, _last: bool) {}
    /// Whether [`Backend::upkeep`] does anything (else no thread is started for it).
    fn needs_upkeep(&self) -> bool {
        false
    }
}

/// One schema change, in both dialects. Both backends apply the same list in order and record
/// the last version applied in `ludus_schema`.
pub(crate) struct Migration {
    pub version: i64,
    pub sqlite: &'static str,
    #[cfg_attr(not(feature = "postgres"), allow(dead_code))]
    pub postgres: &'static str,
}

/// The schema, version by version (append only).
pub(crate) const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        sqlite: "
CREATE TABLE IF NOT EXISTS players(
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    nickname TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    prev_hash TEXT,
    last_seen_ms INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS games(
    id INTEGER PRIMARY KEY,
    room TEXT NOT NULL,
    variant TEXT NOT NULL,
    start TEXT NOT NULL,
    first_player INTEGER NOT NULL,
    second_player INTEGER NOT NULL,
    public INTEGER NOT NULL,
    clock_initial_ms INTEGER,
    clock_increment_ms INTEGER,
    created_ms INTEGER NOT NULL,
    live INTEGER NOT NULL,
    outcome TEXT,
    ended_ms INTEGER,
    archive TEXT
);
CREATE INDEX IF NOT EXISTS games_live ON games(live) WHERE live = 1;
CREATE TABLE IF NOT EXISTS moves(
    game INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    mv TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    first_ms INTEGER,
    second_ms INTEGER,
    PRIMARY KEY(game, ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS proposals(
    game INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    mv TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY(game, ply, mv)
) WITHOUT ROWID;",
        postgres: "
CREATE TABLE IF NOT EXISTS players(
    id BIGINT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    nickname TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    prev_hash TEXT,
    last_seen_ms BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS games(
    id BIGINT PRIMARY KEY,
    room TEXT NOT NULL,
    variant TEXT NOT NULL,
    start TEXT NOT NULL,
    first_player BIGINT NOT NULL,
    second_player BIGINT NOT NULL,
    public BIGINT NOT NULL,
    clock_initial_ms BIGINT,
    clock_increment_ms BIGINT,
    created_ms BIGINT NOT NULL,
    live BIGINT NOT NULL,
    outcome TEXT,
    ended_ms BIGINT,
    archive TEXT
);
CREATE INDEX IF NOT EXISTS games_live ON games(live) WHERE live = 1;
CREATE TABLE IF NOT EXISTS moves(
    game BIGINT NOT NULL,
    ply BIGINT NOT NULL,
    mv TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    first_ms BIGINT,
    second_ms BIGINT,
    PRIMARY KEY(game, ply)
);
CREATE TABLE IF NOT EXISTS proposals(
    game BIGINT NOT NULL,
    ply BIGINT NOT NULL,
    mv TEXT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY(game, ply, mv)
);",
    },
    // Version 2 follows the SQLite-only upgrade of clear credentials (see `sqlite::hash_credentials`).
    Migration {
        version: 2,
        sqlite: "CREATE INDEX IF NOT EXISTS players_prev ON players(prev_hash) WHERE prev_hash IS NOT NULL;",
        postgres: "CREATE INDEX IF NOT EXISTS players_prev ON players(prev_hash) WHERE prev_hash IS NOT NULL;",
    },
    // Version 3: in-game chat (protocol 4). `channel` 0 players, 1 spectators; `text` the
    // `ChatText` in JSON.
    Migration {
        version: 3,
        sqlite: "
CREATE TABLE IF NOT EXISTS chat(
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    channel INTEGER NOT NULL,
    player INTEGER NOT NULL,
    nickname TEXT NOT NULL,
    ply INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY(game, seq)
) WITHOUT ROWID;",
        postgres: "
CREATE TABLE IF NOT EXISTS chat(
    game BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    channel BIGINT NOT NULL,
    player BIGINT NOT NULL,
    nickname TEXT NOT NULL,
    ply BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY(game, seq)
);",
    },
    // Version 4: claimed nicknames and ratings (protocol 5). `password_hash` is an Argon2id PHC
    // string, `claim_skeleton` the claimed name's look-alike skeleton (unique); claimed players
    // are never pruned. `games.rated` 1 for a rated game. One `ratings` row per player and
    // variant that played a rated game.
    Migration {
        version: 4,
        sqlite: "
ALTER TABLE players ADD COLUMN password_hash TEXT;
ALTER TABLE players ADD COLUMN claim_skeleton TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS players_claimed ON players(claim_skeleton) WHERE claim_skeleton IS NOT NULL;
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS ratings(
    player INTEGER NOT NULL,
    variant TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    PRIMARY KEY(player, variant)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_first ON games(first_player, ended_ms);
CREATE INDEX IF NOT EXISTS games_second ON games(second_player, ended_ms);",
        postgres: "
ALTER TABLE players ADD COLUMN IF NOT EXISTS password_hash TEXT;
ALTER TABLE players ADD COLUMN IF NOT EXISTS claim_skeleton TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS players_claimed ON players(claim_skeleton) WHERE claim_skeleton IS NOT NULL;
ALTER TABLE games ADD COLUMN IF NOT EXISTS rated BIGINT NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS ratings(
    player BIGINT NOT NULL,
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    PRIMARY KEY(player, variant)
);
CREATE INDEX IF NOT EXISTS games_first ON games(first_player, ended_ms);
CREATE INDEX IF NOT EXISTS games_second ON games(second_player, ended_ms);",
    },
    // Version 5: several nodes on one database (PostgreSQL; SQLite has the same tables, unused).
    // `ludus_nodes`: every node, its public addresses, its lease (database clock, Unix ms) and
    // its published lobby (JSON); `incarnation` grows at every start of a node of that name,
    // `dead` is set by the node that took its games over. `games.owner`: the node that owns a
    // live game. `ludus_ids`: the next free player and game numbers, handed out in blocks.
    Migration {
        version: 5,
        sqlite: "
CREATE TABLE IF NOT EXISTS ludus_nodes(
    name TEXT PRIMARY KEY,
    incarnation INTEGER NOT NULL,
    udp TEXT,
    ws TEXT,
    http TEXT,
    lease_until_ms INTEGER NOT NULL,
    dead INTEGER NOT NULL DEFAULT 0,
    started_ms INTEGER NOT NULL,
    lobby TEXT
) WITHOUT ROWID;
ALTER TABLE games ADD COLUMN owner TEXT;
CREATE TABLE IF NOT EXISTS ludus_ids(kind TEXT PRIMARY KEY, next INTEGER NOT NULL) WITHOUT ROWID;",
        postgres: "
CREATE TABLE IF NOT EXISTS ludus_nodes(
    name TEXT PRIMARY KEY,
    incarnation BIGINT NOT NULL,
    udp TEXT,
    ws TEXT,
    http TEXT,
    lease_until_ms BIGINT NOT NULL,
    dead BIGINT NOT NULL DEFAULT 0,
    started_ms BIGINT NOT NULL,
    lobby TEXT
);
ALTER TABLE games ADD COLUMN IF NOT EXISTS owner TEXT;
CREATE INDEX IF NOT EXISTS games_owner ON games(owner) WHERE live = 1;
CREATE TABLE IF NOT EXISTS ludus_ids(kind TEXT PRIMARY KEY, next BIGINT NOT NULL);
INSERT INTO ludus_ids(kind, next)
    SELECT 'player', COALESCE(MAX(id), 0) + 1 FROM (SELECT id FROM players
    UNION ALL SELECT first_player FROM games UNION ALL SELECT second_player FROM games) AS ids
    ON CONFLICT DO NOTHING;
INSERT INTO ludus_ids(kind, next) SELECT 'game', COALESCE(MAX(id), 0) + 1 FROM games ON CONFLICT DO NOTHING;",
    },
    // Version 6: where claims come from. `claim_address` is a keyed hash of the claiming
    // address (never the address), `claimed_ms` when; both null for claims made before.
    // `games_rated_ended` finds the rated games of the last day at start.
    Migration {
        version: 6,
        sqlite: "
ALTER TABLE players ADD COLUMN claim_address TEXT;
ALTER TABLE players ADD COLUMN claimed_ms INTEGER;
CREATE INDEX IF NOT EXISTS games_rated_ended ON games(ended_ms) WHERE rated = 1;",
        postgres: "
ALTER TABLE players ADD COLUMN IF NOT EXISTS claim_address TEXT;
ALTER TABLE players ADD COLUMN IF NOT EXISTS claimed_ms BIGINT;
CREATE INDEX IF NOT EXISTS games_rated_ended ON games(ended_ms) WHERE rated = 1;",
    },
];

/// The statements both backends run, written with `?N` parameters (PostgreSQL's `$N` is made by
/// [`pg::dialect`]).
pub(crate) mod sql {
    pub const NEW_PLAYER: &str = "INSERT INTO players(id, token_hash, nickname, created_ms, last_seen_ms)
         VALUES (?1, ?2, ?3, ?4, ?4)";
    pub const CREDENTIAL: &str =
        "UPDATE players SET token_hash = ?2, prev_hash = ?3, last_seen_ms = ?4 WHERE id = ?1";
    pub const NICKNAME: &str = "UPDATE players SET nickname = ?2 WHERE id = ?1";
    pub const NEW_GAME: &str =
        "INSERT INTO games(id, room, variant, start, first_player, second_player, public,
         clock_initial_ms, clock_increment_ms, created_ms, live, rated)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 1, ?11)";
    pub const MOVE: &str =
        "INSERT INTO moves(game, ply, mv, at_ms, first_ms, second_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
    pub const PROPOSAL: &str = "INSERT INTO proposals(game, ply, mv, count) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(game, ply, mv) DO UPDATE SET count = excluded.count";
    pub const FINISH: &str =
        "UPDATE games SET live = 0, outcome = ?2, ended_ms = ?3, archive = ?4 WHERE id = ?1";
    pub const PRUNE: &str = "DELETE FROM players WHERE last_seen_ms < ?1 AND password_hash IS NULL
         AND id NOT IN (SELECT first_player FROM games WHERE live = 1)
         AND id NOT IN (SELECT second_player FROM games WHERE live = 1)";
    pub const FIND_PLAYER: &str = "SELECT id, token_hash, prev_hash, last_seen_ms, nickname FROM players
         WHERE (token_hash = ?1 OR prev_hash = ?1) AND last_seen_ms >= ?2";
    pub const PLAYER: &str =
        "SELECT id, token_hash, prev_hash, last_seen_ms, nickname FROM players WHERE id = ?1";
    /// Past every stored player and every player of a stored game: a pruned player's number is
    /// never given again (a profile lists games by player number).
    pub const NEXT_PLAYER: &str = "SELECT COALESCE(MAX(id), 0) + 1 FROM (SELECT id FROM players
         UNION ALL SELECT first_player FROM games UNION ALL SELECT second_player FROM games) AS ids";
    pub const NEXT_GAME: &str = "SELECT COALESCE(MAX(id), 0) + 1 FROM games";
    pub const LIVE_GAMES: &str = "SELECT id, room, variant, start, first_player, second_player, public,
         clock_initial_ms, clock_increment_ms, created_ms, rated FROM games WHERE live = 1 ORDER BY id";
    /// A look-alike claimed meanwhile on another node (several nodes) is left as it is: the
    /// claim is not stored rather than the writer stopping on the unique index.
    pub const CLAIM: &str = "UPDATE players SET claim_skeleton = ?2, password_hash = ?3 WHERE id = ?1
         AND NOT EXISTS (SELECT 1 FROM players WHERE claim_skeleton = ?2 AND id <> ?1)";
    pub const PLAYER_CLAIM: &str = "SELECT nickname, password_hash, claim_address, claimed_ms FROM players
         WHERE id = ?1 AND password_hash IS NOT NULL";
    pub const CLAIM_ORIGIN: &str = "UPDATE players SET claim_address = ?2, claimed_ms = ?3 WHERE id = ?1";
    pub const UNRATED: &str = "UPDATE games SET rated = 0 WHERE id = ?1";
    pub const RATED_SINCE: &str = "SELECT first_player, second_player, ended_ms FROM games
         WHERE rated = 1 AND live = 0 AND ended_ms >= ?1";
    pub const PLAYER_RATINGS: &str =
        "SELECT player, variant, rating, deviation, volatility, games, wins, draws, losses
         FROM ratings WHERE player = ?1 ORDER BY variant";
    pub const RATING: &str =
        "INSERT INTO ratings(player, variant, rating, deviation, volatility, games, wins, draws, losses)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT(player, variant) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
         volatility = excluded.volatility, games = excluded.games, wins = excluded.wins,
         draws = excluded.draws, losses = excluded.losses";
    pub const CLAIMS: &str = "SELECT id, nickname, password_hash, claim_address, claimed_ms FROM players
         WHERE password_hash IS NOT NULL ORDER BY id";
    pub const RATINGS: &str =
        "SELECT player, variant, rating, deviation, volatility, games, wins, draws, losses
         FROM ratings ORDER BY player, variant";
    pub const RECENT_GAMES: &str = "SELECT id, variant, first_player, ended_ms, rated, archive FROM games
         WHERE live = 0 AND (first_player = ?1 OR second_player = ?1) AND (public = 1 OR CAST(?3 AS BIGINT) = 1)
         ORDER BY ended_ms DESC, id DESC LIMIT ?2";
    pub const ARCHIVE: &str =
        "SELECT public, first_player, second_player, archive FROM games WHERE id = ?1 AND live = 0";
    pub const MOVES: &str = "SELECT mv, first_ms, second_ms FROM moves WHERE game = ?1 ORDER BY ply";
    pub const PROPOSALS: &str = "SELECT ply, mv, count FROM proposals WHERE game = ?1 ORDER BY ply";
    pub const CHAT_LINE: &str = "INSERT INTO chat(game, seq, channel, player, nickname, ply, at_ms, text)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
    pub const CHAT_LINES: &str =
        "SELECT channel, player, nickname, ply, at_ms, text FROM chat WHERE game = ?1 ORDER BY seq";
}

/// A stored chat line: channel, player, nickname, ply, time, text (JSON).
pub(crate) type ChatRow = (i64, i64, String, i64, i64, String);

/// The columns of a chat line to store: channel, player, nickname, ply, time, text (JSON).
pub(crate) fn chat_columns(line: &ChatLine) -> (i64, i64, &str, i64, i64, String) {
    let channel = match line.channel {
        ChatChannel::Players => 0,
        ChatChannel::Spectators => 1,
    };
    let text = serde_json::to_string(&line.text).unwrap_or_default();
    (channel, line.from.0 as i64, &line.nickname, i64::from(line.ply), line.at_ms as i64, text)
}

/// A profile's game from its row, for `player` (`None`: an archive that does not parse).
fn recent_game(player: u64, row: RecentRow) -> Option<RecentGame> {
    let (id, variant, first, ended_ms, rated, archive) = row;
    let archive: ArchivedGame = serde_json::from_str(archive.as_deref()?).ok()?;
    let me = if first.max(0) as u64 == player { 0 } else { 1 };
    let result = match archive.outcome.winner {
        None => GameResult::Draw,
        Some(w) if w.index() == me => GameResult::Win,
        Some(_) => GameResult::Loss,
    };
    Some(RecentGame {
        game: GameId(id.max(0) as u64),
        variant: Variant::parse(&variant).ok()?,
        opponent: archive.players[1 - me].clone(),
        result,
        rated: rated != 0,
        ended_ms: ended_ms.unwrap_or(0).max(0) as u64,
    })
}

/// A finished game's row back, or `None` (logged) when its archive is missing or unreadable.
fn stored_archive(game: u64, row: ArchiveRow) -> Option<StoredArchive> {
    let (public, first, second, archive) = row;
    let archive = match serde_json::from_str::<ArchivedGame>(archive.as_deref()?) {
        Ok(a) => a,
        Err(e) => {
            tracing::warn!("game {game}: unreadable archive: {e}");
            return None;
        }
    };
    Some(StoredArchive { public: public != 0, players: [first.max(0) as u64, second.max(0) as u64], archive })
}

/// A stored chat line of `game` back, or why not.
fn chat_line(game: u64, row: ChatRow) -> Result<ChatLine, String> {
    let (channel, player, nickname, ply, at_ms, text) = row;
    let channel = match channel {
        0 => ChatChannel::Players,
        1 => ChatChannel::Spectators,
        other => return Err(format!("unknown chat channel {other}")),
    };
    let text: ChatText = serde_json::from_str(&text).map_err(|e| format!("chat text: {e}"))?;
    Ok(ChatLine {
        game: GameId(game),
        channel,
        from: PlayerId(player.max(0) as u64),
        nickname,
        text,
        ply: ply.clamp(0, u32::MAX as i64) as u32,
        at_ms: at_ms.max(0) as u64,
    })
}

/// A stored game row before its moves: the columns of [`sql::LIVE_GAMES`].
pub(crate) fn game_row(
    id: i64,
    room: String,
    start: String,
    players: [i64; 2],
    public: bool,
    clock: (Option<i64>, Option<i64>),
    created_ms: i64,
    rated: bool,
) -> StoredGame {
    StoredGame {
        id: id as u64,
        room,
        variant: Variant::Latrunculi,
        start,
        players: [players[0] as u64, players[1] as u64],
        public,
        clock: clock.0.map(|initial| ClockSpec {
            initial_ms: initial.clamp(0, u32::MAX as i64) as u32,
            increment_ms: clock.1.unwrap_or(0).clamp(0, u32::MAX as i64) as u32,
        }),
        created_ms: created_ms.max(0) as u64,
        rated,
        moves: Vec::new(),
        clocks: None,
        proposals: Vec::new(),
        chat: Vec::new(),
        chat_stored: 0,
    }
}

/// Everything the server needs after a (re)start, read through any backend.
fn load(db: &mut dyn Backend) -> Result<Loaded, DbError> {
    let (next_player, next_game) = db.next_ids()?;
    let (player_end, game_end) = db.id_ends();
    let mut loaded = Loaded { next_player, next_game, player_end, game_end, ..Loaded::default() };
    let rows = db.live_games()?;
    let (games, players) = load_games(db, rows)?;
    loaded.games = games;
    loaded.players = players;
    let mut ratings: std::collections::HashMap<u64, Vec<(Variant, StoredRating)>> = Default::default();
    for row in db.ratings()? {
        if let Some((player, variant, rating)) = stored_rating(row) {
            ratings.entry(player).or_default().push((variant, rating));
        }
    }
    for (id, nickname, password_hash, address, claimed_ms) in db.claims()? {
        let id = id.max(0) as u64;
        let ratings = ratings.remove(&id).unwrap_or_default();
        let origin = claim_origin(address, claimed_ms);
        loaded.claims.push(StoredClaim { id, nickname, password_hash, ratings, origin });
    }
    let day = crate::core::RATED_PAIR_WINDOW.as_millis() as u64;
    for (first, second, ended_ms) in db.rated_since(now_ms().saturating_sub(day))? {
        loaded.rated_games.push(([first.max(0) as u64, second.max(0) as u64], ended_ms.max(0) as u64));
    }
    Ok(loaded)
}

/// A player's claim with their ratings, as stored.
pub(crate) fn stored_claim(db: &mut dyn Backend, id: u64) -> Result<Option<StoredClaim>, DbError> {
    let Some((nickname, password_hash, address, claimed_ms)) = db.player_claim(id)? else {
        return Ok(None);
    };
    let ratings =
        db.player_ratings(id)?.into_iter().filter_map(stored_rating).map(|(_, v, r)| (v, r)).collect();
    let origin = claim_origin(address, claimed_ms);
    Ok(Some(StoredClaim { id, nickname, password_hash, ratings, origin }))
}

/// A stored rating row back: (player, variant, rating), or `None` (logged) for a variant this
/// build does not know.
fn stored_rating(row: RatingRow) -> Option<(u64, Variant, StoredRating)> {
    let (player, variant, rating, deviation, volatility, games, wins, draws, losses) = row;
    let Ok(parsed) = Variant::parse(&variant) else {
        tracing::error!(player, "skipping stored rating of unknown variant {variant}");
        return None;
    };
    let count = |v: i64| v.clamp(0, u32::MAX as i64) as u32;
    let stored = StoredRating {
        rating,
        deviation,
        volatility,
        games: count(games),
        wins: count(wins),
        draws: count(draws),
        losses: count(losses),
    };
    Some((player.max(0) as u64, parsed, stored))
}

/// Live games (their rows, with the variant's name) with their moves, proposals and chat, and
/// their players.
fn load_games(
    db: &mut dyn Backend,
    rows: Vec<(StoredGame, String)>,
) -> Result<(Vec<StoredGame>, Vec<StoredPlayer>), DbError> {
    let mut games = Vec::new();
    for (mut game, variant) in rows {
        match Variant::parse(&variant) {
            Ok(v) => game.variant = v,
            Err(e) => {
                tracing::error!(game = game.id, "skipping stored game: {e}");
                continue;
            }
        }
        games.push(game);
    }
    for game in &mut games {
        for (mv, first, second) in db.moves(game.id)? {
            game.moves.push(mv);
            game.clocks = first.zip(second).map(|(a, b)| [a.max(0) as u64, b.max(0) as u64]);
        }
        for (ply, mv, count) in db.proposals(game.id)? {
            let played = game.moves.get(ply as usize).cloned().unwrap_or_default();
            match game.proposals.last_mut() {
                Some(p) if p.ply == ply => p.proposals.push(Proposal { mv, count }),
                _ => {
                    game.proposals.push(PlyProposals { ply, played, proposals: vec![Proposal { mv, count }] })
                }
            }
        }
        for p in &mut game.proposals {
            p.proposals.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.mv.cmp(&b.mv)));
        }
        for row in db.chat(game.id)? {
            game.chat_stored += 1;
            match chat_line(game.id, row) {
                Ok(line) => game.chat.push(line),
                Err(e) => tracing::error!(game = game.id, "skipping stored chat line: {e}"),
            }
        }
    }
    let mut ids: Vec<u64> = games.iter().flat_map(|g| g.players).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut players = Vec::new();
    for id in ids {
        if let Some(p) = db.player(id)? {
            players.push(p);
        }
    }
    Ok((games, players))
}

/// The database: a writer thread, a reader thread (player lookups) and, for SQLite, a
/// checkpointer thread. The server thread never touches the database.
pub struct Store {
    lookup_tx: Option<mpsc::Sender<ReadRequest>>,
    lookup_rx: mpsc::Receiver<LookupAnswer>,
    games_rx: mpsc::Receiver<GamesAnswer>,
    archive_rx: mpsc::Receiver<ArchiveAnswer>,
    reader: Option<JoinHandle<()>>,
    tx: Option<mpsc::Sender<(u64, Vec<Op>)>>,
    writer: Option<JoinHandle<()>>,
    checkpointer: Option<JoinHandle<()>>,
    stopping: Arc<AtomicBool>,
    committed: Arc<AtomicU64>,
    failing: Arc<AtomicBool>,
    submitted: u64,
    described: String,
    /// Commit timings.
    pub commit_stats: Arc<CommitStats>,
    /// Set once this node's lease is lost (by the writer or the cluster thread).
    lease_lost: Arc<AtomicBool>,
    /// PostgreSQL: how to connect and who this node is, for [`Store::start_cluster`].
    cluster: Option<ClusterLink>,
}

/// Milliseconds since the Unix epoch.
fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

impl Store {
    /// Opens (or creates) `dir/ludus.sqlite3` and loads the live games (credentials expire
    /// after 180 days unused).
    pub fn open(dir: &Path) -> Result<(Store, Loaded), StoreError> {
        Store::open_with(&Database::Sqlite(dir.to_path_buf()), Duration::from_secs(180 * 24 * 3600))
    }

    /// Opens (or creates) the database, migrates it, deletes the players whose credential has
    /// been unused for `credential_lifetime` (outside live games), and loads the live games
    /// (PostgreSQL: as the node `ludus`, see [`Store::open_node`]).
    pub fn open_with(
        database: &Database,
        credential_lifetime: Duration,
    ) -> Result<(Store, Loaded), StoreError> {
        Store::open_node(database, credential_lifetime, None)
    }

    /// [`Store::open_with`] as one node of several on a PostgreSQL database: registered under
    /// `node`'s name with a lease, it loads only its own live games (SQLite ignores `node`).
    pub fn open_node(
        database: &Database,
        credential_lifetime: Duration,
        node: Option<&NodeConfig>,
    ) -> Result<(Store, Loaded), StoreError> {
        let cutoff = now_ms().saturating_sub(credential_lifetime.as_millis() as u64);
        let described = database.describe();
        let fail = |source: DbError| StoreError::Database { what: described.clone(), source };
        let (writer, mut reader, upkeep, cluster) = match database {
            Database::Sqlite(dir) => {
                std::fs::create_dir_all(dir)
                    .map_err(|source| StoreError::Directory { path: dir.to_path_buf(), source })?;
                let [w, r, c] = sqlite::open(&dir.join("ludus.sqlite3"), now_ms(), cutoff).map_err(fail)?;
                let opened: Opened = (Box::new(w), Box::new(r), Some(Box::new(c)), None);
                opened
            }
            Database::Postgres(url) => open_postgres(url, cutoff, node, &described)?,
        };
        let loaded = load(reader.as_mut()).map_err(fail)?;
        let mut store = Store::start(writer, reader, upkeep, described)?;
        store.cluster = cluster;
        Ok((store, loaded))
    }

    /// Whether this node lost its lease (another node took its games over): it must stop.
    pub fn lease_lost(&self) -> bool {
        self.lease_lost.load(Ordering::Acquire)
    }

    /// Starts this node's cluster thread (PostgreSQL only; `None` with SQLite).
    #[cfg(feature = "postgres")]
    pub fn start_cluster(&self, addrs: cluster::NodeAddrs) -> Option<Result<cluster::Cluster, StoreError>> {
        let (config, fence) = self.cluster.clone()?;
        Some(cluster::Cluster::start(config, fence, addrs, self.lease_lost.clone()))
    }

    /// Starts this node's cluster thread: never in a build without PostgreSQL.
    #[cfg(not(feature = "postgres"))]
    pub fn start_cluster(&self, _addrs: cluster::NodeAddrs) -> Option<Result<cluster::Cluster, StoreError>> {
        self.cluster.map(|never| match never {})
    }

    fn start(
        mut writer: Box<dyn Backend>,
        mut reader: Box<dyn Backend>,
        upkeep: Option<Box<dyn Backend>>,
        described: String,
    ) -> Result<Store, StoreError> {
        let (lookup_tx, lookup_requests) = mpsc::channel::<ReadRequest>();
        let (lookup_answers, lookup_rx) = mpsc::channel::<LookupAnswer>();
        let (games_answers, games_rx) = mpsc::channel::<GamesAnswer>();
        let (archive_answers, archive_rx) = mpsc::channel::<ArchiveAnswer>();
        let reader = std::thread::Builder::new()
            .name("ludus-db-reader".into())
            .spawn(move || {
                while let Ok(request) = lookup_requests.recv() {
                    let sent = match request {
                        ReadRequest::Player((conn, hash, cutoff)) => {
                            // A failed read answers "unknown": the sign-in then makes a new player.
                            let found = reader.find_player(&hash, cutoff).unwrap_or_else(|e| {
                                tracing::warn!("player lookup failed: {e}");
                                None
                            });
                            // Several nodes: the claim and ratings as stored now (another node
                            // may have changed them).
                            let claim = found.as_ref().and_then(|p| {
                                stored_claim(reader.as_mut(), p.id).unwrap_or_else(|e| {
                                    tracing::warn!("claim lookup failed: {e}");
                                    None
                                })
                            });
                            lookup_answers.send((conn, hash, found, claim)).is_ok()
                        }
                        ReadRequest::Games((conn, player, nickname, private)) => {
                            // A failed read answers no games.
                            let limit = ludus_protocol::ProfileView::RECENT as u32;
                            let rows = reader.recent_games(player, limit, private).unwrap_or_else(|e| {
                                tracing::warn!("recent games lookup failed: {e}");
                                Vec::new()
                            });
                            let games = rows.into_iter().filter_map(|r| recent_game(player, r)).collect();
                            games_answers.send((conn, player, nickname, games)).is_ok()
                        }
                        ReadRequest::Archive((conn, game)) => {
                            // A failed read, or an archive that does not parse, answers "no such game".
                            let row = reader.archive(game).unwrap_or_else(|e| {
                                tracing::warn!("archive lookup failed: {e}");
                                None
                            });
                            let found = row.and_then(|r| stored_archive(game, r));
                            archive_answers.send((conn, game, found)).is_ok()
                        }
                    };
                    if !sent {
                        break;
                    }
                }
            })
            .map_err(|source| StoreError::Thread { what: "reader", source })?;
        let committed = Arc::new(AtomicU64::new(0));
        let failing = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel::<(u64, Vec<Op>)>();
        let thread_committed = committed.clone();
        let thread_failing = failing.clone();
        let commit_stats = Arc::new(CommitStats::default());
        let thread_stats = commit_stats.clone();
        let lease_lost = Arc::new(AtomicBool::new(false));
        let thread_lost = lease_lost.clone();
        let writer = std::thread::Builder::new()
            .name("ludus-db".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    let mut batches = vec![first];
                    while let Ok(more) = rx.try_recv() {
                        batches.push(more);
                    }
                    let last = batches.last().map_or(0, |b| b.0);
                    if thread_lost.load(Ordering::Acquire) {
                        // Another node owns the games now: nothing is stored (or sent) any more.
                        continue;
                    }
                    loop {
                        let started = std::time::Instant::now();
                        match writer.commit(&batches) {
                            Ok(()) => {
                                let us = started.elapsed().as_micros() as u64;
                                thread_stats.commits.fetch_add(1, Ordering::Relaxed);
                                thread_stats.batches.fetch_add(batches.len() as u64, Ordering::Relaxed);
                                thread_stats.total_us.fetch_add(us, Ordering::Relaxed);
                                thread_stats.max_us.fetch_max(us, Ordering::Relaxed);
                                thread_failing.store(false, Ordering::Release);
                                thread_committed.store(last, Ordering::Release);
                                break;
                            }
                            Err(DbError::LeaseLost) => {
                                tracing::error!(
                                    "this node's lease is lost: another node took its games over; \
                                     nothing more is stored or sent"
                                );
                                thread_lost.store(true, Ordering::Release);
                                break;
                            }
                            Err(e) => {
                                // Nothing is sent until this batch is stored: retry.
                                if !thread_failing.swap(true, Ordering::AcqRel) {
                                    tracing::error!("database write failed, retrying: {e}");
                                }
                                std::thread::sleep(Duration::from_millis(500));
                            }
                        }
                    }
                }
            })
            .map_err(|source| StoreError::Thread { what: "writer", source })?;
        let stopping = Arc::new(AtomicBool::new(false));
        let checkpointer = match upkeep {
            Some(mut db) if db.needs_upkeep() => {
                let thread_stopping = stopping.clone();
                Some(
                    std::thread::Builder::new()
                        .name("ludus-db-checkpoint".into())
                        .spawn(move || {
                            while !thread_stopping.load(Ordering::Relaxed) {
                                std::thread::sleep(Duration::from_millis(200));
                                db.upkeep(false);
                            }
                            db.upkeep(true);
                        })
                        .map_err(|source| StoreError::Thread { what: "checkpoint", source })?,
                )
            }
            _ => None,
        };
        Ok(Store {
            lookup_tx: Some(lookup_tx),
            lookup_rx,
            games_rx,
            archive_rx,
            reader: Some(reader),
            tx: Some(tx),
            writer: Some(writer),
            checkpointer,
            stopping,
            committed,
            failing,
            submitted: 0,
            described,
            commit_stats,
            lease_lost,
            cluster: None,
        })
    }

    /// Hands a batch to the writer; returns its number.
    pub fn submit(&mut self, ops: Vec<Op>) -> u64 {
        self.submitted += 1;
        if let Some(tx) = &self.tx {
            let _ = tx.send((self.submitted, ops));
        }
        self.submitted
    }

    /// The last batch number submitted.
    pub fn submitted(&self) -> u64 {
        self.submitted
    }

    /// The last batch number committed (every earlier batch is committed too).
    pub fn committed(&self) -> u64 {
        self.committed.load(Ordering::Acquire)
    }

    /// Whether the last write attempt failed.
    pub fn is_failing(&self) -> bool {
        self.failing.load(Ordering::Acquire)
    }

    /// The database, for messages: the SQLite file or the PostgreSQL URL without password.
    pub fn describe(&self) -> &str {
        &self.described
    }

    /// Asks the reader thread for the player with credential hash `hash` (current or previous)
    /// last seen at `cutoff_ms` or later (for connection `conn`); the answer comes back through
    /// [`Store::looked_up`].
    pub fn lookup(&self, conn: u64, hash: String, cutoff_ms: u64) {
        if let Some(tx) = &self.lookup_tx {
            let _ = tx.send(ReadRequest::Player((conn, hash, cutoff_ms)));
        }
    }

    /// Asks the reader thread for `player`'s last finished games (for connection `conn`, a
    /// profile of `nickname`); the answer comes back through [`Store::games_found`].
    pub fn recent_games(&self, request: GamesRequest) {
        if let Some(tx) = &self.lookup_tx {
            let _ = tx.send(ReadRequest::Games(request));
        }
    }

    /// The recent games found since the last call.
    pub fn games_found(&self) -> Vec<GamesAnswer> {
        self.games_rx.try_iter().collect()
    }

    /// Asks the reader thread for a finished game's archive (for connection `conn`); the answer
    /// comes back through [`Store::archives_found`].
    pub fn archive(&self, request: ArchiveRequest) {
        if let Some(tx) = &self.lookup_tx {
            let _ = tx.send(ReadRequest::Archive(request));
        }
    }

    /// The archives found since the last call.
    pub fn archives_found(&self) -> Vec<ArchiveAnswer> {
        self.archive_rx.try_iter().collect()
    }

    /// The lookups answered since the last call: (connection, token, the player if stored).
    pub fn looked_up(&self) -> Vec<LookupAnswer> {
        self.lookup_rx.try_iter().collect()
    }

    /// Waits for every submitted batch to be committed (shutdown, tests), at most `limit`.
    pub fn sync(&self, limit: Duration) -> bool {
        let deadline = std::time::Instant::now() + limit;
        while self.committed() < self.submitted {
            if std::time::Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        true
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        // Closing the channel lets the writer finish what is queued, then stop.
        self.tx = None;
        self.lookup_tx = None;
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
        self.stopping.store(true, Ordering::Relaxed);
        if let Some(checkpointer) = self.checkpointer.take() {
            let _ = checkpointer.join();
        }
    }
}

#[cfg(test)]
mod tests;
