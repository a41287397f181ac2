//! In-game chat (protocol 4): who speaks on which channel, the checks of a line, its storage
//! and delivery, mutes.
//!
//! - Channels: the two players of a live game speak on `Players`, heard by the two players
//!   only; its spectators on `Spectators`, heard by the spectators only while the game goes on.
//!   The archive of the ended game (`ArchivedGame::chat`, in `GameOver`) has both channels, so
//!   the players read the spectators' lines afterwards. A finished game takes no more lines
//!   (`GameOver`).
//! - Checks, in this order: free text NFC-normalised, then refused if it shows nothing or
//!   deceives ([`crate::names::visible::check`]: blank, invisible or formatting characters,
//!   more than three combining marks on a letter: `ChatBadText`), then by
//!   `ludus_protocol::validate_chat` (`ChatTooLong`, `ChatBadText`; quick phrases are always
//!   valid), membership (`UnknownGame`, `GameOver`,
//!   `NotInGame`: a stranger to a private game is told `UnknownGame`, as for watching), the
//!   game's caps ([`Limits::chat_max_lines`] lines and [`Limits::chat_max_bytes`] bytes, so that
//!   the archive always fits in one `GameOver`: `ChatFull`; the spectators' lines may fill half
//!   of each cap at most, so that they never silence the players) and the author's budget
//!   ([`Limits::chat_lines`] in [`Limits::chat_window`], one per [`Limits::chat_interval`]:
//!   `RateLimited`; only accepted lines count). The time is the core's injected clock.
//! - An accepted line is an [`Op::Chat`] of the tick, so it is stored before anyone receives it
//!   (the loop sends a tick's messages once its batch is committed), reloaded with its live game
//!   after a restart, and archived with the game.
//! - Delivery: everyone on the line's channel who has not muted its author, the author included
//!   (the echo tells them it was accepted). A `Game` view is followed by the lines so far that
//!   its viewer hears (start, watch, reconnect).
//! - Mutes: per game and per listener, in memory only (a restart or the end of the game forgets
//!   them; they never change what is stored or archived).
//!
//! [`Limits::chat_max_lines`]: super::Limits::chat_max_lines
//! [`Limits::chat_max_bytes`]: super::Limits::chat_max_bytes
//! [`Limits::chat_lines`]: super::Limits::chat_lines
//! [`Limits::chat_window`]: super::Limits::chat_window
//! [`Limits::chat_interval`]: super::Limits::chat_interval

use super::door::Effect;
use super::game::LiveGame;
use super::records::Op;
use super::{Core, Refusal, refuse};
use crate::names::visible;
use ludus_protocol::{
    ChatChannel, ChatError, ChatLine, ChatText, ErrorCode, GameId, PlayerId, ServerMessage, validate_chat,
};
use unicode_normalization::UnicodeNormalization;

/// Whether `listener` receives `line` in the live game `g`: on its channel, and not muted.
pub(super) fn hears(g: &LiveGame, listener: PlayerId, line: &ChatLine) -> bool {
    let on = match line.channel {
        ChatChannel::Players => g.players.contains(&listener),
        ChatChannel::Spectators => g.spectators.contains(&listener),
    };
    on && !g.mutes.get(&listener).is_some_and(|muted| muted.contains(&line.from))
}

/// What a line weighs against [`Limits::chat_max_bytes`]: its text and its author's nickname.
///
/// [`Limits::chat_max_bytes`]: super::Limits::chat_max_bytes
pub(super) fn weight(line: &ChatLine) -> usize {
    let text = match &line.text {
        ChatText::Phrase(_) => 1,
        ChatText::Free(s) => s.len(),
    };
    text + line.nickname.len()
}

/// Free text cleaned (NFC, then as [`validate_chat`] cleans it), or the refusal of it.
fn checked(text: ChatText) -> Result<ChatText, Refusal> {
    let s = match text {
        ChatText::Phrase(p) => return Ok(ChatText::Phrase(p)),
        ChatText::Free(s) => s,
    };
    let s: String = s.nfc().collect();
    visible::check(&s).map_err(|e| Refusal::new(ErrorCode::ChatBadText, e.to_string()))?;
    validate_chat(&s).map(ChatText::Free).map_err(|e| {
        let code = match e {
            ChatError::TooLong(_) => ErrorCode::ChatTooLong,
            ChatError::Empty | ChatError::Control(_) | ChatError::Invisible(_) => ErrorCode::ChatBadText,
        };
        Refusal::new(code, e.to_string())
    })
}

impl Core {
    /// The channel `pid` speaks on in the live game `gid`.
    fn chat_channel(&self, pid: PlayerId, gid: GameId) -> Result<ChatChannel, Refusal> {
        let Some(g) = self.games.get(&gid) else {
            let player = self.players.get(&pid);
            let played = player
                .and_then(|p| p.room.as_ref())
                .and_then(|code| self.rooms.get(code))
                .is_some_and(|r| r.game == Some(gid));
            let watched = player.is_some_and(|p| p.watched_over == Some(gid));
            return if played || watched {
                refuse(ErrorCode::GameOver, format!("game {} is over", gid.0))
            } else {
                refuse(ErrorCode::UnknownGame, format!("no live game {}", gid.0))
            };
        };
        if g.players.contains(&pid) {
            Ok(ChatChannel::Players)
        } else if g.spectators.contains(&pid) {
            Ok(ChatChannel::Spectators)
        } else if g.public {
            refuse(ErrorCode::NotInGame, format!("you neither play nor watch game {}", gid.0))
        } else {
            refuse(ErrorCode::UnknownGame, format!("no live game {}", gid.0))
        }
    }

