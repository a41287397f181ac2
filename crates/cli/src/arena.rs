//! `ludus-cli arena`: two levels play a match from varied openings, colours alternating; the
//! result with an Elo difference and its 95% margin.

use crate::args::parse_variant;
use crate::error::CliError;
use crate::tablebase::{TableTrace, tables_summary};
use crate::tally::{Tally, by_colour};
use ludus_ai::level::Rng;
use ludus_ai::{AnySearch, Level, Limits, TranspositionTable};
use ludus_rules::{AnyGame, Outcome, Side, Variant};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Games longer than this are stopped and scored as draws (the rules end every game, but a
/// capture every 99 plies could make one very long); `--max-plies` stops them sooner.
const MAX_PLIES: usize = 1000;

/// The games' first plies compared for variety.
const VARIETY_PLIES: usize = 20;

/// One side of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A level; `variety` false plays it without its variety margin.
    Level { level: Level, variety: bool },
    /// Plain UCT with this many iterations a move.
    Uct(u32),
}

impl Player {
    /// Reads `random`, `easy`, `medium`, `hard`, `LEVEL-fixed` or `uct:N`.
    pub fn parse(s: &str) -> Result<Player, CliError> {
        if let Some(n) = s.strip_prefix("uct:") {
            return match n.replace([',', '_'], "").parse::<u32>() {
                Ok(n) if n >= 1 => Ok(Player::Uct(n)),
                _ => Err(CliError::Usage(format!("uct:N needs a number of iterations from 1, not '{n}'"))),
            };
        }
        let (name, variety) = match s.strip_suffix("-fixed") {
            Some(n) => (n, false),
            None => (s, true),
        };
        Level::parse(name)
            .map(|level| Player::Level { level, variety })
            .map_err(|e| CliError::Usage(format!("{e}, with -fixed for no variety, or uct:ITERATIONS")))
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Player::Level { level, variety: true } => write!(f, "{level}"),
            Player::Level { level, variety: false } => write!(f, "{level}-fixed"),
            Player::Uct(n) => write!(f, "uct:{n}"),
        }
    }
}

struct GameResult {
    index: usize,
    /// 1.0 when A won, 0.5 a draw, 0.0 when B won.
    score_a: f64,
    a_side: Side,
    outcome: Option<Outcome>,
    plies: usize,
    opening: Vec<String>,
    moves: Vec<String>,
    last: String,
    /// With endgame tables: how the game went once it reached them.
    tables: Option<TableTrace>,
}

#[derive(clap::Args, Debug)]
pub struct ArenaArgs {
    /// latrunculi, latrunculi-quick or alquerque
    #[arg(value_name = "GAME", value_parser = parse_variant)]
    variant: Variant,
    /// Player A: random, easy, medium or hard (with variety; add -fixed for none, e.g.
    /// hard-fixed), or uct:ITERATIONS (the Monte-Carlo baseline)
    #[arg(long, value_name = "PLAYER", value_parser = Player::parse)]
    a: Player,
    /// Player B, as A
    #[arg(long, value_name = "PLAYER", value_parser = Player::parse)]
    b: Player,
    /// How many games (colours alternate; each opening is played with both colours)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Time a move for the searching levels (default: each level's own)
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..))]
    time_ms: Option<u64>,
    /// Nodes a move for the searching levels instead of (or with) a time: results then do not
    /// depend on the machine's load
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Deepest iteration a move for the searching levels (each level's own cap still applies;
    /// Medium's is its depth)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..))]
    depth: Option<u32>,
    /// The match's seed (openings and the players' seeds)
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Games played at once
    #[arg(long, value_name = "K", default_value_t = 2)]
    threads: usize,
    /// Random opening plies before the players take over (default 6 in Latrunculi, 10 in Alquerque)
    #[arg(long, value_name = "P")]
    opening_plies: Option<usize>,
    /// Stop each game after this many plies and score it as a draw (default 1000): to measure
    /// the variety of the first plies without playing the games out
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_PLIES as i64))]
    max_plies: Option<u32>,
    /// Alquerque endgame tables for Medium and Hard, as in the game (`ludus-cli tablebase build`)
    #[arg(long, value_name = "DIR")]
    tablebase: Option<std::path::PathBuf>,
    /// Alquerque's book of proven values for Hard, as in the game (`ludus-cli solve --book`)
    #[arg(long, value_name = "FILE")]
    book: Option<std::path::PathBuf>,
    /// Print only the result
    #[arg(long)]
    quiet: bool,
    /// Print every game's moves and final position
    #[arg(long)]
    moves: bool,
    /// Tuning: overrides one of player A's parameters, NAME=VALUE (repeatable; A must be a
    /// level that searches). Names: confine, hunt, progress, progress_cap, king_edge, region,
    /// region_cap, technique_edge, press_king, far_reduction, leader_only, alq_progress,
    /// immune_scale, draw_hope, draw_hope_cap, counter_win, contempt, variety, opening_variety,
    /// opening_plies, complexity, and every evaluation weight as alq.NAME or lat.NAME (the names
    /// `ludus-cli tune` prints)
    #[arg(long = "set-a", value_name = "NAME=VALUE")]
    set_a: Vec<String>,
}

