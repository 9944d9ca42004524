//! Nested Rollout Policy Adaptation (Rosin, IJCAI 2011) with the selective policy of
//! Cazenave ("Nested Rollout Policy Adaptation with Selective Policies", 2016).
//!
//! A playout chooses each click with probability proportional to `exp(w[code])`,
//! where `code` identifies the group removed (its colour and cells, see
//! [`Mv::code`]) and `w` is the policy. Level `L` runs `iterations` searches of
//! level `L-1` from a copy of its policy and, after each, moves the policy towards
//! the best game found so far (`adapt`). Level 0 is one playout.
//!
//! The selective policy: one colour is tabu (TabuColorRandom, Cazenave 2009: the
//! commonest on the starting board; the search may try others, see [`Plan::tabu`])
//! and its groups are legal for the playouts only when no other group is removable,
//! so they can grow. Pruning the moves this way both speeds up the playouts and keeps
//! the policy's weight where it matters.
//!
//! Every random choice comes from a generator seeded by the search seed and the
//! place in the tree; a run (level, iterations, seed) is a function of the board
//! alone unless the deadline or the cancel flag cuts it short.

use super::fast::{FastBoard, Mv};
use super::{mix, Line};
use crate::board::Board;
use crate::scoring::Scoring;
use rand::Rng as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tabula_core::ledger::Reservation;
use tabula_core::{rng_from_seed, CancelFlag, Ledger, Rng};

/// Slots a policy starts with.
const FIRST_SLOTS: usize = 1024;

/// Bytes of one slot of a policy's table (its code and its weight).
const SLOT_BYTES: u64 = 16;

/// What the policies of one search hold, reserved in the process's memory ledger
/// as they grow, so that a search never takes memory the ledger lets tables use:
/// every thread keeps a policy per level and the root's (`tables` in all), each a
/// copy of one above it or grown from one, so `tables` times the largest is
/// reserved. A policy the ledger has no room for stops taking new codes (they
/// keep weight 0) and the search goes on.
pub(crate) struct PolicyMemory {
    tables: u64,
    /// Bytes of the largest table reserved for.
    largest: AtomicU64,
    reservation: Mutex<Reservation>,
    ledger: &'static Ledger,
}

impl PolicyMemory {
    /// Room for `tables` policies, charged to `ledger` as they grow.
    pub(crate) fn new(tables: u64, ledger: &'static Ledger) -> Arc<PolicyMemory> {
        Arc::new(PolicyMemory {
            tables: tables.max(1),
            largest: AtomicU64::new(FIRST_SLOTS as u64 * SLOT_BYTES),
            reservation: Mutex::new(ledger.reserve_nothing()),
            ledger,
        })
    }

    /// Whether a policy's table may grow to `bytes`: within what is reserved, or
    /// the ledger grants room for every table at that size.
    fn may_grow(&self, bytes: u64) -> bool {
        if bytes <= self.largest.load(Ordering::Relaxed) {
            return true;
        }
        let mut reservation = self.reservation.lock().unwrap_or_else(|e| e.into_inner());
        if bytes <= self.largest.load(Ordering::Relaxed) {
            return true;
        }
        let all = bytes.saturating_mul(self.tables);
        let granted = self
            .ledger
            .grow(&mut reservation, "a SameGame search's policies", all)
            .is_ok();
        if granted {
            self.largest.store(bytes, Ordering::Relaxed);
        }
        granted
    }

    /// Bytes reserved now.
    #[cfg(test)]
    fn reserved(&self) -> u64 {
        self.reservation.lock().unwrap().bytes()
    }
}

/// An open-addressing table from move codes (never 0) to policy weights (0 when absent).
#[derive(Clone)]
pub(crate) struct Policy {
    keys: Vec<u64>,
    vals: Vec<f64>,
    len: usize,
    /// The most codes kept (the memory budget); new codes beyond it keep weight 0.
    cap: usize,
    /// Where its growth is reserved (none: a policy of a few codes).
    memory: Option<Arc<PolicyMemory>>,
}

