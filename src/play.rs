//! `tabula play`: the game monitor of Stenger's "Associative Arrays" in a terminal — the board with numbered
//! squares, a prompt, the move log, `resign`, score tallies with the Cat, and
//! "play again".

use crate::{progress, report, style};
use anyhow::{bail, Context, Result};
use clap::Args;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use tabula_engine::{build, Match, MatchConfig, MatchRecord, MatchView};

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game (see `tabula games`).
    pub game: String,
    /// Variant options, e.g. `size=16x4`.
    #[arg(long, default_value = "")]
    pub variant: String,
    /// The computer player (perfect, random, alphabeta, matchbox, menace, or a game's own).
    #[arg(long)]
    pub ai: Option<String>,
    /// The computer's level of effort, 0-100: random moves with probability (100-L)%.
    #[arg(long)]
    pub level: Option<u32>,
    /// Which seats the humans take: first, second, both or none.
    #[arg(long, default_value = "first")]
    pub human: String,
    /// Players per seat, comma separated (overrides --ai/--level/--human), e.g. `human,level:66`.
    #[arg(long)]
    pub players: Option<String>,
    /// Random seed (computer choices, dice, a dealt board); drawn at random when
    /// not given and shown at the start, so that a game can be replayed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start from this position (the game's text form).
    #[arg(long)]
    pub position: Option<String>,
    /// How many of your moves `undo` can take back, 0-1000 (default: no limit).
    #[arg(long)]
    pub undo_depth: Option<usize>,
    /// Keep the game in this file, rewritten after every move (resume with --resume).
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Resume a game saved with --save.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Keep the game in the database under this name, saved after every move
    /// (the same saved games the web UI lists).
    #[arg(long)]
    pub save_as: Option<String>,
    /// Resume a game saved in the database (by name or id).
    #[arg(long)]
    pub resume_saved: Option<String>,
    /// The database for --save-as / --resume-saved (default: the platform data directory).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Games to play when no human plays (computer against computer), 1-100000.
    #[arg(long, default_value_t = 1)]
    pub games: u64,
}

/// Where moves come from: a line editor with history on a terminal (arrow keys,
/// Ctrl-R), plain lines from a pipe or a file.
enum Input {
    Editor(Box<rustyline::DefaultEditor>),
    Lines(std::io::Lines<std::io::StdinLock<'static>>),
}

impl Input {
    fn new() -> Input {
        if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
            if let Ok(ed) = rustyline::DefaultEditor::new() {
                return Input::Editor(Box::new(ed));
            }
        }
        Input::Lines(std::io::stdin().lock().lines())
    }

    /// One line after showing `prompt`; `None` at the end of input (Ctrl-D).
    fn read(&mut self, out: &mut impl Write, prompt: &str) -> Result<Option<String>> {
        match self {
            Input::Editor(ed) => {
                out.flush()?;
                match ed.readline(prompt) {
                    Ok(line) => {
                        if !line.trim().is_empty() {
                            let _ = ed.add_history_entry(line.as_str());
                        }
                        Ok(Some(line))
                    }
                    Err(rustyline::error::ReadlineError::Interrupted)
                    | Err(rustyline::error::ReadlineError::Eof) => Ok(None),
                    Err(e) => bail!("cannot read input: {e}"),
                }
            }
            Input::Lines(lines) => {
                write!(out, "{prompt}")?;
                out.flush()?;
                match lines.next() {
                    Some(Ok(l)) => Ok(Some(l)),
                    Some(Err(e)) => bail!("cannot read input: {e}"),
                    None => Ok(None),
                }
            }
        }
    }
}

