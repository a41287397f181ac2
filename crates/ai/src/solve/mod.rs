//! An Alquerque solver: proof-number search with the endgame tables as exact leaves, a
//! certificate of every proven result, and a checker of certificates that does not use the
//! search.
//!
//! # The game that is solved
//!
//! The rules are the rules crate's (its move generator gives every move, compulsory captures
//! and capture chains included), judged exactly as the endgame tables judge them:
//!
//! - a side without pieces, or without a legal move on its turn, has lost;
//! - a repetition, and play that never ends, are draws;
//! - **the 50-ply no-capture counter is ignored** (every position is taken with its counter at
//!   0). A "win" here is a win when the counter is left out; under the full rules the counter
//!   may draw a long win first.
//!
//! With these rules the value of a position does not depend on how it was reached: a side
//! that can force a win can do it without ever repeating a position (it brings the game
//! strictly closer to the end with every move), and a side that cannot be forced into a loss
//! can keep the game going for ever.
//!
//! # Two boolean searches
//!
//! A draw is a third value, so a position is solved by two searches of the same kind, each for
//! one *attacker* ([`pn`]): "can White force a win?" and "can Black force a win?". A *proof*
//! shows that the attacker can; a *disproof* that the defender can avoid losing for ever. When
//! neither side can force a win the position is a draw. The side to move is searched first.
//!
//! # The search: proof-number search on the game graph
//!
//! [`pn`] is best-first proof-number search in which every position is one node, however it is
//! reached (transpositions merged), with the tables as exact leaves. Proof and disproof numbers
//! choose which leaf to expand next; results come from exact rules on the graph:
//!
//! - proofs as in any proof-number search (an attacker's node with a proven child, a
//!   defender's node with every child proven), and periodically by a retrograde pass that
//!   computes the attacker's attractor of the proven nodes in the graph;
//! - disproofs by a second retrograde pass: every expanded node from which the attacker cannot
//!   force the play into a proven node *or an unexpanded leaf* is disproven, since the defender
//!   can keep the play among expanded, unproven nodes for ever (a repetition is a draw).
//!
//! ## Repeated positions (graph-history interaction)
//!
//! In a search *tree*, a position repeated on the current path has to be a path-dependent leaf
//! (a non-win for the attacker), and results that used it hold on that path only. Two such
//! searches were tried first: a proof-number search tree that stored only path-independent
//! results did not solve a 4-piece draw in 33 million nodes (transpositions are not shared,
//! and repetitions are everywhere in Alquerque, whose sideways steps go back and forth), and
//! df-pn, whose transposition table held numbers computed with path-dependent repetitions,
//! looped without progress. On the graph there is no such interaction: a node's result is a
//! property of the position, computed by the two passes from the whole graph, so every result
//! is final and true whatever the path to it. The search cannot loop: every iteration expands
//! a node, or marks a blocked node (at most a few times in a row), or sweeps the open leaves
//! nearest the root; when none is left, the passes decide the root. The way down to a leaf
//! still avoids the positions already on it, but only as a guide.
//!
//! The solved-position table ([`table::SolvedTable`]) keeps every result, with the winning
//! move of a proof and the defender's holding move of a disproof; it is shared by both searches
//! and by later runs. When a graph reaches its size limit, a new one is started from the root,
//! which finds the results so far as leaves. The table, with the positions the search under way
//! had expanded, is the resumable state ([`Solver::save`], [`table::SolvedTable::save`]): a
//! later run loads it, expands those positions again to rebuild the graph (solved ones are
//! leaves at once) and goes on from there.
//!
//! # Certificates and the checker
//!
//! [`prove`] writes a proven result as a certificate ([`certificate`]), strategies read from the
//! solved-position table:
//! for a win, the winner's move at each of its positions and every reply of the loser; for a
//! draw, a non-losing strategy for each side. [`check`] replays a certificate with only the
//! rules crate and the tables.

pub mod book;
pub mod book_proof;
pub mod build;
pub mod certificate;
pub mod check;
pub mod pn;
pub mod prove;
pub mod table;
mod value;

use crate::tablebase::Tablebase;
use ludus_rules::alquerque::Position;
use ludus_rules::{GamePosition, Side};
use std::sync::Arc;

pub use pn::{Pn, PnStatus};
pub use table::{SolvedTable, Status};
pub use value::{SolveError, Value, exact_value, key, position_of, without_counter};

/// Counts of a solver's work, for progress lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Nodes expanded by the searches so far.
    pub nodes: u64,
    /// Nodes in the current search's graph.
    pub graph_nodes: u64,
    /// Positions proven (for either attacker) in the solved-position table.
    pub proven: u64,
    /// Positions disproven (for either attacker) in the solved-position table.
    pub disproven: u64,
    /// Positions in the solved-position table.
    pub table_entries: u64,
    /// A memory estimate of the graph and the solved-position table, in bytes.
    pub memory_bytes: u64,
}

/// Where a solve stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveStatus {
    /// Still searching (or stopped by its budget; call again with more).
    Running,
    /// The value is known.
    Solved(Value),
    /// A search's graph reached its size limit twice in a row without solving anything new.
    Full,
}

/// Solves one position by two proof-number searches (see the module documentation), a slice
/// at a time, with a solved-position table that can be saved and loaded to continue later.
pub struct Solver {
    root: Position,
    tb: Option<Arc<Tablebase>>,
    table: SolvedTable,
    /// The attackers still to search, in order.
    attackers: Vec<Side>,
    search: Option<Pn>,
    max_nodes: usize,
    nodes_before: u64,
    result: Option<Value>,
    solved_at_restart: usize,
    restarts: u64,
}

