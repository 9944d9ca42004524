//! Nimbers: the values of Nim heaps, with Conway's field operations.
//!
//! Nim-addition is bitwise exclusive or (two equal heaps cancel: `n* + n* = 0`, so
//! every nimber is its own negative). Nim-multiplication is Conway's: with it the
//! nimbers below `2^(2^k)` form the finite field of that order, so the 64-bit
//! nimbers here form GF(2^64).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use std::sync::OnceLock;

/// A nimber `n*` (`*n` in Winning Ways), backed by a `u64`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Nimber(pub u64);

impl Nimber {
    /// The nimber 0 (the empty game).
    pub const ZERO: Nimber = Nimber(0);
    /// The nimber 1* (a heap of one counter, "star").
    pub const ONE: Nimber = Nimber(1);

    /// The nimber `n*`.
    pub const fn new(n: u64) -> Self {
        Nimber(n)
    }

    /// The size of the Nim heap with this value.
    pub const fn value(self) -> u64 {
        self.0
    }

    /// True for the zero nimber.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// `self` raised to the ordinary integer power `exp`, with nim-multiplication.
    pub fn pow(self, mut exp: u64) -> Nimber {
        let mut base = self;
        let mut acc = Nimber::ONE;
        while exp > 0 {
            if exp & 1 == 1 {
                acc *= base;
            }
            base *= base;
            exp >>= 1;
        }
        acc
    }

    /// The multiplicative inverse in GF(2^64), `None` for zero.
    ///
    /// The multiplicative group has order `2^64 - 1`, so `a^(2^64 - 2)` is `1/a`.
    pub fn inverse(self) -> Option<Nimber> {
        if self.is_zero() {
            None
        } else {
            Some(self.pow(u64::MAX - 1))
        }
    }

    /// Nim-division; `None` when dividing by zero.
    pub fn checked_div(self, rhs: Nimber) -> Option<Nimber> {
        rhs.inverse().map(|inv| self * inv)
    }
}

/// Conway's product of `a` and `b`, both below `2^(2*half)`.
///
/// Write `a = a1·F + a0` with the Fermat 2-power `F = 2^half`. Because `F ⊗ F = F ⊕ F/2`
/// and `x ⊗ F` is the ordinary product `x·F` for `x < F`:
/// `a ⊗ b = (a1b1 ⊕ a1b0 ⊕ a0b1)·F ⊕ a0b0 ⊕ (a1b1 ⊗ F/2)`, where the middle sum is got
/// Karatsuba-style from `(a1 ⊕ a0)(b1 ⊕ b0)`.
fn nim_mul(a: u64, b: u64, half: u32) -> u64 {
    if a < 2 || b < 2 {
        return a * b;
    }
    if half <= 4 {
        // Both below 256: one look-up instead of three more levels of recursion.
        return byte_table()[(a as usize) << 8 | b as usize] as u64;
    }
    nim_mul_split(a, b, half, nim_mul)
}

/// Products of all pairs of bytes, built once by the recursion itself.
fn byte_table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        fn slow(a: u64, b: u64, half: u32) -> u64 {
            if a < 2 || b < 2 {
                return a * b;
            }
            nim_mul_split(a, b, half, slow)
        }
        (0..65536u64)
            .map(|i| slow(i >> 8, i & 255, 4) as u8)
            .collect()
    })
}

/// One level of the recursion, with `inner` for the half-width products.
fn nim_mul_split(a: u64, b: u64, half: u32, inner: fn(u64, u64, u32) -> u64) -> u64 {
    let mask = (1u64 << half) - 1;
    let (a1, a0) = (a >> half, a & mask);
    let (b1, b0) = (b >> half, b & mask);
    let q = half / 2;
    let low = inner(a0, b0, q);
    let high = inner(a1, b1, q);
    let cross = inner(a1 ^ a0, b1 ^ b0, q);
    let high_part = cross ^ low;
    let semi = inner(high, 1u64 << (half - 1), q);
    (high_part << half) | (low ^ semi)
}

// Nim-addition is exclusive or, and subtraction is the same operation.
#[allow(clippy::suspicious_arithmetic_impl, clippy::suspicious_op_assign_impl)]
impl Add for Nimber {
    type Output = Nimber;
    fn add(self, rhs: Nimber) -> Nimber {
        Nimber(self.0 ^ rhs.0)
    }
}

// Nim-addition is exclusive or, and subtraction is the same operation.
#[allow(clippy::suspicious_arithmetic_impl, clippy::suspicious_op_assign_impl)]
impl AddAssign for Nimber {
    fn add_assign(&mut self, rhs: Nimber) {
        self.0 ^= rhs.0;
    }
}

// Nim-addition is exclusive or, and subtraction is the same operation.
#[allow(clippy::suspicious_arithmetic_impl, clippy::suspicious_op_assign_impl)]
impl Sub for Nimber {
    type Output = Nimber;
    fn sub(self, rhs: Nimber) -> Nimber {
        self + rhs
    }
}

// Nim-addition is exclusive or, and subtraction is the same operation.
#[allow(clippy::suspicious_arithmetic_impl, clippy::suspicious_op_assign_impl)]
impl SubAssign for Nimber {
    fn sub_assign(&mut self, rhs: Nimber) {
        *self += rhs;
    }
}

impl Neg for Nimber {
    type Output = Nimber;
    fn neg(self) -> Nimber {
        self
    }
}

