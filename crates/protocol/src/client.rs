//! A plain (non-Bevy) client: renet2 and netcode over UDP or WebSocket, messages in and out.
//!
//! ```no_run
//! use ludus_protocol::client::{Client, ClientConfig, Transport};
//! use ludus_protocol::{ClientMessage, ServerMessage};
//! let addr = "127.0.0.1:5000".parse().unwrap();
//! let mut client = Client::connect(ClientConfig::new(addr, Transport::Udp).nickname("Ann")).unwrap();
//! client.send(&ClientMessage::Lobby);
//! loop {
//!     for message in client.poll() {
//!         if let ServerMessage::Lobby(lobby) = message {
//!             println!("{} games", lobby.total_games);
//!             return;
//!         }
//!     }
//!     std::thread::sleep(std::time::Duration::from_millis(10));
//! }
//! ```
//!
//! - [`Client::connect`] returns at once; the connection is made during the following
//!   [`Client::poll`] calls, which the owner makes every frame (or every few milliseconds):
//!   first a connect token is fetched from the server's HTTP(S) endpoint
//!   ([`crate::CONNECT_PATH`], at [`ClientConfig::api`]; on a thread natively, through the
//!   page's `fetch` in a browser), then netcode connects with it.
//!   [`ClientMessage::Hello`] is sent first automatically, with the nickname; the configured
//!   session token goes in the connect-token request, never inside netcode.
//! - [`Client::send`] queues a message; the next `poll` (or [`Client::flush`]) sends it.
//! - [`Client::poll`] returns the server's messages in order. The client also keeps the session
//!   token from [`ServerMessage::Welcome`] ([`Client::token`]): store it, and pass it in
//!   [`ClientConfig::token`] (or call [`Client::reconnect`]) to take back the same seats.
//! - [`Client::state`] tells whether it is connecting, connected, signed in or disconnected (with
//!   the reason, e.g. the server's "your game is older than the server: please update").
//!
//! Messages sent before the connection is up wait in the reliable channel and go out once it is.
//! Nothing here blocks, except [`Transport::WebSocket`]'s TCP connect and handshake during the
//! first `poll` after the token came (bounded by [`ClientConfig::connect_timeout`]).

#[cfg(not(target_family = "wasm"))]
use crate::ws::WsClientSocket;
use crate::{
    CHANNEL, CONNECT_PATH, ClientMessage, ConnectRequest, ErrorCode, Hello, IDLE_FLUSH_INTERVAL,
    PROTOCOL_VERSION, PlayerId, Redirect, ServerMessage, SessionToken, VERSION_HEADER, connection_config,
    decode_server, encode,
};
use renet2::RenetClient;
use renet2_netcode::{ClientAuthentication, ConnectToken, NetcodeClientTransport, NetcodeTransportError};
use std::fmt;
use std::net::SocketAddr;
use std::time::Duration;
// `std::time::Instant` panics in a browser; web-time is std's on native targets.
use web_time::{Instant, SystemTime, UNIX_EPOCH};

/// The server's netcode socket for UDP clients.
pub const UDP_SOCKET_ID: u8 = 0;
/// The server's netcode socket for WebSocket clients.
pub const WS_SOCKET_ID: u8 = 1;

/// How a client reaches the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// Native UDP (the server's `--udp` address).
    Udp,
    /// WebSocket without TLS (the server's `--ws` address), as a browser would.
    WebSocket,
}

/// How to connect.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// The server's UDP or WebSocket address.
    pub server: SocketAddr,
    /// UDP or WebSocket.
    pub transport: Transport,
    /// The token from an earlier session, to be the same player again.
    pub token: Option<SessionToken>,
    /// The wanted nickname.
    pub nickname: Option<String>,
    /// Silence after which either end drops the connection (netcode timeout), 10 s by default.
    pub timeout: Duration,
    /// Bound on the WebSocket TCP connect and handshake, 5 s by default.
    pub connect_timeout: Duration,
    /// The protocol version announced in [`Hello`]: [`PROTOCOL_VERSION`] (other values only
    /// to test a server's version check).
    pub protocol_version: u16,
    /// Browser builds: the WebSocket URL (`ws://host:5001`, `wss://example.org/ludus`); when
    /// unset, `ws://<server>`. Native clients connect to `server` and ignore it.
    pub url: Option<String>,
    /// The server's HTTP(S) base URL, where connect tokens come from (`http://host:5000`,
    /// `https://example.org`). When unset: natively `http://<server>` (the server serves HTTP
    /// on the TCP port of its UDP port by default); in a browser the page's origin (the page
    /// came from the game server).
    pub api: Option<String>,
}

impl ClientConfig {
    /// A new player (no token, no nickname) connecting to `server`.
    pub fn new(server: SocketAddr, transport: Transport) -> ClientConfig {
        ClientConfig {
            server,
            transport,
            token: None,
            nickname: None,
            timeout: Duration::from_secs(10),
            connect_timeout: Duration::from_secs(5),
            protocol_version: PROTOCOL_VERSION,
            url: None,
            api: None,
        }
    }

