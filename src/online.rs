//! Online and LAN play: the connection to a server (automatic reconnection included), the
//! "Play online" screen (lobby, quick match, rooms by code, watching), and online games on the
//! board: moves through the server, clocks, the opponent's connection, spectators' proposals.

use crate::i18n::{Lang, fill};
use crate::screens::{Screen, big_button, side_name, variant_key};
use crate::session::{GameCommand, Seats, Session};
use crate::settings::Settings;
use crate::storage;
use bevy::prelude::*;
use bevy::winit::{UpdateMode, WinitSettings};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use ludus_protocol::client::{Client, ClientConfig, ConnectionState};
use ludus_protocol::{
    ArchivedGame, ClientMessage, ClockSpec, ClockView, CrowdVerdict, ErrorCode, GameId, GameView, LobbyView,
    PlayerInfo, Proposal, Role, ServerMessage, SessionToken,
};
use ludus_rules::{AnyGame, AnyMove, AnyPosition, Side, Variant};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

const FILE: &str = "online.json";

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

impl OnlineConfig {
    /// Reads the stored configuration; anything unreadable is set aside and forgotten.
    pub fn load() -> OnlineConfig {
        match storage::read(FILE) {
            Ok(Some(text)) => serde_json::from_str(&text).unwrap_or_else(|e| {
                warn!("unreadable {FILE}: {e}; kept aside as {:?}", storage::set_aside(FILE));
                OnlineConfig::default()
            }),
            Ok(None) => OnlineConfig::default(),
            Err(e) => {
                warn!("{FILE} could not be read: {e}");
                OnlineConfig::default()
            }
        }
    }

    fn save(&self) {
        match serde_json::to_string_pretty(self) {
            Ok(text) => {
                if let Err(e) = storage::write(FILE, &text) {
                    warn!("{FILE} could not be written: {e}");
                }
            }
            Err(e) => warn!("{FILE} could not be encoded: {e}"),
        }
    }
}

/// The server to use when none was typed: in the browser, the one that served the page (the
/// page sets `window.ludusDefaultServer`), else this computer.
pub fn default_server() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        if let Some(window) = web_sys::window() {
            let global = js_sys::Reflect::get(&window, &"ludusDefaultServer".into()).ok();
            if let Some(s) = global.and_then(|v| v.as_string()).filter(|s| !s.is_empty()) {
                return s;
            }
            if let Ok(host) = window.location().hostname()
                && !host.is_empty()
            {
                return format!("ws://{host}:{}", DEFAULT_WS_PORT);
            }
        }
        format!("ws://127.0.0.1:{DEFAULT_WS_PORT}")
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        format!("127.0.0.1:{DEFAULT_UDP_PORT}")
    }
}

/// The server's usual UDP port (native clients).
pub const DEFAULT_UDP_PORT: u16 = 5000;
/// The server's usual WebSocket port (browsers).
pub const DEFAULT_WS_PORT: u16 = 5001;

/// Turns what the player typed into a connection configuration. Natively: `host[:port]` over
/// UDP (port 5000 by default) or `ws://host[:port]` over WebSocket (5001); in the browser:
/// `ws://` or `wss://` URLs, or `host[:port]` (WebSocket, 5001 by default).
pub fn client_config(text: &str) -> Result<ClientConfig, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("empty address".to_string());
    }
    #[cfg(target_arch = "wasm32")]
    {
        let url = web_url(text)?;
        Ok(ClientConfig::web(url))
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use ludus_protocol::client::Transport;
        use std::net::ToSocketAddrs;
        let (rest, transport, port) = if let Some(rest) = text.strip_prefix("ws://") {
            (rest, Transport::WebSocket, DEFAULT_WS_PORT)
        } else if text.starts_with("wss://") {
            return Err("wss:// is for browsers: use the server's UDP address (host:5000)".to_string());
        } else if let Some(rest) = text.strip_prefix("udp://") {
            (rest, Transport::Udp, DEFAULT_UDP_PORT)
        } else {
            (text, Transport::Udp, DEFAULT_UDP_PORT)
        };
        let host = rest.split('/').next().unwrap_or_default();
        if host.is_empty() || host.chars().any(char::is_whitespace) {
            return Err(format!("not an address: {text}"));
        }
        let with_port = if has_port(host) { host.to_string() } else { format!("{host}:{port}") };
        let addr = with_port
            .to_socket_addrs()
            .map_err(|e| format!("{host}: {e}"))?
            .min_by_key(|a| a.is_ipv6())
            .ok_or_else(|| format!("{host}: no address"))?;
        Ok(ClientConfig::new(addr, transport))
    }
}

/// Whether `host` already ends in a port (`h:1`, `1.2.3.4:1`, `[::1]:1`, not `::1`).
fn has_port(host: &str) -> bool {
    if let Some(rest) = host.strip_prefix('[') {
        return rest.contains("]:");
    }
    host.matches(':').count() == 1 && host.rsplit(':').next().is_some_and(|p| p.parse::<u16>().is_ok())
}

