//! `ludus-server`: see `--help` and crates/server/README.md.

use clap::{Parser, ValueEnum};
use ludus_server::{DEFAULT_HTTP, DEFAULT_UDP, DEFAULT_WS, Server, ServerConfig, TlsFiles};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tracing_subscriber::EnvFilter;

/// An address, or `none` for a transport that is off.
#[derive(Clone, Copy, Debug)]
struct MaybeAddr(Option<SocketAddr>);

/// Why an address option is refused.
#[derive(Debug, thiserror::Error)]
#[error("'{0}' is not an address like 0.0.0.0:5000 (or none)")]
struct BadAddress(String);

fn address_or_none(value: &str) -> Result<MaybeAddr, BadAddress> {
    if value == "none" {
        return Ok(MaybeAddr(None));
    }
    value.parse().map(|a| MaybeAddr(Some(a))).map_err(|_| BadAddress(value.to_string()))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// The Ludus game server: native clients over UDP, browsers over WebSocket, optionally the
/// browser bundle over HTTP(S); SQLite persistence.
#[derive(Debug, Parser)]
#[command(name = "ludus-server", version, about)]
struct Args {
    /// UDP address for native clients (none: no UDP)
    #[arg(long, value_name = "ADDR", default_value = DEFAULT_UDP, value_parser = address_or_none)]
    udp: MaybeAddr,
    /// WebSocket address for browsers (none: no WebSocket)
    #[arg(long, value_name = "ADDR", default_value = DEFAULT_WS, value_parser = address_or_none)]
    ws: MaybeAddr,
    /// Serve the browser bundle in DIR (web/dist) over HTTP, with /ludus-server.json telling
    /// the page the WebSocket port
    #[arg(long, value_name = "DIR")]
    web: Option<PathBuf>,
    /// HTTP address (TCP), always served: connect tokens (POST /api/connect), the bundle of --web,
    /// /ludus-server.json and /healthz [default: the --udp address, or 0.0.0.0:5000 with --udp
    /// none]
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
    /// Serve Prometheus metrics (GET /metrics, plain HTTP) on this address, for instance
    /// 127.0.0.1:9100: a private one, as they tell how busy the server is [default: off]
    #[arg(long, value_name = "ADDR")]
    metrics: Option<SocketAddr>,
    /// Most HTTP connections at once (when all are taken, an address holding fewer than another
    /// takes the oldest connection of the address holding the most)
    #[arg(long, value_name = "N", default_value_t = ludus_server::http_limits::DEFAULT_MAX_CONNECTIONS as u64, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    http_max_connections: u64,
    /// Most HTTP connections at once from one address (IPv4 address, IPv6 /64; at most
    /// --http-max-connections); raise it for many devices behind one NAT
    #[arg(long, value_name = "N", default_value_t = ludus_server::http_limits::DEFAULT_MAX_PER_ADDRESS as u64, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    http_per_address: u64,
    /// The netcode private key (64 hex digits), to share one between servers [default: made on
    /// first start in DATA/netcode.key, mode 0600]
    #[arg(long, value_name = "FILE")]
    key_file: Option<PathBuf>,
    /// A session credential unused this many days expires (its player, outside live games, is
    /// deleted at the next start)
    #[arg(long, value_name = "DAYS", default_value_t = 180, value_parser = clap::value_parser!(u64).range(1..=3650))]
    credential_days: u64,
    /// New players a minute from one address (IPv4 address, IPv6 /64) at the token endpoint;
    /// 0: no limit (load tests from one machine)
    #[arg(long, value_name = "N", default_value_t = ludus_server::DEFAULT_NEW_PLAYERS_PER_MINUTE)]
    new_players_per_minute: u32,
    /// Clients connected at once from one address (IPv4 address, IPv6 /64), for UDP and
    /// WebSocket together: beyond, the token endpoint answers 429; raise it for many players
    /// behind one NAT; 0: no cap (load tests from one machine)
    #[arg(long, value_name = "N", default_value_t = ludus_server::addresses::DEFAULT_MAX_CLIENTS_PER_ADDRESS)]
    max_clients_per_address: usize,
    /// Serve HTTP over TLS (https) and the WebSocket port over TLS (wss) with this PEM
    /// certificate chain (with --tls-key)
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The PEM private key of --tls-cert
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// Where the database lives (SQLite), and the netcode key made on first start
    #[arg(long, value_name = "DIR", default_value = "ludus-data")]
    data: PathBuf,
    /// Store in this PostgreSQL database instead of SQLite
    /// (postgres://user[:password]@host[:port]/db; the password is never logged)
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// With --database: this node's name among the nodes sharing the database (a node restarted
    /// under its name takes its games back at once) [default: host name:data directory]
    #[arg(long, value_name = "NAME")]
    node_name: Option<String>,
    /// With --database: this node's lease on its games, in milliseconds (renewed every 100 ms;
    /// a node killed holds its games this long before another node takes them over)
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(500..=600_000))]
    lease_ms: u64,
    /// With --database: the UDP address other nodes send native clients to (host:port)
    /// [default: the bound --udp address]
    #[arg(long, value_name = "HOST:PORT")]
    public_udp: Option<String>,
    /// With --database: the WebSocket URL other nodes send browsers to (ws://… or wss://…)
    /// [default: the bound --ws address]
    #[arg(long, value_name = "URL")]
    public_ws: Option<String>,
    /// With --database: the HTTP(S) base URL of this node's connect tokens, for redirected
    /// clients (http://… or https://…) [default: the bound --http address]
    #[arg(long, value_name = "URL")]
    public_http: Option<String>,
    /// How long a disconnected player's seat is held, in seconds
    #[arg(long, value_name = "SECS", default_value_t = 120, value_parser = clap::value_parser!(u64).range(0..=86_400))]
    hold: u64,
    /// Most clients at once
    #[arg(long, value_name = "N", default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    max_clients: u64,
    /// Gone: a TLS proxy in front of the WebSocket port needs no option (netcode keeps its
    /// encryption inside TLS); or serve wss:// directly with --tls-cert and --tls-key
    #[arg(long, hide = true)]
    ws_behind_tls: bool,
    /// Log a status line every SECS seconds (0: never)
    #[arg(long, value_name = "SECS", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=86_400))]
    stats: u64,
    #[command(flatten)]
    oracle: ludus_server::oracle::OracleArgs,
    /// Recurring tournaments: a JSON list of {name, variant, format, pace, every_minutes,
    /// offset_minutes, announce_minutes, rated, max_players} (see the server's README)
    #[arg(long, value_name = "FILE")]
    tournament_schedule: Option<PathBuf>,
    /// Log format (the level comes from RUST_LOG, default info)
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

