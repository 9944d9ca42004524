//! Exact solution of two-player games with dice by value iteration over a dense
//! index of the decision positions (Neller and Presser's method for Pig, "Optimal
//! Play of Two-Player Pig", 2004).
//!
//! Two ways in, one solver:
//!
//! * [`ChanceIndex`] + [`solve`]: the game numbers its decision positions
//!   `0..index_len()` and the solver works out each position's equation from the
//!   rules (its moves, [`Game::chance_outcomes`], the positions they lead to). Pig
//!   is solved this way.
//! * [`DenseChance`] + [`iterate`]: the game writes the equation of an index itself
//!   (its *backup*, reading the other values through [`Values`]), when it has a
//!   faster way than playing the moves out: Auto120's tables of multiset ranks.
//!
//! Either way the game says in which order to solve the index ([`SweepOrder`]):
//! *stages* one after the other, each made of *blocks* that read only themselves
//! and earlier stages (so the blocks of a stage are solved in parallel, on rayon's
//! pool), each block swept in place (Gauss-Seidel) in its given order until no
//! value moved by more than the tolerance. An order is a list of *runs* (evenly
//! spaced indices), so a table of millions of positions is ordered in a few
//! thousand entries. A block longer than [`CHUNK`] is swept part by part
//! ([`SweepOrder::part_ends`]), each part in parallel pieces. Pieces that read
//! each other's values as they change (asynchronous value iteration) converge to
//! the same fixed point, but to values that differ within the tolerance, after
//! numbers of sweeps that differ, from run to run as the threads' timing goes. A
//! part whose indices read each other may therefore be marked to be swept in
//! order on one thread ([`SweepOrder::end_part_in_order`]); pieces of a part that
//! reads only indices outside itself give the same values however they run. A
//! game that marks every self-reading part gets the same values, to the last bit,
//! on every run and any number of threads (Auto120 does; Pig's blocks, which read
//! themselves and are not marked, keep both cores and vary within the tolerance).
//!
//! The value of a decision position is the chance that the side to move wins
//! (a draw counts one half) with best play by both sides:
//! `V(s) = max over moves m of W(s after m)`, where a chance node's `W` is the
//! expectation over [`Game::chance_outcomes`], a finished game's is its outcome for
//! the mover, and a decision position's is `V` when the mover is to move again and
//! `1 - V` when the other side is.
//!
//! The solver keeps the table: 8-byte values ([`ChanceSolution`], [`Iterated`]), or
//! 4-byte fixed point made from them in place ([`FixedTable`]) when a game keeps
//! a large table for the rest of the process.

use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use tabula_core::{Budget, BudgetError, Game, Outcome, Seat, Turn};

/// Chance nodes nested deeper than this under one move are refused (a game whose
/// dice never settle would otherwise recurse without end).
pub const MAX_CHANCE_DEPTH: usize = 8;
/// Sweeps of one block after which the solve gives up (it reports the change left).
pub const MAX_SWEEPS: u32 = 100_000;
/// Default tolerance: the largest change of any value in a block's last sweep.
pub const DEFAULT_TOLERANCE: f64 = 1e-13;
/// A block longer than this is swept in parallel pieces of at least this many
/// indices (whole runs where they are shorter).
pub const CHUNK: usize = 4096;

/// `len` indices of an order, from `start`, each `step` after the one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The first index.
    pub start: u64,
    /// How many indices.
    pub len: u32,
    /// From one index to the next (negative: falling).
    pub step: i64,
}

impl Run {
    /// The `j`-th index of the run (`j < len`, in an order that passed the check).
    #[inline]
    pub fn at(&self, j: u32) -> usize {
        (self.start as i64 + j as i64 * self.step) as usize
    }

    /// The last index, when every index of the run is in `0..len`.
    fn last_within(&self, len: usize) -> Option<usize> {
        let last = (self.len as i64)
            .checked_sub(1)?
            .checked_mul(self.step)?
            .checked_add(i64::try_from(self.start).ok()?)?;
        let last = usize::try_from(last).ok()?;
        (last < len && (self.start as usize) < len).then_some(last)
    }
}

/// The order in which the solver sweeps the index: every index exactly once,
/// as runs grouped in blocks and the blocks in stages (see the module's words).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SweepOrder {
    /// Every index once, block after block, each block in its sweep order.
    pub runs: Vec<Run>,
    /// The end (exclusive) of each block in `runs`.
    pub block_ends: Vec<u32>,
    /// The end (exclusive) of each stage in `block_ends`.
    pub stage_ends: Vec<u32>,
    /// Ends (exclusive, in `runs`) of parts within blocks: a sweep of a block
    /// sweeps its parts one after the other, each on both cores (Auto120: one
    /// layer after the other of a group, as its own solver did). Empty: each
    /// block is one part.
    pub part_ends: Vec<u32>,
    /// The ends (as in `part_ends`, or a block's end) of parts swept in
    /// order on one thread: parts whose indices read each other. Pieces of
    /// such a part swept at once would read each other's values old or new
    /// as the threads happen to run, and the solve would end on values that
    /// differ in their last digits from run to run; the other parts read
    /// only indices outside themselves, so their pieces may be swept at once
    /// and give the same values every time.
    pub in_order_ends: Vec<u32>,
}

impl SweepOrder {
    /// An empty order, to be filled with [`SweepOrder::push`] and friends.
    pub fn new() -> SweepOrder {
        SweepOrder::default()
    }

    /// One stage of one block: every index, in index order.
    pub fn whole(len: usize) -> SweepOrder {
        let mut order = SweepOrder::new();
        order.push_run(0, len, 1);
        order.end_block();
        order.end_stage();
        order
    }

    /// Runs pushed since the last block ended.
    fn open_runs(&self) -> usize {
        self.runs.len() - self.block_ends.last().map_or(0, |&e| e as usize)
    }

