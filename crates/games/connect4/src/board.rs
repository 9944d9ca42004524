//! The board as bitboards: where each cell's bit lies, lines of discs, columns.
//!
//! Cells are numbered column by column, each column bottom to top, with one
//! spare bit above every column (John Tromp's layout): cell `(column, row)` is
//! bit `column * (height + 1) + row`, row 0 at the bottom. The spare bit is
//! never set, so shifting a set of cells by one step in a direction never
//! carries a disc from the top of one column into the bottom of the next, and
//! a line test is a few shifts and `and`s. The largest board, 7 wide and 6
//! high, takes bits 0..49 of a `u64`.

use tabula_core::Seat;

/// The most columns a board may have.
pub const MAX_WIDTH: u8 = 7;
/// The fewest columns.
pub const MIN_WIDTH: u8 = 4;
/// The most rows.
pub const MAX_HEIGHT: u8 = 6;
/// The fewest rows.
pub const MIN_HEIGHT: u8 = 4;

/// The size of a board and how many discs in a row make a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    width: u8,
    height: u8,
    connect: u8,
}

impl Geometry {
    /// A board `width` columns wide and `height` rows high, lines of `connect`
    /// discs; `None` outside 4-7 columns, 4-6 rows and 3-4 in a row.
    pub fn new(width: u8, height: u8, connect: u8) -> Option<Geometry> {
        ((MIN_WIDTH..=MAX_WIDTH).contains(&width)
            && (MIN_HEIGHT..=MAX_HEIGHT).contains(&height)
            && (3..=4).contains(&connect))
        .then_some(Geometry {
            width,
            height,
            connect,
        })
    }

    /// Columns.
    pub fn width(self) -> u8 {
        self.width
    }
    /// Rows.
    pub fn height(self) -> u8 {
        self.height
    }
    /// Discs in a row that make a line.
    pub fn connect(self) -> u8 {
        self.connect
    }
    /// Cells on the board.
    pub fn cells(self) -> u32 {
        u32::from(self.width) * u32::from(self.height)
    }

    /// Bits from one column to the next.
    #[inline]
    fn stride(self) -> u32 {
        u32::from(self.height) + 1
    }

    /// The bit of cell `(column, row)`, row 0 at the bottom.
    #[inline]
    pub fn bit(self, column: u8, row: u8) -> u64 {
        1u64 << (u32::from(column) * self.stride() + u32::from(row))
    }

    /// The cells of one column.
    #[inline]
    pub fn column_mask(self, column: u8) -> u64 {
        ((1u64 << self.height) - 1) << (u32::from(column) * self.stride())
    }

    /// The bottom cell of every column.
    pub fn bottom_row(self) -> u64 {
        (0..self.width).fold(0, |acc, c| acc | self.bit(c, 0))
    }

    /// Every cell of the board (no spare bits).
    pub fn all_cells(self) -> u64 {
        (0..self.width).fold(0, |acc, c| acc | self.column_mask(c))
    }

    /// How many discs column `column` holds, given the occupied cells.
    #[inline]
    pub fn column_height(self, occupied: u64, column: u8) -> u8 {
        (occupied & self.column_mask(column)).count_ones() as u8
    }

    /// The shifts of the four directions: up a column, along a row, and the two
    /// diagonals.
    #[inline]
    fn directions(self) -> [u32; 4] {
        let s = self.stride();
        [1, s, s + 1, s - 1]
    }

    /// The first cells of every line of `connect` discs within `discs`, one set
    /// per direction.
    #[inline]
    fn line_starts(self, discs: u64) -> [u64; 4] {
        self.directions().map(|shift| {
            let mut starts = discs;
            for i in 1..u32::from(self.connect) {
                starts &= discs >> (i * shift);
            }
            starts
        })
    }

    /// Whether `discs` hold a line.
    #[inline]
    pub fn has_line(self, discs: u64) -> bool {
        self.line_starts(discs).iter().any(|&s| s != 0)
    }

    /// Every cell that belongs to a line within `discs` (the winning line shown).
    pub fn line_cells(self, discs: u64) -> u64 {
        let mut cells = 0;
        for (starts, shift) in self.line_starts(discs).into_iter().zip(self.directions()) {
            for i in 0..u32::from(self.connect) {
                cells |= starts << (i * shift);
            }
        }
        cells & self.all_cells()
    }

    /// Every line of the board as a set of cells (for the evaluation).
    pub fn all_lines(self) -> Vec<u64> {
        let all = self.all_cells();
        let mut lines = Vec::new();
        for shift in self.directions() {
            for c in 0..self.width {
                for r in 0..self.height {
                    let mut line = 0u64;
                    let start = u32::from(c) * self.stride() + u32::from(r);
                    for i in 0..u32::from(self.connect) {
                        let at = start + i * shift;
                        if at < 64 {
                            line |= 1 << at;
                        }
                    }
                    if line.count_ones() == u32::from(self.connect) && line & !all == 0 {
                        lines.push(line);
                    }
                }
            }
        }
        lines
    }

    /// The cell index a person reads, row by row from the top left, 0-based:
    /// `(top row) 0 1 2 ... width-1`, the next row below, and so on.
    pub fn cell_number(self, column: u8, row: u8) -> u32 {
        u32::from(self.height - 1 - row) * u32::from(self.width) + u32::from(column)
    }

    /// The mirror image of a set of cells: column `c` becomes `width - 1 - c`.
    pub fn mirror(self, cells: u64) -> u64 {
        let mut out = 0;
        for c in 0..self.width {
            let column = (cells & self.column_mask(c)) >> (u32::from(c) * self.stride());
            out |= column << (u32::from(self.width - 1 - c) * self.stride());
        }
        out
    }
}

