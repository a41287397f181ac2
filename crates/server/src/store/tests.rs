//! The store's own cases, run against SQLite and (when its binaries are there) PostgreSQL.

use super::{Database, MIGRATIONS, NodeConfig, Store, now_ms, redact};
use crate::core::records::{ClaimOrigin, ID_BLOCK, Op, PlayerLookup, StoredRating};
use ludus_protocol::{ChatChannel, ChatLine, ChatText, ClockSpec, GameId, PlayerId, Proposal, QuickPhrase};
use ludus_rules::Variant;
use std::time::Duration;

/// Two chat lines of game 1 (both channels, a phrase and free text in Vietnamese).
fn chat_lines(now: u64) -> Vec<ChatLine> {
    vec![
        ChatLine {
            game: GameId(1),
            channel: ChatChannel::Players,
            from: PlayerId(1),
            nickname: "Ann".into(),
            text: ChatText::Phrase(QuickPhrase::GoodLuck),
            ply: 0,
            at_ms: now,
        },
        ChatLine {
            game: GameId(1),
            channel: ChatChannel::Spectators,
            from: PlayerId(3),
            nickname: "Sam".into(),
            text: ChatText::Free("Nước đi hay! \"quoted\" 🎲".into()),
            ply: 2,
            at_ms: now + 1,
        },
    ]
}

/// A SQLite database in a directory of its own, removed at the test's end.
struct Sqlite(Database);

