//! The WebSocket port: netcode packets over WebSocket (or WebSocket over TLS), as renet2's
//! browser client speaks it: the client's netcode connection request travels in the upgrade
//! request's URL (`?creq=<percent-encoded bytes>`), then every netcode packet is one binary
//! message each way.
//!
//! renet2_netcode 0.16.3's own `WebSocketServer` stops accepting for good after one failed
//! `accept` (`EMFILE` when descriptors run out), gives a handshake all the time it wants, takes
//! messages up to tungstenite's 64 MiB and any number of connections from one address. This
//! socket is ours, on tokio-tungstenite (and tokio-rustls for `wss://`), with every bound
//! explicit:
//! - the accept loop never ends: a failed `accept` is counted, logged (rate-limited) and
//!   retried after a pause that grows while it keeps failing (10 ms to 1 s);
//! - at most [`WsLimits::per_address`] connections from one address (IPv4 address or IPv6
//!   /64) and [`WsLimits::max_connections`] in all; a connection beyond is closed at once;
//! - TLS and the HTTP upgrade must be done within [`WsLimits::handshake_timeout`];
//! - a message may not be larger than a netcode packet ([`MAX_MESSAGE_BYTES`]); a larger one
//!   (or a larger frame) closes the connection before it is buffered;
//! - a connection that sends nothing for [`WsLimits::idle_timeout`] is closed (netcode sends
//!   keep-alives every 250 ms), and a send that the client does not read within
//!   [`WsLimits::write_timeout`] closes it too;
//! - frames that carry no netcode packet (empty binary messages, pings, pongs, text) are never
//!   passed on, and each takes one from a per-connection [`FrameBudget`]
//!   ([`WsLimits::empty_frames_burst`], refilled at [`WsLimits::empty_frames_per_second`]): a
//!   connection past it is closed. Clients send none (browsers never ping on their own;
//!   renet2's client sends netcode packets only), while a flood of them otherwise costs the
//!   server a core (each frame is parsed, each ping answered) and keeps the connection alive.
//!
//! Netcode keeps encrypting inside TLS (the socket says it is not encrypted): renetcode2
//! 0.16.3's unencrypted mode sends 8 bytes of a buffer shared by all clients in every packet.

use crate::addresses::address_key;
use crate::faults;
use crate::transport::CONNECTION_REQUEST_BYTES;
use futures_util::{SinkExt, StreamExt};
use renet2_netcode::{NetcodeTransportError, ServerSocket};
use std::collections::HashMap;
use std::io::{self, ErrorKind};
use std::net::{IpAddr, Ipv6Addr, SocketAddr, SocketAddrV6};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::{StatusCode, Uri};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// Largest WebSocket message (and frame) accepted: one netcode packet. Clients never send more
/// (renet2 splits larger messages into packets of at most this size; the server's largest
/// client message is [`ludus_protocol::MAX_CLIENT_MESSAGE_BYTES`]).
pub const MAX_MESSAGE_BYTES: usize = renetcode2::NETCODE_MAX_PACKET_BYTES;

/// The query parameter with the connection request (renet2_netcode's `HTTP_CONNECT_REQ`).
const CONNECT_REQ: &str = "creq";

/// Bounds of the WebSocket port.
#[derive(Clone, Debug)]
pub struct WsLimits {
    /// Open connections from one address (IPv4 address, IPv6 /64).
    pub per_address: usize,
    /// Open connections in all (handshakes included).
    pub max_connections: usize,
    /// Time to finish TLS and the HTTP upgrade.
    pub handshake_timeout: Duration,
    /// Silence after which a connection is closed.
    pub idle_timeout: Duration,
    /// Time a client has to take one message the server sends.
    pub write_timeout: Duration,
    /// Frames carrying no netcode packet (empty, ping, pong, text) one connection may send in
    /// a burst...
    pub empty_frames_burst: u32,
    /// ...and per second after it; past that, the connection is closed.
    pub empty_frames_per_second: u32,
}

impl WsLimits {
    /// The defaults for a server of `max_clients`.
    pub fn for_clients(max_clients: usize) -> WsLimits {
        WsLimits {
            per_address: 16,
            max_connections: max_clients + max_clients / 4 + 16,
            handshake_timeout: Duration::from_secs(5),
            idle_timeout: Duration::from_secs(15),
            write_timeout: Duration::from_secs(10),
            empty_frames_burst: 32,
            empty_frames_per_second: 4,
        }
    }
}

