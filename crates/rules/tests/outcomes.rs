//! The games of `tests/data/games.txt`, played with the library's `AnyGame` and with the naive
//! reference, and the finer points of `Game`: repetition counts, undo after the end, external
//! endings.

mod common;

use common::naive::{Board, RefGame};
use common::{kind_of, read_games};
use ludus_rules::{
    AnyGame, AnyPosition, Game, GamePosition, GameRecord, Outcome, Reason, Side, Variant, alquerque,
    latrunculi,
};

#[test]
fn games_table() {
    let games = read_games("games.txt");
    assert!(games.len() >= 30, "the table has too few games");
    for g in &games {
        let ctx = format!("games.txt:{} '{}'", g.line, g.name);
        let start =
            AnyPosition::parse(g.variant, &g.start).unwrap_or_else(|e| panic!("{ctx}: bad start: {e}"));
        let mut game = AnyGame::from_position(start);
        let mut reference = RefGame::new(Board::parse(kind_of(g.variant), &g.start));
        assert_eq!(game.outcome(), None, "{ctx}: the start is already over");
        assert_eq!(reference.outcome, None, "{ctx}: reference: the start is over");
        for (i, m) in g.moves.iter().enumerate() {
            let last = i + 1 == g.moves.len();
            let result = game.play_str(m).unwrap_or_else(|e| panic!("{ctx}: move {m} refused: {e}"));
            assert_eq!(result, game.outcome(), "{ctx}: play_str's result");
            let ref_move = reference
                .current()
                .moves()
                .into_iter()
                .find(|rm| reference.current().move_notation(rm) == *m)
                .unwrap_or_else(|| panic!("{ctx}: reference has no move {m}"));
            reference.play(&ref_move);
            if !last {
                assert_eq!(game.outcome(), None, "{ctx}: the game ended at {m}");
                assert_eq!(reference.outcome, None, "{ctx}: reference ended at {m}");
            }
        }
        let shown = game.outcome().map(|o| o.to_string());
        assert_eq!(shown, g.outcome, "{ctx}: library outcome");
        assert_eq!(reference.outcome.map(|o| o.to_string()), g.outcome, "{ctx}: reference outcome");
        if let Some(after) = &g.after {
            assert_eq!(game.position().to_string(), *after, "{ctx}: library position");
            assert_eq!(reference.current().notation(), *after, "{ctx}: reference");
        }
        if game.is_over() {
            assert!(game.legal_moves().is_empty(), "{ctx}: moves after the end");
            let any = game.position().legal_moves();
            if let Some(m) = any.first() {
                assert!(game.play(m).is_err(), "{ctx}: a move was accepted after the end");
            }
            assert!(game.play_str("a1-a2").is_err());
        }
    }
}

fn lat(s: &str) -> latrunculi::Position {
    s.parse().unwrap()
}

fn alq(s: &str) -> alquerque::Position {
    s.parse().unwrap()
}

#[test]
fn repetition_count_and_undo() {
    let mut g = Game::new(lat("4B/5/1b1b1/5/R1r2 r"));
    assert_eq!(g.repetitions(), 1);
    let cycle = ["a1-a2", "e5-e4", "a2-a1", "e4-e5"];
    for m in cycle {
        g.play_str(m).unwrap();
    }
    assert_eq!(g.repetitions(), 2);
    for m in cycle {
        g.play_str(m).unwrap();
    }
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome(), Some(Outcome::win(Side::First, Reason::Repetition)));
    // Undo takes back the losing move and its ending.
    assert!(g.undo().is_some());
    assert_eq!(g.outcome(), None);
    // The position after 7 plies (Black to move) also stood after ply 3.
    assert_eq!(g.repetitions(), 2);
    assert_eq!(g.moves().len(), 7);
    // Another move instead: the game goes on.
    g.play_str("e4-d4").unwrap();
    assert_eq!(g.outcome(), None);
    // Undo to the very start.
    while g.undo().is_some() {}
    assert_eq!(g.moves().len(), 0);
    assert_eq!(*g.position(), lat("4B/5/1b1b1/5/R1r2 r"));
    assert_eq!(g.undo(), None);
}

#[test]
fn a_capture_breaks_the_repetition_window() {
    // The same board can never come back after a capture (a piece is gone), and the counter
    // restarts: a cycle after a capture counts from the capture.
    let mut g = Game::new(lat("2r1b/2b2/r2br/5/R3B r"));
    g.play_str("a3-c3").unwrap(); // captures c4 and d3
    assert_eq!(g.position().clock(), 0);
    for m in ["e1-d1", "a1-a2", "d1-e1", "a2-a1", "e1-d1", "a1-a2", "d1-e1", "a2-a1"] {
        assert_eq!(g.outcome(), None, "before {m}");
        g.play_str(m).unwrap();
    }
    // The position after a3-c3 (Black to move) came back at plies 5 and 9: Red repeated it.
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome(), Some(Outcome::win(Side::Second, Reason::Repetition)));
}

