//! The puzzle trainer without drawing: the puzzles built into the game (`assets/puzzles/*.json`,
//! made and proven by `ludus_ai::puzzle`), the checking of the player's moves against a
//! puzzle's solution and its alternatives ([`Trainer`]), the player's puzzle rating (Glicko-2),
//! streak and recent tries, kept between runs ([`PuzzleProfile`], `puzzles.json`), and the
//! choice of the next puzzle near the rating ([`choose`]).

use crate::game::Notices;
use crate::game::settings::Settings;
use crate::i18n::{Id, Lang, id};
use crate::platform::storage::Document;
use bevy::prelude::*;
use ludus_ai::puzzle::from_game::GamePuzzle;
use ludus_ai::puzzle::{Puzzle, Theme, from_json};
use ludus_rules::{Variant, splitmix};
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
            deviation: r.deviation,
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

    /// Counts a try of `puzzle`: solved (without a miss) or not. Updates the rating against the
    /// puzzle's, the streak and the history.
    pub fn record(&mut self, puzzle: &Puzzle, solved: bool) {
        let player =
            Glicko2Rating { rating: self.rating, deviation: self.deviation, volatility: self.volatility };
        let opponent =
            Glicko2Rating { rating: f64::from(puzzle.rating), deviation: PUZZLE_DEVIATION, volatility: 0.06 };
        let outcome = if solved { Outcomes::WIN } else { Outcomes::LOSS };
        let (new, _) = glicko2(&player, &opponent, &outcome, &Glicko2Config::new());
        if new.rating.is_finite() && new.deviation.is_finite() && new.volatility.is_finite() {
            self.rating = new.rating;
            self.deviation = new.deviation.max(30.0);
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

fn startup(mut commands: Commands, settings: Res<Settings>, mut notices: ResMut<Notices>) {
    let (profile, notice) = PuzzleProfile::load(settings.lang);
    commands.insert_resource(profile);
    notices.0.extend(notice);
}

/// The puzzle profile, read at start.
pub fn plugin(app: &mut App) {
    app.init_resource::<Notices>().init_resource::<PuzzleProfile>().add_systems(Startup, startup);
}
