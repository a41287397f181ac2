//! `ludus-cli bench`: perft throughput for both games, and the search's speed on a fixed set
//! of positions at a fixed depth, with a node-count signature that changes only when the
//! search does.

use crate::error::CliError;
use ludus_ai::{Limits, Params, Search, SearchGame};
use ludus_rules::{AnyGame, AnyPosition, Variant};
use std::time::Instant;

/// The search bench: (game, moves from the start, depth).
const SEARCH_POSITIONS: [(Variant, &str, u32); 8] = [
    (Variant::Latrunculi, "", 8),
    (Variant::Latrunculi, "h1-h6 e8-e3 f1-f5 d8-d2 c1-c3 i8-i2", 8),
    (Variant::Latrunculi, "b1-b7 f7-j7 g2-a2 g8-g4 h1-h6 g4-b4 j1-j6 e8-e7", 8),
    (Variant::LatrunculiQuick, "", 9),
    (Variant::LatrunculiQuick, "a1-a6 h8-h3 e2-e5 d7-d4", 9),
    (Variant::Alquerque, "", 16),
    (Variant::Alquerque, "d3-c3 b3xd3 e3xc3 d4-d3 c3xe3 b4-b3 b2xb4xd4 e4xc4 c2-c3 c4xc2 d2xb2 e5-d4", 15),
    (Variant::Alquerque, "d2-c3 d4xd2 d1xd3 b4xd2xd4 b2xb4 b5xb3 a2-b2", 15),
];

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Shallower runs (two plies less in the search bench, smaller perfts)
    #[arg(long)]
    quick: bool,
    /// Only the search bench, no perft
    #[arg(long)]
    search_only: bool,
}

pub fn run(args: BenchArgs) -> Result<(), CliError> {
    let quick = args.quick;
    if !args.search_only {
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
    /// Processor time of this thread, when the system says (Linux).
    cpu: Option<f64>,
    best: String,
}

/// The processor time this thread has used, in seconds, from `/proc/thread-self/stat` (user
/// and system time in clock ticks of 1/100 s); `None` elsewhere. Unlike wall time it does not
/// count the time other processes take from the core.
fn thread_cpu_secs() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

fn search<P: SearchGame>(root: P, history: &[P], depth: u32) -> Run {
    // A fixed table size, so that the node counts are the same on every platform.
    let params = Params { tt_mb: 16, ..Params::default() };
    let cpu0 = thread_cpu_secs();
    let t = Instant::now();
    let mut s = Search::new(root, history, Limits::depth(depth), params, 0);
    let mv = s.run_to_end();
    let secs = t.elapsed().as_secs_f64();
    let cpu = cpu0.zip(thread_cpu_secs()).map(|(a, b)| b - a);
    Run { nodes: s.nodes(), secs, cpu, best: mv.map_or("-".to_string(), |m| root.move_to_string(&m)) }
}

fn search_bench(quick: bool) -> Result<(), CliError> {
    println!("search (fixed depth, fresh 16 MB table, one thread; speed per wall second and per");
    println!("second of processor time, which other processes on the machine do not slow down)");
    let mut totals: Vec<(bool, u64, f64, Option<f64>)> = Vec::new();
    for (variant, moves, depth) in SEARCH_POSITIONS {
        let depth = if quick { depth - 2 } else { depth };
        let mut game = AnyGame::new(variant);
        for m in moves.split_whitespace() {
            game.play_str(m)
                .map_err(|e| CliError::from(e).at(format!("bench position {variant} '{moves}'")))?;
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
        totals.push((variant == Variant::Alquerque, run.nodes, run.secs, run.cpu));
    }
    for (alq, name) in [(false, "latrunculi"), (true, "alquerque")] {
        let picked: Vec<_> = totals.iter().filter(|t| t.0 == alq).collect();
        let n: u64 = picked.iter().map(|t| t.1).sum();
        let s: f64 = picked.iter().map(|t| t.2).sum();
        let cpu: Option<f64> = picked.iter().map(|t| t.3).sum();
        let cpu_text = match cpu {
            Some(c) if c > 0.0 => {
                format!("; {c:.2} s of processor time: {:.2} M nodes/s", n as f64 / c / 1e6)
            }
            _ => String::new(),
        };
        println!(
            "  {name:<17} total {n:>10} nodes {s:>7.3} s {:>6.2} M nodes/s{cpu_text}",
            n as f64 / s / 1e6
        );
    }
    let signature: u64 = totals.iter().map(|t| t.1).sum();
    println!("search signature (total nodes): {signature}");
    Ok(())
}
