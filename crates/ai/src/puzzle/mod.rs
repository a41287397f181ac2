//! Tactics puzzles made and proven by the engine: the puzzle record and its JSON form.
//!
//! A puzzle is a position (the rules' notation, no history: repetitions count from it, the
//! no-capture counter is always 0), the side to move (the *player*), and a solution line: the
//! player's move, the opponent's best defence, the player's next move, and so on, 1 to
//! [`MAX_STEPS`] player moves, always ending with one. Each player step may list
//! *alternatives*: other moves the verifier proves just as good there (a trainer must accept
//! them as correct; after one, the line's continuation no longer applies, and the trainer can
//! count the puzzle solved or ask the engine for the reply).
//!
//! What "as good" and "clearly worse" mean depends on the [`Kind`]:
//!
//! - [`Kind::WinKing`], [`Kind::WinPieces`], [`Kind::WinNoMoves`]: a forced win that ends the
//!   game within the line (the enemy king shut in; the opponent left with only its king, or
//!   with no piece; the opponent without a legal move). The line's last move ends the game. A
//!   move is as good when it also forces the win within the player moves left; every other move
//!   must not win at all (a win against a non-win).
//! - [`Kind::Material`]: the line wins [`Puzzle::gain`] pieces net (the player's losses taken
//!   off), and at its end the opponent has no capture. Every other first move must score at
//!   least [`generate::MARGIN`] centi-soldiers (a soldier) below the solution in the
//!   generator's search ([`verify::MARGIN`] in the verifier's deeper one); an alternative scores
//!   within [`generate::ALT_TOLERANCE`] of it.
//! - [`Kind::Defence`] (Latrunculi): the position looks lost: every other first move loses by
//!   force; the solution does not.
//! - [`Kind::Draw`] (Alquerque): the endgame tables prove the position drawn and every other
//!   first move lost.
//!
//! Themes ([`Theme`]) are computed from the solution by [`themes::compute`], never typed; the
//! rating ([`rating`]) comes from how often the computer players of the three levels find the
//! first move.
//!
//! [`from_game`] makes puzzles from a finished game: the positions where a person missed a win
//! or a capture, found by the game's review, kept when the verifier passes them. Their searches
//! can run a slice at a time ([`searches`]), so that the game never waits for them.
//!
//! The JSON form is one array of puzzles per file (see [`to_json`] and [`from_json`]), each
//! puzzle on one line, fields as in [`Puzzle`]; `alts` and `gain` are left out when empty.

pub mod from_game;
pub mod generate;
pub mod rating;
pub mod searches;
pub mod themes;
pub mod verify;

use crate::eval::SearchGame;
use ludus_rules::{AnyGame, AnyPosition, Outcome, Reason, Side, Variant, alquerque, latrunculi};
use serde::{Deserialize, Serialize};

/// The most player moves in a solution.
pub const MAX_STEPS: usize = 5;

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// A stable name within its set, such as `lq-0042`.
    pub id: String,
    /// The game: `latrunculi`, `latrunculi-quick` or `alquerque`.
    #[serde(with = "variant_name")]
    pub game: Variant,
    /// The start position in the rules' notation (its side to move is the player).
    pub fen: String,
    /// The player's letter as the notation writes it: `r`, `b` (Latrunculi), `w`, `b`
    /// (Alquerque).
    pub side: String,
    /// The solution: player move, opponent's reply, ..., player move, in notation.
    pub line: Vec<String>,
    /// Alternatives accepted at each player step (empty, or one list per player step).
    #[serde(default, skip_serializing_if = "no_alternatives")]
    pub alts: Vec<Vec<String>>,
    /// What the solution achieves.
    pub kind: Kind,
    /// The pieces won net by the line ([`Kind::Material`] only; 0 otherwise).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub gain: u32,
    /// The themes, computed from the solution by [`themes::compute`].
    pub themes: Vec<Theme>,
    /// The starting rating (see [`rating`]).
    pub rating: u32,
}

/// What a puzzle's solution achieves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A forced win by shutting in the enemy king (`KingImmobilised`).
    WinKing,
    /// A forced win by taking the opponent's last soldier or piece (`OnlyKingLeft`, `NoPieces`).
    WinPieces,
    /// A forced win by leaving the opponent no legal move (`NoLegalMove`).
    WinNoMoves,
    /// Material won by force: [`Puzzle::gain`] pieces net.
    Material,
    /// The only move that does not lose by force (Latrunculi).
    Defence,
    /// The only move that holds the draw, by the endgame tables (Alquerque).
    Draw,
}

impl Kind {
    /// Whether the solution ends the game with the player's win.
    pub fn is_win(self) -> bool {
        matches!(self, Kind::WinKing | Kind::WinPieces | Kind::WinNoMoves)
    }

    /// The kind of win an outcome is, for `player`.
    pub fn of_win(outcome: Outcome, player: Side) -> Option<Kind> {
        if outcome.winner != Some(player) {
            return None;
        }
        match outcome.reason {
            Reason::KingImmobilised => Some(Kind::WinKing),
            Reason::OnlyKingLeft | Reason::NoPieces => Some(Kind::WinPieces),
            Reason::NoLegalMove => Some(Kind::WinNoMoves),
            _ => None,
        }
    }

    /// The name in the JSON form.
    pub fn name(self) -> &'static str {
        match self {
            Kind::WinKing => "win-king",
            Kind::WinPieces => "win-pieces",
            Kind::WinNoMoves => "win-no-moves",
            Kind::Material => "material",
            Kind::Defence => "defence",
            Kind::Draw => "draw",
        }
    }
}

