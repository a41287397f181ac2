//! The Ludus network protocol, shared by the server, the game and the bots.
//!
//! - [`messages`]: every message as a serde type ([`ClientMessage`], [`ServerMessage`]).
//! - Encoding: [postcard](https://docs.rs/postcard) (compact varints), one message per renet2
//!   message on one reliable ordered channel ([`CHANNEL`]) each way; [`encode`], [`decode_client`],
//!   [`decode_server`] never panic and bound the sizes.
//! - [`connection_config`] and [`NETCODE_PROTOCOL_ID`]: the renet2 connection configuration, the
//!   same on both ends.
//! - Version check: the client's first message is [`ClientMessage::Hello`] carrying
//!   [`PROTOCOL_VERSION`]; a server of another version answers [`ServerMessage::Incompatible`]
//!   ("your game is older than the server: please update") and disconnects. Those two variants
//!   are variant 0 of their enums and their layout is frozen, and [`NETCODE_PROTOCOL_ID`] never
//!   changes, so any two versions can at least say that much to each other.
//! - [`client::Client`] (feature `client`): a plain, non-Bevy client over UDP or WebSocket
//!   natively, and over renet2's browser WebSocket client on `wasm32-unknown-unknown`.
//!
//! The crate compiles for `wasm32-unknown-unknown`, with or without the `client` feature.
//!
//! # Flows
//!
//! - **Sign in.** Connect; the client sends [`Hello`] (version, optional token, optional
//!   nickname). The server answers [`ServerMessage::Welcome`] with the player id, nickname and
//!   session token (store it), then, if the player sits in a live game, [`ServerMessage::Game`].
//!   A wrong version gets [`ServerMessage::Incompatible`] and a disconnection.
//! - **Lobby.** [`ClientMessage::Lobby`] → [`ServerMessage::Lobby`] (poll it every few seconds
//!   while the lobby is on screen).
//! - **Play a friend.** [`ClientMessage::OpenRoom`] → [`ServerMessage::RoomOpened`] with an
//!   eight-character code; the friend sends [`ClientMessage::JoinRoom`]; both get
//!   [`ServerMessage::Game`] (their [`Role`] says which side they play; the colours are drawn).
//! - **Quick match.** [`ClientMessage::FindMatch`] → [`ServerMessage::Queued`], later
//!   [`ServerMessage::Game`] when someone asks for the same game, time control and kind of play
//!   (rated or casual).
//! - **Play.** On your turn send [`ClientMessage::Move`] with the game's current ply (the moves
//!   played before it). The server checks the seat, the turn, the ply and the move, stores it,
//!   and only then sends everyone in the game (you too) [`ServerMessage::MovePlayed`]: the move
//!   in the server's notation, its ply, the clocks and any ending. That message is the truth; a
//!   refused move gets [`ServerMessage::Error`] and changes nothing on the server. A client may
//!   wait for it before showing the move (the plain client and the bots do), or show its own
//!   move at once and reconcile, as the game does (`src/net/sync.rs`, `src/game/session.rs`):
//!   the person's move is played on the board as it is sent; the `MovePlayed` of that ply
//!   confirms it (the same notation: only the clocks change), or takes it back and plays the
//!   server's; an `Error` while a move is on its way takes the board back to the moves the
//!   server confirmed; a `MovePlayed` beyond the moves shown means the client is out of step,
//!   and it reconnects (the [`ServerMessage::Game`] view then brings the whole game back). The
//!   opponent's moves, resignations, draws and the end are shown only as the server sends them.
//!   The end comes as [`ServerMessage::GameOver`] with the archive.
//! - **Watch.** [`ClientMessage::Watch`] → [`ServerMessage::Game`] as a spectator, then the
//!   same [`ServerMessage::MovePlayed`] (with the crowd's verdict), [`ServerMessage::Proposals`]
//!   (ghost moves with counts) and [`ServerMessage::Spectators`]. Propose with
//!   [`ClientMessage::Propose`]. Players never receive proposals during their game.
//! - **After a game.** [`ClientMessage::Rematch`] from both players starts a new game in the
//!   same room with colours swapped ([`ServerMessage::RematchOffered`] tells the other).
//!   [`ClientMessage::Leave`] leaves the room (or queue, or watched game); leaving a real-time
//!   game in progress resigns it (never a turn-based one). [`ClientMessage::Resign`] resigns.
//! - **Draw offers.** A player of a live game sends [`ClientMessage::OfferDraw`] (on either
//!   side's turn); both players and the spectators get [`ServerMessage::DrawOffered`]. The
//!   opponent answers with [`ClientMessage::AnswerDraw`]: accepted, the game ends drawn by
//!   `Reason::Agreement` ([`ServerMessage::GameOver`], archived like any ending); declined,
//!   everyone gets [`ServerMessage::DrawDeclined`] and the game goes on. The offer stands
//!   until answered (the clocks keep running) and lapses when the offerer plays a move
//!   ([`ServerMessage::DrawOfferLapsed`] after the [`ServerMessage::MovePlayed`]). One offer per
//!   player and ply, even once declined ([`ErrorCode::DrawAlreadyOffered`]); offering while the
//!   opponent's offer is open accepts it. Answering no open offer, one's own, a lapsed or
//!   answered one is [`ErrorCode::NoDrawOffer`]; spectators get [`ErrorCode::NotAPlayer`]. An open
//!   offer is not stored (a server restart forgets it); an agreed draw is.
//! - **Chat** (protocol 4). [`ClientMessage::Chat`] with a [`ChatText`]: a [`QuickPhrase`]
//!   (the client translates it) or free text (checked by [`validate_chat`]). The server picks
//!   the [`ChatChannel`] from who speaks: the players of a live game talk on
//!   [`ChatChannel::Players`], heard by the two players only; its spectators on
//!   [`ChatChannel::Spectators`], heard by the spectators only. Each accepted line is stored,
//!   then delivered as [`ServerMessage::Chat`] to the channel (the author too). The players read
//!   the spectators' lines after the game: [`ArchivedGame::chat`] in
//!   [`ServerMessage::GameOver`] has both channels. After a [`ServerMessage::Game`] view, the
//!   lines so far on your channel follow as `Chat` messages (clear the chat on a view). Limits:
//!   [`CHAT_MAX_CHARS`] characters a line, [`CHAT_MAX_LINES`] lines (and 96 KiB) a game
//!   ([`ErrorCode::ChatFull`]), and by default 5 lines in 10 s and one per 500 ms per player
//!   ([`ErrorCode::RateLimited`]). Someone neither playing nor watching the game gets
//!   [`ErrorCode::NotInGame`]; a finished game, [`ErrorCode::GameOver`].
//!   [`ClientMessage::Mute`] stops (or resumes) delivering one person's lines to you in that
//!   game ([`ServerMessage::Muted`] answers); mutes are kept in memory only.
//! - **Claimed nicknames and ratings** (protocol 5). Playing needs no account. A player may
//!   claim their nickname with a password ([`ClientMessage::ClaimNickname`]); nobody else may
//!   then take it or a look-alike, and [`ClientMessage::SignInClaimed`] (after the usual
//!   `Hello`) signs in as that player on any device (a new [`ServerMessage::Welcome`]). Wrong
//!   credentials are [`ErrorCode::BadCredentials`], rate limited
//!   ([`ErrorCode::TooManyAttempts`]). [`ClientMessage::OpenRoom`] and
//!   [`ClientMessage::FindMatch`] with `rated` choose rated play (claimed players only,
//!   [`ErrorCode::NotClaimed`]): when a rated game ends, both players' Glicko-2 ratings for
//!   that variant change ([`ArchivedGame::ratings`]), if each side has moved often enough and
//!   the game lasted long enough, as the server decides (a shorter game is archived unrated). At most three games a day between the same two
//!   players are rated, and nicknames claimed from one address within a day play each other
//!   unrated: such a game of a rated room starts with [`GameView::rated`] `false`. A private
//!   game changes the ratings but not the public record of games. A rating whose deviation is
//!   above [`PROVISIONAL_DEVIATION`] is provisional (shown with a "?").
//!   [`ClientMessage::Leaderboard`] lists the best rated players of a variant;
//!   [`ClientMessage::Profile`] shows a player's ratings, record and last games, and
//!   [`ClientMessage::Archive`] (protocol 6) brings any of those games back whole.
//! - **Turn-based play** (protocol 8). A game may wait days for each move: its move limit is
//!   one of [`TURN_DAYS`]. [`ClientMessage::Challenge`] challenges a nickname, or anyone who has
//!   the challenge's code (an open challenge, listed in the lobby or not); the other side
//!   answers with [`ClientMessage::AcceptChallenge`] (the game starts: both players get its
//!   [`ServerMessage::Game`] view) or [`ClientMessage::DeclineChallenge`]; the challenger may
//!   withdraw it ([`ClientMessage::CancelChallenge`]); it expires after [`CHALLENGE_DAYS`] days
//!   ([`ServerMessage::ChallengeEnded`] says how it ended). A player has at most
//!   [`MAX_TURN_GAMES`] such games in progress and [`MAX_PENDING_CHALLENGES`] challenges
//!   pending. The games are played like any other, addressed by game id ([`ClientMessage::Move`],
//!   `Resign`, `OfferDraw`, `Chat`), several at once and beside a real-time game; the player
//!   gets every [`ServerMessage::MovePlayed`] of them while connected, whatever is on screen.
//!   Their clocks ([`ClockView`], `clock` being `None` in the view) give the side to move the
//!   time left before its deadline and the other side the whole move limit; the server's clock
//!   alone decides, and a side whose time runs out loses on time even while nobody is
//!   connected, across restarts. Leaving, closing the game or losing the connection never ends
//!   a turn-based game. [`ClientMessage::MyGames`] lists the player's games (opponent, whose
//!   turn, time left), challenges and the lobby's open challenges ([`ServerMessage::MyGames`],
//!   also sent right after the welcome of a player who has any); [`ClientMessage::OpenGame`]
//!   brings one game's whole view. A rated turn-based game (claimed nicknames only) changes the
//!   players' turn-based ratings, a pool apart from the real-time ones: its view's
//!   [`PlayerInfo::rating`] is the turn-based one.
//! - **Tournaments** (protocol 9). [`ClientMessage::Tournaments`] lists them (upcoming, running,
//!   finished: [`ServerMessage::Tournaments`]); the server's schedule announces its own there
//!   before they start. A claimed player creates one ([`ClientMessage::CreateTournament`] with
//!   [`TournamentSettings`]: an arena of a set duration, with or without berserk; a Swiss of a
//!   set number of rounds; a round robin of up to [`ROUND_ROBIN_MAX_PLAYERS`]; real-time, or
//!   turn-based for a Swiss or round robin; public, or private with a code that
//!   [`ServerMessage::TournamentCreated`] gives). Anyone signed in joins a public one by
//!   number, any one by code ([`ClientMessage::JoinTournament`]; late entries join with no
//!   points); [`ClientMessage::WithdrawTournament`] pauses an arena player (join again to come
//!   back) or withdraws a Swiss or round-robin player for good. [`ClientMessage::ViewTournament`]
//!   opens a tournament's page ([`ServerMessage::Tournament`]: the settings, the countdown, the
//!   standings with tie-breaks and streaks, the current games with their ids, to watch them as
//!   any game), sent again as it changes. The server pairs: an arena pairs a player who is
//!   free again at once with a free player near in points (an arena player who is offline or in
//!   another game when their turn comes is paused); a Swiss or round robin pairs each round
//!   once every game of the one before has ended. Each player gets
//!   [`ServerMessage::TournamentPaired`], then the game as any other ([`ServerMessage::Game`]);
//!   the games are rated as their time control is, when the tournament is rated and both
//!   players claimed. In an arena game allowing it, [`ClientMessage::Berserk`] before one's
//!   first move halves one's own clock for one more point if one wins. The end comes as
//!   [`ServerMessage::TournamentEnded`] with the podium.
//! - **Connection lost.** Reconnect with the stored token: the seat is held (two minutes by
//!   default) and [`ServerMessage::Game`] brings the whole game back; the opponent sees
//!   [`ServerMessage::PlayerConnection`]. A seat not taken back in time loses the game
//!   (`Abandoned`). The server restarting is the same as a lost connection.

