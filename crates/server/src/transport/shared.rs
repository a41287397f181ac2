//! What the shards share, so that one shard's borrowed result can be handled: the sockets,
//! renet2, the routes from addresses to shards, the clients, the handshakes in progress and the
//! tokens they used.

use super::{
    CONNECTION_REQUEST_PREFIX, HandshakeStats, PENDING_PER_IP, PENDING_PER_PREFIX, PENDING_PER_SHARD, Policy,
    evictee, request_expiry,
};
use crate::addresses::{Addresses, address_key, prefix_key};
use crate::faults;
use renet2::RenetServer;
use renet2_netcode::ServerSocket;
use renetcode2::ServerResult;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

pub(super) struct Route {
    pub(super) shard: usize,
    pub(super) last_seen: Duration,
    pub(super) connected: bool,
}

pub(super) struct ClientEntry {
    pub(super) shard: usize,
    pub(super) last_flush: Duration,
    /// Its address's key, counted in [`Addresses`].
    pub(super) key: IpAddr,
}

/// A handshake in progress (netcode holds it as a pending client).
pub(super) struct Pending {
    pub(super) shard: usize,
    pub(super) since: Duration,
    /// Its token was minted for its address (or it came over a socket that cannot be spoofed).
    pub(super) bound: bool,
}

/// Everything but the shards, so that a shard's borrowed result can be handled.
pub(super) struct Io {
    pub(super) sockets: Vec<Box<dyn ServerSocket>>,
    pub(super) renet: RenetServer,
    pub(super) routes: HashMap<(usize, SocketAddr), Route>,
    pub(super) shard_load: Vec<usize>,
    pub(super) clients: HashMap<u64, ClientEntry>,
    pub(super) now: Duration,
    /// Clients to disconnect once the current result is handled: `(id, shard)`.
    pub(super) kick: Vec<(u64, usize)>,
    pub(super) max_routes: usize,
    /// Clients that sent payloads since the last `take_active`.
    pub(super) active: Vec<u64>,
    /// Handshakes in progress, by address.
    pub(super) pending: HashMap<(usize, SocketAddr), Pending>,
    /// Handshakes in progress per shard and per source address.
    pub(super) pending_per_shard: Vec<usize>,
    pub(super) pending_per_ip: HashMap<IpAddr, usize>,
    /// Handshakes in progress per prefix ([`prefix_key`]).
    pub(super) pending_per_prefix: HashMap<IpAddr, usize>,
    /// Which handshake a full shard drops ([`super::admission`]).
    pub(super) policy: Policy,
    /// Handshakes to drop once the current result is handled.
    pub(super) evict: Vec<(usize, SocketAddr)>,
    /// Tokens that started a handshake (by the nonce of their connection request): the address
    /// that used it and the token's expiry (Unix seconds). A token serves one address.
    pub(super) token_uses: HashMap<[u8; 24], ((usize, SocketAddr), u64)>,
    /// The nonce and expiry of the connection request being processed, and whether its token
    /// was minted for its address.
    pub(super) current_request: Option<([u8; 24], u64, bool)>,
    /// Token bindings and clients per address, shared with the token endpoint.
    pub(super) addresses: Arc<Addresses>,
    /// The user data of each connected client's connect token (who it signs in as).
    pub(super) user_data: HashMap<u64, Box<[u8; renetcode2::NETCODE_USER_DATA_BYTES]>>,
    /// Packets whose processing by renet2 panicked (authenticated clients, dropped).
    pub(super) panics: u64,
    pub(super) handshakes: HandshakeStats,
}

