//! The game being played: the record, who plays each side, redo, and the messages that change it.

use bevy::prelude::*;
use ludus_rules::{AnyGame, AnyMove, Outcome, Reason, Side, Variant};
use serde::{Deserialize, Serialize};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Player {
    /// A person at this device.
    Human,
    /// The computer at a level.
    Computer(Level),
    /// Someone playing over the network (online games): their moves come from the server.
    Remote,
}

/// The computer's strength: the engine's own levels (the game offers [`LEVELS`]).
pub use ludus_ai::Level;

/// The levels the game offers, weakest first.
pub const LEVELS: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

/// How the sides are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seats {
    /// `[first, second]`.
    pub players: [Player; 2],
}

impl Seats {
    /// A person against the computer, the person playing `human`.
    pub fn versus_computer(human: Side, level: Level) -> Seats {
        let mut players = [Player::Computer(level); 2];
        players[human.index()] = Player::Human;
        Seats { players }
    }

    /// Two people on this device.
    pub fn two_players() -> Seats {
        Seats { players: [Player::Human; 2] }
    }

    /// Who plays `side`.
    pub fn player(&self, side: Side) -> Player {
        self.players[side.index()]
    }

    /// The one human side against the computer or someone online, if this is such a game.
    pub fn human_side(&self) -> Option<Side> {
        match self.players {
            [Player::Human, Player::Computer(_) | Player::Remote] => Some(Side::First),
            [Player::Computer(_) | Player::Remote, Player::Human] => Some(Side::Second),
            _ => None,
        }
    }

    /// An online game: the person here plays `local` (`None`: watches), the others are remote.
    pub fn online(local: Option<Side>) -> Seats {
        let mut players = [Player::Remote; 2];
        if let Some(side) = local {
            players[side.index()] = Player::Human;
        }
        Seats { players }
    }

    /// Whether nobody at this device is a computer.
    pub fn is_two_players(&self) -> bool {
        self.players == [Player::Human; 2]
    }

    /// Whether someone plays over the network (an online game, played or watched).
    pub fn is_online(&self) -> bool {
        self.players.contains(&Player::Remote)
    }
}

/// The game in progress.
#[derive(Resource, Clone, Debug)]
pub struct Session {
    /// The record.
    pub game: AnyGame,
    /// Who plays each side.
    pub seats: Seats,
    /// Moves taken back, most recent last, for redo.
    pub redo: Vec<AnyMove>,
    /// Bumped at every change, so views and the AI notice.
    pub revision: u64,
    /// What the game is for: played, watched, a lesson, or looked at after the end.
    pub mode: Mode,
    /// The draw offer on the table, if any, and how the last one was answered.
    pub draw: DrawOffers,
}

/// What the game on the board is for. Who plays each side is the [`Seats`]' business; the mode
/// says whether the person here plays it, watches it, learns from it or looks back at it, and so
/// who may touch the board, what is saved and recorded, and what a new game starts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// A game played here: against the computer, by two players on this device, or online in
    /// a seat.
    #[default]
    Play,
    /// Watching an online game: the person here proposes moves instead of playing them.
    Watch,
    /// A lesson or a puzzle: nothing is saved or recorded, and a new game goes back to its
    /// position. With two players' seats the person plays one move (then the board waits);
    /// against the computer the position is played to the end.
    Lesson,
    /// A position of a finished game shown by the analysis: nobody plays, nothing is saved.
    Review,
    /// A lesson or puzzle that is over (solved, or its solution shown): still a lesson, and
    /// nobody plays any more, as in a review.
    LessonOver,
}

/// Draw offers: one open at a time, at most one per side and move, lapsing when the offerer
/// moves. In a local game the session keeps them itself; online the server does, and its news
/// comes here ([`ServerUpdate::DrawOffered`] and the rest), so that the screen reads one place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawOffers {
    /// The side whose offer is open.
    pub open: Option<Side>,
    /// The ply at which each side last offered (one offer per side and move).
    pub offered_at: [Option<usize>; 2],
    /// The side that declined the last offer (until the next move).
    pub declined_by: Option<Side>,
}

impl Session {
    /// A new game.
    pub fn new(variant: Variant, seats: Seats) -> Session {
        Session::from_game(AnyGame::new(variant), seats)
    }

    /// A game from a record or position.
    pub fn from_game(game: AnyGame, seats: Seats) -> Session {
        Session { game, seats, redo: Vec::new(), revision: 0, mode: Mode::Play, draw: DrawOffers::default() }
    }

    /// A lesson from `position`: the person plays the side to move, one move.
    pub fn lesson(position: ludus_rules::AnyPosition) -> Session {
        Session::lesson_with(position, Seats::two_players())
    }

