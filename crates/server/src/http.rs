//! A small static-file HTTP/1.1 server for the browser bundle (`ludus-server --web DIR`), so that
//! a tablet on the LAN opens one address and plays: the page comes from here, and the page asks
//! `/ludus-server.json` for the WebSocket port of the same server.
//!
//! - std only: one accepting thread, one thread per connection, at most [`MAX_CONNECTIONS`] at
//!   once (more are answered `503` and closed). Keep-alive, pipelining tolerated.
//! - Bounded: request line [`MAX_REQUEST_LINE`] bytes (`414`), whole head [`MAX_HEAD`] bytes
//!   (`431`), [`HEAD_TIMEOUT`] to send a head, [`IDLE_TIMEOUT`] between requests, [`WRITE_TIMEOUT`]
//!   per write. Requests with a body are refused (`413`); only `GET` and `HEAD` (`405`).
//! - Paths: percent-decoded, then every segment must be a plain name: `..`, `.`, empty segments
//!   (`//`), backslashes, NUL and `:` are refused (`400`); names starting with `.` are not served
//!   (`404`); the file's canonical path must lie inside the canonical root (no symlink escapes).
//!   `/` and any path ending in `/` serve that directory's `index.html`.
//! - Precompressed twins: `FILE.br` with `Content-Encoding: br` when the request accepts `br`,
//!   else `FILE.gz` (`gzip`), else `FILE`; always `Vary: Accept-Encoding`. `ETag` and
//!   `If-None-Match` (`304`).
//! - Caching: `no-cache` (always revalidate) for the page, its script, the wasm module and JSON,
//!   whose names do not change between builds and which must match each other; a day for images,
//!   the manifest, CSS and text.
//! - `GET /ludus-server.json`: generated, `no-store`: `{"ws_port":…,"udp_port":…,"version":…}`.

