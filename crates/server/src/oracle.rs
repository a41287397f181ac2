//! The Alquerque oracle over HTTP: `GET /api/alquerque/value?position=...` answers, for an
//! Alquerque position, its exact value for the side to move and that of each of its legal moves
//! ([`ludus_ai::oracle`]: the rules, the endgame tables, the book of proven values, a short
//! solve), "unknown" where none of them knows.
//!
//! - **Tables.** `--tables DIR` (files of `ludus-cli tablebase build`); without it, the tables
//!   of up to 4 pieces the game ships. They are checked at start, every file whole: a material
//!   missing below the largest, an unreadable or corrupt file, is an error and the server does
//!   not start. Files above `--tables-stream-above` MiB stay on disk, each probe reading the
//!   bytes it needs; the memory held is logged.
//! - **Book.** The book the game ships (`assets/books/alquerque.lbk`), checked at start.
//! - **Solved positions.** `--solved FILE`: a solver's state file (`ludus-cli solve --state`),
//!   checked at start; the positions it proved are answered.
//! - **Answers** are JSON, public (`Access-Control-Allow-Origin: *`, cacheable an hour), and
//!   kept in a least-recently-used cache of `--oracle-cache` answers (the counter is ignored:
//!   one answer serves a position whatever its counter).
//! - **Limits.** Every request takes one from its address's bucket (IPv4 address, IPv6 /64, as
//!   every per-address limit of the server: [`NewPlayerLimit`]) of `--oracle-per-minute`
//!   (`429` and `Retry-After` beyond); the connections are those of the HTTP listener, bounded
//!   per address by [`crate::http_limits`]. Answers not in the cache are computed on tokio's
//!   blocking threads, at most half as many at once as the machine has cores (one on two cores),
//!   so that however many addresses ask, the games keep the rest.
//! - **Refusals** are `400` with JSON `{"error": CODE, "message": TEXT}`: `missing-position`,
//!   `malformed-position`, `too-many-pieces` (more than 12 of a side), `finished-game`.

use crate::addresses::address_key;
use crate::http_limits::Peer;
use crate::metrics::Metrics;
use crate::tokens::NewPlayerLimit;
use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use hashlink::LruCache;
use ludus_ai::oracle::{Answer, Known, Oracle, OracleError, Source};
use ludus_ai::solve::book::Book;
use ludus_ai::solve::{SolvedTable, key, without_counter};
use ludus_ai::tablebase::{Material, Tablebase, Wdl};
use ludus_protocol::values::{MoveValueView, PositionValueView, ValueSource, ValueWord};
use ludus_rules::alquerque::Position;
use ludus_rules::{GamePosition, Problem};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;
use tokio::sync::Semaphore;

/// The path of the value service.
pub use ludus_protocol::values::VALUE_PATH;
/// Answers cached by default (about 1 KB each: 16 MB at most).
pub const DEFAULT_CACHE_ENTRIES: usize = 16_384;
/// Requests a minute per address by default (a player stepping through a game asks one a
/// move; an explorer a few a second).
pub const DEFAULT_PER_MINUTE: u32 = 300;
/// Nodes of solving for a question the tables and the book leave open, by default (a few
/// milliseconds).
pub const DEFAULT_SOLVE_NODES: u64 = 20_000;
/// Tables larger than this many MiB are streamed from disk by default (as
/// [`ludus_ai::tablebase::STREAM_ABOVE`]).
pub const DEFAULT_STREAM_ABOVE_MIB: u64 = ludus_ai::tablebase::STREAM_ABOVE >> 20;

const SHIPPED_BOOK: &[u8] = include_bytes!("../../../assets/books/alquerque.lbk");
const SHIPPED_TABLES: [&[u8]; 6] = [
    include_bytes!("../../../assets/tablebases/alq-1v1.ltb"),
    include_bytes!("../../../assets/tablebases/alq-1v2.ltb"),
    include_bytes!("../../../assets/tablebases/alq-2v1.ltb"),
    include_bytes!("../../../assets/tablebases/alq-1v3.ltb"),
    include_bytes!("../../../assets/tablebases/alq-3v1.ltb"),
    include_bytes!("../../../assets/tablebases/alq-2v2.ltb"),
];

