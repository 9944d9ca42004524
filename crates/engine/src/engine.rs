//! [`Engine`]: the context games are built in, the memory ledger their tables
//! are counted in, the cache of built games and the bound on its bytes, held by
//! one value instead of process-wide statics.
//!
//! The CLI and the server use the process's default engine ([`Engine::global`],
//! reached through the free functions [`crate::build`], [`trim_cache`], …); a
//! test that must see only its own tables makes an engine of its own over a
//! ledger of its own ([`Engine::new`]). Games are built in an engine by the
//! registry ([`Engine::build`], `crate::registry`), which lies above this
//! module.

use crate::dyn_game::DynGame;
use crate::handle::Tables;
use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use tabula_core::{Game, Ledger, Meter, Registered};

/// The default byte bound of the cache of games and their solutions: 512 MiB.
pub const DEFAULT_CACHE_BYTES: u64 = 512 << 20;
/// Most games kept in the cache, whatever their size.
pub const CACHE_GAMES: usize = 256;

/// Games and their solution tables, built once and shared, counted in one
/// ledger. Clones share everything.
#[derive(Clone)]
pub struct Engine {
    inner: Arc<Inner>,
}

/// The games' key: the registry's name and the normalised variant (or the
/// solution key, [`crate::registry`]).
pub(crate) type Key = (String, String);

struct Inner {
    ledger: &'static Ledger,
    /// Every solution table alive (held by the cache, by matches being played
    /// or by anyone else), by game and solution key, weakly.
    shared: Mutex<HashMap<Key, Weak<dyn AnyTables>>>,
    cache: Mutex<Cache>,
    /// The byte bound of the cache ([`Engine::set_cache_max_memory`]).
    cache_limit: AtomicU64,
}

/// Solution tables of any game, as the engine sees them: their size, and a way
/// back to the concrete type.
trait AnyTables: Any + Send + Sync {
    fn bytes(&self) -> u64;
    fn into_any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync>;
}

impl<G: Game> AnyTables for Tables<G>
where
    Tables<G>: Send + Sync + 'static,
{
    fn bytes(&self) -> u64 {
        self.memory_bytes()
    }
    fn into_any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync> {
        self
    }
}

struct Cached {
    handle: Arc<dyn DynGame>,
    used: u64,
}

#[derive(Default)]
struct Cache {
    games: HashMap<Key, Cached>,
    clock: u64,
}

impl Cache {
    /// Bytes held by the cached games' solutions (tables shared by several
    /// variants counted once).
    fn bytes(&self) -> u64 {
        let mut seen = std::collections::HashSet::new();
        self.games
            .values()
            .filter(|c| seen.insert(c.handle.tables_id()))
            .map(|c| c.handle.memory_bytes())
            .sum()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // No caller's code runs under these locks, so a poisoned one is consistent.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Engine {
    /// An engine whose tables are counted in `ledger` (its solutions, and the
    /// tables the games build for it), with an empty cache bounded by
    /// [`DEFAULT_CACHE_BYTES`].
    pub fn new(ledger: &'static Ledger) -> Engine {
        let engine = Engine {
            inner: Arc::new(Inner {
                ledger,
                shared: Mutex::default(),
                cache: Mutex::default(),
                cache_limit: AtomicU64::new(DEFAULT_CACHE_BYTES),
            }),
        };
        ledger.add_meter(Arc::new(EngineTables(Arc::downgrade(&engine.inner))));
        engine
    }

    /// The process's default engine, in the process's default ledger
    /// ([`Ledger::global`]): the one the free functions ([`crate::build`], …) use.
    /// Kept process-wide because the tables a game keeps for the process
    /// (Kono's, Auto120's) and the matches a server plays are shared by every
    /// caller of the process, which must all count them in one ledger.
    pub fn global() -> &'static Engine {
        static DEFAULT: OnceLock<Engine> = OnceLock::new();
        DEFAULT.get_or_init(|| Engine::new(Ledger::global()))
    }

