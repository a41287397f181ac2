//! The live game: starting it, moves, resignation, draw offers, the clock (one function:
//! [`time_left`]), held seats, the end and its archive, and a stored game back in memory (a
//! restart, a takeover).
//!
//! A turn-based game (`turns`) is a live game with a [`TurnClock`] instead of a real-time clock
//! and no room: here its deadline is checked at each move and by the timers (by the server's
//! Unix time), and it holds no seat, so a player's absence never ends it.
//!
//! Draw offers: a seated player of a live game may offer a draw on either side's turn, at most
//! once per ply (a declined offer still counts). The offer stands until the opponent answers
//! it; it lapses when the offerer plays a move (everyone in the game gets `DrawOfferLapsed`
//! right after that `MovePlayed`, unless the move ended the game), and with the game. Only the
//! opponent answers: accepted, the game ends drawn by `Reason::Agreement` through [`Core::finish`]
//! like a resignation; declined, everyone gets `DrawDeclined` and nothing else changes. An offer
//! while the opponent's is open accepts it. The clocks keep running meanwhile. Open offers
//! live in memory only: a server restart forgets them (the players may offer again), while an
//! agreed draw is a stored ending like any other.

use super::door::Effect;
use super::limits::move_at;
use super::records::{Op, StoredGame};
use super::rooms::Room;
use super::spectators::tally;
use super::{Core, Refusal, refuse, side_of};
use ludus_protocol::{
    ArchivedGame, ChatLine, ClockSpec, ClockView, CrowdVerdict, DAY_MS, ErrorCode, GameId, GameView,
    PlayerId, PlayerInfo, PlyProposals, Role, ServerMessage,
};
use ludus_rules::{AnyGame, GameRecord, Outcome, Reason, Side, Variant};
use std::collections::{HashMap, HashSet};
use std::time::Instant;

pub(super) struct LiveGame {
    pub(super) id: GameId,
    /// A rated game: both ratings change when it ends (protocol 5).
    pub(super) rated: bool,
    pub(super) room: String,
    pub(super) game: AnyGame,
    pub(super) players: [PlayerId; 2],
    pub(super) public: bool,
    pub(super) clock: Option<ClockSpec>,
    /// Time left to each side when its turn started (the side to move's runs since `turn_started`).
    pub(super) remaining_ms: [u64; 2],
    pub(super) turn_started: Instant,
    pub(super) spectators: HashSet<PlayerId>,
    pub(super) proposals: HashMap<PlayerId, String>,
    pub(super) proposals_dirty: bool,
    pub(super) proposals_sent: Option<Instant>,
    /// The spectator count changed since it was last sent (`spectators`).
    pub(super) spectators_dirty: bool,
    /// When the spectator count was last sent (`spectators`).
    pub(super) spectators_sent: Option<Instant>,
    pub(super) history: Vec<PlyProposals>,
    /// When each side's player went offline (their seat is held from then).
    pub(super) disconnected: [Option<Instant>; 2],
    pub(super) created_ms: u64,
    /// The side whose draw offer is open, if any. Not stored: a restart forgets it.
    pub(super) draw_offer: Option<Side>,
    /// The ply at which each side last offered a draw (one offer per player and ply).
    pub(super) draw_offered_at: [Option<usize>; 2],
    /// Every chat line so far, both channels (stored; reloaded after a restart).
    pub(super) chat: Vec<ChatLine>,
    /// The number of the next chat line in the store (past any stored line that could not be
    /// read back after a restart).
    pub(super) chat_seq: u32,
    /// Whose lines each listener muted (in memory only).
    pub(super) mutes: HashMap<PlayerId, HashSet<PlayerId>>,
    /// A turn-based game's move limit and deadline (`None`: a real-time or untimed game).
    pub(super) turn: Option<TurnClock>,
}

/// The clock of a turn-based game: each move within `days` of the last one, judged by the
/// server's Unix time (stored, so that a restart keeps it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TurnClock {
    /// The move limit, in days (one of `ludus_protocol::TURN_DAYS`).
    pub(super) days: u8,
    /// When the side to move loses on time, Unix milliseconds.
    pub(super) deadline_ms: u64,
}

