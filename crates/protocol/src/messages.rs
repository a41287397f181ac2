//! Every message between a client and the server.
//!
//! Compatibility rules (see the crate documentation): variant 0 of [`ClientMessage`]
//! ([`ClientMessage::Hello`], whose first field is the protocol version) and variant 0 of
//! [`ServerMessage`] ([`ServerMessage::Incompatible`]) never change, so that a client and a server
//! of different versions can always tell each other so. Everything else may change with
//! [`crate::PROTOCOL_VERSION`].

use ludus_rules::{GameRecord, Outcome, Side, Variant};
use serde::{Deserialize, Serialize};

/// A game on the server (the same number in the lobby, the messages and the archive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GameId(pub u64);

/// A player (a person with a session token), whether they play or watch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PlayerId(pub u64);

/// The secret that identifies a player across connections and server restarts.
///
/// The server hands it out in [`ServerMessage::Welcome`]; the client stores it and sends it back
/// in [`Hello::token`] to take back its name and its seats. It is 32 lowercase hex digits.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SessionToken(pub String);

impl std::fmt::Debug for SessionToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print a secret in full (logs, panics).
        let shown: String = self.0.chars().take(4).collect();
        write!(f, "SessionToken({shown}…)")
    }
}

/// The password of a claimed nickname (protocol 5): [`PASSWORD_MIN_CHARS`] to
/// [`PASSWORD_MAX_CHARS`] characters. Sent only in [`ClientMessage::ClaimNickname`] and
/// [`ClientMessage::SignInClaimed`]; the server keeps only an Argon2id hash of it.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Password(pub String);

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print a password, not even in part (logs, panics).
        f.write_str("Password(***)")
    }
}

/// Fewest characters of a [`Password`].
pub const PASSWORD_MIN_CHARS: usize = 8;
/// Most characters of a [`Password`].
pub const PASSWORD_MAX_CHARS: usize = 128;

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

/// The first message a client sends, right after the connection is established.
///
/// Frozen layout: `version` stays the first field forever.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// [`crate::PROTOCOL_VERSION`] of the client.
    pub version: u16,
    /// Ignored by servers of protocol version 2 and later (send `None`): the session token goes
    /// in the connect-token request ([`crate::ConnectRequest`]), and the connection signs in as
    /// whoever its connect token names. Kept for the frozen layout.
    pub token: Option<SessionToken>,
    /// The wanted nickname (see [`crate::validate_nickname`]); for a returning player, `None`
    /// keeps the stored one.
    pub nickname: Option<String>,
}

