//! The optimal player: the marker move with the highest exact probability of
//! winning, read from the solved table of [`crate::exact`].
//!
//! The table is built on first use, on a thread of its own: with 3 markers that
//! takes about a minute, longer than a move may take in the server. Until it is
//! there, a move that must be made in time is `best`'s, and says so. With four
//! markers the table is made once by `tabula solve auto120` and kept on the
//! disk; a process opens it on first use, and until it exists `optimal` plays
//! `best`'s moves and says how to make it.

use crate::best::Best;
use crate::exact;
use crate::state::{Move, State};
use crate::Auto120;
use tabula_core::{Choice, Rng, Seat, Strategy};

/// Plays the move that maximises the exact win probability (ties: the lowest marker number).
#[derive(Clone, Debug)]
pub struct Optimal {
    markers: usize,
}

impl Optimal {
    /// The player for the game with `markers` per player.
    pub fn new(markers: usize) -> Optimal {
        Optimal { markers }
    }
}

impl Strategy<Auto120> for Optimal {
    fn choose(
        &mut self,
        game: &Auto120,
        state: &State,
        seat: Seat,
        rng: &mut Rng,
    ) -> Option<Choice<Move>> {
        let Some(solution) = exact::solution_in_time(self.markers) else {
            let mut stand_in = Best::default().for_markers(self.markers).without_building();
            let choice = stand_in.choose(game, state, seat, rng)?;
            let why = if self.markers >= exact::LAYERED_MARKERS
                && exact::layered_record(self.markers).is_none()
            {
                "a strong move: the exact table has not been made on this computer (tabula solve auto120 --max-memory 16G makes it)"
            } else {
                "a strong move: the exact tables are still being prepared"
            };
            return Some(Choice::because(choice.mv, why));
        };
        let (m, p) = *solution.move_values(state).first()?;
        Some(Choice::because(
            Move::Marker(m),
            format!("optimal ({:.1}% to win)", 100.0 * p),
        ))
    }
}
