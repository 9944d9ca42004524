//! Long work (solve, simulate, train) as background jobs, with progress as
//! server-sent events. At most [`RUNNING`] jobs run at once; the rest wait.
//!
//! Finished jobs are not kept in memory: their results are written to the store
//! (`tabula_store`, within its disk budget: 256 MiB in all, 1 MiB each, the oldest
//! forgotten first) and read back from there. A job nobody follows is cancelled:
//! when the last event stream following it closes, or when no one has asked
//! about it (by `GET /api/jobs/{id}` or a stream) for [`UNWATCHED`].
//!
//! A cancelled job leaves its slot promptly: a queued one leaves the queue at
//! once; a running one is told through its budget's cancel flag, is answered
//! "cancelled" as soon as its work ends or after [`CANCEL_GRACE`], and its slot
//! goes to the next job then. Work that has not stopped by that time runs on as
//! a straggler, outside the slots, until it does; at most [`RUNNING`] stragglers
//! at once (beyond them the job keeps its slot until its work ends), so a
//! computation that ignores its cancel flag can neither starve the queue nor
//! multiply.

use crate::error::{ApiError, ApiJson};
use crate::thinking::blocking;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::Stream;
use serde_json::{json, Map, Value as Json_};
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tabula_core::{Budget, CancelFlag, Report};
use tabula_engine::{build, DynGame};
use tabula_store::{JobState, LearnedKey};
use tokio::sync::{watch, Semaphore};

/// Jobs running at the same time (the machine has few cores).
pub const RUNNING: usize = 2;
/// How long a cancelled running job's work has to stop before its slot goes to
/// the next job anyway.
pub const CANCEL_GRACE: Duration = Duration::from_secs(2);
/// Jobs queued or running at most; more are refused with 429.
pub const QUEUED: usize = 16;
/// Finished jobs' results are forgotten after this long (at the next start of the
/// server; until then the store's disk budget bounds them).
pub const KEEP_FINISHED: Duration = Duration::from_secs(24 * 3600);
/// A queued or running job that nobody has asked about for this long, and that
/// no event stream follows, is cancelled.
pub const UNWATCHED: Duration = Duration::from_secs(60);
/// Longest plan a solve job may start from (SameGame's longest game on a 100x100
/// board removes at most 5,000 groups).
pub const MAX_PLAN: usize = 5_000;
/// At most this many finished jobs stay in memory (each leaves it as soon as its
/// result is stored; this bounds the moments in between).
pub const KEEP_FINISHED_JOBS: usize = 64;
/// Largest job result kept and sent, in bytes of JSON: larger parts of a report are
/// left out and named in `omitted` (the CLI gives the whole report).
pub const MAX_RESULT: usize = 1 << 20;
/// Most games a simulation or training job may play.
pub const MAX_GAMES: u64 = 10_000_000;

/// Where a job is.
#[derive(Clone, Debug)]
pub enum Status {
    /// Waiting for a free slot.
    Queued,
    /// Running, with the fraction done.
    Running(f64),
    /// Finished with a result.
    Done(Json_),
    /// Failed.
    Failed(String),
}

impl Status {
    fn finished(&self) -> bool {
        matches!(self, Status::Done(_) | Status::Failed(_))
    }
}

/// One job.
pub struct Job {
    kind: String,
    status: watch::Sender<Status>,
    finished_at: Mutex<Option<Instant>>,
    cancel: CancelFlag,
    /// Set when the job is cancelled, for the task that waits for its slot or
    /// its work.
    stopped: watch::Sender<bool>,
    /// Event streams following the job now.
    followers: AtomicUsize,
    /// When someone last asked about the job.
    asked: Mutex<Instant>,
    /// What a running job shows so far besides its fraction (a training job's
    /// learning curve), sent with its progress events.
    live: Mutex<Option<Json_>>,
}

