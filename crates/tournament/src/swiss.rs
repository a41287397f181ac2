//! A Swiss tournament's state: its players, its rounds and their results, serializable so that
//! the server can store it and take it back mid-way.

use crate::common::{Colour, Entrant, GameResult, Pairing, PlayerId, Points};
use crate::dutch::{RoundPairing, Strictness, SwissPlayer, pair_round};
use crate::error::TournamentError;
use crate::table::{
    Board, Forfeit, Order, Round, RoundResult, Standing, Tally, results_of, standings, tallies_from_results,
};
use serde::{Deserialize, Serialize};

/// The most rounds a Swiss tournament may have.
pub const MAX_SWISS_ROUNDS: u32 = 30;

/// A Swiss tournament of a set number of rounds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Swiss {
    rounds: u32,
    players: Vec<SwissPlayer>,
    tallies: Vec<Tally>,
    played: Vec<Round>,
    strictness: Vec<Strictness>,
}

impl Swiss {
    /// A tournament of `rounds` rounds (1 to [`MAX_SWISS_ROUNDS`]), with no player yet.
    pub fn new(rounds: u32) -> Result<Swiss, TournamentError> {
        if !(1..=MAX_SWISS_ROUNDS).contains(&rounds) {
            return Err(TournamentError::BadRounds(rounds));
        }
        Ok(Swiss {
            rounds,
            players: Vec::new(),
            tallies: Vec::new(),
            played: Vec::new(),
            strictness: Vec::new(),
        })
    }

    /// The number of rounds.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// The rounds paired so far.
    pub fn paired(&self) -> &[Round] {
        &self.played
    }

    /// Round `number` (from 1), if paired.
    pub fn round(&self, number: u32) -> Option<&Round> {
        number.checked_sub(1).and_then(|i| self.played.get(i as usize))
    }

    /// The constraints round `number` was paired under, if paired.
    pub fn strictness(&self, number: u32) -> Option<Strictness> {
        number.checked_sub(1).and_then(|i| self.strictness.get(i as usize)).copied()
    }

    /// Every player who joined, withdrawn ones too, in the order they joined.
    pub fn players(&self) -> &[SwissPlayer] {
        &self.players
    }

    /// Everyone who joined, as entrants, in the order they joined.
    pub fn entrants(&self) -> Vec<Entrant> {
        self.players.iter().map(|p| p.entrant).collect()
    }

    /// Whether every round is paired and every result in.
    pub fn is_finished(&self) -> bool {
        self.played.len() as u32 == self.rounds && self.played.iter().all(Round::is_complete)
    }

    fn index(&self, id: PlayerId) -> Result<usize, TournamentError> {
        self.players.iter().position(|p| p.entrant.id == id).ok_or(TournamentError::UnknownPlayer(id))
    }

    /// Adds a player, before the first round or late (with no points, from the next round on).
    pub fn join(&mut self, entrant: Entrant) -> Result<(), TournamentError> {
        if self.players.iter().any(|p| p.entrant.id == entrant.id) {
            return Err(TournamentError::AlreadyJoined(entrant.id));
        }
        if self.played.len() as u32 >= self.rounds {
            return Err(TournamentError::Finished);
        }
        self.players.push(SwissPlayer::new(entrant));
        self.tallies.push(Tally::new(entrant));
        Ok(())
    }

    /// Withdraws a player: never paired again. A game of theirs still without a result is lost
    /// by forfeit (returned, so that the caller can end it).
    pub fn withdraw(&mut self, id: PlayerId) -> Result<Option<Forfeit>, TournamentError> {
        let i = self.index(id)?;
        if self.players[i].withdrawn {
            return Err(TournamentError::Withdrawn(id));
        }
        let open = self.played.last().and_then(|round| {
            round
                .boards
                .iter()
                .find(|b| b.result.is_none() && b.pairing.has(id))
                .map(|b| (round.number, b.pairing))
        });
        let forfeit = match open {
            Some((round, pairing)) => {
                let (_, colour) = pairing.opponent_of(id).expect("the board has the player");
                let result = GameResult::win_for(colour.flip());
                self.set_result(round, pairing, result, true);
                Some(Forfeit { round, pairing, result })
            }
            None => None,
        };
        self.players[i].withdrawn = true;
        Ok(forfeit)
    }

