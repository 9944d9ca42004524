//! A cancelled job frees its slot promptly: jobs whose work is slow to notice its
//! cancel flag do not keep later jobs queued until they stop.

use crate::common::Server;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn job(server: &Server, body: Value) -> String {
    let (s, v) = server.post("/api/jobs", &body);
    assert_eq!(s, 202, "{v}");
    v["job_id"].as_str().unwrap().to_string()
}

fn state(server: &Server, id: &str) -> Value {
    let (s, v) = server.get(&format!("/api/jobs/{id}"));
    assert_eq!(s, 200, "{v}");
    v
}

/// Polls a job until `what` holds; `Err` with its last status after `limit`.
fn until(
    server: &Server,
    id: &str,
    limit: Duration,
    what: impl Fn(&Value) -> bool,
) -> Result<Value, Value> {
    let started = Instant::now();
    loop {
        let v = state(server, id);
        if what(&v) {
            return Ok(v);
        }
        if started.elapsed() > limit {
            return Err(v);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn cancelling_two_stuck_jobs_lets_the_queued_one_run() {
    let server = Server::start();
    // A large Poggle board: its solve notices a cancel only seconds later (more
    // than ten in a debug build).
    let stuck: Vec<String> = (0..2)
        .map(|seed| {
            job(
                &server,
                json!({"kind": "solve", "game": "poggle",
                       "variant": format!("size=10000,colours=2,start=random,seed={}", seed + 1),
                       "cache": false}),
            )
        })
        .collect();
    for id in &stuck {
        until(&server, id, Duration::from_secs(30), |v| {
            v["state"] == "running"
        })
        .unwrap_or_else(|v| panic!("not running: {v}"));
    }
    std::thread::sleep(Duration::from_millis(500));
    // Both slots are taken: a quick job waits in the queue.
    let quick = job(
        &server,
        json!({"kind": "solve", "game": "tictactoe", "cache": false}),
    );
    assert_eq!(state(&server, &quick)["state"], "queued");
    let cancelled_at = Instant::now();
    for id in &stuck {
        let (s, v) = server.call("DELETE", &format!("/api/jobs/{id}"), None);
        assert_eq!(s, 202, "{v}");
    }
    // The cancelled jobs say so within moments, and the queued one runs.
    for id in &stuck {
        let v = until(&server, id, Duration::from_secs(4), |v| {
            v["state"] == "error"
        })
        .unwrap_or_else(|v| panic!("still {v} {:?} after the cancel", cancelled_at.elapsed()));
        assert!(v["error"].as_str().unwrap().contains("cancelled"), "{v}");
    }
    let done = until(&server, &quick, Duration::from_secs(6), |v| {
        v["state"] == "done"
    })
    .unwrap_or_else(|v| {
        panic!(
            "the queued job is still {v} {:?} after the cancel",
            cancelled_at.elapsed()
        )
    });
    assert!(done["result"]["report"].is_object(), "{done}");
}
