//! [`Store`]: the database behind the server loop, on its own threads. A writer commits the
//! loop's batches (group commit), a reader answers lookups, and with SQLite a checkpointer keeps
//! the write-ahead log short. The loop never touches the database.

use super::backend::{load, recent_game, stored_archive, stored_claim};
#[cfg(feature = "postgres")]
use super::pg;
use super::{Backend, CommitStats, Database, DbError, NodeConfig, StoreError, cluster, now_ms, sqlite};
use crate::core::records::{
    ArchiveFound, ArchiveLookup, GamesFound, GamesLookup, Loaded, NodeAddrs, Op, PlayerFound, PlayerLookup,
};
use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

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
    (now, cutoff): (u64, u64),
    node: Option<&NodeConfig>,
    described: &str,
) -> Result<Opened, StoreError> {
    let what = || described.to_string();
    let config = pg::config(url).map_err(|source| StoreError::Url { what: what(), source })?;
    let default = NodeConfig { name: "ludus".into(), lease: Duration::from_secs(10) };
    let node = node.unwrap_or(&default);
    let [w, r] = pg::open(&config, now, cutoff, &node.name, node.lease)
        .map_err(|source| StoreError::Database { what: what(), source })?;
    let link = (config, w.fence.clone());
    Ok((Box::new(w), Box::new(r), None, Some(link)))
}

/// A build without the `postgres` feature opens no PostgreSQL database.
#[cfg(not(feature = "postgres"))]
fn open_postgres(
    _url: &str,
    _times: (u64, u64),
    _node: Option<&NodeConfig>,
    described: &str,
) -> Result<Opened, StoreError> {
    Err(StoreError::NoPostgres { what: described.to_string() })
}
/// What the reader thread is asked.
enum ReadRequest {
    Player(PlayerLookup),
    Games(GamesLookup),
    Archive(ArchiveLookup),
}

/// The reader's work, in two queues: sign-ins (player lookups) are served before any profile
/// or archive, so that however many of those are asked for, a returning player waits for one
/// read at most.
#[derive(Default)]
struct ReadQueue {
    state: Mutex<Queued>,
    ready: Condvar,
}

#[derive(Default)]
struct Queued {
    sign_ins: VecDeque<ReadRequest>,
    others: VecDeque<ReadRequest>,
    closed: bool,
}

impl ReadQueue {
    /// Queues `request` (sign-ins in their own queue).
    fn push(&self, request: ReadRequest) {
        let mut q = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match request {
            ReadRequest::Player(_) => q.sign_ins.push_back(request),
            _ => q.others.push_back(request),
        }
        self.ready.notify_one();
    }

    /// The next request, sign-ins first; `None` once closed and empty.
    fn next(&self) -> Option<ReadRequest> {
        let mut q = self.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(r) = q.sign_ins.pop_front().or_else(|| q.others.pop_front()) {
                return Some(r);
            }
            if q.closed {
                return None;
            }
            q = self.ready.wait(q).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// No more requests: the reader stops once the queues are empty.
    fn close(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        self.ready.notify_all();
    }
}

/// The database: a writer thread, a reader thread (player lookups) and, for SQLite, a
/// checkpointer thread. The server thread never touches the database.
pub struct Store {
    reads: Arc<ReadQueue>,
    lookup_rx: mpsc::Receiver<PlayerFound>,
    games_rx: mpsc::Receiver<GamesFound>,
    archive_rx: mpsc::Receiver<ArchiveFound>,
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
        Store::open_node_at(database, credential_lifetime, node, now_ms())
    }

