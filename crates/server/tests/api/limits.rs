//! Limits every request is held to (docs/API.md, "Limits"), over real HTTP.

use crate::common::Server;
use serde_json::{json, Value};

fn json_error(status: u16, head: &str, body: &str, want: u16) {
    assert_eq!(status, want, "{head}\n{body}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{head}"
    );
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
    assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
}

#[test]
fn body_less_routes_keep_the_body_rules() {
    let s = Server::start();
    let (id, _) = s.session(json!({"game": "tictactoe", "players": ["human", "human"]}));
    let host = s.addr;
    for path in [
        format!("/api/sessions/{id}/undo"),
        format!("/api/sessions/{id}/new"),
        format!("/api/sessions/{id}/step"),
        "/api/saved/nothing".to_string(),
    ] {
        let method = if path.starts_with("/api/saved") {
            "DELETE"
        } else {
            "POST"
        };
        // A body over 64 KiB, declared.
        let big = "x".repeat(100 * 1024);
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{big}",
            big.len()
        );
        let (st, head, body) = s.raw(req.as_bytes());
        json_error(st, &head, &body, 413);
        // The same, chunked (no length declared).
        let mut chunked = format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        );
        for _ in 0..20 {
            chunked.push_str(&format!("1000\r\n{}\r\n", "y".repeat(0x1000)));
        }
        chunked.push_str("0\r\n\r\n");
        let (st, head, body) = s.raw(chunked.as_bytes());
        json_error(st, &head, &body, 413);
        // A form body.
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\nConnection: close\r\n\r\na=b"
        );
        let (st, head, body) = s.raw(req.as_bytes());
        json_error(st, &head, &body, 415);
    }
    // Nothing was undone or started by the refused requests.
    let (st, v) = s.post(&format!("/api/sessions/{id}/moves"), &json!({"move": "5"}));
    assert_eq!(
        (st, v["view"]["log"].as_array().map(Vec::len)),
        (200, Some(1))
    );
}

#[test]
fn errors_of_the_http_layer_have_json_bodies() {
    let s = Server::start();
    let host = s.addr;
    // An address over hyper's limit: 414.
    let long = format!(
        "GET /api/games?{} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n",
        "a".repeat(70_000)
    );
    let (st, head, body) = s.raw(long.as_bytes());
    json_error(st, &head, &body, 414);
    // Too many header lines: 431.
    let mut many = format!("GET /api/games HTTP/1.1\r\nHost: {host}\r\n");
    for i in 0..200 {
        many.push_str(&format!("X-Header-{i}: {i}\r\n"));
    }
    many.push_str("Connection: close\r\n\r\n");
    let (st, head, body) = s.raw(many.as_bytes());
    json_error(st, &head, &body, 431);
    // A request line that is not HTTP: 400.
    let (st, head, body) = s.raw(b"HELLO THERE\r\n\r\n");
    json_error(st, &head, &body, 400);
    let (st, head, body) = s.raw(b"GET /api/games HTTP/1.1\r\nHost: a b\0c\r\n\r\n");
    json_error(st, &head, &body, 400);
    // The server still answers.
    assert_eq!(s.get("/api/games").0, 200);
}

#[test]
fn best_results_do_not_reveal_session_ids() {
    let s = Server::start();
    // A 1x1 Poggle is solved by its one press.
    let (id, _) = s.session(json!({"game": "poggle", "variant": "size=1", "players": ["human"]}));
    let (st, out) = s.post(
        &format!("/api/sessions/{id}/moves"),
        &json!({"move": "1,1"}),
    );
    assert_eq!(st, 200, "{out}");
    assert_eq!(out["view"]["outcome"]["kind"], "win", "{out}");
    let (st, best) = s.get("/api/best/poggle");
    assert_eq!(st, 200);
    let rows = best.as_array().unwrap();
    assert_eq!(rows.len(), 1, "{best}");
    assert_eq!(rows[0]["value"], 1);
    assert!(rows[0].get("session").is_none(), "{best}");
    assert!(!best.to_string().contains(&id), "{best}");
}

#[test]
fn undoing_a_finished_game_takes_it_from_the_players_who_played_it() {
    let s = Server::start();
    let (id, _) = s.session(json!({"game": "tictactoe", "players": ["human", "human"]}));
    for mv in ["5", "1", "3", "2", "7"] {
        assert_eq!(
            s.post(&format!("/api/sessions/{id}/moves"), &json!({"move": mv}))
                .0,
            200
        );
    }
    // X won; then seat O changes player, then the win is taken back.
    let (st, v) = s.call(
        "PUT",
        &format!("/api/sessions/{id}/players"),
        Some(&json!({"seat": 1, "player": "random"}).to_string()),
    );
    assert_eq!(st, 200, "{v}");
    let (st, v) = s.post(&format!("/api/sessions/{id}/undo"), &json!({}));
    assert_eq!(st, 200, "{v}");
    let (_, tallies) = s.get("/api/tallies?game=tictactoe");
    let rows = tallies["tallies"].as_array().unwrap();
    let of = |players: [&str; 2]| {
        rows.iter()
            .find(|r| r["players"] == json!(players))
            .map(|r| (r["wins"].clone(), r["games"].as_i64().unwrap()))
    };
    // The game is no longer counted for human v human, and nothing was taken from
    // (or left negative for) human v random, who never finished a game.
    assert_eq!(
        of(["human", "human"]).map(|t| t.1).unwrap_or(0),
        0,
        "{tallies}"
    );
    if let Some((wins, games)) = of(["human", "random"]) {
        assert_eq!((wins, games), (json!([0, 0]), 0), "{tallies}");
    }
}

