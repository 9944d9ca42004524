//! Prints the JSON that `tabula analyze nim` and `tabula cgt` add, for the docs:
//! `cargo run -p tabula-nim --example nim_json -- "3 4 5" "1* + 2*"`.

use tabula_core::{ExactAnalysis, Notation};
use tabula_nim::{cgt, Nim};

fn main() {
    let mut args = std::env::args().skip(1);
    let position = args.next().unwrap_or_else(|| "3 4 5".into());
    let expr = args.next().unwrap_or_else(|| "1* + 2* + 3*".into());
    let game = Nim::default();
    match game.parse_position(&position) {
        Ok(state) => {
            let extra = game
                .analysis_extra(&state)
                .expect("nim always has an analysis");
            println!("{}", serde_json::to_string_pretty(&extra).expect("json"));
        }
        Err(e) => eprintln!("bad position: {e}"),
    }
    match cgt::evaluate(&expr) {
        Ok(v) => println!("{v}\n{}", serde_json::to_string_pretty(&v).expect("json")),
        Err(e) => eprintln!("bad expression: {e}"),
    }
}
