//! What `tabula play` reads, whatever arrives: a line that is not UTF-8 is
//! refused in words and the game goes on; a line that never ends (`/dev/zero`)
//! is read in bounded memory and ends the program in words. Through a pipe here;
//! on a terminal (the line editor) in `screens.rs`.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `tabula play ARGS` fed `input` as raw bytes; what it printed and its status.
fn play_bytes(args: &[&str], input: &[u8]) -> (String, String, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .arg("play")
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula play runs");
    crate::feed(child.stdin.take(), input);
    let out = child.wait_with_output().expect("tabula play ends");
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
        out.status.code(),
    )
}

#[test]
fn a_latin1_letter_is_refused_and_the_game_goes_on() {
    // X takes the centre, the computer answers, then a Latin-1 "é" (one byte,
    // 0xE9, not UTF-8) and then the corner 1.
    let (text, err, status) = play_bytes(
        &["tictactoe", "--seed", "1", "--ai", "random"],
        b"5\n\xe9\n1\n",
    );
    assert_eq!(status, Some(0), "{err}\n{text}");
    assert!(
        text.contains("Try again: that line is not text"),
        "no refusal in words:\n{text}"
    );
    assert!(
        !err.contains("UTF-8") && !err.contains("cannot read"),
        "{err}"
    );
    // The game went on: the move after the refused line was played.
    let refused = text.find("not text").unwrap();
    assert!(
        text[refused..].contains("3. X plays 1"),
        "the move after the refusal was not played:\n{text}"
    );
    // Every game reads its lines the same way: a 0xFF byte in Nim.
    let (text, _, status) = play_bytes(&["nim", "--human", "both"], b"\xff\xfe\n1:3->1\nquit\n");
    assert_eq!(status, Some(0), "{text}");
    assert!(
        text.contains("not text") && text.contains("1. Lucy"),
        "{text}"
    );
}

#[test]
fn an_overlong_line_is_refused_and_the_next_one_played() {
    let mut input = vec![b'x'; 100_000];
    input.extend(b"\n5\nquit\n");
    let (text, err, status) = play_bytes(&["tictactoe", "--human", "both"], &input);
    assert_eq!(status, Some(0), "{err}");
    assert!(text.contains("longer than 4096 characters"), "{text}");
    assert!(text.contains("1. X plays 5"), "{text}");
    // The refusal does not quote the line back.
    assert!(!text.contains("xxxxxxxxxx"), "the line was echoed");
}

#[test]
fn lines_that_are_all_unreadable_end_the_game_in_words() {
    let input = b"\xff\n".repeat(1000);
    let (_, err, status) = play_bytes(&["tictactoe"], &input);
    assert_eq!(status, Some(2), "{err}");
    assert!(
        err.starts_with("tabula: 20 lines in a row were not"),
        "{err}"
    );
}

/// The peak resident memory (`VmHWM`, bytes) of a running process; `None` once
/// it has ended. (`wait4`'s figure would not do: it counts the test process's
/// own memory, shared with the child until it runs `tabula`.)
fn peak_memory(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[test]
fn a_line_that_never_ends_stays_small_and_ends_in_words() {
    let zero = std::fs::File::open("/dev/zero").expect("/dev/zero");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["play", "tictactoe"])
        .stdin(zero)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula play runs");
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let drain = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    // The high-water mark, sampled until the program ends: a run that grows
    // without bound is seen passing the limit long before 60 s.
    let began = Instant::now();
    let mut peak = 0u64;
    let code = loop {
        if let Some(p) = peak_memory(child.id()) {
            peak = peak.max(p);
        }
        if let Some(status) = child.try_wait().expect("tabula waits") {
            break status.code();
        }
        if began.elapsed() > Duration::from_secs(60) || peak >= 100 << 20 {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "tabula play < /dev/zero after {:?}: peak {} MiB, still running",
                began.elapsed(),
                peak >> 20
            );
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let mut err = String::new();
    let _ = stderr.read_to_string(&mut err);
    let _ = drain.join();
    assert!(peak < 100 << 20, "peak memory {} MiB", peak >> 20);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("tabula: the input has a line of more than 1 MiB that does not end"),
        "{err}"
    );
}
