//! Claimed nicknames and ratings over real sockets (protocol 5): two players claim their
//! names, play a rated game to its end and both ratings change as Glicko-2 says (computed here
//! with skillratings); a casual game changes none; the names and ratings survive a restart; a
//! claimed player signs in on a second device with the password; look-alikes of claimed names,
//! wrong passwords, short passwords and rated play without a claimed name are refused.

use crate::common::*;
use ludus_protocol::client::Transport;
use ludus_protocol::{
    ArchivedGame, ClientMessage, ErrorCode, GameId, GameResult, GameView, Password, PlayerId, RatingView,
    Role, ServerMessage,
};
use ludus_rules::{Side, Variant};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

fn password(p: &str) -> Password {
    Password(p.to_string())
}

pub fn claim(c: &mut TestClient, p: &str) {
    c.send(ClientMessage::ClaimNickname { password: password(p) });
    c.expect("nickname claimed", |m| matches!(m, ServerMessage::NicknameClaimed { .. }).then_some(()));
}

fn player_id(c: &TestClient) -> PlayerId {
    c.log
        .iter()
        .rev()
        .find_map(|m| match m {
            ServerMessage::Welcome { player, .. } => Some(*player),
            _ => None,
        })
        .expect("welcomed")
}

/// Signs `c` in as the claimed `nickname`; returns the player id of the new welcome.
fn sign_in_claimed(c: &mut TestClient, nickname: &str, p: &str) -> PlayerId {
    c.send(ClientMessage::SignInClaimed { nickname: nickname.into(), password: password(p) });
    c.expect("welcome as the claimed player", |m| match m {
        ServerMessage::Welcome { player, resumed: true, .. } => Some(*player),
        ServerMessage::Error { code, message } => panic!("{code:?}: {message}"),
        _ => None,
    })
}

/// `a` opens a room (rated or not, public or not) and `b` joins it: the view and which of them
/// plays First.
fn game(a: &mut TestClient, b: &mut TestClient, rated: bool, public: bool) -> (GameView, usize) {
    a.send(ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public, rated });
    let code = a.expect("room", |m| match m {
        ServerMessage::RoomOpened { code, .. } => Some(code.clone()),
        _ => None,
    });
    b.send(ClientMessage::JoinRoom { code });
    let va = a.expect_game();
    let vb = b.expect_game();
    assert_eq!((va.rated, vb.rated), (rated, rated), "both views say whether the game is rated");
    // Claimed players' ratings are in the view, for both seats.
    for p in &va.players {
        let claimed = p.rating.is_some();
        assert!(!rated || claimed, "{}: a rated game is between claimed players", p.nickname);
    }
    let first = if va.role == Role::Player(Side::First) { 0 } else { 1 };
    (va, first)
}

fn expect_over(c: &mut TestClient, game: GameId) -> ArchivedGame {
    c.expect("game over", |m| match m {
        ServerMessage::GameOver { game: g, archive, .. } if *g == game => Some(archive.clone()),
        _ => None,
    })
}

/// First resigns a new public game between `players` (`[Ann, Ben]`); the archive both saw.
fn resigned(players: &mut [TestClient; 2], rated: bool) -> ArchivedGame {
    resigned_in(players, rated, true)
}

/// [`resigned`] in a public or private room, after two moves each (a rated game that ends
/// sooner changes no rating).
fn resigned_in(players: &mut [TestClient; 2], rated: bool, public: bool) -> ArchivedGame {
    let [a, b] = &mut *players;
    let (view, first) = game(a, b, rated, public);
    let mut local = view.replay().expect("a valid game");
    players.swap(0, first);
    crate::persistence::play_moves(players, view.game, &mut local, 2 * ludus_server::core::RATED_MOVES_EACH);
    players.swap(0, first);
    let [a, b] = players;
    let resigner = if first == 0 { &mut *a } else { &mut *b };
    resigner.send(ClientMessage::Resign { game: view.game });
    let archive = expect_over(a, view.game);
    assert_eq!(expect_over(b, view.game), archive, "both see the same archive");
    for c in [a, b] {
        c.send(ClientMessage::Leave);
        c.expect("left", |m| matches!(m, ServerMessage::Left).then_some(()));
    }
    archive
}

