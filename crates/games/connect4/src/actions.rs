//! Integer actions and observations, laid out exactly as OpenSpiel's
//! `connect_four` (with its parameters `columns`, `rows` and `x_in_row` for the
//! other boards), so that the classic game is position for position the same
//! game there and here.
//!
//! * A drop into column `c` (0-based, 0 at the left) is action `c`: `width`
//!   distinct actions. Pop Out, which OpenSpiel does not have, adds a pop of
//!   column `c` as action `width + c`.
//! * Observation: shape `[3, height, width]`, three planes over the board:
//!   Red's discs (OpenSpiel's `x`, player 0), Yellow's discs (`o`, player 1),
//!   the empty cells. Within a plane, cell `(row, column)` is at
//!   `row * width + column` with row 0 at the **bottom**. As OpenSpiel's
//!   default (`egocentric_obs_tensor=false`), the planes do not depend on who
//!   observes. Pop Out adds a fourth plane, all ones when Yellow is to move (a
//!   pop changes the counts, so they no longer tell whose turn it is).
//! * A classic game lasts at most `width * height` plies; Pop Out lasts as
//!   long as its threefold repetition allows, at most the engine's cap.

use crate::board::Position;
use crate::{ConnectFour, Move};
use tabula_core::actions::set_at;
use tabula_core::play_rules::draw_rule_length;
use tabula_core::{Actions, Game, MatchRules, Seat, Turn};

impl ConnectFour {
    /// Planes of the observation: three, four in Pop Out.
    fn planes(&self) -> usize {
        if self.is_popout() {
            4
        } else {
            3
        }
    }
}

impl Actions for ConnectFour {
    fn num_distinct_actions(&self) -> usize {
        let width = usize::from(self.geometry().width());
        if self.is_popout() {
            2 * width
        } else {
            width
        }
    }

    fn action_of(&self, _state: &Position, mv: Move) -> usize {
        let width = usize::from(self.geometry().width());
        match mv {
            Move::Drop(c) => usize::from(c),
            Move::Pop(c) => width + usize::from(c),
        }
    }

    /// Decoded at once (a drop into a column with room, a pop where the side
    /// to move may pop, while the game goes on) rather than looked for among
    /// the legal moves: OpenSpiel's searches apply an action by id at every step.
    fn move_of(&self, state: &Position, action: usize) -> Option<Move> {
        if !matches!(self.turn(state), Turn::Move(_)) {
            return None;
        }
        let width = usize::from(self.geometry().width());
        let column = u8::try_from(action.checked_rem(width)?).ok()?;
        if action < width {
            self.has_room(state, column).then_some(Move::Drop(column))
        } else if action < 2 * width {
            self.may_pop(state, column).then_some(Move::Pop(column))
        } else {
            None
        }
    }

    fn observation_shape(&self) -> Vec<usize> {
        let g = self.geometry();
        vec![
            self.planes(),
            usize::from(g.height()),
            usize::from(g.width()),
        ]
    }

    fn observation(&self, state: &Position, _seat: Seat, out: &mut Vec<f32>) {
        let g = self.geometry();
        let (w, h) = (usize::from(g.width()), usize::from(g.height()));
        let plane = w * h;
        out.clear();
        out.resize(self.planes() * plane, 0.0);
        for row in 0..g.height() {
            for c in 0..g.width() {
                let which = state.at(g, c, row).unwrap_or(2);
                set_at(
                    out,
                    which * plane + usize::from(row) * w + usize::from(c),
                    1.0,
                );
            }
        }
        if self.is_popout() && state.to_move() == 1 {
            out[3 * plane..].fill(1.0);
        }
    }

    fn max_game_length(&self) -> usize {
        if self.is_popout() {
            // Each position at most twice before the third time draws.
            draw_rule_length(
                self.play_draw_rule(),
                Some(self.positions_from_start()),
                None,
            )
        } else {
            self.geometry().cells() as usize
        }
    }
}
