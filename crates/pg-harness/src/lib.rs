//! A throwaway PostgreSQL for tests and benchmarks: `initdb` in a temporary directory and
//! `pg_ctl` on a free 127.0.0.1 port (as the `postgres` user when running as root, since
//! PostgreSQL refuses to run as root), stopped and deleted when the last handle is dropped.
//!
//! The binaries are taken from `$LUDUS_PG_BIN`, else the newest `/usr/lib/postgresql/*/bin`
//! (Debian's `postgresql` package). Without them [`TestPostgres::start`] prints why and returns
//! `None`: the tests that need PostgreSQL skip (CI installs the package, so they run there).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

/// A running throwaway cluster; stopped when the last clone is dropped.
#[derive(Clone)]
pub struct TestPostgres {
    cluster: Arc<Cluster>,
}

struct Cluster {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    as_postgres: bool,
}

/// The cluster shared by the tests of one process while any of them holds it.
static SHARED: Mutex<Weak<Cluster>> = Mutex::new(Weak::new());
static NEXT_DB: AtomicU64 = AtomicU64::new(1);

fn find_bin() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("LUDUS_PG_BIN") {
        return Some(PathBuf::from(dir)).filter(|d| d.join("initdb").exists());
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin)
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

impl Cluster {
    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    }

    fn start() -> Result<Cluster, String> {
        let bin = find_bin().ok_or("no PostgreSQL binaries (install Debian's postgresql package)")?;
        let as_postgres = is_root();
        if as_postgres
            && !Command::new("id").arg("postgres").stdout(Stdio::null()).status().is_ok_and(|s| s.success())
        {
            return Err("running as root and there is no postgres user to run PostgreSQL as".into());
        }
        // Under /tmp: the postgres user must reach it (a root home is closed to it).
        let dir = std::env::temp_dir().join(format!("ludus-pg-{}-{}", std::process::id(), now_nanos()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
        let mut cluster = Cluster { bin, dir, port: 0, as_postgres };
        if as_postgres {
            run(Command::new("chown").args(["postgres:postgres"]).arg(&cluster.dir))?;
        }
        let data = cluster.dir.join("data");
        run(cluster.command("initdb").arg("-D").arg(&data).args([
            "-U",
            "ludus",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions",
        ]))?;
        // A free port: taken from the kernel and given back, then bound by PostgreSQL. Another
        // process may take it in between: PostgreSQL then says so in its log and exits, and
        // another port is tried (a bounded number of times). Any other failure is reported at
        // once, the server stopped if it runs (a start slower than pg_ctl's wait).
        let log = cluster.dir.join("log");
        let mut last = String::new();
        for _ in 0..PORT_ATTEMPTS {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .map_err(|e| format!("free port: {e}"))?
                .port();
            // Durability is not what these tests are about: no waits on the disk, whose
            // latency on a busy machine would only slow them down.
            let options = format!(
                "-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={} -c max_connections=200 \
                 -c lc_messages=C -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
                cluster.dir.display()
            );
            let logged_before = std::fs::metadata(&log).map_or(0, |m| m.len());
            let started = run(cluster
                .command("pg_ctl")
                .arg("-D")
                .arg(&data)
                .arg("-l")
                .arg(&log)
                .args(["-w", "-t", "120", "-o", &options, "start"]));
            let Err(e) = started else {
                cluster.port = port;
                return Ok(cluster);
            };
            let said = std::fs::read(&log)
                .map(|bytes| {
                    String::from_utf8_lossy(&bytes[(logged_before as usize).min(bytes.len())..]).into_owned()
                })
                .unwrap_or_default();
            last = format!("{e}\nlog:\n{said}");
            if !said.contains("Address already in use") {
                let _ = run(cluster.command("pg_ctl").arg("-D").arg(&data).args([
                    "-m",
                    "immediate",
                    "-w",
                    "stop",
                ]));
                return Err(format!("pg_ctl start failed: {last}"));
            }
        }
        Err(format!("pg_ctl start failed on {PORT_ATTEMPTS} ports in a row: {last}"))
    }
}

/// Ports tried in turn when another process takes the free port before PostgreSQL binds it.
const PORT_ATTEMPTS: usize = 10;

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.port != 0 {
            let _ = run(self.command("pg_ctl").arg("-D").arg(self.dir.join("data")).args([
                "-m",
                "immediate",
                "-w",
                "stop",
            ]));
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn now_nanos() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0)
}

fn run(command: &mut Command) -> Result<(), String> {
    let out = command.stdin(Stdio::null()).output().map_err(|e| format!("{command:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{command:?}: {}: {}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

impl TestPostgres {
    /// The process's throwaway cluster (started if no test holds one), or `None` with a line
    /// on stderr saying why the caller skips.
    pub fn start(test: &str) -> Option<TestPostgres> {
        let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(cluster) = shared.upgrade() {
            return Some(TestPostgres { cluster });
        }
        match Cluster::start() {
            Ok(cluster) => {
                let cluster = Arc::new(cluster);
                *shared = Arc::downgrade(&cluster);
                Some(TestPostgres { cluster })
            }
            Err(why) => {
                eprintln!("SKIPPED {test}: PostgreSQL not available: {why}");
                None
            }
        }
    }

    /// The port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.cluster.port
    }

    /// The data directory (`DIR/data`) and log (`DIR/log`).
    pub fn dir(&self) -> &Path {
        &self.cluster.dir
    }

    /// A URL of the maintenance database (`postgres`).
    pub fn admin_url(&self) -> String {
        format!("postgres://ludus@127.0.0.1:{}/postgres", self.cluster.port)
    }

    /// Creates a new, empty database and returns its URL.
    pub fn new_database(&self, name: &str) -> String {
        let clean: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' })
            .collect();
        let db = format!("{clean}_{}", NEXT_DB.fetch_add(1, Ordering::Relaxed));
        let mut admin = postgres::Client::connect(&self.admin_url(), postgres::NoTls)
            .expect("connect to the test cluster");
        admin.batch_execute(&format!("CREATE DATABASE \"{db}\"")).expect("create the test database");
        format!("postgres://ludus@127.0.0.1:{}/{db}", self.cluster.port)
    }
}