impl Job {
    fn new(kind: String, cancel: CancelFlag, status: Status) -> Self {
        Job {
            kind,
            status: watch::Sender::new(status),
            finished_at: Mutex::new(None),
            cancel,
            stopped: watch::Sender::new(false),
            followers: AtomicUsize::new(0),
            asked: Mutex::new(Instant::now()),
            live: Mutex::new(None),
        }
    }

    fn touch(&self) {
        if let Ok(mut t) = self.asked.lock() {
            *t = Instant::now();
        }
    }

    /// Cancels the job (a queued one is finished at once).
    fn stop(&self, why: &str) {
        self.cancel.cancel();
        self.stopped.send_replace(true);
        if matches!(*self.status.borrow(), Status::Queued) {
            self.finish(Status::Failed(why.into()));
        }
    }

    fn finish(&self, status: Status) {
        if let Ok(mut t) = self.finished_at.lock() {
            *t = Some(Instant::now());
        }
        self.status.send_replace(status);
    }
}

/// Every job of this process.
pub struct Jobs {
    map: Mutex<HashMap<String, Arc<Job>>>,
    slots: Arc<Semaphore>,
    /// Places for cancelled work that has not stopped yet ([`CANCEL_GRACE`]).
    stragglers: Arc<Semaphore>,
}

impl Default for Jobs {
    fn default() -> Self {
        Self::new()
    }
}

impl Jobs {
    /// No jobs yet.
    pub fn new() -> Self {
        Jobs {
            map: Mutex::new(HashMap::new()),
            slots: Arc::new(Semaphore::new(RUNNING)),
            stragglers: Arc::new(Semaphore::new(RUNNING)),
        }
    }

    fn get(&self, id: &str) -> Result<Arc<Job>, ApiError> {
        let job = self
            .map
            .lock()
            .ok()
            .and_then(|m| m.get(id).cloned())
            .ok_or_else(|| ApiError::not_found("no such job"))?;
        job.touch();
        Ok(job)
    }

    fn remove(&self, id: &str) {
        if let Ok(mut m) = self.map.lock() {
            m.remove(id);
        }
    }

    /// Cancels the jobs nobody follows or has asked about for `unwatched`
    /// ([`UNWATCHED`] unless the server was started with another limit).
    pub fn cancel_unwatched(&self, unwatched: Duration) {
        let Ok(m) = self.map.lock() else { return };
        for job in m.values() {
            let idle = job.asked.lock().map(|t| t.elapsed()).unwrap_or_default();
            if !job.status.borrow().finished()
                && job.followers.load(Ordering::SeqCst) == 0
                && idle >= unwatched
            {
                job.stop("cancelled: nobody asked about this job for a while");
            }
        }
    }

    /// Cancels every job not finished: the server is stopping. Their followers
    /// are told, and their work stops through its cancel flag.
    pub fn stop_all(&self) {
        let Ok(m) = self.map.lock() else { return };
        for job in m.values() {
            if !job.status.borrow().finished() {
                job.stop(tabula_store::STOPPED);
            }
        }
    }

    /// Forgets jobs that finished long ago, and the oldest finished ones beyond
    /// [`KEEP_FINISHED_JOBS`].
    pub fn forget_old(&self) {
        if let Ok(mut m) = self.map.lock() {
            let finished_at = |j: &Job| j.finished_at.lock().ok().and_then(|t| *t);
            m.retain(|_, j| finished_at(j).map_or(true, |t| t.elapsed() < KEEP_FINISHED));
            let mut done: Vec<(Instant, String)> = m
                .iter()
                .filter_map(|(id, j)| finished_at(j).map(|t| (t, id.clone())))
                .collect();
            if done.len() > KEEP_FINISHED_JOBS {
                done.sort();
                for (_, id) in &done[..done.len() - KEEP_FINISHED_JOBS] {
                    m.remove(id);
                }
            }
        }
    }
}

