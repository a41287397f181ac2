//! The tool's errors. Each prints as the one line after `ludus-cli: ` on standard error, and
//! decides the exit code: 2 for a usage error (options that do not go together, a value no
//! option takes), the code clap gives its own; 1 for every failure of a command asked properly
//! (a missing file, an illegal move in a given game, a network error, a check that fails).

use ludus_ai::puzzle::PuzzleError;
use ludus_ai::solve::SolveError;
use ludus_ai::tablebase::TbError;
use ludus_rules::{ParseError, RecordError};
use std::fmt::Display;
use std::path::{Path, PathBuf};

/// What went wrong (see the module documentation).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Options that do not go together, or a value that no option takes: exit code 2.
    #[error("{0}")]
    Usage(String),
    /// A file that cannot be read or written.
    #[error("cannot {verb} {}: {source}", .path.display())]
    File { verb: &'static str, path: PathBuf, source: std::io::Error },
    /// A position the rules refuse.
    #[error("bad position '{text}': {source}")]
    Position { text: String, source: ParseError },
    /// A move the rules refuse in a game given to the tool (`number` from 1, when counted).
    #[error("move {}'{text}': {source}", .number.map_or(String::new(), |n| format!("{n} ")))]
    Move { number: Option<usize>, text: String, source: ParseError },
    /// A position, a move or a game record the rules refuse (given with where it is).
    #[error(transparent)]
    Rules(#[from] ParseError),
    /// A game record that does not replay.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The endgame tables cannot be read.
    #[error(transparent)]
    Tablebase(#[from] TbError),
    /// The solver, or a certificate, a book or a book's proof that is refused.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A puzzle file that is refused.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// The server cannot be reached, or refuses or drops the tool.
    #[error("{0}")]
    Network(String),
    /// The command ran and its answer is a failure: nothing to work on, a check that fails.
    #[error("{0}")]
    Failed(String),
    /// An error with where it happened: a file, a line of it, a game of a record.
    #[error("{at}: {source}")]
    At { at: String, source: Box<CliError> },
}

impl CliError {
    /// The process's exit code for this error: 2 for a usage error, 1 for a failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::At { source, .. } => source.exit_code(),
            _ => 1,
        }
    }

    /// This error, said to have happened at `at`.
    pub fn at(self, at: impl Display) -> CliError {
        CliError::At { at: at.to_string(), source: Box::new(self) }
    }

    /// A file at `path` that cannot be read (for `map_err`).
    pub fn read(path: &Path) -> impl FnOnce(std::io::Error) -> CliError + '_ {
        move |source| CliError::File { verb: "read", path: path.to_path_buf(), source }
    }

    /// A file at `path` that cannot be written (for `map_err`).
    pub fn write(path: &Path) -> impl FnOnce(std::io::Error) -> CliError + '_ {
        move |source| CliError::File { verb: "write", path: path.to_path_buf(), source }
    }

    /// A position `text` the rules refuse (for `map_err`).
    pub fn position(text: &str) -> impl FnOnce(ParseError) -> CliError + '_ {
        move |source| CliError::Position { text: text.to_string(), source }
    }

    /// A move `text` the rules refuse, the `number`-th of its list if counted (for `map_err`).
    pub fn bad_move(number: Option<usize>, text: &str) -> impl FnOnce(ParseError) -> CliError + '_ {
        move |source| CliError::Move { number, text: text.to_string(), source }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_errors_exit_2_and_failures_1_wherever_they_happened() {
        let usage = CliError::Usage("--tablebase is for Alquerque".into());
        assert_eq!(usage.exit_code(), 2);
        assert_eq!(usage.at("games.txt:3").exit_code(), 2);
        let missing = CliError::read(Path::new("/nowhere/x"))(std::io::ErrorKind::NotFound.into());
        assert_eq!(missing.exit_code(), 1);
        assert!(missing.to_string().starts_with("cannot read /nowhere/x: "), "{missing}");
        let failed = CliError::Failed("no game was played".into()).at("match.txt");
        assert_eq!((failed.exit_code(), failed.to_string().as_str()), (1, "match.txt: no game was played"));
    }

    #[test]
    fn a_refused_move_says_which_and_why() {
        let mut game = ludus_rules::AnyGame::new(ludus_rules::Variant::Alquerque);
        let e = game.play_str("a1-a2").map_err(CliError::bad_move(Some(3), "a1-a2")).unwrap_err();
        assert!(e.to_string().starts_with("move 3 'a1-a2': "), "{e}");
        assert_eq!(e.exit_code(), 1);
        let e = game.play_str("zz").map_err(CliError::bad_move(None, "zz")).unwrap_err();
        assert!(e.to_string().starts_with("move 'zz': "), "{e}");
    }
}
