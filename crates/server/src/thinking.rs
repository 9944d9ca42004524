//! How the server runs engine and store work off the async runtime, and what
//! that work is told: its budget, its thinking slot and its commit gate, held by
//! one [`WorkContext`] passed down to it (never reached through the thread).
//!
//! The server's modules are layered one way: `routes` (and the other handlers)
//! call `sessions` and `jobs`, which call this module; nothing here names a
//! module above it, so `sessions` and `jobs` never call back up into `routes`.

mod gate;

pub(crate) use gate::CommitGate;

use crate::error::ApiError;
use axum::http::StatusCode;
use serde::Serialize;
use serde_json::Value as Json_;
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula_core::{Budget, CancelFlag};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

type ApiResult<T> = Result<T, ApiError>;

/// How long a request that does not make the computer think may wait for
/// something it needs but does not build itself (a solution table another
/// request is building, when a session read back from the database has a
/// perfect player): past it the request is answered 503 with `Retry-After`,
/// never left waiting for the build.
pub const ORDINARY_WAIT: Duration = Duration::from_secs(5);

/// How long after its deadline a request that is still thinking is answered with
/// "the computer ran out of time" (a player that does not stop by itself).
pub const DEADLINE_MARGIN: Duration = Duration::from_secs(2);

/// How long a request whose change is being written when its deadline passes
/// waits for the write beyond that deadline (the store's busy timeout and
/// room to spare): past it the client is told to look again in a moment.
pub const WRITE_WAIT: Duration = Duration::from_secs(8);

/// Most requests waiting for a free thinker at once.
pub const MAX_WAITING: usize = 64;

/// What one piece of blocking work is given besides its closure: the budget it
/// runs under, the thinking slot it holds while the computer thinks, and the
/// gate that settles whether its change may still be written. Made on the
/// blocking thread and lent to the work, so it never crosses threads.
pub(crate) struct WorkContext {
    /// The work's budget. The engine's players read it as the thread's current
    /// budget (`Budget::run`, the engine's own seam); the server reads it here.
    budget: Budget,
    /// Decides between a change written at the deadline and the handler's "out
    /// of time" answer; `None` when nobody answers before the work ends.
    gate: Option<CommitGate>,
    /// The thinking slot ([`thinking`]), given back by [`WorkContext::done_thinking`]
    /// or, at the latest, when the work ends (the context is dropped, even when
    /// the work panics).
    slot: Cell<Option<OwnedSemaphorePermit>>,
}

impl WorkContext {
    /// The context of work that nobody answers for before it ends: `budget`,
    /// no gate and no thinking slot.
    pub(crate) fn under(budget: Budget) -> Self {
        WorkContext {
            budget,
            gate: None,
            slot: Cell::new(None),
        }
    }

    /// Gives back the thinking slot, if the work holds one: the computer has
    /// finished thinking and what is left (writing the change, answering) does
    /// not count against the slots, so the next request's thinking overlaps
    /// this one's writing.
    pub(crate) fn done_thinking(&self) {
        drop(self.slot.take());
    }

    /// True when the work's budget was cancelled (its request was answered
    /// "out of time", or its client went away).
    pub(crate) fn cancelled(&self) -> bool {
        self.budget.is_cancelled()
    }

    /// True when the work may write its change: it was not cancelled, and its
    /// handler has not answered without it (from then on the handler waits for
    /// the write).
    pub(crate) fn may_write(&self) -> bool {
        !self.cancelled() && self.gate.as_ref().map_or(true, CommitGate::claim)
    }

    /// `Err` (out of time) when the work's budget says stop: for loops of many
    /// hints.
    pub(crate) fn check_time(&self) -> ApiResult<()> {
        if self.budget.should_stop() {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the computer ran out of time for this request: try again, or ask for less",
            ));
        }
        Ok(())
    }

    /// Runs `f` with the work's budget as the thread's current one, which the
    /// engine's players read.
    fn run<T>(&self, f: impl FnOnce(&WorkContext) -> T) -> T {
        self.budget.run(|| f(self))
    }
}

