//! Integer actions for Nim.
//!
//! * With `m` the largest heap of the variant's start (at least 1), an action is
//!   `heap * m + (take - 1)`: the heap (0-based; written from 1) and how many
//!   counters are taken from it. `heaps * m` distinct actions: 15 for 3-4-5,
//!   9 for 1-2-3.
//! * Observation: shape `[heaps + 1, m + 1]`: one row per heap with a one at its
//!   size, then a row whose first number is 1 when the observer is to move.
//! * A game lasts at most as many plies as the start has counters (every move
//!   takes at least one).
//!
//! A position read from text fits only if it has the start's number of heaps,
//! none larger than at the start ([`Actions::state_fits`]): a position that can
//! arise in this variant.

use crate::{Nim, NimMove, NimState};
use tabula_core::actions::set_at;
use tabula_core::{Actions, Seat};

impl Nim {
    /// The largest heap of the start (at least 1): the stride of the action ids.
    fn action_stride(&self) -> usize {
        self.start.iter().copied().max().unwrap_or(0).max(1) as usize
    }
}

impl Actions for Nim {
    fn num_distinct_actions(&self) -> usize {
        self.start.len().max(1) * self.action_stride()
    }

    fn action_of(&self, state: &NimState, mv: NimMove) -> usize {
        let from = state.heaps.get(usize::from(mv.heap)).copied().unwrap_or(0);
        let take = from.saturating_sub(mv.to).max(1) as usize;
        usize::from(mv.heap) * self.action_stride() + take - 1
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![self.start.len() + 1, self.action_stride() + 1]
    }

    fn observation(&self, state: &NimState, seat: Seat, out: &mut Vec<f32>) {
        let width = self.action_stride() + 1;
        out.clear();
        out.resize((self.start.len() + 1) * width, 0.0);
        for (i, &h) in state.heaps.iter().enumerate().take(self.start.len()) {
            if (h as usize) < width {
                set_at(out, i * width + h as usize, 1.0);
            }
        }
        if usize::from(state.mover) == seat {
            set_at(out, self.start.len() * width, 1.0);
        }
    }

    fn max_game_length(&self) -> usize {
        self.start.iter().map(|&h| h as usize).sum()
    }

    fn state_fits(&self, state: &NimState) -> Result<(), String> {
        if state.heaps.len() != self.start.len() {
            return Err(format!(
                "this game has {} heaps, the position {}",
                self.start.len(),
                state.heaps.len()
            ));
        }
        if let Some(i) = (0..state.heaps.len()).find(|&i| state.heaps[i] > self.start[i]) {
            return Err(format!(
                "heap {} has {} counters, more than the {} this game starts with",
                i + 1,
                state.heaps[i],
                self.start[i]
            ));
        }
        Ok(())
    }
}
