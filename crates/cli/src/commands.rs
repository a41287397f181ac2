//! The command line (clap derive): one subcommand per tool, the shared argument types, and
//! `perft` and `moves`.

use clap::{Parser, Subcommand};
use ludus_ai::Level;
use ludus_rules::{AnyGame, AnyPosition, Variant};

/// Ludus from the command line: perft, legal moves, analysis, AI arena, benchmarks, the
/// Alquerque endgame tables and online bots.
#[derive(Parser, Debug)]
#[command(name = "ludus-cli", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Counts the move sequences of DEPTH plies (the last line is the count).
    Perft(PerftArgs),
    /// Lists the legal moves of a position (and the outcome when the game is over).
    Moves(MovesArgs),
    /// The engine's best move, score, depth, nodes, speed and principal variation.
    Analyze(crate::analyze::AnalyzeArgs),
    /// Two players play a match, colours alternating; prints the score with an Elo difference.
    Arena(crate::arena::ArenaArgs),
    /// Perft speed and the search's speed on fixed positions, with a node-count signature.
    Bench(crate::bench::BenchArgs),
    /// Tunes a game's evaluation on played games (`arena --moves` outputs), Texel's method.
    Tune(crate::tune::TuneArgs),
    /// Technique: Hard plays out won endings (a Latrunculi suite, Alquerque positions the
    /// endgame tables call won) and the command counts how they end.
    Endgames(crate::endgames::EndgamesArgs),
    /// The Alquerque endgame tablebase: build the tables, or probe a position.
    Tablebase(crate::tablebase::TablebaseArgs),
    /// A load test of a ludus-server: pairs of bots playing random moves.
    Bots(crate::bots::BotsArgs),
    /// One bot client on a ludus-server, to play a person (or a test) online.
    Bot(crate::bot::BotArgs),
}

pub fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Perft(a) => perft(a),
        Command::Moves(a) => moves(a),
        Command::Analyze(a) => crate::analyze::run(a),
        Command::Arena(a) => crate::arena::run(a),
        Command::Bench(a) => crate::bench::run(a),
        Command::Tablebase(a) => crate::tablebase::run(a),
        Command::Endgames(a) => crate::endgames::run(a),
        Command::Tune(a) => crate::tune::run(a),
        Command::Bots(a) => crate::bots::run(a),
        Command::Bot(a) => crate::bot::run(a),
    }
}

/// Reads a game name for clap: `latrunculi`, `latrunculi-quick` or `alquerque`.
pub fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::parse(s).map_err(|e| e.to_string())
}

/// Reads a level name for clap: `random`, `easy`, `medium` or `hard`.
pub fn parse_level(s: &str) -> Result<Level, String> {
    Level::parse(s).map_err(|e| e.to_string())
}

/// `<GAME> [--position POS]`: a game and the position to start from.
#[derive(clap::Args, Debug, Clone)]
pub struct GameArg {
    /// latrunculi, latrunculi-quick or alquerque
    #[arg(value_name = "GAME", value_parser = parse_variant)]
    pub variant: Variant,
    /// The start position in the rules' notation (default: the game's start)
    #[arg(long, value_name = "POS")]
    pub position: Option<String>,
}

