//! The game on the board when it is an online one: the server's messages turned into the
//! game's commands (its moves, its verdicts, its refusals), the person's moves and proposals sent
//! to it, the clocks, the players' connections and the spectators' proposals ([`OnlineGame`]).

use crate::app::navigation::NavIntent;
use crate::app::{AppSet, Screen};
use crate::board::view::BoardView;
use crate::game::session::{GameCommand, Mode, Seats, ServerUpdate, Session, apply_commands};
use crate::net::connection::{FromServer, Link, ToServer};
use crate::net::views::NetNotice;
use bevy::prelude::*;
use ludus_protocol::{
    ArchivedGame, ChatLine, ClientMessage, ClockSpec, ClockView, CrowdVerdict, ErrorCode, GameId, GameView,
    PlayerId, PlayerInfo, Proposal, Role, ServerMessage,
};
use ludus_rules::{AnyMove, Side};

/// An online game on the board: who plays, the clocks, what the server confirmed, and for
/// spectators the crowd's proposals.
#[derive(Resource, Clone, Debug)]
pub struct OnlineGame {
    /// The game on the server.
    pub id: GameId,
    /// The room's code.
    pub room: String,
    /// The person's part.
    pub role: Role,
    /// `[First, Second]`.
    pub players: [PlayerInfo; 2],
    /// The time control.
    pub clock: Option<ClockSpec>,
    /// The clocks when last told, and when (seconds of app time).
    pub clocks: Option<(ClockView, f64)>,
    /// Moves the server has confirmed (the board may show one more: the person's, on its way).
    pub confirmed: usize,
    /// How many watch.
    pub spectators: u32,
    /// Spectators: the proposals for the next move, most proposed first.
    pub proposals: Vec<Proposal>,
    /// Spectators: the person's own proposal for the next move.
    pub your_proposal: Option<String>,
    /// Spectators: the last move and how the crowd's proposals compared.
    pub verdict: Option<(String, CrowdVerdict)>,
    /// When a disconnected player's seat is given up (seconds of app time).
    pub hold_until: [Option<f64>; 2],
    /// The opponent offers a rematch.
    pub rematch_offered: bool,
    /// The person asked for a rematch.
    pub rematch_sent: bool,
    /// The archive at the end (with the spectators' proposals).
    pub archive: Option<ArchivedGame>,
    /// The chat the person here hears in this game, oldest first (at the end, the archive's,
    /// both channels).
    pub chat: Vec<ChatLine>,
    /// The speakers the person here muted in this game (their lines are not shown, and the
    /// server stops sending them).
    pub muted: Vec<PlayerId>,
    /// A rated game: both ratings change when it ends.
    pub rated: bool,
}

/// A game the server started for the person while they play a game of their own on this
/// device (the computer, meanwhile, while quick match looked): it waits here, kept up to date,
/// until the person takes it ([`crate::net::intents::OnlineIntent::TakeMatch`]) or lets it go.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct FoundMatch {
    /// The server's view of it, with the moves played since.
    pub view: GameView,
    /// The person took it: the next view of it goes on the board.
    pub taken: bool,
}

/// The most chat lines kept for the screen (the server keeps a game's whole chat).
const CHAT_SHOWN: usize = 400;

impl OnlineGame {
    /// The online game a server's view describes; `now` is the app's time (seconds).
    pub fn from_view(view: &GameView, now: f64) -> OnlineGame {
        OnlineGame {
            id: view.game,
            room: view.room.clone(),
            role: view.role,
            players: view.players.clone(),
            clock: view.clock,
            clocks: view.clocks.map(|c| (c, now)),
            confirmed: view.moves.len(),
            spectators: view.spectators,
            proposals: view.proposals.clone(),
            your_proposal: view.your_proposal.clone(),
            verdict: None,
            hold_until: [None, None],
            rematch_offered: false,
            rematch_sent: false,
            archive: None,
            chat: Vec::new(),
            muted: Vec::new(),
            rated: view.rated,
        }
    }

    /// The chat lines to show: those of speakers not muted.
    pub fn chat_shown(&self) -> impl Iterator<Item = &ChatLine> {
        self.chat.iter().filter(|l| !self.muted.contains(&l.from))
    }

    /// The person's side, if they play.
    pub fn local_side(&self) -> Option<Side> {
        match self.role {
            Role::Player(side) => Some(side),
            Role::Spectator => None,
        }
    }

