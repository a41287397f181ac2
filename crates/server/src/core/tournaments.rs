//! Tournaments run by the server: arenas, Swiss events and round robins, made by claimed
//! players or by the server's schedule, paired here with `ludus_tournament` and played as
//! ordinary games.
//!
//! Each tournament is a [`Tourney`]: its settings, the format's state from `ludus_tournament`
//! (serde: stored whole as JSON at every change), and the games it started. Every result is also
//! stored on its own, in order (`tournament_results`): after a restart the table recomputed from
//! those results with the crate's functions is compared with the reloaded state's.
//!
//! - **Start.** The timers start a tournament at its time (the server's Unix clock).
//! - **Arena.** Pairs its free players with [`ludus_tournament::Arena::pair`] at the start, when
//!   a game of it ends, when a player joins or comes back, and every second (the window of
//!   "near in points" widens with the wait). A free player who is offline, or seated in another
//!   game, is paused first (they join again to come back). No pairing from its end on; it is
//!   over once its last game has ended.
//! - **Swiss and round robin.** A round is paired once every game of the one before has ended;
//!   the games are real-time or turn-based as the settings say. A player who cannot be seated
//!   when the round is paired (in another real-time game, or at the limit of turn-based games)
//!   loses that board by forfeit. A withdrawn player is never paired again; their game under way
//!   ends as a loss.
//! - **Games.** Real-time games get a room of two, as quick-match games do (so that a player
//!   who reconnects is given the game back); the room is closed when the game ends (no
//!   rematch). Turn-based games are started as an accepted challenge's are. Games are rated
//!   when the tournament is and both players are claimed, as rated rooms are.
//! - **Limits.** Only claimed players create, at most [`TOURNAMENTS_PER_DAY`] a day per account
//!   and per address; a wrong code counts as a wrong room code does (the same strikes).

use super::door::Effect;
use super::limits::check_clock;
use super::records::{Op, StoredTournament};
use super::rooms::Room;
use super::{ConnId, Core, Refusal, refuse};
use ludus_protocol::{
    BoardResult, ClockSpec, ErrorCode, GameId, PlayerId, ROOM_CODE_ALPHABET, ROUND_ROBIN_MAX_PLAYERS,
    SWISS_MAX_ROUNDS, ServerMessage, TOURNAMENT_CODE_LEN, TOURNAMENT_MAX_DELAY_MINUTES,
    TOURNAMENT_MAX_PLAYERS, TOURNAMENT_NAME_MAX_CHARS, TOURNAMENTS_PER_DAY, TURN_DAYS, TournamentBoard,
    TournamentEntry, TournamentFormat, TournamentId, TournamentList, TournamentPace, TournamentRef,
    TournamentScore, TournamentSettings, TournamentStage, TournamentStanding, TournamentSummary,
    TournamentView,
};
use ludus_rules::{Outcome, Reason, Side, Variant};
use ludus_tournament as tour;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// How often a running arena pairs its free players when nothing else made it.
const ARENA_PAIR_INTERVAL_MS: u64 = 1000;
/// How often the timers look at the tournaments.
const TICK_MS: u64 = 250;
/// The window of [`TOURNAMENTS_PER_DAY`].
const CREATION_WINDOW: Duration = Duration::from_secs(24 * 3600);
/// Finished tournaments kept in memory for the lists.
const FINISHED_KEPT: usize = 50;
const MINUTE_MS: u64 = 60_000;

/// A recurring tournament of the server's schedule (`--tournament-schedule FILE`: a JSON list
/// of these). One starts every `every_minutes` minutes, `offset_minutes` past each multiple of
/// that period since the Unix epoch (UTC), and is listed `announce_minutes` before its start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleEntry {
    /// The name shown in the lists.
    pub name: String,
    /// Which game.
    pub variant: Variant,
    /// Arena, Swiss or round robin.
    pub format: TournamentFormat,
    /// Real-time or turn-based.
    pub pace: TournamentPace,
    /// The period, in minutes (at least 10).
    pub every_minutes: u32,
    /// The start within the period, in minutes.
    #[serde(default)]
    pub offset_minutes: u32,
    /// How long before its start it is listed, in minutes (at most the period).
    #[serde(default = "default_announce")]
    pub announce_minutes: u32,
    /// Rated games.
    #[serde(default = "default_true")]
    pub rated: bool,
    /// Most players.
    #[serde(default = "default_max_players")]
    pub max_players: u32,
}

fn default_announce() -> u32 {
    60
}
fn default_true() -> bool {
    true
}
fn default_max_players() -> u32 {
    TOURNAMENT_MAX_PLAYERS
}

impl ScheduleEntry {
    /// The settings of its tournaments, checked as a player's would be (`Err`: why not).
    pub fn settings(&self) -> Result<TournamentSettings, String> {
        let settings = TournamentSettings {
            name: self.name.clone(),
            variant: self.variant,
            format: self.format,
            pace: self.pace,
            starts_in_minutes: 0,
            public: true,
            rated: self.rated,
            max_players: self.max_players,
        };
        check_settings(&settings, ClockSpec::MIN_INITIAL_MS).map_err(|r| r.message)?;
        if self.every_minutes < 10 {
            return Err(format!("{}: every_minutes is at least 10", self.name));
        }
        if self.announce_minutes > self.every_minutes {
            return Err(format!("{}: announce_minutes is at most every_minutes", self.name));
        }
        Ok(settings)
    }

    /// The next start strictly after `after_ms` (Unix milliseconds).
    fn next_start(&self, after_ms: u64) -> u64 {
        let period = u64::from(self.every_minutes) * MINUTE_MS;
        let offset = (u64::from(self.offset_minutes) * MINUTE_MS) % period;
        let base = after_ms.saturating_sub(offset) / period * period + offset;
        if base > after_ms { base } else { base + period }
    }
}

/// Reads a schedule (a JSON list of [`ScheduleEntry`]), checking every entry.
pub fn parse_schedule(text: &str) -> Result<Vec<ScheduleEntry>, String> {
    let entries: Vec<ScheduleEntry> = serde_json::from_str(text).map_err(|e| e.to_string())?;
    for e in &entries {
        e.settings()?;
    }
    Ok(entries)
}

/// A tournament game: the server's game and the board it plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct TourGame {
    game: u64,
    round: u32,
    first: u64,
    second: u64,
    /// The arena's number of the game.
    arena: Option<u64>,
    /// The room of a real-time game (closed when it ends).
    room: String,
    result: Option<tour::GameResult>,
}

/// The format's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Play {
    Arena(tour::Arena),
    Swiss(tour::Swiss),
    RoundRobin { entrants: Vec<tour::Entrant>, table: Option<tour::RoundRobin>, withdrawn: Vec<u64> },
}

/// A stored result: what the standings are recomputed from after a restart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum StoredResult {
    Arena(tour::ArenaResult),
    Round(tour::RoundResult),
}

/// One tournament (see the module documentation); stored whole as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Tourney {
    id: u64,
    settings: TournamentSettings,
    creator: Option<u64>,
    creator_name: String,
    pub(super) code: Option<String>,
    scheduled: bool,
    created_ms: u64,
    starts_ms: u64,
    ends_ms: Option<u64>,
    pub(super) stage: TournamentStage,
    /// Everyone's nickname as they joined (players may be offline, or forgotten by the core).
    names: BTreeMap<u64, String>,
    play: Play,
    games: Vec<TourGame>,
    /// Results stored so far (the number of the next one).
    results: u32,
    /// The node that runs it, when there are several (`None`: one node).
    #[serde(default)]
    node: Option<String>,
    /// When the arena last paired (not stored: pairs at once after a restart).
    #[serde(skip)]
    last_pair_ms: u64,
}

