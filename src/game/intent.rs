//! What the player asks of the game, as the screens say it ([`GameIntent`]): starting, resuming
//! and leaving a game, the buttons around the board. Acted on here: the session's commands,
//! the confirmations of what cannot be taken back (resigning, a new game over one in progress:
//! a second tap within [`CONFIRM_WINDOW_S`]), and the unfinished game kept for the title screen
//! whenever the player leaves it.

use crate::app::navigation::NavIntent;
use crate::app::{AppSet, Screen};
use crate::game::Notices;
use crate::game::lessons::LessonRun;
use crate::game::puzzles::PuzzleProfile;
use crate::game::save::Resumable;
use crate::game::session::{GameCommand, HintRequest, Seats, Session};
use bevy::prelude::*;
use ludus_rules::{AnyMove, Variant};

/// How long a first tap on "resign" or "new game" waits for the second one, in seconds.
pub const CONFIRM_WINDOW_S: f64 = 4.0;

/// What the player asks of the game.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum GameIntent {
    /// A new game of `variant` with these seats (over an unfinished game kept for resuming:
    /// confirmed by a second tap).
    Start {
        /// Which game.
        variant: Variant,
        /// Who plays.
        seats: Seats,
    },
    /// Continue the unfinished game.
    Resume,
    /// Play a move (typed in notation).
    Play(AnyMove),
    /// Take back.
    Undo,
    /// Replay a taken-back move.
    Redo,
    /// Show a hint.
    Hint,
    /// Resign (confirmed by a second tap).
    Resign,
    /// Offer a draw.
    OfferDraw,
    /// Answer the open draw offer.
    AnswerDraw(bool),
    /// A new game with the same seats (confirmed by a second tap while the game goes on); online,
    /// a rematch once the game is over.
    NewGame,
    /// Leave the board for the title screen; an unfinished game is kept to resume.
    Leave,
    /// The first message for the player about their documents was read.
    DismissNotice,
    /// Play a lesson: the `index`th of course `course`.
    StartLesson {
        /// The course (one per game).
        course: usize,
        /// The lesson in it.
        index: usize,
    },
    /// Show the lesson's hint.
    LessonHint,
    /// Practise in puzzles what the lesson taught: the puzzle trainer with these filters.
    Practise(Option<Variant>, Option<ludus_ai::puzzle::Theme>),
}

/// What waits for a second tap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirm {
    /// Resigning.
    Resign,
    /// A new game over the one going on.
    NewGame,
    /// A new game over the unfinished one kept to resume (on the title screen).
    Replace,
}

/// The first tap of an act that asks for a second, and until when (seconds of real time).
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub struct Confirming(pub Option<(Confirm, f64)>);

impl Confirming {
    /// Whether `what` waits for its second tap at `now`.
    pub fn armed(&self, what: Confirm, now: f64) -> bool {
        self.0.is_some_and(|(w, until)| w == what && now < until)
    }

    /// A tap on `what` at `now`: true when it is the second (the act goes ahead), false when it
    /// is the first (the act now waits for the second).
    fn tap(&mut self, what: Confirm, now: f64) -> bool {
        if self.armed(what, now) {
            self.0 = None;
            true
        } else {
            self.0 = Some((what, now + CONFIRM_WINDOW_S));
            false
        }
    }
}

/// Whether the game on the board is one to keep when the player leaves it: a local game going on
/// with a move played (not online, not a lesson or a puzzle, not a finished game under review).
pub fn worth_keeping(session: &Session) -> bool {
    let elsewhere = session.seats.is_online() || session.is_review() || session.is_lesson();
    !(elsewhere || session.game.is_over()) && session.game.ply() > 0
}

/// Acts on the game's intents.
#[allow(clippy::too_many_arguments)]
fn game_intents(
    mut intents: MessageReader<GameIntent>,
    session: Option<Res<Session>>,
    mut resumable: ResMut<Resumable>,
    mut confirming: ResMut<Confirming>,
    time: Res<Time<Real>>,
    mut game: MessageWriter<GameCommand>,
    mut hint: MessageWriter<HintRequest>,
    mut nav: MessageWriter<NavIntent>,
    mut notices: ResMut<Notices>,
    (mut lesson, mut puzzles): (Option<ResMut<LessonRun>>, ResMut<PuzzleProfile>),
    mut commands: Commands,
) {
    let now = time.elapsed_secs_f64();
    for intent in intents.read() {
        match intent {
            GameIntent::Start { variant, seats } => {
                let replaces = matches!(*resumable, Resumable::Game(_));
                if replaces && !confirming.tap(Confirm::Replace, now) {
                    continue;
                }
                *resumable = Resumable::None;
                commands.insert_resource(Session::new(*variant, *seats));
                nav.write(NavIntent::Go(Screen::Playing));
            }
            GameIntent::Resume => {
                if let Resumable::Game(saved) = std::mem::take(&mut *resumable) {
                    commands.insert_resource(*saved);
                    nav.write(NavIntent::Go(Screen::Playing));
                }
            }
            GameIntent::Play(mv) => {
                game.write(GameCommand::Play(*mv));
            }
            GameIntent::Undo => {
                game.write(GameCommand::Undo);
            }
            GameIntent::Redo => {
                game.write(GameCommand::Redo);
            }
            GameIntent::Hint => {
                hint.write(HintRequest);
            }
            GameIntent::Resign => {
                if confirming.tap(Confirm::Resign, now) {
                    game.write(GameCommand::Resign);
                }
            }
            GameIntent::OfferDraw => {
                game.write(GameCommand::OfferDraw);
            }
            GameIntent::AnswerDraw(accept) => {
                game.write(GameCommand::AnswerDraw(*accept));
            }
            GameIntent::NewGame => {
                let going_on = session.as_deref().is_some_and(worth_keeping);
                if !going_on || confirming.tap(Confirm::NewGame, now) {
                    game.write(GameCommand::NewGame);
                }
            }
            GameIntent::Leave => {
                nav.write(NavIntent::Go(Screen::Title));
            }
            GameIntent::DismissNotice => {
                if !notices.0.is_empty() {
                    notices.0.remove(0);
                }
            }
            GameIntent::StartLesson { course, index } => {
                if crate::game::lessons::start(&mut commands, *course, *index) {
                    nav.write(NavIntent::Go(Screen::Playing));
                }
            }
            GameIntent::LessonHint => {
                if let Some(run) = lesson.as_deref_mut() {
                    run.hint = true;
                }
            }
            GameIntent::Practise(variant, theme) => {
                puzzles.game = *variant;
                puzzles.theme = *theme;
                puzzles.save();
                nav.write(NavIntent::Go(Screen::Puzzles));
            }
        }
    }
}

/// Keeps the unfinished game for the title screen's "continue" whenever the player leaves the
/// board (its save on disk stays too, for the next start).
fn keep_unfinished(session: Option<Res<Session>>, mut resumable: ResMut<Resumable>) {
    if let Some(session) = session.filter(|s| worth_keeping(s)) {
        *resumable = Resumable::Game(Box::new(session.clone()));
    }
}

/// The game's intents, acted on before the session's commands are applied.
pub fn plugin(app: &mut App) {
    app.add_message::<GameIntent>()
        .init_resource::<Confirming>()
        .init_resource::<Resumable>()
        .init_resource::<Notices>()
        .add_systems(Update, game_intents.in_set(AppSet::Input))
        .add_systems(OnExit(Screen::Playing), keep_unfinished);
}
