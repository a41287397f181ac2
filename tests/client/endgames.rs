//! The endgame tables shipped in the web bundle (assets/tablebases) are exactly what the
//! generator builds, and the game's Medium and Hard levels play by them.

use ludus::game::session::Level;
use ludus::players::computer::MoveSearch;
use ludus_ai::tablebase::{Tablebase, Wdl};
use ludus_rules::{AnyGame, AnyPosition, Variant};
use std::sync::Arc;

#[test]
fn the_shipped_tables_are_the_generated_ones() {
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/tablebases");
    let out = std::env::temp_dir().join(format!("ludus-tb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    ludus_ai::tablebase::generate(4, Some(&out), |_| {}).expect("generation");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .expect("generated")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 6, "{names:?}");
    for name in &names {
        let fresh = std::fs::read(out.join(name)).expect("fresh table");
        let kept =
            std::fs::read(shipped.join(name)).unwrap_or_else(|e| panic!("assets/tablebases/{name}: {e}"));
        assert!(fresh == kept, "assets/tablebases/{name} differs from a fresh build: regenerate it");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The tables' verdict on `pos` (an Alquerque position they cover) and on the position after
/// the game's computer at `level` (seed 7) has moved, `None` when that move ended the game.
fn verdicts_around_the_computer_move(
    pos: &str,
    level: Level,
) -> (ludus_ai::tablebase::Probe, Option<ludus_ai::tablebase::Probe>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/tablebases");
    let tb = Arc::new(Tablebase::open(&dir).expect("shipped tables"));
    let pos = AnyPosition::parse(Variant::Alquerque, pos).expect("position");
    let AnyPosition::Alquerque(p) = &pos else { unreachable!() };
    let probe = tb.probe(p).expect("covered");
    let mut job = MoveSearch::new(&AnyGame::from_position(pos), level, 7, None, Some(tb.clone()), None);
    while !job.step(50_000) {}
    let mv = job.best_move().expect("a move");
    let AnyPosition::Alquerque(after) = pos.try_play(&mv).expect("legal") else { unreachable!() };
    (probe, tb.probe(&after))
}

#[test]
fn hard_wins_a_tablebase_endgame_by_the_shortest_way() {
    // Two white pieces against one: a win the tables know to the ply.
    let (probe, next) = verdicts_around_the_computer_move("5/5/2B2/1W3/W4 w", Level::Hard);
    assert_eq!(probe.wdl, Wdl::Win);
    // Either the game is over (a win in one) or the opponent is lost one ply sooner.
    match next {
        None => assert_eq!(probe.plies_to_end, 1),
        Some(next) => {
            assert_eq!(next.wdl, Wdl::Loss);
            assert_eq!(next.plies_to_end + 1, probe.plies_to_end);
        }
    }
}

#[test]
fn medium_keeps_a_win_the_tables_know() {
    // Three white pieces against one: a win in 21 plies, beyond Medium's own search (with this
    // seed and no tables it plays b3-c3, which only draws).
    let (probe, next) = verdicts_around_the_computer_move("W4/5/1W3/1W3/2B2 w", Level::Medium);
    assert_eq!((probe.wdl, probe.plies_to_end), (Wdl::Win, 21));
    let next = next.expect("the game goes on");
    assert_eq!((next.wdl, next.plies_to_end), (Wdl::Loss, 20));
}

#[test]
fn analysis_gives_the_tables_exact_verdict() {
    use ludus::ui::widgets::eval_text;
    use ludus_ai::review::{Analyser, Eval};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/tablebases");
    let tb = Arc::new(Tablebase::open(&dir).expect("shipped tables"));
    // Three white pieces against one black, White to move: covered by the four-piece tables.
    let pos = AnyPosition::parse(Variant::Alquerque, "3B1/5/5/1W1W1/W4 w").expect("position");
    let AnyPosition::Alquerque(p) = &pos else { unreachable!() };
    let probe = tb.probe(p).expect("covered");
    let mut analyser = Analyser::new(&AnyGame::from_position(pos)).with_tablebase(Some(tb.clone()));
    let (ply, first) = loop {
        if let Some(done) = analyser.step(10_000) {
            break done;
        }
    };
    assert_eq!(ply, 0);
    assert_eq!(first.depth, 0, "no search: the tables answered");
    let expected = match probe.winner(ludus_rules::Side::First) {
        Some(side) => Eval::Win { side, plies: u32::from(probe.plies_to_end) },
        None => Eval::Cp(0),
    };
    assert_eq!(first.eval, expected);
    assert!(first.best.is_some(), "the tables' best move");
    if let Eval::Win { .. } = expected {
        assert!(eval_text(ludus::i18n::Lang::En, Variant::Alquerque, first.eval).contains("wins in"));
    }
}

/// The shipped book of proven values loads, says what the solver proved of the start (a draw:
/// b2-c3 and c2-c3 keep it, d2-c3 loses), and the game's Hard plays only keeping moves there.
#[test]
fn the_shipped_book_knows_the_start_and_hard_keeps_it() {
    let endgames = ludus::players::endgames::Endgames::default();
    let book = endgames.book().expect("the shipped book loads");
    assert!(book.len() > 100, "{} positions", book.len());
    let start = ludus_rules::alquerque::Position::start();
    let (value, keep) = book.keeping_moves(&start).expect("the start is in the book");
    assert_eq!(value, ludus_ai::solve::Value::Draw);
    let names: Vec<String> =
        keep.iter().map(|m| ludus_rules::GamePosition::move_to_string(&start, m)).collect();
    assert!(names.contains(&"b2-c3".to_string()) && names.contains(&"c2-c3".to_string()), "{names:?}");
    assert!(!names.contains(&"d2-c3".to_string()), "{names:?}");
    let game = AnyGame::new(Variant::Alquerque);
    for seed in 0..2 {
        let mut job = MoveSearch::new(&game, Level::Hard, seed, None, None, Some(&book));
        while !job.step(1 << 16) {}
        let Some(ludus_rules::AnyMove::Alquerque(mv)) = job.best_move() else { panic!("a move") };
        assert!(keep.contains(&mv), "seed {seed}");
    }
}

#[test]
fn the_desktop_builds_missing_or_damaged_tables_and_keeps_the_sound_ones() {
    use ludus::players::endgames::load_or_build;
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/tablebases");
    let dir = std::env::temp_dir().join(format!("ludus-tb-desktop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // Nothing there: everything is built, and every table is loaded at once.
    let tb = load_or_build(&dir, 4).expect("built");
    assert_eq!(tb.max_pieces(), 4);
    let two_two = dir.join("alq-2v2.ltb");
    let good = std::fs::read(&two_two).expect("built");
    assert_eq!(good, std::fs::read(shipped.join("alq-2v2.ltb")).expect("shipped"));
    // A damaged table is built again; the others stay as they were.
    std::fs::write(&two_two, &good[..good.len() / 2]).expect("damage");
    let one_one = dir.join("alq-1v1.ltb");
    let before = std::fs::metadata(&one_one).and_then(|m| m.modified()).expect("time");
    let tb = load_or_build(&dir, 4).expect("rebuilt");
    assert_eq!(std::fs::read(&two_two).expect("rebuilt"), good);
    assert_eq!(std::fs::metadata(&one_one).and_then(|m| m.modified()).expect("time"), before);
    let pos = <ludus_rules::alquerque::Position as ludus_rules::GamePosition>::parse("5/1B1B1/5/1W1W1/5 w")
        .expect("position");
    assert!(tb.try_probe(&pos).expect("sound").is_some());
    let _ = std::fs::remove_dir_all(&dir);
}
