//! The process's memory ledger: one account of every long-lived table.
//!
//! A [`Budget`](crate::Budget) bounds one computation; the tables a process keeps
//! afterwards (the engine's cache of solved games, Kono's tables, Auto120's exact
//! tables, the tables live sessions hold) outlive it, and each of them alone may
//! fit while all of them together do not. The [`Ledger`] sees them all:
//!
//! * A table kept for the rest of the process (Kono's, Auto120's) takes a
//!   [`Reservation`] of its peak before it is built ([`Ledger::reserve`]), refused
//!   when the tables already held leave too little room, and shrinks it to what it
//!   keeps once built ([`Reservation::settle`]); dropping the reservation gives
//!   the bytes back.
//! * Tables whose size changes as they are used (the engine's cache and the
//!   matches being played) are counted by a [`Meter`] that the ledger asks when
//!   it adds up, with a way to free some (the cache forgets its least recently
//!   used games).
//!
//! The limit is the process's `--max-memory` ([`crate::default_max_memory`])
//! unless set otherwise ([`Ledger::set_limit`]).

use crate::budget::{default_max_memory, BudgetError};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// Tables whose bytes change as they are used, counted when the ledger adds up.
pub trait Meter: Send + Sync {
    /// Bytes held now.
    fn bytes(&self) -> u64;
    /// Frees what can be freed until at most `target` bytes are held (or nothing
    /// more can go). Called without the ledger's lock held.
    fn shrink_to(&self, target: u64);
}

/// Means "not set": the limit follows [`default_max_memory`].
const FOLLOW_DEFAULT: u64 = 0;

#[derive(Default)]
struct Accounts {
    /// Bytes reserved by [`Reservation`]s.
    reserved: u64,
    meters: Vec<Arc<dyn Meter>>,
}

/// One account of the tables a process holds, within one limit.
pub struct Ledger {
    limit: AtomicU64,
    accounts: Arc<Mutex<Accounts>>,
}

impl Default for Ledger {
    fn default() -> Self {
        Ledger {
            limit: AtomicU64::new(FOLLOW_DEFAULT),
            accounts: Arc::default(),
        }
    }
}

/// Bytes held for a table in a [`Ledger`]: given back when dropped.
#[must_use = "the bytes are given back as soon as the reservation is dropped"]
pub struct Reservation {
    bytes: u64,
    accounts: Arc<Mutex<Accounts>>,
}

fn lock(accounts: &Mutex<Accounts>) -> MutexGuard<'_, Accounts> {
    // No user code runs under the lock, so a poisoned one still adds up.
    accounts.lock().unwrap_or_else(|e| e.into_inner())
}

impl Ledger {
    /// A ledger of its own (tests); the process's is [`Ledger::global`].
    pub fn new() -> Self {
        Self::default()
    }

    /// The process's ledger.
    pub fn global() -> &'static Ledger {
        static GLOBAL: OnceLock<Ledger> = OnceLock::new();
        GLOBAL.get_or_init(Ledger::new)
    }

    /// The most bytes the tables of this process may hold together:
    /// [`default_max_memory`] (the process's `--max-memory`) unless set.
    pub fn limit(&self) -> u64 {
        match self.limit.load(Ordering::Relaxed) {
            FOLLOW_DEFAULT => default_max_memory(),
            set => set,
        }
    }

    /// Sets the limit (`None`: follow [`default_max_memory`] again).
    pub fn set_limit(&self, bytes: Option<u64>) {
        let value = bytes.map_or(FOLLOW_DEFAULT, |b| b.max(1));
        self.limit.store(value, Ordering::Relaxed);
    }

    /// Counts `meter`'s tables in this ledger from now on.
    pub fn add_meter(&self, meter: Arc<dyn Meter>) {
        lock(&self.accounts).meters.push(meter);
    }

    /// Bytes held now: reservations and every meter.
    pub fn in_use(&self) -> u64 {
        let (reserved, meters) = {
            let a = lock(&self.accounts);
            (a.reserved, a.meters.clone())
        };
        // Meters are asked outside the lock: they take locks of their own.
        meters
            .iter()
            .fold(reserved, |sum, m| sum.saturating_add(m.bytes()))
    }

    /// Bytes held by reservations alone (tables kept for the process, builds
    /// under way).
    pub fn reserved(&self) -> u64 {
        lock(&self.accounts).reserved
    }

    /// Asks the meters to free what they can until `bytes` more fit the limit;
    /// whether they now fit.
    pub fn make_room(&self, bytes: u64) -> bool {
        let limit = self.limit();
        if self.in_use().saturating_add(bytes) <= limit {
            return true;
        }
        let meters = lock(&self.accounts).meters.clone();
        for meter in meters {
            let others = self.in_use().saturating_sub(meter.bytes());
            let target = limit.saturating_sub(bytes).saturating_sub(others);
            meter.shrink_to(target);
            if self.in_use().saturating_add(bytes) <= limit {
                return true;
            }
        }
        false
    }

    /// Holds `bytes` for the table named `what` (in plain words), after asking
    /// the meters to make room; refused when the tables already held leave too
    /// little of the limit.
    pub fn reserve(&self, what: &str, bytes: u64) -> Result<Reservation, BudgetError> {
        let limit = self.limit();
        if bytes > limit {
            return Err(BudgetError::Memory {
                what: what.to_string(),
                needed: bytes,
                limit,
            });
        }
        self.make_room(bytes);
        let metered: u64 = {
            let meters = lock(&self.accounts).meters.clone();
            meters
                .iter()
                .fold(0u64, |sum, m| sum.saturating_add(m.bytes()))
        };
        // Checked and taken under one lock, so two builds cannot both take the
        // last room.
        let mut a = lock(&self.accounts);
        let held = a.reserved.saturating_add(metered);
        if held.saturating_add(bytes) > limit {
            return Err(BudgetError::Held {
                what: what.to_string(),
                needed: bytes,
                held,
                limit,
            });
        }
        a.reserved += bytes;
        Ok(Reservation {
            bytes,
            accounts: self.accounts.clone(),
        })
    }
}

