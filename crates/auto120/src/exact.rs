//! The exact solution of Multiplication Ludo by value iteration.
//!
//! A position where the die is about to be rolled is written from the roller's
//! side: the roller's markers and the other player's markers, each a *multiset*
//! (markers of one player on the same square are interchangeable) of the squares
//! of the markers still in play, plus how many have retired. `V(mine, theirs)` is
//! the probability that the roller wins under optimal play by both:
//!
//! ```text
//! V(m, t) = 1/6 (1 - V(t, m))                                   a 1 forfeits the turn
//!         + 1/6 sum over rolls 2..6 of max over distinct moves of
//!               1                     if the move retires the roller's last marker
//!               1 - V(t', m')         otherwise (t' = t with any markers on the landing square sent to 1)
//! ```
//!
//! Retiring is irreversible, so the positions fall into *layers* by the retired
//! counts (a, b) of roller and other. A move from layer (a, b) leads to (b, a) or,
//! when it retires a marker, to (b, a + 1). The layers are solved from the most
//! retired markers down; within a group {(a, b), (b, a)} values are iterated in
//! place (Gauss-Seidel, both cores through rayon) until no value moves by more than
//! the tolerance. Each layer is a dense array indexed by the combinatorial ranks of
//! the two multisets, `rank(mine) * S(theirs) + rank(theirs)`; the roller's row of
//! the layer it moves to is contiguous, so the reads of one sweep stay in cache.
//! Values are iterated in f64 (8 bytes: rounding errors of a 4-byte fixed point
//! would add up over the ~100 turns of a game beyond 1e-9) and, once no layer
//! still being solved reads them, kept as 4-byte fixed point (resolution 2.3e-10).
//!
//! Pairs where both players have markers on one square above 1 cannot occur (the
//! later arrival bumps the other); they are skipped and not counted.

use crate::board::{destination, MARKERS, TARGET};
use crate::solo::{binomial, rank_terms, POSITIONS};
use crate::state::State;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;
use tabula_core::{
    format_bytes, waiting_budget, Budget, DiskCache, FactValue, Ledger, Section, SolveFigures,
    SolveReport, Table, TableCell, TableError,
};

/// Squares a marker in play can stand on: the reachable positions except 120.
pub const FREE: usize = POSITIONS - 1;
const ROLLS: usize = 5;
/// `Succ::land` when the move bumps nobody (blow out to 1, or retiring).
const NO_LAND: u8 = 0;
/// Memory the solver may use unless told otherwise (the shared default, 1 GiB).
pub const DEFAULT_MAX_MEMORY: u64 = tabula_core::DEFAULT_MAX_MEMORY;
/// Default convergence tolerance: the largest change of any value in the last sweep.
pub const DEFAULT_TOLERANCE: f64 = 1e-12;

/// Square index (0..FREE) -> position, and position -> index (255 if a marker in
/// play cannot stand there).
static SQUARE: [u8; FREE] = squares().0;
static INDEX: [u8; TARGET as usize + 1] = squares().1;

const fn squares() -> ([u8; FREE], [u8; TARGET as usize + 1]) {
    let mut sq = [0u8; FREE];
    let mut ix = [u8::MAX; TARGET as usize + 1];
    let mut i = 0;
    let mut p = 1;
    while p < TARGET as usize {
        if crate::board::REACHABLE_TABLE[p] {
            sq[i] = p as u8;
            ix[p] = i as u8;
            i += 1;
        }
        p += 1;
    }
    assert!(i == FREE);
    (sq, ix)
}

/// Number of multisets of `k` markers on the free squares: C(FREE + k - 1, k).
pub const fn multisets(k: usize) -> usize {
    binomial(FREE + k - 1, k)
}

/// `TERM[j][i]` = C(i + j, j + 1): rank term of the j-th smallest square index.
static TERM: [[u32; FREE]; MARKERS] = rank_terms::<FREE>();

/// Rank of a multiset of square indices (sorted in place first).
#[inline]
fn rank(ix: &mut [u8]) -> u32 {
    ix.sort_unstable();
    ix.iter()
        .enumerate()
        .map(|(j, &i)| TERM[j][i as usize])
        .sum()
}

#[derive(Clone, Copy, Debug, Default)]
struct Succ {
    /// Rank of the mover's multiset after the move (one marker fewer if it retires).
    next: u32,
    /// Square index landed on above 1 (bumps any opposing markers there), or NO_LAND.
    land: u8,
    retire: bool,
}

/// All multisets of `k` markers in play, with their moves and bumps.
struct Sets {
    k: usize,
    len: usize,
    squares: Vec<[u8; MARKERS]>,
    /// Bit i set when a marker stands on square index i >= 1 (square 1 never bumps).
    mask: Vec<u64>,
    /// `[rank][roll - 2][0..k]`: one entry per distinct square moved from.
    succ: Vec<Succ>,
    nsucc: Vec<u8>,
    /// `[rank][square]`: the rank after the markers on that square go back to 1.
    bump: Vec<u32>,
}

