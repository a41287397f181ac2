//! An arena's state: who is in, who is free, playing or paused, the games and the points, with
//! the time always passed in (milliseconds on the caller's clock).

use crate::arena_pairing::{FreePlayer, arena_points, pair_free};
use crate::common::{
    Colour, Entrant, GameId, GameResult, Pairing, PlayerId, PlayerResult, competition_ranks,
};
use crate::error::TournamentError;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::HashMap;

/// When an arena runs and what it allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaConfig {
    /// The start, in milliseconds: no pairing before it.
    pub starts_at: u64,
    /// The end, in milliseconds: no pairing from then on (games under way still count).
    pub ends_at: u64,
    /// Whether players may berserk (half their clock, one more point for a win).
    pub berserk: bool,
}

/// Where an arena player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArenaStatus {
    /// Waiting for a game since then (milliseconds).
    Free {
        /// Since when.
        since: u64,
    },
    /// In that game.
    Playing(GameId),
    /// Away: not paired until they come back.
    Paused,
}

/// An arena player's running record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaPlayer {
    /// Who, and their rating.
    pub entrant: Entrant,
    /// Free, playing or paused.
    pub status: ArenaStatus,
    /// Paused during a game: not paired again after it.
    pub leaving: bool,
    /// The opponent of the last game.
    pub last_opponent: Option<PlayerId>,
    /// First moves minus second moves.
    pub colour_difference: i32,
    /// The colour of the last game.
    pub last_colour: Option<Colour>,
    /// The score so far.
    pub score: ArenaScore,
}

/// An arena player's points and games: what the standings show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaScore {
    /// Arena points.
    pub points: u32,
    /// Wins in a row up to now (two or more: on fire, the next game counts double).
    pub streak: u32,
    /// Games finished.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games won with berserk.
    pub berserk_wins: u32,
}

impl ArenaScore {
    /// Whether the next game counts double.
    pub fn on_fire(&self) -> bool {
        self.streak >= 2
    }

    /// Scores one finished game; returns the points it gave.
    pub fn add(&mut self, result: PlayerResult, berserk: bool) -> u32 {
        let gained = arena_points(result, self.on_fire(), berserk);
        self.points += gained;
        self.games += 1;
        match result {
            PlayerResult::Win => {
                self.wins += 1;
                self.streak += 1;
                self.berserk_wins += u32::from(berserk);
            }
            PlayerResult::Draw => {
                self.draws += 1;
                self.streak = 0;
            }
            PlayerResult::Loss => self.streak = 0,
        }
        gained
    }
}

/// One arena game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaGame {
    /// Its number.
    pub id: GameId,
    /// Who has which colour.
    pub pairing: Pairing,
    /// When it was paired (milliseconds).
    pub started_at: u64,
    /// Whether the first player berserked.
    pub berserk_first: bool,
    /// Whether the second player berserked.
    pub berserk_second: bool,
    /// The result, once in.
    pub result: Option<GameResult>,
}

/// One finished arena game, as stored: all the standings need, in the order games finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaResult {
    /// Who had which colour.
    pub pairing: Pairing,
    /// How it ended.
    pub result: GameResult,
    /// Whether the first player berserked.
    pub berserk_first: bool,
    /// Whether the second player berserked.
    pub berserk_second: bool,
}

/// The points a finished game gave each player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GamePoints {
    /// To the player with the first move.
    pub first: u32,
    /// To the player with the second move.
    pub second: u32,
}

/// One row of an arena's table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaStanding {
    /// 1 for the first; equal points share a rank.
    pub rank: u32,
    /// Who.
    pub player: PlayerId,
    /// The rating at entry.
    pub rating: u32,
    /// Points, games, streak.
    pub score: ArenaScore,
}

/// A timed arena.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arena {
    config: ArenaConfig,
    players: Vec<ArenaPlayer>,
    games: Vec<ArenaGame>,
    results: Vec<ArenaResult>,
}

impl Arena {
    /// An arena with no player yet.
    pub fn new(config: ArenaConfig) -> Result<Arena, TournamentError> {
        if config.ends_at <= config.starts_at {
            return Err(TournamentError::BadTimes);
        }
        Ok(Arena { config, players: Vec::new(), games: Vec::new(), results: Vec::new() })
    }

    /// When it runs and what it allows.
    pub fn config(&self) -> ArenaConfig {
        self.config
    }

    /// Whether pairing is over at `now`.
    pub fn is_over(&self, now: u64) -> bool {
        now >= self.config.ends_at
    }

    /// Every player who joined, in the order they joined.
    pub fn players(&self) -> &[ArenaPlayer] {
        &self.players
    }