/// A WebSocket URL from what the player typed (browser builds).
pub fn web_url(text: &str) -> Result<String, String> {
    let text = text.trim();
    let (scheme, rest) = if let Some(r) = text.strip_prefix("ws://") {
        ("ws", r)
    } else if let Some(r) = text.strip_prefix("wss://") {
        ("wss", r)
    } else if let Some(r) = text.strip_prefix("http://") {
        ("ws", r)
    } else if let Some(r) = text.strip_prefix("https://") {
        ("wss", r)
    } else {
        ("ws", text)
    };
    let (host, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    if host.is_empty() || host.chars().any(char::is_whitespace) {
        return Err(format!("not an address: {text}"));
    }
    // Without a port, plain ws goes to the server's own WebSocket port; wss is a TLS proxy's
    // address, whose port the URL gives or 443 is meant.
    let host = if has_port(host) || scheme == "wss" {
        host.to_string()
    } else {
        format!("{host}:{DEFAULT_WS_PORT}")
    };
    Ok(format!("{scheme}://{host}{path}"))
}

/// Where the connection stands, as the player sees it.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Phase {
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
    Failed(Failure),
}

/// Why there is no connection.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// The address makes no sense or cannot be resolved.
    BadAddress(String),
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
    pub phase: Phase,
    /// The nickname the server confirmed.
    pub nickname: Option<String>,
    /// The last lobby received.
    pub lobby: Option<LobbyView>,
    /// A room or queue the player waits in.
    pub waiting: Option<Waiting>,
    /// The last refusal from the server, to show once.
    pub notice: Option<(ErrorCode, String)>,
    lobby_asked: Option<f64>,
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
            Err(e) => self.phase = Phase::Failed(Failure::BadAddress(e)),
            Ok(mut cfg) => {
                cfg.token = token;
                cfg.nickname = nickname;
                match Client::connect(cfg) {
                    Ok(client) => {
                        self.client = Some(client);
                        self.phase = Phase::Connecting;
                    }
                    Err(e) => self.phase = Phase::Failed(Failure::Unreachable(e.to_string())),
                }
            }
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

/// An online game on the board: who plays, the clocks, what the server confirmed, and for
/// spectators the crowd's proposals.
#[derive(Resource, Clone, Debug)]
pub struct OnlineGame {
    /// The game on the server.
    pub id: GameId,
    /// The room's code.
    pub room: String,
    /// The person's part.
    pub role: Role,
    /// `[First, Second]`.
    pub players: [PlayerInfo; 2],
    /// The time control.
    pub clock: Option<ClockSpec>,
    /// The clocks when last told, and when (seconds of app time).
    pub clocks: Option<(ClockView, f64)>,
    /// Moves the server has confirmed (the board may show one more: the person's, on its way).
    pub confirmed: usize,
    /// How many watch.
    pub spectators: u32,
    /// Spectators: the proposals for the next move, most proposed first.
    pub proposals: Vec<Proposal>,
    /// Spectators: the person's own proposal for the next move.
    pub your_proposal: Option<String>,
    /// Spectators: the last move and how the crowd's proposals compared.
    pub verdict: Option<(String, CrowdVerdict)>,
    /// When a disconnected player's seat is given up (seconds of app time).
    pub hold_until: [Option<f64>; 2],
    /// The opponent offers a rematch.
    pub rematch_offered: bool,
    /// The person asked for a rematch.
    pub rematch_sent: bool,
    /// The archive at the end (with the spectators' proposals).
    pub archive: Option<ArchivedGame>,
}

impl OnlineGame {
    fn from_view(view: &GameView, now: f64) -> OnlineGame {
        OnlineGame {
            id: view.game,
            room: view.room.clone(),
            role: view.role,
            players: view.players.clone(),
            clock: view.clock,
            clocks: view.clocks.map(|c| (c, now)),
            confirmed: view.moves.len(),
            spectators: view.spectators,
            proposals: view.proposals.clone(),
            your_proposal: view.your_proposal.clone(),
            verdict: None,
            hold_until: [None, None],
            rematch_offered: false,
            rematch_sent: false,
            archive: None,
        }
    }

    /// The person's side, if they play.
    pub fn local_side(&self) -> Option<Side> {
        match self.role {
            Role::Player(side) => Some(side),
            Role::Spectator => None,
        }
    }

    /// Remaining time of `side` now, in milliseconds.
    pub fn remaining_ms(&self, side: Side, now: f64) -> Option<u64> {
        let (view, at) = self.clocks?;
        let base = u64::from(view.remaining_ms[side.index()]);
        let spent = if view.running == Some(side) { ((now - at).max(0.0) * 1000.0) as u64 } else { 0 };
        Some(base.saturating_sub(spent))
    }
}

/// The game a [`GameView`] describes, checked move by move.
pub fn game_from_view(view: &GameView) -> Result<AnyGame, String> {
    let start = AnyPosition::parse(view.variant, &view.start).map_err(|e| e.to_string())?;
    let mut game = AnyGame::from_position(start);
    for mv in &view.moves {
        game.play_str(mv).map_err(|e| format!("{mv}: {e}"))?;
    }
    if let Some(outcome) = view.outcome
        && !game.is_over()
    {
        let _ = game.end(outcome);
    }
    Ok(game)
}

/// Minutes and seconds.
pub fn clock_text(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    format!("{}:{:02}", s / 60, s % 60)
}

