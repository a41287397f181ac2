//! The screens as views: no screen speaks the server's language, and what the player asks goes
//! through intents that the game acts on. Nothing is lost by one tap: the game left is kept and
//! resumed from the title, resigning and a new game ask for a second tap, and the move field and
//! the move list give no free hint and hide no capture.

use crate::{data_dir_lock, fresh_data_dir};
use bevy::prelude::*;
use ludus::app::Screen;
use ludus::game::intent::{Confirm, Confirming, GameIntent};
use ludus::game::save::Resumable;
use ludus::game::session::{GameCommand, Seats, Session};
use ludus::i18n::Lang;
use ludus_rules::{AnyGame, AnyPosition, Reason, Side, Variant};

/// Every screen's source, by file name.
fn screens_sources() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/screens");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("src/screens") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("a screen's file");
            out.push((path.file_name().expect("a name").to_string_lossy().into_owned(), text));
        }
    }
    assert!(out.len() >= 10, "only {} screens read", out.len());
    out
}

#[test]
fn no_screen_names_a_message_of_the_protocol() {
    for (name, text) in screens_sources() {
        assert!(!text.contains("ClientMessage"), "{name} names ClientMessage");
    }
}

/// A screen asks (intents) and the wing that owns the concern moves between screens; the
/// screens' plugin (`mod.rs`) alone wires states.
#[test]
fn no_screen_moves_to_another_screen_itself() {
    for (name, text) in screens_sources().into_iter().filter(|(n, _)| n != "mod.rs") {
        for what in ["NextState", "analysis::open("] {
            assert!(!text.contains(what), "{name} writes {what}: it should send an intent");
        }
    }
}

/// Every colour a screen paints comes from the interface's look (`ui::theme`: the palette of
/// the theme, the marks that mean the same in all), none is written in a screen.
#[test]
fn no_screen_writes_a_colour_of_its_own() {
    let named = ["Color32::from_", "Color32::WHITE", "Color32::BLACK", "Color32::RED", "Color32::GREEN"];
    for (name, text) in screens_sources() {
        for what in named {
            assert!(!text.contains(what), "{name} writes a colour ({what}): name it in ui::theme");
        }
    }
}

/// The game's core on a headless app with the screens' states, showing a game between two
/// players with `plies` moves played.
fn playing(name: &str, plies: usize) -> (crate::DataDirGuard, App) {
    let guard = data_dir_lock();
    fresh_data_dir(name);
    let mut app = crate::headless();
    app.add_plugins(bevy::state::app::StatesPlugin).init_state::<Screen>();
    app.insert_resource(Session::new(Variant::Alquerque, Seats::two_players()));
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    app.update();
    for _ in 0..plies {
        let mv = app.world().resource::<Session>().game.legal_moves()[0];
        app.world_mut().write_message(GameCommand::Play(mv));
        app.update();
    }
    assert_eq!(app.world().resource::<Session>().game.ply(), plies);
    (guard, app)
}

