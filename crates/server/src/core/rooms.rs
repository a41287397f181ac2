//! Rooms and their codes: creating and joining a room (wrong codes counted per address),
//! rematches, leaving, closing.

use super::limits::{CodeStrikes, check_clock};
use super::records::StoredGame;
use super::{ConnId, Core, Refusal, refuse, side_of};
use ludus_protocol::{
    ClockSpec, ErrorCode, GameId, PlayerId, ROOM_CODE_ALPHABET, ROOM_CODE_LEN, ServerMessage,
    normalize_room_code,
};
use ludus_rules::{Outcome, Reason, Variant};
use rand::Rng;

pub(super) struct Room {
    pub(super) code: String,
    pub(super) variant: Variant,
    pub(super) clock: Option<ClockSpec>,
    pub(super) public: bool,
    /// Quick-match rooms are never listed as open.
    pub(super) quick: bool,
    pub(super) members: Vec<PlayerId>,
    /// The current game, or the last one.
    pub(super) game: Option<GameId>,
    /// `[First, Second]` of the last game (rematches swap them).
    pub(super) last_players: Option<[PlayerId; 2]>,
    pub(super) rematch: [bool; 2],
    pub(super) created: u64,
    /// A rated room: both players claimed, every game in it rated (protocol 5).
    pub(super) rated: bool,
}

impl Room {
    /// A room of two, for a game (quick match, or reloaded after a restart).
    pub(super) fn new(
        code: String,
        variant: Variant,
        clock: Option<ClockSpec>,
        public: bool,
        quick: bool,
        members: Vec<PlayerId>,
        created: u64,
    ) -> Room {
        Room {
            code,
            variant,
            clock,
            public,
            quick,
            members,
            game: None,
            last_players: None,
            rematch: [false; 2],
            created,
            rated: false,
        }
    }

    /// The room of a game reloaded after a restart.
    pub(super) fn reloaded(g: &StoredGame, players: [PlayerId; 2], created: u64) -> Room {
        let mut room =
            Room::new(g.room.clone(), g.variant, g.clock, g.public, true, players.to_vec(), created);
        room.game = Some(GameId(g.id));
        room.last_players = Some(players);
        room
    }
}

impl Core {
    /// A fresh room code (unused by any open room), from the injected random source.
    pub(super) fn new_code(&mut self) -> String {
        loop {
            let code: String = (0..ROOM_CODE_LEN)
                .map(|_| ROOM_CODE_ALPHABET[self.rng.random_range(0..ROOM_CODE_ALPHABET.len())] as char)
                .collect();
            if !self.rooms.contains_key(&code) {
                return code;
            }
        }
    }

    /// The live game of a room, if one is being played.
    pub(super) fn live_game_of_room(&self, code: &str) -> Option<GameId> {
        self.rooms.get(code).and_then(|r| r.game).filter(|g| self.games.contains_key(g))
    }

    /// Refuses if the player sits in a game in progress; otherwise leaves any room and queue.
    pub(super) fn make_free(&mut self, pid: PlayerId) -> Result<(), Refusal> {
        if let Some(code) = self.players.get(&pid).and_then(|p| p.room.clone()) {
            if let Some(gid) = self.live_game_of_room(&code) {
                return refuse(
                    ErrorCode::Busy,
                    format!("you are playing game {}: finish or resign it first", gid.0),
                );
            }
            self.close_room(&code);
        }
        self.unqueue(pid);
        Ok(())
    }

    pub(super) fn create_room(
        &mut self,
        pid: PlayerId,
        variant: Variant,
        clock: Option<ClockSpec>,
        public: bool,
        rated: bool,
    ) -> Result<(), Refusal> {
        check_clock(&self.limits, clock)?;
        if rated && !self.is_claimed(pid) {
            return refuse(ErrorCode::NotClaimed, "rated games need a claimed nickname");
        }
        self.check_accepting()?;
        self.check_daily_games(&[pid])?;
        self.make_free(pid)?;
        let code = self.new_code();
        self.room_serial += 1;
        let mut room = Room::new(code.clone(), variant, clock, public, false, vec![pid], self.room_serial);
        room.rated = rated;
        self.rooms.insert(code.clone(), room);
        if let Some(p) = self.players.get_mut(&pid) {
            p.room = Some(code.clone());
        }
        self.send_player(pid, &ServerMessage::RoomOpened { code, variant, clock, public });
        Ok(())
    }

    pub(super) fn join_room(&mut self, pid: PlayerId, code: &str) -> Result<(), Refusal> {
        let Some(code) = normalize_room_code(code) else {
            return refuse(
                ErrorCode::UnknownRoom,
                format!("a room code has {ROOM_CODE_LEN} letters and digits"),
            );
        };
        let Some(room) = self.rooms.get(&code) else {
            // Several nodes: the room may be on another one (the client is sent there).
            if self.join_elsewhere(pid, &code)? {
                return Ok(());
            }
            return refuse(ErrorCode::UnknownRoom, format!("no room {code}"));
        };
        if room.members.contains(&pid) {
            return refuse(ErrorCode::OwnRoom, "this is your own room");
        }
        if room.members.len() >= 2 || room.game.is_some() {
            return refuse(ErrorCode::RoomFull, format!("room {code} is full"));
        }
        if room.rated && !self.is_claimed(pid) {
            return refuse(ErrorCode::NotClaimed, "this room is rated: claim your nickname first");
        }
        let owner = room.members.first().copied();
        self.check_accepting()?;
        self.check_daily_games(&owner.into_iter().chain([pid]).collect::<Vec<_>>())?;
        self.make_free(pid)?;
        let Some(room) = self.rooms.get_mut(&code) else {
            return refuse(ErrorCode::UnknownRoom, format!("no room {code}"));
        };
        room.members.push(pid);
        if let Some(p) = self.players.get_mut(&pid) {
            p.room = Some(code.clone());
        }
        let first_first = self.random_u64().is_multiple_of(2);
        self.start_game(&code, first_first)
    }

