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
//! * Tables that can be dropped whole when room is short (the tables of games
//!   no one is playing just now, which a server can rebuild when asked again)
//!   are freed by a [`Reliever`], one at a time, after the meters.
//! * A table built by search, whose size is known only as it grows (the generic
//!   solver's), grows a [`Reservation`] as it goes ([`Ledger::grow`], through a
//!   [`Budget::charged_to`](crate::Budget::charged_to)); large ones take turns
//!   ([`Ledger::take_turn`]) so that two of them never each hold half of the
//!   room while waiting for the other's half.
//!
//! A ledger's limit is [`DEFAULT_MAX_MEMORY`] (1 GiB) unless set
//! ([`Ledger::set_limit`]); the process's default ledger ([`Ledger::global`])
//! holds the process's `--max-memory` ([`crate::set_default_max_memory`]), which
//! is also the memory limit of [`Budget::default`](crate::Budget::default).

use crate::budget::{BudgetError, DEFAULT_MAX_MEMORY};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::Instant;

/// Tables whose bytes change as they are used, counted when the ledger adds up.
pub trait Meter: Send + Sync {
    /// Bytes held now.
    fn bytes(&self) -> u64;
    /// Frees what can be freed until at most `target` bytes are held (or nothing
    /// more can go). Called without the ledger's lock held.
    fn shrink_to(&self, target: u64);
}

/// Something that can free tables whole, least valuable first: a server's idle
/// sessions, whose tables are rebuilt when the session is next asked for.
pub trait Reliever: Send + Sync {
    /// Frees one thing; false when nothing more can go. Called without the
    /// ledger's lock held.
    fn relieve_one(&self) -> bool;
}

#[derive(Default)]
struct Accounts {
    /// Bytes reserved by [`Reservation`]s.
    reserved: u64,
    meters: Vec<Arc<dyn Meter>>,
    /// Held weakly: a reliever that is gone (a server stopped) is dropped.
    relievers: Vec<std::sync::Weak<dyn Reliever>>,
}

/// Whether a build that grows its reservation is under way (see
/// [`Ledger::take_turn`]).
#[derive(Default)]
struct Turns {
    busy: Mutex<bool>,
    freed: Condvar,
}

/// One account of the tables a process holds, within one limit.
pub struct Ledger {
    limit: AtomicU64,
    accounts: Arc<Mutex<Accounts>>,
    turns: Arc<Turns>,
    /// Held by the table build under way ([`Ledger::one_build_at_a_time`]).
    build_gate: Mutex<()>,
}

impl Default for Ledger {
    fn default() -> Self {
        Ledger {
            limit: AtomicU64::new(DEFAULT_MAX_MEMORY),
            accounts: Arc::default(),
            turns: Arc::default(),
            build_gate: Mutex::new(()),
        }
    }
}

impl std::fmt::Debug for Ledger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Ledger(limit {}, reserved {})",
            self.limit(),
            self.reserved()
        )
    }
}

/// A growing build's turn ([`Ledger::take_turn`]): the next build goes when it
/// is dropped.
#[must_use = "the next build starts as soon as the turn is dropped"]
pub struct BuildTurn {
    turns: Arc<Turns>,
}

impl Drop for BuildTurn {
    fn drop(&mut self) {
        *self.turns.busy.lock().unwrap_or_else(|e| e.into_inner()) = false;
        self.turns.freed.notify_one();
    }
}

