//! The daily cap on stored games: every game started is stored (its row, its moves, its
//! archive), even one resigned at once, so one account or one address starting games without
//! end would grow the database without end (games left at ply 0 grew it by about 2 GB a day
//! from one address). Each account may start [`Limits::games_per_player_day`] games a day, and
//! all the accounts seen from one address (IPv4 address, IPv6 /64) together
//! [`Limits::games_per_address_day`]; past either, a new game (a room, a join, a quick match,
//! a rematch, a challenge or its acceptance) is refused with `RateLimited`, whose text tells
//! the player to slow down, and the refusal's message says until when. A day is counted from
//! the first game of the window, by the monotonic clock; after a restart, each account's games
//! of the last day (as stored) count again, in a window from the restart.
//!
//! [`Limits::games_per_player_day`]: super::Limits::games_per_player_day
//! [`Limits::games_per_address_day`]: super::Limits::games_per_address_day

use super::{Core, Refusal, refuse};
use ludus_protocol::{ErrorCode, PlayerId};
use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// The window of the cap.
pub const GAMES_DAY: Duration = Duration::from_secs(24 * 3600);

/// Games started in one window.
#[derive(Clone, Copy, Debug)]
struct Window {
    since: Instant,
    count: u32,
}

impl Window {
    /// The count within the window that holds `now` (a new window once the last one is over).
    fn current(&mut self, now: Instant) -> &mut u32 {
        if now.saturating_duration_since(self.since) >= GAMES_DAY {
            *self = Window { since: now, count: 0 };
        }
        &mut self.count
    }

    /// When the window ends, from `now`.
    fn ends_in(&self, now: Instant) -> Duration {
        GAMES_DAY.saturating_sub(now.saturating_duration_since(self.since))
    }
}

/// Games started per account and per address, within their windows.
#[derive(Default)]
pub(super) struct DailyGames {
    players: HashMap<PlayerId, Window>,
    addresses: HashMap<IpAddr, Window>,
}

impl Core {
    /// Where `pid` is connected from, if connected.
    fn origin_of(&self, pid: PlayerId) -> Option<IpAddr> {
        let conn = self.players.get(&pid)?.conn?;
        self.conns.get(&conn)?.origin
    }

    /// Refuses a new game of `players` while one of them, or the address one of them is
    /// connected from, has started its games of the day.
    pub(super) fn check_daily_games(&mut self, players: &[PlayerId]) -> Result<(), Refusal> {
        let now = self.now;
        let (per_player, per_address) = (self.limits.games_per_player_day, self.limits.games_per_address_day);
        for &pid in players {
            if let Some(w) = self.daily.players.get_mut(&pid)
                && *w.current(now) >= per_player
            {
                let hours = w.ends_in(now).as_secs().div_ceil(3600);
                return refuse(
                    ErrorCode::RateLimited,
                    format!(
                        "{per_player} games a day at most for one player (you or your opponent): \
                         try again in {hours} h"
                    ),
                );
            }
            if let Some(origin) = self.origin_of(pid)
                && let Some(w) = self.daily.addresses.get_mut(&origin)
                && *w.current(now) >= per_address
            {
                let hours = w.ends_in(now).as_secs().div_ceil(3600);
                return refuse(
                    ErrorCode::RateLimited,
                    format!("{per_address} games a day at most from one address: try again in {hours} h"),
                );
            }
        }
        Ok(())
    }

    /// The games started within the last day before a restart (their players): they count
    /// again, in a window that starts now (the addresses they came from are not stored).
    pub(super) fn reload_daily_games(&mut self, games: Vec<[u64; 2]>) {
        let now = self.now;
        for players in games {
            for pid in players {
                let w = self.daily.players.entry(PlayerId(pid)).or_insert(Window { since: now, count: 0 });
                *w.current(now) += 1;
            }
        }
    }

    /// A game of `players` started: it counts for each of them and for each address they are
    /// connected from (once per address).
    pub(super) fn count_daily_game(&mut self, players: [PlayerId; 2]) {
        let now = self.now;
        let fresh = || Window { since: now, count: 0 };
        let origins: Vec<IpAddr> = players.iter().filter_map(|&p| self.origin_of(p)).collect();
        for pid in players {
            *self.daily.players.entry(pid).or_insert_with(fresh).current(now) += 1;
        }
        for (i, origin) in origins.iter().enumerate() {
            if !origins[..i].contains(origin) {
                *self.daily.addresses.entry(*origin).or_insert_with(fresh).current(now) += 1;
            }
        }
        if self.daily.players.len() + self.daily.addresses.len() > 20_000 {
            let live = |w: &Window| now.saturating_duration_since(w.since) < GAMES_DAY;
            self.daily.players.retain(|_, w| live(w));
            self.daily.addresses.retain(|_, w| live(w));
        }
    }
}
