//! Dense linear systems over the local ring Z/p^eZ by Smith-form elimination.
//!
//! Z/p^e is a chain ring: every element is `p^v * unit`, and an entry of least
//! valuation divides every other entry of the matrix, so pivoting on it clears its
//! row and column exactly. The result `P M Q = diag(p^v_1, ...)` gives solvability,
//! one solution, the number of solutions (`p^(sum of v_i)`) and generators of the
//! kernel (`p^(e - v_i)` times column `i` of `Q`, of order `p^v_i`).
//!
//! Entries live in bytes (the moduli are at most 256); for powers of two the row
//! operations reduce by masking, which the compiler vectorises, and rows are updated
//! on all cores.

use crate::arith::{self, PrimePower};
use rayon::prelude::*;

/// Below this size the row updates run on one thread.
const PARALLEL_FROM: usize = 96;

/// The Smith form of a square matrix with a right-hand side carried along.
#[derive(Clone, Debug)]
pub struct SmithForm {
    n: usize,
    pp: PrimePower,
    /// Valuations of the diagonal (`e` for zero entries).
    vals: Vec<u32>,
    /// Column `t` of `Q` is `qt[t * n..(t + 1) * n]`.
    qt: Vec<u8>,
    /// One solution, if the system is solvable.
    pub solution: Option<Vec<u32>>,
}

impl SmithForm {
    /// log_p of the number of kernel vectors.
    pub fn kernel_exponent(&self) -> u32 {
        self.vals.iter().sum()
    }

    /// Indices `t` of the kernel generators, each of order `p^order_exponent(t)`.
    pub fn kernel_indices(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.n).filter(|&t| self.vals[t] > 0)
    }

    /// log_p of the order of generator `t`.
    pub fn order_exponent(&self, t: usize) -> u32 {
        self.vals[t]
    }

    /// Kernel generator `t`: `p^(e - v_t)` times column `t` of `Q`.
    pub fn kernel_vector(&self, t: usize) -> Vec<u32> {
        let f = self.pp.p.pow(self.pp.e - self.vals[t]);
        self.qt[t * self.n..(t + 1) * self.n]
            .iter()
            .map(|&x| arith::mul(x as u32, f, self.pp.m))
            .collect()
    }
}

/// How row operations reduce modulo `m`.
#[derive(Clone, Copy)]
enum Reduce {
    /// `m` is a power of two: wrapping byte arithmetic and a mask.
    Mask(u8),
    /// Any other modulus.
    Rem(u32),
}

/// `dst += c * src (mod m)`.
#[inline]
fn axpy(dst: &mut [u8], src: &[u8], c: u8, reduce: Reduce) {
    match reduce {
        Reduce::Mask(mask) => {
            for (d, &s) in dst.iter_mut().zip(src) {
                *d = d.wrapping_add(c.wrapping_mul(s)) & mask;
            }
        }
        Reduce::Rem(m) => {
            let c = c as u32;
            for (d, &s) in dst.iter_mut().zip(src) {
                *d = ((*d as u32 + c * s as u32) % m) as u8;
            }
        }
    }
}

/// The least valuation in a row and its first column, stopping early at `floor`;
/// `None` for a zero row. Zero stretches are skipped 16 bytes at a time.
fn scan_row(row: &[u8], floor: u32, valuation: &[u32]) -> Option<(u32, usize)> {
    let mut best: Option<(u32, usize)> = None;
    let mut j = 0;
    while j < row.len() {
        if j + 16 <= row.len() && u128::from_ne_bytes(row[j..j + 16].try_into().unwrap()) == 0 {
            j += 16;
            continue;
        }
        let end = (j + 16).min(row.len());
        for (jj, &x) in row[j..end].iter().enumerate() {
            if x != 0 {
                let v = valuation[x as usize];
                if best.is_none() || v < best.unwrap().0 {
                    best = Some((v, j + jj));
                    if v == floor {
                        return best;
                    }
                }
            }
        }
        j = end;
    }
    best
}

