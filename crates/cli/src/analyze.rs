//! `ludus-cli analyze`: the engine's best move, score, depth, nodes, speed and principal
//! variation for a position.

use crate::args::{GameArg, parse_level};
use crate::error::CliError;
use ludus_ai::{AnySearch, Level, Limits, Tablebase};
use ludus_rules::AnyGame;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    game: GameArg,
    /// Moves to play from the position first, in notation ("m1 m2 ..."): the search then
    /// knows the game's repetitions and no-capture counter, as in a game
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    moves: Option<String>,
    /// Think this long (default 2000 ms when no limit is given)
    #[arg(long, value_name = "T")]
    time_ms: Option<u64>,
    /// Search this deep, in plies
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=i64::from(ludus_ai::limits::MAX_DEPTH)))]
    depth: Option<u32>,
    /// Search this many nodes
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// random, easy, medium or hard (default hard)
    #[arg(long, value_name = "L", value_parser = parse_level, default_value = "hard")]
    level: Level,
    /// The search's seed
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// The transposition table's size in MB, 1 to 4096
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: Option<u64>,
    /// Use the Alquerque endgame tables in DIR
    #[arg(long, value_name = "DIR")]
    tablebase: Option<String>,
}

pub fn run(args: AnalyzeArgs) -> Result<(), CliError> {
    let mut game = AnyGame::from_position(args.game.position()?);
    for (i, m) in args.moves.as_deref().unwrap_or("").split_whitespace().enumerate() {
        if game.is_over() {
            return Err(CliError::Failed(format!(
                "move {} '{m}': the game is already over ({})",
                i + 1,
                game.outcome().expect("over")
            )));
        }
        game.play_str(m).map_err(CliError::bad_move(Some(i + 1), m))?;
    }
    if args.moves.is_some() {
        println!("position {}", game.position());
    }
    let mut limits = Limits { depth: args.depth, nodes: args.nodes, time_ms: args.time_ms };
    if limits.is_unlimited() {
        limits.time_ms = Some(2000);
    }
    let level = args.level;
    let seed = args.seed;
    let mut params = level.params();
    if let Some(mb) = args.hash {
        params.tt_mb = mb as usize;
    }
    if game.is_over() {
        return Err(CliError::Failed(format!(
            "the game is already over in this position ({}): {}",
            game.outcome().expect("over"),
            game.position()
        )));
    }
    let mut search = AnySearch::with_params(&game, level, limits, params, seed);
    if let Some(dir) = &args.tablebase {
        if !matches!(game, AnyGame::Alquerque(_)) {
            return Err(CliError::Usage("--tablebase is for Alquerque".to_string()));
        }
        let tb = Tablebase::open(dir)?;
        search = search.with_tablebase(Arc::new(tb));
    }
    let mut last_depth = 0;
    while search.step(50_000) == ludus_ai::Status::Running {
        let info = search.info();
        if info.depth > last_depth {
            last_depth = info.depth;
            print_line(&info);
        }
    }
    let info = search.info();
    if info.depth > last_depth || info.depth == 0 {
        print_line(&info);
    }
    let pos = game.position();
    let Some(best) = search.best_move() else {
        return Err(CliError::Failed("no legal move in this position".to_string()));
    };
    let secs = info.time_ms.max(1) as f64 / 1000.0;
    println!("bestmove {}", pos.move_to_string(&best).unwrap_or_default());
    println!("score {}", info.score);
    println!("depth {} seldepth {}", info.depth, info.seldepth);
    println!("nodes {} time {} ms nps {:.0}", info.nodes, info.time_ms, info.nodes as f64 / secs);
    println!("pv {}", info.pv.join(" "));
    if let Some(probe) = info.tablebase {
        println!("tablebase {}", probe.describe(pos.side_to_move()));
    }
    Ok(())
}

fn print_line(info: &ludus_ai::AnyInfo) {
    println!(
        "info depth {} seldepth {} score {} nodes {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.score,
        info.nodes,
        info.time_ms,
        info.pv.join(" ")
    );
}
