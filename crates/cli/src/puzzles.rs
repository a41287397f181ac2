//! `ludus-cli puzzles`: generate tactics puzzles with the engine, and verify a puzzle file.
//!
//! `generate` takes candidate positions from self-play games (and, with `--from-archive`, from
//! recorded games: `arena --moves` outputs, the command line's own game record format; the
//! server's archive is a database this command does not read) and writes the puzzles as JSON
//! (see `ludus_ai::puzzle`). `verify` re-checks every puzzle of a file, independently of the
//! generator, and prints each failure with the puzzle's id.

use crate::args::parse_variant;
use crate::error::CliError;
use ludus_ai::Tablebase;
use ludus_ai::puzzle::{self, generate, verify};
use ludus_rules::{AnyGame, Variant};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(clap::Subcommand, Debug)]
enum PuzzlesCommand {
    /// Makes puzzles from self-play (and recorded) games; the same seed gives the same puzzles.
    Generate {
        /// latrunculi, latrunculi-quick or alquerque
        #[arg(value_name = "GAME", value_parser = parse_variant)]
        variant: Variant,
        /// How many puzzles
        #[arg(long, value_name = "N")]
        count: usize,
        /// The seed of the self-play games
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Write the JSON here (default: standard output)
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Also take positions from recorded games: `arena --moves` outputs
        #[arg(long, value_name = "FILE")]
        from_archive: Vec<PathBuf>,
        /// The Alquerque endgame tables (positions they cover are judged exactly)
        #[arg(long, value_name = "DIR", conflicts_with = "tables")]
        tablebase: Option<PathBuf>,
        /// Builds the Alquerque endgame tables of up to N pieces in memory first (5: half a
        /// second) instead of reading them
        #[arg(long, value_name = "N")]
        tables: Option<u32>,
        /// The deep search's depth (default: the game's, see `ludus_ai::puzzle::generate`)
        #[arg(long, value_name = "D")]
        depth: Option<u32>,
        /// The node limit of each search
        #[arg(long, value_name = "N")]
        nodes: Option<u64>,
        /// The most self-play games
        #[arg(long, value_name = "N")]
        max_games: Option<usize>,
        /// Skip the ratings (every puzzle gets the base rating)
        #[arg(long)]
        no_rating: bool,
        /// Keep puzzles without running the verifier on them (by default a puzzle is kept only
        /// if it passes `verify`, deep and fast)
        #[arg(long)]
        no_verify: bool,
    },
    /// Verifies a puzzle file; prints each failure as `ID: reason`, exits 1 if any.
    Verify {
        /// The JSON file
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Only the quick checks (structure, legality, result, the first move at a shallow depth)
        #[arg(long)]
        fast: bool,
        /// The Alquerque endgame tables (draw puzzles need them)
        #[arg(long, value_name = "DIR", conflicts_with = "tables")]
        tablebase: Option<PathBuf>,
        /// Builds the Alquerque endgame tables of up to N pieces in memory first
        #[arg(long, value_name = "N")]
        tables: Option<u32>,
    },
}

fn open_tables(dir: Option<PathBuf>, build: Option<u32>) -> Result<Option<Arc<Tablebase>>, CliError> {
    if let Some(n) = build {
        return Ok(Some(Arc::new(ludus_ai::tablebase::generate(n, None, |_| {})?)));
    }
    dir.map(|d| Tablebase::open(&d).map(Arc::new).map_err(|e| CliError::from(e).at(d.display()))).transpose()
}

