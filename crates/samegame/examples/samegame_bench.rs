//! SameGame search benchmark: random 15x15 boards with 5 colours, seeds 1-20
//! (`Board::random(15, 15, 5, seed)`, the `seed=N` generator of the game).
//!
//! ```text
//! cargo run --release -p tabula-samegame --example samegame_bench -- --seconds 10
//! cargo run --release -p tabula-samegame --example samegame_bench -- --seconds 60
//! ```
//! Options: `--seconds S` (per board), `--seeds A-B`, `--size WxH`,
//! `--colours K`, `--search-seed N`, `--beam` (Monte-Carlo beam search instead of
//! nested search), `--level N` / `--width N` (fixed work instead of a time budget).
//! Every reported line is replayed with the rules to check its score. `stages`
//! lists the levels run (`2x3*`: level 2 three times, the last cut by the clock).

use std::time::Instant;
use tabula_samegame::search::{search, Algorithm, SearchOptions};
use tabula_samegame::{Board, Scoring};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let seconds: f64 = get("--seconds").map_or(10.0, |s| s.parse().expect("--seconds"));
    let width: Option<usize> = get("--width").map(|s| s.parse().expect("--width"));
    let (from, to) = get("--seeds").map_or((1, 20), |s| {
        let (a, b) = s.split_once('-').unwrap_or((&s, &s));
        (a.parse().expect("--seeds"), b.parse().expect("--seeds"))
    });
    let (w, h) = get("--size").map_or((15, 15), |s| {
        let (a, b) = s.split_once('x').expect("--size WxH");
        (a.parse().expect("--size"), b.parse().expect("--size"))
    });
    let colours: u8 = get("--colours").map_or(5, |s| s.parse().expect("--colours"));
    let search_seed: u64 = get("--search-seed").map_or(0, |s| s.parse().expect("--search-seed"));
    let level: Option<u32> = get("--level").map(|s| s.parse().expect("--level"));
    let algorithm = if args.iter().any(|a| a == "--beam") {
        Algorithm::Beam
    } else {
        Algorithm::Nested
    };
    println!(
        "# {w}x{h}, {colours} colours, seeds {from}-{to}, {algorithm:?}, {}, search seed {search_seed}, threads {}",
        match (level, width) {
            (Some(l), _) => format!("level {l}"),
            (_, Some(w)) => format!("width {w}"),
            _ => format!("{seconds} s per board"),
        },
        rayon::current_num_threads()
    );
    let mut total = 0;
    let mut cleared = 0;
    let started = Instant::now();
    for seed in from..=to {
        let board = Board::random(w, h, colours, seed);
        let options = SearchOptions {
            algorithm,
            seconds,
            seed: search_seed,
            level,
            width,
        };
        let result = search(&board, Scoring::Standard, &options, &|_| {});
        let replayed = replay(&board, &result.moves);
        assert_eq!(
            replayed, result.score,
            "replaying board {seed} disagrees with the search"
        );
        total += result.score;
        cleared += result.cleared as usize;
        let stages: Vec<String> = result
            .stages
            .iter()
            .map(|s| {
                let runs = if s.runs > 1 {
                    format!("x{}", s.runs)
                } else {
                    String::new()
                };
                format!("{}{runs}{}", s.size, if s.completed { "" } else { "*" })
            })
            .collect();
        println!(
            "board {seed:>2}: score {:>5}  cleared {:<5}  moves {:>3}  {:>5.1} s  playouts {:>8}  stages {}",
            result.score,
            result.cleared,
            result.moves.len(),
            result.seconds,
            result.playouts,
            stages.join(",")
        );
    }
    let n = (to - from + 1) as f64;
    println!(
        "total {total}  average {:.1}  cleared {cleared}/{}  wall {:.0} s",
        total as f64 / n,
        to - from + 1,
        started.elapsed().as_secs_f64()
    );
}

fn replay(board: &Board, moves: &[[usize; 2]]) -> i64 {
    let mut b = board.clone();
    let mut stack = Vec::new();
    for &[row, col] in moves {
        let y = b.height() - 1 - row;
        assert!(
            b.play(col, y, Scoring::Standard, &mut stack) >= 2,
            "illegal move {row} {col}"
        );
    }
    b.score()
}
