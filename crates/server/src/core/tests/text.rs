//! Chat lines and nicknames that show nothing or deceive, and look-alikes of claimed names, in
//! the core.

use super::{Harness, chat_ops, free, lines_of, of, refusal_code, watched_chat_game};
use crate::core::records::Loaded;
use crate::core::records::StoredClaim;
use crate::core::{Core, Limits, PasswordAnswer, PasswordJob};
use crate::names::visible;
use ludus_protocol::{ChatText, ClientMessage, ErrorCode, Hello, PROTOCOL_VERSION, PlayerId, ServerMessage};
use std::time::{Duration, Instant};
use unicode_normalization::UnicodeNormalization;

/// Limits with room for many messages in one instant (the message budget has its own test).
fn roomy() -> Limits {
    Limits { burst: 10_000.0, ..Limits::default() }
}

/// The Vietnamese line, composed and decomposed.
fn vietnamese() -> [String; 2] {
    let line = "Chào bạn, ván này hay quá!";
    [line.to_string(), line.nfd().collect()]
}

#[test]
fn chat_that_shows_nothing_or_deceives_is_refused_and_vietnamese_passes_composed() {
    let limits = Limits { chat_interval: Duration::ZERO, chat_lines: 1000, ..roomy() };
    let mut h = Harness::new(limits);
    let (first, _second, game) = watched_chat_game(&mut h);
    for (text, why) in visible::tests::deceptive() {
        for conn in [first, 10] {
            h.send(conn, &ClientMessage::Chat { game, text: free(&text) });
            let all = h.all();
            assert_eq!(refusal_code(&of(&all, conn)), Some(ErrorCode::ChatBadText), "{why}: {text:?}");
            assert!(lines_of(&all.iter().map(|(_, m)| m.clone()).collect::<Vec<_>>()).is_empty(), "{why}");
        }
    }
    assert!(chat_ops(&h.take_ops()).is_empty(), "nothing stored");
    let [composed, decomposed] = vietnamese();
    assert_ne!(composed, decomposed);
    for text in [&composed, &decomposed] {
        h.send(first, &ClientMessage::Chat { game, text: free(text) });
        assert_eq!(refusal_code(&h.inbox(first)), None, "{text:?}");
    }
    let stored: Vec<ChatText> = chat_ops(&h.take_ops()).into_iter().map(|(_, l)| l.text).collect();
    assert_eq!(stored, [free(&composed), free(&composed)], "stored composed (NFC)");
    // Three marks on one letter are fine, and Vietnamese names too.
    for text in ["a\u{336}\u{336}\u{336}", "Nguyễn Thị Ánh: gg"] {
        h.send(first, &ClientMessage::Chat { game, text: free(text) });
        assert_eq!(refusal_code(&h.inbox(first)), None, "{text:?}");
    }
}

#[test]
fn nicknames_that_show_nothing_or_deceive_are_refused_at_sign_in_and_rename() {
    let mut h = Harness::new(roomy());
    h.sign_in(1, "Ann");
    for (conn, (text, why)) in (100..).zip(visible::tests::deceptive()) {
        h.connected(conn);
        let hello = Hello { version: PROTOCOL_VERSION, token: None, nickname: Some(text.clone()) };
        h.send(conn, &ClientMessage::Hello(hello));
        assert_eq!(refusal_code(&h.inbox(conn)), Some(ErrorCode::BadNickname), "{why}: {text:?}");
        h.send(1, &ClientMessage::SetNickname { nickname: text.clone() });
        assert_eq!(refusal_code(&h.inbox(1)), Some(ErrorCode::BadNickname), "{why}: {text:?}");
    }
    let name = "Nguyễn Thị Ánh";
    for typed in [name.to_string(), name.nfd().collect()] {
        h.send(1, &ClientMessage::SetNickname { nickname: typed });
        assert!(
            matches!(h.inbox(1).as_slice(), [ServerMessage::NicknameSet { nickname }] if nickname == name),
            "composed"
        );
    }
}

