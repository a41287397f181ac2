//! `arena --moves` records feed `tune`, `tablebase replay` and `sum`; with endgame tables,
//! `arena` says how the games went once they reached them; at a node count a match repeats
//! itself move for move.

use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus-cli")).args(args).output().expect("ludus-cli runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The number after `word` in `line` (`"drawn 3"` -> 3).
fn after(line: &str, word: &str) -> usize {
    let at = line.find(word).unwrap_or_else(|| panic!("'{word}' in '{line}'")) + word.len();
    line[at..].trim_start().split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
}

#[test]
fn arena_records_tune_the_evaluation_and_the_tables_follow_each_game() {
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/tablebases");
    let out = cli(&[
        "arena",
        "alquerque",
        "--a",
        "hard",
        "--b",
        "easy",
        "--games",
        "6",
        "--nodes",
        "3000",
        "--threads",
        "1",
        "--tablebase",
        tables,
        "--moves",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    let line = text.lines().find(|l| l.starts_with("tables: ")).expect("a tables line");
    let reached =
        after(line, "A winning") + after(line, ", drawn") + after(line, "A losing") + after(line, "never");
    assert_eq!(reached, 6, "{line}");
    // The score by colour: three games each, adding up to the match's W-D-L.
    let colours = text.lines().find(|l| l.starts_with("by colour: ")).expect("a by-colour line");
    let (first, second) = colours.split_once(';').expect("two colours");
    let wdl = |part: &str| -> [usize; 3] { [after(part, "+"), after(part, "="), after(part, "-")] };
    let (f, s) = (wdl(first), wdl(second));
    assert_eq!((f.iter().sum::<usize>(), s.iter().sum::<usize>()), (3, 3), "{colours}");
    let total = text.lines().find(|l| l.starts_with("A (hard) vs B (easy): ")).expect("a score line");
    assert_eq!(wdl(total.split_once(": ").unwrap().1), [f[0] + s[0], f[1] + s[1], f[2] + s[2]], "{total}");

    let dir = std::env::temp_dir().join(format!("ludus-tune-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.txt");
    std::fs::write(&record, &text).unwrap();
    let record = record.to_str().unwrap();

    // Replaying the record through the same tables says the same as the arena did.
    let replay = cli(&["tablebase", "replay", "--dir", tables, record]);
    assert_eq!(replay.status.code(), Some(0), "{}", String::from_utf8_lossy(&replay.stderr));
    let replayed = stdout(&replay);
    assert!(replayed.starts_with("6 games, tables of up to 4 pieces"), "{replayed}");
    assert!(replayed.lines().any(|l| l == line), "{replayed}\n{line}");
    // The match summed with itself: twice the games, the same score and colours.
    let sum = cli(&["sum", record, record]);
    assert_eq!(sum.status.code(), Some(0), "{}", String::from_utf8_lossy(&sum.stderr));
    let summed = stdout(&sum);
    assert!(summed.starts_with("2 matches, 12 games: alquerque: A = hard, B = easy\n"), "{summed}");
    let all = summed.lines().find(|l| l.starts_with("all: ")).expect("a total");
    assert_eq!(wdl(all), [2 * (f[0] + s[0]), 2 * (f[1] + s[1]), 2 * (f[2] + s[2])], "{all}");
    let score =
        |l: &str| l.split_once("score ").expect("a score").1.split_whitespace().next().unwrap().to_string();
    assert_eq!(score(all), score(total), "{summed}");
    let out = cli(&["tune", "alquerque", record, "--passes", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    let error = |prefix: &str| -> f64 {
        let l = text.lines().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("{prefix} in {text}"));
        let at = l.find("error ").unwrap() + 6;
        l[at..].split_whitespace().next().unwrap().parse().unwrap()
    };
    assert!(error("tuned:") <= error("tune alquerque:"), "{text}");
    // The weights it prints are ones arena takes.
    let sets = text.lines().find_map(|l| l.strip_prefix("arena:")).expect("an arena line");
    let mut args =
        vec!["arena", "alquerque", "--a", "hard", "--b", "random", "--games", "1", "--depth", "1", "--quiet"];
    args.extend(sets.split_whitespace());
    assert_eq!(cli(&args).status.code(), Some(0), "{sets}");

    // Labelled by the tables: only the positions above their size are tuned on, so fewer.
    let count = |text: &str| -> usize {
        let l = text.lines().next().unwrap();
        after(l, "tune alquerque:") + after(l, "tune on,")
    };
    let labelled =
        cli(&["tune", "alquerque", record, "--passes", "1", "--tablebase", tables, "--above", "4"]);
    assert_eq!(labelled.status.code(), Some(0), "{}", String::from_utf8_lossy(&labelled.stderr));
    assert!(count(&stdout(&labelled)) < count(&text), "{}", stdout(&labelled));
    assert_eq!(cli(&["tune", "latrunculi", record, "--tablebase", tables]).status.code(), Some(2));

    // A record that does not replay is refused, with where it is.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "game   1: A first  1-0\n  moves d2-c3 a1-a5\n").unwrap();
    let out = cli(&["tune", "alquerque", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.txt:1") && err.contains("a1-a5"), "{err}");
    // No games at all, or a file that is not there.
    std::fs::write(&bad, "nothing here\n").unwrap();
    assert_eq!(cli(&["tune", "alquerque", bad.to_str().unwrap()]).status.code(), Some(1));
    assert_eq!(cli(&["tune", "alquerque", dir.join("missing.txt").to_str().unwrap()]).status.code(), Some(1));
    assert_eq!(cli(&["tune", "alquerque", record, "--set", "alq.bogus=1"]).status.code(), Some(2));
    assert_eq!(cli(&["tablebase", "replay", "--dir", tables, bad.to_str().unwrap()]).status.code(), Some(1));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn latrunculi_records_tune_latrunculi_weights() {
    let out = cli(&[
        "arena",
        "latrunculi-quick",
        "--a",
        "medium",
        "--b",
        "easy",
        "--games",
        "2",
        "--threads",
        "1",
        "--moves",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let dir = std::env::temp_dir().join(format!("ludus-tune-lat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.txt");
    std::fs::write(&record, stdout(&out)).unwrap();
    let out = cli(&["tune", "latrunculi-quick", record.to_str().unwrap(), "--passes", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert!(text.contains("lat.king_threat") && !text.contains("alq."), "{text}");
    // The same record does not replay as Alquerque.
    assert_eq!(cli(&["tune", "alquerque", record.to_str().unwrap()]).status.code(), Some(1));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn arena_stops_games_at_max_plies_and_counts_their_lines() {
    let out = cli(&[
        "arena",
        "alquerque",
        "--a",
        "hard",
        "--b",
        "hard",
        "--games",
        "4",
        "--depth",
        "2",
        "--threads",
        "1",
        "--opening-plies",
        "0",
        "--max-plies",
        "12",
        "--moves",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert!(text.lines().next().unwrap().contains("games stopped after 12 plies"), "{text}");
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 4, "{text}");
    for g in &games {
        assert!(g.contains("adjudicated after 12 plies") && g.contains("  12 plies"), "{g}");
    }
    for moves in text.lines().filter_map(|l| l.strip_prefix("  moves ")) {
        assert_eq!(moves.split(' ').count(), 12, "{moves}");
    }
    let summary = text.lines().find(|l| l.starts_with("Elo difference")).expect("a summary");
    let lines = after(summary, "plies;");
    assert!((1..=4).contains(&lines), "{summary}");
    assert!(text.contains("+0 =4 -0"), "{text}");
}

/// Each game of an `arena --moves` output: its number, with its result line and its moves.
fn games(text: &str) -> Vec<(usize, String)> {
    let mut games: Vec<(usize, String)> = Vec::new();
    for line in text.lines() {
        if line.starts_with("game ") {
            games.push((after(line, "game"), format!("{line}\n")));
        } else if line.starts_with("  ") {
            games.last_mut().expect("a game line before its moves").1.push_str(&format!("{line}\n"));
        }
    }
    games.sort();
    games
}

#[test]
fn a_match_at_a_node_count_repeats_itself_move_for_move() {
    // What comparing two versions game by game rests on: with `--nodes` and no time, nothing
    // in a match depends on the clock, so it plays the same games however many run at once.
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/tablebases");
    let run = |threads: &str| {
        let words =
            "arena alquerque --a hard --b uct:300 --games 4 --nodes 4000 --max-plies 60 --seed 3 --moves";
        let args: Vec<&str> =
            words.split_whitespace().chain(["--threads", threads, "--tablebase", tables]).collect();
        let out = cli(&args);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        games(&stdout(&out))
    };
    let one = run("1");
    assert_eq!(one.iter().map(|g| g.0).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert!(one.iter().all(|g| g.1.contains("\n  moves ")), "{one:?}");
    assert_eq!(run("2"), one, "the same games with two at once");
    assert_eq!(run("1"), one, "the same games a second time");
}