impl TurnClock {
    /// The move limit in milliseconds.
    pub(super) fn limit_ms(&self) -> u64 {
        u64::from(self.days) * DAY_MS
    }

    /// The time the side to move has left at `unix_ms` (0: it ran out).
    pub(super) fn left_ms(&self, unix_ms: u64) -> u64 {
        self.deadline_ms.saturating_sub(unix_ms)
    }
}

impl LiveGame {
    pub(super) fn new(
        id: GameId,
        room: String,
        game: AnyGame,
        players: [PlayerId; 2],
        public: bool,
        clock: Option<ClockSpec>,
        now: Instant,
        created_ms: u64,
    ) -> LiveGame {
        let initial = clock.map_or(0, |c| u64::from(c.initial_ms));
        LiveGame {
            id,
            rated: false,
            room,
            game,
            players,
            public,
            clock,
            remaining_ms: [initial, initial],
            turn_started: now,
            spectators: HashSet::new(),
            proposals: HashMap::new(),
            proposals_dirty: false,
            proposals_sent: None,
            spectators_dirty: false,
            spectators_sent: None,
            history: Vec::new(),
            disconnected: [None, None],
            created_ms,
            draw_offer: None,
            draw_offered_at: [None, None],
            chat: Vec::new(),
            chat_seq: 0,
            mutes: HashMap::new(),
            turn: None,
        }
    }

    /// A game reloaded after a restart: both players offline with their seats held from `now`,
    /// the clocks as after the last move, the chat as stored, and no draw offer open and no
    /// mutes (neither is stored).
    pub(super) fn reloaded(g: StoredGame, game: AnyGame, players: [PlayerId; 2], now: Instant) -> LiveGame {
        let mut live =
            LiveGame::new(GameId(g.id), g.room, game, players, g.public, g.clock, now, g.created_ms);
        live.rated = g.rated;
        if let Some(clocks) = g.clocks {
            live.remaining_ms = clocks;
        }
        live.history = g.proposals;
        live.chat_seq = g.chat_stored.max(g.chat.len() as u32);
        live.chat = g.chat;
        live.turn = g.turn.map(|(days, deadline_ms)| TurnClock { days, deadline_ms });
        // A turn-based game holds no seat: its players come and go.
        if live.turn.is_none() {
            live.disconnected = [Some(now), Some(now)];
        }
        live
    }

    /// The players, then the spectators.
    pub(super) fn audience(&self) -> Vec<PlayerId> {
        self.players.iter().copied().chain(self.spectators.iter().copied()).collect()
    }
}

/// The clock: the time `side` has left at `now`, in milliseconds (0: the flag fell). Only the
/// side to move's time runs; a game without a clock or that is over has no running time.
pub(super) fn time_left(g: &LiveGame, side: Side, now: Instant) -> u64 {
    let stored = g.remaining_ms[side.index()];
    if g.clock.is_none() || g.game.is_over() || g.game.side_to_move() != side {
        return stored;
    }
    let elapsed = now.saturating_duration_since(g.turn_started).as_millis() as u64;
    stored.saturating_sub(elapsed)
}

