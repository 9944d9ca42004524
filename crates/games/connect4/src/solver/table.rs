//! The solver's transposition table: bounds on scores of positions already
//! searched, so that a position reached again by another order of moves is
//! not searched again.
//!
//! Each entry keeps 32 bits of a position's key and one byte of bound. The
//! table has an odd number of entries, more than 2^17 (a prime, so that keys
//! spread evenly), and a key is placed at `key % entries`: a key is below
//! 2^49, and an odd count shares no factor with 2^32, so a key's place and its
//! low 32 bits together tell it apart from every other key (the Chinese
//! remainder theorem), and a bound is never read for the wrong position.

/// Entries in the full table: the smallest prime above 2^23 (about 40 MiB).
pub const FULL_ENTRIES: usize = 8_388_617;
/// Entries in a small table, for small boards or when memory is short: the
/// smallest prime above 2^17 (still enough for the uniqueness argument).
pub const SMALL_ENTRIES: usize = 131_101;

/// Bytes of memory each entry takes.
pub const ENTRY_BYTES: u64 = 5;

/// A bound kept for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is at most this.
    Upper(i32),
    /// The score is at least this.
    Lower(i32),
}

/// The table: keys' low bits and bounds, side by side.
pub struct Table {
    keys: Vec<u32>,
    bounds: Vec<u8>,
}

/// Scores lie within -OFFSET..OFFSET on every board (at most 42 cells).
const OFFSET: i32 = 24;

impl Table {
    /// An empty table of `entries` entries (odd, above 2^17: a smaller or
    /// even count is raised to the next that is).
    pub fn new(entries: usize) -> Table {
        let entries = entries.max(SMALL_ENTRIES) | 1;
        Table {
            keys: vec![0; entries],
            bounds: vec![0; entries],
        }
    }

    /// Bytes it holds.
    pub fn bytes(&self) -> u64 {
        self.keys.len() as u64 * ENTRY_BYTES
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.keys.fill(0);
        self.bounds.fill(0);
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        // A constant divisor is a multiplication, not a division: the usual
        // table's size is named so that the compiler sees it.
        let len = self.keys.len();
        if len == FULL_ENTRIES {
            (key % FULL_ENTRIES as u64) as usize
        } else {
            (key % len as u64) as usize
        }
    }

    /// Keeps `bound` for the position of `key` (replacing whatever was there).
    #[inline]
    pub fn put(&mut self, key: u64, bound: Bound) {
        let i = self.slot(key);
        self.keys[i] = key as u32;
        // 1..=2*OFFSET+1 upper bounds, above that lower bounds; 0 is empty.
        self.bounds[i] = match bound {
            Bound::Upper(v) => (v + OFFSET + 1) as u8,
            Bound::Lower(v) => (v + 3 * OFFSET + 2) as u8,
        };
    }

    /// The bound kept for the position of `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Bound> {
        let i = self.slot(key);
        if self.keys[i] != key as u32 {
            return None;
        }
        let b = i32::from(self.bounds[i]);
        match b {
            0 => None,
            b if b <= 2 * OFFSET + 1 => Some(Bound::Upper(b - OFFSET - 1)),
            b => Some(Bound::Lower(b - 3 * OFFSET - 2)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_come_back_as_they_were_put_and_only_for_their_key() {
        let mut t = Table::new(SMALL_ENTRIES);
        for v in -21..=21 {
            let key = (1_000_003 + v * 7) as u64;
            t.put(key, Bound::Upper(v));
            assert_eq!(t.get(key), Some(Bound::Upper(v)));
            t.put(key, Bound::Lower(v));
            assert_eq!(t.get(key), Some(Bound::Lower(v)));
            // A key in the same slot with other low bits is not mistaken for it.
            assert_eq!(t.get(key + SMALL_ENTRIES as u64), None);
        }
        t.clear();
        assert_eq!(t.get(1_000_003), None);
    }
}
