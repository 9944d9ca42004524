//! The files of a layered solve: one per finished layer, one checkpoint of the
//! group in progress, and the solve's record (JSON).
//!
//! A layer file is a header of [`HEADER`] bytes (what it holds, and the SHA-256
//! of its values) followed by the 4-byte values, little-endian, in the layer's
//! index order. It is written under a temporary name, synced and renamed, so a
//! file with the final name is complete unless damaged later; a file whose size,
//! header or checksum does not match is never used (it is solved again).

// Unsafe code, each block with its SAFETY comment: memory-mapped layer files, read as atomics.
#![allow(unsafe_code)]

use sha2::{Digest, Sha256};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// The first bytes of every layer file.
pub const MAGIC: [u8; 8] = *b"T120LAYR";
/// The layout's version: bumped whenever the index, the encoding or the header change.
pub const VERSION: u32 = 1;
/// Bytes before the values.
pub const HEADER: usize = 64;

/// Values converted, hashed and written at a time.
const CHUNK: usize = 1 << 22;

/// Why a layer file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The file is not the layer asked for, is cut short or its values do not
    /// match their checksum.
    #[error("{path}: {why}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What does not match, in words.
        why: String,
    },
}

/// What a layer file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Markers per player.
    pub markers: u32,
    /// Retired markers of the roller and of the other.
    pub a: u32,
    pub b: u32,
    /// Sweeps done: all of them for a finished layer, so far for a checkpoint.
    pub sweeps: u32,
    /// 1 for a finished layer, 0 for a checkpoint of one in progress.
    pub finished: u32,
    /// Values.
    pub count: u64,
    /// SHA-256 of the values' bytes.
    pub sha256: [u8; 32],
}

impl Header {
    fn to_bytes(self) -> [u8; HEADER] {
        let mut h = [0u8; HEADER];
        h[..8].copy_from_slice(&MAGIC);
        for (i, w) in [
            VERSION,
            self.markers,
            self.a,
            self.b,
            self.sweeps,
            self.finished,
        ]
        .into_iter()
        .enumerate()
        {
            h[8 + 4 * i..12 + 4 * i].copy_from_slice(&w.to_le_bytes());
        }
        h[32..40].copy_from_slice(&self.count.to_le_bytes());
        // 40..64: the checksum's first 24 bytes would not do; it has its own place.
        h
    }

    fn from_bytes(h: &[u8; HEADER], sha: [u8; 32]) -> Option<Header> {
        if h[..8] != MAGIC {
            return None;
        }
        let word = |i: usize| {
            u32::from_le_bytes([h[8 + 4 * i], h[9 + 4 * i], h[10 + 4 * i], h[11 + 4 * i]])
        };
        if word(0) != VERSION {
            return None;
        }
        let mut c = [0u8; 8];
        c.copy_from_slice(&h[32..40]);
        Some(Header {
            markers: word(1),
            a: word(2),
            b: word(3),
            sweeps: word(4),
            finished: word(5),
            count: u64::from_le_bytes(c),
            sha256: sha,
        })
    }
}

/// Bytes of the file of a layer of `count` values: the header, the checksum
/// (after the header, 32 bytes, padded to keep the values 8-byte aligned) and
/// the values.
pub fn file_bytes(count: u64) -> u64 {
    HEADER as u64 + 64 + count * 4
}

/// Where the values start in a layer file.
pub const VALUES_AT: u64 = HEADER as u64 + 64;

/// The finished layer (a, b)'s file in `dir`.
pub fn layer_path(dir: &Path, a: usize, b: usize) -> PathBuf {
    dir.join(format!("layer-{a}-{b}.bin"))
}

/// The checkpoint of layer (a, b) while its group is being solved.
pub fn checkpoint_path(dir: &Path, a: usize, b: usize) -> PathBuf {
    dir.join(format!("checkpoint-{a}-{b}.bin"))
}

/// The solve's record.
pub fn record_path(dir: &Path) -> PathBuf {
    dir.join("solve.json")
}

