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
