//! Solves Multiplication Ludo in layers on disk (the four-marker game) exactly
//! as `tabula solve auto120` does, and prints its report as JSON; a progress
//! line per change of layer or sweep goes to stderr.
//!
//! ```text
//! cargo run --release -p tabula-auto120 --example layered -- --markers 4 --max-memory 16G
//! ```
//!
//! The table goes to `$TABULA_TABLE_DIR/auto120-N-markers` (or the platform's
//! data directory); run it again after a stop and it goes on from what is there.
//!
//! With `--record` it solves in layers whatever the number of markers (fewer
//! than four are otherwise solved in memory) and prints the solve's record
//! instead: every layer's positions, sweeps, seconds and CPU seconds, to
//! compare ways of sweeping on the smaller games:
//!
//! ```text
//! TABULA_TABLE_DIR=/tmp/t cargo run --release -p tabula-auto120 --example layered -- --markers 3 --record
//! ```

use tabula_core::{parse_bytes, Budget};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let markers: usize = value("--markers").map_or(4, |v| v.parse().expect("--markers N"));
    let max_memory =
        value("--max-memory").map_or(16 << 30, |v| parse_bytes(&v).expect("--max-memory SIZE"));
    let budget = Budget::new(max_memory);
    let last = std::sync::Mutex::new(-1i64);
    if args.iter().any(|a| a == "--record") {
        match tabula_auto120::exact::solve_layered(markers, &budget, &|f| {
            let step = (f * 100.0) as i64;
            let mut last = last.lock().unwrap();
            if step != *last {
                eprintln!("{:.0}%", f * 100.0);
                *last = step;
            }
        }) {
            Ok(r) => println!("{}", serde_json::to_string_pretty(&r).unwrap()),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
        return;
    }
    let report = tabula_auto120::exact::report(markers, &budget, None, &|f| {
        let step = (f * 1000.0) as i64;
        let mut last = last.lock().unwrap();
        if step != *last {
            eprintln!("{:.1}%", f * 100.0);
            *last = step;
        }
    });
    match report {
        Ok(r) => println!("{}", serde_json::to_string_pretty(&r).unwrap()),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
