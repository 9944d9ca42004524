//! Pairings and speed of the Auto120 players, on all cores, seeded.
//!
//! ```text
//! cargo run --release -p tabula-auto120 --example simulate -- [--games N] [--seed S] [--players A,B,...]
//! cargo run --release -p tabula-auto120 --example simulate -- --speed [--games N]
//! ```
//!
//! The first form plays every pair of the listed players (default: random,
//! scenario, expectimax, best) for N games each (default 100000), alternating
//! seats, with `tabula_ai::simulate::simulate` (the driver behind `tabula
//! simulate`), and prints a Markdown table. `--speed` times scenario against
//! scenario, both through that driver and through a bare loop over
//! `Strategy::choose`, and prints games per minute.

use rand::Rng as _;
use rayon::prelude::*;
use std::time::Instant;
use tabula_ai::players::RandomPlayer;
use tabula_ai::simulate::{game_seed, simulate, SimReport};
use tabula_auto120::{Auto120, Move, Scenario};
use tabula_core::Players;
use tabula_core::{rng_from_seed, Game, Outcome, Strategy, Turn};

fn player(name: &str) -> Box<dyn Strategy<Auto120>> {
    if name == "random" {
        return Box::new(RandomPlayer);
    }
    let (kind, options) = name.split_once(':').unwrap_or((name, ""));
    match Auto120::default().custom_player(kind, options, 0) {
        Some(Ok(player)) => player,
        Some(Err(why)) => panic!("{name}: {why}"),
        None => panic!("unknown player {name}"),
    }
}

fn pairing(a: &str, b: &str, games: u64, seed: u64) -> SimReport {
    let names = [a, b];
    simulate(
        &Auto120::default(),
        names,
        |i, _| player(names[i]),
        games,
        seed,
        &|| {},
    )
}

/// One game with the die rolled directly, both players through `Strategy::choose`.
fn bare_game(players: &mut [Scenario; 2], rng: &mut tabula_core::Rng) -> (Outcome, u32) {
    let game = Auto120::default();
    let mut state = game.initial_state();
    game.play_unchecked(&mut state, Move::Starter(rng.gen_range(0..2)));
    let mut decisions = 0;
    loop {
        match game.turn(&state) {
            Turn::Over(o) => return (o, decisions),
            Turn::Chance => game.play_unchecked(&mut state, Move::Roll(rng.gen_range(1..=6))),
            Turn::Move(seat) => {
                decisions += 1;
                let c = players[seat]
                    .choose(&game, &state, seat, rng)
                    .expect("a marker to move");
                game.play_unchecked(&mut state, c.mv);
            }
        }
    }
}

/// CPU time used by this process so far (Linux), to tell the speed of the code
/// from the load other processes put on a shared machine.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn report(what: &str, games: u64, wall: f64, cpu: Option<f64>, decisions: f64) {
    let threads = rayon::current_num_threads() as f64;
    print!(
        "{what}: {games} games in {wall:.2} s wall = {:.0} games/minute ({decisions:.1} decisions/game)",
        games as f64 / wall * 60.0
    );
    if let Some(cpu) = cpu {
        print!(
            "; {cpu:.2} CPU s = {:.0} games/minute on {threads} otherwise idle cores",
            games as f64 / cpu * 60.0 * threads
        );
    }
    println!();
}

fn speed(games: u64, seed: u64) {
    let (t, c) = (Instant::now(), cpu_seconds());
    let r = pairing("scenario", "scenario", games, seed);
    let cpu = c.zip(cpu_seconds()).map(|(a, b)| b - a);
    report(
        "tabula_ai::simulate, scenario vs scenario",
        games,
        t.elapsed().as_secs_f64(),
        cpu,
        r.mean_turns,
    );
    let (t, c) = (Instant::now(), cpu_seconds());
    let decisions: u64 = (0..games)
        .into_par_iter()
        .map(|i| {
            let mut rng = rng_from_seed(game_seed(seed, i));
            let mut players = [Scenario::default(), Scenario::default()];
            bare_game(&mut players, &mut rng).1 as u64
        })
        .sum();
    let cpu = c.zip(cpu_seconds()).map(|(a, b)| b - a);
    report(
        "bare loop, scenario vs scenario",
        games,
        t.elapsed().as_secs_f64(),
        cpu,
        decisions as f64 / games as f64,
    );
}

fn main() {
    let mut games = 100_000u64;
    let mut seed = 1u64;
    let mut players = vec![
        "random".to_string(),
        "scenario".into(),
        "expectimax".into(),
        "best".into(),
    ];
    let mut speed_only = false;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--games" => games = value.parse().expect("--games N"),
            "--seed" => seed = value.parse().expect("--seed S"),
            "--players" => players = value.split(',').map(str::to_string).collect(),
            "--speed" => {
                speed_only = true;
                i += 1;
                continue;
            }
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    if speed_only {
        speed(games, seed);
        return;
    }
    println!("{games} games per pairing, seats alternating, seed {seed}\n");
    println!("| A | B | A wins | 95% interval | B wins | decisions/game | seconds |");
    println!("|---|---|---:|---|---:|---:|---:|");
    for (x, a) in players.iter().enumerate() {
        for b in &players[x + 1..] {
            let r = pairing(a, b, games, seed);
            println!(
                "| {a} | {b} | {:.2}% | {:.2}-{:.2}% | {:.2}% | {:.1} | {:.1} |",
                100.0 * r.win_rate.value,
                100.0 * r.win_rate.low,
                100.0 * r.win_rate.high,
                100.0 * r.wins[1] as f64 / r.games as f64,
                r.mean_turns,
                r.seconds
            );
        }
    }
}
