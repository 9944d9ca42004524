//! A write-ahead log damaged while no program ran (cut short, zeroed, written
//! over) is found at the next start: kept aside in `damaged/`, said in words
//! with what was lost, and listed with the damaged rows. A log a crash left
//! whole is no damage, and a merged log costs nothing when damaged.
//!
//! The crash is real: a child process (this test binary, running the ignored
//! `child_writes_then_crashes`) writes acknowledged changes through the store
//! and aborts, so SQLite neither merges nor removes its log.

use std::path::{Path, PathBuf};
use std::process::Command;
use tabula_store::Store;

/// How many changes the child writes, each in its own transaction, after
/// `MERGED` that it merges into the database file first.
const WRITES: usize = 60;
const MERGED: usize = 20;

fn key(i: usize) -> String {
    format!("change {i}")
}

fn value(i: usize) -> Vec<u8> {
    // Larger than a page, so that every change writes frames of its own.
    (0..6000).map(|j| (i * 7 + j) as u8).collect()
}

/// Runs only as the child of a test: opens the database named by the
/// environment, writes, and aborts without closing anything.
#[test]
#[ignore = "run by the other tests as a crashing child"]
fn child_writes_then_crashes() {
    let Ok(db) = std::env::var("TABULA_TEST_CRASH_DB") else {
        return;
    };
    let merge_all = std::env::var("TABULA_TEST_MERGE_ALL").is_ok();
    let store = Store::open(Path::new(&db)).unwrap();
    for i in 0..MERGED {
        store.cache_put(&key(i), &value(i)).unwrap();
    }
    store.merge_log().unwrap();
    for i in MERGED..WRITES {
        store.cache_put(&key(i), &value(i)).unwrap();
    }
    if merge_all {
        store.merge_log().unwrap();
    }
    // Like `kill -9`: no destructor runs, the log stays as it is.
    std::process::abort();
}

/// A database whose writer crashed: its log and index are left behind.
fn crashed(dir: &Path, merge_all: bool) -> PathBuf {
    let db = dir.join("tabula.db");
    let mut child = Command::new(std::env::current_exe().unwrap());
    child
        .args([
            "--exact",
            "child_writes_then_crashes",
            "--ignored",
            "--nocapture",
        ])
        .env("TABULA_TEST_CRASH_DB", &db);
    if merge_all {
        child.env("TABULA_TEST_MERGE_ALL", "1");
    }
    let status = child.status().expect("run the child");
    assert!(!status.success(), "the child crashes");
    let wal = wal_of(&db);
    assert!(
        std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0) > 32 * 1024,
        "the crash left a log"
    );
    db
}

fn wal_of(db: &Path) -> PathBuf {
    PathBuf::from(format!("{}-wal", db.display()))
}

/// The changes that can be read back, each checked whole.
fn readable(store: &Store) -> Vec<usize> {
    (0..WRITES)
        .filter(|&i| match store.cache_get(&key(i)).unwrap() {
            Some(v) => {
                assert_eq!(v, value(i), "change {i} is read back whole");
                true
            }
            None => false,
        })
        .collect()
}

/// Opens the damaged database and checks what every damaged log must show:
/// the file kept aside as it was, the words, the listing, a sound database.
fn open_damaged(db: &Path, damaged_copy: &[u8]) -> (Store, tabula_store::DamagedLog) {
    let store = Store::open(db).expect("a damaged log does not stop the database");
    let (log, unlisted) = store.damaged_log().expect("the damage is found");
    assert_eq!(unlisted, None);
    let log = log.clone();
    let kept = log.kept_as.clone().expect("the log is kept");
    assert_eq!(kept.parent().unwrap(), db.parent().unwrap().join("damaged"));
    assert_eq!(
        std::fs::read(&kept).unwrap(),
        damaged_copy,
        "kept as it was found"
    );
    let message = log.message();
    // The words, for a reader of `--nocapture`.
    println!("{message}");
    assert!(
        message.contains("write-ahead log was found damaged"),
        "{message}"
    );
    assert!(message.contains(&kept.display().to_string()), "{message}");
    let listed = store.damaged().unwrap();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert!(
        listed[0].message.contains(&kept.display().to_string()),
        "{}",
        listed[0].message
    );
    assert!(
        listed[0].set_aside_at.is_some(),
        "when it was found and set aside"
    );
    assert!(
        listed[0].message.contains(&log.loss_words()),
        "{}",
        listed[0].message
    );
    assert_eq!(store.integrity_check().unwrap(), "ok");
    (store, log)
}

/// The words of a loss name its size and pages.
fn assert_loss_said(log: &tabula_store::DamagedLog, lost_changes: usize) {
    assert!(log.exact, "the index beside the log says what it held");
    assert!(log.pages_lost > 0);
    assert!(
        log.pages_lost as usize >= lost_changes,
        "{} pages for {lost_changes} changes",
        log.pages_lost
    );
    let words = log.loss_words();
    assert!(words.contains("are lost"), "{words}");
    assert!(
        words.contains(&format!("{} database pages", log.pages_lost)),
        "{words}"
    );
}