/// The text key of a server refusal.
pub fn error_key(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::Malformed => "net.err.malformed",
        ErrorCode::NotSignedIn | ErrorCode::AlreadySignedIn | ErrorCode::Internal => "net.err.internal",
        ErrorCode::SignedInElsewhere => "net.err.elsewhere",
        ErrorCode::BadNickname => "net.err.nickname",
        ErrorCode::RateLimited => "net.err.rate",
        ErrorCode::BadClock => "net.err.clock",
        ErrorCode::UnknownRoom => "net.err.unknown_room",
        ErrorCode::RoomFull => "net.err.room_full",
        ErrorCode::OwnRoom => "net.err.own_room",
        ErrorCode::Busy => "net.err.busy",
        ErrorCode::UnknownGame => "net.err.unknown_game",
        ErrorCode::NotAPlayer | ErrorCode::PlayerCannotPropose | ErrorCode::NotWatching => {
            "net.err.not_allowed"
        }
        ErrorCode::NotYourTurn | ErrorCode::WrongPly => "net.err.turn",
        ErrorCode::IllegalMove => "net.err.illegal",
        ErrorCode::GameOver => "net.err.over",
        ErrorCode::NoRematch => "net.err.no_rematch",
        ErrorCode::ServerFull => "net.err.full",
    }
}

/// The connection line shown on every online screen.
pub fn phase_text(lang: Lang, net: &Net) -> (egui::Color32, String) {
    let ok = egui::Color32::from_rgb(110, 200, 110);
    let busy = egui::Color32::from_rgb(230, 190, 90);
    let bad = egui::Color32::from_rgb(230, 110, 100);
    match &net.phase {
        Phase::Offline => (egui::Color32::GRAY, lang.t("net.offline").to_string()),
        Phase::Connecting => (busy, fill(lang.t("net.connecting"), &[&net.server])),
        Phase::SignedIn => {
            (ok, fill(lang.t("net.signed_in"), &[&net.server, net.nickname.as_deref().unwrap_or("?")]))
        }
        Phase::Reconnecting(n) => (busy, fill(lang.t("net.reconnecting"), &[&net.server, &n.to_string()])),
        Phase::Failed(Failure::BadAddress(e)) => (bad, fill(lang.t("net.bad_address"), &[e])),
        Phase::Failed(Failure::Unreachable(e)) => (bad, fill(lang.t("net.unreachable"), &[&net.server, e])),
        Phase::Failed(Failure::Incompatible(e)) => (bad, fill(lang.t("net.incompatible"), &[e])),
    }
}

