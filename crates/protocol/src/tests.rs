//! Encoding, decoding, versions and the checks of what players type.

use super::*;
use ludus_rules::{Reason, Side, Variant};

#[test]
fn round_trip_and_size() {
    let msg = ClientMessage::Move { game: GameId(42), ply: 17, mv: "g2-g5".into() };
    let bytes = encode(&msg).unwrap();
    assert!(bytes.len() <= 10, "{} bytes", bytes.len());
    assert_eq!(decode_client(&bytes).unwrap(), msg);
    let s = ServerMessage::MovePlayed {
        game: GameId(42),
        ply: 17,
        mv: "g2-g5".into(),
        clocks: Some(ClockView { remaining_ms: [1000, 2000], running: Some(Side::Second) }),
        outcome: Some(ludus_rules::Outcome::win(Side::First, Reason::KingImmobilised)),
        crowd: None,
    };
    assert_eq!(decode_server(&encode(&s).unwrap()).unwrap(), s);
}

fn tag_of(m: &ServerMessage) -> u8 {
    encode(m).unwrap()[0]
}

#[test]
fn redirect_is_appended_and_round_trips() {
    let r = ServerMessage::Redirect(Redirect {
        node: "b".into(),
        udp: Some("127.0.0.1:5000".into()),
        ws: Some("ws://127.0.0.1:5001".into()),
        http: Some("http://127.0.0.1:5000".into()),
        then: Some(ClientMessage::JoinRoom { code: "ABCDEF".into() }),
    });
    let bytes = encode(&r).unwrap();
    // After Profile (24): the tags of the older messages do not move.
    assert_eq!(bytes[0], 25);
    assert_eq!(tag_of(&ServerMessage::Muted { game: GameId(1), player: PlayerId(2), muted: true }), 21);
    assert_eq!(decode_server(&bytes).unwrap(), r);
}

#[test]
fn one_message_opens_a_room_and_one_finds_a_match() {
    // Protocol 7: the rated-capable messages took the tags of the casual-only twins.
    let tag = |m: &ClientMessage| encode(m).unwrap()[0];
    let open =
        ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: true, rated: false };
    let find = ClientMessage::FindMatch { variant: Variant::Latrunculi, clock: None, rated: true };
    assert_eq!(tag(&open), 3);
    assert_eq!(tag(&find), 5);
    assert_eq!(tag(&ClientMessage::Leaderboard { variant: Variant::Alquerque }), 19);
    for m in [open, find] {
        assert_eq!(decode_client(&encode(&m).unwrap()).unwrap(), m);
    }
}

#[test]
fn draw_offer_messages_are_appended_and_round_trip() {
    // New variants go at the end: the tags of the older ones do not move.
    let tag = |bytes: Vec<u8>| bytes[0];
    assert_eq!(tag(encode(&ClientMessage::Ping { nonce: 1 }).unwrap()), 12);
    assert_eq!(tag(encode(&ClientMessage::OfferDraw { game: GameId(5) }).unwrap()), 13);
    assert_eq!(tag(encode(&ServerMessage::Restarting).unwrap()), 16);
    assert_eq!(tag(encode(&ServerMessage::DrawOffered { game: GameId(5), by: Side::First }).unwrap()), 17);
    assert_eq!(tag(encode(&ErrorCode::TooManyAttempts).unwrap()), 23);
    assert_eq!(tag(encode(&ErrorCode::NoDrawOffer).unwrap()), 24);
    assert_eq!(tag(encode(&Reason::Abandoned).unwrap()), 8);
    assert_eq!(tag(encode(&Reason::Agreement).unwrap()), 9);
    for m in [
        ClientMessage::OfferDraw { game: GameId(5) },
        ClientMessage::AnswerDraw { game: GameId(5), accept: true },
        ClientMessage::AnswerDraw { game: GameId(u64::MAX), accept: false },
    ] {
        assert_eq!(decode_client(&encode(&m).unwrap()).unwrap(), m);
    }
    for m in [
        ServerMessage::DrawOffered { game: GameId(5), by: Side::Second },
        ServerMessage::DrawDeclined { game: GameId(5), by: Side::First },
        ServerMessage::DrawOfferLapsed { game: GameId(5), by: Side::Second },
        ServerMessage::Error { code: ErrorCode::DrawAlreadyOffered, message: "x".into() },
        ServerMessage::MovePlayed {
            game: GameId(5),
            ply: 3,
            mv: "b2-c3".into(),
            clocks: None,
            outcome: Some(ludus_rules::Outcome::draw(Reason::Agreement)),
            crowd: None,
        },
    ] {
        assert_eq!(decode_server(&encode(&m).unwrap()).unwrap(), m);
    }
    // A stray byte after an answer is refused like any other trailing byte.
    let mut bytes = encode(&ClientMessage::AnswerDraw { game: GameId(1), accept: true }).unwrap();
    bytes.push(1);
    assert_eq!(decode_client(&bytes), Err(DecodeError::TrailingBytes(1)));
    // `accept` is a bool: 2 is not one.
    let bad = [14u8, 1, 2];
    assert!(decode_client(&bad).is_err());
}

