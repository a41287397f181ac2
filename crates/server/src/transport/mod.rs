//! The network layer: renet2 over netcode over a UDP socket and a WebSocket listener, sharded.
//!
//! renet2_netcode's `NetcodeServerTransport` holds at most 1,024 clients (netcode's limit), looks
//! clients up by a linear scan, and flushes every client on every tick. This transport keeps
//! renet2's reliability layer (one [`RenetServer`]) and netcode's handshake and encryption
//! ([`NetcodeServer`]), but
//! - spreads the clients over several small netcode servers ("shards") behind the same sockets,
//!   routing each packet by its source address (new addresses by their connection request), so
//!   one process holds thousands of clients;
//! - flushes a client at once when it has something to send, and otherwise only every
//!   [`IDLE_FLUSH_INTERVAL`] (acknowledgements, resends, keep-alives), so idle clients cost little;
//! - drops, before netcode sees them, the packets that renetcode2 0.16.3 cannot read without
//!   panicking ([`netcode_framing_ok`]): a spoofed datagram must never disconnect anyone;
//! - catches a panic while renet2 processes an authenticated client's payload (renet2 can panic
//!   on a forged slice) and disconnects that client instead of dying; a panic in netcode itself
//!   (before authentication) disconnects nobody;
//! - bounds the handshakes in progress (netcode's "pending clients"): at most
//!   [`PENDING_PER_IP`] per source address and [`PENDING_PER_PREFIX`] per /24 or /48, at most
//!   [`PENDING_PER_SHARD`] per shard (when a new one comes, the oldest of the prefix holding
//!   the most goes: [`admission`]), none older than [`PENDING_GRACE`]. netcode 0.16.3 keeps a
//!   pending client until the expiry its (self-made) token announces and offers no way to drop
//!   one; the transport drops one by replaying a connection request it mints for that address
//!   while the shard is "full", which is netcode's own path for refusing and forgetting a
//!   pending client ([`Transport::evict_pending`]);
//! - drops clients silent for [`SERVER_IDLE_TIMEOUT`] whatever timeout their token asked for;
//! - on datagram sockets (UDP), where a source address can be forged, drops a connection
//!   request whose token the endpoint minted for another address before it takes a handshake
//!   slot, and lets one whose token was minted for its address replace a handshake of a token
//!   it does not know ([`crate::addresses`]);
//! - caps the clients connected per address (`--max-clients-per-address`);
//! - counts the packets netcode refuses (it logs each one; the server's subscriber silences
//!   that) and notes them rate-limited ([`faults`]).

use crate::addresses::{Addresses, Binding, address_key};
use crate::faults;
pub(super) use admission::{Policy, evictee};
use ludus_protocol::IDLE_FLUSH_INTERVAL;
use renet2::RenetServer;
use renet2_netcode::{NetcodeTransportError, ServerSocket};
use renetcode2::{
    ConnectToken, NetcodeServer, Packet, ServerAuthentication, ServerConfig, ServerResult, ServerSocketConfig,
};
use std::collections::HashMap;
use std::io::{self, ErrorKind};
use std::net::{IpAddr, SocketAddr};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

pub mod admission;
mod shared;
use shared::Io;