fn view(r: &Glicko2Rating) -> RatingView {
    RatingView {
        rating: r.rating.round() as i32,
        deviation: r.deviation.round() as i32,
        provisional: r.deviation > ludus_protocol::PROVISIONAL_DEVIATION,
    }
}

fn claimed_names_and_ratings(dir: &Path, database: Option<String>) {
    // Both players come from the loopback address: nicknames claimed from one address would
    // play each other unrated. Here each is the other's first rated opponent, and the games
    // take a second: a rated result counts in full, without waiting (the weighting and the
    // minimum time have their own tests in the core).
    let limits = ludus_server::core::Limits {
        shared_claim_window: Duration::ZERO,
        rated_min_play: Duration::ZERO,
        rated_opponents_full: 0,
        ..ludus_server::core::Limits::default()
    };
    let start = || server_on(dir, limits.clone(), database.clone());
    let server = start();
    let udp: SocketAddr = server.udp_addr().unwrap();
    let mut ann = TestClient::signed_in(udp, Transport::Udp, "Ann");
    let mut ben = TestClient::signed_in(udp, Transport::Udp, "Ben");
    let ids = [player_id(&ann), player_id(&ben)];
    // Bad input first: nothing changes.
    ann.send(ClientMessage::ClaimNickname { password: password("seven77") });
    ann.expect_error(ErrorCode::BadPassword);
    ann.send(ClientMessage::ClaimNickname { password: password(&"x".repeat(129)) });
    ann.expect_error(ErrorCode::BadPassword);
    ann.send(ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: true, rated: true });
    ann.expect_error(ErrorCode::NotClaimed);
    ann.send(ClientMessage::FindMatch { variant: Variant::Alquerque, clock: None, rated: true });
    ann.expect_error(ErrorCode::NotClaimed);
    claim(&mut ann, "ann's secret");
    ann.send(ClientMessage::ClaimNickname { password: password("another secret") });
    ann.expect_error(ErrorCode::BadNickname);
    // A rated room refuses an anonymous guest; the lobby marks it rated, with Ann's rating.
    ann.send(ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: true, rated: true });
    let code = ann.expect("room", |m| match m {
        ServerMessage::RoomOpened { code, .. } => Some(code.clone()),
        _ => None,
    });
    ben.send(ClientMessage::Lobby);
    let listed = ben.expect("the lobby", |m| match m {
        ServerMessage::Lobby(l) => l.rooms.iter().find(|r| r.code == code).cloned(),
        _ => None,
    });
    assert!(listed.rated, "{listed:?}");
    let initial = view(&Glicko2Rating::new());
    assert_eq!(listed.host_rating, Some(initial), "a claimed host's rating, the starting one");
    ben.send(ClientMessage::JoinRoom { code });
    ben.expect_error(ErrorCode::NotClaimed);
    ann.send(ClientMessage::Leave);
    ann.expect("left", |m| matches!(m, ServerMessage::Left).then_some(()));
    claim(&mut ben, "ben's secret");
    // A rated game: both ratings change by one Glicko-2 period.
    let mut players = [ann, ben];
    let archive = resigned(&mut players, true);
    assert!(archive.rated);
    let changes = archive.ratings.expect("rating changes");
    let d = Glicko2Rating::new();
    let loser = archive.outcome.winner.map(|w| w.opponent()).expect("a winner");
    let first_outcome = if loser == Side::First { Outcomes::LOSS } else { Outcomes::WIN };
    let (first, second) = glicko2(&d, &d, &first_outcome, &Glicko2Config::new());
    assert_eq!(changes[0].before, view(&d));
    assert_eq!([changes[0].after, changes[1].after], [view(&first), view(&second)]);
    assert!(changes[0].after.provisional, "one game: still provisional");
    let after_by_name = |name: &str| {
        let i = archive.players.iter().position(|p| p == name).expect("a player");
        changes[i].after
    };
    let ann_after = after_by_name("Ann");
    let ben_after = after_by_name("Ben");
    assert_ne!(ann_after, ben_after);
    // A casual game changes nothing.
    let casual = resigned(&mut players, false);
    assert!(!casual.rated);
    assert_eq!(casual.ratings, None);
    drop(players);
    server.stop();

    // After a restart: the claims and ratings are back.
    let server = start();
    let udp = server.udp_addr().unwrap();
    let mut cy = TestClient::signed_in(udp, Transport::Udp, "Cy");
    for name in ["ann", "\u{410}NN", "Ben"] {
        cy.send(ClientMessage::SetNickname { nickname: name.into() });
        cy.expect_error(ErrorCode::BadNickname);
    }
    // Ann's name asked for by a new player (Ann on a new device): a guest name instead.
    let mut guest = TestClient::connect(udp, Transport::Udp, "Ann");
    let name = guest.expect("welcome", |m| match m {
        ServerMessage::Welcome { nickname, resumed: false, .. } => Some(nickname.clone()),
        _ => None,
    });
    assert!(name.starts_with("Guest-"), "{name}");
    drop(guest);
    // A second device: a wrong password changes nothing, the right one is Ann.
    cy.send(ClientMessage::SignInClaimed { nickname: "Ann".into(), password: password("ben's secret") });
    cy.expect_error(ErrorCode::BadCredentials);
    cy.send(ClientMessage::SignInClaimed { nickname: "Nobody".into(), password: password("ann's secret") });
    cy.expect_error(ErrorCode::BadCredentials);
    cy.sync();
    let welcomes = cy.log.iter().filter(|m| matches!(m, ServerMessage::Welcome { .. })).count();
    assert_eq!(welcomes, 1, "still Cy: no new welcome");
    assert_eq!(sign_in_claimed(&mut cy, "ANN", "ann's secret"), ids[0], "Ann's id on the second device");
    let mut ben = TestClient::signed_in(udp, Transport::Udp, "Gus");
    assert_eq!(sign_in_claimed(&mut ben, "Ben", "ben's secret"), ids[1]);
    // The leaderboard lists both, the winner first, from the loser's side too.
    let winner_name = archive.players[archive.outcome.winner.unwrap().index()].clone();
    let loser_name = archive.players[loser.index()].clone();
    let mut players = [cy, ben];
    for c in players.iter_mut() {
        c.send(ClientMessage::Leaderboard { variant: Variant::Alquerque });
        let (top, yours) = c.expect("leaderboard", |m| match m {
            ServerMessage::Leaderboard { variant: Variant::Alquerque, top, yours } => {
                Some((top.clone(), yours.clone()))
            }
            _ => None,
        });
        let names: Vec<&str> = top.iter().map(|e| e.nickname.as_str()).collect();
        assert_eq!(names, [winner_name.as_str(), loser_name.as_str()]);
        assert_eq!(top[0].games, 1);
        let me = c.client.nickname().map(str::to_string).expect("a nickname");
        let place = yours.expect("on the leaderboard").0;
        assert_eq!(place, if me == winner_name { 1 } else { 2 }, "{me}");
    }
    players[0].send(ClientMessage::Leaderboard { variant: Variant::Latrunculi });
    players[0].expect("an empty leaderboard", |m| match m {
        ServerMessage::Leaderboard { variant: Variant::Latrunculi, top, yours: None } if top.is_empty() => {
            Some(())
        }
        _ => None,
    });
    // Ann's profile: her record and both games, newest first.
    players[1].send(ClientMessage::Profile { nickname: "ann".into() });
    let profile = players[1].expect("profile", |m| match m {
        ServerMessage::Profile(p) => Some(p.clone()),
        _ => None,
    });
    assert_eq!((profile.player, profile.nickname.as_str(), profile.claimed), (ids[0], "Ann", true));
    let alquerque = profile.ratings.iter().find(|r| r.variant == Variant::Alquerque).expect("a record");
    assert_eq!(alquerque.rating, ann_after);
    let won = winner_name == "Ann";
    assert_eq!((alquerque.games, alquerque.wins, alquerque.losses), (1, u32::from(won), u32::from(!won)));
    let recent: Vec<(GameId, bool, &str)> =
        profile.recent.iter().map(|g| (g.game, g.rated, g.opponent.as_str())).collect();
    assert_eq!(recent, [(casual.game, false, "Ben"), (archive.game, true, "Ben")]);
    let result = if won { GameResult::Win } else { GameResult::Loss };
    assert_eq!(profile.recent[1].result, result);
    players[1].send(ClientMessage::Profile { nickname: "Nobody".into() });
    players[1].expect_error(ErrorCode::UnknownPlayer);
    let second = resigned(&mut players, true);
    let before = second.ratings.expect("rated").map(|c| c.before);
    let index = |name: &str| second.players.iter().position(|p| p == name).expect("a player");
    assert_eq!(before[index("Ann")], ann_after, "Ann's rating survived the casual game and the restart");
    assert_eq!(before[index("Ben")], ben_after);

    // A private game: in Ann's own profile, not in the one others see; its archive is its
    // players' alone, a public game's anyone's.
    let hidden = resigned_in(&mut players, false, false);
    players[1].send(ClientMessage::Profile { nickname: "Ann".into() });
    let seen = players[1].expect("profile", |m| match m {
        ServerMessage::Profile(p) => Some(p.clone()),
        _ => None,
    });
    assert!(seen.recent.iter().all(|g| g.game != hidden.game), "{:?}", seen.recent);
    assert_eq!(seen.recent[0].game, second.game);
    players[0].send(ClientMessage::Profile { nickname: "Ann".into() });
    let own = players[0].expect("own profile", |m| match m {
        ServerMessage::Profile(p) => Some(p.clone()),
        _ => None,
    });
    assert_eq!(own.recent[0].game, hidden.game, "your own private games are in your profile");
    let mut dee = TestClient::signed_in(udp, Transport::Udp, "Dee");
    dee.send(ClientMessage::Archive { game: hidden.game });
    dee.expect_error(ErrorCode::UnknownGame);
    dee.send(ClientMessage::Archive { game: GameId(hidden.game.0 + 1000) });
    dee.expect_error(ErrorCode::UnknownGame);
    let read = |c: &mut TestClient, game: GameId| {
        c.send(ClientMessage::Archive { game });
        c.expect("the archive", |m| match m {
            ServerMessage::Archive(a) if a.game == game => Some((**a).clone()),
            _ => None,
        })
    };
    assert_eq!(read(&mut players[1], hidden.game), hidden, "a player reads their private game");
    assert_eq!(read(&mut dee, second.game), second, "anyone reads a public game");
    assert_eq!(read(&mut dee, archive.game), archive, "from before the restart too");
    drop(players);
    server.stop();
}

