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
//! Signing in, redirects and what a drop means are decided by [`Session`] (`session.rs`), the
//! state machine the game drives too; this client carries out its actions with its own link.
//! The rest is in parts: `config.rs` (how to reach a server), `token.rs` (the connect token),
//! `link.rs` (renet2 and netcode).
//!
//! Messages sent before the connection is up wait in the reliable channel and go out once it is.
//! Nothing here blocks, except [`Transport::WebSocket`]'s TCP connect and handshake during the
//! first `poll` after the token came (bounded by [`ClientConfig::connect_timeout`]).

mod config;
mod link;
mod session;
mod token;
mod values;

pub use config::{ClientConfig, Transport, UDP_SOCKET_ID, WS_SOCKET_ID};
pub use link::{hello, open_link};
pub use session::{
    Action, Failure, MAX_RETRY, Phase, REDIRECT_RETRY, REDIRECT_WELCOME_TIMEOUT, Retry, Session,
};
pub use token::{TokenFailure, TokenRequest};
pub use values::{ValueRequest, value_url};

use crate::{
    CHANNEL, ClientMessage, IDLE_FLUSH_INTERVAL, PlayerId, ServerMessage, SessionToken, decode_server, encode,
};
use renet2::RenetClient;
use renet2_netcode::{NetcodeClientTransport, NetcodeTransportError};
use std::fmt;
use std::net::SocketAddr;
use std::time::Duration;
// `std::time::Instant` panics in a browser; web-time is std's on native targets.
use web_time::Instant;

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
    /// What to do about sign-ins, redirects and drops.
    session: Session,
    /// The session's clock starts here.
    origin: Instant,
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
    decode_errors: u64,
    silent: bool,
    /// Messages made by the client itself (the token endpoint's refusal of our version).
    early: Vec<ServerMessage>,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("server", &self.session.config().server)
            .field("state", &self.state)
            .finish()
    }
}

impl Client {
    /// Starts connecting; returns at once. [`ClientMessage::Hello`] is queued first.
    pub fn connect(config: ClientConfig) -> Result<Client, ClientError> {
        let now = Instant::now();
        let mut client = Client {
            session: Session::new(config, Retry::Never),
            origin: now,
            link: None,
            fetch: None,
            queued: Vec::new(),
            last_update: now,
            last_flush: now,
            unflushed: false,
            state: ConnectionState::Connecting,
            decode_errors: 0,
            silent: false,
            early: Vec::new(),
        };
        let actions = client.session.start();
        client.carry_out(actions);
        Ok(client)
    }

    /// The session's time.
    fn clock(&self) -> Duration {
        Instant::now().saturating_duration_since(self.origin)
    }

    /// Does what the session asks of the link.
    fn carry_out(&mut self, actions: Vec<Action>) {
        for action in actions {
            match action {
                Action::Open { config, credential, send } => {
                    self.close_link();
                    self.fetch = Some(TokenRequest::start(&config, credential));
                    let now = Instant::now();
                    self.last_update = now;
                    self.last_flush = now;
                    self.state = ConnectionState::Connecting;
                    for message in &send {
                        self.send(message);
                    }
                }
                Action::Close => {
                    self.close_link();
                    if !matches!(self.state, ConnectionState::Disconnected(_)) {
                        self.state = ConnectionState::Disconnected("disconnected by the client".to_string());
                    }
                }
                // This client never retries by itself ([`Retry::Never`]).
                Action::RetryIn { .. } => {}
                Action::GiveUp(failure) => {
                    self.state = ConnectionState::Disconnected(failure.reason().to_string())
                }
            }
        }
    }

    /// Closes the link there is (the server sees it at once) and forgets what waited for it.
    fn close_link(&mut self) {
        self.fetch = None;
        self.queued.clear();
        if let Some((mut renet, mut transport)) = self.link.take() {
            if !transport.is_disconnected() {
                transport.disconnect();
            }
            renet.disconnect();
        }
    }

    /// The link dropped: the session decides what follows (a redirect being followed goes back
    /// to the node that sent it).
    fn lost(&mut self, reason: String) {
        if matches!(self.state, ConnectionState::Disconnected(_)) {
            return;
        }
        self.state = ConnectionState::Disconnected(reason.clone());
        let actions = self.session.link_lost(reason, self.clock());
        self.carry_out(actions);
    }

    /// Drops the current connection (if any) and connects again to the same node with the
    /// session token received so far, to take back the same player and seats.
    pub fn reconnect(&mut self) -> Result<(), ClientError> {
        let actions = self.session.reconnect();
        self.carry_out(actions);
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
        if transport.is_disconnected() || renet.is_disconnected() {
            self.lost(e.to_string());
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
        let config = self.session.config();
        let result = result.and_then(|token| open_link(config, &token).map_err(|ClientError(e)| e.into()));
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
            Err(failure) => {
                self.queued.clear();
                // Another protocol version: as if the server had said it over netcode.
                if let Some(server_version) = failure.server_version {
                    let message = failure.reason.clone();
                    self.early.push(ServerMessage::Incompatible { server_version, message });
                }
                self.state = ConnectionState::Disconnected(failure.reason.clone());
                let actions = self.session.token_refused(failure, self.clock());
                self.carry_out(actions);
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
        if let Some((renet, transport)) = &mut self.link {
            renet.update(dt);
            let update = transport.update(dt, renet);
            let mut received = Vec::new();
            while let Some(bytes) = renet.receive_message(CHANNEL) {
                received.push(bytes);
            }
            if let Err(e) = update {
                self.note_transport_error(&e);
            }
            let mut actions = Vec::new();
            for bytes in received {
                match decode_server(&bytes) {
                    Ok(message) => {
                        self.observe(&message);
                        actions.extend(self.session.message(&message, self.clock()));
                        messages.push(message);
                    }
                    Err(_) => self.decode_errors += 1,
                }
            }
            // A redirect or a new start replaces the link before it is looked at again.
            self.carry_out(actions);
        }
        if let Some((_, transport)) = &self.link {
            if transport.is_connected() {
                if self.state == ConnectionState::Connecting {
                    self.state = ConnectionState::Connected;
                }
                if self.unflushed || now.duration_since(self.last_flush) >= IDLE_FLUSH_INTERVAL {
                    self.flush();
                }
            } else if transport.is_disconnected() {
                let reason = transport
                    .disconnect_reason()
                    .map(|r| r.to_string())
                    .unwrap_or_else(|| "disconnected".to_string());
                self.lost(reason);
            }
        }
        let actions = self.session.tick(self.clock());
        self.carry_out(actions);
        messages
    }

    /// Whether the client follows a redirect and is not welcomed there yet (it may be
    /// disconnected meanwhile, waiting to go back to the node that sent it).
    pub fn is_redirecting(&self) -> bool {
        self.session.is_redirecting()
    }

    /// The node the client is connected to or connecting to now (a redirect changes it).
    pub fn config(&self) -> &ClientConfig {
        self.session.config()
    }

    fn observe(&mut self, message: &ServerMessage) {
        match message {
            ServerMessage::Welcome { player, .. } => self.state = ConnectionState::SignedIn(*player),
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
        self.session.credential()
    }

    /// The nickname the server confirmed (or the one asked for, before that).
    pub fn nickname(&self) -> Option<&str> {
        self.session.nickname()
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
        self.session.config().server
    }

    /// Closes the connection at once (the server sees it immediately and holds any seat).
    pub fn disconnect(&mut self) {
        let actions = self.session.close();
        self.carry_out(actions);
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
