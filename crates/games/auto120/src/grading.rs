//! What a player's decisions cost against perfect play: each marker choice
//! graded with the exact table, totalled by player and by the reason the
//! player gave (the scenario player names the set A-D that chose the move).
//!
//! The loss of a decision is the best move's chance to win minus the chosen
//! move's, both read from the table, so it is never negative and 0 for a
//! move as good as the best.

use crate::exact::Solution;
use crate::state::{Move, State};
use crate::Auto120;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use tabula_core::{Choice, Rng, Seat, Strategy};

/// A loss above this is a decision below optimal (the table's values are
/// fixed point with a resolution of 2.3e-10).
pub const BELOW_OPTIMAL: f64 = 1e-9;

/// One marker choice graded against the exact table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grade {
    /// The marker chosen (index 0..=3) and the mover's chance after it.
    pub chosen: (u8, f64),
    /// The best marker (the first of the highest chance) and its chance.
    pub best: (u8, f64),
    /// `best.1 - chosen.1`.
    pub loss: f64,
    /// The mover's markers in play stand on at least two squares: the choice
    /// matters (otherwise every move is the same).
    pub real_choice: bool,
}

/// Grades moving `marker` at decision `state` (`None` if the state is not a
/// decision of `sol`'s variant or the marker is not one in play).
pub fn grade(sol: &Solution, state: &State, marker: u8) -> Option<Grade> {
    let values = sol.move_values(state);
    let &best = values.first()?;
    let &chosen = values.iter().find(|&&(m, _)| m == marker)?;
    let seat = state.side()?;
    let squares: std::collections::BTreeSet<u8> = values
        .iter()
        .map(|&(m, _)| state.markers(seat)[m as usize])
        .collect();
    Some(Grade {
        chosen,
        best,
        loss: best.1 - chosen.1,
        real_choice: squares.len() > 1,
    })
}

/// The largest loss seen under one label, with where it happened.
#[derive(Clone, Debug, Serialize)]
pub struct WorstDecision {
    /// The loss.
    pub loss: f64,
    /// The position (die rolled, marker to choose) in the game's notation.
    pub position: String,
    /// The move chosen, in the game's notation, and its chance to win.
    pub chosen: String,
    /// Its chance to win.
    pub chosen_chance: f64,
    /// The best move, in the game's notation.
    pub best: String,
    /// Its chance to win.
    pub best_chance: f64,
}

/// The graded decisions under one label.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Tally {
    /// Decisions graded.
    pub decisions: u64,
    /// Of them, with a real choice (markers on two squares or more).
    pub real_choices: u64,
    /// Sum of the losses.
    pub loss_sum: f64,
    /// Decisions with a loss above [`BELOW_OPTIMAL`].
    pub below_optimal: u64,
    /// The largest loss (the first seen of equal ones).
    pub worst: Option<WorstDecision>,
}

impl Tally {
    /// Adds one graded decision at `state`.
    pub fn add(&mut self, state: &State, g: &Grade) {
        self.decisions += 1;
        self.real_choices += g.real_choice as u64;
        self.loss_sum += g.loss;
        self.below_optimal += (g.loss > BELOW_OPTIMAL) as u64;
        if !self.worst.as_ref().is_some_and(|w| g.loss <= w.loss) {
            let mv = |m: u8| crate::notation::format_move(Move::Marker(m));
            self.worst = Some(WorstDecision {
                loss: g.loss,
                position: crate::notation::format_position(state),
                chosen: mv(g.chosen.0),
                chosen_chance: g.chosen.1,
                best: mv(g.best.0),
                best_chance: g.best.1,
            });
        }
    }

    /// Mean loss per decision.
    pub fn mean_loss(&self) -> f64 {
        self.loss_sum / self.decisions.max(1) as f64
    }

    /// Mean loss per real choice (a decision without one loses nothing).
    pub fn mean_loss_per_choice(&self) -> f64 {
        self.loss_sum / self.real_choices.max(1) as f64
    }

