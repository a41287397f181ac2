//! Persistence in SQLite (WAL, `synchronous=FULL`): players, games, moves, proposals, archives.
//!
//! Writes go through one writer thread in batches: the server loop hands over everything a tick
//! changed ([`Store::submit`]), the writer commits it in one transaction (merging batches that
//! queued up meanwhile: group commit), and publishes the number of the last committed batch
//! ([`Store::committed`]). The server sends the messages produced by a tick only once its batch,
//! and every batch before it, is committed: a move is on disk before anyone sees it, without
//! the network loop ever waiting for the disk.

use ludus_protocol::{ClockSpec, PlyProposals, Proposal};
use ludus_rules::Variant;
use rusqlite::{Connection, OptionalExtension, params};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Why the database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The data directory could not be created.
    #[error("cannot create data directory {path}: {source}")]
    Directory { path: PathBuf, source: std::io::Error },
    /// SQLite refused to open, create or read the database.
    #[error("database {path}: {source}")]
    Database { path: PathBuf, source: rusqlite::Error },
    /// A database thread could not start.
    #[error("cannot start the database {what} thread: {source}")]
    Thread { what: &'static str, source: std::io::Error },
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
    },
    /// A move was accepted; `clocks` are the remaining times after it.
    Move { game: u64, ply: u32, mv: String, at_ms: u64, clocks: Option<[u64; 2]> },
    /// The spectators' proposals for a ply that was just played.
    Proposals { game: u64, ply: u32, proposals: Vec<Proposal> },
    /// The game is over: its archive (an `ArchivedGame` in JSON).
    Finish { game: u64, outcome: String, ended_ms: u64, archive: String },
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
    /// Every move in order.
    pub moves: Vec<String>,
    /// Remaining times after the last move (or `None`: the initial ones).
    pub clocks: Option<[u64; 2]>,
    pub proposals: Vec<PlyProposals>,
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
#[derive(Debug, Default)]
pub struct Loaded {
    pub games: Vec<StoredGame>,
    pub players: Vec<StoredPlayer>,
    pub next_player: u64,
    pub next_game: u64,
}

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
/// (connection, hash, the player if stored and not expired) out.
type LookupRequest = (u64, String, u64);
type LookupAnswer = (u64, String, Option<StoredPlayer>);

/// The database: a writer thread, a reader thread (player lookups) and a checkpointer thread.
/// The server thread never touches the disk.
pub struct Store {
    lookup_tx: Option<mpsc::Sender<LookupRequest>>,
    lookup_rx: mpsc::Receiver<LookupAnswer>,
    reader: Option<JoinHandle<()>>,
    tx: Option<mpsc::Sender<(u64, Vec<Op>)>>,
    writer: Option<JoinHandle<()>>,
    checkpointer: Option<JoinHandle<()>>,
    stopping: Arc<AtomicBool>,
    committed: Arc<AtomicU64>,
    failing: Arc<AtomicBool>,
    submitted: u64,
    path: PathBuf,
    /// Commit timings.
    pub commit_stats: Arc<CommitStats>,
}

const SCHEMA: &str = "
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
) WITHOUT ROWID;
";

/// Brings a database of an earlier version up to date, in one transaction: session
/// credentials were stored in clear (`players.token`); they are replaced by their SHA-256
/// (`token_hash`), so that a stolen database file signs nobody in. Their last use counts as now.
fn migrate(conn: &mut Connection, now_ms: u64) -> rusqlite::Result<()> {
    let columns: Vec<String> = conn
        .prepare("SELECT name FROM pragma_table_info('players')")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    if columns.iter().any(|c| c == "token") {
        let tx = conn.transaction()?;
        tx.execute_batch(
            "ALTER TABLE players ADD COLUMN prev_hash TEXT;
             ALTER TABLE players ADD COLUMN last_seen_ms INTEGER NOT NULL DEFAULT 0;",
        )?;
        let rows: Vec<(i64, String)> = tx
            .prepare("SELECT id, token FROM players")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        {
            let mut update = tx.prepare("UPDATE players SET token = ?2, last_seen_ms = ?3 WHERE id = ?1")?;
            for (id, token) in rows {
                update.execute(params![id, crate::core::credential_hash(&token), now_ms as i64])?;
            }
        }
        tx.execute_batch("ALTER TABLE players RENAME COLUMN token TO token_hash;")?;
        tx.commit()?;
        tracing::info!("database migrated: session credentials are now stored hashed");
    }
    conn.execute_batch(
        "CREATE INDEX IF NOT EXISTS players_prev ON players(prev_hash) WHERE prev_hash IS NOT NULL;",
    )
}