/// How to run the oracle.
#[derive(Clone, Debug)]
pub struct OracleConfig {
    /// The endgame tables' directory (`None`: the shipped tables of up to 4 pieces).
    pub tables: Option<PathBuf>,
    /// Files larger than this many bytes stay on disk.
    pub stream_above: u64,
    /// Answers kept in the cache (0: none).
    pub cache_entries: usize,
    /// Requests a minute per address (0: no limit).
    pub per_minute: u32,
    /// Nodes of solving a question may take (0: no solving).
    pub solve_nodes: u64,
    /// A solver's state file (`ludus-cli solve --state`): the positions it proved are answered.
    pub solved: Option<PathBuf>,
}

impl Default for OracleConfig {
    fn default() -> OracleConfig {
        OracleConfig {
            tables: None,
            stream_above: DEFAULT_STREAM_ABOVE_MIB << 20,
            cache_entries: DEFAULT_CACHE_ENTRIES,
            per_minute: DEFAULT_PER_MINUTE,
            solve_nodes: DEFAULT_SOLVE_NODES,
            solved: None,
        }
    }
}

/// The oracle's options of `ludus-server`.
#[derive(clap::Args, Clone, Debug)]
pub struct OracleArgs {
    /// Serve GET /api/alquerque/value with the endgame tables of DIR (`ludus-cli tablebase
    /// build`), every file checked at start [default: the shipped tables of up to 4 pieces]
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Tables larger than this stay on disk, each probe reading the bytes it needs (0: all of
    /// them; the 10-piece tables take 3 GB in memory)
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_STREAM_ABOVE_MIB)]
    tables_stream_above: u64,
    /// Answers of /api/alquerque/value kept in memory (about 1 KB each)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_CACHE_ENTRIES as u64, value_parser = clap::value_parser!(u64).range(0..=16_777_216))]
    oracle_cache: u64,
    /// Requests of /api/alquerque/value a minute per address (0: no limit)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PER_MINUTE)]
    oracle_per_minute: u32,
    /// Nodes of solving for a position the tables and the book leave open (0: none; at most
    /// 1,000,000, about a second and 100 MB for each answer computed at once)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SOLVE_NODES, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    oracle_solve_nodes: u64,
    /// Answer the positions proven in this solver state file too (`ludus-cli solve --state`),
    /// checked at start
    #[arg(long, value_name = "FILE")]
    solved: Option<PathBuf>,
    /// Do not serve /api/alquerque/value
    #[arg(long, conflicts_with_all = ["tables", "solved"])]
    no_oracle: bool,
}

impl OracleArgs {
    /// The configuration (`None` with `--no-oracle`).
    pub fn config(&self) -> Option<OracleConfig> {
        (!self.no_oracle).then(|| OracleConfig {
            tables: self.tables.clone(),
            stream_above: self.tables_stream_above.saturating_mul(1 << 20),
            cache_entries: usize::try_from(self.oracle_cache).unwrap_or(usize::MAX),
            per_minute: self.oracle_per_minute,
            solve_nodes: self.oracle_solve_nodes,
            solved: self.solved.clone(),
        })
    }
}

/// Why the oracle could not start.
#[derive(Debug, thiserror::Error)]
pub enum OracleStartError {
    /// The tables are missing, incomplete, unreadable or corrupt.
    #[error("endgame tables {dir}: {message}")]
    Tables { dir: String, message: String },
    /// The shipped book is corrupt (a broken build).
    #[error("the book of proven values: {0}")]
    Book(String),
    /// The solver state file is unreadable or corrupt.
    #[error("solved positions (--solved): {0}")]
    Solved(String),
}

/// What the tables hold, for the log and the benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TablesHeld {
    /// The most pieces of a table.
    pub max_pieces: u32,
    /// Files.
    pub files: usize,
    /// Bytes of the tables held in memory.
    pub in_memory: u64,
    /// Bytes of the tables left on disk.
    pub streamed: u64,
}

