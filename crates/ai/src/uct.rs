//! A plain Monte-Carlo tree search (UCT), the baseline the levels are measured against: UCB1
//! with c = √2, one node added to the tree per iteration, uniformly random playouts to the end
//! of the game under the real rules (repetitions and the no-capture counters included, the
//! game's positions before the root counting for repetitions), and the most visited root move
//! played. The same seed gives the same move.
//!
//! It is a measuring stick for `ludus-cli arena` (`--b uct:8000`), not a level offered to
//! players.

use crate::level::Rng;
use ludus_rules::repetition::is_threefold;
use ludus_rules::{AnyGame, AnyMove, GamePosition, Outcome, Side};

/// The exploration constant of UCB1.
pub const EXPLORATION: f64 = std::f64::consts::SQRT_2;

/// A playout longer than this is scored as a draw (the rules end every game long before: each
/// no-capture run is bounded, and so is the number of captures; this is only a safety net).
const MAX_PLAYOUT_PLIES: usize = 20_000;

struct Node<P: GamePosition> {
    pos: P,
    /// The move that led here (none at the root).
    mv: Option<P::Move>,
    parent: usize,
    children: Vec<usize>,
    /// Moves not yet expanded into children.
    untried: Vec<P::Move>,
    /// The game's end in this position, if the move into it ended the game.
    outcome: Option<Outcome>,
    visits: u32,
    /// Sum of the results for the side that moved into this node (1 a win, 0.5 a draw).
    reward: f64,
}

/// A UCT search of one position.
pub struct Uct<P: GamePosition> {
    nodes: Vec<Node<P>>,
    /// The game's positions since the last capture before the root (for repetitions).
    history: Vec<P>,
    rng: Rng,
    buf: Vec<P::Move>,
    stack: Vec<P>,
}

impl<P: GamePosition> Uct<P> {
    /// A search of `root`; `history` holds the game's positions before it, oldest first (the
    /// root may be its last element).
    pub fn new(root: P, history: &[P], seed: u64) -> Uct<P> {
        let mut hist: Vec<P> = history.to_vec();
        if hist.last().is_some_and(|p| p.same_position(&root)) {
            hist.pop();
        }
        let keep = usize::from(root.clock()).min(hist.len());
        let history = hist[hist.len() - keep..].to_vec();
        let mut stack = history.clone();
        stack.push(root);
        let outcome = root.rule_outcome(is_threefold(&stack));
        let untried = if outcome.is_some() { Vec::new() } else { root.legal_moves() };
        let root_node = Node {
            pos: root,
            mv: None,
            parent: 0,
            children: Vec::new(),
            untried,
            outcome,
            visits: 0,
            reward: 0.0,
        };
        Uct { nodes: vec![root_node], history, rng: Rng::new(seed), buf: Vec::new(), stack: Vec::new() }
    }

    /// Runs `iterations` more iterations.
    pub fn run(&mut self, iterations: u32) {
        for _ in 0..iterations {
            self.iterate();
        }
    }

    /// The most visited root move (ties: the first expanded); `None` without legal moves.
    pub fn best_move(&self) -> Option<P::Move> {
        let root = &self.nodes[0];
        if root.outcome.is_some() {
            return None;
        }
        let mut best: Option<&Node<P>> = None;
        for &c in &root.children {
            let n = &self.nodes[c];
            if best.is_none_or(|b| n.visits > b.visits) {
                best = Some(n);
            }
        }
        best.and_then(|n| n.mv).or_else(|| root.untried.first().copied())
    }

    /// The root's moves with their visits and average result for the side to move.
    pub fn root_stats(&self) -> Vec<(P::Move, u32, f64)> {
        self.nodes[0]
            .children
            .iter()
            .filter_map(|&c| {
                let n = &self.nodes[c];
                Some((n.mv?, n.visits, if n.visits > 0 { n.reward / f64::from(n.visits) } else { 0.0 }))
            })
            .collect()
    }