impl Core {
    /// Starts a game in a room of two: `members[0]` plays First if `first_first`.
    pub(super) fn start_game(&mut self, code: &str, first_first: bool) -> Result<(), Refusal> {
        let Some(room) = self.rooms.get_mut(code) else {
            return refuse(ErrorCode::UnknownRoom, "no such room");
        };
        let [a, b] = match room.members.as_slice() {
            [a, b] => [*a, *b],
            _ => return refuse(ErrorCode::Internal, "a game needs two players"),
        };
        let players = if first_first { [a, b] } else { [b, a] };
        let id = GameId(self.take_id(1)?);
        let Some(room) = self.rooms.get_mut(code) else {
            return refuse(ErrorCode::UnknownRoom, "no such room");
        };
        room.game = Some(id);
        room.last_players = Some(players);
        room.rematch = [false; 2];
        let (variant, clock, public, rated) = (room.variant, room.clock, room.public, room.rated);
        // A rated room's game may start unrated (see `rated`): its view says so.
        let rated = rated
            && match self.unrated_reason(players) {
                Some(why) => {
                    tracing::info!(game = id.0, "a game of a rated room starts unrated: {why}");
                    false
                }
                None => true,
            };
        let game = AnyGame::new(variant);
        let created_ms = self.unix_ms;
        self.effects.push(Effect::Store(Op::NewGame {
            id: id.0,
            room: code.to_string(),
            variant,
            start: game.start().to_string(),
            players: [players[0].0, players[1].0],
            public,
            clock,
            created_ms,
            rated,
        }));
        let mut live =
            LiveGame::new(id, code.to_string(), game, players, public, clock, self.now, created_ms);
        live.rated = rated;
        self.games.insert(id, live);
        self.stats.games_started += 1;
        self.count_daily_game(players);
        for p in players {
            self.unwatch(p);
            self.send_view(id, p);
        }
        Ok(())
    }

    /// Sends `viewer` the whole game ([`ServerMessage::Game`]), then the open draw offer if
    /// there is one and the chat lines so far that `viewer` hears (the view has no field for
    /// them).
    pub(super) fn send_view(&mut self, gid: GameId, viewer: PlayerId) {
        if let Some(view) = self.view(gid, viewer) {
            self.send_player(viewer, &ServerMessage::Game(view));
        }
        if let Some(by) = self.games.get(&gid).and_then(|g| g.draw_offer) {
            self.send_player(viewer, &ServerMessage::DrawOffered { game: gid, by });
        }
        self.send_chat_history(gid, viewer);
    }

    pub(super) fn clocks(&self, g: &LiveGame) -> Option<ClockView> {
        if let Some(turn) = g.turn {
            // The side to move has until its deadline; the other, the whole limit.
            let running = (!g.game.is_over()).then(|| g.game.side_to_move());
            let ms = |v: u64| v.min(u64::from(u32::MAX)) as u32;
            let left = |side| {
                if running == Some(side) { ms(turn.left_ms(self.unix_ms)) } else { ms(turn.limit_ms()) }
            };
            return Some(ClockView { remaining_ms: [left(Side::First), left(Side::Second)], running });
        }
        g.clock?;
        let running = (!g.game.is_over()).then(|| g.game.side_to_move());
        let left = |side| time_left(g, side, self.now).min(u64::from(u32::MAX)) as u32;
        Some(ClockView { remaining_ms: [left(Side::First), left(Side::Second)], running })
    }

    fn player_info(&self, pid: PlayerId, variant: Variant, turn: bool) -> PlayerInfo {
        let rating =
            if turn { self.turn_rating_view_in(pid, variant) } else { self.rating_view_in(pid, variant) };
        match self.players.get(&pid) {
            Some(p) => {
                PlayerInfo { id: pid, nickname: p.nickname.clone(), connected: p.conn.is_some(), rating }
            }
            None => PlayerInfo { id: pid, nickname: String::new(), connected: false, rating },
        }
    }

    pub(super) fn view(&self, gid: GameId, viewer: PlayerId) -> Option<GameView> {
        let g = self.games.get(&gid)?;
        let role = match g.players.iter().position(|&p| p == viewer) {
            Some(i) => Role::Player(side_of(i)),
            None => Role::Spectator,
        };
        let spectator = role == Role::Spectator;
        Some(GameView {
            game: gid,
            room: g.room.clone(),
            variant: g.game.variant(),
            start: g.game.start().to_string(),
            moves: g.game.move_strings(),
            players: [
                self.player_info(g.players[0], g.game.variant(), g.turn.is_some()),
                self.player_info(g.players[1], g.game.variant(), g.turn.is_some()),
            ],
            role,
            clock: g.clock,
            clocks: self.clocks(g),
            outcome: g.game.outcome(),
            spectators: g.spectators.len() as u32,
            public: g.public,
            proposals: if spectator { tally(&g.proposals) } else { Vec::new() },
            your_proposal: if spectator { g.proposals.get(&viewer).cloned() } else { None },
            rated: g.rated,
        })
    }

