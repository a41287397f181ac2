//! The connections of the server's HTTP listeners (the token port with the bundle of `--web`,
//! and `--metrics`): how many, whose, and for how long.
//!
//! - **Slots, shared fairly.** At most [`HttpLimits::max_connections`] connections at once, and
//!   at most [`HttpLimits::max_per_address`] from one address: an IPv4 address, or an IPv6 /64
//!   (an IPv4-mapped IPv6 address counts as its IPv4 address), the same key as every other
//!   per-address limit of the server ([`crate::addresses::address_key`]). When every slot is
//!   taken, a newcomer that holds fewer slots than the address holding the most takes one of
//!   that address's: its oldest connection is closed. Whoever holds the most slots therefore
//!   gives them up first, and a client with none always gets one, however many addresses an
//!   attacker fills the slots from. A newcomer that holds as many as anyone is refused (`503`
//!   with `Retry-After: 1` over plain HTTP; closed over TLS).
//! - **Deadlines on the whole request.** The TLS handshake within
//!   [`HttpLimits::handshake_timeout`]; a request head within [`HttpLimits::header_timeout`]
//!   (hyper's header-read timeout, also the longest idle time between kept-alive requests); a
//!   request body within [`HttpLimits::body_timeout`] of its head (`408`, then the connection
//!   is closed; see `web.rs`); and a client that takes nothing of what the server writes for
//!   [`HttpLimits::write_timeout`] is dropped ([`WriteTimeout`], under TLS too).

use crate::addresses::address_key;
use crate::metrics::Metrics;
use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{oneshot, watch};
use tokio_rustls::TlsAcceptor;
use tower::ServiceExt;

/// Largest request head, in bytes (hyper answers `431` beyond).
pub const MAX_HEAD: usize = 16 * 1024;

/// Bounds of an HTTP listener.
#[derive(Clone, Debug)]
pub struct HttpLimits {
    /// Most connections at once.
    pub max_connections: usize,
    /// Most connections at once from one address (IPv4 address, IPv6 /64).
    pub max_per_address: usize,
    /// Time to send a request head (also the idle time between keep-alive requests).
    pub header_timeout: Duration,
    /// Time to send a request body once its head is in.
    pub body_timeout: Duration,
    /// Longest time a client may take none of what the server writes to it.
    pub write_timeout: Duration,
    /// Time to finish a TLS handshake.
    pub handshake_timeout: Duration,
}

/// Default of [`HttpLimits::max_connections`].
pub const DEFAULT_MAX_CONNECTIONS: usize = 256;
/// Default of [`HttpLimits::max_per_address`]: a sixteenth of the slots (a browser opens up to
/// six connections to a server: two or three devices behind one address load the bundle at
/// once).
pub const DEFAULT_MAX_PER_ADDRESS: usize = 16;

impl Default for HttpLimits {
    fn default() -> HttpLimits {
        HttpLimits {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_per_address: DEFAULT_MAX_PER_ADDRESS,
            header_timeout: Duration::from_secs(10),
            // A token request's body (a few dozen bytes) travels with its head.
            body_timeout: Duration::from_secs(5),
            write_timeout: Duration::from_secs(10),
            handshake_timeout: Duration::from_secs(5),
        }
    }
}

/// The address of the connection a request came on (an extension of every request).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Peer(pub SocketAddr);

/// The open connections, by limiting key, each with the sender whose drop closes it.
#[derive(Default)]
struct Table {
    next_id: u64,
    total: usize,
    by_key: HashMap<IpAddr, BTreeMap<u64, oneshot::Sender<()>>>,
}