/// Every tournament, and what bounds their creation.
#[derive(Default)]
pub(super) struct Tournaments {
    pub(super) by_id: BTreeMap<u64, Tourney>,
    by_code: HashMap<String, u64>,
    /// The tournament of each game under way.
    pub(super) by_game: HashMap<GameId, u64>,
    /// The tournament each player views (they get its page again at each change).
    viewing: HashMap<PlayerId, u64>,
    pub(super) next_id: u64,
    created_by_player: HashMap<PlayerId, VecDeque<Instant>>,
    created_by_address: HashMap<IpAddr, VecDeque<Instant>>,
    schedule: Vec<ScheduleEntry>,
    last_tick_ms: u64,
    /// Tournaments whose state changed in this input (stored once at its end).
    dirty: std::collections::BTreeSet<u64>,
    /// Tournaments whose page changed in this input (sent once at its end).
    to_push: std::collections::BTreeSet<u64>,
}

/// Checks a player's (or the schedule's) settings.
fn check_settings(s: &TournamentSettings, min_clock_ms: u32) -> Result<(), Refusal> {
    let bad = |why: String| refuse(ErrorCode::BadTournament, why);
    if s.name.chars().count() > TOURNAMENT_NAME_MAX_CHARS {
        return bad(format!("a tournament's name has at most {TOURNAMENT_NAME_MAX_CHARS} characters"));
    }
    if !s.name.trim().is_empty() && ludus_protocol::validate_chat(&s.name).is_err() {
        return bad("a tournament's name cannot hold control or invisible characters".into());
    }
    if s.starts_in_minutes > TOURNAMENT_MAX_DELAY_MINUTES {
        return bad("a tournament starts within a week".into());
    }
    let most = match s.format {
        TournamentFormat::RoundRobin => ROUND_ROBIN_MAX_PLAYERS,
        _ => TOURNAMENT_MAX_PLAYERS,
    };
    if !(2..=most).contains(&s.max_players) {
        return bad(format!("2 to {most} players"));
    }
    match s.format {
        TournamentFormat::Arena { minutes, .. } => {
            let (lo, hi) = ludus_protocol::ARENA_MINUTES;
            if !(lo..=hi).contains(&minutes) {
                return bad(format!("an arena lasts {lo} to {hi} minutes"));
            }
            if !matches!(s.pace, TournamentPace::RealTime(_)) {
                return bad("an arena is played in real time".into());
            }
        }
        TournamentFormat::Swiss { rounds } if !(1..=SWISS_MAX_ROUNDS).contains(&rounds) => {
            return bad(format!("a Swiss tournament has 1 to {SWISS_MAX_ROUNDS} rounds"));
        }
        _ => {}
    }
    match s.pace {
        TournamentPace::RealTime(clock)
            if !(min_clock_ms..=ClockSpec::MAX_INITIAL_MS).contains(&clock.initial_ms)
                || clock.increment_ms > ClockSpec::MAX_INCREMENT_MS =>
        {
            return refuse(ErrorCode::BadClock, "time control out of range");
        }
        TournamentPace::TurnBased { days } if !TURN_DAYS.contains(&days) => {
            return bad(format!("a move limit is one of {TURN_DAYS:?} days"));
        }
        _ => {}
    }
    Ok(())
}

/// A name made from the settings when none is given.
fn default_name(s: &TournamentSettings) -> String {
    let variant = match s.variant {
        Variant::Alquerque => "Alquerque",
        _ => "Latrunculi",
    };
    let format = match s.format {
        TournamentFormat::Arena { .. } => "Arena",
        TournamentFormat::Swiss { .. } => "Swiss",
        TournamentFormat::RoundRobin => "Round robin",
    };
    let pace = match s.pace {
        TournamentPace::RealTime(c) => c.label(),
        TournamentPace::TurnBased { days } => format!("{days}d"),
    };
    format!("{variant} {format} {pace}")
}

fn game_result(outcome: Outcome) -> tour::GameResult {
    match outcome.winner {
        Some(Side::First) => tour::GameResult::FirstWins,
        Some(Side::Second) => tour::GameResult::SecondWins,
        None => tour::GameResult::Draw,
    }
}

fn board_result(r: tour::GameResult) -> BoardResult {
    match r {
        tour::GameResult::FirstWins => BoardResult::FirstWins,
        tour::GameResult::SecondWins => BoardResult::SecondWins,
        tour::GameResult::Draw => BoardResult::Draw,
    }
}

/// `log` has room for one more within the window (what is older is dropped).
fn room_in(log: &mut VecDeque<Instant>, now: Instant) -> bool {
    while log.front().is_some_and(|&t| now.saturating_duration_since(t) >= CREATION_WINDOW) {
        log.pop_front();
    }
    log.len() < TOURNAMENTS_PER_DAY
}

impl Tourney {
    fn is_member(&self, pid: PlayerId) -> bool {
        match &self.play {
            Play::Arena(a) => a.player(tour::PlayerId(pid.0)).is_some(),
            Play::Swiss(s) => s.players().iter().any(|p| p.entrant.id.0 == pid.0),
            Play::RoundRobin { entrants, .. } => entrants.iter().any(|e| e.id.0 == pid.0),
        }
    }

    fn player_count(&self) -> usize {
        match &self.play {
            Play::Arena(a) => a.players().len(),
            Play::Swiss(s) => s.players().len(),
            Play::RoundRobin { entrants, .. } => entrants.len(),
        }
    }

    fn entry_of(&self, pid: PlayerId) -> Option<TournamentEntry> {
        let id = tour::PlayerId(pid.0);
        match &self.play {
            Play::Arena(a) => a.player(id).map(|p| {
                if p.status == tour::ArenaStatus::Paused || p.leaving {
                    TournamentEntry::Paused
                } else {
                    TournamentEntry::Playing
                }
            }),
            Play::Swiss(s) => s
                .players()
                .iter()
                .find(|p| p.entrant.id == id)
                .map(|p| if p.withdrawn { TournamentEntry::Withdrawn } else { TournamentEntry::Playing }),
            Play::RoundRobin { entrants, withdrawn, .. } => entrants.iter().find(|e| e.id == id).map(|_| {
                if withdrawn.contains(&pid.0) { TournamentEntry::Withdrawn } else { TournamentEntry::Playing }
            }),
        }
    }

    fn name_of(&self, id: u64) -> String {
        self.names.get(&id).cloned().unwrap_or_default()
    }

    pub(super) fn summary(&self) -> TournamentSummary {
        TournamentSummary {
            id: TournamentId(self.id),
            name: self.settings.name.clone(),
            variant: self.settings.variant,
            format: self.settings.format,
            pace: self.settings.pace,
            stage: self.stage,
            starts_ms: self.starts_ms,
            ends_ms: self.ends_ms,
            players: self.player_count() as u32,
            max_players: self.settings.max_players,
            public: self.settings.public,
            rated: self.settings.rated,
            scheduled: self.scheduled,
            by: self.creator_name.clone(),
        }
    }

