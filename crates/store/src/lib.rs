//! Persistence for Tabula on SQLite.
//!
//! One database file holds everything that must outlive a process: settings per
//! game, live sessions (rewritten in the same transaction as every acknowledged
//! move, so a `kill -9` loses nothing that was acknowledged), saved games with
//! their full move record, learned matchboxes, score tallies per pair of players,
//! best results of puzzles and a generic solver cache.
//!
//! The store knows no game: a match's record is any [`tabula_core::StoredRecord`]
//! (the engine's `MatchRecord`), kept as its JSON text with the few facts that
//! lists show (game, variant, players, number of moves), and handed back as the
//! caller's type.
//!
//! The database runs in WAL mode with `synchronous=NORMAL`: a committed
//! transaction survives a crash of the process (the WAL is in the OS page cache);
//! only a power cut may lose the last few commits. All SQL is parameterised.
//!
//! ```no_run
//! # fn demo<R: tabula_core::StoredRecord>(record: &R) -> Result<(), tabula_store::StoreError> {
//! let store = tabula_store::Store::open_default()?;
//! let saved = store.save_game(Some("my game"), record, None)?;
//! let (_summary, again) = store.load_game::<R>("my game")?.expect("just saved");
//! # let _ = (saved, again); Ok(()) }
//! ```

mod best;
mod clock;
mod damaged;
mod error;
mod jobs;
mod learned;
mod log_check;
mod migrations;
mod saved;
mod server_lock;
mod sessions;
mod settings;
mod tallies;

pub use best::{BestRow, Metric};
pub use clock::{ClockJump, SystemClock, WallClock, IDLE_SESSION_SECONDS, LONGEST_GAP_COUNTED};
pub use damaged::{DamagedRow, Listed, DAMAGED_LOGS, SET_ASIDE_ROWS};
pub use error::StoreError;
pub use jobs::{JobRow, JobState, JOB_RESULTS_BYTES, JOB_RESULT_BYTES, STOPPED};
pub use learned::{LearnedKey, LearnedRow};
pub use log_check::DamagedLog;
pub use saved::{random_id, SavedGame};
pub use sessions::Revision;
pub use tallies::{TallyDelta, TallyRow};

use rusqlite::{Connection, OptionalExtension, TransactionBehavior};
use server_lock::ServerLock;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Result of store operations.
pub type Result<T> = std::result::Result<T, StoreError>;

/// How the store names a game in its words (a damaged row's message): the game's
/// title for its id ("Tic-tac-toe" for `tictactoe`), `None` to keep the id. The
/// store knows no games, so whoever serves from it passes this
/// ([`Store::set_game_titles`]).
pub type GameTitles = fn(&str) -> Option<&'static str>;

/// Names no game by title: every game is called by its id.
fn ids_only(_: &str) -> Option<&'static str> {
    None
}

/// How long a writer waits for another process holding the database lock.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The log is merged into the database file once no change has been written
/// for this long ([`Store::merge_log_if_due`]).
pub const MERGE_WHEN_IDLE: Duration = Duration::from_secs(1);
/// ... and at least this often while changes keep coming.
pub const MERGE_AT_LEAST_EVERY: Duration = Duration::from_secs(10);
/// ... and whenever the log grows past this many pages (SQLite's automatic
/// checkpoint: 1 MiB of 4 KiB pages).
pub const MERGE_AT_PAGES: u32 = 256;

/// When the log was last merged, and the writes seen since.
struct MergeState {
    /// Writes counted at the last look, and when that count last changed.
    seen_writes: u64,
    seen_at: Instant,
    /// Writes counted when the log was last merged, and when.
    merged_writes: u64,
    merged_at: Instant,
}

