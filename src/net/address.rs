//! Server addresses: what the player types (`host[:port]`, `ws://host:port`, `wss://...`) as a
//! connection configuration, and the server offered when nothing was typed.

#[cfg(not(target_arch = "wasm32"))]
use ludus_protocol::DEFAULT_UDP_PORT;
use ludus_protocol::DEFAULT_WS_PORT;
use ludus_protocol::client::ClientConfig;

/// Why a typed server address cannot be used; shown in the player's language
/// ([`AddressError::text`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddressError {
    /// Nothing was typed.
    Empty,
    /// `wss://` typed in the desktop game (it speaks UDP or plain WebSocket).
    SecureWebSocketOnDesktop,
    /// Not the shape of an address (spaces, no host): what was typed.
    Malformed(String),
    /// The host name does not resolve: the host (the system's reason goes to the log).
    Unresolved(String),
}

impl AddressError {
    /// What went wrong, in `lang`.
    pub fn text(&self, lang: crate::i18n::Lang) -> String {
        match self {
            AddressError::Empty => lang.t("net-address-empty").to_string(),
            AddressError::SecureWebSocketOnDesktop => lang.t("net-address-wss-on-desktop").to_string(),
            AddressError::Malformed(text) => lang.fmt("net-address-malformed", [("address", text.into())]),
            AddressError::Unresolved(host) => lang.fmt("net-address-unresolved", [("host", host.into())]),
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

/// The link that accepts the challenge `code` on `server` (the address the player connected
/// with): in the browser, this page's address with `?challenge=CODE&server=…`; on the desktop,
/// the command that opens it.
pub fn challenge_link(code: &str, server: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        let page = web_sys::window()
            .and_then(|w| Some(format!("{}{}", w.location().origin().ok()?, w.location().pathname().ok()?)))
            .unwrap_or_default();
        let server = percent_encoding::utf8_percent_encode(server, percent_encoding::NON_ALPHANUMERIC);
        format!("{page}?challenge={code}&server={server}")
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        format!("ludus --online challenge:{code} --server {server}")
    }
}

/// Turns what the player typed into a connection configuration. Natively: `host[:port]` over
/// UDP (port 5000 by default) or `ws://host[:port]` over WebSocket (5001); in the browser:
/// `ws://` or `wss://` URLs, or `host[:port]` (WebSocket, 5001 by default).
pub fn client_config(text: &str) -> Result<ClientConfig, AddressError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(AddressError::Empty);
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
        // `http://host:port` or `https://host:port`: UDP to that port, the connect token from
        // that URL (https when the server has a certificate).
        let scheme = ["http://", "https://"].into_iter().find(|p| text.starts_with(p));
        let (rest, transport, port) = if let Some(prefix) = scheme {
            (&text[prefix.len()..], Transport::Udp, DEFAULT_UDP_PORT)
        } else if let Some(rest) = text.strip_prefix("ws://") {
            (rest, Transport::WebSocket, DEFAULT_WS_PORT)
        } else if text.starts_with("wss://") {
            return Err(AddressError::SecureWebSocketOnDesktop);
        } else if let Some(rest) = text.strip_prefix("udp://") {
            (rest, Transport::Udp, DEFAULT_UDP_PORT)
        } else {
            (text, Transport::Udp, DEFAULT_UDP_PORT)
        };
        let host = rest.split('/').next().unwrap_or_default();
        if host.is_empty() || host.chars().any(char::is_whitespace) {
            return Err(AddressError::Malformed(text.to_string()));
        }
        let with_port = if has_port(host) { host.to_string() } else { format!("{host}:{port}") };
        let addr = with_port
            .to_socket_addrs()
            .map_err(|e| {
                bevy::log::info!("{host} does not resolve: {e}");
                AddressError::Unresolved(host.to_string())
            })?
            .min_by_key(|a| a.is_ipv6())
            .ok_or_else(|| AddressError::Unresolved(host.to_string()))?;
        let config = ClientConfig::new(addr, transport);
        Ok(match scheme {
            Some(prefix) => config.api(format!("{prefix}{with_port}")),
            None => config,
        })
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
pub fn web_url(text: &str) -> Result<String, AddressError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(AddressError::Empty);
    }
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
        return Err(AddressError::Malformed(text.to_string()));
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
        assert_eq!(web_url(""), Err(AddressError::Empty));
        assert_eq!(web_url("ws://"), Err(AddressError::Malformed("ws://".to_string())));
        assert_eq!(web_url("a b"), Err(AddressError::Malformed("a b".to_string())));
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
        assert_eq!(client_config("wss://example.org").err(), Some(AddressError::SecureWebSocketOnDesktop));
        // The connect token from http(s)://host:port, the game over UDP to that port.
        let c = client_config("https://127.0.0.1:7000").unwrap();
        assert_eq!((c.server.port(), c.transport), (7000, Transport::Udp));
        assert_eq!(c.connect_url(), "https://127.0.0.1:7000/api/connect");
        assert_eq!(client_config("127.0.0.1").unwrap().connect_url(), "http://127.0.0.1:5000/api/connect");
        assert_eq!(client_config(" ").err(), Some(AddressError::Empty));
        assert_eq!(client_config("a b").err(), Some(AddressError::Malformed("a b".to_string())));
        assert!(
            matches!(client_config("nosuchhost.invalid"), Err(AddressError::Unresolved(h)) if h == "nosuchhost.invalid")
        );
    }
}
