//! Positions and moves of Multiplication Ludo.

use crate::board::{destination, MARKERS, TARGET};
use tabula_core::{Outcome, Seat, Turn};

/// `State::side` before the starting player has been drawn.
pub(crate) const NO_SIDE: u8 = 2;

/// A position: where the eight markers stand, whose turn it is and the roll
/// waiting to be used.
///
/// Markers keep their identity (marker 1..4 of each player) so that the move log
/// can name them; a retired marker stays on 120.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) markers: [[u8; MARKERS]; 2],
    /// 0 or 1: the player whose turn it is; [`NO_SIDE`] before the draw for the start.
    pub(crate) side: u8,
    /// The roll (2..=6) the side to act must use, or 0 when the die is to be rolled.
    pub(crate) roll: u8,
    /// Markers per player in this variant (1..=4). Markers `n..4` do not exist:
    /// they are kept on 120 (retired), so that every rule treats them as gone.
    pub(crate) n: u8,
}

/// A move: a chance outcome or a player's choice of marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// The draw for the start: this seat (0 or 1) plays first.
    Starter(u8),
    /// A die roll, 1..=6.
    Roll(u8),
    /// Move this marker (index 0..=3, written 1..=4) by the pending roll.
    Marker(u8),
}

/// Everything a marker move does, for logs, views and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEffect {
    /// The seat moving.
    pub seat: Seat,
    /// Marker index 0..=3.
    pub marker: usize,
    /// The roll used.
    pub roll: u8,
    /// Where it stood.
    pub from: u8,
    /// `from * roll`, which may exceed 120.
    pub product: u32,
    /// Where it ends: the product, or 1 after a blow out.
    pub to: u8,
    /// Opponent markers sent back to 1 (by index).
    pub bumped: [bool; MARKERS],
    /// The move ends the game.
    pub wins: bool,
}

impl MoveEffect {
    /// True if the product exceeded 120 and the marker went back to 1.
    pub fn blew_out(&self) -> bool {
        self.product > TARGET as u32
    }
    /// True if the marker landed exactly on 120.
    pub fn retires(&self) -> bool {
        self.to == TARGET
    }
}

impl State {
    /// The start: every marker on 1, the starting player still to be drawn.
    pub fn start() -> State {
        State::start_with(MARKERS)
    }

    /// The start with `n` markers each (1..=4; other values are clamped).
    pub fn start_with(n: usize) -> State {
        let n = n.clamp(1, MARKERS);
        let mut row = [TARGET; MARKERS];
        row[..n].fill(1);
        State {
            markers: [row; 2],
            side: NO_SIDE,
            roll: 0,
            n: n as u8,
        }
    }

    /// Markers per player (1..=4).
    pub fn markers_per_side(&self) -> usize {
        self.n as usize
    }

    /// The positions of a seat's markers 1..4 (120 = retired; with fewer than four
    /// markers per player the missing ones read 120).
    pub fn markers(&self, seat: Seat) -> [u8; MARKERS] {
        self.markers[seat & 1]
    }

    /// The seat whose turn it is (to roll or to move), `None` before the draw for the start.
    pub fn side(&self) -> Option<Seat> {
        (self.side != NO_SIDE).then_some(self.side as Seat)
    }

    /// The roll waiting to be used by the side to move.
    pub fn pending_roll(&self) -> Option<u8> {
        (self.roll != 0).then_some(self.roll)
    }

    /// How many of a seat's markers have retired.
    pub fn retired(&self, seat: Seat) -> usize {
        self.markers[seat & 1][..self.n as usize]
            .iter()
            .filter(|&&p| p == TARGET)
            .count()
    }

    /// The seat that has retired all its markers, if any.
    pub fn winner(&self) -> Option<Seat> {
        (0..2).find(|&s| self.markers[s] == [TARGET; MARKERS])
    }

    /// Who acts next.
    pub fn turn(&self) -> Turn {
        if let Some(w) = self.winner() {
            return Turn::Over(Outcome::Win(w));
        }
        if self.side == NO_SIDE || self.roll == 0 {
            Turn::Chance
        } else {
            Turn::Move(self.side as Seat)
        }
    }

    /// What moving `marker` by the pending roll does (the caller checks legality).
    pub fn effect(&self, marker: usize) -> MoveEffect {
        let seat = (self.side & 1) as usize;
        let from = self.markers[seat][marker & 3];
        let to = destination(from, self.roll);
        let mut bumped = [false; MARKERS];
        if to != 1 && to != TARGET {
            for (b, &q) in bumped.iter_mut().zip(&self.markers[1 - seat]) {
                *b = q == to;
            }
        }
        let mut after = self.markers[seat];
        after[marker & 3] = to;
        MoveEffect {
            seat,
            marker: marker & 3,
            roll: self.roll,
            from,
            product: from as u32 * self.roll as u32,
            to,
            bumped,
            wins: after == [TARGET; MARKERS],
        }
    }

