//! Connections and players: a connection ([`Conn`]) opens with what its connect token says,
//! says `Hello`, is signed in as the player ([`Player`]) its credential names (looked up in the
//! database when that player is not in memory) or as a new one, takes over that player's older
//! connection, and closes. The players in memory, found by their credentials' hashes; nickname
//! changes.

use super::door::Effect;
use super::limits::{AnswerBudget, Bucket, ChatRate};
use super::matchmaking::QueueKey;
use super::records::{Op, PlayerLookup, StoredPlayer};
use super::{ConnId, Core, Refusal, refuse};
use crate::credential::{Grant, credential_hash};
use ludus_protocol::{
    ErrorCode, GameId, Hello, PROTOCOL_VERSION, PlayerId, ServerMessage, SessionToken, incompatible_message,
};
use rand::Rng;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// A connection.
pub(super) struct Conn {
    pub(super) player: Option<PlayerId>,
    pub(super) opened: Instant,
    pub(super) bucket: Bucket,
    pub(super) closing: bool,
    /// A `Hello` waiting for its token to be looked up in the database, and the messages that
    /// arrived meanwhile (replayed once it is answered).
    pub(super) pending: Option<(Hello, Option<String>, Vec<Vec<u8>>)>,
    /// What the connect token says: the credential, and whether it may become a new player.
    pub(super) grant: Grant,
    /// The address it comes from (IPv4 address, IPv6 /64), for per-address limits.
    pub(super) origin: Option<std::net::IpAddr>,
    /// A password job of this connection is on the password thread (one at a time).
    pub(super) password_busy: bool,
    /// The bytes of large answers it may still draw ([`super::answers`]).
    pub(super) answers: AnswerBudget,
}

/// How long after a sign-in the credential it was made with may be used once more (its
/// `Welcome` with the new credential was lost): a client retries within seconds.
pub const PREVIOUS_CREDENTIAL_GRACE: Duration = Duration::from_secs(600);

/// Superseded credentials of each player remembered, to recognise one used again.
pub(super) const SUPERSEDED_KEPT: usize = 8;

/// What a credential presented for player is, to the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CredentialUse {
    /// The current one: a new one replaces it, and it stays usable once more (the previous).
    Current,
    /// The previous one, within [`PREVIOUS_CREDENTIAL_GRACE`]: the `Welcome` with the current
    /// one was lost. Usable this once: both it and the unused current one are superseded.
    Previous,
    /// A superseded one (or the previous one after its grace): refused. Superseded means a
    /// newer one was used since, so another holder has a copy: every session of the player
    /// ends, and whoever holds the newest credential (or the password) signs in again.
    Superseded,
}

/// Messages kept while a sign-in waits for its lookup (more are refused).
pub(super) const MAX_PENDING_MESSAGES: usize = 16;

/// A player in memory: signed in now, or seated in a live game.
pub(super) struct Player {
    /// SHA-256 (hex) of the current session credential; the credential itself is never kept.
    pub(super) hash: String,
    /// The hash of the credential the player signed in with last: the `Welcome` carrying the
    /// current one may have been lost, so it may be used once more, within
    /// [`PREVIOUS_CREDENTIAL_GRACE`] of that sign-in, and only while the current one has not
    /// been used (see [`CredentialUse`]).
    pub(super) prev: Option<String>,
    /// The hashes of the player's last superseded credentials (at most [`SUPERSEDED_KEPT`],
    /// oldest first): one used again shows a copy in other hands.
    pub(super) superseded: VecDeque<String>,
    /// When the player last signed in (Unix milliseconds): credentials expire unused.
    pub(super) last_seen_ms: u64,
    pub(super) nickname: String,
    /// The nickname's confusable skeleton ([`crate::names::skeleton`]).
    pub(super) skeleton: String,
    pub(super) conn: Option<ConnId>,
    /// The room the player sits in (waiting, playing or just finished).
    pub(super) room: Option<String>,
    pub(super) queued: Option<QueueKey>,
    /// When the player joined the quick-match queue (rated play widens its rating window with
    /// the wait).
    pub(super) queued_at: Option<Instant>,
    pub(super) watching: Option<GameId>,
    /// The game the player watched when it ended (chat in it is then `GameOver`).
    pub(super) watched_over: Option<GameId>,
    /// The game last sent to the player on their `Watch`, since when and how many times (a view
    /// with its chat history is large: see [`super::spectators::REWATCHES`]).
    pub(super) last_watch: Option<(GameId, Instant, u8)>,
    /// The chat budget.
    pub(super) chat_rate: ChatRate,
}

