use std::path::Path;
use thiserror::Error;

/// What can go wrong with the database.
#[derive(Debug, Error)]
pub enum StoreError {
    /// SQLite reported an error.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// Stored JSON could not be read or written.
    #[error("stored data is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The file or its folder could not be used.
    #[error("{0}")]
    Io(String),
    /// The database was written by a newer Tabula.
    #[error("the database has schema version {found}, newer than this program knows ({known}): upgrade tabula")]
    NewerSchema {
        /// Version in the file.
        found: u32,
        /// Latest version this build knows.
        known: u32,
    },
    /// Another server holds the database (one server per database: see
    /// [`crate::Store::open_exclusive`]).
    #[error("another tabula server is already using the database {path}: stop it first, or give this one another database (--db)")]
    InUse {
        /// The database file.
        path: String,
    },
    /// One row cannot be read (a column of the wrong type, text that is not the
    /// JSON it should be): that row alone is refused; see [`crate::DamagedRow`].
    #[error("{}", .0.message)]
    Damaged(crate::DamagedRow),
    /// A live session's copy is older than the stored one (another program
    /// changed it since the copy was read): the write is refused, nothing is
    /// overwritten.
    #[error("this game was changed elsewhere since it was read here: it has been read again, so try again")]
    Stale,
    /// The caller passed something the store refuses (an empty name, ...).
    #[error("{0}")]
    Invalid(String),
    /// The database's disk or file cannot be used (full, read-only, damaged,
    /// out of reach), said in words; SQLite's own error, with its extended
    /// code, is the source.
    #[error("{words}")]
    Unusable {
        /// What is wrong, in words, with what to do.
        words: String,
        /// SQLite's error.
        #[source]
        source: rusqlite::Error,
    },
}

/// Below this much free space, an input/output error while the database is
/// written is taken for a full disk (SQLite reports growing its index on a
/// full disk as `SQLITE_IOERR_SHMSIZE`, code 4874, not as "full").
const NEARLY_FULL: u64 = 256 << 10;

/// SQLite's error on the database at `db` in words where its code says what
/// is wrong with the disk or the file (SQLite's extended result codes: full,
/// read-only, cannot open, permission, damaged, busy); others as they are.
pub(crate) fn in_words(e: rusqlite::Error, db: &Path) -> StoreError {
    use rusqlite::ffi;
    let rusqlite::Error::SqliteFailure(failure, _) = &e else {
        return StoreError::Sqlite(e);
    };
    let code = failure.extended_code;
    let at = db.display();
    let full =
        || format!("the disk holding the database {at} is full: make room on it, then try again");
    let words = match code & 0xff {
        ffi::SQLITE_FULL => full(),
        ffi::SQLITE_IOERR if nearly_full(db) => full(),
        ffi::SQLITE_IOERR => format!(
            "the disk holding the database {at} could not be read or written (an input/output error, SQLite code {code})"
        ),
        ffi::SQLITE_READONLY => format!(
            "the database {at} can only be read, not written: check that its file and folder may be written by this user and that the disk is not mounted read-only"
        ),
        ffi::SQLITE_CANTOPEN => format!(
            "the database {at} cannot be opened: its folder may be missing, or not open to this user"
        ),
        ffi::SQLITE_PERM => format!("this user may not use the database {at}"),
        ffi::SQLITE_CORRUPT | ffi::SQLITE_NOTADB => format!(
            "the file {at} is damaged or is not a database: move it away to start afresh (keep it: it may be recovered with the sqlite3 tool)"
        ),
        ffi::SQLITE_BUSY | ffi::SQLITE_LOCKED => format!(
            "the database {at} is busy: another program has held it for too long, try again in a moment"
        ),
        _ => return StoreError::Sqlite(e),
    };
    StoreError::Unusable { words, source: e }
}

/// True when the disk holding `db` has almost no room left.
fn nearly_full(db: &Path) -> bool {
    let dir = db
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs4::available_space(dir).is_ok_and(|free| free < NEARLY_FULL)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(code: i32) -> rusqlite::Error {
        rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None)
    }

    #[test]
    fn sqlite_codes_are_said_in_words() {
        let db = std::env::temp_dir().join("t.db");
        for (code, words) in [
            (rusqlite::ffi::SQLITE_FULL, "is full"),
            (rusqlite::ffi::SQLITE_READONLY, "can only be read"),
            (rusqlite::ffi::SQLITE_READONLY_DIRECTORY, "can only be read"),
            (rusqlite::ffi::SQLITE_CANTOPEN, "cannot be opened"),
            (rusqlite::ffi::SQLITE_NOTADB, "is not a database"),
            (rusqlite::ffi::SQLITE_BUSY, "is busy"),
        ] {
            let said = in_words(failure(code), &db).to_string();
            assert!(said.contains(words), "{code}: {said}");
            assert!(!said.contains("error code"), "{said}");
        }
        // An input/output error where the disk has room is one.
        let said = in_words(failure(rusqlite::ffi::SQLITE_IOERR_SHMSIZE), &db).to_string();
        assert!(said.contains("could not be read or written") || said.contains("is full"));
        // Others as SQLite says them.
        assert!(matches!(
            in_words(failure(rusqlite::ffi::SQLITE_CONSTRAINT), &db),
            StoreError::Sqlite(_)
        ));
    }
}
