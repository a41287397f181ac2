//! What the server shows of itself, each view a resource filled by its own handler of the
//! server's messages ([`FromServer`]): the lobby and what the person waits in, profiles (their
//! own and one opened), the leaderboard, a finished game's archive, and the last refusal. The
//! screens read them; what the player asks of them goes through [`crate::net::intents`].

use crate::app::{AppSet, Screen};
use crate::net::connection::{FromServer, Link, LinkState, ToServer, receive};
use bevy::prelude::*;
use ludus_protocol::{
    ArchivedGame, ClientMessage, ErrorCode, GameId, LobbyView, ProfileView, RatingEntry, ServerMessage,
};
use ludus_rules::Variant;
use std::collections::VecDeque;

/// How often the lobby is asked for again while it is on screen, in seconds.
const LOBBY_REFRESH_S: f64 = 3.0;

/// What the player waits for in the lobby.
#[derive(Clone, Debug, PartialEq)]
pub enum Waiting {
    /// An opponent for this room.
    Room {
        /// The code to give a friend.
        code: String,
        /// Which game.
        variant: Variant,
        /// Listed in the lobby.
        public: bool,
    },
    /// A quick match.
    Queue {
        /// Which game.
        variant: Variant,
    },
}

/// The lobby as the server last sent it, and the room or queue the person waits in.
#[derive(Resource, Default, Debug)]
pub struct Lobby {
    /// The last lobby received.
    pub view: Option<LobbyView>,
    /// A room or queue the person waits in.
    pub waiting: Option<Waiting>,
    /// Since when (seconds of real time) the person waits in it.
    pub waiting_since: f64,
    /// When the lobby was last asked for (seconds of real time).
    pub(crate) asked_at: Option<f64>,
}

/// A leaderboard as the server sent it.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaderboard {
    /// Which game.
    pub variant: Variant,
    /// The best, place 1 first.
    pub top: Vec<RatingEntry>,
    /// The person's own place and line, if they are on it.
    pub yours: Option<(u32, RatingEntry)>,
}

/// The last leaderboard received, and which one was asked for since the lobby was refreshed.
#[derive(Resource, Default, Debug)]
pub struct Leaderboards {
    /// The last leaderboard received, of the variant it is for.
    pub shown: Option<Leaderboard>,
    /// The variant whose leaderboard was asked for since the lobby was last refreshed.
    pub(crate) asked: Option<Variant>,
}

impl Leaderboards {
    /// Asks for `variant`'s leaderboard, once until the lobby is refreshed.
    pub(crate) fn ask(&mut self, variant: Variant, out: &mut MessageWriter<ToServer>) {
        if self.asked != Some(variant) {
            self.asked = Some(variant);
            out.write(ToServer(ClientMessage::Leaderboard { variant }));
        }
    }
}

/// Players' profiles: the person's own (asked for after every sign-in: whether the nickname is
/// claimed, the ratings) and the one opened on the profile screen. The server answers one
/// profile at a time, so the asks wait here in turn.
#[derive(Resource, Default, Debug)]
pub struct Profiles {
    /// The person's own profile.
    pub own: Option<ProfileView>,
    /// The profile opened on the profile screen, once it came.
    pub viewed: Option<ProfileView>,
    /// Profiles asked for, oldest first: the first is on its way, each marked whether it is
    /// the person's own.
    asks: VecDeque<(String, bool)>,
}

impl Profiles {
    /// Asks for a profile; the server answers one at a time, so the others wait here.
    pub(crate) fn ask(&mut self, nickname: String, own: bool, out: &mut MessageWriter<ToServer>) {
        self.asks.push_back((nickname.clone(), own));
        if self.asks.len() == 1 {
            out.write(ToServer(ClientMessage::Profile { nickname }));
        }
    }

    /// Opens `nickname`'s profile for the profile screen ([`Profiles::viewed`] once it comes).
    pub(crate) fn open(&mut self, nickname: &str, out: &mut MessageWriter<ToServer>) {
        self.viewed = None;
        self.ask(nickname.to_string(), false, out);
    }

    /// The answer to the profile on its way came (or a refusal): the next one goes.
    fn answered(&mut self, out: &mut MessageWriter<ToServer>) -> Option<bool> {
        let (_, own) = self.asks.pop_front()?;
        if let Some((nickname, _)) = self.asks.front().cloned() {
            out.write(ToServer(ClientMessage::Profile { nickname }));
        }
        Some(own)
    }
}

