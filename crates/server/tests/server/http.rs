//! `--web DIR`: the static files over HTTP, their precompressed twins, `/ludus-server.json`, and
//! requests that must be refused (traversal, oversized, garbage), over raw 127.0.0.1 TCP.

use crate::common::*;
use ludus_server::http::{MAX_CONNECTIONS, MAX_HEAD, MAX_REQUEST_LINE};
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
    std::fs::write(web.join(".built"), "hidden").unwrap();
    std::fs::write(web.join("sub").join("index.html"), "sub page").unwrap();
    std::fs::write(base.join("secret.txt"), SECRET).unwrap();
    std::fs::write(base.join("Cargo.toml"), SECRET).unwrap();
    let mut config = ServerConfig::local(base.join("data"));
    config.web_dir = Some(web.clone());
    let server = ServerHandle::spawn(config).expect("server starts");
    let addr = server.http_addr().expect("HTTP is on");
    assert!(addr.ip().is_loopback());
    (server, addr, base)
}

struct Response {
    status: u16,
    headers: HashMap<String, String>,
    body: Vec<u8>,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(&name.to_ascii_lowercase()).map(String::as_str)
    }
}

fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect_timeout(&addr, WAIT).expect("connect");
    stream.set_read_timeout(Some(WAIT)).unwrap();
    stream.set_write_timeout(Some(WAIT)).unwrap();
    stream
}

/// Sends `raw`, reads until the server closes (bounded by `WAIT`), returns everything read.
fn exchange(addr: SocketAddr, raw: &[u8]) -> Vec<u8> {
    try_exchange(addr, raw).unwrap_or_else(|e| panic!("{e}"))
}

fn try_exchange(addr: SocketAddr, raw: &[u8]) -> Result<Vec<u8>, String> {
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
            Err(e) => return Err(format!("reading the answer: {e} (after {} bytes)", out.len())),
        }
    }
    Err(format!("the server kept the connection open past {WAIT:?}"))
}

/// Splits one response off the front of `bytes` (a body only if `with_body`).
fn parse(bytes: &[u8], with_body: bool) -> (Response, &[u8]) {
    let end = bytes.windows(4).position(|w| w == b"\r\n\r\n").expect("a complete head") + 4;
    let head = std::str::from_utf8(&bytes[..end]).expect("an ASCII head");
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    let mut parts = status_line.splitn(3, ' ');
    assert_eq!(parts.next(), Some("HTTP/1.1"), "{status_line}");
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
fn request(addr: SocketAddr, method: &str, path: &str, extra: &str) -> Response {
    let raw = format!("{method} {path} HTTP/1.1\r\nHost: test\r\n{extra}Connection: close\r\n\r\n");
    let bytes = exchange(addr, raw.as_bytes());
    let (response, rest) = parse(&bytes, method != "HEAD");
    assert!(rest.is_empty(), "{path}: bytes after the response");
    response
}

fn get(addr: SocketAddr, path: &str, accept_encoding: Option<&str>) -> Response {
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
        (Some("br;q=0.5, gzip;q=1"), Some("br"), WASM_BR),
        (Some("gzip, deflate"), Some("gzip"), WASM_GZ),
        (Some("br;q=0, gzip"), Some("gzip"), WASM_GZ),
        (Some("*"), Some("br"), WASM_BR),
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
    config.web_dir = Some(base.clone());
    let server = ServerHandle::spawn(config).unwrap();
    let r = get(server.http_addr().unwrap(), "/ludus-server.json", None);
    let info: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(info["udp_port"], serde_json::Value::Null);
    assert_eq!(info["ws_port"], server.ws_addr().unwrap().port());

    // No web directory: no HTTP; a missing one: the server does not start.
    let plain = crate::common::server(&data_dir("http-none"));
    assert_eq!(plain.http_addr(), None);
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
    assert_eq!(r.status, 414, "no line end at all");
    let big = format!("GET / HTTP/1.1\r\nHost: t\r\nX-Big: {}\r\n\r\n", "b".repeat(MAX_HEAD));
    let (r, _) = parse(&exchange(addr, big.as_bytes()), true);
    assert_eq!(r.status, 431);

    // Malformed request lines and headers: 400 (or 505 for another HTTP version).
    let bad: [(&[u8], u16); 9] = [
        (b"\r\n\r\n\r\n\r\n\r\n\r\n\r\nGARBAGE\r\n\r\n", 400),
        (b"GET /\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\n\r\n", 400),
        (b"GET / HTTP/2.0\r\nHost: t\r\n\r\n", 505),
        (b"GET / HTTP/1.1\r\nHost t\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost: t\r\n folded\r\n\r\n", 400),
        (b"G\xc3\x28T / HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        (b"GET /\x01 HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\n\n", 400),
    ];
    for (raw, status) in bad {
        let (r, _) = parse(&exchange(addr, raw), true);
        assert_eq!(r.status, status, "{:?}", String::from_utf8_lossy(raw));
        assert_eq!(r.header("connection"), Some("close"));
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

    // After all that, it still serves files and games.
    assert_eq!(get(addr, "/", None).body, INDEX.as_bytes());
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
    assert_eq!(first.header("connection"), Some("keep-alive"));
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

#[test]
fn connections_are_bounded() {
    let (_server, addr, _) = web_server("http-bounded");
    // Idle connections fill every slot (each waits for its request line, for a few seconds).
    let mut idle: Vec<TcpStream> = (0..MAX_CONNECTIONS - 1).map(|_| connect(addr)).collect();
    // Connections are accepted in order: once the last one is answered, all are counted.
    let mut last = connect(addr);
    last.write_all(b"GET /ludus-server.json HTTP/1.1\r\nHost: t\r\n\r\n").unwrap();
    let mut answer = [0u8; 512];
    let n = last.read(&mut answer).unwrap();
    assert!(answer[..n].starts_with(b"HTTP/1.1 200"));
    idle.push(last);
    // Refused at once, before any request.
    let mut probe = connect(addr);
    let mut answer = Vec::new();
    let _ = probe.read_to_end(&mut answer);
    let (refused, _) = parse(&answer, true);
    assert_eq!(refused.status, 503);
    assert_eq!(refused.header("retry-after"), Some("1"));
    drop(idle);
    // The slots come back once those connections are closed.
    let deadline = Instant::now() + WAIT;
    loop {
        // A refused connection may also be reset: the request arrived after the server looked.
        let answer = try_exchange(addr, b"GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
        if answer.is_ok_and(|a| a.starts_with(b"HTTP/1.1 200")) {
            break;
        }
        assert!(Instant::now() < deadline, "slots never freed");
        std::thread::sleep(Duration::from_millis(20));
    }
}
