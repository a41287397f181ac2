//! `ludus-cli solve` and `solve --check`, run as a user would.

use ludus_rules::GamePosition as _;
use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus-cli")).args(args).output().expect("ludus-cli runs")
}

/// `ludus-cli` with the words of `line`, then `extra` (paths).
fn cli_words(line: &str, extra: &[&str]) -> Output {
    cli(&line.split_whitespace().chain(extra.iter().copied()).collect::<Vec<_>>())
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn solve_resume_and_check() {
    let dir = std::env::temp_dir().join(format!("ludus-cli-solve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let tables = path("tb3");
    assert!(cli(&["tablebase", "build", "--max-pieces", "3", "--out", &tables]).status.success());
    let (state, cert) = (path("s.state"), path("s.cert"));
    let pos = "2W2/3W1/B4/2B2/5 w";
    let args = |max: &'static str| {
        vec!["solve", "--position", pos, "--tables", &tables, "--state", &state, "--certificate", &cert]
            .into_iter()
            .chain(["--max-nodes", max])
            .map(str::to_string)
            .collect::<Vec<String>>()
    };
    let run = |a: Vec<String>| cli(&a.iter().map(String::as_str).collect::<Vec<_>>());
    // A small budget first: unknown, and a state to continue from.
    let out = run(args("1000"));
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(
        text.contains("no-capture counter is ignored") && text.contains("unknown within the budget"),
        "{text}"
    );
    let out = run(args("1000000"));
    let text = stdout(&out);
    assert!(text.contains("state ") && text.contains("draw (proven"), "{text}");
    assert!(text.contains("certificate: "), "{text}");

    let out = cli(&["solve", "--check", &cert, "--tables", &tables]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).contains("certificate valid: draw"), "{out:?}");

    // A changed file, a truncated one, one checked without its tables: exit code 1, one line.
    let text = std::fs::read_to_string(&cert).unwrap();
    let bad = path("bad.cert");
    std::fs::write(&bad, text.replacen(" = ", " =  ", 1)).unwrap();
    let out = cli(&["solve", "--check", &bad, "--tables", &tables]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("checksum"), "{out:?}");
    std::fs::write(&bad, &text[..text.len() / 3]).unwrap();
    let out = cli(&["solve", "--check", &bad, "--tables", &tables]);
    assert_eq!(out.status.code(), Some(1));
    let out = cli(&["solve", "--check", &cert]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "{out:?}");

    // --children: every first move gets a value.
    let out = cli(&[
        "solve",
        "--position",
        "5/2W2/1B3/3W1/1B3 w",
        "--tables",
        &tables,
        "--children",
        "--certificate",
        &path("c.cert"),
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.contains("first moves of") && text.contains("  d2-d3 "), "{text}");

    // --book: the position and its keeping moves, in a file the game reads; a damaged file is
    // refused by the arena with one line.
    let book = path("b.lbk");
    let out = cli_words(
        "solve --book-plies 3 --position",
        &[pos, "--tables", &tables, "--certificate", &cert, "--book", &book],
    );
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.contains("book: ") && text.contains("draws"), "{text}");
    let bytes = std::fs::read(&book).unwrap();
    let read = ludus_ai::solve::book::Book::from_bytes(&bytes, "b").unwrap();
    let root = ludus_rules::alquerque::Position::parse(pos).unwrap();
    assert_eq!(read.get(&root).map(|e| e.value), Some(ludus_ai::solve::Value::Draw));
    let out = cli(&["solve", "--check", &cert, "--tables", &tables, "--compare-book", &book]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).contains("agree with them"), "{out:?}");

    // --prove-book from an empty state, then its check; a proof without its book, or checked
    // against another book, is refused.
    let proof = path("b.proof");
    let out = cli(&["solve", "--prove-book", &book, "--tables", &tables, "--certificate", &proof]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).contains("proof: "), "{out:?}");
    let out = cli(&["solve", "--check", &proof, "--tables", &tables, "--compare-book", &book]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).contains(&format!("all {} entries backed", read.len())), "{out:?}");
    let out = cli(&["solve", "--check", &proof, "--tables", &tables]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--compare-book"), "{out:?}");
    // Without solving and without a state, nothing backs any entry: all are left out, and the
    // proof is of the empty book written beside it.
    let empty = path("empty.proof");
    let out = cli(&[
        "solve",
        "--prove-book",
        &book,
        "--tables",
        &tables,
        "--book-solve-nodes",
        "0",
        "--certificate",
        &empty,
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).contains("could not be backed"), "{out:?}");
    let left = format!("{empty}.lbk");
    let out = cli(&["solve", "--check", &empty, "--tables", &tables, "--compare-book", &left]);
    assert!(stdout(&out).contains("all 0 entries backed"), "{out:?}");
    let other = path("other.lbk");
    let fewer = ludus_ai::solve::book::Book::from_entries(read.entries()[1..].iter().copied());
    std::fs::write(&other, fewer.to_bytes()).unwrap();
    let out = cli(&["solve", "--check", &proof, "--tables", &tables, "--compare-book", &other]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("another book"), "{out:?}");

    let mut bad = bytes.clone();
    bad[20] ^= 1;
    std::fs::write(path("bad.lbk"), &bad).unwrap();
    let out = cli_words("arena alquerque --a hard --b random --games 2 --book", &[&path("bad.lbk")]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("checksum"), "{out:?}");

    // --keeping: A's moves in an arena's games, judged.
    let out = cli_words(
        "arena alquerque --a hard --b random --games 2 --nodes 2000 --opening-plies 0 --max-plies 12 --moves --book",
        &[&book],
    );
    assert!(out.status.success(), "{out:?}");
    let games = path("games.txt");
    std::fs::write(&games, &out.stdout).unwrap();
    let out = cli(&["solve", "--keeping", &games, "--tables", &tables, "--book-solve-nodes", "2000"]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).contains("positions judged "), "{out:?}");
    // The random opening's moves are nobody's choice: a game of nothing else has none judged.
    let moves = "d3-c3 b3xd3 e3xc3 d4-d3";
    for (opening, judged) in [(moves, "positions judged 0:"), ("", "positions judged 1:")] {
        let game =
            format!("game   1: A first  1/2-1/2 Repetition  4 plies  opening {opening}\n  moves {moves}\n");
        std::fs::write(&games, game).unwrap();
        let out = cli(&["solve", "--keeping", &games, "--tables", &tables, "--book-solve-nodes", "2000"]);
        assert!(out.status.success() && stdout(&out).contains(judged), "opening '{opening}': {out:?}");
    }

    for args in [
        &["solve", "--position", "xx w"][..],
        &["solve", "--keeping", "/nonexistent-file"],
        &["solve", "--state", "/nonexistent-dir/x", "--max-nodes", "1"],
        &["solve", "--check", "/nonexistent-file"],
    ] {
        let out = cli(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
