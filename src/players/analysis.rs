//! The post-game analysis's work: the engine's review of a finished game (`ludus_ai::review`)
//! run in the background, the evaluations as they come, the position shown, and opening and
//! leaving the analysis (the screen is `screens::analysis`).

use crate::app::{AppSet, Screen};
use crate::game::session::{Level, Seats, Session};
use crate::platform::background::Background;
use crate::players::endgames::Endgames;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use ludus_ai::review::{Analyser, Mark, PlyEval, classify, prefix};
use ludus_ai::tablebase::Tablebase;
use ludus_rules::{AnyGame, AnyMove};
use std::sync::Arc;

/// Where the analysis's "Back" leads: a screen, and the game that was on the board.
#[derive(Clone, Debug)]
struct ReturnTo {
    screen: Screen,
    session: Option<Session>,
}

/// The game under analysis: the record, the evaluations as they come, the position shown.
#[derive(Resource)]
pub struct Analysis {
    /// The whole game.
    pub game: AnyGame,
    /// Who played (the board is turned as it was for them).
    pub seats: Seats,
    /// Per position (before each move, then the final one): the engine's verdict, once known.
    pub evals: Vec<Option<PlyEval>>,
    /// The position shown: after this many moves.
    pub selected: usize,
    /// How long the whole analysis took, once done.
    pub took: Option<std::time::Duration>,
    moves: Vec<AnyMove>,
    /// Whether each position had only one legal move.
    forced: Vec<bool>,
    started: Instant,
    back: Option<ReturnTo>,
    work: Option<Background<(usize, PlyEval)>>,
    /// The background work starts at the next update (with the endgame tables, if ready).
    starting: bool,
}

impl Analysis {
    /// Starts analysing `game` in the background.
    pub fn new(game: AnyGame, seats: Seats) -> Analysis {
        let moves = game.moves();
        let forced = (0..moves.len()).map(|i| game.position_at(i).legal_moves().len() == 1).collect();
        Analysis {
            evals: vec![None; moves.len() + 1],
            game,
            seats,
            selected: 0,
            took: None,
            moves,
            forced,
            started: Instant::now(),
            back: None,
            work: None,
            starting: true,
        }
    }

    /// Whether every position has its evaluation.
    pub fn is_done(&self) -> bool {
        self.evals.iter().all(Option::is_some)
    }

    /// How many positions have their evaluation.
    pub fn analysed(&self) -> usize {
        self.evals.iter().filter(|e| e.is_some()).count()
    }

    /// The moves of the game.
    pub fn moves(&self) -> &[AnyMove] {
        &self.moves
    }

    /// The mark of move `k` (from position `k` to `k + 1`), once both are evaluated.
    pub fn mark(&self, k: usize) -> Option<Mark> {
        let mv = self.moves.get(k)?;
        let before = self.evals.get(k).copied().flatten()?;
        let after = self.evals.get(k + 1).copied().flatten()?;
        let mover = self.game.position_at(k).side_to_move();
        Some(classify(before.eval, after.eval, mover, before.best == Some(*mv), self.forced[k]))
    }

    /// Blunders and mistakes of each side: `[[blunders, mistakes]; 2]`.
    pub fn tally(&self) -> [[usize; 2]; 2] {
        let mut t = [[0; 2]; 2];
        for k in 0..self.moves.len() {
            let side = self.game.position_at(k).side_to_move().index();
            match self.mark(k) {
                Some(Mark::Blunder) => t[side][0] += 1,
                Some(Mark::Mistake) => t[side][1] += 1,
                _ => {}
            }
        }
        t
    }

    /// Takes the evaluations the background work has finished (starting it the first time).
    pub fn poll(&mut self, tb: Option<Arc<Tablebase>>) {
        if self.starting {
            self.starting = false;
            self.started = Instant::now();
            let mut analyser = Analyser::new(&self.game).with_tablebase(tb);
            self.work = Some(Background::spawn("analysis", move |out| {
                out.extend(analyser.step(2_000));
                analyser.is_done()
            }));
        }
        let Some(work) = self.work.as_ref() else { return };
        for (ply, e) in work.take() {
            if let Some(slot) = self.evals.get_mut(ply) {
                *slot = Some(e);
            }
        }
        if self.is_done() {
            self.work = None;
            let took = self.started.elapsed();
            self.took = Some(took);
            info!("analysed {} positions in {:.1} s", self.evals.len(), took.as_secs_f64());
        }
    }
}

fn poll_analysis(analysis: Option<ResMut<Analysis>>, endgames: Option<Res<Endgames>>) {
    if let Some(mut a) = analysis
        && (a.work.is_some() || a.starting)
    {
        a.poll(endgames.and_then(|e| e.tb.clone()));
    }
}

/// The analysis without any screen: the background work (tests run it headless).
pub fn plugin(app: &mut App) {
    app.add_systems(Update, poll_analysis.in_set(AppSet::Think));
}

/// Seats for looking at a game: the board turned as it was for the person who played, and
/// nobody online (the server's news must not touch the position shown).
fn review_seats(seats: Seats) -> Seats {
    match seats.human_side() {
        Some(side) => Seats::versus_computer(side, Level::Hard),
        None => Seats::two_players(),
    }
}

/// Opens the analysis of `game`; "Back" returns to `screen` with `session` (the session on
/// the board now, if any) as it was.
pub fn open(
    commands: &mut Commands,
    next: &mut NextState<Screen>,
    game: AnyGame,
    seats: Seats,
    screen: Screen,
    session: Option<Session>,
) {
    let mut analysis = Analysis::new(game, seats);
    analysis.back = Some(ReturnTo { screen, session });
    commands.insert_resource(Session::review(prefix(&analysis.game, 0), review_seats(seats)));
    commands.insert_resource(analysis);
    next.set(Screen::Analysis);
}

/// Leaves the analysis (its work stops) for where it was opened from.
pub fn close(commands: &mut Commands, next: &mut NextState<Screen>, analysis: &mut Analysis) {
    analysis.work = None;
    analysis.starting = false;
    let back = analysis.back.take().unwrap_or(ReturnTo { screen: Screen::Title, session: None });
    commands.remove_resource::<Analysis>();
    match back.session {
        Some(s) => commands.insert_resource(s),
        None => commands.remove_resource::<Session>(),
    }
    next.set(back.screen);
}