impl Sets {
    fn build(k: usize) -> Sets {
        let len = multisets(k);
        let mut squares = vec![[0u8; MARKERS]; len];
        let mut cur = [0u8; MARKERS];
        fn fill(pos: usize, k: usize, lo: u8, cur: &mut [u8; MARKERS], out: &mut [[u8; MARKERS]]) {
            if pos == k {
                let mut c = *cur;
                out[rank(&mut c[..k]) as usize] = *cur;
                return;
            }
            for i in lo..FREE as u8 {
                cur[pos] = i;
                fill(pos + 1, k, i, cur, out);
            }
        }
        fill(0, k, 0, &mut cur, &mut squares);
        let mask: Vec<u64> = squares
            .iter()
            .map(|s| s[..k].iter().fold(0u64, |m, &i| m | ((i > 0) as u64) << i))
            .collect();
        let mut succ = vec![Succ::default(); len * ROLLS * k];
        let mut nsucc = vec![0u8; len * ROLLS];
        let mut bump = vec![0u32; len * FREE];
        for (r, s) in squares.iter().enumerate() {
            let s = &s[..k];
            for roll in 2..=6u8 {
                let slot = r * ROLLS + (roll - 2) as usize;
                let mut c = 0;
                for j in 0..k {
                    if j > 0 && s[j] == s[j - 1] {
                        continue;
                    }
                    let to = destination(SQUARE[s[j] as usize], roll);
                    let mut next = [0u8; MARKERS];
                    next[..k].copy_from_slice(s);
                    let e = if to == TARGET {
                        next[j] = next[k - 1];
                        Succ {
                            next: if k > 1 { rank(&mut next[..k - 1]) } else { 0 },
                            land: NO_LAND,
                            retire: true,
                        }
                    } else {
                        next[j] = INDEX[to as usize];
                        Succ {
                            next: rank(&mut next[..k]),
                            land: if to == 1 { NO_LAND } else { INDEX[to as usize] },
                            retire: false,
                        }
                    };
                    succ[slot * k + c] = e;
                    c += 1;
                }
                nsucc[slot] = c as u8;
            }
            for q in 1..FREE as u8 {
                let mut b = [0u8; MARKERS];
                b[..k].copy_from_slice(s);
                for x in b[..k].iter_mut() {
                    if *x == q {
                        *x = 0;
                    }
                }
                bump[r * FREE + q as usize] = rank(&mut b[..k]);
            }
        }
        Sets {
            k,
            len,
            squares,
            mask,
            succ,
            nsucc,
            bump,
        }
    }

    fn bytes(k: usize) -> u64 {
        let len = multisets(k) as u64;
        len * (MARKERS as u64 + 8 + (ROLLS * k) as u64 * 8 + ROLLS as u64 + FREE as u64 * 4)
    }

    /// Rank of a player's markers in play (those not on 120).
    fn rank_of(markers: &[u8]) -> u32 {
        let mut ix = [0u8; MARKERS];
        let mut k = 0;
        for &p in markers {
            if p != TARGET {
                ix[k] = INDEX[p as usize];
                k += 1;
            }
        }
        rank(&mut ix[..k])
    }
}

/// Memory and size of the exact solution of one variant, known before solving.
#[derive(Clone, Debug, Serialize)]
pub struct Estimate {
    /// Markers per player.
    pub markers: usize,
    /// Dense pairs of multisets over all layers (the array slots).
    pub slots: u64,
    /// Bytes while solving: every layer in f64 (an upper bound of the peak).
    pub solving_bytes: u64,
    /// Bytes of the finished table (4-byte values) with the move tables.
    pub table_bytes: u64,
}

/// What the solver needs for `markers` per player.
pub fn estimate(markers: usize) -> Estimate {
    let n = markers.clamp(1, MARKERS);
    let mut slots = 0u64;
    for a in 0..n {
        for b in 0..n {
            slots += multisets(n - a) as u64 * multisets(n - b) as u64;
        }
    }
    let sets: u64 = (1..=n).map(Sets::bytes).sum();
    Estimate {
        markers: n,
        slots,
        solving_bytes: slots * 8 + sets,
        table_bytes: slots * 4 + sets,
    }
}

/// The positions (pairs of multisets with no shared square above 1, over all
/// layers) of the variant with `markers` per player, counted without solving.
pub fn count_positions(markers: usize) -> u64 {
    let n = markers.clamp(1, MARKERS);
    let masks: Vec<Vec<u64>> = (1..=n).map(|k| Sets::build(k).mask).collect();
    let mut total = 0u64;
    for a in 0..n {
        for b in 0..n {
            let (x, y) = (&masks[n - a - 1], &masks[n - b - 1]);
            total += x
                .par_iter()
                .map(|&p| y.iter().filter(|&&q| p & q == 0).count() as u64)
                .sum::<u64>();
        }
    }
    total
}

/// Sweeps spent on one layer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LayerSweeps {
    /// Retired markers of the roller and of the other player.
    pub retired: [usize; 2],
    /// Valid positions in the layer.
    pub positions: u64,
    /// In-place sweeps until the largest change fell below the tolerance.
    pub sweeps: u32,
}

/// The summary of a solve.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SolveStats {
    /// Markers per player.
    pub markers: usize,
    /// Positions with the die to be rolled (roller's and other's multisets, no shared square above 1).
    pub positions: u64,
    /// P(the first player to roll wins) under optimal play by both.
    pub first_mover_wins: f64,
    /// Sweeps of the start layer (no marker retired: the bulk of the work).
    pub sweeps: u32,
    /// Sweeps of every layer, in the order solved.
    pub layers: Vec<LayerSweeps>,
    /// Convergence tolerance (largest change of any value in a layer's last sweep).
    pub tolerance: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// CPU seconds of this process during the solve, all threads (Linux), which
    /// tells the solver's cost apart from other load on a shared machine.
    pub cpu_seconds: Option<f64>,
    /// Bytes of the value and move tables at their largest.
    pub peak_table_bytes: u64,
    /// Bytes kept after solving (4-byte values and the move tables).
    pub table_bytes: u64,
    /// Threads used.
    pub threads: usize,
}

/// A solved variant: the values of every position, for the optimal player and analysis.
pub struct Solution {
    n: usize,
    sets: Vec<Sets>,
    /// Layer (a, b) at `a * n + b`: 4-byte fixed point, index rank(mine) * S(theirs) + rank(theirs).
    layers: Vec<Vec<u32>>,
    stats: SolveStats,
}

#[inline]
fn load(x: &AtomicU64) -> f64 {
    f64::from_bits(x.load(Ordering::Relaxed))
}

