//! One in-place sweep of a layer, a band of the other's ranks at a time.
//!
//! The successor of (roller `m`, other `t`) is (`t`, `m'`) seen from the other
//! side: it lies in row `t` of the layer the other rolls in. Sweeping every
//! roller `m` against one other `t` reads one row (it stays in cache) but writes
//! one value per row of the layer, each on a cache line of its own. So the sweep
//! takes a *band* of [`LANES`] consecutive other ranks: it copies their rows
//! (and, for the moves that retire a marker, their rows in the layer that
//! follows a retirement; for the moves that bump, the values of the rows the
//! bump leads to) into a buffer laid out `[m'][lane]`, so that the 20 or so
//! values one roller's moves read for every other of the band are 20 whole
//! lines, then writes each roller's band (one run of consecutive places of its
//! row). The copies are taken when the band starts, so a band reads the
//! values its own writes change only at the next sweep; every other value is
//! read as it is then (Gauss-Seidel between bands, on both cores).
//!
//! Values are 4-byte fixed point, `q = round(v * D)` with `D = 2^32 - 1`, and the
//! equation is worked in integers exactly: with a 1 forfeiting and each roll's
//! best move being the one that leaves the other the least,
//! `v = (6 - v(t, m) - sum over rolls of min over moves of v(next)) / 6`, so
//! `q = round((6 D - q(t, m) - sum of the minima) / 6)`: the one rounding is the
//! last division.

// Unsafe code, each block with its SAFETY comment: the AVX2 and AVX-512 sweep kernels, chosen after the processor is asked what it has.
#![allow(unsafe_code)]

use super::index::{crank, LayerIndex};
use crate::exact::{Sets, FREE, NO_LAND, ROLLS};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Other ranks swept together: 32 values of 4 bytes, two cache lines. A sweep
/// waits mostly for the run of its own values each roller's band writes, one
/// run in every row of the layer for each band: 32 lanes halve the runs that
/// 16 took and make a sweep of four markers about 15% faster with AVX-512 (the
/// buffer, twice as large, is past the core's own cache with 16 as well).
pub const LANES: usize = 32;
/// The fixed point's scale: 1.0 is `D`.
pub const D: u64 = u32::MAX as u64;
/// Squares of the other's markers one band can bump, per lane (its distinct squares).
const SLOTS: usize = crate::board::MARKERS;
/// The over-relaxation weight's unit: a weight of `WEIGHT_ONE` is plain
/// Gauss-Seidel.
pub const WEIGHT_ONE: u32 = 256;

/// A build of the band's code: the same arithmetic, compiled for more or
/// fewer of the processor's instructions (the values are the same, bit for bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Any processor.
    Plain,
    /// x86-64 with AVX2 and the bit-counting instructions (2013 on).
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// x86-64 with AVX-512 (F, BW, VL) as well.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Kernel {
    /// Every build this processor runs, the plainest first.
    pub fn available() -> Vec<Kernel> {
        let mut out = vec![Kernel::Plain];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx2") && has!("popcnt") && has!("bmi1") && has!("bmi2") {
                out.push(Kernel::Avx2);
                if has!("avx512f") && has!("avx512bw") && has!("avx512vl") {
                    out.push(Kernel::Avx512);
                }
            }
        }
        out
    }

    /// The fastest build this processor runs (found once).
    pub fn best() -> Kernel {
        static BEST: std::sync::OnceLock<Kernel> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| {
            *Kernel::available()
                .last()
                .expect("the plain build runs anywhere")
        })
    }
}

/// The values of one layer with its index.
#[derive(Clone, Copy)]
pub struct Layer<'a> {
    pub index: &'a LayerIndex,
    pub values: &'a [AtomicU32],
}

impl Layer<'_> {
    #[inline(always)]
    fn get(&self, at: u64) -> u32 {
        self.values[at as usize].load(Relaxed)
    }
}

/// One value per lane, on whole cache lines.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(super) struct Line(pub(super) [u32; LANES]);

