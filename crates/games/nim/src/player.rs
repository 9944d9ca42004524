//! The `nim` player: Bouton's strategy.

use crate::analysis::{mover_wins, winning_moves};
use crate::game::{Nim, NimMove, NimState};
use tabula_core::{Choice, Rng, Seat, Strategy};

/// Plays the first winning move (lowest heap) when there is one; in a lost position it
/// takes a single counter from the largest heap, which keeps the game long and gives
/// the opponent the most chances to go wrong.
#[derive(Clone, Copy, Debug, Default)]
pub struct NimPlayer;

impl Strategy<Nim> for NimPlayer {
    fn choose(
        &mut self,
        game: &Nim,
        state: &NimState,
        _seat: Seat,
        _rng: &mut Rng,
    ) -> Option<Choice<NimMove>> {
        if let Some(&mv) = winning_moves(game.play, &state.heaps).first() {
            return Some(Choice::because(
                mv,
                "leaves the other player a lost position",
            ));
        }
        let (i, &h) = state
            .heaps
            .iter()
            .enumerate()
            .filter(|(_, &h)| h > 0)
            .max_by_key(|(i, &h)| (h, usize::MAX - i))?;
        debug_assert!(!mover_wins(game.play, &state.heaps));
        Some(Choice::because(
            NimMove {
                heap: i as u8,
                to: h - 1,
            },
            "no winning move: take one counter",
        ))
    }
}
