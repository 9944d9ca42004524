//! The exact solution of the four-marker game on an ordinary machine: layers of
//! 4-byte values over a dense index of only the positions that can occur, kept
//! on disk as they are finished, resumable, and certified by an independent
//! pass over every position.
//!
//! * [`index`]: the dense index of one layer (only the pairs that can occur).
//! * [`sweep`]: one in-place sweep of a layer, a band of the other's ranks at a
//!   time, in exact integer arithmetic on the fixed point.
//! * [`files`]: the layer files (a SHA-256 per layer), the checkpoints of the
//!   layer in progress and the solve's record.
//! * [`residual`]: the certifying pass (the Bellman residual of every position).
//! * [`table`]: the solved table read back (memory-mapped) for the players.
//! * [`solver`]: the order of the layers, memory and disk checks, resuming.

pub mod files;
pub(crate) mod guess;
pub mod index;
pub mod residual;
pub mod solver;
pub(crate) mod sweep;
pub mod table;
pub mod values;

pub use solver::{solve, LayeredError, Options, Record};
pub use table::BigTable;

use crate::exact::{multisets, Sets};
use index::LayerIndex;

/// Markers in play of each layer's players and the layers' indexes.
pub struct Plan {
    /// Markers per player.
    pub n: usize,
    /// The multisets of 1..=n markers (`sets[k - 1]`).
    pub(crate) sets: Vec<Sets>,
    /// Layer (a, b) (roller a retired, other b) at `a * n + b`.
    pub index: Vec<LayerIndex>,
}

impl Plan {
    /// The plan of the game with `n` markers per player.
    pub fn new(n: usize) -> Plan {
        use rayon::prelude::*;
        let sets: Vec<Sets> = (1..=n).into_par_iter().map(Sets::build).collect();
        let mut index = Vec::with_capacity(n * n);
        for a in 0..n {
            for b in 0..n {
                index.push(LayerIndex::new(n - a, &sets[n - a - 1].mask, n - b));
            }
        }
        Plan { n, sets, index }
    }

    /// The index of layer (a, b).
    pub fn layer(&self, a: usize, b: usize) -> &LayerIndex {
        &self.index[a * self.n + b]
    }

    /// The multisets of `k` markers (`k >= 1`).
    pub(crate) fn set(&self, k: usize) -> &Sets {
        &self.sets[k - 1]
    }

    /// Bytes of the multiset tables and indexes.
    pub fn bytes(&self) -> u64 {
        (1..=self.n).map(Sets::bytes).sum::<u64>()
            + self.index.iter().map(LayerIndex::bytes).sum::<u64>()
    }

    /// The groups {(a, b), (b, a)} (a <= b) in the order they are solved: most
    /// markers retired first, since a move from (a, b) leads to (b, a) or, when
    /// it retires a marker, to (b, a + 1).
    pub fn groups(&self) -> Vec<(usize, usize)> {
        let n = self.n;
        let mut out = Vec::new();
        for total in (0..=2 * (n - 1)).rev() {
            for a in 0..n {
                if let Some(b) = total.checked_sub(a).filter(|&b| b < n && a <= b) {
                    out.push((a, b));
                }
            }
        }
        out
    }

    /// The layers of group (a, b): one when a = b.
    pub fn members(a: usize, b: usize) -> Vec<(usize, usize)> {
        if a == b {
            vec![(a, b)]
        } else {
            vec![(a, b), (b, a)]
        }
    }

    /// The finished layers a group reads: (b, a + 1) and (a, b + 1), those that
    /// exist (retiring the last marker wins).
    pub fn reads(&self, a: usize, b: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (x, y) in Plan::members(a, b) {
            // Layer (x, y) retiring leads to (y, x + 1).
            if x + 1 < self.n && !out.contains(&(y, x + 1)) {
                out.push((y, x + 1));
            }
        }
        out
    }

    /// Positions in all layers.
    pub fn positions(&self) -> u64 {
        self.index.iter().map(LayerIndex::len).sum()
    }

    /// The multisets of `k` markers, 1 for none.
    pub fn multisets(k: usize) -> usize {
        if k == 0 {
            1
        } else {
            multisets(k)
        }
    }
}

