//! Issue 14's seed gaps as a user meets them on the command line: the prescribed
//! default computers, the AI level over any base player, the new variants' solved
//! values, Poggle on a torus, the Auto120 board facts.

use crate::cli::{json, play};

#[test]
fn games_name_the_computer_their_source_prescribes() {
    let games = json(&["games", "--json"]);
    let find = |name: &str| {
        games
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == name)
            .unwrap_or_else(|| panic!("{name} listed"))
            .clone()
    };
    assert_eq!(find("hexapawn")["default_opponent"], "matchbox");
    // MENACE was built for tic-tac-toe; Gardner's machine for Hexapawn.
    assert_eq!(find("tictactoe")["default_opponent"], "menace");
    assert_eq!(find("auto120")["default_opponent"], "scenario");
    assert_eq!(find("poggle")["default_opponent"], "solver");
    assert_eq!(find("northcott")["default_opponent"], "nim");
    assert_eq!(find("mu-torere")["level_base"], "lookahead");
    assert_eq!(find("kono")["level_base"], "lookahead");
    assert_eq!(find("tictactoe")["level_base"], "perfect");
}

#[test]
fn a_level_mixes_with_the_named_player() {
    let (out, text) = play(
        &[
            "tictactoe",
            "--ai",
            "lookahead",
            "--level",
            "100",
            "--human",
            "none",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("level 100"), "{text}");
    assert!(!text.contains("perfect"), "{text}");
}

#[test]
fn new_variants_solve_from_the_command_line() {
    let v = json(&[
        "solve",
        "hexapawn",
        "--variant",
        "columns=4,rows=4",
        "--json",
    ]);
    assert_eq!(v["value"]["value"], "win");
    assert_eq!(v["value"]["remoteness"]["plies"], 11);
    let v = json(&["solve", "tictactoe", "--variant", "play=misere", "--json"]);
    assert_eq!(v["value"]["value"], "draw");
    let v = json(&[
        "solve",
        "mu-torere",
        "--variant",
        "rules=first_move",
        "--json",
    ]);
    assert_eq!(v["value"]["value"], "loss");
    let v = json(&[
        "solve",
        "poggle",
        "--variant",
        "topology=torus,size=4,colours=3",
        "--json",
    ]);
    let facts: Vec<&serde_json::Value> = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["facts"].as_array().unwrap())
        .collect();
    let fact = |label: &str| {
        facts
            .iter()
            .find(|f| f["label"] == label)
            .map(|f| &f["value"])
    };
    assert_eq!(fact("Edges").unwrap()["value"], "wrap around");
    assert_eq!(fact("Solvable").unwrap()["kind"], "flag");
    // The board's landing table comes with the solve, one row per square a
    // marker can stand on below 120.
    let v = json(&["solve", "auto120", "--variant", "markers=1", "--json"]);
    let landing = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["title"] == "Where markers land")
        .unwrap();
    assert_eq!(
        landing["facts"][0]["value"]["value"]["rows"]
            .as_array()
            .unwrap()
            .len(),
        35
    );
}