/// Counters of the WebSocket port.
#[derive(Debug, Default)]
pub struct WsCounters {
    /// Connections accepted.
    pub accepted: AtomicU64,
    /// `accept` calls that failed (descriptors exhausted, ...).
    pub accept_errors: AtomicU64,
    /// Connections closed at once: too many from that address, or in all.
    pub refused: AtomicU64,
    /// Handshakes that timed out or failed.
    pub handshake_failures: AtomicU64,
    /// Connections closed for an oversized or malformed message.
    pub bad_messages: AtomicU64,
    /// Connections closed for sending too many frames that carry nothing (empty, control, text).
    pub empty_floods: AtomicU64,
    /// Connections open now.
    pub open: AtomicUsize,
}

enum Event {
    /// A connection finished its upgrade; its connection request and its outbox.
    Open { id: u64, request: Vec<u8>, outbox: mpsc::Sender<Vec<u8>> },
    /// A netcode packet from a connection.
    Packet { id: u64, bytes: Vec<u8> },
    /// A connection ended.
    Closed { id: u64 },
}

/// Open connections per address, shared with the accept loop.
#[derive(Default)]
struct Occupancy {
    per_address: HashMap<IpAddr, usize>,
    total: usize,
}

/// A slot taken in [`Occupancy`], given back when the connection ends.
struct Slot {
    occupancy: Arc<Mutex<Occupancy>>,
    key: IpAddr,
    counters: Arc<WsCounters>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut occ = self.occupancy.lock().unwrap_or_else(PoisonError::into_inner);
        occ.total = occ.total.saturating_sub(1);
        if let Some(n) = occ.per_address.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                occ.per_address.remove(&self.key);
            }
        }
        self.counters.open.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The address netcode knows a WebSocket connection by: one per connection, never reused.
/// The connection's number (below 2^48) sits in the upper 64 bits, so that each is its own
/// "address" for the transport's per-address bounds (the real address is bounded here, at
/// accept).
fn conn_addr(id: u64) -> SocketAddr {
    let ip = Ipv6Addr::from((0xfd00u128 << 112) | (u128::from(id & ID_MASK) << 64));
    SocketAddr::V6(SocketAddrV6::new(ip, 1, 0, 0))
}

const ID_MASK: u64 = (1 << 48) - 1;

fn conn_id(addr: SocketAddr) -> Option<u64> {
    match addr {
        SocketAddr::V6(a) if u128::from(*a.ip()) >> 112 == 0xfd00 => {
            Some((u128::from(*a.ip()) >> 64) as u64 & ID_MASK)
        }
        _ => None,
    }
}

/// The WebSocket port as a netcode [`ServerSocket`].
pub struct WsServer {
    addr: SocketAddr,
    events: mpsc::Receiver<Event>,
    outboxes: HashMap<u64, mpsc::Sender<Vec<u8>>>,
    accept_task: tokio::task::JoinHandle<()>,
    counters: Arc<WsCounters>,
    closed: bool,
}

impl std::fmt::Debug for WsServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WsServer").field("addr", &self.addr).field("open", &self.outboxes.len()).finish()
    }
}

impl WsServer {
    /// Binds `listen` and starts accepting on `runtime`; `tls` serves `wss://`.
    pub fn bind(
        listen: SocketAddr,
        limits: WsLimits,
        tls: Option<tokio_rustls::TlsAcceptor>,
        runtime: &tokio::runtime::Handle,
    ) -> io::Result<WsServer> {
        let listener = runtime.block_on(async { TcpListener::bind(listen).await })?;
        let addr = listener.local_addr()?;
        // Packets from all connections, in order; a full queue makes readers wait (TCP pushes
        // back on the clients) rather than drop packets of a reliable transport.
        let (events_tx, events) = mpsc::channel(8192);
        let counters = Arc::new(WsCounters::default());
        let accept_task = runtime.spawn(accept_loop(listener, limits, tls, events_tx, counters.clone()));
        Ok(WsServer { addr, events, outboxes: HashMap::new(), accept_task, counters, closed: false })
    }

