//! The list of games. Registering a game is one line in [`registry`].

use crate::dyn_game::DynGame;
use crate::handle::{Handle, Tables};
use crate::EngineError;
use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use tabula_core::Game;
use tabula_core::{Ledger, Meter, Registered, TestCases, Variant, VariantOption};

type BuildFn = fn(&Variant, &[&str]) -> Result<Arc<dyn DynGame>, EngineError>;

/// A registered game: its name, and how to build it in a variant.
#[derive(Clone)]
pub struct GameEntry {
    /// Registry name.
    pub name: &'static str,
    /// Title.
    pub title: &'static str,
    /// One sentence.
    pub summary: &'static str,
    /// The variant options.
    pub options: fn() -> Vec<VariantOption>,
    /// Options that change only rules of actual play ([`GameEntry::play_rules`]).
    pub play_only: &'static [&'static str],
    /// What the game declares for the shared tests ([`Registered::test_cases`]).
    pub test_cases: fn() -> TestCases,
    build: BuildFn,
    play_limit: fn(&Variant) -> Result<Option<String>, EngineError>,
    check: fn(&Variant, u64) -> Result<(), String>,
    check_stepping: fn(&Variant, u64) -> Result<(), String>,
}

impl GameEntry {
    /// Runs the shared conformance checks ([`crate::conformance`]) on this game.
    pub fn check(&self, variant: &str, seed: u64) -> Result<(), String> {
        let v = Variant::parse(variant).map_err(|e| e.to_string())?;
        (self.check)(&v, seed)
    }

    /// Plays the stepping state against the typed game
    /// ([`crate::step_agreement`]) in this variant.
    pub fn check_stepping(&self, variant: &str, seed: u64) -> Result<(), String> {
        let v = Variant::parse(variant).map_err(|e| e.to_string())?;
        (self.check_stepping)(&v, seed)
    }

    /// The variants the shared tests check in full: the usual game and the
    /// variants the game declares ([`TestCases::variants`]), each once, as
    /// written. (Presets get the checks of their own: they build, and their
    /// action ids follow the laws.)
    pub fn checked_variants(&self) -> Vec<String> {
        let mut out = vec![String::new()];
        for case in (self.test_cases)().variants {
            if !out.iter().any(|o| o == case.variant) {
                out.push(case.variant.to_string());
            }
        }
        out
    }
}

/// The registry entry of a game type.
pub fn entry<G: Registered>() -> GameEntry {
    fn build<G: Registered>(
        v: &Variant,
        play_only: &[&str],
    ) -> Result<Arc<dyn DynGame>, EngineError> {
        v.check_known(G::NAME, &G::options())?;
        let game = G::from_variant(v).map_err(|e| e.labelled(&G::options()))?;
        let key = (
            G::NAME.to_string(),
            solution_key(&game.variant(), play_only),
        );
        let tables = shared_tables::<G>(key);
        Ok(Arc::new(Handle::sharing(game, tables)))
    }
    fn play_limit<G: Registered>(v: &Variant) -> Result<Option<String>, EngineError> {
        v.check_known(G::NAME, &G::options())?;
        let game = G::from_variant(v).map_err(|e| e.labelled(&G::options()))?;
        Ok(game.play_limit())
    }
    fn check<G: Registered>(v: &Variant, seed: u64) -> Result<(), String> {
        let game = G::from_variant(v).map_err(|e| e.to_string())?;
        crate::conformance::check_game(game, seed)
    }
    fn check_stepping<G: Registered>(v: &Variant, seed: u64) -> Result<(), String> {
        let game = G::from_variant(v).map_err(|e| e.to_string())?;
        crate::step_agreement::check_stepping(game, seed)
    }
    GameEntry {
        name: G::NAME,
        title: G::TITLE,
        summary: G::SUMMARY,
        options: G::options,
        play_only: &[],
        test_cases: G::test_cases,
        build: build::<G>,
        play_limit: play_limit::<G>,
        check: check::<G>,
        check_stepping: check_stepping::<G>,
    }
}

impl GameEntry {
    /// Names the options that only change rules of actual play (draws by
    /// repetition or for lack of progress), not the game's exact solution:
    /// variants that differ only in them share one solution in memory.
    pub fn play_rules(mut self, options: &'static [&'static str]) -> Self {
        self.play_only = options;
        self
    }
}

