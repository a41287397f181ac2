//! Session credentials that rotate safely: each sign-in replaces the credential; the one it was
//! made with may be used once more (the `Welcome` may have been lost), briefly; a superseded
//! credential used again is refused and ends the player's session, while the newest one still
//! signs its holder in.

use super::Harness;
use crate::core::records::StoredPlayer;
use crate::core::{ConnId, Effect, Limits, PREVIOUS_CREDENTIAL_GRACE};
use crate::credential::{Grant, credential_hash};
use ludus_protocol::{
    ClientMessage, ErrorCode, Hello, PROTOCOL_VERSION, PlayerId, ServerMessage, SessionToken,
};
use ludus_rules::Variant;
use std::time::Duration;

/// What a connection presenting `token` gets: the messages, and whether it was closed.
fn present(h: &mut Harness, conn: ConnId, token: &SessionToken) -> (Vec<ServerMessage>, bool) {
    h.connected_with(conn, Grant { credential: Some(token.0.clone()), may_create: true });
    h.send(conn, &ClientMessage::Hello(Hello { version: PROTOCOL_VERSION, token: None, nickname: None }));
    outcome(h, conn)
}

/// The messages for `conn` since the last call, and whether it was closed (others' stay).
fn outcome(h: &mut Harness, conn: ConnId) -> (Vec<ServerMessage>, bool) {
    let out = h.take(|e| matches!(e, Effect::Send(c, _) | Effect::Close(c) if *c == conn), Some);
    let closed = out.iter().any(|e| matches!(e, Effect::Close(_)));
    let messages = out
        .into_iter()
        .filter_map(|e| match e {
            Effect::Send(_, bytes) => Some(ludus_protocol::decode_server(&bytes).expect("decodes")),
            _ => None,
        })
        .collect();
    (messages, closed)
}

/// The player and new credential of a `Welcome` of a returning player.
fn welcomed(messages: &[ServerMessage]) -> (PlayerId, SessionToken) {
    match messages.first() {
        Some(ServerMessage::Welcome { player, token, resumed: true, .. }) => (*player, token.clone()),
        other => panic!("expected a returning player's welcome, got {other:?}"),
    }
}

/// Ann (conn 1) and Bob (conn 2) in a live game, seats held an hour: Ann's credential.
fn seated_ann() -> (Harness, SessionToken) {
    let mut h = Harness::new(Limits { seat_hold: Duration::from_secs(3600), ..Limits::default() });
    let first = h.sign_in(1, "Ann");
    h.sign_in(2, "Bob");
    for conn in [1, 2] {
        h.send(conn, &ClientMessage::FindMatch { variant: Variant::Latrunculi, clock: None, rated: false });
    }
    assert!(h.all().iter().any(|(_, m)| matches!(m, ServerMessage::Game(_))), "a game starts");
    (h, first)
}

fn refused(messages: &[ServerMessage]) -> Option<ErrorCode> {
    messages.iter().find_map(|m| match m {
        ServerMessage::Error { code, .. } => Some(*code),
        _ => None,
    })
}

/// The sequence that lost players their accounts: a thief uses a copied credential first, the
/// owner takes the seat back with the same credential, and the thief replays it. The replay is
/// refused and ends the owner's session, whose newest credential still signs them in; the
/// thief's own credential (superseded by the owner's return) is refused too.
#[test]
fn a_replayed_credential_is_refused_after_the_owner_takes_the_seat_back() {
    let (mut h, first) = seated_ann();
    let ann = PlayerId(1);
    h.disconnected(1);
    // The thief, with a copy of Ann's credential.
    let (messages, _) = present(&mut h, 12, &first);
    let (who, thiefs) = welcomed(&messages);
    assert_eq!(who, ann);
    // Ann comes back with the credential she has: the thief's session ends, Ann is in.
    let (messages, _) = present(&mut h, 3, &first);
    let (who, owners) = welcomed(&messages);
    assert_eq!(who, ann);
    let (messages, closed) = outcome(&mut h, 12);
    assert!(closed && refused(&messages) == Some(ErrorCode::SignedInElsewhere));
    // The thief replays the copy: refused, and Ann's session ends.
    let (messages, closed) = present(&mut h, 4, &first);
    assert_eq!(refused(&messages), Some(ErrorCode::SessionExpired));
    assert!(closed, "the replay's connection is closed");
    let (messages, closed) = outcome(&mut h, 3);
    assert!(closed && refused(&messages) == Some(ErrorCode::SignedInElsewhere), "{messages:?}");
    // The thief's own credential was superseded by Ann's return: refused.
    let (messages, closed) = present(&mut h, 5, &thiefs);
    assert_eq!(refused(&messages), Some(ErrorCode::SessionExpired));
    assert!(closed);
    assert!(!messages.iter().any(|m| matches!(m, ServerMessage::Welcome { .. })), "no new player either");
    // Ann's newest credential still signs her in, as herself.
    let (messages, _) = present(&mut h, 6, &owners);
    assert_eq!(welcomed(&messages).0, ann);
    assert_eq!(h.core.stats.credential_replays, 2);
}

