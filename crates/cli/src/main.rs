//! `ludus-cli`: perft, legal moves, analysis, AI arena and benchmarks from the command line.
//!
//! Arguments are read with clap: `--help` on every command (exit code 0); a usage error prints
//! clap's message and exits with code 2, as do bad positions, moves and files (one line on
//! standard error). Diagnostics go through `tracing` (set `RUST_LOG`, e.g. `RUST_LOG=debug`).

mod analyze;
mod arena;
mod bench;
mod bot;
mod bots;
mod commands;
mod endgames;
mod records;
mod tablebase;
mod tune;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = commands::Cli::parse();
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ludus-cli: {e}");
            ExitCode::from(2)
        }
    }
}