/// The work of a job, checked before it is queued.
enum Work {
    Solve {
        request: Report,
        cache_key: Option<String>,
    },
    Simulate {
        players: [String; 2],
        games: u64,
        seed: u64,
    },
    Train {
        options: Json_,
        store_as: Option<LearnedKey>,
        /// A person watches: spread a fast run over a few seconds.
        watch: bool,
    },
}

fn opt_bool(obj: &Map<String, Json_>, name: &str) -> Result<Option<bool>, ApiError> {
    match obj.get(name) {
        None | Some(Json_::Null) => Ok(None),
        Some(Json_::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(ApiError::bad_request(format!(
            "'{name}' must be true or false"
        ))),
    }
}

fn opt_u64(obj: &Map<String, Json_>, name: &str, max: u64) -> Result<Option<u64>, ApiError> {
    match obj.get(name) {
        None | Some(Json_::Null) => Ok(None),
        Some(v) => v.as_u64().filter(|n| *n <= max).map(Some).ok_or_else(|| {
            ApiError::bad_request(format!("'{name}' must be a whole number from 0 to {max}"))
        }),
    }
}

/// The options each kind of job takes (docs/API.md), besides `kind`, `game` and
/// `variant`.
fn options_of(kind: &str) -> &'static [&'static str] {
    match kind {
        "solve" => &["position", "seconds", "seed", "cache", "plan"],
        "simulate" => &["players", "games", "seed"],
        "train" => &[
            "games", "opponent", "seat", "player", "options", "block", "seed", "store", "watch",
        ],
        _ => &[],
    }
}

/// Refuses an option the kind of job does not take (a misspelt one would
/// otherwise be ignored without a word).
fn check_keys(kind: &str, obj: &Map<String, Json_>) -> Result<(), ApiError> {
    let known = options_of(kind);
    let Some(unknown) = obj.keys().find(|k| {
        !["kind", "game", "variant"].contains(&k.as_str()) && !known.contains(&k.as_str())
    }) else {
        return Ok(());
    };
    Err(ApiError::bad_request(format!(
        "a {kind} job has no option '{}': it takes {}",
        unknown.chars().take(40).collect::<String>(),
        known.join(", ")
    )))
}

/// The work a job request asks for, its options checked.
fn plan(kind: &str, game: &dyn DynGame, obj: &Map<String, Json_>) -> Result<Work, ApiError> {
    if !options_of(kind).is_empty() {
        check_keys(kind, obj)?;
    }
    match kind {
        "solve" => plan_solve(game, obj),
        "simulate" => plan_simulate(obj),
        "train" => plan_train(game, obj),
        other => Err(ApiError::bad_request(format!(
            "unknown job kind '{}': expected solve, simulate or train",
            other.chars().take(40).collect::<String>()
        ))),
    }
}

/// A solve: of a position or the start, within seconds, with a seed and a plan to
/// start from; its report kept in the cache unless `cache` is false.
fn plan_solve(game: &dyn DynGame, obj: &Map<String, Json_>) -> Result<Work, ApiError> {
    let info = game.info();
    let position = match obj.get("position") {
        None | Some(Json_::Null) => None,
        Some(Json_::String(p)) if p.len() <= 64 * 1024 => Some(p.clone()),
        Some(_) => {
            return Err(ApiError::bad_request(
                "'position' must be a position text of at most 64 KiB",
            ))
        }
    };
    let seconds = match obj.get("seconds") {
        None | Some(Json_::Null) => None,
        Some(v) => match v.as_f64() {
            Some(s) if s > 0.0 && s <= 3600.0 => Some(s),
            _ => {
                return Err(ApiError::bad_request(
                    "'seconds' must be a number above 0 and at most 3600",
                ))
            }
        },
    };
    let seed = opt_u64(obj, "seed", u64::MAX)?.unwrap_or(1);
    let plan = match obj.get("plan") {
        None | Some(Json_::Null) => Vec::new(),
        Some(Json_::Array(a))
            if a.len() <= MAX_PLAN
                && a.iter().all(|m| m.as_str().is_some_and(|m| m.len() <= 64)) =>
        {
            a.iter().filter_map(|m| m.as_str().map(str::to_string)).collect()
        }
        Some(_) => {
            return Err(ApiError::bad_request(format!(
                "'plan' must be a list of at most {MAX_PLAN} moves, each written as the game writes moves"
            )))
        }
    };
    let use_cache = opt_bool(obj, "cache")?.unwrap_or(true);
    let cache_key = use_cache.then(|| {
        // The results' version keeps a report of an older shape from
        // being served from the cache.
        json!([
            "solve",
            tabula_core::RESULTS_VERSION,
            info.name,
            info.variant,
            position,
            seconds,
            seed,
            plan
        ])
        .to_string()
    });
    Ok(Work::Solve {
        request: Report {
            position,
            seconds,
            seed,
            plan,
            ..Report::default()
        },
        cache_key,
    })
}

