//! Tables kept on disk between runs, for every game whose table is worth keeping.
//!
//! A game that solves a large table once (Kono's 38.7 million positions take
//! tens of seconds) keeps it in one file of the cache directory and reads it
//! back on the next run instead of solving again. One place does this for every
//! game, so every cache file is checked the same way:
//!
//! * The directory is `$TABULA_CACHE_DIR` when set, else the platform's cache
//!   directory and `tabula` (`~/.cache/tabula` on Linux).
//! * A file holds one table under a name and a version the game chooses (it
//!   bumps the version whenever its encoding, index or results change). Layout:
//!   the magic `TABCACHE`, the layout's own version (u32 LE), the game's version
//!   (u32 LE), the name's length (u16 LE) and bytes, the payload's length (u64
//!   LE), the SHA-256 of all of that and the payload, then the payload.
//! * A file is trusted only when all of that matches what the reader expects
//!   and the digest is right; anything else (damaged, cut short, another
//!   version, another table) is ignored, so the game builds the table again and
//!   writes it over the bad file. Files are written to a temporary name and
//!   renamed, so a reader never sees half a file.
//! * The directory is bounded in bytes ([`DEFAULT_CACHE_DIR_BYTES`]): writing a
//!   table deletes the least recently written tables first, and a table larger
//!   than the bound is not written at all.

use sha2::{Digest, Sha256};
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The most bytes the cache directory's tables may take together: 1 GiB.
pub const DEFAULT_CACHE_DIR_BYTES: u64 = 1 << 30;

const MAGIC: &[u8; 8] = b"TABCACHE";
/// The version of the file layout itself (not of any table in it).
const LAYOUT: u32 = 1;
const DIGEST: usize = 32;
const EXTENSION: &str = "table";
/// Longest table name accepted: it is also the file's name.
const MAX_NAME: usize = 100;

/// Why a table was not read from or written to the cache.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// There is no file for this table (yet).
    #[error("no cached table")]
    Missing,
    /// The file is not the table asked for, or is damaged: it is ignored.
    #[error("the cached table {name} cannot be used: {reason}")]
    Unusable {
        /// The table's name.
        name: String,
        /// What was wrong, in plain words.
        reason: String,
    },
    /// A table name that cannot be a file name.
    #[error("'{0}' cannot name a cached table (letters, digits, '-' and '_' only)")]
    BadName(String),
    /// The table is larger than the whole cache may hold, so it is not kept.
    #[error("the table takes {needed} bytes, more than the {limit} the cache may hold")]
    TooLarge {
        /// The file's size.
        needed: u64,
        /// The cache's bound.
        limit: u64,
    },
    /// The file system refused.
    #[error("the cache directory cannot be used: {0}")]
    Io(#[from] std::io::Error),
}

/// Tables built but not kept on disk, in words, until a program says them.
static UNKEPT: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

impl CacheError {
    /// Why a table could not be kept or read, in words: what the system
    /// said without its error number ("the disk is full").
    pub fn reason(&self) -> String {
        let CacheError::Io(e) = self else {
            return self.to_string();
        };
        #[cfg(unix)]
        if e.raw_os_error() == Some(ENOSPC) {
            return "the disk is full".into();
        }
        match e.kind() {
            std::io::ErrorKind::PermissionDenied => "permission denied".into(),
            _ => {
                let text = e.to_string();
                match text.find(" (os error ") {
                    Some(at) => text[..at].to_string(),
                    None => text,
                }
            }
        }
    }
}

/// The system's number for "no space left on device" (Linux, the BSDs and
/// macOS alike).
#[cfg(unix)]
const ENOSPC: i32 = 28;

/// A directory of cached tables, bounded in bytes.
#[derive(Clone, Debug)]
pub struct DiskCache {
    dir: PathBuf,
    max_bytes: u64,
}

impl DiskCache {
    /// The usual directory: `$TABULA_CACHE_DIR` when set and not empty, else the
    /// platform's cache directory and `tabula`; `None` when there is neither.
    pub fn default_dir() -> Option<PathBuf> {
        match std::env::var_os("TABULA_CACHE_DIR") {
            Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
            _ => dirs::cache_dir().map(|d| d.join("tabula")),
        }
    }

    /// The cache in [`DiskCache::default_dir`], within [`DEFAULT_CACHE_DIR_BYTES`].
    pub fn open_default() -> Option<DiskCache> {
        Self::default_dir().map(|dir| DiskCache::new(dir, DEFAULT_CACHE_DIR_BYTES))
    }