    /// Appends one index to the current block (it extends the last run when it
    /// continues it evenly).
    pub fn push(&mut self, index: usize) {
        let index = index as u64;
        if self.open_runs() > 0 {
            if let Some(last) = self.runs.last_mut() {
                let step = index as i64 - last.start as i64;
                if last.len == 1 && step != 0 {
                    last.step = step;
                    last.len = 2;
                    return;
                }
                let next = last.start as i64 + last.len as i64 * last.step;
                if last.len > 1 && last.len < u32::MAX && next == index as i64 {
                    last.len += 1;
                    return;
                }
            }
        }
        self.runs.push(Run {
            start: index,
            len: 1,
            step: 1,
        });
    }

    /// Appends `len` indices from `start`, `step` apart, to the current block.
    pub fn push_run(&mut self, start: usize, len: usize, step: i64) {
        let mut start = start as i64;
        let mut left = len;
        while left > 0 {
            let n = left.min(u32::MAX as usize);
            self.runs.push(Run {
                start: start as u64,
                len: n as u32,
                step,
            });
            start += n as i64 * step;
            left -= n;
        }
    }

    /// Ends a part of the current block (see [`SweepOrder::part_ends`]).
    pub fn end_part(&mut self) {
        if self.open_runs() > 0 && self.part_ends.last() != Some(&(self.runs.len() as u32)) {
            self.part_ends.push(self.runs.len() as u32);
        }
    }

    /// Ends a part of the current block that is swept in order on one thread
    /// (see [`SweepOrder::in_order_ends`]): its indices read each other.
    pub fn end_part_in_order(&mut self) {
        self.end_part();
        if self.part_ends.last() == Some(&(self.runs.len() as u32))
            && self.in_order_ends.last() != self.part_ends.last()
        {
            self.in_order_ends.push(self.runs.len() as u32);
        }
    }

    /// Ends the current block (nothing when it is empty).
    pub fn end_block(&mut self) {
        if self.open_runs() > 0 {
            self.block_ends.push(self.runs.len() as u32);
        }
    }

    /// Ends the current block and stage (nothing when the stage is empty).
    pub fn end_stage(&mut self) {
        self.end_block();
        let open = self.block_ends.len() - self.stage_ends.last().map_or(0, |&e| e as usize);
        if open > 0 {
            self.stage_ends.push(self.block_ends.len() as u32);
        }
    }

    /// Indices listed.
    pub fn len(&self) -> u64 {
        self.runs.iter().map(|r| r.len as u64).sum()
    }

    /// True when no index is listed.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Every index in sweep order (for tests and tools: as long as the index).
    pub fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.runs.iter().flat_map(|r| (0..r.len).map(|j| r.at(j)))
    }

    /// Bytes the order takes, with the pieces the solver cuts it into.
    pub fn bytes(&self) -> u64 {
        let runs = self.runs.len() as u64;
        let pieces = runs + self.len() / CHUNK as u64 + 1;
        runs * std::mem::size_of::<Run>() as u64
            + (self.block_ends.len() + self.stage_ends.len()) as u64 * 4
            + pieces * std::mem::size_of::<Piece>() as u64
            + self.block_ends.len() as u64 * 16
    }
}

/// A two-player game with dice whose decision positions have a dense index, solved
/// from its rules ([`solve`]).
///
/// Positions with the same index must have the same value for the side to move
/// (a game whose seats play alike may index a position and its mirror with the
/// seats swapped alike, as Pig does). Chance nodes and finished games have no
/// index: the solver expands them.
pub trait ChanceIndex: Game {
    /// How many indices there are.
    fn index_len(&self) -> usize;
    /// The index of a decision position, `None` for chance nodes, finished games
    /// and positions outside the table.
    fn index_of(&self, state: &Self::State) -> Option<usize>;
    /// A decision position with this index (`index < index_len()`).
    fn state_at(&self, index: usize) -> Self::State;
    /// The order of the sweeps (see [`SweepOrder`]); the blocks of a stage must
    /// read only their own indices and those of earlier stages.
    fn sweep_order(&self) -> SweepOrder;
}

/// Value iteration over a dense index whose equations the caller writes: the
/// solver sweeps [`DenseChance::order`] and sets each index to its
/// [`DenseChance::backup`] until no value moves by more than the tolerance.
pub trait DenseChance: Sync {
    /// Buffers one worker reuses from one backup to the next.
    type Scratch: Default;
    /// What is being solved, in words ("the exact table of ..."), for a refusal.
    fn what(&self) -> String;
    /// How many indices there are.
    fn index_len(&self) -> usize;
    /// The order of the sweeps (see [`SweepOrder`]); the blocks of a stage must
    /// read only their own indices and those of earlier stages.
    fn order(&self) -> SweepOrder;
    /// Every value before the first sweep.
    fn initial_value(&self) -> f64 {
        0.5
    }
    /// The new value of `index` from the current `values` (an index that stands
    /// for no position may return its own value, so it never changes).
    fn backup(
        &self,
        index: usize,
        values: Values<'_>,
        scratch: &mut Self::Scratch,
    ) -> Result<f64, ChanceSolveError>;
    /// Sweeps indices `from..to` of `run` in place, in order: each set to its
    /// [`DenseChance::backup`] from the values as they are then (so later ones read
    /// the earlier ones' new values). Returns the largest change. A game overrides
    /// it only to share work among the indices of a run (Auto120: where the row its
    /// moves read lies), doing exactly what the default does.
    fn sweep_run(
        &self,
        run: Run,
        from: u32,
        to: u32,
        values: Values<'_>,
        scratch: &mut Self::Scratch,
    ) -> Result<f64, ChanceSolveError> {
        let mut change = 0f64;
        for j in from..to {
            let i = run.at(j);
            let v = self.backup(i, values, scratch)?;
            change = change.max((v - values.get(i)).abs());
            values.set(i, v);
        }
        Ok(change)
    }
}

