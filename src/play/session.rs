//! The game monitor's loop: the log, the board, the prompt and every command a
//! player types, until they quit, the input ends or the games asked for are played.

use super::input::{read_text, Input, Line};
use super::setup::{prepare, save_record, Started};
use super::{screen, PlayArgs};
use crate::{report, style};
use anyhow::{bail, Result};
use std::io::Write;
use std::path::PathBuf;
use tabula_engine::{build, GameInfo, Match, MatchView};

/// The terminal the screen is written to: every line within its width.
type Out = crate::wrapping::Wrapping<anstream::AutoStream<std::io::StdoutLock<'static>>>;

/// Whether the loop goes on after a step.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Stop,
}

/// One `tabula play` run: the match, where it is kept, the terminal and what
/// the screen already shows.
pub struct Session<'a> {
    args: &'a PlayArgs,
    m: Box<dyn Match>,
    store: Option<tabula_store::Store>,
    save_name: Option<String>,
    info: Option<GameInfo>,
    out: Out,
    input: Input,
    /// A forced move is played for the player only in games of dice, where a
    /// roll often leaves one marker to move; elsewhere a lone move is still the
    /// player's to see and make.
    dice: bool,
    /// Log lines already on the screen.
    shown_log: usize,
    /// Games ended between computers (their run stops after `--games`).
    games_done: u64,
    /// The games a resumed match had already played.
    tally_at_start: u64,
    /// After a set-up move (the Northcott slides' Ctrl+click) the computer waits for `go`.
    paused: bool,
    /// The board is drawn again only when something changed (or on `board`), so
    /// that a hint, the list of moves or the help stays on the screen.
    redraw: bool,
    /// Log lines of moves played for the player because they were the only move.
    forced: Vec<usize>,
    /// After an undo, a lone move waits for the player instead of being played again.
    hold_forced: bool,
    /// The player left with Ctrl-C: the program ends with the status of an
    /// interrupted command (130), as shells expect.
    interrupted: bool,
}

