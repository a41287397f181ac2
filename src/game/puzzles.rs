//! The puzzle trainer without drawing: the puzzles built into the game (`assets/puzzles/*.json`,
//! made and proven by `ludus_ai::puzzle`), the checking of the player's moves against a
//! puzzle's solution and its alternatives ([`Trainer`]), the player's puzzle rating (Glicko-2),
//! streak and recent tries, kept between runs ([`PuzzleProfile`], `puzzles.json`), and the
//! choice of the next puzzle near the rating ([`choose`]).

use crate::app::{AppSet, Screen};
use crate::game::Notices;
use crate::game::lessons::LessonRun;
use crate::game::selection::{Selected, Selection};
use crate::game::session::{Level, Mode, Seats, Session};
use crate::game::settings::Settings;
use crate::i18n::{Id, Lang, id};
use crate::platform::storage::Document;
use bevy::prelude::*;
use ludus_ai::puzzle::from_game::GamePuzzle;
use ludus_ai::puzzle::{Puzzle, Theme, from_json};
use ludus_rules::{AnyGame, Variant, splitmix};
use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use std::collections::VecDeque;
use std::sync::OnceLock;

/// The puzzle sets built into the game: `(name, text)`.
pub const FILES: [(&str, &str); 3] = [
    ("latrunculi.json", include_str!("../../assets/puzzles/latrunculi.json")),
    ("latrunculi-quick.json", include_str!("../../assets/puzzles/latrunculi-quick.json")),
    ("alquerque.json", include_str!("../../assets/puzzles/alquerque.json")),
];

/// The puzzles that practise what a lesson teaches, as the puzzle screen's filters (a game,
/// a theme): the sandwich's lessons lead to sandwich puzzles, trapping the king to king hunts,
/// Alquerque's chain to chains, and so on. `None` for a lesson with nothing to practise (how the
/// pieces move).
pub fn practice(lesson_id: &str) -> Option<(Option<Variant>, Option<Theme>)> {
    let alquerque = Some(Variant::Alquerque);
    Some(match lesson_id {
        "latrunculi-2" | "latrunculi-3" | "latrunculi-4" | "latrunculi-5" => (None, Some(Theme::Sandwich)),
        "latrunculi-6" | "latrunculi-7" => (None, Some(Theme::KingHunt)),
        "latrunculi-8" => (None, Some(Theme::Endgame)),
        "alquerque-2" | "alquerque-3" | "alquerque-5" => (alquerque, None),
        "alquerque-4" => (alquerque, Some(Theme::Chain)),
        "alquerque-6" => (alquerque, Some(Theme::Endgame)),
        "alquerque-7" => (alquerque, Some(Theme::Sacrifice)),
        _ => return None,
    })
}

/// The lesson that teaches what a puzzle practises (the other way of [`practice`]): its course
/// and index in [`crate::game::lessons::courses`], from the puzzle's first theme that a lesson
/// of its game teaches.
pub fn lesson_for(puzzle: &Puzzle) -> Option<(usize, usize)> {
    let alquerque = puzzle.game == Variant::Alquerque;
    let id = puzzle.themes.iter().find_map(|theme| match (theme, alquerque) {
        (Theme::Sandwich, false) => Some("latrunculi-2"),
        (Theme::KingHunt, false) => Some("latrunculi-6"),
        (Theme::Endgame, false) => Some("latrunculi-8"),
        (Theme::Chain, true) => Some("alquerque-4"),
        (Theme::Sacrifice, true) => Some("alquerque-7"),
        (Theme::Endgame, true) => Some("alquerque-6"),
        _ => None,
    })?;
    let courses = crate::game::lessons::courses().ok()?;
    courses
        .iter()
        .enumerate()
        .find_map(|(c, course)| course.lessons.iter().position(|l| l.id == id).map(|i| (c, i)))
}

/// Reads every set given as `(name, text)`; an error names the file.
pub fn parse_all(files: &[(&str, &str)]) -> Result<Vec<Puzzle>, String> {
    let mut all = Vec::new();
    for (name, text) in files {
        let set = from_json(text).map_err(|e| format!("{name}: {e}"))?;
        all.extend(set);
    }
    if all.is_empty() {
        return Err("no puzzles".into());
    }
    Ok(all)
}

