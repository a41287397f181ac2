//! A development probe: searches a Latrunculi or Alquerque position with switches from the
//! environment (EXT=0, LMR=0, QTT=0, QS=0) and prints nodes and time per depth.
//! `cargo run --release -p ludus-ai --example probe -- <latrunculi|alquerque> "<position>" <depth>`

use ludus_ai::{Limits, Params, Search, SearchGame};
use ludus_rules::{GamePosition, alquerque, latrunculi};
use std::time::Instant;

fn run<P: SearchGame>(pos: P, depth: u32, params: Params) {
    for d in 1..=depth {
        let t = Instant::now();
        let mut s = Search::new(pos, &[], Limits::depth(d), params.clone(), 0);
        let mv = s.run_to_end();
        let i = s.info();
        println!(
            "depth {d:>2} nodes {:>10} {:>7.3} s seldepth {:>3} score {} best {}",
            i.nodes,
            t.elapsed().as_secs_f64(),
            i.seldepth,
            i.score,
            mv.map_or("-".into(), |m| pos.move_to_string(&m))
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |k: &str| std::env::var(k).map(|v| v != "0").unwrap_or(true);
    let mut params = if std::env::var("MEDIUM").is_ok() {
        ludus_ai::Level::Medium.params()
    } else {
        Params { tt_mb: 16, ..Params::default() }
    };
    params.search.extensions = flag("EXT");
    if let Some(v) = std::env::var("NOISE").ok().and_then(|v| v.parse().ok()) {
        params.search.noise = v;
    }
    if let Some(v) = std::env::var("BONUS").ok().and_then(|v| v.parse().ok()) {
        params.search.root_capture_bonus = v;
    }
    params.search.lmr = flag("LMR");
    params.search.qsearch_tt = flag("QTT");
    params.search.quiescence = flag("QS");
    let depth: u32 = args[2].parse().unwrap();
    if args[0] == "alquerque" {
        run(alquerque::Position::parse(&args[1]).unwrap(), depth, params);
    } else {
        run(latrunculi::Position::parse(&args[1]).unwrap(), depth, params);
    }
}
