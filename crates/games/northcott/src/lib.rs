//! Northcott's game, as the "xpat" program of the Northcott slides plays it.
//!
//! An `NX x NY` board (default 16x4); each row holds one O (the left player, seat 0)
//! and one X (the right player, seat 1), starting on the left and right edges. A move
//! slides one of your own pieces along its row, toward or away from the enemy piece,
//! any number of cells, never jumping it nor leaving the board; whoever cannot move
//! loses. The game is Nim on the gaps between the pieces.
//!
//! * [`Northcott`]: the rules, registered as `northcott` (`size=16x4`, `first=o|x`).
//! * [`player`]: the slides' computer reply (`nim`, else `lose`), custom player `nim`.
//! * [`analysis`]: the oracle (nim-sum value; remoteness exact on small boards) and the
//!   analysis (gaps, nim-sum, every winning move).

mod actions;
pub mod analysis;
mod game;
pub mod player;
mod render;

pub use analysis::{NorthcottAnalysis, NorthcottOracle};
pub use game::{
    Northcott, NorthcottMove, NorthcottState, Side, MAX_COLS, MAX_ROWS, SMALL_POSITIONS,
};
pub use player::{xpat_reply, ReplyKind, XpatPlayer};
