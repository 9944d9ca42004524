//! Arithmetic in Z/mZ for the small moduli Poggle uses (m <= 2^16, so products fit in u64).

/// `a * b mod m`.
#[inline]
pub fn mul(a: u32, b: u32, m: u32) -> u32 {
    ((a as u64 * b as u64) % m as u64) as u32
}

/// `a + b mod m` for `a, b < m`.
#[inline]
pub fn add(a: u32, b: u32, m: u32) -> u32 {
    let s = a + b;
    if s >= m {
        s - m
    } else {
        s
    }
}

/// `a - b mod m` for `a, b < m`.
#[inline]
pub fn sub(a: u32, b: u32, m: u32) -> u32 {
    if a >= b {
        a - b
    } else {
        a + m - b
    }
}

/// `-a mod m` for `a < m`.
#[inline]
pub fn neg(a: u32, m: u32) -> u32 {
    if a == 0 {
        0
    } else {
        m - a
    }
}

/// The inverse of `a` modulo `m`, if `gcd(a, m) = 1`.
pub fn inverse(a: u32, m: u32) -> Option<u32> {
    let (mut r0, mut r1) = (m as i64, (a % m) as i64);
    let (mut s0, mut s1) = (0i64, 1i64);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    if r0 != 1 {
        return None;
    }
    Some(s0.rem_euclid(m as i64) as u32)
}

/// One prime-power factor `p^e` of the number of colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrimePower {
    /// The prime.
    pub p: u32,
    /// Its exponent.
    pub e: u32,
    /// `p^e`.
    pub m: u32,
}

/// `k` as a product of prime powers, smallest prime first.
pub fn factorize(k: u32) -> Vec<PrimePower> {
    let mut out = Vec::new();
    let mut rest = k;
    let mut p = 2;
    while p * p <= rest {
        if rest % p == 0 {
            let (mut e, mut m) = (0, 1);
            while rest % p == 0 {
                rest /= p;
                e += 1;
                m *= p;
            }
            out.push(PrimePower { p, e, m });
        }
        p += 1;
    }
    if rest > 1 {
        out.push(PrimePower {
            p: rest,
            e: 1,
            m: rest,
        });
    }
    out
}

/// The p-adic valuation of `a` modulo `p^e` (`e` for zero).
pub fn valuation(a: u32, pp: PrimePower) -> u32 {
    if a == 0 {
        return pp.e;
    }
    let mut v = 0;
    let mut a = a;
    while a % pp.p == 0 {
        a /= pp.p;
        v += 1;
    }
    v
}

/// The Chinese-remainder idempotent for the factor `m` of `k`: the number that is
/// 1 modulo `m` and 0 modulo `k / m`, so a residue modulo `m` times it is its lift to `k`.
pub fn crt_unit(m: u32, k: u32) -> u32 {
    let rest = k / m;
    if rest == 1 {
        return 1;
    }
    let inv = inverse(rest % m, m).expect("coprime factors");
    ((rest as u64 * inv as u64) % k as u64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factorizations() {
        assert_eq!(factorize(2), vec![PrimePower { p: 2, e: 1, m: 2 }]);
        let f = factorize(360);
        assert_eq!(
            f.iter().map(|q| (q.p, q.e, q.m)).collect::<Vec<_>>(),
            vec![(2, 3, 8), (3, 2, 9), (5, 1, 5)]
        );
        assert_eq!(factorize(97).len(), 1);
        for k in 2..300u32 {
            assert_eq!(factorize(k).iter().map(|q| q.m).product::<u32>(), k);
        }
    }

    #[test]
    fn inverses_and_crt() {
        for m in 2..60u32 {
            for a in 0..m {
                match inverse(a, m) {
                    Some(i) => assert_eq!(mul(a, i, m), 1 % m),
                    None => assert!((2..=m).any(|d| a % d == 0 && m % d == 0)),
                }
            }
        }
        for k in [6u32, 12, 30, 36, 100] {
            for pp in factorize(k) {
                let c = crt_unit(pp.m, k);
                assert_eq!(c % pp.m, 1);
                for other in factorize(k).iter().filter(|o| o.p != pp.p) {
                    assert_eq!(c % other.m, 0);
                }
            }
        }
    }
}
