//! Integer actions: every move of a game as a small whole number, as OpenSpiel
//! and learning code expect, with an observation tensor and a length bound.
//!
//! Each game documents its encoding in its crate (`src/actions.rs` and the
//! "Actions" section of `docs/NAME.md`). Ids are dense (`0..num_distinct_actions`)
//! and fixed for a variant, whatever the position. Chance outcomes (dice) have
//! ids of their own, `0..max_chance_outcomes`, as OpenSpiel's chance player has:
//! which space an id belongs to follows from whose turn it is.

use crate::{Game, Seat, Turn};

/// The most plies any game may last: the same cap the engine's matches apply
/// (`tabula_engine::MAX_GAME_PLIES`, checked equal by the engine's tests),
/// declared as their [`Actions::max_game_length`] by games that neither end by
/// themselves nor by their draw rules within it; a game reaching it is cut off.
pub const UNBOUNDED_GAME_PLIES: usize = 20_000;

/// A game whose moves and chance outcomes have integer ids.
///
/// Laws (checked for every game by the engine's conformance suite): in every
/// position, every legal move's id is below [`Actions::num_distinct_actions`] (a
/// chance outcome's below [`Actions::max_chance_outcomes`]), legal moves have
/// distinct ids, `move_of(action_of(m)) == Some(m)`, and `move_of` of an id that
/// names no legal move is `None`.
pub trait Actions: Game {
    /// How many ids a player's move may have in this variant (ids `0..n`): the
    /// same for every position of the variant.
    fn num_distinct_actions(&self) -> usize;

    /// The id of `mv` (a legal move or chance outcome of `state`).
    fn action_of(&self, state: &Self::State, mv: Self::Move) -> usize;

    /// The legal move (or chance outcome, at a chance node) of `state` with this
    /// id; `None` when no legal move has it. By default [`move_with_id`]: a look
    /// through the legal moves, which is what every game needs unless decoding
    /// the id directly is faster (then the conformance suite checks the two agree).
    fn move_of(&self, state: &Self::State, action: usize) -> Option<Self::Move> {
        move_with_id(self, state, action)
    }

    /// How many ids chance outcomes may have (0: the game has no chance).
    fn max_chance_outcomes(&self) -> usize {
        0
    }

    /// The dimensions of [`Actions::observation`]'s tensor (row-major).
    fn observation_shape(&self) -> Vec<usize>;

    /// Clears `out` and writes the position as seen from `seat`'s side: as many
    /// numbers as the product of [`Actions::observation_shape`], typically one
    /// plane of 0/1 per kind of piece over the board, the observer's own first.
    fn observation(&self, state: &Self::State, seat: Seat, out: &mut Vec<f32>);

    /// The most plies (chance outcomes included) a game of this variant lasts
    /// in actual play, at most [`UNBOUNDED_GAME_PLIES`]: the rules' own bound
    /// (Tic-tac-toe's 9), or for a game that could go on for ever the bound its
    /// draw rules give ([`crate::draw_rule_length`]: Mu Torere's repetitions,
    /// Kono's plies without a capture), else [`UNBOUNDED_GAME_PLIES`]. Every face
    /// ([`crate::PlayTracker`]) ends a game that reaches it with no end as cut
    /// off, with no result (never a draw), so the bound is honest: no game is
    /// longer, and one that could end sooner by its draw rules does.
    fn max_game_length(&self) -> usize;

    /// The lowest and highest return a seat can get: -1 and +1 in two-player
    /// games (a loss, a win); a puzzle's score range (0 and 1 when it only says
    /// solved or not).
    fn utility_range(&self) -> (f64, f64) {
        (-1.0, 1.0)
    }

    /// Why a position (read from text, so possibly unlike any of the variant's
    /// games) does not fit this variant's action ids or observation shape: a Nim
    /// heap larger than the start's, a SameGame board of another size. `Ok` by
    /// default: the ids of most games depend on the board alone.
    fn state_fits(&self, _state: &Self::State) -> Result<(), String> {
        Ok(())
    }
}

/// The legal move (or chance outcome) of `state` whose id is `action`, by
/// looking through them all: what most games' [`Actions::move_of`] does.
pub fn move_with_id<G: Actions>(game: &G, state: &G::State, action: usize) -> Option<G::Move> {
    if matches!(game.turn(state), Turn::Over(_)) {
        return None;
    }
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    moves
        .into_iter()
        .find(|&m| game.action_of(state, m) == action)
}

/// Writes `value` into a tensor of `out.len()` numbers at `index`, when it is
/// inside: observation code stays panic-free on positions read from text.
pub fn set_at(out: &mut [f32], index: usize, value: f32) {
    if let Some(x) = out.get_mut(index) {
        *x = value;
    }
}
