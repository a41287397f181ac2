//! The lessons: every file parses, every position is legal, every solution solves its lesson
//! and every wrong move does not; a lesson played through is kept as done.

use crate::{data_dir_lock, fresh_data_dir, headless};
use ludus::game::lessons::{self, FILES, Goal, LessonProgress, LessonRun, LessonState, parse_course};
use ludus::game::session::{GameCommand, Session};
use std::collections::BTreeSet;

#[test]
fn every_lesson_file_parses_with_enough_lessons() {
    for (name, text) in FILES {
        let course = parse_course(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(course.lessons.len() >= 6, "{name} has {} lessons", course.lessons.len());
    }
    let courses = lessons::courses().expect("the lessons load");
    assert_eq!(courses.len(), FILES.len());
    let ids: Vec<_> = courses.iter().flat_map(|c| &c.lessons).map(|l| l.id.as_str()).collect();
    let unique: BTreeSet<_> = ids.iter().collect();
    assert_eq!(ids.len(), unique.len(), "lesson ids repeat: {ids:?}");
}

#[test]
fn every_lesson_is_solvable_and_wrong_moves_fail() {
    let mut drift = Vec::new();
    for course in lessons::courses().expect("the lessons load") {
        for lesson in &course.lessons {
            let id = &lesson.id;
            // The position is legal: parsed by the rules, with a move to make and not over.
            assert!(!lesson.position.legal_moves().is_empty(), "{id}: no legal move");
            assert!(lesson.solves_str(&lesson.solution), "{id}: the solution {} fails", lesson.solution);
            assert!(!lesson.wrong.is_empty(), "{id}: give at least one wrong move");
            for wrong in &lesson.wrong {
                if lesson.solves_str(wrong) {
                    let all: Vec<String> = lesson
                        .position
                        .legal_moves()
                        .iter()
                        .filter(|m| !lesson.solves(m))
                        .filter_map(|m| lesson.position.move_to_string(m))
                        .collect();
                    panic!("{id}: the wrong move {wrong} solves it (these do not: {all:?})");
                }
            }
            // The task is not met by chance: some legal move fails it (unless only one exists).
            let legal = lesson.position.legal_moves();
            if legal.len() > 1 {
                assert!(legal.iter().any(|m| !lesson.solves(m)), "{id}: every move solves it");
            }
            for words in [&lesson.title, &lesson.text, &lesson.task, &lesson.hint] {
                assert!(!words.en.trim().is_empty() && !words.vi.trim().is_empty(), "{id}: empty text");
                assert_ne!(words.en, words.vi, "{id}: '{}' is not translated", words.en);
                drift.extend(crate::texts::drift(id, &words.en, &words.vi));
            }
        }
        assert!(!course.title.en.is_empty() && !course.title.vi.is_empty());
    }
    assert!(drift.is_empty(), "the lessons drift from the glossary:\n{}", drift.join("\n"));
}

#[test]
fn bad_lessons_are_refused_with_a_reason() {
    let lesson = |position: &str, goal: &str| {
        format!(
            r#"{{"title": {{"en": "T", "vi": "T"}}, "lessons": [{{"id": "x", "variant": "alquerque",
            "position": "{position}", "title": {{"en": "a", "vi": "b"}}, "text": {{"en": "a", "vi": "b"}},
            "task": {{"en": "a", "vi": "b"}}, "hint": {{"en": "a", "vi": "b"}}, "goal": {goal},
            "solution": "b2-c3"}}]}}"#
        )
    };
    assert!(parse_course(&lesson("4B/5/5/1W3/5 w", r#"{"reach": "c3"}"#)).is_ok());
    for (position, goal, what) in [
        ("4B/5/5/1W3/5 w", r#"{"reach": "z9"}"#, "no square"),
        ("4B/5/5/1W3 w", r#"{"reach": "c3"}"#, "bad position"),
        ("4B/5/5/1W3/5 w", r#"{"capture_count": 0}"#, "capture_count of 0"),
        ("4B/5/5/1W3/5 w", r#"{"fly": "c3"}"#, "unknown variant"),
    ] {
        let e = parse_course(&lesson(position, goal)).expect_err(what);
        assert!(e.to_string().contains(what), "{what}: {e}");
    }
    assert!(parse_course("{").is_err());
    let empty = r#"{"title": {"en": "T", "vi": ""}, "lessons": []}"#;
    assert!(parse_course(empty).is_err());
}

#[test]
fn a_lesson_played_through_is_kept_as_done() {
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("lessons");
    // An unfinished game is kept while a lesson is played.
    let mut unfinished =
        Session::new(ludus_rules::Variant::Alquerque, ludus::game::session::Seats::two_players());
    let first = unfinished.game.legal_moves()[0];
    unfinished.play(&first).expect("legal");
    ludus::game::save::store(&unfinished);
    let saved = std::fs::read_to_string(dir.join("unfinished-game.json")).expect("saved");
    let mut app = headless();
    let (course, index) = lessons::find("latrunculi-2").expect("the sandwich lesson");
    let (session, run) = lessons::begin(course, index).expect("lesson");
    let lesson = run.lesson().expect("lesson").clone();
    assert!(matches!(lesson.goal, Goal::Capture(_)));
    app.insert_resource(session);
    app.insert_resource(run);
    app.update();
    assert_eq!(app.world().resource::<LessonRun>().state, LessonState::Trying);
    // A wrong move: the lesson says so, shows the hint, and nothing is kept.
    let play = |app: &mut bevy::prelude::App, text: &str| {
        let mv = app.world().resource::<Session>().game.position().parse_move(text).expect("legal");
        app.world_mut().write_message(GameCommand::Play(mv));
        app.update();
    };
    play(&mut app, &lesson.wrong[0]);
    let run = app.world().resource::<LessonRun>();
    assert_eq!(run.state, LessonState::Wrong);
    assert!(run.hint, "the hint shows after a wrong move");
    assert!(app.world().resource::<LessonProgress>().done.is_empty());
    // One move only: the board takes no second move.
    let other = app.world().resource::<Session>().game.legal_moves()[0];
    app.world_mut().write_message(GameCommand::Play(other));
    app.update();
    assert_eq!(app.world().resource::<Session>().game.ply(), 1);
    // Try again goes back to the lesson's position, not to a new game.
    app.world_mut().write_message(GameCommand::NewGame);
    app.update();
    let session = app.world().resource::<Session>();
    assert_eq!(session.game.ply(), 0);
    assert_eq!(session.game.position().to_string(), lesson.position.to_string());
    assert_eq!(app.world().resource::<LessonRun>().state, LessonState::Trying);
    // The solution: done, and kept.
    play(&mut app, &lesson.solution);
    assert_eq!(app.world().resource::<LessonRun>().state, LessonState::Solved);
    assert!(app.world().resource::<LessonProgress>().done.contains("latrunculi-2"));
    assert_eq!(
        std::fs::read_to_string(dir.join("unfinished-game.json")).ok().as_deref(),
        Some(saved.as_str()),
        "a lesson neither saves itself nor replaces the unfinished game"
    );
    let (progress, notice) = LessonProgress::load(ludus::i18n::Lang::En);
    assert!(notice.is_none());
    assert!(progress.done.contains("latrunculi-2"), "the progress survives a restart");
}

#[test]
fn unreadable_progress_is_set_aside_and_reported() {
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("lessons-corrupt");
    std::fs::write(dir.join("lessons.json"), "{ not json").expect("write");
    let (progress, notice) = LessonProgress::load(ludus::i18n::Lang::Vi);
    assert!(progress.done.is_empty());
    assert!(notice.is_some_and(|n| n.contains("tiến độ")));
    assert!(!dir.join("lessons.json").exists(), "set aside");
}

#[test]
fn a_lesson_against_the_computer_is_played_to_the_end() {
    let _guard = data_dir_lock();
    fresh_data_dir("lessons-easy");
    let mut app = headless();
    let (course, index) = lessons::find("alquerque-7").expect("the sacrifice lesson");
    let (session, run) = lessons::begin(course, index).expect("lesson");
    let lesson = run.lesson().expect("lesson").clone();
    assert!(lesson.against_computer());
    app.insert_resource(session);
    app.insert_resource(run);
    app.update();
    let play = |app: &mut bevy::prelude::App, text: &str| {
        let mv = app.world().resource::<Session>().game.position().parse_move(text).expect("legal");
        app.world_mut().write_message(GameCommand::Play(mv));
        app.update();
    };
    play(&mut app, &lesson.solution);
    // Not judged yet: the game goes on, the computer (Easy) to move; its only move is the capture.
    let session = app.world().resource::<Session>();
    assert_eq!(app.world().resource::<LessonRun>().state, LessonState::Trying);
    assert_eq!(session.computer_to_move(), Some(ludus::game::session::Level::Easy));
    let replies = session.game.legal_moves();
    assert_eq!(replies.len(), 1, "the capture is compulsory");
    app.world_mut().write_message(GameCommand::Play(replies[0]));
    app.update();
    assert!(app.world().resource::<Session>().human_to_move());
    play(&mut app, "c1xc3xe5");
    assert!(app.world().resource::<Session>().game.is_over());
    assert_eq!(app.world().resource::<LessonRun>().state, LessonState::Solved);
    assert!(app.world().resource::<LessonProgress>().done.contains("alquerque-7"));
    // Try again: the lesson's position, still against the computer.
    app.world_mut().write_message(GameCommand::NewGame);
    app.update();
    let session = app.world().resource::<Session>();
    assert_eq!(session.game.position().to_string(), lesson.position.to_string());
    assert!(session.is_lesson() && !session.seats.is_two_players());
}
