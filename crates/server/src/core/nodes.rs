//! Several nodes on one PostgreSQL database, as the core sees them: the lobby it publishes for
//! the other nodes and theirs ([`Published`]), redirects to the node where a room, a game, a
//! seat or a quick-match partner is, games taken over from a dead node ([`Core::adopt`]), and
//! the blocks of player and game numbers.
//!
//! A redirect grants nothing: it only tells the client where to go, and the other node checks
//! its credential as any node does (the seat is given by the database's game row there).
//!
//! Quick match across nodes: a player waiting alone on a node is handed over (redirected, then
//! queued again there) to a node whose name sorts first among those with a player waiting in
//! the same queue; players only ever move towards that node, so two nodes never swap waiters
//! and one node pairs everyone, with the same rules as on one node.

use super::accounts::Claim;
use super::door::Effect;
use super::records::{
    ID_BLOCK, IdKind, Loaded, NodeAddrs, RemoteNode, Seat, StoredClaim, StoredGame, StoredPlayer,
    StoredRating,
};
use super::rooms::Room;
use super::{Core, Refusal, refuse};
use ludus_protocol::{
    ClientMessage, ClockSpec, ErrorCode, GameId, GameSummary, PlayerId, Redirect, RoomSummary, ServerMessage,
};
use ludus_rules::Variant;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How long after signing in a player without a local game is looked for in the games of other
/// nodes (their game may be moving to a new node after a node died: the lease, then the takeover).
pub const SEAT_CHECK_WINDOW: Duration = Duration::from_secs(60);
/// Most often the full lobby (with every game's ply and spectators) is published; rooms, queues
/// and the set of games are published at the next cluster tick.
const FULL_PUBLISH_EVERY: Duration = Duration::from_secs(1);

/// What a node publishes for the others.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Published {
    /// Players connected to it.
    pub online: u32,
    /// Its open rooms (private ones too: their codes are joined from any node), and whether
    /// each is public.
    pub rooms: Vec<(RoomSummary, bool)>,
    /// Its public live games, newest first, at most [`ludus_protocol::LobbyView::MAX_LISTED`]
    /// (a game not listed is found by its row's owner: [`Core::take_owner_lookups`]), each with
    /// `true` (public).
    pub games: Vec<(GameSummary, bool)>,
    /// How many public live games it has.
    #[serde(default)]
    pub public_games: u32,
    /// Its quick-match queues with a player waiting: variant, clock, rated.
    pub waiting: Vec<(Variant, Option<ClockSpec>, bool)>,
}

/// Another live node, as last read.
pub(super) struct Remote {
    name: String,
    addrs: NodeAddrs,
    lobby: Published,
}

/// The core's view of the other nodes (only when running as one of several).
pub(super) struct Nodes {
    me: String,
    remote: Vec<Remote>,
    /// Whether this node takes new games (not while its database fails).
    accepting: bool,
    /// Players signed in here without a local game, since when: their seat may be elsewhere.
    seat_checks: HashMap<PlayerId, Instant>,
    /// The last lobby published, its rooms-queues-games part, and when the whole was.
    published: Option<(Published, Vec<u8>, Instant)>,
}

impl Nodes {
    pub(super) fn new(me: String) -> Nodes {
        Nodes { me, remote: Vec::new(), accepting: true, seat_checks: HashMap::new(), published: None }
    }
}

impl Core {
    /// This node's name, when it is one of several.
    pub(super) fn node_name(&self) -> Option<&str> {
        self.nodes.as_ref().map(|n| n.me.as_str())
    }

    /// Runs the core as the node `name` of several sharing one database.
    pub fn enable_nodes(&mut self, name: String) {
        self.nodes = Some(Nodes::new(name));
    }

    /// Whether this node takes new games (`false`: its database fails; it says so to whoever
    /// asks for one, and its games move to a node that still has the database).
    pub(super) fn set_accepting(&mut self, accepting: bool) {
        if let Some(n) = &mut self.nodes
            && n.accepting != accepting
        {
            n.accepting = accepting;
            if accepting {
                tracing::info!("database back: taking new games again");
            } else {
                tracing::error!("database lost: this node takes no new games until it is back");
            }
        }
    }