    /// An arena's line of the table as the protocol shows it.
    fn arena_standing(&self, a: &tour::Arena, s: tour::ArenaStanding) -> TournamentStanding {
        let away = a.player(s.player).is_some_and(|p| p.status == tour::ArenaStatus::Paused);
        TournamentStanding {
            rank: s.rank,
            player: PlayerId(s.player.0),
            nickname: self.name_of(s.player.0),
            rating: s.rating,
            score: TournamentScore::Arena {
                points: s.score.points,
                streak: s.score.streak,
                berserk_wins: s.score.berserk_wins,
            },
            games: s.score.games,
            wins: s.score.wins,
            on_fire: s.score.on_fire(),
            away,
        }
    }

    /// The table now, best first.
    pub(super) fn standings(&self) -> Vec<TournamentStanding> {
        match &self.play {
            Play::Arena(a) => a.standings().into_iter().map(|s| self.arena_standing(a, s)).collect(),
            Play::Swiss(sw) => {
                let withdrawn: HashSet<u64> =
                    sw.players().iter().filter(|p| p.withdrawn).map(|p| p.entrant.id.0).collect();
                self.table_rows(sw.standings(), &withdrawn)
            }
            Play::RoundRobin { entrants, table, withdrawn } => {
                let withdrawn: HashSet<u64> = withdrawn.iter().copied().collect();
                let rows = match table {
                    Some(t) => t.standings(),
                    None => tour::round_robin_standings(entrants, &[]),
                };
                self.table_rows(rows, &withdrawn)
            }
        }
    }

    fn table_rows(&self, rows: Vec<tour::Standing>, withdrawn: &HashSet<u64>) -> Vec<TournamentStanding> {
        let round_robin = matches!(self.play, Play::RoundRobin { .. });
        rows.into_iter()
            .map(|s| TournamentStanding {
                rank: s.rank,
                player: PlayerId(s.player.0),
                nickname: self.name_of(s.player.0),
                rating: s.rating,
                score: TournamentScore::Table {
                    score_q: s.score.0,
                    buchholz_cut1_q: if round_robin { 0 } else { s.buchholz_cut1.0 },
                    buchholz_q: if round_robin { 0 } else { s.buchholz.0 },
                    sonneborn_berger_q: s.sonneborn_berger.0,
                    byes: s.byes,
                },
                games: s.games,
                wins: s.wins,
                on_fire: false,
                away: withdrawn.contains(&s.player.0),
            })
            .collect()
    }

    /// The table recomputed from the entrants and `results` alone, with the crate's functions.
    fn standings_from(&self, results: &[StoredResult]) -> Vec<TournamentStanding> {
        match &self.play {
            Play::Arena(a) => {
                let list: Vec<tour::ArenaResult> = results
                    .iter()
                    .filter_map(|r| if let StoredResult::Arena(x) = r { Some(*x) } else { None })
                    .collect();
                let table = tour::arena_standings(&a.entrants(), &list);
                table.into_iter().map(|s| self.arena_standing(a, s)).collect()
            }
            Play::Swiss(sw) => {
                let list = round_results(results);
                let withdrawn: HashSet<u64> =
                    sw.players().iter().filter(|p| p.withdrawn).map(|p| p.entrant.id.0).collect();
                self.table_rows(tour::swiss_standings(&sw.entrants(), &list), &withdrawn)
            }
            Play::RoundRobin { entrants, withdrawn, .. } => {
                let list = round_results(results);
                let withdrawn: HashSet<u64> = withdrawn.iter().copied().collect();
                self.table_rows(tour::round_robin_standings(entrants, &list), &withdrawn)
            }
        }
    }

    fn current_round(&self) -> u32 {
        match self.stage {
            TournamentStage::Running { round } => round,
            _ => 0,
        }
    }

    fn boards(&self) -> (Vec<TournamentBoard>, Option<(PlayerId, String)>) {
        let board = |g: &TourGame, game: Option<GameId>| TournamentBoard {
            round: g.round,
            game,
            first: (PlayerId(g.first), self.name_of(g.first)),
            second: (PlayerId(g.second), self.name_of(g.second)),
            result: g.result.map(board_result),
        };
        match &self.play {
            Play::Arena(_) => (
                self.games
                    .iter()
                    .filter(|g| g.result.is_none())
                    .map(|g| board(g, Some(GameId(g.game))))
                    .collect(),
                None,
            ),
            Play::Swiss(_) | Play::RoundRobin { .. } => {
                let round = self.current_round();
                let rounds: Option<&tour::Round> = match &self.play {
                    Play::Swiss(s) => s.round(round),
                    Play::RoundRobin { table: Some(t), .. } => t.round(round),
                    _ => None,
                };
                let Some(r) = rounds else { return (Vec::new(), None) };
                let boards = r
                    .boards
                    .iter()
                    .map(|b| {
                        let played = self.games.iter().find(|g| {
                            g.round == round && g.first == b.pairing.first.0 && g.second == b.pairing.second.0
                        });
                        let g = TourGame {
                            game: played.map_or(0, |g| g.game),
                            round,
                            first: b.pairing.first.0,
                            second: b.pairing.second.0,
                            arena: None,
                            room: String::new(),
                            result: b.result,
                        };
                        board(&g, played.map(|g| GameId(g.game)))
                    })
                    .collect();
                (boards, r.bye.map(|p| (PlayerId(p.0), self.name_of(p.0))))
            }
        }
    }

    fn view(&self, viewer: PlayerId, now_ms: u64) -> TournamentView {
        let (boards, bye) = self.boards();
        TournamentView {
            summary: self.summary(),
            starts_in_ms: self.starts_ms.saturating_sub(now_ms),
            ends_in_ms: self.ends_ms.map(|e| e.saturating_sub(now_ms)),
            rounds: match &self.play {
                Play::Arena(_) => 0,
                Play::Swiss(s) => s.rounds(),
                Play::RoundRobin { table: Some(t), .. } => t.rounds().len() as u32,
                Play::RoundRobin { entrants, .. } => tour::berger_rounds(entrants.len()).len() as u32,
            },
            standings: self.standings(),
            boards,
            bye,
            you: self.entry_of(viewer),
            code: if self.creator == Some(viewer.0) { self.code.clone() } else { None },
        }
    }

    /// Whether `viewer` may see it: public, or theirs, or joined.
    fn visible_to(&self, viewer: PlayerId) -> bool {
        self.settings.public || self.creator == Some(viewer.0) || self.is_member(viewer)
    }
}

fn round_results(results: &[StoredResult]) -> Vec<tour::RoundResult> {
    results.iter().filter_map(|r| if let StoredResult::Round(x) = r { Some(*x) } else { None }).collect()
}

/// Why a stored tournament could not be taken back.
pub(super) fn reloaded_tourney(stored: &StoredTournament) -> Result<Tourney, String> {
    let t: Tourney = serde_json::from_str(&stored.state).map_err(|e| format!("unreadable state: {e}"))?;
    let results: Vec<StoredResult> = stored
        .results
        .iter()
        .map(|r| serde_json::from_str(r))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("unreadable result: {e}"))?;
    if results.len() != t.results as usize {
        return Err(format!("{} results stored, the state counts {}", results.len(), t.results));
    }
    if t.standings_from(&results) != t.standings() {
        return Err("the standings recomputed from the stored results differ from the state's".into());
    }
    Ok(t)
}

