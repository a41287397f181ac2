//! Server-minted netcode connect tokens: the server's private key, the token endpoint's logic
//! (`POST /api/connect`, served by [`crate::web`]), the new-player rate limit, and what a token
//! carries for the server (its user data: the session credential of the request).
//!
//! netcode runs in secure mode: a connection request is accepted only with a connect token
//! encrypted with the server's private key, which only this module uses. A client therefore
//! asks the HTTP(S) endpoint for a token (with its session credential, or as a new player) and
//! connects with it within [`CONNECT_TOKEN_SECONDS`]. The token names a client id the server
//! drew at random and the server's own address for the socket asked for; its user data, which
//! only the server can read, carries the credential and whether the request may create a new
//! player (it passed the per-address new-player limit).
//!
//! Every token request is limited per address (IPv4 address, IPv6 /64), whatever credential it
//! carries: only a credential the server issued since it started (the core reports each one,
//! [`Minter::vouch`]) draws on an allowance of its own ([`RETURNING_PER_MINUTE`]), so that a
//! returning player is served whatever others ask for from its address; any other request,
//! with a made-up credential or none, takes one from the address's new-player bucket and is
//! refused (`429`) when it is empty. Each token is bound to the address that asked for it
//! ([`crate::addresses`]), and none is minted for an address at its cap of clients.

use crate::addresses::Addresses;
use crate::addresses::address_key;
use crate::credential::{Grant, MAX_CREDENTIAL_BYTES, credential_hash};
use ludus_protocol::{CONNECT_TOKEN_SECONDS, ConnectRequest, PROTOCOL_VERSION, SessionToken};
use renetcode2::ConnectToken;
use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The file of the generated key, in the data directory.
pub const KEY_FILE: &str = "netcode.key";
/// Longest `ConnectRequest` body accepted.
pub const MAX_REQUEST_BYTES: usize = 256;

/// The key file could not be read, written or understood.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// Reading or writing failed.
    #[error("key file {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    /// Not 64 hexadecimal digits.
    #[error("key file {path}: not a key (64 hexadecimal digits expected, as the server writes them)")]
    Malformed { path: PathBuf },
}

/// The server's private key: `key_file` when given (it must exist and hold a key), else
/// `data_dir/netcode.key`, generated from the operating system's random source on first start
/// (mode 0600 on unix).
pub fn load_or_create_key(data_dir: &Path, key_file: Option<&Path>) -> Result<[u8; 32], KeyError> {
    if let Some(path) = key_file {
        return read_key(path);
    }
    let path = data_dir.join(KEY_FILE);
    if path.exists() {
        return read_key(&path);
    }
    std::fs::create_dir_all(data_dir).map_err(|source| KeyError::Io { path: path.clone(), source })?;
    let key: [u8; 32] = renet2_netcode::generate_random_bytes();
    let text: String = key.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n";
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let write = |options: &std::fs::OpenOptions| -> std::io::Result<()> {
        use std::io::Write;
        let mut file = options.open(&path)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()
    };
    match write(&options) {
        Ok(()) => Ok(key),
        // Another process made it first: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => read_key(&path),
        Err(source) => Err(KeyError::Io { path, source }),
    }
}

fn read_key(path: &Path) -> Result<[u8; 32], KeyError> {
    let text = std::fs::read_to_string(path).map_err(|source| match source.kind() {
        std::io::ErrorKind::InvalidData => KeyError::Malformed { path: path.to_path_buf() },
        _ => KeyError::Io { path: path.to_path_buf(), source },
    })?;
    parse_key(text.trim()).ok_or_else(|| KeyError::Malformed { path: path.to_path_buf() })
}

fn parse_key(text: &str) -> Option<[u8; 32]> {
    if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut key = [0u8; 32];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(key)
}

/// Takes one from a token bucket of `capacity` that refills at `per_second`: `Ok`, or how long
/// until one is there.
fn take_one(
    bucket: &mut (f64, Instant),
    capacity: f64,
    per_second: f64,
    now: Instant,
) -> Result<(), Duration> {
    let (level, at) = bucket;
    *level = (*level + now.saturating_duration_since(*at).as_secs_f64() * per_second).min(capacity);
    *at = now;
    if *level >= 1.0 {
        *level -= 1.0;
        Ok(())
    } else {
        Err(Duration::from_secs_f64((1.0 - *level) / per_second))
    }
}

