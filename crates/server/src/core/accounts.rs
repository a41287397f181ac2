//! Claimed nicknames and ratings (protocol 5): claiming one's nickname with a password,
//! signing in as a claimed player from any device, and the Glicko-2 update of rated games.
//!
//! The password work runs off the loop ([`super::passwords`]): the core asks for it with
//! [`Effect::HashPassword`] and goes on in [`Core::password_done`] with the answer.
//!
//! Every claimed nickname is in memory (loaded at start, a few hundred bytes each): a name
//! change is checked against them without a database read. A claimed nickname clashes with
//! every name of the same confusable skeleton ([`crate::names::skeleton`]): nobody else may
//! take or claim it. A player already using a look-alike when it is claimed keeps it (the
//! claim does not rename anyone) but nobody can newly take it; a claimed player cannot change
//! their nickname.

use super::connections::Player;
use super::door::Effect;
use super::limits::CodeStrikes;
use super::passwords::{PasswordAnswer, PasswordJob};
use super::records::{ClaimOrigin, Op, StoredClaim, StoredRating};
use super::{ConnId, Core, Refusal, refuse};
use crate::credential::credential_hash;
use ludus_protocol::{
    ErrorCode, PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS, PROVISIONAL_DEVIATION, Password, PlayerId,
    RatingChange, RatingView, ServerMessage, SessionToken,
};
use ludus_rules::{Outcome, Side, Variant};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};
use std::collections::{HashMap, HashSet, VecDeque};
use std::net::IpAddr;
use std::time::Instant;

/// A claimed nickname in memory.
pub(super) struct Claim {
    /// The nickname as claimed.
    pub(super) nickname: String,
    /// The password's Argon2id PHC string.
    pub(super) password_hash: String,
    /// The player's ratings, by variant (absent: never played rated, the default rating).
    pub(super) ratings: HashMap<Variant, StoredRating>,
    /// The player's turn-based ratings, by variant: a pool apart from real-time play.
    pub(super) turn_ratings: HashMap<Variant, StoredRating>,
    /// Where (a keyed hash of the address) and when it was claimed, if known.
    pub(super) origin: Option<ClaimOrigin>,
    /// Different opponents met in games that changed ratings (the first
    /// [`super::Limits::rated_opponents_full`] of them: see `rated`).
    pub(super) opponents: HashSet<PlayerId>,
}

/// One Glicko-2 rating period (skillratings' `glicko2_rating_period`, default configuration:
/// tau 0.5) of `player` against `results` (opponent, score for `player`: 1 win, 0.5 draw, 0
/// loss). The server rates every game as a period of its own; the worked example of Glickman's
/// paper is three games in one period.
pub fn rating_period(player: &StoredRating, results: &[(StoredRating, f64)]) -> StoredRating {
    let glicko = |r: &StoredRating| Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    };
    let results: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|(o, score)| {
            let outcome = if *score > 0.75 {
                Outcomes::WIN
            } else if *score < 0.25 {
                Outcomes::LOSS
            } else {
                Outcomes::DRAW
            };
            (glicko(o), outcome)
        })
        .collect();
    let new = glicko2_rating_period(&glicko(player), &results, &Glicko2Config::new());
    let mut after = *player;
    after.rating = new.rating;
    after.deviation = new.deviation;
    after.volatility = new.volatility;
    for (_, outcome) in &results {
        after.games += 1;
        match outcome {
            Outcomes::WIN => after.wins += 1,
            Outcomes::DRAW => after.draws += 1,
            Outcomes::LOSS => after.losses += 1,
        }
    }
    after
}

/// A rating as clients show it.
pub fn rating_view(r: &StoredRating) -> RatingView {
    RatingView {
        rating: r.rating.round() as i32,
        deviation: r.deviation.round() as i32,
        provisional: r.deviation > PROVISIONAL_DEVIATION,
    }
}