/// Every built-in puzzle, read the first time it is asked for; an error if a file is wrong.
pub fn puzzles() -> Result<&'static [Puzzle], &'static str> {
    static PUZZLES: OnceLock<Result<Vec<Puzzle>, String>> = OnceLock::new();
    PUZZLES.get_or_init(|| parse_all(&FILES)).as_deref().map_err(String::as_str)
}

/// The message id of a theme's name.
pub fn theme_key(theme: Theme) -> Id {
    match theme {
        Theme::Chain => id!("puzzles-theme-chain"),
        Theme::Sandwich => id!("puzzles-theme-sandwich"),
        Theme::KingHunt => id!("puzzles-theme-king-hunt"),
        Theme::Sacrifice => id!("puzzles-theme-sacrifice"),
        Theme::Defence => id!("puzzles-theme-defence"),
        Theme::Endgame => id!("puzzles-theme-endgame"),
    }
}

/// What a move given to the [`Trainer`] was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The solution's move: the opponent replies with this move, then the player goes on.
    Continue(String),
    /// The puzzle is solved (the line's last move, or an alternative: after one the stored line
    /// no longer applies).
    Solved,
    /// Not the best move: take it back and try again.
    Wrong,
}

/// Checks the player's moves one by one against a puzzle's solution line and its alternatives.
#[derive(Clone, Debug)]
pub struct Trainer {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The player step reached (0-based: the player's `step + 1`-th move is awaited).
    pub step: usize,
    /// Solved.
    pub solved: bool,
    /// A wrong move was played, the hint or the solution was asked for: the try counts as missed.
    pub missed: bool,
}

impl Trainer {
    /// A trainer at the puzzle's start.
    pub fn new(puzzle: Puzzle) -> Trainer {
        Trainer { puzzle, step: 0, solved: false, missed: false }
    }

    /// Judges the player's move `mv` (notation) at the current step.
    pub fn play(&mut self, mv: &str) -> Verdict {
        if self.solved {
            return Verdict::Solved;
        }
        if !self.puzzle.accepts(self.step, mv) {
            self.missed = true;
            return Verdict::Wrong;
        }
        let main = self.puzzle.line.get(2 * self.step).is_some_and(|m| m == mv);
        match self.puzzle.line.get(2 * self.step + 1) {
            Some(reply) if main => {
                self.step += 1;
                Verdict::Continue(reply.clone())
            }
            _ => {
                self.solved = true;
                Verdict::Solved
            }
        }
    }

    /// The solution's move at the current step (the hint shows its piece).
    pub fn expected(&self) -> Option<&str> {
        self.puzzle.line.get(2 * self.step).map(String::as_str)
    }

    /// The moves already played on the solution's line (player moves and replies).
    pub fn played(&self) -> &[String] {
        &self.puzzle.line[..(2 * self.step).min(self.puzzle.line.len())]
    }
}

/// One try of a puzzle, as the history keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Try {
    /// The puzzle's id.
    pub id: String,
    /// Solved without a miss.
    pub solved: bool,
    /// The rating after it.
    pub rating: f64,
}

/// How many tries the history keeps.
pub const HISTORY: usize = 20;

/// The puzzle deviation used as the opponent's in the rating update (the puzzles' ratings are
/// fixed here: only the player's moves).
pub const PUZZLE_DEVIATION: f64 = 80.0;

/// The player's rating deviation is kept between these: a new player starts at the most, so
/// that the first tries find the level quickly without a first miss costing hundreds of
/// points; lichess keeps a player's puzzle deviation within bounds too (45 at the least) and
/// bounds what one puzzle may change.
pub const DEVIATION_BOUNDS: (f64, f64) = (45.0, 200.0);

/// The most one puzzle moves the rating, up or down.
pub const MAX_CHANGE: f64 = 120.0;

