//! Random and truncated bytes at every layer never crash the server.

use crate::common::*;
use ludus_protocol::client::Transport;
use ludus_protocol::{ClientMessage, ErrorCode, GameId, NETCODE_PROTOCOL_ID, ServerMessage, encode};
use ludus_rules::Variant;
use ludus_server::core::Limits;
use rand::rngs::SmallRng;
use rand::{Rng, RngCore, SeedableRng};
use renetcode2::{ClientAuthentication, ConnectToken, NetcodeClient};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, UdpSocket};
use std::time::{Duration, Instant};

/// The server still signs players in and plays moves.
fn still_serves(udp: SocketAddr, ws: SocketAddr) {
    let mut a = TestClient::signed_in(udp, Transport::Udp, "After");
    let mut b = TestClient::signed_in(ws, Transport::WebSocket, "Math");
    let (view, first) = crate::play::start_game(&mut a, &mut b, Variant::Alquerque, None);
    let mover = if first == 0 { &mut a } else { &mut b };
    mover.send(ClientMessage::Move { game: view.game, ply: 0, mv: "b2-c3".into() });
    mover.expect_move(view.game, 0);
}

/// A raw netcode client: handshake by hand, then arbitrary renet2 payloads.
struct RawNetcode {
    netcode: NetcodeClient,
    socket: UdpSocket,
    last: Instant,
}

impl RawNetcode {
    fn connect(server: SocketAddr) -> RawNetcode {
        // The server's HTTP port is its UDP port's number (over TCP).
        let (status, bytes) = request_token(server, 0, None);
        assert_eq!(status, 200);
        let mut token = ConnectToken::read(&mut &bytes[..]).unwrap();
        token.server_addresses = [None; 32];
        token.server_addresses[0] = Some(server);
        let netcode =
            NetcodeClient::new(unix_now(), ClientAuthentication::Secure { connect_token: token }).unwrap();
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        socket.set_nonblocking(true).unwrap();
        let mut raw = RawNetcode { netcode, socket, last: Instant::now() };
        let deadline = Instant::now() + WAIT;
        while !raw.netcode.is_connected() {
            assert!(Instant::now() < deadline, "raw netcode client could not connect");
            raw.pump();
            std::thread::sleep(Duration::from_millis(5));
        }
        raw
    }

    fn pump(&mut self) {
        let dt = self.last.elapsed();
        self.last = Instant::now();
        if let Some((packet, addr)) = self.netcode.update(dt) {
            let _ = self.socket.send_to(packet, addr);
        }
        let mut buf = [0u8; 1500];
        while let Ok((len, _)) = self.socket.recv_from(&mut buf) {
            let _ = self.netcode.process_packet(&mut buf[..len]);
        }
    }

    fn send_payload(&mut self, payload: &[u8]) {
        if let Ok((addr, packet)) = self.netcode.generate_payload_packet(payload) {
            let _ = self.socket.send_to(packet, addr);
        }
    }
}

/// A QUIC-style varint as renet2 writes them (octets).
fn varint(v: u64, out: &mut Vec<u8>) {
    if v < 64 {
        out.push(v as u8);
    } else if v < 16384 {
        out.extend_from_slice(&((v as u16) | 0x4000).to_be_bytes());
    } else if v < (1 << 30) {
        out.extend_from_slice(&((v as u32) | 0x8000_0000).to_be_bytes());
    } else {
        out.extend_from_slice(&(v | 0xc000_0000_0000_0000).to_be_bytes());
    }
}