impl Policy {
    /// An empty policy that will hold at most `cap` codes.
    pub(crate) fn new(cap: usize) -> Policy {
        Policy {
            keys: vec![0; FIRST_SLOTS],
            vals: vec![0.0; FIRST_SLOTS],
            len: 0,
            cap: cap.max(FIRST_SLOTS),
            memory: None,
        }
    }

    /// [`Policy::new`], its growth reserved in `memory`.
    pub(crate) fn charged(cap: usize, memory: &Arc<PolicyMemory>) -> Policy {
        Policy {
            memory: Some(memory.clone()),
            ..Policy::new(cap)
        }
    }

    /// The policy as bytes, to send to another process: each code and its
    /// weight (8 bytes each, little-endian), codes ascending, so that equal
    /// policies give equal bytes.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut entries: Vec<(u64, f64)> = self
            .keys
            .iter()
            .zip(&self.vals)
            .filter(|(&k, _)| k != 0)
            .map(|(&k, &v)| (k, v))
            .collect();
        entries.sort_unstable_by_key(|&(k, _)| k);
        let mut out = Vec::with_capacity(entries.len() * 16);
        for (k, v) in entries {
            out.extend_from_slice(&k.to_le_bytes());
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// A policy of at most `cap` codes from [`Policy::to_bytes`]'s bytes;
    /// `None` when they are not a policy's (cut short, a code 0 or codes out
    /// of order, a weight that is not a finite number, more codes than `cap`).
    pub(crate) fn from_bytes(bytes: &[u8], cap: usize) -> Option<Policy> {
        if bytes.len() % 16 != 0 || bytes.len() / 16 > cap {
            return None;
        }
        let mut policy = Policy::new(cap);
        let mut last = 0;
        for chunk in bytes.chunks_exact(16) {
            let code = u64::from_le_bytes(chunk[..8].try_into().ok()?);
            let weight = f64::from_le_bytes(chunk[8..].try_into().ok()?);
            if code <= last || !weight.is_finite() {
                return None;
            }
            last = code;
            policy.add(code, weight);
        }
        Some(policy)
    }

    /// Bytes a policy of at most `cap` codes may take (tables at most 4 times the codes).
    pub(crate) fn bytes_for(cap: usize) -> u64 {
        cap as u64 * 4 * SLOT_BYTES
    }

    #[inline]
    fn slot(&self, code: u64) -> usize {
        let mask = self.keys.len() - 1;
        let mut i = (code.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & mask;
        loop {
            let k = self.keys[i];
            if k == code || k == 0 {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    pub(crate) fn get(&self, code: u64) -> f64 {
        let i = self.slot(code);
        if self.keys[i] == code {
            self.vals[i]
        } else {
            0.0
        }
    }

    fn add(&mut self, code: u64, delta: f64) {
        if (self.len + 1) * 2 > self.keys.len() && self.len < self.cap {
            self.grow();
        }
        let i = self.slot(code);
        if self.keys[i] == 0 {
            if self.len >= self.cap {
                return;
            }
            self.keys[i] = code;
            self.len += 1;
        }
        self.vals[i] += delta;
    }

    /// Makes room for `n` new codes without growing (while under the cap), so slots
    /// found by [`Policy::find_or_insert`] stay valid for `n` insertions.
    fn reserve(&mut self, n: usize) {
        while (self.len + n) * 2 > self.keys.len() && self.len < self.cap {
            self.grow();
        }
    }

    /// The slot of `code`, inserted with weight 0 when absent (`None` when the
    /// policy is full). Call [`Policy::reserve`] first.
    #[inline]
    fn find_or_insert(&mut self, code: u64) -> Option<usize> {
        let i = self.slot(code);
        if self.keys[i] == 0 {
            if self.len >= self.cap || (self.len + 1) * 2 > self.keys.len() {
                return None;
            }
            self.keys[i] = code;
            self.len += 1;
        }
        Some(i)
    }

    /// Doubles the table (its size stays a power of two), when the memory
    /// allows; otherwise the policy takes no new codes from now on.
    fn grow(&mut self) {
        let size = self.keys.len() * 2;
        if let Some(memory) = &self.memory {
            if !memory.may_grow(size as u64 * SLOT_BYTES) {
                self.cap = self.len;
                return;
            }
        }
        let keys = std::mem::replace(&mut self.keys, vec![0; size]);
        let vals = std::mem::replace(&mut self.vals, vec![0.0; self.keys.len()]);
        for (k, v) in keys.into_iter().zip(vals) {
            if k != 0 {
                let i = self.slot(k);
                self.keys[i] = k;
                self.vals[i] = v;
            }
        }
    }
}

/// A playout: its score and clicks, and for every step the codes of the legal moves
/// with the one chosen (what `adapt` needs).
#[derive(Clone, Default)]
pub(crate) struct Seq {
    pub score: i64,
    pub clicks: Vec<(u8, u8)>,
    codes: Vec<u64>,
    /// `codes[ends[t-1]..ends[t]]` are the legal moves of step `t`.
    ends: Vec<u32>,
    chosen: Vec<u64>,
}

impl Seq {
    fn clear(&mut self) {
        self.clicks.clear();
        self.codes.clear();
        self.ends.clear();
        self.chosen.clear();
    }

    pub(crate) fn line(&self) -> Line {
        Line {
            score: self.score,
            clicks: self.clicks.clone(),
        }
    }
}

/// Reusable buffers of one thread.
#[derive(Default)]
pub(crate) struct Work {
    fast: FastBoard,
    /// Every removable group of the current board.
    all: Vec<Mv>,
    /// The legal ones under the selective policy (indices into `all`).
    legal: Vec<u16>,
    weights: Vec<f64>,
    /// Playouts run on this thread.
    pub playouts: u64,
}

/// `e^x` to about 1e-7 relative error, for policy weights (|x| is small).
#[inline]
pub(crate) fn fast_exp(x: f64) -> f64 {
    let x = x.clamp(-700.0, 700.0);
    let t = x * std::f64::consts::LOG2_E;
    let n = {
        let i = t as i64;
        (if (i as f64) > t { i - 1 } else { i }) as f64
    };
    let f = (t - n) * std::f64::consts::LN_2;
    // e^f for f in [0, ln 2): Taylor series to the 8th power.
    let p = 1.0
        + f * (1.0
            + f * (0.5
                + f * (1.0 / 6.0
                    + f * (1.0 / 24.0
                        + f * (1.0 / 120.0
                            + f * (1.0 / 720.0 + f * (1.0 / 5040.0 + f * (1.0 / 40320.0))))))));
    p * f64::from_bits(((n as i64 + 1023) as u64) << 52)
}

/// The shape of one run: its level, the iterations per level and whether the top
/// level goes on past them until the deadline.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    /// The tabu colour of the selective policy (0: none).
    pub tabu: usize,
    pub level: u32,
    pub iterations: u32,
    pub open: bool,
}

/// Settings and shared state of NRPA runs.
pub(crate) struct Nrpa<'a> {
    /// The board every playout starts from.
    pub board: &'a Board,
    pub scoring: Scoring,
    /// Learning rate of `adapt`.
    pub alpha: f64,
    pub deadline: Option<Instant>,
    pub stop: &'a CancelFlag,
    pub playouts: AtomicU64,
}

impl Nrpa<'_> {
    pub(crate) fn out_of_time(&self) -> bool {
        self.stop.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// One playout from `board` under `policy` into `seq`.
    fn playout(&self, tabu: usize, policy: &Policy, rng: &mut Rng, w: &mut Work, seq: &mut Seq) {
        self.playout_after(&[], tabu, policy, rng, w, seq);
    }

    /// A playout whose first clicks are `forced` (`(column, height)` of any block of
    /// each group), then chosen under `policy`; false when a forced click is not a
    /// group of two or more (`seq` then holds the clicks up to it).
    pub(crate) fn playout_after(
        &self,
        forced: &[(u8, u8)],
        tabu: usize,
        policy: &Policy,
        rng: &mut Rng,
        w: &mut Work,
        seq: &mut Seq,
    ) -> bool {
        seq.clear();
        w.fast.load(self.board);
        w.fast.list_moves(&mut w.all);
        let mut fresh = 0;
        loop {
            let step = seq.clicks.len();
            let force = forced
                .get(step)
                .map(|&(c, y)| w.fast.canonical(c as usize, y as usize));
            let force = match force {
                None => None,
                Some(Some(at)) => match w.all.iter().position(|m| (m.col, m.y) == at) {
                    Some(i) => Some(i),
                    None => return false,
                },
                Some(None) => return false,
            };
            // A forced move of the tabu colour: every move counts as legal at that step.
            let tabu = match force {
                Some(i) if w.all[i].colour as usize == tabu => 0,
                _ => tabu,
            };
            // The policy does not change during a playout: a group kept from the last
            // step keeps its weight.
            for m in &mut w.all[fresh..] {
                m.weight = fast_exp(policy.get(m.code));
            }
            // One pass: the legal moves' codes go to `seq`, their weights' running
            // totals to `weights` (the tabu colour's only when nothing else is legal).
            let start = seq.codes.len();
            w.legal.clear();
            w.weights.clear();
            let mut total = 0.0;
            for (i, m) in w.all.iter().enumerate() {
                if m.colour as usize != tabu {
                    total += m.weight;
                    w.weights.push(total);
                    w.legal.push(i as u16);
                    seq.codes.push(m.code);
                }
            }
            if w.legal.is_empty() {
                for (i, m) in w.all.iter().enumerate() {
                    total += m.weight;
                    w.weights.push(total);
                    w.legal.push(i as u16);
                    seq.codes.push(m.code);
                }
            }
            if w.legal.is_empty() {
                break;
            }
            let chosen = if let Some(i) = force {
                i as u16
            } else if w.legal.len() == 1 {
                w.legal[0]
            } else {
                let r = rng.gen::<f64>() * total;
                let at = w
                    .weights
                    .partition_point(|&c| c <= r)
                    .min(w.legal.len() - 1);
                w.legal[at]
            };
            debug_assert_eq!(seq.codes.len() - start, w.legal.len());
            let m = w.all[chosen as usize];
            seq.ends.push(seq.codes.len() as u32);
            seq.chosen.push(m.code);
            seq.clicks.push((m.col, m.y));
            let change = w.fast.play(&m, self.scoring);
            fresh = w.fast.relist(change, &mut w.all);
        }
        seq.score = w.fast.score();
        w.playouts += 1;
        self.playouts.fetch_add(1, Ordering::Relaxed);
        true
    }

    /// `clicks` (`(column, height)` of any block of each group) as a
    /// playout under the tabu colour `tabu`, finished by a uniform playout when the
    /// line stops before the end (its generator seeded by `seed`): what a run needs
    /// to start from a game found before. `None` when a click is not a group of two
    /// or more.
    pub(crate) fn replay(
        &self,
        clicks: &[(u8, u8)],
        tabu: usize,
        seed: u64,
        w: &mut Work,
    ) -> Option<Seq> {
        let mut seq = Seq::default();
        let mut rng = rng_from_seed(seed);
        self.playout_after(clicks, tabu, &Policy::new(1), &mut rng, w, &mut seq)
            .then_some(seq)
    }

    /// Moves `policy` towards `best`: each chosen code gains `alpha`, and every legal
    /// code loses `alpha` times its probability under the policy before the step.
    pub(crate) fn adapt(
        &self,
        policy: &mut Policy,
        best: &Seq,
        probs: &mut Vec<(Option<usize>, f64)>,
    ) {
        let mut start = 0usize;
        for (t, &end) in best.ends.iter().enumerate() {
            let codes = &best.codes[start..end as usize];
            start = end as usize;
            if codes.len() < 2 {
                continue;
            }
            // One look-up per code: its slot serves both the weight and the update.
            policy.reserve(codes.len());
            probs.clear();
            let mut total = 0.0;
            for &c in codes {
                let i = policy.find_or_insert(c);
                let e = fast_exp(i.map_or(0.0, |i| policy.vals[i]));
                probs.push((i, e));
                total += e;
            }
            let scale = self.alpha / total;
            for &(i, e) in probs.iter() {
                if let Some(i) = i {
                    policy.vals[i] -= scale * e;
                }
            }
            policy.add(best.chosen[t], self.alpha);
        }
    }

    /// A level-`level` search with `policy` (left unchanged) and `iterations` per
    /// level; `open`: the top level goes on past `iterations` until the deadline
    /// (anytime). `key` seeds its generators. `on_best` hears of every improvement at
    /// this level.
    pub(crate) fn run(
        &self,
        plan: Plan,
        policy: &Policy,
        key: u64,
        start: Option<&Seq>,
        w: &mut Work,
        on_best: &mut dyn FnMut(&Seq),
    ) -> Seq {
        let Plan {
            tabu,
            level,
            iterations,
            open,
        } = plan;
        // A level above 0 starts from `start` (a plan kept from an earlier search) as
        // its best game: the policy moves towards it until something beats it.
        let mut best = match start {
            Some(seq) if level > 0 => seq.clone(),
            _ => Seq {
                score: i64::MIN,
                ..Seq::default()
            },
        };
        if level == 0 {
            let mut rng = rng_from_seed(key);
            self.playout(tabu, policy, &mut rng, w, &mut best);
            on_best(&best);
            return best;
        }
        let mut pol = policy.clone();
        let mut probs = Vec::new();
        if level == 1 {
            // Level 1 runs its playouts in place, with one generator.
            let mut rng = rng_from_seed(key);
            let mut seq = Seq::default();
            for i in 0.. {
                if (i >= iterations && !open) || (i > 0 && self.out_of_time()) {
                    break;
                }
                self.playout(tabu, &pol, &mut rng, w, &mut seq);
                if seq.score >= best.score {
                    std::mem::swap(&mut best, &mut seq);
                    on_best(&best);
                }
                self.adapt(&mut pol, &best, &mut probs);
            }
            return best;
        }
        for i in 0.. {
            if (i >= iterations && !open) || (i > 0 && self.out_of_time()) {
                break;
            }
            let sub = self.run(
                Plan {
                    tabu,
                    level: level - 1,
                    iterations,
                    open: false,
                },
                &pol,
                mix(key, i as u64 + 1),
                None,
                w,
                &mut |_| {},
            );
            if sub.score >= best.score {
                best = sub;
                on_best(&best);
            }
            self.adapt(&mut pol, &best, &mut probs);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_grow_only_as_far_as_the_ledger_has_room() {
        const MIB: u64 = 1 << 20;
        let ledger: &'static Ledger = Box::leak(Box::new(Ledger::new()));
        ledger.set_limit(Some(64 * MIB));
        // Other tables hold 40 MiB of the 64.
        let held = ledger.reserve("other tables", 40 * MIB).unwrap();
        // Eight policies (two threads, three levels and the root's).
        let memory = PolicyMemory::new(8, ledger);
        let mut policy = Policy::charged(usize::MAX, &memory);
        for code in 1..=2_000_000u64 {
            policy.add(code, 1.0);
        }
        // Eight tables of 2 MiB fit beside the 40 MiB, eight of 4 MiB would not.
        assert_eq!(policy.keys.len() as u64 * SLOT_BYTES, 2 * MIB);
        assert_eq!(memory.reserved(), 16 * MIB);
        assert_eq!(ledger.reserved(), 56 * MIB);
        // Full: new codes keep weight 0, those kept keep theirs.
        assert_eq!(policy.get(1), 1.0);
        assert_eq!(policy.get(1_999_999), 0.0);
        // A copy holds no more than reserved for.
        let copy = policy.clone();
        assert_eq!(copy.keys.len(), policy.keys.len());
        // Once the other tables made room, a new policy of the search grows further.
        drop(held);
        let mut fresh = Policy::charged(usize::MAX, &memory);
        for code in 1..=200_000u64 {
            fresh.add(code, 1.0);
        }
        assert_eq!(fresh.keys.len() as u64 * SLOT_BYTES, 8 * MIB);
        assert_eq!(ledger.reserved(), 64 * MIB);
        // The search's reservation goes with its policies.
        drop((policy, copy, fresh));
        drop(memory);
        assert_eq!(ledger.reserved(), 0);
    }
}
