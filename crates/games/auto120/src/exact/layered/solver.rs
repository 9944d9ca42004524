//! The layered solve: the groups of layers in order, each iterated in memory
//! while the layers it reads are final, written to disk once converged; a solve
//! run again reads what is finished and goes on from there.

use super::files::{self, FileError, Header};
use super::residual::{self, Residual};
use super::sweep::{Layer, Sweep, D, LANES, WEIGHT_ONE};
use super::Plan;
use crate::exact::{cpu_seconds, peak_rss_bytes};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU32;
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

/// One layer of the record.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LayerRecord {
    /// Retired markers of the roller and of the other.
    pub retired: [usize; 2],
    /// Positions.
    pub positions: u64,
    /// Sweeps of its group until converged (all runs together).
    pub sweeps: u32,
    /// Wall-clock and CPU seconds of its group in the run that finished it,
    /// counted from the checkpoint that run went on from, if any (the runs'
    /// own records, [`RunRecord`], add up to the whole).
    pub seconds: f64,
    pub cpu_seconds: f64,
    /// The largest residual of the equation over its positions, and where.
    #[serde(default)]
    pub residual: Option<f64>,
    #[serde(default)]
    pub residual_at: String,
}

/// One run of `tabula solve` on the table (a solve stopped and run again has several).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct RunRecord {
    /// Wall-clock and CPU seconds of this run (all threads).
    pub seconds: f64,
    pub cpu_seconds: f64,
    /// The process's peak resident memory.
    pub peak_bytes: u64,
    /// Finished layers found on disk (checked against their checksums) and not
    /// solved again (a layer whose partner in its group must be solved again
    /// is solved with it).
    pub layers_read: usize,
    /// Layers this run solved.
    pub layers_solved: usize,
    /// Damaged or cut-short files found and solved again.
    pub files_rejected: usize,
    /// The sweep a checkpoint let this run start its first group at (0: none).
    pub resumed_at_sweep: u32,
    /// Sweeps this run did, of every group (a run stopped inside a group
    /// counts the sweeps up to its last checkpoint).
    #[serde(default)]
    pub sweeps: u32,
}

/// What a solve did and found, kept as `solve.json` beside the layers.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// Markers per player.
    pub markers: usize,
    /// Positions of all layers.
    pub positions: u64,
    /// Finished layers, in the order solved.
    pub layers: Vec<LayerRecord>,
    /// Every run so far.
    pub runs: Vec<RunRecord>,
    /// Steps of the fixed point a group's last sweep may change a value by.
    pub tolerance_steps: u32,
    /// The certifying pass, once every layer is finished.
    pub residual: Option<Residual>,
    /// P(the first player to roll wins) with best play on both sides.
    pub first_mover_wins: Option<f64>,
    /// The layer files as they were when last checked against their checksums.
    #[serde(default)]
    pub stamps: Vec<files::Stamp>,
}

impl Record {
    /// Wall-clock seconds of all runs together.
    pub fn seconds(&self) -> f64 {
        self.runs.iter().map(|r| r.seconds).sum()
    }

    /// CPU seconds of all runs together.
    pub fn cpu_seconds(&self) -> f64 {
        self.runs.iter().map(|r| r.cpu_seconds).sum()
    }

    /// The largest peak of any run.
    pub fn peak_bytes(&self) -> u64 {
        self.runs.iter().map(|r| r.peak_bytes).max().unwrap_or(0)
    }

    /// True when every layer is finished and certified.
    pub fn complete(&self) -> bool {
        self.residual.is_some() && self.first_mover_wins.is_some()
    }

    /// The record in `dir`, if one of `markers` is there.
    pub fn read(dir: &Path, markers: usize) -> Option<Record> {
        let text = std::fs::read(files::record_path(dir)).ok()?;
        let r: Record = serde_json::from_slice(&text).ok()?;
        (r.markers == markers).then_some(r)
    }

