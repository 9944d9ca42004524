//! A dense index of every Kono position seen from the side to move.
//!
//! A position is a pair of disjoint masks (mover, opponent). Rules make no
//! difference between the two seats, so a position's value for the side to
//! move depends only on that pair: the table stores each pair once, whoever
//! moves. Pairs are grouped in layers by piece counts `(m, o)` (at most 8 a
//! side), and layers are ordered by total piece count, so that captures —
//! which remove a piece — always lead to an earlier, already solved group.
//!
//! Within a layer the mover's mask is ranked among the masks with `m` bits
//! (colex order, which is plain numeric order), and the opponent's mask is
//! squeezed onto the `16 - m` free cells and ranked among masks with `o` bits:
//! `rank = rank(mover) * C(16 - m, o) + rank(squeezed opponent)`.

use std::ops::Range;
use std::sync::LazyLock;

/// Pieces per side at the start.
pub const MAX_PIECES: usize = 8;

/// Ranking tables, built once.
pub struct Indexer {
    rank16: Vec<u16>,
    pext8: Vec<u8>,
    pdep8: Vec<u8>,
    binom: [[u64; 17]; 17],
    offset: [[u64; MAX_PIECES + 1]; MAX_PIECES + 1],
    group_range: [Range<u64>; 17],
    total: u64,
    /// Masks with each popcount, in increasing order.
    masks_by_pop: Vec<Vec<u16>>,
}

/// The tables.
pub static INDEX: LazyLock<Indexer> = LazyLock::new(Indexer::build);

impl Indexer {
    fn build() -> Indexer {
        let mut binom = [[0u64; 17]; 17];
        for n in 0..17 {
            binom[n][0] = 1;
            for k in 1..=n {
                binom[n][k] = binom[n - 1][k - 1] + if k < n { binom[n - 1][k] } else { 0 };
            }
        }
        let mut masks_by_pop: Vec<Vec<u16>> = vec![Vec::new(); 17];
        let mut rank16 = vec![0u16; 1 << 16];
        for m in 0..(1u32 << 16) {
            let list = &mut masks_by_pop[m.count_ones() as usize];
            rank16[m as usize] = list.len() as u16;
            list.push(m as u16);
        }
        let mut pext8 = vec![0u8; 1 << 16];
        let mut pdep8 = vec![0u8; 1 << 16];
        for mask in 0..256usize {
            for v in 0..256usize {
                let (mut squeezed, mut spread, mut k) = (0usize, 0usize, 0);
                for bit in 0..8 {
                    if mask >> bit & 1 == 1 {
                        squeezed |= (v >> bit & 1) << k;
                        spread |= (v >> k & 1) << bit;
                        k += 1;
                    }
                }
                pext8[mask << 8 | v] = squeezed as u8;
                pdep8[mask << 8 | v] = spread as u8;
            }
        }
        let mut offset = [[0u64; MAX_PIECES + 1]; MAX_PIECES + 1];
        let mut group_range: [Range<u64>; 17] = Default::default();
        let mut next = 0u64;
        for (total, range) in group_range.iter_mut().enumerate() {
            let start = next;
            for (m, o) in Self::layers(total) {
                offset[m][o] = next;
                next += binom[16][m] * binom[16 - m][o];
            }
            *range = start..next;
        }
        Indexer {
            rank16,
            pext8,
            pdep8,
            binom,
            offset,
            group_range,
            total: next,
            masks_by_pop,
        }
    }

    /// Number of indexed positions.
    pub fn len(&self) -> u64 {
        self.total
    }

    /// Always false (the table has positions).
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Binomial coefficient for n, k <= 16.
    pub fn binom(&self, n: usize, k: usize) -> u64 {
        if k > n {
            0
        } else {
            self.binom[n][k]
        }
    }

    /// Indices of all positions with `total` pieces on the board.
    pub fn group(&self, total: usize) -> Range<u64> {
        self.group_range[total].clone()
    }

    /// The layers `(m, o)` with `m + o = total`.
    pub fn layers(total: usize) -> impl Iterator<Item = (usize, usize)> {
        (0..=MAX_PIECES).filter_map(move |m| {
            let o = total.checked_sub(m)?;
            (o <= MAX_PIECES).then_some((m, o))
        })
    }

    /// First index of layer `(m, o)`.
    pub fn layer_start(&self, m: usize, o: usize) -> u64 {
        self.offset[m][o]
    }

    /// Positions in layer `(m, o)`.
    pub fn layer_len(&self, m: usize, o: usize) -> u64 {
        self.binom[16][m] * self.binom[16 - m][o]
    }

