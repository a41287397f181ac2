use crate::texts::english_sentence;
use crate::{data_dir_lock, fresh_data_dir};
use ludus::game::save::{Resumable, SavedGame, load, store};
use ludus::game::session::{Level, Seats, Session};
use ludus::i18n::Lang;
use ludus_rules::{Side, Variant};

fn some_game() -> Session {
    let mut s = Session::new(Variant::Alquerque, Seats::versus_computer(Side::First, Level::Medium));
    for _ in 0..6 {
        let mv = s.game.legal_moves()[0];
        s.play(&mv).unwrap();
    }
    s
}

#[test]
fn save_and_resume_round_trip() {
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("roundtrip");
    let session = some_game();
    store(&session);
    assert!(dir.join("unfinished-game.json").exists());
    let (resumable, notice) = load(Lang::En);
    assert!(notice.is_none());
    let Resumable::Game(back) = resumable else { panic!("the game should be offered") };
    assert_eq!(back.game.move_strings(), session.game.move_strings());
    assert_eq!(back.game.position(), session.game.position());
    assert_eq!(back.seats, session.seats);
    // The JSON form alone round-trips too.
    let json = SavedGame::of(&session).to_json();
    let again = SavedGame::from_json(&json).unwrap();
    assert_eq!(again.game.move_strings(), session.game.move_strings());
}