impl Player {
    pub(super) fn new(hash: String, prev: Option<String>, last_seen_ms: u64, nickname: String) -> Player {
        let skeleton = crate::names::skeleton(&nickname);
        Player {
            hash,
            prev,
            superseded: VecDeque::new(),
            last_seen_ms,
            nickname,
            skeleton,
            conn: None,
            room: None,
            queued: None,
            queued_at: None,
            watching: None,
            watched_over: None,
            last_watch: None,
            chat_rate: ChatRate::default(),
        }
    }

    pub(super) fn rename(&mut self, nickname: String) {
        self.skeleton = crate::names::skeleton(&nickname);
        self.nickname = nickname;
    }
}

impl Core {
    /// Keeps a stored player in memory, found by both of its credential hashes.
    pub(super) fn remember(&mut self, p: StoredPlayer) {
        let id = PlayerId(p.id);
        self.tokens.insert(p.hash.clone(), id);
        if let Some(prev) = &p.prev {
            self.tokens.insert(prev.clone(), id);
        }
        self.players.insert(id, Player::new(p.hash, p.prev, p.last_seen_ms, p.nickname));
    }

    /// Replaces a known player's credentials with the stored ones (signed in on another node).
    pub(super) fn refresh(&mut self, p: StoredPlayer) {
        let id = PlayerId(p.id);
        let Some(player) = self.players.get_mut(&id) else {
            return;
        };
        for old in [Some(player.hash.clone()), player.prev.clone()].into_iter().flatten() {
            if self.tokens.get(&old) == Some(&id) {
                self.tokens.remove(&old);
            }
        }
        player.hash = p.hash.clone();
        player.prev = p.prev.clone();
        player.last_seen_ms = p.last_seen_ms;
        self.tokens.insert(p.hash, id);
        if let Some(prev) = p.prev {
            self.tokens.insert(prev, id);
        }
    }

    /// Whether `name` looks like (same confusable skeleton as) the name of another player who is
    /// signed in now, or a nickname someone else claimed.
    pub(super) fn name_taken(&self, name: &str, me: Option<PlayerId>) -> bool {
        let skeleton = crate::names::skeleton(name);
        self.claimed_by_other(&skeleton, me)
            || self
                .players
                .iter()
                .any(|(id, p)| Some(*id) != me && p.conn.is_some() && p.skeleton == skeleton)
    }

    /// The oldest last sign-in whose credential is still valid (Unix milliseconds).
    pub(super) fn credential_cutoff(&self) -> u64 {
        self.unix_ms.saturating_sub(self.limits.credential_lifetime.as_millis() as u64)
    }

    /// A new session credential: 128 random bits in hex.
    pub(super) fn new_token(&mut self) -> String {
        let bytes: [u8; 16] = self.rng.random();
        let credential: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        self.effects.push(Effect::Issued(credential_hash(&credential)));
        credential
    }

    /// A signed-in player changes their nickname (not a claimed one, nor to a look-alike of someone
    /// online or of a claimed name).
    pub(super) fn set_nickname(
        &mut self,
        conn: ConnId,
        pid: PlayerId,
        nickname: &str,
    ) -> Result<(), Refusal> {
        let nickname = crate::names::check(nickname)
            .map_err(|e| Refusal::new(ErrorCode::BadNickname, e.to_string()))?
            .name;
        if self.is_claimed(pid) {
            return refuse(ErrorCode::BadNickname, "a claimed nickname cannot be changed");
        }
        if self.conns.get(&conn).is_some_and(|c| c.password_busy) {
            return refuse(ErrorCode::RateLimited, "a password is being checked: wait for the answer");
        }
        if self.name_taken(&nickname, Some(pid)) {
            return refuse(ErrorCode::BadNickname, "a player online has that name or one that looks like it");
        }
        if let Some(p) = self.players.get_mut(&pid) {
            p.rename(nickname.clone());
        }
        self.effects.push(Effect::Store(Op::Nickname { id: pid.0, nickname: nickname.clone() }));
        self.send_conn(conn, &ServerMessage::NicknameSet { nickname });
        Ok(())
    }

    /// A connection opened, with what its connect token says.
    pub(super) fn connected_with(&mut self, conn: ConnId, grant: Grant) {
        self.conns.insert(
            conn,
            Conn {
                player: None,
                opened: self.now,
                bucket: Bucket::new(&self.limits, self.now),
                closing: false,
                pending: None,
                grant,
                origin: None,
                password_busy: false,
                answers: AnswerBudget::new(self.limits.answer_burst, self.now),
            },
        );
    }

