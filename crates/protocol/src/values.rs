//! The Alquerque value service's answer (`GET /api/alquerque/value?position=POS` on the
//! server's HTTP side, JSON): a position's proven value for its side to move and that of every
//! legal move, with where each comes from. The server writes it; the game reads it
//! ([`crate::client::ValueRequest`]). See the operator's guide for the fields.

use serde::{Deserialize, Serialize};

/// The path of the value service on the server's HTTP side.
pub const VALUE_PATH: &str = "/api/alquerque/value";

/// A value for the side to move (of a position), or for the side that makes a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueWord {
    /// A win with best play.
    Win,
    /// A draw with best play.
    Draw,
    /// A loss with best play.
    Loss,
    /// Nothing the server holds proves it: never a guess.
    Unknown,
}

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueSource {
    /// The rules: the move ends the game.
    Rules,
    /// The server's endgame tables.
    Tables,
    /// The book of proven values the game ships.
    Book,
    /// A proof of the server's solver.
    Solver,
}

/// One legal move and its value for the side that makes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveValueView {
    /// The move in notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the mover.
    pub value: ValueWord,
    /// Plies to the end with best play, where the tables give a distance.
    pub plies: Option<u16>,
    /// Where the value comes from (none when unknown).
    pub source: Option<ValueSource>,
}

/// What the server knows of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionValueView {
    /// The position asked, without its no-capture counter.
    pub position: String,
    /// Pieces on the board.
    pub pieces: u32,
    /// The value for the side to move.
    pub value: ValueWord,
    /// Plies to the end with best play, where the tables give a distance.
    pub plies: Option<u16>,
    /// Where the value comes from (none when unknown).
    pub source: Option<ValueSource>,
    /// Every legal move, best first.
    pub moves: Vec<MoveValueView>,
    /// The most pieces of the server's tables.
    pub tables_pieces: u32,
}

impl PositionValueView {
    /// The value of the move `mv` (in notation), if the answer lists it.
    pub fn move_value(&self, mv: &str) -> Option<&MoveValueView> {
        self.moves.iter().find(|m| m.mv == mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operators_guide_example_reads() {
        let json = r#"{"position":"2B2/1B3/5/1W1W1/W4 w","pieces":5,"value":"win","plies":23,
            "source":"tables","moves":[{"move":"b2-b3","value":"win","plies":23,"source":"tables"},
            {"move":"a1-a2","value":"draw","plies":null,"source":"tables"},
            {"move":"d3-c3","value":"unknown","plies":null,"source":null}],"tables_pieces":7}"#;
        let v: PositionValueView = serde_json::from_str(json).expect("reads");
        assert_eq!((v.value, v.plies, v.source), (ValueWord::Win, Some(23), Some(ValueSource::Tables)));
        assert_eq!(v.move_value("a1-a2").map(|m| m.value), Some(ValueWord::Draw));
        assert_eq!(v.move_value("d3-c3").map(|m| (m.value, m.source)), Some((ValueWord::Unknown, None)));
        assert!(v.move_value("e5-e4").is_none());
        let again: PositionValueView = serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
        assert_eq!(again, v);
        assert!(serde_json::from_str::<PositionValueView>(r#"{"value":"maybe"}"#).is_err());
    }
}
