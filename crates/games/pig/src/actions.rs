//! Integer actions for Pig.
//!
//! * Decisions: 0 roll, 1 hold (2 distinct actions).
//! * Chance outcomes (ids of their own, as OpenSpiel's chance player has): with
//!   one die, the face minus one (0-5); with two dice, the pair `a <= b` in the
//!   order `(1,1), (1,2) .. (1,6), (2,2) .. (6,6)` (0-20); the draw for the first
//!   player (`start=random`) is the seat drawn (0 or 1). At most 6 outcomes with
//!   one die, 21 with two.
//! * Observation: shape `[6]`: the observer's banked score, the other side's and
//!   the turn total, each divided by the goal; then 1 when the observer is the
//!   side whose turn it is, 1 while the dice are rolling, 1 before the draw for
//!   the first player.
//! * Pig has no natural length bound (a player may roll ones for ever):
//!   a game is cut off, with no result, at [`UNBOUNDED_GAME_PLIES`].

use crate::{Move, Pig, State};
use tabula_core::{Actions, Seat, UNBOUNDED_GAME_PLIES};

/// The index of the pair `a <= b` among the 21 unordered throws of two dice.
fn pair_index(a: u8, b: u8) -> usize {
    let (a, b) = (
        usize::from(a.min(b).clamp(1, 6)),
        usize::from(a.max(b).clamp(1, 6)),
    );
    // The pairs before (a, a): 6 + 5 + .. for each smaller first die.
    (a - 1) * (14 - a) / 2 + (b - a)
}

impl Actions for Pig {
    fn num_distinct_actions(&self) -> usize {
        2
    }

    fn action_of(&self, _state: &State, mv: Move) -> usize {
        match mv {
            Move::Roll => 0,
            Move::Hold => 1,
            Move::Die(d) => usize::from(d.clamp(1, 6)) - 1,
            Move::Dice(a, b) => pair_index(a, b),
            Move::Starter(s) => usize::from(s),
        }
    }

    fn max_chance_outcomes(&self) -> usize {
        if self.dice() == 2 {
            21
        } else {
            6
        }
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![6]
    }

    fn observation(&self, state: &State, seat: Seat, out: &mut Vec<f32>) {
        let goal = f32::from(self.goal().max(1));
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        out.clear();
        out.extend([
            f32::from(state.scores[seat & 1]) / goal,
            f32::from(state.scores[1 - (seat & 1)]) / goal,
            f32::from(state.turn_total) / goal,
            flag(state.side() == Some(seat)),
            flag(state.rolling),
            flag(state.side().is_none()),
        ]);
    }

    fn max_game_length(&self) -> usize {
        UNBOUNDED_GAME_PLIES
    }
}

#[cfg(test)]
mod tests {
    use super::pair_index;

    #[test]
    fn pairs_of_dice_have_the_ids_0_to_20_in_order() {
        let mut ids = Vec::new();
        for a in 1..=6 {
            for b in a..=6 {
                ids.push(pair_index(a, b));
            }
        }
        assert_eq!(ids, (0..21).collect::<Vec<_>>());
    }
}
