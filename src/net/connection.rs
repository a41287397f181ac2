//! The connection to a server: connecting (with the stored token), the server's messages read
//! every frame and passed on as [`FromServer`], reconnection after a drop, the lobby's state, and
//! what the online screen remembers between runs (`online.json`).

use crate::app::Screen;
use crate::game::Notices;
use crate::game::settings::Settings;
use crate::i18n::Lang;
use crate::net::address::client_config;
use crate::platform::storage::Document;
use bevy::prelude::*;
use bevy::winit::{UpdateMode, WinitSettings};
use ludus_protocol::client::{Client, ConnectionState};
use ludus_protocol::{ClientMessage, ErrorCode, LobbyView, ServerMessage, SessionToken};
use ludus_rules::Variant;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

/// How often the lobby is asked for again while it is on screen, in seconds.
const LOBBY_REFRESH_S: f64 = 3.0;

/// The longest wait between two reconnection attempts, in seconds.
const MAX_RETRY_S: f64 = 8.0;

/// What the online screen remembers between runs.
#[derive(Resource, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OnlineConfig {
    /// The server address as last typed (empty: the default).
    pub server: String,
    /// The nickname asked for.
    pub nickname: String,
    /// Session tokens by server address: they give back one's name and seats.
    pub tokens: BTreeMap<String, String>,
    /// The game chosen for quick match and new rooms.
    pub variant: Option<Variant>,
    /// Play with clocks (5 minutes plus 3 seconds a move).
    pub clock: bool,
}

/// The online configuration's document.
const DOCUMENT: Document = Document { name: "online.json", corrupt_key: "net.config_corrupt" };

impl OnlineConfig {
    /// Reads the stored configuration; an unreadable one is set aside and reported.
    pub fn load(lang: Lang) -> (OnlineConfig, Option<String>) {
        let (config, notice) = DOCUMENT.load_json(lang);
        (config.unwrap_or_default(), notice)
    }

    fn save(&self) {
        if let Err(e) = DOCUMENT.save_json(self) {
            warn!("{} could not be written: {e}", DOCUMENT.name);
        }
    }
}

/// Where the connection stands, as the player sees it.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum LinkState {
    /// No connection.
    #[default]
    Offline,
    /// Connecting for the first time.
    Connecting,
    /// Connected and signed in.
    SignedIn,
    /// The connection dropped; trying again (attempt number).
    Reconnecting(u32),
    /// Could not connect, or the server refused this version.
    Failed(LinkFailure),
}

/// Why there is no connection.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkFailure {
    /// The address makes no sense or cannot be resolved.
    BadAddress(crate::net::address::AddressError),
    /// Nobody answered (or the connection could not be set up).
    Unreachable(String),
    /// The server speaks another protocol version.
    Incompatible(String),
}

/// What the player waits for in the lobby.
#[derive(Clone, Debug, PartialEq)]
pub enum Waiting {
    /// An opponent for this room.
    Room {
        /// The code to give a friend.
        code: String,
        /// Which game.
        variant: Variant,
        /// Listed in the lobby.
        public: bool,
    },
    /// A quick match.
    Queue {
        /// Which game.
        variant: Variant,
    },
}

/// The connection to a server and the lobby's state.
#[derive(Resource, Default)]
pub struct Net {
    client: Option<Client>,
    /// The server address in use (as typed).
    pub server: String,
    /// Where the connection stands.
    pub phase: LinkState,
    /// The nickname the server confirmed.
    pub nickname: Option<String>,
    /// The last lobby received.
    pub lobby: Option<LobbyView>,
    /// A room or queue the player waits in.
    pub waiting: Option<Waiting>,
    /// The last refusal from the server, to show once.
    pub notice: Option<(ErrorCode, String)>,
    pub(crate) lobby_asked: Option<f64>,
    retry_at: Option<f64>,
    signed_in_once: bool,
}

impl Net {
    /// Whether a connection to a server is open (or being opened or restored).
    pub fn has_connection(&self) -> bool {
        self.client.is_some()
    }

    /// Queues a message for the server (dropped when there is no connection).
    pub fn send(&mut self, message: ClientMessage) {
        if let Some(client) = &mut self.client {
            client.send(&message);
        }
    }

    /// Whether a connection exists or is being made.
    pub fn is_active(&self) -> bool {
        self.client.is_some()
    }

    /// Connects to `server` (as typed), with the stored token for it.
    pub fn connect(&mut self, server: &str, config: &OnlineConfig) {
        self.disconnect();
        let server = server.trim().to_string();
        self.server = server.clone();
        let token = config.tokens.get(&server.to_lowercase()).cloned().map(SessionToken);
        let nickname = Some(config.nickname.trim().to_string()).filter(|n| !n.is_empty());
        match client_config(&server) {
            Err(e) => self.phase = LinkState::Failed(LinkFailure::BadAddress(e)),
            Ok(mut cfg) => {
                cfg.token = token;
                cfg.nickname = nickname;
                match Client::connect(cfg) {
                    Ok(client) => {
                        self.client = Some(client);
                        self.phase = LinkState::Connecting;
                    }
                    Err(e) => self.phase = LinkState::Failed(LinkFailure::Unreachable(e.to_string())),
                }
            }
        }
    }

    /// Drops the connection and opens a new one with the same token: the server then sends
    /// everything again (the game on the board included).
    pub fn reconnect(&mut self) {
        if let Some(client) = &mut self.client
            && let Err(e) = client.reconnect()
        {
            warn!("reconnection failed: {e}");
        }
    }

