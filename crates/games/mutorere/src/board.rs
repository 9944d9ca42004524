//! The Mu Torere board: eight rim points (kewai) around the centre (putahi).
//!
//! Points are numbered as users type them: `0` is the putahi, `1..=8` the rim,
//! clockwise from the top-left point (the blog's `places[0]`), so rim point `p`
//! is the blog's index `p - 1`.

use serde::Serialize;

/// The putahi (centre point).
pub const CENTRE: u8 = 0;
/// Number of rim points.
pub const RIM: u8 = 8;
/// Number of points, centre included.
pub const POINTS: usize = 9;

/// What stands on a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Cell {
    /// Nobody (exactly one point is empty).
    Empty,
    /// A piece of the seat with this index (0 = White, 1 = Black).
    Piece(u8),
}

/// The clockwise rim neighbour of rim point `p`.
pub fn next(p: u8) -> u8 {
    p % RIM + 1
}

/// The anticlockwise rim neighbour of rim point `p`.
pub fn prev(p: u8) -> u8 {
    (p + RIM - 2) % RIM + 1
}

/// A position: who stands where, who moves, and how many plies of the opening
/// have been played (only counted while an opening-only restriction is in force).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MtState {
    /// Index 0 is the centre, 1..=8 the rim.
    pub cells: [Cell; POINTS],
    /// The seat to move (0 White, 1 Black).
    pub to_move: u8,
    /// Plies played, counted only up to the end of the restricted opening
    /// (always 0 when the restriction never lapses or never applies).
    pub opening_plies: u8,
}

impl MtState {
    /// The empty point.
    pub fn empty_point(&self) -> u8 {
        self.cells
            .iter()
            .position(|c| *c == Cell::Empty)
            .unwrap_or(0) as u8
    }

    /// True if the piece on rim point `p` has an enemy piece on a rim neighbour
    /// (the condition for entering the putahi).
    pub fn next_to_enemy(&self, p: u8) -> bool {
        let Cell::Piece(owner) = self.cells[p as usize] else {
            return false;
        };
        [prev(p), next(p)]
            .iter()
            .any(|&q| matches!(self.cells[q as usize], Cell::Piece(o) if o != owner))
    }
}

/// A move: the piece on `from` goes to `to`, which is always the empty point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MtMove {
    /// Point the piece leaves.
    pub from: u8,
    /// Point it enters (the empty one).
    pub to: u8,
}
