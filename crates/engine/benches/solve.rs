//! Strong solves with the generic retrograde solver.
//! Run: `cargo bench -p tabula-engine --bench solve`.

use criterion::{criterion_group, criterion_main, Criterion};
use tabula_ai::retrograde::Solution;
use tabula_core::Game;

fn solves(c: &mut Criterion) {
    let ttt = tabula_tictactoe::TicTacToe::default();
    c.bench_function("tictactoe strong solve", |b| {
        b.iter(|| {
            Solution::solve(&ttt, &ttt.initial_state(), 1_000_000)
                .expect("solves")
                .stats()
                .positions
        })
    });
    let hex = tabula_hexapawn::Hexapawn::default();
    c.bench_function("hexapawn strong solve", |b| {
        b.iter(|| {
            Solution::solve(&hex, &hex.initial_state(), 1_000_000)
                .expect("solves")
                .stats()
                .positions
        })
    });
    let mu =
        <tabula_mutorere::MuTorere as tabula_core::Registered>::from_variant(&Default::default())
            .expect("default");
    c.bench_function("mu torere strong solve", |b| {
        b.iter(|| {
            Solution::solve(&mu, &mu.initial_state(), 1_000_000)
                .expect("solves")
                .stats()
                .positions
        })
    });
}

criterion_group!(benches, solves);
criterion_main!(benches);