impl Args {
    fn config(&self) -> Result<ServerConfig, clap::Error> {
        use clap::CommandFactory;
        let usage = |message: &str| Args::command().error(clap::error::ErrorKind::ArgumentConflict, message);
        if self.udp.0.is_none() && self.ws.0.is_none() {
            return Err(usage("--udp none and --ws none: nothing to listen on"));
        }
        if self.ws_behind_tls {
            return Err(usage(
                "--ws-behind-tls is gone: a TLS proxy needs no option now (netcode keeps encrypting inside \
                 TLS), or serve wss:// directly with --tls-cert FILE --tls-key FILE",
            ));
        }
        let mut config = ServerConfig::local(&self.data);
        config.udp = self.udp.0;
        config.ws = self.ws.0;
        config.web_dir = self.web.clone();
        config.http = match (self.http, self.udp.0) {
            (Some(addr), _) => Some(addr),
            // HTTP follows the UDP address (Server::bind, once the UDP port is bound).
            (None, Some(_)) => None,
            (None, None) => DEFAULT_HTTP.parse().ok(),
        };
        config.key_file = self.key_file.clone();
        config.metrics = self.metrics;
        config.http_limits.max_connections = self.http_max_connections as usize;
        config.http_limits.max_per_address = self.http_per_address.min(self.http_max_connections) as usize;
        if let Some(url) = &self.database {
            if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
                return Err(usage("--database takes a postgres:// URL (SQLite is the default, in --data)"));
            }
            config.database = Some(url.clone());
        }
        config.limits.credential_lifetime = Duration::from_secs(self.credential_days * 24 * 3600);
        config.node_name = self.node_name.clone();
        config.lease = Duration::from_millis(self.lease_ms);
        config.public = ludus_server::core::records::NodeAddrs {
            udp: self.public_udp.clone(),
            ws: self.public_ws.clone(),
            http: self.public_http.clone(),
        };
        config.new_players_per_minute = self.new_players_per_minute;
        config.max_clients_per_address = self.max_clients_per_address;
        config.limits.seat_hold = Duration::from_secs(self.hold);
        config.max_clients = self.max_clients as usize;
        config.oracle = self.oracle.config();
        if let Some(file) = &self.tournament_schedule {
            let text = std::fs::read_to_string(file)
                .map_err(|e| usage(&format!("--tournament-schedule {}: {e}", file.display())))?;
            config.tournament_schedule = ludus_server::core::parse_schedule(&text)
                .map_err(|e| usage(&format!("--tournament-schedule {}: {e}", file.display())))?;
        }
        config.tls = match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => Some(TlsFiles { cert: cert.clone(), key: key.clone() }),
            _ => None,
        };
        Ok(config)
    }
}