#[inline]
fn to_fixed(v: f64) -> u32 {
    (v.clamp(0.0, 1.0) * u32::MAX as f64).round() as u32
}

#[inline]
fn from_fixed(x: u32) -> f64 {
    x as f64 / u32::MAX as f64
}

struct Solver<'a> {
    n: usize,
    sets: &'a [Sets],
    values: Vec<Vec<AtomicU64>>,
}

impl Solver<'_> {
    fn set(&self, k: usize) -> &Sets {
        &self.sets[k - 1]
    }

    /// One in-place sweep over layer (a, b); returns the largest change.
    fn sweep(&self, a: usize, b: usize) -> f64 {
        let n = self.n;
        let (ka, kb) = (n - a, n - b);
        let sa = self.set(ka);
        let sb = self.set(kb);
        let (la, lb) = (sa.len, sb.len);
        let out = &self.values[a * n + b];
        let same = &self.values[b * n + a];
        let ret = (ka > 1).then(|| (&self.values[b * n + a + 1], self.set(ka - 1).len));
        (0..lb)
            .into_par_iter()
            .with_min_len(8)
            .map(|t| {
                let tmask = sb.mask[t];
                let row = &same[t * la..(t + 1) * la];
                let mut change = 0.0f64;
                for m in 0..la {
                    if sa.mask[m] & tmask != 0 {
                        continue;
                    }
                    let mut sum = 1.0 - load(&row[m]);
                    for r in 0..ROLLS {
                        let slot = m * ROLLS + r;
                        let cnt = sa.nsucc[slot] as usize;
                        let mut best = 0.0f64;
                        for s in &sa.succ[slot * ka..slot * ka + cnt] {
                            let v = if s.retire {
                                match ret {
                                    None => 1.0,
                                    Some((l, len)) => 1.0 - load(&l[t * len + s.next as usize]),
                                }
                            } else if s.land != NO_LAND && tmask >> s.land & 1 != 0 {
                                let tt = sb.bump[t * FREE + s.land as usize] as usize;
                                1.0 - load(&same[tt * la + s.next as usize])
                            } else {
                                1.0 - load(&row[s.next as usize])
                            };
                            best = best.max(v);
                        }
                        sum += best;
                    }
                    let v = sum / 6.0;
                    let cell = &out[m * lb + t];
                    change = change.max((v - load(cell)).abs());
                    cell.store(v.to_bits(), Ordering::Relaxed);
                }
                change
            })
            .reduce(|| 0.0, f64::max)
    }

    fn valid_positions(&self, a: usize, b: usize) -> u64 {
        let sa = self.set(self.n - a);
        let sb = self.set(self.n - b);
        sa.mask
            .par_iter()
            .map(|&ma| sb.mask.iter().filter(|&&mb| ma & mb == 0).count() as u64)
            .sum()
    }
}

/// Why a solve did not run.
#[derive(Clone, Debug, PartialEq)]
pub enum SolveError {
    /// The tables would not fit the memory budget.
    Memory {
        /// Bytes needed.
        needed: u64,
        /// Bytes allowed.
        budget: u64,
    },
    /// Stopped (cancelled or out of time) before converging.
    Stopped,
    /// The shared build of the table failed (an internal error, not retried).
    Failed(String),
}

/// Solves the variant with `markers` per player (1..=4) to `tolerance`, refusing
/// if the tables need more than `max_memory` bytes. `should_stop` is polled
/// between sweeps; `progress` gets the fraction of layers done.
pub fn solve(
    markers: usize,
    tolerance: f64,
    max_memory: u64,
    should_stop: &dyn Fn() -> bool,
    progress: &dyn Fn(f64),
) -> Result<Solution, SolveError> {
    solve_with(
        markers,
        tolerance,
        max_memory,
        Order::Layered,
        should_stop,
        progress,
    )
}

/// The order of the value iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Layers by retired counts, most retired first, each group iterated to the
    /// tolerance from 0.5 before the next (the solver's way).
    Layered,
    /// A check: every layer swept once per round, the start layer first (the
    /// reverse order), all values starting from 0, until a whole round changes no
    /// value by more than the tolerance. `sweeps` counts rounds.
    Global,
}

