//! Integer actions for Mu Torere.
//!
//! * A move always goes to the one empty point, so an action is the point the
//!   piece leaves: 0 the putahi, 1-8 the rim points, as written in the notation.
//!   9 distinct actions under every rule variant.
//! * Observation: shape `[3, 9]`, three planes over the points (putahi first):
//!   the observer's pieces, the other side's pieces, and a plane of ones when the
//!   observer is to move.
//! * Mu Torere has no natural length bound, but actual play is drawn on the
//!   third occurrence of a position: with 1,260 positions (4 White, 4 Black and
//!   the empty point on 9 points, 630 ways, either side to move), each seen at
//!   most twice before the last, a game lasts at most 2,520 plies
//!   ([`draw_rule_length`]).

use crate::board::{Cell, MtMove, MtState, POINTS};
use crate::MuTorere;
use tabula_core::actions::set_at;
use tabula_core::{draw_rule_length, Actions, MatchRules, Seat};

/// Positions of any Mu Torere game: 9!/(4! 4! 1!) = 630 arrangements of the
/// pieces, either side to move.
const POSITIONS: u64 = 630 * 2;

impl Actions for MuTorere {
    fn num_distinct_actions(&self) -> usize {
        POINTS
    }

    fn action_of(&self, _state: &MtState, mv: MtMove) -> usize {
        usize::from(mv.from)
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![3, POINTS]
    }

    fn observation(&self, state: &MtState, seat: Seat, out: &mut Vec<f32>) {
        out.clear();
        out.resize(3 * POINTS, 0.0);
        for (p, cell) in state.cells.iter().enumerate() {
            match *cell {
                Cell::Piece(o) if usize::from(o) == seat => set_at(out, p, 1.0),
                Cell::Piece(_) => set_at(out, POINTS + p, 1.0),
                Cell::Empty => {}
            }
        }
        if usize::from(state.to_move) == seat {
            out[2 * POINTS..].fill(1.0);
        }
    }

    fn max_game_length(&self) -> usize {
        draw_rule_length(self.play_draw_rule(), Some(POSITIONS), None)
    }
}