/// Builds the exact solution before play when a computer or a hint needs it,
/// saying what is happening when it takes a while (Kono solves its 64 million
/// positions once, then loads them from the cache).
fn prepare(handle: &dyn tabula_engine::DynGame, title: &str) {
    let pb = progress::bar(1000, &format!("{title}: solving"), false);
    let began = std::time::Instant::now();
    let said = std::cell::Cell::new(false);
    handle.prepare(&|f| {
        if f < 1.0 && !said.get() && began.elapsed().as_millis() > 300 {
            said.set(true);
            progress::notice(
                &pb,
                &format!(
                    "Solving {title} once for perfect play and hints: a few seconds, \
                     then the solution is kept for next time."
                ),
            );
        }
        pb.set_position((f.clamp(0.0, 1.0) * 1000.0) as u64);
    });
    pb.finish_and_clear();
}

/// Whether a player needs the game's exact solution before it can move: the
/// perfect player, and a level that mixes random moves with it. Other players
/// (random, the matchbox, a game's own) start at once, so nothing is solved
/// for them.
fn needs_solution(player: &str, info: &tabula_engine::GameInfo) -> bool {
    let Ok(spec) = tabula_engine::parse_player_spec(player) else {
        return false;
    };
    if spec.name == "perfect" {
        return true;
    }
    match spec.level_split(info.seats.len() == 2) {
        Some(Ok((_, Some(base)))) => base.name == "perfect",
        Some(Ok((_, None))) => info.level_base.as_deref() == Some("perfect"),
        _ => false,
    }
}

/// A computer player in words, not as its option string: `level:66` is
/// "medium: level 66 of 100", `alphabeta:depth=8` "alphabeta, depth 8".
fn player_words(player: &str, info: Option<&tabula_engine::GameInfo>) -> String {
    let Ok(spec) = tabula_engine::parse_player_spec(player) else {
        return player.to_string();
    };
    let two = info.is_some_and(|i| i.seats.len() == 2);
    if let Some(Ok((level, base))) = spec.level_split(two) {
        // A preset's name (low, medium, high) only for the game's own mix.
        let preset = info
            .filter(|_| base.is_none())
            .and_then(|i| {
                i.level_presets
                    .iter()
                    .find(|p| p.level == level && p.name != "perfect")
            })
            .map(|p| format!("{}: ", p.name))
            .unwrap_or_default();
        let over = base
            .map(|b| format!(", mixed with {}", b.name))
            .unwrap_or_default();
        return format!("{preset}level {level} of 100{over}");
    }
    if spec.options.is_empty() {
        return spec.name;
    }
    let options: Vec<String> = spec
        .options
        .split(',')
        .map(|o| o.trim().replace('=', " "))
        .filter(|o| !o.is_empty())
        .collect();
    format!("{}, {}", spec.name, options.join(", "))
}

/// A seed for a game whose seed was not given: short enough to read and type
/// again (`--seed 4821937`).
fn draw_seed() -> u64 {
    use rand::Rng;
    rand::thread_rng().gen_range(1..10_000_000)
}

fn seat_players(a: &PlayArgs, info: &tabula_engine::GameInfo) -> Result<Vec<String>> {
    let seats = info.seats.len();
    if let Some(p) = &a.players {
        let v: Vec<String> = p.split(',').map(|s| s.trim().to_string()).collect();
        if v.len() != seats {
            bail!("--players needs {seats} player(s), got {}", v.len());
        }
        return Ok(v);
    }
    let ai = match (&a.ai, a.level) {
        (_, Some(l)) if l > 100 => bail!("--level must be 0..=100"),
        (Some(ai), Some(l)) if ai.contains(':') => format!("{ai},level={l}"),
        (Some(ai), Some(l)) => format!("{ai}:level={l}"),
        (None, Some(l)) => format!("level:{l}"),
        (Some(ai), None) => ai.clone(),
        // The one rule, decided by the engine for every face (the browser reads the same).
        (None, None) => info.default_opponent.clone(),
    };
    if seats == 1 {
        return Ok(vec![match a.human.as_str() {
            "none" => ai,
            _ => "human".into(),
        }]);
    }
    let (h0, h1) = match a.human.as_str() {
        "first" => (true, false),
        "second" => (false, true),
        "both" => (true, true),
        "none" => (false, false),
        other => bail!("--human must be first, second, both or none (got '{other}')"),
    };
    Ok(vec![
        if h0 { "human".into() } else { ai.clone() },
        if h1 { "human".into() } else { ai },
    ])
}