#[test]
fn case_look_alikes_of_claimed_names_are_refused_and_other_names_are_not() {
    let mut h = Harness::new(roomy());
    let claimed = ["Alice", "Ivan", "Bill", "Olga", "Will", "Minh"];
    for (conn, name) in (1..).zip(claimed) {
        h.sign_in(conn, name);
        h.claim(conn, "a long secret");
        h.disconnected(conn);
    }
    h.sign_in(20, "Zed");
    for name in ["AIice", "AIIce", "A1ice", "ALICE", "lvan", "BiII", "OIga", "WiII", "VVill", "Mlnh"] {
        h.send(20, &ClientMessage::SetNickname { nickname: name.into() });
        assert_eq!(refusal_code(&h.inbox(20)), Some(ErrorCode::BadNickname), "{name}");
        // A newcomer asking for it gets a guest name.
        h.connected(21);
        let hello = Hello { version: PROTOCOL_VERSION, token: None, nickname: Some(name.into()) };
        h.send(21, &ClientMessage::Hello(hello));
        let welcome = h.inbox(21);
        let guest = |n: &str| n.starts_with("Guest-");
        let given =
            matches!(welcome.as_slice(), [ServerMessage::Welcome { nickname, .. }] if guest(nickname));
        assert!(given, "{name}: {welcome:?}");
        h.disconnected(21);
    }
    for name in ["Alicia", "Minn", "Iris", "Olivia", "Wall"] {
        h.send(20, &ClientMessage::SetNickname { nickname: name.into() });
        assert!(matches!(h.inbox(20).as_slice(), [ServerMessage::NicknameSet { .. }]), "{name}");
    }
    // The claim of "Alice" is found whatever the case and look-alike typed at sign-in.
    for typed in ["alice", "AIice", "ALICE"] {
        h.send(
            20,
            &ClientMessage::SignInClaimed {
                nickname: typed.into(),
                password: ludus_protocol::Password("a wrong secret".into()),
            },
        );
        let target = h.take_password_jobs().into_iter().find_map(|job| match job {
            PasswordJob::Verify { target, .. } => Some(target),
            _ => None,
        });
        assert_eq!(target, Some(Some(PlayerId(1))), "{typed}");
        h.password_done(PasswordAnswer::Verified { conn: 20, target: Some(PlayerId(1)), ok: false });
        h.inbox(20);
    }
}

#[test]
fn claims_stored_under_an_older_key_still_block_their_look_alikes_and_the_older_keeps_the_name() {
    // A database written when "Alice" and "AIice" (capital i) had different keys: both claimed.
    let claim = |id, nickname: &str| StoredClaim {
        id,
        nickname: nickname.into(),
        password_hash: format!("$argon2id$fake{id}"),
        ratings: Vec::new(),
        turn_ratings: Vec::new(),
        origin: None,
    };
    let loaded = Loaded {
        claims: vec![claim(1, "Alice"), claim(2, "AIice"), claim(3, "Ivan")],
        next_player: 10,
        ..Loaded::default()
    };
    let now = Instant::now();
    let core = Core::new(Limits::default(), loaded, now, 1_000_000, [7; 32]);
    let mut h = Harness::of(core, now, 1_000_000);
    h.sign_in(20, "Zed");
    for name in ["Alice", "alice", "A1ice", "AIIce", "lvan"] {
        h.send(20, &ClientMessage::SetNickname { nickname: name.into() });
        assert_eq!(refusal_code(&h.inbox(20)), Some(ErrorCode::BadNickname), "{name}");
    }
    // Signing in as either spelling reaches the older player, whose name it was first.
    for typed in ["Alice", "AIice"] {
        h.send(
            20,
            &ClientMessage::SignInClaimed {
                nickname: typed.into(),
                password: ludus_protocol::Password("a secret".into()),
            },
        );
        let target = h.take_password_jobs().into_iter().find_map(|job| match job {
            PasswordJob::Verify { target, password_hash, .. } => Some((target, password_hash)),
            _ => None,
        });
        assert_eq!(target, Some((Some(PlayerId(1)), Some("$argon2id$fake1".into()))), "{typed}");
        h.password_done(PasswordAnswer::Verified { conn: 20, target: Some(PlayerId(1)), ok: false });
        h.inbox(20);
    }
}