pub mod messages;
pub mod text;
pub mod tournaments;
pub mod values;
pub mod views;

#[cfg(feature = "client")]
pub mod client;
#[cfg(all(feature = "client", not(target_family = "wasm")))]
mod ws;

pub use messages::*;
pub use text::*;
pub use tournaments::*;
pub use views::*;

/// The server's usual UDP port (native clients).
pub const DEFAULT_UDP_PORT: u16 = 5000;
/// The server's usual WebSocket port (browsers).
pub const DEFAULT_WS_PORT: u16 = 5001;

use renet2::{ChannelConfig, ConnectionConfig, SendType};
use serde::{Serialize, de::DeserializeOwned};
use std::time::Duration;

/// The version of the messages. Raise it whenever a message changes (except the frozen ones).
///
/// 3: draw offers ([`ClientMessage::OfferDraw`], [`ClientMessage::AnswerDraw`],
/// [`ServerMessage::DrawOffered`], [`ServerMessage::DrawDeclined`],
/// [`ServerMessage::DrawOfferLapsed`], two [`ErrorCode`]s and `Reason::Agreement`).
///
/// 4: in-game chat ([`ClientMessage::Chat`], [`ClientMessage::Mute`], [`ServerMessage::Chat`],
/// [`ServerMessage::Muted`], [`ChatLine`], [`ArchivedGame::chat`], five [`ErrorCode`]s).
///
/// 5: claimed nicknames and ratings ([`ClientMessage::ClaimNickname`],
/// [`ClientMessage::SignInClaimed`], `OpenRoom` and `FindMatch` with a choice of rated play,
/// [`ClientMessage::Leaderboard`], [`ClientMessage::Profile`], [`ServerMessage::NicknameClaimed`],
/// [`ServerMessage::Leaderboard`], [`ServerMessage::Profile`], [`Password`],
/// [`ArchivedGame::rated`], [`ArchivedGame::ratings`], four [`ErrorCode`]s).
///
/// 6: rated marks and archives ([`RoomSummary::rated`], [`RoomSummary::host_rating`],
/// [`GameSummary::rated`], [`GameView::rated`], [`PlayerInfo::rating`],
/// [`ClientMessage::Archive`], [`ServerMessage::Archive`]) and several nodes of one service
/// ([`ServerMessage::Redirect`]).
///
/// 7: one message to open a room and one to find a match: [`ClientMessage::OpenRoom`] and
/// [`ClientMessage::FindMatch`] (both with `rated`) take the tags of the casual-only
/// `CreateRoom` and `QuickMatch` (3 and 5), which are gone; `Leaderboard`, `Profile` and `Archive`
/// take tags two lower.
///
/// 8: turn-based play: [`ClientMessage::Challenge`], [`ClientMessage::AcceptChallenge`],
/// [`ClientMessage::DeclineChallenge`], [`ClientMessage::CancelChallenge`],
/// [`ClientMessage::MyGames`], [`ClientMessage::OpenGame`], [`ServerMessage::ChallengeMade`],
/// [`ServerMessage::ChallengeReceived`], [`ServerMessage::ChallengeEnded`],
/// [`ServerMessage::MyGames`], [`TurnGameSummary`], [`ChallengeView`], [`ChallengeEnd`],
/// [`MyGamesView`], four [`ErrorCode`]s; every new variant after the old ones.
///
/// 9: tournaments: [`ClientMessage::Tournaments`], [`ClientMessage::CreateTournament`],
/// [`ClientMessage::JoinTournament`], [`ClientMessage::WithdrawTournament`],
/// [`ClientMessage::ViewTournament`], [`ClientMessage::Berserk`],
/// [`ServerMessage::Tournaments`], [`ServerMessage::Tournament`],
/// [`ServerMessage::TournamentCreated`], [`ServerMessage::TournamentPaired`],
/// [`ServerMessage::TournamentEnded`], the types of [`tournaments`], seven [`ErrorCode`]s;
/// every new variant after the old ones.
pub const PROTOCOL_VERSION: u16 = 9;

