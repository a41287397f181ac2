//! `perft`: counts the move sequences of a given number of plies from a position.

use crate::args::GameArg;
use crate::error::CliError;

#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    game: GameArg,
    /// Plies to count, 0 to 64
    #[arg(value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(0..=64))]
    depth: u32,
    /// The count under each root move, then the total
    #[arg(long)]
    divide: bool,
}

/// Prints the count (or the count under each root move, then the total).
pub fn run(args: PerftArgs) -> Result<(), CliError> {
    let pos = args.game.position()?;
    if args.divide {
        let mut total = 0;
        for (mv, n) in pos.perft_divide(args.depth) {
            println!("{mv} {n}");
            total += n;
        }
        println!("{total}");
    } else {
        println!("{}", pos.perft(args.depth));
    }
    Ok(())
}