/// Writes the record so that `--resume` reads it back (see [`crate::files::save`]).
pub fn save_record(path: &Path, record: &MatchRecord) -> Result<()> {
    let text = serde_json::to_string_pretty(record)?;
    Ok(crate::files::save(
        path,
        &text,
        crate::files::MAX_SAVED_BYTES,
    )?)
}

fn open_store(a: &PlayArgs) -> Result<Option<tabula_store::Store>> {
    if a.save_as.is_none() && a.resume_saved.is_none() {
        return Ok(None);
    }
    let store = match &a.db {
        Some(p) => {
            crate::files::check_database(p)?;
            tabula_store::Store::open(p)
        }
        None => tabula_store::Store::open_default(),
    }
    .map_err(|e| anyhow::anyhow!("cannot open the database: {e}"))?;
    Ok(Some(store))
}

pub fn run(a: PlayArgs) -> Result<()> {
    if a.games == 0 || a.games > 100_000 {
        bail!("--games must be between 1 and 100000");
    }
    tabula_engine::check_undo_depth(a.undo_depth)
        .map_err(|e| anyhow::anyhow!("--undo-depth: {e}"))?;
    let store = open_store(&a)?;
    if a.resume.is_some() && a.resume_saved.is_some() {
        bail!("give either --resume FILE or --resume-saved NAME, not both");
    }
    let saved = match (&store, &a.resume_saved) {
        (Some(st), Some(name)) => Some(
            st.load_game::<MatchRecord>(name)
                .map_err(|e| anyhow::anyhow!("{e}"))?
                .ok_or_else(|| {
                    anyhow::anyhow!("no saved game called '{name}' (see the web UI's saved games)")
                })?,
        ),
        _ => None,
    };
    let save_name = a
        .save_as
        .clone()
        .or_else(|| saved.as_ref().map(|(s, _)| s.name.clone()));
    let mut m: Box<dyn Match> = match (&a.resume, saved) {
        (_, Some((_, record))) => {
            record.check().context("the saved game cannot be resumed")?;
            same_game(&a.game, &record.game, "the saved game")?;
            resume(&record)?
        }
        (Some(path), None) => {
            let bytes = crate::files::read_bytes(path, crate::files::MAX_SAVED_BYTES)?;
            let record: MatchRecord = serde_json::from_slice(&bytes)
                .with_context(|| format!("{} is not a saved Tabula game", path.display()))?;
            record
                .check()
                .with_context(|| format!("{} is not a saved Tabula game", path.display()))?;
            same_game(&a.game, &record.game, &path.display().to_string())?;
            resume(&record)?
        }
        (None, None) => {
            let handle = build(&a.game, &a.variant)?;
            let info = handle.info();
            let players = seat_players(&a, &info)?;
            let config = |players: Vec<String>| MatchConfig {
                players,
                seed: a.seed.unwrap_or(0),
                position: a.position.clone(),
                undo_depth: a.undo_depth,
            };
            // Arguments first: every other player and the start are checked (a
            // bad `--ai foo` refused at once) before a perfect player waits for
            // the solution, and only such a player makes the game be solved.
            let needs: Vec<bool> = players.iter().map(|p| needs_solution(p, &info)).collect();
            if needs.contains(&true) {
                let others = players
                    .iter()
                    .zip(&needs)
                    .map(|(p, &n)| if n { "human".to_string() } else { p.clone() })
                    .collect();
                handle.new_match(config(others))?;
                prepare(handle.as_ref(), &info.title);
            }
            let seed = a.seed.unwrap_or_else(draw_seed);
            handle.new_match(MatchConfig {
                seed,
                ..config(players)
            })?
        }
    };
    // Every line within the terminal's width (report::width), whatever the game prints.
    let mut out = crate::wrapping::Wrapping::new(anstream::stdout().lock(), report::width());
    let mut input = Input::new();
    let v = m.view();
    let info = build(&v.game, &v.variant).ok().map(|h| h.info());
    let words = info
        .as_ref()
        .map(|i| tabula_engine::variant_words(&i.options, &v.variant))
        .unwrap_or_default();
    // A forced move is played for the player only in games of dice, where a roll
    // often leaves one marker to move; elsewhere a lone move is still the
    // player's to see and make.
    let dice = info.as_ref().is_some_and(|i| i.chance);
    writeln!(
        out,
        "{}{}",
        style::bold(&v.title),
        if words.is_empty() {
            String::new()
        } else {
            format!(" ({words})")
        }
    )?;
    for s in &v.seats {
        let who = match s.player.as_str() {
            "human" => "you".to_string(),
            player => format!("the computer ({})", player_words(player, info.as_ref())),
        };
        writeln!(out, "  {}: {who}", s.name)?;
    }
    // Each game has its own notation: say it once, with a move of this position.
    let commands = "moves, hint, undo, redo, board, resign, new, rules, save FILE, help, quit.";
    match v.legal_moves.first() {
        Some(first) => writeln!(
            out,
            "Moves are written like '{}' ('rules' explains them). Also: {commands}",
            first.mv
        )?,
        None => writeln!(out, "Type a move, or: {commands}")?,
    }
    // The seed last, just above the board, so that it is on the first screen
    // even when the board fills most of it (SameGame's 15 rows).
    let seed = m.record().config.seed;
    writeln!(out, "Game {seed} — replay it with --seed {seed}")?;
    let mut shown_log = 0usize;
    let mut games_done = 0u64;
    // After a set-up move (the Northcott slides' Ctrl+click) the computer waits for `go`.
    let mut paused = false;
    // The board is drawn again only when something changed (or on `board`), so
    // that a hint, the list of moves or the help stays on the screen.
    let mut redraw = true;
    // Log lines of moves played for the player because they were the only move.
    let mut forced: Vec<usize> = Vec::new();
    // After an undo, a lone move waits for the player instead of being played again.
    let mut hold_forced = false;
    loop {
        let v = m.view();
        // After an undo the log is shorter: its lines are on the screen already,
        // so the next line printed is the next move's (a long game's whole log
        // is not printed again).
        shown_log = shown_log.min(v.log.len());
        forced.retain(|&i| i < v.log.len());
        if dice
            && !hold_forced
            && !paused
            && v.human_to_move
            && !v.turn.is_over()
            && one_choice(&v.legal_moves)
        {
            let only = v.legal_moves[0].mv.clone();
            let before = v.log.len();
            m.play(&only)?;
            forced.push(before);
            m.advance()?;
            redraw = true;
            continue;
        }
        // Numbered as the user reads them: a die roll folded into the line of the
        // move it led to takes no number of its own.
        for (i, e) in v.log.iter().enumerate().skip(shown_log) {
            let note = if forced.contains(&i) {
                " (no other choice: played for you)"
            } else {
                ""
            };
            writeln!(out, "{}. {}{note}", i + 1, e.text)?;
            redraw = true;
        }
        shown_log = v.log.len();
        if let Some(path) = &a.save {
            save_record(path, &m.record())?;
        }
        if let (Some(st), Some(name)) = (&store, &save_name) {
            st.save_game(Some(name), &m.record(), v.result.as_deref())
                .map_err(|e| anyhow::anyhow!("cannot save to the database: {e}"))?;
        }
        let over = v.turn.is_over();
        if redraw {
            draw(&mut out, &v)?;
            redraw = false;
        }
        if over {
            games_done += 1;
            writeln!(out, "{}", tally_line(&v))?;
            let humans = v.seats.iter().any(|s| s.player == "human");
            if !humans {
                if games_done >= a.games {
                    return Ok(());
                }
                m.new_game();
                m.advance()?;
                shown_log = 0;
                redraw = true;
                continue;
            }
            // The monitor of Stenger's "Associative Arrays": "Play again?" answered Yes
            // unless the user says no; `undo` takes the last move back, the winning
            // one included (the seeds' undo queue holds it).
            let again = loop {
                match input.read(&mut out, "Play again? (Y/n, or undo) ")? {
                    None => break None,
                    Some(l) => match l.trim().to_ascii_lowercase().as_str() {
                        "" | "y" | "yes" => break Some(true),
                        "n" | "no" | "q" | "quit" | "exit" => break None,
                        "undo" => break Some(false),
                        _ => writeln!(out, "Answer yes or no (Enter: yes), or undo.")?,
                    },
                }
            };
            match again {
                Some(true) => {
                    m.new_game();
                    m.advance()?;
                    paused = false;
                    hold_forced = false;
                    shown_log = 0;
                    redraw = true;
                    writeln!(out)?;
                }
                Some(false) => {
                    if m.undo() {
                        hold_forced = true;
                        redraw = true;
                        writeln!(out, "Taken back.")?;
                    } else {
                        writeln!(out, "Nothing to undo.")?;
                    }
                }
                None => {
                    writeln!(out)?;
                    return Ok(());
                }
            }
            continue;
        }
        if !v.human_to_move && !paused {
            // Nothing for a human to do: let the computers and dice go on.
            if m.advance()?.is_empty() && !m.turn().is_over() {
                bail!("the game cannot go on: no player can move");
            }
            continue;
        }
        let who = v
            .to_move
            .map(|s| v.seats[s].name.clone())
            .unwrap_or_default();
        let prompt = if paused && !v.human_to_move {
            format!("(set-up: 'setup MOVE' or 'go') {who}'s move: ")
        } else if v.seats.len() == 1 {
            "Your move: ".to_string()
        } else {
            format!("{who}'s move: ")
        };
        let line = match input.read(&mut out, &prompt)? {
            Some(l) => l,
            None => {
                writeln!(out, "\nEnd of input: bye.")?;
                return Ok(());
            }
        };
        let cmd = line.trim();
        let lower = cmd.to_ascii_lowercase();
        match lower.as_str() {
            "" => writeln!(
                out,
                "Try again: type a move (e.g. {}), or 'help'.",
                example(&v)
            )?,
            "quit" | "exit" | "q" => return Ok(()),
            "help" | "?" => help(&mut out, &v)?,
            "moves" => {
                let names: Vec<String> = v.legal_moves.iter().map(|m| m.mv.clone()).collect();
                write!(
                    out,
                    "{}{}",
                    report::plural(names.len(), "legal move", "legal moves"),
                    if names.is_empty() { ".\n" } else { ":\n" }
                )?;
                if !names.is_empty() {
                    write!(out, "{}", report::list(&names, ", ", report::width(), "  "))?;
                }
            }
            "board" => redraw = true,
            "undo" => {
                if m.undo() {
                    paused = false;
                    hold_forced = true;
                    redraw = true;
                    writeln!(out, "Taken back.")?;
                } else {
                    writeln!(out, "Nothing to undo.")?;
                }
            }
            "redo" => {
                if m.redo() {
                    redraw = true;
                } else {
                    writeln!(out, "Nothing to redo.")?;
                }
            }
            "new" | "reset" => {
                m.new_game();
                paused = false;
                hold_forced = false;
                m.advance()?;
                shown_log = 0;
                redraw = true;
            }
            "go" if paused && !v.human_to_move => {
                paused = false;
            }
            "go" => writeln!(
                out,
                "It is your move ({who}): 'go' lets the computer answer after a set-up move."
            )?,
            _ if lower.starts_with("setup ") => match m.play_setup(cmd[6..].trim()) {
                Ok(_) => {
                    paused = true;
                    redraw = true;
                }
                Err(e) => writeln!(out, "Try again: {e}.")?,
            },
            "hint" => {
                if let Ok(handle) = build(&v.game, &v.variant) {
                    prepare(handle.as_ref(), &v.title);
                }
                hint(&mut out, m.as_ref())?
            }
            "rules" => rules(&mut out, &v.game, &v.variant)?,
            "resign" => {
                m.resign()?;
                redraw = true;
            }
            // Stenger's "Associative Arrays": "you can also force a win by entering 'win', although this
            // is cheating except when used by authorized testers".
            "win" => match m.declare_win() {
                Ok(()) => redraw = true,
                Err(e) => writeln!(out, "Try again: {e}.")?,
            },
            _ if lower.starts_with("save ") => {
                let path = PathBuf::from(cmd[5..].trim());
                match save_record(&path, &m.record()) {
                    Ok(()) => writeln!(out, "Saved to {}.", path.display())?,
                    Err(e) => writeln!(out, "Not saved: {e:#}")?,
                }
            }
            _ => match m.play(cmd) {
                Ok(_) => {
                    paused = false;
                    hold_forced = false;
                    redraw = true;
                    m.advance()?;
                }
                Err(e) => writeln!(
                    out,
                    "Try again: {e}. (e.g. {}; 'moves' lists them)",
                    example(&v)
                )?,
            },
        }
    }
}