    /// Sets the server's HTTP(S) base URL (see [`ClientConfig::api`]).
    pub fn api(mut self, api: impl Into<String>) -> ClientConfig {
        self.api = Some(api.into());
        self
    }

    /// The URL of the connect-token endpoint.
    pub fn connect_url(&self) -> String {
        let base = match &self.api {
            Some(api) => api.clone(),
            None => default_api(self),
        };
        format!("{}{CONNECT_PATH}", base.trim_end_matches('/'))
    }

    /// A WebSocket connection to `url` (`ws://host:port` or `wss://host/path`), as a browser
    /// makes it. `server` is the URL's address when it is an IP address (it only names the
    /// connection in messages and logs).
    pub fn web(url: impl Into<String>) -> ClientConfig {
        let url = url.into();
        let server = url::Url::parse(&url)
            .ok()
            .and_then(|u| {
                let port = u.port_or_known_default()?;
                match u.host()? {
                    url::Host::Ipv4(ip) => Some(SocketAddr::from((ip, port))),
                    url::Host::Ipv6(ip) => Some(SocketAddr::from((ip, port))),
                    url::Host::Domain(_) => None,
                }
            })
            .unwrap_or_else(|| SocketAddr::from(([0, 0, 0, 0], 0)));
        let mut config = ClientConfig::new(server, Transport::WebSocket);
        config.url = Some(url);
        config
    }

    /// The configuration for the node a [`Redirect`] names, everything else (token, nickname,
    /// timeouts) kept: that node's address for this transport and its token endpoint. `None`
    /// when the redirect has no usable address for this transport, or would take a connection
    /// whose tokens come over https (or wss) to plain http: a redirect must never make the
    /// credential travel unencrypted.
    pub fn redirected(&self, r: &Redirect) -> Option<ClientConfig> {
        let target = match self.transport {
            Transport::Udp => r.udp.as_deref(),
            Transport::WebSocket => r.ws.as_deref(),
        };
        let server = target.and_then(resolve)?;
        let secure = |u: Option<&str>| {
            u.is_some_and(|u| ["https://", "wss://"].iter().any(|p| u.to_ascii_lowercase().starts_with(p)))
        };
        let was_secure = secure(self.api.as_deref())
            || (self.transport == Transport::WebSocket && secure(self.url.as_deref()));
        if was_secure && !secure(r.http.as_deref()) {
            return None;
        }
        let mut next = self.clone();
        next.server = server;
        if self.transport == Transport::WebSocket {
            next.url = r.ws.clone();
        }
        next.api = r.http.clone();
        Some(next)
    }

    /// Sets the nickname.
    pub fn nickname(mut self, nickname: impl Into<String>) -> ClientConfig {
        self.nickname = Some(nickname.into());
        self
    }

    /// Sets the session token.
    pub fn token(mut self, token: Option<SessionToken>) -> ClientConfig {
        self.token = token;
        self
    }

    /// Sets the netcode timeout (whole seconds, at least 1).
    pub fn timeout(mut self, timeout: Duration) -> ClientConfig {
        self.timeout = timeout;
        self
    }
}

/// Where the connection stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConnectionState {
    /// Establishing the connection.
    Connecting,
    /// Connected; waiting for [`ServerMessage::Welcome`].
    Connected,
    /// Connected and signed in as this player.
    SignedIn(PlayerId),
    /// Disconnected, with the reason in English.
    Disconnected(String),
}

/// A client could not be set up (no local socket, ...).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ClientError(pub String);

/// One connection to a Ludus server. See the module documentation.
pub struct Client {
    config: ClientConfig,
    /// The connection, once the connect token came.
    link: Option<(RenetClient, NetcodeClientTransport)>,
    /// The connect-token request in flight.
    fetch: Option<TokenRequest>,
    /// Messages sent before the connection was opened.
    queued: Vec<Vec<u8>>,
    last_update: Instant,
    last_flush: Instant,
    unflushed: bool,
    state: ConnectionState,
    token: Option<SessionToken>,
    nickname: Option<String>,
    decode_errors: u64,
    silent: bool,
    /// The server did not know the credential: connect again as a new player.
    renew: bool,
    /// Messages made by the client itself (the token endpoint's refusal of our version).
    early: Vec<ServerMessage>,
    /// A [`ServerMessage::Redirect`] to follow at the end of this poll.
    redirect: Option<Redirect>,
    /// After following a redirect and until welcomed there: the node that sent it, the message
    /// to send after the welcome, and when to go back to that node if the other one is
    /// unreachable (a node that just died: the service moves its games meanwhile).
    fallback: Option<Fallback>,
}

/// See [`Client::fallback`].
#[derive(Clone, Debug)]
struct Fallback {
    home: ClientConfig,
    then: Option<ClientMessage>,
    retry_at: Option<Instant>,
    /// When the redirect was followed.
    since: Instant,
}

