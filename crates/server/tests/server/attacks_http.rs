//! The HTTP side under attack: request bodies announced and never sent, clients that do not
//! read, TLS handshakes left hanging, from several addresses at once (127.0.0.2 and up: Linux
//! routes all of 127/8 to the loopback interface).

use crate::common::*;
use crate::http::{closed_by_server, connect_from, get, served, web_config};
use ludus_protocol::client::Transport;
use ludus_protocol::{ConnectRequest, PROTOCOL_VERSION, ServerMessage};
use ludus_server::ServerConfig;
use ludus_server::web::HttpLimits;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The head of a token request whose 200-byte body never comes.
const STALLED: &[u8] = b"POST /api/connect HTTP/1.1\r\nHost: x\r\nContent-Length: 200\r\n\r\n";

fn new_player_request() -> Vec<u8> {
    postcard::to_allocvec(&ConnectRequest {
        version: PROTOCOL_VERSION,
        socket: 0,
        credential: None,
        timeout_secs: 10,
    })
    .unwrap()
}

/// `per_address` connections from each of 127.0.0.2, 127.0.0.3, ...: each is answered once (so
/// the server holds a slot for it), then sends [`STALLED`].
fn stall(http: SocketAddr, addresses: u8, per_address: usize) -> Vec<TcpStream> {
    let mut streams = Vec::new();
    for a in 0..addresses {
        for _ in 0..per_address {
            let mut s = connect_from([127, 0, 0, 2 + a], http);
            assert!(served(&mut s), "127.0.0.{} gets a slot", 2 + a);
            s.write_all(STALLED).unwrap();
            streams.push(s);
        }
    }
    streams
}

/// Whether the server still holds `stream` open (nothing to read, no end).
fn still_open(stream: &TcpStream) -> bool {
    stream.set_nonblocking(true).unwrap();
    let open = matches!(stream.peek(&mut [0u8; 1]), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock);
    stream.set_nonblocking(false).unwrap();
    open
}

/// Reads `stream` to its end (bounded by its read timeout, `WAIT`): what the server sent before
/// it closed, or `None` if it kept the connection open.
fn until_closed(stream: &mut impl Read) -> Option<Vec<u8>> {
    let mut answer = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) => return Some(answer),
            Ok(n) => answer.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                return None;
            }
            // A reset, or a TLS peer gone without close_notify: closed all the same.
            Err(_) => return Some(answer),
        }
    }
}

/// The value of a metric line of the server's `--metrics` listener (-1 if absent).
fn metric(metrics: SocketAddr, line: &str) -> f64 {
    let text = String::from_utf8(get(metrics, "/metrics", None).body).unwrap();
    text.lines().find_map(|l| l.strip_prefix(line)?.trim().parse().ok()).unwrap_or(-1.0)
}

/// Sixty-four token requests from four addresses whose bodies never come hold every HTTP slot
/// (the bound is 64 here): a fifth address still gets its token, and a returning player signs
/// in, while the stalled connections stay open (their body timeout is longer than the test).
#[test]
fn stalled_bodies_from_four_addresses_shut_no_one_out() {
    let dir = data_dir("http-stalled-bodies");
    let mut config = ServerConfig::local(&dir);
    config.http_limits =
        HttpLimits { max_connections: 64, body_timeout: Duration::from_secs(120), ..HttpLimits::default() };
    let server = spawn(config);
    let (http, udp) = (server.http_addr().unwrap(), server.udp_addr().unwrap());
    let mut ann = TestClient::signed_in(udp, Transport::Udp, "Ann");
    assert!(ann.client.token().is_some());

    let stalled = stall(http, 4, 16);
    assert_eq!(stalled.len(), 64);
    // A new player from a fifth address.
    let fifth = connect_from([127, 0, 0, 6], http);
    let (status, token) =
        http_post_on(fifth, http, ludus_protocol::CONNECT_PATH, &new_player_request()).expect("an answer");
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&token));
    assert!(token.len() > 1000, "a connect token");
    // A returning player (its token request comes from 127.0.0.1).
    ann.client.reconnect().unwrap();
    ann.expect("Welcome", |m| matches!(m, ServerMessage::Welcome { resumed: true, .. }).then_some(()));
    ann.sync();
    // The attack was on all along: each newcomer took one stalled connection's slot at most.
    let open = stalled.iter().filter(|s| still_open(s)).count();
    assert!(open >= 62, "only {open} of the 64 stalled connections were still open");
}

/// The same stalled requests with a short body timeout: the server answers each `408` and
/// closes it, and counts them.
#[test]
fn stalled_bodies_are_closed_after_the_body_timeout() {
    let dir = data_dir("http-body-timeout");
    let mut config = ServerConfig::local(&dir);
    config.http_limits = HttpLimits { body_timeout: Duration::from_millis(300), ..HttpLimits::default() };
    config.metrics = Some(SocketAddr::from(([127, 0, 0, 1], 0)));
    let server = spawn(config);
    let (http, metrics) = (server.http_addr().unwrap(), server.metrics_addr().unwrap());
    let started = Instant::now();
    let mut stalled = stall(http, 4, 16);
    for (i, s) in stalled.iter_mut().enumerate() {
        let answer = until_closed(s).unwrap_or_else(|| panic!("stalled connection {i} still open"));
        assert!(answer.starts_with(b"HTTP/1.1 408"), "{i}: {:?}", String::from_utf8_lossy(&answer));
    }
    assert!(started.elapsed() < WAIT);
    assert_eq!(metric(metrics, "ludus_http_connections_closed_total{reason=\"body_timeout\"}"), 64.0);
    // A body sent in time is answered as ever.
    assert_eq!(request_token(http, 0, None).0, 200);
}