/// A simulation: two computer players, a number of games and a seed.
fn plan_simulate(obj: &Map<String, Json_>) -> Result<Work, ApiError> {
    let players: Vec<String> = match obj.get("players") {
        Some(Json_::String(s)) => s.split(',').map(|p| p.trim().to_string()).collect(),
        Some(Json_::Array(a)) => a
            .iter()
            .map(|p| p.as_str().unwrap_or("").trim().to_string())
            .collect(),
        _ => Vec::new(),
    };
    if players.len() != 2 || players.iter().any(|p| p.is_empty() || p.len() > 256) {
        return Err(ApiError::bad_request(
            "'players' must name exactly two computer players, e.g. [\"random\", \"perfect\"]",
        ));
    }
    let games = opt_u64(obj, "games", MAX_GAMES)?.unwrap_or(1000);
    if games == 0 {
        return Err(ApiError::bad_request(format!(
            "'games' must be from 1 to {MAX_GAMES}"
        )));
    }
    let seed = opt_u64(obj, "seed", u64::MAX)?.unwrap_or(1);
    Ok(Work::Simulate {
        players: [players[0].clone(), players[1].clone()],
        games,
        seed,
    })
}

/// Training a learning machine, kept for a seat of the game when `store` asks.
fn plan_train(game: &dyn DynGame, obj: &Map<String, Json_>) -> Result<Work, ApiError> {
    let info = game.info();
    if opt_u64(obj, "games", MAX_GAMES)? == Some(0) {
        return Err(ApiError::bad_request(format!(
            "'games' must be from 1 to {MAX_GAMES}"
        )));
    }
    let mut options = obj.clone();
    for k in ["kind", "game", "variant", "store", "watch"] {
        options.remove(k);
    }
    // Checked as the trainer reads them (seat, block, seed, opponent, the
    // machine's options), so a bad one is refused now, not when the job runs.
    let options = Json_::Object(options);
    game.check_train(&options)?;
    let watch = opt_bool(obj, "watch")?.unwrap_or(false);
    let store_as = if opt_bool(obj, "store")?.unwrap_or(false) {
        let seat = match obj.get("seat") {
            Some(Json_::String(name)) => info
                .seats
                .iter()
                .position(|s| s.eq_ignore_ascii_case(name.trim())),
            Some(v) => v
                .as_u64()
                .map(|n| n as usize)
                .filter(|&n| n < info.seats.len()),
            None => None,
        }
        .ok_or_else(|| {
            ApiError::bad_request(
                "storing the trained machine needs its 'seat' (a number or seat name)",
            )
        })?;
        let player = obj
            .get("player")
            .and_then(Json_::as_str)
            .unwrap_or("matchbox")
            .trim()
            .to_ascii_lowercase();
        let opts = obj
            .get("options")
            .and_then(Json_::as_str)
            .unwrap_or("")
            .trim();
        let player = if opts.is_empty() {
            player
        } else {
            format!("{player}:{opts}")
        };
        Some(LearnedKey {
            game: info.name.clone(),
            variant: info.variant.clone(),
            seat,
            player,
        })
    } else {
        None
    };
    Ok(Work::Train {
        watch,
        options,
        store_as,
    })
}

