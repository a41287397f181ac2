//! What the player asks of the server, as the screens say it ([`LobbyIntent`] on the online
//! screen and the profile, [`OnlineIntent`] in an online game), turned here into the link's
//! acts and the server's messages ([`ToServer`]). This file and the views are the only places
//! of the game that name a message of the protocol.

use crate::app::navigation::NavIntent;
use crate::app::{AppSet, Screen};
use crate::game::session::Session;
use crate::net::connection::{FromServer, Link, OnlineConfig, ToServer};
#[cfg(not(target_arch = "wasm32"))]
use crate::net::lan::LanHost;
use crate::net::sync::{FoundMatch, OnlineGame};
use crate::net::views::{Archives, Leaderboards, Lobby, NetNotice, Profiles};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use ludus_protocol::{
    ChatError, ChatText, ClientMessage, ClockSpec, ErrorCode, GameId, Password, PlayerId, QuickPhrase,
    ServerMessage, validate_chat,
};
use ludus_rules::{Side, Variant};

/// What the player asks on the online screen and the profile screen.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum LobbyIntent {
    /// Connect to `server` (as typed) as `nickname` (empty: the server picks one); both are
    /// remembered.
    Connect {
        /// The server's address as typed.
        server: String,
        /// The nickname asked for.
        nickname: String,
    },
    /// Drop the connection (a seat in a live game is held by the server for a while).
    Disconnect,
    /// The person leaves the online screen: out of any room or queue, and offline unless an
    /// online game is on the board.
    Close,
    /// Find an opponent for this game, time control and kind.
    QuickMatch {
        /// Which game.
        variant: Variant,
        /// The time control (none: untimed).
        clock: Option<ClockSpec>,
        /// Rated.
        rated: bool,
    },
    /// Open a room and wait for an opponent.
    OpenRoom {
        /// Which game.
        variant: Variant,
        /// The time control (none: untimed).
        clock: Option<ClockSpec>,
        /// Listed in the lobby (otherwise joined by its code only).
        public: bool,
        /// Rated.
        rated: bool,
    },
    /// Join a room by its code.
    JoinRoom(String),
    /// Watch a live game.
    Watch(GameId),
    /// Open one of the player's turn-based games on the board.
    OpenTurnGame(GameId),
    /// Accept a turn-based challenge (addressed to the player, or open) by its code.
    AcceptChallenge(String),
    /// Decline a turn-based challenge addressed to the player.
    DeclineChallenge(String),
    /// Challenge a nickname, or anyone who has the link, to a turn-based game.
    Challenge(ChallengeAsk),
    /// Withdraw one of the player's own challenges.
    CancelChallenge(String),
    /// Pass on the link of one of the player's open challenges (share sheet or clipboard).
    ShareChallenge(String),
    /// Let the page show a system notice when it is the player's turn (the browser asks).
    AllowTurnNotices,
    /// Leave the room or queue waited in.
    CancelWaiting,
    /// Claim the nickname signed in with, with this password.
    Claim(Password),
    /// Sign in as a claimed nickname.
    SignIn {
        /// The claimed nickname.
        nickname: String,
        /// Its password.
        password: Password,
    },
    /// Open a player's profile (the profile screen shows it when it comes).
    OpenProfile(String),
    /// Ask for a game's leaderboard (once until the lobby is refreshed).
    AskLeaderboard(Variant),
    /// Ask for a finished game's archive (to replay it).
    AskArchive(GameId),
    /// The server's last refusal was read.
    DismissNotice,
    /// Host a server on this network and connect to it, named after the nickname.
    #[cfg(not(target_arch = "wasm32"))]
    Host,
    /// Stop hosting (and drop the connection to it).
    #[cfg(not(target_arch = "wasm32"))]
    StopHost,
}

