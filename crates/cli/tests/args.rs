//! The command line: `--help` everywhere exits 0; bad arguments print an error on standard
//! error and exit with code 2, failures of a command asked properly with code 1; a reader that stops early ends the command without a panic.

use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus-cli")).args(args).output().expect("ludus-cli runs")
}

#[test]
fn help_everywhere() {
    for args in [
        &["--help"][..],
        &["perft", "--help"],
        &["moves", "--help"],
        &["analyze", "--help"],
        &["arena", "--help"],
        &["bench", "--help"],
        &["tablebase", "--help"],
        &["tablebase", "build", "--help"],
        &["tablebase", "probe", "--help"],
        &["tablebase", "replay", "--help"],
        &["tablebase", "bench", "--help"],
        &["endgames", "--help"],
        &["tune", "--help"],
        &["endgames", "latrunculi", "--help"],
        &["endgames", "alquerque", "--help"],
        &["bots", "--help"],
        &["bot", "--help"],
    ] {
        let out = cli(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("Usage:"), "{args:?}");
    }
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &[][..],
        &["frobnicate"],
        &["perft", "latrunculi"],
        &["perft", "latrunculi", "65"],
        &["perft", "chess", "2"],
        &["perft", "alquerque", "2", "--bogus"],
        &["analyze", "alquerque", "--depth", "0"],
        &["analyze", "alquerque", "--level", "grandmaster"],
        &["arena", "alquerque", "--a", "hard", "--b", "easy"],
        &["arena", "alquerque", "--a", "hard", "--b", "uct:x", "--games", "2"],
        &["arena", "alquerque", "--a", "hard", "--b", "easy", "--games", "0"],
        &["arena", "alquerque", "--a", "hard", "--b", "easy", "--games", "2", "--set-a", "bogus=1"],
        &["arena", "alquerque", "--a", "hard", "--b", "easy", "--games", "2", "--set-a", "alq.bogus=1"],
        &["tablebase", "replay"],
        &["tune", "alquerque"],
        &["arena", "alquerque", "--a", "hard", "--b", "easy", "--games", "2", "--set-a", "lat.piece=1"],
        &["arena", "alquerque", "--a", "hard", "--b", "easy", "--games", "2", "--set-a", "draw_hope=x"],
        &["arena", "alquerque", "--a", "uct:10", "--b", "easy", "--games", "2", "--set-a", "draw_hope=1"],
        &["arena", "latrunculi", "--a", "hard", "--b", "easy", "--games", "2", "--tablebase", "x"],
        &["arena", "alquerque", "--a", "hard", "--b", "easy", "--games", "2", "--max-plies", "0"],
        &["arena", "alquerque", "--a", "hard", "--b", "easy", "--games", "2", "--set-a", "opening_plies=-1"],
        &["bots", "--server", "nowhere"],
        &["bot", "--server", "127.0.0.1:5000"],
        &["bot", "--server", "127.0.0.1:5000", "--quick", "alquerque", "--join", "ABCDEF"],
    ] {
        let out = cli(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

/// A command asked properly that fails (a bad position or move, a missing file): one line on
/// standard error and exit code 1, not clap's 2.
#[test]
fn failures_exit_1() {
    for args in [
        &["moves", "alquerque", "--position", "BBBBB/BBBBB w"][..],
        &["analyze", "alquerque", "--moves", "a1-a2"],
        &["endgames", "latrunculi", "--suite", "/nonexistent/suite.txt"],
        &["endgames", "alquerque", "--tablebase", "/nonexistent/tables"],
    ] {
        let out = cli(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "{args:?}: {out:?}");
    }
}

/// Output read only in part (`ludus-cli arena ... | head`) ends the command as the closed pipe
/// ends any Unix tool: by the signal, with no panic on standard error.
#[cfg(unix)]
#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    // Far more than a pipe holds (64 KiB), so that the command must still write once the
    // reader is gone, however fast it runs.
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus-cli"))
        .args(["arena", "alquerque", "--a", "random", "--b", "random", "--games", "600", "--moves"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ludus-cli runs");
    let mut first = [0u8; 16];
    child.stdout.take().expect("its output").read_exact(&mut first).expect("the first bytes");
    assert_eq!(&first, b"arena alquerque:");
    let mut errors = String::new();
    child.stderr.take().expect("its errors").read_to_string(&mut errors).expect("standard error");
    let status = child.wait().expect("it ends");
    assert_eq!(status.signal(), Some(13), "ended by SIGPIPE: {status:?}\n{errors}");
    assert!(errors.is_empty(), "{errors}");
}
