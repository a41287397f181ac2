//! Post-game analysis: the engine evaluates every position of a finished game in the background
//! (see [`crate::background`]), then the analysis screen
//! shows an evaluation graph, the moves marked as blunders or mistakes, and any position with the
//! engine's better move; also the "Analyse a game" screen (recent games and pasted records).
//!
//! The engine is Hard with a fixed budget of [`NODES_PER_POSITION`] nodes per position (about
//! 0.2 s each natively: a 60-move game in about 25 s), one transposition table reused from one
//! position to the next. Evaluations are from the first side's point of view; wins found by the
//! search count as [`CLAMP`], like any evaluation beyond it, so that they compare.
//!
//! Marks (see [`classify`]): a move is a **blunder** when it lowers the mover's evaluation by
//! [`BLUNDER_DROP`] or more (one and a half soldiers; a win thrown away for less than
//! [`DECIDED`] ahead, or a fair game turned into a forced loss, always does), a **mistake**
//! from [`MISTAKE_DROP`]. Never for a move the engine itself chose, for the only legal move, for
//! a move that leaves the mover [`DECIDED`] or more ahead (still winning), nor for one made
//! [`DECIDED`] or more behind (already lost).

use crate::background::Background;
use crate::board::{BoardArea, BoardLayout, BoardView};
use crate::i18n::{Lang, fill};
use crate::records::{self, RecentGames, RecordEntry};
use crate::screens::{Screen, big_button, level_key, side_name, variant_key};
use crate::session::{Level, Player, Seats, Session};
use crate::settings::Settings;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use ludus_ai::tablebase::Tablebase;
use ludus_ai::{AnySearch, Limits, Score, TranspositionTable};
use ludus_rules::{AnyGame, AnyMove, Side, Variant};
use std::sync::Arc;

/// The engine's budget for each position (Hard, nodes; the same on every platform, so the
/// evaluations are the same everywhere).
pub const NODES_PER_POSITION: u64 = 200_000;
/// Evaluations beyond this many centi-soldiers (and wins, losses) count as this much.
pub const CLAMP: i32 = 1000;
/// A move that costs the mover this many centi-soldiers or more is a blunder.
pub const BLUNDER_DROP: i32 = 150;
/// A move that costs the mover this many centi-soldiers or more is a mistake.
pub const MISTAKE_DROP: i32 = 60;
/// Five soldiers: a game this far ahead is decided; moves that keep it so, or moves in a game
/// already lost by this much, are not marked.
pub const DECIDED: i32 = 500;
/// The graph's scale: an evaluation of this many centi-soldiers is drawn about three quarters
/// of the way to the edge.
const GRAPH_SCALE: f32 = 400.0;
/// The search's seed (the evaluations do not depend on when they are run).
const SEED: u64 = 0x004C_7564_7573;

/// An evaluation of a position, from the first side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centi-soldiers (100 = one soldier), positive when the first side is better.
    Cp(i32),
    /// The search found a win for `side` in `plies` plies.
    Win {
        /// Who wins.
        side: Side,
        /// In how many plies (both sides' moves).
        plies: u32,
    },
    /// The game is over here: the winner, or a draw.
    Over(Option<Side>),
}

impl Eval {
    /// The search's score (for the side to move) as an evaluation for the first side.
    pub fn from_score(score: Score, to_move: Side) -> Eval {
        match score {
            Score::Eval(cp) => Eval::Cp(if to_move == Side::First { cp } else { -cp }),
            Score::WinIn(plies) => Eval::Win { side: to_move, plies },
            Score::LossIn(plies) => Eval::Win { side: !to_move, plies },
        }
    }

    /// The comparable value for the first side: centi-soldiers within ±[`CLAMP`], wins and
    /// losses at the ends, a draw 0.
    pub fn value(self) -> i32 {
        let sign = |side: Side| if side == Side::First { 1 } else { -1 };
        match self {
            Eval::Cp(cp) => cp.clamp(-CLAMP, CLAMP),
            Eval::Win { side, .. } | Eval::Over(Some(side)) => sign(side) * CLAMP,
            Eval::Over(None) => 0,
        }
    }

    /// [`Eval::value`] for `side`.
    pub fn value_for(self, side: Side) -> i32 {
        if side == Side::First { self.value() } else { -self.value() }
    }

    /// The height in the graph, from -1 (the second side wins) to 1 (the first side wins):
    /// evaluations on a soft curve that never quite reaches the ends, which belong to wins.
    pub fn graph(self) -> f32 {
        match self {
            Eval::Cp(cp) => 0.94 * (cp as f32 / GRAPH_SCALE).tanh(),
            _ => self.value() as f32 / CLAMP as f32,
        }
    }
}

/// How a move is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Nothing to say.
    Fine,
    /// Costs the mover [`MISTAKE_DROP`] or more.
    Mistake,
    /// Costs the mover [`BLUNDER_DROP`] or more.
    Blunder,
}

