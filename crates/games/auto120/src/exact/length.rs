//! How long a game lasts when both sides play perfectly.
//!
//! Exactly, for a table held in memory (1 to 3 markers), by *policy
//! evaluation*: the optimal player's move at every roll is fixed by the solved
//! table (the move with the highest chance to win; of equal chances the one
//! first in the table's order, the marker on the lowest square), and the
//! expected number of die rolls until the game ends, `R(m, t)` from a position
//! with the die to be rolled, solves
//!
//! ```text
//! R(m, t) = 1 + 1/6 R(t, m) + 1/6 sum over rolls 2..6 of R(after the chosen move)
//! ```
//!
//! with 0 after a move that wins. It is iterated in place in the solver's order
//! of layers (the generic solver of dice games, `tabula_ai::chance_solve`) from
//! 0 until no value moves by more than [`TOLERANCE`]. Every roll of 2 to 6 is
//! followed by one marker move and a 1 by none, whatever came before, so the
//! expected moves are 5/6 of the expected rolls (Wald's identity).
//!
//! The four-marker table is too large for 8 bytes a position in memory: its
//! games are measured by [`simulate`] instead (the optimal player against
//! itself, the same choices as the `optimal` player).

use super::{Column, Equations, Order, Solution, FREE, ROLLS, SQUARE};
use crate::board::TARGET;
use crate::state::{Move, State};
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;
use tabula_ai::chance_solve::{
    self, ChanceSolveError, DenseChance, FixedTable, Run, SweepOrder, Values,
};
use tabula_core::{Budget, Turn};

/// The largest change of an expected number of rolls in the last sweep.
pub const TOLERANCE: f64 = 1e-9;

/// Why the expected length could not be computed exactly.
#[derive(Debug, thiserror::Error)]
pub enum LengthError {
    /// The table is kept on the disk in layers (four markers): its lengths are
    /// measured by simulation.
    #[error("the expected length is computed exactly only for a table held in memory (1 to 3 markers); with {0} markers, simulate games instead")]
    OnDisk(usize),
    /// The iteration was refused (memory) or stopped by its budget.
    #[error("{0}")]
    Solve(#[from] ChanceSolveError),
}

/// The expected length of a game between two optimal players, exactly.
#[derive(Clone, Debug, Serialize)]
pub struct ExactLength {
    /// Markers per player.
    pub markers: usize,
    /// Expected die rolls from the start (the first player drawn) to the end.
    pub rolls: f64,
    /// Expected marker moves (decisions): 5/6 of the rolls.
    pub moves: f64,
    /// Expected plies: the draw for the first player, every roll and every move.
    pub plies: f64,
    /// The position (die to be rolled) with the longest expected rest of the
    /// game, in the game's notation.
    pub longest_position: String,
    /// Its expected rolls to the end.
    pub longest_rolls: f64,
    /// Decisions (position and roll) where two different moves have the same
    /// chance in the table: there the length depends on which one is played.
    pub tied_decisions: u64,
    /// Sweeps of the start layer.
    pub sweeps: u32,
    /// The largest change in the last sweep of any layer.
    pub max_change: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// CPU seconds of the process meanwhile (Linux).
    pub cpu_seconds: Option<f64>,
}

/// The equation of the module's words over the solver's index.
struct Lengths<'a> {
    eq: Equations<'a>,
    /// The solved chances, which fix the moves.
    chances: &'a FixedTable,
}

