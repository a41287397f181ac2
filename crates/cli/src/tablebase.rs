//! `ludus-cli tablebase`: build the Alquerque endgame tables, probe a position, time the
//! tables in memory and streamed from disk, and replay played games through the tables (where
//! each first reached them, and who then made a move they call a mistake; `arena --tablebase`
//! prints the same for its own games).

use crate::args::thousands;
use crate::error::CliError;
use ludus_ai::tablebase::index::{self, Material};
use ludus_ai::tablebase::{self, Tablebase, Wdl};
use ludus_ai::tune::result_for;
use ludus_rules::alquerque::Position;
use ludus_rules::{Game, GamePosition, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::time::Instant;

/// The largest piece count `build` accepts: the generator's own limit. On a 2-core machine 9
/// pieces take about 9 minutes and 1.2 GB of files, 10 about 41 minutes and 4.2 GB (the
/// results page has the measured figures).
pub const MAX_BUILD_PIECES: u32 = tablebase::MAX_GENERATE;

fn default_dir() -> PathBuf {
    PathBuf::from("tablebases")
}

#[derive(clap::Args, Debug)]
pub struct TablebaseArgs {
    #[command(subcommand)]
    command: TablebaseCommand,
}

#[derive(clap::Subcommand, Debug)]
enum TablebaseCommand {
    /// Builds the tables of every material of up to N pieces.
    Build {
        /// The most pieces on the board, 2 to 10
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..=i64::from(MAX_BUILD_PIECES)))]
        max_pieces: u32,
        /// Where to write the files (default ./tablebases). Tables already there that pass
        /// their checks are used, not built again: a stopped build goes on where it was
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Threads (default: the machine's cores)
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: Option<u32>,
    },
    /// The value of an Alquerque position such as '5/5/2B2/1W3/W4 w', and its best move.
    Probe {
        /// The position
        #[arg(long, value_name = "POS")]
        position: String,
        /// Where the tables are (default ./tablebases)
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Times the tables of the most pieces in DIR: opening and checking them, then probes of
    /// random positions, with the tables in memory and read from disk at each probe (the
    /// first way holds them all in memory: 3 GB for the 10-piece tables).
    Bench {
        /// Where the tables are (default ./tablebases)
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Probes of each kind
        #[arg(long, value_name = "N", default_value_t = 1_000_000, value_parser = clap::value_parser!(u32).range(1..=100_000_000))]
        probes: u32,
        /// Seed of the random positions
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Replays the games of `arena alquerque --moves` outputs through the tables: the value
    /// for player A where each game first reached them, and who then went wrong.
    Replay {
        /// `arena alquerque --moves` outputs
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// Where the tables are (default ./tablebases)
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

pub fn run(args: TablebaseArgs) -> Result<(), CliError> {
    match args.command {
        TablebaseCommand::Build { max_pieces, out, threads } => {
            build(max_pieces, out.unwrap_or_else(default_dir), threads)
        }
        TablebaseCommand::Probe { position, dir } => probe(&position, dir.unwrap_or_else(default_dir)),
        TablebaseCommand::Replay { files, dir } => replay(&files, dir.unwrap_or_else(default_dir)),
        TablebaseCommand::Bench { dir, probes, seed } => bench(dir.unwrap_or_else(default_dir), probes, seed),
    }
}

fn bench(dir: PathBuf, probes: u32, seed: u64) -> Result<(), CliError> {
    let open = |stream_above: u64| Tablebase::open(&dir).map(|tb| tb.stream_above(stream_above));
    let (memory, streamed) = (open(u64::MAX)?, open(0)?);
    let top = memory.max_pieces();
    let materials: Vec<Material> = memory.materials().into_iter().filter(|m| m.total() == top).collect();
    if materials.is_empty() {
        return Err(CliError::Failed(format!("no tables in {}", dir.display())));
    }
    println!(
        "tables of {top} pieces in {}: {}",
        dir.display(),
        materials.iter().map(Material::to_string).collect::<Vec<_>>().join(" ")
    );
    for (name, tb) in [("in memory", &memory), ("streamed", &streamed)] {
        let start = Instant::now();
        let mut bytes = 0;
        for &m in &materials {
            bytes += tb.table(m)?.map_or(0, |t| t.stats().bytes);
        }
        let secs = start.elapsed().as_secs_f64();
        println!("open and check, {name}: {} bytes in {secs:.1} s", thousands(bytes));
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    let positions: Vec<Position> = (0..probes)
        .map(|_| {
            let m = materials[rng.random_range(0..materials.len())];
            let (mover, other) = index::unindex(rng.random_range(0..m.positions()), m);
            index::position(mover, other)
        })
        .collect();
    let mut values = Vec::with_capacity(positions.len());
    for (name, tb) in [("in memory", &memory), ("streamed", &streamed)] {
        let start = Instant::now();
        let mut got = Vec::with_capacity(positions.len());
        for pos in &positions {
            got.push(tb.try_probe(pos)?);
        }
        let nanos = start.elapsed().as_nanos() as f64 / f64::from(probes);
        println!(
            "{} probes of random positions, {name}: {nanos:.0} ns a probe",
            thousands(u64::from(probes))
        );
        if values.is_empty() {
            values = got;
        } else if values != got {
            return Err(CliError::Failed("the streamed tables disagree with the tables in memory".into()));
        }
    }
    Ok(())
}

fn replay(files: &[PathBuf], dir: PathBuf) -> Result<(), CliError> {
    let records = crate::records::read_files(files)?;
    let tb = Tablebase::open(&dir)?;
    let mut traces = Vec::with_capacity(records.len());
    for r in &records {
        let mut game = Game::new(Position::start());
        for mv in &r.moves {
            game.play_str(mv).map_err(|e| CliError::bad_move(None, mv)(e).at(&r.at))?;
        }
        let a_side = if r.a_first { Side::First } else { Side::Second };
        let score_a = game.outcome().map_or(0.5, |o| result_for(&o, a_side));
        traces.push((TableTrace::of(game.positions(), &tb, a_side), score_a));
    }
    println!("{} games, tables of up to {} pieces", traces.len(), tb.max_pieces());
    println!("{}", tables_summary(&traces));
    Ok(())
}

fn build(n: u32, dir: PathBuf, threads: Option<u32>) -> Result<(), CliError> {
    let threads =
        threads.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |t| t as usize);
    println!(
        "{:<12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>9} {:>13}",
        "file", "positions", "wins", "draws", "losses", "longest", "time", "bytes"
    );
    let start = Instant::now();
    let (mut positions, mut bytes) = (0u64, 0u64);
    tablebase::generate_with_threads(n, Some(&dir), threads, |g| {
        let s = &g.stats;
        positions += s.positions;
        bytes += s.bytes;
        let secs = g.millis as f64 / 1000.0;
        let time = match (g.reused, g.paired_with) {
            (true, _) => format!("{secs:.2} s (kept, checked)"),
            (false, Some(m)) => format!("{secs:.2} s (with {m})"),
            (false, None) => format!("{secs:.2} s"),
        };
        println!(
            "{:<12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>9} {:>13}",
            s.material.file_name(),
            thousands(s.positions),
            thousands(s.wins),
            thousands(s.draws),
            thousands(s.losses),
            s.max_plies,
            time,
            thousands(s.bytes)
        );
    })?;
    println!(
        "total: {} positions, {} bytes in {}, {:.1} s",
        thousands(positions),
        thousands(bytes),
        dir.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn probe(s: &str, dir: PathBuf) -> Result<(), CliError> {
    let pos = Position::parse(s).map_err(CliError::position(s))?;
    let tb = Tablebase::open(&dir)?;
    let side = pos.side_to_move();
    let Some(value) = tb.try_probe(&pos)? else {
        let m = pos.material();
        return Err(CliError::Failed(format!(
            "not covered: no table for {} White and {} Black pieces in {} (it has up to {} pieces)",
            m[0],
            m[1],
            dir.display(),
            tb.max_pieces()
        )));
    };
    let mut line = value.describe(side);
    if let Some(outcome) = pos.outcome(false) {
        line.push_str(&format!(": the game is over ({outcome})"));
    } else {
        // A corrupt table of a smaller material shows here.
        let values = tb.move_values(&pos);
        for m in pos.legal_moves() {
            tb.try_probe(&pos.play_unchecked(&m))?;
        }
        match values.as_deref().and_then(tablebase::best_of) {
            Some((mv, _)) => {
                let what = if value.wdl == Wdl::Draw { "a drawing move" } else { "best move" };
                line.push_str(&format!(", {what} {}", pos.move_to_string(&mv)));
            }
            None => line.push_str(" (the tables after a move are missing)"),
        }
    }
    if value.wdl != Wdl::Draw && !value.holds_with_clock(pos.clock()) {
        line.push_str(&format!(" (but the no-capture counter, at {}, may reach 50 first)", pos.clock()));
    }
    println!("{line}");
    Ok(())
}

/// An Alquerque game as the endgame tables see it (they ignore the no-capture counter and
/// repetitions, so a "mistake" here may be a move the counter made safe).
#[derive(Clone, Copy, Debug, Default)]
pub struct TableTrace {
    /// The tables' value for A of the first position they cover (none: never reached).
    first: Option<Wdl>,
    /// Whether A made a move that worsened its value (a win given up, a draw turned to a loss).
    a_erred: bool,
    /// Whether B did.
    b_erred: bool,
}

impl TableTrace {
    /// Follows a game's `positions` through the tables `tb`, A playing `a_side`.
    pub fn of(positions: &[Position], tb: &Tablebase, a_side: Side) -> TableTrace {
        let mut trace = TableTrace::default();
        let mut last: Option<Wdl> = None;
        for pos in positions {
            let [w, b] = pos.material();
            if w + b > tb.max_pieces() {
                continue;
            }
            let Some(p) = tb.probe(pos) else { continue };
            let for_a = if pos.side_to_move() == a_side { p.wdl } else { p.wdl.negate() };
            if let Some(before) = last {
                // The side that just moved is the one not to move now.
                let worse = rank(for_a) < rank(before);
                let better = rank(for_a) > rank(before);
                if worse && pos.side_to_move() != a_side {
                    trace.a_erred = true;
                }
                if better && pos.side_to_move() == a_side {
                    trace.b_erred = true;
                }
            }
            trace.first.get_or_insert(for_a);
            last = Some(for_a);
        }
        trace
    }
}

/// Loss 0, draw 1, win 2.
fn rank(w: Wdl) -> u8 {
    match w {
        Wdl::Loss => 0,
        Wdl::Draw => 1,
        Wdl::Win => 2,
    }
}

/// What the endgame tables saw: A's value where each game first reached them, how the drawn
/// entries ended, and who made a move the tables call a mistake.
pub fn tables_summary(traces: &[(TableTrace, f64)]) -> String {
    let count = |f: &dyn Fn(&(TableTrace, f64)) -> bool| traces.iter().filter(|t| f(t)).count();
    let first = |w: Wdl| count(&|t| t.0.first == Some(w));
    let drawn_won = count(&|t| t.0.first == Some(Wdl::Draw) && t.1 == 1.0);
    let drawn_lost = count(&|t| t.0.first == Some(Wdl::Draw) && t.1 == 0.0);
    format!(
        "tables: first reached with A winning {}, drawn {} (then A won {drawn_won}, lost {drawn_lost}), A losing {}, never {}; games with a mistake inside the tables by A {}, by B {}",
        first(Wdl::Win),
        first(Wdl::Draw),
        first(Wdl::Loss),
        count(&|t| t.0.first.is_none()),
        count(&|t| t.0.a_erred),
        count(&|t| t.0.b_erred),
    )
}
