//! In-game chat over real sockets (protocol 4): the players' and the spectators' channels, the
//! archive with both, quick phrases, refused text, the rate limit, mutes, strangers, and a
//! server killed and restarted mid-game with its chat.

use crate::common::*;
use crate::draws::{count, expect_over, watched_game, watched_game_over};
use crate::persistence::{rejoin, spawn_binary};
use ludus_protocol::client::Transport;
use ludus_protocol::{
    ArchivedGame, CHAT_MAX_CHARS, ChatChannel, ChatLine, ChatText, ClientMessage, ErrorCode, GameId,
    PlayerId, QuickPhrase, ServerMessage,
};
use ludus_server::core::Limits;
use std::path::Path;
use std::time::Duration;

/// Limits that never rate-limit these tests' chat (the limit has its own test).
fn roomy() -> Limits {
    Limits {
        chat_lines: 1000,
        chat_window: Duration::from_secs(3600),
        chat_interval: Duration::ZERO,
        ..Limits::default()
    }
}

fn free(text: &str) -> ChatText {
    ChatText::Free(text.to_string())
}

fn is_chat(m: &ServerMessage) -> bool {
    matches!(m, ServerMessage::Chat(_))
}

/// Waits for the chat line saying `text`.
fn expect_line(c: &mut TestClient, text: &ChatText) -> ChatLine {
    c.expect(&format!("chat line {text:?}"), |m| match m {
        ServerMessage::Chat(line) if line.text == *text => Some(line.clone()),
        _ => None,
    })
}

fn player_id(c: &TestClient) -> PlayerId {
    c.log
        .iter()
        .find_map(|m| match m {
            ServerMessage::Welcome { player, .. } => Some(*player),
            _ => None,
        })
        .expect("signed in")
}

#[test]
fn players_and_spectators_hear_only_their_own_channel_until_the_archive_has_both() {
    let server = server_with(&data_dir("chat-channels"), roomy());
    let udp = server.udp_addr().unwrap();
    let ([mut p0, mut p1], mut s, game) = watched_game(udp);
    let mut sue = TestClient::signed_in(udp, Transport::Udp, "Sue");
    sue.send(ClientMessage::Watch { game });
    sue.expect_game();

    p0.send(ClientMessage::Chat { game, text: free("  have   fun ") });
    let said = free("have fun");
    let players_line = expect_line(&mut p0, &said);
    assert_eq!(expect_line(&mut p1, &said), players_line);
    assert_eq!(players_line.channel, ChatChannel::Players);
    assert_eq!((players_line.game, players_line.from, players_line.ply), (game, player_id(&p0), 0));
    assert_eq!(players_line.nickname, p0.name);
    for c in [&mut s, &mut sue] {
        assert_eq!(count(c, is_chat), 0, "{} does not hear the players", c.name);
    }

    let phrase = ChatText::Phrase(QuickPhrase::WellPlayed);
    s.send(ClientMessage::Chat { game, text: phrase.clone() });
    let spectators_line = expect_line(&mut s, &phrase);
    assert_eq!(expect_line(&mut sue, &phrase), spectators_line);
    assert_eq!((spectators_line.channel, spectators_line.from), (ChatChannel::Spectators, player_id(&s)));
    for c in [&mut p0, &mut p1] {
        assert_eq!(count(c, is_chat), 1, "{} hears its own channel only", c.name);
    }

    // After the game the players read the spectators' lines in the archive.
    p1.send(ClientMessage::Resign { game });
    for c in [&mut p0, &mut p1, &mut s, &mut sue] {
        let archive = expect_over(c, game);
        assert_eq!(archive.chat, vec![players_line.clone(), spectators_line.clone()], "{}", c.name);
    }
    for c in [&mut p0, &mut s] {
        c.send(ClientMessage::Chat { game, text: free("gg") });
        c.expect_error(ErrorCode::GameOver);
    }
    for c in [&mut p1, &mut sue] {
        assert_eq!(count(c, is_chat), 1, "{}: nothing after the end", c.name);
    }
}

