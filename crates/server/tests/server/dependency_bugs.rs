//! The smallest reproductions of the dependency bugs the server defends against (for
//! upstream; see crates/server/README.md). Each asserts the bug is still there: when one
//! fails after an upgrade, the bug is fixed upstream and the defence can be reconsidered.

use renetcode2::Packet;
use std::panic::catch_unwind;

/// renetcode2 0.16.3 `Packet::decode` panics, before any decryption, on a packet whose prefix
/// announces a sequence of more than 8 bytes (0x94: keep-alive, 9 bytes) or that leaves fewer
/// than 16 bytes (the tag) after its sequence (0x85 in 21 bytes: payload, 8 bytes, 12 left).
#[test]
fn renetcode2_decode_panics_on_short_or_oversized_sequences() {
    for prefix in [0x94u8, 0xF5, 0x85] {
        let panicked = catch_unwind(|| {
            let mut packet = [prefix; 21];
            let _ = Packet::decode(&mut packet, 0, Some(&[0; 32]), None, true);
        })
        .is_err();
        assert!(panicked, "prefix {prefix:#04x} no longer panics: renetcode2 fixed it");
    }
    // The server's filter passes none of them, and passes every packet a client really sends.
    assert!(!ludus_server::transport::netcode_framing_ok(&[0x94; 21]));
    assert!(!ludus_server::transport::netcode_framing_ok(&[0xF5; 21]));
    assert!(!ludus_server::transport::netcode_framing_ok(&[0x85; 21]));
    let mut buffer = [0u8; 1400];
    for (sequence, body) in [(0u64, &[5u8][..]), (1, &[7u8; 3][..]), (u64::MAX, &[9u8; 1300][..])] {
        let len = Packet::Payload(body).encode(&mut buffer, 0, Some((sequence, &[1; 32])), true).unwrap();
        assert!(ludus_server::transport::netcode_framing_ok(&buffer[..len]), "sequence {sequence}");
        let mut copy = buffer[..len].to_vec();
        let decoded = Packet::decode(&mut copy, 0, Some(&[1; 32]), None, true);
        assert!(decoded.is_ok(), "sequence {sequence}: {decoded:?}");
    }
}

/// renetcode2 0.16.3 without encryption (a socket that says it encrypts, such as renet2's
/// WebSocket behind TLS) writes the protocol id into the last 8 of the 16 tag bytes and
/// never writes the 8 before them: they keep what the buffer held, and a `NetcodeServer`
/// encodes every client's packets into one shared buffer.
#[test]
fn renetcode2_unencrypted_packets_carry_stale_buffer_bytes() {
    let mut shared = [0u8; 1400];
    // Another client's packet, encoded earlier into the same buffer.
    let secret = *b"0123456789abcdef0123456789abcdef";
    let len = Packet::Payload(&secret).encode(&mut shared, 7, Some((0, &[0; 32])), false).unwrap();
    assert!(len > 16);
    // A short packet for someone else.
    let len = Packet::Payload(&[1, 2, 3]).encode(&mut shared, 7, Some((0, &[0; 32])), false).unwrap();
    let sent = &shared[..len];
    assert_eq!(len, 1 + 3 + 16);
    assert_eq!(&sent[4..12], &secret[3..11], "the 8 unwritten bytes are the earlier packet's");
}
