//! Draw offers over real sockets: offered, accepted (a draw by agreement for everyone, archived,
//! still one after the server is killed and restarted), declined, lapsed with the offerer's
//! move, one per ply, and every request out of place refused without changing anything.

use crate::common::*;
use crate::persistence::{play_moves, rejoin, spawn_binary};
use crate::play::start_game;
use ludus_protocol::client::Transport;
use ludus_protocol::{ArchivedGame, ClientMessage, ErrorCode, GameId, ServerMessage};
use ludus_rules::{AnyGame, Outcome, Reason, Side, Variant};
use std::net::SocketAddr;

/// Ann and Ben in a new Alquerque game on `addr`, watched by Sam: `[First, Second]`, Sam, the
/// game.
pub fn watched_game(addr: SocketAddr) -> ([TestClient; 2], TestClient, GameId) {
    watched_game_over(addr, (addr, Transport::Udp))
}

/// [`watched_game`] with Ben on `ben`'s address and transport (Ann and Sam on UDP at `udp`).
pub fn watched_game_over(
    udp: SocketAddr,
    ben: (SocketAddr, Transport),
) -> ([TestClient; 2], TestClient, GameId) {
    let mut a = TestClient::signed_in(udp, Transport::Udp, "Ann");
    let mut b = TestClient::signed_in(ben.0, ben.1, "Ben");
    let mut s = TestClient::signed_in(udp, Transport::Udp, "Sam");
    let (view, first) = start_game(&mut a, &mut b, Variant::Alquerque, None);
    s.send(ClientMessage::Watch { game: view.game });
    s.expect_game();
    (if first == 0 { [a, b] } else { [b, a] }, s, view.game)
}

fn expect_offered(c: &mut TestClient, game: GameId, by: Side) {
    c.expect(&format!("{by:?}'s draw offer"), |m| {
        (*m == ServerMessage::DrawOffered { game, by }).then_some(())
    });
}

fn expect_declined(c: &mut TestClient, game: GameId, by: Side) {
    c.expect(&format!("draw declined by {by:?}"), |m| {
        (*m == ServerMessage::DrawDeclined { game, by }).then_some(())
    });
}

fn expect_lapsed(c: &mut TestClient, game: GameId, by: Side) {
    c.expect(&format!("{by:?}'s draw offer lapsed"), |m| {
        (*m == ServerMessage::DrawOfferLapsed { game, by }).then_some(())
    });
}

pub fn expect_over(c: &mut TestClient, game: GameId) -> ArchivedGame {
    c.expect("game over", |m| match m {
        ServerMessage::GameOver { game: g, outcome, archive } if *g == game => {
            assert_eq!(archive.outcome, *outcome);
            Some(archive.clone())
        }
        _ => None,
    })
}

/// How many messages `c` ever received that `pick` selects, once everything sent to the
/// server before (by anyone, as far as `c` could see its answer) has been handled.
pub fn count(c: &mut TestClient, pick: impl Fn(&ServerMessage) -> bool) -> usize {
    c.sync();
    c.log.iter().filter(|m| pick(m)).count()
}

fn is_offer(m: &ServerMessage) -> bool {
    matches!(m, ServerMessage::DrawOffered { .. })
}

fn is_draw_news(m: &ServerMessage) -> bool {
    matches!(
        m,
        ServerMessage::DrawOffered { .. }
            | ServerMessage::DrawDeclined { .. }
            | ServerMessage::DrawOfferLapsed { .. }
            | ServerMessage::GameOver { .. }
    )
}

fn lobby_lists(c: &mut TestClient, game: GameId) -> bool {
    c.send(ClientMessage::Lobby);
    let lobby = c.expect("lobby", |m| match m {
        ServerMessage::Lobby(l) => Some(l.clone()),
        _ => None,
    });
    lobby.games.iter().any(|g| g.game == game)
}

