//! The rules on a pair of masks (mover, opponent): what a move is, when the
//! game is over. Shared by the game, the solver, the verifier and reachability.

use crate::bits::{bits, capture_targets, has_capture, has_step, Dir, DIRS, FULL};

/// Which rules are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KonoRules {
    /// The rules: captures optional; a player who cannot move loses.
    Standard,
    /// GamesmanClassic's rules: captures compulsory; the side to move loses with
    /// one piece left or no legal move.
    Gamesman,
}

impl KonoRules {
    /// The word in the variant string.
    pub fn word(self) -> &'static str {
        match self {
            KonoRules::Standard => "standard",
            KonoRules::Gamesman => "gamesman",
        }
    }

    /// Small integer used in cache file names and headers.
    pub fn code(self) -> u32 {
        match self {
            KonoRules::Standard => 0,
            KonoRules::Gamesman => 1,
        }
    }

    /// True if the side to move has lost (no move, or one piece under Gamesman rules).
    #[inline]
    pub fn is_lost(self, mover: u32, opponent: u32) -> bool {
        if self == KonoRules::Gamesman && mover.count_ones() <= 1 {
            return true;
        }
        !has_step(mover, opponent) && !has_capture(mover, opponent)
    }

    /// True if step moves are legal here (Gamesman: only when no capture exists).
    #[inline]
    pub fn steps_allowed(self, mover: u32, opponent: u32) -> bool {
        self == KonoRules::Standard || !has_capture(mover, opponent)
    }

    /// Calls `f(from, to, is_capture)` for every legal move (none when the game is over).
    #[inline]
    pub fn for_each_move(self, mover: u32, opponent: u32, mut f: impl FnMut(u32, u32, bool)) {
        if self == KonoRules::Gamesman && mover.count_ones() <= 1 {
            return;
        }
        for d in DIRS {
            for to in bits(capture_targets(d, mover, opponent)) {
                f((to as i32 - 2 * d.offset()) as u32, to, true);
            }
        }
        if self.steps_allowed(mover, opponent) {
            let empty = !(mover | opponent) & FULL;
            for d in DIRS {
                for to in bits(d.shift(mover) & empty) {
                    f((to as i32 - d.offset()) as u32, to, false);
                }
            }
        }
    }

    /// Number of legal step moves (the moves that keep the piece counts).
    #[inline]
    pub fn step_moves(self, mover: u32, opponent: u32) -> u32 {
        if self == KonoRules::Gamesman && (mover.count_ones() <= 1 || has_capture(mover, opponent))
        {
            return 0;
        }
        crate::bits::step_count(mover, opponent)
    }

    /// Calls `f(mover, opponent)` for every position one step move before
    /// `(mover, opponent)`: the opponent (who just moved) takes a piece back
    /// from `y` to an empty neighbour `x`. Captures are not undone (they come
    /// from the group with one more piece, which is solved later).
    #[inline]
    pub fn for_each_step_predecessor(self, mover: u32, opponent: u32, mut f: impl FnMut(u32, u32)) {
        if self == KonoRules::Gamesman && opponent.count_ones() <= 1 {
            // The predecessor's mover would have had one piece: the game was over.
            return;
        }
        let empty = !(mover | opponent) & FULL;
        for d in DIRS {
            for y in bits(opponent & d.shift(empty)) {
                let x = (y as i32 - d.offset()) as u32;
                let prev_mover = opponent ^ (1 << y) ^ (1 << x);
                // Gamesman: a step was only legal if no capture was available.
                if self == KonoRules::Gamesman && has_capture(prev_mover, mover) {
                    continue;
                }
                f(prev_mover, mover);
            }
        }
    }
}

/// The position after a move, seen from the new side to move: (mover, opponent).
#[inline(always)]
pub fn after_move(mover: u32, opponent: u32, from: u32, to: u32) -> (u32, u32) {
    let moved = mover & !(1 << from) | 1 << to;
    (opponent & !(1 << to), moved)
}

/// The cell between two cells two apart in a line (the jumped friendly piece).
pub fn between(from: u32, to: u32) -> u32 {
    (from + to) / 2
}

/// True if `from`-`to` is one orthogonal step.
pub fn is_step(from: u32, to: u32) -> bool {
    DIRS.iter().any(|&d| d.shift(1 << from) == 1 << to)
}

/// True if `from`-`to` is two cells apart in a straight line.
pub fn is_jump(from: u32, to: u32) -> bool {
    DIRS.iter()
        .any(|&d: &Dir| d.shift(d.shift(1 << from)) == 1 << to)
}
