//! What games declare reaches the command line without the CLI knowing any game:
//! the tools games offer (`tabula tool`, and a tool's name alone as a command) and
//! the one default computer, the same the browser reads from the game list.

use crate::cli::{assert_success, json, tabula};
use std::process::{Command, Stdio};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_tools_games_declare_are_listed_and_run_by_name() {
    let games = json(&["games", "--json"]);
    let declared: Vec<String> = games
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| {
            g["presentation"]["tools"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    assert!(!declared.is_empty(), "some game declares a tool");
    let list = tabula(&["tool"]);
    assert_success(&list);
    for name in &declared {
        assert!(stdout(&list).contains(name.as_str()), "{}", stdout(&list));
    }
    // Tool names are unique across games: a name alone finds one tool.
    let mut unique = declared.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), declared.len(), "{declared:?}");

    let out = tabula(&["tool", "cgt", "1* + 2* + 3*"]);
    assert_success(&out);
    assert!(
        stdout(&out).contains("1* + 2* + 3* = 0"),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("second player wins"),
        "{}",
        stdout(&out)
    );
    let v = json(&["tool", "cgt", "2 + 3*", "--json"]);
    assert_eq!(v["integer"], 2);
    assert_eq!(v["nimber"], 3);
    assert_eq!(v["winner"], "left");
    // The tool's name alone is the same command.
    let v = json(&["cgt", "1* + 2*", "--json"]);
    assert_eq!(v["nimber"], 3);
}

#[test]
fn tools_refuse_in_plain_words() {
    let out = tabula(&["tool", "no-such-tool", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no tool named 'no-such-tool'"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("cgt"), "names the tools there are");
    let long = "1".repeat(5000);
    let out = tabula(&["tool", "cgt", &long]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("too long"), "{}", stderr(&out));
    let out = tabula(&["tool", "cgt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("needs an input"), "{}", stderr(&out));
    let out = tabula(&["cgt", "1*", "extra"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The players `tabula play GAME` starts with when the person names no computer.
fn players_chosen(game: &str) -> Vec<String> {
    let file =
        std::env::temp_dir().join(format!("tabula-default-{game}-{}.json", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["play", game, "--save"])
        .arg(&file)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    crate::feed(child.stdin.take(), b"quit\n");
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{game}: {}", stderr(&out));
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    std::fs::remove_file(&file).ok();
    record["config"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_terminal_plays_the_game_lists_default_computer() {
    let games = json(&["games", "--json"]);
    for g in games.as_array().unwrap() {
        if g["seats"].as_array().unwrap().len() != 2 {
            continue;
        }
        let name = g["name"].as_str().unwrap();
        // Kono solves 64 million positions before any computer plays (seconds in
        // a release build, minutes in a test build): its default is read the same way.
        if name == "kono" {
            continue;
        }
        let players = players_chosen(name);
        assert_eq!(
            players[1], g["default_opponent"],
            "{name}: the terminal and the game list agree"
        );
    }
}