    /// The ledger this engine's tables are counted in.
    pub fn ledger(&self) -> &'static Ledger {
        self.inner.ledger
    }

    /// Sets the byte bound of the cache of built games and their solutions (the
    /// server uses half of `--max-memory`).
    pub fn set_cache_max_memory(&self, bytes: u64) {
        self.inner.cache_limit.store(bytes, Ordering::Relaxed);
    }

    /// The byte bound of the cache ([`DEFAULT_CACHE_BYTES`] unless set).
    pub fn cache_max_memory(&self) -> u64 {
        self.inner.cache_limit.load(Ordering::Relaxed)
    }

    /// Bytes of every solution table alive in this engine, each counted once:
    /// those of cached games and those only matches being played still hold.
    /// This is what the cache's bound ([`Engine::cache_max_memory`]) bounds.
    pub fn tables_in_use(&self) -> u64 {
        self.inner.tables_in_use()
    }

    /// What the cache holds now: `(games, bytes)`.
    pub fn cache_usage(&self) -> (usize, u64) {
        let c = lock(&self.inner.cache);
        (c.games.len(), c.bytes())
    }

    /// Enforces the cache's bounds now ([`Engine::build`] does at every call): a
    /// server calls it when matches being played have let tables go or grown.
    pub fn trim_cache(&self) {
        self.inner.shrink(&mut lock(&self.inner.cache), None, None);
    }

    /// The game cached under `key`, marked as just used; the cache's bounds
    /// are enforced again (its solution may have grown since).
    pub(crate) fn cached(&self, key: &Key) -> Option<Arc<dyn DynGame>> {
        let mut c = lock(&self.inner.cache);
        c.clock += 1;
        let now = c.clock;
        let found = c.games.get_mut(key)?;
        found.used = now;
        let handle = found.handle.clone();
        self.inner.shrink(&mut c, Some(key), None);
        Some(handle)
    }

    /// Keeps `handle` in the cache under `key`, then enforces the cache's
    /// bounds, forgetting other games first.
    pub(crate) fn keep(&self, key: Key, handle: Arc<dyn DynGame>) {
        let mut c = lock(&self.inner.cache);
        c.clock += 1;
        let now = c.clock;
        c.games.insert(key.clone(), Cached { handle, used: now });
        self.inner.shrink(&mut c, Some(&key), None);
    }

    /// The solution tables of a game and solution key: the ones a live handle
    /// of this engine already uses, or new ones in its ledger. Only weak
    /// references are kept here, so tables are freed with the last handle that
    /// uses them.
    pub(crate) fn shared_tables<G: Registered>(&self, key: Key) -> Arc<Tables<G>> {
        let mut map = lock(&self.inner.shared);
        if let Some(found) = map
            .get(&key)
            .and_then(Weak::upgrade)
            .and_then(|a| a.into_any().downcast::<Tables<G>>().ok())
        {
            return found;
        }
        map.retain(|_, w| w.strong_count() > 0);
        let tables = Arc::new(Tables::<G>::in_ledger(self.inner.ledger));
        let any: Arc<dyn AnyTables> = tables.clone();
        map.insert(key, Arc::downgrade(&any));
        tables
    }
}

impl Inner {
    fn tables_in_use(&self) -> u64 {
        let live: Vec<Arc<dyn AnyTables>> = lock(&self.shared)
            .values()
            .filter_map(Weak::upgrade)
            .collect();
        // Sized (and possibly freed) outside the map's lock.
        live.iter().map(|t| t.bytes()).sum()
    }

    /// Forgets the least recently used games until the cache holds at most
    /// [`CACHE_GAMES`] games, the solution tables alive in the engine (the
    /// cache's and those of matches being played, [`Engine::tables_in_use`])
    /// fit in the cache's bound and in `within` (what the ledger asks for),
    /// and every table the ledger counts (Kono's and Auto120's tables too) fits
    /// its limit, or only `keep` is left. Tables a match still holds stay until
    /// it goes; a game built again meanwhile shares them.
    fn shrink(&self, cache: &mut Cache, keep: Option<&Key>, within: Option<u64>) {
        let bound = self.cache_limit.load(Ordering::Relaxed);
        let limit = within.map_or(bound, |target| bound.min(target));
        loop {
            if cache.games.len() <= CACHE_GAMES
                && self.tables_in_use() <= limit
                && self.ledger.in_use() <= self.ledger.limit()
            {
                return;
            }
            let oldest = cache
                .games
                .iter()
                .filter(|(k, _)| Some(*k) != keep)
                .min_by_key(|(_, c)| c.used)
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => {
                    cache.games.remove(&k);
                }
                None => return,
            }
        }
    }
}

/// An engine's solution tables in its [`Ledger`]: counted as
/// [`Engine::tables_in_use`] (the cache's and the matches'), and made smaller
/// by forgetting cached games when another table needs the room. Held weakly:
/// an engine that is gone holds nothing.
struct EngineTables(Weak<Inner>);

impl Meter for EngineTables {
    fn bytes(&self) -> u64 {
        self.0.upgrade().map_or(0, |inner| inner.tables_in_use())
    }
    fn shrink_to(&self, target: u64) {
        if let Some(inner) = self.0.upgrade() {
            inner.shrink(&mut lock(&inner.cache), None, Some(target));
        }
    }
}

/// [`Engine::trim_cache`] of the process's default engine.
pub fn trim_cache() {
    Engine::global().trim_cache();
}

/// [`Engine::cache_usage`] of the process's default engine.
pub fn cache_usage() -> (usize, u64) {
    Engine::global().cache_usage()
}

/// [`Engine::tables_in_use`] of the process's default engine.
pub fn tables_in_use() -> u64 {
    Engine::global().tables_in_use()
}

/// [`Engine::set_cache_max_memory`] of the process's default engine.
pub fn set_cache_max_memory(bytes: u64) {
    Engine::global().set_cache_max_memory(bytes);
}

/// [`Engine::cache_max_memory`] of the process's default engine.
pub fn cache_max_memory() -> u64 {
    Engine::global().cache_max_memory()
}
