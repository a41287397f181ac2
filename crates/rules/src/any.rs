//! Both games behind one type, for the user interface, the network and the command line.

use crate::error::{IllegalMove, ParseError, Problem, RecordError};
use crate::game::Game;
use crate::position::{GamePosition, Outcome, Side};
use crate::square::Square;
use crate::{alquerque, latrunculi};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The games (and variants) Ludus plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Variant {
    /// Latrunculi on the standard 12x8 board.
    Latrunculi,
    /// Latrunculi on the quick 8x8 board.
    LatrunculiQuick,
    /// Alquerque on its 5x5 board of lines.
    Alquerque,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 3] = [Variant::Latrunculi, Variant::LatrunculiQuick, Variant::Alquerque];

    /// The command-line name: `latrunculi`, `latrunculi-quick` or `alquerque`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Latrunculi => "latrunculi",
            Variant::LatrunculiQuick => "latrunculi-quick",
            Variant::Alquerque => "alquerque",
        }
    }

    /// Reads a command-line name.
    pub fn parse(s: &str) -> Result<Variant, ParseError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| ParseError::new(Problem::UnknownGame { text: s.to_string() }))
    }

    /// Whether this is one of the Latrunculi variants.
    pub fn is_latrunculi(self) -> bool {
        !matches!(self, Variant::Alquerque)
    }

    /// The start position.
    pub fn start(self) -> AnyPosition {
        match self {
            Variant::Latrunculi => AnyPosition::Latrunculi(latrunculi::Position::standard()),
            Variant::LatrunculiQuick => AnyPosition::Latrunculi(latrunculi::Position::quick()),
            Variant::Alquerque => AnyPosition::Alquerque(alquerque::Position::start()),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece as the board shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    /// Whose piece it is.
    pub side: Side,
    /// Whether it is a Latrunculi king.
    pub king: bool,
}

macro_rules! both {
    ($value:expr, $x:ident => $body:expr) => {
        match $value {
            Self::Latrunculi($x) => $body,
            Self::Alquerque($x) => $body,
        }
    };
}

/// A position of either game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyPosition {
    /// A Latrunculi position (any size).
    Latrunculi(latrunculi::Position),
    /// An Alquerque position.
    Alquerque(alquerque::Position),
}

impl AnyPosition {
    /// The variant this position is played in: Latrunculi on 8x8 is the quick one, any other
    /// Latrunculi size the standard.
    pub fn variant(&self) -> Variant {
        match self {
            AnyPosition::Latrunculi(_) if self.width() == 8 && self.height() == 8 => Variant::LatrunculiQuick,
            AnyPosition::Latrunculi(_) => Variant::Latrunculi,
            AnyPosition::Alquerque(_) => Variant::Alquerque,
        }
    }

    /// Reads a position of the game `variant` (a Latrunculi board's size comes from the string).
    pub fn parse(variant: Variant, s: &str) -> Result<AnyPosition, ParseError> {
        Ok(if variant.is_latrunculi() {
            AnyPosition::Latrunculi(s.parse()?)
        } else {
            AnyPosition::Alquerque(s.parse()?)
        })
    }

    /// Number of files.
    pub fn width(&self) -> u8 {
        match self {
            AnyPosition::Latrunculi(p) => p.width(),
            AnyPosition::Alquerque(_) => alquerque::SIZE,
        }
    }

    /// Number of ranks.
    pub fn height(&self) -> u8 {
        match self {
            AnyPosition::Latrunculi(p) => p.height(),
            AnyPosition::Alquerque(_) => alquerque::SIZE,
        }
    }

