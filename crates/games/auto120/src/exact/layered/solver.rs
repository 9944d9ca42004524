//! The layered solve: the groups of layers in order, each iterated in memory
//! while the layers it reads are final, written to disk once converged; a solve
//! run again reads what is finished and goes on from there.
//!
//! This module checks what is there and walks the groups; `group` solves one
//! group (its sweeps, checkpoints, files and certifying pass), `convergence`
//! decides when a group's sweeps end, and `record` keeps `solve.json`.

mod convergence;
mod group;
mod record;

pub use record::{LayerRecord, Record, RunRecord};

use super::files::{self, FileError};
use super::residual;
use super::sweep::{D, LANES, WEIGHT_ONE};
use super::Plan;
use crate::exact::cpu_seconds;
use record::RunLog;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tabula_core::{format_bytes, Budget};

/// How a solve runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Where the layer files, checkpoints and the record are kept.
    pub dir: PathBuf,
    /// A group is converged when a whole sweep changes no value by more than
    /// this many steps of the fixed point.
    pub tolerance_steps: u32,
    /// Memory the solve may use (its peak, computed before it starts).
    pub max_memory: u64,
    /// The group in progress is written to disk this often (a solve stopped
    /// in it goes on from there).
    pub checkpoint_every: Duration,
    /// Cancel flag and deadline, checked between bands.
    pub budget: Budget,
    /// Disk space left free for everything else when a checkpoint is written
    /// ([`DISK_RESERVE`] as a rule).
    pub disk_reserve: u64,
    /// Over-relaxation of the sweeps, in [`WEIGHT_ONE`]ths ([`WEIGHT`] as a
    /// rule; [`WEIGHT_ONE`]: plain Gauss-Seidel).
    pub weight: u32,
}

/// The largest change (in steps of the fixed point) that ends a group's sweeps.
pub const TOLERANCE_STEPS: u32 = 0;

/// An over-relaxation of the sweeps of a group of two layers, in
/// [`WEIGHT_ONE`]ths: 1.25. On three markers it brings group {(0, 1), (1, 0)}
/// from 69 sweeps to 54 (1.5: 65), both ending at the third one-step change; on
/// four markers it is slower than plain sweeps (the change at sweep 30 was
/// 2.3e-4 against 4.5e-5, at sweep 44 still 2.4e-5), so the solve sweeps plain
/// ([`WEIGHT`]) and this stays an option. A group of one layer is swept plain:
/// at 1.25 the smallest diverges and the others are slower, and at 0.8 slower too.
pub const OVER_RELAXED: u32 = WEIGHT_ONE * 5 / 4;

/// The weight the solve sweeps its groups of two layers with: plain Gauss-Seidel.
pub const WEIGHT: u32 = WEIGHT_ONE;