/// The netcode protocol id. Never changes, so that clients of any version reach the server and
/// learn about a version mismatch from [`ServerMessage::Incompatible`] instead of a silent
/// timeout.
pub const NETCODE_PROTOCOL_ID: u64 = u64::from_be_bytes(*b"LUDUS\0\0\x01");

/// The server's HTTP(S) endpoint that mints netcode connect tokens: `POST` a postcard-encoded
/// [`ConnectRequest`] (`application/octet-stream`); the answer is `200` with the connect token
/// (renetcode2's `ConnectToken::write`, 2,048 bytes), or an error status with a line of English:
/// `409` another protocol version, `429` too many new players from this address (a
/// `Retry-After` header says when to try again), `400` a malformed request.
///
/// The server signs tokens with its private key: no client can make one. A token is valid for
/// [`CONNECT_TOKEN_SECONDS`], names a client id the server chose, and carries (encrypted, for
/// the server alone) the session credential of the request, so that the netcode connection signs
/// in as that player whatever its [`Hello`] says.
pub const CONNECT_PATH: &str = "/api/connect";

/// The header of the token endpoint's `409` answer that names the server's
/// [`PROTOCOL_VERSION`] (the client then reports it as [`ServerMessage::Incompatible`]).
pub const VERSION_HEADER: &str = "ludus-protocol-version";

