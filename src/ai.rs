//! The computer player and the hint: a search that runs on Bevy's async compute pool on the
//! desktop and a few milliseconds per frame in the browser, cancelled by any change to the game.
//! The search's transposition table is handed from one search to the next within a game.

use crate::board::BoardView;
use crate::screens::Screen;
use crate::session::{GameCommand, Level, Session};
#[cfg(target_arch = "wasm32")]
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use ludus_ai::TranspositionTable;
use ludus_rules::{AnyGame, AnyMove, Variant};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Asks for a hint: the Hard level's move, drawn on the board.
#[derive(Message, Clone, Copy, Debug)]
pub struct HintRequest;

/// Whether the computer is thinking about its move (for the status line).
#[derive(Resource, Default, Debug)]
pub struct Thinking {
    /// A search for the computer's move is running.
    pub active: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Purpose {
    Move,
    Hint,
}

/// What a finished search gives back: its move, and its table for the next search.
type Found = (Option<AnyMove>, Option<TranspositionTable>);

/// One search, runnable a slice at a time.
pub struct Job {
    search: ludus_ai::AnySearch,
}

impl Job {
    /// A search for `level`'s move in `game`, reusing `table` if given (what the previous
    /// search of the same game learnt stays useful).
    /// In Alquerque, Hard (and the hint) also use the endgame tables `tb` when given.
    pub fn new(
        game: &AnyGame,
        level: Level,
        seed: u64,
        table: Option<TranspositionTable>,
        tb: Option<Arc<ludus_ai::tablebase::Tablebase>>,
    ) -> Job {
        let hard = level == Level::Hard;
        let level = ai_level(level);
        let limits = ludus_ai::Limits::for_level(level);
        let mut search = match table {
            Some(tt) => ludus_ai::AnySearch::with_table(game, level, limits, seed, tt),
            None => ludus_ai::AnySearch::new(game, level, limits, seed),
        };
        if let Some(tb) = tb.filter(|_| hard) {
            search = search.with_tablebase(tb);
        }
        Job { search }
    }

    /// Runs about `nodes` nodes; returns whether the search is over.
    pub fn step(&mut self, nodes: u64) -> bool {
        self.search.step(nodes);
        self.search.is_done()
    }

    /// The best move found so far (the search's move once it is over).
    pub fn best_move(&self) -> Option<AnyMove> {
        self.search.best_move()
    }

    /// The move and the table, once the search is over.
    fn finish(self) -> Found {
        let mv = self.search.best_move();
        (mv, self.search.into_table())
    }

