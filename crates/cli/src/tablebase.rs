//! `ludus-cli tablebase`: build the Alquerque endgame tables, and probe a position.

use crate::args::Args;
use ludus_ai::tablebase::{self, Tablebase, Wdl};
use ludus_rules::GamePosition;
use ludus_rules::alquerque::Position;
use std::path::PathBuf;
use std::time::Instant;

const USAGE: &str = "usage: ludus-cli tablebase build --max-pieces N [--out DIR]
       ludus-cli tablebase probe --position POS [--dir DIR]
DIR defaults to ./tablebases; POS is an Alquerque position such as '5/5/2B2/1W3/W4 w'.";

/// The largest piece count `build` accepts. 8 pieces take about 4 minutes and 435 MB of files;
/// 9 (not tried) would take about 1.3 GB of files and several GB of memory.
pub const MAX_BUILD_PIECES: u32 = 9;

fn default_dir() -> PathBuf {
    PathBuf::from("tablebases")
}

pub fn run(argv: &[String]) -> Result<(), String> {
    let Some((sub, rest)) = argv.split_first() else {
        return Err(USAGE.to_string());
    };
    match sub.as_str() {
        "build" => build(rest),
        "probe" => probe(rest),
        other => Err(format!("unknown tablebase command '{other}'\n{USAGE}")),
    }
}

fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn build(argv: &[String]) -> Result<(), String> {
    let args = Args::parse(argv, &["max-pieces", "out"], &[])?;
    args.expect_positional(0, "ludus-cli tablebase build --max-pieces N [--out DIR]")?;
    let n: u32 = args.number("max-pieces")?.ok_or("tablebase build needs --max-pieces N")?;
    if !(2..=MAX_BUILD_PIECES).contains(&n) {
        return Err(format!("--max-pieces must be from 2 to {MAX_BUILD_PIECES}, not {n}"));
    }
    let dir = args.value("out").map_or_else(default_dir, PathBuf::from);
    println!(
        "{:<12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>9} {:>13}",
        "file", "positions", "wins", "draws", "losses", "longest", "time", "bytes"
    );
    let start = Instant::now();
    let (mut positions, mut bytes) = (0u64, 0u64);
    tablebase::generate(n, Some(&dir), |g| {
        let s = &g.stats;
        positions += s.positions;
        bytes += s.bytes;
        let secs = g.millis as f64 / 1000.0;
        let time = match g.paired_with {
            Some(m) => format!("{secs:.2} s (with {m})"),
            None => format!("{secs:.2} s"),
        };
        println!(
            "{:<12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>9} {:>13}",
            s.material.file_name(),
            thousands(s.positions),
            thousands(s.wins),
            thousands(s.draws),
            thousands(s.losses),
            s.max_plies,
            time,
            thousands(s.bytes)
        );
    })
    .map_err(|e| e.to_string())?;
    println!(
        "total: {} positions, {} bytes in {}, {:.1} s",
        thousands(positions),
        thousands(bytes),
        dir.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn probe(argv: &[String]) -> Result<(), String> {
    let args = Args::parse(argv, &["position", "dir"], &[])?;
    args.expect_positional(0, "ludus-cli tablebase probe --position POS [--dir DIR]")?;
    let s = args.value("position").ok_or("tablebase probe needs --position POS")?;
    let pos = Position::parse(s).map_err(|e| format!("bad position '{s}': {e}"))?;
    let dir = args.value("dir").map_or_else(default_dir, PathBuf::from);
    let tb = Tablebase::open(&dir).map_err(|e| e.to_string())?;
    let side = pos.side_to_move();
    let Some(value) = tb.try_probe(&pos).map_err(|e| e.to_string())? else {
        let m = pos.material();
        return Err(format!(
            "not covered: no table for {} White and {} Black pieces in {} (it has up to {} pieces)",
            m[0],
            m[1],
            dir.display(),
            tb.max_pieces()
        ));
    };
    let mut line = value.describe(side);
    if let Some(outcome) = pos.outcome(false) {
        line.push_str(&format!(": the game is over ({outcome})"));
    } else {
        // A corrupt table of a smaller material shows here.
        let values = tb.move_values(&pos);
        for m in pos.legal_moves() {
            tb.try_probe(&pos.play_unchecked(&m)).map_err(|e| e.to_string())?;
        }
        match values.as_deref().and_then(tablebase::best_of) {
            Some((mv, _)) => {
                let what = if value.wdl == Wdl::Draw { "a drawing move" } else { "best move" };
                line.push_str(&format!(", {what} {}", pos.move_to_string(&mv)));
            }
            None => line.push_str(" (the tables after a move are missing)"),
        }
    }
    if value.wdl != Wdl::Draw && !value.holds_with_clock(pos.clock()) {
        line.push_str(&format!(" (but the no-capture counter, at {}, may reach 50 first)", pos.clock()));
    }
    println!("{line}");
    Ok(())
}
