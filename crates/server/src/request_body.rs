//! A request body must arrive in time.
//!
//! hyper times a request's head ([`crate::ConnectionLimits::header_timeout`]) but
//! not its body: a client that declared 100 bytes and sent 5 held its connection,
//! and a place among the served ones, for as long as it liked. Every request body
//! is therefore read through a [`PacedBody`]. Its deadlines tighten under
//! pressure only:
//!
//! * the whole body must arrive within [`crate::ConnectionLimits::body_timeout`]
//!   of its head (so a request takes at most the head's time plus the body's);
//! * after [`BODY_GRACE`] it must keep up at least [`MIN_BODY_RATE`] bytes a
//!   second on average since the head, so a body trickled a byte at a time is
//!   cut off, not read until the deadline. The grace is long enough for a few
//!   resends of a lost packet (TCP waits 1 s, then 2 s more), so a small body
//!   that arrives late while nobody waits for its place is still read;
//! * while connections wait for a place, the connection loop cuts the bodies
//!   that are furthest behind a stricter pace ([`BodyWatch::behind`]: a grace of
//!   [`PRESSED_GRACE`] and no silence longer than [`PRESSED_SILENCE`]), the
//!   slowest first ([`BodyWatch::cut`]), so slow bodies cannot keep ordinary
//!   clients out.
//!
//! A body cut off ends in a [`BodyCut`] error, which the body rules
//! (`limits.rs`) answer with 408 and a closed connection.

use axum::body::Bytes;
use futures_util::task::AtomicWaker;
use http_body::{Body, Frame, SizeHint};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::{Instant, Sleep};

/// The least average rate of a body once [`BODY_GRACE`] has passed, in bytes a
/// second (a body of the API is at most 64 KiB: a minute at this rate, but the
/// deadline comes first).
pub const MIN_BODY_RATE: u64 = 1024;

/// How long a body may take before its rate counts while nobody waits for a
/// place: a client sends a small JSON body with its head or moments after it,
/// but a lost packet is resent only after 1 s, and again 2 s later.
pub const BODY_GRACE: Duration = Duration::from_secs(5);

/// The grace of [`BODY_GRACE`] while connections wait for a place: a body
/// further behind the least rate than this allows is cut to make way.
pub const PRESSED_GRACE: Duration = Duration::from_secs(1);

/// While connections wait for a place, a body that has sent nothing for this
/// long is cut to make way, whatever its average rate.
pub const PRESSED_SILENCE: Duration = Duration::from_millis(500);

/// Why a request body was cut off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BodyCut {
    /// The whole body did not arrive within the deadline.
    #[error("the request body did not arrive within {} s", .0.as_secs_f64())]
    Deadline(Duration),
    /// It arrived more slowly than the least rate.
    #[error(
        "the request body arrived too slowly (under {} bytes a second)",
        MIN_BODY_RATE
    )]
    TooSlow,
    /// It was the slowest while other clients waited for a connection.
    #[error("the request body arrived too slowly while other clients were waiting")]
    Shed,
}

impl BodyCut {
    /// The cut this error is or carries, if any (axum wraps a body's error).
    pub fn find(error: &(dyn std::error::Error + 'static)) -> Option<BodyCut> {
        let mut at = Some(error);
        while let Some(e) = at {
            if let Some(cut) = e.downcast_ref::<BodyCut>() {
                return Some(*cut);
            }
            at = e.source();
        }
        None
    }
}

/// What a connection and the body of its request being read share: whether a
/// body is being waited for, how far it has come, and the connection loop's
/// order to cut it.
pub struct BodyWatch {
    reading: AtomicBool,
    cut: AtomicBool,
    waker: AtomicWaker,
    /// The clock of [`BodyWatch::behind`] (the server's start).
    epoch: std::time::Instant,
    /// When the head of the body being read arrived (milliseconds since `epoch`).
    head_at: AtomicU64,
    /// Bytes of it received so far.
    received: AtomicU64,
}

impl BodyWatch {
    /// A watch whose times count from `epoch`.
    pub fn new(epoch: std::time::Instant) -> Self {
        BodyWatch {
            reading: AtomicBool::new(false),
            cut: AtomicBool::new(false),
            waker: AtomicWaker::new(),
            epoch,
            head_at: AtomicU64::new(0),
            received: AtomicU64::new(0),
        }
    }