impl Mul for Nimber {
    type Output = Nimber;
    fn mul(self, rhs: Nimber) -> Nimber {
        Nimber(nim_mul(self.0, rhs.0, 32))
    }
}

impl MulAssign for Nimber {
    fn mul_assign(&mut self, rhs: Nimber) {
        *self = *self * rhs;
    }
}

impl std::iter::Sum for Nimber {
    fn sum<I: Iterator<Item = Nimber>>(iter: I) -> Nimber {
        iter.fold(Nimber::ZERO, |a, b| a + b)
    }
}

impl From<u64> for Nimber {
    fn from(n: u64) -> Self {
        Nimber(n)
    }
}

/// The blog's notation: `0`, `1*`, `3*`.
impl fmt::Display for Nimber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            f.write_str("0")
        } else {
            write!(f, "{}*", self.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn n(x: u64) -> Nimber {
        Nimber(x)
    }

    #[test]
    fn seed_identities_of_addition() {
        assert_eq!(n(1) + n(2) + n(3), Nimber::ZERO);
        assert_eq!(n(1) + n(2), n(3));
        assert_eq!(n(1) + n(3), n(2));
        assert_eq!(n(2) + n(3), n(1));
        for k in 0..200 {
            assert_eq!(n(k) + n(k), Nimber::ZERO);
            assert_eq!(-n(k), n(k));
        }
    }

    #[test]
    fn published_products() {
        // Winning Ways / On Numbers and Games: the field of order 4 is {0, 1, 2, 3}.
        assert_eq!(n(2) * n(2), n(3));
        assert_eq!(n(2) * n(3), n(1));
        assert_eq!(n(3) * n(3), n(2));
        // Fermat 2-powers square to their sesquimultiple: F*F = 3F/2.
        assert_eq!(n(4) * n(4), n(6));
        assert_eq!(n(16) * n(16), n(24));
        assert_eq!(n(256) * n(256), n(384));
        assert_eq!(n(1 << 32) * n(1 << 32), n(3 << 31));
        // Distinct Fermat 2-powers multiply as ordinary numbers.
        assert_eq!(n(2) * n(4), n(8));
        assert_eq!(n(4) * n(16), n(64));
        assert_eq!(n(1 << 16) * n(1 << 32), n(1 << 48));
        assert_eq!(n(8) * n(8), n(13));
        assert_eq!(n(4) * n(8), n(11));
    }

    #[test]
    fn published_rows_of_the_table_below_16() {
        // Rows 2 and 4 of the nim-multiplication table as printed in ONAG.
        let row2 = [0, 2, 3, 1, 8, 10, 11, 9, 12, 14, 15, 13, 4, 6, 7, 5];
        let row4 = [0, 4, 8, 12, 6, 2, 14, 10, 11, 15, 3, 7, 13, 9, 5, 1];
        for x in 0..16u64 {
            assert_eq!(n(2) * n(x), n(row2[x as usize]), "2*{x}");
            assert_eq!(n(4) * n(x), n(row4[x as usize]), "4*{x}");
        }
    }

    #[test]
    fn field_axioms_on_small_ranges() {
        for a in 0..32u64 {
            for b in 0..32u64 {
                assert_eq!(n(a) * n(b), n(b) * n(a));
                for c in 0..32u64 {
                    assert_eq!(
                        (n(a) * n(b)) * n(c),
                        n(a) * (n(b) * n(c)),
                        "assoc {a} {b} {c}"
                    );
                    assert_eq!(
                        n(a) * (n(b) + n(c)),
                        n(a) * n(b) + n(a) * n(c),
                        "distrib {a} {b} {c}"
                    );
                }
            }
        }
    }

    #[test]
    fn subfields_are_closed_and_every_nonzero_element_has_an_inverse() {
        for size in [2u64, 4, 16, 256] {
            for a in 1..size {
                let mut found = None;
                for b in 1..size {
                    let p = (n(a) * n(b)).0;
                    assert!(p < size, "{a}*{b} leaves the field of order {size}");
                    if p == 1 {
                        assert!(found.is_none(), "two inverses of {a}");
                        found = Some(b);
                    }
                }
                let b = found.expect("inverse exists");
                assert_eq!(n(a).inverse(), Some(n(b)));
            }
        }
        assert_eq!(Nimber::ZERO.inverse(), None);
    }

    #[test]
    fn display_uses_the_seed_notation() {
        assert_eq!(n(0).to_string(), "0");
        assert_eq!(n(1).to_string(), "1*");
        assert_eq!(n(3).to_string(), "3*");
        assert_eq!(serde_json::to_string(&n(5)).unwrap(), "5");
    }

    proptest! {
        #[test]
        fn field_axioms_on_random_64_bit_nimbers(a: u64, b: u64, c: u64) {
            let (a, b, c) = (n(a), n(b), n(c));
            prop_assert_eq!(a * b, b * a);
            prop_assert_eq!((a * b) * c, a * (b * c));
            prop_assert_eq!(a * (b + c), a * b + a * c);
            prop_assert_eq!(a * Nimber::ONE, a);
            if !a.is_zero() {
                let inv = a.inverse().unwrap();
                prop_assert_eq!(a * inv, Nimber::ONE);
                prop_assert_eq!((b * a).checked_div(a), Some(b));
            }
        }

        #[test]
        fn squaring_is_additive(a: u64, b: u64) {
            // Characteristic 2: (a + b)^2 = a^2 + b^2.
            let (a, b) = (n(a), n(b));
            prop_assert_eq!((a + b) * (a + b), a * a + b * b);
        }
    }
}