    /// A player.
    pub fn player(&self, id: PlayerId) -> Option<&ArenaPlayer> {
        self.players.iter().find(|p| p.entrant.id == id)
    }

    /// Everyone who joined, as entrants.
    pub fn entrants(&self) -> Vec<Entrant> {
        self.players.iter().map(|p| p.entrant).collect()
    }

    /// Every game paired, in order.
    pub fn games(&self) -> &[ArenaGame] {
        &self.games
    }

    /// A game.
    pub fn game(&self, id: GameId) -> Option<&ArenaGame> {
        id.0.checked_sub(1).and_then(|i| self.games.get(i as usize))
    }

    /// The finished games in the order they finished: with the entrants, all that
    /// [`arena_standings`] needs.
    pub fn results(&self) -> &[ArenaResult] {
        &self.results
    }

    fn index(&self, id: PlayerId) -> Result<usize, TournamentError> {
        self.players.iter().position(|p| p.entrant.id == id).ok_or(TournamentError::UnknownPlayer(id))
    }

    /// A player comes in (before the start or late, with no points): free from `now`. A player
    /// who paused comes back with [`Arena::resume`], not by joining again.
    pub fn join(&mut self, entrant: Entrant, now: u64) -> Result<(), TournamentError> {
        if self.players.iter().any(|p| p.entrant.id == entrant.id) {
            return Err(TournamentError::AlreadyJoined(entrant.id));
        }
        if self.is_over(now) {
            return Err(TournamentError::Finished);
        }
        self.players.push(ArenaPlayer {
            entrant,
            status: ArenaStatus::Free { since: now },
            leaving: false,
            last_opponent: None,
            colour_difference: 0,
            last_colour: None,
            score: ArenaScore::default(),
        });
        Ok(())
    }

    /// A player leaves for now: not paired again until they come back. A game under way goes
    /// on and counts.
    pub fn pause(&mut self, id: PlayerId) -> Result<(), TournamentError> {
        let i = self.index(id)?;
        let p = &mut self.players[i];
        match p.status {
            ArenaStatus::Paused => return Err(TournamentError::Paused(id)),
            ArenaStatus::Playing(_) if p.leaving => return Err(TournamentError::Paused(id)),
            ArenaStatus::Playing(_) => p.leaving = true,
            ArenaStatus::Free { .. } => p.status = ArenaStatus::Paused,
        }
        Ok(())
    }

    /// A paused player comes back: free from `now` (or after the game under way).
    pub fn resume(&mut self, id: PlayerId, now: u64) -> Result<(), TournamentError> {
        let i = self.index(id)?;
        if self.is_over(now) {
            return Err(TournamentError::Finished);
        }
        let p = &mut self.players[i];
        match p.status {
            ArenaStatus::Paused => p.status = ArenaStatus::Free { since: now },
            ArenaStatus::Playing(_) if p.leaving => p.leaving = false,
            _ => return Err(TournamentError::NotPaused(id)),
        }
        Ok(())
    }

    /// The free players as the pairing sees them.
    pub fn free_players(&self) -> Vec<FreePlayer> {
        self.players
            .iter()
            .filter_map(|p| match p.status {
                ArenaStatus::Free { since } => Some(FreePlayer {
                    id: p.entrant.id,
                    points: p.score.points,
                    rating: p.entrant.rating,
                    free_since: since,
                    last_opponent: p.last_opponent,
                }),
                _ => None,
            })
            .collect()
    }

    /// Pairs the free players at `now` (nothing before the start or from the end on) and starts
    /// their games, which are returned. Colours: the one with fewer first moves so far takes the
    /// first move; if equal, the one who had the second move last time; then the one ranked
    /// higher.
    pub fn pair(&mut self, now: u64) -> Vec<ArenaGame> {
        if now < self.config.starts_at || self.is_over(now) {
            return Vec::new();
        }
        let pairs = pair_free(&self.free_players(), now);
        let mut started = Vec::with_capacity(pairs.len());
        for (a, b) in pairs {
            let (ia, ib) = (self.index(a).expect("a free player"), self.index(b).expect("a free player"));
            let key = |p: &ArenaPlayer| (p.colour_difference, p.last_colour != Some(Colour::Second));
            let (first, second) =
                if key(&self.players[ib]) < key(&self.players[ia]) { (ib, ia) } else { (ia, ib) };
            let id = GameId(self.games.len() as u64 + 1);
            let game = ArenaGame {
                id,
                pairing: Pairing {
                    first: self.players[first].entrant.id,
                    second: self.players[second].entrant.id,
                },
                started_at: now,
                berserk_first: false,
                berserk_second: false,
                result: None,
            };
            for (i, colour, opponent) in
                [(first, Colour::First, game.pairing.second), (second, Colour::Second, game.pairing.first)]
            {
                let p = &mut self.players[i];
                p.status = ArenaStatus::Playing(id);
                p.last_opponent = Some(opponent);
                p.last_colour = Some(colour);
                p.colour_difference += if colour == Colour::First { 1 } else { -1 };
            }
            self.games.push(game);
            started.push(game);
        }
        started
    }

