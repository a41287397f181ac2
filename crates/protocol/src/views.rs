//! What the messages carry: the identifiers of games and players, time controls, chat lines,
//! spectators' proposals, the game as a player sees it, the lobby, finished games, ratings and
//! profiles. Changes follow the rules of [`crate::messages`].

use ludus_rules::{GameRecord, Outcome, Side, Variant};
use serde::{Deserialize, Serialize};

/// A game on the server (the same number in the lobby, the messages and the archive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GameId(pub u64);

/// A player (a person with a session token), whether they play or watch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PlayerId(pub u64);

/// Time control: `initial_ms` for the whole game plus `increment_ms` added after each own move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClockSpec {
    /// Starting time of each side, in milliseconds (10 s to 3 h).
    pub initial_ms: u32,
    /// Added to the mover's clock after each of its moves, in milliseconds (at most 60 s).
    pub increment_ms: u32,
}

impl ClockSpec {
    /// Shortest allowed initial time.
    pub const MIN_INITIAL_MS: u32 = 10_000;
    /// Longest allowed initial time.
    pub const MAX_INITIAL_MS: u32 = 3 * 3600 * 1000;
    /// Largest allowed increment.
    pub const MAX_INCREMENT_MS: u32 = 60_000;

    /// Five minutes plus three seconds a move.
    pub const BLITZ: ClockSpec = ClockSpec::minutes_plus(5, 3);

    /// The time controls the game offers for rooms and quick match (besides none), fastest
    /// first: 1+0, 3+2, 5+3, 10+5 and 15+10 (minutes plus seconds a move).
    pub const CONTROLS: [ClockSpec; 5] = [
        ClockSpec::minutes_plus(1, 0),
        ClockSpec::minutes_plus(3, 2),
        ClockSpec::BLITZ,
        ClockSpec::minutes_plus(10, 5),
        ClockSpec::minutes_plus(15, 10),
    ];

    /// `minutes` for the game plus `seconds` a move.
    pub const fn minutes_plus(minutes: u32, seconds: u32) -> ClockSpec {
        ClockSpec { initial_ms: minutes * 60 * 1000, increment_ms: seconds * 1000 }
    }

    /// As players write it: "3+2" (minutes plus seconds a move; "0.5+0" below a minute).
    pub fn label(&self) -> String {
        let minutes = f64::from(self.initial_ms) / 60_000.0;
        let seconds = f64::from(self.increment_ms) / 1000.0;
        format!("{minutes}+{seconds}")
    }

    /// Whether the server accepts this time control.
    pub fn is_valid(&self) -> bool {
        (Self::MIN_INITIAL_MS..=Self::MAX_INITIAL_MS).contains(&self.initial_ms)
            && self.increment_ms <= Self::MAX_INCREMENT_MS
    }
}

/// Both clocks as the server saw them when it sent the message.
///
/// The client counts the `running` side down from `remaining_ms` locally; the server alone decides
/// when time is up ([`ludus_rules::Reason::Timeout`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// Remaining time of `[First, Second]`, in milliseconds.
    pub remaining_ms: [u32; 2],
    /// The side whose clock runs (none once the game is over).
    pub running: Option<Side>,
}

/// The quick phrases of the chat (protocol 4): the client shows them translated, the server
/// sends only the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum QuickPhrase {
    /// "Hello!"
    Hello,
    /// "Good luck!"
    GoodLuck,
    /// "Have fun!"
    HaveFun,
    /// "Nice move!"
    NiceMove,
    /// "Oops!"
    Oops,
    /// "Thanks!"
    Thanks,
    /// "Well played!"
    WellPlayed,
    /// "Good game!"
    GoodGame,
    /// "Rematch?"
    Rematch,
}

impl QuickPhrase {
    /// Every quick phrase, in the order a client should list them.
    pub const ALL: [QuickPhrase; 9] = [
        QuickPhrase::Hello,
        QuickPhrase::GoodLuck,
        QuickPhrase::HaveFun,
        QuickPhrase::NiceMove,
        QuickPhrase::Oops,
        QuickPhrase::Thanks,
        QuickPhrase::WellPlayed,
        QuickPhrase::GoodGame,
        QuickPhrase::Rematch,
    ];
}