    /// What stands on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self {
            AnyPosition::Latrunculi(p) => p.piece_at(sq).map(|(side, king)| Piece { side, king }),
            AnyPosition::Alquerque(p) => p.piece_at(sq).map(|side| Piece { side, king: false }),
        }
    }

    /// Every piece with its square.
    pub fn pieces(&self) -> Vec<(Square, Piece)> {
        let n = self.width() * self.height();
        (0..n).filter_map(|i| self.piece_at(Square(i)).map(|p| (Square(i), p))).collect()
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        both!(self, p => p.side_to_move())
    }

    /// Plies since the last capture.
    pub fn clock(&self) -> u16 {
        both!(self, p => p.clock())
    }

    /// The Zobrist hash.
    pub fn hash(&self) -> u64 {
        both!(self, p => p.hash())
    }

    /// Every legal move (the position's own rules; see [`AnyGame`] for the end of the game).
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        match self {
            AnyPosition::Latrunculi(p) => p.legal_moves().into_iter().map(AnyMove::Latrunculi).collect(),
            AnyPosition::Alquerque(p) => p.legal_moves().into_iter().map(AnyMove::Alquerque).collect(),
        }
    }

    /// Writes a move in notation; `None` if the move belongs to the other game.
    pub fn move_to_string(&self, mv: &AnyMove) -> Option<String> {
        match (self, mv) {
            (AnyPosition::Latrunculi(p), AnyMove::Latrunculi(m)) => Some(p.move_to_string(m)),
            (AnyPosition::Alquerque(p), AnyMove::Alquerque(m)) => Some(p.move_to_string(m)),
            _ => None,
        }
    }

    /// Reads a move in notation, checked against the legal moves.
    pub fn parse_move(&self, s: &str) -> Result<AnyMove, ParseError> {
        Ok(match self {
            AnyPosition::Latrunculi(p) => AnyMove::Latrunculi(p.parse_move(s)?),
            AnyPosition::Alquerque(p) => AnyMove::Alquerque(p.parse_move(s)?),
        })
    }

    /// The position after `mv`, if it is legal here.
    pub fn try_play(&self, mv: &AnyMove) -> Result<AnyPosition, IllegalMove> {
        match (self, mv) {
            (AnyPosition::Latrunculi(p), AnyMove::Latrunculi(m)) => {
                p.try_play(m).map(AnyPosition::Latrunculi)
            }
            (AnyPosition::Alquerque(p), AnyMove::Alquerque(m)) => p.try_play(m).map(AnyPosition::Alquerque),
            _ => Err(IllegalMove { notation: format!("{mv:?}"), position: self.to_string() }),
        }
    }

    /// Perft from this position (see [`crate::perft`]).
    pub fn perft(&self, depth: u32) -> u64 {
        both!(self, p => crate::perft(p, depth))
    }

    /// Perft for each root move, with the move in notation.
    pub fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        both!(self, p => crate::perft_divide(p, depth)
            .into_iter()
            .map(|(m, n)| (p.move_to_string(&m), n))
            .collect())
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        both!(self, p => p.fmt(f))
    }
}

/// A move of either game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AnyMove {
    /// A Latrunculi slide.
    Latrunculi(latrunculi::Move),
    /// An Alquerque step or capture path.
    Alquerque(alquerque::Move),
}

impl AnyMove {
    /// Where the piece starts.
    pub fn from(&self) -> Square {
        both!(self, m => m.from())
    }

    /// Where the piece ends.
    pub fn to(&self) -> Square {
        both!(self, m => m.to())
    }

    /// Every landing point in order (one for a slide or a step).
    pub fn path(&self) -> Vec<Square> {
        match self {
            AnyMove::Latrunculi(m) => vec![m.to()],
            AnyMove::Alquerque(m) => m.path().collect(),
        }
    }

    /// The captured squares, in order.
    pub fn captured(&self) -> Vec<Square> {
        match self {
            AnyMove::Latrunculi(m) => m.captured().collect(),
            AnyMove::Alquerque(m) => m.captured(),
        }
    }

    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        both!(self, m => m.is_capture())
    }
}

/// A game record in notation, the form in which games are saved and sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Which game.
    pub variant: Variant,
    /// The start position in notation.
    pub start: String,
    /// The moves in notation.
    pub moves: Vec<String>,
    /// An ending from outside the rules (resignation, time, abandonment, agreed draw), if any.
    #[serde(default)]
    pub ending: Option<Outcome>,
}

/// A game of either kind.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// A Latrunculi game.
    Latrunculi(Game<latrunculi::Position>),
    /// An Alquerque game.
    Alquerque(Game<alquerque::Position>),
}

impl AnyGame {
    /// A new game of `variant` from its start.
    pub fn new(variant: Variant) -> AnyGame {
        AnyGame::from_position(variant.start())
    }

    /// A new game from any position.
    pub fn from_position(start: AnyPosition) -> AnyGame {
        match start {
            AnyPosition::Latrunculi(p) => AnyGame::Latrunculi(Game::new(p)),
            AnyPosition::Alquerque(p) => AnyGame::Alquerque(Game::new(p)),
        }
    }

    /// The variant: Latrunculi on 8x8 is the quick one, any other Latrunculi size the standard.
    pub fn variant(&self) -> Variant {
        match self {
            AnyGame::Latrunculi(g) if g.start().width() == 8 && g.start().height() == 8 => {
                Variant::LatrunculiQuick
            }
            AnyGame::Latrunculi(_) => Variant::Latrunculi,
            AnyGame::Alquerque(_) => Variant::Alquerque,
        }
    }

