//! `ludus-server [--udp ADDR|none] [--ws ADDR|none] [--web DIR [--http ADDR]] [--data DIR]
//! [--hold SECS] [--max-clients N] [--tls-cert FILE --tls-key FILE] [--stats SECS]`

use ludus_server::{DEFAULT_HTTP, DEFAULT_UDP, DEFAULT_WS, Server, ServerConfig};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const USAGE: &str = "usage: ludus-server [--udp ADDR|none] [--ws ADDR|none] [--web DIR [--http ADDR]] \
[--data DIR] [--hold SECS] [--max-clients N] [--tls-cert FILE --tls-key FILE] [--stats SECS]
  --udp ADDR        UDP address for native clients (default 0.0.0.0:5000)
  --ws ADDR         WebSocket address for browsers (default 0.0.0.0:5001)
  --web DIR         serve the browser bundle in DIR (web/dist) over HTTP, with /ludus-server.json
                    telling the page the WebSocket port
  --http ADDR       HTTP address for --web (default 0.0.0.0:8080)
  --data DIR        where the database lives (default ./ludus-data)
  --hold SECS       how long a disconnected player's seat is held (default 120)
  --max-clients N   most clients at once (default 4096)
  --tls-cert FILE   serve wss:// on the WebSocket port with this certificate chain (PEM)
  --tls-key FILE    the certificate's private key (PEM)
  --stats SECS      print a status line every SECS seconds (default 0: never)";

struct Options {
    config: ServerConfig,
    stats: Duration,
}

fn parse_addr(flag: &str, value: &str) -> Result<Option<SocketAddr>, String> {
    if value == "none" {
        return Ok(None);
    }
    value
        .parse()
        .map(Some)
        .map_err(|_| format!("{flag}: '{value}' is not an address like 0.0.0.0:5000 (or none)"))
}

fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut config = ServerConfig::local("ludus-data");
    config.udp = DEFAULT_UDP.parse().ok();
    config.ws = DEFAULT_WS.parse().ok();
    config.http = DEFAULT_HTTP.parse().ok();
    let mut http_given = false;
    let mut stats = Duration::ZERO;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        if matches!(flag, "-h" | "--help") {
            return Ok(None);
        }
        if flag == "--ws-behind-tls" {
            return Err(
                "--ws-behind-tls is gone: a TLS proxy needs no option now (netcode keeps encrypting \
                        inside TLS), or serve wss:// directly with --tls-cert FILE --tls-key FILE"
                    .to_string(),
            );
        }
        let value = args.get(i + 1).ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |what: &str, max: u64| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|&n| n <= max)
                .ok_or_else(|| format!("{flag}: '{value}' is not {what}"))
        };
        match flag {
            "--udp" => config.udp = parse_addr(flag, value)?,
            "--ws" => config.ws = parse_addr(flag, value)?,
            "--web" => config.web_dir = Some(PathBuf::from(value)),
            "--http" => {
                let addr = value
                    .parse()
                    .map_err(|_| format!("{flag}: '{value}' is not an address like 0.0.0.0:8080"))?;
                config.http = Some(addr);
                http_given = true;
            }
            "--data" => config.data_dir = PathBuf::from(value),
            "--tls-cert" => config.tls_cert = Some(PathBuf::from(value)),
            "--tls-key" => config.tls_key = Some(PathBuf::from(value)),
            "--hold" => config.limits.seat_hold = Duration::from_secs(number("a number of seconds", 86_400)?),
            "--max-clients" => {
                config.max_clients = number("a number from 1 to 65536", 65_536)?.max(1) as usize;
            }
            "--stats" => stats = Duration::from_secs(number("a number of seconds", 86_400)?),
            _ => return Err(format!("unknown option '{flag}' (see --help)")),
        }
        i += 2;
    }
    if config.udp.is_none() && config.ws.is_none() {
        return Err("--udp none and --ws none: nothing to listen on".to_string());
    }
    if config.tls_cert.is_some() != config.tls_key.is_some() {
        return Err("--tls-cert and --tls-key go together".to_string());
    }
    if http_given && config.web_dir.is_none() {
        return Err("--http needs --web DIR (the files to serve)".to_string());
    }
    Ok(Some(Options { config, stats }))
}

fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn main() -> ExitCode {
    tracing_subscriber::fmt().with_writer(std::io::stderr).with_target(false).init();
    // renet2 can panic on some forged packets; the server contains those panics and drops the
    // client. Report them rate-limited (one line per interval, with a count), not with a
    // backtrace each.
    std::panic::set_hook(Box::new(|info| {
        ludus_server::faults::note_detail("panic (contained)", &info.to_string());
    }));
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse_args(&args) {
        Ok(Some(o)) => o,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("ludus-server: {e}");
            return ExitCode::from(2);
        }
    };
    let data = options.config.data_dir.clone();
    let mut server = match Server::bind(options.config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("ludus-server: {e}");
            return ExitCode::from(1);
        }
    };
    let show = |a: Option<SocketAddr>| a.map_or_else(|| "none".to_string(), |a| a.to_string());
    // The first line is for scripts and tests: the bound addresses. Output errors (a closed
    // pipe) never stop the server.
    say(&format!(
        "ludus-server listening udp={} ws={} http={} data={}",
        show(server.udp_addr()),
        show(server.ws_addr()),
        show(server.http_addr()),
        data.display()
    ));
    say(&format!(
        "ludus-server: {} live games reloaded; every accepted move is on disk before it is sent",
        server.live_games()
    ));
    let stop = AtomicBool::new(false);
    let mut last_stats = Instant::now();
    let mut last = ludus_server::Status::default();
    while !stop.load(Ordering::Relaxed) {
        server.step();
        if !options.stats.is_zero() && last_stats.elapsed() >= options.stats {
            let status = server.status();
            let s = &status.stats;
            let secs = last_stats.elapsed().as_secs_f64();
            let commits = status.db_commits - last.db_commits;
            say(&format!(
                "ludus-server: {} connections, {} live games, {} moves ({:.0}/s), {} refused, {} malformed, \
                 {} started, {} finished, {} contained panics; {:.0} commits/s of {:.1} ticks, {:.1} ms average, \
                 {:.1} ms max so far; sends wait p50 {} p99 {}; longest poll gap {:.1} ms",
                status.connections,
                status.live_games,
                s.moves,
                (s.moves - last.stats.moves) as f64 / secs,
                s.refused,
                s.malformed,
                s.games_started,
                s.games_finished,
                status.contained_panics,
                commits as f64 / secs,
                (status.db_batches - last.db_batches) as f64 / commits.max(1) as f64,
                (status.db_commit_total_us - last.db_commit_total_us) as f64 / 1000.0 / commits.max(1) as f64,
                status.db_commit_max_us as f64 / 1000.0,
                status.release_quantile(&last, 0.5).unwrap_or_default(),
                status.release_quantile(&last, 0.99).unwrap_or_default(),
                status.max_poll_gap_us as f64 / 1000.0,
            ));
            last = status;
            server.reset_poll_gap();
            last_stats = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    server.shutdown();
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn arguments() {
        let o = parse_args(&args("--udp 127.0.0.1:0 --ws none --data /tmp/x --hold 5")).unwrap().unwrap();
        assert_eq!(o.config.udp, "127.0.0.1:0".parse().ok());
        assert_eq!(o.config.ws, None);
        assert_eq!(o.config.limits.seat_hold, Duration::from_secs(5));
        assert!(parse_args(&args("--udp nowhere")).is_err());
        assert!(parse_args(&args("--bogus 1")).is_err());
        assert!(parse_args(&args("--hold")).is_err());
        assert!(parse_args(&args("--hold -3")).is_err());
        assert!(parse_args(&args("--udp none --ws none")).is_err());
        assert!(parse_args(&args("--help")).unwrap().is_none());
        let o = parse_args(&args("--web dist")).unwrap().unwrap();
        assert_eq!(o.config.web_dir, Some(PathBuf::from("dist")));
        assert_eq!(o.config.http, DEFAULT_HTTP.parse().ok());
        let o = parse_args(&args("--web dist --http 127.0.0.1:0")).unwrap().unwrap();
        assert_eq!(o.config.http, "127.0.0.1:0".parse().ok());
        assert_eq!(parse_args(&args("--udp 127.0.0.1:0")).unwrap().unwrap().config.web_dir, None);
        assert!(parse_args(&args("--http 127.0.0.1:0")).is_err());
        assert!(parse_args(&args("--web dist --http none")).is_err());
        assert!(parse_args(&args("--ws-behind-tls")).is_err());
        assert!(parse_args(&args("--tls-cert c.pem")).is_err());
        let o = parse_args(&args("--tls-cert c.pem --tls-key k.pem")).unwrap().unwrap();
        assert_eq!(o.config.tls_key, Some(PathBuf::from("k.pem")));
    }
}
