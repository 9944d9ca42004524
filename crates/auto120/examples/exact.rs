//! Solves Multiplication Ludo exactly and prints the solver's summary as JSON.
//!
//! ```text
//! cargo run --release -p tabula-auto120 --example exact -- --markers 3 [--tolerance 1e-12] [--max-memory BYTES]
//! ```

use tabula_auto120::exact;

fn main() {
    let mut markers = 2usize;
    let mut tolerance = exact::DEFAULT_TOLERANCE;
    let mut max_memory = exact::DEFAULT_MAX_MEMORY;
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or_default();
        match pair[0].as_str() {
            "--markers" => markers = value.parse().expect("--markers N"),
            "--tolerance" => tolerance = value.parse().expect("--tolerance X"),
            "--max-memory" => max_memory = value.parse().expect("--max-memory BYTES"),
            other => panic!("unknown argument {other}"),
        }
    }
    match exact::solve(markers, tolerance, max_memory, &|| false, &|f| {
        eprintln!("{:.0}% of the layers solved", 100.0 * f)
    }) {
        Ok(sol) => {
            let mut v = serde_json::to_value(sol.stats()).expect("stats serialise");
            v["peak_rss_bytes"] = serde_json::json!(exact::peak_rss_bytes());
            println!("{}", serde_json::to_string_pretty(&v).expect("json"));
        }
        Err(e) => {
            eprintln!("{}", exact::error_text(markers, &e));
            std::process::exit(2);
        }
    }
}
