//! The certifying pass: for every position of every layer, the stored value
//! against one step of the optimality equation computed from the stored values
//! of the positions it leads to; the largest difference is the table's Bellman
//! residual.
//!
//! It shares only the index with the solver: the moves are worked out again here
//! from the squares with the board's own `destination`, the values are read as
//! f64 and the equation is computed in floating point, the other's rows read
//! one other at a time (the sweep copies bands of them). Only the stored values
//! under check are fetched for a group of others at once, one run of each
//! roller's row, since fetching them one position at a time left the pass
//! waiting for memory.

// Unsafe code, each block with its SAFETY comment: the AVX2 certification kernel, chosen after the processor is asked what it has.
#![allow(unsafe_code)]

use super::files;
use super::index::LayerIndex;
use super::solver::LayeredError;
use super::sweep::{AHEAD, D};
use super::Plan;
use crate::board::{destination, TARGET};
use crate::exact::{rank, Sets, FREE, INDEX, SQUARE};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Others whose stored values are fetched together, row by row.
const OTHERS: usize = 16;

/// What the certifying pass found.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Residual {
    /// The largest |stored value - one step of the equation| over every position.
    pub largest: f64,
    /// Where it is (position notation, the roller as Player 1).
    pub at: String,
    /// Positions checked.
    pub positions: u64,
    /// Wall-clock seconds of the pass.
    pub seconds: f64,
}

/// One move of a roller's multiset, found from its squares.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// The marker retires; the rank of the others (one fewer).
    Retire(u32),
    /// The marker lands on square index `land` (0: square 1, bumps nobody).
    Land { next: u32, land: u8 },
}

/// The moves of every multiset of `k` markers for each roll 2..6, one per
/// distinct square moved from, in one flat list: those of multiset `m` and roll
/// `r + 2` are `steps[start[m * 5 + r]..start[m * 5 + r + 1]]`.
struct Moves {
    start: Vec<u32>,
    steps: Vec<Step>,
}

