//! The non-interactive commands: games, solve, analyze, train, simulate, count, cgt, serve.

use crate::progress::bar;
use crate::report;
use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::{json, Value as Json};
use std::io::IsTerminal;
use std::path::PathBuf;
use tabula_core::Report;
use tabula_engine::{build, registry};

/// Options shared by commands that name a game.
#[derive(Args, Clone, Debug)]
pub struct GameArgs {
    /// The game (see 'tabula games').
    pub game: String,
    /// Variant options, e.g. 'size=16x4' or 'size=5,colours=3'.
    #[arg(long, default_value = "", hide_default_value = true)]
    pub variant: String,
}

/// Prints JSON; a closed pipe (`| head`) is not an error.
pub fn print_json(v: &Json) -> Result<()> {
    use std::io::Write;
    let text = serde_json::to_string_pretty(v)?;
    match writeln!(std::io::stdout(), "{text}") {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Prints a result in its documented JSON shape: the shape's version, the game
/// and its variant, then the result's fields (docs/JSON.md).
fn print_result<T: serde::Serialize>(
    handle: &dyn tabula_engine::DynGame,
    result: &T,
) -> Result<()> {
    let info = handle.info();
    print_json(&serde_json::to_value(tabula_core::Versioned::new(
        &info.name,
        &info.variant,
        result,
    ))?)
}

pub fn games(as_json: bool) -> Result<()> {
    let mut all = Vec::new();
    for e in registry() {
        let info = build(e.name, "")?.info();
        all.push(info);
    }
    if as_json {
        return print_json(&serde_json::to_value(&all)?);
    }
    // Each game's lines wrapped to the terminal, continued under its summary.
    let width = report::width();
    let indent = " ".repeat(14);
    let mut out = String::new();
    for g in all {
        out += &report::wrap(
            &format!("{} — {}", g.title, g.summary),
            width,
            &format!("{:<13} ", g.name),
            &indent,
        );
        for o in &g.options {
            let default = if o.default.is_empty() {
                "not set by default".to_string()
            } else {
                format!("default {}", o.default)
            };
            // A menu's values in the game's words say what the help says of
            // them: the help only where the values are numbers or free text.
            let about = choice_list(o).unwrap_or_else(|| plain_words(o.help));
            out += &report::wrap(
                &format!("--variant {}=… ({default}): {about}", o.name),
                width,
                &indent,
                &format!("{indent}  "),
            );
        }
        let players: Vec<String> = g.players.iter().map(|p| p.name.clone()).collect();
        out += &report::wrap(
            &format!("players: {}", players.join(", ")),
            width,
            &indent,
            &format!("{indent}  "),
        );
    }
    print_text(&out)
}

/// An option's menu as a player who types a value reads it: each value with the game's
/// words for it ("nobonus: no bonus for clearing"; the words alone where they begin
/// with the value, "standard (bonus for clearing)"). None where every value reads as
/// itself (numbers, which the help already gives as a range) or none are listed.
fn choice_list(o: &tabula_core::VariantOption) -> Option<String> {
    if o.choices.iter().all(|c| c.words == c.value) {
        return None;
    }
    let items: Vec<String> = o
        .choices
        .iter()
        .map(|c| {
            let starts = c
                .words
                .get(..c.value.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(c.value))
                && !matches!(c.words[c.value.len()..].chars().next(), Some(ch) if ch.is_alphanumeric());
            if starts {
                c.words.to_string()
            } else {
                format!("{}: {}", c.value, c.words)
            }
        })
        .collect();
    Some(items.join(" · "))
}

/// A game's help text as a player reads it in a terminal: Markdown's code
/// marks (`` `tabula solve` ``) become plain quotes.
fn plain_words(text: &str) -> String {
    text.replace('`', "'")
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Solve from this position (the game's text form) instead of the start.
    #[arg(long)]
    pub position: Option<String>,
    /// Read the position from a file (SameGame boards).
    #[arg(long)]
    pub board: Option<PathBuf>,
    /// Time budget in seconds (searches).
    #[arg(long)]
    pub seconds: Option<f64>,
    /// Random seed (searches).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Memory the solver may use, e.g. 512M or 4G (default 1G); larger solves are refused.
    #[arg(long, value_name = "SIZE", value_parser = tabula_core::parse_bytes)]
    pub max_memory: Option<u64>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Sets the memory budget of every solver this run starts (`--max-memory`).
fn use_max_memory(bytes: Option<u64>) {
    if let Some(b) = bytes {
        tabula_core::set_default_max_memory(b);
    }
}

pub fn solve(a: SolveArgs) -> Result<()> {
    use_max_memory(a.max_memory);
    let handle = build(&a.game.game, &a.game.variant)?;
    let position = match (&a.position, &a.board) {
        (Some(_), Some(_)) => bail!("give either --position or --board, not both"),
        (Some(p), None) => Some(p.clone()),
        (None, Some(f)) => Some(crate::files::read_text(f, crate::files::MAX_BOARD_BYTES)?),
        (None, None) => None,
    };
    if let Some(s) = a.seconds {
        if !(s > 0.0 && s <= 86_400.0) {
            bail!("--seconds must be between 0 and 86400");
        }
    }
    let request = Report {
        position,
        seconds: a.seconds,
        seed: a.seed,
        ..Report::default()
    };
    let pb = bar(1000, "solving", a.json);
    let solved = handle.solve(&request, &|f| {
        pb.set_position((f.clamp(0.0, 1.0) * 1000.0) as u64)
    });
    pb.finish_and_clear();
    let out = match solved {
        Ok(out) => out,
        Err(e) => bail!("{e}{}", analyze_instead(handle.as_ref(), &a.game, &e)),
    };
    if a.json {
        return print_result(handle.as_ref(), &out);
    }
    print_text(&report::solve_text(
        &title_of(handle.as_ref()),
        &out,
        report::width(),
    ))
}

/// Where a strong solution cannot be had (too large for the memory) but the
/// game grades any position exactly without one (Northcott's nim-sum rule), the
/// refusal says so: `tabula analyze` answers at once.
fn analyze_instead(
    handle: &dyn tabula_engine::DynGame,
    game: &GameArgs,
    e: &tabula_engine::EngineError,
) -> String {
    let info = handle.info();
    if !matches!(e, tabula_engine::EngineError::Unsupported(_)) || !info.exact || info.puzzle {
        return String::new();
    }
    let variant = if game.variant.is_empty() {
        String::new()
    } else {
        format!(" --variant {}", game.variant)
    };
    format!(
        ".\nWithout solving every position, `tabula analyze {}{variant}` gives the value of \
         the start (or of any position, with --position) and grades its moves at once",
        info.name
    )
}

/// The game's title and its variant in words, as a report's heading: only the
/// options that differ from the game's defaults ("Poggle (colours 3)"), never
/// the option string, and so never a default the report does not use (a
/// board read from a file has its own size, not the default "size=15x15").
fn title_of(handle: &dyn tabula_engine::DynGame) -> String {
    let info = handle.info();
    let words = tabula_engine::variant_words(&info.options, &info.variant);
    if words.is_empty() {
        info.title
    } else {
        format!("{} ({words})", info.title)
    }
}

/// Prints a readable report (colour codes dropped where unsupported); a closed
/// pipe is not an error.
pub fn print_text(text: &str) -> Result<()> {
    use std::io::Write;
    match write!(anstream::stdout(), "{text}") {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Markdown (a game page) drawn for the terminal: headings, lists, tables and
/// code blocks laid out to the terminal's width (80 columns in a pipe).
pub fn markdown_for_terminal(md: &str) -> String {
    let width = termimad::terminal_size().0.clamp(40, 120) as usize;
    let width = if std::io::stdout().is_terminal() {
        width
    } else {
        80
    };
    let text = unwrap_paragraphs(md);
    crate::markdown::render(&termimad::MadSkin::default(), &text, width)
}

/// Joins the lines of each paragraph and list item (the pages wrap their source
/// at about 100 columns; the terminal wraps to its own width). Headings, table
/// rows and code blocks stay as they are.
fn unwrap_paragraphs(md: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut in_code = false;
    let mut joinable = false;
    for line in md.lines() {
        let t = line.trim_start();
        if t.starts_with("```") {
            in_code = !in_code;
            out.push("```".into());
            joinable = false;
            continue;
        }
        if in_code {
            out.push(line.to_string());
            continue;
        }
        let starts_block = t.is_empty()
            || t.starts_with('#')
            || t.starts_with('|')
            || t.starts_with("- ")
            || t.starts_with("* ")
            || t.starts_with("> ")
            || t.split_once(". ")
                .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty());
        match out.last_mut() {
            Some(last) if joinable && !starts_block => {
                last.push(' ');
                last.push_str(t);
            }
            _ => out.push(line.to_string()),
        }
        joinable = !t.is_empty() && !t.starts_with('#') && !t.starts_with('|');
    }
    out.join("\n") + "\n"
}

#[derive(Args, Debug)]
pub struct RulesArgs {
    /// The game (see 'tabula games').
    pub game: String,
}

pub fn rules(a: RulesArgs) -> Result<()> {
    let text = build(&a.game, "")?.rules();
    if text.is_empty() {
        bail!("{} has no rules page", a.game);
    }
    page_text(&markdown_for_terminal(&text))
}

#[derive(Args, Debug)]
pub struct SavedArgs {
    /// Only the saved games of this game.
    pub game: Option<String>,
    /// The database (default: the platform data directory, as the web UI's).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `tabula saved`: the saved games, most recent first, each with the line
/// that takes it up again.
pub fn saved(a: SavedArgs) -> Result<()> {
    let game = match &a.game {
        Some(g) => Some(tabula_engine::find(g)?.name),
        None => None,
    };
    let store = match &a.db {
        Some(p) => {
            crate::files::check_database(p)?;
            tabula_store::Store::open(p)
        }
        None => tabula_store::Store::open_default(),
    }
    .map_err(|e| anyhow::anyhow!("cannot open the database: {e}"))?;
    let listed = store
        .list_saved(game)
        .map_err(|e| anyhow::anyhow!("cannot read the saved games: {e}"))?;
    if a.json {
        return print_json(&json!({
            "saved": listed.rows,
            "damaged": listed.damaged.iter().map(|d| d.message.clone()).collect::<Vec<_>>(),
        }));
    }
    let width = report::width();
    let mut out = String::new();
    if listed.rows.is_empty() {
        out += "No saved games.\n";
    }
    for s in &listed.rows {
        let title = build(&s.game, &s.variant)
            .map(|h| h.info().title)
            .unwrap_or_else(|_| s.game.clone());
        let state = s.result.clone().unwrap_or_else(|| "in progress".into());
        let moves = if s.moves == 1 { "move" } else { "moves" };
        out += &report::wrap(
            &format!(
                "{} — {title}, {} {moves}, {state}: tabula play {} --resume-saved '{}'",
                s.name, s.moves, s.game, s.name
            ),
            width,
            "",
            "  ",
        );
    }
    for d in &listed.damaged {
        out += &report::wrap(&d.message, width, "", "  ");
    }
    print_text(&out)
}

/// Text taller than the terminal shown through a pager, as git and man do:
/// `$PAGER`, else `less` (told by `LESS=FRX`, unless set, to quit when the text
/// fits and to keep colours). Plain output in a pipe, when it fits, or when no
/// pager can be started.
fn page_text(text: &str) -> Result<()> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let rows = termimad::terminal_size().1 as usize;
    if !std::io::stdout().is_terminal() || text.lines().count() < rows.max(2) {
        return print_text(text);
    }
    let pager = std::env::var("PAGER").unwrap_or_else(|_| "less".into());
    let mut words = pager.split_whitespace();
    let Some(program) = words.next().filter(|p| *p != "cat") else {
        return print_text(text);
    };
    let mut command = Command::new(program);
    command.args(words).stdin(Stdio::piped());
    if std::env::var_os("LESS").is_none() {
        command.env("LESS", "FRX");
    }
    let Ok(mut child) = command.spawn() else {
        return print_text(text);
    };
    if let Some(mut input) = child.stdin.take() {
        // The reader may quit before reading it all (q in less): not an error.
        match input.write_all(text.as_bytes()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
            _ => {}
        }
    }
    child.wait().context("the pager")?;
    Ok(())
}

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The position (the game's text form); the start if omitted.
    #[arg(long)]
    pub position: Option<String>,
    /// Memory the solver may use, e.g. 512M or 4G (default 1G).
    #[arg(long, value_name = "SIZE", value_parser = tabula_core::parse_bytes)]
    pub max_memory: Option<u64>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn analyze(a: AnalyzeArgs) -> Result<()> {
    use_max_memory(a.max_memory);
    let handle = build(&a.game.game, &a.game.variant)?;
    let out = handle.analyze(a.position.as_deref())?;
    if a.json {
        return print_result(handle.as_ref(), &out);
    }
    let width = report::width();
    // At a chance node no one moves: the rolls that may come take the moves' place.
    let rolls = if out.to_move.is_none() && out.moves.is_empty() {
        rolls_due(handle.as_ref(), &out.position)
    } else {
        None
    };
    print_text(&format!(
        "{}{}",
        report::wrap(&title_of(handle.as_ref()), width, "", "  "),
        report::analysis_text(&out, rolls.as_deref(), width)
    ))
}

/// The rolls due in `position` when chance acts next (a roll is due), each with
/// the position it leads to; `None` anywhere else.
fn rolls_due(handle: &dyn tabula_engine::DynGame, position: &str) -> Option<Vec<report::Roll>> {
    let state = handle.state_from_position(position).ok()?;
    if !state.is_chance_node() {
        return None;
    }
    let seats = handle.info().seats;
    let rolls = state
        .chance_outcomes()
        .into_iter()
        .filter_map(|(action, chance)| {
            let outcome = state.action_to_string(action).ok()?;
            let mut next = state.clone_box();
            next.apply_action(action).ok()?;
            let mover = usize::try_from(next.current_player())
                .ok()
                .and_then(|s| seats.get(s).cloned());
            Some(report::Roll {
                outcome,
                chance,
                position: next.position(),
                mover,
            })
        })
        .collect();
    Some(rolls)
}

#[derive(Args, Debug)]
pub struct TrainArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Number of training games.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// The trainer: random, perfect, exploit or self.
    #[arg(long, default_value = "exploit")]
    pub opponent: String,
    /// The learner: matchbox (Gardner: remove the losing bead) or menace (bead counts).
    #[arg(long, default_value = "matchbox")]
    pub learner: String,
    /// The learner's seat: first or second (Gardner's machine plays second, Black).
    #[arg(long, default_value = "second")]
    pub seat: String,
    /// Use the board's mirror symmetry: on or off.
    #[arg(long, default_value = "on")]
    pub symmetry: String,
    /// Further matchbox options, e.g. 'initial=4:3:2:1,win=3,draw=1,loss=1'.
    #[arg(long)]
    pub options: Option<String>,
    /// Games per block of the learning curve (0: about 20 blocks).
    #[arg(long, default_value_t = 0)]
    pub block: u64,
    /// Start from matchboxes saved with --save.
    #[arg(long)]
    pub load: Option<PathBuf>,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Save the learned matchboxes to this JSON file.
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn train(a: TrainArgs) -> Result<()> {
    if a.games == 0 || a.games > 10_000_000 {
        bail!("--games must be between 1 and 10000000");
    }
    let handle = build(&a.game.game, &a.game.variant)?;
    let seat = match a.seat.to_ascii_lowercase().as_str() {
        "first" | "0" => json!(0),
        "second" | "1" => json!(1),
        name => json!(name),
    };
    let symmetry = match a.symmetry.to_ascii_lowercase().as_str() {
        "on" | "off" => a.symmetry.to_ascii_lowercase(),
        other => bail!("--symmetry must be on or off (got '{other}')"),
    };
    let mut options_text = format!("symmetry={symmetry}");
    if let Some(extra) = &a.options {
        options_text.push(',');
        options_text.push_str(extra);
    }
    let mut options = json!({
        "games": a.games, "opponent": a.opponent, "player": a.learner, "seat": seat,
        "options": options_text, "block": a.block, "seed": a.seed,
    });
    if let Some(path) = &a.load {
        let bytes = crate::files::read_bytes(path, crate::files::MAX_SAVED_BYTES)?;
        options["learned"] = serde_json::from_slice(&bytes)
            .with_context(|| format!("{} is not saved matchboxes", path.display()))?;
    }
    let pb = bar(1000, "training", a.json);
    let out = handle.train(&options, &|f| {
        pb.set_position((f.clamp(0.0, 1.0) * 1000.0) as u64)
    })?;
    pb.finish_and_clear();
    let saved = match &a.save {
        Some(path) => {
            let text = serde_json::to_string_pretty(&out.learned)?;
            crate::files::save(path, &text, crate::files::MAX_SAVED_BYTES)
        }
        None => Ok(()),
    };
    // The report of a training whose boxes could not be saved is still shown.
    if a.json {
        print_result(handle.as_ref(), &out.training)?;
    } else {
        print_text(&report::train_text(
            &title_of(handle.as_ref()),
            &out.training,
            report::width(),
        ))?;
    }
    Ok(saved?)
}

#[derive(Args, Debug)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Two players, comma separated, e.g. 'scenario,random'.
    #[arg(long)]
    pub players: String,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn simulate(a: SimulateArgs) -> Result<()> {
    if a.games == 0 || a.games > 1_000_000_000 {
        bail!("--games must be between 1 and 1000000000");
    }
    let names: Vec<&str> = a.players.split(',').map(str::trim).collect();
    if names.len() != 2 || names.iter().any(|n| n.is_empty()) {
        bail!("--players takes exactly two players, e.g. --players scenario,random");
    }
    let handle = build(&a.game.game, &a.game.variant)?;
    let pb = bar(a.games, "simulating", a.json);
    let report = handle.simulate([names[0], names[1]], a.games, a.seed, &|| pb.inc(1))?;
    pb.finish_and_clear();
    if a.json {
        return print_json(&serde_json::to_value(&report)?);
    }
    // Seats alternate (the first player named moves first in every other
    // game), so that neither player gains from the seat alone: say so, as the
    // figures below mean nothing without it.
    println!(
        "{} games in {:.2} s ({} moved first in every other game)",
        report.games, report.seconds, report.players[0]
    );
    for (name, wins) in report.players.iter().zip(&report.wins) {
        println!(
            "  {name:<16} {wins:>10} wins ({:.2}%)",
            100.0 * *wins as f64 / report.games as f64
        );
    }
    if report.draws > 0 {
        println!("  {:<16} {:>10}", "draws", report.draws);
    }
    if report.cut_off > 0 {
        println!(
            "  {:<16} {:>10} (reached the longest a game may last)",
            "cut off", report.cut_off
        );
    }
    println!(
        "  {} won {:.2}% of the games (95% confidence: {:.2}% to {:.2}%); {:.1} moves a game on average",
        report.players[0],
        100.0 * report.win_rate.value,
        100.0 * report.win_rate.low,
        100.0 * report.win_rate.high,
        report.mean_turns
    );
    Ok(())
}

#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Memory the count may use, e.g. 512M or 4G (default 1G).
    #[arg(long, value_name = "SIZE", value_parser = tabula_core::parse_bytes)]
    pub max_memory: Option<u64>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn count(a: CountArgs) -> Result<()> {
    use_max_memory(a.max_memory);
    let handle = build(&a.game.game, &a.game.variant)?;
    let out = handle.count()?;
    if a.json {
        return print_result(handle.as_ref(), &out);
    }
    print_text(&report::count_text(
        &title_of(handle.as_ref()),
        &out,
        report::width(),
    ))
}

#[derive(Args, Debug)]
pub struct ToolArgs {
    /// The tool's name ('tabula tool' lists them).
    pub name: Option<String>,
    /// What the tool works on, e.g. "1* + 2* + 3*".
    pub input: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Every tool the games declare, with the title of the game offering it.
fn all_tools() -> Result<Vec<(String, tabula_core::Tool)>> {
    let mut out = Vec::new();
    for e in registry() {
        let info = build(e.name, "")?.info();
        out.extend(
            info.presentation
                .tools
                .into_iter()
                .map(|t| (info.title.clone(), t)),
        );
    }
    Ok(out)
}

/// `tabula tool NAME INPUT`: a tool a game declares in its presentation, found
/// by name among all games; without a name, the list of tools.
pub fn tool(a: ToolArgs) -> Result<()> {
    let tools = all_tools()?;
    let Some(name) = a.name else {
        if a.json {
            return print_json(&serde_json::to_value(
                tools.iter().map(|(_, t)| t).collect::<Vec<_>>(),
            )?);
        }
        // Each tool's lines wrapped to the terminal, continued under its name.
        let width = report::width();
        let mut out = String::new();
        for (game, t) in &tools {
            out += &report::wrap(
                &format!("{}  {} ({game}): {}", t.name, t.title, t.about),
                width,
                "",
                "    ",
            );
            out += &report::wrap(
                &format!("e.g. tabula tool {} \"{}\"", t.name, t.example),
                width,
                "    ",
                "      ",
            );
        }
        return print_text(&out);
    };
    let Some((_, t)) = tools
        .iter()
        .find(|(_, t)| t.name.eq_ignore_ascii_case(&name))
    else {
        let names: Vec<&str> = tools.iter().map(|(_, t)| t.name).collect();
        bail!(
            "no tool named '{}' (the games offer: {})",
            name.chars().take(40).collect::<String>(),
            names.join(", ")
        );
    };
    let Some(input) = a.input else {
        bail!(
            "{} needs an input, e.g. tabula tool {} \"{}\"",
            t.title,
            t.name,
            t.example
        );
    };
    let answer = t.answer(&input)?;
    if a.json {
        return print_json(&answer.data);
    }
    let width = report::width();
    let text: String = answer
        .lines
        .iter()
        .map(|line| report::wrap(line, width, "", "  "))
        .collect();
    print_text(&text)
}

/// A word that is no command of its own names a game's tool:
/// `tabula cgt EXPR [--json]` is `tabula tool cgt EXPR [--json]`.
pub fn tool_by_name(words: Vec<String>) -> Result<()> {
    let json = words.iter().any(|w| w == "--json");
    let mut rest = words.into_iter().filter(|w| w != "--json");
    let name = rest.next();
    let input = rest.next();
    if let Some(extra) = rest.next() {
        bail!(
            "unexpected argument '{}' (quote the input as one argument)",
            extra.chars().take(40).collect::<String>()
        );
    }
    tool(ToolArgs { name, input, json })
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// The SQLite database (default: the platform data directory).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Memory one solve or job may use, e.g. 512M or 4G (default 1G); larger ones are refused.
    #[arg(long, value_name = "SIZE", value_parser = tabula_core::parse_bytes)]
    pub max_memory: Option<u64>,
    /// Seconds the computer may think inside one request (a move, a hint); then it
    /// plays the best move found so far, or the request says it ran out of time.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = parse_deadline)]
    pub move_deadline: f64,
    /// Connections served at once (fewer when the limit of open files is lower);
    /// more wait up to 2 s for a place, then are told the server is busy.
    #[arg(long, value_name = "N", default_value_t = tabula_server::DEFAULT_MAX_CONNECTIONS,
          value_parser = parse_max_connections)]
    pub max_connections: usize,
}

fn parse_max_connections(text: &str) -> std::result::Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=100_000).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}' is not a number of connections: write a whole number from 1 to 100000"
        )),
    }
}

fn parse_deadline(text: &str) -> std::result::Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && (0.1..=3600.0).contains(&s) => Ok(s),
        _ => Err(format!(
            "'{text}' is not a deadline: write a number of seconds from 0.1 to 3600"
        )),
    }
}

pub fn serve(a: ServeArgs) -> Result<()> {
    if let Some(db) = &a.db {
        crate::files::check_database(db)?;
    }
    use_max_memory(a.max_memory);
    if let Some(bytes) = a.max_memory {
        // Built games keep their solutions: half of the budget for that cache.
        tabula_engine::set_cache_max_memory(bytes / 2);
    }
    let options = tabula_server::ServeOptions {
        move_deadline: std::time::Duration::from_secs_f64(a.move_deadline),
        connections: tabula_server::ConnectionLimits {
            max: a.max_connections,
            ..Default::default()
        },
        ..Default::default()
    };
    tabula_server::run(&a.addr, a.db, options)
}
