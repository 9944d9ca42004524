//! Solves Hexapawn on every board from 3x3 to 6x6, in normal and misère play, with
//! optional and compulsory captures: positions, the value of the start for White
//! (to move) and its remoteness, by the generic retrograde solver.
//!
//! `cargo run --release -p tabula-hexapawn --example hexapawn_variants [MAX_SIDE]`

use std::time::Instant;
use tabula_ai::retrograde::Solution;
use tabula_core::Game;
use tabula_hexapawn::Hexapawn;

fn main() {
    let max: u8 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(4);
    println!("| board | play | captures | positions | start (White to move) | seconds |");
    println!("|---|---|---|---:|---|---:|");
    for rows in 3..=max {
        for columns in 3..=max {
            for misere in [false, true] {
                for compulsory in [false, true] {
                    let g = Hexapawn::new(columns, rows)
                        .with_misere(misere)
                        .with_compulsory_capture(compulsory);
                    let t = Instant::now();
                    match Solution::solve(&g, &g.initial_state(), 30_000_000) {
                        Ok(sol) => {
                            let st = sol.stats();
                            println!(
                                "| {columns}x{rows} | {} | {} | {} | {:?} in {} | {:.2} |",
                                if misere { "misère" } else { "normal" },
                                if compulsory { "compulsory" } else { "optional" },
                                st.positions,
                                st.start.value,
                                st.start.remoteness,
                                t.elapsed().as_secs_f64()
                            );
                        }
                        Err(e) => {
                            println!("| {columns}x{rows} | {misere} | {compulsory} | {e} | | |")
                        }
                    }
                }
            }
        }
    }
}