/// Writes `values` as layer (a, b) to `path` (through a temporary file, synced,
/// then renamed over it).
pub fn write_layer(path: &Path, mut header: Header, values: &[AtomicU32]) -> Result<(), FileError> {
    let tmp = path.with_extension("tmp");
    let mut f = File::create(&tmp)?;
    header.count = values.len() as u64;
    f.write_all(&header.to_bytes())?;
    f.write_all(&[0u8; 64])?;
    let mut hash = Sha256::new();
    let mut buf = Vec::with_capacity(CHUNK * 4);
    for chunk in values.chunks(CHUNK) {
        buf.clear();
        buf.extend(chunk.iter().flat_map(|v| v.load(Relaxed).to_le_bytes()));
        hash.update(&buf);
        f.write_all(&buf)?;
    }
    let sha: [u8; 32] = hash.finalize().into();
    f.seek(SeekFrom::Start(HEADER as u64))?;
    f.write_all(&sha)?;
    f.sync_all()?;
    drop(f);
    std::fs::rename(&tmp, path)?;
    if let Some(dir) = path.parent() {
        // The rename itself reaches the disk.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// Reads the header of `path` (without checking the values).
pub fn read_header(path: &Path) -> Result<Header, FileError> {
    let mut f = File::open(path)?;
    let mut h = [0u8; HEADER];
    let mut sha = [0u8; 32];
    f.read_exact(&mut h)?;
    f.read_exact(&mut sha)?;
    let damaged = |why: &str| FileError::Damaged {
        path: path.to_path_buf(),
        why: why.into(),
    };
    let header =
        Header::from_bytes(&h, sha).ok_or_else(|| damaged("not a layer file of this version"))?;
    let len = f.metadata()?.len();
    if len != file_bytes(header.count) {
        return Err(damaged("its length does not match its header (cut short?)"));
    }
    Ok(header)
}

/// Checks that `path` holds layer (a, b) of `markers` with `count` values, and
/// that they match their checksum; copies them into `into` when given.
pub fn check_layer(
    path: &Path,
    markers: usize,
    (a, b): (usize, usize),
    count: u64,
    finished: bool,
    into: Option<&[AtomicU32]>,
) -> Result<Header, FileError> {
    let header = read_header(path)?;
    let damaged = |why: &str| FileError::Damaged {
        path: path.to_path_buf(),
        why: why.into(),
    };
    if (
        header.markers,
        header.a,
        header.b,
        header.count,
        header.finished,
    ) != (markers as u32, a as u32, b as u32, count, finished as u32)
    {
        return Err(damaged("it holds another layer"));
    }
    let mut f = OpenOptions::new().read(true).open(path)?;
    f.seek(SeekFrom::Start(VALUES_AT))?;
    let mut hash = Sha256::new();
    let mut buf = vec![0u8; CHUNK * 4];
    let mut at = 0usize;
    let mut left = count as usize;
    while left > 0 {
        let n = left.min(CHUNK);
        f.read_exact(&mut buf[..n * 4])?;
        hash.update(&buf[..n * 4]);
        if let Some(into) = into {
            for (slot, c) in into[at..at + n].iter().zip(buf[..n * 4].chunks_exact(4)) {
                slot.store(u32::from_le_bytes([c[0], c[1], c[2], c[3]]), Relaxed);
            }
        }
        at += n;
        left -= n;
    }
    let sha: [u8; 32] = hash.finalize().into();
    if sha != header.sha256 {
        return Err(damaged("its values do not match their checksum"));
    }
    Ok(header)
}

/// A finished layer file mapped into memory, read only: its pages are the
/// system's file cache, which the system can drop and read again under memory
/// pressure rather than run out.
pub struct MappedLayer {
    map: memmap2::Mmap,
    count: usize,
}

impl MappedLayer {
    /// Maps the finished layer (a, b) of `markers` in `path` after checking
    /// it ([`check_layer`]).
    pub fn open(
        path: &Path,
        markers: usize,
        (a, b): (usize, usize),
        count: u64,
    ) -> Result<MappedLayer, FileError> {
        check_layer(path, markers, (a, b), count, true, None)?;
        let file = File::open(path)?;
        // Only read; a solve replaces a layer file by renaming a new one over
        // it, never by writing into it.
        let map = unsafe { memmap2::Mmap::map(&file) }?;
        if map.len() as u64 != file_bytes(count) {
            return Err(FileError::Damaged {
                path: path.to_path_buf(),
                why: "its length changed while it was read".into(),
            });
        }
        Ok(MappedLayer {
            map,
            count: count as usize,
        })
    }

    /// The values, little-endian 4-byte words from [`VALUES_AT`].
    pub fn values(&self) -> &[AtomicU32] {
        let bytes = &self.map[VALUES_AT as usize..];
        const {
            assert!(
                cfg!(target_endian = "little"),
                "layer files are little-endian"
            )
        };
        assert_eq!(
            bytes.as_ptr() as usize % std::mem::align_of::<AtomicU32>(),
            0
        );
        // The map is page-aligned and the values start at a multiple of 8, so
        // the words are aligned; the map lives as long as the slice, and atomic
        // loads of read-only memory are allowed (lock-free, 4 bytes), which is
        // all the sweeps do with a finished layer.
        unsafe { std::slice::from_raw_parts(bytes.as_ptr() as *const AtomicU32, self.count) }
    }
}

/// What identifies a file that was checked against its checksum: if its
/// length, time of change and inode are still these, it is the same file
/// (a write into it or a new file renamed over it changes them).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct Stamp {
    /// Retired markers of the layer (roller, other).
    pub retired: [usize; 2],
    /// Bytes.
    pub len: u64,
    /// Last change, nanoseconds since 1970.
    pub changed_ns: u64,
    /// The file's inode number.
    pub inode: u64,
}

impl Stamp {
    /// The stamp of `path` as it is now.
    pub fn of(path: &Path, retired: [usize; 2]) -> std::io::Result<Stamp> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path)?;
        Ok(Stamp {
            retired,
            len: m.len(),
            changed_ns: (m.ctime() as u64)
                .wrapping_mul(1_000_000_000)
                .wrapping_add(m.ctime_nsec() as u64),
            inode: m.ino(),
        })
    }
}