pub fn run(args: PuzzlesArgs) -> Result<(), CliError> {
    match args.command {
        PuzzlesCommand::Generate {
            variant,
            count,
            seed,
            out,
            from_archive,
            tablebase,
            tables,
            depth,
            nodes,
            max_games,
            no_rating,
            no_verify,
        } => {
            let mut cfg = generate::Config::new(variant, count, seed);
            cfg.tablebase = open_tables(tablebase, tables)?;
            if let Some(d) = depth {
                cfg.depth = d.max(2);
                cfg.screen_depth = cfg.screen_depth.min(cfg.depth);
            }
            if let Some(n) = nodes {
                cfg.nodes = n;
            }
            if let Some(n) = max_games {
                cfg.max_games = n;
            }
            cfg.rate = !no_rating;
            let games = archive_games(variant, &from_archive)?;
            let t0 = Instant::now();
            // Every puzzle must pass the verifier, deep and fast, before it is kept.
            let (deep, fast) = (
                verify::Config::deep(variant).with_tablebase(cfg.tablebase.clone()),
                verify::Config::fast(variant).with_tablebase(cfg.tablebase.clone()),
            );
            let check = |p: &puzzle::Puzzle| {
                if no_verify {
                    return true;
                }
                let fails: Vec<String> =
                    verify::verify(p, &fast).into_iter().chain(verify::verify(p, &deep)).collect();
                for f in &fails {
                    tracing::info!("{} refused: {f}", p.fen);
                }
                fails.is_empty()
            };
            let (puzzles, stats) = generate::generate(&cfg, &games, check, |s, p| {
                eprintln!(
                    "{:>4} {} {:<12} {:>4}  games {} positions {} candidates {}  {:.0} s",
                    s.kept,
                    p.id,
                    p.kind.name(),
                    p.rating,
                    s.games,
                    s.positions,
                    s.candidates,
                    t0.elapsed().as_secs_f64()
                );
            });
            let json = puzzle::to_json(&puzzles);
            match &out {
                Some(path) => std::fs::write(path, &json).map_err(CliError::write(path))?,
                None => print!("{json}"),
            }
            let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
            for p in &puzzles {
                *kinds.entry(p.kind.name()).or_default() += 1;
            }
            let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
            eprintln!(
                "{} puzzles ({}) from {} games, {} positions, {} candidates, {} refused by the verifier, in {:.1} s; {} bytes",
                puzzles.len(),
                kinds.join(", "),
                stats.games,
                stats.positions,
                stats.candidates,
                stats.refused,
                t0.elapsed().as_secs_f64(),
                json.len()
            );
            if puzzles.len() < count {
                eprintln!("only {} of {count} puzzles: raise --max-games", puzzles.len());
            }
            Ok(())
        }
        PuzzlesCommand::Verify { file, fast, tablebase, tables } => {
            let text = std::fs::read_to_string(&file).map_err(CliError::read(&file))?;
            let puzzles = puzzle::from_json(&text).map_err(|e| CliError::from(e).at(file.display()))?;
            let tb = open_tables(tablebase, tables)?;
            let t0 = Instant::now();
            let mut failed = 0;
            let mut fails = Vec::new();
            let mut ids = std::collections::HashSet::new();
            for p in &puzzles {
                let cfg = if fast { verify::Config::fast(p.game) } else { verify::Config::deep(p.game) };
                let mut f = verify::verify(p, &cfg.with_tablebase(tb.clone()));
                if !ids.insert(p.id.clone()) {
                    f.push("duplicate id".to_string());
                }
                if !f.is_empty() {
                    failed += 1;
                }
                for reason in f {
                    println!("{}: {reason}", p.id);
                    fails.push(reason);
                }
            }
            println!(
                "{} puzzles, {} passed, {failed} failed ({} checks) in {:.1} s",
                puzzles.len(),
                puzzles.len() - failed,
                if fast { "fast" } else { "deep" },
                t0.elapsed().as_secs_f64()
            );
            if failed > 0 {
                return Err(CliError::Failed(format!("{failed} puzzles failed verification")));
            }
            Ok(())
        }
    }
}

/// The games of `arena --moves` outputs, replayed from `variant`'s start (games that do not
/// replay are skipped with a warning).
fn archive_games(variant: Variant, files: &[PathBuf]) -> Result<Vec<AnyGame>, CliError> {
    if files.is_empty() {
        return Ok(Vec::new());
    }
    let mut games = Vec::new();
    for r in crate::records::read_files(files)? {
        let mut game = AnyGame::new(variant);
        match r.moves.iter().try_for_each(|m| game.play_str(m).map(|_| ())) {
            Ok(()) => games.push(game),
            Err(e) => tracing::warn!("{}: skipped, {e}", r.at),
        }
    }
    Ok(games)
}