/// How long a connect token may be used to start a connection.
pub const CONNECT_TOKEN_SECONDS: u64 = 30;

/// A request for a connect token (the body of `POST` [`CONNECT_PATH`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ConnectRequest {
    /// The client's [`PROTOCOL_VERSION`].
    pub version: u16,
    /// 0: UDP, 1: WebSocket (the netcode socket the token is for).
    pub socket: u8,
    /// The session credential of an earlier session (`None`: a new player).
    pub credential: Option<SessionToken>,
    /// The netcode timeout asked for, in seconds (the server keeps it within 1 to 60).
    pub timeout_secs: u16,
}

/// The one renet2 channel used in each direction (reliable and ordered).
pub const CHANNEL: u8 = 0;

/// Longest message a client may send, encoded. Longer ones are refused unread.
pub const MAX_CLIENT_MESSAGE_BYTES: usize = 1024;

/// Longest message the server sends, encoded.
pub const MAX_SERVER_MESSAGE_BYTES: usize = 256 * 1024;

/// How often an idle endpoint flushes its packets (acknowledgements, resends). An endpoint with
/// a message to send flushes at once.
pub const IDLE_FLUSH_INTERVAL: Duration = Duration::from_millis(100);

/// Resend time of the reliable channel.
pub const RESEND_TIME: Duration = Duration::from_millis(300);