/// Reads the server's messages, keeps the connection alive (reconnecting after a drop), and
/// applies what concerns the game on the board.
fn poll_net(
    mut net: ResMut<Net>,
    mut config: ResMut<OnlineConfig>,
    time: Res<Time<Real>>,
    mut online: Option<ResMut<OnlineGame>>,
    mut session: Option<ResMut<Session>>,
    screen: Option<Res<State<Screen>>>,
    next: Option<ResMut<NextState<Screen>>>,
    mut commands: Commands,
) {
    let screen = screen.map(|s| *s.get());
    let mut next = next;
    let now = time.elapsed_secs_f64();
    let net = &mut *net;
    if session.as_ref().is_none_or(|s| !s.seats.is_online()) {
        // A local game replaced the online one: the server's news about it concern nothing here.
        online = None;
    }
    if let Some(at) = net.retry_at
        && now >= at
    {
        net.retry_at = None;
        if let Some(client) = &mut net.client
            && let Err(e) = client.reconnect()
        {
            warn!("reconnection failed: {e}");
        }
    }
    let Some(client) = &mut net.client else { return };
    let messages = client.poll();
    let state = client.state().clone();
    let nickname = client.nickname().map(str::to_string);
    // The messages of one poll work on copies of the game, written back at the end: a game that
    // starts and its first move can arrive together, before a new resource could be inserted.
    let (mut cur_online, mut cur_session) = if messages.is_empty() {
        (None, None)
    } else {
        (online.as_deref().cloned(), session.as_deref().cloned())
    };
    let had_messages = !messages.is_empty();
    for message in messages {
        match message {
            ServerMessage::Incompatible { message, .. } => {
                net.phase = Phase::Failed(Failure::Incompatible(message));
            }
            ServerMessage::Welcome { nickname, token, .. } => {
                net.phase = Phase::SignedIn;
                net.signed_in_once = true;
                net.nickname = Some(nickname);
                net.lobby_asked = None;
                let key = net.server.to_lowercase();
                if config.tokens.get(&key) != Some(&token.0) {
                    config.tokens.insert(key, token.0);
                }
            }
            ServerMessage::NicknameSet { nickname } => net.nickname = Some(nickname),
            ServerMessage::Error { code, message } => {
                info!("server refused: {code:?}: {message}");
                if let (Some(online), Some(session)) = (cur_online.as_mut(), cur_session.as_mut()) {
                    roll_back_unconfirmed(online, session);
                    if online.your_proposal.is_some() && code == ErrorCode::IllegalMove {
                        online.your_proposal = None;
                    }
                }
                net.notice = Some((code, message));
            }
            ServerMessage::Lobby(lobby) => net.lobby = Some(lobby),
            ServerMessage::RoomOpened { code, variant, public, .. } => {
                net.waiting = Some(Waiting::Room { code, variant, public });
            }
            ServerMessage::Queued { variant, .. } => net.waiting = Some(Waiting::Queue { variant }),
            ServerMessage::Left => net.waiting = None,
            ServerMessage::Game(view) => {
                net.waiting = None;
                match game_from_view(&view) {
                    Err(e) => {
                        warn!("the server sent a game that does not replay: {e}");
                        net.notice = Some((ErrorCode::Internal, e));
                    }
                    Ok(game) => {
                        let same = cur_online.as_ref().is_some_and(|o| o.id == view.game);
                        let merged = same
                            && session
                                .as_deref_mut()
                                .is_some_and(|s| merge_moves(s, &game, view.moves.len()));
                        let fresh = OnlineGame::from_view(&view, now);
                        match cur_online.as_mut() {
                            Some(o) if same => {
                                let keep = (o.verdict.clone(), o.rematch_sent);
                                *o = fresh;
                                (o.verdict, o.rematch_sent) = keep;
                            }
                            _ => cur_online = Some(fresh),
                        }
                        if !merged {
                            let mut s = Session::from_game(game, Seats::online(role_side(view.role)));
                            s.spectating = view.role == Role::Spectator;
                            cur_session = Some(s);
                        }
                        if screen != Some(Screen::Playing)
                            && let Some(next) = next.as_deref_mut()
                        {
                            next.set(Screen::Playing);
                        }
                    }
                }
            }
            ServerMessage::MovePlayed { game, ply, mv, clocks, crowd, .. } => {
                let (Some(online), Some(session)) = (cur_online.as_mut(), cur_session.as_mut()) else {
                    continue;
                };
                if online.id != game {
                    continue;
                }
                if !apply_server_move(session, ply as usize, &mv) {
                    // Out of step: a fresh connection brings the whole game back.
                    warn!("out of step with the server at ply {ply}; reconnecting");
                    if let Some(client) = &mut net.client {
                        let _ = client.reconnect();
                    }
                    continue;
                }
                online.confirmed = ply as usize + 1;
                online.clocks = clocks.map(|c| (c, now));
                online.proposals.clear();
                online.your_proposal = None;
                if let Some(crowd) = crowd {
                    online.verdict = Some((mv, crowd));
                }
            }
            ServerMessage::Proposals { game, ply, proposals } => {
                if let Some(online) = cur_online.as_mut()
                    && online.id == game
                    && cur_session.as_ref().is_some_and(|s| s.game.ply() == ply as usize)
                {
                    online.proposals = proposals;
                }
            }
            ServerMessage::PlayerConnection { game, side, connected, hold_ms } => {
                if let Some(online) = cur_online.as_mut()
                    && online.id == game
                {
                    online.players[side.index()].connected = connected;
                    online.hold_until[side.index()] = hold_ms.map(|ms| now + f64::from(ms) / 1000.0);
                }
            }
            ServerMessage::Spectators { game, count } => {
                if let Some(online) = cur_online.as_mut()
                    && online.id == game
                {
                    online.spectators = count;
                }
            }
            ServerMessage::GameOver { game, outcome, archive } => {
                if let (Some(online), Some(session)) = (cur_online.as_mut(), cur_session.as_mut())
                    && online.id == game
                {
                    if session.game.outcome() != Some(outcome) {
                        let _ = session.game.end(outcome);
                        session.revision += 1;
                    }
                    if let Some((view, _)) = &mut online.clocks {
                        view.running = None;
                    }
                    online.archive = Some(archive);
                }
            }
            ServerMessage::RematchOffered { game, by } => {
                if let Some(online) = cur_online.as_mut()
                    && online.id == game
                    && online.local_side() != Some(by)
                {
                    online.rematch_offered = true;
                }
            }
            ServerMessage::Pong { .. } | ServerMessage::Restarting => {}
        }
    }
    if had_messages {
        write_back(&mut commands, online, cur_online);
        write_back(&mut commands, session, cur_session);
    }
    // The connection itself.
    let Some(client) = &mut net.client else { return };
    match state {
        ConnectionState::Disconnected(reason) => {
            if matches!(net.phase, Phase::Failed(Failure::Incompatible(_))) {
                net.client = None;
            } else if net.signed_in_once {
                if net.retry_at.is_none() {
                    let attempt = match net.phase {
                        Phase::Reconnecting(n) => n + 1,
                        _ => 1,
                    };
                    info!("connection lost ({reason}); attempt {attempt} soon");
                    net.phase = Phase::Reconnecting(attempt);
                    let wait = (0.5 * 2f64.powi(attempt.min(5) as i32)).min(MAX_RETRY_S);
                    net.retry_at = Some(now + wait);
                }
            } else {
                net.phase = Phase::Failed(Failure::Unreachable(reason));
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

/// Puts a resource's working copy back (inserting it if the resource did not exist).
fn write_back<T: Resource<Mutability = bevy::ecs::component::Mutable>>(
    commands: &mut Commands,
    resource: Option<ResMut<T>>,
    copy: Option<T>,
) {
    match (resource, copy) {
        (Some(mut r), Some(c)) => *r = c,
        (None, Some(c)) => commands.insert_resource(c),
        (_, None) => {}
    }
}

fn role_side(role: Role) -> Option<Side> {
    match role {
        Role::Player(side) => Some(side),
        Role::Spectator => None,
    }
}

/// Brings the session to `game` (the server's) by playing the moves it lacks, when the session
/// is a prefix of it; returns false when the whole session must be replaced.
fn merge_moves(session: &mut Session, game: &AnyGame, plies: usize) -> bool {
    let mine = session.game.move_strings();
    let theirs = game.move_strings();
    if mine.len() > plies || theirs[..mine.len()] != mine[..] || session.game.start() != game.start() {
        return false;
    }
    for mv in &game.moves()[mine.len()..] {
        if session.play(mv).is_err() {
            return false;
        }
    }
    if let Some(outcome) = game.outcome()
        && session.game.outcome() != Some(outcome)
    {
        let _ = session.game.end(outcome);
    }
    session.revision += 1;
    true
}

/// Plays the server's move `mv` at `ply` on the session: confirms the person's own move already
/// shown, replaces a different one, or plays it. False when the session is out of step.
pub fn apply_server_move(session: &mut Session, ply: usize, mv: &str) -> bool {
    let shown = session.game.move_strings();
    if ply < shown.len() {
        if shown[ply] == mv {
            return true;
        }
        while session.game.ply() > ply {
            session.game.withdraw_ending();
            session.game.undo();
        }
    } else if ply > shown.len() {
        return false;
    }
    session.game.withdraw_ending();
    let parsed: Result<AnyMove, _> = session.game.position().parse_move(mv);
    match parsed {
        Ok(m) => session.play(&m).is_ok(),
        Err(_) => false,
    }
}

/// Takes back the person's move that the server refused.
fn roll_back_unconfirmed(online: &OnlineGame, session: &mut Session) {
    if session.game.ply() > online.confirmed {
        while session.game.ply() > online.confirmed {
            session.game.withdraw_ending();
            session.game.undo();
        }
        session.revision += 1;
    }
}

/// Sends the person's moves, proposals, resignation and rematch requests to the server.
fn send_commands(
    mut reader: MessageReader<GameCommand>,
    mut net: ResMut<Net>,
    online: Option<ResMut<OnlineGame>>,
    session: Option<Res<Session>>,
) {
    let (Some(mut online), Some(session)) = (online, session) else {
        reader.clear();
        return;
    };
    if !session.seats.is_online() {
        reader.clear();
        return;
    }
    for command in reader.read() {
        let game = online.id;
        let ply = session.game.ply() as u32;
        match command {
            GameCommand::Play(mv) => {
                let Some(text) = session.game.position().move_to_string(mv) else { continue };
                if session.spectating {
                    if !session.game.is_over() {
                        online.your_proposal = Some(text.clone());
                        net.send(ClientMessage::Propose { game, ply, mv: text });
                    }
                } else if session.human_to_move() {
                    net.send(ClientMessage::Move { game, ply, mv: text });
                }
            }
            GameCommand::Resign => {
                if online.local_side().is_some() && !session.game.is_over() {
                    net.send(ClientMessage::Resign { game });
                }
            }
            GameCommand::NewGame => {
                if online.local_side().is_some() && session.game.is_over() && !online.rematch_sent {
                    online.rematch_sent = true;
                    net.send(ClientMessage::Rematch { game });
                }
            }
            GameCommand::Undo | GameCommand::Redo => {}
        }
    }
}

/// Leaves the online game on the board (resigning it if it is still going) and shows the lobby.
pub fn leave_game(commands: &mut Commands, net: &mut Net, next: &mut NextState<Screen>) {
    net.send(ClientMessage::Leave);
    net.waiting = None;
    net.lobby_asked = None;
    commands.remove_resource::<OnlineGame>();
    commands.remove_resource::<Session>();
    next.set(Screen::Online);
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

/// `--online` / `?online=`: connect at once, then do what was asked.
fn auto_online(
    launch: Option<Res<crate::launch::Launch>>,
    mut net: ResMut<Net>,
    mut config: ResMut<OnlineConfig>,
    mut stage: Local<u8>,
) {
    use crate::launch::OnlineAction;
    let Some(auto) = launch.as_ref().and_then(|l| l.online.clone()) else { return };
    match *stage {
        0 => {
            *stage = 1;
            if let Some(server) = &auto.server {
                config.server = server.clone();
            }
            if let Some(nick) = &auto.nickname {
                config.nickname = nick.clone();
            }
            let server = if config.server.is_empty() { default_server() } else { config.server.clone() };
            net.connect(&server, &config);
        }
        1 if net.phase == Phase::SignedIn => {
            *stage = 2;
            let variant =
                launch.as_ref().and_then(|l| l.game.as_ref()).map_or(Variant::Alquerque, |g| g.variant());
            let clock = config.clock.then_some(ClockSpec::BLITZ);
            match auto.action {
                OnlineAction::Lobby => {}
                OnlineAction::Quick => net.send(ClientMessage::QuickMatch { variant, clock }),
                OnlineAction::Room => net.send(ClientMessage::CreateRoom { variant, clock, public: false }),
                OnlineAction::Join(code) => net.send(ClientMessage::JoinRoom { code }),
                OnlineAction::Watch => {
                    *stage = 3;
                    net.send(ClientMessage::Lobby);
                }
            }
        }
        3 => {
            if let Some(game) = net.lobby.as_ref().and_then(|l| l.games.first()).map(|g| g.game) {
                *stage = 2;
                net.send(ClientMessage::Watch { game });
            }
        }
        _ => {}
    }
}

fn save_config(config: Res<OnlineConfig>) {
    if config.is_changed() && !config.is_added() {
        config.save();
    }
}

/// The "Play online" screen's input fields.
#[derive(Resource, Default)]
struct Fields {
    server: String,
    nickname: String,
    code: String,
    ready: bool,
}

fn online_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut config: ResMut<OnlineConfig>,
    mut net: ResMut<Net>,
    mut fields: ResMut<Fields>,
    online: Option<Res<OnlineGame>>,
    session: Option<Res<Session>>,
    mut next: ResMut<NextState<Screen>>,
    #[cfg(not(target_arch = "wasm32"))] mut host: ResMut<crate::host::LanHost>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    if !fields.ready {
        fields.server = if config.server.is_empty() { default_server() } else { config.server.clone() };
        fields.nickname = config.nickname.clone();
        fields.ready = true;
    }
    egui::CentralPanel::default().show(&mut crate::hud::root_ui(ctx), |ui| {
        // One centred column, like the other menu screens.
        let column = ui.available_width().min(720.0);
        let pad = ((ui.available_width() - column) / 2.0).max(0.0);
        ui.horizontal_top(|ui| {
            ui.add_space(pad);
            ui.vertical(|ui| {
                ui.set_width(column);
                ui.horizontal(|ui| {
                    if ui.add_sized([120.0, 44.0], egui::Button::new(lang.t("menu.back"))).clicked() {
                        if net.waiting.is_some() {
                            net.send(ClientMessage::Leave);
                        }
                        if online.is_none() {
                            net.disconnect();
                        }
                        next.set(Screen::Title);
                    }
                    ui.heading(egui::RichText::new(lang.t("net.title")).size(28.0));
                });
                let (color, text) = phase_text(lang, &net);
                ui.horizontal(|ui| {
                    let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
                    ui.painter().circle_filled(rect.center(), 6.0, color);
                    ui.label(egui::RichText::new(text).color(color));
                });
                if let Some((code, message)) = net.notice.clone() {
                    let mut close = false;
                    egui::Frame::group(ui.style()).fill(egui::Color32::from_rgb(90, 40, 30)).show(ui, |ui| {
                        ui.label(egui::RichText::new(lang.t(error_key(code))).color(egui::Color32::WHITE));
                        ui.label(egui::RichText::new(message).small().color(egui::Color32::LIGHT_GRAY));
                        close = ui.button("OK").clicked();
                    });
                    if close {
                        net.notice = None;
                    }
                }
                egui::ScrollArea::vertical().show(ui, |ui| {
                    ui.set_max_width(720.0);
                    if online.is_some()
                        && session.as_ref().is_some_and(|s| !s.game.is_over())
                        && big_button(ui, lang.t("net.back_to_game"), 320.0).clicked()
                    {
                        next.set(Screen::Playing);
                    }
                    let connected = net.is_active();
                    ui.add_space(6.0);
                    ui.label(lang.t("net.server"));
                    ui.add_enabled_ui(!connected, |ui| {
                        ui.add(egui::TextEdit::singleline(&mut fields.server).desired_width(360.0));
                        ui.label(lang.t("net.nickname"));
                        ui.add(
                            egui::TextEdit::singleline(&mut fields.nickname)
                                .desired_width(240.0)
                                .char_limit(ludus_protocol::NICKNAME_MAX_CHARS),
                        );
                    });
                    ui.horizontal_wrapped(|ui| {
                        if !connected {
                            if ui.add_sized([180.0, 44.0], egui::Button::new(lang.t("net.connect"))).clicked()
                            {
                                config.server = fields.server.trim().to_string();
                                config.nickname = fields.nickname.trim().to_string();
                                let server = config.server.clone();
                                net.connect(&server, &config);
                            }
                        } else if ui
                            .add_sized([180.0, 44.0], egui::Button::new(lang.t("net.disconnect")))
                            .clicked()
                        {
                            net.disconnect();
                        }
                    });
                    #[cfg(not(target_arch = "wasm32"))]
                    crate::host::host_section(ui, lang, &mut host, &mut net, &mut config, &mut fields.server);
                    if net.phase != Phase::SignedIn {
                        return;
                    }
                    ui.separator();
                    lobby_section(ui, lang, &mut net, &mut config, &mut fields.code);
                });
            });
        });
    });
    Ok(())
}

fn clock_label(lang: Lang, clock: Option<ClockSpec>) -> String {
    match clock {
        Some(c) => format!("{}+{}", c.initial_ms / 60_000, c.increment_ms / 1000),
        None => lang.t("net.no_clock").to_string(),
    }
}

fn lobby_section(ui: &mut egui::Ui, lang: Lang, net: &mut Net, config: &mut OnlineConfig, code: &mut String) {
    if let Some(waiting) = net.waiting.clone() {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            match &waiting {
                Waiting::Room { code, variant, public } => {
                    ui.label(fill(lang.t("net.room_waiting"), &[lang.t(variant_key(*variant))]));
                    ui.label(egui::RichText::new(code).size(40.0).monospace().strong());
                    ui.label(lang.t(if *public { "net.room_public" } else { "net.room_private" }));
                }
                Waiting::Queue { variant } => {
                    ui.label(fill(lang.t("net.queue_waiting"), &[lang.t(variant_key(*variant))]));
                }
            }
            if ui.add_sized([180.0, 44.0], egui::Button::new(lang.t("net.cancel"))).clicked() {
                net.send(ClientMessage::Leave);
            }
        });
        return;
    }
    let variant = config.variant.unwrap_or(Variant::Alquerque);
    ui.label(egui::RichText::new(lang.t("menu.game")).strong());
    ui.horizontal_wrapped(|ui| {
        for v in Variant::ALL {
            if ui.add(egui::Button::selectable(variant == v, lang.t(variant_key(v)))).clicked() {
                config.variant = Some(v);
            }
        }
    });
    ui.checkbox(&mut config.clock, lang.t("net.with_clock"));
    let clock = config.clock.then_some(ClockSpec::BLITZ);
    ui.horizontal_wrapped(|ui| {
        if ui.add_sized([200.0, 48.0], egui::Button::new(lang.t("net.quick_match"))).clicked() {
            net.send(ClientMessage::QuickMatch { variant, clock });
        }
        if ui.add_sized([200.0, 48.0], egui::Button::new(lang.t("net.create_public"))).clicked() {
            net.send(ClientMessage::CreateRoom { variant, clock, public: true });
        }
        if ui.add_sized([200.0, 48.0], egui::Button::new(lang.t("net.create_private"))).clicked() {
            net.send(ClientMessage::CreateRoom { variant, clock, public: false });
        }
    });
    ui.horizontal(|ui| {
        ui.label(lang.t("net.code"));
        ui.add(egui::TextEdit::singleline(code).desired_width(120.0).char_limit(12));
        if ui.add_enabled(!code.trim().is_empty(), egui::Button::new(lang.t("net.join"))).clicked() {
            net.send(ClientMessage::JoinRoom { code: code.trim().to_string() });
        }
    });
    ui.separator();
    let Some(lobby) = net.lobby.clone() else {
        ui.spinner();
        return;
    };
    ui.label(fill(lang.t("net.online_count"), &[&lobby.online.to_string()]));
    ui.label(egui::RichText::new(fill(lang.t("net.open_rooms"), &[&lobby.total_rooms.to_string()])).strong());
    if lobby.rooms.is_empty() {
        ui.label(egui::RichText::new(lang.t("net.none")).italics());
    }
    for room in &lobby.rooms {
        ui.horizontal(|ui| {
            if ui.button(lang.t("net.join")).clicked() {
                net.send(ClientMessage::JoinRoom { code: room.code.clone() });
            }
            ui.label(format!(
                "{} · {} · {}",
                room.host,
                lang.t(variant_key(room.variant)),
                clock_label(lang, room.clock)
            ));
        });
    }
    ui.add_space(6.0);
    ui.label(egui::RichText::new(fill(lang.t("net.live_games"), &[&lobby.total_games.to_string()])).strong());
    if lobby.games.is_empty() {
        ui.label(egui::RichText::new(lang.t("net.none")).italics());
    }
    for g in &lobby.games {
        ui.horizontal(|ui| {
            if ui.button(lang.t("net.watch")).clicked() {
                net.send(ClientMessage::Watch { game: g.game });
            }
            ui.label(format!(
                "{} – {} · {} · {} · {}",
                g.players[0],
                g.players[1],
                lang.t(variant_key(g.variant)),
                fill(lang.t("net.plies"), &[&g.ply.to_string()]),
                fill(lang.t("net.spectators"), &[&g.spectators.to_string()]),
            ));
        });
    }
}

/// The online part of the game screen's panel: players, clocks, connection, and for spectators
/// the proposals and the crowd's verdict.
pub fn game_panel(
    ui: &mut egui::Ui,
    lang: Lang,
    net: &Net,
    online: &OnlineGame,
    session: &Session,
    now: f64,
) {
    let variant = session.game.variant();
    let to_move = (!session.game.is_over()).then(|| session.game.side_to_move());
    for side in [Side::First, Side::Second] {
        let info = &online.players[side.index()];
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
            let dot =
                if info.connected { egui::Color32::from_rgb(110, 200, 110) } else { egui::Color32::GRAY };
            ui.painter().circle_filled(rect.center(), 5.0, dot);
            let mut name = format!("{} ({})", info.nickname, side_name(lang, variant, side));
            if online.local_side() == Some(side) {
                name = fill(lang.t("net.you"), &[&name]);
            }
            let text = egui::RichText::new(name);
            ui.label(if to_move == Some(side) { text.strong() } else { text });
            if let Some(ms) = online.remaining_ms(side, now) {
                let t = egui::RichText::new(clock_text(ms)).monospace().size(18.0);
                let t = if ms < 20_000 { t.color(egui::Color32::from_rgb(230, 110, 100)) } else { t };
                ui.label(if to_move == Some(side) { t.strong() } else { t });
            }
        });
        if !info.connected
            && let Some(until) = online.hold_until[side.index()]
        {
            let left = ((until - now).max(0.0) * 1000.0) as u64;
            ui.label(
                egui::RichText::new(fill(lang.t("net.opponent_away"), &[&info.nickname, &clock_text(left)]))
                    .color(egui::Color32::from_rgb(230, 190, 90)),
            );
        }
    }
    ui.label(fill(lang.t("net.spectators"), &[&online.spectators.to_string()]));
    if net.phase != Phase::SignedIn {
        let (color, text) = phase_text(lang, net);
        ui.label(egui::RichText::new(text).color(color));
    }
    if session.spectating {
        ui.separator();
        ui.label(egui::RichText::new(lang.t("net.watching")).strong());
        if !session.game.is_over() {
            ui.label(lang.t("net.propose_hint"));
        }
        if let Some(mine) = &online.your_proposal {
            ui.label(fill(lang.t("net.your_proposal"), &[mine]));
        }
        for p in online.proposals.iter().take(5) {
            ui.label(fill(lang.t("net.proposal"), &[&p.mv, &p.count.to_string()]));
        }
        if let Some((played, verdict)) = &online.verdict {
            let key = if verdict.guessed { "net.crowd_guessed" } else { "net.crowd_missed" };
            ui.label(
                egui::RichText::new(fill(lang.t(key), &[played, &verdict.backers.to_string()]))
                    .color(egui::Color32::from_rgb(230, 200, 120)),
            );
        }
    }
    if session.game.is_over()
        && let Some(archive) = &online.archive
        && !archive.proposals.is_empty()
    {
        ui.separator();
        ui.label(egui::RichText::new(lang.t("net.crowd_record")).strong());
        for ply in archive.proposals.iter().take(40) {
            let best = ply.proposals.first();
            ui.label(
                egui::RichText::new(format!(
                    "{:>3}. {:<10} {}",
                    ply.ply + 1,
                    ply.played,
                    best.map(|b| format!("({} ×{})", b.mv, b.count)).unwrap_or_default()
                ))
                .monospace(),
            );
        }
    }
}

