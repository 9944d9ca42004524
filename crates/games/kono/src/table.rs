//! A solved Kono table with its counts, kept in memory once per process and on
//! disk in Tabula's table cache ([`tabula_core::DiskCache`]).

use crate::cache;
use crate::index::INDEX;
use crate::reach::{reachable, summarize, Seated, Summary};
use crate::rules::KonoRules;
use crate::solve::{decode, solve_until};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Instant;
use tabula_core::{Budget, BudgetError, BuildError, DiskCache, Graded, Reservation, TableCell};

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
        match Self::solve_from_until(rules, start, progress, &|| false) {
            Some(table) => table,
            None => unreachable!("a solve that is never stopped finishes"),
        }
    }

    /// [`KonoTable::solve_from`], `None` as soon as `stopped` says so (it is
    /// asked between the solver's levels, a fraction of a second apart).
    pub fn solve_from_until(
        rules: KonoRules,
        start: Seated,
        progress: &dyn Fn(f64),
        stopped: &dyn Fn() -> bool,
    ) -> Option<KonoTable> {
        let began = Instant::now();
        let max_total = (start.mover | start.opponent).count_ones() as usize;
        let solved = solve_until(rules, max_total, &|f| progress(0.85 * f), stopped)?;
        let reached = reachable(rules, start, solved.values.len() as u64);
        progress(0.95);
        let summary = summarize(&solved.values, &reached, start);
        progress(1.0);
        Some(KonoTable {
            rules,
            values: solved.values,
            max_total,
            start,
            summary,
            solve_seconds: began.elapsed().as_secs_f64(),
        })
    }

    /// The whole game from the standard start.
    pub fn solve_full(rules: KonoRules, progress: &dyn Fn(f64)) -> KonoTable {
        Self::solve_from(rules, start(), progress)
    }

    /// Bytes the table keeps in memory: its values.
    pub fn memory_bytes(&self) -> u64 {
        std::mem::size_of_val(self.values.as_slice()) as u64
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

/// Bytes a solve needs per position of the index at its peak: the 2-byte value and
/// 1-byte counter of every position, the reachability bits, the lists of positions
/// decided at each level and the copy written to the cache file (a full solve
/// peaked at about 278 MB resident for its 38,745,279 positions).
pub const SOLVING_BYTES_PER_POSITION: u64 = 7;
/// Bytes loading the cache file needs per position: the file read whole and the
/// 2-byte values taken from it.
pub const LOADING_BYTES_PER_POSITION: u64 = 4;

/// What a table of this process is and where it came from.
struct Kept {
    table: Arc<KonoTable>,
    source: Source,
    path: Option<PathBuf>,
    /// The table's bytes in the process's ledger, for as long as it is kept.
    _held: Reservation,
}

/// The tables of both rule sets, each built once per process on a thread and rayon
/// pool of its own ([`TableCell`]): computer players on rayon's global pool (a
/// simulation) may wait for it without taking the workers the solve needs.
fn cells() -> &'static [TableCell<Kept>; 2] {
    static CELLS: OnceLock<[TableCell<Kept>; 2]> = OnceLock::new();
    CELLS.get_or_init(|| {
        [
            TableCell::new("the Four Field Kono table"),
            TableCell::new("the Four Field Kono table (compulsory captures)"),
        ]
    })
}

/// The table in plain words, for refusals and the ledger.
const WHAT: &str = "the Four Field Kono table";

/// Memory needed to have the full table of `rules` in memory now: none when this
/// process has it, the loading cost when the cache file looks right, else a solve's.
pub fn bytes_needed(rules: KonoRules) -> u64 {
    if cells()[rules.code() as usize].get().is_some() {
        return 0;
    }
    if cache::looks_cached(rules) {
        loading_bytes()
    } else {
        INDEX.len() * SOLVING_BYTES_PER_POSITION
    }
}

/// The least memory the table can be had in: read back from the cache file.
pub fn loading_bytes() -> u64 {
    INDEX.len() * LOADING_BYTES_PER_POSITION
}

/// The full table for `rules`: from memory, else from the cache file (checked),
/// else solved and written to the cache. Also returns the cache file used, if any.
/// Refused up front when it does not fit `budget`'s memory; waited for until
/// `budget` is cancelled or out of time (the build goes on for later callers).
///
/// A refusal says whether it lasts ([`BuildError`]): a table that could not be
/// read from disk within the budget never fits; one that only the solve does
/// not fit may yet be read, once another program has solved it and saved it in
/// the cache, and so may one refused because other tables hold the memory.
/// Each try of the build reads the cache again before it solves.
pub fn full_table(
    rules: KonoRules,
    budget: &Budget,
    progress: &dyn Fn(f64),
) -> Result<(Arc<KonoTable>, Source, Option<PathBuf>), BuildError> {
    let cell = &cells()[rules.code() as usize];
    if let Some(kept) = cell.get() {
        return Ok((kept.table.clone(), Source::Memory, kept.path.clone()));
    }
    budget
        .fits(WHAT, bytes_needed(rules))
        .map_err(|e| refusal(e, budget.max_memory_bytes))?;
    let kept = cell.get_or_build(move |report| build(rules, report), budget, progress)?;
    Ok((kept.table.clone(), kept.source, kept.path.clone()))
}

/// A refusal within a memory limit of `limit` bytes: lasting when even reading
/// the table from disk cannot fit, passing otherwise (other tables may free the
/// room, another program may save the table in the cache).
fn refusal(e: BudgetError, limit: u64) -> BuildError {
    match e {
        BudgetError::Memory { .. } if loading_bytes() > limit => BuildError::Lasting(e.to_string()),
        BudgetError::Memory { .. } => BuildError::Passing(format!(
            "{e}; it is read from the disk cache instead once another program has solved it"
        )),
        e => e.into(),
    }
}

/// Loads or solves the table, then holds only its own bytes in the ledger (see
/// [`full_table`]). A solve stops when the build's budget ([`Budget::current`], the table cell's)
/// is cancelled: every caller waiting for it was.
fn build(rules: KonoRules, progress: &dyn Fn(f64)) -> Result<Kept, BuildError> {
    // The build's peak is held in its budget's ledger (the one of the caller
    // that started the build) from before it starts (refused, for now, when
    // other tables leave too little room) and shrinks to the table's own bytes
    // once built. Asked again at each try: a cache file written meanwhile
    // needs less.
    let ledger = Budget::current_ledger();
    let mut held = ledger
        .reserve(WHAT, bytes_needed(rules))
        .map_err(|e| refusal(e, ledger.limit()))?;
    let disk = DiskCache::open_default();
    // A file that is missing or fails its check is solved again and rewritten.
    let (table, from_disk) = DiskCache::load_or_build(
        disk.as_ref(),
        &cache::name(rules),
        cache::FORMAT,
        cache::payload_bytes(),
        |bytes| cache::from_payload(bytes, rules).ok(),
        || {
            let budget = Budget::current();
            let stopped = || budget.as_ref().is_some_and(Budget::should_stop);
            KonoTable::solve_from_until(rules, start(), progress, &stopped)
                .ok_or_else(|| "it was stopped before it finished".to_string())
        },
        |table| Some(cache::payload(table)),
    )?;
    if from_disk {
        progress(1.0);
    }
    let source = if from_disk {
        Source::Disk
    } else {
        Source::Solved
    };
    // The file the table is kept in, when there is one (a full or read-only
    // directory keeps none).
    let path = cache::cache_path(rules).filter(|p| p.is_file());
    let table = Arc::new(table);
    held.settle(table.memory_bytes());
    Ok(Kept {
        table,
        source,
        path,
        _held: held,
    })
}
