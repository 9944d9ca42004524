//! Live sessions: matches in memory, each behind its own mutex, written to the
//! store after every change (in one transaction with the tallies, learned
//! matchboxes and best results that change with it). A session not in memory
//! (after a restart, or evicted when idle) is rebuilt from its stored record.
//!
//! There is one live copy of a session, whatever clients do: a change that is
//! not written (its request was cancelled or ran out of time, the store failed,
//! the engine panicked) is undone in place, under the session's own lock, by
//! rebuilding the match from its last stored record. Requests already waiting for
//! that lock then act on what was acknowledged, never on a second copy.
//!
//! Live sessions' solution tables count against the one table budget
//! (`tabula_engine::cache_max_memory`): when the tables alive exceed it, idle
//! sessions holding tables leave memory (least recently used first), and a
//! session that would still not fit is refused with 503.

use crate::error::ApiError;
use crate::thinking::WorkContext;
use axum::body::Bytes;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::Serialize;
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};
use tabula_core::{Outcome, Seat};
use tabula_engine::{build, parse_player_spec, DynGame, Match, MatchRecord, MatchView, Tally};
use tabula_store::{LearnedKey, Metric, Revision, Store, StoreError, TallyDelta, Writer};

/// A session as the API returns it: `{"id": …, "view": …}`.
#[derive(Serialize)]
pub struct SessionOut {
    /// Session id.
    pub id: String,
    /// The view.
    pub view: SharedView,
}

/// Room for a view written afresh (a tic-tac-toe view is about 2.3 KB): the
/// text is written once, without growing its buffer on the way.
const VIEW_ROOM: usize = 4096;

/// Room beyond the view for the rest of an answer of play (its id and the
/// log lines of the plies just played).
const ANSWER_ROOM: usize = 1024;

impl SessionOut {
    /// The answer's JSON, written once into a buffer of its size: the shared
    /// view's text as it is, with the id before it and `played` (the lines of
    /// the plies just played), if any, after it. The same text serde_json
    /// writes for the answer (`routes::MoveOut` flattens a session).
    pub(crate) fn body<P: Serialize>(&self, played: Option<&P>) -> Result<Bytes, ApiError> {
        let mut out = Vec::with_capacity(self.view.0.len() + ANSWER_ROOM);
        let written = (|| {
            out.extend_from_slice(b"{\"id\":");
            serde_json::to_writer(&mut out, &self.id)?;
            out.extend_from_slice(b",\"view\":");
            out.extend_from_slice(&self.view.0);
            if let Some(played) = played {
                out.extend_from_slice(b",\"played\":");
                serde_json::to_writer(&mut out, played)?;
            }
            out.push(b'}');
            Ok::<(), serde_json::Error>(())
        })();
        written.map_err(|e| ApiError::internal(format!("the answer could not be written: {e}")))?;
        Ok(Bytes::from(out))
    }
}

impl axum::response::IntoResponse for SessionOut {
    fn into_response(self) -> axum::response::Response {
        match self.body::<()>(None) {
            Ok(body) => json_response(body),
            Err(e) => e.into_response(),
        }
    }
}

/// An answer whose body is JSON already written.
pub(crate) fn json_response(body: Bytes) -> axum::response::Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// A view serialised once, as the JSON the API sends: the answer of the change
/// that wrote it and the session's `last_view` share the text. A session keeps
/// one buffer between requests instead of the view's many small allocations,
/// and answers copy it once into their body.
#[derive(Clone)]
pub struct SharedView(Bytes);

impl SharedView {
    /// The JSON of `view` (its board's cells from the JSON kept for the same
    /// cells: [`tabula_core::with_kept_cells`]), written into a buffer of
    /// `room` bytes to start with.
    pub fn of(view: &MatchView, room: usize) -> Result<Self, ApiError> {
        let mut out = Vec::with_capacity(room);
        tabula_core::with_kept_cells(|| serde_json::to_writer(&mut out, view))
            .map_err(|e| ApiError::internal(format!("the view could not be written: {e}")))?;
        Ok(SharedView(Bytes::from(out)))
    }

    /// Room for the next view of the same session: this one's size and some.
    fn next_room(&self) -> usize {
        self.0.len() + self.0.len() / 4
    }
}

impl Serialize for SharedView {
    /// The view's text as it is (read back as JSON first: the answers of play
    /// copy the text without this, [`SessionOut::body`]).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        let raw: &RawValue = serde_json::from_slice(&self.0).map_err(S::Error::custom)?;
        raw.serialize(s)
    }
}

/// A match being played.
pub struct Session {
    id: String,
    /// The game in its variant (a session never changes either); its solution
    /// tables are what the session holds in memory.
    game: Arc<dyn DynGame>,
    inner: Mutex<Inner>,
    /// The view as last written, for readers while the computer thinks (shared
    /// with the answer that wrote it: a change builds its view once).
    last_view: Mutex<Option<SharedView>>,
    /// Milliseconds since the registry started, at the last use.
    last_used: AtomicU64,
    /// A computer that may think plays a seat (as of the last request that held
    /// the lock): its moves go through the thinking pool ([`Sessions::may_think`]).
    /// A perfect player whose table covers the position only looks moves up.
    computer: AtomicBool,
}

