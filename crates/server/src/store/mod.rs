//! Persistence: players, games, moves, proposals, chat lines, archives, in SQLite (the default: WAL,
//! `synchronous=FULL`, one file in the data directory) or PostgreSQL (`--database URL`), behind
//! one [`Backend`] trait with the same schema and migrations ([`MIGRATIONS`]). The store speaks
//! the core's vocabulary ([`crate::core::records`]) and nothing of the core speaks of it.
//!
//! - `backend.rs`: the [`Backend`] trait, the rows it returns and how they become records;
//! - `schema.rs` and `migrations/`: the schema, version by version, and the statements;
//! - `sqlite.rs`, `pg.rs`: the two backends;
//! - `writer.rs`: [`Store`], the writer, reader and checkpointer threads;
//! - `cluster.rs`: several nodes on one PostgreSQL database.
//!
//! Writes go through one writer thread in batches: the server loop hands over everything a tick
//! changed ([`Store::submit`]), the writer commits it in one transaction (merging batches that
//! queued up meanwhile: group commit), and publishes the number of the last committed batch
//! ([`Store::committed`]). The server sends the messages produced by a tick only once its batch,
//! and every batch before it, is committed: a move is on disk before anyone sees it, without
//! the network loop ever waiting for the disk.

use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

mod backend;
mod checks;
pub mod cluster;
#[cfg(feature = "postgres")]
mod pg;
mod schema;
mod sqlite;
mod writer;

pub(crate) use backend::{
    ArchiveRow, Backend, ChallengeRow, ChatRow, ClaimRow, GameRow, MoveRow, ProposalRow, RatedRow, RatingRow,
    RecentRow,
};
#[cfg(feature = "postgres")]
pub(crate) use backend::{load_games, stored_claim};
pub(crate) use schema::{MIGRATIONS, sql};
pub use writer::Store;

/// An error of either backend.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// SQLite.
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL.
    #[cfg(feature = "postgres")]
    #[error(transparent)]
    Postgres(#[from] ::postgres::Error),
    /// Anything else (a second node on one PostgreSQL database).
    #[error(transparent)]
    Other(Box<dyn std::error::Error + Send + Sync>),
    /// This node's lease is gone: another node took its games over (or another process started
    /// under its name). Nothing more may be written for it.
    #[error("this node's lease on its games is lost: another node owns them now")]
    LeaseLost,
}

/// Why the database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The data directory could not be created.
    #[error("cannot create data directory {path}: {source}")]
    Directory { path: PathBuf, source: std::io::Error },
    /// The database refused to open, create or read (or is unreachable).
    #[error("database {what}: {source}")]
    Database { what: String, source: DbError },
    /// The database address is not a PostgreSQL URL.
    #[cfg(feature = "postgres")]
    #[error("database {what}: not a PostgreSQL URL (postgres://user@host/db): {source}")]
    Url { what: String, source: ::postgres::Error },
    /// A PostgreSQL database was asked of a build without the `postgres` feature.
    #[cfg(not(feature = "postgres"))]
    #[error("database {what}: this build has no PostgreSQL (the feature \"postgres\")")]
    NoPostgres { what: String },
    /// A database thread could not start.
    #[error("cannot start the database {what} thread: {source}")]
    Thread { what: &'static str, source: std::io::Error },
}

/// Where the data lives: SQLite in a directory (the default) or a PostgreSQL database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// `DIR/ludus.sqlite3`.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://user[:password]@host[:port]/db`).
    Postgres(String),
}

impl Database {
    /// How the database is named in messages: the file, or the URL without its password.
    pub fn describe(&self) -> String {
        match self {
            Database::Sqlite(dir) => dir.join("ludus.sqlite3").display().to_string(),
            Database::Postgres(url) => redact(url),
        }
    }
}

/// A URL with the password (between `user:` and `@`) replaced by `***`.
fn redact(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return url.to_string();
    };
    let rest = &url[scheme_end..];
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => match rest[..at].find(':') {
            Some(colon) => format!("{}{}:***{}", &url[..scheme_end], &rest[..colon], &rest[at..]),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

/// How a node of several on one PostgreSQL database is known.
#[derive(Clone, Debug)]
pub struct NodeConfig {
    /// Its unique name (the same name after a restart takes its games back at once).
    pub name: String,
    /// How long its lease on its games lasts without renewal: after that, another node takes
    /// them over.
    pub lease: Duration,
}

/// Commit timings, for the operator.
#[derive(Debug, Default)]
pub struct CommitStats {
    /// Transactions committed.
    pub commits: AtomicU64,
    /// Batches (server ticks) in them.
    pub batches: AtomicU64,
    /// Total time spent committing, in microseconds.
    pub total_us: AtomicU64,
    /// Longest commit, in microseconds.
    pub max_us: AtomicU64,
}

/// Milliseconds since the Unix epoch.
fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

#[cfg(test)]
mod tests;