    /// Players and spectators of a game.
    pub(super) fn audience(&self, gid: GameId) -> Vec<PlayerId> {
        self.games.get(&gid).map(LiveGame::audience).unwrap_or_default()
    }

    /// The live game `gid` and the side `pid` plays in it.
    fn seat(&self, pid: PlayerId, gid: GameId) -> Result<Side, Refusal> {
        let Some(g) = self.games.get(&gid) else {
            let finished = self
                .players
                .get(&pid)
                .and_then(|p| p.room.as_ref())
                .and_then(|code| self.rooms.get(code))
                .is_some_and(|r| r.game == Some(gid));
            return if finished {
                refuse(ErrorCode::GameOver, format!("game {} is over", gid.0))
            } else {
                refuse(ErrorCode::UnknownGame, format!("no live game {}", gid.0))
            };
        };
        match g.players.iter().position(|&p| p == pid) {
            Some(i) => Ok(side_of(i)),
            None => refuse(ErrorCode::NotAPlayer, format!("you do not play game {}", gid.0)),
        }
    }

    /// A player of a live game went offline: their seat is held, and everyone is told.
    pub(super) fn seat_left(&mut self, gid: GameId, pid: PlayerId) {
        let hold_ms = self.limits.seat_hold.as_millis().min(u128::from(u32::MAX)) as u32;
        let now = self.now;
        let Some(g) = self.games.get_mut(&gid) else {
            return;
        };
        let Some(i) = g.players.iter().position(|&p| p == pid) else {
            return;
        };
        g.disconnected[i] = Some(now);
        let audience = g.audience();
        self.send_players(
            audience,
            &ServerMessage::PlayerConnection {
                game: gid,
                side: side_of(i),
                connected: false,
                hold_ms: Some(hold_ms),
            },
        );
    }

    /// A player came back: give them their live game.
    pub(super) fn reattach(&mut self, pid: PlayerId) {
        let Some(code) = self.players.get(&pid).and_then(|p| p.room.clone()) else {
            return;
        };
        let Some(gid) = self.live_game_of_room(&code) else {
            return;
        };
        let Some(g) = self.games.get_mut(&gid) else {
            return;
        };
        let Some(i) = g.players.iter().position(|&p| p == pid) else {
            return;
        };
        g.disconnected[i] = None;
        self.send_view(gid, pid);
        let others: Vec<PlayerId> = self.audience(gid).into_iter().filter(|&p| p != pid).collect();
        self.send_players(
            others,
            &ServerMessage::PlayerConnection { game: gid, side: side_of(i), connected: true, hold_ms: None },
        );
    }