    /// Runs to the end, or until `stop` is set (then with no move).
    #[cfg(not(target_arch = "wasm32"))]
    fn run(mut self, stop: &AtomicBool) -> Found {
        loop {
            if stop.load(Ordering::Relaxed) {
                return (None, None);
            }
            if self.step(20_000) {
                return self.finish();
            }
        }
    }
}

fn ai_level(level: Level) -> ludus_ai::Level {
    match level {
        Level::Easy => ludus_ai::Level::Easy,
        Level::Medium => ludus_ai::Level::Medium,
        Level::Hard => ludus_ai::Level::Hard,
    }
}

struct Running {
    revision: u64,
    purpose: Purpose,
    stop: Arc<AtomicBool>,
    #[cfg(not(target_arch = "wasm32"))]
    task: bevy::tasks::Task<Found>,
    #[cfg(target_arch = "wasm32")]
    job: Option<Job>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The running search, if any.
#[derive(Resource, Default)]
pub struct Brain {
    running: Option<Running>,
    /// A finished search waiting for the board to settle: (revision, purpose, move).
    ready: Option<(u64, Purpose, Option<AnyMove>)>,
    /// The last search's table and the game it searched, for the next search.
    table: Option<(Variant, TranspositionTable)>,
    seed: u64,
}

fn start(job: Job, revision: u64, purpose: Purpose) -> Running {
    let stop = Arc::new(AtomicBool::new(false));
    #[cfg(not(target_arch = "wasm32"))]
    {
        let flag = stop.clone();
        let task = bevy::tasks::AsyncComputeTaskPool::get().spawn(async move { job.run(&flag) });
        Running { revision, purpose, stop, task }
    }
    #[cfg(target_arch = "wasm32")]
    {
        Running { revision, purpose, stop, job: Some(job) }
    }
}

fn think(
    session: Option<Res<Session>>,
    mut brain: ResMut<Brain>,
    mut hints: MessageReader<HintRequest>,
    mut view: ResMut<BoardView>,
    endgames: Option<Res<crate::tablebase::Endgames>>,
) {
    let Some(session) = session else { return };
    if brain.running.as_ref().is_some_and(|r| r.revision != session.revision) {
        brain.running = None; // the game changed: drop the stale search (it stops itself)
    }
    if brain.ready.as_ref().is_some_and(|r| r.0 != session.revision) {
        brain.ready = None;
    }
    if view.hint.is_some() && view.shown_moves.len() != session.game.ply() {
        view.hint = None;
    }
    let wants_hint = hints.read().count() > 0;
    if brain.running.is_some() || brain.ready.is_some() {
        return;
    }
    let task = match session.computer_to_move() {
        Some(level) => Some((level, Purpose::Move)),
        None if wants_hint && session.human_to_move() => Some((Level::Hard, Purpose::Hint)),
        None => None,
    };
    let Some((level, purpose)) = task else { return };
    brain.seed = brain.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let seed = brain.seed ^ session.revision;
    let variant = session.game.variant();
    let table = brain.table.take().filter(|(v, _)| *v == variant).map(|(_, tt)| tt);
    let tb = endgames.and_then(|e| e.tb.clone());
    let job = Job::new(&session.game, level, seed, table, tb);
    brain.running = Some(start(job, session.revision, purpose));
}

fn finish(
    session: Option<Res<Session>>,
    mut brain: ResMut<Brain>,
    mut thinking: ResMut<Thinking>,
    mut view: ResMut<BoardView>,
    mut commands: MessageWriter<GameCommand>,
    mut redraw: MessageWriter<RequestRedraw>,
    #[cfg(target_arch = "wasm32")] time: Res<Time<Real>>,
) {
    let active = brain.running.as_ref().is_some_and(|r| r.purpose == Purpose::Move)
        || brain.ready.as_ref().is_some_and(|r| r.1 == Purpose::Move);
    if thinking.active != active {
        thinking.active = active;
    }
    let Some(session) = session else { return };
    if let Some(running) = brain.running.as_mut() {
        redraw.write(RequestRedraw);
        #[cfg(not(target_arch = "wasm32"))]
        let found = bevy::tasks::futures::check_ready(&mut running.task);
        #[cfg(target_arch = "wasm32")]
        let found = {
            // A few milliseconds a frame, so the page keeps painting: 6 ms at 60 frames a
            // second, up to a quarter of a slower frame (at most 12 ms), so that a device that
            // paints slowly still gives the search a fair share of its thinking time without
            // stretching its frames much further.
            let slice = (time.delta_secs_f64() / 4.0).clamp(0.006, 0.012);
            let started = Instant::now();
            let mut out = None;
            while let Some(job) = running.job.as_mut() {
                if job.step(2_000) {
                    out = running.job.take().map(Job::finish);
                    break;
                }
                if started.elapsed().as_secs_f64() >= slice {
                    break;
                }
            }
            out
        };
        if let Some((mv, table)) = found {
            brain.ready = Some((running.revision, running.purpose, mv));
            brain.running = None;
            if let Some(tt) = table {
                brain.table = Some((session.game.variant(), tt));
            }
        }
    }
    // Play the move once the previous one has finished moving on the board.
    if brain.ready.is_some() && view.settled(&session) {
        let Some((revision, purpose, result)) = brain.ready.take() else { return };
        if revision != session.revision {
            return;
        }
        match (purpose, result) {
            (Purpose::Move, Some(mv)) => {
                commands.write(GameCommand::Play(mv));
            }
            (Purpose::Hint, Some(mv)) => view.hint = Some(mv),
            (_, None) => {}
        }
    }
}

fn cancel(mut brain: ResMut<Brain>, mut thinking: ResMut<Thinking>) {
    brain.running = None;
    brain.ready = None;
    thinking.active = false;
}

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<HintRequest>()
        .init_resource::<Thinking>()
        .init_resource::<Brain>()
        .add_systems(
            Update,
            (think, finish).chain().in_set(crate::AppSet::Think).run_if(in_state(Screen::Playing)),
        )
        .add_systems(OnExit(Screen::Playing), cancel);
}
