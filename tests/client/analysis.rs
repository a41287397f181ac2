//! The post-game analysis headless: a real game is played through the game's commands, kept in
//! the recent games when it ends, then analysed in the background to the end; a move that
//! gives the opponent a clear advantage is flagged.

use crate::{data_dir_lock, fresh_data_dir, headless};
use bevy::prelude::*;
use ludus::game::records;
use ludus::game::session::{GameCommand, Level, Seats, Session};
use ludus::players::analysis::Analysis;
use ludus_ai::review::{Eval, Mark};
use ludus_rules::{AnyGame, AnyMove, Side, Variant};
use std::time::{Duration, Instant};

/// The legal move a short search likes least: the one after which the opponent stands best.
fn worst_move(game: &AnyGame) -> (AnyMove, i32) {
    let opponent_score = |mv: &AnyMove| {
        let mut g = game.clone();
        g.play(mv).unwrap();
        let mut search = ludus_ai::AnySearch::new(&g, Level::Hard, ludus_ai::Limits::nodes(50_000), 1);
        search.run_to_end();
        Eval::from_score(search.info().score, g.side_to_move()).value_for(g.side_to_move())
    };
    game.legal_moves().iter().map(|m| (*m, opponent_score(m))).max_by_key(|(_, s)| *s).unwrap()
}

#[test]
fn a_finished_game_is_kept_and_analysed_with_its_blunder() {
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("analysis");
    let mut app = headless();
    app.insert_resource(Session::new(Variant::Alquerque, Seats::versus_computer(Side::First, Level::Hard)));
    app.update();
    // Both sides play the engine's moves (a short search), except one that gives the opponent a clear
    // advantage.
    // The first of the person's moves from the fifth ply on where some move throws away two
    // soldiers or more is that move.
    let mut bad_ply = None;
    for ply in 0..30 {
        let game = app.world().resource::<Session>().game.clone();
        let engine = ludus_ai::best_move(&game, Level::Hard, ludus_ai::Limits::nodes(20_000), 1);
        let mut mv = engine.unwrap();
        if bad_ply.is_none() && ply >= 4 && game.side_to_move() == Side::First {
            let (worst, opponent) = worst_move(&game);
            if opponent >= 200 {
                bad_ply = Some(ply);
                mv = worst;
            }
        }
        app.world_mut().write_message(GameCommand::Play(mv));
        app.update();
        assert_eq!(app.world().resource::<Session>().game.ply(), ply + 1);
        if app.world().resource::<Session>().game.is_over() {
            break;
        }
    }
    // The person resigns: the game ends and joins the recent games.
    app.world_mut().write_message(GameCommand::Resign);
    app.update();
    app.update();
    let session = app.world().resource::<Session>().clone();
    assert!(session.game.is_over());
    assert!(dir.join(records::FILE).exists(), "the finished game is kept");
    let (doc, notice) = records::load(ludus::i18n::Lang::En);
    assert!(notice.is_none());
    assert_eq!(doc.games.len(), 1);
    assert_eq!(doc.games[0].record, session.game.record());
    // Showing the same game again (after its analysis) does not keep it twice.
    app.world_mut().insert_resource(session.clone());
    app.update();
    assert_eq!(records::load(ludus::i18n::Lang::En).0.games.len(), 1);

    // Analyse it from the recent games, with the game's book of proven values (the windowed
    // game's endgames plugin holds it).
    app.init_resource::<ludus::players::endgames::Endgames>();
    let game = doc.games[0].game().unwrap();
    let n = game.ply();
    app.world_mut().insert_resource(Session::review(ludus_ai::review::prefix(&game, 0), doc.games[0].seats));
    app.world_mut().insert_resource(Analysis::new(game, doc.games[0].seats));
    // The time it takes is a benchmark, printed; the test only needs the analysis to go on (a
    // position evaluated now and then: a stalled analysis fails instead of hanging the test).
    let started = Instant::now();
    let (mut seen, mut progress) = (0, Instant::now());
    while !app.world().resource::<Analysis>().is_done() {
        app.update();
        let analysed = app.world().resource::<Analysis>().analysed();
        if analysed > seen {
            (seen, progress) = (analysed, Instant::now());
        }
        assert!(progress.elapsed() < Duration::from_secs(600), "the analysis stalled after {seen} positions");
        std::thread::sleep(Duration::from_millis(5));
    }
    println!("bench: analysed {} positions in {:.1} s (debug build)", n + 1, started.elapsed().as_secs_f64());
    let analysis = app.world().resource::<Analysis>();
    assert_eq!(analysis.evals.len(), n + 1);
    for (i, e) in analysis.evals.iter().enumerate() {
        let e = e.unwrap_or_else(|| panic!("position {i} has no evaluation"));
        // Resigned, not over by the rules: the final position is evaluated by the engine too.
        assert!(e.best.is_some(), "position {i} has the engine's move");
        assert!(!matches!(e.eval, Eval::Over(_)), "position {i}");
    }
    // The start is in the shipped book of proven values: the analysis says it is a draw.
    assert_eq!(analysis.evals[0].unwrap().proven, Some(ludus_ai::solve::Value::Draw));
    let marks: Vec<_> = (0..n).map(|k| analysis.mark(k)).collect();
    eprintln!("marks {marks:?}");
    eprintln!("evals {:?}", analysis.evals.iter().map(|e| e.unwrap().eval).collect::<Vec<_>>());
    let bad_ply = bad_ply.expect("a bad move was played");
    assert_eq!(marks[bad_ply], Some(Mark::Blunder), "the bad move (ply {bad_ply}) is a blunder");
    let tally = analysis.tally();
    assert!(tally[Side::First.index()][0] >= 1);
    // The review session is nothing to play or save.
    let review = app.world().resource::<Session>();
    assert!(review.is_review() && !review.can_touch() && review.computer_to_move().is_none());
    assert!(!dir.join("unfinished-game.json").exists());
    // Closing the analysis stops its work (dropping the resource sets the stop flag).
    app.world_mut().remove_resource::<Analysis>();
    app.update();
}

#[test]
fn corrupt_records_are_set_aside_and_reported() {
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("records-corrupt");
    std::fs::write(dir.join(records::FILE), "{ \"version\": 1, \"games\": [ {\"date\": 1").unwrap();
    let (doc, notice) = records::load(ludus::i18n::Lang::Vi);
    assert!(doc.games.is_empty());
    let notice = notice.expect("the player is told");
    assert!(notice.contains("Không đọc được"), "{notice}");
    assert!(!dir.join(records::FILE).exists(), "the bad document is moved");
    let aside = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("records.json.corrupt"));
    assert_eq!(aside.count(), 1, "and kept");
    // The next finished game starts a fresh document.
    let mut session = Session::new(Variant::Alquerque, Seats::two_players());
    session.game.play_str("c2-c3").unwrap();
    session.resign();
    assert!(records::append(records::RecordEntry::of(&session), ludus::i18n::Lang::En).is_none());
    assert_eq!(records::load(ludus::i18n::Lang::En).0.games.len(), 1);
}