impl std::fmt::Debug for BuildTurn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BuildTurn")
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
    /// A ledger of its own, with a limit of [`DEFAULT_MAX_MEMORY`]: for a
    /// context of its own (an engine's, a test's); the process's default one
    /// is [`Ledger::global`].
    pub fn new() -> Self {
        Self::default()
    }

    /// The process's default ledger: the one a [`Budget`](crate::Budget) counts
    /// its tables in unless given another ([`Budget::in_ledger`](crate::Budget::in_ledger)),
    /// whose limit is the process's `--max-memory`. It is process-wide because
    /// the tables a game keeps for the process (Kono's, Auto120's) serve every
    /// caller, and callers that make no context of their own (the CLI, the
    /// server, Python) must all count them in one account.
    pub fn global() -> &'static Ledger {
        static GLOBAL: OnceLock<Ledger> = OnceLock::new();
        GLOBAL.get_or_init(Ledger::new)
    }

    /// The most bytes the tables counted here may hold together
    /// ([`DEFAULT_MAX_MEMORY`] unless set; the process's `--max-memory` for
    /// the process's ledger).
    pub fn limit(&self) -> u64 {
        self.limit.load(Ordering::Relaxed)
    }

    /// Sets the limit (`None`: [`DEFAULT_MAX_MEMORY`] again).
    pub fn set_limit(&self, bytes: Option<u64>) {
        let value = bytes.map_or(DEFAULT_MAX_MEMORY, |b| b.max(1));
        self.limit.store(value, Ordering::Relaxed);
    }

    /// Counts `meter`'s tables in this ledger from now on.
    pub fn add_meter(&self, meter: Arc<dyn Meter>) {
        lock(&self.accounts).meters.push(meter);
    }

    /// Asks `reliever` to free tables whole when the meters alone cannot make
    /// room, for as long as it lives (held weakly).
    pub fn add_reliever(&self, reliever: &Arc<dyn Reliever>) {
        let mut a = lock(&self.accounts);
        a.relievers.retain(|r| r.strong_count() > 0);
        a.relievers.push(Arc::downgrade(reliever));
    }

    /// Waits until no other growing build is under way, or until `deadline`
    /// (`None` then). Builds whose size is known only as they grow take turns,
    /// so that two never each hold part of the room while waiting for the rest.
    pub fn take_turn(&self, deadline: Instant) -> Option<BuildTurn> {
        let mut busy = self.turns.busy.lock().unwrap_or_else(|e| e.into_inner());
        while *busy {
            let left = deadline.checked_duration_since(Instant::now())?;
            busy = self
                .turns
                .freed
                .wait_timeout(busy, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        *busy = true;
        Some(BuildTurn {
            turns: self.turns.clone(),
        })
    }

    /// Waits until no other table build counted here holds the gate, and
    /// holds it until the guard is dropped. Table builds
    /// ([`TableCell`](crate::TableCell)) run one at a time in a ledger: each
    /// takes every core through its own pool anyway, and a build's peak memory
    /// (a solver's work space) is far above the table it leaves, so two at
    /// once could pass the ledger's limit where one after the other stays well
    /// within it. (A process has one ledger unless a test makes its own.)
    pub fn one_build_at_a_time(&self) -> MutexGuard<'_, ()> {
        // No user code runs under the lock's check; a build that panicked
        // while holding it has ended.
        self.build_gate.lock().unwrap_or_else(|e| e.into_inner())
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
    /// When the meters cannot, the relievers free tables one at a time (the
    /// meters are asked again after each: a freed session's tables may still be
    /// in a meter's cache).
    pub fn make_room(&self, bytes: u64) -> bool {
        let limit = self.limit();
        let fits = || self.in_use().saturating_add(bytes) <= limit;
        if fits() {
            return true;
        }
        let (meters, relievers) = {
            let a = lock(&self.accounts);
            (a.meters.clone(), a.relievers.clone())
        };
        let shrink_meters = || {
            for meter in &meters {
                let others = self.in_use().saturating_sub(meter.bytes());
                let target = limit.saturating_sub(bytes).saturating_sub(others);
                meter.shrink_to(target);
                if fits() {
                    return true;
                }
            }
            false
        };
        if shrink_meters() {
            return true;
        }
        for reliever in relievers.iter().filter_map(|r| r.upgrade()) {
            while reliever.relieve_one() {
                if fits() || shrink_meters() {
                    return true;
                }
            }
        }
        false
    }

    /// Holds `bytes` for the table named `what` (in plain words), after asking
    /// the meters to make room; refused when the tables already held leave too
    /// little of the limit.
    pub fn reserve(&self, what: &str, bytes: u64) -> Result<Reservation, BudgetError> {
        let mut reservation = self.reserve_nothing();
        self.grow(&mut reservation, what, bytes)?;
        Ok(reservation)
    }
}

impl Ledger {
    /// An empty reservation, grown by [`Ledger::grow`] as its table is built.
    pub fn reserve_nothing(&self) -> Reservation {
        Reservation {
            bytes: 0,
            accounts: self.accounts.clone(),
        }
    }

    /// Grows `reservation` (of this ledger) to `bytes`, after asking the meters
    /// and relievers to make room; refused, the reservation unchanged, when the
    /// other tables leave too little of the limit. Never shrinks it.
    pub fn grow(
        &self,
        reservation: &mut Reservation,
        what: &str,
        bytes: u64,
    ) -> Result<(), BudgetError> {
        if bytes <= reservation.bytes {
            return Ok(());
        }
        let limit = self.limit();
        if bytes > limit {
            return Err(BudgetError::Memory {
                what: what.to_string(),
                needed: bytes,
                limit,
            });
        }
        let extra = bytes - reservation.bytes;
        self.make_room(extra);
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
        if held.saturating_add(extra) > limit {
            return Err(BudgetError::Held {
                what: what.to_string(),
                needed: bytes,
                held: held.saturating_sub(reservation.bytes),
                limit,
            });
        }
        a.reserved += extra;
        reservation.bytes = bytes;
        Ok(())
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

    /// Idle sessions of 300 bytes each, freed whole and counted by the cache
    /// meter until freed (as a server's sessions hold the engine's tables).
    struct Idle {
        sessions: Mutex<u64>,
        cache: Arc<Cache>,
    }

    impl Reliever for Idle {
        fn relieve_one(&self) -> bool {
            let mut n = self.sessions.lock().unwrap();
            if *n == 0 {
                return false;
            }
            *n -= 1;
            let mut held = self.cache.0.lock().unwrap();
            *held = held.saturating_sub(300);
            true
        }
    }

    #[test]
    fn a_growing_build_frees_idle_sessions_and_is_refused_only_when_nothing_can_go() {
        let ledger = Ledger::new();
        ledger.set_limit(Some(1000));
        // Two idle sessions' tables (600 bytes) the cache meter cannot shrink by
        // itself: its shrink takes 100-byte games, but these are held.
        let cache = Arc::new(Cache(Mutex::new(0)));
        ledger.add_meter(Arc::new(Pinned(cache.clone())));
        let idle: Arc<dyn Reliever> = Arc::new(Idle {
            sessions: Mutex::new(2),
            cache: cache.clone(),
        });
        *cache.0.lock().unwrap() = 600;
        ledger.add_reliever(&idle);
        let mut build = ledger.reserve_nothing();
        ledger.grow(&mut build, "a table", 300).unwrap();
        assert_eq!(ledger.in_use(), 900, "nothing freed while it fits");
        ledger.grow(&mut build, "a table", 600).unwrap();
        assert_eq!(*cache.0.lock().unwrap(), 300, "one session was freed");
        assert_eq!(ledger.in_use(), 900);
        ledger.grow(&mut build, "a table", 1000).unwrap();
        assert_eq!(*cache.0.lock().unwrap(), 0, "the second one too");
        let mut other = ledger.reserve_nothing();
        let err = ledger.grow(&mut other, "another table", 1).unwrap_err();
        assert!(
            matches!(err, BudgetError::Held { held: 1000, .. }),
            "{err:?}"
        );
        assert_eq!(other.bytes(), 0, "a refused growth holds nothing more");
        drop(build);
        assert_eq!(ledger.in_use(), 0);
    }

    /// A meter over a cache whose tables are all held by sessions: only
    /// freeing a session shrinks it.
    struct Pinned(Arc<Cache>);

    impl Meter for Pinned {
        fn bytes(&self) -> u64 {
            self.0.bytes()
        }
        fn shrink_to(&self, _target: u64) {}
    }

    #[test]
    fn growing_builds_take_turns_and_a_wait_has_a_deadline() {
        let ledger = Arc::new(Ledger::new());
        let first = ledger
            .take_turn(Instant::now())
            .expect("no one else builds");
        let soon = Instant::now() + std::time::Duration::from_millis(50);
        assert!(
            ledger.take_turn(soon).is_none(),
            "the wait ends at its deadline"
        );
        let waiter = {
            let ledger = ledger.clone();
            std::thread::spawn(move || {
                ledger
                    .take_turn(Instant::now() + std::time::Duration::from_secs(30))
                    .is_some()
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        drop(first);
        assert!(
            waiter.join().unwrap(),
            "the next build goes when a turn ends"
        );
    }

    #[test]
    fn more_than_the_whole_limit_is_refused_as_too_large_and_the_limit_is_1_gib_unless_set() {
        let ledger = Ledger::new();
        assert_eq!(ledger.limit(), DEFAULT_MAX_MEMORY);
        ledger.set_limit(Some(100));
        assert!(matches!(
            ledger.reserve("a huge table", 101),
            Err(BudgetError::Memory { limit: 100, .. })
        ));
        ledger.set_limit(None);
        assert_eq!(ledger.limit(), DEFAULT_MAX_MEMORY);
    }
}
