//! One address against the others over UDP: handshakes forged from a victim's address, clients
//! held by one address, and floods of garbage against the log.

use crate::common::*;
use ludus_protocol::client::Transport;
use ludus_protocol::{
    CHANNEL, ClientMessage, Hello, NETCODE_PROTOCOL_ID, PROTOCOL_VERSION, ServerMessage, connection_config,
    decode_server, encode,
};
use ludus_server::{ServerConfig, ServerHandle};
use renet2::RenetClient;
use renet2_netcode::{ClientAuthentication, ConnectToken, NativeSocket, NetcodeClientTransport};
use std::io::{BufRead, BufReader, Read};
use std::net::{SocketAddr, TcpStream, UdpSocket};
use std::time::{Duration, Instant};

/// Pumps `client` until the server welcomes it (bounded), running `meanwhile` before each pump.
fn wait_welcome(server: &ServerHandle, client: &mut RawClient, mut meanwhile: impl FnMut()) {
    let deadline = Instant::now() + WAIT;
    while !client.welcomed {
        assert!(Instant::now() < deadline, "the victim did not sign in: {:?}", server.status());
        meanwhile();
        client.pump();
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// A netcode client on a UDP socket bound to `from`, signing in with `token`.
struct RawClient {
    renet: RenetClient,
    transport: NetcodeClientTransport,
    last: Instant,
    welcomed: bool,
}

impl RawClient {
    fn start(token: ConnectToken, from: [u8; 4], nickname: &str) -> RawClient {
        let socket = UdpSocket::bind(SocketAddr::from((from, 0))).unwrap();
        let transport = NetcodeClientTransport::new(
            unix_now(),
            ClientAuthentication::Secure { connect_token: token },
            NativeSocket::new(socket).unwrap(),
        )
        .unwrap();
        let mut renet = RenetClient::new(connection_config(), false);
        let hello = Hello { version: PROTOCOL_VERSION, token: None, nickname: Some(nickname.into()) };
        renet.send_message(CHANNEL, encode(&ClientMessage::Hello(hello)).unwrap());
        RawClient { renet, transport, last: Instant::now(), welcomed: false }
    }

    fn pump(&mut self) {
        let dt = self.last.elapsed();
        self.last = Instant::now();
        self.renet.update(dt);
        let _ = self.transport.update(dt, &mut self.renet);
        while let Some(bytes) = self.renet.receive_message(CHANNEL) {
            if let Ok(ServerMessage::Welcome { .. }) = decode_server(&bytes) {
                self.welcomed = true;
            }
        }
        let _ = self.transport.send_packets(&mut self.renet);
    }
}

/// An attacker mints tokens from its own address (127.0.0.2) and sends their connection
/// requests forged from the victim's address (127.0.0.1) on 16 ports, again and again, as the
/// victim signs in: the forged requests are dropped before they take a handshake slot, and the
/// victim gets in.
#[test]
fn forged_handshakes_from_a_victims_address_do_not_lock_it_out() {
    let dir = data_dir("forged-handshakes");
    let server = server(&dir);
    let udp = server.udp_addr().unwrap();
    let forged: Vec<Vec<u8>> = (0..16)
        .map(|_| request_of(&token_from(&server, [127, 0, 0, 2]).1.expect("the attacker's token")))
        .collect();
    let spoofers: Vec<UdpSocket> = (0..16).map(|_| UdpSocket::bind("127.0.0.1:0").unwrap()).collect();
    let flood = || {
        for (socket, request) in spoofers.iter().zip(&forged) {
            socket.send_to(request, udp).unwrap();
        }
    };
    flood();
    let status = wait_status(&server, "the forged requests seen", |s| s.handshakes.wrong_address >= 16);
    assert_eq!(status.pending_handshakes, 0, "a forged request took a handshake slot: {status:?}");
    // The victim signs in while the forged requests keep coming.
    let (status, token, body) = token_from(&server, [127, 0, 0, 1]);
    assert_eq!(status, 200, "{body}");
    let mut victim = RawClient::start(token.unwrap(), [127, 0, 0, 1], "Victim");
    wait_welcome(&server, &mut victim, flood);
    let status = server.status();
    assert!(status.handshakes.wrong_address > 16, "{status:?}");
    assert_eq!(status.handshakes.refused_per_address, 0, "{status:?}");
    // The attacker's tokens still work from its own address.
    let token = token_from(&server, [127, 0, 0, 2]).1.expect("the attacker's own token");
    let mut own = RawClient::start(token, [127, 0, 0, 2], "Attacker");
    let deadline = Instant::now() + WAIT;
    while !own.welcomed {
        assert!(Instant::now() < deadline, "a token from its own address did not sign in");
        own.pump();
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// With `max_clients_per_address` at 2, a third client from the same address is refused with
/// a reason that says so, while another address still gets in.
#[test]
fn clients_per_address_are_capped_with_a_clear_refusal() {
    let dir = data_dir("clients-per-address");
    let mut config = ServerConfig::local(&dir);
    config.new_players_per_minute = 0;
    config.max_clients_per_address = 2;
    let server = spawn(config);
    let udp = server.udp_addr().unwrap();
    let _first = TestClient::signed_in(udp, Transport::Udp, "First");
    let _second = TestClient::signed_in(udp, Transport::Udp, "Second");
    wait_status(&server, "two clients", |s| s.connections == 2);
    let mut third = TestClient::connect(udp, Transport::Udp, "Third");
    let deadline = Instant::now() + WAIT;
    while !third.client.is_disconnected() {
        assert!(Instant::now() < deadline, "the third client was not refused: {:?}", third.client.state());
        third.pump();
        std::thread::sleep(Duration::from_millis(2));
    }
    let reason = format!("{:?}", third.client.state());
    assert!(reason.contains("too many clients from this address"), "{reason}");
    let (status, _, body) = token_from(&server, [127, 0, 0, 1]);
    assert_eq!(status, 429, "{body}");
    // Another address is not affected.
    let (status, token, body) = token_from(&server, [127, 0, 0, 2]);
    assert_eq!(status, 200, "{body}");
    let mut other = RawClient::start(token.unwrap(), [127, 0, 0, 2], "Other");
    let deadline = Instant::now() + WAIT;
    while !other.welcomed {
        assert!(Instant::now() < deadline, "another address did not get in");
        other.pump();
        std::thread::sleep(Duration::from_millis(2));
    }
    assert_eq!(server.status().connections, 3);
}

/// A connection request whose token is self-made (netcode cannot decrypt it: renetcode2 logs
/// an error for each one).
fn garbage_request(udp: SocketAddr, n: u64) -> Vec<u8> {
    let token =
        ConnectToken::generate(unix_now(), NETCODE_PROTOCOL_ID, 300, n, 10, 0, vec![udp], None, &[0; 32])
            .unwrap();
    request_of(&token)
}

/// `GET /metrics` of the binary's metrics address: the value of a sample line.
fn metric(http: SocketAddr, sample: &str) -> Option<u64> {
    use std::io::Write;
    let mut stream = TcpStream::connect(http).ok()?;
    stream.set_read_timeout(Some(WAIT)).ok()?;
    write!(stream, "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").ok()?;
    let mut text = String::new();
    stream.read_to_string(&mut text).ok()?;
    text.lines().find_map(|l| l.strip_prefix(sample)?.trim().parse().ok())
}

/// 10,000 garbage datagrams (half of them connection requests netcode refuses, half packets
/// dropped before netcode) against the server binary: stderr stays a few lines long, and the
/// refusals are counted in `/metrics`.
#[test]
fn garbage_datagrams_are_counted_not_logged_one_by_one() {
    let dir = data_dir("log-flood");
    let stderr_path = dir.join("stderr.log");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ludus-server"))
        .args(["--udp", "127.0.0.1:0", "--ws", "none", "--metrics", "127.0.0.1:0", "--data"])
        .arg(dir.join("data"))
        .env_remove("RUST_LOG")
        .stdout(std::process::Stdio::piped())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .expect("ludus-server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).expect("first line");
    let field = |f: &str| -> SocketAddr {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(&format!("{f}=")))
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no {f} in {line:?}"))
    };
    let udp = field("udp");
    // The metrics' address is in the log: "metrics on http://ADDR/metrics".
    let deadline = Instant::now() + WAIT;
    let http: SocketAddr = loop {
        let log = std::fs::read_to_string(&stderr_path).unwrap_or_default();
        if let Some(addr) = log.lines().find_map(|l| l.split("metrics on http://").nth(1)) {
            break addr.trim_end_matches("/metrics").parse().expect("the metrics address");
        }
        assert!(Instant::now() < deadline, "no metrics address in the log:\n{log}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let refused = "ludus_network_faults_total{kind=\"netcode_refused\"}";
    let malformed = "ludus_network_faults_total{kind=\"malformed\"}";
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    let (mut sent, batches) = (0u64, 10u64);
    for batch in 0..batches {
        for i in 0..500 {
            socket.send_to(&garbage_request(udp, batch * 500 + i + 1), udp).unwrap();
            socket
                .send_to(&[0x94, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19], udp)
                .unwrap();
        }
        sent += 500;
        // Each batch taken in before the next (the socket's buffer holds one easily).
        let deadline = Instant::now() + WAIT;
        while metric(http, refused).unwrap_or(0) < sent || metric(http, malformed).unwrap_or(0) < sent {
            assert!(Instant::now() < deadline, "batch {batch} not counted: {:?}", metric(http, refused));
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let log = std::fs::read_to_string(&stderr_path).unwrap();
    let lines = log.lines().count();
    assert!(lines <= 20, "{lines} lines for {} garbage datagrams:\n{log}", 2 * sent);
    assert!(!log.contains("Failed to process packet"), "{log}");
    assert!(log.contains("packet refused by netcode"), "the refusals are noted once: {log}");
}

/// Handshakes of tokens the endpoint did not mint (a server sharing the key, or one minted
/// before a restart: made here with the server's key) fill the victim's address; a request
/// whose token the victim asked for itself replaces one of them, and the victim gets in.
#[test]
fn handshakes_of_unknown_tokens_give_way_to_a_bound_one() {
    let dir = data_dir("unbound-handshakes");
    let server = server(&dir);
    let udp = server.udp_addr().unwrap();
    let text = std::fs::read_to_string(dir.join(ludus_server::tokens::KEY_FILE)).unwrap();
    let key: Vec<u8> =
        (0..32).map(|i| u8::from_str_radix(&text.trim()[2 * i..2 * i + 2], 16).unwrap()).collect();
    let key: [u8; 32] = key.try_into().unwrap();
    let per_ip = ludus_server::transport::PENDING_PER_IP;
    let spoofers: Vec<UdpSocket> = (0..per_ip).map(|_| UdpSocket::bind("127.0.0.1:0").unwrap()).collect();
    for (i, socket) in spoofers.iter().enumerate() {
        let token = ConnectToken::generate(
            unix_now(),
            NETCODE_PROTOCOL_ID,
            30,
            1000 + i as u64,
            10,
            0,
            vec![udp],
            None,
            &key,
        )
        .unwrap();
        socket.send_to(&request_of(&token), udp).unwrap();
    }
    wait_status(&server, "the address's handshakes full", |s| s.pending_handshakes == per_ip);
    let (status, token, body) = token_from(&server, [127, 0, 0, 1]);
    assert_eq!(status, 200, "{body}");
    let mut victim = RawClient::start(token.unwrap(), [127, 0, 0, 1], "Victim");
    wait_welcome(&server, &mut victim, || {});
    let status = server.status();
    assert!(status.handshakes.replaced >= 1, "{status:?}");
    assert_eq!(status.handshakes.refused_per_address, 0, "{status:?}");
}