/// Directives before RUST_LOG's (which may override them): the network libraries log every
/// packet they refuse, which anyone can make them do thousands of times a second; the
/// transport counts those (`ludus_network_faults_total` in /metrics) and logs them itself,
/// one line per kind per interval ([`ludus_server::faults`]).
const QUIET_DEPENDENCIES: &str = "renetcode2=off,renet2_netcode=off,renet2=off";

/// The log filter: `info`, the quiet dependencies, then RUST_LOG's directives.
fn log_filter(rust_log: Option<&str>) -> EnvFilter {
    let user = rust_log.map(str::trim).filter(|s| !s.is_empty());
    let directives = match user {
        Some(user) => format!("info,{QUIET_DEPENDENCIES},{user}"),
        None => format!("info,{QUIET_DEPENDENCIES}"),
    };
    EnvFilter::builder().parse_lossy(directives)
}

fn init_logs(format: LogFormat) {
    let filter = log_filter(std::env::var(EnvFilter::DEFAULT_ENV).ok().as_deref());
    // Colours only on a terminal (not in log files).
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder =
        tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(ansi);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().init(),
    }
}

/// The first line on stdout, for scripts and tests (web/test.sh reads it). Output errors (a
/// closed pipe) never stop the server.
fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Sets `stop` on SIGINT or SIGTERM.
async fn wait_for_signal(stop: Arc<AtomicBool>) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => tracing::info!("SIGINT: stopping"),
                    _ = term.recv() => tracing::info!("SIGTERM: stopping"),
                }
            }
            Err(e) => {
                tracing::warn!("cannot watch SIGTERM: {e}");
                let _ = tokio::signal::ctrl_c().await;
                tracing::info!("SIGINT: stopping");
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("Ctrl-C: stopping");
    }
    stop.store(true, Ordering::Relaxed);
}

/// What `--version` prints after the name: the version and the commit the server was built from
/// (`LUDUS_GIT_COMMIT` at build time, set by release/build.sh and CI), or "unknown commit".
fn long_version() -> String {
    let version = env!("CARGO_PKG_VERSION");
    match option_env!("LUDUS_GIT_COMMIT").map(str::trim).filter(|c| !c.is_empty()) {
        Some(commit) => format!("{version} (commit {commit})"),
        None => format!("{version} (unknown commit)"),
    }
}

/// The command line, with the commit in `--version`.
fn parse_args() -> Args {
    use clap::{CommandFactory, FromArgMatches};
    let mut command = Args::command().version(&*long_version().leak());
    command
        .try_get_matches_from_mut(std::env::args_os())
        .and_then(|mut matches| Args::from_arg_matches_mut(&mut matches))
        .unwrap_or_else(|e| e.format(&mut command).exit())
}