/// The database. Cheap to share behind an `Arc`; operations are serialised on one
/// connection (SQLite allows one writer at a time anyway).
pub struct Store {
    conn: Mutex<Connection>,
    /// This process has the database open (its log is not checked again
    /// while it is); dropped after the connection.
    _open_here: log_check::OpenHere,
    path: PathBuf,
    /// The damaged log found when the database was opened, if any, and why
    /// it could not be listed in the database, if it could not.
    found_log: Option<(DamagedLog, Option<String>)>,
    /// The store's own time, which a wrong wall clock cannot move (`clock.rs`).
    clock: clock::StoreClock,
    /// Write transactions committed, and the log's merging.
    writes: AtomicU64,
    merge: Mutex<MergeState>,
    /// Byte budgets: all job results, one job result, the solver cache.
    job_results_bytes: AtomicU64,
    job_result_bytes: AtomicU64,
    cache_bytes: AtomicU64,
    /// The lock a server holds on the database for as long as it runs
    /// ([`Store::open_exclusive`]); the OS releases it when the process ends.
    /// Declared after `conn`, so the connection closes first (`server_lock.rs`).
    _server_lock: Option<ServerLock>,
    /// How games are named in the store's words, once set.
    titles: OnceLock<GameTitles>,
}

/// Inside a write transaction: every write of one user action goes through the
/// same `Writer`, so they commit (or fail) together.
pub struct Writer<'a> {
    conn: &'a Connection,
    titles: GameTitles,
    /// Store time when the transaction began (`clock.rs`): what ages live
    /// sessions and job results.
    now: i64,
}

/// Read-only access for queries.
pub struct Reader<'a> {
    conn: &'a Connection,
    titles: GameTitles,
}

/// A game in the store's words: its title, else its id.
pub(crate) fn game_words(titles: GameTitles, id: &str) -> String {
    titles(id).map_or_else(|| id.to_string(), str::to_string)
}

impl Store {
    /// The default database: `<data dir>/tabula/tabula.db` (Linux:
    /// `$XDG_DATA_HOME/tabula/tabula.db` or `~/.local/share/tabula/tabula.db`;
    /// macOS: `~/Library/Application Support/tabula/tabula.db`; Windows:
    /// `%APPDATA%\tabula\tabula.db`).
    pub fn default_path() -> Option<PathBuf> {
        dirs::data_dir().map(|d| d.join("tabula").join("tabula.db"))
    }

    /// Opens (creating if needed) the database at the default path.
    pub fn open_default() -> Result<Store> {
        let path = Self::default_path().ok_or_else(|| {
            StoreError::Io("no data directory on this system: pass a database path".into())
        })?;
        Self::open(&path)
    }

    /// [`Store::open_exclusive`] at the default path.
    pub fn open_default_exclusive() -> Result<Store> {
        let path = Self::default_path().ok_or_else(|| {
            StoreError::Io("no data directory on this system: pass a database path".into())
        })?;
        Self::open_exclusive(&path)
    }

    /// Opens the database for a server: one server per database. The server holds
    /// an exclusive lock on the database file itself for as long as this store
    /// lives (see `server_lock.rs`); a second server on the same file, by any
    /// path (a symlink, a hard link), is refused with [`StoreError::InUse`]. Its
    /// sessions live in memory and are written through, so two servers would
    /// overwrite each other's acknowledged moves (and each session write checks
    /// that its copy is not stale: [`Writer::update_session`]). The kernel drops
    /// the lock when the process ends, `kill -9` included, so it is never stale.
    /// Other programs ([`Store::open`]: the CLI saving a game) may still use the
    /// database: they write only rows no server keeps in memory, each in its own
    /// transaction.
    pub fn open_exclusive(path: &Path) -> Result<Store> {
        Self::open_exclusive_with_clock(path, Arc::new(SystemClock))
    }

    /// [`Store::open_exclusive`] reading the wall clock through `wall`.
    pub fn open_exclusive_with_clock(path: &Path, wall: Arc<dyn WallClock>) -> Result<Store> {
        create_parent(path)?;
        let lock = ServerLock::take(path)?;
        let mut store = Self::open_with_clock(path, wall)?;
        lock.check_still(path)?;
        store._server_lock = Some(lock);
        Ok(store)
    }

