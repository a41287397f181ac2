//! The client's session, without I/O: what to do when the connect token is refused, the link
//! drops, the server speaks (welcome, another version, an expired credential, a redirect) or time
//! passes. The plain [`super::Client`] and the game both drive one [`Session`] and carry out its
//! [`Action`]s with their own links, so that signing in, redirects and reconnection behave the
//! same everywhere.
//!
//! Time is whatever monotonic clock the caller reads, as a [`Duration`] since a fixed origin of
//! its choice (a browser has no `std::time::Instant`).

use super::{ClientConfig, TokenFailure, hello};
use crate::{ClientMessage, ErrorCode, PlayerId, ServerMessage, SessionToken};
use std::time::Duration;

/// How long a redirected client waits to be welcomed by the other node before it goes back to
/// the node that sent it (a node that lost its database cannot welcome anyone).
pub const REDIRECT_WELCOME_TIMEOUT: Duration = Duration::from_secs(3);

/// How long a client waits before going back to the node that redirected it, when the node it
/// was sent to cannot be reached.
pub const REDIRECT_RETRY: Duration = Duration::from_millis(500);

/// The longest wait between two reconnection attempts ([`Retry::Backoff`]).
pub const MAX_RETRY: Duration = Duration::from_secs(8);

/// What a session does when the link drops after it was signed in once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retry {
    /// Nothing: the session ends ([`Phase::Failed`]); its owner may [`Session::reconnect`].
    Never,
    /// Connect again to the server as it was given, after 1, 2, 4, 8, 8, … seconds.
    Backoff,
}

/// Where the session stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Not started, or closed by its owner.
    Closed,
    /// Asking for a connect token, connecting, or waiting for the welcome.
    Connecting,
    /// Welcomed by the server as this player.
    SignedIn(PlayerId),
    /// The link dropped after a sign-in: this attempt (from 1) is made or waited for.
    Reconnecting(u32),
    /// Over, for this reason (until the owner starts again).
    Failed(Failure),
}

/// Why a session ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Nobody answered, or the connection could not be set up (the system's reason, in English).
    Unreachable(String),
    /// The token endpoint answered with this HTTP status instead of a token (429: too many
    /// connections or new players from this address; 503: busy), with its words in English.
    Refused(u16, String),
    /// The server speaks another protocol version: its version, and its words.
    Incompatible(u16, String),
}

impl Failure {
    /// The reason in English, for logs (players read their own language's text).
    pub fn reason(&self) -> &str {
        match self {
            Failure::Unreachable(r) | Failure::Refused(_, r) | Failure::Incompatible(_, r) => r,
        }
    }
}

/// What the session asks of the link.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Close the link there is (if any) and open one to `config`: ask for a connect token with
    /// `credential`, then send `send` in order once the link is up (the `Hello` first).
    Open { config: ClientConfig, credential: Option<SessionToken>, send: Vec<ClientMessage> },
    /// Close the link there is, and open none.
    Close,
    /// The link is down; attempt `attempt` opens after `after` (by itself, at a later
    /// [`Session::tick`]).
    RetryIn { attempt: u32, after: Duration },
    /// The session is over: [`Session::phase`] says why.
    GiveUp(Failure),
}

/// A redirect being followed and not yet welcomed.
#[derive(Clone, Debug)]
struct Redirecting {
    /// The node that sent it (where to go back).
    from: ClientConfig,
    /// What to send after the welcome, wherever it comes from.
    then: Option<ClientMessage>,
    /// When it was followed.
    since: Duration,
    /// When to go back to `from` (the other node could not be reached).
    back_at: Option<Duration>,
}

/// One client's session with a service of one or several nodes. See the module documentation.
#[derive(Clone, Debug)]
pub struct Session {
    /// The server as it was given: where every automatic reconnection starts again.
    home: ClientConfig,
    /// The node connected to now (after a redirect, another node of the service).
    config: ClientConfig,
    credential: Option<SessionToken>,
    nickname: Option<String>,
    phase: Phase,
    retry: Retry,
    redirecting: Option<Redirecting>,
    signed_in_once: bool,
    /// When the next reconnection attempt is due.
    retry_at: Option<Duration>,
}

