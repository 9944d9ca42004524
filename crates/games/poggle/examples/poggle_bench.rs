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
    if let Some(presses) = &sol.presses {
        let began = Instant::now();
        assert!(
            clears_all_ones_board(n, k, presses),
            "the returned presses do not solve the puzzle"
        );
        println!(
            "checked: the presses turn every button to 0 ({:.3} s)",
            began.elapsed().as_secs_f64()
        );
    }
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

/// Applies `presses` (row-major counts) to the all-ones board by the rule itself,
/// independently of the solver: a cell ends at 1 + its own and its orthogonal
/// neighbours' presses, modulo `k`. Not `tabula_poggle::apply_presses`: that builds a
/// second n x n board, which would double the peak memory this example measures.
fn clears_all_ones_board(n: usize, k: u32, presses: &[u8]) -> bool {
    let at = |r: usize, c: usize| u32::from(presses[r * n + c]);
    (0..n).all(|r| {
        (0..n).all(|c| {
            let mut total = 1 + at(r, c);
            if r > 0 {
                total += at(r - 1, c);
            }
            if r + 1 < n {
                total += at(r + 1, c);
            }
            if c > 0 {
                total += at(r, c - 1);
            }
            if c + 1 < n {
                total += at(r, c + 1);
            }
            total % k == 0
        })
    })
}