impl Solver {
    /// A solver of `root` with the tables `tb` as leaves, starting from `table` (empty, or
    /// loaded from an earlier run's state), with at most `max_nodes` nodes in a search's graph.
    pub fn new(root: &Position, tb: Option<Arc<Tablebase>>, table: SolvedTable, max_nodes: usize) -> Solver {
        let root = without_counter(root);
        let us = root.side_to_move();
        Solver {
            root,
            tb,
            table,
            attackers: vec![us, us.opponent()],
            search: None,
            max_nodes,
            nodes_before: 0,
            result: None,
            solved_at_restart: usize::MAX,
            restarts: 0,
        }
    }

    /// The position being solved (counter 0).
    pub fn root(&self) -> &Position {
        &self.root
    }

    /// The solved-position table.
    pub fn table(&self) -> &SolvedTable {
        &self.table
    }

    /// Takes the solved-position table out (the solver is done with it).
    pub fn into_table(self) -> SolvedTable {
        self.table
    }

    /// The tables used as leaves.
    pub fn tablebase(&self) -> Option<&Tablebase> {
        self.tb.as_deref()
    }

    /// The attacker of the search under way, if any.
    pub fn attacker(&self) -> Option<Side> {
        if self.result.is_some() { None } else { self.attackers.first().copied() }
    }

    /// Counts so far.
    pub fn stats(&self) -> SolveStats {
        let (nodes, graph_nodes, graph_bytes) = match &self.search {
            Some(s) => (s.expanded(), s.graph_len() as u64, s.memory_bytes()),
            None => (0, 0, 0),
        };
        let t = self.table.counts();
        SolveStats {
            nodes: self.nodes_before + nodes,
            graph_nodes,
            proven: t.proven,
            disproven: t.disproven,
            table_entries: t.entries,
            memory_bytes: graph_bytes + self.table.memory_bytes(),
        }
    }

    /// How many times a search's graph was full and a new one was started.
    pub fn restarts(&self) -> u64 {
        self.restarts
    }

    /// The value, once known.
    pub fn result(&self) -> Option<Value> {
        self.result
    }

    /// Searches until about `nodes` more nodes have been expanded or the value is known.
    pub fn step(&mut self, nodes: u64) -> Result<SolveStatus, SolveError> {
        if let Some(v) = self.result {
            return Ok(SolveStatus::Solved(v));
        }
        if let Some(w) = exact_value(&self.root, self.tb.as_deref())? {
            let v = Value::from_winner(w);
            self.result = Some(v);
            return Ok(SolveStatus::Solved(v));
        }
        let target = self.stats().nodes + nodes;
        loop {
            let Some(&attacker) = self.attackers.first() else {
                self.result = Some(Value::Draw);
                return Ok(SolveStatus::Solved(Value::Draw));
            };
            // A result already in the table (from an earlier run, or the other search).
            match self.table.status(key(&self.root), attacker) {
                Status::Proven => {
                    let v = Value::from_winner(Some(attacker));
                    self.finish_search();
                    self.result = Some(v);
                    return Ok(SolveStatus::Solved(v));
                }
                Status::Disproven => {
                    self.finish_search();
                    self.attackers.remove(0);
                    continue;
                }
                Status::Unknown => {}
            }
            let done = self.stats().nodes;
            if done >= target {
                return Ok(SolveStatus::Running);
            }
            if self.search.is_none() {
                let mut search = Pn::new(&self.root, attacker, self.max_nodes);
                let root_key = key(&self.root);
                if self.table.graph.as_ref().is_some_and(|g| g.root == root_key && g.attacker == attacker)
                    && let Some(saved) = self.table.graph.take()
                {
                    search.rebuild(&saved, self.tb.as_deref(), &mut self.table)?;
                }
                self.search = Some(search);
            }
            let search = self.search.as_mut().expect("a search");
            match search.run(target - done, self.tb.as_deref(), &mut self.table)? {
                PnStatus::Running => return Ok(SolveStatus::Running),
                PnStatus::Full => {
                    // Start a new graph: the results found so far stay in the solved-position
                    // table, where the new graph finds them as leaves. Give up only when the
                    // last graph solved nothing new.
                    let solved = self.table.len();
                    if solved == self.solved_at_restart {
                        return Ok(SolveStatus::Full);
                    }
                    self.solved_at_restart = solved;
                    self.restarts += 1;
                    self.finish_search();
                }
                // The root's result is in the table: the loop reads it.
                PnStatus::Proven | PnStatus::Disproven => {}
            }
        }
    }

    /// The state to save: the solved-position table with the graph of the search under way.
    pub fn state_bytes(&self) -> Vec<u8> {
        self.table.to_bytes(self.search.as_ref().map(Pn::saved).as_ref())
    }

    /// Saves the state (see [`Solver::state_bytes`]) to a file, safely (see
    /// [`SolvedTable::save`]).
    pub fn save(&self, path: &std::path::Path) -> Result<(), SolveError> {
        self.table.save(path, self.search.as_ref().map(Pn::saved).as_ref())
    }

    fn finish_search(&mut self) {
        if let Some(s) = self.search.take() {
            self.nodes_before += s.expanded();
        }
    }
}
