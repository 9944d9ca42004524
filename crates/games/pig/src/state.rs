//! Positions and moves of Pig, and what a move does.

/// `State::side` before the draw for the first player (the `start=random` variant).
pub const NO_SIDE: u8 = 2;

/// A position: both banked scores, the points of the turn in progress, whose turn
/// it is and whether the die is in the air (the player chose to roll).
///
/// Once a player's banked score reaches the goal the game is over: the winner is
/// `side`, the turn total is 0 and nothing is rolling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Banked scores of Player 1 and Player 2.
    pub scores: [u16; 2],
    /// Points gathered this turn, lost on a 1, banked on a hold.
    pub turn_total: u16,
    /// The player whose turn it is (0 or 1), or [`NO_SIDE`] before the draw.
    pub side: u8,
    /// True when the player chose to roll and the die (or dice) are about to land.
    pub rolling: bool,
}

/// A decision, or what chance decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Roll the die (or dice) again.
    Roll,
    /// Bank the turn total and pass the die.
    Hold,
    /// One die landed on this face (1..=6).
    Die(u8),
    /// Two dice landed on these faces, the smaller first (1..=6 each).
    Dice(u8, u8),
    /// The draw for the first player chose this seat (0 or 1).
    Starter(u8),
}

impl State {
    /// The side to act, if decided.
    pub fn side(&self) -> Option<usize> {
        (self.side < NO_SIDE).then_some(self.side as usize)
    }

    /// The winner, once a banked score has reached `goal`.
    pub fn winner(&self, goal: u16) -> Option<usize> {
        (0..2).find(|&s| self.scores[s] >= goal)
    }

    /// Plays `mv` (known to be legal) in a game to `goal`.
    pub fn apply(&mut self, mv: Move, goal: u16) {
        let side = (self.side & 1) as usize;
        match mv {
            Move::Starter(s) => self.side = s & 1,
            Move::Roll => self.rolling = true,
            Move::Hold => {
                self.scores[side] += self.turn_total;
                self.turn_total = 0;
                if self.scores[side] < goal {
                    self.side ^= 1;
                }
            }
            Move::Die(1) => self.pass(),
            Move::Dice(1, 1) => {
                // Two ones: the whole banked score is lost too.
                self.scores[side] = 0;
                self.pass();
            }
            Move::Dice(1, _) | Move::Dice(_, 1) => self.pass(),
            Move::Die(d) => self.gain(d as u16, goal),
            Move::Dice(a, b) => self.gain(a as u16 + b as u16, goal),
        }
    }

    /// The turn ends with nothing banked.
    fn pass(&mut self) {
        self.turn_total = 0;
        self.rolling = false;
        self.side ^= 1;
    }

    /// The roll adds `points`; reaching the goal wins at once (the points are banked).
    fn gain(&mut self, points: u16, goal: u16) {
        let side = (self.side & 1) as usize;
        self.rolling = false;
        self.turn_total += points;
        if self.scores[side] + self.turn_total >= goal {
            self.scores[side] += self.turn_total;
            self.turn_total = 0;
        }
    }
}
