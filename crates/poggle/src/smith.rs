//! Dense linear systems over the local ring Z/p^eZ by Smith-form elimination.
//!
//! Z/p^e is a chain ring: every element is `p^v * unit`, and an entry of least
//! valuation divides every other entry of the matrix, so pivoting on it clears its
//! row and column exactly. The result `P M Q = diag(p^v_1, ...)` gives solvability,
//! one solution, the number of solutions (`p^(sum of v_i)`) and generators of the
//! kernel, each with its order `p^v_i`.

use crate::arith::{self, PrimePower};

/// The answer for `M x = b (mod p^e)`.
#[derive(Clone, Debug)]
pub struct LocalSolution {
    /// One solution, if any.
    pub solution: Option<Vec<u32>>,
    /// Kernel generators `(g, v)`: `g` has additive order `p^v`, and every kernel vector
    /// is uniquely `sum a_i g_i` with `0 <= a_i < p^v_i`.
    pub kernel: Vec<(Vec<u32>, u32)>,
}

impl LocalSolution {
    /// log_p of the number of solutions of the homogeneous system.
    pub fn kernel_exponent(&self) -> u32 {
        self.kernel.iter().map(|&(_, v)| v).sum()
    }
}

/// Solves `M x = b (mod p^e)` for a square matrix given by rows.
pub fn solve(mut a: Vec<Vec<u32>>, mut b: Vec<u32>, pp: PrimePower) -> LocalSolution {
    let n = a.len();
    let m = pp.m;
    for row in &mut a {
        for x in row.iter_mut() {
            *x %= m;
        }
    }
    for x in &mut b {
        *x %= m;
    }
    // q[c] holds column c of Q (so x = Q z), stored column-major for cheap column ops.
    let mut q: Vec<Vec<u32>> = (0..n)
        .map(|c| {
            let mut col = vec![0; n];
            col[c] = 1;
            col
        })
        .collect();
    let mut vals = vec![pp.e; n];
    for t in 0..n {
        // Pivot: an entry of least valuation in the remaining block.
        let mut best: Option<(u32, usize, usize)> = None;
        'search: for (i, row) in a.iter().enumerate().skip(t) {
            for (j, &x) in row.iter().enumerate().skip(t) {
                if x != 0 {
                    let v = arith::valuation(x, pp);
                    if best.map_or(true, |(bv, _, _)| v < bv) {
                        best = Some((v, i, j));
                        if v == 0 {
                            break 'search;
                        }
                    }
                }
            }
        }
        let Some((v, pi, pj)) = best else { break };
        a.swap(t, pi);
        b.swap(t, pi);
        if pj != t {
            for row in a.iter_mut() {
                row.swap(t, pj);
            }
            q.swap(t, pj);
        }
        // Scale row t so that the pivot is exactly p^v.
        let pv = pp.p.pow(v);
        let unit = a[t][t] / pv;
        let uinv = arith::inverse(unit % m, m).expect("unit part is invertible");
        for x in a[t].iter_mut() {
            *x = arith::mul(*x, uinv, m);
        }
        b[t] = arith::mul(b[t], uinv, m);
        // Clear column t below the pivot with row operations.
        let pivot_row = a[t].clone();
        for i in t + 1..n {
            let x = a[i][t];
            if x == 0 {
                continue;
            }
            let c = x / pv; // exact: the pivot has the least valuation
            let neg_c = m - c % m;
            for (dst, &src) in a[i].iter_mut().zip(&pivot_row).skip(t) {
                *dst = ((*dst as u64 + neg_c as u64 * src as u64) % m as u64) as u32;
            }
            b[i] = ((b[i] as u64 + neg_c as u64 * b[t] as u64) % m as u64) as u32;
        }
        // Clear row t right of the pivot with column operations (only row t and Q change,
        // since column t is now zero below the pivot).
        for j in t + 1..n {
            let x = a[t][j];
            if x == 0 {
                continue;
            }
            let c = x / pv;
            a[t][j] = 0;
            let neg_c = m - c % m;
            let (left, right) = q.split_at_mut(j);
            for (dst, &src) in right[0].iter_mut().zip(&left[t]) {
                *dst = ((*dst as u64 + neg_c as u64 * src as u64) % m as u64) as u32;
            }
        }
        vals[t] = v;
    }
    // Now diag(p^vals) z = b; rows with v = e need b = 0.
    let mut z = vec![0u32; n];
    let mut solvable = true;
    for t in 0..n {
        let pv = pp.p.pow(vals[t]);
        if vals[t] == pp.e {
            solvable &= b[t] == 0;
        } else if b[t] % pv != 0 {
            solvable = false;
        } else {
            z[t] = b[t] / pv;
        }
    }
    let solution = solvable.then(|| {
        let mut x = vec![0u32; n];
        for (t, &zt) in z.iter().enumerate() {
            if zt != 0 {
                for (xi, &qi) in x.iter_mut().zip(&q[t]) {
                    *xi = ((*xi as u64 + zt as u64 * qi as u64) % m as u64) as u32;
                }
            }
        }
        x
    });
    let kernel = (0..n)
        .filter(|&t| vals[t] > 0)
        .map(|t| {
            let f = pp.p.pow(pp.e - vals[t]);
            (q[t].iter().map(|&x| arith::mul(x, f, m)).collect(), vals[t])
        })
        .collect();
    LocalSolution { solution, kernel }
}

/// `M x` modulo `m`.
pub fn mat_vec(a: &[Vec<u32>], x: &[u32], m: u32) -> Vec<u32> {
    a.iter()
        .map(|row| (row.iter().zip(x).map(|(&r, &v)| r as u64 * v as u64).sum::<u64>() % m as u64) as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::factorize;

    fn brute_count(a: &[Vec<u32>], b: &[u32], m: u32) -> usize {
        let n = a.len();
        let total = (m as usize).pow(n as u32);
        (0..total)
            .filter(|&code| {
                let mut c = code;
                let x: Vec<u32> = (0..n)
                    .map(|_| {
                        let d = (c % m as usize) as u32;
                        c /= m as usize;
                        d
                    })
                    .collect();
                mat_vec(a, &x, m) == b
            })
            .count()
    }

    #[test]
    fn small_systems_against_brute_force() {
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for &m in &[2u32, 3, 4, 8, 9, 25, 27] {
            let pp = factorize(m)[0];
            for n in 1..=3usize {
                if (m as usize).pow(n as u32) > 20_000 {
                    continue;
                }
                for _ in 0..30 {
                    // Bias entries towards multiples of p to get interesting valuations.
                    let a: Vec<Vec<u32>> =
                        (0..n).map(|_| (0..n).map(|_| (next() % m) * if next() % 2 == 0 { pp.p } else { 1 } % m).collect()).collect();
                    let b: Vec<u32> = (0..n).map(|_| next() % m).collect();
                    let got = solve(a.clone(), b.clone(), pp);
                    let count = brute_count(&a, &b, m);
                    match &got.solution {
                        Some(x) => {
                            assert_eq!(mat_vec(&a, x, m), b);
                            assert_eq!(count, (pp.p as usize).pow(got.kernel_exponent()));
                        }
                        None => assert_eq!(count, 0, "m={m} a={a:?} b={b:?}"),
                    }
                    for (g, v) in &got.kernel {
                        assert!(mat_vec(&a, g, m).iter().all(|&x| x == 0));
                        // order exactly p^v
                        let below = pp.p.pow(v - 1);
                        assert!(g.iter().any(|&x| arith::mul(x, below, m) != 0));
                    }
                }
            }
        }
    }
}