impl Core {
    /// Sets the server's schedule of recurring tournaments.
    pub fn set_tournament_schedule(&mut self, schedule: Vec<ScheduleEntry>) {
        self.tournaments.schedule = schedule;
    }

    /// The stored tournaments back (after a restart): each checked against its stored results.
    pub(super) fn reload_tournaments(&mut self, stored: Vec<StoredTournament>, next_id: u64) {
        self.tournaments.next_id = next_id.max(1);
        for s in stored {
            match reloaded_tourney(&s) {
                Ok(t) => {
                    tracing::info!(
                        tournament = t.id,
                        results = s.results.len(),
                        "tournament reloaded: its table recomputed from the stored results equals the stored state's"
                    );
                    self.tournaments.next_id = self.tournaments.next_id.max(t.id + 1);
                    self.index_tourney(t);
                }
                Err(e) => tracing::error!(tournament = s.id, "cannot reload tournament: {e}"),
            }
        }
    }

    fn index_tourney(&mut self, t: Tourney) {
        if let Some(code) = &t.code
            && t.stage != TournamentStage::Finished
        {
            self.tournaments.by_code.insert(code.clone(), t.id);
        }
        for g in t.games.iter().filter(|g| g.result.is_none()) {
            self.tournaments.by_game.insert(GameId(g.game), t.id);
        }
        self.tournaments.by_id.insert(t.id, t);
    }

    /// Stores a tournament's state (after every change), with `results` new results.
    fn save_tourney(&mut self, tid: u64, results: Vec<StoredResult>) {
        let Some(t) = self.tournaments.by_id.get_mut(&tid) else {
            return;
        };
        for r in results {
            self.effects.push(Effect::Store(Op::TournamentResult {
                tournament: tid,
                seq: t.results,
                result: serde_json::to_string(&r).unwrap_or_default(),
            }));
            t.results += 1;
        }
        self.tournaments.dirty.insert(tid);
    }

    /// Sends the page of `tid` to everyone viewing it, once the input is handled.
    fn push_tourney(&mut self, tid: u64) {
        self.tournaments.to_push.insert(tid);
    }

    /// At the end of each input ([`Core::handle`]): the state of each tournament that changed
    /// is stored once (after its results, in the same batch), and its page sent once to those
    /// viewing it.
    pub(super) fn flush_tourneys(&mut self) {
        let dirty: Vec<u64> = std::mem::take(&mut self.tournaments.dirty).into_iter().collect();
        for tid in dirty {
            if let Some(t) = self.tournaments.by_id.get(&tid) {
                self.effects.push(Effect::Store(Op::Tournament {
                    id: tid,
                    finished: t.stage == TournamentStage::Finished,
                    created_ms: t.created_ms,
                    state: serde_json::to_string(t).unwrap_or_default(),
                }));
            }
        }
        let push: Vec<u64> = std::mem::take(&mut self.tournaments.to_push).into_iter().collect();
        for tid in push {
            let viewers: Vec<PlayerId> =
                self.tournaments.viewing.iter().filter(|&(_, &t)| t == tid).map(|(&p, _)| p).collect();
            for p in viewers {
                self.send_tourney(tid, p);
            }
        }
    }

    fn send_tourney(&mut self, tid: u64, pid: PlayerId) {
        let now_ms = self.unix_ms;
        if let Some(view) = self.tournaments.by_id.get(&tid).map(|t| t.view(pid, now_ms)) {
            self.send_player(pid, &ServerMessage::Tournament(Box::new(view)));
        }
    }

    /// [`ludus_protocol::ClientMessage::Tournaments`].
    pub(super) fn tournament_list(&mut self, pid: PlayerId) {
        self.tournaments.viewing.remove(&pid);
        let mut list = TournamentList::default();
        for t in self.tournaments.by_id.values().filter(|t| t.visible_to(pid)) {
            match t.stage {
                TournamentStage::Upcoming => list.upcoming.push(t.summary()),
                TournamentStage::Running { .. } => list.running.push(t.summary()),
                TournamentStage::Finished => list.finished.push(t.summary()),
            }
        }
        list.upcoming.sort_by_key(|s| (s.starts_ms, s.id));
        list.running.sort_by_key(|s| (s.starts_ms, s.id));
        list.finished.sort_by_key(|s| std::cmp::Reverse((s.starts_ms, s.id)));
        for l in [&mut list.upcoming, &mut list.running, &mut list.finished] {
            l.truncate(TournamentList::MAX_LISTED);
        }
        self.send_player(pid, &ServerMessage::Tournaments(list));
    }

    /// [`ludus_protocol::ClientMessage::ViewTournament`].
    pub(super) fn view_tournament(&mut self, pid: PlayerId, tid: TournamentId) -> Result<(), Refusal> {
        if !self.tournaments.by_id.get(&tid.0).is_some_and(|t| t.visible_to(pid)) {
            return refuse(ErrorCode::UnknownTournament, format!("no tournament {}", tid.0));
        }
        self.tournaments.viewing.insert(pid, tid.0);
        self.send_tourney(tid.0, pid);
        Ok(())
    }

    /// A fresh private code (unused by any tournament).
    fn new_tournament_code(&mut self) -> String {
        loop {
            let code: String = (0..TOURNAMENT_CODE_LEN)
                .map(|_| ROOM_CODE_ALPHABET[self.rng.random_range(0..ROOM_CODE_ALPHABET.len())] as char)
                .collect();
            if !self.tournaments.by_code.contains_key(&code) {
                return code;
            }
        }
    }

    /// [`ludus_protocol::ClientMessage::CreateTournament`].
    pub(super) fn create_tournament(
        &mut self,
        conn: ConnId,
        pid: PlayerId,
        mut settings: TournamentSettings,
    ) -> Result<(), Refusal> {
        if !self.is_claimed(pid) {
            return refuse(ErrorCode::NotClaimed, "creating a tournament needs a claimed nickname");
        }
        check_settings(&settings, self.limits.min_clock_ms)?;
        if settings.starts_in_minutes == 0 && !matches!(settings.format, TournamentFormat::Arena { .. }) {
            // Nobody could join before its first round.
            return refuse(
                ErrorCode::BadTournament,
                "a Swiss or round robin starts a minute from now at the soonest",
            );
        }
        if let TournamentPace::RealTime(clock) = settings.pace {
            check_clock(&self.limits, Some(clock))?;
        }
        self.check_accepting()?;
        let now = self.now;
        let origin = self.conns.get(&conn).and_then(|c| c.origin);
        let by_player = room_in(self.tournaments.created_by_player.entry(pid).or_default(), now);
        let by_address =
            origin.is_none_or(|o| room_in(self.tournaments.created_by_address.entry(o).or_default(), now));
        if !by_player || !by_address {
            return refuse(
                ErrorCode::TooManyTournaments,
                format!("at most {TOURNAMENTS_PER_DAY} tournaments a day from one account or address"),
            );
        }
        self.tournaments.created_by_player.entry(pid).or_default().push_back(now);
        if let Some(o) = origin {
            self.tournaments.created_by_address.entry(o).or_default().push_back(now);
        }
        settings.name = match ludus_protocol::validate_chat(&settings.name) {
            Ok(name) => name,
            Err(_) => default_name(&settings),
        };
        let starts_ms = self.unix_ms + u64::from(settings.starts_in_minutes) * MINUTE_MS;
        let creator_name = self.nickname_of(pid);
        let tid = self.open_tourney(settings, starts_ms, Some((pid, creator_name)))?;
        let code = self.tournaments.by_id.get(&tid).and_then(|t| t.code.clone());
        self.send_player(pid, &ServerMessage::TournamentCreated { tournament: TournamentId(tid), code });
        self.tournaments.viewing.insert(pid, tid);
        self.send_tourney(tid, pid);
        Ok(())
    }