/// Buffers of one worker (about 14 MB for four markers).
#[derive(Default)]
pub struct Scratch {
    /// `[m'][lane]`: the rows of the band's others in the layer they roll in.
    next: Vec<Line>,
    /// `[m'][lane]`: their rows in the layer after the roller retires a marker.
    retired: Vec<Line>,
    /// `[lane][slot][rest]`: after a bump on the lane's slot-th square.
    bumped: Vec<u32>,
}

/// Rollers ahead whose place in a layer's row is fetched before it is used
/// (by the sweep, the certifying pass and the first guess).
pub(super) const AHEAD: usize = 8;

/// Asks the processor to bring `x`'s cache line in (a hint; nothing else).
#[inline(always)]
pub(super) fn prefetch(x: &AtomicU32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only hints at an address (one that is valid here);
    // it reads and writes nothing.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            x as *const AtomicU32 as *const i8,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Copies row `t` of `layer` (its columns' square masks `cols`; the row's
/// squares `taken`) into lane `l` of `out`, by the column's full rank (0 where
/// the pair cannot occur). Without branches: which columns can occur is hard
/// to predict.
#[inline(always)]
pub(super) fn expand(
    layer: Layer<'_>,
    t: usize,
    taken: u64,
    cols: &[u64],
    out: &mut [Line],
    l: usize,
) {
    let last = layer.values.len().saturating_sub(1);
    let mut at = layer.index.row(t) as usize;
    for (&mask, line) in cols.iter().zip(out.iter_mut()) {
        let ok = mask & taken == 0;
        let v = layer.values[at.min(last)].load(Relaxed);
        line.0[l] = if ok { v } else { 0 };
        at += ok as usize;
    }
}

/// What a sweep of layer (a, b) reads and writes.
pub struct Sweep<'a> {
    /// The rollers' multisets (`ka` markers), the others' (`kb`), and the
    /// rollers' with one marker fewer (`None` for one marker: retiring wins).
    pub sa: &'a Sets,
    pub sb: &'a Sets,
    pub fewer: Option<&'a Sets>,
    /// The layer swept (a, b).
    pub own: Layer<'a>,
    /// Layer (b, a): the other to roll.
    pub next: Layer<'a>,
    /// Layer (b, a + 1): the other to roll after a retirement (`None` when
    /// retiring wins).
    pub retired: Option<Layer<'a>>,
    /// Over-relaxation, in [`WEIGHT_ONE`]ths: each value moves `weight /
    /// WEIGHT_ONE` times its change to the equation's value (rounded, kept in
    /// [0, D]). A change of one step stays one step for any weight below 1.5,
    /// so the iteration's last sweeps and its fixed points are those of plain
    /// Gauss-Seidel.
    pub weight: u32,
}

