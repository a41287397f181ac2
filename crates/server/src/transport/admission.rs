//! Which handshakes in progress a full shard keeps when a new one comes, under a flood from
//! many addresses.
//!
//! Each handshake is counted against its address (IPv4, IPv6 /64: [`PENDING_PER_IP`]) and its
//! prefix (IPv4 /24, IPv6 /48: [`PENDING_PER_PREFIX`], [`crate::addresses::prefix_key`]): an
//! IPv6 /48 holds 65,536 /64s, each of which could otherwise hold its [`PENDING_PER_IP`]. When a
//! shard is full ([`PENDING_PER_SHARD`]), the handshake dropped for the newcomer is the oldest
//! of the prefix that holds the most handshakes in progress ([`Policy::Fair`]); before, it was
//! the oldest of all ([`Policy::OldestFirst`], kept for comparison), so that a flood cycling
//! through the shard faster than a newcomer's round trip dropped every newcomer. A newcomer's
//! prefix holds one handshake, so it is dropped only once every prefix in the shard holds no
//! more than one: a flood needs [`PENDING_PER_SHARD`] distinct /24s or /48s per shard to reach
//! newcomers again.
//!
//! [`PENDING_PER_IP`]: super::PENDING_PER_IP
//! [`PENDING_PER_PREFIX`]: super::PENDING_PER_PREFIX
//! [`PENDING_PER_SHARD`]: super::PENDING_PER_SHARD

use std::cmp::Reverse;
use std::time::Duration;

/// How a full shard chooses the handshake to drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Policy {
    /// The oldest of the prefix holding the most handshakes in progress (per-prefix cap on).
    #[default]
    Fair,
    /// The oldest of all, and no cap per prefix (what the server did before).
    OldestFirst,
}

/// Of `candidates` (a handshake, its prefix's count of handshakes in progress, when it began),
/// the one to drop under `policy`.
pub fn evictee<K>(policy: Policy, candidates: impl Iterator<Item = (K, usize, Duration)>) -> Option<K> {
    match policy {
        Policy::Fair => {
            candidates.max_by_key(|(_, count, since)| (*count, Reverse(*since))).map(|(k, _, _)| k)
        }
        Policy::OldestFirst => candidates.min_by_key(|(_, _, since)| *since).map(|(k, _, _)| k),
    }
}

#[cfg(test)]
mod tests {
    use super::super::shared::Io;
    use super::super::*;
    use super::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

    fn io(policy: Policy) -> Io {
        Io {
            sockets: vec![Box::new(NoSocket)],
            renet: RenetServer::new(ludus_protocol::connection_config()),
            routes: HashMap::new(),
            shard_load: vec![0],
            clients: HashMap::new(),
            now: Duration::from_secs(1_800_000_000),
            kick: Vec::new(),
            max_routes: 1 << 20,
            active: Vec::new(),
            pending: HashMap::new(),
            pending_per_shard: vec![0],
            pending_per_ip: HashMap::new(),
            pending_per_prefix: HashMap::new(),
            policy,
            evict: Vec::new(),
            user_data: HashMap::new(),
            token_uses: HashMap::new(),
            current_request: None,
            addresses: Arc::new(Addresses::new(0)),
            panics: 0,
            handshakes: HandshakeStats::default(),
        }
    }

    /// A connection request from `addr` reaches one shard, which starts its handshake (as
    /// netcode does for a valid token); the handshakes the shard drops for it are dropped.
    fn arrive(io: &mut Io, addr: SocketAddr) {
        let mut request = vec![0u8; CONNECTION_REQUEST_BYTES];
        request[22..30].copy_from_slice(&(io.now.as_secs() + 30).to_le_bytes());
        if io.route(0, addr, &request).is_some() {
            io.add_pending(0, addr, 0);
        }
        for (socket_id, goes) in std::mem::take(&mut io.evict) {
            io.forget_pending(socket_id, goes);
            io.forget_route(socket_id, goes);
        }
        io.now += Duration::from_micros(10); // 100,000 requests a second
    }

    /// Newcomers (each from a network of its own) among a flood of `flood` addresses: the
    /// share whose handshake is still in progress after `rtt` more flood requests (it would
    /// then complete).
    fn admitted(policy: Policy, flood: &dyn Fn(usize) -> SocketAddr, rtt: usize) -> f64 {
        let mut io = io(policy);
        let (mut newcomers, mut kept) = (0, 0);
        let mut waiting: Vec<(usize, SocketAddr)> = Vec::new();
        for i in 0..200_000usize {
            if i.is_multiple_of(97) {
                let n: u32 = newcomers;
                let addr = SocketAddr::from((Ipv4Addr::from(0x6440_0001 + (n << 8)), 5000));
                newcomers += 1;
                arrive(&mut io, addr);
                waiting.push((i + rtt, addr));
            } else {
                arrive(&mut io, flood(i));
            }
            while waiting.first().is_some_and(|(due, _)| *due <= i) {
                let (_, addr) = waiting.remove(0);
                if io.pending.contains_key(&(0, addr)) {
                    kept += 1;
                    io.forget_pending(0, addr); // it completes and leaves the handshakes
                }
            }
        }
        f64::from(kept) / f64::from(newcomers - waiting.len() as u32)
    }

    /// One IPv6 /48 (each of its 65,536 /64s once) and sixteen IPv4 /24s, 100,000 handshake
    /// requests a second, against one shard; a newcomer's round trip is 10 ms (1,000 requests).
    #[test]
    fn newcomers_are_admitted_under_a_many_address_flood() {
        let flood = |i: usize| -> SocketAddr {
            if i.is_multiple_of(2) {
                let ip =
                    Ipv6Addr::from((0x2001_0db8_0001u128 << 80) | (((i / 2) as u128 & 0xFFFF) << 64) | 1);
                SocketAddr::from((ip, 5000))
            } else {
                let host = (i / 2) as u32;
                SocketAddr::from((
                    Ipv4Addr::from(0x0A00_0000 | ((host % 16) << 8) | (host / 16 % 254 + 1)),
                    5000,
                ))
            }
        };
        let fair = admitted(Policy::Fair, &flood, 1_000);
        let oldest = admitted(Policy::OldestFirst, &flood, 1_000);
        // Beyond the prefixes' fair shares: 1,024 /24s, one address each.
        let wide =
            |i: usize| SocketAddr::from((Ipv4Addr::from(0x0B00_0001 + ((i as u32 % 1024) << 8)), 5000));
        let fair_wide = admitted(Policy::Fair, &wide, 1_000);
        eprintln!(
            "newcomers admitted: {:.1} % (fair), {:.1} % (oldest first); against 1,024 /24s: {:.1} %",
            fair * 100.0,
            oldest * 100.0,
            fair_wide * 100.0
        );
        assert!(fair >= 0.99, "fair: {fair}");
        assert!(oldest <= 0.01, "oldest first: {oldest}");
    }

    #[test]
    fn the_oldest_of_the_biggest_prefix_goes() {
        let s = Duration::from_secs;
        let candidates =
            || [("newcomer", 1, s(1)), ("flood-old", 5, s(2)), ("flood-new", 5, s(9)), ("b", 3, s(0))];
        assert_eq!(evictee(Policy::Fair, candidates().into_iter()), Some("flood-old"));
        assert_eq!(evictee(Policy::OldestFirst, candidates().into_iter()), Some("b"));
        assert_eq!(evictee::<&str>(Policy::Fair, std::iter::empty()), None);
    }
}