    pub(super) fn play(&mut self, pid: PlayerId, gid: GameId, ply: u32, text: &str) -> Result<(), Refusal> {
        let side = self.seat(pid, gid)?;
        let now = self.now;
        let Some(g) = self.games.get_mut(&gid) else {
            return refuse(ErrorCode::UnknownGame, "no such game");
        };
        if g.game.is_over() {
            return refuse(ErrorCode::GameOver, "the game is over");
        }
        if g.game.side_to_move() != side {
            return refuse(ErrorCode::NotYourTurn, "it is your opponent's turn");
        }
        let (mv, notation) = move_at(&g.game, ply, text)?;
        // The clock first: a move after the flag fell does not count.
        let unix_ms = self.unix_ms;
        if let Some(turn) = g.turn {
            if turn.left_ms(unix_ms) == 0 {
                self.finish(gid, Outcome::win(side.opponent(), Reason::Timeout));
                return refuse(ErrorCode::GameOver, "your time ran out");
            }
        } else if let Some(spec) = g.clock {
            let left = time_left(g, side, now);
            if left == 0 {
                self.finish(gid, Outcome::win(side.opponent(), Reason::Timeout));
                return refuse(ErrorCode::GameOver, "your time ran out");
            }
            g.remaining_ms[side.index()] = left + u64::from(spec.increment_ms);
        }
        g.turn_started = now;
        let outcome = g.game.play(&mv).map_err(|e| Refusal::new(ErrorCode::IllegalMove, e.to_string()))?;
        // The mover's own open draw offer lapses with their move (the opponent's stands).
        let lapsed = g.draw_offer.take_if(|by| *by == side);
        self.stats.moves += 1;
        self.effects.push(Effect::Played { game: gid, ply });
        let clocks_after = g.clock.map(|_| g.remaining_ms);
        self.effects.push(Effect::Store(Op::Move {
            game: gid.0,
            ply,
            mv: notation.clone(),
            at_ms: self.unix_ms,
            clocks: clocks_after,
        }));
        // A turn-based game: the opponent's deadline, stored with the move (one batch).
        if let Some(turn) = &mut g.turn {
            turn.deadline_ms = unix_ms.saturating_add(turn.limit_ms());
            self.effects.push(Effect::Store(Op::TurnDeadline {
                game: gid.0,
                days: turn.days,
                deadline_ms: turn.deadline_ms,
            }));
        }
        // The crowd's verdict, then a clean slate for the next ply.
        let proposals = tally(&g.proposals);
        g.proposals.clear();
        g.proposals_dirty = false;
        let crowd = (!proposals.is_empty()).then(|| {
            let backers = proposals.iter().find(|p| p.mv == notation).map_or(0, |p| p.count);
            let top = proposals.first().map_or(0, |p| p.count);
            CrowdVerdict { proposals: proposals.clone(), backers, guessed: backers > 0 && backers == top }
        });
        if !proposals.is_empty() {
            g.history.push(PlyProposals { ply, played: notation.clone(), proposals: proposals.clone() });
            self.effects.push(Effect::Store(Op::Proposals { game: gid.0, ply, proposals }));
        }
        let players = g.players;
        let spectators: Vec<PlayerId> = g.spectators.iter().copied().collect();
        let clocks = self.games.get(&gid).and_then(|g| self.clocks(g));
        let played = |crowd| ServerMessage::MovePlayed {
            game: gid,
            ply,
            mv: notation.clone(),
            clocks,
            outcome,
            crowd,
        };
        self.send_players(players, &played(None));
        self.send_players(spectators.iter().copied(), &played(crowd.clone()));
        if let Some(outcome) = outcome {
            self.finish(gid, outcome);
        } else if let Some(by) = lapsed {
            let lapse = ServerMessage::DrawOfferLapsed { game: gid, by };
            self.send_players(players.into_iter().chain(spectators), &lapse);
        }
        Ok(())
    }

    pub(super) fn resign(&mut self, pid: PlayerId, gid: GameId) -> Result<(), Refusal> {
        let side = self.seat(pid, gid)?;
        if self.games.get(&gid).is_some_and(|g| g.game.is_over()) {
            return refuse(ErrorCode::GameOver, "the game is over");
        }
        self.finish(gid, Outcome::win(side.opponent(), Reason::Resignation));
        Ok(())
    }

    /// Refuses a request on a game that is over. A game whose side to move has run out of time
    /// (the timers have not seen it yet) ends on time first: a draw offer or answer cannot
    /// save a lost game.
    pub(super) fn still_on(&mut self, gid: GameId) -> Result<(), Refusal> {
        let Some(g) = self.games.get(&gid) else {
            return refuse(ErrorCode::UnknownGame, format!("no live game {}", gid.0));
        };
        if g.game.is_over() {
            return refuse(ErrorCode::GameOver, "the game is over");
        }
        let stm = g.game.side_to_move();
        let out_of_time = match g.turn {
            Some(turn) => turn.left_ms(self.unix_ms) == 0,
            None => g.clock.is_some() && time_left(g, stm, self.now) == 0,
        };
        if out_of_time {
            self.finish(gid, Outcome::win(stm.opponent(), Reason::Timeout));
            return refuse(ErrorCode::GameOver, "time ran out");
        }
        Ok(())
    }

