//! The search machine: slices, limits, determinism, repetition and the end of the game.

use ludus_ai::{AnySearch, Level, Limits, Params, Search, Status, best_move};
use ludus_rules::{AnyGame, GamePosition, Variant, alquerque, latrunculi};

fn sliced<P: ludus_ai::SearchGame>(
    root: P,
    history: &[P],
    limits: Limits,
    budget: u64,
) -> (Option<P::Move>, u64, u32) {
    let mut s = Search::new(root, history, limits, params(), 7);
    while s.step(budget) == Status::Running {}
    let info = s.info();
    (s.best_move(), info.nodes, info.depth)
}

fn params() -> Params {
    Params { tt_mb: 4, ..Params::default() }
}

fn middle_game_latrunculi() -> latrunculi::Position {
    let mut g = AnyGame::new(Variant::Latrunculi);
    for m in ["h1-h6", "e8-e3", "f1-f5", "d8-d2", "c1-c3", "i8-i2"] {
        g.play_str(m).unwrap();
    }
    match g.position() {
        ludus_rules::AnyPosition::Latrunculi(p) => p,
        _ => unreachable!(),
    }
}

#[test]
fn sliced_search_equals_one_shot() {
    let lat = middle_game_latrunculi();
    let alq = alquerque::Position::start();
    for limits in [Limits::depth(4), Limits::nodes(30_000)] {
        let one = sliced(lat, &[], limits, u64::MAX);
        for budget in [1, 7, 100, 4096] {
            assert_eq!(sliced(lat, &[], limits, budget), one, "latrunculi {limits:?} budget {budget}");
        }
    }
    for limits in [Limits::depth(7), Limits::nodes(50_000)] {
        let one = sliced(alq, &[], limits, u64::MAX);
        for budget in [1, 13, 1000] {
            assert_eq!(sliced(alq, &[], limits, budget), one, "alquerque {limits:?} budget {budget}");
        }
    }
}

#[test]
fn any_search_sliced_equals_one_shot() {
    for variant in Variant::ALL {
        let game = AnyGame::new(variant);
        for level in [Level::Medium, Level::Hard] {
            let limits = Limits::depth(3);
            let one = best_move(&game, level, limits, 3);
            let mut s = AnySearch::new(&game, level, limits, 3);
            while s.step(50) == Status::Running {}
            assert_eq!(s.best_move(), one, "{variant} {level}");
            assert!(s.is_done());
            assert!(!s.info().pv.is_empty());
        }
    }
}

#[test]
fn node_limit_is_respected() {
    let lat = middle_game_latrunculi();
    for n in [1u64, 10, 500, 20_000] {
        let mut s = Search::new(lat, &[], Limits::nodes(n), params(), 1);
        s.run_to_end();
        // A node may end the game with a move after the check: a few leaves more at most.
        assert!(s.nodes() <= n + 200, "{} nodes for a limit of {n}", s.nodes());
        assert!(s.best_move().is_some());
    }
}

#[test]
fn depth_limit_is_respected() {
    let alq = alquerque::Position::start();
    for d in 1..=6 {
        let mut s = Search::new(alq, &[], Limits::depth(d), params(), 1);
        s.run_to_end();
        assert_eq!(s.info().depth, d);
    }
}

#[test]
fn deterministic_for_a_seed() {
    for variant in Variant::ALL {
        let game = AnyGame::new(variant);
        for level in Level::ALL {
            let a = best_move(&game, level, Limits::depth(3), 42);
            let b = best_move(&game, level, Limits::depth(3), 42);
            assert_eq!(a, b, "{variant} {level}");
        }
    }
    // Random play differs between seeds (over several tries).
    let game = AnyGame::new(Variant::Latrunculi);
    let moves: std::collections::HashSet<_> =
        (0..8).map(|s| best_move(&game, Level::Random, Limits::NONE, s)).collect();
    assert!(moves.len() > 1);
}

#[test]
fn finished_games_have_no_move() {
    // Black's king is immobilised: the game is over.
    let pos = latrunculi::Position::parse("Bb6/b7/8/8/8/8/4R3/rrrrrrrr b").unwrap();
    let game = AnyGame::from_position(ludus_rules::AnyPosition::Latrunculi(pos));
    assert!(game.is_over());
    for level in Level::ALL {
        let mut s = AnySearch::new(&game, level, Limits::depth(2), 1);
        assert_eq!(s.run_to_end(), None);
        assert!(s.is_done());
    }
}

#[test]
fn search_is_send() {
    fn send<T: Send>() {}
    send::<AnySearch>();
    send::<Search<latrunculi::Position>>();
}

#[test]
fn latrunculi_repetition_is_avoided() {
    // Both kings shuffle: Black's d6-d7 would bring the start position back a third time,
    // and the player who makes a threefold repetition loses.
    let mut g = ludus_rules::Game::new(latrunculi::Position::quick());
    for m in ["e2-e3", "d7-d6", "e3-e2", "d6-d7", "e2-e3", "d7-d6", "e3-e2"] {
        g.play_str(m).unwrap();
    }
    assert_eq!(g.repetitions(), 2);
    let mut probe = g.clone();
    assert!(probe.play_str("d6-d7").unwrap().is_some());
    let (root, history) = g.positions().split_last().unwrap();
    let mut s = Search::new(*root, history, Limits::depth(3), params(), 1);
    let mv = s.run_to_end().unwrap();
    let mut g2 = g.clone();
    let outcome = g2.play(&mv).unwrap();
    assert!(outcome.is_none(), "{} repeats: {outcome:?}", root.move_to_string(&mv));
}

#[test]
fn time_limit_ends_a_sliced_search() {
    let game = AnyGame::new(Variant::Latrunculi);
    let started = std::time::Instant::now();
    // A second: the first iteration (a few hundred nodes) ends well within it however loaded
    // the machine, and the search still stops long before the bound below.
    let mut s = AnySearch::new(&game, Level::Hard, Limits::time_ms(1000), 5);
    let mut steps = 0;
    while s.step(2_000) == Status::Running {
        steps += 1;
    }
    assert!(steps > 0);
    assert!(s.best_move().is_some());
    assert!(s.info().depth >= 1);
    // Generous: a loaded machine may be slow, but the search must not run on.
    assert!(started.elapsed().as_secs() < 5);
}

#[test]
fn hard_without_limits_takes_its_default_time() {
    assert_eq!(Limits::for_level(Level::Hard), Limits::time_ms(ludus_ai::level::HARD_DEFAULT_TIME_MS));
    use ludus_ai::level::{MEDIUM_DEPTH, MEDIUM_DEPTH_ALQUERQUE, MEDIUM_MAX_DEPTH};
    assert_eq!(Limits::for_level(Level::Medium), Limits::depth(MEDIUM_MAX_DEPTH));
    assert_eq!(Level::Medium.limits(Limits::depth(99)).depth, Some(MEDIUM_MAX_DEPTH));
    // The game passes `for_level`; each game then gets Medium's own depth.
    let given = Limits::for_level(Level::Medium);
    assert_eq!(Level::Medium.limits_for(given, false).depth, Some(MEDIUM_DEPTH));
    assert_eq!(Level::Medium.limits_for(given, true).depth, Some(MEDIUM_DEPTH_ALQUERQUE));
}
