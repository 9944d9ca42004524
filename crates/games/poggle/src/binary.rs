//! The two-colour case (Lights Out) with bit-packed rows and polynomials: the same
//! method as [`crate::modular::solve_field`] for p = 2, 64 coefficients per word.

use crate::chase::Start;
use crate::gf2::{self, Bits};

/// Row `r` of the target `t = -s = s (mod 2)` as bits.
fn target_row(n: usize, start: Start, r: usize, out: &mut [u64]) {
    out.iter_mut().for_each(|w| *w = 0);
    match start {
        Start::Zero => {}
        Start::Ones => {
            out.iter_mut().for_each(|w| *w = !0);
            gf2::mask_tail(out, n);
        }
        Start::Grid(g) => {
            for (c, &v) in g[r * n..(r + 1) * n].iter().enumerate() {
                if v & 1 == 1 {
                    out[c / 64] |= 1 << (c % 64);
                }
            }
        }
    }
}

/// Chases from first row `x0`, handing rows `0..n` to `sink`; returns the row after
/// the last.
pub fn chase(n: usize, start: Start, x0: &[u64], mut sink: impl FnMut(usize, &[u64])) -> Bits {
    let w = gf2::words(n);
    let mut prev = vec![0u64; w];
    let mut cur = x0.to_vec();
    cur.resize(w, 0);
    let mut next = vec![0u64; w];
    let mut t = vec![0u64; w];
    for r in 0..n {
        sink(r, &cur);
        gf2::apply_b(&cur, n, &mut next);
        target_row(n, start, r, &mut t);
        for i in 0..w {
            next[i] ^= prev[i] ^ t[i];
        }
        std::mem::swap(&mut prev, &mut cur);
        std::mem::swap(&mut cur, &mut next);
    }
    cur
}

/// `chi = r_n`, `q = q_n` and `g` with `g(B) e_0 = b`, over GF(2).
pub fn chase_polys(n: usize, b: &[u64]) -> (Bits, Bits, Bits) {
    let w = gf2::words(n + 2);
    let mut g = vec![0u64; w];
    let (mut r_prev, mut r_cur) = (vec![0u64; w], vec![0u64; w]);
    let (mut q_prev, mut q_cur) = (vec![0u64; w], vec![0u64; w]);
    r_cur[0] = 1;
    q_cur[0] = 1;
    for j in 0..n {
        // Only the words holding degrees 0..=j+1 can be nonzero.
        let used = gf2::words(j + 2);
        if gf2::get(b, j) {
            for i in 0..used {
                g[i] ^= r_cur[i];
            }
        }
        // r_(j+1) = (y + 1) r_j + r_(j-1);  q_(j+1) = y q_j + q_(j-1)
        let mut carry_r = 0u64;
        let mut carry_q = 0u64;
        for i in 0..used {
            let (r, q) = (r_cur[i], q_cur[i]);
            r_prev[i] ^= (r << 1) | carry_r;
            r_prev[i] ^= r;
            q_prev[i] ^= (q << 1) | carry_q;
            carry_r = r >> 63;
            carry_q = q >> 63;
        }
        std::mem::swap(&mut r_prev, &mut r_cur);
        std::mem::swap(&mut q_prev, &mut q_cur);
    }
    gf2::trim(&mut r_cur);
    gf2::trim(&mut q_cur);
    gf2::trim(&mut g);
    (r_cur, q_cur, g)
}

/// Solves `M x_0 = b` over GF(2): one first row (if any) and a kernel basis.
pub fn solve_first_row(n: usize, b: &[u64]) -> (Option<Bits>, Vec<Bits>) {
    let (chi, q, g) = chase_polys(n, b);
    let q = gf2::rem(&q, &chi);
    let (d, s) = gf2::gcd_ext(&q, &chi);
    let (h, _) = gf2::divrem(&chi, &d);
    let (g_over_d, g_rem) = gf2::divrem(&g, &d);
    let solution = g_rem.is_empty().then(|| {
        let f = gf2::rem(&gf2::mul(&g_over_d, &s), &h);
        gf2::eval_at_b(&f, n)
    });
    let mut kernel = Vec::new();
    let mut v = gf2::eval_at_b(&h, n);
    for _ in 0..gf2::degree(&d).unwrap_or(0) {
        let mut next = vec![0u64; v.len()];
        gf2::apply_b(&v, n, &mut next);
        kernel.push(std::mem::replace(&mut v, next));
    }
    (solution, kernel)
}