/// The values of a solve in progress, read by [`DenseChance::backup`].
#[derive(Clone, Copy)]
pub struct Values<'a>(&'a [AtomicU64]);

impl Values<'_> {
    /// The current value of `index` (`index` below the table's length).
    #[inline]
    pub fn get(self, index: usize) -> f64 {
        f64::from_bits(self.0[index].load(Ordering::Relaxed))
    }

    /// Sets the value of `index` (`index` below the table's length): only
    /// [`DenseChance::sweep_run`] does, for the indices of its run.
    #[inline]
    pub fn set(self, index: usize, value: f64) {
        self.0[index].store(value.to_bits(), Ordering::Relaxed)
    }

    /// How many values.
    pub fn len(self) -> usize {
        self.0.len()
    }

    /// True when there are none.
    pub fn is_empty(self) -> bool {
        self.0.is_empty()
    }
}

/// Why a solve was refused or stopped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ChanceSolveError {
    /// The budget refused it up front, or it was cancelled or ran out of time.
    #[error("{0}")]
    Budget(#[from] BudgetError),
    /// The solver works for two seats only.
    #[error("the exact solver of dice games needs a game for two players")]
    NotTwoPlayers,
    /// The game's order does not list every index exactly once, or its blocks
    /// and stages do not fit together.
    #[error("the game's order of positions is not a list of every position once: {0}")]
    BadOrder(String),
    /// A move leads to a decision position without an index.
    #[error("a position reached by a move has no place in the table: {0}")]
    Unindexed(String),
    /// Chance nodes nested deeper than [`MAX_CHANCE_DEPTH`].
    #[error("chance follows chance more than {MAX_CHANCE_DEPTH} times after one move")]
    TooDeep,
}

/// What a solve did.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Convergence {
    /// Decision positions in the table.
    pub positions: u64,
    /// Stages, blocks.
    pub stages: u64,
    /// Blocks.
    pub blocks: u64,
    /// The most sweeps any block needed.
    pub sweeps: u32,
    /// Sweeps of all blocks together.
    pub block_sweeps: u64,
    /// The largest change of a value in the last sweep of any block.
    pub max_change: f64,
    /// The tolerance asked for.
    pub tolerance: f64,
    /// True when every block's last change was within the tolerance.
    pub converged: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Bytes of the values and the order at their largest.
    pub peak_bytes: u64,
    /// Threads of the pool the solve ran on.
    pub threads: usize,
}

/// The solved table: the chance the side to move wins, per index.
pub struct ChanceSolution<G: ChanceIndex> {
    game: G,
    values: Vec<f64>,
    convergence: Convergence,
}

/// What [`iterate`] found: every value, how it converged, and each block's sweeps.
#[derive(Clone, Debug)]
pub struct Iterated {
    /// The value of every index.
    pub values: Vec<f64>,
    /// The solve's figures.
    pub convergence: Convergence,
    /// Sweeps of each block, in the order's order.
    pub block_sweeps: Vec<u32>,
}

/// Bytes a solve of `len` indices in `order` needs at its peak: the values
/// (8 bytes each) and the order.
pub fn estimate_bytes(len: usize, order: &SweepOrder) -> u64 {
    len as u64 * 8 + order.bytes()
}

/// Solves `game` to `tolerance` under `budget` from its rules: refused up front
/// when the estimate ([`estimate_bytes`]) exceeds its memory, stopped at its
/// deadline or when it is cancelled (checked at every sweep of every block).
/// `progress` gets the fraction of stages done.
pub fn solve<G: ChanceIndex>(
    game: &G,
    tolerance: f64,
    budget: &Budget,
    progress: &dyn Fn(f64),
) -> Result<ChanceSolution<G>, ChanceSolveError> {
    if game.seats().len() != 2 {
        return Err(ChanceSolveError::NotTwoPlayers);
    }
    let done = iterate(&ByRules(game), tolerance, budget, progress)?;
    Ok(ChanceSolution {
        game: game.clone(),
        values: done.values,
        convergence: done.convergence,
    })
}

/// A [`ChanceIndex`] game's equations, worked out from its rules.
struct ByRules<'a, G>(&'a G);

impl<G: ChanceIndex> DenseChance for ByRules<'_, G> {
    type Scratch = Scratch<G>;

    fn what(&self) -> String {
        format!(
            "the exact table of {} ({} positions)",
            G::NAME,
            self.0.index_len()
        )
    }

    fn index_len(&self) -> usize {
        self.0.index_len()
    }

    fn order(&self) -> SweepOrder {
        self.0.sweep_order()
    }

    fn backup(
        &self,
        index: usize,
        values: Values<'_>,
        scratch: &mut Scratch<G>,
    ) -> Result<f64, ChanceSolveError> {
        backup(self.0, &self.0.state_at(index), values, scratch)
    }
}

/// A stretch of one run that one task sweeps: indices `from..to` of run `run`.
#[derive(Clone, Copy, Debug)]
struct Piece {
    run: u32,
    from: u32,
    to: u32,
}

/// The tasks of each block: `pieces` cut from the runs, grouped in tasks of at
/// least [`CHUNK`] indices (`task_ends` in `pieces`), tasks in parts (`part_tasks`
/// in `task_ends`), parts in blocks (`block_parts` in `part_tasks`).
struct Tasks {
    pieces: Vec<Piece>,
    task_ends: Vec<u32>,
    part_tasks: Vec<u32>,
    block_parts: Vec<u32>,
}