/// Deletes the players whose credential expired (unused for `lifetime`) and who sit in no live
/// game; their finished games keep their names in the archives.
fn prune_players(conn: &Connection, cutoff_ms: u64) -> rusqlite::Result<usize> {
    conn.execute(
        "DELETE FROM players WHERE last_seen_ms < ?1
         AND id NOT IN (SELECT first_player FROM games WHERE live = 1)
         AND id NOT IN (SELECT second_player FROM games WHERE live = 1)",
        params![cutoff_ms as i64],
    )
}

fn open(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(Duration::from_secs(10))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

fn commit(conn: &mut Connection, batches: &[(u64, Vec<Op>)]) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    for (_, ops) in batches {
        for op in ops {
            match op {
                Op::NewPlayer { id, hash, nickname, created_ms } => {
                    tx.prepare_cached(
                        "INSERT INTO players(id, token_hash, nickname, created_ms, last_seen_ms)
                         VALUES (?1, ?2, ?3, ?4, ?4)",
                    )?
                    .execute(params![*id as i64, hash, nickname, *created_ms as i64])?;
                }
                Op::Credential { id, hash, prev, last_seen_ms } => {
                    tx.prepare_cached(
                        "UPDATE players SET token_hash = ?2, prev_hash = ?3, last_seen_ms = ?4 WHERE id = ?1",
                    )?
                    .execute(params![*id as i64, hash, prev, *last_seen_ms as i64])?;
                }
                Op::Nickname { id, nickname } => {
                    tx.prepare_cached("UPDATE players SET nickname = ?2 WHERE id = ?1")?
                        .execute(params![*id as i64, nickname])?;
                }
                Op::NewGame { id, room, variant, start, players, public, clock, created_ms } => {
                    tx.prepare_cached(
                        "INSERT INTO games(id, room, variant, start, first_player, second_player, public,
                         clock_initial_ms, clock_increment_ms, created_ms, live)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 1)",
                    )?
                    .execute(params![
                        *id as i64,
                        room,
                        variant.name(),
                        start,
                        players[0] as i64,
                        players[1] as i64,
                        *public,
                        clock.map(|c| c.initial_ms),
                        clock.map(|c| c.increment_ms),
                        *created_ms as i64,
                    ])?;
                }
                Op::Move { game, ply, mv, at_ms, clocks } => {
                    tx.prepare_cached(
                        "INSERT INTO moves(game, ply, mv, at_ms, first_ms, second_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    )?
                    .execute(params![
                        *game as i64,
                        *ply,
                        mv,
                        *at_ms as i64,
                        clocks.map(|c| c[0] as i64),
                        clocks.map(|c| c[1] as i64),
                    ])?;
                }
                Op::Proposals { game, ply, proposals } => {
                    let mut stmt = tx.prepare_cached(
                        "INSERT OR REPLACE INTO proposals(game, ply, mv, count) VALUES (?1, ?2, ?3, ?4)",
                    )?;
                    for p in proposals {
                        stmt.execute(params![*game as i64, *ply, p.mv, p.count])?;
                    }
                }
                Op::Finish { game, outcome, ended_ms, archive } => {
                    tx.prepare_cached(
                        "UPDATE games SET live = 0, outcome = ?2, ended_ms = ?3, archive = ?4 WHERE id = ?1",
                    )?
                    .execute(params![
                        *game as i64,
                        outcome,
                        *ended_ms as i64,
                        archive
                    ])?;
                }
            }
        }
    }
    tx.commit()
}

