//! Pig's exact solution through the generic solver of dice games
//! (`tabula_ai::chance_solve`), as Neller and Presser solved it: the chance
//! `P(i, j, k)` that the player to move wins, with banked score `i`, the other's
//! `j` and turn total `k`, is
//!
//! ```text
//! P(i, j, k) = max( 1 - P(j, i + k, 0),                     hold (only when k > 0)
//!                   1/6 (1 - P(j, i, 0)) + 1/6 sum over r = 2..6 of
//!                       1 if i + k + r >= goal, else P(i, j, k + r) )   roll
//! ```
//!
//! The index is the mover's view `(i, j, k)` with `k < goal - i`: either seat to
//! move shares it (the seats play alike). With one die, holding only raises the
//! sum `i + j` and rolling keeps it, so positions are solved in stages by that sum,
//! from the largest down; in a stage, each pair `{(i, j), (j, i)}` is a block of its
//! own (it reads only itself and earlier stages), swept with the turn total
//! falling. With two dice, double ones lower a score, so there is no such order:
//! one block of every position, swept in the same order.

use crate::state::State;
use crate::Pig;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;
use tabula_ai::chance_solve::{self, ChanceIndex, ChanceSolution, ChanceSolveError, SweepOrder};
use tabula_core::{
    waiting_budget, Budget, FactValue, Ledger, PositionValue, SeatChance, Section, SolveFigures,
    SolveReport, TableCell, TableError,
};

/// The solved table of one variant.
pub type Solution = ChanceSolution<Pig>;

/// The tolerance of the solve: the largest change of a value in a block's last sweep.
pub const TOLERANCE: f64 = 1e-13;

impl Pig {
    /// Positions of the mover's view with banked score below `mine`: goal *
    /// sum over m < mine of (goal - m).
    fn offset(&self, mine: usize) -> usize {
        let g = self.goal() as usize;
        g * (mine * g - mine * mine.saturating_sub(1) / 2)
    }
}

impl ChanceIndex for Pig {
    fn index_len(&self) -> usize {
        let g = self.goal() as usize;
        g * g * (g + 1) / 2
    }

    fn index_of(&self, state: &State) -> Option<usize> {
        let side = state.side()?;
        if state.rolling || state.winner(self.goal()).is_some() {
            return None;
        }
        let (mine, theirs, k) = (
            state.scores[side] as usize,
            state.scores[1 - side] as usize,
            state.turn_total as usize,
        );
        let g = self.goal() as usize;
        (mine + k < g && theirs < g).then(|| self.offset(mine) + k * g + theirs)
    }

    fn state_at(&self, index: usize) -> State {
        let g = self.goal() as usize;
        let row = index / g;
        // The largest `mine` with mine * (2g - mine + 1) / 2 <= row, from the
        // quadratic's root, then corrected by a step for rounding.
        let b = 2.0 * g as f64 + 1.0;
        let mut mine = ((b - (b * b - 8.0 * row as f64).max(0.0).sqrt()) / 2.0) as usize;
        mine = mine.min(g - 1);
        while mine > 0 && self.offset(mine) > index {
            mine -= 1;
        }
        while mine + 1 < g && self.offset(mine + 1) <= index {
            mine += 1;
        }
        let rest = index - self.offset(mine);
        State {
            scores: [mine as u16, (rest % g) as u16],
            turn_total: (rest / g) as u16,
            side: 0,
            rolling: false,
        }
    }

    fn sweep_order(&self) -> SweepOrder {
        let g = self.goal() as usize;
        let mut order = SweepOrder {
            indices: Vec::with_capacity(self.index_len()),
            block_ends: Vec::new(),
            stage_ends: Vec::new(),
        };
        let at = |mine: usize, theirs: usize, k: usize| self.offset(mine) + k * g + theirs;
        for sum in (0..=2 * (g - 1)).rev() {
            for a in sum.saturating_sub(g - 1)..=sum / 2 {
                let b = sum - a;
                let pairs: &[(usize, usize)] = if a == b { &[(a, b)] } else { &[(a, b), (b, a)] };
                for &(mine, theirs) in pairs {
                    // The turn total falling: a roll reads the larger totals just swept.
                    for k in (0..g - mine).rev() {
                        order.indices.push(at(mine, theirs, k) as u32);
                    }
                }
                if self.dice() == 1 {
                    order.block_ends.push(order.indices.len() as u32);
                }
            }
            if self.dice() == 1 {
                order.stage_ends.push(order.block_ends.len() as u32);
            }
        }
        if self.dice() != 1 {
            order.block_ends.push(order.indices.len() as u32);
            order.stage_ends.push(1);
        }
        order
    }
}

/// Bytes the solve of `game` needs at its peak.
pub fn estimate(game: &Pig) -> u64 {
    chance_solve::estimate_bytes(game.index_len())
}

/// The tables this process has built or is building, by (goal, dice).
type Cells = Mutex<HashMap<(u16, u8), TableCell<Solution>>>;

/// The tables this process has built or is building, one per (goal, dice).
fn cells() -> &'static Cells {
    static CELLS: OnceLock<Cells> = OnceLock::new();
    CELLS.get_or_init(Default::default)
}

fn cell(game: &Pig) -> TableCell<Solution> {
    cells()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry((game.goal(), game.dice()))
        .or_insert_with(|| TableCell::new(what(game)))
        .clone()
}

