//! The Alquerque oracle (`GET /api/alquerque/value`) over raw 127.0.0.1 TCP: its values against
//! the endgame tables' own probes (tables built here) and the shipped book, "unknown" where
//! nothing knows, the refusals, the per-address limit, and the checks of `--tables` at start.

use crate::common::*;
use crate::http::{Response, get};
use ludus_ai::solve::book::Book;
use ludus_ai::solve::position_of;
use ludus_ai::tablebase::{self, Material, Probe, Tablebase, Wdl, index};
use ludus_rules::alquerque::Position;
use ludus_rules::{GamePosition, Side};
use ludus_server::oracle::{OracleConfig, VALUE_PATH, open_tables};
use ludus_server::{Server, ServerConfig, ServerError, ServerHandle};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// Pieces of the tables built for these tests (1.5 MB, about a second).
const PIECES: u32 = 5;

/// Tables of up to [`PIECES`] pieces in a fresh directory named after `name`.
fn build_tables(name: &str) -> (PathBuf, Tablebase) {
    let dir = data_dir(name).join("tables");
    tablebase::generate(PIECES, Some(&dir), |_| {}).expect("tables built");
    let tb = Tablebase::open(&dir).expect("tables open");
    (dir, tb)
}

fn oracle_server(name: &str, oracle: OracleConfig) -> (ServerHandle, SocketAddr) {
    let mut config = ServerConfig::local(data_dir(name).join("data"));
    config.oracle = Some(oracle);
    let server = spawn(config);
    let addr = server.http_addr().expect("HTTP is on");
    (server, addr)
}

fn ask(addr: SocketAddr, position: &str) -> (Response, serde_json::Value) {
    let r = get(addr, &format!("{VALUE_PATH}?position={}", position.replace(' ', "+")), None);
    let json = serde_json::from_slice(&r.body).unwrap_or_else(|e| panic!("{position}: {e}"));
    (r, json)
}

fn wdl_name(w: Wdl) -> &'static str {
    match w {
        Wdl::Win => "win",
        Wdl::Draw => "draw",
        Wdl::Loss => "loss",
    }
}

/// The JSON of a value the tables gave: its name and its distance (none for a draw).
fn expected(p: Probe) -> (String, Option<u64>) {
    let plies = (p.wdl != Wdl::Draw).then_some(u64::from(p.plies_to_end));
    (wdl_name(p.wdl).to_string(), plies)
}

fn got(v: &serde_json::Value) -> (String, Option<u64>) {
    (v["value"].as_str().expect("a value").to_string(), v["plies"].as_u64())
}

#[test]
fn every_value_equals_the_tables_probe_for_a_thousand_positions() {
    let (dir, tb) = build_tables("oracle-tables");
    let config = OracleConfig { tables: Some(dir), per_minute: 0, ..OracleConfig::default() };
    let (_server, addr) = oracle_server("oracle-tables-server", config);
    let materials: Vec<Material> = tb.materials();
    let mut rng = SmallRng::seed_from_u64(70);
    let (mut asked, mut moves_checked, mut sources) = (0, 0, HashMap::<String, usize>::new());
    while asked < 1_000 {
        let m = materials[rng.random_range(0..materials.len())];
        let (mover, other) = index::unindex(rng.random_range(0..m.positions()), m);
        let mut pos = index::position(mover, other);
        if rng.random_bool(0.5) {
            // The same position with Black to move: colours swapped, board turned over.
            pos = Position::from_bitboards(
                index::flip(pos.pieces(Side::Second)),
                index::flip(pos.pieces(Side::First)),
                Side::Second,
                0,
            )
            .unwrap();
        }
        if pos.outcome(false).is_some() {
            continue;
        }
        asked += 1;
        let text = pos.to_string();
        let (r, json) = ask(addr, &text);
        assert_eq!(r.status, 200, "{text}: {json}");
        assert_eq!(r.header("access-control-allow-origin"), Some("*"));
        assert_eq!(json["position"], text);
        assert_eq!(got(&json), expected(tb.probe(&pos).unwrap()), "{text}");
        assert_eq!(json["source"], "tables", "{text}");
        let moves = json["moves"].as_array().unwrap();
        let legal = pos.legal_moves();
        assert_eq!(moves.len(), legal.len(), "{text}");
        for mv in &legal {
            let name = pos.move_to_string(mv);
            let entry = moves.iter().find(|e| e["move"] == name.as_str()).unwrap_or_else(|| panic!("{name}"));
            let want = tb.probe(&pos.play_unchecked(mv)).unwrap().before_move();
            assert_eq!(got(entry), expected(want), "{text} {name}");
            *sources.entry(entry["source"].as_str().unwrap().to_string()).or_default() += 1;
            moves_checked += 1;
        }
        // Best first: the first move's value is the position's.
        assert_eq!(got(&moves[0]), got(&json), "{text}");
    }
    // Moves that end the game are the rules'; every other the tables'.
    assert!(sources.keys().all(|s| s == "tables" || s == "rules"), "{sources:?}");
    assert!(moves_checked > 3_000, "{moves_checked} moves");
}