/// Wrong passwords allowed per address and per claimed nickname within the window.
const LOGIN_GUESSES: u32 = 5;
/// The window in which wrong passwords are counted.
const LOGIN_WINDOW: std::time::Duration = std::time::Duration::from_secs(600);
/// Most password checks and hashes one address (or one connection without a known address)
/// may start within [`PASSWORD_WINDOW`], whatever their outcome: each costs the password thread
/// about 30 ms of Argon2.
pub(super) const PASSWORD_JOBS: usize = 10;
/// See [`PASSWORD_JOBS`].
pub(super) const PASSWORD_WINDOW: std::time::Duration = std::time::Duration::from_secs(600);
/// Most password jobs waiting for the password thread at once, for the whole server.
pub(super) const PASSWORD_IN_FLIGHT: usize = 64;

/// Who pays for password work: the address, or the connection where the address is unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Spender {
    Address(IpAddr),
    Connection(ConnId),
}

/// Whether `log` (when something was done, oldest first) has room for one more within
/// `window` of `now` (at most `most`); what is older than the window is dropped.
fn room_in(log: &mut VecDeque<Instant>, now: Instant, window: std::time::Duration, most: usize) -> bool {
    while log.front().is_some_and(|&t| now.saturating_duration_since(t) >= window) {
        log.pop_front();
    }
    log.len() < most
}

/// How long an address or nickname is refused after too many wrong passwords.
const LOGIN_COOLDOWN: std::time::Duration = std::time::Duration::from_secs(300);

/// Claimed nicknames, and what bounds the password work.
#[derive(Default)]
pub(super) struct Accounts {
    /// Every claimed nickname, by player.
    pub(super) claims: HashMap<PlayerId, Claim>,
    /// The owner of each claimed nickname, by its skeleton.
    pub(super) claimed: HashMap<String, PlayerId>,
    /// Password work handed out and not answered yet (bounded: [`PASSWORD_IN_FLIGHT`]).
    pub(super) password_in_flight: usize,
    /// When each address (or connection without one) last started password work, newest last
    /// (every claim and sign-in counts, right or wrong: [`PASSWORD_JOBS`] a window).
    pub(super) password_spend: HashMap<Spender, VecDeque<Instant>>,
    /// When each address claimed its nicknames, within [`super::Limits::claim_window`].
    pub(super) claims_made: HashMap<IpAddr, VecDeque<Instant>>,
    /// Wrong passwords from one address.
    pub(super) login_strikes: HashMap<IpAddr, CodeStrikes>,
    /// Wrong passwords for one claimed nickname.
    pub(super) claim_strikes: HashMap<PlayerId, CodeStrikes>,
}

impl Core {
    /// A stored claim back in memory (at start).
    pub(super) fn remember_claim(&mut self, c: StoredClaim) {
        let id = PlayerId(c.id);
        // Claims are loaded by player number: of two look-alikes claimed before their keys
        // were equal, the older player keeps the name.
        self.accounts.claimed.entry(crate::names::skeleton(&c.nickname)).or_insert(id);
        let ratings: HashMap<Variant, StoredRating> = c.ratings.into_iter().collect();
        for variant in Variant::ALL {
            self.board.set(id, variant, ratings.get(&variant).copied());
        }
        let turn_ratings = c.turn_ratings.into_iter().collect();
        self.accounts.claims.insert(
            id,
            Claim {
                nickname: c.nickname,
                password_hash: c.password_hash,
                ratings,
                turn_ratings,
                origin: c.origin,
                opponents: HashSet::new(),
            },
        );
    }