/// `POST /api/jobs`.
pub async fn create(
    State(st): State<Arc<AppState>>,
    ApiJson(body): ApiJson<Json_>,
) -> Result<Response, ApiError> {
    let Json_::Object(obj) = body else {
        return Err(ApiError::bad_request(
            "the body must be a JSON object with 'kind' and 'game'",
        ));
    };
    let kind = obj
        .get("kind")
        .and_then(Json_::as_str)
        .unwrap_or("")
        .to_string();
    let game_name = obj
        .get("game")
        .and_then(Json_::as_str)
        .ok_or_else(|| ApiError::bad_request("missing 'game'"))?
        .to_string();
    let variant = match obj.get("variant") {
        None | Some(Json_::Null) => String::new(),
        Some(Json_::String(v)) if v.len() <= 1000 => v.clone(),
        Some(_) => return Err(ApiError::bad_request("'variant' must be a variant text")),
    };
    let (game, mut work) = {
        let kind = kind.clone();
        blocking(move |_| {
            let game = build(&game_name, &variant)?;
            let work = plan(&kind, game.as_ref(), &obj)?;
            Ok((game, work))
        })
        .await?
    };
    let cancel = CancelFlag::new();
    if let Work::Solve { request, .. } = &mut work {
        // The server's memory limit (`--max-memory`) and this job's cancel flag.
        request.budget = Budget::default().with_cancel(cancel.clone());
    }
    let id = tabula_store::random_id();
    let job = Arc::new(Job::new(kind, cancel, Status::Queued));
    {
        let mut map = st
            .jobs
            .map
            .lock()
            .map_err(|_| ApiError::internal("job table poisoned"))?;
        let busy = map
            .values()
            .filter(|j| !j.status.borrow().finished())
            .count();
        if busy >= QUEUED {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many jobs are running: try again later",
            ));
        }
        map.insert(id.clone(), job.clone());
    }
    {
        let (st2, id2, kind) = (st.clone(), id.clone(), job.kind.clone());
        if let Err(e) = blocking(move |_| Ok(st2.store().job_started(&id2, &kind)?)).await {
            st.jobs.remove(&id);
            return Err(e);
        }
    }
    let answer = json!({ "job_id": id });
    tokio::spawn(async move {
        let status = run_in_slot(&st, &job, game, work).await;
        // The result goes to the store, not to memory: followers get it once
        // through the channel, later readers from the store.
        let stored = {
            let (st, id, kind) = (st.clone(), id.clone(), job.kind.clone());
            let state = match &status {
                Status::Done(r) => JobState::Done(r.clone()),
                Status::Failed(e) => JobState::Failed(e.clone()),
                _ => JobState::Running,
            };
            blocking(move |_| Ok(st.store().job_finished(&id, &kind, &state)?)).await
        };
        let status = match stored {
            Ok(()) => status,
            Err(e) => Status::Failed(e.message),
        };
        job.finish(status);
        st.jobs.remove(&id);
    });
    Ok((StatusCode::ACCEPTED, Json(answer)).into_response())
}

/// Resolves when the job is cancelled.
async fn until_stopped(stopped: &mut watch::Receiver<bool>) {
    // The guard the channel hands out is not kept across awaits.
    let _ = stopped.wait_for(|s| *s).await.map(|_| ());
}

