//! "Learn to play": short lessons on the real board, one course per game, read from data files
//! (`assets/lessons/*.json`, built into the game so the browser has them too). Each lesson has a
//! position, a task the person solves with one move (checked with the rules), a hint, and texts
//! in both languages; the lessons completed are kept (`lessons.json`).

use crate::game::Notices;
use crate::game::session::Session;
use crate::game::settings::Settings;
use crate::i18n::Lang;
use crate::platform::storage::Document;
use bevy::prelude::*;
use ludus_rules::{AnyGame, AnyMove, AnyPosition, Square, Variant};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// The courses' files: `(name, text)`.
pub const FILES: [(&str, &str); 2] = [
    ("latrunculi.json", include_str!("../../assets/lessons/latrunculi.json")),
    ("alquerque.json", include_str!("../../assets/lessons/alquerque.json")),
];

/// A text in both languages.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Words {
    /// English.
    pub en: String,
    /// Tiếng Việt.
    pub vi: String,
}

impl Words {
    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Vi => &self.vi,
        }
    }
}

/// What the person's move must do, as written in a file.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum GoalData {
    /// A piece ends its move on this square.
    Reach(String),
    /// The move takes every piece on these squares.
    Capture(Vec<String>),
    /// The move takes at least this many pieces.
    CaptureCount(usize),
    /// The move wins the game.
    Win,
    /// Win the game, played to the end against the computer at Easy.
    BeatEasy,
}

/// What the person's move must do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A piece ends its move on this square.
    Reach(Square),
    /// The move takes every piece on these squares.
    Capture(Vec<Square>),
    /// The move takes at least this many pieces.
    CaptureCount(usize),
    /// The move wins the game.
    Win,
    /// Win the game, played to the end against the computer at Easy (the tests check that
    /// the solution wins by force within [`BEAT_EASY_PLIES`] plies).
    BeatEasy,
}

/// How many plies after its solution a lesson played against the computer must be won by force.
pub const BEAT_EASY_PLIES: u32 = 4;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LessonData {
    id: String,
    variant: String,
    position: String,
    title: Words,
    text: Words,
    task: Words,
    hint: Words,
    goal: GoalData,
    solution: String,
    #[serde(default)]
    wrong: Vec<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CourseData {
    title: Words,
    lessons: Vec<LessonData>,
}

/// One lesson, checked: its position is legal and its goal names squares of its board.
#[derive(Clone, Debug)]
pub struct Lesson {
    /// Its id, unique among all lessons (the progress keeps it).
    pub id: String,
    /// The position the person starts from.
    pub position: AnyPosition,
    /// The title.
    pub title: Words,
    /// What the lesson teaches.
    pub text: Words,
    /// What to do on the board.
    pub task: Words,
    /// The hint, also shown after a wrong move.
    pub hint: Words,
    /// What the move must do.
    pub goal: Goal,
    /// A move that solves it (the tests play it).
    pub solution: String,
    /// Moves that do not (the tests check that they fail: illegal, or legal but off the task).
    pub wrong: Vec<String>,
}

/// A game's lessons.
#[derive(Clone, Debug)]
pub struct Course {
    /// The game's name, as the course's title.
    pub title: Words,
    /// The lessons in order.
    pub lessons: Vec<Lesson>,
}

/// What is wrong in a course's file (the lessons are the game's own: the tests keep them right,
/// and this says where a mistake is, in English).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LessonError {
    #[error("not a course: {0}")]
    Json(String),
    #[error("no lessons")]
    NoLessons,
    #[error("lesson {id}: {problem}")]
    Lesson { id: String, problem: LessonProblem },
}

/// What is wrong in one lesson.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LessonProblem {
    #[error("{0}")]
    Game(ludus_rules::ParseError),
    #[error("bad position: {0}")]
    Position(ludus_rules::ParseError),
    #[error("no square '{0}'")]
    Square(String),
    #[error("capture names no square")]
    CaptureNothing,
    #[error("capture_count of 0")]
    CaptureNone,
    #[error("a text is empty in one language")]
    EmptyText,
}