struct Inner {
    m: Box<dyn Match>,
    /// The match's tally as last written, to find what an action changed.
    tally: Tally,
    /// The players (one name per seat) whose tally the last finished game was
    /// counted for: undoing that game takes it from them, even if seats changed
    /// players since.
    counted: Vec<String>,
    puzzle: bool,
    /// The stored revision this copy was read at or last wrote: a write from a
    /// copy that is not the stored revision (another program changed the
    /// session meanwhile) is refused, and the copy read again.
    revision: Revision,
    /// This copy left the table of live sessions (its stored record could not be
    /// read back): whoever gets its lock afterwards looks the session up again.
    gone: bool,
}

/// The live sessions and their store.
pub struct Sessions {
    store: Arc<Store>,
    live: Arc<Live>,
    epoch: Instant,
    /// Frees idle sessions' tables when a table being built needs the room
    /// (registered with the process's ledger, which holds it weakly).
    _reliever: Arc<dyn tabula_core::ledger::Reliever>,
}

/// The sessions held in memory, by id.
type Live = RwLock<HashMap<String, Arc<Session>>>;

/// Takes the least recently used session that no request holds and whose game
/// holds solution tables out of `live` (it stays in the store and is rebuilt
/// when next asked for). No request can pick it up meanwhile: the table's write
/// lock is held while it is taken out. The caller drops it outside the lock.
fn take_idle_session_with_tables(live: &Live) -> Option<Arc<Session>> {
    let mut live = live.write().ok()?;
    let victim = live
        .iter()
        .filter(|(_, s)| Arc::strong_count(s) == 1 && s.game.memory_bytes() > 0)
        .min_by_key(|(_, s)| s.last_used.load(Ordering::Relaxed))
        .map(|(id, _)| id.clone())?;
    live.remove(&victim)
}

/// Frees one idle session's tables for the ledger (a table being built needs
/// the room).
struct IdleSessions(std::sync::Weak<Live>);

impl tabula_core::ledger::Reliever for IdleSessions {
    fn relieve_one(&self) -> bool {
        let Some(live) = self.0.upgrade() else {
            return false;
        };
        let freed = take_idle_session_with_tables(&live);
        let relieved = freed.is_some();
        // Dropped here, outside the table's lock; the engine's cache may still
        // hold the tables, which the ledger's meters are asked to free next.
        drop(freed);
        relieved
    }
}

/// Session ids are 32 lower-case hex digits (128 random bits).
pub fn valid_id(id: &str) -> bool {
    id.len() == 32
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The learner kind of a player name (`matchbox:symmetry=off` -> the whole
/// normalised name), used to key stored matchboxes.
fn learner_key(record: &MatchRecord, seat: Seat) -> LearnedKey {
    let player = record
        .config
        .players
        .get(seat)
        .and_then(|p| parse_player_spec(p).ok())
        .map(|s| s.to_text())
        .unwrap_or_else(|| "human".into());
    LearnedKey {
        game: record.game.clone(),
        variant: record.variant.clone(),
        seat,
        player,
    }
}

/// The players the record's last finished game was counted for (its seats may
/// have changed player since).
fn counted_for(record: &MatchRecord) -> Vec<String> {
    record
        .current
        .as_ref()
        .and_then(|c| c.counted_for.clone())
        .unwrap_or_else(|| record.config.players.clone())
}

/// The answer to a request whose change was not kept.
fn stopped() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "the request was stopped before it finished: nothing was changed",
    )
}

impl Sessions {
    /// An empty registry over a store.
    pub fn new(store: Arc<Store>) -> Self {
        let live: Arc<Live> = Arc::default();
        let reliever: Arc<dyn tabula_core::ledger::Reliever> =
            Arc::new(IdleSessions(Arc::downgrade(&live)));
        tabula_core::Ledger::global().add_reliever(&reliever);
        Sessions {
            store,
            live,
            epoch: Instant::now(),
            _reliever: reliever,
        }
    }

    /// The store.
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Sessions held in memory.
    pub fn live_count(&self) -> usize {
        self.live.read().map(|l| l.len()).unwrap_or(0)
    }

    /// Drops from memory the sessions idle for longer than `idle` (they stay in the store).
    pub fn evict_idle(&self, idle: Duration) -> usize {
        let cutoff = self.now_ms().saturating_sub(idle.as_millis() as u64);
        let Ok(mut live) = self.live.write() else {
            return 0;
        };
        let before = live.len();
        live.retain(|_, s| {
            Arc::strong_count(s) > 1 || s.last_used.load(Ordering::Relaxed) >= cutoff
        });
        before - live.len()
    }

