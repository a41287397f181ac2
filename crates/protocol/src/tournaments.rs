//! Tournaments (protocol 9): what a client asks to create, what the lists and a tournament's
//! page show, and how a pairing and the end are announced.
//!
//! Points are exact integers: an arena's points as they are (2 a win, 1 a draw, doubled on a
//! streak, one more for a berserk win); a Swiss or round robin's in quarter points (a win is 4,
//! a draw 2), so that half points and Sonneborn-Berger's quarters need no floating point.

use crate::views::{ClockSpec, GameId, PlayerId};
use ludus_rules::Variant;
use serde::{Deserialize, Serialize};

/// A tournament's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TournamentId(pub u64);

/// Longest tournament name, in characters.
pub const TOURNAMENT_NAME_MAX_CHARS: usize = 40;
/// Most players of one tournament (a round robin: [`ROUND_ROBIN_MAX_PLAYERS`]).
pub const TOURNAMENT_MAX_PLAYERS: u32 = 256;
/// Most players of a round robin.
pub const ROUND_ROBIN_MAX_PLAYERS: u32 = 10;
/// Most rounds of a Swiss tournament.
pub const SWISS_MAX_ROUNDS: u32 = 30;
/// An arena's shortest and longest duration, in minutes.
pub const ARENA_MINUTES: (u32, u32) = (10, 360);
/// How far ahead a tournament may start, in minutes (a week).
pub const TOURNAMENT_MAX_DELAY_MINUTES: u32 = 7 * 24 * 60;
/// Most tournaments one player, or one address, may create in a day.
pub const TOURNAMENTS_PER_DAY: usize = 5;
/// The length of a private tournament's code (letters and digits of the room codes' alphabet).
pub const TOURNAMENT_CODE_LEN: usize = 10;

/// A tournament's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TournamentFormat {
    /// A fixed span of real-time play: a player who ends a game is paired again at once.
    Arena {
        /// How long it runs, in minutes (within [`ARENA_MINUTES`]).
        minutes: u32,
        /// Whether players may berserk ([`crate::ClientMessage::Berserk`]).
        berserk: bool,
    },
    /// A set number of rounds, paired by score groups.
    Swiss {
        /// The rounds (1 to [`SWISS_MAX_ROUNDS`]).
        rounds: u32,
    },
    /// Everyone against everyone once (2 to [`ROUND_ROBIN_MAX_PLAYERS`] players).
    RoundRobin,
}

/// How fast a tournament's games are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TournamentPace {
    /// Real-time games with this clock.
    RealTime(ClockSpec),
    /// Turn-based games: each move within this many days (one of [`crate::TURN_DAYS`]). Not for
    /// an arena.
    TurnBased {
        /// The move limit.
        days: u8,
    },
}

/// What a player asks to create ([`crate::ClientMessage::CreateTournament`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentSettings {
    /// Its name (at most [`TOURNAMENT_NAME_MAX_CHARS`] characters; empty: one is made from
    /// the variant and the format).
    pub name: String,
    /// Which game.
    pub variant: Variant,
    /// Arena, Swiss or round robin.
    pub format: TournamentFormat,
    /// Real-time or turn-based.
    pub pace: TournamentPace,
    /// Minutes from now to the start (at most [`TOURNAMENT_MAX_DELAY_MINUTES`]; a Swiss or round
    /// robin at least 1, so that players can join before its first round).
    pub starts_in_minutes: u32,
    /// Listed for everyone; else joined by its code only.
    pub public: bool,
    /// Rated games (between claimed players, as rated rooms are).
    pub rated: bool,
    /// Most players (2 to [`TOURNAMENT_MAX_PLAYERS`]; a round robin at most
    /// [`ROUND_ROBIN_MAX_PLAYERS`]).
    pub max_players: u32,
}

/// Where a tournament is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TournamentStage {
    /// Not started: players may join.
    Upcoming,
    /// Under way (a Swiss or round robin: this round is being played; an arena: 0).
    Running {
        /// The round under way.
        round: u32,
    },
    /// Over.
    Finished,
}

