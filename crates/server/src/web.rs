//! HTTP on the server's tokio runtime (axum + tower-http + hyper), optionally over TLS (rustls):
//!
//! - the browser bundle of `--web DIR` through tower-http's `ServeDir`: the precompressed
//!   `FILE.br` / `FILE.gz` twins chosen by `Accept-Encoding` (with `Vary: Accept-Encoding`),
//!   `ETag` / `If-None-Match`, `Last-Modified` / `If-Modified-Since`, `Range`, `HEAD`;
//! - our rules on top ([`guard`]): only `GET` and `HEAD`; every path segment a plain name
//!   (`..`, `.`, empty segments, backslashes, NUL, `:`, control characters, malformed escapes:
//!   `400`), dot-files `404`, a file must resolve (symbolic links included) inside DIR; request
//!   targets of at most [`MAX_REQUEST_LINE`] bytes (`414`); no request bodies (`413`); the same
//!   content types and `Cache-Control` (`no-cache` for the page, the service worker and JSON, a
//!   year and `immutable` for the game's code under its content-hashed names, a day for the
//!   rest); `X-Content-Type-Options: nosniff`;
//! - `GET /ludus-server.json` (the ports, `no-store`), `GET /healthz`, `GET /metrics`
//!   (Prometheus text).
//!
//! Connections: hyper's HTTP/1.1 with a header-read timeout and a bounded head
//! ([`HttpLimits`]); a global and a per-address connection cap, checked at accept (`503` with
//! `Retry-After: 1` beyond), so that slow clients cannot take every slot.

use crate::metrics::Metrics;
use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig as TlsConfig;
use tower::ServiceExt;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

/// Longest request target (path and query), in bytes.
pub const MAX_REQUEST_LINE: usize = 4096;
/// Largest request head, in bytes (hyper answers `431` beyond).
pub const MAX_HEAD: usize = 16 * 1024;
/// The generated file that tells the page the ports.
pub const INFO_PATH: &str = "/ludus-server.json";

/// Bounds of the HTTP side.
#[derive(Clone, Debug)]
pub struct HttpLimits {
    /// Most connections at once.
    pub max_connections: usize,
    /// Most connections at once from one IP address.
    pub max_per_address: usize,
    /// Time to send a request head (also the idle time between keep-alive requests), and
    /// to finish a TLS handshake.
    pub header_timeout: Duration,
}

impl Default for HttpLimits {
    fn default() -> HttpLimits {
        HttpLimits { max_connections: 64, max_per_address: 16, header_timeout: Duration::from_secs(10) }
    }
}

/// Why the HTTP side could not start.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// The web directory is missing or unreadable.
    #[error("web directory {path}: {source}")]
    WebDir { path: PathBuf, source: std::io::Error },
    /// The address could not be bound.
    #[error("cannot bind HTTP {addr}: {source}")]
    Bind { addr: SocketAddr, source: std::io::Error },
}

/// What the HTTP side serves.
pub struct HttpConfig {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The browser bundle (`None`: only the generated endpoints).
    pub root: Option<PathBuf>,
    /// The body of `/ludus-server.json`.
    pub info: String,
    /// TLS (https) when set.
    pub tls: Option<Arc<TlsConfig>>,
    /// Bounds.
    pub limits: HttpLimits,
    /// The connect-token endpoint (`POST /api/connect`).
    pub minter: Option<Arc<crate::tokens::Minter>>,
    /// A listener already bound to `addr` (`None`: bind it).
    pub listener: Option<std::net::TcpListener>,
}

/// A running HTTP listener; dropping it stops accepting (open connections end by their
/// timeouts or when the runtime stops).
pub struct HttpServer {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
}

