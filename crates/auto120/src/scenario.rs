//! The seed's heuristic player: scenario sets A, B, C and D, tried in that order.
//!
//! Readings of the seed where its text leaves room (see docs/games/auto120.md):
//! - A moves a marker onto a penultimate position (20, 24, 30, 40, 60) *or onto
//!   120 itself*: the seed's own programs list 120 among the Set A targets, and
//!   finishing is the point of the fast track. The option `strict` leaves 120 out
//!   (a marker then finishes only when Set D happens to pick it).
//! - A and B pick at random among the markers that qualify (the seed: "it will pick
//!   one at random"; B uses "the same searching logic").
//! - C "bumps an opposing marker without leaving the fast track": a marker that
//!   stands on the path (a divisor of 120) is never moved off it just to bump, so C
//!   only moves markers already off the path (and whose product does not exceed
//!   120). Moves along the path were already taken by A or B, so this is the only
//!   reading under which C ever fires. C takes the first such marker in marker
//!   order ("the first potential target").
//! - D tosses a coin between (i) a random marker in play (on 2..119) whose product
//!   does not exceed 120 — or any marker in play if all would blow out — and (ii) a
//!   random marker on 1; when only one group has markers, that group is used.
//!   (With a roll of 2..6 a marker on 1 always reaches a factor position, so B
//!   catches every such move and D(ii) never actually happens.)

use crate::board::{is_factor, is_on_path, is_penultimate, MARKERS, TARGET};
use crate::state::{Move, State};
use crate::Auto120;
use rand::Rng as _;
use tabula_core::{Choice, Rng, Seat, Strategy};

/// The seed's scenario-set player.
#[derive(Clone, Debug, Default)]
pub struct Scenario {
    /// Leave 120 out of Set A (the seed's text read literally).
    pub strict: bool,
}

impl Scenario {
    /// Builds the player from its options: empty, or `strict`.
    pub fn from_options(options: &str) -> Result<Scenario, String> {
        match options.trim() {
            "" => Ok(Scenario { strict: false }),
            "strict" => Ok(Scenario { strict: true }),
            other => Err(format!("unknown scenario option '{other}' (expected nothing or 'strict')")),
        }
    }

    /// The marker (index) to move and the scenario letter that chose it.
    pub fn pick(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<(u8, char)> {
        let roll = state.roll as u32;
        let mine = state.markers[seat & 1];
        let theirs = state.markers[1 - (seat & 1)];
        let product = |m: usize| mine[m] as u32 * roll;
        let in_game = |m: usize| mine[m] != TARGET;
        let mut picked = [0u8; MARKERS];
        let mut choose = |filter: &dyn Fn(usize) -> bool, rng: &mut Rng| -> Option<u8> {
            let mut n = 0;
            for m in 0..MARKERS {
                if in_game(m) && filter(m) {
                    picked[n] = m as u8;
                    n += 1;
                }
            }
            match n {
                0 => None,
                1 => Some(picked[0]),
                _ => Some(picked[rng.gen_range(0..n)]),
            }
        };
        let strict = self.strict;
        if let Some(m) = choose(&|m| is_penultimate(product(m)) || (!strict && product(m) == TARGET as u32), rng) {
            return Some((m, 'A'));
        }
        if let Some(m) = choose(&|m| is_factor(product(m)), rng) {
            return Some((m, 'B'));
        }
        if let Some(m) = (0..MARKERS).find(|&m| {
            in_game(m) && !is_on_path(mine[m] as u32) && product(m) < TARGET as u32 && theirs.contains(&(product(m) as u8))
        }) {
            return Some((m as u8, 'C'));
        }
        let in_play = |m: usize| mine[m] > 1;
        let has_in_play = (0..MARKERS).any(|m| in_game(m) && in_play(m));
        let has_at_start = (0..MARKERS).any(|m| mine[m] == 1);
        let use_in_play = match (has_in_play, has_at_start) {
            (true, true) => rng.gen_bool(0.5),
            (in_play, _) => in_play,
        };
        let m = if use_in_play {
            choose(&|m| in_play(m) && product(m) <= TARGET as u32, rng).or_else(|| choose(&in_play, rng))
        } else {
            choose(&|m| mine[m] == 1, rng)
        };
        m.map(|m| (m, 'D'))
    }
}

impl Strategy<Auto120> for Scenario {
    fn choose(&mut self, _game: &Auto120, state: &State, seat: Seat, rng: &mut Rng) -> Option<Choice<Move>> {
        if state.roll == 0 {
            return None;
        }
        let (m, letter) = self.pick(state, seat, rng)?;
        Some(Choice::because(Move::Marker(m), scenario_reason(letter)))
    }
}

fn scenario_reason(letter: char) -> &'static str {
    match letter {
        'A' => "scenario A",
        'B' => "scenario B",
        'C' => "scenario C",
        _ => "scenario D",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    fn pick(pos: &str) -> (u8, char) {
        let s = parse_position(pos).unwrap();
        let mut rng = tabula_core::rng_from_seed(7);
        Scenario::default().pick(&s, s.side().unwrap(), &mut rng).unwrap()
    }

    #[test]
    fn a_targets_penultimate_and_home() {
        assert_eq!(pick("4,1,1,1/1,1,1,1:1r5"), (0, 'A'));
        assert_eq!(pick("1,20,1,1/1,1,1,1:1r6"), (1, 'A'));
        let s = parse_position("1,20,1,1/1,1,1,1:1r6").unwrap();
        let strict = Scenario { strict: true }.pick(&s, 0, &mut tabula_core::rng_from_seed(1)).unwrap();
        assert_eq!(strict.1, 'B', "strict: 1x6 = 6 is a factor; 120 is not a target");
    }

    #[test]
    fn b_targets_factors() {
        // 16x2 = 32 is off the path, 2x2 = 4 is a factor.
        assert_eq!(pick("16,2,120,120/1,1,1,1:1r2"), (1, 'B'));
        // 10x2 = 20 (penultimate) comes before 2x2 = 4 (factor).
        assert_eq!(pick("2,10,120,120/1,1,1,1:1r2"), (1, 'A'));
    }

    #[test]
    fn c_bumps_with_off_path_markers_only() {
        // Marker 1 on 9 (off path) can hit the opponent on 36; marker 2 on 4 would
        // leave the path to hit 16.
        assert_eq!(pick("9,4,120,120/36,16,1,1:1r4"), (0, 'C'));
        assert_eq!(pick("9,120,120,120/1,1,1,1:1r2").1, 'D');
    }

    #[test]
    fn d_avoids_blow_outs_when_it_can() {
        for seed in 0..20 {
            let s = parse_position("50,9,120,120/1,1,1,1:1r5").unwrap();
            let mut rng = tabula_core::rng_from_seed(seed);
            assert_eq!(Scenario::default().pick(&s, 0, &mut rng), Some((1, 'D')));
        }
        // Every marker in play would blow out: one of them is moved anyway.
        let s = parse_position("50,90,120,120/1,1,1,1:1r5").unwrap();
        let mut rng = tabula_core::rng_from_seed(3);
        assert_eq!(Scenario::default().pick(&s, 0, &mut rng).unwrap().1, 'D');
    }
}