impl<'a> Session<'a> {
    pub fn new(args: &'a PlayArgs, started: Started) -> Session<'a> {
        let v = started.game.view();
        let info = build(&v.game, &v.variant).ok().map(|h| h.info());
        Session {
            args,
            m: started.game,
            store: started.store,
            save_name: started.save_name,
            dice: info.as_ref().is_some_and(|i| i.chance),
            info,
            // Every line within the terminal's width (report::width), whatever the game prints.
            out: crate::wrapping::Wrapping::new(anstream::stdout().lock(), report::width()),
            input: Input::new(),
            shown_log: 0,
            games_done: 0,
            tally_at_start: v.tally.games,
            paused: false,
            redraw: true,
            forced: Vec::new(),
            hold_forced: false,
            interrupted: false,
        }
    }

    /// Plays until the player leaves; true when they left with Ctrl-C.
    pub fn run(mut self) -> Result<bool> {
        self.play()?;
        Ok(self.interrupted)
    }

    fn play(&mut self) -> Result<()> {
        self.heading()?;
        loop {
            let v = self.m.view();
            // After an undo the log is shorter: its lines are on the screen already,
            // so the next line printed is the next move's (a long game's whole log
            // is not printed again).
            self.shown_log = self.shown_log.min(v.log.len());
            self.forced.retain(|&i| i < v.log.len());
            if self.play_forced(&v)? {
                continue;
            }
            self.show_log(&v)?;
            self.keep(&v)?;
            if self.redraw {
                screen::draw(&mut self.out, &v)?;
                self.redraw = false;
            }
            if v.turn.is_over() {
                if self.game_over(&v)? == Flow::Stop {
                    return Ok(());
                }
                continue;
            }
            if !v.human_to_move && !self.paused {
                // Nothing for a human to do: let the computers and dice go on.
                if self.m.advance()?.is_empty() && !self.m.turn().is_over() {
                    bail!("the game cannot go on: no player can move");
                }
                continue;
            }
            if self.turn(&v)? == Flow::Stop {
                return Ok(());
            }
        }
    }

    /// The game's title, its players, how moves are written and the seed.
    fn heading(&mut self) -> Result<()> {
        let v = self.m.view();
        let info = self.info.as_ref();
        let words = info
            .map(|i| tabula_engine::variant_words(&i.options, &v.variant))
            .unwrap_or_default();
        let out = &mut self.out;
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
                player => format!(
                    "the computer — {}",
                    super::setup::player_words(player, info)
                ),
            };
            writeln!(out, "  {}: {who}", s.name)?;
        }
        // Each game has its own notation: say it once, with a move of this position.
        // Nothing to type when only computers play. The commands most wanted on
        // one line, 'help' for the rest: the heading and a tall board (SameGame's
        // 15 rows) fit a 24-row terminal, so that the title does not scroll away.
        let commands = "'hint' suggests one, 'help' lists the rest.";
        let humans = v.seats.iter().any(|s| s.player == "human");
        match v.legal_moves.first() {
            _ if !humans => {}
            Some(first) => writeln!(out, "Moves are written like '{}'; {commands}", first.mv)?,
            None => writeln!(out, "Type a move; {commands}")?,
        }
        if let (true, Some(n)) = (humans, self.args.games.filter(|&n| n > 1)) {
            writeln!(out, "A match of {n} games.")?;
        }
        // The seed last, just above the board, so that it is on the first screen
        // even when the board fills most of it (SameGame's 15 rows); only where
        // it decides something, as a number that changes nothing would mislead.
        if seed_decides(info, &v) {
            let seed = self.m.record().config.seed;
            writeln!(out, "Game {seed} — replay it with --seed {seed}")?;
        }
        Ok(())
    }

    /// Plays a dice game's only move for the player; true when it did.
    fn play_forced(&mut self, v: &MatchView) -> Result<bool> {
        let lone = self.dice
            && !self.hold_forced
            && !self.paused
            && v.human_to_move
            && !v.turn.is_over()
            && screen::one_choice(&v.legal_moves);
        if !lone {
            return Ok(false);
        }
        let only = v.legal_moves[0].mv.clone();
        let before = v.log.len();
        self.m.play(&only)?;
        self.forced.push(before);
        self.m.advance()?;
        self.redraw = true;
        Ok(true)
    }

    /// The log lines not yet on the screen, numbered as the user reads them: a
    /// die roll folded into the line of the move it led to takes no number of its own.
    fn show_log(&mut self, v: &MatchView) -> Result<()> {
        for (i, e) in v.log.iter().enumerate().skip(self.shown_log) {
            let note = if self.forced.contains(&i) {
                " (no other choice: played for you)"
            } else {
                ""
            };
            writeln!(self.out, "{}. {}{note}", i + 1, log_sentence(e))?;
            self.redraw = true;
        }
        self.shown_log = v.log.len();
        Ok(())
    }

    /// Writes the match to its file and its database row, after every change.
    fn keep(&mut self, v: &MatchView) -> Result<()> {
        if let Some(path) = &self.args.save {
            save_record(path, &self.m.record())?;
        }
        if let (Some(st), Some(name)) = (&self.store, &self.save_name) {
            st.save_game(Some(name), &self.m.record(), v.result.as_deref())
                .map_err(|e| anyhow::anyhow!("cannot save to the database: {e}"))?;
        }
        Ok(())
    }

    /// The scores, then the next game: at once between computers, after
    /// "Play again?" when someone plays (`--games N`: up to N games).
    fn game_over(&mut self, v: &MatchView) -> Result<Flow> {
        writeln!(self.out, "{}", screen::tally_line(v))?;
        let humans = v.seats.iter().any(|s| s.player == "human");
        if !humans {
            self.games_done += 1;
            if self.games_done >= self.args.games.unwrap_or(1) {
                return Ok(Flow::Stop);
            }
            self.m.new_game();
            self.m.advance()?;
            self.shown_log = 0;
            self.redraw = true;
            return Ok(Flow::Continue);
        }
        // Games ended in this run: the tally, less what a resumed match had
        // (an undone end is taken off it again).
        let played = v.tally.games.saturating_sub(self.tally_at_start);
        // Stenger's monitor: the winner of a resigned game may resign too, and
        // when every player has resigned the Cat wins.
        let or = if v.can_resign {
            let winner = v.outcome.and_then(|o| match o {
                tabula_core::Outcome::Win(w) => v.seats.get(w),
                _ => None,
            });
            if let Some(w) = winner {
                writeln!(
                    self.out,
                    "{} may resign too ('resign'): then every player has resigned and the Cat wins.",
                    w.name
                )?;
            }
            (", undo or resign", ", undo, resign")
        } else {
            (", or undo", ", or undo")
        };
        let (or, also) = or;
        let prompt = match self.args.games {
            Some(n) if played >= n && !v.can_resign => {
                if n == 1 {
                    writeln!(self.out, "That was the only game.")?;
                } else {
                    writeln!(self.out, "That was the last of the {n} games.")?;
                }
                return Ok(Flow::Stop);
            }
            Some(n) if played >= n => format!("Finish? (Y/n{or}) "),
            Some(n) => format!("Next game ({} of {n})? (Y/n{or}) ", played + 1),
            None => format!("Play again? (Y/n{or}) "),
        };
        let last = self.args.games.is_some_and(|n| played >= n);
        // The monitor of Stenger's "Associative Arrays": "Play again?" answered Yes
        // unless the user says no; `undo` takes the last move back, the winning
        // one included (the seeds' undo queue holds it).
        loop {
            let line = match read_text(&mut self.input, &mut self.out, &prompt)? {
                Line::Text(l) => l,
                end => return self.goodbye(&end),
            };
            let answer = line.trim();
            match answer.to_ascii_lowercase().as_str() {
                "" | "y" | "yes" if last => {
                    writeln!(self.out, "That was the last of the games.")?;
                    return Ok(Flow::Stop);
                }
                "" | "y" | "yes" => {
                    writeln!(self.out)?;
                    self.new_game()?;
                    return Ok(Flow::Continue);
                }
                "resign" if v.can_resign => {
                    self.m.resign()?;
                    self.redraw = true;
                    return Ok(Flow::Continue);
                }
                "n" | "no" | "q" | "quit" | "exit" => {
                    writeln!(self.out)?;
                    return Ok(Flow::Stop);
                }
                "undo" => {
                    self.undo()?;
                    return Ok(Flow::Continue);
                }
                lower if lower.starts_with("save ") => self.save(answer[5..].trim())?,
                _ => writeln!(
                    self.out,
                    "Answer yes or no (Enter: yes){also} or save FILE."
                )?,
            }
        }
    }

    /// The last words when the input ends (Ctrl-D, the end of a pipe) or the
    /// player presses Ctrl-C.
    fn goodbye(&mut self, how: &Line) -> Result<Flow> {
        match how {
            Line::Interrupted => {
                self.interrupted = true;
                writeln!(self.out, "\nStopped (Ctrl-C): bye.")?
            }
            _ => writeln!(self.out, "\nEnd of input: bye.")?,
        }
        Ok(Flow::Stop)
    }

    /// `save FILE`: the match written where the player asks, and said so.
    fn save(&mut self, file: &str) -> Result<()> {
        let path = PathBuf::from(file);
        match save_record(&path, &self.m.record()) {
            Ok(()) => writeln!(self.out, "Saved to {}.", path.display())?,
            Err(e) => writeln!(self.out, "Not saved: {e:#}")?,
        }
        Ok(())
    }

    /// A new game with the same players. A game that deals its start (a
    /// SameGame board) deals a fresh one, which `--seed` no longer replays:
    /// the line that does is said instead.
    fn new_game(&mut self) -> Result<()> {
        self.m.new_game();
        self.m.advance()?;
        self.paused = false;
        self.hold_forced = false;
        self.shown_log = 0;
        self.redraw = true;
        if let Some(dealt) = self.m.view().dealt_variant {
            let typed = typed_variant(self.info.as_ref(), &dealt);
            writeln!(self.out, "A new board — replay it with --variant {typed}")?;
        }
        Ok(())
    }

    fn undo(&mut self) -> Result<()> {
        if self.m.undo() {
            self.paused = false;
            self.hold_forced = true;
            self.redraw = true;
            writeln!(self.out, "Taken back.")?;
        } else {
            // Moves were played but the limit the player chose is used up:
            // say so, as "nothing to undo" would be untrue.
            let played = !self.m.record().moves.is_empty();
            match self.args.undo_depth {
                Some(depth) if played => writeln!(
                    self.out,
                    "No more can be taken back: --undo-depth {depth} allows {depth} {} back.",
                    if depth == 1 { "move" } else { "moves" }
                )?,
                _ => writeln!(self.out, "Nothing to undo.")?,
            }
        }
        Ok(())
    }

    /// A person's turn: the prompt, then what they typed.
    fn turn(&mut self, v: &MatchView) -> Result<Flow> {
        let who = v
            .to_move
            .map(|s| v.seats[s].name.clone())
            .unwrap_or_default();
        let prompt = if self.paused && !v.human_to_move {
            format!("(set-up: 'setup MOVE' or 'go') {who}'s move: ")
        } else if v.seats.len() == 1 {
            "Your move: ".to_string()
        } else {
            format!("{who}'s move: ")
        };
        let line = match read_text(&mut self.input, &mut self.out, &prompt)? {
            Line::Text(l) => l,
            end => return self.goodbye(&end),
        };
        self.command(v, &who, line.trim())
    }

    /// One line typed at the prompt: a command or a move.
    fn command(&mut self, v: &MatchView, who: &str, cmd: &str) -> Result<Flow> {
        let lower = cmd.to_ascii_lowercase();
        let out = &mut self.out;
        match lower.as_str() {
            "" => writeln!(
                out,
                "Try again: type a move (e.g. {}), or 'help'.",
                screen::example(v)
            )?,
            "quit" | "exit" | "q" => return Ok(Flow::Stop),
            "help" | "?" => screen::help(out, v)?,
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
            "board" => self.redraw = true,
            "undo" => self.undo()?,
            "redo" => {
                if self.m.redo() {
                    self.redraw = true;
                } else {
                    writeln!(out, "Nothing to redo.")?;
                }
            }
            "new" | "reset" => self.new_game()?,
            "go" if self.paused && !v.human_to_move => self.paused = false,
            "go" => writeln!(
                out,
                "It is your move ({who}): 'go' lets the computer answer after a set-up move."
            )?,
            _ if lower.starts_with("setup ") => match self.m.play_setup(cmd[6..].trim()) {
                Ok(_) => {
                    self.paused = true;
                    self.redraw = true;
                }
                Err(e) => writeln!(out, "Try again: {e}.")?,
            },
            "hint" => {
                if let Ok(handle) = build(&v.game, &v.variant) {
                    prepare(handle.as_ref(), &v.title);
                }
                screen::hint(out, self.m.as_ref())?
            }
            "rules" => screen::rules(out, &v.game, &v.variant)?,
            "resign" => {
                self.m.resign()?;
                self.redraw = true;
            }
            // Stenger's "Associative Arrays": "you can also force a win by entering 'win', although this
            // is cheating except when used by authorized testers".
            "win" => match self.m.declare_win() {
                Ok(()) => self.redraw = true,
                Err(e) => writeln!(out, "Try again: {e}.")?,
            },
            _ if lower.starts_with("save ") => self.save(cmd[5..].trim())?,
            _ => match self.m.play(cmd) {
                Ok(_) => {
                    self.paused = false;
                    self.hold_forced = false;
                    self.redraw = true;
                    self.m.advance()?;
                }
                Err(e) => writeln!(
                    out,
                    "Try again: {e}. (e.g. {}; 'moves' lists them)",
                    screen::example(v)
                )?,
            },
        }
        Ok(Flow::Continue)
    }
}

