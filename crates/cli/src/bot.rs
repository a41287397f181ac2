//! `ludus-cli bot`: one bot client on a `ludus-server`, to play a person (or a test) online. It
//! signs in, then quick-matches, opens a room or joins one by code, and plays each of its turns
//! with the engine at a level (random by default), printing what happens line by line.
//!
//! It stops with success once the game is over or both sides have made `--moves` moves, and
//! fails (exit code 1) when `--timeout` passes first or the server refuses something. It prints
//! the chat it hears, and answers the opponent's draw offers (declines them unless
//! `--accept-draws`).

use crate::args::{parse_level, parse_variant};
use crate::error::CliError;
use ludus_ai::{Level, Limits};
use ludus_protocol::client::{Client, ClientConfig, Transport};
use ludus_protocol::{ClientMessage, Role, ServerMessage};
use ludus_rules::{AnyGame, Side, Variant};
use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["quick", "room", "join"])))]
pub struct BotArgs {
    /// The server's address, host:port
    #[arg(long, value_name = "ADDR")]
    server: String,
    /// Connect over WebSocket instead of UDP
    #[arg(long)]
    ws: bool,
    /// The server's HTTP(S) address, where connect tokens come from [default: http:// and the
    /// --server address (the server serves HTTP on the TCP port of its UDP port); give it with --ws]
    #[arg(long, value_name = "URL")]
    api: Option<String>,
    /// The bot's nickname
    #[arg(long, value_name = "NAME", default_value = "Bot")]
    nick: String,
    /// Quick-match a game of GAME
    #[arg(long, value_name = "GAME", value_parser = parse_variant)]
    quick: Option<Variant>,
    /// Open a public room of GAME
    #[arg(long, value_name = "GAME", value_parser = parse_variant)]
    room: Option<Variant>,
    /// Join the room with this code
    #[arg(long, value_name = "CODE")]
    join: Option<String>,
    /// random, easy, medium or hard
    #[arg(long, value_name = "LEVEL", value_parser = parse_level, default_value = "random")]
    level: Level,
    /// Stop after N moves each
    #[arg(long, value_name = "N")]
    moves: Option<usize>,
    /// Stay seated this many seconds after the moves
    #[arg(long, value_name = "SECS", default_value_t = 0)]
    linger: u64,
    /// Wait this long before each move
    #[arg(long, value_name = "MS", default_value_t = 300)]
    think_ms: u64,
    /// Fail when not done after this many seconds
    #[arg(long, value_name = "SECS", default_value_t = 120)]
    timeout: u64,
    /// Accept the opponent's draw offers (else they are declined)
    #[arg(long)]
    accept_draws: bool,
}

fn say(line: impl AsRef<str>) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", line.as_ref());
    let _ = out.flush();
}