/// How long a redirected client waits to be welcomed by the other node before it goes back to
/// the node that sent it (a node that lost its database cannot welcome anyone).
pub const REDIRECT_WELCOME_TIMEOUT: Duration = Duration::from_secs(3);

/// How long a client waits before going back to the node that redirected it, when the node it
/// was sent to cannot be reached.
pub const REDIRECT_RETRY: Duration = Duration::from_millis(500);

/// The first address `text` (`host:port`, or a `ws://`/`wss://` URL) resolves to.
#[cfg(not(target_family = "wasm"))]
fn resolve(text: &str) -> Option<SocketAddr> {
    use std::net::ToSocketAddrs;
    let authority = match url::Url::parse(text) {
        Ok(u) if u.has_host() => format!("{}:{}", u.host_str()?, u.port_or_known_default()?),
        _ => text.to_string(),
    };
    authority.to_socket_addrs().ok()?.next()
}

#[cfg(target_family = "wasm")]
fn resolve(text: &str) -> Option<SocketAddr> {
    text.parse().ok().or_else(|| {
        let u = url::Url::parse(text).ok()?;
        let port = u.port_or_known_default()?;
        match u.host()? {
            url::Host::Ipv4(ip) => Some(SocketAddr::from((ip, port))),
            url::Host::Ipv6(ip) => Some(SocketAddr::from((ip, port))),
            url::Host::Domain(_) => Some(SocketAddr::from(([0, 0, 0, 0], port))),
        }
    })
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client").field("server", &self.config.server).field("state", &self.state).finish()
    }
}

fn unix_now() -> Duration {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default()
}

#[cfg(not(target_family = "wasm"))]
fn default_api(config: &ClientConfig) -> String {
    format!("http://{}", config.server)
}

/// In a browser: the page's origin when the WebSocket goes to the page's host (the page came
/// from the game server), else that host's HTTP port by convention (`DEFAULT_UDP_PORT`'s
/// number; `https` for `wss://`); the endpoint allows any origin.
#[cfg(target_family = "wasm")]
fn default_api(config: &ClientConfig) -> String {
    let location = web_sys::window().map(|w| w.location());
    let origin = location.as_ref().and_then(|l| l.origin().ok()).filter(|o| o.starts_with("http"));
    let page_host = location.as_ref().and_then(|l| l.hostname().ok());
    let ws = config.url.as_deref().and_then(|u| url::Url::parse(u).ok());
    let ws_host = ws.as_ref().and_then(|u| u.host_str().map(str::to_string));
    match (origin, ws_host) {
        (Some(origin), Some(host)) if Some(&host) == page_host.as_ref() => origin,
        (Some(origin), None) => origin,
        (_, Some(host)) => {
            let scheme = if ws.as_ref().is_some_and(|u| u.scheme() == "wss") { "https" } else { "http" };
            let host = if host.contains(':') { format!("[{host}]") } else { host };
            format!("{scheme}://{host}:{}", crate::DEFAULT_UDP_PORT)
        }
        (None, None) => format!("http://{}", config.server),
    }
}

/// The request body for a connect token.
fn connect_request(config: &ClientConfig, credential: Option<SessionToken>) -> Vec<u8> {
    let request = ConnectRequest {
        version: config.protocol_version,
        socket: match config.transport {
            Transport::Udp => UDP_SOCKET_ID,
            Transport::WebSocket => WS_SOCKET_ID,
        },
        credential,
        timeout_secs: u16::try_from(config.timeout.as_secs().clamp(1, 60)).unwrap_or(10),
    };
    postcard::to_allocvec(&request).unwrap_or_default()
}

/// What the token endpoint answered: the token's bytes, or why not.
type FetchResult = Result<Vec<u8>, TokenFailure>;

/// Why no connect token came: the reason, the HTTP status when the endpoint answered, and the
/// server's protocol version when it refused ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenFailure {
    /// The reason, in English (the server's words when it gave some): for logs, not for players.
    pub reason: String,
    /// The endpoint's HTTP status when it answered with something else than a token (`None`: no
    /// answer, or one that could not be read).
    pub status: Option<u16>,
    /// The server's protocol version, when it refused this client's.
    pub server_version: Option<u16>,
}

impl From<String> for TokenFailure {
    fn from(reason: String) -> TokenFailure {
        TokenFailure { reason, status: None, server_version: None }
    }
}

/// Largest answer read from the token endpoint.
const MAX_ANSWER_BYTES: u64 = 16 * 1024;

fn answer(status: u16, body: Vec<u8>, url: &str, version: Option<u16>) -> FetchResult {
    if status == 200 {
        Ok(body)
    } else {
        let text = String::from_utf8_lossy(&body[..body.len().min(300)]).trim().to_string();
        let reason = if text.is_empty() { format!("{url}: HTTP {status}") } else { text };
        Err(TokenFailure { reason, status: Some(status), server_version: version.filter(|_| status == 409) })
    }
}

