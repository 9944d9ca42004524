//! Every game fits an 80-column terminal (issue 22): the play screen and its
//! `help`, `moves` and `hint`, `analyze`, `solve` (puzzles included), `count`
//! and `tabula games`, each run with `COLUMNS=80` and every line checked.
//! Remoteness that is only a bound says so, in words and in JSON.

use super::cli::json;
use std::process::{Command, Output, Stdio};

const WIDTH: usize = 80;

fn run(args: &[&str], input: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .env("COLUMNS", WIDTH.to_string())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula runs");
    crate::feed(child.stdin.take(), input.unwrap_or("").as_bytes());
    child.wait_with_output().expect("tabula ends")
}

/// The lines of `text` wider than [`WIDTH`] columns, with their width.
fn too_wide(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.chars().count() > WIDTH)
        .map(|l| format!("{} columns: {l}", l.chars().count()))
        .collect()
}

/// Runs `args` and checks every line of what it printed.
fn fits(args: &[&str], input: Option<&str>, problems: &mut Vec<String>) {
    let out = run(args, input);
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        problems.push(format!(
            "tabula {}: failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    if text.trim().is_empty() {
        problems.push(format!("tabula {}: printed nothing", args.join(" ")));
    }
    for line in too_wide(&text) {
        problems.push(format!("tabula {}: {line}", args.join(" ")));
    }
}

/// Every registered game in the variant it declares quick to play, solve and
/// analyse ([`tabula_core::TestCases::quick`]; the usual game otherwise).
fn quick_games() -> Vec<(&'static str, &'static str)> {
    tabula_engine::registry()
        .into_iter()
        .map(|e| (e.name, (e.test_cases)().quick.unwrap_or("")))
        .collect()
}

#[test]
fn every_game_fits_80_columns() {
    let mut problems = Vec::new();
    fits(&["games"], None, &mut problems);
    // Every registered game, so a new game is checked too; searches get a second.
    for (game, variant) in quick_games() {
        let v = ["--variant", variant];
        let mut solve = vec!["solve", game];
        solve.extend(v);
        solve.extend(["--seconds", "1"]);
        fits(&solve, None, &mut problems);
        fits(
            &["analyze", game, "--variant", variant],
            None,
            &mut problems,
        );
        fits(
            &["play", game, "--variant", variant, "--human", "both"],
            Some("help\nmoves\nhint\nquit\n"),
            &mut problems,
        );
    }
    // The full boards: Auto120's four markers and Northcott's 16x4 (the
    // 700-character list of moves) on the play screen.
    for (game, variant) in [
        ("auto120", ""),
        ("northcott", ""),
        ("samegame", "size=20x15"),
    ] {
        fits(
            &["play", game, "--variant", variant, "--human", "both"],
            Some("help\nmoves\nhint\nquit\n"),
            &mut problems,
        );
        fits(
            &["analyze", game, "--variant", variant],
            None,
            &mut problems,
        );
    }
    for game in ["tictactoe", "mu-torere"] {
        fits(&["count", game], None, &mut problems);
    }
    fits(
        &["train", "tictactoe", "--games", "200", "--block", "20"],
        None,
        &mut problems,
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checker_catches_a_wide_line() {
    // The test above can fail: a line of 81 columns is reported.
    assert_eq!(too_wide(&format!("ok\n{}\n", "x".repeat(81))).len(), 1);
    assert!(too_wide(&"x".repeat(80)).is_empty());
}

#[test]
fn a_remoteness_that_is_a_bound_says_so() {
    // Northcott 16x4 is too large to count plies exactly: the nim-sum rule gives
    // the result and only a bound on the plies.
    let out = run(&["analyze", "northcott"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("a loss for O in at most 112 plies"), "{text}");
    assert!(!text.contains("a loss for O in 112 plies"), "{text}");
    assert!(text.contains("≤ 112"), "{text}");
    let v = json(&["analyze", "northcott", "--json"]);
    assert_eq!(v["version"], 1, "{v}");
    assert_eq!(v["value"]["kind"], "solved", "{v}");
    assert_eq!(v["value"]["remoteness"]["kind"], "at_most", "{v}");
    assert_eq!(v["value"]["remoteness"]["plies"], 112, "{v}");
    assert_eq!(
        v["moves"][0]["grade"]["remoteness"]["kind"], "at_most",
        "{v}"
    );
    // A board small enough to solve says the exact number, with no bound.
    let out = run(&["analyze", "northcott", "--variant", "size=6x3"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("a win for O in 17 plies"), "{text}");
    assert!(!text.contains("at most") && !text.contains('≤'), "{text}");
    let v = json(&["analyze", "northcott", "--variant", "size=6x3", "--json"]);
    assert_eq!(v["value"]["remoteness"]["kind"], "exact", "{v}");
    assert_eq!(v["value"]["remoteness"]["plies"], 17, "{v}");
}

#[test]
fn a_hint_names_its_move_and_auto120_shows_no_reference_tables() {
    let out = run(
        &["play", "nim", "--variant", "heaps=1-2", "--human", "both"],
        Some("hint\nquit\n"),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Hint: Play 2:2->1 (take 1 from heap 2, leaving 1): it wins in 3 plies"),
        "{text}"
    );
    // Poggle's hint reads as sentences and a grid, not a dump of fields.
    let out = run(
        &["play", "poggle", "--variant", "size=3", "--human", "both"],
        Some("hint\nquit\n"),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Hint: Play "), "{text}");
    assert!(text.contains("Presses:"), "{text}");
    assert!(
        !text.contains("Hint presses") && !text.contains("Fewest:"),
        "{text}"
    );
    // Auto120: the chances, not 75 lines of the board's reference tables, and no
    // "no exact solution" remark next to exact chances. (With one marker every
    // move is forced and played for the player: two markers leave a choice.)
    let out = run(
        &[
            "play",
            "auto120",
            "--variant",
            "markers=2",
            "--human",
            "both",
            "--seed",
            "1",
        ],
        Some("hint\nquit\n"),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let hint = &text[text.find("Hint").unwrap_or(0)..];
    // The hint ends at the prompt: the board is not drawn again after it.
    let hint = &hint[..hint.find("Player 2's move:").unwrap_or(hint.len())];
    assert!(hint.contains("51.1%"), "{hint}");
    assert!(!hint.contains("no exact solution"), "{hint}");
    assert!(!hint.contains("Where markers land"), "{hint}");
    assert!(hint.lines().count() < 40, "{hint}");
}
