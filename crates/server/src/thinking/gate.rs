//! Whether a request that changes a session may still write its change.
//!
//! A request whose computer is still thinking at its deadline is answered "out of
//! time: nothing was changed" while its blocking work goes on (it stops at the next
//! check of its budget). That work must then not write; and a request whose change
//! is being written must not be answered "nothing was changed". The handler and
//! the worker settle it on one atomic: whoever moves it first wins. The worker
//! reaches its gate through its [`super::WorkContext`].

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

/// The work goes on; nobody has decided yet.
const WORKING: u8 = 0;
/// The worker writes (or wrote) its change: the handler waits for its answer.
const WRITING: u8 = 1;
/// The handler answered without the work: the worker must not write.
const ABANDONED: u8 = 2;

/// One request's gate, shared by its handler and the thread that does its work.
#[derive(Clone, Default)]
pub(crate) struct CommitGate(Arc<AtomicU8>);

impl CommitGate {
    /// A new gate: the work goes on.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// The worker's side: true when it may write its change (the handler has not
    /// answered without it); from then on the handler waits for the work.
    pub(crate) fn claim(&self) -> bool {
        match self
            .0
            .compare_exchange(WORKING, WRITING, Ordering::SeqCst, Ordering::SeqCst)
        {
            Ok(_) => true,
            Err(state) => state == WRITING,
        }
    }

    /// The handler's side: true when it may answer without the work (nothing will
    /// be written after this); false when the work is writing its change, whose
    /// answer the handler must then wait for.
    pub(crate) fn abandon(&self) -> bool {
        match self
            .0
            .compare_exchange(WORKING, ABANDONED, Ordering::SeqCst, Ordering::SeqCst)
        {
            Ok(_) => true,
            Err(state) => state == ABANDONED,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_side_to_decide_wins() {
        let gate = CommitGate::new();
        assert!(gate.claim(), "a worker that is first may write");
        assert!(!gate.abandon(), "then the handler waits for it");
        assert!(gate.claim(), "and the claim stands");

        let gate = CommitGate::new();
        assert!(gate.abandon(), "a handler that is first answers alone");
        assert!(!gate.claim(), "then the worker must not write");
        assert!(gate.abandon());
    }
}
