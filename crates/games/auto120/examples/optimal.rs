//! The optimal player against the others, what each player's decisions cost
//! against the exact solution (and, for the scenario player, each of the
//! posts' sets A-D), and how long games of perfect play last.
//!
//! ```text
//! cargo run --release -p tabula-auto120 --example optimal -- --markers N \
//!     [--games G] [--seed S] [--players A,B,...|none] [--length] [--self-play G]
//! ```
//!
//! For each listed player (default: best, scenario, expectimax, random) plays G
//! games (default 100000) of `optimal` against it with `tabula_ai::simulate`
//! (the driver behind `tabula simulate`), seats alternating, and prints
//! `optimal`'s share of wins with its 95% interval. Every decision of both
//! players is graded against the exact table (`tabula_auto120::grading`): the
//! loss is the best move's chance to win minus the chosen move's. The scenario
//! player's decisions are also totalled by the set that chose them, with the
//! largest loss of each set and where it happened.
//!
//! `--length`: the expected length of a game with perfect play on both sides,
//! exactly (1 to 3 markers; `exact::length::exact`). `--self-play G`: G games
//! of `optimal` against itself, their mean length with its 95% interval and the
//! longest.
//!
//! With 4 markers the table is the one `tabula solve auto120` made on the disk
//! (in `$TABULA_TABLE_DIR/auto120-4-markers`, as the CLI finds it), memory-mapped
//! as the `optimal` player reads it: nothing is loaded beyond the pages read.

use std::sync::Arc;
use tabula_ai::players::RandomPlayer;
use tabula_ai::simulate::simulate;
use tabula_auto120::exact::{self, length};
use tabula_auto120::grading::{GradedPlayer, LossBook, Tally};
use tabula_auto120::Auto120;
use tabula_core::{Budget, Players, Strategy};

fn build(game: &Auto120, name: &str, seed: u64) -> Box<dyn Strategy<Auto120>> {
    if name == "random" {
        return Box::new(RandomPlayer);
    }
    let (kind, options) = name.split_once(':').unwrap_or((name, ""));
    match game.custom_player(kind, options, seed) {
        Some(Ok(player)) => player,
        Some(Err(why)) => panic!("{name}: {why}"),
        None => panic!("unknown player {name}"),
    }
}

