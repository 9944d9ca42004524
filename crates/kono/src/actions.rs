//! Integer actions for Four Field Kono.
//!
//! * An action is `from * 8 + direction * 2 + jump`: `from` the cell the piece
//!   leaves (`row * 4 + col`, row 0 the top rank), `direction` 0 up, 1 down,
//!   2 left, 3 right, `jump` 1 for a capture (two cells, over a friendly piece)
//!   and 0 for a step. 128 distinct actions under both rule sets.
//! * Observation: shape `[3, 4, 4]`: the observer's pieces, the other side's
//!   pieces, and a plane of ones when the observer is to move.
//! * Kono has no natural length bound: [`UNBOUNDED_GAME_PLIES`] (matches also
//!   end in a draw after too many plies without a capture).

use crate::{Kono, KonoMove, KonoState};
use tabula_core::actions::{move_with_id, set_at};
use tabula_core::{Actions, Seat, UNBOUNDED_GAME_PLIES};

impl Actions for Kono {
    fn num_distinct_actions(&self) -> usize {
        128
    }

    fn action_of(&self, _state: &KonoState, mv: KonoMove) -> usize {
        let (from, to) = (i32::from(mv.from), i32::from(mv.to));
        let (direction, jump) = match to - from {
            -4 => (0, 0),
            -8 => (0, 1),
            4 => (1, 0),
            8 => (1, 1),
            -1 => (2, 0),
            -2 => (2, 1),
            1 => (3, 0),
            _ => (3, 1),
        };
        usize::from(mv.from) * 8 + direction * 2 + jump
    }

    fn move_of(&self, state: &KonoState, action: usize) -> Option<KonoMove> {
        move_with_id(self, state, action)
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![3, 4, 4]
    }

    fn observation(&self, state: &KonoState, seat: Seat, out: &mut Vec<f32>) {
        out.clear();
        out.resize(48, 0.0);
        let (mine, theirs) = if seat == 0 {
            (state.top, state.bottom)
        } else {
            (state.bottom, state.top)
        };
        for cell in 0..16 {
            if mine >> cell & 1 == 1 {
                set_at(out, cell, 1.0);
            }
            if theirs >> cell & 1 == 1 {
                set_at(out, 16 + cell, 1.0);
            }
        }
        if usize::from(state.to_move) == seat {
            out[32..].fill(1.0);
        }
    }

    fn max_game_length(&self) -> usize {
        UNBOUNDED_GAME_PLIES
    }
}
