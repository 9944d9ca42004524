//! The solution on disk.
//!
//! One file per rule set, `kono-<rules>-v<FORMAT>.bin`, in `$TABULA_CACHE_DIR`
//! if set, else the platform cache directory (`~/.cache/tabula` on Linux).
//! Layout, little-endian: a fixed 88-byte header — magic `TABKONO\0`, format
//! version, rules code, number of values, the counts (positions, wins, losses,
//! draws, start value and remoteness, maximum remoteness), the largest piece
//! total covered, the solve time, and a 64-bit checksum of the header and the
//! data — followed by one `u16` per table index. A file with another magic,
//! version, rule code, size or checksum is ignored (and rebuilt by the caller);
//! it is written to a temporary name and renamed, so readers never see half a file.

use crate::index::INDEX;
use crate::reach::Summary;
use crate::rules::KonoRules;
use crate::table::{start, KonoTable};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use tabula_core::{Graded, Value};

/// Bumped whenever the encoding, the index or the solver's results change.
pub const FORMAT: u32 = 1;
const MAGIC: &[u8; 8] = b"TABKONO\0";
const HEADER: usize = 88;
const CHECKSUM_AT: usize = 80;

/// The cache directory: `$TABULA_CACHE_DIR`, else the platform cache dir + `tabula`.
pub fn cache_dir() -> Option<PathBuf> {
    match std::env::var_os("TABULA_CACHE_DIR") {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => dirs::cache_dir().map(|d| d.join("tabula")),
    }
}

/// The size of a full table's cache file, in bytes.
pub fn file_bytes() -> u64 {
    HEADER as u64 + 2 * INDEX.len()
}

/// The cache file for a rule set.
pub fn cache_path(rules: KonoRules) -> Option<PathBuf> {
    cache_dir().map(|d| d.join(format!("kono-{}-v{FORMAT}.bin", rules.word())))
}

fn checksum(header: &[u8], data: &[u8]) -> u64 {
    let mut h: u64 = 0x243F_6A88_85A3_08D3;
    let mut mix = |chunk: &[u8]| {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = (h.rotate_left(23) ^ u64::from_le_bytes(word)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    };
    header.chunks(8).for_each(&mut mix);
    data.chunks(8).for_each(&mut mix);
    h ^ (h >> 29)
}

fn value_code(v: Value) -> u32 {
    match v {
        Value::Loss => 0,
        Value::Draw => 1,
        Value::Win => 2,
    }
}

fn header(table: &KonoTable) -> Vec<u8> {
    let s = &table.summary;
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&FORMAT.to_le_bytes());
    h.extend_from_slice(&table.rules.code().to_le_bytes());
    h.extend_from_slice(&(table.values.len() as u64).to_le_bytes());
    for n in [s.positions, s.wins, s.losses, s.draws] {
        h.extend_from_slice(&n.to_le_bytes());
    }
    h.extend_from_slice(&value_code(s.start.value).to_le_bytes());
    h.extend_from_slice(&s.start.remoteness.to_le_bytes());
    h.extend_from_slice(&s.max_remoteness.to_le_bytes());
    h.extend_from_slice(&(table.max_total as u32).to_le_bytes());
    h.extend_from_slice(&table.solve_seconds.to_le_bytes());
    debug_assert_eq!(h.len(), CHECKSUM_AT);
    h
}

/// Writes a full table.
pub fn save(table: &KonoTable, path: &Path) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let mut bytes = header(table);
    let data: Vec<u8> = table.values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let sum = checksum(&bytes, &data);
    bytes.extend_from_slice(&sum.to_le_bytes());
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(&bytes)?;
        f.write_all(&data)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Reads a full table for `rules`, refusing anything that is not exactly what
/// this version would have written.
pub fn load(path: &Path, rules: KonoRules) -> Result<KonoTable, String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let expected_len = INDEX.len();
    if bytes.len() != HEADER + 2 * expected_len as usize {
        return Err(format!("{} has the wrong size", path.display()));
    }
    let (head, data) = bytes.split_at(HEADER);
    if &head[..8] != MAGIC || u32_at(head, 8) != FORMAT || u32_at(head, 12) != rules.code() {
        return Err(format!(
            "{} is not a version {FORMAT} {} table",
            path.display(),
            rules.word()
        ));
    }
    if u64_at(head, 16) != expected_len || u32_at(head, 68) != 16 {
        return Err(format!("{} covers a different index", path.display()));
    }
    if checksum(&head[..CHECKSUM_AT], data) != u64_at(head, CHECKSUM_AT) {
        return Err(format!("{} is corrupt (checksum)", path.display()));
    }
    let value = match u32_at(head, 56) {
        0 => Value::Loss,
        1 => Value::Draw,
        2 => Value::Win,
        _ => return Err("bad start value".into()),
    };
    let summary = Summary {
        positions: u64_at(head, 24),
        wins: u64_at(head, 32),
        losses: u64_at(head, 40),
        draws: u64_at(head, 48),
        start: Graded {
            value,
            remoteness: u32_at(head, 60),
        },
        max_remoteness: u32_at(head, 64),
    };
    let values: Vec<u16> = data
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    Ok(KonoTable {
        rules,
        values,
        max_total: 16,
        start: start(),
        summary,
        solve_seconds: f64::from_le_bytes(head[72..80].try_into().expect("8 bytes")),
    })
}