/// The normalised variant with the options of `play_only` blanked out: the key of
/// the solution tables.
fn solution_key(normalised: &Variant, play_only: &[&str]) -> String {
    let mut v = normalised.clone();
    for name in play_only {
        if v.get(name).is_some() {
            v.set(name, "*");
        }
    }
    v.to_string()
}

/// Solution tables of any game, as the registry sees them: their size, and a way
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

type SharedTables = Mutex<HashMap<(String, String), Weak<dyn AnyTables>>>;

/// Every solution table alive in the process (held by the cache, by matches being
/// played or by anyone else), by game and solution key, weakly.
fn shared() -> std::sync::MutexGuard<'static, HashMap<(String, String), Weak<dyn AnyTables>>> {
    static SHARED: OnceLock<SharedTables> = OnceLock::new();
    SHARED
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

/// The solution tables of a game and solution key: the ones a live handle already
/// uses, or new ones. Only weak references are kept here, so tables are freed
/// with the last handle that uses them.
fn shared_tables<G: Registered>(key: (String, String)) -> Arc<Tables<G>> {
    let mut map = shared();
    if let Some(found) = map
        .get(&key)
        .and_then(Weak::upgrade)
        .and_then(|a| a.into_any().downcast::<Tables<G>>().ok())
    {
        return found;
    }
    map.retain(|_, w| w.strong_count() > 0);
    let tables = Arc::new(Tables::<G>::default());
    let any: Arc<dyn AnyTables> = tables.clone();
    map.insert(key, Arc::downgrade(&any));
    tables
}

/// Bytes of every solution table alive in this process, each counted once:
/// those of cached games and those only matches being played still hold. This
/// is what the one table budget ([`cache_max_memory`]) bounds.
pub fn tables_in_use() -> u64 {
    let live: Vec<Arc<dyn AnyTables>> = shared().values().filter_map(Weak::upgrade).collect();
    // Sized (and possibly freed) outside the map's lock.
    live.iter().map(|t| t.bytes()).sum()
}

/// Every game, in the order they are listed.
pub fn registry() -> Vec<GameEntry> {
    vec![
        entry::<tabula_tictactoe::TicTacToe>(),
        entry::<tabula_hexapawn::Hexapawn>(),
        entry::<tabula_kono::Kono>().play_rules(&["nocapture"]),
        entry::<tabula_mutorere::MuTorere>(),
        entry::<tabula_nim::Nim>(),
        entry::<tabula_northcott::Northcott>().play_rules(&["repetition", "progress"]),
        entry::<tabula_auto120::Auto120>(),
        entry::<tabula_samegame::SameGame>(),
        entry::<tabula_poggle::Poggle>(),
        entry::<tabula_pig::Pig>(),
        entry::<tabula_connect4::ConnectFour>(),
    ]
}

/// Finds a game by name (case-insensitive; `_` and `-` are interchangeable).
pub fn find(name: &str) -> Result<GameEntry, EngineError> {
    let norm = |s: &str| s.to_ascii_lowercase().replace('_', "-");
    let wanted = norm(name);
    registry()
        .into_iter()
        .find(|e| {
            norm(e.name) == wanted || norm(e.name).replace('-', "") == wanted.replace('-', "")
        })
        .ok_or_else(|| {
            EngineError::UnknownGame(name.chars().take(40).flat_map(char::escape_debug).collect())
        })
}

/// The title of the game registered as `name` ("Tic-tac-toe" for `tictactoe`),
/// read as [`find`] reads names; `None` for a name no game has.
pub fn title_of(name: &str) -> Option<&'static str> {
    find(name).ok().map(|e| e.title)
}

/// The default byte bound of the cache of games and their solutions: 512 MiB.
pub const DEFAULT_CACHE_BYTES: u64 = 512 << 20;
/// Most games kept in the cache, whatever their size.
pub const CACHE_GAMES: usize = 256;

static CACHE_LIMIT: AtomicU64 = AtomicU64::new(DEFAULT_CACHE_BYTES);

/// Sets the byte bound of the cache of built games and their solutions (the
/// server uses half of `--max-memory`).
pub fn set_cache_max_memory(bytes: u64) {
    CACHE_LIMIT.store(bytes, Ordering::Relaxed);
}

