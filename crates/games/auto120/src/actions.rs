//! Integer actions for Multiplication Ludo (Auto120).
//!
//! * Decisions: the marker moved by the pending roll, 0-3 (written 1-4); as many
//!   distinct actions as markers per player (4 by default).
//! * Chance outcomes (ids of their own, as OpenSpiel's chance player has): a roll
//!   is its face minus one (0-5); the draw for the first player is the seat drawn
//!   (0 or 1). At most 6 outcomes.
//! * Observation: shape `[2 * markers * 120 + 7]`: for the observer's markers,
//!   then the other side's, a one-hot of the square (1-120) each stands on; then
//!   the pending roll one-hot (faces 1-6, all zero while the die is to be rolled);
//!   then 1 when the observer is the side whose turn it is.
//! * A marker can blow out back to square 1, so there is no natural length
//!   bound and no draw rule: a game is cut off, with no result, at
//!   [`UNBOUNDED_GAME_PLIES`].

use crate::board::TARGET;
use crate::{Auto120, Move, State};
use tabula_core::actions::set_at;
use tabula_core::{Actions, Seat, UNBOUNDED_GAME_PLIES};

const SQUARES: usize = TARGET as usize;

impl Actions for Auto120 {
    fn num_distinct_actions(&self) -> usize {
        self.markers()
    }

    fn action_of(&self, _state: &State, mv: Move) -> usize {
        match mv {
            Move::Marker(m) => usize::from(m),
            Move::Roll(r) => usize::from(r.clamp(1, 6)) - 1,
            Move::Starter(s) => usize::from(s),
        }
    }

    fn max_chance_outcomes(&self) -> usize {
        6
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![2 * self.markers() * SQUARES + 7]
    }

    fn observation(&self, state: &State, seat: Seat, out: &mut Vec<f32>) {
        let n = self.markers();
        out.clear();
        out.resize(2 * n * SQUARES + 7, 0.0);
        for (k, side) in [seat & 1, 1 - (seat & 1)].into_iter().enumerate() {
            for (m, &square) in state.markers(side).iter().take(n).enumerate() {
                if (1..=TARGET).contains(&square) {
                    set_at(out, (k * n + m) * SQUARES + usize::from(square) - 1, 1.0);
                }
            }
        }
        let tail = 2 * n * SQUARES;
        if let Some(r) = state.pending_roll() {
            set_at(out, tail + usize::from(r.clamp(1, 6)) - 1, 1.0);
        }
        if state.side() == Some(seat) {
            set_at(out, tail + 6, 1.0);
        }
    }

    fn max_game_length(&self) -> usize {
        UNBOUNDED_GAME_PLIES
    }
}