    /// `player` berserks in `game` (the caller allows it only before their first move and
    /// halves their clock). Saying it twice changes nothing.
    pub fn berserk(&mut self, game: GameId, player: PlayerId) -> Result<(), TournamentError> {
        if !self.config.berserk {
            return Err(TournamentError::BerserkNotAllowed);
        }
        let i = game
            .0
            .checked_sub(1)
            .map(|i| i as usize)
            .filter(|&i| i < self.games.len())
            .ok_or(TournamentError::NoSuchGame(game))?;
        let g = &mut self.games[i];
        if g.result.is_some() {
            return Err(TournamentError::BerserkNotAllowed);
        }
        if g.pairing.first == player {
            g.berserk_first = true;
        } else if g.pairing.second == player {
            g.berserk_second = true;
        } else {
            return Err(TournamentError::NotInGame { game, player });
        }
        Ok(())
    }

    /// Records how `game` ended at `now`: both players are scored and free again (or paused,
    /// if they left during it). Results of games that were under way at the end still count.
    pub fn record(
        &mut self,
        game: GameId,
        result: GameResult,
        now: u64,
    ) -> Result<GamePoints, TournamentError> {
        let gi = game
            .0
            .checked_sub(1)
            .map(|i| i as usize)
            .filter(|&i| i < self.games.len())
            .ok_or(TournamentError::NoSuchGame(game))?;
        if self.games[gi].result.is_some() {
            return Err(TournamentError::AlreadyRecorded);
        }
        let g = &mut self.games[gi];
        g.result = Some(result);
        let g = *g;
        let mut points = GamePoints { first: 0, second: 0 };
        for (id, colour, berserk) in [
            (g.pairing.first, Colour::First, g.berserk_first),
            (g.pairing.second, Colour::Second, g.berserk_second),
        ] {
            let i = self.index(id).expect("the game names players");
            let p = &mut self.players[i];
            let gained = p.score.add(result.for_colour(colour), berserk);
            match colour {
                Colour::First => points.first = gained,
                Colour::Second => points.second = gained,
            }
            p.status = if p.leaving { ArenaStatus::Paused } else { ArenaStatus::Free { since: now } };
            p.leaving = false;
        }
        self.results.push(ArenaResult {
            pairing: g.pairing,
            result,
            berserk_first: g.berserk_first,
            berserk_second: g.berserk_second,
        });
        Ok(points)
    }

    /// The table now, from the running scores.
    pub fn standings(&self) -> Vec<ArenaStanding> {
        arena_table(self.players.iter().map(|p| (p.entrant, p.score)).collect())
    }
}

/// An arena table made from the entrants and the finished games alone, in the order they
/// finished (the streaks depend on it); equal to [`Arena::standings`] of the arena that
/// produced them.
pub fn arena_standings(entrants: &[Entrant], results: &[ArenaResult]) -> Vec<ArenaStanding> {
    let mut scores: Vec<(Entrant, ArenaScore)> =
        entrants.iter().map(|&e| (e, ArenaScore::default())).collect();
    let index: HashMap<PlayerId, usize> = entrants.iter().enumerate().map(|(i, e)| (e.id, i)).collect();
    for r in results {
        for (id, colour, berserk) in [
            (r.pairing.first, Colour::First, r.berserk_first),
            (r.pairing.second, Colour::Second, r.berserk_second),
        ] {
            if let Some(&i) = index.get(&id) {
                scores[i].1.add(r.result.for_colour(colour), berserk);
            }
        }
    }
    arena_table(scores)
}

/// Points first; equal points share a rank, shown by rating then id.
fn arena_table(scores: Vec<(Entrant, ArenaScore)>) -> Vec<ArenaStanding> {
    let mut rows: Vec<ArenaStanding> = scores
        .into_iter()
        .map(|(e, score)| ArenaStanding { rank: 0, player: e.id, rating: e.rating, score })
        .collect();
    rows.sort_by_key(|r| (Reverse(r.score.points), Reverse(r.rating), r.player));
    let ranks = competition_ranks(rows.len(), |i, j| rows[i].score.points == rows[j].score.points);
    for (row, rank) in rows.iter_mut().zip(ranks) {
        row.rank = rank;
    }
    rows
}