/// New players allowed per address (IPv4 address, IPv6 /64): a bucket of `per_minute` that
/// refills at `per_minute` a minute.
pub struct NewPlayerLimit {
    per_minute: u32,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

/// Addresses remembered before full buckets are forgotten.
const MAX_BUCKETS: usize = 65_536;

impl NewPlayerLimit {
    /// `per_minute` new players a minute per address (0: no limit).
    pub fn new(per_minute: u32) -> NewPlayerLimit {
        NewPlayerLimit { per_minute, buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes one new player for `ip`, or says how long to wait.
    pub fn take(&self, ip: IpAddr, now: Instant) -> Result<(), Duration> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let capacity = f64::from(self.per_minute);
        let per_second = capacity / 60.0;
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MAX_BUCKETS {
            buckets.retain(|_, (level, at)| {
                *level + now.saturating_duration_since(*at).as_secs_f64() * per_second < capacity
            });
        }
        let bucket = buckets.entry(ip).or_insert((capacity, now));
        take_one(bucket, capacity, per_second, now)
    }
}

/// Tokens a minute one returning player's credential may get, whatever its address's other
/// clients ask for.
pub const RETURNING_PER_MINUTE: u32 = 10;
/// Credentials remembered for returning players (the oldest are forgotten beyond; a forgotten
/// credential still works, under its address's limit).
const MAX_RETURNING: usize = 262_144;

/// The credentials the server issued (their SHA-256, as the core stores them), each with its
/// own bucket of [`RETURNING_PER_MINUTE`] tokens: a returning player is served whatever others
/// ask for from its address, and a made-up credential gets no bucket of its own.
#[derive(Default)]
struct Returning {
    buckets: HashMap<String, (f64, Instant)>,
    order: VecDeque<String>,
}

impl Returning {
    fn vouch(&mut self, hash: String, now: Instant) {
        if self.buckets.contains_key(&hash) {
            return;
        }
        while self.buckets.len() >= MAX_RETURNING {
            let Some(oldest) = self.order.pop_front() else {
                break;
            };
            self.buckets.remove(&oldest);
        }
        self.order.push_back(hash.clone());
        self.buckets.insert(hash, (f64::from(RETURNING_PER_MINUTE), now));
    }

    /// `None`: not a credential the server issued (since it started).
    fn take(&mut self, hash: &str, now: Instant) -> Option<Result<(), Duration>> {
        let capacity = f64::from(RETURNING_PER_MINUTE);
        let bucket = self.buckets.get_mut(hash)?;
        Some(take_one(bucket, capacity, capacity / 60.0, now))
    }
}

/// A refused token request: the HTTP status, `Retry-After` seconds, and a line of English.
#[derive(Debug, PartialEq, Eq)]
pub struct Refused {
    /// HTTP status.
    pub status: u16,
    /// Seconds to wait (`429`).
    pub retry_after: Option<u64>,
    /// Why.
    pub message: String,
}

/// The token endpoint's logic: checks a request and mints its token.
pub struct Minter {
    key: [u8; 32],
    protocol_id: u64,
    /// The address netcode knows each socket by (`None`: that transport is off).
    sockets: [Option<SocketAddr>; 2],
    new_players: NewPlayerLimit,
    returning: Mutex<Returning>,
    addresses: Arc<Addresses>,
    /// The time tokens are stamped with: the transport's (see [`crate::clock`]).
    clock: Arc<crate::clock::ServerClock>,
}

impl Minter {
    /// A minter for a server with this key, protocol id and sockets (UDP, WebSocket: the
    /// addresses the transport gives netcode), allowing `new_players_per_minute` new players per
    /// address (0: no limit).
    pub fn new(
        key: [u8; 32],
        protocol_id: u64,
        sockets: [Option<SocketAddr>; 2],
        new_players_per_minute: u32,
    ) -> Minter {
        Minter {
            key,
            protocol_id,
            sockets,
            new_players: NewPlayerLimit::new(new_players_per_minute),
            returning: Mutex::new(Returning::default()),
            addresses: Arc::new(Addresses::new(0)),
            clock: Arc::new(crate::clock::ServerClock::start(crate::clock::WallClock::system())),
        }
    }

    /// Stamps the tokens with `clock`'s time: the time the transport checks them against.
    pub fn with_clock(mut self, clock: Arc<crate::clock::ServerClock>) -> Minter {
        self.clock = clock;
        self
    }

