//! The lobby as a player sees it: this node's open public rooms and live public games, then the
//! other nodes'.

use super::Core;
use super::game::LiveGame;
use super::rooms::Room;
use ludus_protocol::{GameSummary, LobbyView, PlayerId, RoomSummary};

impl Core {
    pub(super) fn lobby(&self) -> LobbyView {
        let mut rooms: Vec<&Room> = self
            .rooms
            .values()
            .filter(|r| r.public && !r.quick && r.members.len() == 1 && r.game.is_none())
            .collect();
        rooms.sort_by_key(|r| std::cmp::Reverse(r.created));
        // Turn-based games are not listed: they move once a day.
        let mut games: Vec<&LiveGame> =
            self.games.values().filter(|g| g.public && g.turn.is_none()).collect();
        games.sort_by_key(|g| std::cmp::Reverse(g.id));
        // Several nodes: the others' rooms and games after this node's.
        let (remote_rooms, remote_games, remote_total_games, remote_online) = self.remote_lobby();
        let local_games = games.len() as u32;
        let rooms: Vec<RoomSummary> =
            rooms.iter().map(|r| self.room_summary(r)).chain(remote_rooms).collect();
        let games: Vec<GameSummary> =
            games.iter().map(|g| self.game_summary(g)).chain(remote_games).collect();
        LobbyView {
            total_rooms: rooms.len() as u32,
            total_games: local_games + remote_total_games,
            rooms: rooms.into_iter().take(LobbyView::MAX_LISTED).collect(),
            games: games.into_iter().take(LobbyView::MAX_LISTED).collect(),
            online: self.conns.values().filter(|c| c.player.is_some()).count() as u32 + remote_online,
        }
    }

    pub(super) fn nick(&self, p: &PlayerId) -> String {
        self.players.get(p).map(|p| p.nickname.clone()).unwrap_or_default()
    }

    /// A room as the lobby lists it.
    pub(super) fn room_summary(&self, r: &Room) -> RoomSummary {
        RoomSummary {
            code: r.code.clone(),
            variant: r.variant,
            clock: r.clock,
            host: r.members.first().map(|p| self.nick(p)).unwrap_or_default(),
            rated: r.rated,
            host_rating: r.members.first().and_then(|p| self.rating_view_in(*p, r.variant)),
        }
    }

    /// A game as the lobby lists it.
    pub(super) fn game_summary(&self, g: &LiveGame) -> GameSummary {
        GameSummary {
            game: g.id,
            variant: g.game.variant(),
            players: [self.nick(&g.players[0]), self.nick(&g.players[1])],
            spectators: g.spectators.len() as u32,
            ply: g.game.ply() as u32,
            clock: g.clock,
            rated: g.rated,
        }
    }
}
