//! The engine's integration tests, one binary (one link of every game) with a
//! module per subject. Run one subject with a filter on its module:
//! `cargo test -p tabula-engine --test engine stepping::`.
//!
//! The tests share one process, its cache of built games and its memory
//! ledger. The few that change what is process-wide (the memory limit, the
//! cache's bound), need it empty, or leave tables being built behind them run
//! each in a process of its own (`rusty_fork_test!`), as they did in binaries
//! of their own before.

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

/// How long a test in a process of its own may run before it fails: far more
/// than any takes, so that a hang ends the run instead of holding it up.
const OWN_PROCESS_TIMEOUT_MS: u64 = 10 * 60 * 1000;