    /// Refuses a new game or room while the node's database fails.
    pub(super) fn check_accepting(&self) -> Result<(), Refusal> {
        match &self.nodes {
            Some(n) if !n.accepting => refuse(
                ErrorCode::Busy,
                "this server node has lost its database and takes no new games: connect to another node",
            ),
            _ => Ok(()),
        }
    }

    /// A player's claim and ratings as stored now (several nodes: another node may have changed
    /// them since this one loaded them); one node keeps its own, which are never behind.
    pub(super) fn stored_claim(&mut self, c: StoredClaim) {
        if self.nodes.is_none() {
            return;
        }
        let id = PlayerId(c.id);
        let skeleton = crate::names::skeleton(&c.nickname);
        if let Some(old) = self.accounts.claims.get(&id) {
            let old = crate::names::skeleton(&old.nickname);
            if old != skeleton && self.accounts.claimed.get(&old) == Some(&id) {
                self.accounts.claimed.remove(&old);
            }
        }
        // Of two look-alikes claimed before their keys were equal, the older player keeps it.
        let owner = self.accounts.claimed.entry(skeleton).or_insert(id);
        *owner = (*owner).min(id);
        let ratings: HashMap<Variant, StoredRating> = c.ratings.into_iter().collect();
        for variant in Variant::ALL {
            self.board.set(id, variant, ratings.get(&variant).copied());
        }
        let turn_ratings = c.turn_ratings.into_iter().collect();
        let opponents = self.accounts.claims.get(&id).map(|c| c.opponents.clone()).unwrap_or_default();
        self.accounts.claims.insert(
            id,
            Claim {
                nickname: c.nickname,
                password_hash: c.password_hash,
                ratings,
                turn_ratings,
                origin: c.origin,
                opponents,
            },
        );
    }

    /// The other live nodes and their lobbies (from the cluster thread).
    pub(super) fn set_remote(&mut self, nodes: Vec<RemoteNode>) {
        let Some(n) = &mut self.nodes else {
            return;
        };
        n.remote = nodes
            .into_iter()
            .map(|r| {
                let lobby = match r.lobby.as_deref().map(serde_json::from_str::<Published>) {
                    Some(Ok(l)) => l,
                    Some(Err(e)) => {
                        tracing::warn!(node = r.name, "unreadable lobby of another node: {e}");
                        Published::default()
                    }
                    None => Published::default(),
                };
                Remote { name: r.name, addrs: r.addrs, lobby }
            })
            .collect();
        self.hand_over_waiters();
    }

    /// This node's lobby for the others, when it changed enough to publish (see
    /// [`FULL_PUBLISH_EVERY`]).
    pub(super) fn published(&mut self) -> Option<String> {
        self.nodes.as_ref()?;
        let mut rooms: Vec<&Room> =
            self.rooms.values().filter(|r| !r.quick && r.members.len() == 1 && r.game.is_none()).collect();
        rooms.sort_by_key(|r| std::cmp::Reverse(r.created));
        let mut games: Vec<GameId> =
            self.games.values().filter(|g| g.public && g.turn.is_none()).map(|g| g.id).collect();
        games.sort_unstable_by_key(|g| std::cmp::Reverse(*g));
        let public_games = games.len() as u32;
        games.truncate(ludus_protocol::LobbyView::MAX_LISTED);
        let mut waiting: Vec<(Variant, Option<ClockSpec>, bool)> = self
            .queue
            .iter()
            .filter(|(k, q)| q.iter().any(|&p| self.waits_in(p, **k)))
            .map(|(k, _)| *k)
            .collect();
        waiting.sort_by_key(|k| format!("{k:?}"));
        let lobby = Published {
            online: self.conns.values().filter(|c| c.player.is_some()).count() as u32,
            rooms: rooms.iter().map(|r| (self.room_summary(r), r.public)).collect(),
            games: games
                .iter()
                .filter_map(|g| self.games.get(g))
                .map(|g| (self.game_summary(g), g.public))
                .collect(),
            public_games,
            waiting,
        };
        let key = postcard::to_allocvec(&(
            &lobby.rooms,
            &lobby.waiting,
            lobby.games.iter().map(|(g, _)| g.game).collect::<Vec<_>>(),
        ))
        .unwrap_or_default();
        let now = self.now;
        let n = self.nodes.as_mut()?;
        let due = match &n.published {
            None => true,
            Some((last, last_key, at)) => {
                *last_key != key
                    || (*last != lobby && now.saturating_duration_since(*at) >= FULL_PUBLISH_EVERY)
            }
        };
        if !due {
            return None;
        }
        let json = serde_json::to_string(&lobby).ok()?;
        n.published = Some((lobby, key, now));
        Some(json)
    }

