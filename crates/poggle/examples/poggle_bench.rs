//! Times the solver on one board: `poggle_bench SIZE COLOURS [--no-fewest] [--json]`.
//! With `--json` it also builds the `tabula solve` report (as the CLI prints it).
//!
//! Reproduce the documented figures with
//! `cargo run --release -p tabula-poggle --example poggle_bench -- 10000 2`
//! (prefix `/usr/bin/time -v` for peak memory).

use std::time::Instant;
use tabula_poggle::{solve, SolveOptions, Start};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(2000);
    let k: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2);
    let fewest = !args.iter().any(|a| a == "--no-fewest");
    let json = args.iter().any(|a| a == "--json");
    let options = SolveOptions {
        fewest,
        ..SolveOptions::default()
    };
    let began = Instant::now();
    let sol = solve(n, k, Start::Ones, &options).expect("valid puzzle");
    let solve_seconds = began.elapsed().as_secs_f64();
    println!(
        "size {n} colours {k}: solvable {} solutions {} fewest {} presses {:?} in {:.4} s",
        sol.solvable,
        sol.count,
        sol.fewest,
        sol.total_presses(),
        solve_seconds
    );
    if json {
        let began = Instant::now();
        let report = tabula_poggle::solve_json(n, k, None, "ones", &options).expect("valid puzzle");
        let text = serde_json::to_string(&report).unwrap();
        println!(
            "report: {} bytes in {:.3} s (solve + JSON)",
            text.len(),
            began.elapsed().as_secs_f64()
        );
    }
}