    /// Keeps the solution tables alive in this process within the table budget
    /// ([`tabula_engine::cache_max_memory`]): forgets the cache's games no one
    /// uses, then sends idle sessions that hold tables out of memory (least
    /// recently used first; they stay in the store and are rebuilt when next
    /// asked for). A session is idle when no request holds it: the table's write
    /// lock is held while it is taken out, so no request can pick it up meanwhile.
    /// Returns `Err` (503, in plain words) when the tables still exceed the budget.
    fn make_room(&self) -> Result<(), ApiError> {
        let ledger = tabula_core::Ledger::global();
        // The bound exceeded, if any, as (used, limit): the sessions' tables within
        // the cache's bound, and every table of the process (Kono's and Auto120's
        // too) within its ledger's limit.
        let over = || {
            let (games, bound) = (
                tabula_engine::tables_in_use(),
                tabula_engine::cache_max_memory(),
            );
            if games > bound {
                return Some((games, bound));
            }
            let (used, limit) = (ledger.in_use(), ledger.limit());
            (used > limit).then_some((used, limit))
        };
        // The usual case, checked once (this runs after every change).
        if over().is_none() {
            return Ok(());
        }
        loop {
            tabula_engine::trim_cache();
            let Some((used, limit)) = over() else {
                return Ok(());
            };
            let evicted = take_idle_session_with_tables(&self.live);
            // Freed here, outside the table's lock.
            if evicted.is_none() {
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "the server's memory for game solutions is full ({} in use by games \
                         being played, of {}): try again when other games have finished",
                        tabula_core::format_bytes(used),
                        tabula_core::format_bytes(limit)
                    ),
                ));
            }
        }
    }

    /// Starts a new session, with `moves` played on the start as set-up moves
    /// (chance moves as given: a game ID replays its rolls) before the chance or
    /// computer turn is taken; learning players start from their stored
    /// matchboxes. A move that cannot be played is refused by its number and
    /// nothing is made. Blocking (may build a solution): call from a blocking
    /// thread, as `work`.
    pub(crate) fn create_with_moves(
        &self,
        game: Arc<dyn DynGame>,
        config: tabula_engine::MatchConfig,
        moves: &[String],
        work: &WorkContext,
    ) -> Result<SessionOut, ApiError> {
        let info = game.info();
        let blank = MatchRecord {
            game: info.name.clone(),
            variant: info.variant.clone(),
            config,
            moves: Vec::new(),
            resigned: None,
            tally: Tally::default(),
            learned: Vec::new(),
            current: None,
        };
        self.make_room()?;
        // Built without playing anything, so learners can be given their boxes
        // before their first move.
        let mut m = game.resume(&blank)?;
        m = self.with_stored_learning(game.as_ref(), m)?;
        for (i, mv) in moves.iter().enumerate() {
            m.play_setup(mv).map_err(|e| {
                let e = ApiError::from(e);
                ApiError::bad_request(format!(
                    "Move {} ({mv}) cannot be played: {}",
                    i + 1,
                    e.message
                ))
            })?;
        }
        // Computer against computer starts at its first ply and is watched through `step`.
        if m.has_human() {
            let _ = m.advance()?;
        }
        self.insert_new(game, m, info.puzzle, work)
    }

    /// Starts a new session from a saved record. Blocking, as `work`.
    pub(crate) fn resume(
        &self,
        record: &MatchRecord,
        work: &WorkContext,
    ) -> Result<SessionOut, ApiError> {
        let game = build(&record.game, &record.variant)?;
        let puzzle = game.info().puzzle;
        self.make_room()?;
        let mut m = game.resume(record)?;
        if m.has_human() {
            let _ = m.advance()?;
        }
        self.insert_new(game, m, puzzle, work)
    }

    /// Gives every learning seat of `m` whose stored matchboxes exist those boxes
    /// (by rebuilding the match from its record with them). Stored boxes that
    /// cannot be read, or that the learner refuses, are set aside (kept whole
    /// and listed as damaged) and that learner starts afresh: one bad row never
    /// stops a game from starting.
    fn with_stored_learning(
        &self,
        game: &dyn DynGame,
        m: Box<dyn Match>,
    ) -> Result<Box<dyn Match>, ApiError> {
        let mut record = m.record();
        let seats = record.config.players.len();
        // The match with every stored state accepted so far.
        let mut with_stored = None;
        record.learned.resize(seats, None);
        for seat in 0..seats {
            if m.learned(seat).is_none() {
                continue;
            }
            let key = learner_key(&record, seat);
            let stored = match self.store.learned(&key) {
                Ok(stored) => stored,
                Err(StoreError::Damaged(d)) => {
                    self.set_aside_learned(&key, &d.problem);
                    None
                }
                Err(e) => return Err(e.into()),
            };
            let Some(state) = stored else { continue };
            let fresh = record.learned[seat].replace(state);
            match game.resume(&record) {
                Ok(m2) => with_stored = Some(m2),
                Err(e) => {
                    // Boxes of another format or shape: this learner starts afresh.
                    record.learned[seat] = fresh;
                    self.set_aside_learned(&key, &format!("its learner cannot use it ({e})"));
                }
            }
        }
        Ok(with_stored.unwrap_or(m))
    }

    /// Sets a learner's stored boxes aside; if even that fails, the learner
    /// still starts afresh (its first finished game writes over them).
    fn set_aside_learned(&self, key: &LearnedKey, problem: &str) {
        eprintln!(
            "tabula: the stored learned state of {} in seat {} of {} is set aside: {problem}",
            key.player,
            key.seat + 1,
            key.game
        );
        if let Err(e) = self.store.set_aside_learned(key, problem) {
            eprintln!("tabula: it could not be set aside: {e}");
        }
    }

    fn insert_new(
        &self,
        game: Arc<dyn DynGame>,
        m: Box<dyn Match>,
        puzzle: bool,
        work: &WorkContext,
    ) -> Result<SessionOut, ApiError> {
        // The tables the new match built count before it is kept.
        self.make_room()?;
        // A request answered "out of time" (or whose client went) makes no session.
        if !work.may_write() {
            return Err(stopped());
        }
        let id = tabula_store::random_id();
        let record = m.record();
        let view = m.view();
        let shared = SharedView::of(&view, VIEW_ROOM)?;
        let revision = self.store.write(|w| {
            let revision = w.insert_session(&id, &record)?;
            // A match can end before anyone clicks (computer against computer).
            write_effects(w, &id, &record, &Tally::default(), &view, puzzle)?;
            Ok(revision)
        })?;
        let computer = m.computer_thinks();
        let session = Arc::new(Session {
            id: id.clone(),
            game,
            inner: Mutex::new(Inner {
                m,
                tally: record.tally.clone(),
                counted: counted_for(&record),
                puzzle,
                revision,
                gone: false,
            }),
            last_used: AtomicU64::new(self.now_ms()),
            last_view: Mutex::new(Some(shared.clone())),
            computer: AtomicBool::new(computer),
        });
        if let Ok(mut live) = self.live.write() {
            live.insert(id.clone(), session);
        }
        Ok(SessionOut { id, view: shared })
    }

    /// The match of a stored record, with what a session keeps beside it.
    fn rebuild(
        &self,
        game: &dyn DynGame,
        record: &MatchRecord,
        revision: Revision,
    ) -> Result<Inner, ApiError> {
        let m = game.resume(record).map_err(|e| match e {
            // A perfect player's solution being prepared: not the session's fault.
            e @ tabula_engine::EngineError::Preparing { .. } => ApiError::from(e),
            e => ApiError::conflict(format!("cannot rebuild the session: {e}")),
        })?;
        Ok(Inner {
            m,
            tally: record.tally.clone(),
            counted: counted_for(record),
            puzzle: game.info().puzzle,
            revision,
            gone: false,
        })
    }

    /// The session, from memory or rebuilt from the store. Blocking.
    fn get(&self, id: &str) -> Result<Arc<Session>, ApiError> {
        if !valid_id(id) {
            return Err(ApiError::not_found("no such session"));
        }
        if let Some(s) = self.live.read().ok().and_then(|l| l.get(id).cloned()) {
            s.last_used.store(self.now_ms(), Ordering::Relaxed);
            return Ok(s);
        }
        let (record, revision) = self
            .store
            .session_at::<MatchRecord>(id)?
            .ok_or_else(|| ApiError::not_found("no such session"))?;
        let game = build(&record.game, &record.variant)
            .map_err(|e| ApiError::conflict(format!("cannot rebuild the session: {e}")))?;
        self.make_room()?;
        let inner = self.rebuild(game.as_ref(), &record, revision)?;
        let view = SharedView::of(&inner.m.view(), VIEW_ROOM)?;
        let session = Arc::new(Session {
            id: id.to_string(),
            game,
            computer: AtomicBool::new(inner.m.computer_thinks()),
            inner: Mutex::new(inner),
            last_used: AtomicU64::new(self.now_ms()),
            last_view: Mutex::new(Some(view)),
        });
        let mut live = self
            .live
            .write()
            .map_err(|_| ApiError::internal("session table poisoned"))?;
        // Two requests may have rebuilt it at once: keep the first.
        Ok(live.entry(id.to_string()).or_insert(session).clone())
    }

    /// Undoes in place whatever this copy holds beyond its stored record: the
    /// match is rebuilt from the store under the session's own lock, so requests
    /// waiting for the lock act on what was acknowledged. When the record cannot
    /// be read back the copy leaves the table of live sessions, marked gone.
    fn restore(&self, s: &Session, inner: &mut Inner) {
        let rebuilt = self
            .store
            .session_at::<MatchRecord>(&s.id)
            .map_err(ApiError::from)
            .and_then(|r| r.ok_or_else(|| ApiError::not_found("no such session")))
            .and_then(|(record, revision)| self.rebuild(s.game.as_ref(), &record, revision));
        match rebuilt {
            Ok(fresh) => {
                *lock(&s.last_view) = SharedView::of(&fresh.m.view(), VIEW_ROOM).ok();
                *inner = fresh;
            }
            Err(_) => {
                inner.gone = true;
                if let Ok(mut live) = self.live.write() {
                    if live
                        .get(&s.id)
                        .is_some_and(|cur| std::ptr::eq(Arc::as_ptr(cur), s))
                    {
                        live.remove(&s.id);
                    }
                }
            }
        }
    }

    /// Runs `f` on the session's one live copy, under its lock. A copy an engine
    /// panic left half-changed (its lock poisoned) is restored from the store
    /// first; a copy that left the table meanwhile is looked up again. Blocking.
    fn enter<T>(
        &self,
        id: &str,
        f: impl FnOnce(&Session, &mut Inner) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        for _ in 0..8 {
            let s = self.get(id)?;
            let mut inner = self.lock_copy(&s);
            if inner.gone {
                continue;
            }
            let out = f(&s, &mut inner);
            s.computer
                .store(inner.m.computer_thinks(), Ordering::Relaxed);
            return out;
        }
        Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the session could not be read back from the database: try again in a moment",
        ))
    }

    /// Locks one copy of a session, restoring it first if a panic left it poisoned.
    fn lock_copy<'a>(&self, s: &'a Session) -> MutexGuard<'a, Inner> {
        match s.inner.lock() {
            Ok(inner) => inner,
            Err(poisoned) => {
                let mut inner = poisoned.into_inner();
                s.inner.clear_poison();
                self.restore(s, &mut inner);
                inner
            }
        }
    }

    /// False when only people play the session, or computers that only look
    /// their moves up (as of its last request): a move there makes the computer
    /// think about nothing, so it need not wait for the thinking pool. True when unsure (the session is not in memory). The
    /// action must still check under the lock: a seat may change player meanwhile.
    pub fn may_think(&self, id: &str) -> bool {
        self.live
            .read()
            .ok()
            .and_then(|l| l.get(id).map(|s| s.computer.load(Ordering::Relaxed)))
            .unwrap_or(true)
    }

    /// [`Sessions::may_think`] of a session in memory; `None` when it is not.
    pub fn live_thinks(&self, id: &str) -> Option<bool> {
        self.live
            .read()
            .ok()
            .and_then(|l| l.get(id).map(|s| s.computer.load(Ordering::Relaxed)))
    }

    /// Reads a session without changing it. Blocking.
    pub fn read<T>(
        &self,
        id: &str,
        f: impl FnOnce(&dyn Match) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        self.enter(id, |_, inner| f(inner.m.as_ref()))
    }

    /// The view of a session without waiting: while the computer thinks for it
    /// (its lock is held), the view as last written. Blocking.
    pub fn view(&self, id: &str) -> Result<SharedView, ApiError> {
        let s = self.get(id)?;
        match s.inner.try_lock() {
            Ok(inner) if !inner.gone => return SharedView::of(&inner.m.view(), VIEW_ROOM),
            Err(std::sync::TryLockError::WouldBlock) => {
                if let Some(view) = lock(&s.last_view).clone() {
                    return Ok(view);
                }
            }
            _ => {}
        }
        self.enter(id, |_, inner| SharedView::of(&inner.m.view(), VIEW_ROOM))
    }

    /// Runs an action on a session and writes the result before answering. When
    /// the action fails the match is unchanged (the engine's contract) and
    /// nothing is written. When the request's budget was cancelled meanwhile (its
    /// deadline passed and it was answered "out of time", or its client went), or
    /// the write fails, nothing is written and the session is restored in place
    /// from its last stored record. Blocking, as `work`.
    pub(crate) fn change<T>(
        &self,
        id: &str,
        work: &WorkContext,
        action: impl FnOnce(&mut Box<dyn Match>, &Sessions) -> Result<T, ApiError>,
    ) -> Result<(T, SessionOut), ApiError> {
        let out = self.enter(id, |s, inner| self.apply(s, inner, work, action))?;
        // The change may have built tables (a first perfect move): others make room.
        let _ = self.make_room();
        Ok(out)
    }

    /// [`Sessions::change`], unless `skip` says so of the match under the
    /// session's lock: then nothing is done or written, and the answer is `None`.
    pub(crate) fn change_unless<T>(
        &self,
        id: &str,
        work: &WorkContext,
        skip: impl FnOnce(&dyn Match) -> bool,
        action: impl FnOnce(&mut Box<dyn Match>, &Sessions) -> Result<T, ApiError>,
    ) -> Result<Option<(T, SessionOut)>, ApiError> {
        let out = self.enter(id, |s, inner| {
            if skip(inner.m.as_ref()) {
                return Ok(None);
            }
            self.apply(s, inner, work, action).map(Some)
        })?;
        if out.is_some() {
            let _ = self.make_room();
        }
        Ok(out)
    }

    /// The body of [`Sessions::change`], under the session's lock.
    fn apply<T>(
        &self,
        s: &Session,
        inner: &mut Inner,
        work: &WorkContext,
        action: impl FnOnce(&mut Box<dyn Match>, &Sessions) -> Result<T, ApiError>,
    ) -> Result<(T, SessionOut), ApiError> {
        let acted = action(&mut inner.m, self);
        // The computer's thinking is over: writing needs no thinking slot.
        work.done_thinking();
        let out = match acted {
            Ok(out) if work.may_write() => out,
            Ok(_) => {
                self.restore(s, inner);
                return Err(stopped());
            }
            Err(e) => {
                if work.cancelled() {
                    self.restore(s, inner);
                }
                return Err(e);
            }
        };
        let record = inner.m.record();
        let view = inner.m.view();
        let room = lock(&s.last_view)
            .as_ref()
            .map_or(VIEW_ROOM, SharedView::next_room);
        let shared = match SharedView::of(&view, room) {
            Ok(shared) => shared,
            Err(e) => {
                self.restore(s, inner);
                return Err(e);
            }
        };
        let written = self.store.write(|w| {
            let revision = w.update_session(&s.id, &record, inner.revision)?;
            write_effects_counted(
                w,
                &s.id,
                &record,
                &inner.tally,
                &view,
                inner.puzzle,
                &inner.counted,
            )?;
            Ok(revision)
        });
        let revision = match written {
            Ok(revision) => revision,
            Err(e) => {
                // Memory is ahead of the store (or, refused as stale, behind
                // what another program stored): back to the stored state.
                if matches!(e, StoreError::Stale) {
                    eprintln!(
                        "tabula: a game in play was changed by another program using the database: \
                         read again; only one server may use a database"
                    );
                }
                self.restore(s, inner);
                return Err(e.into());
            }
        };
        inner.revision = revision;
        if record.tally.games > inner.tally.games {
            inner.counted = counted_for(&record);
        }
        inner.tally = record.tally;
        *lock(&s.last_view) = Some(shared.clone());
        Ok((
            out,
            SessionOut {
                id: s.id.clone(),
                view: shared,
            },
        ))
    }

    /// After a seat changed player: a learner gets its stored matchboxes.
    pub fn reload_learning(&self, m: &mut Box<dyn Match>) -> Result<(), ApiError> {
        let record = m.record();
        let game = build(&record.game, &record.variant)?;
        let current = std::mem::replace(m, game.resume(&record)?);
        *m = self.with_stored_learning(game.as_ref(), current)?;
        Ok(())
    }
}

