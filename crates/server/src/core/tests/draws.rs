//! Draw offers: one per player and ply, lapsing with a move, agreed, and shown to newcomers.

use super::{Harness, first_legal, game_over_of, of, refusal_code};
use crate::core::records::Op;
use crate::core::{ConnId, Limits};
use crate::credential::Grant;
use ludus_protocol::{ClientMessage, ClockSpec, ErrorCode, GameId, Hello, PROTOCOL_VERSION, ServerMessage};
use ludus_rules::{AnyGame, GameRecord, Outcome, Reason, Side, Variant};
use std::time::Duration;

#[test]
fn an_accepted_draw_offer_ends_the_game_drawn_by_agreement_stored_and_told() {
    let mut h = Harness::new(Limits::default());
    let (first, second, view) = h.quick_game(None);
    let game = view.game;
    h.sign_in(10, "Sam");
    h.send(10, &ClientMessage::Watch { game });
    let mv = first_legal(&view, 0);
    h.send(first, &ClientMessage::Move { game, ply: 0, mv: mv.clone() });
    h.all();
    h.take_ops();
    // First offers on Second's turn: everyone in the game is told, nothing is stored.
    h.send(first, &ClientMessage::OfferDraw { game });
    let all = h.all();
    for conn in [first, second, 10] {
        assert_eq!(
            of(&all, conn),
            vec![ServerMessage::DrawOffered { game, by: Side::First }],
            "conn {conn} is told of the offer"
        );
    }
    assert!(h.take_ops().is_empty(), "an offer is not stored");
    h.send(second, &ClientMessage::AnswerDraw { game, accept: true });
    let all = h.all();
    let agreed = Outcome::draw(Reason::Agreement);
    for conn in [first, second, 10] {
        assert_eq!(game_over_of(&of(&all, conn)), Some(agreed), "conn {conn} sees the agreed draw");
    }
    assert_eq!(h.core.live_games(), 0);
    assert_eq!(h.core.stats.games_finished, 1);
    let ops = h.take_ops();
    let archive = ops
        .iter()
        .find_map(|op| match op {
            Op::Finish { game: g, outcome, archive, .. } if *g == game.0 => {
                assert_eq!(outcome, "1/2-1/2 Agreement");
                Some(archive.clone())
            }
            _ => None,
        })
        .expect("the game is archived");
    let archive: ludus_protocol::ArchivedGame = serde_json::from_str(&archive).expect("an archive");
    assert_eq!(archive.outcome, agreed);
    assert_eq!(archive.record.ending, Some(agreed));
    assert_eq!(archive.record.moves, vec![mv]);
    assert_eq!(AnyGame::from_record(&archive.record).expect("replays").outcome(), Some(agreed));
    // Over: nothing more to offer or answer.
    h.send(first, &ClientMessage::OfferDraw { game });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::GameOver));
    h.send(second, &ClientMessage::AnswerDraw { game, accept: true });
    assert_eq!(refusal_code(&h.inbox(second)), Some(ErrorCode::GameOver));
    assert!(h.take_ops().is_empty());
}