#[test]
fn claimed_names_and_ratings_survive_a_restart_sqlite() {
    claimed_names_and_ratings(&data_dir("ratings"), None);
}

#[test]
fn claimed_names_and_ratings_survive_a_restart_postgres() {
    if let Some((_pg, url)) = postgres("ratings") {
        claimed_names_and_ratings(&data_dir("ratings-pg"), Some(url));
    }
}

/// Two nicknames claimed from one address (both clients here come from the loopback address)
/// play each other unrated, whatever their room says: the view tells them when the game starts,
/// and nothing changes when it ends.
#[test]
fn nicknames_claimed_from_one_address_play_each_other_unrated() {
    let server = server(&data_dir("ratings-one-address"));
    let udp: SocketAddr = server.udp_addr().unwrap();
    let mut ann = TestClient::signed_in(udp, Transport::Udp, "Ann");
    let mut ben = TestClient::signed_in(udp, Transport::Udp, "Ben");
    claim(&mut ann, "ann's secret");
    claim(&mut ben, "ben's secret");
    ann.send(ClientMessage::OpenRoom { variant: Variant::Alquerque, clock: None, public: true, rated: true });
    let code = ann.expect("room", |m| match m {
        ServerMessage::RoomOpened { code, .. } => Some(code.clone()),
        _ => None,
    });
    ben.send(ClientMessage::JoinRoom { code });
    let view = ann.expect_game();
    assert!(!view.rated && !ben.expect_game().rated, "both views say the game is unrated");
    let mut local = view.replay().expect("a valid game");
    let first = if view.role == Role::Player(Side::First) { 0 } else { 1 };
    let mut players = [ann, ben];
    players.swap(0, first);
    crate::persistence::play_moves(&mut players, view.game, &mut local, 6);
    players[0].send(ClientMessage::Resign { game: view.game });
    let archive = expect_over(&mut players[1], view.game);
    assert!(!archive.rated && archive.ratings.is_none(), "{archive:?}");
    drop(players);
    server.stop();
}
