//! The computer players of Ludus: a game-tree search for Latrunculi and Alquerque.
//!
//! The engine is built like a chess engine: negamax alpha-beta with iterative deepening,
//! aspiration windows and principal variation search, late move reductions, a transposition
//! table keyed by the rules' Zobrist hashes, move ordering by table move, captures (bigger
//! first), killers and history, and a quiescence search over captures (all of them in
//! Alquerque, where capturing is compulsory, so that a position with a capture on is never
//! taken as quiet). Each game has its own evaluation ([`eval`]).
//!
//! The search is an explicit-stack machine ([`search`]): [`Search::step`] runs it for a budget
//! of nodes and returns, so the game can run it a few milliseconds at a time on the web;
//! a search in slices gives exactly the same move as one in one go with the same depth or node
//! limits. No threads, no `std::time::Instant` (it panics on the web): this crate builds for
//! `wasm32-unknown-unknown`.
//!
//! # Levels
//!
//! - [`Level::Random`]: a uniformly random legal move.
//! - [`Level::Easy`]: a win in one when there is one, captures more often than not, a glance at
//!   the reply three times in four; otherwise random. It loses material freely.
//! - [`Level::Medium`]: a short search, two plies in Latrunculi and four in Alquerque, then
//!   quiescence (captures, and in Latrunculi the moves that take the enemy king's last free
//!   side), with Hard's evaluation, a little noise and a bonus for capturing at the root; in
//!   Alquerque it has the endgame tables, and when it must capture it only considers the
//!   captures that win the most once the forced replies are over. It never misses a win in one
//!   or a capture that wins material safely.
//! - [`Level::Hard`]: the full search and evaluation, 2 s a move unless limited otherwise.
//!
//! # Game ends, repetitions and the table
//!
//! Every move is checked with the rules' `rule_outcome` against a stack of the positions since
//! the last capture (the game's, then the line's), so the search plays by the repetition rules
//! (Latrunculi: whoever makes a threefold repetition loses; Alquerque: a draw) and the
//! no-capture counters. Results that depend on a repetition are never stored in the
//! transposition table; the counter enters the table key only near its limit (see [`search`]).
//!
//! # Endgame tablebase
//!
//! [`tablebase`] holds exact values (win, draw or loss and the distance to the end) of the
//! Alquerque positions with few pieces, built by retrograde analysis and stored one file per
//! material; [`AnySearch::with_tablebase`] makes a search play them perfectly and stop its lines
//! where they begin.
//!
//! ```
//! use ludus_ai::{AnySearch, Level, Limits, Status};
//! use ludus_rules::{AnyGame, Variant};
//!
//! let game = AnyGame::new(Variant::Alquerque);
//! // One shot:
//! let mv = ludus_ai::best_move(&game, Level::Medium, Limits::depth(2), 1).unwrap();
//! // In slices, as the web build does between the page's frames:
//! let mut search = AnySearch::new(&game, Level::Medium, Limits::depth(2), 1);
//! while search.step(2_000) == Status::Running {}
//! assert_eq!(search.best_move(), Some(mv));
//! println!("{:?}", search.info());
//! ```

pub mod any;
pub mod eval;
pub mod level;
pub mod limits;
pub mod oracle;
pub mod ordering;
pub mod params;
pub mod puzzle;
pub mod review;
pub mod score;
pub mod search;
pub mod solve;
pub mod tablebase;
pub mod tt;
pub mod tune;
pub mod uct;

pub use any::{AnyInfo, AnySearch, DRAW_MARGIN, accepts_draw, balanced_opening, best_move};
pub use eval::SearchGame;
pub use level::{Level, UnknownLevel};
pub use limits::Limits;
pub use params::{AlquerqueParams, LatrunculiParams, Params, SearchParams};
pub use score::Score;
pub use search::{Info, Search, Status};
pub use tablebase::{Probe, Tablebase, Wdl};
pub use tt::TranspositionTable;
pub use uct::{Uct, uct_move};
