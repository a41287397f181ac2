//! Chat: the players' and the spectators' channels, limits, mutes and the stored archive.

use super::{Harness, chat_ops, first_legal, free, lines_of, of, refusal_code, watched_chat_game};
use crate::core::records;
use crate::core::records::{Loaded, Op, StoredPlayer};
use crate::core::{ConnId, Core, Effect, Limits};
use crate::credential::{Grant, credential_hash};
use ludus_protocol::{
    ChatChannel, ChatLine, ChatText, ClientMessage, ErrorCode, GameId, Hello, PROTOCOL_VERSION, PlayerId,
    QuickPhrase, ServerMessage, decode_server,
};
use ludus_rules::{AnyGame, Variant};
use std::time::{Duration, Instant};

#[test]
fn players_and_spectators_chat_on_their_own_channels_stored_first_and_archived_together() {
    let mut h = Harness::new(Limits::default());
    let (first, second, game) = watched_chat_game(&mut h);
    let mv = first_legal(&h.core.view(game, PlayerId(1)).expect("view"), 0);
    h.send(first, &ClientMessage::Move { game, ply: 0, mv });
    h.all();
    h.take_ops();

    h.send(first, &ClientMessage::Chat { game, text: free("  good   luck ") });
    let stored = chat_ops(&h.take_ops());
    assert_eq!(stored.len(), 1, "the line is stored");
    let (seq, line) = &stored[0];
    assert_eq!(*seq, 0);
    assert_eq!(line.channel, ChatChannel::Players);
    assert_eq!(line.text, free("good luck"), "cleaned");
    assert_eq!((line.nickname.as_str(), line.ply, line.game), ("Ann", 1, game));
    assert_eq!(line.at_ms, h.unix_ms);
    let all = h.all();
    for conn in [first, second] {
        assert_eq!(lines_of(&of(&all, conn)), vec![line.clone()], "conn {conn} hears the player");
    }
    for conn in [10, 11, 12] {
        assert!(of(&all, conn).is_empty(), "conn {conn} does not");
    }

    h.send(10, &ClientMessage::Chat { game, text: ChatText::Phrase(QuickPhrase::GoodGame) });
    let stored = chat_ops(&h.take_ops());
    assert_eq!(stored.len(), 1);
    let (seq, spectator_line) = &stored[0];
    assert_eq!((*seq, spectator_line.channel), (1, ChatChannel::Spectators));
    let all = h.all();
    for conn in [10, 11] {
        assert_eq!(lines_of(&of(&all, conn)), vec![spectator_line.clone()], "conn {conn} hears Sam");
    }
    for conn in [first, second, 12] {
        assert!(of(&all, conn).is_empty(), "conn {conn} does not hear Sam during the game");
    }

    // A stranger and a wrong game are refused, nothing stored.
    h.send(12, &ClientMessage::Chat { game, text: free("hi") });
    assert_eq!(refusal_code(&h.inbox(12)), Some(ErrorCode::NotInGame));
    h.send(first, &ClientMessage::Chat { game: GameId(999), text: free("hi") });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::UnknownGame));
    assert!(chat_ops(&h.take_ops()).is_empty());

    // The end: everyone's archive has both channels in order, and so has the stored one.
    h.send(second, &ClientMessage::Resign { game });
    let all = h.all();
    for conn in [first, second, 10, 11] {
        let archive = of(&all, conn)
            .into_iter()
            .find_map(|m| match m {
                ServerMessage::GameOver { archive, .. } => Some(archive),
                _ => None,
            })
            .expect("game over");
        assert_eq!(archive.chat, vec![line.clone(), spectator_line.clone()], "conn {conn}");
    }
    let stored: ludus_protocol::ArchivedGame = h
        .take_ops()
        .iter()
        .find_map(|op| match op {
            Op::Finish { archive, .. } => serde_json::from_str(archive).ok(),
            _ => None,
        })
        .expect("archived");
    assert_eq!(stored.chat, vec![line.clone(), spectator_line.clone()]);
    // An archive stored before protocol 4 has no `chat` and still reads, with none.
    let mut old = serde_json::to_value(&stored).expect("json");
    old.as_object_mut().expect("an object").remove("chat");
    let old: ludus_protocol::ArchivedGame = serde_json::from_value(old).expect("an old archive reads");
    assert!(old.chat.is_empty());

    // Over: chat is refused to the players and the spectators alike.
    for conn in [first, second, 10] {
        h.send(conn, &ClientMessage::Chat { game, text: free("gg") });
        assert_eq!(refusal_code(&h.inbox(conn)), Some(ErrorCode::GameOver), "conn {conn}");
    }
    assert!(chat_ops(&h.take_ops()).is_empty());
}