#[test]
fn external_endings() {
    let mut g = AnyGame::new(Variant::Alquerque);
    g.play_str("d2-c3").unwrap();
    let resign = Outcome::win(Side::First, Reason::Resignation);
    g.end(resign).unwrap();
    assert!(g.is_over());
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.end(Outcome::draw(Reason::Abandoned)), Err(resign));
    let record = g.record();
    assert_eq!(record.ending, Some(resign));
    let back = AnyGame::from_record(&record).unwrap();
    assert_eq!(back.outcome(), Some(resign));
    assert!(g.withdraw_ending());
    assert!(!g.withdraw_ending());
    assert_eq!(g.outcome(), None);
    g.play_str("b4xd2").unwrap();

    // An ending by the rules is not external: withdrawing does nothing.
    let mut g = AnyGame::from_position(AnyPosition::parse(Variant::Alquerque, "5/5/2B2/2W2/W4 w").unwrap());
    g.play_str("c2xc4").unwrap();
    assert_eq!(g.outcome(), Some(Outcome::win(Side::First, Reason::NoPieces)));
    assert!(!g.withdraw_ending());
    assert!(g.end(Outcome::draw(Reason::Timeout)).is_err());
    assert_eq!(g.record().ending, None);
}

#[test]
fn an_agreed_draw_is_an_external_ending_that_survives_the_record() {
    let mut g = AnyGame::new(Variant::LatrunculiQuick);
    let mv = g.legal_moves()[0];
    g.play(&mv).unwrap();
    let agreed = Outcome::draw(Reason::Agreement);
    assert_eq!(agreed.to_string(), "1/2-1/2 Agreement");
    g.end(agreed).unwrap();
    assert!(g.is_over());
    assert!(g.legal_moves().is_empty());
    let record = g.record();
    assert_eq!(record.ending, Some(agreed));
    // Saved as JSON (the server's archive, the game's records) and read back.
    let json = serde_json::to_string(&record).unwrap();
    assert!(json.contains(r#""reason":"Agreement""#), "{json}");
    let back: GameRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(back, record);
    let game = AnyGame::from_record(&back).unwrap();
    assert_eq!(game.outcome(), Some(agreed));
    assert_eq!(game.move_strings(), g.move_strings());
    // A finished game cannot be agreed drawn afterwards.
    assert_eq!(g.end(Outcome::draw(Reason::Agreement)), Err(agreed));
}

#[test]
fn a_game_can_start_over() {
    // A start position that is already over gives a game that is over from the first moment.
    let g = Game::new(lat("Bb3/r4/5/5/4R r"));
    assert_eq!(g.outcome(), Some(Outcome::win(Side::First, Reason::KingImmobilised)));
    assert!(g.legal_moves().is_empty());
    let g = Game::new(alq("5/5/5/5/BWW2 b"));
    assert_eq!(g.outcome(), Some(Outcome::win(Side::First, Reason::NoLegalMove)));
    // At the limit already.
    let g = Game::new(alq("2W2/5/5/5/B4 w 50"));
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::NoCaptureLimit)));
    let g = Game::new(lat("4B/5/1b1b1/5/R1r2 r 100"));
    assert_eq!(g.outcome(), Some(Outcome::win(Side::Second, Reason::NoCaptureLimit)));
}

#[test]
fn outcome_display_and_names() {
    assert_eq!(Outcome::win(Side::First, Reason::KingImmobilised).to_string(), "1-0 KingImmobilised");
    assert_eq!(Outcome::win(Side::Second, Reason::OnlyKingLeft).to_string(), "0-1 OnlyKingLeft");
    assert_eq!(Outcome::draw(Reason::Repetition).to_string(), "1/2-1/2 Repetition");
    for r in [
        Reason::KingImmobilised,
        Reason::OnlyKingLeft,
        Reason::NoPieces,
        Reason::NoLegalMove,
        Reason::Repetition,
        Reason::NoCaptureLimit,
        Reason::Resignation,
        Reason::Timeout,
        Reason::Abandoned,
        Reason::Agreement,
    ] {
        assert_eq!(r.name(), format!("{r:?}"));
    }
}

#[test]
fn position_outcome_is_judged_for_the_last_mover() {
    // rule_outcome judges a position as if the side not to move had just moved into it.
    let p = lat("5/2r2/1rBr1/2b2/R4 b");
    assert_eq!(p.outcome(false), Some(Outcome::win(Side::First, Reason::KingImmobilised)));
    // Threefold only matters when the caller says so.
    let p = lat("4B/5/1b1b1/5/R1r2 r");
    assert_eq!(p.outcome(false), None);
    assert_eq!(p.outcome(true), Some(Outcome::win(Side::First, Reason::Repetition)));
    let p = alq("2W2/5/5/5/B4 w");
    assert_eq!(p.outcome(true), Some(Outcome::draw(Reason::Repetition)));
}
