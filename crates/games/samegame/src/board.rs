//! The board: columns of coloured blocks resting on the floor, packed to the left.
//!
//! Blocks are stored column by column, bottom up, because every rule works on
//! columns: gravity compacts a column, and an empty column is closed up by moving
//! whole columns. Public coordinates are the user's: row 0 at the top, column 0
//! at the left; `y` (0 at the bottom) is internal.

use crate::scoring::Scoring;
use rand::Rng as _;

/// The largest number of rows or columns a board may have.
pub const MAX_SIDE: usize = 100;
/// The largest colour number (colours are `1..=MAX_COLOURS`, 0 is empty).
pub const MAX_COLOURS: u8 = 9;

/// A SameGame position: the blocks and the score made so far.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    width: u8,
    height: u8,
    /// `cells[col * height + y]`, `y = 0` at the bottom; 0 is empty.
    cells: Vec<u8>,
    score: i64,
}

/// One group of same-coloured, orthogonally connected blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// Column of the canonical block (the leftmost column of the group).
    pub col: u8,
    /// Height of the canonical block above the floor (its lowest block in that column).
    pub y: u8,
    /// Colour 1..=9.
    pub colour: u8,
    /// Number of blocks.
    pub size: u16,
}

/// Why a grid of colours is not a position reachable under the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// No rows at all.
    NoRows,
    /// A row without cells (`row` is 0-based from the top).
    EmptyRow { row: usize },
    /// Rows of different lengths.
    Ragged {
        row: usize,
        len: usize,
        expected: usize,
    },
    /// More rows or columns than [`MAX_SIDE`].
    TooBig { rows: usize, cols: usize },
    /// A block above an empty cell: gravity would have dropped it.
    Floating { row: usize, col: usize },
    /// An empty column with blocks to its right: the columns would have closed up.
    Gap { col: usize },
    /// A colour outside 0..=9.
    BadColour { row: usize, col: usize, colour: u8 },
}

/// Scratch space for finding groups, reused so that the hot paths do not allocate.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    /// Group index of every cell after [`Board::label_groups`]; `NO_GROUP` when empty.
    pub label: Vec<u16>,
    pub(crate) stack: Vec<u16>,
}

/// Label of an empty cell.
pub const NO_GROUP: u16 = u16::MAX;

