//! Kono speed: the full strong solve, loading the cached solution, and one
//! perfect move from a loaded solution.
//!
//! `cargo bench -p tabula-kono` (all), or e.g. `cargo bench -p tabula-kono -- cache_load`.

use criterion::{criterion_group, criterion_main, Criterion};
use std::sync::Arc;
use std::time::Duration;
use tabula_ai::players::PerfectPlayer;
use tabula_core::{rng_from_seed, Game, GameExt, Strategy};
use tabula_kono::{cache, Kono, KonoOracle, KonoRules, KonoState, KonoTable};

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("kono");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(60));
    for rules in [KonoRules::Standard, KonoRules::Gamesman] {
        group.bench_function(format!("solve_full_{}", rules.word()), |b| {
            b.iter(|| KonoTable::solve_full(rules, &|_| {}).summary)
        });
    }
    group.finish();
}

fn loaded(c: &mut Criterion) {
    let rules = KonoRules::Standard;
    let table = KonoTable::solve_full(rules, &|_| {});
    let dir = std::env::temp_dir().join(format!("tabula-kono-bench-{}", std::process::id()));
    let disk = tabula_core::DiskCache::new(&dir, 1 << 30);
    cache::save(&disk, &table).expect("write the cache file");

    let mut group = c.benchmark_group("kono");
    group.sample_size(20);
    group.bench_function("cache_load", |b| {
        b.iter(|| cache::load(&disk, rules).expect("load").summary)
    });

    // Positions from random games, so the moves measured are typical ones.
    let game = Kono::new(rules);
    let mut rng = rng_from_seed(7);
    let positions: Vec<KonoState> = (0..64)
        .filter_map(|i| {
            let mut s = game.initial_state();
            game.random_playout(&mut s, &mut rng, 1 + i % 40);
            (!game.turn(&s).is_over()).then_some(s)
        })
        .collect();
    let mut player = PerfectPlayer::new(Arc::new(KonoOracle {
        table: Arc::new(table),
    }));
    let mut next = 0;
    group.bench_function("perfect_move", |b| {
        b.iter(|| {
            let s = &positions[next % positions.len()];
            next += 1;
            let seat = usize::from(s.to_move);
            player.choose(&game, s, seat, &mut rng).expect("a move")
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, loaded, solve);
criterion_main!(benches);
