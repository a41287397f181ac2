//! Perft: the number of distinct move sequences of a given length, the rules' own test.

use crate::position::GamePosition;
use crate::repetition::is_threefold;

fn inner<P: GamePosition>(history: &mut Vec<P>, depth: u32, buffers: &mut [Vec<P::Move>]) -> u64 {
    let pos = *history.last().expect("history holds the root");
    if depth == 1 {
        return pos.count_moves();
    }
    let (buf, rest) = buffers.split_first_mut().expect("one buffer per ply");
    pos.generate_moves(buf);
    let mut total = 0;
    for mv in buf.iter() {
        let child = pos.play_unchecked(mv);
        history.push(child);
        // A move that ends the game ends its sequence; "no legal move" gives 0 below anyway.
        if child.rule_outcome(is_threefold(history)).is_none() {
            total += inner(history, depth - 1, rest);
        }
        history.pop();
    }
    total
}

/// The number of move sequences of exactly `depth` plies from `root`, which has no history
/// before it. A move that ends the game counts only as the last ply of a sequence; a root that
/// is already over has none.
pub fn perft<P: GamePosition>(root: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if root.outcome(false).is_some() {
        return 0;
    }
    let mut history = Vec::with_capacity(depth as usize + 1);
    history.push(*root);
    let mut buffers: Vec<Vec<P::Move>> = (0..depth).map(|_| Vec::with_capacity(128)).collect();
    inner(&mut history, depth, &mut buffers)
}

/// Perft for each root move: `(move, count)` in move-generation order.
pub fn perft_divide<P: GamePosition>(root: &P, depth: u32) -> Vec<(P::Move, u64)> {
    if depth == 0 || root.outcome(false).is_some() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut buffers: Vec<Vec<P::Move>> = (0..depth).map(|_| Vec::with_capacity(128)).collect();
    for mv in root.legal_moves() {
        let child = root.play_unchecked(&mv);
        let mut history = vec![*root, child];
        let count = if depth == 1 {
            1
        } else if child.rule_outcome(false).is_some() {
            0
        } else {
            inner(&mut history, depth - 1, &mut buffers)
        };
        out.push((mv, count));
    }
    out
}
