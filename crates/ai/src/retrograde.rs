//! Strong solution of a finite two-player game graph by retrograde analysis.
//!
//! Works on graphs with cycles (Mu Torere, Kono, Northcott): positions whose value
//! is never forced are draws. Positions are processed outward from the terminal ones
//! in order of remoteness, so a win is recorded with its *shortest* forced line and a
//! loss with its *longest* resistance — exactly what the perfect player needs.

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use serde::Serialize;
use std::collections::VecDeque;
use std::hash::{BuildHasher, Hash};
use std::time::Instant;
use tabula_core::{
    Budget, BudgetError, ExactAnalysis, Game, Graded, Oracle, Outcome, Seat, Turn, Value,
};
use thiserror::Error;

/// Why a game could not be solved by the generic solver.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SolveError {
    /// More positions are reachable than the limit allows.
    #[error("more than {0} positions are reachable: too large for the generic solver")]
    TooLarge(usize),
    /// The game has chance moves (dice): retrograde analysis needs a deterministic game.
    #[error("the game has chance moves; the retrograde solver needs a deterministic game")]
    Chance,
    /// The game is not for two players.
    #[error("the retrograde solver needs a two-player game")]
    NotTwoPlayer,
    /// The solve would not fit its memory budget, ran out of time or was cancelled.
    #[error(transparent)]
    Budget(#[from] BudgetError),
}

/// Bytes the solver needs per position, about: the list of states (with its growth
/// slack), the hash index over it (a position number and a control byte a slot,
/// growth slack), the child and parent edges (`branching` per position) and the
/// per-position arrays.
pub fn bytes_per_position(state_bytes: usize, heap_bytes: usize, branching: f64) -> f64 {
    let slot = (std::mem::size_of::<u32>() + 1) as f64;
    // Per position: mover and value bytes, child and parent starts, fill, pending,
    // remoteness and the queue (u32 each): about 26 bytes, 28 with slack.
    2.0 * slot + 2.0 * heap_bytes as f64 + 1.5 * state_bytes as f64 + 8.0 * branching + 28.0
}

/// The hash of a position for the solver's index.
fn hash_of<S: Hash>(state: &S) -> u64 {
    FxBuildHasher.hash_one(state)
}

/// Bytes of a hash table of `u32` slots holding up to `capacity` entries: a slot and
/// a control byte per bucket (buckets are a power of two, at most 7/8 full).
fn index_bytes(capacity: usize) -> usize {
    if capacity == 0 {
        return 0;
    }
    let buckets = (capacity.saturating_mul(8) / 7).next_power_of_two().max(4);
    buckets * (std::mem::size_of::<u32>() + 1) + 16
}

/// The memory a solve of `game` from `start` would need, about, when the game
/// bounds its positions ([`ExactAnalysis::position_bound`]); the branching is the start's.
pub fn estimate_bytes<G: ExactAnalysis>(game: &G, start: &G::State) -> Option<u64> {
    let bound = game.position_bound(start)?;
    let mut buf = Vec::new();
    game.legal_moves(start, &mut buf);
    let per = bytes_per_position(
        std::mem::size_of::<G::State>(),
        game.state_heap_bytes(start),
        buf.len().max(1) as f64,
    );
    Some((bound as f64 * per).min(u64::MAX as f64) as u64)
}

/// Counts and the start's value, as `tabula solve --json` reports them.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SolveStats {
    /// Positions reachable from the start, terminal ones included.
    pub positions: usize,
    /// Positions won for the side to move.
    pub wins: usize,
    /// Positions lost for the side to move.
    pub losses: usize,
    /// Drawn positions.
    pub draws: usize,
    /// Value and remoteness of the start.
    pub start: Graded,
    /// The largest remoteness of any won or lost position.
    pub max_remoteness: u32,
    /// Wall-clock time of the solve.
    pub seconds: f64,
}

const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;

/// The value and remoteness of every position reachable from a start.
///
/// Positions are kept once, in the order they were found; the index is a hash table
/// of position numbers into that list (not a map from positions), which halves the
/// memory of a table of small positions.
pub struct Solution<G: Game> {
    states: Vec<G::State>,
    index: HashTable<u32>,
    value: Vec<u8>,
    remoteness: Vec<u32>,
    stats: SolveStats,
}

impl<G: Game> Solution<G> {
    /// About how many bytes the solution holds: its positions, their index (a hash
    /// table of position numbers, buckets counted as allocated) and its value tables.
    /// Heap memory inside positions (games whose positions are not flat) is not seen.
    pub fn memory_bytes(&self) -> u64 {
        (self.states.capacity() * std::mem::size_of::<G::State>()
            + index_bytes(self.index.capacity())
            + self.value.capacity()
            + self.remoteness.capacity() * std::mem::size_of::<u32>()) as u64
    }
}

