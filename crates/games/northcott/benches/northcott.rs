//! `cargo bench -p tabula-northcott`: the slides' reply, analysis, and the small-board solve.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tabula_ai::retrograde::Solution;
use tabula_core::{Game, Registered, Variant};
use tabula_northcott::{analysis, xpat_reply, Northcott};

fn game(size: &str) -> Northcott {
    Northcott::from_variant(&Variant::parse(&format!("size={size}")).unwrap()).unwrap()
}

fn benches(c: &mut Criterion) {
    let g = game("64x16");
    let mut s = g.initial_state();
    s.o[3] = 5;
    c.bench_function("xpat_reply_64x16", |b| {
        b.iter(|| xpat_reply(&g, black_box(&s)))
    });
    c.bench_function("analyze_64x16", |b| {
        b.iter(|| analysis::analyze(&g, black_box(&s), None))
    });
    c.bench_function("legal_moves_64x16", |b| {
        let mut buf = Vec::with_capacity(2048);
        b.iter(|| {
            buf.clear();
            g.legal_moves(black_box(&s), &mut buf);
            buf.len()
        })
    });
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for size in ["6x3", "7x4"] {
        let g = game(size);
        group.bench_function(format!("retrograde_{size}"), |b| {
            b.iter(|| {
                Solution::solve(&g, &g.initial_state(), 1_000_000)
                    .unwrap()
                    .stats()
                    .positions
            })
        });
    }
    group.finish();
}

criterion_group!(northcott, benches);
criterion_main!(northcott);
