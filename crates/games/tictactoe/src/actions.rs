//! Integer actions for Tic-tac-toe, OpenSpiel's own encoding.
//!
//! * An action is the square index `row * 3 + col` (0-8, row 0 at the top): the
//!   square numbered `id + 1` in the notation. 9 distinct actions.
//! * Observation: shape `[3, 3, 3]`, three planes over the board: the observer's
//!   marks, the other side's marks, the empty squares.
//! * A game lasts at most 9 plies.

use crate::{has_line, Board, Square, TicTacToe};
use tabula_core::actions::set_at;
use tabula_core::{Actions, Seat};

impl Actions for TicTacToe {
    fn num_distinct_actions(&self) -> usize {
        9
    }

    fn action_of(&self, _state: &Board, mv: Square) -> usize {
        usize::from(mv.0)
    }

    /// Decoded at once (an empty square while no side has a line) rather than
    /// looked for among the legal moves: OpenSpiel's searches apply an action
    /// by id at every step.
    fn move_of(&self, state: &Board, action: usize) -> Option<Square> {
        let square = u8::try_from(action).ok().filter(|&i| i < 9)?;
        let empty = !(state.x | state.o) & (1 << square) != 0;
        let over = has_line(state.x) || has_line(state.o);
        (empty && !over).then_some(Square(square))
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![3, 3, 3]
    }

    fn observation(&self, state: &Board, seat: Seat, out: &mut Vec<f32>) {
        out.clear();
        out.resize(27, 0.0);
        for i in 0..9u8 {
            let plane = match state.at(i) {
                Some(s) if s == seat => 0,
                Some(_) => 1,
                None => 2,
            };
            set_at(out, plane * 9 + usize::from(i), 1.0);
        }
    }

    fn max_game_length(&self) -> usize {
        9
    }
}