/// A turn-based challenge as the player fills it in.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeAsk {
    /// The nickname challenged as typed (empty: an open challenge, for anyone with its link).
    pub opponent: String,
    /// Which game.
    pub variant: Variant,
    /// The side the challenger plays (`None`: drawn when it is accepted).
    pub side: Option<Side>,
    /// The move limit in days (one of [`ludus_protocol::TURN_DAYS`]).
    pub days: u8,
    /// An open challenge listed in the lobby (a challenge to a nickname never is).
    pub listed: bool,
    /// Rated.
    pub rated: bool,
}

impl ChallengeAsk {
    /// The message that makes it.
    fn message(self) -> ClientMessage {
        let opponent = Some(self.opponent.trim().to_string()).filter(|o| !o.is_empty());
        let listed = self.listed && opponent.is_none();
        ClientMessage::Challenge {
            opponent,
            variant: self.variant,
            side: self.side,
            days: self.days,
            listed,
            rated: self.rated,
        }
    }
}

/// What the player asks in an online game besides its moves, offers and resignation (which go
/// through the game's commands and [`crate::net::sync`]).
#[derive(Message, Clone, Debug, PartialEq)]
pub enum OnlineIntent {
    /// Say a quick phrase in the game's chat.
    Phrase(QuickPhrase),
    /// Say this (checked first: a line the server would refuse is refused here, in words).
    Say(String),
    /// Mute or unmute a speaker.
    Mute {
        /// Who.
        player: PlayerId,
        /// Muted (or no longer).
        muted: bool,
    },
    /// Leave the game on the board (resigning it if it is still going) for the lobby.
    LeaveGame,
    /// Take the game the server started while the person played one of their own here
    /// ([`FoundMatch`]): it goes on the board (the own game stays saved, to resume).
    TakeMatch,
    /// Let that game go: a real-time one is left (the server ends it), a turn-based one stays
    /// in the player's list.
    LetMatchGo,
}

/// What the lobby's intents act on.
#[derive(SystemParam)]
pub struct LobbyParts<'w> {
    link: ResMut<'w, Link>,
    config: ResMut<'w, OnlineConfig>,
    lobby: ResMut<'w, Lobby>,
    profiles: ResMut<'w, Profiles>,
    boards: ResMut<'w, Leaderboards>,
    archives: ResMut<'w, Archives>,
    notice: ResMut<'w, NetNotice>,
    online: Option<Res<'w, OnlineGame>>,
    #[cfg(not(target_arch = "wasm32"))]
    host: Option<ResMut<'w, LanHost>>,
}

/// Acts on the lobby's intents: the link connects or closes, the server is asked.
pub fn lobby_intents(
    mut intents: MessageReader<LobbyIntent>,
    mut parts: LobbyParts,
    mut out: MessageWriter<ToServer>,
) {
    for intent in intents.read() {
        if let Some(message) = lobby_intent(intent.clone(), &mut parts, &mut out) {
            out.write(ToServer(message));
        }
    }
}