/// A message from a client to the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClientMessage {
    /// Frozen variant 0: must be the first message of every connection.
    Hello(Hello),
    /// Changes the nickname.
    SetNickname {
        /// The new nickname.
        nickname: String,
    },
    /// Asks for the lobby: open rooms and live games ([`ServerMessage::Lobby`]).
    Lobby,
    /// Opens a room and waits in it for an opponent ([`ServerMessage::RoomOpened`]).
    CreateRoom {
        /// Which game.
        variant: Variant,
        /// Optional time control.
        clock: Option<ClockSpec>,
        /// Listed in the lobby (public) or reachable only by its code (private).
        public: bool,
    },
    /// Joins a waiting room by its code (case does not matter); the game starts at once.
    JoinRoom {
        /// The room's code.
        code: String,
    },
    /// Waits for anyone who wants the same game and time control ([`ServerMessage::Queued`]).
    QuickMatch {
        /// Which game.
        variant: Variant,
        /// Optional time control; only equal ones are paired.
        clock: Option<ClockSpec>,
    },
    /// Watches a live game as a spectator.
    Watch {
        /// The game.
        game: GameId,
    },
    /// Plays a move in notation (`g2-g5`, `a1xc3xe5`) in one's own game.
    Move {
        /// The game.
        game: GameId,
        /// How many moves were played before this one (guards against stale or repeated moves).
        ply: u32,
        /// The move in notation.
        mv: String,
    },
    /// As a spectator, proposes the next move (one proposal per spectator and ply; a new one
    /// replaces the old).
    Propose {
        /// The game.
        game: GameId,
        /// How many moves were played before the proposed one.
        ply: u32,
        /// The move in notation.
        mv: String,
    },
    /// Resigns one's own game.
    Resign {
        /// The game.
        game: GameId,
    },
    /// After a game, offers (or accepts) a rematch with colours swapped.
    Rematch {
        /// The finished game.
        game: GameId,
    },
    /// Leaves the current room, queue or watched game. Leaving a game in progress resigns it.
    Leave,
    /// Asks for a [`ServerMessage::Pong`] with the same nonce.
    Ping {
        /// Echoed back.
        nonce: u64,
    },
    /// Offers the opponent a draw in one's own live game ([`ServerMessage::DrawOffered`] to
    /// everyone in the game). At most one offer per player and ply, even once declined; the
    /// offer stands until the opponent answers it, and lapses when the offerer plays a move
    /// ([`ServerMessage::DrawOfferLapsed`]). Offering while the opponent's offer is open
    /// accepts it.
    OfferDraw {
        /// The game.
        game: GameId,
    },
    /// Answers the opponent's open draw offer: `accept` ends the game drawn by
    /// [`ludus_rules::Reason::Agreement`] ([`ServerMessage::GameOver`]); otherwise
    /// [`ServerMessage::DrawDeclined`] and the game goes on.
    AnswerDraw {
        /// The game.
        game: GameId,
        /// Accept (`true`) or decline the offer.
        accept: bool,
    },
    /// Says something in a live game (protocol 4): a player on [`ChatChannel::Players`], a
    /// spectator on [`ChatChannel::Spectators`] (the server picks the channel from who you
    /// are). Accepted, it is stored, then everyone on the channel who has not muted you (you
    /// too) gets [`ServerMessage::Chat`]. Free text is checked by [`crate::validate_chat`] (the
    /// server stores and sends the cleaned text). Refusals: [`ErrorCode::ChatTooLong`],
    /// [`ErrorCode::ChatBadText`], [`ErrorCode::RateLimited`], [`ErrorCode::ChatFull`],
    /// [`ErrorCode::NotInGame`], [`ErrorCode::UnknownGame`], [`ErrorCode::GameOver`].
    Chat {
        /// The game.
        game: GameId,
        /// What to say.
        text: ChatText,
    },
    /// Stops (`muted: true`) or resumes delivering `player`'s chat lines to you in `game`
    /// (protocol 4); answered by [`ServerMessage::Muted`]. Players and spectators of the game
    /// may mute anyone else in it (players or spectators). Mutes live in the server's memory
    /// only: they end with the game or a server restart.
    Mute {
        /// The game.
        game: GameId,
        /// Whose lines.
        player: PlayerId,
        /// Mute (`true`) or unmute.
        muted: bool,
    },
    /// Claims your current nickname with a password (protocol 5), answered by
    /// [`ServerMessage::NicknameClaimed`]. A claimed nickname is yours alone: nobody else may
    /// take it or a name that looks like it (see the server's look-alike rules), and you can
    /// sign in as yourself from any device with [`ClientMessage::SignInClaimed`]. A claimed
    /// nickname cannot be changed. Refusals: [`ErrorCode::BadPassword`] (length),
    /// [`ErrorCode::BadNickname`] (already claimed, by you or as a look-alike by someone else),
    /// [`ErrorCode::Internal`].
    ClaimNickname {
        /// The password ([`PASSWORD_MIN_CHARS`] to [`PASSWORD_MAX_CHARS`] characters).
        password: Password,
    },
    /// Signs this connection in as the player who claimed `nickname` (protocol 5), sent after
    /// the usual [`ClientMessage::Hello`]: the connection leaves the anonymous player it signed
    /// in as (who must not be seated, queued or watching: [`ErrorCode::Busy`]) and becomes the
    /// claimed player, answered by a new [`ServerMessage::Welcome`] with that player's id and a
    /// new session token (store it as usual). A connection of that player elsewhere is closed
    /// ([`ErrorCode::SignedInElsewhere`]). A wrong password or unknown nickname is
    /// [`ErrorCode::BadCredentials`] (the same for both); too many of them from one address or
    /// for one nickname are [`ErrorCode::TooManyAttempts`] for a while.
    SignInClaimed {
        /// The claimed nickname (compared by look-alike skeleton, so case does not matter).
        nickname: String,
        /// Its password.
        password: Password,
    },
    /// [`ClientMessage::CreateRoom`] with a choice of rated play (protocol 5). A rated room
    /// needs a claimed nickname ([`ErrorCode::NotClaimed`]), and so does joining it.
    OpenRoom {
        /// Which game.
        variant: Variant,
        /// Optional time control.
        clock: Option<ClockSpec>,
        /// Listed in the lobby (public) or reachable only by its code (private).
        public: bool,
        /// A rated game: both ratings change when it ends.
        rated: bool,
    },
    /// [`ClientMessage::QuickMatch`] with a choice of rated play (protocol 5): rated and casual
    /// players wait in separate queues; rated play needs a claimed nickname
    /// ([`ErrorCode::NotClaimed`]).
    FindMatch {
        /// Which game.
        variant: Variant,
        /// Optional time control; only equal ones are paired.
        clock: Option<ClockSpec>,
        /// A rated game: both ratings change when it ends.
        rated: bool,
    },
    /// Asks for the best rated players of a variant (protocol 5), answered by
    /// [`ServerMessage::Leaderboard`].
    Leaderboard {
        /// Which game.
        variant: Variant,
    },
    /// Asks for a player's profile by nickname (protocol 5), answered by
    /// [`ServerMessage::Profile`]: a claimed nickname, or the nickname of a player online.
    /// Refusals: [`ErrorCode::UnknownPlayer`], [`ErrorCode::RateLimited`] (one profile at a
    /// time per connection).
    Profile {
        /// The nickname (compared by look-alike skeleton).
        nickname: String,
    },
    /// Asks for a finished game's archive (protocol 6), e.g. one of a profile's
    /// [`RecentGame`]s, answered by [`ServerMessage::Archive`]. A public game's archive is open
    /// to anyone; a private one's only to its two players. Refusals: [`ErrorCode::UnknownGame`]
    /// (no such finished game, or a private one of others: the same answer),
    /// [`ErrorCode::RateLimited`] (one archive at a time per connection).
    Archive {
        /// The game.
        game: GameId,
    },
}

