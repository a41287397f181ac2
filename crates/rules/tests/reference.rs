//! The library against the naive reference of `tests/common/naive.rs` over many seeded random
//! playouts: the same legal moves (start, path, captured squares), the same board, counter,
//! repetition count and outcome after every move, and the same perft from sampled positions,
//! on boards of several sizes.

mod common;

use common::naive::{self, Board, Kind, RefGame, RefMove};
use common::{assert_same_board, lib_moves, lib_position, to_ref};
use ludus_rules::{AnyGame, Reason};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;

/// What the playouts went through, to make sure every rule was exercised.
#[derive(Default, Debug)]
struct Stats {
    games: usize,
    plies: usize,
    /// "Reason winner" -> count.
    endings: BTreeMap<String, usize>,
    /// Largest number of pieces one move captured.
    most_captured: usize,
    /// Alquerque chains that end on their start point.
    loops: usize,
    /// Alquerque chains that pass through their start point and go on.
    through_start: usize,
    perft_checks: usize,
}

impl Stats {
    fn ended(&self, reason: Reason) -> usize {
        self.endings.iter().filter(|(k, _)| k.starts_with(reason.name())).map(|(_, n)| n).sum()
    }
}

/// How a playout picks its moves: with probability `back`, the move that takes back the
/// mover's previous move (to make repetitions happen), if it is legal; else with probability
/// `greedy` a move that captures the most; else any legal move.
#[derive(Clone, Copy)]
struct Policy {
    back: f64,
    greedy: f64,
}

fn choose(rng: &mut StdRng, policy: Policy, played: &[RefMove], moves: &[RefMove]) -> RefMove {
    if played.len() >= 2 && rng.random_bool(policy.back) {
        let prev = &played[played.len() - 2];
        if let Some(back) = moves.iter().find(|m| m.from == prev.to() && m.path == [prev.from]) {
            return back.clone();
        }
    }
    if rng.random_bool(policy.greedy) {
        let most = moves.iter().map(|m| m.captured.len()).max().unwrap_or(0);
        if most > 0 {
            let best: Vec<&RefMove> = moves.iter().filter(|m| m.captured.len() == most).collect();
            return best[rng.random_range(0..best.len())].clone();
        }
    }
    moves[rng.random_range(0..moves.len())].clone()
}

/// Plays one game with both implementations and compares them after every move; every
/// `perft_every` plies (from ply 0) compares perft at `perft_depth` from the current position.
fn compare_game(
    rng: &mut StdRng,
    start: Board,
    policy: Policy,
    max_plies: usize,
    perft_depth: u32,
    perft_every: usize,
    stats: &mut Stats,
    ctx: &str,
) {
    let pos = lib_position(&start);
    assert_eq!(pos.to_string(), start.notation(), "{ctx}: notation");
    let mut game = AnyGame::from_position(pos);
    let mut reference = RefGame::new(start);
    let mut played: Vec<RefMove> = Vec::new();
    stats.games += 1;
    for ply in 0..=max_plies {
        let here = format!("{ctx}, ply {ply}, {}", reference.current().notation());
        let pos = game.position();
        assert_same_board(&pos, reference.current(), &here);
        assert_eq!(game.outcome(), reference.outcome, "{here}: outcome");
        assert_eq!(game.repetitions(), reference.repetitions(), "{here}: repetitions");
        if let Some(o) = reference.outcome {
            let winner = o.winner.map_or("draw".to_string(), |s| format!("{s:?}"));
            *stats.endings.entry(format!("{} {winner}", o.reason.name())).or_default() += 1;
            assert!(game.legal_moves().is_empty(), "{here}");
            break;
        }
        let moves = reference.current().moves();
        assert_eq!(lib_moves(&pos), moves, "{here}: legal moves");
        if perft_every > 0 && ply % perft_every == 0 {
            let lib = lib_position(reference.current()).perft(perft_depth);
            let naive = naive::perft(reference.current(), perft_depth);
            assert_eq!(lib, naive, "{here}: perft({perft_depth})");
            stats.perft_checks += 1;
        }
        if ply == max_plies {
            break;
        }
        let mv = choose(rng, policy, &played, &moves);
        // The library reads the reference's notation of the move as the same move.
        let text = reference.current().move_notation(&mv);
        let lib_mv =
            pos.parse_move(&text).unwrap_or_else(|e| panic!("{here}: the library refuses {text}: {e}"));
        assert_eq!(to_ref(&pos, &lib_mv), mv, "{here}: {text}");
        stats.most_captured = stats.most_captured.max(mv.captured.len());
        if reference.current().kind == Kind::Alquerque {
            if mv.to() == mv.from {
                stats.loops += 1;
            }
            if mv.path[..mv.path.len() - 1].contains(&mv.from) {
                stats.through_start += 1;
            }
        }
        let result = game.play(&lib_mv).expect("a legal move");
        reference.play(&mv);
        played.push(mv);
        assert_eq!(result, reference.outcome, "{here}: outcome of {text}");
        stats.plies += 1;
    }
}

