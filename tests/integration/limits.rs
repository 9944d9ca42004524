//! Budgets and bounds as a user meets them on the command line: output into a closed
//! pipe, memory limits, bad sizes.

use std::process::{Command, Stdio};

/// Runs `tabula args` with its output going into a pipe whose reader is already gone:
/// every write fails with "broken pipe".
fn into_closed_pipe(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula runs");
    drop(child.stdout.take());
    child.wait_with_output().expect("tabula ends")
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    for args in [
        &["games"][..],
        &["games", "--json"],
        &["solve", "tictactoe"],
        &["solve", "tictactoe", "--json"],
        &["count", "mu-torere"],
        &["analyze", "nim", "--position", "3 4 5"],
        &[
            "train",
            "hexapawn",
            "--games",
            "20",
            "--opponent",
            "random",
            "--json",
        ],
    ] {
        let out = into_closed_pipe(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "tabula {args:?}: {:?} {err}",
            out.status
        );
        assert!(!err.contains("panicked"), "tabula {args:?}: {err}");
        assert!(err.is_empty(), "tabula {args:?} wrote to stderr: {err}");
    }
}