    /// Pairs round `number`, which must be the next one, once every result of the one before
    /// is in. Asking again for a round already paired is refused (nothing changes).
    pub fn pair_round(&mut self, number: u32) -> Result<&Round, TournamentError> {
        let next = self.played.len() as u32 + 1;
        if number < next {
            return Err(TournamentError::RoundAlreadyPaired(number));
        }
        if next > self.rounds {
            return Err(TournamentError::AllRoundsPaired(self.rounds));
        }
        if number != next {
            return Err(TournamentError::NotNextRound { asked: number, next });
        }
        if let Some(last) = self.played.last().filter(|r| !r.is_complete()) {
            return Err(TournamentError::RoundUnfinished(last.number));
        }
        let active = self.players.iter().filter(|p| !p.withdrawn).count();
        let RoundPairing { boards, bye, strictness } =
            pair_round(&self.players).ok_or(TournamentError::TooFewPlayers { have: active, need: 2 })?;
        for pairing in &boards {
            for (id, colour) in [(pairing.first, Colour::First), (pairing.second, Colour::Second)] {
                let i = self.index(id).expect("the pairing names players");
                let opponent = pairing.opponent_of(id).expect("the board has the player").0;
                self.players[i].colours.push(colour);
                self.players[i].opponents.push(opponent);
            }
        }
        if let Some(id) = bye {
            let i = self.index(id).expect("the bye names a player");
            self.players[i].byes += 1;
            self.players[i].score += Points::ONE;
            self.tallies[i].add_bye(Points::ONE);
        }
        self.played.push(Round {
            number,
            boards: boards
                .into_iter()
                .map(|pairing| Board { pairing, result: None, forfeit: false })
                .collect(),
            bye,
        });
        self.strictness.push(strictness);
        Ok(self.played.last().expect("just pushed"))
    }

    /// Records the result of the game of round `round` where `first` had the first move
    /// against `second`.
    pub fn record(
        &mut self,
        round: u32,
        first: PlayerId,
        second: PlayerId,
        result: GameResult,
    ) -> Result<(), TournamentError> {
        let no_such = TournamentError::NoSuchPairing { round, first, second };
        let board = self
            .round(round)
            .and_then(|r| r.boards.iter().find(|b| b.pairing.first == first && b.pairing.second == second))
            .ok_or(no_such)?;
        for id in [first, second] {
            if self.players[self.index(id)?].withdrawn {
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
        let r = &mut self.played[round as usize - 1];
        let board = r.boards.iter_mut().find(|b| b.pairing == pairing).expect("the board exists");
        board.result = Some(result);
        board.forfeit = forfeit;
        for (id, colour) in [(pairing.first, Colour::First), (pairing.second, Colour::Second)] {
            let i = self.index(id).expect("the pairing names players");
            let mine = result.for_colour(colour);
            let opponent = pairing.opponent_of(id).expect("the board has the player").0;
            self.players[i].score += Points::of(mine);
            self.tallies[i].add_game(opponent, mine);
        }
    }

    /// Every result so far (games with a result and byes), round by round: with the entrants,
    /// all that [`swiss_standings`] needs.
    pub fn results(&self) -> Vec<RoundResult> {
        results_of(&self.played)
    }

    /// The table now, from the running tallies: best first, with ranks.
    pub fn standings(&self) -> Vec<Standing> {
        standings(&self.tallies, Order::Swiss)
    }
}

/// A Swiss table made from the entrants and the list of results alone (a bye scores a win's
/// point); equal to [`Swiss::standings`] of the tournament that produced them.
pub fn swiss_standings(entrants: &[Entrant], results: &[RoundResult]) -> Vec<Standing> {
    standings(&tallies_from_results(entrants, results, Points::ONE), Order::Swiss)
}