    /// True while a request body of this connection has not all arrived.
    pub fn reading(&self) -> bool {
        self.reading.load(Ordering::Relaxed)
    }

    /// Cuts off the body being read, if any: it ends in [`BodyCut::Shed`].
    pub fn cut(&self) {
        if self.reading() {
            self.cut.store(true, Ordering::Relaxed);
            self.waker.wake();
        }
    }

    /// How far (in milliseconds) the body being read is behind the pace asked
    /// for while connections wait for a place, at `now` (milliseconds since the
    /// epoch) when its connection last received bytes at `last_read`; `None`
    /// when no body is being read, or it is already being cut.
    pub fn behind(&self, now: u64, last_read: u64) -> Option<i64> {
        if !self.reading() || self.cut.load(Ordering::Relaxed) {
            return None;
        }
        Some(pressed_lateness(
            self.head_at.load(Ordering::Relaxed),
            self.received.load(Ordering::Relaxed),
            last_read,
            now,
        ))
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }
}

/// How late (milliseconds, negative while in time) a body whose head arrived at
/// `head_at` and of which `received` bytes arrived, the last at `last_read`, is
/// at `now` by the pressed pace: [`PRESSED_GRACE`] then [`MIN_BODY_RATE`] on
/// average, and never silent for more than [`PRESSED_SILENCE`].
pub fn pressed_lateness(head_at: u64, received: u64, last_read: u64, now: u64) -> i64 {
    let owed = head_at + PRESSED_GRACE.as_millis() as u64 + received * 1000 / MIN_BODY_RATE;
    let silent = last_read.max(head_at) + PRESSED_SILENCE.as_millis() as u64;
    now as i64 - owed.min(silent) as i64
}

/// A request body held to a deadline and a least rate (see the module's docs).
pub struct PacedBody<B> {
    inner: B,
    /// When the head arrived.
    since: Instant,
    deadline: Instant,
    timeout: Duration,
    received: u64,
    /// Wakes the body at the next moment it could be too late.
    timer: Pin<Box<Sleep>>,
    watch: Arc<BodyWatch>,
    ended: bool,
}

impl<B: Body> PacedBody<B> {
    /// Paces `inner`, a body whose head arrived just now.
    pub fn new(inner: B, timeout: Duration, watch: Arc<BodyWatch>) -> Self {
        let since = Instant::now();
        let ended = inner.is_end_stream();
        watch.cut.store(false, Ordering::Relaxed);
        watch.received.store(0, Ordering::Relaxed);
        watch.head_at.store(watch.now(), Ordering::Relaxed);
        watch.reading.store(!ended, Ordering::Relaxed);
        PacedBody {
            inner,
            since,
            deadline: since + timeout,
            timeout,
            received: 0,
            timer: Box::pin(tokio::time::sleep_until(since + BODY_GRACE.min(timeout))),
            watch,
            ended,
        }
    }

    /// The moment the body is late unless more arrives: the deadline, or when the
    /// least rate asks for more than has arrived.
    fn next_check(&self) -> Instant {
        let owed = Duration::from_secs_f64(self.received as f64 / MIN_BODY_RATE as f64);
        (self.since + BODY_GRACE + owed).min(self.deadline)
    }

    fn end(&mut self) {
        self.ended = true;
        self.watch.reading.store(false, Ordering::Relaxed);
    }

