//! A finished layered table read back for play and analysis: every layer file
//! checked against its checksum, then memory-mapped (the values stay in the
//! system's file cache, shared by every process that reads them).

// Unsafe code, each block with its SAFETY comment: the finished table, memory-mapped.
#![allow(unsafe_code)]

use super::files::{self, FileError};
use super::solver::Record;
use super::sweep::D;
use super::Plan;
use crate::exact::Sets;
use memmap2::Mmap;
use std::path::{Path, PathBuf};

/// The solved table of a layered solve.
pub struct BigTable {
    plan: Plan,
    layers: Vec<Mmap>,
    record: Record,
    dir: PathBuf,
}

/// Why a finished table could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// No finished, certified table there.
    #[error("there is no finished table in {0}")]
    Missing(String),
    /// A layer file is damaged: the table must be solved again (the solve
    /// rebuilds only the damaged layers).
    #[error("{0}")]
    File(#[from] FileError),
    /// The system refused to map a file (address space or memory limits).
    #[error("the table in {dir} could not be mapped into memory ({why}); it needs {} of address space", tabula_core::format_bytes(*needed))]
    Map {
        /// Where.
        dir: String,
        /// The system's words.
        why: String,
        /// Bytes of the files.
        needed: u64,
    },
}

impl BigTable {
    /// Opens the finished table of `n` markers in `dir`, checking every layer's
    /// checksum first (`progress` gets the share checked).
    pub fn open(dir: &Path, n: usize, progress: &dyn Fn(f64)) -> Result<BigTable, OpenError> {
        let record = Record::read(dir, n)
            .filter(Record::complete)
            .ok_or_else(|| OpenError::Missing(dir.display().to_string()))?;
        let plan = Plan::new(n);
        let total: u64 = plan.index.iter().map(|i| i.len()).sum();
        let mut done = 0u64;
        let mut layers = Vec::with_capacity(n * n);
        for a in 0..n {
            for b in 0..n {
                let len = plan.layer(a, b).len();
                let path = files::layer_path(dir, a, b);
                if record.still_checked(dir, [a, b]) {
                    // Checked by the solve (or an earlier check) and not
                    // changed since: its header and length are enough.
                    let h = files::read_header(&path)?;
                    if (h.markers, h.a, h.b, h.count, h.finished)
                        != (n as u32, a as u32, b as u32, len, 1)
                    {
                        return Err(FileError::Damaged {
                            path,
                            why: "it holds another layer".into(),
                        }
                        .into());
                    }
                } else {
                    files::check_layer(&path, n, (a, b), len, true, None)?;
                }
                let file = std::fs::File::open(&path).map_err(FileError::Io)?;
                // The file is only read, and the solve that wrote it renames a
                // new file over it rather than writing into it.
                let map = unsafe { Mmap::map(&file) }.map_err(|e| OpenError::Map {
                    dir: dir.display().to_string(),
                    why: e.to_string(),
                    needed: files::file_bytes(total),
                })?;
                if map.len() as u64 != files::file_bytes(len) {
                    return Err(FileError::Damaged {
                        path,
                        why: "its length changed while it was read".into(),
                    }
                    .into());
                }
                layers.push(map);
                done += len;
                progress(done as f64 / total.max(1) as f64);
            }
        }
        Ok(BigTable {
            plan,
            layers,
            record,
            dir: dir.to_path_buf(),
        })
    }

    /// Markers per player.
    pub fn markers(&self) -> usize {
        self.plan.n
    }

    /// The solve's record.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// Where the files are.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// P(the roller wins), roller's multiset `m` with `a` retired against the
    /// other's `t` with `b` retired (`a, b < n`; the pair must be able to occur).
    pub(crate) fn value(&self, a: usize, b: usize, m: usize, t: usize) -> f64 {
        let n = self.plan.n;
        let sa = self.plan.set(n - a);
        let sb = self.plan.set(n - b);
        let at = self
            .plan
            .layer(a, b)
            .at(m, sa.mask[m], &sb.squares[t][..n - b]);
        let off = (files::VALUES_AT + at * 4) as usize;
        let bytes = &self.layers[a * n + b][off..off + 4];
        u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as f64 / D as f64
    }

    /// P(the roller wins) with `mine` to roll against `theirs` (marker
    /// positions, 120 = retired; the first `n` of each).
    pub fn roll_value(&self, mine: &[u8], theirs: &[u8]) -> f64 {
        let n = self.plan.n;
        let a = mine[..n]
            .iter()
            .filter(|&&p| p == crate::board::TARGET)
            .count();
        let b = theirs[..n]
            .iter()
            .filter(|&&p| p == crate::board::TARGET)
            .count();
        if a == n {
            return 1.0;
        }
        if b == n {
            return 0.0;
        }
        let m = Sets::rank_of(&mine[..n]) as usize;
        let t = Sets::rank_of(&theirs[..n]) as usize;
        self.value(a, b, m, t)
    }

    /// Bytes of the files.
    pub fn file_bytes(&self) -> u64 {
        self.layers.iter().map(|m| m.len() as u64).sum()
    }
}