fn wait_for_job(s: &Server, id: &str) -> Value {
    let started = std::time::Instant::now();
    loop {
        let (st, v) = s.get(&format!("/api/jobs/{id}"));
        assert_eq!(st, 200, "{v}");
        if v["state"] == "done" || v["state"] == "error" {
            return v;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "job {id} still {v}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn solve_jobs_beyond_the_memory_budget_fail_at_once() {
    let s = Server::start();
    for variant in ["", "size=128x32"] {
        let (st, v) = s.post(
            "/api/jobs",
            &json!({"kind": "solve", "game": "northcott", "variant": variant}),
        );
        assert_eq!(st, 202, "{v}");
        let done = wait_for_job(&s, v["job_id"].as_str().unwrap());
        assert_eq!(done["state"], "error", "{done}");
        assert!(
            done["error"].as_str().unwrap().contains("memory limit"),
            "{done}"
        );
    }
}

#[test]
fn jobs_can_be_cancelled_queued_or_running() {
    let s = Server::start();
    // Two long simulations take both slots; a third waits. (Not solves: the
    // tests of this binary share one process and its ledger of tables, so a
    // solve could be refused at once for another test's tables.)
    let long = json!({"kind": "simulate", "game": "tictactoe",
                      "players": ["random", "random"], "games": 10_000_000});
    let ids: Vec<String> = (0..3)
        .map(|_| {
            let (st, v) = s.post("/api/jobs", &long);
            assert_eq!(st, 202, "{v}");
            v["job_id"].as_str().unwrap().to_string()
        })
        .collect();
    for id in ids.iter().rev() {
        let (st, v) = s.call("DELETE", &format!("/api/jobs/{id}"), None);
        assert_eq!(st, 202, "{v}");
    }
    for id in &ids {
        let v = wait_for_job(&s, id);
        // A job that finished before its cancel arrived is done; the rest say so.
        if v["state"] == "error" {
            assert_eq!(v["error"], "cancelled", "{v}");
        }
    }
    let (_, third) = s.get(&format!("/api/jobs/{}", ids[2]));
    assert_eq!(third["state"], "error", "the queued job never ran: {third}");
    // A finished job is forgotten by DELETE; an unknown one is 404.
    assert_eq!(
        s.call("DELETE", &format!("/api/jobs/{}", ids[2]), None).0,
        204
    );
    assert_eq!(s.get(&format!("/api/jobs/{}", ids[2])).0, 404);
    assert_eq!(s.call("DELETE", "/api/jobs/nothing", None).0, 404);
}

#[test]
fn positions_too_large_to_play_are_refused_with_a_small_answer() {
    // What this checks is the refusals and the size of the answers, not their
    // speed (tests/api/deadline.rs and thinkers.rs check that). It shares its
    // process, its table builds (one at a time), its memory ledger and two
    // cores with the rest of the suite (jobs solving Multiplication Ludo,
    // tables built for perfect players), so a request may wait behind them
    // for longer than the usual 10 s deadline and be answered 503 "ran out of
    // time" before its size could be looked at: its server has a deadline of a
    // minute, within the client's two.
    let s = Server::start_with(tabula_server::ServeOptions {
        move_deadline: std::time::Duration::from_secs(60),
        ..Default::default()
    });
    let heaps = vec!["65535"; 64].join("-");
    let (st, v) = s.post(
        "/api/sessions",
        &json!({"game": "nim", "variant": format!("heaps={heaps}")}),
    );
    assert_eq!(st, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("too many"), "{v}");
    // The same heaps as a start position of a small variant.
    let (st, v) = s.post(
        "/api/sessions",
        &json!({"game": "nim", "position": vec!["65535"; 64].join(" ")}),
    );
    assert_eq!(st, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("legal moves"), "{v}");
    // The largest boards that may be played answer within 1 MiB, hints too.
    for (game, variant) in [
        ("nim", "heaps=1000"),
        ("northcott", "size=128x32"),
        ("poggle", "size=30"),
    ] {
        let (st, v) = s.post("/api/sessions", &json!({"game": game, "variant": variant}));
        assert_eq!(st, 201, "{game} {variant}: {v}");
        assert!(
            v.to_string().len() < 1 << 20,
            "{game} {variant}: {} bytes",
            v.to_string().len()
        );
        let id = v["id"].as_str().unwrap();
        let (st, hint) = s.get(&format!("/api/sessions/{id}/hint"));
        assert_eq!(st, 200, "{hint}");
        assert!(hint.to_string().len() < 1 << 20, "{game} {variant} hint");
    }
}
