//! Solving one group {(a, b), (b, a)}: its layers in memory (from their
//! checkpoints or a first guess), swept until converged with a checkpoint now
//! and then, then written to disk while the certifying pass checks them.

use super::super::files::{self, FileError, Header, MappedLayer};
use super::super::sweep::{Layer, Sweep, D, WEIGHT_ONE};
use super::super::{guess, residual, values, Plan};
use super::convergence::Convergence;
use super::{checkpoint_fits, group_work, room_for, LayerRecord, LayeredError, Progress, Solver};
use crate::exact::cpu_seconds;
use std::path::Path;
use std::sync::atomic::AtomicU32;
use std::thread::{Scope, ScopedJoinHandle};
use std::time::Instant;

/// Polled between bands: true when the solve must stop.
type Stop<'s> = &'s (dyn Fn() -> bool + Sync);

/// A group's layers in memory while it is solved, and the finished layers it reads.
struct Group {
    a: usize,
    b: usize,
    /// Its layers: (a, b), and (b, a) unless a = b.
    members: Vec<(usize, usize)>,
    /// The finished layers its moves lead to after a retirement, memory-mapped.
    reads: Vec<((usize, usize), MappedLayer)>,
    /// The values of its layers, as `members`.
    own: Vec<Vec<AtomicU32>>,
    /// Sweeps done, by every run.
    sweeps: u32,
    /// When this run began it, wall clock and CPU seconds.
    began: Instant,
    cpu0: f64,
}

impl Group {
    /// The values of finished layer `l`, if the group reads it.
    fn read(&self, l: (usize, usize)) -> Option<&[AtomicU32]> {
        self.reads
            .iter()
            .find(|(r, _)| *r == l)
            .map(|(_, m)| m.values())
    }

    /// The place in `members` of the layer member `i` moves to (itself in a
    /// group of one layer).
    fn partner(&self, i: usize) -> usize {
        if self.members.len() == 1 {
            0
        } else {
            1 - i
        }
    }

    /// Bytes of the files of its layers (or of their checkpoints).
    fn file_bytes(&self) -> u64 {
        self.own
            .iter()
            .map(|v| files::file_bytes(v.len() as u64))
            .sum()
    }

    /// Loads the values from the group's checkpoints when they all check out;
    /// returns the sweeps they count. The checkpoints of a group's two layers
    /// are written one after the other, so a stop between the two leaves them
    /// a sweep apart: values of different sweeps are as good a start as any,
    /// and the group counts the fewer.
    fn load_checkpoints(&self, dir: &Path, n: usize) -> Option<u32> {
        let sweeps: Option<Vec<u32>> = self
            .members
            .iter()
            .zip(&self.own)
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
        sweeps.map(|s| s.iter().copied().min().unwrap_or(0))
    }

    /// A first guess made from the finished layers nearer the end (see `guess`).
    fn guess(&self, plan: &Plan) {
        let n = plan.n;
        for (&(x, y), values) in self.members.iter().zip(&self.own) {
            let other_ahead = (y + 1 < n).then(|| self.read((x, y + 1))).flatten();
            let roller_ahead = (x + 1 < n).then(|| self.read((y, x + 1))).flatten();
            guess::first_guess(plan, (x, y), values, other_ahead, roller_ahead);
        }
    }

    /// One sweep of each of its layers in turn; returns the largest change.
    fn sweep(&self, plan: &Plan, weight: u32, stop: Stop) -> Result<u32, LayeredError> {
        let n = plan.n;
        let mut change = 0u32;
        for (i, &(x, y)) in self.members.iter().enumerate() {
            let (ka, kb) = (n - x, n - y);
            let retired = (ka > 1).then(|| Layer {
                index: plan.layer(y, x + 1),
                values: self
                    .read((y, x + 1))
                    .expect("the layer a retirement leads to is read"),
            });
            let sweep = Sweep {
                sa: plan.set(ka),
                sb: plan.set(kb),
                fewer: (ka > 1).then(|| plan.set(ka - 1)),
                own: Layer {
                    index: plan.layer(x, y),
                    values: &self.own[i],
                },
                next: Layer {
                    index: plan.layer(y, x),
                    values: &self.own[self.partner(i)],
                },
                retired,
                weight,
            };
            change = change.max(sweep.run(stop).ok_or(LayeredError::Stopped)?);
        }
        Ok(change)
    }
}

