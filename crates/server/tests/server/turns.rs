//! Turn-based play over real sockets: an open challenge accepted by its code, a move while the
//! other player is away, restarts in between, and a loss on time judged by the server's clock
//! after a restart.

use crate::common::*;
use crate::persistence::rejoin;
use ludus_protocol::client::Transport;
use ludus_protocol::{ClientMessage, DAY_MS, GameId, MyGamesView, ServerMessage, SessionToken};
use ludus_rules::{AnyGame, Outcome, Reason, Side, Variant};
use ludus_server::ServerConfig;
use ludus_server::clock::WallClock;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

fn my_games(c: &mut TestClient) -> MyGamesView {
    c.expect("my games", |m| match m {
        ServerMessage::MyGames(v) => Some(v.clone()),
        _ => None,
    })
}

/// Plays the next move of `local` from `mover`; both players see it.
fn play(mover: &mut TestClient, other: &mut TestClient, game: GameId, local: &mut AnyGame) {
    let ply = local.ply() as u32;
    let mv = local.legal_moves()[0];
    let text = local.position().move_to_string(&mv).unwrap();
    mover.send(ClientMessage::Move { game, ply, mv: text });
    local.play(&mv).unwrap();
    mover.expect_move(game, ply);
    other.expect_move(game, ply);
}

/// A server on `dir` whose wall clock is `ahead` of the system's.
fn server_ahead(dir: &Path, ahead: Duration) -> ludus_server::ServerHandle {
    let mut config = ServerConfig::local(dir);
    config.new_players_per_minute = 0;
    config.wall_clock = WallClock::from_fn(move || unix_now() + ahead);
    spawn(config)
}

fn back(addr: SocketAddr, token: SessionToken, name: &str) -> TestClient {
    rejoin(addr, Transport::Udp, token, name)
}

#[test]
fn a_turn_based_game_outlives_absences_and_restarts_and_is_lost_on_time() {
    let dir = data_dir("turns");
    let server = server(&dir);
    let (udp, ws) = (server.udp_addr().unwrap(), server.ws_addr().unwrap());
    let mut ann = TestClient::signed_in(udp, Transport::Udp, "Ann");
    let mut bob = TestClient::signed_in(ws, Transport::WebSocket, "Bob");
    ann.send(ClientMessage::Challenge {
        opponent: None,
        variant: Variant::Latrunculi,
        side: Some(Side::First),
        days: 3,
        listed: true,
        rated: false,
    });
    let code = ann.expect("challenge made", |m| match m {
        ServerMessage::ChallengeMade(c) => Some(c.code.clone()),
        _ => None,
    });
    bob.send(ClientMessage::MyGames);
    assert!(my_games(&mut bob).open.iter().any(|c| c.code == code), "listed in the lobby");
    bob.send(ClientMessage::AcceptChallenge { code });
    let view = ann.expect_game();
    assert_eq!(bob.expect_game().game, view.game);
    let game = view.game;
    let mut local = view.replay().unwrap();
    play(&mut ann, &mut bob, game, &mut local);
    // Bob leaves and goes away: nothing ends.
    bob.send(ClientMessage::Leave);
    bob.sync();
    let bob_token = bob.token();
    drop(bob);
    ann.send(ClientMessage::MyGames);
    let list = my_games(&mut ann);
    assert_eq!((list.games.len(), list.your_turn), (1, 0), "still on, Bob's turn");
    let ann_token = ann.token();
    drop(ann);
    server.stop();

    // A restart: Bob comes back to his turn and moves; Ann, back too, gets it.
    let server = crate::common::server(&dir);
    let udp = server.udp_addr().unwrap();
    let mut bob = back(udp, bob_token, "Bob");
    let list = my_games(&mut bob);
    assert_eq!((list.games.len(), list.your_turn), (1, 1));
    assert_eq!(list.games[0].opponent, "Ann");
    assert!(list.games[0].time_left_ms > 2 * DAY_MS, "{}", list.games[0].time_left_ms);
    bob.send(ClientMessage::OpenGame { game });
    assert_eq!(bob.expect_game().moves, local.move_strings());
    let mut ann = back(udp, ann_token, "Ann");
    play(&mut bob, &mut ann, game, &mut local);
    let ann_token = ann.token();
    drop((ann, bob));
    server.stop();

    // Four days later by the wall clock: Ann, to move, lost on time, nobody connected.
    let server = server_ahead(&dir, Duration::from_millis(4 * DAY_MS));
    let udp = server.udp_addr().unwrap();
    let mut ann = back(udp, ann_token, "Ann");
    ann.send(ClientMessage::MyGames);
    assert!(my_games(&mut ann).games.is_empty(), "the game is over");
    ann.send(ClientMessage::Archive { game });
    let archive = ann.expect("archive", |m| match m {
        ServerMessage::Archive(a) => Some(a.clone()),
        _ => None,
    });
    assert_eq!(archive.outcome, Outcome::win(Side::Second, Reason::Timeout));
    assert_eq!(archive.record.moves, local.move_strings());
    server.stop();
}
