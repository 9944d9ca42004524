use crate::Game;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The game-theoretic value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Value {
    /// The side to move loses against perfect play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins with perfect play.
    Win,
}

impl Value {
    /// The value for the other side.
    pub fn flip(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
        }
    }
    /// `"win"`, `"loss"` or `"draw"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Loss => "loss",
            Value::Draw => "draw",
        }
    }
}

impl Value {
    /// Better for the side it belongs to is higher: loss < draw < win.
    pub fn rank(self) -> i8 {
        match self {
            Value::Loss => -1,
            Value::Draw => 0,
            Value::Win => 1,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A value with its remoteness: the number of moves (plies) to the end of the game
/// under perfect play (the winner hurries, the loser delays). Draws have remoteness 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Graded {
    /// Win, loss or draw for the side to move.
    pub value: Value,
    /// Plies to the end under perfect play.
    pub remoteness: u32,
}

impl Graded {
    /// How good this position is for the side to move: higher is better. Wins
    /// are better when nearer, losses better when further away.
    pub fn rank(self) -> i64 {
        match self.value {
            Value::Win => 1_000_000_000 - self.remoteness as i64,
            Value::Draw => 0,
            Value::Loss => -1_000_000_000 + self.remoteness as i64,
        }
    }

    /// The grade of the position *before* a move that leads to this one, from the
    /// mover's point of view (one ply further from the end).
    pub fn as_move_grade(self) -> Graded {
        Graded {
            value: self.value.flip(),
            remoteness: if self.value == Value::Draw {
                0
            } else {
                self.remoteness + 1
            },
        }
    }
}

/// What a search that ran out of time proved about a position it could not
/// grade: its value for the side to move lies between `low` and `high`
/// (`Loss` to `Win` says nothing; `Draw` to `Win` is "at least a draw").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ValueBounds {
    /// The worst the side to move can get.
    pub low: Value,
    /// The best the side to move can get.
    pub high: Value,
}

impl ValueBounds {
    /// The same bounds from the other side's point of view (the mover's, for
    /// the position a move leads to).
    pub fn flip(self) -> ValueBounds {
        ValueBounds {
            low: self.high.flip(),
            high: self.low.flip(),
        }
    }

    /// Whether the bounds say anything (they are not loss to win).
    pub fn is_informative(self) -> bool {
        !(self.low == Value::Loss && self.high == Value::Win)
    }
}

/// Anything that knows exact values of a game's positions: a retrograde table, the
/// nim-sum rule, a solved database loaded from disk.
pub trait Oracle<G: Game>: Send + Sync {
    /// The exact value of a position for the side to move, or `None` when the position
    /// is outside what the oracle knows (not reachable from the start it solved).
    fn grade(&self, game: &G, state: &G::State) -> Option<Graded>;

    /// Whether the remoteness [`Oracle::grade`] gives for this position is exact;
    /// `false` when it is only an upper bound (the nim-sum rules of Nim and
    /// Northcott on boards too large to search), which every face must say.
    fn remoteness_exact(&self, _game: &G, _state: &G::State) -> bool {
        true
    }

    /// Whether the oracle grades `state` and every position one move after it
    /// without a search (a look-up in a table or a rule), so that a perfect
    /// player's move there takes no thinking. By default, where it grades
    /// `state` at all: a table that holds a position holds what follows it.
    /// An oracle that searches on demand says which positions it already knows.
    fn answers_at_once(&self, game: &G, state: &G::State) -> bool {
        self.grade(game, state).is_some()
    }

    /// What is proven about a position [`Oracle::grade`] left ungraded (a search
    /// that ran out of time): bounds on its value, without searching again.
    /// `None` by default, and when nothing is proven.
    fn bounds(&self, _game: &G, _state: &G::State) -> Option<ValueBounds> {
        None
    }

    /// About how many bytes of memory the oracle holds (its tables and memos), so
    /// caches can be bounded in bytes. A rule that keeps no table reports 0.
    fn memory_bytes(&self) -> u64 {
        0
    }
}
