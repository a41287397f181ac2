//! The quick-match queue: one queue per variant, time control and rated or casual play; the first two players
//! waiting in the same queue get a room and a game.

use super::rooms::Room;
use super::{Core, Refusal, refuse};
use ludus_protocol::{ClockSpec, ErrorCode, PlayerId, ServerMessage};
use ludus_rules::Variant;

pub(super) type QueueKey = (Variant, Option<ClockSpec>, bool);

impl Core {
    pub(super) fn quick_match(
        &mut self,
        pid: PlayerId,
        variant: Variant,
        clock: Option<ClockSpec>,
        rated: bool,
    ) -> Result<(), Refusal> {
        super::limits::check_clock(&self.limits, clock)?;
        if rated && !self.is_claimed(pid) {
            return refuse(ErrorCode::NotClaimed, "rated games need a claimed nickname");
        }
        self.make_free(pid)?;
        let key = (variant, clock, rated);
        let opponent = loop {
            let Some(queue) = self.queue.get_mut(&key) else {
                break None;
            };
            let Some(other) = queue.pop_front() else {
                break None;
            };
            let waiting = self.players.get(&other).is_some_and(|p| p.conn.is_some() && p.queued == Some(key));
            if waiting && other != pid {
                break Some(other);
            }
        };
        let Some(other) = opponent else {
            self.queue.entry(key).or_default().push_back(pid);
            if let Some(p) = self.players.get_mut(&pid) {
                p.queued = Some(key);
            }
            self.send_player(pid, &ServerMessage::Queued { variant, clock });
            return Ok(());
        };
        if let Some(p) = self.players.get_mut(&other) {
            p.queued = None;
        }
        let code = self.new_code();
        self.room_serial += 1;
        let mut room =
            Room::new(code.clone(), variant, clock, true, true, vec![other, pid], self.room_serial);
        room.rated = rated;
        self.rooms.insert(code.clone(), room);
        for p in [other, pid] {
            if let Some(p) = self.players.get_mut(&p) {
                p.room = Some(code.clone());
            }
        }
        let first_first = self.random_u64().is_multiple_of(2);
        self.start_game(&code, first_first)
    }

    pub(super) fn unqueue(&mut self, pid: PlayerId) {
        let Some(key) = self.players.get_mut(&pid).and_then(|p| p.queued.take()) else {
            return;
        };
        if let Some(q) = self.queue.get_mut(&key) {
            q.retain(|&p| p != pid);
            if q.is_empty() {
                self.queue.remove(&key);
            }
        }
    }
}