/// [`solve`] in a chosen iteration order.
pub fn solve_with(
    markers: usize,
    tolerance: f64,
    max_memory: u64,
    order: Order,
    should_stop: &dyn Fn() -> bool,
    progress: &dyn Fn(f64),
) -> Result<Solution, SolveError> {
    let n = markers.clamp(1, MARKERS);
    let est = estimate(n);
    if est.solving_bytes > max_memory {
        return Err(SolveError::Memory {
            needed: est.solving_bytes,
            budget: max_memory,
        });
    }
    let started = Instant::now();
    let cpu_start = cpu_seconds();
    let sets: Vec<Sets> = (1..=n).into_par_iter().map(Sets::build).collect();
    let sets_bytes: u64 = (1..=n).map(Sets::bytes).sum();
    let mut solver = Solver {
        n,
        sets: &sets,
        values: Vec::with_capacity(n * n),
    };
    for a in 0..n {
        for b in 0..n {
            let len = multisets(n - a) * multisets(n - b);
            let mut v = Vec::with_capacity(len);
            let init = if order == Order::Global { 0.0f64 } else { 0.5 };
            v.resize_with(len, || AtomicU64::new(init.to_bits()));
            solver.values.push(v);
        }
    }
    let mut layers_done = Vec::new();
    let mut fixed: Vec<Option<Vec<u32>>> = (0..n * n).map(|_| None).collect();
    let mut live_bytes = est.slots * 8 + sets_bytes;
    let mut peak = live_bytes;
    let total_groups: usize = (0..n).map(|a| n - a).sum();
    let mut groups_done = 0;
    let mut start_sweeps = 0;
    let mut positions = 0u64;
    if order == Order::Global {
        let mut rounds = 0u32;
        loop {
            if should_stop() {
                return Err(SolveError::Stopped);
            }
            let mut change = 0.0f64;
            for total in 0..=2 * (n - 1) {
                for a in 0..n {
                    if let Some(b) = total.checked_sub(a).filter(|&b| b < n) {
                        change = change.max(solver.sweep(a, b));
                    }
                }
            }
            rounds += 1;
            if change < tolerance {
                break;
            }
        }
        for total in 0..=2 * (n - 1) {
            for a in 0..n {
                if let Some(b) = total.checked_sub(a).filter(|&b| b < n) {
                    let p = solver.valid_positions(a, b);
                    positions += p;
                    layers_done.push(LayerSweeps {
                        retired: [a, b],
                        positions: p,
                        sweeps: rounds,
                    });
                }
            }
        }
        start_sweeps = rounds;
        progress(1.0);
    }
    let layered_totals = if order == Order::Layered {
        (0..=2 * (n - 1)).rev().collect()
    } else {
        Vec::new()
    };
    for total in layered_totals {
        for a in 0..n {
            let b = match total.checked_sub(a) {
                Some(b) if b < n && a <= b => b,
                _ => continue,
            };
            let mut sweeps = [0u32; 2];
            loop {
                if should_stop() {
                    return Err(SolveError::Stopped);
                }
                let mut change = solver.sweep(a, b);
                sweeps[0] += 1;
                if a != b {
                    change = change.max(solver.sweep(b, a));
                    sweeps[1] += 1;
                }
                if change < tolerance {
                    break;
                }
            }
            let pairs = if a == b {
                vec![(a, b)]
            } else {
                vec![(a, b), (b, a)]
            };
            for (i, &(x, y)) in pairs.iter().enumerate() {
                let p = solver.valid_positions(x, y);
                positions += p;
                layers_done.push(LayerSweeps {
                    retired: [x, y],
                    positions: p,
                    sweeps: sweeps[i],
                });
            }
            if a == 0 && b == 0 {
                start_sweeps = sweeps[0];
            }
            groups_done += 1;
            progress(groups_done as f64 / total_groups as f64);
        }
        // Layers with total + 1 retired are read by nothing still to solve: keep
        // them as 4-byte fixed point.
        for a in 0..n {
            let Some(b) = (total + 1).checked_sub(a).filter(|&b| b < n) else {
                continue;
            };
            let i = a * n + b;
            let v = std::mem::take(&mut solver.values[i]);
            let len = v.len() as u64;
            fixed[i] = Some(v.iter().map(|x| to_fixed(load(x))).collect());
            live_bytes = live_bytes - len * 8 + len * 4;
        }
        peak = peak.max(live_bytes);
    }
    let first_mover_wins = load(&solver.values[0][0]);
    for (i, v) in std::mem::take(&mut solver.values).into_iter().enumerate() {
        if fixed[i].is_none() {
            fixed[i] = Some(v.iter().map(|x| to_fixed(load(x))).collect());
        }
    }
    let layers: Vec<Vec<u32>> = fixed.into_iter().map(Option::unwrap_or_default).collect();
    let stats = SolveStats {
        markers: n,
        positions,
        first_mover_wins,
        sweeps: start_sweeps,
        layers: layers_done,
        tolerance,
        seconds: started.elapsed().as_secs_f64(),
        cpu_seconds: cpu_start.zip(cpu_seconds()).map(|(a, b)| b - a),
        peak_table_bytes: peak,
        table_bytes: est.table_bytes,
        threads: rayon::current_num_threads(),
    };
    Ok(Solution {
        n,
        sets,
        layers,
        stats,
    })
}

impl Solution {
    /// Markers per player.
    pub fn markers(&self) -> usize {
        self.n
    }

    /// The summary of the solve.
    pub fn stats(&self) -> &SolveStats {
        &self.stats
    }

    /// P(the roller wins) with `mine` to roll against `theirs` (marker positions,
    /// 120 = retired; only the first `n` of each are read).
    fn roll_value(&self, mine: &[u8], theirs: &[u8]) -> f64 {
        let n = self.n;
        let a = mine.iter().filter(|&&p| p == TARGET).count();
        let b = theirs.iter().filter(|&&p| p == TARGET).count();
        if a == n {
            return 1.0;
        }
        if b == n {
            return 0.0;
        }
        let lb = self.sets[n - b - 1].len;
        let m = Sets::rank_of(mine) as usize;
        let t = Sets::rank_of(theirs) as usize;
        from_fixed(self.layers[a * n + b][m * lb + t])
    }

    /// P(the roller wins) with `mine` to roll against `theirs` (marker positions
    /// of a game with any number of markers, 120 = retired) when each has at most
    /// this solution's number of markers in play: retired markers never move
    /// again, so such a position plays exactly like one of this smaller game.
    pub fn endgame_value(&self, mine: &[u8], theirs: &[u8]) -> Option<f64> {
        let in_play = |x: &[u8]| x.iter().filter(|&&p| p != TARGET).count();
        (in_play(mine) <= self.n && in_play(theirs) <= self.n).then(|| {
            let pad = |x: &[u8]| {
                let mut v = [TARGET; MARKERS];
                for (slot, &p) in v.iter_mut().zip(x.iter().filter(|&&p| p != TARGET)) {
                    *slot = p;
                }
                v
            };
            self.roll_value(&pad(mine)[..self.n], &pad(theirs)[..self.n])
        })
    }

    /// The probability that the side to act wins under optimal play, or `None`
    /// before the draw for the first player, when the game is over, or if the
    /// position has another number of markers than this solution.
    pub fn value(&self, state: &State) -> Option<f64> {
        if state.markers_per_side() != self.n || state.winner().is_some() {
            return None;
        }
        let s = state.side()?;
        let n = self.n;
        if state.roll == 0 {
            return Some(self.roll_value(&state.markers[s][..n], &state.markers[1 - s][..n]));
        }
        self.move_values(state).first().map(|&(_, p)| p)
    }