/// A connect-token request in flight: its answer lands in the slot (a `Mutex`, so that the
/// client stays `Send + Sync`, as the game's resources must be).
struct TokenFetch(std::sync::Arc<std::sync::Mutex<Option<FetchResult>>>);

impl TokenFetch {
    fn take(&mut self) -> Option<FetchResult> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    fn slot() -> (TokenFetch, std::sync::Arc<std::sync::Mutex<Option<FetchResult>>>) {
        let slot = std::sync::Arc::new(std::sync::Mutex::new(None));
        (TokenFetch(slot.clone()), slot)
    }

    #[cfg(not(target_family = "wasm"))]
    fn start(url: String, body: Vec<u8>, timeout: Duration) -> TokenFetch {
        let (fetch, slot) = TokenFetch::slot();
        let out = slot.clone();
        let spawned = std::thread::Builder::new().name("ludus-token".into()).spawn(move || {
            let result = fetch_blocking(&url, &body, timeout);
            *out.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        });
        if let Err(e) = spawned {
            *slot.lock().unwrap_or_else(|e| e.into_inner()) =
                Some(Err(format!("cannot start a thread: {e}").into()));
        }
        fetch
    }

    #[cfg(target_family = "wasm")]
    fn start(url: String, body: Vec<u8>, _timeout: Duration) -> TokenFetch {
        let (fetch, slot) = TokenFetch::slot();
        wasm_bindgen_futures::spawn_local(async move {
            let result = fetch_web(&url, &body).await;
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        });
        fetch
    }
}

/// Native: asks again after a `503` (the server's HTTP connections are capped per address:
/// many clients behind one address may find it busy for a moment) or a connection the server
/// dropped mid-request (a reset or broken pipe, for the same reason), within `timeout`. A
/// refused connection (nobody there) is not asked again.
#[cfg(not(target_family = "wasm"))]
fn fetch_blocking(url: &str, body: &[u8], timeout: Duration) -> FetchResult {
    let deadline = Instant::now() + timeout;
    loop {
        match fetch_once(url, body, timeout) {
            Err((BUSY | DROPPED, failure)) => {
                let wait = Duration::from_millis(200 + u64::from(generate_jitter()));
                if Instant::now() + wait >= deadline {
                    return Err(failure);
                }
                std::thread::sleep(wait);
            }
            other => return other.map_err(|(_, failure)| failure),
        }
    }
}

/// A few hundred milliseconds of random delay, so that clients refused together do not come
/// back together.
#[cfg(not(target_family = "wasm"))]
fn generate_jitter() -> u16 {
    u16::from_le_bytes(renet2_netcode::generate_random_bytes::<2>()) % 400
}

/// The status of a busy server's refusal, asked again.
#[cfg(not(target_family = "wasm"))]
const BUSY: u16 = 503;

/// Not an HTTP status: the server dropped the connection mid-request; asked again.
#[cfg(not(target_family = "wasm"))]
const DROPPED: u16 = 1;

#[cfg(not(target_family = "wasm"))]
fn fetch_once(url: &str, body: &[u8], timeout: Duration) -> Result<Vec<u8>, (u16, TokenFailure)> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let mut response =
        agent.post(url).header("content-type", "application/octet-stream").send(body).map_err(|e| {
            let dropped = matches!(&e, ureq::Error::Io(io) if matches!(io.kind(),
                std::io::ErrorKind::BrokenPipe
                    | std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::ConnectionAborted
                    | std::io::ErrorKind::UnexpectedEof));
            (if dropped { DROPPED } else { 0 }, format!("cannot reach {url}: {e}").into())
        })?;
    let status = response.status().as_u16();
    let version = response.headers().get(VERSION_HEADER).and_then(|v| v.to_str().ok()?.parse().ok());
    let bytes = response
        .body_mut()
        .with_config()
        .limit(MAX_ANSWER_BYTES)
        .read_to_vec()
        .map_err(|e| (0, format!("{url}: {e}").into()))?;
    answer(status, bytes, url, version).map_err(|failure| (status, failure))
}

#[cfg(target_family = "wasm")]
async fn fetch_web(url: &str, body: &[u8]) -> FetchResult {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let fail = |e: wasm_bindgen::JsValue| TokenFailure::from(format!("cannot reach {url}: {e:?}"));
    let window = web_sys::window().ok_or_else(|| TokenFailure::from("no window".to_string()))?;
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    let bytes = js_sys::Uint8Array::from(body);
    init.set_body(&bytes.into());
    let response = JsFuture::from(window.fetch_with_str_and_init(url, &init)).await.map_err(fail)?;
    let response: web_sys::Response = response.dyn_into().map_err(fail)?;
    let status = response.status();
    let version = response.headers().get(VERSION_HEADER).ok().flatten().and_then(|v| v.parse().ok());
    let buffer = JsFuture::from(response.array_buffer().map_err(fail)?).await.map_err(fail)?;
    let body = js_sys::Uint8Array::new(&buffer).to_vec();
    if body.len() as u64 > MAX_ANSWER_BYTES {
        return Err(format!("{url}: answer too long").into());
    }
    answer(status, body, url, version)
}