/// Clients per netcode server. Small shards keep netcode's linear lookups cheap.
pub const SHARD_SIZE: usize = 128;
/// A client that sent nothing for this long is dropped.
pub const SERVER_IDLE_TIMEOUT: Duration = Duration::from_secs(20);
/// A route (source address to shard) of a connection that never completed is forgotten after
/// this long without packets.
const ROUTE_EXPIRY: Duration = Duration::from_secs(30);
/// netcode's largest packet.
const MAX_PACKET_BYTES: usize = renetcode2::NETCODE_MAX_PACKET_BYTES;
/// The most datagrams (and receive errors) one socket is read for in one tick: a flood cannot
/// hold the game loop; what is left waits in the socket's buffer for the next tick (and the
/// kernel drops what does not fit, as it would for any slow reader).
pub const RECEIVE_BUDGET: usize = 4096;
/// First byte of a netcode connection request.
const CONNECTION_REQUEST_PREFIX: u8 = 0;
/// A connection request: prefix, version (13), protocol id (8), expiry (8), nonce (24), private
/// token (1,024).
pub const CONNECTION_REQUEST_BYTES: usize = 1 + 13 + 8 + 8 + 24 + 1024;
/// netcode's authentication tag.
const MAC_BYTES: usize = 16;
/// Handshakes in progress from one address (IPv4 address, IPv6 /64).
pub const PENDING_PER_IP: usize = 8;
/// Handshakes in progress from one prefix (IPv4 /24, IPv6 /48: [`crate::addresses::prefix_key`]).
pub const PENDING_PER_PREFIX: usize = 64;
/// Handshakes in progress in one shard (netcode itself refuses newcomers beyond 4,096).
pub const PENDING_PER_SHARD: usize = 512;
/// A handshake not completed within this time is dropped (a real client answers the challenge
/// within a round trip; its resent requests start a new one).
pub const PENDING_GRACE: Duration = Duration::from_secs(10);

/// Whether renetcode2 0.16.3 can read `packet` (from a client) without panicking, and it could
/// be a packet a client sends at all.
///
/// netcode packets start with a prefix byte: the packet type in the low four bits and the
/// length of the sequence number in the high four. renetcode2's `Packet::decode` reads the
/// sequence into an 8-byte array with `seq[0..len]`, so a length of 9 to 15 (prefix `0x94`,
/// `0xF5`, ...) indexes out of bounds; and it splits the authentication tag off what follows
/// the sequence with `len - 16`, so a packet of at least 18 bytes whose sequence leaves fewer
/// than 16 bytes after it (21 bytes with prefix `0x85`) panics too. Both happen before any
/// decryption, for any packet from a connected or connecting client's address, so a spoofed
/// datagram could make the server drop that client. No packet a client sends is like that:
/// connection requests are 1,078 bytes, the others carry a sequence of at most 8 bytes and a
/// 16-byte tag. Types 1 (denied) and 2 (challenge) are sent only by servers.
pub fn netcode_framing_ok(packet: &[u8]) -> bool {
    let Some(&prefix) = packet.first() else {
        return false;
    };
    let sequence_bytes = usize::from(prefix >> 4);
    match prefix & 0x0f {
        0 => packet.len() >= CONNECTION_REQUEST_BYTES,
        3..=6 => sequence_bytes <= 8 && packet.len() >= 1 + sequence_bytes + MAC_BYTES,
        _ => false,
    }
}

/// The nonce of a connection request's token (it names the token).
fn request_nonce(packet: &[u8]) -> Option<[u8; 24]> {
    packet.get(1 + 13 + 8 + 8..1 + 13 + 8 + 8 + 24)?.try_into().ok()
}

/// The expiry (Unix seconds) a connection request announces.
fn request_expiry(packet: &[u8]) -> Option<u64> {
    let bytes: [u8; 8] = packet.get(1 + 13 + 8..1 + 13 + 8 + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(bytes))
}

/// A socket that is switched off (`--udp none` or `--ws none`).
#[derive(Debug)]
pub struct NoSocket;

impl ServerSocket for NoSocket {
    fn is_encrypted(&self) -> bool {
        false
    }
    fn is_reliable(&self) -> bool {
        false
    }
    fn addr(&self) -> io::Result<SocketAddr> {
        Ok(SocketAddr::from(([0, 0, 0, 0], 0)))
    }
    fn is_closed(&mut self) -> bool {
        false
    }
    fn close(&mut self) {}
    fn connection_denied(&mut self, _: SocketAddr) {}
    fn connection_accepted(&mut self, _: u64, _: SocketAddr) {}
    fn disconnect(&mut self, _: SocketAddr) {}
    fn preupdate(&mut self) {}
    fn try_recv(&mut self, _: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        Err(io::Error::from(ErrorKind::WouldBlock))
    }
    fn postupdate(&mut self) {}
    fn send(&mut self, _: SocketAddr, _: &[u8]) -> Result<(), NetcodeTransportError> {
        Err(io::Error::from(ErrorKind::ConnectionAborted).into())
    }
}