impl Moves {
    fn of(&self, m: usize, r: usize) -> &[Step] {
        let i = m * 5 + r;
        &self.steps[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

fn moves(set: &Sets) -> Moves {
    let k = set.k;
    let mut start = Vec::with_capacity(set.len * 5 + 1);
    let mut steps = Vec::new();
    for sq in &set.squares {
        for roll in 2..=6u8 {
            start.push(steps.len() as u32);
            let mut seen = 0u64;
            for j in 0..k {
                if seen >> sq[j] & 1 != 0 {
                    continue;
                }
                seen |= 1 << sq[j];
                let to = destination(SQUARE[sq[j] as usize], roll);
                let mut rest: Vec<u8> = sq[..k].to_vec();
                rest.remove(j);
                if to == TARGET {
                    steps.push(Step::Retire(rank(&mut rest)));
                } else {
                    let land = INDEX[to as usize];
                    rest.push(land);
                    steps.push(Step::Land {
                        next: rank(&mut rest),
                        land,
                    });
                }
            }
        }
    }
    start.push(steps.len() as u32);
    Moves { start, steps }
}

/// Row `t` of a layer as stored values by the column's full rank (0 where the
/// pair cannot occur: [`value`] tells those apart by the squares). Kept as the
/// 4-byte values, not as f64, so that the rows of one other fit in the
/// processor's cache.
fn row(
    index: &LayerIndex,
    values: &[AtomicU32],
    t: usize,
    taken: u64,
    cols: &Sets,
    out: &mut Vec<u32>,
) {
    out.clear();
    let mut at = index.row(t) as usize;
    for &mask in &cols.mask {
        out.push(if mask & taken == 0 {
            at += 1;
            values[at - 1].load(Relaxed)
        } else {
            0
        });
    }
}

/// Column `col` (squares `mask`) of a row read by [`row`] whose own squares
/// are `taken`, as a probability; NaN where the pair cannot occur.
#[inline(always)]
fn value(row: &[u32], col: usize, mask: u64, taken: u64) -> f64 {
    if mask & taken != 0 {
        f64::NAN
    } else {
        row[col] as f64 / D as f64
    }
}

/// The largest residual of layer (x, y) and where it is, from the values of
/// that layer (`own`), of (y, x) (`next`) and of (y, x + 1) (`retired`, none
/// when retiring the last marker wins).
#[allow(clippy::too_many_arguments)]
pub fn certify_layer(
    plan: &Plan,
    (x, y): (usize, usize),
    own: &[AtomicU32],
    next: &[AtomicU32],
    retired: Option<&[AtomicU32]>,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<(f64, String), LayeredError> {
    certify_others(plan, (x, y), own, next, retired, stop, 1)
}

/// [`certify_layer`] over every `stride`-th other only (for timings).
fn certify_others(
    plan: &Plan,
    layer: (usize, usize),
    own: &[AtomicU32],
    next: &[AtomicU32],
    retired: Option<&[AtomicU32]>,
    stop: &(dyn Fn() -> bool + Sync),
    stride: usize,
) -> Result<(f64, String), LayeredError> {
    #[cfg(target_arch = "x86_64")]
    if super::sweep::Kernel::best() != super::sweep::Kernel::Plain {
        // SAFETY: a build past the plain one runs only where the processor
        // has AVX2 and the bit-counting instructions.
        return unsafe { certify_fast(plan, layer, own, next, retired, stop, stride) };
    }
    certify_body(plan, layer, own, next, retired, stop, stride)
}

/// [`certify_others`] compiled for AVX2 and the bit-counting instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
#[allow(clippy::too_many_arguments)]
unsafe fn certify_fast(
    plan: &Plan,
    layer: (usize, usize),
    own: &[AtomicU32],
    next: &[AtomicU32],
    retired: Option<&[AtomicU32]>,
    stop: &(dyn Fn() -> bool + Sync),
    stride: usize,
) -> Result<(f64, String), LayeredError> {
    certify_body(plan, layer, own, next, retired, stop, stride)
}

#[inline(always)]
fn certify_body(
    plan: &Plan,
    (x, y): (usize, usize),
    own: &[AtomicU32],
    next: &[AtomicU32],
    retired: Option<&[AtomicU32]>,
    stop: &(dyn Fn() -> bool + Sync),
    stride: usize,
) -> Result<(f64, String), LayeredError> {
    let n = plan.n;
    let (ka, kb) = (n - x, n - y);
    let (sa, sb) = (plan.set(ka), plan.set(kb));
    let mv = moves(sa);
    let own_index = plan.layer(x, y);
    let next_index = plan.layer(y, x);
    // The others go by groups of OTHERS: the stored values of one roller
    // against the group are one run of its row, fetched once for the group
    // (one value a row at a time would wait for memory at every position).
    let found = (0..sb.len.div_ceil(OTHERS))
        .into_par_iter()
        .step_by(stride)
        .map_init(
            || {
                (
                    Vec::new(),
                    Vec::new(),
                    Vec::new(),
                    [Vec::new(), Vec::new(), Vec::new(), Vec::new()],
                )
            },
            |(stored_rows, same, after, bumped), group| {
                if stop() {
                    return None;
                }
                let others = group * OTHERS..((group + 1) * OTHERS).min(sb.len);
                stored_rows.clear();
                stored_rows.resize(sa.len * OTHERS, 0u32);
                for m in 0..sa.len {
                    if let Some(&ahead) = sa.mask.get(m + AHEAD) {
                        let t = others.start;
                        let at = own_index.at(m + AHEAD, ahead, &sb.squares[t][..kb]);
                        super::sweep::prefetch(&own[(at as usize).min(own.len() - 1)]);
                    }
                    let um = sa.mask[m];
                    let mut at = None;
                    for (l, t) in others.clone().enumerate() {
                        if um & sb.mask[t] != 0 {
                            continue;
                        }
                        // Consecutive others that can occur have consecutive places.
                        let here = at.unwrap_or_else(|| own_index.at(m, um, &sb.squares[t][..kb]));
                        stored_rows[m * OTHERS + l] = own[here as usize].load(Relaxed);
                        at = Some(here + 1);
                    }
                }
                let mut best = (0.0f64, 0usize, 0usize);
                for (l, t) in others.enumerate() {
                    let ut = sb.mask[t];
                    row(next_index, next, t, ut, sa, same);
                    if let Some(r) = retired {
                        row(plan.layer(y, x + 1), r, t, ut, plan.set(ka - 1), after);
                    }
                    // The rows after each bump: the other's markers on square q go to 1.
                    let mut squares = [0u8; 4];
                    let mut count = 0;
                    let mut bits = ut;
                    while bits != 0 {
                        let q = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let t2 = sb.bump[t * FREE + q] as usize;
                        row(next_index, next, t2, sb.mask[t2], sa, &mut bumped[count]);
                        squares[count] = q as u8;
                        count += 1;
                    }
                    let bumped_masks: [u64; 4] = std::array::from_fn(|i| {
                        sb.mask[sb.bump[t * FREE + squares[i] as usize] as usize]
                    });
                    for m in 0..sa.len {
                        let um = sa.mask[m];
                        if um & ut != 0 {
                            continue;
                        }
                        let stored = stored_rows[m * OTHERS + l] as f64 / D as f64;
                        let mut sum = 1.0 - value(same, m, um, ut);
                        for r in 0..5 {
                            let mut top = f64::NEG_INFINITY;
                            for s in mv.of(m, r) {
                                let v = match *s {
                                    Step::Retire(rest) => match retired {
                                        None => 1.0,
                                        Some(_) => {
                                            let mask = plan.set(ka - 1).mask[rest as usize];
                                            1.0 - value(after, rest as usize, mask, ut)
                                        }
                                    },
                                    Step::Land { next, land } => {
                                        let mask = sa.mask[next as usize];
                                        match squares[..count].iter().position(|&q| q == land) {
                                            Some(i) => {
                                                1.0 - value(
                                                    &bumped[i],
                                                    next as usize,
                                                    mask,
                                                    bumped_masks[i],
                                                )
                                            }
                                            None => 1.0 - value(same, next as usize, mask, ut),
                                        }
                                    }
                                };
                                // NaN stays NaN through the maximum.
                                top = if v.is_nan() { v } else { top.max(v) };
                            }
                            sum += top;
                        }
                        let r = (stored - sum / 6.0).abs();
                        // NaN (a value read where no position can be) counts as the worst.
                        let r = if r.is_nan() { f64::INFINITY } else { r };
                        if r > best.0 {
                            best = (r, m, t);
                        }
                    }
                }
                Some(best)
            },
        )
        .try_reduce(
            || (0.0f64, 0usize, 0usize),
            |a, b| Some(if b.0 > a.0 { b } else { a }),
        )
        .ok_or(LayeredError::Stopped)?;
    Ok((found.0, position_text(n, sa, found.1, x, sb, found.2, y)))
}

/// Maps the finished layer (a, b) from `dir`, checking its checksum.
fn load(plan: &Plan, dir: &Path, a: usize, b: usize) -> Result<files::MappedLayer, LayeredError> {
    let len = plan.layer(a, b).len();
    Ok(files::MappedLayer::open(
        &files::layer_path(dir, a, b),
        plan.n,
        (a, b),
        len,
    )?)
}

/// Certifies the finished layer (x, y) from its file and those of the layers
/// it reads (for a layer whose group was finished by an earlier run that did
/// not record its residual).
pub fn certify_from_disk(
    plan: &Plan,
    dir: &Path,
    (x, y): (usize, usize),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<(f64, String), LayeredError> {
    let own = load(plan, dir, x, y)?;
    let next = if x == y {
        None
    } else {
        Some(load(plan, dir, y, x)?)
    };
    let retired = if x + 1 < plan.n {
        Some(load(plan, dir, y, x + 1)?)
    } else {
        None
    };
    certify_layer(
        plan,
        (x, y),
        own.values(),
        next.as_ref().map_or(own.values(), |m| m.values()),
        retired.as_ref().map(|m| m.values()),
        stop,
    )
}

/// The position (roller's multiset `m` with `a` retired, other's `t` with `b`
/// retired), Player 1 to roll.
fn position_text(n: usize, sa: &Sets, m: usize, a: usize, sb: &Sets, t: usize, b: usize) -> String {
    let side = |set: &Sets, r: usize, retired: usize| -> String {
        let mut v: Vec<String> = set.squares[r][..set.k]
            .iter()
            .map(|&i| SQUARE[i as usize].to_string())
            .collect();
        v.extend((0..retired).map(|_| TARGET.to_string()));
        debug_assert_eq!(v.len(), n);
        v.join(",")
    };
    format!("{}/{}:1", side(sa, m, a), side(sb, t, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solved table of two markers certifies below 1e-9; one stored value of
    /// its start layer moved by 1e-6 (a few values, in different groups of
    /// others and rows) is found: the residual becomes at least that change,
    /// at that position, whichever other of its group it is.
    #[test]
    fn a_wrong_value_is_found_where_it_is() {
        let n = 2;
        let plan = Plan::new(n);
        let dir = super::super::testing::scratch("certify");
        super::super::solve(&plan, &super::super::testing::options(dir.path()), &|_| {}).unwrap();
        let start = load(&plan, dir.path(), 0, 0).unwrap();
        let retired = load(&plan, dir.path(), 0, 1).unwrap();
        let copy = |v: &[AtomicU32]| -> Vec<AtomicU32> {
            v.iter().map(|x| AtomicU32::new(x.load(Relaxed))).collect()
        };
        let certify = |own: &[AtomicU32]| {
            certify_layer(&plan, (0, 0), own, own, Some(retired.values()), &|| false).unwrap()
        };
        let (clean, _) = certify(start.values());
        assert!(clean <= 1e-9, "the solved table: {clean:e}");
        let (sa, index) = (plan.set(n), plan.layer(0, 0));
        let mut planted = 0;
        for (m, t) in [
            (0, 1),
            (3, 17),
            (sa.len / 2, 20),
            (sa.len - 1, 2),
            (5, sa.len - 3),
        ] {
            let (um, ut) = (sa.mask[m], sa.mask[t]);
            if um & ut != 0 {
                continue;
            }
            let own = copy(start.values());
            let at = index.at(m, um, &sa.squares[t][..n]) as usize;
            let was = own[at].load(Relaxed);
            let step = (1e-6 * D as f64) as u32;
            let moved = if was > D as u32 / 2 {
                was - step
            } else {
                was + step
            };
            own[at].store(moved, Relaxed);
            let (largest, where_) = certify(&own);
            // At least the change; more where the position leads back to
            // itself (a bump can make the same pair, the other to roll: one
            // roll in six then reads the wrong value too).
            let delta = step as f64 / D as f64;
            assert!(
                largest >= delta - 2e-9 && largest <= delta * 2.0,
                "{m}, {t}: {largest:e} at {where_}"
            );
            assert_eq!(where_, position_text(n, sa, m, 0, sa, t, 0), "{m}, {t}");
            planted += 1;
        }
        assert!(planted >= 4, "{planted} values planted");
    }

    /// Wall-clock and CPU seconds of the certifying pass over every 50th other
    /// of the start layer of `TABULA_SWEEP_MARKERS` markers (3 unless set; 4
    /// needs about 17 GB), and the whole pass's time they make
    /// (`cargo test --release -p tabula-auto120 --lib certify_speed -- --ignored --nocapture`).
    #[test]
    #[ignore = "a timing, in release mode"]
    fn certify_speed() {
        let n = crate::exact::layered::testing::timing_markers();
        let plan = Plan::new(n);
        let fill = |a: usize, b: usize| {
            super::super::values::new_values(plan.layer(a, b).len(), (D / 2) as u32, true)
        };
        let (own, retired) = (fill(0, 0), fill(0, 1));
        let stride = 50;
        for round in 0..2 {
            let (cpu, wall) = (
                crate::exact::cpu_seconds().unwrap(),
                std::time::Instant::now(),
            );
            certify_others(&plan, (0, 0), &own, &own, Some(&retired), &|| false, stride).unwrap();
            let (wall, cpu) = (
                wall.elapsed().as_secs_f64(),
                crate::exact::cpu_seconds().unwrap() - cpu,
            );
            println!(
                "{n} markers, round {round}: every {stride}th other {wall:.2} s, {cpu:.2} CPU s; the whole pass about {:.0} s",
                wall * stride as f64
            );
        }
    }
}