#[test]
fn bad_chat_text_is_refused_with_its_code_and_nothing_is_delivered() {
    let server = server_with(&data_dir("chat-bad-text"), roomy());
    let ([mut p0, mut p1], mut s, game) = watched_game(server.udp_addr().unwrap());
    let too_long = "ô".repeat(CHAT_MAX_CHARS + 1);
    for (text, code) in [
        (too_long.as_str(), ErrorCode::ChatTooLong),
        ("line\nbreak", ErrorCode::ChatBadText),
        ("escape \u{1b}[31m", ErrorCode::ChatBadText),
        ("zero\u{200B}width", ErrorCode::ChatBadText),
        ("\u{3164}", ErrorCode::ChatBadText),
        ("  ", ErrorCode::ChatBadText),
    ] {
        p0.send(ClientMessage::Chat { game, text: free(text) });
        p0.expect_error(code);
    }
    for c in [&mut p0, &mut p1, &mut s] {
        assert_eq!(count(c, is_chat), 0, "{}: nothing delivered", c.name);
    }
    // A quick phrase is always fine, and the longest line too.
    let phrase = ChatText::Phrase(QuickPhrase::GoodLuck);
    p1.send(ClientMessage::Chat { game, text: phrase.clone() });
    expect_line(&mut p0, &phrase);
    let longest = free(&"ô".repeat(CHAT_MAX_CHARS));
    p1.send(ClientMessage::Chat { game, text: longest.clone() });
    expect_line(&mut p0, &longest);
    assert_eq!(count(&mut p1, is_chat), 2);
    assert_eq!(count(&mut s, is_chat), 0);
}

#[test]
fn chat_that_shows_nothing_or_deceives_is_refused_and_vietnamese_passes_composed_or_not() {
    let server = server_with(&data_dir("chat-unseen"), Limits { burst: 1000.0, ..roomy() });
    let ([mut p0, mut p1], mut s, game) = watched_game(server.udp_addr().unwrap());
    let unseen: Vec<String> = vec![
        "\u{2800}".repeat(50),
        "\u{1BCA0}".into(),
        "\u{13430}".into(),
        "\u{0600}".into(),
        "\u{FFFC}".into(),
        format!("a{}", "\u{301}".repeat(199)),
        format!("so{} much", "\u{336}".repeat(4)),
        "zero\u{200D}width joiner".into(),
        "\u{202E}reversed\u{202C}".into(),
        "\u{2067}isolate".into(),
        "hangul \u{3164} filler".into(),
        "\u{115F}\u{1160}".into(),
        "\u{FFA0}".into(),
        "tags \u{E0067}\u{E0062}".into(),
        "private \u{E000}".into(),
        "unassigned \u{0378}".into(),
        "ok \u{0600}123".into(),
        " \u{200B} \u{2800} \u{3164} ".into(),
    ];
    for text in &unseen {
        for c in [&mut p0, &mut s] {
            c.send(ClientMessage::Chat { game, text: free(text) });
            let message = c.expect_error(ErrorCode::ChatBadText);
            assert!(!message.is_empty(), "{text:?}");
        }
    }
    for c in [&mut p0, &mut p1, &mut s] {
        assert_eq!(count(c, is_chat), 0, "{}: nothing delivered", c.name);
    }
    let composed = "Chào bạn, ván này hay quá!";
    let decomposed: String = unicode_normalization::UnicodeNormalization::nfd(composed).collect();
    assert_ne!(decomposed, composed);
    for text in [composed, decomposed.as_str()] {
        p0.send(ClientMessage::Chat { game, text: free(text) });
        expect_line(&mut p1, &free(composed));
    }
    assert_eq!(count(&mut p1, is_chat), 2, "both lines, composed");
}

#[test]
fn blank_symbols_and_line_separators_are_refused_in_chat() {
    let server = server_with(&data_dir("chat-blank-symbols"), Limits { burst: 1000.0, ..roomy() });
    let ([mut p0, mut p1], mut s, game) = watched_game(server.udp_addr().unwrap());
    for text in
        ["\u{1D159}", "\u{1D159}".repeat(30).as_str(), "gg \u{1D159} gg", "two\u{2028}lines", "\u{16FE4}"]
    {
        for c in [&mut p0, &mut s] {
            c.send(ClientMessage::Chat { game, text: free(text) });
            c.expect_error(ErrorCode::ChatBadText);
        }
    }
    p0.send(ClientMessage::Chat { game, text: free("gg \u{1D11E}") });
    expect_line(&mut p1, &free("gg \u{1D11E}"));
    assert_eq!(count(&mut p1, is_chat), 1, "only the line that shows");
}

