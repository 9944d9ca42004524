//! Expectimax: depth- or time-limited search for games with chance (dice).
//!
//! Values are from the point of view of the seat choosing at the root, in -1..1:
//! +1 a win, -1 a loss, [`Game::evaluate`] at the depth limit. A node where the
//! root seat chooses takes the maximum, a node where another seat chooses the
//! minimum (the game is treated as zero-sum), and a chance node the average
//! weighted by [`Game::chance_outcomes`]. Depth counts plies, chance events
//! included, so chains of chance nodes (a die roll that passes the turn) always
//! end. With a time limit the search deepens one ply at a time and plays the best
//! move of the deepest search it finished.

use crate::search_options::SearchOptions;
use rand::Rng as _;
use std::time::{Duration, Instant};
use tabula_core::{Choice, Game, Outcome, Players, Rng, Seat, Strategy, Turn};

/// Deepest search a time-limited player will try.
pub use crate::search_options::MAX_DEPTH;

/// The expectimax player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectimax {
    /// Plies searched (chance events count), or the deepest a timed search may go.
    pub depth: u32,
    /// Stop deepening after this much time, if set.
    pub time_limit: Option<Duration>,
}

impl Default for Expectimax {
    fn default() -> Self {
        Expectimax {
            depth: 3,
            time_limit: None,
        }
    }
}

impl Expectimax {
    /// A search of `depth` plies.
    pub fn with_depth(depth: u32) -> Self {
        Expectimax {
            depth: depth.clamp(1, MAX_DEPTH),
            time_limit: None,
        }
    }

    /// Iterative deepening for about `time_limit` per move.
    pub fn with_time(time_limit: Duration) -> Self {
        Expectimax {
            depth: MAX_DEPTH,
            time_limit: Some(time_limit),
        }
    }

    /// Reads options `depth=N` (1..=64 plies) and/or `ms=T` (1..=10000 ms per
    /// move), comma separated; empty means depth 3. With `ms` alone the depth is
    /// unlimited (64); with both, `depth` caps the deepening.
    pub fn from_options(options: &str) -> Result<Self, String> {
        let read = SearchOptions::parse(options).map_err(|e| e.to_string())?;
        Ok(match (read.depth, read.time) {
            (depth, Some(time)) => Expectimax {
                depth: depth.unwrap_or(MAX_DEPTH),
                time_limit: Some(time),
            },
            (Some(depth), None) => Expectimax::with_depth(depth),
            (None, None) => Expectimax::default(),
        })
    }

    /// The value of every legal move at a decision node, for the seat to move, after
    /// a search of `depth` plies below the root (the move itself counts as one).
    pub fn move_values<G: Players>(
        &self,
        game: &G,
        state: &G::State,
        depth: u32,
    ) -> Vec<(G::Move, f64)> {
        let Turn::Move(seat) = game.turn(state) else {
            return Vec::new();
        };
        let mut search = Search {
            game,
            root: seat,
            deadline: None,
            stop: None,
            nodes: 0,
            timed_out: false,
            cut: false,
        };
        search.root_values(state, depth.max(1)).unwrap_or_default()
    }
}

type MoveValues<G> = Vec<(<G as Game>::Move, f64)>;

struct Search<'a, G: Game> {
    game: &'a G,
    root: Seat,
    deadline: Option<Instant>,
    /// The cancel flag of the thread's current budget (the server's request).
    stop: Option<tabula_core::CancelFlag>,
    nodes: u64,
    timed_out: bool,
    /// Some leaf was cut by the depth limit (deeper search could change things).
    cut: bool,
}

