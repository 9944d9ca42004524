//! The strong solver: retrograde analysis over the dense index, group by group.
//!
//! Groups are the positions with the same number of pieces on the board. A step
//! keeps the group, a capture goes to the group below, so groups are solved from
//! 0 pieces up, and a group's captures read final values. Inside a group the
//! values are found outward from the decided positions in order of remoteness
//! (level by level), walking step moves backwards with un-moves generated from
//! the masks, so no edge list is ever stored. Both cores share each level
//! through rayon; per position the solver keeps a 2-byte value and a 1-byte
//! counter of undecided step children.
//!
//! Only one representative of each symmetry class is solved (see [`crate::sym`]);
//! the other slots are filled in at the end. With classes, a counter holds
//! `step moves x class size` and each child class that turns out won takes
//! away its own class size per un-move that reaches the predecessor's class:
//! counting both sides over the whole group shows the sums agree exactly, also
//! for classes with symmetric members.
//!
//! Value encoding (`u16`): the top two bits are the kind, the low 14 bits the
//! remoteness. While a position is undecided its low bits hold the smallest
//! remoteness it could have as a loss (one more than its slowest capture, when
//! every capture wins for the opponent).

use crate::bits::{bits, capture_targets, DIRS};
use crate::index::{Indexer, INDEX};
use crate::rules::{after_move, KonoRules};
use crate::sym::SYM;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};
use tabula_core::{Graded, Value};

/// Kind bits of an encoded value.
pub const KIND: u16 = 0xC000;
/// Not decided yet (only while solving).
pub const UNKNOWN: u16 = 0x0000;
/// Lost for the side to move.
pub const LOSS: u16 = 0x4000;
/// Won for the side to move.
pub const WIN: u16 = 0x8000;
/// Drawn.
pub const DRAW: u16 = 0xC000;
/// Remoteness bits.
pub const REMOTENESS: u16 = 0x3FFF;

/// Counter value of a position that cannot be lost (a capture reaches a drawn or lost
/// position): at most 24 step moves x 8 per class keeps real counters below it, and
/// decrements never bring it near zero.
const CANNOT_LOSE: u8 = 0xFF;

/// Decodes a stored value.
pub fn decode(v: u16) -> Option<Graded> {
    let remoteness = u32::from(v & REMOTENESS);
    match v & KIND {
        LOSS => Some(Graded {
            value: Value::Loss,
            remoteness,
        }),
        WIN => Some(Graded {
            value: Value::Win,
            remoteness,
        }),
        DRAW => Some(Graded {
            value: Value::Draw,
            remoteness: 0,
        }),
        _ => None,
    }
}

/// Positions packed as `mover | opponent << 16`.
#[inline(always)]
fn pack(mover: u32, opponent: u32) -> u32 {
    mover | opponent << 16
}

#[inline(always)]
fn unpack(code: u32) -> (u32, u32) {
    (code & 0xFFFF, code >> 16)
}

/// Every position of a group as `(index, mover, opponent)`, in parallel.
pub fn par_positions(total: usize) -> impl ParallelIterator<Item = (u64, u32, u32)> {
    par_positions_where(total, |_| true)
}

/// The positions of a group whose mover mask passes `keep`, in parallel.
pub fn par_positions_where(
    total: usize,
    keep: impl Fn(u32) -> bool,
) -> impl ParallelIterator<Item = (u64, u32, u32)> {
    let ix = &*INDEX;
    let items: Vec<(usize, usize, usize)> = Indexer::layers(total)
        .flat_map(|(m, o)| (0..ix.masks(m).len()).map(move |r| (m, o, r)))
        .filter(|&(m, _, r)| keep(ix.masks(m)[r] as u32))
        .collect();
    items.into_par_iter().flat_map_iter(move |(m, o, r)| {
        let mover = ix.masks(m)[r] as u32;
        let free = !mover & 0xFFFF;
        let per_mover = ix.binom(16 - m, o);
        let base = ix.layer_start(m, o) + r as u64 * per_mover;
        ix.masks(o)[..per_mover as usize]
            .iter()
            .enumerate()
            .map(move |(i, &sq)| (base + i as u64, mover, ix.spread(sq as u32, free)))
    })
}

/// Positions decided at a level, split by kind.
#[derive(Default)]
struct Found {
    wins: Vec<u32>,
    losses: Vec<u32>,
    /// Losses whose remoteness is fixed by a slow capture: (remoteness, position).
    later_losses: Vec<(u16, u32)>,
    /// Wins by capture: (remoteness, position), applied at that level unless found sooner.
    capture_wins: Vec<(u16, u32)>,
}

