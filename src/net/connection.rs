//! The connection to a server: the connect token, then renet2 and netcode as bevy_renet2's
//! resources (its client plugins update and flush them), the server's messages read every frame
//! and passed on as [`FromServer`], reconnection after a drop, the lobby's state, and what the
//! online screen remembers between runs (`online.json`).

use crate::app::Screen;
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
use ludus_protocol::client::{Action, Failure, Phase, Retry, Session, TokenFailure, TokenRequest, open_link};
use ludus_protocol::{
    ArchivedGame, CHANNEL, ClientMessage, ClockSpec, ErrorCode, GameId, LobbyView, PlayerId, ProfileView,
    RatingEntry, ServerMessage, SessionToken, decode_server, encode,
};
use ludus_rules::Variant;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;

/// How often the lobby is asked for again while it is on screen, in seconds.
const LOBBY_REFRESH_S: f64 = 3.0;

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

/// A leaderboard as the server sent it.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaderboard {
    /// Which game.
    pub variant: Variant,
    /// The best, place 1 first.
    pub top: Vec<RatingEntry>,
    /// The person's own place and line, if they are on it.
    pub yours: Option<(u32, RatingEntry)>,
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
    /// Nobody answered (or the connection could not be set up): the system's reason, shown only
    /// as a quoted detail.
    Unreachable(String),
    /// The server's token endpoint answered with this HTTP status instead of a token: 429 (too
    /// many connections or new players from this address), 503 (busy), or another refusal. The
    /// server's own words go to the log only.
    Refused(u16),
    /// The server speaks another protocol version: its version (this game's is
    /// [`ludus_protocol::PROTOCOL_VERSION`]).
    Incompatible(u16),
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

/// Where the link to the server stands, under the lobby's state.
#[derive(Debug, Default)]
enum Link {
    /// Nothing open, nothing asked for.
    #[default]
    Closed,
    /// The connect token was asked for; the link opens when it comes.
    Fetching(TokenRequest),
    /// bevy_renet2's `RenetClient` and `NetcodeClientTransport` resources carry the connection.
    Open,
}

/// The connection to a server and the lobby's state. The connection itself lives in
/// bevy_renet2's resources (`RenetClient`, `NetcodeClientTransport`), which its client plugins
/// update before `Update` and flush after it; what to do about sign-ins, redirects and drops is
/// decided by the protocol's [`Session`] (the same as the plain client's); this resource holds
/// the session, the messages waiting to go out, and what the player sees of it all.
#[derive(Resource, Default)]
pub struct Net {
    /// The session with the server (none: offline, or it ended).
    session: Option<Session>,
    link: Link,
    /// The open link is to be closed at the next frame (the player left, or a new one opens).
    close_link: bool,
    /// Messages for the server, handed to renet2 once the link is open (the `Hello` first).
    outbox: Vec<Vec<u8>>,
    /// The server address in use (as typed).
    pub server: String,
    /// Where the connection stands.
    pub phase: LinkState,
    /// The nickname the server confirmed.
    pub nickname: Option<String>,
    /// Who the server says the person here is (from its `Welcome`).
    pub player: Option<PlayerId>,
    /// The person's own profile (asked for after every sign-in): whether the nickname is
    /// claimed, the ratings.
    pub profile: Option<ProfileView>,
    /// The last leaderboard received, of the variant it is for.
    pub leaderboard: Option<Leaderboard>,
    /// The variant whose leaderboard was asked for since the lobby was last refreshed.
    leaderboard_asked: Option<Variant>,
    /// Profiles asked for, oldest first: the first is on its way (the server answers one at a
    /// time), each marked whether it is the person's own.
    profile_asks: VecDeque<(String, bool)>,
    /// The profile opened on the profile screen ([`Net::view_profile`]), once it came.
    pub viewed: Option<ProfileView>,
    /// The finished game asked for ([`Net::ask_archive`]) and not yet come.
    pub archive_asked: Option<GameId>,
    /// The finished game that came, until the screen that asked takes it.
    pub archive: Option<Box<ArchivedGame>>,
    /// The last lobby received.
    pub lobby: Option<LobbyView>,
    /// A room or queue the player waits in.
    pub waiting: Option<Waiting>,
    /// The last refusal, to show once: its code (what the player reads) and the words of the
    /// server or of the check that refused (for the log and the browser test).
    pub notice: Option<(ErrorCode, String)>,
    pub(crate) lobby_asked: Option<f64>,
}

impl Net {
    /// The address of the node the connection goes to now (after a redirect, another node of
    /// the server as it was given).
    pub fn node(&self) -> Option<std::net::SocketAddr> {
        self.session.as_ref().map(|s| s.config().server)
    }