    /// Remaining time of `side` now, in milliseconds.
    pub fn remaining_ms(&self, side: Side, now: f64) -> Option<u64> {
        let (view, at) = self.clocks?;
        let base = u64::from(view.remaining_ms[side.index()]);
        let spent = if view.running == Some(side) { ((now - at).max(0.0) * 1000.0) as u64 } else { 0 };
        Some(base.saturating_sub(spent))
    }
}

/// Follows the server's messages about the game on the board: a new game goes on the board, a
/// known one catches up; moves, the end, refusals go to the session as
/// [`GameCommand::Server`]; clocks, players' connections, spectators and proposals go to the
/// [`OnlineGame`].
#[allow(clippy::too_many_arguments)]
fn follow_server(
    mut news: MessageReader<FromServer>,
    mut notice: ResMut<NetNotice>,
    time: Res<Time<Real>>,
    online: Option<ResMut<OnlineGame>>,
    session: Option<Res<Session>>,
    screen: Option<Res<State<Screen>>>,
    mut nav: MessageWriter<NavIntent>,
    mut commands: Commands,
    mut game_commands: MessageWriter<GameCommand>,
    found: Option<ResMut<FoundMatch>>,
) {
    if news.is_empty() {
        return;
    }
    let now = time.elapsed_secs_f64();
    // A local game replaced the online one: the server's news about that one concern nothing here.
    let online_on_board = session.as_ref().is_some_and(|s| s.seats.is_online());
    // The messages of one frame work on a copy of the online game, written back at the end: a
    // game that starts and its first move can arrive together, before a new resource could be
    // inserted.
    let mut current: Option<OnlineGame> = online.as_deref().filter(|_| online_on_board).cloned();
    let mut to_session = |update: ServerUpdate| {
        game_commands.write(GameCommand::Server(update));
    };
    // A game of the person's own is going on the board here: a new online game waits to be
    // taken instead of replacing it.
    let own_game_going = screen.as_ref().is_some_and(|s| *s.get() == Screen::Playing)
        && session
            .as_ref()
            .is_some_and(|s| !s.seats.is_online() && !s.game.is_over() && !s.is_review() && !s.is_lesson());
    let mut found = found.map(|f| f.into_inner());
    for FromServer(message) in news.read() {
        if let Some(f) = found.as_deref_mut() {
            keep_found_match(f, message, &mut commands);
        }
        let taken = found.as_deref().is_some_and(|f| f.taken);
        if let ServerMessage::Game(view) = message
            && current.is_none()
            && own_game_going
            && !taken
            && matches!(view.role, Role::Player(_))
        {
            commands.insert_resource(FoundMatch { view: view.clone(), taken: false });
            continue;
        }
        if let ServerMessage::Game(view) = message {
            if taken && found.as_deref().is_some_and(|f| f.view.game == view.game) {
                commands.remove_resource::<FoundMatch>();
            }
            match view.replay() {
                Err(e) => {
                    warn!("the server sent a game that does not replay: {e}");
                    notice.0 = Some((ErrorCode::Internal, e.to_string()));
                }
                Ok(game) => {
                    if let Some(session) = game_on_board(&mut current, view, game, now, &mut to_session) {
                        commands.insert_resource(session);
                    }
                    if screen.as_ref().is_none_or(|s| *s.get() != Screen::Playing) {
                        nav.write(NavIntent::Go(Screen::Playing));
                    }
                }
            }
        } else if let Some(o) = current.as_mut() {
            follow_game(o, message, now, &mut to_session);
            follow_table(o, message, now);
        }
    }
    match (online, current) {
        (Some(mut resource), Some(copy)) => *resource = copy,
        (None, Some(copy)) => commands.insert_resource(copy),
        (_, None) => {}
    }
}

/// The waiting game follows the server: its moves, and its end (then it is gone).
fn keep_found_match(found: &mut FoundMatch, message: &ServerMessage, commands: &mut Commands) {
    match message {
        ServerMessage::MovePlayed { game, ply, mv, clocks, .. }
            if *game == found.view.game && *ply as usize == found.view.moves.len() =>
        {
            found.view.moves.push(mv.clone());
            found.view.clocks = *clocks;
        }
        ServerMessage::GameOver { game, .. } if *game == found.view.game => {
            commands.remove_resource::<FoundMatch>();
        }
        _ => {}
    }
}

