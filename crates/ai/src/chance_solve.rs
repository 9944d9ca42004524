//! Exact solution of two-player games with dice by value iteration over a dense
//! index of the decision positions (Neller and Presser's method for Pig, "Optimal
//! Play of Two-Player Pig", 2004).
//!
//! The game numbers its decision positions `0..index_len()` ([`ChanceIndex`]) and
//! says in which order to solve them ([`SweepOrder`]): *stages* one after the
//! other, each made of *blocks* that read only themselves and earlier stages (so
//! the blocks of a stage are solved in parallel, on rayon's pool), each block swept
//! in place (Gauss-Seidel) in its given order until no value moved by more than the
//! tolerance. A game without such structure gives one stage of one block; a block
//! that large is swept in parallel chunks that read each other's latest values
//! (asynchronous value iteration converges to the same fixed point; only the number
//! of sweeps may then differ by one or two between runs).
//!
//! The value of a decision position is the chance that the side to move wins
//! (a draw counts one half) with best play by both sides:
//! `V(s) = max over moves m of W(s after m)`, where a chance node's `W` is the
//! expectation over [`Game::chance_outcomes`], a finished game's is its outcome for
//! the mover, and a decision position's is `V` when the mover is to move again and
//! `1 - V` when the other side is.

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
/// A block longer than this is swept in parallel chunks of this length.
const CHUNK: usize = 4096;

/// The order in which [`solve`] sweeps the index: every index exactly once,
/// grouped in blocks and the blocks in stages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SweepOrder {
    /// Every index once, block after block, each block in its sweep order.
    pub indices: Vec<u32>,
    /// The end (exclusive) of each block in `indices`.
    pub block_ends: Vec<u32>,
    /// The end (exclusive) of each stage in `block_ends`.
    pub stage_ends: Vec<u32>,
}

impl SweepOrder {
    /// One stage of one block: every index, in index order.
    pub fn whole(len: usize) -> SweepOrder {
        SweepOrder {
            indices: (0..len as u32).collect(),
            block_ends: vec![len as u32],
            stage_ends: vec![1],
        }
    }

    /// An upper bound of the bytes the order of `len` indices takes (one block per
    /// index at most, one stage per block at most).
    pub fn max_bytes(len: usize) -> u64 {
        len as u64 * 12
    }
}

/// A two-player game with dice whose decision positions have a dense index.
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

/// Bytes a solve of `len` indices needs at its peak: the values (8 bytes each)
/// and the order (at most 12 bytes each).
pub fn estimate_bytes(len: usize) -> u64 {
    len as u64 * 8 + SweepOrder::max_bytes(len)
}

/// Solves `game` to `tolerance` under `budget`: refused up front when the
/// estimate ([`estimate_bytes`]) exceeds its memory, stopped at its deadline or
/// when it is cancelled (checked at every sweep of every block). `progress` gets
/// the fraction of stages done.
pub fn solve<G: ChanceIndex>(
    game: &G,
    tolerance: f64,
    budget: &Budget,
    progress: &dyn Fn(f64),
) -> Result<ChanceSolution<G>, ChanceSolveError> {
    let began = Instant::now();
    if game.seats().len() != 2 {
        return Err(ChanceSolveError::NotTwoPlayers);
    }
    let len = game.index_len();
    let peak = estimate_bytes(len);
    budget.fits(
        &format!("the exact table of {} ({len} positions)", game.name()),
        peak,
    )?;
    budget.check()?;
    let order = game.sweep_order();
    check_order(&order, len)?;
    let values: Vec<AtomicU64> = (0..len).map(|_| AtomicU64::new(0.5f64.to_bits())).collect();
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
    let fail = |e: ChanceSolveError| {
        stop.store(true, Ordering::Relaxed);
        let mut slot = failure.lock().unwrap_or_else(|p| p.into_inner());
        slot.get_or_insert(e);
    };
    let mut block_start = 0usize;
    for (s, &stage_end) in order.stage_ends.iter().enumerate() {
        let blocks: Vec<(usize, usize)> = (block_start..stage_end as usize)
            .map(|b| {
                let from = if b == 0 {
                    0
                } else {
                    order.block_ends[b - 1] as usize
                };
                (from, order.block_ends[b] as usize)
            })
            .collect();
        block_start = stage_end as usize;
        let sweep_block = |&(from, to): &(usize, usize)| -> BlockResult {
            let slice = &order.indices[from..to];
            sweep_to_convergence(game, slice, &values, tolerance, budget, &stop).unwrap_or_else(
                |e| {
                    fail(e);
                    BlockResult::default()
                },
            )
        };
        let results: Vec<BlockResult> = if blocks.len() == 1 {
            vec![sweep_block(&blocks[0])]
        } else {
            blocks.par_iter().map(sweep_block).collect()
        };
        if stop.load(Ordering::Relaxed) {
            break;
        }
        for r in results {
            conv.sweeps = conv.sweeps.max(r.sweeps);
            conv.block_sweeps += r.sweeps as u64;
            conv.max_change = conv.max_change.max(r.change);
            conv.converged &= r.change <= tolerance;
        }
        progress((s + 1) as f64 / order.stage_ends.len().max(1) as f64);
    }
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    conv.seconds = began.elapsed().as_secs_f64();
    Ok(ChanceSolution {
        game: game.clone(),
        values: values
            .into_iter()
            .map(|v| f64::from_bits(v.into_inner()))
            .collect(),
        convergence: conv,
    })
}

