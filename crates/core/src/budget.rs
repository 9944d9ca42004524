//! Budgets: how much memory and time one computation may use, and a way to stop it.
//!
//! Every computation reachable from user input (a solve, a search, a computer move, a
//! job) takes a [`Budget`]. A solver estimates what it needs *before* it starts and
//! refuses with [`BudgetError::Memory`] when that cannot fit; long loops call
//! [`Budget::check`] now and then (every few thousand steps) and return
//! [`BudgetError::Cancelled`] or [`BudgetError::Time`] when asked to stop.
//!
//! A `Budget` is cheap to clone; clones share the cancel flag, so the server can keep
//! one clone and cancel the work running on another thread.
//!
//! ```
//! use std::time::Duration;
//! use tabula_core::Budget;
//! let budget = Budget::default().with_timeout(Duration::from_secs(10));
//! budget.fits("the positions of this board", 100 << 20).unwrap();
//! let worker = budget.clone();
//! budget.cancel();
//! assert!(worker.check().is_err());
//! ```

use crate::bytes::format_bytes;
use crate::ledger::{BuildTurn, Ledger, Reservation};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The default memory budget of one computation: 1 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 1 << 30;

/// Sets the process's `--max-memory` (the CLI's, the server's, Python's): the
/// limit of the process's default ledger ([`Ledger::global`]), and so the
/// memory limit of [`Budget::default`].
pub fn set_default_max_memory(bytes: u64) {
    Ledger::global().set_limit(Some(bytes));
}

/// The process's `--max-memory` ([`set_default_max_memory`]; 1 GiB unless set).
pub fn default_max_memory() -> u64 {
    Ledger::global().limit()
}

/// A shared "please stop" flag. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct CancelFlag(Arc<AtomicBool>);

impl CancelFlag {
    /// A new flag, not raised.
    pub fn new() -> Self {
        Self::default()
    }
    /// Raises the flag: every holder of a clone sees it.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    /// Whether the flag was raised.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Memory, time and a cancel flag for one computation.
#[derive(Clone, Debug)]
pub struct Budget {
    /// The most memory the computation may use for its own tables, in bytes.
    pub max_memory_bytes: u64,
    /// When the computation must stop (`None`: no time limit).
    pub deadline: Option<Instant>,
    cancel: CancelFlag,
    /// The ledger of the tables this computation may build or keep: the
    /// context it runs in ([`Budget::in_ledger`]).
    ledger: &'static Ledger,
    /// Where what the computation uses is reserved as it grows
    /// ([`Budget::charged_to`]); shared by clones.
    account: Option<Arc<Account>>,
}

/// A computation's growing reservation in a [`Ledger`].
struct Account {
    ledger: &'static Ledger,
    held: Mutex<Held>,
}

/// What an [`Account`] holds: its reservation, and its turn among large builds
/// once it grew beyond [`TURN_ABOVE`].
struct Held {
    reservation: Reservation,
    turn: Option<BuildTurn>,
}

impl fmt::Debug for Held {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.reservation)
    }
}

/// A charged computation that grows beyond this many bytes waits for its turn
/// among large builds ([`Ledger::take_turn`]); small ones never wait (two
/// small ones cannot hold enough of the room to starve a large one).
pub const TURN_ABOVE: u64 = 64 << 20;

/// How long a charged computation without a deadline waits for its turn.
pub const TURN_WAIT: Duration = Duration::from_secs(120);

impl fmt::Debug for Account {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Account({:?})", self.held)
    }
}

impl Default for Budget {
    /// [`Budget::within`] the process's default ledger: its memory limit
    /// ([`default_max_memory`], 1 GiB unless set), no deadline, a fresh cancel
    /// flag.
    fn default() -> Self {
        Self::within(Ledger::global())
    }
}

/// Why a computation refused to start or stopped early.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BudgetError {
    /// The computation would need more memory than it may use.
    #[error("{}", memory_words(what, *.needed, *.limit))]
    Memory {
        /// What was too large, in plain words ("the positions of Northcott 16x4").
        what: String,
        /// The estimate, in bytes.
        needed: u64,
        /// The budget, in bytes.
        limit: u64,
    },
    /// The tables this process already holds ([`crate::Ledger`]) leave too
    /// little of its memory limit for another.
    #[error("{what} would need about {}, but other tables already hold {} of the {} this program may use for them", format_bytes(*.needed), format_bytes(*.held), format_bytes(*.limit))]
    Held {
        /// What was refused, in plain words ("the Four Field Kono table").
        what: String,
        /// Its estimate, in bytes.
        needed: u64,
        /// What the other tables hold, in bytes.
        held: u64,
        /// The process's limit, in bytes.
        limit: u64,
    },
    /// Other large tables were being built for longer than this computation
    /// could wait for its turn ([`crate::Ledger::take_turn`]).
    #[error("{what} has to wait for other large tables being built: try again in a moment")]
    Busy {
        /// What waited, in plain words.
        what: String,
    },
    /// The deadline passed.
    #[error("stopped: the time limit was reached")]
    Time,
    /// Someone asked the computation to stop.
    #[error("cancelled")]
    Cancelled,
}

