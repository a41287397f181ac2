//! The rules that make a rating mean something. Ratings can be farmed by one person holding
//! two claimed nicknames (one resigns to the other, again and again), or by two friends
//! trading wins; so:
//!
//! - **A game counts only once each side has moved [`RATED_MOVES_EACH`] times and it has
//!   lasted [`Limits::rated_min_play`]** (ply `2 * RATED_MOVES_EACH` or later when it ends, a
//!   minute by default, by the server's clock). A rated game that ends sooner (resigned,
//!   abandoned, lost on time, drawn by agreement) is archived and stored as unrated: no rating
//!   changes, and its archive says `rated: false`.
//! - **A result counts by the opponent's history**: in the share of
//!   [`Limits::rated_opponents_full`] different players, other than the one rated, whom the
//!   opponent has met in games that changed ratings ([`Core::opponent_weight`]): nothing
//!   against an account that has met nobody else, in full from that many on. Accounts made to
//!   lose, from any number of addresses, give nothing until each has met that many others, and
//!   those others' results against them count nothing until they too have. Whom each claimed
//!   player met is stored (one more than the full count) and read back at start.
//! - **At most [`RATED_GAMES_PER_PAIR`] games between the same two players change their
//!   ratings within [`RATED_PAIR_WINDOW`]**; later games in a rated room start unrated
//!   (their [`ludus_protocol::GameView::rated`] is `false`: the players see it when the game
//!   starts). The games that counted are kept in memory and, after a restart, read back from
//!   the database (the rated games that ended within the window).
//! - **Two nicknames claimed from one address (IPv4 address, IPv6 /64) within
//!   [`Limits::shared_claim_window`] of each other play each other unrated**, likewise told by
//!   the view. What is stored of the address is a keyed hash ([`address_hash`]), with the time
//!   of the claim; nicknames claimed before that was stored have no origin and are not held
//!   back by this rule.
//!
//! None of these undoes anything: a game that did not count never changed a rating, so the
//! leaderboard has nothing to correct. A game weighted to nothing is still on both records.
//!
//! [`Limits::shared_claim_window`]: super::Limits::shared_claim_window
//! [`Limits::rated_min_play`]: super::Limits::rated_min_play
//! [`Limits::rated_opponents_full`]: super::Limits::rated_opponents_full

use super::door::Effect;
use super::game::LiveGame;
use super::records::{ClaimOrigin, Op};
use super::{ConnId, Core};
use ludus_protocol::PlayerId;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Moves each side must have played for a rated game to change the ratings.
pub const RATED_MOVES_EACH: usize = 5;
/// Most games between the same two players that change their ratings within
/// [`RATED_PAIR_WINDOW`].
pub const RATED_GAMES_PER_PAIR: usize = 3;
/// See [`RATED_GAMES_PER_PAIR`].
pub const RATED_PAIR_WINDOW: Duration = Duration::from_secs(24 * 3600);

/// The stored form of a claiming address: SHA-256 of the server's address secret and the
/// address's key (IPv4 address, IPv6 /64), in hex (the first 16 bytes). Without the secret it
/// cannot be reversed by trying every address.
pub fn address_hash(secret: &[u8; 32], address: std::net::IpAddr) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(b"ludus claim address\0");
    h.update(secret);
    h.update(address.to_string().as_bytes());
    h.finalize().iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// The two players of a game in a fixed order, whichever side they played.
fn pair(players: [PlayerId; 2]) -> [PlayerId; 2] {
    let [a, b] = players;
    if a <= b { [a, b] } else { [b, a] }
}

impl Core {
    /// Sets the secret of [`address_hash`] (derived from the server's private key, so that it
    /// stays the same across restarts).
    pub fn set_address_secret(&mut self, key: &[u8; 32]) {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(b"ludus claim address secret\0");
        h.update(key);
        self.address_secret = h.finalize().into();
    }

    /// Where and when a claim made now on `conn` comes from (`None`: the address is unknown).
    pub(super) fn claim_origin(&self, conn: ConnId) -> Option<ClaimOrigin> {
        let origin = self.conns.get(&conn)?.origin?;
        Some(ClaimOrigin { address: address_hash(&self.address_secret, origin), claimed_ms: self.unix_ms })
    }

