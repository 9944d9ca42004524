use tabula_core::{MoveError, ParseError, VariantError};
use thiserror::Error;

/// Everything that can go wrong when a user asks the engine for something.
/// Every variant is the user's doing or a limit of the game, never a bug, so
/// front ends show the message as it is (HTTP: a 4xx).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineError {
    /// No game of that name is registered.
    #[error("unknown game '{0}' (try `tabula games`)")]
    UnknownGame(String),
    /// The variant options are wrong.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// A position could not be read.
    #[error("bad position: {0}")]
    Position(ParseError),
    /// A move could not be played.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A player name or its options are wrong.
    #[error("bad player '{spec}': {reason}")]
    Player {
        /// The player as written.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// A computer player's exact solution is being prepared (built, or tried
    /// again after a passing failure): nothing is wrong with the request, which
    /// may be made again in `retry_after` seconds (HTTP: 503 with `Retry-After`).
    #[error("{words}")]
    Preparing {
        /// What is happening, for a player (with the build's progress if known).
        words: String,
        /// Whole seconds after which asking again is worth it (at least 1).
        retry_after: u64,
    },
    /// The game cannot do what was asked (a perfect player for a dice game, …).
    #[error("{0}")]
    Unsupported(String),
    /// A saved record could not be replayed.
    #[error("cannot replay the saved game: {0}")]
    Replay(String),
    /// The request is out of range or malformed in some other way.
    #[error("{0}")]
    Invalid(String),
}
