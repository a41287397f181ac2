//! `moves`: the legal moves of a position, and the outcome when the game is over.

use crate::args::GameArg;
use crate::error::CliError;
use ludus_rules::AnyGame;

#[derive(clap::Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    game: GameArg,
}

/// Prints each legal move, then the outcome if there is one.
pub fn run(args: MovesArgs) -> Result<(), CliError> {
    let game = AnyGame::from_position(args.game.position()?);
    let pos = game.position();
    for mv in game.legal_moves() {
        println!("{}", pos.move_to_string(&mv).unwrap_or_default());
    }
    if let Some(outcome) = game.outcome() {
        println!("{outcome}");
    }
    Ok(())
}