impl<G: Players> Search<'_, G> {
    fn root_values(&mut self, state: &G::State, depth: u32) -> Option<Vec<(G::Move, f64)>> {
        let mut moves = Vec::new();
        self.game.legal_moves(state, &mut moves);
        let mut out = Vec::with_capacity(moves.len());
        for mv in moves {
            let mut child = state.clone();
            self.game.play_unchecked(&mut child, mv);
            out.push((mv, self.value(&child, depth - 1)?));
        }
        Some(out)
    }

    /// The value for the root seat, or `None` if time ran out.
    fn value(&mut self, state: &G::State, depth: u32) -> Option<f64> {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.timed_out = true;
                }
            }
            if self.stop.as_ref().is_some_and(|s| s.is_cancelled()) {
                self.timed_out = true;
            }
        }
        if self.timed_out {
            return None;
        }
        let turn = self.game.turn(state);
        match turn {
            Turn::Over(Outcome::Win(w)) => return Some(if w == self.root { 1.0 } else { -1.0 }),
            Turn::Over(Outcome::Draw) => return Some(0.0),
            Turn::Over(Outcome::Ended) => return Some(self.game.evaluate(state, self.root)),
            _ if depth == 0 => {
                self.cut = true;
                return Some(self.game.evaluate(state, self.root));
            }
            _ => {}
        }
        match turn {
            Turn::Chance => {
                let mut outcomes = Vec::new();
                self.game.chance_outcomes(state, &mut outcomes);
                let mut total = 0.0;
                for (mv, p) in outcomes {
                    let mut child = state.clone();
                    self.game.play_unchecked(&mut child, mv);
                    total += p * self.value(&child, depth - 1)?;
                }
                Some(total)
            }
            Turn::Move(seat) => {
                let mut moves = Vec::new();
                self.game.legal_moves(state, &mut moves);
                if moves.is_empty() {
                    return Some(self.game.evaluate(state, self.root));
                }
                let maximise = seat == self.root;
                let mut best = if maximise {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                };
                for mv in moves {
                    let mut child = state.clone();
                    self.game.play_unchecked(&mut child, mv);
                    let v = self.value(&child, depth - 1)?;
                    best = if maximise { best.max(v) } else { best.min(v) };
                }
                Some(best)
            }
            Turn::Over(_) => unreachable!("handled above"),
        }
    }
}

