//! `--web DIR`: the static files over HTTP, their precompressed twins, `/ludus-server.json`, and
//! requests that must be refused (traversal, oversized, garbage), over raw 127.0.0.1 TCP.

use crate::common::*;
use ludus_server::web::{HttpLimits, MAX_HEAD, MAX_REQUEST_LINE};
use ludus_server::{ServerConfig, ServerHandle};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const INDEX: &str = "<!doctype html><title>Ludus</title>";
const WASM: &[u8] = b"\0asm\x01\0\0\0 raw";
const WASM_BR: &[u8] = b"brotli bytes";
const WASM_GZ: &[u8] = b"\x1f\x8b gzip bytes!";
const SECRET: &str = "secret outside the web directory";

/// A web directory inside `base` (next to a file that must never be served) and a server for it.
fn web_server(name: &str) -> (ServerHandle, SocketAddr, PathBuf) {
    web_server_with(name, HttpLimits::default())
}

pub fn web_server_with(name: &str, limits: HttpLimits) -> (ServerHandle, SocketAddr, PathBuf) {
    let (mut config, base) = web_config(name);
    config.http_limits = limits;
    let server = spawn(config);
    let addr = server.http_addr().expect("HTTP is on");
    assert!(addr.ip().is_loopback());
    (server, addr, base)
}

/// The configuration of [`web_server`] and the directory its web directory is in.
pub fn web_config(name: &str) -> (ServerConfig, PathBuf) {
    let base = data_dir(name);
    let web = base.join("web");
    std::fs::create_dir_all(web.join("sub")).unwrap();
    std::fs::write(web.join("index.html"), INDEX).unwrap();
    std::fs::write(web.join("a.wasm"), WASM).unwrap();
    std::fs::write(web.join("a.wasm.br"), WASM_BR).unwrap();
    std::fs::write(web.join("a.wasm.gz"), WASM_GZ).unwrap();
    std::fs::write(web.join("b.js"), "export {};").unwrap();
    std::fs::write(web.join("b.js.gz"), "gz").unwrap();
    std::fs::write(web.join("icon.png"), b"\x89PNG").unwrap();
    std::fs::write(web.join("m.webmanifest"), "{}").unwrap();
    std::fs::write(web.join("ludus_bg-0123456789abcdef.wasm"), WASM).unwrap();
    std::fs::write(web.join("ludus-0123456789abcdef.js"), "export {};").unwrap();
    std::fs::write(web.join("ludus-0123456789ABCDEF.js"), "export {};").unwrap();
    std::fs::write(web.join(".built"), "hidden").unwrap();
    std::fs::write(web.join("sub").join("index.html"), "sub page").unwrap();
    std::fs::write(base.join("secret.txt"), SECRET).unwrap();
    std::fs::write(base.join("Cargo.toml"), SECRET).unwrap();
    let mut config = ServerConfig::local(base.join("data"));
    config.web_dir = Some(web.clone());
    (config, base)
}

pub struct Response {
    pub status: u16,
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(&name.to_ascii_lowercase()).map(String::as_str)
    }
}

pub fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect_timeout(&addr, WAIT).expect("connect");
    stream.set_read_timeout(Some(WAIT)).unwrap();
    stream.set_write_timeout(Some(WAIT)).unwrap();
    stream
}

/// Sends `raw`, reads until the server closes (bounded by `WAIT`), returns everything read.
pub fn exchange(addr: SocketAddr, raw: &[u8]) -> Vec<u8> {
    try_exchange(addr, raw).unwrap_or_else(|e| panic!("{e}"))
}

pub fn try_exchange(addr: SocketAddr, raw: &[u8]) -> Result<Vec<u8>, String> {
    let mut stream = connect(addr);
    // The server may answer and close before reading everything (an oversized request).
    let _ = stream.write_all(raw);
    let mut out = Vec::new();
    let deadline = Instant::now() + WAIT;
    let mut chunk = [0u8; 8192];
    while Instant::now() < deadline {
        match stream.read(&mut chunk) {
            Ok(0) => return Ok(out),
            Ok(n) => out.extend_from_slice(&chunk[..n]),
            // A signal (another test's child process ending) interrupted the read: read on.
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("reading the answer: {e} (after {} bytes)", out.len())),
        }
    }
    Err(format!("the server kept the connection open past {WAIT:?}"))
}

