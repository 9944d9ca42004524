//! Prints the strong-solution counts of every Mu Torere variant (through the
//! generic retrograde solver) and the Burnside counts.
//!
//! `cargo run -p tabula-mutorere --example figures`

use tabula_ai::retrograde::Solution;
use tabula_core::{Game, Registered, Variant};
use tabula_mutorere::MuTorere;

fn main() {
    for variant in [
        "rules=usual",
        "rules=best",
        "rules=best,best_plies=4",
        "rules=free",
    ] {
        let game =
            MuTorere::from_variant(&Variant::parse(variant).expect("variant")).expect("game");
        let solution =
            Solution::solve(&game, &game.initial_state(), 1_000_000).expect("small game");
        let s = solution.stats();
        println!(
            "{variant:<24} positions {:>5}  wins {:>4}  losses {:>4}  draws {:>4}  start {} (remoteness {})  max remoteness {}",
            s.positions, s.wins, s.losses, s.draws, s.start.value, s.start.remoteness, s.max_remoteness
        );
    }
    let report = MuTorere::default().count_report().expect("count report");
    println!("{}", serde_json::to_string_pretty(&report).expect("json"));
}
