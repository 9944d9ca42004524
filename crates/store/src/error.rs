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
}