/// [`BudgetError::Memory`] in words; an estimate too large to count (saturated
/// at `u64::MAX`) is not given a number.
fn memory_words(what: &str, needed: u64, limit: u64) -> String {
    if needed == u64::MAX {
        format!(
            "{what} would need far more than the memory limit of {}",
            format_bytes(limit)
        )
    } else {
        format!(
            "{what} would need about {}, more than the memory limit of {}",
            format_bytes(needed),
            format_bytes(limit)
        )
    }
}

impl Budget {
    /// A budget of `max_memory_bytes`, no deadline, a fresh cancel flag, in the
    /// process's default ledger ([`Ledger::global`]) until given another
    /// ([`Budget::in_ledger`]).
    pub fn new(max_memory_bytes: u64) -> Self {
        Budget {
            max_memory_bytes,
            deadline: None,
            cancel: CancelFlag::new(),
            ledger: Ledger::global(),
            account: None,
        }
    }

    /// The default budget of a computation in `ledger`: the ledger's limit
    /// as its memory limit, no deadline, a fresh cancel flag.
    pub fn within(ledger: &'static Ledger) -> Self {
        Self::new(ledger.limit()).in_ledger(ledger)
    }

    /// The ledger this computation's tables are counted in: where a table it
    /// builds or keeps takes its [`Reservation`], and where it is charged
    /// ([`Budget::charged`]).
    pub fn ledger(&self) -> &'static Ledger {
        self.ledger
    }

    /// The same budget in `ledger`: its tables are counted there. A budget that
    /// was charged to another ledger is charged to this one instead, afresh.
    pub fn in_ledger(mut self, ledger: &'static Ledger) -> Self {
        let moved = !std::ptr::eq(self.ledger, ledger);
        self.ledger = ledger;
        if moved && self.account.is_some() {
            self = self.charged_to(ledger);
        }
        self
    }

    /// The same budget charged to its own ledger ([`Budget::ledger`]): see
    /// [`Budget::charged_to`].
    pub fn charged(self) -> Self {
        let ledger = self.ledger;
        self.charged_to(ledger)
    }

    /// The same budget in `ledger` ([`Budget::in_ledger`]), also reserving there
    /// what the computation says it uses as it grows ([`Budget::uses`]), so that
    /// tables built at the same time as others stay within the ledger's limit;
    /// the reservation is given back when the last clone of this budget is
    /// dropped.
    pub fn charged_to(mut self, ledger: &'static Ledger) -> Self {
        self.ledger = ledger;
        self.account = Some(Arc::new(Account {
            ledger,
            held: Mutex::new(Held {
                reservation: ledger.reserve_nothing(),
                turn: None,
            }),
        }));
        self
    }

    /// As [`Budget::fits`], for what a computation uses now (not an estimate
    /// before it starts): also grows its reservation in the ledger it is
    /// [charged to](Budget::charged_to), refused when the other tables leave
    /// too little room. Beyond 64 MiB (`TURN_ABOVE`) it first waits for its turn among
    /// large builds, until the budget's deadline (or two minutes, `TURN_WAIT`).
    pub fn uses(&self, what: &str, bytes: u64) -> Result<(), BudgetError> {
        self.fits(what, bytes)?;
        let Some(account) = &self.account else {
            return Ok(());
        };
        let mut held = account.held.lock().unwrap_or_else(|e| e.into_inner());
        if bytes > TURN_ABOVE && held.turn.is_none() {
            let deadline = self.deadline.unwrap_or_else(|| Instant::now() + TURN_WAIT);
            held.turn =
                Some(
                    account
                        .ledger
                        .take_turn(deadline)
                        .ok_or_else(|| BudgetError::Busy {
                            what: what.to_string(),
                        })?,
                );
        }
        account.ledger.grow(&mut held.reservation, what, bytes)
    }

    /// No memory limit and no deadline (tests, benchmarks).
    pub fn unlimited() -> Self {
        Self::new(u64::MAX)
    }

    /// The same budget with another memory limit.
    pub fn with_max_memory(mut self, bytes: u64) -> Self {
        self.max_memory_bytes = bytes;
        self
    }

    /// The same budget ending at `deadline`.
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// The same budget ending `timeout` from now (the earlier deadline wins).
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        let at = Instant::now()
            .checked_add(timeout)
            .unwrap_or_else(|| Instant::now() + Duration::from_secs(86_400 * 365));
        self.deadline = Some(match self.deadline {
            Some(d) if d < at => d,
            _ => at,
        });
        self
    }

    /// The same budget sharing `flag` as its cancel flag.
    pub fn with_cancel(mut self, flag: CancelFlag) -> Self {
        self.cancel = flag;
        self
    }

    /// A clone of the cancel flag, to stop the computation from elsewhere.
    pub fn cancel_flag(&self) -> CancelFlag {
        self.cancel.clone()
    }

    /// Asks the computation (and every clone of this budget) to stop.
    pub fn cancel(&self) {
        self.cancel.cancel();
    }

    /// Whether [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// The time left before the deadline (`None`: no deadline).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Whether the deadline has passed.
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the computation should stop now (cancelled or out of time).
    pub fn should_stop(&self) -> bool {
        self.is_cancelled() || self.expired()
    }

    /// `Err` when the computation should stop; call it every few thousand steps.
    pub fn check(&self) -> Result<(), BudgetError> {
        if self.is_cancelled() {
            return Err(BudgetError::Cancelled);
        }
        if self.expired() {
            return Err(BudgetError::Time);
        }
        Ok(())
    }

    /// `Err(BudgetError::Memory)` when `needed` bytes (an estimate made before
    /// starting) exceed the memory limit. `what` names the thing in plain words.
    pub fn fits(&self, what: &str, needed: u64) -> Result<(), BudgetError> {
        if needed > self.max_memory_bytes {
            Err(BudgetError::Memory {
                what: what.to_string(),
                needed,
                limit: self.max_memory_bytes,
            })
        } else {
            Ok(())
        }
    }
}

