//! Connect Four: two players drop discs into the columns of an upright board;
//! a disc falls to the lowest empty cell of its column, and the first to line
//! up four of their own (across, up or diagonally) wins. A full board without a
//! line is a draw.
//!
//! Boards from 4x4 to the classic 7 columns by 6 rows, lines of four or three,
//! misère play (a line loses) and Pop Out (a player may instead take one of
//! their own discs out of the bottom row). Red moves first.
//!
//! * [`board`]: the bitboards (Tromp's layout, one spare bit per column).
//! * [`rules`]: the rules (`Game`).
//! * `notation`: moves are column numbers 1..width (`p3` pops column 3);
//!   positions are the rows from the top, `R`, `Y` or `.` per cell, joined by
//!   `/`, then the side to move: `......./......./......./......./...Y.../..RR... R`.
//! * `present`: the terminal board and the view model.
//! * `actions`: OpenSpiel's `connect_four` action ids and observation tensor.
//! * `analysis`: size facts for the generic solver.
//! * [`search`]: the bitboard alpha-beta player and its hints.
//! * `variant`: options, presets, registration.

pub mod board;
pub mod rules;
pub mod search;
pub mod solver;

mod actions;
pub mod analysis;
mod notation;
mod present;
mod setup;
mod variant;

pub use board::{Geometry, Position};
pub use rules::SEATS;
pub use variant::PRESETS;

use std::fmt;
use tabula_core::Symmetry;

/// A move: drop a disc into a column, or (Pop Out) take the mover's own disc
/// out of the bottom of a column. Columns are 0-based here and 1-based in the
/// notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A disc dropped into the column.
    Drop(u8),
    /// The bottom disc of the column taken out; the discs above fall one row.
    Pop(u8),
}

impl Move {
    /// The column, 0-based.
    pub fn column(self) -> u8 {
        match self {
            Move::Drop(c) | Move::Pop(c) => c,
        }
    }
}

/// The move as written: `4` (a drop into column 4), `p4` (a pop).
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Drop(c) => write!(f, "{}", c + 1),
            Move::Pop(c) => write!(f, "p{}", c + 1),
        }
    }
}

/// Connect Four in one variant: the board, lines of how many, misère or not,
/// Pop Out or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    geometry: Geometry,
    misere: bool,
    popout: bool,
}

impl Default for ConnectFour {
    /// The classic game: 7 columns, 6 rows, four in a row wins.
    fn default() -> Self {
        ConnectFour::classic()
    }
}

impl ConnectFour {
    /// The classic game: 7 columns, 6 rows, four in a row wins.
    pub fn classic() -> Self {
        ConnectFour {
            geometry: Geometry::new(7, 6, 4).expect("the classic board is valid"),
            misere: false,
            popout: false,
        }
    }

    /// A game on `geometry`, in misère play or not, with Pop Out or not.
    pub fn new(geometry: Geometry, misere: bool, popout: bool) -> Self {
        ConnectFour {
            geometry,
            misere,
            popout,
        }
    }

    /// The board's size and line length.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }
    /// Misère play: whoever lines up loses.
    pub fn is_misere(&self) -> bool {
        self.misere
    }
    /// Pop Out: a player may take one of their own discs out from below.
    pub fn is_popout(&self) -> bool {
        self.popout
    }
}

/// The board's one symmetry besides the identity: its mirror image, column `c`
/// read as column `width + 1 - c`.
impl Symmetry for ConnectFour {
    fn symmetry_count(&self) -> usize {
        2
    }

    fn map_state(&self, s: &Position, k: usize) -> Position {
        if k == 1 {
            s.mirrored(self.geometry)
        } else {
            *s
        }
    }

    fn map_move(&self, _s: &Position, mv: Move, k: usize) -> Move {
        if k != 1 {
            return mv;
        }
        let mirror = |c: u8| self.geometry.width().saturating_sub(1 + c);
        match mv {
            Move::Drop(c) => Move::Drop(mirror(c)),
            Move::Pop(c) => Move::Pop(mirror(c)),
        }
    }
}

#[cfg(test)]
mod tests;
