use crate::{Game, Outcome, Rng, Seat};

/// A decision of a player: the move and, for the log, why it was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice<M> {
    /// The move chosen.
    pub mv: M,
    /// A short reason for the move log (`"scenario A"`, `"nim move"`, `"bead 3 of 5"`).
    pub reason: Option<String>,
}

impl<M> Choice<M> {
    /// A choice without a reason.
    pub fn plain(mv: M) -> Self {
        Choice { mv, reason: None }
    }
    /// A choice with a reason for the log.
    pub fn because(mv: M, reason: impl Into<String>) -> Self {
        Choice {
            mv,
            reason: Some(reason.into()),
        }
    }
}

/// A computer player.
///
/// Players are stateful (a matchbox machine learns, a search keeps its table) and
/// get the game's shared random generator, so a seeded match replays exactly.
pub trait Strategy<G: Game>: Send {
    /// Picks a move in a position where `seat` is to move, or `None` to resign.
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        seat: Seat,
        rng: &mut Rng,
    ) -> Option<Choice<G::Move>>;

    /// Whether choosing from `state` may take real thinking (a search, a table
    /// to build) rather than a look-up: a front end runs such a choice under a
    /// thinking budget and deadline. True unless the player knows better.
    fn thinks(&self, _game: &G, _state: &G::State) -> bool {
        true
    }

    /// Whether this player would resign if asked to move in `state`, where
    /// `seat` is to move (a matchbox whose box for the position is empty), asked
    /// without choosing: when a person resigns and the computer would resign at
    /// its next turn too, every player has resigned and the Cat wins (Stenger's
    /// "Associative Arrays"). False unless the player knows better.
    fn would_resign(&self, _game: &G, _state: &G::State, _seat: Seat) -> bool {
        false
    }

    /// Told at the end of every game it took part in.
    fn game_over(&mut self, _game: &G, _seat: Seat, _outcome: Outcome) {}

    /// Forgets the moves of the current game (after an undo the player must not
    /// learn from moves that were taken back).
    fn forget_game(&mut self) {}

    /// Learned state as JSON (matchboxes), for saving.
    fn learned(&self) -> Option<serde_json::Value> {
        None
    }

    /// Restores learned state saved by [`Strategy::learned`].
    fn load_learned(&mut self, _value: &serde_json::Value) -> Result<(), String> {
        Err("this player does not learn".into())
    }
}