impl Session {
    /// A session with the server `config` names, with its token and nickname; nothing happens
    /// before [`Session::start`].
    pub fn new(config: ClientConfig, retry: Retry) -> Session {
        Session {
            credential: config.token.clone(),
            nickname: config.nickname.clone(),
            home: config.clone(),
            config,
            phase: Phase::Closed,
            retry,
            redirecting: None,
            signed_in_once: false,
            retry_at: None,
        }
    }

    /// Connects to the server as it was given.
    pub fn start(&mut self) -> Vec<Action> {
        self.redirecting = None;
        self.retry_at = None;
        self.config = self.home.clone();
        self.phase = Phase::Connecting;
        vec![self.open(None)]
    }

    /// Connects again to the node of now with the credential received so far (to take back the
    /// same player and seats); a redirect being followed is dropped.
    pub fn reconnect(&mut self) -> Vec<Action> {
        self.redirecting = None;
        self.retry_at = None;
        self.phase = Phase::Connecting;
        vec![self.open(None)]
    }

    /// The owner closes the session (the server holds any seat for a while).
    pub fn close(&mut self) -> Vec<Action> {
        self.redirecting = None;
        self.retry_at = None;
        self.phase = Phase::Closed;
        vec![Action::Close]
    }

    /// The connect token did not come.
    pub fn token_refused(&mut self, failure: TokenFailure, now: Duration) -> Vec<Action> {
        match failure.server_version {
            // Another protocol version: as if the server had said it over netcode.
            Some(version) => self.fail(Failure::Incompatible(version, failure.reason)),
            None => self.link_down(failure.reason, failure.status, now),
        }
    }

    /// The open link dropped (netcode gave up, or the server closed it), for this reason.
    pub fn link_lost(&mut self, reason: String, now: Duration) -> Vec<Action> {
        self.link_down(reason, None, now)
    }

    /// A message from the server, in the order they came.
    pub fn message(&mut self, message: &ServerMessage, now: Duration) -> Vec<Action> {
        match message {
            ServerMessage::Welcome { player, nickname, token, .. } => {
                self.credential = Some(token.clone());
                self.nickname = Some(nickname.clone());
                self.phase = Phase::SignedIn(*player);
                self.redirecting = None;
                self.retry_at = None;
                self.signed_in_once = true;
                Vec::new()
            }
            ServerMessage::NicknameSet { nickname } => {
                self.nickname = Some(nickname.clone());
                Vec::new()
            }
            ServerMessage::Incompatible { server_version, message } => {
                let mut actions = vec![Action::Close];
                actions.extend(self.fail(Failure::Incompatible(*server_version, message.clone())));
                actions
            }
            ServerMessage::Error { code: ErrorCode::SessionExpired, .. } => {
                // An unknown or expired credential: start over as a new player, where the
                // server was given.
                self.credential = None;
                self.start()
            }
            ServerMessage::Redirect(r) => {
                // No address for this transport (or none that resolves), or a downgrade from
                // https: stay where we are.
                let Some(next) = self.config.redirected(r) else {
                    return Vec::new();
                };
                let from = match self.redirecting.take() {
                    Some(earlier) => earlier.from,
                    None => self.config.clone(),
                };
                self.config = next;
                self.redirecting =
                    Some(Redirecting { from, then: r.then.clone(), since: now, back_at: None });
                self.phase = Phase::Connecting;
                self.retry_at = None;
                vec![self.open(r.then.clone())]
            }
            _ => Vec::new(),
        }
    }

    /// Time passed: a reconnection or a return from a failed redirect may be due.
    pub fn tick(&mut self, now: Duration) -> Vec<Action> {
        if let Some(r) = &mut self.redirecting {
            match r.back_at {
                None if now.saturating_sub(r.since) >= REDIRECT_WELCOME_TIMEOUT => r.back_at = Some(now),
                _ => {}
            }
            if r.back_at.is_some_and(|at| now >= at) {
                // Not welcomed there (in time, or at all): back to the node that sent us.
                let Some(r) = self.redirecting.take() else { return Vec::new() };
                self.config = r.from;
                self.phase = Phase::Connecting;
                return vec![self.open(r.then)];
            }
            return Vec::new();
        }
        match self.retry_at {
            Some(at) if now >= at => {
                self.retry_at = None;
                self.config = self.home.clone();
                vec![self.open(None)]
            }
            _ => Vec::new(),
        }
    }

