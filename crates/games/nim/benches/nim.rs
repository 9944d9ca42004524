//! `cargo bench -p tabula-nim`: nim-multiplication, analysis and exact remoteness.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tabula_core::Game;
use tabula_nim::{analysis, Nim, NimOracle, NimState, Nimber, Play};

fn benches(c: &mut Criterion) {
    c.bench_function("nimber_mul_64bit", |b| {
        let mut x = Nimber(0x9E37_79B9_7F4A_7C15);
        let y = Nimber(0xD1B5_4A32_D192_ED03);
        b.iter(|| {
            x = black_box(x * y + Nimber(1));
            x
        })
    });
    c.bench_function("nimber_inverse_64bit", |b| {
        b.iter(|| black_box(Nimber(0x1234_5678_9ABC_DEF1)).inverse())
    });
    let game = Nim::default();
    let big = NimState::new(vec![65_535, 40_000, 12_345, 999, 7, 60_000]);
    c.bench_function("analyze_6_large_heaps", |b| {
        b.iter(|| analysis::analyze(&game, black_box(&big)))
    });
    c.bench_function("exact_remoteness_3_4_5_6_7_cold", |b| {
        b.iter(|| NimOracle::new(Play::Normal).remoteness(black_box(&[3, 4, 5, 6, 7])))
    });
    c.bench_function("legal_moves_3_4_5", |b| {
        let s = game.initial_state();
        let mut buf = Vec::with_capacity(16);
        b.iter(|| {
            buf.clear();
            game.legal_moves(black_box(&s), &mut buf);
            buf.len()
        })
    });
}

criterion_group!(nim, benches);
criterion_main!(nim);
