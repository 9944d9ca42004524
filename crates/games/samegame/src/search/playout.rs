//! Random games to the end, the leaves of the nested searches.
//!
//! The policy is TabuColorRandom (Cazenave, "Nested Monte-Carlo Search", 2009):
//! the colour with the most blocks when the playout starts is tabu, and a random
//! group of another colour is removed while there is one; only then are tabu
//! groups removed. Saving the commonest colour lets it gather into large groups.
//! Unlike the paper, a group is drawn with probability proportional to its size
//! (a random block is drawn, and kept if removable): this needs no scan of the
//! board for most clicks, and scored the same as uniform choice in our tests.

use super::fast::{FastBoard, FAST_MAX_HEIGHT};
use crate::board::{Board, Group, Scan};
use crate::scoring::Scoring;
use rand::Rng as _;
use tabula_core::Rng;

/// Reusable buffers for playouts.
#[derive(Default)]
pub(crate) struct Scratch {
    pub fast: FastBoard,
    pub scan: Scan,
    pub groups: Vec<Group>,
    pub stack: Vec<u16>,
    pub moves: Vec<u16>,
}

/// The colour with the most blocks (the lowest such colour on ties); 0 on an empty board.
pub(crate) fn commonest_colour(board: &Board) -> u8 {
    let counts = board.colour_counts();
    let mut top = 0;
    for c in 1..counts.len() {
        if counts[c] > counts[top] {
            top = c;
        }
    }
    top as u8
}

/// Plays `board` to the end with the TabuColorRandom policy, appending the clicks
/// `(column, height)` to `clicks`; returns the final score. A random block is
/// drawn and kept if it can be removed (and is not tabu while other colours can
/// be); after a few misses the board is scanned for the groups that qualify.
pub(crate) fn tabu_playout(
    board: &mut Board,
    scoring: Scoring,
    tabu: u8,
    rng: &mut Rng,
    s: &mut Scratch,
    clicks: &mut Vec<(u8, u8)>,
) -> i64 {
    let h = board.height();
    let w = board.width();
    let mut only_tabu = false;
    loop {
        let used = board.columns_used();
        if used == 0 {
            return board.score();
        }
        let mut chosen = None;
        if !only_tabu {
            for _ in 0..8 {
                let i = rng.gen_range(0..used * h);
                let c = board.cells()[i];
                if c == 0 || c == tabu {
                    continue;
                }
                let (col, y) = (i / h, i % h);
                let cells = board.cells();
                if (y + 1 < h && cells[i + 1] == c)
                    || (y > 0 && cells[i - 1] == c)
                    || (col + 1 < w && cells[i + h] == c)
                    || (col > 0 && cells[i - h] == c)
                {
                    chosen = Some((col as u8, y as u8));
                    break;
                }
            }
        }
        let (col, y) = match chosen {
            Some(cy) => cy,
            None => {
                s.groups.clear();
                board.label_groups(&mut s.scan, &mut s.groups);
                s.moves.clear();
                let mut weight = 0u32;
                for (i, g) in s.groups.iter().enumerate() {
                    if g.size >= 2 && g.colour != tabu {
                        s.moves.push(i as u16);
                        weight += g.size as u32;
                    }
                }
                if s.moves.is_empty() {
                    only_tabu = true;
                    s.moves.extend(
                        s.groups
                            .iter()
                            .enumerate()
                            .filter(|(_, g)| g.size >= 2)
                            .map(|(i, _)| i as u16),
                    );
                    weight = s
                        .moves
                        .iter()
                        .map(|&i| s.groups[i as usize].size as u32)
                        .sum();
                }
                if s.moves.is_empty() {
                    return board.score();
                }
                let mut pick = rng.gen_range(0..weight);
                let mut g = s.groups[s.moves[0] as usize];
                for &m in &s.moves {
                    let cand = s.groups[m as usize];
                    if pick < cand.size as u32 {
                        g = cand;
                        break;
                    }
                    pick -= cand.size as u32;
                }
                (g.col, g.y)
            }
        };
        board.play(col as usize, y as usize, scoring, &mut s.stack);
        clicks.push((col, y));
    }
}

/// A TabuColorRandom playout from `board` (left unchanged): the bit-parallel board
/// when it is at most 64 rows high, the plain one otherwise.
pub(crate) fn playout(
    board: &Board,
    scoring: Scoring,
    rng: &mut Rng,
    s: &mut Scratch,
    clicks: &mut Vec<(u8, u8)>,
) -> i64 {
    let tabu = commonest_colour(board);
    if board.height() <= FAST_MAX_HEIGHT {
        s.fast.load(board);
        s.fast.tabu_playout(scoring, tabu, rng, clicks)
    } else {
        let mut b = board.clone();
        tabu_playout(&mut b, scoring, tabu, rng, s, clicks)
    }
}
