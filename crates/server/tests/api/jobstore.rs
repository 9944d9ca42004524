//! Issue 12: job results live in the store, not in memory; a job nobody follows
//! is cancelled (its event stream closed, or nobody asked about it for a while).

use crate::common::Server;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tabula_server::ServeOptions;

fn wait_for(server: &Server, id: &str, what: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let (s, v) = server.get(&format!("/api/jobs/{id}"));
        assert_eq!(s, 200, "{v}");
        if what(&v) {
            return v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "job still {v} after a minute"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn finished(v: &Value) -> bool {
    v["state"] == "done" || v["state"] == "error"
}

/// A job that takes far longer than any test and stops when cancelled: ten
/// million games of Multiplication Ludo between two searches over the dice.
/// (Not a solve: a large table can be refused memory while other tests in this
/// process hold theirs, and the job would end for that instead.)
fn long_job(server: &Server) -> String {
    let (s, v) = server.post(
        "/api/jobs",
        &json!({"kind": "simulate", "game": "auto120", "players": "expectimax,expectimax",
                "games": 10_000_000}),
    );
    assert_eq!(s, 202, "{v}");
    v["job_id"].as_str().unwrap().to_string()
}

#[test]
fn a_finished_result_is_read_from_the_store() {
    let server = Server::start();
    let (s, v) = server.post(
        "/api/jobs",
        &json!({"kind": "solve", "game": "tictactoe", "cache": false}),
    );
    assert_eq!(s, 202, "{v}");
    let id = v["job_id"].as_str().unwrap().to_string();
    let done = wait_for(&server, &id, finished);
    assert_eq!(done["state"], "done", "{done}");
    let positions = done["result"]["report"]["counts"]["positions"].clone();
    assert!(positions.as_u64().is_some_and(|n| n > 5000), "{done}");
    // The row is in the database, with the same result.
    let store = server.store();
    match store.job(&id).unwrap().unwrap().state {
        tabula_store::JobState::Done(r) => {
            assert_eq!(r["report"]["counts"]["positions"], positions)
        }
        other => panic!("stored as {other:?}"),
    }
    // Taken out of the database behind the server's back: the server no longer
    // knows it, so it kept no copy in memory.
    assert!(store.delete_job(&id).unwrap());
    let (s, _) = server.get(&format!("/api/jobs/{id}"));
    assert_eq!(s, 404);

    // DELETE forgets a finished result.
    let (_, v) = server.post(
        "/api/jobs",
        &json!({"kind": "solve", "game": "tictactoe", "cache": false}),
    );
    let id = v["job_id"].as_str().unwrap().to_string();
    wait_for(&server, &id, finished);
    let (s, _) = server.call("DELETE", &format!("/api/jobs/{id}"), None);
    assert_eq!(s, 204);
    assert_eq!(store.job(&id).unwrap(), None);
    let (s, _) = server.get(&format!("/api/jobs/{id}/events"));
    assert_eq!(s, 404);
}

#[test]
fn closing_the_last_event_stream_cancels_the_job() {
    let server = Server::start();
    let id = long_job(&server);
    let mut tcp = TcpStream::connect(server.addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        tcp,
        "GET /api/jobs/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.addr
    )
    .unwrap();
    let mut buf = [0u8; 4096];
    let n = tcp.read(&mut buf).unwrap();
    let head = String::from_utf8_lossy(&buf[..n]).to_string();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    // The job keeps running while followed (and polled).
    std::thread::sleep(Duration::from_millis(500));
    let (_, v) = server.get(&format!("/api/jobs/{id}"));
    assert!(!finished(&v), "{v}");
    drop(tcp);
    let v = wait_for(&server, &id, finished);
    assert_eq!(v["state"], "error", "{v}");
    assert!(v["error"].as_str().unwrap().contains("cancelled"), "{v}");
}

#[test]
fn a_cancelled_simulation_stops() {
    let server = Server::start();
    let (s, v) = server.post(
        "/api/jobs",
        &json!({"kind": "simulate", "game": "tictactoe", "players": "random,random",
                "games": 10_000_000}),
    );
    assert_eq!(s, 202, "{v}");
    let id = v["job_id"].as_str().unwrap().to_string();
    wait_for(&server, &id, |v| v["state"] == "running");
    let (s, _) = server.call("DELETE", &format!("/api/jobs/{id}"), None);
    assert_eq!(s, 202);
    // Ten million games would take many minutes here.
    let v = wait_for(&server, &id, finished);
    assert_eq!(v["state"], "error", "{v}");
    assert!(v["error"].as_str().unwrap().contains("cancelled"), "{v}");
}

#[test]
fn a_job_nobody_asks_about_is_cancelled() {
    let server = Server::start_with(ServeOptions {
        unwatched: Duration::from_secs(1),
        ..Default::default()
    });
    let polled = long_job(&server);
    let forgotten = long_job(&server);
    // Polling keeps one alive; the other is not asked about for 3 s.
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(3) {
        let (_, v) = server.get(&format!("/api/jobs/{polled}"));
        assert!(!finished(&v), "the polled job stopped: {v}");
        std::thread::sleep(Duration::from_millis(200));
    }
    // Cancelled by now; it stops at its next check (within a game of searches).
    let v = wait_for(&server, &forgotten, finished);
    assert_eq!(v["state"], "error", "{v}");
    assert!(v["error"].as_str().unwrap().contains("cancelled"), "{v}");
    let (_, v) = server.get(&format!("/api/jobs/{polled}"));
    assert!(!finished(&v), "the polled job stopped: {v}");
    let (s, _) = server.call("DELETE", &format!("/api/jobs/{polled}"), None);
    assert_eq!(s, 202);
    let v = wait_for(&server, &polled, finished);
    assert_eq!(v["state"], "error", "{v}");
}