impl Io {
    /// The shard for a packet from `addr`, creating the route for a connection request.
    pub(super) fn route(&mut self, socket_id: usize, addr: SocketAddr, packet: &[u8]) -> Option<usize> {
        if let Some(route) = self.routes.get_mut(&(socket_id, addr)) {
            route.last_seen = self.now;
            return Some(route.shard);
        }
        if packet.first() != Some(&CONNECTION_REQUEST_PREFIX) || self.routes.len() >= self.max_routes {
            return None;
        }
        // An expired request would be refused by netcode anyway.
        if request_expiry(packet).is_none_or(|expiry| expiry <= self.now.as_secs()) {
            return None;
        }
        if !self.addresses.has_room(address_key(&addr)) {
            self.handshakes.refused_clients_per_address += 1;
            faults::note("connection request dropped: too many clients from one address");
            return None;
        }
        if self.pending_per_ip.get(&address_key(&addr)).is_some_and(|&n| n >= PENDING_PER_IP) {
            self.handshakes.refused_per_address += 1;
            faults::note("connection request refused: too many handshakes from one address");
            return None;
        }
        if self.policy == Policy::Fair
            && self.pending_per_prefix.get(&prefix_key(&addr)).is_some_and(|&n| n >= PENDING_PER_PREFIX)
        {
            self.handshakes.refused_per_address += 1;
            faults::note("connection request refused: too many handshakes from one network (/24, /48)");
            return None;
        }
        self.handshakes.requests += 1;
        let (shard, _) = self.shard_load.iter().enumerate().min_by_key(|(_, load)| **load)?;
        self.shard_load[shard] += 1;
        self.routes.insert((socket_id, addr), Route { shard, last_seen: self.now, connected: false });
        Some(shard)
    }

    /// A handshake started (netcode sent a challenge): a full shard drops one ([`evictee`]: the
    /// oldest of the prefix holding the most).
    pub(super) fn add_pending(&mut self, socket_id: usize, addr: SocketAddr, shard: usize) {
        if self.pending.contains_key(&(socket_id, addr)) {
            return;
        }
        if self.pending_per_shard[shard] >= PENDING_PER_SHARD {
            let per_prefix = &self.pending_per_prefix;
            let candidates =
                self.pending.iter().filter(|(k, p)| p.shard == shard && !self.evict.contains(k)).map(
                    |(&(socket_id, a), p)| {
                        ((socket_id, a), per_prefix.get(&prefix_key(&a)).copied().unwrap_or(0), p.since)
                    },
                );
            if let Some(goes) = evictee(self.policy, candidates) {
                self.evict.push(goes);
            }
        }
        let bound = self.current_request.is_none_or(|(_, _, bound)| bound);
        self.pending.insert((socket_id, addr), Pending { shard, since: self.now, bound });
        self.pending_per_shard[shard] += 1;
        *self.pending_per_ip.entry(address_key(&addr)).or_default() += 1;
        *self.pending_per_prefix.entry(prefix_key(&addr)).or_default() += 1;
    }