/// The player's puzzle rating, streak, recent tries and filters, kept between runs.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PuzzleProfile {
    /// Glicko-2 rating.
    pub rating: f64,
    /// Glicko-2 deviation.
    pub deviation: f64,
    /// Glicko-2 volatility.
    pub volatility: f64,
    /// Puzzles solved in a row.
    pub streak: u32,
    /// The longest streak.
    pub best_streak: u32,
    /// The last tries, oldest first (at most [`HISTORY`]).
    pub history: VecDeque<Try>,
    /// Only this game's puzzles (`None`: all three).
    pub game: Option<Variant>,
    /// Only puzzles with this theme (`None`: any).
    pub theme: Option<Theme>,
}

impl Default for PuzzleProfile {
    fn default() -> Self {
        let r = Glicko2Rating::new();
        PuzzleProfile {
            rating: r.rating,
            deviation: DEVIATION_BOUNDS.1,
            volatility: r.volatility,
            streak: 0,
            best_streak: 0,
            history: VecDeque::new(),
            game: None,
            theme: None,
        }
    }
}

const DOCUMENT: Document = Document { name: "puzzles.json", corrupt: id!("puzzles-corrupt") };

impl PuzzleProfile {
    /// Reads the profile (see [`Document::load`]): a bad document is set aside, with a notice.
    pub fn load(lang: Lang) -> (PuzzleProfile, Option<String>) {
        let (profile, notice) = DOCUMENT.load_json::<PuzzleProfile>(lang);
        (profile.map(PuzzleProfile::sane).unwrap_or_default(), notice)
    }

    /// Writes the profile.
    pub fn save(&self) {
        if let Err(e) = DOCUMENT.save_json(self) {
            warn!("the puzzle rating could not be saved: {e}");
        }
    }

    /// Numbers a hand-edited file could make absurd brought back to a usable rating.
    fn sane(mut self) -> PuzzleProfile {
        let d = PuzzleProfile::default();
        if !self.rating.is_finite() || !(0.0..=4000.0).contains(&self.rating) {
            self.rating = d.rating;
        }
        if !self.deviation.is_finite() || !(1.0..=350.0).contains(&self.deviation) {
            self.deviation = d.deviation;
        }
        if !self.volatility.is_finite() || !(0.0..=1.0).contains(&self.volatility) || self.volatility == 0.0 {
            self.volatility = d.volatility;
        }
        while self.history.len() > HISTORY {
            self.history.pop_front();
        }
        self
    }

    /// The rating shown (rounded).
    pub fn shown_rating(&self) -> i64 {
        self.rating.round() as i64
    }

    /// The rating after a try of `puzzle` (solved or not), without counting it: Glicko-2
    /// against the puzzle's rating, the deviation within [`DEVIATION_BOUNDS`], the change at most
    /// [`MAX_CHANGE`]. `None` if the numbers went wrong (the profile then stays as it is).
    pub fn after(&self, puzzle: &Puzzle, solved: bool) -> Option<Glicko2Rating> {
        let (least, most) = DEVIATION_BOUNDS;
        let deviation = self.deviation.clamp(least, most);
        let player = Glicko2Rating { rating: self.rating, deviation, volatility: self.volatility };
        let opponent =
            Glicko2Rating { rating: f64::from(puzzle.rating), deviation: PUZZLE_DEVIATION, volatility: 0.06 };
        let outcome = if solved { Outcomes::WIN } else { Outcomes::LOSS };
        let (new, _) = glicko2(&player, &opponent, &outcome, &Glicko2Config::new());
        (new.rating.is_finite() && new.deviation.is_finite() && new.volatility.is_finite()).then(|| {
            Glicko2Rating {
                rating: self.rating + (new.rating - self.rating).clamp(-MAX_CHANGE, MAX_CHANGE),
                deviation: new.deviation.clamp(least, most),
                volatility: new.volatility,
            }
        })
    }

    /// What a miss of `puzzle` would cost now, in rating points shown (0 or less).
    pub fn miss_cost(&self, puzzle: &Puzzle) -> i64 {
        self.after(puzzle, false).map_or(0, |r| r.rating.round() as i64 - self.shown_rating())
    }

