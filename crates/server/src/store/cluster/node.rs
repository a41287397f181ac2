//! The cluster thread of a node among several on one PostgreSQL database, on its own
//! connection, waking every [`TICK`] or at once on a `NOTIFY ludus_lobby`:
//!
//! - renews the node's lease (in `ludus_nodes`, measured by the database's clock); once it is
//!   lost the node must stop (the writer refuses to store anything more: [`crate::store::DbError::LeaseLost`]);
//! - takes over the live games of nodes whose lease expired: in one transaction that first
//!   renews its own lease, it locks the expired nodes' rows, marks them dead and makes itself the
//!   owner of their live games; then it reloads those games (every move, proposal and chat line)
//!   for the server loop ([`ClusterEvent::Adopted`]). A dead node's writer then finds its lease gone
//!   and stores nothing more: two nodes never both own a game;
//! - publishes this node's lobby (open rooms, live games, quick-match queues) and reads the
//!   other live nodes' ([`ClusterEvent::Nodes`]), with `NOTIFY` so that the others read it at once;
//! - answers the loop's seat checks: which of these players has a live game on another live
//!   node ([`ClusterEvent::Seats`]);
//! - hands out new blocks of player and game numbers ([`ClusterEvent::Ids`]).

use super::Request;
use crate::core::records::{ClusterEvent, ID_BLOCK, IdKind, NodeAddrs, RemoteNode, Seat};
use crate::store::pg::{DB_NOW, Fence, Postgres, game_rows, renew_sql, reserve_ids};
use crate::store::{DbError, GameRow, StoreError, load_games, stored_claim};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the cluster thread wakes without a notification.
pub const TICK: Duration = Duration::from_millis(100);
/// The notification channel of lobby changes (payload: the node's name).
const CHANNEL: &str = "ludus_lobby";
/// How often the other nodes' lobbies are read without a notification.
const NODES_EVERY: Duration = Duration::from_secs(1);
/// A round with the database that has not ended for this long counts as failing (a connection
/// that hangs rather than fails: a network that drops packets).
const STALLED: Duration = Duration::from_secs(2);

/// The cluster thread of this node (stopped when dropped).
pub struct Cluster {
    tx: Option<mpsc::Sender<Request>>,
    rx: mpsc::Receiver<ClusterEvent>,
    thread: Option<JoinHandle<()>>,
    stop: Arc<AtomicBool>,
    name: String,
    /// The cluster thread cannot reach the database (or its statements fail).
    failing: Arc<AtomicBool>,
    /// When the thread started, and the last round that went through (ms after that).
    started: Instant,
    last_ok_ms: Arc<std::sync::atomic::AtomicU64>,
}

