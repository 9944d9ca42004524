use serde::{Deserialize, Serialize};

/// A seat at the table: 0 moves first in two-player games, a puzzle has only seat 0.
pub type Seat = usize;

/// Who acts next in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", content = "seat", rename_all = "snake_case")]
pub enum Turn {
    /// The player in this seat chooses a move.
    Move(Seat),
    /// Nature chooses (a die roll); see [`crate::Game::chance_outcomes`].
    Chance,
    /// The game has ended.
    Over(Outcome),
}

impl Turn {
    /// The seat to move, if a player is to move.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Turn::Move(s) => Some(s),
            _ => None,
        }
    }
    /// True when the game has ended.
    pub fn is_over(self) -> bool {
        matches!(self, Turn::Over(_))
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", content = "seat", rename_all = "snake_case")]
pub enum Outcome {
    /// The player in this seat won (for a puzzle: it was solved).
    Win(Seat),
    /// Nobody won: the Cat's game.
    Draw,
    /// The game ended without a result: a puzzle not solved (its score says how
    /// well it went), or a game cut off at its length bound
    /// ([`crate::PlayEnd::CutOff`]), which is no draw.
    Ended,
}

impl Outcome {
    /// +1 if `seat` won, -1 if it lost, 0 otherwise.
    pub fn sign_for(self, seat: Seat) -> i32 {
        match self {
            Outcome::Win(w) if w == seat => 1,
            Outcome::Win(_) => -1,
            _ => 0,
        }
    }
}
