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
//!   by default), and after [`Northcott::no_progress_plies`] plies in a row in
//!   which the total of the gaps comes to no new low (`progress=on`, the
//!   default). The total starts at most at `rows * (cols - 2)` and each new
//!   low lowers it, so a game lasts at most `(rows * (cols - 2) + 1) *
//!   no_progress_plies` plies (7,296 on the usual board), or the board's
//!   positions times `repetition - 1` ([`draw_rule_length`]), the smaller;
//!   with both rules off only [`tabula_core::UNBOUNDED_GAME_PLIES`] ends a
//!   game, cut off.

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
        // Each progress ply brings the total of the gaps to a new low.
        let most_gaps = (self.ny() * (self.nx() - 2)) as u64;
        draw_rule_length(
            self.play_draw_rule(),
            Some(self.position_count()),
            Some(most_gaps),
        )
    }
}
