//! "Host on this network" (desktop only): the dedicated server's own code running inside the
//! game, the addresses other devices type to join, and UDP broadcast announcements so that
//! other Ludus games on the network list it without typing anything.

use crate::i18n::Lang;
use crate::i18n::system::SystemError;
use bevy::prelude::*;
use ludus_protocol::{DEFAULT_UDP_PORT, DEFAULT_WS_PORT};
use ludus_server::{ServerConfig, ServerError, ServerHandle};
use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The UDP port of the announcements.
pub const ANNOUNCE_PORT: u16 = 5002;
/// What an announcement starts with (then the UDP port, the WebSocket port and the host's name).
const ANNOUNCE_TAG: &str = "LUDUS-LAN 1";
/// How often a host announces itself.
const ANNOUNCE_EVERY: Duration = Duration::from_secs(2);
/// A host not heard from for this long leaves the list (seconds).
const FORGET_AFTER_S: f64 = 7.0;

/// Why the server would not start here (its own words go to the log).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostFailure {
    /// A socket or a thread would not start: the system's error.
    System(SystemError),
    /// The server's files in the game's data folder (its database, its key) would not open.
    Data,
    /// Anything else.
    Other,
}

impl HostFailure {
    fn of(error: &ServerError) -> HostFailure {
        match error {
            ServerError::Bind { source, .. } | ServerError::Start { source, .. } => {
                HostFailure::System(SystemError::of(source))
            }
            ServerError::Store(_) | ServerError::Key(_) => HostFailure::Data,
            _ => HostFailure::Other,
        }
    }

    /// What went wrong, in `lang`.
    pub fn text(self, lang: Lang) -> String {
        let why = match self {
            HostFailure::System(e) => e.text(lang),
            HostFailure::Data => lang.t("host-failed-data").to_string(),
            HostFailure::Other => lang.t("system-other").to_string(),
        };
        lang.fmt("host-failed", [("error", why.into())])
    }
}

/// A server hosted by this game, and the servers heard of on the network.
#[derive(Resource, Default)]
pub struct LanHost {
    server: Option<ServerHandle>,
    announcing: Option<Arc<AtomicBool>>,
    /// Why hosting failed, if it did.
    pub error: Option<HostFailure>,
    listener: Option<UdpSocket>,
    listen_tried: bool,
    /// Servers announced on the network: address to type → (host's name, last heard).
    pub found: BTreeMap<String, (String, f64)>,
}

impl LanHost {
    /// Whether this game hosts a server.
    pub fn is_hosting(&self) -> bool {
        self.server.is_some()
    }

    /// The addresses other devices use: `(desktop, browser)`.
    pub fn addresses(&self) -> Option<(String, String)> {
        let server = self.server.as_ref()?;
        let ip = lan_ip().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
        let udp = server.udp_addr().map(|a| a.port()).unwrap_or_default();
        let ws = server.ws_addr().map(|a| a.port()).unwrap_or_default();
        Some((SocketAddr::new(ip, udp).to_string(), format!("ws://{}", SocketAddr::new(ip, ws))))
    }

    /// Starts the server on every interface (ports 5000 and 5001, or free ones when those are
    /// taken) and announces it. Returns the local address to connect to.
    pub fn start(&mut self, name: &str) -> Result<String, HostFailure> {
        self.stop();
        let dir = crate::platform::storage::data_dir().unwrap_or_else(std::env::temp_dir).join("lan-server");
        let any = |port| Some(SocketAddr::from(([0, 0, 0, 0], port)));
        let base = ServerConfig { poll_interval: Duration::from_millis(4), ..ServerConfig::local(dir) };
        let handle = ServerHandle::spawn(ServerConfig {
            udp: any(DEFAULT_UDP_PORT),
            ws: any(DEFAULT_WS_PORT),
            ..base.clone()
        })
        .or_else(|_| ServerHandle::spawn(ServerConfig { udp: any(0), ws: any(0), ..base }))
        .map_err(|e| {
            warn!("cannot host a server here: {e}");
            HostFailure::of(&e)
        })?;
        let udp = handle.udp_addr().map(|a| a.port()).unwrap_or_default();
        let ws = handle.ws_addr().map(|a| a.port()).unwrap_or_default();
        self.server = Some(handle);
        self.announcing = Some(announce(udp, ws, name));
        Ok(format!("127.0.0.1:{udp}"))
    }

    /// Stops hosting (players connected to it are disconnected).
    pub fn stop(&mut self) {
        if let Some(flag) = self.announcing.take() {
            flag.store(true, Ordering::Relaxed);
        }
        if let Some(server) = self.server.take() {
            server.stop();
        }
    }