impl Lengths<'_> {
    /// The mover's chance after move `s` (1 for a win) and where that position is.
    #[inline(always)]
    fn after(&self, c: &Column<'_>, s: &super::Succ) -> (f64, Option<usize>) {
        match c.successor(s) {
            None => (1.0, None),
            Some(i) => (1.0 - FixedTable::from_fixed(self.chances.raw(i)), Some(i)),
        }
    }

    /// The moves the roller at rank `m` has with roll slot `r` (2..6 as 0..5).
    #[inline(always)]
    fn moves<'c>(c: &'c Column<'_>, m: usize, r: usize) -> &'c [super::Succ] {
        let slot = m * ROLLS + r;
        let ka = c.l.ka;
        &c.sa.succ[slot * ka..slot * ka + c.sa.nsucc[slot] as usize]
    }

    /// Where the optimal player's move leads (`None`: it wins): the first of
    /// the highest chance.
    #[inline(always)]
    fn chosen(&self, c: &Column<'_>, m: usize, r: usize) -> Option<usize> {
        let mut best = (f64::NEG_INFINITY, None);
        for s in Self::moves(c, m, r) {
            let (x, at) = self.after(c, s);
            if x > best.0 {
                best = (x, at);
            }
        }
        best.1
    }

    /// True when two different moves share the highest chance.
    fn tied(&self, c: &Column<'_>, m: usize, r: usize) -> bool {
        let xs: Vec<f64> = Self::moves(c, m, r)
            .iter()
            .map(|s| self.after(c, s).0)
            .collect();
        let top = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        xs.iter().filter(|&&x| x == top).count() > 1
    }

    /// The new expected rolls of the roller at rank `m` (`None`: not a position).
    #[inline(always)]
    fn cell(&self, c: &Column<'_>, m: usize, v: Values<'_>) -> Option<f64> {
        if c.sa.mask[m] & c.tmask != 0 {
            return None;
        }
        // A 1: the other rolls next, from the same squares.
        let mut rest = v.get(c.row + m);
        for r in 0..ROLLS {
            if let Some(i) = self.chosen(c, m, r) {
                rest += v.get(i);
            }
        }
        Some(1.0 + rest / 6.0)
    }
}

impl DenseChance for Lengths<'_> {
    type Scratch = ();

    fn what(&self) -> String {
        format!(
            "the expected game lengths of Multiplication Ludo with {} markers",
            self.eq.n
        )
    }

    fn index_len(&self) -> usize {
        self.eq.index_len()
    }

    fn order(&self) -> SweepOrder {
        self.eq.order()
    }

    fn initial_value(&self) -> f64 {
        0.0
    }

    fn backup(&self, index: usize, v: Values<'_>, _: &mut ()) -> Result<f64, ChanceSolveError> {
        Ok(self.eq.backup_by(index, v, |c, m, v| self.cell(c, m, v)))
    }

    fn sweep_run(
        &self,
        run: Run,
        from: u32,
        to: u32,
        v: Values<'_>,
        _: &mut (),
    ) -> Result<f64, ChanceSolveError> {
        Ok(self
            .eq
            .sweep_run_by(run, from, to, v, |c, m, v| self.cell(c, m, v)))
    }
}