impl HttpServer {
    /// Binds `config.addr` on `runtime` and serves.
    pub fn bind(
        runtime: &tokio::runtime::Handle,
        config: HttpConfig,
        metrics: Metrics,
    ) -> Result<HttpServer, WebError> {
        let root = match &config.root {
            Some(dir) => Some(
                std::fs::canonicalize(dir)
                    .and_then(
                        |p| if p.is_dir() { Ok(p) } else { Err(std::io::ErrorKind::NotADirectory.into()) },
                    )
                    .map_err(|source| WebError::WebDir { path: dir.clone(), source })?,
            ),
            None => None,
        };
        let std_listener = match config.listener {
            Some(listener) => Ok(listener),
            None => std::net::TcpListener::bind(config.addr),
        }
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
        .map_err(|source| WebError::Bind { addr: config.addr, source })?;
        let addr =
            std_listener.local_addr().map_err(|source| WebError::Bind { addr: config.addr, source })?;
        let app = router(root, config.info, metrics, config.minter);
        let (stop, stopped) = watch::channel(false);
        let tls = config.tls.map(TlsAcceptor::from);
        let limits = config.limits;
        let _guard = runtime.enter();
        let listener = TcpListener::from_std(std_listener)
            .map_err(|source| WebError::Bind { addr: config.addr, source })?;
        runtime.spawn(accept_loop(listener, app, tls, limits, stopped));
        Ok(HttpServer { addr, stop })
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

/// The address of the connection a request came on (an extension of every request).
#[derive(Clone, Copy, Debug)]
struct Peer(SocketAddr);

/// `POST /api/connect`: a connect token for the request's credential (see [`crate::tokens`]).
async fn connect(minter: Arc<crate::tokens::Minter>, req: Request) -> Response {
    let Some(Peer(peer)) = req.extensions().get::<Peer>().copied() else {
        return plain(StatusCode::INTERNAL_SERVER_ERROR, "no peer address\n");
    };
    let body = match axum::body::to_bytes(req.into_body(), crate::tokens::MAX_REQUEST_BYTES).await {
        Ok(body) => body,
        Err(_) => return plain(StatusCode::PAYLOAD_TOO_LARGE, "request too long\n"),
    };
    // Any origin may ask (a page served elsewhere, a tablet's page for the in-game host): a
    // token is what any client can get, and a credential is only what the page already holds.
    let headers = [(header::CACHE_CONTROL, "no-store"), (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*")];
    match minter.answer(peer.ip(), &body) {
        Ok(token) => (headers, [(header::CONTENT_TYPE, "application/octet-stream")], token).into_response(),
        Err(refused) => {
            let status = StatusCode::from_u16(refused.status).unwrap_or(StatusCode::BAD_REQUEST);
            let mut response = (
                status,
                headers,
                [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                format!("{}\n", refused.message),
            )
                .into_response();
            if let Some(secs) = refused.retry_after
                && let Ok(value) = HeaderValue::from_str(&secs.to_string())
            {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
            if refused.status == 409 {
                // The client shows "please update" as for `ServerMessage::Incompatible`.
                let headers = response.headers_mut();
                headers.insert(
                    ludus_protocol::VERSION_HEADER,
                    HeaderValue::from(ludus_protocol::PROTOCOL_VERSION),
                );
                headers.insert(
                    header::ACCESS_CONTROL_EXPOSE_HEADERS,
                    HeaderValue::from_static(ludus_protocol::VERSION_HEADER),
                );
            }
            response
        }
    }
}

fn router(
    root: Option<PathBuf>,
    info: String,
    metrics: Metrics,
    minter: Option<Arc<crate::tokens::Minter>>,
) -> Router {
    let info: Arc<str> = info.into();
    let mut app = Router::new();
    if let Some(minter) = minter {
        app = app.route(
            ludus_protocol::CONNECT_PATH,
            axum::routing::post(move |req: Request| connect(minter.clone(), req)),
        );
    }
    let mut app = app
        .route(
            INFO_PATH,
            get(move || {
                let info = info.clone();
                async move {
                    (
                        [(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")],
                        info.to_string(),
                    )
                }
            }),
        )
        .route("/healthz", get(|| async { ([(header::CACHE_CONTROL, "no-store")], "ok\n") }))
        .route(
            "/metrics",
            get(move || {
                let metrics = metrics.clone();
                async move {
                    (
                        [
                            (header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8"),
                            (header::CACHE_CONTROL, "no-store"),
                        ],
                        metrics.render(),
                    )
                }
            }),
        );
    if let Some(root) = root.clone() {
        let files = ServeDir::new(&root)
            .precompressed_br()
            .precompressed_gzip()
            .append_index_html_on_directories(true)
            .redirect_to_trailing_slash(false);
        app = app.fallback_service(files);
    }
    let root: Arc<Option<PathBuf>> = Arc::new(root);
    app.layer(axum::middleware::from_fn(move |req: Request, next: Next| {
        let root = root.clone();
        async move { guard(root.as_ref().as_deref(), req, next).await }
    }))
    .layer(SetResponseHeaderLayer::overriding(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    ))
}

fn plain(status: StatusCode, body: &'static str) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body).into_response()
}

/// What a request path names, by our rules.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    /// A route of ours (`/ludus-server.json`, `/healthz`, `/metrics`).
    Endpoint,
    /// A file under the root, as plain names (`index.html` for a directory).
    File(PathBuf),
}

/// Maps a request path to a target, refusing anything but plain names.
fn resolve(path: &str) -> Result<Target, StatusCode> {
    let rest = path.strip_prefix('/').ok_or(StatusCode::BAD_REQUEST)?;
    let decoded = percent_encoding::percent_decode_str(rest);
    // Malformed escapes (`%zz`) stay as they are: a `%` left over is refused with them.
    let decoded = decoded.decode_utf8().map_err(|_| StatusCode::BAD_REQUEST)?;
    if rest.contains('%') && !valid_escapes(rest) {
        return Err(StatusCode::BAD_REQUEST);
    }
    if ["/ludus-server.json", "/healthz", "/metrics"].contains(&format!("/{decoded}").as_str()) {
        return Ok(Target::Endpoint);
    }
    let mut relative = PathBuf::new();
    let mut segments: Vec<&str> = decoded.split('/').collect();
    if segments.last() == Some(&"") {
        segments.pop();
        segments.push("index.html");
    }
    for segment in segments {
        if segment.is_empty()
            || segment == "."
            || segment == ".."
            || segment.contains(['\\', '\0', ':'])
            || segment.chars().any(char::is_control)
        {
            return Err(StatusCode::BAD_REQUEST);
        }
        if segment.starts_with('.') {
            return Err(StatusCode::NOT_FOUND);
        }
        relative.push(segment);
    }
    Ok(Target::File(relative))
}

/// Every `%` starts an escape of two hexadecimal digits.
fn valid_escapes(s: &str) -> bool {
    let bytes = s.as_bytes();
    bytes.iter().enumerate().filter(|(_, b)| **b == b'%').all(|(i, _)| {
        bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
    })
}

/// Whether a file's name carries its content hash (`ludus-0123456789abcdef.js`, as
/// web/package.sh names the game's code): such a file never changes under its name.
fn content_hashed(path: &Path) -> bool {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    stem.rsplit_once('-').is_some_and(|(name, hash)| {
        !name.is_empty()
            && hash.len() == 16
            && hash.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// `(Content-Type, Cache-Control)` by the file's extension; the game's content-hashed code is
/// kept for a year, unchanged (`immutable`).
fn kind(path: &Path) -> (&'static str, &'static str) {
    const REVALIDATE: &str = "no-cache";
    const A_DAY: &str = "public, max-age=86400";
    const FOR_GOOD: &str = "public, max-age=31536000, immutable";
    let code = if content_hashed(path) { FOR_GOOD } else { REVALIDATE };
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("html" | "htm") => ("text/html; charset=utf-8", REVALIDATE),
        Some("js" | "mjs") => ("text/javascript; charset=utf-8", code),
        Some("wasm") => ("application/wasm", code),
        Some("json") => ("application/json", REVALIDATE),
        Some("webmanifest") => ("application/manifest+json", A_DAY),
        Some("css") => ("text/css; charset=utf-8", A_DAY),
        Some("txt") => ("text/plain; charset=utf-8", A_DAY),
        Some("svg") => ("image/svg+xml", A_DAY),
        Some("png") => ("image/png", A_DAY),
        Some("ico") => ("image/x-icon", A_DAY),
        _ => ("application/octet-stream", A_DAY),
    }
}

/// Our rules around `ServeDir` (see the module documentation).
async fn guard(root: Option<&Path>, req: Request, next: Next) -> Response {
    if req.uri().path() == ludus_protocol::CONNECT_PATH {
        // The one route with a method other than GET and a body (a short one).
        if req.method() != Method::POST {
            let mut r = plain(StatusCode::METHOD_NOT_ALLOWED, "method not allowed\n");
            r.headers_mut().insert(header::ALLOW, HeaderValue::from_static("POST"));
            return r;
        }
        let length =
            req.headers().get(header::CONTENT_LENGTH).and_then(|l| l.to_str().ok()?.parse::<usize>().ok());
        if req.headers().contains_key(header::TRANSFER_ENCODING)
            || length.is_none_or(|l| l > crate::tokens::MAX_REQUEST_BYTES)
        {
            return plain(
                StatusCode::PAYLOAD_TOO_LARGE,
                "a short body with its Content-Length is expected\n",
            );
        }
        if req.version() == axum::http::Version::HTTP_11 && !req.headers().contains_key(header::HOST) {
            return plain(StatusCode::BAD_REQUEST, "bad request: no Host\n");
        }
        return next.run(req).await;
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut r = plain(StatusCode::METHOD_NOT_ALLOWED, "method not allowed\n");
        r.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    if req.uri().path_and_query().map_or(0, |p| p.as_str().len()) > MAX_REQUEST_LINE {
        return plain(StatusCode::URI_TOO_LONG, "request target too long\n");
    }
    let has_body = req.headers().contains_key(header::TRANSFER_ENCODING)
        || req
            .headers()
            .get(header::CONTENT_LENGTH)
            .is_some_and(|l| l.to_str().ok().and_then(|l| l.parse::<u64>().ok()) != Some(0));
    if has_body {
        return plain(StatusCode::PAYLOAD_TOO_LARGE, "no request bodies\n");
    }
    // HTTP/1.1 requires a Host header (RFC 9112, 3.2).
    if req.version() == axum::http::Version::HTTP_11 && !req.headers().contains_key(header::HOST) {
        return plain(StatusCode::BAD_REQUEST, "bad request: no Host\n");
    }
    // Only origin-form targets (`/path`): no `http://host/path`, no `*`.
    if req.uri().scheme().is_some() || req.uri().authority().is_some() {
        return plain(StatusCode::BAD_REQUEST, "bad request\n");
    }
    let relative = match resolve(req.uri().path()) {
        Ok(Target::Endpoint) => return next.run(req).await,
        Ok(Target::File(relative)) => relative,
        Err(status) if status == StatusCode::NOT_FOUND => return plain(status, "not found\n"),
        Err(status) => return plain(status, "bad request\n"),
    };
    let Some(root) = root else {
        return plain(StatusCode::NOT_FOUND, "not found\n");
    };
    // The file must be a regular file inside the root once symbolic links are followed.
    match tokio::fs::canonicalize(root.join(&relative)).await {
        Ok(real) if real.starts_with(root) && tokio::fs::metadata(&real).await.is_ok_and(|m| m.is_file()) => {
        }
        _ => return plain(StatusCode::NOT_FOUND, "not found\n"),
    }
    // ServeDir's tag names the file's size and time, the same for every twin: we add the coding
    // and answer If-None-Match ourselves, so that each twin has its own tag.
    let mut req = req;
    let if_none_match = req.headers_mut().remove(header::IF_NONE_MATCH);
    let mut response = next.run(req).await;
    if !(response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED) {
        return response;
    }
    let (content_type, cache) = kind(&relative);
    let headers = response.headers_mut();
    if headers.contains_key(header::CONTENT_TYPE) {
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    let coding = headers.get(header::CONTENT_ENCODING).and_then(|c| c.to_str().ok()).unwrap_or("identity");
    let tag = headers
        .get(header::ETAG)
        .and_then(|t| t.to_str().ok())
        .and_then(|t| t.strip_suffix('"'))
        .and_then(|t| HeaderValue::from_str(&format!("{t}-{coding}\"")).ok());
    let Some(tag) = tag else {
        return response;
    };
    headers.insert(header::ETAG, tag.clone());
    let matches = if_none_match.as_ref().and_then(|v| v.to_str().ok()).is_some_and(|list| {
        list.split(',')
            .map(|t| t.trim().trim_start_matches("W/"))
            .any(|t| t == "*" || t.as_bytes() == tag.as_bytes())
    });
    if matches && response.status() == StatusCode::OK {
        let mut not_modified = Response::new(Body::empty());
        *not_modified.status_mut() = StatusCode::NOT_MODIFIED;
        for name in [header::ETAG, header::CACHE_CONTROL, header::VARY, header::LAST_MODIFIED] {
            if let Some(v) = response.headers().get(&name) {
                not_modified.headers_mut().insert(name, v.clone());
            }
        }
        return not_modified;
    }
    response
}

/// Connections open, overall and by address.
#[derive(Default)]
struct Slots {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// A connection's place in [`Slots`], given back when dropped.
struct Slot {
    slots: Arc<Mutex<Slots>>,
    ip: IpAddr,
}

impl Slot {
    fn take(slots: &Arc<Mutex<Slots>>, ip: IpAddr, limits: &HttpLimits) -> Option<Slot> {
        let mut s = slots.lock().ok()?;
        let mine = s.by_address.get(&ip).copied().unwrap_or(0);
        if s.total >= limits.max_connections || mine >= limits.max_per_address {
            return None;
        }
        s.total += 1;
        *s.by_address.entry(ip).or_default() += 1;
        Some(Slot { slots: slots.clone(), ip })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut s) = self.slots.lock() {
            s.total -= 1;
            if let Some(n) = s.by_address.get_mut(&self.ip) {
                *n -= 1;
                if *n == 0 {
                    s.by_address.remove(&self.ip);
                }
            }
        }
    }
}

const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n\
Retry-After: 1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nbusy\n";

async fn accept_loop(
    listener: TcpListener,
    app: Router,
    tls: Option<TlsAcceptor>,
    limits: HttpLimits,
    mut stop: watch::Receiver<bool>,
) {
    let slots = Arc::new(Mutex::new(Slots::default()));
    loop {
        let accepted = tokio::select! {
            _ = stop.changed() => return,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of file descriptors and the like: wait a little rather than spin.
                tracing::warn!("HTTP accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let Some(slot) = Slot::take(&slots, peer.ip(), &limits) else {
            if tls.is_none() {
                tokio::spawn(refuse(stream));
            }
            continue;
        };
        let (app, tls, limits) = (app.clone(), tls.clone(), limits.clone());
        tokio::spawn(async move {
            let _slot = slot;
            match tls {
                Some(acceptor) => {
                    if let Ok(Ok(stream)) =
                        tokio::time::timeout(limits.header_timeout, acceptor.accept(stream)).await
                    {
                        serve(stream, app, &limits, peer).await;
                    }
                }
                None => serve(stream, app, &limits, peer).await,
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
    use super::*;

    #[test]
    fn paths_are_plain_names() {
        assert_eq!(resolve("/"), Ok(Target::File("index.html".into())));
        assert_eq!(resolve("/sub/"), Ok(Target::File("sub/index.html".into())));
        assert_eq!(resolve("/a%20b.js"), Ok(Target::File("a b.js".into())));
        assert_eq!(resolve("/ludus-server.json"), Ok(Target::Endpoint));
        for bad in
            ["/../x", "/%2e%2e/x", "//etc", "/a\\b", "/%5c..", "/x%00.png", "/./x", "/%zz", "/%ff", "/a:b"]
        {
            assert_eq!(resolve(bad), Err(StatusCode::BAD_REQUEST), "{bad}");
        }
        assert_eq!(resolve("/.built"), Err(StatusCode::NOT_FOUND));
    }
}