fn check_order(order: &SweepOrder, len: usize) -> Result<(), ChanceSolveError> {
    let bad = |why: &str| Err(ChanceSolveError::BadOrder(why.into()));
    if order.indices.len() != len {
        return bad("it does not have one entry per position");
    }
    let mut seen = vec![false; len];
    for &i in &order.indices {
        match seen.get_mut(i as usize) {
            Some(s) if !*s => *s = true,
            Some(_) => return bad("a position is listed twice"),
            None => return bad("a position is out of range"),
        }
    }
    let ascending = |v: &[u32], last: usize| {
        v.windows(2).all(|w| w[0] < w[1]) && v.last().map(|&e| e as usize) == Some(last)
    };
    if len > 0 && !ascending(&order.block_ends, len) {
        return bad("the blocks do not end in order at the last position");
    }
    if len > 0 && !ascending(&order.stage_ends, order.block_ends.len()) {
        return bad("the stages do not end in order at the last block");
    }
    if order.block_ends.first() == Some(&0) || order.stage_ends.first() == Some(&0) {
        return bad("a block or stage is empty");
    }
    Ok(())
}

#[derive(Clone, Copy, Debug, Default)]
struct BlockResult {
    sweeps: u32,
    change: f64,
}

/// Buffers of one worker, one level per nesting of chance nodes.
struct Scratch<G: Game> {
    moves: Vec<G::Move>,
    outcomes: Vec<Vec<(G::Move, f64)>>,
}

impl<G: Game> Scratch<G> {
    fn new() -> Self {
        Scratch {
            moves: Vec::new(),
            outcomes: (0..MAX_CHANCE_DEPTH).map(|_| Vec::new()).collect(),
        }
    }
}

fn sweep_to_convergence<G: ChanceIndex>(
    game: &G,
    block: &[u32],
    values: &[AtomicU64],
    tolerance: f64,
    budget: &Budget,
    stop: &AtomicBool,
) -> Result<BlockResult, ChanceSolveError> {
    let mut scratch = Scratch::<G>::new();
    let mut result = BlockResult::default();
    while result.sweeps < MAX_SWEEPS {
        if stop.load(Ordering::Relaxed) {
            return Ok(result);
        }
        budget.check()?;
        let change = if block.len() > CHUNK {
            block
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut scratch = Scratch::<G>::new();
                    sweep(game, chunk, values, &mut scratch)
                })
                .try_reduce(|| 0.0, |a, b| Ok(a.max(b)))?
        } else {
            sweep(game, block, values, &mut scratch)?
        };
        result.sweeps += 1;
        result.change = change;
        if change <= tolerance {
            break;
        }
    }
    Ok(result)
}

/// One Gauss-Seidel sweep over `indices`; the largest change.
fn sweep<G: ChanceIndex>(
    game: &G,
    indices: &[u32],
    values: &[AtomicU64],
    scratch: &mut Scratch<G>,
) -> Result<f64, ChanceSolveError> {
    let mut change = 0f64;
    for &i in indices {
        let state = game.state_at(i as usize);
        let v = backup(game, &state, values, scratch)?;
        let old = f64::from_bits(values[i as usize].load(Ordering::Relaxed));
        change = change.max((v - old).abs());
        values[i as usize].store(v.to_bits(), Ordering::Relaxed);
    }
    Ok(change)
}

/// `max over moves` of the mover's chance after each move.
fn backup<G: ChanceIndex>(
    game: &G,
    state: &G::State,
    values: &[AtomicU64],
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
            &|i| f64::from_bits(values[i].load(Ordering::Relaxed)),
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
        fn name(&self) -> &'static str {
            "race"
        }
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
            fn name(&self) -> &'static str {
                "broken"
            }
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
                let mut o = self.0.sweep_order();
                o.indices[1] = 0;
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
}
