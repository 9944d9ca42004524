//! Budgets and bounds as a user meets them on the command line: output into a closed
//! pipe, memory limits, bad sizes.

use std::process::{Command, Stdio};

/// Runs `tabula args` with its output going into a pipe whose reader is already gone:
/// every write fails with "broken pipe".
fn into_closed_pipe(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula runs");
    drop(child.stdout.take());
    child.wait_with_output().expect("tabula ends")
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    for args in [
        &["games"][..],
        &["games", "--json"],
        &["solve", "tictactoe"],
        &["solve", "tictactoe", "--json"],
        &["count", "mu-torere"],
        &["analyze", "nim", "--position", "3 4 5"],
        &[
            "train",
            "hexapawn",
            "--games",
            "20",
            "--opponent",
            "random",
            "--json",
        ],
    ] {
        let out = into_closed_pipe(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "tabula {args:?}: {:?} {err}",
            out.status
        );
        assert!(!err.contains("panicked"), "tabula {args:?}: {err}");
        assert!(err.is_empty(), "tabula {args:?} wrote to stderr: {err}");
    }
}

fn tabula(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .output()
        .expect("tabula runs")
}

#[test]
fn solves_beyond_the_memory_budget_are_refused_at_once() {
    for args in [
        &["solve", "northcott"][..],
        &["solve", "nim", "--variant", "heaps=300-300-300"],
        &[
            "solve",
            "nim",
            "--variant",
            "heaps=3-4-5",
            "--max-memory",
            "4K",
        ],
    ] {
        let started = std::time::Instant::now();
        let out = tabula(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "tabula {args:?}: {err}");
        assert!(err.starts_with("tabula: "), "{err}");
        assert!(err.contains("memory limit"), "{err}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "tabula {args:?} took {:?}",
            started.elapsed()
        );
    }
    // A larger budget lets the small one through.
    let out = tabula(&[
        "solve",
        "nim",
        "--variant",
        "heaps=3-4-5",
        "--max-memory",
        "64M",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["figures"]["positions"]
            .as_u64()
            .is_some_and(|n| n > 100 && n <= 240),
        "{v}"
    );
    // A size that is not one.
    let out = tabula(&["solve", "nim", "--max-memory", "lots"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Every game's strongest computer player, all playing at once, each against
/// itself, in one `tabula serve` with the default `--max-memory` (1 GiB) and an
/// empty table cache, so that every table is built in this process: Kono's
/// perfect player, Auto120's `optimal` (its 3-marker table, the largest a
/// server builds), Pig's `optimal`, SameGame's search, Poggle's solver and the
/// generic perfect players. Each asks for its next move a tenth of a second
/// after the last, as a quick player would: ten clients asking without a pause
/// kept both cores on their moves, and the tables took 20 minutes to build
/// instead of about 5. It runs until the three tables kept on disk have been
/// written (or 20 minutes), sampling the server's resident memory every 50 ms;
/// the peak must stay within the 1 GiB the process was given. Prints the peak
/// and what each game played:
/// `cargo test --release --test integration strongest -- --ignored --nocapture`
#[test]
#[ignore = "minutes of both cores against the release binary: cargo test --release --test integration strongest -- --ignored --nocapture"]
fn every_strongest_computer_at_once_stays_within_max_memory() {
    use serde_json::{json, Value};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    const LIMIT_KIB: u64 = 1 << 20;
    const TABLES_ON_DISK: usize = 3;
    const AT_MOST: Duration = Duration::from_secs(20 * 60);
    const PACE: Duration = Duration::from_millis(100);
    let lineup: [(&str, &str, &str); 10] = [
        ("tictactoe", "", "perfect"),
        ("hexapawn", "", "perfect"),
        ("kono", "", "perfect"),
        ("mu-torere", "", "perfect"),
        ("nim", "", "perfect"),
        ("northcott", "", "perfect"),
        ("auto120", "markers=3", "optimal"),
        ("samegame", "", "search"),
        ("poggle", "", "solver"),
        ("pig", "", "optimal"),
    ];

    let dir = std::env::temp_dir().join(format!("tabula-strongest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = dir.join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_tabula"));
    command.env("TABULA_CACHE_DIR", &cache);
    let (mut child, addr) = crate::crash::start_with(&dir.join("tabula.db"), command);
    let pid = child.id();
    let call = |method: &str, path: &str, body: Option<&Value>| {
        crate::crash::call(addr, method, path, body)
    };
    let (_, games) = call("GET", "/api/games", None).expect("the game list");
    let seats = |game: &str| {
        games
            .as_array()
            .and_then(|g| g.iter().find(|g| g["name"] == game))
            .and_then(|g| g["seats"].as_array())
            .map_or(2, Vec::len)
    };
    let tables_written = || {
        std::fs::read_dir(&cache).map_or(0, |d| {
            d.filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().ends_with(".table"))
                .count()
        })
    };

    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let (peak_kib, played) = std::thread::scope(|scope| {
        let sampler = scope.spawn(|| {
            let mut peak = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let status =
                    std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
                if let Some(kib) = status
                    .lines()
                    .find(|l| l.starts_with("VmHWM:"))
                    .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
                {
                    peak = peak.max(kib);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            peak
        });
        let players: Vec<_> = lineup
            .iter()
            .map(|&(game, variant, player)| {
                let (stop, call) = (&stop, &call);
                let body = json!({"game": game, "variant": variant,
                    "players": vec![player; seats(game)], "seed": 1});
                scope.spawn(move || {
                    // (plies played, documented refusals, other answers)
                    let (mut plies, mut refused, mut odd) = (0u64, 0u64, Vec::new());
                    let mut id = None::<String>;
                    while !stop.load(Ordering::Relaxed) {
                        let Some(session) = id.clone() else {
                            match call("POST", "/api/sessions", Some(&body)) {
                                Some((201, v)) => id = v["id"].as_str().map(str::to_string),
                                // Busy, or its table still being prepared: later.
                                Some((503, v))
                                    if v["error"].as_str().is_some_and(|e| {
                                        e.contains("busy") || e.contains("being prepared")
                                    }) =>
                                {
                                    refused += 1;
                                    std::thread::sleep(Duration::from_secs(1));
                                }
                                other => odd.push(format!("new session: {other:?}")),
                            }
                            continue;
                        };
                        match call("POST", &format!("/api/sessions/{session}/step"), None) {
                            Some((200, _)) => {
                                plies += 1;
                                std::thread::sleep(PACE);
                            }
                            // The game is over: another.
                            Some((409, _)) => {
                                match call("POST", &format!("/api/sessions/{session}/new"), None) {
                                    Some((200, _)) => {}
                                    // Busy: the next step asks for it again.
                                    Some((503, _)) => {
                                        refused += 1;
                                        std::thread::sleep(Duration::from_millis(250));
                                    }
                                    other => odd.push(format!("new game: {other:?}")),
                                }
                            }
                            Some((503, _)) => {
                                refused += 1;
                                std::thread::sleep(Duration::from_millis(250));
                            }
                            other => odd.push(format!("step: {other:?}")),
                        }
                        if odd.len() > 20 {
                            break;
                        }
                    }
                    (game, player, plies, refused, odd)
                })
            })
            .collect();
        while tables_written() < TABLES_ON_DISK && started.elapsed() < AT_MOST {
            if child.try_wait().ok().flatten().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_secs(1));
        }
        // The last table's build has ended; its memory goes back meanwhile.
        std::thread::sleep(Duration::from_secs(10));
        stop.store(true, Ordering::Relaxed);
        let played: Vec<_> = players.into_iter().map(|p| p.join().unwrap()).collect();
        (sampler.join().unwrap(), played)
    });
    let alive = child.try_wait().ok().flatten().is_none();
    let _ = child.kill();
    let _ = child.wait();
    let written = tables_written();
    let _ = std::fs::remove_dir_all(&dir);

    eprintln!(
        "every strongest computer at once, {:.0} s, {written} of {TABLES_ON_DISK} tables written:",
        started.elapsed().as_secs_f64()
    );
    for (game, player, plies, refused, odd) in &played {
        eprintln!(
            "  {game:<10} {player:<8} {plies:>6} plies, {refused} answers to ask again later"
        );
        for o in odd {
            eprintln!("    {o}");
        }
    }
    eprintln!(
        "server peak resident memory (VmHWM): {} MiB (--max-memory 1 GiB)",
        peak_kib / 1024
    );
    assert!(alive, "the server died");
    assert_eq!(written, TABLES_ON_DISK, "not every table was built in time");
    for (game, player, plies, _, odd) in &played {
        assert!(*plies > 0, "{game} {player} played nothing");
        assert!(odd.is_empty(), "{game} {player}: {odd:?}");
    }
    assert!(
        peak_kib <= LIMIT_KIB,
        "the server peaked at {} MiB with --max-memory 1 GiB",
        peak_kib / 1024
    );
}

/// `analyze` keeps to `--max-memory` too, as docs/LIMITS.md says: Multiplication
/// Ludo's race tables (about 50 MiB) are not built under 1 MiB; the analysis
/// shows the rest (the chance outcomes of the start) and names, in words, what
/// it left out, what it needs and the limit, in the text and in `--json`.
#[test]
fn analyze_keeps_to_the_memory_limit() {
    let cache = std::env::temp_dir().join(format!("tabula-analyze-1m-{}", std::process::id()));
    let analyze = |json: bool| {
        let mut args = vec!["analyze", "auto120", "--max-memory", "1M"];
        if json {
            args.push("--json");
        }
        let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(&args)
            .env("TABULA_CACHE_DIR", &cache)
            .output()
            .expect("tabula runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let text = analyze(false);
    let json: serde_json::Value = serde_json::from_str(&analyze(true)).expect("JSON");
    let _ = std::fs::remove_dir_all(&cache);
    // What was left out, why, and what to do, in words (wrapped to 80 columns).
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("Not worked out:"), "{text}");
    assert!(
        flat.contains("The race tables behind this analysis need")
            && flat.contains("more than the 1 MiB allowed; allow more memory to see it"),
        "{text}"
    );
    // The rest of the analysis is there: the start's chance outcomes.
    assert!(
        flat.contains("start 1") && flat.contains("start 2"),
        "{text}"
    );
    let left_out = json["sections"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["title"] == "Not worked out"))
        .unwrap_or_else(|| panic!("a section says what was left out: {json}"));
    let note = left_out["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("race tables") && note.contains("more than the 1 MiB allowed"),
        "{note}"
    );
}
