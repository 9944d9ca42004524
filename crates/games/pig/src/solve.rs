//! Pig's exact solution through the generic solver of dice games
//! (`tabula_ai::chance_solve`), as Neller and Presser solved it: the chance
//! `P(i, j, k)` that the player to move wins, with banked score `i`, the other's
//! `j` and turn total `k`, is
//!
//! ```text
//! P(i, j, k) = max( 1 - P(j, i + k, 0),                     hold (only when k > 0)
//!                   1/6 (1 - P(j, i, 0)) + 1/6 sum over r = 2..6 of
//!                       1 if i + k + r >= goal, else P(i, j, k + r) )   roll
//! ```
//!
//! The index is the mover's view `(i, j, k)` with `k < goal - i`: either seat to
//! move shares it (the seats play alike). With one die, holding only raises the
//! sum `i + j` and rolling keeps it, so positions are solved in stages by that sum,
//! from the largest down; in a stage, each pair `{(i, j), (j, i)}` is a block of its
//! own (it reads only itself and earlier stages), swept with the turn total
//! falling. With two dice, double ones lower a score, so there is no such order:
//! one block of every position, swept in the same order.

use crate::state::State;
use crate::Pig;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;
use tabula_ai::chance_solve::{
    self, ChanceIndex, ChanceSolution, ChanceSolveError, Convergence, SweepOrder,
};
use tabula_core::{
    waiting_budget, Budget, DiskCache, FactValue, PositionValue, SeatChance, Section, SolveFigures,
    SolveReport, TableCell, TableError,
};

/// The solved table of one variant.
pub type Solution = ChanceSolution<Pig>;

/// The tolerance of the solve: the largest change of a value in a block's last sweep.
pub const TOLERANCE: f64 = 1e-13;

impl Pig {
    /// Positions of the mover's view with banked score below `mine`: goal *
    /// sum over m < mine of (goal - m).
    fn offset(&self, mine: usize) -> usize {
        let g = self.goal() as usize;
        g * (mine * g - mine * mine.saturating_sub(1) / 2)
    }
}

impl ChanceIndex for Pig {
    fn index_len(&self) -> usize {
        let g = self.goal() as usize;
        g * g * (g + 1) / 2
    }

    fn index_of(&self, state: &State) -> Option<usize> {
        let side = state.side()?;
        if state.rolling || state.winner(self.goal()).is_some() {
            return None;
        }
        let (mine, theirs, k) = (
            state.scores[side] as usize,
            state.scores[1 - side] as usize,
            state.turn_total as usize,
        );
        let g = self.goal() as usize;
        (mine + k < g && theirs < g).then(|| self.offset(mine) + k * g + theirs)
    }

    fn state_at(&self, index: usize) -> State {
        let g = self.goal() as usize;
        let row = index / g;
        // The largest `mine` with mine * (2g - mine + 1) / 2 <= row, from the
        // quadratic's root, then corrected by a step for rounding.
        let b = 2.0 * g as f64 + 1.0;
        let mut mine = ((b - (b * b - 8.0 * row as f64).max(0.0).sqrt()) / 2.0) as usize;
        mine = mine.min(g - 1);
        while mine > 0 && self.offset(mine) > index {
            mine -= 1;
        }
        while mine + 1 < g && self.offset(mine + 1) <= index {
            mine += 1;
        }
        let rest = index - self.offset(mine);
        State {
            scores: [mine as u16, (rest % g) as u16],
            turn_total: (rest / g) as u16,
            side: 0,
            rolling: false,
        }
    }

    fn sweep_order(&self) -> SweepOrder {
        let g = self.goal() as usize;
        let mut order = SweepOrder::new();
        let at = |mine: usize, theirs: usize, k: usize| self.offset(mine) + k * g + theirs;
        for sum in (0..=2 * (g - 1)).rev() {
            for a in sum.saturating_sub(g - 1)..=sum / 2 {
                let b = sum - a;
                let pairs: &[(usize, usize)] = if a == b { &[(a, b)] } else { &[(a, b), (b, a)] };
                for &(mine, theirs) in pairs {
                    // The turn total falling: a roll reads the larger totals just swept.
                    order.push_run(at(mine, theirs, g - mine - 1), g - mine, -(g as i64));
                }
                if self.dice() == 1 {
                    order.end_block();
                }
            }
            if self.dice() == 1 {
                order.end_stage();
            }
        }
        order.end_stage();
        order
    }
}