/// Opens the tables of `dir` (files above `stream_above` bytes left on disk) and checks them
/// all: every material of up to the largest table's piece count must be there, and every file
/// must pass its checks.
pub fn open_tables(
    dir: &std::path::Path,
    stream_above: u64,
) -> Result<(Tablebase, TablesHeld), OracleStartError> {
    let bad = |message: String| OracleStartError::Tables { dir: dir.display().to_string(), message };
    let tb = Tablebase::open(dir).map_err(|e| bad(e.to_string()))?.stream_above(stream_above);
    check_tables(tb).map_err(bad)
}

fn check_tables(tb: Tablebase) -> Result<(Tablebase, TablesHeld), String> {
    let max_pieces = tb.max_pieces();
    if max_pieces == 0 {
        return Err("no tables (alq-<m>v<o>.ltb files) in the directory".into());
    }
    let present = tb.materials();
    let mut held = TablesHeld { max_pieces, files: 0, in_memory: 0, streamed: 0 };
    let mut missing = Vec::new();
    for total in 2..=max_pieces {
        for mover in 1..total {
            let Some(m) = Material::new(mover, total - mover) else { continue };
            if !present.contains(&m) {
                missing.push(m.file_name());
                continue;
            }
            let table = tb.table(m).map_err(|e| e.to_string())?.ok_or_else(|| format!("no table {m}"))?;
            held.files += 1;
            if table.is_streamed() {
                held.streamed += table.stats().bytes;
            } else {
                held.in_memory += table.stats().bytes;
            }
        }
    }
    if !missing.is_empty() {
        return Err(format!(
            "tables of up to {max_pieces} pieces, but {} missing: {}",
            if missing.len() == 1 { "this one is" } else { "these are" },
            missing.join(" ")
        ));
    }
    Ok((tb, held))
}

/// A refusal of the value service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The HTTP status.
    pub status: u16,
    /// A stable code for clients (`malformed-position`, ...).
    pub code: &'static str,
    /// What is wrong, in English.
    pub message: String,
}

impl Refusal {
    fn bad(code: &'static str, message: String) -> Refusal {
        Refusal { status: 400, code, message }
    }
}

/// The value service: the oracle, its cache and its limits.
pub struct OracleService {
    oracle: Oracle,
    held: TablesHeld,
    cache: Option<Mutex<LruCache<u64, Arc<str>>>>,
    limit: NewPlayerLimit,
    busy: Semaphore,
}

impl std::fmt::Debug for OracleService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OracleService").field("held", &self.held).finish_non_exhaustive()
    }
}

impl OracleService {
    /// Loads and checks the tables and the book (see the module documentation) and logs what
    /// they hold.
    pub fn start(config: &OracleConfig) -> Result<OracleService, OracleStartError> {
        let started = Instant::now();
        let (tb, held) = match &config.tables {
            Some(dir) => open_tables(dir, config.stream_above)?,
            None => {
                let bad = |message: String| OracleStartError::Tables { dir: "(shipped)".into(), message };
                let tb = Tablebase::from_bytes(SHIPPED_TABLES).map_err(|e| bad(e.to_string()))?;
                check_tables(tb).map_err(bad)?
            }
        };
        let book = Book::from_bytes(SHIPPED_BOOK, "the shipped book")
            .map_err(|e| OracleStartError::Book(e.to_string()))?;
        let solved = match &config.solved {
            Some(path) => {
                let table = SolvedTable::load(path).map_err(|e| OracleStartError::Solved(e.to_string()))?;
                let counts = table.counts();
                tracing::info!(
                    "Alquerque oracle: {} positions of {} solved ({} proven, {} disproven for one side), {} MiB",
                    counts.entries,
                    path.display(),
                    counts.proven,
                    counts.disproven,
                    table.memory_bytes().div_ceil(1 << 20),
                );
                Some(Arc::new(table))
            }
            None => None,
        };
        tracing::info!(
            "Alquerque oracle: tables of up to {} pieces ({}; {} files checked in {:.1} s), {} MiB held \
             in memory, {} MiB read from disk at each probe; book of {} proven positions; {} answers \
             cached; {} nodes of solving a question; {} requests a minute per address",
            held.max_pieces,
            config.tables.as_ref().map_or_else(|| "shipped".to_string(), |d| d.display().to_string()),
            held.files,
            started.elapsed().as_secs_f64(),
            held.in_memory.div_ceil(1 << 20),
            held.streamed.div_ceil(1 << 20),
            book.len(),
            config.cache_entries,
            config.solve_nodes,
            config.per_minute,
        );
        let oracle = Oracle::new(Some(Arc::new(tb)), Some(Arc::new(book)))
            .with_solved(solved)
            .with_solve_nodes(config.solve_nodes);
        Ok(OracleService::with_oracle(oracle, held, config))
    }