    /// A cache in `dir` (created when a table is first written), its tables
    /// within `max_bytes` together.
    pub fn new(dir: impl Into<PathBuf>, max_bytes: u64) -> DiskCache {
        DiskCache {
            dir: dir.into(),
            max_bytes,
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file that holds table `name` at `version`.
    pub fn path(&self, name: &str, version: u32) -> Result<PathBuf, CacheError> {
        check_name(name)?;
        Ok(self.dir.join(format!("{name}-v{version}.{EXTENSION}")))
    }

    /// The size of the file that holds a payload of `payload` bytes.
    pub fn file_bytes(name: &str, payload: u64) -> u64 {
        header_len(name) as u64 + DIGEST as u64 + payload
    }

    /// Whether a file of the right size for table `name` at `version` with a
    /// payload of `payload` bytes is there (it may still fail its check).
    pub fn looks_present(&self, name: &str, version: u32, payload: u64) -> bool {
        self.path(name, version)
            .ok()
            .and_then(|p| fs::metadata(p).ok())
            .is_some_and(|m| m.is_file() && m.len() == Self::file_bytes(name, payload))
    }

    /// Reads table `name` at `version`, whose payload takes at most `max_payload`
    /// bytes (a longer file is refused before it is read): its payload, only
    /// when the file is exactly what [`DiskCache::store`] wrote for it.
    pub fn load(&self, name: &str, version: u32, max_payload: u64) -> Result<Vec<u8>, CacheError> {
        let path = self.path(name, version)?;
        let unusable = |reason: &str| CacheError::Unusable {
            name: name.to_string(),
            reason: reason.to_string(),
        };
        let file = match fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(CacheError::Missing),
            Err(e) => return Err(e.into()),
        };
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(unusable("it is not a regular file"));
        }
        let expected_head = header(name, version, 0);
        let fixed = expected_head.len() as u64 + DIGEST as u64;
        if meta.len() < fixed || meta.len() - fixed > max_payload {
            return Err(unusable("it has the wrong size"));
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        // One byte past the size checked, to notice a file that grew meanwhile.
        file.take(meta.len() + 1).read_to_end(&mut bytes)?;
        if bytes.len() as u64 != meta.len() {
            return Err(unusable("it changed while it was read"));
        }
        let head_len = expected_head.len();
        let len_at = head_len - 8;
        // Everything before the payload's length must be what this reader
        // would write: the magic, both versions and the name.
        if bytes[..len_at] != expected_head[..len_at] {
            return Err(unusable("it is another table or another version"));
        }
        let mut len = [0u8; 8];
        len.copy_from_slice(&bytes[len_at..head_len]);
        let payload_len = u64::from_le_bytes(len);
        if payload_len != meta.len() - fixed {
            return Err(unusable("it is cut short or too long"));
        }
        let (head, rest) = bytes.split_at(head_len);
        let (digest, payload) = rest.split_at(DIGEST);
        if digest != digest_of(head, payload).as_slice() {
            return Err(unusable("it is damaged (its checksum does not match)"));
        }
        let at = head_len + DIGEST;
        bytes.drain(..at);
        Ok(bytes)
    }

    /// The table `name` at `version` read from `disk` when a file there holds one
    /// that `decode` accepts, else made by `build` and written there with
    /// `encode` (a missing, damaged or outdated file is built again and
    /// rewritten; a table the cache cannot take is still returned). Also says
    /// whether it came from the disk.
    pub fn load_or_build<T, E>(
        disk: Option<&DiskCache>,
        name: &str,
        version: u32,
        max_payload: u64,
        decode: impl FnOnce(&[u8]) -> Option<T>,
        build: impl FnOnce() -> Result<T, E>,
        encode: impl FnOnce(&T) -> Option<Vec<u8>>,
    ) -> Result<(T, bool), E> {
        let read = disk
            .and_then(|d| d.load(name, version, max_payload).ok())
            .and_then(|payload| decode(&payload));
        if let Some(table) = read {
            return Ok((table, true));
        }
        let table = build()?;
        if let Some((d, payload)) = disk.zip(encode(&table)) {
            // Not kept on disk (a full or read-only directory): built again
            // next run, and said by whoever runs the program
            // ([`DiskCache::take_unkept`]).
            if let Err(e) = d.store(name, version, &payload) {
                let words = format!(
                    "the solved table {name} could not be kept in the folder {}: {}; it will be worked out again next time",
                    d.dir.display(),
                    e.reason()
                );
                UNKEPT.lock().unwrap_or_else(|p| p.into_inner()).push(words);
            }
        }
        Ok((table, false))
    }

    /// The tables this process built but could not keep on disk since the
    /// last call, each in words (the folder and why: "the disk is full"): a
    /// program says them when its answer is given, which is right all the same.
    pub fn take_unkept() -> Vec<String> {
        std::mem::take(&mut *UNKEPT.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// Writes table `name` at `version`, replacing any earlier file, after
    /// deleting the least recently written other tables the bound needs.
    /// Returns the file written.
    pub fn store(&self, name: &str, version: u32, payload: &[u8]) -> Result<PathBuf, CacheError> {
        let path = self.path(name, version)?;
        let needed = Self::file_bytes(name, payload.len() as u64);
        if needed > self.max_bytes {
            return Err(CacheError::TooLarge {
                needed,
                limit: self.max_bytes,
            });
        }
        fs::create_dir_all(&self.dir)?;
        self.make_room(needed, &path)?;
        let head = header(name, version, payload.len() as u64);
        let digest = digest_of(&head, payload);
        let tmp = self
            .dir
            .join(format!(".{name}-v{version}.tmp{}", std::process::id()));
        let written = (|| {
            let mut f = fs::File::create(&tmp)?;
            f.write_all(&head)?;
            f.write_all(digest.as_slice())?;
            f.write_all(payload)?;
            f.sync_all()?;
            fs::rename(&tmp, &path)
        })();
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(e.into());
        }
        Ok(path)
    }

    /// Deletes the oldest tables (not `keep`) until `needed` more bytes fit.
    fn make_room(&self, needed: u64, keep: &Path) -> Result<(), CacheError> {
        let mut tables: Vec<(std::time::SystemTime, u64, PathBuf)> = fs::read_dir(&self.dir)?
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == EXTENSION))
            .filter(|e| e.path() != keep)
            .filter_map(|e| {
                let m = e.metadata().ok()?;
                if !m.is_file() {
                    return None;
                }
                Some((m.modified().ok()?, m.len(), e.path()))
            })
            .collect();
        let mut held: u64 = tables.iter().map(|t| t.1).sum();
        tables.sort();
        for (_, len, path) in tables {
            if held.saturating_add(needed) <= self.max_bytes {
                break;
            }
            fs::remove_file(&path)?;
            held -= len;
        }
        Ok(())
    }
}

