//! Nested Monte-Carlo search (Cazenave, "Nested Monte-Carlo Search", IJCAI 2009)
//! with memorised best sequences.
//!
//! At level `L` every move of the current board is tried with a level `L-1`
//! search below it (level 0 is one playout); the best sequence seen so far is
//! remembered and its next move played, so the search always holds a complete
//! game. When the deadline passes it stops trying moves and finishes along the
//! remembered sequence, which makes it anytime. The moves of the top level are
//! searched in parallel, each subtree with generators derived from the seed and
//! its place in the tree, so the result does not depend on thread scheduling.

use super::playout::{playout, Scratch};
use super::{mix, Line};
use crate::board::{Board, Group};
use crate::scoring::Scoring;
use rayon::prelude::*;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use tabula_core::{rng_from_seed, CancelFlag};

pub(crate) struct Nested<'a> {
    pub scoring: Scoring,
    pub deadline: Option<Instant>,
    pub stop: &'a CancelFlag,
    pub playouts: AtomicU64,
    pub seed: u64,
    /// Told the score of every improvement found at the top level.
    pub on_best: &'a (dyn Fn(i64) + Sync),
}

impl Nested<'_> {
    pub(crate) fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d) || self.stop.is_cancelled()
    }

    fn playout(&self, board: &Board, key: u64) -> Line {
        thread_local! {
            static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
        }
        let mut clicks = Vec::new();
        let mut rng = rng_from_seed(mix(self.seed, key));
        let score = SCRATCH.with(|s| {
            playout(
                board,
                self.scoring,
                &mut rng,
                &mut s.borrow_mut(),
                &mut clicks,
            )
        });
        self.playouts.fetch_add(1, Ordering::Relaxed);
        Line { score, clicks }
    }

    /// Level-`level` search from `board`. `key` seeds the generators of this
    /// subtree; `known` is a game from `board` already found (it is kept if
    /// nothing better turns up); `top` runs the moves in parallel and reports
    /// improvements.
    pub(crate) fn search(
        &self,
        board: &Board,
        level: u32,
        key: u64,
        known: Option<Line>,
        top: bool,
    ) -> Line {
        if level == 0 {
            return self.playout(board, key);
        }
        let mut s = Scratch::default();
        let mut board = board.clone();
        let mut best = known.unwrap_or(Line {
            score: i64::MIN,
            clicks: Vec::new(),
        });
        let mut played: Vec<(u8, u8)> = Vec::new();
        let mut moves: Vec<Group> = Vec::new();
        for step in 0u64.. {
            s.groups.clear();
            board.label_groups(&mut s.scan, &mut s.groups);
            moves.clear();
            moves.extend(s.groups.iter().filter(|g| g.size >= 2));
            if moves.is_empty() {
                if board.score() > best.score {
                    best = Line {
                        score: board.score(),
                        clicks: played.clone(),
                    };
                }
                break;
            }
            if !self.out_of_time() {
                let try_move = |(i, g): (usize, &Group)| {
                    if self.out_of_time() {
                        return None;
                    }
                    let mut child = board.clone();
                    let mut stack = Vec::new();
                    child.play(g.col as usize, g.y as usize, self.scoring, &mut stack);
                    let sub_key = mix(key, step << 16 | i as u64);
                    Some((i, self.search(&child, level - 1, sub_key, None, false)))
                };
                let results: Vec<(usize, Line)> = if top {
                    moves.par_iter().enumerate().filter_map(try_move).collect()
                } else {
                    moves.iter().enumerate().filter_map(try_move).collect()
                };
                for (i, sub) in results {
                    if sub.score > best.score {
                        let g = moves[i];
                        let mut clicks = Vec::with_capacity(played.len() + 1 + sub.clicks.len());
                        clicks.extend_from_slice(&played);
                        clicks.push((g.col, g.y));
                        clicks.extend_from_slice(&sub.clicks);
                        best = Line {
                            score: sub.score,
                            clicks,
                        };
                        if top {
                            (self.on_best)(best.score);
                        }
                    }
                }
            }
            // Follow the best sequence one step (it begins with the moves played so far);
            // with no sequence yet (out of time at once) any move will do.
            let (col, y) = best
                .clicks
                .get(played.len())
                .copied()
                .unwrap_or((moves[0].col, moves[0].y));
            board.play(col as usize, y as usize, self.scoring, &mut s.stack);
            played.push((col, y));
        }
        best
    }
}