    /// Binds the tokens to their addresses and caps clients per address with `addresses` (the
    /// transport's).
    pub fn with_addresses(mut self, addresses: Arc<Addresses>) -> Minter {
        self.addresses = addresses;
        self
    }

    /// A session credential the server issued (its hash, [`credential_hash`]): a
    /// request carrying it gets its own allowance.
    pub fn vouch(&self, hash: String) {
        self.returning.lock().unwrap_or_else(|e| e.into_inner()).vouch(hash, Instant::now());
    }

    /// Answers a request body from `peer`: the connect token's bytes, or why not.
    pub fn answer(&self, peer: IpAddr, body: &[u8]) -> Result<Vec<u8>, Refused> {
        let refuse =
            |status, message: &str| Refused { status, retry_after: None, message: message.to_string() };
        if body.len() > MAX_REQUEST_BYTES {
            return Err(refuse(413, "request too long"));
        }
        let request: ConnectRequest =
            postcard::from_bytes(body).map_err(|_| refuse(400, "not a connect request"))?;
        if request.version != PROTOCOL_VERSION {
            return Err(refuse(409, &ludus_protocol::incompatible_message(request.version)));
        }
        let socket = usize::from(request.socket);
        let Some(address) = self.sockets.get(socket).copied().flatten() else {
            return Err(refuse(400, "this server does not offer that transport"));
        };
        let credential = request
            .credential
            .map(|SessionToken(c)| c)
            .filter(|c| !c.is_empty() && c.len() <= MAX_CREDENTIAL_BYTES);
        let key = address_key(&SocketAddr::new(peer, 0));
        if !self.addresses.has_room(key) {
            return Err(Refused {
                status: 429,
                retry_after: Some(10),
                message: format!(
                    "too many clients from this address ({} at once): try again once one has left",
                    self.addresses.max_clients()
                ),
            });
        }
        // A credential the server issued has its own allowance. Any other request, with no
        // credential or one the server does not know (made up, or issued before a restart),
        // counts against its address's new-player limit: beyond it, no token.
        let now = Instant::now();
        let hash = credential.as_deref().map(credential_hash);
        let returning = hash
            .as_deref()
            .and_then(|h| self.returning.lock().unwrap_or_else(|e| e.into_inner()).take(h, now))
            .is_some_and(|taken| taken.is_ok());
        // A known credential whose player has since expired does not become a new player.
        let may_create = !returning;
        if !returning && let Err(wait) = self.new_players.take(key, now) {
            return Err(Refused {
                status: 429,
                retry_after: Some(wait.as_secs().max(1)),
                message: "too many new players from this address: try again in a minute".to_string(),
            });
        }
        let grant = Grant { credential, may_create };
        self.mint(socket, address, key, &grant, i32::from(request.timeout_secs.clamp(1, 60)))
    }

