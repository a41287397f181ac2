//! What a tap on the board means: select a piece, extend an Alquerque chain, or play a move.
//! Pure logic over the legal moves, so it is tested without a window.

use bevy::prelude::*;
use ludus_rules::{AnyMove, Square};

/// A selected piece and, in an Alquerque chain, the landing points tapped so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The selected piece's square.
    pub from: Square,
    /// Landing points tapped so far.
    pub partial: Vec<Square>,
}

/// The current selection on the board.
#[derive(Resource, Default, Debug, Clone)]
pub struct Selected(pub Option<Selection>);

/// What a tap does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tap {
    /// Select (or re-select) a piece, or extend a chain.
    Select(Selection),
    /// Play this move.
    Play(AnyMove),
    /// Clear the selection.
    Cancel,
}

/// The legal moves that start at the selection and follow its partial path.
pub fn candidates<'a>(legal: &'a [AnyMove], sel: &'a Selection) -> impl Iterator<Item = &'a AnyMove> + 'a {
    legal.iter().filter(move |m| {
        let path = m.path();
        m.from() == sel.from && path.len() > sel.partial.len() && path[..sel.partial.len()] == sel.partial[..]
    })
}

/// The points that can be tapped next: the next landing point of every candidate move.
pub fn destinations(legal: &[AnyMove], sel: &Selection) -> Vec<Square> {
    let mut out: Vec<Square> = candidates(legal, sel).map(|m| m.path()[sel.partial.len()]).collect();
    out.sort();
    out.dedup();
    out
}

/// Whether a piece on `sq` has a legal move.
pub fn movable(legal: &[AnyMove], sq: Square) -> bool {
    legal.iter().any(|m| m.from() == sq)
}

/// What tapping `sq` does, given the legal moves and the current selection.
pub fn tap(legal: &[AnyMove], current: Option<&Selection>, sq: Square) -> Tap {
    if let Some(sel) = current {
        let cands: Vec<&AnyMove> = candidates(legal, sel).collect();
        let depth = sel.partial.len();
        // The tapped point completes a path exactly.
        if let Some(m) = cands.iter().find(|m| {
            let p = m.path();
            p.len() == depth + 1 && p[depth] == sq
        }) {
            return Tap::Play(**m);
        }
        // The tapped point is the next landing point of one or more longer paths.
        let through: Vec<&&AnyMove> = cands.iter().filter(|m| m.path()[depth] == sq).collect();
        if through.len() == 1 {
            return Tap::Play(**through[0]);
        }
        if !through.is_empty() {
            let mut partial = sel.partial.clone();
            partial.push(sq);
            return Tap::Select(Selection { from: sel.from, partial });
        }
        // Only one path leads to the tapped point as its end: the final point tapped directly.
        let ending_here: Vec<&&AnyMove> = cands.iter().filter(|m| m.to() == sq).collect();
        if ending_here.len() == 1 {
            return Tap::Play(**ending_here[0]);
        }
        if sq == sel.from && sel.partial.is_empty() {
            return Tap::Cancel;
        }
    }
    if movable(legal, sq) {
        return Tap::Select(Selection { from: sq, partial: Vec::new() });
    }
    Tap::Cancel
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_rules::{AnyPosition, Variant};

    #[test]
    fn latrunculi_selection_offers_every_slide() {
        let pos = Variant::Latrunculi.start();
        let legal = pos.legal_moves();
        let g2 = Square::parse("g2", 12, 8).unwrap();
        let Tap::Select(sel) = tap(&legal, None, g2) else { panic!("king should be selectable") };
        let dests = destinations(&legal, &sel);
        let expected: Vec<Square> = {
            let mut v: Vec<Square> = legal.iter().filter(|m| m.from() == g2).map(|m| m.to()).collect();
            v.sort();
            v
        };
        assert_eq!(dests, expected);
        assert_eq!(dests.len(), 5 + 11); // g3 to g7 (g8 is taken), and the eleven other files of rank 2
        let g5 = Square::parse("g5", 12, 8).unwrap();
        assert!(matches!(tap(&legal, Some(&sel), g5), Tap::Play(m) if m.to() == g5));
        let _ = AnyPosition::parse;
    }
}