/// Bytes the solve of `game` needs at its peak.
pub fn estimate(game: &Pig) -> u64 {
    // Reading or writing the disk cache holds the payload and the values (16
    // bytes an index), more than the solve itself (8 bytes an index and the order).
    let solving = chance_solve::estimate_bytes(game.index_len(), &game.sweep_order());
    solving.max(max_payload(game) + 8 * game.index_len() as u64)
}

/// The tables this process has built or is building, by (goal, dice).
type Cells = Mutex<HashMap<(u16, u8), TableCell<Solution>>>;

/// The tables this process has built or is building, one per (goal, dice).
fn cells() -> &'static Cells {
    static CELLS: OnceLock<Cells> = OnceLock::new();
    CELLS.get_or_init(Default::default)
}

fn cell(game: &Pig) -> TableCell<Solution> {
    cells()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry((game.goal(), game.dice()))
        .or_insert_with(|| TableCell::new(what(game)))
        .clone()
}

fn what(game: &Pig) -> String {
    format!("the exact table of {}", game.title())
}

/// The solution if this process has already built it.
pub fn cached(game: &Pig) -> Option<Arc<Solution>> {
    cell(game).get()
}

/// The process's table for `game`: solved once (refused up front beyond
/// `max_memory`), waited for until `until` says stop.
pub fn shared(
    game: &Pig,
    max_memory: u64,
    until: &Budget,
    progress: &dyn Fn(f64),
) -> Result<Arc<Solution>, String> {
    let cell = cell(game);
    if let Some(s) = cell.get() {
        return Ok(s);
    }
    let needed = estimate(game);
    let mut held = None;
    if !cell.is_building() {
        Budget::new(max_memory)
            .fits(&what(game), needed)
            .map_err(|e| format!("{e}; allow more with --max-memory"))?;
        held = Some(
            until
                .ledger()
                .reserve(&what(game), needed)
                .map_err(|e| e.to_string())?,
        );
    }
    let g = *game;
    // The build runs on a thread of its own; the caller's cancel flag and deadline
    // stop the waiting, and the build itself is bounded by the memory reserved.
    cell.get_or_build(
        move |report| {
            let mut held = held.ok_or("the table's memory was not reserved")?;
            let disk = DiskCache::open_default();
            let (solution, _) = load_or_solve(disk.as_ref(), &g, needed, report)?;
            held.settle(solution.memory_bytes());
            held.keep_for_process();
            Ok(solution)
        },
        until,
        progress,
    )
    .map_err(|e| match e {
        TableError::Stopped(b) => b.to_string(),
        failed => failed.to_string(),
    })
}

/// The version of Pig's table files in the disk cache: bumped whenever the
/// payload's layout, the index or the solver's results change.
const CACHE_FORMAT: u32 = 1;
/// The bytes of the solve's summary in a cache file.
const SUMMARY_BYTES: usize = 8 * 10 + 1;

/// The table's name in the disk cache (who starts does not change the table).
fn cache_name(game: &Pig) -> String {
    format!("pig-goal{}-dice{}", game.goal(), game.dice())
}

/// The payload of a cache file, little-endian: the tolerance's bits (u64), the
/// goal and the dice (u32 each), the solve's summary (its numbers as u64, floats
/// by their bits, so they read back exactly, and whether it converged), the
/// number of values (u64) and the values (f64 each).
fn to_payload(game: &Pig, s: &Solution) -> Vec<u8> {
    let c = s.convergence();
    let values = s.values();
    let mut p = Vec::with_capacity(max_payload(game) as usize);
    p.extend_from_slice(&TOLERANCE.to_bits().to_le_bytes());
    p.extend_from_slice(&u32::from(game.goal()).to_le_bytes());
    p.extend_from_slice(&u32::from(game.dice()).to_le_bytes());
    for n in [
        c.positions,
        c.stages,
        c.blocks,
        u64::from(c.sweeps),
        c.block_sweeps,
        c.max_change.to_bits(),
        c.tolerance.to_bits(),
        c.seconds.to_bits(),
        c.peak_bytes,
        c.threads as u64,
    ] {
        p.extend_from_slice(&n.to_le_bytes());
    }
    p.push(u8::from(c.converged));
    p.extend_from_slice(&(values.len() as u64).to_le_bytes());
    p.extend(values.iter().flat_map(|v| v.to_le_bytes()));
    p
}