    /// Where a connection comes from (its address's key, [`crate::addresses::address_key`]).
    pub(super) fn set_origin(&mut self, conn: ConnId, origin: std::net::IpAddr) {
        if let Some(c) = self.conns.get_mut(&conn) {
            c.origin = Some(origin);
        }
    }

    /// A connection closed (by either side, or timed out).
    pub(super) fn disconnected(&mut self, conn: ConnId) {
        let Some(c) = self.conns.remove(&conn) else {
            return;
        };
        for waiting in [self.answers.profiles.remove(&conn), self.answers.archives.remove(&conn)] {
            if waiting {
                self.end_read(c.origin);
            }
        }
        let Some(pid) = c.player else {
            return;
        };
        if self.players.get(&pid).and_then(|p| p.conn) != Some(conn) {
            return; // Signed in elsewhere since.
        }
        if let Some(p) = self.players.get_mut(&pid) {
            p.conn = None;
        }
        self.detach(pid);
    }

    /// A player went offline: leave queue, spectating and waiting rooms; hold a live seat.
    pub(super) fn detach(&mut self, pid: PlayerId) {
        self.unqueue(pid);
        self.unwatch(pid);
        let room_code = self.players.get(&pid).and_then(|p| p.room.clone());
        if let Some(code) = room_code {
            match self.live_game_of_room(&code) {
                Some(gid) => {
                    self.seat_left(gid, pid);
                    return;
                }
                None => self.close_room(&code),
            }
        }
        self.forget_if_idle(pid);
    }

    /// Drops an offline player with no seat from memory (they stay in the database).
    pub(super) fn forget_if_idle(&mut self, pid: PlayerId) {
        let idle = self.players.get(&pid).is_some_and(|p| p.conn.is_none() && p.room.is_none())
            && !self.has_turn_play(pid);
        if idle && let Some(p) = self.players.remove(&pid) {
            for h in std::iter::once(p.hash).chain(p.prev).chain(p.superseded) {
                self.tokens.remove(&h);
            }
        }
    }

    pub(super) fn incompatible(&mut self, conn: ConnId, version: u16) {
        self.send_conn(
            conn,
            &ServerMessage::Incompatible {
                server_version: PROTOCOL_VERSION,
                message: incompatible_message(version),
            },
        );
        self.close(conn);
    }

    pub(super) fn hello(&mut self, conn: ConnId, hello: Hello) -> Result<(), Refusal> {
        if hello.version != PROTOCOL_VERSION {
            self.incompatible(conn, hello.version);
            return Ok(());
        }
        let nickname = match &hello.nickname {
            Some(n) => Some(
                crate::names::check(n).map_err(|e| Refusal::new(ErrorCode::BadNickname, e.to_string()))?.name,
            ),
            None => None,
        };
        // Who this is comes from the connect token (the server's HTTP endpoint wrote it), never
        // from the Hello, whose token field is ignored.
        let Some(grant) = self.conns.get(&conn).map(|c| c.grant.clone()) else {
            return Ok(());
        };
        match grant.credential.map(|c| credential_hash(&c)) {
            Some(hash) => match self.tokens.get(&hash).copied() {
                Some(pid) if self.credential_use(pid, &hash) == Some(CredentialUse::Superseded) => {
                    self.replayed(conn, pid, &hash);
                    Ok(())
                }
                Some(pid)
                    if self.players.get(&pid).is_some_and(|p| p.last_seen_ms >= self.credential_cutoff()) =>
                {
                    self.sign_in(conn, Some((pid, hash)), nickname)
                }
                // Not in memory: ask the database (off the loop) and wait for the answer.
                _ => {
                    if let Some(c) = self.conns.get_mut(&conn) {
                        c.pending = Some((hello, nickname, Vec::new()));
                    }
                    let cutoff = self.credential_cutoff();
                    self.effects.push(Effect::LookUp(PlayerLookup { conn, hash, cutoff_ms: cutoff }));
                    Ok(())
                }
            },
            None if grant.may_create => self.sign_in(conn, None, nickname),
            None => refuse(ErrorCode::SessionExpired, "no session: ask for a new player's token"),
        }
    }