fn what(game: &Pig) -> String {
    format!("the exact table of {}", game.title())
}

/// The solution if this process has already built it.
pub fn cached(game: &Pig) -> Option<Arc<Solution>> {
    cell(game).get()
}

/// The process's table for `game`: solved once (refused up front beyond
/// `max_memory`), waited for until `until` says stop.
pub fn shared(
    game: &Pig,
    max_memory: u64,
    until: &Budget,
    progress: &dyn Fn(f64),
) -> Result<Arc<Solution>, String> {
    let cell = cell(game);
    if let Some(s) = cell.get() {
        return Ok(s);
    }
    let needed = estimate(game);
    let mut held = None;
    if !cell.is_building() {
        Budget::new(max_memory)
            .fits(&what(game), needed)
            .map_err(|e| format!("{e}; allow more with --max-memory"))?;
        held = Some(
            Ledger::global()
                .reserve(&what(game), needed)
                .map_err(|e| e.to_string())?,
        );
    }
    let g = *game;
    // The build runs on a thread of its own; the caller's cancel flag and deadline
    // stop the waiting, and the build itself is bounded by the memory reserved.
    cell.get_or_build(
        move |report| {
            let mut held = held.ok_or("the table's memory was not reserved")?;
            let solution = chance_solve::solve(
                &g,
                TOLERANCE,
                &Budget::unlimited().with_max_memory(needed),
                report,
            )
            .map_err(|e| e.to_string())?;
            held.settle(solution.memory_bytes());
            held.keep_for_process();
            Ok(solution)
        },
        until,
        progress,
    )
    .map_err(|e| match e {
        TableError::Stopped(b) => b.to_string(),
        failed => failed.to_string(),
    })
}

/// The solution for a player or an analysis that must answer in time: waits until
/// half the time the thread's budget leaves, `None` while it is still being built.
pub fn in_time(game: &Pig) -> Option<Arc<Solution>> {
    if let Some(s) = cached(game) {
        return Some(s);
    }
    let mut until = waiting_budget();
    if let Some(left) = until.remaining() {
        until = until.with_deadline(Instant::now() + left / 2);
    }
    shared(game, tabula_core::default_max_memory(), &until, &|_| {}).ok()
}

/// Each seat's chance when `side` wins with chance `p`.
pub fn chances(side: usize, p: f64) -> PositionValue {
    let seats = crate::SEATS;
    let mut chances: Vec<SeatChance> = seats
        .iter()
        .map(|s| SeatChance {
            seat: s.to_string(),
            chance: 0.0,
        })
        .collect();
    chances[side & 1].chance = p;
    chances[1 - (side & 1)].chance = 1.0 - p;
    PositionValue::WinChances { chances }
}

/// Peak resident memory of this process (Linux `VmHWM`), in bytes.
fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// `tabula solve pig`: solves the variant (or takes the table this process has)
/// and reports the first player's chance, the solve's figures and, for a
/// position, its chances.
pub fn report(
    game: &Pig,
    budget: &Budget,
    position: Option<&State>,
    progress: &dyn Fn(f64),
) -> Result<SolveReport, String> {
    let sol = shared(game, budget.max_memory_bytes, budget, progress)?;
    let c = sol.convergence();
    let start = State {
        scores: [0, 0],
        turn_total: 0,
        side: 0,
        rolling: false,
    };
    let first = sol.chance_for(&start, 0).unwrap_or(0.5);
    let mut summary = format!(
        "With best play on both sides, the player who rolls first wins {:.2}% of games ({}).",
        first * 100.0,
        game.title()
    );
    let mut value = Some(chances(0, first));
    if let Some(s) = position {
        if let Some(side) = s.side().or(Some(0)) {
            if let Some(p) = sol.chance_for(s, side) {
                value = Some(chances(side, p));
                summary = format!(
                    "In this position, {}.",
                    value.as_ref().map(|v| v.words(None)).unwrap_or_default()
                );
            }
        }
    }
    let solved = Section::new("The exact solution")
        .note("Every position's chance of winning, found by value iteration until no chance moved by more than the tolerance.")
        .with("First player wins", FactValue::Percent(first))
        .with("Positions", FactValue::Integer(c.positions as i64))
        .with("Groups solved one after another", FactValue::Integer(c.stages as i64))
        .with("Most sweeps of one group", FactValue::Integer(c.sweeps as i64))
        .with("Sweeps in all", FactValue::Integer(c.block_sweeps as i64))
        .with("Largest change in a last sweep", FactValue::Number(c.max_change))
        .with("Converged", FactValue::Flag(c.converged))
        .with("Threads", FactValue::Integer(c.threads as i64))
        .with("Table", FactValue::Bytes(sol.memory_bytes()));
    let mut sections = vec![solved];
    if let Some(peak) = peak_rss_bytes() {
        sections[0].push("Memory of the program at its peak", FactValue::Bytes(peak));
    }
    Ok(SolveReport {
        summary,
        position: position.map(crate::notation::format_position),
        value,
        solution: None,
        counts: None,
        sections,
        figures: SolveFigures {
            positions: Some(c.positions),
            seconds: c.seconds,
            peak_bytes: Some(c.peak_bytes),
            sweeps: Some(c.sweeps),
            first_mover_wins: Some(first),
        },
    })
}

/// The solver's error, in words (for tests and messages).
pub fn describe(e: &ChanceSolveError) -> String {
    e.to_string()
}
