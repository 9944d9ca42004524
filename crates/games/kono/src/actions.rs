//! Integer actions for Four Field Kono.
//!
//! * An action is `from * 4 + direction`: `from` the cell the piece leaves
//!   (`row * 4 + col`, row 0 the top rank), `direction` 0 up, 1 down, 2 left,
//!   3 right. 64 distinct actions under both rule sets. A step and a capture
//!   never share an id: a step needs the next cell empty, a capture jumps over a
//!   friendly piece there, so at most one of them is legal.
//! * Observation: shape `[3, 4, 4]`: the observer's pieces, the other side's
//!   pieces, and a plane of ones when the observer is to move.
//! * Kono has no natural length bound, but actual play is drawn after
//!   `nocapture` plies in a row without a capture (150 by default): with at
//!   most 16 captures in a game (every one takes a piece off the board), a game
//!   lasts at most 17 * 150 = 2,550 plies ([`draw_rule_length`]). With
//!   `nocapture=0` only the third repetition ends it, which allows more than
//!   [`tabula_core::UNBOUNDED_GAME_PLIES`]: such a game is cut off there.

use crate::{Kono, KonoMove, KonoState};
use tabula_core::actions::set_at;
use tabula_core::{draw_rule_length, Actions, MatchRules, Seat};

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
        // Positions: each of the 16 cells empty or holding either side's
        // piece, either side to move.
        let positions = 2 * 3u64.pow(16);
        draw_rule_length(self.play_draw_rule(), Some(positions), Some(16))
    }
}
