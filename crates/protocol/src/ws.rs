//! A native WebSocket [`ClientSocket`] speaking renet2_netcode's WebSocket convention: the netcode
//! connection request travels in the URL (`?creq=<percent-encoded bytes>`), then each netcode
//! packet is one binary WebSocket message. renet2's own WebSocket client exists only for the
//! browser; this one lets native clients (tests, bots, a desktop game behind a proxy that passes
//! only HTTP) use the server's WebSocket port.

use renet2_netcode::{ClientSocket, NetcodeTransportError};
use std::io::{self, ErrorKind};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;
use tungstenite::{Message, WebSocket};

/// Connection-request query parameter (renet2_netcode's `HTTP_CONNECT_REQ`).
const CONNECT_REQ: &str = "creq";
/// First byte of a netcode connection request packet.
const CONNECTION_REQUEST_PREFIX: u8 = 0;

#[derive(Debug)]
pub(crate) struct WsClientSocket {
    server: SocketAddr,
    ws: Option<WebSocket<TcpStream>>,
    closed: bool,
    connect_timeout: Duration,
}

impl WsClientSocket {
    pub(crate) fn new(server: SocketAddr, connect_timeout: Duration) -> WsClientSocket {
        WsClientSocket { server, ws: None, closed: false, connect_timeout }
    }

    fn open(&mut self, connect_request: &[u8]) -> io::Result<()> {
        let url = format!("ws://{}/?{CONNECT_REQ}={}", self.server, percent_encode(connect_request));
        let stream = TcpStream::connect_timeout(&self.server, self.connect_timeout)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(self.connect_timeout))?;
        stream.set_write_timeout(Some(self.connect_timeout))?;
        let (ws, _response) = tungstenite::client(url.as_str(), stream)
            .map_err(|e| io::Error::new(ErrorKind::ConnectionRefused, e.to_string()))?;
        ws.get_ref().set_read_timeout(None)?;
        ws.get_ref().set_write_timeout(None)?;
        ws.get_ref().set_nonblocking(true)?;
        self.ws = Some(ws);
        Ok(())
    }
}

fn percent_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 3);
    for &b in bytes {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn would_block(e: &tungstenite::Error) -> bool {
    matches!(e, tungstenite::Error::Io(io) if io.kind() == ErrorKind::WouldBlock)
}

impl ClientSocket for WsClientSocket {
    fn is_encrypted(&self) -> bool {
        false
    }

    fn is_reliable(&self) -> bool {
        true
    }

    fn addr(&self) -> io::Result<SocketAddr> {
        match &self.ws {
            Some(ws) => ws.get_ref().local_addr(),
            None => Err(io::Error::from(ErrorKind::AddrNotAvailable)),
        }
    }

    fn is_closed(&mut self) -> bool {
        self.closed
    }

    fn close(&mut self) {
        if let Some(ws) = &mut self.ws {
            let _ = ws.close(None);
            let _ = ws.flush();
        }
        self.closed = true;
    }

    fn preupdate(&mut self) {}

    fn try_recv(&mut self, buffer: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        if self.closed {
            return Err(io::Error::from(ErrorKind::ConnectionAborted));
        }
        let Some(ws) = &mut self.ws else {
            return Err(io::Error::from(ErrorKind::WouldBlock));
        };
        loop {
            match ws.read() {
                Ok(Message::Binary(data)) => {
                    if data.len() > buffer.len() {
                        continue; // Not a netcode packet: skip it.
                    }
                    buffer[..data.len()].copy_from_slice(&data);
                    return Ok((data.len(), self.server));
                }
                Ok(Message::Close(_)) => {
                    self.closed = true;
                    return Err(io::Error::from(ErrorKind::ConnectionAborted));
                }
                Ok(_) => continue,
                Err(e) if would_block(&e) => return Err(io::Error::from(ErrorKind::WouldBlock)),
                Err(_) => {
                    self.closed = true;
                    return Err(io::Error::from(ErrorKind::ConnectionAborted));
                }
            }
        }
    }

    fn postupdate(&mut self) {
        if let Some(ws) = &mut self.ws {
            match ws.flush() {
                Ok(()) => {}
                Err(e) if would_block(&e) => {}
                Err(_) => self.closed = true,
            }
        }
    }

    fn send(&mut self, addr: SocketAddr, packet: &[u8]) -> Result<(), NetcodeTransportError> {
        if self.closed || addr != self.server {
            return Err(io::Error::from(ErrorKind::ConnectionAborted).into());
        }
        let Some(ws) = &mut self.ws else {
            // The first packet must be the connection request: it opens the WebSocket.
            if packet.first() != Some(&CONNECTION_REQUEST_PREFIX) {
                return Ok(());
            }
            if let Err(e) = self.open(packet) {
                self.closed = true;
                return Err(e.into());
            }
            return Ok(());
        };
        match ws.send(Message::binary(packet.to_vec())) {
            Ok(()) => Ok(()),
            Err(e) if would_block(&e) => Ok(()), // Buffered; flushed in postupdate.
            Err(e) => {
                self.closed = true;
                Err(io::Error::new(ErrorKind::ConnectionAborted, e.to_string()).into())
            }
        }
    }
}