/// Splits one response off the front of `bytes` (a body only if `with_body`).
pub fn parse(bytes: &[u8], with_body: bool) -> (Response, &[u8]) {
    let end = bytes.windows(4).position(|w| w == b"\r\n\r\n").expect("a complete head") + 4;
    let head = std::str::from_utf8(&bytes[..end]).expect("an ASCII head");
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    let mut parts = status_line.splitn(3, ' ');
    // hyper answers in the request's version (HTTP/1.0 to an HTTP/1.0 request).
    assert!(matches!(parts.next(), Some("HTTP/1.1" | "HTTP/1.0")), "{status_line}");
    let status: u16 = parts.next().unwrap().parse().unwrap();
    let mut headers = HashMap::new();
    for line in lines.filter(|l| !l.is_empty()) {
        let (name, value) = line.split_once(": ").expect("a header");
        assert!(headers.insert(name.to_ascii_lowercase(), value.to_string()).is_none(), "{name} twice");
    }
    let length: usize = headers.get("content-length").map_or(0, |l: &String| l.parse().unwrap());
    let body_len = if with_body { length } else { 0 };
    let body = bytes[end..end + body_len].to_vec();
    (Response { status, headers, body }, &bytes[end + body_len..])
}

/// One request with `Connection: close`.
pub fn request(addr: SocketAddr, method: &str, path: &str, extra: &str) -> Response {
    let raw = format!("{method} {path} HTTP/1.1\r\nHost: test\r\n{extra}Connection: close\r\n\r\n");
    let bytes = exchange(addr, raw.as_bytes());
    let (response, rest) = parse(&bytes, method != "HEAD");
    assert!(rest.is_empty(), "{path}: bytes after the response");
    response
}

pub fn get(addr: SocketAddr, path: &str, accept_encoding: Option<&str>) -> Response {
    let extra = accept_encoding.map(|e| format!("Accept-Encoding: {e}\r\n")).unwrap_or_default();
    request(addr, "GET", path, &extra)
}

