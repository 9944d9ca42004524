//! `cargo bench -p tabula-auto120`: one scenario-vs-scenario game through
//! `Strategy::choose` (one core; multiply the rate by 60 x cores for games per
//! minute), and one `best` decision in a middle-game position.

use criterion::{criterion_group, criterion_main, Criterion};
use rand::Rng as _;
use std::hint::black_box;
use tabula_auto120::{Auto120, Best, Move, Scenario};
use tabula_core::Notation;
use tabula_core::{rng_from_seed, Game, Strategy, Turn};

fn scenario_game(c: &mut Criterion) {
    let game = Auto120::default();
    let mut rng = rng_from_seed(1);
    c.bench_function("scenario vs scenario, one game", |b| {
        b.iter(|| {
            let mut players = [Scenario::default(), Scenario::default()];
            let mut state = game.initial_state();
            game.play_unchecked(&mut state, Move::Starter(rng.gen_range(0..2)));
            loop {
                match game.turn(&state) {
                    Turn::Over(o) => break black_box(o),
                    Turn::Chance => {
                        game.play_unchecked(&mut state, Move::Roll(rng.gen_range(1..=6)))
                    }
                    Turn::Move(seat) => {
                        let choice = players[seat].choose(&game, &state, seat, &mut rng).unwrap();
                        game.play_unchecked(&mut state, choice.mv);
                    }
                }
            }
        })
    });
}

fn best_move(c: &mut Criterion) {
    let game = Auto120::default();
    let state = game.parse_position("2,6,24,1/5,12,30,1:1r2").unwrap();
    let mut rng = rng_from_seed(2);
    tabula_auto120::solo::tables();
    tabula_auto120::exact::solution(2, u64::MAX).expect("the endgame table");
    for depth in [2, 3] {
        let mut best = Best {
            depth,
            ..Best::default()
        };
        c.bench_function(&format!("best depth {depth}, one move"), |b| {
            b.iter(|| black_box(best.choose(&game, &state, 0, &mut rng)))
        });
    }
}

criterion_group!(benches, scenario_game, best_move);
criterion_main!(benches);
