//! Light chasing over Z/kZ.
//!
//! Row `r` ends at colour `s_r + B x_r + x_(r-1) + x_(r+1)` after `x` presses, where
//! `B` is the tridiagonal all-ones matrix. Asking every row to end at 0 fixes the
//! presses of row `r + 1` from rows `r` and `r - 1`:
//! `x_(r+1) = t_r - B x_r - x_(r-1)` with `t = -s`. So the first row decides
//! everything, and the whole puzzle is the n x n system "the row after the last,
//! `x_n`, is zero": `M x_0 = -c_n`, where `c_n` is `x_n` chased from an unpressed first
//! row and `M = q_n(B)` with `q_0 = 1`, `q_1 = -y`, `q_(r+1) = -y q_r - q_(r-1)`.
//!
//! `e_0` is a cyclic vector of `B` (`B^j e_0` is unitriangular), so `f -> f(B) e_0` maps
//! `Z/m[y] / chi(y)` onto `(Z/m)^n`, where `chi` is `B`'s characteristic polynomial. Under
//! it `M x_0 = b` becomes `q_n f = g (mod chi)`: polynomial arithmetic in O(n^2)
//! instead of dense elimination in O(n^3). The unit vectors are `e_j = r_j(B) e_0` with
//! `r_0 = 1`, `r_1 = y - 1`, `r_(j+1) = (y - 1) r_j - r_(j-1)`, and `chi = r_n`.

use crate::arith;
use crate::poly::{self, Poly};

/// The start of a chase: the colours the board shows before any press.
#[derive(Clone, Copy, Debug)]
pub enum Start<'a> {
    /// Every button at colour 1 (the blog's puzzle).
    Ones,
    /// Row-major colours.
    Grid(&'a [u8]),
    /// Every button at 0 (for quiet patterns: presses that change nothing).
    Zero,
}

impl Start<'_> {
    /// Colour of cell `i` (row-major) modulo `k`.
    #[inline]
    pub fn colour(&self, i: usize, k: u32) -> u32 {
        match self {
            Start::Ones => 1 % k,
            Start::Grid(g) => g[i] as u32 % k,
            Start::Zero => 0,
        }
    }
}

/// Chases the presses down from first row `x0` (values modulo `k`), handing each row
/// `0..n` to `sink`, and returns the row after the last (all zero iff `x0` solves).
pub fn chase(
    n: usize,
    k: u32,
    start: Start,
    x0: &[u32],
    mut sink: impl FnMut(usize, &[u32]),
) -> Vec<u32> {
    let mut prev = vec![0u32; n];
    let mut cur: Vec<u32> = x0.iter().map(|&v| v % k).collect();
    let mut next = vec![0u32; n];
    let four_k = 4 * k;
    // t + 4k - sum lies in 1..5k: a table lookup instead of a division per button.
    let reduce: Vec<u32> = (0..5 * k).map(|x| x % k).collect();
    let mut target = vec![0u32; n];
    for r in 0..n {
        sink(r, &cur);
        for (c, t) in target.iter_mut().enumerate() {
            *t = arith::neg(start.colour(r * n + c, k), k);
        }
        for c in 0..n {
            let left = if c > 0 { cur[c - 1] } else { 0 };
            let right = if c + 1 < n { cur[c + 1] } else { 0 };
            let sum = left + cur[c] + right + prev[c];
            next[c] = reduce[(target[c] + four_k - sum) as usize];
        }
        std::mem::swap(&mut prev, &mut cur);
        std::mem::swap(&mut cur, &mut next);
    }
    cur
}

/// `B v` modulo `m`.
pub fn apply_b(v: &[u32], m: u32) -> Vec<u32> {
    let mut out = vec![0u32; v.len()];
    apply_b_into(v, m, &mut out);
    out
}

/// `out = B v` modulo `m`, for entries below `m`.
fn apply_b_into(v: &[u32], m: u32, out: &mut [u32]) {
    let n = v.len();
    for i in 0..n {
        let left = if i > 0 { v[i - 1] } else { 0 };
        let right = if i + 1 < n { v[i + 1] } else { 0 };
        let mut s = left + v[i] + right;
        // s < 3m: two conditional subtractions instead of a division.
        if s >= m {
            s -= m;
        }
        if s >= m {
            s -= m;
        }
        out[i] = s;
    }
}