#[test]
fn latrunculi_from_the_starts() {
    let mut rng = StdRng::seed_from_u64(0x1A7_0001);
    let mut stats = Stats::default();
    // (width, height, games, perft depth, perft every n plies)
    for (w, h, games, depth, every) in [
        (12, 8, 6, 2, 60),
        (8, 8, 8, 3, 60),
        (5, 7, 12, 3, 25),
        (16, 8, 4, 2, 80),
        (7, 5, 12, 3, 25),
        (3, 4, 20, 3, 5),
    ] {
        for i in 0..games {
            let start = common::latrunculi_start(w, h);
            let ctx = format!("{w}x{h} start, game {i}");
            let policy = Policy { back: 0.1, greedy: 0.3 };
            compare_game(&mut rng, start, policy, 400, depth, every, &mut stats, &ctx);
        }
    }
    eprintln!("{stats:?}");
    assert!(stats.plies > 2000, "{stats:?}");
    assert!(stats.ended(Reason::Repetition) > 0, "{stats:?}");
    assert!(stats.ended(Reason::NoCaptureLimit) > 0, "{stats:?}");
}

#[test]
fn latrunculi_from_random_positions() {
    let mut rng = StdRng::seed_from_u64(0x1A7_0002);
    let mut stats = Stats::default();
    for (w, h, games, depth) in [
        (12, 8, 40, 2),
        (8, 8, 60, 2),
        (5, 7, 80, 3),
        (16, 8, 30, 2),
        (3, 3, 60, 3),
        (8, 16, 30, 2),
        (11, 11, 30, 2),
        (4, 6, 60, 3),
    ] {
        for i in 0..games {
            let start = common::random_latrunculi(&mut rng, w, h);
            let ctx = format!("{w}x{h} random, game {i}");
            let policy = Policy { back: 0.3, greedy: 0.5 };
            compare_game(&mut rng, start, policy, 200, depth, 50, &mut stats, &ctx);
        }
    }
    eprintln!("{stats:?}");
    assert_eq!(stats.most_captured, 3, "{stats:?}");
    for reason in [Reason::KingImmobilised, Reason::OnlyKingLeft, Reason::Repetition, Reason::NoCaptureLimit]
    {
        assert!(stats.ended(reason) > 0, "no game ended by {reason:?}: {stats:?}");
    }
}

#[test]
fn alquerque_from_the_start() {
    let mut rng = StdRng::seed_from_u64(0xA1C_0001);
    let mut stats = Stats::default();
    for i in 0..150 {
        let ctx = format!("alquerque start, game {i}");
        compare_game(
            &mut rng,
            common::alquerque_start(),
            Policy { back: 0.3, greedy: 0.0 },
            300,
            4,
            15,
            &mut stats,
            &ctx,
        );
    }
    eprintln!("{stats:?}");
    assert!(stats.plies > 2000, "{stats:?}");
}

#[test]
fn alquerque_from_random_positions() {
    let mut rng = StdRng::seed_from_u64(0xA1C_0002);
    let mut stats = Stats::default();
    for i in 0..600 {
        let start = common::random_alquerque(&mut rng);
        let ctx = format!("alquerque random, game {i}");
        let policy = Policy { back: 0.3, greedy: 0.0 };
        compare_game(&mut rng, start, policy, 200, 3, 20, &mut stats, &ctx);
    }
    eprintln!("{stats:?}");
    assert!(stats.loops > 0, "no chain came back to its start: {stats:?}");
    assert!(stats.through_start > 0, "no chain passed its start: {stats:?}");
    assert!(stats.most_captured >= 4, "{stats:?}");
    for reason in [Reason::NoPieces, Reason::NoLegalMove, Reason::Repetition, Reason::NoCaptureLimit] {
        assert!(stats.ended(reason) > 0, "no game ended by {reason:?}: {stats:?}");
    }
}
