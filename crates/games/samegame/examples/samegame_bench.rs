//! SameGame search benchmark: random 15x15 boards with 5 colours, seeds 1-20
//! (`Board::random(15, 15, 5, seed)`, the `seed=N` generator of the game).
//!
//! ```text
//! cargo run --release -p tabula-samegame --example samegame_bench -- --seconds 10
//! cargo run --release -p tabula-samegame --example samegame_bench -- --seconds 60
//! ```
//! Options: `--seconds S` (per board), `--seeds A-B`, `--size WxH`,
//! `--colours K`, `--search-seed N`, `--standard` (the 20 standard boards of Schadd
//! et al. instead of random ones; `--seeds` then picks boards 1-20),
//! `--algorithm nrpa|nested|beam` (default nrpa; `--beam` = `--algorithm beam`),
//! `--level N` (NRPA: the level of each run; nested: fixed work), `--iterations N`
//! (NRPA iterations per level), `--runs N` (NRPA: exactly N runs, fixed work),
//! `--width N` (beam: fixed work), `--save FILE` (write each board's score and moves,
//! which `tests/standard.rs` replays), `--hint` (play each board move by move,
//! every move the first of a `--seconds` search that starts from the rest of the
//! previous search's line: taking every hint; with `--fresh` every search starts
//! afresh, forgetting the plan),
//! `--speed` (playouts per second on one core, nested search's and NRPA's, for
//! about `--seconds` each).
//! Every reported line is replayed with the rules to check its score. `stages`
//! lists the levels run (`2x3*`: level 2 three times, the last cut by the clock).

use std::time::Instant;
use tabula_samegame::search::{search, Algorithm, SearchOptions, SearchResult};
use tabula_samegame::standard::standard_boards;
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
    let iterations: Option<u32> = get("--iterations").map(|s| s.parse().expect("--iterations"));
    let runs: Option<u32> = get("--runs").map(|s| s.parse().expect("--runs"));
    let standard = args.iter().any(|a| a == "--standard");
    let hint = args.iter().any(|a| a == "--hint");
    let fresh_hints = args.iter().any(|a| a == "--fresh");
    let algorithm = if args.iter().any(|a| a == "--beam") {
        Algorithm::Beam
    } else {
        get("--algorithm").map_or(Algorithm::Nrpa, |a| {
            Algorithm::from_name(&a).expect("--algorithm nrpa|nested|beam")
        })
    };
    let (from, to) = if standard && get("--seeds").is_none() {
        (1, 20)
    } else {
        (from, to)
    };
    let standard_set = standard_boards();
    if args.iter().any(|a| a == "--speed") {
        let only = get("--algorithm").and_then(|a| Algorithm::from_name(&a));
        speed(&standard_set, seconds, only);
        return;
    }
    println!(
        "# {}, seeds {from}-{to}, {algorithm:?}, {}, search seed {search_seed}, threads {}",
        if standard {
            "standard boards of Schadd et al.".to_string()
        } else {
            format!("{w}x{h}, {colours} colours")
        },
        match (level, width) {
            (Some(l), _) => format!("level {l}"),
            (_, Some(w)) => format!("width {w}"),
            _ => format!("{seconds} s per board"),
        },
        rayon::current_num_threads()
    );
    let save = get("--save");
    let mut saved = String::new();
    if save.is_some() {
        saved.push_str(&format!(
            "# samegame_bench {}\n# board score moves ([row, column] of a block of each removed group, row 0 at the top)\n",
            args.join(" ")
        ));
    }
    let mut total = 0;
    let mut cleared = 0;
    let started = Instant::now();
    for seed in from..=to {
        let board = if standard {
            standard_set[(seed as usize).clamp(1, 20) - 1].clone()
        } else {
            Board::random(w, h, colours, seed)
        };
        let options = SearchOptions {
            algorithm,
            seconds,
            seed: search_seed,
            level,
            width,
            iterations,
            runs,
            ..SearchOptions::default()
        };
        let result = if hint {
            play_by_hints(&board, &options, !fresh_hints)
        } else {
            search(&board, Scoring::Standard, &options, &|_| {})
        };
        let replayed = replay(&board, &result.moves);
        assert_eq!(
            replayed, result.score,
            "replaying board {seed} disagrees with the search"
        );
        total += result.score;
        cleared += result.cleared as usize;
        if save.is_some() {
            let moves: Vec<String> = result
                .moves
                .iter()
                .map(|[r, c]| format!("{r},{c}"))
                .collect();
            saved.push_str(&format!("{seed} {} {}\n", result.score, moves.join(" ")));
            // Written after every board, so a long run stopped early keeps its lines.
            if let Some(path) = &save {
                std::fs::write(path, &saved).expect("--save FILE: cannot write");
            }
        }
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

/// Plays a whole game move by move, each move the first of a search of
/// `options.seconds` from the position reached (what a player taking every hint
/// gets). With `keep` each search starts from the rest of the previous one's line
/// (the hint keeps its plan); without it every search starts afresh. Returns the
/// game as one result.
fn play_by_hints(board: &Board, options: &SearchOptions, keep: bool) -> SearchResult {
    let started = Instant::now();
    let mut b = board.clone();
    let mut moves = Vec::new();
    let mut playouts = 0;
    let mut stack = Vec::new();
    let mut plan: Vec<[usize; 2]> = Vec::new();
    while b.has_move() {
        let options = SearchOptions {
            plan: if keep { plan.clone() } else { Vec::new() },
            ..options.clone()
        };
        let r = search(&b, Scoring::Standard, &options, &|_| {});
        playouts += r.playouts;
        let [row, col] = r.moves[0];
        let y = b.height() - 1 - row;
        b.play(col, y, Scoring::Standard, &mut stack);
        moves.push([row, col]);
        plan = r.moves[1..].to_vec();
    }
    let mut last = search(&b, Scoring::Standard, options, &|_| {});
    last.score = b.score();
    last.cleared = b.is_cleared();
    last.blocks_left = b.blocks_left();
    last.moves = moves;
    last.playouts = playouts;
    last.seconds = started.elapsed().as_secs_f64();
    last
}

/// Playouts per second on one core: the TabuColorRandom playouts of nested search
/// (level 1: one playout per legal move) and NRPA's policy playouts (level 1, 100
/// iterations per run), each for about `seconds` over the standard boards.
fn speed(boards: &[Board], seconds: f64, only: Option<Algorithm>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    pool.install(|| {
        for algorithm in [Algorithm::Nested, Algorithm::Nrpa] {
            if only.is_some_and(|a| a != algorithm) {
                continue;
            }
            let started = Instant::now();
            let mut playouts = 0u64;
            let mut round = 0u64;
            while started.elapsed().as_secs_f64() < seconds.max(0.1) {
                for board in boards {
                    let options = SearchOptions {
                        algorithm,
                        seed: round,
                        level: Some(1),
                        runs: Some(1),
                        ..SearchOptions::default()
                    };
                    playouts += search(board, Scoring::Standard, &options, &|_| {}).playouts;
                }
                round += 1;
            }
            let t = started.elapsed().as_secs_f64();
            println!(
                "{:<7} {:>9} playouts in {t:>5.1} s on one core: {:>8.0} playouts per second",
                algorithm.name(),
                playouts,
                playouts as f64 / t
            );
        }
    });
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