use std::fs::File;
use std::io::{self, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Most connections served at once; more are answered `503 Service Unavailable`.
pub const MAX_CONNECTIONS: usize = 64;
/// Longest request line (method, target, version), in bytes; longer ones get `414`.
pub const MAX_REQUEST_LINE: usize = 4096;
/// Longest request head (request line and headers), in bytes; longer ones get `431`.
pub const MAX_HEAD: usize = 16 * 1024;
/// Time to send a whole request head once it has started.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// Time a connection may stay open waiting for its (next) request.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(5);
/// Time one write may block (a client that stops reading).
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// Requests served on one connection before it is closed.
const MAX_REQUESTS_PER_CONNECTION: usize = 1000;
/// The generated file with the server's ports.
pub const INFO_PATH: &str = "/ludus-server.json";
/// How often the accepting thread looks at its stop flag when no one connects.
const ACCEPT_POLL: Duration = Duration::from_millis(5);

/// A running HTTP server; dropping it stops accepting (open connections end by their timeouts).
pub struct HttpServer {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

struct Site {
    /// Canonical root directory.
    root: PathBuf,
    /// The body of `/ludus-server.json`.
    info: String,
    stop: Arc<AtomicBool>,
    active: AtomicUsize,
}

impl HttpServer {
    /// Serves the files under `root` on `addr`; `info` is the body of `/ludus-server.json`.
    pub fn bind(addr: SocketAddr, root: &Path, info: String) -> Result<HttpServer, String> {
        let root = root.canonicalize().map_err(|e| format!("web directory {}: {e}", root.display()))?;
        if !root.is_dir() {
            return Err(format!("web directory {}: not a directory", root.display()));
        }
        let listener = TcpListener::bind(addr).map_err(|e| format!("cannot bind HTTP {addr}: {e}"))?;
        let addr = listener.local_addr().map_err(|e| format!("HTTP {addr}: {e}"))?;
        listener.set_nonblocking(true).map_err(|e| format!("HTTP {addr}: {e}"))?;
        let stop = Arc::new(AtomicBool::new(false));
        let site = Arc::new(Site { root, info, stop: stop.clone(), active: AtomicUsize::new(0) });
        let thread = std::thread::Builder::new()
            .name("ludus-http".into())
            .spawn(move || accept_loop(&listener, &site))
            .map_err(|e| format!("cannot start the HTTP thread: {e}"))?;
        Ok(HttpServer { addr, stop, thread: Some(thread) })
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Counts a connection while its thread lives (also when it unwinds).
struct Slot(Arc<Site>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.active.fetch_sub(1, Ordering::AcqRel);
    }
}

fn accept_loop(listener: &TcpListener, site: &Arc<Site>) {
    while !site.stop.load(Ordering::Relaxed) {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                std::thread::sleep(ACCEPT_POLL);
                continue;
            }
            // Out of descriptors, a connection reset before it was accepted, ...: wait a little.
            Err(_) => {
                std::thread::sleep(ACCEPT_POLL);
                continue;
            }
        };
        // Accepted sockets inherit non-blocking mode on some systems.
        if stream.set_nonblocking(false).is_err() {
            continue;
        }
        let _ = stream.set_nodelay(true);
        if site.active.fetch_add(1, Ordering::AcqRel) >= MAX_CONNECTIONS {
            site.active.fetch_sub(1, Ordering::AcqRel);
            let mut stream = stream;
            // Drop what already arrived so that closing does not reset the connection (and
            // discard the answer); never wait for more.
            if stream.set_nonblocking(true).is_ok() {
                let mut sink = [0u8; 4096];
                for _ in 0..4 {
                    if !matches!(stream.read(&mut sink), Ok(n) if n > 0) {
                        break;
                    }
                }
            }
            let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
            let _ = stream.write_all(&simple_response(503, "Service Unavailable", "busy, try again\n", true));
            let _ = stream.shutdown(Shutdown::Write);
            continue;
        }
        let slot = Slot(site.clone());
        let spawned = std::thread::Builder::new()
            .name("ludus-http-conn".into())
            .stack_size(256 * 1024)
            .spawn(move || serve_connection(stream, &slot.0));
        // When no thread can be made, the closure (stream and slot) is dropped: closed, uncounted.
        drop(spawned);
    }
}

/// An answer decided before any file is opened: a status line and a short body; the connection
/// closes afterwards.
#[derive(Debug)]
struct Refusal {
    code: u16,
    reason: &'static str,
    body: &'static str,
}

const fn refusal(code: u16, reason: &'static str, body: &'static str) -> Refusal {
    Refusal { code, reason, body }
}

const BAD_REQUEST: Refusal = refusal(400, "Bad Request", "bad request\n");
const NOT_FOUND: Refusal = refusal(404, "Not Found", "not found\n");

/// What reading a request head gave.
enum Head {
    /// A complete head of this many bytes at the start of the buffer.
    Complete(usize),
    /// The client closed or stayed idle before sending anything: close quietly.
    Idle,
    /// The client stopped or broke off mid-head: close quietly.
    Broken,
    /// Too long: answer and close.
    Refused(Refusal),
}

fn serve_connection(mut stream: TcpStream, site: &Site) {
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let mut buffer: Vec<u8> = Vec::new();
    for _ in 0..MAX_REQUESTS_PER_CONNECTION {
        if site.stop.load(Ordering::Relaxed) {
            break;
        }
        let len = match read_head(&mut stream, &mut buffer) {
            Head::Complete(len) => len,
            Head::Idle | Head::Broken => return,
            Head::Refused(r) => {
                let _ = stream.write_all(&simple_response(r.code, r.reason, r.body, false));
                close_gracefully(stream);
                return;
            }
        };
        let head: Vec<u8> = buffer.drain(..len).collect();
        let keep_alive = match handle(&mut stream, site, &head) {
            Ok(keep_alive) => keep_alive,
            Err(_) => return,
        };
        if !keep_alive {
            close_gracefully(stream);
            return;
        }
    }
}

/// Closes after a final answer without losing it: stop sending, then read (and drop) what the
/// client still sends for a moment, so that unread input does not make the kernel reset the
/// connection before the client has read the answer.
fn close_gracefully(mut stream: TcpStream) {
    let _ = stream.flush();
    let _ = stream.shutdown(Shutdown::Write);
    let deadline = Instant::now() + Duration::from_millis(500);
    let mut sink = [0u8; 4096];
    let mut drained = 0usize;
    while drained < 256 * 1024 {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return;
        }
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => return,
            Ok(n) => drained += n,
        }
    }
}