    /// A service around `oracle` (tests and benchmarks give their own tables).
    pub fn with_oracle(oracle: Oracle, held: TablesHeld, config: &OracleConfig) -> OracleService {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let at_once = (cores / 2).max(1);
        OracleService {
            oracle,
            held,
            cache: (config.cache_entries > 0).then(|| Mutex::new(LruCache::new(config.cache_entries))),
            limit: NewPlayerLimit::new(config.per_minute),
            busy: Semaphore::new(at_once),
        }
    }

    /// What the tables hold.
    pub fn held(&self) -> TablesHeld {
        self.held
    }

    /// The answer to a request's query string (`position=...`), as JSON, from the cache or
    /// computed now (on the caller's thread).
    pub fn answer_query(&self, query: Option<&str>) -> Result<Arc<str>, Refusal> {
        let pos = position_of_query(query)?;
        if let Some(hit) = self.cached(&pos) {
            return Ok(hit);
        }
        self.compute(&pos)
    }

    fn cached(&self, pos: &Position) -> Option<Arc<str>> {
        let cache = self.cache.as_ref()?;
        cache.lock().unwrap_or_else(PoisonError::into_inner).get(&key(&without_counter(pos))).cloned()
    }

    fn compute(&self, pos: &Position) -> Result<Arc<str>, Refusal> {
        let answer = self.oracle.answer(pos).map_err(|e| match e {
            OracleError::Finished(_) => Refusal::bad("finished-game", e.to_string()),
            OracleError::Tables(_) => {
                // Logged once an interval however often it is asked (a file removed or damaged).
                crate::faults::note_detail("Alquerque oracle: answer refused", &e.to_string());
                Refusal { status: 500, code: "tables-unreadable", message: e.to_string() }
            }
        })?;
        let json: Arc<str> = render(pos, &answer, self.held.max_pieces).into();
        if let Some(cache) = &self.cache {
            cache
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(key(&without_counter(pos)), json.clone());
        }
        Ok(json)
    }

    /// The routes of the service, counting its requests in `metrics`.
    pub fn router(self: Arc<Self>, metrics: Metrics) -> Router {
        Router::new().route(VALUE_PATH, get(move |req: Request| value(self.clone(), metrics.clone(), req)))
    }
}

/// The position of a query string `position=...` (form-encoded: `+` or `%20` for a space).
pub fn position_of_query(query: Option<&str>) -> Result<Position, Refusal> {
    let missing = || {
        Refusal::bad(
            "missing-position",
            "no position: ask /api/alquerque/value?position=<board> <side> (for instance \
             position=5/5/2B2/1W3/W4+w)"
                .into(),
        )
    };
    let raw =
        query.unwrap_or("").split('&').find_map(|pair| pair.strip_prefix("position=")).ok_or_else(missing)?;
    let spaced = raw.replace('+', " ");
    let text = percent_encoding::percent_decode_str(&spaced)
        .decode_utf8()
        .map_err(|_| Refusal::bad("malformed-position", "the position is not UTF-8 text".into()))?;
    if text.trim().is_empty() {
        return Err(missing());
    }
    let pos = Position::parse(text.trim()).map_err(|e| {
        let code = if matches!(e.problem, Problem::TooManyPieces { .. }) {
            "too-many-pieces"
        } else {
            "malformed-position"
        };
        Refusal::bad(code, format!("'{}' is not an Alquerque position: {e}", text.trim()))
    })?;
    if let Some(outcome) = pos.outcome(false) {
        return Err(Refusal::bad("finished-game", format!("the game is over in this position ({outcome})")));
    }
    Ok(pos)
}