    fn iterate(&mut self) {
        // Selection, with the line's positions for repetitions.
        self.stack.clear();
        self.stack.extend_from_slice(&self.history);
        self.stack.push(self.nodes[0].pos);
        let mut id = 0;
        while self.nodes[id].outcome.is_none() && self.nodes[id].untried.is_empty() {
            if self.nodes[id].children.is_empty() {
                break; // no legal move: the side to move has lost
            }
            id = self.select_child(id);
            self.stack.push(self.nodes[id].pos);
        }
        // Expansion: one new node.
        if self.nodes[id].outcome.is_none() && !self.nodes[id].untried.is_empty() {
            let n = self.nodes[id].untried.len();
            let k = self.rng.below(n as u64) as usize;
            let mv = self.nodes[id].untried.swap_remove(k);
            let pos = self.nodes[id].pos.play_unchecked(&mv);
            self.stack.push(pos);
            let outcome = pos.rule_outcome(is_threefold(&self.stack));
            let untried = if outcome.is_some() { Vec::new() } else { pos.legal_moves() };
            let child = self.nodes.len();
            self.nodes.push(Node {
                pos,
                mv: Some(mv),
                parent: id,
                children: Vec::new(),
                untried,
                outcome,
                visits: 0,
                reward: 0.0,
            });
            self.nodes[id].children.push(child);
            id = child;
        }
        // Simulation.
        let winner = self.playout(id);
        // Backpropagation: each node's reward is for the side that moved into it.
        let mut n = id;
        loop {
            let node = &mut self.nodes[n];
            node.visits += 1;
            let mover = !node.pos.side_to_move();
            node.reward += match winner {
                Some(w) if w == mover => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            if n == 0 {
                break;
            }
            n = node.parent;
        }
    }

    fn select_child(&self, id: usize) -> usize {
        let parent = &self.nodes[id];
        let log_n = f64::from(parent.visits.max(1)).ln();
        let mut best = parent.children[0];
        let mut best_value = f64::NEG_INFINITY;
        for &c in &parent.children {
            let n = &self.nodes[c];
            let v = f64::from(n.visits);
            let value = n.reward / v + EXPLORATION * (log_n / v).sqrt();
            if value > best_value {
                best_value = value;
                best = c;
            }
        }
        best
    }

    /// Plays uniformly random moves from node `id` to the end; the winner (`None`: a draw).
    fn playout(&mut self, id: usize) -> Option<Side> {
        if let Some(o) = self.nodes[id].outcome {
            return o.winner;
        }
        let mut pos = self.nodes[id].pos;
        for _ in 0..MAX_PLAYOUT_PLIES {
            pos.generate_moves(&mut self.buf);
            if self.buf.is_empty() {
                return Some(!pos.side_to_move());
            }
            let mv = self.buf[self.rng.below(self.buf.len() as u64) as usize];
            pos = pos.play_unchecked(&mv);
            if P::is_capture(&mv) {
                // Nothing before a capture can repeat.
                self.stack.clear();
            }
            self.stack.push(pos);
            if let Some(o) = pos.rule_outcome(is_threefold(&self.stack)) {
                return o.winner;
            }
        }
        None
    }
}

/// UCT's move in `game`'s current position after `iterations` iterations (`None` when the game
/// is over or there is no legal move).
pub fn uct_move(game: &AnyGame, iterations: u32, seed: u64) -> Option<AnyMove> {
    if game.is_over() {
        return None;
    }
    match game {
        AnyGame::Latrunculi(g) => {
            let (root, hist) = g.positions().split_last()?;
            let mut u = Uct::new(*root, hist, seed);
            u.run(iterations);
            u.best_move().map(AnyMove::Latrunculi)
        }
        AnyGame::Alquerque(g) => {
            let (root, hist) = g.positions().split_last()?;
            let mut u = Uct::new(*root, hist, seed);
            u.run(iterations);
            u.best_move().map(AnyMove::Alquerque)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_rules::{AnyPosition, Variant};

    fn game(v: Variant, s: &str) -> AnyGame {
        AnyGame::from_position(AnyPosition::parse(v, s).unwrap())
    }

    #[test]
    fn finds_a_win_in_one() {
        // Latrunculi: h6-c6 takes the black king's last free side (and anything else but a king
        // move lets a8-a2 take the red king's); Alquerque: the only capture wins.
        for (v, pos, win) in [
            (Variant::LatrunculiQuick, "b7/7b/7r/1rBr4/2r5/8/8/Rr6 r", "h6-c6"),
            (Variant::Alquerque, "5/5/2B2/1W3/W4 w", "b2xd4"),
        ] {
            let g = game(v, pos);
            let mv = uct_move(&g, 20_000, 7).unwrap();
            assert_eq!(g.position().move_to_string(&mv).unwrap(), win, "{pos}");
        }
    }

    #[test]
    fn is_deterministic_for_a_seed() {
        let g = AnyGame::new(Variant::LatrunculiQuick);
        let a = uct_move(&g, 300, 42);
        assert_eq!(a, uct_move(&g, 300, 42));
        let g = AnyGame::new(Variant::Alquerque);
        let a = uct_move(&g, 500, 3);
        assert_eq!(a, uct_move(&g, 500, 3));
        let mut u = Uct::new(*g_alq(&g), &[], 3);
        u.run(500);
        let visits: u32 = u.root_stats().iter().map(|s| s.1).sum();
        assert_eq!(visits, 500);
    }

    fn g_alq(g: &AnyGame) -> &ludus_rules::alquerque::Position {
        match g {
            AnyGame::Alquerque(a) => a.positions().last().unwrap(),
            _ => unreachable!(),
        }
    }
}