    pub(super) fn forget_pending(&mut self, socket_id: usize, addr: SocketAddr) {
        let Some(pending) = self.pending.remove(&(socket_id, addr)) else {
            return;
        };
        self.pending_per_shard[pending.shard] = self.pending_per_shard[pending.shard].saturating_sub(1);
        let key = address_key(&addr);
        if let Some(n) = self.pending_per_ip.get_mut(&key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.pending_per_ip.remove(&key);
            }
        }
        let prefix = prefix_key(&addr);
        if let Some(n) = self.pending_per_prefix.get_mut(&prefix) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.pending_per_prefix.remove(&prefix);
            }
        }
    }

    /// Forgets a connected client (and counts it gone from its address).
    pub(super) fn remove_client(&mut self, client_id: u64) {
        if let Some(entry) = self.clients.remove(&client_id) {
            self.addresses.disconnect(entry.key);
        }
    }

    pub(super) fn forget_route(&mut self, socket_id: usize, addr: SocketAddr) {
        if let Some(route) = self.routes.remove(&(socket_id, addr)) {
            self.shard_load[route.shard] = self.shard_load[route.shard].saturating_sub(1);
        }
    }

    pub(super) fn send(&mut self, socket_id: usize, addr: SocketAddr, packet: &[u8]) {
        if let Some(socket) = self.sockets.get_mut(socket_id) {
            let _ = socket.send(addr, packet);
        }
    }

    pub(super) fn handle(&mut self, result: ServerResult<'_, '_>, shard: usize) {
        match result {
            ServerResult::None => {}
            ServerResult::Error { socket_id, addr } => {
                self.handshakes.netcode_errors += 1;
                faults::note("packet refused by netcode (undecryptable, or a bad or replayed token)");
                if let Some(socket) = self.sockets.get_mut(socket_id) {
                    socket.disconnect(addr);
                }
                // A bad packet from a connected client's address (maybe spoofed) does not drop
                // that client's route; nor does it drop a handshake in progress (netcode keeps
                // it: the route stays while it does).
                if self.routes.get(&(socket_id, addr)).is_some_and(|r| !r.connected)
                    && !self.pending.contains_key(&(socket_id, addr))
                {
                    self.forget_route(socket_id, addr);
                }
            }
            ServerResult::ConnectionDenied { socket_id, addr, payload } => {
                if let Some(payload) = payload {
                    self.send(socket_id, addr, payload);
                    // Refused because the shard is full: netcode forgot the pending client.
                    self.forget_pending(socket_id, addr);
                }
                if let Some(socket) = self.sockets.get_mut(socket_id) {
                    socket.connection_denied(addr);
                }
                // netcode drops a pending client it refuses when full, keeps it otherwise (the
                // same token from another address, or a client id already connected).
                if !self.pending.contains_key(&(socket_id, addr))
                    && self.routes.get(&(socket_id, addr)).is_some_and(|r| !r.connected)
                {
                    self.forget_route(socket_id, addr);
                }
            }
            ServerResult::ConnectionAccepted { client_id, socket_id, addr, payload } => {
                if let Some(socket) = self.sockets.get_mut(socket_id) {
                    socket.connection_accepted(client_id, addr);
                }
                self.send(socket_id, addr, payload);
                self.add_pending(socket_id, addr, shard);
                if let Some((nonce, expiry, _)) = self.current_request.take() {
                    self.token_uses.insert(nonce, ((socket_id, addr), expiry));
                }
            }
            ServerResult::PacketToSend { socket_id, addr, payload } => self.send(socket_id, addr, payload),
            ServerResult::Payload { client_id, payload } => {
                // The payload is authenticated: a panic in renet2 (a forged slice) drops this
                // client.
                let renet = &mut self.renet;
                match catch_unwind(AssertUnwindSafe(|| renet.process_packet_from(payload, client_id))) {
                    Ok(Ok(())) => {
                        if self.active.last() != Some(&client_id) {
                            self.active.push(client_id);
                        }
                    }
                    Ok(Err(_)) => {
                        self.handshakes.renet_errors += 1;
                        faults::note("renet2 refused a client's packet");
                    }
                    Err(_) => {
                        self.panics += 1;
                        faults::note("renet2 panicked on a client's packet (contained, client dropped)");
                        self.kick.push((client_id, shard));
                    }
                }
            }
            ServerResult::ClientConnected { client_id, socket_id, addr, payload, user_data } => {
                self.forget_pending(socket_id, addr);
                self.send(socket_id, addr, payload);
                if let Some(route) = self.routes.get_mut(&(socket_id, addr)) {
                    route.connected = true;
                }
                if self.clients.contains_key(&client_id) {
                    // The same id in another shard: refuse the newcomer.
                    self.kick.push((client_id, shard));
                    return;
                }
                let key = address_key(&addr);
                if !self.addresses.connect(key) {
                    // Past the cap (handshakes started while it had room): refused.
                    self.handshakes.refused_clients_per_address += 1;
                    faults::note("client disconnected: too many clients from one address");
                    self.kick.push((client_id, shard));
                    return;
                }
                let reliable = self.sockets.get(socket_id).is_some_and(|s| s.is_reliable());
                self.renet.add_connection(client_id, reliable);
                self.clients.insert(client_id, ClientEntry { shard, last_flush: self.now, key });
                self.user_data.insert(client_id, user_data);
            }
            ServerResult::ClientDisconnected { client_id, socket_id, addr, payload } => {
                if let Some(payload) = payload {
                    self.send(socket_id, addr, payload);
                }
                if let Some(socket) = self.sockets.get_mut(socket_id) {
                    socket.disconnect(addr);
                }
                self.forget_pending(socket_id, addr);
                self.forget_route(socket_id, addr);
                if self.clients.get(&client_id).is_some_and(|c| c.shard == shard) {
                    self.remove_client(client_id);
                    self.user_data.remove(&client_id);
                    self.renet.remove_connection(client_id);
                }
            }
        }
    }
}
