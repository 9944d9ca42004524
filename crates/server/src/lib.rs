//! `tabula serve`: the JSON API of docs/API.md and the embedded web UI.
//!
//! Matches live in memory behind one mutex each and are written to the SQLite
//! store (crate `tabula-store`) before every answer, so an acknowledged move
//! survives a crash. Engine work (computer moves, hints, solving) runs on
//! blocking threads so the async runtime keeps answering.

mod compression;
mod connections;
mod error;
mod game_assets;
mod guard;
mod jobs;
mod limits;
mod memory;
mod own_answers;
mod request_body;
mod routes;
mod sessions;
mod settings;
mod thinking;
mod web;

pub use connections::{ConnectionLimits, DEFAULT_MAX_CONNECTIONS};
pub use error::ApiError;
pub use request_body::{BODY_GRACE, MIN_BODY_RATE};
pub use sessions::{valid_id, Sessions};
/// The settings body parser, for the fuzz target that feeds it anything.
pub use settings::parse as parse_settings;
pub use thinking::{DEADLINE_MARGIN, MAX_WAITING, ORDINARY_WAIT, WRITE_WAIT};

use axum::extract::DefaultBodyLimit;
use axum::Router;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tabula_store::Store;

/// Largest request body accepted (413 beyond).
pub const BODY_LIMIT: usize = 64 * 1024;

/// How long an unused session stays in memory (it stays in the store for ever).
pub const IDLE_EVICTION: Duration = Duration::from_secs(15 * 60);

/// The default deadline of a computer move, hint or other thinking inside a
/// request (`tabula serve --move-deadline SECONDS`).
pub const DEFAULT_MOVE_DEADLINE: Duration = Duration::from_secs(10);

/// Limits of a server beyond those fixed in the code.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Deadline of the computer's thinking inside one request.
    pub move_deadline: Duration,
    /// Requests that may make the computer think at the same time (computer
    /// moves, hints); more wait for a free one up to `queue_wait`, then get 503
    /// "busy". Default: twice the number of cores. A slot is held from the
    /// hand-over to a blocking thread until the computer has chosen (not while
    /// the change is written), and most replies are a quick look-up in a solved
    /// table, so one slot a core leaves cores idle between hand-overs; searches
    /// stop at their own deadline and reserve their tables in the ledger.
    pub thinkers: usize,
    /// How long a request waits for a free thinker before 503 (default 5 s; at
    /// most [`MAX_WAITING`] requests wait at once, more get 503 at once).
    pub queue_wait: Duration,
    /// A job no event stream follows and nobody asked about for this long is
    /// cancelled (default [`jobs::UNWATCHED`], a minute).
    pub unwatched: Duration,
    /// Connections served at once, and how long they may stay without sending a
    /// request (see `connections.rs`).
    pub connections: ConnectionLimits,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            move_deadline: DEFAULT_MOVE_DEADLINE,
            thinkers: 2 * std::thread::available_parallelism().map_or(2, |n| n.get()),
            queue_wait: Duration::from_secs(5),
            unwatched: jobs::UNWATCHED,
            connections: ConnectionLimits::default(),
        }
    }
}

/// Everything the handlers share.
pub struct AppState {
    /// Live sessions over the store.
    pub sessions: Sessions,
    /// Background jobs (solve, simulate, train).
    pub jobs: jobs::Jobs,
    /// Refuse requests whose Host is not a loopback name (DNS rebinding).
    pub loopback_only: bool,
    /// The server's limits.
    pub options: ServeOptions,
    /// The bounded pool of requests that make the computer think.
    pub(crate) thinkers: thinking::ThinkingPool,
    /// The body of `GET /api/games`, made at its first request: what each game
    /// offers is fixed for the process (its exact solution is claimed from size
    /// facts and the memory limit, both known at start), so later requests
    /// touch neither the engine's game cache nor a blocking thread.
    pub games_list: std::sync::OnceLock<axum::body::Bytes>,
}