    /// Plays a move without checking it (the fast path).
    #[inline]
    pub(crate) fn apply(&mut self, mv: Move) {
        match mv {
            Move::Starter(s) => {
                self.side = s & 1;
                self.roll = 0;
            }
            Move::Roll(r) => {
                if r <= 1 {
                    self.side ^= 1;
                    self.roll = 0;
                } else {
                    self.roll = r;
                }
            }
            Move::Marker(m) => {
                let seat = (self.side & 1) as usize;
                let to = destination(self.markers[seat][(m & 3) as usize], self.roll);
                self.markers[seat][(m & 3) as usize] = to;
                if to != 1 && to != TARGET {
                    for q in self.markers[1 - seat].iter_mut() {
                        if *q == to {
                            *q = 1;
                        }
                    }
                }
                self.side ^= 1;
                self.roll = 0;
            }
        }
    }

    /// Why `mv` cannot be played here, or `None` if it can.
    pub fn illegal_reason(&self, mv: Move) -> Option<String> {
        match (self.turn(), mv) {
            (Turn::Over(_), _) => Some("the game is over".into()),
            (Turn::Chance, Move::Starter(s)) if self.side == NO_SIDE => {
                (s > 1).then(|| "the starting player is 1 or 2".into())
            }
            (Turn::Chance, _) if self.side == NO_SIDE => {
                Some("the starting player must be drawn first".into())
            }
            (_, Move::Starter(_)) => Some("the first player has already been drawn".into()),
            (Turn::Chance, Move::Roll(r)) => {
                (!(1..=6).contains(&r)).then(|| "a die roll is 1 to 6".into())
            }
            (Turn::Chance, _) => Some("the die must be rolled first".into()),
            (Turn::Move(seat), Move::Marker(m)) => {
                if m as usize >= self.n as usize {
                    Some(match self.n {
                        1 => "there is only marker 1".into(),
                        n => format!("markers are numbered 1 to {n}"),
                    })
                } else if self.markers[seat][m as usize] == TARGET {
                    Some(format!("marker {} has retired", m + 1))
                } else {
                    None
                }
            }
            (Turn::Move(_), _) => Some(format!("a {} was rolled: choose a marker", self.roll)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(p1: [u8; 4], p2: [u8; 4], side: u8, roll: u8) -> State {
        State {
            markers: [p1, p2],
            side,
            roll,
            n: 4,
        }
    }

    #[test]
    fn the_start_is_a_draw_for_the_first_player() {
        let s = State::start();
        assert_eq!(s.turn(), Turn::Chance);
        let mut t = s;
        t.apply(Move::Starter(1));
        assert_eq!(t.side(), Some(1));
        assert_eq!(t.turn(), Turn::Chance);
    }

    #[test]
    fn a_one_forfeits_the_turn() {
        let mut s = at([4, 1, 1, 1], [1; 4], 0, 0);
        s.apply(Move::Roll(1));
        assert_eq!(s, at([4, 1, 1, 1], [1; 4], 1, 0));
    }

    #[test]
    fn seed_examples_multiply() {
        // "rolls a 5 and moves Marker 1 on Position 1 ... to Position 5".
        let mut s = at([1; 4], [1; 4], 0, 5);
        s.apply(Move::Marker(0));
        assert_eq!(s.markers(0), [5, 1, 1, 1]);
        // "rolls a 4 and moves Marker 3 on Position 16 ... to Position 64".
        let mut s = at([1, 1, 16, 1], [1; 4], 0, 4);
        s.apply(Move::Marker(2));
        assert_eq!(s.markers(0), [1, 1, 64, 1]);
        assert_eq!(s.side(), Some(1));
        assert_eq!(s.pending_roll(), None);
    }

    #[test]
    fn landing_bumps_every_opposing_marker_there() {
        let mut s = at([10, 1, 1, 1], [40, 40, 20, 1], 0, 4);
        let e = s.effect(0);
        assert_eq!(e.bumped, [true, true, false, false]);
        s.apply(Move::Marker(0));
        assert_eq!(s.markers(1), [1, 1, 20, 1]);
    }

    #[test]
    fn own_markers_share_and_blow_outs_go_home() {
        let mut s = at([4, 20, 1, 1], [1; 4], 0, 5);
        s.apply(Move::Marker(0));
        assert_eq!(s.markers(0), [20, 20, 1, 1]);
        let mut s = at([30, 1, 1, 1], [1; 4], 1 - 1, 5);
        let e = s.effect(0);
        assert!(e.blew_out() && e.to == 1 && e.product == 150);
        s.apply(Move::Marker(0));
        assert_eq!(s.markers(0), [1, 1, 1, 1]);
    }

    #[test]
    fn retired_markers_are_not_bumped_and_cannot_move() {
        let mut s = at([120, 20, 1, 1], [1, 1, 1, 20], 1, 6);
        assert!(s.illegal_reason(Move::Marker(3)).is_none());
        s.apply(Move::Marker(3));
        assert_eq!(s.markers(0), [120, 20, 1, 1]);
        let s = at([120, 20, 1, 1], [1; 4], 0, 6);
        assert!(s
            .illegal_reason(Move::Marker(0))
            .unwrap()
            .contains("retired"));
    }

    #[test]
    fn retiring_the_fourth_marker_wins() {
        let mut s = at([120, 120, 120, 40], [1; 4], 0, 3);
        assert!(s.effect(3).wins);
        s.apply(Move::Marker(3));
        assert_eq!(s.turn(), Turn::Over(Outcome::Win(0)));
    }
}
