//! One server per database, whatever the path says: a second `tabula serve`
//! on the same database file through a symlink, a hard link, or after any
//! lock file beside it was deleted, is refused in words, every time, while the
//! first serves on; the CLI still saves games into the database beside it.

use crate::cli::play;
use crate::crash::{call, run_briefly, start, tempfile_dir};
use serde_json::json;
use std::path::Path;
use std::time::Duration;

/// A second server on `db` stops at once, saying why, and the first answers.
fn refused(db: &Path, first: std::net::SocketAddr) {
    for attempt in 0..3 {
        let (code, text) = run_briefly(db, Duration::from_secs(20))
            .unwrap_or_else(|| panic!("{}: a second server kept running", db.display()));
        assert_eq!(code, Some(2), "attempt {attempt}, {}: {text}", db.display());
        assert!(
            text.contains("tabula: ") && text.contains("already using the database"),
            "attempt {attempt}, {}: {text}",
            db.display()
        );
        let (st, _) = call(first, "GET", "/api/games", None).expect("the first server answers");
        assert_eq!(st, 200);
    }
}

#[test]
fn a_second_server_is_refused_through_a_symlink_a_hard_link_and_without_a_lock_file() {
    let dir = tempfile_dir();
    let db = dir.join("tabula.db");
    let (mut first, addr) = start(&db);
    let (st, created) = call(
        addr,
        "POST",
        "/api/sessions",
        Some(&json!({"game": "tictactoe", "players": ["human", "human"]})),
    )
    .expect("created");
    assert_eq!(st, 201, "{created}");

    let symlink = dir.join("symlink.db");
    std::os::unix::fs::symlink(&db, &symlink).unwrap();
    refused(&symlink, addr);
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let hard = elsewhere.join("another-name.db");
    std::fs::hard_link(&db, &hard).unwrap();
    refused(&hard, addr);
    // Whatever lock files lie beside the database, deleting them changes nothing.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "lock") {
            std::fs::remove_file(&path).unwrap();
        }
    }
    let _ = std::fs::remove_file(dir.join("tabula.db.lock"));
    refused(&db, addr);
    refused(&symlink, addr);

    // The first server still has the session, and the CLI still saves beside it.
    let id = created["id"].as_str().unwrap();
    let (st, _) = call(
        addr,
        "POST",
        &format!("/api/sessions/{id}/moves"),
        Some(&json!({"move": "5"})),
    )
    .expect("a move");
    assert_eq!(st, 200);
    let (out, _) = play(
        &[
            "hexapawn",
            "--human",
            "both",
            "--db",
            db.to_str().unwrap(),
            "--save-as",
            "beside",
        ],
        "7 4\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (st, saved) = call(addr, "GET", "/api/saved", None).expect("saved games");
    assert_eq!(st, 200, "{saved}");
    assert_eq!(saved["saved"][0]["name"], "beside", "{saved}");

    // Once the first is gone (kill -9), a server starts again (through the
    // symlink: SQLite finds the write-ahead log by the file's real name, which a
    // hard link does not share), with every acknowledged move, and is the one.
    first.kill().expect("kill -9");
    first.wait().unwrap();
    let (mut again, addr) = start(&symlink);
    let (st, view) = call(addr, "GET", &format!("/api/sessions/{id}"), None).expect("answer");
    assert_eq!(st, 200);
    assert_eq!(view["view"]["log"].as_array().unwrap().len(), 1, "{view}");
    refused(&db, addr);
    refused(&hard, addr);
    again.kill().unwrap();
    again.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
