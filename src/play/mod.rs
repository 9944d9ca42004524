//! `tabula play`: the game monitor of Stenger's "Associative Arrays" in a terminal — the board with numbered
//! squares, a prompt, the move log, `resign`, score tallies with the Cat, and
//! "play again".

mod input;
mod screen;
mod session;
mod setup;

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game (see 'tabula games').
    pub game: String,
    /// Variant options, e.g. 'size=16x4'.
    #[arg(long, default_value = "", hide_default_value = true)]
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
    /// Players per seat, comma separated (overrides --ai/--level/--human), e.g. 'human,level:66'.
    #[arg(long)]
    pub players: Option<String>,
    /// Random seed (computer choices, dice, a dealt board); drawn at random when
    /// not given and shown at the start, so that a game can be replayed.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// Start from this position (the game's text form).
    #[arg(long)]
    pub position: Option<String>,
    /// How many of your moves 'undo' can take back, 0-1000 (default: no limit).
    #[arg(long)]
    pub undo_depth: Option<usize>,
    /// Keep the game in this file, rewritten after every move (resume with --resume).
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Resume a game saved with --save.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Play against matchboxes trained by 'tabula train --save FILE': the
    /// computer learner of this game starts from them.
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
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
    /// Games to play, 1-100000: computers against each other play them one after
    /// another (default 1); with a person, the match ends after that many games
    /// (default: until they answer no to "Play again?").
    #[arg(long)]
    pub games: Option<u64>,
}

/// A seed as typed: a whole number from 0 up, said in words when it is not one
/// (`--seed -1` reaches here rather than being taken for an option).
fn parse_seed(text: &str) -> std::result::Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| {
        format!(
            "a seed is a whole number from 0 to {}",
            crate::report::thousands(u64::MAX.into())
        )
    })
}

pub fn run(a: PlayArgs) -> Result<()> {
    let started = setup::start(&a)?;
    if session::Session::new(&a, started).run()? {
        use std::io::Write;
        std::io::stdout().flush().ok();
        // 128 + SIGINT, what a shell reports for a command stopped by Ctrl-C.
        std::process::exit(130);
    }
    Ok(())
}
