//! A tiny game for the solvers' own tests: a pile of counters; take one or two;
//! whoever cannot move loses. With `grow`, a player may also add one counter while
//! the pile is below `cap`, which makes the game graph cyclic.

use tabula_core::{
    draw_rule_length, Actions, ExactAnalysis, Game, MatchRules, Notation, Outcome, ParseError,
    PlayDrawRule, Players, Presentation, Seat, Symmetry, Turn, View,
};

#[derive(Clone, Debug)]
pub struct Pile {
    pub start: u32,
    pub grow: bool,
    pub cap: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PileState {
    pub n: u32,
    pub to_move: usize,
}

impl Game for Pile {
    type State = PileState;
    type Move = i8;
    const NAME: &'static str = "pile";
    fn seats(&self) -> &'static [&'static str] {
        &["A", "B"]
    }
    fn initial_state(&self) -> PileState {
        PileState {
            n: self.start,
            to_move: 0,
        }
    }
    fn turn(&self, s: &PileState) -> Turn {
        let mut v = Vec::new();
        self.legal_moves(s, &mut v);
        if v.is_empty() {
            Turn::Over(Outcome::Win(1 - s.to_move))
        } else {
            Turn::Move(s.to_move)
        }
    }
    fn legal_moves(&self, s: &PileState, out: &mut Vec<i8>) {
        if s.n >= 1 {
            out.push(-1);
        }
        if s.n >= 2 {
            out.push(-2);
        }
        if self.grow && s.n < self.cap && s.n > 0 {
            out.push(1);
        }
    }
    fn play_unchecked(&self, s: &mut PileState, mv: i8) {
        s.n = (s.n as i64 + mv as i64) as u32;
        s.to_move = 1 - s.to_move;
    }
}

impl Notation for Pile {
    fn parse_move(&self, _s: &PileState, text: &str) -> Result<i8, ParseError> {
        text.parse().map_err(|_| ParseError::new("not a number"))
    }
    fn format_move(&self, _s: &PileState, mv: i8) -> String {
        mv.to_string()
    }
    fn parse_position(&self, text: &str) -> Result<PileState, ParseError> {
        let (n, m) = text
            .split_once(' ')
            .ok_or_else(|| ParseError::new("n side"))?;
        Ok(PileState {
            n: n.parse().map_err(|_| ParseError::new("n"))?,
            to_move: m.parse().map_err(|_| ParseError::new("side"))?,
        })
    }
    fn format_position(&self, s: &PileState) -> String {
        format!("{} {}", s.n, s.to_move)
    }
}

impl Presentation for Pile {
    fn render_text(&self, s: &PileState) -> String {
        self.format_position(s)
    }
    fn view(&self, _s: &PileState) -> View {
        View::default()
    }
}

impl Symmetry for Pile {}

impl ExactAnalysis for Pile {}

impl Players for Pile {}

/// With `grow` the game can go on forever: actual play draws on the third
/// occurrence of a position.
impl MatchRules for Pile {
    fn play_draw_rule(&self) -> PlayDrawRule {
        PlayDrawRule {
            repetitions: self.grow.then_some(3),
            plies_without_progress: None,
        }
    }
}

/// Ids: taking two is 0, taking one 1, adding one 2.
impl Actions for Pile {
    fn num_distinct_actions(&self) -> usize {
        3
    }
    fn action_of(&self, _s: &PileState, mv: i8) -> usize {
        (mv + 2).clamp(0, 3) as usize - usize::from(mv > 0)
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![2]
    }
    fn observation(&self, s: &PileState, seat: Seat, out: &mut Vec<f32>) {
        out.clear();
        out.extend([s.n as f32, f32::from(u8::from(s.to_move == seat))]);
    }
    fn max_game_length(&self) -> usize {
        if self.grow {
            // Piles 0..=cap, either side to move.
            let positions = 2 * (u64::from(self.cap.max(self.start)) + 1);
            draw_rule_length(self.play_draw_rule(), Some(positions), None)
        } else {
            self.start as usize
        }
    }
}
