//! A puzzle's themes, computed from its start position and solution (never typed by hand).

use super::{Kind, Puzzle, PuzzleError, Theme};
use ludus_rules::{AnyMove, AnyPosition, Variant};

/// Whether a position counts as an endgame: at most a third of the start's pieces are left
/// (12x8: 8 of 26; 8x8: 6 of 18; Alquerque: 8 of 24).
pub fn is_endgame(variant: Variant, pos: &AnyPosition) -> bool {
    let total = |p: &AnyPosition| match p {
        AnyPosition::Latrunculi(p) => p.material().iter().sum::<u32>(),
        AnyPosition::Alquerque(p) => p.material().iter().sum::<u32>(),
    };
    3 * total(pos) <= total(&variant.start())
}

/// The themes of a solution `line` (moves) played from `start` by the side to move, for a
/// puzzle of `kind`, in [`Theme::ALL`] order:
///
/// - [`Theme::Chain`]: a player capture of two or more jumps (Alquerque), or player captures
///   on two or more of the player's moves;
/// - [`Theme::Sandwich`]: a Latrunculi player move that captures (a custodian capture);
/// - [`Theme::KingHunt`]: Latrunculi, the enemy king is shut in, or ends the line with fewer
///   free sides than it had and at most two;
/// - [`Theme::Sacrifice`]: an opponent move of the line captures;
/// - [`Theme::Defence`]: the kind is [`Kind::Defence`] or [`Kind::Draw`];
/// - [`Theme::Endgame`]: [`is_endgame`] at the start.
///
/// The moves must be legal in turn (they are played without checks).
pub fn of_line(variant: Variant, start: &AnyPosition, line: &[AnyMove], kind: Kind) -> Vec<Theme> {
    let player = start.side_to_move();
    let mut pos = *start;
    let (mut chain, mut sandwich, mut sacrifice) = (false, false, false);
    let mut capturing_steps = 0;
    for (i, mv) in line.iter().enumerate() {
        let taken = mv.captured().len();
        if i % 2 == 0 {
            if taken > 0 {
                capturing_steps += 1;
            }
            match mv {
                AnyMove::Alquerque(_) if taken >= 2 => chain = true,
                AnyMove::Latrunculi(_) if taken >= 1 => sandwich = true,
                _ => {}
            }
        } else if taken > 0 {
            sacrifice = true;
        }
        match pos.try_play(mv) {
            Ok(next) => pos = next,
            Err(_) => break,
        }
    }
    chain |= capturing_steps >= 2;
    let liberties = |p: &AnyPosition| match p {
        AnyPosition::Latrunculi(p) => Some(p.king_liberties(player.opponent())),
        AnyPosition::Alquerque(_) => None,
    };
    let king_hunt = kind == Kind::WinKing
        || matches!((liberties(start), liberties(&pos)), (Some(a), Some(b)) if b < a && b <= 2);
    let flags = [
        chain,
        sandwich,
        king_hunt,
        sacrifice,
        matches!(kind, Kind::Defence | Kind::Draw),
        is_endgame(variant, start),
    ];
    Theme::ALL.into_iter().zip(flags).filter(|(_, f)| *f).map(|(t, _)| t).collect()
}

/// The themes of a puzzle, from its position and line (an error if they do not read or play).
pub fn compute(p: &Puzzle) -> Result<Vec<Theme>, PuzzleError> {
    let start = p.position()?;
    let mut pos = start;
    let mut moves = Vec::with_capacity(p.line.len());
    for (i, s) in p.line.iter().enumerate() {
        let bad =
            |e: String| PuzzleError::Bad { id: p.id.clone(), reason: format!("move {} '{s}': {e}", i + 1) };
        let mv = pos.parse_move(s).map_err(|e| bad(e.to_string()))?;
        pos = pos.try_play(&mv).map_err(|e| bad(e.to_string()))?;
        moves.push(mv);
    }
    Ok(of_line(p.game, &start, &moves, p.kind))
}