impl Store {
    /// Opens (or creates) `dir/ludus.sqlite3` and loads the live games (credentials expire
    /// after 180 days unused).
    pub fn open(dir: &Path) -> Result<(Store, Loaded), StoreError> {
        Store::open_with(dir, Duration::from_secs(180 * 24 * 3600))
    }

    /// Opens (or creates) `dir/ludus.sqlite3`, migrates it, deletes the players whose
    /// credential has been unused for `credential_lifetime` (outside live games), and loads the
    /// live games.
    pub fn open_with(dir: &Path, credential_lifetime: Duration) -> Result<(Store, Loaded), StoreError> {
        std::fs::create_dir_all(dir)
            .map_err(|source| StoreError::Directory { path: dir.to_path_buf(), source })?;
        let path = dir.join("ludus.sqlite3");
        let fail = |source: rusqlite::Error| StoreError::Database { path: path.clone(), source };
        let mut writer = open(&path).map_err(fail)?;
        writer.execute_batch(SCHEMA).map_err(fail)?;
        let now_ms = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0);
        migrate(&mut writer, now_ms).map_err(fail)?;
        let pruned = prune_players(&writer, now_ms.saturating_sub(credential_lifetime.as_millis() as u64))
            .map_err(fail)?;
        if pruned > 0 {
            tracing::info!(pruned, "players with expired credentials deleted");
        }
        // Checkpoints run on their own thread, so that a commit never waits for one.
        writer.pragma_update(None, "wal_autocheckpoint", 0).map_err(fail)?;
        let checkpoint_conn = open(&path).map_err(fail)?;
        let reader_conn = open(&path).map_err(fail)?;
        let loaded = load(&reader_conn).map_err(fail)?;
        let (lookup_tx, lookup_requests) = mpsc::channel::<LookupRequest>();
        let (lookup_answers, lookup_rx) = mpsc::channel::<LookupAnswer>();
        let reader = std::thread::Builder::new()
            .name("ludus-db-reader".into())
            .spawn(move || {
                while let Ok((conn, hash, cutoff)) = lookup_requests.recv() {
                    let found = find_player(&reader_conn, &hash, cutoff);
                    if lookup_answers.send((conn, hash, found)).is_err() {
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
        let writer = std::thread::Builder::new()
            .name("ludus-db".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    let mut batches = vec![first];
                    while let Ok(more) = rx.try_recv() {
                        batches.push(more);
                    }
                    let last = batches.last().map_or(0, |b| b.0);
                    loop {
                        let started = std::time::Instant::now();
                        match commit(&mut writer, &batches) {
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
        let thread_stopping = stopping.clone();
        let checkpointer = std::thread::Builder::new()
            .name("ludus-db-checkpoint".into())
            .spawn(move || {
                while !thread_stopping.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(200));
                    let _ = checkpoint_conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                }
                let _ = checkpoint_conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
            })
            .map_err(|source| StoreError::Thread { what: "checkpoint", source })?;
        Ok((
            Store {
                lookup_tx: Some(lookup_tx),
                lookup_rx,
                reader: Some(reader),
                tx: Some(tx),
                writer: Some(writer),
                checkpointer: Some(checkpointer),
                stopping,
                committed,
                failing,
                submitted: 0,
                path,
                commit_stats,
            },
            loaded,
        ))
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

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Asks the reader thread for the player with credential hash `hash` (current or previous)
    /// last seen at `cutoff_ms` or later (for connection `conn`); the answer comes back through
    /// [`Store::looked_up`].
    pub fn lookup(&self, conn: u64, hash: String, cutoff_ms: u64) {
        if let Some(tx) = &self.lookup_tx {
            let _ = tx.send((conn, hash, cutoff_ms));
        }
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

/// The stored player with this session token (`None` also when the read fails: the sign-in then
/// makes a new player, as for an unknown token).
fn find_player(conn: &Connection, hash: &str, cutoff_ms: u64) -> Option<StoredPlayer> {
    conn.prepare_cached(&format!(
        "SELECT {PLAYER_COLUMNS} FROM players WHERE (token_hash = ?1 OR prev_hash = ?1) AND last_seen_ms >= ?2"
    ))
    .and_then(|mut s| s.query_row(params![hash, cutoff_ms as i64], stored_player).optional())
    .ok()
    .flatten()
}

const PLAYER_COLUMNS: &str = "id, token_hash, prev_hash, last_seen_ms, nickname";

fn stored_player(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredPlayer> {
    Ok(StoredPlayer {
        id: r.get::<_, i64>(0)? as u64,
        hash: r.get(1)?,
        prev: r.get(2)?,
        last_seen_ms: r.get::<_, i64>(3)?.max(0) as u64,
        nickname: r.get(4)?,
    })
}

fn load(conn: &Connection) -> rusqlite::Result<Loaded> {
    let mut loaded = Loaded {
        next_player: conn
            .query_row("SELECT COALESCE(MAX(id), 0) + 1 FROM players", [], |r| r.get::<_, i64>(0))?
            as u64,
        next_game: conn.query_row("SELECT COALESCE(MAX(id), 0) + 1 FROM games", [], |r| r.get::<_, i64>(0))?
            as u64,
        ..Loaded::default()
    };
    let mut games = conn.prepare(
        "SELECT id, room, variant, start, first_player, second_player, public, clock_initial_ms,
         clock_increment_ms, created_ms FROM games WHERE live = 1 ORDER BY id",
    )?;
    let rows = games.query_map([], |r| {
        let variant: String = r.get(2)?;
        let initial: Option<u32> = r.get(7)?;
        let increment: Option<u32> = r.get(8)?;
        Ok((
            StoredGame {
                id: r.get::<_, i64>(0)? as u64,
                room: r.get(1)?,
                variant: Variant::Latrunculi,
                start: r.get(3)?,
                players: [r.get::<_, i64>(4)? as u64, r.get::<_, i64>(5)? as u64],
                public: r.get(6)?,
                clock: initial
                    .map(|initial_ms| ClockSpec { initial_ms, increment_ms: increment.unwrap_or(0) }),
                created_ms: r.get::<_, i64>(9)? as u64,
                moves: Vec::new(),
                clocks: None,
                proposals: Vec::new(),
            },
            variant,
        ))
    })?;
    for row in rows {
        let (mut game, variant) = row?;
        match Variant::parse(&variant) {
            Ok(v) => game.variant = v,
            Err(e) => {
                tracing::error!(game = game.id, "skipping stored game: {e}");
                continue;
            }
        }
        loaded.games.push(game);
    }
    let mut moves =
        conn.prepare_cached("SELECT mv, first_ms, second_ms FROM moves WHERE game = ?1 ORDER BY ply")?;
    let mut proposals =
        conn.prepare_cached("SELECT ply, mv, count FROM proposals WHERE game = ?1 ORDER BY ply")?;
    for game in &mut loaded.games {
        let rows = moves.query_map(params![game.id as i64], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<i64>>(1)?, r.get::<_, Option<i64>>(2)?))
        })?;
        for row in rows {
            let (mv, first, second) = row?;
            game.moves.push(mv);
            game.clocks = first.zip(second).map(|(a, b)| [a.max(0) as u64, b.max(0) as u64]);
        }
        let rows = proposals.query_map(params![game.id as i64], |r| {
            Ok((r.get::<_, u32>(0)?, r.get::<_, String>(1)?, r.get::<_, u32>(2)?))
        })?;
        for row in rows {
            let (ply, mv, count) = row?;
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
    }
    let mut ids: Vec<u64> = loaded.games.iter().flat_map(|g| g.players).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut player = conn.prepare_cached(&format!("SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?1"))?;
    for id in ids {
        if let Some(p) = player.query_row(params![id as i64], stored_player).optional()? {
            loaded.players.push(p);
        }
    }
    Ok(loaded)
}