/// Waits for a slot (or the job's cancellation, which leaves the queue at once),
/// runs the work in it and answers how the job ended. A cancelled running job
/// ends when its work does, or after [`CANCEL_GRACE`] (see the module's notes).
async fn run_in_slot(
    st: &Arc<AppState>,
    job: &Arc<Job>,
    game: Arc<dyn DynGame>,
    work: Work,
) -> Status {
    let cancelled = || Status::Failed("cancelled".into());
    let mut stopped = job.stopped.subscribe();
    let permit = tokio::select! {
        permit = st.jobs.slots.clone().acquire_owned() => match permit {
            Ok(permit) => permit,
            Err(_) => return Status::Failed("the server is stopping".into()),
        },
        () = until_stopped(&mut stopped) => return cancelled(),
    };
    if job.cancel.is_cancelled() || job.status.borrow().finished() {
        return cancelled();
    }
    job.status.send_replace(Status::Running(0.0));
    let (worker, st2) = (job.clone(), st.clone());
    // Simulations and training stop early too when the job is cancelled.
    // The result is cut to size on the worker too: a whole large solution
    // (Poggle 10000x10000) takes seconds to walk, which would stall the
    // runtime thread that answers every other request.
    let mut task = tokio::spawn(blocking(move |_| {
        Budget::default()
            .with_cancel(worker.cancel.clone())
            .run(|| run(&st2, game.as_ref(), work, &worker))
            .map(|mut result| {
                crate::limits::bound_json(&mut result, MAX_RESULT);
                result
            })
    }));
    let ended = tokio::select! {
        ended = &mut task => Some(ended),
        () = until_stopped(&mut stopped) => {
            tokio::time::timeout(CANCEL_GRACE, &mut task).await.ok()
        }
    };
    match ended {
        _ if job.cancel.is_cancelled() => {
            if ended.is_none() {
                // The work has not stopped: a straggler, outside the slots, if a
                // place is free; else it keeps this slot until it ends.
                match st.jobs.stragglers.clone().try_acquire_owned() {
                    Ok(place) => {
                        tokio::spawn(async move {
                            let _ = task.await;
                            drop(place);
                        });
                        drop(permit);
                    }
                    Err(_) => {
                        tokio::spawn(async move {
                            let _ = task.await;
                            drop(permit);
                        });
                    }
                }
            }
            cancelled()
        }
        Some(Ok(Ok(result))) => Status::Done(result),
        Some(Ok(Err(e))) => Status::Failed(e.message),
        Some(Err(_)) | None => Status::Failed("the job failed (a bug: please report it)".into()),
    }
}

