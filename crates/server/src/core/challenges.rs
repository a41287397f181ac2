//! Challenges to turn-based games, and the player's list of them ("my games").
//!
//! A challenge names a player (a claimed nickname, or a player online) or nobody (an open
//! challenge: anyone with its code may accept it; a listed one is shown in the lobby). Its code
//! is [`CODE_CHARS`] random characters of a 32-letter alphabet (100 bits): not guessable, and
//! wrong codes count as wrong room codes do (per address, then a cool-down). The challenger
//! chooses the game, their side (or a draw) and the move limit. A challenge is stored when
//! made and deleted when it is accepted, declined, withdrawn or expired
//! ([`super::Limits::challenge_lifetime`] after it was made, by the server's Unix time, also
//! across restarts). Limits: [`super::Limits::pending_challenges`] pending per challenger,
//! [`super::Limits::challenges_per_window`] made per window, and no challenge by a player who
//! already has [`super::Limits::turn_games`] games. A refused request stores nothing.

use super::door::Effect;
use super::records::{Op, StoredChallenge};
use super::{ConnId, Core, Refusal, refuse};
use ludus_protocol::{
    ChallengeEnd, ChallengeView, ErrorCode, MyGamesView, PlayerId, ServerMessage, TURN_DAYS,
};
use ludus_rules::{Side, Variant};
use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

/// The length of a challenge's code.
pub(super) const CODE_CHARS: usize = 20;

/// The letters of challenge codes: digits and capitals without 0, 1, I and O.
const ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/// How often expired challenges are looked for.
const SWEEP_INTERVAL: Duration = Duration::from_secs(1);

/// A pending challenge.
#[derive(Clone, Debug)]
pub(super) struct Challenge {
    pub(super) code: String,
    pub(super) from: PlayerId,
    pub(super) to: Option<PlayerId>,
    pub(super) variant: Variant,
    pub(super) side: Option<Side>,
    pub(super) days: u8,
    pub(super) listed: bool,
    pub(super) rated: bool,
    pub(super) created_ms: u64,
    pub(super) expires_ms: u64,
}

impl Challenge {
    fn stored(&self) -> StoredChallenge {
        StoredChallenge {
            code: self.code.clone(),
            from: self.from.0,
            to: self.to.map(|p| p.0),
            variant: self.variant,
            side: self.side.map(|s| s.index() as u8),
            days: self.days,
            listed: self.listed,
            rated: self.rated,
            created_ms: self.created_ms,
            expires_ms: self.expires_ms,
        }
    }

    fn of(s: StoredChallenge) -> Challenge {
        Challenge {
            code: s.code,
            from: PlayerId(s.from),
            to: s.to.map(PlayerId),
            variant: s.variant,
            side: s.side.map(|i| if i == 0 { Side::First } else { Side::Second }),
            days: s.days,
            listed: s.listed,
            rated: s.rated,
            created_ms: s.created_ms,
            expires_ms: s.expires_ms,
        }
    }
}

/// The pending challenges and the budgets of challengers.
#[derive(Default)]
pub(super) struct Challenges {
    /// Change it through [`Challenges::add`] and [`Challenges::take`] only (they keep the
    /// counts).
    pub(super) by_code: HashMap<String, Challenge>,
    /// Pending challenges made by each player.
    made_pending: HashMap<PlayerId, usize>,
    /// Pending challenges made by or to each player.
    involving: HashMap<PlayerId, usize>,
    /// When each player made their last challenges, within the window.
    made: HashMap<PlayerId, VecDeque<Instant>>,
    last_sweep: Option<Instant>,
}

impl Challenges {
    fn add(&mut self, c: Challenge) {
        *self.made_pending.entry(c.from).or_default() += 1;
        for p in std::iter::once(c.from).chain(c.to) {
            *self.involving.entry(p).or_default() += 1;
        }
        if let Some(old) = self.by_code.insert(c.code.clone(), c) {
            self.forget(&old);
        }
    }