/// Solving needs the game's size facts ([`ExactAnalysis`]) for its memory estimate.
impl<G: ExactAnalysis> Solution<G> {
    /// Solves every position reachable from `start`, refusing graphs of more than
    /// `max_positions` positions.
    pub fn solve(game: &G, start: &G::State, max_positions: usize) -> Result<Self, SolveError> {
        Self::solve_with_progress(game, start, max_positions, &|_| {})
    }

    /// As [`Solution::solve`], reporting progress fractions (rough: discovery, then values).
    pub fn solve_with_progress(
        game: &G,
        start: &G::State,
        max_positions: usize,
        progress: &dyn Fn(f64),
    ) -> Result<Self, SolveError> {
        Self::solve_within(game, start, max_positions, &Budget::default(), progress)
    }

    /// As [`Solution::solve_with_progress`], within `budget`: a graph whose estimate
    /// ([`estimate_bytes`]) exceeds the memory budget is refused before anything is
    /// built; otherwise memory, the deadline and the cancel flag are checked as the
    /// graph grows. Progress fractions never go backwards.
    pub fn solve_within(
        game: &G,
        start: &G::State,
        max_positions: usize,
        budget: &Budget,
        progress: &dyn Fn(f64),
    ) -> Result<Self, SolveError> {
        if game.seats().len() != 2 {
            return Err(SolveError::NotTwoPlayer);
        }
        budget.check()?;
        let what = format!("solving every position of {}", G::NAME);
        if let Some(bytes) = estimate_bytes(game, start) {
            budget.fits(&what, bytes)?;
        }
        let shown = std::cell::Cell::new(0.0f64);
        let progress = |f: f64| {
            if f > shown.get() {
                shown.set(f);
                progress(f);
            }
        };
        let began = Instant::now();
        let limits = Limits {
            max_positions,
            budget,
            what: &what,
            progress: &progress,
        };
        let graph = Graph::discover(game, start, &limits)?;
        let Graph {
            states,
            index,
            mover,
            child_start,
            children,
            mut value,
        } = graph;
        let parents = Parents::of(&children, &child_start, mover.len());
        // The backward pass needs only each position's count of unresolved
        // children: the forward edges go before its arrays are made.
        drop(children);
        let pending: Vec<u32> = child_start.windows(2).map(|w| w[1] - w[0]).collect();
        drop(child_start);
        let remoteness = propagate(&mut value, &mover, pending, &parents, &limits)?;
        drop(parents);
        let stats = tally(&mut value, &remoteness, began);
        progress(1.0);
        Ok(Solution {
            states,
            index,
            value,
            remoteness,
            stats,
        })
    }
}

/// What bounds a solve and where it tells of progress.
struct Limits<'a> {
    max_positions: usize,
    budget: &'a Budget,
    /// The solve in words, for the budget's refusals.
    what: &'a str,
    /// Progress fractions: the forward pass is the first half.
    progress: &'a dyn Fn(f64),
}

/// The positions reachable from the start, as the forward pass finds them.
struct Graph<G: Game> {
    /// In the order found; the start is position 0.
    states: Vec<G::State>,
    /// Position numbers into `states`, by the position's hash.
    index: HashTable<u32>,
    /// The seat to move in each position (at a position where the game is over:
    /// the opponent of whoever moved into it).
    mover: Vec<u8>,
    /// `children[child_start[i]..child_start[i + 1]]` are position `i`'s children.
    child_start: Vec<u32>,
    children: Vec<u32>,
    /// Known at the ends of the game, `UNKNOWN` elsewhere (one byte a position
    /// rather than a whole `Option<Outcome>`).
    value: Vec<u8>,
}