    /// Opens (creating the file and its folder if needed) and migrates the
    /// database. Its write-ahead log is checked first (`log_check.rs`): a log
    /// damaged while no program used the database is kept aside, listed by
    /// [`Store::damaged`] and reported by [`Store::damaged_log`].
    pub fn open(path: &Path) -> Result<Store> {
        Self::open_with_clock(path, Arc::new(SystemClock))
    }

    /// [`Store::open`] reading the wall clock through `wall` (the seam tests
    /// set): what ages sessions is the store's own time (`clock.rs`).
    pub fn open_with_clock(path: &Path, wall: Arc<dyn WallClock>) -> Result<Store> {
        create_parent(path)?;
        let found = log_check::check(path, wall.unix_seconds())?;
        // SQLite's errors at opening said in words: a full disk, a read-only
        // file, a file that is not a database.
        let words = |e: StoreError| match e {
            StoreError::Sqlite(e) => error::in_words(e, path),
            other => other,
        };
        let mut conn = Connection::open(path).map_err(|e| error::in_words(e, path))?;
        let open_here = log_check::OpenHere::mark(path);
        configure(&conn).map_err(words)?;
        migrations::migrate(&mut conn).map_err(words)?;
        let found_at = wall.unix_seconds();
        let clock = clock::StoreClock::start(&conn, wall).map_err(words)?;
        let found_log = found.map(|log| {
            let listed = conn
                .execute_batch("BEGIN IMMEDIATE")
                .map_err(StoreError::from)
                .and_then(|()| {
                    let w = Writer {
                        conn: &conn,
                        titles: ids_only,
                        now: clock.now(),
                    };
                    w.record_damaged_log(&log, found_at)
                })
                .and_then(|()| Ok(conn.execute_batch("COMMIT")?));
            if listed.is_err() {
                let _ = conn.execute_batch("ROLLBACK");
            }
            (log, listed.err().map(|e| e.to_string()))
        });
        let started = Instant::now();
        Ok(Store {
            conn: Mutex::new(conn),
            _open_here: open_here,
            path: path.to_path_buf(),
            found_log,
            clock,
            writes: AtomicU64::new(0),
            merge: Mutex::new(MergeState {
                seen_writes: 0,
                seen_at: started,
                merged_writes: 0,
                merged_at: started,
            }),
            job_results_bytes: AtomicU64::new(JOB_RESULTS_BYTES),
            job_result_bytes: AtomicU64::new(JOB_RESULT_BYTES as u64),
            cache_bytes: AtomicU64::new(CACHE_BYTES),
            _server_lock: None,
            titles: OnceLock::new(),
        })
    }

    /// The write-ahead log found damaged when this store opened the database
    /// (kept aside, and listed by [`Store::damaged`]), with the reason it could
    /// not be listed in the database when it could not (a full disk).
    pub fn damaged_log(&self) -> Option<(&DamagedLog, Option<&str>)> {
        self.found_log
            .as_ref()
            .map(|(log, unlisted)| (log, unlisted.as_deref()))
    }

    /// How the wall clock moved since the database was last used, when that
    /// time was not counted as passed (`clock.rs`): said at start-up.
    pub fn clock_jump(&self) -> Option<ClockJump> {
        self.clock.jump()
    }

    /// Store time now: seconds that a wrong wall clock cannot move
    /// (`clock.rs`).
    pub fn store_time(&self) -> i64 {
        self.clock.now()
    }

