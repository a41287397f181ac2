//! Turn-based games: games that wait days for each move, many at once per player, kept
//! whether their players are connected or not.
//!
//! A turn-based game is a [`LiveGame`] with a [`TurnClock`] (the move limit and the deadline of
//! the side to move, by the server's Unix time) and no room: moves, resignations, draw offers
//! and chat go to it by game id like to any game (`game`, `chat`), and every move reaches both
//! players on their connection, whatever they have on screen. Leaving, closing the connection
//! or a restart never ends one: only a move, a resignation, an agreed draw or the deadline
//! (the sweep of `game`'s timers, also for games reloaded after a restart, since the deadline is
//! stored) does. Their players stay in memory while they have one (for the nicknames, and to
//! send them moves when they come back).
//!
//! The games of each player are indexed here ([`Turns`]); a player has at most
//! [`super::Limits::turn_games`] of them in progress.

use super::door::Effect;
use super::game::{LiveGame, TurnClock};
use super::records::Op;
use super::{Core, Refusal, refuse, side_of};
use ludus_protocol::{DAY_MS, ErrorCode, GameId, PlayerId, TurnGameSummary};
use ludus_rules::{AnyGame, Outcome, Reason, Side, Variant};
use std::collections::{BTreeSet, HashMap};

/// The turn-based games in progress of each player.
#[derive(Default)]
pub(super) struct Turns {
    pub(super) by_player: HashMap<PlayerId, BTreeSet<GameId>>,
}

impl Core {
    /// How many turn-based games `pid` has in progress.
    pub(super) fn turn_games_of(&self, pid: PlayerId) -> usize {
        self.turns.by_player.get(&pid).map_or(0, BTreeSet::len)
    }

    /// Refuses a new turn-based game for `pid` when they have as many as allowed; `whose`
    /// names them in the message ("you", "the challenger").
    pub(super) fn check_turn_room(&self, pid: PlayerId, whose: &str) -> Result<(), Refusal> {
        let max = self.limits.turn_games;
        if self.turn_games_of(pid) >= max {
            return refuse(
                ErrorCode::TooManyGames,
                format!("{whose} already play {max} turn-based games: finish one first"),
            );
        }
        Ok(())
    }

    /// A turn-based game known in memory (started or reloaded): indexed for its players.
    pub(super) fn turn_game_known(&mut self, gid: GameId, players: [PlayerId; 2]) {
        for p in players {
            self.turns.by_player.entry(p).or_default().insert(gid);
        }
    }

    /// A turn-based game ended (`game`'s `finish`): out of its players' lists; an offline player
    /// with nothing else to keep them is forgotten.
    pub(super) fn turn_game_over(&mut self, gid: GameId, players: [PlayerId; 2]) {
        for p in players {
            if let Some(set) = self.turns.by_player.get_mut(&p) {
                set.remove(&gid);
                if set.is_empty() {
                    self.turns.by_player.remove(&p);
                }
            }
            self.forget_if_idle(p);
        }
    }

    /// Starts a turn-based game between `players` (`[First, Second]`), both in memory, with a
    /// move limit of `days`, rated if asked and allowed (the pair's rated games of the day,
    /// nicknames claimed from one address). The caller checked the limits and sends the views.
    pub(super) fn start_turn_game(
        &mut self,
        variant: Variant,
        players: [PlayerId; 2],
        days: u8,
        rated: bool,
    ) -> Result<GameId, Refusal> {
        let id = GameId(self.take_id(1)?);
        self.count_daily_game(players);
        // A rated game may start unrated, as in a rated room (see `rated`).
        let rated = rated
            && match self.unrated_reason(players) {
                Some(why) => {
                    tracing::info!(game = id.0, "a rated turn-based game starts unrated: {why}");
                    false
                }
                None => true,
            };
        let game = AnyGame::new(variant);
        let created_ms = self.unix_ms;
        let turn = TurnClock { days, deadline_ms: created_ms.saturating_add(u64::from(days) * DAY_MS) };
        self.effects.push(Effect::Store(Op::NewGame {
            id: id.0,
            room: String::new(),
            variant,
            start: game.start().to_string(),
            players: [players[0].0, players[1].0],
            public: true,
            clock: None,
            created_ms,
            rated,
        }));
        self.effects.push(Effect::Store(Op::TurnDeadline {
            game: id.0,
            days,
            deadline_ms: turn.deadline_ms,
        }));
        let mut live = LiveGame::new(id, String::new(), game, players, true, None, self.now, created_ms);
        live.turn = Some(turn);
        live.rated = rated;
        self.games.insert(id, live);
        self.turn_game_known(id, players);
        self.stats.games_started += 1;
        Ok(id)
    }

