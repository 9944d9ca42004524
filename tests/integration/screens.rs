//! The play screen as a player sees it (issue 24, the terminal): `tabula play`
//! run in a pseudo-terminal of 80 columns and 24 lines (portable-pty), its
//! output drawn by a terminal emulator (vt100), and each check made on the
//! screen's rows, as `tmux capture-pane` would show them.

use portable_pty::{native_pty_system, CommandBuilder, PtySize};
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const ROWS: u16 = 24;
const COLS: u16 = 80;

/// `tabula` in a terminal of 80 x 24 whose screen the test reads.
struct Screen {
    parser: Arc<Mutex<vt100::Parser>>,
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
}

impl Screen {
    fn start(args: &[&str], env: &[(&str, &str)]) -> Screen {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_tabula"));
        cmd.args(args);
        cmd.env("TERM", "xterm");
        cmd.env_remove("COLUMNS");
        cmd.env_remove("LINES");
        cmd.env("NO_COLOR", "1");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = pair.slave.spawn_command(cmd).expect("tabula starts");
        drop(pair.slave);
        let parser = Arc::new(Mutex::new(vt100::Parser::new(
            ROWS.try_into().unwrap(),
            COLS.try_into().unwrap(),
            1000,
        )));
        let writer = Arc::new(Mutex::new(pair.master.take_writer().expect("a writer")));
        let mut reader = pair.master.try_clone_reader().expect("a reader");
        let (p, w) = (parser.clone(), writer.clone());
        std::thread::spawn(move || {
            // The master stays open as long as this thread holds it.
            let _master = pair.master;
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut parser = p.lock().unwrap();
                parser.process(&buf[..n]);
                // A line editor asks where the cursor is; a terminal answers.
                if buf[..n].windows(4).any(|x| x == b"\x1b[6n") {
                    let (r, c) = parser.screen().cursor_position();
                    let _ = write!(w.lock().unwrap(), "\x1b[{};{}R", r + 1, c + 1);
                }
            }
        });
        Screen {
            parser,
            writer,
            child,
        }
    }

    /// Types a line and Enter.
    fn send(&self, line: &str) {
        let mut w = self.writer.lock().unwrap();
        write!(w, "{line}\r").unwrap();
        w.flush().unwrap();
    }

    /// Types raw bytes, as a terminal set to another encoding sends them.
    fn send_bytes(&self, bytes: &[u8]) {
        let mut w = self.writer.lock().unwrap();
        w.write_all(bytes).unwrap();
        w.flush().unwrap();
    }

    /// The rows of the screen now, trailing spaces dropped.
    fn rows(&self) -> Vec<String> {
        let parser = self.parser.lock().unwrap();
        parser
            .screen()
            .rows(0, COLS)
            .map(|r| r.trim_end().to_string())
            .collect()
    }

    fn text(&self) -> String {
        self.rows().join("\n")
    }

    /// Waits until the screen's last non-empty row ends with `prompt` and the
    /// screen holds `text` (give "" for any), then returns the screen.
    fn wait(&self, text: &str, prompt: &str, seconds: u64) -> String {
        let began = Instant::now();
        loop {
            let rows = self.rows();
            let last = rows.iter().rev().find(|r| !r.is_empty()).cloned();
            let screen = rows.join("\n");
            if screen.contains(text) && last.is_some_and(|l| l.ends_with(prompt.trim_end())) {
                // Let a last redraw land.
                std::thread::sleep(Duration::from_millis(150));
                return self.text();
            }
            if began.elapsed() > Duration::from_secs(seconds) {
                panic!("no {text:?} with the prompt {prompt:?} after {seconds} s:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for the program to end (within `seconds`) and returns the screen.
    fn wait_end(&mut self, seconds: u64) -> String {
        self.wait_exit(seconds).0
    }

    /// Waits for the program to end (within `seconds`): the screen and its
    /// exit status.
    fn wait_exit(&mut self, seconds: u64) -> (String, u32) {
        let began = Instant::now();
        while began.elapsed() < Duration::from_secs(seconds) {
            if let Ok(Some(status)) = self.child.try_wait() {
                std::thread::sleep(Duration::from_millis(150));
                return (self.text(), status.exit_code());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("still running after {seconds} s:\n{}", self.text());
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The row holding `what`, or a panic showing the screen.
fn row_with<'a>(screen: &'a str, what: &str) -> &'a str {
    screen
        .lines()
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no row with {what:?}:\n{screen}"))
}

/// The seed shown on a screen: "Game 4821937 — replay it with --seed 4821937".
fn shown_seed(screen: &str) -> u64 {
    let row = row_with(screen, "replay it with --seed ");
    let seed = row.rsplit(' ').next().unwrap();
    assert!(
        row.starts_with(&format!("Game {seed} ")),
        "the seed named once as the game's number: {row}"
    );
    seed.parse().unwrap_or_else(|_| panic!("a seed in {row:?}"))
}

/// The SameGame board: its rows of colours.
fn board_rows(screen: &str) -> Vec<String> {
    screen
        .lines()
        .filter(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.len() == 16 && words.iter().all(|w| w.parse::<u32>().is_ok())
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn a_game_draws_its_seed_shows_it_and_replays_from_it() {
    let first = Screen::start(&["play", "samegame"], &[]);
    let a = first.wait("Game ", "Your move:", 30);
    let second = Screen::start(&["play", "samegame"], &[]);
    let b = second.wait("Game ", "Your move:", 30);
    let (sa, sb) = (shown_seed(&a), shown_seed(&b));
    assert_ne!(sa, sb, "two runs drew the same seed");
    assert_eq!(board_rows(&a).len(), 15, "{a}");
    assert_ne!(board_rows(&a), board_rows(&b), "two runs dealt one board");
    // The seed given back deals the same board, and a saved game keeps it.
    let dir = std::env::temp_dir().join(format!("tabula-screens-seed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.json");
    let seed = sa.to_string();
    let again = Screen::start(
        &[
            "play",
            "samegame",
            "--seed",
            &seed,
            "--save",
            file.to_str().unwrap(),
        ],
        &[],
    );
    let c = again.wait("Game ", "Your move:", 30);
    assert_eq!(shown_seed(&c), sa);
    assert_eq!(board_rows(&c), board_rows(&a), "{c}");
    again.send("quit");
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&file).expect("the game saved")).unwrap();
    assert_eq!(saved["config"]["seed"], sa, "{saved}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn players_are_checked_before_anything_is_solved() {
    // An empty cache: solving Kono would take long and write its table there.
    let dir = std::env::temp_dir().join(format!("tabula-screens-kono-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cache = dir.to_str().unwrap();
    let env = [("TABULA_CACHE_DIR", cache)];
    let began = Instant::now();
    let mut bad = Screen::start(&["play", "kono", "--ai", "foo"], &env);
    let screen = bad.wait_end(20);
    assert!(screen.contains("bad player 'foo'"), "{screen}");
    assert!(
        began.elapsed() < Duration::from_secs(10),
        "refused only after {:?}",
        began.elapsed()
    );
    let random = Screen::start(&["play", "kono", "--ai", "random"], &env);
    let screen = random.wait("Bottom: the computer — Random moves", "Top's move:", 20);
    assert!(!screen.contains("olving"), "{screen}");
    random.send("quit");
    drop(random);
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(files.is_empty(), "something was solved: {files:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_progress_bar_fits_the_line_and_leaves_nothing_behind() {
    // Kono is solved (from an empty cache) when the perfect player needs it,
    // behind a bar with a long message.
    let dir = std::env::temp_dir().join(format!("tabula-screens-bar-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let env = [("TABULA_CACHE_DIR", dir.to_str().unwrap())];
    let s = Screen::start(&["play", "kono", "--ai", "perfect"], &env);
    let mut most = 0;
    let began = Instant::now();
    loop {
        let screen = s.text();
        let bars = screen.lines().filter(|l| l.contains("solving")).count();
        most = most.max(bars);
        if screen.contains("Top's move:") || began.elapsed() > Duration::from_secs(300) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let screen = s.wait("", "Top's move:", 5);
    assert!(most == 1, "the bar took {most} rows at once (or none)");
    assert!(
        !screen.contains("solving") && !screen.contains("=>"),
        "the bar left a line behind:\n{screen}"
    );
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn auto120_fits_the_screen_plays_a_lone_move_and_offers_no_roll() {
    // Seed 5: Player 1 rolls with every marker on 1 (one choice), then Player 2 moves.
    let s = Screen::start(&["play", "auto120", "--seed", "5"], &[]);
    let screen = s.wait("rolled", "Player 1's move:", 30);
    assert!(
        screen.contains("(no other choice: played for you)"),
        "{screen}"
    );
    assert!(!screen.contains("roll N"), "{screen}");
    // The title, the whole board, its status and the last log line on one
    // screen: the board draws the 34 squares a marker can stand on, nine to a
    // line (it drew all 120, twelve lines, and the title scrolled away).
    let rows: Vec<&str> = screen.lines().collect();
    assert_eq!(
        rows[0], "Multiplication Ludo (Auto120)",
        "the title scrolled away:\n{screen}"
    );
    let top = rows
        .iter()
        .position(|l| l.starts_with("  2+"))
        .unwrap_or_else(|| panic!("the board's first row scrolled away:\n{screen}"));
    assert!(
        rows[..top].iter().any(|l| l.starts_with("5. Player 2")),
        "the last log line scrolled away:\n{screen}"
    );
    assert!(
        screen.contains(" 60*") && screen.contains(" 108"),
        "{screen}"
    );
    assert!(screen.contains("x1 on "), "{screen}");
    // Each marker on the board by its own name ("x1", "o4"), as the lines
    // below the board name it.
    let board = &rows[top..];
    for row in board.iter().take_while(|l| !l.starts_with("Player")) {
        for word in row.split([' ', '*', '+']) {
            let names = word.trim_start_matches(|c: char| c.is_ascii_digit());
            let mut chars = names.chars();
            while let Some(letter) = chars.next() {
                assert!(letter == 'x' || letter == 'o', "{word} in:\n{screen}");
                let number = chars.next().unwrap_or(' ');
                assert!(('1'..='4').contains(&number), "{word} in:\n{screen}");
            }
        }
    }
    // The list of moves stays under the board: the board is not drawn again.
    s.send("moves");
    let screen = s.wait("legal move", "Player 1's move:", 10);
    let rows: Vec<&str> = screen.lines().collect();
    let at = |what: &str| rows.iter().rposition(|l| l.contains(what)).unwrap();
    assert!(
        at("legal move") > at("Player 1 (x):"),
        "the board drawn again after 'moves':\n{screen}"
    );
}

#[test]
fn northcott_set_up_go_and_moves_read_right() {
    let s = Screen::start(&["play", "northcott", "--seed", "1"], &[]);
    s.wait("", "O's move:", 20);
    s.send("setup X 1:10");
    let screen = s.wait("Set-up", "O's move:", 10);
    let logged = row_with(&screen, "1. ");
    assert!(
        logged.contains("Set-up: X put on cell 10 of row 1"),
        "{screen}"
    );
    assert!(
        !screen.contains("1. O:") && !screen.contains("1. O plays"),
        "{screen}"
    );
    s.send("go");
    let screen = s.wait("It is your move", "O's move:", 10);
    assert!(screen.contains("It is your move (O)"), "{screen}");
    s.send("moves");
    let screen = s.wait("legal moves:", "O's move:", 10);
    let list: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.contains("legal moves:"))
        .skip(1)
        .take_while(|l| !l.contains("'s move"))
        .collect();
    assert!(list.len() >= 3, "{screen}");
    for row in &list {
        assert!(row.starts_with("  ") && row.len() < 80, "{screen}");
        for mv in row.split(',').map(str::trim).filter(|m| !m.is_empty()) {
            assert!(
                mv.contains(':') && mv.contains("->"),
                "a move cut in two: {mv:?}\n{screen}"
            );
        }
    }
}

#[test]
fn samegame_moves_are_never_cut_in_two() {
    let s = Screen::start(&["play", "samegame", "--seed", "1"], &[]);
    s.wait("", "Your move:", 20);
    s.send("moves");
    let screen = s.wait("legal moves:", "Your move:", 10);
    let list: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.contains("legal moves:"))
        .skip(1)
        .take_while(|l| !l.contains("Your move"))
        .collect();
    assert!(!list.is_empty(), "{screen}");
    for mv in list.iter().flat_map(|r| r.split(',')).map(str::trim) {
        if !mv.is_empty() {
            assert_eq!(
                mv.split_whitespace().count(),
                2,
                "a move cut in two: {mv:?}\n{screen}"
            );
        }
    }
}

#[test]
fn poggle_explains_an_unsolvable_board_in_plain_words_with_its_pattern() {
    let s = Screen::start(
        &[
            "play",
            "poggle",
            "--variant",
            "size=4",
            "--position",
            "1000/0000/0000/0000",
        ],
        &[],
    );
    let screen = s.wait("", "Your move:", 20);
    assert!(
        screen.contains("1 button not yet the goal colour"),
        "{screen}"
    );
    assert!(!screen.contains("1 buttons"), "{screen}");
    s.send("hint");
    let screen = s.wait("Pattern:", "Your move:", 20);
    for jargon in [
        "column space",
        "press matrix",
        "obstruction",
        "Nothing here tells",
    ] {
        assert!(!screen.contains(jargon), "{jargon}:\n{screen}");
    }
    assert!(
        screen.contains("No presses can solve this board"),
        "{screen}"
    );
    // The pattern the words speak of is shown: four rows of 1s and dots.
    let pattern = screen
        .lines()
        .skip_while(|l| !l.contains("Pattern:"))
        .skip(2)
        .take(4)
        .filter(|l| l.split_whitespace().skip(1).all(|w| w == "1" || w == "."))
        .count();
    assert_eq!(pattern, 4, "{screen}");
}

#[test]
fn poggle_counts_presses_in_the_singular() {
    let mut s = Screen::start(
        &["play", "poggle", "--variant", "size=4", "--human", "none"],
        &[],
    );
    let screen = s.wait_end(20);
    assert!(screen.contains("(solution: 1 press left)"), "{screen}");
    assert!(!screen.contains("1 presses"), "{screen}");
    // Solved: no invitation to press a button.
    assert!(screen.contains("solved"), "{screen}");
    assert!(!screen.contains("Press a button"), "{screen}");
}

#[test]
fn a_finished_game_shows_no_one_to_move() {
    let s = Screen::start(&["play", "tictactoe", "--ai", "random", "--seed", "3"], &[]);
    s.wait("", "X's move:", 20);
    s.send("resign");
    let screen = s.wait("resigns", "Play again? (Y/n, or undo)", 10);
    let after: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.contains("X's move: resign"))
        .collect();
    assert!(after.iter().any(|l| l.contains("O wins")), "{screen}");
    assert!(
        !after.iter().any(|l| l.contains("to move")),
        "the status still names a player to move:\n{screen}"
    );
}

#[test]
fn the_winning_move_can_be_undone_at_play_again() {
    let s = Screen::start(&["play", "tictactoe", "--human", "both"], &[]);
    for (mv, next) in [("1", "O"), ("4", "X"), ("2", "O"), ("5", "X")] {
        s.wait("", "'s move:", 10);
        s.send(mv);
        s.wait(&format!("{next} to move"), &format!("{next}'s move:"), 10);
    }
    s.send("3");
    s.wait("X wins", "Play again? (Y/n, or undo)", 10);
    s.send("undo");
    let screen = s.wait("Taken back.", "X's move:", 10);
    assert!(screen.contains("X to move"), "{screen}");
    // The game goes on from before the winning move.
    s.send("3");
    s.wait("X wins", "Play again? (Y/n, or undo)", 10);
}

#[test]
fn wide_boards_keep_each_row_on_one_line() {
    for (args, cells) in [
        (
            vec!["play", "samegame", "--variant", "size=30x12", "--seed", "3"],
            30,
        ),
        (vec!["play", "poggle", "--variant", "size=30"], 30),
    ] {
        let s = Screen::start(&args, &[]);
        let screen = s.wait("", "Your move:", 20);
        let rows: Vec<&str> = screen
            .lines()
            .filter(|l| {
                // A board row starts with its number (column numbers are indented).
                let words: Vec<&str> = l.split_whitespace().collect();
                l.len() - l.trim_start().len() <= 3
                    && words.len() > 2
                    && words.iter().all(|w| w.parse::<u32>().is_ok())
            })
            .collect();
        assert!(rows.len() >= 10, "{screen}");
        for row in rows {
            // A row label and one colour per cell, nothing carried to the next line.
            assert!(
                row.split_whitespace().count() >= cells,
                "{args:?}: a row cut in two:\n{screen}"
            );
        }
    }
}

#[test]
fn a_wide_northcott_board_keeps_each_row_on_one_line() {
    let s = Screen::start(
        &["play", "northcott", "--variant", "size=30x3", "--seed", "1"],
        &[],
    );
    let screen = s.wait("", "O's move:", 20);
    let rows: Vec<&str> = screen.lines().filter(|l| l.contains(" gap ")).collect();
    assert_eq!(rows.len(), 3, "{screen}");
    for row in rows {
        // The row number, 30 cells, "gap" and its size.
        assert_eq!(row.split_whitespace().count(), 33, "{screen}");
    }
}

#[test]
fn the_line_editor_refuses_what_it_cannot_read_and_the_game_goes_on() {
    let s = Screen::start(&["play", "tictactoe", "--ai", "random", "--seed", "1"], &[]);
    s.wait("", "X's move:", 20);
    // A Latin-1 "é": one byte that is not UTF-8.
    s.send_bytes(b"\xe9\r");
    let screen = s.wait("not text", "X's move:", 10);
    assert!(!screen.contains("cannot read input"), "{screen}");
    s.send("5");
    s.wait("1. X plays 5", "X's move:", 10);
    // A line past the cap: the editor takes one character more than the cap,
    // and the line is refused when entered.
    s.send(&"x".repeat(4200));
    let screen = s.wait("longer than 4096 characters", "X's move:", 120);
    assert!(!screen.contains("cannot read move"), "{screen}");
    s.send("1");
    s.wait("3. X plays 1", "X's move:", 10);
}

#[test]
fn ctrl_c_says_the_game_was_stopped() {
    let mut s = Screen::start(&["play", "tictactoe", "--ai", "random", "--seed", "1"], &[]);
    s.wait("", "X's move:", 20);
    s.send_bytes(b"\x03");
    let (screen, status) = s.wait_exit(20);
    assert!(screen.contains("Stopped (Ctrl-C): bye."), "{screen}");
    assert!(!screen.contains("End of input"), "{screen}");
    // The status of a command stopped by Ctrl-C (128 + SIGINT), as a shell
    // or a script reads it; not 0, which says the command finished.
    assert_eq!(status, 130, "{screen}");
}

#[test]
fn pig_says_what_it_prepares_on_first_use_with_a_bar_that_says_elapsed() {
    // An empty cache: Pig's computer needs its table of best play, which takes
    // a while to work out. The player is told, above a bar, before any wait.
    let dir = std::env::temp_dir().join(format!("tabula-screens-pig-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let env = [("TABULA_CACHE_DIR", dir.to_str().unwrap())];
    let s = Screen::start(&["play", "pig", "--seed", "4"], &env);
    let began = Instant::now();
    let screen = loop {
        let screen = s.text();
        if screen.contains("Working out") || began.elapsed() > Duration::from_secs(60) {
            break screen;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        screen.contains("Working out Pig's table of best play once"),
        "{screen}"
    );
    // The bar says what its time is: time spent, not an unlabelled estimate.
    let bar = row_with(&screen, "Pig: preparing");
    assert!(bar.contains('%') && bar.ends_with("elapsed"), "{bar}");
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rules_on_a_terminal_go_through_the_pager() {
    // As git and man do: the page through $PAGER (here one that shows three
    // lines), so that 29-47 lines of rules do not scroll past.
    let mut s = Screen::start(&["rules", "kono"], &[("PAGER", "head -3")]);
    let (screen, status) = s.wait_exit(20);
    assert_eq!(status, 0, "{screen}");
    let shown = screen.lines().filter(|l| !l.trim().is_empty()).count();
    assert!((1..=3).contains(&shown), "not paged:\n{screen}");
}

#[test]
fn samegames_first_screen_keeps_its_title_on_24_rows() {
    let s = Screen::start(&["play", "samegame", "--seed", "3"], &[]);
    let screen = s.wait("", "Your move:", 30);
    let first = screen.lines().next().unwrap_or_default();
    assert_eq!(first, "SameGame", "the title scrolled away:\n{screen}");
    assert_eq!(board_rows(&screen).len(), 15, "{screen}");
}

#[test]
fn a_long_error_is_wrapped_to_the_terminal_and_keeps_options_whole() {
    // About 260 characters on one line before, cut by the terminal's edge.
    let mut s = Screen::start(&["solve", "auto120"], &[]);
    let (screen, status) = s.wait_exit(60);
    assert_eq!(status, 2, "{screen}");
    let lines: Vec<&str> = screen.lines().filter(|l| !l.is_empty()).collect();
    assert!(
        lines.len() > 1 && lines[0].starts_with("tabula: "),
        "{screen}"
    );
    assert!(lines[1..].iter().all(|l| l.starts_with("  ")), "{screen}");
    assert!(
        screen.contains("--max-memory"),
        "an option cut in two:\n{screen}"
    );
}