impl Found {
    fn merge(mut self, mut other: Found) -> Found {
        if self.wins.len() < other.wins.len() {
            std::mem::swap(&mut self, &mut other);
        }
        self.wins.append(&mut other.wins);
        self.losses.append(&mut other.losses);
        self.later_losses.append(&mut other.later_losses);
        self.capture_wins.append(&mut other.capture_wins);
        self
    }
}

/// Level buckets of positions decided later than they were found.
#[derive(Default)]
struct Schedule {
    losses: Vec<Vec<u32>>,
    wins: Vec<Vec<u32>>,
}

impl Schedule {
    fn put(buckets: &mut Vec<Vec<u32>>, level: u16, code: u32) {
        let level = level as usize;
        if buckets.len() <= level {
            buckets.resize_with(level + 1, Vec::new);
        }
        buckets[level].push(code);
    }
    fn take(buckets: &mut [Vec<u32>], level: usize) -> Vec<u32> {
        buckets
            .get_mut(level)
            .map(std::mem::take)
            .unwrap_or_default()
    }
    fn last_level(&self) -> usize {
        self.losses.len().max(self.wins.len())
    }
}

/// The solved table: one encoded value per index, groups `0..=max_total`.
pub struct Solved {
    /// Encoded values.
    pub values: Vec<u16>,
    /// Largest number of pieces on the board covered.
    pub max_total: usize,
}

/// Solves every position with at most `max_total` pieces on the board.
pub fn solve(rules: KonoRules, max_total: usize, progress: &dyn Fn(f64)) -> Solved {
    match solve_until(rules, max_total, progress, &|| false) {
        Some(solved) => solved,
        None => unreachable!("a solve that is never stopped finishes"),
    }
}

/// [`solve`], asking `stopped` between the levels of each group of positions
/// (a fraction of a second apart): `None` as soon as it says so.
pub fn solve_until(
    rules: KonoRules,
    max_total: usize,
    progress: &dyn Fn(f64),
    stopped: &dyn Fn() -> bool,
) -> Option<Solved> {
    let ix = &*INDEX;
    let len = ix.group(max_total).end as usize;
    let values: Vec<AtomicU16> = (0..len).map(|_| AtomicU16::new(UNKNOWN)).collect();
    let counts: Vec<AtomicU8> = (0..len).map(|_| AtomicU8::new(0)).collect();
    for total in 0..=max_total {
        if stopped() || !solve_group(rules, total, &values, &counts, stopped) {
            return None;
        }
        let range = ix.group(total);
        values[range.start as usize..range.end as usize]
            .par_iter()
            .for_each(|v| {
                if v.load(Relaxed) & KIND == UNKNOWN {
                    v.store(DRAW, Relaxed);
                }
            });
        progress(range.end as f64 / len as f64);
    }
    drop(counts);
    fill_symmetric(&values, max_total);
    Some(Solved {
        values: values.into_iter().map(AtomicU16::into_inner).collect(),
        max_total,
    })
}

/// Copies each class representative's value to the other members of its class.
fn fill_symmetric(shared: &[AtomicU16], max_total: usize) {
    let ix = &*INDEX;
    for total in 0..=max_total {
        par_positions_where(total, |m| SYM.is_least_image(m))
            .filter(|&(_, m, o)| SYM.is_canonical(m, o))
            .for_each(|(index, m, o)| {
                let v = shared[index as usize].load(Relaxed);
                for g in 1..8 {
                    let slot = ix.index(SYM.apply(g, m), SYM.apply(g, o)) as usize;
                    if slot != index as usize {
                        shared[slot].store(v, Relaxed);
                    }
                }
            });
    }
}

