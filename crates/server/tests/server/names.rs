//! Nicknames over real sockets: look-alikes of claimed names in another case (capital I, small
//! l, the digit 1, "vv" for "w"), names that show nothing or deceive, and the claims of a
//! database written when look-alike keys were computed on the lower-cased name.

use crate::common::*;
use crate::ratings::claim;
use ludus_protocol::client::{ClientConfig, Transport};
use ludus_protocol::{ClientMessage, ErrorCode, Password, PlayerId, ServerMessage};
use ludus_server::core::records::Op;
use ludus_server::core::{Limits, hash_password};
use ludus_server::store::Store;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use unicode_normalization::UnicodeNormalization;

/// Room for many messages in a burst (the message budget has its own test).
fn roomy() -> Limits {
    Limits { burst: 1000.0, ..Limits::default() }
}

fn renamed(c: &mut TestClient, name: &str) -> String {
    c.send(ClientMessage::SetNickname { nickname: name.into() });
    c.expect("NicknameSet", |m| match m {
        ServerMessage::NicknameSet { nickname } => Some(nickname.clone()),
        ServerMessage::Error { code, message } => panic!("{name}: {code:?}: {message}"),
        _ => None,
    })
}

/// The nicknames that show nothing or deceive (each refused).
fn deceptive() -> Vec<String> {
    let mut names: Vec<String> = [
        "\u{2800}".repeat(50),
        "\u{2800}\u{2800}".into(),
        "Ann\u{1BCA0}".into(),
        "Ann\u{13430}".into(),
        "\u{0600}Ann".into(),
        "Ann\u{FFFC}".into(),
        format!("A{}", "\u{301}".repeat(199)),
        format!("Ann{}", "\u{0345}".repeat(4)),
        "An\u{200D}n".into(),
        "An\u{202E}n".into(),
        "\u{3164}\u{3164}".into(),
        "\u{115F}\u{1160}".into(),
        "An\u{FFA0}n".into(),
        "Ann\u{E0041}".into(),
        "Ann\u{E000}".into(),
        "Ann\u{0378}".into(),
    ]
    .into();
    names.push(" \u{200B} \u{2800} ".into());
    names
}

#[test]
fn case_look_alikes_of_claimed_names_and_invisible_names_are_refused() {
    let server = server_with(&data_dir("names-case-look-alikes"), roomy());
    let udp = server.udp_addr().unwrap();
    for name in ["Alice", "Ivan", "Bill", "Olga", "Will", "Minh"] {
        let mut c = TestClient::signed_in(udp, Transport::Udp, name);
        claim(&mut c, "a long secret");
    }
    let mut zed = TestClient::signed_in(udp, Transport::Udp, "Zed");
    for name in ["AIice", "AIIce", "A1ice", "alice", "lvan", "BiII", "OIga", "WiII", "VVill"] {
        zed.send(ClientMessage::SetNickname { nickname: name.into() });
        zed.expect_error(ErrorCode::BadNickname);
    }
    for name in ["Alicia", "Minn"] {
        assert_eq!(renamed(&mut zed, name), name);
    }
    for name in deceptive() {
        zed.send(ClientMessage::SetNickname { nickname: name.clone() });
        zed.expect_error(ErrorCode::BadNickname);
        let mut c = TestClient::connect_with(ClientConfig::new(udp, Transport::Udp).nickname(&name), "Bad");
        c.expect_error(ErrorCode::BadNickname);
    }
    // Vietnamese, decomposed, comes out composed.
    let decomposed: String = "Nguyễn Thị Ánh".nfd().collect();
    assert_eq!(renamed(&mut zed, &decomposed), "Nguyễn Thị Ánh");
}

#[test]
fn claims_of_a_database_with_older_keys_still_block_their_look_alikes() {
    let dir = data_dir("names-older-keys");
    {
        // Written with the older keys (lower case first): "Alice" and "AIice" (capital i) had
        // different keys then, so both were claimed.
        let (mut store, _) = Store::open(&dir).expect("open");
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as u64;
        let hash = |p: &str| hash_password(p).expect("hashed");
        store.submit(vec![
            Op::NewPlayer { id: 1, hash: "h1".into(), nickname: "Alice".into(), created_ms: now },
            Op::NewPlayer { id: 2, hash: "h2".into(), nickname: "AIice".into(), created_ms: now },
            Op::Claim { id: 1, skeleton: "alice".into(), password_hash: hash("alice's secret") },
            Op::Claim { id: 2, skeleton: "aiice".into(), password_hash: hash("a copycat's secret") },
        ]);
        assert!(store.sync(Duration::from_secs(30)), "committed");
    }
    let server = server_with(&dir, roomy());
    let udp = server.udp_addr().unwrap();
    let mut zed = TestClient::signed_in(udp, Transport::Udp, "Zed");
    for name in ["Alice", "alice", "A1ice", "AIIce"] {
        zed.send(ClientMessage::SetNickname { nickname: name.into() });
        zed.expect_error(ErrorCode::BadNickname);
    }
    // Either spelling signs in as the older player, with the older player's password.
    zed.send(ClientMessage::SignInClaimed {
        nickname: "AIice".into(),
        password: Password("a copycat's secret".into()),
    });
    zed.expect_error(ErrorCode::BadCredentials);
    zed.send(ClientMessage::SignInClaimed {
        nickname: "AIice".into(),
        password: Password("alice's secret".into()),
    });
    let player = zed.expect("welcome as Alice", |m| match m {
        ServerMessage::Welcome { player, nickname, resumed: true, .. } => Some((*player, nickname.clone())),
        _ => None,
    });
    assert_eq!(player, (PlayerId(1), "Alice".to_string()));
}

#[test]
fn diacritic_and_other_script_look_alikes_of_claimed_names_are_refused() {
    let server = server_with(&data_dir("names-diacritics"), roomy());
    let udp = server.udp_addr().unwrap();
    for name in ["Alice", "Ann", "Hon"] {
        let mut c = TestClient::signed_in(udp, Transport::Udp, name);
        claim(&mut c, "a long secret");
    }
    let mut zed = TestClient::signed_in(udp, Transport::Udp, "Zed");
    for name in [
        "Al\u{1ECB}ce",    // ị, a dot below
        "A\u{142}ice",     // ł, a stroke
        "Al\u{ED}ce",      // í
        "Alice\u{301}",    // a combining acute
        "A\u{57C}\u{57C}", // Armenian ռ
        "H\u{585}n",       // Armenian օ
        "\u{C5}nn",        // Å
    ] {
        zed.send(ClientMessage::SetNickname { nickname: name.into() });
        zed.expect_error(ErrorCode::BadNickname);
        let mut c =
            TestClient::connect_with(ClientConfig::new(udp, Transport::Udp).nickname(name), "Copycat");
        let given = c.expect("welcome", |m| match m {
            ServerMessage::Welcome { nickname, .. } => Some(nickname.clone()),
            _ => None,
        });
        assert_ne!(given, name, "{name:?} signed in under the look-alike");
    }
    // A name that shows nothing is refused too.
    for name in ["Ann\u{1D159}", "\u{1D159}\u{1D159}"] {
        zed.send(ClientMessage::SetNickname { nickname: name.into() });
        zed.expect_error(ErrorCode::BadNickname);
    }
    assert_eq!(renamed(&mut zed, "Alicia"), "Alicia");
}
