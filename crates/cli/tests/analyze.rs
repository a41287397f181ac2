//! `ludus-cli analyze --moves`: the moves are played first, so the search knows the game's
//! repetitions (in Latrunculi, whoever makes a threefold repetition loses).

use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus-cli")).args(args).output().expect("ludus-cli runs")
}

#[test]
fn moves_give_the_search_the_history() {
    // Both kings shuffle; d6-d7 would bring the start position back a third time and lose.
    let moves = "e2-e3 d7-d6 e3-e2 d6-d7 e2-e3 d7-d6 e3-e2";
    let out = cli(&["analyze", "latrunculi-quick", "--moves", moves, "--depth", "3"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let best = text.lines().find_map(|l| l.strip_prefix("bestmove ")).expect("a best move");
    assert_ne!(best, "d6-d7", "{text}");
    // The position reached is printed (Black to move, both kings back on d6 and e2).
    let reached = text.lines().find_map(|l| l.strip_prefix("position ")).expect("the position");
    assert_eq!(reached, "bbbbbbbb/8/3B4/8/8/8/4R3/rrrrrrrr b 7", "{text}");
    // An illegal move in the list: a clear error, exit code 1 (a failure, not a usage error).
    let out = cli(&["analyze", "latrunculi-quick", "--moves", "e2-e3 e3-e4", "--depth", "2"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("move 2 'e3-e4'"), "{out:?}");
}