/// Marks a move by `mover` from a position evaluated `before` to one evaluated `after`.
/// `played_best`: the engine would have played it too; `forced`: it was the only legal move.
pub fn classify(before: Eval, after: Eval, mover: Side, played_best: bool, forced: bool) -> Mark {
    let (before, after) = (before.value_for(mover), after.value_for(mover));
    if played_best || forced || after >= DECIDED || before <= -DECIDED {
        return Mark::Fine;
    }
    let drop = before - after;
    if drop >= BLUNDER_DROP {
        Mark::Blunder
    } else if drop >= MISTAKE_DROP {
        Mark::Mistake
    } else {
        Mark::Fine
    }
}

/// An evaluation as text: "+1.3", "White wins in 5" (moves of the winner), "Draw".
pub fn eval_text(lang: Lang, variant: Variant, eval: Eval) -> String {
    match eval {
        Eval::Cp(0) => "0.0".to_string(),
        Eval::Cp(cp) => format!("{:+.1}", f64::from(cp) / 100.0),
        Eval::Win { side, plies } => {
            let moves = plies.div_ceil(2).max(1);
            fill(lang.t("analysis.wins_in"), &[side_name(lang, variant, side), &moves.to_string()])
        }
        Eval::Over(Some(side)) => fill(lang.t("over.wins"), &[side_name(lang, variant, side)]),
        Eval::Over(None) => lang.t("over.draw").to_string(),
    }
}

/// The endgame tables' exact verdict on the game's current position, with their best move,
/// used instead of a search: Alquerque positions the tables cover, when the no-capture counter
/// cannot change the result ("White wins in 9").
pub fn tablebase_verdict(game: &AnyGame, tb: Option<&Tablebase>) -> Option<(Eval, Option<AnyMove>)> {
    let (ludus_rules::AnyPosition::Alquerque(pos), Some(tb)) = (game.position(), tb) else { return None };
    let probe = tb.probe(&pos)?;
    if !probe.holds_with_clock(ludus_rules::GamePosition::clock(&pos)) {
        return None;
    }
    let side = ludus_rules::GamePosition::side_to_move(&pos);
    let eval = match probe.winner(side) {
        Some(winner) => Eval::Win { side: winner, plies: u32::from(probe.plies_to_end) },
        None => Eval::Cp(0),
    };
    Some((eval, tb.best_move(&pos).map(AnyMove::Alquerque)))
}

/// What the engine says about one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlyEval {
    /// The evaluation.
    pub eval: Eval,
    /// The engine's move there (none once the game is over).
    pub best: Option<AnyMove>,
    /// The depth the search completed (0 when no search was needed).
    pub depth: u32,
}

/// The game up to `ply` moves (its ending kept only for the whole game).
pub fn prefix(game: &AnyGame, ply: usize) -> AnyGame {
    let mut g = game.clone();
    while g.ply() > ply {
        g.undo();
    }
    g
}

/// Evaluates every position of a game in turn, a slice at a time; no Bevy, no threads.
pub struct Analyser {
    moves: Vec<AnyMove>,
    /// The game up to the position being evaluated (its moves replayed, no outside ending).
    current: AnyGame,
    next: usize,
    search: Option<AnySearch>,
    table: Option<TranspositionTable>,
    nodes: u64,
    tb: Option<Arc<Tablebase>>,
}

impl Analyser {
    /// Uses the endgame tables where they cover a position (exact, no search).
    pub fn with_tablebase(mut self, tb: Option<Arc<Tablebase>>) -> Analyser {
        self.tb = tb;
        self
    }

    /// An analysis of every position of `game`, with [`NODES_PER_POSITION`] nodes each.
    pub fn new(game: &AnyGame) -> Analyser {
        Analyser::with_nodes(game, NODES_PER_POSITION)
    }

    /// An analysis with another budget (for tests).
    pub fn with_nodes(game: &AnyGame, nodes: u64) -> Analyser {
        Analyser {
            moves: game.moves(),
            current: AnyGame::from_position(game.start()),
            next: 0,
            search: None,
            table: None,
            nodes,
            tb: None,
        }
    }

    /// Whether every position has its evaluation.
    pub fn is_done(&self) -> bool {
        self.next > self.moves.len()
    }

    /// Runs about `budget` nodes; returns a position's evaluation when one is finished (the
    /// positions come in order: before the first move, ..., the final position).
    pub fn step(&mut self, budget: u64) -> Option<(usize, PlyEval)> {
        if self.is_done() {
            return None;
        }
        let ply = self.next;
        if self.search.is_none() {
            let known = match self.current.outcome() {
                Some(outcome) => Some((Eval::Over(outcome.winner), None)),
                None => tablebase_verdict(&self.current, self.tb.as_deref()),
            };
            if let Some((eval, best)) = known {
                self.advance();
                return Some((ply, PlyEval { eval, best, depth: 0 }));
            }
            let level = ludus_ai::Level::Hard;
            let limits = Limits::nodes(self.nodes);
            self.search = Some(match self.table.take() {
                Some(tt) => AnySearch::with_table(&self.current, level, limits, SEED, tt),
                None => AnySearch::new(&self.current, level, limits, SEED),
            });
        }
        let search = self.search.as_mut()?;
        search.step(budget);
        if !search.is_done() {
            return None;
        }
        let search = self.search.take()?;
        let info = search.info();
        let best = search.best_move();
        self.table = search.into_table();
        let eval = Eval::from_score(info.score, self.current.side_to_move());
        self.advance();
        Some((ply, PlyEval { eval, best, depth: info.depth }))
    }

