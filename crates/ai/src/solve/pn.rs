//! One boolean search: "can `attacker` force a win from the root?", by proof-number search on
//! the game graph with a retrograde closure for cycles.
//!
//! # Proof-number search on the graph
//!
//! Every position reached is one node, whichever path led to it (transpositions are merged): a
//! map from position to node, and each expanded node's children in move order. A node's *proof
//! number* is an estimate of the number of leaves still to prove for the attacker to win, its
//! *disproof number* of those still to disprove; at the attacker's positions (OR nodes) the
//! proof number is the smallest of the children's and the disproof number their sum, at the
//! defender's (AND nodes) the other way round. A new node starts with 1 and its number of
//! legal moves (the 1 on the side of the player to move), or is solved at once: a game end or a
//! table value (exact), or a result of the solved-position table.
//!
//! Each iteration goes down from the root to a most-proving leaf (the child with the smallest
//! proof number at OR nodes, the smallest disproof number at AND nodes), never through a node
//! already on its way down, expands it, and updates the numbers of the nodes on that way back
//! up. A node whose children are all proven (AND) or one proven (OR) is proven on the spot.
//! When the way down is blocked (every unsolved child is already on it), the node is given
//! large numbers so that the next iterations look elsewhere; when that happens a few times in a
//! row, the closure below runs (if the graph has grown since the last one) and the open leaves
//! nearest the root are expanded, a sixty-fourth of the graph at once, so that passes over the
//! whole graph stay a small part of the work.
//!
//! # The closure: exact results on a graph with cycles
//!
//! Numbers are only a guide; results come from two retrograde passes over the graph (as in the
//! tables' generation), run every time the graph has grown by a quarter and when the search is
//! blocked:
//!
//! 1. proofs: the attacker's *attractor* of the proven nodes (an OR node with a child in it, an
//!    AND node with all children in it, repeated until nothing changes) is proven; each OR node
//!    keeps the child that entered first, so following the stored moves always reaches the end
//!    (no cycle);
//! 2. disproofs: the attractor of the proven nodes *and the open leaves* is everything the
//!    attacker might still force; every expanded node outside it is disproven, for good: the
//!    defender can keep the play outside it for ever (at its positions some child is outside,
//!    which is the stored move; at the attacker's all children are). A repetition is a draw, so
//!    play that stays there for ever is no win for the attacker.
//!
//! Both are exact whatever the paths (no graph-history interaction arises: a result is a
//! property of the position in the graph, never of a path), so every result goes into the
//! solved-position table as final. The search ends when the root is solved or the budget of
//! expansions runs out.

use super::table::{NO_MOVE, SavedGraph, SolvedTable, Status};
use super::{SolveError, exact_value, key, position_of, without_counter};
use crate::tablebase::Tablebase;
use ludus_rules::alquerque::{Move, Position};
use ludus_rules::{GamePosition, Side};
use std::collections::{HashMap, VecDeque};

const INF: u32 = u32::MAX;
/// Numbers of a node that blocked the way down (large, but not a result).
const BLOCKED: u32 = INF / 2;
const NONE: u32 = u32::MAX;
/// Blocked ways down in a row before a sweep of open leaves.
const BLOCKS_BEFORE_SWEEP: u32 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Open,
    Inner,
    Proven,
    Disproven,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    key: u64,
    pn: u32,
    dn: u32,
    first: u32,
    count: u32,
    state: State,
    on_path: bool,
}

/// Where a search stands after [`Pn::run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PnStatus {
    /// Not finished: the budget ran out.
    Running,
    /// The attacker can force a win (stored in the solved-position table).
    Proven,
    /// The defender can avoid losing for ever (stored in the solved-position table).
    Disproven,
    /// The graph reached its size limit.
    Full,
}

fn add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF { INF } else { (u64::from(a) + u64::from(b)).min(u64::from(INF - 1)) as u32 }
}

/// A proof-number search on the graph for one attacker (see the module documentation).
pub struct Pn {
    attacker: Side,
    root: Position,
    nodes: Vec<Node>,
    edges: Vec<u32>,
    index: HashMap<u64, u32>,
    expanded: u64,
    last_closure: u64,
    max_nodes: usize,
    blocked_in_a_row: u32,
    moves: Vec<Move>,
}

impl Pn {
    /// A search of `root` for `attacker`, with at most `max_nodes` nodes in its graph.
    pub fn new(root: &Position, attacker: Side, max_nodes: usize) -> Pn {
        Pn {
            attacker,
            root: without_counter(root),
            nodes: Vec::new(),
            edges: Vec::new(),
            index: HashMap::new(),
            expanded: 0,
            last_closure: 0,
            max_nodes: max_nodes.max(1024),
            blocked_in_a_row: 0,
            moves: Vec::new(),
        }
    }

