//! Malformed positions, moves and game records: every one is an error that says what is wrong,
//! never a panic.

mod common;

use ludus_rules::{
    AnyGame, AnyMove, AnyPosition, GamePosition, GameRecord, ParseError, Problem, RecordError, Variant,
    alquerque, latrunculi,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::panic::{AssertUnwindSafe, catch_unwind};

const STANDARD: &str = "bbbbbbbbbbbb/5B6/12/12/12/12/6R5/rrrrrrrrrrrr r";
const ALQ_START: &str = "BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w";

/// Parses without panicking; returns the result.
fn parse(variant: Variant, s: &str) -> Result<AnyPosition, ParseError> {
    catch_unwind(|| AnyPosition::parse(variant, s))
        .unwrap_or_else(|_| panic!("parsing {s:?} as {variant} panicked"))
}

/// Checks that `s` is rejected and that the message has every one of `words`.
fn rejected(variant: Variant, s: &str, words: &[&str]) -> ParseError {
    let e = parse(variant, s).expect_err(&format!("{s:?} was accepted as {variant}"));
    let msg = e.to_string().to_lowercase();
    for w in words {
        assert!(msg.contains(&w.to_lowercase()), "{s:?}: the message '{e}' does not mention '{w}'");
    }
    // The English message is the typed problem's own text: an interface can word the same.
    assert_eq!(e.message, e.problem.to_string(), "{s:?}");
    e
}

#[test]
fn latrunculi_positions() {
    let v = Variant::Latrunculi;
    rejected(v, "", &["empty"]);
    rejected(v, "   ", &["empty"]);
    // Bad letters, and where they are.
    let s = "bbbbbbbbbbbb/5B6/12/12/12/12/6R5/rrrrrrrrrrrx r";
    let e = rejected(v, s, &["'x'"]);
    assert_eq!(e.column, Some(s.find('x').unwrap() + 1), "column of the bad letter");
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/12/12/6K5/rrrrrrrrrrrr r", &["'K'"]);
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/12/12/6W5/rrrrrrrrrrrr r", &["'W'"]);
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/12/12/6R5/rrrrrrrrrrr- r", &["'-'"]);
    // Ragged ranks.
    let e = rejected(v, "bbbbbbbbbbbb/5B6/11/12/12/12/6R5/rrrrrrrrrrrr r", &["rank 3", "11", "12"]);
    assert_eq!(e.column, Some(18), "column of the short rank");
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/12/12/6R5/rrrrrrrrrrrrr r", &["13", "wide"]);
    rejected(v, "bbbbbbbbbbbb/5B7/12/12/12/12/6R5/rrrrrrrrrrrr r", &["wide"]);
    // Empty ranks, zero-length and absurd runs.
    rejected(v, "bbbbbbbbbbbb//12/12/12/12/6R5/rrrrrrrrrrrr r", &["empty"]);
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/12/12/6R5/rrrrrrrrrrrr/ r", &["empty"]);
    rejected(v, "/bbbbbbbbbbbb/5B6/12/12/12/12/6R5/rrrrrrrrrrrr r", &["empty"]);
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/0/12/6R5/rrrrrrrrrrrr r", &["at least 1"]);
    rejected(v, "bbbbbbbbbbbb/5B06/12/12/12/12/6R5/rrrrrrrrrrrr r", &["start with 0"]);
    rejected(v, "bbbbbbbbbbbb/5B6/012/12/12/12/6R5/rrrrrrrrrrrr r", &["start with 0"]);
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/00/12/6R5/rrrrrrrrrrrr r", &["at least 1"]);
    rejected(v, "bbb/1B99999999999999999999/3/1R1 r", &["too long"]);
    rejected(v, "B2/129/r1R r", &["too long"]);
    // Kings.
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/12/12/12/rrrrrrrrrrrr r", &["red", "no king"]);
    rejected(v, "bbbbbbbbbbbb/12/12/12/12/12/6R5/rrrrrrrrrrrr r", &["black", "no king"]);
    rejected(v, "bbbbbbbbbbbb/12/12/12/12/12/12/rrrrrrrrrrrr r", &["no king"]);
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/12/12/6RR4/rrrrrrrrrrrr r", &["red", "two kings"]);
    rejected(v, "bbbbbbbbbbbb/5BB5/12/12/12/12/6R5/rrrrrrrrrrrr r", &["black", "two kings"]);
    rejected(v, "B2B/4/4/R3 r", &["two kings", "d4"]);
    // Sizes.
    rejected(v, "RB/2 r", &["2x2", "not supported"]);
    rejected(v, "R1B r", &["3x1", "not supported"]);
    rejected(v, "R/B/1 r", &["1x3", "not supported"]);
    rejected(v, "bbbbbbbbbbbbbbbbb/5B11/17/17/17/17/6R10/rrrrrrrrrrrrrrrrr r", &["17x8", "not supported"]);
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/12/12/12/12/12/6R5/rrrrrrrrrrrr r", &["12x11", "132 squares"]);
    rejected(v, &format!("{}/R2/3/3/B2 r", ["3"; 13].join("/")), &["3x17"]);
    rejected(v, &format!("R{}/B128 r", "1".repeat(127)), &["too long"]);
    // Side to move and the other fields.
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/12/12/6R5/rrrrrrrrrrrr", &["missing side"]);
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/12/12/6R5/rrrrrrrrrrrr w", &["side to move", "'w'"]);
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/12/12/6R5/rrrrrrrrrrrr R", &["side to move"]);
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/12/12/6R5/rrrrrrrrrrrr rb", &["side to move"]);
    rejected(v, &format!("{STANDARD} x"), &["third field", "'x'"]);
    rejected(v, &format!("{STANDARD} -1"), &["third field"]);
    rejected(v, &format!("{STANDARD} 1.5"), &["third field"]);
    rejected(v, &format!("{STANDARD} 99999999999999999999"), &["too large"]);
    rejected(v, &format!("{STANDARD} 10001"), &["too large"]);
    let e = rejected(v, &format!("{STANDARD} 0 extra"), &["unexpected 'extra'"]);
    assert_eq!(e.column, Some(STANDARD.len() + 4));
    rejected(v, &format!("{STANDARD} 5 5"), &["unexpected '5'"]);
    // Unicode.
    rejected(v, "bbbbbbbbbbbb/5B6/12/12/12/12/6R5/rrrrrrrrrrré r", &["'é'"]);
    rejected(v, "bbbbbbbbbbbb/5B6/１２/12/12/12/6R5/rrrrrrrrrrrr r", &["unexpected"]);
    rejected(v, "🦀🦀🦀/3/3 r", &["'🦀'"]);
    rejected(v, "日本語 r", &["unexpected"]);
    rejected(v, &format!("{STANDARD} ř"), &["third field"]);
    rejected(v, "\u{0}\u{7f}", &["unexpected"]);
    // An Alquerque position is no Latrunculi position.
    rejected(v, ALQ_START, &["unexpected 'W'"]);
    // The extremes that are fine.
    assert!(parse(v, &format!("{STANDARD} 10000")).is_ok());
    assert!(parse(v, &format!("  {STANDARD}  ")).is_ok());
    assert!(parse(v, "R2/3/2B r").is_ok());
    assert!(parse(v, "R15/16/16/16/16/16/16/15B b").is_ok());
    assert!(parse(v, "R7/8/8/8/8/8/8/8/8/8/8/8/8/8/8/7B b").is_ok());
}

#[test]
fn alquerque_positions() {
    let v = Variant::Alquerque;
    rejected(v, "", &["empty"]);
    rejected(v, "\t\n", &["empty"]);
    rejected(v, "BBBBB/BBBBB/BB1WW/WWWWW/WWWWR w", &["'R'"]);
    rejected(v, "BBBBB/BBBBB/BB1ww/WWWWW/WWWWW w", &["'w'"]);
    rejected(v, "BBBBB/BBBBB/BB1WW/WWWWW/WWWWW r", &["side to move", "'r'"]);
    rejected(v, "BBBBB/BBBBB/BB1WW/WWWWW/WWWWW", &["missing side"]);
    rejected(v, "BBBBB/BBBBB/BB1W/WWWWW/WWWWW w", &["wide"]);
    rejected(v, "BBBBBB/BBBBB/BB1WW/WWWWW/WWWWW w", &["wide"]);
    rejected(v, "BBBBBB/BBBBBB/BB2WW/WWWWWW/WWWWWW w", &["5x5", "6x5"]);
    rejected(v, "BBBB/BBBB/4/WWWW w", &["5x5", "4x4"]);
    rejected(v, "BBBBB/BBBBB/BB1WW/WWWWW/WWWWW/5 w", &["5x5", "5x6"]);
    rejected(v, "5 w", &["5x5", "5x1"]);
    rejected(v, "WWWWW/WWWWW/WWW2/5/5 w", &["white", "13 pieces", "12"]);
    rejected(v, "BBBBB/BBBBB/BBBBB/5/5 b", &["black", "15 pieces"]);
    rejected(v, "BBBBB/BBBBB/BB1WW/WWWWW/WWWW0 w", &["at least 1"]);
    rejected(v, "BBBBB/BBBBB/BB01WW/WWWWW/WWWWW w", &["start with 0"]);
    rejected(v, "BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w 1 2", &["unexpected '2'"]);
    rejected(v, "BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w x", &["third field"]);
    rejected(v, "BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w 65536", &["too large"]);
    rejected(v, "BBBBB/BBBBB/BB·WW/WWWWW/WWWWW w", &["'·'"]);
    rejected(v, "ⒷⒷⒷⒷⒷ/5/5/5/5 w", &["unexpected"]);
    rejected(v, STANDARD, &["unexpected 'b'"]);
    assert!(parse(v, "5/5/5/5/5 w").is_ok(), "an empty board is a position");
    assert!(parse(v, "BBBBB/BBBBB/BB1WW/WWWWW/WWWWW b 49").is_ok());
}

/// Random damage to good positions: anything may come back, but never a panic, and an error
/// always has a message.
#[test]
fn mutated_positions_never_panic() {
    let mut rng = StdRng::seed_from_u64(0xBAD_0001);
    let alphabet: Vec<char> = "rRbBwW0123456789/ -x\u{e9}\u{1F980}\t1212".chars().collect();
    let seeds = [
        (Variant::Latrunculi, STANDARD),
        (Variant::LatrunculiQuick, "bbbbbbbb/3B4/8/8/8/8/4R3/rrrrrrrr r 12"),
        (Variant::Latrunculi, "4B/5/1b1b1/5/R1r2 r"),
        (Variant::Alquerque, ALQ_START),
        (Variant::Alquerque, "4B/5/5/BBB2/WB3 w 3"),
    ];
    let mut accepted = 0;
    for _ in 0..4000 {
        let (v, seed) = seeds[rng.random_range(0..seeds.len())];
        let mut chars: Vec<char> = seed.chars().collect();
        for _ in 0..rng.random_range(1..4) {
            let i = rng.random_range(0..=chars.len());
            match rng.random_range(0..3) {
                0 if i < chars.len() => {
                    chars.remove(i);
                }
                1 if i < chars.len() => chars[i] = alphabet[rng.random_range(0..alphabet.len())],
                _ => chars.insert(i, alphabet[rng.random_range(0..alphabet.len())]),
            }
        }
        let s: String = chars.into_iter().collect();
        match parse(v, &s) {
            Ok(p) => {
                accepted += 1;
                // Whatever is accepted writes back to something that reads back the same.
                let again = parse(v, &p.to_string()).expect("a written position reads back");
                assert_eq!(again, p, "{s:?}");
                let _ = catch_unwind(AssertUnwindSafe(|| p.legal_moves()))
                    .unwrap_or_else(|_| panic!("legal_moves panicked on {s:?}"));
            }
            Err(e) => assert!(!e.message.is_empty(), "{s:?}: an empty message"),
        }
    }
    assert!(accepted > 0);
}

/// Checks that the move `s` is rejected in `pos` with a message that has every one of `words`.
fn bad_move(pos: &AnyPosition, s: &str, words: &[&str]) {
    let r =
        catch_unwind(|| pos.parse_move(s)).unwrap_or_else(|_| panic!("parse_move({s:?}) panicked in {pos}"));
    let e = r.expect_err(&format!("{s:?} was accepted in {pos}"));
    let msg = e.to_string().to_lowercase();
    for w in words {
        assert!(msg.contains(&w.to_lowercase()), "{s:?} in {pos}: the message '{e}' does not mention '{w}'");
    }
}

#[test]
fn latrunculi_moves() {
    let pos = Variant::Latrunculi.start();
    bad_move(&pos, "", &["not a latrunculi move"]);
    bad_move(&pos, "garbage", &["not a latrunculi move"]);
    bad_move(&pos, "g2g5", &["not a latrunculi move", "g2-g5"]);
    bad_move(&pos, "g2-", &["not a square"]);
    bad_move(&pos, "-g5", &["not a square"]);
    bad_move(&pos, "-", &["not a square"]);
    bad_move(&pos, "m1-m2", &["'m1'", "not a square", "12x8"]);
    bad_move(&pos, "g2-m2", &["'m2'", "not a square"]);
    bad_move(&pos, "a0-a1", &["not a square"]);
    bad_move(&pos, "a1-a9", &["'a9'", "not a square"]);
    bad_move(&pos, "a1-a02", &["not a square"]);
    bad_move(&pos, "a1-a123", &["not a square"]);
    bad_move(&pos, "G2-G5", &["not a square"]);
    bad_move(&pos, " g2-g5", &["not a square"]);
    bad_move(&pos, "g2-g5 ", &["not a square"]);
    bad_move(&pos, "g２-g5", &["not a square"]);
    bad_move(&pos, "ǵ2-g5", &["not a square"]);
    bad_move(&pos, "g2-g5-g6", &["not a square"]);
    bad_move(&pos, "g2xg5", &["not a latrunculi move"]);
    // No piece there, or not the mover's.
    bad_move(&pos, "c4-c5", &["no piece", "c4"]);
    bad_move(&pos, "a8-a7", &["side to move"]);
    bad_move(&pos, "f7-f6", &["side to move"]);
    // Illegal slides.
    bad_move(&pos, "g1-g3", &["not legal", "rook"]); // through the king
    bad_move(&pos, "g2-g8", &["not legal"]); // onto a piece
    bad_move(&pos, "a1-a8", &["not legal"]);
    bad_move(&pos, "f1-f7", &["not legal"]); // onto the black king
    bad_move(&pos, "g2-h3", &["not legal"]); // diagonal
    bad_move(&pos, "a1-b2", &["not legal"]);
    bad_move(&pos, "g2-i3", &["not legal"]);
    bad_move(&pos, "g2-g2", &["not legal"]);
    bad_move(&pos, "a1-b1", &["not legal"]); // onto an own piece
    // After a move, the other side moves.
    let next = pos.try_play(&pos.parse_move("g2-g5").unwrap()).unwrap();
    bad_move(&next, "a1-a2", &["side to move"]);
    assert!(next.parse_move("a8-a7").is_ok());
    // A game refuses a malformed move and changes nothing.
    let mut g = AnyGame::new(Variant::LatrunculiQuick);
    assert!(g.play_str("e2-e8").is_err());
    assert!(g.play_str("d7-d6").is_err());
    assert_eq!(g.ply(), 0);
}

#[test]
fn alquerque_moves() {
    let start = Variant::Alquerque.start();
    bad_move(&start, "", &["not an alquerque move"]);
    bad_move(&start, "hello", &["not an alquerque move"]);
    bad_move(&start, "c2", &["not an alquerque move"]);
    bad_move(&start, "c2-c3-c4", &["not an alquerque move"]);
    bad_move(&start, "x", &["not a point"]);
    bad_move(&start, "c2x", &["not a point"]);
    bad_move(&start, "f1-f2", &["'f1'", "not a point"]);
    bad_move(&start, "e1-e6", &["'e6'", "not a point"]);
    bad_move(&start, "a1xc3-e5", &["not a point"]);
    bad_move(&start, "c3-c4", &["no piece", "c3"]);
    bad_move(&start, "b3-c3", &["side to move"]);
    bad_move(&start, "c2-c4", &["not legal"]);
    bad_move(&start, "c2xc4", &["not legal"]); // over an empty point
    bad_move(&start, "c1xc3", &["not legal"]); // over an own piece
    bad_move(&start, "d3-c3 ", &["not a point"]);
    bad_move(&start, "ⓓ3-c3", &["not a point"]);
    let long = vec!["a1"; 14].join("x");
    bad_move(&start, &long, &["more jumps"]);

    let pos = |s: &str| AnyPosition::parse(Variant::Alquerque, s).unwrap();
    // Backward and along a line that is not drawn.
    let p = pos("5/5/2W2/5/1W2B w");
    bad_move(&p, "c3-c2", &["not legal", "forward or sideways"]);
    bad_move(&p, "c3-b2", &["not legal"]);
    bad_move(&p, "b1-c2", &["not legal"]); // b1 has no diagonal
    bad_move(&p, "b1-a2", &["not legal"]);
    bad_move(&p, "c3-c5", &["not legal"]);
    assert!(p.parse_move("c3-d4").is_ok()); // c3 has diagonals
    assert!(p.parse_move("b1-a1").is_ok()); // sideways
    // Black moves down the board.
    let p = pos("5/2B2/5/5/W4 b");
    bad_move(&p, "c4-c5", &["not legal"]);
    bad_move(&p, "c4-b5", &["not legal"]);
    assert!(p.parse_move("c4-c3").is_ok());
    // A piece on its far rank moves only sideways.
    let p = pos("2W2/5/5/5/B4 w");
    bad_move(&p, "c5-c4", &["not legal"]);
    bad_move(&p, "c5-d4", &["not legal"]);
    assert!(p.parse_move("c5-d5").is_ok());
    // A step when a capture is compulsory.
    let p = pos("4B/5/2B2/2W2/W4 w");
    bad_move(&p, "a1-a2", &["compulsory"]);
    bad_move(&p, "c2-d2", &["compulsory"]);
    assert!(p.parse_move("c2xc4").is_ok());
    // A partial capture chain, and a chain that goes on past its end.
    let p = pos("4B/5/3B1/1B3/W4 w");
    bad_move(&p, "a1xc3", &["keep jumping"]);
    bad_move(&p, "a1xc3xe3xe5", &["not legal"]);
    bad_move(&p, "a1-c3", &["not legal"]);
    assert!(p.parse_move("a1xc3xe3").is_ok());
    let p = pos("4B/5/5/BBB2/WB3 w");
    bad_move(&p, "a1xc3xc1xa1", &["keep jumping"]); // it must go on to a3
    assert!(p.parse_move("a1xc3xc1xa1xa3").is_ok());
    // The opponent's piece.
    bad_move(&p, "e5-e4", &["side to move"]);
}

#[test]
fn moves_of_the_wrong_game_and_forged_moves() {
    let lat = Variant::Latrunculi.start();
    let alq = Variant::Alquerque.start();
    let lat_move = lat.legal_moves()[0];
    let alq_move = alq.legal_moves()[0];
    assert!(lat.try_play(&alq_move).is_err());
    assert!(alq.try_play(&lat_move).is_err());
    assert_eq!(lat.move_to_string(&alq_move), None);
    let mut g = AnyGame::new(Variant::Latrunculi);
    assert!(g.play(&alq_move).is_err());
    assert_eq!(g.ply(), 0);

    // Forged moves, as they might come from the network: legal-looking JSON with a wrong
    // capture list, an impossible square, or no path at all.
    let p: latrunculi::Position = "2r1b/2b2/r2br/5/R3B r".parse().unwrap();
    let capture = p.parse_move("a3-c3").unwrap();
    let mut json: serde_json::Value = serde_json::to_value(capture).unwrap();
    json["captured"] = serde_json::json!([255, 255, 255]);
    let forged: latrunculi::Move = serde_json::from_value(json.clone()).unwrap();
    assert!(p.try_play(&forged).is_err(), "a capture without its captures");
    json["captured"] = serde_json::json!([13, 255, 255]);
    let forged: latrunculi::Move = serde_json::from_value(json.clone()).unwrap();
    assert!(p.try_play(&forged).is_err(), "a capture with half its captures");
    json["from"] = serde_json::json!(250);
    let forged: latrunculi::Move = serde_json::from_value(json.clone()).unwrap();
    assert!(p.try_play(&forged).is_err(), "a move from off the board");
    let quiet = p.parse_move("a1-b1").unwrap();
    let mut json = serde_json::to_value(quiet).unwrap();
    json["captured"] = serde_json::json!([12, 255, 255]);
    let forged: latrunculi::Move = serde_json::from_value(json).unwrap();
    assert!(p.try_play(&forged).is_err(), "a quiet move that claims a capture");

    let q: alquerque::Position = "4B/5/3B1/1B3/W4 w".parse().unwrap();
    let chain = q.parse_move("a1xc3xe3").unwrap();
    let json = serde_json::to_value(chain).unwrap();
    for (field, value) in
        [("len", 0), ("len", 1), ("len", 200), ("from", 255), ("from", 24), ("captured", 0), ("path", 0)]
    {
        let mut j = json.clone();
        j[field] = serde_json::json!(value);
        let forged: alquerque::Move = serde_json::from_value(j).unwrap();
        let r = catch_unwind(|| q.try_play(&forged))
            .unwrap_or_else(|_| panic!("try_play panicked on a forged move ({field} = {value})"));
        assert!(r.is_err(), "forged move accepted ({field} = {value})");
        let mut g = AnyGame::from_position(AnyPosition::Alquerque(q));
        assert!(g.play(&AnyMove::Alquerque(forged)).is_err());
    }
}

#[test]
fn corrupted_game_records() {
    // A good record, for reference.
    let good =
        r#"{"variant":"Alquerque","start":"BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w","moves":["d2-c3","b4xd2"]}"#;
    let g: AnyGame = serde_json::from_str(good).unwrap();
    assert_eq!(g.ply(), 2);

    let record = |json: &str| -> GameRecord { serde_json::from_str(json).unwrap() };
    // An illegal move in the list: a step when a capture is compulsory.
    let bad =
        r#"{"variant":"Alquerque","start":"BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w","moves":["d2-c3","b3-b2"]}"#;
    match AnyGame::from_record(&record(bad)) {
        Err(RecordError::Move { ply: 2, error }) => {
            assert!(error.message.contains("compulsory"), "{error}")
        }
        other => panic!("expected a bad move at ply 2, got {other:?}"),
    }
    let e = serde_json::from_str::<AnyGame>(bad).unwrap_err();
    assert!(e.to_string().contains("ply 2"), "{e}");
    // Garbage as a move.
    let bad = r#"{"variant":"Latrunculi","start":"4B/5/1b1b1/5/R1r2 r","moves":["a1-a2","zz"]}"#;
    assert!(matches!(AnyGame::from_record(&record(bad)), Err(RecordError::Move { ply: 2, .. })));
    // A move by the wrong side.
    let bad = r#"{"variant":"Latrunculi","start":"4B/5/1b1b1/5/R1r2 r","moves":["e5-e4"]}"#;
    assert!(matches!(AnyGame::from_record(&record(bad)), Err(RecordError::Move { ply: 1, .. })));
    // A move after the end of the game.
    let bad = r#"{"variant":"Alquerque","start":"5/5/2B2/2W2/W4 w","moves":["c2xc4","c4-c5"]}"#;
    assert_eq!(AnyGame::from_record(&record(bad)).unwrap_err(), RecordError::MoveAfterEnd { ply: 2 });
    // A bad start position.
    let bad = r#"{"variant":"Alquerque","start":"BBBBB/BBBBB/BB1WW/WWWWW w","moves":[]}"#;
    assert!(matches!(AnyGame::from_record(&record(bad)), Err(RecordError::Position(_))));
    let bad = r#"{"variant":"Latrunculi","start":"BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w","moves":[]}"#;
    assert!(matches!(AnyGame::from_record(&record(bad)), Err(RecordError::Position(_))));
    // An ending on a game the rules had already ended.
    let bad = r#"{"variant":"Alquerque","start":"5/5/2B2/2W2/W4 w","moves":["c2xc4"],
                  "ending":{"winner":"Second","reason":"Resignation"}}"#;
    assert!(matches!(AnyGame::from_record(&record(bad)), Err(RecordError::Ending(_))));
    // Not a record at all.
    for bad in [
        "",
        "{}",
        "[]",
        r#"{"variant":"Chess","start":"8/8 w","moves":[]}"#,
        r#"{"variant":"Alquerque","start":5,"moves":[]}"#,
        r#"{"variant":"Alquerque","start":"BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w","moves":"d2-c3"}"#,
        r#"{"variant":"Alquerque","start":"BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w","moves":[1]}"#,
    ] {
        assert!(serde_json::from_str::<AnyGame>(bad).is_err(), "{bad}");
    }
    // Positions in JSON are checked as they are read.
    assert!(serde_json::from_str::<latrunculi::Position>("\"RB/2 r\"").is_err());
    assert!(serde_json::from_str::<alquerque::Position>("\"WWWWW/WWWWW/WWW2/5/5 w\"").is_err());
    // Every error can be shown.
    for e in [
        RecordError::MoveAfterEnd { ply: 3 },
        RecordError::Ending("x".into()),
        RecordError::Position(ParseError { problem: Problem::GameOver, message: "m".into(), column: None }),
    ] {
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn variant_names() {
    for v in Variant::ALL {
        assert_eq!(Variant::parse(v.name()).unwrap(), v);
        assert_eq!(v.to_string(), v.name());
    }
    for bad in ["", "chess", "Latrunculi", "alquerque ", "latrunculi-slow"] {
        let e = Variant::parse(bad).unwrap_err();
        assert!(e.message.contains("unknown game"), "{e}");
    }
}

#[test]
fn position_trait_parse_agrees() {
    // The trait's parse, FromStr and AnyPosition::parse are one reader.
    let s = "4B/5/1b1b1/5/R1r2 r 7";
    let a = <latrunculi::Position as GamePosition>::parse(s).unwrap();
    let b: latrunculi::Position = s.parse().unwrap();
    assert_eq!(a, b);
    assert_eq!(AnyPosition::parse(Variant::Latrunculi, s).unwrap(), AnyPosition::Latrunculi(a));
    assert!(<alquerque::Position as GamePosition>::parse(s).is_err());
}