pub fn run(args: ArenaArgs) -> Result<(), CliError> {
    let variant = args.variant;
    let (a, b) = (args.a, args.b);
    let games = args.games as usize;
    let time_ms = args.time_ms;
    let seed = args.seed;
    let threads = args.threads.clamp(1, 64);
    // Alquerque has few balanced openings of 6 plies (one) but many of 10 (over a thousand).
    let default_plies = if variant.is_latrunculi() { 6 } else { 10 };
    let opening_plies = args.opening_plies.unwrap_or(default_plies);
    let quiet = args.quiet;
    let max_plies = args.max_plies.map_or(MAX_PLIES, |n| n as usize);
    let show_moves = args.moves;
    let tb = match &args.tablebase {
        Some(_) if variant.is_latrunculi() => {
            return Err(CliError::Usage("--tablebase is for Alquerque".to_string()));
        }
        Some(dir) => Some(std::sync::Arc::new(ludus_ai::Tablebase::open(dir)?)),
        None => None,
    };
    let book = match &args.book {
        Some(_) if variant.is_latrunculi() => {
            return Err(CliError::Usage("--book is for Alquerque".to_string()));
        }
        Some(path) => {
            let bytes = std::fs::read(path).map_err(CliError::read(path))?;
            let book = ludus_ai::solve::book::Book::from_bytes(&bytes, &path.display().to_string())?;
            Some(std::sync::Arc::new(book))
        }
        None => None,
    };
    let limits = Limits { time_ms, nodes: args.nodes, depth: args.depth };
    let a_params = match a {
        _ if args.set_a.is_empty() => None,
        Player::Level { level, variety } if level.searches() => {
            let mut p = if variety { level.params() } else { level.params_fixed() };
            crate::args::apply_sets(&mut p, &args.set_a)?;
            Some(p)
        }
        _ => return Err(CliError::Usage("--set-a needs player A to be medium or hard".to_string())),
    };

    println!(
        "arena {}: A = {a}, B = {b}, {games} games, {}, {opening_plies} random opening plies, seed {seed}, {threads} threads{}{}{}",
        variant.name(),
        match (time_ms, args.nodes) {
            (Some(t), None) => format!("{t} ms a move"),
            (None, Some(n)) => format!("{n} nodes a move"),
            (Some(t), Some(n)) => format!("{t} ms or {n} nodes a move"),
            (None, None) => "default time".to_string(),
        } + &args.depth.map_or(String::new(), |d| format!(", depth {d} at most")),
        if tb.is_some() { ", Medium and Hard with the endgame tables" } else { "" },
        if book.is_some() { ", Hard with the book of proven values" } else { "" },
        match args.max_plies {
            Some(n) => format!(", games stopped after {n} plies and scored as draws"),
            None => String::new(),
        }
    );
    if !args.set_a.is_empty() {
        println!("A with {}", args.set_a.join(" "));
    }
    let openings = openings(variant, opening_plies, seed, games.div_ceil(2));
    let distinct = distinct_positions(&openings);
    if distinct < openings.len() {
        println!("openings: {distinct} different positions for {} pairs of games", openings.len());
    }
    let m = Match { a, b, limits, seed, openings, max_plies, tb, book, a_params };
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let mut results: Vec<GameResult> = Vec::with_capacity(games);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(games) {
            let tx = tx.clone();
            let next = &next;
            let m = &m;
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let r = play_game(m, i);
                    if tx.send(r).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for r in rx {
            if !quiet {
                let who = match r.a_side {
                    Side::First => "A first",
                    Side::Second => "A second",
                };
                let result = match r.outcome {
                    Some(o) => o.to_string(),
                    None => format!("1/2-1/2 adjudicated after {max_plies} plies"),
                };
                println!(
                    "game {:>3}: {who:<8} {result:<28} {:>4} plies  opening {}",
                    r.index + 1,
                    r.plies,
                    r.opening.join(" ")
                );
                if show_moves {
                    println!("  moves {}\n  final {}", r.moves.join(" "), r.last);
                }
            }
            results.push(r);
        }
    });

    let n = results.len() as f64;
    let Some(tally) = Tally::of(results.iter().map(|r| r.score_a)) else {
        return Err(CliError::Failed("no game was played".to_string()));
    };
    let mut reasons: Vec<(String, usize)> = Vec::new();
    for r in &results {
        let name = r.outcome.map_or("Adjudicated", |o| o.reason.name()).to_string();
        match reasons.iter_mut().find(|(k, _)| *k == name) {
            Some((_, c)) => *c += 1,
            None => reasons.push((name, 1)),
        }
    }
    let avg_plies = results.iter().map(|r| r.plies).sum::<usize>() as f64 / n;
    // Variety: how many different lines the games took over their first plies.
    let mut lines: Vec<&[String]> =
        results.iter().map(|r| &r.moves[..r.moves.len().min(VARIETY_PLIES)]).collect();
    lines.sort();
    lines.dedup();
    println!("A ({a}) vs B ({b}): {}", tally.headline());
    println!(
        "Elo difference {}; endings: {}; average {:.0} plies; {} different lines over the first {VARIETY_PLIES} plies; {:.1} s",
        tally.margin(),
        reasons.iter().map(|(k, c)| format!("{k} {c}")).collect::<Vec<_>>().join(", "),
        avg_plies,
        lines.len(),
        started.elapsed().as_secs_f64()
    );
    // By colour: in Alquerque the first player starts ahead, so a score is read by colour.
    println!("{}", by_colour(results.iter().map(|r| (r.score_a, r.a_side == Side::First))));
    let traces: Vec<(TableTrace, f64)> =
        results.iter().filter_map(|r| r.tables.map(|t| (t, r.score_a))).collect();
    if !traces.is_empty() {
        println!("{}", tables_summary(&traces));
    }
    Ok(())
}