fn run(st: &AppState, game: &dyn DynGame, work: Work, job: &Job) -> Result<Json_, ApiError> {
    // Progress reports are coalesced to steps of 1/1000 so watchers are not flooded.
    let progress = |f: f64| {
        let f = (f.clamp(0.0, 1.0) * 1000.0).floor() / 1000.0;
        job.status.send_if_modified(|s| match s {
            Status::Running(old) if *old != f => {
                *old = f;
                true
            }
            _ => false,
        });
    };
    match work {
        Work::Solve { request, cache_key } => {
            if let Some(key) = &cache_key {
                if let Some(bytes) = st.store().cache_get(key)? {
                    if let Ok(v) = serde_json::from_slice::<Json_>(&bytes) {
                        return Ok(json!({"cached": true, "report": v}));
                    }
                }
            }
            let info = game.info();
            let report = crate::thinking::versioned(
                &info.name,
                &info.variant,
                &game.solve(&request, &progress)?,
            );
            if let Some(key) = &cache_key {
                st.store()
                    .cache_put(key, &serde_json::to_vec(&report).unwrap_or_default())?;
            }
            Ok(json!({"cached": false, "report": report}))
        }
        Work::Simulate {
            players,
            games,
            seed,
        } => {
            let done = AtomicU64::new(0);
            let step = (games / 1000).max(1);
            let tick = || {
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if n % step == 0 {
                    progress(n as f64 / games as f64);
                }
            };
            let report = game.simulate([&players[0], &players[1]], games, seed, &tick)?;
            Ok(json!({"report": report}))
        }
        Work::Train {
            mut options,
            store_as,
            watch,
        } => {
            if let (Some(key), Some(obj)) = (&store_as, options.as_object_mut()) {
                if !obj.contains_key("learned") {
                    if let Some(saved) = st.store().learned(key)? {
                        obj.insert("learned".into(), saved);
                    }
                }
            }
            // The curve so far goes out with the progress events. With `watch`, a fast
            // run is spread over a few seconds (each block at least 150 ms, the whole
            // wait at most 4 s) so a person sees it grow; cancelling skips the wait.
            let started = Instant::now();
            let curve = |blocks: &Json_, of: u64| {
                if let Ok(mut live) = job.live.lock() {
                    *live = Some(json!({ "curve": blocks }));
                }
                job.status.send_modify(|_| {});
                if watch && !job.cancel.is_cancelled() {
                    let done = blocks.as_array().map_or(0, Vec::len) as u64;
                    let gap = (4000 / of.max(1)).min(150);
                    let due = Duration::from_millis(gap * done);
                    if let Some(wait) = due.checked_sub(started.elapsed()) {
                        std::thread::sleep(wait);
                    }
                }
            };
            let trained = game.train_streamed(&options, &progress, &curve)?;
            if let Some(key) = &store_as {
                if !trained.learned.is_null() {
                    st.store().put_learned(key, &trained.learned)?;
                }
            }
            let info = game.info();
            let report = crate::thinking::versioned(&info.name, &info.variant, &trained.training);
            Ok(json!({"report": report, "stored": store_as}))
        }
    }
}

fn status_json(id: &str, job: &Job) -> Json_ {
    let mut out = json!({"job_id": id, "kind": job.kind});
    match &*job.status.borrow() {
        Status::Queued => {
            out["state"] = json!("queued");
            out["fraction"] = json!(0.0);
        }
        Status::Running(f) => {
            out["state"] = json!("running");
            out["fraction"] = json!(f);
            if let (Some(Json_::Object(live)), Some(o)) = (
                job.live.lock().ok().and_then(|l| l.clone()),
                out.as_object_mut(),
            ) {
                o.extend(live);
            }
        }
        Status::Done(r) => {
            out["state"] = json!("done");
            out["fraction"] = json!(1.0);
            out["result"] = r.clone();
        }
        Status::Failed(e) => {
            out["state"] = json!("error");
            out["error"] = json!(e);
        }
    }
    out
}

/// The status of a finished job read back from the store.
fn stored_json(id: &str, row: &tabula_store::JobRow) -> Json_ {
    let mut out = json!({"job_id": id, "kind": row.kind});
    match &row.state {
        JobState::Done(r) => {
            out["state"] = json!("done");
            out["fraction"] = json!(1.0);
            out["result"] = r.clone();
        }
        JobState::Failed(e) => {
            out["state"] = json!("error");
            out["error"] = json!(e);
        }
        JobState::Running => {
            out["state"] = json!("error");
            out["error"] = json!(tabula_store::STOPPED);
        }
    }
    out
}

/// A job id as the server makes them (32 hex digits), else 404.
fn check_id(id: &str) -> Result<(), ApiError> {
    if crate::valid_id(id) {
        Ok(())
    } else {
        Err(ApiError::not_found("no such job"))
    }
}

/// A finished job from the store, or 404.
async fn stored(st: &Arc<AppState>, id: &str) -> Result<tabula_store::JobRow, ApiError> {
    check_id(id)?;
    let (st, id2) = (st.clone(), id.to_string());
    blocking(move |_| Ok(st.store().job(&id2)?))
        .await?
        .ok_or_else(|| ApiError::not_found("no such job"))
}