#[test]
fn a_fast_talker_is_rate_limited_after_the_allowed_lines() {
    // A window of an hour: the loop below ends well inside it, however slow the machine.
    let limits = Limits {
        chat_lines: 5,
        chat_window: Duration::from_secs(3600),
        chat_interval: Duration::ZERO,
        ..Limits::default()
    };
    let server = server_with(&data_dir("chat-rate"), limits);
    let ([mut p0, mut p1], _s, game) = watched_game(server.udp_addr().unwrap());
    for i in 0..6 {
        p0.send(ClientMessage::Chat { game, text: free(&format!("line {i}")) });
    }
    for i in 0..5 {
        expect_line(&mut p0, &free(&format!("line {i}")));
    }
    p0.expect_error(ErrorCode::RateLimited);
    assert_eq!(count(&mut p1, is_chat), 5, "the opponent got the five accepted lines");
    let refused = p0.log.iter().filter(|m| matches!(m, ServerMessage::Error { .. })).count();
    assert_eq!(refused, 1);
    // The opponent has a budget of their own.
    p1.send(ClientMessage::Chat { game, text: ChatText::Phrase(QuickPhrase::Oops) });
    expect_line(&mut p0, &ChatText::Phrase(QuickPhrase::Oops));
}

#[test]
fn a_muted_speaker_is_not_delivered_to_the_muter_only() {
    let server = server_with(&data_dir("chat-mute"), roomy());
    let udp = server.udp_addr().unwrap();
    let ([mut p0, mut p1], mut s, game) = watched_game(udp);
    let mut sue = TestClient::signed_in(udp, Transport::Udp, "Sue");
    sue.send(ClientMessage::Watch { game });
    sue.expect_game();
    let sam = player_id(&s);
    sue.send(ClientMessage::Mute { game, player: sam, muted: true });
    sue.expect("muted", |m| (*m == ServerMessage::Muted { game, player: sam, muted: true }).then_some(()));
    s.send(ClientMessage::Chat { game, text: free("can you hear me") });
    expect_line(&mut s, &free("can you hear me"));
    assert_eq!(count(&mut sue, is_chat), 0, "Sue muted Sam");
    // A player mutes the opponent.
    let p1_id = player_id(&p1);
    p0.send(ClientMessage::Mute { game, player: p1_id, muted: true });
    p0.expect("muted", |m| matches!(m, ServerMessage::Muted { muted: true, .. }).then_some(()));
    p1.send(ClientMessage::Chat { game, text: ChatText::Phrase(QuickPhrase::Hello) });
    expect_line(&mut p1, &ChatText::Phrase(QuickPhrase::Hello));
    assert_eq!(count(&mut p0, is_chat), 0, "muted");
    // Unmuted, Sam is heard again.
    sue.send(ClientMessage::Mute { game, player: sam, muted: false });
    sue.expect("unmuted", |m| (*m == ServerMessage::Muted { game, player: sam, muted: false }).then_some(()));
    s.send(ClientMessage::Chat { game, text: free("and now") });
    expect_line(&mut sue, &free("and now"));
    // Oneself and someone not in the game cannot be muted.
    let me = player_id(&sue);
    sue.send(ClientMessage::Mute { game, player: me, muted: true });
    sue.expect_error(ErrorCode::CannotMuteSelf);
    sue.send(ClientMessage::Mute { game, player: PlayerId(9999), muted: true });
    sue.expect_error(ErrorCode::NotInGame);
    // Every line is in the archive, muted or not.
    p1.send(ClientMessage::Resign { game });
    assert_eq!(expect_over(&mut p0, game).chat.len(), 3);
}