    /// Counts a try of `puzzle`: solved (without a miss) or not. Updates the rating against the
    /// puzzle's ([`PuzzleProfile::after`]), the streak and the history.
    pub fn record(&mut self, puzzle: &Puzzle, solved: bool) {
        if let Some(new) = self.after(puzzle, solved) {
            self.rating = new.rating;
            self.deviation = new.deviation;
            self.volatility = new.volatility;
        }
        if solved {
            self.streak += 1;
            self.best_streak = self.best_streak.max(self.streak);
        } else {
            self.streak = 0;
        }
        self.history.push_back(Try { id: puzzle.id.clone(), solved, rating: self.rating });
        while self.history.len() > HISTORY {
            self.history.pop_front();
        }
    }

    /// The id of the last puzzle tried.
    pub fn last_id(&self) -> Option<&str> {
        self.history.back().map(|t| t.id.as_str())
    }
}

/// Whether `p` passes the filters.
pub fn matches(p: &Puzzle, game: Option<Variant>, theme: Option<Theme>) -> bool {
    game.is_none_or(|g| p.game == g) && theme.is_none_or(|t| p.themes.contains(&t))
}

/// How many of the nearest puzzles the choice is made among.
pub const NEAREST: usize = 8;

/// The next puzzle (an index into `puzzles`): among the [`NEAREST`] that pass the filters and
/// are not `last`, those whose rating is nearest `rating`, one picked by `seed` (the same seed
/// gives the same puzzle). `None` when no puzzle but `last` passes.
pub fn choose(
    puzzles: &[Puzzle],
    rating: f64,
    game: Option<Variant>,
    theme: Option<Theme>,
    last: Option<&str>,
    seed: u64,
) -> Option<usize> {
    let mut near: Vec<(u64, usize)> = puzzles
        .iter()
        .enumerate()
        .filter(|(_, p)| matches(p, game, theme) && last != Some(p.id.as_str()))
        .map(|(i, p)| (((f64::from(p.rating) - rating).abs() * 10.0) as u64, i))
        .collect();
    if near.is_empty() {
        return None;
    }
    near.sort_unstable();
    near.truncate(NEAREST);
    // The first output of a SplitMix64 generator seeded with `seed`.
    let pick = splitmix::mix(seed.wrapping_add(splitmix::GAMMA));
    Some(near[(pick % near.len() as u64) as usize].1)
}

/// The puzzles of a finished game being played (see `ludus_ai::puzzle::from_game`): the one on
/// the board came from the position before move `move_number`; `rest` come next, in the
/// game's order. Tries of them do not move the puzzle rating: they are not rated puzzles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FromGame {
    /// The number of the move to find, as the game counts its moves.
    pub move_number: usize,
    /// The game's puzzles still to come.
    pub rest: VecDeque<GamePuzzle>,
}

/// The puzzle on the board (with a lesson-like [`Session`] on its position).
#[derive(Resource, Clone, Debug)]
pub struct PuzzleRun {
    /// The puzzle's index in [`puzzles`] (a finished game's puzzle: none).
    pub index: Option<usize>,
    /// A finished game's puzzle, and those that follow it.
    pub from_game: Option<FromGame>,
    /// The checking of the player's moves.
    pub trainer: Trainer,
    /// Moves the board plays by itself, in order, each once the board is still (the
    /// opponent's replies, or the solution shown).
    pub queue: VecDeque<String>,
    /// How many of the session's moves are known (judged or played from the queue).
    pub known: usize,
    /// The last move was wrong: it is taken back once the board is still.
    pub take_back: bool,
    /// The last move was wrong (shown until the next move).
    pub wrong: bool,
    /// The solution is being shown.
    pub showing: bool,
    /// The hint was asked for.
    pub hint: bool,
    /// The try has been counted in the rating.
    pub counted: bool,
    /// The rating before the try was counted (to show the change).
    pub before: Option<f64>,
}

impl PuzzleRun {
    /// A run of puzzle `index`.
    pub fn new(index: usize, puzzle: Puzzle) -> PuzzleRun {
        PuzzleRun::with(Some(index), puzzle)
    }

    fn with(index: Option<usize>, puzzle: Puzzle) -> PuzzleRun {
        PuzzleRun {
            index,
            from_game: None,
            trainer: Trainer::new(puzzle),
            queue: VecDeque::new(),
            known: 0,
            take_back: false,
            wrong: false,
            showing: false,
            hint: false,
            counted: false,
            before: None,
        }
    }

