//! The table of a Swiss or round-robin tournament: each player's games and byes, their score,
//! the tie-breaks, and the ranks. The same code makes the table from the tournament's running
//! tallies and from a bare list of results, so that a stored list gives back the same table.

use crate::common::{
    Colour, Entrant, GameResult, Pairing, PlayerId, PlayerResult, Points, competition_ranks,
};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One result of a Swiss or round-robin tournament, as stored: a game's, or a bye's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RoundResult {
    /// A game played (or forfeited) in `round`.
    Game {
        /// The round, from 1.
        round: u32,
        /// Who had which colour.
        pairing: Pairing,
        /// How it ended.
        result: GameResult,
    },
    /// A round `player` sat out with the bye.
    Bye {
        /// The round, from 1.
        round: u32,
        /// Who had the bye.
        player: PlayerId,
    },
}

/// One game of a round and its result once known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// Who has which colour.
    pub pairing: Pairing,
    /// The result, once in.
    pub result: Option<GameResult>,
    /// Whether the result came from a withdrawal rather than from the game.
    pub forfeit: bool,
}

/// One paired round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The round's number, from 1.
    pub number: u32,
    /// Its games, board 1 first.
    pub boards: Vec<Board>,
    /// Who sat out with the bye.
    pub bye: Option<PlayerId>,
}

impl Round {
    /// Whether every game of the round has its result.
    pub fn is_complete(&self) -> bool {
        self.boards.iter().all(|b| b.result.is_some())
    }
}

/// A game that a withdrawal ended: the opponent wins it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forfeit {
    /// The round.
    pub round: u32,
    /// The game.
    pub pairing: Pairing,
    /// The result now recorded.
    pub result: GameResult,
}

/// The results of `rounds`: games with a result and byes, round by round.
pub(crate) fn results_of(rounds: &[Round]) -> Vec<RoundResult> {
    let mut out = Vec::new();
    for r in rounds {
        for b in &r.boards {
            if let Some(result) = b.result {
                out.push(RoundResult::Game { round: r.number, pairing: b.pairing, result });
            }
        }
        if let Some(player) = r.bye {
            out.push(RoundResult::Bye { round: r.number, player });
        }
    }
    out
}

/// One line of a player's record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Entry {
    /// A game against `opponent`.
    Game {
        /// The opponent.
        opponent: PlayerId,
        /// This player's result.
        result: PlayerResult,
    },
    /// A bye.
    Bye,
}

/// A player's running record: score and every game and bye.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Who, and their seed rating.
    pub entrant: Entrant,
    /// Points so far.
    pub score: Points,
    /// Games and byes, in the order they were scored.
    pub record: Vec<Entry>,
}

impl Tally {
    /// A player with nothing yet.
    pub fn new(entrant: Entrant) -> Tally {
        Tally { entrant, score: Points::ZERO, record: Vec::new() }
    }

    /// Scores a game against `opponent`.
    pub(crate) fn add_game(&mut self, opponent: PlayerId, result: PlayerResult) {
        self.score += Points::of(result);
        self.record.push(Entry::Game { opponent, result });
    }

    /// Scores a bye worth `points`.
    pub(crate) fn add_bye(&mut self, points: Points) {
        self.score += points;
        self.record.push(Entry::Bye);
    }
}

/// How a table is ordered after the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// Buchholz cut-1, Buchholz, Sonneborn-Berger, wins.
    Swiss,
    /// Sonneborn-Berger, wins (everyone met everyone: Buchholz says nothing).
    RoundRobin,
}

/// One row of a final or live table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// 1 for the first; players equal on score and every tie-break share a rank.
    pub rank: u32,
    /// Who.
    pub player: PlayerId,
    /// The seed rating.
    pub rating: u32,
    /// Points: 1 a win, ½ a draw, a bye as its format scores it.
    pub score: Points,
    /// The sum of the opponents' scores (a bye adds nothing).
    pub buchholz: Points,
    /// Buchholz without its lowest part (when there are at least two).
    pub buchholz_cut1: Points,
    /// The scores of the opponents beaten, plus half the scores of those drawn.
    pub sonneborn_berger: Points,
    /// Games won (byes not counted).
    pub wins: u32,
    /// Games played (byes not counted).
    pub games: u32,
    /// Byes had.
    pub byes: u32,
}