/// A game view from the server: the known game catches up (returns nothing), or a new one goes
/// on the board (returns its session).
fn game_on_board(
    current: &mut Option<OnlineGame>,
    view: &GameView,
    game: ludus_rules::AnyGame,
    now: f64,
    to_session: &mut impl FnMut(ServerUpdate),
) -> Option<Session> {
    let fresh = OnlineGame::from_view(view, now);
    match current.as_mut() {
        Some(o) if o.id == view.game => {
            // The chat so far follows the view again; the mutes stay.
            let keep = (o.verdict.clone(), o.rematch_sent, std::mem::take(&mut o.muted));
            *o = fresh;
            (o.verdict, o.rematch_sent, o.muted) = keep;
            to_session(ServerUpdate::Game(Box::new(game)));
            None
        }
        _ => {
            *current = Some(fresh);
            let side = match view.role {
                Role::Player(side) => Some(side),
                Role::Spectator => None,
            };
            let mut s = Session::from_game(game, Seats::online(side));
            s.mode = if view.role == Role::Spectator { Mode::Watch } else { Mode::Play };
            Some(s)
        }
    }
}

/// The server's news about the game itself (moves, refusals, the end, draw offers), for the
/// session; the online game keeps what was confirmed.
fn follow_game(
    o: &mut OnlineGame,
    message: &ServerMessage,
    now: f64,
    to_session: &mut impl FnMut(ServerUpdate),
) {
    match message {
        ServerMessage::Error { code, .. } => {
            to_session(ServerUpdate::Refused { confirmed: o.confirmed });
            if o.your_proposal.is_some() && *code == ErrorCode::IllegalMove {
                o.your_proposal = None;
            }
        }
        ServerMessage::MovePlayed { game, ply, mv, clocks, crowd, .. } if o.id == *game => {
            to_session(ServerUpdate::Move { ply: *ply as usize, mv: mv.clone() });
            o.confirmed = *ply as usize + 1;
            o.clocks = clocks.map(|c| (c, now));
            o.proposals.clear();
            o.your_proposal = None;
            if let Some(crowd) = crowd {
                o.verdict = Some((mv.clone(), crowd.clone()));
            }
        }
        ServerMessage::GameOver { game, outcome, archive } if o.id == *game => {
            to_session(ServerUpdate::End(*outcome));
            if let Some((view, _)) = &mut o.clocks {
                view.running = None;
            }
            o.archive = Some(archive.clone());
            // Both channels, now that the game is over.
            o.chat = archive.chat.clone();
        }
        ServerMessage::DrawOffered { game, by } if o.id == *game => {
            to_session(ServerUpdate::DrawOffered(*by))
        }
        ServerMessage::DrawDeclined { game, by } if o.id == *game => {
            to_session(ServerUpdate::DrawDeclined(*by))
        }
        ServerMessage::DrawOfferLapsed { game, .. } if o.id == *game => to_session(ServerUpdate::DrawLapsed),
        _ => {}
    }
}

/// The server's news around the game (proposals, the players' connections, spectators, chat,
/// mutes, a rematch offered), for the online game.
fn follow_table(o: &mut OnlineGame, message: &ServerMessage, now: f64) {
    match message {
        ServerMessage::Proposals { game, ply, proposals }
            if o.id == *game && o.confirmed == *ply as usize =>
        {
            o.proposals = proposals.clone();
        }
        ServerMessage::PlayerConnection { game, side, connected, hold_ms } if o.id == *game => {
            o.players[side.index()].connected = *connected;
            o.hold_until[side.index()] = hold_ms.map(|ms| now + f64::from(ms) / 1000.0);
        }
        ServerMessage::Spectators { game, count } if o.id == *game => o.spectators = *count,
        ServerMessage::Chat(line) if o.id == line.game => {
            if o.chat.len() >= CHAT_SHOWN {
                o.chat.remove(0);
            }
            o.chat.push(line.clone());
        }
        ServerMessage::Muted { game, player, muted } if o.id == *game => {
            o.muted.retain(|p| p != player);
            if *muted {
                o.muted.push(*player);
            }
        }
        ServerMessage::RematchOffered { game, by } if o.id == *game && o.local_side() != Some(*by) => {
            o.rematch_offered = true;
        }
        _ => {}
    }
}

