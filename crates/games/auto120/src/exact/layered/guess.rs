//! A first guess of a layer's values from the finished layers its retirements
//! lead to, so that its sweeps start nearer the solution than one half.
//!
//! The roller's chance in (m, t) lies between its chance had the other already
//! retired one more marker (layer (x, y + 1), the roller to roll: the other is
//! ahead) and its chance had it retired one more itself (one less the other's
//! chance in (y, x + 1), the other to roll: the roller is ahead). The guess is
//! the mean of the two, each averaged over which marker retires. On three
//! markers it takes the start layer from 55 sweeps to 50 and group
//! {(0, 1), (1, 0)} from 75 to 69.
//!
//! It is made in two passes, each reading the finished layer in the order it
//! is kept: the first goes along the rows of the layer guessed (a roller's row
//! of layer (x, y + 1) is one short run), the second by bands of others as the
//! sweep does (the others' rows of layer (y, x + 1) copied once a band).

use super::sweep::{expand, prefetch, Layer, Line, AHEAD, D, LANES};
use super::Plan;
use crate::board::MARKERS;
use crate::exact::rank;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Sets every value of layer (x, y) (`own`) to the guess, from the values of
/// layer (x, y + 1) (`other_ahead`; `None` when the other's last marker would
/// retire: the roller has lost) and of (y, x + 1) (`roller_ahead`; `None`
/// when the roller's last marker would retire: it has won).
pub fn first_guess(
    plan: &Plan,
    (x, y): (usize, usize),
    own: &[AtomicU32],
    other_ahead: Option<&[AtomicU32]>,
    roller_ahead: Option<&[AtomicU32]>,
) {
    behind_pass(plan, (x, y), own, other_ahead);
    ahead_pass(plan, (x, y), own, roller_ahead);
}

/// `squares` without its `j`-th entry (still sorted), in `out`.
fn without<'a>(squares: &[u8], j: usize, out: &'a mut [u8; MARKERS]) -> &'a mut [u8] {
    let k = squares.len() - 1;
    out[..j].copy_from_slice(&squares[..j]);
    out[j..k].copy_from_slice(&squares[j + 1..]);
    &mut out[..k]
}

/// Stores in every place of layer (x, y) the roller's chance had the other
/// one marker fewer, averaged over which (0 where that marker is its last).
fn behind_pass(
    plan: &Plan,
    (x, y): (usize, usize),
    own: &[AtomicU32],
    ahead: Option<&[AtomicU32]>,
) {
    let n = plan.n;
    let (ka, kb) = (n - x, n - y);
    let (sa, sb) = (plan.set(ka), plan.set(kb));
    let index = plan.layer(x, y);
    let ahead = ahead.map(|v| (v, plan.layer(x, y + 1)));
    (0..sa.len).into_par_iter().for_each(|m| {
        let um = sa.mask[m];
        let mut at = index.row(m) as usize;
        for t in 0..sb.len {
            if um & sb.mask[t] != 0 {
                continue;
            }
            let behind = match ahead {
                None => 0,
                Some((v, layer)) => {
                    let theirs = &sb.squares[t][..kb];
                    let mut sum = 0u64;
                    for j in 0..kb {
                        let mut fewer = [0u8; MARKERS];
                        let rest = without(theirs, j, &mut fewer);
                        sum += v[layer.at(m, um, rest) as usize].load(Relaxed) as u64;
                    }
                    (sum + kb as u64 / 2) / kb as u64
                }
            };
            own[at].store(behind as u32, Relaxed);
            at += 1;
        }
    });
}

