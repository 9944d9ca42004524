//! A solved Kono table with its counts, kept in memory once per process and on
//! disk in the cache directory.

use crate::cache;
use crate::index::INDEX;
use crate::reach::{reachable, summarize, Seated, Summary};
use crate::rules::KonoRules;
use crate::solve::{decode, solve};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tabula_core::Graded;

/// The top side's pieces at the start (rows 4 and 3).
pub const START_TOP: u32 = 0x00FF;
/// The bottom side's pieces at the start (rows 2 and 1).
pub const START_BOTTOM: u32 = 0xFF00;

/// The start with Top to move.
pub fn start() -> Seated {
    Seated {
        mover: START_TOP,
        opponent: START_BOTTOM,
        seat: 0,
    }
}

/// Values of every position with at most `max_total` pieces, and the counts over
/// the positions reachable from the start it was solved for.
pub struct KonoTable {
    /// The rules solved.
    pub rules: KonoRules,
    /// Encoded values by index (see [`crate::solve`]).
    pub values: Vec<u16>,
    /// Largest number of pieces on the board covered.
    pub max_total: usize,
    /// The start the counts are for.
    pub start: Seated,
    /// The counts.
    pub summary: Summary,
    /// How long the solve took (when it was solved, not loaded).
    pub solve_seconds: f64,
}

impl KonoTable {
    /// Solves every position needed from `start` (all with at most as many pieces)
    /// and counts the reachable ones.
    pub fn solve_from(rules: KonoRules, start: Seated, progress: &dyn Fn(f64)) -> KonoTable {
        let began = Instant::now();
        let max_total = (start.mover | start.opponent).count_ones() as usize;
        let solved = solve(rules, max_total, &|f| progress(0.85 * f));
        let reached = reachable(rules, start, solved.values.len() as u64);
        progress(0.95);
        let summary = summarize(&solved.values, &reached, start);
        progress(1.0);
        KonoTable {
            rules,
            values: solved.values,
            max_total,
            start,
            summary,
            solve_seconds: began.elapsed().as_secs_f64(),
        }
    }

    /// The whole game from the standard start.
    pub fn solve_full(rules: KonoRules, progress: &dyn Fn(f64)) -> KonoTable {
        Self::solve_from(rules, start(), progress)
    }

    /// The value of a position for the side to move, if the table covers it.
    pub fn grade(&self, mover: u32, opponent: u32) -> Option<Graded> {
        if mover & opponent != 0
            || mover > 0xFFFF
            || opponent > 0xFFFF
            || mover.count_ones() > 8
            || opponent.count_ones() > 8
            || (mover | opponent).count_ones() as usize > self.max_total
        {
            return None;
        }
        decode(self.values[INDEX.index(mover, opponent) as usize])
    }
}

/// Where a table came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Already in memory in this process.
    Memory,
    /// Read from the cache file.
    Disk,
    /// Solved now.
    Solved,
}

static TABLES: Mutex<[Option<Arc<KonoTable>>; 2]> = Mutex::new([None, None]);

/// The full table for `rules`: from memory, else from the cache file (checked),
/// else solved and written to the cache. Also returns the cache file used, if any.
pub fn full_table(
    rules: KonoRules,
    progress: &dyn Fn(f64),
) -> (Arc<KonoTable>, Source, Option<PathBuf>) {
    let mut tables = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    let slot = &mut tables[rules.code() as usize];
    let path = cache::cache_path(rules);
    if let Some(t) = slot {
        return (t.clone(), Source::Memory, path);
    }
    if let Some(p) = &path {
        if let Ok(t) = cache::load(p, rules) {
            let t = Arc::new(t);
            *slot = Some(t.clone());
            progress(1.0);
            return (t, Source::Disk, path);
        }
    }
    let t = Arc::new(KonoTable::solve_full(rules, progress));
    let written = path
        .as_ref()
        .and_then(|p| cache::save(&t, p).ok().map(|_| p.clone()));
    *slot = Some(t.clone());
    (t, Source::Solved, written)
}
