//! Schema migrations, numbered by `PRAGMA user_version`. Each runs in its own
//! transaction together with the version bump, so a crash mid-migration leaves
//! the previous version intact. Never edit a released migration: append one.

use crate::{Result, StoreError};
use rusqlite::Connection;

/// Migration `i` takes the schema from version `i` to `i + 1`.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: the initial schema.
    "
    CREATE TABLE settings (
        game        TEXT PRIMARY KEY,
        json        TEXT NOT NULL,
        updated_at  INTEGER NOT NULL
    );
    CREATE TABLE sessions (
        id          TEXT PRIMARY KEY,
        game        TEXT NOT NULL,
        variant     TEXT NOT NULL,
        record      TEXT NOT NULL,
        moves       INTEGER NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
    );
    CREATE TABLE saved_games (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL UNIQUE,
        game        TEXT NOT NULL,
        variant     TEXT NOT NULL,
        players     TEXT NOT NULL,
        moves       INTEGER NOT NULL,
        result      TEXT,
        record      TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
    );
    CREATE INDEX saved_games_by_game ON saved_games (game, updated_at);
    CREATE TABLE learned (
        game        TEXT NOT NULL,
        variant     TEXT NOT NULL,
        seat        INTEGER NOT NULL,
        player      TEXT NOT NULL,
        state       TEXT NOT NULL,
        updated_at  INTEGER NOT NULL,
        PRIMARY KEY (game, variant, seat, player)
    );
    CREATE TABLE tallies (
        game        TEXT NOT NULL,
        variant     TEXT NOT NULL,
        players     TEXT NOT NULL,
        wins        TEXT NOT NULL,
        cat         INTEGER NOT NULL,
        games       INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        PRIMARY KEY (game, variant, players)
    );
    CREATE TABLE best (
        id          INTEGER PRIMARY KEY,
        game        TEXT NOT NULL,
        variant     TEXT NOT NULL,
        metric      TEXT NOT NULL,
        value       INTEGER NOT NULL,
        player      TEXT NOT NULL,
        session     TEXT,
        achieved_at INTEGER NOT NULL
    );
    CREATE INDEX best_by_game ON best (game, variant, metric, value);
    CREATE TABLE solver_cache (
        key         TEXT PRIMARY KEY,
        value       BLOB NOT NULL,
        created_at  INTEGER NOT NULL
    );
    ",
    // 2: the time a best result took (the Same Game tutorial keeps the time to complete a game).
    "ALTER TABLE best ADD COLUMN time_ms INTEGER;",
    // 3: results of background jobs, kept on disk within a budget.
    "CREATE TABLE job_results (
        id          TEXT PRIMARY KEY,
        kind        TEXT NOT NULL,
        state       TEXT NOT NULL,
        body        TEXT,
        bytes       INTEGER NOT NULL,
        finished_at INTEGER
    );
    CREATE INDEX job_results_by_age ON job_results (finished_at);",
    // 4: a live session's revision, counted up by every write: a write from a
    // copy of the session older than the stored one is refused.
    "ALTER TABLE sessions ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;",
    // 5: damaged rows a write had to replace, kept whole (each column as an SQL
    // literal) and described in words.
    "CREATE TABLE set_aside (
        id           INTEGER PRIMARY KEY,
        source       TEXT NOT NULL,
        row          TEXT NOT NULL,
        problem      TEXT NOT NULL,
        content      TEXT NOT NULL,
        set_aside_at INTEGER NOT NULL
    );",
    // 6: write-ahead logs found damaged at start-up, each kept aside as a file
    // (see `log_check.rs`), with what may have been lost.
    "CREATE TABLE damaged_logs (
        id          INTEGER PRIMARY KEY,
        problem     TEXT NOT NULL,
        loss        TEXT NOT NULL,
        kept_as     TEXT,
        pages_lost  INTEGER NOT NULL,
        bytes_lost  INTEGER NOT NULL,
        found_at    INTEGER NOT NULL
    );",
    // 7: the store's own time (`clock.rs`): the last wall-clock reading with
    // the store time at it, and each live session's last change in store time,
    // by which idle sessions are forgotten.
    "CREATE TABLE clock (
        id          INTEGER PRIMARY KEY CHECK (id = 1),
        wall        INTEGER NOT NULL,
        store       INTEGER NOT NULL
    );
    ALTER TABLE sessions ADD COLUMN touched INTEGER NOT NULL DEFAULT 0;
    UPDATE sessions SET touched = updated_at;",
];

pub(crate) fn migrate(conn: &mut Connection) -> Result<()> {
    let known = MIGRATIONS.len() as u32;
    let found: u32 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if found > known {
        return Err(StoreError::NewerSchema { found, known });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Exclusive)?;
        // Another process may have migrated between our read and our lock.
        let now: u32 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if now as usize > i {
            continue;
        }
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as u32)?;
        tx.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_newer_schema() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("n.db");
        {
            let c = Connection::open(&path).unwrap();
            c.pragma_update(None, "user_version", 999).unwrap();
        }
        match crate::Store::open(&path) {
            Err(StoreError::NewerSchema { found: 999, .. }) => {}
            other => panic!("expected NewerSchema, got {:?}", other.err()),
        }
    }

    #[test]
    fn migrating_twice_is_a_no_op() {
        let mut c = Connection::open_in_memory().unwrap();
        migrate(&mut c).unwrap();
        migrate(&mut c).unwrap();
        let v: u32 = c
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v as usize, MIGRATIONS.len());
    }
}
