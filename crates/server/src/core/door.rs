//! The core's one door: [`Core::handle`] takes an [`Input`] (a connection opened or closed,
//! message bytes, the time, the answer of a lookup, a password result, a cluster event) and
//! returns the [`Effect`]s it calls for (send, close, store, look up, hash a password, ask for
//! numbers, publish), in the order they arose. The server's loop feeds it and carries the
//! effects out in one place; tests feed it and read the effects.
//!
//! Messages must not leave before the changes behind them are stored: the loop submits a
//! tick's [`Effect::Store`]s as one batch and releases that tick's [`Effect::Send`]s and
//! [`Effect::Close`]s once the batch is committed.

use super::passwords::{PasswordAnswer, PasswordJob};
use super::records::{
    ArchiveFound, ArchiveLookup, ClusterEvent, GamesFound, GamesLookup, IdKind, Op, PlayerFound, PlayerLookup,
};
use super::{ConnId, Core};
use crate::credential::Grant;
use ludus_protocol::GameId;
use renet2::Bytes;
use std::net::IpAddr;
use std::time::Instant;

/// What the core is told.
#[derive(Debug)]
pub enum Input<'a> {
    /// The time of this tick: the monotonic instant (clocks, holds, rates) and the wall clock
    /// in milliseconds since the Unix epoch (what is stored).
    Time { now: Instant, unix_ms: u64 },
    /// Time-driven events are due: flags falling, held seats expiring, silent connections,
    /// proposal updates (every few milliseconds).
    Timers,
    /// A connection opened, with what its connect token says.
    Opened { conn: ConnId, grant: Grant },
    /// Where a connection comes from (its address's key, [`crate::addresses::address_key`]).
    Origin { conn: ConnId, origin: IpAddr },
    /// A connection closed (by either side, or timed out).
    Closed(ConnId),
    /// One message from a connection, as it came.
    Message(ConnId, &'a [u8]),
    /// The answer to an [`Effect::LookUp`].
    LookedUp(PlayerFound),
    /// The answer to an [`Effect::HashPassword`].
    Password(PasswordAnswer),
    /// The answer to an [`Effect::FindGames`]: a player's recent games, for a profile.
    GamesFound(GamesFound),
    /// The answer to an [`Effect::ReadArchive`].
    ArchiveFound(ArchiveFound),
    /// Several nodes: what the cluster thread learnt from the database.
    Cluster(ClusterEvent),
    /// Several nodes: the cluster tick. `accepting`: whether this node may take new games (its
    /// database answers); the core then publishes its lobby and asks for seat checks.
    ClusterTick { accepting: bool },
    /// The server is going away: every connection is told and closed.
    ShuttingDown,
}

/// What the core calls for.
#[derive(Debug)]
pub enum Effect {
    /// Send an encoded message to a connection.
    Send(ConnId, Bytes),
    /// Close a connection (after the messages before this one).
    Close(ConnId),
    /// Store a change.
    Store(Op),
    /// Look a player up by credential hash: answer with [`Input::LookedUp`].
    LookUp(PlayerLookup),
    /// Read a player's recent games: answer with [`Input::GamesFound`].
    FindGames(GamesLookup),
    /// Read a finished game: answer with [`Input::ArchiveFound`].
    ReadArchive(ArchiveLookup),
    /// Password work, off the loop ([`super::passwords::run_job`]): answer with [`Input::Password`].
    HashPassword(PasswordJob),
    /// A session credential was issued (its hash): the token endpoint knows it from now on.
    Issued(String),
    /// A move was accepted (for the loop's round-trip measurement).
    Played { game: GameId, ply: u32 },
    /// Several nodes: ask the database for a block of numbers (answered by a cluster event).
    AskIds(IdKind),
    /// Several nodes: find the node of a public live game a player asked to watch.
    FindOwner { player: u64, game: u64 },
    /// Several nodes: this node's lobby for the others (JSON).
    Publish(String),
    /// Several nodes: look for these players' seats on the other nodes.
    CheckSeats(Vec<u64>),
}

impl Core {
    /// Takes one input and returns what it calls for. See the module documentation.
    pub fn handle(&mut self, input: Input<'_>) -> Vec<Effect> {
        match input {
            Input::Time { now, unix_ms } => {
                self.now = now;
                self.unix_ms = unix_ms;
            }
            Input::Timers => self.timers(),
            Input::Opened { conn, grant } => self.connected_with(conn, grant),
            Input::Origin { conn, origin } => self.set_origin(conn, origin),
            Input::Closed(conn) => self.disconnected(conn),
            Input::Message(conn, bytes) => self.message(conn, bytes),
            Input::LookedUp(PlayerFound { conn, hash, player, claim }) => {
                if let Some(claim) = claim {
                    self.stored_claim(claim);
                }
                self.looked_up(conn, &hash, player);
            }
            Input::Password(answer) => self.password_done(answer),
            Input::GamesFound(GamesFound { conn, player, nickname, games }) => {
                self.games_found(conn, player, nickname, games)
            }
            Input::ArchiveFound(ArchiveFound { conn, game, found }) => self.archive_found(conn, game, found),
            Input::Cluster(event) => self.cluster_event(event),
            Input::ClusterTick { accepting } => {
                self.set_accepting(accepting);
                if let Some(lobby) = self.published() {
                    self.effects.push(Effect::Publish(lobby));
                }
                let checks = self.seat_checks();
                if !checks.is_empty() {
                    self.effects.push(Effect::CheckSeats(checks));
                }
            }
            Input::ShuttingDown => self.shutting_down(),
        }
        self.flush_tourneys();
        std::mem::take(&mut self.effects)
    }

    fn cluster_event(&mut self, event: ClusterEvent) {
        match event {
            ClusterEvent::Nodes(nodes) => self.set_remote(nodes),
            ClusterEvent::Adopted { games, players, claims } => {
                for claim in claims {
                    self.stored_claim(claim);
                }
                self.adopt(games, players);
            }
            ClusterEvent::Seats(found) => self.seats_found(found),
            ClusterEvent::Ids { kind, first, end } => self.add_ids(kind, first, end),
            ClusterEvent::GameOwner { player, game, node } => self.game_owner_found(player, game, node),
        }
    }
}