/// One line of the tournament lists.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentSummary {
    /// Its number.
    pub id: TournamentId,
    /// Its name.
    pub name: String,
    /// Which game.
    pub variant: Variant,
    /// Its format.
    pub format: TournamentFormat,
    /// Its pace.
    pub pace: TournamentPace,
    /// Upcoming, running or finished.
    pub stage: TournamentStage,
    /// When it starts (or started), Unix milliseconds.
    pub starts_ms: u64,
    /// An arena's end, Unix milliseconds.
    pub ends_ms: Option<u64>,
    /// Players who joined (withdrawn ones too).
    pub players: u32,
    /// Most players.
    pub max_players: u32,
    /// Listed for everyone.
    pub public: bool,
    /// Rated games.
    pub rated: bool,
    /// Made by the server's schedule (else by a player).
    pub scheduled: bool,
    /// The creator's nickname (empty for a scheduled one).
    pub by: String,
}

/// The tournament lists ([`crate::ServerMessage::Tournaments`]): public ones, and private ones
/// you joined or made; each list at most [`TournamentList::MAX_LISTED`], soonest or latest
/// first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentList {
    /// Not started yet, soonest first.
    pub upcoming: Vec<TournamentSummary>,
    /// Under way.
    pub running: Vec<TournamentSummary>,
    /// Over, the latest first.
    pub finished: Vec<TournamentSummary>,
}

impl TournamentList {
    /// Most tournaments in each list.
    pub const MAX_LISTED: usize = 50;
}

/// A player's points and tie-breaks in a tournament's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TournamentScore {
    /// An arena's.
    Arena {
        /// Arena points.
        points: u32,
        /// Wins in a row up to now (two or more: on fire, the next game counts double).
        streak: u32,
        /// Games won with berserk.
        berserk_wins: u32,
    },
    /// A Swiss or round robin's, in quarter points.
    Table {
        /// The score (a win 4, a draw 2; a Swiss bye 4).
        score_q: u32,
        /// Buchholz cut-1 (a round robin: 0).
        buchholz_cut1_q: u32,
        /// Buchholz (a round robin: 0).
        buchholz_q: u32,
        /// Sonneborn-Berger.
        sonneborn_berger_q: u32,
        /// Byes had.
        byes: u32,
    },
}

/// One row of a tournament's table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentStanding {
    /// 1 for the first; equals share a rank.
    pub rank: u32,
    /// Who.
    pub player: PlayerId,
    /// Their nickname.
    pub nickname: String,
    /// The rating they entered with.
    pub rating: u32,
    /// Points and tie-breaks.
    pub score: TournamentScore,
    /// Games finished.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// An arena player on fire (two wins running: the next game counts double).
    pub on_fire: bool,
    /// An arena player paused, or a Swiss or round-robin player withdrawn.
    pub away: bool,
}

/// How a tournament game ended, by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BoardResult {
    /// The player with the first move won.
    FirstWins,
    /// The player with the second move won.
    SecondWins,
    /// A draw.
    Draw,
}

/// One game of the current pairings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentBoard {
    /// The round (an arena: 0).
    pub round: u32,
    /// The live game (watch it with [`crate::ClientMessage::Watch`]); `None` for a board
    /// decided without a game (a withdrawal's forfeit).
    pub game: Option<GameId>,
    /// The player with the first move, and their nickname.
    pub first: (PlayerId, String),
    /// The player with the second move, and their nickname.
    pub second: (PlayerId, String),
    /// The result, once in.
    pub result: Option<BoardResult>,
}

/// Your place in a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TournamentEntry {
    /// You play (an arena: you are paired whenever free).
    Playing,
    /// An arena player who paused: join again to come back.
    Paused,
    /// A Swiss or round-robin player who withdrew: never paired again.
    Withdrawn,
}

/// A tournament's page ([`crate::ServerMessage::Tournament`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentView {
    /// What the lists show.
    pub summary: TournamentSummary,
    /// Milliseconds to the start (0 once started): the countdown.
    pub starts_in_ms: u64,
    /// Milliseconds to an arena's end (0 once over).
    pub ends_in_ms: Option<u64>,
    /// A Swiss or round robin's number of rounds (an arena: 0).
    pub rounds: u32,
    /// The table, best first.
    pub standings: Vec<TournamentStanding>,
    /// The games under way (an arena), or the current round's games with their results (a
    /// Swiss or round robin), with the bye if any.
    pub boards: Vec<TournamentBoard>,
    /// The current round's bye (a Swiss: a win's point; a round robin: nothing).
    pub bye: Option<(PlayerId, String)>,
    /// Your place, if you joined.
    pub you: Option<TournamentEntry>,
    /// The private code, to its creator only.
    pub code: Option<String>,
}

/// How to name a tournament to join.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TournamentRef {
    /// A public tournament by number.
    Id(TournamentId),
    /// Any tournament by its code (case does not matter).
    Code(String),
}