impl<G: ExactAnalysis> Graph<G> {
    /// The forward pass: every position reachable from `start`, with its mover
    /// and children.
    fn discover(game: &G, start: &G::State, limits: &Limits<'_>) -> Result<Self, SolveError> {
        let bound = game.position_bound(start).unwrap_or(0) as f64;
        let state_bytes = std::mem::size_of::<G::State>();
        let heap_bytes = game.state_heap_bytes(start);
        let mut graph = Graph::<G> {
            states: vec![start.clone()],
            index: HashTable::new(),
            mover: vec![0],
            child_start: vec![0],
            children: Vec::new(),
            value: vec![UNKNOWN],
        };
        let states = &graph.states;
        graph
            .index
            .insert_unique(hash_of(start), 0, |&i| hash_of(&states[i as usize]));
        let mut buf = Vec::new();
        let mut next = 0usize;
        while next < graph.states.len() {
            let state = graph.states[next].clone();
            match game.turn(&state) {
                Turn::Chance => return Err(SolveError::Chance),
                Turn::Over(outcome) => graph.ended(next, outcome),
                Turn::Move(seat) => {
                    graph.mover[next] = seat as u8;
                    buf.clear();
                    game.legal_moves(&state, &mut buf);
                    let first = graph.children.len();
                    for &mv in &buf {
                        let mut child = state.clone();
                        game.play_unchecked(&mut child, mv);
                        let id = graph.number(child, seat, limits.max_positions)?;
                        if !graph.children[first..].contains(&id) {
                            graph.children.push(id);
                        }
                    }
                }
            }
            graph.child_start.push(graph.children.len() as u32);
            next += 1;
            if next % 16384 == 0 {
                limits.budget.check()?;
                let branching = graph.children.len() as f64 / next as f64;
                let n = graph.states.len() as f64;
                let bytes = n * bytes_per_position(state_bytes, heap_bytes, branching);
                limits.budget.uses(limits.what, bytes as u64)?;
                (limits.progress)(0.5 * next as f64 / n.max(bound));
            }
        }
        // Small graphs end before the first periodic check: the whole graph is
        // checked once more before the tables of the backward pass are built.
        let branching = graph.children.len() as f64 / next.max(1) as f64;
        let bytes =
            graph.states.len() as f64 * bytes_per_position(state_bytes, heap_bytes, branching);
        limits.budget.uses(limits.what, bytes as u64)?;
        // The positions stay (the index points into them); their growth slack goes
        // before the backward pass allocates its arrays.
        graph.states.shrink_to_fit();
        Ok(graph)
    }

    /// Position `at`, where the game is over with `outcome`: its value.
    fn ended(&mut self, at: usize, outcome: Outcome) {
        if at == 0 {
            // A start that is already over: nobody moved into it. In every
            // game here the side to move at a won position is the loser.
            self.mover[0] = match outcome {
                Outcome::Win(w) => 1 - w.min(1) as u8,
                _ => 0,
            };
        }
        self.value[at] = match outcome {
            Outcome::Win(w) if w as u8 == self.mover[at] => WIN,
            Outcome::Win(_) => LOSS,
            Outcome::Draw | Outcome::Ended => DRAW,
        };
    }

    /// The number of `child`, reached by `seat`'s move: a new one when it was not
    /// seen before, refused past `max_positions`.
    fn number(
        &mut self,
        child: G::State,
        seat: Seat,
        max_positions: usize,
    ) -> Result<u32, SolveError> {
        let hash = hash_of(&child);
        let states = &self.states;
        if let Some(&id) = self.index.find(hash, |&i| states[i as usize] == child) {
            return Ok(id);
        }
        let id = self.states.len();
        if id >= max_positions {
            return Err(SolveError::TooLarge(max_positions));
        }
        self.states.push(child);
        let states = &self.states;
        self.index
            .insert_unique(hash, id as u32, |&i| hash_of(&states[i as usize]));
        // A terminal position's "side to move" is the player who would move next:
        // the opponent of whoever moved into it.
        self.mover.push(1 - seat as u8);
        self.value.push(UNKNOWN);
        Ok(id as u32)
    }
}

/// The reverse edges: `parents[start[c]..start[c + 1]]` are the positions with a
/// move to `c`.
struct Parents {
    start: Vec<u32>,
    parents: Vec<u32>,
}

