//! The solution on disk, through Tabula's one table cache ([`DiskCache`]).
//!
//! One table per rule set, named `kono-<rules>` at version [`FORMAT`], in the
//! cache directory (`$TABULA_CACHE_DIR` if set, else the platform cache
//! directory: `~/.cache/tabula` on Linux). The cache checks the file (its
//! name, version, length and SHA-256) and ignores a file that fails, which is
//! then solved again and rewritten. This module only turns a table into the
//! payload and back. Payload, little-endian: the rules code, the number of
//! values, the counts (positions, wins, losses, draws, start value and
//! remoteness, maximum remoteness), the largest piece total covered and the
//! solve time (68 bytes), then one `u16` per table index.

use crate::index::INDEX;
use crate::reach::Summary;
use crate::rules::KonoRules;
use crate::table::{start, KonoTable};
use std::path::PathBuf;
use tabula_core::{CacheError, DiskCache, Graded, Value};

/// Bumped whenever the encoding, the index or the solver's results change.
/// (Version 1 was a file of Kono's own layout, before the shared cache.)
pub const FORMAT: u32 = 2;
const HEAD: usize = 68;

/// The table's name in the cache.
pub fn name(rules: KonoRules) -> String {
    format!("kono-{}", rules.word())
}

/// The payload of a full table, in bytes.
pub fn payload_bytes() -> u64 {
    HEAD as u64 + 2 * INDEX.len()
}

/// The cache file for a rule set in the usual cache directory.
pub fn cache_path(rules: KonoRules) -> Option<PathBuf> {
    DiskCache::open_default().and_then(|c| c.path(&name(rules), FORMAT).ok())
}

/// Whether the usual cache directory seems to hold the table of `rules` (right
/// name, version and size; it is checked in full when read).
pub fn looks_cached(rules: KonoRules) -> bool {
    DiskCache::open_default()
        .is_some_and(|c| c.looks_present(&name(rules), FORMAT, payload_bytes()))
}

fn value_code(v: Value) -> u32 {
    match v {
        Value::Loss => 0,
        Value::Draw => 1,
        Value::Win => 2,
    }
}

/// The bytes a full table is kept as in the cache.
pub fn payload(table: &KonoTable) -> Vec<u8> {
    let s = &table.summary;
    let mut p = Vec::with_capacity(HEAD + 2 * table.values.len());
    p.extend_from_slice(&table.rules.code().to_le_bytes());
    p.extend_from_slice(&(table.values.len() as u64).to_le_bytes());
    for n in [s.positions, s.wins, s.losses, s.draws] {
        p.extend_from_slice(&n.to_le_bytes());
    }
    p.extend_from_slice(&value_code(s.start.value).to_le_bytes());
    p.extend_from_slice(&s.start.remoteness.to_le_bytes());
    p.extend_from_slice(&s.max_remoteness.to_le_bytes());
    p.extend_from_slice(&(table.max_total as u32).to_le_bytes());
    p.extend_from_slice(&table.solve_seconds.to_le_bytes());
    debug_assert_eq!(p.len(), HEAD);
    p.extend(table.values.iter().flat_map(|v| v.to_le_bytes()));
    p
}

/// Writes a full table to `cache`; returns the file written.
pub fn save(cache: &DiskCache, table: &KonoTable) -> Result<PathBuf, CacheError> {
    cache.store(&name(table.rules), FORMAT, &payload(table))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Reads the full table of `rules` from `cache`, refusing anything that is
/// not exactly what this version would have written.
pub fn load(cache: &DiskCache, rules: KonoRules) -> Result<KonoTable, CacheError> {
    from_payload(&cache.load(&name(rules), FORMAT, payload_bytes())?, rules)
}

/// The full table of `rules` from the bytes the cache kept, refusing anything
/// that is not exactly what this version would have written.
pub fn from_payload(bytes: &[u8], rules: KonoRules) -> Result<KonoTable, CacheError> {
    let unusable = |reason: &str| CacheError::Unusable {
        name: name(rules),
        reason: reason.to_string(),
    };
    // The cache checked the digest; these guard against a table written by a
    // bug under the right name.
    if bytes.len() as u64 != payload_bytes() {
        return Err(unusable("it has the wrong size"));
    }
    let (head, data) = bytes.split_at(HEAD);
    if u32_at(head, 0) != rules.code() {
        return Err(unusable("it is the table of other rules"));
    }
    if u64_at(head, 4) != INDEX.len() || u32_at(head, 56) != 16 {
        return Err(unusable("it covers a different index"));
    }
    let value = match u32_at(head, 44) {
        0 => Value::Loss,
        1 => Value::Draw,
        2 => Value::Win,
        _ => return Err(unusable("its start value is not a value")),
    };
    let summary = Summary {
        positions: u64_at(head, 12),
        wins: u64_at(head, 20),
        losses: u64_at(head, 28),
        draws: u64_at(head, 36),
        start: Graded {
            value,
            remoteness: u32_at(head, 48),
        },
        max_remoteness: u32_at(head, 52),
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
        solve_seconds: f64::from_bits(u64_at(head, 60)),
    })
}