#[test]
fn hello_version_is_readable_from_any_hello() {
    let hello = ClientMessage::Hello(Hello { version: 7, token: None, nickname: Some("Ann".into()) });
    assert_eq!(hello_version(&encode(&hello).unwrap()), Some(7));
    assert_eq!(hello_version(&encode(&ClientMessage::Lobby).unwrap()), None);
    assert_eq!(hello_version(&[]), None);
    // A future Hello with more fields still yields its version.
    let future = encode(&(0u32, 9u16, "whatever", 3u64)).unwrap();
    assert_eq!(hello_version(&future), Some(9));
}

#[test]
fn incompatible_is_variant_zero() {
    let bytes = encode(&ServerMessage::Incompatible { server_version: 1, message: "x".into() }).unwrap();
    assert_eq!(bytes[0], 0);
    let bytes = encode(&ClientMessage::Hello(Hello { version: 1, token: None, nickname: None })).unwrap();
    assert_eq!(bytes[0], 0);
}

#[test]
fn garbage_never_panics() {
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..20_000 {
        let len = (next() % 64) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        let _ = decode_client(&bytes);
        let _ = decode_server(&bytes);
    }
    let good = encode(&ClientMessage::Propose { game: GameId(1), ply: 3, mv: "a1xc3xe5".into() }).unwrap();
    for cut in 0..good.len() {
        assert!(decode_client(&good[..cut]).is_err());
    }
    let mut long = good.clone();
    long.push(0);
    assert_eq!(decode_client(&long), Err(DecodeError::TrailingBytes(1)));
    assert!(matches!(decode_client(&vec![0; 5000]), Err(DecodeError::TooLong { .. })));
    // A huge announced length must not allocate it.
    assert!(decode_client(&[1, 0xff, 0xff, 0xff, 0xff, 0x0f]).is_err());
}

#[test]
fn nicknames() {
    assert_eq!(validate_nickname("  Ann "), Ok("Ann".to_string()));
    assert!(validate_nickname("Nguyễn Văn A").is_ok());
    assert!(validate_nickname("a").is_err());
    assert!(validate_nickname("a\u{0}b").is_err());
    assert!(validate_nickname("a  b").is_err());
    assert!(validate_nickname("--").is_err());
    assert!(validate_nickname(&"x".repeat(21)).is_err());
    assert!(validate_nickname("<script>").is_err());
}

#[test]
fn chat_lines_are_cleaned_or_refused() {
    assert_eq!(validate_chat("  hello   there  "), Ok("hello there".to_string()));
    assert_eq!(validate_chat("Chúc may mắn! 🎲"), Ok("Chúc may mắn! 🎲".to_string()));
    assert_eq!(validate_chat("a\u{3000}\u{2003} b"), Ok("a b".to_string()), "any space folds");
    assert_eq!(validate_chat(""), Err(ChatError::Empty));
    assert_eq!(validate_chat("   "), Err(ChatError::Empty));
    assert_eq!(validate_chat(&"x".repeat(CHAT_MAX_CHARS)), Ok("x".repeat(CHAT_MAX_CHARS)));
    assert_eq!(validate_chat(&"é".repeat(CHAT_MAX_CHARS + 1)), Err(ChatError::TooLong(201)));
    // Counted once folded: 300 characters of which most are spaces are fine.
    assert!(validate_chat(&format!("a{}b", " ".repeat(298))).is_ok());
    for c in ['\n', '\r', '\t', '\u{0}', '\u{7}', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}'] {
        assert_eq!(validate_chat(&format!("a{c}b")), Err(ChatError::Control(c)), "{c:?}");
    }
    for c in [
        '\u{00AD}',
        '\u{034F}',
        '\u{061C}',
        '\u{115F}',
        '\u{1160}',
        '\u{17B4}',
        '\u{17B5}',
        '\u{180B}',
        '\u{180E}',
        '\u{180F}',
        '\u{200B}',
        '\u{200C}',
        '\u{200D}',
        '\u{200E}',
        '\u{200F}',
        '\u{202A}',
        '\u{202E}',
        '\u{2060}',
        '\u{2066}',
        '\u{206F}',
        '\u{3164}',
        '\u{FE00}',
        '\u{FE0F}',
        '\u{FEFF}',
        '\u{FFA0}',
        '\u{E0000}',
        '\u{E0041}',
        '\u{E007F}',
    ] {
        assert_eq!(validate_chat(&format!("a{c}b")), Err(ChatError::Invisible(c)), "{c:?}");
        // Alone, too: not trimmed away into an empty line.
        assert_eq!(validate_chat(&c.to_string()), Err(ChatError::Invisible(c)), "{c:?}");
    }
    // Neighbours of the ranges are ordinary characters.
    for c in ['\u{200A}', '\u{2010}', '\u{2029}', '\u{3165}', '\u{FE10}', '\u{E0080}'] {
        assert!(!is_invisible(c), "{c:?}");
    }
}