    /// The port's counters.
    pub fn counters(&self) -> Arc<WsCounters> {
        self.counters.clone()
    }
}

fn fd_exhaustion(e: &io::Error) -> bool {
    // EMFILE, ENFILE, ENOBUFS, ENOMEM.
    matches!(e.raw_os_error(), Some(24 | 23 | 105 | 12))
}

async fn accept_loop(
    listener: TcpListener,
    limits: WsLimits,
    tls: Option<tokio_rustls::TlsAcceptor>,
    events: mpsc::Sender<Event>,
    counters: Arc<WsCounters>,
) {
    let occupancy = Arc::new(Mutex::new(Occupancy::default()));
    let next_id = Arc::new(AtomicU64::new(1));
    let mut pause = Duration::from_millis(10);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => {
                pause = Duration::from_millis(10);
                accepted
            }
            Err(e) => {
                counters.accept_errors.fetch_add(1, Ordering::Relaxed);
                faults::note_detail("WebSocket accept failed (retrying)", &e.to_string());
                if fd_exhaustion(&e) {
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(1));
                } else {
                    // A connection reset before it was accepted, and the like.
                    tokio::task::yield_now().await;
                }
                continue;
            }
        };
        let key = address_key(&peer);
        {
            let mut occ = occupancy.lock().unwrap_or_else(PoisonError::into_inner);
            let from_peer = occ.per_address.get(&key).copied().unwrap_or(0);
            if from_peer >= limits.per_address || occ.total >= limits.max_connections {
                drop(occ);
                counters.refused.fetch_add(1, Ordering::Relaxed);
                faults::note("WebSocket connection refused: too many from one address or in all");
                drop(stream);
                continue;
            }
            occ.total += 1;
            *occ.per_address.entry(key).or_default() += 1;
        }
        counters.accepted.fetch_add(1, Ordering::Relaxed);
        counters.open.fetch_add(1, Ordering::Relaxed);
        let slot = Slot { occupancy: occupancy.clone(), key, counters: counters.clone() };
        let id = next_id.fetch_add(1, Ordering::Relaxed);
        let (limits, tls, events, counters) = (limits.clone(), tls.clone(), events.clone(), counters.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let _ = stream.set_nodelay(true);
            match tls {
                Some(acceptor) => {
                    let deadline = tokio::time::Instant::now() + limits.handshake_timeout;
                    match tokio::time::timeout_at(deadline, acceptor.accept(stream)).await {
                        Ok(Ok(stream)) => serve(stream, id, deadline, &limits, &events, &counters).await,
                        _ => {
                            counters.handshake_failures.fetch_add(1, Ordering::Relaxed);
                            faults::note("WebSocket TLS handshake failed or timed out");
                        }
                    }
                }
                None => {
                    let deadline = tokio::time::Instant::now() + limits.handshake_timeout;
                    serve(stream, id, deadline, &limits, &events, &counters).await;
                }
            }
        });
    }
}

/// The connection request in an upgrade request's query.
fn connection_request(uri: &Uri) -> Option<Vec<u8>> {
    let query = uri.query()?;
    let value = query.split('&').find_map(|pair| pair.strip_prefix(CONNECT_REQ)?.strip_prefix('='))?;
    let bytes: Vec<u8> = percent_encoding::percent_decode_str(value).collect();
    (bytes.len() == CONNECTION_REQUEST_BYTES).then_some(bytes)
}

fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .max_write_buffer_size(64 * 1024)
        .max_message_size(Some(MAX_MESSAGE_BYTES))
        .max_frame_size(Some(MAX_MESSAGE_BYTES))
}

/// A connection's allowance of frames that carry no netcode packet: a token bucket.
#[derive(Debug)]
pub struct FrameBudget {
    tokens: f64,
    burst: f64,
    per_second: f64,
    last: tokio::time::Instant,
}

impl FrameBudget {
    /// A full budget of `burst`, refilled at `per_second`.
    pub fn new(burst: u32, per_second: u32, now: tokio::time::Instant) -> FrameBudget {
        FrameBudget {
            tokens: f64::from(burst),
            burst: f64::from(burst),
            per_second: f64::from(per_second),
            last: now,
        }
    }

