//! The puzzle trainer: every built-in puzzle parses and plays; the checking accepts the
//! solution and the verified alternatives and refuses other moves; the rating moves up after a
//! success and down after a failure; the chooser picks near the rating, through the filters,
//! never the same puzzle twice in a row; a corrupt stored profile is replaced with a notice.

use crate::{data_dir_lock, fresh_data_dir};
use ludus::game::puzzles::{
    self, FILES, HISTORY, NEAREST, PuzzleProfile, Trainer, Verdict, choose, matches, parse_all,
};
use ludus::i18n::Lang;
use ludus_ai::puzzle::{Puzzle, Theme};
use ludus_rules::Variant;

fn all() -> &'static [Puzzle] {
    puzzles::puzzles().expect("the puzzles load")
}

fn by_id(id: &str) -> Puzzle {
    all().iter().find(|p| p.id == id).unwrap_or_else(|| panic!("no puzzle {id}")).clone()
}

#[test]
fn every_embedded_puzzle_file_parses_and_its_lines_play() {
    for (name, text) in FILES {
        let set = parse_all(&[(name, text)]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(set.len(), 300, "{name}");
    }
    assert_eq!(all().len(), 900);
    for p in all() {
        let mut pos = p.position().unwrap_or_else(|e| panic!("{e}"));
        for (i, text) in p.line.iter().enumerate() {
            if i % 2 == 0 {
                for alt in p.alternatives(i / 2) {
                    assert!(pos.parse_move(alt).is_ok(), "{}: alternative {alt} does not read", p.id);
                }
            }
            let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{}: {text}: {e}", p.id));
            pos = pos.try_play(&mv).unwrap_or_else(|e| panic!("{}: {text}: {e}", p.id));
        }
    }
    assert!(parse_all(&[("bad.json", "[{\"id\": 1}]")]).is_err());
    assert!(parse_all(&[("empty.json", "[]")]).is_err());
}

#[test]
fn the_trainer_accepts_the_solution_line_step_by_step() {
    for p in all() {
        let mut t = Trainer::new(p.clone());
        let steps = p.steps();
        for step in 0..steps {
            assert_eq!(t.expected(), Some(p.line[2 * step].as_str()));
            let verdict = t.play(&p.line[2 * step]);
            if step + 1 < steps {
                assert_eq!(verdict, Verdict::Continue(p.line[2 * step + 1].clone()), "{}", p.id);
                assert_eq!(t.played(), &p.line[..2 * step + 2]);
            } else {
                assert_eq!(verdict, Verdict::Solved, "{}", p.id);
            }
        }
        assert!(t.solved && !t.missed, "{}", p.id);
    }
}

#[test]
fn the_trainer_refuses_a_wrong_move_and_lets_the_player_try_again() {
    // A puzzle of several steps where some legal first move is not the solution.
    let wrong_of = |p: &Puzzle| {
        let pos = p.position().ok()?;
        pos.legal_moves().iter().filter_map(|m| pos.move_to_string(m)).find(|m| !p.accepts(0, m))
    };
    let (p, wrong) = all()
        .iter()
        .filter(|p| p.steps() > 1)
        .find_map(|p| wrong_of(p).map(|w| (p.clone(), w)))
        .expect("a puzzle with a wrong first move");
    let mut t = Trainer::new(p.clone());
    assert_eq!(t.play(&wrong), Verdict::Wrong);
    assert_eq!(t.step, 0, "a wrong move does not advance");
    assert!(t.missed && !t.solved);
    assert_eq!(t.play("not a move"), Verdict::Wrong);
    // Then the solution still counts as correct.
    assert_eq!(t.play(&p.line[0]), Verdict::Continue(p.line[1].clone()));
    let mut later = Trainer::new(p.clone());
    later.play(&p.line[0]);
    assert_eq!(later.play(&p.line[0]), Verdict::Wrong, "the first move again is wrong at step 2");
}

#[test]
fn a_verified_alternative_is_accepted_and_solves_the_puzzle() {
    // An alternative on the first of several steps: correct, and the stored line no longer
    // applies, so the puzzle counts as solved there.
    let p = by_id("alq-0008");
    assert!(p.steps() > 1);
    let alt = p.alternatives(0)[0].clone();
    let mut t = Trainer::new(p);
    assert_eq!(t.play(&alt), Verdict::Solved);
    assert!(t.solved && !t.missed);
    // Every listed alternative of every puzzle, at its step, is never called wrong.
    for p in all() {
        for step in 0..p.steps() {
            for alt in p.alternatives(step) {
                let mut t = Trainer::new(p.clone());
                for s in 0..step {
                    t.play(&p.line[2 * s]);
                }
                assert_ne!(t.play(alt), Verdict::Wrong, "{}: alternative {alt} at step {step}", p.id);
                assert!(t.solved, "{}", p.id);
            }
        }
    }
}

#[test]
fn the_rating_moves_up_after_a_success_and_down_after_a_failure() {
    let p = by_id("alq-0008");
    let mut profile = PuzzleProfile::default();
    let start = profile.rating;
    profile.record(&p, true);
    assert!(profile.rating > start, "{} after a success from {start}", profile.rating);
    assert!(profile.deviation < PuzzleProfile::default().deviation);
    assert_eq!((profile.streak, profile.best_streak), (1, 1));
    let up = profile.rating;
    profile.record(&p, false);
    assert!(profile.rating < up, "{} after a failure from {up}", profile.rating);
    assert_eq!((profile.streak, profile.best_streak), (0, 1));
    assert_eq!(profile.history.len(), 2);
    let last = profile.history.back().unwrap();
    assert_eq!((last.id.as_str(), last.solved), ("alq-0008", false));
    assert_eq!(last.rating, profile.rating);
    // A harder puzzle failed costs less than an easy one failed.
    let (easy, hard) = (by_id("alq-0008"), all().iter().max_by_key(|p| p.rating).unwrap().clone());
    let (mut a, mut b) = (PuzzleProfile::default(), PuzzleProfile::default());
    a.record(&easy, false);
    b.record(&hard, false);
    assert!(a.rating < b.rating);
    for _ in 0..30 {
        profile.record(&p, true);
    }
    assert_eq!(profile.history.len(), HISTORY);
    assert_eq!(profile.streak, 30);
}

#[test]
fn the_chooser_picks_near_the_rating_through_the_filters() {
    let puzzles = all();
    for rating in [800.0, 1200.0, 1500.0, 2100.0] {
        for (game, theme) in [
            (None, None),
            (Some(Variant::Alquerque), None),
            (Some(Variant::Latrunculi), Some(Theme::KingHunt)),
            (None, Some(Theme::Chain)),
        ] {
            let passing: Vec<&Puzzle> = puzzles.iter().filter(|p| matches(p, game, theme)).collect();
            assert!(passing.len() > NEAREST, "{game:?} {theme:?}");
            let mut distances: Vec<f64> =
                passing.iter().map(|p| (f64::from(p.rating) - rating).abs()).collect();
            distances.sort_by(f64::total_cmp);
            let bound = distances[NEAREST];
            for seed in 0..40 {
                let i = choose(puzzles, rating, game, theme, None, seed).expect("a puzzle");
                let p = &puzzles[i];
                assert!(matches(p, game, theme), "{} fails {game:?} {theme:?}", p.id);
                assert!((f64::from(p.rating) - rating).abs() <= bound, "{} far from {rating}", p.id);
                assert_eq!(choose(puzzles, rating, game, theme, None, seed), Some(i), "deterministic");
                let again = choose(puzzles, rating, game, theme, Some(&p.id), seed).expect("another");
                assert_ne!(again, i, "the same puzzle twice in a row");
            }
        }
    }
    // Several puzzles are offered over seeds, not one.
    let picks: std::collections::BTreeSet<usize> =
        (0..40).filter_map(|s| choose(puzzles, 1200.0, None, None, None, s)).collect();
    assert!(picks.len() > 2);
    // Only the last one passes: nothing.
    let one = [puzzles[0].clone()];
    assert_eq!(choose(&one, 1500.0, None, None, Some(&one[0].id), 1), None);
    assert_eq!(choose(&one, 1500.0, None, None, None, 1), Some(0));
}

#[test]
fn a_corrupt_profile_is_replaced_with_a_notice() {
    let _lock = data_dir_lock();
    let dir = fresh_data_dir("puzzles");
    let (profile, notice) = PuzzleProfile::load(Lang::En);
    assert_eq!((profile, notice), (PuzzleProfile::default(), None));
    let mut kept = PuzzleProfile::default();
    kept.record(&by_id("alq-0008"), true);
    kept.game = Some(Variant::Alquerque);
    kept.theme = Some(Theme::Chain);
    kept.save();
    assert_eq!(PuzzleProfile::load(Lang::En), (kept, None));
    std::fs::write(dir.join("puzzles.json"), "{ not json").unwrap();
    let (profile, notice) = PuzzleProfile::load(Lang::Vi);
    assert_eq!(profile, PuzzleProfile::default());
    let notice = notice.expect("a notice");
    assert!(notice.contains("puzzles.json.corrupt-"), "{notice}");
    assert!(!dir.join("puzzles.json").exists(), "the bad file is set aside");
    // Absurd numbers are brought back.
    std::fs::write(dir.join("puzzles.json"), r#"{"rating": -5, "deviation": 0, "volatility": 9}"#).unwrap();
    let (profile, notice) = PuzzleProfile::load(Lang::En);
    assert!(notice.is_none());
    assert_eq!(profile.rating, PuzzleProfile::default().rating);
}

/// A headless app with the puzzle's driver and the computer player (seated for the opponent,
/// which must never get to move), the board "drawn" at once at the end of each frame.
fn drive_app(p: &Puzzle) -> bevy::prelude::App {
    let mut app = crate::headless();
    with_driver(&mut app, ludus::app::Screen::Playing);
    let index = all().iter().position(|q| q.id == p.id).unwrap();
    app.insert_resource(ludus::screens::puzzles::session_for(p).expect("a session"));
    app.insert_resource(puzzles::PuzzleRun::new(index, p.clone()));
    app.update();
    app
}

/// Adds the puzzle's driver and the computer player to a headless app on `screen`, the board
/// "drawn" at once at the end of each frame.
pub fn with_driver(app: &mut bevy::prelude::App, screen: ludus::app::Screen) {
    use bevy::prelude::*;
    use ludus::app::AppSet;
    use ludus::board::view::BoardView;
    use ludus::game::session::Session;
    fn settle(session: Option<Res<Session>>, mut view: ResMut<BoardView>) {
        if let Some(session) = session {
            view.shown_moves = session.game.moves();
        }
    }
    if !app.is_plugin_added::<bevy::state::app::StatesPlugin>() {
        app.add_plugins(bevy::state::app::StatesPlugin);
    }
    app.add_message::<bevy::window::RequestRedraw>();
    app.init_resource::<BoardView>();
    app.add_plugins(ludus::players::computer::plugin);
    app.insert_state(screen);
    app.add_systems(
        Update,
        (
            ludus::screens::puzzles::drive.after(AppSet::Apply).before(AppSet::Think),
            settle.in_set(AppSet::View),
        ),
    );
}

/// Plays `text` on the board and lets the driver answer.
pub fn play(app: &mut bevy::prelude::App, text: &str) {
    use ludus::game::session::{GameCommand, Session};
    let pos = app.world().resource::<Session>().game.position();
    let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    app.world_mut().write_message(GameCommand::Play(mv));
    app.update();
    app.update();
}

#[test]
fn on_the_board_replies_are_played_and_a_wrong_move_is_taken_back() {
    use ludus::game::session::Session;
    let _lock = data_dir_lock();
    fresh_data_dir("puzzles-drive");
    // Two player steps or more, and a legal move at the second that is not the solution.
    let p = all()
        .iter()
        .find(|p| {
            // Not a win: the game goes on after the line, and the computer must not play on.
            p.steps() >= 2 && !p.kind.is_win() && {
                let mut pos = p.position().unwrap();
                for m in &p.line[..2] {
                    pos = pos.try_play(&pos.parse_move(m).unwrap()).unwrap();
                }
                pos.legal_moves().iter().filter_map(|m| pos.move_to_string(m)).any(|m| !p.accepts(1, &m))
            }
        })
        .expect("a puzzle")
        .clone();
    let mut app = drive_app(&p);
    play(&mut app, &p.line[0]);
    let session = app.world().resource::<Session>();
    assert_eq!(session.game.move_strings(), p.line[..2], "{}: the reply is played", p.id);
    assert!(session.human_to_move());
    let pos = session.game.position();
    let wrong =
        pos.legal_moves().iter().filter_map(|m| pos.move_to_string(m)).find(|m| !p.accepts(1, m)).unwrap();
    play(&mut app, &wrong);
    let session = app.world().resource::<Session>();
    assert_eq!(session.game.move_strings(), p.line[..2], "{}: {wrong} is taken back", p.id);
    assert!(session.human_to_move());
    let profile = app.world().resource::<PuzzleProfile>();
    assert_eq!(profile.history.len(), 1);
    assert!(!profile.history[0].solved && profile.rating < PuzzleProfile::default().rating);
    for step in 1..p.steps() {
        play(&mut app, &p.line[2 * step]);
    }
    let session = app.world().resource::<Session>();
    assert_eq!(session.game.move_strings(), p.line, "{}", p.id);
    assert!(!session.human_to_move() && session.computer_to_move().is_none(), "the board is still");
    let run = app.world().resource::<puzzles::PuzzleRun>();
    assert!(run.trainer.solved);
    // The computer, seated for the opponent, never plays a move of its own.
    for _ in 0..20 {
        std::thread::sleep(std::time::Duration::from_millis(10));
        app.update();
    }
    assert_eq!(app.world().resource::<Session>().game.move_strings(), p.line, "{}", p.id);
    assert_eq!(app.world().resource::<PuzzleProfile>().history.len(), 1, "one try counts once");

    // Solved cleanly: the rating goes up.
    let mut app = drive_app(&p);
    for step in 0..p.steps() {
        play(&mut app, &p.line[2 * step]);
    }
    let profile = app.world().resource::<PuzzleProfile>();
    assert_eq!(profile.history.len(), 2);
    assert!(profile.history[1].solved && profile.history[1].rating > profile.history[0].rating);
}

/// Every lesson but the first of each game (how the pieces move) leads to puzzles that practise
/// it, and each of those filters finds puzzles enough.
#[test]
fn each_lesson_leads_to_puzzles_that_practise_it() {
    let courses = ludus::game::lessons::courses().expect("the lessons load");
    let mut linked = 0;
    for course in courses {
        for (i, lesson) in course.lessons.iter().enumerate() {
            let Some((game, theme)) = puzzles::practice(&lesson.id) else {
                assert_eq!(i, 0, "{} leads to no puzzles", lesson.id);
                continue;
            };
            linked += 1;
            let found = all().iter().filter(|p| matches(p, game, theme)).count();
            assert!(found >= 10, "{}: {found} puzzles for {game:?} {theme:?}", lesson.id);
        }
    }
    assert!(linked >= 12, "{linked} lessons lead to puzzles");
    // And back: a puzzle of a theme a lesson teaches leads to that lesson, in its own game.
    let mut back = 0;
    for p in all() {
        if let Some((course, index)) = puzzles::lesson_for(p) {
            back += 1;
            let lesson = &courses[course].lessons[index];
            let (game, theme) = puzzles::practice(&lesson.id).expect("the lesson practises something");
            assert!(theme.is_some() && matches(p, game, theme), "{} -> {}", p.id, lesson.id);
            assert_eq!(
                lesson.id.starts_with("alquerque"),
                p.game == Variant::Alquerque,
                "{} -> {}",
                p.id,
                lesson.id
            );
        }
    }
    assert!(back > 300, "{back} puzzles lead to a lesson");
}

/// A new player's first misses cost what a puzzle player expects: at most
/// `puzzles::MAX_CHANGE` for any puzzle, far less for one near their rating, and the deviation
/// stays within its bounds however many tries.
#[test]
fn a_new_players_first_misses_cost_a_bounded_amount() {
    let (least, most) = puzzles::DEVIATION_BOUNDS;
    for p in all() {
        let mut profile = PuzzleProfile::default();
        let cost = profile.miss_cost(p);
        assert!(cost <= 0 && (cost as f64) >= -puzzles::MAX_CHANGE, "{}: {cost}", p.id);
        let before = profile.rating;
        profile.record(p, false);
        assert!(before - profile.rating <= puzzles::MAX_CHANGE + 1e-9, "{}", p.id);
        assert_eq!(
            profile.shown_rating() - before.round() as i64,
            cost,
            "{}: the cost said is the cost",
            p.id
        );
    }
    let near = all().iter().min_by_key(|p| (i64::from(p.rating) - 1500).abs()).unwrap();
    let cost = PuzzleProfile::default().miss_cost(near);
    assert!(cost > -100, "a miss near the new player's rating costs {cost}");
    let mut profile = PuzzleProfile::default();
    for (i, p) in all().iter().enumerate().take(60) {
        profile.record(p, i % 3 == 0);
        assert!((least..=most).contains(&profile.deviation), "{}", profile.deviation);
    }
}

/// The hint says what it costs, and costs that: a miss, counted once; after a wrong move it is
/// free.
#[test]
fn the_hint_says_its_cost_and_costs_that() {
    use ludus::game::puzzles::PuzzleIntent;
    use ludus::screens::puzzles::hint_label;
    let _lock = data_dir_lock();
    fresh_data_dir("puzzles-hint");
    let p = all().iter().find(|p| p.steps() == 1).expect("a puzzle").clone();
    let mut app = drive_app(&p);
    let profile = app.world().resource::<PuzzleProfile>().clone();
    let cost = profile.miss_cost(&p);
    assert!(cost < 0, "{cost}");
    let label = hint_label(Lang::En, app.world().resource::<puzzles::PuzzleRun>(), &profile);
    assert!(label.contains(&cost.to_string()), "{label} says {cost}");
    assert!(
        hint_label(Lang::Vi, app.world().resource::<puzzles::PuzzleRun>(), &profile)
            .contains(&cost.to_string())
    );
    app.world_mut().write_message(PuzzleIntent::Hint);
    app.update();
    let after = app.world().resource::<PuzzleProfile>();
    assert_eq!(after.shown_rating() - profile.shown_rating(), cost, "the hint cost what it said");
    assert_eq!(after.history.len(), 1);
    let run = app.world().resource::<puzzles::PuzzleRun>();
    assert!(run.hint && run.counted);
    assert!(hint_label(Lang::En, run, after).contains("free"), "{}", hint_label(Lang::En, run, after));
    let expected = p.position().unwrap().parse_move(&p.line[0]).unwrap();
    let selected = app.world().resource::<ludus::game::selection::Selected>();
    assert_eq!(selected.0.as_ref().map(|s| s.from), Some(expected.from()), "the piece to move is picked");
}

/// "See the solution" plays the line from the puzzle's start, one move a frame once the board is
/// still, the board turned as for the player (the person's side stays the one at the bottom),
/// and lists its moves.
#[test]
fn the_solution_is_shown_from_the_players_side_step_by_step_with_its_moves() {
    use bevy_egui::egui;
    use ludus::game::puzzles::PuzzleIntent;
    use ludus::game::session::Session;
    use ludus::screens::puzzles::{PuzzleView, puzzle_panel_contents};
    let _lock = data_dir_lock();
    fresh_data_dir("puzzles-solution");
    // A puzzle for the second side, two player moves or more.
    let p = all()
        .iter()
        .find(|p| {
            p.steps() >= 2 && p.position().is_ok_and(|pos| pos.side_to_move() == ludus_rules::Side::Second)
        })
        .expect("a puzzle for Black")
        .clone();
    let person = ludus_rules::Side::Second;
    let mut app = drive_app(&p);
    play(&mut app, &p.line[0]);
    app.world_mut().write_message(PuzzleIntent::ShowSolution);
    app.update();
    let mut seen = vec![app.world().resource::<Session>().game.ply()];
    for _ in 0..p.line.len() + 2 {
        app.update();
        seen.push(app.world().resource::<Session>().game.ply());
    }
    let session = app.world().resource::<Session>().clone();
    assert_eq!(session.game.move_strings(), p.line, "{}: the whole line is played", p.id);
    assert!(seen.windows(2).all(|w| w[1] <= w[0] + 1), "one move at a time: {seen:?}");
    assert!(seen.contains(&1), "step by step: {seen:?}");
    assert_eq!(session.seats.human_side(), Some(person), "the board stays turned for the player");
    assert!(!session.human_to_move() && session.computer_to_move().is_none(), "nobody plays on");
    let run = app.world().resource::<puzzles::PuzzleRun>().clone();
    assert!(run.showing);
    let profile = app.world().resource::<PuzzleProfile>().clone();
    // The panel lists the solution's moves.
    let ctx = egui::Context::default();
    ctx.run_ui(egui::RawInput::default(), |ui| ludus::ui::style_context(ui.ctx()))
        .drop_without_applying_deltas();
    let mut texts = Vec::new();
    for _ in 0..2 {
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            let view = PuzzleView { lang: Lang::En, run: &run, session: &session, profile: &profile };
            puzzle_panel_contents(ui, &view);
        });
        out.textures_delta.clear();
        texts = out
            .shapes
            .iter()
            .filter_map(|c| match &c.shape {
                egui::Shape::Text(t) => Some(t.galley.text().to_string()),
                _ => None,
            })
            .collect::<Vec<_>>();
    }
    for (i, mv) in p.line.iter().enumerate() {
        let want = format!("{}. {mv}", i + 1);
        assert!(texts.contains(&want), "{want} listed in {texts:?}");
    }
}