/// One lobby intent: what it does to the link and the views, and the message it sends, if any.
fn lobby_intent(
    intent: LobbyIntent,
    parts: &mut LobbyParts,
    out: &mut MessageWriter<ToServer>,
) -> Option<ClientMessage> {
    match intent {
        LobbyIntent::Connect { server, nickname } => {
            parts.config.server = server.trim().to_string();
            parts.config.nickname = nickname.trim().to_string();
            let server = parts.config.server.clone();
            parts.link.connect(&server, &parts.config);
            None
        }
        LobbyIntent::Disconnect => {
            parts.link.disconnect();
            None
        }
        LobbyIntent::Close => {
            let leave = parts.lobby.waiting.take().is_some();
            if parts.online.is_none() {
                parts.link.disconnect();
                return None;
            }
            leave.then_some(ClientMessage::Leave)
        }
        LobbyIntent::QuickMatch { variant, clock, rated } => {
            Some(ClientMessage::FindMatch { variant, clock, rated })
        }
        LobbyIntent::OpenRoom { variant, clock, public, rated } => {
            Some(ClientMessage::OpenRoom { variant, clock, public, rated })
        }
        LobbyIntent::JoinRoom(code) => Some(ClientMessage::JoinRoom { code: code.trim().to_string() }),
        LobbyIntent::Watch(game) => Some(ClientMessage::Watch { game }),
        LobbyIntent::OpenTurnGame(game) => Some(ClientMessage::OpenGame { game }),
        LobbyIntent::AcceptChallenge(code) => Some(ClientMessage::AcceptChallenge { code }),
        LobbyIntent::DeclineChallenge(code) => Some(ClientMessage::DeclineChallenge { code }),
        LobbyIntent::Challenge(ask) => Some(ask.message()),
        LobbyIntent::CancelChallenge(code) => Some(ClientMessage::CancelChallenge { code }),
        LobbyIntent::ShareChallenge(code) => {
            crate::platform::share::share_link(&crate::net::address::challenge_link(
                &code,
                &parts.link.server,
            ));
            None
        }
        LobbyIntent::AllowTurnNotices => {
            crate::platform::notices::ask();
            None
        }
        LobbyIntent::CancelWaiting => Some(ClientMessage::Leave),
        LobbyIntent::Claim(password) => Some(ClientMessage::ClaimNickname { password }),
        LobbyIntent::SignIn { nickname, password } => {
            Some(ClientMessage::SignInClaimed { nickname: nickname.trim().to_string(), password })
        }
        LobbyIntent::OpenProfile(nickname) => {
            parts.profiles.open(&nickname, out);
            None
        }
        LobbyIntent::AskLeaderboard(variant) => {
            parts.boards.ask(variant, out);
            None
        }
        LobbyIntent::AskArchive(game) => {
            parts.archives.ask(game, out);
            None
        }
        LobbyIntent::DismissNotice => {
            parts.notice.0 = None;
            None
        }
        #[cfg(not(target_arch = "wasm32"))]
        LobbyIntent::Host => {
            host(parts);
            None
        }
        #[cfg(not(target_arch = "wasm32"))]
        LobbyIntent::StopHost => {
            parts.link.disconnect();
            if let Some(host) = parts.host.as_deref_mut() {
                host.stop();
            }
            None
        }
    }
}

/// Starts the server on this network and connects to it (or keeps why it failed).
#[cfg(not(target_arch = "wasm32"))]
fn host(parts: &mut LobbyParts) {
    let Some(host) = parts.host.as_deref_mut() else { return };
    let nickname = parts.config.nickname.trim();
    let name = if nickname.is_empty() { "Ludus" } else { nickname };
    match host.start(name) {
        Ok(local) => {
            host.error = None;
            parts.link.connect(&local, &parts.config);
        }
        Err(e) => host.error = Some(e),
    }
}

/// Acts on the online game's intents: the chat, mutes, leaving the game.
pub fn online_intents(
    mut intents: MessageReader<OnlineIntent>,
    online: Option<Res<OnlineGame>>,
    mut lobby: ResMut<Lobby>,
    mut notice: ResMut<NetNotice>,
    mut out: MessageWriter<ToServer>,
    mut nav: MessageWriter<NavIntent>,
    mut commands: Commands,
    (mut found, mut news): (Option<ResMut<FoundMatch>>, MessageWriter<FromServer>),
) {
    for intent in intents.read() {
        match (intent, found.as_deref_mut()) {
            (OnlineIntent::TakeMatch, Some(f)) => {
                // Its view again, now to be put on the board.
                f.taken = true;
                news.write(FromServer(ServerMessage::Game(f.view.clone())));
                continue;
            }
            (OnlineIntent::LetMatchGo, Some(f)) => {
                // Turn-based games have no room, and wait.
                if !f.view.room.is_empty() {
                    out.write(ToServer(ClientMessage::Leave));
                }
                commands.remove_resource::<FoundMatch>();
                continue;
            }
            (OnlineIntent::TakeMatch | OnlineIntent::LetMatchGo, None) => continue,
            _ => {}
        }
        let Some(game) = online.as_ref().map(|o| o.id) else { continue };
        let message = match intent {
            OnlineIntent::Phrase(phrase) => ClientMessage::Chat { game, text: ChatText::Phrase(*phrase) },
            OnlineIntent::Say(draft) => match validate_chat(draft) {
                Ok(clean) => ClientMessage::Chat { game, text: ChatText::Free(clean) },
                Err(e) => {
                    let code = match e {
                        ChatError::TooLong(_) => ErrorCode::ChatTooLong,
                        _ => ErrorCode::ChatBadText,
                    };
                    notice.0 = Some((code, e.to_string()));
                    continue;
                }
            },
            OnlineIntent::Mute { player, muted } => {
                ClientMessage::Mute { game, player: *player, muted: *muted }
            }
            OnlineIntent::LeaveGame => {
                lobby.waiting = None;
                lobby.asked_at = None;
                commands.remove_resource::<OnlineGame>();
                commands.remove_resource::<Session>();
                nav.write(NavIntent::Go(Screen::Online));
                ClientMessage::Leave
            }
            OnlineIntent::TakeMatch | OnlineIntent::LetMatchGo => continue,
        };
        out.write(ToServer(message));
    }
}

