//! The 2006 blog's one-ply look-ahead move generator ("Mu Torere AI II"), a generic
//! player for any two-player game without dice (Mu Torere, Kono and the others).
//!
//! Every legal move is marked +1 if it wins at once, -1 if the opponent then has
//! a move that wins at once, 0 otherwise. The player takes a +1 move if there is
//! one, else a random 0 move; -1 moves are ignored unless every move is -1 (the
//! seed leaves that case open: a move must be made, so it then picks any move).
//! Choices among equal moves are random, from the match's seeded generator.

use rand::seq::SliceRandom;
use tabula_core::{Choice, Game, GameExt, Outcome, Rng, Seat, Strategy, Turn};

/// Name of the player kind.
pub const LOOKAHEAD: &str = "lookahead";
/// Its help line.
pub const LOOKAHEAD_HELP: &str = tabula_core::GenericPlayer::Lookahead.help();

/// The 2006 blog's look-ahead player.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lookahead;

/// How a move looks one ply ahead, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookout {
    /// The move wins at once.
    Wins,
    /// Nothing is decided within a ply.
    Safe,
    /// The opponent then has a move that wins at once.
    Loses,
}

/// Marks one move of `seat` in `state` the way the 2006 blog's `evaluateMoves` does.
pub fn look<G: Game>(
    game: &G,
    state: &G::State,
    seat: Seat,
    mv: G::Move,
    buf: &mut Vec<G::Move>,
) -> Lookout {
    let mut after = state.clone();
    game.play_unchecked(&mut after, mv);
    match game.turn(&after) {
        Turn::Over(Outcome::Win(w)) if w == seat => Lookout::Wins,
        Turn::Over(Outcome::Win(_)) => Lookout::Loses,
        Turn::Over(_) | Turn::Chance => Lookout::Safe,
        Turn::Move(opponent) => {
            buf.clear();
            game.legal_moves(&after, buf);
            let replies = std::mem::take(buf);
            let opponent_wins = replies.iter().any(|&reply| {
                let mut next = after.clone();
                game.play_unchecked(&mut next, reply);
                game.turn(&next) == Turn::Over(Outcome::Win(opponent))
            });
            *buf = replies;
            if opponent_wins {
                Lookout::Loses
            } else {
                Lookout::Safe
            }
        }
    }
}

impl<G: Game> Strategy<G> for Lookahead {
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        seat: Seat,
        rng: &mut Rng,
    ) -> Option<Choice<G::Move>> {
        let moves = game.moves(state);
        if moves.is_empty() {
            return None;
        }
        let mut buf = Vec::new();
        let marks: Vec<Lookout> = moves
            .iter()
            .map(|&mv| look(game, state, seat, mv, &mut buf))
            .collect();
        let pick = |want: Lookout, rng: &mut Rng| -> Option<G::Move> {
            let candidates: Vec<G::Move> = moves
                .iter()
                .zip(&marks)
                .filter(|(_, m)| **m == want)
                .map(|(mv, _)| *mv)
                .collect();
            candidates.choose(rng).copied()
        };
        if let Some(mv) = pick(Lookout::Wins, rng) {
            return Some(Choice::because(mv, "winning move"));
        }
        if let Some(mv) = pick(Lookout::Safe, rng) {
            return Some(Choice::because(mv, "safe move"));
        }
        moves
            .choose(rng)
            .map(|&mv| Choice::because(mv, "every move lets the opponent win"))
    }
}