#[test]
fn an_accepted_draw_is_a_draw_by_agreement_for_everyone_and_after_a_restart() {
    let dir = data_dir("draw-agreed");
    let mut server = spawn_binary(&dir, None);
    let (mut players, mut s, game) = watched_game_over(server.udp, (server.ws, Transport::WebSocket));
    let mut local = AnyGame::new(Variant::Alquerque);
    play_moves(&mut players, game, &mut local, 2);
    s.expect_move(game, 1);
    assert!(lobby_lists(&mut s, game));

    // Second offers on First's turn; First accepts.
    players[1].send(ClientMessage::OfferDraw { game });
    let [p0, p1] = &mut players;
    for c in [&mut *p0, &mut *p1, &mut s] {
        expect_offered(c, game, Side::Second);
    }
    p0.send(ClientMessage::AnswerDraw { game, accept: true });
    let agreed = Outcome::draw(Reason::Agreement);
    for c in [&mut *p0, &mut *p1, &mut s] {
        let archive = expect_over(c, game);
        assert_eq!(archive.outcome, agreed, "{} sees a draw by agreement", c.name);
        assert_eq!(archive.record.ending, Some(agreed));
        assert_eq!(archive.record.moves, local.move_strings());
    }
    assert!(!lobby_lists(&mut s, game), "the lobby no longer lists the game");
    p0.send(ClientMessage::OfferDraw { game });
    p0.expect_error(ErrorCode::GameOver);
    p1.send(ClientMessage::Move { game, ply: 2, mv: "b2-c3".into() });
    p1.expect_error(ErrorCode::GameOver);

    // kill -9 and a restart: the game stays finished, drawn by agreement.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let returning: Vec<_> = players.iter().map(|p| (p.token(), p.name.clone())).collect();
    drop((players, s));
    let mut server = spawn_binary(&dir, None);
    for (token, name) in returning {
        let mut p = rejoin(server.udp, Transport::Udp, token, &name);
        p.sync();
        assert!(
            !p.log.iter().any(|m| matches!(m, ServerMessage::Game(_))),
            "{name} has no live game after the restart: {:?}",
            p.log
        );
        p.send(ClientMessage::Watch { game });
        p.expect_error(ErrorCode::UnknownGame);
        p.send(ClientMessage::AnswerDraw { game, accept: true });
        p.expect_error(ErrorCode::UnknownGame);
    }
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let db = rusqlite::Connection::open(dir.join("ludus.sqlite3")).unwrap();
    let (live, outcome, archive): (i64, String, String) = db
        .query_row("SELECT live, outcome, archive FROM games WHERE id = ?1", [game.0 as i64], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert_eq!(live, 0);
    assert_eq!(outcome, "1/2-1/2 Agreement");
    let archive: ArchivedGame = serde_json::from_str(&archive).unwrap();
    assert_eq!(archive.outcome, agreed);
    assert_eq!(archive.record.ending, Some(agreed));
    let replayed = AnyGame::from_record(&archive.record).unwrap();
    assert_eq!(replayed.outcome(), Some(agreed));
    assert_eq!(replayed.move_strings(), local.move_strings());
}

#[test]
fn a_declined_draw_changes_nothing_and_the_game_goes_on() {
    let server = server(&data_dir("draw-declined"));
    let (mut players, mut s, game) = watched_game(server.udp_addr().unwrap());
    let mut local = AnyGame::new(Variant::Alquerque);
    // First offers on its own turn; Second declines: everyone is told.
    players[0].send(ClientMessage::OfferDraw { game });
    let [p0, p1] = &mut players;
    for c in [&mut *p0, &mut *p1, &mut s] {
        expect_offered(c, game, Side::First);
    }
    p1.send(ClientMessage::AnswerDraw { game, accept: false });
    for c in [&mut *p0, &mut *p1, &mut s] {
        expect_declined(c, game, Side::Second);
    }
    // Nothing else changed: the game is live at ply 0, and the offer is answered.
    s.send(ClientMessage::Watch { game });
    let v = s.expect_game();
    assert!(v.moves.is_empty() && v.outcome.is_none(), "{v:?}");
    p1.send(ClientMessage::AnswerDraw { game, accept: true });
    p1.expect_error(ErrorCode::NoDrawOffer);
    // The game goes on; the next ply allows a new offer.
    play_moves(&mut players, game, &mut local, 2);
    players[0].send(ClientMessage::OfferDraw { game });
    expect_offered(&mut players[1], game, Side::First);
    play_moves(&mut players, game, &mut local, 1);
    players[1].send(ClientMessage::Resign { game });
    let archive = expect_over(&mut players[0], game);
    assert_eq!(archive.outcome, Outcome::win(Side::First, Reason::Resignation));
    assert_eq!(archive.record.moves, local.move_strings());
    assert_eq!(count(&mut s, |m| matches!(m, ServerMessage::DrawDeclined { .. })), 1);
}

#[test]
fn a_second_draw_offer_in_the_same_ply_is_refused() {
    let server = server(&data_dir("draw-twice"));
    let (mut players, mut s, game) = watched_game(server.udp_addr().unwrap());
    let mut local = AnyGame::new(Variant::Alquerque);
    let [p0, p1] = &mut players;
    p0.send(ClientMessage::OfferDraw { game });
    expect_offered(p0, game, Side::First);
    p0.send(ClientMessage::OfferDraw { game });
    p0.expect_error(ErrorCode::DrawAlreadyOffered);
    // Declined, it still counts for this ply.
    p1.send(ClientMessage::AnswerDraw { game, accept: false });
    expect_declined(p0, game, Side::Second);
    p0.send(ClientMessage::OfferDraw { game });
    p0.expect_error(ErrorCode::DrawAlreadyOffered);
    for c in [&mut *p1, &mut s] {
        assert_eq!(count(c, is_offer), 1, "{} was told of one offer", c.name);
    }
    // Both plies played: First may offer again.
    play_moves(&mut players, game, &mut local, 2);
    players[0].send(ClientMessage::OfferDraw { game });
    expect_offered(&mut players[1], game, Side::First);
    assert_eq!(count(&mut s, is_offer), 2);
}

#[test]
fn a_draw_offer_lapses_when_the_offerer_moves() {
    let server = server(&data_dir("draw-lapse"));
    let (mut players, mut s, game) = watched_game(server.udp_addr().unwrap());
    let mut local = AnyGame::new(Variant::Alquerque);
    players[0].send(ClientMessage::OfferDraw { game });
    expect_offered(&mut players[1], game, Side::First);
    // First moves: its offer lapses, and everyone is told right after the move.
    play_moves(&mut players, game, &mut local, 1);
    s.expect_move(game, 0);
    let [p0, p1] = &mut players;
    for c in [&mut *p0, &mut *p1, &mut s] {
        expect_lapsed(c, game, Side::First);
        let moved = c.log.iter().position(|m| matches!(m, ServerMessage::MovePlayed { ply: 0, .. }));
        let lapsed = c.log.iter().position(|m| matches!(m, ServerMessage::DrawOfferLapsed { .. }));
        assert!(moved.is_some() && moved < lapsed, "{}: the lapse follows the move", c.name);
    }
    p1.send(ClientMessage::AnswerDraw { game, accept: true });
    p1.expect_error(ErrorCode::NoDrawOffer);
    s.send(ClientMessage::Watch { game });
    let v = s.expect_game();
    assert_eq!((v.moves.len(), v.outcome), (1, None), "the game goes on");

    // The opponent's move does not lapse an offer: First offers on Second's turn, Second moves,
    // then accepts.
    players[0].send(ClientMessage::OfferDraw { game });
    expect_offered(&mut players[1], game, Side::First);
    play_moves(&mut players, game, &mut local, 1);
    players[1].send(ClientMessage::AnswerDraw { game, accept: true });
    let [p0, p1] = &mut players;
    for c in [&mut *p0, &mut *p1, &mut s] {
        let archive = expect_over(c, game);
        assert_eq!(archive.outcome, Outcome::draw(Reason::Agreement));
        assert_eq!(archive.record.moves, local.move_strings());
        let lapses = c.log.iter().filter(|m| matches!(m, ServerMessage::DrawOfferLapsed { .. })).count();
        assert_eq!(lapses, 1, "{}", c.name);
    }
}

#[test]
fn draw_requests_out_of_place_are_refused_and_change_nothing() {
    let server = server(&data_dir("draw-refused"));
    let udp = server.udp_addr().unwrap();
    let (mut players, mut s, game) = watched_game(udp);
    let mut x = TestClient::signed_in(udp, Transport::Udp, "Xena");
    let [p0, p1] = &mut players;
    // No offer yet: nothing to answer.
    p1.send(ClientMessage::AnswerDraw { game, accept: true });
    p1.expect_error(ErrorCode::NoDrawOffer);
    // A spectator and a stranger may neither offer nor answer; a wrong game is unknown.
    for c in [&mut s, &mut x] {
        c.send(ClientMessage::OfferDraw { game });
        c.expect_error(ErrorCode::NotAPlayer);
        c.send(ClientMessage::AnswerDraw { game, accept: true });
        c.expect_error(ErrorCode::NotAPlayer);
    }
    p0.send(ClientMessage::OfferDraw { game: GameId(9999) });
    p0.expect_error(ErrorCode::UnknownGame);
    p1.send(ClientMessage::AnswerDraw { game: GameId(9999), accept: true });
    p1.expect_error(ErrorCode::UnknownGame);
    for c in [&mut *p0, &mut *p1, &mut s] {
        assert_eq!(count(c, is_draw_news), 0, "{}: nothing happened", c.name);
    }
    // First offers; neither First itself nor the spectator can answer it.
    p0.send(ClientMessage::OfferDraw { game });
    expect_offered(p0, game, Side::First);
    p0.send(ClientMessage::AnswerDraw { game, accept: true });
    p0.expect_error(ErrorCode::NoDrawOffer);
    p0.send(ClientMessage::AnswerDraw { game, accept: false });
    p0.expect_error(ErrorCode::NoDrawOffer);
    s.send(ClientMessage::AnswerDraw { game, accept: true });
    s.expect_error(ErrorCode::NotAPlayer);
    for c in [&mut *p0, &mut *p1, &mut s] {
        assert_eq!(count(c, is_draw_news), 1, "{}: the offer alone", c.name);
    }
    // Still live at ply 0 with the offer open: a newcomer's view is followed by the offer.
    x.send(ClientMessage::Watch { game });
    let v = x.expect_game();
    assert!(v.moves.is_empty() && v.outcome.is_none(), "{v:?}");
    expect_offered(&mut x, game, Side::First);

    // Second resigns: in the finished game offers and answers are refused.
    p1.send(ClientMessage::Resign { game });
    for c in [&mut *p0, &mut *p1, &mut s] {
        assert_eq!(expect_over(c, game).outcome, Outcome::win(Side::First, Reason::Resignation));
    }
    p1.send(ClientMessage::OfferDraw { game });
    p1.expect_error(ErrorCode::GameOver);
    p1.send(ClientMessage::AnswerDraw { game, accept: true });
    p1.expect_error(ErrorCode::GameOver);
    s.send(ClientMessage::OfferDraw { game });
    s.expect_error(ErrorCode::UnknownGame);
    for c in [&mut *p0, &mut *p1, &mut s] {
        assert_eq!(count(c, |m| matches!(m, ServerMessage::GameOver { .. })), 1, "{}: one ending", c.name);
    }
}
