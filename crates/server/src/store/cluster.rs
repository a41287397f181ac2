//! What the server loop asks of the cluster of nodes on one PostgreSQL database ([`Request`]);
//! the cluster answers in the core's words ([`crate::core::records::ClusterEvent`]). The thread itself (with the
//! `postgres` feature) is in `cluster/node.rs`; without that feature a [`Cluster`] cannot exist,
//! and a server has no other node.
use crate::core::records::IdKind;

#[cfg(feature = "postgres")]
mod node;
#[cfg(feature = "postgres")]
pub use node::Cluster;

/// What the server loop asks of the cluster thread.
#[derive(Debug)]
pub enum Request {
    /// This node's lobby changed (the latest one wins).
    Publish(String),
    /// Which of these players has a live game on another node.
    SeatChecks(Vec<u64>),
    /// Another block of numbers.
    Ids(IdKind),
    /// The node of a public live game (player who asked, game).
    GameOwner(u64, u64),
}

/// A build without PostgreSQL has no cluster thread: this type has no values, so a server's
/// `Option<Cluster>` is always `None`.
#[cfg(not(feature = "postgres"))]
pub enum Cluster {}

#[cfg(not(feature = "postgres"))]
impl Cluster {
    /// Whether the last round with the database failed (never: there is none).
    pub fn is_failing(&self) -> bool {
        match *self {}
    }

    /// This node's name.
    pub fn name(&self) -> &str {
        match *self {}
    }

    /// Hands a request to the thread.
    pub fn request(&self, _request: Request) {
        match *self {}
    }

    /// The events since the last call.
    pub fn events(&self) -> Vec<crate::core::records::ClusterEvent> {
        match *self {}
    }
}
