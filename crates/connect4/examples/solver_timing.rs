//! Times the exact solver on sets of 7x6 positions reached by seeded random
//! play, grading every move of each position as a hint does, and prints one
//! JSON object per set: positions, seconds, positions per second, mean and
//! slowest time per position, positions searched.
//!
//! `cargo run --release -p tabula-connect4 --example solver_timing -- [COUNT] [SEED] [SETS]`
//! SETS is a list like `8-14,15-24,25-36` (the default); `0-0` times the start.
//! The opening book is not used unless `--book FILE` is given.

use rand::{Rng as _, SeedableRng};
use std::sync::Arc;
use std::time::Instant;
use tabula_connect4::solver::{solver_board, Book, Limits, Solved, Solver};
use tabula_connect4::{ConnectFour, Position};
use tabula_core::{Game, Rng, Turn};

fn random_position(game: &ConnectFour, discs: u32, rng: &mut Rng) -> Option<Position> {
    let mut s = game.initial_state();
    let mut moves = Vec::new();
    for _ in 0..discs {
        moves.clear();
        game.legal_moves(&s, &mut moves);
        if moves.is_empty() {
            return None;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        game.play_unchecked(&mut s, mv);
    }
    matches!(game.turn(&s), Turn::Move(_)).then_some(s)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut book = None;
    if let Some(i) = args.iter().position(|a| a == "--book") {
        let path = args.get(i + 1).expect("--book FILE").clone();
        let bytes = std::fs::read(&path).expect("the book file");
        book = Some(Arc::new(Book::read(&bytes).expect("a book")));
        args.drain(i..i + 2);
    }
    let count: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(30);
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let sets = args
        .get(2)
        .cloned()
        .unwrap_or_else(|| "8-14,15-24,25-36".into());
    let game = ConnectFour::classic();
    for set in sets.split(',') {
        let (low, high) = set.split_once('-').expect("LOW-HIGH");
        let (low, high): (u32, u32) = (low.parse().unwrap(), high.parse().unwrap());
        let mut rng = Rng::seed_from_u64(seed);
        let mut positions = Vec::new();
        while positions.len() < if low == 0 { 1 } else { count } {
            let discs = rng.gen_range(low..=high);
            if let Some(p) = random_position(&game, discs, &mut rng) {
                // A position where the mover wins at once is no test.
                let b = solver_board(&game, &p).unwrap();
                if !b.can_win_now(&game.shape()) {
                    positions.push(p);
                }
            }
        }
        let mut solver = Solver::new(
            game.shape(),
            tabula_connect4::solver::table::FULL_ENTRIES,
            book.clone(),
        );
        let mut slowest = 0f64;
        let started = Instant::now();
        for p in &positions {
            let one = Instant::now();
            // Every move of the position, as a hint grades them.
            let mut moves = Vec::new();
            game.legal_moves(p, &mut moves);
            for mv in moves {
                let mut child = *p;
                game.play_unchecked(&mut child, mv);
                let Some(b) = solver_board(&game, &child) else {
                    continue;
                };
                if !matches!(game.turn(&child), Turn::Move(_)) {
                    continue;
                }
                let solved = solver.solve(&b, Limits::default());
                assert!(matches!(solved, Solved::Exact(_)));
            }
            slowest = slowest.max(one.elapsed().as_secs_f64());
        }
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "{{\"set\":\"{set}\",\"positions\":{},\"seconds\":{seconds:.3},\"positions_per_second\":{:.2},\"mean_seconds\":{:.5},\"slowest_seconds\":{slowest:.3},\"nodes\":{},\"book\":{}}}",
            positions.len(),
            positions.len() as f64 / seconds,
            seconds / positions.len() as f64,
            solver.nodes(),
            book.is_some()
        );
    }
}
