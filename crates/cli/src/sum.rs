//! `ludus-cli sum`: the matches of several `arena` outputs as one, for a figure over more games
//! than one run plays: player A's score with its Elo interval, by colour, and how many
//! different openings the games began from. Every file must be a match of the same game
//! between the same two players; each game's result is read from its `game N:` line (the
//! tables' side of it is `tablebase replay`'s).

use crate::error::CliError;
use crate::records::GameLine;
use crate::tally::{Tally, by_colour};
use std::collections::HashSet;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct SumArgs {
    /// `arena` outputs (their game lines are read; `--quiet` runs have none)
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
}

/// One match read from its output.
#[derive(Debug)]
struct MatchFile {
    /// `GAME: A = X, B = Y`, from the first line.
    players: String,
    /// Player A's points and colour (true: first) in each game, in the file's order.
    games: Vec<(f64, bool)>,
    /// Each game's opening moves (empty from the start).
    openings: Vec<String>,
}

/// Reads one `arena` output; `name` names it in errors.
fn read_match(name: &str, text: &str) -> Result<MatchFile, CliError> {
    let first = text.lines().next().unwrap_or("");
    let players = first
        .strip_prefix("arena ")
        .and_then(|rest| {
            let (game, rest) = rest.split_once(": ")?;
            let (a, rest) = rest.strip_prefix("A = ")?.split_once(", B = ")?;
            let b = rest.split(", ").next()?;
            Some(format!("{game}: A = {a}, B = {b}"))
        })
        .ok_or_else(|| {
            CliError::Failed(format!(
                "{name}:1: not the output of `ludus-cli arena` (it begins `arena GAME: A = ...`)"
            ))
        })?;
    let mut games = Vec::new();
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if !line.starts_with("game ") {
            continue;
        }
        let g = GameLine::parse(line);
        let points = g
            .a_points
            .ok_or_else(|| CliError::Failed(format!("{name}:{}: the game's result does not read", n + 1)))?;
        games.push((f64::from(points), g.a_first));
        openings.push(g.opening.to_string());
    }
    if games.is_empty() {
        return Err(CliError::Failed(format!("{name}: no game lines (was the match run with --quiet?)")));
    }
    Ok(MatchFile { players, games, openings })
}

/// The summary of `matches` (name and contents), as printed.
fn summary(matches: &[(String, MatchFile)]) -> Result<String, CliError> {
    let (first_name, first) = matches.first().ok_or_else(|| CliError::Failed("no files".to_string()))?;
    for (name, m) in &matches[1..] {
        if m.players != first.players {
            return Err(CliError::Failed(format!(
                "{name} is a match of {}, {first_name} of {}: only matches of the same game and players add up",
                m.players, first.players
            )));
        }
    }
    let mut out = String::new();
    let games: usize = matches.iter().map(|(_, m)| m.games.len()).sum();
    out.push_str(&format!("{} matches, {games} games: {}\n", matches.len(), first.players));
    for (name, m) in matches {
        let t = Tally::of(m.games.iter().map(|g| g.0)).expect("a match has games");
        out.push_str(&format!("  {name}: {}\n", t.headline()));
    }
    let all = || matches.iter().flat_map(|(_, m)| m.games.iter().copied());
    let tally = Tally::of(all().map(|g| g.0)).expect("games");
    out.push_str(&format!("all: {}\n", tally.headline()));
    out.push_str(&format!("Elo difference {}\n", tally.margin()));
    out.push_str(&format!("{}\n", by_colour(all())));
    let openings: HashSet<&str> =
        matches.iter().flat_map(|(_, m)| m.openings.iter().map(String::as_str)).collect();
    out.push_str(&format!("different openings: {}\n", openings.len()));
    Ok(out)
}

pub fn run(args: SumArgs) -> Result<(), CliError> {
    let mut matches = Vec::new();
    for file in &args.files {
        let name = file.display().to_string();
        let text = std::fs::read_to_string(file).map_err(CliError::read(file))?;
        matches.push((name.clone(), read_match(&name, &text)?));
    }
    print!("{}", summary(&matches)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str = "arena alquerque: A = hard, B = uct:8000, 4 games, default time, 2 random opening plies, seed 1, 2 threads\n\
game   2: A second 0-1 NoPieces                   56 plies  opening c2-c3 c4xc2\n  moves c2-c3 c4xc2 d2-c3\n  final x\n\
game   1: A first  1/2-1/2 NoCaptureLimit        104 plies  opening c2-c3 c4xc2\n\
game   3: A first  1-0 NoPieces                   40 plies  opening d2-c3 d4-d3\n\
game   4: A second 1/2-1/2 Repetition             40 plies  opening d2-c3 d4-d3\n\
A (hard) vs B (uct:8000): +2 =2 -0  score 75.0%\n";

    #[test]
    fn matches_add_up() {
        let two = ONE.replace("seed 1", "seed 2").replace("d2-c3 d4-d3", "b2-c3 b4-b3");
        let matches = vec![
            ("one".to_string(), read_match("one", ONE).unwrap()),
            ("two".to_string(), read_match("two", &two).unwrap()),
        ];
        let s = summary(&matches).unwrap();
        assert!(s.starts_with("2 matches, 8 games: alquerque: A = hard, B = uct:8000\n"), "{s}");
        assert!(s.contains("  one: +2 =2 -0  score 75.0%"), "{s}");
        assert!(s.contains("all: +4 =4 -0  score 75.0%  Elo +191 (95%: +"), "{s}");
        // A first: games 1 and 3 of each; A second: 2 and 4 (0-1 is A's win as second).
        assert!(s.contains("by colour: A first +2 =2 -0; A second +2 =2 -0"), "{s}");
        assert!(s.contains("different openings: 3\n"), "{s}");
    }

    #[test]
    fn what_does_not_add_up_is_refused() {
        let other = ONE.replace("B = uct:8000", "B = medium");
        let matches = vec![
            ("one".to_string(), read_match("one", ONE).unwrap()),
            ("two".to_string(), read_match("two", &other).unwrap()),
        ];
        let err = summary(&matches).unwrap_err().to_string();
        assert!(err.contains("two is a match of alquerque: A = hard, B = medium"), "{err}");
        assert!(read_match("x", "hello\n").unwrap_err().to_string().contains("x:1: not the output"));
        let quiet = ONE.lines().filter(|l| !l.starts_with("game")).collect::<Vec<_>>().join("\n");
        assert!(read_match("q", &quiet).unwrap_err().to_string().contains("--quiet"));
        let bad = ONE.replace("A first  1-0", "A first  ?");
        assert!(
            read_match("b", &bad).unwrap_err().to_string().contains("b:6: the game's result does not read")
        );
    }
}
