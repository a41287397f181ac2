//! The game's network code (headless, no window) against a real `ludus-server` on 127.0.0.1 and
//! a bot client: sign in, a room joined by code, moves both ways, the server restarted
//! mid-game with the game going on, spectators' proposals, resignation.

use crate::{data_dir_lock, fresh_data_dir};
use bevy::prelude::*;
use ludus::game::session::{GameCommand, Session};
use ludus::net::connection::FromServer;
use ludus::net::connection::{Link, LinkFailure, LinkState, OnlineConfig};
use ludus::net::intents::{LobbyIntent, OnlineIntent};
use ludus::net::sync::OnlineGame;
use ludus::net::views::{Archives, Leaderboards, Lobby, NetNotice, Profiles, Waiting};
use ludus_protocol::client::{Client, ClientConfig, Transport};
use ludus_protocol::{ClientMessage, GameId, GameView, PlayerId, PlayerInfo, Role, ServerMessage};
use ludus_rules::{AnyGame, Reason, Side, Variant};
use ludus_server::{ServerConfig, ServerHandle};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// The headless game with its network code.
fn headless() -> App {
    let mut app = crate::headless();
    app.add_plugins(ludus::net::plugin);
    app
}

/// A fresh server on 127.0.0.1 (UDP only) with its database in `dir`, and the app signed in.
fn server_and_app(dir: &std::path::Path) -> (ServerHandle, SocketAddr, App) {
    server_with_app(ServerConfig { ws: None, ..ServerConfig::local(dir) })
}

/// A fresh server with `config` and the app signed in.
fn server_with_app(config: ServerConfig) -> (ServerHandle, SocketAddr, App) {
    let server = ServerHandle::spawn(config).expect("server starts");
    let addr = server.udp_addr().expect("udp address");
    let mut app = headless();
    connect(&mut app, &addr.to_string());
    run_until(&mut app, &mut [], 10, "sign in", |app, _| {
        app.world().resource::<Link>().phase == LinkState::SignedIn
    });
    (server, addr, app)
}

/// The server started again on `addr` with its database in `dir`. The port was free between
/// the two servers: if something held it meanwhile for a moment (a connection the kernel gave
/// it to), binding is tried again, for at most ten seconds.
fn respawn_on(addr: SocketAddr, dir: &std::path::Path) -> ServerHandle {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match ServerHandle::spawn(ServerConfig { udp: Some(addr), ws: None, ..ServerConfig::local(dir) }) {
            Ok(server) => return server,
            Err(ludus_server::ServerError::Bind { source, .. })
                if source.kind() == std::io::ErrorKind::AddrInUse && Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(e) => panic!("the server restarts on the same port: {e}"),
        }
    }
}

/// Runs frames (and polls the bots) until `done` holds, for at most `secs` seconds.
fn run_until(
    app: &mut App,
    bots: &mut [&mut Bot],
    secs: u64,
    what: &str,
    mut done: impl FnMut(&mut App, &mut [&mut Bot]) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        app.update();
        for bot in bots.iter_mut() {
            bot.poll();
        }
        if done(app, bots) {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(3));
    }
}

/// A plain protocol client that records what it hears.
struct Bot {
    client: Client,
    game: Option<(GameId, Role, AnyGame)>,
    heard: Vec<ServerMessage>,
}

impl Bot {
    fn new(server: SocketAddr, nick: &str) -> Bot {
        let client = Client::connect(ClientConfig::new(server, Transport::Udp).nickname(nick)).expect("bot");
        Bot { client, game: None, heard: Vec::new() }
    }

    fn poll(&mut self) {
        for m in self.client.poll() {
            match &m {
                ServerMessage::Game(view) => {
                    let view = view.clone();
                    let g = view.replay().expect("the server's game replays");
                    self.game = Some((view.game, view.role, g));
                }
                ServerMessage::MovePlayed { ply, mv, .. } => {
                    if let Some((_, _, g)) = &mut self.game
                        && g.ply() == *ply as usize
                    {
                        g.play_str(mv).expect("the server's move is legal");
                    }
                }
                _ => {}
            }
            self.heard.push(m);
        }
    }

    fn side(&self) -> Option<Side> {
        match self.game.as_ref()?.1 {
            Role::Player(side) => Some(side),
            Role::Spectator => None,
        }
    }

    fn play_first_legal(&mut self) {
        let (id, _, g) = self.game.as_ref().expect("in a game");
        let mv = g.legal_moves()[0];
        let text = g.position().move_to_string(&mv).expect("notation");
        self.client.send(&ClientMessage::Move { game: *id, ply: g.ply() as u32, mv: text });
    }
}

fn session_moves(app: &App) -> Vec<String> {
    app.world().get_resource::<Session>().map(|s| s.game.move_strings()).unwrap_or_default()
}

/// One ply by whoever is to move: the app (through `GameCommand::Play`, as a tap would) or the
/// bot; waits until both have it.
fn one_ply(app: &mut App, bot: &mut Bot) {
    let before = session_moves(app).len();
    let session = app.world().resource::<Session>().clone();
    if session.human_to_move() {
        let mv = session.game.legal_moves()[0];
        app.world_mut().write_message(GameCommand::Play(mv));
    } else {
        bot.play_first_legal();
    }
    run_until(app, &mut [bot], 10, "a ply on both ends", |app, bots| {
        let mine = session_moves(app);
        let online = app.world().resource::<OnlineGame>();
        mine.len() == before + 1
            && online.confirmed == before + 1
            && bots[0].game.as_ref().is_some_and(|(_, _, g)| g.move_strings() == mine)
    });
}

fn connect(app: &mut App, server: &str) {
    app.world_mut().resource_mut::<OnlineConfig>().nickname = "Ann".to_string();
    app.world_mut().resource_scope(|world, mut net: Mut<Link>| {
        let config = world.resource::<OnlineConfig>().clone();
        net.connect(server, &config);
    });
}

