//! The posts' heuristic player: scenario sets A, B, C and D, tried in that order.
//!
//! Readings of the posts where their text leaves room (see crates/games/auto120/docs/auto120.md):
//! - A moves a marker onto a penultimate position, exactly the posts' set
//!   {20, 24, 30, 40, 60} (derived: one roll of 2..6 from 120). The posts' text
//!   puts 120 itself in neither A nor B (Part 2 counts five penultimate and nine
//!   factor positions, 120 apart), so by default a marker reaches 120 only when
//!   Set D happens to pick it. The option `finish` adds 120 to the Set A targets,
//!   as the posts' author's published programs do; that player is much stronger.
//! - A and B pick at random among the markers that qualify (the posts: "it will pick
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

use crate::board::{is_factor, is_on_path, is_penultimate, TARGET};
use crate::state::{Move, State};
use crate::Auto120;
use rand::Rng as _;
use tabula_ai::player_options::{Kind, OptionSpec, PlayerOptionError, PlayerOptions};
use tabula_core::{Choice, Rng, Seat, Strategy};

/// The options of `scenario:`, for the shared reader: `finish` alone.
pub const SCENARIO_OPTIONS: PlayerOptions = PlayerOptions::new(&[OptionSpec::new(
    "finish",
    "bringing a marker home first",
    Kind::Flag,
)]);

/// The posts' scenario-set player.
#[derive(Clone, Debug, Default)]
pub struct Scenario {
    /// Add 120 to the Set A targets (the posts' author's programs; not the posts' text).
    pub finish: bool,
}

impl Scenario {
    /// Builds the player from its options: empty, or `finish`.
    pub fn from_options(options: &str) -> Result<Scenario, PlayerOptionError> {
        let read = SCENARIO_OPTIONS.read(options)?;
        Ok(Scenario {
            finish: read.flag("finish"),
        })
    }

    /// The marker (index) to move and the scenario letter that chose it.
    pub fn pick(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<(u8, char)> {
        let roll = state.roll as u32;
        let mine = state.markers[seat & 1];
        let theirs = state.markers[1 - (seat & 1)];
        // One pass sorts the markers into bit masks, one per rule (hot path of
        // simulations: no closures, no allocation).
        let (mut a, mut b, mut c, mut safe, mut in_play, mut at_start) =
            (0u8, 0u8, 0u8, 0u8, 0u8, 0u8);
        for (m, &p) in mine.iter().enumerate() {
            if p == TARGET {
                continue;
            }
            let bit = 1u8 << m;
            let d = p as u32 * roll;
            if is_penultimate(d) || (self.finish && d == TARGET as u32) {
                a |= bit;
            } else if is_factor(d) {
                b |= bit;
            }
            if d < TARGET as u32 && !is_on_path(p as u32) && theirs.contains(&(d as u8)) {
                c |= bit;
            }
            if p == 1 {
                at_start |= bit;
            } else {
                in_play |= bit;
                if d <= TARGET as u32 {
                    safe |= bit;
                }
            }
        }
        if a != 0 {
            return Some((random_member(a, rng), 'A'));
        }
        if b != 0 {
            return Some((random_member(b, rng), 'B'));
        }
        if c != 0 {
            return Some((c.trailing_zeros() as u8, 'C'));
        }
        let use_in_play = match (in_play != 0, at_start != 0) {
            (true, true) => rng.gen_bool(0.5),
            (some_in_play, _) => some_in_play,
        };
        let group = if !use_in_play {
            at_start
        } else if safe != 0 {
            safe
        } else {
            in_play
        };
        (group != 0).then(|| (random_member(group, rng), 'D'))
    }
}

/// A uniformly random marker index among the set bits of `mask` (not empty).
fn random_member(mask: u8, rng: &mut Rng) -> u8 {
    let n = mask.count_ones();
    let mut k = if n == 1 { 0 } else { rng.gen_range(0..n) };
    let mut rest = mask;
    loop {
        let m = rest.trailing_zeros() as u8;
        if k == 0 {
            return m;
        }
        k -= 1;
        rest &= rest - 1;
    }
}

impl Strategy<Auto120> for Scenario {
    fn choose(
        &mut self,
        _game: &Auto120,
        state: &State,
        seat: Seat,
        rng: &mut Rng,
    ) -> Option<Choice<Move>> {
        if state.roll == 0 {
            return None;
        }
        let (m, letter) = self.pick(state, seat, rng)?;
        Some(Choice::because(Move::Marker(m), scenario_reason(letter)))
    }
}

/// The names of the original program's four rules of thumb, as its moves give
/// them for a reason (each a term of the game's glossary).
pub const RULE_NAMES: [&str; 4] = ["scenario A", "scenario B", "scenario C", "scenario D"];

fn scenario_reason(letter: char) -> &'static str {
    match letter {
        'A' => RULE_NAMES[0],
        'B' => RULE_NAMES[1],
        'C' => RULE_NAMES[2],
        _ => RULE_NAMES[3],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    fn pick(pos: &str) -> (u8, char) {
        let s = parse_position(pos).unwrap();
        let mut rng = tabula_core::rng_from_seed(7);
        Scenario::default()
            .pick(&s, s.side().unwrap(), &mut rng)
            .unwrap()
    }

    #[test]
    fn a_targets_penultimate_positions_and_with_finish_120() {
        assert_eq!(pick("4,1,1,1/1,1,1,1:1r5"), (0, 'A'));
        // By the posts' text 120 is no target: 1x6 = 6 is a factor (B).
        assert_eq!(pick("1,20,120,120/1,1,1,1:1r6"), (0, 'B'));
        let s = parse_position("1,20,120,120/1,1,1,1:1r6").unwrap();
        let finish = Scenario { finish: true }
            .pick(&s, 0, &mut tabula_core::rng_from_seed(1))
            .unwrap();
        assert_eq!(finish, (1, 'A'));
        // Only D may then finish a marker: 20x6 = 120 does not blow out.
        assert_eq!(pick("20,120,120,120/1,1,1,1:1r6"), (0, 'D'));
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
