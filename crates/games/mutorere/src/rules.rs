//! Which moves into the putahi are allowed: the rule variants.

use crate::board::{next, prev, Cell, MtMove, MtState, CENTRE, RIM};

/// When a piece may enter the putahi from the rim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MtRules {
    /// Only when it has an enemy piece on a rim neighbour, all game long (the usual rule, as the 2006 blog plays it).
    Usual,
    /// Like `Usual` during the first `plies` plies of the game, free afterwards
    /// (Best, 1925, "the first two turns": `plies = 2`, one move for each player).
    Best {
        /// Plies during which the restriction holds.
        plies: u8,
    },
    /// Always (no restriction).
    Free,
    /// No restriction, except that the first move of the game must leave the
    /// second player a move (Ludii's "First Move" ruleset, as observed by Best 1917).
    FirstMove,
}

impl MtRules {
    /// Whether the putahi restriction holds in `state`.
    pub fn restricted(self, state: &MtState) -> bool {
        match self {
            MtRules::Usual => true,
            MtRules::Best { plies } => state.opening_plies < plies,
            MtRules::Free | MtRules::FirstMove => false,
        }
    }

    /// The largest value `opening_plies` takes (the counter stops there, so that
    /// positions after the opening are not told apart by move number).
    pub fn opening_cap(self) -> u8 {
        match self {
            MtRules::Best { plies } => plies,
            MtRules::FirstMove => 1,
            _ => 0,
        }
    }

    /// The rules' word in the variant string.
    pub fn word(self) -> &'static str {
        match self {
            MtRules::Usual => "usual",
            MtRules::Best { .. } => "best",
            MtRules::Free => "free",
            MtRules::FirstMove => "first_move",
        }
    }

    /// Appends the legal moves of `state` to `out`.
    pub fn legal_moves(self, state: &MtState, out: &mut Vec<MtMove>) {
        if self == MtRules::FirstMove && state.opening_plies == 0 {
            let start = out.len();
            MtRules::Free.legal_moves(state, out);
            let mut kept = start;
            for i in start..out.len() {
                let mut after = *state;
                self.play(&mut after, out[i]);
                let mut replies = Vec::with_capacity(4);
                MtRules::Free.legal_moves(&after, &mut replies);
                if !replies.is_empty() {
                    out[kept] = out[i];
                    kept += 1;
                }
            }
            out.truncate(kept);
            return;
        }
        let me = Cell::Piece(state.to_move);
        let to = state.empty_point();
        if to == CENTRE {
            let restricted = self.restricted(state);
            for from in 1..=RIM {
                if state.cells[from as usize] == me && (!restricted || state.next_to_enemy(from)) {
                    out.push(MtMove { from, to });
                }
            }
        } else {
            for from in [prev(to), next(to), CENTRE] {
                if state.cells[from as usize] == me {
                    out.push(MtMove { from, to });
                }
            }
        }
    }

    /// Plays a move (assumed legal).
    pub fn play(self, state: &mut MtState, mv: MtMove) {
        state.cells[mv.to as usize] = state.cells[mv.from as usize];
        state.cells[mv.from as usize] = Cell::Empty;
        state.to_move ^= 1;
        state.opening_plies = (state.opening_plies + 1).min(self.opening_cap());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_wrap_around_the_rim() {
        assert_eq!(next(8), 1);
        assert_eq!(prev(1), 8);
        assert_eq!(next(3), 4);
        assert_eq!(prev(3), 2);
    }
}