    fn advance(&mut self) {
        if let Some(mv) = self.moves.get(self.next)
            && let Err(e) = self.current.play(mv)
        {
            warn!("analysis: {e}");
        }
        self.next += 1;
    }
}

/// The background work (see [`crate::background`]) and the evaluations it has finished.
struct Worker {
    results: Arc<std::sync::Mutex<Vec<(usize, PlyEval)>>>,
    _work: Background,
}

impl Worker {
    fn start(mut analyser: Analyser) -> Worker {
        let results = Arc::new(std::sync::Mutex::new(Vec::new()));
        let out = results.clone();
        let work = Background::spawn(move || {
            if let Some(r) = analyser.step(2_000) {
                out.lock().unwrap_or_else(|e| e.into_inner()).push(r);
            }
            analyser.is_done()
        });
        Worker { results, _work: work }
    }

    /// The evaluations finished since the last call.
    fn collect(&mut self) -> Vec<(usize, PlyEval)> {
        std::mem::take(&mut *self.results.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Where "Back" leads from the analysis.
#[derive(Clone, Debug)]
struct Back {
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
    back: Option<Back>,
    worker: Option<Worker>,
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
            worker: None,
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
            self.worker = Some(Worker::start(Analyser::new(&self.game).with_tablebase(tb)));
        }
        let Some(worker) = self.worker.as_mut() else { return };
        for (ply, e) in worker.collect() {
            if let Some(slot) = self.evals.get_mut(ply) {
                *slot = Some(e);
            }
        }
        if self.is_done() {
            self.worker = None;
            let took = self.started.elapsed();
            self.took = Some(took);
            info!("analysed {} positions in {:.1} s", self.evals.len(), took.as_secs_f64());
        }
    }
}

fn poll_analysis(analysis: Option<ResMut<Analysis>>, endgames: Option<Res<crate::tablebase::Endgames>>) {
    if let Some(mut a) = analysis
        && (a.worker.is_some() || a.starting)
    {
        a.poll(endgames.and_then(|e| e.tb.clone()));
    }
}

/// The analysis without any screen: the background work (tests run it headless).
pub fn engine_plugin(app: &mut App) {
    app.add_systems(Update, poll_analysis.in_set(crate::AppSet::Think));
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
    analysis.back = Some(Back { screen, session });
    commands.insert_resource(Session::review(prefix(&analysis.game, 0), review_seats(seats)));
    commands.insert_resource(analysis);
    next.set(Screen::Analysis);
}

/// Leaves the analysis (its work stops) for where it was opened from.
fn close(commands: &mut Commands, next: &mut NextState<Screen>, analysis: &mut Analysis) {
    analysis.worker = None;
    analysis.starting = false;
    let back = analysis.back.take().unwrap_or(Back { screen: Screen::Title, session: None });
    commands.remove_resource::<Analysis>();
    match back.session {
        Some(s) => commands.insert_resource(s),
        None => commands.remove_resource::<Session>(),
    }
    next.set(back.screen);
}

/// Keeps the board on the selected position, the engine's move and the move played drawn.
fn show_selected(
    analysis: Option<Res<Analysis>>,
    session: Option<ResMut<Session>>,
    mut view: ResMut<BoardView>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let (Some(analysis), Some(mut session)) = (analysis, session) else { return };
    if !view.settled(&session) {
        // The board ends an animation by redrawing itself, the highlights after that: frames
        // until it is settled (nothing else asks for them here).
        redraw.write(bevy::window::RequestRedraw);
    }
    let s = analysis.selected.min(analysis.moves.len());
    if session.game.ply() != s || !session.review {
        let seats = session.seats;
        let revision = session.revision + 1;
        *session = Session::review(prefix(&analysis.game, s), seats);
        session.revision = revision;
    }
    let hint = analysis.evals[s].and_then(|e| e.best);
    let played = analysis.moves.get(s).copied();
    if view.hint != hint {
        view.hint = hint;
    }
    if view.played != played {
        view.played = played;
    }
}

/// Left and Right step through the game, Home and End jump to its ends.
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    analysis: Option<ResMut<Analysis>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
) {
    let Some(mut a) = analysis else { return };
    if egui.as_ref().is_some_and(|e| e.wants_keyboard_input()) {
        return;
    }
    let n = a.moves.len();
    let s = a.selected;
    let to = if keys.just_pressed(KeyCode::ArrowLeft) {
        s.saturating_sub(1)
    } else if keys.just_pressed(KeyCode::ArrowRight) {
        (s + 1).min(n)
    } else if keys.just_pressed(KeyCode::Home) {
        0
    } else if keys.just_pressed(KeyCode::End) {
        n
    } else {
        s
    };
    if to != s {
        a.selected = to;
    }
}