#[test]
fn chat_messages_are_appended_and_round_trip() {
    let tag = |bytes: Vec<u8>| bytes[0];
    let free = ChatText::Free("hi".into());
    assert_eq!(tag(encode(&ClientMessage::AnswerDraw { game: GameId(1), accept: true }).unwrap()), 14);
    assert_eq!(tag(encode(&ClientMessage::Chat { game: GameId(1), text: free.clone() }).unwrap()), 15);
    assert_eq!(
        tag(encode(&ClientMessage::Mute { game: GameId(1), player: PlayerId(2), muted: true }).unwrap()),
        16
    );
    let line = ChatLine {
        game: GameId(1),
        channel: ChatChannel::Spectators,
        from: PlayerId(3),
        nickname: "Sam".into(),
        text: ChatText::Phrase(QuickPhrase::GoodGame),
        ply: 4,
        at_ms: 1_700_000_000_000,
    };
    assert_eq!(
        tag(encode(&ServerMessage::DrawOfferLapsed { game: GameId(1), by: Side::First }).unwrap()),
        19
    );
    assert_eq!(tag(encode(&ServerMessage::Chat(line.clone())).unwrap()), 20);
    assert_eq!(tag(encode(&ErrorCode::DrawAlreadyOffered).unwrap()), 25);
    assert_eq!(tag(encode(&ErrorCode::ChatTooLong).unwrap()), 26);
    assert_eq!(tag(encode(&ErrorCode::CannotMuteSelf).unwrap()), 30);
    for phrase in QuickPhrase::ALL {
        let m = ClientMessage::Chat { game: GameId(7), text: ChatText::Phrase(phrase) };
        assert_eq!(decode_client(&encode(&m).unwrap()).unwrap(), m);
    }
    let longest = ClientMessage::Chat { game: GameId(u64::MAX), text: ChatText::Free("ế".repeat(200)) };
    let bytes = encode(&longest).unwrap();
    assert!(bytes.len() <= MAX_CLIENT_MESSAGE_BYTES, "{} bytes", bytes.len());
    assert_eq!(decode_client(&bytes).unwrap(), longest);
    for m in [
        ServerMessage::Chat(line.clone()),
        ServerMessage::Muted { game: GameId(1), player: PlayerId(2), muted: false },
    ] {
        assert_eq!(decode_server(&encode(&m).unwrap()).unwrap(), m);
    }
    // `ArchivedGame::chat` defaults to empty for the JSON archives stored before protocol 4:
    // tested in ludus-server, which reads them.
}

#[test]
fn room_codes() {
    assert_eq!(normalize_room_code(" abc234xy "), Some("ABC234XY".to_string()));
    assert_eq!(normalize_room_code("ABC0O1XY"), None);
    assert_eq!(normalize_room_code("ABC234X"), None);
    assert_eq!(normalize_room_code("ABC234XYZ"), None);
    // The old six-character codes are no codes now.
    assert_eq!(normalize_room_code("ABC234"), None);
    assert_eq!(normalize_room_code("ÀBC234XY"), None);
}

#[test]
fn clock_limits() {
    assert!(ClockSpec::BLITZ.is_valid());
    assert!(ClockSpec::CONTROLS.iter().all(ClockSpec::is_valid));
    let labels: Vec<String> = ClockSpec::CONTROLS.iter().map(ClockSpec::label).collect();
    assert_eq!(labels, ["1+0", "3+2", "5+3", "10+5", "15+10"]);
    assert_eq!(ClockSpec { initial_ms: 30_000, increment_ms: 1500 }.label(), "0.5+1.5");
    assert!(!ClockSpec { initial_ms: 1000, increment_ms: 0 }.is_valid());
    assert!(!ClockSpec { initial_ms: 60_000, increment_ms: 61_000 }.is_valid());
    let _ = Variant::ALL;
}