    /// A lesson from `position` played to the end against the computer at `level`.
    pub fn lesson_against(position: ludus_rules::AnyPosition, level: Level) -> Session {
        let person = position.side_to_move();
        Session::lesson_with(position, Seats::versus_computer(person, level))
    }

    fn lesson_with(position: ludus_rules::AnyPosition, seats: Seats) -> Session {
        Session { mode: Mode::Lesson, ..Session::from_game(AnyGame::from_position(position), seats) }
    }

    /// A position of a finished game to look at (the analysis): not playable, never saved.
    pub fn review(game: AnyGame, seats: Seats) -> Session {
        Session { mode: Mode::Review, ..Session::from_game(game, seats) }
    }

    /// Whether nobody plays here: a position of a finished game under review (the analysis),
    /// or a lesson or puzzle that is over.
    pub fn is_review(&self) -> bool {
        matches!(self.mode, Mode::Review | Mode::LessonOver)
    }

    /// Whether this is a lesson or a puzzle.
    pub fn is_lesson(&self) -> bool {
        matches!(self.mode, Mode::Lesson | Mode::LessonOver)
    }

    /// Whether the person here watches an online game.
    pub fn is_watching(&self) -> bool {
        self.mode == Mode::Watch
    }

    /// A lesson of one move: the person plays the side to move once, then the board waits.
    pub fn is_one_move_lesson(&self) -> bool {
        self.is_lesson() && self.seats.is_two_players()
    }

    /// Whether a person at this device is to move now.
    pub fn human_to_move(&self) -> bool {
        // A one-move lesson: then the board waits for "try again" or the next lesson.
        let lesson_played = self.is_one_move_lesson() && self.game.ply() > 0;
        !(self.is_review() || lesson_played || self.game.is_over())
            && self.seats.player(self.game.side_to_move()) == Player::Human
    }

    /// Whether the person here may pick a move on the board now: their own turn, or a proposal
    /// while watching.
    pub fn can_touch(&self) -> bool {
        self.human_to_move() || (self.is_watching() && !self.game.is_over())
    }

    /// The level of the computer to move now, if the computer is to move.
    pub fn computer_to_move(&self) -> Option<Level> {
        if self.is_review() || self.game.is_over() {
            return None;
        }
        match self.seats.player(self.game.side_to_move()) {
            Player::Computer(level) => Some(level),
            Player::Human | Player::Remote => None,
        }
    }