    /// The answer to a lookup of [`Effect::LookUp`]: the stored player with that credential
    /// hash, if any (and not expired). The waiting sign-in goes on (as a new player when nobody
    /// has that credential and the token allows it, else refused with `SessionExpired`), then
    /// the messages that arrived meanwhile.
    pub(super) fn looked_up(&mut self, conn: ConnId, hash: &str, found: Option<StoredPlayer>) {
        let Some((_, nickname, waiting)) = self.conns.get_mut(&conn).and_then(|c| c.pending.take()) else {
            return; // Gone meanwhile.
        };
        let cutoff = self.credential_cutoff();
        if let Some(p) = found
            && (p.hash == hash || p.prev.as_deref() == Some(hash))
            && p.last_seen_ms >= cutoff
        {
            match self.players.get(&PlayerId(p.id)) {
                None => self.remember(p),
                // Several nodes: the player signed in on another node since this one knew
                // them; the database has their credentials now.
                Some(known) if self.nodes.is_some() && p.last_seen_ms > known.last_seen_ms => self.refresh(p),
                Some(_) => {}
            }
        }
        let known = self
            .tokens
            .get(hash)
            .copied()
            .filter(|pid| self.players.get(pid).is_some_and(|p| p.last_seen_ms >= cutoff));
        if let Some(pid) = known
            && self.credential_use(pid, hash) == Some(CredentialUse::Superseded)
        {
            self.replayed(conn, pid, hash);
            return;
        }
        let may_create = self.conns.get(&conn).is_some_and(|c| c.grant.may_create);
        let result = match known {
            Some(pid) => self.sign_in(conn, Some((pid, hash.to_string())), nickname),
            None if may_create => self.sign_in(conn, None, nickname),
            None => refuse(ErrorCode::SessionExpired, "unknown or expired session: connect as a new player"),
        };
        if let Err(refusal) = result {
            let expired = refusal.code == ErrorCode::SessionExpired;
            self.error(conn, refusal);
            if expired {
                self.close(conn);
                return;
            }
        }
        for bytes in waiting {
            self.message(conn, &bytes);
        }
    }

    /// Signs `conn` in as `known` (a returning player), or as a new player.
    pub(super) fn sign_in(
        &mut self,
        conn: ConnId,
        known: Option<(PlayerId, String)>,
        nickname: Option<String>,
    ) -> Result<(), Refusal> {
        // A new player asking for a claimed name (its owner on a new device, say) becomes a
        // guest: they may then sign in as the claimed player with its password.
        let nickname =
            nickname.filter(|n| known.is_some() || !self.claimed_by_other(&crate::names::skeleton(n), None));
        if known.is_none()
            && let Some(n) = &nickname
            && self.name_taken(n, None)
        {
            return refuse(ErrorCode::BadNickname, "a player online has that name or one that looks like it");
        }
        // A new credential at every sign-in; only its hash is kept.
        let credential = self.new_token();
        let hash = credential_hash(&credential);
        let (pid, resumed) = match known {
            Some((pid, used)) => {
                let usage = self.credential_use(pid, &used);
                let Some(player) = self.players.get_mut(&pid) else {
                    return refuse(ErrorCode::Internal, "player vanished");
                };
                let retired = match usage {
                    Some(CredentialUse::Current) => {
                        player.hash = hash.clone();
                        player.prev.replace(used).into_iter().collect::<Vec<_>>()
                    }
                    Some(CredentialUse::Previous) => {
                        let unused = std::mem::replace(&mut player.hash, hash.clone());
                        player.prev = None;
                        vec![unused, used]
                    }
                    _ => {
                        return refuse(ErrorCode::SessionExpired, "this session was replaced: sign in again");
                    }
                };
                player.last_seen_ms = self.unix_ms;
                let prev = player.prev.clone();
                self.tokens.insert(hash.clone(), pid);
                self.retire(pid, retired);
                self.effects.push(Effect::Store(Op::Credential {
                    id: pid.0,
                    hash,
                    prev,
                    last_seen_ms: self.unix_ms,
                }));
                (pid, true)
            }
            None => {
                let id = PlayerId(self.take_id(0)?);
                let nickname = match nickname.clone() {
                    Some(n) => n,
                    None => {
                        let mut guest = format!("Guest-{:04}", self.random_u64() % 10_000);
                        for _ in 0..20 {
                            if !self.name_taken(&guest, None) {
                                break;
                            }
                            guest = format!("Guest-{:06}", self.random_u64() % 1_000_000);
                        }
                        guest
                    }
                };
                self.effects.push(Effect::Store(Op::NewPlayer {
                    id: id.0,
                    hash: hash.clone(),
                    nickname: nickname.clone(),
                    created_ms: self.unix_ms,
                }));
                self.tokens.insert(hash.clone(), id);
                self.players.insert(id, Player::new(hash, None, self.unix_ms, nickname));
                (id, false)
            }
        };
        self.take_connection(conn, pid);
        let Some(player) = self.players.get(&pid) else {
            return refuse(ErrorCode::Internal, "player vanished");
        };
        // A returning player asking for another name gets it unless it looks like the name of
        // someone online or a claimed name (then keeps the stored one); a claimed nickname stays.
        let claimed = self.is_claimed(pid);
        let rename = nickname.filter(|n| resumed && !claimed && *n != player.nickname);
        if let Some(n) = rename
            && !self.name_taken(&n, Some(pid))
            && let Some(player) = self.players.get_mut(&pid)
        {
            player.rename(n.clone());
            self.effects.push(Effect::Store(Op::Nickname { id: pid.0, nickname: n }));
        }
        let Some(player) = self.players.get(&pid) else {
            return refuse(ErrorCode::Internal, "player vanished");
        };
        let welcome = ServerMessage::Welcome {
            player: pid,
            nickname: player.nickname.clone(),
            token: SessionToken(credential),
            resumed,
        };
        self.send_conn(conn, &welcome);
        self.reattach(pid);
        self.welcome_turns(pid);
        self.check_seat_elsewhere(pid);
        Ok(())
    }