impl Reservation {
    /// The bytes held.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Holds `bytes` instead (what a built table keeps, after its build's peak).
    pub fn settle(&mut self, bytes: u64) {
        let mut a = lock(&self.accounts);
        a.reserved = a.reserved.saturating_sub(self.bytes).saturating_add(bytes);
        self.bytes = bytes;
    }
}

impl Reservation {
    /// Holds the bytes for the rest of the process: for a table kept in a
    /// process-wide cell that is never emptied (Auto120's exact tables).
    pub fn keep_for_process(self) {
        std::mem::forget(self);
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut a = lock(&self.accounts);
        a.reserved = a.reserved.saturating_sub(self.bytes);
    }
}

impl std::fmt::Debug for Reservation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Reservation({} bytes)", self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cache of games: `held` bytes, of which all may be forgotten.
    struct Cache(Mutex<u64>);

    impl Meter for Cache {
        fn bytes(&self) -> u64 {
            *self.0.lock().unwrap()
        }
        fn shrink_to(&self, target: u64) {
            let mut held = self.0.lock().unwrap();
            // Whole games go: 100 bytes each.
            while *held > target {
                *held = held.saturating_sub(100);
            }
        }
    }

    #[test]
    fn a_build_is_refused_while_another_table_holds_the_memory() {
        let ledger = Ledger::new();
        ledger.set_limit(Some(1000));
        let kono = ledger.reserve("the first table", 600).unwrap();
        let err = ledger.reserve("the second table", 600).unwrap_err();
        assert_eq!(
            err,
            BudgetError::Held {
                what: "the second table".into(),
                needed: 600,
                held: 600,
                limit: 1000
            }
        );
        let text = err.to_string();
        assert!(
            text.contains("the second table") && text.contains("other tables already hold"),
            "{text}"
        );
        drop(kono);
        assert_eq!(ledger.in_use(), 0, "dropping a reservation gives it back");
        let mut second = ledger.reserve("the second table", 600).unwrap();
        second.settle(200);
        assert_eq!(
            ledger.in_use(),
            200,
            "a built table keeps what it settled on"
        );
        assert!(ledger.reserve("a third", 800).is_ok());
    }

    #[test]
    fn the_cache_is_shrunk_to_make_room_and_never_below_what_is_needed() {
        let ledger = Ledger::new();
        ledger.set_limit(Some(1000));
        let cache = Arc::new(Cache(Mutex::new(700)));
        ledger.add_meter(cache.clone());
        assert_eq!(ledger.in_use(), 700);
        let table = ledger.reserve("a table", 500).unwrap();
        assert_eq!(*cache.0.lock().unwrap(), 500, "two games were forgotten");
        assert_eq!(ledger.in_use(), 1000);
        // Nothing else can go but the cache: it is emptied, and still the table
        // held does not leave room.
        let err = ledger.reserve("another table", 600).unwrap_err();
        assert!(
            matches!(err, BudgetError::Held { held: 500, .. }),
            "{err:?}"
        );
        assert_eq!(*cache.0.lock().unwrap(), 0);
        drop(table);
    }

    #[test]
    fn more_than_the_whole_limit_is_refused_as_too_large_and_the_limit_follows_max_memory() {
        let ledger = Ledger::new();
        assert_eq!(ledger.limit(), default_max_memory());
        ledger.set_limit(Some(100));
        assert!(matches!(
            ledger.reserve("a huge table", 101),
            Err(BudgetError::Memory { limit: 100, .. })
        ));
        ledger.set_limit(None);
        assert_eq!(ledger.limit(), default_max_memory());
    }
}
