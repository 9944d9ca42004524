//! Integer actions for Hexapawn.
//!
//! * An action is `from * 3 + direction`: `from` the square index of the pawn
//!   that moves (0-based, row-major from the top left: the square numbered
//!   `from + 1`), `direction` 0 straight ahead, 1 a capture towards the lower
//!   column, 2 a capture towards the higher column (the side to move says which
//!   way ahead is). `3 * columns * rows` distinct actions: 27 on 3x3, 36 on 4x3.
//! * Observation: shape `[3, rows, columns]`: the observer's pawns, the other
//!   side's pawns, and a plane of ones when the observer is to move.
//! * A game lasts at most `2 * columns * (rows - 1)` plies: every ply moves a
//!   pawn one row forward.

use crate::{Hexapawn, Pawns, Step};
use tabula_core::actions::set_at;
use tabula_core::{Actions, Seat};

impl Actions for Hexapawn {
    fn num_distinct_actions(&self) -> usize {
        3 * usize::from(self.squares())
    }

    fn action_of(&self, _state: &Pawns, mv: Step) -> usize {
        let c = self.columns;
        let (from_col, to_col) = (mv.from % c, mv.to % c);
        let direction = match to_col.cmp(&from_col) {
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Greater => 2,
        };
        usize::from(mv.from) * 3 + direction
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![3, usize::from(self.rows), usize::from(self.columns)]
    }

    fn observation(&self, state: &Pawns, seat: Seat, out: &mut Vec<f32>) {
        let n = usize::from(self.squares());
        out.clear();
        out.resize(3 * n, 0.0);
        for i in 0..self.squares() {
            match state.at(i) {
                Some(s) if s == seat => set_at(out, usize::from(i), 1.0),
                Some(_) => set_at(out, n + usize::from(i), 1.0),
                None => {}
            }
        }
        if state.side_to_move() == seat {
            out[2 * n..].fill(1.0);
        }
    }

    fn max_game_length(&self) -> usize {
        2 * usize::from(self.columns) * usize::from(self.rows - 1)
    }
}