    /// Plays a legal move; clears redo unless it is the move redo would play.
    pub fn play(&mut self, mv: &AnyMove) -> Result<Option<Outcome>, ludus_rules::IllegalMove> {
        let mover = self.game.side_to_move();
        let outcome = self.game.play(mv)?;
        // The mover's own open offer lapses with the move; a declined offer is old news.
        if self.draw.open == Some(mover) {
            self.draw.open = None;
        }
        self.draw.declined_by = None;
        if self.redo.last() == Some(mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.revision += 1;
        Ok(outcome)
    }

    /// Takes back moves: against the computer, back to the person's previous turn; otherwise
    /// one move. Returns whether anything changed.
    pub fn undo(&mut self) -> bool {
        if self.seats.is_online() {
            return false;
        }
        // Taking back forgets the offers: the plies they were made at are played again.
        self.draw = DrawOffers::default();
        if self.game.withdraw_ending() {
            self.revision += 1;
            return true;
        }
        let Some(mv) = self.game.undo() else {
            return false;
        };
        self.redo.push(mv);
        if let Some(human) = self.seats.human_side() {
            while self.game.side_to_move() != human {
                match self.game.undo() {
                    Some(mv) => self.redo.push(mv),
                    None => break,
                }
            }
        }
        self.revision += 1;
        true
    }

    /// Replays taken-back moves: against the computer, up to the person's next turn.
    pub fn redo(&mut self) -> bool {
        if self.seats.is_online() {
            return false;
        }
        let Some(mv) = self.redo.pop() else {
            return false;
        };
        if self.game.play(&mv).is_err() {
            self.redo.clear();
            return false;
        }
        if let Some(human) = self.seats.human_side() {
            while self.game.side_to_move() != human && !self.game.is_over() {
                let Some(mv) = self.redo.pop() else { break };
                if self.game.play(&mv).is_err() {
                    self.redo.clear();
                    break;
                }
            }
        }
        self.revision += 1;
        true
    }

    /// A new game of the same variant with the same seats.
    pub fn restart(&mut self) {
        let revision = self.revision + 1;
        if self.is_lesson() {
            let start = self.game.start();
            *self = Session { revision, ..Session::lesson_with(start, self.seats) };
            return;
        }
        *self = Session { revision, ..Session::new(self.game.variant(), self.seats) };
    }

    /// Shows `game` (a position of a finished game under review) instead: nobody plays it.
    pub fn review_position(&mut self, game: AnyGame) {
        let revision = self.revision + 1;
        *self = Session { revision, ..Session::review(game, self.seats) };
    }

    /// Applies what the server decided (online games). A move that does not fit leaves the
    /// session behind the server, which the network code notices (it then reconnects, and the
    /// server sends the whole game again).
    pub fn follow_server(&mut self, update: &ServerUpdate) {
        match update {
            ServerUpdate::Move { ply, mv } => {
                if !self.play_server_move(*ply, mv) {
                    warn!("the server's move {mv} at ply {ply} does not fit the game shown");
                }
            }
            ServerUpdate::Game(game) => {
                // The whole game again (a reconnection): the server tells an open offer next.
                self.draw = DrawOffers::default();
                if !self.catch_up(game) {
                    self.game = (**game).clone();
                    self.redo.clear();
                    self.revision += 1;
                }
            }
            ServerUpdate::End(outcome) => {
                if self.game.outcome() != Some(*outcome) {
                    self.game.withdraw_ending();
                    let _ = self.game.end(*outcome);
                    self.revision += 1;
                }
            }
            ServerUpdate::DrawOffered(by) => {
                if self.draw.open != Some(*by) {
                    self.note_offer(*by);
                }
            }
            ServerUpdate::DrawDeclined(by) => {
                self.draw.open = None;
                self.draw.declined_by = Some(*by);
                self.revision += 1;
            }
            ServerUpdate::DrawLapsed => {
                if self.draw.open.take().is_some() {
                    self.revision += 1;
                }
            }
            ServerUpdate::Refused { confirmed } => {
                if self.game.ply() > *confirmed {
                    while self.game.ply() > *confirmed {
                        self.game.withdraw_ending();
                        self.game.undo();
                    }
                    self.revision += 1;
                }
            }
        }
    }

    /// Plays the server's move `mv` at `ply`: confirms the person's own move already shown,
    /// replaces a different one, or plays it. False when the session is out of step.
    fn play_server_move(&mut self, ply: usize, mv: &str) -> bool {
        let shown = self.game.move_strings();
        if ply < shown.len() {
            if shown[ply] == mv {
                return true;
            }
            while self.game.ply() > ply {
                self.game.withdraw_ending();
                self.game.undo();
            }
        } else if ply > shown.len() {
            return false;
        }
        self.game.withdraw_ending();
        match self.game.position().parse_move(mv) {
            Ok(m) => self.play(&m).is_ok(),
            Err(_) => {
                self.revision += 1;
                false
            }
        }
    }

    /// Brings the game to `game` (the server's) by playing the moves it lacks, when the game here
    /// is the start of it; false when the whole game must be replaced.
    fn catch_up(&mut self, game: &AnyGame) -> bool {
        let mine = self.game.move_strings();
        let theirs = game.move_strings();
        if mine.len() > theirs.len() || theirs[..mine.len()] != mine[..] || self.game.start() != game.start()
        {
            return false;
        }
        for mv in &game.moves()[mine.len()..] {
            if self.game.play(mv).is_err() {
                return false;
            }
        }
        if let Some(outcome) = game.outcome()
            && self.game.outcome() != Some(outcome)
        {
            let _ = self.game.end(outcome);
        }
        self.revision += 1;
        true
    }

    /// The side to move resigns (against the computer: the person resigns).
    pub fn resign(&mut self) -> bool {
        if self.seats.is_online() {
            // The server decides; its verdict comes back as the game's end.
            return false;
        }
        let loser = self.seats.human_side().unwrap_or(self.game.side_to_move());
        let ok = self.game.end(Outcome::win(!loser, Reason::Resignation)).is_ok();
        if ok {
            self.revision += 1;
        }
        ok
    }

    /// The side the person here offers a draw for, or answers one for: their own side against
    /// the computer or online, the side to move with two players on one device (an offer
    /// stands for the other player to answer on the same screen).
    pub fn offering_side(&self) -> Option<Side> {
        if self.mode != Mode::Play {
            return None;
        }
        self.seats.human_side().or_else(|| self.seats.is_two_players().then(|| self.game.side_to_move()))
    }

    /// Whether `side` may offer a draw now: a game going on in which both sides have moved (from
    /// the game's usual start; a position set up for study may be drawn at once), no offer of
    /// theirs open, none made yet at this move.
    pub fn may_offer_draw(&self, side: Side) -> bool {
        let from_the_start = self.game.start() == self.game.variant().start();
        !matches!(self.mode, Mode::Review | Mode::Lesson | Mode::LessonOver)
            && !self.game.is_over()
            && (self.game.ply() >= 2 || !from_the_start)
            && self.draw.open.is_none()
            && self.draw.offered_at[side.index()] != Some(self.game.ply())
    }

    /// `side` offers a draw (a local game; online the server decides). False when it may not.
    pub fn offer_draw(&mut self, side: Side) -> bool {
        if self.seats.is_online() || !self.may_offer_draw(side) {
            return false;
        }
        self.note_offer(side);
        true
    }

    /// Records an offer by `side` (made here, or told by the server).
    fn note_offer(&mut self, side: Side) {
        self.draw.open = Some(side);
        self.draw.offered_at[side.index()] = Some(self.game.ply());
        self.draw.declined_by = None;
        self.revision += 1;
    }

    /// The open offer is answered by the other side (a local game): accepted, the game is drawn
    /// by agreement; declined, it goes on. False when there is no offer to answer.
    pub fn answer_draw(&mut self, accept: bool) -> bool {
        if self.seats.is_online() || self.game.is_over() {
            return false;
        }
        let Some(by) = self.draw.open.take() else { return false };
        if accept {
            let _ = self.game.end(Outcome::draw(Reason::Agreement));
        } else {
            self.draw.declined_by = Some(!by);
        }
        self.revision += 1;
        true
    }
}

/// Asks for a hint: the Hard level's move, drawn on the board.
#[derive(Message, Clone, Copy, Debug)]
pub struct HintRequest;

/// What the server decided about the game on the board (online games).
#[derive(Clone, Debug)]
pub enum ServerUpdate {
    /// The server's move `mv` at `ply`: confirms the person's own move already shown, replaces a
    /// different one, or plays it.
    Move {
        /// The ply the move was played at.
        ply: usize,
        /// The move in notation.
        mv: String,
    },
    /// The whole game as the server has it (a reconnection): the moves the board lacks are
    /// played, or the game is replaced.
    Game(Box<AnyGame>),
    /// The server's verdict ends the game (resignation, time, a player gone).
    End(Outcome),
    /// The server refused the person's move: back to the moves it confirmed.
    Refused {
        /// How many moves the server has confirmed.
        confirmed: usize,
    },
    /// A player offers a draw.
    DrawOffered(Side),
    /// The offer was declined by this side.
    DrawDeclined(Side),
    /// The offer lapsed: its side moved.
    DrawLapsed,
}

/// Requests that change the session: the person's taps and buttons, the keyboard, the computer's
/// moves and the server's news all come through here, and only [`Session`] changes itself.
#[derive(Message, Clone, Debug)]
pub enum GameCommand {
    /// Play this move (ignored unless legal).
    Play(AnyMove),
    /// Take back.
    Undo,
    /// Replay a taken-back move.
    Redo,
    /// Resign.
    Resign,
    /// The person here offers a draw (for [`Session::offering_side`]).
    OfferDraw,
    /// The open draw offer is answered: accepted or declined (by the person here, or by the
    /// computer it was offered to).
    AnswerDraw(bool),
    /// Start a new game with the same settings.
    NewGame,
    /// What the server confirmed (online games): applied as told, never sent back to it.
    Server(ServerUpdate),
}

/// Applies [`GameCommand`]s in order. In an online game only the person's own moves are played
/// here (the online plugin sends them to the server first); the rest goes through the server.
pub(crate) fn apply_commands(mut commands: MessageReader<GameCommand>, session: Option<ResMut<Session>>) {
    let Some(mut session) = session.filter(|s| !s.is_review()) else {
        // No game, or a position under review: nothing to change.
        commands.clear();
        return;
    };
    for cmd in commands.read() {
        match cmd {
            GameCommand::Play(mv) => {
                let online = session.seats.is_online();
                // Online, only the person's own moves; in a one-move lesson, only that move (a
                // lesson against the computer takes the computer's moves too).
                if (online || session.is_one_move_lesson()) && !session.human_to_move() {
                    continue;
                }
                if let Err(e) = session.play(mv) {
                    warn!("ignored {e}");
                }
            }
            GameCommand::Undo => {
                session.undo();
            }
            GameCommand::Redo => {
                session.redo();
            }
            GameCommand::Resign => {
                session.resign();
            }
            GameCommand::OfferDraw => {
                if let Some(side) = session.offering_side() {
                    session.offer_draw(side);
                }
            }
            GameCommand::AnswerDraw(accept) => {
                session.answer_draw(*accept);
            }
            GameCommand::NewGame if session.seats.is_online() => {}
            GameCommand::NewGame => session.restart(),
            GameCommand::Server(_) if !session.seats.is_online() => {}
            GameCommand::Server(update) => session.follow_server(update),
        }
    }
}

/// Runs the session's commands.
pub fn plugin(app: &mut App) {
    app.add_message::<GameCommand>()
        .add_message::<HintRequest>()
        .add_systems(Update, apply_commands.in_set(crate::app::AppSet::Apply));
}
