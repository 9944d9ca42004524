//! Words a player reads in the terminal (issue 44): refusals and reports in
//! plain words, errors wrapped to the width, figures that say what they are.

use super::cli::{play, tabula};

fn stderr(args: &[&str]) -> String {
    let out = tabula(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn the_level_is_refused_in_words() {
    let text = stderr(&["play", "nim", "--level", "101"]);
    assert!(text.contains("a whole number from 0 to 100"), "{text}");
    assert!(!text.contains("..="), "{text}");
}

#[test]
fn a_single_game_is_the_only_game_not_the_last_of_one() {
    let (_, text) = play(&["tictactoe", "--ai", "random", "--games", "1"], "win\n");
    assert!(text.contains("That was the only game."), "{text}");
    assert!(!text.contains("of the 1 games"), "{text}");
}

#[test]
fn simulate_speaks_in_percentages_and_says_the_seats_alternate() {
    let out = tabula(&[
        "simulate",
        "tictactoe",
        "--players",
        "random,perfect",
        "--games",
        "40",
        "--seed",
        "1",
    ]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("random moved first in every other game"),
        "{text}"
    );
    assert!(!text.contains("win rate") && !text.contains("CI"), "{text}");
    let line = text
        .lines()
        .find(|l| l.contains("95% confidence"))
        .unwrap_or_else(|| panic!("no interval:\n{text}"));
    assert!(line.contains("% of the games"), "{line}");
    assert!(line.matches('%').count() >= 4, "{line}");
}

#[test]
fn a_full_column_is_refused_as_unplayable_not_unreadable() {
    let (_, text) = play(
        &["connect4", "--human", "both"],
        "1\n1\n1\n1\n1\n1\n1\nquit\n",
    );
    let line = text
        .lines()
        .find(|l| l.contains("is full"))
        .unwrap_or_else(|| panic!("no refusal:\n{text}"));
    assert!(
        line.contains("cannot play that move: column 1 is full"),
        "{line}"
    );
    assert!(!line.contains("cannot read"), "{line}");
}

#[test]
fn a_game_that_cannot_be_drawn_shows_no_cat() {
    // Hexapawn has no draws: the score is the two players' alone.
    let (_, text) = play(&["hexapawn", "--ai", "perfect"], "resign\nn\n");
    assert!(text.contains("Scores: White 0, Black 1"), "{text}");
    assert!(!text.contains("Cat got 0"), "{text}");
}

#[test]
fn rules_in_a_pipe_are_printed_whole() {
    let out = tabula(&["rules", "kono"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().count() > 24, "{text}");
}

/// The minutes of the first "in about N hour(s) M minutes" (or "N hours") in
/// `text`, its words joined by single spaces.
fn minutes_said(text: &str) -> Option<u32> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let at = words.windows(2).position(|w| w == ["in", "about"])? + 2;
    let hours: u32 = words.get(at)?.parse().ok()?;
    let minutes = match (words.get(at + 2), words.get(at + 3)) {
        (Some(m), Some(unit)) if unit.starts_with("minute") => m.parse().ok()?,
        _ => 0,
    };
    words
        .get(at + 1)?
        .starts_with("hour")
        .then_some(60 * hours + minutes)
}

#[test]
fn auto120s_rules_and_analysis_give_the_measured_time_for_its_table() {
    // The rules said three hours and the analysis two; the timed solve took
    // 1 hour 43 minutes (docs/BENCHMARKS.md).
    let out = tabula(&["rules", "auto120"]);
    let rules = String::from_utf8_lossy(&out.stdout).to_string();
    let empty = std::env::temp_dir().join(format!("tabula-no-table-{}", std::process::id()));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["analyze", "auto120"])
        .env("TABULA_TABLE_DIR", &empty)
        .output()
        .expect("tabula runs");
    let analysis = String::from_utf8_lossy(&out.stdout).to_string();
    let said_in_rules = minutes_said(&rules).unwrap_or_else(|| panic!("no time in: {rules}"));
    let said_in_analysis =
        minutes_said(&analysis).unwrap_or_else(|| panic!("no time in: {analysis}"));
    assert_eq!(said_in_rules, said_in_analysis, "{rules}\n{analysis}");
    let benchmarks = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/BENCHMARKS.md"),
    )
    .unwrap();
    let line = benchmarks
        .lines()
        .find(|l| l.contains("Auto120 exact solve, 4 markers"))
        .expect("the timed four-marker solve");
    // "6,163 s wall (1 h 43 min)"
    let measured = line
        .split_once(" s wall")
        .and_then(|(before, _)| before.rsplit(' ').next())
        .and_then(|s| s.replace(',', "").parse::<u32>().ok())
        .expect("the wall-clock seconds")
        / 60;
    assert!(
        said_in_rules.abs_diff(measured) <= 5,
        "said {said_in_rules} minutes, measured {measured}: {line}"
    );
}