/// Handshake counters, for the operator and the tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandshakeStats {
    /// Connection requests handed to netcode.
    pub requests: u64,
    /// Connection requests dropped: their token already started a handshake from another
    /// address (netcode checks that within one shard; the transport across shards).
    pub token_reused: u64,
    /// Connection requests dropped: too many handshakes from that address.
    pub refused_per_address: u64,
    /// Handshakes dropped unfinished (oldest of a full shard, or too old).
    pub evicted: u64,
    /// Packets dropped before netcode because renetcode2 would panic on them (or no client
    /// sends such packets).
    pub malformed: u64,
    /// Panics inside netcode (unauthenticated packets): contained, nobody disconnected.
    pub netcode_panics: u64,
    /// Connection requests dropped: their token was minted for another address (forged).
    pub wrong_address: u64,
    /// Handshakes of unknown tokens replaced by one whose token was minted for that address.
    pub replaced: u64,
    /// Connection requests dropped, or clients disconnected, beyond the cap per address.
    pub refused_clients_per_address: u64,
    /// Packets netcode refused (undecryptable, bad token, replayed, ...).
    pub netcode_errors: u64,
    /// Authenticated packets renet2 refused (its connection to that client then closes).
    pub renet_errors: u64,
}

/// The sharded transport. See the module documentation.
pub struct Transport {
    shards: Vec<NetcodeServer>,
    io: Io,
    buffer: Box<[u8; MAX_PACKET_BYTES]>,
    last_sweep: Duration,
    last_pending_sweep: Duration,
    protocol_id: u64,
    /// The server's private key: netcode checks connect tokens with it (only the server's
    /// HTTP endpoint mints them, [`crate::tokens`]).
    connect_key: [u8; 32],
    /// Datagrams read per socket per tick ([`RECEIVE_BUDGET`]).
    receive_budget: usize,
    /// Ticks that stopped reading a socket at the budget.
    budget_hits: u64,
}

impl Transport {
    /// A transport over `sockets` (socket id = index) for up to `max_clients` clients; `now` is
    /// the time since the Unix epoch (netcode checks token expiry against it).
    pub fn new(
        sockets: Vec<Box<dyn ServerSocket>>,
        max_clients: usize,
        protocol_id: u64,
        now: Duration,
        private_key: [u8; 32],
    ) -> Self {
        let shard_count = max_clients.div_ceil(SHARD_SIZE).max(1);
        let shards = (0..shard_count)
            .map(|_| {
                NetcodeServer::new(ServerConfig {
                    current_time: now,
                    max_clients: SHARD_SIZE,
                    protocol_id,
                    sockets: sockets
                        .iter()
                        .map(|s| ServerSocketConfig {
                            needs_encryption: !s.is_encrypted(),
                            public_addresses: vec![
                                s.addr().unwrap_or_else(|_| SocketAddr::from(([0; 4], 0))),
                            ],
                        })
                        .collect(),
                    authentication: ServerAuthentication::Secure { private_key },
                })
            })
            .collect();
        Transport {
            shards,
            io: Io {
                sockets,
                renet: RenetServer::new(ludus_protocol::connection_config()),
                routes: HashMap::new(),
                shard_load: vec![0; shard_count],
                clients: HashMap::new(),
                now,
                kick: Vec::new(),
                max_routes: shard_count * (SHARD_SIZE + PENDING_PER_SHARD) * 2,
                active: Vec::new(),
                pending: HashMap::new(),
                pending_per_shard: vec![0; shard_count],
                pending_per_ip: HashMap::new(),
                pending_per_prefix: HashMap::new(),
                policy: Policy::default(),
                evict: Vec::new(),
                user_data: HashMap::new(),
                token_uses: HashMap::new(),
                current_request: None,
                addresses: Arc::new(Addresses::new(0)),
                panics: 0,
                handshakes: HandshakeStats::default(),
            },
            buffer: Box::new([0; MAX_PACKET_BYTES]),
            last_sweep: now,
            last_pending_sweep: now,
            protocol_id,
            connect_key: private_key,
            receive_budget: RECEIVE_BUDGET,
            budget_hits: 0,
        }
    }

