//! Exhaustive search for the solution with the fewest presses.
//!
//! Every solution is the particular one plus a combination `sum a_i g_i` of the quiet
//! patterns `g_i` (`0 <= a_i < order_i`), so the search walks a mixed-radix counter
//! over the `a_i`: each step adds one generator (a digit wrapping around adds it once
//! more, which brings that generator's total back to a multiple of its order), about
//! two pattern additions per solution. The range is split into chunks for all cores;
//! ties go to the lowest counter value, so the result does not depend on the threads.

use crate::gf2::Bits;
use rayon::prelude::*;
use tabula_core::Budget;

/// Number of chunks the counter range is split into.
const CHUNKS: u64 = 64;

/// Solutions tried between two looks at the budget.
const CHECK_EVERY: u64 = 1 << 16;

/// Whether the caller's budget (captured on the caller's thread: the search runs on
/// rayon's workers, which do not share it) says stop.
fn stopped(budget: &Option<Budget>) -> bool {
    budget.as_ref().is_some_and(Budget::should_stop)
}

fn digits_of(mut index: u64, orders: &[u32]) -> Vec<u32> {
    orders
        .iter()
        .map(|&o| {
            let d = (index % o as u64) as u32;
            index /= o as u64;
            d
        })
        .collect()
}

/// Adds `times * g` to `x` modulo `k`, returning the change in the sum of `x`.
fn add_bytes(x: &mut [u8], g: &[u8], times: u32, k: u32) -> i64 {
    let mut delta = 0i64;
    for (xi, &gi) in x.iter_mut().zip(g) {
        if gi != 0 {
            let old = *xi as u32;
            let new = (old + gi as u32 * times) % k;
            *xi = new as u8;
            delta += new as i64 - old as i64;
        }
    }
    delta
}

/// The fewest-presses solution among `base + sum a_i g_i` (values modulo `k`, press
/// count = sum of the values) and its total; `None` when the thread's budget
/// ([`Budget::current`]) was cancelled or ran out of time first.
pub fn fewest_bytes(k: u32, base: &[u8], gens: &[(Vec<u8>, u32)]) -> Option<(Vec<u8>, u64)> {
    let budget = Budget::current();
    let orders: Vec<u32> = gens.iter().map(|g| g.1).collect();
    let total: u64 = orders.iter().map(|&o| o as u64).product();
    let chunk = total.div_ceil(CHUNKS).max(1);
    let starts: Vec<u64> = (0..total).step_by(chunk as usize).collect();
    let (best_total, best_index) = starts
        .par_iter()
        .map(|&lo| {
            let hi = (lo + chunk).min(total);
            let mut digits = digits_of(lo, &orders);
            let mut x = base.to_vec();
            let mut sum: i64 = x.iter().map(|&v| v as i64).sum();
            for (d, (g, _)) in digits.iter().zip(gens) {
                sum += add_bytes(&mut x, g, *d, k);
            }
            let mut best = (sum, lo);
            for index in lo..hi {
                if (index - lo) % CHECK_EVERY == 0 && stopped(&budget) {
                    return None;
                }
                if sum < best.0 {
                    best = (sum, index);
                }
                if index + 1 == hi {
                    break;
                }
                for (i, (g, order)) in gens.iter().enumerate() {
                    sum += add_bytes(&mut x, g, 1, k);
                    digits[i] += 1;
                    if digits[i] < *order {
                        break;
                    }
                    digits[i] = 0;
                }
            }
            Some(best)
        })
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .min()
        .unwrap_or((base.iter().map(|&v| v as i64).sum(), 0));
    let mut x = base.to_vec();
    for (d, (g, _)) in digits_of(best_index, &orders).iter().zip(gens) {
        add_bytes(&mut x, g, *d, k);
    }
    Some((x, best_total as u64))
}

/// Two colours: the fewest set bits among `base ^ (xor of a subset of gens)`;
/// `None` when the thread's budget was cancelled or ran out of time first.
pub fn fewest_bits(base: &[u64], gens: &[Bits]) -> Option<(Bits, u64)> {
    let budget = Budget::current();
    let total: u64 = 1u64 << gens.len();
    let chunk = total.div_ceil(CHUNKS).max(1);
    let starts: Vec<u64> = (0..total).step_by(chunk as usize).collect();
    let xor_into = |x: &mut [u64], g: &[u64]| -> i64 {
        let mut delta = 0i64;
        for (a, &b) in x.iter_mut().zip(g) {
            let old = a.count_ones() as i64;
            *a ^= b;
            delta += a.count_ones() as i64 - old;
        }
        delta
    };
    let (best_total, best_index) = starts
        .par_iter()
        .map(|&lo| {
            let hi = (lo + chunk).min(total);
            let mut x = base.to_vec();
            for (i, g) in gens.iter().enumerate() {
                if (lo >> i) & 1 == 1 {
                    xor_into(&mut x, g);
                }
            }
            let mut sum: i64 = x.iter().map(|w| w.count_ones() as i64).sum();
            let mut best = (sum, lo);
            for index in lo..hi {
                if (index - lo) % CHECK_EVERY == 0 && stopped(&budget) {
                    return None;
                }
                if sum < best.0 {
                    best = (sum, index);
                }
                if index + 1 == hi {
                    break;
                }
                // Binary counter: flip the trailing ones and the next zero.
                let flips = (index ^ (index + 1)).count_ones() as usize;
                for g in &gens[..flips] {
                    sum += xor_into(&mut x, g);
                }
            }
            Some(best)
        })
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .min()
        .unwrap_or((base.iter().map(|w| w.count_ones() as i64).sum(), 0));
    let mut x = base.to_vec();
    for (i, g) in gens.iter().enumerate() {
        if (best_index >> i) & 1 == 1 {
            xor_into(&mut x, g);
        }
    }
    Some((x, best_total as u64))
}