    fn fail(&mut self, cut: BodyCut) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        self.end();
        Poll::Ready(Some(Err(Box::new(cut))))
    }
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

impl<B> Body for PacedBody<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        if this.ended {
            return Poll::Ready(None);
        }
        this.watch.waker.register(cx.waker());
        if this.watch.cut.swap(false, Ordering::Relaxed) {
            return this.fail(BodyCut::Shed);
        }
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                    this.watch.received.store(this.received, Ordering::Relaxed);
                }
                if this.inner.is_end_stream() {
                    this.end();
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(e))) => {
                this.end();
                Poll::Ready(Some(Err(e.into())))
            }
            Poll::Ready(None) => {
                this.end();
                Poll::Ready(None)
            }
            Poll::Pending => {
                let check = this.next_check();
                if this.timer.deadline() != check {
                    this.timer.as_mut().reset(check);
                }
                if this.timer.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                if Instant::now() >= this.deadline {
                    this.fail(BodyCut::Deadline(this.timeout))
                } else {
                    this.fail(BodyCut::TooSlow)
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.ended || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl<B> Drop for PacedBody<B> {
    fn drop(&mut self) {
        // A body left unread (a route that takes none) is not waited for.
        self.watch.reading.store(false, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;
    use http_body_util::StreamBody;

    type Chunks = StreamBody<
        futures_util::stream::BoxStream<'static, Result<Frame<Bytes>, std::convert::Infallible>>,
    >;

    /// A body that sends `chunks` of `size` bytes, `every` apart, then ends.
    fn trickle(chunks: usize, size: usize, every: Duration) -> Chunks {
        use futures_util::StreamExt;
        let stream = futures_util::stream::iter(0..chunks)
            .then(move |i| async move {
                if i > 0 {
                    tokio::time::sleep(every).await;
                }
                Ok(Frame::data(Bytes::from(vec![b'x'; size])))
            })
            .boxed();
        StreamBody::new(stream)
    }

    async fn read(body: Chunks, timeout: Duration) -> Result<usize, Option<BodyCut>> {
        let watch = Arc::new(BodyWatch::new(std::time::Instant::now()));
        let paced = PacedBody::new(body, timeout, watch);
        match paced.collect().await {
            Ok(all) => Ok(all.to_bytes().len()),
            Err(e) => Err(BodyCut::find(e.as_ref())),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_that_keeps_pace_is_read_whole() {
        // 3 KiB over two seconds: above the least rate once the grace is over.
        let got = read(
            trickle(6, 512, Duration::from_millis(400)),
            Duration::from_secs(10),
        )
        .await;
        assert_eq!(got, Ok(3072));
    }

    #[tokio::test(start_paused = true)]
    async fn a_trickled_body_is_cut_off_soon_after_the_grace() {
        let started = Instant::now();
        let got = read(
            trickle(100, 1, Duration::from_millis(200)),
            Duration::from_secs(10),
        )
        .await;
        assert_eq!(got, Err(Some(BodyCut::TooSlow)));
        let took = started.elapsed();
        assert!(took >= BODY_GRACE && took < BODY_GRACE * 2, "{took:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_has_a_deadline_however_fast_it_comes() {
        // 4 KiB a second for 20 s: never too slow, but longer than the deadline.
        let started = Instant::now();
        let got = read(
            trickle(400, 200, Duration::from_millis(50)),
            Duration::from_secs(3),
        )
        .await;
        assert_eq!(got, Err(Some(BodyCut::Deadline(Duration::from_secs(3)))));
        let took = started.elapsed();
        assert!(
            took >= Duration::from_secs(3) && took < Duration::from_millis(3100),
            "{took:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_cut_ends_a_stalled_body_at_once() {
        let watch = Arc::new(BodyWatch::new(std::time::Instant::now()));
        // One byte, then nothing for a minute.
        let body = trickle(2, 1, Duration::from_secs(60));
        let paced = PacedBody::new(body, Duration::from_secs(120), watch.clone());
        let reader = tokio::spawn(paced.collect());
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(watch.reading());
        watch.cut();
        let err = reader.await.unwrap().expect_err("cut off");
        assert_eq!(BodyCut::find(err.as_ref()), Some(BodyCut::Shed));
        assert!(!watch.reading());
    }

    #[test]
    fn under_pressure_the_slowest_body_is_furthest_behind() {
        // Heads at 0 ms, looked at 2 s later.
        let now = 2_000;
        // 5 bytes at once, then nothing: behind since it fell silent (500 ms).
        let stalled = pressed_lateness(0, 5, 0, now);
        assert_eq!(stalled, 1_500);
        // A byte every 250 ms: never silent for long, but far below the rate
        // once the pressed grace has passed.
        let trickled = pressed_lateness(0, 8, 1_900, now);
        assert!(trickled > 0 && trickled < stalled, "{trickled}");
        // 4 KiB in two seconds, the last bytes just now: in time.
        let keeping_pace = pressed_lateness(0, 4096, 1_990, now);
        assert!(keeping_pace < 0, "{keeping_pace}");
        // A fresh head is given its grace, bytes or not.
        assert!(pressed_lateness(1_900, 0, 0, now) < 0);
    }
}
