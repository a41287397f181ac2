//! What is read about players and games: the leaderboard, profiles, a player's recent games
//! and a finished game's archive (looked up off the loop, handed only to who may read it).

use super::accounts::rating_view;
use super::door::Effect;
use super::leaderboard::Entry;
use super::records::{ArchiveLookup, GamesLookup};
use super::{ConnId, Core, Refusal, refuse};
use ludus_protocol::{
    ErrorCode, GameId, LEADERBOARD_TOP, PlayerId, ProfileView, RatingEntry, RecentGame, ServerMessage,
    VariantRecord,
};
use ludus_rules::Variant;

impl Core {
    /// [`ludus_protocol::ClientMessage::Leaderboard`]: read from the leaderboard kept sorted
    /// ([`super::leaderboard`]): the top and the asker's place, without sorting anything.
    pub(super) fn leaderboard(
        &mut self,
        conn: ConnId,
        pid: PlayerId,
        variant: Variant,
    ) -> Result<(), Refusal> {
        let entry = |e: &Entry| RatingEntry {
            player: e.player,
            nickname: self.accounts.claims.get(&e.player).map(|c| c.nickname.clone()).unwrap_or_default(),
            rating: rating_view(&e.rating),
            games: e.rating.games,
        };
        let top = self.board.top(variant, LEADERBOARD_TOP).iter().map(entry).collect();
        let yours = self.board.place(variant, pid).map(|(place, e)| (place, entry(&e)));
        self.send_conn(conn, &ServerMessage::Leaderboard { variant, top, yours });
        Ok(())
    }

    /// [`ludus_protocol::ClientMessage::Profile`]: the ratings come from memory, the recent games
    /// from the database (off the loop: [`Effect::FindGames`]).
    pub(super) fn profile(&mut self, conn: ConnId, pid: PlayerId, nickname: &str) -> Result<(), Refusal> {
        let skeleton = crate::names::skeleton(nickname.trim());
        let target = match self.accounts.claimed.get(&skeleton) {
            Some(id) => self.accounts.claims.get(id).map(|c| (*id, c.nickname.clone())),
            None => self
                .players
                .iter()
                .filter(|(_, p)| p.conn.is_some() && p.skeleton == skeleton)
                .min_by_key(|(id, _)| **id)
                .map(|(id, p)| (*id, p.nickname.clone())),
        };
        let Some((player, nickname)) = target else {
            return refuse(ErrorCode::UnknownPlayer, "no claimed nickname or player online has that name");
        };
        if self.answers.profiles.contains(&conn) {
            return refuse(ErrorCode::RateLimited, "one profile at a time: wait for the answer");
        }
        self.start_read(conn)?;
        self.answers.profiles.insert(conn);
        self.effects.push(Effect::FindGames(GamesLookup {
            conn,
            player: player.0,
            nickname,
            private: player == pid,
        }));
        Ok(())
    }

    /// [`ludus_protocol::ClientMessage::Archive`]: read from the database off the loop
    /// ([`Effect::ReadArchive`]); who may read it is decided when it comes back. A live
    /// game that the asker may watch is refused at once; a live private game of others goes the
    /// way of a game that does not exist (the database has no finished game of that number), so
    /// that both get the same answer by the same path.
    pub(super) fn archive(&mut self, conn: ConnId, pid: PlayerId, game: GameId) -> Result<(), Refusal> {
        if self.games.get(&game).is_some_and(|g| g.public || g.players.contains(&pid)) {
            return refuse(ErrorCode::UnknownGame, "this game is still being played: watch it instead");
        }
        if self.answers.archives.contains(&conn) {
            return refuse(ErrorCode::RateLimited, "one archive at a time: wait for the answer");
        }
        self.start_read(conn)?;
        self.answers.archives.insert(conn);
        self.effects.push(Effect::ReadArchive(ArchiveLookup { conn, game: game.0 }));
        Ok(())
    }

    /// The answer to a lookup of [`Effect::ReadArchive`]: the archive goes out if the
    /// game was public or the asker played in it; otherwise the same refusal as for a game
    /// that does not exist, so that private games' numbers reveal nothing.
    pub(super) fn archive_found(
        &mut self,
        conn: ConnId,
        game: u64,
        found: Option<super::records::StoredArchive>,
    ) {
        if !self.answers.archives.remove(&conn) {
            return;
        }
        self.end_read(self.conns.get(&conn).and_then(|c| c.origin));
        let Some(asker) = self.conns.get(&conn).and_then(|c| c.player) else {
            return;
        };
        let mark = self.effects.len();
        match found.filter(|f| f.public || f.players.contains(&asker.0)) {
            Some(f) => self.send_conn(conn, &ServerMessage::Archive(Box::new(f.archive))),
            None => self.send_conn(
                conn,
                &ServerMessage::Error {
                    code: ErrorCode::UnknownGame,
                    message: format!("no finished game {game} that you may read"),
                },
            ),
        }
        self.charge_answers_since(conn, mark);
    }

    /// The answer to a lookup of [`Effect::FindGames`]: the profile goes out.
    pub(super) fn games_found(
        &mut self,
        conn: ConnId,
        player: u64,
        nickname: String,
        recent: Vec<RecentGame>,
    ) {
        if !self.answers.profiles.remove(&conn) {
            return;
        }
        self.end_read(self.conns.get(&conn).and_then(|c| c.origin));
        if !self.conns.contains_key(&conn) {
            return;
        }
        let player = PlayerId(player);
        let claim = self.accounts.claims.get(&player);
        let ratings = match claim {
            Some(c) => Variant::ALL
                .iter()
                .map(|v| {
                    let r = c.ratings.get(v).copied().unwrap_or_default();
                    VariantRecord {
                        variant: *v,
                        rating: rating_view(&r),
                        games: r.games,
                        wins: r.wins,
                        draws: r.draws,
                        losses: r.losses,
                    }
                })
                .collect(),
            None => Vec::new(),
        };
        let view = ProfileView { player, nickname, claimed: claim.is_some(), ratings, recent };
        let mark = self.effects.len();
        self.send_conn(conn, &ServerMessage::Profile(view));
        self.charge_answers_since(conn, mark);
    }
}