impl GameArg {
    /// The position named.
    pub fn position(&self) -> Result<AnyPosition, String> {
        match &self.position {
            None => Ok(self.variant.start()),
            Some(s) => AnyPosition::parse(self.variant, s).map_err(|e| format!("bad position '{s}': {e}")),
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    game: GameArg,
    /// Plies to count, 0 to 64
    #[arg(value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(0..=64))]
    depth: u32,
    /// The count under each root move, then the total
    #[arg(long)]
    divide: bool,
}

#[derive(clap::Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    game: GameArg,
}

fn perft(args: PerftArgs) -> Result<(), String> {
    let pos = args.game.position()?;
    if args.divide {
        let mut total = 0;
        for (mv, n) in pos.perft_divide(args.depth) {
            println!("{mv} {n}");
            total += n;
        }
        println!("{total}");
    } else {
        println!("{}", pos.perft(args.depth));
    }
    Ok(())
}

fn moves(args: MovesArgs) -> Result<(), String> {
    let game = AnyGame::from_position(args.game.position()?);
    let pos = game.position();
    for mv in game.legal_moves() {
        println!("{}", pos.move_to_string(&mv).unwrap_or_default());
    }
    if let Some(outcome) = game.outcome() {
        println!("{outcome}");
    }
    Ok(())
}

/// A level's parameters with the `--set NAME=VALUE` overrides of a tuning run.
pub fn tuned_params(level: Level, sets: &[String]) -> Result<ludus_ai::Params, String> {
    let mut p = level.params();
    apply_sets(&mut p, sets)?;
    Ok(p)
}

/// Applies `--set NAME=VALUE` overrides (see [`SET_NAMES`]) to `p`.
pub fn apply_sets(p: &mut ludus_ai::Params, sets: &[String]) -> Result<(), String> {
    for kv in sets {
        let (k, v) = kv.split_once('=').ok_or_else(|| format!("'{kv}': expected NAME=VALUE"))?;
        let v: i32 = v.parse().map_err(|_| format!("'{kv}': the value must be an integer"))?;
        let (l, a, s) = (&mut p.latrunculi, &mut p.alquerque, &mut p.search);
        match k {
            "confine" => l.confine = v,
            "hunt" => l.hunt = v,
            "progress" => l.progress = v,
            "progress_cap" => l.progress_cap = v,
            "king_edge" => l.king_edge = v,
            "region" => l.region = v,
            "region_cap" => l.region_cap = v,
            "technique_edge" => l.technique_edge = v,
            "press_king" => l.press_king = v != 0,
            "far_reduction" => l.far_reduction = v,
            "leader_only" => l.leader_only = v != 0,
            "alq_progress" => a.progress = v,
            "immune_scale" => a.immune_scale = v,
            "draw_hope" => a.draw_hope = v,
            "counter_win" => s.counter_win = v,
            "contempt" => s.contempt = v,
            "variety" => s.variety = v,
            "opening_variety" => a.opening_variety = v,
            "opening_plies" => {
                a.opening_plies = u32::try_from(v).map_err(|_| format!("'{kv}': plies cannot be negative"))?
            }
            "complexity" => s.complexity = v,
            _ => match weight(p, k) {
                Some(w) => *w = v,
                None => return Err(format!("'{kv}': unknown parameter '{k}' (known: {SET_NAMES})")),
            },
        }
    }
    Ok(())
}

/// An evaluation weight by its tuning name: `alq.NAME` or `lat.NAME` (see
/// `AlquerqueParams::weights_mut` and `LatrunculiParams::weights_mut`).
fn weight<'a>(p: &'a mut ludus_ai::Params, name: &str) -> Option<&'a mut i32> {
    let (game, name) = name.split_once('.')?;
    let weights = match game {
        "alq" => p.alquerque.weights_mut(),
        "lat" => p.latrunculi.weights_mut(),
        _ => return None,
    };
    weights.into_iter().find(|(n, _)| *n == name).map(|(_, w)| w)
}

/// The parameters `--set` knows: Latrunculi's technique terms (confine, hunt, progress,
/// progress_cap, king_edge, region, region_cap, technique_edge, press_king and leader_only as
/// 0 or 1, far_reduction), Alquerque's (alq_progress, immune_scale, draw_hope, opening_variety,
/// opening_plies) and the search's (counter_win, contempt, variety, complexity), and every
/// evaluation weight as `alq.NAME` or `lat.NAME` (the names `ludus-cli tune` prints).
pub const SET_NAMES: &str = "confine, hunt, progress, progress_cap, king_edge, region, region_cap, technique_edge, press_king, far_reduction, leader_only, alq_progress, immune_scale, draw_hope, counter_win, contempt, variety, opening_variety, opening_plies, complexity, and alq.NAME or lat.NAME for the evaluation's weights (as `tune` prints them)";
