//! Bit-packed arithmetic over GF(2): polynomials and board rows as `u64` words
//! (bit `i` of word `i / 64` is coefficient `i`), for the two-colour solver.

/// A bit-packed polynomial or vector.
pub type Bits = Vec<u64>;

/// Number of words holding `nbits` bits.
pub fn words(nbits: usize) -> usize {
    nbits.div_ceil(64)
}

/// Bit `i` of `a` (zero beyond its end).
#[inline]
pub fn get(a: &[u64], i: usize) -> bool {
    a.get(i / 64).is_some_and(|w| (w >> (i % 64)) & 1 == 1)
}

/// Flips bit `i`, growing `a` if needed.
#[inline]
pub fn flip(a: &mut Bits, i: usize) {
    if a.len() <= i / 64 {
        a.resize(i / 64 + 1, 0);
    }
    a[i / 64] ^= 1 << (i % 64);
}

/// Drops zero words at the top.
pub fn trim(a: &mut Bits) {
    while a.last() == Some(&0) {
        a.pop();
    }
}

/// Degree of a trimmed polynomial, `None` for zero.
pub fn degree(a: &[u64]) -> Option<usize> {
    let top = a.last()?;
    Some((a.len() - 1) * 64 + 63 - top.leading_zeros() as usize)
}

/// `dst ^= src * y^shift`, growing `dst` as needed (not trimmed).
pub fn xor_shifted(dst: &mut Bits, src: &[u64], shift: usize) {
    if src.is_empty() {
        return;
    }
    let (ws, bs) = (shift / 64, shift % 64);
    let need = src.len() + ws + usize::from(bs != 0);
    if dst.len() < need {
        dst.resize(need, 0);
    }
    if bs == 0 {
        for (d, s) in dst[ws..].iter_mut().zip(src) {
            *d ^= s;
        }
    } else {
        let mut carry = 0u64;
        for (i, &s) in src.iter().enumerate() {
            dst[ws + i] ^= (s << bs) | carry;
            carry = s >> (64 - bs);
        }
        dst[ws + src.len()] ^= carry;
    }
}

/// Product of two polynomials.
pub fn mul(a: &[u64], b: &[u64]) -> Bits {
    let mut r = Bits::new();
    for (wi, &w) in a.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let bit = w.trailing_zeros() as usize;
            xor_shifted(&mut r, b, wi * 64 + bit);
            w &= w - 1;
        }
    }
    trim(&mut r);
    r
}

/// Quotient and remainder of `a` by the nonzero `f`.
pub fn divrem(a: &[u64], f: &[u64]) -> (Bits, Bits) {
    let df = degree(f).expect("division by zero polynomial");
    let mut r = a.to_vec();
    trim(&mut r);
    let mut q = Bits::new();
    while let Some(dr) = degree(&r) {
        if dr < df {
            break;
        }
        xor_shifted(&mut r, f, dr - df);
        flip(&mut q, dr - df);
        trim(&mut r);
    }
    trim(&mut q);
    (q, r)
}

/// `a mod f`.
pub fn rem(a: &[u64], f: &[u64]) -> Bits {
    divrem(a, f).1
}

/// `gcd(a, b)` and `s` with `s * a = gcd (mod b)`; `b` must be nonzero.
pub fn gcd_ext(a: &[u64], b: &[u64]) -> (Bits, Bits) {
    let (mut r0, mut r1) = (a.to_vec(), b.to_vec());
    trim(&mut r0);
    trim(&mut r1);
    let (mut s0, mut s1): (Bits, Bits) = (vec![1], Vec::new());
    // Bitwise Euclid: cancel the leading term of r0 with a shifted r1 until r0's degree
    // drops below r1's, then swap; every step costs one shifted XOR of each pair.
    while let Some(d1) = degree(&r1) {
        while let Some(d0) = degree(&r0) {
            if d0 < d1 {
                break;
            }
            xor_shifted(&mut r0, &r1, d0 - d1);
            xor_shifted(&mut s0, &s1, d0 - d1);
            trim(&mut r0);
        }
        trim(&mut s0);
        std::mem::swap(&mut r0, &mut r1);
        std::mem::swap(&mut s0, &mut s1);
    }
    let s = rem(&s0, b);
    (r0, s)
}

