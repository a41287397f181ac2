//! The computer player and the hint: a search that runs in the background (a thread on the
//! desktop, short tasks between the page's frames in the browser: see
//! [`crate::platform::background`]), cancelled by any change to the game. Nothing is redrawn
//! while it thinks; the search wakes the game when it has its move. The search's transposition table is
//! handed from one search to the next within a game.

use crate::app::{AppSet, Screen};
use crate::board::view::BoardView;
use crate::game::session::{GameCommand, HintRequest, Level, Player, Session};
use crate::net::connection::Link;
use crate::platform::background::{Background, Wake};
use crate::players::endgames::Endgames;
use crate::players::warmup::Warmup;
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use ludus_ai::TranspositionTable;
use ludus_ai::solve::book::Book;
use ludus_ai::tablebase::Tablebase;
use ludus_rules::{AnyGame, AnyMove, Variant};
use std::sync::Arc;

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
struct SearchResult {
    mv: Option<AnyMove>,
    table: Option<TranspositionTable>,
}

/// One search for a move (the computer's or a hint), runnable a slice at a time.
pub struct MoveSearch {
    search: ludus_ai::AnySearch,
}

impl MoveSearch {
    /// A search for `level`'s move in `game`, reusing `table` if given (what the previous
    /// search of the same game learnt stays useful).
    /// In Alquerque, Medium and Hard (and the hint) also use the endgame tables `tb` when given,
    /// and the book of proven values `book` (the caller gives it to Hard only).
    pub fn new(
        game: &AnyGame,
        level: Level,
        seed: u64,
        table: Option<TranspositionTable>,
        tb: Option<Arc<Tablebase>>,
        book: Option<&Book>,
    ) -> MoveSearch {
        let limits = ludus_ai::Limits::for_level(level);
        let mut search = match table {
            Some(tt) => ludus_ai::AnySearch::with_table(game, level, limits, seed, tt),
            None => ludus_ai::AnySearch::new(game, level, limits, seed),
        };
        if let Some(tb) = tb {
            search = search.with_tablebase(tb);
        }
        if let Some(book) = book {
            search = search.with_book(book);
        }
        MoveSearch { search }
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
    fn finish(self) -> SearchResult {
        SearchResult { mv: self.search.best_move(), table: self.search.into_table() }
    }
}

/// A search running in the background (dropping it stops the search).
struct Running {
    revision: u64,
    purpose: Purpose,
    /// The search, and its result once it is over.
    work: Background<SearchResult>,
}

/// The computer player: the running search, if any, and what it learnt for the next one.
#[derive(Resource)]
pub struct ComputerPlayer {
    running: Option<Running>,
    /// A finished search waiting for the board to settle: (revision, purpose, move).
    ready: Option<(u64, Purpose, Option<AnyMove>)>,
    /// The last search's table and the game it searched, for the next search.
    table: Option<(Variant, TranspositionTable)>,
    /// Advanced before each search; drawn anew at each start of the game, so that the choice
    /// between moves of equal worth differs from one run to the next.
    seed: u64,
}

impl Default for ComputerPlayer {
    fn default() -> Self {
        ComputerPlayer { running: None, ready: None, table: None, seed: crate::platform::entropy::run_seed() }
    }
}

impl ComputerPlayer {
    /// Whether the computer is busy with its move: searching, or holding the move found.
    fn on_a_move(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.purpose == Purpose::Move)
            || self.ready.as_ref().is_some_and(|r| r.1 == Purpose::Move)
    }
}

/// Nodes per step of the background work (it checks its stop flag and time between steps).
const STEP_NODES: u64 = 2_000;

fn start(search: MoveSearch, revision: u64, purpose: Purpose, wake: Wake) -> Running {
    let mut search = Some(search);
    let work = Background::spawn("search", move |out| {
        let Some(s) = search.as_mut() else { return true };
        if !s.step(STEP_NODES) {
            return false;
        }
        out.extend(search.take().map(MoveSearch::finish));
        wake.wake();
        true
    });
    Running { revision, purpose, work }
}