/// Solves `M x = b (mod p^e)` for a square matrix given by rows (a convenience for
/// small systems and tests).
pub fn solve_rows(a: &[Vec<u32>], b: &[u32], pp: PrimePower) -> SmithForm {
    let n = a.len();
    let flat: Vec<u8> = a
        .iter()
        .flat_map(|row| row.iter().map(|&x| (x % pp.m) as u8))
        .collect();
    smith(n, flat, b.iter().map(|&x| x % pp.m).collect(), pp)
}

/// The Smith form of the n x n row-major matrix `a` (entries below `p^e`), solving
/// `a x = b` on the way.
pub fn smith(n: usize, mut a: Vec<u8>, mut b: Vec<u32>, pp: PrimePower) -> SmithForm {
    let m = pp.m;
    assert!(m <= 256 && a.len() == n * n && b.len() == n);
    let reduce = if m.is_power_of_two() {
        Reduce::Mask((m - 1) as u8)
    } else {
        Reduce::Rem(m)
    };
    let valuation: Vec<u32> = (0..m).map(|x| arith::valuation(x, pp)).collect();
    let mut qt = vec![0u8; n * n];
    for t in 0..n {
        qt[t * n + t] = (1 % m) as u8;
    }
    let mut vals = vec![pp.e; n];
    // Entries of the remaining block never drop below the last pivot's valuation, so
    // the search stops at the first entry of that valuation. A row that is zero in the
    // block is never touched again (its entry in the pivot column is zero), so it is
    // marked and skipped for good.
    let mut floor = 0;
    let mut zero_row = vec![false; n];
    for t in 0..n {
        let mut best: Option<(u32, usize, usize)> = None;
        for i in t..n {
            if zero_row[i] {
                continue;
            }
            match scan_row(&a[i * n + t..(i + 1) * n], floor, &valuation) {
                None => zero_row[i] = true,
                Some((v, j)) => {
                    if best.is_none() || v < best.unwrap().0 {
                        best = Some((v, i, t + j));
                        if v == floor {
                            break;
                        }
                    }
                }
            }
        }
        let Some((v, pi, pj)) = best else { break };
        floor = v;
        if pi != t {
            let (top, bottom) = a.split_at_mut(pi * n);
            top[t * n..(t + 1) * n].swap_with_slice(&mut bottom[..n]);
            b.swap(t, pi);
            zero_row.swap(t, pi);
        }
        if pj != t {
            for row in a.chunks_mut(n) {
                row.swap(t, pj);
            }
            let (top, bottom) = qt.split_at_mut(pj * n);
            top[t * n..(t + 1) * n].swap_with_slice(&mut bottom[..n]);
        }
        // Scale row t so that the pivot is exactly p^v.
        let pv = pp.p.pow(v);
        let unit = a[t * n + t] as u32 / pv;
        let uinv = arith::inverse(unit % m, m).expect("unit part is invertible");
        for x in a[t * n..(t + 1) * n].iter_mut() {
            *x = arith::mul(*x as u32, uinv, m) as u8;
        }
        b[t] = arith::mul(b[t], uinv, m);
        let neg_quotient = |x: u8| ((m - (x as u32 / pv) % m) % m) as u8;

        // Clear column t below the pivot with row operations.
        let coefs: Vec<u8> = (t + 1..n).map(|i| neg_quotient(a[i * n + t])).collect();
        for (i, &c) in (t + 1..n).zip(&coefs) {
            if c != 0 {
                b[i] = ((b[i] as u64 + c as u64 * b[t] as u64) % m as u64) as u32;
            }
        }
        let (head, tail) = a.split_at_mut((t + 1) * n);
        let pivot_row = &head[t * n + t..(t + 1) * n];
        let update = |(row, &c): (&mut [u8], &u8)| {
            if c != 0 {
                axpy(&mut row[t..], pivot_row, c, reduce);
            }
        };
        if n - t >= PARALLEL_FROM {
            tail.par_chunks_mut(n)
                .zip(coefs.par_iter())
                .for_each(update);
        } else {
            tail.chunks_mut(n).zip(coefs.iter()).for_each(update);
        }

        // Clear row t right of the pivot with column operations: column t is zero
        // below the pivot now, so only row t and Q change.
        let coefs: Vec<u8> = (t + 1..n)
            .map(|j| neg_quotient(std::mem::take(&mut a[t * n + j])))
            .collect();
        let (head, tail) = qt.split_at_mut((t + 1) * n);
        let q_col_t = &head[t * n..];
        let update = |(col, &c): (&mut [u8], &u8)| {
            if c != 0 {
                axpy(col, q_col_t, c, reduce);
            }
        };
        if n - t >= PARALLEL_FROM {
            tail.par_chunks_mut(n)
                .zip(coefs.par_iter())
                .for_each(update);
        } else {
            tail.chunks_mut(n).zip(coefs.iter()).for_each(update);
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
        let mut x = vec![0u64; n];
        for (t, &zt) in z.iter().enumerate() {
            if zt != 0 {
                for (xi, &qi) in x.iter_mut().zip(&qt[t * n..(t + 1) * n]) {
                    *xi = (*xi + zt as u64 * qi as u64) % m as u64;
                }
            }
        }
        x.into_iter().map(|v| v as u32).collect()
    });
    SmithForm {
        n,
        pp,
        vals,
        qt,
        solution,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::factorize;

    fn mat_vec(a: &[Vec<u32>], x: &[u32], m: u32) -> Vec<u32> {
        a.iter()
            .map(|row| {
                (row.iter()
                    .zip(x)
                    .map(|(&r, &v)| r as u64 * v as u64)
                    .sum::<u64>()
                    % m as u64) as u32
            })
            .collect()
    }

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
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for &m in &[2u32, 3, 4, 8, 9, 25, 27, 128, 256] {
            let pp = factorize(m)[0];
            for n in 1..=3usize {
                if (m as usize).pow(n as u32) > 20_000 {
                    continue;
                }
                for _ in 0..30 {
                    // Bias entries towards multiples of p to get interesting valuations.
                    let a: Vec<Vec<u32>> = (0..n)
                        .map(|_| {
                            (0..n)
                                .map(|_| (next() % m) * if next() % 2 == 0 { pp.p } else { 1 } % m)
                                .collect()
                        })
                        .collect();
                    let b: Vec<u32> = (0..n).map(|_| next() % m).collect();
                    let got = solve_rows(&a, &b, pp);
                    let count = brute_count(&a, &b, m);
                    match &got.solution {
                        Some(x) => {
                            assert_eq!(mat_vec(&a, x, m), b);
                            assert_eq!(count, (pp.p as usize).pow(got.kernel_exponent()));
                        }
                        None => assert_eq!(count, 0, "m={m} a={a:?} b={b:?}"),
                    }
                    for t in got.kernel_indices() {
                        let g = got.kernel_vector(t);
                        assert!(mat_vec(&a, &g, m).iter().all(|&x| x == 0));
                        // order exactly p^v
                        let below = pp.p.pow(got.order_exponent(t) - 1);
                        assert!(g.iter().any(|&x| arith::mul(x, below, m) != 0));
                    }
                }
            }
        }
    }

    #[test]
    fn large_systems_solve_in_parallel() {
        // Bigger than PARALLEL_FROM: a random system with a known solution.
        let mut seed = 5u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for &m in &[4u32, 9] {
            let pp = factorize(m)[0];
            let n = 150;
            let a: Vec<Vec<u32>> = (0..n)
                .map(|_| (0..n).map(|_| (next() % m) * pp.p % m).collect())
                .collect();
            let x: Vec<u32> = (0..n).map(|_| next() % m).collect();
            let b = mat_vec(&a, &x, m);
            let got = solve_rows(&a, &b, pp);
            assert_eq!(mat_vec(&a, got.solution.as_ref().unwrap(), m), b);
            assert!(got.kernel_exponent() >= n as u32); // every entry is a multiple of p
            for t in got.kernel_indices().take(20) {
                assert!(mat_vec(&a, &got.kernel_vector(t), m)
                    .iter()
                    .all(|&v| v == 0));
            }
        }
    }
}