fn color(c: Color) -> egui::Color32 {
    let c = c.to_srgba();
    egui::Color32::from_rgba_unmultiplied(
        (c.red * 255.0) as u8,
        (c.green * 255.0) as u8,
        (c.blue * 255.0) as u8,
        (c.alpha * 255.0) as u8,
    )
}

const BLUNDER_COLOR: egui::Color32 = egui::Color32::from_rgb(230, 60, 50);
const MISTAKE_COLOR: egui::Color32 = egui::Color32::from_rgb(240, 160, 40);

/// The evaluation graph: x the ply, y the evaluation (soft clamp), each side's area in its
/// colour, blunders and mistakes marked, the position shown highlighted; a click or a drag
/// picks a position. Returns the position picked.
fn graph(ui: &mut egui::Ui, analysis: &Analysis, height: f32) -> Option<usize> {
    let width = ui.available_width();
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, height), egui::Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    let variant = analysis.game.variant();
    let colors = crate::theme::Colors::of(crate::settings::Theme::Wood);
    let side_color = |side: Side| color(colors.piece(!variant.is_latrunculi(), side, false)[1]);
    painter.rect_filled(rect, 4.0, egui::Color32::from_gray(96));
    let n = analysis.moves.len().max(1) as f32;
    let inner = rect.shrink2(egui::vec2(6.0, 6.0));
    let x = |ply: usize| inner.left() + inner.width() * ply as f32 / n;
    let mid = inner.center().y;
    let y = |v: f32| mid - v * inner.height() / 2.0;
    // The first side's colour above the line, black below, on a grey between them.
    let (first, second) = (side_color(Side::First), egui::Color32::from_gray(24));
    // Each side's area, segment by segment (split where the curve crosses zero).
    let points: Vec<Option<egui::Pos2>> = analysis
        .evals
        .iter()
        .enumerate()
        .map(|(i, e)| e.map(|e| egui::pos2(x(i), y(e.eval.graph()))))
        .collect();
    // One mesh without anti-aliasing, so that neighbouring pieces leave no seams.
    let mut mesh = egui::Mesh::default();
    let mut tri = |pts: [egui::Pos2; 3], c: egui::Color32| {
        let i = mesh.vertices.len() as u32;
        for p in pts {
            mesh.colored_vertex(p, c);
        }
        mesh.add_triangle(i, i + 1, i + 2);
    };
    for w in points.windows(2) {
        let (Some(a), Some(b)) = (w[0], w[1]) else { continue };
        let (a0, b0) = (egui::pos2(a.x, mid), egui::pos2(b.x, mid));
        let above = |p: egui::Pos2| p.y <= mid;
        if above(a) == above(b) {
            let c = if above(a) { first } else { second };
            tri([a0, a, b], c);
            tri([a0, b, b0], c);
        } else {
            let t = (a.y - mid) / (a.y - b.y);
            let cross = egui::pos2(a.x + t * (b.x - a.x), mid);
            let (ca, cb) = if above(a) { (first, second) } else { (second, first) };
            tri([a0, a, cross], ca);
            tri([cross, b, b0], cb);
        }
    }
    painter.add(egui::Shape::mesh(mesh));
    painter.line_segment(
        [egui::pos2(inner.left(), mid), egui::pos2(inner.right(), mid)],
        egui::Stroke::new(1.0, egui::Color32::from_gray(150)),
    );
    for w in points.windows(2) {
        if let (Some(a), Some(b)) = (w[0], w[1]) {
            painter.line_segment([a, b], egui::Stroke::new(2.0, egui::Color32::from_rgb(235, 185, 60)));
        }
    }
    // Still to analyse: shaded.
    let done = analysis.analysed();
    if done < analysis.evals.len() {
        let from = x(done.saturating_sub(1)).max(inner.left());
        let shade = egui::Rect::from_min_max(egui::pos2(from, rect.top()), rect.max);
        painter.rect_filled(shade, 0.0, egui::Color32::from_black_alpha(90));
    }
    // The position shown.
    let sx = x(analysis.selected);
    painter.line_segment(
        [egui::pos2(sx, rect.top()), egui::pos2(sx, rect.bottom())],
        egui::Stroke::new(2.0, egui::Color32::from_rgb(90, 170, 255)),
    );
    // Marks where the move's damage shows: at the position after it.
    for k in 0..analysis.moves.len() {
        let c = match analysis.mark(k) {
            Some(Mark::Blunder) => BLUNDER_COLOR,
            Some(Mark::Mistake) => MISTAKE_COLOR,
            _ => continue,
        };
        if let Some(p) = points[k + 1] {
            painter.circle(p, 5.5, c, egui::Stroke::new(1.5, egui::Color32::WHITE));
        }
    }
    if let Some(p) = points[analysis.selected] {
        painter.circle_stroke(p, 6.0, egui::Stroke::new(2.0, egui::Color32::from_rgb(90, 170, 255)));
    }
    let picked = if response.clicked() || response.dragged() {
        response.interact_pointer_pos().map(|p| {
            let t = ((p.x - inner.left()) / inner.width()).clamp(0.0, 1.0);
            ((t * n).round() as usize).min(analysis.moves.len())
        })
    } else {
        None
    };
    picked.filter(|&p| p != analysis.selected)
}

