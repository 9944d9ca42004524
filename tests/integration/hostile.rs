//! The command line attacked as a hostile user would: damaged saved games, files
//! that never end, FIFOs and devices, escape codes and huge arguments. Every
//! attack ends quickly with `tabula: <message>` and exit 2, never a panic, a
//! hang or a replaced file.

use crate::cli::play;
use serde_json::{json, Value};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Longer than any of these commands needs; a command still running then is
/// stuck (reading `/dev/zero`, waiting on a FIFO) and is killed.
const STUCK_AFTER: Duration = Duration::from_secs(60);

/// Runs `tabula` with stdin closed; `None` when it had to be killed.
fn run<S: AsRef<OsStr>>(args: &[S]) -> Option<Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula runs");
    let began = Instant::now();
    while child.try_wait().expect("tabula waits").is_none() {
        if began.elapsed() > STUCK_AFTER {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Some(child.wait_with_output().expect("tabula ends"))
}

/// The command was refused as the CLI refuses bad input: exit 2 and one plain
/// `tabula: …` message of bounded length, without escape codes or a panic.
fn refused<S: AsRef<OsStr> + std::fmt::Debug>(args: &[S]) -> String {
    let out = run(args).unwrap_or_else(|| panic!("{args:?}: still running after {STUCK_AFTER:?}"));
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("tabula: "), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(
        err.chars().count() < 2100,
        "{args:?}: {} characters",
        err.len()
    );
    assert!(
        !out.stderr.contains(&0x1b),
        "{args:?}: escape codes in {err:?}"
    );
    err
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A saved two-player game: X took the centre, O a corner.
fn saved_game() -> Value {
    // A file of each caller's own: tests run at once, and one reading the file
    // while another rewrites it read half a game.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = scratch(&format!("valid-{n}.json"));
    let (out, _) = play(
        &["tictactoe", "--human", "both", "--save", path_str(&file)],
        "5\n1\nquit\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap()
}

fn resume(record: &Value, name: &str) -> String {
    let file = scratch(name);
    std::fs::write(&file, serde_json::to_string(record).unwrap()).unwrap();
    refused(&["play", "tictactoe", "--resume", path_str(&file)])
}

#[test]
fn a_saved_game_with_resigned_99_is_refused_not_a_panic() {
    let mut record = saved_game();
    record["resigned"] = json!(99);
    let err = resume(&record, "resigned.json");
    assert!(err.contains("player 100 resigned"), "{err}");
    assert!(err.contains("Tic-tac-toe has 2 players"), "{err}");
}

#[test]
fn every_damaged_field_of_a_saved_game_is_refused_with_a_message() {
    let valid = saved_game();
    let mut deep = json!(1);
    for _ in 0..500 {
        deep = json!([deep]);
    }
    let cases: Vec<(&str, Value, &str)> = vec![
        ("/resigned", json!(-1), "not a saved Tabula game"),
        ("/resigned", json!(2), "resigned"),
        ("/resigned", json!(u64::MAX), "resigned"),
        ("/resigned", json!("X"), "not a saved Tabula game"),
        ("/resigned", json!(1e300), "not a saved Tabula game"),
        ("/tally/wins", json!([0, 0, 0]), "scores"),
        ("/tally/wins", json!([u64::MAX, 1]), "scores"),
        ("/tally/games", json!(5), "scores"),
        ("/learned", json!([null, null, null]), "learned"),
        (
            "/learned",
            json!([{"format": "tabula-matchbox-1"}]),
            "learned",
        ),
        (
            "/config/players",
            json!(["human", "human", "human"]),
            "3 players",
        ),
        ("/config/players", json!(["human", "level:101"]), "level"),
        ("/config/players", json!(["\u{1b}[2J", "human"]), "player 1"),
        ("/config/seed", json!(-1), "not a saved Tabula game"),
        ("/config/undo_depth", json!(1u64 << 40), "undo depth"),
        ("/config/position", json!("banana"), "position"),
        ("/moves", json!([{"move": "5"}, {"move": "5"}]), "move 2"),
        (
            "/moves",
            json!(vec![json!({"move": "1"}); 30_000]),
            "30000 moves",
        ),
        ("/moves/0/move", json!("9".repeat(100_000)), "move 1"),
        (
            "/moves/0",
            json!({"move": "5", "reason": "\u{1b}[2Jgone"}),
            "move 1",
        ),
        ("/game", json!("\u{1b}[31mchess"), "game name"),
        ("/game", json!(""), "game"),
        ("/variant", json!("size=4"), "size"),
        (
            "/current",
            json!({"started_ms": 0, "seconds": -1.0}),
            "time",
        ),
        ("/learned", deep, "not a saved Tabula game"),
        ("", json!([]), "not a saved Tabula game"),
        ("", json!("tictactoe"), "not a saved Tabula game"),
    ];
    for (at, value, says) in cases {
        let mut record = valid.clone();
        match record.pointer_mut(at) {
            Some(slot) => *slot = value,
            None => panic!("{at} is not in the saved game"),
        }
        let err = resume(&record, "damaged.json");
        assert!(err.contains(says), "{at}: wanted '{says}' in {err}");
    }
    for missing in ["moves", "config", "game"] {
        let mut record = valid.clone();
        record.as_object_mut().unwrap().remove(missing);
        let err = resume(&record, "missing.json");
        assert!(err.contains("missing field"), "{missing}: {err}");
    }
}

#[test]
fn files_that_never_end_are_refused_at_once() {
    for args in [
        &["play", "tictactoe", "--resume", "/dev/zero"][..],
        &["train", "tictactoe", "--load", "/dev/zero"],
        &["solve", "samegame", "--board", "/dev/zero"],
        &["play", "tictactoe", "--resume", "/"],
        &["play", "tictactoe", "--save-as", "x", "--db", "/dev/zero"],
        &["serve", "--db", "/dev/zero", "--addr", "127.0.0.1:0"],
    ] {
        let err = refused(args);
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
    }
    let fifo = scratch("fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let err = refused(&["play", "tictactoe", "--resume", path_str(&fifo)]);
    assert!(err.contains("not a regular file"), "{err}");
}

#[test]
fn huge_files_are_refused_naming_the_limit() {
    // Sparse: a gigabyte that takes no disk, read at most 64 MiB + 1 byte far.
    let big = scratch("huge.json");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    for (args, limit) in [
        (&["play", "tictactoe", "--resume", path_str(&big)][..], 64),
        (&["train", "tictactoe", "--load", path_str(&big)], 64),
        (&["solve", "samegame", "--board", path_str(&big)], 8),
    ] {
        let err = refused(args);
        assert!(
            err.contains(&format!("the file is larger than {limit} MiB")),
            "{args:?}: {err}"
        );
    }
    std::fs::remove_file(&big).ok();
}

#[test]
fn a_save_never_replaces_something_that_is_not_a_file() {
    let fifo = scratch("save-fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let (out, _) = play(
        &["tictactoe", "--human", "both", "--save", path_str(&fifo)],
        "quit\n",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("not a regular file"), "{err}");
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced by the save");
}

#[test]
fn odd_arguments_get_short_plain_messages() {
    use std::os::unix::ffi::OsStrExt;
    refused(&["play", "\u{1b}[31mred"]);
    refused(&["play", "tictactoe", "--human", "\u{1b}[2J"]);
    refused(&[
        "solve",
        "nim",
        "--variant",
        &format!("heaps={}1", "1-".repeat(50_000)),
    ]);
    refused(&["cgt", &"(".repeat(100_000)]);
    refused(&["analyze", "tictactoe", "--position", &"X".repeat(100_000)]);
    refused(&["play", "tictactoe", "--games", "0"]);
    refused(&["train", "tictactoe", "--games", "1000000000000"]);
    refused(&[
        "simulate",
        "tictactoe",
        "--players",
        "random,random",
        "--games",
        "0",
    ]);
    refused(&["play", "tictactoe", "--undo-depth", "1000000"]);
    refused(&["solve", "samegame", "--variant", "size="]);
    // Invalid UTF-8 and overflowing numbers are clap's to refuse (its own wording).
    for args in [
        vec![OsStr::new("play"), OsStr::from_bytes(b"tic\xfftactoe")],
        vec![
            OsStr::new("play"),
            OsStr::new("tictactoe"),
            OsStr::new("--seed"),
            OsStr::new("18446744073709551616"),
        ],
        vec![
            OsStr::new("play"),
            OsStr::new("tictactoe"),
            OsStr::new("--undo-depth"),
            OsStr::new("-1"),
        ],
    ] {
        let out = run(&args).expect("ends");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
}
