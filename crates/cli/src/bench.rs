//! `ludus-cli bench`: perft throughput for both games, and the search's speed on a fixed set
//! of positions at a fixed depth, with a node-count signature that changes only when the
//! search does.

use crate::args::Args;
use ludus_ai::{Limits, Params, Search, SearchGame};
use ludus_rules::{AnyGame, AnyPosition, Variant};
use std::time::Instant;

/// The search bench: (game, moves from the start, depth).
const SEARCH_POSITIONS: [(Variant, &str, u32); 8] = [
    (Variant::Latrunculi, "", 7),
    (Variant::Latrunculi, "h1-h6 e8-e3 f1-f5 d8-d2 c1-c3 i8-i2", 7),
    (Variant::Latrunculi, "b1-b7 f7-j7 g2-a2 g8-g4 h1-h6 g4-b4 j1-j6 e8-e7", 7),
    (Variant::LatrunculiQuick, "", 8),
    (Variant::LatrunculiQuick, "a1-a6 h8-h3 e2-e5 d7-d4", 8),
    (Variant::Alquerque, "", 14),
    (Variant::Alquerque, "d3-c3 b3xd3 e3xc3 d4-d3 c3xe3 b4-b3 b2xb4xd4 e4xc4 c2-c3 c4xc2 d2xb2 e5-d4", 14),
    (Variant::Alquerque, "d2-c3 d4xd2 d1xd3 b4xd2xd4 b2xb4 b5xb3 a2-b2", 14),
];

pub fn run(argv: &[String]) -> Result<(), String> {
    let args = Args::parse(argv, &[], &["quick", "search-only"])?;
    let quick = args.flag("quick");
    if !args.flag("search-only") {
        perft_bench(quick);
    }
    search_bench(quick)
}

fn perft_bench(quick: bool) {
    let runs: [(Variant, u32); 3] = if quick {
        [(Variant::Latrunculi, 4), (Variant::LatrunculiQuick, 4), (Variant::Alquerque, 8)]
    } else {
        [(Variant::Latrunculi, 5), (Variant::LatrunculiQuick, 5), (Variant::Alquerque, 11)]
    };
    println!("perft (bulk counting at the last ply, one thread)");
    for (variant, depth) in runs {
        let pos = variant.start();
        let t = Instant::now();
        let n = pos.perft(depth);
        let s = t.elapsed().as_secs_f64();
        println!(
            "  {:<17} perft({depth:>2}) = {n:>14}  {s:>8.3} s  {:>8.1} M leaves/s",
            variant.name(),
            n as f64 / s / 1e6
        );
    }
}

struct Run {
    nodes: u64,
    secs: f64,
    best: String,
}

fn search<P: SearchGame>(root: P, history: &[P], depth: u32) -> Run {
    // A fixed table size, so that the node counts are the same on every platform.
    let params = Params { tt_mb: 16, ..Params::default() };
    let t = Instant::now();
    let mut s = Search::new(root, history, Limits::depth(depth), params, 0);
    let mv = s.run_to_end();
    let secs = t.elapsed().as_secs_f64();
    Run { nodes: s.nodes(), secs, best: mv.map_or("-".to_string(), |m| root.move_to_string(&m)) }
}

fn search_bench(quick: bool) -> Result<(), String> {
    println!("search (fixed depth, fresh 16 MB table, one thread)");
    let mut totals: Vec<(bool, u64, f64)> = Vec::new();
    for (variant, moves, depth) in SEARCH_POSITIONS {
        let depth = if quick { depth - 2 } else { depth };
        let mut game = AnyGame::new(variant);
        for m in moves.split_whitespace() {
            game.play_str(m).map_err(|e| format!("bench position {variant} '{moves}': {e}"))?;
        }
        let run = match &game {
            AnyGame::Latrunculi(g) => {
                let (root, hist) = g.positions().split_last().expect("a position");
                search(*root, hist, depth)
            }
            AnyGame::Alquerque(g) => {
                let (root, hist) = g.positions().split_last().expect("a position");
                search(*root, hist, depth)
            }
        };
        let pos: AnyPosition = game.position();
        println!(
            "  {:<17} depth {depth:>2} {:>10} nodes {:>7.3} s {:>6.2} M nodes/s  best {:<8} {pos}",
            variant.name(),
            run.nodes,
            run.secs,
            run.nodes as f64 / run.secs / 1e6,
            run.best,
        );
        totals.push((variant == Variant::Alquerque, run.nodes, run.secs));
    }
    for (alq, name) in [(false, "latrunculi"), (true, "alquerque")] {
        let (n, s) = totals.iter().filter(|t| t.0 == alq).fold((0, 0.0), |(n, s), t| (n + t.1, s + t.2));
        println!("  {name:<17} total {n:>10} nodes {s:>7.3} s {:>6.2} M nodes/s", n as f64 / s / 1e6);
    }
    let signature: u64 = totals.iter().map(|t| t.1).sum();
    println!("search signature (total nodes): {signature}");
    Ok(())
}
