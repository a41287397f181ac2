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
//! - `GET /ludus-server.json` (the ports, `no-store`), `GET /healthz`; the token endpoint
//!   `POST /api/connect`, whose body must arrive within [`HttpLimits::body_timeout`] (`408`).
//!
//! `GET /metrics` (Prometheus text) is not served here but on a listener of its own
//! ([`HttpServer::metrics`], `--metrics ADDR`), meant for a private address.
//!
//! Connections: hyper's HTTP/1.1 with a bounded head, the slots shared fairly between
//! addresses and deadlines on every part of a request ([`crate::http_limits`]).

use crate::http_limits::Peer;
pub use crate::http_limits::{HttpLimits, MAX_HEAD};
use crate::metrics::Metrics;
use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig as TlsConfig;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

/// Longest request target (path and query), in bytes.
pub const MAX_REQUEST_LINE: usize = 4096;
/// The generated file that tells the page the ports.
pub const INFO_PATH: &str = "/ludus-server.json";

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
    /// The Alquerque oracle (`GET /api/alquerque/value`).
    pub oracle: Option<Arc<crate::oracle::OracleService>>,
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
        let app = router(root, config.info, config.minter, config.oracle, &config.limits, &metrics);
        let tls = config.tls.map(TlsAcceptor::from);
        start(runtime, config.addr, std_listener, app, tls, config.limits, metrics)
    }

    /// Binds `addr` on `runtime` and serves only `GET /metrics` there, over plain HTTP (a
    /// private address: loopback, or a network only the monitoring reaches).
    pub fn metrics(
        runtime: &tokio::runtime::Handle,
        addr: SocketAddr,
        limits: HttpLimits,
        metrics: Metrics,
    ) -> Result<HttpServer, WebError> {
        let std_listener = std::net::TcpListener::bind(addr)
            .and_then(|l| l.set_nonblocking(true).map(|()| l))
            .map_err(|source| WebError::Bind { addr, source })?;
        let shown = metrics.clone();
        let app = Router::new()
            .route(
                "/metrics",
                get(move || {
                    let metrics = shown.clone();
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
            )
            .fallback(|| async { plain(StatusCode::NOT_FOUND, "not found\n") });
        start(runtime, addr, std_listener, app, None, limits, metrics)
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

/// Serves `app` on `std_listener` (non-blocking, bound to `asked`) from `runtime`.
fn start(
    runtime: &tokio::runtime::Handle,
    asked: SocketAddr,
    std_listener: std::net::TcpListener,
    app: Router,
    tls: Option<TlsAcceptor>,
    limits: HttpLimits,
    metrics: Metrics,
) -> Result<HttpServer, WebError> {
    let bind = |source| WebError::Bind { addr: asked, source };
    let addr = std_listener.local_addr().map_err(bind)?;
    let (stop, stopped) = watch::channel(false);
    let _guard = runtime.enter();
    let listener = TcpListener::from_std(std_listener).map_err(bind)?;
    runtime.spawn(crate::http_limits::accept_loop(listener, app, tls, limits, metrics, stopped));
    Ok(HttpServer { addr, stop })
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

/// `POST /api/connect`: a connect token for the request's credential (see [`crate::tokens`]).
/// The body must arrive within `body_timeout`.
async fn connect(
    minter: Arc<crate::tokens::Minter>,
    body_timeout: Duration,
    metrics: Metrics,
    req: Request,
) -> Response {
    let Some(Peer(peer)) = req.extensions().get::<Peer>().copied() else {
        return plain(StatusCode::INTERNAL_SERVER_ERROR, "no peer address\n");
    };
    let body = axum::body::to_bytes(req.into_body(), crate::tokens::MAX_REQUEST_BYTES);
    let body = match tokio::time::timeout(body_timeout, body).await {
        Ok(Ok(body)) => body,
        Ok(Err(_)) => return plain(StatusCode::PAYLOAD_TOO_LARGE, "request too long\n"),
        Err(_) => {
            metrics.http_closed("body_timeout");
            crate::faults::note("HTTP request body not sent in time: connection closed");
            let mut r = plain(StatusCode::REQUEST_TIMEOUT, "the request body did not arrive in time\n");
            r.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            return r;
        }
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
    minter: Option<Arc<crate::tokens::Minter>>,
    oracle: Option<Arc<crate::oracle::OracleService>>,
    limits: &HttpLimits,
    metrics: &Metrics,
) -> Router {
    let info: Arc<str> = info.into();
    let mut app = oracle.map_or_else(Router::new, |o| o.router(metrics.clone()));
    if let Some(minter) = minter {
        let (body_timeout, metrics) = (limits.body_timeout, metrics.clone());
        app = app.route(
            ludus_protocol::CONNECT_PATH,
            axum::routing::post(move |req: Request| {
                connect(minter.clone(), body_timeout, metrics.clone(), req)
            }),
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
        .route("/healthz", get(|| async { ([(header::CACHE_CONTROL, "no-store")], "ok\n") }));
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
    /// A route of ours (`/ludus-server.json`, `/healthz`).
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
    if [INFO_PATH, "/healthz", crate::oracle::VALUE_PATH].contains(&format!("/{decoded}").as_str()) {
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

#[cfg(test)]
mod tests {
    use super::{Target, resolve};
    use axum::http::StatusCode;

    #[test]
    fn paths_are_plain_names() {
        assert_eq!(resolve("/"), Ok(Target::File("index.html".into())));
        assert_eq!(resolve("/sub/"), Ok(Target::File("sub/index.html".into())));
        assert_eq!(resolve("/a%20b.js"), Ok(Target::File("a b.js".into())));
        assert_eq!(resolve("/ludus-server.json"), Ok(Target::Endpoint));
        assert_eq!(resolve("/metrics"), Ok(Target::File("metrics".into())), "not served here");
        for bad in
            ["/../x", "/%2e%2e/x", "//etc", "/a\\b", "/%5c..", "/x%00.png", "/./x", "/%zz", "/%ff", "/a:b"]
        {
            assert_eq!(resolve(bad), Err(StatusCode::BAD_REQUEST), "{bad}");
        }
        assert_eq!(resolve("/.built"), Err(StatusCode::NOT_FOUND));
    }
}