/// The intents of the online screens and games, acted on before the game's commands.
pub fn plugin(app: &mut App) {
    app.add_message::<LobbyIntent>()
        .add_message::<OnlineIntent>()
        .add_systems(Update, (lobby_intents, online_intents).in_set(AppSet::Input));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::views::Waiting;

    /// The net's intents and views on a bare app, without a link to a server: what would be sent
    /// is read from the frame's [`ToServer`] messages.
    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        app.add_message::<NavIntent>()
            .add_message::<ToServer>()
            .add_message::<FromServer>()
            .init_resource::<Link>()
            .init_resource::<OnlineConfig>()
            .add_plugins((crate::net::views::plugin, plugin));
        app
    }

    /// The messages for the server that the frame after `intent` sent.
    fn sent(app: &mut App, intent: LobbyIntent) -> Vec<ClientMessage> {
        app.world_mut().write_message(intent);
        frame_sent(app)
    }

    /// Runs a frame; the messages for the server it sent.
    fn frame_sent(app: &mut App) -> Vec<ClientMessage> {
        let mut cursor = app.world().resource::<Messages<ToServer>>().get_cursor_current();
        app.update();
        let messages = app.world().resource::<Messages<ToServer>>();
        cursor.read(messages).map(|m| m.0.clone()).collect()
    }

    #[test]
    fn lobby_intents_send_the_right_messages() {
        let mut app = app();
        let v = Variant::Alquerque;
        let cases = [
            (
                LobbyIntent::QuickMatch { variant: v, clock: None, rated: true },
                ClientMessage::FindMatch { variant: v, clock: None, rated: true },
            ),
            (
                LobbyIntent::OpenRoom {
                    variant: v,
                    clock: Some(ClockSpec::BLITZ),
                    public: false,
                    rated: false,
                },
                ClientMessage::OpenRoom {
                    variant: v,
                    clock: Some(ClockSpec::BLITZ),
                    public: false,
                    rated: false,
                },
            ),
            (LobbyIntent::JoinRoom(" ab12 ".into()), ClientMessage::JoinRoom { code: "ab12".into() }),
            (LobbyIntent::Watch(GameId(7)), ClientMessage::Watch { game: GameId(7) }),
            (LobbyIntent::OpenTurnGame(GameId(9)), ClientMessage::OpenGame { game: GameId(9) }),
            (
                LobbyIntent::AcceptChallenge("K7Q2".into()),
                ClientMessage::AcceptChallenge { code: "K7Q2".into() },
            ),
            (
                LobbyIntent::DeclineChallenge("K7Q2".into()),
                ClientMessage::DeclineChallenge { code: "K7Q2".into() },
            ),
            (
                LobbyIntent::CancelChallenge("K7Q2".into()),
                ClientMessage::CancelChallenge { code: "K7Q2".into() },
            ),
            // An open challenge, listed: anyone may take it.
            (
                LobbyIntent::Challenge(ChallengeAsk {
                    opponent: "  ".into(),
                    variant: v,
                    side: None,
                    days: 3,
                    listed: true,
                    rated: false,
                }),
                ClientMessage::Challenge {
                    opponent: None,
                    variant: v,
                    side: None,
                    days: 3,
                    listed: true,
                    rated: false,
                },
            ),
            // A challenge to a nickname is never listed, whatever the box said.
            (
                LobbyIntent::Challenge(ChallengeAsk {
                    opponent: " Ann ".into(),
                    variant: v,
                    side: Some(Side::Second),
                    days: 7,
                    listed: true,
                    rated: true,
                }),
                ClientMessage::Challenge {
                    opponent: Some("Ann".into()),
                    variant: v,
                    side: Some(Side::Second),
                    days: 7,
                    listed: false,
                    rated: true,
                },
            ),
            (LobbyIntent::CancelWaiting, ClientMessage::Leave),
            (
                LobbyIntent::Claim(Password("a long password".into())),
                ClientMessage::ClaimNickname { password: Password("a long password".into()) },
            ),
            (LobbyIntent::AskArchive(GameId(3)), ClientMessage::Archive { game: GameId(3) }),
            (LobbyIntent::OpenProfile("Bot".into()), ClientMessage::Profile { nickname: "Bot".into() }),
        ];
        for (intent, message) in cases {
            assert_eq!(sent(&mut app, intent.clone()), [message], "{intent:?}");
        }
    }

    #[test]
    fn a_leaderboard_is_asked_once_until_the_lobby_is_refreshed() {
        let mut app = app();
        let ask = LobbyIntent::AskLeaderboard(Variant::Latrunculi);
        assert_eq!(
            sent(&mut app, ask.clone()),
            [ClientMessage::Leaderboard { variant: Variant::Latrunculi }]
        );
        assert_eq!(sent(&mut app, ask), []);
    }

    #[test]
    fn closing_the_lobby_leaves_the_room_waited_in_and_goes_offline_without_a_game() {
        let mut app = app();
        app.world_mut().resource_mut::<Lobby>().waiting =
            Some(Waiting::Queue { variant: Variant::Alquerque });
        let epoch = app.world().resource::<Link>().epoch();
        assert_eq!(sent(&mut app, LobbyIntent::Close), [], "no game on the board: the link closes instead");
        assert!(app.world().resource::<Lobby>().waiting.is_none());
        assert_ne!(app.world().resource::<Link>().epoch(), epoch, "the connection was dropped");
    }

    #[test]
    fn a_chat_line_the_server_would_refuse_is_refused_here() {
        let mut app = app();
        app.insert_resource(OnlineGame::from_view(&test_view(), 0.0));
        app.world_mut().write_message(OnlineIntent::Say("   ".into()));
        app.update();
        let notice = app.world().resource::<NetNotice>().0.clone();
        assert!(matches!(notice, Some((ErrorCode::ChatBadText, _))), "{notice:?}");
        app.world_mut().write_message(OnlineIntent::Say("  good   game ".into()));
        let messages = frame_sent(&mut app);
        assert_eq!(
            messages,
            [ClientMessage::Chat { game: GameId(1), text: ChatText::Free("good game".into()) }]
        );
    }

    fn test_view() -> ludus_protocol::GameView {
        use ludus_protocol::{PlayerInfo, Role};
        let player = |id, name: &str| PlayerInfo {
            id: PlayerId(id),
            nickname: name.into(),
            connected: true,
            rating: None,
        };
        ludus_protocol::GameView {
            game: GameId(1),
            room: "ROOM".into(),
            variant: Variant::Alquerque,
            start: Variant::Alquerque.start().to_string(),
            moves: Vec::new(),
            players: [player(1, "Ann"), player(2, "Bot")],
            role: Role::Player(Side::First),
            clock: None,
            clocks: None,
            outcome: None,
            spectators: 0,
            public: false,
            proposals: Vec::new(),
            your_proposal: None,
            rated: false,
        }
    }
}
