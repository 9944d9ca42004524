//! Whether a position read from text can arise in play.

use crate::board::Position;
use crate::notation::seat_name;
use crate::ConnectFour;
use std::collections::HashSet;

impl ConnectFour {
    /// Why `s` cannot arise in a game of this variant, or `None` when it can.
    ///
    /// Every variant: discs rest on the floor or on each other. The classic
    /// game (no pops) also needs the counts of a game that alternates from Red,
    /// at most one side with a line, made by the last disc, and an order of
    /// drops that builds the board without a line before the last one.
    pub(crate) fn unreachable_reason(&self, s: &Position) -> Option<String> {
        let g = self.geometry();
        let occupied = s.occupied();
        for c in 0..g.width() {
            let n = g.column_height(occupied, c);
            let stacked = ((1u64 << n) - 1) << (g.bit(c, 0).trailing_zeros());
            if occupied & g.column_mask(c) != stacked {
                return Some(format!(
                    "a disc in column {} floats above an empty cell",
                    c + 1
                ));
            }
        }
        if self.is_popout() {
            return None;
        }
        let (red, yellow) = (s.discs(0).count_ones(), s.discs(1).count_ones());
        if red != yellow && red != yellow + 1 {
            return Some(format!(
                "Red has {red} discs and Yellow {yellow}: Red moves first, so Red has as many discs as Yellow or one more"
            ));
        }
        let implied = usize::from(red > yellow);
        if s.to_move() != implied {
            return Some(format!(
                "it cannot be {}'s turn: Red has {red} discs and Yellow {yellow}",
                seat_name(s.to_move())
            ));
        }
        let lines = [g.has_line(s.discs(0)), g.has_line(s.discs(1))];
        if lines[0] && lines[1] {
            return Some("both sides have a line".into());
        }
        let last_mover = 1 - implied;
        if lines[1 - last_mover] {
            return Some(format!(
                "{} has a line but {} moved last",
                seat_name(1 - last_mover),
                seat_name(last_mover)
            ));
        }
        if occupied != 0 && !self.can_be_built(s) {
            return Some(if lines[last_mover] {
                format!(
                    "{}'s line would have ended the game before this position",
                    seat_name(last_mover)
                )
            } else {
                "no order of turns, Red first, stacks the discs this way".into()
            });
        }
        None
    }

    /// Whether the discs of `s` can be dropped one at a time, Red first and the
    /// sides alternating, with no line before the last disc: a search backwards
    /// from `s`, taking off a top disc of the side that moved last each step,
    /// over the columns' heights (at most 7^7 sets of heights).
    fn can_be_built(&self, s: &Position) -> bool {
        let g = self.geometry();
        let width = usize::from(g.width());
        let mut heights = [0u8; 7];
        for (c, h) in heights.iter_mut().enumerate().take(width) {
            *h = g.column_height(s.occupied(), c as u8);
        }
        let total: u32 = heights.iter().map(|&h| u32::from(h)).sum();
        let key = |hs: &[u8; 7]| hs.iter().fold(0u32, |k, &h| k * 8 + u32::from(h));
        let mut seen = HashSet::new();
        let mut stack = vec![(heights, total)];
        while let Some((hs, n)) = stack.pop() {
            if n == 0 {
                return true;
            }
            // The disc placed n-th (1-based) is Red's when n is odd.
            let seat = usize::from(n % 2 == 0);
            for c in 0..width {
                if hs[c] == 0 {
                    continue;
                }
                let top = g.bit(c as u8, hs[c] - 1);
                if s.discs(seat) & top == 0 {
                    continue;
                }
                let mut before = hs;
                before[c] -= 1;
                // The position before the last disc must have no line; every
                // earlier one is part of it, so has none either.
                if n == total {
                    let cells = (0..width).fold(0u64, |acc, col| {
                        acc | (0..before[col]).fold(0, |a, r| a | g.bit(col as u8, r))
                    });
                    if g.has_line(s.discs(0) & cells) || g.has_line(s.discs(1) & cells) {
                        continue;
                    }
                }
                if seen.insert(key(&before)) {
                    stack.push((before, n - 1));
                }
            }
        }
        false
    }
}