    /// Checks tokens' addresses and caps clients per address with `addresses` (the token
    /// endpoint's).
    pub fn with_addresses(mut self, addresses: Arc<Addresses>) -> Self {
        self.io.addresses = addresses;
        self
    }

    /// Packets whose processing by renet2 panicked (a hostile or broken authenticated client,
    /// which was disconnected).
    pub fn panics(&self) -> u64 {
        self.io.panics
    }

    /// Handshake counters.
    pub fn handshakes(&self) -> HandshakeStats {
        self.io.handshakes
    }

    /// Ticks that stopped reading a socket at its budget.
    pub fn budget_hits(&self) -> u64 {
        self.budget_hits
    }

    /// Takes the user data of a connected client's connect token (written by the server's
    /// token endpoint: who the connection signs in as).
    pub fn take_user_data(
        &mut self,
        client_id: u64,
    ) -> Option<Box<[u8; renetcode2::NETCODE_USER_DATA_BYTES]>> {
        self.io.user_data.remove(&client_id)
    }

    /// The address of a connected client.
    pub fn client_addr(&self, client_id: u64) -> Option<SocketAddr> {
        let entry = self.io.clients.get(&client_id)?;
        self.shards.get(entry.shard)?.client_addr(client_id).map(|(_, addr)| addr)
    }

    /// Handshakes in progress.
    pub fn pending(&self) -> usize {
        self.io.pending.len()
    }

    /// The reliability layer: messages and connection events.
    pub fn renet(&mut self) -> &mut RenetServer {
        &mut self.io.renet
    }

    /// Connected clients.
    pub fn client_count(&self) -> usize {
        self.io.clients.len()
    }

    /// Connected clients by socket: `[UDP, WebSocket]` (socket ids 0 and 1).
    pub fn clients_by_socket(&self) -> [usize; 2] {
        let mut counts = [0; 2];
        for (&id, entry) in &self.io.clients {
            if let Some((socket, _)) = self.shards.get(entry.shard).and_then(|n| n.client_addr(id))
                && let Some(c) = counts.get_mut(socket)
            {
                *c += 1;
            }
        }
        counts
    }

    /// Advances time by `dt` (netcode and renet2 timers).
    pub fn advance(&mut self, dt: Duration) {
        self.io.now += dt;
        for shard in &mut self.shards {
            shard.update(dt);
        }
        self.io.renet.update(dt);
    }

    /// Clients that sent payloads since the last call.
    pub fn take_active(&mut self) -> Vec<u64> {
        std::mem::take(&mut self.io.active)
    }

