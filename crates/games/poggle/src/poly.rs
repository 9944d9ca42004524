//! Polynomials over Z/mZ (coefficients lowest degree first, no trailing zeros; the
//! zero polynomial is empty), with the operations the solver needs: products,
//! remainders by monic polynomials, and (over a prime field) the extended Euclidean
//! algorithm.

use crate::arith;

/// A polynomial: `p[i]` is the coefficient of `y^i`.
pub type Poly = Vec<u32>;

/// Drops trailing zero coefficients.
pub fn trim(a: &mut Poly) {
    while a.last() == Some(&0) {
        a.pop();
    }
}

/// Degree, `None` for the zero polynomial (assumes a trimmed input).
pub fn degree(a: &[u32]) -> Option<usize> {
    a.len().checked_sub(1)
}

/// Reduces every coefficient modulo `m` and trims.
pub fn reduce(a: &[u32], m: u32) -> Poly {
    let mut r: Poly = a.iter().map(|&c| c % m).collect();
    trim(&mut r);
    r
}

/// `a + b`.
pub fn add(a: &[u32], b: &[u32], m: u32) -> Poly {
    let mut r = vec![0; a.len().max(b.len())];
    for (i, c) in r.iter_mut().enumerate() {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        *c = arith::add(x, y, m);
    }
    trim(&mut r);
    r
}

/// `a - b`.
pub fn sub(a: &[u32], b: &[u32], m: u32) -> Poly {
    let mut r = vec![0; a.len().max(b.len())];
    for (i, c) in r.iter_mut().enumerate() {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        *c = arith::sub(x, y, m);
    }
    trim(&mut r);
    r
}

/// `c * a`.
pub fn scale(a: &[u32], c: u32, m: u32) -> Poly {
    let mut r: Poly = a.iter().map(|&x| arith::mul(x, c, m)).collect();
    trim(&mut r);
    r
}

/// `a * b` (schoolbook; the moduli are below 2^16, so sums of products fit in u64).
pub fn mul(a: &[u32], b: &[u32], m: u32) -> Poly {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut acc = vec![0u64; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        if x == 0 {
            continue;
        }
        let x = x as u64;
        for (slot, &y) in acc[i..].iter_mut().zip(b) {
            *slot += x * y as u64;
        }
    }
    let mut r: Poly = acc.into_iter().map(|c| (c % m as u64) as u32).collect();
    trim(&mut r);
    r
}

/// Quotient and remainder of `a` by `f`, whose leading coefficient must be invertible
/// modulo `m` (a monic `f`, or any nonzero `f` over a prime field).
pub fn divrem(a: &[u32], f: &[u32], m: u32) -> (Poly, Poly) {
    let df = degree(f).expect("division by the zero polynomial");
    let lead_inv = arith::inverse(f[df], m).expect("leading coefficient must be a unit");
    let mut r: Poly = a.to_vec();
    trim(&mut r);
    if r.len() <= df {
        return (Vec::new(), r);
    }
    // Remainder coefficients accumulate unreduced in u64 (each step adds less than
    // m^2 <= 2^16) and are reduced only when they become the leading term.
    let m64 = m as u64;
    let mut acc: Vec<u64> = r.iter().map(|&c| c as u64).collect();
    let mut q = vec![0u32; r.len() - df];
    for i in (df..acc.len()).rev() {
        let lead = (acc[i] % m64) as u32;
        let c = arith::mul(lead, lead_inv, m);
        if c == 0 {
            continue;
        }
        q[i - df] = c;
        let neg_c = (m - c) as u64;
        let base = i - df;
        for (slot, &fj) in acc[base..i].iter_mut().zip(f) {
            *slot += neg_c * fj as u64;
        }
    }
    acc.truncate(df);
    let mut r: Poly = acc.into_iter().map(|c| (c % m64) as u32).collect();
    trim(&mut r);
    trim(&mut q);
    (q, r)
}

