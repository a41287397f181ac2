//! Draw offers on one device: two players offer and answer on the same screen (only once both
//! sides have moved, one offer per side and move, lapsing when the offerer moves, an agreed draw
//! ending the game), and an online game's offers are the server's to decide. The computer's answer is tested with the computer
//! player (`src/players/computer.rs`), the server's rules in `crates/server`.

use ludus::game::session::{GameCommand, Seats, ServerUpdate, Session};
use ludus_rules::{Outcome, Reason, Side, Variant};

/// A game between two players on one device, in its own data directory (the app saves the
/// game and keeps it when it ends): the app and the directory's lock.
fn two_players(name: &str) -> (crate::DataDirGuard, bevy::prelude::App) {
    let (guard, mut app) = fresh_two_players(name);
    // A draw is offered only once both sides have moved.
    play_first_legal(&mut app);
    play_first_legal(&mut app);
    (guard, app)
}

/// A new game between two players, no move played yet.
fn fresh_two_players(name: &str) -> (crate::DataDirGuard, bevy::prelude::App) {
    let guard = crate::data_dir_lock();
    crate::fresh_data_dir(name);
    let mut app = crate::headless();
    app.insert_resource(Session::new(Variant::Alquerque, Seats::two_players()));
    app.update();
    (guard, app)
}

fn send(app: &mut bevy::prelude::App, command: GameCommand) -> Session {
    app.world_mut().write_message(command);
    app.update();
    app.world().resource::<Session>().clone()
}

fn play_first_legal(app: &mut bevy::prelude::App) -> Session {
    let mv = app.world().resource::<Session>().game.legal_moves()[0];
    send(app, GameCommand::Play(mv))
}

#[test]
fn two_players_agree_a_draw_on_the_same_screen() {
    let (_guard, mut app) = two_players("draw-agreed");
    let s = send(&mut app, GameCommand::OfferDraw);
    assert_eq!(s.draw.open, Some(Side::First), "the side to move offers");
    assert!(!s.may_offer_draw(Side::Second), "one offer at a time");
    let s = send(&mut app, GameCommand::AnswerDraw(true));
    assert_eq!(s.game.outcome(), Some(Outcome::draw(Reason::Agreement)));
    assert!(s.game.is_over());
    // Undo takes the agreement back, as any other ending.
    let s = send(&mut app, GameCommand::Undo);
    assert!(!s.game.is_over());
    assert_eq!(s.draw.open, None);
}

#[test]
fn a_declined_offer_waits_for_the_next_move_and_an_offer_lapses_when_its_side_moves() {
    let (_guard, mut app) = two_players("draw-declined");
    send(&mut app, GameCommand::OfferDraw);
    let s = send(&mut app, GameCommand::AnswerDraw(false));
    assert!(!s.game.is_over());
    assert_eq!((s.draw.open, s.draw.declined_by), (None, Some(Side::Second)));
    let s = send(&mut app, GameCommand::OfferDraw);
    assert_eq!(s.draw.open, None, "no second offer by the same side at the same move");
    assert!(!s.may_offer_draw(Side::First));
    // White moves: the refusal is old news; Black, now to move, offers and then moves instead
    // of waiting: the offer lapses.
    let s = play_first_legal(&mut app);
    assert_eq!(s.draw.declined_by, None);
    assert!(s.may_offer_draw(Side::Second));
    let s = send(&mut app, GameCommand::OfferDraw);
    assert_eq!(s.draw.open, Some(Side::Second));
    let s = play_first_legal(&mut app);
    assert_eq!(s.draw.open, None, "the offer lapsed with its side's move");
    let s = send(&mut app, GameCommand::AnswerDraw(true));
    assert!(!s.game.is_over(), "a lapsed offer cannot be accepted");
    // White may offer again at its new move.
    assert!(s.may_offer_draw(Side::First));
}

#[test]
fn online_the_server_decides_and_its_news_reach_the_session() {
    let mut s = Session::new(Variant::Alquerque, Seats::online(Some(Side::First)));
    assert!(!s.offer_draw(Side::First), "online an offer goes to the server");
    assert_eq!(s.draw.open, None);
    s.follow_server(&ServerUpdate::DrawOffered(Side::Second));
    assert_eq!(s.draw.open, Some(Side::Second));
    assert!(!s.answer_draw(true), "online the answer goes to the server");
    assert!(!s.game.is_over());
    s.follow_server(&ServerUpdate::DrawDeclined(Side::First));
    assert_eq!((s.draw.open, s.draw.declined_by), (None, Some(Side::First)));
    s.follow_server(&ServerUpdate::DrawOffered(Side::First));
    s.follow_server(&ServerUpdate::DrawLapsed);
    assert_eq!(s.draw.open, None);
}

/// The computer answers an offer by its evaluation: in a level game still full of play (both
/// sides have moved, nothing decided) it plays on; five soldiers down it takes the draw.
#[test]
fn the_computer_declines_a_draw_its_evaluation_does_not_want() {
    use ludus::game::session::Level;
    let offer = |game: ludus_rules::AnyGame, name: &str| {
        let _guard = crate::data_dir_lock();
        crate::fresh_data_dir(name);
        let mut app = crate::headless();
        crate::puzzles::with_driver(&mut app, ludus::app::Screen::Playing);
        app.insert_resource(Session::from_game(game, Seats::versus_computer(Side::First, Level::Easy)));
        app.update();
        send(&mut app, GameCommand::OfferDraw);
        app.update();
        app.world().resource::<Session>().clone()
    };
    let mut opening = ludus_rules::AnyGame::new(Variant::LatrunculiQuick);
    for _ in 0..2 {
        let mv = opening.legal_moves()[0];
        opening.play(&mv).unwrap();
    }
    let s = offer(opening, "draw-opening");
    assert!(!s.game.is_over(), "a level opening is played on");
    assert_eq!(s.draw.declined_by, Some(Side::Second));
    let pos =
        ludus_rules::AnyPosition::parse(Variant::LatrunculiQuick, "B1bbb3/8/8/8/8/8/4R3/rrrrrrrr r").unwrap();
    let s = offer(ludus_rules::AnyGame::from_position(pos), "draw-behind");
    assert_eq!(
        s.game.outcome(),
        Some(Outcome::draw(Reason::Agreement)),
        "five soldiers down, it takes the draw"
    );
}

#[test]
fn no_draw_is_offered_before_both_sides_have_moved() {
    let (_guard, mut app) = fresh_two_players("draw-too-early");
    let s = send(&mut app, GameCommand::OfferDraw);
    assert_eq!(s.draw.open, None, "an offer at move 0 is refused");
    assert!(!s.game.is_over(), "the game goes on");
    assert!(!s.may_offer_draw(Side::First));
    let s = play_first_legal(&mut app);
    assert!(!s.may_offer_draw(Side::Second), "one side has moved, not both");
    let s = send(&mut app, GameCommand::OfferDraw);
    assert_eq!(s.draw.open, None);
    let s = play_first_legal(&mut app);
    assert!(s.may_offer_draw(Side::First), "both sides have moved");
    // Against the computer, the offer the computer would answer at once is refused as well.
    let mut computer =
        Session::new(Variant::Alquerque, Seats::versus_computer(Side::First, ludus_ai::Level::Easy));
    assert!(!computer.offer_draw(Side::First));
    assert_eq!(computer.draw.open, None);
}