/// Spectators' proposals as ghost moves for the board: each legal proposal with its count.
pub fn ghosts(online: &OnlineGame, session: &Session) -> Vec<(AnyMove, u32)> {
    if !session.spectating || session.game.is_over() {
        return Vec::new();
    }
    let pos = session.game.position();
    online.proposals.iter().filter_map(|p| pos.parse_move(&p.mv).ok().map(|m| (m, p.count))).take(6).collect()
}

fn update_ghosts(
    online: Option<Res<OnlineGame>>,
    session: Option<Res<Session>>,
    mut view: ResMut<crate::board::BoardView>,
) {
    let ghosts = match (&online, &session) {
        (Some(o), Some(s)) => ghosts(o, s),
        _ => Vec::new(),
    };
    if view.ghosts != ghosts {
        view.ghosts = ghosts;
    }
}

fn clear_online_game(mut commands: Commands, session: Option<Res<Session>>) {
    if session.is_none_or(|s| !s.seats.is_online()) {
        commands.remove_resource::<OnlineGame>();
    }
}

/// The connection and the link between the session and the server, without any screen (the
/// game adds [`plugin`]; tests run this one headless).
pub fn net_plugin(app: &mut App) {
    app.init_resource::<Net>()
        .insert_resource(OnlineConfig::load())
        .add_systems(Update, (auto_online, poll_net).chain().in_set(crate::AppSet::Input))
        .add_systems(
            Update,
            send_commands.in_set(crate::AppSet::Apply).before(crate::session::apply_commands),
        )
        .add_systems(Last, (save_config, wake_while_connected));
}

