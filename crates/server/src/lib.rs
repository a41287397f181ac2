//! The Ludus game server: one process, native clients over UDP and browser clients over
//! WebSocket at the same time, an authoritative game logic that trusts no client, and SQLite
//! persistence so that neither a dropped connection nor a restart loses a game.
//!
//! Structure:
//! - [`transport`]: renet2 + netcode over a UDP socket and a WebSocket listener, sharded past
//!   netcode's 1,024-client limit, flushing busy clients at once and idle ones every 100 ms.
//! - [`core`]: players, rooms, quick match, live games, clocks, held seats, spectators and
//!   their proposals. Pure state: bytes in, changes to store and messages out.
//! - [`store`]: SQLite (WAL, `synchronous=FULL`) or PostgreSQL, written by its own thread in
//!   group commits.
//! - [`web`]: optionally, HTTP (axum + tower-http on the same tokio runtime as the WebSocket
//!   transport, https with [`tls`]): the browser bundle (`--web DIR`), `/ludus-server.json` with
//!   the ports and `/healthz`; its connections bounded by [`http_limits`]. `/metrics`
//!   ([`metrics`], Prometheus text) only on the separate address of `--metrics`. The
//!   Alquerque oracle ([`oracle`], `GET /api/alquerque/value`) on the same HTTP side.
//!
//! The loop ([`Server::step`]): receive packets, hand each message to the core, submit the
//! tick's changes to the store, and send the tick's messages only once those changes (and every
//! earlier one) are committed. A move is therefore on disk before anyone sees it, and the loop
//! never waits for the disk.
//!
//! [`ServerHandle::spawn`] runs a server on its own thread (tests, and the game's "host on this
//! network"); the `ludus-server` binary runs one in the foreground.

pub mod addresses;
mod bind;
pub mod clock;
mod config;
pub mod core;
pub mod credential;
pub mod faults;
mod handle;
pub mod http_limits;
#[cfg_attr(not(feature = "metrics"), path = "metrics/off.rs")]
pub mod metrics;
pub mod names;
pub mod oracle;
mod status;
pub mod store;
pub mod tls;
pub mod tokens;
pub mod transport;
pub mod web;
pub mod ws;

use crate::core::{ConnId, Core, Effect, Input};
use crate::metrics::Metrics;
use crate::store::Store;
use crate::transport::Transport;
use crate::web::HttpServer;
use crate::ws::WsCounters;
use ludus_protocol::CHANNEL;
use renet2::ServerEvent;
use std::collections::VecDeque;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub use crate::config::{
    DEFAULT_HTTP, DEFAULT_LEASE, DEFAULT_NEW_PLAYERS_PER_MINUTE, DEFAULT_UDP, DEFAULT_WS, ServerConfig,
    ServerError, TlsFiles,
};
pub use crate::core::Stats;
pub use crate::handle::ServerHandle;
pub use crate::status::{RELEASE_BUCKETS_MS, Status, WsStatus};

/// Receive buffer asked for the UDP socket: thousands of clients' packets must fit in it while
/// the loop sleeps or is descheduled (the 208 KiB Linux default overflows under load).
const UDP_BUFFER_BYTES: usize = 8 * 1024 * 1024;

/// Binds the server's UDP socket with large buffers.
fn bind_udp(addr: SocketAddr) -> std::io::Result<UdpSocket> {
    use socket2::{Domain, Protocol, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::DGRAM, Some(Protocol::UDP))?;
    // The kernel caps these at net.core.rmem_max / wmem_max; smaller buffers still work.
    let _ = socket.set_recv_buffer_size(UDP_BUFFER_BYTES);
    let _ = socket.set_send_buffer_size(UDP_BUFFER_BYTES);
    socket.bind(&addr.into())?;
    Ok(socket.into())
}

/// How often the loop talks to the cluster thread (publishes its lobby, asks for seats).
const CLUSTER_EVERY: Duration = Duration::from_millis(100);
/// Work done every `SLOW_TICK` rather than every poll.
const SLOW_TICK: Duration = Duration::from_millis(10);
/// How long a connection being closed still gets its last messages (resends) before it goes.
const LINGER: Duration = Duration::from_millis(300);
/// How often the gauges of `/metrics` are refreshed.
const METRICS_INTERVAL: Duration = Duration::from_millis(500);
/// What a client is told while the database refuses writes.
const STORE_FAILING: &str = "the server cannot store anything right now (its disk is full or its database fails): nothing \
     you send is taken until it can; what it already took is kept. Try again in a moment";
