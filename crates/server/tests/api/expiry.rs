//! A restart with the wall clock 400 days ahead (read through the store's
//! clock seam) forgets no live game, nor does putting the clock back.

use crate::common::Server;
use serde_json::json;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

/// A wall clock the test sets.
struct TestClock(AtomicI64);

impl tabula_store::WallClock for TestClock {
    fn unix_seconds(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

#[test]
fn a_restart_with_the_clock_far_ahead_forgets_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tabula.db");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let clock = Arc::new(TestClock(AtomicI64::new(now)));
    let s = Server::start_with_clock(db.clone(), clock.clone());
    let (st, v) = s.post(
        "/api/sessions",
        &json!({"game": "tictactoe", "players": ["human", "human"]}),
    );
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let (st, _) = s.post(&format!("/api/sessions/{id}/moves"), &json!({"move": "5"}));
    assert_eq!(st, 200);
    drop(s);

    for (label, at) in [("400 days ahead", now + 400 * 86_400), ("put back", now)] {
        clock.0.store(at, Ordering::SeqCst);
        let s = Server::start_with_clock(db.clone(), clock.clone());
        let (st, v) = s.get(&format!("/api/sessions/{id}"));
        assert_eq!(st, 200, "{label}: {v}");
        assert_eq!(
            v["view"]["log"].as_array().unwrap().len(),
            1,
            "{label}: {v}"
        );
        drop(s);
    }
}
