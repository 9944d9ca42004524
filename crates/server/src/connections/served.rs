//! The connections being served, and which of them make way for a newcomer.
//!
//! A connection that has no request under way (none yet, or between keep-alive
//! requests) holds its place only until someone needs it: when every place is
//! taken, a newcomer takes the place of such a connection at once, chosen from
//! the peer (address) that holds the most connections, the oldest first. An
//! attacker that keeps heads half-sent and reconnects as soon as it is closed
//! therefore only ever replaces its own connections, and a client whose request
//! head is complete is never closed for it. A request under way (a body
//! arriving, the computer thinking, an event stream) is never closed this way;
//! only the body rules (`request_body.rs`) cut slow bodies.

use super::NEVER;
use crate::own_answers::Exchange;
use crate::request_body::BodyWatch;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

/// Connections told to make way that may still be closing at once (each holds
/// a socket for a moment more); beyond, newcomers wait for a place instead.
pub const MAX_CLOSING: usize = 64;

/// A connection is not made to make way before it has been served this long:
/// a client sends its request as soon as it connects, so this leaves a newcomer
/// the moment it needs to send its head, and a newcomer that finds only such
/// young connections waits a moment for one to finish or grow old.
pub const YOUNG: Duration = Duration::from_millis(30);

/// One served connection, as its task and the accept loop share it.
pub struct Served {
    id: u64,
    /// When it was accepted (milliseconds since the server started).
    accepted: u64,
    /// How many connections its peer holds (shared by them all).
    peer_holds: Arc<AtomicUsize>,
    peer: IpAddr,
    /// Requests handed to the application and answers finished.
    pub exchange: Arc<Exchange>,
    /// When it last received bytes ([`NEVER`] until it does).
    pub last_read: Arc<AtomicU64>,
    /// The body of the request being read, if any.
    pub body: Arc<BodyWatch>,
    /// Its place among the served connections; once it is told to make way,
    /// a place among those closing instead.
    place: Mutex<Option<OwnedSemaphorePermit>>,
    /// Told once it must make way for a newcomer.
    pub make_way: Notify,
}

/// Every connection being served.
pub struct Registry {
    epoch: Instant,
    /// Places for connections told to make way and still closing.
    closing: Arc<Semaphore>,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    next_id: u64,
    served: HashMap<u64, Arc<Served>>,
    /// Connections held by each peer.
    peers: HashMap<IpAddr, Arc<AtomicUsize>>,
}

impl Registry {
    /// An empty registry whose times count from `epoch`.
    pub fn new(epoch: Instant) -> Self {
        Registry {
            epoch,
            closing: Arc::new(Semaphore::new(MAX_CLOSING)),
            inner: Mutex::new(Inner::default()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// When the server started (the clock of every time kept here).
    pub fn epoch(&self) -> Instant {
        self.epoch
    }

    /// Milliseconds since the server started.
    pub fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Records a connection from `peer` given `place`.
    pub fn add(&self, peer: IpAddr, place: OwnedSemaphorePermit) -> Arc<Served> {
        let mut inner = self.lock();
        inner.next_id += 1;
        let id = inner.next_id;
        let peer_holds = inner.peers.entry(peer).or_default().clone();
        peer_holds.fetch_add(1, Ordering::Relaxed);
        let served = Arc::new(Served {
            id,
            accepted: self.now(),
            peer_holds,
            peer,
            exchange: Arc::new(Exchange::default()),
            last_read: Arc::new(AtomicU64::new(NEVER)),
            body: Arc::new(BodyWatch::new(self.epoch)),
            place: Mutex::new(Some(place)),
            make_way: Notify::new(),
        });
        inner.served.insert(id, served.clone());
        served
    }

    /// Forgets a connection that has closed (its place is free once the last
    /// reference to it goes).
    pub fn remove(&self, served: &Served) {
        let mut inner = self.lock();
        Self::forget(&mut inner, served);
    }

    fn forget(inner: &mut Inner, served: &Served) {
        if inner.served.remove(&served.id).is_none() {
            return;
        }
        if served.peer_holds.fetch_sub(1, Ordering::Relaxed) == 1 {
            inner.peers.remove(&served.peer);
        }
    }

    /// Takes the place of a connection without a request under way, served
    /// for at least [`YOUNG`], from the peer holding the most connections, its
    /// oldest first, and tells that connection to close. `None` when there is
    /// none, or too many are closing already.
    pub fn take_a_place(&self) -> Option<OwnedSemaphorePermit> {
        let closing = self.closing.clone().try_acquire_owned().ok()?;
        let grown = self.now().saturating_sub(YOUNG.as_millis() as u64);
        let mut inner = self.lock();
        let victim = inner
            .served
            .values()
            .filter(|s| s.accepted <= grown && !s.exchange.under_way())
            .max_by_key(|s| {
                (
                    s.peer_holds.load(Ordering::Relaxed),
                    std::cmp::Reverse(s.accepted),
                )
            })?
            .clone();
        Self::forget(&mut inner, &victim);
        drop(inner);
        let place = victim
            .place
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .replace(closing);
        victim.make_way.notify_one();
        place
    }

    /// Cuts the request body furthest behind the pace asked for while
    /// connections wait for a place, if one is behind. True if one was cut.
    pub fn cut_the_slowest_body(&self) -> bool {
        let now = self.now();
        let inner = self.lock();
        let slowest = inner
            .served
            .values()
            .filter_map(|s| {
                let last = match s.last_read.load(Ordering::Relaxed) {
                    NEVER => 0,
                    read => read,
                };
                s.body.behind(now, last).map(|late| (late, s))
            })
            .filter(|(late, _)| *late > 0)
            .max_by_key(|(late, _)| *late);
        match slowest {
            Some((_, s)) => {
                s.body.cut();
                true
            }
            None => false,
        }
    }
}
