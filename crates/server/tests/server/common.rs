//! Shared by the tests: a server on free 127.0.0.1 ports, clients that wait for messages with deadlines.

use ludus_pg_harness::TestPostgres;
use ludus_protocol::client::{Client, ClientConfig, Transport};
use ludus_protocol::{
    ClientMessage, ErrorCode, GameId, GameView, NETCODE_PROTOCOL_ID, PROTOCOL_VERSION, ServerMessage,
    SessionToken,
};
use ludus_server::core::Limits;
use ludus_server::{ServerConfig, ServerHandle, Status};
use renet2_netcode::ConnectToken;
use renetcode2::Packet;
use std::collections::VecDeque;
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Longest wait for any one expected message.
pub const WAIT: Duration = Duration::from_secs(10);

/// The time since the Unix epoch (for connect tokens made by the tests).
pub fn unix_now() -> Duration {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap()
}

/// Waits (bounded) until the server's status satisfies `ok`.
pub fn wait_status(server: &ServerHandle, what: &str, ok: impl Fn(&Status) -> bool) -> Status {
    let deadline = Instant::now() + WAIT;
    loop {
        let status = server.status();
        if ok(&status) {
            return status;
        }
        assert!(Instant::now() < deadline, "{what}: not within {WAIT:?}; {status:?}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The prefix of the tests' data directories, which end in the test process's id.
const DATA_DIR_PREFIX: &str = "ludus-server-test-";

/// A fresh, empty data directory under the target's tmp dir. The first call of a test process
/// removes the directories that earlier test processes left there (a server under test may
/// hold its directory until the process ends, so each test's own stays until the next run).
pub fn data_dir(name: &str) -> PathBuf {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR"));
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(|| remove_dead_data_dirs(base));
    let dir = base.join(format!("{DATA_DIR_PREFIX}{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create data dir");
    dir
}

/// Removes the data directories under `base` of test processes that are no longer running (on
/// a system that lists its processes in /proc; elsewhere none are removed).
fn remove_dead_data_dirs(base: &Path) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(base) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(DATA_DIR_PREFIX)) else { continue };
        let Some(pid) = rest.rsplit('-').next().and_then(|p| p.parse::<u32>().ok()) else { continue };
        if pid != std::process::id() && !proc.join(pid.to_string()).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A server on 127.0.0.1 with free ports.
pub fn server(dir: &Path) -> ServerHandle {
    server_with(dir, Limits::default())
}

/// A server with custom limits.
pub fn server_with(dir: &Path, limits: Limits) -> ServerHandle {
    server_on(dir, limits, None)
}

/// A server with custom limits, storing in PostgreSQL at `database` if given.
pub fn server_on(dir: &Path, limits: Limits, database: Option<String>) -> ServerHandle {
    let mut config = ServerConfig::local(dir);
    config.limits = limits;
    config.database = database;
    // Tests sign in many players from 127.0.0.1; the limit has its own test.
    config.new_players_per_minute = 0;
    spawn(config)
}

/// A throwaway PostgreSQL (shared by the tests running at the same time) and a fresh database
/// in it, or `None` (and a SKIPPED line) without PostgreSQL's binaries.
pub fn postgres(test: &str) -> Option<(TestPostgres, String)> {
    let pg = TestPostgres::start(test)?;
    let url = pg.new_database(test);
    Some((pg, url))
}

/// Starts a server and remembers its HTTP address for clients of its WebSocket port.
pub fn spawn(config: ServerConfig) -> ServerHandle {
    let server = ServerHandle::spawn(config).expect("server starts");
    if let (Some(ws), Some(http)) = (server.ws_addr(), server.http_addr()) {
        register_ws(ws, http);
    }
    server
}

/// Remembers the HTTP address (token endpoint) of the server whose WebSocket address is `ws`.
pub fn register_ws(ws: SocketAddr, http: SocketAddr) {
    HTTP_OF_WS.lock().unwrap().insert(ws, http);
}

/// The HTTP address (token endpoint) of the test server whose WebSocket address is `ws`.
pub fn http_of_ws(ws: SocketAddr) -> Option<SocketAddr> {
    HTTP_OF_WS.lock().unwrap().get(&ws).copied()
}

/// The HTTP address (token endpoint) of each test server's WebSocket address.
static HTTP_OF_WS: std::sync::Mutex<std::collections::BTreeMap<SocketAddr, SocketAddr>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// A client configuration with the token endpoint of the server at `addr` (its UDP address
/// names it; a WebSocket address is looked up among the servers started by [`spawn`]).
pub fn config(addr: SocketAddr, transport: Transport) -> ClientConfig {
    let config = ClientConfig::new(addr, transport);
    match HTTP_OF_WS.lock().unwrap().get(&addr) {
        Some(http) if transport == Transport::WebSocket => config.api(format!("http://{http}")),
        _ => config,
    }
}

/// `POST`s `body` to `http` + `path` and returns the status and the body (plain HTTP/1.1).
pub fn http_post(http: SocketAddr, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let stream = TcpStream::connect(http).expect("connect to HTTP");
    stream.set_read_timeout(Some(WAIT)).unwrap();
    http_post_on(stream, http, path, body).expect("HTTP answer")
}

/// `POST`s `body` over `stream` (plain or TLS); `None` when the answer is not HTTP.
pub fn http_post_on(
    mut stream: impl std::io::Read + std::io::Write,
    http: SocketAddr,
    path: &str,
    body: &[u8],
) -> Option<(u16, Vec<u8>)> {
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {http}\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body).ok()?;
    let mut answer = Vec::new();
    // A TLS peer may end without close_notify: keep what came.
    let _ = stream.read_to_end(&mut answer);
    let end = answer.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let status = String::from_utf8_lossy(answer.get(9..12)?).parse().ok()?;
    Some((status, answer[end..].to_vec()))
}

/// Asks the server's token endpoint for a connect token (`socket` 0: UDP, 1: WebSocket).
pub fn request_token(http: SocketAddr, socket: u8, credential: Option<SessionToken>) -> (u16, Vec<u8>) {
    let request =
        ludus_protocol::ConnectRequest { version: PROTOCOL_VERSION, socket, credential, timeout_secs: 10 };
    http_post(http, ludus_protocol::CONNECT_PATH, &postcard::to_allocvec(&request).unwrap())
}

/// A local port where nothing answers, held for as long as the socket lives: bound, never
/// listening, so connections to it are refused and no one else can take it meanwhile.
pub fn silent_port() -> (socket2::Socket, u16) {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
    socket.bind(&SocketAddr::from(([127, 0, 0, 1], 0)).into()).unwrap();
    let port = socket.local_addr().unwrap().as_socket().unwrap().port();
    (socket, port)
}

/// A client that keeps every message it receives until a test takes it.
pub struct TestClient {
    pub client: Client,
    pub inbox: VecDeque<ServerMessage>,
    /// Every message ever received, in order.
    pub log: Vec<ServerMessage>,
    pub name: String,
}

impl TestClient {
    pub fn connect(addr: SocketAddr, transport: Transport, name: &str) -> TestClient {
        Self::connect_with(config(addr, transport).nickname(name), name)
    }

    pub fn connect_with(config: ClientConfig, name: &str) -> TestClient {
        let client = Client::connect(config).expect("client starts");
        TestClient { client, inbox: VecDeque::new(), log: Vec::new(), name: name.to_string() }
    }

    /// Connects and waits for the welcome.
    pub fn signed_in(addr: SocketAddr, transport: Transport, name: &str) -> TestClient {
        let mut c = Self::connect(addr, transport, name);
        c.expect("Welcome", |m| matches!(m, ServerMessage::Welcome { .. }).then_some(()));
        c
    }

    pub fn token(&self) -> SessionToken {
        self.client.token().cloned().expect("signed in")
    }

    pub fn pump(&mut self) {
        for m in self.client.poll() {
            self.log.push(m.clone());
            self.inbox.push_back(m);
        }
    }

    pub fn send(&mut self, message: ClientMessage) {
        self.client.send(&message);
        self.client.flush();
    }

    /// Waits for the first message (skipping others) for which `pick` returns something.
    pub fn expect<T>(&mut self, what: &str, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        let deadline = Instant::now() + WAIT;
        loop {
            while let Some(m) = self.inbox.pop_front() {
                if let Some(t) = pick(&m) {
                    return t;
                }
            }
            assert!(
                Instant::now() < deadline,
                "{}: no {what} within {WAIT:?}; log: {:?}",
                self.name,
                self.log
            );
            assert!(
                !self.client.is_disconnected(),
                "{}: disconnected ({:?}) while waiting for {what}",
                self.name,
                self.client.state()
            );
            std::thread::sleep(Duration::from_millis(1));
            self.pump();
        }
    }

    /// Waits for an error with this code.
    pub fn expect_error(&mut self, code: ErrorCode) -> String {
        self.expect(&format!("error {code:?}"), |m| match m {
            ServerMessage::Error { code: c, message } if *c == code => Some(message.clone()),
            ServerMessage::Error { code: c, message } => panic!("expected {code:?}, got {c:?}: {message}"),
            _ => None,
        })
    }

    /// Waits for a game view.
    pub fn expect_game(&mut self) -> GameView {
        self.expect("game view", |m| match m {
            ServerMessage::Game(v) => Some(v.clone()),
            _ => None,
        })
    }

    /// Waits for the move at `ply` of `game`.
    pub fn expect_move(&mut self, game: GameId, ply: u32) -> ServerMessage {
        self.expect(&format!("move {ply}"), |m| match m {
            ServerMessage::MovePlayed { game: g, ply: p, .. } if *g == game && *p == ply => Some(m.clone()),
            _ => None,
        })
    }

    /// A round trip through the server: everything sent before has been handled.
    pub fn sync(&mut self) {
        let nonce = rand_nonce();
        self.send(ClientMessage::Ping { nonce });
        self.expect("pong", |m| matches!(m, ServerMessage::Pong { nonce: n } if *n == nonce).then_some(()));
    }

    /// Keeps the connection alive for a while, collecting messages.
    pub fn idle(&mut self, d: Duration) {
        let end = Instant::now() + d;
        while Instant::now() < end {
            self.pump();
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

fn rand_nonce() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(1);
    N.fetch_add(1, Ordering::Relaxed)
}

/// A TCP connection to `to` from the loopback address `from` (any 127.x.y.z).
pub fn tcp_from(from: [u8; 4], to: SocketAddr) -> std::io::Result<TcpStream> {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None)?;
    socket.bind(&SocketAddr::from((from, 0)).into())?;
    socket.connect_timeout(&to.into(), Duration::from_secs(2))?;
    Ok(socket.into())
}

/// A UDP connect token asked for from the loopback address `from` (status, token).
pub fn token_from(server: &ServerHandle, from: [u8; 4]) -> (u16, Option<ConnectToken>, String) {
    let http = server.http_addr().unwrap();
    let request = ludus_protocol::ConnectRequest {
        version: PROTOCOL_VERSION,
        socket: 0,
        credential: None,
        timeout_secs: 10,
    };
    let body = postcard::to_allocvec(&request).unwrap();
    let stream = tcp_from(from, http).expect("a TCP connection");
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let (status, answer) =
        http_post_on(stream, http, ludus_protocol::CONNECT_PATH, &body).expect("an HTTP answer");
    let token = (status == 200).then(|| {
        let mut token = ConnectToken::read(&mut &answer[..]).unwrap();
        token.server_addresses = [None; 32];
        token.server_addresses[0] = server.udp_addr();
        token
    });
    (status, token, String::from_utf8_lossy(&answer).into_owned())
}

/// The UDP connection request of `token`, as a netcode client sends it.
pub fn request_of(token: &ConnectToken) -> Vec<u8> {
    let mut buf = [0u8; 1100];
    let len = Packet::connection_request_from_token(token)
        .encode(&mut buf, NETCODE_PROTOCOL_ID, None, true)
        .unwrap();
    buf[..len].to_vec()
}