/// Why a request was refused. The accompanying text is English for logs; a user interface
/// should translate the code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorCode {
    /// The message could not be decoded, or is too long.
    Malformed,
    /// The first message was not a [`Hello`].
    NotSignedIn,
    /// A second [`Hello`] on the same connection.
    AlreadySignedIn,
    /// The same player signed in from another connection; this one is closed.
    SignedInElsewhere,
    /// Nickname refused (see [`crate::validate_nickname`]).
    BadNickname,
    /// Too many messages; slow down.
    RateLimited,
    /// Unsupported or out-of-range time control.
    BadClock,
    /// No waiting room has this code.
    UnknownRoom,
    /// The room already has two players.
    RoomFull,
    /// Tried to join one's own room.
    OwnRoom,
    /// Still seated in a game in progress: finish or resign it first.
    Busy,
    /// No live game has this id (or it is private and you are not in it).
    UnknownGame,
    /// Only the game's players may do that (moves, resignation, draw offers, rematch).
    NotAPlayer,
    /// Players cannot propose moves in their own game.
    PlayerCannotPropose,
    /// Proposals are for spectators: watch the game first.
    NotWatching,
    /// It is the other side's turn.
    NotYourTurn,
    /// The `ply` does not match the game (the move is stale or repeated).
    WrongPly,
    /// The move is malformed or illegal in the current position.
    IllegalMove,
    /// The game is already over.
    GameOver,
    /// The game is not over yet, or the opponent has left: no rematch.
    NoRematch,
    /// The server is full.
    ServerFull,
    /// The server could not do it (storage failure); try again.
    Internal,
    /// The session credential is unknown or expired: connect again as a new player (the
    /// plain client does it by itself).
    SessionExpired,
    /// Too many wrong room codes from this address: wait before trying again.
    TooManyAttempts,
    /// No draw offer from the opponent is open: none was made, it was answered, it lapsed, or
    /// it is one's own.
    NoDrawOffer,
    /// Already offered a draw at this ply (one offer per player and ply, even once declined).
    DrawAlreadyOffered,
    /// A chat line longer than [`crate::CHAT_MAX_CHARS`] characters (protocol 4).
    ChatTooLong,
    /// A chat line that is empty, or holds a control or invisible character (protocol 4; see
    /// [`crate::validate_chat`]).
    ChatBadText,
    /// You neither play nor watch that game, or (mute) the player named is not in it
    /// (protocol 4).
    NotInGame,
    /// The game's chat is full ([`crate::CHAT_MAX_LINES`] lines, or by default 96 KiB of text
    /// and nicknames): nothing more, or nothing that long, can be said in it (protocol 4).
    ChatFull,
    /// You cannot mute yourself (protocol 4).
    CannotMuteSelf,
    /// A password shorter than [`PASSWORD_MIN_CHARS`] or longer than [`PASSWORD_MAX_CHARS`]
    /// characters (protocol 5).
    BadPassword,
    /// Unknown claimed nickname or wrong password (protocol 5; the same code for both).
    BadCredentials,
    /// Rated play needs a claimed nickname ([`ClientMessage::ClaimNickname`]); for a room,
    /// both players' (protocol 5).
    NotClaimed,
    /// No claimed nickname, and no player online, has that nickname (protocol 5).
    UnknownPlayer,
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
    /// twice (protocol 6). A game of a rated room may start unrated (the same two players' rated
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

