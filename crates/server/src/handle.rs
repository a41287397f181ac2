//! A server on its own thread (tests, and the game's "host on this network").

use crate::{Server, ServerConfig, ServerError, Status};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// A server on its own thread; dropping the handle stops it.
pub struct ServerHandle {
    stop: Arc<AtomicBool>,
    status: Arc<Mutex<Status>>,
    thread: Option<JoinHandle<()>>,
    udp_addr: Option<SocketAddr>,
    ws_addr: Option<SocketAddr>,
    http_addr: Option<SocketAddr>,
    metrics_addr: Option<SocketAddr>,
}

impl ServerHandle {
    /// Binds a server and runs it on a new thread.
    pub fn spawn(config: ServerConfig) -> Result<ServerHandle, ServerError> {
        let server = Server::bind(config)?;
        let (udp_addr, ws_addr, http_addr) = (server.udp_addr(), server.ws_addr(), server.http_addr());
        let metrics_addr = server.metrics_addr();
        let stop = Arc::new(AtomicBool::new(false));
        let status = Arc::new(Mutex::new(server.status()));
        let (thread_stop, thread_status) = (stop.clone(), status.clone());
        let thread = std::thread::Builder::new()
            .name("ludus-server".into())
            .spawn(move || server.run(&thread_stop, Some(&thread_status)))
            .map_err(|source| ServerError::Start { what: "the server thread", source })?;
        Ok(ServerHandle { stop, status, thread: Some(thread), udp_addr, ws_addr, http_addr, metrics_addr })
    }

    /// The counters (refreshed every few milliseconds).
    pub fn status(&self) -> Status {
        self.status.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Whether the server thread is still running (it stops only when asked).
    pub fn is_running(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }

    /// The bound UDP address.
    pub fn udp_addr(&self) -> Option<SocketAddr> {
        self.udp_addr
    }

    /// The bound WebSocket address.
    pub fn ws_addr(&self) -> Option<SocketAddr> {
        self.ws_addr
    }

    /// The bound HTTP address (when serving a web directory).
    pub fn http_addr(&self) -> Option<SocketAddr> {
        self.http_addr
    }

    /// The bound address of `/metrics` (`--metrics`).
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_addr
    }

    /// Stops the server and waits for it.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        self.halt();
    }
}