    fn take(&mut self, code: &str) -> Option<Challenge> {
        let c = self.by_code.remove(code)?;
        self.forget(&c);
        Some(c)
    }

    fn forget(&mut self, c: &Challenge) {
        let down = |map: &mut HashMap<PlayerId, usize>, p: PlayerId| {
            if let Some(n) = map.get_mut(&p) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    map.remove(&p);
                }
            }
        };
        down(&mut self.made_pending, c.from);
        for p in std::iter::once(c.from).chain(c.to) {
            down(&mut self.involving, p);
        }
    }
}

/// What a request for a challenge carries.
pub(super) struct ChallengeRequest {
    pub(super) opponent: Option<String>,
    pub(super) variant: Variant,
    pub(super) side: Option<Side>,
    pub(super) days: u8,
    pub(super) listed: bool,
    pub(super) rated: bool,
}

impl Core {
    /// A stored challenge back in memory (at start); an expired one goes at the first sweep.
    pub(super) fn reload_challenge(&mut self, s: StoredChallenge) {
        let c = Challenge::of(s);
        self.challenges.add(c);
    }

    /// Whether `pid` must stay in memory while offline: they have a turn-based game in progress
    /// or a pending challenge, made or received.
    pub(super) fn has_turn_play(&self, pid: PlayerId) -> bool {
        self.turn_games_of(pid) > 0 || self.challenges.involving.contains_key(&pid)
    }

    fn challenge_view(&self, c: &Challenge) -> ChallengeView {
        ChallengeView {
            code: c.code.clone(),
            from: self.nickname_of(c.from),
            to: c.to.map(|p| self.nickname_of(p)),
            variant: c.variant,
            side: c.side,
            days: c.days,
            listed: c.listed,
            rated: c.rated,
            expires_ms: c.expires_ms,
        }
    }

    /// The player a challenge names: a claimed nickname, else a player online.
    fn challenged(&self, nickname: &str) -> Option<PlayerId> {
        let skeleton = crate::names::skeleton(nickname.trim());
        if let Some(id) = self.accounts.claimed.get(&skeleton) {
            return Some(*id);
        }
        self.players
            .iter()
            .filter(|(_, p)| p.conn.is_some() && p.skeleton == skeleton)
            .map(|(id, _)| *id)
            .min()
    }

    /// A new challenge code, not in use.
    fn new_challenge_code(&mut self) -> String {
        loop {
            let code: String =
                (0..CODE_CHARS).map(|_| ALPHABET[(self.random_u64() % 32) as usize] as char).collect();
            if !self.challenges.by_code.contains_key(&code) {
                return code;
            }
        }
    }

    /// [`ludus_protocol::ClientMessage::Challenge`].
    pub(super) fn challenge(&mut self, pid: PlayerId, request: ChallengeRequest) -> Result<(), Refusal> {
        let ChallengeRequest { opponent, variant, side, days, listed, rated } = request;
        if !TURN_DAYS.contains(&days) {
            return refuse(ErrorCode::BadClock, format!("a move limit of {days} days is not offered"));
        }
        let to = match &opponent {
            Some(name) => {
                let Some(to) = self.challenged(name) else {
                    return refuse(
                        ErrorCode::UnknownPlayer,
                        "no claimed nickname or player online has that name",
                    );
                };
                if to == pid {
                    return refuse(ErrorCode::OwnChallenge, "you cannot challenge yourself");
                }
                Some(to)
            }
            None => None,
        };
        if rated && (!self.is_claimed(pid) || to.is_some_and(|to| !self.is_claimed(to))) {
            return refuse(ErrorCode::NotClaimed, "rated games need claimed nicknames on both sides");
        }
        self.check_turn_room(pid, "you")?;
        self.check_daily_games(&[pid])?;
        let max = self.limits.pending_challenges;
        if self.challenges.made_pending.get(&pid).copied().unwrap_or(0) >= max {
            return refuse(
                ErrorCode::TooManyChallenges,
                format!("you have {max} pending challenges: wait for answers or withdraw one"),
            );
        }
        let (now, window, per_window) =
            (self.now, self.limits.challenge_window, self.limits.challenges_per_window);
        let made = self.challenges.made.entry(pid).or_default();
        while made.front().is_some_and(|t| now.saturating_duration_since(*t) >= window) {
            made.pop_front();
        }
        if made.len() >= per_window {
            return refuse(ErrorCode::RateLimited, "too many challenges lately: wait a few minutes");
        }
        made.push_back(now);
        let code = self.new_challenge_code();
        let lifetime = self.limits.challenge_lifetime.as_millis() as u64;
        let c = Challenge {
            code,
            from: pid,
            to,
            variant,
            side,
            days,
            listed: listed && to.is_none(),
            rated,
            created_ms: self.unix_ms,
            expires_ms: self.unix_ms.saturating_add(lifetime),
        };
        self.effects.push(Effect::Store(Op::NewChallenge(c.stored())));
        let view = self.challenge_view(&c);
        self.challenges.add(c);
        self.send_player(pid, &ServerMessage::ChallengeMade(view.clone()));
        if let Some(to) = to {
            self.send_player(to, &ServerMessage::ChallengeReceived(view));
        }
        Ok(())
    }