    /// What the credential of hash `hash` is for player `pid` (`None`: not theirs).
    pub(super) fn credential_use(&self, pid: PlayerId, hash: &str) -> Option<CredentialUse> {
        let p = self.players.get(&pid)?;
        let grace = PREVIOUS_CREDENTIAL_GRACE.as_millis() as u64;
        if p.hash == hash {
            Some(CredentialUse::Current)
        } else if p.prev.as_deref() == Some(hash) {
            if self.unix_ms.saturating_sub(p.last_seen_ms) < grace {
                Some(CredentialUse::Previous)
            } else {
                Some(CredentialUse::Superseded)
            }
        } else if p.superseded.iter().any(|h| h == hash) {
            Some(CredentialUse::Superseded)
        } else {
            None
        }
    }

    /// Remembers `hashes` as superseded credentials of `pid` (the oldest beyond
    /// [`SUPERSEDED_KEPT`] are forgotten, and then unknown).
    pub(super) fn retire(&mut self, pid: PlayerId, hashes: Vec<String>) {
        let Some(player) = self.players.get_mut(&pid) else {
            return;
        };
        let mut forgotten = Vec::new();
        for h in hashes {
            self.tokens.insert(h.clone(), pid);
            player.superseded.push_back(h);
            while player.superseded.len() > SUPERSEDED_KEPT {
                forgotten.extend(player.superseded.pop_front());
            }
        }
        for h in forgotten {
            if self.tokens.get(&h) == Some(&pid) {
                self.tokens.remove(&h);
            }
        }
    }

    /// A superseded credential of `pid` came back on `conn`: refused, and, where it shows a
    /// copy in other hands (a newer one was used since), every session of the player ends. The
    /// newest credential stays valid: its holder signs in again, as does the password's.
    pub(super) fn replayed(&mut self, conn: ConnId, pid: PlayerId, hash: &str) {
        // The previous credential after its grace is merely stale: nobody else used a newer one.
        let theft = self.players.get(&pid).is_some_and(|p| p.superseded.iter().any(|h| h == hash));
        self.stats.credential_replays += 1;
        if theft {
            tracing::warn!(player = pid.0, "a superseded session credential was used again: sessions ended");
            if let Some(old) = self.players.get(&pid).and_then(|p| p.conn) {
                self.send_conn(
                    old,
                    &ServerMessage::Error {
                        code: ErrorCode::SignedInElsewhere,
                        message: "an old copy of your session was used elsewhere: sign in again".into(),
                    },
                );
                if let Some(c) = self.conns.get_mut(&old) {
                    c.player = None;
                }
                self.close(old);
                if let Some(p) = self.players.get_mut(&pid) {
                    p.conn = None;
                }
                self.detach(pid);
            }
        }
        self.error(
            conn,
            Refusal::new(
                ErrorCode::SessionExpired,
                "this session was replaced: connect as a new player or sign in",
            ),
        );
        self.close(conn);
    }

    /// Makes `conn` the connection of `pid`. One connection per player: the newest wins.
    pub(super) fn take_connection(&mut self, conn: ConnId, pid: PlayerId) {
        if let Some(old) = self.players.get(&pid).and_then(|p| p.conn)
            && old != conn
        {
            self.send_conn(
                old,
                &ServerMessage::Error {
                    code: ErrorCode::SignedInElsewhere,
                    message: "signed in from another connection".into(),
                },
            );
            if let Some(c) = self.conns.get_mut(&old) {
                c.player = None;
            }
            self.close(old);
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            c.player = Some(pid);
        }
        if let Some(player) = self.players.get_mut(&pid) {
            player.conn = Some(conn);
        }
    }
}