    /// The graph as a state file keeps it (see [`SavedGraph`]).
    pub fn saved(&self) -> SavedGraph {
        let expanded = self.nodes.iter().filter(|n| n.state == State::Inner).map(|n| n.key).collect();
        SavedGraph { root: key(&self.root), attacker: self.attacker, expanded }
    }

    /// Rebuilds the graph of a saved search (of this root and attacker): expands its positions
    /// again, except those solved since. They do not count as expansions of this run.
    pub fn rebuild(
        &mut self,
        saved: &SavedGraph,
        tb: Option<&Tablebase>,
        table: &mut SolvedTable,
    ) -> Result<(), SolveError> {
        if saved.root != key(&self.root) || saved.attacker != self.attacker || !self.nodes.is_empty() {
            return Ok(());
        }
        let root = self.root;
        self.node(&root, tb, table)?;
        for &k in &saved.expanded {
            let Some(pos) = position_of(k) else { continue };
            let i = self.node(&pos, tb, table)?;
            if self.nodes[i as usize].state == State::Open {
                self.expand(i, tb, table)?;
            }
        }
        self.expanded = 0;
        self.closure(table);
        // Numbers from the leaves up, a few rounds (the graph may have cycles).
        for _ in 0..3 {
            let all: Vec<u32> = (0..self.nodes.len() as u32).collect();
            self.update(&all, table);
        }
        self.last_closure = 0;
        Ok(())
    }

    /// Nodes expanded so far.
    pub fn expanded(&self) -> u64 {
        self.expanded
    }

    /// Nodes in the graph.
    pub fn graph_len(&self) -> usize {
        self.nodes.len()
    }

    /// Memory of the graph, in bytes (an estimate).
    pub fn memory_bytes(&self) -> u64 {
        (self.nodes.capacity() * size_of::<Node>() + self.edges.capacity() * 4) as u64
            + self.index.capacity() as u64 * 13
    }

    fn is_or(&self, k: u64) -> bool {
        let side = if k >> 50 & 1 == 0 { Side::First } else { Side::Second };
        side == self.attacker
    }

    /// The node of `pos`, created (and judged when it can be) if new.
    fn node(
        &mut self,
        pos: &Position,
        tb: Option<&Tablebase>,
        table: &SolvedTable,
    ) -> Result<u32, SolveError> {
        let k = key(pos);
        if let Some(&i) = self.index.get(&k) {
            return Ok(i);
        }
        let mut node =
            Node { key: k, pn: 1, dn: 1, first: NONE, count: 0, state: State::Open, on_path: false };
        let solved = match exact_value(pos, tb)? {
            Some(winner) => Some(winner == Some(self.attacker)),
            None => match table.status(k, self.attacker) {
                Status::Proven => Some(true),
                Status::Disproven => Some(false),
                Status::Unknown => None,
            },
        };
        match solved {
            Some(true) => (node.pn, node.dn, node.state) = (0, INF, State::Proven),
            Some(false) => (node.pn, node.dn, node.state) = (INF, 0, State::Disproven),
            None => {
                let n = pos.count_moves().clamp(1, u64::from(BLOCKED - 1)) as u32;
                (node.pn, node.dn) = if pos.side_to_move() == self.attacker { (1, n) } else { (n, 1) };
            }
        }
        let i = self.nodes.len() as u32;
        self.nodes.push(node);
        self.index.insert(k, i);
        Ok(i)
    }