/// Bit 63 of the first side's discs: set when the second side (Yellow) is to move.
/// No board cell reaches it (7 columns of 7 bits end at bit 48).
const YELLOW_TO_MOVE: u64 = 1 << 63;

/// A position: the discs of each side and the side to move.
///
/// In the classic game the side to move follows from the counts of discs, but
/// a pop (Pop Out) takes a disc away, so it is kept: as one bit of the first
/// side's set, which keeps a position 16 bytes (the solver holds millions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    discs: [u64; 2],
}

impl Position {
    /// The empty board, Red (seat 0) to move.
    pub const EMPTY: Position = Position { discs: [0, 0] };

    /// A position from the discs of each side and the side to move (no checks:
    /// the game's parser checks what a person typed).
    pub(crate) fn from_parts(red: u64, yellow: u64, to_move: Seat) -> Position {
        let flag = if to_move == 1 { YELLOW_TO_MOVE } else { 0 };
        Position {
            discs: [(red & !YELLOW_TO_MOVE) | flag, yellow & !YELLOW_TO_MOVE],
        }
    }

    /// The discs of `seat` (0 Red, 1 Yellow).
    #[inline]
    pub fn discs(&self, seat: Seat) -> u64 {
        self.discs[seat & 1] & !YELLOW_TO_MOVE
    }

    /// Every occupied cell.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.discs(0) | self.discs(1)
    }

    /// The seat to move (also once the game is over: the one who would be).
    #[inline]
    pub fn to_move(&self) -> Seat {
        usize::from(self.discs[0] & YELLOW_TO_MOVE != 0)
    }

    /// Discs on the board.
    pub fn disc_count(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// The disc on cell `(column, row)`, if any.
    pub fn at(&self, g: Geometry, column: u8, row: u8) -> Option<Seat> {
        let bit = g.bit(column, row);
        (0..2).find(|&seat| self.discs(seat) & bit != 0)
    }

    /// Drops a disc of the side to move into `column` (not full) and passes the turn.
    #[inline]
    pub(crate) fn drop_disc(&mut self, g: Geometry, column: u8) {
        let row = g.column_height(self.occupied(), column);
        if row < g.height() {
            let seat = self.to_move();
            self.discs[seat] |= g.bit(column, row);
        }
        self.discs[0] ^= YELLOW_TO_MOVE;
    }

    /// Takes the bottom disc out of `column`, lets the discs above it fall one
    /// row, and passes the turn.
    #[inline]
    pub(crate) fn pop_disc(&mut self, g: Geometry, column: u8) {
        let mask = g.column_mask(column);
        let bottom = g.bit(column, 0);
        for side in &mut self.discs {
            let keep = *side & !mask;
            let above = (*side & mask & !bottom) >> 1;
            *side = keep | above;
        }
        self.discs[0] ^= YELLOW_TO_MOVE;
    }

    /// The position mirrored left to right.
    pub(crate) fn mirrored(&self, g: Geometry) -> Position {
        Position::from_parts(
            g.mirror(self.discs(0)),
            g.mirror(self.discs(1)),
            self.to_move(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_found_in_every_direction_and_never_across_columns() {
        let g = Geometry::new(7, 6, 4).unwrap();
        let across = (0..4).fold(0, |a, c| a | g.bit(c, 0));
        let up = (0..4).fold(0, |a, r| a | g.bit(2, r));
        let rising = (0..4).fold(0, |a, i| a | g.bit(i, i));
        let falling = (0..4).fold(0, |a, i| a | g.bit(i + 3, 3 - i));
        for line in [across, up, rising, falling] {
            assert!(g.has_line(line));
            assert_eq!(g.line_cells(line), line);
            // Three of the four are no line.
            let three = line & (line - 1);
            assert!(!g.has_line(three));
        }
        // The top of one column and the bottom of the next are not neighbours.
        let wrap = g.bit(0, 4) | g.bit(0, 5) | g.bit(1, 0) | g.bit(1, 1);
        assert!(!g.has_line(wrap));
        // Nor on a diagonal through the spare bit.
        let bent = g.bit(0, 3) | g.bit(1, 4) | g.bit(2, 5) | g.bit(4, 0);
        assert!(!g.has_line(bent));
        assert_eq!(g.all_lines().len(), 69, "the classic board has 69 lines");
        let three = Geometry::new(4, 4, 3).unwrap();
        let row_of_three = (1..4).fold(0, |a, c| a | three.bit(c, 0));
        assert!(three.has_line(row_of_three));
        assert!(!three.has_line(row_of_three & (row_of_three - 1)));
    }

    #[test]
    fn a_pop_lets_the_column_fall() {
        let g = Geometry::new(4, 4, 4).unwrap();
        let mut p = Position::EMPTY;
        for _ in 0..3 {
            p.drop_disc(g, 1);
        }
        assert_eq!(p.at(g, 1, 0), Some(0));
        assert_eq!(p.at(g, 1, 1), Some(1));
        assert_eq!(p.to_move(), 1);
        p.pop_disc(g, 1);
        assert_eq!(p.at(g, 1, 0), Some(1));
        assert_eq!(p.at(g, 1, 1), Some(0));
        assert_eq!(p.at(g, 1, 2), None);
        assert_eq!(p.to_move(), 0);
        assert_eq!(p.mirrored(g).at(g, 2, 0), Some(1));
    }
}