/// A finished game's archive: the one asked for, then the one that came until the screen that
/// asked takes it.
#[derive(Resource, Default, Debug)]
pub struct Archives {
    /// The finished game asked for and not yet come.
    pub asked: Option<GameId>,
    /// The finished game that came.
    pub came: Option<Box<ArchivedGame>>,
}

impl Archives {
    /// Asks for a finished game's archive ([`Archives::came`] once it comes); one at a time.
    pub(crate) fn ask(&mut self, game: GameId, out: &mut MessageWriter<ToServer>) {
        if self.asked.is_none() {
            self.asked = Some(game);
            self.came = None;
            out.write(ToServer(ClientMessage::Archive { game }));
        }
    }
}

/// The last refusal, to show once: its code (what the player reads) and the words of the server
/// or of the check that refused (for the log and the browser test).
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct NetNotice(pub Option<(ErrorCode, String)>);

/// The signed-in player's turn-based games and challenges, as the server last listed them
/// (after the welcome, and at each refresh of the lobby).
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct TurnGames(pub Option<ludus_protocol::MyGamesView>);

impl TurnGames {
    /// How many games wait for the player's move.
    pub fn your_turn(&self) -> u32 {
        self.0.as_ref().map_or(0, |v| v.your_turn)
    }
}

/// The player's turn-based games follow the server: its lists, and a new list asked for when a
/// challenge comes, goes or is answered, and when a move or the end comes in one of the games.
fn follow_turn_games(
    mut news: MessageReader<FromServer>,
    mut games: ResMut<TurnGames>,
    mut out: MessageWriter<ToServer>,
) {
    let mut ask = false;
    for FromServer(message) in news.read() {
        let listed =
            |game: &GameId| games.0.as_ref().is_some_and(|v| v.games.iter().any(|g| g.game == *game));
        match message {
            ServerMessage::MyGames(view) => {
                games.0 = Some(view.clone());
                ask = false;
            }
            ServerMessage::ChallengeMade(_)
            | ServerMessage::ChallengeReceived(_)
            | ServerMessage::ChallengeEnded { .. } => ask = true,
            ServerMessage::MovePlayed { game, .. } | ServerMessage::GameOver { game, .. } if listed(game) => {
                ask = true
            }
            _ => {}
        }
    }
    if ask {
        out.write(ToServer(ClientMessage::MyGames));
    }
}

/// The lobby follows the server: its lists, and the room or queue the person waits in.
fn follow_lobby(mut news: MessageReader<FromServer>, time: Res<Time<Real>>, mut lobby: ResMut<Lobby>) {
    for FromServer(message) in news.read() {
        if matches!(message, ServerMessage::RoomOpened { .. } | ServerMessage::Queued { .. })
            && lobby.waiting.is_none()
        {
            lobby.waiting_since = time.elapsed_secs_f64();
        }
        match message {
            ServerMessage::Welcome { .. } => lobby.asked_at = None,
            ServerMessage::Lobby(view) => lobby.view = Some(view.clone()),
            ServerMessage::RoomOpened { code, variant, public, .. } => {
                lobby.waiting =
                    Some(Waiting::Room { code: code.clone(), variant: *variant, public: *public });
            }
            ServerMessage::Queued { variant, .. } => {
                lobby.waiting = Some(Waiting::Queue { variant: *variant })
            }
            ServerMessage::Left | ServerMessage::Game(_) => lobby.waiting = None,
            _ => {}
        }
    }
}

/// Asks for the lobby every [`LOBBY_REFRESH_S`] seconds while it is on screen (and the
/// leaderboard again with it).
fn refresh_lobby(
    link: Res<Link>,
    time: Res<Time<Real>>,
    screen: Option<Res<State<Screen>>>,
    mut lobby: ResMut<Lobby>,
    mut boards: ResMut<Leaderboards>,
    mut out: MessageWriter<ToServer>,
) {
    let now = time.elapsed_secs_f64();
    if link.phase == LinkState::SignedIn
        && screen.is_some_and(|s| *s.get() == Screen::Online)
        && lobby.asked_at.is_none_or(|t| now - t >= LOBBY_REFRESH_S)
    {
        lobby.asked_at = Some(now);
        boards.asked = None;
        out.write(ToServer(ClientMessage::Lobby));
        out.write(ToServer(ClientMessage::MyGames));
    }
}