#[test]
fn corrupt_save_is_reported_and_kept_aside() {
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("corrupt");
    for (i, bad) in [
        "{ not json".to_string(),
        "\u{0}\u{1}binary".to_string(),
        // Valid JSON, but an illegal move in the record.
        SavedGame::of(&some_game()).to_json().replace("\"moves\": [", "\"moves\": [\n    \"a1-a5\","),
    ]
    .iter()
    .enumerate()
    {
        std::fs::write(dir.join("unfinished-game.json"), bad).unwrap();
        let (resumable, notice) = load(Lang::Vi);
        assert!(matches!(resumable, Resumable::None), "case {i}");
        let notice = notice.unwrap_or_else(|| panic!("case {i}: the player is told"));
        assert!(notice.contains("Không đọc được"), "case {i}: {notice}");
        assert!(!dir.join("unfinished-game.json").exists(), "case {i}: the bad file is moved");
        let aside = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains("corrupt"))
            .count();
        assert!(aside >= 1, "case {i}: the bad file is kept");
        // Different second for each set-aside name is not guaranteed: clear them.
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[test]
fn finished_games_are_not_offered() {
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("finished");
    let mut session = some_game();
    store(&session);
    assert!(dir.join("unfinished-game.json").exists());
    session.resign();
    store(&session);
    assert!(!dir.join("unfinished-game.json").exists());
}

/// The online screen's choices: a time control is kept, and a file from before the choice of
/// time controls (`"clock": true`, then 5+3) keeps playing with clocks.
#[test]
fn the_time_control_is_kept_and_an_older_clock_choice_read() {
    use ludus::net::connection::OnlineConfig;
    use ludus_protocol::ClockSpec;
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("online-config");
    let lang = Lang::En;
    std::fs::write(dir.join("online.json"), r#"{"server":"127.0.0.1:5000","nickname":"Ann","clock":true}"#)
        .expect("write");
    let (config, notice) = OnlineConfig::load(lang);
    assert_eq!(notice, None);
    assert_eq!(config.nickname, "Ann");
    assert_eq!(config.time_control, Some(ClockSpec::BLITZ));
    std::fs::write(dir.join("online.json"), r#"{"nickname":"Ann","clock":false}"#).expect("write");
    assert_eq!(OnlineConfig::load(lang).0.time_control, None);
    let written =
        serde_json::to_string(&OnlineConfig { time_control: Some(ClockSpec::CONTROLS[1]), ..config })
            .expect("json");
    assert!(!written.contains("\"clock\""), "{written}");
    std::fs::write(dir.join("online.json"), written).expect("write");
    assert_eq!(OnlineConfig::load(lang).0.time_control, Some(ClockSpec::minutes_plus(3, 2)));
}

#[test]
fn the_english_sentence_check_finds_english_and_only_english() {
    assert!(english_sentence("Không đọc được: localStorage refused to read").is_some());
    assert!(english_sentence("Chi tiết: “Permission denied (os error 13)”").is_some());
    assert!(english_sentence("unknown save version 2").is_some());
    assert!(
        english_sentence("Không đọc được ván đã lưu: ổ đĩa đã hết chỗ trống (mã lỗi hệ thống 28).").is_none()
    );
    assert!(english_sentence("nội dung không phải JSON hợp lệ (dòng 1, ký tự thứ 3)").is_none());
}

/// Every error a saved document can meet, rendered as the player reads it in Vietnamese: the
/// system's and the libraries' English stays in the log.
#[test]
fn no_error_reaches_a_vietnamese_screen_in_english() {
    use ludus::game::save::SaveError;
    use ludus::platform::storage::{DocumentError, Explain, StorageError};
    use std::io::{Error, ErrorKind};
    let json = |text: &str| serde_json::from_str::<serde_json::Value>(text).expect_err(text);
    let shape = serde_json::from_str::<Vec<u32>>("[\"a\"]").expect_err("a string is no number");
    let record = SavedGame::from_json(
        &SavedGame::of(&some_game()).to_json().replace("\"moves\": [", "\"moves\": [\n    \"a1-a5\","),
    )
    .expect_err("an illegal move in the save");
    let storage = [
        StorageError::NoPlace,
        StorageError::NotText,
        StorageError::Io(Error::from_raw_os_error(13)),
        StorageError::Io(Error::from_raw_os_error(28)),
        StorageError::Io(Error::from(ErrorKind::PermissionDenied)),
        StorageError::Io(Error::from(ErrorKind::StorageFull)),
        StorageError::Io(Error::from(ErrorKind::ReadOnlyFilesystem)),
        StorageError::Io(Error::from(ErrorKind::NotFound)),
        StorageError::Io(Error::other("the disk caught fire")),
        StorageError::Unavailable,
        StorageError::ReadRefused,
        StorageError::WriteRefused,
        StorageError::Encode(json("{")),
    ];
    let mut errors: Vec<Box<dyn Explain>> = Vec::new();
    for e in storage {
        errors.push(Box::new(DocumentError::from(e)));
    }
    errors.push(Box::new(DocumentError::Json(json("{ not json"))));
    errors.push(Box::new(DocumentError::Json(json("{\"a\": [1, 2"))));
    errors.push(Box::new(DocumentError::Json(shape)));
    errors.push(Box::new(DocumentError::Version { found: 7, expected: 1 }));
    errors.push(Box::new(SaveError::Document(DocumentError::Version { found: 2, expected: 1 })));
    assert!(matches!(record, SaveError::Game(_)), "{record}");
    errors.push(Box::new(record));
    let messages = [
        "save-corrupt",
        "records-corrupt",
        "settings-corrupt",
        "net-config-corrupt",
        "lessons-corrupt",
        "puzzles-corrupt",
    ];
    for error in &errors {
        let (vi, en) = (error.text(Lang::Vi), error.text(Lang::En));
        assert!(!vi.is_empty() && vi != en, "{error}: {vi}");
        assert!(!vi.contains("storage-") && !vi.contains("document-"), "{error}: {vi}");
        for id in messages {
            let told = Lang::Vi.fmt(id, [("error", vi.as_str().into()), ("file", "x.json.corrupt-1".into())]);
            assert_eq!(english_sentence(&told), None, "{error} in {id}: {told}");
        }
        let unreadable =
            Lang::Vi.fmt("storage-unreadable", [("error", vi.as_str().into()), ("file", "x.json".into())]);
        assert_eq!(english_sentence(&unreadable), None, "{error}: {unreadable}");
        // The technical detail is kept for the log.
        assert!(!error.to_string().is_empty());
    }
    // The system's error number is kept as the detail.
    let denied = StorageError::Io(Error::from_raw_os_error(13)).text(Lang::Vi);
    assert!(denied.contains("13"), "{denied}");
}

/// What the player reads when a document on disk is bad: in Vietnamese, no English, and why.
#[test]
fn a_bad_document_on_disk_is_told_in_vietnamese() {
    use ludus::game::settings::Settings;
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("documents-vi");
    for (bad, says) in [
        ("{ not json", "JSON"),
        ("{\"sound\": \"loud\"}", "dạng"),
        ("{\"lang\": \"Vi\"", "cắt cụt"),
        ("\u{feff}\u{0}", "JSON"),
    ] {
        std::fs::write(dir.join("settings.json"), bad).expect("write");
        let (_, notice) = Settings::load(Lang::Vi);
        let notice = notice.unwrap_or_else(|| panic!("{bad:?}: the player is told"));
        assert!(notice.contains(says), "{bad:?}: {notice}");
        assert_eq!(english_sentence(&notice), None, "{bad:?}: {notice}");
    }
    // Bytes that are no text: told, and set aside like a document that does not parse.
    std::fs::write(dir.join("settings.json"), [0xff, 0xfe, 0x00, 0x80]).expect("write");
    let (_, notice) = Settings::load(Lang::Vi);
    let notice = notice.expect("bytes that are no text are told");
    assert!(notice.contains("văn bản"), "{notice}");
    assert_eq!(english_sentence(&notice), None, "{notice}");
    assert!(!dir.join("settings.json").exists(), "the bytes are set aside");
    std::fs::write(dir.join("unfinished-game.json"), r#"{"version": 9, "record": 1, "seats": 2}"#)
        .expect("write");
    let (_, notice) = load(Lang::Vi);
    let notice = notice.expect("a save of another shape is told");
    assert_eq!(english_sentence(&notice), None, "{notice}");
    let mut session = some_game();
    session.seats = Seats::versus_computer(Side::Second, Level::Easy);
    let newer = SavedGame { version: 2, ..SavedGame::of(&session) }.to_json();
    std::fs::write(dir.join("unfinished-game.json"), newer).expect("write");
    let (_, notice) = load(Lang::Vi);
    let notice = notice.expect("a newer save is told");
    assert!(notice.contains("phiên bản 2"), "{notice}");
    assert_eq!(english_sentence(&notice), None, "{notice}");
}

/// The network's and hosting's failures as a Vietnamese player reads them: what to check, in
/// Vietnamese; the system's English reason stays in the log.
#[test]
fn no_network_or_hosting_error_reaches_a_vietnamese_screen_in_english() {
    use ludus::i18n::system::SystemError;
    use ludus::net::address::AddressError;
    use ludus::net::connection::{Link, LinkFailure, LinkState};
    use ludus::net::lan::HostFailure;
    use std::io::ErrorKind;
    let mut told = Vec::new();
    let addresses = [
        AddressError::Empty,
        AddressError::SecureWebSocketOnDesktop,
        AddressError::Malformed("1.2.3.4:99999".into()),
        AddressError::Unresolved("nosuchhost.invalid".into()),
    ];
    for failure in addresses.into_iter().map(LinkFailure::BadAddress).chain([
        LinkFailure::Unreachable("Connection refused (os error 111)".into()),
        LinkFailure::Refused(429),
        LinkFailure::Refused(503),
        LinkFailure::Refused(418),
        LinkFailure::Incompatible(99),
    ]) {
        let mut link = Link::default();
        link.server = "192.168.1.20:5000".into();
        link.phase = LinkState::Failed(failure);
        told.push(ludus::ui::widgets::link_text(Lang::Vi, &link).1);
    }
    for failure in [
        HostFailure::System(SystemError { kind: ErrorKind::AddrInUse, code: Some(98) }),
        HostFailure::System(SystemError { kind: ErrorKind::PermissionDenied, code: Some(13) }),
        HostFailure::System(SystemError { kind: ErrorKind::Other, code: None }),
        HostFailure::Data,
        HostFailure::Other,
    ] {
        told.push(failure.text(Lang::Vi));
    }
    for text in &told {
        assert_eq!(english_sentence(text), None, "{text}");
        assert!(!text.contains("os error") && !text.contains("refused"), "{text}");
    }
}
