//! A round robin of up to [`MAX_ROUND_ROBIN_PLAYERS`]: everyone meets everyone once, on Berger
//! tables made when it starts.

use crate::common::{Colour, Entrant, GameResult, Pairing, PlayerId, Points};
use crate::error::TournamentError;
use crate::table::{
    Board, Forfeit, Order, Round, RoundResult, Standing, Tally, results_of, standings, tallies_from_results,
};
use serde::{Deserialize, Serialize};

/// The most players a round robin takes.
pub const MAX_ROUND_ROBIN_PLAYERS: usize = 10;

/// The Berger table of `n` players (seat numbers 0 to n - 1): `n - 1` rounds for an even
/// count, `n` for an odd one, where the seat that would meet the missing one has the bye.
///
/// Seats 0 to m - 1 (m = the even count minus one) turn round the last seat, which stays put:
/// in round r, seat r meets the last seat, and seats r + i and r - i (mod m) meet for i from
/// 1 to half the count minus one. Colours: the last seat alternates round by round; on board
/// i the seat r - i has the first move when i is odd, r + i when it is even. Everyone's
/// colours end within one of balanced, and nobody has one colour three times running.
pub fn berger_rounds(n: usize) -> Vec<(Vec<(usize, usize)>, Option<usize>)> {
    if n < 2 {
        return Vec::new();
    }
    let seats = n + n % 2;
    let m = seats - 1;
    (0..m)
        .map(|r| {
            let mut games = Vec::with_capacity(seats / 2);
            let mut bye = None;
            for i in 0..seats / 2 {
                let (mut a, mut b) = if i == 0 { (r, m) } else { ((r + i) % m, (r + m - i) % m) };
                let swap = if i == 0 { r % 2 == 1 } else { i % 2 == 1 };
                if swap {
                    std::mem::swap(&mut a, &mut b);
                }
                if a >= n {
                    bye = Some(b);
                } else if b >= n {
                    bye = Some(a);
                } else {
                    games.push((a, b));
                }
            }
            (games, bye)
        })
        .collect()
}

/// A round robin: its players (seeded in the order given), its rounds, its results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRobin {
    players: Vec<Entrant>,
    withdrawn: Vec<bool>,
    tallies: Vec<Tally>,
    rounds: Vec<Round>,
}

impl RoundRobin {
    /// The tournament of `players`, 2 to [`MAX_ROUND_ROBIN_PLAYERS`], seat 1 first: every
    /// round is paired now.
    pub fn new(players: Vec<Entrant>) -> Result<RoundRobin, TournamentError> {
        if players.len() < 2 {
            return Err(TournamentError::TooFewPlayers { have: players.len(), need: 2 });
        }
        if players.len() > MAX_ROUND_ROBIN_PLAYERS {
            return Err(TournamentError::TooManyPlayers {
                have: players.len(),
                max: MAX_ROUND_ROBIN_PLAYERS,
            });
        }
        for (i, p) in players.iter().enumerate() {
            if players[..i].iter().any(|q| q.id == p.id) {
                return Err(TournamentError::AlreadyJoined(p.id));
            }
        }
        let rounds = berger_rounds(players.len())
            .into_iter()
            .enumerate()
            .map(|(r, (games, bye))| Round {
                number: r as u32 + 1,
                boards: games
                    .into_iter()
                    .map(|(a, b)| Board {
                        pairing: Pairing { first: players[a].id, second: players[b].id },
                        result: None,
                        forfeit: false,
                    })
                    .collect(),
                bye: bye.map(|s| players[s].id),
            })
            .collect::<Vec<_>>();
        let mut tallies: Vec<Tally> = players.iter().map(|&e| Tally::new(e)).collect();
        // A bye scores nothing here: everyone has one when the count is odd.
        for r in &rounds {
            if let Some(id) = r.bye {
                let i = players.iter().position(|p| p.id == id).expect("the bye names a player");
                tallies[i].add_bye(Points::ZERO);
            }
        }
        Ok(RoundRobin { withdrawn: vec![false; players.len()], players, tallies, rounds })
    }