/// The byte bound of the cache ([`DEFAULT_CACHE_BYTES`] unless set).
pub fn cache_max_memory() -> u64 {
    CACHE_LIMIT.load(Ordering::Relaxed)
}

struct Cached {
    handle: Arc<dyn DynGame>,
    used: u64,
}

#[derive(Default)]
struct Cache {
    games: HashMap<(String, String), Cached>,
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

    /// Forgets the least recently used games until the cache holds at most
    /// [`CACHE_GAMES`] games, the solution tables alive in the process (the
    /// cache's and those of matches being played, [`tables_in_use`]) fit in
    /// [`cache_max_memory`] and in `within` (what the process's ledger asks
    /// for), and every table the process holds (the ledger's: Kono's and
    /// Auto120's tables too) fits the process's limit, or only `keep` is left.
    /// Tables a match still holds stay until it goes; a game built again
    /// meanwhile shares them.
    fn shrink(&mut self, keep: Option<&(String, String)>, within: Option<u64>) {
        let limit = match within {
            Some(target) => cache_max_memory().min(target),
            None => cache_max_memory(),
        };
        let ledger = Ledger::global();
        loop {
            if self.games.len() <= CACHE_GAMES
                && tables_in_use() <= limit
                && ledger.in_use() <= ledger.limit()
            {
                return;
            }
            let oldest = self
                .games
                .iter()
                .filter(|(k, _)| Some(*k) != keep)
                .min_by_key(|(_, c)| c.used)
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => {
                    self.games.remove(&k);
                }
                None => return,
            }
        }
    }
}

fn cache() -> std::sync::MutexGuard<'static, Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE
        .get_or_init(|| {
            Ledger::global().add_meter(Arc::new(EngineTables));
            Mutex::default()
        })
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

/// The engine's solution tables in the process's [`Ledger`]: counted as
/// [`tables_in_use`] (the cache's and the matches'), and made smaller by
/// forgetting cached games when another table needs the room.
struct EngineTables;

impl Meter for EngineTables {
    fn bytes(&self) -> u64 {
        tables_in_use()
    }
    fn shrink_to(&self, target: u64) {
        cache().shrink(None, Some(target));
    }
}

/// What the cache holds now: `(games, bytes)`.
pub fn cache_usage() -> (usize, u64) {
    let c = cache();
    (c.games.len(), c.bytes())
}

/// Builds (or reuses) a game in a variant. Handles are cached so that solutions
/// are computed once per process; the cache is bounded in bytes of solution
/// ([`cache_max_memory`]) and forgets the least recently used games first.
/// Solutions grow after a game is built (the first perfect move or hint), so the
/// bound is enforced again each time a game is asked for.
pub fn build(name: &str, variant: &str) -> Result<Arc<dyn DynGame>, EngineError> {
    let entry = find(name)?;
    let v = Variant::parse(variant)?;
    let key = (entry.name.to_string(), v.to_string());
    {
        let mut c = cache();
        c.clock += 1;
        let now = c.clock;
        if let Some(found) = c.games.get_mut(&key) {
            found.used = now;
            let handle = found.handle.clone();
            c.shrink(Some(&key), None);
            return Ok(handle);
        }
    }
    let handle = (entry.build)(&v, entry.play_only)?;
    let mut c = cache();
    c.clock += 1;
    let now = c.clock;
    c.games.insert(
        key.clone(),
        Cached {
            handle: handle.clone(),
            used: now,
        },
    );
    c.shrink(Some(&key), None);
    Ok(handle)
}

/// Refuses, before anything is built, a variant too large to play (a match
/// could not start from it: [`Registered::play_limit`]), with the reason in
/// words; also refuses an unknown game or a bad variant as [`build`] does.
/// Building a game may take a while for a large variant (its first positions
/// are played to learn whether it has dice), so a request to play checks this
/// first.
pub fn check_playable(name: &str, variant: &str) -> Result<(), EngineError> {
    let entry = find(name)?;
    let v = Variant::parse(variant)?;
    match (entry.play_limit)(&v)? {
        Some(why) => Err(EngineError::Invalid(why)),
        None => Ok(()),
    }
}

/// Enforces the cache's bounds now ([`build`] does at every call): a server calls
/// it when matches being played have let tables go or grown.
pub fn trim_cache() {
    cache().shrink(None, None);
}
