//! Work stops when asked: a cancelled simulation returns promptly, and a solve
//! that cannot fit its memory limit is refused before it starts.

use rusty_fork::rusty_fork_test;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tabula_core::{Budget, Report};
use tabula_engine::build;

#[test]
fn a_cancelled_simulation_of_long_searched_games_returns_promptly() {
    // Northcott on its usual board: alpha-beta against alpha-beta plays games of
    // about 1,500 plies at up to half a second a move.
    let budget = Budget::default();
    let worker = budget.clone();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let game = build("northcott", "").expect("the game builds");
        let report = worker.run(|| game.simulate(["alphabeta", "alphabeta"], 4, 1, &|| {}));
        let _ = tx.send((report, Instant::now()));
    });
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        rx.try_recv().is_err(),
        "the games cannot be over this soon, or the test proves nothing"
    );
    let cancelled_at = Instant::now();
    budget.cancel();
    let (report, ended) = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the simulation returns within seconds of being cancelled");
    let report = report.expect("a report of the games played");
    assert_eq!(report.games, 0, "no game was finished: {report:?}");
    eprintln!(
        "returned {:.2} s after the cancel",
        ended.duration_since(cancelled_at).as_secs_f64()
    );
}

// A solve finds its table already in memory when another test of this binary
// made it, and answers without needing memory: these two run in a process of
// their own, with the cache empty.
rusty_fork_test! {
    #![rusty_fork(timeout_ms = crate::OWN_PROCESS_TIMEOUT_MS)]

    #[test]
    fn a_kono_solve_beyond_its_memory_limit_is_refused_at_once() {
        let kono = build("kono", "").expect("the game builds");
        let request = Report {
            budget: Budget::default().with_max_memory(10 << 20),
            ..Report::default()
        };
        let started = Instant::now();
        let err = kono
            .solve(&request, &|_| {})
            .expect_err("the Kono table does not fit 10 MiB");
        let text = err.to_string();
        assert!(
            text.contains("memory limit") && text.contains("10 MiB") && text.contains("Kono"),
            "{text}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "refused up front, not after solving"
        );
    }

    #[test]
    fn solves_that_need_more_than_a_tiny_memory_limit_are_refused() {
        let tiny = || Report {
            budget: Budget::default().with_max_memory(10 << 10),
            ..Report::default()
        };
        for (game, variant) in [
            ("tictactoe", ""),
            ("hexapawn", ""),
            ("mu-torere", ""),
            ("nim", ""),
            ("northcott", ""),
            ("kono", ""),
            ("auto120", "markers=1"),
            ("poggle", "size=2000"),
        ] {
            let handle = build(game, variant).expect("the game builds");
            let err = handle
                .solve(&tiny(), &|_| {})
                .expect_err("more than 10 KiB is needed");
            let text = err.to_string();
            assert!(
                text.contains("memory") && text.contains("10 KiB"),
                "{game} {variant}: {text}"
            );
        }
    }
}
