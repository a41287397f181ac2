//! Properties checked over random playouts and over every position of the data files:
//! notation round trips, the incremental hash, undo, what a move changes on the board, and the
//! JSON form of games and positions.

mod common;

use common::naive::Kind;
use common::{lib_position, read_perft, variant_of};
use ludus_rules::{
    AnyGame, AnyMove, AnyPosition, GamePosition, GameRecord, Piece, Square, Variant, alquerque, latrunculi,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn variant(pos: &AnyPosition) -> Variant {
    match pos {
        AnyPosition::Latrunculi(_) => Variant::Latrunculi,
        AnyPosition::Alquerque(_) => Variant::Alquerque,
    }
}

fn fresh_hash(pos: &AnyPosition) -> u64 {
    match pos {
        AnyPosition::Latrunculi(p) => p.compute_hash(),
        AnyPosition::Alquerque(p) => p.compute_hash(),
    }
}

/// The trait's shortcuts agree with move generation.
fn check_counts<P: GamePosition>(p: &P, ctx: &str) {
    let moves = p.legal_moves();
    assert_eq!(p.count_moves(), moves.len() as u64, "{ctx}: count_moves");
    assert_eq!(p.has_legal_move(), !moves.is_empty(), "{ctx}: has_legal_move");
    // Stale content that generate_moves must clear first.
    let mut buf: Vec<P::Move> = moves.iter().chain(moves.iter().take(2)).copied().collect();
    p.generate_moves(&mut buf);
    assert_eq!(buf, moves, "{ctx}: generate_moves");
}

fn squares(pos: &AnyPosition) -> impl Iterator<Item = Square> {
    (0..pos.width() * pos.height()).map(Square)
}

/// Exactly the captured squares lose their piece, the mover goes from `from` to `to`, the
/// side to move flips, the counter restarts on a capture, and nothing else changes.
fn check_move_effect(before: &AnyPosition, mv: &AnyMove, after: &AnyPosition, ctx: &str) {
    let mover = before.side_to_move();
    let moved = before.piece_at(mv.from()).unwrap_or_else(|| panic!("{ctx}: no piece on the move's start"));
    assert_eq!(moved.side, mover, "{ctx}: the mover's piece");
    let captured = mv.captured();
    assert_eq!(mv.is_capture(), !captured.is_empty(), "{ctx}");
    for &c in &captured {
        let victim = before.piece_at(c).unwrap_or_else(|| panic!("{ctx}: captured square {c:?} was empty"));
        assert_eq!(victim.side, !mover, "{ctx}: captured an own piece");
        assert!(!victim.king, "{ctx}: a king was captured");
    }
    for sq in squares(before) {
        let expected = if sq == mv.to() {
            Some(moved)
        } else if sq == mv.from() || captured.contains(&sq) {
            None
        } else {
            before.piece_at(sq)
        };
        assert_eq!(
            after.piece_at(sq),
            expected,
            "{ctx}: square {sq:?} after {} in {before}",
            before.move_to_string(mv).unwrap()
        );
    }
    assert_eq!(after.side_to_move(), !mover, "{ctx}: side to move");
    let clock = if mv.is_capture() { 0 } else { before.clock() + 1 };
    assert_eq!(after.clock(), clock, "{ctx}: counter");
}

/// Every property of one position and of each of its legal moves.
fn check_position(pos: &AnyPosition, ctx: &str) {
    let s = pos.to_string();
    let back =
        AnyPosition::parse(variant(pos), &s).unwrap_or_else(|e| panic!("{ctx}: {s} does not read back: {e}"));
    assert_eq!(back, *pos, "{ctx}: notation round trip");
    assert_eq!(back.hash(), pos.hash(), "{ctx}: hash after round trip");
    assert_eq!(back.to_string(), s, "{ctx}");
    assert_eq!(pos.hash(), fresh_hash(pos), "{ctx}: incremental hash");
    match pos {
        AnyPosition::Latrunculi(p) => check_counts(p, ctx),
        AnyPosition::Alquerque(p) => check_counts(p, ctx),
    }
    // Pieces the board shows are the pieces `pieces()` lists.
    let listed = pos.pieces();
    assert_eq!(listed.len(), squares(pos).filter(|&s| pos.piece_at(s).is_some()).count(), "{ctx}");
    for m in pos.legal_moves() {
        let ms = pos.move_to_string(&m).unwrap();
        let parsed = pos.parse_move(&ms).unwrap_or_else(|e| panic!("{ctx}: {ms} does not read back: {e}"));
        assert_eq!(parsed, m, "{ctx}: move round trip of {ms}");
        let child = pos.try_play(&m).unwrap_or_else(|e| panic!("{ctx}: legal move {ms} refused: {e}"));
        assert_eq!(child.hash(), fresh_hash(&child), "{ctx}: hash after {ms}");
        check_move_effect(pos, &m, &child, &format!("{ctx}, {ms}"));
        // A move serialises and reads back.
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(serde_json::from_str::<AnyMove>(&json).unwrap(), m, "{ctx}");
    }
}

/// A random playout: every position is checked; along the way moves are taken back and
/// replayed; at the end the game goes through JSON and back.
fn playout(rng: &mut StdRng, start: AnyPosition, max_plies: usize, ctx: &str) -> usize {
    let mut game = AnyGame::from_position(start);
    let mut plies = 0;
    while !game.is_over() && plies < max_plies {
        let pos = game.position();
        let here = format!("{ctx} ply {plies}");
        check_position(&pos, &here);
        let moves = game.legal_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        let reps = game.repetitions();
        game.play(&mv).unwrap();
        if rng.random_bool(0.25) {
            let outcome = game.outcome();
            assert_eq!(game.undo(), Some(mv), "{here}: undo");
            assert_eq!(game.position(), pos, "{here}: undo restores the position");
            assert_eq!(game.position().hash(), pos.hash(), "{here}: undo restores the hash");
            assert_eq!(game.outcome(), None, "{here}: undo takes back the ending");
            assert_eq!(game.repetitions(), reps, "{here}: repetitions after undo");
            assert_eq!(game.play(&mv).unwrap(), outcome, "{here}: replay");
        }
        plies += 1;
    }
    check_position(&game.position(), &format!("{ctx} end"));
    check_json(&game, ctx);
    plies
}

fn check_json(game: &AnyGame, ctx: &str) {
    let json = serde_json::to_string(game).unwrap();
    let back: AnyGame = serde_json::from_str(&json)
        .unwrap_or_else(|e| panic!("{ctx}: the game does not read back: {e}\n{json}"));
    assert_eq!(back.ply(), game.ply(), "{ctx}");
    assert_eq!(back.moves(), game.moves(), "{ctx}");
    assert_eq!(back.outcome(), game.outcome(), "{ctx}");
    assert_eq!(back.variant(), game.variant(), "{ctx}");
    for ply in 0..=game.ply() {
        assert_eq!(back.position_at(ply), game.position_at(ply), "{ctx} ply {ply}");
    }
    let record: GameRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(record, game.record(), "{ctx}");
    let again: GameRecord = serde_json::from_str(&serde_json::to_string(&record).unwrap()).unwrap();
    assert_eq!(again, record, "{ctx}");
    // Positions serialise as their notation.
    let pos = game.position();
    match pos {
        AnyPosition::Latrunculi(p) => {
            let j = serde_json::to_string(&p).unwrap();
            assert_eq!(j, format!("\"{p}\""));
            assert_eq!(serde_json::from_str::<latrunculi::Position>(&j).unwrap(), p);
        }
        AnyPosition::Alquerque(p) => {
            let j = serde_json::to_string(&p).unwrap();
            assert_eq!(j, format!("\"{p}\""));
            assert_eq!(serde_json::from_str::<alquerque::Position>(&j).unwrap(), p);
        }
    }
}

#[test]
fn random_playouts_from_the_starts() {
    let mut rng = StdRng::seed_from_u64(0x5EED_0001);
    let mut plies = 0;
    for v in Variant::ALL {
        for i in 0..6 {
            plies += playout(&mut rng, v.start(), 250, &format!("{v} game {i}"));
        }
    }
    assert!(plies > 500, "the playouts were too short to mean much: {plies}");
}

#[test]
fn random_playouts_from_random_positions() {
    let mut rng = StdRng::seed_from_u64(0x5EED_0002);
    for (w, h) in [(12, 8), (8, 8), (5, 7), (16, 8), (3, 3), (8, 16), (11, 11)] {
        for i in 0..8 {
            let b = common::random_latrunculi(&mut rng, w, h);
            playout(&mut rng, lib_position(&b), 150, &format!("{w}x{h} game {i}"));
        }
    }
    for i in 0..80 {
        let b = common::random_alquerque(&mut rng);
        playout(&mut rng, lib_position(&b), 150, &format!("alquerque game {i}"));
    }
}

/// The positions of the perft tables exercise the rare moves (triple captures, chains back to
/// their start); each is checked with every move, two plies deep.
#[test]
fn table_positions() {
    for (file, kind) in [("latrunculi.perft", Kind::Latrunculi), ("alquerque.perft", Kind::Alquerque)] {
        for e in read_perft(file) {
            let pos = AnyPosition::parse(variant_of(kind), &e.position).unwrap();
            let ctx = format!("{file}:{} {}", e.line, e.name);
            check_position(&pos, &ctx);
            for m in pos.legal_moves() {
                check_position(&pos.try_play(&m).unwrap(), &ctx);
            }
        }
    }
}

#[test]
fn hash_depends_on_every_piece_and_the_side() {
    let a = AnyPosition::parse(Variant::Latrunculi, "4B/5/1b1b1/5/R1r2 r").unwrap();
    let b = AnyPosition::parse(Variant::Latrunculi, "4B/5/1b1b1/5/R1r2 b").unwrap();
    let c = AnyPosition::parse(Variant::Latrunculi, "4B/5/1b1b1/5/r1R2 r").unwrap();
    let d = AnyPosition::parse(Variant::Latrunculi, "4B/5/1b1b1/5/R1r2 r 7").unwrap();
    assert_ne!(a.hash(), b.hash(), "side to move");
    assert_ne!(a.hash(), c.hash(), "king and soldier swapped");
    assert_eq!(a.hash(), d.hash(), "the counter is not hashed");
    assert_ne!(a, d, "but positions with different counters differ");
    let e = AnyPosition::parse(Variant::Alquerque, "2W2/5/5/5/B4 w").unwrap();
    let f = AnyPosition::parse(Variant::Alquerque, "2B2/5/5/5/W4 w").unwrap();
    assert_ne!(e.hash(), f.hash());
}

#[test]
fn pieces_listing() {
    let pos = AnyPosition::parse(Variant::Latrunculi, "4B/5/1b1b1/5/R1r2 r").unwrap();
    let mut names: Vec<String> =
        pos.pieces().into_iter().map(|(s, p)| format!("{}{:?}{}", s.name(5), p.side, p.king)).collect();
    names.sort();
    assert_eq!(names, ["a1Firsttrue", "b3Secondfalse", "c1Firstfalse", "d3Secondfalse", "e5Secondtrue"]);
    assert_eq!(
        pos.piece_at(Square::new(0, 0, 5)),
        Some(Piece { side: ludus_rules::Side::First, king: true })
    );
}