#[test]
fn chat_is_rate_limited_per_player_by_the_core_clock() {
    let mut h = Harness::new(Limits::default());
    let (first, second, game) = watched_chat_game(&mut h);
    let say = |h: &mut Harness, conn: ConnId| {
        h.send(conn, &ClientMessage::Chat { game, text: ChatText::Phrase(QuickPhrase::Hello) });
        let accepted = !chat_ops(&h.take_ops()).is_empty();
        let refused = refusal_code(&h.inbox(conn));
        assert_eq!(accepted, refused.is_none());
        refused
    };
    assert_eq!(say(&mut h, first), None);
    // Too soon after the last line.
    assert_eq!(say(&mut h, first), Some(ErrorCode::RateLimited));
    h.advance(Duration::from_millis(499));
    assert_eq!(say(&mut h, first), Some(ErrorCode::RateLimited));
    // Another player has a budget of their own.
    assert_eq!(say(&mut h, second), None);
    h.advance(Duration::from_millis(1));
    // Lines at 0.5, 1.0, 1.5, 2.0 s: five in the window, then the sixth is refused.
    for _ in 0..4 {
        assert_eq!(say(&mut h, first), None);
        h.advance(Duration::from_millis(500));
    }
    assert_eq!(say(&mut h, first), Some(ErrorCode::RateLimited), "five lines in 10 s at most");
    // At 10 s the first line leaves the window.
    h.advance(Duration::from_millis(7499));
    assert_eq!(say(&mut h, first), Some(ErrorCode::RateLimited));
    h.advance(Duration::from_millis(1));
    assert_eq!(say(&mut h, first), None);
    assert_eq!(say(&mut h, 10), None, "a spectator too has a budget of their own");
}

#[test]
fn bad_chat_text_is_refused_nothing_stored_or_sent_and_the_game_chat_is_capped() {
    let limits =
        Limits { chat_interval: Duration::ZERO, chat_lines: 1000, chat_max_lines: 3, ..Limits::default() };
    let mut h = Harness::new(limits);
    let (first, second, game) = watched_chat_game(&mut h);
    let long = "x".repeat(ludus_protocol::CHAT_MAX_CHARS + 1);
    for (text, code) in [
        (long.as_str(), ErrorCode::ChatTooLong),
        ("", ErrorCode::ChatBadText),
        ("   ", ErrorCode::ChatBadText),
        ("two\nlines", ErrorCode::ChatBadText),
        ("a\u{7}bell", ErrorCode::ChatBadText),
        ("zero\u{200B}width", ErrorCode::ChatBadText),
        ("\u{202E}reversed", ErrorCode::ChatBadText),
        ("tag\u{E0041}", ErrorCode::ChatBadText),
    ] {
        h.send(first, &ClientMessage::Chat { game, text: free(text) });
        let all = h.all();
        assert_eq!(refusal_code(&of(&all, first)), Some(code), "{text:?}");
        assert!(lines_of(&all.iter().map(|(_, m)| m.clone()).collect::<Vec<_>>()).is_empty(), "{text:?}");
    }
    assert!(chat_ops(&h.take_ops()).is_empty(), "nothing stored");
    // Exactly the longest line passes; three lines fill this game's chat.
    let longest = "é".repeat(ludus_protocol::CHAT_MAX_CHARS);
    for (conn, text) in [(first, longest.as_str()), (second, "ok"), (10, "hi")] {
        h.send(conn, &ClientMessage::Chat { game, text: free(text) });
        assert_eq!(refusal_code(&h.inbox(conn)), None);
    }
    assert_eq!(chat_ops(&h.take_ops()).iter().map(|(seq, _)| *seq).collect::<Vec<_>>(), [0, 1, 2]);
    for conn in [first, 11] {
        h.send(conn, &ClientMessage::Chat { game, text: ChatText::Phrase(QuickPhrase::Thanks) });
        assert_eq!(refusal_code(&h.inbox(conn)), Some(ErrorCode::ChatFull));
    }
    assert!(chat_ops(&h.take_ops()).is_empty());
}