/// A connect-token request in flight, made the way [`Client`] makes it (on a thread natively,
/// through the page's `fetch` in a browser). For clients that run the connection themselves,
/// such as the game with bevy_renet2: [`TokenRequest::start`], then [`TokenRequest::poll`] each
/// frame until it answers, then [`open_link`] with the token.
pub struct TokenRequest(TokenFetch);

impl TokenRequest {
    /// Asks the server named in `config` for a connect token, with the player's credential.
    pub fn start(config: &ClientConfig, credential: Option<SessionToken>) -> TokenRequest {
        let body = connect_request(config, credential);
        TokenRequest(TokenFetch::start(config.connect_url(), body, config.connect_timeout))
    }

    /// The answer, once it came (then `None` again): the token's bytes, or why not.
    pub fn poll(&mut self) -> Option<Result<Vec<u8>, TokenFailure>> {
        self.0.take()
    }
}

impl fmt::Debug for TokenRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenRequest")
    }
}

/// The first message of every connection: [`ClientMessage::Hello`] with the protocol version
/// and the wanted nickname (the server knows who this is from the connect token).
pub fn hello(config: &ClientConfig, nickname: Option<String>) -> ClientMessage {
    ClientMessage::Hello(Hello { version: config.protocol_version, token: None, nickname })
}

/// Opens renet2 and its netcode transport with a connect token the server minted (its bytes):
/// UDP or a WebSocket natively, a WebSocket in a browser, as `config` says. The caller updates
/// both (every frame, or every few milliseconds) and sends on [`CHANNEL`].
pub fn open_link(
    config: &ClientConfig,
    token: &[u8],
) -> Result<(RenetClient, NetcodeClientTransport), ClientError> {
    new_transport(config, token)
}

/// Opens netcode with a connect token the server minted (its bytes).
fn new_transport(
    config: &ClientConfig,
    token: &[u8],
) -> Result<(RenetClient, NetcodeClientTransport), ClientError> {
    let mut token = ConnectToken::read(&mut &token[..])
        .map_err(|e| ClientError(format!("the server sent an unreadable connect token: {e}")))?;
    // The addresses in the token's clear part only tell the client where to send; the server
    // checks its own copy inside the encrypted part. Send where this client was told to.
    token.server_addresses = [None; 32];
    token.server_addresses[0] = Some(config.server);
    let auth = ClientAuthentication::Secure { connect_token: token };
    open_transport(config, unix_now(), auth)
}

#[cfg(not(target_family = "wasm"))]
fn open_transport(
    config: &ClientConfig,
    now: Duration,
    auth: ClientAuthentication,
) -> Result<(RenetClient, NetcodeClientTransport), ClientError> {
    use renet2_netcode::NativeSocket;
    use std::net::UdpSocket;
    Ok(match config.transport {
        Transport::Udp => {
            let bind: SocketAddr = if config.server.is_ipv4() {
                SocketAddr::from(([0, 0, 0, 0], 0))
            } else {
                SocketAddr::from(([0u16; 8], 0))
            };
            let socket =
                UdpSocket::bind(bind).map_err(|e| ClientError(format!("cannot open a UDP socket: {e}")))?;
            let socket = NativeSocket::new(socket).map_err(|e| ClientError(format!("UDP socket: {e}")))?;
            let transport = NetcodeClientTransport::new(now, auth, socket)
                .map_err(|e| ClientError(format!("cannot start netcode: {e}")))?;
            (RenetClient::new(connection_config(), false), transport)
        }
        Transport::WebSocket => {
            let socket = WsClientSocket::new(config.server, config.connect_timeout);
            let transport = NetcodeClientTransport::new(now, auth, socket)
                .map_err(|e| ClientError(format!("cannot start netcode: {e}")))?;
            (RenetClient::new(connection_config(), true), transport)
        }
    })
}

#[cfg(target_family = "wasm")]
fn open_transport(
    config: &ClientConfig,
    now: Duration,
    auth: ClientAuthentication,
) -> Result<(RenetClient, NetcodeClientTransport), ClientError> {
    use renet2_netcode::{WebSocketClient, WebSocketClientConfig};
    if config.transport == Transport::Udp {
        return Err(ClientError("a browser cannot use UDP: connect over WebSocket".to_string()));
    }
    let url = config.url.clone().unwrap_or_else(|| format!("ws://{}", config.server));
    let server_url =
        url::Url::parse(&url).map_err(|e| ClientError(format!("not a WebSocket address: {url}: {e}")))?;
    let socket = WebSocketClient::new(WebSocketClientConfig { server_url })
        .map_err(|e| ClientError(format!("cannot open a WebSocket to {url}: {e}")))?;
    let transport = NetcodeClientTransport::new(now, auth, NetcodeInsideTls(socket))
        .map_err(|e| ClientError(format!("cannot start netcode: {e}")))?;
    Ok((RenetClient::new(connection_config(), true), transport))
}

