//! The optimal player against the others, and how much each player's decisions
//! cost against the exact solution.
//!
//! ```text
//! cargo run --release -p tabula-auto120 --example optimal -- --markers 2 [--games N] [--seed S] [--players A,B,...]
//! ```
//!
//! For each listed player (default: best, scenario, expectimax, random) plays N
//! games (default 100000) of `optimal` against it with `tabula_ai::simulate` (the
//! driver behind `tabula simulate`), seats alternating, and prints `optimal`'s
//! share of wins with its 95% interval. Every decision of both players is also
//! checked against the exact table: the loss of a decision is the best move's
//! win probability minus the chosen move's. The mean loss per decision is
//! printed for each player (all its decisions, and those with a real choice:
//! markers on at least two different squares).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tabula_ai::players::RandomPlayer;
use tabula_ai::simulate::simulate;
use tabula_auto120::exact::{self, Solution};
use tabula_auto120::{Auto120, Move, State};
use tabula_core::{Choice, Players, Rng, Seat, Strategy};

/// Loss totals of one player, in units of 1e-12 (integers so that threads can add).
#[derive(Default)]
struct Loss {
    sum: AtomicU64,
    decisions: AtomicU64,
    choices: AtomicU64,
    mistakes: AtomicU64,
}

const UNIT: f64 = 1e12;

struct Measured {
    inner: Box<dyn Strategy<Auto120>>,
    solution: Arc<Solution>,
    loss: Arc<Loss>,
}

impl Strategy<Auto120> for Measured {
    fn choose(
        &mut self,
        game: &Auto120,
        state: &State,
        seat: Seat,
        rng: &mut Rng,
    ) -> Option<Choice<Move>> {
        let c = self.inner.choose(game, state, seat, rng)?;
        if let Move::Marker(m) = c.mv {
            let values = self.solution.move_values(state);
            let best = values[0].1;
            let chosen = values
                .iter()
                .find(|&&(j, _)| j == m)
                .map_or(0.0, |&(_, p)| p);
            let loss = (best - chosen).max(0.0);
            self.loss
                .sum
                .fetch_add((loss * UNIT).round() as u64, Ordering::Relaxed);
            self.loss.decisions.fetch_add(1, Ordering::Relaxed);
            let squares = values
                .iter()
                .map(|&(j, _)| state.markers(seat)[j as usize])
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            if squares > 1 {
                self.loss.choices.fetch_add(1, Ordering::Relaxed);
            }
            if loss > 1e-9 {
                self.loss.mistakes.fetch_add(1, Ordering::Relaxed);
            }
        }
        Some(c)
    }
}

fn build(game: &Auto120, name: &str, seed: u64) -> Box<dyn Strategy<Auto120>> {
    if name == "random" {
        return Box::new(RandomPlayer);
    }
    let (kind, options) = name.split_once(':').unwrap_or((name, ""));
    game.custom_player(kind, options, seed)
        .unwrap_or_else(|| panic!("unknown player {name}"))
}

fn main() {
    let mut markers = 2usize;
    let mut games = 100_000u64;
    let mut seed = 2024u64;
    let mut players: Vec<String> = ["best", "scenario", "expectimax", "random"]
        .map(String::from)
        .to_vec();
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or_default();
        match pair[0].as_str() {
            "--markers" => markers = value.parse().expect("--markers N"),
            "--games" => games = value.parse().expect("--games N"),
            "--seed" => seed = value.parse().expect("--seed S"),
            "--players" => players = value.split(',').map(str::to_string).collect(),
            other => panic!("unknown argument {other}"),
        }
    }
    let game = Auto120::with_markers(markers);
    let solution = exact::solution(markers, exact::DEFAULT_MAX_MEMORY)
        .unwrap_or_else(|e| panic!("{}", exact::error_text(markers, &e)));
    let st = solution.stats();
    println!(
        "{markers} marker(s) each: {} positions solved in {:.1} s ({} sweeps of the start layer); the first player to roll wins {:.9}\n",
        st.positions, st.seconds, st.sweeps, st.first_mover_wins
    );
    println!("{games} games per pairing, seats alternating, seed {seed}\n");
    println!("| optimal vs | optimal wins | 95% interval | decisions/game | seconds |");
    println!("|---|---:|---|---:|---:|");
    let mut losses: Vec<(String, Arc<Loss>)> = Vec::new();
    let optimal_loss = Arc::new(Loss::default());
    for name in &players {
        let loss = Arc::new(Loss::default());
        let names = ["optimal", name.as_str()];
        let r = simulate(
            &game,
            names,
            |i, s| {
                let (inner, l) = if i == 0 {
                    (build(&game, "optimal", s), optimal_loss.clone())
                } else {
                    (build(&game, name, s), loss.clone())
                };
                Box::new(Measured {
                    inner,
                    solution: solution.clone(),
                    loss: l,
                })
            },
            games,
            seed,
            &|| {},
        );
        println!(
            "| {name} | {:.2}% | {:.2}-{:.2}% | {:.1} | {:.1} |",
            100.0 * r.win_rate.value,
            100.0 * r.win_rate.low,
            100.0 * r.win_rate.high,
            r.mean_turns,
            r.seconds
        );
        losses.push((name.clone(), loss));
    }
    losses.push(("optimal".into(), optimal_loss));
    println!("\n| player | decisions | mean loss per decision | with a real choice | mean loss per real choice | decisions below optimal |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (name, l) in &losses {
        let sum = l.sum.load(Ordering::Relaxed) as f64 / UNIT;
        let d = l.decisions.load(Ordering::Relaxed);
        let c = l.choices.load(Ordering::Relaxed);
        let m = l.mistakes.load(Ordering::Relaxed);
        println!(
            "| {name} | {d} | {:.6} | {c} | {:.6} | {:.1}% |",
            sum / d.max(1) as f64,
            sum / c.max(1) as f64,
            100.0 * m as f64 / d.max(1) as f64
        );
    }
}
