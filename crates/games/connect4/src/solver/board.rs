//! The solver's view of a board: the mover's discs and the occupied cells,
//! two `u64`s in the crate's layout (column by column, one spare bit above
//! each column), with the masks of its geometry computed once.
//!
//! Only the classic rules are seen here (discs dropped, a line wins): that is
//! what lets the solver reason about threats, the cells where a disc would
//! complete a line.

use crate::board::{Geometry, Position};

/// The masks of one board size, computed once per solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub(crate) geometry: Geometry,
    /// Bits from one column to the next (height + 1).
    pub(crate) stride: u32,
    /// The bottom cell of every column.
    pub(crate) bottom: u64,
    /// Every cell of the board.
    pub(crate) cells: u64,
    /// Cells on the board, as a count.
    pub(crate) cell_count: u32,
}

impl Shape {
    /// The masks of `geometry`.
    pub fn new(geometry: Geometry) -> Shape {
        Shape {
            geometry,
            stride: u32::from(geometry.height()) + 1,
            bottom: geometry.bottom_row(),
            cells: geometry.all_cells(),
            cell_count: geometry.cells(),
        }
    }

    /// The board's width.
    #[inline]
    pub fn width(&self) -> u8 {
        self.geometry.width()
    }

    /// The cells of column `c`.
    #[inline]
    pub fn column(&self, c: u8) -> u64 {
        self.geometry.column_mask(c)
    }

    /// The empty cells where a disc added to `discs` would complete a line of
    /// the geometry's length (whether or not a disc can be dropped there yet).
    #[inline]
    pub fn completing_cells(&self, discs: u64, occupied: u64) -> u64 {
        // The shifts are constants for each height, so that the compiler
        // folds them (the classic board's seven bits a column first).
        let found = match (self.geometry.connect(), self.stride) {
            (4, 7) => completing_four::<7>(discs),
            (4, 6) => completing_four::<6>(discs),
            (4, _) => completing_four::<5>(discs),
            _ => self.completing_three(discs),
        };
        found & self.cells & !occupied
    }

    /// Cells that complete three: `xx.`, `x.x`, `.xx` in each direction.
    #[inline]
    fn completing_three(&self, x: u64) -> u64 {
        let mut r = (x << 1) & (x << 2);
        for d in [self.stride, self.stride + 1, self.stride - 1] {
            r |= (x << d) & (x << (2 * d));
            r |= (x << d) & (x >> d);
            r |= (x >> d) & (x >> (2 * d));
        }
        r
    }

    /// Whether `discs` hold a line.
    #[inline]
    pub fn has_line(&self, discs: u64) -> bool {
        self.geometry.has_line(discs)
    }

    /// The mirror image of a set of cells.
    pub fn mirror(&self, cells: u64) -> u64 {
        self.geometry.mirror(cells)
    }
}

/// Cells that complete four on a board of `STRIDE` bits a column: for each
/// direction, the three other cells of some line are `x`'s. Pairs of
/// neighbours are shared between the patterns `xxx.`, `xx.x`, `x.xx` and
/// `.xxx`.
#[inline]
fn completing_four<const STRIDE: u32>(x: u64) -> u64 {
    // Vertical: only `xxx` below an empty cell.
    let mut r = (x << 1) & (x << 2) & (x << 3);
    for d in [STRIDE, STRIDE + 1, STRIDE - 1] {
        let pair = (x << d) & (x << (2 * d));
        r |= pair & (x << (3 * d));
        r |= pair & (x >> d);
        let pair = (x >> d) & (x >> (2 * d));
        r |= pair & (x << d);
        r |= pair & (x >> (3 * d));
    }
    r
}

/// A position as the solver sees it: whose discs are the mover's, which cells
/// are taken, and how many discs are down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverBoard {
    /// The side to move's discs.
    pub(crate) mover: u64,
    /// Every occupied cell.
    pub(crate) occupied: u64,
    /// Discs on the board.
    pub(crate) discs: u32,
}

impl SolverBoard {
    /// The solver's view of `p` (classic rules: the disc counts give the turn).
    pub fn from_position(p: &Position) -> SolverBoard {
        SolverBoard {
            mover: p.discs(p.to_move()),
            occupied: p.occupied(),
            discs: p.disc_count(),
        }
    }

    /// A key that tells positions of one board size apart: the mover's discs
    /// plus the occupied cells. In each column the sum sets the bit just above
    /// the column's top disc and keeps the mover's discs below it as they
    /// are (an empty column reads 1), so no two positions share a key.
    #[inline]
    pub fn key(&self, shape: &Shape) -> u64 {
        self.mover + self.occupied + shape.bottom
    }

    /// The key of the mirror image, and of the position itself: the smaller is
    /// the one a book keeps.
    pub fn canonical_key(&self, shape: &Shape) -> u64 {
        let mirrored = SolverBoard {
            mover: shape.mirror(self.mover),
            occupied: shape.mirror(self.occupied),
            discs: self.discs,
        };
        self.key(shape).min(mirrored.key(shape))
    }

    /// The cells a disc can be dropped into now: the lowest empty cell of
    /// every column that is not full.
    #[inline]
    pub fn playable(&self, shape: &Shape) -> u64 {
        (self.occupied + shape.bottom) & shape.cells
    }

    /// Cells where the mover would complete a line.
    #[inline]
    pub fn mover_threats(&self, shape: &Shape) -> u64 {
        shape.completing_cells(self.mover, self.occupied)
    }

    /// Cells where the opponent would complete a line.
    #[inline]
    pub fn opponent_threats(&self, shape: &Shape) -> u64 {
        shape.completing_cells(self.mover ^ self.occupied, self.occupied)
    }

    /// Whether the mover can complete a line with the next disc.
    #[inline]
    pub fn can_win_now(&self, shape: &Shape) -> bool {
        self.mover_threats(shape) & self.playable(shape) != 0
    }

    /// The drops (as the one cell each fills) that do not let the opponent
    /// complete a line with their reply: the one drop that blocks a threat
    /// the opponent could play at once (none when there are two), never a
    /// drop just below an opponent's threat. Assumes the mover cannot win at
    /// once.
    #[inline]
    pub fn non_losing_drops(&self, shape: &Shape) -> u64 {
        let mut playable = self.playable(shape);
        let threats = self.opponent_threats(shape);
        let forced = playable & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            playable = forced;
        }
        playable & !(threats >> 1)
    }

    /// Discs on the board.
    #[inline]
    pub fn discs(&self) -> u32 {
        self.discs
    }

    /// The score of a win with the mover's next disc (the best score there
    /// is: one disc used of those the mover has left).
    #[inline]
    pub fn win_now_score(&self, shape: &Shape) -> i32 {
        (shape.cell_count as i32 - self.discs as i32 + 1) / 2
    }

    /// Whether the mover's disc in `cell` would complete a line.
    #[inline]
    pub fn completes_line(&self, shape: &Shape, cell: u64) -> bool {
        shape.has_line(self.mover | cell)
    }

    /// Drops a disc of the mover into the cell `cell` (one bit, playable).
    #[inline]
    pub fn play_cell(&mut self, cell: u64) {
        self.mover ^= self.occupied;
        self.occupied |= cell;
        self.discs += 1;
    }

    /// How many threats the mover would have after dropping into `cell`: the
    /// move ordering's score.
    #[inline]
    pub fn threats_after(&self, shape: &Shape, cell: u64) -> u32 {
        shape
            .completing_cells(self.mover | cell, self.occupied | cell)
            .count_ones()
    }
}
