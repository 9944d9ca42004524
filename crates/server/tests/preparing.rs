//! A perfect player whose solution is still being built: every request that
//! needs it is answered within its deadline, 503 with `Retry-After` and the
//! words "being prepared", never left waiting for the build and never told its
//! player is bad.
//!
//! Its own test binary: it holds back the process's table builds (they run one
//! at a time) while it asks, which no other test must wait behind.

#[allow(dead_code)]
#[path = "api/common.rs"]
mod common;

use common::*;
use serde_json::{json, Value};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tabula_core::{Budget, TableCell};
use tabula_engine::MatchRecord;

/// Hexapawn on its largest board (5.9 million positions, built on demand).
const GAME: &str = "hexapawn";
const VARIANT: &str = "columns=6,rows=4";

/// Status, `Retry-After` and JSON body of one request, and how long it took.
fn timed(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, String, Value, Duration) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        addr,
        body.len()
    );
    let asked = Instant::now();
    let (status, head, text) = raw(addr, request.as_bytes());
    let took = asked.elapsed();
    let retry_after = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("retry-after")
                .then(|| value.trim().to_string())
        })
        .unwrap_or_default();
    let v = serde_json::from_str(&text).unwrap_or(Value::Null);
    (status, retry_after, v, took)
}

/// Holds back every table build of this process (they take turns) until the
/// sender is dropped or sent to: a build of a table of its own that waits. So
/// the table asked for below is "being prepared" for as long as the test needs,
/// however fast the machine.
fn hold_table_builds() -> mpsc::Sender<()> {
    let (release, held) = mpsc::channel::<()>();
    let (started, running) = mpsc::channel::<()>();
    let cell = TableCell::<()>::new("a table held back by this test");
    let glance = Budget::default().with_timeout(Duration::from_millis(10));
    // The waiter gives up at once; the build goes on, holding the others back.
    let _ = cell.get_or_build(
        move |_| {
            let _ = started.send(());
            let _ = held.recv();
            Ok(())
        },
        &glance,
        &|_| {},
    );
    running
        .recv_timeout(Duration::from_secs(30))
        .expect("the held build started");
    release
}

/// A 503 that says the solution is being prepared and when to ask again.
fn assert_preparing(what: &str, status: u16, retry_after: &str, v: &Value) {
    assert_eq!(status, 503, "{what}: {v}");
    let secs: u64 = retry_after
        .parse()
        .unwrap_or_else(|_| panic!("{what}: Retry-After '{retry_after}'"));
    assert!((1..=60).contains(&secs), "{what}: Retry-After {secs}");
    let words = v["error"].as_str().unwrap_or_default();
    assert!(words.contains("being prepared"), "{what}: {words}");
    assert!(!words.contains("bad player"), "{what}: {words}");
}

/// Issue: two sessions against Hexapawn 6x4's perfect player got no answer
/// within 15 s on a loaded machine, and a session created while its table was
/// being built was refused 400 "bad player". A session read back from the
/// database (after a restart, or sent out of memory while idle) rebuilt its
/// perfect player on a blocking thread with no deadline at all, and waited for
/// the whole build. Now creating such a session, and reading one back, are
/// answered within their deadlines: 503, `Retry-After`, "being prepared".
#[test]
fn a_perfect_player_being_prepared_is_a_503_with_retry_after_within_the_deadline() {
    let deadline = Duration::from_secs(2);
    let release = hold_table_builds();
    let s = Server::start_with(tabula_server::ServeOptions {
        move_deadline: deadline,
        ..Default::default()
    });
    // Two clients create sessions against the perfect player at once.
    let body =
        json!({"game": GAME, "variant": VARIANT, "players": ["human", "perfect"], "seed": 1});
    let creators: Vec<_> = (0..2)
        .map(|_| {
            let (addr, body) = (s.addr, body.clone());
            std::thread::spawn(move || timed(addr, "POST", "/api/sessions", Some(&body)))
        })
        .collect();
    for c in creators {
        let (status, retry_after, v, took) = c.join().unwrap();
        assert_preparing("POST /api/sessions", status, &retry_after, &v);
        assert!(
            took < deadline + tabula_server::DEADLINE_MARGIN + Duration::from_secs(3),
            "answered after {took:?}"
        );
    }

    // A session against the perfect player that is in the database but not in
    // memory (as after a restart): reading it back needs the player.
    let (id, _) =
        s.session(json!({"game": GAME, "variant": VARIANT, "players": ["human", "human"]}));
    let store = s.store();
    let mut record = store.session::<MatchRecord>(&id).unwrap().unwrap();
    record.config.players = vec!["human".into(), "perfect".into()];
    let stored = tabula_store::random_id();
    store.insert_session(&stored, &record).unwrap();
    for (method, path) in [
        ("GET", format!("/api/sessions/{stored}")),
        ("GET", format!("/api/sessions/{stored}/hint")),
    ] {
        let (status, retry_after, v, took) = timed(s.addr, method, &path, None);
        assert_preparing(&path, status, &retry_after, &v);
        assert!(
            took < Duration::from_secs(5) + Duration::from_secs(5),
            "{path} answered after {took:?}"
        );
    }

    // Nothing waits for the build any more: a cancelled last waiter stops it
    // before it starts, once the held build lets it.
    let game = tabula_engine::build(GAME, VARIANT).unwrap();
    let gone = Budget::default();
    gone.cancel();
    assert!(!gone.run(|| game.prepare(&|_| {})));
    drop(release);
}
