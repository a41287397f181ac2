//! How to run a server: [`ServerConfig`] with its defaults, and why one could not start
//! ([`ServerError`]).

use crate::clock::WallClock;
use crate::core::Limits;
use crate::core::records::NodeAddrs;
use crate::web::HttpLimits;
use crate::ws::WsLimits;
use crate::{store, tls, tokens, web};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Default UDP address of the binary.
pub const DEFAULT_UDP: &str = "0.0.0.0:5000";
/// Default WebSocket address of the binary.
pub const DEFAULT_WS: &str = "0.0.0.0:5001";
/// HTTP address of the binary when UDP is off (otherwise HTTP follows the UDP address: same
/// address and port number, over TCP, so that a native client finds it from `host:port`).
pub const DEFAULT_HTTP: &str = "0.0.0.0:5000";

/// New players a minute per address, by default.
pub const DEFAULT_NEW_PLAYERS_PER_MINUTE: u32 = 60;

/// How to run a server.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// UDP address for native clients (`None`: no UDP).
    pub udp: Option<SocketAddr>,
    /// WebSocket address for browser clients (`None`: no WebSocket).
    pub ws: Option<SocketAddr>,
    /// Where the database lives (`ludus.sqlite3` inside), unless `database` is given; the
    /// netcode key is made here too.
    pub data_dir: PathBuf,
    /// A PostgreSQL URL (`postgres://user@host/db`) to store in instead of SQLite.
    pub database: Option<String>,
    /// Most clients connected at once.
    pub max_clients: usize,
    /// Game-logic limits (seat hold, rates).
    pub limits: Limits,
    /// Bounds of the WebSocket port (`None`: [`WsLimits::for_clients`] of `max_clients`).
    pub ws_limits: Option<WsLimits>,
    /// Sleep between two polls of the sockets.
    pub poll_interval: Duration,
    /// Serve the files of this directory (the browser bundle) over HTTP too (`None`: only the
    /// token endpoint, `/ludus-server.json` and `/healthz`).
    pub web_dir: Option<PathBuf>,
    /// The HTTP address, always served: clients get their connect tokens there. `None`: the
    /// bound UDP address (its port number, over TCP); required when UDP is off.
    pub http: Option<SocketAddr>,
    /// The netcode private key's file (`None`: `netcode.key` in `data_dir`, made on first start).
    pub key_file: Option<PathBuf>,
    /// New players a minute per address at the token endpoint (0: no limit).
    pub new_players_per_minute: u32,
    /// Clients connected at once per address (IPv4 address, IPv6 /64; 0: no cap, as
    /// [`ServerConfig::local`] has it; the binary's default is
    /// [`addresses::DEFAULT_MAX_CLIENTS_PER_ADDRESS`]).
    pub max_clients_per_address: usize,
    /// Serve HTTP over TLS (https) and the WebSocket port over TLS (wss) with this certificate
    /// and key (PEM files).
    pub tls: Option<TlsFiles>,
    /// Bounds of the HTTP side.
    pub http_limits: HttpLimits,
    /// Serve `GET /metrics` (Prometheus text) on this address, plain HTTP (`None`: nowhere).
    pub metrics: Option<SocketAddr>,
    /// With PostgreSQL: this node's name among the nodes sharing the database (`None`: the
    /// host name and the data directory). A node restarted under its name takes its games back.
    pub node_name: Option<String>,
    /// With PostgreSQL: how long this node's lease on its games lasts unrenewed (renewed every
    /// 100 ms): once a killed node's lease is over, another node takes its games over.
    pub lease: Duration,
    /// The addresses other nodes send clients to (redirects): `host:port` for UDP, a
    /// `ws://`/`wss://` URL, an `http://`/`https://` base URL. `None`: the bound addresses.
    pub public: NodeAddrs,
    /// The Alquerque oracle (`GET /api/alquerque/value`; `None`: not served).
    pub oracle: Option<crate::oracle::OracleConfig>,
    /// The wall clock the server takes its time from at start (see [`crate::clock`]; tests
    /// give a clock stepped back or far ahead).
    pub wall_clock: WallClock,
    /// Recurring tournaments the server creates and announces (`--tournament-schedule`).
    pub tournament_schedule: Vec<crate::core::ScheduleEntry>,
}

/// The default lease of a node on its games.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(10);

/// A certificate chain and its private key, PEM files (see [`tls::server_config`]).
#[derive(Clone, Debug)]
pub struct TlsFiles {
    /// The certificate chain, leaf first.
    pub cert: PathBuf,
    /// The private key.
    pub key: PathBuf,
}

/// Why a server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The database could not be opened or loaded.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// A socket could not be bound or set up.
    #[error("cannot bind {what} {addr}: {source}")]
    Bind { what: &'static str, addr: SocketAddr, source: std::io::Error },
    /// The tokio runtime or a thread could not start.
    #[error("cannot start {what}: {source}")]
    Start { what: &'static str, source: std::io::Error },
    /// The HTTP side could not start.
    #[error(transparent)]
    Web(#[from] web::WebError),
    /// The TLS files are unusable.
    #[error(transparent)]
    Tls(#[from] tls::TlsError),
    /// The configuration is inconsistent.
    #[error("{0}")]
    Config(&'static str),
    /// The configuration asks for what this build left out (its cargo feature is off).
    #[error("this build of the server has no {what}: build it with the feature \"{feature}\"")]
    Unsupported { what: &'static str, feature: &'static str },
    /// The Alquerque oracle's tables or book are unusable.
    #[error(transparent)]
    Oracle(#[from] crate::oracle::OracleStartError),
    /// The netcode key file is unusable.
    #[error(transparent)]
    Key(#[from] tokens::KeyError),
}

impl ServerConfig {
    /// Both transports on 127.0.0.1 with free ports, data in `data_dir` (for tests and LAN
    /// hosting: use `0.0.0.0` addresses to accept other devices).
    pub fn local(data_dir: impl Into<PathBuf>) -> ServerConfig {
        ServerConfig {
            udp: Some(SocketAddr::from(([127, 0, 0, 1], 0))),
            ws: Some(SocketAddr::from(([127, 0, 0, 1], 0))),
            data_dir: data_dir.into(),
            database: None,
            max_clients: 4096,
            limits: Limits::default(),
            ws_limits: None,
            poll_interval: Duration::from_millis(1),
            web_dir: None,
            http: None,
            key_file: None,
            new_players_per_minute: DEFAULT_NEW_PLAYERS_PER_MINUTE,
            max_clients_per_address: 0,
            tls: None,
            http_limits: HttpLimits::default(),
            metrics: None,
            node_name: None,
            lease: DEFAULT_LEASE,
            public: NodeAddrs::default(),
            wall_clock: WallClock::system(),
            oracle: None,
            tournament_schedule: Vec::new(),
        }
    }
}

/// The default node name: the host's name and the data directory.
pub(crate) fn default_node_name(data_dir: &std::path::Path) -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "node".into());
    let dir = std::fs::canonicalize(data_dir).unwrap_or_else(|_| data_dir.to_path_buf());
    format!("{host}:{}", dir.display())
}
