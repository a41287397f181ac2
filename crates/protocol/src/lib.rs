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
//! - **Play a friend.** [`ClientMessage::CreateRoom`] → [`ServerMessage::RoomOpened`] with a
//!   eight-letter code; the friend sends [`ClientMessage::JoinRoom`]; both get
//!   [`ServerMessage::Game`] (their [`Role`] says which side they play; the colours are drawn).
//! - **Quick match.** [`ClientMessage::QuickMatch`] → [`ServerMessage::Queued`], later
//!   [`ServerMessage::Game`] when someone asks for the same game and time control.
//! - **Play.** On your turn send [`ClientMessage::Move`] with the game's current ply. Everyone
//!   (you too) receives [`ServerMessage::MovePlayed`]: apply it then, not before (the server
//!   sends it only once the move is stored). A refused move gets [`ServerMessage::Error`] and
//!   changes nothing. The end comes as [`ServerMessage::GameOver`] with the archive.
//! - **Watch.** [`ClientMessage::Watch`] → [`ServerMessage::Game`] as a spectator, then the
//!   same [`ServerMessage::MovePlayed`] (with the crowd's verdict), [`ServerMessage::Proposals`]
//!   (ghost moves with counts) and [`ServerMessage::Spectators`]. Propose with
//!   [`ClientMessage::Propose`]. Players never receive proposals during their game.
//! - **After a game.** [`ClientMessage::Rematch`] from both players starts a new game in the
//!   same room with colours swapped ([`ServerMessage::RematchOffered`] tells the other).
//!   [`ClientMessage::Leave`] leaves the room (or queue, or watched game); leaving a game in
//!   progress resigns it. [`ClientMessage::Resign`] resigns.
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
//!   [`ClientMessage::FindMatch`] choose rated play (claimed players only,
//!   [`ErrorCode::NotClaimed`]): when a rated game ends, both players' Glicko-2 ratings for
//!   that variant change ([`ArchivedGame::ratings`]), if each side has moved at least twice
//!   (a shorter game is archived unrated). At most three games a day between the same two
//!   players are rated, and nicknames claimed from one address within a day play each other
//!   unrated: such a game of a rated room starts with [`GameView::rated`] `false`. A private
//!   game changes the ratings but not the public record of games. A rating whose deviation is
//!   above [`PROVISIONAL_DEVIATION`] is provisional (shown with a "?").
//!   [`ClientMessage::Leaderboard`] lists the best rated players of a variant;
//!   [`ClientMessage::Profile`] shows a player's ratings, record and last games, and
//!   [`ClientMessage::Archive`] (protocol 6) brings any of those games back whole.
//! - **Connection lost.** Reconnect with the stored token: the seat is held (two minutes by
//!   default) and [`ServerMessage::Game`] brings the whole game back; the opponent sees
//!   [`ServerMessage::PlayerConnection`]. A seat not taken back in time loses the game
//!   (`Abandoned`). The server restarting is the same as a lost connection.

pub mod messages;
pub mod views;

#[cfg(feature = "client")]
pub mod client;
#[cfg(all(feature = "client", not(target_family = "wasm")))]
mod ws;

pub use messages::*;
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
/// [`ClientMessage::SignInClaimed`], [`ClientMessage::OpenRoom`], [`ClientMessage::FindMatch`],
/// [`ClientMessage::Leaderboard`], [`ClientMessage::Profile`], [`ServerMessage::NicknameClaimed`],
/// [`ServerMessage::Leaderboard`], [`ServerMessage::Profile`], [`Password`],
/// [`ArchivedGame::rated`], [`ArchivedGame::ratings`], four [`ErrorCode`]s).
///
/// 6: rated marks and archives ([`RoomSummary::rated`], [`RoomSummary::host_rating`],
/// [`GameSummary::rated`], [`GameView::rated`], [`PlayerInfo::rating`],
/// [`ClientMessage::Archive`], [`ServerMessage::Archive`]) and several nodes of one service
/// ([`ServerMessage::Redirect`]).
pub const PROTOCOL_VERSION: u16 = 6;

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

/// Why a nickname is refused (see [`validate_nickname`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NicknameError {
    /// Too short or too long.
    #[error("a nickname has {NICKNAME_MIN_CHARS} to {NICKNAME_MAX_CHARS} characters, not {0}")]
    Length(usize),
    /// A character that is not allowed.
    #[error("a nickname cannot contain {0:?}: letters, digits, space, _ - . only")]
    Character(char),
    /// Two spaces in a row.
    #[error("a nickname cannot contain two spaces in a row")]
    DoubleSpace,
    /// Only punctuation.
    #[error("a nickname needs at least one letter or digit")]
    NoLetter,
}