    /// Forgets the budgets of addresses and names that have not been used for a while, when
    /// there are many.
    pub(super) fn prune_account_budgets(&mut self) {
        if self.accounts.claims_made.len() > 10_000 {
            let (now, window) = (self.now, self.limits.claim_window);
            self.accounts
                .claims_made
                .retain(|_, v| v.back().is_some_and(|&t| now.saturating_duration_since(t) < window));
        }
        if self.accounts.password_spend.len() > 10_000 {
            let now = self.now;
            self.accounts
                .password_spend
                .retain(|_, v| v.back().is_some_and(|&t| now.saturating_duration_since(t) < PASSWORD_WINDOW));
        }
        if self.accounts.login_strikes.len() + self.accounts.claim_strikes.len() > 10_000 {
            let now = self.now;
            let stale = |s: &CodeStrikes| {
                now.saturating_duration_since(s.since) > std::time::Duration::from_secs(900)
                    && s.until.is_none_or(|u| now >= u)
            };
            self.accounts.login_strikes.retain(|_, s| !stale(s));
            self.accounts.claim_strikes.retain(|_, s| !stale(s));
        }
    }

    /// Whether `skeleton` is the skeleton of a nickname claimed by someone other than `me`.
    pub(super) fn claimed_by_other(&self, skeleton: &str, me: Option<PlayerId>) -> bool {
        self.accounts.claimed.get(skeleton).is_some_and(|owner| Some(*owner) != me)
    }

    /// Whether `pid` has claimed their nickname.
    pub(super) fn is_claimed(&self, pid: PlayerId) -> bool {
        self.accounts.claims.contains_key(&pid)
    }

    /// A claimed player's rating in `variant` (the starting one before any rated game); `None`
    /// for a player who has not claimed their nickname.
    pub(super) fn claimed_rating(&self, pid: PlayerId, variant: Variant) -> Option<StoredRating> {
        let claim = self.accounts.claims.get(&pid)?;
        Some(claim.ratings.get(&variant).copied().unwrap_or_default())
    }

    /// [`Core::claimed_rating`] as clients show it.
    pub(super) fn rating_view_in(&self, pid: PlayerId, variant: Variant) -> Option<RatingView> {
        self.claimed_rating(pid, variant).as_ref().map(rating_view)
    }

    /// A claimed player's turn-based rating in `variant` (its own pool), as clients show it.
    pub(super) fn turn_rating_view_in(&self, pid: PlayerId, variant: Variant) -> Option<RatingView> {
        let claim = self.accounts.claims.get(&pid)?;
        Some(rating_view(&claim.turn_ratings.get(&variant).copied().unwrap_or_default()))
    }

    /// [`ludus_protocol::ClientMessage::ClaimNickname`].
    pub(super) fn claim_nickname(
        &mut self,
        conn: ConnId,
        pid: PlayerId,
        password: Password,
    ) -> Result<(), Refusal> {
        let chars = password.0.chars().count();
        if !(PASSWORD_MIN_CHARS..=PASSWORD_MAX_CHARS).contains(&chars) {
            return refuse(
                ErrorCode::BadPassword,
                format!("a password has {PASSWORD_MIN_CHARS} to {PASSWORD_MAX_CHARS} characters"),
            );
        }
        if self.is_claimed(pid) {
            return refuse(ErrorCode::BadNickname, "your nickname is already claimed");
        }
        let Some(player) = self.players.get(&pid) else {
            return refuse(ErrorCode::Internal, "player vanished");
        };
        if self.claimed_by_other(&player.skeleton, Some(pid)) {
            return refuse(
                ErrorCode::BadNickname,
                "another player has claimed this name or one that looks like it",
            );
        }
        let nickname = player.nickname.clone();
        if let Some(origin) = self.conns.get(&conn).and_then(|c| c.origin) {
            let (now, window, most) = (self.now, self.limits.claim_window, self.limits.claims_per_address);
            if !room_in(self.accounts.claims_made.entry(origin).or_default(), now, window, most) {
                return refuse(
                    ErrorCode::RateLimited,
                    format!(
                        "at most {most} nicknames claimed from one address in {} hours",
                        window.as_secs() / 3600
                    ),
                );
            }
        }
        self.start_password_job(conn)?;
        self.effects.push(Effect::HashPassword(PasswordJob::Hash { conn, player: pid, nickname, password }));
        Ok(())
    }

