//! Many games between two players on all cores, with seeds that make the result
//! independent of how the work is split between threads. Games follow the rules
//! of actual play ([`PlayTracker`]): a repetition or a run without progress is a
//! draw, and a game that reaches its length bound is cut off and counted apart.

use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use tabula_core::{Actions, Budget, MatchRules, Outcome, PlayTracker, Strategy, Turn};

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
    /// Games drawn: by the rules, by repetition or for lack of progress.
    pub draws: u64,
    /// Games cut off at the length bound with no result (neither won nor drawn).
    pub cut_off: u64,
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
    G: MatchRules + Actions,
    F: Fn(usize, u64) -> Box<dyn Strategy<G>> + Sync,
{
    let began = Instant::now();
    let turns_total = AtomicU64::new(0);
    // The caller's budget (a server job's cancel flag, a deadline): the games run
    // on rayon's workers, which do not share the caller's thread-local budget, so
    // each game runs under it there; a game in progress stops at its next ply and
    // the games left are skipped.
    let budget = Budget::current();
    // Per game: A's wins, B's wins, draws, games stopped, cut off. Once the
    // budget stops, each run of games ends at its next game (`Err`), so the games
    // left are never visited: a billion games stop as soon as a few.
    let results: Vec<Result<[u64; 5], [u64; 5]>> = (0..games)
        .into_par_iter()
        .try_fold(
            || [0u64; 5],
            |mut acc, i| {
                if budget.as_ref().is_some_and(Budget::should_stop) {
                    return Err(acc);
                }
                let s = game_seed(seed, i);
                let a_seat = (i % 2) as usize;
                let mut players: [Box<dyn Strategy<G>>; 2] = if a_seat == 0 {
                    [make(0, s), make(1, s.wrapping_add(1))]
                } else {
                    [make(1, s.wrapping_add(1)), make(0, s)]
                };
                let (end, turns) = match &budget {
                    Some(b) => b.run(|| play_one(game, &mut players, s)),
                    None => play_one(game, &mut players, s),
                };
                match end {
                    GameEnd::Stopped => {
                        acc[3] += 1;
                        return Err(acc);
                    }
                    GameEnd::Over(Outcome::Win(w)) if w == a_seat => acc[0] += 1,
                    GameEnd::Over(Outcome::Win(_)) => acc[1] += 1,
                    GameEnd::Over(Outcome::Draw) => acc[2] += 1,
                    GameEnd::Over(Outcome::Ended) | GameEnd::CutOff => acc[4] += 1,
                }
                turns_total.fetch_add(turns, Ordering::Relaxed);
                tick();
                Ok(acc)
            },
        )
        .collect();
    let mut totals = [0u64; 5];
    for r in results {
        let (Ok(r) | Err(r)) = r;
        for k in 0..5 {
            totals[k] += r[k];
        }
    }
    // Only the games played to their end count; those stopped or never started
    // by the budget do not.
    let games = totals[0] + totals[1] + totals[2] + totals[4];
    SimReport {
        games,
        players: names.iter().map(|s| s.to_string()).collect(),
        wins: vec![totals[0], totals[1]],
        draws: totals[2],
        cut_off: totals[4],
        win_rate: Rate::wilson(totals[0], games),
        mean_turns: if games == 0 {
            0.0
        } else {
            turns_total.into_inner() as f64 / games as f64
        },
        seconds: began.elapsed().as_secs_f64(),
    }
}

/// How one simulated game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// By the rules, a resignation, or a draw rule of actual play.
    Over(Outcome),
    /// At the game's length bound, with no result.
    CutOff,
    /// The thread's budget was cancelled or ran out of time.
    Stopped,
}

/// Plays one game from the start under the rules of actual play; returns how it
/// ended and the decisions made. A game stops when the thread's budget
/// ([`Budget::current`]) is cancelled or out of time (checked every ply); a
/// resignation counts as a loss for the resigner.
pub fn play_one<G: MatchRules + Actions>(
    game: &G,
    players: &mut [Box<dyn Strategy<G>>; 2],
    seed: u64,
) -> (GameEnd, u64) {
    let mut rng = tabula_core::rng_from_seed(seed);
    let mut state = game.initial_state();
    let mut tracker = PlayTracker::new(game, &state);
    let mut outcomes = Vec::new();
    let mut turns = 0u64;
    let budget = Budget::current();
    let tell = |players: &mut [Box<dyn Strategy<G>>; 2], o: Outcome| {
        for (seat, p) in players.iter_mut().enumerate() {
            p.game_over(game, seat, o);
        }
    };
    loop {
        if budget.as_ref().is_some_and(Budget::should_stop) {
            return (GameEnd::Stopped, turns);
        }
        let mv = match tracker.turn(game, &state) {
            Turn::Over(o) => {
                tell(players, o);
                let cut = !game.turn(&state).is_over()
                    && tracker.end(&state).is_some_and(|e| e.is_cut_off());
                return (
                    if cut {
                        GameEnd::CutOff
                    } else {
                        GameEnd::Over(o)
                    },
                    turns,
                );
            }
            Turn::Chance => {
                outcomes.clear();
                game.chance_outcomes(&state, &mut outcomes);
                sample(&outcomes, &mut rng)
            }
            Turn::Move(seat) => {
                turns += 1;
                match players[seat].choose(game, &state, seat, &mut rng) {
                    Some(c) => c.mv,
                    None => {
                        let o = Outcome::Win(1 - seat);
                        tell(players, o);
                        return (GameEnd::Over(o), turns);
                    }
                }
            }
        };
        tracker.play(game, &mut state, mv);
    }
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
