//! `ludus-cli analyze`: the engine's best move, score, depth, nodes, speed and principal
//! variation for a position.

use crate::args::Args;
use crate::commands::position;
use ludus_ai::{AnySearch, Level, Limits, Tablebase};
use ludus_rules::AnyGame;
use std::sync::Arc;

pub fn run(argv: &[String]) -> Result<(), String> {
    let usage = "ludus-cli analyze <GAME> [--position POS] [--time-ms T | --depth D | --nodes N] [--level L] [--seed S] [--hash MB] [--tablebase DIR]";
    let args = Args::parse(
        argv,
        &["position", "time-ms", "depth", "nodes", "level", "seed", "hash", "tablebase"],
        &[],
    )?;
    args.expect_positional(1, usage)?;
    let game = AnyGame::from_position(position(&args)?);
    let depth: Option<u32> = args.number("depth")?;
    if let Some(d) = depth
        && !(1..=ludus_ai::limits::MAX_DEPTH).contains(&d)
    {
        return Err(format!("--depth must be from 1 to {}, not {d}", ludus_ai::limits::MAX_DEPTH));
    }
    let mut limits = Limits { depth, nodes: args.number("nodes")?, time_ms: args.number("time-ms")? };
    if limits.is_unlimited() {
        limits.time_ms = Some(2000);
    }
    let level = match args.value("level") {
        Some(l) => Level::parse(l)?,
        None => Level::Hard,
    };
    let seed: u64 = args.number("seed")?.unwrap_or(0);
    let mut params = level.params();
    if let Some(mb) = args.number::<usize>("hash")? {
        if mb == 0 || mb > 4096 {
            return Err(format!("--hash must be from 1 to 4096 MB, not {mb}"));
        }
        params.tt_mb = mb;
    }
    if game.is_over() {
        return Err(format!("the game is already over in this position ({})", game.outcome().expect("over")));
    }
    let mut search = AnySearch::with_params(&game, level, limits, params, seed);
    if let Some(dir) = args.value("tablebase") {
        if !matches!(game, AnyGame::Alquerque(_)) {
            return Err("--tablebase is for Alquerque".to_string());
        }
        let tb = Tablebase::open(dir).map_err(|e| e.to_string())?;
        search = search.with_tablebase(Arc::new(tb));
    }
    let mut last_depth = 0;
    while search.step(50_000) == ludus_ai::Status::Running {
        let info = search.info();
        if info.depth > last_depth {
            last_depth = info.depth;
            print_line(&info);
        }
    }
    let info = search.info();
    if info.depth > last_depth || info.depth == 0 {
        print_line(&info);
    }
    let pos = game.position();
    let Some(best) = search.best_move() else {
        return Err("no legal move in this position".to_string());
    };
    let secs = info.time_ms.max(1) as f64 / 1000.0;
    println!("bestmove {}", pos.move_to_string(&best).unwrap_or_default());
    println!("score {}", info.score);
    println!("depth {} seldepth {}", info.depth, info.seldepth);
    println!("nodes {} time {} ms nps {:.0}", info.nodes, info.time_ms, info.nodes as f64 / secs);
    println!("pv {}", info.pv.join(" "));
    if let Some(probe) = info.tablebase {
        println!("tablebase {}", probe.describe(pos.side_to_move()));
    }
    Ok(())
}

fn print_line(info: &ludus_ai::AnyInfo) {
    println!(
        "info depth {} seldepth {} score {} nodes {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.score,
        info.nodes,
        info.time_ms,
        info.pv.join(" ")
    );
}