#[test]
fn serves_files_with_types_and_encodings() {
    let (_server, addr, _) = web_server("http-files");

    for path in ["/", "/index.html", "/?game=alquerque&server=ws://10.0.0.2:5001"] {
        let r = get(addr, path, Some("gzip, deflate, br"));
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
        assert_eq!(r.header("cache-control"), Some("no-cache"));
        assert_eq!(r.header("vary"), Some("Accept-Encoding"));
        assert_eq!(r.header("content-encoding"), None, "no index.html.br here");
        assert_eq!(r.header("content-length"), Some(INDEX.len().to_string().as_str()));
        assert_eq!(r.body, INDEX.as_bytes());
        assert!(r.header("date").is_some_and(|d| d.ends_with(" GMT")));
    }
    assert_eq!(get(addr, "/sub/", None).body, b"sub page");

    // br first, then gzip, then the file itself.
    let cases: [(Option<&str>, Option<&str>, &[u8]); 7] = [
        (Some("gzip, deflate, br, zstd"), Some("br"), WASM_BR),
        // tower-http weighs the q-values (the old server preferred br whenever allowed).
        (Some("br;q=0.5, gzip;q=1"), Some("gzip"), WASM_GZ),
        (Some("gzip, deflate"), Some("gzip"), WASM_GZ),
        (Some("br;q=0, gzip"), Some("gzip"), WASM_GZ),
        // tower-http does not read `*` as "any coding": the file itself (the old server sent br).
        (Some("*"), None, WASM),
        (Some("identity"), None, WASM),
        (None, None, WASM),
    ];
    for (accept, encoding, body) in cases {
        let r = get(addr, "/a.wasm", accept);
        assert_eq!(r.status, 200);
        assert_eq!(r.header("content-type"), Some("application/wasm"), "{accept:?}");
        assert_eq!(r.header("content-encoding"), encoding, "{accept:?}");
        assert_eq!(r.header("vary"), Some("Accept-Encoding"));
        assert_eq!(r.header("content-length"), Some(body.len().to_string().as_str()), "{accept:?}");
        assert_eq!(r.body, body, "{accept:?}");
    }
    // Only a .gz twin: br is accepted but absent.
    let r = get(addr, "/b.js", Some("br, gzip"));
    assert_eq!(r.header("content-type"), Some("text/javascript; charset=utf-8"));
    assert_eq!(r.header("content-encoding"), Some("gzip"));
    assert_eq!(r.body, b"gz");

    let r = get(addr, "/icon.png", None);
    assert_eq!(r.header("content-type"), Some("image/png"));
    assert!(r.header("cache-control").is_some_and(|c| c.contains("max-age=")));
    let r = get(addr, "/m.webmanifest", None);
    assert_eq!(r.header("content-type"), Some("application/manifest+json"));

    // The game's code under its content-hashed name is kept for good; a script without a hash
    // (the service worker) and a name that only looks hashed are revalidated.
    for path in ["/ludus_bg-0123456789abcdef.wasm", "/ludus-0123456789abcdef.js"] {
        let r = get(addr, path, None);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("cache-control"), Some("public, max-age=31536000, immutable"), "{path}");
    }
    for path in ["/b.js", "/a.wasm", "/ludus-0123456789ABCDEF.js"] {
        assert_eq!(get(addr, path, None).header("cache-control"), Some("no-cache"), "{path}");
    }

    // HEAD: the same headers, no body.
    let get_r = get(addr, "/a.wasm", Some("br"));
    let head = request(addr, "HEAD", "/a.wasm", "Accept-Encoding: br\r\n");
    assert_eq!(head.status, 200);
    for name in ["content-type", "content-length", "content-encoding", "etag", "vary", "cache-control"] {
        assert_eq!(head.header(name), get_r.header(name), "{name}");
    }
    assert!(head.body.is_empty());
    // The raw response really has nothing after the head.
    let raw = exchange(addr, b"HEAD / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
    assert!(raw.ends_with(b"\r\n\r\n"));

    // Revalidation.
    let etag = get_r.header("etag").unwrap().to_string();
    let r = request(addr, "GET", "/a.wasm", &format!("Accept-Encoding: br\r\nIf-None-Match: {etag}\r\n"));
    assert_eq!(r.status, 304);
    assert_eq!(r.header("etag"), Some(etag.as_str()));
    let r = request(addr, "GET", "/a.wasm", &format!("If-None-Match: {etag}\r\n"));
    assert_eq!(r.status, 200, "another encoding, another tag");
}

#[test]
fn server_info_names_the_ports() {
    let (server, addr, _) = web_server("http-info");
    let r = get(addr, "/ludus-server.json", Some("br, gzip"));
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.header("cache-control"), Some("no-store"));
    let info: serde_json::Value = serde_json::from_slice(&r.body).expect("JSON");
    assert_eq!(info["ws_port"], server.ws_addr().unwrap().port());
    assert_eq!(info["udp_port"], server.udp_addr().unwrap().port());
    assert_eq!(info["version"], ludus_protocol::PROTOCOL_VERSION);

    // Without UDP: null.
    let base = data_dir("http-info-no-udp");
    let mut config = ServerConfig::local(base.join("data"));
    config.udp = None;
    config.http = Some(SocketAddr::from(([127, 0, 0, 1], 0)));
    config.web_dir = Some(base.clone());
    let server = ServerHandle::spawn(config).unwrap();
    let r = get(server.http_addr().unwrap(), "/ludus-server.json", None);
    let info: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(info["udp_port"], serde_json::Value::Null);
    assert_eq!(info["ws_port"], server.ws_addr().unwrap().port());

    // No web directory: HTTP all the same (connect tokens), on the UDP port's number; a
    // missing one: the server does not start.
    let plain = crate::common::server(&data_dir("http-none"));
    assert_eq!(plain.http_addr(), plain.udp_addr());
    let r = get(plain.http_addr().unwrap(), "/", None);
    assert_eq!(r.status, 404, "no files without a web directory");
    let mut config = ServerConfig::local(data_dir("http-missing"));
    config.web_dir = Some(PathBuf::from("/nonexistent/ludus-web"));
    assert!(ServerHandle::spawn(config).is_err());
}

