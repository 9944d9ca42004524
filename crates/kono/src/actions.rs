//! Integer actions for Four Field Kono.
//!
//! * An action is `from * 4 + direction`: `from` the cell the piece leaves
//!   (`row * 4 + col`, row 0 the top rank), `direction` 0 up, 1 down, 2 left,
//!   3 right. 64 distinct actions under both rule sets. A step and a capture
//!   never share an id: a step needs the next cell empty, a capture jumps over a
//!   friendly piece there, so at most one of them is legal.
//! * Observation: shape `[3, 4, 4]`: the observer's pieces, the other side's
//!   pieces, and a plane of ones when the observer is to move.
//! * Kono has no natural length bound: [`UNBOUNDED_GAME_PLIES`] (matches also
//!   end in a draw after too many plies without a capture).

use crate::{Kono, KonoMove, KonoState};
use tabula_core::actions::{move_with_id, set_at};
use tabula_core::{Actions, Seat, UNBOUNDED_GAME_PLIES};

impl Actions for Kono {
    fn num_distinct_actions(&self) -> usize {
        64
    }

    fn action_of(&self, _state: &KonoState, mv: KonoMove) -> usize {
        let (from, to) = (i32::from(mv.from), i32::from(mv.to));
        let direction = match to - from {
            -4 | -8 => 0,
            4 | 8 => 1,
            -1 | -2 => 2,
            _ => 3,
        };
        usize::from(mv.from) * 4 + direction
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