    /// The players, seat 1 first.
    pub fn players(&self) -> &[Entrant] {
        &self.players
    }

    /// Every round, paired from the start.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// Round `number` (from 1).
    pub fn round(&self, number: u32) -> Option<&Round> {
        number.checked_sub(1).and_then(|i| self.rounds.get(i as usize))
    }

    /// Whether every game has its result.
    pub fn is_finished(&self) -> bool {
        self.rounds.iter().all(Round::is_complete)
    }

    /// Whether `id` has withdrawn.
    pub fn is_withdrawn(&self, id: PlayerId) -> bool {
        self.players.iter().position(|p| p.id == id).is_some_and(|i| self.withdrawn[i])
    }

    fn index(&self, id: PlayerId) -> Result<usize, TournamentError> {
        self.players.iter().position(|p| p.id == id).ok_or(TournamentError::UnknownPlayer(id))
    }

    /// Records the result of round `round`'s game where `first` had the first move.
    pub fn record(
        &mut self,
        round: u32,
        first: PlayerId,
        second: PlayerId,
        result: GameResult,
    ) -> Result<(), TournamentError> {
        let board = self
            .round(round)
            .and_then(|r| r.boards.iter().find(|b| b.pairing.first == first && b.pairing.second == second))
            .ok_or(TournamentError::NoSuchPairing { round, first, second })?;
        for id in [first, second] {
            if self.withdrawn[self.index(id)?] {
                return Err(TournamentError::Withdrawn(id));
            }
        }
        if board.result.is_some() {
            return Err(TournamentError::AlreadyRecorded);
        }
        let pairing = board.pairing;
        self.set_result(round, pairing, result, false);
        Ok(())
    }

    fn set_result(&mut self, round: u32, pairing: Pairing, result: GameResult, forfeit: bool) {
        let board = self.rounds[round as usize - 1]
            .boards
            .iter_mut()
            .find(|b| b.pairing == pairing)
            .expect("the board exists");
        board.result = Some(result);
        board.forfeit = forfeit;
        for (id, colour) in [(pairing.first, Colour::First), (pairing.second, Colour::Second)] {
            let i = self.index(id).expect("the pairing names players");
            let opponent = pairing.opponent_of(id).expect("the board has the player").0;
            self.tallies[i].add_game(opponent, result.for_colour(colour));
        }
    }

    /// Withdraws a player: each of their games still without a result is lost by forfeit
    /// (returned, so that the caller can end a game in progress).
    pub fn withdraw(&mut self, id: PlayerId) -> Result<Vec<Forfeit>, TournamentError> {
        let i = self.index(id)?;
        if self.withdrawn[i] {
            return Err(TournamentError::Withdrawn(id));
        }
        let open: Vec<(u32, Pairing)> = self
            .rounds
            .iter()
            .flat_map(|r| {
                r.boards
                    .iter()
                    .filter(|b| b.result.is_none() && b.pairing.has(id))
                    .map(|b| (r.number, b.pairing))
            })
            .collect();
        let mut forfeits = Vec::with_capacity(open.len());
        for (round, pairing) in open {
            let (_, colour) = pairing.opponent_of(id).expect("the board has the player");
            let result = GameResult::win_for(colour.flip());
            self.set_result(round, pairing, result, true);
            forfeits.push(Forfeit { round, pairing, result });
        }
        self.withdrawn[i] = true;
        Ok(forfeits)
    }

    /// Every result so far, byes included, round by round.
    pub fn results(&self) -> Vec<RoundResult> {
        results_of(&self.rounds)
    }

    /// The table now: score, then Sonneborn-Berger, then wins.
    pub fn standings(&self) -> Vec<Standing> {
        standings(&self.tallies, Order::RoundRobin)
    }
}

/// A round-robin table made from the entrants and the results alone (a bye scores nothing);
/// equal to [`RoundRobin::standings`] of the tournament that produced them.
pub fn round_robin_standings(entrants: &[Entrant], results: &[RoundResult]) -> Vec<Standing> {
    standings(&tallies_from_results(entrants, results, Points::ZERO), Order::RoundRobin)
}