#[test]
fn an_online_game_survives_a_server_restart_and_spectators_propose() {
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("online");
    let server_dir = dir.join("server");
    let (server, addr, mut app) = server_and_app(&server_dir);
    // The session token is remembered for this server.
    assert!(app.world().resource::<OnlineConfig>().tokens.contains_key(&addr.to_string()));

    // A public room (private games cannot be watched), joined by a bot with its code.
    app.world_mut().write_message(LobbyIntent::OpenRoom {
        variant: Variant::Alquerque,
        clock: None,
        public: true,
        rated: false,
    });
    run_until(&mut app, &mut [], 10, "the room", |app, _| app.world().resource::<Lobby>().waiting.is_some());
    let Some(Waiting::Room { code, .. }) = app.world().resource::<Lobby>().waiting.clone() else {
        panic!("not a room")
    };
    let mut bot = Bot::new(addr, "Bot");
    bot.client.send(&ClientMessage::JoinRoom { code });
    run_until(&mut app, &mut [&mut bot], 10, "the game on both ends", |app, bots| {
        bots[0].game.is_some() && app.world().get_resource::<OnlineGame>().is_some()
    });
    let online = app.world().resource::<OnlineGame>().clone();
    let session = app.world().resource::<Session>().clone();
    assert!(session.seats.is_online());
    assert_eq!(online.local_side(), bot.side().map(|s| !s), "opposite sides");
    assert_eq!(session.seats.human_side(), online.local_side());

    // Moves both ways.
    for _ in 0..4 {
        one_ply(&mut app, &mut bot);
    }
    // Undo does nothing online: the server's record is the truth.
    app.world_mut().write_message(GameCommand::Undo);
    app.update();
    assert_eq!(session_moves(&app).len(), 4);

    // A spectator proposes; the players hear nothing of it.
    let mut watcher = Bot::new(addr, "Wes");
    watcher.client.send(&ClientMessage::Watch { game: online.id });
    run_until(&mut app, &mut [&mut bot, &mut watcher], 10, "the spectator's view", |_, bots| {
        bots[1].game.is_some()
    });
    let proposal = {
        let (_, _, g) = watcher.game.as_ref().expect("watching");
        g.position().move_to_string(&g.legal_moves()[0]).expect("notation")
    };
    watcher.client.send(&ClientMessage::Propose { game: online.id, ply: 4, mv: proposal.clone() });
    run_until(&mut app, &mut [&mut bot, &mut watcher], 10, "the proposal echoed", |_, bots| {
        bots[1].heard.iter().any(|m| matches!(m, ServerMessage::Proposals { proposals, .. } if proposals.iter().any(|p| p.mv == proposal)))
    });
    one_ply(&mut app, &mut bot);
    assert!(
        !bot.heard.iter().any(|m| matches!(m, ServerMessage::Proposals { .. })),
        "a player heard the spectators' proposals"
    );

    // The game's own spectator path: a second app watches, a tap on the board proposes (a
    // `GameCommand::Play` that must not be played), the crowd's verdict follows the player's move.
    let mut eve = headless();
    eve.world_mut().resource_mut::<OnlineConfig>().tokens.clear();
    eve.world_mut().resource_mut::<OnlineConfig>().nickname = "Eve".to_string();
    eve.world_mut().resource_scope(|world, mut net: Mut<Link>| {
        let config = world.resource::<OnlineConfig>().clone();
        net.connect(&addr.to_string(), &config);
    });
    let both =
        |app: &mut App, eve: &mut App, bot: &mut Bot, what: &str, done: &dyn Fn(&App, &App) -> bool| {
            let deadline = Instant::now() + Duration::from_secs(10);
            loop {
                app.update();
                eve.update();
                bot.poll();
                if done(app, eve) {
                    return;
                }
                assert!(Instant::now() < deadline, "timed out waiting for {what}");
                std::thread::sleep(Duration::from_millis(3));
            }
        };
    both(&mut app, &mut eve, &mut bot, "Eve signed in", &|_, eve| {
        eve.world().resource::<Link>().phase == LinkState::SignedIn
    });
    eve.world_mut().write_message(LobbyIntent::Watch(online.id));
    both(&mut app, &mut eve, &mut bot, "Eve watching", &|_, eve| {
        eve.world().get_resource::<Session>().is_some_and(|s| s.is_watching())
    });
    let watched = eve.world().resource::<Session>().clone();
    assert!(!watched.human_to_move() && watched.can_touch(), "a spectator proposes, never plays");
    let tapped = watched.game.legal_moves()[0];
    let tapped_text = watched.game.position().move_to_string(&tapped).expect("notation");
    eve.world_mut().write_message(GameCommand::Play(tapped));
    both(&mut app, &mut eve, &mut bot, "Eve's proposal counted", &|_, eve| {
        let o = eve.world().resource::<OnlineGame>();
        o.your_proposal.is_some() && o.proposals.iter().any(|p| p.count >= 1)
    });
    assert_eq!(eve.world().resource::<OnlineGame>().your_proposal.as_deref(), Some(tapped_text.as_str()));
    assert_eq!(
        eve.world().resource::<Session>().game.ply(),
        watched.game.ply(),
        "the proposal was not played"
    );
    one_ply(&mut app, &mut bot);
    both(&mut app, &mut eve, &mut bot, "the crowd's verdict", &|app, eve| {
        let o = eve.world().resource::<OnlineGame>();
        o.verdict.is_some() && eve.world().resource::<Session>().game.move_strings() == session_moves(app)
    });
    eve.world_mut().resource_mut::<Link>().disconnect();
    drop(eve);

    // The server goes away and comes back on the same port with the same database: the game
    // reconnects into its seat and goes on with every move intact.
    let before = session_moves(&app);
    drop(watcher);
    server.stop();
    run_until(&mut app, &mut [&mut bot], 20, "the drop noticed", |app, _| {
        matches!(app.world().resource::<Link>().phase, LinkState::Reconnecting(_))
    });
    let server = respawn_on(addr, &server_dir);
    let bot_token = bot.client.token().cloned();
    let mut bot = Bot {
        client: Client::connect(ClientConfig::new(addr, Transport::Udp).token(bot_token)).expect("bot"),
        game: None,
        heard: Vec::new(),
    };
    run_until(&mut app, &mut [&mut bot], 30, "both back in the game", |app, bots| {
        app.world().resource::<Link>().phase == LinkState::SignedIn && bots[0].game.is_some()
    });
    assert_eq!(session_moves(&app), before, "no move lost");
    assert_eq!(bot.game.as_ref().map(|(_, _, g)| g.move_strings()), Some(before.clone()));
    for _ in 0..2 {
        one_ply(&mut app, &mut bot);
    }

    // The bot resigns: the app's game ends with the server's verdict.
    let id = app.world().resource::<OnlineGame>().id;
    bot.client.send(&ClientMessage::Resign { game: id });
    run_until(&mut app, &mut [&mut bot], 10, "the resignation", |app, _| {
        app.world().resource::<Session>().game.is_over()
    });
    let outcome = app.world().resource::<Session>().game.outcome().expect("over");
    assert_eq!(outcome.reason, Reason::Resignation);
    assert_eq!(outcome.winner, app.world().resource::<OnlineGame>().local_side());
    app.world_mut().resource_mut::<Link>().disconnect();
    server.stop();
}

