//! The exact solver of the classic game (discs dropped, a line wins) on every
//! board the variants offer, the usual 7x6 included: the value and remoteness
//! of any position and of each of its moves.
//!
//! * [`board`]: the solver's bitboards, threats (cells that would complete a
//!   line) and the drops that do not hand the opponent a line at once.
//! * [`table`]: the transposition table.
//! * [`negamax`]: the search and the score, from which the remoteness follows.
//! * [`book`]: the opening book, exact scores of the first plies.
//! * [`building`]: how a book is made, resumably.
//! * [`cluster`]: the book in pieces, for a cluster to share out.
//! * [`oracle`]: the exact oracle the perfect player, hints and analysis read.
//!
//! The techniques are the published ones (John Tromp's bitboards; Pascal
//! Pons's account of a Connect Four solver: scores that count discs, null
//! windows, threat ordering); the code is Tabula's own.

pub mod board;
pub mod book;
pub mod building;
pub mod cluster;
pub mod negamax;
pub mod oracle;
pub mod report;
pub mod table;

pub use board::{Shape, SolverBoard};
pub use book::{Book, BookError};
pub use negamax::{remoteness, Limits, Solved, Solver};

use crate::board::Position;
use crate::ConnectFour;

impl ConnectFour {
    /// Whether the exact solver takes this variant: the classic rules in
    /// normal play (a line wins, discs are only dropped).
    pub fn solver_covers(&self) -> bool {
        !self.is_misere() && !self.is_popout()
    }

    /// Whether the exact solver, not the generic retrograde solver, answers
    /// for this variant: the classic rules on a board too large to solve
    /// whole.
    pub fn solver_answers(&self) -> bool {
        use tabula_core::ExactAnalysis;
        self.solver_covers() && !self.is_small()
    }

    /// The opening book of this board, where the crate ships one.
    pub fn book(&self) -> Option<std::sync::Arc<Book>> {
        oracle::classic_book().filter(|b| b.geometry() == self.geometry())
    }

    /// The solver's shape of this board.
    pub fn shape(&self) -> Shape {
        Shape::new(self.geometry())
    }
}

/// The solver's board of a position of the classic game; `None` when the
/// game there is already over (a line on the board).
pub fn solver_board(game: &ConnectFour, p: &Position) -> Option<SolverBoard> {
    let g = game.geometry();
    if g.has_line(p.discs(0)) || g.has_line(p.discs(1)) {
        return None;
    }
    Some(SolverBoard::from_position(p))
}