/// The profiles follow the server: the own one after each sign-in, after a claim and after a
/// rated game; the asks answered in turn.
fn follow_profiles(
    mut news: MessageReader<FromServer>,
    link: Res<Link>,
    mut profiles: ResMut<Profiles>,
    mut out: MessageWriter<ToServer>,
) {
    for FromServer(message) in news.read() {
        match message {
            ServerMessage::Welcome { nickname, .. } => {
                // Claimed or not, and the ratings: the own profile. Answers to this connection's
                // earlier asks may still come; they are matched by player.
                profiles.own = None;
                profiles.asks.clear();
                profiles.ask(nickname.clone(), true, &mut out);
            }
            // Only a profile is refused so.
            ServerMessage::Error { code: ErrorCode::UnknownPlayer, .. } => {
                profiles.answered(&mut out);
            }
            ServerMessage::Profile(profile) => {
                let own = profiles.answered(&mut out);
                if Some(profile.player) == link.player {
                    profiles.own = Some(profile.clone());
                }
                if own == Some(false) {
                    profiles.viewed = Some(profile.clone());
                }
            }
            // The profile again: claimed now.
            ServerMessage::NicknameClaimed { nickname } => profiles.ask(nickname.clone(), true, &mut out),
            // The ratings changed.
            ServerMessage::GameOver { archive, .. } if archive.rated => {
                if let Some(nickname) = link.nickname.clone() {
                    profiles.ask(nickname, true, &mut out);
                }
            }
            _ => {}
        }
    }
}

/// The leaderboard follows the server.
fn follow_leaderboard(mut news: MessageReader<FromServer>, mut boards: ResMut<Leaderboards>) {
    for FromServer(message) in news.read() {
        if let ServerMessage::Leaderboard { variant, top, yours } = message {
            boards.shown = Some(Leaderboard { variant: *variant, top: top.clone(), yours: yours.clone() });
        }
    }
}

/// The archive asked for comes (or is refused).
fn follow_archives(mut news: MessageReader<FromServer>, mut archives: ResMut<Archives>) {
    for FromServer(message) in news.read() {
        match message {
            ServerMessage::Welcome { .. } | ServerMessage::Error { code: ErrorCode::UnknownGame, .. } => {
                archives.asked = None;
            }
            ServerMessage::Archive(archive) if archives.asked == Some(archive.game) => {
                archives.asked = None;
                archives.came = Some(archive.clone());
            }
            _ => {}
        }
    }
}

/// The server's refusals, kept until the person closes them.
fn follow_refusals(mut news: MessageReader<FromServer>, mut notice: ResMut<NetNotice>) {
    for FromServer(message) in news.read() {
        if let ServerMessage::Error { code, message } = message {
            notice.0 = Some((*code, message.clone()));
        }
    }
}

/// A connection the player dropped or replaced takes its views with it.
fn forget_views(link: Res<Link>, mut seen: Local<u64>, mut views: ViewsMut) {
    if link.epoch() != *seen {
        *seen = link.epoch();
        views.clear();
    }
}

/// Every view of the server, to clear together.
#[derive(bevy::ecs::system::SystemParam)]
pub struct ViewsMut<'w> {
    lobby: ResMut<'w, Lobby>,
    profiles: ResMut<'w, Profiles>,
    boards: ResMut<'w, Leaderboards>,
    archives: ResMut<'w, Archives>,
    notice: ResMut<'w, NetNotice>,
    turns: ResMut<'w, TurnGames>,
}

impl ViewsMut<'_> {
    fn clear(&mut self) {
        *self.lobby = Lobby::default();
        *self.profiles = Profiles::default();
        *self.boards = Leaderboards::default();
        *self.archives = Archives::default();
        *self.notice = NetNotice::default();
        *self.turns = TurnGames::default();
    }
}

/// The server's views and their handlers, right after the link reads the server's messages.
pub fn plugin(app: &mut App) {
    app.init_resource::<Lobby>()
        .init_resource::<Profiles>()
        .init_resource::<Leaderboards>()
        .init_resource::<Archives>()
        .init_resource::<NetNotice>()
        .init_resource::<TurnGames>()
        .add_systems(
            Update,
            (
                forget_views,
                (
                    follow_lobby,
                    follow_profiles,
                    follow_leaderboard,
                    follow_archives,
                    follow_refusals,
                    follow_turn_games,
                ),
                refresh_lobby,
            )
                .chain()
                .in_set(AppSet::Input)
                .after(receive),
        );
}
