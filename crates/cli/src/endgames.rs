//! `ludus-cli endgames`: technique. Hard plays won endings out against Hard (with the game's
//! history from the start position, so repetitions and the no-capture counter count) and the
//! command reports how each ended.
//!
//! - `endgames latrunculi --suite FILE`: the positions of the file (one a line, `#` comments),
//!   the side with more soldiers to win; a success is a win by immobilising the king or taking
//!   the last soldiers within 100 plies (also counted: such wins at any ply, before the
//!   no-capture counter ends the game on material).
//! - `endgames alquerque --tablebase DIR --sample N`: positions drawn at random that the
//!   endgame tables call won within the 50-ply counter; both sides play Hard with the tables, as
//!   in the game; a success is the win, within the counter.

use crate::args::parse_level;
use crate::error::CliError;
use ludus_ai::level::Rng;
use ludus_ai::{AnySearch, Level, Limits, Tablebase, Wdl};
use ludus_rules::alquerque::Position as AlqPosition;
use ludus_rules::{AnyGame, AnyPosition, GamePosition, Outcome, Reason, Side, Variant};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Plies within which a Latrunculi ending must be won by technique.
const LATRUNCULI_PLIES: usize = 100;
/// Plies after which a game is stopped (the rules end every game long before).
const MAX_PLIES: usize = 600;

#[derive(clap::Args, Debug)]
pub struct EndgamesArgs {
    #[command(subcommand)]
    game: Which,
}

#[derive(clap::Subcommand, Debug)]
enum Which {
    /// Plays out the won Latrunculi endings of a suite file (both board sizes).
    Latrunculi {
        /// The suite: one position a line, '#' starts a comment
        #[arg(long, value_name = "FILE")]
        suite: PathBuf,
        /// Added to each game's seed (the searches' variety): another sample of the same suite
        #[arg(long, value_name = "S", default_value_t = 0)]
        seed: u64,
        #[command(flatten)]
        common: Common,
    },
    /// Plays out Alquerque positions the endgame tables call won.
    Alquerque {
        /// The endgame tables
        #[arg(long, value_name = "DIR")]
        tablebase: PathBuf,
        /// How many positions to draw
        #[arg(long, value_name = "N", default_value_t = 100)]
        sample: usize,
        /// Pieces on the board, at most the tables' (default: the tables' largest)
        #[arg(long, value_name = "N")]
        pieces: Option<u32>,
        /// The seed of the sample
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        common: Common,
    },
}

#[derive(clap::Args, Debug)]
struct Common {
    /// Time a move (default: the level's own)
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..))]
    time_ms: Option<u64>,
    /// Nodes a move (instead of, or with, a time)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// The level of both sides
    #[arg(long, value_name = "LEVEL", value_parser = parse_level, default_value = "hard")]
    level: Level,
    /// Games played at once
    #[arg(long, value_name = "K", default_value_t = 2)]
    threads: usize,
    /// Print every game's moves
    #[arg(long)]
    moves: bool,
    /// Tuning: overrides one of the level's parameters for both sides, NAME=VALUE (repeatable;
    /// see `ludus-cli arena --help` for the names)
    #[arg(long = "set", value_name = "NAME=VALUE")]
    sets: Vec<String>,
}

struct Played {
    start: String,
    winner_expected: Side,
    outcome: Option<Outcome>,
    plies: usize,
    moves: Vec<String>,
}

pub fn run(args: EndgamesArgs) -> Result<(), CliError> {
    match args.game {
        Which::Latrunculi { suite, seed, common } => latrunculi(&suite, seed, &common),
        Which::Alquerque { tablebase, sample, pieces, seed, common } => {
            alquerque(&tablebase, sample, pieces, seed, &common)
        }
    }
}

/// Reads a suite file: positions of either Latrunculi board, one a line.
fn read_suite(path: &PathBuf) -> Result<Vec<AnyPosition>, CliError> {
    let text = std::fs::read_to_string(path).map_err(CliError::read(path))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let variant = if line.split('/').next().is_some_and(|r| rank_width(r) == 8) {
            Variant::LatrunculiQuick
        } else {
            Variant::Latrunculi
        };
        let pos = AnyPosition::parse(variant, line)
            .map_err(|e| CliError::position(line)(e).at(format!("{}:{}", path.display(), i + 1)))?;
        if AnyGame::from_position(pos).is_over() {
            return Err(CliError::Failed(format!(
                "{}:{}: the game is already over in '{line}'",
                path.display(),
                i + 1
            )));
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err(CliError::Failed(format!("{}: no positions", path.display())));
    }
    Ok(out)
}