    /// The other nodes' public rooms and listed games, how many public games they have, and
    /// their players online, for the lobby.
    pub(super) fn remote_lobby(&self) -> (Vec<RoomSummary>, Vec<GameSummary>, u32, u32) {
        let Some(n) = &self.nodes else {
            return (Vec::new(), Vec::new(), 0, 0);
        };
        let rooms = n.remote.iter().flat_map(|r| r.lobby.rooms.iter().filter(|x| x.1).map(|x| x.0.clone()));
        let games = n.remote.iter().flat_map(|r| r.lobby.games.iter().filter(|x| x.1).map(|x| x.0.clone()));
        let total_games = n.remote.iter().map(|r| r.lobby.public_games.max(r.lobby.games.len() as u32)).sum();
        (rooms.collect(), games.collect(), total_games, n.remote.iter().map(|r| r.lobby.online).sum())
    }

    /// Sends `pid` to node `node` (with `then` to send there); whether that node is known.
    fn redirect(&mut self, pid: PlayerId, node: &str, then: Option<ClientMessage>) -> bool {
        let Some(r) = self.nodes.as_ref().and_then(|n| n.remote.iter().find(|r| r.name == node)) else {
            return false;
        };
        let message = ServerMessage::Redirect(Redirect {
            node: r.name.clone(),
            udp: r.addrs.udp.clone(),
            ws: r.addrs.ws.clone(),
            http: r.addrs.http.clone(),
            then,
        });
        self.send_player(pid, &message);
        if let Some(n) = &mut self.nodes {
            n.seat_checks.remove(&pid);
        }
        true
    }

    /// Joining a room code that is not here: the node that has it, if any (the client is sent
    /// there); refused while playing here, as for a room here.
    pub(super) fn join_elsewhere(&mut self, pid: PlayerId, code: &str) -> Result<bool, Refusal> {
        let node = self.nodes.as_ref().and_then(|n| {
            n.remote
                .iter()
                .find(|r| r.lobby.rooms.iter().any(|(room, _)| room.code == code))
                .map(|r| r.name.clone())
        });
        let Some(node) = node else {
            return Ok(false);
        };
        self.refuse_if_playing(pid)?;
        Ok(self.redirect(pid, &node, Some(ClientMessage::JoinRoom { code: code.to_string() })))
    }

    /// Watching a game that is not here: the node that has it, if any (public games only, as
    /// here; the client is sent there); refused while playing here (the client would leave).
    pub(super) fn watch_elsewhere(&mut self, pid: PlayerId, gid: GameId) -> Result<bool, Refusal> {
        let node = self.nodes.as_ref().and_then(|n| {
            n.remote
                .iter()
                .find(|r| r.lobby.games.iter().any(|(g, public)| g.game == gid && *public))
                .map(|r| r.name.clone())
        });
        let Some(node) = node else {
            // Not listed: the database knows its node (the answer comes back through
            // [`Core::game_owner_found`]).
            if self.nodes.is_none() {
                return Ok(false);
            }
            self.refuse_if_playing(pid)?;
            self.effects.push(Effect::FindOwner { player: pid.0, game: gid.0 });
            return Ok(true);
        };
        self.refuse_if_playing(pid)?;
        Ok(self.redirect(pid, &node, Some(ClientMessage::Watch { game: gid })))
    }

    /// The node of a public live game a player asked to watch (`None`: no such game on a live
    /// node): the player is sent there, or refused as for an unknown game here.
    pub(super) fn game_owner_found(&mut self, player: u64, game: u64, node: Option<String>) {
        let (pid, gid) = (PlayerId(player), GameId(game));
        let Some(conn) = self.players.get(&pid).and_then(|p| p.conn) else {
            return;
        };
        if self.games.get(&gid).is_some_and(|g| g.public || g.players.contains(&pid)) {
            // Taken over here meanwhile.
            if let Err(refusal) = self.watch(pid, gid) {
                self.error(conn, refusal);
            }
            return;
        }
        let sent = match node {
            Some(node) => {
                self.refuse_if_playing(pid).is_ok()
                    && self.redirect(pid, &node, Some(ClientMessage::Watch { game: gid }))
            }
            None => false,
        };
        if !sent {
            self.error(conn, Refusal::new(ErrorCode::UnknownGame, format!("no live game {game}")));
        }
    }

