//! The `tabula` binary as users run it: JSON outputs, the terminal monitor, errors.

use serde_json::Value;
use std::process::{Command, Output, Stdio};

pub(crate) fn tabula(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .output()
        .expect("tabula runs")
}

pub(crate) fn json(args: &[&str]) -> Value {
    let out = tabula(args);
    assert!(
        out.status.success(),
        "tabula {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

pub(crate) fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

pub(crate) fn play(args: &[&str], input: &str) -> (Output, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula play runs");
    crate::feed(child.stdin.take(), input.as_bytes());
    let out = child.wait_with_output().expect("tabula play ends");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    (out, text)
}

#[test]
fn tictactoe_strong_solution_has_5478_positions_and_a_drawn_start() {
    let v = json(&["solve", "tictactoe", "--json"]);
    let c = &v["counts"];
    assert_eq!(c["positions"], 5478);
    assert_eq!(v["value"]["value"], "draw");
    let total =
        c["wins"].as_u64().unwrap() + c["losses"].as_u64().unwrap() + c["draws"].as_u64().unwrap();
    assert_eq!(total, 5478);
}

#[test]
fn hexapawn_start_is_lost_for_white() {
    let v = json(&["solve", "hexapawn", "--json"]);
    assert_eq!(v["value"]["value"], "loss");
}

#[test]
fn mu_torere_matches_the_published_analysis() {
    let v = json(&["solve", "mu-torere", "--json"]);
    assert_eq!(
        (
            v["counts"]["positions"].as_u64(),
            v["counts"]["wins"].as_u64(),
            v["counts"]["losses"].as_u64(),
            v["counts"]["draws"].as_u64()
        ),
        (Some(1180), Some(208), Some(128), Some(844))
    );
    assert_eq!(v["value"]["value"], "draw");
}

#[test]
fn nim_analysis_finds_the_losing_position_and_the_single_winning_move() {
    let v = json(&["analyze", "nim", "--position", "1 2 3", "--json"]);
    assert_eq!(v["value"]["value"], "loss");
    let v = json(&["analyze", "nim", "--position", "3 4 5", "--json"]);
    assert_eq!(v["value"]["value"], "win");
    let winning: Vec<&Value> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["grade"]["value"] == "win")
        .collect();
    assert_eq!(winning.len(), 1, "{winning:?}");
    // The game's own section: one winning move, heap 1 from 3 to 1.
    let section = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["title"] == "Winning moves")
        .unwrap();
    let table = &section["facts"][0]["value"]["value"];
    assert_eq!(
        table["columns"],
        serde_json::json!(["move", "heap", "from", "to", "take"])
    );
    assert_eq!(
        table["rows"],
        serde_json::json!([["1:3->1", "1", "3", "1", "2"]])
    );
}

#[test]
fn the_scoring_system_identities_hold() {
    for (expr, nimber) in [
        ("1* + 2* + 3*", 0),
        ("1* + 2*", 3),
        ("1* + 3*", 2),
        ("2* + 3*", 1),
        ("5* + 5*", 0),
    ] {
        let v = json(&["cgt", expr, "--json"]);
        assert_eq!(v["integer"], 0, "{expr}");
        assert_eq!(v["nimber"], nimber, "{expr}");
    }
    let v = json(&["cgt", "1* + 2* + 3*", "--json"]);
    assert_eq!(v["winner"], "second_player");
}

#[test]
fn analyze_grades_every_move_best_first() {
    let v = json(&[
        "analyze",
        "tictactoe",
        "--position",
        "X.O/.X./... O",
        "--json",
    ]);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    // O must block on 9 to draw; every other move loses.
    assert_eq!(moves[0]["move"], "9");
    assert_eq!(moves[0]["grade"]["value"], "draw");
    assert!(moves[1..].iter().all(|m| m["grade"]["value"] == "loss"));
}

#[test]
fn play_reprompts_on_bad_input_and_ends_cleanly_at_end_of_input() {
    let (out, text) = play(&["hexapawn", "--ai", "random"], "\nfoo\n7 5\n9 9 9\n");
    assert_success(&out);
    assert_eq!(text.matches("Try again").count(), 4, "{text}");
    assert!(text.contains("End of input"), "{text}");
}