    /// A player offers a draw (see the module documentation for the rules).
    pub(super) fn offer_draw(&mut self, pid: PlayerId, gid: GameId) -> Result<(), Refusal> {
        let side = self.seat(pid, gid)?;
        self.still_on(gid)?;
        let Some(g) = self.games.get_mut(&gid) else {
            return refuse(ErrorCode::UnknownGame, "no such game");
        };
        if g.draw_offer == Some(side.opponent()) {
            // Both players offer: they agree.
            self.finish(gid, Outcome::draw(Reason::Agreement));
            return Ok(());
        }
        if g.draw_offer == Some(side) {
            return refuse(ErrorCode::DrawAlreadyOffered, "your draw offer is still open");
        }
        let ply = g.game.ply();
        if g.draw_offered_at[side.index()] == Some(ply) {
            return refuse(
                ErrorCode::DrawAlreadyOffered,
                format!("you already offered a draw at ply {ply}: one offer per move"),
            );
        }
        g.draw_offered_at[side.index()] = Some(ply);
        g.draw_offer = Some(side);
        let audience = g.audience();
        self.send_players(audience, &ServerMessage::DrawOffered { game: gid, by: side });
        Ok(())
    }

    /// The opponent of the offerer accepts or declines the open draw offer.
    pub(super) fn answer_draw(&mut self, pid: PlayerId, gid: GameId, accept: bool) -> Result<(), Refusal> {
        let side = self.seat(pid, gid)?;
        self.still_on(gid)?;
        let Some(g) = self.games.get_mut(&gid) else {
            return refuse(ErrorCode::UnknownGame, "no such game");
        };
        match g.draw_offer {
            Some(by) if by == side.opponent() => {}
            Some(_) => return refuse(ErrorCode::NoDrawOffer, "you cannot answer your own draw offer"),
            None => return refuse(ErrorCode::NoDrawOffer, "no draw offer to answer"),
        }
        if accept {
            self.finish(gid, Outcome::draw(Reason::Agreement));
        } else {
            g.draw_offer = None;
            let audience = g.audience();
            self.send_players(audience, &ServerMessage::DrawDeclined { game: gid, by: side });
        }
        Ok(())
    }

    /// Ends a live game: archive, tell everyone, free the spectators (any open draw offer ends
    /// with it).
    pub(super) fn finish(&mut self, gid: GameId, outcome: Outcome) {
        let Some(mut g) = self.games.remove(&gid) else {
            return;
        };
        if g.game.outcome().is_none() {
            let _ = g.game.end(outcome);
        }
        let outcome = g.game.outcome().unwrap_or(outcome);
        // Rated and long enough: both ratings change in the same batch as the archive (one
        // transaction). Too short, it is stored as unrated.
        let rated = g.rated && self.long_enough(&g);
        let ratings = if rated {
            self.rate_game(g.game.variant(), g.players, outcome, g.public, g.turn.is_some())
        } else {
            None
        };
        if rated {
            self.counted_rated(g.players, self.now);
        } else if g.rated {
            self.effects.push(Effect::Store(Op::Unrated { game: gid.0 }));
        }
        let nick = |p: &PlayerId| self.players.get(p).map(|p| p.nickname.clone()).unwrap_or_default();
        let archive = ArchivedGame {
            game: gid,
            record: g.game.record(),
            outcome,
            players: [nick(&g.players[0]), nick(&g.players[1])],
            clock: g.clock,
            proposals: g.history.clone(),
            started_ms: g.created_ms,
            ended_ms: self.unix_ms,
            chat: std::mem::take(&mut g.chat),
            rated,
            ratings,
        };
        self.effects.push(Effect::Store(Op::Finish {
            game: gid.0,
            outcome: outcome.to_string(),
            ended_ms: archive.ended_ms,
            archive: serde_json::to_string(&archive).unwrap_or_default(),
        }));
        self.stats.games_finished += 1;
        self.send_players(g.audience(), &ServerMessage::GameOver { game: gid, outcome, archive });
        for s in &g.spectators {
            if let Some(p) = self.players.get_mut(s)
                && p.watching == Some(gid)
            {
                p.watching = None;
                p.watched_over = Some(gid);
            }
        }
        if g.turn.is_some() {
            // A turn-based game has no room and holds no seat: its players may be offline.
            self.turn_game_over(gid, g.players);
            self.tournament_game_over(gid, outcome);
            return;
        }
        // Players who are gone leave the room; the room closes if nobody is left to rematch.
        let code = g.room.clone();
        for p in g.players {
            let gone = self.players.get(&p).is_none_or(|p| p.conn.is_none());
            if gone {
                if let Some(room) = self.rooms.get_mut(&code) {
                    room.members.retain(|&m| m != p);
                }
                if let Some(pl) = self.players.get_mut(&p) {
                    pl.room = None;
                }
                self.forget_if_idle(p);
            }
        }
        if self.rooms.get(&code).is_some_and(|r| r.members.len() < 2) {
            self.close_room(&code);
        }
        self.tournament_game_over(gid, outcome);
    }