/// Small tables solved in layers on the disk, for tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::{files, solve, solver, BigTable, Options, Plan, Record};
    use crate::exact::{self, Solution};
    use std::path::Path;
    use std::sync::atomic::Ordering::Relaxed;
    use std::time::Duration;
    use tabula_core::Budget;
    use tempfile::TempDir;

    /// A solve into `dir` with no limit of memory, time or disk.
    pub(crate) fn options(dir: &Path) -> Options {
        Options {
            dir: dir.to_path_buf(),
            tolerance_steps: solver::TOLERANCE_STEPS,
            max_memory: u64::MAX,
            checkpoint_every: Duration::from_secs(3600),
            budget: Budget::unlimited(),
            disk_reserve: 0,
            weight: solver::WEIGHT,
        }
    }

    /// The largest difference between the values of two finished tables of
    /// `n` markers in `p` and `q`, position by position, in steps of the
    /// fixed point.
    pub(crate) fn largest_difference(plan: &Plan, p: &Path, q: &Path) -> u32 {
        let mut worst = 0u32;
        for a in 0..plan.n {
            for b in 0..plan.n {
                let open = |dir: &Path| {
                    files::MappedLayer::open(
                        &files::layer_path(dir, a, b),
                        plan.n,
                        (a, b),
                        plan.layer(a, b).len(),
                    )
                    .unwrap()
                };
                let (x, y) = (open(p), open(q));
                for (u, v) in x.values().iter().zip(y.values()) {
                    worst = worst.max(u.load(Relaxed).abs_diff(v.load(Relaxed)));
                }
            }
        }
        worst
    }

    /// Markers of the timing tests: `TABULA_SWEEP_MARKERS`, 3 unless set (4
    /// needs about 17 GB).
    pub(crate) fn timing_markers() -> usize {
        std::env::var("TABULA_SWEEP_MARKERS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(3)
    }

    /// A fresh temporary directory for a test's tables (named from `name`),
    /// removed with everything in it when dropped, a failing test's too.
    pub(crate) fn scratch(name: &str) -> TempDir {
        tempfile::Builder::new()
            .prefix(&format!("tabula-{name}-"))
            .tempdir()
            .expect("a temporary directory")
    }

    /// `n` markers solved in layers into a fresh temporary directory (named
    /// from `name`), opened as the players open the four-marker table: the
    /// directory (removed when dropped), the solve's record and the table.
    pub(crate) fn solved_on_disk(n: usize, name: &str) -> (TempDir, Record, Solution) {
        let dir = scratch(&format!("{name}-{n}"));
        let record = solve(&Plan::new(n), &options(dir.path()), &|_| {}).unwrap();
        let table = exact::solution_of_layered(BigTable::open(dir.path(), n, &|_| {}).unwrap());
        (dir, record, table)
    }
}

#[cfg(test)]
mod tests {
    use super::testing::options;
    use super::*;
    use crate::exact::{self, Order};
    use std::time::Duration;

