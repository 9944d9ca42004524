//! Times the exact solver on 7x6 positions, grading every move of each as a
//! hint does, and prints each position's scores in the form other solvers
//! print them, so that the two can be compared line by line.
//!
//! Positions are lines of moves, columns 1-7 from the empty board (`4453`).
//!
//! * `solver_timing generate COUNT SEED LOW-HIGH`: prints COUNT positions
//!   reached by seeded random play with LOW to HIGH discs, games not over
//!   and the mover without a win at once.
//! * `solver_timing analyze [--book FILE]`: reads positions from standard
//!   input and prints each line followed by the score of every column
//!   (-1000 for a full one); then, on standard error, one JSON object:
//!   positions, seconds, positions per second, mean and slowest seconds per
//!   position, positions searched.
//!
//! `cargo run --release -p tabula-connect4 --example solver_timing -- generate 30 1 8-14 > set.txt`

use rand::{Rng as _, SeedableRng};
use std::io::BufRead;
use std::sync::Arc;
use std::time::Instant;
use tabula_connect4::solver::table::FULL_ENTRIES;
use tabula_connect4::solver::{Book, Limits, Solved, Solver, SolverBoard};
use tabula_connect4::{ConnectFour, Move, Position};
use tabula_core::{Game, Rng, Turn};

/// The position after `line`, or `None` if a move is illegal or ends the game.
fn play_line(game: &ConnectFour, line: &str) -> Option<Position> {
    let mut s = game.initial_state();
    for ch in line.trim().chars() {
        let column = ch.to_digit(10)?.checked_sub(1)? as u8;
        if !matches!(game.turn(&s), Turn::Move(_)) {
            return None;
        }
        game.try_play(&mut s, Move::Drop(column)).ok()?;
    }
    matches!(game.turn(&s), Turn::Move(_)).then_some(s)
}

fn generate(count: usize, seed: u64, low: u32, high: u32) {
    let game = ConnectFour::classic();
    let mut rng = Rng::seed_from_u64(seed);
    let mut made = 0;
    while made < count {
        let discs = rng.gen_range(low..=high);
        let mut line = String::new();
        let mut s = game.initial_state();
        let mut moves = Vec::new();
        for _ in 0..discs {
            moves.clear();
            game.legal_moves(&s, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            line.push_str(&mv.to_string());
            game.play_unchecked(&mut s, mv);
        }
        let Some(s) = play_line(&game, &line) else {
            continue;
        };
        if s.disc_count() != discs || SolverBoard::from_position(&s).can_win_now(&game.shape()) {
            continue;
        }
        println!("{line}");
        made += 1;
    }
}

fn analyze(book: Option<Arc<Book>>) {
    let game = ConnectFour::classic();
    let shape = game.shape();
    let with_book = book.is_some();
    let mut solver = Solver::new(shape, FULL_ENTRIES, book);
    let (mut count, mut slowest) = (0u64, 0f64);
    let started = Instant::now();
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("standard input");
        let Some(p) = play_line(&game, &line) else {
            eprintln!("not a position of a game in play: {line}");
            std::process::exit(2);
        };
        let one = Instant::now();
        let b = SolverBoard::from_position(&p);
        let mut scores = Vec::new();
        for c in 0..7u8 {
            let cell = b.playable(&shape) & shape.column(c);
            if cell == 0 {
                scores.push(-1000);
                continue;
            }
            if b.completes_line(&shape, cell) {
                scores.push(b.win_now_score(&shape));
                continue;
            }
            let mut child = b;
            child.play_cell(cell);
            let Solved::Exact(s) = solver.solve(&child, Limits::default()) else {
                unreachable!("no limits")
            };
            scores.push(-s);
        }
        slowest = slowest.max(one.elapsed().as_secs_f64());
        count += 1;
        let scores: Vec<String> = scores.iter().map(|s| s.to_string()).collect();
        println!("{line} {}", scores.join(" "));
    }
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{{\"positions\":{count},\"seconds\":{seconds:.3},\"positions_per_second\":{:.2},\"mean_seconds\":{:.5},\"slowest_seconds\":{slowest:.3},\"nodes\":{},\"book\":{with_book}}}",
        count as f64 / seconds,
        seconds / count.max(1) as f64,
        solver.nodes(),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("generate") => {
            let count = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(30);
            let seed = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
            let range = args.get(3).map_or("8-14", String::as_str);
            let (low, high) = range.split_once('-').expect("LOW-HIGH");
            generate(count, seed, low.parse().unwrap(), high.parse().unwrap());
        }
        Some("analyze") => {
            let book = args.iter().position(|a| a == "--book").map(|i| {
                let bytes = std::fs::read(&args[i + 1]).expect("the book file");
                Arc::new(Book::read(&bytes).expect("a book"))
            });
            analyze(book);
        }
        _ => {
            eprintln!("usage: solver_timing generate COUNT SEED LOW-HIGH | analyze [--book FILE]");
            std::process::exit(2);
        }
    }
}
