//! The certifying pass: for every position of every layer, the stored value
//! against one step of the optimality equation computed from the stored values
//! of the positions it leads to; the largest difference is the table's Bellman
//! residual.
//!
//! It shares only the index with the solver: the moves are worked out again here
//! from the squares with the board's own `destination`, the values are read as
//! f64 and the equation is computed in floating point, the other's rows read
//! one other at a time (not by bands).

use super::files;
use super::index::LayerIndex;
use super::solver::LayeredError;
use super::sweep::D;
use super::Plan;
use crate::board::{destination, TARGET};
use crate::exact::{rank, Sets, FREE, INDEX, SQUARE};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

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
/// distinct square moved from.
fn moves(set: &Sets) -> Vec<[Vec<Step>; 5]> {
    let k = set.k;
    set.squares
        .iter()
        .map(|sq| {
            std::array::from_fn(|r| {
                let roll = r as u8 + 2;
                let mut out = Vec::new();
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
                        out.push(Step::Retire(rank(&mut rest)));
                    } else {
                        let land = INDEX[to as usize];
                        rest.push(land);
                        out.push(Step::Land {
                            next: rank(&mut rest),
                            land,
                        });
                    }
                }
                out
            })
        })
        .collect()
}

/// Row `t` of a layer as values by the column's full rank (NaN where the pair
/// cannot occur).
fn row(
    index: &LayerIndex,
    values: &[AtomicU32],
    t: usize,
    taken: u64,
    cols: &Sets,
    out: &mut Vec<f64>,
) {
    out.clear();
    let mut at = index.row(t) as usize;
    for &mask in &cols.mask {
        out.push(if mask & taken == 0 {
            at += 1;
            values[at - 1].load(Relaxed) as f64 / D as f64
        } else {
            f64::NAN
        });
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
    let n = plan.n;
    let (ka, kb) = (n - x, n - y);
    let (sa, sb) = (plan.set(ka), plan.set(kb));
    let mv = moves(sa);
    let own_index = plan.layer(x, y);
    let next_index = plan.layer(y, x);
    let found = (0..sb.len)
        .into_par_iter()
        .map_init(
            || {
                (
                    Vec::new(),
                    Vec::new(),
                    [Vec::new(), Vec::new(), Vec::new(), Vec::new()],
                )
            },
            |(same, after, bumped), t| {
                if stop() {
                    return None;
                }
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
                let mut best = (0.0f64, 0usize);
                for m in 0..sa.len {
                    let um = sa.mask[m];
                    if um & ut != 0 {
                        continue;
                    }
                    let stored = own[own_index.at(m, um, &sb.squares[t][..kb]) as usize]
                        .load(Relaxed) as f64
                        / D as f64;
                    let mut sum = 1.0 - same[m];
                    for steps in &mv[m] {
                        let mut top = f64::NEG_INFINITY;
                        for s in steps {
                            let v = match *s {
                                Step::Retire(rest) => match retired {
                                    None => 1.0,
                                    Some(_) => 1.0 - after[rest as usize],
                                },
                                Step::Land { next, land } => {
                                    match squares[..count].iter().position(|&q| q == land) {
                                        Some(i) => 1.0 - bumped[i][next as usize],
                                        None => 1.0 - same[next as usize],
                                    }
                                }
                            };
                            top = top.max(v);
                        }
                        sum += top;
                    }
                    let r = (stored - sum / 6.0).abs();
                    // NaN (a value read where no position can be) counts as the worst.
                    let r = if r.is_nan() { f64::INFINITY } else { r };
                    if r > best.0 {
                        best = (r, m);
                    }
                }
                Some((best.0, best.1, t))
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
