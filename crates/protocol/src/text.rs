//! What players type: nicknames, chat lines and room codes, checked the same way by the
//! server and the clients.

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
/// ([`crate::ErrorCode::ChatFull`]). The server also caps a game's chat at 96 KiB of text and
/// nicknames by default, so that the archive in [`crate::ServerMessage::GameOver`] always fits in one
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