/// Position just past the blank line ending the head (lines end in CRLF or LF), if any.
fn head_end(buffer: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(offset) = buffer.get(i..)?.iter().position(|&b| b == b'\n') {
        let nl = i + offset;
        match buffer.get(nl + 1..) {
            Some([b'\n', ..]) => return Some(nl + 2),
            Some([b'\r', b'\n', ..]) => return Some(nl + 3),
            _ => i = nl + 1,
        }
    }
    None
}

/// Reads until `buffer` starts with a whole request head (bytes past it stay in `buffer`).
fn read_head(stream: &mut TcpStream, buffer: &mut Vec<u8>) -> Head {
    let idle_deadline = Instant::now() + IDLE_TIMEOUT;
    let mut head_deadline: Option<Instant> = None;
    let mut chunk = [0u8; 4096];
    loop {
        // Empty lines before a request line are ignored (RFC 9112, 2.2).
        let blank = buffer.iter().take_while(|&&b| b == b'\r' || b == b'\n').count();
        buffer.drain(..blank);
        if !buffer.is_empty() && head_deadline.is_none() {
            head_deadline = Some(Instant::now() + HEAD_TIMEOUT);
        }
        let line_end = buffer.iter().position(|&b| b == b'\n');
        if line_end.unwrap_or(buffer.len()) > MAX_REQUEST_LINE {
            return Head::Refused(refusal(414, "URI Too Long", "request line too long\n"));
        }
        if let Some(end) = head_end(buffer) {
            return if end > MAX_HEAD {
                Head::Refused(refusal(431, "Request Header Fields Too Large", "request head too large\n"))
            } else {
                Head::Complete(end)
            };
        }
        if buffer.len() > MAX_HEAD {
            return Head::Refused(refusal(
                431,
                "Request Header Fields Too Large",
                "request head too large\n",
            ));
        }
        let deadline = head_deadline.unwrap_or(idle_deadline);
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return if buffer.is_empty() { Head::Idle } else { Head::Broken };
        }
        match stream.read(&mut chunk) {
            Ok(0) => return if buffer.is_empty() { Head::Idle } else { Head::Broken },
            Ok(n) => buffer.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return if buffer.is_empty() { Head::Idle } else { Head::Broken },
        }
    }
}

/// The parts of a request the server looks at.
#[derive(Debug, Default)]
struct Request<'a> {
    method: &'a str,
    target: &'a str,
    http10: bool,
    host: bool,
    accept_encoding: String,
    if_none_match: Option<String>,
    connection_close: bool,
    connection_keep_alive: bool,
    has_body: bool,
}

fn is_token(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn parse_request(head: &[u8]) -> Result<Request<'_>, Refusal> {
    let mut lines = head.split(|&b| b == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l));
    let line = lines.next().ok_or(BAD_REQUEST)?;
    let line = std::str::from_utf8(line).map_err(|_| BAD_REQUEST)?;
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(BAD_REQUEST);
    };
    if !is_token(method) || target.is_empty() || target.bytes().any(|b| b.is_ascii_control() || b == b' ') {
        return Err(BAD_REQUEST);
    }
    let http10 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        v if v.starts_with("HTTP/") && v.len() == 8 => {
            return Err(refusal(505, "HTTP Version Not Supported", "HTTP/1.1 only\n"));
        }
        _ => return Err(BAD_REQUEST),
    };
    let mut request = Request { method, target, http10, ..Request::default() };
    for line in lines {
        if line.is_empty() {
            break;
        }
        // Values may hold bytes that are not UTF-8 (obs-text); none of those the server reads do.
        let line = String::from_utf8_lossy(line);
        // No obsolete line folding, no whitespace before the colon (RFC 9112, 5.1 and 5.2).
        let (name, value) = line.split_once(':').ok_or(BAD_REQUEST)?;
        if !is_token(name) {
            return Err(BAD_REQUEST);
        }
        let value = value.trim_matches([' ', '\t']);
        if value.bytes().any(|b| b.is_ascii_control() && b != b'\t') {
            return Err(BAD_REQUEST);
        }
        let name = name.to_ascii_lowercase();
        match name.as_str() {
            "host" => request.host = true,
            "accept-encoding" => {
                if !request.accept_encoding.is_empty() {
                    request.accept_encoding.push(',');
                }
                request.accept_encoding.push_str(value);
            }
            "if-none-match" => request.if_none_match = Some(value.to_string()),
            "connection" => {
                for option in value.split(',').map(|o| o.trim().to_ascii_lowercase()) {
                    request.connection_close |= option == "close";
                    request.connection_keep_alive |= option == "keep-alive";
                }
            }
            "content-length" => {
                let length: u64 = value.parse().map_err(|_| BAD_REQUEST)?;
                request.has_body |= length > 0;
            }
            "transfer-encoding" => request.has_body = true,
            _ => {}
        }
    }
    if !request.http10 && !request.host {
        return Err(BAD_REQUEST);
    }
    if request.has_body {
        return Err(refusal(413, "Content Too Large", "requests with a body are not accepted\n"));
    }
    Ok(request)
}

