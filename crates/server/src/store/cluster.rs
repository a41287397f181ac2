//! What the server loop and the cluster of nodes on one PostgreSQL database say to each other:
//! the nodes' addresses, the requests of the loop and the events of the cluster thread. The thread
//! itself (with the `postgres` feature) is in `cluster/node.rs`; without that feature a
//! [`Cluster`] cannot exist, and a server has no other node.
use super::{StoredClaim, StoredGame, StoredPlayer};

#[cfg(feature = "postgres")]
mod node;
#[cfg(feature = "postgres")]
pub use node::Cluster;

/// A node's public addresses, as clients reach it (a redirect carries them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeAddrs {
    /// `host:port` of its UDP socket.
    pub udp: Option<String>,
    /// `ws://host:port` (or `wss://…`) of its WebSocket port.
    pub ws: Option<String>,
    /// `http://host:port` (or `https://…`) of its HTTP side (connect tokens).
    pub http: Option<String>,
}

/// Another live node.
#[derive(Clone, Debug)]
pub struct RemoteNode {
    pub name: String,
    pub addrs: NodeAddrs,
    /// Its published lobby (JSON of `core::Published`), if any yet.
    pub lobby: Option<String>,
}

/// Which block of numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdKind {
    Player,
    Game,
}

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

/// What the cluster thread tells the server loop.
#[derive(Debug)]
pub enum Event {
    /// The other live nodes and their lobbies.
    Nodes(Vec<RemoteNode>),
    /// Live games this node took over, with their players.
    Adopted { games: Vec<StoredGame>, players: Vec<StoredPlayer>, claims: Vec<StoredClaim> },
    /// (player, game, node) for the checked players whose live game is on another live node.
    Seats(Vec<(u64, u64, String)>),
    /// A new block of numbers: first, end.
    Ids { kind: IdKind, first: u64, end: u64 },
    /// The other live node that owns a public live game (player who asked, game, node).
    GameOwner(u64, u64, Option<String>),
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
    pub fn events(&self) -> Vec<Event> {
        match *self {}
    }
}
