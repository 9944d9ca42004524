//! Expiry that a clock jump cannot trigger: live sessions are aged by the
//! store's own time (the wall clock read through the store's clock seam),
//! so a restart with the clock far ahead, or set back, forgets nothing, and
//! ordinary idleness still ends in expiry.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use tabula_core::StoredRecord;
use tabula_store::{Store, WallClock, IDLE_SESSION_SECONDS};

const DAY: i64 = 24 * 3600;

/// A wall clock the test sets.
#[derive(Default)]
struct TestClock(AtomicI64);

impl WallClock for TestClock {
    fn unix_seconds(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Record {
    game: String,
    variant: String,
    players: Vec<String>,
}

impl StoredRecord for Record {
    fn game(&self) -> &str {
        &self.game
    }
    fn variant(&self) -> &str {
        &self.variant
    }
    fn players(&self) -> &[String] {
        &self.players
    }
    fn moves(&self) -> usize {
        0
    }
}

fn record() -> Record {
    Record {
        game: "g".into(),
        variant: String::new(),
        players: vec!["a".into(), "b".into()],
    }
}

/// A start as a server's: open with the clock at `at`, prune idle sessions.
fn start(db: &std::path::Path, clock: &Arc<TestClock>, at: i64) -> (Store, usize) {
    clock.0.store(at, Ordering::SeqCst);
    let store = Store::open_with_clock(db, clock.clone()).unwrap();
    let pruned = store
        .write(|w| w.prune_sessions(IDLE_SESSION_SECONDS))
        .unwrap();
    (store, pruned)
}

fn live(store: &Store) -> Vec<String> {
    let mut ids = store.read(|r| r.session_ids()).unwrap();
    ids.sort();
    ids
}

#[test]
fn a_clock_far_ahead_or_set_back_forgets_nothing_and_idleness_still_expires() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let clock = Arc::new(TestClock::default());
    let t = 1_800_000_000;

    let (store, _) = start(&db, &clock, t);
    store.insert_session("old", &record()).unwrap();
    assert_eq!(store.clock_jump(), None);
    drop(store);

    // 400 days ahead: not counted, said, nothing forgotten.
    let (store, pruned) = start(&db, &clock, t + 400 * DAY);
    assert_eq!(pruned, 0);
    let jump = store.clock_jump().expect("the jump is said");
    assert_eq!(jump.seconds, 400 * DAY);
    assert!(jump.words().contains("400 days later"), "{}", jump.words());
    assert_eq!(live(&store), ["old"]);
    drop(store);

    // Put back: not counted either, and the session is still there.
    let (store, pruned) = start(&db, &clock, t);
    assert_eq!(pruned, 0);
    assert!(store.clock_jump().unwrap().words().contains("earlier"));
    assert_eq!(live(&store), ["old"]);
    drop(store);

    // Ordinary gaps count: 60 days, then a session changed, then 40 more.
    let (store, pruned) = start(&db, &clock, t + 60 * DAY);
    assert_eq!((pruned, store.clock_jump()), (0, None));
    store.insert_session("recent", &record()).unwrap();
    drop(store);
    let (store, pruned) = start(&db, &clock, t + 100 * DAY);
    assert_eq!(pruned, 1, "idle for 100 days of time seen to pass");
    assert_eq!(live(&store), ["recent"]);
}

/// Job results a day old are forgotten at a start by store time too.
#[test]
fn job_results_are_aged_by_store_time() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let clock = Arc::new(TestClock::default());
    let t = 1_800_000_000;
    let (store, _) = start(&db, &clock, t);
    store
        .job_finished(
            "j",
            "solve",
            &tabula_store::JobState::Done(serde_json::json!(1)),
        )
        .unwrap();
    drop(store);
    let (store, _) = start(&db, &clock, t + 400 * DAY);
    store.settle_jobs(DAY).unwrap();
    assert!(store.job("j").unwrap().is_some(), "kept after a jump");
    drop(store);
    let (store, _) = start(&db, &clock, t + 400 * DAY + 2 * DAY);
    store.settle_jobs(DAY).unwrap();
    assert!(
        store.job("j").unwrap().is_none(),
        "forgotten after two days"
    );
}