fn think(
    session: Option<Res<Session>>,
    mut player: ResMut<ComputerPlayer>,
    mut hints: MessageReader<HintRequest>,
    mut view: ResMut<BoardView>,
    endgames: Option<Res<Endgames>>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
    warmup: Option<Res<Warmup>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(session) = session else { return };
    if player.running.as_ref().is_some_and(|r| r.revision != session.revision) {
        player.running = None; // the game changed: drop the stale search (it stops itself)
    }
    if player.ready.as_ref().is_some_and(|r| r.0 != session.revision) {
        player.ready = None;
    }
    if view.hint.is_some() && view.shown_moves.len() != session.game.ply() {
        view.hint = None;
    }
    let wants_hint = hints.read().count() > 0;
    if player.running.is_some() || player.ready.is_some() {
        return;
    }
    // The computer looks at the board once it is drawn and still: after the page's first, slow
    // frames (see `warmup`) and after the last move has landed. The frames that draw a move
    // then do not share the processor with the search.
    let board_still = warmup.as_ref().is_none_or(|w| w.done()) && view.settled(&session);
    let task = match session.computer_to_move() {
        Some(level) if board_still => Some((level, Purpose::Move)),
        Some(_) => {
            // Frames until it is (the board settles in the frame after a move lands). Once only
            // the search's warm-up is left, no frames: it wakes the game when it is over, and
            // frames drawn meanwhile would take its time (a software renderer leaves the work
            // 2 ms a frame while the game draws; see `platform::background`).
            let only_warming = view.settled(&session) && warmup.as_ref().is_some_and(|w| w.drawn());
            if !only_warming {
                redraw.write(RequestRedraw);
            }
            None
        }
        None if wants_hint && session.human_to_move() => Some((Level::Hard, Purpose::Hint)),
        None => None,
    };
    let Some((level, purpose)) = task else { return };
    player.seed = player.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let seed = player.seed ^ session.revision;
    let variant = session.game.variant();
    let table = player.table.take().filter(|(v, _)| *v == variant).map(|(_, tt)| tt);
    let tb = endgames.as_ref().and_then(|e| e.tb.clone());
    // The book makes Hard (and the hint) perfect where it knows; Medium stays fallible.
    let book = endgames
        .as_ref()
        .filter(|_| level == Level::Hard && variant == Variant::Alquerque)
        .and_then(|e| e.book());
    let job = MoveSearch::new(&session.game, level, seed, table, tb, book.as_deref());
    player.running = Some(start(job, session.revision, purpose, Wake::new(proxy.as_deref())));
}

/// Takes the finished search's result and plays the computer's move once the board is still.
/// Runs before the frame's commands are applied, so the move is on the board in the frame that
/// picks it up.
fn finish(
    session: Option<Res<Session>>,
    mut player: ResMut<ComputerPlayer>,
    mut view: ResMut<BoardView>,
    mut commands: ResMut<Messages<GameCommand>>,
    mut seen: Local<bevy::ecs::message::MessageCursor<GameCommand>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    // The person's commands of this frame go first: the result may not fit the game after them.
    let busy = seen.read(&commands).count() > 0;
    let Some(session) = session else { return };
    if let Some(running) = player.running.as_ref()
        && let Some(SearchResult { mv, table }) = running.work.take().pop()
    {
        player.ready = Some((running.revision, running.purpose, mv));
        player.running = None;
        if let Some(tt) = table {
            player.table = Some((session.game.variant(), tt));
        }
    }
    // Play the move once the previous one has finished moving on the board; frames until then
    // (the game sleeps between frames when nothing asks for them).
    if player.ready.is_some() {
        redraw.write(RequestRedraw);
    }
    if !busy
        && view.settled(&session)
        && let Some((revision, purpose, result)) = player.ready.take()
        && revision == session.revision
    {
        match (purpose, result) {
            (Purpose::Move, Some(mv)) => {
                commands.write(GameCommand::Play(mv));
            }
            (Purpose::Hint, Some(mv)) => view.hint = Some(mv),
            (_, None) => {}
        }
    }
}

/// Nodes the computer searches to answer a draw offer, once per offer, on the frame's own thread:
/// 23 ms in a native test build on this machine (`crates/ai/tests/draws.rs` prints it); in the
/// browser that one frame is longer (not sliced like the move search, not measured there).
const DRAW_NODES: u64 = 8_000;

/// The computer answers a draw offered to it (a local game): it takes the draw when the
/// endgame tables say the game is drawn, or its evaluation that it is behind, or level once the
/// game has gone long without a capture; it plays on when it is ahead and in a level game still
/// full of play ([`ludus_ai::accepts_draw`], with the endgame tables in Alquerque).
fn answer_draw(
    session: Option<Res<Session>>,
    endgames: Option<Res<Endgames>>,
    mut commands: MessageWriter<GameCommand>,
    mut answered: Local<Option<u64>>,
) {
    let Some(session) = session else { return };
    let Some(by) = session.draw.open else { return };
    if session.seats.is_online() || !matches!(session.seats.player(!by), Player::Computer(_)) {
        return;
    }
    // Once per offer: the answer is applied in the next frame.
    if *answered == Some(session.revision) {
        return;
    }
    *answered = Some(session.revision);
    let tb = endgames.and_then(|e| e.tb.clone());
    let accept = ludus_ai::accepts_draw(&session.game, !by, DRAW_NODES, tb, session.revision);
    commands.write(GameCommand::AnswerDraw(accept));
}

/// The status follows the player, in the frame it changes (the game may then sleep a while).
fn status(player: Res<ComputerPlayer>, mut thinking: ResMut<Thinking>) {
    let active = player.on_a_move();
    if thinking.active != active {
        thinking.active = active;
    }
}