    /// Refuses to send away a player who plays a live game here.
    fn refuse_if_playing(&self, pid: PlayerId) -> Result<(), Refusal> {
        let playing =
            self.players.get(&pid).and_then(|p| p.room.as_deref()).and_then(|c| self.live_game_of_room(c));
        match playing {
            Some(gid) => {
                refuse(ErrorCode::Busy, format!("you are playing game {}: finish or resign it first", gid.0))
            }
            None => Ok(()),
        }
    }

    /// The node a waiter of queue `key` here should go to: the first by name among those with
    /// someone waiting in that queue, if it sorts before this one.
    fn match_node(&self, key: (Variant, Option<ClockSpec>, bool)) -> Option<String> {
        let n = self.nodes.as_ref()?;
        n.remote
            .iter()
            .filter(|r| r.name < n.me && r.lobby.waiting.contains(&key))
            .map(|r| r.name.clone())
            .min()
    }

    /// A newcomer to queue `key` with nobody waiting here: sent to a node where someone waits,
    /// if there is one (see [`Core::match_node`]).
    pub(super) fn match_elsewhere(&mut self, pid: PlayerId, key: (Variant, Option<ClockSpec>, bool)) -> bool {
        let Some(node) = self.match_node(key) else {
            return false;
        };
        let (variant, clock, rated) = key;
        self.redirect(pid, &node, Some(ClientMessage::FindMatch { variant, clock, rated }))
    }

    /// Hands the players waiting alone here over to the node that pairs their queue.
    fn hand_over_waiters(&mut self) {
        let keys: Vec<_> = self.queue.keys().copied().collect();
        for key in keys {
            let Some(node) = self.match_node(key) else {
                continue;
            };
            let waiting: Vec<PlayerId> = self
                .queue
                .get(&key)
                .map(|q| q.iter().copied().filter(|&p| self.waits_in(p, key)).collect())
                .unwrap_or_default();
            if waiting.len() != 1 {
                continue; // Two or more are paired here.
            }
            let (variant, clock, rated) = key;
            for p in waiting {
                self.unqueue(p);
                self.redirect(p, &node, Some(ClientMessage::FindMatch { variant, clock, rated }));
            }
        }
    }

    /// A player signed in here: look for their seat on the other nodes for a while, unless
    /// they have a game here.
    pub(super) fn check_seat_elsewhere(&mut self, pid: PlayerId) {
        let has_local_game = self
            .players
            .get(&pid)
            .and_then(|p| p.room.clone())
            .is_some_and(|code| self.live_game_of_room(&code).is_some());
        let now = self.now;
        if let Some(n) = &mut self.nodes
            && !has_local_game
        {
            n.seat_checks.insert(pid, now);
        }
    }

    /// The players to look for on the other nodes now (for the cluster thread).
    pub(super) fn seat_checks(&mut self) -> Vec<u64> {
        let now = self.now;
        let players = &self.players;
        let Some(n) = &mut self.nodes else {
            return Vec::new();
        };
        n.seat_checks.retain(|p, since| {
            now.saturating_duration_since(*since) < SEAT_CHECK_WINDOW
                && players.get(p).is_some_and(|p| p.conn.is_some() && p.room.is_none())
        });
        let mut out: Vec<u64> = n.seat_checks.keys().map(|p| p.0).collect();
        out.sort_unstable();
        out
    }

    /// Players found seated in a live game of another node: sent there (they get their seat at
    /// the welcome).
    pub(super) fn seats_found(&mut self, found: Vec<Seat>) {
        for Seat { player, node, .. } in found {
            let pid = PlayerId(player);
            let idle = self.players.get(&pid).is_some_and(|p| p.conn.is_some() && p.room.is_none());
            let checked = self.nodes.as_ref().is_some_and(|n| n.seat_checks.contains_key(&pid));
            if idle && checked {
                self.unqueue(pid);
                self.unwatch(pid);
                self.redirect(pid, &node, None);
            }
        }
    }

