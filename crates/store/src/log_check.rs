//! A damaged write-ahead log, found before SQLite opens the database.
//!
//! SQLite replays its log (`<db>-wal`) at the first open after a crash, frame by
//! frame, and stops at the first frame whose salts or checksum chain do not
//! match; what follows is dropped without a word. A log cut short, zeroed or
//! overwritten while no program ran would so lose acknowledged changes in
//! silence. This module reads the log itself first (the format of SQLite's
//! "Database File Format" page, section "The WAL File Format"):
//!
//! * the log's 32-byte header (magic, page size, salts, a checksum of the
//!   header) and its frames (a 24-byte header — page number, database size
//!   after a commit, the salts, a checksum chained through every frame — and
//!   one page), to find how many frames SQLite will replay (the last commit
//!   frame of the valid prefix) and whether bytes of the current log lie
//!   beyond a break;
//! * the index SQLite keeps beside it (`<db>-shm`, which outlives a crash):
//!   its header records how many frames the log held when it was last
//!   written (`mxFrame`) and how many of them had already been copied into
//!   the database file (`nBackfill`). When the log holds fewer valid frames
//!   than that, acknowledged changes were lost, and how many is known exactly.
//!
//! A damaged log is never deleted: it is moved, or copied, into `damaged/`
//! beside the database with the time it was found, and the store says what
//! may be lost ([`DamagedLog`]). It is moved away (so SQLite starts without
//! it) where replaying its valid part would do harm: a header that SQLite
//! ignores anyway, or a valid part older than what the database file already
//! holds (replaying it would put older pages over newer ones). Otherwise it
//! is copied, and SQLite replays what can still be read.
//!
//! The check runs only while no program uses the database: a log another
//! program is writing is not at rest (SQLite's own test, a lock on the
//! index's "dead man's switch" byte, tells), and a database this process
//! already has open is skipped too (closing any descriptor of the index
//! would drop the locks SQLite holds on it).

// Unsafe code, each block with its SAFETY comment: fcntl, to ask whether another process holds the log's lock.
#![allow(unsafe_code)]

use crate::{Result, StoreError};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The log's header: magic, format, page size, checkpoint sequence, two salts,
/// two checksum words.
const HEADER_BYTES: usize = 32;
/// A frame's header: page number, database size after a commit (0 inside a
/// transaction), two salts, two checksum words.
const FRAME_HEADER_BYTES: usize = 24;
/// The only log format SQLite writes.
const FORMAT: u32 = 3_007_000;
/// The magic numbers: checksums over little- or big-endian words.
const MAGIC_LITTLE: u32 = 0x377f_0682;
const MAGIC_BIG: u32 = 0x377f_0683;
/// The index header is kept twice, 48 bytes each, then the checkpoint's
/// record whose first word is `nBackfill`.
const INDEX_HEADER_BYTES: usize = 48;
const INDEX_BYTES_READ: usize = 2 * INDEX_HEADER_BYTES + 4;
/// The index byte every connection holds a shared lock on while it uses the
/// database (SQLite's `UNIX_SHM_DMS`: 120 + 8).
#[cfg(unix)]
const IN_USE_BYTE: i64 = 128;

/// A damaged log found at start-up, and what may be lost with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DamagedLog {
    /// Pages of acknowledged changes that could not be read back.
    pub pages_lost: u64,
    /// The same in bytes of the log.
    pub bytes_lost: u64,
    /// True when the index beside the log said how much it held, so the loss
    /// is known exactly; false when only the log's own state tells (a loss
    /// that "may" have happened).
    pub exact: bool,
    /// Where the damaged log is kept (never deleted); `None` when there was no
    /// log file left to keep.
    pub kept_as: Option<PathBuf>,
    /// What was wrong with it, in words.
    pub problem: String,
}