/// What a side's player was: "you", the computer's level, someone online.
fn player_text(lang: Lang, seats: &Seats, side: Side) -> String {
    match seats.player(side) {
        Player::Human if seats.is_two_players() => lang.t("records.person").to_string(),
        Player::Human => lang.t("records.you").to_string(),
        Player::Computer(level) => fill(lang.t("records.computer"), &[lang.t(level_key(level))]),
        Player::Remote => lang.t("records.online").to_string(),
    }
}

/// "White: you — Black: Computer: Hard".
fn players_line(lang: Lang, variant: Variant, seats: &Seats) -> String {
    let one = |side| format!("{}: {}", side_name(lang, variant, side), player_text(lang, seats, side));
    format!("{} — {}", one(Side::First), one(Side::Second))
}

fn mark_suffix(mark: Option<Mark>) -> (&'static str, Option<egui::Color32>) {
    match mark {
        Some(Mark::Blunder) => ("??", Some(BLUNDER_COLOR)),
        Some(Mark::Mistake) => ("?", Some(MISTAKE_COLOR)),
        _ => ("", None),
    }
}

/// The panel's upper part: the game, the progress, the graph, the position shown and the
/// buttons. Returns the position picked and whether to leave.
fn info_panel(
    ui: &mut egui::Ui,
    lang: Lang,
    a: &Analysis,
    portrait: bool,
    view: &mut BoardView,
) -> (Option<usize>, bool) {
    let mut pick = None;
    let mut leave = false;
    let variant = a.game.variant();
    let n = a.moves.len();
    ui.horizontal(|ui| {
        if ui.button(lang.t("menu.back")).clicked() {
            leave = true;
        }
        ui.heading(format!("{} — {}", lang.t("analysis.title"), lang.t(variant_key(variant))));
    });
    ui.label(egui::RichText::new(players_line(lang, variant, &a.seats)).small());
    if let Some(outcome) = a.game.outcome() {
        let mover = a.moves.last().map(|_| !a.game.side_to_move());
        ui.label(format!(
            "{} · {}",
            crate::hud::result_text(lang, variant, &outcome),
            crate::hud::reason_text(lang, variant, &outcome, mover)
        ));
    }
    // Progress, then the graph.
    let done = a.analysed();
    if a.took.is_none() {
        let total = a.evals.len();
        ui.add(
            egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                .text(fill(lang.t("analysis.progress"), &[&done.to_string(), &total.to_string()])),
        );
    }
    let graph_height = if portrait { 90.0 } else { 140.0 };
    if let Some(p) = graph(ui, a, graph_height) {
        pick = Some(p);
    }
    // The position shown.
    let s = a.selected;
    let eval = a.evals[s].map(|e| eval_text(lang, variant, e.eval));
    ui.horizontal_wrapped(|ui| {
        let at = if s == 0 {
            lang.t("analysis.start").to_string()
        } else {
            fill(lang.t("analysis.position"), &[&s.to_string()])
        };
        ui.label(egui::RichText::new(at).strong());
        ui.label(
            egui::RichText::new(eval.unwrap_or_else(|| lang.t("analysis.pending").to_string()))
                .size(20.0)
                .strong(),
        );
    });
    let pos = a.game.position_at(s);
    if let Some(mv) = a.moves.get(s) {
        let text = pos.move_to_string(mv).unwrap_or_default();
        let (suffix, c) = mark_suffix(a.mark(s));
        let word = match a.mark(s) {
            Some(Mark::Blunder) => format!(" — {}", lang.t("analysis.blunder")),
            Some(Mark::Mistake) => format!(" — {}", lang.t("analysis.mistake")),
            _ => String::new(),
        };
        let mut rt = egui::RichText::new(format!(
            "{} {text}{suffix}{word}",
            fill(lang.t("analysis.played"), &[side_name(lang, variant, pos.side_to_move())])
        ));
        if let Some(c) = c {
            rt = rt.color(c);
        }
        ui.label(rt);
    }
    if let Some(best) = a.evals[s].and_then(|e| e.best)
        && a.moves.get(s) != Some(&best)
    {
        let text = pos.move_to_string(&best).unwrap_or_default();
        ui.label(
            egui::RichText::new(format!("{} {text}", lang.t("analysis.better")))
                .color(egui::Color32::from_rgb(90, 200, 120)),
        );
    }
    // Stepping.
    ui.horizontal(|ui| {
        for (label, to, enabled) in [
            ("|◀", 0, s > 0),
            ("◀", s.saturating_sub(1), s > 0),
            ("▶", (s + 1).min(n), s < n),
            ("▶|", n, s < n),
        ] {
            if ui.add_enabled(enabled, egui::Button::new(label).min_size(egui::vec2(52.0, 44.0))).clicked() {
                pick = Some(to);
            }
        }
        if ui.button(lang.t("hud.flip")).clicked() {
            view.turned = !view.turned;
        }
    });
    if a.took.is_some() {
        let t = a.tally();
        for side in [Side::First, Side::Second] {
            let [b, m] = t[side.index()];
            ui.label(fill(
                lang.t("analysis.tally"),
                &[side_name(lang, variant, side), &b.to_string(), &m.to_string()],
            ));
        }
    }
    (pick, leave)
}