/// The expected length of a game between two optimal players of `sol`'s
/// variant, by policy evaluation within `budget` (memory: 8 bytes a slot of
/// the table, as the solve itself).
pub fn exact(
    sol: &Solution,
    budget: &Budget,
    progress: &dyn Fn(f64),
) -> Result<ExactLength, LengthError> {
    if sol.layered.is_some() {
        return Err(LengthError::OnDisk(sol.n));
    }
    let began = Instant::now();
    let cpu = super::cpu_seconds();
    let n = sol.n;
    let lengths = Lengths {
        eq: Equations::new(n, &sol.sets, Order::Layered),
        chances: &sol.table,
    };
    let done = chance_solve::iterate(&lengths, TOLERANCE, budget, progress)?;
    let values = &done.values;
    let eq = &lengths.eq;
    // The longest expected rest of a game, and the tied decisions.
    let mut longest = (f64::NEG_INFINITY, 0usize);
    let mut tied = 0u64;
    for layer in 0..n * n {
        let l = eq.layers[layer];
        let off = eq.offsets[layer];
        let (w, t) = (0..l.lb)
            .into_par_iter()
            .map(|t| {
                let c = eq.column(layer, t);
                let mut w = (f64::NEG_INFINITY, 0usize);
                let mut tied = 0u64;
                for m in 0..l.la {
                    if c.sa.mask[m] & c.tmask != 0 {
                        continue;
                    }
                    let i = off + m * l.lb + t;
                    if values[i] > w.0 {
                        w = (values[i], i);
                    }
                    tied += (0..ROLLS).filter(|&r| lengths.tied(&c, m, r)).count() as u64;
                }
                (w, tied)
            })
            .reduce(
                || ((f64::NEG_INFINITY, 0), 0),
                |(x, a), (y, b)| {
                    (
                        if y.0 > x.0 || (y.0 == x.0 && y.1 < x.1) {
                            y
                        } else {
                            x
                        },
                        a + b,
                    )
                },
            );
        if w.0 > longest.0 || (w.0 == longest.0 && w.1 < longest.1) {
            longest = w;
        }
        tied += t;
    }
    let (layer, m, t) = eq.locate(longest.1);
    let position = position_at(sol, layer / n, layer % n, m, t);
    // The start: every marker on square 1, the first index of layer (0, 0).
    let rolls = values[0];
    Ok(ExactLength {
        markers: n,
        rolls,
        moves: rolls * 5.0 / 6.0,
        plies: 1.0 + rolls * 11.0 / 6.0,
        longest_position: crate::notation::format_position(&position),
        longest_rolls: longest.0,
        tied_decisions: tied,
        sweeps: done.block_sweeps.last().copied().unwrap_or(0),
        max_change: done.convergence.max_change,
        seconds: began.elapsed().as_secs_f64(),
        cpu_seconds: cpu.zip(super::cpu_seconds()).map(|(a, b)| b - a),
    })
}

/// The position of layer (a, b) with the roller (Player 1, to roll) at rank
/// `m` and the other at rank `t`.
fn position_at(sol: &Solution, a: usize, b: usize, m: usize, t: usize) -> State {
    let n = sol.n;
    let mut state = State::start_with(n);
    state.side = 0;
    let place = |k: usize, r: usize| -> [u8; crate::board::MARKERS] {
        let set = &sol.sets[k - 1];
        let mut out = [TARGET; crate::board::MARKERS];
        for (slot, &i) in out.iter_mut().zip(&set.squares[r][..k]) {
            debug_assert!((i as usize) < FREE);
            *slot = SQUARE[i as usize];
        }
        out
    };
    state.markers[0] = place(n - a, m);
    state.markers[1] = place(n - b, t);
    state
}

