//! Counting arrangements up to symmetry (Burnside's lemma / Pólya's theorem).
//!
//! Generic: a permutation group is the list of all its elements, each a
//! permutation of the points `0..n` (`perm[i]` is where point `i` goes); a
//! colouring request says how many points get each colour. The blog counts Mu
//! Torere arrangements this way; nothing here knows about Mu Torere.

use std::collections::{BTreeMap, HashSet};

/// The cycle lengths of a permutation, longest first.
pub fn cycle_type(perm: &[usize]) -> Vec<usize> {
    let mut seen = vec![false; perm.len()];
    let mut lengths = Vec::new();
    for start in 0..perm.len() {
        if seen[start] {
            continue;
        }
        let mut len = 0;
        let mut p = start;
        while !seen[p] {
            seen[p] = true;
            p = perm[p];
            len += 1;
        }
        lengths.push(len);
    }
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    lengths
}

/// The cycle index of a group as text, e.g. `(g1^8 + g2^4 + 2 g4^2 + 4 g8)/8`.
pub fn cycle_index(group: &[Vec<usize>]) -> String {
    let mut terms: BTreeMap<Vec<usize>, usize> = BTreeMap::new();
    for g in group {
        *terms.entry(cycle_type(g)).or_default() += 1;
    }
    // Identity first (most cycles), then by growing cycle lengths, as the blog writes it.
    let mut terms: Vec<(Vec<usize>, usize)> = terms.into_iter().collect();
    terms.sort_by(|(a, _), (b, _)| b.len().cmp(&a.len()).then(a.cmp(b)));
    let monomial = |lengths: &[usize]| {
        let mut powers: BTreeMap<usize, usize> = BTreeMap::new();
        for &l in lengths {
            *powers.entry(l).or_default() += 1;
        }
        powers
            .iter()
            .map(|(l, e)| {
                if *e == 1 {
                    format!("g{l}")
                } else {
                    format!("g{l}^{e}")
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let body: Vec<String> = terms
        .iter()
        .map(|(t, n)| {
            if *n == 1 {
                monomial(t)
            } else {
                format!("{n} {}", monomial(t))
            }
        })
        .collect();
    format!("({})/{}", body.join(" + "), group.len())
}

/// Number of colourings fixed by `perm` that use exactly `counts[c]` points of
/// colour `c`: each cycle must be one colour, so this is the number of ways to
/// give the cycles colours with the right totals (the Pólya coefficient).
pub fn fixed_colourings(perm: &[usize], counts: &[usize]) -> u128 {
    fn assign(cycles: &[usize], left: &mut [usize]) -> u128 {
        let Some((&len, rest)) = cycles.split_first() else {
            return u128::from(left.iter().all(|&l| l == 0));
        };
        let mut total = 0;
        for c in 0..left.len() {
            if left[c] >= len {
                left[c] -= len;
                total += assign(rest, left);
                left[c] += len;
            }
        }
        total
    }
    let cycles = cycle_type(perm);
    let mut left = counts.to_vec();
    assign(&cycles, &mut left)
}

/// Burnside's lemma: the number of orbits of colourings with the given colour
/// counts under `group` (the average number of fixed colourings).
pub fn burnside_orbits(group: &[Vec<usize>], counts: &[usize]) -> u128 {
    assert!(!group.is_empty(), "a group has at least the identity");
    let total: u128 = group.iter().map(|g| fixed_colourings(g, counts)).sum();
    debug_assert_eq!(
        total % group.len() as u128,
        0,
        "Burnside's sum is a multiple of the group order"
    );
    total / group.len() as u128
}

/// Every colouring of `counts.iter().sum()` points with exactly those colour counts.
pub fn all_colourings(counts: &[usize]) -> Vec<Vec<u8>> {
    fn extend(prefix: &mut Vec<u8>, left: &mut [usize], out: &mut Vec<Vec<u8>>) {
        if left.iter().all(|&l| l == 0) {
            out.push(prefix.clone());
            return;
        }
        for c in 0..left.len() {
            if left[c] > 0 {
                left[c] -= 1;
                prefix.push(c as u8);
                extend(prefix, left, out);
                prefix.pop();
                left[c] += 1;
            }
        }
    }
    let mut out = Vec::new();
    extend(&mut Vec::new(), &mut counts.to_vec(), &mut out);
    out
}

/// The same count as [`burnside_orbits`], found the slow way: every colouring
/// is replaced by the least of its images and the distinct ones are counted.
pub fn orbits_by_enumeration(group: &[Vec<usize>], counts: &[usize]) -> u128 {
    let mut seen = HashSet::new();
    for colouring in all_colourings(counts) {
        let canonical = group
            .iter()
            .map(|g| {
                let mut image = vec![0u8; colouring.len()];
                for (i, &c) in colouring.iter().enumerate() {
                    image[g[i]] = c;
                }
                image
            })
            .min()
            .expect("non-empty group");
        seen.insert(canonical);
    }
    seen.len() as u128
}

/// The rotations of a ring of `n` points (`0..n`), optionally with `fixed`
/// extra points that every element leaves in place (placed first).
pub fn cyclic_group(n: usize, fixed: usize) -> Vec<Vec<usize>> {
    (0..n)
        .map(|r| {
            (0..fixed)
                .chain((0..n).map(|i| fixed + (i + r) % n))
                .collect()
        })
        .collect()
}

/// The rotations and reflections of a ring of `n` points (the dihedral group of
/// order `2n`), with `fixed` extra points left in place.
pub fn dihedral_group(n: usize, fixed: usize) -> Vec<Vec<usize>> {
    let mut group = cyclic_group(n, fixed);
    for r in 0..n {
        group.push(
            (0..fixed)
                .chain((0..n).map(|i| fixed + (n - i + r) % n))
                .collect(),
        );
    }
    group
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_vertex_graphs_have_one_way_per_edge_count() {
        // The blog's warm-up: edges of a 3-vertex graph under all 6 permutations.
        let group: Vec<Vec<usize>> = vec![
            vec![0, 1, 2],
            vec![0, 2, 1],
            vec![1, 0, 2],
            vec![1, 2, 0],
            vec![2, 0, 1],
            vec![2, 1, 0],
        ];
        for edges in 0..=3 {
            assert_eq!(burnside_orbits(&group, &[edges, 3 - edges]), 1);
            assert_eq!(orbits_by_enumeration(&group, &[edges, 3 - edges]), 1);
        }
    }

    #[test]
    fn necklaces_and_bracelets_of_four_and_four() {
        // Known values: 10 two-colour necklaces and 8 bracelets with 4+4 beads.
        assert_eq!(burnside_orbits(&cyclic_group(8, 0), &[4, 4]), 10);
        assert_eq!(burnside_orbits(&dihedral_group(8, 0), &[4, 4]), 8);
        // Six beads, three of each colour: 4 necklaces, 3 bracelets.
        assert_eq!(burnside_orbits(&cyclic_group(6, 0), &[3, 3]), 4);
        assert_eq!(burnside_orbits(&dihedral_group(6, 0), &[3, 3]), 3);
    }

    #[test]
    fn groups_are_groups_of_the_right_order() {
        for g in [cyclic_group(8, 1), dihedral_group(8, 1)] {
            let set: HashSet<Vec<usize>> = g.iter().cloned().collect();
            assert_eq!(set.len(), g.len());
            for a in &g {
                for b in &g {
                    let ab: Vec<usize> = (0..a.len()).map(|i| a[b[i]]).collect();
                    assert!(set.contains(&ab), "closed under composition");
                }
            }
        }
    }

    #[test]
    fn seed_cycle_index_for_rotations() {
        assert_eq!(
            cycle_index(&cyclic_group(8, 0)),
            "(g1^8 + g2^4 + 2 g4^2 + 4 g8)/8"
        );
    }

    #[test]
    fn fixed_colourings_of_identity_is_multinomial() {
        let id: Vec<usize> = (0..9).collect();
        assert_eq!(fixed_colourings(&id, &[4, 4, 1]), 630);
    }
}
