//! The rules: whose turn it is, which moves are legal, what a move does.

use crate::board::Position;
use crate::{ConnectFour, Move};
use tabula_core::{Game, MoveError, Outcome, Seat, Turn};

/// The seats, in turn order: Red moves first.
pub const SEATS: [&str; 2] = ["Red", "Yellow"];

impl ConnectFour {
    /// The seat that has a line, if one has: the last mover when both have
    /// (only a pop can line up both sides at once, and then the player who
    /// popped is the one whose line counts).
    #[inline]
    fn liner(&self, s: &Position) -> Option<Seat> {
        let g = self.geometry();
        let red = g.has_line(s.discs(0));
        let yellow = g.has_line(s.discs(1));
        match (red, yellow) {
            (false, false) => None,
            (true, true) => Some(1 - s.to_move()),
            (true, false) => Some(0),
            (false, true) => Some(1),
        }
    }

    /// Whether `column` can take one more disc.
    #[inline]
    pub(crate) fn has_room(&self, s: &Position, column: u8) -> bool {
        let g = self.geometry();
        column < g.width() && g.column_height(s.occupied(), column) < g.height()
    }

    /// Whether the side to move may pop `column`: Pop Out, and the bottom disc
    /// there is theirs.
    #[inline]
    pub(crate) fn may_pop(&self, s: &Position, column: u8) -> bool {
        let g = self.geometry();
        self.is_popout() && column < g.width() && s.discs(s.to_move()) & g.bit(column, 0) != 0
    }

    /// Why `mv` cannot be played in `s`, or `None` when it can (the game not over).
    pub(crate) fn illegal_reason(&self, s: &Position, mv: Move) -> Option<String> {
        let g = self.geometry();
        let column = mv.column();
        if column >= g.width() {
            return Some(format!("there are only {} columns", g.width()));
        }
        match mv {
            Move::Drop(_) if !self.has_room(s, column) => {
                Some(format!("column {} is full", column + 1))
            }
            Move::Pop(_) if !self.is_popout() => {
                Some("discs are only taken out from below in Pop Out".into())
            }
            Move::Pop(_) => match s.at(g, column, 0) {
                None => Some(format!("column {} is empty", column + 1)),
                Some(seat) if seat != s.to_move() => Some(format!(
                    "the bottom disc of column {} is {}'s: only your own disc can be taken out",
                    column + 1,
                    SEATS[seat]
                )),
                Some(_) => None,
            },
            Move::Drop(_) => None,
        }
    }
}

impl Game for ConnectFour {
    type State = Position;
    type Move = Move;

    const NAME: &'static str = "connect4";

    fn seats(&self) -> &'static [&'static str] {
        &SEATS
    }

    fn initial_state(&self) -> Position {
        Position::EMPTY
    }

    #[inline]
    fn turn(&self, s: &Position) -> Turn {
        if let Some(liner) = self.liner(s) {
            let winner = if self.is_misere() { 1 - liner } else { liner };
            return Turn::Over(Outcome::Win(winner));
        }
        let g = self.geometry();
        let full = s.occupied() == g.all_cells();
        if !full {
            return Turn::Move(s.to_move());
        }
        // A full board ends the classic game; in Pop Out the side to move takes
        // one of its own discs out from below if it has one there.
        if self.is_popout() && s.discs(s.to_move()) & g.bottom_row() != 0 {
            Turn::Move(s.to_move())
        } else {
            Turn::Over(Outcome::Draw)
        }
    }

    #[inline]
    fn legal_moves(&self, s: &Position, out: &mut Vec<Move>) {
        if !matches!(self.turn(s), Turn::Move(_)) {
            return;
        }
        let width = self.geometry().width();
        out.extend((0..width).filter(|&c| self.has_room(s, c)).map(Move::Drop));
        if self.is_popout() {
            out.extend((0..width).filter(|&c| self.may_pop(s, c)).map(Move::Pop));
        }
    }

    #[inline]
    fn play_unchecked(&self, s: &mut Position, mv: Move) {
        let g = self.geometry();
        match mv {
            Move::Drop(c) if c < g.width() => s.drop_disc(g, c),
            Move::Pop(c) if c < g.width() => s.pop_disc(g, c),
            _ => {}
        }
    }

    fn try_play(&self, s: &mut Position, mv: Move) -> Result<(), MoveError> {
        if !matches!(self.turn(s), Turn::Move(_)) {
            return Err(MoveError::GameOver);
        }
        if let Some(reason) = self.illegal_reason(s, mv) {
            return Err(MoveError::Illegal {
                mv: mv.to_string(),
                reason,
            });
        }
        self.play_unchecked(s, mv);
        Ok(())
    }
}
