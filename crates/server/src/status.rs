//! What a running server reports: [`Status`], a snapshot of its counters (the binary's status
//! line, the tests, the game's LAN host).

use crate::core::Stats;
use crate::transport::HandshakeStats;
use crate::ws::WsCounters;
use std::sync::atomic::Ordering;

/// A snapshot of a running server's counters.
#[derive(Clone, Debug, Default)]
pub struct Status {
    /// Game counters.
    pub stats: Stats,
    /// Open connections.
    pub connections: usize,
    /// Live games.
    pub live_games: usize,
    /// Packets whose processing panicked inside renet2 and were contained (their client was
    /// dropped).
    pub contained_panics: u64,
    /// Handshake counters (requests, refusals, evictions, malformed packets dropped).
    pub handshakes: HandshakeStats,
    /// Handshakes in progress.
    pub pending_handshakes: usize,
    /// The WebSocket port's counters.
    pub ws: WsStatus,
    /// Database transactions committed.
    pub db_commits: u64,
    /// Server ticks stored in them (group commit: several per transaction under load).
    pub db_batches: u64,
    /// Total and longest commit time, in microseconds.
    pub db_commit_total_us: u64,
    /// See `db_commit_total_us`.
    pub db_commit_max_us: u64,
    /// Batches waiting for the disk.
    pub db_backlog: u64,
    /// The database refuses writes (a full disk, a failing database): the server answers pings
    /// and refuses every other request with `Busy` until a write succeeds again.
    pub db_failing: bool,
    /// How long the messages of a tick waited for their changes to be stored: counts of ticks
    /// by upper bound in milliseconds ([`RELEASE_BUCKETS_MS`], the last one open-ended).
    pub release_delay: [u64; RELEASE_BUCKETS_MS.len() + 1],
    /// Longest gap between two polls of the sockets, in microseconds (a starved loop shows here).
    pub max_poll_gap_us: u64,
}

/// The WebSocket port's counters (see [`ws::WsCounters`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct WsStatus {
    /// Connections accepted.
    pub accepted: u64,
    /// `accept` calls that failed (and were retried).
    pub accept_errors: u64,
    /// Connections closed at once (too many from one address, or in all).
    pub refused: u64,
    /// Handshakes (TLS, upgrade) that failed or timed out.
    pub handshake_failures: u64,
    /// Connections closed for an oversized or malformed message.
    pub bad_messages: u64,
    /// Connections closed for too many frames that carry nothing (empty, control, text).
    pub empty_floods: u64,
    /// Connections open now.
    pub open: usize,
}

impl WsStatus {
    pub(crate) fn of(counters: &WsCounters) -> WsStatus {
        WsStatus {
            accepted: counters.accepted.load(Ordering::Relaxed),
            accept_errors: counters.accept_errors.load(Ordering::Relaxed),
            refused: counters.refused.load(Ordering::Relaxed),
            handshake_failures: counters.handshake_failures.load(Ordering::Relaxed),
            bad_messages: counters.bad_messages.load(Ordering::Relaxed),
            empty_floods: counters.empty_floods.load(Ordering::Relaxed),
            open: counters.open.load(Ordering::Relaxed),
        }
    }
}

/// Bucket bounds of [`Status::release_delay`].
pub const RELEASE_BUCKETS_MS: [u64; 8] = [1, 2, 5, 10, 20, 50, 100, 200];

impl Status {
    /// The `q` quantile of the release delay, as "< N ms" bucket bound (`None`: no data).
    pub fn release_quantile(&self, since: &Status, q: f64) -> Option<String> {
        let counts: Vec<u64> = self
            .release_delay
            .iter()
            .zip(since.release_delay.iter())
            .map(|(a, b)| a.saturating_sub(*b))
            .collect();
        let total: u64 = counts.iter().sum();
        if total == 0 {
            return None;
        }
        let target = (total as f64 * q).ceil() as u64;
        let mut seen = 0;
        for (i, c) in counts.iter().enumerate() {
            seen += c;
            if seen >= target {
                return Some(match RELEASE_BUCKETS_MS.get(i) {
                    Some(ms) => format!("<{ms} ms"),
                    None => format!(">={} ms", RELEASE_BUCKETS_MS[RELEASE_BUCKETS_MS.len() - 1]),
                });
            }
        }
        None
    }
}
