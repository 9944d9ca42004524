//! Every ordered pair of computer players of every two-player game simulates to the
//! end: no pair deadlocks (rayon workers waiting for a table built on their own
//! pool), and every run stops at its budget's deadline.
//!
//! Each pair plays a few games under a budget of a few seconds (a per-run
//! deadline: the searches stop there and the games left are skipped), several
//! pairs at a time. A watchdog fails the test, naming the pairs still running,
//! when a pair has not returned well after its deadline, instead of hanging CI.
//!
//! It runs in a process of its own: the tables its players start to build go
//! on being built after their budgets stop waiting, and would take the time of
//! the tests that follow.

use rusty_fork::rusty_fork_test;
use std::collections::BTreeMap;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tabula_core::Budget;
use tabula_engine::{build, registry};

/// Games per pair (both seats once).
const GAMES: u64 = 2;
/// The budget of one pair's simulation.
const PAIR_SECONDS: u64 = 3;
/// How long after its deadline a pair may take to return before it counts as hung.
const GRACE_SECONDS: u64 = 20;
/// Pairs simulated at the same time.
const RUNNERS: usize = 4;

/// The variants simulated: each game's default, Auto120 with 1-3 markers too (the
/// variants whose `optimal` player reads an exact table), and Northcott on a small
/// board (its games on the usual board can last hundreds of plies; `stops.rs`
/// cancels a simulation of those).
fn variants(game: &str) -> Vec<&'static str> {
    match game {
        "auto120" => vec!["", "markers=1", "markers=2", "markers=3"],
        "northcott" => vec!["size=6x2"],
        _ => vec![""],
    }
}

/// A player as the simulation is asked for it: `level` needs its level.
fn spec(name: &str) -> String {
    match name {
        "level" => "level:50".to_string(),
        other => other.to_string(),
    }
}

struct Pair {
    game: &'static str,
    variant: &'static str,
    players: [String; 2],
}

impl Pair {
    fn label(&self) -> String {
        format!(
            "{} [{}] {},{}",
            self.game, self.variant, self.players[0], self.players[1]
        )
    }
}

fn all_pairs() -> Vec<Pair> {
    let mut pairs = Vec::new();
    for entry in registry() {
        for variant in variants(entry.name) {
            let handle = build(entry.name, variant).expect("the game builds");
            let info = handle.info();
            if info.seats.len() != 2 {
                continue;
            }
            let names: Vec<String> = info
                .players
                .iter()
                .map(|k| k.name.clone())
                .filter(|n| n != "human")
                .collect();
            for a in &names {
                for b in &names {
                    pairs.push(Pair {
                        game: entry.name,
                        variant,
                        players: [spec(a), spec(b)],
                    });
                }
            }
        }
    }
    pairs
}

rusty_fork_test! {
    #![rusty_fork(timeout_ms = crate::OWN_PROCESS_TIMEOUT_MS)]

    #[test]
    fn every_pair_of_computer_players_of_every_game_finishes_within_its_budget() {
        let pairs = all_pairs();
        assert!(pairs.len() > 300, "{} pairs", pairs.len());
        for needed in ["optimal,best", "best,scenario", "random,optimal"] {
            assert!(
                pairs
                    .iter()
                    .any(|p| p.game == "auto120" && p.players.join(",") == needed),
                "{needed} is simulated"
            );
        }
        let total = pairs.len();
        let queue = Arc::new(Mutex::new(
            pairs.into_iter().enumerate().collect::<Vec<_>>(),
        ));
        let running: Arc<Mutex<BTreeMap<usize, (String, Instant)>>> = Arc::default();
        let (done_tx, done) = mpsc::channel();
        for _ in 0..RUNNERS {
            let (queue, running, done_tx) = (queue.clone(), running.clone(), done_tx.clone());
            std::thread::spawn(move || loop {
                let Some((i, pair)) = queue.lock().unwrap().pop() else {
                    return;
                };
                let label = pair.label();
                running
                    .lock()
                    .unwrap()
                    .insert(i, (label.clone(), Instant::now()));
                let began = Instant::now();
                let handle = build(pair.game, pair.variant).expect("the game builds");
                let budget = Budget::default().with_timeout(Duration::from_secs(PAIR_SECONDS));
                let report = budget.run(|| {
                    handle.simulate(
                        [&pair.players[0], &pair.players[1]],
                        GAMES,
                        i as u64,
                        &|| {},
                    )
                });
                running.lock().unwrap().remove(&i);
                if done_tx.send((label, report, began.elapsed())).is_err() {
                    return;
                }
            });
        }
        drop(done_tx);
        let mut finished = 0;
        let mut games_played = 0;
        let mut slowest: Vec<(Duration, String)> = Vec::new();
        let mut stopped = Vec::new();
        while finished < total {
            match done.recv_timeout(Duration::from_secs(1)) {
                Ok((label, report, took)) => {
                    finished += 1;
                    let report = report.unwrap_or_else(|e| panic!("{label}: {e}"));
                    assert!(report.games <= GAMES, "{label}: {report:?}");
                    assert_eq!(
                        report.wins.iter().sum::<u64>() + report.draws,
                        report.games,
                        "{label}: every game played is counted once"
                    );
                    games_played += report.games;
                    if report.games < GAMES {
                        stopped.push(label.clone());
                    }
                    slowest.push((took, label));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let hung: Vec<String> = running
                        .lock()
                        .unwrap()
                        .values()
                        .filter(|(_, since)| {
                            since.elapsed() > Duration::from_secs(PAIR_SECONDS + GRACE_SECONDS)
                        })
                        .map(|(label, _)| label.clone())
                        .collect();
                    assert!(
                        hung.is_empty(),
                        "these simulations did not return {GRACE_SECONDS} s after their \
                         {PAIR_SECONDS} s budget (a deadlock?): {hung:?}"
                    );
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        assert_eq!(finished, total, "every pair returned");
        slowest.sort();
        slowest.reverse();
        eprintln!(
            "{total} pairs, {games_played} games played; stopped by the budget: {stopped:?}; slowest: {:?}",
            &slowest[..slowest.len().min(12)]
        );
        // Most pairs are quick: all but the ones waiting for a large table or playing
        // long searched games finish both their games.
        assert!(
            games_played > GAMES * total as u64 / 2,
            "{games_played} games of {}",
            GAMES * total as u64
        );
    }
}
