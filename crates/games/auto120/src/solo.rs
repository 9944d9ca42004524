//! Exact tables for one player racing alone (no opponent to bump or be bumped by).
//!
//! A player's four markers, as a multiset of the 36 reachable positions (120 =
//! retired), form one of C(39,4) = 82,251 "solo states". For each we compute, by
//! value iteration, the least expected number of turns (die rolls) to retire every
//! marker, and, under the policy that achieves it, the probability of having
//! finished within t turns for t = 0..=HORIZON. Two such distributions give the
//! probability that one player finishes before the other: the race evaluation used
//! by `evaluate`, `expectimax` and `best`. The tables take well under a second to
//! build in release mode and are built once per process, on first use.

#[cfg(test)]
use crate::board::is_reachable;
use crate::board::{destination, DIE_FACES, MARKERS, MIN_MOVING_ROLL, REACHABLE_TABLE, TARGET};
use std::sync::OnceLock;

/// Number of reachable positions (1, the products of rolls 2..=6 up to 120).
pub const POSITIONS: usize = 36;
/// Number of solo states.
pub const SOLO_STATES: usize = 82_251;
/// Turns covered by the finishing-time distributions.
pub const HORIZON: usize = 160;
const ROLLS: usize = (DIE_FACES - MIN_MOVING_ROLL + 1) as usize;
const NONE: u32 = u32::MAX;

/// Position -> index among the reachable positions (255 for unreachable ones),
/// and index -> position.
static INDEX: [u8; TARGET as usize + 1] = index_maps().0;
static POSITION: [u8; POSITIONS] = index_maps().1;

const fn index_maps() -> ([u8; TARGET as usize + 1], [u8; POSITIONS]) {
    let mut index = [u8::MAX; TARGET as usize + 1];
    let mut position = [0u8; POSITIONS];
    let mut i = 0;
    let mut p = 1;
    while p <= TARGET as usize {
        if REACHABLE_TABLE[p] {
            index[p] = i as u8;
            position[i] = p as u8;
            i += 1;
        }
        p += 1;
    }
    assert!(i == POSITIONS, "36 reachable positions");
    (index, position)
}

/// C(n, k), for the rank tables of markers on squares (here and in `exact`).
pub(crate) const fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// `RANK_TERM[k][i]` = C(i + k, k + 1): the term of the k-th smallest index.
static RANK_TERM: [[u32; POSITIONS]; MARKERS] = rank_terms::<POSITIONS>();

/// `t[k][i]` = C(i + k, k + 1) for `N` squares: ranks multisets of up to
/// [`MARKERS`] square indices in the combinatorial number system.
pub(crate) const fn rank_terms<const N: usize>() -> [[u32; N]; MARKERS] {
    let mut t = [[0u32; N]; MARKERS];
    let mut k = 0;
    while k < MARKERS {
        let mut i = 0;
        while i < N {
            t[k][i] = binomial(i + k, k + 1) as u32;
            i += 1;
        }
        k += 1;
    }
    t
}

/// Rank of a sorted multiset of position indices (a <= b <= c <= d), via the
/// combinatorial number system on (a, b+1, c+2, d+3).
#[inline]
fn rank_sorted(ix: [u8; MARKERS]) -> u32 {
    RANK_TERM[0][ix[0] as usize]
        + RANK_TERM[1][ix[1] as usize]
        + RANK_TERM[2][ix[2] as usize]
        + RANK_TERM[3][ix[3] as usize]
}

/// The solo state of four marker positions (in any order; all must be reachable).
#[inline]
pub fn solo_rank(markers: [u8; MARKERS]) -> u32 {
    let [mut a, mut b, mut c, mut d] = markers.map(|p| INDEX[p as usize]);
    // A sorting network for four.
    if a > b {
        std::mem::swap(&mut a, &mut b);
    }
    if c > d {
        std::mem::swap(&mut c, &mut d);
    }
    if a > c {
        std::mem::swap(&mut a, &mut c);
    }
    if b > d {
        std::mem::swap(&mut b, &mut d);
    }
    if b > c {
        std::mem::swap(&mut b, &mut c);
    }
    rank_sorted([a, b, c, d])
}

/// Race tables: expected turns and finishing-time distributions of solo states.
pub struct Tables {
    expected: Vec<f32>,
    /// State-major: `cdf[s * (HORIZON + 1) + t]` = P(finished within t turns).
    cdf: Vec<f32>,
    /// Per-turn survival ratio beyond the horizon: the tails decay geometrically,
    /// at the rate of the slowest mode of the chain (a last marker that keeps
    /// missing 120), the same for every state.
    tail_ratio: f64,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

/// Bytes the tables take (the finishing-time distributions and the expected turns).
pub const TABLE_BYTES: u64 = (SOLO_STATES * (HORIZON + 2) * 4) as u64;

/// The tables, built on first use.
pub fn tables() -> &'static Tables {
    TABLES.get_or_init(Tables::build)
}