/// A puzzle's themes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// Several captures in a row: an Alquerque chain of two or more jumps by the player, or
    /// player captures on two player moves of the line.
    Chain,
    /// Latrunculi: a player move of the line captures (a custodian capture).
    Sandwich,
    /// Latrunculi: the line shuts in the enemy king, or takes away its free sides.
    KingHunt,
    /// The opponent captures in the line: the player gives material to get more.
    Sacrifice,
    /// Saving the game: [`Kind::Defence`] and [`Kind::Draw`].
    Defence,
    /// Few pieces on the board (see [`themes::is_endgame`]).
    Endgame,
}

impl Theme {
    /// Every theme, in order.
    pub const ALL: [Theme; 6] =
        [Theme::Chain, Theme::Sandwich, Theme::KingHunt, Theme::Sacrifice, Theme::Defence, Theme::Endgame];
}

/// What is wrong with a puzzle file or a puzzle's position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// The file is not a JSON array of puzzles.
    #[error("bad puzzle file: {0}")]
    Json(String),
    /// A puzzle's position or move does not read.
    #[error("puzzle {id}: {reason}")]
    Bad {
        /// The puzzle's id.
        id: String,
        /// What is wrong.
        reason: String,
    },
}

impl Puzzle {
    /// The start position, read from [`Puzzle::fen`].
    pub fn position(&self) -> Result<AnyPosition, PuzzleError> {
        AnyPosition::parse(self.game, &self.fen).map_err(|e| PuzzleError::Bad {
            id: self.id.clone(),
            reason: format!("bad position '{}': {e}", self.fen),
        })
    }

    /// A game from the start position.
    pub fn game(&self) -> Result<AnyGame, PuzzleError> {
        Ok(AnyGame::from_position(self.position()?))
    }

    /// The number of player moves in the line.
    pub fn steps(&self) -> usize {
        self.line.len().div_ceil(2)
    }

    /// The alternatives at player step `step` (0-based).
    pub fn alternatives(&self, step: usize) -> &[String] {
        self.alts.get(step).map_or(&[], Vec::as_slice)
    }

    /// Whether `mv` (notation) is a correct answer at player step `step`.
    pub fn accepts(&self, step: usize, mv: &str) -> bool {
        self.line.get(2 * step).is_some_and(|m| m == mv) || self.alternatives(step).iter().any(|m| m == mv)
    }
}

/// The letter of the side to move in a position's notation.
pub fn side_letter(variant: Variant, side: Side) -> &'static str {
    match (variant.is_latrunculi(), side) {
        (true, Side::First) => "r",
        (false, Side::First) => "w",
        (_, Side::Second) => "b",
    }
}

/// The notation of a position with its no-capture counter set to 0 (a puzzle's start).
pub fn puzzle_fen(pos: &AnyPosition) -> String {
    let s = pos.to_string();
    let mut fields = s.split_whitespace();
    let board = fields.next().unwrap_or_default();
    let side = fields.next().unwrap_or_default();
    format!("{board} {side}")
}

/// A game the puzzle code can search: the engine's [`SearchGame`] with the pieces of each side.
pub trait PuzzleGame: SearchGame {
    /// The pieces of each side (Latrunculi counts its kings, which are never taken).
    fn material(&self) -> [u32; 2];

    /// `side`'s pieces minus the other side's.
    fn balance(&self, side: Side) -> i32 {
        let m = self.material();
        m[side.index()] as i32 - m[side.opponent().index()] as i32
    }
}

impl PuzzleGame for latrunculi::Position {
    fn material(&self) -> [u32; 2] {
        latrunculi::Position::material(self)
    }
}

impl PuzzleGame for alquerque::Position {
    fn material(&self) -> [u32; 2] {
        alquerque::Position::material(self)
    }
}

/// The JSON form of a set: an array, one puzzle per line.
pub fn to_json(puzzles: &[Puzzle]) -> String {
    let mut out = String::from("[\n");
    for (i, p) in puzzles.iter().enumerate() {
        // A puzzle of plain strings and numbers always serialises.
        out.push_str(&serde_json::to_string(p).unwrap_or_default());
        out.push_str(if i + 1 < puzzles.len() { ",\n" } else { "\n" });
    }
    out.push_str("]\n");
    out
}

/// Reads a set written by [`to_json`] (or any JSON array of puzzles). Positions and moves are
/// not checked here: [`verify`] does that.
pub fn from_json(text: &str) -> Result<Vec<Puzzle>, PuzzleError> {
    serde_json::from_str(text).map_err(|e| PuzzleError::Json(e.to_string()))
}

fn no_alternatives(alts: &[Vec<String>]) -> bool {
    alts.iter().all(Vec::is_empty)
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The game's command-line name in the JSON form.
mod variant_name {
    use ludus_rules::Variant;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Variant, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let name = String::deserialize(d)?;
        Variant::parse(&name).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip() {
        let p = Puzzle {
            id: "a-1".into(),
            game: Variant::Alquerque,
            fen: "5/3B1/5/1B3/W1W2 w".into(),
            side: "w".into(),
            line: vec!["a1xc3xe5".into()],
            alts: vec![vec![]],
            kind: Kind::WinPieces,
            gain: 0,
            themes: vec![Theme::Chain, Theme::Endgame],
            rating: 800,
        };
        let text = to_json(std::slice::from_ref(&p));
        assert!(!text.contains("alts") && !text.contains("gain"), "{text}");
        assert!(
            text.contains("\"game\":\"alquerque\"") && text.contains("\"kind\":\"win-pieces\""),
            "{text}"
        );
        let back = from_json(&text).unwrap();
        assert_eq!(back[0].line, p.line);
        assert!(back[0].alts.is_empty());
        assert!(from_json("[{\"id\":1}]").is_err());
        assert!(from_json("not json").is_err());
    }
}
