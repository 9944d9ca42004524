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

fn tabula(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .output()
        .expect("tabula runs")
}

#[test]
fn solves_beyond_the_memory_budget_are_refused_at_once() {
    for args in [
        &["solve", "northcott"][..],
        &["solve", "nim", "--variant", "heaps=300-300-300"],
        &[
            "solve",
            "nim",
            "--variant",
            "heaps=3-4-5",
            "--max-memory",
            "4K",
        ],
    ] {
        let started = std::time::Instant::now();
        let out = tabula(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "tabula {args:?}: {err}");
        assert!(err.starts_with("tabula: "), "{err}");
        assert!(err.contains("memory limit"), "{err}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "tabula {args:?} took {:?}",
            started.elapsed()
        );
    }
    // A larger budget lets the small one through.
    let out = tabula(&[
        "solve",
        "nim",
        "--variant",
        "heaps=3-4-5",
        "--max-memory",
        "64M",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["figures"]["positions"]
            .as_u64()
            .is_some_and(|n| n > 100 && n <= 240),
        "{v}"
    );
    // A size that is not one.
    let out = tabula(&["solve", "nim", "--max-memory", "lots"]);
    assert_eq!(out.status.code(), Some(2));
}