/// The tallies made from a list of results alone: one per entrant (in the entrants' order),
/// results naming someone not among `entrants` are ignored.
pub(crate) fn tallies_from_results(
    entrants: &[Entrant],
    results: &[RoundResult],
    bye_points: Points,
) -> Vec<Tally> {
    let mut tallies: Vec<Tally> = entrants.iter().map(|&e| Tally::new(e)).collect();
    let index: HashMap<PlayerId, usize> = entrants.iter().enumerate().map(|(i, e)| (e.id, i)).collect();
    let mut ordered: Vec<&RoundResult> = results.iter().collect();
    // Round order; within a round the order does not change anything the table shows.
    ordered.sort_by_key(|r| match r {
        RoundResult::Game { round, .. } | RoundResult::Bye { round, .. } => *round,
    });
    for r in ordered {
        match *r {
            RoundResult::Game { pairing, result, .. } => {
                let (Some(&a), Some(&b)) = (index.get(&pairing.first), index.get(&pairing.second)) else {
                    continue;
                };
                tallies[a].add_game(pairing.second, result.for_colour(Colour::First));
                tallies[b].add_game(pairing.first, result.for_colour(Colour::Second));
            }
            RoundResult::Bye { player, .. } => {
                if let Some(&a) = index.get(&player) {
                    tallies[a].add_bye(bye_points);
                }
            }
        }
    }
    tallies
}

/// The table of `tallies`, best first.
pub(crate) fn standings(tallies: &[Tally], order: Order) -> Vec<Standing> {
    let score: HashMap<PlayerId, Points> = tallies.iter().map(|t| (t.entrant.id, t.score)).collect();
    let mut rows: Vec<Standing> = tallies
        .iter()
        .map(|t| {
            let mut parts: Vec<Points> = Vec::new();
            let mut sb = Points::ZERO;
            let (mut wins, mut games, mut byes) = (0, 0, 0);
            for entry in &t.record {
                match *entry {
                    Entry::Game { opponent, result } => {
                        let theirs = score.get(&opponent).copied().unwrap_or_default();
                        parts.push(theirs);
                        games += 1;
                        match result {
                            PlayerResult::Win => {
                                wins += 1;
                                sb += theirs;
                            }
                            PlayerResult::Draw => sb += theirs.half(),
                            PlayerResult::Loss => {}
                        }
                    }
                    Entry::Bye => {
                        parts.push(Points::ZERO);
                        byes += 1;
                    }
                }
            }
            let buchholz: Points = parts.iter().copied().sum();
            let cut =
                if parts.len() >= 2 { parts.iter().copied().min().unwrap_or_default() } else { Points::ZERO };
            Standing {
                rank: 0,
                player: t.entrant.id,
                rating: t.entrant.rating,
                score: t.score,
                buchholz,
                buchholz_cut1: buchholz - cut,
                sonneborn_berger: sb,
                wins,
                games,
                byes,
            }
        })
        .collect();
    let key = |s: &Standing| match order {
        Order::Swiss => (s.score, s.buchholz_cut1, s.buchholz, s.sonneborn_berger, s.wins),
        Order::RoundRobin => (s.score, s.sonneborn_berger, Points::ZERO, Points::ZERO, s.wins),
    };
    rows.sort_by(|a, b| key(b).cmp(&key(a)).then(b.rating.cmp(&a.rating)).then(a.player.cmp(&b.player)));
    let ranks = competition_ranks(rows.len(), |i, j| key(&rows[i]) == key(&rows[j]));
    for (row, rank) in rows.iter_mut().zip(ranks) {
        row.rank = rank;
    }
    rows
}