    /// Whether a connection to a server is open (or being opened or restored).
    pub fn has_connection(&self) -> bool {
        self.session.is_some()
    }

    /// Asks for `variant`'s leaderboard, once until the lobby is refreshed.
    pub fn ask_leaderboard(&mut self, variant: Variant) {
        if self.leaderboard_asked != Some(variant) {
            self.leaderboard_asked = Some(variant);
            self.send(ClientMessage::Leaderboard { variant });
        }
    }

    /// Asks for a profile; the server answers one at a time, so the others wait here.
    fn ask_profile(&mut self, nickname: String, own: bool) {
        self.profile_asks.push_back((nickname.clone(), own));
        if self.profile_asks.len() == 1 {
            self.send(ClientMessage::Profile { nickname });
        }
    }

    /// The answer to the profile on its way came (or a refusal): the next one goes.
    fn profile_answered(&mut self) -> Option<bool> {
        let (_, own) = self.profile_asks.pop_front()?;
        if let Some((nickname, _)) = self.profile_asks.front().cloned() {
            self.send(ClientMessage::Profile { nickname });
        }
        Some(own)
    }

    /// Opens `nickname`'s profile for the profile screen ([`Net::viewed`] once it comes).
    pub fn view_profile(&mut self, nickname: &str) {
        self.viewed = None;
        self.ask_profile(nickname.to_string(), false);
    }

    /// Asks for a finished game's archive ([`Net::archive`] once it comes); one at a time.
    pub fn ask_archive(&mut self, game: GameId) {
        if self.archive_asked.is_none() {
            self.archive_asked = Some(game);
            self.archive = None;
            self.send(ClientMessage::Archive { game });
        }
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
                let mut session = Session::new(cfg, Retry::Backoff);
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
        if let Some(actions) = self.session.as_mut().map(Session::start) {
            self.carry_out(actions);
        }
    }

