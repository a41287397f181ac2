//! `ludus-cli tablebase build` and `probe`, and `analyze --tablebase`, run as a user would.

use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus-cli")).args(args).output().expect("ludus-cli runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn build_then_probe() {
    let dir = std::env::temp_dir().join(format!("ludus-cli-tb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let out = cli(&["tablebase", "build", "--max-pieces", "4", "--out", d]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.contains("alq-2v2.ltb"), "{text}");
    assert!(text.lines().last().unwrap().starts_with("total: 191,500 positions"), "{text}");
    for name in ["alq-1v1.ltb", "alq-1v3.ltb", "alq-3v1.ltb", "alq-2v2.ltb"] {
        assert!(dir.join(name).exists(), "{name}");
    }

    let out = cli(&["tablebase", "probe", "--position", "5/5/2B2/1W3/W4 w", "--dir", d]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout(&out).trim(), "White wins in 1 ply, best move b2xd4");

    // Run again on one thread: every table is kept.
    let out = cli(&["tablebase", "build", "--max-pieces", "4", "--out", d, "--threads", "1"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert_eq!(text.matches("(kept, checked)").count(), 6, "{text}");

    // The benchmark times the 4-piece tables both ways, which agree.
    let out = cli(&["tablebase", "bench", "--dir", d, "--probes", "2000"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.starts_with("tables of 4 pieces in ") && text.contains("1v3 2v2 3v1"), "{text}");
    for line in
        ["2,000 probes of random positions, in memory:", "2,000 probes of random positions, streamed:"]
    {
        assert!(text.contains(line), "{text}");
    }

    let out = cli(&["tablebase", "probe", "--position", "5/5/5/1W3/W4 b", "--dir", d]);
    assert_eq!(stdout(&out).trim(), "White wins in 0 plies: the game is over (1-0 NoPieces)");

    let out =
        cli(&["analyze", "alquerque", "--position", "5/5/2B2/1W3/W4 w", "--depth", "3", "--tablebase", d]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.contains("bestmove b2xd4") && text.contains("tablebase White wins in 1 ply"), "{text}");

    // Not covered, corrupt, bad input: one line on stderr, exit code 1 (2 for usage errors).
    let five = "5/1B1B1/5/1W1W1/W4 w";
    let out = cli(&["tablebase", "probe", "--position", five, "--dir", d]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not covered"), "{out:?}");
    let bytes = std::fs::read(dir.join("alq-2v2.ltb")).unwrap();
    std::fs::write(dir.join("alq-2v2.ltb"), &bytes[..bytes.len() - 3]).unwrap();
    let out = cli(&["tablebase", "probe", "--position", "5/1B1B1/5/1W1W1/5 w", "--dir", d]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("truncated") && err.lines().count() == 1, "{err}");
    for args in [
        &["tablebase", "build", "--max-pieces", "1"][..],
        &["tablebase", "build"],
        &["tablebase", "frobnicate"],
    ] {
        let out = cli(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
    let out = cli(&["tablebase", "probe", "--position", "5/5/5/5 w"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(!out.stderr.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