impl AppState {
    /// The state over an opened store, with the default limits.
    pub fn new(store: Arc<Store>, loopback_only: bool) -> Arc<Self> {
        Self::with_options(store, loopback_only, ServeOptions::default())
    }

    /// The state over an opened store.
    pub fn with_options(
        store: Arc<Store>,
        loopback_only: bool,
        options: ServeOptions,
    ) -> Arc<Self> {
        Arc::new(AppState {
            sessions: Sessions::new(store),
            jobs: jobs::Jobs::new(),
            loopback_only,
            thinkers: thinking::ThinkingPool::new(
                options.thinkers,
                options.queue_wait,
                options.move_deadline,
            ),
            games_list: std::sync::OnceLock::new(),
            options,
        })
    }

    /// The store.
    pub fn store(&self) -> &Arc<Store> {
        self.sessions.store()
    }
}

/// How often the server looks whether the database's log is due to be merged.
pub const MERGE_TICK: Duration = Duration::from_millis(250);

/// Live sessions untouched for this long are forgotten when the server starts
/// (saved games are kept), counted in the store's own time: a wall clock set
/// ahead cannot make them old (see `tabula_store::WallClock`).
pub const SESSION_RETENTION_SECONDS: i64 = tabula_store::IDLE_SESSION_SECONDS;

/// The whole application: API, static files, error shaping, guards.
pub fn app(state: Arc<AppState>) -> Router {
    routes::api()
        .merge(game_assets::routes())
        .merge(web::routes())
        .fallback(|| async { ApiError::not_found("no such path") })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn(limits::body_rules))
        .layer(axum::middleware::from_fn(error::json_errors))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::check_origin,
        ))
        .with_state(state)
}

/// Serves on an already bound listener until the future `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    store: Arc<Store>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with(listener, store, ServeOptions::default(), shutdown).await
}

/// [`serve`] with limits other than the defaults.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    store: Arc<Store>,
    options: ServeOptions,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let loopback = listener.local_addr()?.ip().is_loopback();
    // The store names games in its words (a damaged row) by their titles.
    store.set_game_titles(tabula_engine::title_of);
    // A write-ahead log damaged while no server ran was kept aside when the
    // store opened: said here, and listed by `GET /api/damaged`.
    if let Some((log, unlisted)) = store.damaged_log() {
        eprintln!("tabula: warning: {}", log.message());
        if let Some(why) = unlisted {
            eprintln!("tabula: warning: it could not be listed in the database: {why}");
        }
    }
    // Abandoned games (a tab closed months ago) would otherwise pile up
    // forever. They are aged by the store's own time, which a clock set wrong
    // cannot move: such a jump is said, and forgets nothing.
    if let Some(jump) = store.clock_jump() {
        eprintln!("tabula: warning: {}", jump.words());
    }
    match store.write(|w| w.prune_sessions(SESSION_RETENTION_SECONDS)) {
        Ok(0) => {}
        Ok(n) => eprintln!("tabula: forgot {n} session(s) idle for over 90 days"),
        Err(e) => eprintln!("tabula: could not prune old sessions: {e}"),
    }
    // Jobs that were running when the server last stopped cannot finish: they are
    // marked failed ("the server stopped before this job finished").
    match store.settle_jobs(jobs::KEEP_FINISHED.as_secs() as i64) {
        Ok(0) => {}
        Ok(n) => eprintln!("tabula: {n} job(s) were stopped with the last server"),
        Err(e) => eprintln!("tabula: could not settle old jobs: {e}"),
    }
    let connection_limits = options.connections;
    let state = AppState::with_options(store, loopback, options);
    let evictor = {
        let state = state.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(60));
            loop {
                tick.tick().await;
                state.sessions.evict_idle(IDLE_EVICTION);
                state.jobs.forget_old();
            }
        })
    };
    // Acknowledged changes reach the database file itself within seconds:
    // the write-ahead log is merged once writes pause, and at least every
    // few seconds while they go on (`Store::merge_log_if_due`).
    let merger = {
        let store = state.store().clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(MERGE_TICK);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            let mut last_error = None;
            loop {
                tick.tick().await;
                let store = store.clone();
                let merged = tokio::task::spawn_blocking(move || store.merge_log_if_due()).await;
                if let Ok(Err(e)) = merged {
                    // Said once per kind of failure, not four times a second.
                    let words = e.to_string();
                    if last_error.as_ref() != Some(&words) {
                        eprintln!("tabula: could not merge the database's log: {words}");
                        last_error = Some(words);
                    }
                }
            }
        })
    };
    let watchdog = {
        let state = state.clone();
        tokio::spawn(async move {
            let every = (state.options.unwatched / 2)
                .clamp(Duration::from_millis(100), Duration::from_secs(5));
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                state.jobs.cancel_unwatched(state.options.unwatched);
            }
        })
    };
    // Stopping: jobs are cancelled (their event streams end), then the requests
    // under way are given a moment to finish. Every acknowledged change is
    // already committed; what is cut off was not acknowledged.
    let stopping = {
        let state = state.clone();
        async move {
            shutdown.await;
            state.jobs.stop_all();
        }
    };
    connections::serve(listener, app(state), connection_limits, stopping).await;
    evictor.abort();
    merger.abort();
    watchdog.abort();
    Ok(())
}