impl Tasks {
    fn cut(order: &SweepOrder) -> Tasks {
        let mut t = Tasks {
            pieces: Vec::new(),
            task_ends: Vec::new(),
            part_tasks: Vec::new(),
            block_parts: Vec::with_capacity(order.block_ends.len()),
        };
        let mut run = 0usize;
        let mut parts = order.part_ends.iter().peekable();
        for &end in &order.block_ends {
            let mut cells = 0usize;
            for (r, ru) in order.runs.iter().enumerate().take(end as usize).skip(run) {
                while parts.next_if(|&&p| p as usize <= r).is_some() {
                    // A part ends before run `r`: close its last task and the part.
                    if cells > 0 {
                        t.task_ends.push(t.pieces.len() as u32);
                        cells = 0;
                    }
                    if t.part_tasks.last().copied().unwrap_or(0) < t.task_ends.len() as u32 {
                        t.part_tasks.push(t.task_ends.len() as u32);
                    }
                }
                // The end of the part run `r` is in: swept in order (one task)
                // when the order says its indices read each other.
                let part_end = parts.peek().map_or(end, |&&p| p.min(end));
                let in_order = order.in_order_ends.contains(&part_end);
                let mut from = 0u32;
                while from < ru.len {
                    let to = ru.len.min(from.saturating_add(CHUNK as u32));
                    t.pieces.push(Piece {
                        run: r as u32,
                        from,
                        to,
                    });
                    cells += (to - from) as usize;
                    from = to;
                    if cells >= CHUNK && !in_order {
                        t.task_ends.push(t.pieces.len() as u32);
                        cells = 0;
                    }
                }
            }
            if cells > 0 {
                t.task_ends.push(t.pieces.len() as u32);
            }
            if t.part_tasks.last().copied().unwrap_or(0) < t.task_ends.len() as u32 {
                t.part_tasks.push(t.task_ends.len() as u32);
            }
            run = end as usize;
            t.block_parts.push(t.part_tasks.len() as u32);
        }
        t
    }

    /// The parts of block `b`, each the pieces of its tasks.
    fn of_block(&self, b: usize) -> Vec<Vec<&[Piece]>> {
        let before = |ends: &[u32], i: usize| if i == 0 { 0 } else { ends[i - 1] as usize };
        (before(&self.block_parts, b)..self.block_parts[b] as usize)
            .map(|p| {
                (before(&self.part_tasks, p)..self.part_tasks[p] as usize)
                    .map(|t| &self.pieces[before(&self.task_ends, t)..self.task_ends[t] as usize])
                    .collect()
            })
            .collect()
    }
}

/// Solves the equations `d` gives to `tolerance` under `budget`: refused up front
/// when the values and the order exceed its memory, stopped at its deadline or
/// when it is cancelled (checked at every sweep of every block). `progress` gets
/// the fraction of stages done.
pub fn iterate<D: DenseChance>(
    d: &D,
    tolerance: f64,
    budget: &Budget,
    progress: &dyn Fn(f64),
) -> Result<Iterated, ChanceSolveError> {
    let began = Instant::now();
    let len = d.index_len();
    // The values first (the bulk), so a table far too large is refused before its
    // order is even made.
    budget.fits(&d.what(), len as u64 * 8)?;
    budget.check()?;
    let order = d.order();
    let peak = estimate_bytes(len, &order);
    budget.fits(&d.what(), peak)?;
    check_order(&order, len)?;
    let tasks = Tasks::cut(&order);
    let init = d.initial_value().to_bits();
    let values: Vec<AtomicU64> = (0..len).map(|_| AtomicU64::new(init)).collect();
    let failure: Mutex<Option<ChanceSolveError>> = Mutex::new(None);
    let stop = AtomicBool::new(false);
    let mut conv = Convergence {
        positions: len as u64,
        stages: order.stage_ends.len() as u64,
        blocks: order.block_ends.len() as u64,
        tolerance,
        converged: true,
        peak_bytes: peak,
        threads: rayon::current_num_threads(),
        ..Convergence::default()
    };
    let mut block_sweeps = Vec::with_capacity(order.block_ends.len());
    let fail = |e: ChanceSolveError| {
        stop.store(true, Ordering::Relaxed);
        let mut slot = failure.lock().unwrap_or_else(|p| p.into_inner());
        slot.get_or_insert(e);
    };
    let mut block_start = 0usize;
    for (s, &stage_end) in order.stage_ends.iter().enumerate() {
        let blocks = block_start..stage_end as usize;
        block_start = stage_end as usize;
        let sweep_block = |b: usize| -> BlockResult {
            let parts = tasks.of_block(b);
            sweep_to_convergence(d, &order.runs, &parts, &values, tolerance, budget, &stop)
                .unwrap_or_else(|e| {
                    fail(e);
                    BlockResult::default()
                })
        };
        let results: Vec<BlockResult> = if blocks.len() == 1 {
            vec![sweep_block(blocks.start)]
        } else {
            blocks.into_par_iter().map(sweep_block).collect()
        };
        if stop.load(Ordering::Relaxed) {
            break;
        }
        for r in results {
            conv.sweeps = conv.sweeps.max(r.sweeps);
            conv.block_sweeps += r.sweeps as u64;
            conv.max_change = conv.max_change.max(r.change);
            conv.converged &= r.change <= tolerance;
            block_sweeps.push(r.sweeps);
        }
        progress((s + 1) as f64 / order.stage_ends.len().max(1) as f64);
    }
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    conv.seconds = began.elapsed().as_secs_f64();
    Ok(Iterated {
        // Same size, so collected in place: no second table at the peak.
        values: values
            .into_iter()
            .map(|v| f64::from_bits(v.into_inner()))
            .collect(),
        convergence: conv,
        block_sweeps,
    })
}

