//! Accepting and serving connections within bounds.
//!
//! * At most [`ConnectionLimits::max`] connections are served at once (each one
//!   holds a socket, a task and hyper's buffers, about 30 KiB when idle).
//! * A connection must deliver a whole request head within
//!   [`ConnectionLimits::header_timeout`] of being ready for one: this closes
//!   connections that never send anything, keep-alive connections left idle
//!   between requests, and headers sent a byte at a time. A request being
//!   answered (the computer thinking, an event stream) is not timed by it.
//! * Its body must then arrive within [`ConnectionLimits::body_timeout`] and at a
//!   least rate (`request_body.rs`), or it is answered 408 and closed.
//! * When every place is taken, a newcomer takes at once the place of a
//!   connection that has no request under way (none yet, or between keep-alive
//!   requests) and has been served at least 30 ms: one of the
//!   peer holding the most connections, its oldest first (`served.rs`). Connections that keep a head half-sent, however often they
//!   reconnect, thus only ever replace one another.
//! * When every place holds a request under way, a newcomer waits up to
//!   [`ConnectionLimits::wait`]; meanwhile the request bodies furthest behind a
//!   stricter pace are cut, the slowest first (answered 408), and a connection
//!   that finishes its request makes way. Still no place: the connection is
//!   answered 503 and closed. At most [`MAX_WAITING`] connections wait; more are
//!   answered 503 at once.
//!
//! hyper's own answers (400, 414, 431) carry the API's JSON error body through
//! [`OwnAnswers`].

// Unsafe code, each block with its SAFETY comment: the process's open-file limit, read with getrlimit.
#![allow(unsafe_code)]

mod served;

use crate::own_answers::{Answered, OwnAnswers};
use crate::request_body::PacedBody;
use axum::extract::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use served::{Registry, Served};
use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};

/// Default cap on connections served at once (lowered to fit the process's
/// limit of open files).
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;

/// Default time a connection has to send a whole request head.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Default time a request body has to arrive whole, from when its head arrived.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// Default time a connection beyond the cap waits for a place.
pub const DEFAULT_CONNECTION_WAIT: Duration = Duration::from_secs(2);

/// Connections beyond the cap that may wait at once.
pub const MAX_WAITING: usize = 64;

/// How often a connection waiting for a place looks again for one to take
/// (a request that finished, a body that fell behind).
const LOOK_AGAIN: Duration = Duration::from_millis(20);

/// Files kept free for the database, its journal and the runtime when the cap is
/// fitted to the limit of open files.
const FILES_KEPT: usize = 128;

/// The connection limits of a server (part of [`crate::ServeOptions`]).
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// Connections served at once.
    pub max: usize,
    /// Time to send a whole request head (also the idle time of a keep-alive
    /// connection between requests).
    pub header_timeout: Duration,
    /// Time to send a whole request body once its head has arrived (it must
    /// also keep a least rate, `request_body.rs`).
    pub body_timeout: Duration,
    /// Time a connection beyond the cap waits for a place before 503.
    pub wait: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            max: DEFAULT_MAX_CONNECTIONS,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            wait: DEFAULT_CONNECTION_WAIT,
        }
    }
}

/// The whole answer to a connection refused for the cap (hyper is not involved:
/// the connection is never served).
fn busy_answer() -> Vec<u8> {
    let body = serde_json::json!({
        "error": "the server has too many connections open: try again in a moment"
    })
    .to_string();
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The cap that fits the process's limit of open files.
fn fitted_cap(max: usize) -> usize {
    match open_files_limit() {
        Some(files) => max.min(files.saturating_sub(FILES_KEPT).max(16)),
        None => max,
    }
    .max(1)
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn open_files_limit() -> Option<usize> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur as usize)
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn open_files_limit() -> Option<usize> {
    None
}

/// The state the accept loop shares with its connections.
struct Shared {
    app: Router,
    limits: ConnectionLimits,
    /// Places for served connections.
    places: Arc<Semaphore>,
    /// Places for connections waiting beyond the cap.
    waiting: Arc<Semaphore>,
    /// The connections served, and which make way for newcomers.
    served: Registry,
    /// True once the server is stopping: every connection finishes the request
    /// under way and closes.
    stop: watch::Sender<bool>,
    busy: Vec<u8>,
}

/// How long a stopping server waits for its connections to finish the requests
/// under way (the rest are dropped: nothing they would still have done is
/// acknowledged).
pub const STOP_GRACE: Duration = Duration::from_secs(3);

/// Accepts and serves connections until `shutdown` completes; then asks every
/// connection to finish the request under way and close, and waits for them at
/// most [`STOP_GRACE`].
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let max = fitted_cap(limits.max);
    let shared = Arc::new(Shared {
        app,
        limits,
        places: Arc::new(Semaphore::new(max)),
        waiting: Arc::new(Semaphore::new(MAX_WAITING)),
        served: Registry::new(Instant::now()),
        stop: watch::Sender::new(false),
        busy: busy_answer(),
    });
    tokio::select! {
        () = accept_loop(&shared, listener) => {}
        () = shutdown => {}
    }
    // No new connections (the listener is closed); those open finish and close.
    shared.stop.send_replace(true);
    let all_closed = shared.places.acquire_many(max as u32);
    let _ = tokio::time::timeout(STOP_GRACE, all_closed).await;
}

