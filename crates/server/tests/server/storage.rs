//! The database failing under a running server, and databases refused at start: a database
//! that refuses writes (a full disk; here every write aborted by triggers made from outside)
//! left the server silent, not even answering Ping; a newer-schema or empty database file was
//! accepted at start.

use crate::common::*;
use crate::persistence::play_moves;
use crate::play::start_game;
use ludus_protocol::client::Transport;
use ludus_protocol::{ClientMessage, ErrorCode, ServerMessage};
use ludus_rules::{AnyGame, Variant};
use ludus_server::{ServerConfig, ServerHandle};

/// Every write the server makes fails, as on a full disk (SQLite's own "disk is full" is
/// `SQLITE_FULL`; the server treats every failed commit alike).
const FAIL_WRITES: &str = "
    CREATE TRIGGER full_moves BEFORE INSERT ON moves BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;
    CREATE TRIGGER full_players BEFORE INSERT ON players BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;
    CREATE TRIGGER full_players_update BEFORE UPDATE ON players BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;
    CREATE TRIGGER full_games BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;
    CREATE TRIGGER full_games_update BEFORE UPDATE ON games BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;
";
const FREE_WRITES: &str = "
    DROP TRIGGER full_moves; DROP TRIGGER full_players; DROP TRIGGER full_players_update;
    DROP TRIGGER full_games; DROP TRIGGER full_games_update;
";

fn pong(c: &mut TestClient, nonce: u64) {
    c.send(ClientMessage::Ping { nonce });
    c.expect("pong", |m| matches!(m, ServerMessage::Pong { nonce: n } if *n == nonce).then_some(()));
}

#[test]
fn a_database_refusing_writes_leaves_the_server_answering_and_loses_nothing() {
    let dir = data_dir("storage-failing");
    let server = server(&dir);
    let udp = server.udp_addr().unwrap();
    let mut a = TestClient::signed_in(udp, Transport::Udp, "Ann");
    let mut b = TestClient::signed_in(udp, Transport::Udp, "Ben");
    let (view, first) = start_game(&mut a, &mut b, Variant::Alquerque, None);
    let game = view.game;
    let mut players = if first == 0 { [a, b] } else { [b, a] };
    let mut local = AnyGame::new(Variant::Alquerque);
    play_moves(&mut players, game, &mut local, 2);

    let db = rusqlite::Connection::open(dir.join("ludus.sqlite3")).expect("open the file");
    db.busy_timeout(std::time::Duration::from_secs(10)).unwrap();
    db.execute_batch(FAIL_WRITES).expect("triggers");
    // A move the server takes before it knows: its batch fails and is retried, unconfirmed.
    let ply = local.ply() as u32;
    let mv = local.legal_moves()[0];
    let text = local.position().move_to_string(&mv).unwrap();
    let side = local.side_to_move().index();
    players[side].send(ClientMessage::Move { game, ply, mv: text });
    local.play(&mv).unwrap();
    wait_status(&server, "the database seen failing", |s| s.db_failing);
    // Still answering: pings, and a clear refusal of anything else.
    for (i, p) in players.iter_mut().enumerate() {
        pong(p, 100 + i as u64);
        p.send(ClientMessage::Lobby);
        let message = p.expect_error(ErrorCode::Busy);
        assert!(message.contains("disk is full"), "{message}");
        pong(p, 200 + i as u64);
    }
    assert_eq!(server.status().stats.games_finished, 0);

    // The disk has room again: the move is stored and confirmed, and play goes on.
    db.execute_batch(FREE_WRITES).expect("triggers dropped");
    for p in players.iter_mut() {
        p.expect_move(game, ply);
    }
    wait_status(&server, "the database back", |s| !s.db_failing && s.db_backlog == 0);
    play_moves(&mut players, game, &mut local, 2);
    let moves: i64 =
        db.query_row("SELECT COUNT(*) FROM moves WHERE game = ?1", [game.0 as i64], |r| r.get(0)).unwrap();
    assert_eq!(moves, 5, "every confirmed move is stored");
}

fn refused_at_start(dir: &std::path::Path) -> String {
    let mut config = ServerConfig::local(dir);
    config.new_players_per_minute = 0;
    match ServerHandle::spawn(config) {
        Ok(_) => panic!("the server started on {}", dir.display()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_database_of_a_newer_schema_is_refused_at_start_naming_file_and_versions() {
    let dir = data_dir("storage-newer-schema");
    drop(server(&dir));
    let file = dir.join("ludus.sqlite3");
    let db = rusqlite::Connection::open(&file).unwrap();
    let ours: i64 = db.query_row("SELECT MAX(version) FROM ludus_schema", [], |r| r.get(0)).unwrap();
    db.execute("INSERT INTO ludus_schema(version) VALUES (?1)", [ours + 3]).unwrap();
    drop(db);
    let message = refused_at_start(&dir);
    for part in [file.display().to_string(), format!("version {}", ours + 3), format!("version {ours}")] {
        assert!(message.contains(&part), "{part:?} not in {message:?}");
    }
}

#[test]
fn an_empty_database_file_is_refused_at_start_naming_it() {
    let dir = data_dir("storage-empty-file");
    let file = dir.join("ludus.sqlite3");
    std::fs::write(&file, b"").unwrap();
    let message = refused_at_start(&dir);
    assert!(message.contains(&file.display().to_string()) && message.contains("empty"), "{message}");
    assert_eq!(std::fs::metadata(&file).unwrap().len(), 0, "the file is left as it was");
}