/// Answers every request on `listener` with `status` and an English body, for at most `count`
/// requests (the thread stops by itself).
fn refusing_endpoint(listener: std::net::TcpListener, status: &'static str, count: usize) {
    use std::io::{Read, Write};
    std::thread::spawn(move || {
        for stream in listener.incoming().take(count) {
            let Ok(mut stream) = stream else { continue };
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            // Read the whole request (headers, then the body its length says) before answering.
            let mut request = Vec::new();
            let mut buf = [0u8; 4096];
            while let Ok(n) = stream.read(&mut buf) {
                if n == 0 {
                    break;
                }
                request.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&request).to_ascii_lowercase();
                if let Some(end) = text.find("\r\n\r\n") {
                    let length = text
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:").and_then(|v| v.trim().parse().ok()))
                        .unwrap_or(0usize);
                    if request.len() >= end + 4 + length {
                        break;
                    }
                }
            }
            let body = "too many new players from this address";
            let answer = format!(
                "HTTP/1.1 {status}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(answer.as_bytes());
        }
    });
}

#[test]
fn a_refusal_of_the_token_endpoint_is_said_in_the_players_language() {
    let _guard = data_dir_lock();
    let _dir = fresh_data_dir("refused");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    refusing_endpoint(listener, "429 Too Many Requests", 4);
    let mut app = headless();
    connect(&mut app, &addr.to_string());
    run_until(&mut app, &mut [], 30, "the refusal", |app, _| {
        matches!(app.world().resource::<Link>().phase, LinkState::Failed(_))
    });
    let net = app.world().resource::<Link>();
    assert_eq!(net.phase, LinkState::Failed(LinkFailure::Refused(429)));
    assert!(!net.is_active());
    for lang in [ludus::i18n::Lang::Vi, ludus::i18n::Lang::En] {
        let (_, text) = ludus::ui::widgets::link_text(lang, net);
        assert!(text.contains(&addr.to_string()), "{text}");
        assert!(!text.contains("too many new players"), "the server's English reached the screen: {text}");
        assert!(!text.contains("HTTP"), "{text}");
    }
    let (_, vi) = ludus::ui::widgets::link_text(ludus::i18n::Lang::Vi, net);
    assert!(vi.starts_with("Máy chủ"), "{vi}");
}

#[test]
fn an_unreachable_server_is_reported() {
    let _guard = data_dir_lock();
    let _dir = fresh_data_dir("unreachable");
    // A port with nobody behind it, kept so while the test runs: a TCP socket bound to it and
    // never listening (nothing else can take the port, and no connection to it gets through,
    // not even one the kernel would give that port to as its own).
    let reserved = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).expect("socket");
    reserved.bind(&SocketAddr::from(([127, 0, 0, 1], 0)).into()).expect("bind");
    let addr = reserved.local_addr().ok().and_then(|a| a.as_socket()).expect("addr");
    let mut app = headless();
    connect(&mut app, &addr.to_string());
    // The token endpoint (TCP, at that port) refuses the connection.
    run_until(&mut app, &mut [], 30, "the failure", |app, _| {
        matches!(app.world().resource::<Link>().phase, LinkState::Failed(LinkFailure::Unreachable(_)))
    });
    assert!(!app.world().resource::<Link>().is_active());
    connect(&mut app, "not an address at all");
    assert!(matches!(app.world().resource::<Link>().phase, LinkState::Failed(LinkFailure::BadAddress(_))));
    drop(reserved);
}