/// `v <- B v` for the n x n tridiagonal all-ones matrix `B` (a button and its left
/// and right neighbours in one row), bits beyond `n` kept clear.
pub fn apply_b(v: &[u64], n: usize, out: &mut [u64]) {
    let len = v.len();
    for i in 0..len {
        let left = (v[i] << 1) | if i > 0 { v[i - 1] >> 63 } else { 0 };
        let right = (v[i] >> 1) | if i + 1 < len { v[i + 1] << 63 } else { 0 };
        out[i] = v[i] ^ left ^ right;
    }
    mask_tail(out, n);
}

/// Clears bits at positions `n` and above.
pub fn mask_tail(v: &mut [u64], n: usize) {
    let full = n / 64;
    if full < v.len() {
        let rem = n % 64;
        v[full] &= if rem == 0 { 0 } else { (1u64 << rem) - 1 };
        for w in &mut v[full + 1..] {
            *w = 0;
        }
    }
}

/// The vector `f(B) e_0` (Horner's rule), `n` bits.
pub fn eval_at_b(f: &[u64], n: usize) -> Bits {
    let mut v = vec![0u64; words(n)];
    let mut tmp = vec![0u64; words(n)];
    if let Some(d) = degree(f) {
        for i in (0..=d).rev() {
            apply_b(&v, n, &mut tmp);
            std::mem::swap(&mut v, &mut tmp);
            if get(f, i) {
                v[0] ^= 1;
            }
        }
    }
    v
}

/// Parity of the AND of two vectors (their dot product over GF(2)).
pub fn dot(a: &[u64], b: &[u64]) -> bool {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x & y).count_ones())
        .sum::<u32>()
        % 2
        == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_bits(bits: &[u8]) -> Bits {
        let mut a = Bits::new();
        for (i, &b) in bits.iter().enumerate() {
            if b == 1 {
                flip(&mut a, i);
            }
        }
        trim(&mut a);
        a
    }

    #[test]
    fn multiply_and_divide() {
        // (1 + y)^2 = 1 + y^2 over GF(2)
        assert_eq!(
            mul(&from_bits(&[1, 1]), &from_bits(&[1, 1])),
            from_bits(&[1, 0, 1])
        );
        // Wide operands crossing word boundaries.
        let a = from_bits(
            &(0..150)
                .map(|i| ((i * 7 + 3) % 5 == 0) as u8)
                .collect::<Vec<_>>(),
        );
        let f = from_bits(
            &(0..90)
                .map(|i| ((i * 3 + 1) % 4 == 0 || i == 89) as u8)
                .collect::<Vec<_>>(),
        );
        let (q, r) = divrem(&a, &f);
        assert!(degree(&r).map_or(true, |d| d < 89));
        let mut back = mul(&q, &f);
        xor_shifted(&mut back, &r, 0);
        trim(&mut back);
        assert_eq!(back, a);
    }

    #[test]
    fn extended_gcd() {
        let common = from_bits(&[1, 1, 0, 1]); // 1 + y + y^3, irreducible
        let a = mul(&common, &from_bits(&[1, 0, 0, 0, 0, 1, 1]));
        let b = mul(
            &common,
            &from_bits(&[0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]),
        );
        let (g, s) = gcd_ext(&a, &b);
        assert_eq!(rem(&mul(&s, &a), &b), g);
        assert_eq!(rem(&a, &g), Bits::new());
        assert_eq!(rem(&b, &g), Bits::new());
        assert!(degree(&g).unwrap() >= 3);
    }

    #[test]
    fn b_matrix_on_vectors() {
        for n in [1usize, 5, 63, 64, 65, 130] {
            let v: Bits = {
                let mut v = vec![0u64; words(n)];
                for i in (0..n).filter(|i| i % 3 != 1) {
                    flip(&mut v, i);
                }
                v
            };
            let mut out = vec![0u64; words(n)];
            apply_b(&v, n, &mut out);
            for i in 0..n {
                let want = get(&v, i) ^ (i > 0 && get(&v, i - 1)) ^ (i + 1 < n && get(&v, i + 1));
                assert_eq!(get(&out, i), want, "n={n} i={i}");
            }
            assert!(degree(&{
                let mut o = out.clone();
                trim(&mut o);
                o
            })
            .map_or(true, |d| d < n));
        }
    }
}
