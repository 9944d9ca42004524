//! The opening book in pieces, for a cluster to share out
//! ([`tabula_core::OpeningBookWork`]): the positions of a ply, mirror images
//! once; a batch of them solved against the book of the deeper plies; and
//! the entries put together in the book's file.
//!
//! Positions cross as the game's notation, so a piece can be checked and
//! read on any machine. Solving deepest first with each shallower ply reading
//! the deeper ones (as [`super::building::build_book`] does) is only a matter
//! of speed: every score is exact, so the file is the one the single-machine
//! command writes.

use super::board::{Shape, SolverBoard};
use super::book::Book;
use super::building::positions_at;
use super::negamax::{Limits, Solved, Solver};
use super::table::{FULL_ENTRIES, SMALL_ENTRIES};
use crate::board::Position;
use crate::ConnectFour;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula_core::{Notation, OpeningBookWork, WorkError};

/// Boards of at most this many cells solve with the small table.
const SMALL_BOARD_CELLS: u32 = 30;

/// The book work of one board of the classic game.
pub struct BookWork {
    game: ConnectFour,
    shape: Shape,
}

impl BookWork {
    /// The book work of `game`'s board, when the exact solver covers its rules.
    pub fn new(game: &ConnectFour) -> Option<BookWork> {
        game.solver_covers().then(|| BookWork {
            game: *game,
            shape: game.shape(),
        })
    }

    /// `b` in the game's notation.
    fn position_text(&self, b: &SolverBoard) -> String {
        let other = b.occupied ^ b.mover;
        // Red (seat 0) moves when the discs are even.
        let position = if b.discs % 2 == 0 {
            Position::from_parts(b.mover, other, 0)
        } else {
            Position::from_parts(other, b.mover, 1)
        };
        self.game.format_position(&position)
    }

    /// The solver's board of a position written in the game's notation.
    fn read_position(&self, text: &str) -> Result<SolverBoard, WorkError> {
        let p = self.game.parse_position(text).map_err(|e| {
            WorkError::BadInput(format!("the position '{text}' does not read: {e}"))
        })?;
        super::solver_board(&self.game, &p).ok_or_else(|| {
            WorkError::BadInput(format!("the game is already over in the position '{text}'"))
        })
    }
}

impl OpeningBookWork for BookWork {
    fn max_plies(&self) -> u32 {
        self.shape.cell_count
    }

    fn positions(&self, plies: u32) -> Result<Vec<(u64, String)>, WorkError> {
        if plies > self.max_plies() {
            return Err(WorkError::BadInput(format!(
                "this board has {} cells: a book goes at most {} plies deep",
                self.max_plies(),
                self.max_plies()
            )));
        }
        Ok(positions_at(self.game.geometry(), plies)
            .into_iter()
            .map(|(key, b)| (key, self.position_text(&b)))
            .collect())
    }

    fn solve(
        &self,
        positions: &[String],
        deeper: &[u8],
        seconds: Option<f64>,
    ) -> Result<Vec<(u64, i32)>, WorkError> {
        let boards = positions
            .iter()
            .map(|t| self.read_position(t))
            .collect::<Result<Vec<_>, _>>()?;
        let book = if deeper.is_empty() {
            None
        } else {
            let book = Book::read(deeper)
                .map_err(|e| WorkError::BadInput(format!("the deeper plies' book: {e}")))?;
            if book.geometry() != self.game.geometry() {
                return Err(WorkError::BadInput(
                    "the deeper plies' book is for another board".to_string(),
                ));
            }
            Some(Arc::new(book))
        };
        let deadline = match seconds {
            Some(s) if !(s.is_finite() && s >= 0.0) => {
                return Err(WorkError::BadInput(format!(
                    "the time must be a number of seconds, 0 or more (got {s})"
                )))
            }
            Some(s) => Some(Instant::now() + Duration::from_secs_f64(s.min(1e9))),
            None => None,
        };
        let entries = if self.shape.cell_count > SMALL_BOARD_CELLS {
            FULL_ENTRIES
        } else {
            SMALL_ENTRIES
        };
        // One table for the batch: its bounds are exact for any position.
        let mut solver = Solver::new(self.shape, entries, book);
        let mut out = Vec::with_capacity(boards.len());
        for b in &boards {
            let limits = Limits {
                deadline,
                cancel: None,
            };
            match solver.solve(b, limits) {
                Solved::Exact(score) => out.push((b.canonical_key(&self.shape), score)),
                Solved::Bounds { .. } => return Err(WorkError::OutOfTime),
            }
        }
        Ok(out)
    }

    fn assemble(&self, depth: u32, entries: &[(u64, i32)]) -> Result<Vec<u8>, WorkError> {
        if depth > self.max_plies() {
            return Err(WorkError::BadInput(format!(
                "a book of this board goes at most {} plies deep",
                self.max_plies()
            )));
        }
        let entries = entries
            .iter()
            .map(|&(key, score)| {
                i8::try_from(score)
                    .map(|s| (key, s))
                    .map_err(|_| WorkError::BadInput(format!("{score} is not a book's score")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Book::from_entries(self.game.geometry(), depth, entries).to_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::building::build_book;
    use crate::Geometry;
    use tabula_core::{Registered, Variant};

    fn small_game() -> ConnectFour {
        ConnectFour::from_variant(&Variant::parse("width=4,height=4").unwrap()).unwrap()
    }

    #[test]
    fn pieces_put_together_give_the_single_machine_book() {
        let game = small_game();
        let work = BookWork::new(&game).unwrap();
        let depth = 3;
        let mut entries = Vec::new();
        for plies in (0..=depth).rev() {
            let deeper = work.assemble(depth, &entries).unwrap();
            let texts: Vec<String> = work
                .positions(plies)
                .unwrap()
                .into_iter()
                .map(|(_, t)| t)
                .collect();
            entries.extend(work.solve(&texts, &deeper, None).unwrap());
        }
        let pieces = work.assemble(depth, &entries).unwrap();
        let dir = std::env::temp_dir().join(format!("c4-cluster-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        let whole = build_book(
            Geometry::new(4, 4, 4).unwrap(),
            depth,
            &dir,
            &Limits::default(),
            &|_| {},
        )
        .unwrap();
        let _ = std::fs::remove_file(&dir);
        assert_eq!(pieces, whole.to_bytes());
    }

    #[test]
    fn positions_read_back_as_the_boards_they_came_from() {
        let work = BookWork::new(&small_game()).unwrap();
        for (key, text) in work.positions(4).unwrap() {
            let b = work.read_position(&text).unwrap();
            assert_eq!(b.canonical_key(&work.shape), key);
        }
    }

    #[test]
    fn bad_pieces_are_refused_in_words() {
        let work = BookWork::new(&small_game()).unwrap();
        assert!(matches!(
            work.solve(&["nonsense".to_string()], &[], None),
            Err(WorkError::BadInput(_))
        ));
        assert!(matches!(
            work.solve(&[], b"not a book", None),
            Err(WorkError::BadInput(_))
        ));
        assert!(work.positions(99).is_err());
        assert!(work.assemble(3, &[(1, 999)]).is_err());
    }
}