/// What a chat line says: a quick phrase (always valid) or free text.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChatText {
    /// A quick phrase, translated by each client.
    Phrase(QuickPhrase),
    /// Free text: in [`ClientMessage::Chat`] as typed; in [`ServerMessage::Chat`] as cleaned by
    /// [`crate::validate_chat`] (trimmed, runs of spaces folded, 1 to [`crate::CHAT_MAX_CHARS`]
    /// characters, no control or invisible character).
    Free(String),
}

/// Who hears a chat line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChatChannel {
    /// The two players of the game (only they receive it).
    Players,
    /// The spectators of the game (only they receive it while the game goes on; the players
    /// read it in the archive of [`ServerMessage::GameOver`]).
    Spectators,
}

/// One accepted chat line, as delivered and archived.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// The game.
    pub game: GameId,
    /// Who heard it.
    pub channel: ChatChannel,
    /// Who said it.
    pub from: PlayerId,
    /// Their nickname when they said it.
    pub nickname: String,
    /// What they said.
    pub text: ChatText,
    /// How many moves had been played when it was said.
    pub ply: u32,
    /// When the server accepted it, in milliseconds since the Unix epoch.
    pub at_ms: u64,
}

/// One move proposed by spectators, with how many proposed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// The move in notation.
    pub mv: String,
    /// How many spectators proposed it.
    pub count: u32,
}

/// What the crowd proposed for one ply and what was played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyProposals {
    /// How many moves had been played before (0 for the first move).
    pub ply: u32,
    /// The move the player chose.
    pub played: String,
    /// Every proposal, most proposed first.
    pub proposals: Vec<Proposal>,
}

/// Sent to spectators with each move: did the crowd guess it?
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrowdVerdict {
    /// The final tally for this ply, most proposed first.
    pub proposals: Vec<Proposal>,
    /// How many spectators had proposed the move that was played.
    pub backers: u32,
    /// Whether the played move was (one of) the most proposed.
    pub guessed: bool,
}

/// A player as others see them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInfo {
    /// Who.
    pub id: PlayerId,
    /// Their nickname.
    pub nickname: String,
    /// Whether they are connected now (a disconnected player's seat is held for a while).
    pub connected: bool,
    /// A claimed player's rating in the game's variant when the view was made (protocol 6);
    /// `None` for a player who has not claimed their nickname (only claimed players are rated).
    pub rating: Option<RatingView>,
}

/// Your part in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// You play this side.
    Player(Side),
    /// You watch.
    Spectator,
}

/// Everything about one game, for someone who starts looking at it (start, watch, reconnect).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameView {
    /// The game.
    pub game: GameId,
    /// The room's code (to tell a friend; rematches stay in the room).
    pub room: String,
    /// Which game.
    pub variant: Variant,
    /// The start position in notation.
    pub start: String,
    /// The moves so far in notation.
    pub moves: Vec<String>,
    /// `[First, Second]`.
    pub players: [PlayerInfo; 2],
    /// Your part.
    pub role: Role,
    /// Time control, if any.
    pub clock: Option<ClockSpec>,
    /// The clocks now, if there is a time control.
    pub clocks: Option<ClockView>,
    /// How the game ended, if it has.
    pub outcome: Option<Outcome>,
    /// Number of spectators.
    pub spectators: u32,
    /// Whether the game is listed in the lobby.
    pub public: bool,
    /// Spectators only: the proposals for the current ply, most proposed first.
    pub proposals: Vec<Proposal>,
    /// Spectators only: your own proposal for the current ply.
    pub your_proposal: Option<String>,
    /// Whether the game is rated: both ratings change when it ends, once each side has moved
    /// often enough and the game lasted long enough, as the server decides (protocol 6). A game of a rated room may start unrated (the same two players' rated
    /// games of the day, or nicknames claimed from one address).
    pub rated: bool,
}

impl GameView {
    /// The game this view describes, every move checked (the one place a view becomes a game):
    /// the start, the moves, and the server's verdict when the rules have not already ended it.
    pub fn replay(&self) -> Result<ludus_rules::AnyGame, ludus_rules::RecordError> {
        let record = GameRecord {
            variant: self.variant,
            start: self.start.clone(),
            moves: self.moves.clone(),
            ending: None,
        };
        let mut game = ludus_rules::AnyGame::from_record(&record)?;
        if let Some(outcome) = self.outcome
            && !game.is_over()
        {
            // Cannot fail: the game is not over.
            let _ = game.end(outcome);
        }
        Ok(game)
    }
}