    /// At a decision node: the probability that the mover wins after each
    /// marker move (every marker in play), best first; ties keep the lower
    /// marker number first.
    pub fn move_values(&self, state: &State) -> Vec<(u8, f64)> {
        let n = self.n;
        if state.markers_per_side() != n || state.roll == 0 || state.winner().is_some() {
            return Vec::new();
        }
        let Some(s) = state.side() else {
            return Vec::new();
        };
        let mine = state.markers[s];
        let mut out = Vec::new();
        for m in 0..n {
            if mine[m] == TARGET {
                continue;
            }
            if let Some(&(_, p)) = out.iter().find(|&&(j, _)| mine[j as usize] == mine[m]) {
                out.push((m as u8, p));
                continue;
            }
            let mut next = *state;
            next.apply(crate::state::Move::Marker(m as u8));
            let p = if next.winner() == Some(s) {
                1.0
            } else {
                1.0 - self.roll_value(&next.markers[1 - s][..n], &next.markers[s][..n])
            };
            out.push((m as u8, p));
        }
        out.sort_by(|x, y| y.1.total_cmp(&x.1));
        out
    }

    /// The largest difference between this solution's values and `other`'s
    /// (the same variant solved another way), over every position.
    pub fn max_difference(&self, other: &Solution) -> f64 {
        assert_eq!(self.n, other.n, "solutions of the same variant");
        let n = self.n;
        let mut worst = 0.0f64;
        for a in 0..n {
            for b in 0..n {
                let (sa, sb) = (&self.sets[n - a - 1], &self.sets[n - b - 1]);
                let (x, y) = (&self.layers[a * n + b], &other.layers[a * n + b]);
                let w = (0..sa.len)
                    .into_par_iter()
                    .map(|m| {
                        (0..sb.len)
                            .filter(|&t| sa.mask[m] & sb.mask[t] == 0)
                            .map(|t| {
                                let i = m * sb.len + t;
                                (from_fixed(x[i]) - from_fixed(y[i])).abs()
                            })
                            .fold(0.0f64, f64::max)
                    })
                    .reduce(|| 0.0, f64::max);
                worst = worst.max(w);
            }
        }
        worst
    }

    /// Calls `f` with every position of the solution (the first seat to roll)
    /// and its stored value, in parallel.
    pub fn for_each_position(&self, f: &(dyn Fn(&State, f64) + Sync)) {
        let n = self.n;
        for a in 0..n {
            for b in 0..n {
                let (sa, sb) = (&self.sets[n - a - 1], &self.sets[n - b - 1]);
                let layer = &self.layers[a * n + b];
                (0..sa.len).into_par_iter().for_each(|m| {
                    let mut state = State::start_with(n);
                    state.side = 0;
                    let place = |set: &Sets, r: usize, out: &mut [u8; MARKERS]| {
                        for (j, slot) in out[..n].iter_mut().enumerate() {
                            *slot = if j < set.k {
                                SQUARE[set.squares[r][j] as usize]
                            } else {
                                TARGET
                            };
                        }
                    };
                    place(sa, m, &mut state.markers[0]);
                    for t in 0..sb.len {
                        if sa.mask[m] & sb.mask[t] != 0 {
                            continue;
                        }
                        place(sb, t, &mut state.markers[1]);
                        f(&state, from_fixed(layer[m * sb.len + t]));
                    }
                });
            }
        }
    }

    /// The squares of the multiset with this rank (for tests and tools).
    pub fn multiset(&self, k: usize, rank: usize) -> Vec<u8> {
        self.sets[k - 1].squares[rank][..self.sets[k - 1].k]
            .iter()
            .map(|&i| SQUARE[i as usize])
            .collect()
    }
}

/// The tables this process has built or is building, one per marker count: each is
/// built once, on a thread and rayon pool of its own ([`TableCell`]), so a computer
/// player running on rayon's global pool (a simulation) can wait for it without
/// taking the workers the build needs.
fn cells() -> &'static [TableCell<Solution>; MARKERS] {
    static CELLS: OnceLock<[TableCell<Solution>; MARKERS]> = OnceLock::new();
    CELLS.get_or_init(|| {
        std::array::from_fn(|i| {
            TableCell::new(format!(
                "the exact table of Multiplication Ludo with {} markers",
                i + 1
            ))
        })
    })
}

/// The solution for `markers` if this process has already solved it.
pub fn cached(markers: usize) -> Option<Arc<Solution>> {
    cells()[markers.clamp(1, MARKERS) - 1].get()
}

/// The solution for `markers`, solved on first use (to [`DEFAULT_TOLERANCE`])
/// within `max_memory` bytes, then kept for the rest of the process. Waits for the
/// build while the thread's budget ([`Budget::current`]) allows, without one
/// however long it takes.
pub fn solution(markers: usize, max_memory: u64) -> Result<Arc<Solution>, SolveError> {
    shared(markers, max_memory, &waiting_budget(), &|_| {})
}

/// [`solution`] for a computer player that must move in time: waits for the table
/// until half the time left by the thread's budget ([`Budget::current`]) has passed
/// or the budget is cancelled, and without a budget until it is built. `None` while
/// the table is still being built (the build goes on in the background, so a later
/// move finds it) or when it cannot fit the default memory budget.
pub fn solution_in_time(markers: usize) -> Option<Arc<Solution>> {
    if let Some(s) = cached(markers) {
        return Some(s);
    }
    let mut until = waiting_budget();
    if let Some(left) = until.remaining() {
        until = until.with_deadline(Instant::now() + left / 2);
    }
    shared(markers, DEFAULT_MAX_MEMORY, &until, &|_| {}).ok()
}

