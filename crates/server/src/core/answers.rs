//! The budget of large answers: a request of a few bytes (`Watch`, `Lobby`, `Leaderboard`,
//! `Profile`, `Archive`) may draw a game view with its chat history, a lobby of two hundred
//! lines or an archive, up to about 100 KB. Each connection, and all the connections of one
//! address together, have an [`AnswerBudget`] of bytes ([`Limits::answer_burst`] at once,
//! [`Limits::answer_rate`] a second; the `address_` ones for an address): what such requests
//! send is counted against both, and while either is spent such requests are refused with
//! `RateLimited` saying how long to wait. Whichever game, player or page is asked for, the same
//! budget pays.
//!
//! [`Limits::answer_burst`]: super::Limits::answer_burst
//! [`Limits::answer_rate`]: super::Limits::answer_rate

use super::door::Effect;
use super::limits::AnswerBudget;
use super::{ConnId, Core, Refusal, refuse};
use ludus_protocol::{ClientMessage, ErrorCode};
use std::collections::{HashMap, HashSet};
use std::net::IpAddr;

/// Whether a request's answer is large compared with the request.
pub(super) fn is_large(message: &ClientMessage) -> bool {
    matches!(
        message,
        ClientMessage::Watch { .. }
            | ClientMessage::Lobby
            | ClientMessage::Leaderboard { .. }
            | ClientMessage::Profile { .. }
            | ClientMessage::Archive { .. }
            | ClientMessage::MyGames
            | ClientMessage::OpenGame { .. }
            | ClientMessage::Tournaments
            | ClientMessage::ViewTournament { .. }
    )
}

/// Large answers: what each address may still draw, and the database lookups waiting.
#[derive(Default)]
pub(super) struct Answers {
    /// The large-answer budget of each address.
    pub(super) by_address: HashMap<IpAddr, AnswerBudget>,
    /// Connections waiting for an archive (one at a time each).
    pub(super) archives: HashSet<ConnId>,
    /// Connections waiting for a profile (one at a time each).
    pub(super) profiles: HashSet<ConnId>,
    /// Profile and archive reads waiting for the database, by address (at most
    /// [`READS_PER_ADDRESS`] each).
    pub(super) reads: HashMap<IpAddr, u32>,
}

/// Profile and archive reads one address may have waiting for the database at once: many
/// connections of one address take their turns, and leave room for everyone else's.
pub(super) const READS_PER_ADDRESS: u32 = 4;

impl Core {
    /// Books a profile or archive read for `conn`'s address, or refuses it while the address
    /// has [`READS_PER_ADDRESS`] waiting.
    pub(super) fn start_read(&mut self, conn: ConnId) -> Result<(), Refusal> {
        let Some(origin) = self.conns.get(&conn).and_then(|c| c.origin) else {
            return Ok(());
        };
        let waiting = self.answers.reads.entry(origin).or_default();
        if *waiting >= READS_PER_ADDRESS {
            return refuse(
                ErrorCode::RateLimited,
                format!(
                    "{READS_PER_ADDRESS} profiles or archives from your address are being read: wait for them"
                ),
            );
        }
        *waiting += 1;
        Ok(())
    }

    /// A read booked by [`Core::start_read`] for a connection from `origin` is answered (or
    /// its connection is gone).
    pub(super) fn end_read(&mut self, origin: Option<IpAddr>) {
        if let Some(o) = origin
            && let Some(waiting) = self.answers.reads.get_mut(&o)
        {
            *waiting = waiting.saturating_sub(1);
            if *waiting == 0 {
                self.answers.reads.remove(&o);
            }
        }
    }

    /// Refuses a large answer to `conn` while its budget, or its address's, is spent.
    pub(super) fn check_answer_budget(&mut self, conn: ConnId) -> Result<(), Refusal> {
        let (now, l) = (self.now, &self.limits);
        let (burst, rate) = (l.answer_burst, l.answer_rate);
        let (address_burst, address_rate) = (l.address_answer_burst, l.address_answer_rate);
        let Some(c) = self.conns.get_mut(&conn) else {
            return refuse(ErrorCode::Internal, "connection vanished");
        };
        let mut wait = c.answers.wait(burst, rate, now);
        if let Some(origin) = c.origin
            && let Some(budget) = self.answers.by_address.get_mut(&origin)
        {
            wait = wait.max(budget.wait(address_burst, address_rate, now));
        }
        match wait {
            None => Ok(()),
            Some(w) => refuse(
                ErrorCode::RateLimited,
                format!(
                    "you asked for a lot of data: wait {} s before asking for views, lists or archives again",
                    w.as_secs() + 1
                ),
            ),
        }
    }

    /// Counts against `conn`'s budgets the bytes queued for it from `effects[mark..]`.
    pub(super) fn charge_answers_since(&mut self, conn: ConnId, mark: usize) {
        let bytes = self.effects[mark.min(self.effects.len())..]
            .iter()
            .map(|e| match e {
                Effect::Send(c, b) if *c == conn => b.len(),
                _ => 0,
            })
            .sum();
        self.charge_answer(conn, bytes);
    }

    /// Counts `bytes` sent to `conn` against its budget and its address's.
    pub(super) fn charge_answer(&mut self, conn: ConnId, bytes: usize) {
        let (now, l) = (self.now, &self.limits);
        let (burst, rate) = (l.answer_burst, l.answer_rate);
        let (address_burst, address_rate) = (l.address_answer_burst, l.address_answer_rate);
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        c.answers.spend(burst, rate, now, bytes);
        if let Some(origin) = c.origin {
            self.answers
                .by_address
                .entry(origin)
                .or_insert_with(|| AnswerBudget::new(address_burst, now))
                .spend(address_burst, address_rate, now, bytes);
        }
    }

    /// Forgets the addresses whose budget is whole again (called when there are many).
    pub(super) fn prune_answer_budgets(&mut self) {
        if self.answers.by_address.len() <= 10_000 {
            return;
        }
        let (now, burst, rate) =
            (self.now, self.limits.address_answer_burst, self.limits.address_answer_rate);
        self.answers.by_address.retain(|_, b| !b.is_full(burst, rate, now));
    }
}
