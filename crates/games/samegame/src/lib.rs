//! SameGame: click a group of two or more same-coloured blocks to remove it; the
//! blocks above fall, empty columns close up to the left, and the game ends when no
//! group of two is left. Scored `(n-2)^2` per group of `n` plus 1000 for clearing
//! the board (other rules selectable). See `crates/games/samegame/docs/samegame.md`.
//!
//! Coordinates users see: row 0 at the top, column 0 at the left. A move is
//! written `r c` (`14 0` is the bottom-left block of a 15-row board).

mod actions;
mod board;
mod game;
mod player;
mod scoring;
pub mod search;
pub mod standard;
mod text;

pub use board::{Board, Group, Scan, ShapeError, MAX_COLOURS, MAX_SIDE, NO_GROUP};
pub use game::{Click, SameGame};
pub use player::SearchPlayer;
pub use scoring::Scoring;
pub use text::{format_board, format_board_lines, parse_board};