    /// Mints a token for `socket` at `address`, bound to the requester's address `key`.
    fn mint(
        &self,
        socket: usize,
        address: SocketAddr,
        key: IpAddr,
        grant: &Grant,
        timeout: i32,
    ) -> Result<Vec<u8>, Refused> {
        let fail = |message: String| Refused { status: 500, retry_after: None, message };
        // The server's time, not the wall clock's: a wall clock stepped back since the start
        // would make every token expired on arrival.
        let now = self.clock.unix_now();
        // Client ids are drawn by the server; 0 is avoided (renet2 reads it as "none" in places).
        let client_id = u64::from_le_bytes(renet2_netcode::generate_random_bytes::<8>()).max(1);
        let token = ConnectToken::generate(
            now,
            self.protocol_id,
            CONNECT_TOKEN_SECONDS,
            client_id,
            timeout,
            socket as u8,
            vec![address],
            Some(&grant.encode()),
            &self.key,
        )
        .map_err(|e| fail(format!("cannot make a connect token: {e:?}")))?;
        if !self.addresses.bind(token.xnonce, key, token.expire_timestamp, now.as_secs()) {
            return Err(Refused { status: 503, retry_after: Some(1), message: "busy".to_string() });
        }
        let mut bytes = Vec::with_capacity(2048);
        token.write(&mut bytes).map_err(|e| fail(format!("cannot write a connect token: {e}")))?;
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::{
        KEY_FILE, KeyError, Minter, NewPlayerLimit, RETURNING_PER_MINUTE, load_or_create_key, parse_key,
    };
    use crate::addresses::Addresses;
    use crate::credential::credential_hash;
    use ludus_protocol::ConnectRequest;
    use ludus_protocol::PROTOCOL_VERSION;
    use ludus_protocol::SessionToken;
    use renetcode2::ConnectToken;
    use std::net::IpAddr;
    use std::net::SocketAddr;
    use std::sync::Arc;
    use std::time::Duration;
    use std::time::Instant;

    #[test]
    fn keys_are_64_hex_digits() {
        assert_eq!(parse_key(&"ab".repeat(32)), Some([0xab; 32]));
        assert_eq!(parse_key(&"ab".repeat(31)), None);
        assert_eq!(parse_key(&"zz".repeat(32)), None);
        let dir = std::env::temp_dir().join(format!("ludus-key-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let key = load_or_create_key(&dir, None).unwrap();
        assert_eq!(load_or_create_key(&dir, None).unwrap(), key, "the generated key is kept");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join(KEY_FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::write(dir.join("bad.key"), "not a key\n").unwrap();
        assert!(matches!(
            load_or_create_key(&dir, Some(&dir.join("bad.key"))),
            Err(KeyError::Malformed { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn new_players_are_limited_per_address() {
        let limit = NewPlayerLimit::new(3);
        let now = Instant::now();
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        for _ in 0..3 {
            assert!(limit.take(a, now).is_ok());
        }
        let wait = limit.take(a, now).unwrap_err();
        assert!(wait > Duration::ZERO && wait <= Duration::from_secs(20));
        assert!(limit.take(b, now).is_ok(), "another address has its own bucket");
        assert!(limit.take(a, now + Duration::from_secs(20)).is_ok(), "it refills");
    }

    fn request(credential: Option<&str>) -> Vec<u8> {
        let request = ConnectRequest {
            version: PROTOCOL_VERSION,
            socket: 0,
            credential: credential.map(|c| SessionToken(c.to_string())),
            timeout_secs: 10,
        };
        postcard::to_allocvec(&request).unwrap()
    }

    fn minter(new_players_per_minute: u32, addresses: Arc<Addresses>) -> Minter {
        let udp = Some(SocketAddr::from(([127, 0, 0, 1], 5000)));
        Minter::new([7; 32], 1, [udp, None], new_players_per_minute).with_addresses(addresses)
    }

    #[test]
    fn every_token_request_counts_but_issued_credentials_have_their_own_allowance() {
        let addresses = Arc::new(Addresses::new(0));
        let minter = minter(3, addresses.clone());
        let ip: IpAddr = [10, 0, 0, 1].into();
        let issued = "0123456789abcdef0123456789abcdef";
        minter.vouch(credential_hash(issued));
        let made_up = "fedcba9876543210fedcba9876543210";
        let granted = (0..200).filter(|_| minter.answer(ip, &request(Some(made_up))).is_ok()).count();
        assert_eq!(granted, 3, "a made-up credential gets the new-player limit");
        let refused = minter.answer(ip, &request(None)).unwrap_err();
        assert_eq!((refused.status, refused.retry_after.is_some()), (429, true));
        for _ in 0..RETURNING_PER_MINUTE {
            let token = minter.answer(ip, &request(Some(issued))).expect("a returning player is served");
            let token = ConnectToken::read(&mut &token[..]).unwrap();
            assert_eq!(addresses.binding(&token.xnonce, ip), crate::addresses::Binding::Here);
            assert_eq!(
                addresses.binding(&token.xnonce, [10, 0, 0, 2].into()),
                crate::addresses::Binding::Elsewhere
            );
        }
        assert_eq!(minter.answer(ip, &request(Some(issued))).unwrap_err().status, 429, "not unlimited");
        assert!(minter.answer([10, 0, 0, 2].into(), &request(None)).is_ok(), "another address");
    }

    #[test]
    fn no_token_for_an_address_at_its_cap_of_clients() {
        let addresses = Arc::new(Addresses::new(2));
        let minter = minter(0, addresses.clone());
        let ip: IpAddr = [10, 0, 0, 1].into();
        assert!(addresses.connect(ip) && addresses.connect(ip));
        let refused = minter.answer(ip, &request(None)).unwrap_err();
        assert_eq!(refused.status, 429);
        assert!(refused.message.contains("too many clients from this address"), "{}", refused.message);
        assert!(minter.answer([10, 0, 0, 2].into(), &request(None)).is_ok());
        addresses.disconnect(ip);
        assert!(minter.answer(ip, &request(None)).is_ok());
    }
}