#[test]
fn garbage_udp_packets_and_forged_renet_packets() {
    let dir = data_dir("garbage-udp");
    let server = server(&dir);
    let (udp, ws) = (server.udp_addr().unwrap(), server.ws_addr().unwrap());
    let mut rng = SmallRng::seed_from_u64(1);
    let sock = UdpSocket::bind("127.0.0.1:0").unwrap();

    // Random datagrams of every size, some shaped like connection requests.
    for i in 0..3000 {
        let len = rng.random_range(0..1500usize);
        let mut packet = vec![0u8; len];
        rng.fill_bytes(&mut packet);
        if i % 3 == 0 && len > 0 {
            packet[0] = 0; // connection request prefix
        }
        let _ = sock.send_to(&packet, udp);
        if i % 200 == 0 {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    // A real connection request, truncated and bit-flipped.
    let token =
        ConnectToken::generate(unix_now(), NETCODE_PROTOCOL_ID, 300, 77, 5, 0, vec![udp], None, &[0; 32])
            .unwrap();
    let mut nc =
        NetcodeClient::new(unix_now(), ClientAuthentication::Secure { connect_token: token }).unwrap();
    let request = nc.update(Duration::ZERO).map(|(p, _)| p.to_vec()).expect("a connection request");
    for cut in (0..request.len()).step_by(7) {
        let _ = sock.send_to(&request[..cut], udp);
        let mut flipped = request.clone();
        flipped[cut] ^= 0x5a;
        let _ = sock.send_to(&flipped, udp);
    }

    // Connected netcode clients sending forged renet2 packets. First a reliable slice whose
    // index is past its slice count: renet2 0.16.3 indexes out of bounds on it (a panic that the
    // server contains, dropping that client).
    let mut raw = RawNetcode::connect(udp);
    let mut slice = vec![2u8];
    varint(0, &mut slice); // sequence
    slice.push(0); // channel
    varint(0, &mut slice); // message id
    varint(5, &mut slice); // slice index
    varint(2, &mut slice); // number of slices
    varint(1200, &mut slice);
    slice.extend(std::iter::repeat_n(7u8, 1200));
    raw.send_payload(&slice);
    let deadline = Instant::now() + WAIT;
    while Instant::now() < deadline && server.status().contained_panics == 0 {
        raw.pump();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(server.status().contained_panics, 1, "the forged slice reached renet2");
    // Then extreme acknowledgement ranges, and random payloads.
    let mut raw = RawNetcode::connect(udp);
    let mut ack = vec![4u8];
    varint(1, &mut ack);
    varint((1 << 62) - 1, &mut ack);
    varint((1 << 62) - 1, &mut ack);
    varint(3, &mut ack);
    raw.send_payload(&ack);
    let mut raw = RawNetcode::connect(udp);
    for _ in 0..200 {
        let len = rng.random_range(1..1200usize);
        let mut payload = vec![0u8; len];
        rng.fill_bytes(&mut payload);
        raw.send_payload(&payload);
        raw.pump();
    }
    assert!(server.is_running());
    still_serves(udp, ws);
    assert!(server.is_running());
}

#[test]
fn garbage_messages_from_a_signed_in_client() {
    let dir = data_dir("garbage-messages");
    let limits = Limits { burst: 1e9, rate: 1e9, max_strikes: u32::MAX, ..Limits::default() };
    let server = server_with(&dir, limits);
    let (udp, ws) = (server.udp_addr().unwrap(), server.ws_addr().unwrap());
    let mut rng = SmallRng::seed_from_u64(2);
    for transport in [Transport::Udp, Transport::WebSocket] {
        let addr = if transport == Transport::Udp { udp } else { ws };
        let mut c = TestClient::signed_in(addr, transport, "Fuzzer");
        let valid: Vec<Vec<u8>> = [
            ClientMessage::Move { game: GameId(u64::MAX), ply: u32::MAX, mv: "a1-a2".into() },
            ClientMessage::Propose { game: GameId(1), ply: 0, mv: String::new() },
            ClientMessage::JoinRoom { code: "\u{0}".repeat(100) },
            ClientMessage::OpenRoom { variant: Variant::Latrunculi, clock: None, public: true, rated: false },
            ClientMessage::SetNickname { nickname: "\u{202e}evil".into() },
            ClientMessage::Watch { game: GameId(0) },
        ]
        .iter()
        .map(|m| encode(m).unwrap())
        .collect();
        let mut sent = 0;
        for round in 0..20 {
            for _ in 0..30 {
                let bytes = match rng.random_range(0..4) {
                    0 => {
                        let len = rng.random_range(0..64usize);
                        let mut b = vec![0u8; len];
                        rng.fill_bytes(&mut b);
                        b
                    }
                    1 => {
                        let v = &valid[rng.random_range(0..valid.len())];
                        v[..rng.random_range(0..v.len())].to_vec()
                    }
                    2 => {
                        let mut v = valid[rng.random_range(0..valid.len())].clone();
                        let i = rng.random_range(0..v.len());
                        v[i] = rng.random();
                        v
                    }
                    _ => {
                        let mut b = vec![0u8; 1025 + round];
                        rng.fill_bytes(&mut b);
                        b
                    }
                };
                c.client.send_raw(bytes);
                sent += 1;
            }
            c.client.flush();
            c.sync();
        }
        let errors = c.log.iter().filter(|m| matches!(m, ServerMessage::Error { .. })).count();
        assert!(errors > sent / 2, "{errors} errors for {sent} bad messages");
        assert!(c.log.iter().any(|m| matches!(m, ServerMessage::Error { code: ErrorCode::Malformed, .. })));
    }
    still_serves(udp, ws);
}

#[test]
fn flooding_is_rate_limited() {
    let dir = data_dir("flood");
    let server = server(&dir);
    let (udp, ws) = (server.udp_addr().unwrap(), server.ws_addr().unwrap());
    let mut c = TestClient::signed_in(udp, Transport::Udp, "Flood");
    for nonce in 0..60 {
        c.client.send(&ClientMessage::Ping { nonce });
    }
    c.client.flush();
    c.expect_error(ErrorCode::RateLimited);
    let pongs = c.log.iter().filter(|m| matches!(m, ServerMessage::Pong { .. })).count();
    // Most of the burst is answered before the first refusal; how many more depends on how
    // long the server took over the pings (the bucket refills meanwhile), and the refusal
    // itself shows that not every ping was answered.
    assert!((30..60).contains(&pongs), "{pongs} pongs");
    // Keeping it up gets the connection closed; others are not affected.
    let deadline = Instant::now() + WAIT;
    while !c.client.is_disconnected() {
        assert!(Instant::now() < deadline, "flooder never dropped");
        for nonce in 0..30 {
            c.client.send(&ClientMessage::Ping { nonce });
        }
        c.client.flush();
        c.idle(Duration::from_millis(20));
    }
    still_serves(udp, ws);
}

#[test]
fn garbage_on_the_websocket_port() {
    let dir = data_dir("garbage-ws");
    let server = server(&dir);
    let (udp, ws) = (server.udp_addr().unwrap(), server.ws_addr().unwrap());
    let mut rng = SmallRng::seed_from_u64(3);
    let requests: Vec<Vec<u8>> = vec![
        b"GET / HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
        b"GET /?creq=%00%01 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".to_vec(),
        {
            let mut b = vec![0u8; 4000];
            rng.fill_bytes(&mut b);
            b
        },
        b"\r\n\r\n\r\n".to_vec(),
    ];
    for request in &requests {
        if let Ok(mut s) = TcpStream::connect_timeout(&ws, Duration::from_secs(2)) {
            let _ = s.set_read_timeout(Some(Duration::from_millis(200)));
            let _ = s.write_all(request);
            let mut buf = [0u8; 512];
            let _ = s.read(&mut buf);
        }
    }
    // Valid WebSocket handshakes carrying a garbage connection request, then garbage frames.
    for i in 0..5 {
        let mut creq = vec![0u8; 100 + i * 300];
        rng.fill_bytes(&mut creq);
        let encoded: String = creq.iter().map(|b| format!("%{b:02X}")).collect();
        let url = format!("ws://{ws}/?creq={encoded}");
        let Ok(stream) = TcpStream::connect_timeout(&ws, Duration::from_secs(2)) else {
            continue;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
        if let Ok((mut socket, _)) = tungstenite::client(url.as_str(), stream) {
            for _ in 0..20 {
                let mut frame = vec![0u8; rng.random_range(0..2000usize)];
                rng.fill_bytes(&mut frame);
                let _ = socket.send(tungstenite::Message::binary(frame));
            }
            let _ = socket.send(tungstenite::Message::text("hello?"));
            let _ = socket.read();
        }
    }
    // A real client over WebSocket still gets in.
    let mut late = TestClient::connect_with(config(ws, Transport::WebSocket).nickname("Late"), "Late");
    late.expect("welcome", |m| matches!(m, ServerMessage::Welcome { .. }).then_some(()));
    still_serves(udp, ws);
    assert!(server.is_running());
}