    /// [`Store::open_node`] with the time taken as `now` (milliseconds since the Unix epoch:
    /// the server's clock, see [`crate::clock`]) for the players' expiry.
    pub fn open_node_at(
        database: &Database,
        credential_lifetime: Duration,
        node: Option<&NodeConfig>,
        now: u64,
    ) -> Result<(Store, Loaded), StoreError> {
        let cutoff = now.saturating_sub(credential_lifetime.as_millis() as u64);
        let described = database.describe();
        let fail = |source: DbError| StoreError::Database { what: described.clone(), source };
        let (writer, mut reader, upkeep, cluster) = match database {
            Database::Sqlite(dir) => {
                std::fs::create_dir_all(dir)
                    .map_err(|source| StoreError::Directory { path: dir.to_path_buf(), source })?;
                let [w, r, c] = sqlite::open(&dir.join("ludus.sqlite3"), now, cutoff).map_err(fail)?;
                let opened: Opened = (Box::new(w), Box::new(r), Some(Box::new(c)), None);
                opened
            }
            Database::Postgres(url) => open_postgres(url, (now, cutoff), node, &described)?,
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
    pub fn start_cluster(&self, addrs: NodeAddrs) -> Option<Result<cluster::Cluster, StoreError>> {
        let (config, fence) = self.cluster.clone()?;
        Some(cluster::Cluster::start(config, fence, addrs, self.lease_lost.clone()))
    }

    /// Starts this node's cluster thread: never in a build without PostgreSQL.
    #[cfg(not(feature = "postgres"))]
    pub fn start_cluster(&self, _addrs: NodeAddrs) -> Option<Result<cluster::Cluster, StoreError>> {
        self.cluster.map(|never| match never {})
    }

    fn start(
        mut writer: Box<dyn Backend>,
        mut reader: Box<dyn Backend>,
        upkeep: Option<Box<dyn Backend>>,
        described: String,
    ) -> Result<Store, StoreError> {
        let reads = Arc::new(ReadQueue::default());
        let lookup_requests = reads.clone();
        let (lookup_answers, lookup_rx) = mpsc::channel::<PlayerFound>();
        let (games_answers, games_rx) = mpsc::channel::<GamesFound>();
        let (archive_answers, archive_rx) = mpsc::channel::<ArchiveFound>();
        let reader = std::thread::Builder::new()
            .name("ludus-db-reader".into())
            .spawn(move || {
                while let Some(request) = lookup_requests.next() {
                    let sent = match request {
                        ReadRequest::Player(PlayerLookup { conn, hash, cutoff_ms }) => {
                            // A failed read answers "unknown": the sign-in then makes a new player.
                            let found = reader.find_player(&hash, cutoff_ms).unwrap_or_else(|e| {
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
                            lookup_answers.send(PlayerFound { conn, hash, player: found, claim }).is_ok()
                        }
                        ReadRequest::Games(GamesLookup { conn, player, nickname, private }) => {
                            // A failed read answers no games.
                            let limit = ludus_protocol::ProfileView::RECENT as u32;
                            let rows = reader.recent_games(player, limit, private).unwrap_or_else(|e| {
                                tracing::warn!("recent games lookup failed: {e}");
                                Vec::new()
                            });
                            let games = rows.into_iter().filter_map(|r| recent_game(player, r)).collect();
                            games_answers.send(GamesFound { conn, player, nickname, games }).is_ok()
                        }
                        ReadRequest::Archive(ArchiveLookup { conn, game }) => {
                            // A failed read, or an archive that does not parse, answers "no such game".
                            let row = reader.archive(game).unwrap_or_else(|e| {
                                tracing::warn!("archive lookup failed: {e}");
                                None
                            });
                            let found = row.and_then(|r| stored_archive(game, r));
                            archive_answers.send(ArchiveFound { conn, game, found }).is_ok()
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
            reads,
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

    /// Asks the reader thread for a player by credential hash; the answer comes back through
    /// [`Store::looked_up`].
    pub fn lookup(&self, request: PlayerLookup) {
        self.reads.push(ReadRequest::Player(request));
    }

    /// Asks the reader thread for a player's last finished games, for a profile; the answer
    /// comes back through [`Store::games_found`].
    pub fn recent_games(&self, request: GamesLookup) {
        self.reads.push(ReadRequest::Games(request));
    }

    /// The recent games found since the last call.
    pub fn games_found(&self) -> Vec<GamesFound> {
        self.games_rx.try_iter().collect()
    }

    /// Asks the reader thread for a finished game's archive; the answer comes back through
    /// [`Store::archives_found`].
    pub fn archive(&self, request: ArchiveLookup) {
        self.reads.push(ReadRequest::Archive(request));
    }

    /// The archives found since the last call.
    pub fn archives_found(&self) -> Vec<ArchiveFound> {
        self.archive_rx.try_iter().collect()
    }

    /// The player lookups answered since the last call.
    pub fn looked_up(&self) -> Vec<PlayerFound> {
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
        self.reads.close();
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