fn check_name(name: &str) -> Result<(), CacheError> {
    let ok = !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(())
    } else {
        Err(CacheError::BadName(name.chars().take(MAX_NAME).collect()))
    }
}

fn header_len(name: &str) -> usize {
    8 + 4 + 4 + 2 + name.len() + 8
}

fn header(name: &str, version: u32, payload: u64) -> Vec<u8> {
    let mut h = Vec::with_capacity(header_len(name));
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&LAYOUT.to_le_bytes());
    h.extend_from_slice(&version.to_le_bytes());
    // Names are checked to be at most MAX_NAME bytes.
    h.extend_from_slice(&(name.len() as u16).to_le_bytes());
    h.extend_from_slice(name.as_bytes());
    h.extend_from_slice(&payload.to_le_bytes());
    h
}

fn digest_of(head: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut hasher = Sha256::new();
    hasher.update(head);
    hasher.update(payload);
    hasher.finalize().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "tabula-disk-cache-{tag}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_table_round_trips_and_every_damage_is_refused() {
        let dir = temp_dir("damage");
        let cache = DiskCache::new(&dir, 1 << 20);
        let payload: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 251) as u8).collect();
        assert!(matches!(
            cache.load("t", 1, 1 << 20),
            Err(CacheError::Missing)
        ));
        let path = cache.store("t", 1, &payload).unwrap();
        assert!(cache.looks_present("t", 1, payload.len() as u64));
        assert_eq!(cache.load("t", 1, 1 << 20).unwrap(), payload);

        // Another version, another name, a smaller bound: not this table.
        assert!(cache.load("t", 2, 1 << 20).is_err());
        assert!(cache.load("u", 1, 1 << 20).is_err());
        assert!(
            cache.load("t", 1, 100).is_err(),
            "longer than the caller allows"
        );

        let good = fs::read(&path).unwrap();
        let refused = |bytes: &[u8], what: &str| {
            fs::write(&path, bytes).unwrap();
            match cache.load("t", 1, 1 << 20) {
                Err(CacheError::Unusable { .. }) => {}
                other => panic!("{what}: {other:?}"),
            }
        };
        // Every single flipped byte, in the header, the digest and the payload.
        for at in (0..good.len())
            .step_by(97)
            .chain([0, 8, 12, 16, 20, 30, 40, good.len() - 1])
        {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            refused(&bad, &format!("byte {at} flipped"));
        }
        refused(&good[..good.len() - 1], "cut short");
        refused(&good[..10], "only a start");
        refused(&[good.clone(), vec![0]].concat(), "a byte too many");
        refused(b"", "empty");
        // Rewritten over the bad file, it is good again.
        cache.store("t", 1, &payload).unwrap();
        assert_eq!(cache.load("t", 1, 1 << 20).unwrap(), payload);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_table_that_cannot_be_kept_is_said_and_still_returned() {
        // A folder that cannot be made: its place is taken by a file.
        let blocked = temp_dir("blocked");
        fs::write(&blocked, b"a file, not a folder").unwrap();
        let cache = DiskCache::new(blocked.join("cache"), 1 << 20);
        let name = format!("unkept-{}", std::process::id());
        let (table, from_disk) = DiskCache::load_or_build(
            Some(&cache),
            &name,
            1,
            1 << 20,
            |_| None,
            || Ok::<_, ()>(vec![7u8; 100]),
            |t| Some(t.clone()),
        )
        .unwrap();
        assert_eq!((table, from_disk), (vec![7u8; 100], false));
        let said: Vec<String> = DiskCache::take_unkept()
            .into_iter()
            .filter(|w| w.contains(&name))
            .collect();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].contains("could not be kept in the folder"),
            "{}",
            said[0]
        );
        assert!(
            said[0].contains("worked out again next time"),
            "{}",
            said[0]
        );
        assert!(!said[0].contains("os error"), "{}", said[0]);
        let _ = fs::remove_file(&blocked);
    }

    /// On a full disk (a 1 MiB tmpfs, which needs root to mount: skipped,
    /// with the reason, where it cannot be) the reason is the full disk, and
    /// no partial file stays.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_is_the_reason_and_leaves_nothing_behind() {
        use std::process::Command;
        let dir = temp_dir("full");
        fs::create_dir_all(&dir).unwrap();
        match Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
            .arg(&dir)
            .output()
        {
            Ok(out) if out.status.success() => {}
            Ok(out) => {
                let why = String::from_utf8_lossy(&out.stderr);
                eprintln!("skipped: cannot mount a small tmpfs: {}", why.trim());
                return;
            }
            Err(e) => {
                eprintln!("skipped: cannot run mount: {e}");
                return;
            }
        }
        let cache = DiskCache::new(&dir, 64 << 20);
        let result = cache.store("big", 1, &vec![1u8; 2 << 20]);
        let left = fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
        let _ = Command::new("umount").arg(&dir).status();
        let reason = result.unwrap_err().reason();
        assert_eq!(reason, "the disk is full");
        assert_eq!(left, 0, "no partial file stays");
    }

    #[test]
    fn the_directory_stays_within_its_bound_oldest_first() {
        let dir = temp_dir("bound");
        let one = DiskCache::file_bytes("a", 1000);
        let cache = DiskCache::new(&dir, 2 * one + 10);
        cache.store("a", 1, &[1; 1000]).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        cache.store("b", 1, &[2; 1000]).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        cache.store("c", 1, &[3; 1000]).unwrap();
        assert!(
            matches!(cache.load("a", 1, 1 << 20), Err(CacheError::Missing)),
            "the oldest went"
        );
        assert_eq!(cache.load("b", 1, 1 << 20).unwrap(), vec![2; 1000]);
        assert_eq!(cache.load("c", 1, 1 << 20).unwrap(), vec![3; 1000]);
        assert!(matches!(
            cache.store("d", 1, &vec![0; 3 * 1000]),
            Err(CacheError::TooLarge { .. })
        ));
        assert!(
            cache.load("b", 1, 1 << 20).is_ok(),
            "a refused table deletes nothing"
        );
        assert!(matches!(
            cache.store("../x", 1, b"x"),
            Err(CacheError::BadName(_))
        ));
        fs::remove_dir_all(&dir).unwrap();
    }
}
