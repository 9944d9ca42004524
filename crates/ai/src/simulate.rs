//! Many games between two players on all cores, with seeds that make the result
//! independent of how the work is split between threads.

use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use tabula_core::{Budget, Game, Outcome, Strategy, Turn};

/// Games longer than this many plies are stopped and counted as draws.
pub const MAX_PLIES: usize = 20_000;

/// A 95% confidence interval.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Rate {
    /// The observed proportion.
    pub value: f64,
    /// Wilson score interval, lower end.
    pub low: f64,
    /// Wilson score interval, upper end.
    pub high: f64,
}

impl Rate {
    /// The Wilson 95% interval for `successes` out of `n`.
    pub fn wilson(successes: u64, n: u64) -> Rate {
        if n == 0 {
            return Rate {
                value: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let z = 1.959_963_984_540_054_f64;
        let nf = n as f64;
        let p = successes as f64 / nf;
        let denom = 1.0 + z * z / nf;
        let centre = (p + z * z / (2.0 * nf)) / denom;
        let half = z * ((p * (1.0 - p) / nf) + z * z / (4.0 * nf * nf)).sqrt() / denom;
        Rate {
            value: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

/// The result of a simulation, as `tabula simulate --json` prints it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SimReport {
    /// Games played (fewer than asked for when the budget stopped the run).
    pub games: u64,
    /// The players, in the order given.
    pub players: Vec<String>,
    /// Wins of each player, in the order given.
    pub wins: Vec<u64>,
    /// Games neither won (draws, or stopped at the ply limit).
    pub draws: u64,
    /// The first player's share of all games, with a 95% confidence interval.
    pub win_rate: Rate,
    /// Mean number of player decisions per game (chance rolls not counted).
    pub mean_turns: f64,
    /// Wall-clock time.
    pub seconds: f64,
}

/// The seed of game `i` of a simulation seeded with `seed`.
pub fn game_seed(seed: u64, i: u64) -> u64 {
    seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17)
}

/// Plays `games` games between player A (built by `make(0, seed)`) and player B
/// (`make(1, seed)`), alternating seats: A sits in seat 0 in even-numbered games.
/// `tick` is called after every finished game (for a progress bar).
pub fn simulate<G, F>(
    game: &G,
    names: [&str; 2],
    make: F,
    games: u64,
    seed: u64,
    tick: &(dyn Fn() + Sync),
) -> SimReport
where
    G: Game,
    F: Fn(usize, u64) -> Box<dyn Strategy<G>> + Sync,
{
    let began = Instant::now();
    let turns_total = AtomicU64::new(0);
    // The caller's budget (a server job's cancel flag, a deadline): the games run
    // on rayon's workers, which do not share the caller's thread-local budget, so
    // each game runs under it there; a game in progress stops at its next ply and
    // the games left are skipped.
    let budget = Budget::current();
    let results: Vec<[u64; 4]> = (0..games)
        .into_par_iter()
        .fold(
            || [0u64; 4],
            |mut acc, i| {
                if budget.as_ref().is_some_and(Budget::should_stop) {
                    acc[3] += 1;
                    return acc;
                }
                let s = game_seed(seed, i);
                let a_seat = (i % 2) as usize;
                let mut players: [Box<dyn Strategy<G>>; 2] = if a_seat == 0 {
                    [make(0, s), make(1, s.wrapping_add(1))]
                } else {
                    [make(1, s.wrapping_add(1)), make(0, s)]
                };
                let (outcome, turns) = match &budget {
                    Some(b) => b.run(|| play_one(game, &mut players, s)),
                    None => play_one(game, &mut players, s),
                };
                if outcome.is_none() && budget.as_ref().is_some_and(Budget::should_stop) {
                    acc[3] += 1;
                    return acc;
                }
                turns_total.fetch_add(turns, Ordering::Relaxed);
                match outcome {
                    Some(Outcome::Win(w)) if w == a_seat => acc[0] += 1,
                    Some(Outcome::Win(_)) => acc[1] += 1,
                    _ => acc[2] += 1,
                }
                tick();
                acc
            },
        )
        .collect();
    let mut totals = [0u64; 4];
    for r in results {
        for k in 0..4 {
            totals[k] += r[k];
        }
    }
    // Games skipped or stopped by the budget are not counted.
    let games = games - totals[3];
    SimReport {
        games,
        players: names.iter().map(|s| s.to_string()).collect(),
        wins: vec![totals[0], totals[1]],
        draws: totals[2],
        win_rate: Rate::wilson(totals[0], games),
        mean_turns: if games == 0 {
            0.0
        } else {
            turns_total.into_inner() as f64 / games as f64
        },
        seconds: began.elapsed().as_secs_f64(),
    }
}

/// Plays one game from the start; returns the outcome and the decisions made. The
/// outcome is `None` when the game reached [`MAX_PLIES`] or the thread's budget
/// ([`Budget::current`]) was cancelled or ran out of time (checked every ply); a
/// resignation counts as a loss for the resigner.
pub fn play_one<G: Game>(
    game: &G,
    players: &mut [Box<dyn Strategy<G>>; 2],
    seed: u64,
) -> (Option<Outcome>, u64) {
    let mut rng = tabula_core::rng_from_seed(seed);
    let mut state = game.initial_state();
    let mut outcomes = Vec::new();
    let mut turns = 0u64;
    let budget = Budget::current();
    for _ in 0..MAX_PLIES {
        if budget.as_ref().is_some_and(Budget::should_stop) {
            return (None, turns);
        }
        match game.turn(&state) {
            Turn::Over(o) => {
                for (seat, p) in players.iter_mut().enumerate() {
                    p.game_over(game, seat, o);
                }
                return (Some(o), turns);
            }
            Turn::Chance => {
                outcomes.clear();
                game.chance_outcomes(&state, &mut outcomes);
                let mv = sample(&outcomes, &mut rng);
                game.play_unchecked(&mut state, mv);
            }
            Turn::Move(seat) => {
                turns += 1;
                match players[seat].choose(game, &state, seat, &mut rng) {
                    Some(c) => game.play_unchecked(&mut state, c.mv),
                    None => {
                        let o = Outcome::Win(1 - seat);
                        for (s, p) in players.iter_mut().enumerate() {
                            p.game_over(game, s, o);
                        }
                        return (Some(o), turns);
                    }
                }
            }
        }
    }
    (None, turns)
}

/// Draws a chance outcome according to its probability.
pub fn sample<M: Copy>(outcomes: &[(M, f64)], rng: &mut tabula_core::Rng) -> M {
    use rand::Rng as _;
    let mut x: f64 = rng.gen::<f64>();
    for &(m, p) in outcomes {
        if x < p {
            return m;
        }
        x -= p;
    }
    outcomes.last().expect("a chance node has outcomes").0
}