    /// Live games this node took over from a dead one, with their players: back as after a
    /// restart (players offline with their seats held), and players already connected here get
    /// their seat at once.
    pub(super) fn adopt(&mut self, games: Vec<StoredGame>, players: Vec<StoredPlayer>) {
        for p in players {
            if !self.players.contains_key(&PlayerId(p.id)) {
                self.remember(p);
            }
        }
        let mut seated = Vec::new();
        for g in games {
            if self.games.contains_key(&GameId(g.id)) {
                continue;
            }
            let players = [PlayerId(g.players[0]), PlayerId(g.players[1])];
            for p in players {
                // A waiting room of theirs here closes: the game comes first.
                if let Some(code) = self.players.get(&p).and_then(|p| p.room.clone()) {
                    self.close_room(&code);
                }
                self.unqueue(p);
            }
            let id = g.id;
            if self.reload_game(g) {
                tracing::info!(game = id, "game taken over");
                seated.extend(players);
            }
        }
        for p in seated {
            if let Some(n) = &mut self.nodes {
                n.seat_checks.remove(&p);
            }
            if self.players.get(&p).is_some_and(|p| p.conn.is_some()) {
                self.reattach(p);
            }
        }
    }

    /// A new block of numbers from the database.
    pub(super) fn add_ids(&mut self, kind: IdKind, first: u64, end: u64) {
        let slot = match kind {
            IdKind::Player => &mut self.ids.spare[0],
            IdKind::Game => &mut self.ids.spare[1],
        };
        *slot = Some((first, end));
    }

    /// The next player (0) or game (1) number: from this node's block, then its spare block
    /// (asked for when half the block is used). Refused ([`ErrorCode::Busy`]) when both are used
    /// up and the new block has not come yet.
    pub(super) fn take_id(&mut self, which: usize) -> Result<u64, Refusal> {
        self.next_id(which).map_or_else(no_id, Ok)
    }

    /// See [`Core::take_id`]; `None`: no number left.
    fn next_id(&mut self, which: usize) -> Option<u64> {
        let mut range = if which == 0 {
            (self.ids.next_player, self.ids.player_end)
        } else {
            (self.ids.next_game, self.ids.game_end)
        };
        if range.0 >= range.1 {
            range = self.ids.spare[which].take()?;
            self.ids.asked[which] = false;
        }
        let id = range.0;
        range.0 += 1;
        if which == 0 {
            (self.ids.next_player, self.ids.player_end) = range;
        } else {
            (self.ids.next_game, self.ids.game_end) = range;
        }
        let low = range.1 != u64::MAX && range.1 - range.0 < ID_BLOCK / 2;
        if self.nodes.is_some() && low && self.ids.spare[which].is_none() && !self.ids.asked[which] {
            self.ids.asked[which] = true;
            self.effects.push(Effect::AskIds(if which == 0 { IdKind::Player } else { IdKind::Game }));
        }
        Some(id)
    }
}

/// The player and game numbers: this node's block of each, and the next blocks.
pub(super) struct Ids {
    pub(super) next_player: u64,
    pub(super) next_game: u64,
    /// The ends of this node's blocks of numbers (`u64::MAX`: one node, no blocks).
    pub(super) player_end: u64,
    pub(super) game_end: u64,
    /// The next blocks, once the database gave them ([player, game]).
    pub(super) spare: [Option<(u64, u64)>; 2],
    /// A block was asked for and has not come.
    pub(super) asked: [bool; 2],
}

impl Ids {
    /// The numbers as stored.
    pub(super) fn new(loaded: &Loaded) -> Ids {
        Ids {
            next_player: loaded.next_player.max(1),
            next_game: loaded.next_game.max(1),
            player_end: loaded.player_end,
            game_end: loaded.game_end,
            spare: [None, None],
            asked: [false; 2],
        }
    }
}

/// Refuses when no number is left (a new block is on its way).
fn no_id<T>() -> Result<T, Refusal> {
    refuse(ErrorCode::Busy, "the server is busy: try again in a moment")
}