    /// The pending challenge of `code` (as typed: case and spaces do not matter) that `pid`
    /// may answer by `may`, else the refusal every wrong code gets.
    fn pending_challenge(&self, code: &str, may: impl Fn(&Challenge) -> bool) -> Result<Challenge, Refusal> {
        let code = code.trim().to_ascii_uppercase();
        match self.challenges.by_code.get(&code) {
            Some(c) if c.expires_ms > self.unix_ms && may(c) => Ok(c.clone()),
            _ => refuse(
                ErrorCode::UnknownChallenge,
                "no pending challenge for you has this code: it may have expired or been withdrawn",
            ),
        }
    }

    /// Ends challenge `c`: deleted, and both sides told (if online) how.
    fn end_challenge(&mut self, c: &Challenge, end: ChallengeEnd) {
        self.challenges.take(&c.code);
        self.effects.push(Effect::Store(Op::EndChallenge { code: c.code.clone() }));
        let message = ServerMessage::ChallengeEnded { code: c.code.clone(), end };
        self.send_player(c.from, &message);
        if let Some(to) = c.to {
            self.send_player(to, &message);
        }
    }

    /// [`ludus_protocol::ClientMessage::AcceptChallenge`], counting wrong codes per address as
    /// wrong room codes are.
    pub(super) fn accept_challenge(
        &mut self,
        conn: ConnId,
        pid: PlayerId,
        code: &str,
    ) -> Result<(), Refusal> {
        let origin = self.conns.get(&conn).and_then(|c| c.origin);
        if self.codes_blocked(origin) {
            return refuse(ErrorCode::TooManyAttempts, "too many wrong codes: try again in a few minutes");
        }
        let found = self.pending_challenge(code, |c| c.from == pid || c.to.is_none_or(|to| to == pid));
        let c = match found {
            Ok(c) => c,
            Err(refusal) => {
                self.wrong_code(origin);
                return Err(refusal);
            }
        };
        if c.from == pid {
            return refuse(ErrorCode::OwnChallenge, "this is your own challenge: send its code to someone");
        }
        if c.rated && !self.is_claimed(pid) {
            return refuse(ErrorCode::NotClaimed, "a rated game needs your nickname claimed");
        }
        self.check_turn_room(pid, "you")?;
        self.check_turn_room(c.from, "the challenger")?;
        self.check_daily_games(&[c.from, pid])?;
        if !self.players.contains_key(&c.from) {
            return refuse(ErrorCode::Internal, "the challenger is not known here");
        }
        let challenger_first = match c.side {
            Some(side) => side == Side::First,
            None => self.random_u64().is_multiple_of(2),
        };
        let players = if challenger_first { [c.from, pid] } else { [pid, c.from] };
        let gid = self.start_turn_game(c.variant, players, c.days, c.rated)?;
        // Told to the acceptor too, who may have it in their list.
        let c = Challenge { to: Some(pid), ..c };
        self.end_challenge(&c, ChallengeEnd::Accepted(gid));
        for p in players {
            self.send_view(gid, p);
        }
        Ok(())
    }