/// The payload a file for `game` has.
fn max_payload(game: &Pig) -> u64 {
    16 + SUMMARY_BYTES as u64 + 8 + 8 * game.index_len() as u64
}

/// The table a cache file's payload holds, when it is exactly `game`'s solved to
/// [`TOLERANCE`].
fn from_payload(game: &Pig, p: &[u8]) -> Option<Solution> {
    let mut at = 0usize;
    let mut take = |len: usize| -> Option<&[u8]> {
        let bytes = p.get(at..at.checked_add(len)?)?;
        at += len;
        Some(bytes)
    };
    let word = |b: &[u8]| -> u64 { b.iter().rev().fold(0u64, |w, &x| (w << 8) | x as u64) };
    if word(take(8)?) != TOLERANCE.to_bits()
        || word(take(4)?) != u64::from(game.goal())
        || word(take(4)?) != u64::from(game.dice())
    {
        return None;
    }
    let mut n = [0u64; 10];
    for x in &mut n {
        *x = word(take(8)?);
    }
    let converged = match take(1)? {
        [0] => false,
        [1] => true,
        _ => return None,
    };
    let convergence = Convergence {
        positions: n[0],
        stages: n[1],
        blocks: n[2],
        sweeps: u32::try_from(n[3]).ok()?,
        block_sweeps: n[4],
        max_change: f64::from_bits(n[5]),
        tolerance: f64::from_bits(n[6]),
        converged,
        seconds: f64::from_bits(n[7]),
        peak_bytes: n[8],
        threads: usize::try_from(n[9]).ok()?,
    };
    let len = game.index_len();
    if word(take(8)?) != len as u64 {
        return None;
    }
    let values = take(8 * len)?
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
        .collect();
    if at != p.len() {
        return None;
    }
    ChanceSolution::from_parts(*game, values, convergence)
}

/// `game`'s table read from `disk` when a file there holds it, else solved within
/// `max_memory` and written there (a missing, damaged or outdated file is solved
/// again and rewritten; a table the cache cannot take is still returned). Also
/// says whether it came from the disk.
fn load_or_solve(
    disk: Option<&DiskCache>,
    game: &Pig,
    max_memory: u64,
    progress: &dyn Fn(f64),
) -> Result<(Solution, bool), String> {
    // Reading or writing holds the payload and the values (16 bytes an index),
    // within the estimate the caller reserved.
    let (solution, from_disk) = DiskCache::load_or_build(
        disk,
        &cache_name(game),
        CACHE_FORMAT,
        max_payload(game),
        |p| from_payload(game, p),
        || {
            // Under the current budget's cancel flag and deadline (a table
            // cell's build: stopped when every caller waiting for it was).
            let budget = Budget::current()
                .unwrap_or_else(Budget::unlimited)
                .with_max_memory(max_memory);
            chance_solve::solve(game, TOLERANCE, &budget, progress).map_err(|e| e.to_string())
        },
        |solution| Some(to_payload(game, solution)),
    )?;
    if from_disk {
        progress(1.0);
    }
    Ok((solution, from_disk))
}

/// The solution for a player or an analysis that must answer in time: waits until
/// half the time the thread's budget leaves, `None` while it is still being built.
pub fn in_time(game: &Pig) -> Option<Arc<Solution>> {
    if let Some(s) = cached(game) {
        return Some(s);
    }
    let mut until = waiting_budget();
    if let Some(left) = until.remaining() {
        until = until.with_deadline(Instant::now() + left / 2);
    }
    shared(game, until.ledger().limit(), &until, &|_| {}).ok()
}

/// Each seat's chance when `side` wins with chance `p`.
pub fn chances(side: usize, p: f64) -> PositionValue {
    let seats = crate::SEATS;
    let mut chances: Vec<SeatChance> = seats
        .iter()
        .map(|s| SeatChance {
            seat: s.to_string(),
            chance: 0.0,
        })
        .collect();
    chances[side & 1].chance = p;
    chances[1 - (side & 1)].chance = 1.0 - p;
    PositionValue::WinChances { chances }
}