    /// A chat line (see the module documentation).
    pub(super) fn chat(&mut self, pid: PlayerId, gid: GameId, text: ChatText) -> Result<(), Refusal> {
        let text = checked(text)?;
        let channel = self.chat_channel(pid, gid)?;
        self.still_on(gid)?;
        let now = self.now;
        let Some(g) = self.games.get(&gid) else {
            return refuse(ErrorCode::UnknownGame, "no such game");
        };
        let Some(player) = self.players.get_mut(&pid) else {
            return refuse(ErrorCode::Internal, "player vanished");
        };
        let used: usize = g.chat.iter().map(weight).sum();
        let this = match &text {
            ChatText::Phrase(_) => 1,
            ChatText::Free(s) => s.len(),
        } + player.nickname.len();
        // The spectators may fill half of the caps at most: the players always keep room.
        let (max_lines, max_bytes) = (self.limits.chat_max_lines, self.limits.chat_max_bytes);
        let spectators_full = channel == ChatChannel::Spectators && {
            let theirs = g.chat.iter().filter(|l| l.channel == ChatChannel::Spectators);
            let (lines, bytes) = theirs.fold((0, 0), |(n, b), l| (n + 1, b + weight(l)));
            lines >= max_lines / 2 || bytes + this > max_bytes / 2
        };
        if spectators_full || g.chat.len() >= max_lines || used + this > max_bytes {
            return refuse(
                ErrorCode::ChatFull,
                format!(
                    "the chat of this game is full ({} lines or {} bytes at most)",
                    self.limits.chat_max_lines, self.limits.chat_max_bytes
                ),
            );
        }
        if !player.chat_rate.allows(&self.limits, now) {
            return refuse(
                ErrorCode::RateLimited,
                format!(
                    "slow down: {} chat lines in {} s at most, {} ms apart",
                    self.limits.chat_lines,
                    self.limits.chat_window.as_secs(),
                    self.limits.chat_interval.as_millis()
                ),
            );
        }
        player.chat_rate.said(now);
        let nickname = player.nickname.clone();
        let Some(g) = self.games.get_mut(&gid) else {
            return refuse(ErrorCode::UnknownGame, "no such game");
        };
        let line = ChatLine {
            game: gid,
            channel,
            from: pid,
            nickname,
            text,
            ply: g.game.ply() as u32,
            at_ms: self.unix_ms,
        };
        self.effects.push(Effect::Store(Op::Chat { game: gid.0, seq: g.chat_seq, line: line.clone() }));
        g.chat_seq += 1;
        g.chat.push(line.clone());
        let listeners: Vec<PlayerId> = g.audience().into_iter().filter(|&p| hears(g, p, &line)).collect();
        self.send_players(listeners, &ServerMessage::Chat(line));
        Ok(())
    }

    /// `pid` mutes or unmutes `target`'s lines in the live game `gid` (for `pid` only).
    pub(super) fn mute(
        &mut self,
        pid: PlayerId,
        gid: GameId,
        target: PlayerId,
        muted: bool,
    ) -> Result<(), Refusal> {
        self.chat_channel(pid, gid)?;
        if target == pid {
            return refuse(ErrorCode::CannotMuteSelf, "you cannot mute yourself");
        }
        let Some(g) = self.games.get_mut(&gid) else {
            return refuse(ErrorCode::UnknownGame, "no such game");
        };
        let was_muted = g.mutes.get(&pid).is_some_and(|m| m.contains(&target));
        // Unmuting someone who has left since is fine; muting needs them there.
        let present = g.players.contains(&target) || g.spectators.contains(&target);
        let unmuting = was_muted && !muted;
        if !present && !unmuting {
            return refuse(ErrorCode::NotInGame, format!("player {} is not in game {}", target.0, gid.0));
        }
        let set = g.mutes.entry(pid).or_default();
        if muted {
            set.insert(target);
        } else {
            set.remove(&target);
        }
        self.send_player(pid, &ServerMessage::Muted { game: gid, player: target, muted });
        Ok(())
    }

    /// The lines of `gid` so far that `viewer` hears, oldest first (after a `Game` view).
    pub(super) fn send_chat_history(&mut self, gid: GameId, viewer: PlayerId) {
        let Some(g) = self.games.get(&gid) else {
            return;
        };
        let lines: Vec<ServerMessage> =
            g.chat.iter().filter(|l| hears(g, viewer, l)).cloned().map(ServerMessage::Chat).collect();
        for line in &lines {
            self.send_player(viewer, line);
        }
    }
}