/// Why a layered solve did not finish.
#[derive(Debug, thiserror::Error)]
pub enum LayeredError {
    /// More memory than allowed.
    #[error("solving needs {} of memory at its peak, more than the {} allowed; allow it with --max-memory {}G", format_bytes(*needed), format_bytes(*limit), needed.div_ceil(1 << 30))]
    Memory {
        /// Bytes at the peak.
        needed: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// Not enough free disk space for the files still to write.
    #[error("the table needs {} more on the disk in {dir} but only {} is free; free some space or choose another place for it", format_bytes(*needed), format_bytes(*free))]
    Disk {
        /// Bytes still to write.
        needed: u64,
        /// Bytes free.
        free: u64,
        /// Where.
        dir: String,
    },
    /// Another solve holds the directory.
    #[error("another solve is already writing the table in {0}")]
    Busy(String),
    /// Stopped (cancelled or out of time); what was finished is kept.
    #[error("the solve was stopped; what it finished is kept on disk, and running it again goes on from there")]
    Stopped,
    /// A file could not be read or written.
    #[error("{0}")]
    File(#[from] FileError),
}

impl From<std::io::Error> for LayeredError {
    fn from(e: std::io::Error) -> Self {
        LayeredError::File(FileError::Io(e))
    }
}

/// What the progress bar is told.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Share of the whole solve done (by positions times expected sweeps).
    pub done: f64,
    /// What is going on, in words ("layer 0, 0: sweep 12").
    pub what: String,
}

/// Sweeps a group is expected to take before its convergence shows (the
/// start layer of 3 markers took 57 at 1e-12).
const EXPECTED_SWEEPS: f64 = 50.0;
/// Work of the certifying pass, in sweeps of every layer.
const RESIDUAL_SWEEPS: f64 = 2.0;

/// Disk space a solve leaves free for everything else on the machine when it
/// writes a checkpoint.
pub const DISK_RESERVE: u64 = 20 << 30;

/// True when `bytes` more can be written to `dir` and leave `reserve` free.
fn room_for(dir: &Path, bytes: u64, reserve: u64) -> bool {
    files::available_space(dir).is_ok_and(|free| free >= bytes.saturating_add(reserve))
}

/// True when a checkpoint of `checkpoint` bytes may be written where `free`
/// bytes are free and the table still has `to_write` bytes of layers to write:
/// after it, `reserve` must be left for everything else and the layers must
/// still fit. The two are not added: a checkpoint is deleted before its
/// group's layers are written where they would not leave the reserve, and
/// before any later group's, so the layers may take the reserve's place as
/// they would without checkpoints.
fn checkpoint_fits(free: u64, checkpoint: u64, to_write: u64, reserve: u64) -> bool {
    free >= checkpoint.saturating_add(reserve.max(to_write))
}

/// Bytes of the worker buffers (two per thread at most).
fn scratch_bytes(plan: &Plan) -> u64 {
    let k = plan.n;
    let lines = Plan::multisets(k) + Plan::multisets(k - 1);
    let bumped = LANES * crate::board::MARKERS * Plan::multisets(k - 1) * 4;
    (lines as u64 * size_of::<super::sweep::Line>() as u64 + bumped as u64)
        * 2
        * rayon::current_num_threads().max(1) as u64
}

/// Bytes at the peak of solving (or certifying) group (a, b): its layers and
/// those it reads, 4 bytes a position.
fn group_bytes(plan: &Plan, a: usize, b: usize) -> u64 {
    let mut layers = Plan::members(a, b);
    layers.extend(plan.reads(a, b));
    // The certifying pass of a layer also holds the one it moves to.
    layers.sort();
    layers.dedup();
    layers
        .iter()
        .map(|&(x, y)| plan.layer(x, y).len() * 4)
        .sum()
}

/// Memory the whole solve needs at its peak.
pub fn peak_bytes(plan: &Plan) -> u64 {
    plan.groups()
        .into_iter()
        .map(|(a, b)| group_bytes(plan, a, b))
        .max()
        .unwrap_or(0)
        + plan.bytes()
        + scratch_bytes(plan)
}

/// Bytes of all the layer files of a finished table.
pub fn table_file_bytes(plan: &Plan) -> u64 {
    plan.index.iter().map(|i| files::file_bytes(i.len())).sum()
}

/// The share of the work group (a, b) is, for the progress bar: its positions
/// times the sweeps a group is expected to take.
fn group_work(plan: &Plan, a: usize, b: usize) -> f64 {
    Plan::members(a, b)
        .iter()
        .map(|&(x, y)| plan.layer(x, y).len() as f64)
        .sum::<f64>()
        * EXPECTED_SWEEPS
}

/// Solves the game with `plan.n` markers into `opts.dir`, going on from what is
/// there: finished layers whose files check out are not solved again, and the
/// group in progress starts from its checkpoint. Then certifies the table.
pub fn solve(
    plan: &Plan,
    opts: &Options,
    progress: &dyn Fn(Progress),
) -> Result<Record, LayeredError> {
    let began = Instant::now();
    let cpu0 = cpu_seconds().unwrap_or(0.0);
    let needed = peak_bytes(plan);
    if needed > opts.max_memory {
        return Err(LayeredError::Memory {
            needed,
            limit: opts.max_memory,
        });
    }
    // Held until the solve returns, so that a second solve of the same
    // directory is refused instead of writing the same files.
    let _lock = lock_dir(&opts.dir)?;
    let dir = opts.dir.as_path();
    let fresh = || Record {
        markers: plan.n,
        positions: plan.positions(),
        tolerance_steps: opts.tolerance_steps,
        ..Record::default()
    };
    // A record of another tolerance or another count of positions belongs to
    // another table: this one starts afresh.
    let record = Record::read(dir, plan.n)
        .filter(|r| r.tolerance_steps == opts.tolerance_steps && r.positions == plan.positions())
        .unwrap_or_else(fresh);
    let mut solver = Solver {
        plan,
        opts,
        progress,
        log: RunLog::new(record, began, cpu0, dir),
        finished: vec![false; plan.n * plan.n],
        done_work: 0.0,
        total_work: plan
            .groups()
            .into_iter()
            .map(|(a, b)| group_work(plan, a, b))
            .sum::<f64>()
            + plan.positions() as f64 * RESIDUAL_SWEEPS,
        to_write: 0,
    };
    solver.check_finished_layers()?;
    solver.check_disk()?;
    for (a, b) in plan.groups() {
        if solver.group_finished(a, b) {
            // Read from the disk (checked above), not solved again.
            solver.log.run.layers_read += Plan::members(a, b).len();
            solver.done_work += group_work(plan, a, b);
            continue;
        }
        solver.solve_group(a, b)?;
    }
    solver.certify_unrecorded_layers()?;
    if solver.log.record.first_mover_wins.is_none() {
        solver.log.record.first_mover_wins = Some(read_first_mover_wins(dir)?);
    }
    solver.log.save()?;
    progress(Progress {
        done: 1.0,
        what: "every layer solved and checked".into(),
    });
    Ok(solver.log.record)
}

/// Creates `dir` and locks it for this process (the lock lasts as long as the
/// file returned is open).
fn lock_dir(dir: &Path) -> Result<std::fs::File, LayeredError> {
    std::fs::create_dir_all(dir)?;
    let lock = std::fs::File::create(dir.join("lock"))?;
    match fs4::FileExt::try_lock(&lock) {
        Ok(()) => Ok(lock),
        Err(fs4::TryLockError::WouldBlock) => Err(LayeredError::Busy(dir.display().to_string())),
        Err(fs4::TryLockError::Error(e)) => Err(e.into()),
    }
}

/// The start (everything on square 1), the first place of layer (0, 0): P(the
/// first player to roll wins), read from the layer's file.
fn read_first_mover_wins(dir: &Path) -> Result<f64, LayeredError> {
    use std::io::{Read, Seek, SeekFrom};
    let path = files::layer_path(dir, 0, 0);
    files::read_header(&path)?;
    let mut f = std::fs::File::open(&path)?;
    f.seek(SeekFrom::Start(files::VALUES_AT))?;
    let mut w = [0u8; 4];
    f.read_exact(&mut w)?;
    Ok(u32::from_le_bytes(w) as f64 / D as f64)
}

/// A solve under way: what it solves, how, and how far it is.
struct Solver<'a> {
    plan: &'a Plan,
    opts: &'a Options,
    progress: &'a dyn Fn(Progress),
    /// The record, written as the solve goes.
    log: RunLog<'a>,
    /// Which layers are finished (layer (x, y) at `x * n + y`).
    finished: Vec<bool>,
    /// Work done and in all, for the progress bar (see [`group_work`]).
    done_work: f64,
    total_work: f64,
    /// Bytes of layer files still to write.
    to_write: u64,
}