/// Turns every stored value (the pass behind) into the mean of it and the
/// roller's chance had it one marker fewer (1 where that marker is its last),
/// by bands of others.
fn ahead_pass(plan: &Plan, (x, y): (usize, usize), own: &[AtomicU32], ahead: Option<&[AtomicU32]>) {
    let n = plan.n;
    let (ka, kb) = (n - x, n - y);
    let (sa, sb) = (plan.set(ka), plan.set(kb));
    let index = plan.layer(x, y);
    let fewer = (ka > 1).then(|| plan.set(ka - 1));
    let layer = match (ahead, fewer) {
        (Some(values), Some(_)) => Some(Layer {
            index: plan.layer(y, x + 1),
            values,
        }),
        _ => None,
    };
    let bands = sb.len.div_ceil(LANES);
    (0..bands).into_par_iter().with_max_len(1).for_each_init(
        Vec::new,
        |rows: &mut Vec<Line>, band| {
            let t0 = band * LANES;
            let lanes = (sb.len - t0).min(LANES);
            if let (Some(layer), Some(f)) = (layer, fewer) {
                rows.resize(f.len, Line([0; LANES]));
                for l in 0..lanes {
                    let t = t0 + l;
                    expand(layer, t, sb.mask[t], &f.mask, rows, l);
                }
            }
            let first_other = &sb.squares[t0][..kb];
            for m in 0..sa.len {
                if let Some(&next) = sa.mask.get(m + AHEAD) {
                    let at = index.row(m + AHEAD) + super::index::crank(first_other, next);
                    prefetch(&own[(at as usize).min(own.len() - 1)]);
                }
                let um = sa.mask[m];
                // The roller's chance with one marker fewer, lane by lane.
                let mut sum = [0u64; LANES];
                if layer.is_some() {
                    let mine = &sa.squares[m][..ka];
                    for i in 0..ka {
                        let mut buf = [0u8; MARKERS];
                        let rest = rank(without(mine, i, &mut buf)) as usize;
                        for (s, &v) in sum.iter_mut().zip(&rows[rest].0) {
                            *s += v as u64;
                        }
                    }
                }
                let mut at = None;
                for (l, &lane_sum) in sum.iter().enumerate().take(lanes) {
                    let t = t0 + l;
                    if um & sb.mask[t] != 0 {
                        continue;
                    }
                    let here = at.unwrap_or_else(|| index.at(m, um, &sb.squares[t][..kb]) as usize);
                    let up = match layer {
                        Some(_) => D - (lane_sum + ka as u64 / 2) / ka as u64,
                        None => D,
                    };
                    let behind = own[here].load(Relaxed) as u64;
                    own[here].store((behind + up).div_ceil(2) as u32, Relaxed);
                    at = Some(here + 1);
                }
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::layered::values::new_values;

    /// The guess of one position straight from its definition: the mean of
    /// the roller's chance had the other one marker fewer and had it one fewer
    /// itself, each averaged over which marker.
    fn guess_at(
        plan: &Plan,
        (x, y): (usize, usize),
        m: usize,
        t: usize,
        other_ahead: Option<&[AtomicU32]>,
        roller_ahead: Option<&[AtomicU32]>,
    ) -> f64 {
        let n = plan.n;
        let (ka, kb) = (n - x, n - y);
        let (sa, sb) = (plan.set(ka), plan.set(kb));
        // The mean over which of `squares` retires of the value at row `row`
        // (its squares `mask`) of `layer` (x, y), the rest in that row.
        let mean_without = |v: &[AtomicU32], (x, y), row: usize, mask: u64, squares: &[u8]| {
            let layer = plan.layer(x, y);
            (0..squares.len())
                .map(|j| {
                    let mut rest = squares.to_vec();
                    rest.remove(j);
                    v[layer.at(row, mask, &rest) as usize].load(Relaxed) as f64 / D as f64
                })
                .sum::<f64>()
                / squares.len() as f64
        };
        let behind = other_ahead.map_or(0.0, |v| {
            mean_without(v, (x, y + 1), m, sa.mask[m], &sb.squares[t][..kb])
        });
        let ahead = roller_ahead.map_or(1.0, |v| {
            1.0 - mean_without(v, (y, x + 1), t, sb.mask[t], &sa.squares[m][..ka])
        });
        (behind + ahead) / 2.0
    }

    /// The guess made by rows and bands is the guess by definition, within
    /// rounding, at positions of every layer of two markers (the values of the
    /// layers it reads made up, all different; the last band of others is
    /// short).
    #[test]
    fn the_guess_by_bands_is_the_guess_by_definition() {
        let n = 2;
        let plan = Plan::new(n);
        let made_up = |a: usize, b: usize| -> Vec<AtomicU32> {
            (0..plan.layer(a, b).len())
                .map(|i| AtomicU32::new(((i * 2_654_435_761 + (a * 7 + b) as u64) % D) as u32))
                .collect()
        };
        for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            let other_ahead = (y + 1 < n).then(|| made_up(x, y + 1));
            let roller_ahead = (x + 1 < n).then(|| made_up(y, x + 1));
            let own = new_values(plan.layer(x, y).len(), 0, false);
            first_guess(
                &plan,
                (x, y),
                &own,
                other_ahead.as_deref(),
                roller_ahead.as_deref(),
            );
            let (sa, sb) = (plan.set(n - x), plan.set(n - y));
            let mut checked = 0;
            for m in (0..sa.len).step_by(3) {
                for t in (0..sb.len).step_by(2) {
                    if sa.mask[m] & sb.mask[t] != 0 {
                        continue;
                    }
                    let at = plan.layer(x, y).at(m, sa.mask[m], &sb.squares[t][..n - y]);
                    let got = own[at as usize].load(Relaxed) as f64 / D as f64;
                    let want = guess_at(
                        &plan,
                        (x, y),
                        m,
                        t,
                        other_ahead.as_deref(),
                        roller_ahead.as_deref(),
                    );
                    assert!(
                        (got - want).abs() < 1e-9,
                        "layer {x}, {y}, ({m}, {t}): {got} against {want}"
                    );
                    checked += 1;
                }
            }
            assert!(checked > 100, "layer {x}, {y}: {checked} positions checked");
        }
    }

    /// Wall-clock seconds of the guess of the start layer of
    /// `TABULA_SWEEP_MARKERS` markers (3 unless set; 4 needs about 17 GB)
    /// (`cargo test --release -p tabula-auto120 --lib guess_speed -- --ignored --nocapture`).
    #[test]
    #[ignore = "a timing, in release mode"]
    fn guess_speed() {
        let n = crate::exact::layered::testing::timing_markers();
        let plan = Plan::new(n);
        let own = new_values(plan.layer(0, 0).len(), (D / 2) as u32, true);
        let ahead = new_values(plan.layer(0, 1).len(), (D / 3) as u32, true);
        for round in 0..2 {
            let wall = std::time::Instant::now();
            behind_pass(&plan, (0, 0), &own, Some(&ahead));
            let behind = wall.elapsed().as_secs_f64();
            ahead_pass(&plan, (0, 0), &own, Some(&ahead));
            println!(
                "{n} markers, round {round}: the start layer's guess {:.1} s ({behind:.1} s the pass behind)",
                wall.elapsed().as_secs_f64()
            );
        }
    }
}
