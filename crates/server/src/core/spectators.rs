//! Spectators: watching a live game, proposing moves for the side to move, and the tally of
//! those proposals sent to the spectators at most every `Limits::proposal_interval`.
//!
//! The spectator count goes to the game's players and spectators at most every
//! `Limits::spectator_count_interval` per game: a change after a quiet interval is sent at
//! once; changes within the interval are sent together, as the latest count, by the timers
//! once it has passed. A flood of watch switches thus costs each game one message per member
//! of its audience per interval, not one per switch.

use super::limits::{MAX_LISTED_PROPOSALS, move_at};
use super::{Core, Refusal, refuse};
use ludus_protocol::{ErrorCode, GameId, PlayerId, Proposal, ServerMessage};
use std::collections::HashMap;

/// The proposals counted, the most proposed first (ties by notation), at most
/// [`MAX_LISTED_PROPOSALS`].
pub(super) fn tally(proposals: &HashMap<PlayerId, String>) -> Vec<Proposal> {
    let mut counts: HashMap<&str, u32> = HashMap::new();
    for mv in proposals.values() {
        *counts.entry(mv.as_str()).or_default() += 1;
    }
    let mut list: Vec<Proposal> =
        counts.into_iter().map(|(mv, count)| Proposal { mv: mv.to_string(), count }).collect();
    list.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.mv.cmp(&b.mv)));
    list.truncate(MAX_LISTED_PROPOSALS);
    list
}

/// Most views of the same game sent for `Watch` requests within [`REWATCH_WINDOW`] (each
/// carries the game and its chat history, up to about 100 KB).
pub(super) const REWATCHES: u8 = 4;
/// See [`REWATCHES`].
pub(super) const REWATCH_WINDOW: std::time::Duration = std::time::Duration::from_secs(10);

impl Core {
    /// `pid` watches `gid` (a player of it gets the view again): the view, then the chat so far;
    /// more than [`REWATCHES`] views of the same game within [`REWATCH_WINDOW`] are refused.
    /// Someone else's private game goes the way of a game that is not here, so that both get
    /// the same answer.
    pub(super) fn watch(&mut self, pid: PlayerId, gid: GameId) -> Result<(), Refusal> {
        let Some(g) = self.games.get(&gid).filter(|g| g.public || g.players.contains(&pid)) else {
            // Several nodes: the game may be on another one (the client is sent there).
            if self.watch_elsewhere(pid, gid)? {
                return Ok(());
            }
            return refuse(ErrorCode::UnknownGame, format!("no live game {}", gid.0));
        };
        let is_player = g.players.contains(&pid);
        let now = self.now;
        let views = match self.players.get(&pid).and_then(|p| p.last_watch) {
            Some((g, since, n)) if g == gid && now.saturating_duration_since(since) < REWATCH_WINDOW => {
                if n >= REWATCHES {
                    return refuse(
                        ErrorCode::RateLimited,
                        "you were just sent this game several times: wait a moment before asking again",
                    );
                }
                (g, since, n + 1)
            }
            _ => (gid, now, 1),
        };
        if let Some(p) = self.players.get_mut(&pid) {
            p.last_watch = Some(views);
        }
        if !is_player && self.players.get(&pid).and_then(|p| p.watching) != Some(gid) {
            self.unwatch(pid);
            if let Some(g) = self.games.get_mut(&gid) {
                g.spectators.insert(pid);
            }
            if let Some(p) = self.players.get_mut(&pid) {
                p.watching = Some(gid);
            }
            self.spectators_changed(gid);
        }
        self.send_view(gid, pid);
        Ok(())
    }

    /// The spectator count of `gid` changed: sent now if none was sent within
    /// `spectator_count_interval`, else by [`Core::spectator_count_timers`] once it has passed.
    fn spectators_changed(&mut self, gid: GameId) {
        let now = self.now;
        let interval = self.limits.spectator_count_interval;
        let Some(g) = self.games.get_mut(&gid) else {
            return;
        };
        g.spectators_dirty = true;
        if g.spectators_sent.is_none_or(|t| now.saturating_duration_since(t) >= interval) {
            self.send_spectator_count(gid);
        }
    }

    /// Sends the latest spectator count of `gid` to its players and spectators.
    fn send_spectator_count(&mut self, gid: GameId) {
        let now = self.now;
        let Some(g) = self.games.get_mut(&gid) else {
            return;
        };
        g.spectators_dirty = false;
        g.spectators_sent = Some(now);
        let count = g.spectators.len() as u32;
        let audience = g.audience();
        self.send_players(audience, &ServerMessage::Spectators { game: gid, count });
    }

    /// Sends the spectator counts held back, once `spectator_count_interval` has passed since
    /// each game's last. The latest count is sent even when it equals the last one sent: the
    /// spectators who came in between were sent the count of their arrival in their view.
    pub(super) fn spectator_count_timers(&mut self) {
        let now = self.now;
        let interval = self.limits.spectator_count_interval;
        let due: Vec<GameId> = self
            .games
            .values()
            .filter(|g| {
                g.spectators_dirty
                    && g.spectators_sent.is_none_or(|t| now.saturating_duration_since(t) >= interval)
            })
            .map(|g| g.id)
            .collect();
        for gid in due {
            self.send_spectator_count(gid);
        }
    }

    pub(super) fn unwatch(&mut self, pid: PlayerId) {
        let Some(gid) = self.players.get_mut(&pid).and_then(|p| p.watching.take()) else {
            return;
        };
        if let Some(g) = self.games.get_mut(&gid) {
            g.spectators.remove(&pid);
            if g.proposals.remove(&pid).is_some() {
                g.proposals_dirty = true;
            }
        }
        self.spectators_changed(gid);
    }

    pub(super) fn propose(
        &mut self,
        pid: PlayerId,
        gid: GameId,
        ply: u32,
        text: &str,
    ) -> Result<(), Refusal> {
        let Some(g) = self.games.get_mut(&gid) else {
            return refuse(ErrorCode::UnknownGame, format!("no live game {}", gid.0));
        };
        if g.players.contains(&pid) {
            return refuse(ErrorCode::PlayerCannotPropose, "players cannot propose moves in their own game");
        }
        if !g.spectators.contains(&pid) {
            return refuse(ErrorCode::NotWatching, "watch the game to propose moves");
        }
        if g.game.is_over() {
            return refuse(ErrorCode::GameOver, "the game is over");
        }
        let (_, notation) = move_at(&g.game, ply, text)?;
        if g.proposals.get(&pid) != Some(&notation) {
            g.proposals.insert(pid, notation);
            g.proposals_dirty = true;
        }
        Ok(())
    }

    /// Sends the changed tallies, at most every `proposal_interval` per game.
    pub(super) fn proposal_timers(&mut self) {
        let now = self.now;
        let interval = self.limits.proposal_interval;
        let due: Vec<GameId> = self
            .games
            .values()
            .filter(|g| {
                g.proposals_dirty
                    && g.proposals_sent.is_none_or(|t| now.saturating_duration_since(t) >= interval)
            })
            .map(|g| g.id)
            .collect();
        for gid in due {
            let Some(g) = self.games.get_mut(&gid) else {
                continue;
            };
            g.proposals_dirty = false;
            g.proposals_sent = Some(now);
            let message = ServerMessage::Proposals {
                game: gid,
                ply: g.game.ply() as u32,
                proposals: tally(&g.proposals),
            };
            let spectators: Vec<PlayerId> = g.spectators.iter().copied().collect();
            self.send_players(spectators, &message);
        }
    }
}
