//! Random playouts through the generic `Game` interface:
//! `cargo bench -p tabula-tictactoe --bench tictactoe`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::Rng as _;
use std::hint::black_box;
use tabula_core::{rng_from_seed, Game, Turn};
use tabula_tictactoe::TicTacToe;

/// Plays `games` random games and returns the number of moves made.
fn playouts(
    g: &TicTacToe,
    games: u32,
    rng: &mut tabula_core::Rng,
    buf: &mut Vec<tabula_tictactoe::Square>,
) -> u64 {
    let mut moves = 0;
    for _ in 0..games {
        let mut s = g.initial_state();
        while let Turn::Move(_) = g.turn(&s) {
            buf.clear();
            g.legal_moves(&s, buf);
            let mv = buf[rng.gen_range(0..buf.len())];
            g.play_unchecked(&mut s, mv);
            moves += 1;
        }
        black_box(s);
    }
    moves
}

fn bench(c: &mut Criterion) {
    let g = TicTacToe::default();
    let mut rng = rng_from_seed(1);
    let mut buf = Vec::with_capacity(9);
    // Moves per game averaged over many games, so the throughput is in moves.
    const GAMES: u32 = 1000;
    let per_batch = playouts(&g, 100_000, &mut rng, &mut buf) as f64 / 100.0;
    let mut group = c.benchmark_group("tictactoe");
    group.throughput(Throughput::Elements(per_batch.round() as u64));
    group.bench_function("random_playouts_1000_games", |b| {
        b.iter(|| black_box(playouts(&g, GAMES, &mut rng, &mut buf)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
