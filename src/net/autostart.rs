//! `--online` / `?online=`: connect at once, then do what was asked (the lobby, a quick match, a
//! room, joining one by code, watching the newest live game, accepting a challenge's link).

use crate::app::AppSet;
use crate::app::launch::{Launch, OnlineAction};
use crate::net::address::default_server;
use crate::net::connection::{Link, LinkState, OnlineConfig, ToServer};
use crate::net::intents::LobbyIntent;
use crate::net::views::Lobby;
use bevy::prelude::*;
use ludus_protocol::ClientMessage;
use ludus_rules::Variant;

/// How far the launch's online request has come.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Progress {
    /// Not started.
    #[default]
    Start,
    /// Connecting; the request goes once signed in.
    SigningIn,
    /// Watching: waiting for the lobby to list a live game.
    LookingForGame,
    /// Done.
    Done,
}

fn autostart(
    launch: Option<Res<Launch>>,
    mut link: ResMut<Link>,
    lobby: Res<Lobby>,
    mut config: ResMut<OnlineConfig>,
    mut progress: Local<Progress>,
    mut intents: MessageWriter<LobbyIntent>,
    mut out: MessageWriter<ToServer>,
) {
    let Some(auto) = launch.as_ref().and_then(|l| l.online.clone()) else { return };
    match *progress {
        Progress::Start => {
            *progress = Progress::SigningIn;
            if let Some(server) = &auto.server {
                config.server = server.clone();
            }
            if let Some(nick) = &auto.nickname {
                config.nickname = nick.clone();
            }
            let server = if config.server.is_empty() { default_server() } else { config.server.clone() };
            link.connect(&server, &config);
        }
        Progress::SigningIn if link.phase == LinkState::SignedIn => {
            *progress = Progress::Done;
            let variant =
                launch.as_ref().and_then(|l| l.game.as_ref()).map_or(Variant::Alquerque, |g| g.variant());
            let clock = config.time_control;
            match auto.action {
                OnlineAction::Lobby => {}
                OnlineAction::Quick => {
                    intents.write(LobbyIntent::QuickMatch { variant, clock, rated: false });
                }
                OnlineAction::Room => {
                    intents.write(LobbyIntent::OpenRoom { variant, clock, public: false, rated: false });
                }
                OnlineAction::Join(code) => {
                    intents.write(LobbyIntent::JoinRoom(code));
                }
                OnlineAction::Challenge(code) => {
                    intents.write(LobbyIntent::AcceptChallenge(code));
                }
                OnlineAction::Watch => {
                    *progress = Progress::LookingForGame;
                    out.write(ToServer(ClientMessage::Lobby));
                }
            }
        }
        Progress::LookingForGame => {
            if let Some(game) = lobby.view.as_ref().and_then(|l| l.games.first()).map(|g| g.game) {
                *progress = Progress::Done;
                intents.write(LobbyIntent::Watch(game));
            }
        }
        Progress::SigningIn | Progress::Done => {}
    }
}

/// Goes online at start when the launch asks for it.
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        autostart
            .in_set(AppSet::Input)
            .before(crate::net::connection::manage_link)
            .before(crate::net::intents::lobby_intents),
    );
}