fn check_order(order: &SweepOrder, len: usize) -> Result<(), ChanceSolveError> {
    let bad = |why: &str| Err(ChanceSolveError::BadOrder(why.into()));
    if order.len() != len as u64 {
        return bad("it does not have one entry per position");
    }
    let ascending = |v: &[u32], last: usize| {
        v.first().is_some_and(|&f| f > 0)
            && v.windows(2).all(|w| w[0] < w[1])
            && v.last().map(|&e| e as usize) == Some(last)
    };
    if len > 0 && !ascending(&order.block_ends, order.runs.len()) {
        return bad("the blocks do not end in order at the last run");
    }
    if len > 0 && !ascending(&order.stage_ends, order.block_ends.len()) {
        return bad("the stages do not end in order at the last block");
    }
    let runs = order.runs.len() as u32;
    if !order.part_ends.windows(2).all(|w| w[0] < w[1]) || order.part_ends.iter().any(|&e| e > runs)
    {
        return bad("the parts of blocks do not end in order");
    }
    // One bit per index: 1/64 of the values, made and dropped before them.
    let mut seen = vec![0u64; len.div_ceil(64)];
    for run in &order.runs {
        if run.len == 0 || run.last_within(len).is_none() {
            return bad("a position is out of range");
        }
        for j in 0..run.len {
            let i = run.at(j);
            let (word, bit) = (i / 64, 1u64 << (i % 64));
            if seen[word] & bit != 0 {
                return bad("a position is listed twice");
            }
            seen[word] |= bit;
        }
    }
    Ok(())
}

#[derive(Clone, Copy, Debug, Default)]
struct BlockResult {
    sweeps: u32,
    change: f64,
}

/// Buffers of one worker, one level per nesting of chance nodes.
pub struct Scratch<G: Game> {
    moves: Vec<G::Move>,
    outcomes: Vec<Vec<(G::Move, f64)>>,
}

impl<G: Game> Default for Scratch<G> {
    fn default() -> Self {
        Scratch {
            moves: Vec::new(),
            outcomes: (0..MAX_CHANCE_DEPTH).map(|_| Vec::new()).collect(),
        }
    }
}

fn sweep_to_convergence<D: DenseChance>(
    d: &D,
    runs: &[Run],
    parts: &[Vec<&[Piece]>],
    values: &[AtomicU64],
    tolerance: f64,
    budget: &Budget,
    stop: &AtomicBool,
) -> Result<BlockResult, ChanceSolveError> {
    let mut scratch = D::Scratch::default();
    let mut result = BlockResult::default();
    while result.sweeps < MAX_SWEEPS {
        if stop.load(Ordering::Relaxed) {
            return Ok(result);
        }
        budget.check()?;
        let mut change = 0f64;
        for tasks in parts {
            let c = match tasks.as_slice() {
                [one] => sweep(d, runs, one, values, &mut scratch)?,
                _ => tasks
                    .par_iter()
                    .map(|task| sweep(d, runs, task, values, &mut D::Scratch::default()))
                    .try_reduce(|| 0.0, |a, b| Ok(a.max(b)))?,
            };
            change = change.max(c);
        }
        result.sweeps += 1;
        result.change = change;
        if change <= tolerance {
            break;
        }
    }
    Ok(result)
}

/// One Gauss-Seidel sweep over the pieces of one task; the largest change.
fn sweep<D: DenseChance>(
    d: &D,
    runs: &[Run],
    pieces: &[Piece],
    values: &[AtomicU64],
    scratch: &mut D::Scratch,
) -> Result<f64, ChanceSolveError> {
    let mut change = 0f64;
    for p in pieces {
        let c = d.sweep_run(runs[p.run as usize], p.from, p.to, Values(values), scratch)?;
        change = change.max(c);
    }
    Ok(change)
}

/// `max over moves` of the mover's chance after each move.
fn backup<G: ChanceIndex>(
    game: &G,
    state: &G::State,
    values: Values<'_>,
    scratch: &mut Scratch<G>,
) -> Result<f64, ChanceSolveError> {
    let Turn::Move(mover) = game.turn(state) else {
        return Err(ChanceSolveError::Unindexed(format!("{state:?}")));
    };
    scratch.moves.clear();
    game.legal_moves(state, &mut scratch.moves);
    let mut best = f64::NEG_INFINITY;
    for &mv in &scratch.moves {
        let mut next = state.clone();
        game.play_unchecked(&mut next, mv);
        let w = worth(
            game,
            &next,
            mover,
            &|i| values.get(i),
            &mut scratch.outcomes,
        )?;
        best = best.max(w);
    }
    if best == f64::NEG_INFINITY {
        return Err(ChanceSolveError::Unindexed(format!(
            "{state:?} has no move"
        )));
    }
    Ok(best)
}

/// The chance that `mover` wins from `state` (any kind of node), reading decision
/// positions' values through `value`.
fn worth<G: ChanceIndex>(
    game: &G,
    state: &G::State,
    mover: Seat,
    value: &dyn Fn(usize) -> f64,
    outcomes: &mut [Vec<(G::Move, f64)>],
) -> Result<f64, ChanceSolveError> {
    match game.turn(state) {
        Turn::Over(Outcome::Win(w)) => Ok(if w == mover { 1.0 } else { 0.0 }),
        Turn::Over(_) => Ok(0.5),
        Turn::Move(seat) => {
            let i = game
                .index_of(state)
                .filter(|&i| i < game.index_len())
                .ok_or_else(|| ChanceSolveError::Unindexed(format!("{state:?}")))?;
            let v = value(i);
            Ok(if seat == mover { v } else { 1.0 - v })
        }
        Turn::Chance => {
            let (here, deeper) = outcomes
                .split_first_mut()
                .ok_or(ChanceSolveError::TooDeep)?;
            here.clear();
            game.chance_outcomes(state, here);
            let mut sum = 0.0;
            for &(mv, p) in here.iter() {
                let mut next = state.clone();
                game.play_unchecked(&mut next, mv);
                sum += p * worth(game, &next, mover, value, deeper)?;
            }
            Ok(sum)
        }
    }
}

