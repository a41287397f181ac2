//! `ludus-cli bench`: perft throughput for both games.

use crate::args::Args;
use ludus_rules::Variant;
use std::time::Instant;

pub fn run(argv: &[String]) -> Result<(), String> {
    let args = Args::parse(argv, &[], &["quick"])?;
    let quick = args.flag("quick");
    let runs: [(Variant, u32); 3] = if quick {
        [
            (Variant::Latrunculi, 4),
            (Variant::LatrunculiQuick, 4),
            (Variant::Alquerque, 8),
        ]
    } else {
        [
            (Variant::Latrunculi, 5),
            (Variant::LatrunculiQuick, 5),
            (Variant::Alquerque, 11),
        ]
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
    Ok(())
}