/// Why a chat line is refused (see [`validate_chat`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChatError {
    /// Nothing left once trimmed.
    #[error("a chat line cannot be empty")]
    Empty,
    /// Longer than [`CHAT_MAX_CHARS`] characters (once trimmed and folded).
    #[error("a chat line has at most {CHAT_MAX_CHARS} characters, not {0}")]
    TooLong(usize),
    /// A control character (line breaks and tabs included).
    #[error("a chat line cannot contain the control character {0:?}")]
    Control(char),
    /// An invisible or formatting character (zero-width, direction marks, fillers, ...).
    #[error("a chat line cannot contain the invisible character {0:?}")]
    Invisible(char),
}

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

/// Shortest nickname, in characters.
pub const NICKNAME_MIN_CHARS: usize = 2;
/// Longest nickname, in characters.
pub const NICKNAME_MAX_CHARS: usize = 20;

/// Checks a nickname and returns it trimmed: 2 to 20 characters, letters (any script, so
/// "Nguyễn" is fine) and digits, with single spaces, `_`, `-` or `.` between them.
pub fn validate_nickname(nickname: &str) -> Result<String, NicknameError> {
    let name = nickname.trim();
    let n = name.chars().count();
    if !(NICKNAME_MIN_CHARS..=NICKNAME_MAX_CHARS).contains(&n) {
        return Err(NicknameError::Length(n));
    }
    if let Some(c) = name.chars().find(|&c| !(c.is_alphanumeric() || " _-.".contains(c))) {
        return Err(NicknameError::Character(c));
    }
    if name.contains("  ") {
        return Err(NicknameError::DoubleSpace);
    }
    if !name.chars().any(char::is_alphanumeric) {
        return Err(NicknameError::NoLetter);
    }
    Ok(name.to_string())
}

/// Longest chat line, in characters (after [`validate_chat`] cleaned it).
pub const CHAT_MAX_CHARS: usize = 200;

/// Most chat lines the server keeps for one game (both channels); then it refuses more
/// ([`ErrorCode::ChatFull`]). The server also caps a game's chat at 96 KiB of text and
/// nicknames by default, so that the archive in [`ServerMessage::GameOver`] always fits in one
/// message.
pub const CHAT_MAX_LINES: usize = 300;

/// Whether `c` is an invisible or formatting character refused in chat lines: soft hyphen,
/// combining grapheme joiner, Arabic letter mark, Hangul fillers, Khmer inherent vowels,
/// Mongolian variation selectors and vowel separator, zero-width characters and direction
/// marks, bidirectional embeddings and isolates, word joiner and invisible operators,
/// variation selectors, the byte-order mark, interlinear annotations, musical formatting
/// characters and tags.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E007F}'
            | '\u{E0100}'..='\u{E01EF}'
    )
}

/// Checks a free-text chat line and returns it cleaned: trimmed, every run of white space
/// folded into one space, then 1 to [`CHAT_MAX_CHARS`] characters, none of them a control
/// character ([`char::is_control`]: line breaks and tabs too) or an invisible one
/// ([`is_invisible`]). Any script and emoji are fine.
pub fn validate_chat(text: &str) -> Result<String, ChatError> {
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(ChatError::Control(c));
    }
    if let Some(c) = text.chars().find(|&c| is_invisible(c)) {
        return Err(ChatError::Invisible(c));
    }
    let mut line = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    let n = line.chars().count();
    if n == 0 {
        return Err(ChatError::Empty);
    }
    if n > CHAT_MAX_CHARS {
        return Err(ChatError::TooLong(n));
    }
    Ok(line)
}

/// The characters of room codes: no 0/O, 1/I/L to mistype.
pub const ROOM_CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Length of a room code.
pub const ROOM_CODE_LEN: usize = 8;