/// A saved match taken up again: its game built (and solved first when a
/// player of it needs the solution) and played on to the human's turn.
fn resume(record: &MatchRecord) -> Result<Box<dyn Match>> {
    let handle = build(&record.game, &record.variant)?;
    let info = handle.info();
    if record
        .config
        .players
        .iter()
        .any(|p| needs_solution(p, &info))
    {
        prepare(handle.as_ref(), &info.title);
    }
    let mut m = handle.resume(record)?;
    m.advance()?;
    Ok(m)
}

/// Whether the legal moves leave no choice: one move, or moves that all do the
/// same (Auto120's markers standing on one square: each goes to the same square).
fn one_choice(moves: &[tabula_engine::MoveInfo]) -> bool {
    match moves {
        [] => false,
        [_] => true,
        [first, rest @ ..] => {
            !first.cells.is_empty() && rest.iter().all(|m| m.cells == first.cells)
        }
    }
}

/// Lines of a game's own status that speak of the next move: wrong once the game
/// is over by a resignation, a declared win or a draw rule, which the position
/// itself does not know of.
fn speaks_of_next_move(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    [
        " to move",
        " to play",
        " to roll",
        "'s move",
        "choose a marker",
        "(type ",
        "press a button",
    ]
    .iter()
    .any(|w| l.contains(w))
}