/// Each connection is told [`STORE_FAILING`] at most this often.
const BUSY_EVERY: Duration = Duration::from_secs(1);
/// Longest a shutdown waits for the last messages to go out.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// A running server (driven by [`Server::step`] or [`Server::run`]).
pub struct Server {
    transport: Transport,
    core: Core,
    store: Store,
    runtime: tokio::runtime::Runtime,
    ws_counters: Option<Arc<WsCounters>>,
    udp_addr: Option<SocketAddr>,
    ws_addr: Option<SocketAddr>,
    http: Option<HttpServer>,
    http_addr: Option<SocketAddr>,
    /// The listener of `/metrics` (`--metrics`).
    metrics_http: Option<HttpServer>,
    metrics: Metrics,
    /// The token endpoint's logic (told of the credentials the core issues).
    minter: Arc<tokens::Minter>,
    /// Refusals already counted in `metrics`, by kind.
    refusals_seen: std::collections::HashMap<&'static str, u64>,
    last_metrics: Instant,
    /// Messages waiting for their batch to be committed: (batch, when, moves in it, messages).
    pending: VecDeque<(u64, Instant, usize, Vec<Effect>)>,
    /// What the core called for during this tick, carried out at its end.
    effects: Vec<Effect>,
    release_delay: [u64; RELEASE_BUCKETS_MS.len() + 1],
    max_poll_gap: Duration,
    lingering: Vec<(Instant, ConnId)>,
    last_poll: Instant,
    last_slow: Instant,
    poll_interval: Duration,
    passwords: PasswordWorker,
    /// With PostgreSQL: the cluster thread (lease, takeovers, lobbies of the other nodes).
    cluster: Option<store::cluster::Cluster>,
    last_cluster: Instant,
    /// The lease was lost: the server stops.
    lost: bool,
    /// The database refuses writes: requests are answered here, not by the core (see
    /// [`Server::answer_while_failing`]); when each connection was last told so.
    refusing: bool,
    told_busy: std::collections::HashMap<ConnId, Instant>,
    /// The server's time (see [`clock`]), and when the wall clock was last compared with it.
    clock: Arc<clock::ServerClock>,
    last_clock_check: Instant,
}

/// The password thread: Argon2 hashing and checking (tens of milliseconds each) off the game
/// loop. The loop hands it the core's [`core::PasswordJob`]s and gives the answers back to the
/// core at the start of a tick, like the database reader's player lookups.
struct PasswordWorker {
    tx: Option<std::sync::mpsc::Sender<core::PasswordJob>>,
    rx: std::sync::mpsc::Receiver<core::PasswordAnswer>,
    thread: Option<JoinHandle<()>>,
}

impl PasswordWorker {
    fn start() -> Result<PasswordWorker, std::io::Error> {
        let (tx, jobs) = std::sync::mpsc::channel::<core::PasswordJob>();
        let (answers, rx) = std::sync::mpsc::channel();
        let thread = std::thread::Builder::new().name("ludus-passwords".into()).spawn(move || {
            while let Ok(job) = jobs.recv() {
                if answers.send(core::run_job(job)).is_err() {
                    break;
                }
            }
        })?;
        Ok(PasswordWorker { tx: Some(tx), rx, thread: Some(thread) })
    }
}

