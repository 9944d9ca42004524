//! The layered solver as it was before Auto120 moved onto the generic solver of
//! dice games (`tabula_ai::chance_solve`), kept for the tests that hold the new
//! one to the same values: its own sweep over a layer, its own loop over the
//! groups of layers, its values in 8 bytes.

use super::{multisets, Sets, FREE, NO_LAND, ROLLS};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

#[inline]
fn load(x: &AtomicU64) -> f64 {
    f64::from_bits(x.load(Ordering::Relaxed))
}

struct Solver<'a> {
    n: usize,
    sets: &'a [Sets],
    values: Vec<Vec<AtomicU64>>,
}

impl Solver<'_> {
    fn set(&self, k: usize) -> &Sets {
        &self.sets[k - 1]
    }

    /// One in-place sweep over layer (a, b); returns the largest change.
    fn sweep(&self, a: usize, b: usize) -> f64 {
        let n = self.n;
        let (ka, kb) = (n - a, n - b);
        let sa = self.set(ka);
        let sb = self.set(kb);
        let (la, lb) = (sa.len, sb.len);
        let out = &self.values[a * n + b];
        let same = &self.values[b * n + a];
        let ret = (ka > 1).then(|| (&self.values[b * n + a + 1], self.set(ka - 1).len));
        (0..lb)
            .into_par_iter()
            .with_min_len(8)
            .map(|t| {
                let tmask = sb.mask[t];
                let row = &same[t * la..(t + 1) * la];
                let mut change = 0.0f64;
                for m in 0..la {
                    if sa.mask[m] & tmask != 0 {
                        continue;
                    }
                    let mut sum = 1.0 - load(&row[m]);
                    for r in 0..ROLLS {
                        let slot = m * ROLLS + r;
                        let cnt = sa.nsucc[slot] as usize;
                        let mut best = 0.0f64;
                        for s in &sa.succ[slot * ka..slot * ka + cnt] {
                            let v = if s.retire {
                                match ret {
                                    None => 1.0,
                                    Some((l, len)) => 1.0 - load(&l[t * len + s.next as usize]),
                                }
                            } else if s.land != NO_LAND && tmask >> s.land & 1 != 0 {
                                let tt = sb.bump[t * FREE + s.land as usize] as usize;
                                1.0 - load(&same[tt * la + s.next as usize])
                            } else {
                                1.0 - load(&row[s.next as usize])
                            };
                            best = best.max(v);
                        }
                        sum += best;
                    }
                    let v = sum / 6.0;
                    let cell = &out[m * lb + t];
                    change = change.max((v - load(cell)).abs());
                    cell.store(v.to_bits(), Ordering::Relaxed);
                }
                change
            })
            .reduce(|| 0.0, f64::max)
    }
}

/// Every layer's values as the old solver left them (layer (a, b) at `a * n + b`,
/// 8 bytes, before the fixed point), and the sweeps of each group, most retired
/// first, as the old solver ran them.
pub(super) fn solve_layered(n: usize, tolerance: f64) -> (Vec<Vec<f64>>, Vec<u32>) {
    let sets: Vec<Sets> = (1..=n).into_par_iter().map(Sets::build).collect();
    let mut solver = Solver {
        n,
        sets: &sets,
        values: Vec::with_capacity(n * n),
    };
    for a in 0..n {
        for b in 0..n {
            let len = multisets(n - a) * multisets(n - b);
            let mut v = Vec::with_capacity(len);
            v.resize_with(len, || AtomicU64::new(0.5f64.to_bits()));
            solver.values.push(v);
        }
    }
    let mut sweeps = Vec::new();
    for total in (0..=2 * (n - 1)).rev() {
        for a in 0..n {
            let b = match total.checked_sub(a) {
                Some(b) if b < n && a <= b => b,
                _ => continue,
            };
            let mut count = 0;
            loop {
                let mut change = solver.sweep(a, b);
                if a != b {
                    change = change.max(solver.sweep(b, a));
                }
                count += 1;
                if change < tolerance {
                    break;
                }
            }
            sweeps.push(count);
        }
    }
    let values = solver
        .values
        .iter()
        .map(|l| l.iter().map(load).collect())
        .collect();
    (values, sweeps)
}
