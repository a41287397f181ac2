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
//!   [`Client::poll`] calls, which the owner makes every frame (or every few milliseconds).
//!   [`ClientMessage::Hello`] is sent first automatically, with the configured token and nickname.
//! - [`Client::send`] queues a message; the next `poll` (or [`Client::flush`]) sends it.
//! - [`Client::poll`] returns the server's messages in order. The client also keeps the session
//!   token from [`ServerMessage::Welcome`] ([`Client::token`]): store it, and pass it in
//!   [`ClientConfig::token`] (or call [`Client::reconnect`]) to take back the same seats.
//! - [`Client::state`] tells whether it is connecting, connected, signed in or disconnected (with
//!   the reason, e.g. the server's "your game is older than the server: please update").
//!
//! Messages sent before the connection is up wait in the reliable channel and go out once it is.
//! Nothing here blocks, except [`Transport::WebSocket`]'s TCP connect and handshake during the
//! first `poll` (bounded by [`ClientConfig::connect_timeout`]).

#[cfg(not(target_family = "wasm"))]
use crate::ws::WsClientSocket;
use crate::{
    CHANNEL, ClientMessage, Hello, IDLE_FLUSH_INTERVAL, NETCODE_PROTOCOL_ID, PROTOCOL_VERSION, PlayerId,
    ServerMessage, SessionToken, connection_config, decode_server, encode,
};
use renet2::RenetClient;
use renet2_netcode::{
    ClientAuthentication, ConnectToken, NetcodeClientTransport, NetcodeTransportError, generate_random_bytes,
};
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
        }
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
    renet: RenetClient,
    transport: NetcodeClientTransport,
    last_update: Instant,
    last_flush: Instant,
    unflushed: bool,
    state: ConnectionState,
    token: Option<SessionToken>,
    nickname: Option<String>,
    decode_errors: u64,
    silent: bool,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client").field("server", &self.config.server).field("state", &self.state).finish()
    }
}

fn unix_now() -> Duration {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default()
}

fn new_transport(config: &ClientConfig) -> Result<(RenetClient, NetcodeClientTransport), ClientError> {
    let now = unix_now();
    let client_id = u64::from_le_bytes(generate_random_bytes::<8>());
    let timeout = i32::try_from(config.timeout.as_secs().max(1)).unwrap_or(i32::MAX);
    let socket_id = match config.transport {
        Transport::Udp => UDP_SOCKET_ID,
        Transport::WebSocket => WS_SOCKET_ID,
    };
    // The server runs netcode without a private key (identity is the session token, checked by
    // the application), so the client makes its own connect token with the all-zero key; that
    // lets it choose the timeout.
    let token = ConnectToken::generate(
        now,
        NETCODE_PROTOCOL_ID,
        300,
        client_id,
        timeout,
        socket_id,
        vec![config.server],
        None,
        &[0; renet2_netcode::NETCODE_KEY_BYTES],
    )
    .map_err(|e| ClientError(format!("cannot make a connect token: {e}")))?;
    let auth = ClientAuthentication::Secure { connect_token: token };
    let (renet, transport) = open_transport(config, now, auth)?;
    Ok((renet, transport))
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
        let (renet, transport) = new_transport(&config)?;
        let now = Instant::now();
        let mut client = Client {
            token: config.token.clone(),
            nickname: config.nickname.clone(),
            config,
            renet,
            transport,
            last_update: now,
            last_flush: now,
            unflushed: false,
            state: ConnectionState::Connecting,
            decode_errors: 0,
            silent: false,
        };
        client.send_hello();
        Ok(client)
    }

    fn send_hello(&mut self) {
        let hello = ClientMessage::Hello(Hello {
            version: self.config.protocol_version,
            token: self.token.clone(),
            nickname: self.nickname.clone(),
        });
        self.send(&hello);
    }

    /// Drops the current connection (if any) and connects again with the session token received
    /// so far, to take back the same player and seats.
    pub fn reconnect(&mut self) -> Result<(), ClientError> {
        self.disconnect();
        let (renet, transport) = new_transport(&self.config)?;
        self.renet = renet;
        self.transport = transport;
        let now = Instant::now();
        self.last_update = now;
        self.last_flush = now;
        self.state = ConnectionState::Connecting;
        self.send_hello();
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
        if self.renet.is_disconnected() {
            return;
        }
        self.renet.send_message(CHANNEL, bytes);
        self.unflushed = true;
    }

    /// Sends queued messages now, if the connection is up.
    pub fn flush(&mut self) {
        if self.transport.is_connected() {
            if let Err(e) = self.transport.send_packets(&mut self.renet) {
                self.note_transport_error(&e);
            }
            self.last_flush = Instant::now();
            self.unflushed = false;
        }
    }

    fn note_transport_error(&mut self, e: &NetcodeTransportError) {
        if (self.transport.is_disconnected() || self.renet.is_disconnected())
            && !matches!(self.state, ConnectionState::Disconnected(_))
        {
            self.state = ConnectionState::Disconnected(e.to_string());
        }
    }

    /// Advances the connection: receives packets, returns the server's messages in order, and
    /// sends what is queued. Call it every frame or every few milliseconds.
    pub fn poll(&mut self) -> Vec<ServerMessage> {
        let now = Instant::now();
        let dt = now.saturating_duration_since(self.last_update);
        self.last_update = now;
        self.renet.update(dt);
        if let Err(e) = self.transport.update(dt, &mut self.renet) {
            self.note_transport_error(&e);
        }
        let mut messages = Vec::new();
        while let Some(bytes) = self.renet.receive_message(CHANNEL) {
            match decode_server(&bytes) {
                Ok(message) => {
                    self.observe(&message);
                    messages.push(message);
                }
                Err(_) => self.decode_errors += 1,
            }
        }
        if self.transport.is_connected() {
            if self.state == ConnectionState::Connecting {
                self.state = ConnectionState::Connected;
            }
            if self.unflushed || now.duration_since(self.last_flush) >= IDLE_FLUSH_INTERVAL {
                self.flush();
            }
        } else if self.transport.is_disconnected() && !matches!(self.state, ConnectionState::Disconnected(_))
        {
            let reason = self
                .transport
                .disconnect_reason()
                .map(|r| r.to_string())
                .unwrap_or_else(|| "disconnected".to_string());
            self.state = ConnectionState::Disconnected(reason);
        }
        messages
    }

    fn observe(&mut self, message: &ServerMessage) {
        match message {
            ServerMessage::Welcome { player, nickname, token, .. } => {
                self.token = Some(token.clone());
                self.nickname = Some(nickname.clone());
                self.state = ConnectionState::SignedIn(*player);
            }
            ServerMessage::NicknameSet { nickname } => self.nickname = Some(nickname.clone()),
            ServerMessage::Incompatible { message, .. } => {
                self.state = ConnectionState::Disconnected(message.clone());
            }
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
        Duration::from_secs_f64(self.renet.rtt().max(0.0))
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
        if !self.transport.is_disconnected() {
            self.transport.disconnect();
        }
        self.renet.disconnect();
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
