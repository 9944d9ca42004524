//! The strongest player here: a short expectimax over the real game (bumps
//! included) whose leaves are valued by the exact solo race tables of
//! [`crate::solo`].
//!
//! Depth counts turns: depth 2 (the default) looks at this move, every roll of the
//! opponent and the opponent's best reply (chosen by the same evaluation), and
//! values what follows as a race. Markers on the same square are interchangeable,
//! so only one of them is searched.
//!
//! Endgames are exact: once both players have at most `exact` markers in play
//! (default 2, or fewer than the game has), the position plays exactly like one
//! of the `exact`-marker game (retired markers never move again), whose solved
//! table ([`crate::exact`]) gives the true win probability instead of the race.

use crate::board::{MARKERS, TARGET};
use crate::exact::{self, Solution};
use crate::solo::{tables, Tables};
use crate::state::{Move, State};
use crate::Auto120;
use tabula_ai::player_options::{Kind, OptionSpec, PlayerOptionError, PlayerOptions};
use tabula_core::{Choice, Rng, Seat, Strategy};

/// Most turns `best` may look ahead (depth 4 takes about a second per move).
pub const MAX_DEPTH: u32 = 4;

/// Largest exact endgame table `best` may use (`exact=3` takes minutes and
/// about 600 MB to build once per process).
pub const MAX_EXACT: usize = 3;
/// The endgame table used unless told otherwise (built in about a second).
pub const DEFAULT_EXACT: usize = 2;

/// The options of `best:`, for the shared reader.
pub const BEST_OPTIONS: PlayerOptions = PlayerOptions::new(&[
    OptionSpec::new(
        "depth",
        "the search depth in turns",
        Kind::Whole {
            min: 1,
            max: MAX_DEPTH as u64,
        },
    ),
    OptionSpec::new(
        "exact",
        "the markers of the exact endgame table",
        Kind::Whole {
            min: 0,
            max: MAX_EXACT as u64,
        },
    ),
]);

/// Table-driven expectimax player.
#[derive(Clone, Copy, Debug)]
pub struct Best {
    /// Turns searched (1..=MAX_DEPTH).
    pub depth: u32,
    /// Markers per player of the exact endgame table (0: none; capped below the
    /// game's own number of markers when the player is built for a game).
    pub exact: usize,
}

impl Default for Best {
    fn default() -> Self {
        Best {
            depth: 2,
            exact: DEFAULT_EXACT,
        }
    }
}

/// What the search reads: the race tables and, if any, the exact endgame table.
struct Tabs {
    race: &'static Tables,
    end: Option<std::sync::Arc<Solution>>,
}

impl Best {
    /// Builds the player from options: empty, `depth=N` (1..=4) and/or
    /// `exact=K` (0..=3: the endgame table's markers per player).
    pub fn from_options(options: &str) -> Result<Best, PlayerOptionError> {
        let read = BEST_OPTIONS.read(options)?;
        let default = Best::default();
        Ok(Best {
            depth: read.whole("depth").map_or(default.depth, |d| d as u32),
            exact: read.whole("exact").map_or(default.exact, |k| k as usize),
        })
    }

    /// The same player for a game with `markers` per player: the endgame table
    /// is smaller than the game (the full game's table would be `optimal`).
    pub fn for_markers(mut self, markers: usize) -> Best {
        self.exact = self.exact.min(markers.saturating_sub(1));
        self
    }

    /// The same player without the endgame table unless this process already
    /// has it (for analysis, which must answer without building tables).
    pub fn without_building(mut self) -> Best {
        if self.exact > 0 && exact::cached(self.exact).is_none() {
            self.exact = 0;
        }
        self
    }

    fn tabs(&self) -> Tabs {
        // Without its table in time (3 markers take about a minute to build), a
        // move is valued by the race alone.
        let end = (self.exact > 0)
            .then(|| exact::solution_in_time(self.exact))
            .flatten();
        Tabs {
            race: tables(),
            end,
        }
    }

    /// The value of each distinct marker move at a decision node, for `seat`
    /// (probability of winning), best first.
    pub fn rank_moves(&self, state: &State) -> Vec<(u8, f64)> {
        let t = &self.tabs();
        let seat = state.side as usize & 1;
        let mut out: Vec<(u8, f64)> = distinct_markers(state)
            .map(|m| (m, after_move(t, state, m, seat, self.depth - 1)))
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out
    }
}

/// Marker indices in play, one per occupied square.
fn distinct_markers(state: &State) -> impl Iterator<Item = u8> + '_ {
    let mine = state.markers[state.side as usize & 1];
    (0..MARKERS)
        .filter(move |&m| mine[m] != TARGET && !mine[..m].contains(&mine[m]))
        .map(|m| m as u8)
}

