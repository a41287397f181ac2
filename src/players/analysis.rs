//! The post-game analysis's work: the engine's review of a finished game (`ludus_ai::review`)
//! run in the background, the evaluations as they come, the position shown, and opening and
//! leaving the analysis (the screen is `screens::analysis`). Once every position is evaluated,
//! the puzzles of the game (`ludus_ai::puzzle::from_game`: a person's missed wins and captures)
//! are made and checked in the background too. What the player asks of the analysis screen
//! comes as an [`AnalysisIntent`], acted on here ([`act`]).

use crate::app::{AppSet, Screen};
use crate::board::view::BoardView;
use crate::game::session::{Level, Player, Seats, Session};
use crate::i18n::Lang;
use crate::net::connection::Link;
use crate::net::views::{Archives, NetNotice};
use crate::platform::background::Background;
use crate::players::endgames::Endgames;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use ludus_ai::puzzle::from_game::{Finder, GamePuzzle, candidates};
use ludus_ai::review::{Analyser, Exact, Judgement, Mark, PlyEval, Source, judge, prefix};
use ludus_ai::solve::Value;
use ludus_ai::tablebase::Tablebase;
use ludus_protocol::ArchivedGame;
use ludus_protocol::client::{ClientConfig, ValueRequest};
use ludus_protocol::values::{PositionValueView, ValueWord};
use ludus_rules::{AnyGame, AnyMove, RecordError, Side, Variant};
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
    /// The game's puzzles that passed the check so far.
    puzzles: Vec<GamePuzzle>,
    /// Every candidate has been made and checked.
    puzzles_checked: bool,
    puzzle_work: Option<Background<Found>>,
    /// The server's proven values of the positions (Alquerque, when a server is known).
    pub served: ServedValues,
}

/// The server's value service's answers for the game's positions, asked one at a time (the
/// position shown first), while a server is known and answers.
#[derive(Default)]
pub struct ServedValues {
    /// Per position (as [`Analysis::evals`]): the server's answer, once it came.
    pub values: Vec<Option<PositionValueView>>,
    /// The request in flight, and its position.
    asking: Option<(usize, ValueRequest)>,
    /// The server asked; `None` until one is known.
    server: Option<ClientConfig>,
    /// The server does not serve values (or cannot be reached): nothing more is asked.
    pub gave_up: bool,
    /// Why, in English (for the log and tests).
    pub failure: Option<String>,
    /// Asked to wait (`429`): nothing is asked before then.
    wait_until: Option<Instant>,
}

impl ServedValues {
    /// Asks `server` from now on (a new server starts the answers again).
    fn use_server(&mut self, server: ClientConfig, positions: usize) {
        let same = self.server.as_ref().is_some_and(|s| s.connect_url() == server.connect_url());
        if !same {
            *self = ServedValues { values: vec![None; positions], server: Some(server), ..default() };
        }
    }

    /// Takes the answer that came and asks for the next position still unknown (`shown` first).
    fn poll(&mut self, game: &AnyGame, shown: usize) {
        if let Some((k, request)) = self.asking.as_mut()
            && let Some(answer) = request.poll()
        {
            let k = *k;
            self.asking = None;
            match answer {
                Ok(view) => self.values[k] = Some(view),
                Err(e) if e.status == Some(429) => {
                    self.wait_until = Some(Instant::now() + std::time::Duration::from_secs(10));
                }
                Err(e) => {
                    info!("no values from the server: {}", e.reason);
                    self.gave_up = true;
                    self.failure = Some(e.reason);
                }
            }
        }
        if self.asking.is_some() || self.gave_up || self.wait_until.is_some_and(|t| Instant::now() < t) {
            return;
        }
        let Some(server) = self.server.as_ref() else { return };
        // The final position is over: the service answers only for positions still in play.
        let open = |k: usize| k < game.moves().len() || !game.is_over();
        let next = std::iter::once(shown)
            .chain(0..self.values.len())
            .find(|&k| open(k) && self.values.get(k).is_some_and(Option::is_none));
        if let Some(k) = next {
            let position = game.position_at(k).to_string();
            self.asking = Some((k, ValueRequest::start(server, &position)));
        }
    }

