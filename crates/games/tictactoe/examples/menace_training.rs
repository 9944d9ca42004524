//! How many games a MENACE-style tic-tac-toe machine needs before its first run of
//! 100 games in a row without a loss:
//! `cargo run --release -p tabula-tictactoe --example menace_training [OPPONENT] [SEAT] [OPTIONS] [GAMES] [SEEDS]`
//! e.g. `... menace_training perfect X "initial=4:3:2:1,win=3,draw=1,loss=1" 5000 10`.

use tabula_ai::matchbox::MatchboxOptions;
use tabula_ai::train::{train, Opponent, TrainOptions};
use tabula_core::Game;
use tabula_tictactoe::TicTacToe;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opponent =
        Opponent::parse(args.first().map_or("perfect", String::as_str)).expect("opponent");
    let seat_name = args.get(1).map_or("X", String::as_str);
    let seat = TicTacToe::default()
        .seats()
        .iter()
        .position(|s| s.eq_ignore_ascii_case(seat_name))
        .expect("seat X or O");
    let machine = MatchboxOptions::for_player("menace", args.get(2).map_or("", String::as_str))
        .expect("options");
    let games: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(5000);
    let seeds: u64 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(10);
    println!(
        "tic-tac-toe, MENACE as {seat_name} vs {}, {}, {games} games",
        opponent.as_str(),
        machine.to_text()
    );
    println!("seed  run_of_100_ended_at  losses  draws  wins  last_loss  unbeatable_after  boxes  beads  last-block(w/d/l)");
    let mut ended = Vec::new();
    for seed in 1..=seeds {
        let o = TrainOptions {
            games,
            seed,
            opponent,
            seat,
            machine: machine.clone(),
            ..TrainOptions::default()
        };
        let r = train(&TicTacToe::default(), &o).expect("training runs");
        let last = r.curve.last().unwrap();
        println!(
            "{seed:<5} {:<20} {:<7} {:<6} {:<5} {:<10} {:<17} {:<6} {:<6} {}/{}/{}",
            r.first_run_of_100_non_losses_ended_at
                .map_or("-".into(), |n| n.to_string()),
            r.losses,
            r.draws,
            r.wins,
            r.last_loss.map_or("-".into(), |n| n.to_string()),
            r.unbeatable_after.map_or("-".into(), |n| n.to_string()),
            r.matchboxes,
            r.beads,
            last.wins,
            last.draws,
            last.losses
        );
        ended.push(r.first_run_of_100_non_losses_ended_at);
    }
    let done: Vec<u64> = ended.iter().flatten().copied().collect();
    println!(
        "reached in {}/{} runs; games needed: min {:?} max {:?} mean {:.0}",
        done.len(),
        ended.len(),
        done.iter().min(),
        done.iter().max(),
        done.iter().sum::<u64>() as f64 / done.len().max(1) as f64
    );
}
