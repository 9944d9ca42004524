//! Shared tables built once, off the thread pool of the threads that wait for them.
//!
//! A table that many threads read (Kono's solution, Auto120's exact tables, a game's
//! oracle) is built once per process, often with rayon. Waiting for it is only safe
//! when the build cannot need the waiting threads: a worker of rayon's global pool
//! that blocks on a lock, a `OnceLock` or a condition variable while the table is
//! built *on that same pool* deadlocks once every worker waits; and a worker that
//! builds inside `join`/`install` may steal another task that asks for the same
//! table on the same thread (re-entrant initialisation, another deadlock).
//!
//! A [`TableCell`] avoids both: the first caller starts the build on a thread of its
//! own running a rayon pool of its own (every parallel loop of the build runs
//! there), and every caller — the first included — then only waits, never steals
//! work, until the table is ready, the waiter's [`Budget`] is cancelled or its
//! deadline passes. A waiter that runs out of time leaves the build to finish, so
//! a later caller finds the table; when the last waiter is *cancelled* (a job
//! deleted, a client gone), the build is asked to stop too (it runs under a
//! [`Budget`] whose cancel flag the cell raises), and the cell is empty again for
//! whoever asks next: a cancelled solve must not go on holding the cores and the
//! build gate for minutes. Builds that need another cell's table wait for it
//! the same way, on their own pools, so nested builds progress too.
//!
//! No failure is kept for good unless it is lasting. A build says which
//! ([`BuildError`]): a *passing* failure (the machine busy, memory held by other
//! tables, a table that could only be read from disk and is not there yet) is
//! tried again by the next caller after a pause that doubles with each failure
//! in a row, from [`FIRST_PAUSE`] up to [`LONGEST_PAUSE`]; each try runs the whole
//! build again, so a build that reads a disk cache first reads it again (another
//! program may have written the table meanwhile). Only a *lasting* failure (too
//! big for the process's memory limit whatever else happens, a bug) stays.
//! [`TableCell::status`] says which of these a table is in, with the build's
//! progress, so that a front end can tell a player that the table is being
//! prepared instead of that there is none.

use crate::budget::{Budget, BudgetError, CancelFlag};
use crate::ledger::Ledger;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How often a waiter looks at its budget and passes on the build's progress.
const POLL: Duration = Duration::from_millis(50);

/// The pause after a first passing failure; it doubles with each failure in a row.
pub const FIRST_PAUSE: Duration = Duration::from_secs(1);

/// The longest pause between two tries of a build that keeps failing for a
/// passing reason.
pub const LONGEST_PAUSE: Duration = Duration::from_secs(30);

thread_local! {
    /// True on a build's own threads: a build that needs another cell's table
    /// starts that build past the gate it already holds
    /// ([`Ledger::one_build_at_a_time`]; else it would wait on itself).
    static INSIDE_BUILD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Why a build gave no table, as the build itself says: whether trying again
/// later may succeed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// It may succeed later: the machine was busy, other tables held the memory
    /// it needs, it was stopped, or what it reads is not there yet. Tried again
    /// after a pause.
    #[error("{0}")]
    Passing(String),
    /// It cannot succeed in this process whatever happens (more than the
    /// process's memory limit, a bug): not tried again.
    #[error("{0}")]
    Lasting(String),
}

impl BuildError {
    /// Whether trying again later may succeed.
    pub fn is_passing(&self) -> bool {
        matches!(self, BuildError::Passing(_))
    }
}

/// Words alone do not say whether a failure lasts: taken as passing, so that it
/// is tried again (after a pause) rather than kept for good.
impl From<String> for BuildError {
    fn from(reason: String) -> Self {
        BuildError::Passing(reason)
    }
}

impl From<&str> for BuildError {
    fn from(reason: &str) -> Self {
        BuildError::Passing(reason.to_string())
    }
}

/// More memory than the limit is lasting; tables held by others, a busy
/// machine, a cancel or a deadline pass.
impl From<BudgetError> for BuildError {
    fn from(e: BudgetError) -> Self {
        match e {
            BudgetError::Memory { .. } => BuildError::Lasting(e.to_string()),
            _ => BuildError::Passing(e.to_string()),
        }
    }
}