thread_local! {
    static CURRENT: std::cell::RefCell<Option<Budget>> = const { std::cell::RefCell::new(None) };
}

impl Budget {
    /// Runs `f` with this budget as the thread's current one ([`Budget::current`]),
    /// for computations that do not take a budget themselves: the computer players
    /// (alpha-beta, expectimax, SameGame's search) stop at its deadline or when it
    /// is cancelled, and play the best move found so far. The previous current
    /// budget is restored afterwards, even if `f` panics.
    pub fn run<T>(&self, f: impl FnOnce() -> T) -> T {
        struct Restore(Option<Budget>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let previous = self.0.take();
                CURRENT.with(|c| *c.borrow_mut() = previous);
            }
        }
        let previous = CURRENT.with(|c| c.borrow_mut().replace(self.clone()));
        let _restore = Restore(previous);
        f()
    }

    /// The budget [`Budget::run`] set on this thread, if any.
    pub fn current() -> Option<Budget> {
        CURRENT.with(|c| c.borrow().clone())
    }

    /// The ledger of the budget this thread runs under ([`Budget::current`]),
    /// else the process's default one: where a computer player that takes no
    /// budget of its own (a search's table) counts what it holds.
    pub fn current_ledger() -> &'static Ledger {
        CURRENT.with(|c| {
            c.borrow()
                .as_ref()
                .map_or_else(Ledger::global, Budget::ledger)
        })
    }

    /// The earlier of `own` and the current budget's deadline, with the current
    /// budget's cancel flag: what a search started on this thread must respect.
    pub fn current_limits(own: Option<Instant>) -> (Option<Instant>, Option<CancelFlag>) {
        match Self::current() {
            None => (own, None),
            Some(b) => {
                let deadline = match (own, b.deadline) {
                    (Some(a), Some(c)) => Some(a.min(c)),
                    (a, c) => a.or(c),
                };
                (deadline, Some(b.cancel_flag()))
            }
        }
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "memory {}", format_bytes(self.max_memory_bytes))?;
        if let Some(left) = self.remaining() {
            write!(f, ", {:.1} s left", left.as_secs_f64())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_current_budget_is_set_while_running_and_restored() {
        assert!(Budget::current().is_none());
        let outer = Budget::default().with_timeout(Duration::from_secs(60));
        let own = Instant::now() + Duration::from_secs(3600);
        outer.run(|| {
            let (deadline, flag) = Budget::current_limits(Some(own));
            assert_eq!(deadline, outer.deadline, "the earlier deadline wins");
            outer.cancel();
            assert!(flag.unwrap().is_cancelled(), "the flag is shared");
            Budget::unlimited().run(|| assert!(Budget::current().unwrap().deadline.is_none()));
            assert!(Budget::current().unwrap().is_cancelled());
        });
        assert!(Budget::current().is_none());
        let (deadline, flag) = Budget::current_limits(Some(own));
        assert_eq!(deadline, Some(own));
        assert!(flag.is_none());
    }

    #[test]
    fn refuses_what_does_not_fit() {
        let b = Budget::new(1000);
        assert!(b.fits("x", 1000).is_ok());
        let err = b.fits("the positions", 1001).unwrap_err();
        assert!(matches!(
            err,
            BudgetError::Memory {
                needed: 1001,
                limit: 1000,
                ..
            }
        ));
        assert!(err.to_string().contains("the positions"));
    }

    #[test]
    fn clones_share_the_cancel_flag() {
        let b = Budget::default();
        let c = b.clone();
        assert!(c.check().is_ok());
        b.cancel();
        assert_eq!(c.check(), Err(BudgetError::Cancelled));
    }

    #[test]
    fn deadlines_expire_and_the_earlier_wins() {
        let b = Budget::default().with_timeout(Duration::ZERO);
        assert!(b.expired());
        assert_eq!(b.check(), Err(BudgetError::Time));
        let b = Budget::default()
            .with_timeout(Duration::from_secs(1))
            .with_timeout(Duration::from_secs(3600));
        assert!(b.remaining().unwrap() <= Duration::from_secs(1));
        assert!(Budget::default().remaining().is_none());
    }

    #[test]
    fn a_charged_budget_reserves_what_it_uses_until_its_last_clone_goes() {
        let ledger: &'static Ledger = Box::leak(Box::new(Ledger::new()));
        ledger.set_limit(Some(1000));
        let budget = Budget::new(900).charged_to(ledger);
        budget.uses("a table", 400).unwrap();
        let clone = budget.clone();
        clone.uses("a table", 300).unwrap();
        assert_eq!(ledger.in_use(), 400, "a reservation only grows");
        assert!(matches!(
            budget.uses("a table", 950),
            Err(BudgetError::Memory { limit: 900, .. })
        ));
        let other = Budget::new(900).charged_to(ledger);
        assert!(matches!(
            other.uses("another table", 700),
            Err(BudgetError::Held { held: 400, .. })
        ));
        // Estimates before a start are not reserved.
        other.fits("another table", 700).unwrap();
        assert_eq!(ledger.in_use(), 400);
        drop(budget);
        assert_eq!(ledger.in_use(), 400, "a clone still holds it");
        drop(clone);
        assert_eq!(ledger.in_use(), 0);
        other.uses("another table", 700).unwrap();
        assert_eq!(ledger.in_use(), 700);
    }

    #[test]
    fn a_budget_carries_its_ledger_to_what_it_runs_and_is_charged_there() {
        let own: &'static Ledger = Box::leak(Box::new(Ledger::new()));
        assert!(std::ptr::eq(Budget::default().ledger(), Ledger::global()));
        assert!(std::ptr::eq(Budget::current_ledger(), Ledger::global()));
        let budget = Budget::unlimited().in_ledger(own);
        budget.run(|| assert!(std::ptr::eq(Budget::current_ledger(), own)));
        let charged = budget.charged();
        charged.uses("a table", 500).unwrap();
        assert_eq!(own.in_use(), 500, "charged to the budget's own ledger");
        // Moved to another ledger, it is charged there afresh.
        let other: &'static Ledger = Box::leak(Box::new(Ledger::new()));
        let moved = charged.clone().in_ledger(other);
        moved.uses("a table", 200).unwrap();
        assert_eq!(other.in_use(), 200);
        assert_eq!(own.in_use(), 500, "the first account is the clone's");
        drop(charged);
        assert_eq!(own.in_use(), 0);
    }

    #[test]
    fn large_charged_computations_take_turns_and_small_ones_never_wait() {
        let ledger: &'static Ledger = Box::leak(Box::new(Ledger::new()));
        ledger.set_limit(Some(1 << 40));
        let soon = || Instant::now() + Duration::from_millis(50);
        let first = Budget::unlimited().charged_to(ledger);
        first.uses("a large table", TURN_ABOVE + 1).unwrap();
        let second = Budget::unlimited().with_deadline(soon()).charged_to(ledger);
        second.uses("a small table", TURN_ABOVE).unwrap();
        let err = second.uses("a large table", TURN_ABOVE + 1).unwrap_err();
        assert!(matches!(err, BudgetError::Busy { .. }), "{err:?}");
        assert!(err.to_string().contains("try again"), "{err}");
        drop(first);
        let third = Budget::unlimited().with_deadline(soon()).charged_to(ledger);
        third.uses("a large table", 2 * TURN_ABOVE).unwrap();
    }

    #[test]
    fn an_estimate_too_large_to_count_is_not_called_no_limit() {
        let e = Budget::new(1 << 30)
            .fits("the positions", u64::MAX)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "the positions would need far more than the memory limit of 1 GiB"
        );
        let e = Budget::new(1 << 30)
            .fits("the positions", 3 << 30)
            .unwrap_err();
        assert!(e.to_string().contains("about 3 GiB"), "{e}");
    }
}
