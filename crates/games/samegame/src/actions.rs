//! Integer actions for SameGame.
//!
//! * A move removes a group, named by its canonical block (the lowest block of
//!   the group's leftmost column, as the notation writes it); the action is that
//!   block's cell, `row * width + col` (row 0 at the top). `width * height`
//!   distinct actions: 225 on the usual 15x15 board.
//! * Observation: shape `[colours, height, width]`, one plane per colour with a
//!   one where a block of that colour stands.
//! * Every move removes at least two blocks: a game lasts at most
//!   `width * height / 2` plies. Returns are the points scored, as OpenSpiel's
//!   rewards; the utility range runs from 0 to the points of removing the whole
//!   board as one group (a bound no game exceeds).
//!
//! A position read from text fits only if it has the variant's size and
//! colours ([`Actions::state_fits`]).

use crate::{Board, Click, SameGame};
use tabula_core::actions::set_at;
use tabula_core::{Actions, Seat};

impl Actions for SameGame {
    fn num_distinct_actions(&self) -> usize {
        (self.width * self.height).max(1)
    }

    fn action_of(&self, _state: &Board, mv: Click) -> usize {
        usize::from(mv.row) * self.width + usize::from(mv.col)
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![usize::from(self.colours), self.height, self.width]
    }

    fn observation(&self, state: &Board, _seat: Seat, out: &mut Vec<f32>) {
        let n = self.width * self.height;
        out.clear();
        out.resize(usize::from(self.colours) * n, 0.0);
        for r in 0..self.height.min(state.height()) {
            for c in 0..self.width.min(state.width()) {
                let colour = usize::from(state.colour(r, c));
                if colour > 0 {
                    set_at(out, (colour - 1) * n + r * self.width + c, 1.0);
                }
            }
        }
    }

    fn max_game_length(&self) -> usize {
        self.width * self.height / 2
    }

    fn utility_range(&self) -> (f64, f64) {
        let all = self.width * self.height;
        let most = self.scoring.group(all) + self.scoring.clear_bonus();
        (0.0, most as f64)
    }

    fn state_fits(&self, state: &Board) -> Result<(), String> {
        if state.width() != self.width || state.height() != self.height {
            return Err(format!(
                "the board is {} x {}, this game's {} x {}",
                state.width(),
                state.height(),
                self.width,
                self.height
            ));
        }
        if state.max_colour() > self.colours {
            return Err(format!(
                "the board has colour {}, this game only {} colours",
                state.max_colour(),
                self.colours
            ));
        }
        Ok(())
    }
}
