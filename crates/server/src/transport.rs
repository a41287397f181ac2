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
//! - catches a panic while processing one client's packet (renet2 can panic on a forged
//!   acknowledgement range) and disconnects that client instead of dying;
//! - drops clients silent for [`SERVER_IDLE_TIMEOUT`] whatever timeout their token asked for.

use ludus_protocol::IDLE_FLUSH_INTERVAL;
use renet2::RenetServer;
use renet2_netcode::{NetcodeTransportError, ServerSocket};
use renetcode2::{NetcodeServer, ServerAuthentication, ServerConfig, ServerResult, ServerSocketConfig};
use std::collections::HashMap;
use std::io::{self, ErrorKind};
use std::net::SocketAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

/// Clients per netcode server. Small shards keep netcode's linear lookups cheap.
pub const SHARD_SIZE: usize = 128;
/// A client that sent nothing for this long is dropped.
pub const SERVER_IDLE_TIMEOUT: Duration = Duration::from_secs(20);
/// A route (source address to shard) of a connection that never completed is forgotten after
/// this long without packets.
const ROUTE_EXPIRY: Duration = Duration::from_secs(30);
/// netcode's largest packet.
const MAX_PACKET_BYTES: usize = 1400;
/// First byte of a netcode connection request.
const CONNECTION_REQUEST_PREFIX: u8 = 0;

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

struct Route {
    shard: usize,
    last_seen: Duration,
    connected: bool,
}

struct ClientEntry {
    shard: usize,
    last_flush: Duration,
}

/// Everything but the shards, so that a shard's borrowed result can be handled.
struct Io {
    sockets: Vec<Box<dyn ServerSocket>>,
    renet: RenetServer,
    routes: HashMap<(usize, SocketAddr), Route>,
    shard_load: Vec<usize>,
    clients: HashMap<u64, ClientEntry>,
    now: Duration,
    /// Clients to disconnect once the current result is handled: `(id, shard)`.
    kick: Vec<(u64, usize)>,
    max_routes: usize,
    /// Clients that sent payloads since the last `take_active`.
    active: Vec<u64>,
}

/// The sharded transport. See the module documentation.
pub struct Transport {
    shards: Vec<NetcodeServer>,
    io: Io,
    buffer: Box<[u8; MAX_PACKET_BYTES]>,
    last_sweep: Duration,
    /// Packets whose processing panicked (a hostile or broken client).
    pub panics: u64,
}

