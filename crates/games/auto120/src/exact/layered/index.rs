//! The dense index of the positions one layer holds: only the pairs that can
//! occur.
//!
//! A layer's positions are pairs (roller's multiset `m`, other's multiset `t`)
//! where no square above 1 holds markers of both (the later arrival would have
//! bumped the other). For a roller whose markers stand on the set `U` of squares
//! above 1, the other's markers can stand anywhere but `U`: its multisets are
//! those of `kb` markers on `FREE - |U|` squares. Renumbering the squares without
//! `U` keeps their order, and the combinatorial rank of a sorted multiset
//! (`sum over j of C(i_j + j, j + 1)`, the colexicographic rank) does not depend on
//! how many squares there are, so the other's place in the roller's row is that
//! rank over the renumbered squares: [`crank`]. Rows follow each other in the
//! roller's rank order, so a row is contiguous and a run of the other's ranks
//! that can occur with one roller is a run of consecutive places.

use crate::exact::{FREE, TERM};
use crate::solo::binomial;

/// Where each row of a layer starts: roller `m`'s row is
/// `row_start[m]..row_start[m + 1]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerIndex {
    /// Markers in play of the roller (rows) and of the other (columns).
    pub ka: usize,
    pub kb: usize,
    row_start: Vec<u64>,
}

/// Multisets of `k` markers on `squares` squares: C(squares + k - 1, k).
pub fn multisets_on(squares: usize, k: usize) -> u64 {
    binomial(squares + k - 1, k) as u64
}

/// The place of the other's multiset (its sorted square indices `sq`) in the
/// row of a roller whose markers stand on the squares of `taken` (bit i: square
/// index i; square 1, index 0, is never taken): its rank over the squares that
/// are not taken.
#[inline(always)]
pub fn crank(sq: &[u8], taken: u64) -> u64 {
    let mut r = 0u64;
    for (j, &i) in sq.iter().enumerate() {
        let below = (taken & ((1u64 << i) - 1)).count_ones() as usize;
        r += TERM[j][i as usize - below] as u64;
    }
    r
}

impl LayerIndex {
    /// The index of the layer whose rollers have the square masks `roller_masks`
    /// (one per rank) and whose others have `kb` markers in play.
    pub fn new(ka: usize, roller_masks: &[u64], kb: usize) -> LayerIndex {
        let mut row_start = Vec::with_capacity(roller_masks.len() + 1);
        let mut at = 0u64;
        for &m in roller_masks {
            row_start.push(at);
            at += multisets_on(FREE - m.count_ones() as usize, kb);
        }
        row_start.push(at);
        LayerIndex { ka, kb, row_start }
    }

    /// Positions in the layer.
    pub fn len(&self) -> u64 {
        *self.row_start.last().unwrap_or(&0)
    }

    /// True when the layer has no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Rows (rollers' multisets).
    pub fn rows(&self) -> usize {
        self.row_start.len() - 1
    }

    /// Where roller `m`'s row starts.
    #[inline(always)]
    pub fn row(&self, m: usize) -> u64 {
        self.row_start[m]
    }

    /// The place of the position (roller `m`, whose squares are `taken`; the
    /// other's sorted square indices `other`).
    #[inline(always)]
    pub fn at(&self, m: usize, taken: u64, other: &[u8]) -> u64 {
        self.row_start[m] + crank(other, taken)
    }

    /// Bytes the index keeps.
    pub fn bytes(&self) -> u64 {
        self.row_start.len() as u64 * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::Sets;

    /// Every pair that can occur gets its own place, the places of a layer are
    /// exactly 0..len, and they rise with the other's rank within a row.
    #[test]
    fn places_are_a_bijection_onto_the_positions_that_can_occur() {
        for (ka, kb) in [(1, 1), (2, 1), (1, 2), (2, 2), (3, 2)] {
            let (sa, sb) = (Sets::build(ka), Sets::build(kb));
            let index = LayerIndex::new(ka, &sa.mask, kb);
            let mut seen = vec![false; index.len() as usize];
            let mut valid = 0u64;
            for m in 0..sa.len {
                let mut last = None;
                for t in 0..sb.len {
                    if sa.mask[m] & sb.mask[t] != 0 {
                        continue;
                    }
                    valid += 1;
                    let at = index.at(m, sa.mask[m], &sb.squares[t][..kb]);
                    assert!(at >= index.row(m) && at < index.row(m + 1));
                    assert!(last.is_none_or(|l| at == l + 1), "consecutive places");
                    last = Some(at);
                    assert!(!seen[at as usize]);
                    seen[at as usize] = true;
                }
            }
            assert_eq!(valid, index.len(), "{ka} against {kb}");
            assert!(seen.iter().all(|&x| x));
        }
    }
}