/// The moves with their marks, in a scrolling grid; `scroll`: bring the selected one into view.
fn move_list(ui: &mut egui::Ui, a: &Analysis, scroll: bool) -> Option<usize> {
    let mut pick = None;
    let n = a.moves.len();
    let s = a.selected;
    let first_is_second = a.game.start().side_to_move() == Side::Second;
    let notation = a.game.move_strings();
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        egui::Grid::new("analysis-moves").num_columns(3).spacing([6.0, 2.0]).show(ui, |ui| {
            let mut k = 0;
            let mut number = 1;
            let mut cell = |ui: &mut egui::Ui, k: usize| {
                let (suffix, c) = mark_suffix(a.mark(k));
                let mut rt = egui::RichText::new(format!("{}{suffix}", notation[k])).monospace();
                if let Some(c) = c {
                    rt = rt.color(c);
                }
                let r = ui.add(egui::Button::selectable(s == k, rt).min_size(egui::vec2(96.0, 28.0)));
                if r.clicked() {
                    pick = Some(k);
                }
                if s == k && scroll {
                    r.scroll_to_me(Some(egui::Align::Center));
                }
            };
            while k < n {
                ui.label(egui::RichText::new(format!("{number:>3}.")).monospace());
                if k == 0 && first_is_second {
                    ui.label("…");
                } else {
                    cell(ui, k);
                    k += 1;
                }
                if k < n {
                    cell(ui, k);
                    k += 1;
                }
                number += 1;
                ui.end_row();
            }
        });
    });
    pick
}

fn analysis_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    analysis: Option<ResMut<Analysis>>,
    layout: Res<BoardLayout>,
    mut view: ResMut<BoardView>,
    mut area: ResMut<BoardArea>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
    mut scrolled: Local<Option<usize>>,
) -> Result {
    let Some(mut analysis) = analysis else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    let viewport = ctx.viewport_rect();
    let portrait = viewport.width() < viewport.height() * 0.95;
    let mut root = crate::hud::root_ui(ctx);
    let mut pick: Option<usize> = None;
    let mut leave = false;
    let a = &*analysis;
    let scroll = *scrolled != Some(a.selected);
    *scrolled = Some(a.selected);
    let panel = |ui: &mut egui::Ui| {
        if portrait {
            // Two columns: the graph and the position on the left, the moves on the right.
            let (w, h) = (ui.available_width(), ui.available_height());
            ui.horizontal_top(|ui| {
                let top_down = egui::Layout::top_down(egui::Align::Min);
                ui.allocate_ui_with_layout(egui::vec2(w * 0.6, h), top_down, |ui| {
                    (pick, leave) = info_panel(ui, lang, a, portrait, &mut view);
                });
                ui.separator();
                ui.allocate_ui_with_layout(egui::vec2(ui.available_width(), h), top_down, |ui| {
                    pick = pick.or(move_list(ui, a, scroll));
                });
            });
        } else {
            (pick, leave) = info_panel(ui, lang, a, portrait, &mut view);
            ui.separator();
            pick = pick.or(move_list(ui, a, scroll));
        }
    };
    if portrait {
        let height = (viewport.height() * 0.42).clamp(260.0, 480.0);
        egui::Panel::bottom("analysis").exact_size(height).show(&mut root, panel);
    } else {
        let width = (viewport.width() * 0.32).clamp(300.0, 440.0);
        egui::Panel::right("analysis").exact_size(width).show(&mut root, panel);
    }
    let rest = root.available_rect_before_wrap();
    let new_area = Rect::new(rest.min.x, rest.min.y, rest.max.x, rest.max.y);
    if area.0 != new_area {
        area.0 = new_area;
    }
    if settings.coordinates {
        crate::hud::draw_coordinates(ctx, &layout);
    }
    if analysis.took.is_none() {
        // The work runs in the background: the progress shows five times a second.
        ctx.request_repaint_after(std::time::Duration::from_millis(200));
    }
    if let Some(p) = pick
        && p != analysis.selected
    {
        analysis.selected = p;
    }
    if leave {
        close(&mut commands, &mut next, &mut analysis);
    }
    Ok(())
}

/// The recent games and the paste box, loaded when the screen opens.
#[derive(Resource, Default)]
struct Picker {
    doc: RecentGames,
    notice: Option<String>,
    pasted: String,
    error: Option<String>,
}

fn open_picker(mut commands: Commands, settings: Res<Settings>) {
    let (doc, notice) = records::load(settings.lang);
    commands.insert_resource(Picker { doc, notice, ..default() });
}