fn wdl_word(v: Option<Known>) -> ValueWord {
    match v.map(|k| k.wdl) {
        Some(Wdl::Win) => ValueWord::Win,
        Some(Wdl::Draw) => ValueWord::Draw,
        Some(Wdl::Loss) => ValueWord::Loss,
        None => ValueWord::Unknown,
    }
}

fn source_word(v: Option<Known>) -> Option<ValueSource> {
    v.map(|k| match k.source {
        Source::Rules => ValueSource::Rules,
        Source::Tables => ValueSource::Tables,
        Source::Book => ValueSource::Book,
        Source::Solver => ValueSource::Solver,
    })
}

/// The JSON of an answer (see the operator's guide).
fn render(pos: &Position, answer: &Answer, tables_pieces: u32) -> String {
    let [w, b] = pos.material();
    let json = PositionValueView {
        position: without_counter(pos).to_string(),
        pieces: w + b,
        value: wdl_word(answer.value),
        plies: answer.value.and_then(|v| v.plies),
        source: source_word(answer.value),
        moves: answer
            .moves
            .iter()
            .map(|m| MoveValueView {
                mv: pos.move_to_string(&m.mv),
                value: wdl_word(m.value),
                plies: m.value.and_then(|v| v.plies),
                source: source_word(m.value),
            })
            .collect(),
        tables_pieces,
    };
    serde_json::to_string(&json).unwrap_or_else(|_| "{}".into())
}

/// The headers of every answer: public, from any origin.
fn json_response(status: StatusCode, cache: &'static str, body: String) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
            (header::CACHE_CONTROL, cache),
        ],
        body,
    )
        .into_response()
}

fn refusal_response(r: &Refusal) -> Response {
    let body = serde_json::json!({ "error": r.code, "message": r.message }).to_string();
    let status = StatusCode::from_u16(r.status).unwrap_or(StatusCode::BAD_REQUEST);
    json_response(status, "no-store", body)
}

