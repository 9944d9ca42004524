//! Searches one board file and prints the report JSON (what
//! `tabula solve samegame --board FILE --seconds S --seed N --json` prints):
//!
//! ```text
//! cargo run --release -p tabula-samegame --example samegame_solve -- FILE [--seconds S] [--seed N] [--variant V]
//! ```
//! With `-` as FILE the board is read from standard input, with `start` the
//! variant's random starting board is used (`--variant size=15x15,colours=5,seed=3`);
//! `--show` draws the board (and its one-line text) on standard error first.

use std::io::Read as _;
use tabula_core::{ExactAnalysis, Notation, Presentation};
use tabula_core::{Game, Registered, Report, Variant};
use tabula_samegame::SameGame;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let Some(file) = args.first().filter(|a| !a.starts_with("--")) else {
        eprintln!(
            "usage: samegame_solve FILE|start|- [--seconds S] [--seed N] [--variant V] [--show]"
        );
        std::process::exit(2);
    };
    let text = if file == "start" {
        String::new()
    } else if file == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).expect("stdin");
        s
    } else {
        std::fs::read_to_string(file).unwrap_or_else(|e| {
            eprintln!("{file}: {e}");
            std::process::exit(2)
        })
    };
    let variant = Variant::parse(&get("--variant").unwrap_or_default());
    let game = match variant.map(|v| SameGame::from_variant(&v)) {
        Ok(Ok(g)) => g,
        Ok(Err(e)) => {
            eprintln!("{e}");
            std::process::exit(2)
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2)
        }
    };
    if args.iter().any(|a| a == "--show") {
        let board = if file == "start" {
            Ok(game.initial_state())
        } else {
            game.parse_position(&text)
        };
        match board {
            Ok(b) => eprintln!("{}{}", game.render_text(&b), game.format_position(&b)),
            Err(e) => eprintln!("{e}"),
        }
    }
    let request = Report {
        position: (file != "start").then_some(text),
        seconds: Some(get("--seconds").map_or(10.0, |s| s.parse().expect("--seconds S"))),
        seed: get("--seed").map_or(0, |s| s.parse().expect("--seed N")),
        ..Report::default()
    };
    match game.solve_report(&request, &|_| {}) {
        Some(Ok(json)) => println!("{}", serde_json::to_string_pretty(&json).expect("json")),
        Some(Err(e)) => {
            eprintln!("{e}");
            std::process::exit(1)
        }
        None => unreachable!("samegame always has a solve report"),
    }
}