#[test]
fn a_board_from_a_file_is_not_headed_with_the_default_size() {
    let dir = std::env::temp_dir().join(format!("tabula-wording-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("board.txt");
    std::fs::write(&file, "1122\n2211\n1212\n2121\n").unwrap();
    let out = tabula(&[
        "solve",
        "samegame",
        "--board",
        file.to_str().unwrap(),
        "--seconds",
        "2",
    ]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}");
    let heading = text.lines().next().unwrap_or_default();
    assert!(
        !heading.contains("15x15") && !heading.contains('='),
        "{heading}"
    );
    assert!(text.contains("4 wide, 4 high"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_loads_matchboxes_trained_by_train_save() {
    let dir = std::env::temp_dir().join(format!("tabula-wording-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let boxes = dir.join("boxes.json");
    let out = tabula(&[
        "train",
        "hexapawn",
        "--games",
        "30",
        "--save",
        boxes.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    // Played against: the computer's learned state is the trained boxes, as a
    // game saved at the first prompt shows.
    let game = dir.join("game.json");
    let (out, text) = play(
        &["hexapawn", "--load", boxes.to_str().unwrap()],
        &format!("save {}\nquit\n", game.display()),
    );
    assert!(out.status.success(), "{text}");
    let read = |p: &std::path::Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
    };
    assert_eq!(read(&game)["learned"][1], read(&boxes));
    // A game whose computer does not learn says so.
    let refused = stderr(&["play", "nim", "--load", boxes.to_str().unwrap()]);
    assert!(
        refused.contains("no computer player here learns"),
        "{refused}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn saved_lists_the_saved_games_with_how_to_resume_them() {
    let dir = std::env::temp_dir().join(format!("tabula-wording-saved-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("saved.sqlite");
    let db = db.to_str().unwrap();
    let (out, _) = play(
        &["hexapawn", "--save-as", "Sunday game", "--db", db],
        "quit\n",
    );
    assert!(out.status.success());
    let out = tabula(&["saved", "--db", db]);
    let text = String::from_utf8_lossy(&out.stdout).replace("\n  ", " ");
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Sunday game — Hexapawn"), "{text}");
    assert!(
        text.contains("tabula play hexapawn --resume-saved 'Sunday game'"),
        "{text}"
    );
    let out = tabula(&["saved", "nim", "--db", db]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("No saved games."));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn northcotts_analysis_and_hexapawns_training_name_the_right_things() {
    // Northcott's program is the slides', not the 2006 blog's.
    let out = tabula(&["analyze", "northcott"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        text.contains("What the slides' program plays here"),
        "{text}"
    );
    assert!(!text.contains("2006"), "{text}");
    // Hexapawn's boxes are shared by mirror images: no rotations.
    let out = tabula(&["train", "hexapawn", "--games", "10"]);
    let text = String::from_utf8_lossy(&out.stdout).replace("\n  ", " ");
    assert!(text.contains("share a box"), "{text}");
    assert!(!text.contains("rotations"), "{text}");
}