/// What a change of a match means beyond its record: tallies of its players,
/// learned matchboxes and best results when a game has just ended.
fn write_effects(
    w: &Writer<'_>,
    id: &str,
    record: &MatchRecord,
    before: &Tally,
    view: &MatchView,
    puzzle: bool,
) -> tabula_store::Result<()> {
    write_effects_counted(w, id, record, before, view, puzzle, &record.config.players)
}

/// [`write_effects`], where a game taken back (an undo of a finished game) leaves
/// the tally of `counted`, the players it was counted for.
fn write_effects_counted(
    w: &Writer<'_>,
    id: &str,
    record: &MatchRecord,
    before: &Tally,
    view: &MatchView,
    puzzle: bool,
    counted: &[String],
) -> tabula_store::Result<()> {
    let after = &record.tally;
    let seats = after.wins.len().max(before.wins.len());
    let delta = TallyDelta {
        wins: (0..seats)
            .map(|i| {
                *after.wins.get(i).unwrap_or(&0) as i64 - *before.wins.get(i).unwrap_or(&0) as i64
            })
            .collect(),
        cat: after.cat as i64 - before.cat as i64,
        games: after.games as i64 - before.games as i64,
    };
    if delta.is_zero() {
        return Ok(());
    }
    let players = if delta.games < 0 && counted.len() == record.config.players.len() {
        counted
    } else {
        &record.config.players
    };
    w.add_tally(&record.game, &record.variant, players, &delta)?;
    // A game's end teaches a learner once; undoing that end takes the lesson back
    // (the engine's `Match::undo`), in the stored boxes too.
    if delta.games != 0 {
        for (seat, learned) in record.learned.iter().enumerate() {
            if let Some(state) = learned {
                w.put_learned(&learner_key(record, seat), state)?;
            }
        }
    }
    // A learner that left its seat after the end taught it: the undo gave its
    // lesson back as the state it had before, for its own stored boxes.
    if delta.games < 0 {
        for lesson in record.current.iter().flat_map(|c| &c.untaught) {
            let key = LearnedKey {
                game: record.game.clone(),
                variant: record.variant.clone(),
                seat: lesson.seat,
                player: lesson.player.clone(),
            };
            w.put_learned(&key, &lesson.learned)?;
        }
    }
    if delta.games <= 0 {
        return Ok(());
    }
    if puzzle {
        let player = record
            .config
            .players
            .first()
            .map(String::as_str)
            .unwrap_or("human");
        // The time the game took (the Same Game tutorial's document keeps it), kept with the result.
        let time_ms = record
            .current
            .as_ref()
            .and_then(|c| c.seconds)
            .map(|s| (s * 1000.0).round() as i64);
        match (view.score, view.outcome) {
            (Some(score), _) => {
                w.add_best_timed(
                    &record.game,
                    &record.variant,
                    Metric::Score,
                    score,
                    player,
                    Some(id),
                    time_ms,
                )?;
            }
            (None, Some(Outcome::Win(_))) => {
                w.add_best_timed(
                    &record.game,
                    &record.variant,
                    Metric::Moves,
                    view.log.len() as i64,
                    player,
                    Some(id),
                    time_ms,
                )?;
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tabula_engine::MatchConfig;

    fn setup() -> (tempfile::TempDir, Store, MatchRecord, MatchView) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("t.db")).unwrap();
        let game = build("tictactoe", "").unwrap();
        let config = MatchConfig {
            players: vec!["human".into(), "random".into()],
            seed: 1,
            ..Default::default()
        };
        let mut m = game.new_match(config).unwrap();
        m.play("5").unwrap();
        (dir, store, m.record(), m.view())
    }

    fn tally(wins: Vec<u64>, cat: u64, games: u64) -> Tally {
        Tally { wins, cat, games }
    }

    #[test]
    fn a_finished_game_counts_for_its_players_and_stores_learners() {
        let (_d, store, mut record, view) = setup();
        record.tally = tally(vec![0, 1], 0, 1);
        record.learned = vec![None, Some(json!({"boxes": 7}))];
        store
            .write(|w| write_effects(w, "s", &record, &tally(vec![0, 0], 0, 0), &view, false))
            .unwrap();
        let rows = store.tallies(Some("tictactoe")).unwrap().rows;
        assert_eq!((rows[0].wins.clone(), rows[0].games), (vec![0, 1], 1));
        assert_eq!(
            rows[0].players,
            vec!["human".to_string(), "random".to_string()]
        );
        let key = LearnedKey {
            game: "tictactoe".into(),
            variant: "".into(),
            seat: 1,
            player: "random".into(),
        };
        assert_eq!(store.learned(&key).unwrap(), Some(json!({"boxes": 7})));
        assert!(
            store.best("tictactoe").unwrap().rows.is_empty(),
            "not a puzzle"
        );

        // Undoing the end takes the game back out, and the lesson with it: the
        // boxes stored are the learner's after the undo.
        let before = record.tally.clone();
        record.tally = tally(vec![0, 0], 0, 0);
        record.learned = vec![None, Some(json!({"boxes": 1}))];
        store
            .write(|w| write_effects(w, "s", &record, &before, &view, false))
            .unwrap();
        let rows = store.tallies(Some("tictactoe")).unwrap().rows;
        assert_eq!((rows[0].wins.clone(), rows[0].games), (vec![0, 0], 0));
        assert_eq!(store.learned(&key).unwrap(), Some(json!({"boxes": 1})));
    }

    #[test]
    fn nothing_is_written_while_no_game_ends() {
        let (_d, store, mut record, view) = setup();
        record.learned = vec![None, Some(json!({"boxes": 7}))];
        store
            .write(|w| write_effects(w, "s", &record, &record.tally.clone(), &view, true))
            .unwrap();
        assert!(store.tallies(None).unwrap().rows.is_empty());
        assert!(store.learned_list(None).unwrap().rows.is_empty());
        assert!(store.best("tictactoe").unwrap().rows.is_empty());
    }

    #[test]
    fn puzzles_record_scores_or_moves_when_they_end() {
        let (_d, store, mut record, mut view) = setup();
        record.tally = tally(vec![0, 0], 1, 1);
        // The game took 12.5 s: the time is kept with the result.
        record.current = Some(tabula_engine::CurrentGame {
            started_ms: 1,
            seconds: Some(12.5),
            dealt_variant: None,
            ..Default::default()
        });
        view.score = Some(1234);
        view.outcome = Some(Outcome::Ended);
        store
            .write(|w| write_effects(w, "s1", &record, &tally(vec![0, 0], 0, 0), &view, true))
            .unwrap();
        view.score = None;
        view.outcome = Some(Outcome::Win(0));
        store
            .write(|w| write_effects(w, "s2", &record, &tally(vec![0, 0], 0, 0), &view, true))
            .unwrap();
        // An unsolved puzzle without a score records nothing.
        view.outcome = Some(Outcome::Ended);
        store
            .write(|w| write_effects(w, "s3", &record, &tally(vec![0, 0], 0, 0), &view, true))
            .unwrap();
        let best = store.best("tictactoe").unwrap().rows;
        assert_eq!(best.len(), 2);
        let moves = best.iter().find(|b| b.metric == Metric::Moves).unwrap();
        assert_eq!(
            (moves.value, moves.session.as_deref()),
            (view.log.len() as i64, Some("s2"))
        );
        let score = best.iter().find(|b| b.metric == Metric::Score).unwrap();
        assert_eq!((score.value, score.player.as_str()), (1234, "human"));
        assert_eq!(score.time_ms, Some(12_500));
        assert_eq!(moves.time_ms, Some(12_500));
    }

    #[test]
    fn every_game_is_sent_as_its_view_itself_with_its_cells_kept() {
        // The cells written from kept JSON (`with_kept_cells`) read exactly as
        // the view written directly, for every game, before and after a move,
        // and again once kept.
        for entry in tabula_engine::registry() {
            let game = build(entry.name, "").unwrap();
            // No players named: every seat is a person's.
            let mut m = game.new_match(Default::default()).unwrap();
            for _ in 0..2 {
                for _ in 0..2 {
                    let view = m.view();
                    let shared =
                        serde_json::to_string(&SharedView::of(&view, 16).unwrap()).unwrap();
                    assert_eq!(
                        shared,
                        serde_json::to_string(&view).unwrap(),
                        "{}",
                        entry.name
                    );
                }
                if let Some(first) = m.legal_moves().first() {
                    let _ = m.play_setup(&first.mv);
                }
            }
        }
    }

    #[test]
    fn a_shared_view_is_sent_as_the_view_itself() {
        let (_d, _store, _record, view) = setup();
        let out = SessionOut {
            id: "x".into(),
            view: SharedView::of(&view, 16).unwrap(),
        };
        let text = serde_json::to_string(&view).unwrap();
        assert_eq!(
            serde_json::to_string(&out).unwrap(),
            format!(r#"{{"id":"x","view":{text}}}"#)
        );
        // Flattened into a move's answer, as `routes::MoveOut` does.
        #[derive(Serialize)]
        struct Flat {
            #[serde(flatten)]
            session: SessionOut,
            played: Vec<u32>,
        }
        // The bodies written by hand are the very text serde_json writes.
        assert_eq!(
            &out.body::<()>(None).unwrap()[..],
            serde_json::to_string(&out).unwrap().as_bytes()
        );
        let played = out.body(Some(&vec![5])).unwrap();
        let flat = Flat {
            session: out,
            played: vec![5],
        };
        assert_eq!(
            serde_json::to_value(&flat).unwrap(),
            json!({"id": "x", "view": view, "played": [5]})
        );
        assert_eq!(
            &played[..],
            serde_json::to_string(&flat).unwrap().as_bytes()
        );
    }

    #[test]
    fn only_sessions_where_the_computer_thinks_may_think() {
        let (_d, store, _, _) = setup();
        let sessions = Sessions::new(Arc::new(store));
        let work = WorkContext::under(tabula_core::Budget::default());
        let create = |game, config| sessions.create_with_moves(game, config, &[], &work);
        let game = build("tictactoe", "").unwrap();
        let config = |second: &str| MatchConfig {
            players: vec!["human".into(), second.into()],
            seed: 1,
            ..Default::default()
        };
        let people = create(game.clone(), config("human")).unwrap().id;
        let searcher = create(game.clone(), config("alphabeta")).unwrap().id;
        // A perfect player with its table, or a random one, only looks moves up.
        let perfect = create(game.clone(), config("perfect")).unwrap().id;
        let random = create(game, config("random")).unwrap().id;
        assert!(!sessions.may_think(&people));
        assert!(sessions.may_think(&searcher));
        assert!(!sessions.may_think(&perfect));
        assert!(!sessions.may_think(&random));
        assert!(
            sessions.may_think(&"0".repeat(32)),
            "unknown: the thinking way"
        );
        // A move against the perfect player goes the quick way, reply included.
        sessions
            .change_unless(
                &perfect,
                &work,
                |m| m.computer_thinks(),
                |m, _| {
                    m.play("5")?;
                    Ok(m.advance()?)
                },
            )
            .unwrap()
            .expect("played");
        let log = sessions.read(&perfect, |m| Ok(m.view().log)).unwrap();
        assert_eq!(log.len(), 2, "the move and the reply: {log:?}");
        // A seat given to a searching computer: the flag follows it, and a move
        // checked under the lock is not played the quick way.
        sessions
            .change(&people, &work, |m, _| Ok(m.set_player(1, "alphabeta")?))
            .unwrap();
        assert!(sessions.may_think(&people));
        let skipped = sessions
            .change_unless(
                &people,
                &work,
                |m| m.computer_thinks(),
                |m, _| Ok(m.play("5")?),
            )
            .unwrap();
        assert!(skipped.is_none());
        let log = sessions.read(&people, |m| Ok(m.view().log)).unwrap();
        assert!(log.is_empty(), "nothing was played: {log:?}");
        // Back to people only: played and written.
        sessions
            .change(&people, &work, |m, _| Ok(m.set_player(1, "human")?))
            .unwrap();
        assert!(!sessions.may_think(&people));
        let (_, out) = sessions
            .change_unless(
                &people,
                &work,
                |m| m.computer_thinks(),
                |m, _| Ok(m.play("5")?),
            )
            .unwrap()
            .expect("played");
        assert!(serde_json::to_string(&out).unwrap().contains("\"log\":[{"));
    }

    #[test]
    fn ids_are_32_hex_digits() {
        assert!(valid_id(&tabula_store::random_id()));
        assert!(!valid_id("../../etc/passwd"));
        assert!(!valid_id(&"A".repeat(32)));
        assert_ne!(tabula_store::random_id(), tabula_store::random_id());
    }
}