#[test]
fn refuses_what_it_must() {
    let (server, addr, base) = web_server("http-refuse");
    let never_leaks = |r: &Response, what: &str| {
        assert!(!String::from_utf8_lossy(&r.body).contains(SECRET), "{what} leaked a file outside");
        assert!(r.body.len() < 100, "{what}: short bodies only");
    };
    assert!(Path::new(&base.join("secret.txt")).exists());

    for path in [
        "/../secret.txt",
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/%2E%2e/secret.txt",
        "/..%2fsecret.txt",
        "/sub/../../secret.txt",
        "//etc/passwd",
        "/..\\secret.txt",
        "/%5c..%5csecret.txt",
        "/index.html%00.png",
        "/./index.html",
        "/%zz",
        "/%ff",
        "../secret.txt",
        "http://test/../secret.txt",
    ] {
        let r = get(addr, path, None);
        assert_eq!(r.status, 400, "{path}");
        never_leaks(&r, path);
    }
    for path in ["/missing.js", "/.built", "/sub", "/a.wasm/", "/etc/passwd"] {
        let r = get(addr, path, Some("br, gzip"));
        assert_eq!(r.status, 404, "{path}");
        never_leaks(&r, path);
    }
    // A symbolic link out of the directory is not followed.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(base.join("secret.txt"), base.join("web").join("link.txt")).unwrap();
        let r = get(addr, "/link.txt", None);
        assert_eq!(r.status, 404);
        never_leaks(&r, "a symlink");
    }

    for method in ["POST", "PUT", "DELETE", "OPTIONS", "BREW"] {
        let r = request(addr, method, "/index.html", "");
        assert_eq!(r.status, 405, "{method}");
        assert_eq!(r.header("allow"), Some("GET, HEAD"));
    }
    let r = request(addr, "GET", "/", "Content-Length: 3\r\n");
    assert_eq!(r.status, 413);

    // Oversized request line and head.
    let long = format!("GET /{} HTTP/1.1\r\nHost: t\r\n\r\n", "a".repeat(MAX_REQUEST_LINE));
    let (r, _) = parse(&exchange(addr, long.as_bytes()), true);
    assert_eq!(r.status, 414);
    let long = format!("GET /{}", "a".repeat(4 * MAX_HEAD));
    let (r, _) = parse(&exchange(addr, long.as_bytes()), true);
    // hyper: a head that outgrows its buffer before the line ends is 431 (was 414).
    assert_eq!(r.status, 431, "no line end at all");
    let big = format!("GET / HTTP/1.1\r\nHost: t\r\nX-Big: {}\r\n\r\n", "b".repeat(MAX_HEAD));
    let (r, _) = parse(&exchange(addr, big.as_bytes()), true);
    assert_eq!(r.status, 431);

    // Malformed request lines and headers: 400.
    let bad: [(&[u8], u16); 9] = [
        (b"\r\n\r\n\r\n\r\n\r\n\r\n\r\nGARBAGE\r\n\r\n", 400),
        (b"GET /\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\n\r\n", 400),
        // hyper refuses other versions as malformed (400; the old server said 505).
        (b"GET / HTTP/2.0\r\nHost: t\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost t\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost: t\r\n folded\r\n\r\n", 400),
        (b"G\xc3\x28T / HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        (b"GET /\x01 HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\n\n", 400),
    ];
    for (raw, status) in bad {
        let (r, _) = parse(&exchange(addr, raw), true);
        // hyper closes after a malformed head (`exchange` reads to the end) without saying
        // `Connection: close`.
        assert_eq!(r.status, status, "{:?}", String::from_utf8_lossy(raw));
    }
    // Random bytes (each chunk ended by a blank line so the server answers at once): never a
    // success, never a hang, never a crash.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for round in 0..40 {
        let mut raw: Vec<u8> = (0..(round * 37) % 900 + 1)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed >> 24) as u8
            })
            .collect();
        raw.extend_from_slice(b"\r\n\r\n");
        let answer = exchange(addr, &raw);
        if !answer.is_empty() {
            let (r, _) = parse(&answer, true);
            assert!(r.status >= 400, "round {round}: {}", r.status);
        }
    }
    // Connections closed at once, or half a request and gone.
    for _ in 0..10 {
        drop(connect(addr));
        let mut s = connect(addr);
        let _ = s.write_all(b"GET /index.html HT");
    }

    // After all that, it still serves files and games (once the closed connections' slots are
    // back: until then the per-address cap may answer 503).
    let deadline = Instant::now() + WAIT;
    loop {
        let r = get(addr, "/", None);
        if r.status != 503 {
            assert_eq!(r.body, INDEX.as_bytes());
            break;
        }
        assert!(Instant::now() < deadline, "slots never freed");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut client =
        TestClient::signed_in(server.ws_addr().unwrap(), ludus_protocol::client::Transport::WebSocket, "Web");
    client.sync();
}

