//! What the token endpoint and the transport share about client addresses (IPv4 address, IPv6
//! /64: [`address_key`]):
//!
//! - which address asked for each connect token: the endpoint binds every token it mints (by
//!   its nonce, which names it in the connection request) to the address of the HTTP(S)
//!   request, and the transport drops a UDP connection request whose token was bound to
//!   another address before netcode sees it. An off-path attacker can forge a datagram's
//!   source address but not a TCP connection: the tokens it gets are bound to its own
//!   addresses, so it cannot hold handshakes in a victim's name;
//! - how many clients each address has connected, against the cap of
//!   `--max-clients-per-address` (the endpoint refuses tokens beyond it; the transport
//!   disconnects a client that would exceed it).

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The part of an address that one party controls: an IPv4 address, or an IPv6 /64.
pub fn address_key(addr: &SocketAddr) -> IpAddr {
    match addr.ip() {
        IpAddr::V4(ip) => IpAddr::V4(ip),
        IpAddr::V6(ip) => match ip.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(ip) & !((1u128 << 64) - 1)).into()),
        },
    }
}

/// The network one party is likely to hold whole: an IPv4 /24, or an IPv6 /48 (a site's usual
/// allocation, 65,536 /64s). Handshakes in progress are bounded per prefix too
/// ([`crate::transport::PENDING_PER_PREFIX`]), so that one site's many addresses cannot crowd
/// everyone else out.
pub fn prefix_key(addr: &SocketAddr) -> IpAddr {
    match address_key(addr) {
        IpAddr::V4(ip) => IpAddr::V4((u32::from(ip) & 0xFFFF_FF00).into()),
        IpAddr::V6(ip) => IpAddr::V6((u128::from(ip) & !((1u128 << 80) - 1)).into()),
    }
}

/// Concurrent clients allowed per address by default (a LAN party behind one NAT may need
/// more: `--max-clients-per-address`).
pub const DEFAULT_MAX_CLIENTS_PER_ADDRESS: usize = 16;

/// Tokens remembered at once (each for its lifetime, 30 s): beyond, the endpoint is busy.
pub const MAX_BINDINGS: usize = 1 << 18;

/// The nonce of a connect token (the token's `xnonce`, repeated in its connection request).
pub type Nonce = [u8; 24];

/// What an address's token says about a connection request from `addr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// The token was minted for this address.
    Here,
    /// The token was minted for another address: the request is forged (or the client's
    /// address changed between its token and its request).
    Elsewhere,
    /// The token is not one this endpoint minted (another server sharing the key, one minted
    /// before a restart, or a made-up one that netcode will refuse).
    Unknown,
}

#[derive(Default)]
struct Inner {
    /// Token nonce: the address that asked for it, and the token's expiry (Unix seconds).
    bindings: HashMap<Nonce, (IpAddr, u64)>,
    /// Connected clients by address.
    clients: HashMap<IpAddr, usize>,
}

/// See the module documentation. Shared (`Arc`) by the token endpoint and the transport.
pub struct Addresses {
    max_clients: usize,
    inner: Mutex<Inner>,
}

impl Addresses {
    /// At most `max_clients_per_address` clients connected at once per address (0: no cap).
    pub fn new(max_clients_per_address: usize) -> Addresses {
        Addresses { max_clients: max_clients_per_address, inner: Mutex::new(Inner::default()) }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The cap of clients per address (0: none).
    pub fn max_clients(&self) -> usize {
        self.max_clients
    }

    /// Binds the token `nonce`, expiring at `expiry` (Unix seconds), to `key`; `false` when too
    /// many tokens are alive (expired ones are forgotten first).
    pub fn bind(&self, nonce: Nonce, key: IpAddr, expiry: u64, now_secs: u64) -> bool {
        let mut inner = self.lock();
        if inner.bindings.len() >= MAX_BINDINGS {
            inner.bindings.retain(|_, (_, e)| *e > now_secs);
            if inner.bindings.len() >= MAX_BINDINGS {
                return false;
            }
        }
        inner.bindings.insert(nonce, (key, expiry));
        true
    }

    /// Whether the token `nonce` was minted for `key`.
    pub fn binding(&self, nonce: &Nonce, key: IpAddr) -> Binding {
        match self.lock().bindings.get(nonce) {
            Some((bound, _)) if *bound == key => Binding::Here,
            Some(_) => Binding::Elsewhere,
            None => Binding::Unknown,
        }
    }

    /// Forgets the tokens expired at `now_secs`.
    pub fn sweep(&self, now_secs: u64) {
        self.lock().bindings.retain(|_, (_, e)| *e > now_secs);
    }

    /// Tokens remembered.
    pub fn bindings(&self) -> usize {
        self.lock().bindings.len()
    }

    /// Whether `key` may have one more client connected.
    pub fn has_room(&self, key: IpAddr) -> bool {
        self.max_clients == 0 || self.clients(key) < self.max_clients
    }

    /// Clients connected from `key`.
    pub fn clients(&self, key: IpAddr) -> usize {
        self.lock().clients.get(&key).copied().unwrap_or(0)
    }

    /// A client from `key` connected: `false` (and not counted) when `key` is at its cap.
    pub fn connect(&self, key: IpAddr) -> bool {
        let mut inner = self.lock();
        let n = inner.clients.entry(key).or_default();
        if self.max_clients != 0 && *n >= self.max_clients {
            if *n == 0 {
                inner.clients.remove(&key);
            }
            return false;
        }
        *n += 1;
        true
    }

    /// A client from `key` counted by [`Addresses::connect`] is gone.
    pub fn disconnect(&self, key: IpAddr) {
        let mut inner = self.lock();
        if let Some(n) = inner.clients.get_mut(&key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                inner.clients.remove(&key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Addresses, Binding};
    use std::net::IpAddr;

    #[test]
    fn tokens_are_bound_to_their_address_until_they_expire() {
        let book = Addresses::new(0);
        let (a, b): (IpAddr, IpAddr) = ([10, 0, 0, 1].into(), [10, 0, 0, 2].into());
        assert!(book.bind([1; 24], a, 130, 100));
        assert_eq!(book.binding(&[1; 24], a), Binding::Here);
        assert_eq!(book.binding(&[1; 24], b), Binding::Elsewhere);
        assert_eq!(book.binding(&[2; 24], a), Binding::Unknown);
        book.sweep(129);
        assert_eq!(book.bindings(), 1);
        book.sweep(130);
        assert_eq!(book.binding(&[1; 24], a), Binding::Unknown);
    }

    #[test]
    fn clients_are_capped_per_address() {
        let book = Addresses::new(2);
        let (a, b): (IpAddr, IpAddr) = ([10, 0, 0, 1].into(), [10, 0, 0, 2].into());
        assert!(book.connect(a) && book.connect(a));
        assert!(!book.has_room(a));
        assert!(!book.connect(a), "a third client from one address");
        assert!(book.has_room(b) && book.connect(b));
        book.disconnect(a);
        assert_eq!(book.clients(a), 1);
        assert!(book.connect(a));
        let open = Addresses::new(0);
        assert!((0..100).all(|_| open.connect(a)), "0: no cap");
    }
}