/// Reads a course's file; an error says which lesson is wrong and how.
pub fn parse_course(text: &str) -> Result<Course, LessonError> {
    let data: CourseData = serde_json::from_str(text).map_err(|e| LessonError::Json(e.to_string()))?;
    let mut lessons = Vec::new();
    for l in data.lessons {
        let id = l.id.clone();
        let lesson = parse_lesson(l).map_err(|problem| LessonError::Lesson { id, problem })?;
        lessons.push(lesson);
    }
    if lessons.is_empty() {
        return Err(LessonError::NoLessons);
    }
    Ok(Course { title: data.title, lessons })
}

fn parse_lesson(l: LessonData) -> Result<Lesson, LessonProblem> {
    let variant = Variant::parse(&l.variant).map_err(LessonProblem::Game)?;
    let position = AnyPosition::parse(variant, &l.position).map_err(LessonProblem::Position)?;
    let square = |name: &str| {
        Square::parse(name, position.width(), position.height())
            .ok_or_else(|| LessonProblem::Square(name.into()))
    };
    let goal = match l.goal {
        GoalData::Reach(s) => Goal::Reach(square(&s)?),
        GoalData::Capture(list) if list.is_empty() => return Err(LessonProblem::CaptureNothing),
        GoalData::Capture(list) => Goal::Capture(list.iter().map(|s| square(s)).collect::<Result<_, _>>()?),
        GoalData::CaptureCount(0) => return Err(LessonProblem::CaptureNone),
        GoalData::CaptureCount(n) => Goal::CaptureCount(n),
        GoalData::Win => Goal::Win,
        GoalData::BeatEasy => Goal::BeatEasy,
    };
    for words in [&l.title, &l.text, &l.task, &l.hint] {
        if words.en.trim().is_empty() || words.vi.trim().is_empty() {
            return Err(LessonProblem::EmptyText);
        }
    }
    Ok(Lesson {
        id: l.id,
        position,
        title: l.title,
        text: l.text,
        task: l.task,
        hint: l.hint,
        goal,
        solution: l.solution,
        wrong: l.wrong,
    })
}

/// Every course, read once; an error if a file is wrong (the tests keep them right).
pub fn courses() -> Result<&'static [Course], &'static str> {
    static COURSES: OnceLock<Result<Vec<Course>, String>> = OnceLock::new();
    COURSES
        .get_or_init(|| {
            FILES.iter().map(|(name, text)| parse_course(text).map_err(|e| format!("{name}: {e}"))).collect()
        })
        .as_deref()
        .map_err(String::as_str)
}

/// The lesson with this id: `(course, index)`.
pub fn find(id: &str) -> Option<(usize, usize)> {
    let courses = courses().ok()?;
    courses
        .iter()
        .enumerate()
        .find_map(|(c, course)| course.lessons.iter().position(|l| l.id == id).map(|i| (c, i)))
}

impl Lesson {
    /// Whether `mv`, played from the lesson's position, does what the lesson asks. An illegal
    /// move never does.
    pub fn solves(&self, mv: &AnyMove) -> bool {
        let mut game = AnyGame::from_position(self.position);
        let mover = game.side_to_move();
        let Ok(outcome) = game.play(mv) else {
            return false;
        };
        match &self.goal {
            Goal::Reach(sq) => mv.to() == *sq,
            Goal::Capture(squares) => {
                let taken = mv.captured();
                squares.iter().all(|s| taken.contains(s))
            }
            Goal::CaptureCount(n) => mv.captured().len() >= *n,
            Goal::Win => outcome.is_some_and(|o| o.winner == Some(mover)),
            Goal::BeatEasy => wins_by_force(&game, mover, BEAT_EASY_PLIES),
        }
    }

    /// Whether the person plays on against the computer (else the lesson is one move).
    pub fn against_computer(&self) -> bool {
        self.goal == Goal::BeatEasy
    }

    /// Whether the move written `text` is legal here and solves the lesson.
    pub fn solves_str(&self, text: &str) -> bool {
        self.position.parse_move(text).is_ok_and(|mv| self.solves(&mv))
    }
}

/// Whether `side` wins `game` by force within `plies` plies, whatever the other side plays
/// (the rules alone decide: a small exhaustive search).
pub fn wins_by_force(game: &AnyGame, side: ludus_rules::Side, plies: u32) -> bool {
    if let Some(outcome) = game.outcome() {
        return outcome.winner == Some(side);
    }
    if plies == 0 {
        return false;
    }
    let mut wins = game.legal_moves().into_iter().map(|mv| {
        let mut next = game.clone();
        next.play(&mv).is_ok() && wins_by_force(&next, side, plies - 1)
    });
    if game.side_to_move() == side { wins.any(|w| w) } else { wins.all(|w| w) }
}