impl Tables {
    fn build() -> Tables {
        let position = &POSITION;
        let mut markers = vec![[0u8; MARKERS]; SOLO_STATES];
        for a in 0..POSITIONS as u8 {
            for b in a..POSITIONS as u8 {
                for c in b..POSITIONS as u8 {
                    for d in c..POSITIONS as u8 {
                        let ix = [a, b, c, d];
                        markers[rank_sorted(ix) as usize] = ix.map(|i| position[i as usize]);
                    }
                }
            }
        }
        // Successors of each state for each moving roll: one per distinct marker
        // position still in play (markers on the same square are interchangeable).
        let mut succ = vec![NONE; SOLO_STATES * ROLLS * MARKERS];
        for (s, m) in markers.iter().enumerate() {
            for r in 0..ROLLS {
                let roll = MIN_MOVING_ROLL + r as u8;
                let mut k = 0;
                for i in 0..MARKERS {
                    if m[i] == TARGET || m[..i].contains(&m[i]) {
                        continue;
                    }
                    let mut next = *m;
                    next[i] = destination(m[i], roll);
                    succ[(s * ROLLS + r) * MARKERS + k] = solo_rank(next);
                    k += 1;
                }
            }
        }
        let done = solo_rank([TARGET; MARKERS]) as usize;
        let expected = Self::value_iteration(&succ, done);
        let policy = Self::policy(&succ, &expected, done);
        let cdf = Self::distributions(&policy, done);
        let start = solo_rank([1; MARKERS]) as usize * (HORIZON + 1);
        let survive = |t: usize| 1.0 - cdf[start + t] as f64;
        let span = 20;
        let tail_ratio = (survive(HORIZON) / survive(HORIZON - span)).powf(1.0 / span as f64);
        Tables {
            expected: expected.iter().map(|&e| e as f32).collect(),
            cdf,
            tail_ratio,
        }
    }

    /// Least expected turns to finish: E(s) = 1 + E(s)/6 + (1/6) sum over rolls
    /// 2..=6 of the best successor's E, i.e. E(s) = (6 + sum) / 5.
    fn value_iteration(succ: &[u32], done: usize) -> Vec<f64> {
        let mut e = vec![0.0f64; SOLO_STATES];
        loop {
            let mut change = 0.0f64;
            // Descending ranks: successors mostly have larger positions, hence
            // larger ranks, so Gauss-Seidel sees fresh values.
            for s in (0..SOLO_STATES).rev() {
                if s == done {
                    continue;
                }
                let mut sum = 0.0;
                for r in 0..ROLLS {
                    let base = (s * ROLLS + r) * MARKERS;
                    let best = succ[base..base + MARKERS]
                        .iter()
                        .take_while(|&&t| t != NONE)
                        .map(|&t| e[t as usize])
                        .fold(f64::INFINITY, f64::min);
                    sum += best;
                }
                let v = (DIE_FACES as f64 + sum) / (DIE_FACES as f64 - 1.0);
                change = change.max((v - e[s]).abs());
                e[s] = v;
            }
            if change < 1e-9 {
                return e;
            }
        }
    }

    fn policy(succ: &[u32], e: &[f64], done: usize) -> Vec<u32> {
        let mut policy = vec![done as u32; SOLO_STATES * ROLLS];
        for s in 0..SOLO_STATES {
            if s == done {
                continue;
            }
            for r in 0..ROLLS {
                let base = (s * ROLLS + r) * MARKERS;
                policy[s * ROLLS + r] = succ[base..base + MARKERS]
                    .iter()
                    .take_while(|&&t| t != NONE)
                    .copied()
                    .min_by(|&a, &b| e[a as usize].total_cmp(&e[b as usize]))
                    .expect("a player who has not finished can move");
            }
        }
        policy
    }

    fn distributions(policy: &[u32], done: usize) -> Vec<f32> {
        let mut cdf = vec![0.0f32; SOLO_STATES * (HORIZON + 1)];
        let mut prev = vec![0.0f64; SOLO_STATES];
        prev[done] = 1.0;
        cdf[done * (HORIZON + 1)] = 1.0;
        let mut next = vec![0.0f64; SOLO_STATES];
        for t in 1..=HORIZON {
            for s in 0..SOLO_STATES {
                next[s] = if s == done {
                    1.0
                } else {
                    let moved: f64 = policy[s * ROLLS..(s + 1) * ROLLS]
                        .iter()
                        .map(|&n| prev[n as usize])
                        .sum();
                    (prev[s] + moved) / DIE_FACES as f64
                };
                cdf[s * (HORIZON + 1) + t] = next[s] as f32;
            }
            std::mem::swap(&mut prev, &mut next);
        }
        cdf
    }

    /// Least expected number of turns for a player alone to retire these markers.
    pub fn expected_turns(&self, markers: [u8; MARKERS]) -> f64 {
        self.expected[solo_rank(markers) as usize] as f64
    }

