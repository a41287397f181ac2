//! The subcommands.

use crate::args::Args;
use ludus_rules::{AnyGame, AnyPosition, Variant};

const USAGE: &str = "usage: ludus-cli <command> ...
  perft <GAME> <DEPTH> [--position POS] [--divide]
  moves <GAME> [--position POS]
  analyze <GAME> [--position POS] [--time-ms T | --depth D | --nodes N] [--level L] [--seed S] [--hash MB] [--tablebase DIR]
  arena <GAME> --a LEVEL --b LEVEL --games N [--time-ms T] [--seed S] [--threads K]
  bench [--quick] [--search-only]
  tablebase build --max-pieces N [--out DIR] | tablebase probe --position POS [--dir DIR]
  bots --server ADDR [--games N] [--ws] [--variant GAME|all] [--think-ms MIN-MAX] [--max-plies P] [--duration SECS] [--ramp PER_SEC] [--threads T]
  bot --server ADDR [--ws] [--nick NAME] (--quick GAME | --room GAME | --join CODE) [--level LEVEL] [--moves N] [--linger SECS] [--think-ms MS] [--timeout SECS]
GAME is latrunculi, latrunculi-quick or alquerque; LEVEL is random, easy, medium or hard.";

pub fn run(argv: &[String]) -> Result<(), String> {
    let Some((cmd, rest)) = argv.split_first() else {
        return Err(USAGE.to_string());
    };
    match cmd.as_str() {
        "perft" => perft(rest),
        "moves" => moves(rest),
        "analyze" => crate::analyze::run(rest),
        "arena" => crate::arena::run(rest),
        "bench" => crate::bench::run(rest),
        "bots" => crate::bots::run(rest),
        "bot" => crate::bot::run(rest),
        "tablebase" => crate::tablebase::run(rest),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command '{other}'\n{USAGE}")),
    }
}

/// The game and position named by `<GAME> [--position POS]`.
pub fn position(args: &Args) -> Result<AnyPosition, String> {
    let variant = Variant::parse(&args.positional[0]).map_err(|e| e.to_string())?;
    match args.value("position") {
        None => Ok(variant.start()),
        Some(s) => AnyPosition::parse(variant, s).map_err(|e| format!("bad position '{s}': {e}")),
    }
}

fn perft(argv: &[String]) -> Result<(), String> {
    let usage = "ludus-cli perft <GAME> <DEPTH> [--position POS] [--divide]";
    let args = Args::parse(argv, &["position"], &["divide"])?;
    args.expect_positional(2, usage)?;
    let pos = position(&args)?;
    let depth: u32 =
        args.positional[1].parse().ok().filter(|&d| d <= 64).ok_or_else(|| {
            format!("DEPTH must be a whole number from 0 to 64, not '{}'", args.positional[1])
        })?;
    if args.flag("divide") {
        let mut total = 0;
        for (mv, n) in pos.perft_divide(depth) {
            println!("{mv} {n}");
            total += n;
        }
        println!("{total}");
    } else {
        println!("{}", pos.perft(depth));
    }
    Ok(())
}

fn moves(argv: &[String]) -> Result<(), String> {
    let args = Args::parse(argv, &["position"], &[])?;
    args.expect_positional(1, "ludus-cli moves <GAME> [--position POS]")?;
    let game = AnyGame::from_position(position(&args)?);
    let pos = game.position();
    for mv in game.legal_moves() {
        println!("{}", pos.move_to_string(&mv).unwrap_or_default());
    }
    if let Some(outcome) = game.outcome() {
        println!("{outcome}");
    }
    Ok(())
}
