//! The slides' computer reply: function `nim`, else function `lose` (slides 38-45).

use crate::game::{Northcott, NorthcottMove, NorthcottState, Side};
use tabula_core::{Choice, Rng, Seat, Strategy};

/// Which of the slides' functions produced a reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplyKind {
    /// `nim`: the winning move, leaving nim-sum 0.
    Nim,
    /// `lose`: no winning move; advance one cell toward the enemy.
    Advance,
    /// `lose`: no gap anywhere; retreat one cell (`lpat`/`rpat` found a row).
    Retreat,
}

impl ReplyKind {
    /// The slides' function and what it did, for the move log.
    pub fn reason(self) -> &'static str {
        match self {
            ReplyKind::Nim => "nim: winning move, nim-sum of the gaps now 0",
            ReplyKind::Advance => {
                "lose: no winning move, advance one cell in the first row with a gap"
            }
            ReplyKind::Retreat => "lose: no gap left, retreat one cell",
        }
    }
}

/// The slides' `nim(m)`: the nim-sum `s` of the gaps; if it is 0 there is no winning
/// move. Otherwise take its most significant bit `b`, the FIRST row (top to bottom)
/// whose gap has bit `b` set, and invert that gap's bits where `s` has ones (the new
/// gap is `gap ^ s`, always smaller: an advance); the piece goes `new gap + 1` cells
/// from the enemy piece.
///
/// The slides' program starts its search for `b` at the value `8*sizeof(unsigned)` = 32, so it
/// only sees bits 0-5 and misbehaves when a gap reaches 64 (boards wider than 65
/// cells); here the true most significant bit is used, which is the same on every
/// board of up to 65 cells.
pub fn nim_reply(game: &Northcott, state: &NorthcottState) -> Option<NorthcottMove> {
    let s = game.nim_sum(state);
    if s == 0 {
        return None;
    }
    let b = 1u8 << (7 - s.leading_zeros());
    let row = (0..game.ny()).find(|&r| state.gap(r) & b != 0)?;
    let new_gap = state.gap(row) ^ s;
    let to = match state.side() {
        Side::X => state.o[row] + new_gap + 1,
        Side::O => state.x[row] - new_gap - 1,
    };
    Some(NorthcottMove::new(row as u8, to))
}

/// The slides' `lose(m)`: advance one cell toward the enemy in the first row that has a
/// gap; if no row has one, retreat one cell in the first row where the piece can
/// (`lpat` for O, `rpat` for X); `None` when stalemated.
pub fn lose_reply(game: &Northcott, state: &NorthcottState) -> Option<(NorthcottMove, ReplyKind)> {
    let side = state.side();
    let step = |col: u8, toward: bool| -> u8 {
        match (side, toward) {
            (Side::O, true) | (Side::X, false) => col + 1,
            _ => col - 1,
        }
    };
    if let Some(row) = (0..game.ny()).find(|&r| state.gap(r) > 0) {
        let to = step(state.piece(side, row), true);
        return Some((NorthcottMove::new(row as u8, to), ReplyKind::Advance));
    }
    // Every gap is 0 here, so O can retreat where X stands beyond column 1 (lpat) and
    // X where O stands before column NX-2 (rpat).
    let row = match side {
        Side::O => (0..game.ny()).find(|&r| state.x[r] > 1),
        Side::X => (0..game.ny()).find(|&r| (state.o[r] as usize) < game.nx() - 2),
    }?;
    let to = step(state.piece(side, row), false);
    Some((NorthcottMove::new(row as u8, to), ReplyKind::Retreat))
}

/// The slides' whole reply (`reset`: `nim`, and `lose` when `nim` finds nothing).
pub fn xpat_reply(game: &Northcott, state: &NorthcottState) -> Option<(NorthcottMove, ReplyKind)> {
    match nim_reply(game, state) {
        Some(mv) => Some((mv, ReplyKind::Nim)),
        None => lose_reply(game, state),
    }
}