    /// The current position.
    pub fn position(&self) -> AnyPosition {
        match self {
            AnyGame::Latrunculi(g) => AnyPosition::Latrunculi(*g.position()),
            AnyGame::Alquerque(g) => AnyPosition::Alquerque(*g.position()),
        }
    }

    /// The start position.
    pub fn start(&self) -> AnyPosition {
        self.position_at(0)
    }

    /// The position after `ply` moves (0 is the start); clamped to the current one.
    pub fn position_at(&self, ply: usize) -> AnyPosition {
        match self {
            AnyGame::Latrunculi(g) => AnyPosition::Latrunculi(g.positions()[ply.min(g.moves().len())]),
            AnyGame::Alquerque(g) => AnyPosition::Alquerque(g.positions()[ply.min(g.moves().len())]),
        }
    }

    /// The moves played so far.
    pub fn moves(&self) -> Vec<AnyMove> {
        match self {
            AnyGame::Latrunculi(g) => g.moves().iter().copied().map(AnyMove::Latrunculi).collect(),
            AnyGame::Alquerque(g) => g.moves().iter().copied().map(AnyMove::Alquerque).collect(),
        }
    }

    /// Number of moves played.
    pub fn ply(&self) -> usize {
        both!(self, g => g.moves().len())
    }

    /// The moves in notation.
    pub fn move_strings(&self) -> Vec<String> {
        both!(self, g => g.move_strings())
    }

    /// The legal moves (none once the game is over).
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        if self.is_over() { Vec::new() } else { self.position().legal_moves() }
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        both!(self, g => g.outcome())
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        both!(self, g => g.side_to_move())
    }

    /// How many times the current position has occurred.
    pub fn repetitions(&self) -> usize {
        both!(self, g => g.repetitions())
    }

    /// Plays a legal move; anything else changes nothing.
    pub fn play(&mut self, mv: &AnyMove) -> Result<Option<Outcome>, IllegalMove> {
        match (self, mv) {
            (AnyGame::Latrunculi(g), AnyMove::Latrunculi(m)) => g.play(m),
            (AnyGame::Alquerque(g), AnyMove::Alquerque(m)) => g.play(m),
            (g, m) => Err(IllegalMove { notation: format!("{m:?}"), position: g.position().to_string() }),
        }
    }

    /// Reads a move in notation and plays it.
    pub fn play_str(&mut self, s: &str) -> Result<Option<Outcome>, ParseError> {
        both!(self, g => g.play_str(s))
    }

    /// Takes back the last move and any ending.
    pub fn undo(&mut self) -> Option<AnyMove> {
        match self {
            AnyGame::Latrunculi(g) => g.undo().map(AnyMove::Latrunculi),
            AnyGame::Alquerque(g) => g.undo().map(AnyMove::Alquerque),
        }
    }

    /// Ends the game from outside the rules; fails if it is already over.
    pub fn end(&mut self, outcome: Outcome) -> Result<(), Outcome> {
        both!(self, g => g.end(outcome))
    }

    /// Withdraws a resignation or other ending from outside the rules.
    pub fn withdraw_ending(&mut self) -> bool {
        both!(self, g => g.withdraw_ending())
    }

    /// The record of this game, in notation.
    pub fn record(&self) -> GameRecord {
        let ending = both!(self, g => if g.ended_externally() { g.outcome() } else { None });
        GameRecord {
            variant: self.variant(),
            start: self.start().to_string(),
            moves: self.move_strings(),
            ending,
        }
    }

    /// Rebuilds a game from its record, checking every move.
    pub fn from_record(record: &GameRecord) -> Result<AnyGame, RecordError> {
        let mut game = if record.variant.is_latrunculi() {
            AnyGame::Latrunculi(Game::from_notation(&record.start, &record.moves)?)
        } else {
            AnyGame::Alquerque(Game::from_notation(&record.start, &record.moves)?)
        };
        if let Some(ending) = record.ending {
            game.end(ending).map_err(|o| RecordError::Ending(format!("the game had already ended: {o}")))?;
        }
        Ok(game)
    }
}

impl Serialize for AnyGame {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.record().serialize(s)
    }
}

impl<'de> Deserialize<'de> for AnyGame {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let record = GameRecord::deserialize(d)?;
        AnyGame::from_record(&record).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_knows_its_variant_as_its_game_does() {
        for variant in Variant::ALL {
            let mut game = AnyGame::new(variant);
            assert_eq!(game.position().variant(), variant);
            let mv = game.legal_moves()[0];
            game.play(&mv).unwrap();
            assert_eq!(game.position().variant(), game.variant());
        }
    }
}