    /// Merges the write-ahead log into the database file (SQLite's passive
    /// checkpoint) when it is due: changes were written since the last merge,
    /// and none for [`MERGE_WHEN_IDLE`] or the last merge is
    /// [`MERGE_AT_LEAST_EVERY`] old. A server calls this a few times a second,
    /// so that acknowledged changes reach the database file itself within
    /// seconds and a log damaged later costs at most those. True when it merged.
    /// It also records the clock's reading once a minute (`clock.rs`), so that
    /// the time a server ran counts at its next start.
    pub fn merge_log_if_due(&self) -> Result<bool> {
        self.clock.note_if_due(&self.lock())?;
        let at = Instant::now();
        let writes = self.writes.load(Ordering::Acquire);
        let mut m = self.merge.lock().unwrap_or_else(|p| p.into_inner());
        if writes != m.seen_writes {
            m.seen_writes = writes;
            m.seen_at = at;
        }
        let due = at.duration_since(m.seen_at) >= MERGE_WHEN_IDLE
            || at.duration_since(m.merged_at) >= MERGE_AT_LEAST_EVERY;
        if writes == m.merged_writes || !due {
            return Ok(false);
        }
        self.merge_log()?;
        m.merged_writes = writes;
        m.merged_at = at;
        Ok(true)
    }

    /// Merges the write-ahead log into the database file now (a passive
    /// checkpoint: it copies what no reader still needs and waits for no one).
    pub fn merge_log(&self) -> Result<()> {
        let conn = self.lock();
        conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
        Ok(())
    }

    /// Names games by their titles in the store's words from now on (a damaged
    /// row says "the tally of Tic-tac-toe", not of `tictactoe`); the first call
    /// counts, later ones are ignored.
    pub fn set_game_titles(&self, titles: GameTitles) {
        let _ = self.titles.set(titles);
    }

    fn titles(&self) -> GameTitles {
        self.titles.get().copied().unwrap_or(ids_only)
    }

    /// Sets the disk budgets: all job results together, one job result, and the
    /// solver cache (defaults [`JOB_RESULTS_BYTES`], [`JOB_RESULT_BYTES`],
    /// [`CACHE_BYTES`]).
    pub fn set_budgets(&self, job_results: u64, job_result: u64, cache: u64) {
        self.job_results_bytes.store(job_results, Ordering::Relaxed);
        self.job_result_bytes.store(job_result, Ordering::Relaxed);
        self.cache_bytes.store(cache, Ordering::Relaxed);
    }