/// The board, the game's status lines it does not show itself and, at the end,
/// the result (without any line still asking for a move).
fn draw(out: &mut impl Write, v: &MatchView) -> Result<()> {
    let over = v.turn.is_over();
    let board: String = if over {
        v.board_text
            .lines()
            .filter(|l| !speaks_of_next_move(l))
            .map(|l| format!("{l}\n"))
            .collect()
    } else {
        v.board_text.clone()
    };
    // No blank line between the board and the prompt: a screen of 24 lines.
    writeln!(
        out,
        "\n{}",
        style::colour_board(&board, &v.view).trim_end_matches('\n')
    )?;
    // The board text of some games already shows the status or the result.
    let shown = |line: &str| v.board_text.contains(line);
    for s in v.view.status.iter().filter(|s| !shown(s)) {
        if !(over && speaks_of_next_move(s)) {
            writeln!(out, "{s}")?;
        }
    }
    if over {
        let result = v.result.clone().unwrap_or_default();
        let verdict = match won(v) {
            Some(true) => "you win.",
            Some(false) => "you lose.",
            None => "",
        };
        if !shown(&result) {
            let sep = if verdict.is_empty() { "" } else { ": " };
            writeln!(out, "{result}{sep}{verdict}")?;
        } else if !verdict.is_empty() {
            // The board already says who won: the verdict as a sentence of its own.
            writeln!(out, "Y{}", &verdict[1..])?;
        }
    }
    Ok(())
}