    /// [`ludus_protocol::ClientMessage::DeclineChallenge`]: a challenge addressed to `pid`.
    pub(super) fn decline_challenge(&mut self, pid: PlayerId, code: &str) -> Result<(), Refusal> {
        let c = self.pending_challenge(code, |c| c.to == Some(pid))?;
        self.end_challenge(&c, ChallengeEnd::Declined);
        self.forget_if_idle(c.from);
        Ok(())
    }

    /// [`ludus_protocol::ClientMessage::CancelChallenge`]: `pid`'s own challenge.
    pub(super) fn cancel_challenge(&mut self, pid: PlayerId, code: &str) -> Result<(), Refusal> {
        let c = self.pending_challenge(code, |c| c.from == pid)?;
        self.end_challenge(&c, ChallengeEnd::Cancelled);
        if let Some(to) = c.to {
            self.forget_if_idle(to);
        }
        Ok(())
    }

    /// Expired challenges end (at most every [`SWEEP_INTERVAL`]).
    pub(super) fn challenge_timers(&mut self) {
        let now = self.now;
        if self.challenges.last_sweep.is_some_and(|t| now.saturating_duration_since(t) < SWEEP_INTERVAL) {
            return;
        }
        self.challenges.last_sweep = Some(now);
        let unix_ms = self.unix_ms;
        let mut expired: Vec<Challenge> =
            self.challenges.by_code.values().filter(|c| c.expires_ms <= unix_ms).cloned().collect();
        expired.sort_by(|a, b| a.code.cmp(&b.code));
        for c in expired {
            self.end_challenge(&c, ChallengeEnd::Expired);
            self.forget_if_idle(c.from);
            if let Some(to) = c.to {
                self.forget_if_idle(to);
            }
        }
        if self.challenges.made.len() > 10_000 {
            let window = self.limits.challenge_window;
            self.challenges
                .made
                .retain(|_, q| q.back().is_some_and(|t| now.saturating_duration_since(*t) < window));
        }
    }

    /// `pid`'s turn-based games and challenges, and the open ones listed.
    pub(super) fn my_games(&self, pid: PlayerId) -> MyGamesView {
        let (games, your_turn) = self.turn_summaries(pid);
        let unix_ms = self.unix_ms;
        let mut pending: Vec<&Challenge> =
            self.challenges.by_code.values().filter(|c| c.expires_ms > unix_ms).collect();
        pending.sort_by(|a, b| a.created_ms.cmp(&b.created_ms).then_with(|| a.code.cmp(&b.code)));
        let incoming = pending.iter().filter(|c| c.to == Some(pid)).map(|c| self.challenge_view(c)).collect();
        let outgoing = pending.iter().filter(|c| c.from == pid).map(|c| self.challenge_view(c)).collect();
        let open = pending
            .iter()
            .rev()
            .filter(|c| c.listed && c.to.is_none() && c.from != pid)
            .take(MyGamesView::MAX_OPEN)
            .map(|c| self.challenge_view(c))
            .collect();
        MyGamesView { games, your_turn, incoming, outgoing, open }
    }

    /// [`ludus_protocol::ClientMessage::MyGames`].
    pub(super) fn send_my_games(&mut self, conn: ConnId, pid: PlayerId) {
        self.sweep_turns_of(pid);
        let view = self.my_games(pid);
        self.send_conn(conn, &ServerMessage::MyGames(view));
    }

    /// After a welcome: the player's turn-based games and challenges, if they have any.
    pub(super) fn welcome_turns(&mut self, pid: PlayerId) {
        if self.has_turn_play(pid)
            && let Some(conn) = self.players.get(&pid).and_then(|p| p.conn)
        {
            self.send_my_games(conn, pid);
        }
    }
}
