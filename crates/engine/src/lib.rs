//! The engine: every registered game behind one object-safe interface.
//!
//! [`registry`] lists the games; [`build`] turns a name and variant text into a
//! [`DynGame`], whose [`DynGame::new_match`] starts a [`Match`] — a game in
//! progress with its players, history, log, undo/redo and score tallies. The CLI
//! and the HTTP server only ever talk to these two traits, so a new game needs no
//! edits there.

pub mod conformance;
mod dyn_game;
mod ending;
mod engine;
mod error;
mod handle;
mod matches;
mod player_choice;
mod players;
mod record;
mod record_check;
mod registry;
mod rules;
mod sent;
mod shown;
pub mod step_agreement;
pub mod stepping;
mod stored;
mod trained;
mod variant_words;
mod view_laws;

pub use dyn_game::{DynGame, GameInfo, LevelPreset};
pub use ending::Ending;
pub use engine::{
    cache_max_memory, cache_usage, set_cache_max_memory, tables_in_use, trim_cache, Engine,
    CACHE_GAMES, DEFAULT_CACHE_BYTES,
};
pub use error::EngineError;
pub use handle::{Handle, Tables};
pub use matches::{learned_as_stored, LogEntry, Match, MatchView, MoveInfo};
pub use player_choice::{PlayerChoice, PlayerRequest};
pub use players::{generic_player_kinds, parse_player_spec, PlayerSpec};
pub use record::{check_undo_depth, MAX_GAME_PLIES, MAX_UNDO_DEPTH};
pub use record::{CurrentGame, MatchConfig, MatchRecord, Tally, Untaught};
pub use record_check::{MAX_MOVE_TEXT, MAX_TALLY_GAMES};
pub use registry::{build, check_playable, entry, find, registry, title_of, GameEntry};
pub use rules::{developer_words, rules_markdown};
pub use shown::view_after;
pub use stepping::{DynPlayer, DynState, GameFacts, StepState, CHANCE_PLAYER, TERMINAL_PLAYER};
pub use tabula_core::PlayEnd;
pub use trained::Trained;
pub use variant_words::variant_words;
