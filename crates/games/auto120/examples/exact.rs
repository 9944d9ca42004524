//! Solves Multiplication Ludo exactly and prints the solver's summary as JSON.
//!
//! ```text
//! cargo run --release -p tabula-auto120 --example exact -- --markers 3 [--tolerance 1e-12] [--max-memory BYTES] [--check]
//! cargo run --release -p tabula-auto120 --example exact -- --count 4
//! ```
//!
//! `--count N` counts the positions of the N-marker game and prints the
//! solver's memory estimate for it, without solving.
//!
//! `--check` verifies the solution two ways: (1) every position's value against
//! one step of the optimality equation computed with the game's own rules (the
//! `Game` interface: `chance_outcomes`, `legal_moves`, `play_unchecked`), and (2)
//! against a second solve in another iteration order ([`exact::Order::Global`]:
//! all layers swept together, start layer first, from 0), printing the largest
//! difference over all positions and the two first-mover values.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use tabula_auto120::exact::{self, Order, Solution};
use tabula_auto120::Auto120;
use tabula_core::{Game, GameExt, Turn};

/// The largest |V(s) - (one step of the optimality equation on V)(s)| over all
/// positions, with the step computed through the game's rules.
fn residual(game: &Auto120, sol: &Solution) -> f64 {
    let worst = AtomicU64::new(0);
    sol.for_each_position(&|state, v| {
        let mut outcomes = Vec::new();
        game.chance_outcomes(state, &mut outcomes);
        let mut total = 0.0;
        for (roll, p) in outcomes {
            let mut rolled = *state;
            game.play_unchecked(&mut rolled, roll);
            let best = match game.turn(&rolled) {
                Turn::Move(seat) => game
                    .moves(&rolled)
                    .into_iter()
                    .map(|mv| {
                        let mut after = rolled;
                        game.play_unchecked(&mut after, mv);
                        if after.winner() == Some(seat) {
                            1.0
                        } else {
                            1.0 - sol.value(&after).expect("a position of the table")
                        }
                    })
                    .fold(0.0f64, f64::max),
                _ => 1.0 - sol.value(&rolled).expect("a position of the table"),
            };
            total += p * best;
        }
        worst.fetch_max((total - v).abs().to_bits(), Ordering::Relaxed);
    });
    f64::from_bits(worst.load(Ordering::Relaxed))
}

fn main() {
    let mut markers = 2usize;
    let mut tolerance = exact::DEFAULT_TOLERANCE;
    let mut max_memory = exact::DEFAULT_MAX_MEMORY;
    let mut check = false;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--markers" => markers = value.parse().expect("--markers N"),
            "--tolerance" => tolerance = value.parse().expect("--tolerance X"),
            "--max-memory" => max_memory = value.parse().expect("--max-memory BYTES"),
            "--check" => {
                check = true;
                i += 1;
                continue;
            }
            "--count" => {
                let n: usize = value.parse().expect("--count N");
                let e = exact::estimate(n);
                let v = serde_json::json!({
                    "markers": n,
                    "positions": exact::count_positions(n),
                    "estimate": e,
                });
                println!("{}", serde_json::to_string_pretty(&v).expect("json"));
                return;
            }
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    let progress = |f: f64| eprintln!("{:.0}% of the layers solved", 100.0 * f);
    let sol = match exact::solve(markers, tolerance, max_memory, &|| false, &progress) {
        Ok(sol) => sol,
        Err(e) => {
            eprintln!("{}", exact::error_text(markers, &e));
            std::process::exit(2);
        }
    };
    let mut v = serde_json::to_value(sol.stats()).expect("stats serialise");
    v["peak_rss_bytes"] = serde_json::json!(exact::peak_rss_bytes());
    if check {
        let began = Instant::now();
        v["check_residual"] = serde_json::json!(residual(&Auto120::with_markers(markers), &sol));
        v["check_residual_seconds"] = serde_json::json!(began.elapsed().as_secs_f64());
        let other = exact::solve_with(
            markers,
            tolerance,
            u64::MAX,
            Order::Global,
            &|| false,
            &|_| {},
        )
        .expect("no memory limit");
        v["check_global_first_mover_wins"] = serde_json::json!(other.stats().first_mover_wins);
        v["check_global_rounds"] = serde_json::json!(other.stats().sweeps);
        v["check_global_seconds"] = serde_json::json!(other.stats().seconds);
        v["check_first_mover_difference"] = serde_json::json!((other.stats().first_mover_wins
            - sol.stats().first_mover_wins)
            .abs());
        v["check_max_difference"] = serde_json::json!(sol.max_difference(&other));
        v["peak_rss_bytes_after_check"] = serde_json::json!(exact::peak_rss_bytes());
    }
    println!("{}", serde_json::to_string_pretty(&v).expect("json"));
}