    /// A new tournament (checked settings), stored.
    fn open_tourney(
        &mut self,
        settings: TournamentSettings,
        starts_ms: u64,
        creator: Option<(PlayerId, String)>,
    ) -> Result<u64, Refusal> {
        let play = match settings.format {
            TournamentFormat::Arena { minutes, berserk } => Play::Arena(
                tour::Arena::new(tour::ArenaConfig {
                    starts_at: starts_ms,
                    ends_at: starts_ms + u64::from(minutes) * MINUTE_MS,
                    berserk,
                })
                .map_err(|e| Refusal::new(ErrorCode::BadTournament, e.to_string()))?,
            ),
            TournamentFormat::Swiss { rounds } => Play::Swiss(
                tour::Swiss::new(rounds)
                    .map_err(|e| Refusal::new(ErrorCode::BadTournament, e.to_string()))?,
            ),
            TournamentFormat::RoundRobin => {
                Play::RoundRobin { entrants: Vec::new(), table: None, withdrawn: Vec::new() }
            }
        };
        let code = (!settings.public).then(|| self.new_tournament_code());
        let id = self.tournaments.next_id.max(1);
        self.tournaments.next_id = id + 1;
        let ends_ms = match settings.format {
            TournamentFormat::Arena { minutes, .. } => Some(starts_ms + u64::from(minutes) * MINUTE_MS),
            _ => None,
        };
        let t = Tourney {
            id,
            creator: creator.as_ref().map(|(p, _)| p.0),
            creator_name: creator.map(|(_, n)| n).unwrap_or_default(),
            scheduled: false,
            settings,
            code,
            created_ms: self.unix_ms,
            starts_ms,
            ends_ms,
            stage: TournamentStage::Upcoming,
            names: BTreeMap::new(),
            play,
            games: Vec::new(),
            results: 0,
            node: self.node_name().map(str::to_string),
            last_pair_ms: 0,
        };
        self.index_tourney(t);
        self.save_tourney(id, Vec::new());
        Ok(id)
    }

    /// [`ludus_protocol::ClientMessage::JoinTournament`], wrong codes counted per address as
    /// wrong room codes are.
    pub(super) fn join_tournament(
        &mut self,
        conn: ConnId,
        pid: PlayerId,
        which: TournamentRef,
    ) -> Result<(), Refusal> {
        let code = match which {
            TournamentRef::Id(tid) => return self.join_tourney(pid, tid.0, false),
            TournamentRef::Code(code) => code,
        };
        let origin = self.conns.get(&conn).and_then(|c| c.origin);
        if self.codes_blocked(origin) {
            return refuse(ErrorCode::TooManyAttempts, "too many wrong codes: try again in a few minutes");
        }
        let normalized: String = code.trim().to_uppercase();
        match self.tournaments.by_code.get(&normalized).copied() {
            Some(tid) => self.join_tourney(pid, tid, true),
            None => {
                self.wrong_code(origin);
                refuse(ErrorCode::UnknownTournament, "no tournament has that code")
            }
        }
    }

    fn join_tourney(&mut self, pid: PlayerId, tid: u64, by_code: bool) -> Result<(), Refusal> {
        let now_ms = self.unix_ms;
        let Some(t) = self.tournaments.by_id.get(&tid).filter(|t| by_code || t.visible_to(pid)) else {
            return refuse(ErrorCode::UnknownTournament, format!("no tournament {tid}"));
        };
        if t.stage == TournamentStage::Finished {
            return refuse(ErrorCode::TournamentClosed, "this tournament is over");
        }
        if !self.runs(t) {
            return refuse(ErrorCode::Busy, "this tournament is run by another node of the service");
        }
        if t.settings.rated && !self.is_claimed(pid) {
            return refuse(ErrorCode::NotClaimed, "this tournament is rated: claim your nickname first");
        }
        let member = t.is_member(pid);
        let full = t.player_count() >= t.settings.max_players as usize;
        let variant = t.settings.variant;
        let rating = self.claimed_rating(pid, variant).map_or(1500, |r| r.rating.round().max(0.0) as u32);
        let entrant = tour::Entrant { id: tour::PlayerId(pid.0), rating };
        let nickname = self.nickname_of(pid);
        let Some(t) = self.tournaments.by_id.get_mut(&tid) else {
            return refuse(ErrorCode::UnknownTournament, format!("no tournament {tid}"));
        };
        let already = || refuse(ErrorCode::AlreadyJoined, "you are already in this tournament");
        if !member && full {
            return refuse(ErrorCode::TournamentFull, "this tournament is full");
        }
        let stage = t.stage;
        match &mut t.play {
            Play::Arena(a) => {
                if member {
                    // A paused player comes back.
                    a.resume(entrant.id, now_ms).or_else(|e| match e {
                        tour::TournamentError::Finished => {
                            refuse(ErrorCode::TournamentClosed, "this arena is over")
                        }
                        _ => already(),
                    })?;
                } else {
                    a.join(entrant, now_ms)
                        .map_err(|_| Refusal::new(ErrorCode::TournamentClosed, "this arena is over"))?;
                }
            }
            Play::Swiss(s) => {
                if member {
                    return already();
                }
                s.join(entrant).map_err(|e| match e {
                    tour::TournamentError::AlreadyJoined(_) => {
                        Refusal::new(ErrorCode::AlreadyJoined, "you are already in this tournament")
                    }
                    _ => Refusal::new(ErrorCode::TournamentClosed, "this tournament takes nobody more"),
                })?;
            }
            Play::RoundRobin { entrants, .. } => {
                if member {
                    return already();
                }
                if stage != TournamentStage::Upcoming {
                    return refuse(ErrorCode::TournamentClosed, "a round robin under way takes nobody more");
                }
                entrants.push(entrant);
            }
        }
        t.names.insert(pid.0, nickname);
        self.save_tourney(tid, Vec::new());
        self.tournaments.viewing.insert(pid, tid);
        if matches!(stage, TournamentStage::Running { .. })
            && matches!(self.tournaments.by_id.get(&tid).map(|t| &t.play), Some(Play::Arena(_)))
        {
            self.arena_pair(tid);
        }
        self.push_tourney(tid);
        Ok(())
    }