#[test]
fn what_the_solver_settles_beyond_the_shipped_tables_is_what_bigger_tables_say() {
    let (_dir, tb) = build_tables("oracle-solver");
    // The shipped tables of up to 4 pieces, and the default solving.
    let (_server, addr) =
        oracle_server("oracle-solver-server", OracleConfig { per_minute: 0, ..OracleConfig::default() });
    let materials: Vec<Material> = tb.materials().into_iter().filter(|m| m.total() == PIECES).collect();
    let mut rng = SmallRng::seed_from_u64(5);
    let (mut asked, mut by_solver, mut unknown) = (0, 0, 0);
    while asked < 100 {
        let m = materials[rng.random_range(0..materials.len())];
        let (mover, other) = index::unindex(rng.random_range(0..m.positions()), m);
        let pos = index::position(mover, other);
        if pos.outcome(false).is_some() {
            continue;
        }
        asked += 1;
        let text = pos.to_string();
        let (r, json) = ask(addr, &text);
        assert_eq!(r.status, 200, "{text}");
        let want = tb.probe(&pos).unwrap();
        match json["value"].as_str().unwrap() {
            "unknown" => unknown += 1,
            v => {
                assert_eq!(v, wdl_name(want.wdl), "{text}: {json}");
                // A distance only where tables give one, and then the right one.
                if let Some(plies) = json["plies"].as_u64() {
                    assert_eq!(Some(plies), expected(want).1, "{text}: {json}");
                }
            }
        }
        if json["source"] == "solver" {
            by_solver += 1;
        }
        for e in json["moves"].as_array().unwrap() {
            let mv = pos.parse_move(e["move"].as_str().unwrap()).unwrap();
            let want = tb.probe(&pos.play_unchecked(&mv)).unwrap().before_move();
            if e["value"] != "unknown" {
                assert_eq!(e["value"], wdl_name(want.wdl), "{text}: {e}");
            }
            if let Some(plies) = e["plies"].as_u64() {
                assert_eq!(Some(plies), expected(want).1, "{text}: {e}");
            }
        }
    }
    // 58 and 2 when measured.
    assert!(by_solver >= 40 && unknown <= 10, "solver {by_solver}, unknown {unknown} of 100");
}