/// Accepts connections for ever (stopped by being dropped).
async fn accept_loop(shared: &Arc<Shared>, listener: TcpListener) {
    let mut told = false;
    loop {
        let (tcp, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of files or memory for a moment (or a client gone before it
                // was accepted): wait a little rather than spin.
                if !told && !is_connection_error(&e) {
                    eprintln!("tabula: cannot accept connections for a moment: {e}");
                    told = true;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let place = match shared.places.clone().try_acquire_owned() {
            Ok(place) => Some(place),
            // Every place is taken: one without a request under way makes way.
            Err(_) => shared.served.take_a_place(),
        };
        if let Some(place) = place {
            let served = shared.served.add(peer.ip(), place);
            tokio::spawn(serve_connection(shared.clone(), tcp, served));
        } else if let Ok(waiter) = shared.waiting.clone().try_acquire_owned() {
            tokio::spawn(wait_for_place(shared.clone(), tcp, peer, waiter));
        } else {
            // Refused at once: no task, nothing that waits.
            let _ = tcp.try_write(&shared.busy);
        }
    }
}

fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// A connection beyond the cap: served if a place frees within the wait,
/// otherwise answered 503. While it waits, the slowest request bodies are cut
/// and connections that finish their request make way.
async fn wait_for_place(
    shared: Arc<Shared>,
    mut tcp: TcpStream,
    peer: SocketAddr,
    waiter: OwnedSemaphorePermit,
) {
    let until = tokio::time::Instant::now() + shared.limits.wait;
    // One place asked for all along: places that free go to waiters in turn.
    let mut freed = pin!(shared.places.clone().acquire_owned());
    let place = loop {
        if let Some(place) = shared.served.take_a_place() {
            break Some(place);
        }
        shared.served.cut_the_slowest_body();
        let look_again = (tokio::time::Instant::now() + LOOK_AGAIN).min(until);
        tokio::select! {
            place = freed.as_mut() => break place.ok(),
            () = tokio::time::sleep_until(look_again) => {
                if look_again >= until {
                    break None;
                }
            }
        }
    };
    drop(waiter);
    match place {
        Some(place) => {
            let served = shared.served.add(peer.ip(), place);
            serve_connection(shared, tcp, served).await
        }
        None => {
            // Read what the client sent until it closes too: closing with its
            // request unread would reset the connection and lose the answer.
            let _ = tokio::time::timeout(Duration::from_secs(1), async {
                tcp.write_all(&shared.busy).await?;
                tcp.shutdown().await?;
                let mut sink = [0u8; 4096];
                while tcp.read(&mut sink).await? > 0 {}
                io::Result::Ok(())
            })
            .await;
        }
    }
}

/// Serves one connection with hyper's HTTP/1 server until it closes, or until
/// it makes way for a newcomer while no request is under way.
async fn serve_connection(shared: Arc<Shared>, tcp: TcpStream, served: Arc<Served>) {
    /// Forgets the connection however its task ends.
    struct Leaving<'a>(&'a Shared, &'a Served);
    impl Drop for Leaving<'_> {
        fn drop(&mut self) {
            self.0.served.remove(self.1);
        }
    }
    let _leaving = Leaving(&shared, &served);
    let io = Watched {
        inner: OwnAnswers::new(tcp, served.exchange.clone()),
        last_read: served.last_read.clone(),
        epoch: shared.served.epoch(),
    };
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(shared.limits.header_timeout)
        .keep_alive(true);
    let service = {
        let (app, timeout) = (shared.app.clone(), shared.limits.body_timeout);
        let (exchange, body) = (served.exchange.clone(), served.body.clone());
        hyper::service::service_fn(move |req: Request<Incoming>| {
            use tower::ServiceExt;
            exchange.hand_over();
            let req = req.map(|b| axum::body::Body::new(PacedBody::new(b, timeout, body.clone())));
            let answer = app.clone().oneshot(req);
            let exchange = exchange.clone();
            async move {
                let answer = answer.await?;
                Ok::<_, Infallible>(answer.map(|b| Answered::new(b, exchange)))
            }
        })
    };
    let mut conn = pin!(builder.serve_connection(TokioIo::new(io), service));
    let mut stop = shared.stop.subscribe();
    let mut asked_to_close = false;
    loop {
        tokio::select! {
            _ = conn.as_mut() => break,
            _ = stop.wait_for(|stopping| *stopping), if !asked_to_close => {
                conn.as_mut().graceful_shutdown();
                asked_to_close = true;
            }
            () = served.make_way.notified(), if !asked_to_close => {
                // No request was under way when its place was taken: closed at
                // once. One whose head completed meanwhile is answered first.
                if !served.exchange.under_way() {
                    break;
                }
                conn.as_mut().graceful_shutdown();
                asked_to_close = true;
            }
        }
    }
}

/// [`Watched`]'s time of the last bytes received, before any were.
const NEVER: u64 = u64::MAX;

/// A connection that notes when it last received bytes (milliseconds since
/// the server started).
struct Watched<T> {
    inner: T,
    last_read: Arc<AtomicU64>,
    epoch: Instant,
}

impl<T: AsyncRead + Unpin> AsyncRead for Watched<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            let now = self.epoch.elapsed().as_millis() as u64;
            self.last_read.store(now, Ordering::Relaxed);
        }
        polled
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watched<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