    /// Searches until `budget` more nodes have been expanded or the root is solved.
    pub fn run(
        &mut self,
        budget: u64,
        tb: Option<&Tablebase>,
        table: &mut SolvedTable,
    ) -> Result<PnStatus, SolveError> {
        if self.nodes.is_empty() {
            let root = self.root;
            self.node(&root, tb, table)?;
        }
        let target = self.expanded + budget.max(1);
        loop {
            match self.nodes[0].state {
                State::Proven => return Ok(PnStatus::Proven),
                State::Disproven => return Ok(PnStatus::Disproven),
                _ => {}
            }
            if self.expanded >= target {
                return Ok(PnStatus::Running);
            }
            if self.nodes.len() + 256 > self.max_nodes {
                self.closure(table);
                return Ok(match self.nodes[0].state {
                    State::Proven => PnStatus::Proven,
                    State::Disproven => PnStatus::Disproven,
                    _ => PnStatus::Full,
                });
            }
            if self.expanded >= self.last_closure + (self.last_closure / 4).max(2000) {
                self.closure(table);
                continue;
            }
            let path = self.descend();
            let last = *path.last().expect("the root");
            if self.nodes[last as usize].state == State::Open {
                self.blocked_in_a_row = 0;
                self.expand(last, tb, table)?;
                self.update(&path, table);
                continue;
            }
            // Blocked. Perhaps its children were solved elsewhere: then it is now.
            self.update(&path, table);
            if self.nodes[last as usize].state != State::Inner {
                continue;
            }
            if self.blocked_in_a_row < BLOCKS_BEFORE_SWEEP {
                // Steer the next iterations away from here.
                self.blocked_in_a_row += 1;
                let n = &mut self.nodes[last as usize];
                (n.pn, n.dn) = (BLOCKED, BLOCKED);
                self.update(&path[..path.len() - 1], table);
                continue;
            }
            // Blocked again and again: the passes if the graph has grown since, then a sweep
            // that expands the open leaves nearest the root (a share of the graph, so that the
            // passes over the whole graph stay a small part of the work).
            self.blocked_in_a_row = 0;
            if self.expanded >= self.last_closure + (self.nodes.len() as u64 / 64).max(1000) {
                self.closure(table);
            }
            if self.nodes[0].state == State::Inner {
                let leaves = self.nearest_open((self.nodes.len() / 64).max(256));
                if leaves.is_empty() {
                    self.closure(table);
                }
                for leaf in leaves {
                    if self.nodes[leaf as usize].state == State::Open {
                        self.expand(leaf, tb, table)?;
                        self.update(&[leaf], table);
                    }
                }
            }
        }
    }

    /// The way down from the root to a most-proving open leaf, or to where it is blocked.
    fn descend(&mut self) -> Vec<u32> {
        let mut path = vec![0u32];
        self.nodes[0].on_path = true;
        loop {
            let n = self.nodes[*path.last().expect("the root") as usize];
            if n.state != State::Inner {
                break;
            }
            let or = self.is_or(n.key);
            let mut best: Option<(u32, u32)> = None;
            for &c in &self.edges[n.first as usize..(n.first + n.count) as usize] {
                let k = &self.nodes[c as usize];
                if k.on_path || matches!(k.state, State::Proven | State::Disproven) {
                    continue;
                }
                let v = if or { k.pn } else { k.dn };
                if best.is_none_or(|(b, _)| v < b) {
                    best = Some((v, c));
                }
            }
            let Some((_, c)) = best else { break };
            self.nodes[c as usize].on_path = true;
            path.push(c);
        }
        for &i in &path {
            self.nodes[i as usize].on_path = false;
        }
        path
    }

    /// Up to `k` open leaves, nearest the root first, through unsolved nodes.
    fn nearest_open(&self, k: usize) -> Vec<u32> {
        let mut found = Vec::new();
        let mut seen = vec![false; self.nodes.len()];
        let mut queue = VecDeque::from([0u32]);
        seen[0] = true;
        while let Some(i) = queue.pop_front() {
            let n = &self.nodes[i as usize];
            match n.state {
                State::Open => {
                    found.push(i);
                    if found.len() >= k {
                        break;
                    }
                }
                State::Inner => {
                    for &c in &self.edges[n.first as usize..(n.first + n.count) as usize] {
                        if !seen[c as usize] {
                            seen[c as usize] = true;
                            queue.push_back(c);
                        }
                    }
                }
                _ => {}
            }
        }
        found
    }

    fn expand(&mut self, i: u32, tb: Option<&Tablebase>, table: &SolvedTable) -> Result<(), SolveError> {
        let pos = position_of(self.nodes[i as usize].key).expect("a graph key is a position");
        let mut moves = std::mem::take(&mut self.moves);
        pos.generate_moves(&mut moves);
        let mut kids = Vec::with_capacity(moves.len());
        for mv in &moves {
            let child = without_counter(&pos.play_unchecked(mv));
            kids.push(self.node(&child, tb, table)?);
        }
        self.moves = moves;
        let n = &mut self.nodes[i as usize];
        n.first = self.edges.len() as u32;
        n.count = kids.len() as u32;
        n.state = State::Inner;
        self.edges.extend(kids);
        self.expanded += 1;
        Ok(())
    }

