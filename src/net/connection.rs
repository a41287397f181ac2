//! The link to a server: the connect token, then renet2 and netcode as bevy_renet2's
//! resources (its client plugins update and flush them), the server's messages read every frame
//! and passed on as [`FromServer`], the messages for it taken as [`ToServer`], reconnection after
//! a drop, and what the online screen remembers between runs (`online.json`).

use crate::game::Notices;
use crate::game::settings::Settings;
use crate::i18n::Lang;
use crate::net::address::client_config;
use crate::platform::storage::Document;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::winit::{UpdateMode, WinitSettings};
use bevy_renet2::netcode::{NetcodeClientPlugin, NetcodeClientTransport};
use bevy_renet2::prelude::{RenetClient, RenetClientPlugin, RenetSend};
use ludus_protocol::client::Session as LinkSession;
use ludus_protocol::client::{Action, Failure, Phase, Retry, TokenFailure, TokenRequest, open_link};
use ludus_protocol::{
    CHANNEL, ClientMessage, ClockSpec, PlayerId, ServerMessage, SessionToken, decode_server, encode,
};
use ludus_rules::Variant;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

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
    /// The time control chosen for quick match and new rooms (none: untimed).
    pub time_control: Option<ClockSpec>,
    /// Rated play chosen (with a claimed nickname).
    pub rated: bool,
    /// Files written before the choice of time controls said only whether to play with clocks
    /// (then 5+3): read, never written.
    #[serde(rename = "clock", skip_serializing)]
    pub legacy_clock: bool,
}

/// The online configuration's document.
const DOCUMENT: Document = Document { name: "online.json", corrupt: crate::i18n::id!("net-config-corrupt") };

impl OnlineConfig {
    /// Reads the stored configuration; an unreadable one is set aside and reported.
    pub fn load(lang: Lang) -> (OnlineConfig, Option<String>) {
        let (config, notice) = DOCUMENT.load_json(lang);
        let mut config: OnlineConfig = config.unwrap_or_default();
        if std::mem::take(&mut config.legacy_clock) && config.time_control.is_none() {
            config.time_control = Some(ClockSpec::BLITZ);
        }
        (config, notice)
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
    /// Nobody answered (or the connection could not be set up): the system's reason, in English,
    /// for the log (the player reads what to check, in their language).
    Unreachable(String),
    /// The server's token endpoint answered with this HTTP status instead of a token: 429 (too
    /// many connections or new players from this address), 503 (busy), or another refusal. The
    /// server's own words go to the log only.
    Refused(u16),
    /// The server speaks another protocol version: its version (this game's is
    /// [`ludus_protocol::PROTOCOL_VERSION`]).
    Incompatible(u16),
}

/// Where the transport under the link stands.
#[derive(Debug, Default)]
enum Transport {
    /// Nothing open, nothing asked for.
    #[default]
    Closed,
    /// The connect token was asked for; the link opens when it comes.
    Fetching(TokenRequest),
    /// bevy_renet2's `RenetClient` and `NetcodeClientTransport` resources carry the connection.
    Open,
}

/// The link to a server: the session with it, the messages waiting to go out, and who the server
/// says the person is. The connection itself lives in bevy_renet2's resources (its plugins
/// update them before `Update` and flush them after it); what to do about sign-ins, redirects
/// and drops is decided by the protocol's session ([`LinkSession`], the same as the plain
/// client's). What the server shows of itself (the lobby, profiles, the leaderboard, archives,
/// refusals) is kept by the views of [`crate::net::views`], each filled by its own handler.
#[derive(Resource, Default)]
pub struct Link {
    /// The session with the server (none: offline, or it ended).
    session: Option<LinkSession>,
    transport: Transport,
    /// The open link is to be closed at the next frame (the player left, or a new one opens).
    close_link: bool,
    /// Messages for the server, handed to renet2 once the link is open (the `Hello` first).
    outbox: Vec<Vec<u8>>,
    /// Bumped whenever the connection is dropped or replaced by the player: the server's views
    /// of the old one are forgotten.
    epoch: u64,
    /// The server address in use (as typed).
    pub server: String,
    /// Where the connection stands.
    pub phase: LinkState,
    /// The nickname the server confirmed.
    pub nickname: Option<String>,
    /// Who the server says the person here is (from its `Welcome`).
    pub player: Option<PlayerId>,
}

impl Link {
    /// The address of the node the connection goes to now (after a redirect, another node of
    /// the server as it was given).
    pub fn node(&self) -> Option<std::net::SocketAddr> {
        self.session.as_ref().map(|s| s.config().server)
    }

