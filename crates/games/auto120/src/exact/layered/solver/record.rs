//! The solve's record, `solve.json` beside the layers: every run, every
//! finished layer and the answer, written as the solve goes so that a run
//! stopped at any point still counts what it did.

use super::super::files;
use super::super::residual::Residual;
use crate::exact::{cpu_seconds, peak_rss_bytes};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;

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
    pub(super) fn stamp(&mut self, dir: &Path, retired: [usize; 2]) {
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

    /// Forgets layer `retired` (its file was damaged and is solved again), and
    /// with it the answer, which is found again once every layer is finished.
    pub(super) fn forget_layer(&mut self, retired: [usize; 2]) {
        self.stamps.retain(|s| s.retired != retired);
        self.layers.retain(|l| l.retired != retired);
        self.residual = None;
        self.first_mover_wins = None;
    }

    /// The certifying pass over the whole table from the layers' own residuals:
    /// the largest of them, and where it is.
    pub(super) fn whole_residual(&self) -> Residual {
        let worst = self.layers.iter().max_by(|p, q| {
            p.residual
                .unwrap_or(0.0)
                .total_cmp(&q.residual.unwrap_or(0.0))
        });
        Residual {
            largest: worst.and_then(|l| l.residual).unwrap_or(0.0),
            at: worst.map(|l| l.residual_at.clone()).unwrap_or_default(),
            positions: self.layers.iter().map(|l| l.positions).sum(),
            seconds: 0.0,
        }
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

/// The record of a solve as a run goes on, with this run's entry (the last of
/// `record.runs`) kept apart until it is written.
pub(super) struct RunLog<'d> {
    pub(super) record: Record,
    pub(super) run: RunRecord,
    /// When this run began, wall clock and CPU seconds.
    began: Instant,
    cpu0: f64,
    dir: &'d Path,
}

impl<'d> RunLog<'d> {
    /// Starts this run's entry in `record` (kept in `dir`); the run began at
    /// `began`, with `cpu0` CPU seconds used by then.
    pub(super) fn new(mut record: Record, began: Instant, cpu0: f64, dir: &'d Path) -> Self {
        let run = RunRecord::default();
        record.runs.push(run.clone());
        RunLog {
            record,
            run,
            began,
            cpu0,
            dir,
        }
    }

    /// Writes the record with this run's figures so far, so that a run stopped
    /// later still counts what it did.
    pub(super) fn save(&mut self) -> std::io::Result<()> {
        let run = &mut self.run;
        run.seconds = self.began.elapsed().as_secs_f64();
        run.cpu_seconds = cpu_seconds().unwrap_or(0.0) - self.cpu0;
        run.peak_bytes = peak_rss_bytes().unwrap_or(0);
        if let Some(last) = self.record.runs.last_mut() {
            *last = run.clone();
        }
        self.record.write(self.dir)
    }
}