/// The number of squares a rank of the notation describes.
fn rank_width(rank: &str) -> usize {
    let mut n = 0;
    let mut digits = 0;
    for c in rank.chars() {
        if let Some(d) = c.to_digit(10) {
            digits = digits * 10 + d as usize;
        } else {
            n += digits + 1;
            digits = 0;
        }
    }
    n + digits
}

fn latrunculi(suite: &PathBuf, seed: u64, common: &Common) -> Result<(), CliError> {
    crate::args::tuned_params(common.level, &common.sets)?;
    let positions = read_suite(suite)?;
    let mut jobs = Vec::new();
    for pos in positions {
        let AnyPosition::Latrunculi(p) = &pos else { unreachable!("Latrunculi positions") };
        let m = p.material();
        if m[0] == m[1] {
            return Err(CliError::Failed(format!("'{pos}': neither side is ahead")));
        }
        let leader = if m[0] > m[1] { Side::First } else { Side::Second };
        jobs.push((pos, leader));
    }
    println!(
        "endgames latrunculi: {} positions from {}, {} against itself, {}{}{}",
        jobs.len(),
        suite.display(),
        common.level,
        time_text(common.time_ms, common.nodes),
        sets_text(&common.sets),
        if seed == 0 { String::new() } else { format!(", seed {seed}") }
    );
    let results = play_all(&jobs, common, seed, None)?;
    let mut technique = 0;
    let mut before_counter = 0;
    let mut by_repetition = 0;
    let mut lost = 0;
    for r in &results {
        let won = r.outcome.is_some_and(|o| o.winner == Some(r.winner_expected));
        let finished = won
            && r.outcome.is_some_and(|o| matches!(o.reason, Reason::KingImmobilised | Reason::OnlyKingLeft));
        technique += usize::from(finished && r.plies <= LATRUNCULI_PLIES);
        before_counter += usize::from(finished);
        let lost_game = r.outcome.is_some_and(|o| o.winner.is_some_and(|w| w != r.winner_expected));
        lost += usize::from(lost_game);
        by_repetition += usize::from(lost_game && r.outcome.is_some_and(|o| o.reason == Reason::Repetition));
    }
    let n = results.len();
    let pc = |k: usize| 100.0 * k as f64 / n as f64;
    println!(
        "won by technique within {LATRUNCULI_PLIES} plies: {technique} of {n} ({:.1}%); before the no-capture counter ended the game: {before_counter} of {n} ({:.1}%); lost: {lost} ({by_repetition} by repetition)",
        pc(technique),
        pc(before_counter)
    );
    Ok(())
}

fn alquerque(
    dir: &PathBuf,
    sample: usize,
    pieces: Option<u32>,
    seed: u64,
    common: &Common,
) -> Result<(), CliError> {
    crate::args::tuned_params(common.level, &common.sets)?;
    let tb = Arc::new(Tablebase::open(dir)?);
    let max = tb.max_pieces();
    let pieces = pieces.unwrap_or(max);
    if !(3..=max).contains(&pieces) {
        return Err(CliError::Usage(format!("--pieces must be from 3 to the tables' {max}, not {pieces}")));
    }
    if sample == 0 {
        return Err(CliError::Usage("--sample must be at least 1".to_string()));
    }
    // Random placements of `pieces` pieces, kept when the tables call them won for the side to
    // move within the counter (the side to move is then the one to win).
    let mut rng = Rng::new(seed);
    let mut jobs = Vec::new();
    let mut tries = 0u64;
    while jobs.len() < sample {
        tries += 1;
        if tries > 10_000_000 {
            return Err(CliError::Failed(format!("found only {} won positions", jobs.len())));
        }
        let Some(pos) = random_alquerque(&mut rng, pieces) else { continue };
        if pos.outcome(false).is_some() {
            continue;
        }
        let Some(probe) = tb.try_probe(&pos)? else { continue };
        if probe.wdl != Wdl::Win || !probe.holds_with_clock(pos.clock()) {
            continue;
        }
        jobs.push((AnyPosition::Alquerque(pos), pos.side_to_move()));
    }
    println!(
        "endgames alquerque: {} positions of {pieces} pieces the tables call won (seed {seed}), {} with the tables against itself, {}{}",
        jobs.len(),
        common.level,
        time_text(common.time_ms, common.nodes),
        sets_text(&common.sets)
    );
    let results = play_all(&jobs, common, 0, Some(tb))?;
    let n = results.len();
    let won =
        results.iter().filter(|r| r.outcome.is_some_and(|o| o.winner == Some(r.winner_expected))).count();
    println!("converted: {won} of {n} ({:.1}%)", 100.0 * won as f64 / n as f64);
    Ok(())
}