    /// P(finished within `t` turns), alone, playing to minimise expected turns.
    pub fn finished_within(&self, markers: [u8; MARKERS], t: usize) -> f64 {
        self.cdf[solo_rank(markers) as usize * (HORIZON + 1) + t.min(HORIZON)] as f64
    }

    /// The probability that the player with `mover` markers, who rolls next,
    /// retires all markers before the player with `other` markers, if neither can
    /// bump the other and both play the expected-turns policy.
    pub fn race(&self, mover: [u8; MARKERS], other: [u8; MARKERS]) -> f64 {
        let a = &self.cdf[solo_rank(mover) as usize * (HORIZON + 1)..][..HORIZON + 1];
        let b = &self.cdf[solo_rank(other) as usize * (HORIZON + 1)..][..HORIZON + 1];
        if a[0] >= 1.0 {
            return 1.0;
        }
        if b[0] >= 1.0 {
            return 0.0;
        }
        // The mover wins if it finishes on its t-th turn while the other has not
        // finished within t-1 turns. Eight partial sums let the loop vectorise.
        let mut lanes = [0.0f32; 8];
        let chunks = a[1..]
            .chunks_exact(8)
            .zip(a[..HORIZON].chunks_exact(8))
            .zip(b[..HORIZON].chunks_exact(8));
        for ((now, before), other) in chunks {
            for k in 0..8 {
                lanes[k] += (now[k] - before[k]) * (1.0 - other[k]);
            }
        }
        let p: f32 = lanes.iter().sum();
        // Beyond the horizon both survive with the same ratio q per turn; summing
        // the geometric series gives P(a survives H) P(b survives H) / (1 + q).
        let tail = (1.0 - a[HORIZON]) as f64 * (1.0 - b[HORIZON]) as f64 / (1.0 + self.tail_ratio);
        p as f64 + tail
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection() {
        let position = &POSITION;
        let mut seen = vec![false; SOLO_STATES];
        for a in 0..POSITIONS {
            for b in a..POSITIONS {
                for c in b..POSITIONS {
                    for d in c..POSITIONS {
                        let r = solo_rank([position[d], position[a], position[c], position[b]])
                            as usize;
                        assert!(!seen[r]);
                        seen[r] = true;
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(binomial(39, 4), SOLO_STATES);
    }

    #[test]
    fn one_marker_left_on_a_penultimate_square() {
        let t = tables();
        // Alone with one marker on 60: a 2 retires it (E turns 6); anything else
        // but a 1 blows it out to 1, so the value exceeds 6.
        let e60 = t.expected_turns([60, 120, 120, 120]);
        let e1 = t.expected_turns([1, 120, 120, 120]);
        // E(60) = 1 + (1/6)E(60) + (4/6)E(1) + (1/6)*0.
        assert!((e60 - (6.0 + 4.0 * e1) / 5.0).abs() < 1e-3, "{e60} {e1}");
        assert!(t.expected_turns([TARGET; 4]) == 0.0);
        assert!(t.finished_within([20, 120, 120, 120], 1) > 0.16);
    }

    #[test]
    fn race_is_a_probability_and_favours_the_leader() {
        let t = tables();
        let start = [1u8; 4];
        let p = t.race(start, start);
        assert!(p > 0.5 && p < 0.6, "moving first is a small edge: {p}");
        let ahead = t.race([120, 120, 120, 20], start);
        let behind = t.race(start, [120, 120, 120, 20]);
        assert!(ahead > 0.7 && behind < 0.3, "{ahead} {behind}");
        // Rolling first is an advantage whoever has it.
        let x = [2, 120, 5, 24];
        let y = [1, 40, 1, 15];
        assert!(t.race(x, y) + t.race(y, x) > 1.0);
        assert!(t.tail_ratio > 0.9 && t.tail_ratio < 1.0, "{}", t.tail_ratio);
    }

    #[test]
    fn a_lone_marker_matches_a_direct_solution() {
        // One marker left has no choice: E(p) = (6 + sum over rolls 2..6 of
        // E(dest)) / 5, solved here by plain iteration over the 36 positions.
        let mut e = [0.0f64; 121];
        for _ in 0..20_000 {
            for p in 1..120u8 {
                if is_reachable(p as u32) {
                    let sum: f64 = (2..=6).map(|r| e[destination(p, r) as usize]).sum();
                    e[p as usize] = (6.0 + sum) / 5.0;
                }
            }
        }
        let t = tables();
        for p in 1..120u8 {
            if is_reachable(p as u32) {
                let table = t.expected_turns([120, p, 120, 120]);
                assert!(
                    (table - e[p as usize]).abs() < 1e-3 * e[p as usize],
                    "{p}: {table} vs {}",
                    e[p as usize]
                );
            }
        }
        // Every roll of 2..6 must move a lone marker, so it keeps overshooting.
        assert!(e[1] > 40.0, "{}", e[1]);
        // With spare markers to absorb bad rolls, four markers take well under four
        // times as long as one.
        assert!(t.expected_turns([1; 4]) < 2.0 * e[1]);
    }
}