/// The process's table for `markers`: built once (refused up front beyond
/// `max_memory`), waited for until `until` says stop.
fn shared(
    markers: usize,
    max_memory: u64,
    until: &Budget,
    progress: &dyn Fn(f64),
) -> Result<Arc<Solution>, SolveError> {
    let n = markers.clamp(1, MARKERS);
    let cell = &cells()[n - 1];
    if let Some(s) = cell.get() {
        return Ok(s);
    }
    let needed = estimate(n).solving_bytes;
    // The solve's peak is held in the process's ledger from before it starts
    // (refused when other tables leave too little room) and shrinks to the
    // table's bytes once solved; a caller that finds the solve under way waits
    // for it and holds nothing.
    let mut held = None;
    if !cell.is_building() {
        if needed > max_memory {
            return Err(SolveError::Memory {
                needed,
                budget: max_memory,
            });
        }
        let what = format!("the exact table of Multiplication Ludo with {n} markers");
        held = Some(
            Ledger::global()
                .reserve(&what, needed)
                .map_err(|e| SolveError::Failed(e.to_string()))?,
        );
    }
    cell.get_or_build(
        move |report| {
            let mut held = held.ok_or("the table's memory was not reserved")?;
            let disk = DiskCache::open_default();
            let (solution, _) =
                load_or_solve(disk.as_ref(), n, report).map_err(|e| error_text(n, &e))?;
            held.settle(solution.stats().table_bytes);
            held.keep_for_process();
            Ok(solution)
        },
        until,
        progress,
    )
    .map_err(|e| match e {
        TableError::Stopped(_) => SolveError::Stopped,
        failed @ TableError::Failed { .. } => SolveError::Failed(failed.to_string()),
    })
}

/// The version of the exact tables' files in the disk cache: bumped whenever
/// the payload's layout, the ranks or the solver's results change.
const CACHE_FORMAT: u32 = 1;
/// The most bytes the solve's summary may take in a cache file.
const MAX_CACHED_STATS: u64 = 1 << 20;

/// The table's name in the disk cache.
fn cache_name(n: usize) -> String {
    format!("auto120-exact-{n}")
}

/// The bits that stand for "no CPU seconds" in a cache file (a NaN).
const NO_CPU_SECONDS: u64 = 0x7ff8_dead_0000_0001;

/// A summary's floating-point figures, by their bits, in the order of the file.
fn float_figures(s: &SolveStats) -> [u64; 4] {
    [
        s.first_mover_wins.to_bits(),
        s.tolerance.to_bits(),
        s.seconds.to_bits(),
        s.cpu_seconds.map_or(NO_CPU_SECONDS, f64::to_bits),
    ]
}

/// The largest payload a file for `n` markers can have.
fn max_payload(n: usize) -> u64 {
    let values: u64 = (0..n * n)
        .map(|i| 8 + 4 * (multisets(n - i / n) * multisets(n - i % n)) as u64)
        .sum();
    8 + 4 + 4 + MAX_CACHED_STATS + 4 * 8 + values
}

/// The payload of a cache file, little-endian: the tolerance's bits (u64), the
/// markers (u32), the summary's length (u32) and the summary as JSON, its
/// floating-point figures again by their bits (JSON need not read them back
/// exactly: the first mover's chance, the tolerance, the seconds, and the CPU
/// seconds or [`NO_CPU_SECONDS`] for none), then each layer in order: its
/// length (u64) and its 4-byte values.
fn to_payload(s: &Solution) -> Result<Vec<u8>, serde_json::Error> {
    let stats = serde_json::to_vec(&s.stats)?;
    let values: usize = s.layers.iter().map(|l| 8 + 4 * l.len()).sum();
    let mut p = Vec::with_capacity(16 + stats.len() + values);
    p.extend_from_slice(&s.stats.tolerance.to_bits().to_le_bytes());
    p.extend_from_slice(&(s.n as u32).to_le_bytes());
    p.extend_from_slice(&(stats.len() as u32).to_le_bytes());
    p.extend_from_slice(&stats);
    for f in float_figures(&s.stats) {
        p.extend_from_slice(&f.to_le_bytes());
    }
    for layer in &s.layers {
        p.extend_from_slice(&(layer.len() as u64).to_le_bytes());
        p.extend(layer.iter().flat_map(|v| v.to_le_bytes()));
    }
    Ok(p)
}

/// The solution a cache file's payload holds, when it is exactly a table of `n`
/// markers solved to `tolerance` (every layer of the size its ranks give).
fn from_payload(p: &[u8], n: usize, tolerance: f64) -> Option<Solution> {
    let mut at = 0usize;
    let mut take = |len: usize| -> Option<&[u8]> {
        let bytes = p.get(at..at.checked_add(len)?)?;
        at += len;
        Some(bytes)
    };
    let word = |b: &[u8]| -> u64 { b.iter().rev().fold(0u64, |w, &x| (w << 8) | x as u64) };
    if word(take(8)?) != tolerance.to_bits() || word(take(4)?) != n as u64 {
        return None;
    }
    let stats_len = word(take(4)?) as usize;
    let mut stats: SolveStats = serde_json::from_slice(take(stats_len)?).ok()?;
    if stats.markers != n {
        return None;
    }
    let mut floats = [0u64; 4];
    for f in &mut floats {
        *f = word(take(8)?);
    }
    stats.first_mover_wins = f64::from_bits(floats[0]);
    stats.tolerance = f64::from_bits(floats[1]);
    stats.seconds = f64::from_bits(floats[2]);
    stats.cpu_seconds = (floats[3] != NO_CPU_SECONDS).then(|| f64::from_bits(floats[3]));
    let mut layers = Vec::with_capacity(n * n);
    for a in 0..n {
        for b in 0..n {
            let len = multisets(n - a) * multisets(n - b);
            if word(take(8)?) != len as u64 {
                return None;
            }
            let bytes = take(4 * len)?;
            layers.push(
                bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            );
        }
    }
    if at != p.len() {
        return None;
    }
    let sets = (1..=n).into_par_iter().map(Sets::build).collect();
    Some(Solution {
        n,
        sets,
        layers,
        stats,
    })
}