    pub(crate) fn job_budget(&self) -> (u64, usize) {
        (
            self.job_results_bytes.load(Ordering::Relaxed),
            self.job_result_bytes.load(Ordering::Relaxed) as usize,
        )
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a half-done transaction behind
        // (dropping a rusqlite transaction rolls it back), so the connection is fine.
        self.conn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `f` in one IMMEDIATE transaction: all its writes commit together, or
    /// none does if it returns an error.
    pub fn write<T>(&self, f: impl FnOnce(&Writer<'_>) -> Result<T>) -> Result<T> {
        let mut conn = self.lock();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| error::in_words(e, &self.path))?;
        let out = f(&Writer {
            conn: &tx,
            titles: self.titles(),
            now: self.clock.now(),
        })
        .map_err(|e| match e {
            StoreError::Sqlite(e) => error::in_words(e, &self.path),
            other => other,
        })?;
        tx.commit().map_err(|e| error::in_words(e, &self.path))?;
        self.writes.fetch_add(1, Ordering::Release);
        Ok(out)
    }

    /// Runs read-only queries.
    pub fn read<T>(&self, f: impl FnOnce(&Reader<'_>) -> Result<T>) -> Result<T> {
        let conn = self.lock();
        f(&Reader {
            conn: &conn,
            titles: self.titles(),
        })
    }

    /// `PRAGMA integrity_check`: `"ok"` for a sound database.
    pub fn integrity_check(&self) -> Result<String> {
        let conn = self.lock();
        let rows: Vec<String> = conn
            .prepare("PRAGMA integrity_check")?
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<std::result::Result<_, _>>()?;
        Ok(rows.join("\n"))
    }

    /// The schema version (`PRAGMA user_version`).
    pub fn schema_version(&self) -> Result<u32> {
        Ok(self
            .lock()
            .query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }

    /// A cached solver result. A cached value that cannot be read (not bytes)
    /// is a miss: the result is computed again and written over it.
    pub fn cache_get(&self, key: &str) -> Result<Option<Vec<u8>>> {
        let conn = self.lock();
        Ok(conn
            .query_row(
                "SELECT value FROM solver_cache WHERE key = ?1",
                [key],
                |r| Ok(r.get::<_, Vec<u8>>(0).ok()),
            )
            .optional()?
            .flatten())
    }

    /// Every row of the database that cannot be read, in words, and the
    /// write-ahead logs found damaged at start-ups: saved games,
    /// tallies, learned states, best results, settings, live games and job
    /// results, with the rows set aside. (The solver cache is left out: a
    /// damaged cached result is only computed again.)
    pub fn damaged(&self) -> Result<Vec<DamagedRow>> {
        let mut all = self.read(|r| r.damaged_logs())?;
        all.extend(self.list_saved(None)?.damaged);
        all.extend(self.tallies(None)?.damaged);
        all.extend(self.learned_list(None)?.damaged);
        all.extend(self.damaged_best()?);
        all.extend(self.read(|r| r.all_settings())?.damaged);
        all.extend(self.read(|r| r.damaged_sessions())?);
        all.extend(self.damaged_jobs()?);
        Ok(all)
    }

    /// Stores a solver result. The cache keeps at most [`CACHE_ENTRIES`] results
    /// and [`CACHE_BYTES`] bytes (the oldest go first); a result larger than a
    /// quarter of that is not kept.
    pub fn cache_put(&self, key: &str, value: &[u8]) -> Result<()> {
        if key.is_empty() || key.len() > 4096 {
            return Err(StoreError::Invalid("cache keys are 1 to 4096 bytes".into()));
        }
        let budget = self.cache_bytes.load(Ordering::Relaxed);
        if value.len() as u64 > budget / 4 {
            return Ok(());
        }
        self.write(|w| {
            w.conn.execute(
                "INSERT INTO solver_cache (key, value, created_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value, created_at = excluded.created_at",
                rusqlite::params![key, value, now()],
            )?;
            w.conn.execute(
                "DELETE FROM solver_cache WHERE key IN (
                   SELECT key FROM (
                     SELECT key,
                       ROW_NUMBER() OVER (ORDER BY created_at DESC, rowid DESC) AS n,
                       SUM(length(value) + length(key)) OVER (ORDER BY created_at DESC, rowid DESC) AS total
                     FROM solver_cache)
                   WHERE n > ?1 OR total > ?2)",
                rusqlite::params![CACHE_ENTRIES as i64, budget as i64],
            )?;
            Ok(())
        })
    }

    /// Bytes held by the solver cache (keys and values).
    pub fn cache_bytes(&self) -> Result<u64> {
        let conn = self.lock();
        let n: i64 = conn.query_row(
            "SELECT COALESCE(SUM(length(value) + length(key)), 0) FROM solver_cache",
            [],
            |r| r.get(0),
        )?;
        Ok(n as u64)
    }
}

/// How many solver results the cache keeps.
pub const CACHE_ENTRIES: usize = 1000;
/// How many bytes of solver results the cache keeps (64 MiB).
pub const CACHE_BYTES: u64 = 64 << 20;

/// Creates the folder of a database file if needed.
fn create_parent(path: &Path) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| {
            StoreError::Io(format!("cannot create the folder {}: {e}", dir.display()))
        })?;
    }
    Ok(())
}

fn configure(conn: &Connection) -> Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    let mode: String = conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::Io(format!(
            "the database cannot use WAL mode (journal mode is {mode})"
        )));
    }
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "wal_autocheckpoint", MERGE_AT_PAGES)?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(())
}