    /// Receives and processes the waiting packets, at most [`RECEIVE_BUDGET`] a socket.
    pub fn receive(&mut self) {
        for socket_id in 0..self.io.sockets.len() {
            self.io.sockets[socket_id].preupdate();
            for read in 0.. {
                if read == self.receive_budget {
                    self.budget_hits += 1;
                    faults::note("a socket read up to its budget in one tick (the rest waits)");
                    break;
                }
                let (len, addr) = match self.io.sockets[socket_id].try_recv(&mut self.buffer[..]) {
                    Ok(r) => r,
                    Err(e) if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::Interrupted => {
                        break;
                    }
                    Err(_) => continue, // ICMP errors, resets: not fatal (and counted).
                };
                let packet = &mut self.buffer[..len];
                if !netcode_framing_ok(packet) {
                    self.io.handshakes.malformed += 1;
                    faults::note("malformed netcode packet dropped");
                    continue;
                }
                self.io.current_request = None;
                if packet.first() == Some(&CONNECTION_REQUEST_PREFIX)
                    && let (Some(nonce), Some(expiry)) = (request_nonce(packet), request_expiry(packet))
                {
                    if self
                        .io
                        .token_uses
                        .get(&nonce)
                        .is_some_and(|(used_by, _)| *used_by != (socket_id, addr))
                    {
                        self.io.handshakes.token_reused += 1;
                        faults::note("connection request refused: its token was used from another address");
                        continue;
                    }
                    // A datagram's source can be forged: its token must have been minted for it.
                    let key = address_key(&addr);
                    let bound = self.io.sockets[socket_id].is_reliable()
                        || match self.io.addresses.binding(&nonce, key) {
                            Binding::Here => true,
                            Binding::Unknown => false,
                            Binding::Elsewhere => {
                                self.io.handshakes.wrong_address += 1;
                                faults::note(
                                    "connection request dropped: its token was minted for another address",
                                );
                                continue;
                            }
                        };
                    if bound && !self.io.pending.contains_key(&(socket_id, addr)) {
                        self.make_room_for(key);
                    }
                    self.io.current_request = Some((nonce, expiry, bound));
                }
                let packet = &mut self.buffer[..len];
                let Some(shard) = self.io.route(socket_id, addr, packet) else {
                    continue;
                };
                let io = &mut self.io;
                let netcode = &mut self.shards[shard];
                // A panic here is netcode's, before the packet is authenticated: nobody is
                // disconnected for it (renet2's panics on authenticated payloads are caught in
                // `Io::handle`).
                let process = move || {
                    let (netcode, packet) = (netcode, packet); // moved: the result borrows them
                    netcode.process_packet(socket_id, addr, packet)
                };
                match catch_unwind(AssertUnwindSafe(process)) {
                    Ok(result) => io.handle(result, shard),
                    Err(_) => {
                        io.handshakes.netcode_panics += 1;
                        faults::note("netcode panicked on a packet (contained, nobody disconnected)");
                    }
                }
                self.apply_evictions();
            }
        }
        for socket in &mut self.io.sockets {
            socket.postupdate();
        }
        self.apply_kicks();
    }

    /// An address at its cap of handshakes gives up one whose token it did not get itself
    /// (for a request whose token it did).
    fn make_room_for(&mut self, key: IpAddr) {
        if self.io.pending_per_ip.get(&key).is_none_or(|&n| n < PENDING_PER_IP) {
            return;
        }
        let unbound = self
            .io
            .pending
            .iter()
            .filter(|((_, a), p)| !p.bound && address_key(a) == key)
            .min_by_key(|(_, p)| p.since)
            .map(|(&k, _)| k);
        if let Some((socket_id, addr)) = unbound {
            self.io.handshakes.replaced += 1;
            self.evict_pending(socket_id, addr);
        }
    }

    fn apply_evictions(&mut self) {
        self.io.current_request = None;
        while let Some((socket_id, addr)) = self.io.evict.pop() {
            self.evict_pending(socket_id, addr);
        }
    }