#[test]
fn book_positions_equal_the_book_and_the_rest_is_unknown() {
    let (dir, _tb) = build_tables("oracle-book");
    let config = OracleConfig { tables: Some(dir), per_minute: 0, solve_nodes: 0, ..OracleConfig::default() };
    let (_server, addr) = oracle_server("oracle-book-server", config);
    let book = Book::from_bytes(include_bytes!("../../../../assets/books/alquerque.lbk"), "book").unwrap();
    let (_, json_start) = ask(addr, &Position::start().to_string());
    assert_eq!(json_start["value"], "draw");
    assert_eq!(json_start["source"], "book");
    assert_eq!(json_start["pieces"], 24);
    // Every 100th position of the book: its value, and its keeping moves' values.
    let mut checked = 0;
    for &(k, entry) in book.entries().iter().step_by(100) {
        let pos = position_of(k).unwrap();
        let text = pos.to_string();
        let (r, json) = ask(addr, &text);
        assert_eq!(r.status, 200, "{text}");
        let side = pos.side_to_move();
        let want = match entry.value.winner() {
            None => "draw",
            Some(w) if w == side => "win",
            Some(_) => "loss",
        };
        assert_eq!(json["value"], want, "{text}");
        assert_eq!(json["source"], "book", "{text}");
        let (_, keeping) = book.keeping_moves(&pos).unwrap();
        for mv in keeping {
            let name = pos.move_to_string(&mv);
            let e = json["moves"].as_array().unwrap().iter().find(|e| e["move"] == name.as_str()).unwrap();
            assert_eq!(e["value"], want, "{text} {name}");
        }
        checked += 1;
    }
    assert!(checked >= 100, "{checked}");
    // Nothing knows a position of many pieces that no game reaches, nor its moves: unknown,
    // without a source.
    let far = "BBBBB/BBBB1/W3B/W4/WWWWW w";
    let (r, json) = ask(addr, far);
    assert_eq!(r.status, 200, "{json}");
    assert_eq!(json["value"], "unknown");
    assert!(json["source"].is_null() && json["plies"].is_null());
    let moves = json["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| m["value"] == "unknown" && m["source"].is_null()), "{json}");
}

#[test]
fn bad_positions_are_refused_with_a_clear_error() {
    let (_server, addr) =
        oracle_server("oracle-refusals", OracleConfig { per_minute: 0, ..OracleConfig::default() });
    for (query, code, words) in [
        ("position=5/5/2X2/1W3/W4+w", "malformed-position", "not an Alquerque position"),
        ("position=5/5/2B2/1W3/W4", "malformed-position", "not an Alquerque position"),
        ("position=5/5/2B2/1W3+w", "malformed-position", "not an Alquerque position"),
        ("position=%ff%fe", "malformed-position", "UTF-8"),
        ("position=WWWWW/WWWWW/WWW2/5/B4+w", "too-many-pieces", "not an Alquerque position"),
        ("position=5/5/5/1W3/W4+b", "finished-game", "the game is over"),
        ("position=5/5/2B2/1W3/W4+w+50", "finished-game", "the game is over"),
        ("pos=5/5/2B2/1W3/W4+w", "missing-position", "no position"),
        ("", "missing-position", "no position"),
    ] {
        let r = get(addr, &format!("{VALUE_PATH}?{query}"), None);
        assert_eq!(r.status, 400, "{query}");
        assert_eq!(r.header("content-type"), Some("application/json"));
        assert_eq!(r.header("access-control-allow-origin"), Some("*"));
        let json: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(json["error"], code, "{query}: {json}");
        assert!(json["message"].as_str().unwrap().contains(words), "{query}: {json}");
    }
    // Only GET and HEAD, as everywhere on the HTTP side.
    let r = crate::http::request(addr, "POST", &format!("{VALUE_PATH}?position=5/5/2B2/1W3/W4+w"), "");
    assert_eq!(r.status, 405);
    // A server without the oracle does not serve the path.
    let plain = spawn(ServerConfig::local(data_dir("oracle-off")));
    let r = get(plain.http_addr().unwrap(), &format!("{VALUE_PATH}?position=5/5/2B2/1W3/W4+w"), None);
    assert_eq!(r.status, 404);
}

#[test]
fn a_flood_from_one_address_hits_the_limit() {
    let per_minute = 12;
    let mut config = ServerConfig::local(data_dir("oracle-flood"));
    config.oracle = Some(OracleConfig { per_minute, ..OracleConfig::default() });
    config.metrics = Some(SocketAddr::from(([127, 0, 0, 1], 0)));
    let server = spawn(config);
    let addr = server.http_addr().unwrap();
    let mut statuses = Vec::new();
    for i in 0..(per_minute + 8) {
        // Cached or not, malformed or not, every request counts.
        let path = if i % 2 == 0 { "position=5/5/2B2/1W3/W4+w" } else { "position=nonsense" };
        let r = get(addr, &format!("{VALUE_PATH}?{path}"), None);
        if r.status == 429 {
            let wait: u64 = r.header("retry-after").expect("Retry-After").parse().unwrap();
            assert!((1..=60).contains(&wait), "{wait}");
            let json: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
            assert_eq!(json["error"], "rate-limited");
        }
        statuses.push(r.status);
    }
    let served = statuses.iter().filter(|&&s| s != 429).count();
    // The bucket refills at 12 a minute: at most one more while the loop runs.
    assert!((per_minute as usize..=per_minute as usize + 1).contains(&served), "{statuses:?}");
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    // The metrics count them: one answer computed, the same from the cache, the malformed
    // refused, the rest limited.
    if cfg!(feature = "metrics") {
        let text = String::from_utf8(get(server.metrics_addr().unwrap(), "/metrics", None).body).unwrap();
        let count = |outcome: &str| {
            text.lines()
                .find_map(|l| {
                    l.strip_prefix(&format!("ludus_oracle_requests_total{{outcome=\"{outcome}\"}} "))
                })
                .map_or(0, |n| n.parse::<usize>().unwrap())
        };
        let twos = statuses.iter().filter(|&&s| s == 200).count();
        assert_eq!(count("computed"), 1, "{text}");
        assert_eq!(count("cached"), twos - 1, "{text}");
        assert_eq!(count("refused"), statuses.iter().filter(|&&s| s == 400).count(), "{text}");
        assert_eq!(count("rate_limited"), statuses.len() - served, "{text}");
        assert!(text.contains("ludus_oracle_compute_seconds_count 1"), "{text}");
    }
}

fn start_error(tables: &Path) -> String {
    let mut config = ServerConfig::local(data_dir("oracle-start").join("data"));
    config.oracle = Some(OracleConfig { tables: Some(tables.to_path_buf()), ..OracleConfig::default() });
    match Server::bind(config) {
        Err(e @ ServerError::Oracle(_)) => e.to_string(),
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("the server started"),
    }
}

#[test]
fn missing_or_damaged_tables_stop_the_server_at_start() {
    let (dir, _tb) = build_tables("oracle-damaged");
    let (tb, held) = open_tables(&dir, u64::MAX).unwrap();
    assert_eq!((held.max_pieces, held.files, held.streamed), (PIECES, 10, 0));
    assert_eq!(held.in_memory, 1_473_621, "the 5-piece tables' bytes");
    drop(tb);
    // Streamed: the same files, none held.
    let (_, streamed) = open_tables(&dir, 0).unwrap();
    assert_eq!((streamed.in_memory, streamed.streamed), (0, held.in_memory));

    let err = start_error(&dir.join("nowhere"));
    assert!(err.contains("cannot read tablebase directory"), "{err}");
    let empty = data_dir("oracle-empty");
    let err = start_error(&empty);
    assert!(err.contains("no tables"), "{err}");

    // A table of fewer pieces missing.
    let file = dir.join("alq-2v2.ltb");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::remove_file(&file).unwrap();
    let err = start_error(&dir);
    assert!(err.contains("missing: alq-2v2.ltb"), "{err}");
    // One byte changed, then a truncated file.
    let mut damaged = bytes.clone();
    damaged[100] ^= 1;
    std::fs::write(&file, &damaged).unwrap();
    let err = start_error(&dir);
    assert!(err.contains("alq-2v2.ltb") || err.contains("checksum"), "{err}");
    std::fs::write(&file, &bytes[..bytes.len() - 1]).unwrap();
    let err = start_error(&dir);
    assert!(err.contains("endgame tables"), "{err}");
    std::fs::write(&file, &bytes).unwrap();
    assert!(open_tables(&dir, u64::MAX).is_ok());
}

/// Answers a second from the tables of `LUDUS_ORACLE_TABLES` (default: tables of up to
/// `LUDUS_ORACLE_PIECES`, 7, built once under the target directory), held in memory and
/// streamed from disk: the service alone (an answer computed and written as JSON, no cache),
/// then over HTTP (a connection a request, two clients), random positions of the most pieces.
#[test]
#[ignore = "a benchmark: cargo test -p ludus-server --test server oracle::answers_a_second -- --ignored --nocapture"]
fn answers_a_second_streamed_and_in_memory() {
    use ludus_ai::oracle::Oracle;
    use ludus_server::oracle::OracleService;
    use std::sync::Arc;
    use std::time::Instant;
    let dir = match std::env::var_os("LUDUS_ORACLE_TABLES") {
        Some(dir) => PathBuf::from(dir),
        None => {
            let pieces = std::env::var("LUDUS_ORACLE_PIECES").ok().and_then(|p| p.parse().ok()).unwrap_or(7);
            let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("oracle-bench-tables-{pieces}"));
            let start = Instant::now();
            tablebase::generate(pieces, Some(&dir), |_| {}).expect("tables built");
            println!(
                "tables of up to {pieces} pieces in {}: {:.1} s",
                dir.display(),
                start.elapsed().as_secs_f64()
            );
            dir
        }
    };
    let answers: usize =
        std::env::var("LUDUS_ORACLE_ANSWERS").ok().and_then(|p| p.parse().ok()).unwrap_or(20_000);
    let (tb, _) = open_tables(&dir, u64::MAX).unwrap();
    let top = tb.max_pieces();
    let materials: Vec<Material> = tb.materials().into_iter().filter(|m| m.total() == top).collect();
    drop(tb);
    let mut rng = SmallRng::seed_from_u64(1);
    let mut queries = Vec::with_capacity(answers);
    while queries.len() < answers {
        let m = materials[rng.random_range(0..materials.len())];
        let (mover, other) = index::unindex(rng.random_range(0..m.positions()), m);
        let pos = index::position(mover, other);
        if pos.outcome(false).is_none() {
            queries.push(format!("position={}", pos.to_string().replace(' ', "+")));
        }
    }
    let mut first: Option<Vec<Arc<str>>> = None;
    for (name, stream_above) in [("in memory", u64::MAX), ("streamed", 0)] {
        let start = Instant::now();
        let (tb, held) = open_tables(&dir, stream_above).unwrap();
        let open = start.elapsed().as_secs_f64();
        let config =
            OracleConfig { cache_entries: 0, per_minute: 0, solve_nodes: 0, ..OracleConfig::default() };
        let service = OracleService::with_oracle(Oracle::new(Some(Arc::new(tb)), None), held, &config);
        let start = Instant::now();
        let got: Vec<Arc<str>> = queries.iter().map(|q| service.answer_query(Some(q)).unwrap()).collect();
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name}: tables of up to {top} pieces, {} files, {} bytes held in memory, {} bytes on disk; \
             opened and checked in {open:.1} s; {answers} answers in {secs:.2} s: {:.0} answers a second \
             ({:.1} µs an answer, one thread)",
            held.files,
            held.in_memory,
            held.streamed,
            answers as f64 / secs,
            secs * 1e6 / answers as f64,
        );
        match &first {
            None => first = Some(got),
            Some(before) => assert!(before == &got, "the streamed tables answer otherwise"),
        }
        // Over HTTP, from two clients.
        let mut config = ServerConfig::local(data_dir("oracle-bench").join("data"));
        config.oracle = Some(OracleConfig {
            tables: Some(dir.clone()),
            stream_above,
            cache_entries: 0,
            per_minute: 0,
            solve_nodes: 0,
            solved: None,
        });
        let server = spawn(config);
        let addr = server.http_addr().unwrap();
        let http_answers = answers.min(4_000);
        let start = Instant::now();
        std::thread::scope(|s| {
            for part in queries[..http_answers].chunks(http_answers / 2) {
                s.spawn(move || {
                    for q in part {
                        assert_eq!(get(addr, &format!("{VALUE_PATH}?{q}"), None).status, 200);
                    }
                });
            }
        });
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name}, over HTTP: {http_answers} answers in {secs:.2} s: {:.0} answers a second",
            http_answers as f64 / secs
        );
    }
}