/// A table of values in [0, 1] kept as 4-byte fixed point (resolution 2.3e-10),
/// two to a word: half the memory of the 8-byte values a solve iterates in, for a
/// table kept for the rest of the process.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FixedTable {
    words: Vec<u64>,
    len: usize,
}

impl FixedTable {
    /// The fixed-point form of a value (clamped to [0, 1]).
    #[inline]
    pub fn to_fixed(v: f64) -> u32 {
        (v.clamp(0.0, 1.0) * u32::MAX as f64).round() as u32
    }

    /// The value of a fixed-point number.
    #[inline]
    pub fn from_fixed(x: u32) -> f64 {
        x as f64 / u32::MAX as f64
    }

    /// The table of `values`, made in their own memory (no second table at the
    /// peak): value `i` goes to the half-word `i` of the words, which is never one
    /// still to be read.
    pub fn from_values(values: Vec<f64>) -> FixedTable {
        let len = values.len();
        // Same size, so collected in place.
        let mut words: Vec<u64> = values.into_iter().map(f64::to_bits).collect();
        for i in 0..len {
            let x = u64::from(Self::to_fixed(f64::from_bits(words[i])));
            let w = &mut words[i / 2];
            *w = if i % 2 == 0 {
                (*w & !0xffff_ffff) | x
            } else {
                (*w & 0xffff_ffff) | x << 32
            };
        }
        words.truncate(len.div_ceil(2));
        if len % 2 == 1 {
            // The unused half of the last word still holds the last value's bits.
            if let Some(w) = words.last_mut() {
                *w &= 0xffff_ffff;
            }
        }
        words.shrink_to_fit();
        FixedTable { words, len }
    }

    /// A table of fixed-point numbers (read back from a file).
    pub fn from_raw(raw: impl IntoIterator<Item = u32>) -> FixedTable {
        let mut words = Vec::new();
        let mut len = 0usize;
        for x in raw {
            if len % 2 == 0 {
                words.push(u64::from(x));
            } else if let Some(w) = words.last_mut() {
                *w |= u64::from(x) << 32;
            }
            len += 1;
        }
        words.shrink_to_fit();
        FixedTable { words, len }
    }

    /// How many values.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the table keeps.
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    /// The fixed-point number at `index` (`index < len`).
    #[inline]
    pub fn raw(&self, index: usize) -> u32 {
        (self.words[index / 2] >> (32 * (index % 2))) as u32
    }

    /// The value at `index`, `None` beyond the table.
    #[inline]
    pub fn get(&self, index: usize) -> Option<f64> {
        (index < self.len).then(|| Self::from_fixed(self.raw(index)))
    }

    /// The fixed-point numbers from `from` to `to` (exclusive, within the table).
    pub fn raw_range(&self, from: usize, to: usize) -> impl Iterator<Item = u32> + '_ {
        (from..to.min(self.len)).map(|i| self.raw(i))
    }
}

impl<G: ChanceIndex> ChanceSolution<G> {
    /// What the solve did.
    pub fn convergence(&self) -> &Convergence {
        &self.convergence
    }

    /// Bytes the table keeps.
    pub fn memory_bytes(&self) -> u64 {
        self.values.len() as u64 * 8
    }

    /// Every decision position's value, by index (to keep the table on disk).
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// A table kept earlier ([`ChanceSolution::values`] and its convergence),
    /// when it has exactly one value per index of `game`.
    pub fn from_parts(game: G, values: Vec<f64>, convergence: Convergence) -> Option<Self> {
        (values.len() == game.index_len()).then_some(ChanceSolution {
            game,
            values,
            convergence,
        })
    }

    /// The value of a decision position by its index.
    pub fn value_at(&self, index: usize) -> Option<f64> {
        self.values.get(index).copied()
    }

    /// The chance that `seat` wins from `state` with best play by both sides,
    /// at any kind of node (a chance node is the expectation over its outcomes;
    /// `None` when a position reached has no index).
    pub fn chance_for(&self, state: &G::State, seat: Seat) -> Option<f64> {
        let mut outcomes: Vec<Vec<(G::Move, f64)>> =
            (0..MAX_CHANCE_DEPTH).map(|_| Vec::new()).collect();
        worth(
            &self.game,
            state,
            seat,
            &|i| self.values.get(i).copied().unwrap_or(0.5),
            &mut outcomes,
        )
        .ok()
    }

    /// At a decision position: every legal move with the mover's chance to win
    /// after it, best first (ties in the game's order). Empty elsewhere.
    pub fn move_values(&self, state: &G::State) -> Vec<(G::Move, f64)> {
        let Turn::Move(mover) = self.game.turn(state) else {
            return Vec::new();
        };
        let mut moves = Vec::new();
        self.game.legal_moves(state, &mut moves);
        let mut out: Vec<(G::Move, f64)> = moves
            .into_iter()
            .filter_map(|mv| {
                let mut next = state.clone();
                self.game.play_unchecked(&mut next, mv);
                self.chance_for(&next, mover).map(|p| (mv, p))
            })
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::{Game, Turn};

    /// A race to `goal` by one die: on a turn, roll (a 1 scores nothing, else the
    /// roll is added to your score) or step (one point, surely); either passes the die. Values by a different route: the
    /// same equations, solved by plain Jacobi iteration over a hash map.
    #[derive(Clone)]
    struct Race {
        goal: u8,
    }

    /// (mine, theirs, rolling, side): the mover's and the other's scores.
    type S = (u8, u8, bool, usize);

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    enum M {
        Roll,
        Pass,
        Die(u8),
    }

    impl Game for Race {
        type State = S;
        type Move = M;
        const NAME: &'static str = "race";
        fn seats(&self) -> &'static [&'static str] {
            &["A", "B"]
        }
        fn initial_state(&self) -> S {
            (0, 0, false, 0)
        }
        fn turn(&self, s: &S) -> Turn {
            if s.0 >= self.goal {
                Turn::Over(Outcome::Win(s.3))
            } else if s.2 {
                Turn::Chance
            } else {
                Turn::Move(s.3)
            }
        }
        fn legal_moves(&self, s: &S, out: &mut Vec<M>) {
            match self.turn(s) {
                Turn::Over(_) => {}
                Turn::Chance => out.extend((1..=6).map(M::Die)),
                Turn::Move(_) => out.extend([M::Roll, M::Pass]),
            }
        }
        fn play_unchecked(&self, s: &mut S, mv: M) {
            match mv {
                M::Roll => s.2 = true,
                M::Die(1) => *s = (s.1, s.0, false, 1 - s.3),
                M::Pass | M::Die(_) => {
                    let d = if let M::Die(d) = mv { d } else { 1 };
                    s.0 += d;
                    s.2 = false;
                    if s.0 < self.goal {
                        *s = (s.1, s.0, false, 1 - s.3);
                    }
                }
            }
        }
    }