#[test]
fn keep_alive_and_pipelining() {
    let (_server, addr, _) = web_server("http-keepalive");
    let raw = b"GET /a.wasm HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip\r\n\r\n\
                HEAD /index.html HTTP/1.1\r\nHost: t\r\n\r\n\
                GET /nothing HTTP/1.1\r\nHost: t\r\n\r\n\
                GET /ludus-server.json HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n";
    let bytes = exchange(addr, raw);
    let (first, rest) = parse(&bytes, true);
    assert_eq!((first.status, first.body.as_slice()), (200, WASM_GZ));
    // HTTP/1.1 keeps the connection by default: hyper does not say `Connection: keep-alive`.
    assert_ne!(first.header("connection"), Some("close"));
    let (second, rest) = parse(rest, false);
    assert_eq!(second.status, 200);
    assert_eq!(second.header("content-length"), Some(INDEX.len().to_string().as_str()));
    let (third, rest) = parse(rest, true);
    assert_eq!(third.status, 404);
    let (fourth, rest) = parse(rest, true);
    assert_eq!(fourth.status, 200);
    assert!(fourth.body.starts_with(b"{"));
    assert!(rest.is_empty());

    // HTTP/1.0 closes after one response unless asked otherwise.
    let bytes = exchange(addr, b"GET / HTTP/1.0\r\n\r\n");
    let (r, rest) = parse(&bytes, true);
    assert_eq!((r.status, r.body.as_slice(), rest.len()), (200, INDEX.as_bytes(), 0));
}

/// A TCP connection from `source` (any 127.x.y.z works on the loopback interface).
pub fn connect_from(source: [u8; 4], addr: SocketAddr) -> TcpStream {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
    socket.bind(&SocketAddr::from((source, 0)).into()).unwrap();
    socket.connect_timeout(&addr.into(), WAIT).expect("connect");
    let stream: TcpStream = socket.into();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    stream.set_write_timeout(Some(WAIT)).unwrap();
    stream
}

/// Waits until `stream` is answered with a `200` (its request is sent first).
pub fn served(stream: &mut TcpStream) -> bool {
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n").unwrap();
    let mut answer = [0u8; 512];
    let n = stream.read(&mut answer).unwrap_or(0);
    answer[..n].starts_with(b"HTTP/1.1 200")
}

/// Reads what a refused connection gets: a `503` with `Retry-After: 1`, then the close.
pub fn refused(mut stream: TcpStream) -> bool {
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    if answer.is_empty() {
        return false;
    }
    let (r, _) = parse(&answer, true);
    r.status == 503 && r.header("retry-after") == Some("1")
}

