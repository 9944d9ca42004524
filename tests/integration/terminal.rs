//! The terminal as a player reads it (issue 14): readable reports for solve,
//! analyze, count, train and hint; colour only where it is wanted; the `play`
//! prompt's commands; the consistency items. Each test reads the plain text and
//! checks it against the `--json` form or a published fact.

use super::cli::{assert_success, json, play, tabula};
use std::process::Command;

fn text(args: &[&str]) -> String {
    let out = tabula(args);
    assert_success(&out);
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn no_raw_json(t: &str) {
    for raw in ["{\"", "[[", "\":", "[20 items]"] {
        assert!(!t.contains(raw), "raw JSON ({raw}) in:\n{t}");
    }
}

#[test]
fn solve_reads_as_a_table_with_the_published_counts() {
    let t = text(&["solve", "tictactoe"]);
    no_raw_json(&t);
    assert!(t.contains("a draw with perfect play"), "{t}");
    assert!(!t.contains("remoteness"), "{t}");
    // 5,478 positions: 2,836 + 1,574 + 1,068, in one aligned table.
    let row = |what: &str| {
        t.lines()
            .find(|l| l.contains(what))
            .unwrap_or_else(|| panic!("no {what} row:\n{t}"))
            .to_string()
    };
    assert!(row("positions reachable").contains("5,478"), "{t}");
    let v = json(&["solve", "tictactoe", "--json"]);
    let wins = v["counts"]["wins"].as_u64().unwrap();
    let with_commas = format!("{},{:03}", wins / 1000, wins % 1000);
    assert!(row("won for").contains(&with_commas), "{t}");
    let bars: Vec<usize> = ["won for", "lost for", "drawn", "reachable"]
        .iter()
        .map(|w| row(w).find('┆').unwrap())
        .collect();
    assert!(
        bars.windows(2).all(|w| w[0] == w[1]),
        "columns not aligned:\n{t}"
    );
    // A lost start says who loses and in how many plies.
    let t = text(&["solve", "hexapawn"]);
    assert!(t.contains("a loss for White in 6 plies"), "{t}");
}

#[test]
fn analyze_grades_moves_in_a_table_and_draws_have_no_remoteness() {
    let t = text(&["analyze", "tictactoe"]);
    no_raw_json(&t);
    assert!(!t.contains("remoteness 0") && !t.contains("in 0"), "{t}");
    let draws: Vec<&str> = t
        .lines()
        .filter(|l| l.contains(" draw ") && l.contains('│'))
        .collect();
    assert_eq!(draws.len(), 9, "{t}");
    assert!(
        draws.iter().all(|l| l.contains('—') && !l.contains(" 0 ")),
        "{t}"
    );
    // Nim: the game's own analysis as words, the one winning move first.
    let t = text(&["analyze", "nim", "--position", "3 4 5"]);
    no_raw_json(&t);
    assert!(t.contains("Value: a win for Lucy in 11 plies."), "{t}");
    let winning = &t[t.find("Winning moves:").expect("a winning moves section")..];
    let row = winning
        .lines()
        .find(|l| l.contains('│') && l.contains("->"))
        .unwrap();
    assert!(row.contains("1:3->1"), "{t}");
    let moves = &t[t.find("Moves, best first").expect("the graded moves")..];
    let first = moves
        .lines()
        .find(|l| l.contains("->") && l.contains('│'))
        .unwrap();
    assert!(first.contains("1:3->1") && first.contains("win"), "{t}");
}

#[test]
fn poggle_presses_are_a_grid_matching_the_solution() {
    let v = json(&["solve", "poggle", "--variant", "size=5,colours=3", "--json"]);
    let t = text(&["solve", "poggle", "--variant", "size=5,colours=3"]);
    no_raw_json(&t);
    let lines: Vec<&str> = t.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("Presses")).unwrap();
    let header: Vec<&str> = lines[at + 1].split_whitespace().collect();
    assert_eq!(header, ["1", "2", "3", "4", "5"], "{t}");
    for (r, row) in v["solution"]["grid"].as_array().unwrap().iter().enumerate() {
        let words: Vec<&str> = lines[at + 2 + r].split_whitespace().collect();
        assert_eq!(words[0], (r + 1).to_string(), "{t}");
        let shown: Vec<u64> = words[1..]
            .iter()
            .map(|w| if *w == "." { 0 } else { w.parse().unwrap() })
            .collect();
        let want: Vec<u64> = row
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert_eq!(shown, want, "row {}:\n{t}", r + 1);
    }
}