    /// Whether a connection to a server is open (or being opened or restored).
    pub fn has_connection(&self) -> bool {
        self.session.is_some()
    }

    /// Which connection this is: changes whenever the player drops or replaces it.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Queues a message for the server (dropped when there is no connection).
    pub fn send(&mut self, message: ClientMessage) {
        if self.session.is_none() {
            return;
        }
        match encode(&message) {
            Ok(bytes) => self.outbox.push(bytes),
            Err(e) => warn!("a message could not be encoded: {e}"),
        }
    }

    /// Whether a connection exists or is being made.
    pub fn is_active(&self) -> bool {
        self.has_connection()
    }

    /// Connects to `server` (as typed), with the stored token for it.
    pub fn connect(&mut self, server: &str, config: &OnlineConfig) {
        self.disconnect();
        let server = server.trim().to_string();
        self.server = server.clone();
        let credential = config.tokens.get(&server.to_lowercase()).cloned().map(SessionToken);
        let nickname = Some(config.nickname.trim().to_string()).filter(|n| !n.is_empty());
        match client_config(&server) {
            Err(e) => self.phase = LinkState::Failed(LinkFailure::BadAddress(e)),
            Ok(mut cfg) => {
                cfg.nickname = nickname;
                cfg.token = credential;
                let mut session = LinkSession::new(cfg, Retry::Backoff);
                let actions = session.start();
                self.session = Some(session);
                self.carry_out(actions);
            }
        }
    }

    /// Drops the connection and opens a new one with the same credential, to the server as it
    /// was given (the service sends the player on to the node that has their seat): the server
    /// then sends everything again (the game on the board included).
    pub fn reconnect(&mut self) {
        if let Some(actions) = self.session.as_mut().map(LinkSession::start) {
            self.carry_out(actions);
        }
    }

    /// Does what the session asks of the link, and shows where it stands.
    fn carry_out(&mut self, actions: Vec<Action>) {
        for action in actions {
            match action {
                Action::Open { config, credential, send } => {
                    if matches!(self.transport, Transport::Open) {
                        self.close_link = true;
                    }
                    self.transport = Transport::Fetching(TokenRequest::start(&config, credential));
                    self.outbox.clear();
                    for message in send {
                        self.send(message);
                    }
                }
                Action::Close => {
                    if matches!(self.transport, Transport::Open) {
                        self.close_link = true;
                    }
                    self.transport = Transport::Closed;
                    self.outbox.clear();
                }
                Action::RetryIn { attempt, after } => {
                    info!("connection lost; attempt {attempt} in {:.1} s", after.as_secs_f64());
                }
                Action::GiveUp(failure) => {
                    match &failure {
                        Failure::Incompatible(version, reason) => {
                            info!("the server speaks protocol {version}: {reason}")
                        }
                        Failure::Refused(status, reason) => {
                            info!("the server refused a connect token (HTTP {status}): {reason}")
                        }
                        Failure::Unreachable(reason) => info!("the server cannot be reached: {reason}"),
                    }
                    self.phase = LinkState::Failed(match failure {
                        Failure::Incompatible(version, _) => LinkFailure::Incompatible(version),
                        Failure::Refused(status, _) => LinkFailure::Refused(status),
                        Failure::Unreachable(reason) => LinkFailure::Unreachable(reason),
                    });
                    self.session = None;
                }
            }
        }
        if let Some(session) = &self.session {
            self.phase = match session.phase() {
                Phase::Closed => LinkState::Offline,
                Phase::Connecting => LinkState::Connecting,
                Phase::SignedIn(_) => LinkState::SignedIn,
                Phase::Reconnecting(n) => LinkState::Reconnecting(*n),
                // Said by `Action::GiveUp` above.
                Phase::Failed(_) => self.phase.clone(),
            };
        }
    }