/// A client that asks for a large file and reads none of it is dropped once the server could
/// write nothing more for the write timeout.
#[test]
fn a_client_that_does_not_read_is_dropped_after_the_write_timeout() {
    const BIG: usize = 24 << 20;
    let (mut config, base) = web_config("http-write-timeout");
    std::fs::write(base.join("web").join("big.bin"), vec![7u8; BIG]).unwrap();
    config.http_limits = HttpLimits { write_timeout: Duration::from_millis(300), ..HttpLimits::default() };
    config.metrics = Some(SocketAddr::from(([127, 0, 0, 1], 0)));
    let server = spawn(config);
    let (http, metrics) = (server.http_addr().unwrap(), server.metrics_addr().unwrap());
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    socket.connect_timeout(&http.into(), WAIT).unwrap();
    let mut slow: TcpStream = socket.into();
    slow.set_read_timeout(Some(WAIT)).unwrap();
    slow.write_all(b"GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n").unwrap();
    let deadline = Instant::now() + WAIT;
    while metric(metrics, "ludus_http_connections_closed_total{reason=\"write_timeout\"}") < 1.0 {
        assert!(Instant::now() < deadline, "the slow reader was never dropped");
        std::thread::sleep(Duration::from_millis(20));
    }
    let got = until_closed(&mut slow).expect("closed");
    assert!(got.starts_with(b"HTTP/1.1 200"));
    assert!(got.len() < BIG, "the whole file went out ({} bytes)", got.len());
}

/// A TLS client set up to trust the test certificate (tests/server/tls).
fn tls_client() -> (Arc<rustls::ClientConfig>, ludus_server::TlsFiles) {
    use rustls_pki_types::pem::PemObject;
    let tls_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/server/tls");
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_pki_types::CertificateDer::pem_file_iter(tls_dir.join("ca.pem")).unwrap() {
        roots.add(cert.unwrap()).unwrap();
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let client = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let files = ludus_server::TlsFiles { cert: tls_dir.join("cert.pem"), key: tls_dir.join("key.pem") };
    (Arc::new(client), files)
}

type TlsStream = rustls::StreamOwned<rustls::ClientConnection, TcpStream>;

/// A TLS connection from `source` whose handshake is done.
fn tls_from(client: &Arc<rustls::ClientConfig>, source: [u8; 4], http: SocketAddr) -> TlsStream {
    let name = rustls_pki_types::ServerName::try_from("localhost").unwrap();
    let tls = rustls::ClientConnection::new(client.clone(), name).unwrap();
    let mut stream = rustls::StreamOwned::new(tls, connect_from(source, http));
    while stream.conn.is_handshaking() {
        stream.conn.complete_io(&mut stream.sock).expect("TLS handshake");
    }
    stream
}

/// Over https: a handshake left hanging is closed after the handshake timeout, a stalled body
/// after the body timeout (`408`), and stalled connections in every slot do not keep a newcomer
/// from its token.
#[test]
fn https_has_the_same_deadlines_and_shares() {
    let (client, files) = tls_client();
    let dir = data_dir("https-deadlines");
    let mut config = ServerConfig::local(&dir);
    config.tls = Some(files.clone());
    config.http_limits = HttpLimits {
        handshake_timeout: Duration::from_millis(300),
        body_timeout: Duration::from_millis(300),
        ..HttpLimits::default()
    };
    let server = spawn(config);
    let http = server.http_addr().unwrap();
    // A TCP connection that never starts its handshake, one that stops halfway.
    let mut silent = connect_from([127, 0, 0, 2], http);
    let mut half = connect_from([127, 0, 0, 2], http);
    half.write_all(&[0x16, 0x03, 0x01, 0x00, 0xff, 0x01]).unwrap();
    assert!(closed_by_server(&mut silent), "a silent TLS connection stayed open");
    assert!(closed_by_server(&mut half), "a half handshake stayed open");
    // A stalled body behind TLS.
    let mut stalled = tls_from(&client, [127, 0, 0, 3], http);
    stalled.write_all(STALLED).unwrap();
    stalled.flush().unwrap();
    let answer = until_closed(&mut stalled).expect("closed after the body timeout");
    assert!(answer.starts_with(b"HTTP/1.1 408"), "{:?}", String::from_utf8_lossy(&answer));

    // Every slot held by stalled bodies from two addresses.
    let dir = data_dir("https-shares");
    let mut config = ServerConfig::local(&dir);
    config.tls = Some(files);
    config.http_limits = HttpLimits {
        max_connections: 4,
        max_per_address: 2,
        body_timeout: Duration::from_secs(120),
        ..HttpLimits::default()
    };
    let server = spawn(config);
    let http = server.http_addr().unwrap();
    let mut held = Vec::new();
    for source in [[127, 0, 0, 4], [127, 0, 0, 5]] {
        for _ in 0..2 {
            let mut s = tls_from(&client, source, http);
            s.write_all(STALLED).unwrap();
            s.flush().unwrap();
            held.push(s);
        }
    }
    // The fourth handshake done means the server accepted all four: every slot is taken.
    let newcomer = tls_from(&client, [127, 0, 0, 6], http);
    let (status, token) =
        http_post_on(newcomer, http, ludus_protocol::CONNECT_PATH, &new_player_request()).expect("an answer");
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&token));
    let open = held.iter_mut().map(tls_still_open).filter(|&o| o).count();
    assert!(open >= 3, "the newcomer took one slot at most ({open} of 4 still open)");
}

/// Whether the server still holds a TLS connection open (a session ticket may be waiting: it
/// is read, and is no data).
fn tls_still_open(stream: &mut TlsStream) -> bool {
    stream.sock.set_nonblocking(true).unwrap();
    let read = stream.read(&mut [0u8; 1]);
    stream.sock.set_nonblocking(false).unwrap();
    matches!(read, Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
}