impl Drop for Sqlite {
    fn drop(&mut self) {
        if let Database::Sqlite(dir) = &self.0 {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn sqlite(name: &str) -> Sqlite {
    let dir = std::env::temp_dir().join(format!("ludus-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    Sqlite(Database::Sqlite(dir))
}

fn postgres(name: &str) -> Option<(ludus_pg_harness::TestPostgres, Database)> {
    let pg = ludus_pg_harness::TestPostgres::start(name)?;
    let url = pg.new_database(name);
    Some((pg, Database::Postgres(url)))
}

const LIFETIME: Duration = Duration::from_secs(180 * 24 * 3600);

/// A game with two players, three moves with clocks, proposals, chat, a second game finished: all
/// of it comes back on reopening, the finished game does not, and credentials are looked up by
/// either hash only while not expired.
fn round_trip(db: &Database) {
    let now = now_ms();
    {
        let (mut store, loaded) = Store::open_with(db, LIFETIME).expect("open");
        assert!(loaded.games.is_empty());
        assert_eq!((loaded.next_player, loaded.next_game), (1, 1));
        let clock = Some(ClockSpec { initial_ms: 60_000, increment_ms: 1000 });
        let mut ops = vec![
            Op::NewPlayer { id: 1, hash: "h1".into(), nickname: "Ann".into(), created_ms: now },
            Op::NewPlayer { id: 2, hash: "h2".into(), nickname: "Ben".into(), created_ms: now },
            Op::NewGame {
                id: 1,
                room: "ABCD".into(),
                variant: Variant::LatrunculiQuick,
                start: String::new(),
                players: [1, 2],
                public: true,
                clock,
                created_ms: now,
                rated: true,
            },
            Op::NewGame {
                id: 2,
                room: "EFGH".into(),
                variant: Variant::Alquerque,
                start: String::new(),
                players: [2, 1],
                public: false,
                clock: None,
                created_ms: now,
                rated: false,
            },
        ];
        for (ply, mv) in ["a1a3", "a8a6", "b1b3"].iter().enumerate() {
            ops.push(Op::Move {
                game: 1,
                ply: ply as u32,
                mv: mv.to_string(),
                at_ms: now,
                clocks: Some([60_000 - ply as u64, 59_000]),
            });
        }
        for (seq, line) in chat_lines(now).into_iter().enumerate() {
            ops.push(Op::Chat { game: 1, seq: seq as u32, line });
        }
        let mut finished_line = chat_lines(now).remove(0);
        finished_line.game = GameId(2);
        ops.push(Op::Chat { game: 2, seq: 0, line: finished_line });
        store.submit(ops);
        let proposals =
            vec![Proposal { mv: "b1b2".into(), count: 1 }, Proposal { mv: "c1c3".into(), count: 3 }];
        store.submit(vec![
            Op::Proposals { game: 1, ply: 2, proposals: proposals.clone() },
            Op::Proposals { game: 1, ply: 2, proposals: vec![Proposal { mv: "b1b2".into(), count: 2 }] },
            Op::Credential { id: 1, hash: "h1b".into(), prev: Some("h1".into()), last_seen_ms: now },
            Op::Nickname { id: 2, nickname: "Benedict".into() },
            Op::Finish { game: 2, outcome: "draw".into(), ended_ms: now, archive: "{}".into() },
        ]);
        assert!(store.sync(Duration::from_secs(30)), "committed");
        assert_eq!(store.committed(), 2);
        assert!(!store.is_failing());
        for (conn, hash, expect) in [(7, "h1b", Some(1)), (8, "h1", Some(1)), (9, "nope", None)] {
            store.lookup(PlayerLookup { conn, hash: hash.into(), cutoff_ms: now - 1 });
            let deadline = std::time::Instant::now() + Duration::from_secs(30);
            let answer = loop {
                if let Some(a) = store.looked_up().pop() {
                    break a;
                }
                assert!(std::time::Instant::now() < deadline, "no lookup answer");
                std::thread::sleep(Duration::from_millis(1));
            };
            assert_eq!((answer.conn, answer.hash.as_str()), (conn, hash));
            assert_eq!(answer.player.map(|p| p.id), expect, "{hash}");
        }
        store.lookup(PlayerLookup { conn: 10, hash: "h1b".into(), cutoff_ms: now + 60_000 });
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        let answer = loop {
            if let Some(a) = store.looked_up().pop() {
                break a;
            }
            assert!(std::time::Instant::now() < deadline, "no lookup answer");
            std::thread::sleep(Duration::from_millis(1));
        };
        assert!(answer.player.is_none(), "an expired credential finds nobody");
    }
    let (store, loaded) = Store::open_with(db, LIFETIME).expect("reopen");
    if matches!(db, Database::Sqlite(_)) {
        assert_eq!((loaded.next_player, loaded.next_game), (3, 3));
    } else {
        // PostgreSQL: the next block of numbers, past every number of the first one.
        assert!(loaded.next_player >= 3 && loaded.next_game >= 3);
    }
    assert_eq!(loaded.games.len(), 1, "only the live game");
    let g = &loaded.games[0];
    assert_eq!(
        (g.id, g.room.as_str(), g.variant, g.players, g.public),
        (1, "ABCD", Variant::LatrunculiQuick, [1, 2], true)
    );
    assert_eq!(g.clock, Some(ClockSpec { initial_ms: 60_000, increment_ms: 1000 }));
    assert!(g.rated, "a rated live game stays rated");
    assert_eq!(g.moves, ["a1a3", "a8a6", "b1b3"]);
    assert_eq!(g.clocks, Some([59_998, 59_000]));
    assert_eq!(g.proposals.len(), 1);
    assert_eq!(g.proposals[0].ply, 2);
    assert_eq!(g.proposals[0].played, "b1b3");
    let counts: Vec<(&str, u32)> =
        g.proposals[0].proposals.iter().map(|p| (p.mv.as_str(), p.count)).collect();
    assert_eq!(counts, [("c1c3", 3), ("b1b2", 2)], "the later count replaces the earlier, most first");
    assert_eq!(g.chat, chat_lines(now), "the chat comes back in order, both channels");
    assert_eq!(g.chat_stored, 2, "the next line's number follows the stored ones");
    let mut players: Vec<(u64, &str, Option<&str>)> =
        loaded.players.iter().map(|p| (p.id, p.nickname.as_str(), p.prev.as_deref())).collect();
    players.sort();
    assert_eq!(players, [(1, "Ann", Some("h1")), (2, "Benedict", None)]);
    assert_eq!(
        loaded.players.iter().find(|p| p.id == 1).map(|p| p.hash.as_str()),
        Some("h1b"),
        "stored hashed as given"
    );
    drop(store);
    // Reopening with a lifetime of zero prunes nobody in a live game.
    let (_, loaded) = Store::open_with(db, Duration::ZERO).expect("reopen");
    assert_eq!(loaded.players.len(), 2);
}

/// Claims (migration 4) and ratings come back at every start, with every claimed player (even
/// outside live games), and a claimed player is never pruned; a rating is replaced in place.
fn claims_and_ratings(db: &Database) {
    let now = now_ms();
    {
        let (mut store, loaded) = Store::open_with(db, LIFETIME).expect("open");
        assert!(loaded.claims.is_empty());
        let rating =
            |r: f64, games| StoredRating { rating: r, games, wins: games, ..StoredRating::default() };
        store.submit(vec![
            Op::NewPlayer { id: 1, hash: "h1".into(), nickname: "Ann".into(), created_ms: now },
            Op::NewPlayer { id: 2, hash: "h2".into(), nickname: "Ben".into(), created_ms: now },
            Op::NewPlayer { id: 3, hash: "h3".into(), nickname: "Cy".into(), created_ms: now },
            Op::Claim { id: 1, skeleton: "ann".into(), password_hash: "$argon2id$fake1".into() },
            Op::Claim { id: 2, skeleton: "ben".into(), password_hash: "$argon2id$fake2".into() },
            Op::Rating { player: 1, variant: Variant::Alquerque, rating: rating(1600.25, 1) },
            Op::NewGame {
                id: 1,
                room: "ROOM".into(),
                variant: Variant::Alquerque,
                start: String::new(),
                players: [2, 3],
                public: true,
                clock: None,
                created_ms: now,
                rated: false,
            },
            Op::Finish { game: 1, outcome: "draw".into(), ended_ms: now, archive: "{}".into() },
        ]);
        store.submit(vec![
            Op::Rating { player: 1, variant: Variant::Alquerque, rating: rating(1650.5, 2) },
            Op::Rating { player: 1, variant: Variant::Latrunculi, rating: rating(1400.0, 1) },
            Op::TurnRating { player: 2, variant: Variant::Latrunculi, rating: rating(1550.0, 1) },
            Op::RatedOpponent { player: 1, opponent: 2 },
            Op::RatedOpponent { player: 2, opponent: 1 },
            Op::RatedOpponent { player: 1, opponent: 2 },
        ]);
        assert!(store.sync(Duration::from_secs(30)), "committed");
    }
    // A lifetime of zero prunes every unclaimed player outside live games, no claimed one.
    let (_store, loaded) = Store::open_with(db, Duration::ZERO).expect("reopen");
    assert_eq!(loaded.rated_opponents, [(1, 2), (2, 1)], "whom each met, once");
    assert_eq!(loaded.games_today, [[2, 3]], "the games of the day, for the daily cap");
    let claims: Vec<(u64, &str, &str)> =
        loaded.claims.iter().map(|c| (c.id, c.nickname.as_str(), c.password_hash.as_str())).collect();
    assert_eq!(claims, [(1, "Ann", "$argon2id$fake1"), (2, "Ben", "$argon2id$fake2")]);
    let mut ann = loaded.claims[0].ratings.clone();
    ann.sort_by_key(|(v, _)| v.name());
    assert_eq!(ann.len(), 2);
    assert_eq!(ann[0].0, Variant::Alquerque);
    assert_eq!((ann[0].1.rating, ann[0].1.games, ann[0].1.wins), (1650.5, 2, 2), "replaced in place");
    assert_eq!(ann[0].1.deviation, StoredRating::default().deviation);
    assert_eq!((ann[1].0, ann[1].1.rating), (Variant::Latrunculi, 1400.0));
    assert!(loaded.claims[1].ratings.is_empty(), "a turn-based rating is a pool of its own");
    assert!(loaded.claims[0].turn_ratings.is_empty());
    let ben = &loaded.claims[1].turn_ratings;
    assert_eq!(ben.iter().map(|(v, r)| (*v, r.rating)).collect::<Vec<_>>(), [(Variant::Latrunculi, 1550.0)]);
    if matches!(db, Database::Sqlite(_)) {
        assert_eq!(loaded.next_player, 4, "the unclaimed player 3 was pruned, but their number stays used");
    } else {
        assert!(loaded.next_player >= 4, "numbers are never given twice");
    }
}

#[test]
fn claims_and_ratings_sqlite() {
    claims_and_ratings(&sqlite("claims").0);
}

#[test]
fn claims_and_ratings_postgres() {
    if let Some((_pg, db)) = postgres("claims") {
        claims_and_ratings(&db);
    }
}

#[test]
fn round_trip_sqlite() {
    round_trip(&sqlite("round-trip").0);
}

#[test]
fn round_trip_postgres() {
    if let Some((_pg, db)) = postgres("round_trip") {
        round_trip(&db);
    }
}

/// A move already stored for a ply makes the batch fail as a whole (the primary key), and the
/// writer keeps retrying rather than dropping it: nothing after it counts as committed.
fn duplicate_move_is_not_committed(db: &Database) {
    let (mut store, _) = Store::open_with(db, LIFETIME).expect("open");
    let mv = |ply| Op::Move { game: 1, ply, mv: "a1a2".into(), at_ms: 0, clocks: None };
    store.submit(vec![mv(0)]);
    assert!(store.sync(Duration::from_secs(30)));
    store.submit(vec![mv(1), mv(0)]);
    assert!(within(Duration::from_secs(30), || store.is_failing()), "the writer never tried the batch");
    assert!(!store.sync(Duration::ZERO), "the failing batch is not reported committed");
    assert_eq!(store.committed(), 1);
    // Dropping the store would wait for the retrying writer forever: leak it in the test.
    std::mem::forget(store);
}

#[test]
fn failing_batch_is_retried_not_dropped_sqlite() {
    duplicate_move_is_not_committed(&sqlite("duplicate").0);
}

#[test]
fn failing_batch_is_retried_not_dropped_postgres() {
    if let Some((_pg, db)) = postgres("duplicate") {
        duplicate_move_is_not_committed(&db);
    }
}

/// Whether `done` becomes true within `limit` (polled every 10 ms).
fn within(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + limit;
    while !done() {
        if std::time::Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

/// A local port where nothing answers, held for as long as the socket lives: bound, never
/// listening, so connections to it are refused and no one else can take it meanwhile.
#[cfg(feature = "postgres")]
fn silent_port() -> (socket2::Socket, u16) {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
    socket.bind(&std::net::SocketAddr::from(([127, 0, 0, 1], 0)).into()).unwrap();
    let port = socket.local_addr().unwrap().as_socket().unwrap().port();
    (socket, port)
}

#[test]
#[cfg(feature = "postgres")]
fn unreachable_postgres_is_a_clear_error() {
    use super::StoreError;
    let (_held, port) = silent_port();
    let url = format!("postgres://ludus:secret@127.0.0.1:{port}/ludus");
    let e = Store::open_with(&Database::Postgres(url), LIFETIME).err().expect("refused");
    let text = e.to_string();
    assert!(text.contains(&format!("127.0.0.1:{port}")), "{text}");
    assert!(!text.contains("secret"), "the password is not shown: {text}");
    let e = Store::open_with(&Database::Postgres("postgres://a@b/c?bogus=1".into()), LIFETIME).err().unwrap();
    assert!(matches!(e, StoreError::Url { .. }), "{e}");
}

#[test]
fn passwords_are_redacted() {
    assert_eq!(redact("postgres://u:p@h:5/db"), "postgres://u:***@h:5/db");
    assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
    assert_eq!(redact("postgres://h/db"), "postgres://h/db");
    assert_eq!(redact("nonsense"), "nonsense");
    assert_eq!(redact("postgres://u:p@ss@h/db"), "postgres://u:***@h/db");
}

fn node(name: &str, lease_ms: u64) -> NodeConfig {
    NodeConfig { name: name.into(), lease: Duration::from_millis(lease_ms) }
}

/// Several nodes on one PostgreSQL database: each gets its own block of player and game
/// numbers; a second process under a node's name fences the first one off (its writes fail with
/// the lease lost, and it is told so), and a node loads only its own live games.
#[test]
fn nodes_on_one_postgres_database_get_their_own_numbers_and_fence_each_other() {
    let Some((_pg, db)) = postgres("nodes") else { return };
    let (mut a, la) = Store::open_node(&db, LIFETIME, Some(&node("a", 60_000))).expect("open a");
    let (b, lb) = Store::open_node(&db, LIFETIME, Some(&node("b", 60_000))).expect("open b");
    let (pa, pb) = ((la.next_player, la.player_end), (lb.next_player, lb.player_end));
    assert_eq!(pa.1 - pa.0, ID_BLOCK);
    assert!(pa.1 <= pb.0 || pb.1 <= pa.0, "player blocks overlap: {pa:?} {pb:?}");
    assert!(la.game_end <= lb.next_game || lb.game_end <= la.next_game);
    let now = now_ms();
    a.submit(vec![
        Op::NewPlayer { id: la.next_player, hash: "h1".into(), nickname: "Ann".into(), created_ms: now },
        Op::NewPlayer { id: la.next_player + 1, hash: "h2".into(), nickname: "Ben".into(), created_ms: now },
        Op::NewGame {
            id: la.next_game,
            room: "ROOM01".into(),
            variant: Variant::Alquerque,
            start: ludus_rules::AnyGame::new(Variant::Alquerque).start().to_string(),
            players: [la.next_player, la.next_player + 1],
            public: true,
            clock: None,
            created_ms: now,
            rated: false,
        },
    ]);
    assert!(a.sync(Duration::from_secs(10)));
    assert!(!a.lease_lost());
    drop(b);
    // b again: a new incarnation of b, without a's game.
    let (_b2, lb2) = Store::open_node(&db, LIFETIME, Some(&node("b", 60_000))).expect("open b again");
    assert!(lb2.games.is_empty(), "a's game stays a's");
    // A second process named a: it has a's game, and the first a is fenced off.
    let (_a2, la2) = Store::open_node(&db, LIFETIME, Some(&node("a", 60_000))).expect("open a again");
    assert_eq!(la2.games.len(), 1);
    a.submit(vec![Op::Nickname { id: la.next_player, nickname: "Anna".into() }]);
    assert!(within(Duration::from_secs(10), || a.lease_lost()), "the lease was not found lost");
    assert!(!a.sync(Duration::ZERO), "the fenced-off writer stores nothing");
}

/// The tables of schema 5 (before claims' origins), with two claimed players and a rated game
/// that ended now, made by `run` (one batch of statements in the dialect of PostgreSQL if `pg`,
/// else SQLite's).
fn schema_5(now: u64, pg: bool, run: &mut dyn FnMut(&str)) {
    for m in MIGRATIONS.iter().filter(|m| m.version <= 5) {
        let text = if pg { m.postgres } else { m.sqlite };
        run(&format!("{text}\nINSERT INTO ludus_schema(version) VALUES ({});", m.version));
    }
    run(&format!(
        "INSERT INTO players(id, token_hash, nickname, created_ms, last_seen_ms, password_hash, claim_skeleton)
         VALUES (1, 'h1', 'Ann', {now}, {now}, '$argon2id$fake1', 'ann'),
                (2, 'h2', 'Ben', {now}, {now}, '$argon2id$fake2', 'ben');
         INSERT INTO games(id, room, variant, start, first_player, second_player, public, created_ms, live,
                           outcome, ended_ms, archive, rated)
         VALUES (1, 'ROOM', 'alquerque', '', 1, 2, 1, {now}, 0, 'draw', {now}, '{{}}', 1);"
    ));
}

/// A database of schema 5 opens: its claims come back without an origin, its rated game of the
/// day counts for the pair limit, and origins and unrated marks are stored from then on.
fn schema_5_opens(db: &Database, now: u64) {
    {
        let (mut store, loaded) = Store::open_with(db, LIFETIME).expect("an old database opens");
        let origins: Vec<(u64, Option<ClaimOrigin>)> =
            loaded.claims.iter().map(|c| (c.id, c.origin.clone())).collect();
        assert_eq!(origins, [(1, None), (2, None)]);
        assert_eq!(loaded.rated_games, [([1, 2], now)]);
        let origin = ClaimOrigin { address: "0123456789abcdef0123456789abcdef".into(), claimed_ms: now };
        store.submit(vec![
            Op::ClaimOrigin { id: 2, address: origin.address.clone(), claimed_ms: now },
            Op::Unrated { game: 1 },
        ]);
        assert!(store.sync(Duration::from_secs(30)), "committed");
    }
    let (_store, loaded) = Store::open_with(db, LIFETIME).expect("reopen");
    assert_eq!(loaded.claims[0].origin, None);
    let origin = loaded.claims[1].origin.clone().expect("stored");
    assert_eq!((origin.address.len(), origin.claimed_ms), (32, now));
    assert!(loaded.rated_games.is_empty(), "the game is unrated now");
}

#[test]
fn a_database_of_schema_5_opens_sqlite() {
    let scratch = sqlite("schema5");
    let db = &scratch.0;
    let Database::Sqlite(dir) = db else { unreachable!() };
    std::fs::create_dir_all(dir).unwrap();
    let conn = rusqlite::Connection::open(dir.join("ludus.sqlite3")).unwrap();
    conn.execute_batch("CREATE TABLE ludus_schema(version INTEGER NOT NULL)").unwrap();
    let now = now_ms();
    schema_5(now, false, &mut |sql| conn.execute_batch(sql).unwrap());
    drop(conn);
    schema_5_opens(db, now);
}

#[test]
#[cfg(feature = "postgres")]
fn a_database_of_schema_5_opens_postgres() {
    let Some((_pg, db)) = postgres("schema5") else { return };
    let Database::Postgres(url) = &db else { unreachable!() };
    let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
    client.batch_execute("CREATE TABLE ludus_schema(version BIGINT NOT NULL)").unwrap();
    let now = now_ms();
    schema_5(now, true, &mut |sql| client.batch_execute(sql).unwrap());
    drop(client);
    schema_5_opens(&db, now);
}

/// The core's stored effects of one input.
fn stored_ops(effects: Vec<crate::core::Effect>) -> Vec<Op> {
    effects
        .into_iter()
        .filter_map(|e| match e {
            crate::core::Effect::Store(op) => Some(op),
            _ => None,
        })
        .collect()
}

/// A turn-based game and a challenge made through the core, stored, and the database reopened
/// by a new core days later: the game is back with its deadline and is lost on time when it
/// passes, though nobody reconnected; the pending challenge is back with its challenger; an
/// ended challenge is not.
fn turn_based_restart(db: &Database) {
    use crate::core::{Core, Input, Limits};
    use crate::credential::Grant;
    use ludus_protocol::{
        ClientMessage, DAY_MS, Hello, PROTOCOL_VERSION, ServerMessage, decode_server, encode,
    };
    use ludus_rules::{Outcome, Reason, Side};
    use std::time::Instant;

    let start_ms = now_ms();
    let (mut store, loaded) = Store::open_with(db, LIFETIME).expect("open");
    let now = Instant::now();
    let mut core = Core::new(Limits::default(), loaded, now, start_ms, [3; 32]);
    let mut ops = Vec::new();
    let mut sent: Vec<(u64, ServerMessage)> = Vec::new();
    let feed =
        |core: &mut Core, input: Input<'_>, ops: &mut Vec<Op>, sent: &mut Vec<(u64, ServerMessage)>| {
            let effects = core.handle(input);
            for e in &effects {
                if let crate::core::Effect::Send(conn, bytes) = e {
                    sent.push((*conn, decode_server(bytes).expect("decodes")));
                }
            }
            ops.extend(stored_ops(effects));
        };
    let say = |message: &ClientMessage| encode(message).expect("encodes");
    for (conn, name) in [(1, "Ann"), (2, "Bob"), (3, "Cat")] {
        feed(
            &mut core,
            Input::Opened { conn, grant: Grant { credential: None, may_create: true } },
            &mut ops,
            &mut sent,
        );
        let hello = Hello { version: PROTOCOL_VERSION, token: None, nickname: Some(name.into()) };
        feed(&mut core, Input::Message(conn, &say(&ClientMessage::Hello(hello))), &mut ops, &mut sent);
    }
    let challenge = |opponent: Option<&str>| ClientMessage::Challenge {
        opponent: opponent.map(str::to_string),
        variant: Variant::Latrunculi,
        side: Some(Side::First),
        days: 3,
        listed: true,
        rated: false,
    };
    feed(&mut core, Input::Message(1, &say(&challenge(Some("Bob")))), &mut ops, &mut sent);
    feed(&mut core, Input::Message(3, &say(&challenge(None))), &mut ops, &mut sent);
    feed(&mut core, Input::Message(3, &say(&challenge(None))), &mut ops, &mut sent);
    let codes: Vec<(u64, String)> = sent
        .iter()
        .filter_map(|(c, m)| match m {
            ServerMessage::ChallengeMade(v) => Some((*c, v.code.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(codes.len(), 3);
    feed(
        &mut core,
        Input::Message(2, &say(&ClientMessage::AcceptChallenge { code: codes[0].1.clone() })),
        &mut ops,
        &mut sent,
    );
    feed(
        &mut core,
        Input::Message(3, &say(&ClientMessage::CancelChallenge { code: codes[2].1.clone() })),
        &mut ops,
        &mut sent,
    );
    let view = sent
        .iter()
        .find_map(|(c, m)| match m {
            ServerMessage::Game(v) if *c == 1 => Some(v.clone()),
            _ => None,
        })
        .expect("the game started");
    let game = view.replay().expect("replays");
    let position = game.position();
    let mv = position.move_to_string(&position.legal_moves()[0]).expect("notation");
    feed(
        &mut core,
        Input::Message(1, &say(&ClientMessage::Move { game: view.game, ply: 0, mv: mv.clone() })),
        &mut ops,
        &mut sent,
    );
    assert!(sent.iter().any(|(c, m)| *c == 2 && matches!(m, ServerMessage::MovePlayed { .. })));
    store.submit(ops);
    assert!(store.sync(Duration::from_secs(30)), "committed");
    drop(store);
    drop(core);

    // A restart: everything comes back.
    let (mut store, loaded) = Store::open_with(db, LIFETIME).expect("reopen");
    assert_eq!(loaded.games.len(), 1);
    let g = &loaded.games[0];
    assert_eq!(g.moves, vec![mv]);
    let (days, deadline) = g.turn.expect("a turn-based game");
    assert_eq!(days, 3);
    assert!(deadline >= start_ms + 3 * DAY_MS && deadline < start_ms + 3 * DAY_MS + 60_000, "{deadline}");
    assert_eq!(loaded.challenges.len(), 1, "the pending challenge, not the accepted or withdrawn ones");
    assert_eq!(loaded.challenges[0].code, codes[1].1);
    assert!(loaded.players.iter().any(|p| p.nickname == "Cat"), "the challenger is loaded with it");
    // Two days later: still on. Past the deadline: Bob (to move) lost on time.
    let later = Instant::now();
    let mut core = Core::new(Limits::default(), loaded, later, start_ms + 2 * DAY_MS, [4; 32]);
    let mut ops = Vec::new();
    let mut sent = Vec::new();
    feed(&mut core, Input::Timers, &mut ops, &mut sent);
    assert!(ops.is_empty(), "nothing ends before the deadline");
    let after = later + Duration::from_millis(DAY_MS + 60_000);
    feed(&mut core, Input::Time { now: after, unix_ms: start_ms + 3 * DAY_MS + 60_000 }, &mut ops, &mut sent);
    feed(&mut core, Input::Timers, &mut ops, &mut sent);
    let outcome = ops.iter().find_map(|op| match op {
        Op::Finish { outcome, .. } => Some(outcome.clone()),
        _ => None,
    });
    assert_eq!(outcome, Some(Outcome::win(Side::First, Reason::Timeout).to_string()));
    store.submit(ops);
    assert!(store.sync(Duration::from_secs(30)), "committed");
    drop(store);
    let (_store, loaded) = Store::open_with(db, LIFETIME).expect("reopen");
    assert!(loaded.games.is_empty(), "the game is over for good");
}

#[test]
fn turn_based_restart_sqlite() {
    turn_based_restart(&sqlite("turn-based").0);
}

#[test]
fn turn_based_restart_postgres() {
    if let Some((_pg, db)) = postgres("turn_based") {
        turn_based_restart(&db);
    }
}

/// Tournaments: the state is replaced at each change, the results are appended in order; the
/// unfinished ones and the last 50 finished come back, and new numbers follow the largest.
fn tournaments_round_trip(db: &Database) {
    use crate::core::records::StoredTournament;
    let (mut store, loaded) = Store::open_with(db, LIFETIME).expect("open");
    assert!(loaded.tournaments.is_empty());
    assert_eq!(loaded.next_tournament, 1);
    let state = |n: u32| format!("{{\"state\":{n}}}");
    let mut ops = vec![
        Op::Tournament { id: 1, finished: false, created_ms: 5, state: state(1) },
        Op::TournamentResult { tournament: 1, seq: 0, result: "\"a\"".into() },
    ];
    // 60 finished ones: the 50 latest come back.
    for id in 2..62 {
        ops.push(Op::Tournament { id, finished: true, created_ms: 5, state: state(0) });
    }
    store.submit(ops);
    store.submit(vec![
        Op::Tournament { id: 1, finished: false, created_ms: 5, state: state(2) },
        Op::TournamentResult { tournament: 1, seq: 1, result: "\"b\"".into() },
    ]);
    assert!(store.sync(Duration::from_secs(30)), "committed");
    drop(store);
    let (_store, loaded) = Store::open_with(db, LIFETIME).expect("reopen");
    assert_eq!(loaded.next_tournament, 62);
    assert_eq!(loaded.tournaments.len(), 51);
    assert_eq!(
        loaded.tournaments[0],
        StoredTournament { id: 1, state: state(2), results: vec!["\"a\"".into(), "\"b\"".into()] }
    );
    assert_eq!(loaded.tournaments[1].id, 12, "the oldest finished ones are left in the database");
}

#[test]
fn tournaments_round_trip_sqlite() {
    tournaments_round_trip(&sqlite("tournaments").0);
}

#[test]
fn tournaments_round_trip_postgres() {
    if let Some((_pg, db)) = postgres("tournaments") {
        tournaments_round_trip(&db);
    }
}
/// A finished game's archive as the server stores it (JSON), between `players`.
fn archive_json(game: u64, players: [&str; 2], ended_ms: u64) -> String {
    let archive = ludus_protocol::ArchivedGame {
        game: GameId(game),
        record: ludus_rules::GameRecord {
            variant: Variant::Alquerque,
            start: String::new(),
            moves: Vec::new(),
            ending: None,
        },
        outcome: ludus_rules::Outcome {
            winner: Some(ludus_rules::Side::First),
            reason: ludus_rules::Reason::Resignation,
        },
        players: players.map(String::from),
        clock: None,
        proposals: Vec::new(),
        started_ms: ended_ms,
        ended_ms,
        chat: Vec::new(),
        rated: false,
        ratings: None,
    };
    serde_json::to_string(&archive).expect("an archive")
}

/// The finished games of player 1 (games 1..=count): odd ones with 1 first, even ones second;
/// every third private; each ended one millisecond after the one before, two by two (ties are
/// broken by the higher number).
fn finished_games(count: u64, now: u64) -> Vec<Op> {
    let mut ops = vec![
        Op::NewPlayer { id: 1, hash: "h1".into(), nickname: "Ann".into(), created_ms: now },
        Op::NewPlayer { id: 2, hash: "h2".into(), nickname: "Ben".into(), created_ms: now },
    ];
    for id in 1..=count {
        let players = if id % 2 == 1 { [1, 2] } else { [2, 1] };
        let names = if id % 2 == 1 { ["Ann", "Ben"] } else { ["Ben", "Ann"] };
        let ended_ms = now + id / 2;
        ops.push(Op::NewGame {
            id,
            room: format!("R{id}"),
            variant: Variant::Alquerque,
            start: String::new(),
            players,
            public: id % 3 != 0,
            clock: None,
            created_ms: now,
            rated: false,
        });
        ops.push(Op::Finish {
            game: id,
            outcome: "resigned".into(),
            ended_ms,
            archive: archive_json(id, names, ended_ms),
        });
    }
    ops
}

/// The numbers of the newest `limit` of games `1..=count` of [`finished_games`] (public ones
/// only unless `private`), newest first.
fn expected_recent(count: u64, limit: usize, private: bool) -> Vec<u64> {
    let mut ids: Vec<u64> = (1..=count).filter(|id| private || id % 3 != 0).collect();
    ids.sort_by_key(|id| std::cmp::Reverse((id / 2, *id)));
    ids.truncate(limit);
    ids
}

/// A profile's recent games come newest first from both seats, public ones only for others.
fn recent_games_newest_first(db: &Database) {
    let now = now_ms();
    let (mut store, _) = Store::open_with(db, LIFETIME).expect("open");
    store.submit(finished_games(60, now));
    assert!(store.sync(Duration::from_secs(30)), "committed");
    for private in [true, false] {
        store.recent_games(crate::core::records::GamesLookup {
            conn: 9,
            player: 1,
            nickname: "Ann".into(),
            private,
        });
        let mut found = Vec::new();
        assert!(
            within(Duration::from_secs(30), || {
                found.extend(store.games_found());
                !found.is_empty()
            }),
            "answered"
        );
        let games: Vec<u64> = found[0].games.iter().map(|g| g.game.0).collect();
        assert_eq!(
            games,
            expected_recent(60, ludus_protocol::ProfileView::RECENT, private),
            "private: {private}"
        );
        assert!(found[0].games.iter().all(|g| g.opponent == "Ben"));
    }
}

#[test]
fn recent_games_newest_first_sqlite() {
    recent_games_newest_first(&sqlite("recent").0);
}

#[test]
fn recent_games_newest_first_postgres() {
    if let Some((_pg, db)) = postgres("recent") {
        recent_games_newest_first(&db);
    }
}

/// A profile's read walks its limit of index entries, not every game the player finished:
/// with 6,000 finished games (a third private), either read takes a few thousand SQLite
/// instructions, where sorting every game of the player took millions; and neither sorts the
/// games table (only the two limited lists are merged).
#[test]
fn recent_games_read_is_bounded_by_its_limit_not_by_the_games_played() {
    let scratch = sqlite("bounded");
    let now = now_ms();
    let count = 6_000;
    {
        let (mut store, _) = Store::open_with(&scratch.0, LIFETIME).expect("open");
        store.submit(finished_games(count, now));
        assert!(store.sync(Duration::from_secs(60)), "committed");
    }
    let Database::Sqlite(dir) = &scratch.0 else { unreachable!() };
    let conn = rusqlite::Connection::open(dir.join("ludus.sqlite3")).expect("opens");
    let limit = ludus_protocol::ProfileView::RECENT as i64;
    for (statement, private) in [(super::sql::RECENT_GAMES, true), (super::sql::RECENT_PUBLIC_GAMES, false)] {
        let plan: Vec<String> = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {statement}"))
            .unwrap()
            .query_map(rusqlite::params![1, limit], |r| r.get::<_, String>(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(plan.iter().all(|l| !l.starts_with("SCAN games")), "{plan:?}");
        let mut stmt = conn.prepare(statement).unwrap();
        let ids: Vec<i64> = stmt
            .query_map(rusqlite::params![1, limit], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let steps = stmt.get_status(rusqlite::StatementStatus::VmStep);
        let full_scan = stmt.get_status(rusqlite::StatementStatus::FullscanStep);
        drop(stmt);
        let expected: Vec<i64> =
            expected_recent(count, limit as usize, private).into_iter().map(|id| id as i64).collect();
        assert_eq!(ids, expected);
        println!("recent games of a player with {count} games (private: {private}): {steps} instructions");
        assert_eq!(full_scan, 0, "no table walked through");
        assert!(steps < 20_000, "{steps} SQLite instructions for {limit} games");
    }
}

/// A returning player's sign-in is not held behind a flood of profile reads: 64 profiles of a
/// player with 20,000 finished games are queued, then a sign-in; the sign-in is answered after
/// at most the read under way (the reader serves sign-ins first, and each profile read walks
/// its limit of entries, not the player's games).
#[test]
fn a_sign_in_is_answered_first_under_a_flood_of_profile_reads() {
    let scratch = sqlite("flood");
    let now = now_ms();
    let (mut store, _) = Store::open_with(&scratch.0, LIFETIME).expect("open");
    store.submit(finished_games(20_000, now));
    assert!(store.sync(Duration::from_secs(120)), "committed");
    let started = std::time::Instant::now();
    for conn in 0..64 {
        store.recent_games(crate::core::records::GamesLookup {
            conn,
            player: 1,
            nickname: "Ann".into(),
            private: conn % 2 == 0,
        });
    }
    store.lookup(PlayerLookup { conn: 99, hash: "h2".into(), cutoff_ms: 0 });
    let mut signed_in = None;
    assert!(within(Duration::from_secs(120), || {
        if signed_in.is_none() && !store.looked_up().is_empty() {
            signed_in = Some(started.elapsed());
        }
        signed_in.is_some()
    }));
    let signed_in = signed_in.unwrap_or_default();
    let mut profiles = 0;
    assert!(within(Duration::from_secs(120), || {
        profiles += store.games_found().len();
        profiles == 64
    }));
    let all = started.elapsed();
    println!(
        "sign-in behind 32 profile reads of a 20,000-game player: {signed_in:?} (all 32 read in {all:?})"
    );
    assert!(signed_in < Duration::from_millis(300), "the sign-in waited {signed_in:?}");
}