    /// Share of decisions below optimal.
    pub fn share_below_optimal(&self) -> f64 {
        self.below_optimal as f64 / self.decisions.max(1) as f64
    }
}

/// Tallies by label, shared by the players of a simulation's threads.
#[derive(Debug, Default)]
pub struct LossBook(Mutex<BTreeMap<String, Tally>>);

impl LossBook {
    /// Adds a graded decision at `state` under `label`.
    pub fn add(&self, label: &str, state: &State, g: &Grade) {
        let mut book = self.0.lock().unwrap_or_else(|e| e.into_inner());
        book.entry(label.to_string()).or_default().add(state, g);
    }

    /// The tallies, by label.
    pub fn tallies(&self) -> BTreeMap<String, Tally> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// A player whose every marker choice is graded into a book: under its
/// label, and under the reason it gave in `reasons` (when there is one).
pub struct GradedPlayer {
    inner: Box<dyn Strategy<Auto120>>,
    solution: Arc<Solution>,
    label: String,
    book: Arc<LossBook>,
    reasons: Option<Arc<LossBook>>,
}

impl GradedPlayer {
    /// `inner`'s choices graded with `solution` into `book` under `label`.
    pub fn new(
        inner: Box<dyn Strategy<Auto120>>,
        solution: Arc<Solution>,
        label: impl Into<String>,
        book: Arc<LossBook>,
    ) -> GradedPlayer {
        GradedPlayer {
            inner,
            solution,
            label: label.into(),
            book,
            reasons: None,
        }
    }

