//! Integer actions for Northcott's game.
//!
//! * An action is `row * cols + to`: the row of the piece that moves and the
//!   column it goes to (both 0-based; the notation writes them from 1); the side
//!   to move says whose piece. `rows * cols` distinct actions: 64 on the usual
//!   16x4 board. Set-up moves (corrections of the other side's piece) are never
//!   legal in play and have no id of their own.
//! * Observation: shape `[3, rows, cols]`: the observer's pieces, the other
//!   side's pieces, and a plane of ones when the observer is to move.
//! * Northcott's game has no natural length bound (a side may retreat for
//!   ever); actual play is drawn when a position occurs `repetition` times (3
//!   by default): at most the board's positions times `repetition - 1` plies
//!   ([`draw_rule_length`]), which beyond the smallest boards is more than
//!   [`tabula_core::UNBOUNDED_GAME_PLIES`], where a game is cut off; with
//!   `repetition=0` only that bound ends a game.

use crate::{Northcott, NorthcottMove, NorthcottState};
use tabula_core::actions::set_at;
use tabula_core::{draw_rule_length, Actions, MatchRules, Seat};

impl Actions for Northcott {
    fn num_distinct_actions(&self) -> usize {
        self.ny() * self.nx()
    }

    fn action_of(&self, _state: &NorthcottState, mv: NorthcottMove) -> usize {
        usize::from(mv.row) * self.nx() + usize::from(mv.to)
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![3, self.ny(), self.nx()]
    }

    fn observation(&self, state: &NorthcottState, seat: Seat, out: &mut Vec<f32>) {
        let (rows, cols) = (self.ny(), self.nx());
        let n = rows * cols;
        out.clear();
        out.resize(3 * n, 0.0);
        let (mine, theirs) = if seat == 0 {
            (&state.o, &state.x)
        } else {
            (&state.x, &state.o)
        };
        for r in 0..rows {
            let (m, t) = (usize::from(mine[r]), usize::from(theirs[r]));
            if m < cols {
                set_at(out, r * cols + m, 1.0);
            }
            if t < cols {
                set_at(out, n + r * cols + t, 1.0);
            }
        }
        if usize::from(state.mover) == seat {
            out[2 * n..].fill(1.0);
        }
    }

    fn max_game_length(&self) -> usize {
        draw_rule_length(self.play_draw_rule(), Some(self.position_count()), None)
    }
}
