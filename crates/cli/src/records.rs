//! The games of `arena --moves` outputs, read back for `tune`, `tablebase replay` and `solve
//! --keeping`: each `game N: A first|A second ...` line and the `moves ...` line after it (the
//! moves from the game's start, the random opening included). `sum` reads the game lines alone.

use crate::error::CliError;
use std::path::PathBuf;

/// One game read from a file.
#[derive(Debug)]
pub struct Record {
    /// Where it was read, for errors: `file:line` of its game line.
    pub at: String,
    /// Whether player A had the first move.
    pub a_first: bool,
    /// The plies of the random opening the game began with: the first moves, which neither
    /// player chose.
    pub opening: usize,
    /// Player A's points (1, 1/2 or 0) as the game line gives the result.
    pub a_points: Option<f32>,
    /// The moves, in notation.
    pub moves: Vec<String>,
}

/// The games of every file, in order; an error names the file (and line).
pub fn read_files(files: &[PathBuf]) -> Result<Vec<Record>, CliError> {
    let mut records = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(CliError::read(file))?;
        records.extend(read_records(&file.display().to_string(), &text)?);
    }
    if records.is_empty() {
        return Err(CliError::Failed(
            "no games found: the files must be `arena --moves` outputs".to_string(),
        ));
    }
    Ok(records)
}

/// The games of one `arena --moves` output. Lines of other kinds are skipped.
pub fn read_records(file: &str, text: &str) -> Result<Vec<Record>, CliError> {
    let mut out = Vec::new();
    let mut header: Option<(usize, &str)> = None;
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        if line.starts_with("game ") {
            header = Some((line_no, line));
        } else if let Some(moves) = line.trim_start().strip_prefix("moves ") {
            let Some((h, game)) = header.take() else {
                return Err(CliError::Failed(format!(
                    "{file}:{line_no}: a moves line without its game line before it"
                )));
            };
            let g = GameLine::parse(game);
            out.push(Record {
                at: format!("{file}:{h}"),
                a_first: g.a_first,
                opening: g.opening_plies(),
                a_points: g.a_points,
                moves: moves.split_whitespace().map(str::to_string).collect(),
            });
        }
    }
    Ok(out)
}

/// What a `game N: A first|A second RESULT ...  opening ...` line of `arena` says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameLine<'a> {
    /// Whether player A had the first move.
    pub a_first: bool,
    /// The random opening's moves, in notation (empty from the start position).
    pub opening: &'a str,
    /// Player A's points, when the result reads as one.
    pub a_points: Option<f32>,
}

impl<'a> GameLine<'a> {
    /// Reads a line that starts with `game ` (anything else after the number reads as no
    /// result).
    pub fn parse(line: &'a str) -> GameLine<'a> {
        let a_first = line.contains(": A first");
        // The result is the first player's.
        let result = line.split_once(": A ").and_then(|(_, rest)| rest.split_whitespace().nth(1));
        let first_points = match result {
            Some("1-0") => Some(1.0),
            Some("0-1") => Some(0.0),
            Some("1/2-1/2") => Some(0.5),
            _ => None,
        };
        GameLine {
            a_first,
            opening: line.split_once("  opening").map_or("", |(_, o)| o.trim()),
            a_points: first_points.map(|p| if a_first { p } else { 1.0 - p }),
        }
    }

    /// The plies of the random opening.
    pub fn opening_plies(&self) -> usize {
        self.opening.split_whitespace().count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_pair_game_and_moves_lines() {
        let text = "arena alquerque: ...\ngame   1: A first  1-0 NoPieces  3 plies  opening d2-c3\n  moves d2-c3 b4-b3\n  final x\ngame   2: A second 1/2-1/2\n  moves d2-c3\nA (hard) ...\n";
        let r = read_records("f", text).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].moves, ["d2-c3", "b4-b3"]);
        assert_eq!(r[0].at, "f:2");
        assert!(r[0].a_first && !r[1].a_first);
        assert_eq!((r[0].opening, r[1].opening), (1, 0));
        assert_eq!((r[0].a_points, r[1].a_points), (Some(1.0), Some(0.5)));
        let second =
            read_records("f", "game   7: A second 1-0 NoPieces  9 plies  opening \n  moves d2-c3\n").unwrap();
        assert_eq!((second[0].opening, second[0].a_points), (0, Some(0.0)));
        let unknown = read_records("f", "game   8: A first  ? 3 plies\n  moves d2-c3\n").unwrap();
        assert_eq!(unknown[0].a_points, None);
        assert!(read_records("f", "  moves d2-c3\n").unwrap_err().to_string().contains("f:1"));
    }
}