    /// The layered table against today's solver (f64 iteration to 1e-12, kept
    /// as 4-byte fixed point) at every position, for `n` markers, read as the
    /// players and analysis read it (the table opened from its files as the
    /// process's solution); after every roll of 2 to 6 at every seventh
    /// position also every move's chance.
    pub(crate) fn agrees_with_todays_values(n: usize) -> (f64, Record) {
        let (dir, record, table) = super::testing::solved_on_disk(n, "layered");
        // The report's "largest change in the last sweep" is what the sweeps
        // could still move a value by: one step of the fixed point, not zero.
        let step = 1.0 / u32::MAX as f64;
        assert_eq!(
            table.stats().tolerance,
            step.max(solver::TOLERANCE_STEPS as f64 * step)
        );
        let old = exact::solve_with(
            n,
            exact::DEFAULT_TOLERANCE,
            u64::MAX,
            Order::Layered,
            &|| false,
            &|_| {},
        )
        .unwrap();
        let worst = std::sync::Mutex::new(0.0f64);
        let decisions = std::sync::atomic::AtomicUsize::new(0);
        old.for_each_position(&|state, v| {
            let mut d = (table.value(state).unwrap() - v).abs();
            let squares: usize = state.markers.iter().flatten().map(|&p| p as usize).sum();
            if squares % 7 == 0 {
                for r in 2..=6 {
                    let mut s = *state;
                    s.apply(crate::state::Move::Roll(r));
                    let (mine, todays) = (table.move_values(&s), old.move_values(&s));
                    assert!(!mine.is_empty());
                    assert_eq!(mine.len(), todays.len(), "{s:?}");
                    for (&(m, p), &(_, q)) in mine.iter().zip(&todays) {
                        // Ties may list the moves in another order.
                        let q_of_m = todays.iter().find(|t| t.0 == m).unwrap().1;
                        d = d.max((p - q).abs()).max((p - q_of_m).abs());
                    }
                    decisions.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            }
            let mut w = worst.lock().unwrap();
            *w = w.max(d);
        });
        assert!(decisions.into_inner() > 0);
        drop(dir);
        let w = *worst.lock().unwrap();
        (w, record)
    }

    #[test]
    fn one_and_two_markers_agree_with_todays_values_to_1e_9() {
        for n in 1..=2 {
            let (d, record) = agrees_with_todays_values(n);
            let r = record.residual.unwrap();
            println!(
                "{n} markers: largest difference {d:e}, residual {:e} at {}",
                r.largest, r.at
            );
            assert!(d <= 1e-9, "{n} markers: {d}");
            assert!(r.largest <= 1e-9, "{n} markers: residual {}", r.largest);
            assert_eq!(r.positions, exact::count_positions(n));
        }
    }

    /// Three markers (release mode: `cargo test --release -p tabula-auto120
    /// --lib three_markers_agree_with_todays -- --ignored --nocapture`).
    #[test]
    #[ignore = "two solves of three markers: minutes in release mode"]
    fn three_markers_agree_with_todays_values_to_1e_9() {
        let began = std::time::Instant::now();
        let (d, record) = agrees_with_todays_values(3);
        let r = record.residual.clone().unwrap();
        println!(
            "3 markers: largest difference {d:e}, residual {:e} at {}; layered solve {:.1} s ({:.1} CPU s), both solves and the comparison {:.1} s",
            r.largest,
            r.at,
            record.seconds(),
            record.cpu_seconds(),
            began.elapsed().as_secs_f64()
        );
        for l in &record.layers {
            println!(
                "  layer {:?}: {} positions, {} sweeps, {:.1} s",
                l.retired, l.positions, l.sweeps, l.seconds
            );
        }
        assert!(d <= 1e-9, "{d}");
        assert!(r.largest <= 1e-9, "{}", r.largest);
    }

    /// The progress a solve reports only grows, ends at the whole, and passes
    /// through the one-step sweeps at the end of each group without going
    /// back (the estimate once took them for a stall and fell from 95% to 60%).
    #[test]
    fn the_progress_never_goes_back() {
        let dir = super::testing::scratch("layered-progress");
        let seen = std::sync::Mutex::new(Vec::new());
        solve(&Plan::new(2), &options(dir.path()), &|p| {
            seen.lock().unwrap().push((p.done, p.what.clone()))
        })
        .unwrap();
        let seen = seen.into_inner().unwrap();
        assert!(seen.len() > 10, "{seen:?}");
        for w in seen.windows(2) {
            assert!(w[1].0 >= w[0].0, "went back: {:?} then {:?}", w[0], w[1]);
        }
        let last = seen.last().unwrap().0;
        assert!(
            (0.99..=1.0).contains(&last),
            "ended at {last}: {:?}",
            &seen[seen.len() - 3..]
        );
    }

    /// Over-relaxed sweeps (the solver's weight) reach the table plain
    /// Gauss-Seidel sweeps reach, position by position, for one and two
    /// markers; both certified.
    #[test]
    fn over_relaxed_sweeps_reach_the_plain_sweeps_values() {
        let base = super::testing::scratch("layered-weight");
        let base = base.path();
        for n in 1..=2 {
            let plan = Plan::new(n);
            let plain_dir = base.join(format!("plain-{n}"));
            let fast_dir = base.join(format!("fast-{n}"));
            let mut plain = options(&plain_dir);
            plain.weight = sweep::WEIGHT_ONE;
            let mut fast = options(&fast_dir);
            fast.weight = solver::OVER_RELAXED;
            assert!(fast.weight > sweep::WEIGHT_ONE);
            for (opts, dir) in [(&plain, &plain_dir), (&fast, &fast_dir)] {
                let r = solve(&plan, opts, &|_| {}).unwrap();
                let res = r.residual.unwrap();
                assert!(res.largest <= 1e-9, "{n} markers in {dir:?}: {res:?}");
            }
            let steps = super::testing::largest_difference(&plan, &plain_dir, &fast_dir);
            assert!(
                steps as f64 / sweep::D as f64 <= 1e-9,
                "{n} markers: {steps} steps apart"
            );
        }
    }

    /// A solve stopped between the checkpoints of a group's two layers (one
    /// written at sweep 8, the other still at 7) goes on from them, not
    /// afresh, and ends at the table of a solve never stopped.
    #[test]
    fn a_group_goes_on_from_checkpoints_a_sweep_apart() {
        let base = super::testing::scratch("layered-apart");
        let (whole, apart) = (base.path().join("whole"), base.path().join("apart"));
        let plan = Plan::new(2);
        solve(&plan, &options(&whole), &|_| {}).unwrap();
        std::fs::create_dir_all(&apart).unwrap();
        std::fs::copy(
            files::layer_path(&whole, 1, 1),
            files::layer_path(&apart, 1, 1),
        )
        .unwrap();
        // The group's finished values as its checkpoints, a sweep apart.
        for ((a, b), sweeps) in [((0, 1), 8), ((1, 0), 7)] {
            let len = plan.layer(a, b).len();
            let values: Vec<std::sync::atomic::AtomicU32> =
                (0..len).map(|_| Default::default()).collect();
            files::check_layer(
                &files::layer_path(&whole, a, b),
                2,
                (a, b),
                len,
                true,
                Some(&values),
            )
            .unwrap();
            let header = files::Header {
                markers: 2,
                a: a as u32,
                b: b as u32,
                sweeps,
                finished: 0,
                count: 0,
                sha256: [0; 32],
            };
            files::write_layer(&files::checkpoint_path(&apart, a, b), header, &values).unwrap();
        }
        let record = solve(&plan, &options(&apart), &|_| {}).unwrap();
        let run = record.runs.last().unwrap();
        assert_eq!(run.resumed_at_sweep, 7, "{run:?}");
        let group = record.layers.iter().find(|l| l.retired == [0, 1]).unwrap();
        // From its fixed point it needs only the sweeps that show it (afresh,
        // about a hundred).
        assert!(group.sweeps <= 7 + 20, "{group:?}");
        let steps = super::testing::largest_difference(&plan, &apart, &whole);
        assert!(
            steps as f64 / sweep::D as f64 <= 1e-9,
            "{steps} steps apart"
        );
    }

    /// The child of `a_solve_killed_twice_goes_on_from_what_it_finished`: solves
    /// into `TABULA_LAYERED_CHILD` and, once it is at sweep `s` or later of layer
    /// (a, b) with the checkpoints of that layer's group on the disk
    /// (`TABULA_LAYERED_HOLD` = "a,b,s"), says so in a file and waits there to be
    /// killed. (The checkpoints are written by a thread of their own: a sweep's
    /// number alone does not say that one is there yet.)
    #[test]
    #[ignore = "run by a_solve_killed_twice_goes_on_from_what_it_finished"]
    fn child_solve_until_killed() {
        let Some(dir) = std::env::var_os("TABULA_LAYERED_CHILD") else {
            return;
        };
        let hold: Vec<usize> = std::env::var("TABULA_LAYERED_HOLD")
            .unwrap_or_default()
            .split(',')
            .filter_map(|x| x.trim().parse().ok())
            .collect();
        let [a, b, from_sweep] = hold[..] else {
            panic!("TABULA_LAYERED_HOLD must be a,b,sweep");
        };
        let dir = std::path::PathBuf::from(dir);
        let checkpointed = |dir: &std::path::Path| {
            files::checkpoint_path(dir, a, b).exists() && files::checkpoint_path(dir, b, a).exists()
        };
        let prefix = format!("layer {a}, {b}: sweep ");
        let mut opts = options(&dir);
        // A checkpoint after every sweep.
        opts.checkpoint_every = Duration::ZERO;
        let plan = Plan::new(2);
        let _ = solve(&plan, &opts, &|p| {
            let sweep = p
                .what
                .strip_prefix(&prefix)
                .and_then(|rest| rest.split(',').next())
                .and_then(|n| n.parse::<usize>().ok());
            if sweep.is_some_and(|s| s >= from_sweep) && checkpointed(&dir) {
                std::fs::write(dir.join("holding"), &p.what).unwrap();
                loop {
                    std::thread::sleep(Duration::from_secs(1));
                }
            }
        });
    }

    /// The small model of the four-marker solve, in CI: two markers solved in
    /// layers on disk by a process killed (SIGKILL) twice, once inside the
    /// group {(0, 1), (1, 0)} and once inside the start layer,
    /// each after checkpoints, then run again to the end: it reads the
    /// finished layers instead of solving them again, goes on from the
    /// checkpoints, and finds the table of an uninterrupted solve (every
    /// position to 1e-9), certified.
    #[test]
    fn a_solve_killed_twice_goes_on_from_what_it_finished() {
        let base = super::testing::scratch("layered-kill");
        let (killed, whole) = (base.path().join("killed"), base.path().join("whole"));
        std::fs::create_dir_all(&killed).unwrap();
        let run_and_kill = |hold: &str| {
            let _ = std::fs::remove_file(killed.join("holding"));
            let mut child = std::process::Command::new(std::env::current_exe().unwrap())
                .args([
                    "--exact",
                    "exact::layered::tests::child_solve_until_killed",
                    "--ignored",
                    "--nocapture",
                ])
                .env("TABULA_LAYERED_CHILD", &killed)
                .env("TABULA_LAYERED_HOLD", hold)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let began = std::time::Instant::now();
            while !killed.join("holding").exists() {
                assert!(
                    began.elapsed() < Duration::from_secs(300),
                    "the child never reached {hold}"
                );
                assert!(
                    child.try_wait().unwrap().is_none(),
                    "the child ended before {hold}"
                );
                std::thread::sleep(Duration::from_millis(20));
            }
            // kill -9: no chance to tidy up.
            child.kill().unwrap();
            child.wait().unwrap();
        };
        // First kill: inside the group {(0, 1), (1, 0)}, after
        // checkpoints were written (one per sweep here); layer (1, 1) finished.
        run_and_kill("0,1,5");
        let plan = Plan::new(2);
        assert!(files::layer_path(&killed, 1, 1).exists());
        for (a, b) in [(0, 1), (1, 0)] {
            assert!(!files::layer_path(&killed, a, b).exists());
            assert!(files::checkpoint_path(&killed, a, b).exists());
        }
        // Second kill: inside the start layer, after checkpoints.
        run_and_kill("0,0,5");
        let finished: Vec<(usize, usize)> = [(1, 1), (0, 1), (1, 0)].into();
        for &(a, b) in &finished {
            assert!(files::layer_path(&killed, a, b).exists());
        }
        assert!(files::checkpoint_path(&killed, 0, 0).exists());
        assert!(!files::layer_path(&killed, 0, 0).exists());
        // Run again to the end.
        let record = solve(&plan, &options(&killed), &|_| {}).unwrap();
        let last = record.runs.last().unwrap();
        assert_eq!(
            last.layers_read,
            finished.len(),
            "finished layers read, not solved again"
        );
        assert_eq!(last.layers_solved, 1, "only the start layer was left");
        assert!(
            last.resumed_at_sweep >= 1,
            "went on from a checkpoint: {last:?}"
        );
        assert_eq!(record.runs.len(), 3, "three runs recorded");
        // The run killed inside the start layer counts its sweeps and time up
        // to its last checkpoint.
        let second = &record.runs[1];
        assert!(
            second.sweeps >= 1 && second.layers_solved == 2 && second.seconds > 0.0,
            "{second:?}"
        );
        // It went on with the group it found half done, from its checkpoint.
        assert!(
            (second.layers_read, second.resumed_at_sweep >= 1) == (1, true),
            "{second:?}"
        );
        let residual = record.residual.clone().unwrap();
        assert!(residual.largest <= 1e-9, "{residual:?}");
        assert_eq!(residual.positions, exact::count_positions(2));
        // The same first mover's chance as a solve never stopped.
        let straight = solve(&plan, &options(&whole), &|_| {}).unwrap();
        let (p, q) = (
            record.first_mover_wins.unwrap(),
            straight.first_mover_wins.unwrap(),
        );
        assert!((p - q).abs() <= 1e-9, "{p} against {q}");
        // And the same table, position by position: the sweeps
        // started again from a checkpoint end where those never stopped do.
        let steps = super::testing::largest_difference(&plan, &killed, &whole);
        assert!(
            steps as f64 / sweep::D as f64 <= 1e-9,
            "{steps} steps apart"
        );
        // A run on a finished table solves nothing.
        let again = solve(&plan, &options(&killed), &|_| {}).unwrap();
        let last = again.runs.last().unwrap();
        assert_eq!((last.layers_read, last.layers_solved), (4, 0));
        // A damaged layer is found, solved again, and the table is whole.
        let path = files::layer_path(&killed, 0, 1);
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() - 100;
        bytes[at] ^= 0x10;
        std::fs::write(&path, &bytes).unwrap();
        let mended = solve(&plan, &options(&killed), &|_| {}).unwrap();
        let last = mended.runs.last().unwrap();
        assert_eq!(
            (last.files_rejected, last.layers_read, last.layers_solved),
            (1, 2, 2),
            "{last:?}"
        );
        assert!((mended.first_mover_wins.unwrap() - q).abs() <= 1e-9);
    }
}