/// renet2's browser WebSocket client with netcode's own encryption kept on, also over `wss://`
/// (renet2 turns it off there; the server always expects it: renetcode2 0.16.3's unencrypted
/// mode sends 8 bytes of a buffer shared by every client in each packet).
#[cfg(target_family = "wasm")]
#[derive(Debug)]
struct NetcodeInsideTls(renet2_netcode::WebSocketClient);

#[cfg(target_family = "wasm")]
impl renet2_netcode::ClientSocket for NetcodeInsideTls {
    fn is_encrypted(&self) -> bool {
        false
    }
    fn is_reliable(&self) -> bool {
        self.0.is_reliable()
    }
    fn addr(&self) -> std::io::Result<SocketAddr> {
        self.0.addr()
    }
    fn is_closed(&mut self) -> bool {
        self.0.is_closed()
    }
    fn close(&mut self) {
        self.0.close()
    }
    fn preupdate(&mut self) {
        self.0.preupdate()
    }
    fn try_recv(&mut self, buffer: &mut [u8]) -> std::io::Result<(usize, SocketAddr)> {
        self.0.try_recv(buffer)
    }
    fn postupdate(&mut self) {
        self.0.postupdate()
    }
    fn send(&mut self, addr: SocketAddr, packet: &[u8]) -> Result<(), NetcodeTransportError> {
        self.0.send(addr, packet)
    }
}

impl Client {
    /// Starts connecting; returns at once. [`ClientMessage::Hello`] is queued first.
    pub fn connect(config: ClientConfig) -> Result<Client, ClientError> {
        let now = Instant::now();
        let mut client = Client {
            token: config.token.clone(),
            nickname: config.nickname.clone(),
            config,
            link: None,
            fetch: None,
            queued: Vec::new(),
            last_update: now,
            last_flush: now,
            unflushed: false,
            state: ConnectionState::Connecting,
            decode_errors: 0,
            silent: false,
            renew: false,
            early: Vec::new(),
            redirect: None,
            fallback: None,
        };
        client.start();
        Ok(client)
    }

    /// Asks for a connect token and queues the `Hello`.
    fn start(&mut self) {
        self.fetch = Some(TokenRequest::start(&self.config, self.token.clone()));
        self.queued.clear();
        self.state = ConnectionState::Connecting;
        self.send(&hello(&self.config, self.nickname.clone()));
    }

    /// Drops the current connection (if any) and connects again with the session token received
    /// so far, to take back the same player and seats.
    pub fn reconnect(&mut self) -> Result<(), ClientError> {
        self.disconnect();
        self.link = None;
        let now = Instant::now();
        self.last_update = now;
        self.last_flush = now;
        self.start();
        Ok(())
    }

    /// Queues a message; the next [`Client::poll`] or [`Client::flush`] sends it.
    pub fn send(&mut self, message: &ClientMessage) {
        match encode(message) {
            Ok(bytes) => self.send_raw(bytes),
            // Only a bug could make a message unencodable; count it like a bad server message.
            Err(_) => self.decode_errors += 1,
        }
    }

    /// Queues raw bytes as one message (for tests of the server's defences).
    pub fn send_raw(&mut self, bytes: Vec<u8>) {
        match &mut self.link {
            None => {
                if !matches!(self.state, ConnectionState::Disconnected(_)) {
                    self.queued.push(bytes);
                }
            }
            Some((renet, _)) => {
                if renet.is_disconnected() {
                    return;
                }
                renet.send_message(CHANNEL, bytes);
                self.unflushed = true;
            }
        }
    }

    /// Sends queued messages now, if the connection is up.
    pub fn flush(&mut self) {
        let Some((renet, transport)) = &mut self.link else {
            return;
        };
        if transport.is_connected() {
            if let Err(e) = transport.send_packets(renet) {
                self.note_transport_error(&e);
            }
            self.last_flush = Instant::now();
            self.unflushed = false;
        }
    }

    fn note_transport_error(&mut self, e: &NetcodeTransportError) {
        let Some((renet, transport)) = &self.link else {
            return;
        };
        if (transport.is_disconnected() || renet.is_disconnected())
            && !matches!(self.state, ConnectionState::Disconnected(_))
        {
            self.state = ConnectionState::Disconnected(e.to_string());
        }
    }

