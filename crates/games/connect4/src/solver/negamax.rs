//! The exact search: negamax with alpha-beta on the score, null-window probes
//! that pin the exact score down, a transposition table, threats first.
//!
//! The score of a position, for the side to move, says who wins and when: a
//! win with the mover's `k`-th disc from now scores `M - k + 1`, where `M` is
//! how many discs the mover has left to play; a loss to the opponent's
//! `k`-th disc scores `-(N - k + 1)`, `N` the opponent's discs left; a draw
//! scores 0. So the winner prefers a quicker win and the loser a slower loss,
//! and the remoteness (plies to the end under best play) follows from the
//! score ([`remoteness`]).

use super::board::{Shape, SolverBoard};
use super::book::Book;
use super::table::{Bound, Table};
use std::sync::Arc;
use std::time::Instant;
use tabula_core::{CancelFlag, Graded, Value};

/// Score and remoteness of a position with `discs` discs down on a board of
/// `cells` cells: `(value for the mover, plies to the end)`.
pub fn remoteness(score: i32, discs: u32, cells: u32) -> Graded {
    let left = (cells - discs) as i32;
    let mover_discs = (left + 1) / 2;
    let other_discs = left / 2;
    if score > 0 {
        let k = mover_discs - score + 1;
        Graded {
            value: Value::Win,
            remoteness: (2 * k - 1) as u32,
        }
    } else if score < 0 {
        let k = other_discs + score + 1;
        Graded {
            value: Value::Loss,
            remoteness: (2 * k) as u32,
        }
    } else {
        Graded {
            value: Value::Draw,
            remoteness: 0,
        }
    }
}

/// What a solve found: the exact score, or (stopped by its deadline or a
/// cancel) the bounds it proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solved {
    /// The exact score.
    Exact(i32),
    /// The score lies within `low..=high`; nothing more was proved in time.
    Bounds {
        /// The least the score can be.
        low: i32,
        /// The most the score can be.
        high: i32,
    },
}

/// When a search must stop.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop when this is cancelled.
    pub cancel: Option<CancelFlag>,
}

/// How often (in positions) the clock and the cancel flag are read.
const CHECK_EVERY: u64 = 1 << 12;

/// The exact solver of one board size, with its table.
pub struct Solver {
    pub(crate) shape: Shape,
    table: Table,
    book: Option<Arc<Book>>,
    /// Columns from the centre outwards: the order ties are broken in.
    order: Vec<u8>,
    nodes: u64,
    limits: Limits,
    stopped: bool,
}

impl Solver {
    /// A solver for `shape` with a table of `entries` entries and, where the
    /// board has one, an opening book.
    pub fn new(shape: Shape, entries: usize, book: Option<Arc<Book>>) -> Solver {
        let w = i32::from(shape.width());
        let mut order: Vec<u8> = (0..shape.width()).collect();
        order.sort_by_key(|&c| ((2 * i32::from(c) - (w - 1)).abs(), c));
        Solver {
            shape,
            table: Table::new(entries),
            book,
            order,
            nodes: 0,
            limits: Limits::default(),
            stopped: false,
        }
    }

    /// Bytes its table holds.
    pub fn table_bytes(&self) -> u64 {
        self.table.bytes()
    }

    /// Positions visited since it was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets what the table holds.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The score of `b` for the side to move, exact unless `limits` stopped
    /// the search first. `b` must be a position of the game in play: no line
    /// on the board.
    pub fn solve(&mut self, b: &SolverBoard, limits: Limits) -> Solved {
        self.limits = limits;
        self.stopped = false;
        let cells = self.shape.cell_count as i32;
        let n = b.discs as i32;
        if n >= cells {
            return Solved::Exact(0);
        }
        if b.can_win_now(&self.shape) {
            return Solved::Exact(b.win_now_score(&self.shape));
        }
        if let Some(score) = self.book_score(b) {
            return Solved::Exact(score);
        }
        let mut low = -(cells - n) / 2;
        let mut high = (cells + 1 - n) / 2;
        while low < high {
            // Probe near zero first (most positions are close to even), then
            // halve the interval.
            let mut probe = low + (high - low) / 2;
            if probe <= 0 && low / 2 < probe {
                probe = low / 2;
            } else if probe >= 0 && high / 2 > probe {
                probe = high / 2;
            }
            let r = self.negamax(b, probe, probe + 1);
            if self.stopped {
                return Solved::Bounds { low, high };
            }
            if r <= probe {
                high = r;
            } else {
                low = r;
            }
        }
        Solved::Exact(low)
    }

    /// Whether the solve must stop now (read every few thousand positions).
    #[inline]
    fn must_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes % CHECK_EVERY == 0 {
            let late = self.limits.deadline.is_some_and(|d| Instant::now() >= d);
            let cancelled = self
                .limits
                .cancel
                .as_ref()
                .is_some_and(|c| c.is_cancelled());
            self.stopped = late || cancelled;
        }
        self.stopped
    }

    fn book_score(&self, b: &SolverBoard) -> Option<i32> {
        let book = self.book.as_ref()?;
        if b.discs > book.depth() {
            return None;
        }
        book.score(b.canonical_key(&self.shape))
    }

    /// The score of `b` within the window `alpha..beta`: exact inside it, an
    /// upper bound at or below `alpha`, a lower bound at or above `beta`.
    /// The mover cannot complete a line with the next disc.
    fn negamax(&mut self, b: &SolverBoard, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.must_stop() {
            return 0;
        }
        let shape = self.shape;
        let cells = shape.cell_count as i32;
        let n = b.discs as i32;
        let next = b.non_losing_drops(&shape);
        if next == 0 {
            // Every drop lets the opponent line up at once.
            return -(cells - n) / 2;
        }
        if n >= cells - 2 {
            // Two cells left and neither side can complete a line with them.
            return 0;
        }
        // The opponent cannot win with their next disc, so the mover lasts
        // at least until the opponent's second.
        let min = -(cells - 2 - n) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        // The mover cannot win with this disc, only with a later one.
        let mut max = (cells - 1 - n) / 2;
        let key = b.key(&shape);
        match self.table.get(key) {
            Some(Bound::Upper(v)) => max = max.min(v),
            Some(Bound::Lower(v)) if alpha < v => {
                alpha = v;
                if alpha >= beta {
                    return alpha;
                }
            }
            _ => {}
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        if let Some(score) = self.book_score(b) {
            return score;
        }

        // Threats first: the drops that leave the mover the most cells that
        // would complete a line, ties from the centre outwards.
        let mut moves = [(0u64, 0u32); 8];
        let mut count = 0;
        for &c in &self.order {
            let cell = next & shape.column(c);
            if cell == 0 {
                continue;
            }
            let score = b.threats_after(&shape, cell);
            let mut i = count;
            while i > 0 && moves[i - 1].1 < score {
                moves[i] = moves[i - 1];
                i -= 1;
            }
            moves[i] = (cell, score);
            count += 1;
        }

        for &(cell, _) in &moves[..count] {
            let mut child = *b;
            child.play_cell(cell);
            let score = -self.negamax(&child, -beta, -alpha);
            if self.stopped {
                return 0;
            }
            if score >= beta {
                self.table.put(key, Bound::Lower(score));
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        self.table.put(key, Bound::Upper(alpha));
        alpha
    }
}