#[test]
fn a_mute_stops_delivery_to_the_muter_only_and_is_refused_out_of_place() {
    let limits = Limits { chat_interval: Duration::ZERO, chat_lines: 1000, ..Limits::default() };
    let mut h = Harness::new(limits);
    let (first, second, game) = watched_chat_game(&mut h);
    let (ann, bob, sue, xen) = (PlayerId(1), PlayerId(2), PlayerId(4), PlayerId(5));
    assert_eq!(h.core.view(game, ann).map(|v| v.players[0].nickname.clone()), Some("Ann".into()));
    // Sam mutes Sue: the server confirms.
    h.send(10, &ClientMessage::Mute { game, player: sue, muted: true });
    assert_eq!(h.inbox(10), vec![ServerMessage::Muted { game, player: sue, muted: true }]);
    h.send(11, &ClientMessage::Chat { game, text: free("hello all") });
    let all = h.all();
    assert!(of(&all, 10).is_empty(), "Sam muted Sue");
    assert_eq!(lines_of(&of(&all, 11)).len(), 1, "Sue gets her echo");
    assert_eq!(chat_ops(&h.take_ops()).len(), 1, "a muted line is still stored");
    // Ann mutes Bob; Bob is not muted for himself.
    h.send(first, &ClientMessage::Mute { game, player: bob, muted: true });
    h.all();
    h.send(second, &ClientMessage::Chat { game, text: free("hey") });
    let all = h.all();
    assert!(of(&all, first).is_empty());
    assert_eq!(lines_of(&of(&all, second)).len(), 1);
    // Unmuted, the lines come again.
    h.send(10, &ClientMessage::Mute { game, player: sue, muted: false });
    assert_eq!(h.inbox(10), vec![ServerMessage::Muted { game, player: sue, muted: false }]);
    h.send(11, &ClientMessage::Chat { game, text: free("again") });
    assert_eq!(lines_of(&of(&h.all(), 10)).len(), 1);
    // Oneself, someone elsewhere, a stranger muting, a wrong game.
    h.send(first, &ClientMessage::Mute { game, player: ann, muted: true });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::CannotMuteSelf));
    h.send(first, &ClientMessage::Mute { game, player: xen, muted: true });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::NotInGame));
    h.send(12, &ClientMessage::Mute { game, player: ann, muted: true });
    assert_eq!(refusal_code(&h.inbox(12)), Some(ErrorCode::NotInGame));
    h.send(10, &ClientMessage::Mute { game: GameId(999), player: ann, muted: true });
    assert_eq!(refusal_code(&h.inbox(10)), Some(ErrorCode::UnknownGame));
    // A muted spectator's lines stay out of a returning view's history too.
    h.send(10, &ClientMessage::Mute { game, player: sue, muted: true });
    h.all();
    h.send(10, &ClientMessage::Watch { game });
    let history = lines_of(&h.inbox(10));
    assert!(history.iter().all(|l| l.from != sue), "{history:?}");
    // Every line is in the archive, muted or not.
    h.send(first, &ClientMessage::Resign { game });
    let archive = h
        .inbox(first)
        .into_iter()
        .find_map(|m| match m {
            ServerMessage::GameOver { archive, .. } => Some(archive),
            _ => None,
        })
        .expect("game over");
    assert_eq!(archive.chat.len(), 3);
}