/// A message from the server to a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServerMessage {
    /// Frozen variant 0: the client speaks another protocol version; the server disconnects it.
    Incompatible {
        /// The server's [`crate::PROTOCOL_VERSION`].
        server_version: u16,
        /// Human-readable, e.g. "your game is older than the server: please update".
        message: String,
    },
    /// Signed in: who you are. Store the token to come back as the same player.
    Welcome {
        /// Your player id.
        player: PlayerId,
        /// Your nickname.
        nickname: String,
        /// Your session token (secret).
        token: SessionToken,
        /// Whether the token was recognised (`false`: a new player, e.g. after an unknown token).
        resumed: bool,
    },
    /// A request was refused; nothing changed.
    Error {
        /// What went wrong.
        code: ErrorCode,
        /// Details in English.
        message: String,
    },
    /// Your nickname is now this.
    NicknameSet {
        /// The nickname.
        nickname: String,
    },
    /// The lobby, in answer to [`ClientMessage::Lobby`].
    Lobby(LobbyView),
    /// You are waiting in this room.
    RoomOpened {
        /// The room's code.
        code: String,
        /// Which game.
        variant: Variant,
        /// Time control, if any.
        clock: Option<ClockSpec>,
        /// Whether the lobby lists it.
        public: bool,
    },
    /// You are waiting for a quick match.
    Queued {
        /// Which game.
        variant: Variant,
        /// Time control, if any.
        clock: Option<ClockSpec>,
    },
    /// You left the room, queue or game you were in (or it was closed).
    Left,
    /// The full state of a game: it started, you watch it, or you came back to it.
    Game(GameView),
    /// A move was played (already stored durably).
    MovePlayed {
        /// The game.
        game: GameId,
        /// How many moves were played before it.
        ply: u32,
        /// The move in notation.
        mv: String,
        /// The clocks after it.
        clocks: Option<ClockView>,
        /// Set if the move ended the game (a [`ServerMessage::GameOver`] follows).
        outcome: Option<Outcome>,
        /// Spectators only: how the crowd's proposals compared.
        crowd: Option<CrowdVerdict>,
    },
    /// Spectators only: the proposals for the current ply changed.
    Proposals {
        /// The game.
        game: GameId,
        /// The ply they are for.
        ply: u32,
        /// Every proposal, most proposed first.
        proposals: Vec<Proposal>,
    },
    /// A player's connection changed.
    PlayerConnection {
        /// The game.
        game: GameId,
        /// Whose.
        side: Side,
        /// Connected now?
        connected: bool,
        /// When disconnected: how long the seat is held before the game is lost (`Abandoned`).
        hold_ms: Option<u32>,
    },
    /// The number of spectators changed.
    Spectators {
        /// The game.
        game: GameId,
        /// How many watch it now.
        count: u32,
    },
    /// The game is over; the archive includes the spectators' proposals.
    GameOver {
        /// The game.
        game: GameId,
        /// How it ended.
        outcome: Outcome,
        /// The archived record.
        archive: ArchivedGame,
    },
    /// A player offers a rematch (send [`ClientMessage::Rematch`] to accept).
    RematchOffered {
        /// The finished game.
        game: GameId,
        /// Who offers.
        by: Side,
    },
    /// Answer to [`ClientMessage::Ping`].
    Pong {
        /// The ping's nonce.
        nonce: u64,
    },
    /// The server is shutting down to restart: the connection closes next. Reconnect (with the
    /// same session token) in a moment; a seat in a live game is held meanwhile.
    Restarting,
    /// A player offers a draw (sent to both players and the spectators; also right after a
    /// [`ServerMessage::Game`] whose game has an open offer). The opponent answers with
    /// [`ClientMessage::AnswerDraw`]; the offer is open until [`ServerMessage::DrawDeclined`],
    /// [`ServerMessage::DrawOfferLapsed`] or [`ServerMessage::GameOver`]. An open offer does not
    /// survive a server restart.
    DrawOffered {
        /// The game.
        game: GameId,
        /// Who offers.
        by: Side,
    },
    /// The draw offer was declined and the game goes on (sent to both players and the
    /// spectators).
    DrawDeclined {
        /// The game.
        game: GameId,
        /// Who declined (the offerer's opponent).
        by: Side,
    },
    /// The open draw offer lapsed because its offerer played a move (sent to both players and
    /// the spectators, right after that move's [`ServerMessage::MovePlayed`]; not sent when the
    /// move ended the game).
    DrawOfferLapsed {
        /// The game.
        game: GameId,
        /// Who had offered.
        by: Side,
    },
    /// A chat line (protocol 4), already stored: sent to everyone on its channel who has not
    /// muted its author, the author included. Right after a [`ServerMessage::Game`] (start,
    /// watch, reconnect) the lines said so far on your channel follow as `Chat` messages, oldest
    /// first: a client clears its chat when it receives a `Game` view.
    Chat(ChatLine),
    /// Answer to [`ClientMessage::Mute`]: `player`'s lines in `game` are now muted for you, or
    /// not (protocol 4).
    Muted {
        /// The game.
        game: GameId,
        /// Whose lines.
        player: PlayerId,
        /// Muted now?
        muted: bool,
    },
    /// Answer to [`ClientMessage::ClaimNickname`]: your nickname is claimed now (protocol 5).
    NicknameClaimed {
        /// The nickname.
        nickname: String,
    },
    /// Answer to [`ClientMessage::Leaderboard`] (protocol 5): the claimed players with at least
    /// one rated game in `variant`, best first (by rating, then more games, then the lower
    /// player id), at most [`LEADERBOARD_TOP`].
    Leaderboard {
        /// Which game.
        variant: Variant,
        /// The best, in order (place 1 first).
        top: Vec<RatingEntry>,
        /// Your place (from 1) and line, if you are on the leaderboard at all.
        yours: Option<(u32, RatingEntry)>,
    },
    /// Answer to [`ClientMessage::Profile`] (protocol 5).
    Profile(ProfileView),
    /// Go to another node of the service (protocol 6, several nodes on one database): your seat, the room you asked to join or the game you asked to watch lives
    /// there, or a quick-match partner waits there. Connect to that node with the same session
    /// token (a new connect token from its `http` endpoint), and once welcomed send `then` if
    /// set. The redirect grants nothing: the other node checks the credential as any node does.
    Redirect(Redirect),
    /// Answer to [`ClientMessage::Archive`] (protocol 6): the whole finished game.
    Archive(Box<ArchivedGame>),
}

/// Where [`ServerMessage::Redirect`] sends a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Redirect {
    /// The node's name (for messages and logs).
    pub node: String,
    /// Its UDP address for native clients (`host:port`), if it serves UDP.
    pub udp: Option<String>,
    /// Its WebSocket URL (`ws://host:port`, `wss://host/path`), if it serves WebSocket.
    pub ws: Option<String>,
    /// Its HTTP(S) base URL, where connect tokens come from (`http://host:port`).
    pub http: Option<String>,
    /// What to send there once welcomed (join the room, watch the game, queue again), or
    /// nothing (your seat is given back at the welcome).
    pub then: Option<ClientMessage>,
}