/// `tabula solve pig`: solves the variant (or takes the table this process has)
/// and reports the first player's chance, the solve's figures and, for a
/// position, its chances.
pub fn report(
    game: &Pig,
    budget: &Budget,
    position: Option<&State>,
    progress: &dyn Fn(f64),
) -> Result<SolveReport, String> {
    let sol = shared(game, budget.max_memory_bytes, budget, progress)?;
    let c = sol.convergence();
    let start = State {
        scores: [0, 0],
        turn_total: 0,
        side: 0,
        rolling: false,
    };
    let first = sol.chance_for(&start, 0).unwrap_or(0.5);
    let mut summary = format!(
        "With best play on both sides, the player who rolls first wins {:.2}% of games ({}).",
        first * 100.0,
        game.title()
    );
    let mut value = Some(chances(0, first));
    if let Some(s) = position {
        if let Some(side) = s.side().or(Some(0)) {
            if let Some(p) = sol.chance_for(s, side) {
                value = Some(chances(side, p));
                summary = format!(
                    "In this position, {}.",
                    value.as_ref().map(|v| v.words(None)).unwrap_or_default()
                );
            }
        }
    }
    let solved = Section::new("The exact solution")
        .note("Every position's chance of winning, found by value iteration until no chance moved by more than the tolerance.")
        .with("First player wins", FactValue::Percent(first))
        .with("Positions", FactValue::Integer(c.positions as i64))
        .with("Groups solved one after another", FactValue::Integer(c.stages as i64))
        .with("Most sweeps of one group", FactValue::Integer(c.sweeps as i64))
        .with("Sweeps in all", FactValue::Integer(c.block_sweeps as i64))
        .with("Largest change in a last sweep", FactValue::Number(c.max_change))
        .with("Converged", FactValue::Flag(c.converged))
        .with("Threads", FactValue::Integer(c.threads as i64))
        .with("Time the solve took", FactValue::Seconds(c.seconds))
        .with("Table", FactValue::Bytes(sol.memory_bytes()));
    // One peak memory, the solve's (its figures): the whole program's beside
    // it read as a second, contradicting figure.
    let sections = vec![solved];
    Ok(SolveReport {
        summary,
        position: position.map(crate::notation::format_position),
        value,
        solution: None,
        counts: None,
        sections,
        figures: SolveFigures {
            positions: Some(c.positions),
            seconds: c.seconds,
            peak_bytes: Some(c.peak_bytes),
            sweeps: Some(c.sweeps),
            first_mover_wins: Some(first),
        },
    })
}

/// The solver's error, in words (for tests and messages).
pub fn describe(e: &ChanceSolveError) -> String {
    e.to_string()
}

#[cfg(test)]
mod cache_tests {
    use super::*;
    use crate::Start;

    #[test]
    fn tables_are_kept_on_disk_bit_for_bit_and_a_damaged_file_is_solved_again() {
        let dir = std::env::temp_dir().join(format!("tabula-pig-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let disk = DiskCache::new(&dir, 1 << 30);
        let game = Pig::new(20, 1, Start::First);
        let peak = estimate(&game);
        let bits = |s: &Solution| s.values().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        let (built, from_disk) = load_or_solve(Some(&disk), &game, peak, &|_| {}).unwrap();
        assert!(!from_disk, "nothing was cached yet");
        let (read, from_disk) = load_or_solve(Some(&disk), &game, peak, &|_| {}).unwrap();
        assert!(from_disk, "the second time it is read back");
        assert_eq!(bits(&built), bits(&read), "every value, bit for bit");
        assert_eq!(built.convergence(), read.convergence());
        // Another variant does not take this one's file.
        let two = Pig::new(20, 2, Start::First);
        let (_, from_disk) = load_or_solve(Some(&disk), &two, estimate(&two), &|_| {}).unwrap();
        assert!(!from_disk, "two dice are another table");
        // One byte of a value changed: the checksum fails, so it is solved again
        // and rewritten.
        let path = disk.path(&cache_name(&game), CACHE_FORMAT).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let (rebuilt, from_disk) = load_or_solve(Some(&disk), &game, peak, &|_| {}).unwrap();
        assert!(!from_disk, "the damaged file was not used");
        assert_eq!(bits(&rebuilt), bits(&built));
        let (again, from_disk) = load_or_solve(Some(&disk), &game, peak, &|_| {}).unwrap();
        assert!(from_disk, "the rebuilt table was written again");
        assert_eq!(bits(&again), bits(&built));
        // A payload cut short or of another goal is not taken.
        let p = to_payload(&game, &built);
        assert!(from_payload(&game, &p[..p.len() - 1]).is_none());
        assert!(from_payload(&Pig::new(21, 1, Start::First), &p).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
