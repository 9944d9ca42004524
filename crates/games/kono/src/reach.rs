//! Which positions can occur in a game from a given start, and the counts.
//!
//! The table stores a position once whoever moves; a real position also says
//! which seat moves, so reachability keeps two bits per index (seat 0 to move,
//! seat 1 to move). The search runs group by group from the most pieces down:
//! steps stay in the group (a breadth-first flood, both cores per round),
//! captures seed the next group. The start is symmetric under the left-right
//! mirror, so only one of each mirror pair is expanded; both are marked.

use crate::index::INDEX;
use crate::rules::{after_move, KonoRules};
use crate::solve::{decode, DRAW, KIND, LOSS, REMOTENESS, WIN};
use crate::sym::{MIRROR, SYM};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use tabula_core::Graded;

/// A real position: mover's and opponent's masks and the seat to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seated {
    /// Pieces of the side to move.
    pub mover: u32,
    /// Pieces of the other side.
    pub opponent: u32,
    /// Seat to move (0 Top, 1 Bottom).
    pub seat: u8,
}

#[inline(always)]
fn pack(p: Seated) -> u64 {
    p.mover as u64 | (p.opponent as u64) << 16 | (p.seat as u64) << 32
}

#[inline(always)]
fn unpack(code: u64) -> Seated {
    Seated {
        mover: (code & 0xFFFF) as u32,
        opponent: (code >> 16 & 0xFFFF) as u32,
        seat: (code >> 32) as u8,
    }
}

/// Two bits per table index: reached with seat 0 / seat 1 to move.
pub struct Reached {
    words: Vec<AtomicU64>,
}

impl Reached {
    fn new(len: u64) -> Reached {
        Reached {
            words: (0..(2 * len).div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }
    /// The bit of a position (callers pass mirror representatives).
    #[inline(always)]
    fn bit(&self, p: Seated) -> u64 {
        2 * INDEX.index(p.mover, p.opponent) + p.seat as u64
    }
    /// Sets a bit; true if it was clear.
    #[inline(always)]
    fn set(&self, bit: u64) -> bool {
        let mask = 1u64 << (bit % 64);
        let w = &self.words[(bit / 64) as usize];
        w.load(Relaxed) & mask == 0 && w.fetch_or(mask, Relaxed) & mask == 0
    }
    /// Marks a position; true if it was not marked before.
    #[inline(always)]
    fn mark(&self, p: Seated) -> bool {
        self.set(self.bit(p))
    }
    /// Hints that a bit's word will be needed soon.
    #[inline(always)]
    fn prefetch(&self, bit: u64) {
        crate::prefetch(&self.words[(bit / 64) as usize]);
    }
    /// True if the position (or its mirror image) was reached.
    pub fn contains(&self, p: Seated) -> bool {
        let (mover, opponent) = SYM.mirror_canon(p.mover, p.opponent);
        let bit = 2 * INDEX.index(mover, opponent) + p.seat as u64;
        self.words[(bit / 64) as usize].load(Relaxed) >> (bit % 64) & 1 == 1
    }
}

/// Marks every position reachable from `start` (which must be within the solved groups).
pub fn reachable(rules: KonoRules, start: Seated, len: u64) -> Reached {
    let reached = Reached::new(len);
    let (mover, opponent) = SYM.mirror_canon(start.mover, start.opponent);
    let start = Seated {
        mover,
        opponent,
        seat: start.seat,
    };
    reached.mark(start);
    let top = (start.mover | start.opponent).count_ones() as usize;
    let mut seeds: Vec<u64> = vec![pack(start)];
    for _total in (0..=top).rev() {
        let mut frontier = std::mem::take(&mut seeds);
        let mut captured: Vec<u64> = Vec::new();
        while !frontier.is_empty() {
            let (next, mut caps) = frontier
                .par_chunks(512)
                .fold(
                    || (Vec::new(), Vec::new(), Vec::new()),
                    |(mut next, mut caps, mut children): (Vec<u64>, Vec<u64>, Vec<(u64, u64)>),
                     chunk| {
                        // First find every child's bit and ask for its cache line, then
                        // test them: the misses overlap instead of queueing one by one.
                        children.clear();
                        for &code in chunk {
                            let p = unpack(code);
                            rules.for_each_move(p.mover, p.opponent, |from, to, capture| {
                                let (mover, opponent) = after_move(p.mover, p.opponent, from, to);
                                let (mover, opponent) = SYM.mirror_canon(mover, opponent);
                                let child = Seated {
                                    mover,
                                    opponent,
                                    seat: p.seat ^ 1,
                                };
                                let bit = reached.bit(child);
                                reached.prefetch(bit);
                                children.push((bit, pack(child) | u64::from(capture) << 40));
                            });
                        }
                        for &(bit, code) in &children {
                            if reached.set(bit) {
                                if code >> 40 == 1 {
                                    caps.push(code & 0xFF_FFFF_FFFF);
                                } else {
                                    next.push(code);
                                }
                            }
                        }
                        (next, caps, children)
                    },
                )
                .map(|(next, caps, _)| (next, caps))
                .reduce(
                    || (Vec::new(), Vec::new()),
                    |(mut a, mut b), (mut c, mut d)| {
                        a.append(&mut c);
                        b.append(&mut d);
                        (a, b)
                    },
                );
            captured.append(&mut caps);
            frontier = next;
        }
        seeds = captured;
    }
    reached
}

/// Counts of a strong solution over the positions reachable from a start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Reachable positions (seat to move included), terminal ones included.
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
    /// The start's value.
    pub start: Graded,
    /// Largest remoteness of a reachable won or lost position.
    pub max_remoteness: u32,
}

/// Counts values over the reached positions (a mirror pair counts twice, a
/// position that is its own mirror image once).
pub fn summarize(values: &[u16], reached: &Reached, start: Seated) -> Summary {
    let top = (start.mover | start.opponent).count_ones() as usize;
    let zero = || (0u64, 0u64, 0u64, 0u64, 0u32);
    let add = |a: (u64, u64, u64, u64, u32), b: (u64, u64, u64, u64, u32)| {
        (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3, a.4.max(b.4))
    };
    let (positions, wins, losses, draws, max_remoteness) = (0..=top)
        .map(|total| {
            crate::solve::par_positions(total)
                .fold(zero, |mut acc, (index, m, o)| {
                    let word = reached.words[(2 * index / 64) as usize].load(Relaxed);
                    let seats = (word >> (2 * index % 64) & 3).count_ones() as u64;
                    if seats == 0 {
                        return acc;
                    }
                    let own_image = (m, o) == (SYM.apply(MIRROR, m), SYM.apply(MIRROR, o));
                    let weight = if own_image { 1 } else { 2 };
                    let n = seats * weight;
                    let v = values[index as usize];
                    acc.0 += n;
                    match v & KIND {
                        WIN => acc.1 += n,
                        LOSS => acc.2 += n,
                        DRAW => acc.3 += n,
                        _ => unreachable!("unsolved position in a finished table"),
                    }
                    if v & KIND != DRAW {
                        acc.4 = acc.4.max(u32::from(v & REMOTENESS));
                    }
                    acc
                })
                .reduce(zero, add)
        })
        .fold(zero(), add);
    let start =
        decode(values[INDEX.index(start.mover, start.opponent) as usize]).expect("solved start");
    Summary {
        positions,
        wins,
        losses,
        draws,
        start,
        max_remoteness,
    }
}