#[test]
fn a_table_damaged_while_serving_is_an_error_never_a_value() {
    let (dir, _tb) = build_tables("oracle-truncated");
    let config =
        OracleConfig { tables: Some(dir.clone()), stream_above: 0, per_minute: 0, ..OracleConfig::default() };
    let (_server, addr) = oracle_server("oracle-truncated-server", config);
    let pos = "5/1B3/2B2/1W3/W4 w";
    let (r, before) = ask(addr, pos);
    assert_eq!(r.status, 200, "{before}");
    // Streamed from disk: the file cut to its header after the start.
    let file = dir.join("alq-2v2.ltb");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::OpenOptions::new().write(true).open(&file).unwrap().set_len(64).unwrap();
    let other = "5/1B3/3B1/1W3/W4 w";
    let (r, json) = ask(addr, other);
    assert_eq!(r.status, 500, "{json}");
    assert_eq!(json["error"], "tables-unreadable", "{json}");
    // The answer given before the damage is still served (from the cache).
    assert_eq!(ask(addr, pos).1, before);
    std::fs::write(&file, &bytes).unwrap();
}

#[test]
fn positions_of_a_solver_state_file_are_answered_as_proven() {
    use ludus_ai::solve::{SolveStatus, SolvedTable, Solver};
    use std::sync::Arc;
    let (_dir, tb) = build_tables("oracle-solved");
    // A solver's state: 5-piece positions solved with the shipped 4-piece tables as leaves.
    let shipped =
        Arc::new(Tablebase::open(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/tablebases")).unwrap());
    let materials: Vec<Material> = tb.materials().into_iter().filter(|m| m.total() == PIECES).collect();
    let mut rng = SmallRng::seed_from_u64(11);
    let (mut table, mut roots) = (SolvedTable::new(), Vec::new());
    while roots.len() < 20 {
        let m = materials[rng.random_range(0..materials.len())];
        let (mover, other) = index::unindex(rng.random_range(0..m.positions()), m);
        let pos = index::position(mover, other);
        if pos.outcome(false).is_some() {
            continue;
        }
        let mut solver = Solver::new(&pos, Some(shipped.clone()), std::mem::take(&mut table), 100_000);
        let mut status = SolveStatus::Running;
        while status == SolveStatus::Running && solver.stats().nodes < 50_000 {
            status = solver.step(10_000).unwrap();
        }
        if matches!(status, SolveStatus::Solved(_)) {
            roots.push(pos);
        }
        table = solver.into_table();
        table.graph = None;
    }
    let file = data_dir("oracle-solved-state").join("s.state");
    table.save(&file, None).unwrap();
    // No solving of its own: what is known beyond the shipped tables comes from the file.
    let config =
        OracleConfig { solved: Some(file.clone()), per_minute: 0, solve_nodes: 0, ..OracleConfig::default() };
    let (_server, addr) = oracle_server("oracle-solved-server", config);
    let mut from_file = 0;
    for pos in &roots {
        let text = pos.to_string();
        let (r, json) = ask(addr, &text);
        assert_eq!(r.status, 200, "{text}");
        assert_eq!(json["value"], wdl_name(tb.probe(pos).unwrap().wdl), "{text}: {json}");
        assert!(json["source"] == "solver" || json["source"] == "tables", "{text}: {json}");
        from_file += usize::from(json["source"] == "solver");
        for e in json["moves"].as_array().unwrap() {
            if e["value"] != "unknown" {
                let mv = pos.parse_move(e["move"].as_str().unwrap()).unwrap();
                let want = tb.probe(&pos.play_unchecked(&mv)).unwrap().before_move();
                assert_eq!(e["value"], wdl_name(want.wdl), "{text}: {e}");
            }
        }
    }
    assert!(from_file >= 10, "{from_file} of {} from the file", roots.len());
    // A damaged state file stops the server at start.
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 20;
    bytes[last] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    let mut config = ServerConfig::local(data_dir("oracle-solved-bad").join("data"));
    config.oracle = Some(OracleConfig { solved: Some(file), ..OracleConfig::default() });
    match Server::bind(config) {
        Err(e @ ServerError::Oracle(_)) => assert!(e.to_string().contains("--solved"), "{e}"),
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("the server started"),
    }
}
