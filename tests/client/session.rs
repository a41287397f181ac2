use ludus::game::session::{Level, Mode, Seats, Session};
use ludus_rules::{AnyGame, AnyPosition, Reason, Side, Variant};

fn play(session: &mut Session, notation: &str) {
    let mv = session.game.position().parse_move(notation).unwrap_or_else(|e| panic!("{notation}: {e}"));
    session.play(&mv).unwrap();
}

#[test]
fn undo_against_the_computer_goes_back_to_the_players_turn_and_redo_returns() {
    let mut s = Session::new(Variant::Latrunculi, Seats::versus_computer(Side::First, Level::Easy));
    play(&mut s, "g2-g5");
    play(&mut s, "f7-f4");
    play(&mut s, "a1-a3");
    play(&mut s, "a8-a6");
    assert_eq!(s.game.ply(), 4);
    assert!(s.undo());
    assert_eq!(s.game.ply(), 2, "the computer's reply and the player's move are both taken back");
    assert_eq!(s.game.side_to_move(), Side::First);
    assert_eq!(s.redo.len(), 2);
    assert!(s.redo());
    assert_eq!(s.game.ply(), 4);
    assert_eq!(s.game.move_strings()[3], "a8-a6");
    assert!(!s.redo());
}

#[test]
fn undo_with_two_players_takes_back_one_move_and_a_new_move_clears_redo() {
    let mut s = Session::new(Variant::Alquerque, Seats::two_players());
    let before = s.game.position();
    let mv = s.game.legal_moves()[0];
    s.play(&mv).unwrap();
    assert!(s.undo());
    assert_eq!(s.game.position(), before);
    assert_eq!(s.redo, vec![mv]);
    let other = s.game.legal_moves()[1];
    s.play(&other).unwrap();
    assert!(s.redo.is_empty());
    assert!(s.undo());
    assert_eq!(s.game.ply(), 0);
    assert!(!s.undo(), "nothing left to take back");
}

#[test]
fn game_over_has_winner_and_reason() {
    // Red closes the last free side of the black king in the corner.
    let pos = AnyPosition::parse(Variant::LatrunculiQuick, "B6b/r7/8/8/8/8/4R3/1r6 r").unwrap();
    let mut s = Session::from_game(AnyGame::from_position(pos), Seats::two_players());
    play(&mut s, "b1-b8");
    let outcome = s.game.outcome().expect("the game is over");
    assert_eq!(outcome.winner, Some(Side::First));
    assert_eq!(outcome.reason, Reason::KingImmobilised);
    assert!(s.game.legal_moves().is_empty());
    let lang = ludus::i18n::Lang::En;
    let text = ludus::ui::widgets::reason_text(lang, s.game.variant(), &outcome, Some(Side::First));
    assert!(text.contains("immobilised"), "{text}");
    assert_eq!(ludus::ui::widgets::result_text(lang, s.game.variant(), &outcome), "Red wins");
    // Undo takes the end back.
    assert!(s.undo());
    assert!(!s.game.is_over());
}

#[test]
fn resigning_against_the_computer_loses_for_the_player() {
    let mut s = Session::new(Variant::Alquerque, Seats::versus_computer(Side::Second, Level::Hard));
    assert!(s.resign());
    let outcome = s.game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Side::First));
    assert_eq!(outcome.reason, Reason::Resignation);
    assert!(!s.resign(), "a finished game cannot be resigned again");
    assert!(s.undo(), "undo withdraws the resignation");
    assert!(!s.game.is_over());
}

#[test]
fn the_mode_says_who_may_touch_the_board_and_what_a_new_game_is() {
    let latrunculi = Variant::Latrunculi.start();
    // A game played here: the person moves on their turn, may offer a draw, and a new game
    // starts from the beginning.
    let mut play_here = Session::new(Variant::Latrunculi, Seats::versus_computer(Side::First, Level::Easy));
    assert_eq!(play_here.mode, Mode::Play);
    assert!(play_here.human_to_move() && play_here.can_touch());
    assert_eq!(play_here.offering_side(), Some(Side::First));
    assert!(!play_here.may_offer_draw(Side::First), "no draw before both sides have moved");
    play(&mut play_here, "g2-g5");
    assert_eq!(play_here.computer_to_move(), Some(Level::Easy));

    // Watching online: no seat here, yet the board takes proposals; no draw to offer.
    let mut watch = Session::new(Variant::Latrunculi, Seats::online(None));
    watch.mode = Mode::Watch;
    assert!(watch.is_watching() && !watch.human_to_move() && watch.can_touch());
    assert_eq!(watch.offering_side(), None);

    // A lesson of one move: the person plays once, then the board waits; a new game goes back
    // to the lesson's position. Against the computer, it is played on.
    let mut lesson = Session::lesson(latrunculi);
    assert_eq!(lesson.mode, Mode::Lesson);
    assert!(lesson.is_lesson() && lesson.is_one_move_lesson() && lesson.can_touch());
    assert_eq!(lesson.offering_side(), None);
    assert!(!lesson.may_offer_draw(Side::First));
    play(&mut lesson, "g2-g5");
    assert!(!lesson.human_to_move() && !lesson.can_touch(), "one move, then the board waits");
    lesson.restart();
    assert!(lesson.is_lesson() && lesson.game.ply() == 0 && lesson.game.start() == latrunculi);
    let mut against = Session::lesson_against(latrunculi, Level::Easy);
    assert!(against.is_lesson() && !against.is_one_move_lesson());
    play(&mut against, "g2-g5");
    assert_eq!(against.computer_to_move(), Some(Level::Easy), "played on against the computer");

    // A position under review: nobody plays, commands change nothing.
    let mut review = Session::review(AnyGame::from_position(latrunculi), Seats::two_players());
    assert!(review.is_review() && !review.can_touch() && review.computer_to_move().is_none());
    assert_eq!(review.offering_side(), None);
    assert!(!review.may_offer_draw(Side::First));
    review.review_position(AnyGame::new(Variant::Alquerque));
    assert!(review.is_review(), "another position under review stays under review");

    // The modes are told apart: each is only itself.
    for s in [&play_here, &watch, &lesson, &review] {
        let flags = [s.mode == Mode::Play, s.is_watching(), s.is_lesson(), s.is_review()];
        assert_eq!(flags.iter().filter(|f| **f).count(), 1, "{:?}", s.mode);
    }
}
