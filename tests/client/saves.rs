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