impl<G: Players> Strategy<G> for Expectimax {
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        seat: Seat,
        rng: &mut Rng,
    ) -> Option<Choice<G::Move>> {
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        match moves.len() {
            0 => return None,
            1 => return Some(Choice::because(moves[0], "the only move")),
            _ => {}
        }
        let started = Instant::now();
        // A fixed depth still stops after the longest think a move may take, or at
        // the request's deadline when that comes first.
        let (deadline, stop) = tabula_core::Budget::current_limits(Some(
            started
                + self
                    .time_limit
                    .unwrap_or(Duration::from_millis(crate::search_options::MAX_MS)),
        ));
        let mut search = Search {
            game,
            root: seat,
            deadline,
            stop,
            nodes: 0,
            timed_out: false,
            cut: false,
        };
        let mut best: Option<(MoveValues<G>, u32)> = None;
        let first = if self.time_limit.is_some() {
            1
        } else {
            self.depth
        };
        for depth in first..=self.depth {
            search.cut = false;
            match search.root_values(state, depth) {
                Some(values) => best = Some((values, depth)),
                None => break,
            }
            if !search.cut {
                break; // the whole tree fits: deeper search changes nothing
            }
        }
        // Even the 1-ply search ran out of time: fall back to the static evaluation.
        let (values, depth) = best.unwrap_or_else(|| {
            let values = moves
                .iter()
                .map(|&mv| {
                    let mut child = state.clone();
                    game.play_unchecked(&mut child, mv);
                    (mv, game.evaluate(&child, seat))
                })
                .collect();
            (values, 0)
        });
        let top = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
        let ties: Vec<G::Move> = values
            .iter()
            .filter(|v| v.1 >= top - 1e-12)
            .map(|v| v.0)
            .collect();
        let mv = ties[rng.gen_range(0..ties.len())];
        Some(Choice::because(
            mv,
            format!("looked {depth} plies ahead, the dice included"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::{
        ExactAnalysis, MatchRules, Notation, ParseError, Players, Presentation, Symmetry, View,
    };

    /// A dice race: each turn the mover rolls 1 (probability 1/4) or 2 (3/4) and
    /// either adds the roll to their own counter or subtracts it from the
    /// opponent's. First to reach `goal` wins.
    #[derive(Clone)]
    struct Race {
        goal: i32,
    }

    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct RaceState {
        score: [i32; 2],
        side: usize,
        roll: i32,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    enum RaceMove {
        Roll(i32),
        Advance,
        Hinder,
    }

    impl Game for Race {
        type State = RaceState;
        type Move = RaceMove;
        const NAME: &'static str = "race";
        fn seats(&self) -> &'static [&'static str] {
            &["A", "B"]
        }
        fn initial_state(&self) -> RaceState {
            RaceState {
                score: [0, 0],
                side: 0,
                roll: 0,
            }
        }
        fn turn(&self, s: &RaceState) -> Turn {
            if let Some(w) = (0..2).find(|&i| s.score[i] >= self.goal) {
                Turn::Over(Outcome::Win(w))
            } else if s.roll == 0 {
                Turn::Chance
            } else {
                Turn::Move(s.side)
            }
        }
        fn legal_moves(&self, s: &RaceState, out: &mut Vec<RaceMove>) {
            match self.turn(s) {
                Turn::Chance => out.extend([RaceMove::Roll(1), RaceMove::Roll(2)]),
                Turn::Move(_) => out.extend([RaceMove::Advance, RaceMove::Hinder]),
                Turn::Over(_) => {}
            }
        }
        fn chance_outcomes(&self, _s: &RaceState, out: &mut Vec<(RaceMove, f64)>) {
            out.extend([(RaceMove::Roll(1), 0.25), (RaceMove::Roll(2), 0.75)]);
        }
        fn play_unchecked(&self, s: &mut RaceState, mv: RaceMove) {
            match mv {
                RaceMove::Roll(r) => s.roll = r,
                RaceMove::Advance => {
                    s.score[s.side] += s.roll;
                    s.side ^= 1;
                    s.roll = 0;
                }
                RaceMove::Hinder => {
                    s.score[1 - s.side] -= s.roll;
                    s.side ^= 1;
                    s.roll = 0;
                }
            }
        }
    }

    impl Notation for Race {
        fn parse_move(&self, _s: &RaceState, _t: &str) -> Result<RaceMove, ParseError> {
            Err(ParseError::new("test game"))
        }
        fn format_move(&self, _s: &RaceState, mv: RaceMove) -> String {
            format!("{mv:?}")
        }
        fn parse_position(&self, _t: &str) -> Result<RaceState, ParseError> {
            Err(ParseError::new("test game"))
        }
        fn format_position(&self, s: &RaceState) -> String {
            format!("{s:?}")
        }
    }

    impl Presentation for Race {
        fn render_text(&self, s: &RaceState) -> String {
            format!("{s:?}")
        }
        fn view(&self, _s: &RaceState) -> View {
            View::default()
        }
    }

    impl Symmetry for Race {}

    impl ExactAnalysis for Race {}

    impl Players for Race {
        fn evaluate(&self, s: &RaceState, seat: Seat) -> f64 {
            ((s.score[seat] - s.score[1 - seat]) as f64 / self.goal as f64).clamp(-1.0, 1.0)
        }
    }

    impl MatchRules for Race {}

    #[test]
    fn finishing_move_is_found_and_valued_as_a_win() {
        let g = Race { goal: 3 };
        let s = RaceState {
            score: [1, 2],
            side: 0,
            roll: 2,
        };
        let values = Expectimax::with_depth(1).move_values(&g, &s, 1);
        let advance = values.iter().find(|v| v.0 == RaceMove::Advance).unwrap().1;
        assert_eq!(advance, 1.0);
        let mut p = Expectimax::with_depth(3);
        let c = p
            .choose(&g, &s, 0, &mut tabula_core::rng_from_seed(1))
            .unwrap();
        assert_eq!(c.mv, RaceMove::Advance);
    }

    #[test]
    fn chance_nodes_average_with_their_probabilities() {
        // Depth 3: our move, B's roll, B's move, then the evaluation.
        let g = Race { goal: 3 };
        let s = RaceState {
            score: [0, 2],
            side: 0,
            roll: 1,
        };
        let values = Expectimax::with_depth(3).move_values(&g, &s, 3);
        let hinder = values.iter().find(|v| v.0 == RaceMove::Hinder).unwrap().1;
        let advance = values.iter().find(|v| v.0 == RaceMove::Advance).unwrap().1;
        // Advance: B on 2 wins with any roll: value -1.
        assert_eq!(advance, -1.0);
        // Hinder: B on 1 wins with a 2 (p 0.75, value -1); with a 1 B's best is to
        // advance to 2 (eval (1-2)/3) or hinder us to -1 (eval (-1-1)/3): B picks the
        // smaller value for us, -2/3.
        let (p_two, p_one) = (0.75, 0.25);
        let expected = -p_two + p_one * (-2.0 / 3.0);
        assert!((hinder - expected).abs() < 1e-12, "{hinder} vs {expected}");
    }

    #[test]
    fn options_are_read_and_checked() {
        assert_eq!(Expectimax::from_options("").unwrap(), Expectimax::default());
        assert_eq!(Expectimax::from_options("depth=5").unwrap().depth, 5);
        let timed = Expectimax::from_options("ms=50").unwrap();
        assert_eq!(timed.time_limit, Some(Duration::from_millis(50)));
        assert_eq!(Expectimax::from_options("ms=50,depth=7").unwrap().depth, 7);
        for bad in ["depth=0", "depth=x", "ms=0", "speed=3", "depth"] {
            assert!(Expectimax::from_options(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_timed_search_returns_a_legal_move() {
        let g = Race { goal: 40 };
        let s = RaceState {
            score: [0, 0],
            side: 0,
            roll: 2,
        };
        let mut p = Expectimax::from_options("ms=5").unwrap();
        let c = p
            .choose(&g, &s, 0, &mut tabula_core::rng_from_seed(3))
            .unwrap();
        assert!(matches!(c.mv, RaceMove::Advance | RaceMove::Hinder));
        assert!(c.reason.unwrap().starts_with("looked "));
    }
}
