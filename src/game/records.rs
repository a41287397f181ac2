//! Finished games, kept for the analysis: when a game ends, its record joins a small "recent
//! games" document (`records.json`, the newest [`KEEP`] games). A document that cannot be read
//! is set aside and reported, never trusted. Also reads a record the player pastes.

use crate::game::Notices;
use crate::game::session::{Seats, Session};
use crate::i18n::Lang;
use crate::platform::storage::{Document, DocumentError};
use bevy::prelude::*;
use ludus_rules::{AnyGame, AnyPosition, GameRecord, Outcome, RecordError, Variant};
use serde::{Deserialize, Serialize};

/// The document's name in the data directory (or `localStorage`).
pub const FILE: &str = "records.json";
/// How many finished games are kept (the oldest go first).
pub const KEEP: usize = 30;
const VERSION: u32 = 1;

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordEntry {
    /// When it ended: seconds since 1970 (UTC).
    pub date: u64,
    /// The game in notation.
    pub record: GameRecord,
    /// Who played each side (people, the computer's level, online players).
    pub seats: Seats,
    /// How it ended.
    pub result: Option<Outcome>,
}

impl RecordEntry {
    /// The entry for a session's game, ended now.
    pub fn of(session: &Session) -> RecordEntry {
        RecordEntry {
            date: now_secs(),
            record: session.game.record(),
            seats: session.seats,
            result: session.game.outcome(),
        }
    }

    /// The game, every move checked.
    pub fn game(&self) -> Result<AnyGame, PasteError> {
        AnyGame::from_record(&self.record).map_err(PasteError::Record)
    }
}

/// The recent games, newest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RecentGames {
    /// The document format's version.
    pub version: u32,
    /// Newest first, at most [`KEEP`].
    pub games: Vec<RecordEntry>,
}

impl RecentGames {
    /// Adds a finished game at the front and forgets the oldest beyond [`KEEP`]. The same game
    /// as the newest one (shown again after its analysis, say) is not added twice.
    pub fn push(&mut self, entry: RecordEntry) {
        if self.games.first().is_some_and(|g| g.record == entry.record) {
            return;
        }
        self.games.insert(0, entry);
        self.games.truncate(KEEP);
    }

    /// Encodes as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&RecentGames { version: VERSION, games: self.games.clone() })
            .unwrap_or_default()
    }

    /// Decodes; entries are checked when opened.
    pub fn from_json(text: &str) -> Result<RecentGames, DocumentError> {
        let doc: RecentGames = serde_json::from_str(text)?;
        if doc.version != VERSION {
            return Err(DocumentError::Version { found: doc.version, expected: VERSION });
        }
        Ok(doc)
    }
}

/// The recent games' document.
pub const DOCUMENT: Document = Document { name: FILE, corrupt: crate::i18n::id!("records-corrupt") };

/// Reads the recent games; a document that cannot be read is set aside and reported.
pub fn load(lang: Lang) -> (RecentGames, Option<String>) {
    let (doc, notice) = DOCUMENT.load(lang, RecentGames::from_json);
    (doc.unwrap_or_default(), notice)
}

/// Adds a finished game to the recent games; a message for the player if something went wrong.
pub fn append(entry: RecordEntry, lang: Lang) -> Option<String> {
    let (mut doc, notice) = load(lang);
    doc.push(entry);
    doc.version = VERSION;
    if let Err(e) = DOCUMENT.save_json(&doc) {
        warn!("{FILE} could not be written: {e}");
        return Some(lang.fmt("records-unwritable", [("error", e.text(lang).into())]));
    }
    notice
}

/// Reads a record the player pasted: the record's JSON (`{"variant": …, "start": …, "moves":
/// […]}`, as in saves), an entry of `records.json`, or text: the game's name
/// (`latrunculi`, `latrunculi-quick`, `alquerque`), optionally the start position, then the
/// moves, separated by spaces or new lines (move numbers such as `12.` are skipped).
pub fn parse_pasted(text: &str) -> Result<AnyGame, PasteError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(PasteError::Empty);
    }
    if text.starts_with('{') {
        if let Ok(record) = serde_json::from_str::<GameRecord>(text) {
            return AnyGame::from_record(&record).map_err(PasteError::Record);
        }
        if let Ok(entry) = serde_json::from_str::<RecordEntry>(text) {
            return entry.game();
        }
        #[derive(Deserialize)]
        struct Wrapped {
            record: GameRecord,
        }
        return match serde_json::from_str::<Wrapped>(text) {
            Ok(w) => AnyGame::from_record(&w.record).map_err(PasteError::Record),
            Err(e) => Err(PasteError::NotARecord { line: e.line(), column: e.column() }),
        };
    }
    let mut tokens = text.split_whitespace().peekable();
    let first = tokens.next().unwrap_or_default();
    let variant = Variant::parse(&first.to_lowercase()).map_err(PasteError::Game)?;
    // A start position: the board (with '/'), the side to move, an optional counter.
    let start = match tokens.peek() {
        Some(board) if board.contains('/') => {
            let mut fields = vec![tokens.next().unwrap_or_default()];
            fields.extend(tokens.next());
            if let Some(clock) = tokens.next_if(|t| t.bytes().all(|b| b.is_ascii_digit())) {
                fields.push(clock);
            }
            AnyPosition::parse(variant, &fields.join(" "))
                .map_err(|e| PasteError::Record(RecordError::Position(e)))?
        }
        _ => variant.start(),
    };
    let moves: Vec<String> = tokens
        .filter(|t| !(t.ends_with('.') && t[..t.len() - 1].bytes().all(|b| b.is_ascii_digit())))
        .filter(|t| *t != "…" && *t != "...")
        .map(str::to_string)
        .collect();
    let record = GameRecord { variant, start: start.to_string(), moves, ending: None };
    AnyGame::from_record(&record).map_err(PasteError::Record)
}