/// A credential used after the owner used its successor shows a copy: it is refused, the
/// owner's session ends, and the owner signs in again with the newest credential.
#[test]
fn a_credential_used_after_its_successor_ends_every_session_of_the_player() {
    let (mut h, first) = seated_ann();
    h.disconnected(1);
    let (messages, _) = present(&mut h, 12, &first);
    let (ann, second) = welcomed(&messages);
    h.disconnected(12);
    let (messages, _) = present(&mut h, 3, &second);
    let (_, third) = welcomed(&messages);
    let (messages, closed) = present(&mut h, 4, &first);
    assert_eq!(refused(&messages), Some(ErrorCode::SessionExpired));
    assert!(closed);
    let (messages, closed) = outcome(&mut h, 3);
    assert!(closed && refused(&messages) == Some(ErrorCode::SignedInElsewhere));
    // The previous credential (`second`) is no longer usable either once `third` was used.
    let (messages, _) = present(&mut h, 5, &third);
    let (who, fourth) = welcomed(&messages);
    assert_eq!(who, ann);
    h.disconnected(5);
    let (messages, _) = present(&mut h, 6, &second);
    assert_eq!(refused(&messages), Some(ErrorCode::SessionExpired));
    let (messages, _) = present(&mut h, 7, &fourth);
    assert_eq!(welcomed(&messages).0, ann);
}

/// A lost `Welcome`: the credential it was asked with works once more, within the grace, and
/// not after it (refused without ending anyone's session: nobody used a newer one).
#[test]
fn the_previous_credential_works_once_within_its_grace_and_expires_after_it() {
    let (mut h, first) = seated_ann();
    h.disconnected(1);
    let (messages, _) = present(&mut h, 12, &first);
    let (ann, _lost) = welcomed(&messages);
    h.disconnected(12);
    let (messages, _) = present(&mut h, 3, &first);
    let (who, kept) = welcomed(&messages);
    assert_eq!(who, ann, "the Welcome was lost: the same credential once more");
    // Another grace period after that second sign-in: its credential (`first`) is not re-armed.
    h.disconnected(3);
    let (messages, _) = present(&mut h, 4, &first);
    assert_eq!(refused(&messages), Some(ErrorCode::SessionExpired), "used twice already");
    let (messages, _) = present(&mut h, 5, &kept);
    let (_, newest) = welcomed(&messages);
    // Past the grace, the previous credential (`kept`) is stale: refused, the session stays.
    h.advance(PREVIOUS_CREDENTIAL_GRACE + Duration::from_secs(1));
    h.take_out();
    let (messages, closed) = present(&mut h, 6, &kept);
    assert_eq!(refused(&messages), Some(ErrorCode::SessionExpired));
    assert!(closed);
    let (messages, closed) = outcome(&mut h, 5);
    assert!(!closed && messages.is_empty(), "a stale credential ends nobody's session: {messages:?}");
    h.disconnected(5);
    let (messages, _) = present(&mut h, 7, &newest);
    assert_eq!(welcomed(&messages).0, ann);
}

/// A player read back from the database after a restart: the previous credential stored with
/// them works only within its grace of their last sign-in.
#[test]
fn a_stored_previous_credential_expires_with_its_grace() {
    let mut h = Harness::new(Limits::default());
    let (current, previous) = ("c".repeat(32), "p".repeat(32));
    let stored = |last_seen_ms| StoredPlayer {
        id: 42,
        hash: credential_hash(&current),
        prev: Some(credential_hash(&previous)),
        last_seen_ms,
        nickname: "Old".into(),
    };
    let grace = PREVIOUS_CREDENTIAL_GRACE.as_millis() as u64;
    let late = h.unix_ms - grace - 1_000;
    h.connected_with(1, Grant { credential: Some(previous.clone()), may_create: false });
    h.send(1, &ClientMessage::Hello(Hello { version: PROTOCOL_VERSION, token: None, nickname: None }));
    let hash = h.take_lookups()[0].1.clone();
    h.looked_up(1, &hash, Some(stored(late)));
    let (messages, closed) = outcome(&mut h, 1);
    assert_eq!(refused(&messages), Some(ErrorCode::SessionExpired));
    assert!(closed);
    let (messages, _) = present(&mut h, 12, &SessionToken(current.clone()));
    assert_eq!(welcomed(&messages).0, PlayerId(42), "the current one still works");
}