    /// [`ludus_protocol::ClientMessage::WithdrawTournament`].
    pub(super) fn withdraw_tournament(&mut self, pid: PlayerId, tid: TournamentId) -> Result<(), Refusal> {
        let tid = tid.0;
        let id = tour::PlayerId(pid.0);
        let Some(t) = self.tournaments.by_id.get_mut(&tid).filter(|t| t.is_member(pid)) else {
            return refuse(ErrorCode::NotInTournament, "you are not playing in this tournament");
        };
        if t.stage == TournamentStage::Finished {
            return refuse(ErrorCode::TournamentClosed, "this tournament is over");
        }
        let not_in = |_| Refusal::new(ErrorCode::NotInTournament, "you have already left this tournament");
        let mut forfeits: Vec<tour::Forfeit> = Vec::new();
        let upcoming = t.stage == TournamentStage::Upcoming;
        match &mut t.play {
            Play::Arena(a) => a.pause(id).map_err(not_in)?,
            Play::Swiss(s) => forfeits.extend(s.withdraw(id).map_err(not_in)?),
            Play::RoundRobin { entrants, table, withdrawn } => {
                if upcoming {
                    entrants.retain(|e| e.id != id);
                    t.names.remove(&pid.0);
                } else {
                    if withdrawn.contains(&pid.0) {
                        return refuse(ErrorCode::NotInTournament, "you have already left this tournament");
                    }
                    if let Some(table) = table {
                        forfeits.extend(table.withdraw(id).map_err(not_in)?);
                    }
                    withdrawn.push(pid.0);
                }
            }
        }
        // Forfeits: stored as results; a game under way ends as a loss for the one who left.
        let mut results = Vec::new();
        let mut endings = Vec::new();
        for f in &forfeits {
            results.push(StoredResult::Round(tour::RoundResult::Game {
                round: f.round,
                pairing: f.pairing,
                result: f.result,
            }));
            if let Some(g) = t.games.iter_mut().find(|g| {
                g.result.is_none()
                    && g.round == f.round
                    && g.first == f.pairing.first.0
                    && g.second == f.pairing.second.0
            }) {
                g.result = Some(f.result);
                endings.push((GameId(g.game), f.result, g.room.clone()));
            }
        }
        self.save_tourney(tid, results);
        for (gid, result, room) in endings {
            self.tournaments.by_game.remove(&gid);
            let winner = if result == tour::GameResult::FirstWins { Side::First } else { Side::Second };
            self.finish(gid, Outcome::win(winner, Reason::Resignation));
            if !room.is_empty() {
                self.close_room(&room);
            }
        }
        self.advance_rounds(tid);
        self.send_tourney(tid, pid);
        self.push_tourney(tid);
        Ok(())
    }

    /// [`ludus_protocol::ClientMessage::Berserk`].
    pub(super) fn berserk(&mut self, pid: PlayerId, gid: GameId) -> Result<(), Refusal> {
        let no = |why: &str| refuse(ErrorCode::BadTournament, why.to_string());
        let Some(g) = self.games.get(&gid) else {
            return refuse(ErrorCode::UnknownGame, format!("no live game {}", gid.0));
        };
        let Some(i) = g.players.iter().position(|&p| p == pid) else {
            return refuse(ErrorCode::NotAPlayer, format!("you do not play game {}", gid.0));
        };
        // Before one's own first move.
        if g.game.ply() > i || g.game.is_over() {
            return no("berserk only before your first move");
        }
        let Some(&tid) = self.tournaments.by_game.get(&gid) else {
            return no("not a tournament game");
        };
        let Some(t) = self.tournaments.by_id.get_mut(&tid) else {
            return no("not a tournament game");
        };
        let Some(arena_game) = t.games.iter().find(|g| g.game == gid.0).and_then(|g| g.arena) else {
            return no("berserk is for arena games");
        };
        let Play::Arena(a) = &mut t.play else {
            return no("berserk is for arena games");
        };
        let game_id = tour::GameId(arena_game);
        let done = a.game(game_id).is_some_and(|g| if i == 0 { g.berserk_first } else { g.berserk_second });
        if done {
            return no("you have already berserked");
        }
        a.berserk(game_id, tour::PlayerId(pid.0))
            .map_err(|e| Refusal::new(ErrorCode::BadTournament, e.to_string()))?;
        if let Some(g) = self.games.get_mut(&gid) {
            g.remaining_ms[i] /= 2;
        }
        self.save_tourney(tid, Vec::new());
        for p in self.audience(gid) {
            self.send_view(gid, p);
        }
        Ok(())
    }

    /// A game ended (`game`'s `finish`): if it is a tournament's, its result counts, and the
    /// tournament pairs on.
    pub(super) fn tournament_game_over(&mut self, gid: GameId, outcome: Outcome) {
        let Some(tid) = self.tournaments.by_game.remove(&gid) else {
            return;
        };
        let now_ms = self.unix_ms;
        let result = game_result(outcome);
        let Some(t) = self.tournaments.by_id.get_mut(&tid) else {
            return;
        };
        let Some(g) = t.games.iter_mut().find(|g| g.game == gid.0 && g.result.is_none()) else {
            return;
        };
        g.result = Some(result);
        let g = g.clone();
        let pairing = tour::Pairing { first: tour::PlayerId(g.first), second: tour::PlayerId(g.second) };
        let stored = match &mut t.play {
            Play::Arena(a) => {
                let id = tour::GameId(g.arena.unwrap_or_default());
                let berserk = a.game(id).map(|x| (x.berserk_first, x.berserk_second));
                match a.record(id, result, now_ms) {
                    Ok(_) => berserk.map(|(berserk_first, berserk_second)| {
                        StoredResult::Arena(tour::ArenaResult {
                            pairing,
                            result,
                            berserk_first,
                            berserk_second,
                        })
                    }),
                    Err(e) => {
                        tracing::warn!(tournament = tid, game = gid.0, "arena result refused: {e}");
                        None
                    }
                }
            }
            Play::Swiss(s) => match s.record(g.round, pairing.first, pairing.second, result) {
                Ok(()) => {
                    Some(StoredResult::Round(tour::RoundResult::Game { round: g.round, pairing, result }))
                }
                Err(e) => {
                    tracing::info!(tournament = tid, game = gid.0, "Swiss result not counted: {e}");
                    None
                }
            },
            Play::RoundRobin { table: Some(table), .. } => {
                match table.record(g.round, pairing.first, pairing.second, result) {
                    Ok(()) => {
                        Some(StoredResult::Round(tour::RoundResult::Game { round: g.round, pairing, result }))
                    }
                    Err(e) => {
                        tracing::info!(tournament = tid, game = gid.0, "round-robin result not counted: {e}");
                        None
                    }
                }
            }
            Play::RoundRobin { .. } => None,
        };
        self.save_tourney(tid, stored.into_iter().collect());
        // No rematch in a tournament's room.
        if !g.room.is_empty() {
            self.close_room(&g.room);
        }
        let arena = matches!(self.tournaments.by_id.get(&tid).map(|t| &t.play), Some(Play::Arena(_)));
        if arena {
            self.arena_pair(tid);
            self.arena_end_if_over(tid);
        } else {
            self.advance_rounds(tid);
        }
        self.push_tourney(tid);
    }

    /// The timers: tournaments start at their time, arenas pair and end, the schedule announces.
    pub(super) fn tournament_timers(&mut self) {
        let now_ms = self.unix_ms;
        if now_ms < self.tournaments.last_tick_ms + TICK_MS && self.tournaments.last_tick_ms != 0 {
            return;
        }
        self.tournaments.last_tick_ms = now_ms;
        self.schedule_timers();
        let due: Vec<u64> = self
            .tournaments
            .by_id
            .values()
            .filter(|t| t.stage == TournamentStage::Upcoming && t.starts_ms <= now_ms)
            .filter(|t| self.runs(t))
            .map(|t| t.id)
            .collect();
        for tid in due {
            self.start_tourney(tid);
        }
        let arenas: Vec<u64> = self
            .tournaments
            .by_id
            .values()
            .filter(|t| {
                matches!(t.stage, TournamentStage::Running { .. }) && matches!(t.play, Play::Arena(_))
            })
            .filter(|t| {
                now_ms >= t.last_pair_ms + ARENA_PAIR_INTERVAL_MS || t.ends_ms.is_some_and(|e| now_ms >= e)
            })
            .filter(|t| self.runs(t))
            .map(|t| t.id)
            .collect();
        for tid in arenas {
            self.arena_pair(tid);
            self.arena_end_if_over(tid);
        }
    }

