//! The link: renet2 and its netcode transport opened with a connect token, over UDP or a
//! WebSocket natively and a WebSocket in a browser.

use super::{ClientConfig, ClientError, Transport};
#[cfg(not(target_family = "wasm"))]
use crate::ws::WsClientSocket;
use crate::{ClientMessage, Hello, connection_config};
use renet2::RenetClient;
#[cfg(target_family = "wasm")]
use renet2_netcode::NetcodeTransportError;
use renet2_netcode::{ClientAuthentication, ConnectToken, NetcodeClientTransport};
use std::net::SocketAddr;
use std::time::Duration;
use web_time::{SystemTime, UNIX_EPOCH};

fn unix_now() -> Duration {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default()
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
pub(super) fn new_transport(
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
