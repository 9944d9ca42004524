//! A request where the computer only looks its move up takes no thinking slot:
//! while every slot is taken and the queue times out (a request that does think
//! gets 503 "busy"), sessions against a random player are made, stepped,
//! restarted and played, also when the session was not in memory; nor does a
//! perfect player whose game's solution is a rule that keeps no table, and a
//! variant too large to play is refused before anything waits or is built.

use crate::common::Server;
use serde_json::{json, Value};
use std::time::Duration;
use tabula_server::ServeOptions;

fn options() -> ServeOptions {
    ServeOptions {
        move_deadline: Duration::from_secs(6),
        thinkers: 1,
        queue_wait: Duration::from_millis(200),
        ..Default::default()
    }
}

/// Takes the one thinking slot for about six seconds: a session whose
/// computer moves first and searches until the deadline.
fn occupy(server: &Server) -> std::thread::JoinHandle<(u16, Value)> {
    let url = server.url("/api/sessions");
    let handle = std::thread::spawn(move || {
        let body = json!({
            "game": "northcott", "variant": "size=128x32",
            "players": ["alphabeta:ms=10000,depth=64", "human"], "seed": 1
        });
        let answer = ureq::post(&url)
            .set("Content-Type", "application/json")
            .send_string(&body.to_string());
        let r = match answer {
            Ok(r) | Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{e}"),
        };
        let status = r.status();
        let text = r.into_string().unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    });
    std::thread::sleep(Duration::from_millis(500));
    handle
}

#[test]
fn random_players_never_wait_for_a_thinking_slot() {
    let server = Server::start_with(options());
    let (mover, _) = server.session(json!({"game": "tictactoe", "players": ["human", "random"]}));
    let (watched, _) =
        server.session(json!({"game": "tictactoe", "players": ["random", "random"]}));
    // Ended and stored, then read back by a new server: not in memory.
    let server = server.restart(options());
    let busy = occupy(&server);
    // The slot is taken: a request where the computer thinks is turned away.
    let (status, v) = server.call_any(
        "POST",
        "/api/sessions",
        Some(&json!({"game": "tictactoe", "players": ["human", "alphabeta"]}).to_string()),
    );
    assert_eq!(status, 503, "the slot was free after all: {v}");
    // Against a random player nothing waits.
    let (status, v) = server.call_any(
        "POST",
        &format!("/api/sessions/{mover}/moves"),
        Some(&json!({"move": "5"}).to_string()),
    );
    assert_eq!(status, 200, "a move on a session read back: {v}");
    assert_eq!(v["played"].as_array().map(Vec::len), Some(2), "{v}");
    for (what, method, path, body) in [
        (
            "a new session",
            "POST",
            "/api/sessions".to_string(),
            Some(json!({"game": "tictactoe", "players": ["human", "random"]})),
        ),
        (
            "a step",
            "POST",
            format!("/api/sessions/{watched}/step"),
            None,
        ),
        (
            "a new game",
            "POST",
            format!("/api/sessions/{mover}/new"),
            None,
        ),
        (
            "a seat made random",
            "PUT",
            format!("/api/sessions/{mover}/players"),
            Some(json!({"seat": 0, "player": "random"})),
        ),
    ] {
        let (status, v) = server.call_any(method, &path, body.map(|b| b.to_string()).as_deref());
        assert!(status == 200 || status == 201, "{what}: {status} {v}");
    }
    let (status, v) = busy.join().unwrap();
    assert_eq!(status, 201, "{v}");
}

#[test]
fn a_perfect_player_without_a_table_never_waits_for_a_thinking_slot() {
    let server = Server::start_with(options());
    let busy = occupy(&server);
    // 64 heaps of 65,535: refused for its size at once, not "busy".
    let heaps = ["65535"; 64].join("-");
    for player in ["perfect", "random", "perfect:depth=3"] {
        let (status, v) = server.call_any(
            "POST",
            "/api/sessions",
            Some(
                &json!({"game": "nim", "variant": format!("heaps={heaps}"), "players": ["human", player]})
                    .to_string(),
            ),
        );
        assert_eq!(status, 400, "{player}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains("too many to play"),
            "{player}: {v}"
        );
    }
    // A large variant that can be played: the nim-sum rule plays it, no table.
    let heaps = ["100"; 10].join("-");
    let (status, v) = server.call_any(
        "POST",
        "/api/sessions",
        Some(
            &json!({"game": "nim", "variant": format!("heaps={heaps}"), "players": ["human", "perfect"]})
                .to_string(),
        ),
    );
    assert_eq!(status, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let mv = v["view"]["legal_moves"][0]["move"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, v) = server.call_any(
        "POST",
        &format!("/api/sessions/{id}/moves"),
        Some(&json!({ "move": mv }).to_string()),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["played"].as_array().map(Vec::len), Some(2), "{v}");
    // All of it while the slot was taken.
    assert!(!busy.is_finished(), "the thinking request ended first");
    let (status, v) = busy.join().unwrap();
    assert_eq!(status, 201, "{v}");
}