fn main() -> ExitCode {
    let args = parse_args();
    init_logs(args.log_format);
    let config = match args.config() {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    // renet2 can panic on some forged packets; the server contains those panics and drops the
    // client. Report them rate-limited (one line per interval, with a count), not with a
    // backtrace each.
    std::panic::set_hook(Box::new(|info| {
        ludus_server::faults::note_detail("panic (contained)", &info.to_string());
    }));
    let data = match &config.database {
        Some(url) => ludus_server::store::Database::Postgres(url.clone()).describe(),
        None => config.data_dir.display().to_string(),
    };
    let mut server = match Server::bind(config) {
        Ok(s) => s,
        Err(e) => {
            tracing::error!("{e}");
            return ExitCode::from(1);
        }
    };
    let show = |a: Option<SocketAddr>| a.map_or_else(|| "none".to_string(), |a| a.to_string());
    say(&format!(
        "ludus-server listening udp={} ws={} http={} data={}",
        show(server.udp_addr()),
        show(server.ws_addr()),
        show(server.http_addr()),
        data
    ));
    if let Some(addr) = server.metrics_addr() {
        tracing::info!("metrics on http://{addr}/metrics");
    }
    tracing::info!(
        live_games = server.live_games(),
        "live games reloaded; every accepted move is on disk before it is sent"
    );
    let stop = Arc::new(AtomicBool::new(false));
    server.runtime().spawn(wait_for_signal(stop.clone()));
    let stats_every = Duration::from_secs(args.stats);
    let mut last_stats = Instant::now();
    let mut last = ludus_server::Status::default();
    while !stop.load(Ordering::Relaxed) {
        server.step();
        if server.lease_lost() {
            break;
        }
        if !stats_every.is_zero() && last_stats.elapsed() >= stats_every {
            let status = server.status();
            let s = &status.stats;
            let secs = last_stats.elapsed().as_secs_f64();
            let commits = status.db_commits - last.db_commits;
            tracing::info!(
                connections = status.connections,
                live_games = status.live_games,
                moves = s.moves,
                moves_per_s = format!("{:.0}", (s.moves - last.stats.moves) as f64 / secs),
                refused = s.refused,
                malformed = s.malformed,
                started = s.games_started,
                finished = s.games_finished,
                contained_panics = status.contained_panics,
                commits_per_s = format!("{:.0}", commits as f64 / secs),
                ticks_per_commit =
                    format!("{:.1}", (status.db_batches - last.db_batches) as f64 / commits.max(1) as f64),
                commit_avg_ms = format!(
                    "{:.1}",
                    (status.db_commit_total_us - last.db_commit_total_us) as f64
                        / 1000.0
                        / commits.max(1) as f64
                ),
                commit_max_ms = format!("{:.1}", status.db_commit_max_us as f64 / 1000.0),
                sends_wait_p50 = status.release_quantile(&last, 0.5).unwrap_or_default(),
                sends_wait_p99 = status.release_quantile(&last, 0.99).unwrap_or_default(),
                longest_poll_gap_ms = format!("{:.1}", status.max_poll_gap_us as f64 / 1000.0),
                "status"
            );
            last = status;
            server.reset_poll_gap();
            last_stats = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let lost = server.lease_lost();
    server.shutdown();
    if lost {
        tracing::error!("stopped: this node's lease on its games was lost (another node took them over)");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::{Args, log_filter, long_version};
    use clap::Parser;
    use ludus_server::DEFAULT_HTTP;
    use ludus_server::ServerConfig;
    use std::path::PathBuf;
    use std::time::Duration;

    fn parse(s: &str) -> Result<ServerConfig, clap::Error> {
        let argv = std::iter::once("ludus-server").chain(s.split_whitespace());
        Args::try_parse_from(argv).and_then(|a| a.config())
    }

    #[test]
    fn arguments() {
        let c = parse("--udp 127.0.0.1:0 --ws none --data /tmp/x --hold 5").unwrap();
        assert_eq!(c.udp, "127.0.0.1:0".parse().ok());
        assert_eq!(c.ws, None);
        assert_eq!(c.limits.seat_hold, Duration::from_secs(5));
        assert_eq!(c.web_dir, None);
        assert_eq!(c.http, None, "HTTP follows the UDP address");
        assert_eq!(parse("--udp none").unwrap().http, DEFAULT_HTTP.parse().ok());
        assert_eq!(c.limits.credential_lifetime, Duration::from_secs(180 * 24 * 3600));
        assert_eq!(parse("--credential-days 7").unwrap().limits.credential_lifetime.as_secs(), 7 * 24 * 3600);
        assert!(parse("--credential-days 0").is_err());
        assert_eq!(parse("--new-players-per-minute 0").unwrap().new_players_per_minute, 0);
        assert_eq!(parse("").unwrap().max_clients_per_address, 16);
        assert_eq!(parse("--max-clients-per-address 64").unwrap().max_clients_per_address, 64);
        assert!(parse("--max-clients-per-address -1").is_err());
        assert_eq!(parse("--key-file k").unwrap().key_file, Some(PathBuf::from("k")));
        let c = parse("").unwrap();
        assert_eq!(c.metrics, None, "no metrics unless asked");
        assert_eq!(c.http_limits.max_connections, ludus_server::http_limits::DEFAULT_MAX_CONNECTIONS);
        assert_eq!(c.http_limits.max_per_address, ludus_server::http_limits::DEFAULT_MAX_PER_ADDRESS);
        let c = parse("--metrics 127.0.0.1:9100 --http-max-connections 1000 --http-per-address 100").unwrap();
        assert_eq!(c.metrics, "127.0.0.1:9100".parse().ok());
        assert_eq!((c.http_limits.max_connections, c.http_limits.max_per_address), (1000, 100));
        assert_eq!(parse("--http-max-connections 8").unwrap().http_limits.max_per_address, 8);
        assert!(parse("--http-per-address 0").is_err());
        assert!(parse("--metrics nowhere").is_err());
        // A schedule of recurring tournaments, checked entry by entry.
        let dir = std::env::temp_dir().join(format!("ludus-schedule-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.json");
        std::fs::write(
            &good,
            r#"[{"name": "Latrunculi evening Swiss", "variant": "Latrunculi",
                 "format": {"Swiss": {"rounds": 7}},
                 "pace": {"RealTime": {"initial_ms": 600000, "increment_ms": 5000}},
                 "every_minutes": 1440, "offset_minutes": 1140, "announce_minutes": 720}]"#,
        )
        .unwrap();
        let c = parse(&format!("--tournament-schedule {}", good.display())).unwrap();
        assert_eq!(c.tournament_schedule.len(), 1);
        assert!(parse("").unwrap().tournament_schedule.is_empty());
        let bad = dir.join("bad.json");
        std::fs::write(&bad, r#"[{"name": "x", "every_minutes": 5}]"#).unwrap();
        assert!(parse(&format!("--tournament-schedule {}", bad.display())).is_err());
        assert!(parse("--tournament-schedule /nonexistent/schedule.json").is_err());
        let _ = std::fs::remove_dir_all(&dir);
        for bad in
            ["--udp nowhere", "--bogus 1", "--hold", "--hold -3", "--udp none --ws none", "--max-clients 0"]
        {
            let e = parse(bad).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad}");
        }
        assert_eq!(parse("--help").unwrap_err().exit_code(), 0);
        let c = parse("--web dist").unwrap();
        assert_eq!(c.web_dir, Some(PathBuf::from("dist")));
        assert_eq!(c.http, None);
        let c = parse("--web dist --http 127.0.0.1:0").unwrap();
        assert_eq!(c.http, "127.0.0.1:0".parse().ok());
        let c = parse("--http 127.0.0.1:0").unwrap();
        assert!(c.http.is_some() && c.web_dir.is_none());
        assert!(parse("--web dist --http none").is_err());
        assert!(parse("--web dist --tls-cert c.pem").is_err(), "a certificate needs its key");
        assert!(parse("--tls-cert c.pem --tls-key k.pem").is_ok(), "TLS for wss");
        assert!(parse("--ws none --tls-cert c.pem --tls-key k.pem").is_ok(), "https for the tokens");
        assert!(parse("--ws-behind-tls").is_err(), "gone");
        let c = parse("--web dist --tls-cert c.pem --tls-key k.pem --log-format json").unwrap();
        assert!(c.tls.is_some());
        assert!(parse("--log-format xml").is_err());
        let c = parse("--database postgres://ludus@127.0.0.1/ludus").unwrap();
        assert_eq!(c.database.as_deref(), Some("postgres://ludus@127.0.0.1/ludus"));
        assert_eq!(parse("--database ludus.db").unwrap_err().exit_code(), 2);
    }

    #[test]
    fn network_libraries_are_quiet_unless_asked() {
        let filter = log_filter(None).to_string();
        assert!(filter.contains("renetcode2=off"), "{filter}");
        let asked = log_filter(Some("debug,renetcode2=trace")).to_string();
        assert!(asked.contains("renetcode2=trace") && !asked.contains("renetcode2=off"), "{asked}");
    }

    #[test]
    fn the_version_names_the_package_version_and_the_commit() {
        let version = long_version();
        assert!(version.starts_with(&format!("{} (", env!("CARGO_PKG_VERSION"))), "{version}");
        match option_env!("LUDUS_GIT_COMMIT").map(str::trim).filter(|c| !c.is_empty()) {
            Some(commit) => assert!(version.ends_with(&format!("(commit {commit})")), "{version}"),
            None => assert!(version.ends_with("(unknown commit)"), "{version}"),
        }
    }
}