#[test]
fn numbers_are_rounded_and_counts_read_as_tables() {
    let v = json(&["analyze", "auto120", "--json"]);
    let turns = v["sections"][0]["facts"][0]["value"]["value"]
        .as_f64()
        .unwrap();
    let t = text(&["analyze", "auto120"]);
    no_raw_json(&t);
    let rounded = format!("{turns:.2}");
    let rounded = rounded.trim_end_matches('0').trim_end_matches('.');
    assert!(
        t.contains(&format!("Player 1: turns expected: {rounded}")),
        "{t}"
    );
    assert!(
        t.contains(&format!("Player 2: turns expected: {rounded}")),
        "{t}"
    );
    // Mu Torere's Burnside counts: one table, a column per symmetry group.
    let t = text(&["count", "mu-torere"]);
    no_raw_json(&t);
    let total = t.lines().find(|l| l.contains("│ arrangements ")).unwrap();
    let cells: Vec<&str> = total.split(['│', '┆']).map(str::trim).collect();
    assert!(cells.contains(&"80") && cells.contains(&"46"), "{t}");
}

#[test]
fn the_learning_curve_is_a_chart_with_a_bar_per_block() {
    let args = ["train", "hexapawn", "--games", "60", "--seed", "3"];
    let v = json(&[&args[..], &["--json"]].concat());
    let t = text(&args);
    no_raw_json(&t);
    let curve = v["curve"]["points"].as_array().unwrap();
    let bars: Vec<&str> = t
        .lines()
        .filter(|l| l.trim_start().starts_with("games "))
        .collect();
    assert_eq!(bars.len(), curve.len(), "{t}");
    for (bar, block) in bars.iter().zip(curve) {
        let losses = block["losses"].as_u64().unwrap();
        assert!(bar.contains(&format!("| {losses} lost")), "{bar}");
        let drawn = bar.split('|').nth(1).unwrap();
        assert_eq!(drawn.contains('#'), losses > 0, "{bar}");
    }
    let wins: u64 = curve.iter().map(|b| b["wins"].as_u64().unwrap()).sum();
    let row = t.lines().find(|l| l.contains("Won: ")).unwrap();
    assert!(
        row.contains(&format!(" {wins} ")) && row.contains(&format!("{:.1}%", wins as f64 / 0.6)),
        "{t}"
    );
}

#[test]
fn samegame_hints_grade_groups_by_their_points() {
    let v = json(&["analyze", "samegame", "--json"]);
    let best = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["grade"]["points"].as_i64().unwrap())
        .max()
        .unwrap();
    let position = v["position"].as_str().unwrap();
    let (out, t) = play(&["samegame", "--position", position], "hint\nquit\n");
    assert_success(&out);
    no_raw_json(&t);
    let rows: Vec<i64> = t
        .lines()
        .filter_map(|l| l.split('+').nth(1)?.split_whitespace().next()?.parse().ok())
        .collect();
    // The hint shows the best 8 (`analyze` lists them all).
    assert_eq!(rows.len(), 8, "{t}");
    assert_eq!(rows[0], best, "{t}");
    assert!(rows.windows(2).all(|w| w[0] >= w[1]), "not best first: {t}");
}

fn colour_codes(env: &[(&str, &str)]) -> bool {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tabula"));
    cmd.args(["play", "samegame", "--variant", "size=5x3"])
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(std::process::Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert_success(&out);
    String::from_utf8_lossy(&out.stdout).contains('\x1b')
}

#[test]
fn colour_only_where_the_terminal_wants_it() {
    // Through a pipe: no colour codes; forced: the blocks are painted; NO_COLOR wins.
    assert!(!colour_codes(&[]));
    assert!(colour_codes(&[("CLICOLOR_FORCE", "1")]));
    assert!(!colour_codes(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]));
}

#[test]
fn win_is_the_testers_command_and_play_again_defaults_to_yes() {
    let (out, t) = play(&["tictactoe", "--ai", "random"], "win\n\nwin\nn\n");
    assert_success(&out);
    assert!(t.contains("X says they win"), "{t}");
    assert!(t.contains("Play again? (Y/n, or undo)"), "{t}");
    // Enter started a second game, won the same way: two games counted.
    assert!(t.contains("Scores: X 2, O 0\n"), "{t}");
    // Not for puzzles.
    let (_, t) = play(&["poggle", "--variant", "size=3"], "win\nquit\n");
    assert!(
        t.contains("Try again: 'win' is for two-player games"),
        "{t}"
    );
}