fn close_picker(mut commands: Commands) {
    commands.remove_resource::<Picker>();
}

/// One line about a recent game.
fn entry_text(lang: Lang, e: &RecordEntry) -> String {
    let variant = e.record.variant;
    let result = match e.result {
        Some(o) => crate::hud::result_text(lang, variant, &o),
        None => lang.t("records.unfinished").to_string(),
    };
    format!(
        "{} · {} · {}\n{} · {}",
        records::date_text(e.date),
        lang.t(variant_key(variant)),
        fill(lang.t("records.moves"), &[&e.record.moves.len().to_string()]),
        result,
        players_line(lang, variant, &e.seats)
    )
}

fn records_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    picker: Option<ResMut<Picker>>,
    session: Option<Res<Session>>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
) -> Result {
    let Some(mut picker) = picker else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    let mut chosen: Option<(AnyGame, Seats)> = None;
    egui::CentralPanel::default().show(&mut crate::hud::root_ui(ctx), |ui| {
        ui.horizontal(|ui| {
            if ui.add_sized([120.0, 44.0], egui::Button::new(lang.t("menu.back"))).clicked() {
                next.set(Screen::Title);
            }
            ui.heading(egui::RichText::new(lang.t("records.title")).size(28.0));
        });
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.set_max_width(760.0);
            let width = ui.available_width();
            if let Some(text) = picker.notice.clone() {
                egui::Frame::group(ui.style()).fill(egui::Color32::from_rgb(90, 40, 30)).show(ui, |ui| {
                    ui.set_max_width(width);
                    ui.label(egui::RichText::new(text).color(egui::Color32::WHITE));
                    if ui.button("OK").clicked() {
                        picker.notice = None;
                    }
                });
            }
            ui.heading(lang.t("records.recent"));
            if picker.doc.games.is_empty() {
                ui.label(lang.t("records.none"));
            }
            let mut failed = None;
            for e in &picker.doc.games {
                let button = egui::Button::new(egui::RichText::new(entry_text(lang, e)))
                    .min_size(egui::vec2(width, 52.0));
                if ui.add(button).clicked() {
                    match e.game() {
                        Ok(game) => chosen = Some((game, e.seats)),
                        Err(err) => failed = Some(err),
                    }
                }
            }
            if let Some(err) = failed {
                picker.error = Some(err);
            }
            ui.add_space(12.0);
            ui.heading(lang.t("records.paste"));
            ui.label(egui::RichText::new(lang.t("records.paste.help")).small());
            ui.add(
                egui::TextEdit::multiline(&mut picker.pasted)
                    .code_editor()
                    .desired_rows(5)
                    .desired_width(width)
                    .hint_text("alquerque\n1. c2-c3 c4xc2 …"),
            );
            if big_button(ui, lang.t("records.open"), width.min(320.0)).clicked() {
                match records::parse_pasted(&picker.pasted) {
                    Ok(game) if game.ply() == 0 => {
                        picker.error = Some(lang.t("records.no_moves").to_string())
                    }
                    Ok(game) => chosen = Some((game, Seats::two_players())),
                    Err(e) => picker.error = Some(e),
                }
            }
            if let Some(e) = &picker.error {
                ui.label(
                    egui::RichText::new(fill(lang.t("records.bad"), &[e]))
                        .color(egui::Color32::from_rgb(255, 120, 100)),
                );
            }
        });
    });
    if let Some((game, seats)) = chosen {
        picker.error = None;
        open(&mut commands, &mut next, game, seats, Screen::Records, session.map(|s| s.clone()));
    }
    Ok(())
}

