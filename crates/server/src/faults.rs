//! Rate-limited fault logging: one line per kind of fault per interval, with a count.
//!
//! A hostile client can make the server meet the same fault thousands of times a second
//! (malformed packets, refused handshakes, contained panics). Each kind is logged at once the
//! first time, then at most once per [`INTERVAL`] with the number of times it happened since
//! the last line, so the log stays readable and small whatever the attacker sends.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Shortest time between two lines about the same kind of fault.
pub const INTERVAL: Duration = Duration::from_secs(10);

/// The counts behind the log (pure: no output; see [`note`]).
#[derive(Debug)]
pub struct FaultLog {
    interval: Duration,
    kinds: HashMap<&'static str, Kind>,
}

#[derive(Debug, Default)]
struct Kind {
    /// When the last line was written.
    last_line: Option<Instant>,
    /// Faults since then.
    unreported: u64,
    total: u64,
}

impl FaultLog {
    /// An empty log writing at most one line per kind per `interval`.
    pub fn new(interval: Duration) -> FaultLog {
        FaultLog { interval, kinds: HashMap::new() }
    }

    /// Counts one fault of `kind` at `now`; if a line is due, returns the count it reports
    /// (the faults since the last line, this one included).
    pub fn record(&mut self, kind: &'static str, now: Instant) -> Option<u64> {
        let k = self.kinds.entry(kind).or_default();
        k.unreported += 1;
        k.total += 1;
        let due = k.last_line.is_none_or(|t| now.saturating_duration_since(t) >= self.interval);
        due.then(|| {
            k.last_line = Some(now);
            std::mem::take(&mut k.unreported)
        })
    }

    /// The kinds whose unreported faults are due for a line at `now`, with their counts.
    pub fn due(&mut self, now: Instant) -> Vec<(&'static str, u64)> {
        let interval = self.interval;
        self.kinds
            .iter_mut()
            .filter(|(_, k)| {
                k.unreported > 0 && k.last_line.is_none_or(|t| now.saturating_duration_since(t) >= interval)
            })
            .map(|(kind, k)| {
                k.last_line = Some(now);
                (*kind, std::mem::take(&mut k.unreported))
            })
            .collect()
    }

    /// Faults of `kind` ever counted.
    pub fn total(&self, kind: &str) -> u64 {
        self.kinds.get(kind).map_or(0, |k| k.total)
    }
}

static LOG: Mutex<Option<FaultLog>> = Mutex::new(None);

fn with_log<T>(f: impl FnOnce(&mut FaultLog) -> T) -> T {
    let mut guard = LOG.lock().unwrap_or_else(PoisonError::into_inner);
    f(guard.get_or_insert_with(|| FaultLog::new(INTERVAL)))
}

/// Counts a fault and logs it if its line is due.
pub fn note(kind: &'static str) {
    note_detail(kind, "");
}

/// Counts a fault; the line, when due, carries `detail` (the first such fault of the interval).
pub fn note_detail(kind: &'static str, detail: &str) {
    if let Some(count) = with_log(|log| log.record(kind, Instant::now())) {
        if detail.is_empty() {
            tracing::warn!(count, "{kind}");
        } else {
            tracing::warn!(count, "{kind}: {detail}");
        }
    }
}

/// Logs the counts of faults that came after their kind's last line (call it now and then).
pub fn flush() {
    for (kind, count) in with_log(|log| log.due(Instant::now())) {
        tracing::warn!(count, "{kind}");
    }
}

/// Faults of `kind` counted since the process started.
pub fn total(kind: &str) -> u64 {
    with_log(|log| log.total(kind))
}

#[cfg(test)]
mod tests {
    use super::FaultLog;
    use std::time::Duration;
    use std::time::Instant;

    #[test]
    fn one_line_per_kind_per_interval_with_a_count() {
        let mut log = FaultLog::new(Duration::from_secs(10));
        let t0 = Instant::now();
        assert_eq!(log.record("bad packet", t0), Some(1));
        for i in 1..=20_000u64 {
            assert_eq!(log.record("bad packet", t0 + Duration::from_micros(i * 50)), None);
        }
        assert_eq!(log.record("other", t0 + Duration::from_secs(1)), Some(1));
        assert!(log.due(t0 + Duration::from_secs(5)).is_empty());
        assert_eq!(log.due(t0 + Duration::from_secs(10)), vec![("bad packet", 20_000)]);
        assert!(log.due(t0 + Duration::from_secs(30)).is_empty());
        assert_eq!(log.record("bad packet", t0 + Duration::from_secs(31)), Some(1));
        assert_eq!(log.total("bad packet"), 20_002);
        assert_eq!(log.total("never"), 0);
    }
}