/// The table for `n` markers (to [`DEFAULT_TOLERANCE`]) read from `disk` when a
/// file there holds it, else solved and written there (a missing, damaged or
/// outdated file is solved again and rewritten; a table the cache cannot take is
/// still returned). Also says whether it came from the disk.
fn load_or_solve(
    disk: Option<&DiskCache>,
    n: usize,
    progress: &dyn Fn(f64),
) -> Result<(Solution, bool), SolveError> {
    let name = cache_name(n);
    // Reading (the file's payload and the layers decoded from it) and writing
    // (the layers and the payload made of them) each take about 8 bytes a slot
    // and the move tables: the solve's own peak, which the caller reserved.
    let read = disk
        .and_then(|d| d.load(&name, CACHE_FORMAT, max_payload(n)).ok())
        .and_then(|p| from_payload(&p, n, DEFAULT_TOLERANCE));
    if let Some(solution) = read {
        progress(1.0);
        return Ok((solution, true));
    }
    let solution = solve(n, DEFAULT_TOLERANCE, u64::MAX, &|| false, progress)?;
    if let (Some(d), Ok(p)) = (disk, to_payload(&solution)) {
        // Not kept on disk (a full or read-only directory): solved again next run.
        let _ = d.store(&name, CACHE_FORMAT, &p);
    }
    Ok((solution, false))
}

/// CPU time of this process so far, all threads (Linux `/proc/self/stat`).
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Peak resident memory of this process (Linux `VmHWM`), in bytes.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Plain words for a refused or stopped solve.
pub fn error_text(markers: usize, e: &SolveError) -> String {
    match e {
        SolveError::Memory { needed, budget } => format!(
            "the exact solution of Multiplication Ludo with {markers} markers each needs about {} of memory while solving ({} to keep), more than the {} allowed; on a machine with that much memory allow it with --max-memory {}G",
            format_bytes(*needed),
            format_bytes(estimate(markers).table_bytes),
            format_bytes(*budget),
            needed.div_ceil(1 << 30) + 1
        ),
        SolveError::Stopped => "the solve was stopped before it converged".into(),
        SolveError::Failed(reason) => reason.clone(),
    }
}

/// The `tabula solve auto120 --json` report: solves the variant (or takes the
/// solution this process already has) and describes it; with a position, also
/// its exact value and, at a decision, every move's.
pub fn report_json(
    markers: usize,
    budget: &Budget,
    position: Option<&State>,
    progress: &dyn Fn(f64),
) -> Result<serde_json::Value, String> {
    let n = markers.clamp(1, MARKERS);
    // The solve is the process's shared build, off the caller's rayon pool; a
    // caller that stops waiting (cancelled, out of time) leaves it to finish for
    // the next one.
    let sol =
        shared(n, budget.max_memory_bytes, budget, progress).map_err(|e| error_text(n, &e))?;
    let st = sol.stats();
    let mut out = serde_json::json!({
        "game": "auto120",
        "markers": n,
        "positions": st.positions,
        "first_mover_wins": st.first_mover_wins,
        "sweeps": st.sweeps,
        "tolerance": st.tolerance,
        "seconds": st.seconds,
        "cpu_seconds": st.cpu_seconds,
        "threads": st.threads,
        "peak_memory_bytes": peak_rss_bytes(),
        "peak_table_bytes": st.peak_table_bytes,
        "table_bytes": st.table_bytes,
        "layers": st.layers,
        "four_markers": estimate(MARKERS),
    });
    if let Some(state) = position {
        out["position_win_probability"] = serde_json::json!(sol.value(state));
        let moves: Vec<serde_json::Value> = sol
            .move_values(state)
            .into_iter()
            .map(|(m, p)| serde_json::json!({"move": crate::notation::format_move(crate::state::Move::Marker(m)), "win_probability": p}))
            .collect();
        if !moves.is_empty() {
            out["moves"] = serde_json::json!(moves);
        }
    }
    Ok(out)
}