/// What every game of a match shares.
struct Match {
    a: Player,
    b: Player,
    limits: Limits,
    seed: u64,
    /// The opening of each pair of games ([`openings`]).
    openings: Vec<AnyGame>,
    /// Games are stopped after this many plies and scored as draws.
    max_plies: usize,
    /// The endgame tables of the levels that search (Random and Easy do not use them).
    tb: Option<std::sync::Arc<ludus_ai::Tablebase>>,
    book: Option<std::sync::Arc<ludus_ai::solve::book::Book>>,
    /// Player A's parameters when `--set-a` overrides some (A is then a level).
    a_params: Option<ludus_ai::Params>,
}

/// Redraws of a pair's opening (each [`ludus_ai::balanced_opening`] from another seed) while it
/// lands on a position an earlier pair already has; after that a repeat is kept.
const OPENING_REDRAWS: u64 = 20;

/// The openings of a match's `pairs` pairs of games: balanced ([`ludus_ai::balanced_opening`])
/// and, as far as [`OPENING_REDRAWS`] finds, all different positions. Random plies choose among
/// moves, not positions, and Alquerque's first plies are nearly forced: drawn independently, the
/// 20 openings of 40 games of 10 plies were 11 positions, one of them 5 times.
fn openings(variant: Variant, plies: usize, seed: u64, pairs: usize) -> Vec<AnyGame> {
    let mut seen = std::collections::HashSet::new();
    (0..pairs)
        .map(|pair| {
            let base = seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ (pair as u64) << 20;
            let mut game = ludus_ai::balanced_opening(variant, plies, base);
            let mut k = 0;
            while plies > 0 && !seen.insert(game.position().to_string()) && k < OPENING_REDRAWS {
                k += 1;
                game =
                    ludus_ai::balanced_opening(variant, plies, base ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            }
            game
        })
        .collect()
}

/// How many different positions `games` are at.
fn distinct_positions(games: &[AnyGame]) -> usize {
    games.iter().map(|g| g.position().to_string()).collect::<std::collections::HashSet<_>>().len()
}

fn play_game(m: &Match, index: usize) -> GameResult {
    let Match { a, b, limits, seed, max_plies, ref tb, ref book, .. } = *m;
    let mut game = m.openings[index / 2].clone();
    let opening = game.move_strings();
    let a_side = if index.is_multiple_of(2) { Side::First } else { Side::Second };
    let mut tables: [Option<TranspositionTable>; 2] = [None, None];
    let mut rng = Rng::new(seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    while !game.is_over() && game.ply() < max_plies {
        let side = game.side_to_move();
        let player = if side == a_side { a } else { b };
        let s = rng.next_u64();
        let slot = side.index();
        let mv = match player {
            Player::Uct(n) => ludus_ai::uct_move(&game, n, s),
            Player::Level { level, variety } => {
                let params = match &m.a_params {
                    Some(p) if side == a_side => p.clone(),
                    _ if variety => level.params(),
                    _ => level.params_fixed(),
                };
                let tt = match tables[slot].take() {
                    Some(tt) => tt,
                    None => TranspositionTable::new(params.tt_mb.min(32)),
                };
                let mut search = AnySearch::with_params_table(&game, level, limits, params, s, tt);
                if let Some(tb) = tb {
                    search = search.with_tablebase(tb.clone());
                }
                if let Some(book) = book.as_deref().filter(|_| level == Level::Hard) {
                    search = search.with_book(book);
                }
                let mv = search.run_to_end();
                if tracing::enabled!(tracing::Level::DEBUG) {
                    let info = search.info();
                    tracing::debug!(
                        game = index + 1,
                        ply = game.ply(),
                        player = %player,
                        depth = info.depth,
                        nodes = info.nodes,
                        ms = info.time_ms,
                        score = %info.score,
                        pv = %info.pv.join(" "),
                    );
                }
                tables[slot] = search.into_table();
                mv
            }
        };
        let Some(mv) = mv else { break };
        game.play(&mv).expect("the engine plays legal moves");
    }
    let outcome = game.outcome();
    let score_a = match outcome {
        Some(Outcome { winner: Some(w), .. }) => {
            if w == a_side {
                1.0
            } else {
                0.0
            }
        }
        _ => 0.5,
    };
    let tables = match (&game, tb) {
        (AnyGame::Alquerque(g), Some(tb)) => Some(TableTrace::of(g.positions(), tb, a_side)),
        _ => None,
    };
    GameResult {
        index,
        tables,
        score_a,
        a_side,
        outcome,
        plies: game.ply(),
        opening,
        moves: game.move_strings(),
        last: game.position().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_has_different_openings() {
        // Drawn independently, these 20 pairs had 11 different positions after 10 plies.
        let o = openings(Variant::Alquerque, 10, 1, 20);
        assert_eq!(o.len(), 20);
        assert_eq!(distinct_positions(&o), 20, "every pair its own opening");
        for g in &o {
            assert_eq!(g.ply(), 10);
            assert!(!g.is_over());
        }
        // The same seed, the same openings in the same order.
        let strings = |games: &[AnyGame]| games.iter().map(|g| g.position().to_string()).collect::<Vec<_>>();
        assert_eq!(strings(&openings(Variant::Alquerque, 10, 1, 20)), strings(&o));
        // With no opening plies every pair starts from the start, without redraws.
        let start = openings(Variant::Alquerque, 0, 1, 3);
        assert!(start.iter().all(|g| g.ply() == 0));
        assert_eq!(distinct_positions(&start), 1);
    }
}
