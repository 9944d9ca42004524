//! The eight symmetries of the square acting on squares 1-9.

use crate::TicTacToe;

/// Names of the symmetries, by index (0 is the identity).
pub const SYMMETRY_NAMES: [&str; 8] = [
    "identity",
    "rotate 90 clockwise",
    "rotate 180",
    "rotate 270 clockwise",
    "mirror left-right",
    "mirror top-bottom",
    "reflect in the 1-5-9 diagonal",
    "reflect in the 3-5-7 diagonal",
];

/// Where symmetry `k` sends the square at row `r`, column `c` (0-2, from the top left).
const fn image(k: usize, r: u8, c: u8) -> (u8, u8) {
    match k {
        0 => (r, c),
        1 => (c, 2 - r),
        2 => (2 - r, 2 - c),
        3 => (2 - c, r),
        4 => (r, 2 - c),
        5 => (2 - r, c),
        6 => (c, r),
        _ => (2 - c, 2 - r),
    }
}

/// `PERM[k][i]`: the square index that index `i` goes to under symmetry `k`.
const PERM: [[u8; 9]; 8] = {
    let mut perm = [[0u8; 9]; 8];
    let mut k = 0;
    while k < 8 {
        let mut i = 0;
        while i < 9 {
            let (r, c) = image(k, i as u8 / 3, i as u8 % 3);
            perm[k][i] = r * 3 + c;
            i += 1;
        }
        k += 1;
    }
    perm
};

/// The image of square index `i` (0-8) under symmetry `k`.
pub fn map_index(i: u8, k: usize) -> u8 {
    PERM[k % 8][usize::from(i % 9)]
}

/// The image of a set of squares under symmetry `k`.
pub fn map_mask(mask: u16, k: usize) -> u16 {
    let perm = &PERM[k % 8];
    let mut out = 0;
    let mut rest = mask & 0x1FF;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        out |= 1 << perm[i];
        rest &= rest - 1;
    }
    out
}

/// The symmetry that undoes `k`: the quarter turns undo each other, the rest are
/// their own inverses.
pub fn inverse(k: usize) -> usize {
    match k {
        1 => 3,
        3 => 1,
        k => k,
    }
}

/// The `tabula count tictactoe` report: positions that can arise in play, all
/// and up to the board's symmetries.
pub fn count_results() -> tabula_core::CountReport {
    use tabula_core::{CountReport, FactValue, Section};
    let (all, distinct) = count_reachable();
    CountReport {
        summary: format!(
            "{} positions can arise in play; {distinct} up to the board's {} symmetries.",
            tabula_core::results::thousands(all as u64),
            SYMMETRY_NAMES.len()
        ),
        sections: vec![Section::new("Positions")
            .with(
                "Reachable from the empty board",
                FactValue::Integer(all as i64),
            )
            .with("Up to symmetry", FactValue::Integer(distinct as i64))
            .with(
                "Symmetries",
                FactValue::List(SYMMETRY_NAMES.iter().map(|s| s.to_string()).collect()),
            )],
    }
}

/// Reachable positions counted over all 3^9 boards: in total and up to symmetry.
pub(crate) fn count_reachable() -> (u32, u32) {
    let (mut all, mut distinct) = (0, 0);
    for code in 0..3u32.pow(9) {
        let (mut x, mut o, mut rest) = (0u16, 0u16, code);
        for i in 0..9 {
            match rest % 3 {
                1 => x |= 1 << i,
                2 => o |= 1 << i,
                _ => {}
            }
            rest /= 3;
        }
        if TicTacToe::board(x, o).is_err() {
            continue;
        }
        all += 1;
        // Count each orbit once, at its smallest (x, o) pair.
        if (0..8).all(|k| (map_mask(x, k), map_mask(o, k)) >= (x, o)) {
            distinct += 1;
        }
    }
    (all, distinct)
}