    /// Books a password job for `conn`: one at a time per connection, [`PASSWORD_JOBS`] per
    /// address in [`PASSWORD_WINDOW`], [`PASSWORD_IN_FLIGHT`] in all; refused otherwise.
    fn start_password_job(&mut self, conn: ConnId) -> Result<(), Refusal> {
        let Some(c) = self.conns.get(&conn) else {
            return refuse(ErrorCode::Internal, "connection vanished");
        };
        if c.password_busy {
            return refuse(ErrorCode::RateLimited, "a password is being checked: wait for the answer");
        }
        if self.accounts.password_in_flight >= PASSWORD_IN_FLIGHT {
            return refuse(ErrorCode::Busy, "the server is checking many passwords: try again in a moment");
        }
        let spender = c.origin.map_or(Spender::Connection(conn), Spender::Address);
        let now = self.now;
        let spent = self.accounts.password_spend.entry(spender).or_default();
        if !room_in(spent, now, PASSWORD_WINDOW, PASSWORD_JOBS) {
            return refuse(
                ErrorCode::RateLimited,
                format!(
                    "at most {PASSWORD_JOBS} password checks in {} minutes from one address",
                    PASSWORD_WINDOW.as_secs() / 60
                ),
            );
        }
        spent.push_back(now);
        self.accounts.password_in_flight += 1;
        if let Some(c) = self.conns.get_mut(&conn) {
            c.password_busy = true;
        }
        Ok(())
    }

    /// [`ludus_protocol::ClientMessage::SignInClaimed`].
    pub(super) fn sign_in_claimed(
        &mut self,
        conn: ConnId,
        pid: PlayerId,
        nickname: &str,
        password: Password,
    ) -> Result<(), Refusal> {
        let skeleton = crate::names::skeleton(nickname.trim());
        let target = self.accounts.claimed.get(&skeleton).copied();
        let origin = self.conns.get(&conn).and_then(|c| c.origin);
        let now = self.now;
        let cooling = |s: Option<&CodeStrikes>| s.is_some_and(|s| s.until.is_some_and(|until| now < until));
        if cooling(origin.and_then(|o| self.accounts.login_strikes.get(&o)))
            || cooling(target.and_then(|t| self.accounts.claim_strikes.get(&t)))
        {
            return refuse(
                ErrorCode::TooManyAttempts,
                "too many wrong passwords: try again in a few minutes",
            );
        }
        self.check_free_to_switch(pid)?;
        let password_hash =
            target.and_then(|t| self.accounts.claims.get(&t)).map(|c| c.password_hash.clone());
        self.start_password_job(conn)?;
        self.effects.push(Effect::HashPassword(PasswordJob::Verify {
            conn,
            target,
            password_hash,
            password,
        }));
        Ok(())
    }

    /// A player leaving their anonymous self for a claimed one must not sit in a room, a queue
    /// or watch a game.
    fn check_free_to_switch(&self, pid: PlayerId) -> Result<(), Refusal> {
        match self.players.get(&pid) {
            Some(p) if p.room.is_none() && p.queued.is_none() && p.watching.is_none() => Ok(()),
            Some(_) => refuse(ErrorCode::Busy, "leave your room, queue or game before signing in"),
            None => refuse(ErrorCode::Internal, "player vanished"),
        }
    }

    /// The answer to a job of [`Core::take_password_jobs`].
    pub(super) fn password_done(&mut self, answer: PasswordAnswer) {
        let conn = match &answer {
            PasswordAnswer::Hashed { conn, .. } | PasswordAnswer::Verified { conn, .. } => *conn,
        };
        self.accounts.password_in_flight = self.accounts.password_in_flight.saturating_sub(1);
        let Some(c) = self.conns.get_mut(&conn) else {
            return; // Gone meanwhile.
        };
        c.password_busy = false;
        let Some(pid) = c.player else {
            return;
        };
        let result = match answer {
            PasswordAnswer::Hashed { player, nickname, password_hash, .. } => {
                self.claimed_hash(conn, player, nickname, password_hash)
            }
            PasswordAnswer::Verified { target, ok, .. } => self.verified(conn, pid, target, ok),
        };
        if let Err(refusal) = result {
            self.error(conn, refusal);
        }
    }