/// `GET /api/alquerque/value`.
async fn value(service: Arc<OracleService>, metrics: Metrics, req: Request) -> Response {
    let Some(Peer(peer)) = req.extensions().get::<Peer>().copied() else {
        return refusal_response(&Refusal {
            status: 500,
            code: "internal",
            message: "no peer address".into(),
        });
    };
    if let Err(wait) = service.limit.take(address_key(&peer), Instant::now()) {
        metrics.oracle_request("rate_limited");
        let secs = wait.as_secs() + 1;
        let mut r = refusal_response(&Refusal {
            status: 429,
            code: "rate-limited",
            message: format!("too many requests from this address: try again in {secs} s"),
        });
        if let Ok(v) = HeaderValue::from_str(&secs.to_string()) {
            r.headers_mut().insert(header::RETRY_AFTER, v);
        }
        return r;
    }
    let pos = match position_of_query(req.uri().query()) {
        Ok(pos) => pos,
        Err(r) => {
            metrics.oracle_request("refused");
            return refusal_response(&r);
        }
    };
    const PUBLIC: &str = "public, max-age=3600";
    if let Some(hit) = service.cached(&pos) {
        metrics.oracle_request("cached");
        return json_response(StatusCode::OK, PUBLIC, hit.to_string());
    }
    let Ok(_permit) = service.busy.acquire().await else {
        return refusal_response(&Refusal { status: 503, code: "stopping", message: "stopping".into() });
    };
    let worker = service.clone();
    let started = Instant::now();
    let computed = tokio::task::spawn_blocking(move || worker.compute(&pos)).await;
    metrics.oracle_compute(started.elapsed().as_secs_f64());
    match computed {
        Ok(Ok(json)) => {
            metrics.oracle_request("computed");
            json_response(StatusCode::OK, PUBLIC, json.to_string())
        }
        Ok(Err(r)) => {
            metrics.oracle_request("refused");
            refusal_response(&r)
        }
        Err(_) => {
            refusal_response(&Refusal { status: 500, code: "internal", message: "internal error".into() })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_read_or_refused_clearly() {
        let pos = position_of_query(Some("position=5/5/2B2/1W3/W4+w")).unwrap();
        assert_eq!(pos.to_string(), "5/5/2B2/1W3/W4 w");
        assert!(position_of_query(Some("x=1&position=5%2F5%2F2B2%2F1W3%2FW4%20w")).is_ok());
        let code = |q: Option<&str>| position_of_query(q).unwrap_err().code;
        assert_eq!(code(None), "missing-position");
        assert_eq!(code(Some("position=")), "missing-position");
        assert_eq!(code(Some("position=5/5/2B2/1W3/W4")), "malformed-position");
        assert_eq!(code(Some("position=5/5/2X2/1W3/W4+w")), "malformed-position");
        assert_eq!(code(Some("position=%ff")), "malformed-position");
        assert_eq!(code(Some("position=WWWWW/WWWWW/WWW2/5/B4+w")), "too-many-pieces");
        assert_eq!(code(Some("position=5/5/5/1W3/W4+b")), "finished-game");
        // The no-capture counter at its limit: a draw, over.
        assert_eq!(code(Some("position=5/5/2B2/1W3/W4+w+50")), "finished-game");
    }

    #[test]
    fn options() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            oracle: OracleArgs,
        }
        let parse = |s: &str| {
            Cli::try_parse_from(std::iter::once("ludus-server").chain(s.split_whitespace()))
                .map(|c| c.oracle.config())
        };
        let c = parse("").unwrap().expect("on by default");
        assert_eq!(
            (c.tables, c.cache_entries, c.per_minute),
            (None, DEFAULT_CACHE_ENTRIES, DEFAULT_PER_MINUTE)
        );
        assert_eq!((c.solve_nodes, c.stream_above), (DEFAULT_SOLVE_NODES, 256 << 20));
        let c = parse("--tables tb8 --tables-stream-above 0 --oracle-cache 0 --oracle-per-minute 0")
            .unwrap()
            .unwrap();
        assert_eq!(c.tables, Some(PathBuf::from("tb8")));
        assert_eq!((c.stream_above, c.cache_entries, c.per_minute), (0, 0, 0));
        assert!(parse("--no-oracle").unwrap().is_none());
        assert_eq!(parse("--solved s.state").unwrap().unwrap().solved, Some(PathBuf::from("s.state")));
        for bad in [
            "--no-oracle --tables tb8",
            "--no-oracle --solved s",
            "--oracle-solve-nodes 2000000",
            "--oracle-cache -1",
            "--tables",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_shipped_tables_and_book_pass_their_checks() {
        let service = OracleService::start(&OracleConfig::default()).unwrap();
        assert_eq!(service.held().max_pieces, 4);
        assert_eq!(service.held().files, 6);
        let json = service.answer_query(Some("position=5/5/2B2/1W3/W4+w")).unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["value"], "win");
        assert_eq!(v["plies"], 1);
        assert_eq!(v["moves"][0]["move"], "b2xd4");
    }

    #[test]
    fn answers_are_cached_whatever_the_counter_and_the_cache_is_bounded() {
        let config = OracleConfig { cache_entries: 2, ..OracleConfig::default() };
        let service = OracleService::start(&config).unwrap();
        let a = "position=5/5/2B2/1W3/W4+w";
        let first = service.answer_query(Some(a)).unwrap();
        // The same position with another counter: the same answer, from the cache.
        assert!(Arc::ptr_eq(&first, &service.answer_query(Some("position=5/5/2B2/1W3/W4+w+7")).unwrap()));
        service.answer_query(Some("position=5/5/2B2/2W2/W4+w")).unwrap();
        service.answer_query(Some("position=5/5/2B2/3W1/W4+w")).unwrap();
        // Two answers kept: the first one, least recently used, was dropped and is computed again.
        let again = service.answer_query(Some(a)).unwrap();
        assert!(!Arc::ptr_eq(&first, &again));
        assert_eq!(first, again);
        // Without a cache, every answer is computed.
        let uncached =
            OracleService::start(&OracleConfig { cache_entries: 0, ..OracleConfig::default() }).unwrap();
        let one = uncached.answer_query(Some(a)).unwrap();
        assert!(!Arc::ptr_eq(&one, &uncached.answer_query(Some(a)).unwrap()));
    }
}
