//! What the formats refuse. Each refusal changes nothing; the caller shows it in the player's
//! language by its variant (the English text here is for logs).

use crate::common::{GameId, PlayerId};
use serde::{Deserialize, Serialize};

/// Bad input to a tournament: the tournament is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum TournamentError {
    /// The player is already in the tournament.
    #[error("player {0} has already joined")]
    AlreadyJoined(PlayerId),
    /// The player is not in the tournament.
    #[error("player {0} is not in this tournament")]
    UnknownPlayer(PlayerId),
    /// The player has withdrawn: no more games, no more results.
    #[error("player {0} has withdrawn")]
    Withdrawn(PlayerId),
    /// No such game in that round.
    #[error("round {round} has no game between {first} and {second}")]
    NoSuchPairing {
        /// The round named (from 1).
        round: u32,
        /// The player named as having the first move.
        first: PlayerId,
        /// The player named as having the second move.
        second: PlayerId,
    },
    /// No arena game with that number.
    #[error("there is no {0}")]
    NoSuchGame(GameId),
    /// That game's result is already in.
    #[error("that game's result is already recorded")]
    AlreadyRecorded,
    /// The round has been paired already.
    #[error("round {0} is already paired")]
    RoundAlreadyPaired(u32),
    /// Only the next round can be paired.
    #[error("round {asked} cannot be paired: the next round is {next}")]
    NotNextRound {
        /// The round asked for.
        asked: u32,
        /// The round that can be paired.
        next: u32,
    },
    /// A round is paired only when every result of the one before is in.
    #[error("round {0} still has games without a result")]
    RoundUnfinished(u32),
    /// Every round of the tournament has been paired.
    #[error("all {0} rounds have been paired")]
    AllRoundsPaired(u32),
    /// Too few players to make a game.
    #[error("{have} players are too few (at least {need})")]
    TooFewPlayers {
        /// Players who could play.
        have: usize,
        /// The least the format needs.
        need: usize,
    },
    /// Too many players for the format.
    #[error("{have} players are too many (at most {max})")]
    TooManyPlayers {
        /// Players asked for.
        have: usize,
        /// The most the format takes.
        max: usize,
    },
    /// A number of rounds the format cannot hold.
    #[error("{0} rounds is not a number of rounds this tournament can have")]
    BadRounds(u32),
    /// A time span that ends before it starts.
    #[error("the tournament ends before it starts")]
    BadTimes,
    /// The tournament is over.
    #[error("the tournament is over")]
    Finished,
    /// The player is paused (has left the arena for now).
    #[error("player {0} is paused")]
    Paused(PlayerId),
    /// The player is not paused.
    #[error("player {0} is not paused")]
    NotPaused(PlayerId),
    /// Berserk is not allowed in this arena, or no longer in this game.
    #[error("berserk is not allowed here")]
    BerserkNotAllowed,
    /// The player is not one of the game's two.
    #[error("player {player} does not play {game}")]
    NotInGame {
        /// The game.
        game: GameId,
        /// The player.
        player: PlayerId,
    },
}
