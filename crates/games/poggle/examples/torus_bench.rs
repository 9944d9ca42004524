//! Times the torus solver (`topology=torus`) from the all-ones start.
//!
//! `cargo run --release -p tabula-poggle --example torus_bench -- [N] [K]` (default 30 2)

use std::time::Instant;
use tabula_poggle::{torus, SolveOptions};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(30);
    let k = args.get(1).copied().unwrap_or(2) as u32;
    let start = vec![(1 % k) as u8; n * n];
    let t = Instant::now();
    let sol = torus::solve(n, k, &start, &SolveOptions::default()).expect("solves");
    println!(
        "{n}x{n} torus, {k} colours: solvable {}, solutions {}, fewest {} ({:?} presses), {:.3} s",
        sol.solvable,
        sol.count,
        sol.fewest,
        sol.total_presses(),
        t.elapsed().as_secs_f64()
    );
}