    /// Creates the scheduled tournaments whose announcement is due.
    fn schedule_timers(&mut self) {
        let now_ms = self.unix_ms;
        let schedule = self.tournaments.schedule.clone();
        for entry in schedule {
            let start = entry.next_start(now_ms);
            if start > now_ms + u64::from(entry.announce_minutes) * MINUTE_MS {
                continue;
            }
            let exists = self
                .tournaments
                .by_id
                .values()
                .any(|t| t.scheduled && t.starts_ms == start && t.settings.name == entry.name);
            if exists {
                continue;
            }
            let Ok(settings) = entry.settings() else { continue };
            match self.open_tourney(settings, start, None) {
                Ok(tid) => {
                    if let Some(t) = self.tournaments.by_id.get_mut(&tid) {
                        t.scheduled = true;
                    }
                    self.save_tourney(tid, Vec::new());
                    tracing::info!(tournament = tid, "scheduled tournament {} announced", entry.name);
                }
                Err(e) => tracing::warn!("scheduled tournament {}: {}", entry.name, e.message),
            }
        }
        self.forget_old_tournaments();
    }

    /// Keeps the last [`FINISHED_KEPT`] finished tournaments in memory, and the creation logs
    /// of the last day.
    fn forget_old_tournaments(&mut self) {
        let now = self.now;
        let recent = |log: &mut VecDeque<Instant>| {
            log.retain(|&t| now.saturating_duration_since(t) < CREATION_WINDOW);
            !log.is_empty()
        };
        self.tournaments.created_by_player.retain(|_, log| recent(log));
        self.tournaments.created_by_address.retain(|_, log| recent(log));
        let finished: Vec<u64> = self
            .tournaments
            .by_id
            .values()
            .filter(|t| t.stage == TournamentStage::Finished)
            .map(|t| t.id)
            .collect();
        if finished.len() > FINISHED_KEPT {
            for tid in &finished[..finished.len() - FINISHED_KEPT] {
                self.tournaments.by_id.remove(tid);
                self.tournaments.viewing.retain(|_, t| t != tid);
            }
        }
    }

    /// Whether this node runs `t` (with several nodes, the one that made it does).
    fn runs(&self, t: &Tourney) -> bool {
        t.node.is_none() || t.node.as_deref() == self.node_name()
    }

    fn start_tourney(&mut self, tid: u64) {
        let Some(t) = self.tournaments.by_id.get_mut(&tid) else {
            return;
        };
        match &mut t.play {
            Play::Arena(_) => {
                t.stage = TournamentStage::Running { round: 0 };
                self.save_tourney(tid, Vec::new());
                self.arena_pair(tid);
            }
            Play::Swiss(s) => {
                if s.players().iter().filter(|p| !p.withdrawn).count() < 2 {
                    self.end_tourney(tid);
                    return;
                }
                t.stage = TournamentStage::Running { round: 0 };
                self.advance_rounds(tid);
            }
            Play::RoundRobin { entrants, table, .. } => match tour::RoundRobin::new(entrants.clone()) {
                Ok(rr) => {
                    let byes: Vec<StoredResult> = rr
                        .results()
                        .into_iter()
                        .filter(|r| matches!(r, tour::RoundResult::Bye { .. }))
                        .map(StoredResult::Round)
                        .collect();
                    *table = Some(rr);
                    t.stage = TournamentStage::Running { round: 0 };
                    self.save_tourney(tid, byes);
                    self.advance_rounds(tid);
                }
                Err(_) => self.end_tourney(tid),
            },
        }
        self.push_tourney(tid);
    }

    /// A Swiss or round robin: once every game of the current round has ended, the next round
    /// is paired and started, or the tournament ends.
    fn advance_rounds(&mut self, tid: u64) {
        loop {
            let Some(t) = self.tournaments.by_id.get_mut(&tid) else {
                return;
            };
            let TournamentStage::Running { round } = t.stage else {
                return;
            };
            let (complete, last) = match &t.play {
                Play::Swiss(s) => (s.round(round).is_none_or(tour::Round::is_complete), s.rounds()),
                Play::RoundRobin { table: Some(rr), .. } => {
                    (rr.round(round).is_none_or(tour::Round::is_complete), rr.rounds().len() as u32)
                }
                _ => return,
            };
            if !complete {
                return;
            }
            if round >= last {
                self.end_tourney(tid);
                return;
            }
            let next = round + 1;
            let mut stored = Vec::new();
            let paired: Option<tour::Round> = match &mut t.play {
                Play::Swiss(s) => {
                    if s.players().iter().filter(|p| !p.withdrawn).count() < 2 {
                        None
                    } else {
                        s.pair_round(next).ok().cloned()
                    }
                }
                Play::RoundRobin { table: Some(rr), .. } => rr.round(next).cloned(),
                _ => None,
            };
            let Some(r) = paired else {
                self.end_tourney(tid);
                return;
            };
            if let (Play::Swiss(_), Some(player)) = (&t.play, r.bye) {
                stored.push(StoredResult::Round(tour::RoundResult::Bye { round: next, player }));
            }
            t.stage = TournamentStage::Running { round: next };
            self.save_tourney(tid, stored);
            for b in r.boards.iter().filter(|b| b.result.is_none()) {
                self.start_board(tid, next, b.pairing, None);
            }
            self.push_tourney(tid);
            // A round whose every board was decided without a game goes on at once.
        }
    }

    /// Pauses an arena's free players who cannot play now, then pairs the others.
    fn arena_pair(&mut self, tid: u64) {
        let now_ms = self.unix_ms;
        let Some(t) = self.tournaments.by_id.get(&tid) else {
            return;
        };
        let Play::Arena(a) = &t.play else {
            return;
        };
        if !matches!(t.stage, TournamentStage::Running { .. }) || a.is_over(now_ms) {
            return;
        }
        let free: Vec<u64> = a.free_players().iter().map(|f| f.id.0).collect();
        let away: Vec<u64> = free.into_iter().filter(|&p| !self.can_sit(PlayerId(p))).collect();
        let Some(t) = self.tournaments.by_id.get_mut(&tid) else {
            return;
        };
        t.last_pair_ms = now_ms;
        let Play::Arena(a) = &mut t.play else {
            return;
        };
        for p in &away {
            let _ = a.pause(tour::PlayerId(*p));
        }
        let games = a.pair(now_ms);
        if games.is_empty() && away.is_empty() {
            return;
        }
        self.save_tourney(tid, Vec::new());
        for g in games {
            self.start_board(tid, 0, g.pairing, Some(g.id.0));
        }
        self.push_tourney(tid);
    }

