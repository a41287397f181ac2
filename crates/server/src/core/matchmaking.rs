//! The quick-match queue: one queue per variant, time control and rated or casual play. In a
//! casual queue the first two players waiting get a room and a game. In a rated queue a newcomer
//! is paired with the waiting player of the closest rating, if the two are close enough: within
//! [`RATING_WINDOW`] points, the window of a waiting player widening by
//! [`RATING_WIDENING_PER_S`] points a second of their wait; the timers pair players whose
//! windows have widened enough (closest ratings first).

use super::limits::check_clock;
use super::rooms::Room;
use super::{Core, Refusal, refuse};
use ludus_protocol::{ClockSpec, ErrorCode, PlayerId, ServerMessage};
use ludus_rules::Variant;
use std::time::Instant;

/// How far apart (rating points) two players of a rated queue may be paired at once.
pub(super) const RATING_WINDOW: f64 = 150.0;
/// How much a waiting player's window widens, in rating points a second of their wait.
pub(super) const RATING_WIDENING_PER_S: f64 = 10.0;

pub(super) type QueueKey = (Variant, Option<ClockSpec>, bool);

impl Core {
    pub(super) fn quick_match(
        &mut self,
        pid: PlayerId,
        variant: Variant,
        clock: Option<ClockSpec>,
        rated: bool,
    ) -> Result<(), Refusal> {
        check_clock(&self.limits, clock)?;
        if rated && !self.is_claimed(pid) {
            return refuse(ErrorCode::NotClaimed, "rated games need a claimed nickname");
        }
        self.check_accepting()?;
        self.check_daily_games(&[pid])?;
        self.make_free(pid)?;
        let key = (variant, clock, rated);
        let opponent = if rated { self.closest_waiting(key, pid) } else { self.first_waiting(key, pid) };
        // Several nodes: nobody waits here, someone waits on the node that pairs this queue.
        if opponent.is_none() && self.match_elsewhere(pid, key) {
            return Ok(());
        }
        let Some(other) = opponent else {
            self.queue.entry(key).or_default().push_back(pid);
            let now = self.now;
            if let Some(p) = self.players.get_mut(&pid) {
                p.queued = Some(key);
                p.queued_at = Some(now);
            }
            self.send_player(pid, &ServerMessage::Queued { variant, clock });
            return Ok(());
        };
        self.unqueue(other);
        self.pair(key, other, pid)
    }

    /// Whether `pid` still waits in `key`'s queue (connected, not gone elsewhere).
    pub(super) fn waits_in(&self, pid: PlayerId, key: QueueKey) -> bool {
        self.players.get(&pid).is_some_and(|p| p.conn.is_some() && p.queued == Some(key))
    }

    /// The first player waiting in a casual queue (those gone meanwhile are dropped).
    fn first_waiting(&mut self, key: QueueKey, pid: PlayerId) -> Option<PlayerId> {
        loop {
            let other = self.queue.get_mut(&key)?.pop_front()?;
            if other != pid && self.waits_in(other, key) {
                return Some(other);
            }
        }
    }

    /// `pid`'s rating in `variant` (the starting one before any rated game).
    fn rating_in(&self, pid: PlayerId, variant: Variant) -> f64 {
        self.claimed_rating(pid, variant).unwrap_or_default().rating
    }

    /// How far from its own rating a player of a rated queue accepts an opponent now.
    fn rating_window(&self, pid: PlayerId) -> f64 {
        let waited = self
            .players
            .get(&pid)
            .and_then(|p| p.queued_at)
            .map_or(0.0, |at| self.now.saturating_duration_since(at).as_secs_f64());
        RATING_WINDOW + RATING_WIDENING_PER_S * waited
    }

    /// The waiting player of a rated queue whose rating is closest to the newcomer `pid`'s,
    /// within the waiting player's window (never narrower than the newcomer's, who has not waited).
    fn closest_waiting(&mut self, key: QueueKey, pid: PlayerId) -> Option<PlayerId> {
        let mine = self.rating_in(pid, key.0);
        let waiting: Vec<PlayerId> = self.queue.get(&key)?.iter().copied().filter(|&o| o != pid).collect();
        let best = waiting
            .into_iter()
            .filter(|&o| self.waits_in(o, key))
            .map(|o| (o, (self.rating_in(o, key.0) - mine).abs()))
            .filter(|&(o, gap)| gap <= self.rating_window(o))
            .min_by(|a, b| a.1.total_cmp(&b.1))?;
        Some(best.0)
    }

    /// Pairs the players of the rated queues whose windows have widened enough: sorted by
    /// rating, each two neighbours close enough for either's window play (closest first).
    pub(super) fn rated_match_timers(&mut self) {
        let keys: Vec<QueueKey> =
            self.queue.iter().filter(|(k, q)| k.2 && q.len() >= 2).map(|(k, _)| *k).collect();
        for key in keys {
            while let Some(queue) = self.queue.get(&key) {
                let mut waiting: Vec<(PlayerId, f64)> = queue
                    .iter()
                    .copied()
                    .filter(|&p| self.waits_in(p, key))
                    .map(|p| (p, self.rating_in(p, key.0)))
                    .collect();
                waiting.sort_by(|a, b| a.1.total_cmp(&b.1));
                let pair = waiting
                    .windows(2)
                    .map(|w| (w[0].0, w[1].0, w[1].1 - w[0].1))
                    .filter(|&(a, b, gap)| gap <= self.rating_window(a).max(self.rating_window(b)))
                    .min_by(|x, y| x.2.total_cmp(&y.2));
                let Some((a, b, _)) = pair else { break };
                // The one who waited longer is the room's first member, as in a quick match.
                let (first, second) = match (self.queued_since(a), self.queued_since(b)) {
                    (Some(x), Some(y)) if y < x => (b, a),
                    _ => (a, b),
                };
                self.unqueue(first);
                self.unqueue(second);
                if let Err(e) = self.pair(key, first, second) {
                    tracing::warn!("a rated quick match could not start: {}", e.message);
                }
            }
        }
    }

    fn queued_since(&self, pid: PlayerId) -> Option<Instant> {
        self.players.get(&pid).and_then(|p| p.queued_at)
    }

    /// A room and a game for two players of `key`'s queue (neither queued any more).
    fn pair(&mut self, key: QueueKey, other: PlayerId, pid: PlayerId) -> Result<(), Refusal> {
        let (variant, clock, rated) = key;
        let code = self.new_code();
        self.room_serial += 1;
        let mut room =
            Room::new(code.clone(), variant, clock, true, true, vec![other, pid], self.room_serial);
        room.rated = rated;
        self.rooms.insert(code.clone(), room);
        for p in [other, pid] {
            if let Some(p) = self.players.get_mut(&p) {
                p.room = Some(code.clone());
            }
        }
        let first_first = self.random_u64().is_multiple_of(2);
        self.start_game(&code, first_first)
    }

    pub(super) fn unqueue(&mut self, pid: PlayerId) {
        let Some(key) = self.players.get_mut(&pid).and_then(|p| {
            p.queued_at = None;
            p.queued.take()
        }) else {
            return;
        };
        if let Some(q) = self.queue.get_mut(&key) {
            q.retain(|&p| p != pid);
            if q.is_empty() {
                self.queue.remove(&key);
            }
        }
    }
}