/// `a mod f` (see [`divrem`] for the condition on `f`).
pub fn rem(a: &[u32], f: &[u32], m: u32) -> Poly {
    divrem(a, f, m).1
}

/// `a * b mod f`.
pub fn mulmod(a: &[u32], b: &[u32], f: &[u32], m: u32) -> Poly {
    rem(&mul(a, b, m), f, m)
}

/// Makes a nonzero polynomial over the prime field Z/pZ monic.
pub fn monic(a: &[u32], p: u32) -> Poly {
    match a.last() {
        None => Vec::new(),
        Some(&lead) => scale(a, arith::inverse(lead, p).expect("prime field"), p),
    }
}

/// Over the prime field Z/pZ: the monic `g = gcd(a, b)` and `s` with `s * a = g (mod b)`.
/// `b` must be nonzero.
pub fn gcd_ext(a: &[u32], b: &[u32], p: u32) -> (Poly, Poly) {
    let (mut r0, mut r1) = (reduce(a, p), reduce(b, p));
    let (mut s0, mut s1): (Poly, Poly) = (vec![1], Vec::new());
    while !r1.is_empty() {
        let (q, r) = divrem(&r0, &r1, p);
        let s2 = sub(&s0, &mul(&q, &s1, p), p);
        (r0, r1) = (r1, r);
        (s0, s1) = (s1, s2);
    }
    if r0.is_empty() {
        // a = 0 and b = 0 cannot happen (b nonzero), so r0 is b's multiple here.
        return (Vec::new(), Vec::new());
    }
    let inv = arith::inverse(*r0.last().unwrap(), p).unwrap();
    let g = scale(&r0, inv, p);
    let s = rem(&scale(&s0, inv, p), b, p);
    (g, s)
}

/// Monic gcd over the prime field Z/pZ.
pub fn gcd(a: &[u32], b: &[u32], p: u32) -> Poly {
    let (mut r0, mut r1) = (reduce(a, p), reduce(b, p));
    while !r1.is_empty() {
        let r = rem(&r0, &r1, p);
        (r0, r1) = (r1, r);
    }
    monic(&r0, p)
}

/// The inverse of `a` modulo `f` over Z/pZ, if they are coprime.
pub fn inverse_mod(a: &[u32], f: &[u32], p: u32) -> Option<Poly> {
    let (g, s) = gcd_ext(a, f, p);
    (g == [1]).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(a: &[u32], x: u32, m: u32) -> u32 {
        a.iter()
            .rev()
            .fold(0, |acc, &c| arith::add(arith::mul(acc, x, m), c, m))
    }

    #[test]
    fn division_identity() {
        let m = 9;
        let a = vec![3, 1, 4, 1, 5, 8, 2, 6];
        let f = vec![2, 7, 1, 1]; // monic
        let (q, r) = divrem(&a, &f, m);
        assert!(r.len() < f.len());
        assert_eq!(add(&mul(&q, &f, m), &r, m), reduce(&a, m));
    }

    #[test]
    fn gcd_over_gf5() {
        let p = 5;
        // (y + 1)(y + 2) and (y + 1)(y + 3)
        let a = mul(&[1, 1], &[2, 1], p);
        let b = mul(&[1, 1], &[3, 1], p);
        let (g, s) = gcd_ext(&a, &b, p);
        assert_eq!(g, vec![1, 1]);
        assert_eq!(rem(&mul(&s, &a, p), &b, p), g);
        assert_eq!(gcd(&a, &b, p), g);
        for x in 0..5 {
            let inv = inverse_mod(&[2, 1], &[x, 0, 1], p);
            // y + 2 is invertible modulo y^2 + x unless (-2)^2 + x = 0, i.e. x = 1.
            assert_eq!(inv.is_none(), x == 1);
            if let Some(i) = inv {
                assert_eq!(mulmod(&i, &[2, 1], &[x, 0, 1], p), vec![1]);
            }
        }
        assert_eq!(eval(&a, 4, p), 0);
    }
}
