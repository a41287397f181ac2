//! The server's metrics in the Prometheus text format (`GET /metrics` on the address of
//! `--metrics`, not on the public ports), one registry per server (several servers can run in
//! one process: tests, the game's LAN host). Without the `metrics` feature, `metrics/off.rs`
//! stands in: the same calls, counting nothing.

use prometheus::{
    Encoder, Histogram, HistogramOpts, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry,
};

/// The metrics of one server.
#[derive(Clone)]
pub struct Metrics {
    registry: Registry,
    /// Connected clients by transport (`udp`, `websocket`).
    clients: IntGaugeVec,
    /// Live games.
    games_live: IntGauge,
    /// Moves accepted (a counter: its rate is the moves per second).
    moves: IntCounter,
    /// From a move's receipt to its broadcast, after its durable write, in seconds.
    move_round_trip: Histogram,
    /// Refused requests by kind.
    refusals: IntCounterVec,
    /// Games started and finished.
    games_started: IntCounter,
    /// See `games_started`.
    games_finished: IntCounter,
    /// HTTP connections closed early, by reason (`busy`, `evicted`, `handshake_timeout`,
    /// `body_timeout`, `write_timeout`; see [`crate::http_limits`]).
    http_closed: IntCounterVec,
    /// What the network made the transport drop or refuse, by kind (logged rate-limited).
    network_faults: IntCounterVec,
    /// Requests of the Alquerque oracle by outcome (`cached`, `computed`, `refused`,
    /// `rate_limited`; see [`crate::oracle`]).
    oracle_answers: IntCounterVec,
    /// The time to compute an oracle answer not in the cache, in seconds.
    oracle_compute: Histogram,
}