/// How the lesson on the board is going.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LessonState {
    /// Waiting for the person's move.
    Trying,
    /// The move did what was asked.
    Solved,
    /// The move did not: the hint shows, and "try again".
    Wrong,
}

/// The lesson being played (with a [`Session`] whose `lesson` is set).
#[derive(Resource, Clone, Debug)]
pub struct LessonRun {
    /// The course's index in [`courses`].
    pub course: usize,
    /// The lesson's index in its course.
    pub index: usize,
    /// How it is going.
    pub state: LessonState,
    /// The hint was asked for.
    pub hint: bool,
}

impl LessonRun {
    /// The lesson.
    pub fn lesson(&self) -> Option<&'static Lesson> {
        courses().ok()?.get(self.course)?.lessons.get(self.index)
    }
}

/// Lesson `index` of course `course`, ready to play: the session on its position and the run.
pub fn begin(course: usize, index: usize) -> Option<(Session, LessonRun)> {
    let lesson = courses().ok()?.get(course)?.lessons.get(index)?;
    let session = if lesson.against_computer() {
        Session::lesson_against(lesson.position, crate::game::session::Level::Easy)
    } else {
        Session::lesson(lesson.position)
    };
    Some((session, LessonRun { course, index, state: LessonState::Trying, hint: false }))
}

/// Starts lesson `index` of course `course`; false if there is no such lesson.
pub fn start(commands: &mut Commands, course: usize, index: usize) -> bool {
    let Some((session, run)) = begin(course, index) else {
        return false;
    };
    commands.insert_resource(session);
    commands.insert_resource(run);
    true
}

/// The lessons the person has completed, kept between runs.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LessonProgress {
    /// The ids of the lessons completed.
    pub done: BTreeSet<String>,
}

const DOCUMENT: Document = Document { name: "lessons.json", corrupt: crate::i18n::id!("lessons-corrupt") };

impl LessonProgress {
    /// Reads the progress (see [`Document::load`]).
    pub fn load(lang: Lang) -> (LessonProgress, Option<String>) {
        let (progress, notice) = DOCUMENT.load_json(lang);
        (progress.unwrap_or_default(), notice)
    }

    /// Writes the progress.
    pub fn save(&self) {
        if let Err(e) = DOCUMENT.save_json(self) {
            warn!("the lessons' progress could not be saved: {e}");
        }
    }
}

/// Judges the person's move in a lesson, and keeps a solved lesson.
fn judge(
    session: Option<Res<Session>>,
    run: Option<ResMut<LessonRun>>,
    mut progress: ResMut<LessonProgress>,
) {
    let (Some(session), Some(mut run)) = (session, run) else { return };
    if !session.is_lesson() || !session.is_changed() {
        return;
    }
    let Some(lesson) = run.lesson() else { return };
    let person = lesson.position.side_to_move();
    let state = match session.game.moves().first() {
        None => LessonState::Trying,
        // Played to the end: judged by the result.
        Some(_) if lesson.against_computer() => match session.game.outcome() {
            None => LessonState::Trying,
            Some(o) if o.winner == Some(person) => LessonState::Solved,
            Some(_) => LessonState::Wrong,
        },
        Some(mv) if lesson.solves(mv) => LessonState::Solved,
        Some(_) => LessonState::Wrong,
    };
    if run.state != state {
        run.state = state;
        if state == LessonState::Wrong {
            run.hint = true;
        }
        if state == LessonState::Solved && progress.done.insert(lesson.id.clone()) {
            progress.save();
        }
    }
}

fn startup(mut commands: Commands, settings: Res<Settings>, mut notices: ResMut<Notices>) {
    let (progress, notice) = LessonProgress::load(settings.lang);
    commands.insert_resource(progress);
    notices.0.extend(notice);
}

/// The progress, and the judge of lessons' moves.
pub fn plugin(app: &mut App) {
    app.init_resource::<Notices>()
        .init_resource::<LessonProgress>()
        .add_systems(Startup, startup)
        .add_systems(Update, judge.after(crate::app::AppSet::Apply).before(crate::app::AppSet::View));
}