/// Decodes `%XX` escapes (a `+` stays a `+`).
fn percent_decode(s: &str) -> Option<Vec<u8>> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let (&high, &low) = (bytes.get(i + 1)?, bytes.get(i + 2)?);
            let digit = |c: u8| (c as char).to_digit(16);
            out.push((digit(high)? * 16 + digit(low)?) as u8);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    Some(out)
}

/// What a request path names.
#[derive(Debug, PartialEq)]
enum Resource {
    Info,
    /// A path relative to the root, made of plain names.
    File(PathBuf),
}

/// Maps a request target to a resource, refusing anything but plain names under the root.
fn resolve(target: &str) -> Result<Resource, Refusal> {
    let path = target.split(['?', '#']).next().unwrap_or_default();
    let rest = path.strip_prefix('/').ok_or(BAD_REQUEST)?;
    let decoded = percent_decode(rest).ok_or(BAD_REQUEST)?;
    let decoded = String::from_utf8(decoded).map_err(|_| BAD_REQUEST)?;
    if format!("/{decoded}") == INFO_PATH {
        return Ok(Resource::Info);
    }
    let mut relative = PathBuf::new();
    let mut segments: Vec<&str> = decoded.split('/').collect();
    if segments.last() == Some(&"") {
        // `/` and `dir/`: the directory's page.
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
            return Err(BAD_REQUEST);
        }
        if segment.starts_with('.') {
            return Err(NOT_FOUND);
        }
        relative.push(segment);
    }
    Ok(Resource::File(relative))
}

/// The quality the `Accept-Encoding` header gives `coding` (0: refused).
fn quality(accept_encoding: &str, coding: &str) -> f32 {
    let mut star = None;
    for item in accept_encoding.split(',') {
        let mut params = item.split(';');
        let name = params.next().unwrap_or_default().trim();
        let q = params
            .filter_map(|p| p.trim().strip_prefix("q=").or_else(|| p.trim().strip_prefix("Q=")))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if name.eq_ignore_ascii_case(coding) {
            return q;
        }
        if name == "*" {
            star = Some(q);
        }
    }
    star.unwrap_or(0.0)
}