    /// Notes that the file of layer `retired` in `dir` was checked (or written) as it is now.
    fn stamp(&mut self, dir: &Path, retired: [usize; 2]) {
        self.stamps.retain(|s| s.retired != retired);
        if let Ok(s) = files::Stamp::of(&files::layer_path(dir, retired[0], retired[1]), retired) {
            self.stamps.push(s);
        }
    }

    /// True when the file of layer `retired` in `dir` is still the one checked.
    pub fn still_checked(&self, dir: &Path, retired: [usize; 2]) -> bool {
        files::Stamp::of(&files::layer_path(dir, retired[0], retired[1]), retired)
            .is_ok_and(|now| self.stamps.contains(&now))
    }

    fn write(&self, dir: &Path) -> std::io::Result<()> {
        let path = files::record_path(dir);
        let tmp = path.with_extension("tmp");
        std::fs::write(
            &tmp,
            serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?,
        )?;
        std::fs::rename(tmp, path)
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
/// Sweeps of one step's change after which a group ends even if the change
/// never reaches the tolerance (a value can flip between two neighbours). The
/// sweeps while the change is one step still bring the values closer to the
/// solution: ending at the third instead of the ninth left three markers four
/// steps (9.3e-10) from today's values instead of two, and two solves of two
/// markers up to six steps apart, too close to the 1e-9 asked for.
const CYCLE_SWEEPS: usize = 8;
/// Sweeps without a new least change after which over-relaxation stops (the
/// rounding of its larger steps can keep a few values circling a fixed point
/// that plain sweeps settle).
const STALL_SWEEPS: usize = 3;
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

/// Solves the game with `plan.n` markers into `opts.dir`, going on from what is
/// there: finished layers whose files check out are not solved again, and the
/// group in progress starts from its checkpoint. Then certifies the table.
pub fn solve(
    plan: &Plan,
    opts: &Options,
    progress: &dyn Fn(Progress),
) -> Result<Record, LayeredError> {
    let n = plan.n;
    let began = Instant::now();
    let cpu0 = cpu_seconds().unwrap_or(0.0);
    let needed = peak_bytes(plan);
    if needed > opts.max_memory {
        return Err(LayeredError::Memory {
            needed,
            limit: opts.max_memory,
        });
    }
    std::fs::create_dir_all(&opts.dir)?;
    let lock = std::fs::File::create(opts.dir.join("lock"))?;
    match fs4::FileExt::try_lock(&lock) {
        Ok(()) => {}
        Err(fs4::TryLockError::WouldBlock) => {
            return Err(LayeredError::Busy(opts.dir.display().to_string()))
        }
        Err(fs4::TryLockError::Error(e)) => return Err(e.into()),
    }
    let dir = opts.dir.as_path();
    let mut record = Record::read(dir, n).unwrap_or_else(|| Record {
        markers: n,
        positions: plan.positions(),
        tolerance_steps: opts.tolerance_steps,
        ..Record::default()
    });
    if record.tolerance_steps != opts.tolerance_steps || record.positions != plan.positions() {
        record = Record {
            markers: n,
            positions: plan.positions(),
            tolerance_steps: opts.tolerance_steps,
            ..Record::default()
        };
    }
    let mut run = RunRecord::default();
    record.runs.push(run.clone());
    // Which layers are finished: their files check out. A damaged one is
    // deleted and solved again.
    let groups = plan.groups();
    let mut finished = vec![false; n * n];
    for &(a, b) in &groups {
        for (x, y) in Plan::members(a, b) {
            let path = files::layer_path(dir, x, y);
            if !path.exists() {
                continue;
            }
            progress(Progress {
                done: 0.0,
                what: format!("checking the finished layer {x}, {y}"),
            });
            match files::check_layer(&path, n, (x, y), plan.layer(x, y).len(), true, None) {
                Ok(_) => {
                    finished[x * n + y] = true;
                    record.stamp(dir, [x, y]);
                }
                Err(FileError::Damaged { .. }) => {
                    run.files_rejected += 1;
                    std::fs::remove_file(&path)?;
                    record.stamps.retain(|s| s.retired != [x, y]);
                    record.layers.retain(|l| l.retired != [x, y]);
                    record.residual = None;
                    record.first_mover_wins = None;
                }
                Err(e) => return Err(e.into()),
            }
        }
    }
    // This run is on the record from the start, whatever stops it later.
    for &(a, b) in &groups {
        if Plan::members(a, b)
            .iter()
            .all(|&(x, y)| finished[x * n + y])
        {
            run.layers_read += Plan::members(a, b).len();
        }
    }
    finish_run(&mut record, &mut run, began, cpu0, dir)?;
    run.layers_read = 0;
    // Disk: every file still to write, and a checkpoint of the largest group left.
    let mut to_write = 0u64;
    let mut largest_group = 0u64;
    for &(a, b) in &groups {
        let mut group = 0u64;
        for (x, y) in Plan::members(a, b) {
            if !finished[x * n + y] {
                group += files::file_bytes(plan.layer(x, y).len());
            }
        }
        to_write += group;
        largest_group = largest_group.max(group);
    }
    let _ = largest_group;
    if to_write > 0 {
        // Checkpoints are written only where they leave room (see
        // `room_for`); the finished layers must fit.
        let needed = to_write;
        let free = files::available_space(dir)?;
        if needed > free {
            return Err(LayeredError::Disk {
                needed,
                free,
                dir: dir.display().to_string(),
            });
        }
    }
    // The share of the work each group is, for the progress bar.
    let work = |a: usize, b: usize| -> f64 {
        Plan::members(a, b)
            .iter()
            .map(|&(x, y)| plan.layer(x, y).len() as f64)
            .sum::<f64>()
            * EXPECTED_SWEEPS
    };
    let total_work: f64 = groups.iter().map(|&(a, b)| work(a, b)).sum::<f64>()
        + plan.positions() as f64 * RESIDUAL_SWEEPS;
    let mut done_work = 0.0;
    let stop = || opts.budget.should_stop();
    for &(a, b) in &groups {
        let members = Plan::members(a, b);
        if members.iter().all(|&(x, y)| finished[x * n + y]) {
            // Read from the disk (checked above), not solved again.
            run.layers_read += members.len();
            done_work += work(a, b);
            continue;
        }
        let group_began = Instant::now();
        let group_cpu = cpu_seconds().unwrap_or(0.0);
        // The finished layers it reads.
        let mut reads = Vec::new();
        for (x, y) in plan.reads(a, b) {
            let mapped = files::MappedLayer::open(
                &files::layer_path(dir, x, y),
                n,
                (x, y),
                plan.layer(x, y).len(),
            )?;
            reads.push(((x, y), mapped));
        }
        // Its own layers, from their checkpoints when they all check out.
        let own: Vec<Vec<AtomicU32>> = members
            .iter()
            .map(|&(x, y)| super::values::new_values(plan.layer(x, y).len(), (D / 2) as u32, true))
            .collect();
        let mut sweeps = 0u32;
        let from_checkpoint: Option<Vec<u32>> = members
            .iter()
            .zip(&own)
            .map(|(&(x, y), values)| {
                files::check_layer(
                    &files::checkpoint_path(dir, x, y),
                    n,
                    (x, y),
                    values.len() as u64,
                    false,
                    Some(values),
                )
                .ok()
                .map(|h| h.sweeps)
            })
            .collect();
        match from_checkpoint {
            // The checkpoints of a group's two layers are written one after
            // the other, so a stop between the two leaves them a sweep apart:
            // values of different sweeps are as good a start as any, and the
            // group counts the fewer.
            Some(s) => {
                sweeps = s.iter().copied().min().unwrap_or(0);
                if run.resumed_at_sweep == 0 {
                    run.resumed_at_sweep = sweeps;
                }
            }
            _ => {
                // Not all of them: start afresh, from a first guess made from
                // the finished layers nearer the end (see `guess`).
                for (&(x, y), values) in members.iter().zip(&own) {
                    let find = |l: (usize, usize)| {
                        reads.iter().find(|(r, _)| *r == l).map(|(_, m)| m.values())
                    };
                    let other_ahead = (y + 1 < n).then(|| find((x, y + 1))).flatten();
                    let roller_ahead = (x + 1 < n).then(|| find((y, x + 1))).flatten();
                    super::guess::first_guess(plan, (x, y), values, other_ahead, roller_ahead);
                }
            }
        }
        let group_work = work(a, b);
        let mut last_checkpoint = Instant::now();
        let mut changes: Vec<u32> = Vec::new();
        // Over-relaxation for a group of two layers, until a sweep changes
        // the values more than twice as much as the least so far (the weight
        // then feeds a mode it should damp) or the change stops falling;
        // plain Gauss-Seidel from there on. A layer whose own successors lie
        // in it (a = b: the roller's value is one less the other's, in the
        // same layer) has errors that change sign from sweep to sweep, which
        // any weight above one feeds: plain from the start.
        let mut weight = if members.len() == 2 {
            opts.weight
        } else {
            WEIGHT_ONE
        };
        // The sweep (of this run) of the least change so far.
        let mut least_at = 0usize;
        // The share of the group's work the progress bar last showed.
        let mut shown_share = 0.0f64;
        let header = |x: usize, y: usize, sweeps: u32, finished: u32| Header {
            markers: n as u32,
            a: x as u32,
            b: y as u32,
            sweeps,
            finished,
            count: 0,
            sha256: [0; 32],
        };
        // A checkpoint is written by a thread of its own while the sweeps go on
        // (the disk may be slow): values of different sweeps mixed are as good
        // a start for the iteration as any.
        std::thread::scope(|scope| -> Result<(), LayeredError> {
            let mut writer: Option<std::thread::ScopedJoinHandle<'_, Result<(), FileError>>> = None;
            loop {
                let mut change = 0u32;
                for (i, &(x, y)) in members.iter().enumerate() {
                    let (ka, kb) = (n - x, n - y);
                    let other = if members.len() == 1 { 0 } else { 1 - i };
                    let retired = (ka > 1).then(|| {
                        let (_, mapped) = reads
                            .iter()
                            .find(|(l, _)| *l == (y, x + 1))
                            .expect("the layer a retirement leads to is read");
                        Layer {
                            index: plan.layer(y, x + 1),
                            values: mapped.values(),
                        }
                    });
                    let sweep = Sweep {
                        sa: plan.set(ka),
                        sb: plan.set(kb),
                        fewer: (ka > 1).then(|| plan.set(ka - 1)),
                        own: Layer {
                            index: plan.layer(x, y),
                            values: &own[i],
                        },
                        next: Layer {
                            index: plan.layer(y, x),
                            values: &own[other],
                        },
                        retired,
                        weight,
                    };
                    change = change.max(sweep.run(&stop).ok_or(LayeredError::Stopped)?);
                }
                sweeps += 1;
                run.sweeps += 1;
                let least = changes.iter().min().copied().unwrap_or(u32::MAX);
                if change < least {
                    least_at = changes.len();
                }
                if change > least.saturating_mul(2) || changes.len() - least_at >= STALL_SWEEPS {
                    weight = WEIGHT_ONE;
                }
                changes.push(change);
                // Expected sweeps left from the rate at which the change falls;
                // once it is one step, those up to the end of the cycle.
                let one_step = changes.iter().filter(|&&c| c <= 1).count();
                let left = match changes.len() {
                    _ if change <= 1 && change > opts.tolerance_steps => {
                        (CYCLE_SWEEPS + 1).saturating_sub(one_step).max(1) as f64
                    }
                    l if l >= 4 && change > opts.tolerance_steps => {
                        let rate =
                            (changes[l - 1] as f64 / changes[l - 4].max(1) as f64).powf(1.0 / 3.0);
                        if rate < 0.999 {
                            // To a change of one step, then the cycle of them.
                            ((opts.tolerance_steps.max(1) as f64 / change as f64).ln() / rate.ln())
                                .max(1.0)
                                + (CYCLE_SWEEPS + 1) as f64
                        } else {
                            EXPECTED_SWEEPS
                        }
                    }
                    _ => (EXPECTED_SWEEPS - sweeps as f64).max(1.0),
                };
                // The bar never goes back, whatever the estimate makes of a
                // sweep that changed more than the last.
                let share = (sweeps as f64 / (sweeps as f64 + left)).max(shown_share);
                shown_share = share;
                progress(Progress {
                    done: (done_work + group_work * share) / total_work,
                    what: format!(
                        "layer {a}, {b}: sweep {sweeps}, largest change {:.1e}",
                        change as f64 / D as f64
                    ),
                });
                // A sweep in exact integer arithmetic can end in a cycle of changes
                // of one step: after CYCLE_SWEEPS of them a change of one step
                // ends it too.
                // Values can also circle two steps apart, where a band reads
                // a value its own sweep has changed (the pairs (m, t) and (t, m)
                // of a band of a layer (a, a)): no sweep then changes less
                // than two steps. After twice the cycle of those, two steps end
                // it (never reached where the change comes down to one step,
                // as it does within a few sweeps of two).
                let two_steps = changes.iter().filter(|&&c| c <= 2).count();
                if change <= opts.tolerance_steps
                    || (change <= 1 && one_step > CYCLE_SWEEPS)
                    || (change <= 2 && two_steps > 2 * CYCLE_SWEEPS)
                {
                    break;
                }
                let busy = writer.as_ref().is_some_and(|w| !w.is_finished());
                let checkpoint_bytes: u64 =
                    own.iter().map(|v| files::file_bytes(v.len() as u64)).sum();
                if !busy
                    && last_checkpoint.elapsed() >= opts.checkpoint_every
                    && files::available_space(dir).is_ok_and(|free| {
                        checkpoint_fits(free, checkpoint_bytes, to_write, opts.disk_reserve)
                    })
                {
                    if let Some(w) = writer.take() {
                        w.join().map_err(|_| LayeredError::Stopped)??;
                    }
                    let (members, own, header) = (&members, &own, &header);
                    writer = Some(scope.spawn(move || {
                        for (&(x, y), values) in members.iter().zip(own) {
                            files::write_layer(
                                &files::checkpoint_path(dir, x, y),
                                header(x, y, sweeps, 0),
                                values,
                            )?;
                        }
                        Ok(())
                    }));
                    last_checkpoint = Instant::now();
                    // The record counts this run's time so far: a run stopped
                    // inside the group then still counts it.
                    finish_run(&mut record, &mut run, began, cpu0, dir)?;
                }
            }
            if let Some(w) = writer.take() {
                w.join().map_err(|_| LayeredError::Stopped)??;
            }
            Ok(())
        })?;
        // Where the disk is short, the checkpoints go before the finished
        // layers are written (a stop while they are written then starts the
        // group afresh).
        let final_bytes: u64 = own.iter().map(|v| files::file_bytes(v.len() as u64)).sum();
        if !room_for(dir, final_bytes, opts.disk_reserve) {
            for &(x, y) in &members {
                let _ = std::fs::remove_file(files::checkpoint_path(dir, x, y));
            }
        }
        // The finished layers go to disk while the certifying pass checks
        // every position's equation from the values in memory.
        let residuals = std::thread::scope(|scope| -> Result<Vec<(f64, String)>, LayeredError> {
            let writers: Vec<_> = members
                .iter()
                .zip(&own)
                .map(|(&(x, y), values)| {
                    let h = header(x, y, sweeps, 1);
                    scope
                        .spawn(move || files::write_layer(&files::layer_path(dir, x, y), h, values))
                })
                .collect();
            progress(Progress {
                done: (done_work + group_work) / total_work,
                what: format!("layer {a}, {b}: checking every position's equation"),
            });
            let mut residuals = Vec::new();
            for (i, &(x, y)) in members.iter().enumerate() {
                let other = if members.len() == 1 { 0 } else { 1 - i };
                let retired = reads
                    .iter()
                    .find(|(l, _)| *l == (y, x + 1))
                    .map(|(_, m)| m.values());
                residuals.push(residual::certify_layer(
                    plan,
                    (x, y),
                    &own[i],
                    &own[other],
                    retired,
                    &stop,
                )?);
            }
            for w in writers {
                w.join().map_err(|_| LayeredError::Stopped)??;
            }
            Ok(residuals)
        })?;
        for &(x, y) in &members {
            let _ = std::fs::remove_file(files::checkpoint_path(dir, x, y));
            finished[x * n + y] = true;
            run.layers_solved += 1;
            record.stamp(dir, [x, y]);
        }
        let seconds = group_began.elapsed().as_secs_f64();
        let cpu = cpu_seconds().unwrap_or(0.0) - group_cpu;
        for (&(x, y), (res, at)) in members.iter().zip(residuals) {
            record.layers.retain(|l| l.retired != [x, y]);
            record.layers.push(LayerRecord {
                retired: [x, y],
                positions: plan.layer(x, y).len(),
                sweeps,
                seconds,
                cpu_seconds: cpu,
                residual: Some(res),
                residual_at: at,
            });
        }
        record.residual = None;
        record.first_mover_wins = None;
        done_work += group_work;
        to_write = to_write.saturating_sub(final_bytes);
        finish_run(&mut record, &mut run, began, cpu0, dir)?;
    }
    if record.residual.is_none() {
        // Layers finished by a run that stopped before it recorded their
        // residual are checked from their files.
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
            progress(Progress {
                done: done_work / total_work,
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
        let worst = record.layers.iter().max_by(|p, q| {
            p.residual
                .unwrap_or(0.0)
                .total_cmp(&q.residual.unwrap_or(0.0))
        });
        record.residual = Some(Residual {
            largest: worst.and_then(|l| l.residual).unwrap_or(0.0),
            at: worst.map(|l| l.residual_at.clone()).unwrap_or_default(),
            positions: record.layers.iter().map(|l| l.positions).sum(),
            seconds: 0.0,
        });
    }
    if record.first_mover_wins.is_none() {
        // The start (everything on square 1) is the first place of layer (0, 0).
        let path = files::layer_path(dir, 0, 0);
        files::read_header(&path)?;
        let mut f = std::fs::File::open(&path)?;
        use std::io::{Read, Seek, SeekFrom};
        f.seek(SeekFrom::Start(files::VALUES_AT))?;
        let mut w = [0u8; 4];
        f.read_exact(&mut w)?;
        record.first_mover_wins = Some(u32::from_le_bytes(w) as f64 / D as f64);
    }
    finish_run(&mut record, &mut run, began, cpu0, dir)?;
    progress(Progress {
        done: 1.0,
        what: "every layer solved and checked".into(),
    });
    Ok(record)
}

/// Writes the record with this run's figures so far (the run's entry is the
/// last of `record.runs`), so that a run stopped later still counts what it did.
fn finish_run(
    record: &mut Record,
    run: &mut RunRecord,
    began: Instant,
    cpu0: f64,
    dir: &Path,
) -> std::io::Result<()> {
    run.seconds = began.elapsed().as_secs_f64();
    run.cpu_seconds = cpu_seconds().unwrap_or(0.0) - cpu0;
    run.peak_bytes = peak_rss_bytes().unwrap_or(0);
    if let Some(last) = record.runs.last_mut() {
        *last = run.clone();
    }
    record.write(dir)
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