    /// Closes the connection (a seat in a live game is held by the server for a while). The
    /// link itself closes at the next frame, telling the server at once.
    pub fn disconnect(&mut self) {
        let close_link = self.close_link || matches!(self.transport, Transport::Open);
        let epoch = self.epoch + 1;
        *self = Link { server: std::mem::take(&mut self.server), close_link, epoch, ..Link::default() };
    }

    /// Why the open link is down, when it is: netcode gave up, or the server closed the
    /// connection. (A refused or missing connect token is handled where it comes, in
    /// [`manage_link`].)
    fn failure(
        &self,
        renet: Option<&RenetClient>,
        transport: Option<&NetcodeClientTransport>,
    ) -> Option<String> {
        let (Transport::Open, Some(renet), Some(transport)) = (&self.transport, renet, transport) else {
            return None;
        };
        (renet.is_disconnected() || transport.is_disconnected()).then(|| {
            transport
                .disconnect_reason()
                .map(|r| r.to_string())
                .or_else(|| renet.disconnect_reason().map(|r| r.to_string()))
                .unwrap_or_else(|| "disconnected".to_string())
        })
    }
}

/// A message from the server, for the systems that follow it (the game on the board: see
/// [`crate::net::sync`]).
#[derive(Message, Clone, Debug)]
pub struct FromServer(pub ServerMessage);

/// bevy_renet2's client resources, when the link is open.
#[derive(SystemParam)]
pub struct Renet<'w> {
    client: Option<ResMut<'w, RenetClient>>,
    transport: Option<ResMut<'w, NetcodeClientTransport>>,
}

/// Opens and closes the link: closes the one the player left (telling the server), and opens a
/// new one with the connect token once it came, as bevy_renet2's resources. Runs before
/// [`receive`], so a link closed here is not read again.
pub fn manage_link(mut link: ResMut<Link>, mut renet: Renet, time: Res<Time<Real>>, mut commands: Commands) {
    let now = time.elapsed();
    if let Some(actions) = link.session.as_mut().map(|s| s.tick(now)) {
        link.carry_out(actions);
    }
    if std::mem::take(&mut link.close_link) {
        if let Some(transport) = renet.transport.as_deref_mut()
            && !transport.is_disconnected()
        {
            transport.disconnect();
        }
        commands.remove_resource::<RenetClient>();
        commands.remove_resource::<NetcodeClientTransport>();
    }
    let link = &mut *link;
    let Transport::Fetching(request) = &mut link.transport else { return };
    let Some(answer) = request.poll() else { return };
    let Some(session) = &mut link.session else { return };
    match answer.and_then(|token| open_link(session.config(), &token).map_err(|e| TokenFailure::from(e.0))) {
        Ok((client, transport)) => {
            commands.insert_resource(client);
            commands.insert_resource(transport);
            link.transport = Transport::Open;
        }
        Err(failure) => {
            let actions = session.token_refused(failure, now);
            link.carry_out(actions);
        }
    }
}