#[test]
fn draw_offers_are_one_per_player_and_ply_lapse_with_the_offerers_move_and_answer_the_opponent_only() {
    let mut h = Harness::new(Limits::default());
    let (first, second, view) = h.quick_game(None);
    let game = view.game;
    h.sign_in(10, "Sam");
    h.send(10, &ClientMessage::Watch { game });
    h.sign_in(11, "Xen");
    h.all();
    h.take_ops();
    // Nobody offered: nothing to answer.
    h.send(second, &ClientMessage::AnswerDraw { game, accept: true });
    assert_eq!(refusal_code(&h.inbox(second)), Some(ErrorCode::NoDrawOffer));
    // Spectators and strangers cannot offer or answer; a wrong id is unknown.
    for conn in [10, 11] {
        h.send(conn, &ClientMessage::OfferDraw { game });
        assert_eq!(refusal_code(&h.inbox(conn)), Some(ErrorCode::NotAPlayer));
        h.send(conn, &ClientMessage::AnswerDraw { game, accept: true });
        assert_eq!(refusal_code(&h.inbox(conn)), Some(ErrorCode::NotAPlayer));
    }
    h.send(first, &ClientMessage::OfferDraw { game: GameId(999) });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::UnknownGame));
    // First offers on its own turn; a second offer at this ply is refused.
    h.send(first, &ClientMessage::OfferDraw { game });
    assert_eq!(of(&h.all(), second), vec![ServerMessage::DrawOffered { game, by: Side::First }]);
    h.send(first, &ClientMessage::OfferDraw { game });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::DrawAlreadyOffered));
    // The offerer cannot answer its own offer; a spectator cannot either.
    h.send(first, &ClientMessage::AnswerDraw { game, accept: true });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::NoDrawOffer));
    h.send(10, &ClientMessage::AnswerDraw { game, accept: true });
    assert_eq!(refusal_code(&h.inbox(10)), Some(ErrorCode::NotAPlayer));
    // Declined: everyone is told, the game goes on, and the offer still counted for this ply.
    h.send(second, &ClientMessage::AnswerDraw { game, accept: false });
    let all = h.all();
    for conn in [first, second, 10] {
        assert_eq!(of(&all, conn), vec![ServerMessage::DrawDeclined { game, by: Side::Second }]);
    }
    assert_eq!(h.core.live_games(), 1);
    h.send(second, &ClientMessage::AnswerDraw { game, accept: true });
    assert_eq!(refusal_code(&h.inbox(second)), Some(ErrorCode::NoDrawOffer));
    h.send(first, &ClientMessage::OfferDraw { game });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::DrawAlreadyOffered));
    assert!(h.take_ops().is_empty(), "nothing stored");

    // A move opens the next ply: First may offer again (on Second's turn); Second's move does
    // not lapse it, First's next move does.
    let mut moves = Vec::new();
    let play = |h: &mut Harness, conn: ConnId, moves: &mut Vec<String>| {
        let record = GameRecord {
            variant: view.variant,
            start: view.start.clone(),
            moves: moves.clone(),
            ending: None,
        };
        let local = AnyGame::from_record(&record).expect("replays");
        let mv = local.position().move_to_string(&local.legal_moves()[0]).expect("notation");
        h.send(conn, &ClientMessage::Move { game, ply: moves.len() as u32, mv: mv.clone() });
        moves.push(mv);
        h.all()
    };
    let all = play(&mut h, first, &mut moves);
    assert!(
        !all.iter().any(|(_, m)| matches!(m, ServerMessage::DrawOfferLapsed { .. })),
        "no offer was open"
    );
    h.send(first, &ClientMessage::OfferDraw { game });
    assert_eq!(of(&h.all(), second), vec![ServerMessage::DrawOffered { game, by: Side::First }]);
    let all = play(&mut h, second, &mut moves);
    assert!(matches!(of(&all, first).as_slice(), [ServerMessage::MovePlayed { ply: 1, .. }]), "still open");
    // Still open at the next ply: no new offer over it.
    h.send(first, &ClientMessage::OfferDraw { game });
    assert_eq!(refusal_code(&h.inbox(first)), Some(ErrorCode::DrawAlreadyOffered));
    let all = play(&mut h, first, &mut moves);
    for conn in [first, second, 10] {
        let messages = of(&all, conn);
        assert!(
            matches!(
                messages.as_slice(),
                [
                    ServerMessage::MovePlayed { ply: 2, .. },
                    ServerMessage::DrawOfferLapsed { by: Side::First, .. }
                ]
            ),
            "conn {conn}: {messages:?}"
        );
    }
    h.send(second, &ClientMessage::AnswerDraw { game, accept: true });
    assert_eq!(refusal_code(&h.inbox(second)), Some(ErrorCode::NoDrawOffer));
    assert_eq!(h.core.live_games(), 1);
    assert_eq!(h.core.stats.refusals.get("draw_already_offered"), Some(&3));
}