    /// A run of the first of a finished game's puzzles (`None` if there is none); the others
    /// follow it.
    pub fn from_game(puzzles: impl IntoIterator<Item = GamePuzzle>) -> Option<PuzzleRun> {
        let mut rest: VecDeque<GamePuzzle> = puzzles.into_iter().collect();
        let first = rest.pop_front()?;
        let from_game = FromGame { move_number: first.move_number(), rest };
        Some(PuzzleRun { from_game: Some(from_game), ..PuzzleRun::with(None, first.puzzle) })
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.trainer.puzzle
    }

    /// Counts the try once in `profile` (and saves it): solved, or missed. A finished game's
    /// puzzle is not rated: the profile is left as it is.
    pub fn count(&mut self, profile: &mut PuzzleProfile, solved: bool) {
        if self.counted {
            return;
        }
        self.counted = true;
        if self.from_game.is_some() {
            return;
        }
        self.before = Some(profile.rating);
        profile.record(&self.trainer.puzzle, solved);
        profile.save();
    }
}

/// The session of puzzle `puzzle`: its position, the player's side human, the other side
/// seated as the computer so that the player's moves are taken one at a time (the computer
/// never gets to think: the puzzle's driver plays the replies first).
pub fn session_for(puzzle: &Puzzle) -> Option<Session> {
    let position = puzzle.position().ok()?;
    let person = position.side_to_move();
    let seats = Seats::versus_computer(person, Level::Easy);
    Some(Session { mode: Mode::Lesson, ..Session::from_game(AnyGame::from_position(position), seats) })
}

/// Starts puzzle `index` of [`puzzles`] on the board; false if there is none.
pub fn start(commands: &mut Commands, index: usize) -> bool {
    let Some(puzzle) = puzzles().ok().and_then(|all| all.get(index)) else {
        return false;
    };
    begin(commands, PuzzleRun::new(index, puzzle.clone()))
}

/// Starts the first of a finished game's puzzles on the board, the others to follow it; false
/// if there is none.
pub fn start_from_game(commands: &mut Commands, game_puzzles: impl IntoIterator<Item = GamePuzzle>) -> bool {
    PuzzleRun::from_game(game_puzzles).is_some_and(|run| begin(commands, run))
}

/// Puts `run`'s puzzle on the board.
fn begin(commands: &mut Commands, run: PuzzleRun) -> bool {
    let Some(session) = session_for(run.puzzle()) else {
        return false;
    };
    commands.remove_resource::<LessonRun>();
    commands.insert_resource(session);
    commands.insert_resource(run);
    true
}

/// What the player asks of the puzzles (the puzzle screens write them; [`act`] carries them
/// out).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleIntent {
    /// Only this game's and this theme's puzzles (`None`: any).
    Filter(Option<Variant>, Option<Theme>),
    /// Start puzzle `index` of [`puzzles`] on the board.
    Start(usize),
    /// The hint: the piece to move is selected (the try counts as missed, see
    /// [`PuzzleProfile::miss_cost`]).
    Hint,
    /// Play the solution on the board from the start, the board turned as for the player.
    ShowSolution,
    /// The next puzzle: the finished game's next one, or one near the rating.
    Next,
    /// The lesson that teaches what the puzzle practised.
    Lesson,
    /// Back to the puzzles' page.
    List,
    /// Back to the title.
    Leave,
}

/// The next puzzle for `profile` (near its rating, through its filters, never the last one).
pub fn next_index(profile: &PuzzleProfile, seed: u64) -> Option<usize> {
    let all = puzzles().ok()?;
    choose(all, profile.rating, profile.game, profile.theme, profile.last_id(), seed)
}

/// A seed for the choice: this run's, moved on by the tries.
pub fn choice_seed(profile: &PuzzleProfile, counter: u64) -> u64 {
    static RUN: OnceLock<u64> = OnceLock::new();
    RUN.get_or_init(crate::platform::entropy::run_seed) ^ (profile.history.len() as u64) ^ (counter << 32)
}

/// Nobody moves any more (the puzzle solved, or its solution shown); the board stays turned
/// as it was for the player.
pub fn freeze(session: &mut Session) {
    session.mode = Mode::LessonOver;
}