fn percent(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn loss_row(name: &str, t: &Tally) -> String {
    format!(
        "| {name} | {} | {:.6} | {} | {:.6} | {:.1}% |",
        t.decisions,
        t.mean_loss(),
        t.real_choices,
        t.mean_loss_per_choice(),
        100.0 * t.share_below_optimal()
    )
}

/// What the command line asks for.
struct Args {
    markers: usize,
    games: u64,
    seed: u64,
    /// Games of `optimal` against itself (0: none).
    self_play: u64,
    /// Whether to work out the expected length of a game exactly.
    exact_length: bool,
    /// The players `optimal` meets, one pairing each.
    players: Vec<String>,
}

impl Args {
    fn parse() -> Args {
        let mut a = Args {
            markers: 2,
            games: 100_000,
            seed: 2024,
            self_play: 0,
            exact_length: false,
            players: ["best", "scenario", "expectimax", "random"]
                .map(String::from)
                .to_vec(),
        };
        let mut args = std::env::args().skip(1);
        while let Some(flag) = args.next() {
            let mut value = || args.next().unwrap_or_default();
            match flag.as_str() {
                "--markers" => a.markers = value().parse().expect("--markers N"),
                "--games" => a.games = value().parse().expect("--games N"),
                "--seed" => a.seed = value().parse().expect("--seed S"),
                "--players" => {
                    a.players = value()
                        .split(',')
                        .filter(|p| !p.is_empty() && *p != "none")
                        .map(str::to_string)
                        .collect()
                }
                "--length" => a.exact_length = true,
                "--self-play" => a.self_play = value().parse().expect("--self-play N"),
                other => panic!("unknown argument {other}"),
            }
        }
        a
    }
}

fn main() {
    let args = Args::parse();
    let markers = args.markers;
    let game = Auto120::with_markers(markers);
    let solution = exact::solution(markers, exact::DEFAULT_MAX_MEMORY)
        .unwrap_or_else(|e| panic!("{}", exact::error_text(markers, &e)));
    print_solution(markers, &solution);
    if args.exact_length {
        print_exact_length(&solution);
    }
    if args.self_play > 0 {
        print_self_play(&solution, args.self_play, args.seed);
    }
    if args.players.is_empty() {
        return;
    }
    let (book, sets) = play_pairings(&game, &solution, &args);
    print_losses(&args.players, &book);
    for (name, reasons) in sets {
        print_losses_by_set(&name, &reasons);
    }
}

/// The table's size, how it was solved and the first mover's chance.
fn print_solution(markers: usize, solution: &exact::Solution) {
    let st = solution.stats();
    let from = if markers >= exact::LAYERED_MARKERS {
        exact::table_dir(markers).map_or_else(String::new, |d| {
            format!(" (the table on the disk in {})", d.display())
        })
    } else {
        String::new()
    };
    println!(
        "{markers} marker(s) each{from}: {} positions, solved in {:.1} s ({} sweeps of the start layer); the first player to roll wins {:.9}\n",
        st.positions, st.seconds, st.sweeps, st.first_mover_wins
    );
}

/// `--length`: the expected length of a game with perfect play, worked out exactly.
fn print_exact_length(solution: &exact::Solution) {
    match length::exact(solution, &Budget::unlimited(), &|_| {}) {
        Ok(l) => {
            println!("Expected length with perfect play on both sides (policy evaluation, {:.1} s, {} sweeps of the start layer):\n", l.seconds, l.sweeps);
            println!(
                "* rolls {:.4}, marker moves {:.4}, plies {:.4} (the draw, the rolls and the moves)",
                l.rolls, l.moves, l.plies
            );
            println!(
                "* the longest expected rest of a game: {:.4} rolls, at {}",
                l.longest_rolls, l.longest_position
            );
            println!(
                "* decisions with two moves of equal chance: {}; largest change in the last sweep {:.1e}; CPU {:.1} s\n",
                l.tied_decisions,
                l.max_change,
                l.cpu_seconds.unwrap_or(f64::NAN)
            );
        }
        Err(e) => println!("Expected length: {e}\n"),
    }
}

/// `--self-play G`: the length of games of `optimal` against itself, sampled.
fn print_self_play(solution: &exact::Solution, games: u64, seed: u64) {
    let s = length::simulate(solution, games, seed);
    println!(
        "{} games of optimal against itself (seed {seed}, {:.1} s, {} cut off):\n",
        s.games, s.seconds, s.cut_off
    );
    println!(
        "* rolls per game {:.3} (95% interval {:.3}-{:.3}), the longest game {} rolls",
        s.rolls.mean, s.rolls.low, s.rolls.high, s.longest_rolls
    );
    println!(
        "* marker moves per game {:.3} (95% interval {:.3}-{:.3}), the most in a game {}\n",
        s.moves.mean, s.moves.low, s.moves.high, s.longest_moves
    );
}

/// Plays `optimal` against each listed player and prints the table of wins. Every
/// decision of both sides is graded into one book (by player); a scenario player's
/// decisions also into a book of its own by the set that chose them, returned
/// with its name.
fn play_pairings(
    game: &Auto120,
    solution: &Arc<exact::Solution>,
    args: &Args,
) -> (Arc<LossBook>, Vec<(String, Arc<LossBook>)>) {
    let (games, seed) = (args.games, args.seed);
    println!("{games} games per pairing, seats alternating, seed {seed}\n");
    println!("| optimal vs | optimal wins | 95% interval | decisions/game | seconds |");
    println!("|---|---:|---|---:|---:|");
    let book = Arc::new(LossBook::default());
    let mut sets: Vec<(String, Arc<LossBook>)> = Vec::new();
    for name in &args.players {
        let reasons = Arc::new(LossBook::default());
        let graded_sets = name.starts_with("scenario");
        let r = simulate(
            game,
            ["optimal", name.as_str()],
            |i, s| {
                let (label, inner) = if i == 0 {
                    ("optimal", build(game, "optimal", s))
                } else {
                    (name.as_str(), build(game, name, s))
                };
                let p = GradedPlayer::new(inner, solution.clone(), label, book.clone());
                Box::new(if i == 1 && graded_sets {
                    p.with_reasons(reasons.clone())
                } else {
                    p
                })
            },
            games,
            seed,
            &|| {},
        );
        println!(
            "| {name} | {} | {}-{} | {:.1} | {:.1} |",
            percent(r.win_rate.value),
            percent(r.win_rate.low),
            percent(r.win_rate.high),
            r.mean_turns,
            r.seconds
        );
        if graded_sets {
            sets.push((name.clone(), reasons));
        }
    }
    (book, sets)
}

/// What each player's decisions cost against the table (`optimal` last).
fn print_losses(players: &[String], book: &LossBook) {
    let tallies = book.tallies();
    println!("\n| player | decisions | mean loss per decision | with a real choice | mean loss per real choice | decisions below optimal |");
    println!("|---|---:|---:|---:|---:|---:|");
    for name in players.iter().map(String::as_str).chain(["optimal"]) {
        if let Some(t) = tallies.get(name) {
            println!("{}", loss_row(name, t));
        }
    }
}

/// What the scenario player `name`'s decisions cost by the set that chose them,
/// and each set's largest loss with where it happened.
fn print_losses_by_set(name: &str, reasons: &LossBook) {
    println!("\n`{name}`, by the set that chose the move:\n");
    println!("| set | decisions | mean loss per decision | with a real choice | mean loss per real choice | decisions below optimal |");
    println!("|---|---:|---:|---:|---:|---:|");
    let by_set = reasons.tallies();
    for (set, t) in &by_set {
        println!("{}", loss_row(set, t));
    }
    println!("\n| set | largest loss | at | chose (chance) | best (chance) |");
    println!("|---|---:|---|---|---|");
    for (set, t) in &by_set {
        if let Some(w) = &t.worst {
            println!(
                "| {set} | {:.6} | `{}` | {} ({}) | {} ({}) |",
                w.loss,
                w.position,
                w.chosen,
                percent(w.chosen_chance),
                w.best,
                percent(w.best_chance)
            );
        }
    }
}