/// Normalises a typed room code (trimmed, upper case); `None` if it cannot be one.
pub fn normalize_room_code(code: &str) -> Option<String> {
    let code = code.trim().to_ascii_uppercase();
    (code.len() == ROOM_CODE_LEN && code.bytes().all(|b| ROOM_CODE_ALPHABET.contains(&b))).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_rules::{Reason, Side, Variant};

    #[test]
    fn round_trip_and_size() {
        let msg = ClientMessage::Move { game: GameId(42), ply: 17, mv: "g2-g5".into() };
        let bytes = encode(&msg).unwrap();
        assert!(bytes.len() <= 10, "{} bytes", bytes.len());
        assert_eq!(decode_client(&bytes).unwrap(), msg);
        let s = ServerMessage::MovePlayed {
            game: GameId(42),
            ply: 17,
            mv: "g2-g5".into(),
            clocks: Some(ClockView { remaining_ms: [1000, 2000], running: Some(Side::Second) }),
            outcome: Some(ludus_rules::Outcome::win(Side::First, Reason::KingImmobilised)),
            crowd: None,
        };
        assert_eq!(decode_server(&encode(&s).unwrap()).unwrap(), s);
    }

    fn tag_of(m: &ServerMessage) -> u8 {
        encode(m).unwrap()[0]
    }

    #[test]
    fn redirect_is_appended_and_round_trips() {
        let r = ServerMessage::Redirect(Redirect {
            node: "b".into(),
            udp: Some("127.0.0.1:5000".into()),
            ws: Some("ws://127.0.0.1:5001".into()),
            http: Some("http://127.0.0.1:5000".into()),
            then: Some(ClientMessage::JoinRoom { code: "ABCDEF".into() }),
        });
        let bytes = encode(&r).unwrap();
        // After Profile (24): the tags of the older messages do not move.
        assert_eq!(bytes[0], 25);
        assert_eq!(tag_of(&ServerMessage::Muted { game: GameId(1), player: PlayerId(2), muted: true }), 21);
        assert_eq!(decode_server(&bytes).unwrap(), r);
    }

    #[test]
    fn draw_offer_messages_are_appended_and_round_trip() {
        // New variants go at the end: the tags of the older ones do not move.
        let tag = |bytes: Vec<u8>| bytes[0];
        assert_eq!(tag(encode(&ClientMessage::Ping { nonce: 1 }).unwrap()), 12);
        assert_eq!(tag(encode(&ClientMessage::OfferDraw { game: GameId(5) }).unwrap()), 13);
        assert_eq!(tag(encode(&ServerMessage::Restarting).unwrap()), 16);
        assert_eq!(
            tag(encode(&ServerMessage::DrawOffered { game: GameId(5), by: Side::First }).unwrap()),
            17
        );
        assert_eq!(tag(encode(&ErrorCode::TooManyAttempts).unwrap()), 23);
        assert_eq!(tag(encode(&ErrorCode::NoDrawOffer).unwrap()), 24);
        assert_eq!(tag(encode(&Reason::Abandoned).unwrap()), 8);
        assert_eq!(tag(encode(&Reason::Agreement).unwrap()), 9);
        for m in [
            ClientMessage::OfferDraw { game: GameId(5) },
            ClientMessage::AnswerDraw { game: GameId(5), accept: true },
            ClientMessage::AnswerDraw { game: GameId(u64::MAX), accept: false },
        ] {
            assert_eq!(decode_client(&encode(&m).unwrap()).unwrap(), m);
        }
        for m in [
            ServerMessage::DrawOffered { game: GameId(5), by: Side::Second },
            ServerMessage::DrawDeclined { game: GameId(5), by: Side::First },
            ServerMessage::DrawOfferLapsed { game: GameId(5), by: Side::Second },
            ServerMessage::Error { code: ErrorCode::DrawAlreadyOffered, message: "x".into() },
            ServerMessage::MovePlayed {
                game: GameId(5),
                ply: 3,
                mv: "b2-c3".into(),
                clocks: None,
                outcome: Some(ludus_rules::Outcome::draw(Reason::Agreement)),
                crowd: None,
            },
        ] {
            assert_eq!(decode_server(&encode(&m).unwrap()).unwrap(), m);
        }
        // A stray byte after an answer is refused like any other trailing byte.
        let mut bytes = encode(&ClientMessage::AnswerDraw { game: GameId(1), accept: true }).unwrap();
        bytes.push(1);
        assert_eq!(decode_client(&bytes), Err(DecodeError::TrailingBytes(1)));
        // `accept` is a bool: 2 is not one.
        let bad = [14u8, 1, 2];
        assert!(decode_client(&bad).is_err());
    }

    #[test]
    fn hello_version_is_readable_from_any_hello() {
        let hello = ClientMessage::Hello(Hello { version: 7, token: None, nickname: Some("Ann".into()) });
        assert_eq!(hello_version(&encode(&hello).unwrap()), Some(7));
        assert_eq!(hello_version(&encode(&ClientMessage::Lobby).unwrap()), None);
        assert_eq!(hello_version(&[]), None);
        // A future Hello with more fields still yields its version.
        let future = encode(&(0u32, 9u16, "whatever", 3u64)).unwrap();
        assert_eq!(hello_version(&future), Some(9));
    }

    #[test]
    fn incompatible_is_variant_zero() {
        let bytes = encode(&ServerMessage::Incompatible { server_version: 1, message: "x".into() }).unwrap();
        assert_eq!(bytes[0], 0);
        let bytes = encode(&ClientMessage::Hello(Hello { version: 1, token: None, nickname: None })).unwrap();
        assert_eq!(bytes[0], 0);
    }

    #[test]
    fn garbage_never_panics() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let len = (next() % 64) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            let _ = decode_client(&bytes);
            let _ = decode_server(&bytes);
        }
        let good =
            encode(&ClientMessage::Propose { game: GameId(1), ply: 3, mv: "a1xc3xe5".into() }).unwrap();
        for cut in 0..good.len() {
            assert!(decode_client(&good[..cut]).is_err());
        }
        let mut long = good.clone();
        long.push(0);
        assert_eq!(decode_client(&long), Err(DecodeError::TrailingBytes(1)));
        assert!(matches!(decode_client(&vec![0; 5000]), Err(DecodeError::TooLong { .. })));
        // A huge announced length must not allocate it.
        assert!(decode_client(&[1, 0xff, 0xff, 0xff, 0xff, 0x0f]).is_err());
    }

    #[test]
    fn nicknames() {
        assert_eq!(validate_nickname("  Ann "), Ok("Ann".to_string()));
        assert!(validate_nickname("Nguyễn Văn A").is_ok());
        assert!(validate_nickname("a").is_err());
        assert!(validate_nickname("a\u{0}b").is_err());
        assert!(validate_nickname("a  b").is_err());
        assert!(validate_nickname("--").is_err());
        assert!(validate_nickname(&"x".repeat(21)).is_err());
        assert!(validate_nickname("<script>").is_err());
    }

    #[test]
    fn chat_lines_are_cleaned_or_refused() {
        assert_eq!(validate_chat("  hello   there  "), Ok("hello there".to_string()));
        assert_eq!(validate_chat("Chúc may mắn! 🎲"), Ok("Chúc may mắn! 🎲".to_string()));
        assert_eq!(validate_chat("a\u{3000}\u{2003} b"), Ok("a b".to_string()), "any space folds");
        assert_eq!(validate_chat(""), Err(ChatError::Empty));
        assert_eq!(validate_chat("   "), Err(ChatError::Empty));
        assert_eq!(validate_chat(&"x".repeat(CHAT_MAX_CHARS)), Ok("x".repeat(CHAT_MAX_CHARS)));
        assert_eq!(validate_chat(&"é".repeat(CHAT_MAX_CHARS + 1)), Err(ChatError::TooLong(201)));
        // Counted once folded: 300 characters of which most are spaces are fine.
        assert!(validate_chat(&format!("a{}b", " ".repeat(298))).is_ok());
        for c in ['\n', '\r', '\t', '\u{0}', '\u{7}', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}'] {
            assert_eq!(validate_chat(&format!("a{c}b")), Err(ChatError::Control(c)), "{c:?}");
        }
        for c in [
            '\u{00AD}',
            '\u{034F}',
            '\u{061C}',
            '\u{115F}',
            '\u{1160}',
            '\u{17B4}',
            '\u{17B5}',
            '\u{180B}',
            '\u{180E}',
            '\u{180F}',
            '\u{200B}',
            '\u{200C}',
            '\u{200D}',
            '\u{200E}',
            '\u{200F}',
            '\u{202A}',
            '\u{202E}',
            '\u{2060}',
            '\u{2066}',
            '\u{206F}',
            '\u{3164}',
            '\u{FE00}',
            '\u{FE0F}',
            '\u{FEFF}',
            '\u{FFA0}',
            '\u{E0000}',
            '\u{E0041}',
            '\u{E007F}',
        ] {
            assert_eq!(validate_chat(&format!("a{c}b")), Err(ChatError::Invisible(c)), "{c:?}");
            // Alone, too: not trimmed away into an empty line.
            assert_eq!(validate_chat(&c.to_string()), Err(ChatError::Invisible(c)), "{c:?}");
        }
        // Neighbours of the ranges are ordinary characters.
        for c in ['\u{200A}', '\u{2010}', '\u{2029}', '\u{3165}', '\u{FE10}', '\u{E0080}'] {
            assert!(!is_invisible(c), "{c:?}");
        }
    }

    #[test]
    fn chat_messages_are_appended_and_round_trip() {
        let tag = |bytes: Vec<u8>| bytes[0];
        let free = ChatText::Free("hi".into());
        assert_eq!(tag(encode(&ClientMessage::AnswerDraw { game: GameId(1), accept: true }).unwrap()), 14);
        assert_eq!(tag(encode(&ClientMessage::Chat { game: GameId(1), text: free.clone() }).unwrap()), 15);
        assert_eq!(
            tag(encode(&ClientMessage::Mute { game: GameId(1), player: PlayerId(2), muted: true }).unwrap()),
            16
        );
        let line = ChatLine {
            game: GameId(1),
            channel: ChatChannel::Spectators,
            from: PlayerId(3),
            nickname: "Sam".into(),
            text: ChatText::Phrase(QuickPhrase::GoodGame),
            ply: 4,
            at_ms: 1_700_000_000_000,
        };
        assert_eq!(
            tag(encode(&ServerMessage::DrawOfferLapsed { game: GameId(1), by: Side::First }).unwrap()),
            19
        );
        assert_eq!(tag(encode(&ServerMessage::Chat(line.clone())).unwrap()), 20);
        assert_eq!(tag(encode(&ErrorCode::DrawAlreadyOffered).unwrap()), 25);
        assert_eq!(tag(encode(&ErrorCode::ChatTooLong).unwrap()), 26);
        assert_eq!(tag(encode(&ErrorCode::CannotMuteSelf).unwrap()), 30);
        for phrase in QuickPhrase::ALL {
            let m = ClientMessage::Chat { game: GameId(7), text: ChatText::Phrase(phrase) };
            assert_eq!(decode_client(&encode(&m).unwrap()).unwrap(), m);
        }
        let longest = ClientMessage::Chat { game: GameId(u64::MAX), text: ChatText::Free("ế".repeat(200)) };
        let bytes = encode(&longest).unwrap();
        assert!(bytes.len() <= MAX_CLIENT_MESSAGE_BYTES, "{} bytes", bytes.len());
        assert_eq!(decode_client(&bytes).unwrap(), longest);
        for m in [
            ServerMessage::Chat(line.clone()),
            ServerMessage::Muted { game: GameId(1), player: PlayerId(2), muted: false },
        ] {
            assert_eq!(decode_server(&encode(&m).unwrap()).unwrap(), m);
        }
        // `ArchivedGame::chat` defaults to empty for the JSON archives stored before protocol 4:
        // tested in ludus-server, which reads them.
    }

    #[test]
    fn room_codes() {
        assert_eq!(normalize_room_code(" abc234xy "), Some("ABC234XY".to_string()));
        assert_eq!(normalize_room_code("ABC0O1XY"), None);
        assert_eq!(normalize_room_code("ABC234X"), None);
        assert_eq!(normalize_room_code("ABC234XYZ"), None);
        // The old six-character codes are no codes now.
        assert_eq!(normalize_room_code("ABC234"), None);
        assert_eq!(normalize_room_code("ÀBC234XY"), None);
    }

    #[test]
    fn clock_limits() {
        assert!(ClockSpec::BLITZ.is_valid());
        assert!(ClockSpec::CONTROLS.iter().all(ClockSpec::is_valid));
        let labels: Vec<String> = ClockSpec::CONTROLS.iter().map(ClockSpec::label).collect();
        assert_eq!(labels, ["1+0", "3+2", "5+3", "10+5", "15+10"]);
        assert_eq!(ClockSpec { initial_ms: 30_000, increment_ms: 1500 }.label(), "0.5+1.5");
        assert!(!ClockSpec { initial_ms: 1000, increment_ms: 0 }.is_valid());
        assert!(!ClockSpec { initial_ms: 60_000, increment_ms: 61_000 }.is_valid());
        let _ = Variant::ALL;
    }
}
