//! The three speed targets: full solution (fewest-presses search included) of the
//! all-ones board at 2000 x 2000 and 10000 x 10000 with 2 colours, 300 x 300 with 6.
//! `cargo bench -p tabula-poggle --bench poggle`

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Duration;
use tabula_poggle::{solve, SolveOptions, Start};

fn targets(c: &mut Criterion) {
    let options = SolveOptions::default();
    let mut group = c.benchmark_group("poggle solve");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    for (n, k) in [(2000usize, 2u32), (300, 6), (10000, 2)] {
        group.bench_function(format!("size {n} colours {k}"), |b| {
            b.iter(|| {
                let sol = solve(black_box(n), black_box(k), Start::Ones, &options).unwrap();
                assert!(sol.solvable);
                sol
            })
        });
    }
    group.finish();
}

criterion_group!(benches, targets);
criterion_main!(benches);