/// The header of layer (x, y)'s file, or of its checkpoint (`finished` 0).
fn header(n: usize, (x, y): (usize, usize), sweeps: u32, finished: u32) -> Header {
    Header {
        markers: n as u32,
        a: x as u32,
        b: y as u32,
        sweeps,
        finished,
        count: 0,
        sha256: [0; 32],
    }
}

/// The thread writing a checkpoint while the sweeps go on.
type Writer<'scope> = ScopedJoinHandle<'scope, Result<(), FileError>>;

/// Waits for the checkpoint being written, if any.
fn join_writer(writer: Option<Writer<'_>>) -> Result<(), LayeredError> {
    match writer {
        Some(w) => Ok(w.join().map_err(|_| LayeredError::Stopped)??),
        None => Ok(()),
    }
}

impl Solver<'_> {
    /// Solves group (a, b), writes its layers and records them.
    pub(super) fn solve_group(&mut self, a: usize, b: usize) -> Result<(), LayeredError> {
        let opts = self.opts;
        let stop = || opts.budget.should_stop();
        let mut group = self.open_group(a, b)?;
        group.sweeps = self.sweep_until_converged(&group, &stop)?;
        let residuals = self.write_and_certify(&group, &stop)?;
        self.note_finished(&group, residuals)
    }

    /// The group's layers in memory, from their checkpoints or a first guess,
    /// and the finished layers it reads.
    fn open_group(&mut self, a: usize, b: usize) -> Result<Group, LayeredError> {
        let (plan, dir, n) = (self.plan, self.opts.dir.as_path(), self.plan.n);
        let began = Instant::now();
        let cpu0 = cpu_seconds().unwrap_or(0.0);
        let mut reads = Vec::new();
        for (x, y) in plan.reads(a, b) {
            let mapped = MappedLayer::open(
                &files::layer_path(dir, x, y),
                n,
                (x, y),
                plan.layer(x, y).len(),
            )?;
            reads.push(((x, y), mapped));
        }
        let members = Plan::members(a, b);
        let own = members
            .iter()
            .map(|&(x, y)| values::new_values(plan.layer(x, y).len(), (D / 2) as u32, true))
            .collect();
        let mut group = Group {
            a,
            b,
            members,
            reads,
            own,
            sweeps: 0,
            began,
            cpu0,
        };
        match group.load_checkpoints(dir, n) {
            Some(sweeps) => {
                group.sweeps = sweeps;
                let run = &mut self.log.run;
                if run.resumed_at_sweep == 0 {
                    run.resumed_at_sweep = sweeps;
                }
            }
            // Not all of them: start afresh.
            None => group.guess(plan),
        }
        Ok(group)
    }

    /// Sweeps the group until converged, telling the progress bar after each
    /// sweep; returns the sweeps it then counts (of every run). A checkpoint is
    /// written by a thread of its own while the sweeps go on (the disk may be
    /// slow): values of different sweeps mixed are as good a start for the
    /// iteration as any.
    fn sweep_until_converged(&mut self, group: &Group, stop: Stop) -> Result<u32, LayeredError> {
        let (plan, opts, progress) = (self.plan, self.opts, self.progress);
        let (dir, n) = (opts.dir.as_path(), plan.n);
        let (a, b) = (group.a, group.b);
        let group_work = group_work(plan, a, b);
        // A layer whose own successors lie in it (a = b: the roller's value is
        // one less the other's, in the same layer) has errors that change sign
        // from sweep to sweep, which any weight above one feeds: plain from the
        // start.
        let weight = if group.members.len() == 2 {
            opts.weight
        } else {
            WEIGHT_ONE
        };
        let mut convergence = Convergence::new(weight, opts.tolerance_steps);
        let mut last_checkpoint = Instant::now();
        let mut sweeps = group.sweeps;
        let (done_work, total_work, to_write) = (self.done_work, self.total_work, self.to_write);
        let log = &mut self.log;
        std::thread::scope(|scope| -> Result<u32, LayeredError> {
            let mut writer: Option<Writer<'_>> = None;
            loop {
                let change = group.sweep(plan, convergence.weight(), stop)?;
                sweeps += 1;
                log.run.sweeps += 1;
                convergence.note(change);
                let share = convergence.share_done(sweeps);
                progress(Progress {
                    done: (done_work + group_work * share) / total_work,
                    what: format!(
                        "layer {a}, {b}: sweep {sweeps}, largest change {:.1e}",
                        change as f64 / D as f64
                    ),
                });
                if convergence.converged() {
                    break;
                }
                let busy = writer.as_ref().is_some_and(|w| !w.is_finished());
                let checkpoint_bytes = group.file_bytes();
                if !busy
                    && last_checkpoint.elapsed() >= opts.checkpoint_every
                    && files::available_space(dir).is_ok_and(|free| {
                        checkpoint_fits(free, checkpoint_bytes, to_write, opts.disk_reserve)
                    })
                {
                    join_writer(writer.take())?;
                    writer = Some(write_checkpoint(scope, dir, n, group, sweeps));
                    last_checkpoint = Instant::now();
                    // The record counts this run's time so far: a run stopped
                    // inside the group then still counts it.
                    log.save()?;
                }
            }
            join_writer(writer.take())?;
            Ok(sweeps)
        })
    }

    /// Writes the finished layers to disk while the certifying pass checks
    /// every position's equation from the values in memory; returns each
    /// layer's largest residual and where it is.
    fn write_and_certify(
        &self,
        group: &Group,
        stop: Stop,
    ) -> Result<Vec<(f64, String)>, LayeredError> {
        let (plan, dir) = (self.plan, self.opts.dir.as_path());
        // Where the disk is short, the checkpoints go before the finished
        // layers are written (a stop while they are written then starts the
        // group afresh).
        if !room_for(dir, group.file_bytes(), self.opts.disk_reserve) {
            for &(x, y) in &group.members {
                let _ = std::fs::remove_file(files::checkpoint_path(dir, x, y));
            }
        }
        std::thread::scope(|scope| {
            let writers: Vec<_> = group
                .members
                .iter()
                .zip(&group.own)
                .map(|(&(x, y), values)| {
                    let h = header(plan.n, (x, y), group.sweeps, 1);
                    scope
                        .spawn(move || files::write_layer(&files::layer_path(dir, x, y), h, values))
                })
                .collect();
            let (a, b) = (group.a, group.b);
            (self.progress)(Progress {
                done: (self.done_work + group_work(plan, a, b)) / self.total_work,
                what: format!("layer {a}, {b}: checking every position's equation"),
            });
            let mut residuals = Vec::new();
            for (i, &(x, y)) in group.members.iter().enumerate() {
                residuals.push(residual::certify_layer(
                    plan,
                    (x, y),
                    &group.own[i],
                    &group.own[group.partner(i)],
                    group.read((y, x + 1)),
                    stop,
                )?);
            }
            for w in writers {
                w.join().map_err(|_| LayeredError::Stopped)??;
            }
            Ok(residuals)
        })
    }

    /// Records the group's layers as finished (their checkpoints go), with
    /// their residuals, and this run's figures so far.
    fn note_finished(
        &mut self,
        group: &Group,
        residuals: Vec<(f64, String)>,
    ) -> Result<(), LayeredError> {
        let (plan, dir) = (self.plan, self.opts.dir.as_path());
        let record = &mut self.log.record;
        for &(x, y) in &group.members {
            let _ = std::fs::remove_file(files::checkpoint_path(dir, x, y));
            self.finished[x * plan.n + y] = true;
            self.log.run.layers_solved += 1;
            record.stamp(dir, [x, y]);
        }
        let seconds = group.began.elapsed().as_secs_f64();
        let cpu = cpu_seconds().unwrap_or(0.0) - group.cpu0;
        for (&(x, y), (res, at)) in group.members.iter().zip(residuals) {
            record.layers.retain(|l| l.retired != [x, y]);
            record.layers.push(LayerRecord {
                retired: [x, y],
                positions: plan.layer(x, y).len(),
                sweeps: group.sweeps,
                seconds,
                cpu_seconds: cpu,
                residual: Some(res),
                residual_at: at,
            });
        }
        // The answer is found again once every layer is finished.
        record.residual = None;
        record.first_mover_wins = None;
        self.done_work += group_work(plan, group.a, group.b);
        self.to_write = self.to_write.saturating_sub(group.file_bytes());
        Ok(self.log.save()?)
    }
}

/// Starts writing the group's checkpoints, as they are after `sweeps` sweeps,
/// on a thread of `scope`.
fn write_checkpoint<'scope, 'env>(
    scope: &'scope Scope<'scope, 'env>,
    dir: &'env Path,
    n: usize,
    group: &'env Group,
    sweeps: u32,
) -> Writer<'scope> {
    scope.spawn(move || {
        for (&(x, y), values) in group.members.iter().zip(&group.own) {
            files::write_layer(
                &files::checkpoint_path(dir, x, y),
                header(n, (x, y), sweeps, 0),
                values,
            )?;
        }
        Ok(())
    })
}
