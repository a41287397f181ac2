//! Repetition, the one place it is counted: for the game's record ([`crate::Game`]), perft and
//! the search (which keeps a stack of the positions on its line).

use crate::position::GamePosition;

/// How many times the last position of `history` occurs in it (1 the first time). Only the
/// positions since the last capture (the no-capture counter) can be equal, and only those with
/// the same side to move; positions compare exactly (the counter aside).
pub fn occurrences<P: GamePosition>(history: &[P]) -> usize {
    let Some(current) = history.last() else {
        return 0;
    };
    let n = history.len();
    let window = usize::from(current.clock()).min(n - 1);
    history[n - 1 - window..]
        .iter()
        .rev()
        .step_by(2)
        .filter(|p| p.hash() == current.hash() && p.same_position(current))
        .count()
}

/// Whether the last position of `history` occurs there for the third time.
pub fn is_threefold<P: GamePosition>(history: &[P]) -> bool {
    // Equal positions are at least four plies apart (each side must move away and back), so a
    // third occurrence needs eight plies without a capture: most positions stop here.
    let window = history.last().map_or(0, |p| usize::from(p.clock()).min(history.len() - 1));
    window >= 8 && occurrences(history) >= 3
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
}
