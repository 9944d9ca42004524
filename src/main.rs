//! `tabula`: play, study and solve classic mathematical games and puzzles.

mod commands;
mod files;
mod play;
mod progress;
mod report;
mod style;
mod wrapping;

use anyhow::Result;
use clap::{Parser, Subcommand};

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
    /// A tool a game offers (without a name: the list), e.g. `tool cgt "1* + 2* + 3*"`.
    Tool(commands::ToolArgs),
    /// Run the HTTP server and web UI.
    Serve(commands::ServeArgs),
    /// A game's tool by its name alone (`tabula cgt EXPR` is `tabula tool cgt EXPR`).
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

fn main() {
    quiet_on_broken_pipe();
    let cli = Cli::parse();
    let result: Result<()> = match cli.command {
        Command::Games { json } => commands::games(json),
        Command::Play(a) => play::run(a),
        Command::Solve(a) => commands::solve(a),
        Command::Analyze(a) => commands::analyze(a),
        Command::Train(a) => commands::train(a),
        Command::Simulate(a) => commands::simulate(a),
        Command::Count(a) => commands::count(a),
        Command::Rules(a) => commands::rules(a),
        Command::Tool(a) => commands::tool(a),
        Command::Other(words) => commands::tool_by_name(words),
        Command::Serve(a) => commands::serve(a),
    };
    if let Err(e) = result {
        if is_broken_pipe(&e) {
            std::process::exit(0);
        }
        eprintln!("tabula: {}", printable(&format!("{e:#}")));
        std::process::exit(2);
    }
}