/// Reads the server's messages from renet2 (what concerns the link itself is kept here: who the
/// person is, the session token; every message goes on as a [`FromServer`] for the views and the
/// game on the board), and notices a drop and schedules the reconnection.
pub fn receive(
    mut link: ResMut<Link>,
    mut renet: Renet,
    mut config: ResMut<OnlineConfig>,
    time: Res<Time<Real>>,
    mut out: MessageWriter<FromServer>,
) {
    let clock = time.elapsed();
    let link = &mut *link;
    if !matches!(link.transport, Transport::Open) {
        return;
    }
    let mut actions = Vec::new();
    if let Some(client) = renet.client.as_deref_mut() {
        while let Some(bytes) = client.receive_message(CHANNEL) {
            let message = match decode_server(&bytes) {
                Ok(message) => message,
                Err(e) => {
                    warn!("an unreadable message from the server: {e}");
                    continue;
                }
            };
            if let Some(session) = &mut link.session {
                actions.extend(session.message(&message, clock));
            }
            link.note(&message, &mut config);
            out.write(FromServer(message));
        }
    }
    // A redirect, a new start or the end replaces the link before it is looked at again.
    link.carry_out(actions);
    if let Some(reason) = link.failure(renet.client.as_deref(), renet.transport.as_deref()) {
        info!("connection lost: {reason}");
        if let Some(actions) = link.session.as_mut().map(|s| s.link_lost(reason, clock)) {
            link.carry_out(actions);
        }
    }
}

impl Link {
    /// What a server's message says about the link: who the person is, the token to come back
    /// with (remembered for this server), the nickname confirmed.
    fn note(&mut self, message: &ServerMessage, config: &mut OnlineConfig) {
        match message {
            ServerMessage::Welcome { nickname, token, player, .. } => {
                self.player = Some(*player);
                self.nickname = Some(nickname.clone());
                if config.nickname.is_empty() {
                    config.nickname = nickname.clone();
                }
                let key = self.server.to_lowercase();
                if config.tokens.get(&key) != Some(&token.0) {
                    config.tokens.insert(key, token.0.clone());
                }
            }
            ServerMessage::NicknameSet { nickname } => self.nickname = Some(nickname.clone()),
            ServerMessage::Error { code, message } => info!("server refused: {code:?}: {message}"),
            ServerMessage::Redirect(r) => info!("redirected to node {}", r.node),
            _ => {}
        }
    }
}

/// A message for the server, from the handlers of the player's intents and of the server's
/// views ([`crate::net::intents`], [`crate::net::views`]): queued on the link at the end of the
/// frame, dropped when there is no connection.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct ToServer(pub ClientMessage);

/// Queues this frame's [`ToServer`] messages on the link.
fn queue_outgoing(mut messages: MessageReader<ToServer>, mut link: ResMut<Link>) {
    for ToServer(message) in messages.read() {
        link.send(message.clone());
    }
}

/// Hands the waiting messages to renet2 once the link is up (netcode drops what is sent while
/// it still connects); bevy_renet2 sends them after `Update`.
fn flush_outbox(mut link: ResMut<Link>, client: Option<ResMut<RenetClient>>) {
    let Some(mut client) = client else { return };
    if !matches!(link.transport, Transport::Open) || link.close_link || !client.is_connected() {
        return;
    }
    for bytes in link.outbox.drain(..) {
        client.send_message(CHANNEL, bytes);
    }
}

/// Keeps frames coming while connected (messages must be read even when nobody touches the
/// window), and lets the game rest again once offline.
fn wake_while_connected(
    link: Res<Link>,
    mut winit: Option<ResMut<WinitSettings>>,
    mut saved: Local<Option<WinitSettings>>,
) {
    let Some(winit) = winit.as_deref_mut() else { return };
    if link.is_active() {
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

/// The link: its state, the server's messages read and passed on, the messages sent,
/// reconnection, the stored configuration.
pub fn plugin(app: &mut App) {
    let lang = app.world().get_resource::<Settings>().map_or(Lang::default(), |s| s.lang);
    let (config, notice) = OnlineConfig::load(lang);
    app.init_resource::<Notices>();
    app.world_mut().resource_mut::<Notices>().0.extend(notice);
    app.init_resource::<Link>()
        .insert_resource(config)
        .add_message::<FromServer>()
        .add_message::<ToServer>()
        .add_plugins((RenetClientPlugin, NetcodeClientPlugin))
        .add_systems(Update, (manage_link, receive).chain().in_set(crate::app::AppSet::Input))
        .add_systems(PostUpdate, (queue_outgoing, flush_outbox).chain().before(RenetSend))
        .add_systems(Last, (save_config, wake_while_connected));
}
