//! The engine's integration tests, one binary (one link of every game) with a
//! module per subject. Run one subject with a filter on its module:
//! `cargo test -p tabula-engine --test engine stepping::`.
//!
//! The tests share one process. A test that needs an empty cache of built
//! games, a memory ledger of its own or limits of its own makes an engine of
//! its own ([`own_engine`]). The few that need what only a process has to
//! itself (a game's own tables kept for the process, like Kono's, not built
//! yet; the process's default limit) or leave tables being built behind them
//! run each in a process of its own (`rusty_fork_test!`).

mod actual_play;
mod all_pairs;
mod budget;
mod cache;
mod dealing;
mod every_game;
mod exact_claims;
mod fuzz;
mod ledger;
mod levels;
mod matches;
mod northcott_setup;
mod player_options;
mod saved_records;
mod setup_undo;
mod stepping;
mod stops;
mod summaries;
mod thinking;
mod unattended;
mod variants;

/// An engine of its own over a ledger of its own whose limit is `limit` bytes:
/// its cache starts empty and it counts only its own tables (the ledger is
/// leaked: a few bytes a test).
fn own_engine(limit: u64) -> tabula_engine::Engine {
    let ledger: &'static tabula_core::Ledger = Box::leak(Box::default());
    ledger.set_limit(Some(limit));
    tabula_engine::Engine::new(ledger)
}

/// How long a test in a process of its own may run before it fails: far more
/// than any takes, so that a hang ends the run instead of holding it up.
const OWN_PROCESS_TIMEOUT_MS: u64 = 10 * 60 * 1000;