/// `DELETE /api/jobs/{job_id}`: cancels a queued or running job (a solve, a
/// simulation or a training stops within moments) and answers its status; a
/// finished job's stored result is forgotten (204).
pub async fn cancel(
    State(st): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let Ok(job) = st.jobs.get(&id) else {
        // Finished: forget its stored result.
        check_id(&id)?;
        let st = st.clone();
        let found = blocking(move |_| Ok(st.store().delete_job(&id)?)).await?;
        return if found {
            Ok(StatusCode::NO_CONTENT.into_response())
        } else {
            Err(ApiError::not_found("no such job"))
        };
    };
    job.stop("cancelled");
    Ok((StatusCode::ACCEPTED, Json(status_json(&id, &job))).into_response())
}

/// `GET /api/jobs/{job_id}`: where a job is, without streaming.
pub async fn status(
    State(st): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Json_>, ApiError> {
    match st.jobs.get(&id) {
        Ok(job) => Ok(Json(status_json(&id, &job))),
        Err(_) => Ok(Json(stored_json(&id, &stored(&st, &id).await?))),
    }
}

/// An event stream following a job; the last one to close cancels it.
struct Following(Arc<Job>);

impl Following {
    fn new(job: Arc<Job>) -> Self {
        job.followers.fetch_add(1, Ordering::SeqCst);
        Following(job)
    }
}

impl std::ops::Deref for Following {
    type Target = Job;
    fn deref(&self) -> &Job {
        &self.0
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        let job = &self.0;
        job.touch();
        if job.followers.fetch_sub(1, Ordering::SeqCst) == 1 && !job.status.borrow().finished() {
            job.stop("cancelled: the last client following this job went away");
        }
    }
}

/// `GET /api/jobs/{job_id}/events`: `progress` events, then one `done` or `error`.
pub async fn events(
    State(st): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let job = match st.jobs.get(&id) {
        Ok(job) => job,
        Err(_) => {
            // Finished: one event from the store.
            let row = stored(&st, &id).await?;
            let status = match row.state {
                JobState::Done(r) => Status::Done(r),
                JobState::Failed(e) => Status::Failed(e),
                JobState::Running => Status::Failed(tabula_store::STOPPED.into()),
            };
            Arc::new(Job::new(row.kind, CancelFlag::new(), status))
        }
    };
    let rx = job.status.subscribe();
    // The job itself rides along (a running job's `live` part goes with its
    // progress), as a follower: when the last stream following it closes (its
    // client went away), the job is cancelled.
    let job = Following::new(job);
    let stream = futures_util::stream::unfold((rx, 0u8, job), |(mut rx, phase, job)| async move {
        match phase {
            2 => return None,
            1 => {
                // At most ten progress events a second.
                tokio::time::sleep(Duration::from_millis(100)).await;
                if rx.changed().await.is_err() && !rx.borrow().finished() {
                    let lost = Event::default()
                        .event("error")
                        .data(json!({"error": "the job was lost"}).to_string());
                    return Some((Ok(lost), (rx, 2, job)));
                }
            }
            _ => {}
        }
        let status = rx.borrow_and_update().clone();
        let (event, next) = match status {
            Status::Queued => (
                Event::default()
                    .event("progress")
                    .data(json!({"fraction": 0.0}).to_string()),
                1,
            ),
            Status::Running(f) => {
                let mut data = json!({ "fraction": f });
                if let (Some(Json_::Object(live)), Some(d)) = (
                    job.live.lock().ok().and_then(|l| l.clone()),
                    data.as_object_mut(),
                ) {
                    d.extend(live);
                }
                (Event::default().event("progress").data(data.to_string()), 1)
            }
            Status::Done(r) => (
                Event::default()
                    .event("done")
                    .data(json!({"result": r}).to_string()),
                2,
            ),
            Status::Failed(e) => (
                Event::default()
                    .event("error")
                    .data(json!({"error": e}).to_string()),
                2,
            ),
        };
        Some((Ok(event), (rx, next, job)))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