    /// Takes the connect token once it came and opens the connection with it.
    fn poll_fetch(&mut self) {
        let Some(fetch) = &mut self.fetch else {
            return;
        };
        let Some(result) = fetch.poll() else {
            return;
        };
        self.fetch = None;
        let result =
            result.and_then(|token| new_transport(&self.config, &token).map_err(|ClientError(e)| e.into()));
        match result {
            Ok((mut renet, transport)) => {
                for bytes in self.queued.drain(..) {
                    renet.send_message(CHANNEL, bytes);
                }
                self.unflushed = true;
                self.link = Some((renet, transport));
                let now = Instant::now();
                self.last_update = now;
                self.last_flush = now;
            }
            Err(TokenFailure { reason, server_version, .. }) => {
                self.queued.clear();
                // Another protocol version: as if the server had said it over netcode.
                if let Some(server_version) = server_version {
                    self.early.push(ServerMessage::Incompatible { server_version, message: reason.clone() });
                }
                self.state = ConnectionState::Disconnected(reason);
            }
        }
    }

    /// Advances the connection: receives packets, returns the server's messages in order, and
    /// sends what is queued. Call it every frame or every few milliseconds.
    pub fn poll(&mut self) -> Vec<ServerMessage> {
        self.poll_fetch();
        let now = Instant::now();
        let dt = now.saturating_duration_since(self.last_update);
        self.last_update = now;
        let mut messages = std::mem::take(&mut self.early);
        let Some((renet, transport)) = &mut self.link else {
            // Not connected (yet): a redirect that failed may go back to the node that sent it.
            self.follow_redirects(now);
            return messages;
        };
        renet.update(dt);
        let update = transport.update(dt, renet);
        let mut received = Vec::new();
        while let Some(bytes) = renet.receive_message(CHANNEL) {
            received.push(bytes);
        }
        if let Err(e) = update {
            self.note_transport_error(&e);
        }
        for bytes in received {
            match decode_server(&bytes) {
                Ok(message) => {
                    self.observe(&message);
                    messages.push(message);
                }
                Err(_) => self.decode_errors += 1,
            }
        }
        let Some((_, transport)) = &self.link else {
            self.follow_redirects(now);
            return messages;
        };
        if transport.is_connected() {
            if self.state == ConnectionState::Connecting {
                self.state = ConnectionState::Connected;
            }
            if self.unflushed || now.duration_since(self.last_flush) >= IDLE_FLUSH_INTERVAL {
                self.flush();
            }
        } else if transport.is_disconnected() && !matches!(self.state, ConnectionState::Disconnected(_)) {
            let reason = transport
                .disconnect_reason()
                .map(|r| r.to_string())
                .unwrap_or_else(|| "disconnected".to_string());
            self.state = ConnectionState::Disconnected(reason);
        }
        if std::mem::take(&mut self.renew) {
            // An unknown or expired credential: start over as a new player.
            self.token = None;
            let _ = self.reconnect();
        }
        self.follow_redirects(now);
        messages
    }

    /// Follows a [`ServerMessage::Redirect`] received in this poll; goes back to the node that
    /// sent it (after [`REDIRECT_RETRY`]) if the other node cannot be reached before welcoming.
    fn follow_redirects(&mut self, now: Instant) {
        if let Some(r) = self.redirect.take() {
            // No address for this transport (or none that resolves), or a downgrade from
            // https: stay where we are.
            let Some(next) = self.config.redirected(&r) else {
                return;
            };
            let home = match self.fallback.take() {
                Some(f) => f.home,
                None => self.config.clone(),
            };
            self.config = next;
            self.fallback = Some(Fallback { home, then: r.then.clone(), retry_at: None, since: now });
            let _ = self.reconnect();
            if let Some(then) = &r.then {
                self.send(then);
            }
            return;
        }
        let Some(f) = &mut self.fallback else {
            return;
        };
        if !matches!(self.state, ConnectionState::Disconnected(_)) {
            if now.saturating_duration_since(f.since) < REDIRECT_WELCOME_TIMEOUT {
                return;
            }
            // Not welcomed there in time: back to the node that sent us, now.
            f.retry_at = Some(now);
            self.disconnect();
        }
        let Some(f) = &mut self.fallback else {
            return;
        };
        match f.retry_at {
            None => f.retry_at = Some(now + REDIRECT_RETRY),
            Some(at) if now >= at => {
                let Some(f) = self.fallback.take() else {
                    return;
                };
                self.config = f.home;
                let _ = self.reconnect();
                if let Some(then) = &f.then {
                    self.send(then);
                }
            }
            Some(_) => {}
        }
    }

    /// Whether the client follows a redirect and is not welcomed there yet (it may be
    /// disconnected meanwhile, waiting to go back to the node that sent it).
    pub fn is_redirecting(&self) -> bool {
        self.fallback.is_some()
    }

