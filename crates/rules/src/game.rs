//! The record of one game: the start, the moves, every position since (for repetition), and
//! how it ended.

use crate::error::{IllegalMove, ParseError, Problem, RecordError};
use crate::position::{GamePosition, Outcome, Side};

/// A game in progress or finished: start position, moves, positions seen, outcome.
#[derive(Clone, Debug)]
pub struct Game<P: GamePosition> {
    /// `positions[0]` is the start; `positions[i]` follows `moves[i - 1]`.
    positions: Vec<P>,
    moves: Vec<P::Move>,
    outcome: Option<Outcome>,
    /// Whether `outcome` came from outside the rules (resignation, time, abandonment, agreement).
    external: bool,
}

impl<P: GamePosition> Game<P> {
    /// A new game from `start`. If `start` is already over (a king immobilised, say), the
    /// game is over from the first moment.
    pub fn new(start: P) -> Game<P> {
        let outcome = start.outcome(false);
        Game { positions: vec![start], moves: Vec::new(), outcome, external: false }
    }

    /// The start position.
    pub fn start(&self) -> &P {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &P {
        self.positions.last().expect("a game always has its start position")
    }

    /// Every position from the start to the current one.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.position().side_to_move()
    }

    /// The legal moves, none once the game is over.
    pub fn legal_moves(&self) -> Vec<P::Move> {
        if self.is_over() { Vec::new() } else { self.position().legal_moves() }
    }

    /// How many times the current position has occurred (1 the first time). Only positions
    /// since the last capture can be equal, and only with the same side to move.
    pub fn repetitions(&self) -> usize {
        crate::repetition::occurrences(&self.positions)
    }

    /// Plays a legal move; an illegal move, or any move after the end, changes nothing.
    pub fn play(&mut self, mv: &P::Move) -> Result<Option<Outcome>, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove {
                notation: self.position().move_to_string(mv),
                position: format!("{} (the game is over)", self.position()),
            });
        }
        let next = self.position().try_play(mv)?;
        self.positions.push(next);
        self.moves.push(*mv);
        self.outcome = next.outcome(crate::repetition::is_threefold(&self.positions));
        Ok(self.outcome)
    }

    /// Reads a move in notation and plays it.
    pub fn play_str(&mut self, s: &str) -> Result<Option<Outcome>, ParseError> {
        if self.is_over() {
            return Err(ParseError::new(Problem::GameOver));
        }
        let mv = self.position().parse_move(s)?;
        self.play(&mv).map_err(|e| ParseError::new(Problem::Illegal { notation: e.notation }))
    }

    /// Takes back the last move and any ending; returns the move, or `None` at the start.
    pub fn undo(&mut self) -> Option<P::Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.external = false;
        self.outcome = self.rule_outcome_now();
        Some(mv)
    }

    /// Withdraws an ending from outside the rules (a resignation), keeping every move.
    /// Returns whether there was one.
    pub fn withdraw_ending(&mut self) -> bool {
        if !self.external {
            return false;
        }
        self.external = false;
        self.outcome = self.rule_outcome_now();
        true
    }

    fn rule_outcome_now(&self) -> Option<Outcome> {
        if self.moves.is_empty() {
            self.position().outcome(false)
        } else {
            self.position().outcome(crate::repetition::is_threefold(&self.positions))
        }
    }

    /// Ends the game from outside the rules (resignation, time, abandonment, a draw by
    /// agreement: `Outcome::draw(Reason::Agreement)`). Fails if the game is already over.
    pub fn end(&mut self, outcome: Outcome) -> Result<(), Outcome> {
        match self.outcome {
            Some(o) => Err(o),
            None => {
                self.outcome = Some(outcome);
                self.external = true;
                Ok(())
            }
        }
    }

    /// Whether the outcome came from outside the rules.
    pub fn ended_externally(&self) -> bool {
        self.external
    }

    /// The moves in notation.
    pub fn move_strings(&self) -> Vec<String> {
        self.moves.iter().zip(&self.positions).map(|(m, p)| p.move_to_string(m)).collect()
    }

    /// Rebuilds a game from a start position and moves in notation, checking every move.
    pub fn from_notation(start: &str, moves: &[String]) -> Result<Game<P>, RecordError> {
        let start = P::parse(start).map_err(RecordError::Position)?;
        let mut game = Game::new(start);
        for (i, m) in moves.iter().enumerate() {
            if game.is_over() {
                return Err(RecordError::MoveAfterEnd { ply: i + 1 });
            }
            game.play_str(m).map_err(|error| RecordError::Move { ply: i + 1, error })?;
        }
        Ok(game)
    }
}
