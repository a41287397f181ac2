//! Starting a server: the options checked, the database opened (live games reloaded), the
//! sockets bound and the threads (store, cluster, passwords, HTTP) started.

use crate::config::default_node_name;
use crate::core::Core;
use crate::metrics::Metrics;
use crate::store::Store;
use crate::transport::{NoSocket, Transport};
use crate::web::{HttpConfig, HttpLimits, HttpServer};
use crate::ws::{WsLimits, WsServer};
use crate::{
    PasswordWorker, RELEASE_BUCKETS_MS, Server, ServerConfig, ServerError, addresses, bind_udp, clock, core,
    store, tls, tokens,
};
use ludus_protocol::{NETCODE_PROTOCOL_ID, PROTOCOL_VERSION};
use renet2_netcode::{NativeSocket, ServerSocket};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

impl Server {
    /// Opens the database (reloading live games) and binds the sockets.
    pub fn bind(config: ServerConfig) -> Result<Server, ServerError> {
        if config.database.is_some() && !cfg!(feature = "postgres") {
            return Err(ServerError::Unsupported { what: "PostgreSQL (--database)", feature: "postgres" });
        }
        if config.metrics.is_some() && !cfg!(feature = "metrics") {
            return Err(ServerError::Unsupported { what: "metrics (--metrics)", feature: "metrics" });
        }
        let oracle =
            config.oracle.as_ref().map(crate::oracle::OracleService::start).transpose()?.map(Arc::new);
        let key = tokens::load_or_create_key(&config.data_dir, config.key_file.as_deref())?;
        let database = match &config.database {
            Some(url) => store::Database::Postgres(url.clone()),
            None => store::Database::Sqlite(config.data_dir.clone()),
        };
        let node = store::NodeConfig {
            name: config.node_name.clone().unwrap_or_else(|| default_node_name(&config.data_dir)),
            lease: config.lease,
        };
        // The server's time: netcode checks the tokens' expiry against it, the minter stamps
        // them with it, the core and the database take it as the Unix time (see [`crate::clock`]).
        let started = Instant::now();
        let clock = Arc::new(clock::ServerClock::start_at(config.wall_clock.clone(), started));
        let (store, loaded) = Store::open_node_at(
            &database,
            config.limits.credential_lifetime,
            Some(&node),
            clock.unix_ms_at(started),
        )?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("ludus-io")
            .enable_all()
            .build()
            .map_err(|source| ServerError::Start { what: "the tokio runtime", source })?;
        let mut sockets: Vec<Box<dyn ServerSocket>> = Vec::new();
        let mut udp_addr = None;
        // HTTP follows the UDP address unless given: its TCP port is taken with the UDP one (a
        // free UDP port whose TCP twin is busy is given back and another one tried).
        let mut http_listener = None;
        match config.udp {
            Some(addr) => {
                let bind = |source| ServerError::Bind { what: "UDP", addr, source };
                let mut attempts = 0;
                let socket = loop {
                    let socket = bind_udp(addr).map_err(bind)?;
                    if config.http.is_some() {
                        break socket;
                    }
                    let bound = socket.local_addr().map_err(bind)?;
                    match std::net::TcpListener::bind(bound) {
                        Ok(listener) => {
                            http_listener = Some(listener);
                            break socket;
                        }
                        Err(e) if addr.port() == 0 && attempts < 20 => {
                            attempts += 1;
                            tracing::debug!("TCP port {} busy ({e}): another UDP port", bound.port());
                        }
                        Err(source) => return Err(ServerError::Bind { what: "HTTP", addr: bound, source }),
                    }
                };
                udp_addr = socket.local_addr().ok();
                let socket =
                    NativeSocket::new(socket).map_err(|e| bind(std::io::Error::other(e.to_string())))?;
                sockets.push(Box::new(socket));
            }
            None => sockets.push(Box::new(NoSocket)),
        }
        let mut ws_addr = None;
        let mut ws_counters = None;
        match config.ws {
            Some(addr) => {
                // wss:// with the same certificate as https (netcode keeps encrypting inside).
                let tls = match &config.tls {
                    Some(files) => Some(tokio_rustls::TlsAcceptor::from(tls::server_config(
                        &files.cert,
                        &files.key,
                        &[b"http/1.1"],
                    )?)),
                    None => None,
                };
                let limits =
                    config.ws_limits.clone().unwrap_or_else(|| WsLimits::for_clients(config.max_clients));
                let socket = WsServer::bind(addr, limits, tls, runtime.handle())
                    .map_err(|source| ServerError::Bind { what: "WebSocket", addr, source })?;
                ws_counters = Some(socket.counters());
                ws_addr = socket.addr().ok();
                sockets.push(Box::new(socket));
            }
            None => sockets.push(Box::new(NoSocket)),
        }
        let now = Instant::now();
        let unix_now = clock.unix_at(now);
        // The addresses netcode knows the sockets by: a connect token must name one of them.
        let public = |on: bool, s: &dyn ServerSocket| if on { s.addr().ok() } else { None };
        let socket_addresses =
            [public(udp_addr.is_some(), sockets[0].as_ref()), public(ws_addr.is_some(), sockets[1].as_ref())];
        let addresses = Arc::new(addresses::Addresses::new(config.max_clients_per_address));
        let transport = Transport::new(sockets, config.max_clients, NETCODE_PROTOCOL_ID, unix_now, key)
            .with_addresses(addresses.clone());
        let minter = Arc::new(
            tokens::Minter::new(key, NETCODE_PROTOCOL_ID, socket_addresses, config.new_players_per_minute)
                .with_addresses(addresses)
                .with_clock(clock.clone()),
        );
        let seed = renet2_netcode::generate_random_bytes::<32>();
        let mut core = Core::new(config.limits.clone(), loaded, now, clock.unix_ms_at(now), seed);
        core.set_address_secret(&key);
        core.set_tournament_schedule(config.tournament_schedule.clone());
        let metrics = Metrics::new();
        let Some(addr) = config.http.or(udp_addr) else {
            return Err(ServerError::Config("without UDP, the HTTP address (connect tokens) must be given"));
        };
        let info = serde_json::json!({
            "ws_port": ws_addr.map(|a| a.port()),
            "udp_port": udp_addr.map(|a| a.port()),
            "version": PROTOCOL_VERSION,
        });
        let tls = match &config.tls {
            Some(files) => Some(tls::server_config(&files.cert, &files.key, &[b"http/1.1"])?),
            None => None,
        };
        let http_config = HttpConfig {
            addr,
            root: config.web_dir.clone(),
            info: info.to_string(),
            tls,
            limits: config.http_limits.clone(),
            minter: Some(minter.clone()),
            listener: http_listener,
            oracle,
        };
        let http = Some(HttpServer::bind(runtime.handle(), http_config, metrics.clone())?);
        let http_addr = http.as_ref().map(HttpServer::addr);
        let metrics_http = match config.metrics {
            Some(addr) => {
                Some(HttpServer::metrics(runtime.handle(), addr, HttpLimits::default(), metrics.clone())?)
            }
            None => None,
        };
        let mut core = core;
        let secure = config.tls.is_some();
        let public = core::records::NodeAddrs {
            udp: config.public.udp.clone().or(udp_addr.map(|a| a.to_string())),
            ws: config
                .public
                .ws
                .clone()
                .or(ws_addr.map(|a| format!("{}://{a}", if secure { "wss" } else { "ws" }))),
            http: config
                .public
                .http
                .clone()
                .or(http_addr.map(|a| format!("{}://{a}", if secure { "https" } else { "http" }))),
        };
        let cluster = match store.start_cluster(public.clone()) {
            Some(cluster) => {
                let cluster = cluster?;
                if [udp_addr, ws_addr, http_addr].iter().flatten().any(|a| a.ip().is_unspecified())
                    && config.public == core::records::NodeAddrs::default()
                {
                    tracing::warn!(
                        "several nodes: this node listens on an unspecified address; give --public-udp, \
                         --public-ws and --public-http so that the other nodes can send clients here"
                    );
                }
                tracing::info!(node = cluster.name(), ?public, "node of several on one database");
                core.enable_nodes(cluster.name().to_string());
                Some(cluster)
            }
            None => None,
        };
        Ok(Server {
            transport,
            core,
            store,
            runtime,
            ws_counters,
            udp_addr,
            ws_addr,
            http,
            http_addr,
            metrics_http,
            metrics,
            minter,
            refusals_seen: std::collections::HashMap::new(),
            last_metrics: now,
            pending: VecDeque::new(),
            effects: Vec::new(),
            release_delay: [0; RELEASE_BUCKETS_MS.len() + 1],
            max_poll_gap: Duration::ZERO,
            lingering: Vec::new(),
            last_poll: now,
            last_slow: now,
            poll_interval: config.poll_interval,
            passwords: PasswordWorker::start()
                .map_err(|source| ServerError::Start { what: "password thread", source })?,
            cluster,
            last_cluster: now,
            lost: false,
            refusing: false,
            told_busy: std::collections::HashMap::new(),
            clock,
            last_clock_check: now,
        })
    }
}
