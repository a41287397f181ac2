//! How a client reaches a server: [`Transport`], [`ClientConfig`], and the node a redirect names.

use crate::{CONNECT_PATH, PROTOCOL_VERSION, Redirect, SessionToken};
use std::net::SocketAddr;
use std::time::Duration;

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
#[derive(Clone, Debug, PartialEq, Eq)]
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
        self.api_url(CONNECT_PATH)
    }

    /// The URL of `path` (`/api/...`) on the server's HTTP side.
    pub fn api_url(&self, path: &str) -> String {
        let base = match &self.api {
            Some(api) => api.clone(),
            None => default_api(self),
        };
        format!("{}{path}", base.trim_end_matches('/'))
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

#[cfg(not(target_family = "wasm"))]
pub(super) fn default_api(config: &ClientConfig) -> String {
    format!("http://{}", config.server)
}

/// In a browser: the page's origin when the WebSocket goes to the page's host (the page came
/// from the game server), else that host's HTTP port by convention (`DEFAULT_UDP_PORT`'s
/// number; `https` for `wss://`); the endpoint allows any origin.
#[cfg(target_family = "wasm")]
pub(super) fn default_api(config: &ClientConfig) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Redirect;

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
