//! `tabula`: play, study and solve classic mathematical games and puzzles.

mod commands;
mod files;
mod markdown;
mod play;
mod progress;
mod report;
mod style;
mod wrapping;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "tabula",
    version,
    about = "Play, study and solve classic mathematical games and puzzles"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the games, their variant options and computer players.
    Games {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play a game in the terminal.
    Play(play::PlayArgs),
    /// Strong solution (two-player games) or the game's own solver (puzzles).
    Solve(commands::SolveArgs),
    /// The value of a position and every legal move graded best to worst.
    Analyze(commands::AnalyzeArgs),
    /// Train a matchbox learning machine.
    Train(commands::TrainArgs),
    /// Play many games between two computer players on all cores.
    Simulate(commands::SimulateArgs),
    /// Counting report (Burnside/Pólya counts of positions).
    Count(commands::CountArgs),
    /// How to play a game, its variants and how to write moves.
    Rules(commands::RulesArgs),
    /// List the saved games (the web UI's and 'play --save-as') and how to resume each.
    Saved(commands::SavedArgs),
    /// A tool a game offers, e.g. cgt "1* + 2*" (without a name: the list).
    Tool(commands::ToolArgs),
    /// Run the HTTP server and web UI.
    Serve(commands::ServeArgs),
    /// A game's tool by its name alone ('tabula cgt EXPR' is 'tabula tool cgt EXPR').
    #[command(external_subcommand)]
    Other(Vec<String>),
}

/// Writing into a closed pipe (`tabula games | head -1`) ends the program quietly with
/// status 0 instead of a panic: the reader has all it wanted.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.contains("Broken pipe") || text.contains("os error 32") {
            std::process::exit(0);
        }
        default(info)
    }));
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The longest error message printed: messages quote what the user gave (a file's
/// contents, an argument), which may be megabytes long.
const MAX_MESSAGE_CHARS: usize = 2000;

/// An error message as it may go to a terminal: control characters other than line
/// breaks written out (`\u{1b}`), so that an argument or a file cannot send escape
/// sequences, and at most [`MAX_MESSAGE_CHARS`] characters.
fn printable(message: &str) -> String {
    let mut out = String::new();
    for (i, c) in message.chars().enumerate() {
        if i == MAX_MESSAGE_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() && c != '\n' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// The widest help is read at: beyond it lines are hard to follow.
const MAX_HELP_COLUMNS: usize = 100;

/// The command line as clap reads it, with every `--help` wrapped to the width
/// the reports use ([`report::width`]: `COLUMNS`, else the terminal's, else 80;
/// at most [`MAX_HELP_COLUMNS`]), and a refused command line said as any other
/// error is: `tabula: …` and exit status 2.
fn arguments() -> Cli {
    let width = report::width().min(MAX_HELP_COLUMNS);
    let parsed = Cli::command()
        .term_width(width)
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    match parsed {
        Ok(cli) => cli,
        // Help and the version go to standard output with status 0, and a bare
        // `tabula` shows the help: clap's own.
        Err(e)
            if !e.use_stderr()
                || e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            e.exit()
        }
        Err(e) => {
            eprintln!("tabula: {}", printable(&clap_words(&e)));
            std::process::exit(2);
        }
    }
}

/// clap's refusal without its "error:" heading: the reason on the first line,
/// its tip and where to read more below it, indented.
fn clap_words(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| l.strip_prefix("error: ").unwrap_or(l).to_string());
    let first = lines.next().unwrap_or_default();
    lines.fold(first, |all, l| format!("{all}\n  {l}"))
}

fn main() {
    quiet_on_broken_pipe();
    let cli = arguments();
    let result: Result<()> = match cli.command {
        Command::Games { json } => commands::games(json),
        Command::Play(a) => play::run(a),
        Command::Solve(a) => commands::solve(a),
        Command::Analyze(a) => commands::analyze(a),
        Command::Train(a) => commands::train(a),
        Command::Simulate(a) => commands::simulate(a),
        Command::Count(a) => commands::count(a),
        Command::Rules(a) => commands::rules(a),
        Command::Saved(a) => commands::saved(a),
        Command::Tool(a) => commands::tool(a),
        Command::Other(words) => commands::tool_by_name(words),
        Command::Serve(a) => commands::serve(a),
    };
    // A table solved but not kept on disk (a full or read-only cache folder):
    // the answer stands, but the next run will solve it again.
    for words in tabula_core::DiskCache::take_unkept() {
        eprintln!("tabula: warning: {words}");
    }
    if let Err(e) = result {
        if is_broken_pipe(&e) {
            std::process::exit(0);
        }
        // On a terminal wrapped to its width, its lines after the first
        // indented: a long refusal is read, not scrolled sideways. In a pipe
        // or a log, one line a message, as scripts and grep read it.
        let message = printable(&format!("{e:#}"));
        if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            let width = termimad::terminal_size().0 as usize;
            eprint!(
                "{}",
                report::wrap(&message, width.clamp(40, 1000), "tabula: ", "  ")
            );
        } else {
            eprintln!("tabula: {message}");
        }
        std::process::exit(2);
    }
}