fn random_alquerque(rng: &mut Rng, pieces: u32) -> Option<AlqPosition> {
    let white = 1 + rng.below(u64::from(pieces - 1)) as u32;
    let mut board = [b'.'; 25];
    let mut placed = 0;
    while placed < pieces {
        let i = rng.below(25) as usize;
        if board[i] == b'.' {
            board[i] = if placed < white { b'W' } else { b'B' };
            placed += 1;
        }
    }
    let mut text = String::new();
    for rank in (0..5).rev() {
        let mut empty = 0;
        for file in 0..5 {
            let c = board[rank * 5 + file];
            if c == b'.' {
                empty += 1;
            } else {
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(c as char);
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        if rank > 0 {
            text.push('/');
        }
    }
    text.push_str(if rng.below(2) == 0 { " w" } else { " b" });
    text.parse().ok()
}

fn sets_text(sets: &[String]) -> String {
    if sets.is_empty() { String::new() } else { format!(", with {}", sets.join(" ")) }
}

fn time_text(t: Option<u64>, nodes: Option<u64>) -> String {
    match (t, nodes) {
        (None, None) => "the level's own time".to_string(),
        (Some(t), None) => format!("{t} ms a move"),
        (None, Some(n)) => format!("{n} nodes a move"),
        (Some(t), Some(n)) => format!("{t} ms or {n} nodes a move"),
    }
}

fn play_all(
    jobs: &[(AnyPosition, Side)],
    common: &Common,
    seed: u64,
    tb: Option<Arc<Tablebase>>,
) -> Result<Vec<Played>, CliError> {
    let params = &crate::args::tuned_params(common.level, &common.sets)?;
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, Played)> = Vec::new();
    let limits = Limits { time_ms: common.time_ms, nodes: common.nodes, depth: None };
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..common.threads.clamp(1, 64).min(jobs.len()) {
            let tx = tx.clone();
            let (next, tb) = (&next, tb.clone());
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((pos, leader)) = jobs.get(i) else { break };
                    let r = play(
                        *pos,
                        *leader,
                        common.level,
                        params,
                        limits,
                        seed.wrapping_add(i as u64),
                        tb.clone(),
                    );
                    if tx.send((i, r)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, r) in rx {
            let result = match r.outcome {
                Some(o) => o.to_string(),
                None => format!("stopped after {MAX_PLIES} plies"),
            };
            let side = if r.winner_expected == Side::First { "first" } else { "second" };
            println!("{:>3}: {:<40} {side:<6} to win: {result:<24} {:>4} plies", i + 1, r.start, r.plies);
            if common.moves {
                println!("     moves {}", r.moves.join(" "));
            }
            results.push((i, r));
        }
    });
    results.sort_by_key(|r| r.0);
    Ok(results.into_iter().map(|r| r.1).collect())
}

fn play(
    start: AnyPosition,
    leader: Side,
    level: Level,
    params: &ludus_ai::Params,
    limits: Limits,
    seed: u64,
    tb: Option<Arc<Tablebase>>,
) -> Played {
    let text = start.to_string();
    let mut game = AnyGame::from_position(start);
    let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut tables = [None, None];
    while !game.is_over() && game.ply() < MAX_PLIES {
        let slot = game.side_to_move().index();
        let p = params.clone();
        let mut search = match tables[slot].take() {
            Some(tt) => AnySearch::with_params_table(&game, level, limits, p, rng.next_u64(), tt),
            None => AnySearch::with_params(&game, level, limits, p, rng.next_u64()),
        };
        if let Some(tb) = &tb {
            search = search.with_tablebase(tb.clone());
        }
        let mv = search.run_to_end();
        tables[slot] = search.into_table();
        let Some(mv) = mv else { break };
        game.play(&mv).expect("the engine plays legal moves");
    }
    Played {
        start: text,
        winner_expected: leader,
        outcome: game.outcome(),
        plies: game.ply(),
        moves: game.move_strings(),
    }
}