#[test]
fn play_keeps_score_with_the_cat_and_offers_another_game() {
    // Perfect against perfect: always the Cat's game in tic-tac-toe.
    let (out, text) = play(
        &[
            "tictactoe",
            "--human",
            "none",
            "--ai",
            "perfect",
            "--games",
            "3",
        ],
        "",
    );
    assert_success(&out);
    assert!(text.contains("Scores: X 0, O 0 (Cat got 3)"), "{text}");
    // A human resigning loses and is asked to play again.
    let (_, text) = play(&["hexapawn", "--ai", "perfect"], "resign\nn\n");
    assert!(text.contains("White resigns: Black wins"), "{text}");
    assert!(text.contains("Play again?"), "{text}");
    assert!(text.contains("Scores: White 0, Black 1\n"), "{text}");
}

#[test]
fn a_saved_game_resumes_where_it_stopped() {
    let dir = std::env::temp_dir().join(format!("tabula-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.json");
    let f = file.to_str().unwrap();
    let (out, _) = play(&["tictactoe", "--human", "both", "--save", f], "5\n1\n");
    assert_success(&out);
    let (_, text) = play(&["tictactoe", "--resume", f], "moves\n");
    assert!(text.contains(" O | 2 | 3"), "{text}");
    assert!(
        text.contains("7 legal moves:\n  2, 3, 4, 6, 7, 8, 9"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_requests_fail_with_a_message_and_exit_code_2() {
    for args in [
        vec!["solve", "chess"],
        vec!["solve", "tictactoe", "--variant", "size=3"],
        vec!["analyze", "tictactoe", "--position", "XXX/XXX/XXX O"],
        vec!["play", "tictactoe", "--human", "sometimes"],
        vec!["play", "tictactoe", "--level", "101"],
        vec!["simulate", "tictactoe", "--players", "random"],
        vec!["cgt", "1* + banana"],
    ] {
        let out = tabula(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("tabula: ") && err.len() > 12,
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn simulation_is_reproducible_and_reports_a_confidence_interval() {
    let a = json(&[
        "simulate",
        "tictactoe",
        "--games",
        "200",
        "--players",
        "perfect,random",
        "--seed",
        "7",
        "--json",
    ]);
    let b = json(&[
        "simulate",
        "tictactoe",
        "--games",
        "200",
        "--players",
        "perfect,random",
        "--seed",
        "7",
        "--json",
    ]);
    assert_eq!(a["wins"], b["wins"]);
    assert_eq!(a["games"], 200);
    // Perfect never loses.
    assert_eq!(a["wins"][1], 0);
    let (lo, hi, p) = (
        a["win_rate"]["low"].as_f64().unwrap(),
        a["win_rate"]["high"].as_f64().unwrap(),
        a["win_rate"]["value"].as_f64().unwrap(),
    );
    assert!(lo <= p && p <= hi);
}

#[test]
fn training_reports_the_fields_users_rely_on() {
    let v = json(&[
        "train",
        "hexapawn",
        "--games",
        "100",
        "--opponent",
        "exploit",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(v["version"], 1, "{v}");
    for key in [
        "games",
        "wins",
        "losses",
        "draws",
        "last_loss",
        "unbeatable_after",
        "matchboxes",
        "beads",
    ] {
        assert!(v["counts"].get(key).is_some(), "missing {key}");
    }
    assert!(v["curve"]["points"].is_array(), "{v}");
    assert!(
        v["counts"]["unbeatable_after"]
            .as_u64()
            .is_some_and(|g| g <= 100),
        "{v}"
    );
}

#[test]
fn play_saves_into_and_resumes_from_the_database() {
    let dir = std::env::temp_dir().join(format!("tabula-cli-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("t.db");
    let db = db.to_str().unwrap();
    let (out, _) = play(
        &[
            "hexapawn",
            "--human",
            "both",
            "--db",
            db,
            "--save-as",
            "lesson 1",
        ],
        "7 4\n2 4\n",
    );
    assert_success(&out);
    let (out, text) = play(
        &["hexapawn", "--db", db, "--resume-saved", "lesson 1"],
        "moves\n",
    );
    assert_success(&out);
    // Black captured on 4: White to move with pawns on 8 and 9 only, 8 can take back.
    assert!(text.contains("White's move"), "{text}");
    assert!(text.contains("8 4") && !text.contains("7 4,"), "{text}");
    let (out, _) = play(
        &["hexapawn", "--db", db, "--resume-saved", "no such game"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn northcott_answers_with_the_seeds_nim_reply_by_default() {
    // O moves row 1 from cell 1 to 5 (gaps 2 6 6, nim-sum 2): the seed's program must
    // answer with a winning Nim move, leaving nim-sum 0.
    let (out, text) = play(&["northcott", "--variant", "size=8x3"], "1:5\nquit\n");
    assert_success(&out);
    // The computer is named in the game's words, not by what `--players` types.
    assert!(
        text.contains("X: the computer — The original program's play"),
        "{text}"
    );
    let after_reply = text
        .split("2. X plays")
        .nth(1)
        .unwrap_or_else(|| panic!("no reply: {text}"));
    assert!(after_reply.contains("nim-sum 0"), "{text}");
}

#[test]
fn northcott_set_up_moves_get_no_reply_and_reset_restores_the_start() {
    let (out, text) = play(
        &["northcott", "--variant", "size=6x2"],
        "setup 1:3\nsetup 2:4\nreset\nquit\n",
    );
    assert_success(&out);
    // Two set-up moves, one per side, and no computer move in between or after.
    assert!(text.contains("1. O plays 1:1->3"), "{text}");
    assert!(text.contains("2. X plays 2:6->4"), "{text}");
    assert!(!text.contains("3. "), "a reply was played: {text}");
    // After `reset` the start is shown again.
    let last_board = text.rsplit("gaps").nth(1).unwrap_or_default();
    assert!(
        text.trim_end().ends_with("O's move:")
            && text.matches("gap 4").count() >= 4
            && !last_board.contains("gap 2"),
        "{text}"
    );
}

/// `tabula games` lists a menu option's values in the game's words beside the value a
/// player types ("nobonus: no bonus for clearing"), never a bare internal token alone.
#[test]
fn games_lists_menu_values_with_their_words() {
    let out = tabula(&["games"]);
    assert_success(&out);
    // Lines wrap to the terminal: read the text as one run of words.
    let text = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for says in [
        "standard (bonus for clearing) · nobonus: no bonus for clearing · blocks: one point a block",
        "first_move: free, but the first move must leave a move",
        "misere: misère (three in a row loses)",
    ] {
        assert!(text.contains(says), "{says:?} missing from: {text}");
    }
}

/// A value that is none of a menu's choices is refused with the choices in the
/// menu's words and what to type for each, not with the typed values alone
/// ("expected one of: normal, misere").
#[test]
fn a_value_off_a_menu_is_refused_with_the_menu_in_words() {
    let out = tabula(&["play", "tictactoe", "--variant", "play=losing"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        err.contains("'losing' cannot be used for")
            && err.contains(
                "choose one of: normal (three in a row wins); misère (three in a row loses), written misere"
            ),
        "{err}"
    );
}

/// Nim reads a move as a player says it, the heap and how many to take ("1 2",
/// "1:1"), besides the record's `1:3->1`; the log names the mover in a sentence.
#[test]
fn nim_reads_the_heap_and_the_counters_taken() {
    let (out, text) = play(&["nim", "--human", "both"], "1 2\n1:1\n3:5->1\nquit\n");
    assert_success(&out);
    assert!(!text.contains("Try again"), "{text}");
    for line in [
        "1. Lucy plays 1:3->1",
        "2. Robert plays 1:1->0",
        "3. Lucy plays 3:5->1",
    ] {
        assert!(text.contains(line), "{line:?} missing from:\n{text}");
    }
}

/// A solve whose table cannot be kept on disk (the cache folder's place is
/// taken by a file, as a full or read-only folder would refuse it) gives its
/// answer, says on stderr in words that the table was not kept, and ends
/// with status 0: the answer is right.
#[test]
fn a_solved_table_that_cannot_be_kept_is_said_and_the_answer_stands() {
    let dir = std::env::temp_dir().join(format!("tabula-unkept-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let blocked = dir.join("cache");
    std::fs::write(&blocked, "a file where the cache folder should be").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["solve", "pig", "--variant", "goal=20"])
        .env("TABULA_CACHE_DIR", &blocked)
        .output()
        .unwrap();
    assert_success(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("tabula: warning: the solved table")
            && stderr.contains("could not be kept in the folder")
            && stderr.contains("worked out again next time"),
        "{stderr}"
    );
    assert!(!stderr.contains("os error"), "{stderr}");
    assert!(!out.stdout.is_empty(), "the answer is given");
    std::fs::remove_dir_all(&dir).ok();
}