/// Whether the match's seed decides anything in this game: a start dealt from
/// it (a SameGame board without a board number, Poggle's random start), dice
/// (the game declares chance), or a computer's choices (the players draw from
/// the seed among equally good moves). A fixed start played by people alone
/// replays the same whatever the seed.
fn seed_decides(info: Option<&GameInfo>, v: &MatchView) -> bool {
    v.dealt_variant.is_some() || info.map_or(true, |i| i.chance) || v.seats.iter().any(|s| !s.human)
}

/// A variant as typed after `--variant`: only the options that differ from the
/// game's defaults (`size=30x12,seed=53472`).
fn typed_variant(info: Option<&GameInfo>, variant: &str) -> String {
    let default = |name: &str, value: &str| {
        info.is_some_and(|i| {
            i.options
                .iter()
                .any(|o| o.name == name && o.default == value)
        })
    };
    variant
        .split(',')
        .filter(|option| match option.split_once('=') {
            Some((name, value)) => !default(name, value),
            None => !option.is_empty(),
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// A log entry as a sentence that names the mover: the engine's line "X: 5
/// (why)" reads "X plays 5 (why)"; a game's own sentence ("Player 1 rolls",
/// "The die shows 3") and a puzzle's move, which name no mover, are kept.
fn log_sentence(e: &tabula_engine::LogEntry) -> String {
    match e.text.strip_prefix(&format!("{}: ", e.by)) {
        Some(rest) if !e.by.is_empty() && e.seat.is_some() => format!("{} plays {rest}", e.by),
        _ => e.text.clone(),
    }
}
