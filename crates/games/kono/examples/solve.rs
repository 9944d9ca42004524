//! Solves Kono from scratch (or loads the cache) and prints the report with timings.
//!
//! `cargo run --release -p tabula-kono --example solve -- [standard|gamesman] [--fresh] [--verify]`
//! `--fresh` solves in memory without touching the cache; `--verify` then checks
//! every position against its children.

use std::time::Instant;
use tabula_core::{Game, GameExt, Report};
use tabula_kono::{verify, Kono, KonoOracle, KonoRules, KonoTable};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = if args.iter().any(|a| a == "gamesman") {
        KonoRules::Gamesman
    } else {
        KonoRules::Standard
    };
    let game = Kono::new(rules);
    if args.iter().any(|a| a == "--phases") {
        phases(rules);
        return;
    }
    if args.iter().any(|a| a == "--fresh") {
        let began = Instant::now();
        let table = KonoTable::solve_full(rules, &|_| {});
        let seconds = began.elapsed().as_secs_f64();
        println!(
            "{}",
            serde_json::json!({
                "rules": rules.word(),
                "positions": table.summary.positions,
                "wins": table.summary.wins,
                "losses": table.summary.losses,
                "draws": table.summary.draws,
                "start": table.summary.start,
                "max_remoteness": table.summary.max_remoteness,
                "seconds": seconds,
                "table_positions": table.values.len(),
            })
        );
        if args.iter().any(|a| a == "--verify") {
            let began = Instant::now();
            let check = verify::check_table(rules, &table.values, 16);
            println!(
                "verified {} positions, {} errors, in {:.2} s",
                check.checked,
                check.errors,
                began.elapsed().as_secs_f64()
            );
        }
        let oracle = KonoOracle {
            table: std::sync::Arc::new(table),
        };
        let start = game.initial_state();
        let began = Instant::now();
        let mut n = 0;
        for mv in game.moves(&start) {
            let mut s = start;
            game.play_unchecked(&mut s, mv);
            let _ = tabula_core::Oracle::grade(&oracle, &game, &s);
            n += 1;
        }
        println!("graded {n} start moves in {:?}", began.elapsed());
        return;
    }
    let report = game.report(&Report::default(), &|_| {}).expect("report");
    println!("{}", serde_json::to_string_pretty(&report).expect("json"));
}

/// CPU seconds used by this process so far (user + system), from /proc.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

fn phases(rules: KonoRules) {
    let (c0, w0) = (cpu_seconds(), Instant::now());
    let solved = tabula_kono::solve::solve(rules, 16, &|_| {});
    let (c1, w1) = (cpu_seconds(), Instant::now());
    let reached = tabula_kono::reach::reachable(
        rules,
        tabula_kono::table::start(),
        solved.values.len() as u64,
    );
    let (c2, w2) = (cpu_seconds(), Instant::now());
    let summary =
        tabula_kono::reach::summarize(&solved.values, &reached, tabula_kono::table::start());
    let (c3, w3) = (cpu_seconds(), Instant::now());
    println!(
        "solve: cpu {:.2} s wall {:.2} s",
        c1 - c0,
        (w1 - w0).as_secs_f64()
    );
    println!(
        "reach: cpu {:.2} s wall {:.2} s",
        c2 - c1,
        (w2 - w1).as_secs_f64()
    );
    println!(
        "count: cpu {:.2} s wall {:.2} s",
        c3 - c2,
        (w3 - w2).as_secs_f64()
    );
    println!("{summary:?}");
}
