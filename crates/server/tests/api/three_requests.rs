//! Three requests once made the whole server answer 503 until it was restarted: a
//! simulation job whose players wait for an exact table (it deadlocked the shared
//! thread pool, and DELETE could not stop it), then two hints on a huge Poggle board
//! that timed out but kept their threads, holding both thinking slots. Replayed
//! here against a real server: the job finishes, the hints answer by their
//! deadline, and a computer move in another game is answered afterwards.

use crate::common::Server;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn job_state(server: &Server, id: &str) -> Value {
    let (s, v) = server.get(&format!("/api/jobs/{id}"));
    assert_eq!(s, 200, "{v}");
    v
}

#[test]
fn a_table_waiting_job_and_two_huge_hints_leave_the_server_answering() {
    let server = Server::start_with(tabula_server::ServeOptions {
        move_deadline: Duration::from_secs(2),
        ..Default::default()
    });
    let (s, v) = server.post(
        "/api/jobs",
        &json!({"kind": "simulate", "game": "auto120", "variant": "markers=1",
                "players": ["random", "optimal"], "games": 20}),
    );
    assert_eq!(s, 202, "{v}");
    let job = v["job_id"].as_str().unwrap().to_string();

    let (poggle, _) = server.session(json!({
        "game": "poggle", "variant": "size=30", "players": ["human"], "seed": 1
    }));
    let hints: Vec<_> = (0..2)
        .map(|_| {
            let url = server.url(&format!("/api/sessions/{poggle}/hint"));
            std::thread::spawn(move || {
                let started = Instant::now();
                let status = match ureq::get(&url).call() {
                    Ok(r) => r.status(),
                    Err(ureq::Error::Status(s, _)) => s,
                    Err(e) => panic!("{e}"),
                };
                (status, started.elapsed())
            })
        })
        .collect();
    for h in hints {
        let (status, took) = h.join().unwrap();
        assert!(status == 200 || status == 503, "hint answered {status}");
        assert!(
            took < Duration::from_secs(20),
            "a hint answered after {took:?}"
        );
    }

    // The simulation's players wait for the exact table and get it: the job ends.
    let started = Instant::now();
    let done = loop {
        let v = job_state(&server, &job);
        if v["state"] == "done" || v["state"] == "error" {
            break v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(240),
            "the simulation job is still {} after {:?}",
            v["state"],
            started.elapsed()
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(done["state"], "done", "{done}");

    // The thinking slots are free: computer moves are answered in another game.
    let (id, _) = server.session(json!({
        "game": "tictactoe", "players": ["human", "perfect"], "seed": 1
    }));
    let (status, v) = server.call_any(
        "POST",
        &format!("/api/sessions/{id}/moves"),
        Some(r#"{"move":"5"}"#),
    );
    assert_eq!(status, 200, "{v}");
    let (status, v) = server.call_any("GET", &format!("/api/sessions/{id}/hint"), None);
    assert_eq!(status, 200, "{v}");
}