#[test]
fn tournament_messages_are_appended_and_round_trip() {
    let tag = |bytes: Vec<u8>| bytes[0];
    // After OpenGame (27) and OwnChallenge (38): the older tags do not move.
    assert_eq!(tag(encode(&ClientMessage::OpenGame { game: GameId(1) }).unwrap()), 27);
    assert_eq!(tag(encode(&ClientMessage::Tournaments).unwrap()), 28);
    assert_eq!(tag(encode(&ErrorCode::OwnChallenge).unwrap()), 38);
    assert_eq!(tag(encode(&ErrorCode::UnknownTournament).unwrap()), 39);
    let settings = TournamentSettings {
        name: "Giải Alquerque mỗi giờ".into(),
        variant: Variant::Alquerque,
        format: TournamentFormat::Arena { minutes: 60, berserk: true },
        pace: TournamentPace::RealTime(ClockSpec::BLITZ),
        starts_in_minutes: 5,
        public: false,
        rated: true,
        max_players: TOURNAMENT_MAX_PLAYERS,
    };
    for m in [
        ClientMessage::Tournaments,
        ClientMessage::CreateTournament(settings.clone()),
        ClientMessage::CreateTournament(TournamentSettings {
            format: TournamentFormat::Swiss { rounds: 7 },
            pace: TournamentPace::TurnBased { days: 3 },
            ..settings.clone()
        }),
        ClientMessage::JoinTournament(TournamentRef::Id(TournamentId(3))),
        ClientMessage::JoinTournament(TournamentRef::Code("ABCDEFGHJK".into())),
        ClientMessage::WithdrawTournament { tournament: TournamentId(3) },
        ClientMessage::ViewTournament { tournament: TournamentId(u64::MAX) },
        ClientMessage::Berserk { game: GameId(9) },
    ] {
        let bytes = encode(&m).unwrap();
        assert!(bytes.len() <= MAX_CLIENT_MESSAGE_BYTES);
        assert_eq!(decode_client(&bytes).unwrap(), m);
    }
    let summary = TournamentSummary {
        id: TournamentId(3),
        name: settings.name.clone(),
        variant: Variant::Alquerque,
        format: settings.format,
        pace: settings.pace,
        stage: TournamentStage::Running { round: 0 },
        starts_ms: 1_800_000_000_000,
        ends_ms: Some(1_800_003_600_000),
        players: 64,
        max_players: 256,
        public: true,
        rated: true,
        scheduled: true,
        by: String::new(),
    };
    let row = TournamentStanding {
        rank: 1,
        player: PlayerId(7),
        nickname: "Ann".into(),
        rating: 1500,
        score: TournamentScore::Arena { points: 12, streak: 2, berserk_wins: 1 },
        games: 5,
        wins: 4,
        on_fire: true,
        away: false,
    };
    // The largest page: 256 players and 128 boards fits in one server message.
    let view = TournamentView {
        summary: summary.clone(),
        starts_in_ms: 0,
        ends_in_ms: Some(1000),
        rounds: 0,
        standings: vec![
            TournamentStanding { nickname: "x".repeat(20), ..row.clone() };
            TOURNAMENT_MAX_PLAYERS as usize
        ],
        boards: vec![
            TournamentBoard {
                round: 0,
                game: Some(GameId(u64::MAX)),
                first: (PlayerId(u64::MAX), "y".repeat(20)),
                second: (PlayerId(u64::MAX), "z".repeat(20)),
                result: Some(BoardResult::Draw),
            };
            TOURNAMENT_MAX_PLAYERS as usize / 2
        ],
        bye: Some((PlayerId(2), "Bo".into())),
        you: Some(TournamentEntry::Paused),
        code: Some("ABCDEFGHJK".into()),
    };
    for m in [
        ServerMessage::Tournaments(TournamentList {
            upcoming: vec![summary.clone()],
            running: vec![],
            finished: vec![summary.clone()],
        }),
        ServerMessage::Tournament(Box::new(view)),
        ServerMessage::TournamentCreated { tournament: TournamentId(3), code: None },
        ServerMessage::TournamentPaired {
            tournament: TournamentId(3),
            round: 2,
            game: GameId(40),
            side: Side::Second,
            opponent: "Bo".into(),
        },
        ServerMessage::TournamentEnded { tournament: TournamentId(3), name: "x".into(), podium: vec![row] },
        ServerMessage::Error { code: ErrorCode::BadTournament, message: "x".into() },
    ] {
        let bytes = encode(&m).unwrap();
        assert!(bytes.len() <= MAX_SERVER_MESSAGE_BYTES, "{} bytes", bytes.len());
        assert_eq!(decode_server(&bytes).unwrap(), m);
    }
}