    /// Flags falling and held seats expiring.
    pub(super) fn game_timers(&mut self) {
        let now = self.now;
        let unix_ms = self.unix_ms;
        let hold = self.limits.seat_hold;
        let mut endings = Vec::new();
        for g in self.games.values() {
            if g.game.is_over() {
                continue;
            }
            let stm = g.game.side_to_move();
            if let Some(turn) = g.turn {
                // Lost on time by the server's clock, whoever is connected.
                if turn.left_ms(unix_ms) == 0 {
                    endings.push((g.id, Outcome::win(stm.opponent(), Reason::Timeout)));
                }
                continue;
            }
            if g.clock.is_some() && time_left(g, stm, now) == 0 {
                endings.push((g.id, Outcome::win(stm.opponent(), Reason::Timeout)));
                continue;
            }
            // The side whose hold ran out first loses.
            let expired = (0..2)
                .filter_map(|i| g.disconnected[i].map(|t| (t, i)))
                .filter(|(t, _)| now.saturating_duration_since(*t) >= hold)
                .min();
            if let Some((_, i)) = expired {
                endings.push((g.id, Outcome::win(side_of(i).opponent(), Reason::Abandoned)));
            }
        }
        for (gid, outcome) in endings {
            self.finish(gid, outcome);
        }
    }

    /// A stored live game back in memory (a restart, a takeover); whether it could be.
    pub(super) fn reload_game(&mut self, g: StoredGame) -> bool {
        let record =
            GameRecord { variant: g.variant, start: g.start.clone(), moves: g.moves.clone(), ending: None };
        let game = match AnyGame::from_record(&record) {
            Ok(game) => game,
            Err(e) => {
                tracing::error!(game = g.id, "cannot reload game: {e}");
                return false;
            }
        };
        let players = [PlayerId(g.players[0]), PlayerId(g.players[1])];
        if !players.iter().all(|p| self.players.contains_key(p)) {
            tracing::error!(game = g.id, "cannot reload game: unknown player");
            return false;
        }
        if g.turn.is_some() {
            // A turn-based game: no room, no seat held; its players' lists know it.
            let id = GameId(g.id);
            let now = self.now;
            self.games.insert(id, LiveGame::reloaded(g, game, players, now));
            self.turn_game_known(id, players);
            return true;
        }
        self.room_serial += 1;
        self.rooms.insert(g.room.clone(), Room::reloaded(&g, players, self.room_serial));
        for p in players {
            if let Some(player) = self.players.get_mut(&p) {
                player.room = Some(g.room.clone());
            }
        }
        let id = GameId(g.id);
        if let Some(room) = self.rooms.get_mut(&g.room) {
            room.rated = g.rated;
        }
        let now = self.now;
        self.games.insert(id, LiveGame::reloaded(g, game, players, now));
        true
    }
}