/// The answer of blocking work that did not end by itself.
fn joined<T>(r: Result<ApiResult<T>, tokio::task::JoinError>) -> ApiResult<T> {
    match r {
        Ok(r) => r,
        Err(e) if e.is_panic() => Err(ApiError::internal(
            "the engine failed on this request (a bug: please report it)",
        )),
        Err(_) => Err(ApiError::internal("the request was cancelled")),
    }
}

/// Runs engine or store work on a blocking thread; heavy work gives its freed
/// memory back to the system when it ends (see `memory.rs`). The work runs
/// under a budget ending after [`ORDINARY_WAIT`]: whatever it waits for (a
/// solution table being built for a session read back from the database) it
/// waits for no longer; work with a budget of its own (a job) runs under that
/// one instead.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce(&WorkContext) -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    let work = move || {
        let context = WorkContext::under(Budget::default().with_timeout(ORDINARY_WAIT));
        let started = Instant::now();
        let result = context.run(f);
        if started.elapsed() >= crate::memory::HEAVY {
            crate::memory::give_back();
        }
        result
    };
    joined(tokio::task::spawn_blocking(work).await)
}

/// Sets a cancel flag when dropped while armed: the future of a request is dropped
/// when its client goes away, and the computation it started stops.
struct CancelOnDrop(Option<CancelFlag>);

impl CancelOnDrop {
    fn new(flag: CancelFlag) -> Self {
        CancelOnDrop(Some(flag))
    }
    /// The request finished: nothing to cancel.
    fn disarm(&mut self) {
        self.0 = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(flag) = self.0.take() {
            flag.cancel();
        }
    }
}

/// The answer to a request whose change was still being written long after
/// its deadline: it may or may not be kept, and the client looks again.
fn still_writing() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "the change is taking long to save: look at the game again in a moment to see \
         whether it was kept",
    )
}

/// The message of a request whose computer ran out of time.
fn out_of_time(deadline: Duration) -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "the computer ran out of time (it may think for {} s here): nothing was changed; \
             try again, or choose a quicker computer player",
            deadline.as_secs_f64()
        ),
    )
}

/// The bounded pool of requests that make the computer think, with its
/// deadline (`crate::ServeOptions`).
pub(crate) struct ThinkingPool {
    /// One permit per request thinking now.
    permits: Arc<Semaphore>,
    /// Requests waiting for a permit now.
    waiting: AtomicUsize,
    /// How long a request waits for a permit before 503.
    queue_wait: Duration,
    /// Deadline of the computer's thinking inside one request.
    deadline: Duration,
}

impl ThinkingPool {
    /// A pool of `thinkers` permits (at least one).
    pub(crate) fn new(thinkers: usize, queue_wait: Duration, deadline: Duration) -> Self {
        ThinkingPool {
            permits: Arc::new(Semaphore::new(thinkers.max(1))),
            waiting: AtomicUsize::new(0),
            queue_wait,
            deadline,
        }
    }