/// The view of a new Alquerque game, the app playing `side`.
fn new_game_view(id: u64, side: Side) -> GameView {
    let player = |n: u64, name: &str| PlayerInfo {
        id: PlayerId(n),
        nickname: name.to_string(),
        connected: true,
        rating: None,
    };
    let mut players = [player(1, "Ann"), player(2, "Bot")];
    if side == Side::Second {
        players.swap(0, 1);
    }
    GameView {
        game: GameId(id),
        room: "ABCDEF".to_string(),
        variant: Variant::Alquerque,
        start: Variant::Alquerque.start().to_string(),
        moves: Vec::new(),
        players,
        role: Role::Player(side),
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

/// A game that starts and its first move arrive in the same frame (the bot moved before the app
/// read its messages): both are applied, although the game's resources do not exist yet when
/// the move is read. The two messages are handed to the game's systems together, every run.
#[test]
fn a_game_and_its_first_move_in_one_frame_are_both_applied() {
    let _guard = data_dir_lock();
    fresh_data_dir("first-move");
    let mut app = headless();
    let view = new_game_view(7, Side::Second);
    let first = AnyGame::new(Variant::Alquerque);
    let mv = first.position().move_to_string(&first.legal_moves()[0]).expect("notation");
    app.world_mut().write_message(FromServer(ServerMessage::Game(view)));
    app.world_mut().write_message(FromServer(ServerMessage::MovePlayed {
        game: GameId(7),
        ply: 0,
        mv: mv.clone(),
        clocks: None,
        outcome: None,
        crowd: None,
    }));
    app.update();
    assert_eq!(session_moves(&app), vec![mv], "the first move is on the board");
    let online = app.world().resource::<OnlineGame>();
    assert_eq!((online.id, online.confirmed), (GameId(7), 1));
    assert!(app.world().resource::<Session>().human_to_move(), "the app's turn");
}

/// The server's news go to the session as commands: a move, a refusal of the person's move, the
/// end; a move that does not fit leaves the session behind the server, which is noticed.
#[test]
fn server_news_change_the_session_through_its_commands() {
    let _guard = data_dir_lock();
    fresh_data_dir("server-news");
    let mut app = headless();
    app.world_mut().write_message(FromServer(ServerMessage::Game(new_game_view(9, Side::First))));
    app.update();
    let session = app.world().resource::<Session>().clone();
    assert!(session.human_to_move());
    // The person's move is shown at once, then refused by the server: taken back.
    let mine = session.game.legal_moves()[0];
    app.world_mut().write_message(GameCommand::Play(mine));
    app.update();
    assert_eq!(session_moves(&app).len(), 1);
    app.world_mut().write_message(FromServer(ServerMessage::Error {
        code: ludus_protocol::ErrorCode::NotYourTurn,
        message: "no".to_string(),
    }));
    app.update();
    assert_eq!(session_moves(&app).len(), 0, "the refused move is taken back");
    // The server's verdict ends the game.
    let revision = app.world().resource::<Session>().revision;
    app.world_mut().write_message(FromServer(ServerMessage::GameOver {
        game: GameId(9),
        outcome: ludus_rules::Outcome::win(Side::First, Reason::Resignation),
        archive: ludus_protocol::ArchivedGame {
            game: GameId(9),
            record: AnyGame::new(Variant::Alquerque).record(),
            outcome: ludus_rules::Outcome::win(Side::First, Reason::Resignation),
            players: ["Ann".to_string(), "Bot".to_string()],
            clock: None,
            proposals: Vec::new(),
            started_ms: 0,
            ended_ms: 0,
            chat: Vec::new(),
            rated: false,
            ratings: None,
        },
    }));
    app.update();
    let session = app.world().resource::<Session>();
    assert_eq!(session.game.outcome().map(|o| o.reason), Some(Reason::Resignation));
    assert!(session.revision > revision);
}

/// The app opens an Alquerque room (`public`: listed, so that it can be watched) and a bot joins
/// it by its code; returns the bot once the game is on both ends.
fn game_with_bot(app: &mut App, addr: SocketAddr, public: bool) -> Bot {
    app.world_mut().write_message(LobbyIntent::OpenRoom {
        variant: Variant::Alquerque,
        clock: None,
        public,
        rated: false,
    });
    run_until(app, &mut [], 10, "the room", |app, _| app.world().resource::<Lobby>().waiting.is_some());
    let Some(Waiting::Room { code, .. }) = app.world().resource::<Lobby>().waiting.clone() else {
        panic!("not a room")
    };
    let mut bot = Bot::new(addr, "Bot");
    bot.client.send(&ClientMessage::JoinRoom { code });
    run_until(app, &mut [&mut bot], 10, "the game on both ends", |app, bots| {
        bots[0].game.is_some() && app.world().get_resource::<OnlineGame>().is_some()
    });
    bot
}

/// Draw offers through a real server: the game's offer is declined by the bot (and cannot be
/// made again at that move), the bot's offer is accepted from the game's panel command, and the
/// game ends drawn by agreement on both ends.
#[test]
fn draw_offers_go_through_the_server_both_ways() {
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("online-draws");
    let (_server, addr, mut app) = server_and_app(&dir.join("server"));
    let mut bot = game_with_bot(&mut app, addr, false);
    let online = app.world().resource::<OnlineGame>().clone();
    let mine = online.local_side().expect("the app plays");
    let game = online.id;

    // Once both sides have moved, the app offers; the bot hears it and declines.
    one_ply(&mut app, &mut bot);
    one_ply(&mut app, &mut bot);
    app.world_mut().write_message(GameCommand::OfferDraw);
    run_until(&mut app, &mut [&mut bot], 10, "the offer on both ends", |app, bots| {
        app.world().resource::<Session>().draw.open == Some(mine)
            && bots[0].heard.iter().any(|m| matches!(m, ServerMessage::DrawOffered { by, .. } if *by == mine))
    });
    bot.client.send(&ClientMessage::AnswerDraw { game, accept: false });
    run_until(&mut app, &mut [&mut bot], 10, "the refusal", |app, _| {
        app.world().resource::<Session>().draw.declined_by == Some(!mine)
    });
    let session = app.world().resource::<Session>().clone();
    assert_eq!(session.draw.open, None);
    assert!(!session.game.is_over());
    assert!(!session.may_offer_draw(mine), "one offer a move");

    // A move each way, then the bot offers and the app accepts.
    one_ply(&mut app, &mut bot);
    one_ply(&mut app, &mut bot);
    bot.client.send(&ClientMessage::OfferDraw { game });
    run_until(&mut app, &mut [&mut bot], 10, "the bot's offer", |app, _| {
        app.world().resource::<Session>().draw.open == Some(!mine)
    });
    app.world_mut().write_message(GameCommand::AnswerDraw(true));
    let agreed = ludus_rules::Outcome::draw(Reason::Agreement);
    run_until(&mut app, &mut [&mut bot], 10, "the agreed draw on both ends", |app, bots| {
        app.world().resource::<Session>().game.outcome() == Some(agreed)
            && bots[0]
                .heard
                .iter()
                .any(|m| matches!(m, ServerMessage::GameOver { outcome, .. } if *outcome == agreed))
    });
    let archive = app.world().resource::<OnlineGame>().archive.clone().expect("the archive");
    assert_eq!(archive.outcome, agreed);
}

/// The game's chat through a real server: a quick phrase from the opponent in the person's
/// language, free text sent from the game, a mute (the muted speaker's next line neither sent nor
/// shown), and a spectator's line that the players read only in the archive once the game is over.
#[test]
fn the_chat_goes_through_the_server_and_the_spectators_are_read_after_the_game() {
    use ludus::screens::play::chat_line_text;
    use ludus_protocol::{ChatChannel, ChatText, QuickPhrase};
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("online-chat");
    // The chat's rate limit (one line in 500 ms) is the server's own test's: here lines follow
    // each other as fast as the round trips allow.
    let limits = ludus_server::core::Limits {
        chat_interval: Duration::ZERO,
        chat_lines: 100,
        ..ludus_server::core::Limits::default()
    };
    let (_server, addr, mut app) =
        server_with_app(ServerConfig { ws: None, limits, ..ServerConfig::local(dir.join("server")) });
    let mut bot = game_with_bot(&mut app, addr, true);
    let game = app.world().resource::<OnlineGame>().id;
    let lang = ludus::i18n::Lang::En;
    let shown = |app: &App| -> Vec<String> {
        let online = app.world().resource::<OnlineGame>();
        online.chat_shown().map(|l| chat_line_text(lang, l, true)).collect()
    };

    bot.client.send(&ClientMessage::Chat { game, text: ChatText::Phrase(QuickPhrase::GoodLuck) });
    run_until(&mut app, &mut [&mut bot], 10, "the bot's phrase", |app, _| shown(app) == ["Bot: Good luck!"]);
    app.world_mut().write_message(OnlineIntent::Say("  thanks,   you too ".into()));
    run_until(&mut app, &mut [&mut bot], 10, "the app's line at the bot", |_, bots| {
        bots[0].heard.iter().any(|m| {
            matches!(m, ServerMessage::Chat(l) if l.text == ChatText::Free("thanks, you too".into()) && l.channel == ChatChannel::Players)
        })
    });

    // A spectator talks: the players hear nothing of it while the game goes on.
    let mut watcher = Bot::new(addr, "Wes");
    watcher.client.send(&ClientMessage::Watch { game });
    run_until(&mut app, &mut [&mut bot, &mut watcher], 10, "the spectator's view", |_, bots| {
        bots[1].game.is_some()
    });
    watcher.client.send(&ClientMessage::Chat { game, text: ChatText::Free("go Ann".into()) });
    run_until(&mut app, &mut [&mut bot, &mut watcher], 10, "the spectator's own line", |_, bots| {
        bots[1]
            .heard
            .iter()
            .any(|m| matches!(m, ServerMessage::Chat(l) if l.channel == ChatChannel::Spectators))
    });

    // The app mutes the bot: the bot's next line is not shown.
    let bot_id =
        app.world().resource::<OnlineGame>().players.iter().find(|p| p.nickname == "Bot").map(|p| p.id);
    let bot_id = bot_id.expect("the bot plays");
    app.world_mut().write_message(OnlineIntent::Mute { player: bot_id, muted: true });
    run_until(&mut app, &mut [&mut bot, &mut watcher], 10, "the mute", |app, _| {
        app.world().resource::<OnlineGame>().muted == [bot_id]
    });
    // The bot says "Oops", then the app says "ping": the server deals with the bot's line
    // before the app's, so a line delivered to the app would arrive before the app's own echo.
    let oops = ChatText::Phrase(QuickPhrase::Oops);
    bot.client.send(&ClientMessage::Chat { game, text: oops.clone() });
    run_until(&mut app, &mut [&mut bot, &mut watcher], 10, "the bot's own line back", |_, bots| {
        bots[0].heard.iter().any(|m| matches!(m, ServerMessage::Chat(l) if l.text == oops))
    });
    let ping = ChatText::Free("ping".into());
    app.world_mut().write_message(OnlineIntent::Say("ping".into()));
    run_until(&mut app, &mut [&mut bot, &mut watcher], 10, "the app's own line back", |app, _| {
        app.world().resource::<OnlineGame>().chat.iter().any(|l| l.text == ping)
    });
    let heard = app.world().resource::<OnlineGame>().chat.clone();
    assert!(!heard.iter().any(|l| l.text == oops), "the server sent a muted speaker's line: {heard:?}");
    bot.client.send(&ClientMessage::Resign { game });
    run_until(&mut app, &mut [&mut bot, &mut watcher], 10, "the end", |app, _| {
        app.world().resource::<OnlineGame>().archive.is_some()
    });
    let lines = shown(&app);
    assert!(!lines.iter().any(|l| l.contains("Oops")), "a muted line was shown: {lines:?}");
    assert!(lines.contains(&"Wes (spectator): go Ann".to_string()), "{lines:?}");
    assert!(lines.contains(&"Ann: thanks, you too".to_string()), "{lines:?}");
}

/// The person's own profile comes after the sign-in and follows a claim of the nickname (which
/// opens rated play in the lobby); the leaderboard of a game is asked for once and arrives.
#[test]
fn the_own_profile_follows_the_claim_and_the_leaderboard_arrives() {
    use ludus_protocol::Password;
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("online-claim");
    let (_server, _addr, mut app) = server_and_app(&dir.join("server"));
    run_until(&mut app, &mut [], 10, "the own profile", |app, _| {
        app.world().resource::<Profiles>().own.as_ref().is_some_and(|p| !p.claimed && p.nickname == "Ann")
    });
    app.world_mut().write_message(LobbyIntent::Claim(Password("correct horse battery".into())));
    run_until(&mut app, &mut [], 10, "the claim in the profile", |app, _| {
        app.world().resource::<Profiles>().own.as_ref().is_some_and(|p| p.claimed)
    });
    app.world_mut().write_message(LobbyIntent::AskLeaderboard(Variant::Alquerque));
    run_until(&mut app, &mut [], 10, "the leaderboard", |app, _| {
        app.world().resource::<Leaderboards>().shown.as_ref().is_some_and(|b| b.variant == Variant::Alquerque)
    });
    let board = app.world().resource::<Leaderboards>().shown.clone().expect("a leaderboard");
    assert!(board.top.is_empty() && board.yours.is_none(), "nobody has played a rated game: {board:?}");
}

/// Profiles and archives: a profile asked for while the own one is on its way waits its turn
/// (no refusal); a private game is in the own profile only; its archive comes back whole and
/// opens as the game it was, with the person here on their side.
#[test]
fn profiles_wait_their_turn_and_a_recent_game_opens_from_its_archive() {
    use ludus::players::analysis::archived_game;
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("online-profiles");
    let (_server, addr, mut app) = server_and_app(&dir.join("server"));
    let mut bot = game_with_bot(&mut app, addr, false);
    let (game, side) = {
        let online = app.world().resource::<OnlineGame>();
        (online.id, online.local_side().expect("the app plays"))
    };
    app.world_mut().resource_mut::<Link>().send(ClientMessage::Resign { game });
    run_until(&mut app, &mut [&mut bot], 10, "the archive at the end", |app, _| {
        app.world().resource::<OnlineGame>().archive.is_some()
    });
    let played = app.world().resource::<OnlineGame>().archive.clone().expect("archived");
    // Two asks in one frame: the server answers one profile at a time, the game asks in turn.
    app.world_mut().write_message(LobbyIntent::OpenProfile("Bot".into()));
    app.world_mut().write_message(LobbyIntent::OpenProfile("Ann".into()));
    run_until(&mut app, &mut [&mut bot], 10, "the second profile", |app, _| {
        app.world().resource::<Profiles>().viewed.as_ref().is_some_and(|p| p.nickname == "Ann")
    });
    assert_eq!(app.world().resource::<NetNotice>().0, None, "no refusal");
    let own = app.world().resource::<Profiles>().viewed.clone().expect("a profile");
    assert_eq!(own.recent.first().map(|g| g.game), Some(game), "a private game is in the own profile");
    // Bot's profile (which came first) does not show it to the app.
    app.world_mut().write_message(LobbyIntent::OpenProfile("Bot".into()));
    run_until(&mut app, &mut [&mut bot], 10, "Bot's profile", |app, _| {
        app.world().resource::<Profiles>().viewed.as_ref().is_some_and(|p| p.nickname == "Bot")
    });
    let theirs = app.world().resource::<Profiles>().viewed.clone().expect("a profile");
    assert!(theirs.recent.is_empty(), "others do not see a private game: {:?}", theirs.recent);
    app.world_mut().write_message(LobbyIntent::AskArchive(game));
    run_until(&mut app, &mut [&mut bot], 10, "the archive", |app, _| {
        app.world().resource::<Archives>().came.is_some()
    });
    let archive = app.world_mut().resource_mut::<Archives>().came.take().expect("the archive");
    assert_eq!(*archive, played, "the archive is the game as it ended");
    let (replayed, seats) = archived_game(&archive, Some("Ann")).expect("a valid record");
    assert_eq!(replayed.move_strings(), played.record.moves);
    assert!(replayed.is_over(), "ended by resignation");
    assert_eq!(seats.human_side(), Some(side), "the person here on their side");
    assert_eq!(archived_game(&archive, Some("Someone")).expect("valid").1.human_side(), None);
    // After the profile and archive reads, a sign-in with the stored credential (a lookup by
    // the same reader) still goes through.
    app.world_mut().resource_mut::<Link>().reconnect();
    run_until(&mut app, &mut [&mut bot], 10, "signed in again after the reads", |app, _| {
        app.world().resource::<Link>().phase == LinkState::SignedIn
    });
}

/// The lobby's filter lets through the rooms and live games of one game, one time control,
/// rated or casual, and everything by default.
#[test]
fn the_lobby_filter_keeps_what_was_asked_for() {
    use ludus::screens::lobby::LobbyFilter;
    use ludus_protocol::{ClockSpec, GameSummary, LobbyView, RoomSummary};
    let room = |code: &str, variant, clock, rated| RoomSummary {
        code: code.to_string(),
        variant,
        clock,
        host: "Ann".to_string(),
        rated,
        host_rating: None,
    };
    let blitz = ClockSpec::CONTROLS[2];
    let lobby = LobbyView {
        rooms: vec![
            room("A", Variant::Alquerque, None, false),
            room("B", Variant::Alquerque, Some(blitz), true),
            room("C", Variant::Latrunculi, Some(blitz), false),
        ],
        games: vec![GameSummary {
            game: GameId(9),
            variant: Variant::Latrunculi,
            players: ["Ann".to_string(), "Bob".to_string()],
            spectators: 0,
            ply: 3,
            clock: Some(blitz),
            rated: true,
        }],
        total_rooms: 3,
        total_games: 1,
        online: 4,
    };
    let codes = |f: LobbyFilter| f.rooms(&lobby).iter().map(|r| r.code.clone()).collect::<Vec<_>>().join("");
    assert_eq!(codes(LobbyFilter::default()), "ABC");
    assert_eq!(codes(LobbyFilter { variant: Some(Variant::Alquerque), ..default() }), "AB");
    assert_eq!(codes(LobbyFilter { clock: Some(None), ..default() }), "A", "untimed only");
    assert_eq!(codes(LobbyFilter { clock: Some(Some(blitz)), ..default() }), "BC");
    assert_eq!(codes(LobbyFilter { rated: Some(true), ..default() }), "B");
    assert_eq!(codes(LobbyFilter { rated: Some(false), clock: Some(Some(blitz)), ..default() }), "C");
    assert_eq!(LobbyFilter { rated: Some(true), ..default() }.games(&lobby).len(), 1);
    assert!(LobbyFilter { rated: Some(false), ..default() }.games(&lobby).is_empty());
    assert!(LobbyFilter { variant: Some(Variant::LatrunculiQuick), ..default() }.games(&lobby).is_empty());
}

/// Two nodes of one service on a PostgreSQL started by the test: the game, signed in on node
/// a, joins by its code a room that waits on node b; node a redirects it, the game follows with
/// its credential, plays there, and a reconnection starts again at node a, which sends it back
/// into its seat on node b. Skipped (with a message) without PostgreSQL's binaries.
#[test]
fn the_game_follows_a_redirect_to_the_node_with_the_room() {
    use ludus_pg_harness::TestPostgres;
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("online-nodes");
    let Some(pg) = TestPostgres::start("the_game_follows_a_redirect_to_the_node_with_the_room") else {
        return;
    };
    let url = pg.new_database("client_nodes");
    let key = dir.join("shared.key");
    std::fs::write(&key, "5a".repeat(32)).expect("key file");
    let node = |name: &str| {
        ServerHandle::spawn(ServerConfig {
            ws: None,
            database: Some(url.clone()),
            node_name: Some(name.to_string()),
            key_file: Some(key.clone()),
            ..ServerConfig::local(dir.join(name))
        })
        .expect("node starts")
    };
    let (a, b) = (node("a"), node("b"));
    let mut bot = Bot::new(b.udp_addr().expect("udp"), "Bot");
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut asked = false;
    let code = loop {
        bot.poll();
        if !asked && bot.client.player().is_some() {
            asked = true;
            bot.client.send(&ClientMessage::OpenRoom {
                variant: Variant::Alquerque,
                clock: None,
                public: true,
                rated: false,
            });
        }
        if let Some(code) = bot.heard.iter().find_map(|m| match m {
            ServerMessage::RoomOpened { code, .. } => Some(code.clone()),
            _ => None,
        }) {
            break code;
        }
        assert!(Instant::now() < deadline, "no room: {:?}", bot.heard);
        std::thread::sleep(Duration::from_millis(3));
    };
    let mut app = headless();
    let a_addr = a.udp_addr().expect("udp").to_string();
    connect(&mut app, &a_addr);
    run_until(&mut app, &mut [&mut bot], 10, "sign in on node a", |app, _| {
        app.world().resource::<Link>().phase == LinkState::SignedIn
    });
    let me = app.world().resource::<Link>().player;
    // Node a lists node b's room once b has published its lobby (a few hundred milliseconds).
    let mut asked_at = Instant::now() - Duration::from_secs(1);
    run_until(&mut app, &mut [&mut bot], 10, "node b's room in node a's lobby", |app, _| {
        if asked_at.elapsed() >= Duration::from_millis(200) {
            asked_at = Instant::now();
            app.world_mut().resource_mut::<Link>().send(ClientMessage::Lobby);
        }
        let lobby = app.world().resource::<Lobby>();
        lobby.view.as_ref().is_some_and(|l| l.rooms.iter().any(|r| r.code == code))
    });
    app.world_mut().write_message(LobbyIntent::JoinRoom(code));
    run_until(&mut app, &mut [&mut bot], 20, "the game on node b", |app, bots| {
        if let Some(notice) = &app.world().resource::<NetNotice>().0 {
            panic!("refused: {notice:?}");
        }
        bots[0].game.is_some() && app.world().get_resource::<OnlineGame>().is_some()
    });
    assert_eq!(app.world().resource::<NetNotice>().0, None);
    let net = app.world().resource::<Link>();
    assert_eq!(net.player, me, "the same player on node b");
    assert_eq!(net.server, a_addr, "the server as given stays the one to come back to");
    assert_eq!(net.node(), b.udp_addr(), "on node b");
    one_ply(&mut app, &mut bot);
    one_ply(&mut app, &mut bot);
    // A reconnection goes to node a first, which sends the game back to its seat on node b.
    app.world_mut().resource_mut::<Link>().reconnect();
    let game = app.world().resource::<OnlineGame>().id;
    assert_eq!(app.world().resource::<Link>().node(), a.udp_addr(), "back to the server as given");
    run_until(&mut app, &mut [&mut bot], 20, "the seat on node b again after reconnecting", |app, _| {
        let net = app.world().resource::<Link>();
        net.phase == LinkState::SignedIn && net.player == me && net.node() == b.udp_addr()
    });
    one_ply(&mut app, &mut bot);
    assert_eq!(app.world().resource::<OnlineGame>().id, game);
    assert_eq!(session_moves(&app).len(), 3);
}

/// Turn-based play from the game's side: a bot challenges the player by nickname; the lobby
/// lists the challenge, the player accepts it with its intent, the game is then listed as the
/// player's turn (the title and the window count it), and after the player's move as the
/// opponent's.
#[test]
fn a_turn_based_challenge_is_listed_accepted_and_counted() {
    use ludus::net::views::TurnGames;
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("online-turn-based");
    let (_server, addr, mut app) = server_and_app(&dir.join("server"));
    let mut bot = Bot::new(addr, "Bot");
    run_until(&mut app, &mut [&mut bot], 10, "the bot signed in", |_, bots| {
        bots[0].heard.iter().any(|m| matches!(m, ServerMessage::Welcome { .. }))
    });
    bot.client.send(&ClientMessage::Challenge {
        opponent: Some("Ann".into()),
        variant: Variant::Alquerque,
        side: Some(Side::Second),
        days: 3,
        listed: false,
        rated: false,
    });
    run_until(&mut app, &mut [&mut bot], 10, "the challenge listed", |app, _| {
        app.world().resource::<TurnGames>().0.as_ref().is_some_and(|v| v.incoming.len() == 1)
    });
    let code = app.world().resource::<TurnGames>().0.as_ref().expect("listed").incoming[0].code.clone();
    app.world_mut().write_message(LobbyIntent::AcceptChallenge(code));
    run_until(&mut app, &mut [&mut bot], 10, "the game listed as the player's turn", |app, _| {
        let turns = app.world().resource::<TurnGames>();
        turns.your_turn() == 1
            && turns.0.as_ref().is_some_and(|v| v.incoming.is_empty() && v.games.len() == 1)
    });
    assert_eq!(ludus::shell::title_text(ludus::i18n::Lang::En, 1), "(1) Ludus — Your turn in 1 game online");
    // The player's move: the game is then the opponent's turn.
    run_until(&mut app, &mut [&mut bot], 10, "the game on the board", |app, _| {
        app.world().get_resource::<OnlineGame>().is_some() && app.world().get_resource::<Session>().is_some()
    });
    let mv = app.world().resource::<Session>().game.legal_moves()[0];
    app.world_mut().write_message(GameCommand::Play(mv));
    run_until(&mut app, &mut [&mut bot], 10, "the count back to none", |app, _| {
        let turns = app.world().resource::<TurnGames>();
        turns.your_turn() == 0
            && turns.0.as_ref().is_some_and(|v| v.games.len() == 1 && !v.games[0].your_turn)
    });
}

/// An open challenge made on the online screen is listed as the player's own with its code; a
/// bot takes it by the code and the game comes to the board.
#[test]
fn an_open_challenge_made_here_is_taken_by_its_code() {
    use ludus::net::intents::ChallengeAsk;
    use ludus::net::views::TurnGames;
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("online-open-challenge");
    let (_server, addr, mut app) = server_and_app(&dir.join("server"));
    let mut bot = Bot::new(addr, "Bot");
    run_until(&mut app, &mut [&mut bot], 10, "the bot signed in", |_, bots| {
        bots[0].heard.iter().any(|m| matches!(m, ServerMessage::Welcome { .. }))
    });
    app.world_mut().write_message(LobbyIntent::Challenge(ChallengeAsk {
        opponent: " ".into(),
        variant: Variant::Alquerque,
        side: Some(Side::First),
        days: 7,
        listed: true,
        rated: false,
    }));
    run_until(&mut app, &mut [&mut bot], 10, "the challenge listed as the player's own", |app, _| {
        app.world().resource::<TurnGames>().0.as_ref().is_some_and(|v| v.outgoing.len() == 1)
    });
    let own = app.world().resource::<TurnGames>().0.as_ref().expect("listed").outgoing[0].clone();
    assert_eq!((own.to, own.days, own.listed, own.side), (None, 7, true, Some(Side::First)));
    // The link's command on the desktop carries the code and the server.
    let link = ludus::net::address::challenge_link(&own.code, &addr.to_string());
    assert_eq!(link, format!("ludus --online challenge:{} --server {addr}", own.code));
    bot.client.send(&ClientMessage::AcceptChallenge { code: own.code.to_lowercase() });
    run_until(&mut app, &mut [&mut bot], 10, "the game on the board, the player's move", |app, _| {
        app.world().get_resource::<OnlineGame>().is_some_and(|o| o.local_side() == Some(Side::First))
            && app.world().get_resource::<Session>().is_some_and(|s| s.human_to_move())
            && app.world().resource::<TurnGames>().your_turn() == 1
    });
}

/// A game the server starts while the person plays the computer here waits to be taken: the
/// board keeps the person's game, the waiting game follows the server's moves, and taking it
/// puts it on the board with those moves; letting a real-time one go leaves it.
#[test]
fn a_match_found_during_a_game_here_waits_to_be_taken() {
    use ludus::app::Screen;
    use ludus::game::session::Seats;
    use ludus::net::connection::ToServer;
    use ludus::net::sync::FoundMatch;
    let _guard = data_dir_lock();
    fresh_data_dir("found-match");
    let mut app = headless();
    app.add_plugins(bevy::state::app::StatesPlugin).init_state::<Screen>();
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    let seats = Seats::versus_computer(Side::First, ludus::game::session::Level::Easy);
    app.insert_resource(Session::new(Variant::Latrunculi, seats));
    app.update();
    // The opponent is first and moves before the person answers.
    let view = new_game_view(9, Side::Second);
    let start = AnyGame::new(Variant::Alquerque);
    let mv = start.position().move_to_string(&start.legal_moves()[0]).expect("notation");
    app.world_mut().write_message(FromServer(ServerMessage::Game(view.clone())));
    app.update();
    app.world_mut().write_message(FromServer(ServerMessage::MovePlayed {
        game: GameId(9),
        ply: 0,
        mv: mv.clone(),
        clocks: None,
        outcome: None,
        crowd: None,
    }));
    app.update();
    let found = app.world().get_resource::<FoundMatch>().expect("the game waits");
    assert_eq!(
        (found.view.game, found.view.moves.clone(), found.taken),
        (GameId(9), vec![mv.clone()], false)
    );
    assert!(app.world().get_resource::<OnlineGame>().is_none(), "not on the board");
    assert_eq!(app.world().resource::<Session>().game.variant(), Variant::Latrunculi, "the own game stays");
    app.world_mut().write_message(OnlineIntent::TakeMatch);
    for _ in 0..3 {
        app.update();
    }
    assert!(app.world().get_resource::<FoundMatch>().is_none());
    assert_eq!(app.world().resource::<OnlineGame>().id, GameId(9));
    assert_eq!(session_moves(&app), vec![mv], "the waiting game's move came with it");
    assert!(app.world().resource::<Session>().human_to_move());

    // Another one, let go: the server is told to leave it.
    app.world_mut().remove_resource::<OnlineGame>();
    app.insert_resource(Session::new(Variant::Latrunculi, seats));
    app.update();
    app.world_mut().write_message(FromServer(ServerMessage::Game(new_game_view(10, Side::First))));
    app.update();
    assert!(app.world().get_resource::<FoundMatch>().is_some());
    let mut cursor = app.world().resource::<Messages<ToServer>>().get_cursor_current();
    app.world_mut().write_message(OnlineIntent::LetMatchGo);
    app.update();
    let sent: Vec<_> =
        cursor.read(app.world().resource::<Messages<ToServer>>()).map(|m| m.0.clone()).collect();
    assert_eq!(sent, [ClientMessage::Leave]);
    assert!(app.world().get_resource::<FoundMatch>().is_none());
    assert_eq!(app.world().resource::<Session>().game.variant(), Variant::Latrunculi);
}

/// The analysis of an Alquerque game asks the server's value service: a move that throws a
/// proven win away (a1-a2, a draw, from a five-piece position White wins) is a blunder judged
/// by the server's values, where the game's own tables (four pieces) and book know nothing,
/// and every move's value of the position is there for the screen.
#[test]
fn the_analysis_marks_a_thrown_win_by_the_servers_values() {
    use ludus::game::session::Seats;
    use ludus::players::analysis::{Analysis, opened};
    use ludus_ai::review::{Mark, Source};
    use ludus_protocol::values::ValueWord;
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("online-served-values");
    let oracle = Some(ludus_server::oracle::OracleConfig::default());
    let (_server, _addr, mut app) =
        server_with_app(ServerConfig { ws: None, oracle, ..ServerConfig::local(dir.join("server")) });
    app.add_plugins(bevy::state::app::StatesPlugin)
        .init_state::<ludus::app::Screen>()
        .add_plugins(ludus::players::analysis::archive_plugin);
    let start =
        ludus_rules::AnyPosition::parse(Variant::Alquerque, "2B2/1B3/5/1W1W1/W4 w").expect("position");
    let mut game = AnyGame::from_position(start);
    game.play_str("a1-a2").expect("legal");
    let (analysis, session) = opened(game, Seats::two_players());
    app.insert_resource(analysis).insert_resource(session);
    run_until(&mut app, &mut [], 60, "the move judged by the server's values", |app, _| {
        let a = app.world().resource::<Analysis>();
        assert!(!a.served.gave_up, "the server gave no values: {:?}", a.served.failure);
        a.judgement(0).is_some_and(|j| j.source == Source::Server)
    });
    let a = app.world().resource::<Analysis>();
    let j = a.judgement(0).expect("judged");
    assert_eq!((j.mark, j.kept), (Mark::Blunder, None));
    let view = a.served.values[0].as_ref().expect("the first position's values");
    assert_eq!(view.value, ValueWord::Win);
    assert_eq!(view.move_value("a1-a2").map(|m| m.value), Some(ValueWord::Draw));
    assert!(!a.served.gave_up);
}

/// A new page of the same browser (the same stored credential) that asks for another nickname
/// signs in: closing a tab and opening the game again, with `nick=` in its address.
#[test]
fn a_second_app_with_the_stored_credential_and_another_nickname_signs_in() {
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("online-second-page");
    let (_server, addr, mut first) = server_and_app(&dir.join("server"));
    let me = first.world().resource::<Link>().player;
    for _ in 0..20 {
        first.update();
    }
    drop(first);
    let mut second = headless();
    second.world_mut().resource_mut::<OnlineConfig>().nickname = "Bea".to_string();
    second.world_mut().resource_scope(|world, mut net: Mut<Link>| {
        let config = world.resource::<OnlineConfig>().clone();
        net.connect(&addr.to_string(), &config);
    });
    run_until(&mut second, &mut [], 15, "the second app signed in", |app, _| {
        let link = app.world().resource::<Link>();
        assert!(
            !matches!(link.phase, LinkState::Failed(_)),
            "{:?} {:?}",
            link.phase,
            app.world().resource::<NetNotice>().0
        );
        link.phase == LinkState::SignedIn
    });
    assert_eq!(second.world().resource::<Link>().player, me, "the same player");
}