/// Why a pasted or stored record cannot be read: words for it come from
/// [`crate::i18n::problems::paste_error`], in the player's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PasteError {
    /// Nothing was pasted.
    Empty,
    /// JSON that is no game record (where the JSON reader stopped).
    NotARecord { line: usize, column: usize },
    /// The first word names no game.
    Game(ludus_rules::ParseError),
    /// The start position or a move is wrong.
    Record(RecordError),
}

impl PasteError {
    /// What is wrong, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        use crate::i18n::problems;
        match self {
            PasteError::Empty => lang.t("records-empty").to_string(),
            PasteError::NotARecord { line, column } => {
                lang.fmt("records-not-json", [("line", (*line).into()), ("column", (*column).into())])
            }
            PasteError::Game(e) => problems::parse_error(lang, e),
            PasteError::Record(e) => problems::record_error(lang, e),
        }
    }
}

/// Seconds since 1970.
pub fn now_secs() -> u64 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
    }
    #[cfg(target_arch = "wasm32")]
    {
        (js_sys::Date::now() / 1000.0) as u64
    }
}

/// Records the game when it ends (not a position under review, not a game that was already
/// over when it appeared: a game shown again after its analysis).
fn record_finished(
    session: Option<Res<Session>>,
    settings: Res<crate::game::settings::Settings>,
    mut notices: ResMut<Notices>,
    mut was_over: Local<bool>,
) {
    let Some(session) = session else { return };
    if session.is_review() || session.is_lesson() || !session.is_changed() {
        return;
    }
    let over = session.game.is_over();
    let ended = over && !*was_over && !session.is_added();
    *was_over = over;
    if ended
        && session.game.ply() > 0
        && let Some(text) = append(RecordEntry::of(&session), settings.lang)
    {
        notices.0.push(text);
    }
}

/// Keeps finished games.
pub fn plugin(app: &mut App) {
    app.init_resource::<Notices>().add_systems(Last, record_finished);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::session::Level;
    use ludus_rules::Side;

    fn entry(n: usize) -> RecordEntry {
        let mut game = AnyGame::new(Variant::Alquerque);
        for _ in 0..n {
            let mv = game.legal_moves()[0];
            game.play(&mv).unwrap();
        }
        RecordEntry {
            date: 1_700_000_000 + n as u64,
            record: game.record(),
            seats: Seats::versus_computer(Side::First, Level::Hard),
            result: game.outcome(),
        }
    }

    #[test]
    fn round_trip_and_limit() {
        let mut doc = RecentGames::default();
        for n in 0..(KEEP + 5) {
            doc.push(entry(n % 12));
        }
        assert_eq!(doc.games.len(), KEEP);
        let back = RecentGames::from_json(&doc.to_json()).unwrap();
        assert_eq!(back.games, doc.games);
        // Newest first; the same game twice in a row is kept once.
        let newest = doc.games[0].clone();
        doc.push(newest.clone());
        assert_eq!(doc.games.len(), KEEP);
        assert_eq!(doc.games[0], newest);
        assert_eq!(back.games[0].game().unwrap().ply(), newest.record.moves.len());
    }

    #[test]
    fn corrupt_documents_are_errors() {
        for bad in ["", "{", "[]", "{\"version\": 7, \"games\": []}", "{\"version\": 1, \"games\": [1]}"] {
            assert!(RecentGames::from_json(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn pasted_records() {
        let e = entry(6);
        let json = serde_json::to_string(&e.record).unwrap();
        assert_eq!(parse_pasted(&json).unwrap().move_strings(), e.record.moves);
        let whole = serde_json::to_string_pretty(&e).unwrap();
        assert_eq!(parse_pasted(&whole).unwrap().move_strings(), e.record.moves);
        let text =
            format!("alquerque\n1. {} {}\n2. {}", e.record.moves[0], e.record.moves[1], e.record.moves[2]);
        assert_eq!(parse_pasted(&text).unwrap().move_strings(), e.record.moves[..3]);
        let with_start = format!("Alquerque\n{}\n{}", e.record.start, e.record.moves[0]);
        assert_eq!(parse_pasted(&with_start).unwrap().ply(), 1);
        let one_line = format!("alquerque {} 1. {}", e.record.start, e.record.moves[0]);
        assert_eq!(parse_pasted(&one_line).unwrap().ply(), 1);
        let quick = "latrunculi-quick 8/8/8/8/8/8/8/K6k w 0";
        assert!(
            matches!(parse_pasted(quick), Err(PasteError::Record(RecordError::Position(_)))),
            "{:?}",
            parse_pasted(quick)
        );
        let err = parse_pasted("alquerque c2-c3 c4xc2 zz").unwrap_err();
        assert!(
            matches!(err, PasteError::Record(RecordError::Move { ply: 3, .. })),
            "the bad move's ply: {err:?}"
        );
        assert!(matches!(parse_pasted(""), Err(PasteError::Empty)));
        assert!(matches!(
            parse_pasted("chess\ne4"),
            Err(PasteError::Game(e)) if matches!(e.problem, ludus_rules::Problem::UnknownGame { .. })
        ));
        assert!(parse_pasted("alquerque\na1-a5").is_err());
        assert!(parse_pasted("{\"variant\": \"Alquerque\"}").is_err());
    }
}