#[test]
fn a_log_a_crash_left_whole_is_no_damage() {
    let dir = tempfile::tempdir().unwrap();
    let db = crashed(dir.path(), false);
    let store = Store::open(&db).unwrap();
    assert!(store.damaged_log().is_none());
    assert_eq!(readable(&store), (0..WRITES).collect::<Vec<_>>());
    assert!(store.damaged().unwrap().is_empty());
    assert!(!dir.path().join("damaged").exists());
}

#[test]
fn a_log_cut_short_is_kept_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let db = crashed(dir.path(), false);
    let wal = wal_of(&db);
    let bytes = std::fs::read(&wal).unwrap();
    // Cut in the middle of a frame, well before the end.
    let cut = &bytes[..bytes.len() * 2 / 3 + 100];
    std::fs::write(&wal, cut).unwrap();
    let (store, log) = open_damaged(&db, cut);
    assert!(log.problem.contains("cut short"), "{}", log.problem);
    let read = readable(&store);
    let lost = WRITES - read.len();
    assert!(lost > 0, "the end of the log is gone");
    assert_eq!(
        read,
        (0..read.len()).collect::<Vec<_>>(),
        "the first ones stay"
    );
    assert_loss_said(&log, lost);
}

#[test]
fn a_zeroed_log_is_kept_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let db = crashed(dir.path(), false);
    let wal = wal_of(&db);
    let zeros = vec![0u8; std::fs::metadata(&wal).unwrap().len() as usize];
    std::fs::write(&wal, &zeros).unwrap();
    let (store, log) = open_damaged(&db, &zeros);
    assert!(log.problem.contains("zeroed"), "{}", log.problem);
    // What was merged before the crash is in the database file itself.
    let read = readable(&store);
    assert_eq!(read, (0..MERGED).collect::<Vec<_>>());
    assert_loss_said(&log, WRITES - MERGED);
}

#[test]
fn a_log_written_over_is_kept_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let db = crashed(dir.path(), false);
    let wal = wal_of(&db);
    let mut bytes = std::fs::read(&wal).unwrap();
    let middle = bytes.len() / 2;
    for (i, b) in bytes[middle..middle + 5000].iter_mut().enumerate() {
        *b = (i as u8) ^ 0x5a;
    }
    std::fs::write(&wal, &bytes).unwrap();
    let (store, log) = open_damaged(&db, &bytes);
    assert!(log.problem.contains("written over"), "{}", log.problem);
    let read = readable(&store);
    let lost = WRITES - read.len();
    assert!(lost > 0);
    assert_eq!(read, (0..read.len()).collect::<Vec<_>>());
    assert_loss_said(&log, lost);
    // The next start finds nothing new: the log SQLite uses now is sound.
    drop(store);
    let again = Store::open(&db).unwrap();
    assert!(again.damaged_log().is_none());
    assert_eq!(again.damaged().unwrap().len(), 1, "still listed");
}

/// A log merged into the database file before the crash costs nothing when
/// it is damaged: everything is read back, and a log whose valid part is
/// older than the database file is moved out of SQLite's way (replaying it
/// would put older pages over newer ones).
#[test]
fn a_merged_log_costs_nothing_when_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let db = crashed(dir.path(), true);
    let wal = wal_of(&db);
    let mut bytes = std::fs::read(&wal).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle..middle + 5000].fill(0);
    std::fs::write(&wal, &bytes).unwrap();
    let store = Store::open(&db).unwrap();
    let (log, _) = store.damaged_log().expect("kept aside all the same");
    assert_eq!(log.pages_lost, 0);
    assert!(log.loss_words().contains("no acknowledged change is lost"));
    assert_eq!(
        std::fs::read(log.kept_as.as_ref().unwrap()).unwrap(),
        bytes,
        "moved aside whole"
    );
    assert_eq!(readable(&store), (0..WRITES).collect::<Vec<_>>());
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

/// A frame cut short after the last commit is a transaction the crash
/// stopped before it was acknowledged: no damage.
#[test]
fn a_frame_cut_short_after_the_last_commit_is_no_damage() {
    let dir = tempfile::tempdir().unwrap();
    let db = crashed(dir.path(), false);
    let wal = wal_of(&db);
    let mut bytes = std::fs::read(&wal).unwrap();
    bytes.extend_from_slice(&[7u8; 100]);
    std::fs::write(&wal, &bytes).unwrap();
    let store = Store::open(&db).unwrap();
    assert!(store.damaged_log().is_none());
    assert_eq!(readable(&store), (0..WRITES).collect::<Vec<_>>());
}

/// The log is merged once writes pause, so acknowledged changes reach the
/// database file itself.
#[test]
fn the_log_is_merged_when_writes_pause() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("t.db")).unwrap();
    assert!(!store.merge_log_if_due().unwrap(), "nothing written yet");
    store.cache_put("k", b"v").unwrap();
    // Seen now; merged once a pause of MERGE_WHEN_IDLE follows.
    store.merge_log_if_due().unwrap();
    std::thread::sleep(tabula_store::MERGE_WHEN_IDLE);
    store.merge_log_if_due().unwrap();
    assert!(!store.merge_log_if_due().unwrap(), "nothing new since");
    // Merged: a log damaged now costs nothing.
    store.cache_put("k2", b"v2").unwrap();
    store.merge_log_if_due().unwrap();
    std::thread::sleep(tabula_store::MERGE_WHEN_IDLE);
    assert!(store.merge_log_if_due().unwrap(), "merged after a pause");
}
