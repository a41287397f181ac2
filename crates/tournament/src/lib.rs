//! Tournaments for Ludus without Bevy, I/O or threads: Swiss events, round robins and timed
//! arenas as plain values that the server drives, stores (every type is serde-serializable)
//! and reloads mid-way. Time is always passed in, in milliseconds; nothing here reads a clock.
//!
//! # Swiss ([`Swiss`])
//!
//! A set number of rounds. A round is paired once every result of the one before is in.
//! Players are ranked by score, then rating. Within a score group the top half meets the
//! bottom half (the first of the group meets the one halfway down); a player who cannot be
//! paired in their group floats down to the next. Nobody meets the same opponent twice when
//! the whole round can be paired without it: the pairing is a search over the whole round,
//! which gives a board a partner only if every later board can still be paired (a maximum
//! matching answers that), not a greedy walk down the list. Colours: the limits are that each
//! player's first moves and second moves stay within two of each other and nobody has one
//! colour three times running, whenever the round can be paired that way (otherwise the
//! stronger colour wish wins); within those, colours within one of balanced are preferred, but
//! below the score groups: nobody is floated down to a lower group to balance colours.
//! With an odd count the lowest-ranked player who has not had a bye (and whose sitting out
//! leaves the others pairable without a repeat, when anyone's does) sits out and scores a
//! win's point; nobody has a second bye while someone has had none. Players may join late (no
//! points, paired from the next round on) and withdraw (never paired again; a game of theirs
//! still going is lost by forfeit). See [`dutch`] for the exact order of the constraints.
//!
//! Scoring: 1 a win, ½ a draw, 1 a bye. Tie-breaks, in order: Buchholz cut-1 (the opponents'
//! scores added up, leaving out the lowest), Buchholz (all of them), Sonneborn-Berger (the
//! scores of the opponents beaten, plus half those of the opponents drawn), wins. A bye counts
//! as an opponent with no points in Buchholz and adds nothing to Sonneborn-Berger. Players
//! equal on all of these share a rank.
//!
//! # Round robin ([`RoundRobin`])
//!
//! Up to ten players, everyone against everyone once, on Berger tables (see
//! [`berger_rounds`]): colours alternate as far as a round robin allows, ending within one of
//! balanced for everyone; with an odd count each player has one bye, which scores nothing.
//! The table orders by score, then Sonneborn-Berger, then wins.
//!
//! # Arena ([`Arena`])
//!
//! A fixed span of time. A player who ends a game is free again at once and is paired, at the
//! caller's next [`Arena::pair`], with a free player near in points, never the last opponent
//! while another partner is free; players join late, pause and come back (see
//! [`arena_pairing`] for "near" and the order of choice). Scoring: 2 a win, 1 a draw, 0 a loss;
//! after two wins in a row a player is on fire and each game counts double until one is not
//! won; a win with berserk (the player halved their own clock) scores one more point.
//!
//! # Stored results give the same table
//!
//! [`swiss_standings`], [`round_robin_standings`] and [`arena_standings`] make a table from
//! the entrants and the list of results alone ([`Swiss::results`], [`RoundRobin::results`],
//! [`Arena::results`]); it equals the tournament's own running table.
//!
//! Bad input ([`TournamentError`]) changes nothing: joining twice, a result for a game that
//! does not exist or is already in, a withdrawn player's result, a round paired twice.

mod arena;
pub mod arena_pairing;
mod common;
pub mod dutch;
mod error;
mod matching;
mod round_robin;
mod swiss;
mod table;

pub use arena::{
    Arena, ArenaConfig, ArenaGame, ArenaPlayer, ArenaResult, ArenaScore, ArenaStanding, ArenaStatus,
    GamePoints, arena_standings,
};
pub use arena_pairing::{FreePlayer, arena_points, near, pair_free};
pub use common::{Colour, Entrant, GameId, GameResult, Pairing, PlayerId, PlayerResult, Points};
pub use dutch::{RoundPairing, Strictness, SwissPlayer};
pub use error::TournamentError;
pub use round_robin::{MAX_ROUND_ROBIN_PLAYERS, RoundRobin, berger_rounds, round_robin_standings};
pub use swiss::{MAX_SWISS_ROUNDS, Swiss, swiss_standings};
pub use table::{Board, Entry, Forfeit, Round, RoundResult, Standing, Tally};
