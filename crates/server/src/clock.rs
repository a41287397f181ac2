//! The server's own clock: one Unix time, read from the wall clock once at start and carried
//! forward by the monotonic clock, so that it never jumps.
//!
//! Everything that measures a duration uses it (or [`Instant`] directly): connect tokens are
//! stamped with it, and netcode checks their expiry against the same time, so a wall clock
//! stepped back after start (by an operator, a virtual machine's restore, a bad time server)
//! does not make every new token "expire" on arrival; the core's limits and expiries get it as
//! their Unix time. The wall clock is still read every [`CHECK_INTERVAL`] (see
//! [`ServerClock::check`]): a jump of more than [`JUMP_TOLERANCE`] from the server's time is
//! logged (with the difference), never followed. A restart takes the wall clock's time again.
//! The database's own open-time checks keep a clock far ahead at start from deleting players
//! (see `store::checks`).
//!
//! The wall clock is a [`WallClock`]: the system's, or one given by a test.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// A jump of the wall clock beyond this (from the server's own time) is logged.
pub const JUMP_TOLERANCE: Duration = Duration::from_secs(2);

/// How often the loop compares the wall clock with the server's time.
pub const CHECK_INTERVAL: Duration = Duration::from_secs(1);

/// A source of wall-clock time: the time since the Unix epoch.
#[derive(Clone)]
pub struct WallClock(Arc<dyn Fn() -> Duration + Send + Sync>);

impl WallClock {
    /// The system's clock.
    pub fn system() -> WallClock {
        WallClock(Arc::new(|| SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default()))
    }

    /// A clock read from `read` (tests: a clock stepped back or far ahead).
    pub fn from_fn(read: impl Fn() -> Duration + Send + Sync + 'static) -> WallClock {
        WallClock(Arc::new(read))
    }

    /// The time since the Unix epoch by this clock.
    pub fn read(&self) -> Duration {
        (self.0)()
    }
}

impl Default for WallClock {
    fn default() -> WallClock {
        WallClock::system()
    }
}

impl fmt::Debug for WallClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WallClock")
    }
}

/// The server's time: the wall clock at start, carried forward monotonically.
#[derive(Debug)]
pub struct ServerClock {
    start: Instant,
    start_unix: Duration,
    wall: WallClock,
    /// The wall clock's offset from the server's time last logged, in milliseconds.
    reported_ms: AtomicI64,
}

impl ServerClock {
    /// Starts the server's time from `wall` now.
    pub fn start(wall: WallClock) -> ServerClock {
        ServerClock::start_at(wall, Instant::now())
    }

    /// Starts the server's time from `wall`, as of the monotonic instant `start`.
    pub fn start_at(wall: WallClock, start: Instant) -> ServerClock {
        let start_unix = wall.read();
        ServerClock { start, start_unix, wall, reported_ms: AtomicI64::new(0) }
    }

    /// The Unix time at the monotonic instant `now`.
    pub fn unix_at(&self, now: Instant) -> Duration {
        self.start_unix + now.saturating_duration_since(self.start)
    }

    /// The Unix time now.
    pub fn unix_now(&self) -> Duration {
        self.unix_at(Instant::now())
    }

    /// Milliseconds since the Unix epoch at `now` (what the database stores).
    pub fn unix_ms_at(&self, now: Instant) -> u64 {
        self.unix_at(now).as_millis() as u64
    }

    /// Compares the wall clock with the server's time at `now`. When their difference moved by
    /// more than [`JUMP_TOLERANCE`] since it was last logged, logs it and returns it (in
    /// milliseconds, positive when the wall clock is ahead). The server's time is not changed.
    pub fn check(&self, now: Instant) -> Option<i64> {
        let wall = self.wall.read().as_millis() as i64;
        let ours = self.unix_at(now).as_millis() as i64;
        let offset = wall - ours;
        let reported = self.reported_ms.load(Ordering::Relaxed);
        if (offset - reported).unsigned_abs() <= JUMP_TOLERANCE.as_millis() as u64 {
            return None;
        }
        self.reported_ms.store(offset, Ordering::Relaxed);
        tracing::warn!(
            wall_clock_offset_ms = offset,
            jump_ms = offset - reported,
            "the wall clock jumped: the server keeps its own time (the wall clock at start, \
             carried forward by the monotonic clock) for tokens, limits and stored times until \
             it restarts"
        );
        Some(offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wall clock the test moves: `base` plus the offset it sets, plus real elapsed time.
    fn movable(base: Duration) -> (WallClock, Arc<AtomicI64>) {
        let offset = Arc::new(AtomicI64::new(0));
        let read = offset.clone();
        let started = Instant::now();
        let clock = WallClock::from_fn(move || {
            let t = base + started.elapsed();
            let off = read.load(Ordering::Relaxed);
            if off >= 0 {
                t + Duration::from_millis(off as u64)
            } else {
                t.saturating_sub(Duration::from_millis(off.unsigned_abs()))
            }
        });
        (clock, offset)
    }

    #[test]
    fn the_servers_time_goes_on_when_the_wall_clock_is_stepped() {
        let base = Duration::from_secs(1_800_000_000);
        let (wall, offset) = movable(base);
        let start = Instant::now();
        let clock = ServerClock::start_at(wall, start);
        let t0 = clock.unix_at(start);
        assert!(t0 >= base && t0 < base + Duration::from_secs(5));
        assert_eq!(clock.check(start), None, "no jump yet");
        // Stepped back an hour: the server's time still moves forward with the monotonic clock.
        offset.store(-3_600_000, Ordering::Relaxed);
        let later = start + Duration::from_secs(10);
        assert_eq!(clock.unix_at(later), t0 + Duration::from_secs(10));
        let jump = clock.check(later).expect("the jump is seen");
        assert!((-3_610_000..=-3_590_000).contains(&jump), "{jump}");
        assert_eq!(clock.check(later), None, "logged once");
        // Then far ahead.
        offset.store(10 * 365 * 86_400_000, Ordering::Relaxed);
        assert!(clock.check(later).is_some_and(|j| j > 0));
        assert_eq!(clock.unix_ms_at(later), (t0 + Duration::from_secs(10)).as_millis() as u64);
    }
}