#[test]
fn offering_a_draw_while_the_opponent_offers_one_agrees_it() {
    let mut h = Harness::new(Limits::default());
    let (first, second, view) = h.quick_game(None);
    let game = view.game;
    h.send(second, &ClientMessage::OfferDraw { game });
    h.all();
    h.send(first, &ClientMessage::OfferDraw { game });
    let all = h.all();
    for conn in [first, second] {
        assert_eq!(game_over_of(&of(&all, conn)), Some(Outcome::draw(Reason::Agreement)));
    }
    assert_eq!(h.core.live_games(), 0);
}

#[test]
fn a_draw_cannot_save_a_game_lost_on_time() {
    let mut h = Harness::new(Limits { min_clock_ms: 1000, ..Limits::default() });
    let clock = ClockSpec { initial_ms: 2000, increment_ms: 0 };
    let (first, second, view) = h.quick_game(Some(clock));
    let game = view.game;
    // First, to move, offers; the clocks keep running while the offer is open.
    h.advance(Duration::from_millis(500));
    h.send(first, &ClientMessage::OfferDraw { game });
    h.all();
    h.advance(Duration::from_millis(1000));
    assert_eq!(h.core.live_games(), 1);
    // First's flag falls before the timers notice; Second's acceptance comes too late.
    h.now += Duration::from_millis(600);
    h.set_now(h.now, h.unix_ms + 600);
    h.send(second, &ClientMessage::AnswerDraw { game, accept: true });
    let all = h.all();
    assert_eq!(refusal_code(&of(&all, second)), Some(ErrorCode::GameOver));
    assert_eq!(game_over_of(&of(&all, first)), Some(Outcome::win(Side::Second, Reason::Timeout)));
}

#[test]
fn an_open_draw_offer_follows_the_view_of_a_returning_player_and_a_new_spectator() {
    let mut h = Harness::new(Limits::default());
    h.sign_in(1, "Ann");
    let token = h.sign_in(2, "Bob");
    h.send(1, &ClientMessage::FindMatch { variant: Variant::Latrunculi, clock: None, rated: false });
    h.send(2, &ClientMessage::FindMatch { variant: Variant::Latrunculi, clock: None, rated: false });
    let game = h
        .all()
        .into_iter()
        .find_map(|(_, m)| match m {
            ServerMessage::Game(v) => Some(v.game),
            _ => None,
        })
        .expect("a game");
    h.send(1, &ClientMessage::OfferDraw { game });
    h.all();
    let by = match h.core.games.get(&game).and_then(|g| g.draw_offer) {
        Some(by) => by,
        None => panic!("the offer is open"),
    };
    // Bob drops and comes back: the view, then the offer.
    h.disconnected(2);
    h.all();
    h.connected_with(5, Grant { credential: Some(token.0.clone()), may_create: false });
    h.send(5, &ClientMessage::Hello(Hello { version: PROTOCOL_VERSION, token: None, nickname: None }));
    let inbox = h.inbox(5);
    let view = inbox.iter().position(|m| matches!(m, ServerMessage::Game(_))).expect("the view");
    assert_eq!(inbox.get(view + 1), Some(&ServerMessage::DrawOffered { game, by }));
    // So does a spectator's.
    h.sign_in(10, "Sam");
    h.send(10, &ClientMessage::Watch { game });
    let inbox = h.inbox(10);
    let view = inbox.iter().position(|m| matches!(m, ServerMessage::Game(_))).expect("the view");
    assert_eq!(inbox.get(view + 1), Some(&ServerMessage::DrawOffered { game, by }));
    // Bob, back, declines it.
    h.send(5, &ClientMessage::AnswerDraw { game, accept: false });
    assert_eq!(h.inbox(5), vec![ServerMessage::DrawDeclined { game, by: !by }]);
}