/// A table another build needed was not there: passing unless its own failure
/// lasts.
impl From<TableError> for BuildError {
    fn from(e: TableError) -> Self {
        match e {
            TableError::Stopped(b) => b.into(),
            // The reason alone: the build that needed it says when it tries again.
            TableError::Failed {
                reason,
                retry_in: None,
                ..
            } => BuildError::Lasting(reason),
            TableError::Failed { reason, .. } => BuildError::Passing(reason),
        }
    }
}

/// Why a [`TableCell`] gave no table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The waiter's budget was cancelled or ran out of time before the table was
    /// ready (the build goes on for later callers, unless every waiter was
    /// cancelled).
    #[error(transparent)]
    Stopped(#[from] BudgetError),
    /// The build failed: for good when `retry_in` is `None`, else it is tried
    /// again by a caller that comes after that long.
    #[error("{}", failed_words(what, reason, *retry_in))]
    Failed {
        /// The table, in plain words.
        what: String,
        /// Why, in plain words.
        reason: String,
        /// When the failure was passing: how long until it is tried again.
        retry_in: Option<Duration>,
    },
}

fn failed_words(what: &str, reason: &str, retry_in: Option<Duration>) -> String {
    // "the table could not be built: it would need …", not "… the table would need".
    let reason = match reason.strip_prefix(what) {
        Some(rest) => format!("it{rest}"),
        None => reason.to_string(),
    };
    match retry_in {
        None => format!("{what} cannot be built here: {reason}"),
        Some(d) => format!(
            "{what} could not be built just now: {reason}; it is tried again {}",
            pause_words(d)
        ),
    }
}

/// "in 4 s", or "now" for a pause that is over.
pub fn pause_words(d: Duration) -> String {
    match d.as_secs_f64().ceil() as u64 {
        0 => "now".to_string(),
        s => format!("in {s} s"),
    }
}

/// Where a table stands, for a front end to say so.
#[derive(Clone, Debug, PartialEq)]
pub enum TableStatus {
    /// Not built, and no build under way: the next caller starts one.
    Absent,
    /// Being built: how far it has come, 0..1.
    Building {
        /// The build's progress, 0..1.
        progress: f64,
    },
    /// Built.
    Ready,
    /// The last build failed for a passing reason; the first caller after
    /// `retry_in` builds it again.
    Paused {
        /// Why it failed, in plain words.
        reason: String,
        /// How long until it is tried again (zero: at the next call).
        retry_in: Duration,
    },
    /// The build failed for good in this process.
    Failed {
        /// Why, in plain words.
        reason: String,
    },
}

enum Slot<T> {
    Empty,
    /// Being built; raising the flag asks the build to stop.
    Building(CancelFlag),
    Ready(Arc<T>),
    /// Failed for a passing reason: built again by a caller from `at` on.
    Paused {
        reason: String,
        at: Instant,
    },
    /// Failed for good.
    Failed(String),
}

struct Inner<T> {
    what: String,
    slot: Mutex<Slot<T>>,
    changed: Condvar,
    /// The build's progress, 0..1, as `f64` bits.
    progress: AtomicU64,
    /// Callers waiting in [`TableCell::get_or_build`] now.
    waiters: AtomicUsize,
    /// Passing failures in a row (the pause doubles with each).
    failures: AtomicU32,
}

impl<T> Inner<T> {
    fn slot(&self) -> MutexGuard<'_, Slot<T>> {
        // The lock is never held while user code runs, so a poisoned lock holds a
        // consistent slot.
        self.slot.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The slot after a build ended with `built` (under the slot's lock).
    fn settle(&self, built: Result<T, BuildError>, stopped: bool) -> Slot<T> {
        match built {
            Ok(table) => {
                self.failures.store(0, Ordering::Relaxed);
                Slot::Ready(Arc::new(table))
            }
            // Stopped because every waiter was cancelled: the next caller
            // builds it afresh.
            Err(_) if stopped => Slot::Empty,
            Err(BuildError::Passing(reason)) => {
                let n = self.failures.fetch_add(1, Ordering::Relaxed).min(16);
                let pause = FIRST_PAUSE.saturating_mul(1 << n).min(LONGEST_PAUSE);
                Slot::Paused {
                    reason,
                    at: Instant::now() + pause,
                }
            }
            Err(BuildError::Lasting(reason)) => Slot::Failed(reason),
        }
    }
}

/// A table built at most once, on a thread and rayon pool of its own, that callers
/// wait for within their budget. Clones share the table.
pub struct TableCell<T> {
    inner: Arc<Inner<T>>,
}

impl<T> Clone for TableCell<T> {
    fn clone(&self) -> Self {
        TableCell {
            inner: self.inner.clone(),
        }
    }
}

impl<T: Send + Sync + 'static> TableCell<T> {
    /// An empty cell for the table named `what` in plain words ("the Kono table").
    pub fn new(what: impl Into<String>) -> Self {
        TableCell {
            inner: Arc::new(Inner {
                what: what.into(),
                slot: Mutex::new(Slot::Empty),
                changed: Condvar::new(),
                progress: AtomicU64::new(0f64.to_bits()),
                waiters: AtomicUsize::new(0),
                failures: AtomicU32::new(0),
            }),
        }
    }