/// The analysis screen and the "Analyse a game" screen.
pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (keys.in_set(crate::AppSet::Input), show_selected.in_set(crate::AppSet::Apply))
            .run_if(in_state(Screen::Analysis)),
    )
    .add_systems(OnEnter(Screen::Records), open_picker)
    .add_systems(OnExit(Screen::Records), close_picker)
    .add_systems(
        EguiPrimaryContextPass,
        (
            analysis_screen.run_if(in_state(Screen::Analysis)),
            records_screen.run_if(in_state(Screen::Records)),
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Side = Side::First;
    const B: Side = Side::Second;

    #[test]
    fn scores_become_first_side_evaluations() {
        assert_eq!(Eval::from_score(Score::Eval(130), W), Eval::Cp(130));
        assert_eq!(Eval::from_score(Score::Eval(130), B), Eval::Cp(-130));
        assert_eq!(Eval::from_score(Score::WinIn(5), B), Eval::Win { side: B, plies: 5 });
        assert_eq!(Eval::from_score(Score::LossIn(4), B), Eval::Win { side: W, plies: 4 });
        assert_eq!(Eval::Win { side: W, plies: 3 }.value(), CLAMP);
        assert_eq!(Eval::Win { side: B, plies: 3 }.value(), -CLAMP);
        assert_eq!(Eval::Cp(5000).value(), CLAMP);
        assert_eq!(Eval::Cp(-5000).value(), -CLAMP);
        assert_eq!(Eval::Over(None).value(), 0);
        assert_eq!(Eval::Over(Some(B)).value_for(B), CLAMP);
    }

    #[test]
    fn graph_values_are_soft_and_bounded() {
        assert_eq!(Eval::Cp(0).graph(), 0.0);
        assert!(Eval::Cp(100).graph() > 0.2 && Eval::Cp(100).graph() < 0.3);
        assert!(Eval::Cp(100_000).graph() < 0.95);
        assert!(Eval::Cp(-300).graph() < -0.5);
        assert_eq!(Eval::Win { side: W, plies: 9 }.graph(), 1.0);
        assert_eq!(Eval::Over(Some(B)).graph(), -1.0);
        // Monotonic.
        let vals: Vec<f32> = (-20..=20).map(|i| Eval::Cp(i * 50).graph()).collect();
        assert!(vals.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn texts() {
        let v = Variant::Alquerque;
        assert_eq!(eval_text(Lang::En, v, Eval::Cp(130)), "+1.3");
        assert_eq!(eval_text(Lang::En, v, Eval::Cp(-45)), "-0.5");
        assert_eq!(eval_text(Lang::En, v, Eval::Cp(0)), "0.0");
        assert_eq!(eval_text(Lang::En, v, Eval::Win { side: W, plies: 9 }), "White wins in 5");
        assert_eq!(
            eval_text(Lang::En, Variant::Latrunculi, Eval::Win { side: W, plies: 1 }),
            "Red wins in 1"
        );
        assert_eq!(eval_text(Lang::En, v, Eval::Win { side: B, plies: 4 }), "Black wins in 2");
        assert_eq!(eval_text(Lang::En, v, Eval::Over(None)), "Draw");
        assert!(eval_text(Lang::Vi, v, Eval::Win { side: B, plies: 4 }).contains('2'));
    }

    #[test]
    fn blunders_and_mistakes() {
        use Eval::*;
        // Hand-made sequences: (before, after, mover) -> mark.
        let cases = [
            (Cp(0), Cp(-20), W, Mark::Fine),
            (Cp(0), Cp(-70), W, Mark::Mistake),
            (Cp(0), Cp(-160), W, Mark::Blunder),
            // For the second side, lower is better.
            (Cp(0), Cp(160), B, Mark::Blunder),
            (Cp(0), Cp(-160), B, Mark::Fine),
            // Winning to merely better.
            (Win { side: W, plies: 7 }, Cp(300), W, Mark::Blunder),
            // Winning to still far ahead: no mark.
            (Win { side: W, plies: 7 }, Cp(900), W, Mark::Fine),
            // From a fair game into a forced loss.
            (Cp(40), Win { side: B, plies: 6 }, W, Mark::Blunder),
            // Lost either way.
            (Win { side: B, plies: 8 }, Win { side: B, plies: 4 }, W, Mark::Fine),
            (Cp(-1500), Cp(-3000), W, Mark::Fine),
            (Cp(-600), Win { side: B, plies: 4 }, W, Mark::Fine),
            // Still far ahead after a worse move: no mark; no longer: marked.
            (Cp(1000), Cp(600), W, Mark::Fine),
            (Cp(700), Cp(450), W, Mark::Blunder),
            (Cp(-400), Cp(-480), W, Mark::Mistake),
            // Improving is never marked.
            (Cp(-200), Cp(100), W, Mark::Fine),
            // A game-ending blunder: resigning is not a move, but stepping into a loss is.
            (Cp(0), Over(Some(B)), W, Mark::Blunder),
        ];
        for (i, (before, after, mover, mark)) in cases.into_iter().enumerate() {
            assert_eq!(classify(before, after, mover, false, false), mark, "case {i}");
        }
        // The engine's own move and the only legal move are never marked.
        assert_eq!(classify(Cp(0), Cp(-500), W, true, false), Mark::Fine);
        assert_eq!(classify(Cp(0), Cp(-500), W, false, true), Mark::Fine);
    }

    #[test]
    fn analyser_evaluates_every_position_in_order() {
        let mut game = AnyGame::new(Variant::Alquerque);
        for s in ["c2-c3", "c4xc2"] {
            game.play_str(s).unwrap();
        }
        let mut a = Analyser::with_nodes(&game, 5_000);
        let mut seen = Vec::new();
        while !a.is_done() {
            if let Some((ply, e)) = a.step(1_000) {
                seen.push(ply);
                assert!(e.best.is_some());
            }
        }
        assert_eq!(seen, vec![0, 1, 2]);
    }

    #[test]
    fn prefixes() {
        let mut game = AnyGame::new(Variant::Alquerque);
        game.play_str("c2-c3").unwrap();
        game.play_str("c4xc2").unwrap();
        assert_eq!(prefix(&game, 1).move_strings(), vec!["c2-c3"]);
        assert_eq!(prefix(&game, 5).ply(), 2);
        assert_eq!(prefix(&game, 0).ply(), 0);
    }
}
