//! Prints a Northcott position, its analysis JSON and the slides' computer's reply:
//! `cargo run -p tabula-northcott --example northcott_json -- 16x4 "O14X/2O12X/O14X/O14X X"`.

use tabula_core::{ExactAnalysis, Notation, Presentation};
use tabula_core::{Game, Registered, Variant};
use tabula_northcott::Northcott;

fn main() {
    let mut args = std::env::args().skip(1);
    let size = args.next().unwrap_or_else(|| "16x4".into());
    let game =
        match Variant::parse(&format!("size={size}")).and_then(|v| Northcott::from_variant(&v)) {
            Ok(g) => g,
            Err(e) => return eprintln!("{e}"),
        };
    let state = match args.next() {
        Some(text) => match game.parse_position(&text) {
            Ok(s) => s,
            Err(e) => return eprintln!("bad position: {e}"),
        },
        None => game.initial_state(),
    };
    print!("{}", game.render_text(&state));
    let extra = game
        .analysis_extra(&state)
        .expect("northcott always has an analysis");
    println!("{}", serde_json::to_string_pretty(&extra).expect("json"));
}