#[test]
fn consistency_of_counts_and_refusals() {
    // A game that starts finished is counted; a puzzle has no Cat.
    let (_, t) = play(&["tictactoe", "--position", "XXX/OO./... O"], "n\n");
    assert!(t.contains("Scores: X 1, O 0\n"), "{t}");
    let (_, t) = play(
        &["poggle", "--variant", "size=3", "--position", "000/000/000"],
        "n\n",
    );
    assert!(t.contains("Games: 1 played, 1 won"), "{t}");
    assert!(!t.contains("Cat"), "{t}");
    // --games 0 and an out-of-range undo depth are refused.
    for args in [
        &["play", "tictactoe", "--human", "none", "--games", "0"][..],
        &["play", "tictactoe", "--undo-depth", "1001"][..],
    ] {
        let out = tabula(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("tabula: "));
    }
    // The move parser's message says "cannot read move" once.
    let (_, t) = play(&["nim"], "hello\nquit\n");
    let line = t.lines().find(|l| l.contains("Try again")).unwrap();
    assert_eq!(line.matches("cannot read move").count(), 1, "{line}");
}

#[test]
fn undo_depth_zero_turns_undo_off() {
    let (out, t) = play(&["tictactoe", "--undo-depth", "0"], "5\nundo\nquit\n");
    assert_success(&out);
    assert!(t.contains("--undo-depth 0 allows 0 moves back"), "{t}");
    let (_, t) = play(&["tictactoe"], "undo\nquit\n");
    assert!(t.contains("Nothing to undo."), "{t}");
}