/// The run's hint: the piece to move selected on the board, the try counted as missed.
fn hint(session: &Session, run: &mut PuzzleRun, profile: &mut PuzzleProfile, selected: &mut Selected) {
    let mv = run.trainer.expected().and_then(|text| session.game.position().parse_move(text).ok());
    if let Some(mv) = mv {
        run.hint = true;
        run.trainer.missed = true;
        run.count(profile, false);
        selected.0 = Some(Selection { from: mv.from(), partial: Vec::new() });
    }
}

/// The solution played on the board from the puzzle's start, one move after another.
fn show_solution(session: &mut Session, run: &mut PuzzleRun, profile: &mut PuzzleProfile) {
    run.trainer.missed = true;
    run.count(profile, false);
    if let Some(mut shown) = session_for(run.puzzle()) {
        freeze(&mut shown);
        shown.revision = session.revision + 1;
        *session = shown;
        run.queue = run.puzzle().line.iter().cloned().collect();
        run.known = 0;
        run.take_back = false;
        run.wrong = false;
        run.showing = true;
    }
}

/// Carries out the player's intents on the puzzles.
#[allow(clippy::too_many_arguments)]
pub fn act(
    mut intents: MessageReader<PuzzleIntent>,
    mut session: Option<ResMut<Session>>,
    mut run: Option<ResMut<PuzzleRun>>,
    mut profile: ResMut<PuzzleProfile>,
    mut selected: ResMut<Selected>,
    mut commands: Commands,
    next: Option<ResMut<NextState<Screen>>>,
    mut counter: Local<u64>,
) {
    let Some(mut next) = next else {
        intents.clear();
        return;
    };
    for intent in intents.read().copied().collect::<Vec<_>>() {
        match (intent, session.as_deref_mut(), run.as_deref_mut()) {
            (PuzzleIntent::Filter(game, theme), ..) if (profile.game, profile.theme) != (game, theme) => {
                profile.game = game;
                profile.theme = theme;
                profile.save();
            }
            (PuzzleIntent::Start(index), ..) if start(&mut commands, index) => {
                selected.0 = None;
                next.set(Screen::Playing);
            }
            (PuzzleIntent::Hint, Some(session), Some(run)) => hint(session, run, &mut profile, &mut selected),
            (PuzzleIntent::ShowSolution, Some(session), Some(run)) => {
                selected.0 = None;
                show_solution(session, run, &mut profile);
            }
            (PuzzleIntent::Next, _, Some(run)) => {
                // The game's next puzzle, then the usual ones.
                let rest = run.from_game.as_ref().map(|g| g.rest.clone()).unwrap_or_default();
                *counter += 1;
                let started = if rest.is_empty() {
                    next_index(&profile, choice_seed(&profile, *counter))
                        .is_some_and(|i| start(&mut commands, i))
                } else {
                    start_from_game(&mut commands, rest)
                };
                if started {
                    selected.0 = None;
                }
            }
            (PuzzleIntent::Lesson, _, Some(run)) => {
                let lesson = lesson_for(run.puzzle());
                if lesson.is_some_and(|(c, i)| crate::game::lessons::start(&mut commands, c, i)) {
                    commands.remove_resource::<PuzzleRun>();
                    selected.0 = None;
                }
            }
            (PuzzleIntent::List, ..) => next.set(Screen::Puzzles),
            (PuzzleIntent::Leave, ..) => next.set(Screen::Title),
            _ => {}
        }
    }
}

fn startup(mut commands: Commands, settings: Res<Settings>, mut notices: ResMut<Notices>) {
    let (profile, notice) = PuzzleProfile::load(settings.lang);
    commands.insert_resource(profile);
    notices.0.extend(notice);
}

/// The puzzle profile, read at start, and the player's intents.
pub fn plugin(app: &mut App) {
    app.init_resource::<Notices>()
        .init_resource::<PuzzleProfile>()
        .init_resource::<Selected>()
        .add_message::<PuzzleIntent>()
        .add_systems(Startup, startup)
        .add_systems(Update, act.in_set(AppSet::Apply));
}
