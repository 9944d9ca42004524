//! Sprague-Grundy values of impartial games under the normal-play convention.
//!
//! The Grundy value of a position is the mex (least non-negative integer not among)
//! of its options' values; a position is lost for the side to move iff its value is
//! 0, and a sum of games has the nim-sum (exclusive or) of their values. Values are
//! memoised by position; the search uses an explicit stack, so deep games do not
//! overflow the thread's stack, and a position met again on the current line is
//! reported as a cycle (Grundy theory needs a finite, acyclic game).

use rustc_hash::FxHashMap;
use tabula_core::{Game, Notation, Outcome, Turn};
use thiserror::Error;

/// Why a Grundy value could not be computed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GrundyError {
    /// Sprague-Grundy theory is for impartial games.
    #[error(
        "{0} is not an impartial game: Grundy values need both players to have the same moves"
    )]
    NotImpartial(String),
    /// A chance node was reached.
    #[error("the game has chance moves; Grundy values need a deterministic game")]
    Chance,
    /// A position repeats on a line of play.
    #[error("the game has a cycle through position '{0}'; Grundy values need an acyclic game")]
    Cycle(String),
    /// A finished position that is not a loss for the player who cannot move.
    #[error("position '{0}' ends the game in a way that is not normal play (the last player to move must win)")]
    NotNormalPlay(String),
    /// Too many positions are reachable.
    #[error("more than {0} positions are reachable: too large for the Grundy search")]
    TooLarge(usize),
}

/// A memo of Grundy values for one game, reusable across queries.
pub struct Grundy<G: Game> {
    memo: FxHashMap<G::State, u64>,
    max_positions: usize,
}

struct Frame<S> {
    state: S,
    options: Vec<S>,
    next: usize,
    seen: Vec<u64>,
}

impl<G: Notation> Grundy<G> {
    /// An empty memo that refuses to hold more than `max_positions` positions.
    pub fn new(max_positions: usize) -> Self {
        Grundy {
            memo: FxHashMap::default(),
            max_positions,
        }
    }

    /// Number of positions whose value is known.
    pub fn len(&self) -> usize {
        self.memo.len()
    }

    /// True when nothing has been computed yet.
    pub fn is_empty(&self) -> bool {
        self.memo.is_empty()
    }

    /// The value of a position already computed.
    pub fn get(&self, state: &G::State) -> Option<u64> {
        self.memo.get(state).copied()
    }

    /// The Grundy value of `state`.
    pub fn value(&mut self, game: &G, state: &G::State) -> Result<u64, GrundyError> {
        if !G::IMPARTIAL {
            return Err(GrundyError::NotImpartial(G::NAME.to_string()));
        }
        if let Some(v) = self.get(state) {
            return Ok(v);
        }
        // Positions on the current line, to detect cycles.
        let mut on_line: FxHashMap<G::State, ()> = FxHashMap::default();
        let mut stack = vec![self.frame(game, state.clone())?];
        on_line.insert(state.clone(), ());
        loop {
            let top = stack.last_mut().expect("the stack holds the current line");
            if top.next < top.options.len() {
                let option = &top.options[top.next];
                if let Some(&v) = self.memo.get(option) {
                    top.seen.push(v);
                    top.next += 1;
                    continue;
                }
                if on_line.contains_key(option) {
                    return Err(GrundyError::Cycle(game.format_position(option)));
                }
                let option = option.clone();
                if self.memo.len() + stack.len() >= self.max_positions {
                    return Err(GrundyError::TooLarge(self.max_positions));
                }
                on_line.insert(option.clone(), ());
                let frame = self.frame(game, option)?;
                stack.push(frame);
                continue;
            }
            let done = stack.pop().expect("a frame");
            on_line.remove(&done.state);
            let v = mex(done.seen);
            self.memo.insert(done.state, v);
            match stack.last_mut() {
                Some(parent) => {
                    parent.seen.push(v);
                    parent.next += 1;
                }
                None => return Ok(v),
            }
        }
    }

    fn frame(&self, game: &G, state: G::State) -> Result<Frame<G::State>, GrundyError> {
        let mut options = Vec::new();
        match game.turn(&state) {
            Turn::Chance => return Err(GrundyError::Chance),
            Turn::Over(_) => {}
            Turn::Move(seat) => {
                let mut moves = Vec::new();
                game.legal_moves(&state, &mut moves);
                for mv in moves {
                    let mut child = state.clone();
                    game.play_unchecked(&mut child, mv);
                    // Normal play: whoever moves into a finished position must have won it.
                    if let Turn::Over(outcome) = game.turn(&child) {
                        if outcome != Outcome::Win(seat) {
                            return Err(GrundyError::NotNormalPlay(game.format_position(&child)));
                        }
                    }
                    options.push(child);
                }
            }
        }
        Ok(Frame {
            state,
            options,
            next: 0,
            seen: Vec::new(),
        })
    }
}

/// The least non-negative integer not in `values`.
pub fn mex(mut values: Vec<u64>) -> u64 {
    values.sort_unstable();
    values.dedup();
    let mut m = 0;
    for v in values {
        if v == m {
            m += 1;
        } else if v > m {
            break;
        }
    }
    m
}