impl Sweep<'_> {
    /// Multisets of the roller's markers less the one moved.
    fn rests(&self) -> usize {
        self.fewer.map_or(1, |f| f.len)
    }

    /// Sweeps the whole layer once, in place; returns the largest change of a
    /// value (in steps of the fixed point). `stop` is polled between bands.
    pub fn run(&self, stop: &(dyn Fn() -> bool + Sync)) -> Option<u32> {
        let bands = self.sb.len.div_ceil(LANES);
        let worst = (0..bands)
            .into_par_iter()
            .with_max_len(1)
            .map_init(Scratch::default, |scratch, band| {
                if stop() {
                    return None;
                }
                Some(self.band(band * LANES, scratch))
            })
            .try_reduce(|| 0, |a, b| Some(a.max(b)))?;
        Some(worst)
    }

    /// Sweeps the rollers against the others `t0..t0 + LANES`, with the
    /// fastest build of the band this processor runs.
    pub fn band(&self, t0: usize, s: &mut Scratch) -> u32 {
        self.band_with(Kernel::best(), t0, s)
    }

    /// [`Sweep::band`] with the build `kernel` (one the processor runs:
    /// [`Kernel::best`] or [`Kernel::available`]).
    pub(super) fn band_with(&self, kernel: Kernel, t0: usize, s: &mut Scratch) -> u32 {
        match kernel {
            // SAFETY: `Kernel::best` and `Kernel::available` offer this build
            // only where the processor has its features.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => unsafe { self.band_avx512(t0, s) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe { self.band_avx2(t0, s) },
            Kernel::Plain => self.band_body(t0, s),
        }
    }

    /// [`Sweep::band`] compiled for AVX2 (the lanes' minima and sums are then
    /// a few vector instructions each; the baseline x86-64 has no unsigned
    /// 32-bit minimum) with the instruction that counts bits (the slot of a
    /// bumped square and every rank count them; the baseline counts them in a
    /// dozen instructions).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    unsafe fn band_avx2(&self, t0: usize, s: &mut Scratch) -> u32 {
        self.band_body(t0, s)
    }

    /// [`Sweep::band`] compiled for AVX-512: a line of 32 values is two
    /// registers, and the lanes a move bumps are left out of its minimum by a
    /// mask register instead of a blend.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,popcnt,bmi1,bmi2")]
    unsafe fn band_avx512(&self, t0: usize, s: &mut Scratch) -> u32 {
        self.band_body(t0, s)
    }

    #[inline(always)]
    fn band_body(&self, t0: usize, s: &mut Scratch) -> u32 {
        let (sa, sb) = (self.sa, self.sb);
        let (ka, kb) = (sa.k, sb.k);
        let lanes = (sb.len - t0).min(LANES);
        let rests = self.rests();
        s.next.resize(sa.len, Line([0; LANES]));
        if let Some(f) = self.fewer {
            s.retired.resize(f.len, Line([0; LANES]));
        }
        s.bumped.resize(LANES * SLOTS * rests, 0);
        let mut taken = [0u64; LANES];
        // Lanes having a marker on each square, and the slot of that square in
        // the lane's own list.
        let mut with = [0u32; FREE];
        #[allow(clippy::needless_range_loop)] // `l` is a lane of several arrays
        for l in 0..lanes {
            let t = t0 + l;
            let ut = sb.mask[t];
            taken[l] = ut;
            // The row of other `t` in the layer it rolls in.
            expand(self.next, t, ut, &sa.mask, &mut s.next, l);
            if let (Some(f), Some(retired)) = (self.fewer, self.retired) {
                expand(retired, t, ut, &f.mask, &mut s.retired, l);
            }
            // After a bump on square q: the other's markers there go to 1 and
            // the roller's marker stands on q with its `rest`.
            let mut bits = ut;
            let mut slot = 0;
            while bits != 0 {
                let q = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                with[q] |= 1 << l;
                let t2 = sb.bump[t * FREE + q] as usize;
                let u2 = sb.mask[t2];
                let row2 = self.next.index.row(t2);
                let out = &mut s.bumped[(l * SLOTS + slot) * rests..][..rests];
                for (rest, v) in out.iter_mut().enumerate() {
                    let rest_mask = self.fewer.map_or(0, |f| f.mask[rest]);
                    if rest_mask & u2 == 0 {
                        let n = sa.add[rest * FREE + q] as usize;
                        *v = self.next.get(row2 + crank(&sa.squares[n][..ka], u2));
                    }
                }
                slot += 1;
            }
        }
        let present = if lanes == LANES {
            u32::MAX >> (32 - LANES)
        } else {
            (1u32 << lanes) - 1
        };
        let mut worst = 0u32;
        let (weight, shift) = (self.weight as i64, WEIGHT_ONE.trailing_zeros());
        let half = (WEIGHT_ONE / 2) as i64;
        let first_other = &sb.squares[t0][..kb];
        for m in 0..sa.len {
            // The row `m + AHEAD` is written a little later: ask for its line
            // now (each roller's band is on a line of its own, far from the
            // last one, so without this every roller waits for memory).
            if let Some(&ahead) = sa.mask.get(m + AHEAD) {
                let at = self.own.index.row(m + AHEAD) + crank(first_other, ahead);
                prefetch(&self.own.values[(at as usize).min(self.own.values.len() - 1)]);
            }
            let um = sa.mask[m];
            let mut valid = 0u32;
            for (l, &ut) in taken.iter().enumerate() {
                valid |= ((um & ut == 0) as u32) << l;
            }
            valid &= present;
            if valid == 0 {
                continue;
            }
            // A 1 forfeits: the other rolls with the same markers.
            let mut sum = [0u64; LANES];
            for (x, &v) in sum.iter_mut().zip(&s.next[m].0) {
                *x = v as u64;
            }
            for r in 0..ROLLS {
                let slot = m * ROLLS + r;
                let cnt = sa.nsucc[slot] as usize;
                // The least over the moves of the lanes a move does not bump
                // (whole lines, in registers), and apart, lane by lane, of the
                // values after a bump. A line copied, patched lane by lane and
                // then read whole made the processor wait at every move (a
                // load spanning two earlier stores cannot take their data).
                let mut least = [u32::MAX; LANES];
                let mut least_bumped = [u32::MAX; LANES];
                for e in &sa.succ[slot * ka..slot * ka + cnt] {
                    let (line, bumps) = if e.retire {
                        if self.fewer.is_none() {
                            // The roller's last marker retires: a win.
                            least = [0; LANES];
                            least_bumped = [0; LANES];
                            break;
                        }
                        (&s.retired[e.next as usize].0, 0)
                    } else if e.land != NO_LAND {
                        (&s.next[e.next as usize].0, with[e.land as usize] & valid)
                    } else {
                        (&s.next[e.next as usize].0, 0)
                    };
                    for (l, (x, &c)) in least.iter_mut().zip(line).enumerate() {
                        let c = if bumps >> l & 1 != 0 { u32::MAX } else { c };
                        *x = (*x).min(c);
                    }
                    let q = e.land as usize;
                    let mut bits = bumps;
                    while bits != 0 {
                        let l = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let slot = (taken[l] & ((1u64 << q) - 1)).count_ones() as usize;
                        let v = s.bumped[(l * SLOTS + slot) * rests + e.rest as usize];
                        least_bumped[l] = least_bumped[l].min(v);
                    }
                }
                for ((x, &v), &b) in sum.iter_mut().zip(&least).zip(&least_bumped) {
                    *x += v.min(b) as u64;
                }
            }
            let first = valid.trailing_zeros() as usize;
            let mut at = self.own.index.row(m) + crank(&sb.squares[t0 + first][..kb], um);
            let mut bits = valid;
            while bits != 0 {
                let l = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let q = ((6 * D - sum[l] + 3) / 6) as u32;
                let old = self.own.values[at as usize].load(Relaxed);
                // The change is the equation's (how far from a fixed point),
                // whatever the weight makes of it.
                worst = worst.max(q.abs_diff(old));
                let delta = q as i64 - old as i64;
                let moved = old as i64 + ((delta * weight + half) >> shift);
                self.own.values[at as usize].store(moved.clamp(0, D as i64) as u32, Relaxed);
                at += 1;
            }
        }
        worst
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::layered::Plan;

    /// An over-relaxed band moves each value `weight / WEIGHT_ONE` times the
    /// change plain Gauss-Seidel makes of it, rounded, kept within [0, D]:
    /// the first band of one marker each, from values at 0, D and D / 3.
    #[test]
    fn an_over_relaxed_band_moves_each_value_by_the_weight_within_0_and_d() {
        let plan = Plan::new(1);
        let start: Vec<u32> = (0..plan.layer(0, 0).len())
            .map(|i| [0, D as u32, (D / 3) as u32][i as usize % 3])
            .collect();
        let after = |weight: u32| -> Vec<u32> {
            let own: Vec<AtomicU32> = start.iter().map(|&v| AtomicU32::new(v)).collect();
            let layer = Layer {
                index: plan.layer(0, 0),
                values: &own,
            };
            let sweep = Sweep {
                sa: plan.set(1),
                sb: plan.set(1),
                fewer: None,
                own: layer,
                next: layer,
                retired: None,
                weight,
            };
            sweep.band(0, &mut Scratch::default());
            own.iter().map(|v| v.load(Relaxed)).collect()
        };
        let weight = WEIGHT_ONE * 5 / 4;
        let (plain, relaxed) = (after(WEIGHT_ONE), after(weight));
        let (mut moved, mut clamped) = (0, 0);
        for ((&x, &p), &r) in start.iter().zip(&plain).zip(&relaxed) {
            let step = (p as f64 - x as f64) * weight as f64 / WEIGHT_ONE as f64;
            let want = (x as f64 + step).clamp(0.0, D as f64);
            assert!(
                (r as f64 - want).abs() <= 0.5,
                "from {x}: plain {p}, relaxed {r}"
            );
            moved += (p != x) as usize;
            clamped += (p != x && (want == 0.0 || want == D as f64)) as usize;
        }
        assert!(
            moved > 100 && clamped > 10,
            "{moved} moved, {clamped} kept in [0, D]"
        );
    }

    /// Every build of the band this processor runs leaves the same values,
    /// bit for bit, and finds the same largest change: two sweeps of the
    /// start layer of two markers from values that differ from place to
    /// place (a seeded generator), bands on one thread in order.
    #[test]
    fn every_build_of_the_band_gives_the_same_values() {
        use rand::Rng;
        let plan = Plan::new(2);
        let mut rng = tabula_core::rng_from_seed(120);
        let start: Vec<u32> = (0..plan.layer(0, 0).len())
            .map(|_| rng.gen_range(0..=D as u32))
            .collect();
        let retired: Vec<AtomicU32> = (0..plan.layer(0, 1).len())
            .map(|_| AtomicU32::new(rng.gen_range(0..=D as u32)))
            .collect();
        let after = |kernel: Kernel| -> (Vec<u32>, Vec<u32>) {
            let own: Vec<AtomicU32> = start.iter().map(|&v| AtomicU32::new(v)).collect();
            let sweep = start_layer_sweep(&plan, &own, &retired);
            let mut s = Scratch::default();
            let changes = (0..2)
                .map(|_| {
                    (0..plan.set(2).len)
                        .step_by(LANES)
                        .map(|t0| sweep.band_with(kernel, t0, &mut s))
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            (own.iter().map(|v| v.load(Relaxed)).collect(), changes)
        };
        let kernels = Kernel::available();
        let plain = after(Kernel::Plain);
        assert!(plain.0.iter().zip(&start).filter(|(a, b)| a != b).count() > start.len() / 2);
        for &kernel in &kernels[1..] {
            let other = after(kernel);
            assert_eq!(other.1, plain.1, "{kernel:?}: the largest changes");
            let differ = other.0.iter().zip(&plain.0).position(|(a, b)| a != b);
            assert_eq!(differ, None, "{kernel:?}: the first value that differs");
        }
        println!("builds compared: {kernels:?}");
    }

    /// A plain sweep of the start layer (0, 0) of `plan`, its values `own`,
    /// reading layer (0, 1) from `retired`.
    fn start_layer_sweep<'a>(
        plan: &'a Plan,
        own: &'a [AtomicU32],
        retired: &'a [AtomicU32],
    ) -> Sweep<'a> {
        let n = plan.n;
        let start = Layer {
            index: plan.layer(0, 0),
            values: own,
        };
        Sweep {
            sa: plan.set(n),
            sb: plan.set(n),
            fewer: Some(plan.set(n - 1)),
            own: start,
            next: start,
            retired: Some(Layer {
                index: plan.layer(0, 1),
                values: retired,
            }),
            weight: WEIGHT_ONE,
        }
    }

    /// Wall-clock and CPU time of whole sweeps (both threads) of the start
    /// layer of `TABULA_SWEEP_MARKERS` markers (3 unless set; 4 needs about
    /// 17 GB of memory), its values on ordinary pages and on huge pages
    /// (`cargo test --release -p tabula-auto120 --lib sweeps_on_huge_pages --
    /// --ignored --nocapture`).
    #[test]
    #[ignore = "a timing, in release mode"]
    fn sweeps_on_huge_pages() {
        let n = crate::exact::layered::testing::timing_markers();
        let plan = Plan::new(n);
        let huge_bytes = || {
            std::fs::read_to_string("/proc/self/smaps_rollup")
                .ok()
                .and_then(|s| {
                    s.lines()
                        .find(|l| l.starts_with("AnonHugePages:"))
                        .map(|l| l.to_string())
                })
                .unwrap_or_default()
        };
        // Four markers: one round (a sweep takes minutes).
        let rounds = if n >= 4 { 1 } else { 2 };
        for round in 0..rounds {
            for huge in [false, true] {
                let fill = |a: usize, b: usize| {
                    super::super::values::new_values(plan.layer(a, b).len(), (D / 2) as u32, huge)
                };
                let (own, retired) = (fill(0, 0), fill(0, 1));
                let sweep = start_layer_sweep(&plan, &own, &retired);
                let positions = plan.layer(0, 0).len() as f64;
                for _ in 0..2 {
                    let (cpu, wall) = (
                        crate::exact::cpu_seconds().unwrap(),
                        std::time::Instant::now(),
                    );
                    sweep.run(&|| false).unwrap();
                    let (wall, cpu) = (
                        wall.elapsed().as_secs_f64(),
                        crate::exact::cpu_seconds().unwrap() - cpu,
                    );
                    println!(
                        "{n} markers, round {round}, huge pages {huge}: a sweep {wall:.2} s, {cpu:.2} CPU s, {:.1} CPU ns a position; {}",
                        cpu * 1e9 / positions,
                        huge_bytes()
                    );
                }
            }
        }
    }

    /// Wall-clock and CPU seconds of every 6th band of a sweep of the start
    /// layer of `TABULA_SWEEP_MARKERS` markers (3 unless set; 4 needs about 17
    /// GB), both threads, with each build of the band the processor runs, and
    /// the whole sweep's time they make
    /// (`cargo test --release -p tabula-auto120 --lib some_bands_speed --
    /// --ignored --nocapture`).
    #[test]
    #[ignore = "a timing, in release mode"]
    fn some_bands_speed() {
        let n = crate::exact::layered::testing::timing_markers();
        let plan = Plan::new(n);
        let fill = |a: usize, b: usize| {
            super::super::values::new_values(plan.layer(a, b).len(), (D / 2) as u32, true)
        };
        let (own, retired) = (fill(0, 0), fill(0, 1));
        let sweep = start_layer_sweep(&plan, &own, &retired);
        let (bands, stride) = (plan.set(n).len.div_ceil(LANES), 6);
        // The builds take turns, so that they share whatever else the host
        // runs meanwhile (its memory is shared, and a sweep waits on it).
        for round in 0..3 {
            for kernel in Kernel::available() {
                let (cpu, wall) = (
                    crate::exact::cpu_seconds().unwrap(),
                    std::time::Instant::now(),
                );
                (0..bands)
                    .into_par_iter()
                    .step_by(stride)
                    .with_max_len(1)
                    .for_each_init(Scratch::default, |s, b| {
                        sweep.band_with(kernel, b * LANES, s);
                    });
                let (wall, cpu) = (
                    wall.elapsed().as_secs_f64(),
                    crate::exact::cpu_seconds().unwrap() - cpu,
                );
                println!(
                    "{n} markers, round {round}, {kernel:?}: every {stride}th band {wall:.2} s, {cpu:.2} CPU s; a whole sweep about {:.0} s",
                    wall * stride as f64
                );
            }
        }
    }

    /// CPU nanoseconds per position of sweeps of the start layer of three
    /// markers on one thread, with each build of the band the processor runs
    /// (`cargo test --release -p tabula-auto120 --lib sweep_speed -- --ignored
    /// --nocapture`).
    #[test]
    #[ignore = "a timing, in release mode"]
    fn sweep_speed() {
        let plan = Plan::new(3);
        let fill = |a: usize, b: usize| {
            super::super::values::new_values(plan.layer(a, b).len(), (D / 2) as u32, false)
        };
        let (own, retired) = (fill(0, 0), fill(0, 1));
        let sweep = start_layer_sweep(&plan, &own, &retired);
        let positions = plan.layer(0, 0).len() as f64;
        for round in 0..2 {
            for kernel in Kernel::available() {
                let cpu = crate::exact::cpu_seconds().unwrap();
                let mut s = Scratch::default();
                for _ in 0..3 {
                    for t0 in (0..plan.set(3).len).step_by(LANES) {
                        sweep.band_with(kernel, t0, &mut s);
                    }
                }
                let ns = (crate::exact::cpu_seconds().unwrap() - cpu) * 1e9 / (3.0 * positions);
                println!("round {round}, {kernel:?}: {ns:.1} CPU ns a position");
            }
        }
    }
}
