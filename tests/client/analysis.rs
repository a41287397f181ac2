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

/// Alquerque's first move b2-c3 keeps the draw the book proves, as c2-c3 would: the analysis
/// does not mark it, says the book judged it, and calls c2-c3 only "the engine's move".
#[test]
fn the_analysis_judges_b2_c3_by_the_book_as_keeping_the_draw() {
    use ludus_ai::review::Source;
    use ludus_ai::solve::Value;
    let _guard = data_dir_lock();
    fresh_data_dir("analysis-b2c3");
    let mut app = headless();
    app.init_resource::<ludus::players::endgames::Endgames>();
    let mut game = AnyGame::new(Variant::Alquerque);
    game.play_str("b2-c3").unwrap();
    let seats = Seats::versus_computer(Side::First, Level::Easy);
    let (analysis, session) = ludus::players::analysis::opened(game, seats);
    app.insert_resource(session);
    app.insert_resource(analysis);
    let started = Instant::now();
    while !app.world().resource::<Analysis>().is_done() {
        assert!(started.elapsed() < Duration::from_secs(600), "the analysis stalled");
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    let a = app.world().resource::<Analysis>();
    let j = a.judgement(0).expect("judged");
    assert_eq!(j.mark, Mark::Fine, "b2-c3 keeps the draw: {j:?}");
    assert_eq!((j.source, j.kept), (Source::Book, Some(Value::Draw)));
    let words = ludus::screens::analysis::judgement_text(ludus::i18n::Lang::En, Variant::Alquerque, j);
    assert!(words.contains("Keeps the draw") && words.contains("book"), "{words}");
}

/// A finished Alquerque game of some length, analysed in part (evaluations made up: the layout
/// does not depend on them), for the layout tests.
fn laid_out_analysis() -> Analysis {
    use ludus_ai::review::PlyEval;
    let mut game = AnyGame::new(Variant::Alquerque);
    for _ in 0..24 {
        let Some(mv) = game.legal_moves().last().copied() else { break };
        game.play(&mv).unwrap();
        if game.is_over() {
            break;
        }
    }
    let n = game.ply();
    let mut a = Analysis::new(game.clone(), Seats::versus_computer(Side::Second, Level::Medium));
    for (i, e) in a.evals.iter_mut().enumerate().take(n * 2 / 3) {
        let best = game.position_at(i).legal_moves().first().copied();
        let eval = Eval::Cp(((i as i32 * 37) % 300) - 150);
        *e = Some(PlyEval { eval, best, depth: 8, proven: None, exact: None, keeps: None });
    }
    a.selected = n / 2;
    a
}

/// The text boxes of one frame: each text's whole box, the box it is clipped to, and its words.
fn text_boxes(shapes: &[egui::epaint::ClippedShape]) -> Vec<(egui::Rect, egui::Rect, String)> {
    fn walk(shape: &egui::Shape, clip: egui::Rect, out: &mut Vec<(egui::Rect, egui::Rect, String)>) {
        match shape {
            egui::Shape::Text(t) if !t.galley.text().trim().is_empty() => {
                out.push((t.galley.rect.translate(t.pos.to_vec2()), clip, t.galley.text().to_string()));
            }
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, clip, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    shapes.iter().for_each(|c| walk(&c.shape, c.clip_rect, &mut out));
    out
}

use bevy_egui::egui;

/// The analysis screen fits phone, tablet and desktop windows, in both languages, at 100 % and
/// 200 % text: no text runs out of the window or its panel, none lies over the board, the step
/// buttons and "Back" show whole, and the board keeps a fair share of the window.
#[test]
fn the_analysis_screen_fits_from_phone_to_desktop() {
    use ludus::screens::analysis::{AnalysisView, analysis_panel};
    let analysis = laid_out_analysis();
    let mut failures = Vec::new();
    for lang in [ludus::i18n::Lang::En, ludus::i18n::Lang::Vi] {
        for (w, h) in [(390.0, 844.0), (768.0, 1024.0), (1280.0, 800.0)] {
            for zoom in [1.0, 2.0] {
                let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(w / zoom, h / zoom));
                let ctx = egui::Context::default();
                let input = || egui::RawInput { screen_rect: Some(window), ..Default::default() };
                ctx.run_ui(input(), |ui| ludus::ui::style_context(ui.ctx())).drop_without_applying_deltas();
                let (mut shapes, mut board) = (Vec::new(), egui::Rect::NOTHING);
                for _ in 0..3 {
                    let view = AnalysisView { lang, analysis: &analysis, scroll: true };
                    let mut out = ctx.run_ui(input(), |ui| {
                        board = analysis_panel(&mut ludus::ui::root_ui(ui.ctx()), &view).board;
                    });
                    out.textures_delta.clear();
                    shapes = out.shapes;
                }
                let at = format!("{w}x{h} at {}% {lang:?}", zoom * 100.0);
                if board.width() < window.width() * 0.45 || board.height() < window.height() * 0.3 {
                    failures.push(format!("{at}: the board's area {board:?} is too small"));
                }
                let whole = [lang.t("menu-back"), "|◀", "▶|", lang.t("hud-flip")];
                let mut seen = 0;
                for (rect, clip, text) in text_boxes(&shapes) {
                    let shown = rect.intersect(clip);
                    if rect.left() < clip.left() - 0.5 || rect.right() > clip.right() + 0.5 {
                        failures.push(format!("{at}: {text:?} is cut at the side ({rect:?} in {clip:?})"));
                    }
                    if shown.width() < 1.0 || shown.height() < 1.0 {
                        continue;
                    }
                    if !window.expand(0.5).contains_rect(shown) {
                        failures.push(format!("{at}: {text:?} runs out of the window ({shown:?})"));
                    }
                    if shown.intersects(board.shrink(0.5)) {
                        failures.push(format!("{at}: {text:?} lies over the board ({shown:?} on {board:?})"));
                    }
                    if whole.iter().any(|t| text.trim() == t.trim()) {
                        seen += 1;
                        if !clip.expand(0.5).contains_rect(rect) {
                            failures.push(format!("{at}: {text:?} is not whole ({rect:?} in {clip:?})"));
                        }
                    }
                }
                if seen < whole.len() {
                    failures.push(format!("{at}: only {seen} of Back, the step buttons and Turn drawn"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The game screen's panel fits phone, tablet and desktop windows, in both languages, at 100 %
/// and 200 % text, for both games: no text runs out of the window at the side or lies over the
/// board, the panel's buttons show whole (a row wraps a button whole), and the board keeps a
/// fair share of the window.
#[test]
fn the_game_screen_fits_from_phone_to_desktop() {
    use ludus::game::intent::Confirming;
    use ludus::game::selection::Selected;
    use ludus::net::connection::Link;
    use ludus::screens::play::{PanelAsks, PanelChanges, PanelView, TypedMove, game_panel};
    use ludus::ui::TapTargets;
    let mut failures = Vec::new();
    let link = Link::default();
    let selected = Selected::default();
    for variant in [Variant::Latrunculi, Variant::Alquerque] {
        let mut game = AnyGame::new(variant);
        for _ in 0..6 {
            let mv = game.legal_moves()[0];
            game.play(&mv).unwrap();
        }
        let session = Session::from_game(game, Seats::versus_computer(Side::First, Level::Medium));
        for lang in [ludus::i18n::Lang::En, ludus::i18n::Lang::Vi] {
            for (w, h) in [(390.0, 844.0), (768.0, 1024.0), (1280.0, 800.0)] {
                for zoom in [1.0, 2.0] {
                    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(w / zoom, h / zoom));
                    let ctx = egui::Context::default();
                    let input = || egui::RawInput { screen_rect: Some(window), ..Default::default() };
                    ctx.run_ui(input(), |ui| ludus::ui::style_context(ui.ctx()))
                        .drop_without_applying_deltas();
                    let (mut shapes, mut board) = (Vec::new(), egui::Rect::NOTHING);
                    let (mut taps, mut typed) = (TapTargets::default(), TypedMove::default());
                    for _ in 0..3 {
                        let view = PanelView {
                            lang,
                            colors: ludus::ui::theme::palette(ludus::game::settings::Theme::Wood),
                            session: &session,
                            online: None,
                            found: None,
                            link: &link,
                            thinking: false,
                            selected: &selected,
                            confirming: Confirming::default(),
                            now: 0.0,
                            settled: true,
                        };
                        let (mut turned, mut hidden) = (false, false);
                        let mut changes = PanelChanges { turned: &mut turned, card_hidden: &mut hidden };
                        let mut asks = PanelAsks {
                            game: Vec::new(),
                            online: Vec::new(),
                            nav: Vec::new(),
                            taps: &mut taps,
                            typed: &mut typed,
                        };
                        let mut out = ctx.run_ui(input(), |ui| {
                            board =
                                game_panel(&mut ludus::ui::root_ui(ui.ctx()), &view, &mut asks, &mut changes);
                        });
                        out.textures_delta.clear();
                        shapes = out.shapes;
                    }
                    let at = format!("{variant:?} {w}x{h} at {}% {lang:?}", zoom * 100.0);
                    if board.width() < window.width() * 0.45 || board.height() < window.height() * 0.3 {
                        failures.push(format!("{at}: the board's area {board:?} is too small"));
                    }
                    let whole =
                        [lang.t("hud-undo"), lang.t("hud-hint"), lang.t("hud-resign"), lang.t("hud-menu")];
                    for (rect, clip, text) in text_boxes(&shapes) {
                        let shown = rect.intersect(clip);
                        if shown.width() < 1.0 || shown.height() < 1.0 {
                            continue;
                        }
                        if rect.left() < window.left() - 0.5 || rect.right() > window.right() + 0.5 {
                            failures.push(format!(
                                "{at}: {text:?} runs out of the window at the side ({rect:?})"
                            ));
                        }
                        if shown.intersects(board.shrink(0.5)) {
                            failures
                                .push(format!("{at}: {text:?} lies over the board ({shown:?} on {board:?})"));
                        }
                        if whole.iter().any(|t| text.trim() == t.trim())
                            && !clip.expand(0.5).contains_rect(rect)
                        {
                            // Cut by the panel's scrolling (below the fold) is fine; cut at a side is not.
                            if rect.left() < clip.left() - 0.5 || rect.right() > clip.right() + 0.5 {
                                failures.push(format!(
                                    "{at}: {text:?} is cut at the side ({rect:?} in {clip:?})"
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