    /// Why a game starting now between `players` cannot be rated, if it cannot.
    pub(super) fn unrated_reason(&mut self, players: [PlayerId; 2]) -> Option<&'static str> {
        let now = self.now;
        if let Some(log) = self.rated_pairs.get_mut(&pair(players)) {
            while log.front().is_some_and(|&t| now.saturating_duration_since(t) >= RATED_PAIR_WINDOW) {
                log.pop_front();
            }
            if log.len() >= RATED_GAMES_PER_PAIR {
                return Some("the same two players' rated games of the day");
            }
        }
        let window = self.limits.shared_claim_window.as_millis() as u64;
        let origin = |p: &PlayerId| self.accounts.claims.get(p).and_then(|c| c.origin.as_ref());
        if let (Some(a), Some(b)) = (origin(&players[0]), origin(&players[1]))
            && a.address == b.address
            && a.claimed_ms.abs_diff(b.claimed_ms) < window
        {
            return Some("nicknames claimed from one address");
        }
        None
    }

    /// Whether a rated game ending now changes the ratings: each side moved often enough, and
    /// it lasted [`super::Limits::rated_min_play`] by the server's clock.
    pub(super) fn long_enough(&self, g: &LiveGame) -> bool {
        let lasted = self.unix_ms.saturating_sub(g.created_ms);
        g.game.ply() >= 2 * RATED_MOVES_EACH && lasted >= self.limits.rated_min_play.as_millis() as u64
    }

    /// How much a result of `player` against `opponent` counts: the share of
    /// [`super::Limits::rated_opponents_full`] different opponents other than `player` that
    /// `opponent` has met in games that changed ratings (0 against an account that has met
    /// nobody else, 1 from that many on).
    pub(super) fn opponent_weight(&self, player: PlayerId, opponent: PlayerId) -> f64 {
        let full = self.limits.rated_opponents_full;
        if full == 0 {
            return 1.0;
        }
        let met = self
            .accounts
            .claims
            .get(&opponent)
            .map_or(0, |c| c.opponents.iter().filter(|&&o| o != player).count());
        (met as f64 / f64::from(full)).min(1.0)
    }

    /// `players` met in a game that changed their ratings: each is one more different opponent
    /// of the other, until each has met enough (stored, read back at start).
    pub(super) fn met_rated(&mut self, players: [PlayerId; 2]) {
        // One more than counts in full: the player being rated is left out of the count.
        let full = self.limits.rated_opponents_full as usize + 1;
        for (player, opponent) in [(players[0], players[1]), (players[1], players[0])] {
            if let Some(c) = self.accounts.claims.get_mut(&player)
                && c.opponents.len() < full
                && c.opponents.insert(opponent)
            {
                self.effects
                    .push(Effect::Store(Op::RatedOpponent { player: player.0, opponent: opponent.0 }));
            }
        }
    }

    /// Whom claimed players met in games that changed ratings, as stored.
    pub(super) fn reload_opponents(&mut self, met: Vec<(u64, u64)>) {
        for (player, opponent) in met {
            if let Some(c) = self.accounts.claims.get_mut(&PlayerId(player)) {
                c.opponents.insert(PlayerId(opponent));
            }
        }
    }

    /// A game between `players` changed their ratings at `at`.
    pub(super) fn counted_rated(&mut self, players: [PlayerId; 2], at: Instant) {
        let log = self.rated_pairs.entry(pair(players)).or_default();
        log.push_back(at);
        while log.len() > RATED_GAMES_PER_PAIR {
            log.pop_front();
        }
        if self.rated_pairs.len() > 10_000 {
            let now = self.now;
            self.rated_pairs.retain(|_, log: &mut VecDeque<Instant>| {
                log.back().is_some_and(|&t| now.saturating_duration_since(t) < RATED_PAIR_WINDOW)
            });
        }
    }

    /// The rated games that ended within [`RATED_PAIR_WINDOW`] before a restart: (players,
    /// when it ended in Unix milliseconds).
    pub(super) fn reload_rated(&mut self, games: Vec<([u64; 2], u64)>) {
        let mut games = games;
        games.sort_by_key(|g| g.1);
        for ([a, b], ended_ms) in games {
            let ago = Duration::from_millis(self.unix_ms.saturating_sub(ended_ms));
            // An instant before the process's clock began counts as now (the stricter).
            let at = self.now.checked_sub(ago).unwrap_or(self.now);
            if ago < RATED_PAIR_WINDOW {
                self.counted_rated([PlayerId(a), PlayerId(b)], at);
            }
        }
    }
}