    /// Whether `pid` can be seated in a real-time game now: connected, and not in another one.
    fn can_sit(&self, pid: PlayerId) -> bool {
        let Some(p) = self.players.get(&pid) else {
            return false;
        };
        p.conn.is_some() && p.room.as_deref().is_none_or(|code| self.live_game_of_room(code).is_none())
    }

    /// An arena past its end whose last game has ended is over.
    fn arena_end_if_over(&mut self, tid: u64) {
        let now_ms = self.unix_ms;
        let over = self.tournaments.by_id.get(&tid).is_some_and(|t| {
            matches!(t.stage, TournamentStage::Running { .. })
                && t.ends_ms.is_some_and(|e| now_ms >= e)
                && t.games.iter().all(|g| g.result.is_some())
        });
        if over {
            self.end_tourney(tid);
        }
    }

    /// Starts one board's game, or forfeits it for a player who cannot be seated.
    fn start_board(&mut self, tid: u64, round: u32, pairing: tour::Pairing, arena: Option<u64>) {
        let Some(t) = self.tournaments.by_id.get(&tid) else {
            return;
        };
        let (variant, pace, rated) = (t.settings.variant, t.settings.pace, t.settings.rated);
        let players = [PlayerId(pairing.first.0), PlayerId(pairing.second.0)];
        let rated = rated && players.iter().all(|&p| self.is_claimed(p));
        let started: Result<(GameId, String), Vec<usize>> = match pace {
            TournamentPace::RealTime(clock) => {
                let absent: Vec<usize> = (0..2).filter(|&i| !self.seatable(players[i])).collect();
                if absent.is_empty() {
                    self.start_room_game(players, variant, clock, rated)
                } else {
                    Err(absent)
                }
            }
            TournamentPace::TurnBased { days } => {
                let full: Vec<usize> =
                    (0..2).filter(|&i| self.check_turn_room(players[i], "they").is_err()).collect();
                if full.is_empty() {
                    self.start_turn_game(variant, players, days, rated)
                        .map(|g| (g, String::new()))
                        .map_err(|_| vec![0, 1])
                } else {
                    Err(full)
                }
            }
        };
        match started {
            Ok((gid, room)) => {
                if let Some(t) = self.tournaments.by_id.get_mut(&tid) {
                    t.games.push(TourGame {
                        game: gid.0,
                        round,
                        first: pairing.first.0,
                        second: pairing.second.0,
                        arena,
                        room,
                        result: None,
                    });
                }
                self.tournaments.by_game.insert(gid, tid);
                self.save_tourney(tid, Vec::new());
                let names: Vec<String> = players
                    .iter()
                    .map(|p| self.tournaments.by_id.get(&tid).map(|t| t.name_of(p.0)).unwrap_or_default())
                    .collect();
                for (i, side) in [(0, Side::First), (1, Side::Second)] {
                    let opponent = names[1 - i].clone();
                    self.send_player(
                        players[i],
                        &ServerMessage::TournamentPaired {
                            tournament: TournamentId(tid),
                            round,
                            game: gid,
                            side,
                            opponent,
                        },
                    );
                    self.send_view(gid, players[i]);
                }
            }
            Err(absent) => {
                // A player who cannot be seated loses the board (both: a draw).
                let result = match absent.as_slice() {
                    [0] => tour::GameResult::SecondWins,
                    [1] => tour::GameResult::FirstWins,
                    _ => tour::GameResult::Draw,
                };
                self.forfeit_board(tid, round, pairing, arena, result);
            }
        }
    }

    /// A board decided without a game.
    fn forfeit_board(
        &mut self,
        tid: u64,
        round: u32,
        pairing: tour::Pairing,
        arena: Option<u64>,
        result: tour::GameResult,
    ) {
        let now_ms = self.unix_ms;
        let Some(t) = self.tournaments.by_id.get_mut(&tid) else {
            return;
        };
        let stored = match &mut t.play {
            Play::Arena(a) => {
                let id = tour::GameId(arena.unwrap_or_default());
                a.record(id, result, now_ms).ok().map(|_| {
                    StoredResult::Arena(tour::ArenaResult {
                        pairing,
                        result,
                        berserk_first: false,
                        berserk_second: false,
                    })
                })
            }
            Play::Swiss(s) => s
                .record(round, pairing.first, pairing.second, result)
                .ok()
                .map(|_| StoredResult::Round(tour::RoundResult::Game { round, pairing, result })),
            Play::RoundRobin { table: Some(rr), .. } => rr
                .record(round, pairing.first, pairing.second, result)
                .ok()
                .map(|_| StoredResult::Round(tour::RoundResult::Game { round, pairing, result })),
            Play::RoundRobin { .. } => None,
        };
        self.save_tourney(tid, stored.into_iter().collect());
    }

    /// Whether `pid` can take a seat in a new real-time game: in memory and not seated in a
    /// game under way (offline players are seated: their clock runs).
    fn seatable(&self, pid: PlayerId) -> bool {
        self.players
            .get(&pid)
            .is_some_and(|p| p.room.as_deref().is_none_or(|code| self.live_game_of_room(code).is_none()))
    }

    /// A room of two and its real-time game, `players[0]` with the first move.
    fn start_room_game(
        &mut self,
        players: [PlayerId; 2],
        variant: Variant,
        clock: ClockSpec,
        rated: bool,
    ) -> Result<(GameId, String), Vec<usize>> {
        for p in players {
            if self.make_free(p).is_err() {
                return Err(vec![players.iter().position(|&q| q == p).unwrap_or(0)]);
            }
            self.unwatch(p);
        }
        let code = self.new_code();
        self.room_serial += 1;
        let mut room =
            Room::new(code.clone(), variant, Some(clock), true, true, players.to_vec(), self.room_serial);
        room.rated = rated;
        self.rooms.insert(code.clone(), room);
        for p in players {
            if let Some(p) = self.players.get_mut(&p) {
                p.room = Some(code.clone());
            }
        }
        if let Err(e) = self.start_game(&code, true) {
            tracing::warn!("a tournament game could not start: {}", e.message);
            self.close_room(&code);
            return Err(vec![0, 1]);
        }
        match self.rooms.get(&code).and_then(|r| r.game) {
            Some(gid) => Ok((gid, code)),
            None => Err(vec![0, 1]),
        }
    }

    /// The end: the podium to the players and the viewers.
    fn end_tourney(&mut self, tid: u64) {
        let Some(t) = self.tournaments.by_id.get_mut(&tid) else {
            return;
        };
        if t.stage == TournamentStage::Finished {
            return;
        }
        t.stage = TournamentStage::Finished;
        if let Some(code) = &t.code {
            self.tournaments.by_code.remove(code);
        }
        let standings = t.standings();
        let podium: Vec<TournamentStanding> = standings.iter().filter(|s| s.rank <= 3).cloned().collect();
        let name = t.settings.name.clone();
        let mut audience: HashSet<PlayerId> = standings.iter().map(|s| s.player).collect();
        audience.extend(self.tournaments.viewing.iter().filter(|&(_, &v)| v == tid).map(|(&p, _)| p));
        self.save_tourney(tid, Vec::new());
        let message = ServerMessage::TournamentEnded { tournament: TournamentId(tid), name, podium };
        let mut audience: Vec<PlayerId> = audience.into_iter().collect();
        audience.sort_unstable();
        self.send_players(audience, &message);
        tracing::info!(tournament = tid, "tournament over");
    }
}