pub fn run(args: BotArgs) -> Result<(), CliError> {
    let server_text = &args.server;
    let server: SocketAddr = server_text
        .to_socket_addrs()
        .map_err(|e| CliError::Usage(format!("bad --server '{server_text}': {e}")))?
        .next()
        .ok_or_else(|| CliError::Usage(format!("bad --server '{server_text}'")))?;
    let transport = if args.ws { Transport::WebSocket } else { Transport::Udp };
    let level = args.level;
    let moves_wanted: usize = args.moves.unwrap_or(usize::MAX);
    let think = Duration::from_millis(args.think_ms);
    let timeout = Duration::from_secs(args.timeout);
    // After the moves, stay seated this long before leaving (the opponent may look at the board).
    let linger = Duration::from_secs(args.linger);
    let mut done_at: Option<Instant> = None;
    let first = match (args.quick, args.room, &args.join) {
        (Some(variant), None, None) => ClientMessage::FindMatch { variant, clock: None, rated: false },
        (None, Some(variant), None) => {
            ClientMessage::OpenRoom { variant, clock: None, public: true, rated: false }
        }
        (None, None, Some(code)) => ClientMessage::JoinRoom { code: code.clone() },
        _ => return Err(CliError::Usage("give one of --quick, --room, --join".to_string())),
    };
    let nick = args.nick.as_str();
    let mut config = ClientConfig::new(server, transport).nickname(nick);
    if let Some(api) = &args.api {
        config = config.api(api.clone());
    }
    let mut client =
        Client::connect(config).map_err(|e| CliError::Network(format!("cannot connect: {e}")))?;
    let started = Instant::now();
    let mut asked = false;
    let mut game: Option<(ludus_protocol::GameId, Side, AnyGame)> = None;
    let mut my_moves = 0usize;
    let mut their_moves = 0usize;
    let mut move_due: Option<Instant> = None;
    let mut seed = 1u64;
    loop {
        if started.elapsed() > timeout {
            return Err(CliError::Network(format!(
                "timed out after {} s ({my_moves} own moves, {their_moves} opponent moves)",
                timeout.as_secs()
            )));
        }
        if client.is_disconnected() {
            return Err(CliError::Network(format!("disconnected: {:?}", client.state())));
        }
        for message in client.poll() {
            match message {
                ServerMessage::Welcome { nickname, .. } => {
                    say(format!("signed in as {nickname}"));
                    if !asked {
                        asked = true;
                        client.send(&first);
                    }
                }
                ServerMessage::RoomOpened { code, .. } => say(format!("room {code}")),
                ServerMessage::Queued { variant, .. } => say(format!("queued for {}", variant.name())),
                ServerMessage::Game(view) => {
                    let Role::Player(side) = view.role else {
                        return Err(CliError::Network("joined as a spectator".to_string()));
                    };
                    let g = view.replay().map_err(|e| CliError::from(e).at("the server's game"))?;
                    say(format!(
                        "game {} as {side:?} against {}",
                        view.game.0,
                        view.players[(!side).index()].nickname
                    ));
                    game = Some((view.game, side, g));
                    move_due = Some(Instant::now() + think);
                }
                ServerMessage::MovePlayed { game: id, ply, mv, .. } => {
                    let Some((gid, side, g)) = &mut game else { continue };
                    if *gid != id || ply as usize != g.ply() {
                        continue;
                    }
                    let mover = g.side_to_move();
                    g.play_str(&mv).map_err(|e| CliError::from(e).at(format!("server move {mv}")))?;
                    if mover == *side {
                        my_moves += 1;
                        say(format!("move {} {mv} (bot)", ply + 1));
                    } else {
                        their_moves += 1;
                        say(format!("move {} {mv} (opponent)", ply + 1));
                    }
                    move_due = Some(Instant::now() + think);
                }
                ServerMessage::DrawOffered { game: id, by } => {
                    let Some((gid, side, _)) = &game else { continue };
                    if *gid != id || by == *side {
                        continue;
                    }
                    say(format!("draw offered by {by:?}"));
                    client.send(&ClientMessage::AnswerDraw { game: id, accept: args.accept_draws });
                }
                ServerMessage::Chat(line) => say(format!("chat {}: {:?}", line.nickname, line.text)),
                ServerMessage::GameOver { outcome, .. } => {
                    say(format!("game over: {:?} by {:?}", outcome.winner, outcome.reason));
                    client.flush();
                    return Ok(());
                }
                ServerMessage::Error { code, message } => {
                    return Err(CliError::Network(format!("server refused: {code:?}: {message}")));
                }
                ServerMessage::Incompatible { message, .. } => return Err(CliError::Network(message)),
                _ => {}
            }
        }
        if my_moves >= moves_wanted && their_moves >= moves_wanted {
            let since = *done_at.get_or_insert_with(Instant::now);
            if since.elapsed() < linger {
                std::thread::sleep(Duration::from_millis(5));
                continue;
            }
            say(format!("done: {my_moves} own moves, {their_moves} opponent moves"));
            client.send(&ClientMessage::Leave);
            client.flush();
            std::thread::sleep(Duration::from_millis(100));
            client.poll();
            return Ok(());
        }
        if let Some((gid, side, g)) = &game
            && !g.is_over()
            && g.side_to_move() == *side
            && my_moves < moves_wanted
            && move_due.is_some_and(|t| Instant::now() >= t)
        {
            move_due = None;
            seed += 1;
            let limits = match level {
                Level::Hard => Limits::time_ms(1000),
                _ => Limits::for_level(level),
            };
            if let Some(mv) = ludus_ai::best_move(g, level, limits, seed)
                && let Some(text) = g.position().move_to_string(&mv)
            {
                client.send(&ClientMessage::Move { game: *gid, ply: g.ply() as u32, mv: text });
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
