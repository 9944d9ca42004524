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

/// docs/API.md: "Bad options are refused with 400 before the job starts." A
/// train job with a seat, block or seed the trainer cannot read, or with an
/// option no job takes, is refused at once; no job is queued for it.
#[test]
fn bad_job_options_are_refused_before_the_job_is_queued() {
    let server = Server::start();
    let train = |extra: Value| {
        let mut body = json!({"kind": "train", "game": "tictactoe", "games": 50});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    for (what, body) in [
        ("seat 5", train(json!({"seat": 5}))),
        ("seat -1", train(json!({"seat": -1}))),
        (
            "a seat name the game has not",
            train(json!({"seat": "Purple"})),
        ),
        ("block -1", train(json!({"block": -1}))),
        ("block as words", train(json!({"block": "ten"}))),
        ("seed -1", train(json!({"seed": -1}))),
        ("seed 1.5", train(json!({"seed": 1.5}))),
        ("an unknown opponent", train(json!({"opponent": "wizard"}))),
        ("a misspelt option", train(json!({"gmaes": 10}))),
        ("store as words", train(json!({"store": "yes", "seat": 1}))),
        (
            "a game that cannot train a machine",
            json!({"kind": "train", "game": "samegame"}),
        ),
        (
            "a misspelt solve option",
            json!({"kind": "solve", "game": "tictactoe", "postion": "x"}),
        ),
        (
            "a misspelt simulate option",
            json!({"kind": "simulate", "game": "tictactoe", "players": "random,random", "game_count": 3}),
        ),
    ] {
        let (status, v) = server.post("/api/jobs", &body);
        assert_eq!(status, 400, "{what}: {v}");
        assert!(v.get("job_id").is_none(), "{what}: {v}");
    }
    // The message names what is wrong.
    let (_, v) = server.post("/api/jobs", &train(json!({"gmaes": 10})));
    assert!(v["error"].as_str().unwrap().contains("'gmaes'"), "{v}");
    let (_, v) = server.post("/api/jobs", &train(json!({"seat": 5})));
    assert!(v["error"].as_str().unwrap().contains("seat"), "{v}");
    // Nothing was queued; good options still are.
    let id = job(
        &server,
        train(json!({"seat": "O", "block": 10, "seed": 3, "opponent": "perfect"})),
    );
    let done = until(&server, &id, Duration::from_secs(60), |v| {
        v["state"] != "queued" && v["state"] != "running"
    })
    .unwrap_or_else(|v| panic!("{v}"));
    assert_eq!(done["state"], "done", "{done}");
}