#[test]
fn stored_chat_comes_back_with_its_game_after_a_restart_each_viewer_their_channel() {
    let creds = ["a".repeat(32), "b".repeat(32)];
    let line = |channel, from: u64, text: &str, ply| ChatLine {
        game: GameId(7),
        channel,
        from: PlayerId(from),
        nickname: if from == 1 { "Ann".into() } else { "Sam".into() },
        text: free(text),
        ply,
        at_ms: 500,
    };
    let said = vec![line(ChatChannel::Players, 1, "hi", 0), line(ChatChannel::Spectators, 3, "go Ann", 0)];
    let loaded = Loaded {
        games: vec![records::StoredGame {
            id: 7,
            room: "ROOMROOM".into(),
            variant: Variant::Alquerque,
            start: AnyGame::new(Variant::Alquerque).start().to_string(),
            players: [1, 2],
            public: true,
            clock: None,
            created_ms: 100,
            rated: false,
            moves: vec![],
            clocks: None,
            proposals: vec![],
            chat: said.clone(),
            // A third stored line could not be read back: the next line is number 3.
            chat_stored: 3,
            turn: None,
        }],
        players: (1..=2)
            .map(|id| StoredPlayer {
                id,
                hash: credential_hash(&creds[id as usize - 1]),
                prev: None,
                last_seen_ms: 900_000,
                nickname: ["Ann", "Ben"][id as usize - 1].into(),
            })
            .collect(),
        claims: vec![],
        next_player: 4,
        next_game: 8,
        ..Loaded::default()
    };
    let now = Instant::now();
    let mut h = Harness::of(Core::new(Limits::default(), loaded, now, 1_000_000, [7; 32]), now, 1_000_000);
    h.connected_with(1, Grant { credential: Some(creds[0].clone()), may_create: false });
    let hello = Hello { version: PROTOCOL_VERSION, token: None, nickname: None };
    h.send(1, &ClientMessage::Hello(hello));
    let inbox = h.inbox(1);
    let view = inbox.iter().position(|m| matches!(m, ServerMessage::Game(_))).expect("the game is back");
    assert_eq!(lines_of(&inbox[view..]), vec![said[0].clone()], "Ann gets the players' line after the view");
    h.sign_in(20, "Sue");
    h.send(20, &ClientMessage::Watch { game: GameId(7) });
    assert_eq!(lines_of(&h.inbox(20)), vec![said[1].clone()], "a spectator gets the spectators' line");
    // New lines follow the stored ones (past the unreadable third, whose number is not
    // reused), and the archive has them all.
    h.send(1, &ClientMessage::Chat { game: GameId(7), text: free("back") });
    assert_eq!(chat_ops(&h.take_ops()).first().map(|(seq, _)| *seq), Some(3));
    h.send(1, &ClientMessage::Resign { game: GameId(7) });
    let archive = h
        .inbox(1)
        .into_iter()
        .find_map(|m| match m {
            ServerMessage::GameOver { archive, .. } => Some(archive),
            _ => None,
        })
        .expect("game over");
    assert_eq!(archive.chat.len(), 3);
    assert_eq!(archive.chat[..2], said[..]);
}

#[test]
fn a_full_chat_still_fits_its_archive_in_one_server_message() {
    let limits = Limits { chat_interval: Duration::ZERO, chat_lines: 100_000, ..Limits::default() };
    let mut h = Harness::new(limits);
    let (first, second, game) = watched_chat_game(&mut h);
    h.sign_in(13, "Nguyễn Thị Ánh Tuyết");
    h.send(13, &ClientMessage::Watch { game });
    h.all();
    // The heaviest lines there are: 200 four-byte characters each, by the longest names.
    let heavy = free(&"🎲".repeat(ludus_protocol::CHAT_MAX_CHARS));
    let mut said = 0;
    let refusal = loop {
        let conn = [first, 13][said % 2];
        // Within the connection's own message budget.
        h.advance(Duration::from_millis(100));
        h.send(conn, &ClientMessage::Chat { game, text: heavy.clone() });
        if let Some(code) = refusal_code(&h.inbox(conn)) {
            break code;
        }
        said += 1;
        assert!(said <= ludus_protocol::CHAT_MAX_LINES, "the chat has a cap");
    };
    assert_eq!(refusal, ErrorCode::ChatFull);
    assert!(said < ludus_protocol::CHAT_MAX_LINES, "the byte cap comes first for heavy lines ({said})");
    // Light lines still fill it up to the line cap at most.
    h.send(second, &ClientMessage::Chat { game, text: ChatText::Phrase(QuickPhrase::Oops) });
    assert_eq!(refusal_code(&h.inbox(second)), None, "a quick phrase weighs little");
    h.send(second, &ClientMessage::Resign { game });
    let game_over = h
        .take_out()
        .into_iter()
        .find_map(|o| match o {
            Effect::Send(c, bytes) if c == first => {
                matches!(decode_server(&bytes), Ok(ServerMessage::GameOver { .. })).then_some(bytes)
            }
            _ => None,
        })
        .expect("game over");
    assert!(
        game_over.len() < ludus_protocol::MAX_SERVER_MESSAGE_BYTES / 2,
        "{} bytes: room left for the moves and the proposals",
        game_over.len()
    );
}