fn ask(app: &mut App, intent: GameIntent) {
    app.world_mut().write_message(intent);
    // Acted on in this frame; a screen asked for shows from the next one.
    app.update();
    app.update();
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

#[test]
fn a_game_left_is_kept_and_the_title_offers_to_continue_it() {
    let (_guard, mut app) = playing("leave-resume", 3);
    let moves = app.world().resource::<Session>().game.move_strings();
    ask(&mut app, GameIntent::Leave);
    assert_eq!(screen(&app), Screen::Title);
    let Resumable::Game(kept) = app.world().resource::<Resumable>() else { panic!("the game is kept") };
    assert_eq!(kept.game.move_strings(), moves);
    // "Continue" names the game and its move as the move list numbers it (three plies: move 2).
    let label = ludus::screens::title::resume_label(Lang::En, kept);
    assert!(label.contains("Alquerque 5x5") && label.contains("move 2"), "{label}");
    let label = ludus::screens::title::resume_label(Lang::Vi, kept);
    assert!(label.contains("nước 2"), "{label}");

    // "Play" over it asks first: the first tap starts nothing.
    let seats = Seats::two_players();
    ask(&mut app, GameIntent::Start { variant: Variant::Latrunculi, seats });
    assert_eq!(screen(&app), Screen::Title);
    assert!(matches!(*app.world().resource::<Resumable>(), Resumable::Game(_)), "still kept");
    let now = app.world().resource::<Time<Real>>().elapsed_secs_f64();
    assert!(app.world().resource::<Confirming>().armed(Confirm::Replace, now));

    // "Continue" brings the same game back on the board.
    ask(&mut app, GameIntent::Resume);
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(app.world().resource::<Session>().game.move_strings(), moves);
    assert!(matches!(*app.world().resource::<Resumable>(), Resumable::None));
}

#[test]
fn a_finished_or_untouched_game_is_not_offered_again() {
    let (_guard, mut app) = playing("leave-untouched", 0);
    ask(&mut app, GameIntent::Leave);
    assert_eq!(screen(&app), Screen::Title);
    assert!(matches!(*app.world().resource::<Resumable>(), Resumable::None), "nothing to continue");
    // Without a game kept, "Play" starts at once.
    ask(&mut app, GameIntent::Start { variant: Variant::Latrunculi, seats: Seats::two_players() });
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(app.world().resource::<Session>().game.variant(), Variant::Latrunculi);
}

#[test]
fn resigning_asks_for_a_second_tap() {
    let (_guard, mut app) = playing("resign-confirm", 2);
    ask(&mut app, GameIntent::Resign);
    assert!(!app.world().resource::<Session>().game.is_over(), "one tap resigns nothing");
    let now = app.world().resource::<Time<Real>>().elapsed_secs_f64();
    assert!(app.world().resource::<Confirming>().armed(Confirm::Resign, now), "the button says so");
    ask(&mut app, GameIntent::Resign);
    let outcome = app.world().resource::<Session>().game.outcome();
    assert_eq!(outcome.map(|o| o.reason), Some(Reason::Resignation));
}

#[test]
fn a_new_game_over_one_going_on_asks_for_a_second_tap() {
    let (_guard, mut app) = playing("new-game-confirm", 2);
    ask(&mut app, GameIntent::NewGame);
    assert_eq!(app.world().resource::<Session>().game.ply(), 2, "one tap discards nothing");
    let now = app.world().resource::<Time<Real>>().elapsed_secs_f64();
    assert!(app.world().resource::<Confirming>().armed(Confirm::NewGame, now));
    // Another act in between does not confirm it.
    assert!(!app.world().resource::<Confirming>().armed(Confirm::Resign, now));
    ask(&mut app, GameIntent::NewGame);
    assert_eq!(app.world().resource::<Session>().game.ply(), 0, "the second tap starts anew");
    // Once the game is over, one tap is enough.
    ask(&mut app, GameIntent::Undo);
    for _ in 0..2 {
        let mv = app.world().resource::<Session>().game.legal_moves()[0];
        ask(&mut app, GameIntent::Play(mv));
    }
    ask(&mut app, GameIntent::Resign);
    ask(&mut app, GameIntent::Resign);
    assert!(app.world().resource::<Session>().game.is_over());
    ask(&mut app, GameIntent::NewGame);
    assert_eq!(app.world().resource::<Session>().game.ply(), 0);
}

/// Games of both kinds played a while with the first legal move (captures first).
fn games() -> Vec<AnyGame> {
    let mut out = Vec::new();
    for variant in Variant::ALL {
        let mut game = AnyGame::new(variant);
        for _ in 0..60 {
            if game.is_over() {
                break;
            }
            let moves = game.legal_moves();
            // A capture whenever there is one, so that the list has some.
            let pos = game.position();
            let taken = |m: &ludus_rules::AnyMove| {
                let next = pos.try_play(m).expect("legal");
                pos.pieces().len() - next.pieces().len()
            };
            let mv = moves.iter().copied().max_by_key(|m| taken(m)).expect("a move");
            game.play(&mv).expect("legal");
            out.push(game.clone());
        }
    }
    out
}

#[test]
fn the_move_field_example_is_never_a_legal_move() {
    for game in games() {
        let example = ludus::screens::play::example_move(&game);
        assert!(!example.is_empty(), "an example for {:?}", game.position());
        assert!(
            game.position().parse_move(&example).is_err(),
            "{example} is legal in {:?}: a free hint",
            game.position()
        );
    }
}

#[test]
fn the_move_list_marks_every_capture_and_nothing_else() {
    let mut seen = [0usize; 2];
    for variant in Variant::ALL {
        let game =
            games().into_iter().filter(|g| g.variant() == variant).max_by_key(|g| g.ply()).expect("a game");
        let lines = ludus::screens::play::move_list_lines(&game);
        let moves: Vec<String> = lines
            .iter()
            .flat_map(|l| l.split_whitespace().skip(1).map(str::to_string).collect::<Vec<_>>())
            .collect();
        assert_eq!(moves.len(), game.ply(), "{lines:?}");
        for (ply, text) in moves.iter().enumerate() {
            let count = |p: &AnyPosition| p.pieces().len();
            let took = count(&game.position_at(ply)) - count(&game.position_at(ply + 1));
            assert_eq!(text.contains('×'), took > 0, "ply {ply}: {text} took {took}");
            seen[usize::from(variant.is_latrunculi())] += usize::from(took > 0);
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "captures in both games: {seen:?}");
}

#[test]
fn the_status_still_says_your_move_when_a_capture_is_forced() {
    use ludus::game::selection::Selected;
    // Alquerque after a move that leaves the person a forced capture.
    let mut session =
        Session::new(Variant::Alquerque, Seats::versus_computer(Side::Second, ludus_ai::Level::Easy));
    let forced = loop {
        let game = &session.game;
        if game.side_to_move() == Side::Second && game.legal_moves().first().is_some_and(|m| m.is_capture()) {
            break true;
        }
        if game.is_over() || game.ply() > 40 {
            break false;
        }
        let mv = game.legal_moves()[0];
        session.play(&mv).expect("legal");
    };
    assert!(forced, "a forced capture came");
    for lang in [Lang::En, Lang::Vi] {
        let lines = ludus::ui::widgets::status_text(lang, &session, false, &Selected::default());
        let yours = lang.fmt(
            "status-your-move",
            [("side", ludus::ui::widgets::side_name(lang, Variant::Alquerque, Side::Second).into())],
        );
        assert_eq!(lines[0], yours, "{lines:?}");
        assert_eq!(lines[1], lang.t("status-capture-compulsory"), "{lines:?}");
    }
}
