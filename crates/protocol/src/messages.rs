//! Every message between a client and the server; what they carry is in [`crate::views`].
//!
//! Compatibility rules (see the crate documentation): variant 0 of [`ClientMessage`]
//! ([`ClientMessage::Hello`], whose first field is the protocol version) and variant 0 of
//! [`ServerMessage`] ([`ServerMessage::Incompatible`]) never change, so that a client and a server
//! of different versions can always tell each other so. Everything else may change with
//! [`crate::PROTOCOL_VERSION`].

use crate::tournaments::*;
use crate::views::*;
use ludus_rules::{Outcome, Side, Variant};
use serde::{Deserialize, Serialize};

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
    /// Opens a room and waits in it for an opponent ([`ServerMessage::RoomOpened`]). A rated
    /// room (protocol 5) needs a claimed nickname ([`ErrorCode::NotClaimed`]), and so does joining
    /// it.
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
    /// Joins a waiting room by its code (case does not matter); the game starts at once.
    JoinRoom {
        /// The room's code.
        code: String,
    },
    /// Waits for anyone who wants the same game, time control and kind of play
    /// ([`ServerMessage::Queued`]). Rated and casual players wait in separate queues; rated play
    /// (protocol 5) needs a claimed nickname ([`ErrorCode::NotClaimed`]).
    FindMatch {
        /// Which game.
        variant: Variant,
        /// Optional time control; only equal ones are paired.
        clock: Option<ClockSpec>,
        /// A rated game: both ratings change when it ends.
        rated: bool,
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
    /// Leaves the current room, queue or watched game. Leaving a real-time game in progress
    /// resigns it; turn-based games are not touched (protocol 8).
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
    /// Challenges a player, or anyone, to a turn-based game (protocol 8), answered by
    /// [`ServerMessage::ChallengeMade`] (the player challenged, if online, gets
    /// [`ServerMessage::ChallengeReceived`]). The challenge waits [`CHALLENGE_DAYS`] days at
    /// most. Refusals: [`ErrorCode::BadClock`] (a move limit not in [`TURN_DAYS`]),
    /// [`ErrorCode::UnknownPlayer`], [`ErrorCode::OwnChallenge`] (yourself),
    /// [`ErrorCode::TooManyGames`] (already [`MAX_TURN_GAMES`] games in progress),
    /// [`ErrorCode::TooManyChallenges`] (too many pending), [`ErrorCode::RateLimited`] (too many
    /// made lately), [`ErrorCode::NotClaimed`] (a rated challenge without a claimed nickname, or
    /// to a player without one).
    Challenge {
        /// The nickname challenged (a claimed nickname, or a player online), or `None` for an open
        /// challenge anyone who has its code may accept.
        opponent: Option<String>,
        /// Which game.
        variant: Variant,
        /// The side the challenger plays (`None`: drawn at random when accepted).
        side: Option<Side>,
        /// The move limit in days: one of [`TURN_DAYS`].
        days: u8,
        /// An open challenge only: listed in the lobby ([`MyGamesView::open`]); else only its
        /// code reaches it.
        listed: bool,
        /// A rated game: needs claimed nicknames on both sides ([`ErrorCode::NotClaimed`]); it
        /// changes the turn-based ratings, a pool apart from real-time play's.
        rated: bool,
    },
    /// Accepts a challenge by its code (protocol 8): the game starts at once, both players get
    /// its [`ServerMessage::Game`] view, and [`ServerMessage::ChallengeEnded`] with
    /// [`ChallengeEnd::Accepted`]. Refusals: [`ErrorCode::UnknownChallenge`] (no such pending
    /// challenge for you: a wrong, expired, accepted or withdrawn code; too many wrong codes
    /// from one address are [`ErrorCode::TooManyAttempts`] for a while),
    /// [`ErrorCode::OwnChallenge`], [`ErrorCode::TooManyGames`] (you or the challenger),
    /// [`ErrorCode::NotClaimed`] (a rated challenge, and your nickname is not claimed).
    AcceptChallenge {
        /// The challenge's code (case does not matter).
        code: String,
    },
    /// Declines a challenge addressed to you (protocol 8).
    DeclineChallenge {
        /// The challenge's code.
        code: String,
    },
    /// Withdraws your own challenge (protocol 8).
    CancelChallenge {
        /// The challenge's code.
        code: String,
    },
    /// Asks for your turn-based games and challenges and the open ones (protocol 8), answered
    /// by [`ServerMessage::MyGames`].
    MyGames,
    /// Asks for the whole view of one of your turn-based games (protocol 8), answered by
    /// [`ServerMessage::Game`] (then the open draw offer and the chat, as for any view).
    /// Refusals: [`ErrorCode::UnknownGame`], [`ErrorCode::NotAPlayer`].
    OpenGame {
        /// The game.
        game: GameId,
    },
    /// Asks for the tournament lists (protocol 9), answered by [`ServerMessage::Tournaments`].
    Tournaments,
    /// Creates a tournament (protocol 9; claimed nicknames only, [`ErrorCode::NotClaimed`]),
    /// answered by [`ServerMessage::TournamentCreated`] and its [`ServerMessage::Tournament`]
    /// view. Refusals: [`ErrorCode::BadTournament`] (settings out of range),
    /// [`ErrorCode::BadClock`], [`ErrorCode::TooManyTournaments`] (more than
    /// [`crate::TOURNAMENTS_PER_DAY`] a day from your account or your address). The creator
    /// does not join by creating: join it like anyone.
    CreateTournament(TournamentSettings),
    /// Joins a tournament (protocol 9): a public one by number, any by its code; an arena
    /// player who paused comes back the same way. Refusals: [`ErrorCode::UnknownTournament`]
    /// (a wrong number or code; too many wrong codes from one address are
    /// [`ErrorCode::TooManyAttempts`] for a while), [`ErrorCode::AlreadyJoined`],
    /// [`ErrorCode::TournamentFull`], [`ErrorCode::TournamentClosed`] (over, or a round robin
    /// under way), [`ErrorCode::NotClaimed`] (a rated one).
    JoinTournament(TournamentRef),
    /// Leaves a tournament (protocol 9): an arena player pauses (a game under way goes on and
    /// counts; join again to come back); a Swiss or round-robin player withdraws for good (a
    /// game under way is lost by forfeit). Refusal: [`ErrorCode::NotInTournament`].
    WithdrawTournament {
        /// The tournament.
        tournament: TournamentId,
    },
    /// Opens a tournament's page (protocol 9): answered by [`ServerMessage::Tournament`], sent
    /// again whenever its standings or pairings change while it is the one you view (one at a
    /// time; [`ClientMessage::Tournaments`] stops it). Refusal: [`ErrorCode::UnknownTournament`]
    /// (also for a private one you neither made nor joined).
    ViewTournament {
        /// The tournament.
        tournament: TournamentId,
    },
    /// Berserk in an arena game (protocol 9): before your first move, halve your own clock
    /// for one more point if you win. Everyone in the game gets its [`ServerMessage::Game`]
    /// view again. Refusals: [`ErrorCode::NotAPlayer`], [`ErrorCode::BadTournament`] (not an
    /// arena game that allows it, or you have moved).
    Berserk {
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
    /// Too many turn-based games in progress ([`MAX_TURN_GAMES`]), yours or, accepting a
    /// challenge, the challenger's (protocol 8).
    TooManyGames,
    /// Too many pending challenges of yours ([`MAX_PENDING_CHALLENGES`]) (protocol 8).
    TooManyChallenges,
    /// No pending challenge for you has that code: wrong, expired, accepted, declined or
    /// withdrawn (protocol 8).
    UnknownChallenge,
    /// A challenge to yourself, or accepting your own (protocol 8).
    OwnChallenge,
    /// No tournament has that number or code, or it is private and not yours (protocol 9).
    UnknownTournament,
    /// You are already in that tournament (protocol 9).
    AlreadyJoined,
    /// The tournament has as many players as it takes (protocol 9).
    TournamentFull,
    /// The tournament takes nobody more: it is over, or a round robin under way (protocol 9).
    TournamentClosed,
    /// Too many tournaments created from your account or address today (protocol 9).
    TooManyTournaments,
    /// You are not playing in that tournament (protocol 9).
    NotInTournament,
    /// Tournament settings out of range, or a berserk not allowed (protocol 9).
    BadTournament,
}

/// Most turn-based games in progress one player may have (protocol 8).
pub const MAX_TURN_GAMES: usize = 50;

/// Most pending challenges one player may have made (protocol 8).
pub const MAX_PENDING_CHALLENGES: usize = 20;

/// How long a challenge waits to be accepted, in days (protocol 8).
pub const CHALLENGE_DAYS: u64 = 7;

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
    /// The number of spectators changed: sent at most once a second per game, the latest count
    /// always sent once the second is over.
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
    /// Your challenge is made (protocol 8): share its code.
    ChallengeMade(ChallengeView),
    /// Someone challenges you (protocol 8): [`ClientMessage::AcceptChallenge`] or
    /// [`ClientMessage::DeclineChallenge`] with its code.
    ChallengeReceived(ChallengeView),
    /// A challenge of yours, or to you, ended (protocol 8).
    ChallengeEnded {
        /// The challenge's code.
        code: String,
        /// How.
        end: ChallengeEnd,
    },
    /// Your turn-based games and challenges (protocol 8).
    MyGames(MyGamesView),
    /// The tournament lists (protocol 9).
    Tournaments(TournamentList),
    /// A tournament's page (protocol 9): on [`ClientMessage::ViewTournament`], and again at
    /// each change while you view it, or when you join or leave it.
    Tournament(Box<TournamentView>),
    /// Your tournament is made (protocol 9); `code` is its private code (share it), if it is
    /// not public.
    TournamentCreated {
        /// Its number.
        tournament: TournamentId,
        /// The code to join a private one.
        code: Option<String>,
    },
    /// You are paired (protocol 9): the game's [`ServerMessage::Game`] view follows (a
    /// real-time game) or is in your list of turn-based games.
    TournamentPaired {
        /// The tournament.
        tournament: TournamentId,
        /// The round (an arena: 0).
        round: u32,
        /// The game.
        game: GameId,
        /// Your side.
        side: Side,
        /// Your opponent's nickname.
        opponent: String,
    },
    /// A tournament you played in, or view, is over (protocol 9): the first three (more when
    /// tied).
    TournamentEnded {
        /// The tournament.
        tournament: TournamentId,
        /// Its name.
        name: String,
        /// The podium, best first.
        podium: Vec<TournamentStanding>,
    },
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
