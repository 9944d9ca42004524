//! An independent check of a solved table, position by position, from the
//! forward moves only (no un-moves, no levels):
//!
//! - a loss with remoteness 0 has no move; a loss with remoteness r > 0 has only
//!   moves to wins, the slowest of them with remoteness r - 1;
//! - a win with remoteness r has a move to a loss with remoteness r - 1 and none
//!   to a faster loss;
//! - a draw has no move to a loss and at least one move to a draw.
//!
//! By induction on remoteness these conditions hold for exactly one labelling,
//! the true one, so a table that passes is correct.

use crate::index::INDEX;
use crate::rules::{after_move, KonoRules};
use crate::solve::{par_positions, DRAW, KIND, LOSS, REMOTENESS, WIN};
use rayon::prelude::*;

/// The outcome of a check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Check {
    /// Positions checked.
    pub checked: u64,
    /// Positions that break a condition.
    pub errors: u64,
    /// A few of them, for the message: (mover, opponent, stored value).
    pub examples: Vec<(u32, u32, u16)>,
}

/// Checks one position; true if its stored value is consistent with its children.
pub fn consistent(rules: KonoRules, values: &[u16], mover: u32, opponent: u32) -> bool {
    let v = values[INDEX.index(mover, opponent) as usize];
    let (kind, r) = (v & KIND, v & REMOTENESS);
    let (mut moves, mut fastest_loss, mut slowest_win, mut draws) =
        (0u32, u16::MAX, None::<u16>, 0u32);
    rules.for_each_move(mover, opponent, |from, to, _| {
        let (cm, co) = after_move(mover, opponent, from, to);
        let c = values[INDEX.index(cm, co) as usize];
        moves += 1;
        match c & KIND {
            LOSS => fastest_loss = fastest_loss.min(c & REMOTENESS),
            WIN => slowest_win = Some(slowest_win.unwrap_or(0).max(c & REMOTENESS)),
            _ => draws += 1,
        }
    });
    match kind {
        LOSS if moves == 0 => r == 0,
        LOSS => fastest_loss == u16::MAX && draws == 0 && slowest_win.map(|w| w + 1) == Some(r),
        WIN => r >= 1 && fastest_loss == r - 1,
        DRAW => r == 0 && fastest_loss == u16::MAX && draws > 0,
        _ => false,
    }
}

/// Checks every position with at most `max_total` pieces.
pub fn check_table(rules: KonoRules, values: &[u16], max_total: usize) -> Check {
    (0..=max_total)
        .map(|total| {
            par_positions(total)
                .fold(Check::default, |mut c, (_, m, o)| {
                    c.checked += 1;
                    if !consistent(rules, values, m, o) {
                        c.errors += 1;
                        if c.examples.len() < 5 {
                            c.examples.push((m, o, values[INDEX.index(m, o) as usize]));
                        }
                    }
                    c
                })
                .reduce(Check::default, merge)
        })
        .fold(Check::default(), merge)
}

fn merge(mut a: Check, mut b: Check) -> Check {
    a.checked += b.checked;
    a.errors += b.errors;
    a.examples.append(&mut b.examples);
    a.examples.truncate(5);
    a
}