/// The longest the game sleeps between frames while the computer thinks.
const THINKING_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// While the computer thinks nothing on screen changes, and the search wakes the game when it has
/// its move: the game then sleeps up to [`THINKING_WAIT`] between frames instead of its usual
/// second. A frame drawn for nothing would take the processor from the search (in the browser,
/// its one thread) and the search would slow the frame down, on a software WebGL renderer past
/// 100 ms. Not while connected to a server, whose connection needs its updates.
fn pace(
    thinking: Res<Thinking>,
    net: Option<Res<Link>>,
    settings: Option<ResMut<bevy::winit::WinitSettings>>,
    mut usual: Local<Option<std::time::Duration>>,
) {
    let Some(mut settings) = settings else { return };
    let quiet = thinking.active && !net.is_some_and(|n| n.has_connection());
    if let bevy::winit::UpdateMode::Reactive { wait, .. } =
        &mut settings.bypass_change_detection().focused_mode
    {
        match (quiet, *usual) {
            (true, None) => *usual = Some(std::mem::replace(wait, THINKING_WAIT)),
            (false, Some(before)) => {
                *wait = before;
                *usual = None;
            }
            _ => return,
        }
        settings.set_changed();
    }
}

fn cancel(mut player: ResMut<ComputerPlayer>, mut thinking: ResMut<Thinking>) {
    player.running = None;
    player.ready = None;
    thinking.active = false;
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Thinking>()
        .init_resource::<ComputerPlayer>()
        .add_systems(
            Update,
            (answer_draw, think, status).chain().in_set(AppSet::Think).run_if(in_state(Screen::Playing)),
        )
        .add_systems(
            Update,
            finish
                .in_set(AppSet::Apply)
                .before(crate::game::session::apply_commands)
                .run_if(in_state(Screen::Playing)),
        )
        .add_systems(Last, pace)
        .add_systems(OnExit(Screen::Playing), cancel);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::session::{self, Seats};
    use ludus_rules::Side;

    /// The computer player's systems in a headless app, on the game screen with `session`.
    fn computer_app(session: Session) -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin));
        app.add_plugins(crate::app::plugin);
        app.add_message::<RequestRedraw>();
        app.init_resource::<BoardView>();
        app.add_plugins((session::plugin, plugin));
        app.insert_state(Screen::Playing);
        app.insert_resource(session);
        app
    }

    /// The search runs in the background, its move is played, and the status says when it
    /// thinks.
    #[test]
    fn the_computer_thinks_in_the_background_and_plays() {
        let mut app = computer_app(Session::new(
            Variant::Alquerque,
            Seats::versus_computer(Side::Second, Level::Medium),
        ));
        app.update();
        assert!(app.world().resource::<Thinking>().active, "thinking from the first frame");
        // However slow the machine: a minute for a search of a few milliseconds.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while app.world().resource::<Session>().game.ply() == 0 {
            assert!(std::time::Instant::now() < deadline, "the computer did not move");
            std::thread::sleep(std::time::Duration::from_millis(2));
            app.update();
        }
        let session = app.world().resource::<Session>();
        assert_eq!(session.game.ply(), 1);
        assert!(session.human_to_move());
        assert!(!app.world().resource::<Thinking>().active, "the status changes with the move");
    }

    /// A person offers the computer a draw on their turn: it is answered within two frames, and
    /// the game is drawn by agreement (the computer is behind) or goes on with the offer declined
    /// (the computer is ahead).
    fn offer_to_the_computer(position: &str, person: Side) -> Session {
        let pos = ludus_rules::AnyPosition::parse(Variant::LatrunculiQuick, position).expect("position");
        let game = AnyGame::from_position(pos);
        let mut app = computer_app(Session::from_game(game, Seats::versus_computer(person, Level::Easy)));
        app.update();
        app.world_mut().write_message(GameCommand::OfferDraw);
        app.update();
        app.update();
        app.world().resource::<Session>().clone()
    }

    #[test]
    fn the_computer_takes_a_draw_when_behind_and_declines_when_ahead() {
        // Red (first) has eight soldiers and its king against Black's king and three.
        let behind = offer_to_the_computer("B1bbb3/8/8/8/8/8/4R3/rrrrrrrr r", Side::First);
        assert_eq!(
            behind.game.outcome(),
            Some(ludus_rules::Outcome::draw(ludus_rules::Reason::Agreement)),
            "Black, five soldiers down, takes the draw"
        );
        let ahead = offer_to_the_computer("B1bbb3/8/8/8/8/8/4R3/rrrrrrrr b", Side::Second);
        assert!(!ahead.game.is_over(), "Red, five soldiers up, plays on");
        assert_eq!(ahead.draw.open, None);
        assert_eq!(ahead.draw.declined_by, Some(Side::First));
        assert!(!ahead.may_offer_draw(Side::Second), "one offer per move");
    }

    #[test]
    fn the_computer_declines_a_draw_in_a_level_game_full_of_play() {
        // Both sides have moved, nothing is decided: the computer plays on.
        let mut game = AnyGame::new(Variant::LatrunculiQuick);
        for _ in 0..2 {
            let mv = game.legal_moves()[0];
            game.play(&mv).expect("legal");
        }
        let mut app =
            computer_app(Session::from_game(game, Seats::versus_computer(Side::First, Level::Easy)));
        app.update();
        app.world_mut().write_message(GameCommand::OfferDraw);
        app.update();
        app.update();
        let session = app.world().resource::<Session>();
        assert!(!session.game.is_over(), "the computer does not take a draw in the opening");
        assert_eq!(session.draw.declined_by, Some(Side::Second));
    }
}