impl Solver<'_> {
    /// True when every layer of group (a, b) is finished.
    fn group_finished(&self, a: usize, b: usize) -> bool {
        let n = self.plan.n;
        Plan::members(a, b)
            .iter()
            .all(|&(x, y)| self.finished[x * n + y])
    }

    /// Finds which layers are finished: their files check out. A damaged one
    /// is deleted and solved again. This run is on the record from the start,
    /// whatever stops it later, with the layers it found finished.
    fn check_finished_layers(&mut self) -> Result<(), LayeredError> {
        let (plan, dir, n) = (self.plan, self.opts.dir.as_path(), self.plan.n);
        let groups = plan.groups();
        for &(a, b) in &groups {
            for (x, y) in Plan::members(a, b) {
                let path = files::layer_path(dir, x, y);
                if !path.exists() {
                    continue;
                }
                (self.progress)(Progress {
                    done: 0.0,
                    what: format!("checking the finished layer {x}, {y}"),
                });
                match files::check_layer(&path, n, (x, y), plan.layer(x, y).len(), true, None) {
                    Ok(_) => {
                        self.finished[x * n + y] = true;
                        self.log.record.stamp(dir, [x, y]);
                    }
                    Err(FileError::Damaged { .. }) => {
                        self.log.run.files_rejected += 1;
                        std::fs::remove_file(&path)?;
                        self.log.record.forget_layer([x, y]);
                    }
                    Err(e) => return Err(e.into()),
                }
            }
        }
        for &(a, b) in &groups {
            if self.group_finished(a, b) {
                self.log.run.layers_read += Plan::members(a, b).len();
            }
        }
        self.log.save()?;
        // The loop over the groups counts them again as it passes them.
        self.log.run.layers_read = 0;
        Ok(())
    }

    /// Counts the bytes of every layer file still to write and refuses to
    /// start when they do not fit. Checkpoints are written only where they
    /// leave room (see [`checkpoint_fits`]); the finished layers must fit.
    fn check_disk(&mut self) -> Result<(), LayeredError> {
        let (plan, dir, n) = (self.plan, self.opts.dir.as_path(), self.plan.n);
        let mut to_write = 0u64;
        for (a, b) in plan.groups() {
            for (x, y) in Plan::members(a, b) {
                if !self.finished[x * n + y] {
                    to_write += files::file_bytes(plan.layer(x, y).len());
                }
            }
        }
        self.to_write = to_write;
        if to_write > 0 {
            let free = files::available_space(dir)?;
            if to_write > free {
                return Err(LayeredError::Disk {
                    needed: to_write,
                    free,
                    dir: dir.display().to_string(),
                });
            }
        }
        Ok(())
    }

    /// Certifies, from their files, the layers finished by a run that stopped
    /// before it recorded their residual; then the whole table's residual.
    fn certify_unrecorded_layers(&mut self) -> Result<(), LayeredError> {
        if self.log.record.residual.is_some() {
            return Ok(());
        }
        let (plan, dir, n) = (self.plan, self.opts.dir.as_path(), self.plan.n);
        let opts = self.opts;
        let stop = || opts.budget.should_stop();
        let record = &mut self.log.record;
        let mut missing: Vec<(usize, usize)> = Vec::new();
        for a in 0..n {
            for b in 0..n {
                let known = record
                    .layers
                    .iter()
                    .any(|l| l.retired == [a, b] && l.residual.is_some());
                if !known {
                    missing.push((a, b));
                }
            }
        }
        for (x, y) in missing {
            (self.progress)(Progress {
                done: self.done_work / self.total_work,
                what: format!("layer {x}, {y}: checking every position's equation"),
            });
            let (res, at) = residual::certify_from_disk(plan, dir, (x, y), &stop)?;
            match record.layers.iter_mut().find(|l| l.retired == [x, y]) {
                Some(l) => {
                    l.residual = Some(res);
                    l.residual_at = at;
                }
                None => record.layers.push(LayerRecord {
                    retired: [x, y],
                    positions: plan.layer(x, y).len(),
                    sweeps: files::read_header(&files::layer_path(dir, x, y))?.sweeps,
                    seconds: 0.0,
                    cpu_seconds: 0.0,
                    residual: Some(res),
                    residual_at: at,
                }),
            }
        }
        record.residual = Some(record.whole_residual());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four-marker solve with 32.8 GB free after the layers with two or
    /// more markers retired: the checkpoint of group (0, 1) (3.35 GB) leaves
    /// 20 GiB free and room for the 17.8 GB of layers still to write, so it is
    /// written (counting the reserve and the layers both, as before, refused
    /// it, and a stop lost every sweep since the solve started). The start
    /// layer's checkpoint (14.4 GB) would leave less than 20 GiB: not written.
    #[test]
    fn a_checkpoint_leaves_the_reserve_and_room_for_the_layers() {
        let gb = 1_000_000_000u64;
        let free = 32_800_000_000u64;
        let group_0_1 = 3_354_158_336u64;
        let start_layer = 14_445_410_100u64;
        let to_write = group_0_1 + start_layer;
        assert!(checkpoint_fits(free, group_0_1, to_write, DISK_RESERVE));
        assert!(!checkpoint_fits(
            free,
            start_layer,
            start_layer,
            DISK_RESERVE
        ));
        // Where the layers still to write are more than the reserve, they count.
        assert!(!checkpoint_fits(40 * gb, 3 * gb, 38 * gb, 10 * gb));
        assert!(checkpoint_fits(41 * gb, 3 * gb, 38 * gb, 10 * gb));
        // Exactly enough is enough.
        assert!(checkpoint_fits(
            3 * gb + DISK_RESERVE,
            3 * gb,
            gb,
            DISK_RESERVE
        ));
        assert!(!checkpoint_fits(
            3 * gb + DISK_RESERVE - 1,
            3 * gb,
            gb,
            DISK_RESERVE
        ));
    }
}