/// How long a stopping server waits for work still running on other threads
/// (cancelled, so it ends within moments) before it closes the database.
pub const STOP_WAIT: Duration = Duration::from_secs(3);

/// Completes on Ctrl-C (SIGINT) or SIGTERM (how systemd and Docker stop a
/// service): both stop the server the same way.
async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            return tokio::select! {
                _ = tokio::signal::ctrl_c() => "interrupted",
                _ = term.recv() => "asked to stop",
            };
        }
    }
    let _ = tokio::signal::ctrl_c().await;
    "interrupted"
}

/// `tabula serve [--addr ADDR] [--db PATH] [--move-deadline S]`: opens the store
/// (default path when `db` is `None`), binds and serves until Ctrl-C or SIGTERM,
/// then stops cleanly: requests under way finish (for at most
/// [`connections::STOP_GRACE`]), jobs are cancelled, and the database is closed.
pub fn run(addr: &str, db: Option<PathBuf>, options: ServeOptions) -> anyhow::Result<()> {
    use anyhow::Context;
    let addr: SocketAddr = addr
        .parse()
        .with_context(|| format!("bad address '{addr}': expected e.g. 127.0.0.1:8080"))?;
    // Listen first: a busy port is refused before any database file is created.
    let std_listener =
        std::net::TcpListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
    std_listener.set_nonblocking(true)?;
    let store = match &db {
        // One server per database: a second one is refused (the store locks the
        // database file itself).
        Some(p) => Store::open_exclusive(p),
        None => Store::open_default_exclusive(),
    }
    .context("cannot open the database")?;
    let store = Arc::new(store);
    let kept = store.clone();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(std_listener)
            .with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        eprintln!("tabula: database {}", store.path().display());
        eprintln!("tabula: serving http://{local}/");
        if !local.ip().is_loopback() {
            eprintln!("tabula: warning: listening beyond this machine ({local}); there is no authentication");
        }
        let signal = async {
            let why = stop_signal().await;
            eprintln!("tabula: {why}: finishing the requests under way, then stopping");
        };
        serve_with(listener, store, options, signal)
            .await
            .context("the server failed")
    })?;
    // Blocking workers (long solves) must not keep the process alive.
    runtime.shutdown_timeout(Duration::from_secs(1));
    // Work cancelled on other threads may still hold the database for a moment;
    // once it lets go, closing the database merges its write-ahead log into it.
    let waited = std::time::Instant::now();
    while Arc::strong_count(&kept) > 1 && waited.elapsed() < STOP_WAIT {
        std::thread::sleep(Duration::from_millis(10));
    }
    if Arc::strong_count(&kept) > 1 {
        eprintln!(
            "tabula: some work had not stopped in time; the database is consistent \
             and its journal is merged at the next start"
        );
    }
    drop(kept);
    eprintln!("tabula: stopped");
    Ok(())
}