/// Space left for files in `dir` (or the nearest existing parent).
pub fn available_space(dir: &Path) -> std::io::Result<u64> {
    let mut at = Some(dir);
    while let Some(p) = at {
        if p.exists() {
            return fs4::available_space(p);
        }
        at = p.parent();
    }
    fs4::available_space(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(sweeps: u32) -> Header {
        Header {
            markers: 2,
            a: 0,
            b: 1,
            sweeps,
            finished: 1,
            count: 0,
            sha256: [0; 32],
        }
    }

    #[test]
    fn a_layer_reads_back_and_a_damaged_or_short_file_is_refused() {
        let d = crate::exact::layered::testing::scratch("layer-files");
        let path = layer_path(d.path(), 0, 1);
        let values: Vec<AtomicU32> = (0..10_000u32)
            .map(|i| AtomicU32::new(i.wrapping_mul(2_654_435_761)))
            .collect();
        write_layer(&path, header(7), &values).unwrap();
        let back: Vec<AtomicU32> = (0..10_000).map(|_| AtomicU32::new(0)).collect();
        let h = check_layer(&path, 2, (0, 1), 10_000, true, Some(&back)).unwrap();
        assert_eq!(h.sweeps, 7);
        assert!(values
            .iter()
            .zip(&back)
            .all(|(x, y)| x.load(Relaxed) == y.load(Relaxed)));
        // Another layer, or a checkpoint, is not this one.
        assert!(check_layer(&path, 2, (1, 0), 10_000, true, None).is_err());
        assert!(check_layer(&path, 2, (0, 1), 10_000, false, None).is_err());
        // One bit of one value flipped: the checksum fails.
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 3;
        bytes[last] ^= 4;
        std::fs::write(&path, &bytes).unwrap();
        let e = check_layer(&path, 2, (0, 1), 10_000, true, None).unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");
        // Cut short.
        std::fs::write(&path, &bytes[..bytes.len() - 4]).unwrap();
        let e = check_layer(&path, 2, (0, 1), 10_000, true, None).unwrap_err();
        assert!(e.to_string().contains("cut short"), "{e}");
        // Not a layer file at all.
        std::fs::write(&path, b"hello").unwrap();
        assert!(check_layer(&path, 2, (0, 1), 10_000, true, None).is_err());
    }
}