    /// Reads announcements (listening from the first call on).
    pub fn listen(&mut self, now: f64) {
        if !self.listen_tried {
            self.listen_tried = true;
            self.listener = UdpSocket::bind(("0.0.0.0", ANNOUNCE_PORT))
                .and_then(|s| s.set_nonblocking(true).map(|_| s))
                .map_err(|e| info!("not listening for LAN servers: {e}"))
                .ok();
        }
        let Some(socket) = &self.listener else { return };
        let mut buf = [0u8; 256];
        // Bounded: a flood of packets cannot hold the frame.
        for _ in 0..64 {
            let Ok((len, from)) = socket.recv_from(&mut buf) else { break };
            if let Some((addr, name)) = parse_announcement(&buf[..len], from.ip()) {
                self.found.insert(addr, (name, now));
            }
        }
        self.found.retain(|_, (_, seen)| now - *seen < FORGET_AFTER_S);
    }
}

impl Drop for LanHost {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `LUDUS-LAN 1 <udp port> <ws port> <name>` from `ip` → (`ip:udp`, name).
pub fn parse_announcement(bytes: &[u8], ip: IpAddr) -> Option<(String, String)> {
    let text = std::str::from_utf8(bytes).ok()?;
    let rest = text.strip_prefix(ANNOUNCE_TAG)?.strip_prefix(' ')?;
    let mut parts = rest.splitn(3, ' ');
    let udp: u16 = parts.next()?.parse().ok()?;
    let _ws: u16 = parts.next()?.parse().ok()?;
    let name: String = parts.next().unwrap_or("").chars().filter(|c| !c.is_control()).take(20).collect();
    (udp != 0).then(|| (SocketAddr::new(ip, udp).to_string(), name))
}

/// Broadcasts the server's ports every two seconds until the returned flag is set.
fn announce(udp: u16, ws: u16, name: &str) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let message = format!("{ANNOUNCE_TAG} {udp} {ws} {name}");
    let spawned = std::thread::Builder::new().name("ludus-lan-announce".into()).spawn(move || {
        let Ok(socket) = UdpSocket::bind("0.0.0.0:0") else { return };
        if socket.set_broadcast(true).is_err() {
            return;
        }
        while !flag.load(Ordering::Relaxed) {
            let _ = socket.send_to(message.as_bytes(), ("255.255.255.255", ANNOUNCE_PORT));
            // Also to this computer, where broadcasts may not loop back.
            let _ = socket.send_to(message.as_bytes(), ("127.0.0.1", ANNOUNCE_PORT));
            let mut waited = Duration::ZERO;
            while waited < ANNOUNCE_EVERY && !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                waited += Duration::from_millis(100);
            }
        }
    });
    if let Err(e) = spawned {
        warn!("cannot announce the LAN server: {e}");
    }
    stop
}

/// This computer's address on the local network (the interface of the default route; nothing
/// is sent).
pub fn lan_ip() -> Option<IpAddr> {
    let socket = UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("10.254.254.254:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified()).then_some(ip)
}

/// Hears the servers announced on the network while the online screen shows them.
fn listen(mut host: ResMut<LanHost>, time: Res<Time<Real>>) {
    host.listen(time.elapsed_secs_f64());
}

/// Hosting, and the servers announced on the network (heard while the online screen is up).
pub fn plugin(app: &mut App) {
    app.init_resource::<LanHost>().add_systems(
        Update,
        listen.in_set(crate::app::AppSet::Input).run_if(in_state(crate::app::Screen::Online)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_to_host_is_said_in_the_players_language() {
        let in_use = HostFailure::System(SystemError { kind: std::io::ErrorKind::AddrInUse, code: Some(98) });
        assert_eq!(
            in_use.text(Lang::Vi),
            "Không khởi động được máy chủ trên máy này: cổng này đang được một chương trình khác dùng \
             (mã lỗi hệ thống 98)."
        );
        assert_eq!(
            HostFailure::Data.text(Lang::En),
            "Could not start the server here: the server's files in the game's data folder could not be opened."
        );
        // A configuration the game never makes still reads as the system's error, not as Rust's.
        let odd = ServerError::Config("no transport");
        assert_eq!(HostFailure::of(&odd), HostFailure::Other);
        let bind = ServerError::Bind {
            what: "UDP",
            addr: SocketAddr::from(([127, 0, 0, 1], 5000)),
            source: std::io::Error::from_raw_os_error(98),
        };
        assert!(matches!(HostFailure::of(&bind), HostFailure::System(e) if e.code == Some(98)));
    }

    #[test]
    fn announcements_parse_and_reject_garbage() {
        let ip: IpAddr = "192.168.1.7".parse().unwrap();
        assert_eq!(
            parse_announcement(b"LUDUS-LAN 1 5000 5001 Ann", ip),
            Some(("192.168.1.7:5000".to_string(), "Ann".to_string()))
        );
        assert_eq!(
            parse_announcement(b"LUDUS-LAN 1 5000 5001", ip).map(|x| x.0),
            Some("192.168.1.7:5000".into())
        );
        for bad in
            [&b"LUDUS-LAN 2 5000 5001 x"[..], b"LUDUS-LAN 1 x 5001 y", b"", b"\xff\xfe", b"LUDUS-LAN 1 0 1 z"]
        {
            assert_eq!(parse_announcement(bad, ip), None);
        }
    }
}