    /// Recomputes the numbers of the nodes of `path` from the leaf up; proves what has a proof.
    fn update(&mut self, path: &[u32], table: &mut SolvedTable) {
        for &i in path.iter().rev() {
            let n = self.nodes[i as usize];
            if n.state != State::Inner {
                continue;
            }
            let kids = &self.edges[n.first as usize..(n.first + n.count) as usize];
            let or = self.is_or(n.key);
            let (mut pn, mut dn) = if or { (INF, 0) } else { (0, INF) };
            let mut win = NO_MOVE;
            let mut hold = NO_MOVE;
            for (m, &c) in kids.iter().enumerate() {
                let k = &self.nodes[c as usize];
                if or {
                    if k.pn < pn {
                        pn = k.pn;
                    }
                    if k.state == State::Proven && win == NO_MOVE {
                        win = m as u16;
                    }
                    dn = add(dn, k.dn);
                } else {
                    pn = add(pn, k.pn);
                    dn = dn.min(k.dn);
                    if k.state == State::Disproven && hold == NO_MOVE {
                        hold = m as u16;
                    }
                }
            }
            let all = |s: State| kids.iter().all(|&c| self.nodes[c as usize].state == s);
            let proven = if or { win != NO_MOVE } else { all(State::Proven) };
            let disproven = if or { all(State::Disproven) } else { hold != NO_MOVE };
            let node = &mut self.nodes[i as usize];
            if proven {
                (node.pn, node.dn, node.state) = (0, INF, State::Proven);
                table.set(n.key, self.attacker, Status::Proven, win);
            } else if disproven {
                (node.pn, node.dn, node.state) = (INF, 0, State::Disproven);
                table.set(n.key, self.attacker, Status::Disproven, hold);
            } else {
                // Keep the numbers of an unsolved node away from the results' 0 and INF.
                (node.pn, node.dn) = (pn.clamp(1, INF - 1), dn.clamp(1, INF - 1));
            }
        }
    }

    /// The two retrograde passes (see the module documentation).
    fn closure(&mut self, table: &mut SolvedTable) {
        self.last_closure = self.expanded;
        let n = self.nodes.len();
        // Parents of every node, as compressed rows.
        let mut start = vec![0u32; n + 1];
        for node in &self.nodes {
            if node.state == State::Inner {
                for &c in &self.edges[node.first as usize..(node.first + node.count) as usize] {
                    start[c as usize + 1] += 1;
                }
            }
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut parents = vec![0u32; start[n] as usize];
        for (p, node) in self.nodes.iter().enumerate() {
            if node.state == State::Inner {
                for &c in &self.edges[node.first as usize..(node.first + node.count) as usize] {
                    parents[fill[c as usize] as usize] = p as u32;
                    fill[c as usize] += 1;
                }
            }
        }
        // An attractor of the attacker from `seed`; returns the membership and, for proofs,
        // stores the new ones.
        let attractor =
            |this: &Pn, seed: &dyn Fn(&Node) -> bool, mut proved: Option<&mut Vec<(u32, u16)>>| {
                let mut inside = vec![false; n];
                let mut left: Vec<u32> = this.nodes.iter().map(|x| x.count).collect();
                let mut queue: VecDeque<u32> = VecDeque::new();
                for (i, node) in this.nodes.iter().enumerate() {
                    if seed(node) {
                        inside[i] = true;
                        queue.push_back(i as u32);
                    }
                }
                while let Some(c) = queue.pop_front() {
                    for &p in &parents[start[c as usize] as usize..start[c as usize + 1] as usize] {
                        if inside[p as usize] {
                            continue;
                        }
                        let pn = &this.nodes[p as usize];
                        let enter = if this.is_or(pn.key) {
                            true
                        } else {
                            left[p as usize] -= 1;
                            left[p as usize] == 0
                        };
                        if enter {
                            inside[p as usize] = true;
                            queue.push_back(p);
                            if let Some(list) = proved.as_deref_mut() {
                                let mv = if this.is_or(pn.key) {
                                    let kids = &this.edges[pn.first as usize..(pn.first + pn.count) as usize];
                                    kids.iter().position(|&k| k == c).map_or(NO_MOVE, |m| m as u16)
                                } else {
                                    NO_MOVE
                                };
                                list.push((p, mv));
                            }
                        }
                    }
                }
                inside
            };
        let mut proved = Vec::new();
        attractor(self, &|x| x.state == State::Proven, Some(&mut proved));
        for (p, mv) in proved {
            let node = &mut self.nodes[p as usize];
            (node.pn, node.dn, node.state) = (0, INF, State::Proven);
            table.set(node.key, self.attacker, Status::Proven, mv);
        }
        let reach = attractor(self, &|x| matches!(x.state, State::Proven | State::Open), None);
        for i in 0..n {
            let node = self.nodes[i];
            if node.state != State::Inner || reach[i] {
                continue;
            }
            let mv = if self.is_or(node.key) {
                NO_MOVE
            } else {
                let kids = &self.edges[node.first as usize..(node.first + node.count) as usize];
                kids.iter().position(|&k| !reach[k as usize]).map_or(NO_MOVE, |m| m as u16)
            };
            let m = &mut self.nodes[i];
            (m.pn, m.dn, m.state) = (INF, 0, State::Disproven);
            table.set(node.key, self.attacker, Status::Disproven, mv);
        }
    }
}