    /// The link to open now: the `Hello` first, then `then`.
    fn open(&self, then: Option<ClientMessage>) -> Action {
        let mut send = vec![hello(&self.config, self.nickname.clone())];
        send.extend(then);
        Action::Open { config: self.config.clone(), credential: self.credential.clone(), send }
    }

    fn fail(&mut self, failure: Failure) -> Vec<Action> {
        self.redirecting = None;
        self.retry_at = None;
        self.phase = Phase::Failed(failure.clone());
        vec![Action::GiveUp(failure)]
    }

    /// The link is down (`status`: the token endpoint's refusal, when it answered so).
    fn link_down(&mut self, reason: String, status: Option<u16>, now: Duration) -> Vec<Action> {
        if matches!(self.phase, Phase::Closed | Phase::Failed(_)) {
            return Vec::new();
        }
        if let Some(r) = &mut self.redirecting {
            // The node we were sent to cannot be reached: back to the one that sent us soon.
            if r.back_at.is_none() {
                r.back_at = Some(now + REDIRECT_RETRY);
            }
            return vec![Action::Close];
        }
        if self.signed_in_once && self.retry == Retry::Backoff {
            if self.retry_at.is_some() {
                return Vec::new();
            }
            let attempt = match self.phase {
                Phase::Reconnecting(n) => n + 1,
                _ => 1,
            };
            let after = Duration::from_millis(500 << attempt.min(5)).min(MAX_RETRY);
            self.phase = Phase::Reconnecting(attempt);
            self.retry_at = Some(now + after);
            return vec![Action::Close, Action::RetryIn { attempt, after }];
        }
        let mut actions = vec![Action::Close];
        actions.extend(self.fail(match status {
            Some(status) => Failure::Refused(status, reason),
            None => Failure::Unreachable(reason),
        }));
        actions
    }

    /// Where the session stands.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The node connected to now (a redirect changes it).
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// The session credential (from the configuration, then from each welcome).
    pub fn credential(&self) -> Option<&SessionToken> {
        self.credential.as_ref()
    }

    /// The nickname the server confirmed (or the one asked for, before that).
    pub fn nickname(&self) -> Option<&str> {
        self.nickname.as_deref()
    }