impl DamagedLog {
    /// The whole finding in words, for the start-up and `GET /api/damaged`.
    pub fn message(&self) -> String {
        let kept = match &self.kept_as {
            Some(p) => format!("the damaged log is kept as {}", p.display()),
            None => "there was no log file left to keep".to_string(),
        };
        format!(
            "The database's write-ahead log was found damaged when the database was opened ({}): {}; {kept}",
            self.problem,
            self.loss_words()
        )
    }

    /// What may be lost, in words.
    pub fn loss_words(&self) -> String {
        if self.pages_lost == 0 {
            return "no acknowledged change is lost, everything in it had already reached the database file".into();
        }
        let size = tabula_core::format_bytes(self.bytes_lost);
        let pages = self.pages_lost;
        if self.exact {
            format!(
                "{size} of acknowledged changes ({pages} database pages) written since the log was last merged into the database could not be read back and are lost"
            )
        } else {
            format!(
                "up to {size} of changes ({pages} database pages) written since the log was last merged into the database could not be read back and may be lost"
            )
        }
    }
}

/// Databases this process has open through a store, by file identity: their
/// logs are in use and are not checked (see the module's comment).
static OPEN_HERE: Mutex<Option<HashMap<FileId, usize>>> = Mutex::new(None);

/// A file's identity (device and inode on Unix; its path elsewhere).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct FileId(String);

fn file_id(path: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path).ok()?;
        Some(FileId(format!("{}:{}", m.dev(), m.ino())))
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(path)
            .ok()
            .map(|p| FileId(p.display().to_string()))
    }
}

/// Marks a database as open in this process for as long as it lives.
pub(crate) struct OpenHere(Option<FileId>);

impl OpenHere {
    pub(crate) fn mark(db: &Path) -> OpenHere {
        let id = file_id(db);
        if let Some(id) = &id {
            let mut open = OPEN_HERE.lock().unwrap_or_else(|p| p.into_inner());
            *open
                .get_or_insert_with(HashMap::new)
                .entry(id.clone())
                .or_default() += 1;
        }
        OpenHere(id)
    }
}

impl Drop for OpenHere {
    fn drop(&mut self) {
        let Some(id) = &self.0 else { return };
        let mut open = OPEN_HERE.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(map) = open.as_mut() {
            if let Some(n) = map.get_mut(id) {
                *n -= 1;
                if *n == 0 {
                    map.remove(id);
                }
            }
        }
    }
}

fn open_here(db: &Path) -> bool {
    let Some(id) = file_id(db) else { return false };
    let open = OPEN_HERE.lock().unwrap_or_else(|p| p.into_inner());
    open.as_ref().is_some_and(|m| m.contains_key(&id))
}

/// The path SQLite gives a companion file of the database (`-wal`, `-shm`).
fn companion(db: &Path, suffix: &str) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The checksum SQLite chains through the log: pairs of 32-bit words, read
/// big- or little-endian as the magic says (the index header: native order).
fn checksum(words_big: Option<bool>, data: &[u8], mut s: (u32, u32)) -> (u32, u32) {
    let word = |b: &[u8]| {
        let b = [b[0], b[1], b[2], b[3]];
        match words_big {
            Some(true) => u32::from_be_bytes(b),
            Some(false) => u32::from_le_bytes(b),
            None => u32::from_ne_bytes(b),
        }
    };
    for pair in data.chunks_exact(8) {
        s.0 = s.0.wrapping_add(word(&pair[..4])).wrapping_add(s.1);
        s.1 = s.1.wrapping_add(word(&pair[4..])).wrapping_add(s.0);
    }
    s
}