impl Board {
    /// A board from rows of colours, top row first, with the score made so far.
    /// Refuses grids the rules cannot produce (see [`ShapeError`]).
    pub fn from_rows(rows: &[Vec<u8>], score: i64) -> Result<Board, ShapeError> {
        let Some(first) = rows.first() else {
            return Err(ShapeError::NoRows);
        };
        let width = first.len();
        let height = rows.len();
        for (r, row) in rows.iter().enumerate() {
            if row.is_empty() {
                return Err(ShapeError::EmptyRow { row: r });
            }
            if row.len() != width {
                return Err(ShapeError::Ragged {
                    row: r,
                    len: row.len(),
                    expected: width,
                });
            }
        }
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(ShapeError::TooBig {
                rows: height,
                cols: width,
            });
        }
        let mut cells = vec![0u8; width * height];
        for (r, row) in rows.iter().enumerate() {
            for (c, &colour) in row.iter().enumerate() {
                if colour > MAX_COLOURS {
                    return Err(ShapeError::BadColour {
                        row: r,
                        col: c,
                        colour,
                    });
                }
                cells[c * height + (height - 1 - r)] = colour;
            }
        }
        for c in 0..width {
            let column = &cells[c * height..(c + 1) * height];
            if let Some(y) = (1..height).find(|&y| column[y] != 0 && column[y - 1] == 0) {
                // Report the lowest floating block, the one nearest the hole.
                return Err(ShapeError::Floating {
                    row: height - 1 - y,
                    col: c,
                });
            }
        }
        for c in 1..width {
            if cells[c * height] != 0 && cells[(c - 1) * height] == 0 {
                return Err(ShapeError::Gap { col: c - 1 });
            }
        }
        Ok(Board {
            width: width as u8,
            height: height as u8,
            cells,
            score,
        })
    }

    /// The random board of the `seed=N` option: cells are filled row by row from the
    /// top-left, each colour drawn uniformly from `1..=colours` by
    /// `tabula_core::rng_from_seed(seed)` with `gen_range`.
    pub fn random(width: usize, height: usize, colours: u8, seed: u64) -> Board {
        let width = width.clamp(1, MAX_SIDE);
        let height = height.clamp(1, MAX_SIDE);
        let colours = colours.clamp(1, MAX_COLOURS);
        let mut rng = tabula_core::rng_from_seed(seed);
        let mut cells = vec![0u8; width * height];
        for r in 0..height {
            for c in 0..width {
                cells[c * height + (height - 1 - r)] = rng.gen_range(1..=colours);
            }
        }
        Board {
            width: width as u8,
            height: height as u8,
            cells,
            score: 0,
        }
    }

    /// Number of columns.
    #[inline]
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Number of rows.
    #[inline]
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Points made so far.
    #[inline]
    pub fn score(&self) -> i64 {
        self.score
    }

    /// Replaces the score (positions given as text carry it).
    pub fn set_score(&mut self, score: i64) {
        self.score = score;
    }

    /// Colour at row `r` (0 at the top), column `c`; 0 when empty or off the board.
    pub fn colour(&self, r: usize, c: usize) -> u8 {
        if r >= self.height() || c >= self.width() {
            return 0;
        }
        self.cells[self.index(c, self.height() - 1 - r)]
    }

    /// Colour at column `col`, height `y` above the floor (internal coordinates).
    #[inline]
    pub fn at(&self, col: usize, y: usize) -> u8 {
        self.cells[col * self.height() + y]
    }

    #[inline]
    fn index(&self, col: usize, y: usize) -> usize {
        col * self.height() + y
    }

    /// Row (from the top) of height `y`.
    #[inline]
    pub fn row_of(&self, y: usize) -> usize {
        self.height() - 1 - y
    }

    /// The raw cells, column by column from the left, each bottom up.
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Blocks still on the board.
    pub fn blocks_left(&self) -> usize {
        self.cells.iter().filter(|&&c| c != 0).count()
    }

    /// True when every block has been removed.
    pub fn is_cleared(&self) -> bool {
        self.cells.first().copied().unwrap_or(0) == 0
    }

    /// Number of non-empty columns (they are the leftmost ones).
    pub fn columns_used(&self) -> usize {
        (0..self.width())
            .take_while(|&c| self.at(c, 0) != 0)
            .count()
    }

    /// Blocks of each colour (index 0 unused).
    pub fn colour_counts(&self) -> [u16; MAX_COLOURS as usize + 1] {
        let mut counts = [0u16; MAX_COLOURS as usize + 1];
        for &c in &self.cells {
            counts[c as usize] += 1;
        }
        counts[0] = 0;
        counts
    }

    /// Highest colour number on the board.
    pub fn max_colour(&self) -> u8 {
        self.cells.iter().copied().max().unwrap_or(0)
    }

    /// True when some group has at least two blocks (the game goes on).
    pub fn has_move(&self) -> bool {
        let h = self.height();
        for col in 0..self.width() {
            let base = col * h;
            if self.cells[base] == 0 {
                break;
            }
            for y in 0..h {
                let c = self.cells[base + y];
                if c == 0 {
                    break;
                }
                if (y + 1 < h && self.cells[base + y + 1] == c)
                    || (col + 1 < self.width() && self.cells[base + h + y] == c)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Labels every block with its group and lists the groups (single blocks
    /// included), in scan order: columns left to right, each bottom up. The first
    /// block met of a group is its canonical block.
    pub fn label_groups(&self, scan: &mut Scan, groups: &mut Vec<Group>) {
        let (w, h) = (self.width(), self.height());
        scan.label.clear();
        scan.label.resize(w * h, NO_GROUP);
        for col in 0..w {
            for y in 0..h {
                let i = col * h + y;
                let colour = self.cells[i];
                if colour == 0 {
                    break;
                }
                if scan.label[i] != NO_GROUP {
                    continue;
                }
                let id = groups.len() as u16;
                scan.label[i] = id;
                scan.stack.clear();
                scan.stack.push(i as u16);
                let mut size = 0u16;
                while let Some(j) = scan.stack.pop() {
                    size += 1;
                    let j = j as usize;
                    let (jc, jy) = (j / h, j % h);
                    let mut visit = |k: usize| {
                        if self.cells[k] == colour && scan.label[k] == NO_GROUP {
                            scan.label[k] = id;
                            scan.stack.push(k as u16);
                        }
                    };
                    if jy + 1 < h {
                        visit(j + 1);
                    }
                    if jy > 0 {
                        visit(j - 1);
                    }
                    if jc + 1 < w {
                        visit(j + h);
                    }
                    if jc > 0 {
                        visit(j - h);
                    }
                }
                groups.push(Group {
                    col: col as u8,
                    y: y as u8,
                    colour,
                    size,
                });
            }
        }
    }

    /// Removes the group containing the block at (`col`, `y`), lets the blocks above
    /// fall and closes up empty columns. Returns the number of blocks removed: 0 (and
    /// the board unchanged) when the cell is empty or the block has no same-coloured
    /// neighbour. Does not score; see [`Board::play`].
    pub fn remove_group(&mut self, col: usize, y: usize, stack: &mut Vec<u16>) -> usize {
        let (w, h) = (self.width(), self.height());
        if col >= w || y >= h {
            return 0;
        }
        let start = col * h + y;
        let colour = self.cells[start];
        if colour == 0 {
            return 0;
        }
        self.cells[start] = 0;
        stack.clear();
        stack.push(start as u16);
        let mut removed = 0usize;
        let (mut min_col, mut max_col) = (col, col);
        while let Some(j) = stack.pop() {
            removed += 1;
            let j = j as usize;
            let (jc, jy) = (j / h, j % h);
            min_col = min_col.min(jc);
            max_col = max_col.max(jc);
            let cells = &mut self.cells;
            let mut visit = |k: usize| {
                if cells[k] == colour {
                    cells[k] = 0;
                    stack.push(k as u16);
                }
            };
            if jy + 1 < h {
                visit(j + 1);
            }
            if jy > 0 {
                visit(j - 1);
            }
            if jc + 1 < w {
                visit(j + h);
            }
            if jc > 0 {
                visit(j - h);
            }
        }
        if removed < 2 {
            self.cells[start] = colour;
            return 0;
        }
        for c in min_col..=max_col {
            let column = &mut self.cells[c * h..(c + 1) * h];
            let mut to = 0;
            for from in 0..h {
                let v = column[from];
                if v != 0 {
                    column[to] = v;
                    to += 1;
                }
            }
            column[to..].fill(0);
        }
        // Close up empty columns. Columns right of the touched range that are empty
        // were empty before, and everything beyond them is empty too.
        let mut dst = min_col;
        let mut src = min_col;
        while src < w {
            let empty = self.cells[src * h] == 0;
            if empty && src > max_col {
                break;
            }
            if !empty {
                if src != dst {
                    self.cells.copy_within(src * h..(src + 1) * h, dst * h);
                }
                dst += 1;
            }
            src += 1;
        }
        self.cells[dst * h..src * h].fill(0);
        removed
    }

    /// Plays a click at (`col`, `y`) under `scoring`: removes the group, adds its
    /// points and the clearing bonus. Returns the blocks removed (0: nothing happened).
    pub fn play(&mut self, col: usize, y: usize, scoring: Scoring, stack: &mut Vec<u16>) -> usize {
        let removed = self.remove_group(col, y, stack);
        if removed >= 2 {
            self.score += scoring.group(removed);
            if self.is_cleared() {
                self.score += scoring.clear_bonus();
            }
        }
        removed
    }

    /// The rows of colours, top row first.
    pub fn rows(&self) -> Vec<Vec<u8>> {
        (0..self.height())
            .map(|r| (0..self.width()).map(|c| self.colour(r, c)).collect())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        let rows: Vec<Vec<u8>> = rows
            .iter()
            .map(|r| {
                r.bytes()
                    .map(|b| if b == b'.' { 0 } else { b - b'0' })
                    .collect()
            })
            .collect();
        Board::from_rows(&rows, 0).unwrap()
    }

    fn picture(b: &Board) -> Vec<String> {
        b.rows()
            .iter()
            .map(|r| {
                r.iter()
                    .map(|&c| if c == 0 { '.' } else { (b'0' + c) as char })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn blocks_fall_and_columns_close_up() {
        let mut b = board(&["32.", "31.", "112"]);
        let mut stack = Vec::new();
        // The bottom-left 1 joins the 1s at the bottom and middle of column 1; the
        // 2 on top of column 1 falls to the floor.
        assert_eq!(b.remove_group(0, 0, &mut stack), 3);
        assert_eq!(picture(&b), vec!["...", "3..", "322"]);
        // Removing the 3s empties column 0: both 2s move one column left.
        assert_eq!(b.remove_group(0, 0, &mut stack), 2);
        assert_eq!(picture(&b), vec!["...", "...", "22."]);
        assert_eq!(b.remove_group(1, 0, &mut stack), 2);
        assert!(b.is_cleared());
        assert_eq!(b.columns_used(), 0);
    }

    #[test]
    fn a_lone_block_cannot_be_removed() {
        let mut b = board(&["12", "21"]);
        let before = b.clone();
        assert_eq!(b.remove_group(0, 0, &mut Vec::new()), 0);
        assert_eq!(b, before);
        assert!(!b.has_move());
    }

    #[test]
    fn groups_are_orthogonal_only() {
        let b = board(&["121", "212", "121"]);
        let mut groups = Vec::new();
        b.label_groups(&mut Scan::default(), &mut groups);
        assert_eq!(groups.len(), 9);
        assert!(groups.iter().all(|g| g.size == 1));
        let b = board(&["111", "212", "222"]);
        groups.clear();
        b.label_groups(&mut Scan::default(), &mut groups);
        let sizes: Vec<u16> = groups.iter().map(|g| g.size).collect();
        // Canonical blocks in scan order: the 2s (col 0 bottom), then the 1s (col 0 top).
        assert_eq!(sizes, vec![5, 4]);
        assert_eq!((groups[0].col, groups[0].y, groups[0].colour), (0, 0, 2));
        assert_eq!((groups[1].col, groups[1].y, groups[1].colour), (0, 2, 1));
    }

    #[test]
    fn scoring_adds_clear_bonus_only_when_empty() {
        let mut b = board(&["11", "11"]);
        b.play(0, 0, Scoring::Standard, &mut Vec::new());
        assert_eq!(b.score(), 4 + 1000);
        let mut b = board(&["11", "12"]);
        b.play(0, 1, Scoring::Standard, &mut Vec::new());
        assert_eq!(b.score(), 1);
        assert_eq!(b.blocks_left(), 1);
    }

    #[test]
    fn invalid_shapes_are_refused() {
        let rows = |v: &[&[u8]]| v.iter().map(|r| r.to_vec()).collect::<Vec<_>>();
        assert_eq!(Board::from_rows(&[], 0), Err(ShapeError::NoRows));
        assert_eq!(
            Board::from_rows(&rows(&[&[1, 2], &[1]]), 0),
            Err(ShapeError::Ragged {
                row: 1,
                len: 1,
                expected: 2
            })
        );
        assert_eq!(
            Board::from_rows(&rows(&[&[1, 2], &[0, 2]]), 0),
            Err(ShapeError::Floating { row: 0, col: 0 })
        );
        assert_eq!(
            Board::from_rows(&rows(&[&[0, 2], &[0, 2]]), 0),
            Err(ShapeError::Gap { col: 0 })
        );
        assert!(Board::from_rows(&rows(&[&[0, 0], &[0, 0]]), 0).is_ok());
    }

    #[test]
    fn random_boards_use_every_allowed_colour_and_no_other() {
        let b = Board::random(15, 15, 5, 7);
        let counts = b.colour_counts();
        assert!((1..=5).all(|c| counts[c] > 0));
        assert!((6..=9).all(|c| counts[c] == 0));
        assert_eq!(b.blocks_left(), 225);
        assert_ne!(b, Board::random(15, 15, 5, 8));
        assert_eq!(b, Board::random(15, 15, 5, 7));
    }
}