/// A room waiting for an opponent, as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomSummary {
    /// The code to join it with.
    pub code: String,
    /// Which game.
    pub variant: Variant,
    /// Time control, if any.
    pub clock: Option<ClockSpec>,
    /// The nickname of the player waiting.
    pub host: String,
    /// A rated room: only claimed players may join it (protocol 6). (Defaults: the nodes of
    /// one service exchange their lobbies as JSON, and an older node's lack these fields.)
    #[serde(default)]
    pub rated: bool,
    /// The host's rating in the room's variant, if the host has claimed their nickname
    /// (protocol 6).
    #[serde(default)]
    pub host_rating: Option<RatingView>,
}

/// A live game, as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game (to watch it).
    pub game: GameId,
    /// Which game.
    pub variant: Variant,
    /// Nicknames of `[First, Second]`.
    pub players: [String; 2],
    /// Number of spectators.
    pub spectators: u32,
    /// Moves played so far.
    pub ply: u32,
    /// Time control, if any.
    pub clock: Option<ClockSpec>,
    /// Whether the game is rated (protocol 6).
    #[serde(default)]
    pub rated: bool,
}

/// The lobby: open public rooms and live public games (at most [`LobbyView::MAX_LISTED`] of
/// each, newest first), with the totals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyView {
    /// Public rooms waiting for an opponent.
    pub rooms: Vec<RoomSummary>,
    /// Public games in progress.
    pub games: Vec<GameSummary>,
    /// Total number of public open rooms.
    pub total_rooms: u32,
    /// Total number of public live games.
    pub total_games: u32,
    /// Players connected now.
    pub online: u32,
}

impl LobbyView {
    /// Most rooms and games listed in one message.
    pub const MAX_LISTED: usize = 100;
}

/// A finished game as archived by the server: the full record, the players and the proposals of
/// the spectators.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchivedGame {
    /// The game.
    pub game: GameId,
    /// Start, moves and any ending from outside the rules (resignation, time, abandonment,
    /// agreed draw).
    pub record: GameRecord,
    /// How it ended.
    pub outcome: Outcome,
    /// Nicknames of `[First, Second]`.
    pub players: [String; 2],
    /// Time control, if any.
    pub clock: Option<ClockSpec>,
    /// What the spectators proposed, ply by ply (only plies with proposals).
    pub proposals: Vec<PlyProposals>,
    /// When the game started and ended, in milliseconds since the Unix epoch.
    pub started_ms: u64,
    /// See `started_ms`.
    pub ended_ms: u64,
    /// Every chat line of the game, both channels, in the order they were said (protocol 4;
    /// archives stored before it have none).
    #[serde(default)]
    pub chat: Vec<ChatLine>,
    /// Whether the game was rated (protocol 5; archives stored before it were not).
    #[serde(default)]
    pub rated: bool,
    /// A rated game: the ratings of `[First, Second]` before and after it (protocol 5).
    #[serde(default)]
    pub ratings: Option<[RatingChange; 2]>,
}

/// A rating as clients show it (protocol 5): Glicko-2, rounded to whole points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RatingView {
    /// The rating (1500 to start).
    pub rating: i32,
    /// The rating deviation (350 to start): how uncertain the rating is.
    pub deviation: i32,
    /// Deviation above [`PROVISIONAL_DEVIATION`]: clients show the rating with a "?".
    pub provisional: bool,
}

/// A deviation above this makes a rating provisional ([`RatingView::provisional`]).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// One line of a leaderboard (protocol 5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingEntry {
    /// Who.
    pub player: PlayerId,
    /// Their (claimed) nickname.
    pub nickname: String,
    /// Their rating in the leaderboard's variant.
    pub rating: RatingView,
    /// Rated games they played in that variant.
    pub games: u32,
}

/// A player's rated record in one variant (protocol 5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantRecord {
    /// Which game.
    pub variant: Variant,
    /// The rating (the starting one, 1500 with deviation 350, before any rated game).
    pub rating: RatingView,
    /// Rated games played.
    pub games: u32,
    /// Of which won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

/// How a finished game went for one of its players (protocol 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

/// One finished game in a profile (protocol 5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecentGame {
    /// The game.
    pub game: GameId,
    /// Which game.
    pub variant: Variant,
    /// The opponent's nickname at the time.
    pub opponent: String,
    /// The result from the profile's player's side.
    pub result: GameResult,
    /// Whether it was rated.
    pub rated: bool,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_ms: u64,
}