    /// The table, if it is built.
    pub fn get(&self) -> Option<Arc<T>> {
        match &*self.inner.slot() {
            Slot::Ready(t) => Some(t.clone()),
            _ => None,
        }
    }

    /// Whether a build has started and not ended yet.
    pub fn is_building(&self) -> bool {
        matches!(*self.inner.slot(), Slot::Building(_))
    }

    /// Where the table stands now.
    pub fn status(&self) -> TableStatus {
        match &*self.inner.slot() {
            Slot::Empty => TableStatus::Absent,
            Slot::Building(_) => TableStatus::Building {
                progress: f64::from_bits(self.inner.progress.load(Ordering::Relaxed)),
            },
            Slot::Ready(_) => TableStatus::Ready,
            Slot::Paused { reason, at } => TableStatus::Paused {
                reason: reason.clone(),
                retry_in: at.saturating_duration_since(Instant::now()),
            },
            Slot::Failed(reason) => TableStatus::Failed {
                reason: reason.clone(),
            },
        }
    }

    /// Puts a table built elsewhere in the cell, unless one is there or being
    /// built (then the cell keeps its own). Returns the cell's table, if any.
    pub fn offer(&self, table: Arc<T>) -> Option<Arc<T>> {
        let mut slot = self.inner.slot();
        match &*slot {
            Slot::Ready(t) => Some(t.clone()),
            Slot::Building(_) => None,
            Slot::Empty | Slot::Paused { .. } | Slot::Failed(_) => {
                *slot = Slot::Ready(table.clone());
                self.inner.failures.store(0, Ordering::Relaxed);
                self.inner.changed.notify_all();
                Some(table)
            }
        }
    }

    /// The table: built now by `build` if no one has started it (on a new thread
    /// with its own rayon pool), then waited for until it is ready or `until` is
    /// cancelled or out of time. `progress` gets the build's progress (0..1) while
    /// this caller waits; `build` reports it through the function it is given,
    /// and says whether a failure is passing or lasting ([`BuildError`]; `?` on
    /// plain words makes a passing one).
    ///
    /// After a passing failure the cell pauses: a caller that comes during the
    /// pause waits for its end (within `until`) and builds again; a caller that
    /// waited for the build that failed gets the failure, and when it is tried
    /// again.
    pub fn get_or_build<F>(
        &self,
        build: F,
        until: &Budget,
        progress: &dyn Fn(f64),
    ) -> Result<Arc<T>, TableError>
    where
        F: FnOnce(&dyn Fn(f64)) -> Result<T, BuildError> + Send + 'static,
    {
        self.inner.waiters.fetch_add(1, Ordering::SeqCst);
        let waited = self.wait_or_build(build, until, progress);
        let left = self.inner.waiters.fetch_sub(1, Ordering::SeqCst) - 1;
        if let Err(TableError::Stopped(BudgetError::Cancelled)) = &waited {
            if left == 0 {
                if let Slot::Building(stop) = &*self.inner.slot() {
                    stop.cancel();
                }
            }
        }
        waited
    }

    fn failed(&self, reason: &str, retry_in: Option<Duration>) -> TableError {
        TableError::Failed {
            what: self.inner.what.clone(),
            reason: reason.to_string(),
            retry_in,
        }
    }