impl Parents {
    fn of(children: &[u32], child_start: &[u32], n: usize) -> Parents {
        let mut count = vec![0u32; n + 1];
        for &c in children {
            count[c as usize + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let start = count.clone();
        let mut fill = count;
        let mut parents = vec![0u32; children.len()];
        for p in 0..n {
            for &c in &children[child_start[p] as usize..child_start[p + 1] as usize] {
                parents[fill[c as usize] as usize] = p as u32;
                fill[c as usize] += 1;
            }
        }
        Parents { start, parents }
    }

    fn of_child(&self, c: usize) -> &[u32] {
        &self.parents[self.start[c] as usize..self.start[c + 1] as usize]
    }
}

/// The backward pass: values outward from the decided positions, in order of
/// remoteness (a queue), each parent won by one child lost for its opponent, lost
/// when its last child is won for the opponent. Returns the remoteness of each
/// position; those never decided stay `UNKNOWN`.
fn propagate(
    value: &mut [u8],
    mover: &[u8],
    mut pending: Vec<u32>,
    parents: &Parents,
    limits: &Limits<'_>,
) -> Result<Vec<u32>, SolveError> {
    let n = value.len();
    let mut remoteness = vec![0u32; n];
    let mut queue = VecDeque::new();
    for i in 0..n {
        if value[i] != UNKNOWN {
            if value[i] != DRAW {
                queue.push_back(i as u32);
            }
        } else if pending[i] == 0 {
            // A player with no legal move who the game does not declare over:
            // treat as a loss for the side to move (the usual convention).
            value[i] = LOSS;
            queue.push_back(i as u32);
        }
    }
    let mut done = 0usize;
    while let Some(c) = queue.pop_front() {
        let c = c as usize;
        let (cv, cr, cm) = (value[c], remoteness[c], mover[c]);
        for &p in parents.of_child(c) {
            let p = p as usize;
            if value[p] != UNKNOWN {
                continue;
            }
            // The child's value seen by the parent's mover.
            let good_for_parent = if mover[p] == cm {
                cv == WIN
            } else {
                cv == LOSS
            };
            if good_for_parent {
                value[p] = WIN;
                remoteness[p] = cr + 1;
                queue.push_back(p as u32);
            } else {
                pending[p] -= 1;
                if pending[p] == 0 {
                    value[p] = LOSS;
                    remoteness[p] = cr + 1;
                    queue.push_back(p as u32);
                }
            }
        }
        done += 1;
        if done % 65536 == 0 {
            limits.budget.check()?;
            (limits.progress)(0.5 + 0.5 * done as f64 / n as f64);
        }
    }
    Ok(remoteness)
}

/// The counts of a solve; positions never decided become draws.
fn tally(value: &mut [u8], remoteness: &[u32], began: Instant) -> SolveStats {
    let (mut wins, mut losses, mut draws, mut max_remoteness) = (0, 0, 0, 0);
    for (v, &r) in value.iter_mut().zip(remoteness) {
        match *v {
            WIN => wins += 1,
            LOSS => losses += 1,
            _ => {
                *v = DRAW;
                draws += 1;
            }
        }
        if *v != DRAW {
            max_remoteness = max_remoteness.max(r);
        }
    }
    SolveStats {
        positions: value.len(),
        wins,
        losses,
        draws,
        start: grade_of(value[0], remoteness[0]),
        max_remoteness,
        seconds: began.elapsed().as_secs_f64(),
    }
}

impl<G: Game> Solution<G> {
    /// Counts, start value and timing.
    pub fn stats(&self) -> &SolveStats {
        &self.stats
    }

    /// The value of a position for its side to move, if it was reachable from the start.
    pub fn grade(&self, state: &G::State) -> Option<Graded> {
        self.index
            .find(hash_of(state), |&i| self.states[i as usize] == *state)
            .map(|&i| grade_of(self.value[i as usize], self.remoteness[i as usize]))
    }

    /// Every solved position with its grade (for exports and exhaustive tests).
    pub fn iter(&self) -> impl Iterator<Item = (&G::State, Graded)> + '_ {
        self.states
            .iter()
            .enumerate()
            .map(|(i, s)| (s, grade_of(self.value[i], self.remoteness[i])))
    }
}

fn grade_of(v: u8, r: u32) -> Graded {
    match v {
        WIN => Graded {
            value: Value::Win,
            remoteness: r,
        },
        LOSS => Graded {
            value: Value::Loss,
            remoteness: r,
        },
        _ => Graded {
            value: Value::Draw,
            remoteness: 0,
        },
    }
}

impl<G: Game> Oracle<G> for Solution<G> {
    fn grade(&self, _game: &G, state: &G::State) -> Option<Graded> {
        Solution::grade(self, state)
    }

    fn memory_bytes(&self) -> u64 {
        Solution::memory_bytes(self)
    }
}

/// The grade of playing `mv` in `state`, seen by the player who moves (`seat`),
/// from the oracle's grade of the position it leads to.
pub fn move_grade<G: Game>(
    game: &G,
    oracle: &dyn Oracle<G>,
    state: &G::State,
    seat: Seat,
    mv: G::Move,
) -> Option<Graded> {
    let mut child = state.clone();
    game.play_unchecked(&mut child, mv);
    let g = oracle.grade(game, &child)?;
    Some(match game.turn(&child) {
        Turn::Move(s) if s == seat => Graded {
            value: g.value,
            remoteness: if g.value == Value::Draw {
                0
            } else {
                g.remoteness + 1
            },
        },
        _ => g.as_move_grade(),
    })
}

/// Every legal move of `state` with its grade for the side to move, best first
/// (nearest win, then draws, then the slowest loss). Moves the oracle cannot
/// grade are left out.
pub fn graded_moves<G: Game>(
    game: &G,
    oracle: &dyn Oracle<G>,
    state: &G::State,
) -> Vec<(G::Move, Graded)> {
    let Turn::Move(seat) = game.turn(state) else {
        return Vec::new();
    };
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let mut out: Vec<(G::Move, Graded)> = moves
        .into_iter()
        .filter_map(|mv| move_grade(game, oracle, state, seat, mv).map(|g| (mv, g)))
        .collect();
    out.sort_by_key(|(_, g)| std::cmp::Reverse(g.rank()));
    out
}