impl Cluster {
    pub(in crate::store) fn start(
        config: postgres::Config,
        fence: Fence,
        addrs: NodeAddrs,
        lost: Arc<AtomicBool>,
    ) -> Result<Cluster, StoreError> {
        let (tx, requests) = mpsc::channel();
        let (events, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = stop.clone();
        let name = fence.name.clone();
        let failing = Arc::new(AtomicBool::new(false));
        let thread_failing = failing.clone();
        let started = Instant::now();
        let last_ok_ms = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let thread_last_ok = last_ok_ms.clone();
        let thread = std::thread::Builder::new()
            .name("ludus-cluster".into())
            .spawn(move || {
                let mut state = State {
                    config,
                    fence,
                    addrs,
                    lost,
                    requests: Some(requests),
                    events: Some(events),
                    failing: thread_failing,
                    started: Some(started),
                    last_ok_ms: thread_last_ok,
                    ..State::default()
                };
                state.run(&thread_stop);
            })
            .map_err(|source| StoreError::Thread { what: "cluster", source })?;
        Ok(Cluster { tx: Some(tx), rx, thread: Some(thread), stop, name, failing, started, last_ok_ms })
    }

    /// Whether the last round with the database failed, or none went through for [`STALLED`].
    pub fn is_failing(&self) -> bool {
        let since = self.started.elapsed().as_millis() as u64;
        self.failing.load(Ordering::Acquire)
            || since.saturating_sub(self.last_ok_ms.load(Ordering::Acquire)) > STALLED.as_millis() as u64
    }

    /// This node's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Hands a request to the thread.
    pub fn request(&self, request: Request) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(request);
        }
    }

    /// The events since the last call.
    pub fn events(&self) -> Vec<ClusterEvent> {
        self.rx.try_iter().collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.tx = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[derive(Default)]
struct State {
    config: postgres::Config,
    fence: Fence,
    addrs: NodeAddrs,
    lost: Arc<AtomicBool>,
    requests: Option<mpsc::Receiver<Request>>,
    events: Option<mpsc::Sender<ClusterEvent>>,
    db: Option<Postgres>,
    /// The addresses are written on this connection.
    announced: bool,
    publish: Option<String>,
    checks: Vec<u64>,
    ids: Vec<IdKind>,
    owners: Vec<(u64, u64)>,
    /// Games taken over whose reload failed: tried again.
    unloaded: Vec<GameRow>,
    nodes_read: Option<Instant>,
    failing: Arc<AtomicBool>,
    started: Option<Instant>,
    last_ok_ms: Arc<std::sync::atomic::AtomicU64>,
}

impl State {
    fn run(&mut self, stop: &AtomicBool) {
        while !stop.load(Ordering::Relaxed) && !self.lost.load(Ordering::Acquire) {
            if self.db.as_ref().is_none_or(|d| d.client.is_closed()) {
                match Postgres::connect(&self.config, &self.fence).and_then(|mut d| {
                    d.client.batch_execute(&format!("LISTEN {CHANNEL}")).map(|()| d).map_err(Into::into)
                }) {
                    Ok(d) => {
                        self.db = Some(d);
                        self.announced = false;
                    }
                    Err(e) => {
                        self.note_failure(&e);
                        std::thread::sleep(TICK);
                        self.drain_requests();
                        continue;
                    }
                }
            }
            // The first round at once (the addresses are announced), then one a tick or
            // at a notification.
            let notified = if self.announced { self.wait() } else { true };
            self.drain_requests();
            match self.tick(notified) {
                Ok(()) => {
                    if let Some(started) = self.started {
                        self.last_ok_ms.store(started.elapsed().as_millis() as u64, Ordering::Release);
                    }
                    if self.failing.swap(false, Ordering::AcqRel) {
                        tracing::info!("cluster: database reachable again");
                    }
                }
                Err(DbError::LeaseLost) => {
                    tracing::error!(
                        node = self.fence.name,
                        "this node's lease is lost: another node took its games over"
                    );
                    self.lost.store(true, Ordering::Release);
                }
                Err(e) => self.note_failure(&e),
            }
        }
        // A clean stop (the server's writer has stored everything by now): the lease is given
        // up, so that another node takes the games over at once instead of after the lease.
        if stop.load(Ordering::Relaxed)
            && !self.lost.load(Ordering::Acquire)
            && let Some(db) = &mut self.db
        {
            let f = &self.fence;
            match db.client.execute(
                "UPDATE ludus_nodes SET lease_until_ms = 0 WHERE name = $1 AND incarnation = $2 AND dead = 0",
                &[&f.name, &f.incarnation],
            ) {
                Ok(_) => tracing::info!(node = f.name, "lease given up: another node takes the games over"),
                Err(e) => tracing::warn!("cannot give the lease up ({e}): the games move once it expires"),
            }
        }
    }

    fn note_failure(&mut self, e: &DbError) {
        if let Some(db) = &self.db
            && db.client.is_closed()
        {
            self.db = None;
        }
        if !self.failing.swap(true, Ordering::AcqRel) {
            tracing::error!("cluster: database unreachable or failing ({e}): this node takes no new games");
        }
    }

    /// Waits up to [`TICK`] for a notification; whether one came.
    fn wait(&mut self) -> bool {
        let Some(db) = &mut self.db else {
            return false;
        };
        use postgres::fallible_iterator::FallibleIterator;
        let mut notifications = db.client.notifications();
        let first = notifications.timeout_iter(TICK).next();
        let mut notified = matches!(first, Ok(Some(_)));
        let mut pending = notifications.iter();
        while let Ok(Some(_)) = pending.next() {
            notified = true;
        }
        notified
    }

    fn drain_requests(&mut self) {
        let Some(requests) = &self.requests else {
            return;
        };
        for r in requests.try_iter() {
            match r {
                Request::Publish(lobby) => self.publish = Some(lobby),
                Request::SeatChecks(players) => self.checks = players,
                Request::Ids(kind) => self.ids.push(kind),
                Request::GameOwner(player, game) => self.owners.push((player, game)),
            }
        }
    }

    fn tick(&mut self, notified: bool) -> Result<(), DbError> {
        let Some(db) = &mut self.db else {
            return Ok(());
        };
        let f = &self.fence;
        if !self.announced {
            db.client.execute(
                "UPDATE ludus_nodes SET udp = $3, ws = $4, http = $5 WHERE name = $1 AND incarnation = $2",
                &[&f.name, &f.incarnation, &self.addrs.udp, &self.addrs.ws, &self.addrs.http],
            )?;
            db.client.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &f.name])?;
            self.announced = true;
        }
        // The lease, and the games of the nodes whose lease expired, in one transaction.
        let mut tx = db.client.transaction()?;
        if tx.execute(&renew_sql(), &[&f.name, &f.incarnation, &f.lease_ms])? != 1 {
            return Err(DbError::LeaseLost);
        }
        let dead: Vec<String> = tx
            .query(
                &format!(
                    "SELECT name FROM ludus_nodes WHERE dead = 0 AND lease_until_ms < {DB_NOW} AND name <> $1
                     FOR UPDATE SKIP LOCKED"
                ),
                &[&f.name],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect();
        let mut adopted = Vec::new();
        if !dead.is_empty() {
            tx.execute("UPDATE ludus_nodes SET dead = 1, lobby = NULL WHERE name = ANY($1)", &[&dead])?;
            let rows = tx.query(
                "UPDATE games SET owner = $1 WHERE live = 1 AND owner = ANY($2)
                 RETURNING id, room, variant, start, first_player, second_player, public, clock_initial_ms,
                 clock_increment_ms, created_ms, rated, days_per_move, deadline_ms",
                &[&f.name, &dead],
            )?;
            adopted = game_rows(&rows);
            tracing::warn!(node = f.name, dead = ?dead, games = adopted.len(), "took over the games of expired nodes");
        }
        tx.commit()?;
        if !dead.is_empty() {
            db.client.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &f.name])?;
        }
        self.unloaded.extend(adopted);
        if !self.unloaded.is_empty() {
            let rows = std::mem::take(&mut self.unloaded);
            let loaded = load_games(db, rows.clone()).and_then(|(games, players)| {
                let mut claims = Vec::new();
                for p in &players {
                    claims.extend(stored_claim(db, p.id)?);
                }
                Ok((games, players, claims))
            });
            match loaded {
                Ok((games, players, claims)) => {
                    send(&self.events, ClusterEvent::Adopted { games, players, claims })
                }
                Err(e) => {
                    self.unloaded = rows;
                    return Err(e);
                }
            }
        }
        let Some(db) = &mut self.db else {
            return Ok(());
        };
        let f = &self.fence;
        if let Some(lobby) = self.publish.take() {
            db.client.execute(
                "UPDATE ludus_nodes SET lobby = $3 WHERE name = $1 AND incarnation = $2",
                &[&f.name, &f.incarnation, &lobby],
            )?;
            db.client.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &f.name])?;
        }
        if notified || !dead.is_empty() || self.nodes_read.is_none_or(|t| t.elapsed() >= NODES_EVERY) {
            let rows = db.client.query(
                &format!(
                    "SELECT name, udp, ws, http, lobby FROM ludus_nodes
                     WHERE dead = 0 AND lease_until_ms > {DB_NOW} AND name <> $1
                     AND (udp IS NOT NULL OR ws IS NOT NULL) ORDER BY name"
                ),
                &[&f.name],
            )?;
            let nodes = rows
                .iter()
                .map(|r| RemoteNode {
                    name: r.get(0),
                    addrs: NodeAddrs { udp: r.get(1), ws: r.get(2), http: r.get(3) },
                    lobby: r.get(4),
                })
                .collect();
            self.nodes_read = Some(Instant::now());
            send(&self.events, ClusterEvent::Nodes(nodes));
        }
        if !self.checks.is_empty() {
            let checks: Vec<i64> = self.checks.iter().map(|&p| p as i64).collect();
            let rows = db.client.query(
                &format!(
                    "SELECT g.first_player, g.second_player, g.id, g.owner FROM games g
                     JOIN ludus_nodes n ON n.name = g.owner
                     WHERE g.live = 1 AND g.owner <> $1 AND n.dead = 0 AND n.lease_until_ms > {DB_NOW}
                     AND (g.first_player = ANY($2) OR g.second_player = ANY($2))"
                ),
                &[&f.name, &checks],
            )?;
            let mut found = Vec::new();
            for r in &rows {
                let (gid, owner): (i64, String) = (r.get(2), r.get(3));
                for p in [r.get::<_, i64>(0), r.get::<_, i64>(1)] {
                    if checks.contains(&p) {
                        found.push(Seat { player: p as u64, game: gid as u64, node: owner.clone() });
                    }
                }
            }
            self.checks.clear();
            if !found.is_empty() {
                send(&self.events, ClusterEvent::Seats(found));
            }
        }
        for (player, game) in std::mem::take(&mut self.owners) {
            let row = db.client.query_opt(
                &format!(
                    "SELECT g.owner FROM games g JOIN ludus_nodes n ON n.name = g.owner
                     WHERE g.id = $1 AND g.live = 1 AND g.public = 1 AND g.owner <> $2
                     AND n.dead = 0 AND n.lease_until_ms > {DB_NOW}"
                ),
                &[&(game as i64), &f.name],
            )?;
            send(&self.events, ClusterEvent::GameOwner { player, game, node: row.map(|r| r.get(0)) });
        }
        while let Some(kind) = self.ids.first().copied() {
            let name = match kind {
                IdKind::Player => "player",
                IdKind::Game => "game",
            };
            let (first, end) = reserve_ids(&mut db.client, name, ID_BLOCK)?;
            self.ids.remove(0);
            send(&self.events, ClusterEvent::Ids { kind, first, end });
        }
        Ok(())
    }
}

fn send(events: &Option<mpsc::Sender<ClusterEvent>>, event: ClusterEvent) {
    if let Some(events) = events {
        let _ = events.send(event);
    }
}