impl Drop for PasswordWorker {
    fn drop(&mut self) {
        self.tx = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Server {
    /// Whether this node lost its lease on its games (another node took them over): it has
    /// told its clients to reconnect and must stop.
    pub fn lease_lost(&self) -> bool {
        self.lost
    }

    /// Feeds the cluster thread's news to the core (the other nodes' lobbies, games taken over,
    /// seats found elsewhere, new blocks of numbers) and, every [`CLUSTER_EVERY`], the cluster
    /// tick (this node's lobby and seat checks go out as effects).
    fn cluster_inputs(&mut self, now: Instant) {
        let Some(cluster) = &self.cluster else {
            return;
        };
        let events = cluster.events();
        let tick = now.saturating_duration_since(self.last_cluster) >= CLUSTER_EVERY;
        let accepting = !self.store.is_failing() && !cluster.is_failing();
        for event in events {
            self.feed(Input::Cluster(event));
        }
        if tick {
            self.last_cluster = now;
            self.feed(Input::ClusterTick { accepting });
        }
    }

    /// Gives an input to the core and keeps what it calls for until [`Server::carry_out`].
    fn feed(&mut self, input: Input<'_>) {
        let effects = self.core.handle(input);
        self.effects.extend(effects);
    }

    /// Carries out the effects of this tick: the changes are submitted to the store as one
    /// batch, the messages wait for that batch to be committed ([`Server::release`]), and the
    /// lookups, password work and cluster requests go to their threads.
    fn carry_out(&mut self, now: Instant) {
        let mut ops = Vec::new();
        let mut out = Vec::new();
        let mut moves = 0;
        for effect in std::mem::take(&mut self.effects) {
            match effect {
                Effect::Send(..) | Effect::Close(_) => out.push(effect),
                Effect::Store(op) => ops.push(op),
                Effect::LookUp(request) => self.store.lookup(request),
                Effect::FindGames(request) => self.store.recent_games(request),
                Effect::ReadArchive(request) => self.store.archive(request),
                Effect::HashPassword(job) => {
                    if let Some(tx) = &self.passwords.tx {
                        let _ = tx.send(job);
                    }
                }
                Effect::Issued(hash) => self.minter.vouch(hash),
                Effect::Played { .. } => moves += 1,
                Effect::AskIds(kind) => self.to_cluster(store::cluster::Request::Ids(kind)),
                Effect::FindOwner { player, game } => {
                    self.to_cluster(store::cluster::Request::GameOwner(player, game))
                }
                Effect::Publish(lobby) => self.to_cluster(store::cluster::Request::Publish(lobby)),
                Effect::CheckSeats(players) => self.to_cluster(store::cluster::Request::SeatChecks(players)),
            }
        }
        self.metrics.moves_accepted(moves as u64);
        if !ops.is_empty() {
            self.store.submit(ops);
        }
        if !out.is_empty() || moves > 0 {
            self.pending.push_back((self.store.submitted(), now, moves, out));
        }
    }

    fn to_cluster(&self, request: store::cluster::Request) {
        if let Some(cluster) = &self.cluster {
            cluster.request(request);
        }
    }

    /// When this node lost its lease (another node took its games over): its clients are told to
    /// reconnect, and it stops. Nothing more is stored, so nothing waits for the store.
    fn check_lease(&mut self, now: Instant) {
        if self.cluster.is_none() || !self.store.lease_lost() || self.lost {
            return;
        }
        self.lost = true;
        tracing::error!(
            "this node lost its lease: its games are another node's now; its clients are told to \
             reconnect and it stops"
        );
        for effect in self.core.handle(Input::ShuttingDown) {
            match effect {
                Effect::Send(conn, bytes) => {
                    let renet = self.transport.renet();
                    if renet.is_connected(conn) {
                        renet.send_message(conn, CHANNEL, bytes);
                    }
                }
                Effect::Close(conn) => self.lingering.push((now + LINGER, conn)),
                _ => {}
            }
        }
        self.pending.clear();
    }

    /// The bound UDP address.
    pub fn udp_addr(&self) -> Option<SocketAddr> {
        self.udp_addr
    }

    /// The bound WebSocket address.
    pub fn ws_addr(&self) -> Option<SocketAddr> {
        self.ws_addr
    }

    /// The bound HTTP address (when serving a web directory).
    pub fn http_addr(&self) -> Option<SocketAddr> {
        self.http_addr
    }

    /// The bound address of `/metrics` (`--metrics`).
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_http.as_ref().map(HttpServer::addr)
    }

    /// The tokio runtime of the server's sockets (the binary waits for signals on it).
    pub fn runtime(&self) -> &tokio::runtime::Handle {
        self.runtime.handle()
    }

    /// The metrics (what `GET /metrics` shows on [`Server::metrics_addr`]).
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Counters.
    pub fn stats(&self) -> Stats {
        self.core.stats.clone()
    }

    /// Live games in memory.
    pub fn live_games(&self) -> usize {
        self.core.live_games()
    }

    /// Open connections.
    pub fn connections(&self) -> usize {
        self.transport.client_count()
    }

    /// The counters now.
    pub fn status(&self) -> Status {
        Status {
            stats: self.core.stats.clone(),
            connections: self.transport.client_count(),
            live_games: self.core.live_games(),
            contained_panics: self.transport.panics(),
            handshakes: self.transport.handshakes(),
            pending_handshakes: self.transport.pending(),
            ws: self.ws_counters.as_deref().map(WsStatus::of).unwrap_or_default(),
            db_commits: self.store.commit_stats.commits.load(Ordering::Relaxed),
            db_batches: self.store.commit_stats.batches.load(Ordering::Relaxed),
            db_commit_total_us: self.store.commit_stats.total_us.load(Ordering::Relaxed),
            db_commit_max_us: self.store.commit_stats.max_us.load(Ordering::Relaxed),
            db_backlog: self.store.submitted() - self.store.committed(),
            db_failing: self.refusing,
            release_delay: self.release_delay,
            max_poll_gap_us: self.max_poll_gap.as_micros() as u64,
        }
    }

    /// Starts measuring [`Status::max_poll_gap_us`] afresh.
    pub fn reset_poll_gap(&mut self) {
        self.max_poll_gap = Duration::ZERO;
    }

    /// One iteration: receive, process, store, send.
    pub fn step(&mut self) {
        let now = Instant::now();
        let slow = now.saturating_duration_since(self.last_slow) >= SLOW_TICK;
        if slow {
            self.transport.advance(now.saturating_duration_since(self.last_slow));
        }
        self.max_poll_gap = self.max_poll_gap.max(now.saturating_duration_since(self.last_poll));
        self.last_poll = now;
        if now.saturating_duration_since(self.last_clock_check) >= clock::CHECK_INTERVAL {
            self.last_clock_check = now;
            self.clock.check(now);
        }
        self.feed(Input::Time { now, unix_ms: self.clock.unix_ms_at(now) });
        for found in self.store.looked_up() {
            self.feed(Input::LookedUp(found));
        }
        while let Ok(answer) = self.passwords.rx.try_recv() {
            self.feed(Input::Password(answer));
        }
        for found in self.store.games_found() {
            self.feed(Input::GamesFound(found));
        }
        for found in self.store.archives_found() {
            self.feed(Input::ArchiveFound(found));
        }
        self.transport.receive();
        while let Some(event) = self.transport.renet().get_event() {
            match event {
                ServerEvent::ClientConnected { client_id } => {
                    // Who it signs in as: what the token endpoint wrote into its token.
                    let grant =
                        self.transport.take_user_data(client_id).and_then(|d| credential::Grant::decode(&d));
                    self.feed(Input::Opened { conn: client_id, grant: grant.unwrap_or_default() });
                    if let Some(addr) = self.transport.client_addr(client_id) {
                        self.feed(Input::Origin { conn: client_id, origin: addresses::address_key(&addr) });
                    }
                }
                ServerEvent::ClientDisconnected { client_id, .. } => {
                    self.told_busy.remove(&client_id);
                    self.feed(Input::Closed(client_id));
                }
            }
        }
        self.notice_failing();
        let mut active = self.transport.take_active();
        active.sort_unstable();
        active.dedup();
        for id in active {
            while let Some(bytes) = self.transport.renet().receive_message(id, CHANNEL) {
                if self.refusing {
                    self.answer_while_failing(id, &bytes, now);
                    continue;
                }
                let effects = self.core.handle(Input::Message(id, &bytes));
                self.effects.extend(effects);
            }
        }
        if slow {
            self.last_slow = now;
            self.feed(Input::Timers);
        }
        self.cluster_inputs(now);
        self.carry_out(now);
        self.check_lease(now);
        self.release(now);
        if slow {
            self.transport.maintain();
            faults::flush();
        }
        if now.saturating_duration_since(self.last_metrics) >= METRICS_INTERVAL {
            self.last_metrics = now;
            self.update_metrics();
        }
    }

    /// Follows the database's health: while its writes fail (a full disk, a lost database),
    /// requests are answered by [`Server::answer_while_failing`].
    fn notice_failing(&mut self) {
        let failing = self.store.is_failing();
        if failing == self.refusing {
            return;
        }
        self.refusing = failing;
        self.told_busy.clear();
        if failing {
            tracing::error!(
                database = self.store.describe(),
                "the database refuses writes (a full disk, or a failing database): pings are \
                 answered and every other request is refused with Busy until a write succeeds; \
                 what was already accepted is kept in memory and retried, never dropped"
            );
        } else {
            tracing::warn!(database = self.store.describe(), "the database takes writes again");
        }
    }

    /// Answers a client's message while the database refuses writes, without the core (which
    /// would change its state, and hold every answer until the change is stored): a `Ping`
    /// gets its `Pong` at once, anything else `Busy` with the reason (at most once a second
    /// per connection; the rest is dropped). Nothing is changed, so nothing waits or is lost.
    fn answer_while_failing(&mut self, conn: ConnId, bytes: &[u8], now: Instant) {
        let reply = match ludus_protocol::decode_client(bytes) {
            Ok(ludus_protocol::ClientMessage::Ping { nonce }) => {
                ludus_protocol::ServerMessage::Pong { nonce }
            }
            _ => {
                if self.told_busy.get(&conn).is_some_and(|t| now.saturating_duration_since(*t) < BUSY_EVERY) {
                    return;
                }
                self.told_busy.insert(conn, now);
                ludus_protocol::ServerMessage::Error {
                    code: ludus_protocol::ErrorCode::Busy,
                    message: STORE_FAILING.to_string(),
                }
            }
        };
        if let Ok(bytes) = ludus_protocol::encode(&reply) {
            let renet = self.transport.renet();
            if renet.is_connected(conn) {
                renet.send_message(conn, CHANNEL, bytes);
                self.transport.flush(conn);
            }
        }
    }

    /// Brings the gauges and the refusal counters of [`Server::metrics`] up to date.
    fn update_metrics(&mut self) {
        let [udp, ws] = self.transport.clients_by_socket();
        self.metrics.set_clients(udp, ws);
        self.metrics.set_games_live(self.core.live_games());
        let stats = &self.core.stats;
        self.metrics.games_to(stats.games_started, stats.games_finished);
        self.metrics.network_faults_from(&self.transport.handshakes());
        for (kind, &count) in &stats.refusals {
            let seen = self.refusals_seen.entry(kind).or_default();
            self.metrics.refused(kind, count - *seen);
            *seen = count;
        }
    }

    /// Sends the messages whose changes are stored, in order.
    fn release(&mut self, now: Instant) {
        let committed = self.store.committed();
        let mut dirty: Vec<ConnId> = Vec::new();
        while self.pending.front().is_some_and(|(seq, _, _, _)| *seq <= committed) {
            let Some((_, queued, moves, out)) = self.pending.pop_front() else {
                break;
            };
            let waited = now.saturating_duration_since(queued);
            for _ in 0..moves {
                self.metrics.move_round_trip(waited.as_secs_f64());
            }
            let ms = waited.as_millis() as u64;
            let bucket = RELEASE_BUCKETS_MS.iter().position(|&b| ms < b).unwrap_or(RELEASE_BUCKETS_MS.len());
            self.release_delay[bucket] += 1;
            for o in out {
                match o {
                    Effect::Send(conn, bytes) => {
                        let renet = self.transport.renet();
                        if renet.is_connected(conn) {
                            renet.send_message(conn, CHANNEL, bytes);
                            dirty.push(conn);
                        }
                    }
                    Effect::Close(conn) => self.lingering.push((now + LINGER, conn)),
                    _ => {}
                }
            }
        }
        dirty.sort_unstable();
        dirty.dedup();
        for conn in dirty {
            self.transport.flush(conn);
        }
        if !self.lingering.is_empty() {
            let (due, keep): (Vec<_>, Vec<_>) = self.lingering.drain(..).partition(|(t, _)| *t <= now);
            self.lingering = keep;
            for (_, conn) in due {
                self.transport.disconnect(conn);
            }
        }
    }

    /// Runs until `stop` is set, then shuts down cleanly. `status` (if any) is refreshed every
    /// few milliseconds.
    pub fn run(mut self, stop: &AtomicBool, status: Option<&Mutex<Status>>) {
        let mut published = Instant::now();
        while !stop.load(Ordering::Relaxed) && !self.lost {
            self.step();
            if let Some(status) = status
                && published.elapsed() >= SLOW_TICK
            {
                published = Instant::now();
                if let Ok(mut s) = status.lock() {
                    *s = self.status();
                }
            }
            std::thread::sleep(self.poll_interval);
        }
        self.shutdown();
    }

    /// Stops cleanly: stops accepting HTTP connections, tells every client that the server is
    /// restarting, stores everything accepted, sends what is stored, gives the last messages a
    /// moment to arrive (resends included), then disconnects everyone.
    pub fn shutdown(mut self) {
        self.http = None;
        self.feed(Input::ShuttingDown);
        let deadline = Instant::now() + SHUTDOWN_GRACE;
        loop {
            self.step();
            let done = self.pending.is_empty() && self.lingering.is_empty();
            if done || Instant::now() >= deadline {
                break;
            }
            std::thread::sleep(self.poll_interval.max(Duration::from_millis(1)));
        }
        // A node that lost its lease stores nothing more: nothing to wait for.
        let stored = !self.lost && self.store.sync(Duration::from_secs(10));
        self.release(Instant::now());
        self.transport.disconnect_all();
        self.transport.close();
        tracing::info!(stored, "stopped");
    }
}