    /// The server's exact value of position `k` for the judgement: its value for the side to
    /// move there, and whether the move played from it keeps that value.
    fn exact(&self, game: &AnyGame, k: usize) -> Option<(Exact, Option<bool>)> {
        let view = self.values.get(k)?.as_ref()?;
        let to_move = game.position_at(k).side_to_move();
        let value = value_for(view.value, to_move)?;
        let keeps = game.moves().get(k).and_then(|mv| {
            let text = game.position_at(k).move_to_string(mv)?;
            let played = view.move_value(&text)?;
            (played.value != ValueWord::Unknown).then_some(played.value == view.value)
        });
        Some((Exact { value, source: Source::Server }, keeps))
    }
}

/// A value word of the service, for `to_move`, as the review's value (`None`: unknown).
fn value_for(word: ValueWord, to_move: Side) -> Option<Value> {
    match word {
        ValueWord::Win => Some(Value::from_winner(Some(to_move))),
        ValueWord::Loss => Some(Value::from_winner(Some(!to_move))),
        ValueWord::Draw => Some(Value::Draw),
        ValueWord::Unknown => None,
    }
}

/// What the making and checking of the game's puzzles reports.
enum Found {
    /// A puzzle that passed the check.
    Puzzle(GamePuzzle),
    /// Every candidate has been looked at.
    Done,
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
            puzzles: Vec::new(),
            puzzles_checked: false,
            puzzle_work: None,
            served: ServedValues::default(),
        }
    }

    /// The game's puzzles (see `ludus_ai::puzzle::from_game`) once every one has been made
    /// and checked, in the game's order; `None` while that is going on.
    pub fn game_puzzles(&self) -> Option<&[GamePuzzle]> {
        self.puzzles_checked.then_some(self.puzzles.as_slice())
    }

    /// Whether background work is going on or about to start.
    fn busy(&self) -> bool {
        self.starting || self.work.is_some() || (self.took.is_some() && !self.puzzles_checked)
    }

    /// Stops the background work for good (the puzzles found so far are all there will be).
    pub fn stop(&mut self) {
        self.work = None;
        self.starting = false;
        self.puzzle_work = None;
        self.puzzles_checked = true;
    }

    /// Starts making the game's puzzles from the evaluations (once), and takes those checked.
    fn poll_puzzles(&mut self, tb: Option<Arc<Tablebase>>) {
        if self.puzzle_work.is_none() {
            let people = self.seats.players.map(|p| !matches!(p, Player::Computer(_)));
            let found = candidates(&self.game, people, &self.evals);
            let mut finder = Finder::for_game(&self.game, &found, tb);
            self.puzzle_work = Some(Background::spawn("game-puzzles", move |out| {
                out.extend(finder.step(2_000).map(Found::Puzzle));
                let done = finder.is_done();
                if done {
                    out.push(Found::Done);
                }
                done
            }));
        }
        let Some(work) = self.puzzle_work.as_ref() else { return };
        for found in work.take() {
            match found {
                Found::Puzzle(p) => self.puzzles.push(p),
                Found::Done => self.puzzles_checked = true,
            }
        }
        if self.puzzles_checked {
            self.puzzle_work = None;
            info!("{} puzzles from the game", self.puzzles.len());
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

    /// How move `k` (from position `k` to `k + 1`) was judged, once both are evaluated: by
    /// exact values where known (the rules, the tables, the book), else by the search.
    pub fn judgement(&self, k: usize) -> Option<Judgement> {
        let mv = self.moves.get(k)?;
        let before = self.with_served(k)?;
        let after = self.with_served(k + 1)?;
        let mover = self.game.position_at(k).side_to_move();
        Some(judge(&before, &after, mover, before.best == Some(*mv), self.forced[k]))
    }

    /// Position `k`'s evaluation, with the server's exact value where the game's own sources
    /// have none.
    fn with_served(&self, k: usize) -> Option<PlyEval> {
        let mut e = self.evals.get(k).copied().flatten()?;
        if e.exact.is_none()
            && let Some((exact, keeps)) = self.served.exact(&self.game, k)
        {
            e.exact = Some(exact);
            e.keeps = keeps;
        }
        Some(e)
    }

    /// The mark of move `k` (see [`Analysis::judgement`]).
    pub fn mark(&self, k: usize) -> Option<Mark> {
        self.judgement(k).map(|j| j.mark)
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

    /// Takes the evaluations the background work has finished (starting it the first time),
    /// then the game's puzzles.
    /// `endgames`: the tables and the book of proven values, when the game has them.
    pub fn poll(&mut self, endgames: Option<&Endgames>) {
        let tb = endgames.and_then(|e| e.tb.clone());
        if self.starting {
            self.starting = false;
            self.started = Instant::now();
            let book =
                endgames.filter(|_| self.game.variant() == Variant::Alquerque).and_then(Endgames::book);
            let mut analyser = Analyser::new(&self.game).with_tablebase(tb.clone()).with_book(book);
            self.work = Some(Background::spawn("analysis", move |out| {
                out.extend(analyser.step(2_000));
                analyser.is_done()
            }));
        }
        if self.took.is_some() {
            self.poll_puzzles(tb);
            return;
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

/// What the player asks of the analysis (the screen `screens::analysis` and its keys write
/// them; [`act`] carries them out).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisIntent {
    /// Show the position after this many moves.
    Show(usize),
    /// Turn the board.
    Flip,
    /// Play the game's puzzles (once they are checked).
    Puzzles,
    /// Leave the analysis for where it was opened from.
    Leave,
}

/// Carries out the player's intents on the analysis.
pub fn act(
    mut intents: MessageReader<AnalysisIntent>,
    analysis: Option<ResMut<Analysis>>,
    mut view: Option<ResMut<BoardView>>,
    mut commands: Commands,
    next: Option<ResMut<NextState<Screen>>>,
) {
    let (Some(mut a), Some(mut next)) = (analysis, next) else {
        intents.clear();
        return;
    };
    for intent in intents.read().copied().collect::<Vec<_>>() {
        match intent {
            AnalysisIntent::Show(p) => {
                let p = p.min(a.moves().len());
                if a.selected != p {
                    a.selected = p;
                }
            }
            AnalysisIntent::Flip => {
                if let Some(view) = view.as_mut() {
                    view.turned = !view.turned;
                }
            }
            AnalysisIntent::Puzzles => {
                if !open_game_puzzles(&mut commands, &mut next, &mut a) {
                    continue;
                }
                if let Some(view) = view.as_mut() {
                    view.hint = None;
                    view.played = None;
                }
                return;
            }
            AnalysisIntent::Leave => {
                close(&mut commands, &mut next, &mut a);
                return;
            }
        }
    }
}

/// Leaves the analysis for its game's puzzles ("Puzzles from this game"), once they are
/// checked; false if there are none (yet).
pub fn open_game_puzzles(
    commands: &mut Commands,
    next: &mut NextState<Screen>,
    analysis: &mut Analysis,
) -> bool {
    let Some(found) = analysis.game_puzzles().filter(|f| !f.is_empty()) else {
        return false;
    };
    if !crate::game::puzzles::start_from_game(commands, found.to_vec()) {
        return false;
    }
    analysis.stop();
    commands.remove_resource::<Analysis>();
    next.set(Screen::Playing);
    true
}

fn poll_analysis(analysis: Option<ResMut<Analysis>>, endgames: Option<Res<Endgames>>) {
    if let Some(mut a) = analysis
        && a.busy()
    {
        a.poll(endgames.as_deref());
    }
}

/// A game to analyse, asked for by a screen (the game-over card, "Analyse a game"): the
/// analysis opens on it, its "Back" returning to `back` with the game on the board now.
#[derive(Message, Clone, Debug)]
pub struct OpenAnalysis {
    pub game: AnyGame,
    pub seats: Seats,
    pub back: Screen,
}

/// Opens the analysis asked for (the last ask of the frame wins).
fn open_asked(
    mut asked: MessageReader<OpenAnalysis>,
    session: Option<Res<Session>>,
    next: Option<ResMut<NextState<Screen>>>,
    mut commands: Commands,
) {
    let Some(ask) = asked.read().last().cloned() else { return };
    let Some(mut next) = next else { return };
    open(&mut commands, &mut next, ask.game, ask.seats, ask.back, session.map(|s| s.clone()));
}

/// The game an archive records, with the person here on their side if they played it.
pub fn archived_game(archive: &ArchivedGame, me: Option<&str>) -> Result<(AnyGame, Seats), RecordError> {
    let game = AnyGame::from_record(&archive.record)?;
    let local = archive
        .players
        .iter()
        .position(|p| Some(p.as_str()) == me)
        .map(|i| if i == 0 { Side::First } else { Side::Second });
    Ok((game, Seats::online(local)))
}

/// The archive the profile asked for came: its replay and analysis open, "Back" returning to
/// the profile; a record that does not replay is a refusal to show.
fn replay_archive(
    mut archives: ResMut<Archives>,
    link: Res<Link>,
    mut notice: ResMut<NetNotice>,
    session: Option<Res<Session>>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
) {
    let Some(archive) = archives.came.take() else { return };
    match archived_game(&archive, link.nickname.as_deref()) {
        Ok((game, seats)) => {
            let back = session.map(|s| s.clone());
            open(&mut commands, &mut next, game, seats, Screen::Profile, back);
        }
        Err(e) => {
            warn!("an archived game does not replay: {e}");
            notice.0 = Some((ludus_protocol::ErrorCode::Malformed, e.to_string()));
        }
    }
}

/// The analysis without any screen: the background work and the player's intents (tests run
/// it headless).
pub fn plugin(app: &mut App) {
    app.add_message::<AnalysisIntent>().add_message::<OpenAnalysis>().add_systems(
        Update,
        (act.in_set(AppSet::Apply), open_asked.in_set(AppSet::Apply), poll_analysis.in_set(AppSet::Think)),
    );
}

/// The analysis's online part (its resources come with the link): the replay of an archived
/// game asked for on the profile screen, and the server's proven values of the positions.
pub fn archive_plugin(app: &mut App) {
    app.add_systems(Update, replay_archive.in_set(AppSet::Apply).run_if(in_state(Screen::Profile)));
    app.add_systems(Update, ask_server_values.in_set(AppSet::Think));
}

/// The analysis of an Alquerque game asks the server's value service, when the player is
/// online or has chosen a server: every position's proven value, and every move's.
fn ask_server_values(
    analysis: Option<ResMut<Analysis>>,
    link: Res<Link>,
    config: Res<crate::net::connection::OnlineConfig>,
) {
    let Some(mut a) = analysis else { return };
    if a.game.variant() != Variant::Alquerque {
        return;
    }
    let server = if link.is_active() { link.server.as_str() } else { config.server.as_str() };
    if a.served.server.is_none() && !a.served.gave_up {
        match crate::net::address::client_config(server) {
            Ok(c) => {
                let positions = a.evals.len();
                a.served.use_server(c, positions);
            }
            Err(_) => return,
        }
    }
    let (shown, a) = (a.selected, &mut *a);
    a.served.poll(&a.game, shown);
}

/// Seats for looking at a game: the board turned as it was for the person who played, and
/// nobody online (the server's news must not touch the position shown).
fn review_seats(seats: Seats) -> Seats {
    match seats.human_side() {
        Some(side) => Seats::versus_computer(side, Level::Hard),
        None => Seats::two_players(),
    }
}

/// The analysis of `game` and the review session that shows it (the board turned as it was
/// for the person who played), for a start straight into the analysis; "Back" leads to the
/// title.
pub fn opened(game: AnyGame, seats: Seats) -> (Analysis, Session) {
    let analysis = Analysis::new(game, seats);
    let session = Session::review(prefix(&analysis.game, 0), review_seats(seats));
    (analysis, session)
}

/// Reads a game from a file for `--analyse` and `--game-over`: the recent games as the game
/// keeps them (`records.json`: the newest, with who played), one record, or a game in notation
/// (`game::records::parse_pasted`; then two players). An error says what is wrong, in English
/// (the command line's language).
pub fn read_game_file(path: &std::path::Path) -> Result<(AnyGame, Seats), GameFileError> {
    let file = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|source| GameFileError::Read { file: file.clone(), source })?;
    let not_a_game = |e: crate::game::records::PasteError| GameFileError::NotAGame {
        file: file.clone(),
        problem: e.text(Lang::En),
    };
    if let Ok(recent) = crate::game::records::RecentGames::from_json(&text) {
        let entry = recent.games.first().ok_or_else(|| GameFileError::NoGame(file.clone()))?;
        return Ok((entry.game().map_err(not_a_game)?, entry.seats));
    }
    let game = crate::game::records::parse_pasted(&text).map_err(not_a_game)?;
    Ok((game, Seats::two_players()))
}

/// Why a file given to `--analyse` or `--game-over` holds no game to show.
#[derive(Debug, thiserror::Error)]
pub enum GameFileError {
    #[error("{file}: {source}")]
    Read { file: String, source: std::io::Error },
    #[error("{0}: no game in the file")]
    NoGame(String),
    #[error("{file}: {problem}")]
    NotAGame { file: String, problem: String },
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
    analysis.stop();
    let back = analysis.back.take().unwrap_or(ReturnTo { screen: Screen::Title, session: None });
    commands.remove_resource::<Analysis>();
    match back.session {
        Some(s) => commands.insert_resource(s),
        None => commands.remove_resource::<Session>(),
    }
    next.set(back.screen);
}