impl Table {
    /// A slot for a connection from `key`, evicting the oldest connection of the address holding
    /// the most when all are taken (see the module documentation); `None`: refused. The
    /// receiver completes when the connection is evicted.
    fn admit(&mut self, key: IpAddr, limits: &HttpLimits) -> Option<(u64, oneshot::Receiver<()>)> {
        let mine = self.by_key.get(&key).map_or(0, BTreeMap::len);
        if mine >= limits.max_per_address {
            return None;
        }
        if self.total >= limits.max_connections {
            // The address with the most connections; among equals, the one with the oldest.
            let victim = self
                .by_key
                .iter()
                .filter_map(|(k, conns)| Some((conns.len(), std::cmp::Reverse(*conns.keys().next()?), *k)))
                .max()
                .filter(|(most, _, _)| *most > mine);
            let (_, std::cmp::Reverse(id), victim) = victim?;
            self.release(victim, id);
        }
        let id = self.next_id;
        self.next_id += 1;
        let (evict, evicted) = oneshot::channel();
        self.by_key.entry(key).or_default().insert(id, evict);
        self.total += 1;
        Some((id, evicted))
    }

    /// Gives a slot back (nothing if it was already taken away).
    fn release(&mut self, key: IpAddr, id: u64) {
        let Some(conns) = self.by_key.get_mut(&key) else {
            return;
        };
        if conns.remove(&id).is_some() {
            self.total -= 1;
        }
        if conns.is_empty() {
            self.by_key.remove(&key);
        }
    }
}

/// A connection's place in the [`Table`], given back when dropped.
struct Slot {
    table: Arc<Mutex<Table>>,
    key: IpAddr,
    id: u64,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.table.lock().unwrap_or_else(PoisonError::into_inner).release(self.key, self.id);
    }
}

/// An I/O stream whose writes fail once the peer has taken nothing for `timeout` (a write,
/// flush or shutdown pending that long), so that a client that does not read cannot hold a
/// connection; reads pass through.
pub struct WriteTimeout<I> {
    io: I,
    timeout: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
    expired: bool,
    on_expiry: Option<OnExpiry>,
}

/// What a [`WriteTimeout`] calls when its stream times out (it counts them).
pub type OnExpiry = Arc<dyn Fn() + Send + Sync>;

impl<I> WriteTimeout<I> {
    /// Wraps `io`; `on_expiry` counts the streams that timed out.
    pub fn new(io: I, timeout: Duration, on_expiry: Option<OnExpiry>) -> WriteTimeout<I> {
        WriteTimeout { io, timeout, stalled: None, expired: false, on_expiry }
    }

    fn expired() -> io::Error {
        io::Error::new(io::ErrorKind::TimedOut, "the client took nothing within the write timeout")
    }

    /// Starts the timer on a pending write, stops it on progress, fails once it ran out.
    fn watch<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let timeout = self.timeout;
        let stalled = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        if stalled.as_mut().poll(cx).is_pending() {
            return Poll::Pending;
        }
        self.stalled = None;
        self.expired = true;
        if let Some(count) = &self.on_expiry {
            count();
        }
        Poll::Ready(Err(Self::expired()))
    }
}

impl<I: AsyncRead + Unpin> AsyncRead for WriteTimeout<I> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for WriteTimeout<I> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.expired {
            return Poll::Ready(Err(Self::expired()));
        }
        let poll = Pin::new(&mut this.io).poll_write(cx, buf);
        this.watch(cx, poll)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.expired {
            return Poll::Ready(Err(Self::expired()));
        }
        let poll = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.watch(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.expired {
            return Poll::Ready(Err(Self::expired()));
        }
        let poll = Pin::new(&mut this.io).poll_flush(cx);
        this.watch(cx, poll)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.expired {
            return Poll::Ready(Err(Self::expired()));
        }
        let poll = Pin::new(&mut this.io).poll_shutdown(cx);
        this.watch(cx, poll)
    }
}

/// Why connections were closed early, as counted by
/// [`Metrics::http_closed`]: (label, what the rate-limited log says).
const BUSY_REFUSED: (&str, &str) = ("busy", "HTTP connection refused: no free slot for its address");
const EVICTED: (&str, &str) = ("evicted", "HTTP connection closed: its slot went to another address");
const HANDSHAKE: (&str, &str) = ("handshake_timeout", "HTTP TLS handshake failed or timed out");