/// Whether the one person playing against the computer won (a seat's name
/// alone does not say which side was theirs); `None` for a draw, a puzzle, or
/// two people or none at the board.
fn won(v: &MatchView) -> Option<bool> {
    let humans: Vec<usize> = (0..v.seats.len())
        .filter(|&i| v.seats[i].player == "human")
        .collect();
    match (humans.as_slice(), v.outcome) {
        ([me], Some(tabula_core::Outcome::Win(w))) if v.seats.len() == 2 => Some(w == *me),
        _ => None,
    }
}

/// Refuses a saved game of another game than the one named on the command line.
fn same_game(asked: &str, saved: &str, what: &str) -> Result<()> {
    let asked_entry = tabula_engine::find(asked).ok().map(|e| e.name);
    if asked_entry != Some(saved) && asked != saved {
        bail!("{what} is a game of {saved}, not {asked}: run `tabula play {saved} --resume …`");
    }
    Ok(())
}

fn rules(out: &mut impl Write, game: &str, variant: &str) -> Result<()> {
    let text = build(game, variant)?.rules();
    write!(out, "{}", crate::commands::markdown_for_terminal(&text))?;
    Ok(())
}

fn example(v: &MatchView) -> String {
    v.legal_moves
        .first()
        .map(|m| format!("'{}'", m.mv))
        .unwrap_or_else(|| "a move".into())
}