    pub(super) fn rematch(&mut self, pid: PlayerId, gid: GameId) -> Result<(), Refusal> {
        let code = self.players.get(&pid).and_then(|p| p.room.clone());
        let Some(code) = code else {
            return refuse(ErrorCode::NoRematch, "you are not in that game's room any more");
        };
        if self.games.contains_key(&gid) {
            return refuse(ErrorCode::NoRematch, "the game is not over");
        }
        let Some(room) = self.rooms.get_mut(&code) else {
            return refuse(ErrorCode::NoRematch, "the room is closed");
        };
        if room.game != Some(gid) {
            return refuse(ErrorCode::NoRematch, "that is not your last game");
        }
        let Some(last) = room.last_players else {
            return refuse(ErrorCode::NoRematch, "no game to replay");
        };
        if room.members.len() < 2 {
            return refuse(ErrorCode::NoRematch, "your opponent has left");
        }
        let Some(i) = last.iter().position(|&p| p == pid) else {
            return refuse(ErrorCode::NotAPlayer, "you did not play that game");
        };
        self.check_daily_games(&last)?;
        let Some(room) = self.rooms.get_mut(&code) else {
            return refuse(ErrorCode::NoRematch, "the room is closed");
        };
        room.rematch[i] = true;
        if room.rematch == [true, true] {
            // Colours swap: the last game's Second plays First.
            let first_first = room.members[0] == last[1];
            return self.start_game(&code, first_first);
        }
        self.send_players(last, &ServerMessage::RematchOffered { game: gid, by: side_of(i) });
        Ok(())
    }

    /// Leaves queue, spectating and room; resigns a game in progress.
    pub(super) fn leave(&mut self, pid: PlayerId) {
        self.unqueue(pid);
        self.unwatch(pid);
        let Some(code) = self.players.get(&pid).and_then(|p| p.room.clone()) else {
            return;
        };
        if let Some(gid) = self.live_game_of_room(&code)
            && let Some(g) = self.games.get(&gid)
            && let Some(i) = g.players.iter().position(|&p| p == pid)
            && !g.game.is_over()
        {
            self.finish(gid, Outcome::win(side_of(i).opponent(), Reason::Resignation));
        }
        self.close_room(&code);
    }

    /// Closes a room that has no game in progress; its other member is told.
    pub(super) fn close_room(&mut self, code: &str) {
        if self.live_game_of_room(code).is_some() {
            return;
        }
        let Some(room) = self.rooms.remove(code) else {
            return;
        };
        for m in room.members {
            if let Some(p) = self.players.get_mut(&m)
                && p.room.as_deref() == Some(code)
            {
                p.room = None;
            }
            let online = self.players.get(&m).is_some_and(|p| p.conn.is_some());
            if online {
                self.send_player(m, &ServerMessage::Left);
            } else {
                self.forget_if_idle(m);
            }
        }
    }

    /// Joins a room by code, counting wrong codes per address: beyond
    /// [`super::Limits::code_guesses`] in [`super::Limits::code_window`], every code is refused
    /// for [`super::Limits::code_cooldown`] (guessing private codes is cut off).
    pub(super) fn join_by_code(&mut self, conn: ConnId, pid: PlayerId, code: &str) -> Result<(), Refusal> {
        let origin = self.conns.get(&conn).and_then(|c| c.origin);
        if self.codes_blocked(origin) {
            return refuse(
                ErrorCode::TooManyAttempts,
                "too many wrong room codes: try again in a few minutes",
            );
        }
        let result = self.join_room(pid, code);
        if let Err(refusal) = &result
            && refusal.code == ErrorCode::UnknownRoom
        {
            self.wrong_code(origin);
        }
        result
    }

    /// Whether `origin` tried too many wrong codes lately and is refused every code for now.
    pub(super) fn codes_blocked(&self, origin: Option<std::net::IpAddr>) -> bool {
        origin
            .and_then(|o| self.code_strikes.get(&o))
            .is_some_and(|s| s.until.is_some_and(|until| self.now < until))
    }

    /// Counts a wrong code (a room's, a challenge's, a tournament's) from `origin`: past
    /// [`super::Limits::code_guesses`] within [`super::Limits::code_window`], its codes are
    /// refused for [`super::Limits::code_cooldown`].
    pub(super) fn wrong_code(&mut self, origin: Option<std::net::IpAddr>) {
        let Some(origin) = origin else { return };
        let now = self.now;
        let limits = (self.limits.code_guesses, self.limits.code_window, self.limits.code_cooldown);
        let strikes =
            self.code_strikes.entry(origin).or_insert(CodeStrikes { count: 0, since: now, until: None });
        if now.saturating_duration_since(strikes.since) > limits.1 || strikes.until.is_some_and(|u| now >= u)
        {
            *strikes = CodeStrikes { count: 0, since: now, until: None };
        }
        strikes.count += 1;
        if strikes.count >= limits.0 {
            strikes.until = Some(now + limits.2);
        }
    }

    /// Forgets the wrong codes of addresses that have not tried one for a while, when there are
    /// many.
    pub(super) fn prune_code_strikes(&mut self) {
        if self.code_strikes.len() > 10_000 {
            let (now, window) = (self.now, self.limits.code_window.max(self.limits.code_cooldown));
            self.code_strikes.retain(|_, s| now.saturating_duration_since(s.since) <= window);
        }
    }
}