fn closed(metrics: &Metrics, (label, line): (&'static str, &'static str)) {
    metrics.http_closed(label);
    crate::faults::note(line);
}

const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n\
Retry-After: 1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nbusy\n";

/// Accepts on `listener` and serves `app` on each connection within `limits`, until `stop`
/// changes.
pub(crate) async fn accept_loop(
    listener: TcpListener,
    app: Router,
    tls: Option<TlsAcceptor>,
    limits: HttpLimits,
    metrics: Metrics,
    mut stop: watch::Receiver<bool>,
) {
    let table = Arc::new(Mutex::new(Table::default()));
    loop {
        let accepted = tokio::select! {
            _ = stop.changed() => return,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of file descriptors and the like: wait a little rather than spin.
                crate::faults::note_detail("HTTP accept failed (retrying)", &e.to_string());
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let key = address_key(&peer);
        let admitted = table.lock().unwrap_or_else(PoisonError::into_inner).admit(key, &limits);
        let Some((id, evicted)) = admitted else {
            closed(&metrics, BUSY_REFUSED);
            if tls.is_none() {
                tokio::spawn(refuse(stream));
            }
            continue;
        };
        let slot = Slot { table: table.clone(), key, id };
        let (app, tls, limits, metrics) = (app.clone(), tls.clone(), limits.clone(), metrics.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let counted = metrics.clone();
            let expiry: OnExpiry = Arc::new(move || counted.http_closed("write_timeout"));
            let io = WriteTimeout::new(stream, limits.write_timeout, Some(expiry));
            let work = async {
                match tls {
                    Some(acceptor) => {
                        match tokio::time::timeout(limits.handshake_timeout, acceptor.accept(io)).await {
                            Ok(Ok(stream)) => serve(stream, app, &limits, peer).await,
                            _ => closed(&metrics, HANDSHAKE),
                        }
                    }
                    None => serve(io, app, &limits, peer).await,
                }
            };
            tokio::select! {
                _ = evicted => closed(&metrics, EVICTED),
                () = work => {}
            }
        });
    }
}

async fn refuse(mut stream: TcpStream) {
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(BUSY).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

async fn serve<I>(io: I, app: Router, limits: &HttpLimits, peer: SocketAddr)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let service = TowerToHyperService::new(app.map_request(move |req: Request<hyper::body::Incoming>| {
        let mut req = req.map(Body::new);
        req.extensions_mut().insert(Peer(peer));
        req
    }));
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_HEAD)
        .keep_alive(true);
    let _ = builder.serve_connection(TokioIo::new(io), service).await;
}

#[cfg(test)]
mod tests {
    use super::{HttpLimits, OnExpiry, Table, WriteTimeout};
    use crate::addresses::address_key;
    use std::io;
    use std::net::IpAddr;
    use std::net::SocketAddr;
    use std::sync::Arc;
    use std::time::Duration;
    use tokio::io::AsyncWriteExt;
    use tokio::sync::oneshot::error::TryRecvError;

    fn key(ip: &str) -> IpAddr {
        address_key(&SocketAddr::new(ip.parse().unwrap(), 1))
    }

    #[test]
    fn ipv6_addresses_are_limited_by_their_64() {
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff:ffff:ffff:fffe"), "one /64");
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"), "the next /64");
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db9:1:2::1"));
        assert_eq!(key("::ffff:192.0.2.7"), key("192.0.2.7"), "IPv4-mapped is IPv4");
        assert_ne!(key("192.0.2.7"), key("192.0.2.8"), "IPv4: the whole address");
    }