/// Whether the server closed `stream` (end of file or a reset within `WAIT`).
pub fn closed_by_server(stream: &mut TcpStream) -> bool {
    let mut rest = Vec::new();
    match stream.read_to_end(&mut rest) {
        Ok(_) => true,
        Err(e) => matches!(e.kind(), std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::BrokenPipe),
    }
}

#[test]
fn connections_are_bounded_overall_and_by_address() {
    let limits = HttpLimits { max_connections: 6, max_per_address: 3, ..HttpLimits::default() };
    let (_server, addr, _) = web_server_with("http-bounded", limits);
    // One address fills its share; each connection is answered, so all are counted.
    let mut open: Vec<TcpStream> = (0..3).map(|_| connect_from([127, 0, 0, 1], addr)).collect();
    assert!(open.iter_mut().all(served));
    assert!(refused(connect_from([127, 0, 0, 1], addr)), "a fourth connection from one address");
    // Another address still gets in, up to the overall bound.
    for _ in 0..3 {
        let mut s = connect_from([127, 0, 0, 2], addr);
        assert!(served(&mut s));
        open.push(s);
    }
    // Past the overall bound, a newcomer takes the oldest connection of an address holding the
    // most (127.0.0.1's first), then of the next (127.0.0.2's first)...
    for (i, victim) in [0, 3].into_iter().enumerate() {
        let mut s = connect_from([127, 0, 0, 3], addr);
        assert!(served(&mut s), "newcomer {i}");
        assert!(closed_by_server(&mut open[victim]), "connection {victim} gave its slot up");
        open.push(s);
    }
    // ...until it holds as many as the others: then it is refused.
    assert!(refused(connect_from([127, 0, 0, 3], addr)), "past the overall bound");
    for (i, s) in open.iter_mut().enumerate().filter(|(i, _)| ![0, 3].contains(i)) {
        assert!(served(s), "connection {i} kept its slot");
    }
    drop(open);
    // The slots come back once those connections are closed.
    let deadline = Instant::now() + WAIT;
    loop {
        let answer = try_exchange(addr, b"GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
        if answer.is_ok_and(|a| a.starts_with(b"HTTP/1.1 200")) {
            break;
        }
        assert!(Instant::now() < deadline, "slots never freed");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_silent_connection_is_closed_after_the_header_timeout() {
    // Long enough for the request of the kept-alive connection below to be read in time on a
    // loaded machine, short beside the [`WAIT`] of our own reads.
    let limits = HttpLimits { header_timeout: Duration::from_secs(1), ..HttpLimits::default() };
    let (_server, addr, _) = web_server_with("http-timeout", limits);
    let started = Instant::now();
    // Half a request, then nothing: the server closes the connection (without a response or
    // with a 408), well before our own read timeout.
    let answer = exchange(addr, b"GET /index.html HT");
    assert!(
        answer.is_empty() || answer.starts_with(b"HTTP/1.1 408"),
        "{:?}",
        String::from_utf8_lossy(&answer)
    );
    assert!(started.elapsed() < WAIT);
    // A kept-alive connection that goes quiet is closed too.
    let mut s = connect(addr);
    assert!(served(&mut s));
    let mut rest = Vec::new();
    let _ = s.read_to_end(&mut rest);
    assert!(rest.is_empty() || rest.starts_with(b"HTTP/1.1 408"));
}

#[test]
fn health_and_metrics() {
    let (mut config, _) = web_config("http-metrics");
    config.metrics = Some(SocketAddr::from(([127, 0, 0, 1], 0)));
    let server = spawn(config);
    let addr = server.http_addr().unwrap();
    let metrics = server.metrics_addr().expect("--metrics is on");
    assert_ne!(metrics, addr);
    let r = get(addr, "/healthz", None);
    assert_eq!((r.status, r.body.as_slice()), (200, b"ok\n".as_slice()));
    // The metrics are not public: only on their own address.
    assert_eq!(get(addr, "/metrics", None).status, 404, "no metrics on the token port");
    for path in ["/", "/healthz", "/metrics/x", "/ludus-server.json"] {
        assert_eq!(get(metrics, path, None).status, 404, "{path} on the metrics port");
    }
    assert!(web_server("http-no-metrics").0.metrics_addr().is_none(), "off unless asked");
    // A game's moves show in the counters.
    let ws = server.ws_addr().unwrap();
    let mut a = TestClient::signed_in(ws, ludus_protocol::client::Transport::WebSocket, "Ann");
    let mut b =
        TestClient::signed_in(server.udp_addr().unwrap(), ludus_protocol::client::Transport::Udp, "Bob");
    a.send(ludus_protocol::ClientMessage::JoinRoom { code: "??????".into() });
    a.expect_error(ludus_protocol::ErrorCode::UnknownRoom);
    let (view, first) = crate::play::start_game(&mut a, &mut b, ludus_rules::Variant::Latrunculi, None);
    let [p0, p1] = if first == 0 { [&mut a, &mut b] } else { [&mut b, &mut a] };
    crate::play::play_out([p0, p1], &mut [], view.game, ludus_rules::Variant::Latrunculi, 5, 4);
    let deadline = Instant::now() + WAIT;
    let text = loop {
        let text = String::from_utf8(get(metrics, "/metrics", None).body).unwrap();
        let metric = |name: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(name).and_then(|v| v.trim().parse::<f64>().ok()))
                .unwrap_or(-1.0)
        };
        let ready = metric("ludus_moves_total ") >= 4.0
            && metric("ludus_move_round_trip_seconds_count ") >= 4.0
            && metric("ludus_games_live ") == 1.0
            && metric("ludus_clients{transport=\"udp\"} ") == 1.0
            && metric("ludus_clients{transport=\"websocket\"} ") == 1.0
            && metric("ludus_refusals_total{kind=\"unknown_room\"} ") == 1.0;
        if ready {
            break text;
        }
        assert!(Instant::now() < deadline, "metrics never caught up:\n{text}");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(text.contains("# TYPE ludus_move_round_trip_seconds histogram"));
    assert!(text.contains("# TYPE ludus_moves_total counter"));
}

#[test]
fn https_with_a_certificate_made_in_the_test() {
    use std::sync::Arc;
    use tokio_rustls::rustls;
    let base = data_dir("https");
    let web = base.join("web");
    std::fs::create_dir_all(&web).unwrap();
    std::fs::write(web.join("index.html"), INDEX).unwrap();
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let (cert_path, key_path) = (base.join("cert.pem"), base.join("key.pem"));
    std::fs::write(&cert_path, certified.cert.pem()).unwrap();
    std::fs::write(&key_path, certified.signing_key.serialize_pem()).unwrap();
    let mut config = ServerConfig::local(base.join("data"));
    config.web_dir = Some(web);
    config.tls = Some(ludus_server::TlsFiles { cert: cert_path.clone(), key: key_path.clone() });
    let server = spawn(config);
    let addr = server.http_addr().unwrap();

    // A client that trusts that certificate only.
    let mut roots = rustls::RootCertStore::empty();
    roots.add(certified.cert.der().clone()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let client_config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    let mut tls = rustls::ClientConnection::new(Arc::new(client_config), name).unwrap();
    let mut tcp = connect(addr);
    let mut stream = rustls::Stream::new(&mut tls, &mut tcp);
    stream.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let (r, _) = parse(&answer, true);
    assert_eq!(r.status, 200);
    assert_eq!(r.body, INDEX.as_bytes());

    // Plain HTTP on the TLS port gets nothing served.
    let plain =
        try_exchange(addr, b"GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").unwrap_or_default();
    assert!(!plain.windows(INDEX.len()).any(|w| w == INDEX.as_bytes()));

    // Unusable files: the server does not start, with a clear error.
    let mut config = ServerConfig::local(base.join("data2"));
    config.web_dir = Some(base.join("web"));
    config.tls = Some(ludus_server::TlsFiles { cert: key_path.clone(), key: key_path });
    let e = ServerHandle::spawn(config).err().expect("a key is not a certificate");
    assert!(e.to_string().contains("TLS certificate"), "{e}");
}