    /// Closes the connection (a seat in a live game is held by the server for a while).
    pub fn disconnect(&mut self) {
        if let Some(mut client) = self.client.take() {
            client.flush();
            client.disconnect();
        }
        *self = Net { server: std::mem::take(&mut self.server), ..Net::default() };
    }
}

/// A message from the server, for the systems that follow it (the game on the board: see
/// [`crate::net::sync`]).
#[derive(Message, Clone, Debug)]
pub struct FromServer(pub ServerMessage);

/// Reads the server's messages (what concerns the connection and the lobby is kept here, and
/// every message goes on as a [`FromServer`]), keeps the connection alive, reconnecting after a
/// drop, and asks for the lobby while it is on screen.
pub fn receive(
    mut net: ResMut<Net>,
    mut config: ResMut<OnlineConfig>,
    time: Res<Time<Real>>,
    screen: Option<Res<State<Screen>>>,
    mut out: MessageWriter<FromServer>,
) {
    let screen = screen.map(|s| *s.get());
    let now = time.elapsed_secs_f64();
    let net = &mut *net;
    if let Some(at) = net.retry_at
        && now >= at
    {
        net.retry_at = None;
        net.reconnect();
    }
    let Some(client) = &mut net.client else { return };
    let messages = client.poll();
    let state = client.state().clone();
    let nickname = client.nickname().map(str::to_string);
    for message in messages {
        match &message {
            ServerMessage::Incompatible { message, .. } => {
                net.phase = LinkState::Failed(LinkFailure::Incompatible(message.clone()));
            }
            ServerMessage::Welcome { nickname, token, .. } => {
                net.phase = LinkState::SignedIn;
                net.signed_in_once = true;
                net.nickname = Some(nickname.clone());
                net.lobby_asked = None;
                let key = net.server.to_lowercase();
                if config.tokens.get(&key) != Some(&token.0) {
                    config.tokens.insert(key, token.0.clone());
                }
            }
            ServerMessage::NicknameSet { nickname } => net.nickname = Some(nickname.clone()),
            ServerMessage::Error { code, message } => {
                info!("server refused: {code:?}: {message}");
                net.notice = Some((*code, message.clone()));
            }
            ServerMessage::Lobby(lobby) => net.lobby = Some(lobby.clone()),
            ServerMessage::RoomOpened { code, variant, public, .. } => {
                net.waiting = Some(Waiting::Room { code: code.clone(), variant: *variant, public: *public });
            }
            ServerMessage::Queued { variant, .. } => net.waiting = Some(Waiting::Queue { variant: *variant }),
            ServerMessage::Left | ServerMessage::Game(_) => net.waiting = None,
            _ => {}
        }
        out.write(FromServer(message));
    }
    // The connection itself.
    let Some(client) = &mut net.client else { return };
    match state {
        ConnectionState::Disconnected(reason) => {
            if matches!(net.phase, LinkState::Failed(LinkFailure::Incompatible(_))) {
                net.client = None;
            } else if net.signed_in_once {
                if net.retry_at.is_none() {
                    let attempt = match net.phase {
                        LinkState::Reconnecting(n) => n + 1,
                        _ => 1,
                    };
                    info!("connection lost ({reason}); attempt {attempt} soon");
                    net.phase = LinkState::Reconnecting(attempt);
                    let wait = (0.5 * 2f64.powi(attempt.min(5) as i32)).min(MAX_RETRY_S);
                    net.retry_at = Some(now + wait);
                }
            } else {
                net.phase = LinkState::Failed(LinkFailure::Unreachable(reason));
                net.client = None;
            }
        }
        ConnectionState::SignedIn(_) => {
            if let Some(nickname) = nickname {
                net.nickname = Some(nickname);
            }
            if config.nickname.is_empty()
                && let Some(n) = &net.nickname
            {
                config.nickname = n.clone();
            }
            let in_lobby = screen == Some(Screen::Online);
            if in_lobby && net.lobby_asked.is_none_or(|t| now - t >= LOBBY_REFRESH_S) {
                net.lobby_asked = Some(now);
                client.send(&ClientMessage::Lobby);
            }
        }
        ConnectionState::Connecting | ConnectionState::Connected => {}
    }
}

/// Keeps frames coming while connected (messages must be read even when nobody touches the
/// window), and lets the game rest again once offline.
fn wake_while_connected(
    net: Res<Net>,
    mut winit: Option<ResMut<WinitSettings>>,
    mut saved: Local<Option<WinitSettings>>,
) {
    let Some(winit) = winit.as_deref_mut() else { return };
    if net.is_active() {
        if saved.is_none() {
            *saved = Some(winit.clone());
            let tick = UpdateMode::reactive(Duration::from_millis(50));
            winit.focused_mode = tick;
            winit.unfocused_mode = tick;
        }
    } else if let Some(old) = saved.take() {
        *winit = old;
    }
}

fn save_config(config: Res<OnlineConfig>) {
    if config.is_changed() && !config.is_added() {
        config.save();
    }
}

/// The connection: its state, the server's messages, reconnection, the stored configuration.
pub fn plugin(app: &mut App) {
    let lang = app.world().get_resource::<Settings>().map_or(Lang::default(), |s| s.lang);
    let (config, notice) = OnlineConfig::load(lang);
    app.init_resource::<Notices>();
    app.world_mut().resource_mut::<Notices>().0.extend(notice);
    app.init_resource::<Net>()
        .insert_resource(config)
        .add_message::<FromServer>()
        .add_systems(Update, receive.in_set(crate::app::AppSet::Input))
        .add_systems(Last, (save_config, wake_while_connected));
}
