//! `ludus-cli`: perft, legal moves, analysis, AI arena and benchmarks from the command line.
//!
//! Arguments are read with clap: `--help` on every command (exit code 0); a usage error prints
//! clap's message and exits with code 2, as do options that do not go together; a failure (a
//! bad position, an illegal move, a missing file, a network error) prints one line on standard
//! error and exits with code 1 (see [`error::CliError`]). Diagnostics go through `tracing` (set `RUST_LOG`, e.g. `RUST_LOG=debug`).
//! Output read only in part (`ludus-cli arena ... | head`) ends a command as it ends any Unix
//! tool, by SIGPIPE, without a panic.
//!
//! This file holds the command enum and its dispatch; each command lives in its own module,
//! and what several share (the game and level parsers, `--set`) in `args`.

mod analyze;
mod arena;
mod args;
mod bench;
mod bot;
mod bots;
mod endgames;
mod error;
mod moves;
mod perft;
mod puzzles;
mod records;
mod solve;
mod sum;
mod tablebase;
mod tally;
mod tournament_bots;
mod tune;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    // Output piped into a reader that stops early (`| head`) ends the command quietly, as it
    // would any Unix tool, instead of a panic at the next line printed. The bots, which talk to
    // a server, keep Rust's default (the signal ignored, a closed connection an error).
    if !matches!(cli.command, Command::Bots(_) | Command::Bot(_)) {
        sigpipe::reset();
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ludus-cli: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// Ludus from the command line: perft, legal moves, analysis, AI arena, benchmarks, the
/// Alquerque endgame tables and online bots.
#[derive(Parser, Debug)]
#[command(name = "ludus-cli", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Counts the move sequences of DEPTH plies (the last line is the count).
    Perft(perft::PerftArgs),
    /// Lists the legal moves of a position (and the outcome when the game is over).
    Moves(moves::MovesArgs),
    /// The engine's best move, score, depth, nodes, speed and principal variation.
    Analyze(analyze::AnalyzeArgs),
    /// Two players play a match, colours alternating; prints the score with an Elo difference.
    Arena(arena::ArenaArgs),
    /// Adds up several `arena` matches of the same players: one score with its Elo interval,
    /// by colour, and the number of different openings.
    Sum(sum::SumArgs),
    /// Perft speed and the search's speed on fixed positions, with a node-count signature.
    Bench(bench::BenchArgs),
    /// Tunes a game's evaluation on played games (`arena --moves` outputs), Texel's method.
    Tune(tune::TuneArgs),
    /// Technique: Hard plays out won endings (a Latrunculi suite, Alquerque positions the
    /// endgame tables call won) and the command counts how they end.
    Endgames(endgames::EndgamesArgs),
    /// The Alquerque endgame tablebase: build the tables, or probe a position.
    Tablebase(tablebase::TablebaseArgs),
    /// Solves an Alquerque position (or each first move) by proof-number search with the
    /// endgame tables as leaves, with a certificate; or checks a certificate.
    Solve(solve::SolveArgs),
    /// A load test of a ludus-server: pairs of bots playing random moves.
    Bots(bots::BotsArgs),
    /// One bot client on a ludus-server, to play a person (or a test) online.
    Bot(bot::BotArgs),
    /// Tactics puzzles: generate them with the engine, or verify a puzzle file.
    Puzzles(puzzles::PuzzlesArgs),
}

fn run(cli: Cli) -> Result<(), error::CliError> {
    match cli.command {
        Command::Perft(a) => perft::run(a),
        Command::Moves(a) => moves::run(a),
        Command::Analyze(a) => analyze::run(a),
        Command::Arena(a) => arena::run(a),
        Command::Sum(a) => sum::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Tablebase(a) => tablebase::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Endgames(a) => endgames::run(a),
        Command::Tune(a) => tune::run(a),
        Command::Bots(a) => bots::run(a),
        Command::Bot(a) => bot::run(a),
        Command::Puzzles(a) => puzzles::run(a),
    }
}
