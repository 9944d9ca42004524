//! Pig's computer players: `optimal` (the exact table), `hold:N` and `race`
//! (Neller and Presser's "keep pace and end race" rule).

use crate::solve;
use crate::state::{Move, State};
use crate::Pig;
use tabula_ai::player_options::{Kind, OptionSpec, PlayerOptionError, PlayerOptions};
use tabula_core::{Choice, Rng, Seat, Strategy};

/// Hold once the turn total reaches `at` points (a turn must roll at least once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoldAt {
    /// The turn total to hold at.
    pub at: u16,
}

/// The usual threshold of `hold:N`.
pub const DEFAULT_HOLD: u16 = 20;

impl HoldAt {
    /// Reads the options of `hold:N` or `hold:at=N` (`""` is the default, 20).
    pub fn from_options(options: &str) -> Result<HoldAt, PlayerOptionError> {
        let read = HOLD_OPTIONS.read(options)?;
        Ok(HoldAt {
            // The reader has checked the range: at most 1000 fits a u16.
            at: read.whole("at").map_or(DEFAULT_HOLD, |n| n as u16),
        })
    }
}

/// The options of `hold:`, for the shared reader; a number on its own is `at`.
pub const HOLD_OPTIONS: PlayerOptions = PlayerOptions::new(&[OptionSpec::new(
    "at",
    "the turn total to hold at",
    Kind::Whole { min: 1, max: 1000 },
)])
.nameless("at");

impl Strategy<Pig> for HoldAt {
    fn choose(&mut self, _: &Pig, state: &State, _: Seat, _: &mut Rng) -> Option<Choice<Move>> {
        Some(if state.turn_total > 0 && state.turn_total >= self.at {
            Choice::because(Move::Hold, format!("holds at {}", self.at))
        } else {
            Choice::plain(Move::Roll)
        })
    }
}

/// "Keep pace and end race" (Neller and Presser), scaled to the goal: when
/// either banked score is at least 71% of the goal, roll until the turn reaches
/// the goal; otherwise hold at 21% of the goal plus an eighth of how far the
/// player is behind (less when ahead), rounded, and at least one roll's worth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Race;

impl Race {
    /// The turn total this rule holds at, or `None` when it rolls for the goal.
    pub fn threshold(game: &Pig, mine: u16, theirs: u16) -> Option<u16> {
        let goal = game.goal() as f64;
        let end = (0.71 * goal).ceil() as u16;
        if mine >= end || theirs >= end {
            return None;
        }
        let behind = theirs as f64 - mine as f64;
        let at = (0.21 * goal + behind / 8.0).round();
        Some((at as u16).max(game.least_points_per_roll()))
    }
}

impl Strategy<Pig> for Race {
    fn choose(
        &mut self,
        game: &Pig,
        state: &State,
        seat: Seat,
        _: &mut Rng,
    ) -> Option<Choice<Move>> {
        let (mine, theirs) = (state.scores[seat & 1], state.scores[1 - (seat & 1)]);
        Some(match Race::threshold(game, mine, theirs) {
            Some(at) if state.turn_total > 0 && state.turn_total >= at => {
                Choice::because(Move::Hold, format!("keeps pace: holds at {at}"))
            }
            None => Choice::because(Move::Roll, "ends the race: rolls for the goal"),
            Some(_) => Choice::plain(Move::Roll),
        })
    }
}

/// The move with the highest exact chance to win, from the solved table; until
/// the table is built (a move must be made in time), `race`'s move, said so.
#[derive(Clone, Copy, Debug, Default)]
pub struct Optimal;

impl Strategy<Pig> for Optimal {
    fn choose(
        &mut self,
        game: &Pig,
        state: &State,
        seat: Seat,
        rng: &mut Rng,
    ) -> Option<Choice<Move>> {
        let Some(solution) = solve::in_time(game) else {
            let choice = Race.choose(game, state, seat, rng)?;
            return Some(Choice::because(
                choice.mv,
                "keeps pace: the exact table is still being prepared",
            ));
        };
        let (mv, p) = *solution.move_values(state).first()?;
        Some(Choice::because(
            mv,
            format!("best chance: {:.1}% to win", 100.0 * p),
        ))
    }
}
