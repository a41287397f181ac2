//! Repetition, the one place it is counted: for the game's record ([`crate::Game`]), perft,
//! the puzzles and the search (which keeps a stack of the positions on its line and asks
//! [`repetition`] about its last one).

use crate::position::GamePosition;

/// The indices of the earlier occurrences of the last position of `history`, latest first.
/// Only the positions since the last capture (the no-capture counter) can be equal, and only
/// those with the same side to move; positions compare exactly (the counter aside).
fn earlier<P: GamePosition>(history: &[P]) -> impl Iterator<Item = usize> + '_ {
    let n = history.len();
    let current = history.last();
    let window = current.map_or(0, |p| usize::from(p.clock()).min(n - 1));
    let hash = current.map_or(0, GamePosition::hash);
    (1..=window / 2).map(move |k| n - 1 - 2 * k).filter(move |&i| {
        let p = &history[i];
        current.is_some_and(|c| p.hash() == hash && p.same_position(c))
    })
}

/// How many times the last position of `history` occurs in it (1 the first time, 0 for an
/// empty history).
pub fn occurrences<P: GamePosition>(history: &[P]) -> usize {
    if history.is_empty() {
        return 0;
    }
    1 + earlier(history).count()
}

/// What the last position of a line of play repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// A first occurrence, or a second whose first is before the line.
    None,
    /// A second occurrence whose first is inside the line (at `line_start` or after it).
    InLine,
    /// A third occurrence: the rules' threefold repetition, which ends the game (Latrunculi:
    /// the player who made the move loses; Alquerque: a draw; `rule_outcome` decides).
    Threefold,
}

/// What the last position of `history` repeats, where `line_start` is the index in `history`
/// of the first position of the line of interest (a search's root; the positions before it
/// are the game's). A third occurrence is [`Repetition::Threefold`] wherever the line starts.
pub fn repetition<P: GamePosition>(history: &[P], line_start: usize) -> Repetition {
    let mut in_line = false;
    for (count, i) in earlier(history).enumerate() {
        if count >= 1 {
            return Repetition::Threefold;
        }
        in_line = i >= line_start;
    }
    if in_line { Repetition::InLine } else { Repetition::None }
}

/// Whether the last position of `history` occurs there for the third time.
pub fn is_threefold<P: GamePosition>(history: &[P]) -> bool {
    // Equal positions are at least four plies apart (each side must move away and back), so a
    // third occurrence needs eight plies without a capture: most positions stop here.
    let window = history.last().map_or(0, |p| usize::from(p.clock()).min(history.len() - 1));
    window >= 8 && repetition(history, history.len()) == Repetition::Threefold
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AnyGame, AnyMove, Variant};

    /// The quiet move of the side to move whose way back is quiet too.
    fn there_and_back(game: &AnyGame) -> (AnyMove, AnyMove) {
        for mv in game.legal_moves().into_iter().filter(|m| !m.is_capture()) {
            let mut after = game.clone();
            after.play(&mv).expect("legal");
            // The other side passes through a quiet move of its own first, then this one returns.
            let Some(other) = after.legal_moves().into_iter().find(|m| !m.is_capture()) else { continue };
            after.play(&other).expect("legal");
            if let Some(back) = after
                .legal_moves()
                .into_iter()
                .find(|m| m.from() == mv.to() && m.to() == mv.from() && !m.is_capture())
            {
                return (mv, back);
            }
        }
        panic!("no quiet move with a way back")
    }

    /// Both sides step out and back: the start position comes back every four plies, and its
    /// third occurrence is a threefold repetition.
    #[test]
    fn a_position_counts_each_time_it_comes_back() {
        let mut game = AnyGame::new(Variant::Latrunculi);
        let history = |g: &AnyGame| match g {
            AnyGame::Latrunculi(g) => (occurrences(g.positions()), is_threefold(g.positions())),
            AnyGame::Alquerque(g) => (occurrences(g.positions()), is_threefold(g.positions())),
        };
        assert_eq!(history(&game), (1, false));
        let (a_out, a_back) = there_and_back(&game);
        let mut probe = game.clone();
        probe.play(&a_out).expect("legal");
        let (b_out, b_back) = there_and_back(&probe);
        for round in 2..=3 {
            for mv in [a_out, b_out, a_back, b_back] {
                game.play(&mv).expect("legal");
            }
            assert_eq!(history(&game), (round, round == 3), "after {round} visits");
        }
        assert!(game.is_over(), "a threefold repetition ends the game");
        assert_eq!(game.repetitions(), 3);
    }

    /// A line that comes back to one of its own positions repeats in the line; one that comes
    /// back to a position of the game before the line does not.
    #[test]
    fn a_second_occurrence_is_in_the_line_only_when_the_first_is() {
        let mut game = AnyGame::new(Variant::Latrunculi);
        let (a_out, a_back) = there_and_back(&game);
        let mut probe = game.clone();
        probe.play(&a_out).expect("legal");
        let (b_out, b_back) = there_and_back(&probe);
        for mv in [a_out, b_out, a_back, b_back] {
            game.play(&mv).expect("legal");
        }
        let AnyGame::Latrunculi(g) = &game else { unreachable!() };
        let history = g.positions();
        let n = history.len();
        assert_eq!(repetition(history, 0), Repetition::InLine);
        assert_eq!(repetition(history, 1), Repetition::None, "the first occurrence is before the line");
        assert_eq!(repetition(&history[..n - 1], 0), Repetition::None);
        assert_eq!(occurrences(history), 2);
        assert!(!is_threefold(history));
        assert_eq!(game.repetitions(), 2);
    }
}