/// P(`me` wins) from the exact endgame table, if the position is in it.
fn endgame(t: &Tabs, state: &State, me: usize) -> Option<f64> {
    let s = state.side as usize & 1;
    let p = t
        .end
        .as_ref()?
        .endgame_value(&state.markers[s], &state.markers[1 - s])?;
    Some(if s == me { p } else { 1.0 - p })
}

/// P(`me` wins) at a node where the die is about to be rolled.
fn leaf(t: &Tabs, state: &State, me: usize) -> f64 {
    if let Some(w) = state.winner() {
        return if w == me { 1.0 } else { 0.0 };
    }
    if let Some(p) = endgame(t, state, me) {
        return p;
    }
    let s = state.side as usize & 1;
    let p = t.race.race(state.markers[s], state.markers[1 - s]);
    if s == me {
        p
    } else {
        1.0 - p
    }
}

fn after_move(t: &Tabs, state: &State, m: u8, me: usize, depth: u32) -> f64 {
    let mut next = *state;
    next.apply(Move::Marker(m));
    rolling(t, &next, me, depth)
}

/// P(`me` wins) where the side to act is about to roll, searching `depth` turns.
fn rolling(t: &Tabs, state: &State, me: usize, depth: u32) -> f64 {
    if depth == 0 || state.winner().is_some() {
        return leaf(t, state, me);
    }
    if let Some(p) = endgame(t, state, me) {
        return p;
    }
    let mover = state.side as usize & 1;
    let mut forfeit = *state;
    forfeit.apply(Move::Roll(1));
    let mut total = rolling(t, &forfeit, me, depth - 1);
    for r in 2..=6 {
        let mut rolled = *state;
        rolled.apply(Move::Roll(r));
        let values = distinct_markers(&rolled).map(|m| after_move(t, &rolled, m, me, depth - 1));
        total += if mover == me {
            values.fold(f64::NEG_INFINITY, f64::max)
        } else {
            values.fold(f64::INFINITY, f64::min)
        };
    }
    total / 6.0
}

impl Strategy<Auto120> for Best {
    fn choose(
        &mut self,
        _game: &Auto120,
        state: &State,
        _seat: Seat,
        _rng: &mut Rng,
    ) -> Option<Choice<Move>> {
        if state.roll == 0 || state.winner().is_some() {
            return None;
        }
        let ranked = self.rank_moves(state);
        let (m, p) = *ranked.first()?;
        Some(Choice::because(
            Move::Marker(m),
            format!("best ({:.1}% to win)", 100.0 * p),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    fn best_move(pos: &str, depth: u32) -> u8 {
        let s = parse_position(pos).unwrap();
        Best { depth, exact: 0 }.rank_moves(&s)[0].0
    }

    #[test]
    fn takes_the_winning_move() {
        for d in 1..=2 {
            assert_eq!(best_move("120,4,120,20/1,1,1,1:1r6", d), 3);
        }
    }

    #[test]
    fn bumps_a_runner_about_to_finish() {
        // Player 2 has three markers home and one on 40; Player 1 can land on 40.
        assert_eq!(best_move("2,8,1,5/120,120,120,40:1r5", 2), 1);
    }

    #[test]
    fn endgames_are_exact() {
        // Both players have two markers left in the four-marker game: exactly the
        // two-marker game, so best's values are the solved table's.
        let s = parse_position("120,40,120,5/1,120,120,24:1r3").unwrap();
        let two = crate::notation::parse_position_with("40,5/1,24:1r3", 2).unwrap();
        let sol = exact::solution(2, u64::MAX).unwrap();
        let want = sol.move_values(&two);
        let got = Best::default().rank_moves(&s);
        // Marker 2 of the four is marker 1 of the two, marker 4 is marker 2.
        let rename = |m: u8| if m == 1 { 0 } else { 1 };
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(rename(g.0), w.0);
            assert!((g.1 - w.1).abs() < 1e-9, "{g:?} {w:?}");
        }
        // Without the table the race evaluation gives other numbers.
        let race = Best { depth: 2, exact: 0 }.rank_moves(&s);
        assert!(race.iter().zip(&got).any(|(r, g)| (r.1 - g.1).abs() > 1e-6));
    }

    #[test]
    fn ranks_are_probabilities() {
        let s = parse_position("2,3,4,1/5,6,1,1:1r2").unwrap();
        let r = Best::default().rank_moves(&s);
        assert_eq!(r.len(), 4);
        assert!(r.iter().all(|&(_, p)| (0.0..=1.0).contains(&p)));
        assert!(r.windows(2).all(|w| w[0].1 >= w[1].1));
    }
}