    /// Takes one frame at `now`; `false` once the budget is spent.
    pub fn take(&mut self, now: tokio::time::Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Whether `message` carries nothing for netcode.
fn carries_nothing(message: &Message) -> bool {
    match message {
        Message::Binary(bytes) => bytes.is_empty(),
        Message::Close(_) => false,
        Message::Text(_) | Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => true,
    }
}

/// One connection: the upgrade (by `deadline`), then packets both ways until either side ends.
async fn serve<S: AsyncRead + AsyncWrite + Unpin>(
    stream: S,
    id: u64,
    deadline: tokio::time::Instant,
    limits: &WsLimits,
    events: &mpsc::Sender<Event>,
    counters: &WsCounters,
) {
    let mut request = None;
    // The error type is tungstenite's (an HTTP response).
    #[allow(clippy::result_large_err)]
    let callback = |req: &Request, res: Response| match connection_request(req.uri()) {
        Some(r) => {
            request = Some(r);
            Ok(res)
        }
        None => {
            let mut refusal = ErrorResponse::new(Some("no netcode connection request in the URL".into()));
            *refusal.status_mut() = StatusCode::BAD_REQUEST;
            Err(refusal)
        }
    };
    let upgrade = tokio_tungstenite::accept_hdr_async_with_config(stream, callback, Some(ws_config()));
    let mut ws = match tokio::time::timeout_at(deadline, upgrade).await {
        Ok(Ok(ws)) => ws,
        _ => {
            counters.handshake_failures.fetch_add(1, Ordering::Relaxed);
            faults::note("WebSocket upgrade failed or timed out");
            return;
        }
    };
    let Some(request) = request else {
        return; // The callback refused the upgrade.
    };
    let (outbox, mut outgoing) = mpsc::channel::<Vec<u8>>(256);
    if events.send(Event::Open { id, request, outbox }).await.is_err() {
        return;
    }
    let mut budget = FrameBudget::new(
        limits.empty_frames_burst,
        limits.empty_frames_per_second,
        tokio::time::Instant::now(),
    );
    loop {
        tokio::select! {
            message = tokio::time::timeout(limits.idle_timeout, ws.next()) => match message {
                Ok(Some(Ok(message))) if carries_nothing(&message) => {
                    // Pings are answered by tungstenite; nothing else is done with these.
                    if !budget.take(tokio::time::Instant::now()) {
                        counters.empty_floods.fetch_add(1, Ordering::Relaxed);
                        faults::note("WebSocket connection closed: too many empty or control frames");
                        break;
                    }
                }
                Ok(Some(Ok(Message::Binary(bytes)))) => {
                    if events.send(Event::Packet { id, bytes: bytes.to_vec() }).await.is_err() {
                        break;
                    }
                }
                Ok(Some(Ok(_))) | Ok(None) | Err(_) => break,
                Ok(Some(Err(e))) => {
                    use tokio_tungstenite::tungstenite::Error;
                    if matches!(e, Error::Capacity(_) | Error::Protocol(_)) {
                        counters.bad_messages.fetch_add(1, Ordering::Relaxed);
                        faults::note_detail("WebSocket connection closed for a bad message", &e.to_string());
                    }
                    break;
                }
            },
            packet = outgoing.recv() => match packet {
                Some(packet) => {
                    let sent = tokio::time::timeout(limits.write_timeout, ws.send(Message::binary(packet))).await;
                    if !matches!(sent, Ok(Ok(()))) {
                        break;
                    }
                }
                // The server closed this connection.
                None => {
                    let _ = tokio::time::timeout(Duration::from_secs(1), ws.close(None)).await;
                    break;
                }
            },
        }
    }
    let _ = events.send(Event::Closed { id }).await;
}

impl ServerSocket for WsServer {
    fn is_encrypted(&self) -> bool {
        // Even behind TLS: netcode's unencrypted mode leaks a shared buffer (see the module
        // documentation).
        false
    }

    fn is_reliable(&self) -> bool {
        true
    }

    fn addr(&self) -> io::Result<SocketAddr> {
        Ok(self.addr)
    }

    fn is_closed(&mut self) -> bool {
        self.closed
    }

    fn close(&mut self) {
        self.accept_task.abort();
        self.outboxes.clear();
        self.closed = true;
    }

    fn connection_denied(&mut self, addr: SocketAddr) {
        self.disconnect(addr);
    }

    fn connection_accepted(&mut self, _client_id: u64, _addr: SocketAddr) {}

    fn disconnect(&mut self, addr: SocketAddr) {
        // Dropping the outbox ends the connection's task, which closes it.
        if let Some(id) = conn_id(addr) {
            self.outboxes.remove(&id);
        }
    }

    fn preupdate(&mut self) {}

    fn try_recv(&mut self, buffer: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        loop {
            let event = match self.events.try_recv() {
                Ok(event) => event,
                Err(_) => return Err(io::Error::from(ErrorKind::WouldBlock)),
            };
            let (id, bytes) = match event {
                Event::Open { id, request, outbox } => {
                    self.outboxes.insert(id, outbox);
                    (id, request)
                }
                Event::Packet { id, bytes } => {
                    if !self.outboxes.contains_key(&id) {
                        continue; // Closed by the server meanwhile.
                    }
                    (id, bytes)
                }
                Event::Closed { id } => {
                    self.outboxes.remove(&id);
                    continue;
                }
            };
            if bytes.len() > buffer.len() {
                self.outboxes.remove(&id);
                continue;
            }
            buffer[..bytes.len()].copy_from_slice(&bytes);
            return Ok((bytes.len(), conn_addr(id)));
        }
    }

    fn postupdate(&mut self) {}

    fn send(&mut self, addr: SocketAddr, packet: &[u8]) -> Result<(), NetcodeTransportError> {
        let outbox = conn_id(addr).and_then(|id| self.outboxes.get(&id));
        let Some(outbox) = outbox else {
            return Err(io::Error::from(ErrorKind::ConnectionAborted).into());
        };
        match outbox.try_send(packet.to_vec()) {
            Ok(()) => Ok(()),
            // A client that does not read what it is sent. renet2 relies on this transport
            // being reliable, so a packet may not be dropped: the connection goes (the client
            // reconnects and takes its seat back).
            Err(_) => {
                faults::note("WebSocket client not reading: connection closed");
                if let Some(id) = conn_id(addr) {
                    self.outboxes.remove(&id);
                }
                Err(io::Error::from(ErrorKind::ConnectionAborted).into())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{FrameBudget, carries_nothing, conn_addr, conn_id, connection_request};
    use crate::addresses::address_key;
    use crate::transport::CONNECTION_REQUEST_BYTES;
    use std::time::Duration;
    use tokio_tungstenite::tungstenite::Message;

    #[test]
    fn connection_addresses_round_trip_and_are_distinct_keys() {
        for id in [1u64, 2, 77, u64::from(u32::MAX) + 5] {
            assert_eq!(conn_id(conn_addr(id)), Some(id));
        }
        assert_ne!(address_key(&conn_addr(1)), address_key(&conn_addr(2)));
        assert_eq!(conn_id("127.0.0.1:5".parse().unwrap()), None);
    }

    #[test]
    fn frames_that_carry_nothing_are_budgeted() {
        let start = tokio::time::Instant::now();
        let mut budget = FrameBudget::new(32, 4, start);
        assert!((0..32).all(|_| budget.take(start)), "the burst");
        assert!(!budget.take(start), "past the burst");
        assert!(budget.take(start + Duration::from_millis(250)), "one more after a quarter second");
        assert!(!budget.take(start + Duration::from_millis(250)));
        // A long pause refills no more than the burst.
        let later = start + Duration::from_secs(3600);
        assert_eq!((0..100).filter(|_| budget.take(later)).count(), 32);
        assert!(carries_nothing(&Message::binary(Vec::new())));
        assert!(carries_nothing(&Message::Ping(Vec::new().into())));
        assert!(carries_nothing(&Message::text("hi")));
        assert!(!carries_nothing(&Message::binary(vec![1])));
    }

    #[test]
    fn connection_request_from_the_query() {
        let bytes: Vec<u8> = (0..CONNECTION_REQUEST_BYTES).map(|i| i as u8).collect();
        let encoded: String = bytes.iter().map(|b| format!("%{b:02X}")).collect();
        let uri = format!("/?x=1&creq={encoded}").parse().unwrap();
        assert_eq!(connection_request(&uri), Some(bytes));
        assert_eq!(connection_request(&"/?creq=%00%01".parse().unwrap()), None);
        assert_eq!(connection_request(&"/".parse().unwrap()), None);
    }
}
