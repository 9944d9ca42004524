//! `tabula`: play, study and solve classic mathematical games and puzzles.

mod commands;
mod play;
mod progress;

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
    /// Evaluate a sum of integers and nimbers, e.g. "1* + 2* + 3*".
    Cgt(commands::CgtArgs),
    /// Run the HTTP server and web UI.
    Serve(commands::ServeArgs),
}

fn main() {
    let cli = Cli::parse();
    let result: Result<()> = match cli.command {
        Command::Games { json } => commands::games(json),
        Command::Play(a) => play::run(a),
        Command::Solve(a) => commands::solve(a),
        Command::Analyze(a) => commands::analyze(a),
        Command::Train(a) => commands::train(a),
        Command::Simulate(a) => commands::simulate(a),
        Command::Count(a) => commands::count(a),
        Command::Cgt(a) => commands::cgt(a),
        Command::Serve(a) => commands::serve(a),
    };
    if let Err(e) = result {
        eprintln!("tabula: {e:#}");
        std::process::exit(2);
    }
}
