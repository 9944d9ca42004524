//! The track 1..=120 and the sets of positions the posts talk about, all derived
//! from the rules (a marker multiplies its position by a roll of 2..=6 and must land
//! exactly on 120) rather than typed in, so that the tests can check them against
//! the posts' published lists.

/// The position a marker must land on exactly to retire.
pub const TARGET: u8 = 120;
/// Markers per player.
pub const MARKERS: usize = 4;
/// The smallest roll that moves a marker (a 1 forfeits the turn).
pub const MIN_MOVING_ROLL: u8 = 2;
/// Faces of the die.
pub const DIE_FACES: u8 = 6;

const REACHABLE: u8 = 1;
const ON_PATH: u8 = 2;
const PENULTIMATE: u8 = 4;
const FACTOR: u8 = 8;

/// Flags of every position 0..=120 (0 is unused).
static FLAGS: [u8; TARGET as usize + 1] = flags();

/// Reachability of every position 0..=120, for tables built at compile time.
pub(crate) const REACHABLE_TABLE: [bool; TARGET as usize + 1] = reachable_table();

const fn reachable_table() -> [bool; TARGET as usize + 1] {
    let f = flags();
    let mut r = [false; TARGET as usize + 1];
    let mut p = 0;
    while p <= TARGET as usize {
        r[p] = f[p] & REACHABLE != 0;
        p += 1;
    }
    r
}

const fn flags() -> [u8; TARGET as usize + 1] {
    let n = TARGET as usize;
    let mut f = [0u8; TARGET as usize + 1];
    // Reachable from 1 by multiplying by rolls 2..=6 (upwards).
    f[1] = REACHABLE;
    let mut p = 2;
    while p <= n {
        let mut r = MIN_MOVING_ROLL as usize;
        while r <= DIE_FACES as usize {
            if p % r == 0 && f[p / r] & REACHABLE != 0 {
                f[p] |= REACHABLE;
            }
            r += 1;
        }
        p += 1;
    }
    // Can still finish exactly on 120 (downwards): the "path" of the posts.
    let mut can_finish = [false; TARGET as usize + 1];
    can_finish[n] = true;
    let mut p = n;
    while p >= 1 {
        let mut r = MIN_MOVING_ROLL as usize;
        while r <= DIE_FACES as usize {
            if p * r <= n && can_finish[p * r] {
                can_finish[p] = true;
            }
            r += 1;
        }
        p -= 1;
    }
    let mut p = 1;
    while p <= n {
        if f[p] & REACHABLE != 0 && can_finish[p] {
            f[p] |= ON_PATH;
            let mut one_roll_away = false;
            let mut r = MIN_MOVING_ROLL as usize;
            while r <= DIE_FACES as usize {
                if p * r == n {
                    one_roll_away = true;
                }
                r += 1;
            }
            if p != n && one_roll_away {
                f[p] |= PENULTIMATE;
            } else if p != 1 && p != n {
                f[p] |= FACTOR;
            }
        }
        p += 1;
    }
    f
}

#[inline]
fn flag(p: u32, bit: u8) -> bool {
    p <= TARGET as u32 && FLAGS[p as usize] & bit != 0
}

/// True if a marker can ever stand on `p` (1 and the products of rolls 2..=6).
#[inline]
pub fn is_reachable(p: u32) -> bool {
    flag(p, REACHABLE)
}

/// True if a marker on `p` can still land exactly on 120 (the posts' "path" or
/// "fast track"); 1 and 120 included.
#[inline]
pub fn is_on_path(p: u32) -> bool {
    flag(p, ON_PATH)
}

/// True if one roll of 2..=6 takes a marker from `p` exactly to 120.
#[inline]
pub fn is_penultimate(p: u32) -> bool {
    flag(p, PENULTIMATE)
}

/// True for the other positions on the path (neither 1, 120 nor penultimate).
#[inline]
pub fn is_factor(p: u32) -> bool {
    flag(p, FACTOR)
}

/// Where a marker on `p` ends after a roll `r`: the product, or 1 if it
/// exceeds 120 (a "blow out").
#[inline]
pub fn destination(p: u8, r: u8) -> u8 {
    let d = p as u32 * r as u32;
    if d > TARGET as u32 {
        1
    } else {
        d as u8
    }
}

/// The positions of a set, in increasing order.
pub fn positions(pred: fn(u32) -> bool) -> Vec<u8> {
    (1..=TARGET).filter(|&p| pred(p as u32)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn penultimate_positions_are_the_seeds_five() {
        // Seed part 1: "the number set {20,24,30,40,60}".
        assert_eq!(positions(is_penultimate), vec![20, 24, 30, 40, 60]);
    }

    #[test]
    fn there_are_nine_factor_positions() {
        // Seed part 2: "five 'penultimate' positions (light green) and nine 'factor' positions".
        let factors = positions(is_factor);
        assert_eq!(factors.len(), 9);
        assert_eq!(factors, vec![2, 3, 4, 5, 6, 8, 10, 12, 15]);
        for f in factors {
            assert_eq!(120 % f, 0, "{f} divides 120");
        }
    }

    #[test]
    fn primes_above_six_are_never_landed_on() {
        for p in [
            7u32, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89,
            97, 101, 103, 107, 109, 113,
        ] {
            assert!(!is_reachable(p), "{p}");
        }
        assert!(is_reachable(1) && is_reachable(64) && is_reachable(81) && is_reachable(120));
        // 5-smooth numbers up to 120: 36 of them.
        assert_eq!(positions(is_reachable).len(), 36);
    }

    #[test]
    fn off_path_positions_never_finish() {
        // 9, 25 and 50 are reachable but do not divide 120.
        for p in [9u32, 16, 25, 50, 64, 72, 90, 100] {
            assert!(is_reachable(p) && !is_on_path(p), "{p}");
        }
        // The fastest journey of the posts: 4, 20, 120.
        assert!(is_factor(4) && is_penultimate(20) && is_on_path(120));
    }

    #[test]
    fn destinations_blow_out_above_120() {
        assert_eq!(destination(20, 6), 120);
        assert_eq!(destination(30, 5), 1);
        assert_eq!(destination(16, 4), 64);
        assert_eq!(destination(1, 5), 5);
    }
}