/// The Grundy value of one position (a fresh memo of at most `max_positions`).
pub fn grundy_value<G: Notation>(
    game: &G,
    state: &G::State,
    max_positions: usize,
) -> Result<u64, GrundyError> {
    Grundy::new(max_positions).value(game, state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::{
        ExactAnalysis, MatchRules, Notation, ParseError, Players, Presentation, Seat, Symmetry,
        View,
    };

    /// A subtraction game on one heap: take any amount from `take`, or (when `cyclic`)
    /// also add one counter back, which makes the graph cyclic.
    #[derive(Clone)]
    struct Subtraction {
        take: &'static [u32],
        cyclic: bool,
        misere: bool,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    struct Heap {
        size: u32,
        mover: u8,
    }

    impl Game for Subtraction {
        type State = Heap;
        type Move = i64;
        const NAME: &'static str = "subtraction";
        fn seats(&self) -> &'static [&'static str] {
            &["A", "B"]
        }
        fn initial_state(&self) -> Heap {
            Heap { size: 10, mover: 0 }
        }
        fn turn(&self, s: &Heap) -> Turn {
            let mut m = Vec::new();
            self.legal_moves(s, &mut m);
            if m.is_empty() {
                let last = 1 - s.mover as Seat;
                Turn::Over(Outcome::Win(if self.misere {
                    s.mover as Seat
                } else {
                    last
                }))
            } else {
                Turn::Move(s.mover as Seat)
            }
        }
        fn legal_moves(&self, s: &Heap, out: &mut Vec<i64>) {
            for &t in self.take {
                if t <= s.size {
                    out.push(-(t as i64));
                }
            }
            if self.cyclic && s.size < 3 {
                out.push(1);
            }
        }
        fn play_unchecked(&self, s: &mut Heap, mv: i64) {
            s.size = (s.size as i64 + mv) as u32;
            s.mover ^= 1;
        }
        const IMPARTIAL: bool = true;
    }

    impl Notation for Subtraction {
        fn parse_move(&self, _: &Heap, _: &str) -> Result<i64, ParseError> {
            Err(ParseError::new("unused"))
        }
        fn format_move(&self, _: &Heap, mv: i64) -> String {
            mv.to_string()
        }
        fn parse_position(&self, _: &str) -> Result<Heap, ParseError> {
            Err(ParseError::new("unused"))
        }
        fn format_position(&self, s: &Heap) -> String {
            s.size.to_string()
        }
    }

    impl Presentation for Subtraction {
        fn render_text(&self, s: &Heap) -> String {
            s.size.to_string()
        }
        fn view(&self, _: &Heap) -> View {
            View::default()
        }
    }

    impl Symmetry for Subtraction {}

    impl ExactAnalysis for Subtraction {}

    impl Players for Subtraction {}

    impl MatchRules for Subtraction {}

    const NIM_TAKES: &[u32] = &[
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
        26, 27, 28, 29, 30,
    ];

    #[test]
    fn a_nim_heap_of_n_has_value_n() {
        let g = Subtraction {
            take: NIM_TAKES,
            cyclic: false,
            misere: false,
        };
        let mut memo = Grundy::new(1000);
        for n in 0..=30 {
            assert_eq!(
                memo.value(&g, &Heap { size: n, mover: 0 }).unwrap(),
                n as u64
            );
        }
    }

    #[test]
    fn subtraction_game_one_two_is_periodic() {
        // Take 1 or 2: values 0,1,2,0,1,2,... (Winning Ways, the subtraction game S(1,2)).
        let g = Subtraction {
            take: &[1, 2],
            cyclic: false,
            misere: false,
        };
        for n in 0..40u32 {
            assert_eq!(
                grundy_value(&g, &Heap { size: n, mover: 1 }, 1000).unwrap(),
                (n % 3) as u64
            );
        }
        // Take 2 or 5: the published period-7 pattern 0,0,1,1,0,2,1.
        let g = Subtraction {
            take: &[2, 5],
            cyclic: false,
            misere: false,
        };
        let pattern = [0, 0, 1, 1, 0, 2, 1];
        for n in 0..40u32 {
            assert_eq!(
                grundy_value(&g, &Heap { size: n, mover: 0 }, 1000).unwrap(),
                pattern[n as usize % 7]
            );
        }
    }

    #[test]
    fn deep_games_do_not_overflow_the_stack() {
        let g = Subtraction {
            take: &[1],
            cyclic: false,
            misere: false,
        };
        let v = grundy_value(
            &g,
            &Heap {
                size: 200_000,
                mover: 0,
            },
            1_000_000,
        )
        .unwrap();
        assert_eq!(v, 0);
    }

    #[test]
    fn cycles_misere_and_size_are_errors() {
        let g = Subtraction {
            take: &[1],
            cyclic: true,
            misere: false,
        };
        assert!(matches!(
            grundy_value(&g, &Heap { size: 2, mover: 0 }, 1000),
            Err(GrundyError::Cycle(_))
        ));
        let g = Subtraction {
            take: &[1],
            cyclic: false,
            misere: true,
        };
        assert!(matches!(
            grundy_value(&g, &Heap { size: 2, mover: 0 }, 1000),
            Err(GrundyError::NotNormalPlay(_))
        ));
        let g = Subtraction {
            take: &[1],
            cyclic: false,
            misere: false,
        };
        assert_eq!(
            grundy_value(&g, &Heap { size: 50, mover: 0 }, 10),
            Err(GrundyError::TooLarge(10))
        );
    }

    #[test]
    fn mex_of_sets() {
        assert_eq!(mex(vec![]), 0);
        assert_eq!(mex(vec![1, 2]), 0);
        assert_eq!(mex(vec![0, 0, 1, 3]), 2);
        assert_eq!(mex(vec![2, 1, 0]), 3);
    }
}