    /// Ends on time those of `pid`'s turn-based games whose deadline has passed, before the
    /// timers' next sweep would (so that a list or a view never shows one still going).
    pub(super) fn sweep_turns_of(&mut self, pid: PlayerId) {
        let unix_ms = self.unix_ms;
        let overdue: Vec<(GameId, Side)> = self
            .turns
            .by_player
            .get(&pid)
            .into_iter()
            .flatten()
            .filter_map(|gid| self.games.get(gid))
            .filter(|g| !g.game.is_over() && g.turn.is_some_and(|t| t.left_ms(unix_ms) == 0))
            .map(|g| (g.id, g.game.side_to_move()))
            .collect();
        for (gid, stm) in overdue {
            self.finish(gid, Outcome::win(stm.opponent(), Reason::Timeout));
        }
    }

    /// [`ludus_protocol::ClientMessage::OpenGame`]: the view of one of `pid`'s turn-based games.
    pub(super) fn open_game(&mut self, pid: PlayerId, gid: GameId) -> Result<(), Refusal> {
        self.sweep_turns_of(pid);
        match self.games.get(&gid) {
            Some(g) if g.turn.is_some() && g.players.contains(&pid) => self.watch(pid, gid),
            Some(g) if g.turn.is_some() => {
                refuse(ErrorCode::NotAPlayer, format!("you do not play game {}", gid.0))
            }
            _ => refuse(ErrorCode::UnknownGame, format!("no turn-based game {} in progress", gid.0)),
        }
    }

    /// `pid`'s turn-based games in progress, those waiting for their move first, least time
    /// left first; and how many wait for their move.
    pub(super) fn turn_summaries(&self, pid: PlayerId) -> (Vec<TurnGameSummary>, u32) {
        let mut list: Vec<TurnGameSummary> = self
            .turns
            .by_player
            .get(&pid)
            .into_iter()
            .flatten()
            .filter_map(|gid| self.games.get(gid))
            .filter_map(|g| {
                let turn = g.turn?;
                let i = g.players.iter().position(|&p| p == pid)?;
                let side = side_of(i);
                Some(TurnGameSummary {
                    game: g.id,
                    variant: g.game.variant(),
                    opponent: self.nickname_of(g.players[1 - i]),
                    side,
                    your_turn: g.game.side_to_move() == side,
                    ply: g.game.ply() as u32,
                    days: turn.days,
                    deadline_ms: turn.deadline_ms,
                    time_left_ms: turn.left_ms(self.unix_ms),
                    rated: g.rated,
                })
            })
            .collect();
        list.sort_by_key(|s| (!s.your_turn, s.deadline_ms, s.game));
        let waiting = list.iter().filter(|s| s.your_turn).count() as u32;
        (list, waiting)
    }

    /// A player's nickname: in memory, else their claimed one, else empty.
    pub(super) fn nickname_of(&self, pid: PlayerId) -> String {
        match self.players.get(&pid) {
            Some(p) => p.nickname.clone(),
            None => self.accounts.claims.get(&pid).map(|c| c.nickname.clone()).unwrap_or_default(),
        }
    }
}