#[test]
fn resuming_a_save_of_another_game_is_refused() {
    let dir = std::env::temp_dir().join(format!("tabula-term-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ttt.json");
    let file = file.to_str().unwrap();
    let (out, _) = play(&["tictactoe", "--save", file], "5\nquit\n");
    assert_success(&out);
    let out = tabula(&["play", "nim", "--resume", file]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("a game of tictactoe, not nim"), "{err}");
    let (out, _) = play(&["tictactoe", "--resume", file], "quit\n");
    assert_success(&out);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn samegame_logs_the_cell_the_user_typed() {
    // "1 1" is the right block of the bottom pair of 2s; the group's own
    // representative is "1 0".
    let (out, t) = play(&["samegame", "--position", "11/22"], "1 1\nquit\n");
    assert_success(&out);
    // The puzzle's only player is not named on its log line.
    let log = t
        .lines()
        .find_map(|l| l.split_once("1. ").map(|(_, line)| line))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(log.starts_with("1 1:"), "{log}");
}

#[test]
fn the_game_heading_names_variant_and_players_in_words() {
    let (_, t) = play(&["nim", "--variant", "heaps=1-2-3,play=misere"], "quit\n");
    let first = t.lines().next().unwrap_or_default();
    assert!(
        first.contains("heaps 1 2 3") && first.contains("misère"),
        "{t}"
    );
    assert!(!t.contains("heaps=") && !t.contains("play=misere"), "{t}");
    assert!(
        t.contains("Lucy: you") && t.contains("Robert: the computer"),
        "{t}"
    );
    // A computer player is named by the words its game declares for it, with its
    // options in words.
    let (_, t) = play(&["tictactoe", "--players", "human,matchbox"], "quit\n");
    assert!(
        t.contains("O: the computer — Gardner's matchbox machine"),
        "{t}"
    );
    let (_, t) = play(
        &["tictactoe", "--players", "alphabeta:depth=3,human"],
        "quit\n",
    );
    assert!(
        t.contains("X: the computer — Thinks ahead (alpha-beta search); depth 3\n"),
        "{t}"
    );
    // The default game has no variant words at all.
    let (_, t) = play(&["nim"], "quit\n");
    assert!(
        t.lines()
            .next()
            .unwrap_or_default()
            .trim_end()
            .ends_with("Nim"),
        "{t}"
    );
}

#[test]
fn training_reads_in_words() {
    let t = text(&["train", "hexapawn", "--games", "50", "--seed", "1"]);
    assert!(
        t.contains("The machine:\n  Gardner's matchboxes, where"),
        "{t}"
    );
    // No option strings or raw field names.
    for raw in [
        "mode=",
        "symmetry=",
        "Learner positions",
        "Block:",
        "Unbeatable checked",
    ] {
        assert!(!t.contains(raw), "{raw} in:\n{t}");
    }
    // The curve's last block ends with the last game.
    let last = t
        .lines()
        .rfind(|l| l.trim_start().starts_with("games "))
        .unwrap_or_else(|| panic!("no curve:\n{t}"));
    assert!(last.contains("-50 "), "{last}");
}

#[test]
fn rules_come_from_the_game_pages() {
    let t = text(&["rules", "nim"]);
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/games/nim/docs/rules.md"
    ))
    .unwrap();
    assert!(page.contains("## How to play"), "{page}");
    assert!(
        t.contains("How to play") && t.contains("Writing moves") && t.contains("Lucy"),
        "{t}"
    );
    // The programmer's page is not what a player reads.
    assert!(!t.contains("Benchmarks") && !t.contains("oracle"), "{t}");
    assert!(
        !t.contains("## ") && !t.contains("**"),
        "raw Markdown:\n{t}"
    );
    // Written for a player: no crate names, no citations of the source documents.
    for game in ["nim", "mu-torere", "northcott", "samegame", "hexapawn"] {
        let t = text(&["rules", game]);
        assert!(
            !t.contains("Crate ") && !t.contains("seed 00") && !t.contains("the seed"),
            "{game}:\n{t}"
        );
    }
    let (_, t) = play(&["hexapawn"], "rules\nmoves\nquit\n");
    assert!(t.contains("Writing moves"), "{t}");
    // Each game says its notation once, with a legal move of the start.
    let example = t
        .split("Moves are written like '")
        .nth(1)
        .and_then(|r| r.split('\'').next())
        .unwrap_or_else(|| panic!("no notation line: {t}"));
    let legal = t
        .split("legal moves:\n")
        .nth(1)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .trim();
    assert!(
        legal.split(", ").any(|m| m == example),
        "{example} not in {legal}"
    );
    let out = tabula(&["rules", "chess"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_lists_the_commands_as_the_readme_does() {
    let help = text(&["--help"]);
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    // A command's line starts two spaces in; its words wrapped to the width
    // continue further in.
    let mut commands: Vec<(String, String)> = Vec::new();
    for l in help
        .split("Commands:")
        .nth(1)
        .unwrap()
        .split("Options:")
        .next()
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        match commands.last_mut() {
            Some((_, about)) if l.starts_with("   ") => {
                about.push(' ');
                about.push_str(l.trim());
            }
            _ => {
                let Some((name, about)) = l.trim().split_once(char::is_whitespace) else {
                    continue;
                };
                commands.push((name.to_string(), about.trim().to_string()));
            }
        }
    }
    commands.retain(|(n, _)| n != "help");
    assert!(commands.len() >= 9, "{help}");
    for (name, about) in commands {
        let line = readme
            .lines()
            .find(|l| l.starts_with(&format!("tabula {name} ")) || *l == format!("tabula {name}"))
            .unwrap_or_else(|| panic!("README's command list lacks `tabula {name}`"));
        let _ = line;
        assert!(
            readme.contains(&format!("| `{name}` | {about} |")),
            "README's table of commands lacks `{name}`: {about}"
        );
    }
}

#[test]
fn serve_on_a_busy_port_creates_no_database() {
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = busy.local_addr().unwrap().to_string();
    let dir = std::env::temp_dir().join(format!("tabula-busy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("t.db");
    let out = tabula(&["serve", "--addr", &addr, "--db", db.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot listen"));
    assert!(!db.exists(), "a database was created");
    std::fs::remove_dir_all(&dir).ok();
}

/// Kono solves 64 million positions the first time a perfect player needs them
/// (other players never wait for it): the terminal says so, and the solution is
/// cached where the README says. Release check (it solves for seconds):
/// `cargo test --release --test integration -- --ignored`.
#[test]
#[ignore]
fn kono_says_it_is_solving_on_first_use_and_caches_the_solution() {
    let dir = std::env::temp_dir().join(format!("tabula-kono-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(["play", "kono", "--ai", "perfect"])
            .env("TABULA_CACHE_DIR", &dir)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let out = run();
    assert_success(&out);
    let err = String::from_utf8_lossy(&out.stderr).to_lowercase();
    assert!(err.contains("solving four field kono once"), "{err}");
    assert!(dir.join("kono-standard-v2.table").exists());
    // The second time it loads the cache and says nothing.
    let out = run();
    assert!(!String::from_utf8_lossy(&out.stderr)
        .to_lowercase()
        .contains("solving"));
    std::fs::remove_dir_all(&dir).ok();
}