impl Transport {
    /// A transport over `sockets` (socket id = index) for up to `max_clients` clients; `now` is
    /// the time since the Unix epoch (netcode checks token expiry against it).
    pub fn new(
        sockets: Vec<Box<dyn ServerSocket>>,
        max_clients: usize,
        protocol_id: u64,
        now: Duration,
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
                    authentication: ServerAuthentication::Unsecure,
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
                max_routes: shard_count * SHARD_SIZE * 4,
                active: Vec::new(),
            },
            buffer: Box::new([0; MAX_PACKET_BYTES]),
            last_sweep: now,
            panics: 0,
        }
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

    /// Receives and processes every waiting packet.
    pub fn receive(&mut self) {
        for socket_id in 0..self.io.sockets.len() {
            self.io.sockets[socket_id].preupdate();
            loop {
                let (len, addr) = match self.io.sockets[socket_id].try_recv(&mut self.buffer[..]) {
                    Ok(r) => r,
                    Err(e) if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::Interrupted => {
                        break;
                    }
                    Err(_) => continue, // ICMP errors, resets: not fatal.
                };
                let Some(shard) = self.io.route(socket_id, addr, &self.buffer[..len]) else {
                    continue;
                };
                let packet = &mut self.buffer[..len];
                let panicked = {
                    let io = &mut self.io;
                    let netcode = &mut self.shards[shard];
                    catch_unwind(AssertUnwindSafe(|| {
                        let result = netcode.process_packet(socket_id, addr, packet);
                        io.handle(result, shard);
                    }))
                    .is_err()
                };
                if panicked {
                    self.panics += 1;
                    // The client whose packet it was, if known, is dropped.
                    if let Some(id) = self.client_at(shard, socket_id, addr) {
                        self.io.kick.push((id, shard));
                    }
                }
            }
        }
        for socket in &mut self.io.sockets {
            socket.postupdate();
        }
        self.apply_kicks();
    }

    fn client_at(&self, shard: usize, socket_id: usize, addr: SocketAddr) -> Option<u64> {
        let netcode = &self.shards[shard];
        netcode.clients_id_iter().find(|&id| netcode.client_addr(id) == Some((socket_id, addr)))
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
            self.io.clients.remove(&client_id);
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
                self.io.clients.remove(&id);
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
        if now.saturating_sub(self.last_sweep) >= Duration::from_secs(5) {
            self.last_sweep = now;
            let io = &mut self.io;
            let before = io.routes.len();
            let mut freed = vec![0; io.shard_load.len()];
            io.routes.retain(|_, r| {
                let keep = r.connected || now.saturating_sub(r.last_seen) < ROUTE_EXPIRY;
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

impl Io {
    /// The shard for a packet from `addr`, creating the route for a connection request.
    fn route(&mut self, socket_id: usize, addr: SocketAddr, packet: &[u8]) -> Option<usize> {
        if let Some(route) = self.routes.get_mut(&(socket_id, addr)) {
            route.last_seen = self.now;
            return Some(route.shard);
        }
        if packet.first() != Some(&CONNECTION_REQUEST_PREFIX) || self.routes.len() >= self.max_routes {
            return None;
        }
        let (shard, _) = self.shard_load.iter().enumerate().min_by_key(|(_, load)| **load)?;
        self.shard_load[shard] += 1;
        self.routes.insert((socket_id, addr), Route { shard, last_seen: self.now, connected: false });
        Some(shard)
    }

    fn forget_route(&mut self, socket_id: usize, addr: SocketAddr) {
        if let Some(route) = self.routes.remove(&(socket_id, addr)) {
            self.shard_load[route.shard] = self.shard_load[route.shard].saturating_sub(1);
        }
    }

    fn send(&mut self, socket_id: usize, addr: SocketAddr, packet: &[u8]) {
        if let Some(socket) = self.sockets.get_mut(socket_id) {
            let _ = socket.send(addr, packet);
        }
    }

    fn handle(&mut self, result: ServerResult<'_, '_>, shard: usize) {
        match result {
            ServerResult::None => {}
            ServerResult::Error { socket_id, addr } => {
                if let Some(socket) = self.sockets.get_mut(socket_id) {
                    socket.disconnect(addr);
                }
                // A bad packet from a connected client's address (maybe spoofed) does not drop
                // that client's route.
                if self.routes.get(&(socket_id, addr)).is_some_and(|r| !r.connected) {
                    self.forget_route(socket_id, addr);
                }
            }
            ServerResult::ConnectionDenied { socket_id, addr, payload } => {
                if let Some(payload) = payload {
                    self.send(socket_id, addr, payload);
                }
                if let Some(socket) = self.sockets.get_mut(socket_id) {
                    socket.connection_denied(addr);
                }
                if self.routes.get(&(socket_id, addr)).is_some_and(|r| !r.connected) {
                    self.forget_route(socket_id, addr);
                }
            }
            ServerResult::ConnectionAccepted { client_id, socket_id, addr, payload } => {
                if let Some(socket) = self.sockets.get_mut(socket_id) {
                    socket.connection_accepted(client_id, addr);
                }
                self.send(socket_id, addr, payload);
            }
            ServerResult::PacketToSend { socket_id, addr, payload } => self.send(socket_id, addr, payload),
            ServerResult::Payload { client_id, payload } => {
                if self.renet.process_packet_from(payload, client_id).is_ok()
                    && self.active.last() != Some(&client_id)
                {
                    self.active.push(client_id);
                }
            }
            ServerResult::ClientConnected { client_id, socket_id, addr, payload, .. } => {
                self.send(socket_id, addr, payload);
                if let Some(route) = self.routes.get_mut(&(socket_id, addr)) {
                    route.connected = true;
                }
                if self.clients.contains_key(&client_id) {
                    // The same id in another shard: refuse the newcomer.
                    self.kick.push((client_id, shard));
                    return;
                }
                let reliable = self.sockets.get(socket_id).is_some_and(|s| s.is_reliable());
                self.renet.add_connection(client_id, reliable);
                self.clients.insert(client_id, ClientEntry { shard, last_flush: self.now });
            }
            ServerResult::ClientDisconnected { client_id, socket_id, addr, payload } => {
                if let Some(payload) = payload {
                    self.send(socket_id, addr, payload);
                }
                if let Some(socket) = self.sockets.get_mut(socket_id) {
                    socket.disconnect(addr);
                }
                self.forget_route(socket_id, addr);
                if self.clients.get(&client_id).is_some_and(|c| c.shard == shard) {
                    self.clients.remove(&client_id);
                    self.renet.remove_connection(client_id);
                }
            }
        }
    }
}