    fn claimed_hash(
        &mut self,
        conn: ConnId,
        pid: PlayerId,
        nickname: String,
        password_hash: Option<String>,
    ) -> Result<(), Refusal> {
        let Some(password_hash) = password_hash else {
            return refuse(ErrorCode::Internal, "the password could not be hashed");
        };
        // Checked again: the player may have been renamed, or someone claimed a look-alike.
        let Some(player) = self.players.get(&pid).filter(|p| p.nickname == nickname && p.conn == Some(conn))
        else {
            return refuse(ErrorCode::BadNickname, "the nickname changed meanwhile: claim it again");
        };
        let skeleton = player.skeleton.clone();
        if self.is_claimed(pid) || self.claimed_by_other(&skeleton, Some(pid)) {
            return refuse(ErrorCode::BadNickname, "this name or one that looks like it is claimed");
        }
        if let Some(origin) = self.conns.get(&conn).and_then(|c| c.origin) {
            self.accounts.claims_made.entry(origin).or_default().push_back(self.now);
        }
        self.accounts.claimed.insert(skeleton.clone(), pid);
        let origin = self.claim_origin(conn);
        self.accounts.claims.insert(
            pid,
            Claim {
                nickname: nickname.clone(),
                password_hash: password_hash.clone(),
                ratings: HashMap::new(),
                turn_ratings: HashMap::new(),
                origin: origin.clone(),
                opponents: HashSet::new(),
            },
        );
        self.effects.push(Effect::Store(Op::Claim { id: pid.0, skeleton, password_hash }));
        if let Some(o) = origin {
            self.effects.push(Effect::Store(Op::ClaimOrigin {
                id: pid.0,
                address: o.address,
                claimed_ms: o.claimed_ms,
            }));
        }
        self.send_conn(conn, &ServerMessage::NicknameClaimed { nickname });
        Ok(())
    }

    fn verified(
        &mut self,
        conn: ConnId,
        pid: PlayerId,
        target: Option<PlayerId>,
        ok: bool,
    ) -> Result<(), Refusal> {
        let origin = self.conns.get(&conn).and_then(|c| c.origin);
        let Some(target) = target.filter(|t| ok && self.accounts.claims.contains_key(t)) else {
            let now = self.now;
            if let Some(o) = origin {
                strike(self.accounts.login_strikes.entry(o).or_insert_with(|| fresh(now)), now);
            }
            if let Some(t) = target {
                strike(self.accounts.claim_strikes.entry(t).or_insert_with(|| fresh(now)), now);
            }
            return refuse(ErrorCode::BadCredentials, "unknown nickname or wrong password");
        };
        self.check_free_to_switch(pid)?;
        // Leave the anonymous player (who stays in the database, like any idle player).
        if target != pid {
            if let Some(p) = self.players.get_mut(&pid) {
                p.conn = None;
            }
            self.forget_if_idle(pid);
            if !self.players.contains_key(&target) {
                let nickname =
                    self.accounts.claims.get(&target).map(|c| c.nickname.clone()).unwrap_or_default();
                self.players.insert(target, Player::new(String::new(), None, self.unix_ms, nickname));
            }
        }
        // A fresh credential, the only valid one from now on (other devices' sessions end).
        let credential = self.new_token();
        let hash = credential_hash(&credential);
        let Some(player) = self.players.get_mut(&target) else {
            return refuse(ErrorCode::Internal, "player vanished");
        };
        let old = [Some(std::mem::replace(&mut player.hash, hash.clone())), player.prev.take()];
        player.last_seen_ms = self.unix_ms;
        self.tokens.insert(hash.clone(), target);
        // The credentials before it are superseded: one used again shows a copy in other hands.
        self.retire(target, old.into_iter().flatten().filter(|h| !h.is_empty()).collect());
        self.effects.push(Effect::Store(Op::Credential {
            id: target.0,
            hash,
            prev: None,
            last_seen_ms: self.unix_ms,
        }));
        self.take_connection(conn, target);
        let nickname = self.players.get(&target).map(|p| p.nickname.clone()).unwrap_or_default();
        self.send_conn(
            conn,
            &ServerMessage::Welcome {
                player: target,
                nickname,
                token: SessionToken(credential),
                resumed: true,
            },
        );
        self.reattach(target);
        self.welcome_turns(target);
        Ok(())
    }