    /// The node the client is connected to or connecting to now (a redirect changes it).
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    fn observe(&mut self, message: &ServerMessage) {
        match message {
            ServerMessage::Welcome { player, nickname, token, .. } => {
                self.fallback = None;
                self.token = Some(token.clone());
                self.nickname = Some(nickname.clone());
                self.state = ConnectionState::SignedIn(*player);
            }
            ServerMessage::NicknameSet { nickname } => self.nickname = Some(nickname.clone()),
            ServerMessage::Incompatible { message, .. } => {
                self.state = ConnectionState::Disconnected(message.clone());
            }
            ServerMessage::Error { code: ErrorCode::SessionExpired, .. } => self.renew = true,
            ServerMessage::Redirect(r) => self.redirect = Some(r.clone()),
            _ => {}
        }
    }

    /// Where the connection stands.
    pub fn state(&self) -> &ConnectionState {
        &self.state
    }

    /// Whether the server has welcomed this client.
    pub fn is_signed_in(&self) -> bool {
        matches!(self.state, ConnectionState::SignedIn(_))
    }

    /// Whether the connection is gone (see [`Client::state`] for why).
    pub fn is_disconnected(&self) -> bool {
        matches!(self.state, ConnectionState::Disconnected(_))
    }

    /// The player this client is signed in as.
    pub fn player(&self) -> Option<PlayerId> {
        match self.state {
            ConnectionState::SignedIn(p) => Some(p),
            _ => None,
        }
    }

    /// The session token (from the config, then from [`ServerMessage::Welcome`]).
    pub fn token(&self) -> Option<&SessionToken> {
        self.token.as_ref()
    }

    /// The nickname the server confirmed (or the one asked for, before that).
    pub fn nickname(&self) -> Option<&str> {
        self.nickname.as_deref()
    }

    /// Round-trip time estimated by renet2.
    pub fn rtt(&self) -> Duration {
        let rtt = self.link.as_ref().map(|(renet, _)| renet.rtt()).unwrap_or(0.0);
        Duration::from_secs_f64(rtt.max(0.0))
    }

    /// Server messages that could not be decoded so far (should stay 0).
    pub fn decode_errors(&self) -> u64 {
        self.decode_errors
    }

    /// The server address.
    pub fn server(&self) -> SocketAddr {
        self.config.server
    }

    /// Closes the connection at once (the server sees it immediately and holds any seat).
    pub fn disconnect(&mut self) {
        self.fetch = None;
        self.queued.clear();
        if let Some((renet, transport)) = &mut self.link {
            if !transport.is_disconnected() {
                transport.disconnect();
            }
            renet.disconnect();
        }
        if !matches!(self.state, ConnectionState::Disconnected(_)) {
            self.state = ConnectionState::Disconnected("disconnected by the client".to_string());
        }
    }
}

impl Client {
    /// Drops the client without telling the server, as a crash or a lost network would: the
    /// server notices only after the timeout.
    pub fn vanish(mut self) {
        self.silent = true;
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if !self.silent {
            self.disconnect();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redirect(udp: Option<&str>, ws: Option<&str>, http: Option<&str>) -> Redirect {
        Redirect {
            node: "b".into(),
            udp: udp.map(str::to_string),
            ws: ws.map(str::to_string),
            http: http.map(str::to_string),
            then: None,
        }
    }

    /// A redirect moves the address and the token endpoint, keeps the rest, needs an address
    /// for the transport, and never goes from https to plain http.
    #[test]
    fn a_redirect_keeps_the_player_and_never_drops_https() {
        let home = ClientConfig::new("127.0.0.1:5000".parse().unwrap(), Transport::Udp).nickname("Ann");
        let r = redirect(Some("127.0.0.2:6000"), None, Some("http://127.0.0.2:6000"));
        let next = home.redirected(&r).expect("followed");
        assert_eq!(next.server, "127.0.0.2:6000".parse().unwrap());
        assert_eq!(next.api.as_deref(), Some("http://127.0.0.2:6000"));
        assert_eq!(next.nickname.as_deref(), Some("Ann"));
        assert!(
            home.redirected(&redirect(None, Some("ws://127.0.0.2:6001"), None)).is_none(),
            "no UDP address"
        );
        let mut secure = home.clone();
        secure.api = Some("https://127.0.0.1:5000".into());
        assert!(secure.redirected(&r).is_none(), "https to http is refused");
        assert!(secure.redirected(&redirect(Some("127.0.0.2:6000"), None, None)).is_none());
        let https = redirect(Some("127.0.0.2:6000"), None, Some("https://127.0.0.2:6000"));
        assert_eq!(secure.redirected(&https).and_then(|c| c.api), Some("https://127.0.0.2:6000".into()));
        let web = ClientConfig::web("wss://127.0.0.1:5001");
        let ws = redirect(None, Some("ws://127.0.0.2:6001"), Some("http://127.0.0.2:6000"));
        assert!(web.redirected(&ws).is_none(), "wss to ws is refused");
        let plain = ClientConfig::web("ws://127.0.0.1:5001");
        assert_eq!(plain.redirected(&ws).and_then(|c| c.url), Some("ws://127.0.0.2:6001".into()));
    }
}