fn be(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn ne(b: &[u8], at: usize) -> u32 {
    u32::from_ne_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// What the log file holds.
#[derive(Debug, Default, PartialEq, Eq)]
struct LogScan {
    /// Bytes in the file.
    len: u64,
    /// The header's page size and salts, when the header is valid.
    page_size: Option<u32>,
    salts: [u8; 8],
    /// Frames SQLite will replay: up to the last commit of the valid prefix.
    replayed: u64,
    /// Complete frames of this log (its salts) beyond a break in the chain,
    /// or frames of zeros: bytes of the current log that cannot be replayed.
    broken_frames: u64,
    /// Bytes after the last complete frame (a frame cut short).
    partial_bytes: u64,
}

impl LogScan {
    fn frame_bytes(&self, page_size: u32) -> u64 {
        FRAME_HEADER_BYTES as u64 + page_size as u64
    }
}

fn scan_log(file: File) -> std::io::Result<LogScan> {
    let len = file.metadata()?.len();
    let mut scan = LogScan {
        len,
        ..LogScan::default()
    };
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut header = [0u8; HEADER_BYTES];
    if read_full(&mut reader, &mut header)? < HEADER_BYTES {
        return Ok(scan);
    }
    let magic = be(&header, 0);
    let page_size = be(&header, 8);
    let words_big = match magic {
        MAGIC_LITTLE => false,
        MAGIC_BIG => true,
        _ => return Ok(scan),
    };
    let sum = checksum(Some(words_big), &header[..24], (0, 0));
    if be(&header, 4) != FORMAT
        || !(512..=65536).contains(&page_size)
        || !page_size.is_power_of_two()
        || sum != (be(&header, 24), be(&header, 28))
    {
        return Ok(scan);
    }
    scan.page_size = Some(page_size);
    scan.salts.copy_from_slice(&header[16..24]);
    let mut frame = vec![0u8; FRAME_HEADER_BYTES + page_size as usize];
    let mut running = sum;
    let mut in_prefix = true;
    let mut index = 0u64;
    loop {
        let got = read_full(&mut reader, &mut frame)?;
        if got < frame.len() {
            scan.partial_bytes = got as u64;
            break;
        }
        index += 1;
        let ours = frame[8..16] == scan.salts;
        if in_prefix {
            let next = checksum(Some(words_big), &frame[..8], running);
            let next = checksum(Some(words_big), &frame[FRAME_HEADER_BYTES..], next);
            let valid = ours && be(&frame, 0) != 0 && next == (be(&frame, 16), be(&frame, 20));
            if valid {
                running = next;
                if be(&frame, 4) != 0 {
                    scan.replayed = index;
                }
                continue;
            }
            in_prefix = false;
        }
        // Beyond the break: frames of an older log (other salts) are leftovers
        // SQLite writes over as it goes; frames with this log's salts, or
        // zeros, are this log's and cannot be replayed.
        if ours || frame[..FRAME_HEADER_BYTES].iter().all(|&b| b == 0) {
            scan.broken_frames += 1;
        }
    }
    Ok(scan)
}

/// Reads until `buf` is full or the file ends; how many bytes were read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// What the index beside the log recorded when the log was last written.
#[derive(Debug, PartialEq, Eq)]
struct IndexRecord {
    /// Frames the log held, up to its last commit.
    held: u64,
    /// Frames of those already copied into the database file.
    merged: u64,
    salts: [u8; 8],
    page_size: u32,
}

/// The index header, when it is whole (both copies alike, its checksum right).
fn read_index(bytes: &[u8]) -> Option<IndexRecord> {
    if bytes.len() < INDEX_BYTES_READ {
        return None;
    }
    let (first, second) = (
        &bytes[..INDEX_HEADER_BYTES],
        &bytes[INDEX_HEADER_BYTES..2 * INDEX_HEADER_BYTES],
    );
    let sum = checksum(None, &first[..40], (0, 0));
    if first != second
        || ne(first, 0) != FORMAT
        || first[12] != 1
        || sum != (ne(first, 40), ne(first, 44))
    {
        return None;
    }
    let size = u16::from_ne_bytes([first[14], first[15]]) as u32;
    let page_size = (size & 0xff00) | ((size & 1) << 16);
    let mut salts = [0u8; 8];
    salts.copy_from_slice(&first[32..40]);
    Some(IndexRecord {
        held: ne(first, 16) as u64,
        merged: ne(bytes, 2 * INDEX_HEADER_BYTES) as u64,
        salts,
        page_size: if page_size == 0 { 4096 } else { page_size },
    })
}

/// True when another process holds the database's index open (SQLite's own
/// test: a shared lock on the index's "dead man's switch" byte).
#[cfg(unix)]
fn used_elsewhere(index: &File) -> bool {
    use std::os::unix::io::AsRawFd;
    // SAFETY: `flock` is plain data; F_GETLK only reads it back.
    let mut lock: libc::flock = unsafe { std::mem::zeroed() };
    lock.l_type = libc::F_WRLCK as _;
    lock.l_whence = libc::SEEK_SET as _;
    lock.l_start = IN_USE_BYTE as _;
    lock.l_len = 1;
    // SAFETY: a valid descriptor and a valid `flock` for the call's lifetime.
    let rc = unsafe { libc::fcntl(index.as_raw_fd(), libc::F_GETLK, &mut lock) };
    // A failed test counts as in use: the log is then left to SQLite.
    rc != 0 || i32::from(lock.l_type) != libc::F_UNLCK
}

#[cfg(not(unix))]
fn used_elsewhere(_index: &File) -> bool {
    false
}

/// The verdict on one log: whether it is damaged, what may be lost, and
/// whether SQLite must start without it.
#[derive(Debug, PartialEq, Eq)]
struct Verdict {
    pages_lost: u64,
    page_size: u32,
    exact: bool,
    move_away: bool,
    problem: String,
}

fn judge(scan: &LogScan, index: Option<&IndexRecord>, db_page_size: u32) -> Option<Verdict> {
    let header_ok = scan.page_size.is_some();
    let page_size = scan
        .page_size
        .or(index.map(|i| i.page_size))
        .unwrap_or(db_page_size);
    let frame_bytes = scan.frame_bytes(page_size);
    let header_damaged = !header_ok && scan.len > 0;
    let problem = if header_damaged {
        if scan.len < HEADER_BYTES as u64 {
            "it is cut short before the end of its header".to_string()
        } else {
            "its header is not a write-ahead log's: zeroed or written over".to_string()
        }
    } else if scan.broken_frames > 0 {
        format!(
            "its chain of checksums breaks after {} of its frames: zeroed or written over",
            scan.replayed
        )
    } else if scan.partial_bytes > 0 {
        "it ends in the middle of a frame: cut short".to_string()
    } else {
        "it is shorter than the index beside it says: cut short".to_string()
    };
    // The index, where it describes this log (or the log's header is gone).
    let index = index.filter(|i| !header_ok || i.salts == scan.salts);
    if let Some(index) = index {
        let replayed = if header_ok { scan.replayed } else { 0 };
        let lost = index.held.saturating_sub(replayed.max(index.merged));
        // Replaying a valid part older than what was already merged would
        // put older pages over newer ones in the database file.
        let harmful = header_ok && replayed < index.merged;
        if lost == 0 && !harmful {
            // Everything acknowledged can be read back (a frame cut short
            // after the last commit is a transaction a crash stopped before
            // it was acknowledged), or had already reached the database file.
            return None;
        }
        return Some(Verdict {
            pages_lost: lost,
            page_size,
            exact: true,
            move_away: header_damaged || harmful,
            problem,
        });
    }
    if !header_damaged && scan.broken_frames == 0 && scan.partial_bytes == 0 {
        return None;
    }
    let replayed_end = if header_ok {
        HEADER_BYTES as u64 + scan.replayed * frame_bytes
    } else {
        0
    };
    let beyond = scan.len.saturating_sub(replayed_end);
    Some(Verdict {
        pages_lost: beyond.div_ceil(frame_bytes),
        page_size,
        exact: false,
        move_away: header_damaged,
        problem,
    })
}

/// The page size the database file's header gives (4096 when it cannot be read).
fn db_page_size(db: &Path) -> u32 {
    let mut head = [0u8; 18];
    let read = File::open(db).and_then(|mut f| f.read_exact(&mut head));
    match read {
        Ok(()) => match u16::from_be_bytes([head[16], head[17]]) {
            1 => 65536,
            n if n >= 512 && n.is_power_of_two() => n as u32,
            _ => 4096,
        },
        Err(_) => 4096,
    }
}

/// Checks the log of the database at `db` before SQLite opens it (`now`:
/// Unix seconds, for the name of a kept copy). A damaged log is moved or
/// copied aside, never deleted; a log that cannot be kept aside stops the
/// open ([`StoreError::Io`]), since SQLite would write over it.
pub(crate) fn check(db: &Path, now: i64) -> Result<Option<DamagedLog>> {
    if !db.exists() || open_here(db) {
        return Ok(None);
    }
    let wal = companion(db, "-wal");
    let shm = companion(db, "-shm");
    let index_file = File::open(&shm).ok();
    if index_file.as_ref().is_some_and(used_elsewhere) {
        return Ok(None);
    }
    let index = index_file.and_then(|mut f| {
        let mut bytes = vec![0u8; INDEX_BYTES_READ];
        read_full(&mut f, &mut bytes)
            .ok()
            .filter(|&n| n == bytes.len())?;
        read_index(&bytes)
    });
    let scan = match File::open(&wal) {
        Ok(f) => scan_log(f).map_err(|e| {
            StoreError::Io(format!(
                "cannot read the write-ahead log {}: {e}",
                wal.display()
            ))
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => LogScan::default(),
        Err(e) => {
            return Err(StoreError::Io(format!(
                "cannot read the write-ahead log {}: {e}",
                wal.display()
            )))
        }
    };
    let Some(verdict) = judge(&scan, index.as_ref(), db_page_size(db)) else {
        return Ok(None);
    };
    let kept_as = if wal.exists() {
        Some(keep_aside(db, &wal, now, verdict.move_away)?)
    } else {
        None
    };
    Ok(Some(DamagedLog {
        pages_lost: verdict.pages_lost,
        bytes_lost: verdict.pages_lost * verdict.page_size as u64,
        exact: verdict.exact,
        kept_as,
        problem: verdict.problem,
    }))
}

/// Moves (or copies) the damaged log into `damaged/` beside the database,
/// named after the database and the time (UTC) it was found.
fn keep_aside(db: &Path, wal: &Path, now: i64, move_away: bool) -> Result<PathBuf> {
    let cannot = |what: &str, e: std::io::Error| {
        StoreError::Io(format!(
            "the database's write-ahead log {} is damaged and {what}: {e}; it was left as it is and the database was not opened, so that nothing more is lost (make room, then start again)",
            wal.display()
        ))
    };
    let folder = db
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .join("damaged");
    std::fs::create_dir_all(&folder)
        .map_err(|e| cannot("the folder to keep it in cannot be made", e))?;
    let name = wal
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "wal".into());
    let stamp = utc_stamp(now);
    let mut target = folder.join(format!("{name}.{stamp}"));
    let mut n = 1;
    while target.exists() {
        n += 1;
        target = folder.join(format!("{name}.{stamp}.{n}"));
    }
    let copied = std::fs::copy(wal, &target).and_then(|_| File::open(&target)?.sync_all());
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&target);
        return Err(cannot("cannot be copied aside", e));
    }
    if move_away {
        // The copy is whole and on the disk: the log leaves SQLite's sight.
        std::fs::remove_file(wal).map_err(|e| cannot("cannot be moved aside", e))?;
    }
    if let Ok(dir) = File::open(&folder) {
        let _ = dir.sync_all();
    }
    Ok(target)
}

/// `YYYY-MM-DD-HHMMSS` (UTC) of Unix seconds, for file names.
fn utc_stamp(unix: i64) -> String {
    let (days, secs) = (unix.div_euclid(86_400), unix.rem_euclid(86_400));
    // Days to a civil date (proleptic Gregorian), by 400-year eras.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}-{:02}{:02}{:02}",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_utc_dates() {
        assert_eq!(utc_stamp(0), "1970-01-01-000000");
        assert_eq!(utc_stamp(951_782_400), "2000-02-29-000000");
        assert_eq!(utc_stamp(1_796_687_999), "2026-12-07-235959");
    }
}
