//! Issue 12: the computer's thinking inside a request has a deadline
//! (`--move-deadline`), runs on a bounded pool (503 "busy" beyond it), and
//! ordinary requests never wait behind it.

use crate::common::Server;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tabula_server::ServeOptions;

fn first_move(view: &Value) -> String {
    view["legal_moves"][0]["move"].as_str().unwrap().to_string()
}

#[test]
fn a_slow_computer_plays_its_best_move_by_the_deadline() {
    let server = Server::start_with(ServeOptions {
        move_deadline: Duration::from_secs(1),
        thinkers: 2,
        queue_wait: Duration::from_secs(5),
        ..Default::default()
    });
    // Ten seconds a move and depth 64 on the largest board: stopped at 1 s.
    let (id, view) = server.session(json!({
        "game": "northcott", "variant": "size=128x32",
        "players": ["human", "alphabeta:ms=10000,depth=64"], "seed": 1
    }));
    let mv = first_move(&view);
    let started = Instant::now();
    let (status, out) = server.call_any(
        "POST",
        &format!("/api/sessions/{id}/moves"),
        Some(&json!({ "move": mv }).to_string()),
    );
    let took = started.elapsed();
    assert_eq!(status, 200, "{out}");
    assert_eq!(
        out["played"].as_array().unwrap().len(),
        2,
        "the reply was played"
    );
    assert!(took < Duration::from_secs(3), "answered after {took:?}");
}

#[test]
fn waiting_for_a_thinking_slot_comes_out_of_the_deadline() {
    // One slot, a 2 s deadline and a long queue: three moves whose replies each
    // search as long as they may, sent 0.2 s apart. Each is answered within the
    // deadline and its margin of being sent (the third used to wait 4 s for the
    // slot and then think 2 s more).
    let deadline = Duration::from_secs(2);
    let server = Server::start_with(ServeOptions {
        move_deadline: deadline,
        thinkers: 1,
        queue_wait: Duration::from_secs(5),
        ..Default::default()
    });
    let moves: Vec<(String, String)> = (1..=3)
        .map(|seed| {
            let (id, view) = server.session(json!({
                "game": "northcott", "variant": "size=128x32",
                "players": ["human", "alphabeta:ms=10000,depth=64"], "seed": seed
            }));
            let mv = first_move(&view);
            (server.url(&format!("/api/sessions/{id}/moves")), mv)
        })
        .collect();
    let askers: Vec<_> = moves
        .into_iter()
        .enumerate()
        .map(|(i, (url, mv))| {
            std::thread::sleep(Duration::from_millis(if i == 0 { 0 } else { 200 }));
            std::thread::spawn(move || {
                let started = Instant::now();
                let status = match ureq::post(&url)
                    .set("Content-Type", "application/json")
                    .send_string(&json!({ "move": mv }).to_string())
                {
                    Ok(r) => r.status(),
                    Err(ureq::Error::Status(s, _)) => s,
                    Err(e) => panic!("{e}"),
                };
                (status, started.elapsed())
            })
        })
        .collect();
    for (i, asker) in askers.into_iter().enumerate() {
        let (status, took) = asker.join().unwrap();
        assert_eq!(status, 200, "move {} got {status} after {took:?}", i + 1);
        assert!(
            took < deadline + tabula_server::DEADLINE_MARGIN,
            "move {} answered after {took:?}",
            i + 1
        );
    }
}

#[test]
fn a_search_that_would_take_minutes_stops_and_others_are_not_kept_waiting() {
    let server = Server::start_with(ServeOptions {
        move_deadline: Duration::from_secs(2),
        thinkers: 1,
        queue_wait: Duration::from_millis(100),
        ..Default::default()
    });
    // SameGame's search at level 3 takes minutes on a large board.
    let (id, _) = server.session(json!({
        "game": "samegame", "variant": "size=20x20,colours=5",
        "players": ["search:level=3"], "seed": 3
    }));
    let (other, _) = server.session(json!({
        "game": "northcott", "players": ["human", "alphabeta"], "seed": 2
    }));
    let addr = server.url(&format!("/api/sessions/{id}/step"));
    let thinker = std::thread::spawn(move || {
        let started = Instant::now();
        let r = ureq::post(&addr)
            .set("Content-Type", "application/json")
            .send_string("{}");
        let status = match r {
            Ok(r) => r.status(),
            Err(ureq::Error::Status(s, _)) => s,
            Err(e) => panic!("{e}"),
        };
        (status, started.elapsed())
    });
    std::thread::sleep(Duration::from_millis(300));
    // While it thinks: the pool (one thinker) is full, so another computer move
    // is refused after a short wait; the list of games and the session itself answer.
    let started = Instant::now();
    let (status, busy) = server.call_any("GET", &format!("/api/sessions/{other}/hint"), None);
    assert_eq!(status, 503, "{busy}");
    assert!(busy["error"].as_str().unwrap().contains("busy"), "{busy}");
    let (status, _) = server.call_any("GET", "/api/games", None);
    assert_eq!(status, 200);
    let (status, view) = server.call_any("GET", &format!("/api/sessions/{id}"), None);
    assert_eq!(status, 200, "{view}");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "ordinary requests waited"
    );
    let (status, took) = thinker.join().unwrap();
    assert!(
        status == 200 || status == 503,
        "a move by the deadline or 'out of time', got {status}"
    );
    assert!(took < Duration::from_secs(5), "answered after {took:?}");
    // The pool is free again.
    let (status, hint) = server.call_any("GET", &format!("/api/sessions/{other}/hint"), None);
    assert_eq!(status, 200, "{hint}");
}

#[test]
fn a_client_that_goes_away_stops_the_computer() {
    use std::io::Write;
    // One thinker and a long deadline: only cancelling frees the pool early.
    let server = Server::start_with(ServeOptions {
        move_deadline: Duration::from_secs(60),
        thinkers: 1,
        queue_wait: Duration::from_millis(100),
        ..Default::default()
    });
    let (id, _) = server.session(json!({
        "game": "samegame", "variant": "size=20x20,colours=5",
        "players": ["search:level=3"], "seed": 3
    }));
    let (other, _) = server.session(json!({
        "game": "northcott", "players": ["human", "alphabeta"], "seed": 2
    }));
    let mut tcp = std::net::TcpStream::connect(server.addr).unwrap();
    write!(
        tcp,
        "POST /api/sessions/{id}/step HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{{}}",
        server.addr
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let (status, busy) = server.call_any("GET", &format!("/api/sessions/{other}/hint"), None);
    assert_eq!(status, 503, "the search holds the only thinker: {busy}");
    drop(tcp);
    // The search stops within a moment, not after its minute.
    let started = Instant::now();
    loop {
        let (status, hint) = server.call_any("GET", &format!("/api/sessions/{other}/hint"), None);
        if status == 200 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the pool is still busy: {hint}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    // Nothing was played for the client that left.
    let (_, view) = server.call_any("GET", &format!("/api/sessions/{id}"), None);
    assert_eq!(view["view"]["log"].as_array().unwrap().len(), 0, "{view}");
}
