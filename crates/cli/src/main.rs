//! `ludus-cli`: perft, legal moves, analysis, AI arena and benchmarks from the command line.

mod analyze;
mod arena;
mod args;
mod bench;
mod bot;
mod bots;
mod commands;
mod tablebase;

use std::process::ExitCode;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match commands::run(&argv) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ludus-cli: {e}");
            ExitCode::from(2)
        }
    }
}