/// The renet2 connection configuration, identical on the client and the server.
///
/// Server to client: 1 MiB of unacknowledged data at most (a client that stops acknowledging
/// is disconnected). Client to server: 64 KiB of unread messages at most.
pub fn connection_config() -> ConnectionConfig {
    let channel = |max_memory_usage_bytes| ChannelConfig {
        channel_id: CHANNEL,
        max_memory_usage_bytes,
        send_type: SendType::ReliableOrdered { resend_time: RESEND_TIME },
    };
    ConnectionConfig {
        available_bytes_per_tick: 512 * 1024,
        server_channels_config: vec![channel(1024 * 1024)],
        client_channels_config: vec![channel(64 * 1024)],
    }
}

/// Why bytes could not be read as a message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Longer than the limit for this direction.
    #[error("message of {len} bytes (at most {max})")]
    TooLong {
        /// The length received.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// Not a valid encoding of a message (truncated, unknown variant, bad UTF-8, ...).
    #[error("malformed message: {0}")]
    Invalid(String),
    /// A valid message followed by extra bytes.
    #[error("{0} bytes after the end of the message")]
    TrailingBytes(usize),
}

/// A message could not be encoded (it is too long, or not representable).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot encode message: {0}")]
pub struct EncodeError(pub String);

/// Encodes a message.
pub fn encode<T: Serialize>(message: &T) -> Result<Vec<u8>, EncodeError> {
    postcard::to_allocvec(message).map_err(|e| EncodeError(e.to_string()))
}

fn decode<T: DeserializeOwned>(bytes: &[u8], max: usize) -> Result<T, DecodeError> {
    if bytes.len() > max {
        return Err(DecodeError::TooLong { len: bytes.len(), max });
    }
    let (value, rest) = postcard::take_from_bytes(bytes).map_err(|e| DecodeError::Invalid(e.to_string()))?;
    if !rest.is_empty() {
        return Err(DecodeError::TrailingBytes(rest.len()));
    }
    Ok(value)
}

/// Reads a message from a client (at most [`MAX_CLIENT_MESSAGE_BYTES`]).
pub fn decode_client(bytes: &[u8]) -> Result<ClientMessage, DecodeError> {
    decode(bytes, MAX_CLIENT_MESSAGE_BYTES)
}

/// Reads a message from the server (at most [`MAX_SERVER_MESSAGE_BYTES`]).
pub fn decode_server(bytes: &[u8]) -> Result<ServerMessage, DecodeError> {
    decode(bytes, MAX_SERVER_MESSAGE_BYTES)
}

/// If `bytes` start like a [`ClientMessage::Hello`] of any protocol version, that version.
///
/// The server uses it to answer [`ServerMessage::Incompatible`] to a client whose Hello it
/// cannot decode.
pub fn hello_version(bytes: &[u8]) -> Option<u16> {
    match postcard::take_from_bytes::<(u32, u16)>(bytes) {
        Ok(((0, version), _)) => Some(version),
        _ => None,
    }
}

/// The text of [`ServerMessage::Incompatible`] for a client of `client_version`.
pub fn incompatible_message(client_version: u16) -> String {
    if client_version < PROTOCOL_VERSION {
        format!(
            "your game is older than the server: please update (protocol {client_version}, server {PROTOCOL_VERSION})"
        )
    } else {
        format!(
            "your game is newer than the server: the server needs an update (protocol {client_version}, \
             server {PROTOCOL_VERSION})"
        )
    }
}

#[cfg(test)]
mod tests;
