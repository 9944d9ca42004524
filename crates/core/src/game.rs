use crate::{MoveError, Rng, Turn};
use std::fmt::Debug;
use std::hash::Hash;

/// The rules of one game in one variant: who sits at the table, where play starts,
/// whose turn it is, which moves are legal and what they do. Nothing else.
///
/// A `Game` value is immutable configuration (board size, rule options); all
/// changing data lives in [`Game::State`]. Everything a game may offer beyond its
/// rules is a separate capability trait in [`crate::capabilities`] ([`Notation`],
/// [`Presentation`], [`Symmetry`], [`ExactAnalysis`], [`Players`], [`MatchRules`]);
/// generic search code asks only for the capabilities it uses, and
/// [`crate::Registered`] asks for all of them.
///
/// [`Notation`]: crate::Notation
/// [`Presentation`]: crate::Presentation
/// [`Symmetry`]: crate::Symmetry
/// [`ExactAnalysis`]: crate::ExactAnalysis
/// [`Players`]: crate::Players
/// [`MatchRules`]: crate::MatchRules
pub trait Game: Clone + Send + Sync + 'static {
    /// A position, side to move included.
    type State: Clone + Eq + Hash + Debug + Send + Sync + 'static;
    /// A move (also a chance outcome such as a die roll). Small and `Copy`.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// True for impartial games (both sides have the same moves from every
    /// position): the Sprague-Grundy solver refuses the others. A constant, so
    /// that it cannot differ between variants by accident.
    const IMPARTIAL: bool = false;

    /// The game's one name, as typed on the command line and kept in saved
    /// records (`tictactoe`, `mu-torere`): the registry lists it by this name, and
    /// generic code names the game with it in messages and learned state.
    const NAME: &'static str;

    /// Names of the seats, in turn order (`["X", "O"]`, `["White", "Black"]`, `["Player"]`).
    fn seats(&self) -> &'static [&'static str];
    /// The starting position. Games that start with chance (who begins) return a chance node.
    fn initial_state(&self) -> Self::State;
    /// Who acts next.
    fn turn(&self, state: &Self::State) -> Turn;
    /// Appends the legal moves (or chance outcomes, at a chance node) to `out`.
    /// Callers clear `out` first; implementations must not allocate beyond pushing.
    fn legal_moves(&self, state: &Self::State, out: &mut Vec<Self::Move>);
    /// Plays a move known to be legal. The fast path for search: it may misbehave
    /// (but must not be unsafe) on an illegal move.
    fn play_unchecked(&self, state: &mut Self::State, mv: Self::Move);

    /// Plays a move after checking it is legal. Games override it to say *why* a
    /// move is illegal; the default only knows that it is not among the legal moves.
    fn try_play(&self, state: &mut Self::State, mv: Self::Move) -> Result<(), MoveError> {
        if let Turn::Over(_) = self.turn(state) {
            return Err(MoveError::GameOver);
        }
        let mut moves = Vec::new();
        self.legal_moves(state, &mut moves);
        if !moves.contains(&mv) {
            return Err(MoveError::NotLegal);
        }
        self.play_unchecked(state, mv);
        Ok(())
    }

    /// At a chance node: each outcome with its probability (they sum to 1).
    /// The default gives every legal outcome the same probability.
    fn chance_outcomes(&self, state: &Self::State, out: &mut Vec<(Self::Move, f64)>) {
        let mut moves = Vec::new();
        self.legal_moves(state, &mut moves);
        let p = 1.0 / moves.len().max(1) as f64;
        out.extend(moves.into_iter().map(|m| (m, p)));
    }
}

/// Helpers every game gets.
pub trait GameExt: Game {
    /// The legal moves as a new vector (convenience; search code should reuse a buffer).
    fn moves(&self, state: &Self::State) -> Vec<Self::Move> {
        let mut v = Vec::new();
        self.legal_moves(state, &mut v);
        v
    }
    /// Plays a random game from `state` to the end (or `max_plies`), returning the plies played.
    fn random_playout(&self, state: &mut Self::State, rng: &mut Rng, max_plies: usize) -> usize {
        use rand::Rng as _;
        let mut buf = Vec::new();
        let mut plies = 0;
        while plies < max_plies {
            if self.turn(state).is_over() {
                break;
            }
            buf.clear();
            self.legal_moves(state, &mut buf);
            if buf.is_empty() {
                break;
            }
            let mv = buf[rng.gen_range(0..buf.len())];
            self.play_unchecked(state, mv);
            plies += 1;
        }
        plies
    }
}
impl<G: Game> GameExt for G {}
