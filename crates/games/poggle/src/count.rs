//! Exact solution counts: products of prime powers, which overflow any machine
//! integer for large boards (2^n for nullity n), kept as decimal limbs.

use std::fmt;

/// A non-negative integer stored in base 10^9 limbs, lowest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BigCount {
    limbs: Vec<u32>,
}

const BASE: u64 = 1_000_000_000;

impl BigCount {
    /// The number `v`.
    pub fn from_u64(v: u64) -> Self {
        let mut limbs = Vec::new();
        let mut v = v;
        while v > 0 {
            limbs.push((v % BASE) as u32);
            v /= BASE;
        }
        BigCount { limbs }
    }

    /// Zero.
    pub fn zero() -> Self {
        BigCount { limbs: Vec::new() }
    }

    /// One.
    pub fn one() -> Self {
        Self::from_u64(1)
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// Multiplies in place by a small factor.
    pub fn mul_small(&mut self, f: u32) {
        let mut carry = 0u64;
        for l in self.limbs.iter_mut() {
            let v = *l as u64 * f as u64 + carry;
            *l = (v % BASE) as u32;
            carry = v / BASE;
        }
        while carry > 0 {
            self.limbs.push((carry % BASE) as u32);
            carry /= BASE;
        }
        if f == 0 {
            self.limbs.clear();
        }
    }

    /// `p^e` as a count.
    pub fn power(p: u32, e: u32) -> Self {
        let mut c = Self::one();
        for _ in 0..e {
            c.mul_small(p);
        }
        c
    }

    /// The value if it fits in a `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        let mut v: u64 = 0;
        for &l in self.limbs.iter().rev() {
            v = v.checked_mul(BASE)?.checked_add(l as u64)?;
        }
        Some(v)
    }
}

impl fmt::Display for BigCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.limbs.split_last() {
            None => f.write_str("0"),
            Some((top, rest)) => {
                write!(f, "{top}")?;
                for l in rest.iter().rev() {
                    write!(f, "{l:09}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_print_exactly() {
        assert_eq!(BigCount::power(2, 10).to_string(), "1024");
        assert_eq!(BigCount::power(2, 64).to_string(), "18446744073709551616");
        assert_eq!(BigCount::power(10, 20).to_string(), "100000000000000000000");
        assert_eq!(BigCount::power(3, 0).to_string(), "1");
        assert_eq!(BigCount::zero().to_string(), "0");
        assert_eq!(BigCount::power(2, 63).to_u64(), Some(1 << 63));
        assert_eq!(BigCount::power(2, 64).to_u64(), None);
        let mut c = BigCount::power(7, 30);
        c.mul_small(0);
        assert!(c.is_zero());
    }
}