    /// Drops the handshake in progress from `addr`: netcode forgets its pending client, the
    /// socket its connection, the transport its route.
    ///
    /// renetcode2 0.16.3 has no call to drop a pending client. It does drop one when a
    /// connection request from that address comes while the server is full. So the transport
    /// mints a connection request for that address (with the key netcode checks tokens with),
    /// lowers the shard's capacity to its connected clients for that one packet, and discards
    /// netcode's refusal.
    fn evict_pending(&mut self, socket_id: usize, addr: SocketAddr) {
        let Some(pending) = self.io.pending.get(&(socket_id, addr)) else {
            return;
        };
        let shard = pending.shard;
        let public = self.io.sockets[socket_id].addr().unwrap_or_else(|_| SocketAddr::from(([0; 4], 0)));
        let token = ConnectToken::generate(
            self.io.now,
            self.protocol_id,
            60,
            u64::from_le_bytes(renet2_netcode::generate_random_bytes::<8>()),
            1,
            socket_id as u8,
            vec![public],
            None,
            &self.connect_key,
        );
        let mut request = [0u8; CONNECTION_REQUEST_BYTES];
        let encoded = token.ok().and_then(|token| {
            Packet::connection_request_from_token(&token)
                .encode(&mut request, self.protocol_id, None, true)
                .ok()
        });
        if let Some(len) = encoded {
            let netcode = &mut self.shards[shard];
            let capacity = netcode.max_clients();
            netcode.set_max_clients(netcode.connected_clients());
            let refused = catch_unwind(AssertUnwindSafe(|| {
                matches!(
                    netcode.process_packet(socket_id, addr, &mut request[..len]),
                    ServerResult::ConnectionDenied { .. }
                )
            }));
            netcode.set_max_clients(capacity);
            if !matches!(refused, Ok(true)) {
                faults::note("a pending handshake could not be dropped from netcode");
            }
        }
        self.io.handshakes.evicted += 1;
        self.io.forget_pending(socket_id, addr);
        if let Some(socket) = self.io.sockets.get_mut(socket_id) {
            socket.connection_denied(addr);
        }
        if self.io.routes.get(&(socket_id, addr)).is_some_and(|r| !r.connected) {
            self.io.forget_route(socket_id, addr);
        }
    }

    fn apply_kicks(&mut self) {
        while let Some((id, shard)) = self.io.kick.pop() {
            self.disconnect_in(id, shard);
        }
    }

    fn disconnect_in(&mut self, client_id: u64, shard: usize) {
        let result = self.shards[shard].disconnect(client_id);
        let known = !matches!(result, ServerResult::None);
        self.io.handle(result, shard);
        if !known && self.io.clients.get(&client_id).is_some_and(|c| c.shard == shard) {
            self.io.remove_client(client_id);
            self.io.renet.remove_connection(client_id);
        }
    }

    /// Disconnects a client now (it is told so; its packets are ignored from now on).
    pub fn disconnect(&mut self, client_id: u64) {
        match self.io.clients.get(&client_id).map(|c| c.shard) {
            Some(shard) => self.disconnect_in(client_id, shard),
            // Not (or no longer) connected in netcode: make sure renet forgets it too.
            None => self.io.renet.remove_connection(client_id),
        }
    }

    /// Sends what renet has queued for `client_id`.
    pub fn flush(&mut self, client_id: u64) {
        let Some(entry) = self.io.clients.get_mut(&client_id) else {
            return;
        };
        entry.last_flush = self.io.now;
        let shard = entry.shard;
        let Ok(packets) = self.io.renet.get_packets_to_send(client_id) else {
            return;
        };
        let netcode = &mut self.shards[shard];
        for packet in packets {
            let (socket_id, addr, payload) = match netcode.generate_payload_packet(client_id, &packet) {
                Ok(r) => r,
                Err(_) => break,
            };
            match self.io.sockets[socket_id].send(addr, payload) {
                Ok(()) => {}
                Err(NetcodeTransportError::IO(e)) if e.kind() == ErrorKind::ConnectionAborted => {
                    self.io.kick.push((client_id, shard));
                    break;
                }
                Err(_) => break,
            }
        }
        self.apply_kicks();
    }

