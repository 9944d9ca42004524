//! One server per database: the lock a server holds on the database file itself
//! for as long as it runs.
//!
//! The lock is `flock` (through fs4) on the database file, so it belongs to the
//! file, not to a name: a second server that reaches the same file through a
//! symlink, a hard link or another spelling of its path meets the same lock, and
//! there is no separate lock file that could be deleted while the first server
//! runs. The kernel drops it when the process ends (`kill -9` included), so it
//! is never stale. On Linux and the BSDs `flock` locks and SQLite's own
//! (`fcntl`) locks are separate, so the lock keeps out other servers and
//! nothing else: the CLI still reads and writes the database beside a server.
//!
//! Closing any descriptor of a file drops the `fcntl` locks its process holds
//! on it, SQLite's included; the store therefore closes its SQLite connection
//! before this lock's descriptor (field order in `Store`).
//!
//! Elsewhere (Windows, where a lock on the database file itself would be
//! mandatory and stop SQLite's own reads) the lock is taken on the sibling file
//! `<db>.lock`, as before; the stale-copy check of every session write
//! (`Writer::update_session`) stands behind both.

use crate::{Result, StoreError};
use std::fs::{File, OpenOptions};
use std::path::Path;

/// The lock one server holds; dropping it (or ending the process) releases it.
pub(crate) struct ServerLock {
    file: File,
}

impl ServerLock {
    /// Takes the lock of the database at `path` (creating an empty database
    /// file if there is none yet), or refuses with [`StoreError::InUse`] when
    /// another server holds it.
    pub(crate) fn take(path: &Path) -> Result<ServerLock> {
        let file = open_lock_file(path)?;
        // fs4's lock (flock on Unix, LockFileEx on Windows): std's own needs a
        // newer Rust than the workspace's minimum.
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => Ok(ServerLock { file }),
            Err(fs4::TryLockError::WouldBlock) => Err(StoreError::InUse {
                path: path.display().to_string(),
            }),
            Err(fs4::TryLockError::Error(e)) => Err(StoreError::Io(format!(
                "cannot lock the database {}: {e}",
                path.display()
            ))),
        }
    }

    /// Checks that `path` still names the file this lock is on (SQLite opened
    /// it by name after the lock was taken: a file swapped in between would
    /// leave the database unguarded).
    #[cfg(unix)]
    pub(crate) fn check_still(&self, path: &Path) -> Result<()> {
        use std::os::unix::fs::MetadataExt;
        let locked = self.file.metadata();
        let named = std::fs::metadata(path);
        match (locked, named) {
            (Ok(a), Ok(b)) if a.dev() == b.dev() && a.ino() == b.ino() => Ok(()),
            _ => Err(StoreError::Io(format!(
                "the database file {} was replaced while it was being opened: start again",
                path.display()
            ))),
        }
    }

    /// The sibling lock file guards the name only; nothing more to check.
    #[cfg(not(unix))]
    pub(crate) fn check_still(&self, _path: &Path) -> Result<()> {
        Ok(())
    }
}

/// The database file itself, opened for reading only (a lock needs no more),
/// created empty when missing: SQLite takes an empty file for a new database.
#[cfg(unix)]
fn open_lock_file(path: &Path) -> Result<File> {
    let opened = match File::open(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path),
        other => other,
    };
    opened.map_err(|e| StoreError::Io(format!("cannot open the database {}: {e}", path.display())))
}

/// `<db>.lock` beside the database.
#[cfg(not(unix))]
fn open_lock_file(path: &Path) -> Result<File> {
    let mut name = path.as_os_str().to_os_string();
    name.push(".lock");
    let lock_path = std::path::PathBuf::from(name);
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| {
            StoreError::Io(format!(
                "cannot create the lock file {}: {e}",
                lock_path.display()
            ))
        })
}