    impl ChanceIndex for Race {
        fn index_len(&self) -> usize {
            self.goal as usize * self.goal as usize
        }
        fn index_of(&self, s: &S) -> Option<usize> {
            (!s.2 && s.0 < self.goal && s.1 < self.goal)
                .then(|| s.0 as usize * self.goal as usize + s.1 as usize)
        }
        fn state_at(&self, i: usize) -> S {
            let g = self.goal as usize;
            ((i / g) as u8, (i % g) as u8, false, 0)
        }
        fn sweep_order(&self) -> SweepOrder {
            SweepOrder::whole(self.index_len())
        }
    }

    fn jacobi(goal: u8) -> Vec<f64> {
        let g = goal as usize;
        let mut v: Vec<f64> = vec![0.5; g * g];
        for _ in 0..10_000 {
            let mut next = v.clone();
            for a in 0..g {
                for b in 0..g {
                    let other = |x: usize, y: usize| 1.0 - v[x * g + y];
                    let pass: f64 = if a + 1 >= g { 1.0 } else { other(b, a + 1) };
                    let mut roll = other(b, a) / 6.0;
                    for d in 2..=6 {
                        roll += if a + d >= g { 1.0 } else { other(b, a + d) } / 6.0;
                    }
                    next[a * g + b] = pass.max(roll);
                }
            }
            let change = next
                .iter()
                .zip(&v)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f64::max);
            v = next;
            if change < 1e-15 {
                break;
            }
        }
        v
    }

    #[test]
    fn agrees_with_a_plain_jacobi_iteration() {
        let game = Race { goal: 12 };
        let sol = solve(&game, 1e-14, &Budget::unlimited(), &|_| {}).unwrap();
        let want = jacobi(12);
        for (i, w) in want.iter().enumerate() {
            assert!((sol.value_at(i).unwrap() - w).abs() < 1e-10, "{i}");
        }
        assert!(sol.convergence().converged);
        assert!(sol.convergence().sweeps > 1);
        // The move values at the start: rolling beats passing.
        let mv = sol.move_values(&game.initial_state());
        assert_eq!(mv[0].0, M::Roll);
        assert!((mv[0].1 - want[0]).abs() < 1e-10);
    }

    #[test]
    fn refuses_what_the_budget_cannot_hold_and_stops_when_cancelled() {
        let game = Race { goal: 50 };
        let e = solve(&game, 1e-12, &Budget::new(1000), &|_| {}).err();
        assert!(matches!(
            e,
            Some(ChanceSolveError::Budget(BudgetError::Memory { .. }))
        ));
        let b = Budget::unlimited();
        b.cancel();
        let e = solve(&game, 1e-12, &b, &|_| {}).err();
        assert_eq!(e, Some(ChanceSolveError::Budget(BudgetError::Cancelled)));
    }

    #[test]
    fn a_broken_order_is_refused() {
        #[derive(Clone)]
        struct Broken(Race);
        impl Game for Broken {
            type State = S;
            type Move = M;
            const NAME: &'static str = "broken";
            fn seats(&self) -> &'static [&'static str] {
                self.0.seats()
            }
            fn initial_state(&self) -> S {
                self.0.initial_state()
            }
            fn turn(&self, s: &S) -> Turn {
                self.0.turn(s)
            }
            fn legal_moves(&self, s: &S, out: &mut Vec<M>) {
                self.0.legal_moves(s, out)
            }
            fn play_unchecked(&self, s: &mut S, mv: M) {
                self.0.play_unchecked(s, mv)
            }
        }
        impl ChanceIndex for Broken {
            fn index_len(&self) -> usize {
                self.0.index_len()
            }
            fn index_of(&self, s: &S) -> Option<usize> {
                self.0.index_of(s)
            }
            fn state_at(&self, i: usize) -> S {
                self.0.state_at(i)
            }
            fn sweep_order(&self) -> SweepOrder {
                // Index 0 twice, the last index never.
                let mut o = self.0.sweep_order();
                o.runs[0].len -= 1;
                o.runs.push(Run {
                    start: 0,
                    len: 1,
                    step: 1,
                });
                o.block_ends = vec![2];
                o
            }
        }
        let e = solve(
            &Broken(Race { goal: 5 }),
            1e-12,
            &Budget::unlimited(),
            &|_| {},
        )
        .err();
        assert!(matches!(e, Some(ChanceSolveError::BadOrder(_))));
    }
    #[test]
    fn pushed_indices_make_runs_and_blocks() {
        let mut o = SweepOrder::new();
        for i in [9, 6, 3, 0] {
            o.push(i);
        }
        o.push(10);
        o.push(11);
        o.end_block();
        o.push(1);
        o.end_stage();
        o.end_stage();
        assert_eq!(
            o.runs,
            vec![
                Run {
                    start: 9,
                    len: 4,
                    step: -3
                },
                Run {
                    start: 10,
                    len: 2,
                    step: 1
                },
                Run {
                    start: 1,
                    len: 1,
                    step: 1
                },
            ]
        );
        assert_eq!(o.block_ends, vec![2, 3]);
        assert_eq!(o.stage_ends, vec![2]);
        assert_eq!(o.indices().collect::<Vec<_>>(), vec![9, 6, 3, 0, 10, 11, 1]);
        // A run never reaches across a block's end.
        let mut o = SweepOrder::new();
        o.push(0);
        o.end_block();
        o.push(1);
        o.push(2);
        o.end_stage();
        assert_eq!(o.runs.len(), 2);
    }

    #[test]
    fn the_parts_of_a_block_are_swept_one_after_the_other() {
        let mut o = SweepOrder::new();
        o.push_run(0, 5000, 1);
        o.end_part();
        o.push_run(5000, 100, 1);
        o.end_block();
        o.push_run(5100, 10, 1);
        o.end_stage();
        assert_eq!(o.part_ends, vec![1]);
        assert_eq!(check_order(&o, 5110), Ok(()));
        let t = Tasks::cut(&o);
        let first = t.of_block(0);
        // Two parts: 5,000 positions in tasks of 4,096 and 904, then 100.
        assert_eq!(first.len(), 2);
        let sizes = |part: &Vec<&[Piece]>| -> Vec<u32> {
            part.iter()
                .map(|task| task.iter().map(|p| p.to - p.from).sum())
                .collect()
        };
        assert_eq!(sizes(&first[0]), vec![4096, 904]);
        assert_eq!(sizes(&first[1]), vec![100]);
        assert_eq!(t.of_block(1).len(), 1);
        o.part_ends = vec![3, 2];
        assert!(check_order(&o, 5110).is_err());
    }

    #[test]
    fn a_run_out_of_range_is_refused() {
        for run in [
            Run {
                start: 0,
                len: 5,
                step: 2,
            },
            Run {
                start: 3,
                len: 2,
                step: -4,
            },
            Run {
                start: 1,
                len: 0,
                step: 1,
            },
            Run {
                start: 0,
                len: 2,
                step: i64::MAX,
            },
        ] {
            let mut o = SweepOrder::new();
            o.runs.push(run);
            o.end_stage();
            assert!(check_order(&o, 5).is_err(), "{run:?}");
        }
        let mut o = SweepOrder::new();
        o.push_run(4, 5, -1);
        o.end_stage();
        assert_eq!(check_order(&o, 5), Ok(()));
    }

    /// The race's equations written by hand over its index (the way a game with a
    /// faster route than its rules uses the solver): the same values as from the
    /// rules, a layered order with one block per stage, and an initial value of 0.
    #[test]
    fn equations_written_by_hand_solve_alike() {
        struct Hand {
            g: usize,
        }
        impl DenseChance for Hand {
            type Scratch = ();
            fn what(&self) -> String {
                "the race".into()
            }
            fn index_len(&self) -> usize {
                self.g * self.g
            }
            fn order(&self) -> SweepOrder {
                // Stages by the sum of the scores, largest first: both moves keep
                // it or raise it.
                let mut o = SweepOrder::new();
                for sum in (0..2 * self.g - 1).rev() {
                    for a in 0..self.g {
                        if let Some(b) = sum.checked_sub(a).filter(|&b| b < self.g) {
                            o.push(a * self.g + b);
                        }
                    }
                    o.end_stage();
                }
                o
            }
            fn initial_value(&self) -> f64 {
                0.0
            }
            fn backup(&self, i: usize, v: Values<'_>, _: &mut ()) -> Result<f64, ChanceSolveError> {
                let (g, a, b) = (self.g, i / self.g, i % self.g);
                let other = |x: usize, y: usize| 1.0 - v.get(x * g + y);
                let pass: f64 = if a + 1 >= g { 1.0 } else { other(b, a + 1) };
                let mut roll = other(b, a) / 6.0;
                for d in 2..=6 {
                    roll += if a + d >= g { 1.0 } else { other(b, a + d) } / 6.0;
                }
                Ok(pass.max(roll))
            }
        }
        let hand = iterate(&Hand { g: 12 }, 1e-14, &Budget::unlimited(), &|_| {}).unwrap();
        let rules = solve(&Race { goal: 12 }, 1e-14, &Budget::unlimited(), &|_| {}).unwrap();
        for (i, (x, y)) in hand.values.iter().zip(rules.values()).enumerate() {
            assert!((x - y).abs() < 1e-12, "{i}: {x} {y}");
        }
        assert_eq!(hand.convergence.stages, 23);
        assert_eq!(hand.block_sweeps.len(), 23);
        assert!(hand.convergence.converged);
    }

    #[test]
    fn a_fixed_table_keeps_values_to_its_resolution() {
        let values: Vec<f64> = (0..1001).map(|i| i as f64 / 1000.0).collect();
        let table = FixedTable::from_values(values.clone());
        assert_eq!(table.len(), 1001);
        assert_eq!(table.bytes(), 501 * 8);
        for (i, v) in values.iter().enumerate() {
            assert!((table.get(i).unwrap() - v).abs() <= 0.5 / u32::MAX as f64 + 1e-16);
            assert_eq!(table.raw(i), FixedTable::to_fixed(*v));
        }
        assert_eq!(table.get(1001), None);
        assert_eq!(FixedTable::from_raw(table.raw_range(0, 1001)), table);
        assert_eq!(table.raw(1000), u32::MAX);
        assert_eq!(table.raw(0), 0);
    }
}