    /// Flushes the clients not flushed for [`IDLE_FLUSH_INTERVAL`], sends netcode keep-alives,
    /// and drops clients that timed out. Call it every tick.
    pub fn maintain(&mut self) {
        let now = self.io.now;
        let due: Vec<u64> = self
            .io
            .clients
            .iter()
            .filter(|(_, c)| now.saturating_sub(c.last_flush) >= IDLE_FLUSH_INTERVAL)
            .map(|(&id, _)| id)
            .collect();
        for id in due {
            let Some(shard) = self.io.clients.get(&id).map(|c| c.shard) else {
                continue;
            };
            // netcode no longer knows it (it cannot happen, but never keep a ghost).
            let Some(silent) = self.shards[shard].time_since_last_received_packet(id) else {
                self.io.remove_client(id);
                self.io.renet.remove_connection(id);
                continue;
            };
            if silent > SERVER_IDLE_TIMEOUT {
                self.disconnect(id);
                continue;
            }
            let result = self.shards[shard].update_client(id);
            self.io.handle(result, shard);
            self.flush(id);
        }
        // renet connections that renet itself closed (channel errors) leave netcode too.
        let closed: Vec<u64> =
            self.io.clients.keys().copied().filter(|&id| !self.io.renet.is_connected(id)).collect();
        for id in closed {
            self.disconnect(id);
        }
        if now.saturating_sub(self.last_pending_sweep) >= Duration::from_secs(1) {
            self.last_pending_sweep = now;
            let stale: Vec<(usize, SocketAddr)> = self
                .io
                .pending
                .iter()
                .filter(|(_, p)| now.saturating_sub(p.since) >= PENDING_GRACE)
                .map(|(&key, _)| key)
                .collect();
            for (socket_id, addr) in stale {
                self.evict_pending(socket_id, addr);
            }
        }
        if now.saturating_sub(self.last_sweep) >= Duration::from_secs(5) {
            self.last_sweep = now;
            let io = &mut self.io;
            let now_secs = now.as_secs();
            io.token_uses.retain(|_, (_, expiry)| *expiry > now_secs);
            io.addresses.sweep(now_secs);
            let before = io.routes.len();
            let mut freed = vec![0; io.shard_load.len()];
            let pending = &io.pending;
            io.routes.retain(|key, r| {
                let keep = r.connected
                    || pending.contains_key(key)
                    || now.saturating_sub(r.last_seen) < ROUTE_EXPIRY;
                if !keep {
                    freed[r.shard] += 1;
                }
                keep
            });
            if io.routes.len() != before {
                for (load, f) in io.shard_load.iter_mut().zip(freed) {
                    *load = load.saturating_sub(f);
                }
            }
        }
        self.apply_kicks();
    }

    /// Disconnects everyone (server shutdown).
    pub fn disconnect_all(&mut self) {
        let ids: Vec<u64> = self.io.clients.keys().copied().collect();
        for id in ids {
            self.disconnect(id);
        }
        for socket in &mut self.io.sockets {
            socket.postupdate();
        }
    }

    /// Closes the sockets.
    pub fn close(&mut self) {
        for socket in &mut self.io.sockets {
            socket.close();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use renet2_netcode::NativeSocket;
    use std::net::UdpSocket;

    /// A flood is read a budget at a time: one tick reads at most the budget, the next ticks the
    /// rest, and nothing is lost that fitted in the socket's buffer.
    #[test]
    fn a_flood_is_read_a_budget_a_tick() {
        let server = UdpSocket::bind("127.0.0.1:0").expect("a loopback socket");
        let at = server.local_addr().expect("its address");
        let socket = NativeSocket::new(server).expect("a netcode socket");
        let mut transport =
            Transport::new(vec![Box::new(socket)], SHARD_SIZE, 7, Duration::from_secs(1_000_000), [3; 32]);
        transport.receive_budget = 40;
        let flood = UdpSocket::bind("127.0.0.1:0").expect("a loopback socket");
        // Malformed for netcode (a prefix no packet has): each is counted and dropped.
        for _ in 0..100 {
            flood.send_to(&[0x0f, 1, 2, 3], at).expect("sent on loopback");
        }
        let mut seen = Vec::new();
        for _ in 0..4 {
            transport.receive();
            seen.push(transport.handshakes().malformed);
        }
        assert_eq!(seen, [40, 80, 100, 100], "packets read after each tick");
        assert_eq!(transport.budget_hits(), 2);
    }
}