/// Online play: [`net_plugin`], the "Play online" screen and the proposals on the board.
pub(crate) fn plugin(app: &mut App) {
    app.add_plugins(net_plugin)
        .init_resource::<Fields>()
        .add_systems(Update, update_ghosts.in_set(crate::AppSet::View))
        .add_systems(OnEnter(Screen::Title), clear_online_game)
        .add_systems(EguiPrimaryContextPass, online_screen.run_if(in_state(Screen::Online)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn web_addresses() {
        assert_eq!(web_url("example.org").unwrap(), "ws://example.org:5001");
        assert_eq!(web_url("ws://10.0.0.2:7000").unwrap(), "ws://10.0.0.2:7000");
        assert_eq!(web_url("https://example.org/ludus").unwrap(), "wss://example.org/ludus");
        assert_eq!(web_url("wss://example.org").unwrap(), "wss://example.org");
        assert_eq!(web_url("[::1]:9").unwrap(), "ws://[::1]:9");
        assert!(web_url("").is_err());
        assert!(web_url("a b").is_err());
    }

    #[test]
    fn ports() {
        assert!(has_port("a:1"));
        assert!(!has_port("a"));
        assert!(!has_port("::1"));
        assert!(has_port("[::1]:5000"));
        assert!(!has_port("a:x"));
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn native_addresses() {
        use ludus_protocol::client::Transport;
        let c = client_config("127.0.0.1").unwrap();
        assert_eq!(c.server.port(), DEFAULT_UDP_PORT);
        assert_eq!(c.transport, Transport::Udp);
        let c = client_config("ws://127.0.0.1:6000").unwrap();
        assert_eq!((c.server.port(), c.transport), (6000, Transport::WebSocket));
        assert!(client_config("wss://example.org").is_err());
        assert!(client_config("").is_err());
        assert!(client_config("no such host.invalid").is_err());
    }

    #[test]
    fn clocks_read_as_minutes() {
        assert_eq!(clock_text(300_000), "5:00");
        assert_eq!(clock_text(61_001), "1:02");
        assert_eq!(clock_text(0), "0:00");
    }
}