    /// The rating changes of a rated game that ended with `outcome` between `players`
    /// (`[First, Second]`, both claimed): stored with `ops` (the same batch as the game's end)
    /// and returned for the archive. A private game changes the ratings but not the record
    /// (games, wins, draws, losses): the record is public, the game is not. A turn-based game
    /// (`turn`) changes the turn-based ratings, a pool of their own.
    pub(super) fn rate_game(
        &mut self,
        variant: Variant,
        players: [PlayerId; 2],
        outcome: Outcome,
        public: bool,
        turn: bool,
    ) -> Option<[RatingChange; 2]> {
        let rating = |pid: PlayerId| -> Option<StoredRating> {
            let c = self.accounts.claims.get(&pid)?;
            let pool = if turn { &c.turn_ratings } else { &c.ratings };
            Some(pool.get(&variant).copied().unwrap_or_default())
        };
        let before = [rating(players[0])?, rating(players[1])?];
        let score = |side: Side| match outcome.winner {
            None => 0.5,
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
        };
        let mut after = [
            rating_period(&before[0], &[(before[1], score(Side::First))]),
            rating_period(&before[1], &[(before[0], score(Side::Second))]),
        ];
        // A result against a player with few different opponents counts little (`rated`).
        for i in 0..2 {
            let weight = self.opponent_weight(players[i], players[1 - i]);
            let (a, b) = (&mut after[i], &before[i]);
            a.rating = b.rating + weight * (a.rating - b.rating);
            a.deviation = b.deviation + weight * (a.deviation - b.deviation);
            a.volatility = b.volatility + weight * (a.volatility - b.volatility);
        }
        self.met_rated(players);
        if !public {
            for (a, b) in after.iter_mut().zip(&before) {
                (a.games, a.wins, a.draws, a.losses) = (b.games, b.wins, b.draws, b.losses);
            }
        }
        for i in 0..2 {
            if let Some(c) = self.accounts.claims.get_mut(&players[i]) {
                if turn { &mut c.turn_ratings } else { &mut c.ratings }.insert(variant, after[i]);
            }
            if !turn {
                self.board.set(players[i], variant, Some(after[i]));
            }
            let (player, rating) = (players[i].0, after[i]);
            self.effects.push(Effect::Store(if turn {
                Op::TurnRating { player, variant, rating }
            } else {
                Op::Rating { player, variant, rating }
            }));
        }
        Some([0, 1].map(|i| RatingChange { before: rating_view(&before[i]), after: rating_view(&after[i]) }))
    }
}

fn fresh(now: Instant) -> CodeStrikes {
    CodeStrikes { count: 0, since: now, until: None }
}

/// Counts a wrong password: beyond [`LOGIN_GUESSES`] in [`LOGIN_WINDOW`], a cool-down.
fn strike(s: &mut CodeStrikes, now: Instant) {
    if now.saturating_duration_since(s.since) > LOGIN_WINDOW || s.until.is_some_and(|u| now >= u) {
        *s = fresh(now);
    }
    s.count += 1;
    if s.count >= LOGIN_GUESSES {
        s.until = Some(now + LOGIN_COOLDOWN);
    }
}
