//! What a new player trips over in the terminal: every `--help` within 80
//! columns, boards of every size within them, dealt boards that replay, the
//! reports saying each figure once, refusals that point the way, no line said
//! twice, and the Cat's game when every player resigns (Stenger's game monitor).

use super::cli::{assert_success, json, play, tabula};
use std::process::{Command, Output, Stdio};

/// `tabula ARGS` with `input` on a pipe, `COLUMNS` as given (or unset) and no colour.
fn run(args: &[&str], input: &str, columns: Option<usize>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tabula"));
    cmd.args(args)
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(c) = columns {
        cmd.env("COLUMNS", c.to_string());
    }
    let mut child = cmd.spawn().expect("tabula runs");
    crate::feed(child.stdin.take(), input.as_bytes());
    child.wait_with_output().expect("tabula ends")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// Lines wider than `width` columns (characters: every help and board here is
/// one column a character).
fn too_wide(text: &str, width: usize) -> Vec<String> {
    text.lines()
        .filter(|l| l.chars().count() > width)
        .map(|l| format!("{}: {l}", l.chars().count()))
        .collect()
}

/// The subcommands `tabula --help` lists.
fn commands() -> Vec<String> {
    let help = stdout(&run(&["--help"], "", None));
    help.split("Commands:")
        .nth(1)
        .unwrap()
        .split("Options:")
        .next()
        .unwrap()
        .lines()
        // A command's line starts two spaces in; its wrapped words further.
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect()
}

#[test]
fn every_help_fits_80_columns_and_follows_the_width() {
    let commands = commands();
    assert!(commands.len() >= 9, "{commands:?}");
    let mut problems = Vec::new();
    let mut helps: Vec<Vec<String>> = vec![vec!["--help".into()]];
    for c in &commands {
        helps.push(vec![c.clone(), "--help".into()]);
    }
    for args in &helps {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // In a pipe with no width given: 80 columns.
        let text = stdout(&run(&args, "", None));
        assert!(!text.trim().is_empty(), "{args:?} printed nothing");
        for line in too_wide(&text, 80) {
            problems.push(format!("tabula {}: {line}", args.join(" ")));
        }
        // Plain words: no Markdown code marks, no empty default.
        for line in text
            .lines()
            .filter(|l| l.contains('`') || l.contains("[default: \"\"]"))
        {
            problems.push(format!("tabula {}: {line}", args.join(" ")));
        }
        // A narrower terminal gets a narrower help, words kept whole.
        let narrow = stdout(&run(&args, "", Some(60)));
        for line in too_wide(&narrow, 60) {
            problems.push(format!("COLUMNS=60 tabula {}: {line}", args.join(" ")));
        }
    }
    // The tool list too.
    let text = stdout(&run(&["tool"], "", None));
    for line in too_wide(&text, 80) {
        problems.push(format!("tabula tool: {line}"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // No word cut at the edge: every word of the play help's --seed line is a
    // word of its text.
    let text = stdout(&run(&["play", "--help"], "", None))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains("drawn at random when not given and shown at the start, so that a game"),
        "{text}"
    );
}

/// The board rows of a Poggle or SameGame screen: lines of a row number (at
/// most two spaces in; the column numbers above start further in) and cells.
fn board_rows(screen: &str) -> Vec<String> {
    screen
        .lines()
        .filter(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.len() > 2
                && l.len() - l.trim_start().len() <= 2
                && words.iter().all(|w| w.parse::<u32>().is_ok())
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn poggle_random_starts_deal_a_board_from_the_seed_shown() {
    let screen = |seed: &str| {
        let out = run(
            &[
                "play",
                "poggle",
                "--variant",
                "start=random",
                "--seed",
                seed,
            ],
            "quit\n",
            None,
        );
        assert_success(&out);
        board_rows(&stdout(&out))
    };
    let five = screen("5");
    assert_eq!(five.len(), 5, "{five:?}");
    assert_ne!(five, screen("6"), "seeds 5 and 6 dealt one board");
    assert_eq!(five, screen("5"), "seed 5 dealt two boards");
    // Without a seed, the one drawn is shown and deals the same board again.
    let out = run(
        &["play", "poggle", "--variant", "start=random"],
        "quit\n",
        None,
    );
    let text = stdout(&out);
    let seed = text
        .split("replay it with --seed ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("no seed shown:\n{text}"))
        .to_string();
    assert_eq!(board_rows(&text), screen(&seed), "{text}");
    // A board number in the variant still pins the board.
    let pinned = |seed: &str| {
        let out = run(
            &[
                "play",
                "poggle",
                "--variant",
                "start=random,seed=9",
                "--seed",
                seed,
            ],
            "quit\n",
            None,
        );
        board_rows(&stdout(&out))
    };
    assert_eq!(pinned("1"), pinned("2"));
}

#[test]
fn samegame_says_how_to_replay_the_board_new_deals() {
    let out = run(
        &["play", "samegame", "--variant", "size=6x4", "--seed", "3"],
        "new\nquit\n",
        None,
    );
    assert_success(&out);
    let text = stdout(&out);
    let after_new = &text[text.find("A new board").unwrap_or_else(|| panic!("{text}"))..];
    let variant = after_new
        .split("--variant ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap()
        .to_string();
    assert!(variant.contains("seed="), "{variant}");
    let dealt = board_rows(after_new);
    assert_eq!(dealt.len(), 4, "{after_new}");
    let first = board_rows(&text[..text.find("A new board").unwrap()]);
    assert_ne!(first, dealt, "new dealt the same board");
    // The line given replays the board shown after `new`.
    let again = stdout(&run(
        &["play", "samegame", "--variant", &variant],
        "quit\n",
        None,
    ));
    assert_eq!(board_rows(&again), dealt, "{again}");
}

/// The seed a screen offers to replay the game with, if it offers one.
fn offered_seed(screen: &str) -> Option<String> {
    screen
        .split("replay it with --seed ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .map(str::to_string)
}

#[test]
fn the_seed_is_offered_only_where_it_decides_something() {
    // A fixed start that people play alone: the seed changes nothing.
    for args in [
        &["play", "poggle"][..],
        &["play", "poggle", "--variant", "start=random,seed=4"][..],
        &["play", "samegame", "--variant", "size=6x4,seed=9"][..],
        &["play", "tictactoe", "--human", "both"][..],
        &["play", "kono", "--human", "both"][..],
        &["play", "nim", "--human", "both"][..],
    ] {
        let out = run(args, "quit\n", None);
        assert_success(&out);
        let text = stdout(&out);
        assert_eq!(offered_seed(&text), None, "{args:?}:\n{text}");
        assert!(!text.contains("--seed"), "{args:?}:\n{text}");
    }
    // A dealt board, dice, a computer's choices: the seed is offered, and
    // given back it replays exactly what was shown, the same moves typed.
    for (args, input) in [
        (
            &["play", "samegame", "--variant", "size=6x4"][..],
            "1 1\n0 0\nquit\n",
        ),
        (
            &["play", "poggle", "--variant", "start=random"][..],
            "1,1\n2,3\nquit\n",
        ),
        (
            &["play", "pig", "--human", "both"][..],
            "roll\nroll\nhold\nroll\nhold\nroll\nroll\nroll\nhold\nquit\n",
        ),
        (
            &["play", "tictactoe", "--ai", "random"][..],
            "5\n1\n2\n3\n4\n6\n7\n8\n9\nquit\n",
        ),
    ] {
        let first = stdout(&run(args, input, None));
        let seed = offered_seed(&first).unwrap_or_else(|| panic!("{args:?}: no seed:\n{first}"));
        let mut again = args.to_vec();
        again.extend(["--seed", seed.as_str()]);
        let second = stdout(&run(&again, input, None));
        assert_eq!(first, second, "{args:?} with --seed {seed}");
    }
}

#[test]
fn large_boards_come_in_bands_within_80_columns() {
    for (variant, cells, first) in [("size=100x3", 100, 0), ("size=64x2,colours=9", 64, 0)] {
        let out = run(&["play", "samegame", "--variant", variant], "quit\n", None);
        assert_success(&out);
        let text = stdout(&out);
        assert!(too_wide(&text, 80).is_empty(), "{variant}:\n{text}");
        // Every row's cells over the bands: the row's label then its cells.
        let rows = board_rows(&text);
        let cells_of_row0: usize = rows
            .iter()
            .filter(|r| r.split_whitespace().next() == Some(&first.to_string()))
            .map(|r| r.split_whitespace().count() - 1)
            .sum();
        assert_eq!(cells_of_row0, cells, "{variant}:\n{text}");
    }
    for variant in ["size=20,colours=100", "size=30,colours=256", "size=30"] {
        let out = run(&["play", "poggle", "--variant", variant], "quit\n", None);
        assert_success(&out);
        let text = stdout(&out);
        assert!(too_wide(&text, 80).is_empty(), "{variant}:\n{text}");
        // Each column number stands over its cells: the number's last digit
        // ends where the cells of its column end.
        let lines: Vec<&str> = text.lines().collect();
        for (i, ruler) in lines.iter().enumerate() {
            let is_ruler = ruler.starts_with("      ")
                && ruler.split_whitespace().all(|w| w.parse::<u32>().is_ok())
                && lines.get(i + 1).is_some_and(|l| l.starts_with("  1 "));
            if !is_ruler {
                continue;
            }
            let row = lines[i + 1];
            for (at, _) in ruler.match_indices(|c: char| c.is_ascii_digit()) {
                let end = ruler[at..].find(' ').map_or(ruler.len(), |n| at + n) - 1;
                if at == end || !ruler.as_bytes()[at + 1].is_ascii_digit() {
                    assert!(
                        row.as_bytes().get(end).is_some_and(|b| *b != b' '),
                        "{variant}: column number at {end} over no cell:\n{ruler}\n{row}"
                    );
                }
            }
        }
    }
}

#[test]
fn games_lists_each_choice_once_without_markdown_or_empty_defaults() {
    let out = run(&["games"], "", None);
    assert_success(&out);
    let text = stdout(&out);
    assert!(!text.contains("(default )"), "{text}");
    assert!(!text.contains('`'), "{text}");
    assert!(text.contains("not set by default"), "{text}");
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // Tic-tac-toe's misère once, not in the help and again in the list.
    let ttt = &flat[..flat.find("hexapawn").unwrap()];
    assert_eq!(ttt.matches("three in a row loses").count(), 1, "{ttt}");
}

#[test]
fn analyze_at_a_chance_node_lists_what_chance_may_do() {
    let out = run(&["analyze", "auto120"], "", Some(80));
    assert_success(&out);
    let text = stdout(&out);
    assert!(!text.contains("No legal moves"), "{text}");
    assert!(text.contains("(chance acts next)"), "{text}");
    assert!(text.contains("Chance acts next"), "{text}");
    // Each outcome's position can be analyzed in turn.
    let v = json(&["analyze", "auto120", "--json"]);
    let start = v["position"].as_str().unwrap();
    let positions: Vec<&str> = text
        .lines()
        .filter(|l| l.contains('│') && l.contains(start.split(':').next().unwrap()))
        .map(|l| {
            l.split('┆')
                .next_back()
                .unwrap()
                .trim_end_matches('│')
                .trim()
        })
        .collect();
    assert_eq!(positions.len(), 2, "{text}");
    for p in positions {
        assert_ne!(p, start);
        let out = run(&["analyze", "auto120", "--position", p], "", Some(80));
        assert_success(&out);
    }
}

#[test]
fn a_solve_report_gives_each_figure_once_and_says_what_it_is() {
    let dir = std::env::temp_dir().join(format!("tabula-newcomer-pig-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let solve = || {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tabula"));
        let out = cmd
            .args(["solve", "pig", "--variant", "goal=20"])
            .env("TABULA_CACHE_DIR", &dir)
            .env("COLUMNS", "80")
            .output()
            .unwrap();
        assert_success(&out);
        stdout(&out)
    };
    // Solved, then read back from the cache: the same report either way.
    for text in [solve(), solve()] {
        let labels: Vec<&str> = text
            .lines()
            .filter_map(|l| l.split_once(": ").map(|(label, _)| label.trim()))
            .collect();
        for label in &labels {
            assert_eq!(
                labels.iter().filter(|l| *l == label).count(),
                1,
                "{label} twice:\n{text}"
            );
        }
        let value = |label: &str| {
            text.lines()
                .find_map(|l| l.trim().strip_prefix(&format!("{label}: ")))
                .map(str::to_string)
        };
        // The figures the game's section gives are not repeated under other words.
        assert!(value("Positions").is_some(), "{text}");
        assert_eq!(
            text.matches(&value("Positions").unwrap()).count(),
            1,
            "{text}"
        );
        assert!(value("Sweeps").is_none(), "{text}");
        // Each time said of what it is.
        assert!(value("Time").is_none(), "{text}");
        assert!(value("Time to answer").is_some(), "{text}");
        assert!(value("Time the solve took").is_some(), "{text}");
        assert!(value("Peak memory").is_none(), "{text}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn refusals_point_the_way_and_say_their_reason_once() {
    // Too large to solve whole, but analyze answers at once.
    let out = tabula(&["solve", "northcott"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("`tabula analyze northcott`"), "{err}");
    let out = tabula(&["analyze", "northcott"]);
    assert_success(&out);
    // A missing file: its reason once, in words.
    let out = tabula(&["play", "tictactoe", "--resume", "nosuch.json"]);
    let err = stderr(&out);
    assert_eq!(
        err.trim_end(),
        "tabula: cannot read nosuch.json: there is no such file"
    );
    // A negative seed: refused as every other mistake is.
    let out = tabula(&["play", "tictactoe", "--seed", "-1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with("tabula: invalid value '-1' for '--seed <SEED>': a seed is a whole number"),
        "{err}"
    );
    assert!(!err.contains("error:"), "{err}");
    // Nim: a number too large for any heap is said to be so.
    let (_, text) = play(&["nim", "--human", "both"], "1:3->99999999999999\nquit\n");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains("far more than any heap has"), "{text}");
    assert!(!text.contains("not a whole number"), "{text}");
}

#[test]
fn a_match_of_n_games_with_a_person_and_save_at_play_again() {
    let dir = std::env::temp_dir().join(format!("tabula-newcomer-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("after.json");
    let input = format!("win\nsave {}\n\nwin\n", file.display());
    let (out, text) = play(&["tictactoe", "--ai", "random", "--games", "2"], &input);
    assert_success(&out);
    assert!(text.contains("A match of 2 games."), "{text}");
    assert!(text.contains("Next game (2 of 2)?"), "{text}");
    assert!(
        text.contains(&format!("Saved to {}.", file.display())),
        "{text}"
    );
    assert!(file.exists(), "{text}");
    assert!(text.contains("That was the last of the 2 games."), "{text}");
    assert!(text.contains("Scores: X 2, O 0"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn no_line_is_said_twice() {
    // Nim's heading and board say whose move it is once.
    let (_, text) = play(&["nim"], "quit\n");
    assert_eq!(text.matches("to move").count(), 1, "{text}");
    // The end of a dice game: the winner and the verdict in one line.
    let mut input = String::new();
    for _ in 0..60 {
        input += "roll\nhold\n";
    }
    input += "n\n";
    let (_, text) = play(&["pig", "--variant", "goal=10", "--seed", "4"], &input);
    let verdicts = text
        .lines()
        .filter(|l| l.ends_with(" wins: you lose.") || l.ends_with(" wins: you win."))
        .count();
    assert_eq!(verdicts, 1, "{text}");
    assert!(
        !text.contains("\nYou lose.") && !text.contains("\nYou win."),
        "{text}"
    );
    // A drawn tic-tac-toe: the Cat once.
    let (_, text) = play(
        &[
            "tictactoe",
            "--human",
            "none",
            "--ai",
            "perfect",
            "--seed",
            "2",
        ],
        "",
    );
    let end = &text[text.rfind("---+---+---").unwrap_or(0)..];
    assert_eq!(end.matches("Cat").count(), 2, "{end}");
    assert!(end.contains("draw: the Cat's game\nScores:"), "{end}");
    // No invitation to type when no one plays.
    assert!(
        !text.contains("Type a move") && !text.contains("Moves are written"),
        "{text}"
    );
    // SameGame: the cleared board once, and the bonus said apart from the group.
    let (_, text) = play(&["samegame", "--position", "112/211"], "0 0\n1 0\nn\n");
    assert_eq!(text.matches("board cleared").count(), 1, "{text}");
    assert!(!text.contains("solved"), "{text}");
    assert!(
        text.contains("(+0, and +1000 for clearing the board)"),
        "{text}"
    );
    assert!(text.contains("Games: 1 played, 1 won"), "{text}");
    // The help speaks a player's words.
    let (_, text) = play(&["tictactoe"], "help\nquit\n");
    assert!(!text.contains("remoteness"), "{text}");
    // A matchbox move says what its bead was.
    let (_, text) = play(
        &["tictactoe", "--ai", "matchbox", "--seed", "1"],
        "5\nquit\n",
    );
    let reply = text.lines().find(|l| l.starts_with("2. O plays")).unwrap();
    assert!(reply.contains("beads in its box"), "{reply}");
    assert!(!reply.contains("bead: "), "{reply}");
}

#[test]
fn the_readme_names_every_game_and_says_how_to_start() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let intro = readme[..readme.find("## ").unwrap()]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for g in json(&["games", "--json"]).as_array().unwrap() {
        let name = g["name"].as_str().unwrap();
        assert!(
            readme.contains(&format!("(`{name}`)")),
            "the README's table of games lacks {name}"
        );
        let title = g["title"].as_str().unwrap();
        let short = title.split(" (").next().unwrap();
        assert!(
            intro.contains(short),
            "the README's first lines lack {short}"
        );
    }
    assert!(readme.contains("cargo install --path ."), "no PATH install");
    let build = &readme[readme.find("The first build").expect("no first build time")..];
    let build = &build[..build.find("\n\n").unwrap_or(build.len())];
    assert!(
        build.contains("minutes of processor time") && !build.contains("BUILD_TIME"),
        "the first build's time is not said: {build}"
    );
    assert!(
        !readme.contains("a few seconds, with a progress"),
        "Kono's solve time"
    );
}

/// A saved game of tic-tac-toe, X (a person) to move after `position`, against a
/// matchbox machine whose boxes for every position X can leave are as given.
fn against_matchbox(file: &std::path::Path, beads: u32) {
    // The matchbox's saved shape, from a game saved with it.
    let (out, _) = play(
        &[
            "tictactoe",
            "--ai",
            "matchbox:symmetry=off",
            "--save",
            file.to_str().unwrap(),
        ],
        "quit\n",
    );
    assert_success(&out);
    let mut record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let position = "XO./.../... X";
    let game = tabula_engine::build("tictactoe", "").unwrap();
    let start = game.state_from_position(position).unwrap();
    let mut boxes = Vec::new();
    for a in start.legal_actions() {
        let mut next = start.clone_box();
        next.apply_action(a).unwrap();
        let replies: Vec<serde_json::Value> = next
            .legal_actions()
            .into_iter()
            .map(|r| serde_json::json!([next.action_to_string(r).unwrap(), beads]))
            .collect();
        boxes.push(
            serde_json::json!({"position": next.position(), "made_at_move": 1, "beads": replies}),
        );
    }
    record["config"]["position"] = serde_json::json!(position);
    record["learned"][1]["boxes"] = serde_json::Value::Array(boxes);
    std::fs::write(file, record.to_string()).unwrap();
}

#[test]
fn when_every_player_resigns_the_cat_wins() {
    // Two people: O resigns, then X too.
    let (out, text) = play(
        &["tictactoe", "--human", "both"],
        "5\nresign\nresign\nundo\nquit\n",
    );
    assert_success(&out);
    assert!(text.contains("O resigns: X wins"), "{text}");
    assert!(text.contains("X may resign too"), "{text}");
    assert!(
        text.contains("O resigns, then X too: every player resigned, so the Cat wins"),
        "{text}"
    );
    assert!(text.contains("Scores: X 0, O 0 (Cat got 1)"), "{text}");
    // One undo takes both back: O to move again.
    let after = &text[text.find("Taken back.").unwrap()..];
    assert!(after.contains("O's move:"), "{text}");
    // A person against a machine that would resign at its next turn whatever
    // they played: the Cat's game at once.
    let dir = std::env::temp_dir().join(format!("tabula-newcomer-cat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("empty.json");
    against_matchbox(&file, 0);
    let (out, text) = play(
        &["tictactoe", "--resume", file.to_str().unwrap()],
        "resign\nn\n",
    );
    assert_success(&out);
    assert!(
        text.contains("X resigns, then O too: every player resigned, so the Cat wins"),
        "{text}"
    );
    assert!(text.contains("(Cat got 1)"), "{text}");
    // The same machine with beads left plays on: the resignation is a loss.
    against_matchbox(&file, 1);
    let (out, text) = play(
        &["tictactoe", "--resume", file.to_str().unwrap()],
        "resign\nn\n",
    );
    assert_success(&out);
    assert!(text.contains("X resigns: O wins"), "{text}");
    assert!(!text.contains("may resign too"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}