/// `(Content-Type, Cache-Control)` by the file's extension.
fn kind(path: &Path) -> (&'static str, &'static str) {
    const REVALIDATE: &str = "no-cache";
    const A_DAY: &str = "public, max-age=86400";
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("html" | "htm") => ("text/html; charset=utf-8", REVALIDATE),
        Some("js" | "mjs") => ("text/javascript; charset=utf-8", REVALIDATE),
        Some("wasm") => ("application/wasm", REVALIDATE),
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

/// A regular file at `relative` under the root, not leaving it through links.
fn open_inside(root: &Path, relative: &Path) -> Option<(File, std::fs::Metadata)> {
    let canonical = root.join(relative).canonicalize().ok()?;
    if !canonical.starts_with(root) {
        return None;
    }
    let file = File::open(&canonical).ok()?;
    let meta = file.metadata().ok()?;
    meta.is_file().then_some((file, meta))
}

/// Handles one request whose head is `head`; `Ok(true)`: the connection may serve another.
fn handle(stream: &mut TcpStream, site: &Site, head: &[u8]) -> io::Result<bool> {
    let request = match parse_request(head) {
        Ok(r) => r,
        Err(r) => {
            stream.write_all(&simple_response(r.code, r.reason, r.body, false))?;
            return Ok(false);
        }
    };
    let keep_alive = if request.http10 { request.connection_keep_alive } else { !request.connection_close };
    let head_only = match request.method {
        "GET" => false,
        "HEAD" => true,
        _ => {
            let body = "only GET and HEAD\n";
            let mut response = status_line(405, "Method Not Allowed");
            response.push_str("Allow: GET, HEAD\r\n");
            finish_headers(&mut response, "text/plain; charset=utf-8", body.len() as u64, false);
            response.push_str(body);
            stream.write_all(response.as_bytes())?;
            return Ok(false);
        }
    };
    let relative = match resolve(request.target) {
        Ok(Resource::Info) => {
            let mut response = status_line(200, "OK");
            response.push_str("Cache-Control: no-store\r\n");
            finish_headers(&mut response, "application/json", site.info.len() as u64, keep_alive);
            if !head_only {
                response.push_str(&site.info);
            }
            stream.write_all(response.as_bytes())?;
            return Ok(keep_alive);
        }
        Ok(Resource::File(relative)) => relative,
        Err(r) => {
            stream.write_all(&simple_response(r.code, r.reason, r.body, false))?;
            return Ok(false);
        }
    };
    let Some((raw, raw_meta)) = open_inside(&site.root, &relative) else {
        stream.write_all(&simple_response(NOT_FOUND.code, NOT_FOUND.reason, NOT_FOUND.body, keep_alive))?;
        return Ok(keep_alive);
    };
    let (content_type, cache) = kind(&relative);
    let mut chosen = (raw, raw_meta, None);
    for (coding, suffix) in [("br", "br"), ("gzip", "gz")] {
        if quality(&request.accept_encoding, coding) <= 0.0 {
            continue;
        }
        let mut twin = relative.clone().into_os_string();
        twin.push(".");
        twin.push(suffix);
        if let Some((file, meta)) = open_inside(&site.root, Path::new(&twin)) {
            chosen = (file, meta, Some(coding));
            break;
        }
    }
    let (file, meta, coding) = chosen;
    let length = meta.len();
    let modified = meta.modified().ok().and_then(|t| t.duration_since(UNIX_EPOCH).ok()).unwrap_or_default();
    let etag = format!("\"{length:x}-{:x}-{}\"", modified.as_nanos(), coding.unwrap_or("identity"));
    let fresh = request.if_none_match.as_deref().is_some_and(|tags| {
        tags.split(',').map(|t| t.trim()).any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == etag)
    });
    let mut response = if fresh { status_line(304, "Not Modified") } else { status_line(200, "OK") };
    response.push_str(&format!("ETag: {etag}\r\nCache-Control: {cache}\r\nVary: Accept-Encoding\r\n"));
    if let Some(coding) = coding {
        response.push_str(&format!("Content-Encoding: {coding}\r\n"));
    }
    if fresh {
        response.push_str(if keep_alive {
            "Connection: keep-alive\r\n\r\n"
        } else {
            "Connection: close\r\n\r\n"
        });
        stream.write_all(response.as_bytes())?;
        return Ok(keep_alive);
    }
    finish_headers(&mut response, content_type, length, keep_alive);
    stream.write_all(response.as_bytes())?;
    if head_only {
        return Ok(keep_alive);
    }
    // The length promised is the length sent: a file that shrank meanwhile ends the connection.
    let sent = io::copy(&mut file.take(length), stream)?;
    Ok(keep_alive && sent == length)
}

fn status_line(code: u16, reason: &str) -> String {
    format!("HTTP/1.1 {code} {reason}\r\nDate: {}\r\n", http_date(SystemTime::now()))
}

/// Content type and length, the usual safety header, the connection's fate, the blank line.
fn finish_headers(response: &mut String, content_type: &str, length: u64, keep_alive: bool) {
    response.push_str(&format!(
        "Content-Type: {content_type}\r\nContent-Length: {length}\r\nX-Content-Type-Options: nosniff\r\n\
         Connection: {}\r\n\r\n",
        if keep_alive { "keep-alive" } else { "close" }
    ));
}

/// A whole short plain-text response.
fn simple_response(code: u16, reason: &str, body: &str, keep_alive: bool) -> Vec<u8> {
    let mut response = status_line(code, reason);
    if code == 503 {
        response.push_str("Retry-After: 1\r\n");
    }
    finish_headers(&mut response, "text/plain; charset=utf-8", body.len() as u64, keep_alive);
    response.push_str(body);
    response.into_bytes()
}

/// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
fn http_date(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or_default();
    let days = (secs / 86_400) as i64;
    let (h, m, s) = (secs % 86_400 / 3600, secs % 3600 / 60, secs % 60);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] =
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let weekday = WEEKDAYS.get(days.rem_euclid(7) as usize).unwrap_or(&"Thu");
    let month = MONTHS.get((month - 1).clamp(0, 11) as usize).unwrap_or(&"Jan");
    format!("{weekday}, {day:02} {month} {year} {h:02}:{m:02}:{s:02} GMT")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(http_date(UNIX_EPOCH), "Thu, 01 Jan 1970 00:00:00 GMT");
        let t = UNIX_EPOCH + Duration::from_secs(784_111_777);
        assert_eq!(http_date(t), "Sun, 06 Nov 1994 08:49:37 GMT");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400); // 2000-02-29
        assert_eq!(http_date(t), "Tue, 29 Feb 2000 00:00:00 GMT");
    }

    #[test]
    fn encodings() {
        assert_eq!(quality("gzip, deflate, br, zstd", "br"), 1.0);
        assert_eq!(quality("gzip;q=1.0, br;q=0", "br"), 0.0);
        assert_eq!(quality("gzip", "br"), 0.0);
        assert_eq!(quality("*", "br"), 1.0);
        assert_eq!(quality("br;q=0, *", "br"), 0.0);
        assert_eq!(quality("", "gzip"), 0.0);
        assert_eq!(quality("BR ; q=0.5", "br"), 0.5);
    }

    #[test]
    fn paths() {
        let file = |p: &str| Ok::<_, ()>(Resource::File(PathBuf::from(p)));
        let ok = |t: &str| resolve(t).map_err(|_| ());
        assert_eq!(ok("/"), file("index.html"));
        assert_eq!(ok("/?server=ws://a:1"), file("index.html"));
        assert_eq!(ok("/a.wasm"), file("a.wasm"));
        assert_eq!(ok("/sub/"), file("sub/index.html"));
        assert_eq!(ok("/a%20b.txt"), file("a b.txt"));
        assert_eq!(ok("/ludus-server.json?x"), Ok(Resource::Info));
        for bad in [
            "/../Cargo.toml",
            "/%2e%2e/Cargo.toml",
            "/%2E%2E%2FCargo.toml",
            "//etc/passwd",
            "/a/../b",
            "/./a",
            "/a\\..\\b",
            "/a%5c..%5cb",
            "/a%00.txt",
            "/C:/x",
            "/%zz",
            "/%2",
            "/%+f",
            "/%ff",
            "x",
            "*",
            "http://host/a",
        ] {
            assert_eq!(resolve(bad).map_err(|r| r.code), Err(400), "{bad}");
        }
        assert_eq!(resolve("/.built").map_err(|r| r.code), Err(404));
    }

    #[test]
    fn heads() {
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nHost: a\r\n\r\nxyz"), Some(27));
        assert_eq!(head_end(b"GET / HTTP/1.1\nHost: a\n\n"), Some(24));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nHost: a\r\n"), None);
        assert_eq!(head_end(b""), None);
        assert_eq!(head_end(b"\n"), None);
        assert!(parse_request(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n").is_ok());
        assert_eq!(parse_request(b"GET / HTTP/1.1\r\n\r\n").unwrap_err().code, 400);
        assert!(parse_request(b"GET / HTTP/1.0\r\n\r\n").is_ok());
        assert_eq!(parse_request(b"GET / HTTP/2.0\r\n\r\n").unwrap_err().code, 505);
        assert_eq!(parse_request(b"GET  / HTTP/1.1\r\nHost: a\r\n\r\n").unwrap_err().code, 400);
        assert_eq!(parse_request(b"GET / HTTP/1.1\r\nHost : a\r\n\r\n").unwrap_err().code, 400);
        assert_eq!(parse_request(b"GET / HTTP/1.1\r\nHost: a\r\n x\r\n\r\n").unwrap_err().code, 400);
        assert_eq!(
            parse_request(b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n").unwrap_err().code,
            413
        );
        assert_eq!(
            parse_request(b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n").unwrap_err().code,
            400
        );
        assert_eq!(parse_request(b"\xff\xfe / HTTP/1.1\r\n\r\n").unwrap_err().code, 400);
    }
}