fn tally_line(v: &MatchView) -> String {
    // A puzzle has no Cat: it is solved or not.
    if v.seats.len() == 1 {
        return format!(
            "Games: {} played, {} solved",
            v.tally.games,
            v.tally.wins.first().copied().unwrap_or(0)
        );
    }
    let parts: Vec<String> = v
        .seats
        .iter()
        .zip(&v.tally.wins)
        .map(|(s, w)| format!("{} {}", s.name, w))
        .collect();
    format!("Scores: {} (Cat got {})", parts.join(", "), v.tally.cat)
}

fn help(out: &mut impl Write, v: &MatchView) -> Result<()> {
    writeln!(
        out,
        "Type a move in the game's notation, for example {}.",
        example(v)
    )?;
    writeln!(out, "  moves    list the legal moves")?;
    writeln!(
        out,
        "  hint     every move graded win/draw/loss with remoteness"
    )?;
    writeln!(out, "  undo     take back your last move (and the replies)")?;
    writeln!(out, "  redo     play again what undo took back")?;
    writeln!(out, "  board    show the board again")?;
    writeln!(out, "  resign   give up this game")?;
    writeln!(
        out,
        "  win      declare that you win (for testers; the other side loses)"
    )?;
    writeln!(out, "  rules    the rules of the game and its notation")?;
    writeln!(
        out,
        "  new      start a new game (also 'reset': back to the start)"
    )?;
    writeln!(
        out,
        "  setup M  play M for the side to move with no reply (set-up mode); 'go' lets the computer answer"
    )?;
    writeln!(
        out,
        "  save F   save the game to file F (resume with --resume F)"
    )?;
    writeln!(out, "  quit     leave")?;
    Ok(())
}

fn hint(out: &mut impl Write, m: &dyn Match) -> Result<()> {
    out.flush()?;
    let working = progress::spinner("Working out a hint…");
    let h = m.hint();
    drop(working);
    match h {
        Ok(h) => write!(out, "{}", report::hint_text(&h, report::width()))?,
        Err(e) => writeln!(out, "No hint: {e}")?,
    }
    Ok(())
}