    /// A permit, at once or after a short queue (bounded in length and in
    /// time); `None` when the computer is too busy.
    async fn permit(&self) -> Option<OwnedSemaphorePermit> {
        if let Ok(p) = self.permits.clone().try_acquire_owned() {
            return Some(p);
        }
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= MAX_WAITING {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        let got = tokio::time::timeout(self.queue_wait, self.permits.clone().acquire_owned()).await;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        got.ok().and_then(Result::ok)
    }
}

/// Work that makes the computer think (computer moves, hints), run on a bounded
/// pool with the server's deadline ([`ThinkingPool`]):
/// - at most `thinkers` such requests run at once; more wait in a short queue
///   (at most [`MAX_WAITING`] requests, each at most `queue_wait`), then get
///   503 "busy"; ordinary requests never wait behind them;
/// - the work runs with a [`tabula_core::Budget`] ending at the deadline, which
///   the searching players honour (they play the best move found so far); the
///   deadline counts from the request's arrival, so time spent waiting for a
///   slot comes out of it (the computer keeps at least a tenth of it) and a
///   request is answered within the deadline and its margin, queue included;
/// - a request still thinking at the deadline plus [`DEADLINE_MARGIN`] is
///   answered 503 "ran out of time", its budget cancelled, and nothing it did is
///   kept (the session is rebuilt from its last stored state);
/// - a client that goes away cancels the budget too.
///
/// The slot is given back when the work says its thinking is over
/// ([`WorkContext::done_thinking`], before its change is written), at the
/// latest when the work ends.
pub(crate) async fn thinking<T: Send + 'static>(
    pool: &ThinkingPool,
    f: impl FnOnce(&WorkContext) -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    let arrived = Instant::now();
    let Some(permit) = pool.permit().await else {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the computer is busy thinking for other games: try again in a moment",
        ));
    };
    let deadline = pool.deadline;
    // What is left of the deadline after the wait for a slot, at least a tenth.
    let think_for = deadline
        .saturating_sub(arrived.elapsed())
        .max(deadline / 10);
    let budget = Budget::default().with_timeout(think_for);
    let mut guard = CancelOnDrop::new(budget.cancel_flag());
    // Settles a change finished at the deadline: either it is written and
    // answered, or it is neither (`Sessions::change`).
    let gate = CommitGate::new();
    let context_parts = (budget.clone(), gate.clone());
    let mut task = tokio::task::spawn_blocking(move || {
        let (budget, gate) = context_parts;
        let context = WorkContext {
            budget,
            gate: Some(gate),
            slot: Cell::new(Some(permit)),
        };
        let started = Instant::now();
        let out = context.run(f);
        // The slot is free before the memory is given back.
        drop(context);
        // A search's tables are freed now: their pages go back to the system
        // rather than stay in this thread's arena (see `memory.rs`).
        if started.elapsed() >= crate::memory::HEAVY {
            crate::memory::give_back();
        }
        out
    });
    let out = match tokio::time::timeout(think_for + DEADLINE_MARGIN, &mut task).await {
        Ok(r) => joined(r),
        Err(_) if gate.abandon() => {
            budget.cancel();
            Err(out_of_time(deadline))
        }
        // The change is being written: its answer is the truth (a write waits at
        // most the store's busy timeout), waited for a little longer.
        Err(_) => match tokio::time::timeout(WRITE_WAIT, task).await {
            Ok(r) => joined(r),
            Err(_) => Err(still_writing()),
        },
    };
    guard.disarm();
    out
}

/// A result of thinking (a hint, a solve's or a training's report) in the
/// documented results shape: with the shape's version, the game and the variant.
pub(crate) fn versioned<T: Serialize>(game: &str, variant: &str, result: &T) -> Json_ {
    // These results hold no maps with other keys than strings: they always serialise.
    serde_json::to_value(tabula_core::Versioned::new(game, variant, result)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_under_a_gate_writes_only_while_its_handler_waits() {
        let gate = CommitGate::new();
        let context = WorkContext {
            budget: Budget::default(),
            gate: Some(gate.clone()),
            slot: Cell::new(None),
        };
        assert!(gate.abandon(), "the handler answered first");
        assert!(!context.may_write());

        let context = WorkContext::under(Budget::default());
        assert!(
            context.may_write(),
            "no gate: nobody answers before the work ends"
        );
        context.budget.cancel();
        assert!(context.cancelled() && !context.may_write());
        assert!(context.check_time().is_err());
    }

    #[tokio::test]
    async fn the_slot_is_free_once_the_thinking_is_done() {
        let pool = ThinkingPool::new(1, Duration::ZERO, Duration::from_secs(10));
        let permit = pool.permit().await.expect("a free slot");
        let context = WorkContext::under(Budget::default());
        context.slot.set(Some(permit));
        assert!(pool.permit().await.is_none(), "the only slot is held");
        context.done_thinking();
        assert!(
            pool.permit().await.is_some(),
            "given back before the work ends"
        );
    }
}