/// Solves the positions with `total` pieces; false when `stopped` said so first.
fn solve_group(
    rules: KonoRules,
    total: usize,
    values: &[AtomicU16],
    counts: &[AtomicU8],
    stopped: &dyn Fn() -> bool,
) -> bool {
    let ix = &*INDEX;

    // Initial pass: count step children, read capture children (already final).
    let found = par_positions_where(total, |mover| SYM.is_least_image(mover))
        .filter(|&(_, mover, opponent)| SYM.is_canonical(mover, opponent))
        .fold(Found::default, |mut found, (index, mover, opponent)| {
            let code = pack(mover, opponent);
            if rules.is_lost(mover, opponent) {
                values[index as usize].store(LOSS, Relaxed);
                found.losses.push(code);
                return found;
            }
            let steps = rules.step_moves(mover, opponent);
            let (mut best_win, mut slowest_loss, mut cannot_lose) = (u16::MAX, 0u16, false);
            for d in DIRS {
                for to in bits(capture_targets(d, mover, opponent)) {
                    let from = (to as i32 - 2 * d.offset()) as u32;
                    let (cm, co) = after_move(mover, opponent, from, to);
                    let (cm, co, _) = SYM.canon(cm, co);
                    let child = values[ix.index(cm, co) as usize].load(Relaxed);
                    let r = (child & REMOTENESS) + 1;
                    match child & KIND {
                        LOSS => {
                            best_win = best_win.min(r);
                            cannot_lose = true;
                        }
                        WIN => slowest_loss = slowest_loss.max(r),
                        _ => cannot_lose = true,
                    }
                }
            }
            let class_size = SYM.canon(mover, opponent).2;
            counts[index as usize].store(
                if cannot_lose {
                    CANNOT_LOSE
                } else {
                    (steps * class_size) as u8
                },
                Relaxed,
            );
            if best_win != u16::MAX {
                found.capture_wins.push((best_win, code));
            } else if steps == 0 && !cannot_lose {
                values[index as usize].store(LOSS | slowest_loss, Relaxed);
                found.later_losses.push((slowest_loss, code));
                return found;
            }
            values[index as usize].store(UNKNOWN | slowest_loss, Relaxed);
            found
        })
        .reduce(Found::default, Found::merge);

    let mut schedule = Schedule::default();
    for (level, code) in found.later_losses {
        Schedule::put(&mut schedule.losses, level, code);
    }
    for (level, code) in found.capture_wins {
        Schedule::put(&mut schedule.wins, level, code);
    }
    let mut wins: Vec<u32> = Vec::new();
    let mut losses: Vec<u32> = found.losses;
    let mut level = 0usize;
    loop {
        losses.append(&mut Schedule::take(&mut schedule.losses, level));
        let due = Schedule::take(&mut schedule.wins, level);
        let lvl = level as u16;
        wins.par_extend(due.into_par_iter().filter(|&code| {
            let (m, o) = unpack(code);
            let slot = &values[ix.index(m, o) as usize];
            let cur = slot.load(Relaxed);
            cur & KIND == UNKNOWN
                && slot
                    .compare_exchange(cur, WIN | lvl, Relaxed, Relaxed)
                    .is_ok()
        }));
        if wins.is_empty() && losses.is_empty() && level >= schedule.last_level() {
            return true;
        }
        if stopped() {
            return false;
        }
        let next = propagate(rules, level as u16, &wins, &losses, values, counts);
        for (l, code) in next.later_losses {
            Schedule::put(&mut schedule.losses, l, code);
        }
        wins = next.wins;
        losses = next.losses;
        level += 1;
    }
}

/// Walks back one step from every position decided at `level`.
fn propagate(
    rules: KonoRules,
    level: u16,
    wins: &[u32],
    losses: &[u32],
    values: &[AtomicU16],
    counts: &[AtomicU8],
) -> Found {
    let ix = &*INDEX;
    let next = level + 1;
    assert!(next < REMOTENESS, "remoteness overflows the 14-bit field");
    // A lost position makes every predecessor a win at the next level.
    let from_losses = losses
        .par_chunks(1024)
        .fold(Found::default, |mut found, chunk| {
            for &code in chunk {
                let (m, o) = unpack(code);
                rules.for_each_step_predecessor(m, o, |pm, po| {
                    let (pm, po, _) = SYM.canon(pm, po);
                    let slot = &values[ix.index(pm, po) as usize];
                    let cur = slot.load(Relaxed);
                    if cur & KIND == UNKNOWN
                        && slot
                            .compare_exchange(cur, WIN | next, Relaxed, Relaxed)
                            .is_ok()
                    {
                        found.wins.push(pack(pm, po));
                    }
                });
            }
            found
        })
        .reduce(Found::default, Found::merge);
    // A won position removes one hope from each predecessor; the last one makes it a loss.
    let from_wins = wins
        .par_chunks(1024)
        .fold(Found::default, |mut found, chunk| {
            for &code in chunk {
                let (m, o) = unpack(code);
                let class_size = SYM.canon(m, o).2 as u8;
                rules.for_each_step_predecessor(m, o, |pm, po| {
                    let (pm, po, _) = SYM.canon(pm, po);
                    let i = ix.index(pm, po) as usize;
                    let before = counts[i].fetch_sub(class_size, Relaxed);
                    debug_assert!(before >= class_size, "more un-moves than moves");
                    if before == class_size {
                        let floor = values[i].load(Relaxed) & REMOTENESS;
                        let r = floor.max(next);
                        values[i].store(LOSS | r, Relaxed);
                        if r == next {
                            found.losses.push(pack(pm, po));
                        } else {
                            found.later_losses.push((r, pack(pm, po)));
                        }
                    }
                });
            }
            found
        })
        .reduce(Found::default, Found::merge);
    from_losses.merge(from_wins)
}