    /// Squeezes the bits of `v` selected by `mask` into the low bits (software PEXT).
    #[inline(always)]
    pub fn squeeze(&self, v: u32, mask: u32) -> u32 {
        let (m0, m1) = ((mask & 0xFF) as usize, (mask >> 8 & 0xFF) as usize);
        let low = self.pext8[m0 << 8 | (v & 0xFF) as usize] as u32;
        let high = self.pext8[m1 << 8 | (v >> 8 & 0xFF) as usize] as u32;
        low | high << m0.count_ones()
    }

    /// Spreads the low bits of `c` onto the bits of `mask` (software PDEP).
    #[inline(always)]
    pub fn spread(&self, c: u32, mask: u32) -> u32 {
        let (m0, m1) = ((mask & 0xFF) as usize, (mask >> 8 & 0xFF) as usize);
        let p0 = m0.count_ones();
        let low = self.pdep8[m0 << 8 | (c & ((1 << p0) - 1)) as usize] as u32;
        let high = self.pdep8[m1 << 8 | (c >> p0 & 0xFF) as usize] as u32;
        low | high << 8
    }

    /// Index of the position (mover, opponent); each side has at most 8 pieces.
    #[inline(always)]
    pub fn index(&self, mover: u32, opponent: u32) -> u64 {
        let m = mover.count_ones() as usize;
        let o = opponent.count_ones() as usize;
        let free = !mover & 0xFFFF;
        self.offset[m][o]
            + self.rank16[mover as usize] as u64 * self.binom[16 - m][o]
            + self.rank16[self.squeeze(opponent, free) as usize] as u64
    }

    /// The masks with `k` bits, in increasing order (ranks are positions in this list).
    pub fn masks(&self, k: usize) -> &[u16] {
        &self.masks_by_pop[k]
    }

    /// The position at an index (the inverse of [`Indexer::index`]).
    pub fn position(&self, index: u64) -> (u32, u32) {
        let total = (0..=16)
            .find(|&t| self.group_range[t].contains(&index))
            .expect("index in range");
        let (m, o) = Self::layers(total)
            .find(|&(m, o)| {
                (self.offset[m][o]..self.offset[m][o] + self.layer_len(m, o)).contains(&index)
            })
            .expect("layer");
        let r = index - self.offset[m][o];
        let per_mover = self.binom[16 - m][o];
        let mover = self.masks_by_pop[m][(r / per_mover) as usize] as u32;
        let squeezed = self.masks_by_pop[o][(r % per_mover) as usize] as u32;
        (mover, self.spread(squeezed, !mover & 0xFFFF))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_size_is_the_sum_of_multinomials() {
        // Sum over m, o <= 8 of 16! / (m! o! (16-m-o)!).
        let mut expected = 0u64;
        for m in 0..=8u64 {
            for o in 0..=8u64 {
                if m + o <= 16 {
                    let f = |n: u64| (1..=n).product::<u64>();
                    expected += f(16) / (f(m) * f(o) * f(16 - m - o));
                }
            }
        }
        assert_eq!(INDEX.len(), expected);
        assert_eq!(expected, 38_745_279);
    }

    #[test]
    fn index_and_position_are_inverse_on_samples() {
        let ix = &*INDEX;
        let mut seen = std::collections::HashSet::new();
        // Every layer's first, last and a few middle positions.
        for total in 0..=16 {
            for (m, o) in Indexer::layers(total) {
                let start = ix.layer_start(m, o);
                let len = ix.layer_len(m, o);
                for r in [0, len / 3, len / 2, len - 1] {
                    let (a, b) = ix.position(start + r);
                    assert_eq!(a & b, 0);
                    assert_eq!((a.count_ones() as usize, b.count_ones() as usize), (m, o));
                    assert_eq!(ix.index(a, b), start + r);
                    seen.insert(start + r);
                }
            }
        }
        assert!(seen.len() > 100);
    }

    #[test]
    fn small_layers_are_enumerated_exactly() {
        let ix = &*INDEX;
        for (m, o) in [(1, 1), (2, 1), (2, 3), (0, 3)] {
            let mut hit = vec![false; ix.layer_len(m, o) as usize];
            for &a in ix.masks(m) {
                for &b in ix.masks(o) {
                    let (a, b) = (a as u32, b as u32);
                    if a & b != 0 {
                        continue;
                    }
                    let i = ix.index(a, b) - ix.layer_start(m, o);
                    assert!(!hit[i as usize], "two positions share index {i}");
                    hit[i as usize] = true;
                }
            }
            assert!(hit.iter().all(|&h| h));
        }
    }

    #[test]
    fn squeeze_and_spread_invert() {
        let ix = &*INDEX;
        for mask in [0xFFFFu32, 0xF0F0, 0x1234, 0x8001, 0] {
            for v in [0u32, 1, 0x55, 0xFF, 0x3] {
                let c = v & ((1 << mask.count_ones()) - 1);
                assert_eq!(ix.squeeze(ix.spread(c, mask), mask), c);
            }
        }
    }
}
