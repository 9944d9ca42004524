//! The learning figures of Gardner's Hexapawn machine (Black) for every opponent,
//! seeds 1-20, with and without mirror symmetry:
//! `cargo run --release -p tabula-hexapawn --example hexapawn_training [GAMES]`.

use tabula_ai::matchbox::MatchboxOptions;
use tabula_ai::train::{train, Opponent, TrainOptions};
use tabula_hexapawn::{Hexapawn, BLACK};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    println!("Hexapawn, machine plays Black, {games} games per run, seeds 1-20");
    println!("opponent  symmetry  losses(min/mean/max)  last_loss(max)  unbeatable_after(min/mean/max, runs)  boxes(mean)  positions");
    for opponent in [Opponent::Random, Opponent::Perfect, Opponent::Exploit] {
        for symmetry in [true, false] {
            let machine = MatchboxOptions::parse(if symmetry {
                "symmetry=on"
            } else {
                "symmetry=off"
            })
            .unwrap();
            let reports: Vec<_> = (1..=20)
                .map(|seed| {
                    let o = TrainOptions {
                        games,
                        seed,
                        opponent,
                        seat: BLACK,
                        machine: machine.clone(),
                        ..TrainOptions::default()
                    };
                    train(&Hexapawn::default(), &o).expect("training runs")
                })
                .collect();
            let losses: Vec<u64> = reports.iter().map(|r| r.losses).collect();
            let unbeatable: Vec<u64> = reports.iter().filter_map(|r| r.unbeatable_after).collect();
            let last: u64 = reports
                .iter()
                .filter_map(|r| r.last_loss)
                .max()
                .unwrap_or(0);
            let boxes = reports.iter().map(|r| r.matchboxes).sum::<usize>() as f64 / 20.0;
            let positions = if symmetry {
                reports[0].learner_positions_up_to_symmetry
            } else {
                reports[0].learner_positions
            };
            let stat = |v: &[u64]| {
                if v.is_empty() {
                    "-".to_string()
                } else {
                    format!(
                        "{}/{:.1}/{}",
                        v.iter().min().unwrap(),
                        v.iter().sum::<u64>() as f64 / v.len() as f64,
                        v.iter().max().unwrap()
                    )
                }
            };
            println!(
                "{:<9} {:<9} {:<21} {:<15} {:<37} {:<12.1} {}",
                opponent.as_str(),
                if symmetry { "on" } else { "off" },
                stat(&losses),
                last,
                format!("{} ({}/20)", stat(&unbeatable), unbeatable.len()),
                boxes,
                positions.map_or("-".into(), |p| p.to_string()),
            );
        }
    }
}