    /// Also grades each choice under the reason the player gave, in `reasons`.
    pub fn with_reasons(mut self, reasons: Arc<LossBook>) -> GradedPlayer {
        self.reasons = Some(reasons);
        self
    }
}

impl Strategy<Auto120> for GradedPlayer {
    fn choose(
        &mut self,
        game: &Auto120,
        state: &State,
        seat: Seat,
        rng: &mut Rng,
    ) -> Option<Choice<Move>> {
        let c = self.inner.choose(game, state, seat, rng)?;
        if let Move::Marker(m) = c.mv {
            if let Some(g) = grade(&self.solution, state, m) {
                self.book.add(&self.label, state, &g);
                if let (Some(reasons), Some(why)) = (&self.reasons, &c.reason) {
                    reasons.add(why, state, &g);
                }
            }
        }
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact;
    use crate::Scenario;
    use tabula_core::Players;

    /// Scenario games of two markers against `optimal`, graded with `sol`.
    fn graded_games(sol: &Arc<Solution>, games: u64) -> (Arc<LossBook>, Arc<LossBook>) {
        let game = Auto120::with_markers(2);
        let (players, sets) = (Arc::new(LossBook::default()), Arc::new(LossBook::default()));
        tabula_ai::simulate::simulate(
            &game,
            ["scenario", "optimal"],
            |i, s| {
                let (inner, label): (Box<dyn Strategy<Auto120>>, _) = if i == 0 {
                    (Box::new(Scenario::default()), "scenario")
                } else {
                    (
                        game.custom_player("optimal", "", s).unwrap().unwrap(),
                        "optimal",
                    )
                };
                let p = GradedPlayer::new(inner, sol.clone(), label, players.clone());
                Box::new(if i == 0 {
                    p.with_reasons(sets.clone())
                } else {
                    p
                })
            },
            games,
            7,
            &|| {},
        );
        (players, sets)
    }

    #[test]
    fn scenario_sets_add_up_and_their_worst_decision_is_the_tables() {
        let sol = exact::solution(2, exact::DEFAULT_MAX_MEMORY).unwrap();
        let (players, sets) = graded_games(&sol, 300);
        let players = players.tallies();
        let sets = sets.tallies();
        let scenario = &players["scenario"];
        assert!(scenario.decisions > 1000, "{scenario:?}");
        // Every scenario decision is in exactly one set, and the sets are the
        // posts' four.
        assert!(sets.keys().all(|k| k.starts_with("scenario ")), "{sets:?}");
        let sum = |f: fn(&Tally) -> u64| sets.values().map(f).sum::<u64>();
        assert_eq!(sum(|t| t.decisions), scenario.decisions);
        assert_eq!(sum(|t| t.real_choices), scenario.real_choices);
        assert_eq!(sum(|t| t.below_optimal), scenario.below_optimal);
        let total: f64 = sets.values().map(|t| t.loss_sum).sum();
        assert!((total - scenario.loss_sum).abs() < 1e-9);
        // The scenario player does lose something, and the optimal nothing.
        assert!(scenario.below_optimal > 0 && scenario.loss_sum > 0.0);
        assert_eq!(players["optimal"].below_optimal, 0);
        assert!(players["optimal"].loss_sum.abs() < 1e-12);
        for (set, t) in &sets {
            assert!(t.loss_sum >= 0.0, "{set}");
            assert!(t.real_choices <= t.decisions && t.below_optimal <= t.real_choices);
            // The example is recomputed from the table: the best chance minus
            // the chosen one, at the position in the game's notation.
            let w = t.worst.as_ref().unwrap();
            let state = crate::notation::parse_position_with(&w.position, 2).unwrap();
            let values = sol.move_values(&state);
            let chance = |mv: &str| {
                let Move::Marker(m) = crate::notation::parse_move(&state, mv).unwrap() else {
                    panic!("{mv}")
                };
                values.iter().find(|v| v.0 == m).unwrap().1
            };
            assert_eq!(values[0].1, w.best_chance, "{set}: {w:?}");
            assert_eq!(chance(&w.best), w.best_chance);
            assert_eq!(chance(&w.chosen), w.chosen_chance);
            assert_eq!(w.loss, w.best_chance - w.chosen_chance);
            assert!(t.loss_sum >= w.loss);
        }
    }

    /// The four-marker table is read from its layer files on the disk: the
    /// same grading from a two-marker table made and read that way.
    #[test]
    fn grades_from_a_table_on_the_disk_agree_with_the_table_in_memory() {
        let (dir, _, on_disk) = exact::layered::testing::solved_on_disk(2, "grading");
        let on_disk = Arc::new(on_disk);
        let in_memory = exact::solution(2, exact::DEFAULT_MAX_MEMORY).unwrap();
        // The same games (the players do not read `sol`), graded twice.
        let (a, x) = graded_games(&on_disk, 100);
        let (b, y) = graded_games(&in_memory, 100);
        for (p, q) in [(a.tallies(), b.tallies()), (x.tallies(), y.tallies())] {
            assert_eq!(p.keys().collect::<Vec<_>>(), q.keys().collect::<Vec<_>>());
            for (label, t) in &p {
                let u = &q[label];
                assert_eq!((t.decisions, t.real_choices), (u.decisions, u.real_choices));
                assert!((t.loss_sum - u.loss_sum).abs() <= 1e-9 * t.decisions as f64);
            }
        }
        drop(dir);
    }

    #[test]
    fn a_loss_is_never_negative_and_zero_only_for_a_best_move() {
        let sol = exact::solution(2, exact::DEFAULT_MAX_MEMORY).unwrap();
        let mut checked = 0;
        for text in [
            "4,1/1,1:1r5",
            "20,9/1,4:1r6",
            "1,1/1,1:2r3",
            "24,5/30,1:2r4",
            "60,120/1,1:1r2",
        ] {
            let state = crate::notation::parse_position_with(text, 2).unwrap();
            let values = sol.move_values(&state);
            for &(m, p) in &values {
                let g = grade(&sol, &state, m).unwrap();
                assert!(g.loss >= 0.0, "{text} {m}");
                assert_eq!(g.loss == 0.0, p == values[0].1);
                assert_eq!(g.best, values[0]);
                checked += 1;
            }
        }
        assert!(checked >= 8);
        // Not a decision: no grade.
        let roll = crate::notation::parse_position_with("4,1/1,1:1", 2).unwrap();
        assert!(grade(&sol, &roll, 0).is_none());
    }
}