    #[test]
    fn the_defaults_are_sane() {
        let d = HttpLimits::default();
        assert!(d.max_per_address >= 6, "a browser's connections fit");
        assert!(d.max_per_address * 8 <= d.max_connections, "one address holds a small share");
        for t in [d.header_timeout, d.body_timeout, d.write_timeout, d.handshake_timeout] {
            assert!(t >= Duration::from_secs(2) && t <= Duration::from_secs(30), "{t:?}");
        }
        assert!(d.body_timeout <= d.header_timeout);
    }

    #[test]
    fn a_full_table_takes_from_the_address_holding_the_most() {
        let limits = HttpLimits { max_connections: 6, max_per_address: 3, ..HttpLimits::default() };
        let mut table = Table::default();
        let (a, b, c) = (key("10.0.0.1"), key("2001:db8::1"), key("10.0.0.3"));
        let mut of_a: Vec<_> = (0..3).map(|_| table.admit(a, &limits).unwrap()).collect();
        assert!(table.admit(a, &limits).is_none(), "an address's own cap");
        assert!(table.admit(key("10.0.0.1"), &limits).is_none());
        let mut of_b: Vec<_> = (0..2).map(|_| table.admit(b, &limits).unwrap()).collect();
        assert!(table.admit(key("2001:db8::ffff"), &limits).is_some(), "the same /64: its third");
        // Full: a newcomer takes the oldest slot of the address with the most (a's first).
        let mut c1 = table.admit(c, &limits).unwrap();
        assert_eq!(table.total, 6);
        assert_eq!(of_a[0].1.try_recv(), Err(TryRecvError::Closed), "the oldest is evicted");
        assert_eq!(of_a[1].1.try_recv(), Err(TryRecvError::Empty));
        // b holds 3 now, a 2: b gives one up.
        let _c2 = table.admit(c, &limits).unwrap();
        assert_eq!(of_b[0].1.try_recv(), Err(TryRecvError::Closed));
        assert_eq!(of_b[1].1.try_recv(), Err(TryRecvError::Empty));
        // Everyone holds 2: no one takes from anyone.
        assert!(table.admit(c, &limits).is_none());
        assert!(table.admit(a, &limits).is_none());
        assert_eq!(c1.1.try_recv(), Err(TryRecvError::Empty));
        // A slot given back (evicted or not) is counted once.
        table.release(a, of_a[0].0);
        assert_eq!(table.total, 6);
        table.release(a, of_a[1].0);
        assert_eq!(table.total, 5);
        assert!(table.admit(key("10.0.0.9"), &limits).is_some());
    }

    #[test]
    fn a_client_that_does_not_read_gets_a_write_error() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let (server, client) = tokio::io::duplex(64);
            let expired = Arc::new(std::sync::atomic::AtomicU64::new(0));
            let counter = expired.clone();
            let count: OnExpiry = Arc::new(move || {
                counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            });
            let mut io = WriteTimeout::new(server, Duration::from_millis(50), Some(count));
            // Writes that fit go through at once.
            io.write_all(&[1; 64]).await.unwrap();
            let started = tokio::time::Instant::now();
            let e = io.write_all(&[2; 64]).await.unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::TimedOut);
            assert!(started.elapsed() >= Duration::from_millis(50));
            assert_eq!(expired.load(std::sync::atomic::Ordering::Relaxed), 1);
            assert!(io.flush().await.is_err(), "it stays failed");
            // A reader that keeps up is never cut off.
            let (server, mut peer) = tokio::io::duplex(64);
            let mut io = WriteTimeout::new(server, Duration::from_millis(50), None);
            let reader = tokio::spawn(async move {
                let mut all = Vec::new();
                tokio::io::AsyncReadExt::read_to_end(&mut peer, &mut all).await.map(|_| all.len())
            });
            io.write_all(&[3; 4096]).await.unwrap();
            io.shutdown().await.unwrap();
            assert_eq!(reader.await.unwrap().unwrap(), 4096);
            drop(client);
        });
    }
}