impl Metrics {
    /// Registers every metric in a new registry.
    pub fn new() -> Metrics {
        let registry = Registry::new();
        // These names and labels are constants: registration cannot fail.
        let clients =
            IntGaugeVec::new(Opts::new("ludus_clients", "Connected clients by transport"), &["transport"])
                .expect("valid metric");
        let games_live = IntGauge::new("ludus_games_live", "Live games").expect("valid metric");
        let moves = IntCounter::new("ludus_moves_total", "Moves accepted").expect("valid metric");
        let move_round_trip = Histogram::with_opts(
            HistogramOpts::new(
                "ludus_move_round_trip_seconds",
                "From a move's receipt to its broadcast after the durable write",
            )
            .buckets(vec![0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0]),
        )
        .expect("valid metric");
        let refusals =
            IntCounterVec::new(Opts::new("ludus_refusals_total", "Refused requests by kind"), &["kind"])
                .expect("valid metric");
        let games_started =
            IntCounter::new("ludus_games_started_total", "Games started").expect("valid metric");
        let games_finished =
            IntCounter::new("ludus_games_finished_total", "Games finished").expect("valid metric");
        let http_closed = IntCounterVec::new(
            Opts::new("ludus_http_connections_closed_total", "HTTP connections closed early, by reason"),
            &["reason"],
        )
        .expect("valid metric");
        let network_faults = IntCounterVec::new(
            Opts::new("ludus_network_faults_total", "Packets and handshakes dropped or refused, by kind"),
            &["kind"],
        )
        .expect("valid metric");
        let oracle_answers = IntCounterVec::new(
            Opts::new("ludus_oracle_requests_total", "Requests of the Alquerque oracle, by outcome"),
            &["outcome"],
        )
        .expect("valid metric");
        let oracle_compute = Histogram::with_opts(
            HistogramOpts::new(
                "ludus_oracle_compute_seconds",
                "Time to compute an oracle answer not in the cache",
            )
            .buckets(vec![0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0]),
        )
        .expect("valid metric");
        for c in [
            Box::new(clients.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(oracle_answers.clone()),
            Box::new(oracle_compute.clone()),
            Box::new(games_live.clone()),
            Box::new(moves.clone()),
            Box::new(move_round_trip.clone()),
            Box::new(refusals.clone()),
            Box::new(games_started.clone()),
            Box::new(games_finished.clone()),
            Box::new(http_closed.clone()),
            Box::new(network_faults.clone()),
        ] {
            registry.register(c).expect("metric registered once");
        }
        Metrics {
            registry,
            clients,
            games_live,
            moves,
            move_round_trip,
            refusals,
            games_started,
            games_finished,
            http_closed,
            network_faults,
            oracle_answers,
            oracle_compute,
        }
    }

    /// One request of the Alquerque oracle: `cached`, `computed`, `refused` or `rate_limited`.
    pub fn oracle_request(&self, outcome: &str) {
        self.oracle_answers.with_label_values(&[outcome]).inc();
    }

    /// The time an oracle answer took to compute.
    pub fn oracle_compute(&self, seconds: f64) {
        self.oracle_compute.observe(seconds);
    }

    /// Moves accepted.
    pub fn moves_accepted(&self, count: u64) {
        self.moves.inc_by(count);
    }

    /// One move's time from its receipt to its broadcast.
    pub fn move_round_trip(&self, seconds: f64) {
        self.move_round_trip.observe(seconds);
    }

    /// The clients connected now, by transport.
    pub fn set_clients(&self, udp: usize, websocket: usize) {
        self.clients.with_label_values(&["udp"]).set(udp as i64);
        self.clients.with_label_values(&["websocket"]).set(websocket as i64);
    }

    /// The live games now.
    pub fn set_games_live(&self, count: usize) {
        self.games_live.set(count as i64);
    }

    /// Brings the games started and finished up to the core's totals.
    pub fn games_to(&self, started: u64, finished: u64) {
        self.games_started.inc_by(started.saturating_sub(self.games_started.get()));
        self.games_finished.inc_by(finished.saturating_sub(self.games_finished.get()));
    }

    /// `count` more refusals of `kind`.
    pub fn refused(&self, kind: &str, count: u64) {
        self.refusals.with_label_values(&[kind]).inc_by(count);
    }

    /// An HTTP connection closed early, for `reason` (`busy`, `evicted`, `handshake_timeout`,
    /// `body_timeout`, `write_timeout`).
    pub fn http_closed(&self, reason: &str) {
        self.http_closed.with_label_values(&[reason]).inc();
    }

    /// Brings the network faults up to the transport's counters.
    pub fn network_faults_from(&self, h: &crate::transport::HandshakeStats) {
        for (kind, count) in [
            ("malformed", h.malformed),
            ("netcode_refused", h.netcode_errors),
            ("netcode_panic", h.netcode_panics),
            ("renet_refused", h.renet_errors),
            ("token_reused", h.token_reused),
            ("token_wrong_address", h.wrong_address),
            ("handshakes_per_address", h.refused_per_address),
            ("clients_per_address", h.refused_clients_per_address),
            ("handshake_evicted", h.evicted),
            ("handshake_replaced", h.replaced),
        ] {
            let counter = self.network_faults.with_label_values(&[kind]);
            counter.inc_by(count.saturating_sub(counter.get()));
        }
    }

    /// Everything in the Prometheus text format.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        let _ = prometheus::TextEncoder::new().encode(&self.registry.gather(), &mut out);
        String::from_utf8(out).unwrap_or_default()
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

#[cfg(test)]
mod tests {
    use super::Metrics;

    #[test]
    fn every_metric_is_rendered() {
        let m = Metrics::new();
        m.set_clients(3, 0);
        m.moves_accepted(5);
        m.move_round_trip(0.003);
        m.refused("illegal_move", 1);
        m.http_closed("body_timeout");
        m.oracle_request("cached");
        m.oracle_compute(0.003);
        let mut h = crate::transport::HandshakeStats { netcode_errors: 7, ..Default::default() };
        m.network_faults_from(&h);
        h.netcode_errors = 9;
        m.network_faults_from(&h);
        let text = m.render();
        for line in [
            "ludus_clients{transport=\"udp\"} 3",
            "ludus_moves_total 5",
            "ludus_move_round_trip_seconds_count 1",
            "ludus_move_round_trip_seconds_bucket{le=\"0.005\"} 1",
            "ludus_move_round_trip_seconds_bucket{le=\"0.002\"} 0",
            "ludus_refusals_total{kind=\"illegal_move\"} 1",
            "ludus_games_live 0",
            "ludus_http_connections_closed_total{reason=\"body_timeout\"} 1",
            "ludus_network_faults_total{kind=\"netcode_refused\"} 9",
            "ludus_network_faults_total{kind=\"malformed\"} 0",
            "ludus_oracle_requests_total{outcome=\"cached\"} 1",
            "ludus_oracle_compute_seconds_count 1",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
        }
    }
}