/// A player's profile (protocol 5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileView {
    /// Who.
    pub player: PlayerId,
    /// Their nickname.
    pub nickname: String,
    /// Whether the nickname is claimed.
    pub claimed: bool,
    /// One record per variant ([`ludus_rules::Variant::ALL`] order); empty for an unclaimed
    /// player (only claimed players are rated).
    pub ratings: Vec<VariantRecord>,
    /// Their last finished games (at most [`ProfileView::RECENT`]), newest first: private
    /// games only in one's own profile (protocol 6).
    pub recent: Vec<RecentGame>,
}

impl ProfileView {
    /// Most recent games in a profile.
    pub const RECENT: usize = 20;
}

/// Most lines in [`ServerMessage::Leaderboard::top`].
pub const LEADERBOARD_TOP: usize = 50;

/// One player's rating before and after a rated game (protocol 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RatingChange {
    /// Before the game.
    pub before: RatingView,
    /// After it.
    pub after: RatingView,
}

/// The move limits of turn-based play (protocol 8), in days: each move must be played within
/// this many days of the opponent's, or the side to move loses on time.
pub const TURN_DAYS: [u8; 4] = [1, 3, 7, 14];

/// One day, in milliseconds.
pub const DAY_MS: u64 = 24 * 3600 * 1000;

/// One of your turn-based games, as [`crate::ServerMessage::MyGames`] lists it (protocol 8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnGameSummary {
    /// The game (send moves, resignations and chat to it; [`crate::ClientMessage::OpenGame`]
    /// brings its whole view).
    pub game: GameId,
    /// Which game.
    pub variant: Variant,
    /// The opponent's nickname.
    pub opponent: String,
    /// The side you play.
    pub side: Side,
    /// Whether it is your move.
    pub your_turn: bool,
    /// Moves played so far.
    pub ply: u32,
    /// The move limit, in days (one of [`TURN_DAYS`]).
    pub days: u8,
    /// When the side to move loses on time, Unix milliseconds by the server's clock.
    pub deadline_ms: u64,
    /// The time the side to move has left, in milliseconds, when the server sent this.
    pub time_left_ms: u64,
    /// A rated game (the turn-based ratings change when it ends).
    pub rated: bool,
}

/// A turn-based challenge (protocol 8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeView {
    /// Its code: accept it with [`crate::ClientMessage::AcceptChallenge`] (a link carries it:
    /// `?challenge=CODE`, `ludus --online challenge:CODE`).
    pub code: String,
    /// The challenger's nickname.
    pub from: String,
    /// The nickname challenged, or `None` for an open challenge anyone may accept.
    pub to: Option<String>,
    /// Which game.
    pub variant: Variant,
    /// The side the challenger plays (`None`: drawn when the challenge is accepted).
    pub side: Option<Side>,
    /// The move limit, in days (one of [`TURN_DAYS`]).
    pub days: u8,
    /// Open challenges only: listed in the lobby (else reachable only by its code).
    pub listed: bool,
    /// A rated game: the turn-based ratings (a pool apart from real-time play's) change.
    pub rated: bool,
    /// When it expires, Unix milliseconds by the server's clock.
    pub expires_ms: u64,
}

/// How a challenge ended (protocol 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChallengeEnd {
    /// Accepted: this game started (its [`crate::ServerMessage::Game`] view follows).
    Accepted(GameId),
    /// The player challenged declined it.
    Declined,
    /// The challenger withdrew it.
    Cancelled,
    /// Nobody accepted it in time.
    Expired,
}

/// The signed-in player's turn-based play (protocol 8), in answer to
/// [`crate::ClientMessage::MyGames`] and after the welcome of a player who has any.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MyGamesView {
    /// Your turn-based games in progress: those where it is your move first, least time left
    /// first.
    pub games: Vec<TurnGameSummary>,
    /// How many of them wait for your move.
    pub your_turn: u32,
    /// Challenges addressed to you, oldest first.
    pub incoming: Vec<ChallengeView>,
    /// Your own pending challenges, oldest first.
    pub outgoing: Vec<ChallengeView>,
    /// Others' open challenges listed in the lobby, newest first (at most
    /// [`MyGamesView::MAX_OPEN`]).
    pub open: Vec<ChallengeView>,
}

impl MyGamesView {
    /// Most open challenges listed in one message.
    pub const MAX_OPEN: usize = 50;
}