    fn wait_or_build<F>(
        &self,
        build: F,
        until: &Budget,
        progress: &dyn Fn(f64),
    ) -> Result<Arc<T>, TableError>
    where
        F: FnOnce(&dyn Fn(f64)) -> Result<T, BuildError> + Send + 'static,
    {
        let mut build = Some(build);
        let mut slot = self.inner.slot();
        let mut reported = f64::NAN;
        // Whether this caller saw a build under way: when it fails, this caller
        // is told so instead of waiting for the next try.
        let mut saw_a_build = false;
        loop {
            let now = Instant::now();
            let mut wake = None;
            match &*slot {
                Slot::Ready(t) => return Ok(t.clone()),
                Slot::Failed(reason) => return Err(self.failed(reason, None)),
                Slot::Paused { reason, at } if saw_a_build || build.is_none() => {
                    return Err(self.failed(reason, Some(at.saturating_duration_since(now))))
                }
                // The build this caller waited for was stopped (its other
                // waiters were cancelled): not waited for again.
                Slot::Empty if saw_a_build || build.is_none() => {
                    return Err(
                        self.failed("it was stopped before it finished", Some(Duration::ZERO))
                    )
                }
                Slot::Paused { at, .. } if *at > now => wake = Some(*at),
                Slot::Empty | Slot::Paused { .. } => {
                    let stop = CancelFlag::new();
                    *slot = Slot::Building(stop.clone());
                    self.inner.progress.store(0f64.to_bits(), Ordering::Relaxed);
                    saw_a_build = true;
                    if let Some(build) = build.take() {
                        if let Err(reason) = self.start(build, stop, until.ledger()) {
                            *slot = self.inner.settle(Err(BuildError::Passing(reason)), false);
                        }
                    }
                    continue;
                }
                // A build already told to stop (its waiters were all cancelled)
                // is not this caller's: wait for it to wind down, then build anew.
                Slot::Building(stop) if stop.is_cancelled() && !saw_a_build => {}
                Slot::Building(_) => saw_a_build = true,
            }
            until.check()?;
            let fraction = f64::from_bits(self.inner.progress.load(Ordering::Relaxed));
            if saw_a_build && fraction != reported {
                reported = fraction;
                drop(slot);
                progress(fraction);
                slot = self.inner.slot();
                continue;
            }
            let mut wait = until.remaining().map_or(POLL, |left| left.min(POLL));
            if let Some(at) = wake {
                wait = wait.min(at.saturating_duration_since(now));
            }
            slot = self
                .inner
                .changed
                .wait_timeout(slot, wait.max(Duration::from_millis(1)))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Starts `build` on a thread of its own running a rayon pool of its own,
    /// its tables counted in `ledger` (the ledger of the caller that started it).
    fn start<F>(&self, build: F, stop: CancelFlag, ledger: &'static Ledger) -> Result<(), String>
    where
        F: FnOnce(&dyn Fn(f64)) -> Result<T, BuildError> + Send + 'static,
    {
        let inner = self.inner.clone();
        let nested = INSIDE_BUILD.with(|b| b.get());
        let pool = rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("tabula-table-{i}"))
            .start_handler(|_| INSIDE_BUILD.with(|b| b.set(true)))
            .build()
            .map_err(|e| format!("no threads to build it: {e}"))?;
        std::thread::Builder::new()
            .name("tabula-table".into())
            .spawn(move || {
                INSIDE_BUILD.with(|b| b.set(true));
                let _gate = (!nested).then(|| ledger.one_build_at_a_time());
                let report = |f: f64| {
                    inner
                        .progress
                        .store(f.clamp(0.0, 1.0).to_bits(), Ordering::Relaxed)
                };
                // The build sees the cell's flag as its current budget's
                // (`Budget::current`), on the pool's thread that runs it, and
                // the ledger of the caller that started it as its budget's.
                let budget = Budget::within(ledger).with_cancel(stop.clone());
                let built = pool.install(|| {
                    budget.run(|| std::panic::catch_unwind(AssertUnwindSafe(|| build(&report))))
                });
                let built = built.unwrap_or_else(|_| {
                    Err(BuildError::Lasting(
                        "the program stopped with an internal error".into(),
                    ))
                });
                let mut slot = inner.slot();
                *slot = inner.settle(built, stop.is_cancelled());
                inner.changed.notify_all();
            })
            .map(|_| ())
            .map_err(|e| format!("no thread to build it: {e}"))
    }
}

/// What a thread that needs a table may wait for it: its current budget
/// ([`Budget::current`]), or without one as long as the build takes.
pub fn waiting_budget() -> Budget {
    Budget::current().unwrap_or_else(Budget::unlimited)
}

/// [`waiting_budget`], also ending at `deadline` if that comes first.
pub fn waiting_budget_until(deadline: Instant) -> Budget {
    let budget = waiting_budget();
    match budget.deadline {
        Some(d) if d <= deadline => budget,
        _ => budget.with_deadline(deadline),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;
    use std::sync::mpsc;

    /// Runs `f` on another thread; fails the test if it takes more than a minute
    /// (a deadlock) instead of hanging the test run.
    fn within_a_minute<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(Duration::from_secs(60))
            .expect("no answer within a minute: a deadlock")
    }

    #[test]
    fn every_worker_of_a_pool_may_wait_for_a_table_built_in_parallel() {
        let sums = within_a_minute(|| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .build()
                .unwrap();
            let cell: TableCell<u64> = TableCell::new("a test table");
            pool.install(|| {
                (0..16u64)
                    .into_par_iter()
                    .map(|_| {
                        let t = cell
                            .get_or_build(
                                |_| {
                                    std::thread::sleep(Duration::from_millis(100));
                                    Ok((0..10_000u64).into_par_iter().sum())
                                },
                                &Budget::unlimited(),
                                &|_| {},
                            )
                            .unwrap();
                        *t
                    })
                    .collect::<Vec<_>>()
            })
        });
        assert!(sums.iter().all(|&s| s == 49_995_000), "{sums:?}");
    }

    #[test]
    fn a_waiter_stops_at_its_deadline_or_cancel_and_the_build_goes_on() {
        let cell: TableCell<u32> = TableCell::new("a slow table");
        let (release, gate) = mpsc::channel::<()>();
        let started = Instant::now();
        let early = Budget::unlimited().with_timeout(Duration::from_millis(100));
        let r = cell.get_or_build(
            move |_| {
                gate.recv().ok();
                Ok(7)
            },
            &early,
            &|_| {},
        );
        assert_eq!(r.unwrap_err(), TableError::Stopped(BudgetError::Time));
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(cell.is_building());
        let cancelled = Budget::unlimited();
        cancelled.cancel();
        let r = cell.get_or_build(|_| Ok(0), &cancelled, &|_| {});
        assert_eq!(r.unwrap_err(), TableError::Stopped(BudgetError::Cancelled));
        release.send(()).unwrap();
        let t = cell
            .get_or_build(|_| Ok(0), &Budget::unlimited(), &|_| {})
            .unwrap();
        assert_eq!(*t, 7, "the first build's table, built once");
    }

    /// A build that runs until its current budget is cancelled (or a minute).
    fn until_cancelled() -> Result<u32, BuildError> {
        let budget = Budget::current().ok_or("no budget")?;
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(60) {
            if budget.is_cancelled() {
                return Err("stopped".into());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(1)
    }

    #[test]
    fn a_caller_that_comes_while_a_stopped_build_winds_down_builds_afresh() {
        within_a_minute(|| {
            let cell: TableCell<u32> = TableCell::new("a long table");
            let job = Budget::unlimited();
            let job2 = job.clone();
            let first = {
                let cell = cell.clone();
                std::thread::spawn(move || {
                    cell.get_or_build(
                        |_| {
                            let stopped = until_cancelled();
                            // Stopping takes a while (a solver's step ends first).
                            std::thread::sleep(Duration::from_millis(1000));
                            stopped
                        },
                        &job2,
                        &|_| {},
                    )
                })
            };
            std::thread::sleep(Duration::from_millis(50));
            job.cancel();
            let r = first.join().unwrap();
            assert_eq!(r.unwrap_err(), TableError::Stopped(BudgetError::Cancelled));
            assert!(
                cell.is_building(),
                "the stopped build is still winding down"
            );
            // A new caller, never cancelled, gets a table of its own, not the
            // stopped build's end as its failure.
            let t = cell
                .get_or_build(|_| Ok(5), &Budget::unlimited(), &|_| {})
                .unwrap();
            assert_eq!(*t, 5);
        });
    }

    #[test]
    fn a_build_stops_when_its_last_waiter_is_cancelled_and_is_built_afresh_after() {
        within_a_minute(|| {
            let cell: TableCell<u32> = TableCell::new("a long table");
            // Two waiters: the first cancelled leaves the build to the second,
            // which runs out of time (the build still goes on).
            let job = Budget::unlimited();
            let other = Budget::unlimited().with_timeout(Duration::from_millis(300));
            let (job2, other2) = (job.clone(), other.clone());
            let first = {
                let cell = cell.clone();
                std::thread::spawn(move || cell.get_or_build(|_| until_cancelled(), &job2, &|_| {}))
            };
            std::thread::sleep(Duration::from_millis(50));
            let second = {
                let cell = cell.clone();
                std::thread::spawn(move || cell.get_or_build(|_| Ok(2), &other2, &|_| {}))
            };
            std::thread::sleep(Duration::from_millis(50));
            job.cancel();
            let r = first.join().unwrap();
            assert_eq!(r.unwrap_err(), TableError::Stopped(BudgetError::Cancelled));
            assert!(cell.is_building(), "another caller still waits: it goes on");
            let r = second.join().unwrap();
            assert_eq!(r.unwrap_err(), TableError::Stopped(BudgetError::Time));
            assert!(
                cell.is_building(),
                "out of time is not cancelled: it goes on"
            );
            // The last waiter cancelled: the build stops, the cell is empty again
            // and the next caller builds its own.
            let cancelled = Budget::unlimited();
            let c2 = cancelled.clone();
            let waiter = {
                let cell = cell.clone();
                std::thread::spawn(move || cell.get_or_build(|_| Ok(3), &c2, &|_| {}))
            };
            std::thread::sleep(Duration::from_millis(50));
            cancelled.cancel();
            assert!(waiter.join().unwrap().is_err());
            let started = Instant::now();
            while cell.is_building() {
                assert!(
                    started.elapsed() < Duration::from_secs(5),
                    "the build did not stop"
                );
                std::thread::sleep(Duration::from_millis(5));
            }
            let t = cell
                .get_or_build(|_| Ok(4), &Budget::unlimited(), &|_| {})
                .unwrap();
            assert_eq!(*t, 4, "built afresh after the stopped build");
        });
    }

    #[test]
    fn a_build_counts_its_tables_in_the_ledger_of_the_caller_that_started_it() {
        let own: &'static Ledger = Box::leak(Box::new(Ledger::new()));
        let cell: TableCell<bool> = TableCell::new("a table of its own context");
        let seen = cell
            .get_or_build(
                move |_| {
                    let budget = Budget::current().ok_or("no budget")?;
                    Ok(std::ptr::eq(budget.ledger(), own))
                },
                &Budget::unlimited().in_ledger(own),
                &|_| {},
            )
            .unwrap();
        assert!(*seen, "the build ran in the waiter's ledger");
    }

    #[test]
    fn a_failed_build_is_reported_and_progress_reaches_the_waiter() {
        let cell: TableCell<u32> = TableCell::new("a broken table");
        let r = cell.get_or_build(
            |_| -> Result<u32, BuildError> { panic!("a bug") },
            &Budget::unlimited(),
            &|_| {},
        );
        assert!(matches!(r, Err(TableError::Failed { retry_in: None, .. })));
        assert!(r.unwrap_err().to_string().contains("a broken table"));

        let cell: TableCell<u32> = TableCell::new("a table with progress");
        let seen = Mutex::new(Vec::new());
        let t = cell
            .get_or_build(
                |report| {
                    report(0.5);
                    std::thread::sleep(Duration::from_millis(300));
                    Ok(1)
                },
                &Budget::unlimited(),
                &|f| seen.lock().unwrap().push(f),
            )
            .unwrap();
        assert_eq!(*t, 1);
        assert!(seen.lock().unwrap().contains(&0.5), "{:?}", seen.lock());
    }

    #[test]
    fn builds_run_one_at_a_time_and_a_nested_build_passes_the_gate() {
        use std::sync::atomic::AtomicUsize;
        static RUNNING: AtomicUsize = AtomicUsize::new(0);
        static MOST: AtomicUsize = AtomicUsize::new(0);
        let build = |_: &dyn Fn(f64)| -> Result<u32, BuildError> {
            let now = RUNNING.fetch_add(1, Ordering::SeqCst) + 1;
            MOST.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(100));
            RUNNING.fetch_sub(1, Ordering::SeqCst);
            Ok(1)
        };
        within_a_minute(move || {
            let cells: Vec<TableCell<u32>> = (0..4)
                .map(|i| TableCell::new(format!("table {i}")))
                .collect();
            std::thread::scope(|s| {
                for cell in &cells {
                    s.spawn(move || cell.get_or_build(build, &Budget::unlimited(), &|_| {}));
                }
            });
            assert_eq!(MOST.load(Ordering::SeqCst), 1, "two builds ran at once");

            // A build that needs another table (Auto120's exact tables for fewer
            // markers) gets it although it holds the gate.
            let inner: TableCell<u32> = TableCell::new("the inner table");
            let outer: TableCell<u32> = TableCell::new("the outer table");
            let t = outer
                .get_or_build(
                    move |_| {
                        let i = inner
                            .get_or_build(|_| Ok(20), &Budget::unlimited(), &|_| {})
                            .map_err(|e| e.to_string())?;
                        Ok(*i + 1)
                    },
                    &Budget::unlimited(),
                    &|_| {},
                )
                .unwrap();
            assert_eq!(*t, 21);
        });
    }

    #[test]
    fn builds_in_ledgers_of_their_own_do_not_wait_for_each_other() {
        // Each build says it started, then waits for the other's word: under
        // one gate the second would start only after the first gave up.
        let (first_says, first_heard) = mpsc::channel::<()>();
        let (second_says, second_heard) = mpsc::channel::<()>();
        let build = |says: mpsc::Sender<()>, hears: mpsc::Receiver<()>| {
            move |_: &dyn Fn(f64)| -> Result<bool, BuildError> {
                says.send(()).ok();
                Ok(hears.recv_timeout(Duration::from_secs(30)).is_ok())
            }
        };
        let both = within_a_minute(move || {
            let ledgers: [&'static Ledger; 2] = [
                Box::leak(Box::new(Ledger::new())),
                Box::leak(Box::new(Ledger::new())),
            ];
            let cells: [TableCell<bool>; 2] = [TableCell::new("one"), TableCell::new("two")];
            let builds = [
                build(first_says, second_heard),
                build(second_says, first_heard),
            ];
            std::thread::scope(|s| {
                let runs: Vec<_> = cells
                    .iter()
                    .zip(builds)
                    .zip(ledgers)
                    .map(|((cell, build), ledger)| {
                        s.spawn(move || {
                            let until = Budget::unlimited().in_ledger(ledger);
                            *cell.get_or_build(build, &until, &|_| {}).unwrap()
                        })
                    })
                    .collect();
                runs.into_iter()
                    .map(|r| r.join().unwrap())
                    .collect::<Vec<_>>()
            })
        });
        assert_eq!(
            both,
            [true, true],
            "each build heard the other while running"
        );
    }

    #[test]
    fn a_passing_failure_is_tried_again_after_a_pause_and_a_lasting_one_is_kept() {
        within_a_minute(|| {
            let cell: TableCell<u32> = TableCell::new("a table held up");
            let started = Instant::now();
            let r = cell.get_or_build(
                |_| Err(BuildError::Passing("other tables hold the memory".into())),
                &Budget::unlimited(),
                &|_| {},
            );
            let Err(TableError::Failed {
                retry_in: Some(pause),
                reason,
                ..
            }) = r
            else {
                panic!("{r:?}")
            };
            assert_eq!(reason, "other tables hold the memory");
            assert!(pause <= FIRST_PAUSE && pause > Duration::ZERO, "{pause:?}");
            let TableStatus::Paused { retry_in, .. } = cell.status() else {
                panic!("{:?}", cell.status())
            };
            assert!(retry_in <= FIRST_PAUSE);
            // A caller out of time before the pause ends does not build.
            let hurried = Budget::unlimited().with_timeout(Duration::from_millis(20));
            let r = cell.get_or_build(|_| Ok(1), &hurried, &|_| {});
            assert_eq!(r.unwrap_err(), TableError::Stopped(BudgetError::Time));
            // A caller with time waits for the pause to end and builds again.
            let t = cell
                .get_or_build(|_| Ok(2), &Budget::unlimited(), &|_| {})
                .unwrap();
            assert_eq!(*t, 2);
            assert!(
                started.elapsed() >= FIRST_PAUSE,
                "tried again before the pause ended"
            );
            assert_eq!(cell.status(), TableStatus::Ready);

            let kept: TableCell<u32> = TableCell::new("a table too large");
            let r = kept.get_or_build(
                |_| {
                    Err(BudgetError::Memory {
                        what: "it".into(),
                        needed: 2,
                        limit: 1,
                    }
                    .into())
                },
                &Budget::unlimited(),
                &|_| {},
            );
            assert!(
                matches!(r, Err(TableError::Failed { retry_in: None, .. })),
                "{r:?}"
            );
            let r = kept.get_or_build(|_| Ok(3), &Budget::unlimited(), &|_| {});
            assert!(
                matches!(r, Err(TableError::Failed { retry_in: None, .. })),
                "{r:?}"
            );
            assert!(r.unwrap_err().to_string().contains("cannot be built here"));
        });
    }

    #[test]
    fn the_pause_doubles_with_each_failure_in_a_row_up_to_the_longest() {
        let cell: TableCell<u32> = TableCell::new("a table that keeps failing");
        let mut pauses = Vec::new();
        for _ in 0..8 {
            // Come back at the end of each pause at once: the pause is read, not waited.
            let r = cell.get_or_build(
                |_| Err(BuildError::from("busy")),
                &Budget::unlimited(),
                &|_| {},
            );
            let Err(TableError::Failed {
                retry_in: Some(p), ..
            }) = r
            else {
                panic!("{r:?}")
            };
            pauses.push(p);
            // Skip the wait: the next try starts as if the pause were over.
            if let Slot::Paused { at, .. } = &mut *cell.inner.slot() {
                *at = Instant::now();
            }
        }
        let secs: Vec<u64> = pauses
            .iter()
            .map(|p| p.as_secs_f64().round() as u64)
            .collect();
        assert_eq!(secs, [1, 2, 4, 8, 16, 30, 30, 30]);
        // A success resets the count.
        cell.get_or_build(|_| Ok(1), &Budget::unlimited(), &|_| {})
            .unwrap();
        assert_eq!(cell.inner.failures.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn the_status_follows_a_build_with_its_progress() {
        within_a_minute(|| {
            let cell: TableCell<u32> = TableCell::new("a table in steps");
            assert_eq!(cell.status(), TableStatus::Absent);
            let (go, gate) = mpsc::channel::<()>();
            let quick = Budget::unlimited().with_timeout(Duration::from_millis(10));
            let r = cell.get_or_build(
                move |report| {
                    report(0.25);
                    gate.recv().ok();
                    Ok(5)
                },
                &quick,
                &|_| {},
            );
            assert!(matches!(r, Err(TableError::Stopped(BudgetError::Time))));
            let started = Instant::now();
            loop {
                match cell.status() {
                    TableStatus::Building { progress: 0.25 } => break,
                    TableStatus::Building { .. } => {}
                    other => panic!("{other:?}"),
                }
                assert!(started.elapsed() < Duration::from_secs(10));
                std::thread::sleep(Duration::from_millis(5));
            }
            go.send(()).unwrap();
            let t = cell
                .get_or_build(|_| Ok(0), &Budget::unlimited(), &|_| {})
                .unwrap();
            assert_eq!(*t, 5);
            assert_eq!(cell.status(), TableStatus::Ready);
        });
    }

    #[test]
    fn budget_errors_say_whether_they_pass() {
        let memory = BudgetError::Memory {
            what: "x".into(),
            needed: 2,
            limit: 1,
        };
        assert!(!BuildError::from(memory).is_passing());
        let held = BudgetError::Held {
            what: "x".into(),
            needed: 2,
            held: 1,
            limit: 2,
        };
        for passing in [
            held,
            BudgetError::Busy { what: "x".into() },
            BudgetError::Time,
            BudgetError::Cancelled,
        ] {
            assert!(BuildError::from(passing).is_passing());
        }
    }
}
