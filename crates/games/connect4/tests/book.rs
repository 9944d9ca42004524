//! The opening book shipped with the crate: its format and board, the known
//! values of the classic start (Allis, Allen, Tromp: the first player wins
//! only by the middle column, with their 21st disc; columns 3 and 5 draw),
//! each entry's agreement with its children's entries, and a random sample
//! of entries solved again from scratch (ignored in the quick run: minutes
//! each in release, `cargo test -p tabula-connect4 --release --test book --
//! --ignored`).

use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::HashMap;
use tabula_connect4::solver::building::positions_at;
use tabula_connect4::solver::oracle::SolverOracle;
use tabula_connect4::solver::{Limits, Solved, Solver};
use tabula_connect4::{ConnectFour, Move};
use tabula_core::{Game, Oracle, Rng, Value};

fn book() -> std::sync::Arc<tabula_connect4::solver::Book> {
    ConnectFour::classic()
        .book()
        .expect("the crate ships a book of the classic board")
}

#[test]
fn the_book_gives_the_known_values_of_the_start() {
    let game = ConnectFour::classic();
    let book = book();
    assert!(book.depth() >= 1, "the book holds the start's moves");
    let oracle = SolverOracle::new(game, Some(book));
    let start = game.initial_state();
    assert!(oracle.answers_at_once(&game, &start));
    let start_value = oracle.grade(&game, &start).unwrap();
    assert_eq!(
        (start_value.value, start_value.remoteness),
        (Value::Win, 41)
    );
    for column in 0..7u8 {
        let mut after = start;
        game.play_unchecked(&mut after, Move::Drop(column));
        let g = oracle.grade(&game, &after).unwrap().as_move_grade();
        match column + 1 {
            4 => assert_eq!((g.value, g.remoteness), (Value::Win, 41)),
            3 | 5 => assert_eq!(g.value, Value::Draw),
            _ => assert_eq!(g.value, Value::Loss, "column {}", column + 1),
        }
    }
}

/// Every entry below the book's last ply is what its moves give: the best of
/// its children's scores, negated (a child that is a line at once scores
/// the win directly). So no entry can be wrong alone.
#[test]
fn every_entry_agrees_with_its_childrens_entries() {
    let game = ConnectFour::classic();
    let book = book();
    let shape = game.shape();
    let scores: HashMap<u64, i32> = book
        .entries()
        .iter()
        .map(|&(k, s)| (k, i32::from(s)))
        .collect();
    let mut checked = 0;
    for plies in 0..book.depth() {
        for (key, b) in positions_at(game.geometry(), plies) {
            let mut best = i32::MIN;
            let mut playable = b.playable(&shape);
            while playable != 0 {
                let cell = playable & playable.wrapping_neg();
                playable &= playable - 1;
                let score = if b.completes_line(&shape, cell) {
                    (42 - b.discs() as i32 + 1) / 2
                } else {
                    let mut child = b;
                    child.play_cell(cell);
                    -scores[&child.canonical_key(&shape)]
                };
                best = best.max(score);
            }
            assert_eq!(scores[&key], best, "entry {key}");
            checked += 1;
        }
    }
    assert!(checked >= 1);
    // Every position of every ply is in it, and nothing else.
    let all: usize = (0..=book.depth())
        .map(|p| positions_at(game.geometry(), p).len())
        .sum();
    assert_eq!(book.len(), all);
}

#[test]
#[ignore = "minutes a position in release: solves a sample of the book again without it"]
fn a_sample_of_entries_solved_again_gives_the_same_scores() {
    let game = ConnectFour::classic();
    let book = book();
    let deepest = positions_at(game.geometry(), book.depth());
    let mut rng = Rng::seed_from_u64(7);
    let mut solver = Solver::new(
        game.shape(),
        tabula_connect4::solver::table::FULL_ENTRIES,
        None,
    );
    for (key, b) in deepest.choose_multiple(&mut rng, 3) {
        let Solved::Exact(score) = solver.solve(b, Limits::default()) else {
            panic!("no limits")
        };
        assert_eq!(Some(score), book.score(*key), "entry {key}");
    }
}