    /// Does what the session asks of the link, and shows where it stands.
    fn carry_out(&mut self, actions: Vec<Action>) {
        for action in actions {
            match action {
                Action::Open { config, credential, send } => {
                    if matches!(self.link, Link::Open) {
                        self.close_link = true;
                    }
                    self.link = Link::Fetching(TokenRequest::start(&config, credential));
                    self.outbox.clear();
                    for message in send {
                        self.send(message);
                    }
                }
                Action::Close => {
                    if matches!(self.link, Link::Open) {
                        self.close_link = true;
                    }
                    self.link = Link::Closed;
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
        let close_link = self.close_link || matches!(self.link, Link::Open);
        *self = Net { server: std::mem::take(&mut self.server), close_link, ..Net::default() };
    }

    /// Why the open link is down, when it is: netcode gave up, or the server closed the
    /// connection. (A refused or missing connect token is handled where it comes, in
    /// [`manage_link`].)
    fn failure(
        &self,
        renet: Option<&RenetClient>,
        transport: Option<&NetcodeClientTransport>,
    ) -> Option<String> {
        let (Link::Open, Some(renet), Some(transport)) = (&self.link, renet, transport) else {
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
pub fn manage_link(mut net: ResMut<Net>, mut renet: Renet, time: Res<Time<Real>>, mut commands: Commands) {
    let now = time.elapsed();
    if let Some(actions) = net.session.as_mut().map(|s| s.tick(now)) {
        net.carry_out(actions);
    }
    if std::mem::take(&mut net.close_link) {
        if let Some(transport) = renet.transport.as_deref_mut()
            && !transport.is_disconnected()
        {
            transport.disconnect();
        }
        commands.remove_resource::<RenetClient>();
        commands.remove_resource::<NetcodeClientTransport>();
    }
    let net = &mut *net;
    let Link::Fetching(request) = &mut net.link else { return };
    let Some(answer) = request.poll() else { return };
    let Some(session) = &mut net.session else { return };
    match answer.and_then(|token| open_link(session.config(), &token).map_err(|e| TokenFailure::from(e.0))) {
        Ok((client, transport)) => {
            commands.insert_resource(client);
            commands.insert_resource(transport);
            net.link = Link::Open;
        }
        Err(failure) => {
            let actions = session.token_refused(failure, now);
            net.carry_out(actions);
        }
    }
}

/// Reads the server's messages from renet2 (what concerns the connection and the lobby is kept
/// here, and every message goes on as a [`FromServer`]), notices a drop and schedules the
/// reconnection, and asks for the lobby while it is on screen.
pub fn receive(
    mut net: ResMut<Net>,
    mut renet: Renet,
    mut config: ResMut<OnlineConfig>,
    time: Res<Time<Real>>,
    screen: Option<Res<State<Screen>>>,
    mut out: MessageWriter<FromServer>,
) {
    let screen = screen.map(|s| *s.get());
    let now = time.elapsed_secs_f64();
    let clock = time.elapsed();
    let net = &mut *net;
    if !matches!(net.link, Link::Open) {
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
            if let Some(session) = &mut net.session {
                actions.extend(session.message(&message, clock));
            }
            match &message {
                ServerMessage::Welcome { nickname, token, player, .. } => {
                    net.player = Some(*player);
                    // Claimed or not, and the ratings: the own profile. Answers to this
                    // connection's earlier asks may still come; they are matched by player.
                    net.profile = None;
                    net.profile_asks.clear();
                    net.archive_asked = None;
                    net.ask_profile(nickname.clone(), true);
                    net.nickname = Some(nickname.clone());
                    net.lobby_asked = None;
                    if config.nickname.is_empty() {
                        config.nickname = nickname.clone();
                    }
                    let key = net.server.to_lowercase();
                    if config.tokens.get(&key) != Some(&token.0) {
                        config.tokens.insert(key, token.0.clone());
                    }
                }
                ServerMessage::NicknameSet { nickname } => net.nickname = Some(nickname.clone()),
                ServerMessage::Error { code, message } => {
                    info!("server refused: {code:?}: {message}");
                    net.notice = Some((*code, message.clone()));
                    match code {
                        // Only a profile is refused so.
                        ErrorCode::UnknownPlayer => {
                            net.profile_answered();
                        }
                        ErrorCode::UnknownGame => net.archive_asked = None,
                        _ => {}
                    }
                }
                ServerMessage::Lobby(lobby) => net.lobby = Some(lobby.clone()),
                ServerMessage::Profile(profile) => {
                    let own = net.profile_answered();
                    if Some(profile.player) == net.player {
                        net.profile = Some(profile.clone());
                    }
                    if own == Some(false) {
                        net.viewed = Some(profile.clone());
                    }
                }
                ServerMessage::Archive(archive) if net.archive_asked == Some(archive.game) => {
                    net.archive_asked = None;
                    net.archive = Some(archive.clone());
                }
                ServerMessage::NicknameClaimed { nickname } => {
                    // The profile again: claimed now.
                    net.ask_profile(nickname.clone(), true);
                }
                ServerMessage::GameOver { archive, .. } if archive.rated => {
                    // The ratings changed.
                    if let Some(nickname) = net.nickname.clone() {
                        net.ask_profile(nickname, true);
                    }
                }
                ServerMessage::Leaderboard { variant, top, yours } => {
                    net.leaderboard =
                        Some(Leaderboard { variant: *variant, top: top.clone(), yours: yours.clone() });
                }
                ServerMessage::RoomOpened { code, variant, public, .. } => {
                    net.waiting =
                        Some(Waiting::Room { code: code.clone(), variant: *variant, public: *public });
                }
                ServerMessage::Queued { variant, .. } => {
                    net.waiting = Some(Waiting::Queue { variant: *variant })
                }
                ServerMessage::Left | ServerMessage::Game(_) => net.waiting = None,
                ServerMessage::Redirect(r) => info!("redirected to node {}", r.node),
                _ => {}
            }
            out.write(FromServer(message));
        }
    }
    // A redirect, a new start or the end replaces the link before it is looked at again.
    net.carry_out(actions);
    if let Some(reason) = net.failure(renet.client.as_deref(), renet.transport.as_deref()) {
        info!("connection lost: {reason}");
        if let Some(actions) = net.session.as_mut().map(|s| s.link_lost(reason, clock)) {
            net.carry_out(actions);
        }
        return;
    }
    if net.phase == LinkState::SignedIn
        && screen == Some(Screen::Online)
        && net.lobby_asked.is_none_or(|t| now - t >= LOBBY_REFRESH_S)
    {
        net.lobby_asked = Some(now);
        net.leaderboard_asked = None;
        net.send(ClientMessage::Lobby);
    }
}

/// Hands the waiting messages to renet2 once the link is up (netcode drops what is sent while
/// it still connects); bevy_renet2 sends them after `Update`.
fn flush_outbox(mut net: ResMut<Net>, client: Option<ResMut<RenetClient>>) {
    let Some(mut client) = client else { return };
    if !matches!(net.link, Link::Open) || net.close_link || !client.is_connected() {
        return;
    }
    for bytes in net.outbox.drain(..) {
        client.send_message(CHANNEL, bytes);
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
        .add_plugins((RenetClientPlugin, NetcodeClientPlugin))
        .add_systems(Update, (manage_link, receive).chain().in_set(crate::app::AppSet::Input))
        .add_systems(PostUpdate, flush_outbox.before(RenetSend))
        .add_systems(Last, (save_config, wake_while_connected));
}
