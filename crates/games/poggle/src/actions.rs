//! Integer actions for Poggle.
//!
//! * An action is the button pressed, `row * size + col` (0-based, row 0 at the
//!   top; the notation writes `row,col` from 1). `size * size` distinct actions:
//!   25 on the usual 5x5 board.
//! * Observation: shape `[colours, size, size]`, one plane per colour with a one
//!   where a button shows it (boards too large to play: `[colours, 0, 0]`).
//! * Length: the order of presses does not matter and pressing a button `k`
//!   times changes nothing, so every position that can be solved is solved
//!   by pressing each button at most `k - 1` times: no useful sequence is
//!   longer than `(k - 1) * n^2` presses. Actual play ends unsolved after
//!   twice that ([`Poggle::press_limit`]: 50 presses on the usual 5x5 board
//!   of 2 colours), room for a person's way of solving by chasing the lights
//!   down the board, setting the top row and chasing again (under
//!   `2 * (k - 1) * n^2` presses), and at most [`UNBOUNDED_GAME_PLIES`]. It
//!   is the game's [`Actions::max_game_length`], and a game that reaches it
//!   is over ([`MatchRules`](tabula_core::MatchRules): no press is
//!   progress), not cut off. A game returns 1 when the board is solved (every
//!   button at colour 0), else 0.

use crate::{Poggle, PoggleState, Press, PLAY_LIMIT};
use tabula_core::actions::set_at;
use tabula_core::{Actions, Seat, UNBOUNDED_GAME_PLIES};

impl Poggle {
    /// The side of the board that is played (0 for boards too large to play).
    fn played_side(&self) -> usize {
        if self.size > PLAY_LIMIT {
            0
        } else {
            self.size
        }
    }

    /// Presses a game of actual play may take before it ends unsolved: twice
    /// the longest useful sequence, `2 * (k - 1) * n^2` (see the module's
    /// page), at least 1 and at most [`UNBOUNDED_GAME_PLIES`].
    pub fn press_limit(&self) -> u32 {
        let n = self.played_side() as u64;
        let most = 2 * u64::from(self.colours.saturating_sub(1)) * n * n;
        most.clamp(1, UNBOUNDED_GAME_PLIES as u64) as u32
    }
}

impl Actions for Poggle {
    fn num_distinct_actions(&self) -> usize {
        self.played_side().pow(2).max(1)
    }

    fn action_of(&self, _state: &PoggleState, mv: Press) -> usize {
        usize::from(mv.row) * self.size + usize::from(mv.col)
    }

    fn observation_shape(&self) -> Vec<usize> {
        let n = self.played_side();
        vec![self.colours as usize, n, n]
    }

    fn observation(&self, state: &PoggleState, _seat: Seat, out: &mut Vec<f32>) {
        let n = self.played_side() * self.played_side();
        out.clear();
        out.resize(self.colours as usize * n, 0.0);
        for (i, &c) in state.cells.iter().enumerate().take(n) {
            set_at(out, usize::from(c) * n + i, 1.0);
        }
    }

    fn max_game_length(&self) -> usize {
        self.press_limit() as usize
    }

    fn utility_range(&self) -> (f64, f64) {
        (0.0, 1.0)
    }
}