    /// Whether a redirect is being followed and not welcomed yet (the link may be down meanwhile,
    /// waiting to go back to the node that sent it).
    pub fn is_redirecting(&self) -> bool {
        self.redirecting.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::Transport;
    use crate::{Hello, Redirect};

    const S: Duration = Duration::from_secs(1);

    fn config(port: u16) -> ClientConfig {
        ClientConfig::new(([127, 0, 0, 1], port).into(), Transport::Udp).nickname("Ann")
    }

    fn welcome(player: u64, token: &str) -> ServerMessage {
        ServerMessage::Welcome {
            player: PlayerId(player),
            nickname: "Ann".into(),
            token: SessionToken(token.into()),
            resumed: true,
        }
    }

    fn redirect(port: u16, then: Option<ClientMessage>) -> ServerMessage {
        ServerMessage::Redirect(Redirect {
            node: "b".into(),
            udp: Some(format!("127.0.0.1:{port}")),
            ws: None,
            http: Some(format!("http://127.0.0.1:{port}")),
            then,
        })
    }

    /// The node an action opens, with the credential and the messages.
    fn opened(actions: &[Action]) -> (u16, Option<String>, Vec<ClientMessage>) {
        let open = actions.iter().find_map(|a| match a {
            Action::Open { config, credential, send } => {
                Some((config.server.port(), credential.as_ref().map(|c| c.0.clone()), send.clone()))
            }
            _ => None,
        });
        open.unwrap_or_else(|| panic!("no link opened: {actions:?}"))
    }

    fn is_hello(m: &ClientMessage) -> bool {
        matches!(m, ClientMessage::Hello(Hello { nickname: Some(n), .. }) if n == "Ann")
    }

    #[test]
    fn a_start_opens_the_given_server_with_the_hello_first() {
        let mut s = Session::new(config(5000).token(Some(SessionToken("t0".into()))), Retry::Never);
        assert_eq!(s.phase(), &Phase::Closed);
        let (port, credential, send) = opened(&s.start());
        assert_eq!((port, credential.as_deref()), (5000, Some("t0")));
        assert!(send.len() == 1 && is_hello(&send[0]), "{send:?}");
        assert_eq!(s.phase(), &Phase::Connecting);
        assert!(s.message(&welcome(7, "t1"), S).is_empty());
        assert_eq!(s.phase(), &Phase::SignedIn(PlayerId(7)));
        assert_eq!(s.credential().map(|c| c.0.as_str()), Some("t1"));
    }

    #[test]
    fn a_refused_token_before_any_sign_in_gives_up_with_the_status() {
        let mut s = Session::new(config(5000), Retry::Backoff);
        s.start();
        let failure = TokenFailure { reason: "too many".into(), status: Some(429), server_version: None };
        let actions = s.token_refused(failure, S);
        assert!(actions.contains(&Action::GiveUp(Failure::Refused(429, "too many".into()))), "{actions:?}");
        assert_eq!(s.phase(), &Phase::Failed(Failure::Refused(429, "too many".into())));
        // Nothing more happens by itself.
        assert!(s.tick(100 * S).is_empty());
        assert!(s.link_lost("late".into(), 101 * S).is_empty());
    }

    #[test]
    fn another_protocol_version_ends_the_session_from_the_endpoint_or_the_server() {
        let mut s = Session::new(config(5000), Retry::Backoff);
        s.start();
        let failure = TokenFailure { reason: "old".into(), status: Some(426), server_version: Some(99) };
        assert!(
            s.token_refused(failure, S).contains(&Action::GiveUp(Failure::Incompatible(99, "old".into())))
        );
        let mut s = Session::new(config(5000), Retry::Backoff);
        s.start();
        s.message(&welcome(1, "t"), S);
        let said = ServerMessage::Incompatible { server_version: 98, message: "update".into() };
        let actions = s.message(&said, 2 * S);
        assert_eq!(actions[0], Action::Close);
        assert_eq!(s.phase(), &Phase::Failed(Failure::Incompatible(98, "update".into())));
        // Signed in once, but no reconnection after that.
        assert!(s.link_lost("closed".into(), 3 * S).is_empty());
        assert!(s.tick(60 * S).is_empty());
    }

    #[test]
    fn a_drop_after_a_sign_in_reconnects_home_with_a_growing_wait() {
        let mut s = Session::new(config(5000), Retry::Backoff);
        s.start();
        s.message(&welcome(3, "t1"), S);
        let mut now = 10 * S;
        let mut waits = Vec::new();
        for attempt in 1..=6 {
            let actions = s.link_lost("timeout".into(), now);
            let Some(Action::RetryIn { attempt: a, after }) = actions.last().cloned() else {
                panic!("no retry: {actions:?}");
            };
            assert_eq!((a, s.phase()), (attempt, &Phase::Reconnecting(attempt)));
            assert!(s.tick(now + after - Duration::from_millis(1)).is_empty(), "too early");
            let (port, credential, _) = opened(&s.tick(now + after));
            assert_eq!((port, credential.as_deref()), (5000, Some("t1")));
            waits.push(after.as_millis());
            now += after + S;
        }
        assert_eq!(waits, [1000, 2000, 4000, 8000, 8000, 8000]);
        s.message(&welcome(3, "t2"), now);
        assert_eq!(s.phase(), &Phase::SignedIn(PlayerId(3)));
        let Some(Action::RetryIn { attempt, .. }) = s.link_lost("again".into(), now).last().cloned() else {
            panic!("no retry");
        };
        assert_eq!(attempt, 1, "a sign-in starts the count again");
    }

    #[test]
    fn without_retries_a_drop_ends_the_session() {
        let mut s = Session::new(config(5000), Retry::Never);
        s.start();
        s.message(&welcome(3, "t1"), S);
        let actions = s.link_lost("timeout".into(), 2 * S);
        assert!(actions.contains(&Action::GiveUp(Failure::Unreachable("timeout".into()))));
        let (port, credential, _) = opened(&s.reconnect());
        assert_eq!((port, credential.as_deref()), (5000, Some("t1")));
    }

    #[test]
    fn an_expired_credential_starts_over_as_a_new_player() {
        let mut s = Session::new(config(5000).token(Some(SessionToken("old".into()))), Retry::Never);
        s.start();
        let expired = ServerMessage::Error { code: ErrorCode::SessionExpired, message: "who?".into() };
        let (port, credential, send) = opened(&s.message(&expired, S));
        assert_eq!((port, credential), (5000, None));
        assert!(is_hello(&send[0]));
    }

    #[test]
    fn a_redirect_opens_the_other_node_and_sends_what_it_carries_after_the_hello() {
        let mut s = Session::new(config(5000), Retry::Backoff);
        s.start();
        s.message(&welcome(3, "t1"), S);
        let (port, credential, send) = opened(&s.message(&redirect(6000, Some(ClientMessage::Lobby)), S));
        assert_eq!((port, credential.as_deref()), (6000, Some("t1")));
        assert!(is_hello(&send[0]) && send[1] == ClientMessage::Lobby, "{send:?}");
        assert!(s.is_redirecting());
        assert!(s.message(&welcome(3, "t2"), 2 * S).is_empty());
        assert!(!s.is_redirecting());
        assert_eq!(s.config().server.port(), 6000, "welcomed there: it stays");
    }

    #[test]
    fn an_unreachable_redirect_goes_back_to_the_node_that_sent_it() {
        let mut s = Session::new(config(5000), Retry::Backoff);
        s.start();
        s.message(&welcome(3, "t1"), S);
        s.message(&redirect(6000, Some(ClientMessage::Lobby)), S);
        assert_eq!(s.link_lost("refused".into(), 2 * S), [Action::Close]);
        assert!(s.is_redirecting(), "no reconnection attempt while a redirect is followed");
        assert!(s.tick(2 * S + REDIRECT_RETRY - Duration::from_millis(1)).is_empty());
        let (port, _, send) = opened(&s.tick(2 * S + REDIRECT_RETRY));
        assert_eq!(port, 5000);
        assert_eq!(send[1], ClientMessage::Lobby, "what the redirect carried goes back too");
        assert!(!s.is_redirecting());
    }

    #[test]
    fn a_redirect_not_welcomed_in_time_goes_back_at_once() {
        let mut s = Session::new(config(5000), Retry::Never);
        s.start();
        s.message(&redirect(6000, None), S);
        assert!(s.tick(S + REDIRECT_WELCOME_TIMEOUT - Duration::from_millis(1)).is_empty());
        let (port, _, _) = opened(&s.tick(S + REDIRECT_WELCOME_TIMEOUT));
        assert_eq!(port, 5000);
    }

    #[test]
    fn a_redirect_during_a_redirect_goes_back_to_the_first_node() {
        let mut s = Session::new(config(5000), Retry::Never);
        s.start();
        s.message(&redirect(6000, None), S);
        s.message(&redirect(7000, None), S);
        assert_eq!(s.config().server.port(), 7000);
        s.link_lost("refused".into(), S);
        let (port, _, _) = opened(&s.tick(S + REDIRECT_RETRY));
        assert_eq!(port, 5000);
    }

    #[test]
    fn a_redirect_without_an_address_for_this_transport_is_not_followed() {
        let mut s = Session::new(config(5000), Retry::Never);
        s.start();
        let r = ServerMessage::Redirect(Redirect {
            node: "b".into(),
            udp: None,
            ws: Some("ws://127.0.0.1:6001".into()),
            http: None,
            then: None,
        });
        assert!(s.message(&r, S).is_empty());
        assert!(!s.is_redirecting());
        assert_eq!(s.config().server.port(), 5000);
    }

    #[test]
    fn a_redirect_from_https_to_plain_http_is_not_followed() {
        let mut secure = config(5000);
        secure.api = Some("https://127.0.0.1:5000".into());
        let mut s = Session::new(secure, Retry::Never);
        s.start();
        s.message(&welcome(3, "t1"), S);
        assert!(s.message(&redirect(6000, None), S).is_empty(), "the credential never goes over http");
        assert!(!s.is_redirecting());
        assert_eq!((s.config().server.port(), s.phase()), (5000, &Phase::SignedIn(PlayerId(3))));
    }

    #[test]
    fn a_closed_session_stays_closed() {
        let mut s = Session::new(config(5000), Retry::Backoff);
        s.start();
        s.message(&welcome(3, "t1"), S);
        assert_eq!(s.close(), [Action::Close]);
        assert!(s.link_lost("closed".into(), 2 * S).is_empty());
        assert!(s.tick(100 * S).is_empty());
        assert_eq!(s.phase(), &Phase::Closed);
    }
}
