use ludus::game::session::{Level, Seats, Session};
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
