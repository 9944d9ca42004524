//! Nim and nimbers (the 2006 blog's "The Scoring System I-III").
//!
//! * [`Nim`]: the game, any number of heaps, normal or misère play, registered as `nim`.
//! * [`Nimber`]: nim-addition (exclusive or) and Conway's nim-multiplication (a field).
//! * [`analysis`]: who wins, every winning move, the exact oracle with remoteness.
//! * [`cgt`]: the blog's scoring-system calculator, `1* + 2* + 3* = 0`.

mod actions;
pub mod analysis;
pub mod cgt;
mod game;
mod nimber;
mod player;

pub use analysis::{NimAnalysis, NimOracle, WinningMove};
pub use game::{Nim, NimMove, NimState, Play, MAX_HEAP, MAX_HEAPS};
pub use nimber::Nimber;
pub use player::NimPlayer;