/// The typed `tabula solve auto120` report: solves the variant (or takes the
/// solution this process already has) and describes it; with a position, also
/// its exact chances and, at a decision, every move's. The board's classes and
/// landing table come with it, as reference.
pub fn report(
    markers: usize,
    budget: &Budget,
    position: Option<&State>,
    progress: &dyn Fn(f64),
) -> Result<SolveReport, String> {
    let n = markers.clamp(1, MARKERS);
    let sol =
        shared(n, budget.max_memory_bytes, budget, progress).map_err(|e| error_text(n, &e))?;
    let st = sol.stats();
    let p = st.first_mover_wins;
    let summary = format!(
        "With best play on both sides, the first player to roll wins {:.2}% of games \
         ({n} marker{} each).",
        p * 100.0,
        if n == 1 { "" } else { "s" }
    );
    let mut solved = Section::new("The exact solution")
        .with("Markers each", FactValue::Integer(n as i64))
        .with(
            "First player to roll wins",
            FactValue::Text(format!("{:.2}% (probability {p:.9})", p * 100.0)),
        )
        .with("Positions", FactValue::Integer(st.positions as i64))
        .with(
            "Sweeps of the start layer",
            FactValue::Integer(st.sweeps as i64),
        )
        .with(
            "Largest change in the last sweep",
            FactValue::Number(st.tolerance),
        )
        .with("Threads", FactValue::Integer(st.threads as i64));
    if let Some(cpu) = st.cpu_seconds {
        solved.push("Processor time", FactValue::Seconds(cpu));
    }
    solved.push(
        "Tables at their largest",
        FactValue::Bytes(st.peak_table_bytes),
    );
    solved.push("Tables kept", FactValue::Bytes(st.table_bytes));
    let layers = Section::new("Layers by markers retired").with(
        "Layers",
        FactValue::Table(Table {
            columns: ["retired (roller, other)", "positions", "sweeps"]
                .map(String::from)
                .to_vec(),
            rows: st
                .layers
                .iter()
                .map(|l| {
                    vec![
                        format!("{}, {}", l.retired[0], l.retired[1]),
                        l.positions.to_string(),
                        l.sweeps.to_string(),
                    ]
                })
                .collect(),
        }),
    );
    let four = estimate(MARKERS);
    let whole = Section::new("The whole game (four markers each)")
        .note("What solving the full game would take; it is refused beyond the memory limit.")
        .with("Positions to store", FactValue::Integer(four.slots as i64))
        .with("Memory to solve", FactValue::Bytes(four.solving_bytes))
        .with("Memory to keep", FactValue::Bytes(four.table_bytes));
    let mut sections = vec![solved, layers, whole];
    let mut value = None;
    if let Some(state) = position {
        if let (Some(v), Some(s)) = (sol.value(state), state.side()) {
            value = Some(crate::analysis::chances(s, v));
        }
        let rows: Vec<Vec<String>> = sol
            .move_values(state)
            .into_iter()
            .map(|(m, p)| {
                vec![
                    crate::notation::format_move(crate::state::Move::Marker(m)),
                    format!("{:.2}%", p * 100.0),
                ]
            })
            .collect();
        if !rows.is_empty() {
            sections.push(Section::new("Moves from this position").with(
                "Moves",
                FactValue::Table(Table {
                    columns: ["move", "chance to win"].map(String::from).to_vec(),
                    rows,
                }),
            ));
        }
    }
    sections.extend(crate::board_facts::sections());
    Ok(SolveReport {
        summary,
        position: None,
        value,
        solution: None,
        counts: None,
        sections,
        figures: SolveFigures {
            positions: Some(st.positions),
            seconds: st.seconds,
            peak_bytes: peak_rss_bytes(),
            sweeps: Some(st.sweeps),
            first_mover_wins: Some(p),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection() {
        for k in 1..=3 {
            let s = Sets::build(k);
            assert_eq!(s.len, multisets(k));
            let mut seen = vec![false; s.len];
            for sq in &s.squares {
                let mut c = *sq;
                let r = rank(&mut c[..k]) as usize;
                assert!(!seen[r]);
                seen[r] = true;
            }
            assert!(seen.iter().all(|&x| x));
        }
        assert_eq!(multisets(4), 73_815);
        assert_eq!(SQUARE[0], 1);
        assert_eq!(SQUARE[FREE - 1], 108);
    }

    #[test]
    fn tables_are_kept_on_disk_bit_for_bit_and_a_damaged_file_is_solved_again() {
        let dir = std::env::temp_dir().join(format!("tabula-auto120-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let disk = DiskCache::new(&dir, 1 << 30);
        let same = |a: &Solution, b: &Solution| {
            assert_eq!(a.n, b.n);
            assert_eq!(a.layers, b.layers, "every value, bit for bit");
            assert_eq!(float_figures(&a.stats), float_figures(&b.stats));
            assert_eq!(a.stats.positions, b.stats.positions);
            assert_eq!(a.stats.table_bytes, b.stats.table_bytes);
            assert_eq!(a.stats.layers.len(), b.stats.layers.len());
            let start = State::start_with(a.n);
            assert_eq!(
                a.value(&start).map(f64::to_bits),
                b.value(&start).map(f64::to_bits)
            );
        };
        let (built, from_disk) = load_or_solve(Some(&disk), 1, &|_| {}).unwrap();
        assert!(!from_disk, "nothing was cached yet");
        let (read, from_disk) = load_or_solve(Some(&disk), 1, &|_| {}).unwrap();
        assert!(from_disk, "the second time it is read back");
        same(&built, &read);
        // One byte of a value changed: the checksum fails, so it is solved again
        // and rewritten.
        let path = disk.path(&cache_name(1), CACHE_FORMAT).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let (rebuilt, from_disk) = load_or_solve(Some(&disk), 1, &|_| {}).unwrap();
        assert!(!from_disk, "the damaged file was not used");
        // The sweeps run in parallel in place, so two solves agree to well within
        // the tolerance, not always to the last bit.
        assert!(rebuilt.max_difference(&built) < 1e-9);
        let (again, from_disk) = load_or_solve(Some(&disk), 1, &|_| {}).unwrap();
        assert!(from_disk, "the rebuilt table was written again");
        same(&rebuilt, &again);
        // A payload of another marker count is not taken for this one.
        let p = to_payload(&built).unwrap();
        assert!(from_payload(&p, 2, DEFAULT_TOLERANCE).is_none());
        assert!(from_payload(&p[..p.len() - 1], 1, DEFAULT_TOLERANCE).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn estimate_of_the_seed_game() {
        let e = estimate(4);
        // Layers (a, b) for a, b in 0..4 retired: the (0, 0) layer alone is 73,815 squared.
        assert!(e.slots > 73_815u64 * 73_815);
        assert!(e.solving_bytes > 50_000_000_000);
        assert_eq!(estimate(1).slots, 35 * 35);
    }

    #[test]
    fn refuses_beyond_the_memory_budget() {
        let r = solve(3, 1e-9, 100_000_000, &|| false, &|_| {});
        let Err(e) = r else {
            panic!("3 markers need more than 100 MB")
        };
        assert!(matches!(e, SolveError::Memory { .. }));
        let text = error_text(3, &e);
        assert!(
            text.contains("545 MiB") && text.contains("95.4 MiB allowed"),
            "{text}"
        );
        let e4 = solve(4, 1e-9, 1 << 30, &|| false, &|_| {}).err().unwrap();
        assert!(error_text(4, &e4).contains("50.4 GiB"));
    }
}