#[test]
fn chat_and_mute_from_outside_the_game_are_refused() {
    let server = server_with(&data_dir("chat-stranger"), roomy());
    let udp = server.udp_addr().unwrap();
    let ([mut p0, mut p1], mut s, game) = watched_game(udp);
    let mut x = TestClient::signed_in(udp, Transport::Udp, "Xena");
    x.send(ClientMessage::Chat { game, text: free("let me in") });
    x.expect_error(ErrorCode::NotInGame);
    x.send(ClientMessage::Chat { game, text: ChatText::Phrase(QuickPhrase::Hello) });
    x.expect_error(ErrorCode::NotInGame);
    let p0_id = player_id(&p0);
    x.send(ClientMessage::Mute { game, player: p0_id, muted: true });
    x.expect_error(ErrorCode::NotInGame);
    p0.send(ClientMessage::Chat { game: GameId(9999), text: free("hello?") });
    p0.expect_error(ErrorCode::UnknownGame);
    for c in [&mut p0, &mut p1, &mut s] {
        assert_eq!(count(c, is_chat), 0, "{}: nothing delivered", c.name);
    }
}

#[test]
fn chat_survives_a_killed_server_and_is_archived() {
    chat_survives_a_restart(&data_dir("chat-restart"), None);
}

#[test]
fn chat_survives_a_killed_server_and_is_archived_postgres() {
    if let Some((_pg, url)) = postgres("chat_survives_a_killed_server_and_is_archived_postgres") {
        chat_survives_a_restart(&data_dir("chat-restart-pg"), Some(&url));
    }
}

fn chat_survives_a_restart(dir: &Path, database: Option<&str>) {
    let mut server = spawn_binary(dir, database);
    let ([mut p0, mut p1], mut s, game) = watched_game_over(server.udp, (server.ws, Transport::WebSocket));
    let hello = ChatText::Phrase(QuickPhrase::Hello);
    p0.send(ClientMessage::Chat { game, text: hello.clone() });
    let players_line = expect_line(&mut p1, &hello);
    let cheer = free("Cố lên!");
    s.send(ClientMessage::Chat { game, text: cheer.clone() });
    let spectators_line = expect_line(&mut s, &cheer);

    // kill -9: what was delivered was stored.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let returning = [&p0, &p1, &s].map(|c| (c.token(), c.name.clone()));
    drop((p0, p1, s));
    let server = spawn_binary(dir, database);
    let [mut p0, mut p1, mut s] =
        returning.map(|(token, name)| rejoin(server.udp, Transport::Udp, token, &name));
    for p in [&mut p0, &mut p1] {
        assert_eq!(p.expect_game().game, game);
        assert_eq!(expect_line(p, &hello), players_line, "{}: the history follows the view", p.name);
        assert_eq!(count(p, is_chat), 1, "{}: the players' channel only", p.name);
    }
    s.send(ClientMessage::Watch { game });
    s.expect_game();
    assert_eq!(expect_line(&mut s, &cheer), spectators_line);
    assert_eq!(count(&mut s, is_chat), 1);

    let thanks = ChatText::Phrase(QuickPhrase::Thanks);
    p1.send(ClientMessage::Chat { game, text: thanks.clone() });
    let after = expect_line(&mut p0, &thanks);
    p1.send(ClientMessage::Resign { game });
    let expected = vec![players_line, spectators_line, after];
    for c in [&mut p0, &mut p1, &mut s] {
        assert_eq!(expect_over(c, game).chat, expected, "{}", c.name);
    }
    drop(server);
    if database.is_none() {
        let db = rusqlite::Connection::open(dir.join("ludus.sqlite3")).unwrap();
        let archive: String =
            db.query_row("SELECT archive FROM games WHERE id = ?1", [game.0 as i64], |r| r.get(0)).unwrap();
        let archive: ArchivedGame = serde_json::from_str(&archive).unwrap();
        assert_eq!(archive.chat, expected, "the stored archive has the chat");
        let rows: i64 =
            db.query_row("SELECT COUNT(*) FROM chat WHERE game = ?1", [game.0 as i64], |r| r.get(0)).unwrap();
        assert_eq!(rows, 3);
    }
}