/// The custom player `nim`: the slides' computer.
#[derive(Clone, Copy, Debug, Default)]
pub struct XpatPlayer;

impl Strategy<Northcott> for XpatPlayer {
    fn choose(
        &mut self,
        game: &Northcott,
        state: &NorthcottState,
        _seat: Seat,
        _rng: &mut Rng,
    ) -> Option<Choice<NorthcottMove>> {
        xpat_reply(game, state).map(|(mv, kind)| Choice::because(mv, kind.reason()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::Notation;
    use tabula_core::{Game, Registered, Variant};

    fn game(size: &str) -> Northcott {
        Northcott::from_variant(&Variant::parse(&format!("size={size}")).unwrap()).unwrap()
    }

    #[test]
    fn nim_picks_the_first_row_with_the_top_bit() {
        // Gaps 3, 5, 6, 1 (nim-sum 1): rows 1, 2 and 4 hold bit 0; the first is row 1.
        let g = game("8x4");
        let s = g.parse_position("O3X3/O5X1/O6X/O1X5 X").unwrap();
        assert_eq!(g.nim_sum(&s), 1);
        let mv = nim_reply(&g, &s).unwrap();
        assert_eq!(g.format_move(&s, mv), "1:5->4");
        let mut t = s;
        g.play_unchecked(&mut t, mv);
        assert_eq!(g.gaps(&t), vec![2, 5, 6, 1]);
        // O answers by moving its own piece toward X.
        let s = g.parse_position("O3X3/O5X1/O6X/O1X5 O").unwrap();
        let mv = nim_reply(&g, &s).unwrap();
        assert_eq!(g.format_move(&s, mv), "1:1->2");
    }

    #[test]
    fn nim_uses_the_most_significant_bit() {
        // Gaps 1, 6, 4: nim-sum 3, top bit 2: row 2 (gap 6) becomes 6^3 = 5.
        let g = game("10x3");
        let s = g.parse_position("O1X7/O6X2/O4X4 O").unwrap();
        let mv = nim_reply(&g, &s).unwrap();
        assert_eq!(mv, NorthcottMove::new(1, 1));
    }

    #[test]
    fn no_nim_move_at_nim_sum_zero_then_lose_advances() {
        let g = game("8x2");
        let s = g.parse_position("1O3X2/O3X3 X").unwrap();
        assert_eq!(nim_reply(&g, &s), None);
        let (mv, kind) = xpat_reply(&g, &s).unwrap();
        assert_eq!(kind, ReplyKind::Advance);
        assert_eq!(g.format_move(&s, mv), "1:6->5");
    }

    #[test]
    fn lose_retreats_when_every_gap_is_closed() {
        let g = game("6x2");
        let s = g.parse_position("OX4/2OX2 O").unwrap();
        // Row 1: O on the edge cannot retreat; row 2: O retreats one cell.
        let (mv, kind) = xpat_reply(&g, &s).unwrap();
        assert_eq!(kind, ReplyKind::Retreat);
        assert_eq!(g.format_move(&s, mv), "2:3->2");
        let s = g.parse_position("OX4/2OX2 X").unwrap();
        let (mv, kind) = xpat_reply(&g, &s).unwrap();
        assert_eq!(kind, ReplyKind::Retreat);
        assert_eq!(g.format_move(&s, mv), "1:2->3");
        let s = g.parse_position("OX4/OX4 O").unwrap();
        assert_eq!(xpat_reply(&g, &s), None);
    }

    #[test]
    fn wide_boards_use_the_true_top_bit() {
        // Gap 100 in one row, 0 in the other: the slides' 32-bit start would miss bit 64.
        let g = game("110x2");
        let s = g.initial_state();
        let mut t = s;
        t.x[1] = 1;
        assert_eq!(g.nim_sum(&t), 108);
        let mv = nim_reply(&g, &t).unwrap();
        g.play_unchecked(&mut t, mv);
        assert_eq!(g.nim_sum(&t), 0);
    }
}