/// Lengths of simulated games between two optimal players.
#[derive(Clone, Debug, Serialize)]
pub struct SimulatedLength {
    /// Markers per player.
    pub markers: usize,
    /// Games played to the end.
    pub games: u64,
    /// Games cut off at the engine's length bound (none expected).
    pub cut_off: u64,
    /// Mean die rolls per game, with its 95% interval.
    pub rolls: Mean,
    /// Mean marker moves (decisions) per game, with its 95% interval.
    pub moves: Mean,
    /// The most rolls a game took.
    pub longest_rolls: u64,
    /// The most marker moves a game took.
    pub longest_moves: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// A sample mean with its 95% interval (normal approximation).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Mean {
    /// The mean.
    pub mean: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Mean {
    fn of(count: u64, sum: u128, squares: u128) -> Mean {
        let n = count.max(1) as f64;
        let mean = sum as f64 / n;
        let var = (squares as f64 / n - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
        let half = 1.96 * (var / n).sqrt();
        Mean {
            mean,
            low: mean - half,
            high: mean + half,
        }
    }
}

/// Plays `games` games of the optimal player of `sol` against itself (its
/// choices: [`Solution::move_values`]'s first, as the `optimal` player's),
/// game `i` with dice seeded by `tabula_ai::simulate::game_seed(seed, i)`,
/// and measures their lengths. Games longer than the engine's bound
/// (`UNBOUNDED_GAME_PLIES` plies) are cut off and counted apart.
pub fn simulate(sol: &Solution, games: u64, seed: u64) -> SimulatedLength {
    use rand::Rng as _;
    let began = Instant::now();
    let n = sol.markers();
    let bound = tabula_core::UNBOUNDED_GAME_PLIES as u64;
    // Per game: played, cut off, rolls (sum, squares, max), moves (the same).
    type Acc = (u64, u64, u128, u128, u64, u128, u128, u64);
    let acc: Acc = (0..games)
        .into_par_iter()
        .fold(
            || (0, 0, 0, 0, 0, 0, 0, 0),
            |mut acc: Acc, i| {
                let mut rng = tabula_core::rng_from_seed(tabula_ai::simulate::game_seed(seed, i));
                let mut state = State::start_with(n);
                state.apply(Move::Starter(rng.gen_range(0..2)));
                let (mut rolls, mut moves) = (0u64, 0u64);
                loop {
                    if rolls + moves >= bound {
                        acc.1 += 1;
                        return acc;
                    }
                    match state.turn() {
                        Turn::Over(_) => break,
                        Turn::Chance => {
                            state.apply(Move::Roll(rng.gen_range(1..=6)));
                            rolls += 1;
                        }
                        Turn::Move(_) => {
                            let Some(&(m, _)) = sol.move_values(&state).first() else {
                                acc.1 += 1;
                                return acc;
                            };
                            state.apply(Move::Marker(m));
                            moves += 1;
                        }
                    }
                }
                acc.0 += 1;
                acc.2 += rolls as u128;
                acc.3 += (rolls as u128).pow(2);
                acc.4 = acc.4.max(rolls);
                acc.5 += moves as u128;
                acc.6 += (moves as u128).pow(2);
                acc.7 = acc.7.max(moves);
                acc
            },
        )
        .reduce(
            || (0, 0, 0, 0, 0, 0, 0, 0),
            |a, b| {
                (
                    a.0 + b.0,
                    a.1 + b.1,
                    a.2 + b.2,
                    a.3 + b.3,
                    a.4.max(b.4),
                    a.5 + b.5,
                    a.6 + b.6,
                    a.7.max(b.7),
                )
            },
        );
    SimulatedLength {
        markers: n,
        games: acc.0,
        cut_off: acc.1,
        rolls: Mean::of(acc.0, acc.2, acc.3),
        moves: Mean::of(acc.0, acc.5, acc.6),
        longest_rolls: acc.4,
        longest_moves: acc.7,
        seconds: began.elapsed().as_secs_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact;
    use std::collections::HashMap;

    /// Expected rolls to the end from every position with the die to be rolled,
    /// worked out on the game's own states and rules (`State::apply`, the
    /// player's choice `Solution::move_values`), without the solver's index.
    fn by_the_rules(sol: &Solution) -> HashMap<State, f64> {
        let n = sol.markers();
        let mut start = State::start_with(n);
        start.apply(Move::Starter(0));
        // Every position reachable from the start, die to be rolled; Player 1's
        // positions only (the other seat's are the mirror).
        let mirror = |s: &State| {
            let mut m = *s;
            m.markers.swap(0, 1);
            m.side ^= 1;
            m
        };
        let canon = |s: State| if s.side == 1 { mirror(&s) } else { s };
        let after = |s: &State, r: u8| -> Option<State> {
            let mut x = *s;
            x.apply(Move::Roll(r));
            if r > 1 {
                let m = sol.move_values(&x)[0].0;
                x.apply(Move::Marker(m));
            }
            (x.winner().is_none()).then(|| canon(x))
        };
        let mut seen: HashMap<State, f64> = HashMap::from([(start, 0.0)]);
        let mut todo = vec![start];
        while let Some(s) = todo.pop() {
            for r in 1..=6 {
                if let Some(x) = after(&s, r) {
                    if seen.insert(x, 0.0).is_none() {
                        todo.push(x);
                    }
                }
            }
        }
        let states: Vec<State> = seen.keys().copied().collect();
        loop {
            let mut change = 0f64;
            for s in &states {
                let next: f64 = (1..=6).map(|r| after(s, r).map_or(0.0, |x| seen[&x])).sum();
                let v = 1.0 + next / 6.0;
                change = change.max((v - seen[s]).abs());
                seen.insert(*s, v);
            }
            if change < 1e-12 {
                return seen;
            }
        }
    }

    #[test]
    fn one_marker_lengths_agree_with_the_rules_everywhere() {
        let sol = exact::solution(1, exact::DEFAULT_MAX_MEMORY).unwrap();
        let got = exact(&sol, &Budget::unlimited(), &|_| {}).unwrap();
        let rules = by_the_rules(&sol);
        let mut start = State::start_with(1);
        start.apply(Move::Starter(0));
        assert!((got.rolls - rules[&start]).abs() < 1e-7, "{got:?}");
        assert!((got.moves - got.rolls * 5.0 / 6.0).abs() < 1e-12);
        // The longest expected rest of a game is the largest by the rules, at
        // the position named.
        let (at, most) = rules
            .iter()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(s, v)| (*s, *v))
            .unwrap();
        assert!((got.longest_rolls - most).abs() < 1e-7, "{got:?} {at:?}");
        let named = crate::notation::parse_position_with(&got.longest_position, 1).unwrap();
        assert!((rules[&named] - most).abs() < 1e-7, "{got:?}");
        // One marker: never a choice, so never a tie.
        assert_eq!(got.tied_decisions, 0);
        assert!(got.max_change <= TOLERANCE);
    }

    #[test]
    fn two_marker_lengths_agree_with_simulated_games() {
        let sol = exact::solution(2, exact::DEFAULT_MAX_MEMORY).unwrap();
        let got = exact(&sol, &Budget::unlimited(), &|_| {}).unwrap();
        assert!(got.max_change <= TOLERANCE);
        assert!(got.longest_rolls > got.rolls, "{got:?}");
        // Games of the optimal player against itself: the exact mean is inside
        // the simulation's interval (fixed seed: the same games every run).
        let sim = simulate(&sol, 4000, 11);
        assert_eq!((sim.games, sim.cut_off), (4000, 0));
        assert!(
            sim.rolls.low <= got.rolls && got.rolls <= sim.rolls.high,
            "{sim:?} {got:?}"
        );
        assert!(
            sim.moves.low <= got.moves && got.moves <= sim.moves.high,
            "{sim:?} {got:?}"
        );
        assert!(
            sim.longest_rolls as f64 > sim.rolls.mean && sim.longest_moves <= sim.longest_rolls
        );
        // The position named as the longest is one of the game's, Player 1 to
        // roll, and not over.
        let at = crate::notation::parse_position_with(&got.longest_position, 2).unwrap();
        assert_eq!(
            (at.side(), at.winner(), at.pending_roll()),
            (Some(0), None, None)
        );
    }

    #[test]
    fn a_table_on_the_disk_is_measured_by_simulation_only() {
        let (dir, _, on_disk) = exact::layered::testing::solved_on_disk(1, "length");
        assert!(matches!(
            exact(&on_disk, &Budget::unlimited(), &|_| {}),
            Err(LengthError::OnDisk(1))
        ));
        // The same games as with the table in memory (the same dice, the same
        // choices).
        let in_memory = exact::solution(1, exact::DEFAULT_MAX_MEMORY).unwrap();
        let (x, y) = (simulate(&on_disk, 500, 3), simulate(&in_memory, 500, 3));
        assert_eq!(
            (x.rolls.mean, x.longest_rolls),
            (y.rolls.mean, y.longest_rolls)
        );
        drop(dir);
    }
}