/// Seconds since the Unix epoch.
pub(crate) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
pub(crate) mod test_util {
    use super::Store;

    pub fn temp_store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(&dir.path().join("sub").join("t.db")).expect("open");
        (dir, store)
    }
}

#[cfg(test)]
mod tests {
    use super::test_util::temp_store;
    use super::*;

    #[test]
    fn opens_with_wal_foreign_keys_and_normal_sync() {
        let (_dir, store) = temp_store();
        assert!(store.path().exists(), "the file and its folder are created");
        let conn = store.lock();
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode.to_lowercase(), "wal");
        let fk: i64 = conn
            .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
            .unwrap();
        assert_eq!(fk, 1);
        let sync: i64 = conn
            .query_row("PRAGMA synchronous", [], |r| r.get(0))
            .unwrap();
        assert_eq!(sync, 1, "NORMAL is 1");
    }

    #[test]
    fn reopening_keeps_data_and_schema() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.db");
        {
            let s = Store::open(&path).unwrap();
            s.cache_put("k", b"v").unwrap();
        }
        let s = Store::open(&path).unwrap();
        assert_eq!(
            s.schema_version().unwrap() as usize,
            migrations::MIGRATIONS.len()
        );
        assert_eq!(s.cache_get("k").unwrap().as_deref(), Some(&b"v"[..]));
        assert_eq!(s.integrity_check().unwrap(), "ok");
    }

    #[test]
    fn the_solver_cache_is_bounded_in_bytes() {
        let (_d, s) = temp_store();
        s.set_budgets(JOB_RESULTS_BYTES, JOB_RESULT_BYTES as u64, 10_000);
        for i in 0..20 {
            s.cache_put(&format!("k{i}"), &[7u8; 2000]).unwrap();
        }
        assert!(s.cache_bytes().unwrap() <= 10_000);
        assert_eq!(s.cache_get("k0").unwrap(), None, "the oldest went first");
        assert!(s.cache_get("k19").unwrap().is_some());
        // Too large for the cache: not kept, not an error.
        s.cache_put("huge", &[1u8; 3000]).unwrap();
        assert_eq!(s.cache_get("huge").unwrap(), None);
    }

    #[test]
    fn one_server_per_database_and_the_lock_goes_with_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.db");
        let first = Store::open_exclusive(&path).unwrap();
        let again = Store::open_exclusive(&path);
        assert!(
            matches!(&again, Err(StoreError::InUse { .. })),
            "a second server is refused"
        );
        let message = again.err().unwrap().to_string();
        assert!(message.contains("already using"), "{message}");
        // Plain opens (the CLI saving a game) share the database.
        let plain = Store::open(&path).unwrap();
        plain.cache_put("k", b"v").unwrap();
        assert_eq!(first.cache_get("k").unwrap().as_deref(), Some(&b"v"[..]));
        drop(plain);
        drop(first);
        // Released with the store that held it.
        Store::open_exclusive(&path).unwrap();
    }

    /// The lock is the database file's own: another name for the same file (a
    /// symlink, a hard link, a path through `..`) meets it, and there is no
    /// lock file to delete.
    #[cfg(unix)]
    #[test]
    fn the_lock_is_on_the_file_whatever_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.db");
        let first = Store::open_exclusive(&path).unwrap();
        let symlink = dir.path().join("symlink.db");
        std::os::unix::fs::symlink(&path, &symlink).unwrap();
        let hard = dir.path().join("hard.db");
        std::fs::hard_link(&path, &hard).unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let dotted = dir.path().join("sub").join("..").join("a.db");
        for other in [&symlink, &hard, &dotted] {
            assert!(
                matches!(Store::open_exclusive(other), Err(StoreError::InUse { .. })),
                "{}",
                other.display()
            );
        }
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            !names.iter().any(|n| n.ends_with(".lock")),
            "no lock file: {names:?}"
        );
        drop(first);
        Store::open_exclusive(&hard).unwrap();
    }

    /// One damaged row in each table: each is listed once, in words, and a
    /// damaged cached result is a miss that the next result replaces.
    #[test]
    fn every_damaged_row_is_listed_once() {
        use crate::sessions::tests::record;
        let (_dir, s) = temp_store();
        let r = record("tictactoe", &["5"]);
        s.save_game(Some("kept"), &r, None).unwrap();
        s.save_game(Some("broken"), &r, None).unwrap();
        let delta = TallyDelta {
            wins: vec![1, 0],
            cat: 0,
            games: 1,
        };
        s.add_tally("tictactoe", "", &["a".into(), "b".into()], &delta)
            .unwrap();
        let key = LearnedKey {
            game: "tictactoe".into(),
            variant: "".into(),
            seat: 1,
            player: "matchbox".into(),
        };
        s.put_learned(&key, &serde_json::json!({"games": 1}))
            .unwrap();
        s.add_best("samegame", "", Metric::Score, 5, "human")
            .unwrap();
        s.put_settings("nim", &serde_json::json!({"legend": true}))
            .unwrap();
        s.insert_session("live", &r).unwrap();
        s.job_finished("job", "solve", &JobState::Done(serde_json::json!(1)))
            .unwrap();
        s.cache_put("k", b"v").unwrap();
        assert!(s.damaged().unwrap().is_empty());
        s.write(|w| {
            for sql in [
                "UPDATE saved_games SET players = 'x' WHERE name = 'broken'",
                "UPDATE tallies SET wins = 'x'",
                "UPDATE learned SET state = 'x'",
                "UPDATE best SET value = 'x'",
                "UPDATE settings SET json = 'x'",
                "UPDATE sessions SET record = 'x'",
                "UPDATE job_results SET body = 'x'",
                "UPDATE solver_cache SET value = 'text, not bytes'",
            ] {
                w.conn.execute(sql, [])?;
            }
            Ok(())
        })
        .unwrap();
        let damaged = s.damaged().unwrap();
        let words: Vec<&str> = damaged.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(damaged.len(), 7, "{words:#?}");
        assert!(
            words.iter().all(|w| w.contains(" cannot be read: its ")),
            "{words:#?}"
        );
        assert_eq!(s.cache_get("k").unwrap(), None, "a miss");
        s.cache_put("k", b"again").unwrap();
        assert_eq!(s.cache_get("k").unwrap().as_deref(), Some(&b"again"[..]));
        assert_eq!(s.list_saved(None).unwrap().rows.len(), 1);
    }

    #[test]
    fn cache_round_trips_and_overwrites() {
        let (_dir, s) = temp_store();
        assert_eq!(s.cache_get("missing").unwrap(), None);
        s.cache_put("solve:x", b"one").unwrap();
        s.cache_put("solve:x", b"two").unwrap();
        assert_eq!(
            s.cache_get("solve:x").unwrap().as_deref(),
            Some(&b"two"[..])
        );
        assert!(s.cache_put("", b"x").is_err());
    }

    #[test]
    fn failed_write_rolls_back_everything() {
        let (_dir, s) = temp_store();
        let r: Result<()> = s.write(|w| {
            w.put_settings("g", &serde_json::json!({"legend": true}))?;
            Err(StoreError::Invalid("boom".into()))
        });
        assert!(r.is_err());
        assert_eq!(s.settings("g").unwrap(), None);
    }

    #[test]
    fn sql_metacharacters_are_plain_data() {
        let (_dir, s) = temp_store();
        let key = "x'); DROP TABLE solver_cache; --";
        s.cache_put(key, b"v").unwrap();
        assert_eq!(s.cache_get(key).unwrap().as_deref(), Some(&b"v"[..]));
        assert_eq!(s.integrity_check().unwrap(), "ok");
    }
}
