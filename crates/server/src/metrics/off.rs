//! The server's metrics in a build without the `metrics` feature (the game's LAN host): the
//! same calls as `metrics.rs`, counting nothing. A server asked for `--metrics` refuses to
//! start ([`crate::ServerError::Unsupported`]), so [`Metrics::render`] is never served.

/// The metrics of one server: none in this build.
#[derive(Clone, Default)]
pub struct Metrics;

impl Metrics {
    /// Nothing to register.
    pub fn new() -> Metrics {
        Metrics
    }

    /// Moves accepted.
    pub fn moves_accepted(&self, _count: u64) {}

    /// One move's time from its receipt to its broadcast.
    pub fn move_round_trip(&self, _seconds: f64) {}

    /// The clients connected now, by transport.
    pub fn set_clients(&self, _udp: usize, _websocket: usize) {}

    /// The live games now.
    pub fn set_games_live(&self, _count: usize) {}

    /// Brings the games started and finished up to the core's totals.
    pub fn games_to(&self, _started: u64, _finished: u64) {}

    /// `count` more refusals of `kind`.
    pub fn refused(&self, _kind: &str, _count: u64) {}

    /// An HTTP connection closed early, for `reason`.
    pub fn http_closed(&self, _reason: &str) {}

    /// The transport's counters of network faults.
    pub fn network_faults_from(&self, _h: &crate::transport::HandshakeStats) {}

    /// One request of the Alquerque oracle.
    pub fn oracle_request(&self, _outcome: &str) {}

    /// The time an oracle answer took to compute.
    pub fn oracle_compute(&self, _seconds: f64) {}

    /// Nothing: this build serves no `/metrics`.
    pub fn render(&self) -> String {
        String::new()
    }
}