/// A server's move that did not fit the game shown leaves the session behind the moves the
/// server confirmed: a fresh connection brings the whole game back (once per such state).
fn check_in_step(
    online: Option<Res<OnlineGame>>,
    session: Option<Res<Session>>,
    mut link: ResMut<Link>,
    mut last: Local<Option<(GameId, usize)>>,
) {
    let (Some(online), Some(session)) = (online, session) else { return };
    if !session.seats.is_online() || session.game.ply() >= online.confirmed {
        return;
    }
    if *last != Some((online.id, online.confirmed)) {
        *last = Some((online.id, online.confirmed));
        warn!("out of step with the server at ply {}; reconnecting", session.game.ply());
        link.reconnect();
    }
}

/// Sends the person's moves, proposals, resignation, draw offers and answers, and rematch
/// requests to the server.
fn send_commands(
    mut reader: MessageReader<GameCommand>,
    mut out: MessageWriter<ToServer>,
    online: Option<ResMut<OnlineGame>>,
    session: Option<Res<Session>>,
) {
    let (Some(mut online), Some(session)) = (online, session) else {
        reader.clear();
        return;
    };
    if !session.seats.is_online() {
        reader.clear();
        return;
    }
    for command in reader.read() {
        let game = online.id;
        let ply = session.game.ply() as u32;
        match command {
            GameCommand::Play(mv) => {
                let Some(text) = session.game.position().move_to_string(mv) else { continue };
                if session.is_watching() {
                    if !session.game.is_over() {
                        online.your_proposal = Some(text.clone());
                        out.write(ToServer(ClientMessage::Propose { game, ply, mv: text }));
                    }
                } else if session.human_to_move() {
                    out.write(ToServer(ClientMessage::Move { game, ply, mv: text }));
                }
            }
            GameCommand::Resign => {
                if online.local_side().is_some() && !session.game.is_over() {
                    out.write(ToServer(ClientMessage::Resign { game }));
                }
            }
            GameCommand::OfferDraw => {
                if let Some(side) = online.local_side()
                    && session.may_offer_draw(side)
                {
                    out.write(ToServer(ClientMessage::OfferDraw { game }));
                }
            }
            GameCommand::AnswerDraw(accept) => {
                if let Some(side) = online.local_side()
                    && session.draw.open == Some(!side)
                    && !session.game.is_over()
                {
                    out.write(ToServer(ClientMessage::AnswerDraw { game, accept: *accept }));
                }
            }
            GameCommand::NewGame => {
                if online.local_side().is_some() && session.game.is_over() && !online.rematch_sent {
                    online.rematch_sent = true;
                    out.write(ToServer(ClientMessage::Rematch { game }));
                }
            }
            GameCommand::Undo | GameCommand::Redo | GameCommand::Server(_) => {}
        }
    }
}

/// Spectators' proposals as ghost moves for the board: each legal proposal with its count.
pub fn ghosts(online: &OnlineGame, session: &Session) -> Vec<(AnyMove, u32)> {
    if !session.is_watching() || session.game.is_over() {
        return Vec::new();
    }
    let pos = session.game.position();
    online.proposals.iter().filter_map(|p| pos.parse_move(&p.mv).ok().map(|m| (m, p.count))).take(6).collect()
}

fn update_ghosts(
    online: Option<Res<OnlineGame>>,
    session: Option<Res<Session>>,
    view: Option<ResMut<BoardView>>,
) {
    let ghosts = match (&online, &session) {
        (Some(o), Some(s)) => ghosts(o, s),
        _ => Vec::new(),
    };
    if let Some(mut view) = view
        && view.ghosts != ghosts
    {
        view.ghosts = ghosts;
    }
}

fn clear_online_game(mut commands: Commands, session: Option<Res<Session>>) {
    if session.is_none_or(|s| !s.seats.is_online()) {
        commands.remove_resource::<OnlineGame>();
    }
}

/// The game on the board when it is an online one: the server's news followed, the person's
/// moves sent, the spectators' proposals drawn.
pub fn plugin(app: &mut App) {
    app.add_systems(Update, follow_server.in_set(AppSet::Input).after(crate::net::connection::receive))
        .add_systems(Update, send_commands.in_set(AppSet::Apply).before(apply_commands))
        .add_systems(Update, check_in_step.in_set(AppSet::Think))
        .add_systems(Update, update_ghosts.in_set(AppSet::View))
        .add_systems(OnEnter(Screen::Title), clear_online_game);
}