/// `f(B) e_0` modulo `m` (Horner's rule, O(n deg f)).
pub fn eval_at_b(f: &[u32], n: usize, m: u32) -> Vec<u32> {
    let mut v = vec![0u32; n];
    let mut tmp = vec![0u32; n];
    for &c in f.iter().rev() {
        apply_b_into(&v, m, &mut tmp);
        std::mem::swap(&mut v, &mut tmp);
        if n > 0 {
            v[0] = arith::add(v[0], c % m, m);
        }
    }
    v
}

/// `chi = r_n`, `q = q_n` and `g` with `g(B) e_0 = b`, all modulo `m`.
pub fn chase_polys(n: usize, m: u32, b: &[u32]) -> (Poly, Poly, Poly) {
    let mut g: Poly = vec![0; n];
    // r_j and q_j, advanced together.
    let (mut r_prev, mut r_cur): (Poly, Poly) = (Vec::new(), vec![1]);
    let (mut q_prev, mut q_cur): (Poly, Poly) = (Vec::new(), vec![1]);
    for j in 0..n {
        let bj = b.get(j).copied().unwrap_or(0) % m;
        if bj != 0 {
            for (gi, &ri) in g.iter_mut().zip(&r_cur) {
                *gi = ((*gi as u64 + bj as u64 * ri as u64) % m as u64) as u32;
            }
        }
        r_prev = step(&r_cur, &r_prev, m, true);
        std::mem::swap(&mut r_prev, &mut r_cur);
        q_prev = step(&q_cur, &q_prev, m, false);
        std::mem::swap(&mut q_prev, &mut q_cur);
    }
    poly::trim(&mut g);
    (r_cur, q_cur, g)
}

/// One step of the three-term recurrences:
/// `(y - 1) cur - prev` for the `r_j`, `-y cur - prev` for the `q_j`.
fn step(cur: &[u32], prev: &[u32], m: u32, shifted_minus_one: bool) -> Poly {
    let mut out = vec![0u32; cur.len() + 1];
    for (i, &c) in cur.iter().enumerate() {
        if shifted_minus_one {
            out[i + 1] = arith::add(out[i + 1], c, m);
            out[i] = arith::sub(out[i], c, m);
        } else {
            out[i + 1] = arith::sub(out[i + 1], c, m);
        }
    }
    for (o, &p) in out.iter_mut().zip(prev) {
        *o = arith::sub(*o, p, m);
    }
    poly::trim(&mut out);
    out
}

/// The n x n first-row matrix `M` modulo `m`, column `j` chased from the unit first
/// row `e_j` over an all-zero board: the O(n^3) reference the polynomial method is
/// checked against.
pub fn chased_matrix(n: usize, m: u32) -> Vec<Vec<u32>> {
    let mut a = vec![vec![0u32; n]; n];
    for j in 0..n {
        let mut e = vec![0u32; n];
        e[j] = 1;
        let last = chase(n, m, Start::Zero, &e, |_, _| {});
        for i in 0..n {
            a[i][j] = last[i];
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_vectors_from_r_polynomials() {
        for n in 1..9 {
            for m in [2u32, 3, 4, 6] {
                for j in 0..n {
                    let mut b = vec![0u32; n];
                    b[j] = 1;
                    let (chi, _, g) = chase_polys(n, m, &b);
                    assert_eq!(eval_at_b(&g, n, m), b, "n={n} m={m} j={j}");
                    assert_eq!(chi.len(), n + 1);
                    assert_eq!(*chi.last().unwrap(), 1);
                    // chi(B) = 0, tested on e_0 (a cyclic vector).
                    assert!(eval_at_b(&chi, n, m).iter().all(|&x| x == 0));
                }
            }
        }
    }

    #[test]
    fn q_polynomial_is_the_chased_matrix() {
        for n in 1..10 {
            for m in [2u32, 5, 9] {
                let a = chased_matrix(n, m);
                let (_, q, _) = chase_polys(n, m, &vec![0; n]);
                // Column j of q(B) is q(B) e_j = (q r_j)(B) e_0.
                for j in 0..n {
                    let mut ej = vec![0u32; n];
                    ej[j] = 1;
                    let (_, _, rj) = chase_polys(n, m, &ej);
                    let col = eval_at_b(&poly::mul(&q, &rj, m), n, m);
                    let want: Vec<u32> = (0..n).map(|i| a[i][j]).collect();
                    assert_eq!(col, want, "n={n} m={m} j={j}");
                }
            }
        }
    }
}
