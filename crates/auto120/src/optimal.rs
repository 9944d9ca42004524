//! The optimal player: the marker move with the highest exact probability of
//! winning, read from the solved table of [`crate::exact`].

use crate::exact::Solution;
use crate::state::{Move, State};
use crate::Auto120;
use std::sync::Arc;
use tabula_core::{Choice, Rng, Seat, Strategy};

/// Plays the move that maximises the exact win probability (ties: the lowest marker number).
#[derive(Clone)]
pub struct Optimal {
    solution: Arc<Solution>,
}

impl Optimal {
    /// The player for the variant `solution` solves.
    pub fn new(solution: Arc<Solution>) -> Optimal {
        Optimal { solution }
    }
}

impl std::fmt::Debug for Optimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Optimal({} markers)", self.solution.markers())
    }
}

impl Strategy<Auto120> for Optimal {
    fn choose(
        &mut self,
        _game: &Auto120,
        state: &State,
        _seat: Seat,
        _rng: &mut Rng,
    ) -> Option<Choice<Move>> {
        let (m, p) = *self.solution.move_values(state).first()?;
        Some(Choice::because(
            Move::Marker(m),
            format!("optimal ({:.1}% to win)", 100.0 * p),
        ))
    }
}
